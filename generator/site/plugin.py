"""The `deepkb-sanitize` MkDocs plugin: no untrusted text reaches the built site as live markup.

Registered as an entry point (pyproject `mkdocs.plugins`), so any knowledge-base root's mkdocs.yml can list
it. Three stages: frontmatter is cleaned before any other plugin reads it (the tags plugin, the theme), the
rendered body goes through nh3, and every finished page is checked once more; a page that still carries live
markup fails the build instead of being published.
"""

from __future__ import annotations

import html as htmllib
import logging
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink

from .sanitize import clean_html, clean_meta, clean_title, find_live_markup

log = logging.getLogger("mkdocs.plugins.deepkb")


class SanitizePlugin(BasePlugin):  # type: ignore[type-arg]
    """Cleans page frontmatter and HTML; refuses to write a page with live markup left in it."""

    @event_priority(100)  # before the tags plugin (-50) and the theme read page.meta
    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
        page.meta = clean_meta(page.meta)
        return markdown

    @event_priority(-100)  # after every plugin that edits the body, before search indexes it
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
        if "title" not in page.meta and page.title:
            # a title taken from the first heading is put into templates unescaped too: freeze a clean one
            page.meta["title"] = clean_title(htmllib.unescape(page.title))
        _clean_toc(page.toc)
        return clean_html(html)

    @event_priority(-100)
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
        problems = find_live_markup(output)
        if problems:
            raise PluginError(
                f"deepkb-sanitize: page '{page.file.src_uri}' still holds live markup after sanitizing: "
                + ", ".join(problems[:5])
            )
        return output


def _clean_toc(items: Any) -> None:
    # toc titles are rendered raw in the sidebar; Python-Markdown escapes them already, so this only makes
    # sure (idempotently: an escaped title holds no raw bracket) that no tag can open there
    for item in items:
        if isinstance(item, AnchorLink):
            item.title = item.title.replace("<", "&lt;").replace(">", "&gt;")
            _clean_toc(item.children)
