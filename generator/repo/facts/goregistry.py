"""The types registered with a Go registry: a function taking a value of the package's interface and keeping
it in a map or slice (nfpm's `RegisterPackager(format string, p Packager)` storing `packagers[format] = p`),
called from other packages with their own types (deb's `init` registering `Default = &Deb{}`). What the
registry hands back (`nfpm.Get(format)`) is one of those, so a call of the interface's method on it runs
theirs: the registered types implement the interface though no package of the interface's defines one.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from typing import Protocol

from generator.repo.map.filetypes import is_context_file
from generator.repo.model import FileFacts, Symbol

Package = dict[str, list[tuple[str, Symbol]]]
_FUNCTION = re.compile(r"func\s+(\w+)\s*(?:\[[^\]]*\])?\s*\(([^)]*)\)")
# a value of the registered type: `&Deb{…}`, `Deb{…}` or `pkg.Deb{…}`
_LITERAL = re.compile(r"^&?\s*(?:(\w+)\.)?([A-Za-z_]\w*)\s*\{")
_IDENTIFIER = re.compile(r"^(?:(\w+)\.)?([A-Za-z_]\w*)$")
_VARIABLE = r"^(?:var\s+|\s+){name}\s*(?:\w+\s*)?=\s*&?\s*(?:(\w+)\.)?([A-Za-z_]\w*)\s*\{{"


class GoCode(Protocol):
    """What the registry is read from: the repository's Go files and their packages."""

    files: dict[str, FileFacts]
    read: Callable[[str], str | None]
    resolve: Callable[[str, str, str], list[str]]

    def package(self, folder: str, language: str) -> Package: ...

    def go_imports(self, path: str) -> dict[str, str]: ...


def registrars(code: GoCode, folder: str, interface: str) -> dict[str, int]:
    """The package's functions keeping a value of `interface` they are given (in a map, a slice), each
    with the position of that parameter: `RegisterPackager(format string, p Packager)` → 1."""
    found: dict[str, int] = {}
    for name, definitions in code.package(folder, "go").items():
        for path, symbol in definitions:
            if symbol.kind != "function" or symbol.parent or name != symbol.name:
                continue
            lines = (code.read(path) or "").splitlines()[symbol.start - 1 : symbol.end]
            head = _FUNCTION.search(" ".join(lines[:3]))
            if head is None or head[1] != name:
                continue
            parameters = _parameters(head[2])
            body = "\n".join(lines[1:])
            for position, (parameter, kind) in enumerate(parameters):
                if kind.lstrip(".*") == interface and _kept(body, parameter):
                    found[name] = position
    return found


def registered_types(code: GoCode, folder: str, interface: str) -> list[tuple[str, str]]:
    """(package folder, type) of each value the repository's Go code hands a registrar of `interface`
    (`registrars`), in the files' order: a literal `&Deb{}` or a package variable holding one."""
    kept = registrars(code, folder, interface)
    if not kept:
        return []
    calls = re.compile(r"(?:\b(\w+)\.)?\b(" + "|".join(map(re.escape, kept)) + r")\(")
    found: list[tuple[str, str]] = []
    for path, fact in code.files.items():
        if fact.language != "go" or path.endswith("_test.go") or is_context_file(path):
            continue
        text = code.read(path) or ""
        here = posixpath.dirname(path)
        for call in calls.finditer(text):
            if (call[1] is None) != (here == folder) or (call[1] and not _names(code, path, call[1], folder)):
                continue
            arguments = _arguments(text, call.end())
            position = kept[call[2]]
            if position < len(arguments):
                typed = _value_type(code, path, arguments[position])
                if typed is not None and typed not in found:
                    found.append(typed)
    return found


def _parameters(listed: str) -> list[tuple[str, str]]:
    """(name, type) of each parameter of a Go parameter list (`a, b string, p Packager`)."""
    named: list[list[str]] = [part.split() for part in listed.split(",") if part.strip()]
    found: list[tuple[str, str]] = []
    kind = ""
    for words in reversed(named):
        kind = " ".join(words[1:]) if len(words) > 1 else kind
        found.append((words[0], kind))
    return found[::-1]


def _kept(body: str, parameter: str) -> bool:
    """Whether the function's body keeps `parameter`: `m[k] = p`, `s = append(s, p)`."""
    word = re.escape(parameter)
    return re.search(rf"\]\s*=\s*{word}\b|append\([^,()]+,\s*{word}\s*[,)]", body) is not None


def _names(code: GoCode, path: str, local: str, folder: str) -> bool:
    """Whether the package name `local` of `path` is the Go package of `folder` (by its imports)."""
    imported = code.go_imports(path).get(local)
    homes = code.resolve(path, "go", imported) if imported is not None else []
    return bool(homes) and posixpath.dirname(homes[0]) == folder


def _arguments(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose `(` ends just before `start`."""
    depth = 0
    found: list[str] = []
    current: list[str] = []
    for character in text[start : start + 2000]:
        if character in "([{":
            depth += 1
        elif character in ")]}":
            if depth == 0:
                break
            depth -= 1
        if character == "," and depth == 0:
            found.append("".join(current).strip())
            current = []
        else:
            current.append(character)
    found.append("".join(current).strip())
    return found


def _value_type(code: GoCode, path: str, value: str) -> tuple[str, str] | None:
    """(folder, type) of the repository's type a registered value is: a literal, or a package variable
    set to one (`var Default = &Deb{}`, `DefaultRPM = &RPM{formatRPM}` in a `var (…)` block)."""
    here = posixpath.dirname(path)
    literal = _LITERAL.match(value)
    if literal is None:
        named = _IDENTIFIER.match(value)
        if named is None or named[1]:
            return None
        literal = _variable(code, here, named[2])
        if literal is None:
            return None
    if literal[1]:  # another package's type: not followed
        return None
    package: Mapping[str, list[tuple[str, Symbol]]] = code.package(here, "go")
    is_type = any(s.kind in {"struct", "type"} for _, s in package.get(literal[2], []))
    return (here, literal[2]) if is_type else None


def _variable(code: GoCode, folder: str, name: str) -> re.Match[str] | None:
    """The literal a package variable of `folder` is set to where it is declared (`var Default = &Deb{}`)."""
    pattern = re.compile(_VARIABLE.format(name=re.escape(name)), re.MULTILINE)
    for path in dict.fromkeys(p for hits in code.package(folder, "go").values() for p, _ in hits):
        found = pattern.search(code.read(path) or "")
        if found is not None:
            return _LITERAL.match(found.group(0).split("=", 1)[1].strip())
    return None
