"""Cross-topic retrieval: query → synonyms → `tag_index` hits, plus SQLite FTS5 full text, merged and ranked.

The full-text database (kb/fulltext.py, in the cache dir) changes only between runs: a run, a build, a merge or
`deepkb knowledge rebuild` brings it in line with the pages (`sync_search_db`: only folders whose mtime changed
are listed again, only changed pages re-read); a query only reads it, so research that queries it while a run
writes pages reads the knowledge base as it stood before. A database never synced (a fresh clone, a deleted
cache) is built by the first query that opens it.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from .. import cjk
from ..documents.markdown import drop_admonitions
from ..errors import StoreError
from ..store import KBPaths, read_page, site_files, site_folder, site_workspaces, workspace_lock
from ..text.words import stem
from .fulltext import TOKENIZE, SyncCounts, compare, open_index, quoted, segment, stamp, words
from .lookup import TABLES, Lookup, sync_lookup
from .passages import TABLES as PASSAGE_TABLES
from .passages import forget_passages, page_passages, store_passages
from .synonyms import Synonyms, canonical_tag, load_synonyms

SCHEMA_VERSION = "8"  # bump when what is indexed changes: the database rebuilds itself
TAG_BOOST = 10.0  # a tag hit outranks a passing mention in the text
# a raw source's tags are its topic's: on equal evidence the topic (or repository) ranks first
KIND_WEIGHT = {"repo": 1.0, "topic": 1.0, "source": 0.6}
TITLE_WEIGHT = 4.0
SNIPPET_CHARS = 180
MAX_TERMS = 40
_SCHEMA = [
    "CREATE TABLE files(path TEXT PRIMARY KEY, folder TEXT, mtime_ns INTEGER, size INTEGER, doc INTEGER)",
    "CREATE INDEX files_by_folder ON files(folder)",
    "CREATE TABLE folders(path TEXT PRIMARY KEY, mtime_ns INTEGER)",
    *TABLES,
    "CREATE VIRTUAL TABLE docs USING fts5(title, body, raw UNINDEXED, path UNINDEXED, entry UNINDEXED,"
    f" kind UNINDEXED, tokenize = '{TOKENIZE}')",
    *PASSAGE_TABLES,  # what `deepkb ask` retrieves: each page's passages, symbols and calls
]
# the folders below an entry's workspace that hold indexed pages: (subfolder, file pattern, kind of document);
# ids are derived from the path
_REPO_FOLDERS = [("", "index.md", "repo"), ("shards", "*.md", "shard"), ("answers", "*.md", "answer")]
_TOPIC_FOLDERS = [
    ("", "index.md", "topic"),
    ("output", "report.md", "report"),
    ("processed", "analysis.md", "analysis"),
    ("raw", "*.md", "source"),
]


@dataclass(frozen=True)
class SearchResult:
    id: str
    title: str
    path: str
    snippet: str
    score: float
    kind: str


def _fts_clause(term: str) -> str:
    """One term as an FTS5 expression: all its words, each quoted (so user text is never FTS syntax)."""
    found = words(term)
    return f"({quoted(found)})" if found else ""


# --------------------------------------------------------------------------- the database


def db_path(paths: KBPaths) -> Path:
    # keyed on the root: DEEPKB_CACHE_DIR may be shared by several knowledge bases
    digest = hashlib.sha1(str(paths.root.resolve()).encode()).hexdigest()[:12]
    return paths.cache_dir / "search" / f"fts-{digest}.sqlite3"


def _connect(paths: KBPaths) -> AbstractContextManager[sqlite3.Connection]:
    return open_index(db_path(paths), SCHEMA_VERSION, _SCHEMA, hint="run `deepkb knowledge rebuild`")


@dataclass(frozen=True)
class _Folder:
    """A folder of indexed pages: its path below site_src, its mtime, and which of its files are what kind."""

    rel: str
    mtime_ns: int
    pattern: str
    kind: str


def _folders(site_src: Path) -> Iterator[_Folder]:
    """Every folder that can hold indexed pages, listed through the store's gate (no link at any depth)."""
    for workspace in site_workspaces(site_src, "repos"):
        yield from _entry_folders(site_src, workspace, _REPO_FOLDERS)
    for workspace in site_workspaces(site_src, "topics"):
        yield from _entry_folders(site_src, workspace, _TOPIC_FOLDERS)


