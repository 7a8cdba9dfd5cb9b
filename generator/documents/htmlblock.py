"""The prose of an HTML block inside Markdown: the `<p>` paragraphs a README centres under its logo ("A fast,
cross-platform build tool inspired by Make", httpx's "A next-generation HTTP client for Python"), or a
`<div>`'s own text, are what the project says it is. Markdown leaves an HTML block unread; a paragraph of
words (not a row of badges or links) is read as a paragraph on its own lines, and a `<table>` as its rows'
cells, as a Markdown table is. Read as data by the standard library's parser: never run, never rendered."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

MIN_WORDS = 4  # fewer is a label or a button, not a sentence
_WORD = re.compile(r"\w[\w'’.-]*")
# small print (a sponsor note in `<sup>`, a caption in `<sub>`) is no sentence of the project
_SKIPPED = frozenset({"script", "style", "table", "code", "pre", "svg", "noscript", "sup", "sub", "small"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


@dataclass(frozen=True)
class HtmlParagraph:
    text: str
    start: int  # 0-based line within the block
    end: int


def html_paragraphs(markup: str) -> list[HtmlParagraph]:
    """The `<p>` paragraphs (and the text a `<div>` holds outside any) of an HTML block that say something in
    words, most of them outside links; never a heading's text."""
    reader = _Paragraphs()
    try:
        reader.feed(markup)
        reader.close()
    except (AssertionError, ValueError):  # markup the parser gives up on says nothing it could read
        return []
    return reader.found


@dataclass(frozen=True)
class HtmlTable:
    rows: tuple[tuple[str, ...], ...]  # each row's cells, the first row first
    start: int  # 0-based line within the block
    end: int


# a template's interpolation ("{{font_size_small}} Small" in Element's typography table): a value the page
# computes when it renders, no word of the source
_INTERPOLATION = re.compile(r"\{\{.*?\}\}")


def html_tables(markup: str) -> list[HtmlTable]:
    """The `<table>`s of an HTML block (a nested table's cells read as its outer cell's words), each as its
    rows of cell texts; rows holding no word are left out."""
    reader = _Tables()
    try:
        reader.feed(markup)
        reader.close()
    except (AssertionError, ValueError):
        return []
    return reader.found


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[HtmlTable] = []
        self.depth = 0
        self.start = 0
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.depth += 1
            if self.depth == 1:
                self.start, self.rows = self.getpos()[0] - 1, []
        elif tag in ("script", "style"):
            self.skipping += 1
        elif self.depth == 1 and tag == "tr":
            self._close_cell()
            self.rows.append([])
        elif self.depth == 1 and tag in ("td", "th") and self.rows:
            self._close_cell()
            self.cell = []
        elif tag == "br" and self.cell is not None:
            self.cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping = max(0, self.skipping - 1)
        elif self.depth == 1 and tag in ("td", "th", "tr"):
            self._close_cell()
        elif tag == "table" and self.depth:
            self.depth -= 1
            if not self.depth:
                self._close_cell()
                rows = tuple(tuple(row) for row in self.rows if any(row))
                if rows:
                    self.found.append(HtmlTable(rows, self.start, self.getpos()[0] - 1))

    def handle_data(self, data: str) -> None:
        if self.cell is not None and not self.skipping:
            self.cell.append(data)

    def _close_cell(self) -> None:
        if self.cell is not None and self.rows:
            self.rows[-1].append(" ".join(_INTERPOLATION.sub(" ", "".join(self.cell)).split()))
        self.cell = None


@dataclass
class _Open:
    start: int
    words: list[str] = field(default_factory=list)
    linked: int = 0  # words inside links


class _Paragraphs(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[HtmlParagraph] = []
        self.open: _Open | None = None
        self.links = 0
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag in ("p", "div"):  # bree centres its tagline as a `<div>`'s own text, without a `<p>`
            self._close()
            self.open = _Open(self.getpos()[0] - 1)
        elif tag in _HEADINGS:  # a title centred under the logo is no sentence
            self._close()
        elif tag == "a":
            self.links += 1
        elif tag == "br" and self.open:
            self.open.words.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag == "a":
            self.links = max(0, self.links - 1)
        elif tag in ("p", "div", "td") or tag in _HEADINGS:
            self._close()

    def handle_data(self, data: str) -> None:
        if self.open is None or self.skipping:
            return
        self.open.words.append(data)
        if self.links:
            self.open.linked += len(_WORD.findall(data))

    def _close(self) -> None:
        opened, self.open = self.open, None
        if opened is None:
            return
        text = " ".join("".join(opened.words).split())
        words = len(_WORD.findall(text))
        if words >= MIN_WORDS and opened.linked * 2 < words:
            self.found.append(HtmlParagraph(text, opened.start, self.getpos()[0] - 1))
