"""The docs' navigation when pydoc-markdown builds the MkDocs site: its `renderer`'s `pages` are the nav,
each with the title MkDocs shows (beanie keeps no mkdocs.yml; pydoc-markdown.yml:57-107 names "Migrations",
"Relations", "Overview" and their order). Read as data: tags are plain values, hooks never run."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from generator.config import load_bounded_yaml
from generator.errors import ConfigError

PYDOC_CONFIGS = ("pydoc-markdown.yml", "pydoc-markdown.yaml")
MAX_DEPTH = 8  # nested `children` followed; deeper ones are no page a reader finds


def pydoc_config_paths(docs: str) -> list[str]:
    """Where a pydoc-markdown configuration sits: the repository's top, else the docs folder."""
    return [*PYDOC_CONFIGS, *(f"{docs}/{name}" for name in PYDOC_CONFIGS if docs)]


def pydoc_pages(text: str, config: str, suffixes: Sequence[str]) -> list[tuple[str, str, str]]:
    """The pages the renderer's `pages` list, in its order, as (repository path, title, top-level section):
    a `source` file relative to the folder `config` is in; `contents` (generated API pages) and links are
    no doc file. Nothing when the text is no pydoc-markdown configuration or cannot be read."""
    try:  # `!!python/name:` and other tags read as plain values, never run; a bomb or 5,000 levels refused
        data = load_bounded_yaml(text, config, foreign_tags=True)
    except ConfigError:
        return []
    if not isinstance(data, dict):
        return []
    listed = data.get("renderers")  # pydoc-markdown 3's list of renderers, else 4's one `renderer`
    renderers: list[object] = listed if isinstance(listed, list) else [data.get("renderer")]
    base = str(PurePosixPath(config).parent)
    found: list[tuple[str, str, str]] = []
    for renderer in renderers:
        pages = renderer.get("pages") if isinstance(renderer, dict) else None
        if isinstance(pages, list):
            found += _walk(pages, base, "", suffixes, 0)
    return found


def _walk(
    pages: Iterable[object], base: str, section: str, suffixes: Sequence[str], depth: int
) -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = []
    for page in pages:
        if not isinstance(page, dict) or depth > MAX_DEPTH:
            continue
        title = str(page.get("title") or "").strip()
        source = _repo_path(page.get("source"), base, suffixes)
        if source:
            found.append((source, title, section))
        children = page.get("children")
        if isinstance(children, list):
            found += _walk(children, base, section or title, suffixes, depth + 1)
    return found


def _repo_path(source: object, base: str, suffixes: Sequence[str]) -> str:
    """A page's `source` as a repository path ("" for none, a link, or a path leaving the repository)."""
    if not isinstance(source, str) or "://" in source or not source.lower().endswith(tuple(suffixes)):
        return ""
    path = posixpath.normpath(posixpath.join(base, source.strip().lstrip("/")))
    return "" if path.startswith("..") or path.startswith("/") else path