def _entry_folders(site_src: Path, entry: str, layout: list[tuple[str, str, str]]) -> Iterator[_Folder]:
    for sub, pattern, kind in layout:
        rel = f"{entry}/{sub}" if sub else entry
        folder = site_folder(site_src, rel)
        if folder is not None:
            yield _Folder(rel, os.stat(folder, follow_symlinks=False).st_mtime_ns, pattern, kind)


def entry_id_for(rel: str, kind: str) -> str:
    """The index id a document belongs to: `repo:o/r`, `topic:slug` or `source:slug/name`."""
    parts = rel.split("/")
    if parts[0] == "repos":
        return f"repo:{parts[1]}/{parts[2]}"
    if kind == "source":
        return f"source:{parts[1]}/{Path(parts[-1]).stem}"
    return f"topic:{parts[1]}"


def sync_search_db(paths: KBPaths, *, rebuild: bool = False) -> SyncCounts:
    """Bring the FTS database in line with the pages on disk; returns counts of added/updated/removed."""
    with _connect(paths) as conn:
        return _sync(conn, paths, rebuild=rebuild)


def refresh_search_db(paths: KBPaths) -> None:
    """Bring the database in line with the pages at the end of a run; a damaged one is left for each query to
    report (with its hint), not made the run's failure."""
    try:
        sync_search_db(paths)
    except StoreError:
        pass


@contextmanager
def kb_writes(paths: KBPaths) -> Iterator[None]:
    """Hold the knowledge base's write lock while a command writes pages; the search database follows them
    once, when the command is done."""
    with workspace_lock(paths):
        try:
            yield
        finally:
            refresh_search_db(paths)


def _sync(conn: sqlite3.Connection, paths: KBPaths, *, rebuild: bool = False) -> SyncCounts:
    counts = {"added": 0, "updated": 0, "removed": 0}
    with conn:  # one transaction, taken before the pages are compared: a second sync waits, then finds none
        conn.execute("BEGIN IMMEDIATE")
        if rebuild:
            for table in ("files", "docs", "folders", "passages", "symbols", "calls"):
                conn.execute(f"DELETE FROM {table}")
        sync_lookup(conn, paths, rebuild=rebuild)
        known = dict(conn.execute("SELECT path, mtime_ns FROM folders").fetchall())
        for folder in _folders(paths.site_src):
            if known.pop(folder.rel, None) == folder.mtime_ns:
                continue  # nothing was added, replaced or removed in it since the last sync
            _sync_folder(conn, paths.site_src, folder, counts)
            conn.execute("INSERT OR REPLACE INTO folders VALUES (?, ?)", (folder.rel, folder.mtime_ns))
        for rel in known:  # folders that are gone, with every page they held
            _forget(
                conn, conn.execute("SELECT path, doc FROM files WHERE folder = ?", (rel,)).fetchall(), counts
            )
            conn.execute("DELETE FROM folders WHERE path = ?", (rel,))
        total = int(conn.execute("SELECT count(*) FROM files").fetchone()[0])
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('synced', '1')")
        # what `ask`'s IDF counts documents out of, read once here rather than scanned on every question
        passages = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('passages', ?)", (str(passages),))
        # whether any passage is Chinese: an English question's glossary twins are segmented (jieba, seconds
        # to load) only for a knowledge base they could match in
        han = conn.execute("SELECT EXISTS(SELECT 1 FROM passages WHERE body GLOB ?)", (_ANY_HAN,)).fetchone()[
            0
        ]
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('han', ?)", (str(int(han)),))
    return SyncCounts(**counts, unchanged=total - counts["added"] - counts["updated"])


