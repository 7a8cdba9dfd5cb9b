"""`deepkb ask`, retrieval: the passages of the knowledge base that answer a question, each cited, on its page.

Retrieval reads the passages kb/passages.py keeps in the full-text database (kb/search.py syncs it first):
the question's content words, with their synonyms and Chinese/English glossary twins, find candidates through
FTS5, and the retrieval engine (generator/retrieval/scoring.py) ranks them; a passage must cover enough of the
question's concepts to count, and one that defines a symbol the question names ranks first. kb/answer.py
turns them into the answer.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, replace

from .. import cjk
from ..retrieval import scoring
from ..retrieval.feedback import LEXICAL_K1
from ..retrieval.scoring import CorpusStats, FieldScale, FieldTokens, Term, spelled_term
from ..store import KBPaths
from ..text.words import STOPWORDS, ZH_STOPWORDS, holds_stems, latin_words, stem, tokens
from .fulltext import quoted, words
from .passages import MAX_PASSAGES, Cite, code_words
from .search import search_db, unsegment
from .synonyms import Synonyms, load_synonyms

DEFAULT_LIMIT = 5
CANDIDATES = 80  # passages FTS5's BM25 hands to the engine's ranking and the coverage check
RELEVANCE = 10.0  # a passage matching the whole question, on the scale of the symbol boost
# A passage is a paragraph or a definition, not a document: its heading names the section it sits in (shared
# by its neighbours), and its length is normalised as BM25 does, against the candidates' own typical length.
PASSAGE = FieldScale(
    weights={"headings": 2.0, "body": 1.0, "code": 0.5},
    length_norm={"headings": 0.75, "body": 0.5, "code": 0.5},
    min_length={"headings": 1.0, "body": 1.0, "code": 1.0},
)
PER_PAGE = 2  # passages from one page, at most: an answer shows where else the knowledge base says it
SYMBOL_BOOST = 25.0  # a passage defining a symbol the question names outranks any prose about it
MAX_SYMBOL_HITS = 12  # a name more symbols share than this (`run`, `get`) says too little to boost
HEADING_WEIGHT = 2.0
MAX_CONCEPTS = (
    64  # words of a question read (a question is at most MAX_QUESTION characters from the CLI or MCP)
)
MAX_QUESTION = 500  # characters of a question, as `deepkb ask` and the MCP tools accept it
KEY_SHARE = 0.5  # an answer names the words that carry at least this share of the question's weight
COMMON = 300  # a plain word in this many passages is a word, not a symbol's name ("response", "group")
_VERSION = re.compile(r"-v?\d[\w.]*$")  # `flask-3.1.3` is the repository `flask`
UNCITED = 0.7  # the weight of a passage that cites nothing (the page it is on is then its only reference)
# words that shape a question without saying what it is about
QUESTION_WORDS = frozenset(
    "explain explains work works happen happens mean means find show tell about defined define implemented "
    "implement implementation where does done way ways thing things know become becomes became".split()
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


def concepts(question: str, synonyms: Synonyms, most: int = MAX_CONCEPTS) -> list[Concept]:
    """The question's first `most` content words, each with its synonym group and glossary twins."""
    found: dict[str, Concept] = {}
    for surface in _surface_words(question, synonyms):
        key = stem(surface) if surface.isascii() else surface
        if key in found:
            continue
        if len(found) == most:
            break
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


@dataclass(frozen=True)
class Retrieved:
    """What a question found: its passages best first, the concepts it was read as, and whether any passage
    carries the question's key terms (the rarest of its words, holding most of its weight)."""

    found: list[Found]
    concepts: list[Concept]
    answered: bool


