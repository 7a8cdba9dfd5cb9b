"""Blocks that only include another file: MkDocs' snippets (`--8<-- "file"`), Sphinx's `literalinclude`
(read by rst.py as a code block holding its marker) and an MDX page's Markdown partials (markdown.py writes
`<Types />` after `import Types from './_types.mdx'` as `--8<-- partial "./_types.mdx"`). The built docs show the included file there; a reader
that cannot read that file (a topic's stored source) leaves the block out rather than quote the placeholder.
The repository's docs stage reads the files (repo/docs/includes.py)."""

from __future__ import annotations

import re
from dataclasses import replace

from .model import Block, Section

INCLUDE = ".. literalinclude::"
API = ":::"  # mkdocstrings' `::: package.Class`; rst.py writes Sphinx's autodoc directives the same way
API_LINE = re.compile(r"^[ \t]*:::[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)[ \t]*$")
SNIPPET = "--8<--"
# an MDX page's imported Markdown partial where it renders it, as markdown.py writes it: `--8<-- partial "file"`
PARTIAL = SNIPPET + " partial"
_PARTIAL = re.compile(r'^--8<-- partial "([^"\n]+)"$')
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
        elif partial := _PARTIAL.match(line):
            found.append((PARTIAL, partial.group(1)))
        elif line.startswith(INCLUDE + " "):
            found.append((INCLUDE, line[len(INCLUDE) :].strip()))
        else:
            return []
    return found


def api_names(block: Block) -> list[str]:
    """The code objects a block only asks the docs build to document from their docstrings (Sphinx's
    `.. autoclass:: packaging.version.Version`, mkdocstrings' `::: httpx.Client`), as dotted names; []
    when it says anything else."""
    if block.kind != "paragraph" or API not in block.text:
        return []
    found = [API_LINE.match(line) for line in block.plain.splitlines() if line.strip()]
    return [m.group(1) for m in found if m] if all(found) else []


def without_includes(sections: tuple[Section, ...]) -> tuple[Section, ...]:
    """`sections` without the blocks that only include another file or another object's docstrings."""

    def kept(block: Block) -> bool:
        return not include_markers(block) and not api_names(block)

    if all(kept(b) for s in sections for b in s.blocks):
        return sections
    return tuple(replace(s, blocks=tuple(b for b in s.blocks if kept(b))) for s in sections)
