"""Blocks that only include another file: MkDocs' snippets (`--8<-- "file"`) and Sphinx's `literalinclude`
(read by rst.py as a code block holding its marker). The built docs show the included file there; a reader
that cannot read that file (a topic's stored source) leaves the block out rather than quote the placeholder.
The repository's docs stage reads the files (repo/docs/includes.py)."""

from __future__ import annotations

import re
from dataclasses import replace

from .model import Block, Section

INCLUDE = ".. literalinclude::"
SNIPPET = "--8<--"
# pymdownx.snippets' line (`;--8<--` is its escape: shown as written)
_SNIPPET = re.compile(r'^-{1,}8<-{1,}[ \t]+(["\'])([^"\'\n]+)\1$')


def include_markers(block: Block) -> list[tuple[str, str]]:
    """The files a block only includes, each as (syntax, name); [] when it says anything else."""
    if block.kind not in ("code", "paragraph") or "8<" not in block.text and INCLUDE not in block.text:
        return []
    found: list[tuple[str, str]] = []
    for line in (line.strip() for line in block.text.splitlines() if line.strip()):
        if snippet := _SNIPPET.match(line):
            found.append((SNIPPET, snippet.group(2)))
        elif line.startswith(INCLUDE + " "):
            found.append((INCLUDE, line[len(INCLUDE) :].strip()))
        else:
            return []
    return found


def without_includes(sections: tuple[Section, ...]) -> tuple[Section, ...]:
    """`sections` without the blocks that only include another file."""
    if not any(include_markers(b) for s in sections for b in s.blocks):
        return sections
    return tuple(replace(s, blocks=tuple(b for b in s.blocks if not include_markers(b))) for s in sections)
