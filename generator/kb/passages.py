"""A published page cut into the passages `deepkb ask` retrieves, and the symbols and calls it names.

The pages under site_src/ are the knowledge base's durable record (the cache that held the facts may be
deleted), so the passages are read from them: each list item, table row or paragraph under its heading, with
the citations it carries — a permalink at the pinned revision, a `path:line`, or the stored source's address.
Repository pages also yield their symbols (name, kind, definition, subsystem) and flow steps (who calls whom).
The rows live in the full-text database kb/search.py keeps, beside the pages they come from.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote

from ..documents import read_text
from ..documents.markdown import drop_admonitions
from ..text.topic_labels import LABELS
from ..text.words import COMPOUND, COMPOUND_PART
from .fulltext import TOKENIZE, segment

MAX_PASSAGE_CHARS = 700
MAX_PASSAGES = (
    4096  # per page: a page's passages take rowids doc * MAX_PASSAGES + i, so a page drops by range
)
TABLES = (
    "CREATE VIRTUAL TABLE passages USING fts5(heading, body, raw UNINDEXED, cites UNINDEXED,"
    f" tokenize = '{TOKENIZE}')",
    "CREATE TABLE symbols(doc INTEGER, name TEXT, lname TEXT, owner TEXT, kind TEXT, path TEXT, line INTEGER,"
    " url TEXT, summary TEXT, passage INTEGER)",
    "CREATE INDEX symbols_by_name ON symbols(lname)",
    "CREATE INDEX symbols_by_doc ON symbols(doc)",
    "CREATE TABLE calls(doc INTEGER, caller TEXT, callee TEXT, lcallee TEXT, path TEXT, line INTEGER, url TEXT)",
    "CREATE INDEX calls_by_callee ON calls(lcallee)",
    "CREATE INDEX calls_by_doc ON calls(doc)",
)


@dataclass(frozen=True)
class Cite:
    """Where a passage's claim can be checked: a permalink or stored source (`url`), or a `path:line`."""

    label: str
    url: str = ""
    path: str = ""
    line: int = 0
    page: str = ""
    """A stored source's page below site_src/ (a report's reference to its raw source)."""


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str
    owner: str = ""
    """The class a method belongs to, "" for a top-level symbol."""
    cite: Cite = field(default_factory=lambda: Cite(""))
    summary: str = ""


@dataclass(frozen=True)
class Call:
    caller: str
    callee: str
    cite: Cite


@dataclass(frozen=True)
class Passage:
    heading: str
    text: str
    cites: tuple[Cite, ...] = ()
    symbol: Symbol | None = None
    call: Call | None = None


# --------------------------------------------------------------------------- reading a page

_LINK = re.compile(r"\[((?:\[[^\]]*\]|[^\]])*)\]\(([^)\s]+)\)")  # the label may hold `[1]`
_CODE_CITE = re.compile(r"`(?P<path>[\w][\w.\-/]*):(?P<start>\d{1,7})(?:-\d{1,7})?`")
_PERMALINK = re.compile(r"/blob/[0-9a-f]{7,64}/(?P<path>[^#?]+)#L(?P<start>\d+)")
# `- **[`Name`](url)** *kind* — summary` or `- `name` (`path:line`) *function* — summary`
_SYMBOL = re.compile(
    r"^\**\[?`(?P<name>[^`]{1,200})`\]?(?:\((?P<url>https?://[^)\s]+)\))?(?:\s*\(`(?P<loc>[^`]+)`\))?\**"
    r"\s+\*(?P<kind>[a-z][a-z ]{1,30})\*(?:\s+—\s+(?P<summary>.*))?$"
)
# `1. `caller` calls `callee` — `path:line`` (a flow step)
_CALL = re.compile(r"^`(?P<caller>[^`]{1,200})` calls `(?P<callee>[^`]{1,200})`(?:\s+—\s+(?P<where>.*))?$")
# a stored source's header rows (its address, dates, "Cited by"), in either language of the labels
_RAW_FIELDS = ("source", "original", "fetched", "standing", "authors", "stored_text", "cited_by")
_RAW_METADATA = re.compile(
    "^(?:"
    + "|".join(sorted({re.escape(t[key]) for t in LABELS.values() for key in _RAW_FIELDS if key in t}))
    + ")[:：]"
)
# what a page says about itself, not about its subject: an answer page's echo of the question and its
# retrieval trace ("Cycle 1: terms …", the table of files judged under "How the files were found")
_SELF_REPORT = re.compile(r"^(?:Question|Revision|Cycle \d+)\s*:")
_TRACE_HEADINGS = frozenset({"How the files were found"})


