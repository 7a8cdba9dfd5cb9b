"""Plain typed data passed between the repository-research stages. Stages take and return these."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

# seed limits (the architect prompt and the normalizer share them)
MAX_FILES_PER_SHARD = 5
MAX_PLANNED_FILES = 25  # what the architect is asked to stay under
MAX_TOTAL_FILES = 30  # what normalize enforces
MIN_SHARDS, MAX_SHARDS = 4, 6
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
    name: str
    kind: str  # function, class, method, struct, interface, …
    start: int  # 1-based first line
    end: int  # 1-based last line
    doc: str = ""  # first line of its docstring/comment
    public: bool = True


@dataclass
class FileFacts:
    path: str
    language: str
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # raw import targets as written
    depends_on: list[str] = field(default_factory=list)  # resolved to files inside the repository
    doc: str = ""  # module docstring / leading comment, first paragraph
    is_entry_point: bool = False
    importance: float = 0.0


@dataclass
class Facts:
    files: dict[str, FileFacts]

    def dependents(self, path: str) -> list[str]:
        return sorted(p for p, f in self.files.items() if path in f.depends_on)


@dataclass(frozen=True)
class Shard:
    name: str
    files: tuple[str, ...]
    rationale: str = ""


@dataclass(frozen=True)
class ShardPlan:
    shards: tuple[Shard, ...]
    planner: Literal["llm", "heuristic"]
    note: str = ""  # e.g. why the heuristic plan was used


@dataclass
class Citation:
    path: str
    start: int
    end: int
    url: str  # permalink or relative link


@dataclass
class ShardAnalysis:
    index: int  # 1-based position, gives the NN_ in the page name
    shard: Shard
    slug: str
    summary: str  # one line for the index page
    body: str  # markdown body of the shard page (already escaped/validated)
    status: Literal["ok", "failed"] = "ok"
    error: str = ""
    provider: str = ""
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    citations_valid: int = 0
    citations_dropped: int = 0
    generated: str = ""  # date the analysis was produced (kept on cached re-runs)
    tags: list[str] = field(default_factory=list)
