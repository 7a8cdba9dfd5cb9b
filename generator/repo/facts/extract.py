"""Stage 3, facts: symbols, resolved imports (the dependency graph), entry points and importance per file.

These facts feed the architect, the heuristic planner, the offline analyst and the pages. A file that
cannot be read or parsed keeps empty facts; it never stops the run. Every source module's symbols are read
in the first pass (the pages catalogue every module); a test, doc or example file in Python is parsed on
first use (`OnDemandFileFacts`). The call graph of the source modules (`Facts.calls`) is read whole.
"""

from __future__ import annotations

import json
import math
import posixpath
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any, Generic, TypeVar

import igraph

from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.facts.calls import read_call_graph
from generator.repo.facts.crates import workspace
from generator.repo.facts.dependencies import go_modules, js_aliases, js_packages, resolve_dependencies
from generator.repo.facts.examples import deferred_in, entered_in, example_calls, example_code, qualified_in
from generator.repo.facts.extracted import Extracted
from generator.repo.facts.fanin import (
    base_uses,
    count_name_uses,
    mark_package_api,
)
from generator.repo.facts.imports import ImportIndex
from generator.repo.facts.languages import SUPPORTED, symbols_on_demand
from generator.repo.facts.mentions import readme_code_names
from generator.repo.facts.named_commands import started_commands
from generator.repo.facts.parsing import parse_sources, parse_symbols
from generator.repo.facts.prose import summary
from generator.repo.facts.redaction import redact_symbols
from generator.repo.map.walk import read_or_none, read_source
from generator.repo.model import Facts, FileFacts, RepoMap, Symbol

DAMPING = 0.85
# weights of the importance score; centrality dominates, size and entry status break ties
W_CENTRALITY, W_CALLED, W_SIZE, W_ENTRY = 0.6, 0.3, 0.25, 0.15
CALLS_SCALE = 16
SHIM_LINES = 40  # a module shorter than this (or than the median module) gets that share of its centrality
DOC_FILE_LIMIT = 200_000  # markdown files larger than this are not read for their first paragraph
DOC_TEXT_LIMIT = 20_000  # the first paragraph is found in the first 20 KB


def extract_facts(
    root: Path, repo_map: RepoMap, *, max_file_bytes: int = 1_000_000, redactor: Redactor | None = None
) -> Facts:
    """Facts for every file of the map; source files in supported languages get symbols and imports, and
    the whole call graph of the source modules is read once here (calls.py), so every ranking the pages
    make counts the same calls whichever page asks first.

    Docstrings and import strings are repository text that reaches prompts and pages, so they are
    redacted here (`redactor`, default: from the environment).
    """
    redactor = redactor or Redactor.from_environ()
    parsed = parse_sources(
        root,
        repo_map.files,
        max_file_bytes=max_file_bytes,
        contents=repo_map.contents,
        redactor=redactor,  # docstrings and module docs come back redacted
    )
    repo_map.contents.clear()  # parsed: the bytes are not needed again
    files = _file_facts(root, repo_map, parsed, max_file_bytes, redactor)
    index = ImportIndex(
        files,
        go_modules=go_modules(root, files, max_file_bytes),
        js_aliases=js_aliases(root, files, max_file_bytes),
        js_packages=js_packages(root, files, max_file_bytes),
    )
    names = resolve_dependencies(files, index)
    _mark_unit_tests(files, index)
    count_name_uses(files, names)
    _show_imports(files, parsed)
    _mark_entry_points(root, files, index, max_file_bytes)
    _redact_docs(files.values(), redactor, parsed)
    mark_package_api(files)
    calls = read_call_graph(root, files, index, max_file_bytes, {e.path: e.size for e in repo_map.files})
    examples = example_code(root, repo_map)  # each example file read and parsed once for the three
    calls.examples = example_calls(examples)
    calls.entered = example_calls(examples, entered_in)
    calls.deferred = example_calls(examples, deferred_in)
    calls.qualified = example_calls(examples, qualified_in)
    if not calls.commands:  # a library: the commands its docs show a user typing are where its use starts
        shown = started_commands(lambda path: read_or_none(root, path), files, (e.code for e in examples))
        calls.commands = calls.named = shown
    calls.workspace = workspace(root, repo_map)
    _score_importance(files, {e.path: e.lines for e in repo_map.files}, calls.calls_into)
    return Facts(
        files=files,
        calls=calls,
        base_uses=base_uses(files.values()),
        mentioned=readme_code_names(root, repo_map),
        declarations=calls.declarations,
    )


