"""A proposal template's own words: the instructions a document written from it leaves in ("Add a list of
detailed use cases this enhancement intends to take care of.", "This RFC covers the detailed proposal for
this suggestion."), which are the template's text, never what the document says about its subject."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePosixPath

from .model import Document

# a template's file, or the folder holding it as its README: "0000-template.md", "proposal-template.md",
# "RFC_template.md", "TEMPLATE.md", "NNNN-template/README.md", "YYYYMMDD-template.md"; not a document about
# templates ("0278-template-only-components.md", "templates.md")
_TEMPLATE_NAME = re.compile(r"^[\w.-]{0,24}?template$", re.IGNORECASE)
_FOLDER_PAGES = frozenset({"readme", "index"})
# a sentence a document may share with another by chance ("None.", "To be decided.") is no template's
MIN_WORDS = 6


def is_template_name(path: str) -> bool:
    """Whether a file's path names a proposal template (its own name, or its folder's when it is the folder's
    README or index)."""
    pure = PurePosixPath(path)
    stem = pure.stem if pure.stem.lower() not in _FOLDER_PAGES else pure.parent.name
    return bool(_TEMPLATE_NAME.match(stem))


def template_text(template: Document) -> frozenset[str]:
    """The prose a template holds (paragraphs, list items, quotes), as its blocks read, whitespace aside."""
    return frozenset(
        _normal(block.text)
        for _, block in template.blocks()
        if block.kind != "code" and len(block.text.split()) >= MIN_WORDS
    )


def without_template(doc: Document, template: frozenset[str]) -> Document:
    """`doc` without the blocks its template holds word for word: its own text only."""
    if not template:
        return doc
    sections = tuple(
        replace(
            section,
            blocks=tuple(b for b in section.blocks if b.kind == "code" or _normal(b.text) not in template),
        )
        for section in doc.sections
    )
    return replace(doc, sections=sections)


def _normal(text: str) -> str:
    return " ".join(text.split())
