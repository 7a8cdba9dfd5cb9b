"""Which files are the project's documentation, and in what order its docs present them: the `mkdocs.yml`
nav (or pydoc-markdown's pages, pydoc_nav.py), a YAML table of contents (docs-builder, Jupyter Book),
Sphinx (and MyST) toctrees, Docusaurus and VitePress sidebars (sidebars.py), mdBook's and GitBook's `SUMMARY.md`, a page's own `sidebar_position`/`order`/`weight` and a folder's
`_category_.json` position, else the folder tree (index and getting-started pages first). One reader per
format, each read once into one `Navigation` record; the order is the project's map of its concepts."""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from generator.config import load_bounded_yaml
from generator.documents import clean_heading, stated_field
from generator.errors import ConfigError, DeepkbError
from generator.repo.docs.pydoc_nav import pydoc_config_paths, pydoc_pages
from generator.repo.docs.sidebars import sidebar_order
from generator.repo.docs.substitutions import DOCSET_FILES, docset_subs
from generator.repo.map.walk import read_or_none, read_source
from generator.repo.model import RepoMap

DOC_SUFFIXES = (".md", ".mdx", ".markdown", ".rst")
DOCS_FOLDERS = frozenset({"docs", "doc", "documentation", "guide", "guides"})
NAV_BYTES = 200_000
TOP_DOCS = 3  # doc files that make a folder at the top of the repository its docs, whatever lies deeper
# not what the project is or how it works: history, process, legal, news, other languages' copies, and
# typedoc's generated reference (interfaces/, type-aliases/, variables/)
_HISTORY = r"changelogs?|changes|(?:version[-_ ]?)?history|news|release[-_ ]?notes?|releases|whats[-_]?new|what-s-new"
_NOT_DOCS = re.compile(
    # history under a date or version (gunicorn's 2026-news.md, svelte's CHANGELOG-pre-5.md, jest's
    # CHANGELOG_PRE_v30.md, pyparsing's whats_new_in_3_1.rst, CHANGELOG-historical.md), and a site's
    # "page not found"
    rf"(?:^|/)(?:v?\d[\w.]*[-_])?(?:{_HISTORY})(?:[-_](?:pre|old|historical|(?:in[-_])?v?\d)[\w.-]*)?\.\w+$"
    r"|(?:^|/)404\.\w+$"
    rf"|(?:^|/)(?:{_HISTORY}|contributing|contributors"
    r"|code[-_]of[-_]conduct|license|licence|copying|security|sponsor(?:s|ship)?|backers|authors|maintainers|governance"
    # how the project is released and how its own code and docs are written (okio's releasing.md, black's
    # release_process.md, faker's coding_style.rst and writing-docs.rst): its maintainers' process
    r"|releasing|release[-_]process|coding[-_]style|writing[-_]docs"
    r"|blog\w*|posts|roadmap|funding|support|pull_request_template|issue_template|management|help)(?:[./]|$)"
    r"|(?:^|/)(?:node_modules|vendor|third[-_]party|\.changeset|__snapshots__|fixtures?|testdata|data|inputs?|interfaces|type-aliases|variables|enumerations)/"
    r"|(?:^|/)\.github/(?!readme\.\w+$)"  # GitHub's templates and workflows; its README is the front page
    r"|(?:^|/)(?:zh|zh[-_](?:cn|hans|hant|tw)|ja|ko|fr|de|es|pt|pt[-_]br|ru|it|tr|vi|pl|uk|id)/"
    # a copy named for its language, with or without a region (react-hook-form's docs/README.ar-AR.md,
    # multer's doc/README-ar.md)
    r"|[._-](?:zh|cn|ja|jp|ko|kr|fr|de|es|pt|ru|it|tr|vi|ar|fa|he|hi|nl|pl|sv|uk|th|hu|ro|bn)"
    r"(?:[-_](?:[a-z]{2}|hans|hant))?\.(?:md|mdx|markdown|rst)$",
    re.IGNORECASE,
)
_FIRST = re.compile(
    r"^(?:index|readme|intro\w*|overview|about|getting[-_ ]?started|get[-_ ]?started|quick[-_ ]?start"
    r"|installation|install|usage|tutorial)$",
    re.IGNORECASE,
)
_BASICS = re.compile(r"^(?:basics?|essentials|fundamentals|core[-_ ]?concepts)$", re.IGNORECASE)
_ADVANCED = re.compile(r"^advanced(?:[-_ ]\w+)?$", re.IGNORECASE)
_README = re.compile(r"(?:^|/)readme\.\w+$", re.IGNORECASE)
_INDEX = re.compile(r"^index\.\w+$", re.IGNORECASE)
_FRONT = re.compile(r"(?:^|/)(?:readme|index)\.(?:md|mdx|markdown|rst)$", re.IGNORECASE)
_POSITIONS = ("sidebar_position", "position", "order", "weight", "nav_order", "nav")
UNSTATED = 10_000.0  # the place of a page or folder that states none: after those that do
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_NUMBERED = re.compile(r"^(\d+)[-_.]")
_TOCTREE = re.compile(
    r"^\.\.\s+toctree::[^\n]*\n((?:[ \t]+[^\n]*\n|[ \t]*\n)+)"  # reST
    r"|^(?:`{3,}|:{3,})\{toctree\}[^\n]*\n((?:(?!`{3}|:{3})[^\n]*\n)*)",  # MyST
    re.MULTILINE,
)
_CATEGORY_POSITION = re.compile(r"^position:\s*(-?\d+(?:\.\d+)?)\s*$", re.M)


