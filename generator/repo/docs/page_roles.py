"""What a docs file is to the guide: a page of its own, or a fragment another shows whole, the README again, a
redirect, the maintainers' notes; the one long page that is the whole manual; the introduction; a page that
shows the project in use."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from generator.documents import Document
from generator.documents.header import unordered
from generator.documents.model import Block
from generator.documents.redirect import redirect_target
from generator.repo.docs.headings import HOW_TO, skipped_section
from generator.repo.docs.passages import MIN_WORDS, in_force
from generator.repo.docs.readme_concepts import README_CONCEPTS, top_level
from generator.repo.docs.started import GETTING_STARTED

_INTRO_PAGE = re.compile(
    r"^(?:\d+[-_.])?(?:index|readme|intro\w*|overview|about|getting[-_ ]?started|get[-_ ]?started|quick[-_ ]?start)$",
    re.IGNORECASE,
)
MANUAL_PAGES = (
    3  # docs of this many pages may be one long page that is the manual (beside a changelog, an API)
)
# "basics" and "intro" as words of a page's name (`01-intro`, `the-basics`), never inside another word:
# kysely's `introspecting-relation-metadata`, graphql's "Introspection", redux's `BasicReducerStructure`
STARTER = re.compile(
    rf"{HOW_TO}|(?:^|[\W_\d])(?:basics?|intro(?:duction|ducing)?)(?:$|[\W_\d])|^start$", re.IGNORECASE
)
_RECIPES = re.compile(r"recipes?|cookbook", re.IGNORECASE)
# a page named as the user's guide (typeguard's and apscheduler's userguide.rst, huey's guide.rst, koa's
# guide.md): the docs' first walk through the project in use — never a migration or a contribution guide
_USER_GUIDE = re.compile(r"^(?:user[-_ ]?)?guide$", re.IGNORECASE)

# a page for the project's maintainers, by its name: tablib's and diskcache's development.rst, dynaconf's
# maintainers-manual.md
_MAINTAINERS_PAGE = re.compile(r"maintain\w*(?:[-_]\w+)?", re.IGNORECASE)
_DEVELOPMENT_PAGE = re.compile(r"development|developing|hacking", re.IGNORECASE)
_CONTRIBUTING = re.compile(
    r"pull request|contribut|\bgit clone\b|\btox\b|test suite|\bissue tracker", re.IGNORECASE
)


def for_maintainers(path: str, document: Document | None) -> bool:
    """Whether a docs page is for the project's maintainers: named so, or named for development and saying
    how to work on the project (its pull requests, contributors, test suite) — a users' "Development
    server" page says none of that."""
    stem = PurePosixPath(path).stem
    if _MAINTAINERS_PAGE.fullmatch(stem):
        return True
    if document is None or not _DEVELOPMENT_PAGE.fullmatch(stem):
        return False
    said = " ".join(block.text for _, block in document.blocks())
    return len(_CONTRIBUTING.findall(said)) >= 2


def readme_only(document: Document | None, readme: str) -> bool:
    """Whether every block of a docs page a guide would quote is the README's, included (`.. include::
    ../README.rst`): bleach's and vcrpy's index.rst add only a "Contents" toctree and sphinx-quickstart's
    "Indices and tables", and their guide opened with a page titled "index" repeating the overview."""
    origins = (
        {b.origin for s, b in document.blocks() if not skipped_section(s)}
        if document is not None and readme
        else set()
    )
    return origins == {readme}


def moved(document: Document | None) -> bool:
    """Whether a docs page only says where its content went (dayjs' docs/en/*.md: "The documents are moved
    to https://day.js.org."; litestar's "This page has moved to …"): a redirect, never a guide page."""
    blocks = [b for _, b in document.blocks()] if document is not None else []
    return (
        0 < len(blocks) <= 2
        and all(b.kind == "paragraph" for b in blocks)  # a page showing code or a list says something
        and bool(redirect_target("\n".join(b.text for b in blocks)))
    )


def assembles_pages(path: str, documents: Mapping[str, Document]) -> bool:
    """Whether every block of a docs page is another docs page's, included: a page that assembles the
    others (pendulum's docs/index.md is seventeen `{!docs/….md!}` lines) says nothing they do not."""
    document = documents.get(path)
    origins = {block.origin for _, block in document.blocks()} if document is not None else set()
    return len(origins) > 1 and all(o and o != path and o in documents for o in origins)


