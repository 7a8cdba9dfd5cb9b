"""HTML to plain text: a page's title, its link targets and its visible paragraphs, read by lxml's forgiving
HTML parser (a module of its own so that a repository run, which reads no HTML, never loads lxml)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import lxml.html
from lxml import etree

_HIDDEN_TAGS = ("script", "style", "noscript", "template", "svg", "head", "iframe", "object")
_BLOCK_TAGS = ("p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "pre")
_XML_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*>")  # lxml refuses a str that declares its encoding


@dataclass(frozen=True)
class HtmlPage:
    """What a page's HTML holds for us: its <title>, its link targets and its visible text."""

    title: str  # og:title, else <title>, else the first <h1>
    links: tuple[str, ...]
    text: str  # paragraphs, blank-line separated; scripts, styles and the head left out


def read_html(html: str) -> HtmlPage:
    """A page read by lxml's forgiving HTML parser: malformed markup gives what could be read."""
    root = _html_root(html)
    if root is None:
        return HtmlPage("", (), "")
    links = tuple(h.strip() for h in root.xpath("//a/@href") if isinstance(h, str) and h.strip())
    return HtmlPage(_title(root), links, _visible_text(root))


def html_title(html: str) -> str:
    """The title of a page, read from its head (local folders hold big HTML files)."""
    root = _html_root(html[:200_000])
    return _title(root) if root is not None else ""


def _html_root(html: str) -> lxml.html.HtmlElement | None:
    try:
        return lxml.html.document_fromstring(_XML_DECLARATION.sub("", html.replace("\x00", "")))
    except (etree.ParserError, ValueError):  # an empty document, or nothing lxml can read
        return None


def _title(root: lxml.html.HtmlElement) -> str:
    """`og:title` (the title without the site name a `<title>` often appends), else `<title>`, else the
    first `<h1>`."""
    for meta in root.iter("meta"):
        content = meta.get("content")
        if (meta.get("property") or meta.get("name") or "").lower() == "og:title" and content:
            return strip_tags(content)
    for found in (root.find(".//title"), root.find(".//h1")):
        text = " ".join(found.text_content().split()) if found is not None else ""
        if text:
            return text
    return ""


def visible_markdown(html: str) -> str:
    """A page's visible text as Markdown blocks: its headings marked `#` to `######`, its list items `- `
    (what a reader of the fallback extraction needs to see a heading as a heading and a list as a list)."""
    root = _html_root(html)
    return _visible_text(root, marked=True) if root is not None else ""


_HEADING_TAGS = {f"h{n}": "#" * n for n in range(1, 7)}


def _visible_text(root: lxml.html.HtmlElement, *, marked: bool = False) -> str:
    for hidden in list(root.iter(*_HIDDEN_TAGS)):
        hidden.drop_tree()  # its tail (the text after it) stays
    for block in root.iter(*_BLOCK_TAGS):
        mark = (_HEADING_TAGS.get(block.tag, "") or ("-" if block.tag == "li" else "")) if marked else ""
        block.text = f"\n\n{mark} {block.text or ''}" if mark else f"\n\n{block.text or ''}"
        block.tail = f"\n\n{block.tail or ''}"
    paragraphs = (" ".join(p.split()) for p in re.split(r"\n\s*\n", root.text_content()))
    return "\n\n".join(p for p in paragraphs if p)


def strip_tags(snippet: str) -> str:
    """Plain text of an HTML snippet, on one line (API answers highlight matches with `<strong>`, `<span>`)."""
    return " ".join(read_html(snippet).text.split())