T = TypeVar("T")


class _ReadOnFirstAccess(Generic[T]):
    """A FileFacts field computed on first access by the loader its facts keep (`loaders[name]`), then kept;
    setting it drops the loader. Reading is idempotent, so two threads reading at once at worst both load."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, facts: _OnDemand | None, owner: type | None = None) -> T:
        if facts is None:
            return self  # type: ignore[return-value]  # the class attribute: the descriptor itself
        load = facts.loaders.get(self.name)
        if load is not None:
            facts.__dict__[f"_{self.name}"] = load()
            facts.loaders.pop(self.name, None)
        value: T = facts.__dict__[f"_{self.name}"]
        return value

    def __set__(self, facts: _OnDemand, value: T) -> None:
        facts.loaders.pop(self.name, None)
        facts.__dict__[f"_{self.name}"] = value


class _OnDemand(FileFacts):
    """FileFacts some of whose fields are read on first access: equal to eager facts of the same values."""

    @property
    def loaders(self) -> dict[str, Callable[[], Any]]:
        """Each field not read yet → what reads it (set by `reading`; none while the dataclass initialises)."""
        loaders: dict[str, Callable[[], Any]] = self.__dict__.setdefault("_loaders", {})
        return loaders

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FileFacts):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(FileFacts))

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it extends


class OnDemandFileFacts(_OnDemand):
    """FileFacts of a test or other context file whose `symbols` are parsed (and redacted) on first access."""

    symbols = _ReadOnFirstAccess[list[Symbol]]()  # type: ignore[assignment]

    @classmethod
    def reading(cls, path: str, language: str, load: Callable[[], list[Symbol]]) -> OnDemandFileFacts:
        facts = cls(path=path, language=language)
        facts.loaders["symbols"] = load
        return facts

    @property
    def symbols_read(self) -> bool:
        """Whether the symbols have been parsed yet."""
        return "symbols" not in self.loaders


class DocOnDemand(_OnDemand):
    """FileFacts of a Markdown or reST file whose `doc` (the summary of its opening) is read on first
    access: most runs never ask for a documentation file's summary, and a repository can hold hundreds."""

    doc = _ReadOnFirstAccess[str]()  # type: ignore[assignment]

    @classmethod
    def reading(cls, path: str, language: str, load: Callable[[], str]) -> DocOnDemand:
        facts = cls(path=path, language=language)
        facts.loaders["doc"] = load
        return facts

    @property
    def doc_read(self) -> bool:
        """Whether the summary has been read yet."""
        return "doc" not in self.loaders


def _symbol_loader(
    root: Path, entry_path: str, language: str, max_bytes: int, redactor: Redactor
) -> Callable[[], list[Symbol]]:
    def load() -> list[Symbol]:
        return redact_symbols(parse_symbols(root, entry_path, language, max_bytes) or [], redactor)

    return load


def _file_facts(
    root: Path, repo_map: RepoMap, parsed: dict[str, Extracted | None], max_bytes: int, redactor: Redactor
) -> dict[str, FileFacts]:
    """FileFacts for every mapped file, in map order."""
    files: dict[str, FileFacts] = {}
    for entry in repo_map.files:
        facts = FileFacts(path=entry.path, language=entry.language)
        extracted = parsed.get(entry.path)
        if extracted is not None and symbols_on_demand(entry.language, entry.path):
            load = _symbol_loader(root, entry.path, entry.language, max_bytes, redactor)
            facts = OnDemandFileFacts.reading(entry.path, entry.language, load)
        files[entry.path] = facts
        if extracted is not None:
            _fill(facts, extracted)
        elif entry.language in {"markdown", "rst"} and entry.size <= DOC_FILE_LIMIT:
            files[entry.path] = DocOnDemand.reading(
                entry.path, entry.language, _doc_loader(root, entry.path, max_bytes, redactor)
            )
    return files


def _doc_loader(root: Path, path: str, max_bytes: int, redactor: Redactor) -> Callable[[], str]:
    def load() -> str:
        doc = _markdown_doc(root, path, max_bytes)
        return redactor.redact(doc)[0] if doc else doc

    return load


def _show_imports(files: dict[str, FileFacts], parsed: Mapping[str, Extracted | None]) -> None:
    """Each parsed file's imports as a reader would write them, redacted by the parser (resolution is done
    with the raw targets)."""
    for path, extracted in parsed.items():
        if extracted is not None:
            files[path].imports = extracted.shown_imports


