"""`deepkb ask`, retrieval: the passages of the knowledge base that answer a question, each cited, on its page.

Retrieval reads the passages kb/passages.py keeps in the full-text database (kb/search.py syncs it first):
the question's content words, with their synonyms and Chinese/English glossary twins, are matched by FTS5
BM25; a passage must cover enough of the question's concepts to count, and one that defines a symbol the
question names ranks first. kb/answer.py turns them into the answer.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from .. import cjk
from ..store import KBPaths
from ..text.words import STOPWORDS, ZH_STOPWORDS, latin_words, stem, tokens
from .fulltext import quoted, words
from .passages import MAX_PASSAGES, Cite, code_words
from .search import synced_db, unsegment
from .synonyms import Synonyms, load_synonyms

DEFAULT_LIMIT = 5
CANDIDATES = 80  # passages BM25 hands to the coverage check
PER_PAGE = 2  # passages from one page, at most: an answer shows where else the knowledge base says it
SYMBOL_BOOST = 25.0  # a passage defining a symbol the question names outranks any prose about it
MAX_SYMBOL_HITS = 12  # a name more symbols share than this (`run`, `get`) says too little to boost
HEADING_WEIGHT = 2.0
SCOPE_BOOST = 1.5  # a passage of the repository the question names ("gin", "flask")
COMMON = 300  # a plain word in this many passages is a word, not a symbol's name ("response", "group")
_VERSION = re.compile(r"-v?\d[\w.]*$")  # `flask-3.1.3` is the repository `flask`
UNCITED = 0.7  # the weight of a passage that cites nothing (the page it is on is then its only reference)
# words that shape a question without saying what it is about
QUESTION_WORDS = frozenset(
    "explain explains work works happen happens mean means find show tell about defined define implemented "
    "implement implementation where does done way ways thing things know".split()
)
ZH_QUESTION_WORDS = frozenset(
    "怎样 怎么样 哪里 哪个 哪儿 是否 可以 能 需要 请问 一下 定义 实现 工作 原理".split()
)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class Concept:
    """One content word of the question and its other spellings (synonyms, glossary twins)."""

    label: str
    forms: tuple[str, ...]


@dataclass(frozen=True)
class Found:
    """A passage that answers, where it is, and how to check it."""

    text: str
    heading: str
    page: str
    """The page below site_src/ (`repos/acme/sample/shards/01_core.md`)."""
    page_title: str
    entry: str
    kind: str
    score: float
    cites: tuple[Cite, ...] = ()
    symbol: str = ""


@dataclass(frozen=True)
class PageRef:
    page: str
    title: str
    entry: str


# --------------------------------------------------------------------------- the question


def concepts(question: str, synonyms: Synonyms) -> list[Concept]:
    """The question's content words, each with its synonym group and glossary twins."""
    found: dict[str, Concept] = {}
    for surface in _surface_words(question, synonyms):
        key = stem(surface) if surface.isascii() else surface
        if key in found:
            continue
        forms = dict.fromkeys([surface, *synonyms.glossary.spellings(surface)])
        canonical = synonyms.lookup(surface)
        if canonical:
            forms.update(dict.fromkeys(t.replace("-", " ") for t in synonyms.group(canonical)[:8]))
        found[key] = Concept(surface, tuple(f for f in forms if f.strip()))
    return list(found.values())


def _surface_words(question: str, synonyms: Synonyms) -> list[str]:
    out: list[str] = []
    for piece in re.split(f"({cjk.CJK_RUN.pattern})", question):
        if cjk.CJK_RUN.fullmatch(piece):
            out.extend(
                w
                for w in synonyms.glossary.segment(piece)
                if w not in ZH_STOPWORDS and w not in ZH_QUESTION_WORDS and len(w) > 1
            )
        else:
            out.extend(w for w in latin_words(piece) if w not in QUESTION_WORDS and len(w) > 1)
    return out


