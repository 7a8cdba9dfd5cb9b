"""Escape debris in built pages: what a reader would see on screen when text was escaped or cleaned wrongly.

`escape_debris(html)` reads the visible text of a built page (code blocks and diagrams left out: a backslash
or a row of tildes is legitimate there) and reports backslash escapes Python-Markdown did not consume
(`\\~`, `\\_`), reStructuredText underlines (`~~~~`, `====`) and Sphinx roles (`:class:`, `:func:`) that
leaked from docstrings. Tests and the page-quality bench call it over every page of a built site.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BACKSLASH = re.compile(r"\\[\\`*_{}\[\]()#+\-.!|~<>=:?]")
_UNDERLINE = re.compile(r"~{4,}|={4,}|\^{4,}")
_ROLE = re.compile(
    r"(?<![\w:]):(?:py:|c:|cpp:|js:)?(?:class|func|meth|mod|attr|obj|exc|data|const|ref|doc|term|type|any|"
    r"samp|kbd|file|program|envvar|option|math|pep|rfc|member|var|macro|struct|function)s?:"
)
_CHECKS = (("unconsumed escape", _BACKSLASH), ("underline", _UNDERLINE), ("role", _ROLE))
# Elements whose text is not prose: code shows characters verbatim, scripts and diagrams are not read.
_SKIPPED = {"pre", "code", "script", "style", "svg", "kbd", "samp", "textarea", "template"}


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)


def visible_text(page_html: str) -> str:
    """The text of a page a reader sees as prose (code, scripts and diagrams left out)."""
    parser = _VisibleText()
    parser.feed(page_html)
    parser.close()
    return " ".join(parser.parts)


def escape_debris(page_html: str) -> list[str]:
    """Every piece of escape debris in a page's visible text, as "kind: …context…" (empty when clean)."""
    text = visible_text(page_html)
    found = []
    for kind, pattern in _CHECKS:
        end = -1
        for match in pattern.finditer(text):
            if match.start() > end:  # one report per run of debris ("\~\~\~…" is one finding)
                context = " ".join(text[max(0, match.start() - 25) : match.end() + 25].split())
                found.append(f"{kind}: {context!r}")
            end = match.end() + 2
    return found
