"""Plain typed data passed between the repository-research stages. Stages take and return these."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

import msgspec

from generator.repo.facts.declared import PyModule
from generator.repo.facts.prose import summary

from ..jsontypes import StoredObject

# seed limits (the architect prompt and the normalizer share them)
MAX_FILES_PER_SHARD = 5
MAX_PLANNED_FILES = 25  # what the architect is asked to stay under
MAX_TOTAL_FILES = 30  # what normalize enforces
MIN_SHARDS, MAX_SHARDS = 3, 5  # seed: 3–5 logical subsystems
PACK_CHAR_CAP = 32_000
ANALYZE_INPUT_CAP = 28_000
ANALYZE_OUTPUT_TOKENS = 4096


@dataclass(frozen=True)
class RepoSource:
    """What the operator named, checked and classified before any git process starts."""

    raw: str
    kind: Literal["url", "local"]
    location: str  # normalized URL, or absolute local path
    owner: str
    name: str
    web_url: str | None = None  # https://github.com/<owner>/<name> when the remote is on GitHub


@dataclass(frozen=True)
class Checkout:
    source: RepoSource
    path: Path  # working tree on disk (the clone cache, or the local path)
    revision: str  # full commit hash ("" when the folder is not a git repository)
    revision_date: str  # ISO-8601 commit date
    git: bool = True  # False: a plain folder (no revision, so nothing can be a permalink)


@dataclass(frozen=True)
class FileEntry:
    path: str  # POSIX path relative to the repository root
    size: int
    lines: int
    language: str  # "python", "go", …, or "text"/"markdown"/"other"


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str  # "gitignored", "symlink outside repository", "binary", "too large (2.1 MB)", …


@dataclass
class RepoMap:
    """The god view: every readable file with its size and language, and what was skipped and why."""

    root: Path
    files: list[FileEntry]
    skipped: list[Skipped] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)
    """Symbolic links inside the repository naming one of its mapped files: link → that file's path. A link
    is never followed; the file it names is read as itself (axum's and actix-web's top-level README.md link
    to their main crate's README)."""
    contents: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)
    """Bytes the map already read, when asked to keep them (`map_repository(keep_bytes=…)`), so the facts
    stage need not read each file a second time; it empties this once it has parsed them."""

    def languages(self) -> dict[str, dict[str, int]]:
        totals: dict[str, dict[str, int]] = {}
        for entry in self.files:
            bucket = totals.setdefault(entry.language, {"files": 0, "lines": 0})
            bucket["files"] += 1
            bucket["lines"] += entry.lines
        return dict(sorted(totals.items(), key=lambda kv: -kv[1]["lines"]))


@dataclass(frozen=True)
class Symbol:
    """A definition in a source file.

    Methods keep their qualified name ("Session.request", "app.use", "Command.Execute") and name their
    owner in `parent` ("Session", "app", "Command"): a page groups a class's methods under it by `parent`.
    """

    name: str
    kind: str  # function, class, method, struct, interface, …
    start: int  # 1-based first line
    end: int  # 1-based last line
    doc_source: str = ""
    """Its docstring / doc comment as written (the head of it, comment markers removed); `doc` is the clean
    prose. Summarizing is left until a page asks: a repository has tens of thousands of docstrings."""
    public: bool = True
    parent: str = ""  # the class/type/object a method belongs to ("" for top-level definitions)
    bases: tuple[str, ...] = ()  # a class's bases / a JS class's `extends`, as written ("models.Model")
    exported: bool = False  # named by `__all__`, re-exported by its package, `export`ed, capitalised in Go
    stub: bool = False  # an `@overload`, a `...`-only body or a bare declaration: not where the work is

    @property
    def doc(self) -> str:
        """Its docstring/doc comment as clean prose: a summary sentence or two (facts/prose.py)."""
        return summary(self.doc_source, sections=False) if self.doc_source else ""

    @property
    def lines(self) -> int:
        return self.end - self.start + 1

    @property
    def short_name(self) -> str:
        """The name without its owner: "request" for "Session.request"."""
        return self.name[len(self.parent) + 1 :] if self.parent else self.name