def _sync_folder(conn: sqlite3.Connection, site_src: Path, folder: _Folder, counts: dict[str, int]) -> None:
    rows = conn.execute("SELECT path, mtime_ns, size, doc FROM files WHERE folder = ?", (folder.rel,))
    known = {rel: (mtime_ns, size, doc) for rel, mtime_ns, size, doc in rows.fetchall()}
    pages = {f"{folder.rel}/{page.name}": page for page in site_files(site_src, folder.rel, folder.pattern)}
    found = {rel: stamp(page.stat()) for rel, page in pages.items()}
    changes = compare({rel: (row[0], row[1]) for rel, row in known.items()}, found)
    for rel in changes.changed:
        if rel in known:
            conn.execute("DELETE FROM docs WHERE rowid = ?", (known[rel][2],))
            forget_passages(conn, known[rel][2])
        doc = _insert(conn, rel, folder.kind, pages[rel])
        conn.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)", (rel, folder.rel, *found[rel], doc)
        )
    counts["added"] += changes.added
    counts["updated"] += changes.updated
    _forget(conn, [(rel, known[rel][2]) for rel in changes.removed], counts)


def _forget(conn: sqlite3.Connection, rows: Iterable[tuple[str, int]], counts: dict[str, int]) -> None:
    for rel, doc in rows:
        conn.execute("DELETE FROM docs WHERE rowid = ?", (doc,))
        forget_passages(conn, doc)
        conn.execute("DELETE FROM files WHERE path = ?", (rel,))
        counts["removed"] += 1


def _insert(conn: sqlite3.Connection, rel: str, kind: str, page: Path) -> int:
    try:
        meta, body = read_page(page)
    except StoreError:
        meta, body = {}, page.read_text(encoding="utf-8", errors="replace")
    title = str(meta.get("title") or Path(rel).stem)
    passages = page_passages(rel, kind, meta, body)  # read before plain_text drops the link targets they cite
    body = plain_text(f"{meta.get('description') or ''}\n\n{body}")
    cursor = conn.execute(
        "INSERT INTO docs(title, body, raw, path, entry, kind) VALUES (?, ?, ?, ?, ?, ?)",
        (
            segment(title, for_index=True),
            segment(body, for_index=True),
            body,
            rel,
            entry_id_for(rel, kind),
            kind,
        ),
    )
    doc = int(cursor.lastrowid or 0)
    store_passages(conn, doc, passages)
    return doc


# --------------------------------------------------------------------------- search


@contextmanager
def search_db(paths: KBPaths) -> Iterator[sqlite3.Connection]:
    """A connection to the full-text database for queries: read as it is (built first if it never was)."""
    with _connect(paths) as conn:
        if conn.execute("SELECT value FROM meta WHERE key = 'synced'").fetchone() is None:
            _sync(conn, paths)
        yield conn


def search(paths: KBPaths, query: str, limit: int = 10, *, per_entry: int = 1) -> list[SearchResult]:
    """Entries matching `query` through tags (boosted) and full text, best first; with `per_entry` above 1,
    pages: up to that many of one entry (each titled as the page is)."""
    query = " ".join(query.split())
    if not query or limit <= 0:
        return []
    synonyms = load_synonyms(paths)
    query_words = [w for w in words(query) if w.strip()]
    canonicals = _canonicals(query, query_words, synonyms)
    with search_db(paths) as conn:
        lookup = Lookup(conn)
        terms = expand_query(query, query_words, canonicals, synonyms, lookup)
        hits = _fts_hits(conn, terms)
        ranked = _merge(lookup, hits, _tag_hits(canonicals, lookup), limit, per_entry)
        texts = _raw_texts(conn, [r.doc for r in ranked if r.doc is not None])
    return [_result(r, texts, terms) for r in ranked]


