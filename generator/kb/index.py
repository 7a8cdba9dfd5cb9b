"""The knowledge index `site_src/_index.json`: every repository, topic and raw source with its canonical tags.

It is built from records (`_entry.json`, `_meta.json`, raw source records), never from rendered pages; an
older workspace is migrated once from its landing page. `updated_at` is the newest entry's date, not the
clock, so rebuilding an unchanged knowledge base changes no file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import msgspec

from ..errors import StoreError, UsageError
from ..llm.cost import CostRecord
from ..store import (
    KBPaths,
    page_meta,
    read_json,
    safe_join,
    site_file,
    site_files,
    site_workspaces,
    write_json,
    write_text,
)
from .synonyms import Synonyms, canonical_tag, load_synonyms

INDEX_FILE = "_index.json"
ENTRY_FILE = "_entry.json"
ENTRY_VERSION = 1  # bump when EntryRecord changes shape: an older record is migrated from its landing page
COST_FILE = "_cost.json"  # written by app/run.py beside each entry's pages


class EntryRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What the index lists of one repository or topic, as its landing page was published."""

    version: int = ENTRY_VERSION
    kind: Literal["repo", "topic"]
    title: str
    description: str = ""
    provider: str = ""
    updated_at: str | None = None
    """The repository's newest shard date, or the topic run's date."""
    terms: list[str] = msgspec.field(default_factory=list)
    """Tag terms: the canonical tags, then the original spellings they came from."""
    status: str = ""
    source: str = ""
    revision: str = ""
    shards: int = 0
    questions: list[str] = msgspec.field(default_factory=list)
    """The questions a repository's answer pages answer (its index's `questions`)."""
    corrections: str = ""
    """A digest of the maintainer's deepkb.yml settings the repository's pages were made with."""


def entry_record(
    kind: Literal["repo", "topic"], page: Mapping[str, object], *, shards: int = 0
) -> EntryRecord:
    """The entry record of a landing page's frontmatter (the dict the page layer writes)."""
    return EntryRecord(
        kind=kind,
        title=_text(page.get("title")),
        description=_text(page.get("description")),
        provider=_text(page.get("provider")),
        updated_at=_date(page.get("generated")) or _date(page.get("revision_date")),
        terms=_terms(page),
        status=_text(page.get("status")),
        source=_text(page.get("source")),
        revision=_text(page.get("revision")),
        shards=shards,
        questions=[_text(q) for q in _as_list(page.get("questions")) if _text(q)],
        corrections=_text(page.get("corrections")),
    )


def save_entry(folder: Path, record: EntryRecord) -> None:
    """Save an entry's record beside its landing page (`folder` is the repository or topic workspace)."""
    write_text(
        folder / ENTRY_FILE, msgspec.json.format(msgspec.json.encode(record), indent=2).decode() + "\n"
    )


def load_entry(folder: Path) -> EntryRecord | None:
    """The entry record in `folder`. One that is missing, damaged, of another version, or older than its landing
    page (written by a tool that saves no record) is migrated from the page; None when there is no page."""
    record_file = folder / ENTRY_FILE
    try:
        current = record_file.stat().st_mtime_ns >= (folder / "index.md").stat().st_mtime_ns
        record = msgspec.json.decode(record_file.read_bytes(), type=EntryRecord) if current else None
    except (OSError, msgspec.DecodeError):
        record = None
    if record is not None and record.version == ENTRY_VERSION:
        return record
    return _migrate(folder)


def _migrate(folder: Path) -> EntryRecord | None:
    """An entry record made from the landing page of a workspace written before entry records, and saved."""
    page = folder / "index.md"
    if not page.is_file():
        return None
    kind: Literal["repo", "topic"] = "topic" if folder.parent.name == "topics" else "repo"
    shards = sum(1 for _ in (folder / "shards").glob("*.md")) if kind == "repo" else 0
    record = entry_record(kind, page_meta(page), shards=shards)
    try:
        save_entry(folder, record)
    except StoreError:
        pass  # a read-only checkout is still indexed, just migrated again next time
    return record


# --------------------------------------------------------------------------- the index


