"""The knowledge index `site_src/_index.json`: every repository, topic and raw source with its canonical tags.

It is rebuilt from the workspaces on disk (repo `index.md` frontmatter, topic `_meta.json` plus landing
page, raw source frontmatter), so it can never drift from them, and written atomically. Its `updated_at` is
the newest entry's date, not the clock, so rebuilding an unchanged knowledge base changes no file.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import StoreError, UsageError
from ..store import KBPaths, read_json, read_page, safe_join, write_json
from .synonyms import Synonyms, canonical_tag, load_synonyms

INDEX_FILE = "_index.json"
COST_FILE = "_cost.json"  # written by kb/run.py beside each entry's pages
_ID_SEGMENT = re.compile(r"^\w[\w.\-]*$")


def index_path(paths: KBPaths) -> Path:
    return paths.site_src / INDEX_FILE


def load_index(paths: KBPaths) -> dict[str, Any]:
    """The current index (an empty one when none was written yet)."""
    data = read_json(index_path(paths), default=None)
    if not isinstance(data, dict):
        return empty_index()
    for key, value in empty_index().items():
        data.setdefault(key, value)
    return data


def empty_index() -> dict[str, Any]:
    return {"updated_at": None, "topics": {}, "sources": {}, "tag_index": {}, "tag_variants": {}}


def update_index(paths: KBPaths) -> dict[str, Any]:
    """Rebuild `_index.json` from the workspaces on disk; returns the index (written only when it changed)."""
    synonyms = load_synonyms(paths)
    collector = _TagCollector(synonyms)
    topics: dict[str, dict[str, Any]] = {}
    sources: dict[str, dict[str, Any]] = {}
    for entry_id, entry, terms in _repo_entries(paths):
        entry["tags"] = collector.add(entry_id, terms)
        topics[entry_id] = entry
    for entry_id, entry, terms, raw in _topic_entries(paths):
        entry["tags"] = collector.add(entry_id, terms)
        topics[entry_id] = entry
        for source_id, source, source_terms in raw:
            source["tags"] = collector.add(source_id, source_terms)
            sources[source_id] = source
    index = {
        "updated_at": _newest(
            [e.get("updated_at") for e in topics.values()] + [s.get("fetched_at") for s in sources.values()]
        ),
        "topics": dict(sorted(topics.items())),
        "sources": dict(sorted(sources.items())),
        "tag_index": collector.tag_index(),
        "tag_variants": collector.tag_variants(),
    }
    if paths.site_src.is_dir():
        write_json(index_path(paths), index)
    return index


# --------------------------------------------------------------------------- reading workspaces


def _repo_entries(paths: KBPaths) -> Iterable[tuple[str, dict[str, Any], list[Any]]]:
    if not paths.repos_dir.is_dir():
        return
    for page in sorted(paths.repos_dir.glob("*/*/index.md")):
        meta = _frontmatter(page)
        owner, repo = page.parent.parent.name, page.parent.name
        entry = {
            "title": _text(meta.get("title")) or f"{owner}/{repo}",
            "kind": "repo",
            "status": _text(meta.get("status")) or "completed",
            "path": _rel(paths, page),
            "updated_at": _date(meta.get("generated")) or _date(meta.get("revision_date")),
            "description": _text(meta.get("description")),
            "source": _text(meta.get("source")),
            "revision": _text(meta.get("revision")),
            "provider": _text(meta.get("provider")),
            "shards": sum(1 for _ in (page.parent / "shards").glob("*.md")),
        }
        _add_cost(entry, page.parent)
        yield f"repo:{owner}/{repo}", entry, _terms(meta)


def _topic_entries(
    paths: KBPaths,
) -> Iterable[tuple[str, dict[str, Any], list[Any], list[tuple[str, dict[str, Any], list[Any]]]]]:
    if not paths.topics_dir.is_dir():
        return
    for folder in sorted(p for p in paths.topics_dir.iterdir() if p.is_dir()):
        meta_file, landing = folder / "_meta.json", folder / "index.md"
        if not meta_file.is_file() and not landing.is_file():
            continue
        meta = read_json(meta_file, default={}) if meta_file.is_file() else {}
        meta = meta if isinstance(meta, dict) else {}
        page = _frontmatter(landing) if landing.is_file() else {}
        slug = folder.name
        entry = {
            "title": _text(page.get("title")) or _text(meta.get("topic")) or slug,
            "kind": "topic",
            "status": _text(meta.get("status")) or ("completed" if landing.is_file() else "unknown"),
            "path": _rel(paths, landing) if landing.is_file() else _rel(paths, meta_file),
            "updated_at": _date(meta.get("updated_at")) or _date(page.get("generated")),
            "description": _text(page.get("description")) or _text(meta.get("summary")),
            "topic": _text(meta.get("topic")) or _text(page.get("title")),
            "lang": _text((meta.get("options") or {}).get("lang"))
            if isinstance(meta.get("options"), dict)
            else "",
            "provider": _text(page.get("provider")) or _text(meta.get("provider")),
        }
        for name, rel in (("report", "output/report.md"), ("analysis", "processed/analysis.md")):
            if (folder / rel).is_file():
                entry[name] = _rel(paths, folder / rel)
        _add_cost(entry, folder)
        terms = _terms(page) + _terms(meta)
        yield f"topic:{slug}", entry, terms, list(_raw_entries(paths, folder))


def _raw_entries(paths: KBPaths, folder: Path) -> Iterable[tuple[str, dict[str, Any], list[Any]]]:
    for page in sorted((folder / "raw").glob("*.md")):
        meta = _frontmatter(page)
        entry = {
            "title": _text(meta.get("title")) or page.stem,
            "topic": f"topic:{folder.name}",
            "path": _rel(paths, page),
            "url": _text(meta.get("url")),
            "source": _text(meta.get("source")),
            "fetched_at": _date(meta.get("fetched_at")),
        }
        yield f"source:{folder.name}/{page.stem}", entry, _terms(meta)


def _add_cost(entry: dict[str, Any], folder: Path) -> None:
    """The tokens and estimated cost of the entry's last run that called a model (kb/run.py's `_cost.json`)."""
    try:
        cost = read_json(folder / COST_FILE, default=None)
    except StoreError:
        return  # a damaged record only loses the figures
    if isinstance(cost, dict):
        entry["cost"] = cost


def _frontmatter(page: Path) -> dict[str, Any]:
    try:
        meta, _ = read_page(page)
    except StoreError:
        return {}  # a torn or hand-broken page still gets an entry, just without its metadata
    return meta


def _terms(meta: dict[str, Any]) -> list[Any]:
    """Tag terms of a page or record: its `tags`, plus original variants when the writer kept them."""
    terms: list[Any] = []
    for key in ("tags", "keywords", "tag_variants"):
        value = meta.get(key)
        if isinstance(value, list):
            terms.extend(value)
        elif isinstance(value, str):
            terms.append(value)
    return terms


class _TagCollector:
    """Canonicalizes each entry's tag terms and remembers which ids and variant spellings led to a tag."""

    def __init__(self, synonyms: Synonyms) -> None:
        self.synonyms = synonyms
        self.ids: dict[str, list[str]] = {}
        self.variants: dict[str, set[str]] = {}

    def add(self, entry_id: str, terms: list[Any]) -> list[str]:
        tags: dict[str, None] = {}
        for term in terms:
            if not isinstance(term, str | int | float) or isinstance(term, bool):
                continue
            original = str(term).strip()
            tag = canonical_tag(original, self.synonyms)
            if not tag:
                continue
            tags.setdefault(tag, None)
            self.variants.setdefault(tag, set()).add(original)
        for tag in tags:
            self.ids.setdefault(tag, []).append(entry_id)
        return list(tags)

    def tag_index(self) -> dict[str, list[str]]:
        return {tag: sorted(ids) for tag, ids in sorted(self.ids.items())}

    def tag_variants(self) -> dict[str, list[str]]:
        return {tag: sorted(self.variants[tag]) for tag in sorted(self.ids)}


