"""The site's navigation, kept bounded so the build stays linear in the number of pages.

Material renders the whole nav into every page, so it holds Home, each section's index and the few dozen most
recently updated entries; the rest is reached from index, landing and tag pages. While one of an entry's own
pages (or a topic's raw source) is rendered, `reading_path` puts that entry's pages as a section in its place in
the nav, for that page only; tag pages sit under Tags.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure import StructureItem
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


# --------------------------------------------------------------------------- an entry's reading path

# A repository's pages (index, shards, then the answers to the questions asked of it) and a topic's (landing,
# report, analysis, sources); a topic's raw sources stay out: there can be hundreds, and the sources page
# lists them.
_ENTRY_PAGE = re.compile(
    r"^(?P<entry>repos/[^/]+/[^/]+/|topics/[^/]+/)"
    r"(?P<page>index\.md|(?:guide|reference|shards|answers)/[^/]+\.md|output/report\.md|processed/analysis\.md"
    r"|sources\.md)$"
)
# a repository's guide (getting started, then its concepts) and reference pages come before its subsystems
_ORDER = {
    "index.md": 0,
    "output/report.md": 1,
    "processed/analysis.md": 2,
    "sources.md": 3,
    "guide/getting-started.md": 1,
}
_FOLDER_ORDER = {"guide": 2, "reference": 3, "shards": 4, "answers": 5}


def entry_pages(files: Files) -> dict[str, list[File]]:
    """Each repository's and topic's pages in reading order, keyed by the entry's folder ("repos/<owner>/
    <repo>/", "topics/<slug>/"): landing page first, shards by file name. One pass, once per build."""
    groups: dict[str, list[File]] = {}
    for file in files.documentation_pages():
        match = _ENTRY_PAGE.match(file.src_uri)
        if match:
            groups.setdefault(match.group("entry"), []).append(file)
    for entry, members in groups.items():
        members.sort(key=lambda f: (_place(f.src_uri.removeprefix(entry)), f.src_uri))
    return {key: members for key, members in groups.items() if members[0].src_uri == f"{key}index.md"}


def _place(page: str) -> int:
    """Where a page of an entry sits in its reading order (ties: by file name)."""
    return _ORDER.get(page, _FOLDER_ORDER.get(page.split("/", 1)[0], 6))


_RAW_PAGE = re.compile(r"^(?P<entry>topics/[^/]+/)raw/[^/]+\.md$")
TAGS_INDEX = "tags/index.md"


def reading_path(page: Page, nav: Navigation, groups: dict[str, list[File]]) -> Navigation:
    """The nav to render `page` with: the bounded site nav, plus — on a repository's or topic's pages, a topic's
    raw sources included — that entry as a section holding its pages, so the left nav lists them, the footer's
    previous/next walks them and the breadcrumb leads back (Repositories › repository); a tag page sits under
    Tags. The entry's section takes its landing page's place, so the sidebar's order never changes while
    browsing. Costs O(size of the bounded nav)."""
    if page.file.src_uri.startswith("tags/"):
        return _under_tags(page, nav)
    match = _ENTRY_PAGE.match(page.file.src_uri) or _RAW_PAGE.match(page.file.src_uri)
    entry = match.group("entry") if match else ""
    pages = [file.page for file in groups.get(entry, []) if isinstance(file.page, Page)]
    listing = f"{entry.split('/', 1)[0]}/index.md"
    top = next(
        (s for s in nav.items if isinstance(s, Section) and s.children and _is_page(s.children[0], listing)),
        None,
    )
    if len(pages) < 2 or top is None or (page not in pages and not _RAW_PAGE.match(page.file.src_uri)):
        return nav
    section = Section(pages[0].title or entry, _grouped(entry, pages))
    for part in section.children:
        if isinstance(part, Section):
            part.parent = section
    children = list(top.children)
    if pages[0] in children:
        children[children.index(pages[0])] = section
    else:  # an entry older than the bounded nav's few dozen: shown after the section's index
        position = 1 if children and _is_page(children[0], listing) else 0
        children.insert(position, section)
    around = Section(top.title, children)
    page.active = False  # clears the flag MkDocs set along the page's old parents (the shared site nav)
    section.parent = around
    page.parent = next(
        (p for p in section.children if isinstance(p, Section) and page in p.children), section
    )
    if page in pages:
        _link_neighbours(page, pages)
    else:  # a raw source: back to the entry's last page, its sources list (which links it)
        page.previous_page, page.next_page = pages[-1], None
    page.active = True  # marks the new path open; MkDocs clears it along this path after rendering
    return Navigation([around if item is top else item for item in nav.items], nav.pages)


# a repository's folders of pages, each a section under its landing page: a guide concept and a subsystem may
# share a name ("Options"), and thirty pages read better in four groups
_FOLDER_TITLES = {"guide": "Guide", "reference": "Reference", "shards": "Subsystems", "answers": "Questions"}


def _grouped(entry: str, pages: list[Page]) -> list[StructureItem]:
    """A repository's pages in reading order, those of each folder (guide, reference, shards, answers)
    under a section of its own; a topic's pages as they are."""
    items: list[StructureItem] = []
    repo = entry.rstrip("/").rsplit("/", 1)[-1]
    for page in pages:
        folder, _, rest = page.file.src_uri.removeprefix(entry).partition("/")
        title = _FOLDER_TITLES.get(folder) if rest and entry.startswith("repos/") else None
        if title is not None:
            _label_without_repo(page, repo)
        last = items[-1] if items else None
        if title is None:
            items.append(page)
        elif isinstance(last, Section) and last.title == title:
            last.children.append(page)
        else:
            items.append(Section(title, [page]))
    return items


def _label_without_repo(page: Page, repo: str) -> None:
    """ "piccolo · Configuration" (the page's title, which search results show) is "Configuration" in the
    sidebar, under the repository's own section: Material prints a page's `typeset.title` there in its place.
    The title is already clean (sanitize.clean_title) and is cut at a plain " · ", so the label is as safe."""
    title = page.title or ""
    prefix = f"{repo} · "
    if title.startswith(prefix) and title != prefix:
        page.typeset = {"title": title.removeprefix(prefix)}  # type: ignore[attr-defined]


def _under_tags(page: Page, nav: Navigation) -> Navigation:
    """A tag page and the tags index under a Tags section led by the index: breadcrumb Tags › tag, and the
    footer leads from a tag back to the index."""
    index = next((item for item in nav.items if _is_page(item, TAGS_INDEX)), None)
    if not isinstance(index, Page):
        return nav
    section = Section(index.title or "Tags", [index])
    page.active = False
    page.parent = section
    if page is not index:
        page.previous_page, page.next_page = index, None
    page.active = True
    return Navigation([section if item is index else item for item in nav.items], nav.pages)


def _link_neighbours(page: Page, pages: list[Page]) -> None:
    at = pages.index(page)
    page.previous_page = pages[at - 1] if at > 0 else page.previous_page
    page.next_page = pages[at + 1] if at + 1 < len(pages) else None


def _is_page(item: object, src_uri: str) -> bool:
    return isinstance(item, Page) and item.file.src_uri == src_uri
