"""The site's navigation, kept bounded so the build stays linear in the number of pages.

Material renders the whole nav into every page: listing every page made a 1,000-page build take 42 s with
287 KB per page, a bounded nav 6.8 s and 17 KB (issue 5). So the nav holds Home, each section's index and
the few dozen most recently updated repositories and topics; everything else (shards, reports, analyses,
raw sources, tag pages) is reached from index pages, landing pages and tag pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .catalog import Catalog

MAX_PER_SECTION = 30
"""Most recent repositories / topics the nav lists; the section index lists them all."""


def build_nav(site_src: Path, catalog: Catalog, limit: int = MAX_PER_SECTION) -> list[Any]:
    """An mkdocs `nav` value: bare page paths, so titles come from the (sanitized) page frontmatter."""
    nav: list[Any] = []
    if (site_src / "index.md").is_file():
        nav.append({"Home": "index.md"})
    for title, section, kind in (("Repositories", "repos", "repo"), ("Topics", "topics", "topic")):
        pages = _section(site_src, section, [entry.path for entry in catalog.of_kind(kind)][:limit])
        if pages:
            nav.append({title: pages})
    if (site_src / "tags" / "index.md").is_file():
        nav.append({"Tags": "tags/index.md"})
    return nav


def _section(site_src: Path, section: str, recent: list[str]) -> list[str]:
    index = f"{section}/index.md"
    pages = [index] if (site_src / index).is_file() else []
    # catalog paths are already validated to be existing pages inside site_src
    return pages + [path for path in recent if path != index]


def count_entries(nav: list[Any]) -> int:
    """How many page links a nav holds (what each built page repeats)."""
    total = 0
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        total += count_entries(value) if isinstance(value, list) else 1
    return total
