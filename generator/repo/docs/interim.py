"""A small reader of Markdown, MDX and reStructuredText into the shared document model's shapes (Document →
Section → Block, each with its lines), used until `generator.documents` is on main; reading.py picks that
package first. Same field names as the shared model, so the switch is an import.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token

BlockKind = Literal["paragraph", "item", "code", "table", "quote"]
_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\n(.*?)\n---[ \t]*\n", re.S)
_TITLE = re.compile(r"^title:\s*['\"]?(.*?)['\"]?\s*$", re.M)
_MDX_LINE = re.compile(r"^\s*(?:import\s.*from\s|export\s|</?[A-Z][\w.]*[^>]*>\s*$|<[A-Z][\w.]*[^>]*/>\s*$)")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_RST_CODE = re.compile(r"^\.\.\s+(?:code-block|code|sourcecode)::\s*(\S*)")
_RST_DIRECTIVE = re.compile(r"^\.\.\s")
_RST_ROLE = re.compile(r":[\w:+-]+:`([^`<]*?)\s*(?:<[^>]*>)?`")
_RST_LINK = re.compile(r"`([^`<]+?)\s*<[^>]*>`_{1,2}")
_RST_ITEM = re.compile(r"^(?:[-*+]|\d+\.|#\.)\s+")


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    text: str
    start: int
    end: int
    language: str = ""
    lead: str = ""


@dataclass(frozen=True)
class Section:
    heading: str
    path: tuple[str, ...]
    level: int
    start: int
    end: int
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Document:
    origin: str
    revision: str
    title: str
    status: str
    date: str
    language: str
    markup: str
    sections: tuple[Section, ...]

    def blocks(self) -> Iterator[tuple[Section, Block]]:
        for section in self.sections:
            for block in section.blocks:
                yield section, block

    def summary(self) -> str:
        return next((b.text for _, b in self.blocks() if b.kind == "paragraph"), "")


def read_text(
    text: str, *, name: str, origin: str = "", revision: str = "", markup: str | None = None
) -> Document:
    """`text` (named `name`, whose suffix tells its markup unless `markup` does) as a Document."""
    kind = markup or _markup_of(name)
    title, text = _frontmatter(text)
    sections = _rst_sections(text) if kind == "rst" else _markdown_sections(text, mdx=kind == "mdx")
    if not title:
        title = next((s.heading for s in sections if s.level >= 1), "")
    return Document(origin or name, revision, title, "", "", "en", kind, tuple(sections))


def _markup_of(name: str) -> str:
    lower = name.lower()
    if lower.endswith((".rst", ".rest")):
        return "rst"
    return "mdx" if lower.endswith(".mdx") else "markdown"


def _frontmatter(text: str) -> tuple[str, str]:
    """Its frontmatter's title, and the text with the frontmatter blanked (line numbers kept)."""
    match = _FRONTMATTER.match(text)
    if not match:
        return "", text
    title = _TITLE.search(match.group(1))
    return (title.group(1).strip() if title else ""), "\n" * match.group(0).count("\n") + text[match.end() :]


# --------------------------------------------------------------------------- markdown


class _Sections:
    """Sections as they are opened, each collecting its blocks."""

    def __init__(self) -> None:
        self.done: list[Section] = []
        self.heading, self.path, self.level, self.start = "", (), 0, 1  # type: tuple[str, tuple[str, ...], int, int]
        self.blocks: list[Block] = []

    def open(self, heading: str, level: int, line: int) -> None:
        self.close(line - 1)
        kept = tuple(self.path[: max(level - 1, 0)]) if level else ()
        self.heading, self.path, self.level, self.start = heading, (*kept, heading), level, line
        self.blocks = []

    def close(self, end: int) -> None:
        if self.blocks or self.heading:
            self.done.append(
                Section(
                    self.heading, self.path, self.level, self.start, max(end, self.start), tuple(self.blocks)
                )
            )


