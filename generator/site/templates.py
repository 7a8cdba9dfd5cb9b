"""Jinja2 page templates, rendered with an explicit context and StrictUndefined.

The templates deepkb ships (`site.defaults`) can be overridden file by file, as mkdocs' `custom_dir` does: a
template of the same name in the knowledge base's own `templates/` folder wins, the others come from deepkb.

Templates produce markdown. A value reaches a page in one of two ways: as `Markdown` (markdown that deepkb's
page layer built itself from escaped parts: links, tables, diagrams) or as anything else, which the
environment escapes on output (`md_escape`), so untrusted text is inert without a filter being remembered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from ..store import KBPaths
from .defaults import TEMPLATES_DIR
from .text import Markdown, md_escape, md_inline


def _escape_unless_markdown(value: object) -> object:
    """`{{ value }}` output: Markdown and numbers as they are, every other value escaped."""
    if isinstance(value, Markdown | int | float) or value is None:
        return "" if value is None else value
    return md_escape(value)


def _join(items: Iterable[object], separator: str = "") -> Markdown:
    """`join` that keeps Markdown parts as they are and escapes the others (Jinja's own join returns a plain
    string, which the output step would escape as a whole)."""
    return Markdown(md_escape(separator).join(md_escape(item) for item in items))


@lru_cache(maxsize=8)
def environment(own_templates: Path) -> jinja2.Environment:
    """The page templates of one knowledge base: its own `templates/` folder first, then deepkb's (as mkdocs'
    `custom_dir` overrides a theme file by file); one process may open several knowledge bases."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(own_templates), str(TEMPLATES_DIR)]),
        undefined=jinja2.StrictUndefined,  # a missing variable fails loudly
        autoescape=False,  # output is markdown, not HTML: `finalize` escapes with the markdown escaper instead
        finalize=_escape_unless_markdown,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = md_escape
    env.filters["inline"] = md_inline
    env.filters["join"] = _join
    return env


def render_template(paths: KBPaths, name: str, context: Mapping[str, object]) -> str:
    """Render the template `name` (the knowledge base's own, else deepkb's) with exactly `context`."""
    return environment(paths.templates_dir).get_template(name).render(**context)


def render_record(paths: KBPaths, name: str, record: Any) -> str:
    """Render the template `name` with a page record's fields (a dataclass) as its context."""
    return render_template(paths, name, {f.name: getattr(record, f.name) for f in fields(record)})
