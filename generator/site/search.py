"""Site search with Pagefind: a static index split into small chunks, fetched by the reader's browser on demand.

Unlike Material's search, a first query fetches only the chunks it needs; the extended build segments
Chinese. Pages opt in with `data-pagefind-body`; the parts of an article that are not its content are
excluded by selector.
"""

from __future__ import annotations

import html
import subprocess
from pathlib import Path

from ..errors import DeepkbError

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

LANGUAGE = "zh"
"""One index for the whole site, segmented by the extended build's Chinese segmenter. Latin words are still
split on spaces and punctuation, so English search works in it; separate indexes per language would leave a
Chinese query typed on an English page with nothing to search."""

INDEX_TIMEOUT_S = 1800


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
        "--force-language", LANGUAGE, "--exclude-selectors", ", ".join(EXCLUDED),
    ]  # fmt: skip
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=INDEX_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SearchIndexError(f"pagefind did not run: {exc}") from None
    if done.returncode != 0:
        detail = " ".join((done.stderr or done.stdout).split())[:300]
        raise SearchIndexError(f"pagefind failed (exit {done.returncode}): {detail}")