def expand_query(
    query: str, words: list[str], canonicals: list[str], synonyms: Synonyms, lookup: Lookup
) -> list[str]:
    """The query, its words, and every synonym and seen variant of the canonical tags they map to."""
    terms: dict[str, None] = dict.fromkeys([query, *words])
    for canonical in canonicals:
        group = synonyms.group(canonical) or [canonical]
        terms.update(dict.fromkeys(t.replace("-", " ") for t in [*group, *lookup.variants(canonical)]))
    return [t for t in terms if t.strip()][:MAX_TERMS]


def _canonicals(query: str, words: Iterable[str], synonyms: Synonyms) -> list[str]:
    found: dict[str, None] = {}
    for term in [query, *words]:
        canonical = synonyms.lookup(term)
        found.setdefault(canonical or canonical_tag(term, synonyms), None)
    return [c for c in found if c]


def _tag_hits(canonicals: list[str], lookup: Lookup) -> dict[str, int]:
    """id → how many of the query's canonical tags it carries."""
    return Counter(entry_id for tag in canonicals for entry_id in lookup.ids(tag))


@dataclass(frozen=True)
class _Hit:
    """A ranked entry before its snippet is cut: the best document's rowid (None for a tag-only hit)."""

    id: str
    title: str
    path: str
    score: float
    doc: int | None
    fallback: str = ""


def _fts_hits(conn: sqlite3.Connection, terms: list[str]) -> list[tuple[int, str, str, str, float]]:
    """(rowid, entry, path, title, score), best first. Ranked on rowids alone, so the sort never carries the
    stored page texts of every match; only the winners' rows are read."""
    clauses = [c for c in (_fts_clause(t) for t in terms) if c]
    if not clauses:
        return []
    ranked = conn.execute(
        "SELECT rowid, -bm25(docs, ?, 1.0, 0, 0, 0, 0) AS score FROM docs WHERE docs MATCH ?"
        " ORDER BY score DESC LIMIT 200",
        (TITLE_WEIGHT, " OR ".join(dict.fromkeys(clauses))),
    ).fetchall()
    if not ranked:
        return []
    marks = ",".join("?" * len(ranked))
    rows = {
        r[0]: r[1:]
        for r in conn.execute(
            f"SELECT rowid, entry, path, title FROM docs WHERE rowid IN ({marks})", [r[0] for r in ranked]
        )
    }
    return [(rowid, *rows[rowid], float(score)) for rowid, score in ranked if rowid in rows]


def _merge(
    lookup: Lookup,
    hits: list[tuple[int, str, str, str, float]],
    tag_ids: dict[str, int],
    limit: int,
    per_entry: int = 1,
) -> list[_Hit]:
    """The `limit` best results: up to `per_entry` documents of each entry (its best first), each with the
    boost of the query tags its entry carries, and an entry only its tags match. Titles are read only for the
    entries shown."""
    boost = {
        entry_id: TAG_BOOST * count * KIND_WEIGHT.get(_kind_of(entry_id), 1.0)
        for entry_id, count in tag_ids.items()
    }
    taken: Counter[str] = Counter()
    ranked: list[tuple[float, str, str, int | None, str]] = []  # (score, id, path, rowid, stored title)
    for doc, entry_id, rel, title, score in hits:  # rows come best first
        if taken[entry_id] < per_entry:
            taken[entry_id] += 1
            ranked.append((score + boost.get(entry_id, 0.0), entry_id, rel, doc, title))
    ranked += [(value, entry_id, "", None, "") for entry_id, value in boost.items() if entry_id not in taken]
    ranked.sort(key=lambda r: (-r[0], r[1], r[2]))
    # titles are read a page of results at a time (a tag-only id without one is dropped)
    page = max(limit * 2, 20)
    entries: dict[str, dict[str, str]] = {}
    chosen: list[_Hit] = []
    for position, (score, entry_id, rel, rowid, title) in enumerate(ranked):
        if position % page == 0:
            entries.update(lookup.entries(r[1] for r in ranked[position : position + page]))
        entry = entries.get(entry_id)
        if rowid is not None:
            known = entry["title"] if entry and per_entry == 1 else ""
            chosen.append(_Hit(entry_id, known or unsegment(title), rel, score, rowid))
        elif entry:
            fallback = (entry["description"] or entry["url"])[:SNIPPET_CHARS]
            chosen.append(_Hit(entry_id, entry["title"] or entry_id, entry["path"], score, None, fallback))
        if len(chosen) == limit:
            break
    return chosen


