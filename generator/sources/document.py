"""A document's own title and outline, whatever its format, for search providers that read files.

The title is what the document calls itself (reST title or `Title:` header, frontmatter, an RFC's `Feature
Name:`, first H1, HTML `og:title`/`<title>`, PDF metadata), else its file name, never a section heading
("Summary") or a status banner; the outline (headings with their text) lets search weigh a heading above a
passing mention. A proposal's status and date come from its header fields or frontmatter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..documents.header import MAX_TITLE, header_fields, iso_date, title_from_name
from ..text.htmlpage import html_title
from ..text.pagetext import html_to_markdown, pdf_to_text
from ..text.plaintext import markdown_parser, markup_of, rst_to_markdown

_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_FRONTMATTER_TITLE = re.compile(r"^title:[ \t]*(.+?)[ \t]*$", re.M)
# RFC 822-style headers at the top of a document (PEPs, many proposals): "PEP: 639" … "Title: …"
_HEADER_LINE = re.compile(r"^[A-Z][A-Za-z-]{1,30}:[ \t]")
_HEADER_TITLE = re.compile(r"^Title:[ \t]*(.+)$")
STATUSES = (
    "superseded",
    "withdrawn",
    "rejected",
    "deferred",
    "accepted",
    "provisional",
    "final",
    "draft",
    "active",
)
_STATUS_FIELDS = {"status", "state", "stage"}
_DATE_FIELDS = {"created", "date", "start date", "published", "resolution date", "last-modified"}
_FEATURE_NAME = {"feature name", "feature-name"}
# Section names and banners that open a document without being its title.
_NOT_A_TITLE = re.compile(
    r"^(?:summary|abstract|introduction|overview|motivation|background|contents|table of contents|preamble|"
    r"rationale|status|notice|note|warning|important|deprecated|draft|" + "|".join(STATUSES) + r")\W*$",
    re.I,
)


@dataclass
class Section:
    """One heading (empty for the text before the first) and the text under it."""

    heading: str
    text: str
    level: int = 0  # 1 for a title (`#`, `===` underline), 2 and deeper for sections; 0 before any heading


@dataclass
class Document:
    """What a file says about itself: its title, its sections, and its text as it was read."""

    title: str
    text: str
    sections: list[Section] = field(default_factory=list)
    status: str = ""  # one of STATUSES, when the document states it
    date: str = ""  # ISO date (YYYY-MM-DD) the document states it was created, when it does

    @property
    def headings(self) -> list[str]:
        return [s.heading for s in self.sections if s.heading]


def read_document(path: Path) -> Document:
    """Title, text and outline of one md, rst, txt, html or pdf file; the title falls back to the file name."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        title, text = pdf_to_text(path.read_bytes())
        doc = Document(title=title, text=text, sections=[Section("", text)])
    elif suffix in {".html", ".htm"}:
        raw = path.read_text(encoding="utf-8", errors="replace")
        text = html_to_markdown(raw, fast=True)
        doc = Document(title=html_title(raw), text=text, sections=outline(text, "markdown"))
    else:
        text = path.read_text(encoding="utf-8", errors="replace")
        markup = markup_of(path.name)
        sections = outline(text, markup)
        doc = Document(title=document_title(text, markup, sections), text=text, sections=sections)
    doc.title = " ".join(doc.title.split())[:MAX_TITLE] or title_from_name(path.stem)
    doc.status, doc.date = document_status(doc.text)
    return doc


def document_status(text: str) -> tuple[str, str]:
    """(status, ISO date) the document's header fields state ('' for either it does not)."""
    fields = header_fields(text)
    status = next((fields[name] for name in _STATUS_FIELDS if name in fields), "").lower()
    found = next((word for word in STATUSES if re.search(rf"\b{word}\b", status)), "")
    date = next((iso for name in _DATE_FIELDS if name in fields and (iso := iso_date(fields[name]))), "")
    return found, date


def document_title(text: str, markup: str, sections: list[Section] | None = None) -> str:
    """The title the text gives itself ('' when it gives none)."""
    header = _header_title(text)
    if header:
        return header
    if markup == "markdown":
        front = _FRONTMATTER.match(text)
        found = _FRONTMATTER_TITLE.search(front.group(1)) if front else None
        if found:
            return found.group(1).strip().strip("'\"")
    feature = next((v for k, v in header_fields(text, 20).items() if k in _FEATURE_NAME), "")
    if re.fullmatch(r"[\w:-]+(?: [\w:-]+){0,8}", feature) and feature.lower() not in {"n/a", "none", "na"}:
        return feature.replace("_", " ")
    titled = [s for s in (sections if sections is not None else outline(text, markup)) if s.heading]
    top = [s for s in titled if s.level == 1] if markup == "markdown" else []
    first = (top or titled)[0].heading if titled else ""
    # a document that opens on a section name ("# Summary", then "# Motivation") has no title heading
    return "" if _NOT_A_TITLE.match(first) else first


def _header_title(text: str) -> str:
    """`Title:` from a header block that opens the document (every line before it is a header too)."""
    for line in text.lstrip("\ufeff").splitlines()[:40]:
        found = _HEADER_TITLE.match(line)
        if found:
            return found.group(1).strip()
        if not _HEADER_LINE.match(line) and not line.startswith((" ", "\t")):
            return ""
    return ""


def outline(text: str, markup: str) -> list[Section]:
    """The text cut at its top-level headings, as markdown-it reads them (reStructuredText section
    adornments become headings first)."""
    if markup == "text":
        return [Section("", text)]
    lines = (rst_to_markdown(text) if markup == "rst" else _FRONTMATTER.sub("", text, count=1)).splitlines()
    tokens = markdown_parser().parse("\n".join(lines))
    sections, start = [Section("", "")], 0
    for opened, inline in zip(tokens, tokens[1:], strict=False):
        if opened.type == "heading_open" and opened.level == 0 and opened.map:
            sections[-1].text = "\n".join(lines[start : opened.map[0]]).strip()
            sections.append(Section(_clean_heading(inline.content), "", int(opened.tag[1:])))
            start = opened.map[1]
    sections[-1].text = "\n".join(lines[start:]).strip()
    return [s for s in sections if s.heading or s.text]


def _clean_heading(text: str) -> str:
    """A heading's words as written: code and strong markers dropped, a link reduced to its words, any HTML
    kept as text (a document titled `<img …>` is searched by those words, not rendered)."""
    text = re.sub(r"`+|\*\*|__", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.split())