def retrieve(paths: KBPaths, question: str, limit: int = DEFAULT_LIMIT) -> Retrieved:
    """The passages that best answer `question`, best first: those of a repository or topic it names first."""
    question = " ".join(question.split())
    ideas = concepts(question, load_synonyms(paths))
    names = identifiers(question)[:MAX_CONCEPTS]
    if not ideas and not names:
        return Retrieved([], ideas, False)
    with search_db(paths) as conn:
        scope = _scope(conn, _matchable(conn, ideas))
        candidates = _candidates(conn, scope.topical, _pages_of(conn, scope.folders))
        # a repository's name scopes the question; it is not also a question about its namesake class
        symbols, named = _symbol_hits(conn, [n for n in names if n.lower() not in scope.names])
        rows = _rows(conn, list(dict.fromkeys([*candidates, *symbols])))
        stats = _passage_stats(conn, scope.topical)
        scores = _relevance(rows, scope.topical, stats)
        for rowid, boost in symbols.items():
            scores[rowid] = scores.get(rowid, 0.0) + boost
        weights = [stats.idf(_term(idea)) for idea in scope.topical]
        ranked = _rank(rows, scores, scope.topical, weights, named)
        found = _choose(conn, ranked, rows, limit, scope.folders)
    return Retrieved([f for f, _ in found], ideas, any(on_point for _, on_point in found))


@dataclass(frozen=True)
class _Scope:
    """The repositories and topics a question names (their folders below site_src/, `repos/o/r/`), the names
    set aside, and the concepts left to match (all of them when the question is nothing but a name)."""

    folders: tuple[str, ...]
    names: frozenset[str]
    topical: list[Concept]


def _scope(conn: sqlite3.Connection, ideas: list[Concept]) -> _Scope:
    """ "how does gin route…" is scoped to `repos/…/gin/`; "application factories" to the topic of that name."""
    repos: dict[str, set[str]] = {}
    topics: dict[frozenset[str], str] = {}
    for (entry_id,) in conn.execute("SELECT id FROM entries WHERE id LIKE 'repo:%' OR id LIKE 'topic:%'"):
        kind, _, name = str(entry_id).partition(":")
        if kind == "repo":
            repos.setdefault(_VERSION.sub("", name.rsplit("/", 1)[-1]).lower(), set()).add(f"repos/{name}/")
        elif words := frozenset(tokens(name.replace("-", " "))):
            topics[words] = f"topics/{name}/"
    labels = {idea.label.lower() for idea in ideas}
    named = labels & repos.keys()
    stems = {stem(label) if label.isascii() else label for label in labels}
    folders = {f for name in named for f in repos[name]} | {f for w, f in topics.items() if w <= stems}
    rest = [idea for idea in ideas if idea.label.lower() not in named]
    return _Scope(tuple(sorted(folders)), frozenset(named), rest if rest else ideas)


