"""Which of a file's names other files use: Python `from module import Name` counted per importing file,
package re-exports followed to the module that defines the name, `__init__` re-exports recorded as the
defining module's exports, a JS package's public face, and how often each class is subclassed. The ranking
of symbols (ranking.py) reads these."""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from collections.abc import Iterable

from generator.repo.facts.imports import JS_LANGUAGES
from generator.repo.model import FileFacts

PACKAGE_FILES = ("__init__.py", "__init__.pyi")


NamesImported = dict[str, set[tuple[str, str]]]
"""importer → {(file the name is taken from, name)}, from Python `from module import Name` statements."""


def count_name_uses(files: dict[str, FileFacts], imported: NamesImported) -> None:
    """Fill `FileFacts.name_uses` (files importing each name) and add re-exported names to `exports`."""
    origins = _reexport_origins(imported)
    taken: list[tuple[str, str]] = []  # (file, name) once per file importing it
    for importer, names in imported.items():
        # `from requests import Session` uses sessions.Session too; each importer counts once per name
        followed = set(names)
        for pair in names:
            for origin in origins.get(pair, ()):
                if origin != importer:
                    followed.add((origin, pair[1]))
        taken.extend(followed)
        grouped: dict[str, list[str]] = {}
        for target, name in sorted(names):
            grouped.setdefault(target, []).append(name)
        files[importer].names_from = grouped
    importers = Counter(taken)  # (file, name) → files importing it, counted in one pass
    uses: dict[str, dict[str, int]] = defaultdict(dict)
    for (target, name), count in importers.items():
        uses[target][name] = count
    for path, counts in uses.items():
        files[path].name_uses = counts
    top: dict[str, bool] = {}  # each package's answer, for all the names it re-exports
    for (package, name), found in origins.items():
        if not _is_public_name(name, files[package]):
            continue
        if package not in top:
            top[package] = is_top_package(package, files)
        for origin in found:
            if name not in files[origin].exports:
                files[origin].exports.append(name)
            if top[package] and name not in files[origin].api_names:
                files[origin].api_names.append(name)


def is_top_package(init: str, files: dict[str, FileFacts]) -> bool:
    """An `__init__` whose folder's parent is no package: what users import (`requests`, `src/click`)."""
    parent = posixpath.dirname(posixpath.dirname(init))
    return not any(posixpath.join(parent, name) in files for name in PACKAGE_FILES) if parent else True


def _reexport_origins(imported: dict[str, set[tuple[str, str]]]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(package `__init__`, name) → the modules it imports the name from, followed through packages. A
    package may import one name from two modules under two aliases (redis-py's search package: `Pipeline as
    RedisPipeline` from redis.client, `as AsyncioPipeline` from redis.asyncio.client): both are origins. One
    of them alone had been kept, whichever the set of imports gave last, so a run's pages depended on
    the order a set came back in from the forked workers."""
    direct: dict[tuple[str, str], list[str]] = {}
    for importer, names in imported.items():
        if _is_package_file(importer):
            for target, name in sorted(names):
                direct.setdefault((importer, name), []).append(target)
    return {
        key: tuple(dict.fromkeys(_followed(key, t, direct) for t in targets))
        for key, targets in direct.items()
    }


def _followed(key: tuple[str, str], target: str, direct: dict[tuple[str, str], list[str]]) -> str:
    """The module a package's import of `key`'s name from `target` leads to, through packages re-exporting
    it from one module each."""
    seen = {key[0]}
    while _is_package_file(target) and len(direct.get((target, key[1]), ())) == 1 and target not in seen:
        seen.add(target)
        target = direct[(target, key[1])][0]
    return target


def _is_package_file(path: str) -> bool:
    """posixpath.basename(path) in PACKAGE_FILES, without splitting the path."""
    return path.endswith(_PACKAGE_ENDINGS) or path in PACKAGE_FILES


_PACKAGE_ENDINGS = tuple("/" + name for name in PACKAGE_FILES)


def _is_public_name(name: str, package: FileFacts) -> bool:
    return name in package.exports if package.exports else not name.startswith("_")


def module_stem(path: str) -> str:
    """The module name a file defines: "sessions" for "pkg/sessions.py", "pkg" for "pkg/__init__.py"."""
    name = posixpath.basename(path)
    if name in PACKAGE_FILES:
        return posixpath.basename(posixpath.dirname(path))
    return name.rsplit(".", 1)[0]


def mark_package_api(files: dict[str, FileFacts]) -> None:
    """A JS/TS package's main module and the modules it requires directly are its public face: their
    exported names join `api_names` (Python's are the top-level package's re-exports, fanin.py). A `bin`
    script is none: a command line's helpers exporting `{ deploy }` make no library."""
    for path, facts in files.items():
        if not (facts.is_entry_point and facts.language in JS_LANGUAGES) or facts.command_script:
            continue
        for member in [path, *facts.depends_on]:
            target = files.get(member)
            if target is None or target.language not in JS_LANGUAGES:
                continue
            names = [s.name for s in target.symbols if s.exported and not s.parent]
            objects = [e for e in target.exports if any(s.parent == e for s in target.symbols)]
            target.api_names = list(dict.fromkeys([*target.api_names, *names, *objects]))


def base_uses(files: Iterable[FileFacts]) -> dict[str, int]:
    """Subclasses per base name, over the symbols already read (source modules; tests stay unread)."""
    counts: Counter[str] = Counter()
    for facts in files:
        if not getattr(facts, "symbols_read", True):  # a test file not parsed yet: left unread
            continue
        for symbol in facts.symbols:
            if symbol.bases:  # most symbols are functions and methods, which have none
                counts.update({base.rsplit(".", 1)[-1] for base in symbol.bases})
    return dict(counts)
