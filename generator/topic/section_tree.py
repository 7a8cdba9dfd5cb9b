"""A stored text as the tree of its sections: each heading with its level, the blocks under it and the
headings it stands under; the sections no longer in force, the largest first, a block of prose."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..documents.standing import marked_old
from .sentences import _FENCE, text_blocks

HEADING_LINE = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$")


@dataclass(frozen=True)
class TextSection:
    """One section of a stored text: its heading, its depth, and its blocks (paragraphs, fenced code) as
    stored, up to the next heading of any level."""

    heading: str
    level: int
    blocks: tuple[str, ...]


@dataclass(frozen=True)
class SectionPassage:
    """A passage that opens a section treating a facet: whole paragraphs, or a lead-in with its example."""

    text: str
    parts: tuple[str, ...]  # its sentences, as `clean` gives them
    heading: str
    code: str = ""
    items: tuple[str, ...] = ()  # the list the passage introduces (sentences.list_quote)


def text_sections(text: str) -> list[TextSection]:
    """A stored text cut at its `#` heading lines (a heading inside a fenced block is code, not a heading)."""
    found: list[TextSection] = []
    heading, level, blocks = "", 0, []
    for block in text_blocks(text):
        first, _, rest = block.partition("\n")
        match = HEADING_LINE.match(first) if not block.startswith(("```", "~~~")) else None
        if match is None:
            blocks.append(block)
            continue
        if heading or blocks:
            found.append(TextSection(heading, level, tuple(blocks)))
        heading, level, blocks = match.group(2).strip(), len(match.group(1)), []
        if rest.strip():
            blocks.append(rest.strip())
    if heading or blocks:
        found.append(TextSection(heading, level, tuple(blocks)))
    return found


def with_example_below(sections: Sequence[TextSection], n: int) -> TextSection:
    """Section `n`, with the example its closing lead-in introduces when that example opens its first
    subsection ("…Join Preload will loads association data using left join, for example:" closing "#### Joins
    预加载", and "##### Generics API" opening on the code): the lead-in is quoted with what it introduces."""
    section = sections[n]
    below = sections[n + 1] if n + 1 < len(sections) else None
    if below is None or below.level <= section.level or not section.blocks or not below.blocks:
        return section
    if not section.blocks[-1].rstrip().endswith((":", "：")) or not _FENCE.match(below.blocks[0]):
        return section
    return replace(section, blocks=(*section.blocks, below.blocks[0]))


def old_sections(sections: Sequence[TextSection]) -> set[TextSection]:
    """The sections no longer in force, as their headings or opening lines mark them (`marked_old`: "#### Legacy
    Semantics", "# Migration" opening on "NOTE: OBSOLETE"), and every section standing in one."""
    found: set[TextSection] = set()
    marked_at = 0  # the level of the marked section the current one stands in (0: none)
    for section in sections:
        if marked_at and section.level > marked_at:
            found.add(section)
            continue
        marked_at = 0
        if section.heading and marked_old(section.heading, section.blocks[0] if section.blocks else ""):
            found.add(section)
            marked_at = section.level
    return found


def by_substance(chosen: Sequence[TextSection], sections: Sequence[TextSection]) -> list[TextSection]:
    """`chosen` sections, those a document spends the most words on first, a subsection's words counting half
    its parent's ("3.1. Binary Content Mode" before "2.1. datacontenttype Attribute"): its substance."""
    sizes = subtree_sizes(sections)
    top = min((s.level for s in chosen), default=0)
    return sorted(chosen, key=lambda s: -sizes[id(s)] * 0.5 ** (s.level - top))


def subtree_sizes(sections: Sequence[TextSection]) -> dict[int, int]:
    """The characters each section holds with its subsections, by the section's id()."""
    sizes: dict[int, int] = {}
    for n, section in enumerate(sections):
        size = 0
        for inner in sections[n:]:
            if inner is not section and inner.level <= section.level:
                break
            size += sum(len(block) for block in inner.blocks)
        sizes[id(section)] = size
    return sizes


HEADING_MARKUP = re.compile(r"<[^>]*>|\\?\{#[^}]*\\?\}")  # heading anchors: `<a name="…" />`, `{#…}`


def prose_block(block: str) -> bool:
    """A block of prose (a paragraph, or a lead-in with its list): not code, a table or a heading."""
    text = block.strip()
    return bool(text) and not (HEADING_LINE.match(text) or text.startswith(("```", "~~~", "|")))