def doc_files(repo_map: RepoMap) -> list[str]:
    """Every documentation file of the repository: Markdown, MDX and reST, minus history, legal and process
    files and other languages' copies."""
    docs = [
        f.path
        for f in repo_map.files
        if f.path.lower().endswith(DOC_SUFFIXES) and not _NOT_DOCS.search(f.path)
    ]
    copies = _translations(docs)
    kept = [p for p in docs if not copies or not any(p.startswith(c) for c in copies)]
    originals = {p.lower().rsplit(".", 1)[0] for p in kept}
    return [p for p in kept if not _translated_readme(p, originals)]


# a README or front page's copy in another language, named with its language (multer's doc/README-uz.md,
# signale's docs/readme.AL.md, `README.zh-CN.md`)
_LANGUAGE_COPY = re.compile(r"(?i)((?:.*/)?(?:readme|index))[-_.]([a-z]{2}(?:[-_][a-z]{2,4})?)(\.\w+)$")


def _translated_readme(path: str, originals: Collection[str]) -> bool:
    """Whether a doc file is a README's or front page's copy in another language than English: the same
    name without the language (among `originals`, the doc files' paths in lower case without their
    extension) stands beside it or at the top (the project's README)."""
    found = _LANGUAGE_COPY.fullmatch(path)
    if found is None or _ENGLISH.match(found.group(2)) or not _LANGUAGE_CODE.match(found.group(2)):
        return False
    stem = found.group(1).lower()
    return stem in originals or PurePosixPath(stem).name in originals


_LANGUAGE_CODE = re.compile(r"^[a-z]{2}(?:[-_](?:[a-z]{2}|hans|hant|latn|cyrl))?$", re.IGNORECASE)
_ENGLISH = re.compile(r"^en(?:[-_][a-z]{2})?$", re.IGNORECASE)


def _translations(paths: Sequence[str]) -> set[str]:
    """The folders (with a trailing "/") of the docs' copies in other languages: beside a folder named for
    English (`en/`, `en-US/`), every sibling named for a language, with or without a region (dayjs'
    docs/es-es/, docs/si/, docs/sw/ beside docs/en/; vitepress' docs/fa/), whatever the list of
    languages `_NOT_DOCS` knows by name."""
    children: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        parts = path.split("/")[:-1]
        for depth, part in enumerate(parts):
            if _LANGUAGE_CODE.match(part):
                children["/".join(parts[:depth])].add(part)
    return {
        f"{parent}/{name}/" if parent else f"{name}/"
        for parent, names in children.items()
        if any(_ENGLISH.match(n) for n in names)
        for name in names
        if not _ENGLISH.match(name)
    }


def docs_root(paths: Sequence[str]) -> str:
    """The docs folder holding the most doc files (the shallowest on a tie), a folder at the top of the
    repository holding `TOP_DOCS` or more first: a docs folder deeper down belongs to a package or to a
    vendored project (SumatraPDF's docs/md beside its copy of MuPDF, whose mupdf/docs holds more); "" when
    there is none."""
    counts: Counter[str] = Counter()
    for path in paths:
        parts = PurePosixPath(path).parts[:-1]
        for depth, part in enumerate(parts):
            if part.lower() in DOCS_FOLDERS:
                counts["/".join(parts[: depth + 1])] += 1
                break
    if not counts:
        return ""
    top = {root: count for root, count in counts.items() if "/" not in root and count >= TOP_DOCS}
    return max(top or counts, key=lambda root: (counts[root], -root.count("/"), root))


@dataclass(frozen=True)
class NavPage:
    """A page the docs' own navigation lists: the title it gives the page ("" for a bare entry) and the
    section it puts it in ("" for none): an mkdocs nav heading, or the page a table of contents lists it
    under."""

    path: str
    title: str = ""
    section: str = ""


