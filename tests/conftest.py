"""Shared fixtures. Every test runs hermetically: no API keys, caches and HOME in tmp, no network."""

from __future__ import annotations

import functools
import os
import signal
import stat
import subprocess
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from site_fixtures import write_shared_kb

from generator.cli import cli
from generator.store import KBPaths

RAM_TMP = Path("/dev/shm")
RAM_TMP_NEEDED = 2 * 1024**3


def pytest_configure(config: pytest.Config) -> None:
    """tmp_path and friends live in RAM (/dev/shm) when it has room and no other place was asked for: the store
    fsyncs every file it writes, and on a disk those waits were most of the suite's wall time."""
    if config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    try:
        stat = os.statvfs(RAM_TMP)
    except OSError:
        return
    if os.access(RAM_TMP, os.W_OK) and stat.f_bavail * stat.f_frsize >= RAM_TMP_NEEDED:
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(RAM_TMP)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """A skipped browser test is said in a banner at the end of the run, not only in the short summary."""
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if Path(report.nodeid.split("::")[0]).name.startswith("test_browser_")
    ]
    if not skipped:
        return
    banner = "BROWSER TESTS SKIPPED: the site was not checked in a browser"
    terminalreporter.write_sep("!", banner, red=True, bold=True)
    for reason in sorted(
        {str(report.longrepr[-1]) for report in skipped if isinstance(report.longrepr, tuple)}
    ):
        terminalreporter.write_line(reason, red=True, bold=True)
    terminalreporter.write_line(
        "`make test` installs Chromium when it may; CI=true turns this skip into a failure"
    )
    terminalreporter.write_sep("!", red=True, bold=True)


def hermetic(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """No key or token, HOME and the cache under `home`, git with no system config and a fixed author."""
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_TOKEN", "_SECRET")) or name.startswith(
            ("DEEPKB_", "OPENAI_", "ANTHROPIC_")
        ):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("DEEPKB_CACHE_DIR", str(home / "deepkb-cache"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.invalid")


@pytest.fixture(scope="session", autouse=True)
def hermetic_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The same environment for the whole run, so that fixtures shared by many tests (sites and knowledge
    bases built once per module or session, before any test's own fixtures) are built hermetically too."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        hermetic(monkeypatch, tmp_path_factory.mktemp("session-home"))
        yield


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    hermetic(monkeypatch, tmp_path_factory.mktemp("home"))


@contextmanager
def alarm(seconds: int) -> Iterator[None]:
    """Fail instead of hanging: a read that blocks forever (a FIFO) or a reader that never moves on raises
    TimeoutError after `seconds`, a bound far above the work's own time, never a measure of it."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def synced_folders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The folders os.fsync is asked to sync from now on, in order (files' syncs left out)."""
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def make_git_repo(root: Path, files: dict[str, str], *, origin: str | None = None) -> Path:
    """A fixture repository: write `files`, git init, commit. Returns `root`."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    if origin:
        git(root, "remote", "add", "origin", origin)
    return root


SAMPLE_PROJECT: dict[str, str] = {
    "README.md": "# Sample\n\nSample is a tiny calculator library used to test deepkb. It parses and evaluates expressions.\n",
    "sample/__init__.py": '"""Sample calculator package."""\n\nfrom .core import evaluate\n',
    "sample/core.py": '"""Core evaluation of parsed expressions."""\n\nfrom .parser import parse\n\n\ndef evaluate(text: str) -> float:\n    """Evaluate an arithmetic expression."""\n    return sum(parse(text))\n\n\nclass Calculator:\n    """Keeps a running total."""\n\n    def add(self, value: float) -> float:\n        return value\n',
    "sample/parser.py": '"""Parse expressions into numbers."""\n\n\ndef parse(text: str) -> list[float]:\n    """Split on plus signs."""\n    return [float(part) for part in text.split("+")]\n',
    "sample/cli.py": '"""Command line entry point."""\n\nimport sys\n\nfrom .core import evaluate\n\n\ndef main() -> None:\n    print(evaluate(sys.argv[1]))\n\n\nif __name__ == "__main__":\n    main()\n',
    "tests/test_core.py": "from sample.core import evaluate\n\n\ndef test_evaluate():\n    assert evaluate('1+2') == 3\n",
    "docs/guide.md": "# Guide\n\nUse evaluate() to compute sums.\n",
}


@pytest.fixture
def sample_repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "sample", SAMPLE_PROJECT, origin="https://github.com/acme/sample.git")


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    """An empty knowledge base root with the project's mkdocs.yml and templates reachable."""
    root = tmp_path / "kb"
    root.mkdir()
    return root


def deepkb(root: Path, *args: str, timeout: float | None = None) -> Result:
    """`deepkb --root ROOT ARGS…` in this process through click's CliRunner (the `cli` group, as the installed
    script runs it); an unexpected exception fails the test with its traceback. With `timeout`, a command still
    running after it fails the test instead of hanging the run."""
    args = ("--root", str(root), *args)
    invoke = functools.partial(CliRunner().invoke, cli, args, catch_exceptions=False)
    if timeout is None:
        return invoke()
    outcome: Future[Result] = Future()

    def run() -> None:
        try:
            outcome.set_result(invoke())
        except BaseException as exc:  # handed to the test's thread, raised there
            outcome.set_exception(exc)

    # a daemon thread: a command that never ends is left behind and the test fails, the run goes on
    threading.Thread(target=run, daemon=True).start()
    try:
        return outcome.result(timeout)
    except TimeoutError:
        pytest.fail(f"deepkb {' '.join(args)} still running after {timeout} s")


@dataclass
class SharedSite:
    """One knowledge base built once per test run by `deepkb site` (strict), read by many site tests."""

    paths: KBPaths
    written: dict[Path, dict[str, Any]]
    result: Result


@pytest.fixture(scope="session")
def shared_site(tmp_path_factory: pytest.TempPathFactory) -> SharedSite:
    root = tmp_path_factory.mktemp("shared-site")
    written = write_shared_kb(root)
    return SharedSite(KBPaths(root), written, deepkb(root, "site"))


@pytest.fixture
def no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to start a process fails the test (checks that must refuse before git runs)."""

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a process was started: {args!r}")

    monkeypatch.setattr(subprocess, "Popen", boom)
    monkeypatch.setattr(os, "posix_spawn", boom)
    monkeypatch.setattr(os, "system", boom)
