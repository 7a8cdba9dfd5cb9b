"""Jinja2 page templates, rendered with an explicit context and StrictUndefined.

The templates deepkb ships (`site.defaults`) can be overridden file by file, as mkdocs' `custom_dir` does: a
template of the same name in the knowledge base's own `templates/` folder wins, the others come from deepkb.

Templates produce markdown. A value reaches a page in one of two ways: as `Markdown` (markdown that deepkb's
page layer built itself from escaped parts: links, tables, diagrams) or as anything else, which the
environment escapes on output (`md_escape`), so untrusted text is inert without a filter being remembered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

import jinja2

from . import defaults
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


def template_folders() -> tuple[str, ...]:
    """Where a template is looked up, first match wins: the knowledge base's own templates/ folder, then
    deepkb's (as mkdocs' `custom_dir` overrides a theme file by file)."""
    return tuple(str(folder) for folder in (defaults.kb_templates, TEMPLATES_DIR) if folder is not None)


class KnowledgeBaseFirst(jinja2.BaseLoader):
    """Loads a template from the folders in force at that moment; a template loaded for one knowledge base
    is out of date once another is open (one process may open several, as the tests do)."""

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        folders = template_folders()
        source, filename, uptodate = jinja2.FileSystemLoader(folders).get_source(environment, template)
        return source, filename, lambda: template_folders() == folders and uptodate()

    def list_templates(self) -> list[str]:
        return jinja2.FileSystemLoader(template_folders()).list_templates()


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=KnowledgeBaseFirst(),
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


def render_template(name: str, context: Mapping[str, object]) -> str:
    """Render the template `name` (the knowledge base's own, else deepkb's) with exactly `context`."""
    return environment().get_template(name).render(**context)
