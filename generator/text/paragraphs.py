"""A stored text's paragraphs: the blocks between its blank lines, a fenced code block one block whatever empty
lines it holds.

Every reader of a stored source (passages for search, a document's lead, where a quoted sentence stands) cuts
it into paragraphs. A code example keeps its empty lines as written, so a copied example runs; read as prose,
the code after an empty line would stand as a paragraph of its own and its comments be quoted as sentences.
"""

from __future__ import annotations

import re

# a fence opens a code block (CommonMark: three or more backticks or tildes); a list item's example is indented
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def paragraphs(text: str) -> list[str]:
    """The paragraphs of `text` as written (each a slice of it), in order: lines up to a blank one (empty or
    whitespace only), a fenced code block with the lines around it up to its closing fence read as one."""
    found: list[str] = []
    current: list[str] = []
    fence = ""
    for line in text.split("\n"):
        if fence:
            current.append(line)
            if line.strip() and set(line.strip()) == {fence[0]} and len(line.strip()) >= len(fence):
                fence = ""
            continue
        if not line.strip():
            if current:
                found.append("\n".join(current))
                current = []
            continue
        current.append(line)
        if opened := _FENCE.match(line):
            fence = opened.group(1)
    if current:
        found.append("\n".join(current))
    return found
