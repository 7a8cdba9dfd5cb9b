"""Docstrings read as documents: a Python docstring (reST, Google or NumPy style), or a doc comment's text
once `comment.py` has taken its markers off. Section headers ("Args:", "Returns:", "Parameters" over
dashes) open sections of their own, so they are never a summary; doctests are code; bibliographic fields
(`:author:`, `:copyright:`) are no text. Lines are the docstring's own lines."""

from __future__ import annotations

import re

from ..text.sentences import DOCSTRING_SECTIONS, without_bibliography
from .model import Section
from .rst import FENCE, read_rst

_GOOGLE_SECTION = re.compile(rf"(?i)^(\s*)({DOCSTRING_SECTIONS})\s*:\s*$")
_DOCTEST = re.compile(r"^\s*(?:>>>|\.\.\.)(?:\s|$)")
# a reST field of a parameter list: `:param float delay:`, `:raises NoEventLoopError:`, `:return:`, `:rtype:`
_REST_FIELD = re.compile(
    r"^\s*:(param|parameter|arg|argument|key|keyword|type|raises?|except|exception|returns?|rtype|yields?|"
    r"ytype|var|ivar|cvar)\b([^:`\n]*):(?=\s|$)"
)


def read_docstring(text: str) -> tuple[Section, ...]:
    """A docstring's sections: its description first (heading ""), then one per section header."""
    return read_rst("\n".join(_docstring_lines(without_bibliography(cleandoc(text).split("\n")))))


def _docstring_lines(lines: list[str]) -> list[str]:
    """Google section headers as headings (their indented bodies dedented as a block, so code keeps its own
    indentation), doctests as indented code, a Markdown fence (a docstring written for mkdocstrings) as
    written, a reST field list of parameters (`:param delay: …`, `:raises X: …`) as a "Parameters" section
    of items (the blank line above it becomes the heading: lines stay the docstring's own)."""
    out: list[str] = []
    body_indent = -1
    margin = -1  # the first body line's indentation: the section's body is dedented by it
    in_doctest = False
    in_fields = False
    fence = ""
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if body_indent >= 0 and line.strip() and indent >= body_indent:
            margin = indent if margin < 0 else margin
            line = line[min(margin, indent) :]
        elif body_indent >= 0 and line.strip():
            body_indent = margin = -1
        opened = FENCE.match(line)
        if fence or opened:
            closes = bool(fence) and line.strip().startswith(fence)
            fence = "" if closes else fence or (opened.group(1) if opened else "")
            out.append(line)
            continue
        header = _GOOGLE_SECTION.match(line)
        in_doctest = bool(line.strip()) and (in_doctest or bool(_DOCTEST.match(line)))
        field = _REST_FIELD.match(line) if not in_doctest else None
        if field and (in_fields or (out and not out[-1].strip())):
            if not in_fields:
                out[-1] = "## Parameters"
            in_fields = True
            name = (field.group(2) or "").split()[-1:] or [field.group(1)]
            out.append(f"- {name[0]}: {line[field.end() :].strip()}")
            continue
        in_fields = in_fields and (not line.strip() or line[:1].isspace())
        if in_fields and line.strip():  # a field's description goes on, indented
            out.append(f"  {line.strip()}")
        elif header:
            out.append(f"## {header.group(2).title()}")
            body_indent, margin = len(header.group(1)) + 1, -1
        elif in_doctest:  # a doctest and its output: code, indented as Markdown reads code
            out.append(f"    {line.strip()}")
        else:
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
