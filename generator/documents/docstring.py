"""Docstrings read as documents: a Python docstring (reST, Google or NumPy style), or a doc comment's text
once `comment.py` has taken its markers off. Section headers ("Args:", "Returns:", "Parameters" over
dashes) open sections of their own, so they are never a summary; doctests are code. Lines are the
docstring's own lines."""

from __future__ import annotations

import re
from dataclasses import replace

from ..text.sentences import DOCSTRING_SECTIONS
from .model import Section
from .rst import read_rst

_GOOGLE_SECTION = re.compile(rf"(?i)^(\s*)({DOCSTRING_SECTIONS})\s*:\s*$")
_DOCTEST = re.compile(r"^\s*(?:>>>|\.\.\.)(?:\s|$)")
_FENCE = re.compile(r"^(\s*)(```+)\s*([\w+-]*)\s*$")  # `~~~` underlines a reST heading
# Sphinx's info fields (`:param x:`, `:returns:`, `:raises E:`) describe pieces, as an "Args:" section does
_INFO_FIELD = re.compile(
    r"(?i)^\s*:(?:(returns?|rtype)|(raises?|except|exception)|(yields?)|param|parameter|arg|argument|key"
    r"|keyword|type|var|ivar|cvar)\b"
)
_FIELD_SECTIONS = ("Parameters", "Returns", "Raises", "Yields")  # by the first field's group


def read_docstring(text: str) -> tuple[Section, ...]:
    """A docstring's sections: its description first (heading ""), then one per section header."""
    lines = cleandoc(text).split("\n")
    return tuple(
        part
        for section in read_rst("\n".join(_docstring_lines(lines)))
        for part in _fields_apart(section, lines)
    )


def _fields_apart(section: Section, lines: list[str]) -> list[Section]:
    """The section, and after it the blocks that open on an info field, as the "Parameters" (or "Returns",
    "Raises") section Sphinx shows them in."""
    fields = [b for b in section.blocks if _INFO_FIELD.match(lines[b.start - 1])]
    if not fields:
        return [section]
    field = _INFO_FIELD.match(lines[fields[0].start - 1])
    heading = _FIELD_SECTIONS[next((i for i in (1, 2, 3) if field and field.group(i)), 0)]
    rest = tuple(b for b in section.blocks if b not in fields)
    apart = Section(heading, (heading,), 2, fields[0].start, fields[-1].end, tuple(fields))
    return [replace(section, blocks=rest), apart]


def _docstring_lines(lines: list[str]) -> list[str]:
    """Google section headers as headings (their indented bodies dedented), doctests as indented code, a
    Markdown fence as a code-block directive on its own line."""
    out: list[str] = []
    body_indent = -1
    in_doctest = False
    fence: re.Match[str] | None = None  # the Markdown fence a code block opened with
    for line in lines:
        header = _GOOGLE_SECTION.match(line)
        in_doctest = bool(line.strip()) and (in_doctest or bool(_DOCTEST.match(line)))
        if fence is not None:
            closing = line.strip().startswith(fence.group(2)) and not line.strip().strip(fence.group(2)[0])
            out.append("" if closing else f"    {line[len(fence.group(1)) :]}")
            fence = None if closing else fence
        elif fence := _FENCE.match(line):  # Markdown code in a docstring (httpx, typer): a code block
            out.append(f".. code-block:: {fence.group(3)}")
        elif header:
            out.append(f"## {header.group(2).title()}")
            body_indent = len(header.group(1)) + 1
        elif in_doctest:  # a doctest and its output: code, indented as Markdown reads code
            out.append(f"    {line.strip()}")
        elif body_indent >= 0 and line.strip() and len(line) - len(line.lstrip()) >= body_indent:
            out.append(line.strip())
        else:
            if line.strip():
                body_indent = -1
            out.append(line)
    return out


def cleandoc(text: str) -> str:
    """inspect.cleandoc's rule, keeping the leading blank lines (line numbers count from the first). A first
    line that introduces an indented block (`.. testsetup::`, `Example::`) keeps the block indented under it:
    cleaning twice (a docstring already cleaned starts at its directive) must not make the body prose."""
    lines = text.expandtabs(4).split("\n")
    rest = [line for line in lines[1:] if line.strip()]
    margin = min((len(line) - len(line.lstrip()) for line in rest), default=0)
    if lines[0].rstrip().endswith("::"):
        margin = min(margin, len(lines[0]) - len(lines[0].lstrip()))
    return "\n".join([lines[0].strip(), *(line[margin:].rstrip() for line in lines[1:])])
