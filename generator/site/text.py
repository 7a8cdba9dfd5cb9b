"""Turning untrusted text (repository files, web pages, model output) into inert markdown.

Every value that did not come from deepkb itself passes through `md_escape` (blocks) or `md_inline`
(one line) before it is put into a page: HTML special characters become entities, and markdown syntax that
could make a link, an image, a heading, a table cell or a fence is escaped — with a backslash where
Python-Markdown honours one, else with an entity, so the reader sees the text and never escape debris
(tests/test_text_escaping.py renders through the extensions of the project's mkdocs.yml). The
sanitizing MkDocs plugin in `site/plugin.py` cleans the built HTML again as a second line of defence.
"""

from __future__ import annotations

import html
import re


class Markdown(str):
    """Markdown that deepkb's page layer built from escaped parts: templates output it as it is.

    Any other string reaching a template is escaped there (generator/site/templates.py), so wrapping text in
    `Markdown` is a claim that it is safe; only the escaping functions below and the page builders make one.
    """

    __slots__ = ()


# Only characters Python-Markdown honours a backslash escape for (its ESCAPED_CHARS, plus '|' from the tables
# extension); a backslash before any other character is shown on screen ("\~"). '~' (a fence) and '='
# (a setext underline) have no markdown escape and become entities, which show as themselves.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}()#+!|])")
# Line starts that make a list item, a setext heading, a thematic break / frontmatter fence or a collapsible
# block (pymdownx.details' "???"). ('>' is already an entity after html.escape: it cannot open a quote.)
# The indent never crosses a line break: each line is scanned once, so many blank lines cost linear time.
_LINE_START = re.compile(r"^([^\S\n]*)(-+(?=\s|$)|={2,}|\d+[.)](?=\s|$)|\?{3})", re.MULTILINE)


def md_escape(text: object) -> Markdown:
    """Block text: keeps line breaks, neutralizes HTML and markdown syntax."""
    if isinstance(text, Markdown):
        return text
    value = html.escape(str(text), quote=False)  # quotes are harmless outside attributes
    value = _MD_SPECIAL.sub(r"\\\1", value)
    value = value.replace("~", "&#126;")
    return Markdown(_LINE_START.sub(_neutralize_line_start, value))


def _neutralize_line_start(match: re.Match[str]) -> str:
    indent, marker = match.group(1), match.group(2)
    if marker[0] == "-":
        return f"{indent}\\{marker}"
    if marker[0] in "=?":  # no markdown escape for these; an entity still shows as the character
        return f"{indent}&#{ord(marker[0])};{marker[1:]}"
    return f"{indent}{marker[:-1]}\\{marker[-1]}"  # "1. " → "1\. "


def md_inline(text: object, limit: int = 300) -> Markdown:
    """One line of text (a title, a summary cell): newlines folded, length capped, then escaped."""
    value = " ".join(str(text).split())
    if len(value) > limit:
        value = value[: limit - 1] + "…"
    return md_escape(value)


def code_block(text: str, language: str = "") -> Markdown:
    """A fenced code block that untrusted text cannot close early (the fence outgrows any run of backticks)."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    lang = re.sub(r"[^\w+-]", "", language)
    return Markdown(f"{fence}{lang}\n{text.rstrip()}\n{fence}")


def table_row(*cells: str) -> Markdown:
    """One row of a Markdown table (each cell already Markdown)."""
    return Markdown("| " + " | ".join(cells) + " |")


def table_header(*columns: str) -> Markdown:
    """A Markdown table's header row and the rule under it."""
    return Markdown(table_row(*columns) + "\n|" + " --- |" * len(columns))