@dataclass
class FileFacts:
    path: str
    language: str
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # raw import targets as written
    depends_on: list[str] = field(default_factory=list)  # resolved to files inside the repository
    doc: str = ""  # module docstring / leading comment as clean prose: a summary sentence or two
    is_entry_point: bool = False
    command_script: bool = False  # a package.json `bin` script only: a command, not the package's face
    importance: float = 0.0
    exports: list[str] = field(default_factory=list)
    """Names the file declares public: Python `__all__` and names its package re-exports, JS
    `module.exports = X` / `exports.x` objects."""
    api_names: list[str] = field(default_factory=list)
    """Its names a top-level package re-exports (`from .api import get` in `requests/__init__.py`), or, in
    JS/TS, what the package's main module and the modules it requires directly export: the public face."""
    name_uses: dict[str, int] = field(default_factory=dict)
    """How many other files import each of its names (Python `from m import Name`, re-exports followed)."""
    names_from: dict[str, list[str]] = field(default_factory=dict)
    """The names it imports from each repository file (`from .sessions import Session` → {"…/sessions.py":
    ["Session"]}): what crosses an import edge, known for every file without reading any call."""
    made_by: dict[str, str] = field(default_factory=dict)
    """JS/TS module-level values a function makes (`const got = create(defaults)` → {"got": "create"}): a
    factory's instance, which users call by the value's name."""
    unit_tests: bool = False
    """A Rust module of unit tests: its parent declares it for tests only (`#[cfg(test)] mod tests;`)."""
    test_modules: list[str] = field(default_factory=list)
    """Rust: the modules it declares for tests only (`#[cfg(test)] mod test;`), by name."""
    fields: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    """C, C++ and Rust: the fields each struct, class or enum declares, as (name, declared type as written,
    line) by the type's qualified name (an enum's are its variants, typed by their payload)."""
    tagged: bool = False
    """Go: built only under a build tag the default build never sets (`//go:build gofuzz`, `ignore`, `tools`;
    buildtags.py): a fuzz harness or a generator script, no entry point, as a `_test.go` is none."""
    results: dict[str, str] = field(default_factory=dict)
    """Go: the type each function and method returns first (`func New(…) (*Kong, error)` → {"New": "Kong"}),
    by its qualified name, read with its symbols."""


@dataclass(frozen=True)
class CallEdge:
    """A call found by static analysis: `caller` (qualified symbol of `caller_path`, "" for module level)
    calls `callee` (qualified symbol of `callee_path`) at `line` of `caller_path`, on `share` of its path."""

    caller_path: str
    caller: str
    callee_path: str
    callee: str
    line: int
    share: float = 1.0
    """The share of its caller's path the call sits on (facts/branches.py): 1 on the straight line, less in
    an error handler or a branch a flag guards."""
    handed: bool = False
    """The callee is handed over as a value (`Thread(target=work)`, a registry's `{"name": run}`), to be
    called by whatever receives it, rather than called here."""
    inferred: bool = False
    """The call is made on an element of a collection (`for route in self.routes: route.matches()`), so the
    callee is inferred: the method of that name on the classes stored there, else on the package's classes."""
    dispatched: bool = False
    """The call is made on a value of an interface or abstract type, so the callee is one of the repository's
    implementations (facts/dispatch.py): the call tree follows it, no entry ranking counts it."""
    plugged: bool = False
    """The call runs what a user plugs in: a value handed to the repository (a handler given to a
    constructor or a `ListenAndServe`, a job's function) and kept in a field, `callee` (`session.handler`,
    `Job.job_func`), which is no symbol of the repository: the call tree shows where the user's code runs,
    no entry ranking counts it."""
    passed_by: tuple[tuple[str, str], ...] = ()
    """The callee is a function value the caller's own callers pass it, and only these (`path`, symbol) do:
    fx's `withTimeout` calls `param.callback`, which is `App.start` when `App.Start` calls it
    (`withTimeout(ctx, &withTimeoutParams{callback: app.start})`) and `App.Stop`'s closure when `Stop`
    does. A call tree follows the call only under one of them; () when every caller's call reaches it."""


