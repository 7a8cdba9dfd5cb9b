"""The concepts of a docs folder: one per top-level section, a section of too many pages divided, a category
of long guides one concept a page, a reference of many short entries folded into one."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Collection, Sequence
from pathlib import PurePosixPath

from generator.documents import Document, title_from_name
from generator.documents.header import unordered
from generator.documents.included import api_names
from generator.repo.docs.concept import GENERIC_TITLE, MAX_CONCEPTS, doc_concept, humane
from generator.repo.docs.model import DocConcept, DocPage, DocPassage
from generator.repo.docs.passages import PASSAGES_PER_PAGE, in_force, quotable_passages, spread
from generator.repo.docs.symbolnames import SymbolNames
from generator.repo.synthesize.readme import news_blocks

REFERENCE_PAGES = 10  # sibling pages past the guide's cut, each a concept on its own, folded into one
ENTRY_PASSAGES = 3  # a folded reference's page (an API entry) quotes its opening section, this many blocks
MAX_ENTRIES = 400  # pages of one folded reference
PAGES_PER_CONCEPT = 12  # a docs section with more pages is split: one concept per sub-folder or page
PASSAGES_PER_CONCEPT = 300  # shared by its pages; a page alone in its concept may quote all of them
LEAST_SHARE = 8  # passages a page of a crowded concept still quotes
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")  # an identifier's or a title's words
LONG_PAGE_SECTIONS = 6  # a doc page of this many sections is a guide of its own, never merged with another
# a docs folder named for a kind of page, not a subject: its pages are the subjects (Diátaxis' parts, a reference);
# or for holding the manual: Sphinx's source folder beside its build (omegaconf's docs/source/ beside docs/design/
# had been one concept, "OmegaConf", of usage, custom resolvers, structured configs, grammar …)
_INDEX_PAGE = re.compile(r"^(?:index|readme|_index)\.(?:md|mdx|markdown|rst)$", re.IGNORECASE)
_CATEGORY = re.compile(
    r"guides?|tutorials?|topics|how-?tos?|references?|api|concepts|core[-_]concepts|advanced|basics|essentials"
    r"|pages|content|source",
    re.IGNORECASE,
)
# the title sphinx-quickstart writes on a docs' front page ("Welcome to dogpile.cache's documentation!",
# "DeepDiff 8.6.1 documentation!"): the project's name in boilerplate, stale with its version
_QUICKSTART_TITLE = re.compile(
    r"(?i)(?:welcome to (?:the )?(?P<welcomed>.+?)(?:['’]s)?|(?P<versioned>.+?) v?\d+(?:\.\d+)+\S*) documentation\W*"
)
_NOT_PACKAGES = frozenset({"index", "readme", "overview", "intro", "introduction", "docs"})


def concepts_of(
    documents: Sequence[Document], folder: str, names: SymbolNames, sections: dict[str, str] | None = None
) -> list[DocConcept]:
    """One concept per top-level section of the docs (a folder under the docs root), or per page for the
    pages at the root; in the docs' order. A folder of more pages than a concept holds is divided by the
    sections its navigation gives (`sections`: page → section), else by its sub-folders. A page the
    navigation puts under another page (docs-builder `children`) joins that page's concept wherever it is."""
    sections = sections or {}
    paths = {document.origin for document in documents}
    folder = _pages_root(paths, folder)
    groups: dict[str, list[Document]] = {}
    for document in documents:
        key = _group_of(document.origin, folder)
        parent = sections.get(document.origin, "")
        if key == PurePosixPath(document.origin).name and parent in paths:
            key = parent  # a page at the docs root under a parent page: that page's concept
        groups.setdefault(key, []).append(document)
    groups, folded = _fold_references(_long_pages_apart(_split_large(groups, folder, sections)))
    groups, rejoined = _rejoin(groups, folded, folder)
    concepts: list[DocConcept] = []
    references = 0  # folded references, listed past the cut
    for key, members in groups.items():
        if key not in folded and len(concepts) - references >= MAX_CONCEPTS:
            continue
        quotable = [quotable_passages(d) if in_force(d) else [] for d in members]
        if key in folded:
            pages = [_page(d, _entry(q)) for d, q in zip(members, quotable, strict=True)][:MAX_ENTRIES]
        else:
            shares = _shares([len(q) for q in quotable])
            pages = [_page(d, spread(q, n)) for d, q, n in zip(members, quotable, shares, strict=True)]
        pages = [p for p in pages if p.passages or p.standing or p.api][
            : MAX_ENTRIES if key in folded or key in rejoined else PAGES_PER_CONCEPT
        ]
        if pages:
            package = "" if PurePosixPath(key).stem.lower() in _NOT_PACKAGES else key
            concepts.append(doc_concept(_concept_name(key, pages), pages, names, package))
            references += key in folded
    return concepts


