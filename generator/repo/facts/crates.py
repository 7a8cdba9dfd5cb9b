"""The crates of a Rust workspace a user works with: those the README's code names (`use axum::Router`,
`rayon::prelude`, "`axum` is a … library"). The other members — a derive-macro crate the compiler runs, a demo or benchmark crate,
the traits a core crate shares with its siblings — are where no user call enters, so no main flow opens in
them (flows.py); the flows still go on into them from the crate the user calls.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from generator.repo.facts.examples import markdown_code
from generator.repo.map.filetypes import front_readme
from generator.repo.map.walk import read_or_none
from generator.repo.model import RepoMap

MANIFEST_BYTES = 64_000
README_BYTES = 200_000
# the `[package]` table's name, before the next table's header
_PACKAGE_NAME = re.compile(r"^\[package\]\s*$(?:(?!^\[)[\s\S])*?^\s*name\s*=\s*\"([\w-]+)\"", re.MULTILINE)
_PATH = re.compile(r"(?<![\w:])([a-z_][a-z0-9_]*)::")


@dataclass(frozen=True)
class Workspace:
    """A Rust workspace's member crates by folder ("" for the root), and those a user does not work with."""

    folders: tuple[str, ...] = ()
    side: frozenset[str] = frozenset()

    def on_side(self, path: str) -> bool:
        """Whether `path` belongs to a side crate (its crate is the deepest one holding it)."""
        if not self.side:
            return False
        holding = [c for c in self.folders if c == "" or path.startswith(c + "/")]
        return bool(holding) and max(holding, key=len) in self.side


NO_WORKSPACE = Workspace()


def workspace(root: Path, repo_map: RepoMap) -> Workspace:
    """The workspace's member crates; those the README's code does not name are its side, when it names
    one of them — else all but the one most of the others depend on (axum's examples on `axum`); none
    otherwise (one crate, or nothing telling)."""
    manifests = _manifests(root, repo_map)
    crates = {folder: name for folder, (name, _) in manifests.items()}
    if len(crates) < 2:
        return NO_WORKSPACE
    used = _named_by_readme(root, repo_map, crates) or _depended_on(manifests)
    return Workspace(tuple(crates), frozenset(set(crates) - used)) if used else NO_WORKSPACE


def _named_by_readme(root: Path, repo_map: RepoMap, crates: dict[str, str]) -> set[str]:
    # (a map of the code alone holds no README: the root's own files are read for it)
    top = [p.name for p in root.iterdir() if p.is_file()] if root.is_dir() else []
    readme = front_readme([*(e.path for e in repo_map.files), *top], repo_map.links)
    text = read_or_none(root, readme, max_bytes=README_BYTES) if readme else None
    code = markdown_code(text) if text else ""
    # a path into the crate (`use axum::Router`), or its name alone as code ("`axum` is an HTTP … library")
    named = set(_PATH.findall(code)) | {line.strip() for line in code.splitlines()}
    return {folder for folder, name in crates.items() if name.replace("-", "_") in named}


def _depended_on(manifests: dict[str, tuple[str, str]]) -> set[str]:
    """The crate more of the others depend on than on any other (two at least)."""
    counts = {
        folder: sum(1 for other, (_, text) in manifests.items() if other != folder and _depends(text, name))
        for folder, (name, _) in manifests.items()
    }
    ranked = sorted(counts.values(), reverse=True)
    if ranked[0] < 2 or ranked[0] == ranked[1]:
        return set()
    return {folder for folder, count in counts.items() if count == ranked[0]}


def _depends(manifest: str, name: str) -> bool:
    """Whether a Cargo.toml lists `name` as a dependency (`axum = …`, `axum.workspace = true`,
    `[dependencies.axum]`)."""
    key = re.escape(name)
    return bool(re.search(rf"^\s*(?:{key}\s*[.=]|\[[\w.-]*dependencies\.{key}\])", manifest, re.MULTILINE))


def _manifests(root: Path, repo_map: RepoMap) -> dict[str, tuple[str, str]]:
    """Each folder holding a Cargo.toml with a package → (the package's name, the manifest's text)."""
    found: dict[str, tuple[str, str]] = {}
    for entry in repo_map.files:
        if posixpath.basename(entry.path) != "Cargo.toml":
            continue
        text = read_or_none(root, entry.path, max_bytes=MANIFEST_BYTES) or ""
        if named := _PACKAGE_NAME.search(text):
            found[posixpath.dirname(entry.path)] = (named.group(1), text)
    return found