@dataclass
class Facts:
    files: dict[str, FileFacts]
    calls: CallGraphView | None = field(default=None, compare=False, repr=False)
    """The static call graph of the source modules (facts/calls.py), read whole; None when the facts were
    built without a checkout to read."""
    base_uses: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    """How many classes of the source modules name each class name (last dotted part) as a base."""
    mentioned: frozenset[str] = field(default_factory=frozenset, compare=False, repr=False)
    """Identifiers the README's code shows (`requests.get`, `app.listen`): what the front page demonstrates."""
    rankings: dict[str, object] = field(default_factory=dict, compare=False, repr=False)
    """Each file's symbols ranked, kept per file: the pages ask for the same files' key symbols several times.
    facts/ranking.py owns the record (a `FileRanking`) and checks its type, so this model stays below it."""
    go_examples: dict[str, list[DocPassage]] = field(default_factory=dict, compare=False, repr=False)
    """The `Example…` functions of each Go package's tests by folder, read once (analyze/explained.py's
    `go_examples`) for the docs stage and the pages alike."""
    declarations: dict[str, PyModule] = field(default_factory=dict, compare=False, repr=False)
    """What each Python source module declares for its users (facts/pydeclarations.py), read from the syntax
    tree the call graph was read from: the reference stage parses none of them again."""
    serving_tests: frozenset[str] | None = field(default=None, compare=False, repr=False)
    """The Go modules only the tests use (facts/apart.py's `serving_tests`), found on the first ask: the plan,
    the docs, the reference and every module description ask for them."""


class RunTimeView(Protocol):
    """What each function stores, reads and spawns (facts/runtime.py): set-up told from the call made at
    run time."""

    def spawned(self, node: tuple[str, str]) -> list[tuple[str, str]]: ...

    def sets(self, node: tuple[str, str]) -> bool: ...

    def left(self, nodes: Iterable[tuple[str, str]]) -> set[str]: ...

    def reads(self, nodes: Iterable[tuple[str, str]]) -> set[str]: ...

    def workers(self) -> set[tuple[str, str]]: ...

    def reads_input(self, node: tuple[str, str]) -> bool: ...


class CallGraphView(Protocol):
    """What facts/calls.py's CallGraph offers the stages after it."""

    entry_points: list[tuple[str, str]]
    """A maintainer's entry points as (file, symbol): the flows start there."""
    commands: list[tuple[str, str]]
    """A command-line tool's commands as (file, symbol) (facts/commands.py)."""
    examples: dict[str, float]
    """The names the usage examples call, by how prominently (facts/examples.py)."""

    @property
    def runtime(self) -> RunTimeView:
        """What each function stores, reads and spawns (facts/runtime.py)."""
        ...

    def edges(self, paths: Iterable[str] | None = None, *, incoming: bool = False) -> list[CallEdge]: ...

    def calls_of(self, path: str, callers: set[str], *, dispatched: bool = False) -> list[CallEdge]: ...

    def entries(self, paths: Iterable[str] | None = None, *, limit: int = 8) -> list[tuple[str, str]]: ...

    def calls_into(self, path: str, *, helpers: bool = True) -> Counter[str]: ...

    def tree(self, paths: Iterable[str] | None = None) -> list[CallTree]: ...

    def tree_from(self, candidates: Iterable[tuple[str, str]]) -> list[CallTree]: ...

    def then(self, tree: list[CallTree]) -> list[CallTree]: ...

    def lines(self, path: str) -> list[str]: ...

    def deprecated(self, node: tuple[str, str]) -> bool: ...


@dataclass(frozen=True)
class CallTree:
    """A call of the main flow and the calls below it that lead to the most code (facts/calltree.py): one
    where the work goes on in a straight line, several where it branches."""

    edge: CallEdge
    below: tuple[CallTree, ...] = ()
    main: bool = False  # the call the main line goes on through (the heaviest), where calls are in call order


@dataclass(frozen=True)
class Shard:
    name: str
    files: tuple[str, ...]
    rationale: str = ""
    pinned: bool = False  # the maintainer's, from deepkb.yml: never merged into another shard or renamed


@dataclass(frozen=True)
class ShardPlan:
    shards: tuple[Shard, ...]
    planner: Literal["llm", "heuristic"]
    note: str = ""  # e.g. why the heuristic plan was used


DRAFT_VERSION = 1
"""The shape of `ShardDraft`: bump it when a field changes, so a cache entry of another shape is refused."""


class OfflineDraft(msgspec.Struct, frozen=True, tag="offline", tag_field="kind"):
    """The offline analyst's draft: the shard's purpose in its own files' words (redacted)."""

    purpose: tuple[str, ...] = ()


class ModelDraft(msgspec.Struct, frozen=True, tag="llm", tag_field="kind"):
    """A model's analysis of a shard: untrusted text (redacted), with what it cost."""

    text: str
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    truncated: bool = False  # the packed files were cut to fit the prompt
    redactions: int = 0
    input_note: str = ""  # what was left out of the prompt to fit the model's window (our words)


