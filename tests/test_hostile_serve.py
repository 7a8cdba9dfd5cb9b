"""Issue 22 #16: `deepkb serve` answers only requests addressed to it and logs request lines inert.

The preview server is the real one (MkDocs' livereload server under `deepkb serve`, in its own process: it
serves until it is stopped), on a free 127.0.0.1 port; requests are raw HTTP over a socket so that the Host
header and the request line are exactly what a hostile page or client sends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.store import KBPaths, write_page

SERVE = "from generator.cli import main; main()"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ask(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def _interruptible() -> None:
    """The server stops on SIGINT, as at a terminal: a shell's background job (a CI runner's, `make test &`)
    ignores SIGINT, and the server would inherit that and never stop."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def preview(kb_root: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    write_page(KBPaths(kb_root).topic_dir("t") / "index.md", {"title": "T"}, "Body.\n")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE, "--root", str(kb_root), "serve", "--dev-addr", f"127.0.0.1:{port}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "NO_COLOR": "1"},
        preexec_fn=_interruptible,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    try:
        yield port, proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _stopped(proc: subprocess.Popen[bytes]) -> bytes:
    """Everything the server wrote, once it has stopped: on SIGINT as at a terminal, else (a loaded CI
    machine where it was still building when interrupted, and hung) on SIGTERM. What it logged is the
    same either way; how fast it stops is not what this file tests."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        proc.terminate()
        return proc.communicate(timeout=60)[0]


def test_serve_refuses_another_host_and_logs_request_paths_inert(
    preview: tuple[int, subprocess.Popen[bytes]],
) -> None:
    port, proc = preview
    own = _ask(port, f"GET / HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert own.startswith(b"HTTP/1.0 200"), own[:200]
    assert _ask(port, f"GET / HTTP/1.0\r\nHost: localhost:{port}\r\n\r\n".encode()).startswith(
        b"HTTP/1.0 200"
    )
    # DNS rebinding: the browser sends the attacker's host name to the preview's address
    rebound = _ask(port, f"GET / HTTP/1.0\r\nHost: evil.example:{port}\r\n\r\n".encode())
    assert rebound.startswith(b"HTTP/1.0 400"), rebound[:200]
    assert b"<html" not in rebound.lower()
    assert _ask(port, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 400")  # no Host at all
    # a request line holding terminal escapes (set the window title, clear the screen) is logged inert
    _ask(port, f"GET /\x1b]0;pwned\x07\x1b[2J-missing HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    time.sleep(0.5)
    output = _stopped(proc)
    assert b"-missing" in output  # the 404 was logged
    assert b"\x1b" not in output and b"\x07" not in output
