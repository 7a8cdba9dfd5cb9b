"""The site's navigation, kept bounded so the build stays linear in the number of pages.

Material renders the whole nav into every page: listing every page made a 1,000-page build take 42 s with
287 KB per page, a bounded nav 6.8 s and 17 KB (issue 5). So the nav holds Home, each section's index and
the few dozen most recently updated repositories and topics; everything else (shards, reports, analyses,
raw sources, tag pages) is reached from index pages, landing pages and tag pages.

A repository's own pages get more: while one of them is rendered, `reading_path` puts that repository's
index and shards into the nav as a section (left navigation, previous/next, breadcrumb), for that page only,
so the nav stays bounded whatever the number of repositories and shards.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

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


# --------------------------------------------------------------------------- a repository's reading path

_REPOSITORY_PAGE = re.compile(r"^repos/([^/]+)/([^/]+)/(?:index\.md|shards/[^/]+\.md)$")


def repository_pages(files: Files) -> dict[str, list[File]]:
    """Each repository's pages in reading order — its index, then its shards by file name — keyed by the
    repository folder ("repos/<owner>/<repo>/"). One pass over the files, once per build."""
    groups: dict[str, list[File]] = {}
    for file in files.documentation_pages():
        match = _REPOSITORY_PAGE.match(file.src_uri)
        if match:
            groups.setdefault(f"repos/{match.group(1)}/{match.group(2)}/", []).append(file)
    for members in groups.values():
        members.sort(key=lambda f: (not f.src_uri.endswith("/index.md"), f.src_uri))
    return {key: members for key, members in groups.items() if members[0].src_uri.endswith("/index.md")}


def reading_path(page: Page, nav: Navigation, groups: dict[str, list[File]]) -> Navigation:
    """The nav to render `page` with: the bounded site nav, plus — on a repository's pages — that repository
    as a section holding its index and shards, so the left nav lists them, the footer's previous/next walks
    them and the breadcrumb leads back (Repositories › repository). Costs O(size of the bounded nav)."""
    match = _REPOSITORY_PAGE.match(page.file.src_uri)
    members = groups.get(f"repos/{match.group(1)}/{match.group(2)}/", []) if match else []
    pages = [file.page for file in members if isinstance(file.page, Page)]
    repositories = next((item for item in nav.items if _is_section_of(item, "repos/index.md")), None)
    if len(pages) < 2 or page not in pages or repositories is None:
        return nav
    section = Section(pages[0].title or members[0].src_uri, list(pages))
    children = [c for c in repositories.children if not (isinstance(c, Page) and c is pages[0])]
    position = 1 if children and _is_page(children[0], "repos/index.md") else 0
    around = Section(repositories.title, children[:position] + [section] + children[position:])
    page.active = False  # clears the flag MkDocs set along the page's old parents (the shared site nav)
    section.parent, page.parent = around, section
    _link_neighbours(page, pages)
    page.active = True  # marks the new path open; MkDocs clears it along this path after rendering
    return Navigation([around if item is repositories else item for item in nav.items], nav.pages)


def _link_neighbours(page: Page, pages: list[Page]) -> None:
    at = pages.index(page)
    page.previous_page = pages[at - 1] if at > 0 else page.previous_page
    page.next_page = pages[at + 1] if at + 1 < len(pages) else None


def _is_page(item: object, src_uri: str) -> bool:
    return isinstance(item, Page) and item.file.src_uri == src_uri


def _is_section_of(item: object, index_uri: str) -> bool:
    return isinstance(item, Section) and bool(item.children) and _is_page(item.children[0], index_uri)