def _markdown_sections(text: str, mdx: bool = False) -> list[Section]:
    if mdx:
        text = "\n".join("" if _MDX_LINE.match(line) else line for line in text.split("\n"))
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    sections = _Sections()
    lead = ""
    depth = {"list": 0, "quote": 0}
    for i, token in enumerate(tokens):
        kind, span = token.type, token.map
        if kind == "heading_open" and span:
            sections.open(inline(tokens[i + 1]), int(token.tag[1:]), span[0] + 1)
        elif kind in ("bullet_list_open", "ordered_list_open"):
            depth["list"] += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth["list"] -= 1
        elif kind == "blockquote_open" and span:
            depth["quote"] += 1
            sections.blocks.append(Block("quote", _quote_text(tokens, i), span[0] + 1, span[1]))
        elif kind == "blockquote_close":
            depth["quote"] -= 1
        elif kind == "paragraph_open" and span and not depth["quote"]:
            words = inline(tokens[i + 1])
            if depth["list"]:
                sections.blocks.append(Block("item", words, span[0] + 1, span[1], lead=lead))
            elif words:
                sections.blocks.append(Block("paragraph", words, span[0] + 1, span[1]))
                lead = words
        elif kind in ("fence", "code_block") and span and not depth["quote"]:
            language = token.info.split()[0] if token.info.strip() else ""
            code = token.content.rstrip("\n")
            sections.blocks.append(Block("code", code, span[0] + 1, span[1], language=language, lead=lead))
        elif kind == "table_open" and span:
            sections.blocks.append(Block("table", _table_text(tokens, i), span[0] + 1, span[1]))
    sections.close(text.count("\n") + 1)
    return sections.done


def inline(token: Token) -> str:
    """An inline token's text: link text without its target, code spans with their backticks."""
    parts = []
    for child in token.children or ():
        if child.type == "text":
            parts.append(child.content)
        elif child.type == "code_inline":
            parts.append(f"`{child.content}`")
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return " ".join("".join(parts).split())


def _quote_text(tokens: list[Token], start: int) -> str:
    depth, words = 0, []
    for token in tokens[start:]:
        depth += token.nesting if token.type.startswith("blockquote") else 0
        if token.type == "inline":
            words.append(inline(token))
        if depth == 0:
            break
    return " ".join(words)


def _table_text(tokens: list[Token], start: int) -> str:
    rows: list[list[str]] = []
    for token in tokens[start:]:
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append(inline(token))
        elif token.type == "table_close":
            break
    return "\n".join(" | ".join(row) for row in rows)


# --------------------------------------------------------------------------- reStructuredText


def _rst_inline(text: str) -> str:
    text = _RST_LINK.sub(r"\1", _RST_ROLE.sub(r"`\1`", text))
    return " ".join(text.replace("``", "`").replace("**", "").split())


def _rst_sections(text: str) -> list[Section]:
    lines = text.split("\n")
    sections = _Sections()
    levels: list[str] = []  # underline characters in the order the document first uses them
    lead = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            line.strip()
            and not line.startswith(" ")
            and _RST_UNDERLINE.match(below)
            and len(below.strip()) >= len(line.strip())
        ):
            char = below.strip()[0]
            if char not in levels:
                levels.append(char)
            sections.open(_rst_inline(line), levels.index(char) + 1, i + 1)
            i += 2
            continue
        if not line.strip() or _RST_UNDERLINE.match(line):
            i += 1
            continue
        code = _RST_CODE.match(line)
        if code or _RST_DIRECTIVE.match(line):
            body_start, body_end = _indented_body(lines, i + 1)
            if code and body_end > body_start:
                body = _dedent(lines[body_start:body_end])
                sections.blocks.append(Block("code", body, body_start + 1, body_end, code.group(1), lead))
            i = max(body_end, i + 1)
            continue
        end = i
        while end < len(lines) and lines[end].strip() and not lines[end].startswith(" " * 3) or end == i:
            end += 1
        paragraph = " ".join(line.strip() for line in lines[i:end])
        kind: BlockKind = "item" if _RST_ITEM.match(line) else "paragraph"
        words = _rst_inline(
            _RST_ITEM.sub("", paragraph)
            if kind == "item"
            else paragraph.rstrip(":") + (":" if paragraph.endswith("::") else "")
        )
        sections.blocks.append(Block(kind, words, i + 1, end, lead=lead if kind == "item" else ""))
        if kind == "paragraph":
            lead = words
        i = end
        if paragraph.endswith("::"):
            body_start, body_end = _indented_body(lines, i)
            if body_end > body_start:
                sections.blocks.append(
                    Block("code", _dedent(lines[body_start:body_end]), body_start + 1, body_end, "", lead)
                )
                i = body_end
    sections.close(len(lines))
    return sections.done


def _indented_body(lines: list[str], start: int) -> tuple[int, int]:
    """The indented block after a directive or `::`, from its first to past its last non-blank line."""
    i = start
    while i < len(lines) and (
        not lines[i].strip() or lines[i].startswith((" ", "\t")) and ":" == lines[i].strip()[:1]
    ):
        i += 1
    first = i
    last = i
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
        if lines[i].strip():
            last = i + 1
        i += 1
    return first, last


def _dedent(lines: list[str]) -> str:
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return "\n".join(line[cut:] for line in lines).rstrip("\n")