@dataclass(frozen=True)
class Navigation:
    """The docs' own navigation, read once per repository: the doc files, the docs folder, the files under
    it in the docs' order (the pages the navigation lists first, then the folder tree) and what the
    navigation says of each page it lists."""

    files: tuple[str, ...]  # every doc file of the repository (doc_files)
    docs: str  # the docs folder ("" when there is none)
    order: tuple[str, ...]
    listed: tuple[NavPage, ...] = ()
    substitutions: Mapping[str, str] = field(default_factory=dict)  # the docset's `subs` (substitutions.py)
    snippet_bases: tuple[str, ...] = ()  # the folders `mkdocs.yml`'s snippets read included files from

    def titles(self) -> dict[str, str]:
        """Each page the navigation names → that name: the title MkDocs shows, the project's own."""
        return self._first("title")

    def sections(self) -> dict[str, str]:
        """Each page the navigation puts in a section → the section (an mkdocs nav heading, else the page
        a YAML table of contents lists it under)."""
        return self._first("section")

    def _first(self, field: str) -> dict[str, str]:
        found: dict[str, str] = {}
        for page in self.listed:
            if getattr(page, field):
                found.setdefault(page.path, getattr(page, field))
        return found


def read_navigation(root: Path, files: Sequence[str]) -> Navigation:
    """The repository's docs navigation: each format's file (mkdocs nav, YAML table of contents, Sphinx
    toctrees, Docusaurus/VitePress sidebar) read once, then the folder tree, each folder's index and
    getting-started pages first."""
    docs = docs_root(files)
    summary = read_summary(root, [p for p in files if p.startswith(docs + "/")] if docs else [])
    docs = summary.folder or docs  # a book's pages are the folder its SUMMARY.md is in (mdBook's src/)
    inside = [p for p in files if p.startswith(docs + "/")] if docs else []
    stated = {path: _stated_position(root, path) for path in inside}
    positions = category_positions(root, inside, docs, stated)
    tree = sorted(inside, key=lambda p: tree_key(p, docs, positions, stated))
    known = set(inside)
    toc = _toc_yaml(root, tree, docs)
    mkdocs = _mkdocs_config(root, docs)
    # each format's pages, in the order they come first
    pydoc = _pydoc_markdown_pages(root, docs)
    formats = (
        mkdocs_pages(*mkdocs),
        pydoc,
        toc.found,
        toctree_pages(root, tree, docs),
        sidebar_pages(root, tree, docs),
        summary.pages,
    )
    listed = [page for pages in formats for page in pages if page.path in known]
    listed = listed or index_links(root, tree, docs)
    # pydoc-markdown builds the pages its renderer lists and no other: the rest of the folder (beanie's
    # docs/articles/1.8.0.md, a second "Relations") is on no page of the site
    unlisted = [] if pydoc and mkdocs[0] is None else tree
    order = dict.fromkeys([*(page.path for page in listed), *unlisted])
    order.pop(_about_the_docs(root, inside, docs, {page.path for page in listed}), None)
    order.pop(summary.path, None)  # the table of contents is the navigation, not a page
    return Navigation(
        tuple(files), docs, tuple(order), tuple(listed), toc.substitutions or {}, snippet_bases(*mkdocs)
    )


_PAGE_LINK = re.compile(r"\]\(\s*(?!\w+:|/|#)([^)\s#?]+\.(?:md|mdx|markdown|rst))(?:#[^)\s]*)?\s*\)")
MIN_INDEX_LINKS = 3  # fewer links are a page pointing onward, not the docs' table of contents


def index_links(root: Path, tree: Sequence[str], docs: str) -> list[NavPage]:
    """Where no navigation file orders the docs, the docs folder's own front page does when it is their
    table of contents (Catch2's docs/Readme.md: "start with the tutorial", then every page under "Writing
    tests", "Fine tuning", "Running"): the pages it links to, in its order, the front page first. Of a
    README and an index, the one linking more pages."""
    known = set(tree)
    best: list[str] = []
    for front in (p for p in tree if PurePosixPath(p).parent == PurePosixPath(docs) and _FRONT.search(p)):
        text = _nav_text(root, front, max_bytes=NAV_BYTES) or ""
        linked = [
            page
            for target in _PAGE_LINK.findall(text)
            if (page := posixpath.normpath(f"{docs}/{target}")) in known and page != front
        ]
        pages = [front, *dict.fromkeys(linked)]
        best = pages if len(pages) > len(best) else best
    if len(best) <= MIN_INDEX_LINKS:
        return []
    return [NavPage(page) for page in dict.fromkeys(_folder_fronts_first(best, tree))]


def _folder_fronts_first(pages: Sequence[str], tree: Sequence[str]) -> list[str]:
    """`pages` with each sub-folder's own front page (its index or README) right before the first page
    linked in it: Polly's docs/index.md links strategies/retry.md, whose folder opens on strategies/index.md."""
    fronts = {PurePosixPath(p).parent: p for p in reversed(tree) if _FRONT.search(p)}
    fronts.pop(PurePosixPath(pages[0]).parent, None)  # the docs folder opens on the front page chosen
    out: list[str] = []
    for page in pages:
        front = fronts.get(PurePosixPath(page).parent, page)
        out += [front, page] if front not in out else [page]
    return out