def included_whole(documents: Mapping[str, Document]) -> set[str]:
    """The docs fragments another page includes whole — files without a heading of their own (peewee's
    pool-snippet.rst, cerberus' includes/) —: their text is read where it is shown. A page with a title
    stays a page (huey's django.rst, shown in contrib.rst under no heading of its own there), and so does
    one another includes only a part of (svcs' why.md quoting its index between two markers)."""
    found: set[str] = set()
    for path, document in documents.items():
        spans: dict[str, list[Block]] = {}
        for _, block in document.blocks():
            if block.origin and block.origin != path and block.origin in documents:
                spans.setdefault(block.origin, []).append(block)
        for origin, shown in spans.items():
            if any(section.heading for section in documents[origin].sections):
                continue
            own = [b for _, b in documents[origin].blocks()]
            if (
                own
                and min(b.start for b in shown) <= own[0].start
                and max(b.end for b in shown) >= own[-1].end
            ):
                found.add(origin)
    return found


def one_page_manual(pages: Sequence[Document]) -> Document | None:
    """The docs page holding more than half of the docs' lines under at least `README_CONCEPTS` headings of
    its own, among at most `MANUAL_PAGES` (pydantic-settings' 3,600-line docs/index.md, gin's docs/doc.md);
    None when the docs are divided into pages."""
    lines = {p.origin: max((s.end for s in p.sections), default=0) for p in pages}
    if (
        not pages
        or len(pages) > MANUAL_PAGES
        or not (longest := max(pages, key=lambda p: lines[p.origin])).sections
    ):
        return None
    top = top_level(longest.sections)
    headings = {s.path[top - 1] for s in longest.sections if len(s.path) >= top}
    if lines[longest.origin] * 2 <= sum(lines.values()) or len(headings) < README_CONCEPTS:
        return None
    return longest


def introduction(first: Sequence[Document], *, ordered: bool = True, folder: str = "") -> list[Document]:
    """The docs' introduction: their first page, or, when that says nothing in prose (valtio's
    `introduction.mdx` is a title alone, rich's `index.rst` a toctree), the next page named as one
    (`getting-started`, `introduction`, `overview`); none when it is no longer in force. Unless the docs'
    navigation `ordered` the pages, the first is only first by name (axum's src/docs/ of fragments its
    crate docs include opens with `debugging_handler_type_errors.md`): only a page named as one introduces —
    a page that is its folder's index goes by the folder's name (valibot's `(advanced)/async-validation/
    index.mdx`), but for the docs folder's own index."""
    saying = [
        d
        for n, d in enumerate(first)
        if ((n == 0 and ordered) or _INTRO_PAGE.match(_page_name(d.origin, folder)))
        and any(_says(b) for _, b in d.blocks())
    ]
    return [saying[0]] if saying and in_force(saying[0]) else []


def _page_name(path: str, folder: str) -> str:
    """A docs page's name: its file's, or its folder's for the index of a folder below `folder`, the one all
    the docs pages are in (watchdog's docs/source/index.rst is the docs' own index)."""
    page = PurePosixPath(path)
    if page.stem.lower() in ("index", "readme") and str(page.parent) not in (folder or ".", "."):
        return page.parent.name
    return page.stem


def _says(block: Block) -> bool:
    return block.kind == "paragraph" and len(block.text.split()) >= MIN_WORDS


def is_starter(path: str, readme: str, title: str = "") -> bool:
    """The README, a getting-started or usage page (`quickstart.md`, `01-intro.md`), one titled so (h3's and
    nitro's `1.guide/0.index.md` "Getting Started", vue-router's `guide/index.md`), the user's guide
    (`userguide.rst`), or a page of recipes (okio's docs/recipes.md, huey's, structlog's, cattrs' recipes,
    dramatiq's and alembic's cookbook): each shows the project in use."""
    named = unordered(PurePosixPath(path).stem)
    return path == readme or bool(
        STARTER.search(named)
        or _RECIPES.search(named)
        or _USER_GUIDE.match(named)
        or GETTING_STARTED.match(title)
    )