def _redact_docs(
    files: Iterable[FileFacts], redactor: Redactor, parsed: Mapping[str, Extracted | None]
) -> None:
    """The docs of the files not parsed (markdown); the parsed files' docs and symbols came back redacted
    from the parser, and symbols read on demand are redacted by their loader."""
    for facts in files:  # a documentation file's summary is redacted as it is read (DocOnDemand)
        if parsed.get(facts.path) is None and not isinstance(facts, DocOnDemand) and facts.doc:
            facts.doc = redactor.redact(facts.doc)[0]


def _mark_unit_tests(files: dict[str, FileFacts], index: ImportIndex) -> None:
    """Rust files their parent module declares for tests only (`#[cfg(test)] mod test;`): unit tests, however
    they are named (ureq's `src/unversioned/transport/test.rs`), while a public `src/test.rs` stays code."""
    for fact in files.values():
        for name in fact.test_modules:
            for path in index.resolve(fact.path, fact.language, f"mod:{name}"):
                files[path].unit_tests = True


def _fill(facts: FileFacts, extracted: Extracted) -> None:
    if not isinstance(facts, OnDemandFileFacts):
        facts.symbols = extracted.symbols
    facts.imports = extracted.imports
    facts.doc = extracted.doc
    facts.exports = list(extracted.exports)
    facts.made_by = dict(extracted.made_by)
    facts.test_modules = list(extracted.test_modules)
    facts.fields = dict(extracted.fields)
    facts.results = dict(extracted.results)
    facts.tagged = extracted.tagged
    name = posixpath.basename(facts.path)
    facts.is_entry_point = _is_entry(facts.language, name, extracted.has_main, extracted.package)


def _is_entry(language: str, name: str, has_main: bool, package: str) -> bool:
    if language == "python":
        return has_main or name == "__main__.py"
    if language == "go":
        return has_main and package == "main"
    return has_main and language in {"rust", "c", "cpp", "java", "csharp"}


def _markdown_doc(root: Path, path: str, max_bytes: int) -> str:
    text = read_or_none(root, path, max_bytes=max_bytes)
    return summary(text[:DOC_TEXT_LIMIT]) if text is not None else ""


BUILD_FOLDERS = frozenset({"dist", "build", "out", "lib", "esm", "cjs"})  # where a package's built files go


# --- entry points -------------------------------------------------------------------------------------


def _mark_entry_points(root: Path, files: dict[str, FileFacts], index: ImportIndex, max_bytes: int) -> None:
    """Files named by packaging metadata as console scripts / bins / mains are entry points too."""
    for path in list(files):
        name = posixpath.basename(path)
        base = posixpath.dirname(path)
        targets: list[str] = []
        if name == "pyproject.toml":
            targets = [
                hit
                for mod in _pyproject_scripts(root, path, max_bytes)
                for hit in index.resolve(f"{base}/x.py" if base else "x.py", "python", mod)
            ]
        elif name == "package.json":
            source = f"{base}/package.json" if base else "package.json"
            bins, faces = _package_json_entries(root, path, max_bytes)
            scripts = {hit for rel in bins for hit in _package_target(index, source, _relative(rel))}
            targets = [hit for rel in faces for hit in _package_target(index, source, _relative(rel))]
            # a `bin` script is a command, never the package's face: what it requires is no library API
            for target in scripts - set(targets):
                if target in files:
                    files[target].is_entry_point = files[target].command_script = True
        for target in targets:
            if target in files:
                files[target].is_entry_point = True


def _relative(rel: str) -> str:
    return rel if rel.startswith(".") else "./" + rel


def _package_target(index: ImportIndex, source: str, rel: str) -> list[str]:
    """The files a package.json path names; one into a build output the checkout does not hold
    (`./dist/source/index.js`, `./build/index.js`) names the source it is built from (`source/index.ts`,
    else `src/index.ts`)."""
    hits = index.resolve(source, "javascript", rel)
    head, _, rest = rel.removeprefix("./").partition("/")
    if hits or head not in BUILD_FOLDERS or not rest:
        return hits
    return index.resolve(source, "javascript", f"./{rest}") or index.resolve(
        source, "javascript", f"./src/{rest}"
    )


def _pyproject_scripts(root: Path, path: str, max_bytes: int) -> list[str]:
    try:
        data = tomllib.loads(read_source(root, path, max_bytes=max_bytes))
    except (DeepkbError, tomllib.TOMLDecodeError):
        return []
    tables = [
        data.get("project", {}).get("scripts", {}),
        data.get("project", {}).get("gui-scripts", {}),
        data.get("tool", {}).get("poetry", {}).get("scripts", {}),
    ]
    modules = []
    for table in tables:
        if isinstance(table, dict):
            for value in table.values():
                if isinstance(value, str) and re.fullmatch(r"[\w.]+(:[\w.]+)?", value.strip()):
                    modules.append(value.strip().split(":")[0])
    return modules


