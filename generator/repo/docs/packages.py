"""The docs a project keeps in its code and its packages rather than a docs folder: the root Go package's doc
comment, the Rust crate's `//!` documentation, a monorepo's package READMEs, the Go `Example` tests, a
folder's own README."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath

from generator.documents import Document, read_text
from generator.documents.comment import crate_doc, package_doc
from generator.documents.model import Section
from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.analyze.citations import Linker
from generator.repo.analyze.explained import go_examples
from generator.repo.docs.concept import GENERIC_TITLE, humane
from generator.repo.docs.model import DocPassage
from generator.repo.docs.passages import passages
from generator.repo.docs.reading import DOC_BYTES, read_doc
from generator.repo.docs.symbolnames import NOT_LIBRARY
from generator.repo.map.walk import read_or_none, read_source
from generator.repo.model import Facts, RepoMap

_PACKAGE_EXAMPLE = re.compile(r"^Example(?:_[a-z]\w*)?$")  # the package's own, not a type's or function's
PACKAGE_PASSAGES = 2  # a package README quoting fewer is a stub ("See the main README")
# a workspace member's own manifest: the folder holding one is a package
_MANIFESTS = frozenset(
    {"package.json", "Cargo.toml", "pyproject.toml", "setup.py", "go.mod", "composer.json"}
)
# Go packages that document no library: tests' data, examples, internals, commands and generated code
_NOT_GO_LIBRARY = re.compile(r"(?:^|/)(?:testdata|_?examples?|internal|cmd|vendor|third_party)/")
_README_NAMES = ("README.md", "README.rst", "README.markdown", "README.txt", "README")


def folder_readme_opening(root: Path, folder: str, paths: Collection[str], redactor: Redactor | None) -> str:
    """The first paragraph of a folder's own README (OpenHands' openhands/README.md: "This directory contains
    the core components of OpenHands."): what the folder is, in its maintainers' words; '' when it has none.
    `paths`: the repository's mapped files."""
    readme = next((f"{folder}/{n}" for n in _README_NAMES if f"{folder}/{n}" in paths), "")
    if not folder or not readme:
        return ""
    text = read_or_none(root, readme, max_bytes=DOC_BYTES) or ""
    if redactor is not None:
        text = redactor.redact(text)[0]
    opening = [p for p in passages(read_text(text, name=readme, origin=readme)) if p.kind == "paragraph"]
    return opening[0].text if opening else ""


def package_readmes(
    root: Path,
    files: Sequence[str],
    repo_map: RepoMap,
    readme: Document | None,
    linker: Linker,
    redactor: Redactor | None,
) -> list[Document]:
    """The READMEs of a monorepo's packages (a workspace's members: a folder below the root holding its own
    manifest, `packages/server-renderer/package.json`, `crates/x/Cargo.toml`), each the docs of its package,
    for a repository without a docs folder; never one that repeats the front README (puppeteer's packages
    publish it again), one inside another package, or one of an example, a test or a fixture."""
    manifests = {
        str(PurePosixPath(f.path).parent) for f in repo_map.files if PurePosixPath(f.path).name in _MANIFESTS
    }
    front = {p.text for p in passages(readme)} if readme is not None else set()
    found = []
    for path in files:
        folder = str(PurePosixPath(path).parent)
        if (
            PurePosixPath(path).stem.lower() != "readme"
            or folder == "."
            or folder not in manifests
            or NOT_LIBRARY.search(path)
            # a package inside another (a playground's project template) is that package's material
            or any(str(above) in manifests for above in PurePosixPath(folder).parents if str(above) != ".")
        ):
            continue
        name, private = _package_json(root, folder)
        document = None if private else read_doc(root, path, linker, redactor, {})
        quoted = {p.text for p in passages(document)} if document is not None else set()
        if document is None or len(quoted) < PACKAGE_PASSAGES or len(quoted & front) * 2 >= len(quoted):
            continue
        if GENERIC_TITLE.fullmatch(document.title.strip()):  # "README": the package's name says which
            document = replace(document, title=name or humane(folder))
        found.append(document)
    return found


def _package_json(root: Path, folder: str) -> tuple[str, bool]:
    """(name, private) of the npm package in `folder` ("", False without a readable package.json): a
    private one is a workspace's playground or test bed, never published, no part a user meets."""
    try:
        manifest = json.loads(read_source(root, f"{folder}/package.json", max_bytes=DOC_BYTES))
    except (DeepkbError, ValueError):
        return "", False
    if not isinstance(manifest, dict):
        return "", False
    name = manifest.get("name")
    return (name if isinstance(name, str) else ""), manifest.get("private") is True


