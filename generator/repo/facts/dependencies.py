"""The dependency graph of the facts stage: each file's imports resolved to the repository files they name
(its `depends_on`), and the names each Python file takes from them by `from module import Name` (what
fanin.py counts), with the Go modules, tsconfig aliases and workspace packages the resolution reads."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable
from itertools import chain
from pathlib import Path

import yaml

from generator.errors import DeepkbError
from generator.repo.facts.fanin import NamesImported, module_stem
from generator.repo.facts.imports import (
    ImportIndex,
    JsAlias,
    JsPackage,
    parse_package_json,
    parse_tsconfig,
    workspace_folders,
)
from generator.repo.map.walk import read_or_none, read_source
from generator.repo.model import FileFacts

PythonAnswer = tuple[list[str], str, list[str]]
"""One Python import's answer: the files it names, the name it takes ("" for none), and those of the files
the name is taken from (a name that is the file's own module names the file, not a name in it)."""
NO_ANSWER: PythonAnswer = ([], "", [])  # an import of nothing in the repository


def resolve_dependencies(files: dict[str, FileFacts], index: ImportIndex) -> NamesImported:
    """depends_on = imports resolved to files of the repository. Returns, per Python file, the names it
    takes from other files by `from module import Name` (a name that is a submodule names a file)."""
    index.add_root_package(chain.from_iterable(f.imports for f in files.values() if f.language == "python"))
    names: NamesImported = {}
    answers = _PythonAnswers(index)
    for facts in files.values():
        path = facts.path
        hits: set[str] = set()
        taken: set[tuple[str, str]] = set()
        if facts.language == "python":
            folder = path.rpartition("/")[0]  # posixpath.dirname, for the map's normalized paths
            known = answers.of_folder(folder)
            listed = set(facts.exports) if path.endswith("__init__.py") else set()
            for raw in facts.imports:
                answer = known.get(raw) or answers.add(folder, raw)
                if answer is NO_ANSWER:
                    continue
                resolved, name, sources = answer
                hits.update(resolved)
                for source in sources:
                    if source != path:
                        taken.add((source, name))
                if listed and not name and ":" not in raw:
                    # `from .core import *` in a package whose `__all__` lists what it gives (pyparsing's
                    # ParserElement, Word …): the names it lists that the module defines are re-exported
                    taken.update(_starred(files, resolved, listed, path))
        else:
            for raw in facts.imports:
                hits.update(index.resolve(path, facts.language, raw))
        hits.discard(path)
        facts.depends_on = sorted(hits)
        if taken:
            names[path] = taken
    return names


def _starred(
    files: dict[str, FileFacts], resolved: list[str], listed: set[str], path: str
) -> set[tuple[str, str]]:
    """(module, name) for each name of `listed` a star-imported module defines at its top level."""
    return {
        (source, symbol.name)
        for source in resolved
        if source != path and source in files
        for symbol in files[source].symbols
        if not symbol.parent and symbol.name in listed
    }


class _PythonAnswers:
    """Each Python import's answer, worked out once: per folder (a relative import means the same for
    every file of one folder), and for the whole repository for an absolute one (the same few thousand
    repeat across a repository's files)."""

    def __init__(self, index: ImportIndex) -> None:
        self.index = index
        self.folders: dict[str, dict[str, PythonAnswer]] = {}
        self.absolute: dict[str, PythonAnswer] = {}
        self.stems: dict[str, str] = {}  # module_stem of each file resolved to

    def of_folder(self, folder: str) -> dict[str, PythonAnswer]:
        """The answers known for the files of `folder` (`add` adds to them): raw import → answer."""
        return self.folders.setdefault(folder, {})

    def add(self, folder: str, raw: str) -> PythonAnswer:
        """The answer for `raw` imported in `folder`, now known for that folder."""
        answer = None if raw.startswith(".") else self.absolute.get(raw)
        if answer is None:
            answer = self._work_out(folder, raw)
            if not raw.startswith("."):
                self.absolute[raw] = answer
        self.folders[folder][raw] = answer
        return answer

    def _work_out(self, folder: str, raw: str) -> PythonAnswer:
        resolved = self.index.resolve_python(folder, raw)  # a Python import names one file at most
        if not resolved:
            return NO_ANSWER
        name = raw.rpartition(":")[2] if ":" in raw else ""
        if not name or name == "*":
            return resolved, "", []
        hit = resolved[0]
        stem = self.stems.get(hit)
        if stem is None:
            stem = self.stems[hit] = module_stem(hit)
        return resolved, name, resolved if stem != name else []


def go_modules(root: Path, files: Iterable[str], max_bytes: int) -> dict[str, str]:
    """Directory of each go.mod → the module path it declares."""
    modules: dict[str, str] = {}
    for path in files:
        if posixpath.basename(path) != "go.mod":
            continue
        match = re.search(
            r"^module\s+(\S+)", read_or_none(root, path, max_bytes=max_bytes) or "", re.MULTILINE
        )
        if match:
            modules[posixpath.dirname(path)] = match.group(1).strip('"')
    return modules


def js_aliases(root: Path, files: Iterable[str], max_bytes: int) -> list[JsAlias]:
    """The module mapping of each tsconfig.json / jsconfig.json."""
    aliases = []
    for path in files:
        if posixpath.basename(path) in {"tsconfig.json", "jsconfig.json"}:
            try:
                alias = parse_tsconfig(read_source(root, path, max_bytes=max_bytes), posixpath.dirname(path))
            except DeepkbError:
                continue
            if alias is not None:
                aliases.append(alias)
    return aliases


WORKSPACE_FILES = {"package.json", "pnpm-workspace.yaml", "lerna.json"}


def js_packages(root: Path, files: Iterable[str], max_bytes: int) -> list[JsPackage]:
    """The packages of each JS/TS workspace (package.json `workspaces`, pnpm-workspace.yaml or lerna.json
    `packages`), by the name their siblings import them by; a name two packages claim names neither."""
    texts = {
        path: read_or_none(root, path, max_bytes=max_bytes) or ""
        for path in files
        if posixpath.basename(path) in WORKSPACE_FILES
    }
    manifests = {posixpath.dirname(p): text for p, text in texts.items() if p.endswith("package.json")}
    members: set[str] = set()
    for path, text in texts.items():
        top = posixpath.dirname(path)
        below = {
            f[len(top) + 1 :] if top else f: f
            for f in manifests
            if f != top and (not top or f.startswith(top + "/"))
        }
        members.update(below[f] for f in workspace_folders(_workspace_globs(path, text), below))
    packages = [p for f in sorted(members) if (p := parse_package_json(manifests[f], f))]
    claims: dict[str, int] = {}
    for package in packages:
        claims[package.name] = claims.get(package.name, 0) + 1
    return [p for p in packages if claims[p.name] == 1]


def _workspace_globs(path: str, text: str) -> list[str]:
    """The package globs a workspace file lists ([] for a package.json that declares no workspace)."""
    try:
        data = yaml.safe_load(text) if path.endswith(".yaml") else json.loads(text)
    except (ValueError, yaml.YAMLError):
        return []
    if not isinstance(data, dict):
        return []
    globs = data.get("workspaces") if path.endswith("package.json") else data.get("packages")
    if isinstance(globs, dict):  # yarn's {"packages": [...], "nohoist": [...]}
        globs = globs.get("packages")
    return [g for g in globs if isinstance(g, str)] if isinstance(globs, list) else []