def _package_json_entries(root: Path, path: str, max_bytes: int) -> tuple[list[str], list[str]]:
    """The files a package.json names: its `bin` scripts, then its faces (`main`, `module`, `exports`)."""
    try:
        data = json.loads(read_source(root, path, max_bytes=max_bytes))
    except (DeepkbError, ValueError):
        return [], []
    return package_json_entries(data)


def package_json_entries(data: object) -> tuple[list[str], list[str]]:
    """The files a parsed package.json names: its `bin` scripts, then its faces (`main`, `module`,
    `exports`)."""
    if not isinstance(data, dict):
        return [], []

    def named(key: str) -> list[str]:
        value = data.get(key)
        values = value.values() if isinstance(value, dict) else [value]
        return [v for v in values if isinstance(v, str) and v and not v.startswith("/")]

    faces = named("main") + named("module")
    # what `import 'pkg/compiler'` loads is as public as the main module (svelte's `compile`)
    faces.extend(v for v in _export_targets(data.get("exports")) if not v.startswith("/") and "*" not in v)
    return named("bin"), faces


def _export_targets(value: object) -> list[str]:
    """The files a package.json `exports` field maps to: a path, or subpaths and conditions over paths
    (nested), type declarations and the package.json itself left out."""
    if isinstance(value, str):
        return [] if value.endswith((".d.ts", ".json")) else [value]
    if isinstance(value, dict):
        return [target for inner in value.values() for target in _export_targets(inner)]
    if isinstance(value, list):
        return [target for inner in value for target in _export_targets(inner)]
    return []


# --- importance ---------------------------------------------------------------------------------------


def pagerank(edges: dict[str, list[str]], nodes: Iterable[str]) -> dict[str, float]:
    """PageRank over `edges` (file → files it depends on): depended-upon files accumulate rank (igraph's,
    solved exactly in C; a file depending on nothing spreads its rank over every file)."""
    order = sorted(set(nodes))
    if not order:
        return {}
    position = {node: i for i, node in enumerate(order)}
    links = [(position[node], position[t]) for node in order for t in edges.get(node, ()) if t in position]
    graph = igraph.Graph(n=len(order), edges=links, directed=True)
    return dict(zip(order, graph.pagerank(damping=DAMPING), strict=True))


def _score_importance(
    files: dict[str, FileFacts], lines: dict[str, int], calls_into: Callable[[str], Counter[str]]
) -> None:
    """importance = centrality (PageRank, scaled to the maximum; a shim of a few lines gets a share of it)
    + calls into it from other modules (log, scaled to the most called) + size (log lines) + entry-point
    status. A module everything imports but that holds little (`compat.py`, `certs.py`) no longer outranks
    the module the others hand their work to (`adapters.py`)."""
    ranks = pagerank({p: f.depends_on for p, f in files.items()}, files)
    top_rank = max(ranks.values(), default=0.0)
    floor = min(ranks.values(), default=0.0)
    top_lines = math.log1p(max(lines.values(), default=0))
    called = {path: math.log1p(calls_into(path).total()) for path in files}
    # scaled to the most called module, or to CALLS_SCALE calls when none is called more: a single call
    # in a small repository says little
    top_called = max([*called.values(), math.log1p(CALLS_SCALE)])
    # a shim is small beside the repository's other modules: where every module is small, none is
    sizes = sorted(lines.get(p, 0) for p, f in files.items() if f.language in SUPPORTED)
    shim_lines = max(1, min(SHIM_LINES, sizes[len(sizes) // 2] if sizes else SHIM_LINES))
    for path, facts in files.items():
        centrality = (ranks[path] - floor) / (top_rank - floor) if top_rank > floor else 0.0
        centrality *= min(1.0, lines.get(path, 0) / shim_lines)
        size = math.log1p(lines.get(path, 0)) / top_lines if top_lines else 0.0
        used = called[path] / top_called if top_called else 0.0
        score = (
            W_CENTRALITY * centrality
            + W_CALLED * used
            + W_SIZE * size
            + W_ENTRY * float(facts.is_entry_point)
        )
        if facts.language not in SUPPORTED:
            score *= 0.5  # docs and data explain code; they rank below the code itself
        facts.importance = round(min(1.0, max(0.0, score)), 4)