def page_passages(rel: str, kind: str, meta: Mapping[str, object], body: str) -> list[Passage]:
    """The passages of the page at `rel` below site_src/ (kind as kb/search.py names it: repo, shard, topic,
    report, analysis, source)."""
    stored = _stored_source(rel, meta) if kind == "source" else None
    subsystem = str(meta.get("title") or "").split(" · ", 1)[-1]
    found: list[Passage] = []
    for heading, block, nested in _blocks(body, notices=kind == "source"):
        said = plain(block)
        if _RAW_METADATA.match(said) or _SELF_REPORT.match(said) or heading in _TRACE_HEADINGS:
            continue
        if kind in ("topic", "report") and heading in _LISTINGS:
            continue  # a row of a topic's sources or references names a stored source: its page holds the text
        if said.rstrip(":：").strip() == heading.strip():
            continue  # the heading again as the label of the list under it (a stored source's text): no passage
        passage = _passage(rel, heading, said, block, nested, stored)
        if passage is not None:
            found.append(passage)
            found.extend(_uses(rel, subsystem, block))
        if len(found) == MAX_PASSAGES:
            break
    return found


_LISTINGS = frozenset(labels[key] for labels in LABELS.values() for key in ("Sources", "references"))


def _stored_source(rel: str, meta: Mapping[str, object]) -> Cite:
    url = str(meta.get("url") or "")
    return Cite(str(meta.get("title") or url or rel), url, page=rel)


def _blocks(body: str, *, notices: bool = False) -> Iterator[tuple[str, str, list[str]]]:
    """(heading, text, nested item texts) of each list item, table row and paragraph, in page order, as the
    document model cuts them, each as the markdown lines it spans so that its links still cite. Without
    `notices`, admonitions (a generated page's notices) are left out."""
    text = body if notices else drop_admonitions(body)
    lines = text.split("\n")
    item: tuple[str, str, list[str]] | None = None  # a top-level item waits for its nested ones
    for section, block in read_text(text, name="page.md", markup="markdown").blocks():
        source = lines[block.start - 1 : block.end]
        if block.kind == "item" and item is not None and source[0][:1].isspace():
            item[2].append(_item_text(source))  # a class's methods: symbols of their own, and part of it
            continue
        if item is not None:
            yield item
            yield from ((item[0], n, []) for n in item[2])
            item = None
        if block.kind == "table":
            rows = source[2:]  # a table's first row names its columns, the second underlines them
            yield from ((section.heading, _row(row), []) for row in rows if _row(row))
        elif block.kind == "item":
            item = (section.heading, _item_text(source), [])
        elif block.kind in ("paragraph", "quote"):
            text = " ".join(_QUOTE_MARK.sub("", line).strip() for line in source)
            yield from ((section.heading, piece, []) for piece in _chunks(text))
    if item is not None:
        yield item
        yield from ((item[0], n, []) for n in item[2])


def _item_text(source: list[str]) -> str:
    return _ITEM_MARK.sub("", " ".join(line.strip() for line in source if line.strip()), count=1)


def _row(line: str) -> str:
    return " · ".join(c.strip() for c in line.strip().strip("|").split("|") if c.strip())


_ITEM_MARK = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_QUOTE_MARK = re.compile(r"^\s*(?:>\s?)+")


def _chunks(text: str) -> list[str]:
    """A long paragraph cut at sentence ends into pieces of about MAX_PASSAGE_CHARS."""
    if len(text) <= MAX_PASSAGE_CHARS:
        return [text]
    pieces, current = [], ""
    for sentence in re.split(r"(?<=[.!?。！？])\s*", text):
        if current and len(current) + len(sentence) > MAX_PASSAGE_CHARS:
            pieces.append(current)
            current = ""
        current = f"{current} {sentence}".strip()
    return [*pieces, current] if current else pieces


def _passage(
    rel: str, heading: str, text: str, block: str, nested: list[str], stored: Cite | None
) -> Passage | None:
    """The passage of `block`, whose plain text is `text`."""
    if not text:
        return None
    cites = tuple(dict.fromkeys([*_cites(rel, block), *([stored] if stored else [])]))
    symbol = _symbol(block, cites)
    call = _call(block, cites)
    if symbol is not None and symbol.kind == "class" and nested:
        text += " — " + "; ".join(plain(n) for n in nested[:12])
    return Passage(heading, text[:MAX_PASSAGE_CHARS], cites[:8], symbol, call)


def _cites(rel: str, block: str) -> Iterator[Cite]:
    for match in _LINK.finditer(block):
        label, url = plain(match.group(1)), match.group(2)
        if (
            "/raw/" in f"/{url}" and url.endswith(".md") and "://" not in url
        ):  # a report cites a stored source
            yield Cite(label, page=posixpath.normpath(posixpath.join(posixpath.dirname(rel), url)))
        if not url.startswith(("https://", "http://")):
            continue
        permalink = _PERMALINK.search(url)
        if permalink:
            yield Cite(label, url, unquote(permalink.group("path")), int(permalink.group("start")))
        else:
            yield Cite(label, url)
    for match in _CODE_CITE.finditer(block):
        yield Cite(match.group(0).strip("`"), "", match.group("path"), int(match.group("start")))


