"""`local:PATH` — BM25 search over a folder of md, rst, txt, html and pdf files (SQLite FTS5, kb/fulltext.py).

Each file is split into passages indexed with the document's title and heading, so a document about the
query outranks a passing mention, and with what the folder's other files say of it (documents/references.py):
a title-less fragment is titled by the heading its includers put it under, and the words of the links to a
file (their text and sentence, as anchor text) are searched as its own. Files never escape the folder (no
symlinks, every path checked); a bare `local` searches the knowledge base's own `site_src/`.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from stat import S_ISREG

import filelock

from ..config import local_folder
from ..documents import Budget, Section, read_file, stated_title
from ..documents.plain import section_prose
from ..documents.references import INCLUDE, Reference, references, unique_stems
from ..documents.template import is_template_name
from ..errors import ConfigError
from ..kb.fulltext import TOKENIZE, Stamp, SyncCounts, compare, open_index, quoted, segment, stamp, words
from ..store import KBPaths
from ..text.paragraphs import paragraphs
from ..text.words import ZH_STOPWORDS, numbered_names
from .base import SearchHit, SearchProvider, register

SUFFIXES = {".md", ".markdown", ".mdx", ".rst", ".txt", ".html", ".htm", ".pdf"}
MAX_FILE_BYTES = 20_000_000
PASSAGE_CHARS = 900
SCHEMA_VERSION = "8"  # bump when what is indexed changes: the database rebuilds itself
REFRESH_SECONDS = 5.0
log = logging.getLogger(__name__)
_STOPWORDS = frozenset(
    "a an and are as at be by for from how in is it of on or that the this to was what when where which who why with".split()
)


_SCHEMA = [
    "CREATE TABLE files (path TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER, headings TEXT DEFAULT '')",
    "CREATE TABLE passages (id INTEGER PRIMARY KEY, path TEXT, title TEXT, text TEXT)",
    "CREATE INDEX passages_path ON passages(path)",
    "CREATE TABLE refs (source TEXT, target TEXT, kind TEXT, text TEXT, context TEXT)",
    "CREATE INDEX refs_source ON refs(source)",
    "CREATE INDEX refs_target ON refs(target)",
    f"CREATE VIRTUAL TABLE fts USING fts5(title, heading, body, anchor, tokenize='{TOKENIZE}')",
]
# what the folder's other files reference a file by is read from these (a PDF or HTML page links nothing here)
REFERRING = {".md", ".markdown", ".mdx", ".rst", ".txt"}
# a word this share of the folder's files hold names the collection ("Arthas", "Aptos"): its pages leave it
# unsaid as often as not, and it tells no document from another
COLLECTION_SHARE = 2 / 3
COLLECTION_FILES = 20  # …of a folder this large: in a handful of files, the subject they share is no name
HOME_PAGES = ("index.md", "_index.md", "README.md", "readme.md", "index.rst", "README.rst", "index.html")


def fts_query(query: str, max_terms: int = 32) -> str:
    """A safe FTS5 MATCH expression: each word quoted (no operators, columns or syntax), OR-ed for BM25. A
    name with its number is also asked for as the one word a document may write it as ("GHC 2024": GHC2024);
    the index splits "3.12" at its dot, so only a whole number joins."""
    joined = [name for name in numbered_names(query) if "." not in name]
    found = [w.lower() for w in words(query, for_index=True)] + joined
    terms = list(dict.fromkeys(w for w in found if w not in _STOPWORDS and w not in ZH_STOPWORDS))
    return " OR ".join(quoted([term]) for term in terms[:max_terms])


def without_names(match: str, named: list[str]) -> str:
    """The MATCH expression without the words that name the collection, when any other word is left: a page
    of the collection leaves its product's name unsaid as often as not, so the name ranks pages by how often
    they repeat it. "tmagic-editor 的数据源怎么添加" ranked the page titled 数据源, which never writes
    "tmagic-editor", eleventh behind pages that name the editor throughout."""
    rest = [term for term in match.split(" OR ") if term.strip('"').replace('""', '"') not in named]
    return " OR ".join(rest) if rest else match


@register
class LocalProvider(SearchProvider):
    name = "local"
    _fresh_until = 0.0

    @property
    def folder(self) -> Path:
        root = self.root or Path(os.environ.get("DEEPKB_ROOT", "."))
        folder = local_folder(self.option, root) if self.option else root / "site_src"
        if not folder.is_dir():
            raise ConfigError(f"local search folder not found: {folder}", hint="use local:PATH with a folder")
        return folder.resolve()

    @property
    def db_path(self) -> Path:
        base = self.cache_dir or KBPaths(Path(os.environ.get("DEEPKB_ROOT", "."))).cache_dir
        key = hashlib.sha256(str(self.folder).encode()).hexdigest()[:16]
        return base / "search" / f"local-{key}.sqlite"

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        if time.monotonic() >= self._fresh_until:
            self.refresh_index()
        match = fts_query(query)
        if not match or limit <= 0:
            return []
        with self._connect() as db:
            named = collection_words(db, match)
            rows = db.execute(
                "SELECT p.path, p.title, p.text, bm25(fts, 4.0, 2.0, 1.0, 2.0) AS rank FROM fts JOIN passages p"
                " ON p.id = fts.rowid WHERE fts MATCH ? ORDER BY rank LIMIT ?",
                (without_names(match, named), limit * 8),
            ).fetchall()
            by_file = _group(rows)
            paths = list(by_file)[:limit]
            marks = ",".join("?" * len(paths))
            headings = dict(db.execute(f"SELECT path, headings FROM files WHERE path IN ({marks})", paths))
            said = {path: _said_of(db, path) for path in paths}
        return self._hits(by_file, headings, said, named, limit)

    def titles(self) -> list[str]:
        """Every indexed document's title, one each."""
        if time.monotonic() >= self._fresh_until:
            self.refresh_index()
        with self._connect() as db:
            return [row[1] for row in db.execute("SELECT DISTINCT path, title FROM passages ORDER BY path")]

    def shared_words(self, text: str) -> list[str]:
        """The words of `text` that name the collection (`collection_words`)."""
        match = fts_query(text)
        if not match:
            return []
        with self._connect() as db:
            return collection_words(db, match)

    def _hits(
        self,
        by_file: dict[str, list[tuple[str, str, float]]],
        headings: dict[str, str],
        said: dict[str, tuple[str, str]],
        named: list[str],
        limit: int,
    ) -> list[SearchHit]:
        """Per file its best passage, plus the runner-up when it scores at least half as well (titles match
        every passage), files ordered by their best passage (BM25: lower is better); each hit carries its
        document's headings, which relevance judging weighs above the body, the title its includers give a
        title-less document, what the links to it say, and the query's words that name the collection."""
        hits = []
        for path, passages in list(by_file.items())[:limit]:
            title, _, best = passages[0]
            hits.append(
                SearchHit(
                    url=(self.folder / path).as_uri(),
                    title=title,
                    content="\n\n…\n\n".join(text for _, text, rank in passages[:2] if rank <= best / 2),
                    source=self.name,
                    score=round(-best, 4),
                    kind="local",
                    extra={
                        "path": path,
                        "folder": str(self.folder),
                        "headings": [h for h in (headings.get(path) or "").split("\n") if h],
                        "titled_by": said[path][0],
                        "anchors": said[path][1],
                        "collection_words": named,
                    },
                )
            )
        return hits

    # --- the index -------------------------------------------------------------------------------

    def _connect(self) -> AbstractContextManager[sqlite3.Connection]:
        return open_index(self.db_path, SCHEMA_VERSION, _SCHEMA)

    def refresh_index(self) -> SyncCounts:
        """Bring the index in line with the folder, reading only new and changed files."""
        with filelock.FileLock(str(self.db_path) + ".lock", timeout=120), self._connect() as db:
            with db:
                stats = self._refresh(db)
        # A research run sends many queries in a burst: walk the folder at most once per few seconds.
        self._fresh_until = time.monotonic() + REFRESH_SECONDS
        return stats

    def _refresh(self, db: sqlite3.Connection) -> SyncCounts:
        rows = db.execute("SELECT path, mtime_ns, size FROM files")
        found = dict(_walk(self.folder))
        changes = compare({path: (mtime, size) for path, mtime, size in rows}, found)
        # a file whose referrers changed is indexed again: its title and anchor text come from them
        touched = _record_references(db, self.folder, [*changes.changed, *changes.removed], found)
        for rel in changes.removed:
            _drop(db, rel)
            db.execute("DELETE FROM files WHERE path = ?", (rel,))
        for rel in dict.fromkeys([*changes.changed, *sorted(touched - set(changes.changed))]):
            if rel not in found:
                continue
            _drop(db, rel)
            headings = _index_file(db, self.folder, rel)
            db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)", (rel, *found[rel], headings))
        return SyncCounts(changes.added, changes.updated, len(changes.removed), changes.unchanged)


