"""Blocks that only include another file: MkDocs' snippets (`--8<-- "file"`), Sphinx's `literalinclude`
(read by rst.py as a code block holding its marker), an MDX page's Markdown partials (markdown.py writes
`<Types />` after `import Types from './_types.mdx'` as `--8<-- partial "./_types.mdx"`) and a page's text
included from another file (Sphinx's `.. include:: ../README.rst`, MyST's `{include}`, often the part of the
README between two marker comments: `--8<-- include "../README.md" after=… before=…`). The built docs show the included file there; a reader
that cannot read that file (a topic's stored source) leaves the block out rather than quote the placeholder.
The repository's docs stage reads the files (repo/docs/includes.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import quote, unquote

from .model import Block, Section

INCLUDE = ".. literalinclude::"
API = ":::"  # mkdocstrings' `::: package.Class`; rst.py writes Sphinx's autodoc directives the same way
_API_OBJECT = r":::[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)"  # a marker and the dotted name of its object
API_LINE = re.compile(rf"^[ \t]*{_API_OBJECT}[ \t]*$")
_API_NAME = re.compile(_API_OBJECT)
_API_RUN = re.compile(rf"(?:\s*{_API_OBJECT})+\s*")
SNIPPET = "--8<--"
# an MDX page's imported Markdown partial where it renders it, as markdown.py writes it: `--8<-- partial "file"`
PARTIAL = SNIPPET + " partial"
_PARTIAL = re.compile(r'^--8<-- partial "([^"\n]+)"$')
# another file's text a page includes where it stands, between the lines holding `after` and `before` (each
# percent-quoted: a marker comment `<!-- begin index -->` must not read as markup)
PROSE = SNIPPET + " include"
_PROSE = re.compile(r'^--8<-- include "([^"\n]+)"((?: (?:after|before)=\S+)*)$')
_PROSE_ONE = re.compile(r'--8<-- include "[^"\n]+"(?: (?:after|before)=\S+)*')
_PROSE_RUN = re.compile(r'(?:--8<-- include "[^"\n]+"(?: (?:after|before)=\S+)*\s*)+')
# a VuePress code import (`@[code{3-10} python](../examples/run.py)`) as markdown.py writes it:
# `--8<-- code "file:3:10" python`, the language left out when the import names none
CODE = SNIPPET + " code"
_CODE = re.compile(r'^--8<-- code "([^"\n]+)"(?: ([\w+#.-]+))?$')
# pymdownx.snippets' line (`;--8<--` is its escape: shown as written)
_SNIPPET = re.compile(r'^-{1,}8<-{1,}[ \t]+(["\'])([^"\'\n]+)\1$')
_SNIPPET_BLOCK = re.compile(r"^-{1,}8<-{1,}$")  # the bare line opening and closing its block of names


def include_markers(block: Block) -> list[tuple[str, str]]:
    """The files a block only includes, each as (syntax, name); [] when it says anything else."""
    if block.kind not in ("code", "paragraph") or "8<" not in block.text and INCLUDE not in block.text:
        return []
    found: list[tuple[str, str]] = []
    listing = False  # inside a block of names, one a line, between two bare `--8<--` lines
    for line in (line.strip() for line in block.text.splitlines() if line.strip()):
        if _SNIPPET_BLOCK.match(line):
            listing = not listing
        elif listing:
            if not line.startswith(";"):  # `;name` is a name left out
                found.append((SNIPPET, line))
        elif snippet := _SNIPPET.match(line):
            found.append((SNIPPET, snippet.group(2)))
        elif _CODE.match(line):
            found.append((CODE, line.removeprefix(CODE).strip()))
        elif partial := _PARTIAL.match(line):
            found.append((PARTIAL, partial.group(1)))
        elif _PROSE.match(line):
            found.append((PROSE, line.removeprefix(PROSE).strip()))
        elif _PROSE_RUN.fullmatch(line):  # markers on consecutive lines read as one paragraph's words
            found += [(PROSE, m.group(0).removeprefix(PROSE).strip()) for m in _PROSE_ONE.finditer(line)]
        elif line.startswith(INCLUDE + " "):
            found.append((INCLUDE, line[len(INCLUDE) :].strip()))
        else:
            return []
    return found if not listing else []


def code_marker(name: str, start: str = "", end: str = "", language: str = "") -> str:
    """The line standing for the lines `start`–`end` (either may be "") of the file `name` shown as code in
    `language` ("" when a name holds a quote or a space: no file's name)."""
    if not name or '"' in name or any(c.isspace() for c in name):
        return ""
    span = f":{start}:{end}" if start or end else ""
    return f'{CODE} "{name}{span}"' + (f" {language}" if language else "")


def code_target(marker: str) -> tuple[str, str]:
    """A `CODE` marker's (file with its lines, language), as `code_marker` wrote them."""
    found = _CODE.match(f"{CODE} {marker}")
    return (found.group(1), found.group(2) or "") if found else ("", "")


def prose_marker(name: str, after: str = "", before: str = "") -> str:
    """The line standing for another file's text included where it stands (a name holding a quote or a space
    is not a file's name: "")."""
    if not name or '"' in name or any(c.isspace() for c in name):
        return ""
    spans = [
        f" {key}={quote(value, safe='')}" for key, value in (("after", after), ("before", before)) if value
    ]
    return f'{PROSE} "{name}"{"".join(spans)}'


_TEXT_FILE = re.compile(r"\.(?:rst|md|markdown|mdx)$", re.IGNORECASE)
# the options of Sphinx's and MyST's `include` that keep it text shown as the page's own
_TEXT_OPTIONS = frozenset({"start-after", "end-before", "encoding", "tab-width", "heading-offset"})


def included_text(target: str, options: dict[str, str]) -> str:
    """The `PROSE` marker of an `include` directive naming a text file (`:start-after:` and `:end-before:`
    kept; surrounding quotes, MyST's, left out); "" when it includes anything else, or as code
    (`:literal:`, `:code:`, a line range)."""
    target = target.strip()
    if not _TEXT_FILE.search(target) or set(options) - _TEXT_OPTIONS:
        return ""
    after, before = (_unquoted(options.get(key, "")) for key in ("start-after", "end-before"))
    return prose_marker(target, after, before)


def _unquoted(value: str) -> str:
    value = value.strip()
    return value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'" else value


def prose_target(marker: str) -> tuple[str, str, str]:
    """A `PROSE` marker's (file, after, before), as `prose_marker` was given them."""
    found = _PROSE.match(f"{PROSE} {marker}")
    if not found:
        return "", "", ""
    options = dict(option.split("=", 1) for option in found.group(2).split())
    return found.group(1), unquote(options.get("after", "")), unquote(options.get("before", ""))


def api_names(block: Block) -> list[str]:
    """The code objects a block only asks the docs build to document from their docstrings (Sphinx's
    `.. autoclass:: packaging.version.Version`, mkdocstrings' `::: httpx.Client`), as dotted names; []
    when it says anything else."""
    if block.kind != "paragraph" or API not in block.text:
        return []
    # one object a line, or several run together: boltons' four `.. autoexception::` lines in a row make one
    # paragraph whose words are "::: boltons.socketutils.Error ::: boltons.socketutils.Timeout …"
    return _API_NAME.findall(block.plain) if _API_RUN.fullmatch(block.plain) else []


def without_includes(sections: tuple[Section, ...]) -> tuple[Section, ...]:
    """`sections` without the blocks that only include another file or another object's docstrings."""

    def kept(block: Block) -> bool:
        return not include_markers(block) and not api_names(block)

    if all(kept(b) for s in sections for b in s.blocks):
        return sections
    return tuple(replace(s, blocks=tuple(b for b in s.blocks if kept(b))) for s in sections)