def _symbol(block: str, cites: tuple[Cite, ...]) -> Symbol | None:
    match = _SYMBOL.match(block.strip())
    if match is None or not cites or cites[0].path == "":
        return None
    summary = plain(match.group("summary") or "")
    return Symbol(match.group("name"), match.group("kind"), cite=cites[0], summary=summary)


_USES = re.compile(r"^\*\*Uses\*\* \[[^\]]+\]\([^)\s]+\): (?P<names>.+)$")


def _uses(rel: str, subsystem: str, block: str) -> list[Passage]:
    """`**Uses** [Core](01_core.md): `evaluate`` on a shard page: this subsystem calls or imports those names
    (kept as calls without a line, so a symbol's lookup names the subsystems that use it)."""
    match = _USES.match(block.strip())
    if match is None or not subsystem:
        return []
    names = re.findall(r"`([^`]{1,200})`", match.group("names"))
    return [Passage("", "", (), None, Call(subsystem, name, Cite(subsystem, page=rel))) for name in names]


def _call(block: str, cites: tuple[Cite, ...]) -> Call | None:
    match = _CALL.match(block.strip())
    located = [c for c in cites if c.path]
    if match is None or not located:
        return None
    return Call(match.group("caller"), match.group("callee"), located[0])


_MD_MARKS = re.compile(r"[*`]+")
_EMPHASIS = re.compile(r"(?<![\w/.])_([^_\n]+)_(?![\w])")  # `_emphasis_`, never snake_case or `__init__`
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")


def plain(markdown: str) -> str:
    """Inline markdown as one line of text: links keep their label, emphasis and code marks go."""
    text = _LINK.sub(r"\1", markdown)
    text = _EMPHASIS.sub(r"\1", _MD_MARKS.sub("", text))
    return " ".join(html.unescape(_ESCAPED.sub(r"\1", text)).split())


# --------------------------------------------------------------------------- the tables


def store_passages(conn: sqlite3.Connection, doc: int, passages: list[Passage]) -> None:
    """Insert a page's passages, symbols and calls (inside the sync's transaction)."""
    owner = ""
    for i, passage in enumerate(passages):
        rowid = doc * MAX_PASSAGES + i
        if passage.text:  # a `Uses` line's calls come as passages without text of their own
            conn.execute(
                "INSERT INTO passages(rowid, heading, body, raw, cites) VALUES (?, ?, ?, ?, ?)",
                (
                    rowid,
                    segment(passage.heading, for_index=True),
                    segment(f"{passage.text} {code_words(passage.text)}", for_index=True),
                    json.dumps([passage.heading, passage.text], ensure_ascii=False),
                    json.dumps([c.__dict__ for c in passage.cites], ensure_ascii=False),
                ),
            )
        if passage.symbol is not None:
            owner = _store_symbol(conn, doc, rowid, passage.symbol, owner)
        if passage.call is not None:
            call = passage.call
            conn.execute(
                "INSERT INTO calls VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    doc,
                    call.caller,
                    call.callee,
                    _short(call.callee),
                    call.cite.path,
                    call.cite.line,
                    call.cite.url,
                ),
            )


def _store_symbol(conn: sqlite3.Connection, doc: int, rowid: int, symbol: Symbol, owner: str) -> str:
    owner = symbol.name if symbol.kind == "class" else owner
    conn.execute(
        "INSERT INTO symbols VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            doc,
            symbol.name,
            symbol.name.lower(),
            owner if symbol.kind == "method" else "",
            symbol.kind,
            symbol.cite.path,
            symbol.cite.line,
            symbol.cite.url,
            symbol.summary,
            rowid,
        ),
    )
    return owner


_CAMEL = re.compile(rf"\b{COMPOUND.pattern}\b")


def code_words(text: str) -> str:
    """The words inside the text's CamelCase names (`AsyncClient` → `Async Client`), which the full-text
    tokenizer keeps whole: a question about "the async client" finds it. snake_case is split by the tokenizer
    already."""
    return " ".join(" ".join(COMPOUND_PART.findall(name)) for name in _CAMEL.findall(text))


def _short(name: str) -> str:
    """`Flask.url_for` → `url_for`, lowercased: how a symbol is looked up."""
    return name.rsplit(".", 1)[-1].lower()


def forget_passages(conn: sqlite3.Connection, doc: int) -> None:
    conn.execute(
        "DELETE FROM passages WHERE rowid BETWEEN ? AND ?", (doc * MAX_PASSAGES, (doc + 1) * MAX_PASSAGES - 1)
    )
    conn.execute("DELETE FROM symbols WHERE doc = ?", (doc,))
    conn.execute("DELETE FROM calls WHERE doc = ?", (doc,))