def _walk(folder: Path) -> Iterator[tuple[str, Stamp]]:
    """(relative path, (mtime_ns, size)) of every indexable file inside `folder`; symlinks and hidden entries skipped."""
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and not (here / d).is_symlink())
        for name in sorted(filenames):
            path = here / name
            if name.startswith(".") or path.suffix.lower() not in SUFFIXES or path.is_symlink():
                continue
            stat = path.stat()
            if not S_ISREG(stat.st_mode):  # a FIFO or device would block the reader forever, or never end
                continue
            if stat.st_size > MAX_FILE_BYTES or not path.resolve().is_relative_to(folder):
                continue
            yield path.relative_to(folder).as_posix(), stamp(stat)


def template_files(folder: Path) -> list[str]:
    """The proposal templates a folder holds ("0000-template.md", "NNNN-template/README.md"), by relative path:
    a collection written from a template, whose documents may leave its instructions in."""
    return [rel for rel, _ in _walk(folder.resolve()) if is_template_name(rel)]


def _drop(db: sqlite3.Connection, rel: str) -> None:  # its passages; what it references stays recorded
    ids = [row[0] for row in db.execute("SELECT id FROM passages WHERE path = ?", (rel,))]
    db.executemany("DELETE FROM fts WHERE rowid = ?", [(i,) for i in ids])
    db.execute("DELETE FROM passages WHERE path = ?", (rel,))


