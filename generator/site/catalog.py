"""What the site lists: repositories, topics, raw sources and tags, read from the knowledge index.

The knowledge index (`site_src/_index.json`, written by `generator.kb.index`) is the source; when it is
missing or empty the workspaces' landing pages are scanned instead, so a site can be built from pages alone.
Every path that comes out of here is a validated docs-relative `.md` path of a page that exists.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec

from ..kb.index import build_index, load_index
from ..store import KBPaths, page_meta, site_file, site_files


@dataclass(frozen=True)
class Entry:
    """One repository or topic as the site lists it."""

    id: str
    kind: str  # "repo" | "topic"
    title: str
    path: str  # docs-relative .md path of its landing page
    status: str = ""
    updated_at: str = ""
    summary: str = ""
    tags: tuple[str, ...] = ()
    shards: int | None = None
    source: str = ""  # a repository's clone URL or path, as researched
    revision: str = ""  # the commit researched
    revision_date: str = ""  # that commit's date (ISO 8601)


@dataclass(frozen=True)
class Source:
    """One raw source page of a topic."""

    id: str
    title: str
    path: str
    topic: str = ""
    url: str = ""
    tags: tuple[str, ...] = ()


@dataclass
class Catalog:
    entries: list[Entry] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    tag_index: dict[str, list[str]] = field(default_factory=dict)
    tag_variants: dict[str, list[str]] = field(default_factory=dict)

    def of_kind(self, kind: str) -> list[Entry]:
        """Entries of one kind, most recently updated first."""
        chosen = [entry for entry in self.entries if entry.kind == kind]
        return sorted(chosen, key=lambda e: (e.updated_at, e.title.lower()), reverse=True)

    @cached_property
    def tag_members(self) -> dict[str, set[str]]:
        """Every canonical tag → ids of the listed entries and sources carrying it (index and pages merged)."""
        known = {e.id: e.tags for e in self.entries} | {s.id: s.tags for s in self.sources}
        members: dict[str, set[str]] = {}
        for tag, ids in self.tag_index.items():
            listed = {i for i in ids if i in known}
            if tag and listed:
                members.setdefault(tag, set()).update(listed)
        for ident, tags in known.items():
            for tag in tags:
                members.setdefault(tag, set()).add(ident)
        return members

    def latest_update(self) -> str:
        """Date (YYYY-MM-DD) of the newest entry: stable while nothing changes, unlike today's date."""
        dates = [entry.updated_at for entry in self.entries if entry.updated_at]
        return max(dates)[:10] if dates else ""


def safe_doc_path(site_src: Path, value: object) -> str | None:
    """`value` as a docs-relative .md path of an existing page inside site_src, or None when it is not one."""
    if not isinstance(value, str) or not value or "\\" in value or "\x00" in value:
        return None
    rel = posixpath.normpath(value.strip().lstrip("/"))
    if rel.startswith("..") or not rel.endswith(".md") or any(p in {"..", ""} for p in rel.split("/")):
        return None
    return rel if site_file(site_src, rel) is not None else None


def load_catalog(paths: KBPaths) -> Catalog:
    """The catalog from the knowledge index; when there is none yet, from the index the entries' records on
    disk give (kb/index.py reads a workspace written before records from its landing page)."""
    catalog = _from_index(paths.site_src, load_index(paths))
    if not catalog.entries:
        catalog = _from_index(paths.site_src, msgspec.to_builtins(build_index(paths)))
    return catalog


def _text(value: object) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _tags(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(dict.fromkeys(str(tag) for tag in value if isinstance(tag, str | int) and str(tag).strip()))


def _from_index(site_src: Path, index: Mapping[str, object]) -> Catalog:
    catalog = Catalog()
    for key, item in _mapping(index.get("topics")).items():
        path = safe_doc_path(site_src, item.get("path"))
        kind = "repo" if item.get("kind") == "repo" else "topic"
        if path is None:
            continue
        shards = item.get("shards")
        # the commit's date is in the landing page's frontmatter (the index keeps the research date)
        page = page_meta(site_src / path) if kind == "repo" else {}
        catalog.entries.append(
            Entry(
                id=str(key), kind=kind, title=_text(item.get("title")) or str(key), path=path,
                status=_text(item.get("status")), updated_at=_text(item.get("updated_at")),
                summary=_text(item.get("summary") or item.get("description")), tags=_tags(item.get("tags")),
                shards=shards if isinstance(shards, int) else _count_shards(site_src, path, kind),
                source=_text(item.get("source") or page.get("source")),
                revision=_text(item.get("revision") or page.get("revision")),
                revision_date=_text(item.get("revision_date") or page.get("revision_date")),
            )
        )  # fmt: skip
    for key, item in _mapping(index.get("sources")).items():
        path = safe_doc_path(site_src, item.get("path"))
        if path is not None:
            catalog.sources.append(
                Source(
                    id=str(key), title=_text(item.get("title")) or str(key), path=path,
                    topic=_text(item.get("topic")), url=_text(item.get("url")), tags=_tags(item.get("tags")),
                )
            )  # fmt: skip
    catalog.tag_index = {
        str(k): [str(i) for i in v] for k, v in _mapping(index.get("tag_index"), list).items()
    }
    catalog.tag_variants = {
        str(k): [str(t) for t in v if isinstance(t, str)]
        for k, v in _mapping(index.get("tag_variants"), list).items()
    }
    return catalog


def _mapping(value: object, kind: type = dict) -> dict[Any, Any]:
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(v, kind)}


def _count_shards(site_src: Path, path: str, kind: str) -> int | None:
    if kind != "repo":
        return None
    return len(site_files(site_src, f"{posixpath.dirname(path)}/shards", "*.md"))


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def short_date(value: str) -> str:
    """The YYYY-MM-DD part of a timestamp, or the value itself when it is not one."""
    match = _DATE.match(value)
    return match.group(0) if match else value[:20]
