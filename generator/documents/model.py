"""The document model every reader produces: a Document made of Sections made of Blocks, each block with
its 1-based line span in the source text so that it can be cited as `path:start-end`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from ..text.sentences import DOCSTRING_SECTIONS

BlockKind = Literal["paragraph", "item", "code", "table", "quote"]
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)


def code_spans_as_text(text: str) -> str:
    """`name` → name: code spans without their backticks (an unpaired backtick stays)."""
    return _CODE_SPAN.sub(r"\2", text)


@dataclass(frozen=True)
class Block:
    """One paragraph, list item, code block, table or quote, as its author wrote it."""

    kind: BlockKind
    text: str
    """Plain text: inline markup resolved (code spans keep their backticks), no anchors or roles."""
    start: int
    """1-based first line in the source file."""
    end: int
    """1-based last line."""
    language: str = ""
    """Code blocks: the fence or directive language."""
    lead: str = ""
    """Items: the paragraph that introduces the list; code: the sentence before it."""
    origin: str = ""
    """Code a docs build includes from another file of the repository (an MkDocs snippet, a Sphinx
    `literalinclude`): that file's path, `start` and `end` being its lines; "" for the document's own text."""
    rows: tuple[tuple[str, ...], ...] = ()
    """Tables: each row's cells, the header row first (`text` joins them with " | ", which a cell may hold)."""
    first: int = field(default=0, compare=False)
    """Code: the 1-based line of the source file its text's first line stands at (0 when the reader cannot
    say: `start` is the fence's line, and blank lines above the text are left out of it). Where a block
    stands, not what it is: two blocks alike otherwise are one."""

    @property
    def plain(self) -> str:
        """The text without code-span backticks (prose as a reader hears it)."""
        return self.text if self.kind == "code" else code_spans_as_text(self.text)


@dataclass(frozen=True)
class Section:
    """A heading and the blocks under it (the preamble has heading "" and level 0)."""

    heading: str
    path: tuple[str, ...]
    """Headings from the top down to this one."""
    level: int
    start: int
    end: int
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Document:
    """What a file says, and what it says about itself."""

    origin: str
    """Repo-relative path or URL."""
    revision: str
    """Commit sha, or "" when not from git."""
    title: str
    status: str
    """"accepted", "rejected", "draft", "superseded", "deprecated", … or ""."""
    date: str
    """ISO date the document states, or ""."""
    language: str
    """"en", "zh", …"""
    markup: str
    """"markdown", "mdx", "rst", "html", "pdf", "text", "docstring"."""
    sections: tuple[Section, ...]

    def blocks(self) -> Iterator[tuple[Section, Block]]:
        """Every block with the section it sits in, in document order."""
        for section in self.sections:
            for block in section.blocks:
                yield section, block

    @property
    def headings(self) -> list[str]:
        return [s.heading for s in self.sections if s.heading]


# a docstring's parameter, return and example sections describe pieces, never the whole
_DOCSTRING_SECTION = re.compile(f"(?i)^(?:{DOCSTRING_SECTIONS})$")


def is_docstring_section(heading: str) -> bool:
    """A docstring section ("Args", "Returns", "Examples"…): it describes pieces, never the whole."""
    return bool(_DOCSTRING_SECTION.match(heading))