def go_package_docs(
    root: Path, repo_map: RepoMap, linker: Linker, redactor: Redactor | None
) -> list[Document]:
    """The doc comment of the Go package nearest the root, when it documents the package (doc.go's usage,
    formats and options, as pkg.go.dev shows them): a guide for a repository without a docs folder. The
    longest at the shallowest depth; never a test, example, internal or command package's, nor a sub-package's
    when the root is a package (its doc is that package's, never the project's: koanf's k8smount provider,
    lipgloss' compat layer)."""
    by_depth: dict[int, list[str]] = {}
    for entry in repo_map.files:
        if (
            entry.language == "go"
            and not entry.path.endswith("_test.go")
            and not _NOT_GO_LIBRARY.search(entry.path)
        ):
            by_depth.setdefault(entry.path.count("/"), []).append(entry.path)
    # the files of one depth are read only when none nearer the root has one
    for depth in [0] if 0 in by_depth else sorted(by_depth):
        found: list[tuple[int, Document]] = []
        for path in by_depth[depth]:
            text = read_or_none(root, path, max_bytes=DOC_BYTES) or ""
            package, markdown = package_doc(redactor.redact(text)[0] if redactor is not None else text)
            if markdown:
                document = read_text(
                    markdown, name=path, origin=path, revision=linker.revision, markup="markdown"
                )
                document = replace(document, title=f"Package {package}", sections=_go_code(document.sections))
                found.append((len(markdown.strip()), document))
        if found:
            return [max(found, key=lambda item: item[0])[1]]
    return []


def rust_crate_docs(
    root: Path, repo_map: RepoMap, linker: Linker, redactor: Redactor | None
) -> list[Document]:
    """The `//!` documentation of the Rust crate nearest the root (`src/lib.rs`, else `src/main.rs`), which
    docs.rs shows as the crate's front page (log's usage, its implementations, writing a logger, its
    feature flags): a guide for a repository without a docs folder. The longest at the shallowest depth;
    never an example's, a test's, a benchmark's or a vendored crate's."""
    by_depth: dict[int, list[str]] = {}
    for entry in repo_map.files:
        if _CRATE_ROOT.search(entry.path) and not _NOT_RUST_LIBRARY.search(entry.path):
            by_depth.setdefault(entry.path.count("/"), []).append(entry.path)
    for depth in sorted(by_depth):
        found: list[tuple[int, Document]] = []
        for path in by_depth[depth]:
            text = read_or_none(root, path, max_bytes=DOC_BYTES) or ""
            comment = crate_doc(redactor.redact(text)[0] if redactor is not None else text)
            if comment is not None:
                document = read_text(
                    comment.text, name=path, origin=path, revision=linker.revision, markup="markdown"
                )
                title = f"Crate {_crate_name(root, path)}"
                found.append((len(comment.text.strip()), replace(comment.at_source(document), title=title)))
        if found:
            return [max(found, key=lambda item: item[0])[1]]
    return []


_CRATE_ROOT = re.compile(r"(?:^|/)src/(?:lib|main)\.rs$")
_NOT_RUST_LIBRARY = re.compile(r"(?:^|/)(?:examples?|tests?|benches|fuzz|vendor(?:ed)?|third_party)/")
_CRATE_NAME = re.compile(r"^\[package\][^\[]*?^name\s*=\s*[\"']([\w-]+)[\"']", re.MULTILINE | re.DOTALL)


def _crate_name(root: Path, path: str) -> str:
    """The crate's name, as its `Cargo.toml` declares it; else its folder's."""
    crate = PurePosixPath(path).parent.parent
    manifest = read_or_none(root, str(crate / "Cargo.toml"), max_bytes=DOC_BYTES) or ""
    match = _CRATE_NAME.search(manifest)
    return match.group(1) if match else (crate.name or root.name)


def go_package_examples(root: Path, facts: Facts, redactor: Redactor | None) -> list[DocPassage]:
    """The `Example` functions of the tests of the Go library packages nearest the root that have any (`go
    test` runs them; pkg.go.dev shows them as the package's examples): the package's own (`Example`,
    `Example_basicConfiguration`) first, then its types' and functions' (`ExampleRetry`), each whole."""
    by_depth: dict[int, set[str]] = {}
    for path in facts.files:
        if path.endswith("_test.go") and not _NOT_GO_LIBRARY.search(path):
            by_depth.setdefault(path.count("/"), set()).add(path.rpartition("/")[0] or ".")
    for depth in sorted(by_depth):
        found = sorted(
            (e for folder in by_depth[depth] for e in go_examples(root, facts, folder)), key=lambda e: e.path
        )
        if found:
            found = [
                replace(e, text=redactor.redact(e.text)[0]) if redactor is not None else e for e in found
            ]
            return sorted(found, key=lambda e: not _PACKAGE_EXAMPLE.match(e.heading))
    return []


def _go_code(sections: Sequence[Section]) -> tuple[Section, ...]:
    """A Go doc comment's code blocks are Go."""
    return tuple(
        replace(
            section,
            blocks=tuple(
                replace(b, language="go") if b.kind == "code" and not b.language else b
                for b in section.blocks
            ),
        )
        for section in sections
    )