def _about_the_docs(root: Path, inside: Sequence[str], docs: str, listed: set[str]) -> str:
    """The docs folder's own README when the folder has an index page too, or when it opens by speaking of
    the docs themselves, and the navigation does not list it: what GitHub shows of the folder, about building
    or writing the docs (OpenHands' "This directory contains the documentation", gunicorn's "Generate
    documentation", mitmproxy's "This directory houses the mitmproxy documentation", RestSharp's "This is a
    RestSharp documentation website built using Docusaurus"), not about the project; "" else."""
    readme = next(
        (p for p in inside if PurePosixPath(p).parent == PurePosixPath(docs) and _README.search(p)), ""
    )
    if not readme or readme in listed:
        return ""
    indexed = any(
        _INDEX.match(PurePosixPath(p).name) and len(PurePosixPath(p[len(docs) + 1 :]).parts) <= 2
        for p in inside
    )
    opening = (read_or_none(root, readme, max_bytes=NAV_BYTES) or "")[:_OPENING_CHARS] if not indexed else ""
    return readme if indexed or _BUILDS_DOCS.search(opening) else ""


_OPENING_CHARS = 600  # of a docs folder's README, where it says what it is about
# a docs folder's README about the docs themselves: where they live, how they are built or served
_BUILDS_DOCS = re.compile(
    r"\bthis (?:directory|folder) (?:contains|houses|holds|has)\b|\b(?:docs|documentation) (?:website|site)"
    r" built\b|\b(?:build|generate|serve|preview)(?:s|ing)? (?:the )?(?:docs|documentation)\b"
    r"|\bdocumentation dependencies\b|\b(?:mkdocs (?:serve|build)|sphinx-build|make html|hugo server)\b",
    re.IGNORECASE,
)


def tree_key(
    path: str, docs: str, positions: Mapping[str, FolderPlace], stated: Mapping[str, float]
) -> tuple[Any, ...]:
    """Folder by folder, a page's place. A folder opens on its front page (index, README) or, when it states
    no place, an intro or getting-started page; then pages and sub-folders by the place each states, a
    folder's its own (its `_category_.json` position, its front page's: grpc-gateway's Jekyll docs put the
    Overview, Mapping and Operations folders, `nav_order` 1-3, before the FAQ page, 7), a page before a
    folder when neither states one; folders by the first place their pages state, then a number prefix, then
    the name."""
    rel = PurePosixPath(path[len(docs) + 1 :] if docs else path)
    levels = []
    for depth, part in enumerate(rel.parts[:-1]):
        place = positions.get("/".join(rel.parts[: depth + 1]), FolderPlace())
        levels.append((1, place.own, 1, place.pages, _part_key(part)))
    stem = rel.stem
    at = stated.get(path, UNSTATED)
    opens = _FRONT.search(rel.name) is not None or at == UNSTATED and _FIRST.match(stem) is not None
    levels.append((0 if opens else 1, at, 0, 0 if _FIRST.match(stem) else 1, _part_key(stem)))
    return tuple(levels)


@dataclass(frozen=True)
class FolderPlace:
    """Where a docs folder stands among its siblings: the place it states itself (a `_category_.json`
    position, its front page's), and the first its pages state."""

    own: float = UNSTATED
    pages: float = UNSTATED


def category_positions(
    root: Path, paths: Sequence[str], docs: str, stated: Mapping[str, float] | None = None
) -> dict[str, FolderPlace]:
    """Each folder's place, keyed by the folder under `docs`: Docusaurus's `position` from its
    `_category_.json` (or `.yml`), else its front page's (vuepress-theme-hope's `dir.order`, else the page's
    own: a Jekyll parent page's `nav_order`), and the first place its pages state (jotai's core pages say `nav: 2.01` onwards, its utilities
    `nav: 3.01`: core comes first)."""
    stated = stated or {}
    folders = {
        "/".join(PurePosixPath(_relative(p, docs)).parts[: depth + 1])
        for p in paths
        for depth in range(len(PurePosixPath(_relative(p, docs)).parts) - 1)
    }
    found: dict[str, FolderPlace] = {}
    for folder in sorted(folders):
        own = _category_position(root, f"{docs}/{folder}" if docs else folder)
        fronts = [
            p
            for p in stated
            if _FRONT.search(p) and _relative(p, docs) == f"{folder}/{PurePosixPath(p).name}"
        ]
        if own is None:
            own = next((at for p in fronts if (at := _dir_order(root, p)) is not None), None)
        if own is None:
            own = min((stated[p] for p in fronts), default=UNSTATED)
        pages = min(
            (at for p, at in stated.items() if _relative(p, docs).startswith(folder + "/")), default=UNSTATED
        )
        found[folder] = FolderPlace(own, min(own, pages))
    return found


