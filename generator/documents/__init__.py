"""One document model, and one reader per format that produces it.

`read_text` and `read_bytes` turn a file (Markdown, MDX, reStructuredText, HTML, PDF, plain text) or a doc
comment into a `Document`: its title, status and date (front matter and headers are read here, once), and
its sections of blocks, each block with its 1-based line span in the source so it can be cited as
`path:start-end`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from .budget import Budget
from .comment import comment_text
from .docstring import read_docstring
from .header import (
    BOM,
    Header,
    blank_frontmatter,
    clean_heading,
    is_reference_part,
    is_section_name,
    opens_body,
    read_header,
    stated_field,
    title_from_name,
)
from .home import description_block, home_blocks
from .included import without_includes
from .markdown import read_markdown
from .model import Block, Document, Section
from .rst import read_rst, rst_as_markdown
from .standing import name_status, section_status
from .text import read_plain

__all__ = [
    "Block",
    "Budget",
    "Document",
    "Section",
    "comment_text",
    "markup_of",
    "read_bytes",
    "read_file",
    "read_text",
    "stated_field",
    "stated_title",
    "title_from_name",
]

SUFFIXES = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".mkd": "markdown",
    ".mdx": "mdx",
    ".rst": "rst",
    ".rest": "rst",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
}
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


def markup_of(name: str) -> str:
    """The markup a document name or URL says it is written in, by its suffix ("text" by default)."""
    suffix = PurePosixPath(name.split("?", 1)[0].split("#", 1)[0]).suffix.lower()
    return SUFFIXES.get(suffix, "text")


def read_text(
    text: str,
    *,
    name: str,
    origin: str = "",
    revision: str = "",
    markup: str | None = None,
    includes: bool = False,
) -> Document:
    """The document a text holds; `markup` defaults to what `name`'s suffix says. A block that only
    includes another file is kept, holding its marker, with `includes` (for a reader of that file: the
    repository's docs stage), else left out."""
    markup = markup or markup_of(name)
    text = text.lstrip(BOM).replace("\r\n", "\n").replace("\r", "\n")
    if markup == "html":
        from .html import read_html

        page_title, sections = read_html(text, origin if "://" in origin else "")
        return _document(Header(title=clean_heading(page_title)), sections, name, origin, revision, markup)
    header = read_header(text)
    frontmatter, body = blank_frontmatter(text)
    sections = _READERS.get(markup, read_plain)(body)
    if markup in ("markdown", "mdx") and (home := home_blocks(frontmatter)):
        sections = _opened_by(sections, home)
    elif (
        markup in ("markdown", "mdx")
        and not _says_first(sections)
        and (said := description_block(frontmatter, header.title))
    ):
        sections = _opened_by(sections, (said,))
    if not includes:
        sections = without_includes(sections)
    return _document(header, sections, name, origin, revision, markup)


def _says_first(sections: tuple[Section, ...]) -> bool:
    """Whether the body says something before its first section: a paragraph under its title or none — a
    build directive's line (Arco's `@import ./__demo__/basic.md`, one per demo) says nothing."""
    opening = [s for s in sections[:2] if s.level <= 1]
    return any(b.kind == "paragraph" and not _DIRECTIVE.match(b.text) for s in opening for b in s.blocks)


_DIRECTIVE = re.compile(r"^@[a-z]+[ \t]+\S+$")


def _opened_by(sections: tuple[Section, ...], blocks: tuple[Block, ...]) -> tuple[Section, ...]:
    """`sections` with `blocks` (a home page's hero and features) opening the document's preamble."""
    start, end = blocks[0].start, max(b.end for b in blocks)
    if sections and not sections[0].heading:
        first = sections[0]
        opened = Section("", (), 0, start, max(end, first.end), (*blocks, *first.blocks))
        return (opened, *sections[1:])
    return (Section("", (), 0, start, end, blocks), *sections)


def read_bytes(
    data: bytes, *, name: str, origin: str = "", revision: str = "", budget: Budget | None = None
) -> Document:
    """The document a file's bytes hold: a PDF is read under `budget`, text is decoded as UTF-8."""
    markup = markup_of(name)
    if markup == "pdf":
        from .pdf import read_pdf

        title, sections = read_pdf(data, budget or Budget())
        return _document(Header(title=clean_heading(title)), sections, name, origin, revision, markup)
    return read_text(data.decode("utf-8", errors="replace"), name=name, origin=origin, revision=revision)


_READERS: dict[str, Callable[[str], tuple[Section, ...]]] = {
    "markdown": lambda text: read_markdown(text, rst=rst_as_markdown),
    "mdx": lambda text: read_markdown(text, mdx=True, rst=rst_as_markdown),
    "rst": lambda text: read_rst(text, file=True),
    "text": read_plain,
    "docstring": read_docstring,
}


def read_file(path: Path, *, origin: str = "", revision: str = "", budget: Budget | None = None) -> Document:
    """The document in a file (OSError when it cannot be read)."""
    return read_bytes(path.read_bytes(), name=path.name, origin=origin, revision=revision, budget=budget)


def stated_title(doc: Document) -> str:
    """The title the document gives itself: "" when its title was made from its file name."""
    return "" if doc.title == title_from_name(PurePosixPath(doc.origin).stem) else doc.title


def _document(
    header: Header, sections: tuple[Section, ...], name: str, origin: str, revision: str, markup: str
) -> Document:
    stem = PurePosixPath(name).stem
    title = header.title or _heading_title(sections, markup, stem) or title_from_name(_name_of(stem, origin))
    return Document(
        origin=origin or name,
        revision=revision,
        title=title,
        status=header.status or section_status(sections) or name_status(stem),
        date=header.date,
        language=language_of(sections),
        markup=markup,
        sections=sections,
    )


def _name_of(stem: str, origin: str) -> str:
    """The name a file goes by: its folder's for a folder's README or index page ("resize-box/README.zh-CN.md"
    is the resize-box page), else its own."""
    folder = PurePosixPath(origin).parent.name
    return folder if folder and stem.split(".")[0].lower() in ("readme", "index") else stem


def _heading_title(sections: tuple[Section, ...], markup: str, stem: str = "") -> str:
    """The first level-1 heading (Markdown), else the first heading, unless it names a section — but a
    section name the file is named after ("Introduction" in intro.rst) is its title."""
    if markup in ("text", "pdf", "docstring"):
        return ""
    titled = [s for s in sections if s.heading]
    top = [s for s in titled if s.level == 1] if markup in ("markdown", "mdx", "html") else []
    first = (top or titled)[0].heading if titled else ""
    named_after = len(stem) >= 3 and first.lower().startswith(stem.lower())
    if markup in ("markdown", "mdx") and not top and is_reference_part(first) and not named_after:
        return ""  # "## API" opening a page whose title the site keeps elsewhere: the file names it
    if (
        markup in ("markdown", "mdx")
        and titled
        and not top
        and titled[0].level >= 3
        and _opens_on_prose(sections)
    ):
        return ""  # a fragment other pages include under their heading: its "#### Definitions" is a part
    return _opening_title(titled) if is_section_name(first) and not named_after else first


def _opens_on_prose(sections: tuple[Section, ...]) -> bool:
    """Whether a text says something before its first heading: a paragraph ending as a sentence does
    (matrix-spec's room version fragments open on "The room state S′(E) after an event E is defined…")."""
    opening = sections[0] if sections and not sections[0].heading else None
    return opening is not None and any(
        b.kind == "paragraph" and _SENTENCE_END.search(b.plain.rstrip()) for b in opening.blocks
    )


_SENTENCE_END = re.compile(r"[.!?。！？:：]$")


def _opening_title(titled: list[Section]) -> str:
    """The heading that titles a document above the first part of its body, when its first top-level
    heading names a part or a banner: an EEP's "EEP 49: …" (set with `----` under its header block, above
    `Abstract` set with `====`), a GraphQL RFC's "RFC: Schema Coordinates" under a `# Status` banner."""
    for section in titled:
        if opens_body(section.heading):
            return ""
        if not is_section_name(section.heading):
            return section.heading
    return ""


def language_of(sections: tuple[Section, ...], sample: int = 4000) -> str:
    """The language of the text: "zh" when Han characters outweigh Latin letters, else "en"."""
    text = "".join(b.text for s in sections for b in s.blocks[:20])[:sample]
    return "zh" if len(_HAN.findall(text)) * 4 >= max(len(_LATIN.findall(text)), 1) else "en"