class ShardDraft(msgspec.Struct, frozen=True, kw_only=True):
    """What analyzing a shard hands to the synthesis, and what the cache keeps of it (by `key`): its draft,
    the day it was last changed and who wrote it."""

    version: int
    key: str
    draft: OfflineDraft | ModelDraft
    generated: str  # ISO date
    provider: str
    model: str
    fallback: str = ""
    """Why the offline analyst wrote this draft in the model's place ("" when it did not); never cached."""
    rejected: bool = False
    """The fallback's cause is the model's answer failing the checks (AnswerRejected), not a failed call."""


@dataclass
class Citation:
    path: str
    start: int
    end: int
    url: str  # permalink or relative link


@dataclass(frozen=True)
class CitedSymbol:
    """A symbol as a page shows it: qualified name, kind, one line of prose and where it is defined."""

    name: str  # qualified: "Session.request"
    kind: str
    path: str
    doc: str = ""
    citation: Citation | None = None  # None when the lines could not be checked at the pinned revision
    secondary: bool = False  # an error type or a compat shim: named after the primary symbols
    deprecated: bool = False  # its doc comment (or, where asked, its own body's warning) says it is


@dataclass(frozen=True)
class KeyType:
    """A class (struct, interface) with the public methods a reader meets first."""

    symbol: CitedSymbol
    methods: tuple[CitedSymbol, ...] = ()
    bases: tuple[str, ...] = ()  # as written ("models.Model", "Exception")


@dataclass(frozen=True)
class Explained:
    """What a key type's or function's own doc comment explains past the summary a page shows of it, and
    its examples (analyze/explained.py), each a passage at its lines."""

    symbol: CitedSymbol
    passages: tuple[DocPassage, ...]


@dataclass(frozen=True)
class FlowHop:
    """One step of a flow: `caller` calls (or, without a call graph, imports) `callee` at `citation`."""

    caller: str
    callee: str
    citation: Citation | None = None
    handed: bool = False  # `caller` hands `callee` over (a callback, a registry's entry) rather than calls it
    dispatched: bool = False  # `callee` implements the interface or abstract method `caller` calls
    plugged: bool = False  # `callee` is a field holding what the user plugs in (CallEdge.plugged)
    callee_path: str = ""  # the file defining `callee` ("" where unknown)


@dataclass(frozen=True)
class FlowPassage:
    """A doc passage that tells the main flow: it names these of the flow's symbols, in the flow's order."""

    passage: DocPassage
    names: tuple[str, ...]


@dataclass(frozen=True)
class FlowBranch:
    """A hop of the main flow's call tree and the hops below it, each cited at the line of its call."""

    hop: FlowHop
    below: tuple[FlowBranch, ...] = ()


def depth_first(tree: Sequence[FlowBranch]) -> list[FlowHop]:
    """A call tree's hops in call order: each call, then the calls below it."""
    return [hop for branch in tree for hop in (branch.hop, *depth_first(branch.below))]


@dataclass(frozen=True)
class ModuleLine:
    """One source module in a catalogue or a shard's file list."""

    path: str
    language: str
    lines: int
    purpose: str
    symbols: tuple[CitedSymbol, ...] = ()
    citation: Citation | None = None


@dataclass(frozen=True)
class SubsystemLink:
    """Another subsystem this one uses (or is used by), with the names that cross between them."""

    name: str
    slug: str  # the other shard's page name (NN_<slug>)
    uses: tuple[str, ...] = ()
    # (a module of this shard, the names crossing at it): for "depends on" the module that imports or calls
    # them, for "used by" the module that defines them; what a diagram's arrow leaves from or points at
    by_file: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass
