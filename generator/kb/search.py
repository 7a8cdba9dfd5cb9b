"""Cross-topic retrieval: query → synonyms → `tag_index` hits, plus SQLite FTS5 full text, merged and ranked.

The full-text database lives in the cache dir (never published) and is brought up to date incrementally on
every search: only pages whose mtime or size changed are re-read. Chinese text is segmented with jieba
before it reaches FTS5 (whose unicode61 tokenizer would otherwise treat a run of Hanzi as one word);
English goes through FTS5's porter stemmer, so `trading` finds `trade`.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import cjk
from ..errors import StoreError
from ..store import KBPaths, read_page
from .index import load_index
from .synonyms import Synonyms, canonical_tag, load_synonyms

SCHEMA_VERSION = "2"  # bump when what is indexed changes: the database rebuilds itself
TAG_BOOST = 10.0  # a tag hit outranks a passing mention in the text
# a raw source's tags are its topic's: on equal evidence the topic (or repository) ranks first
KIND_WEIGHT = {"repo": 1.0, "topic": 1.0, "source": 0.6}
TITLE_WEIGHT = 4.0
SNIPPET_CHARS = 180
MAX_TERMS = 40
_CJK_RUN = cjk.CJK_RUN
_WORD = re.compile(r"\w+", re.UNICODE)
# (glob below site_src, kind of document); ids are derived from the path
_DOCUMENTS = [
    ("repos/*/*/index.md", "repo"),
    ("repos/*/*/shards/*.md", "shard"),
    ("topics/*/index.md", "topic"),
    ("topics/*/output/report.md", "report"),
    ("topics/*/processed/analysis.md", "analysis"),
    ("topics/*/raw/*.md", "source"),
]


# knowledge-base root → its index as it stood when a research run began (see `frozen_knowledge`)
_FROZEN: dict[Path, dict[str, Any]] = {}


@contextmanager
def frozen_knowledge(paths: KBPaths) -> Iterator[None]:
    """While a run researches several entries, every search reads the knowledge base as it stood before.

    So an entry's research never depends on which entries ran before it in the same run (or in another CI
    shard job): N shard runs plus a merge equal one build. The search database is brought up to date once,
    here, and not again until the run ends.
    """
    root = paths.root.resolve()
    try:
        sync_search_db(paths)
    except StoreError:
        pass  # a damaged database fails each search alone (topics warn and go on), not the whole run
    _FROZEN[root] = load_index(paths)
    try:
        yield
    finally:
        _FROZEN.pop(root, None)


@dataclass(frozen=True)
class SearchResult:
    id: str
    title: str
    path: str
    snippet: str
    score: float
    kind: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# --------------------------------------------------------------------------- tokenization


def segment(text: str, *, for_index: bool = False) -> str:
    """Text with every Hanzi run split into words by jieba (search mode when indexing, for recall)."""
    return cjk.segment(text, search_mode=for_index)


def _fts_clause(term: str) -> str:
    """One term as an FTS5 expression: all its words, each quoted (so user text is never FTS syntax)."""
    words = _WORD.findall(segment(term))
    return "(" + " ".join('"' + w.replace('"', '""') + '"' for w in words) + ")" if words else ""


# --------------------------------------------------------------------------- the database


def db_path(paths: KBPaths) -> Path:
    # keyed on the root: DEEPKB_CACHE_DIR may be shared by several knowledge bases
    digest = hashlib.sha1(str(paths.root.resolve()).encode()).hexdigest()[:12]
    return paths.cache_dir / "search" / f"fts-{digest}.sqlite3"


@contextmanager
def _connect(paths: KBPaths) -> Iterator[sqlite3.Connection]:
    path = db_path(paths)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with closing(sqlite3.connect(path, timeout=30)) as conn:
            _ensure_schema(conn)
            yield conn
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"search database {path}: {exc}", hint="run `deepkb knowledge rebuild`") from exc


def _ensure_schema(conn: sqlite3.Connection) -> None:
    if _schema_version(conn) == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")  # one process (re)creates the tables; the others wait, then see them
    try:
        if _schema_version(conn) != SCHEMA_VERSION:
            conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
            conn.execute("DROP TABLE IF EXISTS files")
            conn.execute("DROP TABLE IF EXISTS docs")
            conn.execute(
                "CREATE TABLE files(path TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER, doc INTEGER)"
            )
            conn.execute(
                "CREATE VIRTUAL TABLE docs USING fts5(title, body, raw UNINDEXED, path UNINDEXED, entry UNINDEXED,"
                " kind UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2')"
            )
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        conn.commit()
    except BaseException:
        conn.rollback()
        raise


def _schema_version(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.OperationalError:  # no meta table yet: a new database
        return None
    return str(row[0]) if row else None


def _documents(paths: KBPaths) -> Iterator[tuple[str, str, Path]]:
    for pattern, kind in _DOCUMENTS:
        for page in sorted(paths.site_src.glob(pattern)):
            if page.is_file() and not page.is_symlink():
                yield page.relative_to(paths.site_src).as_posix(), kind, page


def entry_id_for(rel: str, kind: str) -> str:
    """The index id a document belongs to: `repo:o/r`, `topic:slug` or `source:slug/name`."""
    parts = rel.split("/")
    if parts[0] == "repos":
        return f"repo:{parts[1]}/{parts[2]}"
    if kind == "source":
        return f"source:{parts[1]}/{Path(parts[-1]).stem}"
    return f"topic:{parts[1]}"


def sync_search_db(paths: KBPaths, *, rebuild: bool = False) -> dict[str, int]:
    """Bring the FTS database in line with the pages on disk; returns counts of added/updated/removed."""
    counts = {"added": 0, "updated": 0, "removed": 0, "unchanged": 0}
    with _connect(paths) as conn, conn:
        if rebuild:
            conn.execute("DELETE FROM files")
            conn.execute("DELETE FROM docs")
        known = {row[0]: row[1:] for row in conn.execute("SELECT path, mtime_ns, size, doc FROM files")}
        for rel, kind, page in _documents(paths):
            stat = page.stat()
            previous = known.pop(rel, None)
            if previous and (previous[0], previous[1]) == (stat.st_mtime_ns, stat.st_size):
                counts["unchanged"] += 1
                continue
            if previous:
                conn.execute("DELETE FROM docs WHERE rowid = ?", (previous[2],))
            doc = _insert(conn, rel, kind, page)
            conn.execute(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)", (rel, stat.st_mtime_ns, stat.st_size, doc)
            )
            counts["updated" if previous else "added"] += 1
        for rel, (_, _, doc) in known.items():
            conn.execute("DELETE FROM docs WHERE rowid = ?", (doc,))
            conn.execute("DELETE FROM files WHERE path = ?", (rel,))
            counts["removed"] += 1
    return counts


def _insert(conn: sqlite3.Connection, rel: str, kind: str, page: Path) -> int:
    try:
        meta, body = read_page(page)
    except StoreError:
        meta, body = {}, page.read_text(encoding="utf-8", errors="replace")
    title = str(meta.get("title") or Path(rel).stem)
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
    return int(cursor.lastrowid or 0)


# --------------------------------------------------------------------------- search


def search(paths: KBPaths, query: str, limit: int = 10) -> list[SearchResult]:
    """Entries matching `query` through tags (boosted) and full text, best first."""
    query = " ".join(query.split())
    if not query:
        return []
    synonyms = load_synonyms(paths)
    frozen = _FROZEN.get(paths.root.resolve())
    index = frozen if frozen is not None else load_index(paths)
    terms = expand_query(query, synonyms, index)
    tag_ids = _tag_hits(query, synonyms, index)
    if frozen is None:
        sync_search_db(paths)
    hits = _fts_hits(paths, terms)
    return _merge(index, hits, tag_ids, terms)[: max(limit, 0)]


def expand_query(query: str, synonyms: Synonyms, index: dict[str, Any]) -> list[str]:
    """The query, its words, and every synonym and seen variant of the canonical tags they map to."""
    words = _query_words(query)
    terms: dict[str, None] = dict.fromkeys([query, *words])
    for canonical in _canonicals(query, words, synonyms):
        group = synonyms.group(canonical) or [canonical]
        seen = index.get("tag_variants", {}).get(canonical, [])
        terms.update(dict.fromkeys(t.replace("-", " ") for t in [*group, *seen]))
    return [t for t in terms if t.strip()][:MAX_TERMS]


def _query_words(query: str) -> list[str]:
    return [w for w in _WORD.findall(segment(query)) if w.strip()]


def _canonicals(query: str, words: Iterable[str], synonyms: Synonyms) -> list[str]:
    found: dict[str, None] = {}
    for term in [query, *words]:
        canonical = synonyms.lookup(term)
        found.setdefault(canonical or canonical_tag(term, synonyms), None)
    return [c for c in found if c]


def _tag_hits(query: str, synonyms: Synonyms, index: dict[str, Any]) -> dict[str, int]:
    """id → how many of the query's canonical tags it carries."""
    tag_index = index.get("tag_index", {})
    hits: dict[str, int] = {}
    for tag in _canonicals(query, _query_words(query), synonyms):
        for entry_id in tag_index.get(tag, []):
            hits[entry_id] = hits.get(entry_id, 0) + 1
    return hits