# vuepress-theme-hope's folder order, in its front page's front matter: `dir:` then `  order: 3`
_DIR_ORDER = re.compile(
    r"^dir:[ \t]*\n(?:[ \t]+\S[^\n]*\n)*?[ \t]+order:[ \t]*(-?\d+(?:\.\d+)?)[ \t]*$", re.M
)


def _dir_order(root: Path, front: str) -> float | None:
    """The place a folder's front page gives the folder (vuepress-theme-hope's `dir.order`: taskiq's
    extending-taskiq/README.md), None when it gives none."""
    head = (_nav_text(root, front, max_bytes=NAV_BYTES) or "").lstrip("\ufeff")
    if not head.startswith("---"):
        return None
    found = _DIR_ORDER.search(head[: head.find("\n---", 3) + 1])
    return float(found.group(1)) if found else None


def _relative(path: str, docs: str) -> str:
    return path[len(docs) + 1 :] if docs else path


def _category_position(root: Path, folder: str) -> float | None:
    for name, parse in (("_category_.json", _json_position), ("_category_.yml", _yaml_position)):
        text = _nav_text(root, f"{folder}/{name}", max_bytes=NAV_BYTES)
        if text is not None:
            return parse(text)
    return None


def _json_position(text: str) -> float | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    position = data.get("position") if isinstance(data, dict) else None
    return float(position) if isinstance(position, int | float) and not isinstance(position, bool) else None


def _yaml_position(text: str) -> float | None:
    match = _CATEGORY_POSITION.search(text)
    return float(match.group(1)) if match else None


def _part_key(part: str) -> tuple[int, int, str]:
    """Numbered parts in their numbers' order; a getting-started or introduction folder first, then the
    basics, an advanced part after its siblings (valtio's api/basic before api/advanced)."""
    number = _NUMBERED.match(part)
    rank = 0 if _FIRST.match(part) else 1 if _BASICS.match(part) else 3 if _ADVANCED.match(part) else 2
    return (int(number.group(1)) if number else 10_000, rank, part.lower())


def _stated_position(root: Path, path: str) -> float:
    """A page's place its front matter states (`sidebar_position`, `nav_order`, `weight`, pmndrs' `nav`…)."""
    stated = stated_field(_nav_text(root, path, max_bytes=NAV_BYTES) or "", *_POSITIONS)
    return float(stated) if _NUMBER.fullmatch(stated) else UNSTATED


def mkdocs_pages(data: dict[str, Any] | None, config: str) -> list[NavPage]:
    """The pages `mkdocs.yml`'s nav lists (its settings `data`, read from `config`), in its order, as
    repository paths, each with the title the nav gives it and the top-level section (`- Guide: [...]`) it
    sits in."""
    nav, prefix = _mkdocs_nav(data, config)
    return [
        NavPage(f"{prefix}/{page}", clean_heading(_NAV_ICON.sub("", title)), _section_label(item))
        for item in (nav if isinstance(nav, list) else [nav])
        for title, page in _nav_pages(item, "")
    ]


# an icon a nav title shows beside its words (traefik's "<span …>Govern <img src=… class="menu-icon" alt="Traefik
# Hub API Gateway"></span>" made a guide entry "Govern <img src=…>"): the words are the title
_NAV_ICON = re.compile(r"<img\b[^<>]*>", re.IGNORECASE)


def _section_label(item: object) -> str:
    if isinstance(item, dict) and len(item) == 1:
        [(label, below)] = item.items()
        if isinstance(label, str) and isinstance(below, list):
            return label.strip()
    return ""


def _mkdocs_nav(data: dict[str, Any] | None, config: str) -> tuple[object, str]:
    """`mkdocs.yml`'s nav and the repository folder its pages are in (None when there is none)."""
    if data is None:
        return None, ""
    folder = str(data.get("docs_dir") or "docs").strip("/")
    base = str(PurePosixPath(config).parent)
    return data.get("nav"), folder if base == "." else f"{base}/{folder}"


def snippet_bases(data: dict[str, Any] | None, config: str) -> tuple[str, ...]:
    """The repository folders `mkdocs.yml`'s `pymdownx.snippets` reads included files from (its `base_path`,
    relative to the folder `mkdocs.yml` is in, where the docs are built; that folder when none is given);
    () without snippets. A folder is only ever a prefix of a repository file's path, never opened."""
    extensions = data.get("markdown_extensions") if data is not None else None
    listed = extensions if isinstance(extensions, list) else []
    if "pymdownx.snippets" not in listed and not any(
        isinstance(item, dict) and "pymdownx.snippets" in item for item in listed
    ):
        return ()
    options: object = next(
        (i["pymdownx.snippets"] for i in listed if isinstance(i, dict) and "pymdownx.snippets" in i), {}
    )
    given = options.get("base_path", ".") if isinstance(options, dict) else "."
    here = PurePosixPath(config).parent
    # MkDocs' `!relative $config_dir` (griffe's) and `!relative $docs_dir`, read as their plain text: the
    # folder mkdocs.yml is in, the docs folder
    docs = _mkdocs_nav(data, config)[1]
    named = {"$config_dir": ".", "$docs_dir": posixpath.relpath(docs, str(here)) if docs else "."}
    bases = [
        named.get(base.partition("/")[0], "") + base[len(base.partition("/")[0]) :]
        if isinstance(base, str) and base.startswith("$")
        else base
        for base in (given if isinstance(given, list) else [given])
    ]
    return tuple(
        posixpath.normpath(str(here / base))
        for base in bases
        if isinstance(base, str) and base and not base.startswith(("/", "$")) and ".." not in base.split("/")
    )


