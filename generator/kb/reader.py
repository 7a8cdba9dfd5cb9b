"""Read-only access to a knowledge base by entry id, for `deepkb mcp`: its entries, pages, records and symbols.

Nothing is named by a file path. An entry is `repo:<owner>/<name>`, `topic:<slug>` or `source:<slug>/<name>`
(as `_index.json` lists them), a page is one the full-text database indexed for that entry (`index`,
`shards/01_core`, `output/report`), a record one of the few JSON files an entry keeps. Every file is opened
below site_src/ only, never through a symbolic link, and what is returned is bounded in size.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NotRequired, Required, cast

from typing_extensions import TypedDict

from ..errors import UsageError
from ..store import KBPaths, site_file
from .index import INDEX_FILE, load_index
from .search import SearchResult, search_db, unsegment

MAX_TEXT = 20_000  # characters of a page one call returns; `offset` pages on
MAX_RECORD = 50_000  # characters of a record, as JSON
MAX_LIST = 500
_ENTRY_ID = re.compile(r"^(?:repo|topic|source):[\w.\-]+(?:/[\w.\-]+)?$")
_PAGE = re.compile(r"^[\w.\-]+(?:/[\w.\-]+){0,2}$")
# the records each kind of entry keeps, below its folder (a source's are found from its page)
_RECORDS = {"repo": ("_entry.json",), "topic": ("_entry.json", "_meta.json", "plan.json")}
IndexEntry = dict[str, object]
"""An entry as `_index.json` holds it: read as it is (a hand-edited or hostile file is checked value by value)."""


class EntrySummary(TypedDict):
    id: str
    kind: object
    title: object
    description: str
    tags: object


class EntryList(TypedDict):
    """list_entries: the repositories and topics, the tags with how many entries carry each."""

    entries: list[EntrySummary]
    tags: dict[str, int]
    sources: int


class EntryDetail(TypedDict, total=False):
    """read_entry: the entry's fields as the index lists them (its cost left out), its pages and records."""

    id: Required[str]
    title: object  # in the index's order, so the reply reads as it did when it was the index's own dict
    kind: object
    status: object
    path: object
    updated_at: object
    description: object
    source: object
    revision: object
    topic: object
    lang: object
    provider: object
    shards: object
    report: object
    analysis: object
    url: object
    fetched_at: object
    tags: object
    questions: object
    pages: Required[list[str]]
    records: Required[list[str]]
    sources: list[str]
    source_count: int


# the fields of an index entry read_entry passes on (its cost is the run's business)
_INDEX_FIELDS = frozenset(EntryDetail.__annotations__) - {"id", "pages", "records", "sources", "source_count"}


class PageText(TypedDict):
    """read_page: MAX_TEXT characters of a page's markdown from `offset`."""

    id: str
    page: str
    title: str
    text: str
    offset: int
    total_chars: int
    next_offset: int | None


class RecordPayload(TypedDict):
    """read_record: the record's JSON (`data`), or its first MAX_RECORD characters as text when longer."""

    id: str
    record: str
    truncated: bool
    data: NotRequired[object]
    json: NotRequired[str]


class PageHit(TypedDict):
    """search_pages: one page that matches, with its entry's id."""

    id: str
    title: str
    path: str
    snippet: str
    score: float
    kind: str


def page_hit(result: SearchResult) -> PageHit:
    return {
        "id": result.id,
        "title": result.title,
        "path": result.path,
        "snippet": result.snippet,
        "score": result.score,
        "kind": result.kind,
    }


def check_entry_id(entry_id: str) -> str:
    if not _ENTRY_ID.fullmatch(entry_id) or ".." in entry_id:
        raise UsageError(
            f"{entry_id[:80]!r} is not an entry id",
            hint="ids look like repo:owner/name, topic:slug or source:slug/name; list_entries gives them",
        )
    return entry_id


def check_page(page: str) -> str:
    page = page.removesuffix(".md")
    if not _PAGE.fullmatch(page) or ".." in page.split("/") or page.startswith("."):
        raise UsageError(f"{page[:80]!r} is not a page name", hint="read_entry lists an entry's pages")
    return page


