"""A project's `examples/` folder as usage examples: each example (a file at the folder's top, or a
sub-folder: express's `examples/cookies/index.js`, swr's `examples/basic/pages/index.js`, mini-redis's
`examples/hello_world.rs`) shown by its main file, whole, after the sentence its own README opens with.
For a project whose README and docs show little code, these are how it is used."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from generator.documents import Document, read_text
from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.docs.model import DocPassage
from generator.repo.map.walk import read_source
from generator.repo.model import FileEntry, RepoMap
from generator.repo.synthesize.readme import NOTICE

EXAMPLE_LINES = 60  # a longer file is not an example a page shows whole
MIN_LINES = 3
EXAMPLE_BYTES = 100_000
_FOLDER = re.compile(r"^_?examples?/", re.IGNORECASE)
# what runs the example, not what it shows (lock files are never mapped)
_TOOLING = re.compile(
    r"(?:^|[./_-])(?:config|conf|setup|babel|webpack|vite|rollup|next|nuxt|jest|vitest|eslint|prettier|tsconfig"
    r"|postcss|tailwind|env|build|gulpfile|gruntfile|test|tests|spec)(?:[./_-]|$)|\.d\.ts$",
    re.IGNORECASE,
)
# a README section on getting the example running, not on what it shows
_RUNNING = re.compile(
    r"deploy|install|setup|set up|how to (?:use|run)|running|run it|download|requirements|prerequisites|usage",
    re.IGNORECASE,
)
# the file an example starts from
_MAIN = re.compile(r"^(?:index|main|app|server|page|client|hello\w*|example|demo|run|lib)$", re.IGNORECASE)
# examples a newcomer reads first
_FIRST = re.compile(r"hello|basic|simple|minimal|getting|quick|intro|start", re.IGNORECASE)
_CODE_LANGUAGES = frozenset(
    "python javascript typescript tsx go rust java kotlin scala c cpp csharp ruby php swift".split()
)


def folder_examples(
    root: Path, repo_map: RepoMap, redactor: Redactor | None, limit: int, name: str = ""
) -> list[DocPassage]:
    """Up to `limit` examples of the top-level examples folder, a newcomer's first ones ("hello", "basic")
    first, then in name order: each its main file's whole text (a file that names the project `name` first,
    then one called index/main/app, the shallowest, the shortest), led by the first sentence of the
    example's own README when it has one."""
    units: dict[str, list[FileEntry]] = {}
    readmes: dict[str, str] = {}
    for entry in repo_map.files:
        if not _FOLDER.match(entry.path):
            continue
        parts = PurePosixPath(entry.path).parts
        unit = "/".join(parts[:2]) if len(parts) > 2 else entry.path
        if len(parts) <= 3 and PurePosixPath(entry.path).stem.lower() == "readme":
            readmes[unit if len(parts) == 3 else ""] = entry.path  # an example's own, or the folder's index
        elif entry.language in _CODE_LANGUAGES and not _TOOLING.search(PurePosixPath(entry.path).name):
            if MIN_LINES <= entry.lines <= EXAMPLE_LINES:
                units.setdefault(unit, []).append(entry)
    index = _read(root, readmes.get("", ""))
    found: list[DocPassage] = []
    for unit in sorted(units, key=lambda u: (not _FIRST.search(PurePosixPath(u).name), u.lower())):
        passages = _example(root, unit, units[unit], readmes.get(unit, ""), index, redactor, name)
        found += passages
        if sum(p.kind == "code" for p in found) >= limit:
            break
    return found


def _example(
    root: Path,
    unit: str,
    files: Sequence[FileEntry],
    readme: str,
    index: Document | None,
    redactor: Redactor | None,
    name: str,
) -> list[DocPassage]:
    """One example: what its README (or the folder's index of examples) says it shows, then its main file."""
    texts: dict[str, str] = {}
    for entry in files:
        try:
            texts[entry.path] = read_source(root, entry.path, max_bytes=EXAMPLE_BYTES)
        except DeepkbError:
            continue
    if not texts:
        return []
    main = min(texts, key=lambda p: _rank(p, texts[p], name))
    text = texts[main].strip("\n")
    if redactor is not None:
        text = redactor.redact(text)[0]
    heading = PurePosixPath(unit).stem if unit == main else PurePosixPath(unit).name
    language = next(e.language for e in files if e.path == main)
    lines = max(1, texts[main].rstrip("\n").count("\n") + 1)
    lead = _readme_lead(root, readme, heading, redactor) or _index_lead(index, unit, heading)
    # led by its README, the example is quoted on that page, its code cited at its own lines
    code = DocPassage(main, 1, lines, "code", text, heading, language, lead.path if lead is not None else "")
    return [lead, code] if lead is not None else [code]


def project_name(root: Path) -> str:
    """The name the examples import the project by: package.json's, else Cargo.toml's ("" when neither)."""
    for manifest, pattern in (
        ("package.json", r'^\s*"name"\s*:\s*"([^"]+)"'),
        ("Cargo.toml", r'^\s*name\s*=\s*"([^"]+)"'),
    ):
        try:
            found = re.search(pattern, read_source(root, manifest, max_bytes=EXAMPLE_BYTES), re.MULTILINE)
        except DeepkbError:
            continue
        if found:
            return found.group(1)
    return ""


def _rank(path: str, text: str, name: str) -> tuple[bool, bool, int, int]:
    stem = PurePosixPath(path).stem
    names_it = (
        bool(name) and re.search(rf"['\"/]{re.escape(name)}['\"/]|\b{re.escape(name)}\b", text) is not None
    )
    return (not names_it, not _MAIN.match(stem), path.count("/"), len(text))


def _readme_lead(root: Path, path: str, heading: str, redactor: Redactor | None) -> DocPassage | None:
    """What the example's README says it shows: its first paragraph of a few words outside the sections on
    deploying, installing or running it (swr's "Show a basic usage of SWR fetching data from an API in two
    different pages.", not "Deploy your own SWR project with Vercel."); None when it says nothing else."""
    document = _read(root, path)
    if document is None:
        return None
    for section, block in document.blocks():
        if any(_RUNNING.search(h) for h in section.path) or NOTICE.match(block.text):
            continue
        if block.kind == "paragraph" and len(block.text.split()) >= 3:
            text = redactor.redact(block.text)[0] if redactor is not None else block.text
            return DocPassage(path, block.start, block.end, "lead", text, heading)
    return None


def _index_lead(index: Document | None, unit: str, heading: str) -> DocPassage | None:
    """The line the examples folder's README gives the example (express's "- [cookies](./cookies) - Working
    with cookies"), as its lead."""
    if index is None:
        return None
    name = PurePosixPath(unit).name
    for _, block in index.blocks():
        found = re.match(rf"^{re.escape(name)}(?:\.\w+)?\s*[-–—:]\s*(\S.*)$", block.text)
        if block.kind == "item" and found:
            return DocPassage(index.origin, block.start, block.end, "lead", found.group(1), heading)
    return None


def _read(root: Path, path: str) -> Document | None:
    if not path:
        return None
    try:
        return read_text(read_source(root, path, max_bytes=EXAMPLE_BYTES), name=path, origin=path)
    except DeepkbError:
        return None
