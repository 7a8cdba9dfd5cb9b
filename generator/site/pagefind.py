"""The browser's site search, Pagefind: a static index split into small chunks, fetched on demand (the
knowledge base's own search database, for ask, MCP and `knowledge search`, is kb/search.py).

Unlike Material's search, a first query fetches only the chunks it needs; the extended build segments
Chinese. Pages opt in with `data-pagefind-body`; the parts of an article that are not its content are
excluded by selector.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

from ..errors import DeepkbError, StoreError
from ..kb.glossary import default_glossary
from ..kb.synonyms import SYNONYMS_FILE

BUNDLE_DIR = "pagefind"
EXCLUDED = (
    ".headerlink",
    ".md-source-file",
    ".md-content__button",
    "pre.deepkb-diagram",
    ".deepkb-notice",
    ".admonition.deepkb-notice",
)
"""Inside an article, what search must not treat as the page's text (templates mark notices `deepkb-notice`)."""

LANGUAGES = ("en", "zh")
"""Languages a page is indexed in: Pagefind reads each page's `<html lang>`, stems English and segments Chinese
(its extended build), and keeps one index per language; the search UI merges them (assets search.js)."""

INDEX_TIMEOUT_S = 1800

GLOSSARY_URI = "assets/javascripts/deepkb/glossary.json"
"""Where the site ships the bilingual glossary its search expands a Chinese query with (deepkb/pagefind/)."""


class SearchIndexError(DeepkbError):
    """Pagefind could not index the built site."""


_ARTICLE = '<article class="md-content__inner'


def mark_searchable(page_html: str, title: str) -> str:
    """A built content page with its article marked as what Pagefind indexes, and the page's title (its
    frontmatter title, which says which repository or topic a page belongs to) as the result's title instead
    of Pagefind's default, the first heading, which several pages of one topic can share."""
    marked = page_html.replace(_ARTICLE, '<article data-pagefind-body class="md-content__inner', 1)
    meta = f'<span data-pagefind-meta="title" hidden>{html.escape(title, quote=True)}</span>'
    return marked.replace("</article>", f"{meta}</article>", 1) if title else marked


_HTML_LANG = re.compile(r'<html lang="[^"]*"')
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


def page_language(declared: object, page_html: str) -> str:
    """The language a page is indexed in: its frontmatter `lang` (topic pages), else Chinese when CJK characters
    make up a third or more of its article's letters (a raw source keeps the language of its text), else English."""
    if declared in LANGUAGES:
        return str(declared)
    start = page_html.find(_ARTICLE)
    article = page_html[start : page_html.find("</article>", start)] if start >= 0 else ""
    text = re.sub(r"<[^>]*>", " ", article)
    cjk, latin = len(_CJK.findall(text)), len(_LATIN.findall(text))
    return "zh" if cjk and 3 * cjk >= cjk + latin else "en"


def with_language(page_html: str, language: str) -> str:
    """The page with `<html lang>` set to `language` (the theme writes the site's one language on every page)."""
    return _HTML_LANG.sub(f'<html lang="{language}"', page_html, count=1)


def glossary_json(docs_dir: Path) -> str:
    """The glossary the browser's search reads (Chinese term → English spellings): the shipped one with the
    knowledge base's own `glossary` in site_src/_synonyms.json, as `ask` uses them. A Chinese query then
    finds English pages too (中间件 → middleware). A malformed `_synonyms.json` leaves the shipped glossary."""
    glossary = default_glossary()
    path = docs_dir / SYNONYMS_FILE
    try:
        extra = json.loads(path.read_text(encoding="utf-8")).get("glossary") if path.is_file() else None
        glossary = glossary.merged(extra) if isinstance(extra, dict) else glossary
    except (OSError, ValueError, AttributeError, StoreError):
        pass
    return json.dumps({"zh_en": glossary.zh_en}, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def index_site(site_dir: Path) -> None:
    """Write `<site_dir>/pagefind/` from the built pages (replacing an older index)."""
    from pagefind.service import get_executable

    binary = get_executable()
    if binary is None:
        raise SearchIndexError(
            "pagefind is not installed", hint="pip install 'pagefind[extended]' (a deepkb dependency)"
        )
    command = [
        str(binary), "--site", str(site_dir), "--output-subdir", BUNDLE_DIR, "--silent",
        "--exclude-selectors", ", ".join(EXCLUDED),
    ]  # fmt: skip
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=INDEX_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SearchIndexError(f"pagefind did not run: {exc}") from None
    if done.returncode != 0:
        detail = " ".join((done.stderr or done.stdout).split())[:300]
        raise SearchIndexError(f"pagefind failed (exit {done.returncode}): {detail}")