def _mkdocs_config(root: Path, docs: str) -> tuple[dict[str, Any] | None, str]:
    """`mkdocs.yml`'s settings and its path (None when there is none, or it cannot be read)."""
    for config in (*_MKDOCS_CONFIGS, *_beside_docs(docs), *_nested_configs(root, docs)):
        text = _nav_text(root, config, max_bytes=NAV_BYTES)
        if text is None:
            continue
        data = _mkdocs_settings(root, text, config)
        return (data, config) if data is not None else (None, "")
    return None, ""


def _mkdocs_settings(root: Path, text: str, config: str) -> dict[str, Any] | None:
    """A `mkdocs.yml`'s settings over those of the file its `INHERIT` names (relative to it, within the
    repository, one level): MkDocs reads the nav from the parent when the child gives none."""
    try:  # `!!python/name:` and `!ENV` tags read as plain values, never run; a bomb or 5,000 levels refused
        data = load_bounded_yaml(text, config, foreign_tags=True)
    except ConfigError:
        return None
    if not isinstance(data, dict):
        return None
    parent = data.get("INHERIT")
    if not isinstance(parent, str):
        return data
    path = posixpath.normpath(posixpath.join(posixpath.dirname(config), parent.strip()))
    inherited = None if path.startswith(("..", "/")) else _nav_text(root, path, max_bytes=NAV_BYTES)
    try:
        base = load_bounded_yaml(inherited, path, foreign_tags=True) if inherited is not None else None
    except ConfigError:
        base = None
    return {**base, **data} if isinstance(base, dict) else data


def _pydoc_markdown_pages(root: Path, docs: str) -> list[NavPage]:
    """The pages pydoc-markdown's MkDocs renderer lists (pydoc_nav.py), with the titles and sections it
    gives them."""
    for config in pydoc_config_paths(docs):
        text = _nav_text(root, config, max_bytes=NAV_BYTES)
        if text is not None:
            return [
                NavPage(path, clean_heading(title), section)
                for path, title, section in pydoc_pages(text, config, DOC_SUFFIXES)
            ]
    return []


_MKDOCS_CONFIGS = ("mkdocs.yml", "mkdocs.yaml")


def _beside_docs(docs: str) -> list[str]:
    """Where MkDocs keeps its configuration for a docs folder: inside it, or beside it in the folder above,
    whose `docs/` it builds (kyverno/chainsaw's website/mkdocs.yaml for website/docs/)."""
    if not docs:
        return []
    above = posixpath.dirname(docs)
    return [
        *(f"{docs}/{name}" for name in _MKDOCS_CONFIGS),
        *(f"{above}/{name}" for name in _MKDOCS_CONFIGS if above),
    ]


def _nested_configs(root: Path, docs: str) -> list[str]:
    """A `mkdocs.yml` one folder down the docs (nlohmann/json keeps its site in docs/mkdocs/)."""
    folder = root / docs
    if not docs or folder.is_symlink() or not folder.is_dir():
        return []
    return sorted(f"{docs}/{p.parent.name}/{p.name}" for p in folder.glob("*/mkdocs.y*ml"))[:4]


def _nav_pages(nav: object, title: str) -> Iterable[tuple[str, str]]:
    if isinstance(nav, str):
        if nav.lower().endswith(DOC_SUFFIXES) and "://" not in nav:
            yield title, nav.lstrip("/")
    elif isinstance(nav, list):
        for item in nav:
            yield from _nav_pages(item, "")
    elif isinstance(nav, dict):
        for key, value in nav.items():
            yield from _nav_pages(value, str(key).strip() if isinstance(value, str) else "")


# a table of contents as YAML: Jupyter Book's `_toc.yml` (root, chapters, sections, parts) and Elastic's
# docs-builder (`docset.yml` naming folders whose `toc.yml` lists `file`s and their `children`)
_TOC_FILES = (*DOCSET_FILES, "_toc.yml", "toc.yml")
_TOC_LISTS = ("toc", "children", "chapters", "sections", "parts", "entries")
_SUBPAGES = ("children", "sections", "entries")  # the lists under one page: its section of the docs
MAX_TOCS = 40  # toc files read, nested ones included


