"""A maintainer's entry points (`entry_points:` of a repository in deepkb.yml) found among the symbols:
`requests.api.request` or `requests.get` (module, then a symbol it defines or re-exports),
`src/requests/api.py:request` (file, then symbol), or a
symbol's own name when one file defines it (`Session.send`, `app.listen`, `Engine.ServeHTTP`)."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from generator.errors import ConfigError
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import FileFacts

Node = tuple[str, str]  # (path, qualified symbol)
_PACKAGE_FILES = {"__init__", "index", "mod", "lib"}


def resolve_entry_points(files: dict[str, FileFacts], names: Sequence[str]) -> list[Node]:
    """The (file, symbol) of each name, in order; a name that matches no symbol is a ConfigError naming it."""
    modules = _module_names(files)
    return [_resolve(files, modules, name.strip()) for name in names if name.strip()]


def _resolve(files: dict[str, FileFacts], modules: dict[str, list[str]], name: str) -> Node:
    path, colon, symbol = name.partition(":")
    if colon:
        if path in files and _defines(files[path], symbol):
            return path, symbol
    else:
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):  # the longest module prefix first
            module, rest = ".".join(parts[:cut]), ".".join(parts[cut:])
            for candidate in modules.get(module, ()):
                found = _defined_or_imported(files, candidate, rest)
                if found is not None:
                    return found
        defining = sorted(
            (p for p, fact in files.items() if not is_context_file(p) and _defines(fact, name)),
            key=lambda p: (-files[p].importance, p),
        )
        if defining:
            return defining[0], name
    raise ConfigError(
        f"entry_points: {name!r} matches no symbol of the repository",
        hint="write module.symbol (requests.api.request), path/to/file.py:Symbol, or a symbol's own name",
    )


def _defined_or_imported(files: dict[str, FileFacts], path: str, name: str) -> Node | None:
    """Where `name` of module `path` is defined: in it, or in the module it imports the name from
    (`requests.get` is `requests/api.py`'s `get`, which the package re-exports)."""
    if _defines(files[path], name):
        return path, name
    head = name.split(".", 1)[0]
    for source, imported in files[path].names_from.items():
        if head in imported and source in files and _defines(files[source], name):
            return source, name
    return None


def _defines(fact: FileFacts, name: str) -> bool:
    return any(symbol.name == name for symbol in fact.symbols)


def _module_names(files: dict[str, FileFacts]) -> dict[str, list[str]]:
    """Each dotted module name a source file answers to: every tail of its path without the extension
    (`src/requests/api.py` → src.requests.api, requests.api, api), a package's `__init__` by its folder."""
    names: dict[str, list[str]] = {}
    for path in files:
        if is_context_file(path):
            continue
        stem = posixpath.splitext(path)[0].split("/")
        if stem[-1] in _PACKAGE_FILES and len(stem) > 1:
            stem = stem[:-1]
        for start in range(len(stem)):
            names.setdefault(".".join(stem[start:]), []).append(path)
    return names