def _index_file(db: sqlite3.Connection, folder: Path, rel: str) -> str:
    """Index one file's passages; returns its headings (newline-joined) for the files table."""
    try:
        doc = read_file(folder / rel, origin=rel, budget=Budget())
    except OSError as exc:  # unreadable now; its mtime is recorded, so it is retried once it changes
        log.warning("local search: cannot read %s: %s", rel, exc)
        return ""
    titled_by, anchors = _said_of(db, rel)
    title = stated_title(doc) or titled_by or doc.title
    for heading, passage in section_passages(doc.sections):
        cursor = db.execute(
            "INSERT INTO passages (path, title, text) VALUES (?, ?, ?)", (rel, title, passage)
        )
        db.execute(
            "INSERT INTO fts (rowid, title, heading, body, anchor) VALUES (?, ?, ?, ?, ?)",
            (
                cursor.lastrowid,
                *(segment(text, for_index=True) for text in (title, heading, passage, anchors)),
            ),
        )
    return "\n".join(dict.fromkeys(_own_headings(db, rel, doc.sections)))[:4000]


def _own_headings(db: sqlite3.Connection, rel: str, sections: tuple[Section, ...]) -> list[str]:
    """The headings of a file's sections but those holding only what it includes from another file: the room
    version pages' "### State resolution" over the shared fragment names that fragment, not their text."""
    including = {
        row[0] for row in db.execute("SELECT text FROM refs WHERE source = ? AND kind = ?", (rel, INCLUDE))
    }
    return [
        s.heading
        for n, s in enumerate(sections)
        if s.heading
        and not (
            s.heading in including
            and not s.blocks
            and (n + 1 == len(sections) or sections[n + 1].level <= s.level)
        )
    ]