def _toc_yaml(root: Path, paths: Sequence[str], docs: str) -> _TocWalk:
    """The pages a YAML table of contents lists, depth first: the docs folder's own (or the repository's
    `_toc.yml`), a nested `toc: folder` read from that folder's `toc.yml`. Read as data, bounded. A page
    under a top-level entry's `children` (docs-builder) or `sections` (Jupyter Book) is in that entry's
    section, named by its page; the entry's page is in it too. A docset's `subs` are read with it."""
    walk = _TocWalk(root, set(paths))
    for folder in (docs, "."):
        for name in _TOC_FILES:
            if walk.file(f"{folder}/{name}" if folder != "." else name):
                return walk
    return walk


class _TocWalk:
    """One walk of YAML tables of contents, nested ones included: the pages in order, each with its
    section."""

    def __init__(self, root: Path, known: set[str]) -> None:
        self.root, self.known = root, known
        self.found: list[NavPage] = []
        self.substitutions: dict[str, str] | None = None  # the first docset's that gives any
        self.budget = MAX_TOCS

    def file(self, path: str) -> bool:
        """Walk the table of contents at `path`; False when it is none (missing, not YAML, not a toc)."""
        if self.budget <= 0:
            return False
        self.budget -= 1
        try:
            text = read_source(self.root, path, max_bytes=NAV_BYTES)
            data = load_bounded_yaml(text, path, foreign_tags=True)
        except (DeepkbError, ConfigError):
            return False
        if self.substitutions is None and PurePosixPath(path).name in DOCSET_FILES:
            self.substitutions = docset_subs(data)
        if not isinstance(data, dict) or not any(key in data for key in ("toc", "root", "chapters", "parts")):
            return False
        self.node(data, str(PurePosixPath(path).parent), "")
        return True

    def node(self, node: object, base: str, section: str) -> None:
        if isinstance(node, list):
            for item in node:
                self.node(item, base, section)
            return
        if not isinstance(node, dict):
            return
        named = [node[key].lstrip("/") for key in ("root", "file") if isinstance(node.get(key), str)]
        pages = [_known(f"{base}/{name}" if base != "." else name, self.known) for name in named]
        pages = [page for page in pages if page in self.known]
        has_pages = any(isinstance(node.get(key), list) for key in _SUBPAGES)
        below = section or (pages[-1] if pages and has_pages else "")
        self.found += [NavPage(page, section=below) for page in pages]
        nested = node.get("toc")
        if isinstance(nested, str):  # docs-builder: `toc: reference` is reference/toc.yml
            folder = f"{base}/{nested.strip('/')}" if base != "." else nested.strip("/")
            self.file(f"{folder}/toc.yml")
        for key in _TOC_LISTS:
            if isinstance(node.get(key), list):
                self.node(node[key], base, below if key in _SUBPAGES else section)


def _nav_text(root: Path, path: str, *, max_bytes: int) -> str | None:
    """A navigation file's text with its line endings as `\n`: x64dbg's docs index.rst is written with CRLF,
    and its toctrees (whose blank lines are `\r\n`) were read as empty, so whole sections of its docs fell
    out of the guide. Lines are the same lines either way."""
    text = read_or_none(root, path, max_bytes=max_bytes)
    return None if text is None else text.replace("\r\n", "\n").replace("\r", "\n")


def toctree_pages(root: Path, paths: Sequence[str], docs: str) -> list[NavPage]:
    """Sphinx: the pages the root `index.rst` (or MyST `index.md`) reaches through its toctrees, depth
    first. The root is the docs folder's index, else the shallowest index below it that holds a toctree: the
    source folder `sphinx-quickstart` makes (watchdog's, fsspec's docs/source/, toolz's doc/source/) or
    SQLAlchemy's doc/build/."""
    known = set(paths)
    indexes = sorted(
        (p for p in paths if p.startswith(docs + "/") and PurePosixPath(p).name in ("index.rst", "index.md")),
        key=lambda p: (p.count("/"), not p.endswith(".rst"), p),  # index.rst first, as Sphinx reads it
    )
    start = next((p for p in indexes if p.count("/") == docs.count("/") + 1), "")
    start = start or next(
        (p for p in indexes if _TOCTREE.search(_nav_text(root, p, max_bytes=NAV_BYTES) or "")), ""
    )
    if not start:
        return []
    docs = str(PurePosixPath(start).parent)  # where a toctree's "/page" entries start
    seen: list[str] = []
    stack = [start]
    while stack:
        page = stack.pop()
        if page in seen or page not in known:
            continue
        seen.append(page)
        text = _nav_text(root, page, max_bytes=NAV_BYTES) or ""
        stack.extend(reversed([_known(entry, known) for entry in _toctree_entries(text, page, docs)]))
    # an index page with no toctree declares no order
    return [NavPage(page) for page in seen] if len(seen) > 1 else []


