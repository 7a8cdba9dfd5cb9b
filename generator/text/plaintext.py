"""Markup to plain prose: what the analyst may quote from markdown, reStructuredText and our own KB pages.

Code blocks, tables, frontmatter, link targets and list and admonition markers are removed (markdown-it-py
parses the page); each paragraph or list item becomes one block, blocks separated by a blank line (a
sentence boundary for text/sentences.py). With `structure`, a document's headings (`## Heading`) and code
blocks (fenced) stay, each a block of its own: the whole text of a stored source, whose examples are often
the answer. `prose_ratio` tells a sentence from a run of symbols and paths.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import PurePosixPath

from markdown_it import MarkdownIt
from markdown_it.token import Token

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkd", ".html", ".htm"})  # html: as markdown
RST_SUFFIXES = frozenset({".rst", ".rest"})

_FRONTMATTER = re.compile(r"\A\ufeff?(?:---|\+\+\+)[ \t]*\n.*?\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_ADMONITION = re.compile(r"^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+\"[^\"\n]*\")?[ \t]*$")
_CITATION_TEXT = re.compile(r"^\s*\[?\s*\d{1,4}\s*\]?\s*$")  # a link whose text is "[3]" cites, says nothing
_FOOTNOTE_REF = re.compile(r"\[\^[^\]\s]{1,40}\]")
_BLANK_RUNS = re.compile(r"[ \t\u00a0]+")
_SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:!?])(?=\s|$)")


def markup_of(name: str) -> str:
    """'markdown', 'rst' or 'text' for a document name or URL, by its suffix."""
    suffix = PurePosixPath(name.split("?", 1)[0].split("#", 1)[0]).suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    return "rst" if suffix in RST_SUFFIXES else "text"


def to_plain(
    text: str, markup: str = "markdown", *, drop_admonitions: bool = False, structure: bool = False
) -> str:
    """Plain prose blocks (one paragraph or list item each, blank-line separated) of a marked-up text; with
    `structure`, headings and code blocks too."""
    if markup == "rst":
        text = rst_to_markdown(text)
    elif markup != "markdown":
        return text.strip()
    text = _FRONTMATTER.sub("", text, count=1)
    text = unwrap_admonitions(text, drop=drop_admonitions)
    tokens = markdown_parser().parse(text)
    if structure:
        whole = [
            b for b in _structured_blocks(tokens) if b.startswith(("#", "```")) or not is_symbol_entry(b)
        ]
        return "\n\n".join(whole)
    blocks = (_clean_block(block) for block in _blocks(tokens))
    kept = (block for block in blocks if block and not is_symbol_entry(block))
    return "\n\n".join(dict.fromkeys(kept))  # a page repeating its lead paragraph says it once


def _structured_blocks(tokens: list[Token]) -> Iterator[str]:
    """Prose blocks as `_blocks` gives them, plus headings (`#` × level) and code blocks (fenced, their
    blank lines kept inside the fence as one block); tables stay out."""
    heading = 0
    in_table = False
    for token in tokens:
        if token.type in ("table_open", "table_close"):
            in_table = token.type == "table_open"
        elif in_table:
            continue
        elif token.type == "heading_open":
            heading = int(token.tag[1:])
        elif token.type == "heading_close":
            heading = 0
        elif token.type in ("fence", "code_block") and token.content.strip():
            fence = "`" * max([3, *(len(run) + 1 for run in re.findall(r"`+", token.content))])
            code = token.content.rstrip("\n").replace("\n\n", "\n\u00a0\n")  # no blank line inside
            language = re.sub(r"[^\w+-]", "", (token.info or "").split(" ")[0])[:20]
            yield f"{fence}{language}\n{code}\n{fence}"
        elif token.type == "inline":
            block = _clean_block(inline_text(token.children or []))
            if block:
                yield f"{'#' * heading} {block}" if heading else block


@lru_cache(maxsize=1)
def markdown_parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    # Every link target is dropped, never rendered: parse `[text](javascript:…)` as a link too, so that its
    # target goes with the others instead of staying behind as literal text.
    parser.validateLink = lambda url: True  # type: ignore[method-assign]
    return parser


# Block tokens whose content is never prose: headings are labels, tables are data, html is markup.
_SKIPPED_BLOCKS = {"heading_open": "heading_close", "table_open": "table_close"}


def _blocks(tokens: list[Token]) -> Iterator[str]:
    """The text of every inline run outside headings and tables (fences and code blocks are never inline)."""
    closing: str | None = None
    for token in tokens:
        if closing:
            closing = None if token.type == closing else closing
            continue
        if token.type in _SKIPPED_BLOCKS:
            closing = _SKIPPED_BLOCKS[token.type]
        elif token.type == "inline":
            yield inline_text(token.children or [])


_MYST_ROLE = re.compile(r"\{[\w:.+-]+\}$")  # `{func}` before a code span: a MyST role naming that code


def inline_text(children: list[Token], code: bool = False) -> str:
    """Inline markup to text: link text without its target, code spans as their text (in backticks with
    `code`; a MyST role's `{func}` before one dropped), images and html dropped."""
    parts: list[str] = []
    link_start: int | None = None
    for child in children:
        kind = child.type
        if kind == "link_open":
            link_start = len(parts)
        elif kind == "link_close" and link_start is not None:
            if _CITATION_TEXT.match("".join(parts[link_start:])):
                del parts[link_start:]
            link_start = None
        elif kind == "code_inline":
            if parts and _MYST_ROLE.search(parts[-1]):
                parts[-1] = _MYST_ROLE.sub("", parts[-1])
            parts.append(f"`{child.content}`" if code and "`" not in child.content else child.content)
        elif kind == "text":
            parts.append(child.content)
        elif kind in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)  # an image token carries its alt text as its own children: dropped with it