def _candidates(conn: sqlite3.Connection, ideas: list[Concept], docs: Iterable[int] = ()) -> list[int]:
    """The CANDIDATES best passages by FTS5's BM25 over the whole knowledge base (the candidate store), and
    those of each of `docs` (the pages of a repository the question names, which a common word elsewhere would
    crowd out). The retrieval engine ranks them (`_relevance`)."""
    clauses = []
    for idea in ideas:
        spelled = [quoted([" ".join(found)]) for form in idea.forms if (found := words(form))]
        if spelled:
            clauses.append("(" + " OR ".join(dict.fromkeys(spelled)) + ")")
    if not clauses:
        return []
    query = "SELECT rowid, -bm25(passages, ?, 1.0) FROM passages WHERE passages MATCH ?"
    match = " OR ".join(clauses)
    rows = conn.execute(f"{query} ORDER BY 2 DESC LIMIT ?", (HEADING_WEIGHT, match, CANDIDATES)).fetchall()
    for doc in docs:
        rows += conn.execute(
            f"{query} AND rowid BETWEEN ? AND ? ORDER BY 2 DESC LIMIT ?",
            (HEADING_WEIGHT, match, doc * MAX_PASSAGES, (doc + 1) * MAX_PASSAGES - 1, CANDIDATES // 4),
        ).fetchall()
    return list(dict.fromkeys(int(rowid) for rowid, _ in rows))


def _matchable(conn: sqlite3.Connection, ideas: list[Concept]) -> list[Concept]:
    """The concepts without the Chinese twins of their English words when no passage is Chinese: they could
    match nothing, and segmenting them loads jieba (seconds) for an English question."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'han'").fetchone()
    if row is None or row[0] != "0":  # Chinese passages, or a database synced before this was recorded
        return ideas
    return [
        idea
        if cjk.CJK_RUN.search(idea.label)
        else replace(idea, forms=tuple(f for f in idea.forms if not cjk.CJK_RUN.search(f)))
        for idea in ideas
    ]


def _passage_stats(conn: sqlite3.Connection, ideas: list[Concept]) -> CorpusStats:
    """The engine's statistics for a question: the typical lengths of its candidates' fields (added by
    `_relevance`), and each concept's document frequency among all the knowledge base's passages (counted up
    to COMMON), so that a word the question's own candidates all hold still weighs what it does in the store."""
    held = {_term(idea): _held(conn, idea) for idea in ideas}
    row = conn.execute("SELECT value FROM meta WHERE key = 'passages'").fetchone()
    size = int(row[0]) if row else COMMON
    return CorpusStats(
        scale=PASSAGE,
        collection=lambda term: held.get(term, 0),
        collection_size=max(size, COMMON),
    )


def _term(idea: Concept) -> Term:
    return spelled_term(idea.label, idea.forms)


def _relevance(rows: dict[int, _Row], ideas: list[Concept], stats: CorpusStats) -> dict[int, float]:
    """Each passage's relevance to the question by the retrieval engine (generator/retrieval/scoring.py):
    field-weighted BM25 over its heading, its prose and the words of its code names, scaled so that RELEVANCE
    is a full match."""
    terms = [_term(idea) for idea in ideas]
    fields = {rowid: _fields(row) for rowid, row in rows.items()}
    for rowid, found in fields.items():
        stats.add(str(rowid), found)
    return {
        rowid: RELEVANCE * scoring.score(found, terms, stats, k1=LEXICAL_K1).score
        for rowid, found in fields.items()
    }


def _fields(row: _Row) -> FieldTokens:
    return {"headings": tokens(row.heading), "body": tokens(row.text), "code": tokens(code_words(row.text))}


def _pages_of(conn: sqlite3.Connection, folders: Iterable[str]) -> list[int]:
    """The doc rowids of the pages below `folders` (`repos/o/r/`, `topics/slug/`)."""
    docs: list[int] = []
    for folder in folders:
        base = folder.rstrip("/")
        rows = conn.execute(
            "SELECT doc FROM files WHERE folder = ? OR (folder > ? AND folder < ?)",
            (base, base + "/", base + "0"),
        )
        docs.extend(int(r[0]) for r in rows)
    return docs


def _symbol_hits(conn: sqlite3.Connection, names: list[str]) -> tuple[dict[int, float], set[int]]:
    """Passage rowid → boost, for the symbols the question names (fewer namesakes, more boost); and those it
    names as code (`Session`, `url_for`, `Flask.run`), which answer it whatever else it asks. A symbol named
    by a plain word ("parse", "command") answers only as a passage covering the question does."""
    hits: dict[int, float] = {}
    as_code: set[int] = set()
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
            if not plain:
                as_code.add(int(rowid))
    return hits, as_code


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


def _held(conn: sqlite3.Connection, idea: Concept) -> int:
    """How many passages hold the concept in any of its spellings, counted up to COMMON."""
    spelled = [quoted([" ".join(found)]) for form in idea.forms if (found := words(form))]
    if not spelled:
        return 0
    return int(
        conn.execute(
            "SELECT count(*) FROM (SELECT rowid FROM passages WHERE passages MATCH ? LIMIT ?)",
            (" OR ".join(dict.fromkeys(spelled)), COMMON),
        ).fetchone()[0]
    )


def _rank(
    rows: dict[int, _Row],
    scores: dict[int, float],
    ideas: list[Concept],
    weights: list[float],
    symbols: set[int],
) -> list[tuple[int, float, bool]]:
    """(rowid, score, on point), best first: BM25 × the share of the question's concepts the passage covers ×
    the share of the question's weight they carry. A passage covering less than half of the concepts (rounded
    up), or whose text (not heading) names none, is not an answer unless it defines a symbol the question
    names; it is on point when it names the words that carry most of the question's weight (KEY_SHARE)."""
    needed = math.ceil(len(ideas) / 2)
    total = sum(weights) or 1.0
    spellings = [[set(stems) for form in idea.forms if (stems := tokens(form))] for idea in ideas]
    headings: dict[str, set[str]] = {}
    ranked: list[tuple[int, float, bool]] = []
    for rowid, score in scores.items():
        row = rows.get(rowid)
        if row is None:
            continue
        in_text = set(tokens(f"{row.text} {code_words(row.text)}"))
        if row.heading not in headings:
            headings[row.heading] = set(tokens(row.heading))
        covered = _covered(in_text | headings[row.heading], spellings)
        # the heading gives context, the text must say something of the question itself
        if (sum(covered) < needed or not any(_covered(in_text, spellings))) and rowid not in symbols:
            continue
        named = sum(w for w, hit in zip(weights, covered, strict=True) if hit) / total
        share = sum(covered) / len(ideas) if ideas else 1.0
        checkable = 1.0 if row.cites else UNCITED  # an answer the reader can check comes first
        on_point = named >= KEY_SHARE or rowid in symbols
        ranked.append((rowid, score * (0.5 + share) * (0.5 + named) * checkable, on_point))
    return sorted(ranked, key=lambda item: (-item[1], item[0]))


def _covered(seen: set[str], spellings: list[list[set[str]]]) -> list[bool]:
    """Which concepts the stems `seen` hold (a concept: any one of its spellings, all its stems, "parse" found
    in "parser")."""
    return [any(holds_stems(form, seen) for form in forms) for forms in spellings]


def _choose(
    conn: sqlite3.Connection,
    ranked: list[tuple[int, float, bool]],
    rows: dict[int, _Row],
    limit: int,
    folders: tuple[str, ...] = (),
) -> list[tuple[Found, bool]]:
    """The `limit` best passages, those of the repositories and topics the question names first; at most
    PER_PAGE from one page, and a text said twice (a docstring on a shard page and an answer page) once."""
    docs = _docs(conn, {rowid // MAX_PASSAGES for rowid, _, _ in ranked})
    in_scope = (
        {rowid for rowid, _, _ in ranked if _page(docs, rowid).startswith(folders)} if folders else set()
    )
    order = sorted(ranked, key=lambda r: r[0] not in in_scope)  # stable: best first within each group
    chosen: list[tuple[Found, bool]] = []
    per_page: dict[int, int] = {}
    texts: set[str] = set()
    for rowid, score, on_point in order:
        doc, row = rowid // MAX_PASSAGES, rows[rowid]
        said = " ".join(row.text.lower().split())
        if doc not in docs or said in texts or per_page.get(doc, 0) >= PER_PAGE:
            continue
        page, title, entry, kind = docs[doc]
        texts.add(said)
        per_page[doc] = per_page.get(doc, 0) + 1
        cites = tuple(_stored(conn, c) for c in row.cites)
        symbol = _symbol_of(conn, rowid)
        chosen.append(
            (Found(row.text, row.heading, page, title, entry, kind, score, cites, symbol), on_point)
        )
        if len(chosen) == limit:
            break
    return chosen


def _page(docs: dict[int, tuple[str, str, str, str]], rowid: int) -> str:
    return docs[rowid // MAX_PASSAGES][0] if rowid // MAX_PASSAGES in docs else ""


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
