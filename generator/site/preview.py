"""What `deepkb serve` adds to MkDocs' preview server: only requests addressed to it are answered, and what it
logs about a request is made inert.

A page on another site can make a reader's browser ask 127.0.0.1:8000 for anything (DNS rebinding reaches it
under the attacker's host name): a request whose Host header is not the address served on (or localhost /
127.0.0.1 / [::1] at its port, when it serves on a loopback address) is refused with 400. Request lines are
logged through `terminal.printable`, so a path cannot carry escape sequences to the terminal.
"""

from __future__ import annotations

import errno
import logging
import socket
from collections.abc import Iterable
from typing import Any
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from ..errors import UsageError
from ..netguard import allowed_hosts
from ..terminal import printable

LIVERELOAD_LOGGER = "mkdocs.livereload"  # the logger MkDocs' preview server writes its request lines to


def preview_address(dev_addr: str) -> tuple[str, int]:
    """`IP:PORT` (or `[IPv6]:PORT`) as a host and a port; anything else is one UsageError line."""
    host, _, port = dev_addr.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise UsageError(f"--dev-addr {dev_addr!r} is not IP:PORT", hint="e.g. --dev-addr 127.0.0.1:8000")
    return host.strip("[]"), int(port)


def check_can_serve(dev_addr: str) -> None:
    """Bind `dev_addr` once and let it go, so that a busy port is one line before any rendering (MkDocs
    would say "Serving on" and then raise `OSError: [Errno 98]` with a long traceback)."""
    host, port = preview_address(dev_addr)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as MkDocs' server binds
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise serve_error(dev_addr, exc) from None


def serve_error(dev_addr: str, exc: OSError) -> UsageError:
    """The one line for an address the preview cannot listen on."""
    if exc.errno == errno.EADDRINUSE:
        return UsageError(
            f"cannot serve on {dev_addr}: the port is already in use",
            hint="stop the other server, or pick another port: deepkb serve --dev-addr 127.0.0.1:8001",
        )
    reason = exc.strerror or str(exc)
    return UsageError(f"cannot serve on {dev_addr}: {reason}", hint="pick another address with --dev-addr")


def host_guard(app: WSGIApplication, hosts: frozenset[str]) -> WSGIApplication:
    """`app`, answering 400 to a request whose Host header is not one of `hosts`."""

    def guarded(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if str(environ.get("HTTP_HOST", "")).strip().lower() not in hosts:
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"400 Bad Request: this preview answers only requests addressed to it\n"]
        return app(environ, start_response)

    return guarded


class PrintableRecords(logging.Filter):
    """Makes each record's message inert (a request line holds whatever bytes the client sent)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = printable(record.getMessage()), None
        return True


def guard_preview(server: Any, host: str, port: int) -> Any:
    """Wrap a WSGI preview server's application in the Host check; returns the server (MkDocs' on_serve)."""
    server.set_app(host_guard(server.get_app(), allowed_hosts(host, port)))
    logger = logging.getLogger(LIVERELOAD_LOGGER)
    if not any(isinstance(f, PrintableRecords) for f in logger.filters):
        logger.addFilter(PrintableRecords())
    return server
