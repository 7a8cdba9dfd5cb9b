"""Checks of built pages that only tests and benches run: escape debris a reader would see on screen (a
backslash escape Python-Markdown did not consume, a reST underline, a Sphinx role), what the search index holds
and how its results are shown, a topic report's citations against its reference list, and the size of the
site nav."""

from __future__ import annotations

import gzip
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from generator.site.pagefind import BUNDLE_DIR, SearchIndexError

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


_FRAGMENT_SIGNATURE = b"pagefind_dcd"


def indexed_pages(site_dir: Path) -> list[dict[str, Any]]:
    """What the search index holds for each page (url, title, content…), read back from Pagefind's fragments:
    the text a reader's result shows, so tests and benches can check it."""
    pages = []
    for fragment in sorted((site_dir / BUNDLE_DIR / "fragment").glob("*.pf_fragment")):
        data = gzip.decompress(fragment.read_bytes())
        pages.append(json.loads(data.removeprefix(_FRAGMENT_SIGNATURE)))
    return pages


_ESCAPING = 'fragment.content.replace(/</g,"&lt;").replace(/>/g,"&gt;")'


def as_displayed(site_dir: Path, text: str) -> str:
    """Index text as the search UI puts it into the page: Pagefind's loader escapes angle brackets (checked
    in the shipped pagefind.js, so an upgrade that stopped doing so fails loudly here)."""
    loader = (site_dir / BUNDLE_DIR / "pagefind.js").read_text(encoding="utf-8")
    if _ESCAPING not in loader:
        raise SearchIndexError("this Pagefind release no longer escapes result text; re-check before use")
    return text.replace("<", "&lt;").replace(">", "&gt;")


_CITATION = re.compile(r"\[\\\[(\d+)\\\]\]\((?:\.\./)?raw/([A-Za-z0-9_.-]+)\.md\)")
_REFERENCE = re.compile(r"^- \\\[(\d+)\\\] ", re.MULTILINE)


def citations_in(page: str) -> list[tuple[int, str]]:
    """(number, raw source id) of every citation link on a rendered page."""
    return [(int(m.group(1)), m.group(2)) for m in _CITATION.finditer(page)]


def reference_gaps(report_page: str) -> int:
    """On a rendered report: citation numbers with no reference entry, plus missing numbers in 1…n."""
    body, _, references = report_page.rpartition("\n## ")
    listed = [int(n) for n in _REFERENCE.findall(references)]
    cited = {n for n, _ in citations_in(body)}
    return len(cited - set(listed)) + len(set(range(1, len(listed) + 1)) ^ set(listed))


def count_entries(nav: list[Any]) -> int:
    """How many page links a nav holds (what each built page repeats)."""
    total = 0
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        total += count_entries(value) if isinstance(value, list) else 1
    return total