def _raw_texts(conn: sqlite3.Connection, docs: list[int]) -> dict[int, str]:
    if not docs:
        return {}
    marks = ",".join("?" * len(docs))
    return dict(conn.execute(f"SELECT rowid, raw FROM docs WHERE rowid IN ({marks})", docs).fetchall())


def _result(hit: _Hit, texts: dict[int, str], terms: list[str]) -> SearchResult:
    snippet = make_snippet(texts.get(hit.doc, ""), terms) if hit.doc is not None else hit.fallback
    return SearchResult(hit.id, hit.title, hit.path, snippet, hit.score, _kind_of(hit.id))


_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")


def plain_text(markdown: str) -> str:
    """Page text without boilerplate admonitions, link targets and markdown escapes (what is indexed)."""
    text = drop_admonitions(markdown)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.DOTALL)
    text = _LINK.sub(r"\1", text)
    return _ESCAPE.sub(r"\1", text).strip()


def _kind_of(entry_id: str) -> str:
    return entry_id.split(":", 1)[0]


def unsegment(text: str) -> str:
    """Indexed text as its author wrote it. jieba's search mode (`segment(..., for_index=True)`) emits the
    parts of a long word before the word ("服务 服务端 渲染" for 服务端渲染): a part is dropped where it and
    the parts after it stand inside a later word, then the Han words are joined again."""
    tokens = text.split()
    kept = [t for i, t in enumerate(tokens) if not _part_of_later_word(tokens, i)]
    return re.sub(r"(?<=[\u3400-\u9fff]) +(?=[\u3400-\u9fff])", "", " ".join(kept)).strip()


def _part_of_later_word(tokens: list[str], i: int) -> bool:
    if not _HAN_WORD.fullmatch(tokens[i]):
        return False
    for j in range(i + 1, min(len(tokens), i + _SEARCH_PARTS + 1)):
        if not _HAN_WORD.fullmatch(tokens[j]):
            return False
        if len(tokens[j]) > len(tokens[i]) and all(tokens[k] in tokens[j] for k in range(i, j)):
            return True
    return False


_ANY_HAN = "*[\u3400-\u9fff]*"
_HAN_WORD = re.compile(r"[\u3400-\u9fff]+")
_SEARCH_PARTS = 8  # how far ahead the word is looked for: its parts stand right before it


def make_snippet(text: str, terms: Iterable[str]) -> str:
    """About SNIPPET_CHARS of `text` around the first mention of any term (stems count), on one line."""
    flat = " ".join(re.sub(r"[#*`>|_\[\]]+", " ", text).split())
    lowered = flat.lower()
    positions = [lowered.find(probe) for probe in _probes(terms)]
    found = [p for p in positions if p >= 0]
    start = max(min(found) - SNIPPET_CHARS // 3, 0) if found else 0
    if start:  # begin at a word boundary when one is near
        space = flat.find(" ", start, start + 20)
        start = space + 1 if space >= 0 else start
    piece = flat[start : start + SNIPPET_CHARS]
    return ("…" if start else "") + piece + ("…" if start + SNIPPET_CHARS < len(flat) else "")


def _probes(terms: Iterable[str]) -> list[str]:
    """What to look for in the text: each term's stem (Snowball, as FTS5's porter stemmer matched the
    document, so `trading` finds `trade`); a Chinese term as it is."""
    lowered = (term.lower().strip() for term in terms)
    return [t if cjk.CJK_RUN.search(t) else stem(t) for t in lowered if t]
