"""Regular expressions compiled once and kept beside the bytecode, as Python keeps its own.

A `deepkb` process compiles about 300 patterns while it imports its modules and libraries (~50 ms of every
run: the symbol reader's are large, and Python's `re` keeps nothing between processes). While the command
line runs, `re`'s compiler is wrapped: a pattern compiled while a module is being imported (a module-level
constant, written in source code, never text read at run time), or inside `from_source_code()`, is kept as
the compiled program `_sre.compile` takes, and the next process builds it from that program without parsing
the pattern again. Patterns compiled from run-time text (ignore rules, request terms, anything a repository
or a page holds) are compiled as usual and never kept.

The programs are kept in `generator/__pycache__`, only when Python writes bytecode, for this interpreter's
exact version (its compiler's output may differ between versions). Each one is checked by `_sre.compile`
(which validates the program) before use; anything unexpected means compiling the pattern as usual.
Reads CPython's `re._compiler` and `re._parser`; where they differ, nothing is wrapped.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import atexit
import marshal
import os
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]
from types import FrameType
from typing import Any

KEPT_DIR = Path(__file__).parent / "__pycache__"
MAX_KEPT = 2_000  # patterns kept at most (one run compiles ~300)
_DEBUG = int(re.DEBUG)  # compiled as usual (it prints the program)

Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
"""What `_sre.compile` takes after the pattern: flags, code, groups, group index and index → group."""


def kept_file() -> Path:
    return KEPT_DIR / f"regex.{sys.implementation.cache_tag}.marshal"


def _header() -> tuple[str, int]:
    return (sys.version, _sre.MAGIC)


class KeptRegexes:
    """`re`'s compiler, wrapped: module-level patterns built from programs kept by an earlier process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.kept = self._load(path)
        self.new: dict[tuple[str | bytes, int], Program] = {}
        self.pid = os.getpid()
        self._compile = _compiler.compile
        self._lock = threading.Lock()

    @staticmethod
    def _load(path: Path) -> dict[tuple[str | bytes, int], Program]:
        try:
            found = marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}  # none yet, or not readable by this interpreter: compiled again
        if not isinstance(found, tuple) or len(found) != 2 or found[0] != _header():
            return {}  # another interpreter's
        programs = found[1]
        return programs if isinstance(programs, dict) else {}

    def compile(self, pattern: Any, flags: int = 0) -> Any:
        """`re._compiler.compile`, from a kept program where there is one."""
        if not isinstance(pattern, (str, bytes)) or flags & _DEBUG:
            return self._compile(pattern, flags)
        key = (pattern, int(flags))
        program = self.kept.get(key)
        if program is not None:
            try:
                return _sre.compile(pattern, *program)
            except (TypeError, ValueError, RuntimeError, OverflowError):
                self.kept.pop(key, None)  # not a program this interpreter takes: compiled again
        if not (getattr(_from_source, "on", False) or _importing(sys._getframe(1))):
            return self._compile(pattern, flags)
        try:
            program = _program(pattern, key[1])
            compiled = _sre.compile(pattern, *program)
        except Exception:  # an invalid pattern (re.error, as `re` raises it), or internals not as expected
            return self._compile(pattern, flags)
        with self._lock:
            if len(self.kept) + len(self.new) < MAX_KEPT:
                self.new[key] = program
        return compiled

    def save(self, *, always: bool = False) -> None:
        """Keep the programs compiled since the start (only when Python writes bytecode, unless `always`,
        and only in the process that started it: a forked copy leaves it to its parent). A folder that
        cannot be written only means compiling them again next time."""
        if not self.new or os.getpid() != self.pid or (sys.dont_write_bytecode and not always):
            return
        with self._lock:
            programs = {**self.kept, **self.new}
            self.new = {}
        self.kept = programs
        import tempfile  # only when there is something to keep

        try:
            self.path.parent.mkdir(exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".regex-", suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as out:
                    marshal.dump((_header(), programs), out)
                os.chmod(temporary, 0o644)  # readable by all, as bytecode is
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
        except (OSError, ValueError):
            pass  # read-only install, full disk: compiled again next time


_from_source = threading.local()


@contextmanager
def from_source_code() -> Iterator[None]:
    """The patterns compiled inside are built from source code and the data shipped with it (the secret
    formats, never run-time text): kept like module-level ones."""
    before = getattr(_from_source, "on", False)
    _from_source.on = True
    try:
        yield
    finally:
        _from_source.on = before


def _importing(frame: FrameType | None) -> bool:
    """Whether a module other than the main script is being executed (imported) below `frame`."""
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") != "__main__":
            return True
        frame = frame.f_back
    return False


def _program(pattern: str | bytes, flags: int) -> Program:
    """What `re._compiler.compile` hands `_sre.compile` for `pattern` (Python 3.11–3.13), in plain values."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (
        int(flags | parsed.state.flags),
        [int(op) for op in code],  # named opcode constants are ints to `_sre`, not to marshal
        parsed.state.groups - 1,
        dict(groupindex),
        tuple(indexgroup),
    )


_installed: KeptRegexes | None = None


def keep_regexes(path: Path | None = None) -> KeptRegexes | None:
    """Wrap `re`'s compiler for this process (once; kept at exit). None where `re` is not as expected."""
    global _installed
    if _installed is None and _understood():
        _installed = KeptRegexes(path or kept_file())
        _compiler.compile = _installed.compile
        atexit.register(_installed.save)
    return _installed


def _understood() -> bool:
    return all(hasattr(module, name) for module, name in ((_compiler, "_code"), (_parser, "parse"))) and (
        callable(getattr(_sre, "compile", None))
    )


def compile_regexes() -> None:
    """Import every deepkb module with `re`'s compiler wrapped and keep their patterns, as `compileall`
    does for bytecode (the benches; run it in a fresh process, where nothing is imported yet)."""
    import importlib
    import pkgutil

    import generator

    kept = keep_regexes()
    for module in pkgutil.walk_packages(generator.__path__, "generator."):
        if not module.name.endswith(".__main__"):  # that one runs the command line
            importlib.import_module(module.name)
    if kept is not None:
        kept.save(always=True)
