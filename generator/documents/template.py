"""A proposal template's own words: the instructions a document written from it leaves in ("Add a list of
detailed use cases this enhancement intends to take care of.", "This RFC covers the detailed proposal for
this suggestion."), which are the template's text, never what the document says about its subject."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from .header import title_from_name
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


@dataclass(frozen=True)
class Template:
    """What a collection's templates hold: their titles and their prose."""

    titles: frozenset[str] = frozenset()
    text: frozenset[str] = frozenset()


def template_of(templates: Iterable[Document]) -> Template:
    """The titles and the prose (paragraphs, list items, quotes, as their blocks read, whitespace aside) of a
    collection's templates."""
    found = list(templates)
    headings = (s.heading for t in found for s in t.sections if s.level == 1)  # "# Neat Enhancement Idea"
    return Template(
        frozenset(title for title in (*(t.title for t in found), *headings) if title),
        frozenset(
            _normal(block.text)
            for t in found
            for _, block in t.blocks()
            if block.kind != "code" and len(block.text.split()) >= MIN_WORDS
        ),
    )


def without_template(doc: Document, template: Template, name: str) -> Document:
    """`doc` without the blocks its template holds word for word (`_normal`): its own text only. A title kept from the
    template ("Neat-enhancement-idea" in Argo CD's front matter, "Proposal Template" in OpenKruise's) names no
    document: its own first heading does, else its file's name."""
    sections = tuple(
        replace(
            section,
            blocks=tuple(
                b for b in section.blocks if b.kind == "code" or _normal(b.text) not in template.text
            ),
        )
        for section in doc.sections
    )
    title = doc.title
    if title in template.titles:
        headings = (s.heading for s in doc.sections if s.level == 1 and s.heading)
        title = next((h for h in headings if h not in template.titles), "") or title_from_name(
            PurePosixPath(name).stem
        )
    return replace(doc, sections=sections, title=title)


def _normal(text: str) -> str:
    """A block's words as a reader sees them: spacing and code-span backticks aside (Cluster API's proposals
    keep "The Alternatives section is used to highlight…" from a template writing "The `Alternatives`
    section…")."""
    return " ".join(text.replace("`", "").split())