def _clean_block(block: str) -> str:
    block = _FOOTNOTE_REF.sub("", block).replace("`", "")  # a stray backtick is markup that lost its pair
    block = _BLANK_RUNS.sub(" ", " ".join(block.split())).strip()
    return _SPACE_BEFORE_STOP.sub(r"\1", block)  # where a dropped citation or image left a gap


SYMBOL_RATIO = 0.5  # below this share of ordinary words a block is a symbol listing, not prose
_ENTRY_HEAD = re.compile(r"^(.{1,160}?)(?:\s[—–-]\s|:\s)")


def is_symbol_entry(block: str) -> bool:
    """A block that is mostly symbols and paths, or an entry whose term is one (`name (function) path:1-9 —
    what it does`, an API listing): neither says anything a report can quote as a finding."""
    if prose_ratio(block) < SYMBOL_RATIO:
        return True
    head = _ENTRY_HEAD.match(block)
    return head is not None and prose_ratio(head.group(1)) < SYMBOL_RATIO


def unwrap_admonitions(text: str, *, drop: bool = False) -> str:
    """MkDocs admonitions (`!!! note "Title"` + an indented body): the marker goes; the body is dedented
    into ordinary paragraphs, or dropped with `drop` (our own pages' admonitions are notices, not content)."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _ADMONITION.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        indent = len(match.group(1).expandtabs(4))
        i += 1
        body: list[str] = []
        while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > indent):
            body.append(lines[i])
            i += 1
        out.append("")
        if not drop:
            out.extend(_dedent(line, indent + 4) for line in body)
        out.append("")
    return "\n".join(out)


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _dedent(line: str, width: int) -> str:
    expanded = line.expandtabs(4)
    return expanded[min(width, _indent(line)) :]


# --------------------------------------------------------------------------- reStructuredText

_RST_ADMONITIONS = frozenset(
    "note warning tip important hint caution attention danger error seealso admonition topic sidebar".split()
)
_RST_EXPLICIT = re.compile(r"^([ \t]*)\.\.(?:[ \t]+([\w:-]+)::[ \t]*(.*)|[ \t].*)?$")  # directive, comment
_RST_OPTION = re.compile(r"^:[\w-]+:(?:\s|$)")
_RST_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+<>:._])\1{2,}[ \t]*$")
_RST_ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`]+)`")
_RST_LINK = re.compile(r"`([^`<]+?)\s*(?:<[^>`]*>)?`__?")
_RST_TARGET_TEXT = re.compile(r"\s*<[^>]*>$")
_RST_FIELD = re.compile(r"^([ \t]*):[\w ().-]{1,40}:(?:[ \t]+|$)")
_RST_SUBSTITUTION = re.compile(r"\|([\w -]{1,40})\|")


def rst_to_markdown(text: str) -> str:
    """A careful reStructuredText → markdown pass, just enough for to_plain: directives other than
    admonitions dropped with their bodies, section adornments turned into headings, roles and hyperlink
    references reduced to their text, literal blocks (after `::`) left indented so they parse as code."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        directive = _RST_EXPLICIT.match(line)
        if directive:
            i = _rst_directive(lines, i, directive, out)
            continue
        if _RST_ADORNMENT.match(line.strip()) and line.strip():
            if out and out[-1].strip() and not out[-1].startswith("#"):
                out[-1] = f"## {out[-1].strip()}"  # the title above its underline
            i += 1
            continue
        out.append(_rst_inline(line))
        i += 1
    return "\n".join(out)


