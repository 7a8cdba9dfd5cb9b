"""A document as the plain prose an analyst may quote: one block a paragraph, blank-line separated (a
sentence boundary for the sentence splitter). With `structure`, headings (`## Heading`) and code blocks
(fenced) stay too: the whole text of a stored source, whose examples are often the answer."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .markdown import drop_admonitions as without_admonitions
from .model import Block, Document, Section
from .prose import is_symbol_entry

_LANGUAGE = re.compile(r"[^\w+-]")


def plain_prose(doc: Document, *, structure: bool = False) -> str:
    """The document's prose blocks (paragraphs, items, quotes; never tables), with `structure` its
    headings and code blocks too; symbol listings left out. Plain text and PDFs have no markup to tell a
    listing by: their paragraphs are kept as they are."""
    if doc.markup in ("text", "pdf"):
        return "\n\n".join(block.text for _, block in doc.blocks())
    if not structure:
        kept = (text for _, block in doc.blocks() for text in _prose(block) if not is_symbol_entry(text))
        return "\n\n".join(dict.fromkeys(kept))  # a page repeating its lead paragraph says it once
    return "\n\n".join(_structured(doc))


def markup_prose(
    text: str, markup: str = "markdown", *, drop_admonitions: bool = False, structure: bool = False
) -> str:
    """`plain_prose` of a text in `markup`; plain text is returned as it is. HTML and PDF arrive as the
    text already extracted from them (Markdown and plain text)."""
    from . import read_text

    if markup in ("text", "pdf"):
        return text.strip()
    markup = "markdown" if markup == "html" else markup
    if drop_admonitions:
        text = without_admonitions(text)
    return plain_prose(read_text(text, name="", markup=markup), structure=structure)


def section_prose(section: Section) -> str:
    """A section's prose blocks, blank-line separated (no heading, code or tables)."""
    return "\n\n".join(text for block in section.blocks for text in _prose(block))


def _structured(doc: Document) -> Iterator[str]:
    for section in doc.sections:
        if section.heading:
            yield f"{'#' * section.level} {section.heading}"
        for block in section.blocks:
            if block.kind == "code":
                yield _fenced(block)
            else:
                yield from (text for text in _prose(block) if not is_symbol_entry(text))


def _prose(block: Block) -> list[str]:
    """A block's prose: each paragraph of a quote or an item on its own, code spans without their backticks."""
    if block.kind in ("code", "table"):
        return []
    pieces = block.text.split("\n\n")  # a quote's or an item's paragraphs
    return [cleaned for piece in pieces if (cleaned := " ".join(piece.replace("`", "").split()))]


def _fenced(block: Block) -> str:
    fence = "`" * max([3, *(len(run) + 1 for run in re.findall(r"`+", block.text))])
    code = block.text.replace("\n\n", "\n\u00a0\n")  # no blank line inside: the block stays one block
    return f"{fence}{_LANGUAGE.sub('', block.language)[:20]}\n{code}\n{fence}"