class Reader:
    """One knowledge base, read by entry id."""

    def __init__(self, paths: KBPaths) -> None:
        self.paths = paths

    def entries(self, kind: str = "all") -> EntryList:
        """Repositories and topics (id, kind, title, description, tags), and the tags with how many use them."""
        index = load_index(self.paths)
        listed: list[EntrySummary] = [
            {
                "id": entry_id,
                "kind": entry.get("kind", ""),
                "title": entry.get("title", ""),
                "description": str(entry.get("description") or "")[:300],
                "tags": entry.get("tags", []),
            }
            for entry_id, entry in index["topics"].items()
            if kind in ("all", entry.get("kind"))
        ]
        tags = {tag: len(ids) for tag, ids in index["tag_index"].items()} if kind in ("all", "tag") else {}
        return {
            "entries": listed[:MAX_LIST] if kind != "tag" else [],
            "tags": dict(list(tags.items())[:MAX_LIST]),
            "sources": len(index["sources"]),
        }

    def tag(self, tag: str) -> list[str]:
        return list(load_index(self.paths)["tag_index"].get(tag, []))[:MAX_LIST]

    def entry(self, entry_id: str) -> EntryDetail:
        """An entry as the index lists it, with the names of its pages and records."""
        entry_id = check_entry_id(entry_id)
        index = load_index(self.paths)
        entry = index["topics"].get(entry_id) or index["sources"].get(entry_id)
        if entry is None:
            raise UsageError(f"no entry {entry_id!r}", hint="list_entries gives the ids")
        folder = self._folder(entry)
        with search_db(self.paths) as conn:
            rows = conn.execute("SELECT path FROM docs WHERE entry = ? ORDER BY path", (entry_id,)).fetchall()
        pages = [_page_name(folder, rel) for (rel,) in rows]
        sources = [sid for sid, s in index["sources"].items() if s.get("topic") == entry_id]
        listed = {k: v for k, v in entry.items() if k in _INDEX_FIELDS}
        return cast(
            EntryDetail,
            {
                "id": entry_id,
                **listed,
                "pages": pages[:MAX_LIST],
                "records": list(self._records(entry_id, entry)),
                **({"sources": sources[:MAX_LIST], "source_count": len(sources)} if sources else {}),
            },
        )

    def page(self, entry_id: str, page: str = "index", offset: int = 0) -> PageText:
        """A page's markdown (frontmatter included), MAX_TEXT characters from `offset`."""
        entry_id, page = check_entry_id(entry_id), check_page(page or "index")
        entry = self._lookup(entry_id)
        folder = self._folder(entry)
        rel = f"{folder}/{page}.md" if not entry_id.startswith("source:") else str(entry.get("path"))
        with search_db(self.paths) as conn:
            row = conn.execute(
                "SELECT title FROM docs WHERE entry = ? AND path = ?", (entry_id, rel)
            ).fetchone()
        if row is None:
            raise UsageError(f"{entry_id} has no page {page!r}", hint="read_entry lists its pages")
        text = self._read(rel)
        offset = max(0, offset)
        return {
            "id": entry_id,
            "page": page,
            "title": unsegment(row[0]),
            "text": text[offset : offset + MAX_TEXT],
            "offset": offset,
            "total_chars": len(text),
            "next_offset": offset + MAX_TEXT if offset + MAX_TEXT < len(text) else None,
        }

    def record(self, entry_id: str, name: str = "") -> RecordPayload:
        """One of the entry's JSON records (the first when `name` is empty)."""
        entry_id = check_entry_id(entry_id)
        entry = self._lookup(entry_id)
        records = self._records(entry_id, entry)
        if not records:
            raise UsageError(f"{entry_id} keeps no record", hint="read_page reads its pages")
        chosen = name or next(iter(records))
        if chosen not in records:
            raise UsageError(f"{entry_id} has no record {name!r}", hint=f"its records: {', '.join(records)}")
        data = json.loads(self._read(records[chosen]))
        text = json.dumps(data, ensure_ascii=False)
        if len(text) > MAX_RECORD:
            return {"id": entry_id, "record": chosen, "truncated": True, "json": text[:MAX_RECORD]}
        return {"id": entry_id, "record": chosen, "truncated": False, "data": data}

    # ----------------------------------------------------------------- internals

    def _lookup(self, entry_id: str) -> IndexEntry:
        index = load_index(self.paths)
        entry = index["topics"].get(entry_id) or index["sources"].get(entry_id)
        if not isinstance(entry, dict):
            raise UsageError(f"no entry {entry_id!r}", hint="list_entries gives the ids")
        return entry

    def _folder(self, entry: IndexEntry) -> str:
        """The entry's folder below site_src/, from the index's own path (sources: their topic's)."""
        path = str(entry.get("path") or "")
        return path.rsplit("/", 1)[0] if "/" in path else ""

    def _records(self, entry_id: str, entry: IndexEntry) -> dict[str, str]:
        """Record name → its path below site_src/, for the records that exist."""
        folder = self._folder(entry)
        kind = entry_id.split(":", 1)[0]
        if kind == "source":  # topics/<slug>/raw/<name>.md → topics/<slug>/processed/sources/<name>.json
            name = Path(str(entry.get("path"))).stem
            candidates = {"source": f"{folder.rsplit('/', 1)[0]}/processed/sources/{name}.json"}
        else:
            candidates = {
                name.strip("_").removesuffix(".json"): f"{folder}/{name}" for name in _RECORDS[kind]
            }
        return {name: rel for name, rel in candidates.items() if self._is_file(rel)}

    def _is_file(self, rel: str) -> bool:
        try:
            return self._checked(rel) is not None
        except UsageError:
            return False

    def _checked(self, rel: str) -> Path:
        """site_src/`rel`, when it is a regular file reached through real folders only (the store's gate)."""
        page = site_file(self.paths.site_src, rel) if rel != INDEX_FILE else None
        if page is None:
            raise UsageError(f"{rel!r} is not a page of the knowledge base (missing, outside it or a link)")
        return page

    def _read(self, rel: str) -> str:
        with open(self._checked(rel), encoding="utf-8", errors="replace") as handle:
            return handle.read(MAX_RECORD * 40)  # a page or record is never more than 2 MB