class ShardAnalysis:
    """Everything a shard page shows, as data; the page layer (generator/site/pages/repo.py) renders it."""

    index: int  # 1-based position, gives the NN_ in the page name
    shard: Shard
    slug: str
    summary: str  # one sentence for the index page
    purpose: list[str] = field(default_factory=list)  # sentences from its own files' docstrings
    model_text: str = ""  # the model's analysis (untrusted, redacted); "" for the offline analyst
    truncated: bool = False  # the model saw only part of the shard's files
    input_note: str = ""  # what the model did not see, when its window was too small (our words)
    key_types: list[KeyType] = field(default_factory=list)
    functions: list[CitedSymbol] = field(default_factory=list)
    explained: list[Explained] = field(default_factory=list)  # its key types' and functions' own comments
    flow: list[FlowHop] = field(default_factory=list)  # the call tree's main line (its heaviest calls)
    flow_tree: list[FlowBranch] = field(default_factory=list)  # from the shard's own entry point
    depends_on: list[SubsystemLink] = field(default_factory=list)
    used_by: list[SubsystemLink] = field(default_factory=list)
    files: list[ModuleLine] = field(default_factory=list)
    imports: list[tuple[str, str]] = field(default_factory=list)  # (importer, imported) among its files
    status: Literal["ok", "failed"] = "ok"
    error: str = ""
    fallback: str = ""  # why the offline analyst wrote this page in the model's place ("" when it did not)
    rejected: bool = False  # that reason is the model's answer failing the checks, not a failed call
    provider: str = ""
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    citations_valid: int = 0
    citations_dropped: int = 0
    generated: str = ""  # date the analysis was produced (kept on cached re-runs)
    tags: list[str] = field(default_factory=list)

    @property
    def top_symbols(self) -> list[CitedSymbol]:
        """The shard's most important symbols: its key types, then its functions; private ones (`_Quoter`,
        `_CustomTextWrap`: tabulate's subsystem was named by a private helper class before its `tabulate`)
        after the public, and error types and shims after all."""
        return sorted(
            [t.symbol for t in self.key_types] + self.functions,
            key=lambda s: (s.secondary, _private(s.name.rpartition(".")[2])),
        )


def _private(name: str) -> bool:
    """A name its module keeps to itself (`_Quoter`), not a protocol's (`__call__`)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@dataclass(frozen=True)
class CatalogueGroup:
    """The modules of one subsystem, for the index's module catalogue."""

    name: str
    index: int  # the shard's 1-based place (0: modules no shard reaches)
    modules: tuple[ModuleLine, ...]


@dataclass(frozen=True)
class SubsystemEdge:
    """Subsystem `source` uses subsystem `target` (1-based shard indexes); `uses` names what it uses."""

    source: int
    target: int
    uses: tuple[str, ...] = ()
    strength: int = 1  # imports and calls across the edge
    # (importing or calling module, imported or called module, the names crossing between the two)
    crossings: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    on_flow: bool = False  # a call of the repository's main flow crosses it: the architecture always shows it


@dataclass(frozen=True)
class DocPassage:
    """One block of a doc file as its author wrote it: a paragraph, list item, code block, table or quote."""

    path: str  # the doc file, repository-relative
    start: int  # 1-based lines at the pinned revision
    end: int
    kind: str  # "paragraph", "item", "code", "table", "quote", "options"
    # plain text; code spans keep their backticks; code blocks whole; a table's and an options table's rows
    # as `table_text`
    text: str
    heading: str = ""  # the heading of the section it is under
    language: str = ""  # code blocks: the fence's language
    page: str = ""  # the doc file quoting it when that is not `path`: code it includes from another file
    # "options", a commented configuration block read as its reference (config_reference.py): each row's
    # line, the key's
    lines: tuple[int, ...] = ()

    @property
    def quoted_in(self) -> str:
        """The doc file whose page quotes it."""
        return self.page or self.path


@dataclass(frozen=True)
class AnswerStep:
    """One step of a question's answer in the code: a symbol, and where the step before it calls it (the
    start has no caller)."""

    symbol: CitedSymbol
    caller: str = ""
    call: Citation | None = None  # the line of the call
    depth: int = 0  # calls below the start
    handed: bool = False  # the caller hands it over (a callback, a registry's entry) rather than calls it
    inferred: bool = False  # called on an element of a collection: the callee is inferred (CallEdge.inferred)


@dataclass(frozen=True)
class Answer:
    """One question asked of the repository and what answers it at the pinned revision: the symbols that match
    it (those that call the others first) and the call path between them, each cited; the model's prose
    written from those facts when a model answered; how the files were found (the focus trace)."""

    request: str
    symbols: tuple[CitedSymbol, ...]
    path: tuple[FlowHop, ...] = ()
    slug: str = ""  # answers/<slug>.md
    files: tuple[str, ...] = ()  # the files retrieval kept, most relevant first
    focus: StoredObject | None = None  # the focus trace, as saved with the research
    model_text: str = ""  # the model's answer (untrusted, redacted; citations checked as the page renders)
    provider: str = "offline"
    model: str = ""
    fallback: str = ""  # why the offline draft stands in for the model's answer ("" when it does not)
    doc_passages: tuple[DocPassage, ...] = ()  # what the project's docs say to it, from where it begins
    steps: tuple[AnswerStep, ...] = ()  # the code's answer from where the process begins, in call order


