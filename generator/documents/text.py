"""Plain text read as paragraphs (blank-line separated) and list items (lines that open with a bullet)."""

from __future__ import annotations

import re

from .markdown import clean_text
from .model import Block, Section
from .outline import Outline

_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")


def read_plain(text: str) -> tuple[Section, ...]:
    outline = Outline()
    lines = text.split("\n")
    start, current = 0, list[str]()
    for number, line in enumerate([*lines, ""], start=1):
        if line.strip() and not (_BULLET.match(line) and current):
            current.append(line)
            start = start or number
            continue
        _add(outline, current, start)
        current, start = ([line], number) if line.strip() else ([], 0)
    return outline.finish(len(lines))


def _add(outline: Outline, lines: list[str], start: int) -> None:
    if not lines:
        return
    end = start + len(lines) - 1
    bullet = _BULLET.match(lines[0])
    if bullet:
        last = outline.last
        lead = last.lead if last is not None and last.kind == "item" else ""
        if last is not None and last.kind == "paragraph":
            lead = last.text
        text = clean_text(" ".join([lines[0][bullet.end() :], *lines[1:]]))
        outline.add(Block("item", text, start, end, lead=lead))
    else:
        outline.add(Block("paragraph", clean_text(" ".join(lines)), start, end))