class _Entry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An index entry as `_index.json` lists it: a field left at its default (None) is not written."""


class RepoEntry(_Entry, frozen=True, kw_only=True):
    title: str
    kind: Literal["repo"]
    status: str
    path: str
    updated_at: str | None
    description: str
    source: str
    revision: str
    provider: str
    shards: int
    cost: CostRecord | None = None
    tags: list[str]
    questions: list[str] = msgspec.field(default_factory=list)


class TopicEntry(_Entry, frozen=True, kw_only=True):
    title: str
    kind: Literal["topic"]
    status: str
    path: str
    updated_at: str | None
    description: str
    topic: str
    lang: str
    provider: str
    report: str | None = None
    analysis: str | None = None
    cost: CostRecord | None = None
    tags: list[str]


class SourceEntry(_Entry, frozen=True, kw_only=True):
    title: str
    topic: str
    path: str
    url: str
    source: str
    fetched_at: str | None
    tags: list[str]


class KnowledgeIndex(msgspec.Struct, frozen=True, kw_only=True):
    """`_index.json` as update_index builds it: every entry, and which ids and spellings each tag gathers."""

    updated_at: str | None
    topics: dict[str, RepoEntry | TopicEntry]
    sources: dict[str, SourceEntry]
    tag_index: dict[str, list[str]]
    tag_variants: dict[str, list[str]]


def index_path(paths: KBPaths) -> Path:
    return paths.site_src / INDEX_FILE


def load_index(paths: KBPaths) -> dict[str, Any]:
    """The index file as JSON (an empty index when none was written yet), for readers that check each value:
    a hand-edited or hostile file is read as it is."""
    data = read_json(index_path(paths), default=None)
    if not isinstance(data, dict):
        return empty_index()
    for key, value in empty_index().items():
        data.setdefault(key, value)
    return data


def empty_index() -> dict[str, Any]:
    return {"updated_at": None, "topics": {}, "sources": {}, "tag_index": {}, "tag_variants": {}}


def update_index(paths: KBPaths) -> KnowledgeIndex:
    """Rebuild `_index.json` from the records on disk; returns the index (written only when it changed)."""
    index = build_index(paths)
    if paths.site_src.is_dir():
        write_json(index_path(paths), msgspec.to_builtins(index))
    return index


def build_index(paths: KBPaths) -> KnowledgeIndex:
    """The index the records on disk give (an entry written before records is migrated from its page)."""
    collector = _TagCollector(load_synonyms(paths))
    topics: dict[str, RepoEntry | TopicEntry] = {}
    sources: dict[str, SourceEntry] = {}
    for entry_id, entry, terms in _repo_entries(paths):
        topics[entry_id] = msgspec.structs.replace(entry, tags=collector.add(entry_id, terms))
    for entry_id, topic, terms, raw in _topic_entries(paths):
        topics[entry_id] = msgspec.structs.replace(topic, tags=collector.add(entry_id, terms))
        for source_id, source, source_terms in raw:
            sources[source_id] = msgspec.structs.replace(source, tags=collector.add(source_id, source_terms))
    dates = [e.updated_at for e in topics.values()] + [s.fetched_at for s in sources.values()]
    return KnowledgeIndex(
        updated_at=max((d for d in dates if d), default=None),
        topics=dict(sorted(topics.items())),
        sources=dict(sorted(sources.items())),
        tag_index=collector.tag_index(),
        tag_variants=collector.tag_variants(),
    )


@contextmanager
def indexed(paths: KBPaths) -> Iterator[None]:
    """Rebuild the index once the research inside is over, however it ended (what `deepkb repo run` and
    `topic run` wrap their run in): the pipelines write records and pages, never the index."""
    try:
        yield
    finally:
        update_index(paths)


# --------------------------------------------------------------------------- reading records


def _repo_entries(paths: KBPaths) -> Iterator[tuple[str, RepoEntry, list[str]]]:
    for folder in _entry_folders(paths, "repos"):
        record = load_entry(folder)
        if record is None:
            continue
        owner, repo = folder.parent.name, folder.name
        entry = RepoEntry(
            kind="repo",
            title=record.title or f"{owner}/{repo}",
            status=record.status or "completed",
            path=_rel(paths, folder / "index.md"),
            updated_at=record.updated_at,
            description=record.description,
            source=record.source,
            revision=record.revision,
            provider=record.provider,
            shards=record.shards,
            cost=_cost(folder),
            tags=[],
            questions=record.questions,
        )
        yield f"repo:{owner}/{repo}", entry, record.terms


def _topic_entries(
    paths: KBPaths,
) -> Iterator[tuple[str, TopicEntry, list[str], list[tuple[str, SourceEntry, list[str]]]]]:
    for folder in _entry_folders(paths, "topics"):
        meta_file, landing = folder / "_meta.json", folder / "index.md"
        if not meta_file.is_file() and not landing.is_file():
            continue
        meta = read_json(meta_file, default={}) if meta_file.is_file() else {}
        meta = meta if isinstance(meta, dict) else {}
        record = load_entry(folder) if landing.is_file() else None
        page = record or EntryRecord(kind="topic", title="")
        options = meta.get("options")
        entry = TopicEntry(
            kind="topic",
            title=page.title or _text(meta.get("topic")) or folder.name,
            status=_text(meta.get("status")) or ("completed" if record else "unknown"),
            path=_rel(paths, landing) if landing.is_file() else _rel(paths, meta_file),
            updated_at=_date(meta.get("updated_at")) or page.updated_at,
            description=page.description or _text(meta.get("summary")),
            topic=_text(meta.get("topic")) or page.title,
            lang=_text(options.get("lang")) if isinstance(options, dict) else "",
            provider=page.provider or _text(meta.get("provider")),
            report=_rel(paths, folder / "output/report.md")
            if (folder / "output/report.md").is_file()
            else None,
            analysis=_rel(paths, folder / "processed/analysis.md")
            if (folder / "processed/analysis.md").is_file()
            else None,
            cost=_cost(folder),
            tags=[],
        )
        terms = page.terms + _terms(meta)
        yield f"topic:{folder.name}", entry, terms, list(_raw_entries(paths, folder))


class _SourceRecord(msgspec.Struct):
    """The fields of a raw source's record (topic/workspace.py's RawSource) that the index lists."""

    title: str = ""
    url: str = ""
    source: str = ""
    fetched_at: str = ""
    tags: list[str] = msgspec.field(default_factory=list)


def _raw_entries(paths: KBPaths, folder: Path) -> Iterator[tuple[str, SourceEntry, list[str]]]:
    """The topic's published raw sources (those with a page), from their records."""
    for page in site_files(paths.site_src, f"topics/{folder.name}/raw", "*.md"):
        record = _source_record(folder / "processed" / "sources" / f"{page.stem}.json", page)
        entry = SourceEntry(
            title=_text(record.title) or page.stem,
            topic=f"topic:{folder.name}",
            path=_rel(paths, page),
            url=_text(record.url),
            source=_text(record.source),
            fetched_at=_date(record.fetched_at),
            tags=[],
        )
        yield f"source:{folder.name}/{page.stem}", entry, list(record.tags)