# --------------------------------------------------------------------------- delete


def delete_entry(paths: KBPaths, entry_id: str) -> dict[str, Any]:
    """Remove one repository or topic workspace (its pages and cache entries), then update the index.

    Raw sources belong to their topic and are deleted with it. Nothing outside the entry is touched.
    """
    kind, _, name = entry_id.partition(":")
    if not all(_ID_SEGMENT.match(part) for part in name.split("/")):
        raise UsageError(f"cannot delete {entry_id!r}", hint="give a repo:<owner>/<repo> or topic:<slug> id")
    if kind == "repo" and name.count("/") == 1:
        owner, repo = name.split("/")
        workspace = safe_join(paths.repos_dir, owner, repo)
        caches = [safe_join(paths.cache_dir, "clones", owner, repo)]
    elif kind == "topic" and name and "/" not in name:
        workspace = safe_join(paths.topics_dir, name)
        caches = [safe_join(paths.cache_dir, "topics", name)]
    else:
        raise UsageError(f"cannot delete {entry_id!r}", hint="give a repo:<owner>/<repo> or topic:<slug> id")
    if not workspace.is_dir() or workspace.is_symlink():
        raise UsageError(f"no entry {entry_id!r} in {paths.site_src}", hint="see `deepkb knowledge list`")
    shutil.rmtree(workspace)
    if kind == "repo":
        _remove_if_empty(workspace.parent)  # the owner folder, when this was its last repository
    for cache in caches:
        if cache.is_dir() and not cache.is_symlink():
            shutil.rmtree(cache)
    return update_index(paths)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


# --------------------------------------------------------------------------- small conversions


def _rel(paths: KBPaths, page: Path) -> str:
    return page.relative_to(paths.site_src).as_posix()


def _text(value: Any) -> str:
    if value is None or isinstance(value, dict | list):
        return ""
    return " ".join(str(value).split())


def _date(value: Any) -> str | None:
    """An ISO string for a frontmatter date (YAML may have parsed it into a date or datetime)."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    text = _text(value)
    return text or None


def _newest(values: Iterable[str | None]) -> str | None:
    present = [v for v in values if v]
    return max(present) if present else None