def _fts_hits(paths: KBPaths, terms: list[str]) -> list[tuple[str, str, str, str, str, float]]:
    clauses = [c for c in (_fts_clause(t) for t in terms) if c]
    if not clauses:
        return []
    sql = (
        "SELECT entry, path, kind, title, raw, -bm25(docs, ?, 1.0, 0, 0, 0, 0) AS score"
        " FROM docs WHERE docs MATCH ? ORDER BY score DESC LIMIT 200"
    )
    with _connect(paths) as conn:
        rows = conn.execute(sql, (TITLE_WEIGHT, " OR ".join(dict.fromkeys(clauses)))).fetchall()
    return [(r[0], r[1], r[2], r[3], r[4], float(r[5])) for r in rows]


def _merge(
    index: dict[str, Any],
    hits: list[tuple[str, str, str, str, str, float]],
    tag_ids: dict[str, int],
    terms: list[str],
) -> list[SearchResult]:
    entries = {**index.get("sources", {}), **index.get("topics", {})}
    best: dict[str, SearchResult] = {}
    for entry_id, rel, _kind, title, raw, score in hits:  # rows come best first: keep each entry's best doc
        if entry_id not in best:
            entry = entries.get(entry_id, {})
            best[entry_id] = SearchResult(
                entry_id,
                str(entry.get("title") or _unsegment(title)),
                rel,
                make_snippet(raw, terms),
                score,
                _kind_of(entry_id),
            )
    for entry_id, count in tag_ids.items():
        entry = entries.get(entry_id, {})
        found = best.get(entry_id)
        boost = TAG_BOOST * count * KIND_WEIGHT.get(_kind_of(entry_id), 1.0)
        if found:
            best[entry_id] = SearchResult(
                found.id, found.title, found.path, found.snippet, found.score + boost, found.kind
            )
        elif entry:
            snippet = str(entry.get("description") or entry.get("url") or "")[:SNIPPET_CHARS]
            best[entry_id] = SearchResult(
                entry_id,
                str(entry.get("title") or entry_id),
                str(entry.get("path", "")),
                snippet,
                boost,
                _kind_of(entry_id),
            )
    return sorted(best.values(), key=lambda r: (-r.score, r.id))


_ADMONITION = re.compile(r"^(?:!!!|\?\?\?\+?)[^\n]*\n(?:(?: {4}|\t)[^\n]*\n|[ \t]*\n)*", re.MULTILINE)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")


def plain_text(markdown: str) -> str:
    """Page text without boilerplate admonitions, link targets and markdown escapes (what is indexed)."""
    text = _ADMONITION.sub("\n", markdown + "\n")
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.DOTALL)
    text = _LINK.sub(r"\1", text)
    return _ESCAPE.sub(r"\1", text).strip()


def _kind_of(entry_id: str) -> str:
    return entry_id.split(":", 1)[0]


def _unsegment(text: str) -> str:
    return re.sub(r"(?<=[\u3400-\u9fff]) +(?=[\u3400-\u9fff])", "", text).strip()


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
    probes: list[str] = []
    for term in terms:
        lowered = term.lower().strip()
        if lowered:
            # a crude stem so `trading` finds `trade`; the porter stemmer already matched the document
            probes.append(
                lowered if _CJK_RUN.search(lowered) or len(lowered) < 5 else lowered[: len(lowered) - 2]
            )
    return probes