def _page_name(folder: str, rel: str) -> str:
    return rel.removeprefix(f"{folder}/").removesuffix(".md") if folder else rel.removesuffix(".md")


# --------------------------------------------------------------------------- symbols


class SymbolSite(TypedDict):
    """Where a symbol is defined, and the subsystem and page that describe it."""

    name: str
    kind: str
    entry: str
    subsystem: str
    page: str
    path: str
    line: int
    permalink: str
    summary: str


class Caller(TypedDict):
    caller: str
    path: str
    line: int
    permalink: str
    entry: str


class SymbolLookup(TypedDict):
    """lookup_symbol: a symbol's definitions and who calls or uses it."""

    name: str
    found: bool
    definitions: list[SymbolSite]
    callers: list[Caller]


def lookup_symbol(paths: KBPaths, name: str, entry_id: str = "", limit: int = 10) -> SymbolLookup:
    """Where `name` is defined (`Class.method` or a bare name, any case), its subsystem, and who calls it."""
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*", name) or len(name) > 200:
        raise UsageError(f"{name[:80]!r} is not a symbol name", hint="e.g. Flask, Flask.url_for or url_for")
    owner, _, short = name.rpartition(".")
    if entry_id:
        check_entry_id(entry_id)
    with search_db(paths) as conn:
        rows = conn.execute(
            "SELECT s.name, s.owner, s.kind, s.path, s.line, s.url, s.summary, d.entry, d.title, d.path"
            " FROM symbols s JOIN docs d ON d.rowid = s.doc WHERE s.lname = ?"
            " AND (? = '' OR lower(s.owner) = ?) AND (? = '' OR d.entry = ?) ORDER BY d.path, s.line LIMIT ?",
            (short.lower(), owner, owner.lower(), entry_id, entry_id, limit),
        ).fetchall()
        callers = conn.execute(
            "SELECT DISTINCT c.caller, c.path, c.line, c.url, d.entry FROM calls c JOIN docs d ON d.rowid = c.doc"
            " WHERE c.lcallee = ? AND (? = '' OR d.entry = ?) ORDER BY c.path, c.line LIMIT ?",
            (short.lower(), entry_id, entry_id, limit),
        ).fetchall()
    sites: list[SymbolSite] = [
        {
            "name": f"{r[1]}.{r[0]}" if r[1] else r[0],
            "kind": r[2],
            "entry": r[7],
            "subsystem": _subsystem(unsegment(r[8])),
            "page": r[9],
            "path": r[3],
            "line": r[4],
            "permalink": r[5],
            "summary": r[6],
        }
        for r in rows
    ]
    return {
        "name": name,
        "found": bool(sites),
        "definitions": sites,
        "callers": [
            {"caller": c[0], "path": c[1], "line": c[2], "permalink": c[3], "entry": c[4]} for c in callers
        ],
    }


def _subsystem(page_title: str) -> str:
    """`sample · Calculator and parser` → `Calculator and parser` (a shard page's title names its subsystem)."""
    return page_title.split(" · ", 1)[1] if " · " in page_title else page_title