def _toctree_entries(text: str, page: str, docs: str) -> list[str]:
    folder = PurePosixPath(page).parent
    entries = []
    for rst, myst in _TOCTREE.findall(text):
        for line in (rst or myst).splitlines():
            entry = line.strip()
            if not entry or entry.startswith(":"):
                continue
            target = re.sub(r"^.*<([^>]+)>$", r"\1", entry).strip()
            if "://" in target or target == "self":
                continue
            resolved = PurePosixPath(docs, target.lstrip("/")) if target.startswith("/") else folder / target
            name = str(resolved)
            entries.append(name)
    return entries


def _known(entry: str, known: set[str]) -> str:
    """A toctree entry as the file it names: Sphinx leaves the suffix out (`start` is start.rst or start.md)."""
    return next((entry + s for s in ("", *DOC_SUFFIXES) if entry + s in known), entry)


# mdBook's and GitBook's table of contents: `- [Title](path.md)` list items (nested by indentation), prefix and
# suffix chapters as bare links, part titles as headings; docsify's `_sidebar.md` is written the same way
SUMMARY_NAMES = frozenset({"summary.md", "_sidebar.md"})
_SUMMARY_LINK = re.compile(r"^([ \t]*)(?:[-*+][ \t]+)?\[((?:[^\]\\]|\\.)*)\]\(<?([^)<>\s]*)>?\)[ \t]*$")
MIN_SUMMARY_PAGES = 2  # a SUMMARY.md listing fewer of the docs' pages is a page called Summary


@dataclass(frozen=True)
class Summary:
    """A `SUMMARY.md` table of contents: its path, its folder (the book's pages) and the pages it lists
    in order, each named as it names it and in the section of the top-level chapter it sits under."""

    path: str = ""
    folder: str = ""
    pages: tuple[NavPage, ...] = ()


def read_summary(root: Path, paths: Sequence[str]) -> Summary:
    """The shallowest `SUMMARY.md` (or docsify's `_sidebar.md`) among the docs' files that lists at least `MIN_SUMMARY_PAGES` of them;
    an empty `Summary` when there is none. Links resolve against its folder; a draft chapter (no target),
    another site's page or a file that is not a known doc page is left out."""
    known = set(paths)
    for path in sorted((p for p in paths if PurePosixPath(p).name.lower() in SUMMARY_NAMES), key=_depth):
        text = _nav_text(root, path, max_bytes=NAV_BYTES)
        if text is None:
            continue
        folder = str(PurePosixPath(path).parent)
        entries = [
            (indent, page, title)
            for indent, target, title in _summary_links(text)
            if (page := _summary_target(folder, target)) in known
        ]
        if len({page for _, page, _ in entries}) >= MIN_SUMMARY_PAGES:
            return Summary(path, folder, _summary_pages(entries))
    return Summary()


def _depth(path: str) -> tuple[int, str]:
    return path.count("/"), path


def _summary_links(text: str) -> Iterable[tuple[int, str, str]]:
    """Each link line of a table of contents outside code: its indentation, target and title."""
    lines = text.split("\n")
    fence = ""
    for line in lines:
        opener = re.match(r"^[ \t]*(`{3,}|~{3,})", line)
        if opener:
            fence = "" if fence and opener.group(1)[0] == fence[0] else fence or opener.group(1)
            continue
        found = None if fence else _SUMMARY_LINK.match(line)
        if found:
            title = clean_heading(re.sub(r"\\(.)", r"\1", found.group(2)))
            yield len(found.group(1).expandtabs(4)), found.group(3), title


def _summary_target(folder: str, target: str) -> str:
    """A link's target as a repository path ("" for a draft chapter, another site or a path that leaves the
    book's folder)."""
    target = target.split("#", 1)[0]
    if not target or "://" in target or target.startswith(("mailto:", "/")):
        return ""
    parts: list[str] = []
    for part in PurePosixPath(folder, target).parts:
        if part == "..":
            if not parts:
                return ""
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def _summary_pages(entries: Sequence[tuple[int, str, str]]) -> tuple[NavPage, ...]:
    """The entries as pages, each in the section of the chapter it sits right under; a chapter with
    sub-chapters is the section of itself (mdBook's Format chapter holds Configuration and Theme, each a
    section of its own); a chapter on its own at the top is in none."""
    pages: list[NavPage] = []
    open_chapters: list[tuple[int, str]] = []  # (indentation, page) of the chapters above this entry
    for n, (indent, page, title) in enumerate(entries):
        while open_chapters and open_chapters[-1][0] >= indent:
            open_chapters.pop()
        has_children = n + 1 < len(entries) and entries[n + 1][0] > indent
        parent = open_chapters[-1][1] if open_chapters else ""
        pages.append(NavPage(page, title, page if has_children else parent))
        open_chapters.append((indent, page))
    return tuple(pages)


def sidebar_pages(root: Path, paths: Sequence[str], docs: str) -> list[NavPage]:
    """Docusaurus's sidebar, else VitePress's (sidebars.py)."""
    return [NavPage(page) for page in sidebar_order(root, paths, docs)]