def _rst_directive(lines: list[str], i: int, match: re.Match[str], out: list[str]) -> int:
    indent = len(match.group(1).expandtabs(4))
    name = (match.group(2) or "").lower()
    keep = name in _RST_ADMONITIONS  # an admonition's body is prose; code, images, targets, comments are not
    title = (match.group(3) or "").strip() if keep and name in ("admonition", "topic", "sidebar") else ""
    i += 1
    out.append("")
    if title:
        out.append(_rst_inline(title))
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > indent):
        if keep and not _RST_OPTION.match(lines[i].strip()):
            out.append(_rst_inline(_dedent(lines[i], _indent(lines[i]))))
        i += 1
    out.append("")
    return i


def _rst_inline(line: str) -> str:
    line = _RST_ROLE.sub(lambda m: _RST_TARGET_TEXT.sub("", m.group(1)), line)
    line = _RST_LINK.sub(lambda m: m.group(1), line)
    line = _RST_SUBSTITUTION.sub(lambda m: m.group(1), line)
    line = _RST_FIELD.sub(lambda m: m.group(1), line)
    stripped = line.rstrip()
    if stripped.endswith("::"):  # "Example::" introduces a literal block: keep "Example:"
        line = stripped[:-1] if len(stripped) > 2 and stripped[-3] != " " else stripped[:-2]
    return line


# --------------------------------------------------------------------------- prose or symbols

_WORDLIKE = re.compile(
    r"[(\[\"'“‘«]*(?:[A-Za-z][a-z]*(?:[-'’][A-Za-z][a-z]*)*|\d+(?:[.,]\d+)*%?)[)\]\"'”’»]*[.,;:!?…]*[)\]\"'”’»]*"
)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_ALNUM = re.compile(r"\w")


def prose_ratio(sentence: str) -> float:
    """Share of a sentence's characters that sit in ordinary words or numbers (CJK characters count as words):
    paths, identifiers and markup are not something a reader can be told as a finding."""
    good = total = 0
    for token in sentence.split():
        if not _ALNUM.search(token):
            continue  # a dash or a bullet alone is punctuation, not a symbol
        total += len(token)
        if _WORDLIKE.fullmatch(token):
            good += len(token)
        else:
            good += len(_CJK.findall(token)) + sum(1 for ch in token if ch in "，。、；：？！（）“”")
    return good / total if total else 0.0