@dataclass(frozen=True)
class ConceptText:
    """A concept page's prose written by a model from the concept's doc passages and code facts: only the
    sentences whose citations name lines it was given are kept; `fallback` says why the offline page stands
    in instead ("" when the model's prose is published)."""

    slug: str  # the DocConcept's slug
    text: str = ""  # untrusted model markdown (redacted), every citation in it one it was given
    model: str = ""
    fallback: str = ""
    dropped: int = 0  # sentences left out for citing lines the model was not given


@dataclass(frozen=True)
class CommandLine:
    """A command of a command-line program as the index lists it: `cz bump` — its help — what runs it."""

    name: str
    help: str
    runs: CitedSymbol


@dataclass
class RepoSynthesis:
    """Everything the repository's index page shows, as data (stage 9's record)."""

    title: str
    label: str  # owner/name
    source: str  # web URL, clone URL or owner/name
    source_url: str  # a link for the source ("" when there is no web view)
    revision: str
    revision_url: str  # the commit's web page ("" when there is none)
    revision_date: str  # the commit's date
    provider: str
    model: str
    offline: bool
    analyses: list[ShardAnalysis]
    overview: str = ""  # the README's first real paragraph
    summary: list[str] = field(default_factory=list)  # the model's summary, or extractive sentences
    summary_by: str = ""  # the model that wrote `summary` ("" when deepkb's offline sentences are shown)
    answers: list[Answer] = field(default_factory=list)  # one per question asked, in page-name order
    concept_texts: list[ConceptText] = field(default_factory=list)  # a model's concept pages (none offline)
    notes: str = ""  # the maintainer's own markdown (deepkb.yml `notes:`), untrusted, shown on the index
    corrections: str = ""  # notes.corrections_digest of what deepkb.yml set for the repository
    architecture: list[SubsystemEdge] = field(default_factory=list)
    main_flow: list[FlowHop] = field(default_factory=list)  # the call tree's main line (its heaviest calls)
    flow_tree: list[FlowBranch] = field(
        default_factory=list
    )  # the calls the main flow's entry makes, as a tree
    flow_docs: list[FlowPassage] = field(
        default_factory=list
    )  # doc passages naming the flow's steps in order
    # the call tree of what the usage examples call next on what the flow's entry returns (fx's `App.Run`
    # after `New`), and the doc passages naming its steps in order
    then_tree: list[FlowBranch] = field(default_factory=list)
    then_docs: list[FlowPassage] = field(default_factory=list)
    # shard index → the places (1-based) of the docs' concepts that explain it, best first
    shard_concepts: dict[int, list[int]] = field(default_factory=dict)
    catalogue: list[CatalogueGroup] = field(default_factory=list)
    modules_present: int = 0  # core source modules in the repository (the catalogue lists all of them)
    git: bool = True  # False: researched from a folder that is not a git repository
    history: list[tuple[str, int]] = field(default_factory=list)  # most-changed files
    history_window: str = ""  # what the counts cover ("the last 500 commits")
    languages: dict[str, dict[str, int]] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    # the folders read as context by their name (tests, docs, examples …) with their files, the most first
    context: list[tuple[str, int]] = field(default_factory=list)
    planner: Literal["llm", "heuristic"] = "heuristic"
    planner_note: str = ""
    tokens: dict[str, int] = field(default_factory=dict)
    program: str = ""  # the command-line program's name, as its user types it ("cz")
    commands: list[CommandLine] = field(default_factory=list)  # its commands (facts/named_commands.py)

    @property
    def landed(self) -> list[ShardAnalysis]:
        return [a for a in self.analyses if a.status == "ok"]

    @property
    def failed(self) -> list[ShardAnalysis]:
        return [a for a in self.analyses if a.status != "ok"]

    @property
    def fallen_back(self) -> list[ShardAnalysis]:
        """Landed shards whose model analysis failed: the offline analyst wrote their pages."""
        return [a for a in self.landed if a.fallback]

    @property
    def unfinished(self) -> bool:
        """Some shard failed, or fell back because its model call failed (not because a weak model's
        answer was refused: that page is published labelled, an honest outcome)."""
        return bool(self.failed) or any(not a.rejected for a in self.fallen_back)


@dataclass
class FocusResult:
    """The files that answer a request (stage 6), most relevant first (empty: plan over the whole map),
    and how the retrieval got there."""

    files: list[str]
    trace: StoredObject  # every retrieval cycle's terms, scores and reasons: shown on the answer page