def identifiers(question: str) -> list[str]:
    """Names in the question that could be symbols (`Flask.url_for`, `open_session`, `Router`, `evaluate`), as
    written; a dotted name also gives its last part."""
    names: dict[str, None] = {}
    for match in _IDENTIFIER.finditer(question):
        name = match.group(0)
        if name.lower() not in STOPWORDS and name.lower() not in QUESTION_WORDS and len(name) > 2:
            names.setdefault(name, None)
            names.setdefault(name.rsplit(".", 1)[-1], None)
    return list(names)


def names_symbol(written: str, name: str) -> bool:
    """Does the question's `written` word name the symbol `name`? Spelled the same, or spelled as code
    (`url_for`, `sessionStore`, `Flask.run`) in any case: "calculator" in a sentence is not `Calculator`."""
    if written == name:
        return True
    as_code = "_" in written or "." in written or bool(re.search(r"[a-z][A-Z]", written))
    return as_code and written.lower() == name.lower()


# --------------------------------------------------------------------------- retrieval


def retrieve(paths: KBPaths, question: str, limit: int = DEFAULT_LIMIT) -> tuple[list[Found], list[Concept]]:
    """The passages that best answer `question`, best first, and the concepts it was read as."""
    question = " ".join(question.split())
    ideas = concepts(question, load_synonyms(paths))
    names = identifiers(question)
    if not ideas and not names:
        return [], ideas
    with synced_db(paths) as conn:
        scoped, topical = _scopes(conn, ideas)
        scores = _bm25(conn, topical, _pages_of(conn, scoped))
        # a repository's name scopes the question; it is not also a question about its namesake class
        named = {idea.label.lower() for idea in ideas if idea not in topical}
        symbols = _symbol_hits(conn, [n for n in names if n.lower() not in named])
        for rowid, boost in symbols.items():
            scores[rowid] = scores.get(rowid, 0.0) + boost
        if scoped and scores:
            owners = _entries_of(conn, {r // MAX_PASSAGES for r in scores})
            scores = {
                r: s * (SCOPE_BOOST if owners.get(r // MAX_PASSAGES) in scoped else 1.0)
                for r, s in scores.items()
            }
        rows = _rows(conn, list(scores))
        ranked = _rank(rows, scores, topical, set(symbols))
        return _choose(conn, ranked, rows, limit), ideas


def _scopes(conn: sqlite3.Connection, ideas: list[Concept]) -> tuple[set[str], list[Concept]]:
    """The repositories the question names ("how does gin route…": `repo:…/gin`), and the concepts left to
    match once those names are set aside (all of them when the question is nothing but a name)."""
    names: dict[str, set[str]] = {}
    for (entry_id,) in conn.execute("SELECT id FROM entries WHERE id LIKE 'repo:%'"):
        name = _VERSION.sub("", str(entry_id).rsplit("/", 1)[-1]).lower()
        names.setdefault(name, set()).add(str(entry_id))
    scoped = {i for idea in ideas for i in names.get(idea.label.lower(), ())}
    rest = [idea for idea in ideas if idea.label.lower() not in names]
    return scoped, rest if rest else ideas


def _entries_of(conn: sqlite3.Connection, docs: set[int]) -> dict[int, str]:
    """doc rowid → the entry it belongs to (looked up by rowid: `entry` is not an indexed column)."""
    marks = ",".join("?" * len(docs))
    rows = conn.execute(f"SELECT rowid, entry FROM docs WHERE rowid IN ({marks})", list(docs))
    return {int(r[0]): str(r[1]) for r in rows}


def _bm25(conn: sqlite3.Connection, ideas: list[Concept], docs: Iterable[int] = ()) -> dict[int, float]:
    """The CANDIDATES best passages by BM25 over the whole knowledge base, and those of each of `docs` (the
    pages of a repository the question names, which a common word elsewhere would crowd out)."""
    clauses = []
    for idea in ideas:
        spelled = [quoted([" ".join(found)]) for form in idea.forms if (found := words(form))]
        if spelled:
            clauses.append("(" + " OR ".join(dict.fromkeys(spelled)) + ")")
    if not clauses:
        return {}
    query = "SELECT rowid, -bm25(passages, ?, 1.0) FROM passages WHERE passages MATCH ?"
    match = " OR ".join(clauses)
    rows = conn.execute(f"{query} ORDER BY 2 DESC LIMIT ?", (HEADING_WEIGHT, match, CANDIDATES)).fetchall()
    for doc in docs:
        rows += conn.execute(
            f"{query} AND rowid BETWEEN ? AND ? ORDER BY 2 DESC LIMIT ?",
            (HEADING_WEIGHT, match, doc * MAX_PASSAGES, (doc + 1) * MAX_PASSAGES - 1, CANDIDATES // 4),
        ).fetchall()
    return {int(rowid): float(score) for rowid, score in rows}


def _pages_of(conn: sqlite3.Connection, entries: set[str]) -> list[int]:
    """The doc rowids of the repositories `entries` (`repo:o/r` → the pages under repos/o/r/)."""
    docs: list[int] = []
    for entry in sorted(entries):
        base = "repos/" + entry.split(":", 1)[1]
        rows = conn.execute(
            "SELECT doc FROM files WHERE folder = ? OR (folder > ? AND folder < ?)",
            (base, base + "/", base + "0"),
        )
        docs.extend(int(r[0]) for r in rows)
    return docs


def _symbol_hits(conn: sqlite3.Connection, names: list[str]) -> dict[int, float]:
    """Passage rowid → boost, for the symbols the question names (fewer namesakes, more boost)."""
    hits: dict[int, float] = {}
    for written in names:
        short = written.rsplit(".", 1)[-1]
        found = conn.execute(
            "SELECT passage, name FROM symbols WHERE lname = ? LIMIT ?", (short.lower(), MAX_SYMBOL_HITS + 1)
        ).fetchall()
        rows = [
            (rowid,) for rowid, name in found if names_symbol(short if written == short else written, name)
        ]
        if "." in written:  # `Flask.run`: its last part names the method however it is cased
            rows = [(rowid,) for rowid, _ in found]
        if not rows or len(found) > MAX_SYMBOL_HITS:
            continue
        # a lowercase word or an acronym (`JSON`, `URL`) is often just a word: it counts as much as it is rare
        plain = (written.islower() or written.isupper()) and not re.search(r"[_.]", written)
        boost = SYMBOL_BOOST / math.sqrt(len(rows)) * (_rarity(conn, written) if plain else 1.0)
        for (rowid,) in rows:
            hits[int(rowid)] = max(hits.get(int(rowid), 0.0), boost)
    return hits


def _rarity(conn: sqlite3.Connection, word: str) -> float:
    """1 for a word few passages use, falling to 0 at COMMON: a lowercase word of the question names the
    function `evaluate` when the knowledge base rarely says "evaluate", not `response` among many responses."""
    spelled = words(word)
    if not spelled:
        return 0.0
    found = conn.execute(
        "SELECT count(*) FROM (SELECT rowid FROM passages WHERE passages MATCH ? LIMIT ?)",
        (quoted([" ".join(spelled)]), COMMON),
    ).fetchone()[0]
    return max(0.0, 1.0 - found / COMMON)


@dataclass(frozen=True)
class _Row:
    heading: str
    text: str
    cites: tuple[Cite, ...]


def _rows(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, _Row]:
    found: dict[int, _Row] = {}
    for start in range(0, len(rowids), 500):
        chunk = rowids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for rowid, raw, cites in conn.execute(
            f"SELECT rowid, raw, cites FROM passages WHERE rowid IN ({marks})", chunk
        ):
            heading, text = json.loads(raw)
            found[int(rowid)] = _Row(heading, text, tuple(Cite(**c) for c in json.loads(cites)))
    return found


def _rank(
    rows: dict[int, _Row], scores: dict[int, float], ideas: list[Concept], symbols: set[int]
) -> list[tuple[int, float]]:
    """Rowids by score × the share of the question's concepts the passage covers; a passage covering less
    than half of them (rounded up), or whose text (not heading) names none, is not an answer unless it defines
    a symbol the question names."""
    needed = math.ceil(len(ideas) / 2)
    spellings = [[set(stems) for form in idea.forms if (stems := tokens(form))] for idea in ideas]
    headings: dict[str, set[str]] = {}
    ranked: list[tuple[int, float]] = []
    for rowid, score in scores.items():
        row = rows.get(rowid)
        if row is None:
            continue
        in_text = set(tokens(f"{row.text} {code_words(row.text)}"))
        if row.heading not in headings:
            headings[row.heading] = set(tokens(row.heading))
        covered = _covered(in_text | headings[row.heading], spellings)
        # the heading gives context, the text must say something of the question itself
        if (covered < needed or not _covered(in_text, spellings)) and rowid not in symbols:
            continue
        share = covered / len(ideas) if ideas else 1.0
        checkable = 1.0 if row.cites else UNCITED  # an answer the reader can check comes first
        ranked.append((rowid, score * (0.5 + share) * checkable))
    return sorted(ranked, key=lambda item: (-item[1], item[0]))


def _covered(seen: set[str], spellings: list[list[set[str]]]) -> int:
    """How many concepts the stems `seen` hold (a concept: any one of its spellings, all its stems)."""
    return sum(1 for forms in spellings if any(form <= seen for form in forms))


def _choose(
    conn: sqlite3.Connection, ranked: list[tuple[int, float]], rows: dict[int, _Row], limit: int
) -> list[Found]:
    chosen: list[Found] = []
    per_page: dict[int, int] = {}
    texts: set[str] = set()
    docs = _docs(conn, {rowid // MAX_PASSAGES for rowid, _ in ranked[: limit * 6]})
    for rowid, score in ranked:
        doc, row = rowid // MAX_PASSAGES, rows[rowid]
        if doc not in docs or row.text in texts or per_page.get(doc, 0) >= PER_PAGE:
            continue
        page, title, entry, kind = docs[doc]
        texts.add(row.text)
        per_page[doc] = per_page.get(doc, 0) + 1
        symbol = _symbol_of(conn, rowid)
        cites = tuple(_stored(conn, c) for c in row.cites)
        chosen.append(Found(row.text, row.heading, page, title, entry, kind, score, cites, symbol))
        if len(chosen) == limit:
            break
    return chosen


def _docs(conn: sqlite3.Connection, docs: Iterable[int]) -> dict[int, tuple[str, str, str, str]]:
    wanted = list(docs)
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    rows = conn.execute(f"SELECT rowid, path, title, entry, kind FROM docs WHERE rowid IN ({marks})", wanted)
    return {int(r[0]): (r[1], unsegment(r[2]), r[3], r[4]) for r in rows}


def _stored(conn: sqlite3.Connection, cite: Cite) -> Cite:
    """A report's `[1]` pointing at a stored source's page, given that source's title and address (from the
    index's copy in the database)."""
    if not cite.page or cite.url:
        return cite
    row = conn.execute("SELECT title, url FROM entries WHERE path = ? LIMIT 1", (cite.page,)).fetchone()
    return Cite(row[0] or cite.label, row[1], page=cite.page) if row else cite


def _symbol_of(conn: sqlite3.Connection, rowid: int) -> str:
    row = conn.execute("SELECT name, owner FROM symbols WHERE passage = ?", (rowid,)).fetchone()
    if row is None:
        return ""
    return f"{row[1]}.{row[0]}" if row[1] else str(row[0])