def _source_record(path: Path, page: Path) -> _SourceRecord:
    """A raw source's record; a workspace written before sources were records has only the page."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=_SourceRecord)
    except (OSError, msgspec.DecodeError):
        pass  # no record, or a damaged one: the page stands in for it
    meta = page_meta(page)
    return _SourceRecord(
        title=_text(meta.get("title")),
        url=_text(meta.get("url")),
        source=_text(meta.get("source")),
        fetched_at=_date(meta.get("fetched_at")) or "",
        tags=_terms(meta),
    )


def _cost(folder: Path) -> CostRecord | None:
    """The tokens and estimated cost of the entry's last run that called a model (app/run.py's `_cost.json`)."""
    try:
        return msgspec.json.decode((folder / COST_FILE).read_bytes(), type=CostRecord)
    except (OSError, msgspec.DecodeError):
        return None  # no record, or a damaged one: only the figures are lost


def _terms(meta: Mapping[str, object]) -> list[str]:
    """Tag terms of a page or record: its `tags`, plus original variants when the writer kept them (words and
    numbers only: a hand-written `true` or mapping is no tag)."""
    terms: list[str] = []
    for key in ("tags", "keywords", "tag_variants"):
        value = meta.get(key)
        for term in value if isinstance(value, list) else [value] if isinstance(value, str) else []:
            if isinstance(term, str | int | float) and not isinstance(term, bool):
                terms.append(str(term))
    return terms


class _TagCollector:
    """Canonicalizes each entry's tag terms and remembers which ids and variant spellings led to a tag."""

    def __init__(self, synonyms: Synonyms) -> None:
        self.synonyms = synonyms
        self.ids: dict[str, list[str]] = {}
        self.variants: dict[str, set[str]] = {}

    def add(self, entry_id: str, terms: list[str]) -> list[str]:
        tags: dict[str, None] = {}
        for term in terms:
            original = term.strip()
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


def delete_entry(paths: KBPaths, entry_id: str) -> KnowledgeIndex:
    """Remove one repository or topic workspace (its pages and cache entries), then update the index.

    Raw sources belong to their topic and are deleted with it. Nothing outside the entry is touched.
    """
    workspace = paths.entry_dir(entry_id)
    kind, _, name = entry_id.partition(":")
    cache = safe_join(paths.cache_dir, "clones" if kind == "repo" else "topics", *name.split("/"))
    if not workspace.is_dir() or workspace.is_symlink():
        raise UsageError(f"no entry {entry_id!r} in {paths.site_src}", hint="see `deepkb knowledge list`")
    shutil.rmtree(workspace)
    if kind == "repo":
        with contextlib.suppress(OSError):
            workspace.parent.rmdir()  # the owner folder, when this was its last repository
    if cache.is_dir() and not cache.is_symlink():
        shutil.rmtree(cache)
    return update_index(paths)


# --------------------------------------------------------------------------- small conversions


def _entry_folders(paths: KBPaths, section: str) -> Iterator[Path]:
    """Entry workspaces through the store's gate (a linked section, owner or workspace is never listed); a
    repository's only with its landing page."""
    for rel in site_workspaces(paths.site_src, section):
        if section == "topics" or site_file(paths.site_src, f"{rel}/index.md") is not None:
            yield paths.site_src / rel


def _rel(paths: KBPaths, page: Path) -> str:
    return page.relative_to(paths.site_src).as_posix()


def _as_list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _text(value: object) -> str:
    if value is None or isinstance(value, dict | list):
        return ""
    return " ".join(str(value).split())


def _date(value: object) -> str | None:
    """An ISO string for a frontmatter date (YAML may have parsed it into a date or datetime)."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    text = _text(value)
    return text or None
