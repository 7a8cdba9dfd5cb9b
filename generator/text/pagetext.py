"""Text out of untrusted documents (HTML pages, API snippets), made inert before anyone renders it.

`html_to_markdown` keeps a page's main text (trafilatura, else plain text); `inert_markdown` then makes sure
rendering it creates no HTML of the page's choosing: `<`, brackets, braces and `&` become entities (after
backslash escapes are resolved), links keep only http(s) targets, images become alt text, fences lose
their info string.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import urldefrag, urljoin

from .htmlpage import visible_markdown


def absolute_links(hrefs: Iterable[str], base_url: str) -> list[str]:
    seen: dict[str, None] = {}
    for href in hrefs:
        try:
            absolute, _ = urldefrag(urljoin(base_url, href))
        except ValueError:  # e.g. an unbalanced IPv6 bracket in a hostile href
            continue
        if absolute.startswith(("http://", "https://")):
            seen.setdefault(absolute, None)
    return list(seen)


def html_to_markdown(html: str, url: str = "", *, fast: bool = False) -> str:
    """The page's main text as markdown (not yet inert: pass it through `inert_markdown`).

    `fast` skips trafilatura's second-opinion extractors: about a third quicker, for bulk local indexing.
    """
    import trafilatura

    # trafilatura logs ERROR lines for pages it cannot read; we fall back quietly instead.
    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    try:
        text = trafilatura.extract(
            html,
            url=url or None,
            output_format="markdown",
            include_links=True,
            include_images=False,
            include_tables=True,
            include_comments=False,
            favor_recall=not fast,
            fast=fast,
        )
    except Exception:  # trafilatura/lxml choke on some markup; the fallback below still reads it
        text = None
    if not text or not text.strip() or _lost_structure(text, html):
        return visible_markdown(html)
    return text


_MARKED_BLOCK = re.compile(r"^(?:#{1,6} |[-*+] |\d+\. )", re.M)
_STRUCTURE_TAG = re.compile(r"<(?:h[1-6]|li)\b", re.I)
WHOLE_PAGE = 0.6  # share of the page's visible text an extraction holding all of it holds


def _lost_structure(text: str, html: str) -> bool:
    """Whether trafilatura read a page with its baseline extractor (a short page: all its text, as plain
    lines) and so dropped the headings and list items the page marks up: "Reasons:" then "It is fast." read
    as two paragraphs, not a list."""
    if _MARKED_BLOCK.search(text) or not _STRUCTURE_TAG.search(html):
        return False
    visible = visible_markdown(html)
    return len(" ".join(text.split())) >= WHOLE_PAGE * len(" ".join(visible.split()))


# --- making markdown inert -------------------------------------------------------------------------

_BACKSLASH_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_SAFE_LINK = re.compile(
    r"(!?)\[([^\[\]\n]{0,500})\]\(\s*<?(https?://[^\s<>()\"'`\\]{1,2000})>?(?:\s+\"[^\"\n]*\")?\s*\)"
)
_ENTITIES = {
    "&": "&amp;",
    "<": "&lt;",
    "[": "&#91;",
    "]": "&#93;",
    "{": "&#123;",
    "}": "&#125;",
    "\\": "&#92;",
}
_ENTITY_RE = re.compile(r"[&<\[\]{}\\]")
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
_FENCE_INFO = re.compile(r"^([ \t]{0,3})(`{3,}|~{3,})[^\n`]*$", re.MULTILINE)


def _entities(text: str) -> str:
    return _ENTITY_RE.sub(lambda m: _ENTITIES[m.group(0)], text)


def inert_markdown(text: str) -> str:
    """Markdown whose rendering holds no tag, handler or unsafe link of the source's choosing."""
    text = re.sub("[\x00\ue000\ue001]", "", text)
    text = _BACKSLASH_ESCAPE.sub(r"\1", text)
    links: list[str] = []

    def keep(match: re.Match[str]) -> str:
        is_image, label, target = match.groups()
        if is_image:  # remote images would load third-party content: keep the words only
            return label
        links.append(f"[{_entities(label)}]({target})")
        return f"\ue000{len(links) - 1}\ue001"

    text = _entities(_SAFE_LINK.sub(keep, text))
    text = _FENCE_INFO.sub(r"\1\2", text)  # no ```mermaid (diagrams can carry links) or other fence magic
    return _PLACEHOLDER.sub(lambda m: links[int(m.group(1))], text)
