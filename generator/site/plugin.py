"""deepkb's two MkDocs plugins: `deepkb-sanitize` (no untrusted text reaches the built site as live markup)
and `deepkb-site` (the site serves everything it needs itself: diagrams, search, styles).

Both are entry points (pyproject `mkdocs.plugins`), so any knowledge-base root's mkdocs.yml can list them.
The sanitizer's stages: config text (site name, description…) and frontmatter are made plain before any
template reads them, the rendered body goes through nh3, and every finished HTML file (pages, the 404 page,
anything another plugin wrote, in any markup file type) is checked once more; live markup fails the build
instead of being published. Before all of that, `gate.check_site_source` refuses links, file types and sizes
that must not reach the site at all.
"""

from __future__ import annotations

import html as htmllib
import logging
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink
from mkdocs.utils.templates import TemplateContext

from . import pagefind, preview, static
from .gate import SiteSourceRefused, check_site_source
from .nav import entry_pages, reading_path
from .sanitize import clean_html, clean_meta, clean_title, clean_toc_title, find_live_markup, safe_id

CONFIG_TEXT = ("site_name", "site_description", "site_author", "copyright", "repo_name")
"""Config values the theme prints raw (deepkb.yml's site title and description reach two of them)."""
CONFIG_URLS = ("repo_url", "edit_uri")
"""Config URLs the theme prints raw into href attributes: characters a URL cannot hold are percent-encoded."""
URL_SAFE = ":/?#[]@!$&()*+,;=%~"
MARKUP_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".xht", ".shtml", ".xml", ".svg", ".xsl", ".xslt"})
"""Built files a browser may parse as markup and run script from (compared case-insensitively)."""

log = logging.getLogger("mkdocs.plugins.deepkb")


class SanitizePlugin(BasePlugin):  # type: ignore[type-arg]
    """Cleans config text, page frontmatter and HTML; refuses a build with live markup left in any file."""

    def __init__(self) -> None:
        self.checked: set[str] = set()

    @event_priority(100)
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        for key in CONFIG_TEXT:
            if isinstance(config.get(key), str):
                config[key] = clean_title(config[key])
        for key in CONFIG_URLS:
            if isinstance(config.get(key), str):
                config[key] = quote(config[key], safe=URL_SAFE)
        self.checked = set()
        return config

    @event_priority(100)  # before MkDocs lists (and follows) anything under docs_dir
    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        try:
            check_site_source(Path(config.docs_dir))
        except SiteSourceRefused as exc:
            raise PluginError(f"deepkb-sanitize: {exc.message}") from exc

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
        _refuse_live_markup(page.file.dest_uri, output, config)
        self.checked.add(page.file.dest_uri)
        return output

    @event_priority(-100)
    def on_post_template(self, output_content: str, *, template_name: str, config: MkDocsConfig) -> str:
        if template_name.endswith(".html"):  # 404.html and other theme pages built outside the page loop
            _refuse_live_markup(template_name, output_content, config)
            self.checked.add(template_name)
        return output_content

    @event_priority(100)  # before any other plugin publishes the folder (search indexing included)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        site_dir = Path(config.site_dir)
        for path in sorted(site_dir.rglob("*")):
            uri = path.relative_to(site_dir).as_posix()
            if path.suffix.lower() in MARKUP_SUFFIXES and uri not in self.checked and path.is_file():
                _refuse_live_markup(uri, path.read_text(encoding="utf-8", errors="replace"), config)


def _refuse_live_markup(name: str, output: str, config: MkDocsConfig) -> None:
    problems = find_live_markup(output, base_path=urlsplit(config.site_url or "").path or "/")
    if problems:
        raise PluginError(
            f"deepkb-sanitize: '{name}' still holds live markup after sanitizing: " + ", ".join(problems[:5])
        )


class SitePlugin(BasePlugin):  # type: ignore[type-arg]
    """Serves deepkb's assets from the site itself, turns third-party fonts off, gives a repository's or
    topic's pages their reading path (nav.reading_path) and builds the search index."""

    def __init__(self) -> None:
        self.entries: dict[str, list[File]] = {}

    @event_priority(50)
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        config.theme["font"] = False  # the privacy promise: no web fonts from a third party
        config.extra_javascript.extend([s for s in static.SCRIPTS if s not in config.extra_javascript])
        config.extra_css.extend([s for s in static.STYLESHEETS if s not in config.extra_css])
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        for uri, path in static.asset_files():
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(path)))
        glossary = pagefind.glossary_json(Path(config.docs_dir))
        # written whatever exclude_docs says of site_src's own *.json (the shipped mkdocs.yml excludes them)
        files.append(
            File.generated(config, pagefind.GLOSSARY_URI, content=glossary, inclusion=InclusionLevel.INCLUDED)
        )
        self.entries = entry_pages(files)
        return files

    def on_page_context(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        context["nav"] = reading_path(page, nav, self.entries)
        return context

    @event_priority(-50)  # before the sanitizer's final check (-100), which the marker passes
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        language = pagefind.page_language(page.meta.get("lang"), output)
        marked = pagefind.mark_searchable(_without_repository_facts(output), page.title or "")
        return pagefind.with_language(marked, language)

    def on_post_template(self, output_content: str, *, template_name: str, config: MkDocsConfig) -> str:
        return _without_repository_facts(output_content)  # 404.html is built outside the page loop

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        host, port = config.dev_addr
        return preview.guard_preview(server, host, port)

    @event_priority(-100)  # after the sanitizer has checked every file
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        try:
            pagefind.index_site(Path(config.site_dir))
        except pagefind.SearchIndexError as exc:
            raise PluginError(str(exc)) from None


# Material mounts its "source" component on this attribute and fetches the repository's stars and forks from
# api.github.com on every page; without it the repo_url link stays and no page asks another host.
_SOURCE_COMPONENT = ' class="md-source" data-md-component="source"'


def _without_repository_facts(output: str) -> str:
    return output.replace(_SOURCE_COMPONENT, ' class="md-source"')


def _clean_toc(items: Any) -> None:
    # toc titles are rendered raw in the sidebar. Ids are renamed as clean_html renames the headings' own
    # (a heading `{"__config":{}}` is slugged to `__config`).
    for item in items:
        if isinstance(item, AnchorLink):
            item.title = clean_toc_title(item.title)
            item.id = safe_id(item.id)
            _clean_toc(item.children)
