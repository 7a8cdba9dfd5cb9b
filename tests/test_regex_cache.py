"""Regular expressions kept between processes (generator/regex_cache.py): module-level patterns come back
from their kept programs, identical; run-time text is never kept; a bad or foreign file is compiled again."""

from __future__ import annotations

import importlib
import marshal
import re
import subprocess
import sys
import uuid
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]

import pytest

from generator import regex_cache
from generator.regex_cache import KeptRegexes


def _import_module_compiling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, patterns: list[str]) -> str:
    """Write and import a module compiling `patterns` at its top level (as source code does)."""
    name = f"kept_{uuid.uuid4().hex}"
    lines = ["import re"] + [f"P{i} = re.compile({p!r}, re.MULTILINE)" for i, p in enumerate(patterns)]
    (tmp_path / f"{name}.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module(name)
    return name


def _same(kept: re.Pattern[str], fresh: re.Pattern[str], text: str) -> None:
    assert (kept.pattern, kept.flags, kept.groups, kept.groupindex) == (
        fresh.pattern,
        fresh.flags,
        fresh.groups,
        fresh.groupindex,
    )
    assert [m.groupdict() for m in kept.finditer(text)] == [m.groupdict() for m in fresh.finditer(text)]
    assert [m.span() for m in kept.finditer(text)] == [m.span() for m in fresh.finditer(text)]


def test_module_patterns_are_kept_and_built_from_their_programs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = uuid.uuid4().hex  # patterns no earlier compile (nor re's own cache) has seen
    pattern = rf"^(?P<key>\w+)\s*=\s*(?P<value>[^#\n]*){token}?(?:#.*)?$"
    path = tmp_path / "kept" / "regex.marshal"
    kept = KeptRegexes(path)
    monkeypatch.setattr(_compiler, "compile", kept.compile)
    _import_module_compiling(tmp_path, monkeypatch, [pattern])
    assert (pattern, int(re.MULTILINE)) in kept.new
    kept.compile(f"secret-{token}")  # compiled at run time, from text: never kept
    assert all("secret" not in str(key[0]) for key in kept.new)
    with regex_cache.from_source_code():  # from the formats shipped with the code: kept
        kept.compile(f"format-{token}")
    kept.compile(f"after-{token}")
    assert [key[0] for key in kept.new if token in str(key[0])] == [pattern, f"format-{token}"]
    kept.save(always=True)
    assert path.exists()

    fresh = kept._compile(pattern, re.MULTILINE)
    again = KeptRegexes(path)
    assert (pattern, int(re.MULTILINE)) in again.kept

    def no_parse(*args: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(_parser, "parse", no_parse)  # built from the program alone
    built = again.compile(pattern, re.MULTILINE)
    _same(built, fresh, f"a = 1 # x\nbb=two{token}\n  c = 3\n")


def test_kept_only_where_python_writes_bytecode_and_by_the_process_that_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "regex.marshal"
    kept = KeptRegexes(path)
    monkeypatch.setattr(_compiler, "compile", kept.compile)
    _import_module_compiling(tmp_path, monkeypatch, [rf"x{uuid.uuid4().hex}\d+"])
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # PYTHONDONTWRITEBYTECODE: nothing kept
    kept.save()
    assert not path.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    kept.pid = -1  # a forked copy leaves it to its parent
    kept.save()
    assert not path.exists()
    kept.pid = regex_cache.os.getpid()
    kept.save()
    assert path.exists() and not kept.new


def test_a_bad_or_foreign_file_means_compiling_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "regex.marshal"
    path.write_bytes(b"\x00not marshal")
    assert KeptRegexes(path).kept == {}
    pattern = rf"(?P<word>[a-z]+){uuid.uuid4().hex}"
    program = regex_cache._program(pattern, 0)
    path.write_bytes(marshal.dumps((("another python", 1), {(pattern, 0): program})))
    assert KeptRegexes(path).kept == {}  # another interpreter's programs

    tampered = (program[0], [255, 255, 255], *program[2:])  # not a program `_sre` accepts
    path.write_bytes(marshal.dumps((regex_cache._header(), {(pattern, 0): tampered})))
    kept = KeptRegexes(path)
    monkeypatch.setattr(_compiler, "compile", kept.compile)
    built = kept.compile(pattern, 0)
    _same(built, kept._compile(pattern, 0), f"abc{pattern[-32:]} zz")
    assert (pattern, 0) not in kept.kept


def test_the_command_line_wraps_the_compiler_before_its_imports() -> None:
    probe = (
        "import re._compiler as c, sys; import generator.cli; "
        "print(c.compile.__qualname__, 'click' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["KeptRegexes.compile", "True"]


def test_an_invalid_pattern_at_import_raises_as_re_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = KeptRegexes(tmp_path / "regex.marshal")
    monkeypatch.setattr(_compiler, "compile", kept.compile)
    name = f"invalid_{uuid.uuid4().hex}"
    source = "import re\ntry:\n    re.compile('(unclosed')\nexcept re.error as exc:\n    FAILED = str(exc)\n"
    (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "missing )" in importlib.import_module(name).FAILED
    assert not kept.new