def _page(document: Document, quoted: Sequence[DocPassage]) -> DocPage:
    """A doc file as a concept page lists it, with the passages it quotes and the code objects it documents
    from their docstrings; one no longer in force is listed, labelled, and not quoted."""
    title = document.title or humane(document.origin)
    if not in_force(document):
        return DocPage(document.origin, title, (), standing=document.status)
    # a section announcing news ("📢 Important Update 📢") is the docs' own and stays, after what the page
    # explains: what opens a page is what the page's concept, the guide's list and a shard's line say it is
    starts = news_blocks(document)
    ordered = sorted(quoted, key=lambda p: p.path == document.origin and p.start in starts)  # stable
    headline = next((s.heading for s in document.sections if s.level == 1), "")
    return DocPage(document.origin, title, tuple(ordered), api=_api(document), headline=headline)


def _shares(sizes: Sequence[int], total: int = PASSAGES_PER_CONCEPT) -> list[int]:
    """How many passages each page of a concept quotes, `total` in all: an equal share, at most
    PASSAGES_PER_PAGE and at least LEAST_SHARE; a page with fewer leaves the rest to the longer ones. A page
    alone in its concept has the whole budget (mermaid's flowchart syntax, 271 blocks, had lost its links,
    subgraphs and interaction sections at 80)."""
    most = PASSAGES_PER_PAGE if len(sizes) > 1 else total
    shares = [0] * len(sizes)
    left = total
    for pending, i in enumerate(sorted(range(len(sizes)), key=lambda i: sizes[i])):
        shares[i] = min(sizes[i], most, max(LEAST_SHARE, left // (len(sizes) - pending)))
        left -= shares[i]
    return shares


def _api(document: Document) -> tuple[tuple[str, int], ...]:
    found = {name: block.start for _, block in document.blocks() for name in api_names(block)}
    return tuple(found.items())


def _split_large(
    groups: dict[str, list[Document]], folder: str, sections: dict[str, str]
) -> dict[str, list[Document]]:
    """A section with more pages than a concept page holds becomes one concept per navigation section its
    pages are in (a page in none stands alone), else one per sub-folder (or page at its top), in the same
    order, folder by folder down until each holds few enough."""
    split: dict[str, list[Document]] = {}
    for key, members in groups.items():
        if len(members) <= PAGES_PER_CONCEPT:
            split[key] = members
            continue
        inner: dict[str, list[Document]] = {}
        for document in members:
            below = _group_of(document.origin, f"{folder}/{key}" if folder else key)
            inner.setdefault(f"{key}/{below}", []).append(document)
        by_section = _by_section(members, sections)
        if by_section is not None and len(by_section) < len(inner):
            split.update(by_section)  # a section of more pages than a concept holds lists its first ones
        else:
            split.update(_split_large(inner, folder, sections))
    return split


def _fold_references(groups: dict[str, list[Document]]) -> tuple[dict[str, list[Document]], set[str]]:
    """More concepts than a guide lists, by REFERENCE_PAGES or more (nlohmann/json's API reference, a page per
    function, 150 of them, was cut after "diff"): pages are folded into reference concepts, each in the place
    of its folder's first folded page, each page quoting its opening (`_entry`), listed past the cut. What is
    folded is chosen by what the pages are, not where they stand: first a folder's entries, its pages too
    short to be guides of their own, the folder with most first, wherever it is (x64dbg's one-line
    arithmetic commands had filled the guide before its breakpoint and memory commands; mermaid's one-
    paragraph config functions stood before its diagram syntax guides); then, guides of their own only when
    no folder holds that many entries, the folder with most loses its entries and then its last guides, as
    many as the guide is over (material-components-android's 45 component guides and mermaid's syntax
    guides had all been cut to their openings). A few pages over leave the cut as it is (Chart.js, four samples past it). The folded
    folders' keys are returned with the groups."""
    folded: set[str] = set()
    while True:
        listed = [k for k in groups if k not in folded]
        over = len(listed) - MAX_CONCEPTS
        if over < REFERENCE_PAGES:
            return groups, folded
        singles = [k for k in listed if len(groups[k]) == 1]
        entries = Counter(_folder(groups[k][0]) for k in singles if not _guide(groups[k][0]))
        folder, count = entries.most_common(1)[0] if entries else ("", 0)
        if count >= REFERENCE_PAGES:
            chosen = {k for k in singles if _folder(groups[k][0]) == folder and not _guide(groups[k][0])}
        else:  # its entries (a stub page "yet to be completed") before its last guides
            folder = Counter(_folder(groups[k][0]) for k in singles).most_common(1)[0][0]
            pages = [k for k in singles if _folder(groups[k][0]) == folder]
            short = [k for k in pages if not _guide(groups[k][0])][:over]
            guides = [k for k in pages if k not in short]
            chosen = {*short, *guides[len(guides) - (over - len(short)) :]}
        merged: dict[str, list[Document]] = {}
        for key, members in groups.items():
            merged.setdefault(folder if key in chosen else key, []).extend(members)
        groups = merged
        folded.add(folder)


def _rejoin(
    groups: dict[str, list[Document]], folded: set[str], folder: str
) -> tuple[dict[str, list[Document]], set[str]]:
    """Still more concepts than the guide lists: the concepts that are pages or sub-folders of one docs
    folder (a section divided into a concept a page) are that folder's one concept again, the folder in most
    pieces first, each in the place of its first piece, until the guide has room for every section.
    piccolo's query types and query clauses, 31 concepts of a page each, had pushed its serialization,
    testing and API reference sections past the cut, on no page. The docs' root is never one concept. The
    folders made whole are returned with the groups: each keeps all its pages."""
    rejoined: set[str] = set()
    while len([k for k in groups if k not in folded]) > MAX_CONCEPTS:
        homes = {k: _home(members) for k, members in groups.items() if k not in folded}
        pieces = Counter(
            h for h in homes.values() if h not in {folder, "."} and h.startswith(f"{folder}/" * bool(folder))
        )
        if not pieces or pieces.most_common(1)[0][1] < 2:
            break
        home = pieces.most_common(1)[0][0]
        key = home[len(folder) + 1 :] if folder else home
        merged: dict[str, list[Document]] = {}
        for at, members in groups.items():
            merged.setdefault(key if homes.get(at) == home else at, []).extend(members)
        groups = merged
        rejoined.add(key)
    return groups, rejoined


def _home(members: Sequence[Document]) -> str:
    """The folder a concept's pages stand in (a section of its own is its own folder's: never a piece)."""
    return posixpath.commonpath([PurePosixPath(d.origin).parent.as_posix() for d in members])


def _guide(document: Document) -> bool:
    """Whether a doc page is a guide of its own (LONG_PAGE_SECTIONS sections with something in them)."""
    return sum(1 for s in document.sections if s.blocks) >= LONG_PAGE_SECTIONS


def _folder(document: Document) -> str:
    return PurePosixPath(document.origin).parent.as_posix()


def _entry(found: Sequence[tuple[int, DocPassage]]) -> list[DocPassage]:
    """An entry of a folded reference: the first blocks of its first section that has any (what the entry
    is, its signature), a lead-in kept only with what it introduces."""
    passages = [p for _, p in found if p.heading == found[0][1].heading] if found else []
    shown = passages[:ENTRY_PASSAGES]
    return shown[:-1] if shown and shown[-1].text.rstrip().endswith(":") else shown


def _long_pages_apart(groups: dict[str, list[Document]]) -> dict[str, list[Document]]:
    """A section most of whose pages are guides of their own (LONG_PAGE_SECTIONS sections or more) is a
    category, one concept per page: loguru's docs/resources/ holds a migration guide, a troubleshooting FAQ
    and a book of recipes, three subjects, not one "Resources"; okhttp's features/ (calls, caching,
    connections, interceptors …) and knex's guide/ (query builder, schema builder, transactions,
    migrations …) had each been one concept. A section opened by an index page that names it, or calls
    itself an introduction (Chart.js' "Radial Axes" and its linear axis), is one subject, its pages
    together; an index page about a subject of its own (knex's guide/index.md, "Installation") opens none.
    Where only most of its pages are guides, a category is divided only while the guide has room
    (MAX_CONCEPTS), the first ones first: dividing one never pushes other concepts past the cut (Chart.js'
    configuration pages, trpc's React hooks). A folder named for a kind of page (guides/, tutorial/, topics/,
    reference/, api/, advanced/) is a category whatever its pages' length: superstruct's six short guides
    (validating, coercing, refining, handling errors …) had been one concept called "Guides"."""
    room = MAX_CONCEPTS - len(groups)
    apart: dict[str, list[Document]] = {}
    for key, members in groups.items():
        guides = sum(1 for d in members if _guide(d))
        name = PurePosixPath(key).name  # a folder's, or a navigation section's ("Basics": the author's group)
        in_folder = all(name in PurePosixPath(d.origin).parent.parts for d in members)
        named = in_folder and (
            _CATEGORY.fullmatch(unordered(name)) is not None or _lists_its_pages(key, members)
        )
        long = len(members) > 1 and (named or guides >= 2 and not _opened(key, members))
        if long and guides < len(members):
            long = (named or guides * 2 > len(members)) and len(members) - 1 <= room
            room -= len(members) - 1 if long else 0
        for document in members:
            if long and named and _landing(key, document):
                continue  # the category's landing page: the pages it lists say it (websockets' howto/index.rst)
            apart.setdefault(document.origin if long else key, []).append(document)
    return apart


def _lists_its_pages(key: str, members: Sequence[Document]) -> bool:
    """Whether a folder's front page is a title over nothing of its own: the site lists the folder's pages
    there (a just-the-docs parent page, `has_children: true`: grpc-gateway's mapping/index.md over nine
    pages on marshalers, OpenAPI output, binary uploads …), so the folder is a category of subjects."""
    return any(
        _INDEX_PAGE.match(PurePosixPath(d.origin).name)
        and PurePosixPath(d.origin).parent.name == PurePosixPath(key).name
        and not any(b.text.strip() for _, b in d.blocks())
        for d in members
    )


def _landing(key: str, document: Document) -> bool:
    """Whether a page is its folder's landing page: an index page titled generically or by the folder's name
    ("How-to guides" over howto/); an index about a subject of its own ("Installation") is none."""
    squashed = re.sub(r"\W", "", document.title.lower())
    folder = re.sub(r"\W", "", unordered(PurePosixPath(key).name).lower())
    return unordered(PurePosixPath(document.origin).stem).lower() in _NOT_PACKAGES and (
        folder in squashed or _opened(key, [document])
    )


def _opened(key: str, members: Sequence[Document]) -> bool:
    """Whether a section's index page opens it as one subject: its title is generic ("Introduction",
    "Overview") or shares a word with the section's name ("Radial Axes" over radial/)."""
    named = {w[:4] for w in _WORDS.findall(humane(key).lower()) if len(w) > 2}
    return any(
        unordered(PurePosixPath(d.origin).stem).lower() in _NOT_PACKAGES
        and (
            GENERIC_TITLE.fullmatch(d.title.strip()) is not None
            or bool(named & {w[:4] for w in _WORDS.findall(d.title.lower()) if len(w) > 2})
        )
        for d in members
    )


def _by_section(members: Sequence[Document], sections: dict[str, str]) -> dict[str, list[Document]] | None:
    """The pages by the navigation section each is in (keyed by it), a page in none on its own; None when
    no section holds two of them. A named section (an mkdocs nav heading) of more pages than a concept
    holds is a category of concepts ("Features"), not one: its pages stay on their own; a page's children
    stay under it."""
    paths = {document.origin for document in members}
    sizes = Counter(sections.get(document.origin, "") for document in members)
    grouped: dict[str, list[Document]] = {}
    for document in members:
        section = sections.get(document.origin, "")
        if section not in paths and sizes[section] > PAGES_PER_CONCEPT:
            section = ""
        grouped.setdefault(section or document.origin, []).append(document)
    return grouped if any(len(pages) > 1 for pages in grouped.values()) else None


def _pages_root(paths: Collection[str], folder: str) -> str:
    """The folder the docs' pages all stand in, below `folder` (Sphinx's `docs/source/` beside its build
    files: trio, rich, dramatiq, tenacity, libuv), else `folder`: each of its top-level parts is a concept,
    never the whole manual one."""
    if len(paths) < 2 or not folder:
        return folder
    common = posixpath.commonpath([posixpath.dirname(p) for p in paths])
    return common if common.startswith(folder + "/") else folder


def _group_of(path: str, folder: str) -> str:
    rel = PurePosixPath(path[len(folder) + 1 :] if folder else path)
    return rel.parts[0] if len(rel.parts) > 1 else str(rel)


def _concept_name(key: str, pages: Sequence[DocPage]) -> str:
    """A single page's title; a folder's index page title, else the folder's name made readable. A front
    page titled by sphinx-quickstart's boilerplate is "About" the project it names."""
    first = pages[0]
    if boilerplate := _QUICKSTART_TITLE.fullmatch(first.title.strip()):
        return f"About {(boilerplate['welcomed'] or boilerplate['versioned']).strip()}"
    generic = GENERIC_TITLE.fullmatch(first.title.strip())
    if len(pages) > 1 and generic:  # a folder's "Overview" page: the folder names the concept
        return humane(key)
    named = first.title == title_from_name(PurePosixPath(first.path).stem)  # no title of its own
    if (
        len(pages) == 1 and generic and named and "/" in key
    ):  # a folder's index on its own: the folder names it
        return humane(PurePosixPath(key).parent.as_posix())
    if len(pages) == 1 or first.path == key:  # a page on its own, or the page that opens its section
        return first.title or humane(key)
    if PurePosixPath(first.path).stem.lower() in ("index", "readme", "overview", "intro"):
        return first.title or humane(key)
    return humane(key)