def _record_references(
    db: sqlite3.Connection, folder: Path, sources: list[str], found: dict[str, Stamp]
) -> set[str]:
    """Record what each of `sources` (new, changed or removed files) references now; returns every file whose
    referrers changed (what they referenced before and what they reference now)."""
    touched: set[str] = set()
    stems = unique_stems(found) if sources else {}
    for rel in sources:
        touched.update(row[0] for row in db.execute("SELECT target FROM refs WHERE source = ?", (rel,)))
        db.execute("DELETE FROM refs WHERE source = ?", (rel,))
        if rel not in found or Path(rel).suffix.lower() not in REFERRING:
            continue
        try:
            text = (folder / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        made = references(text, rel, found, stems)
        db.executemany(
            "INSERT INTO refs VALUES (?, ?, ?, ?, ?)",
            [(rel, r.target, r.kind, r.text, r.context) for r in made],
        )
        touched.update(r.target for r in made)
    return touched


def _said_of(db: sqlite3.Connection, rel: str) -> tuple[str, str]:
    """What the folder's other files say of `rel`: the heading most of its includers put it under (its
    title when it states none), and the text and sentence of every link to it (its anchor text)."""
    made = [
        Reference(rel, kind, text, context)
        for kind, text, context in db.execute(
            "SELECT kind, text, context FROM refs WHERE target = ? ORDER BY source", (rel,)
        )
    ]
    headings = Counter(r.text for r in made if r.kind == INCLUDE and r.text)
    titled_by = max(headings, key=lambda h: (headings[h], h)) if headings else ""
    anchors = dict.fromkeys(part for r in made if r.kind != INCLUDE for part in (r.text, r.context) if part)
    return titled_by, "\n".join(anchors)[:4000]


def collection_words(db: sqlite3.Connection, match: str) -> list[str]:
    """The words of a search (its FTS5 MATCH terms) that name the collection: its home page's title names
    them, or most files of a large folder hold them (COLLECTION_SHARE). A name is written in Latin letters,
    in a Chinese collection too ("Arthas", "Sa-Token")."""
    total = db.execute("SELECT COUNT(*) FROM files").fetchone()[0]
    marks = ",".join("?" * len(HOME_PAGES))
    home = db.execute(f"SELECT title FROM passages WHERE path IN ({marks}) LIMIT 1", HOME_PAGES).fetchone()
    home_words = set(words(home[0].lower())) if home else set()
    named = []
    for term in match.split(" OR "):
        word = term.strip('"').replace('""', '"')
        if not word.isascii():  # a Chinese word most pages hold is a subject of them ("主题"), not their name
            continue
        if word in home_words:
            named.append(word)
            continue
        held = db.execute(
            "SELECT COUNT(DISTINCT p.path) FROM fts JOIN passages p ON p.id = fts.rowid WHERE fts MATCH ?",
            (term,),
        ).fetchone()[0]
        if total >= COLLECTION_FILES and held >= COLLECTION_SHARE * total:
            named.append(word)
    return named


def _group(rows: list[tuple[str, str, str, float]]) -> dict[str, list[tuple[str, str, float]]]:
    by_file: dict[str, list[tuple[str, str, float]]] = {}
    for path, title, text, rank in rows:
        by_file.setdefault(path, []).append((title, text, rank))
    return by_file


def section_passages(sections: tuple[Section, ...], size: int = PASSAGE_CHARS) -> list[tuple[str, str]]:
    """(heading, passage) pairs: each section's prose cut into passages that remember their heading."""
    return [(s.heading, p) for s in sections for p in split_passages(section_prose(s), size)]


def split_passages(text: str, size: int = PASSAGE_CHARS) -> list[str]:
    """Paragraph-aligned passages of about `size` characters (a long paragraph is cut on its own)."""
    passages: list[str] = []
    current = ""
    for block in paragraphs(text):
        block = block.strip()
        while len(block) > size:
            passages.extend([current] if current else [])
            current = ""
            passages.append(block[:size])
            block = block[size:]
        if current and len(current) + len(block) + 2 > size:
            passages.append(current)
            current = ""
        current = f"{current}\n\n{block}" if current else block
    if current.strip():
        passages.append(current)
    return [p for p in passages if p.strip()]
