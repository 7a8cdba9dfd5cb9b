"""The topic workspace `site_src/topics/<slug>/`: where each record lives, and the only code that saves the
topic's records (`_meta.json`, `plan.json`, `processed/…`), always through generator/store.py. The page layer
(site/pages/topic.py) renders pages from them; nothing here writes markdown.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

import msgspec

from .. import store
from ..documents import markup_of
from ..documents.plain import markup_prose
from ..errors import StoreError, UsageError
from ..kb.synonyms import canonical_tags, load_synonyms
from ..store import KBPaths
from ..text.paragraphs import paragraphs
from .aggregated import Aggregation
from .dedupe import canonical_url
from .keyphrases import topic_phrases
from .plan import Plan, validate_plan
from .state import TopicMeta, now_iso

TEXT_HEADING = "## Text"  # raw pages put the stored text under this heading (read back by research.py)
# a raw source keeps this much of a document's text; longer ones say they are excerpts
MAX_TEXT_CHARS = 200_000
PASSAGE_JOIN = "\n\n…\n\n"  # how search providers join several passages of one document
TEXT_FORMAT = "plain"  # raw pages say their text is plain prose; older pages may still hold markdown


class Workspace:
    """Where each file of one topic workspace lives."""

    def __init__(self, paths: KBPaths, slug: str) -> None:
        self.paths, self.slug = paths, slug
        self.root = root = paths.topic_dir(slug)
        self.meta_file = root / "_meta.json"
        self.plan_file = root / "plan.json"
        self.records_dir = root / "processed" / "sources"  # one JSON record per stored raw source
        self.raw_dir = root / "raw"  # the raw source pages (rendered from the records)
        self.aggregated_file = root / "processed" / "aggregated.json"
        self.findings_file = root / "processed" / "findings.json"
        self.report_record = root / "processed" / "report.json"
        self.analysis_file = root / "processed" / "analysis.md"
        self.report_file = root / "output" / "report.md"
        self.index_file = root / "index.md"
        self.sources_file = root / "sources.md"

    def raw_file(self, source_id: str) -> Path:
        return store.safe_join(self.raw_dir, f"{store.slugify(source_id)}.md")

    def record_file(self, source_id: str) -> Path:
        return store.safe_join(self.records_dir, f"{store.slugify(source_id)}.json")


# --------------------------------------------------------------------------- meta and plan


def load_meta(paths: KBPaths, slug: str) -> TopicMeta | None:
    path = Workspace(paths, slug).meta_file
    data = store.read_json(path)
    return None if data is None else meta_from_json(path, data)


def meta_from_json(path: Path, data: object) -> TopicMeta:
    """A `_meta.json` read as TopicMeta (numbers written as text converted); a record of another version, or
    one without the shape, is a StoreError that says how to redo it."""
    try:
        meta = msgspec.convert(data, TopicMeta, strict=False)
    except msgspec.ValidationError as exc:
        raise _refused(path, str(exc)) from None
    if meta.version != TopicMeta.VERSION:
        raise _refused(path, f"version {meta.version}, not {TopicMeta.VERSION}")
    return meta


def readable_meta(paths: KBPaths, slug: str) -> TopicMeta | None:
    """The workspace's meta, or None when there is none or it cannot be read (a broken one is not ours)."""
    try:
        return load_meta(paths, slug)
    except (StoreError, ValueError):
        return None


def save_meta(paths: KBPaths, meta: TopicMeta) -> None:
    meta.updated_at = now_iso()
    store.write_json(Workspace(paths, meta.slug).meta_file, msgspec.to_builtins(meta))


def find_topic(paths: KBPaths, topic_id: str) -> TopicMeta:
    """The workspace a `resume ID` names: by id or slug."""
    meta = load_meta(paths, store.slugify(topic_id))
    if meta is not None:
        return meta
    for meta_file in sorted(paths.topics_dir.glob("*/_meta.json")):
        data = store.read_json(meta_file) or {}
        if data.get("id") == topic_id:
            return meta_from_json(meta_file, data)
    raise UsageError(f"no topic workspace with id '{topic_id}'", hint=f"look in {paths.topics_dir}")


def load_plan(paths: KBPaths, slug: str) -> Plan | None:
    """plan.json validated (the user may have edited it); None when there is none yet."""
    path = Workspace(paths, slug).plan_file
    try:
        data = store.read_json(path)
    except StoreError as exc:
        raise UsageError(
            f"{path}: not valid JSON ({exc.__cause__})", hint="fix the edit and run resume again"
        ) from exc
    return None if data is None else validate_plan(data, where=str(path))


def save_plan(paths: KBPaths, slug: str, plan: Plan) -> None:
    store.write_json(Workspace(paths, slug).plan_file, plan.model_dump(mode="json"))


# --------------------------------------------------------------------------- raw sources


@dataclass
class RawSource:
    """One stored source. `text` is the plain text (unescaped), used by aggregation and the analyst.

    `original_chars` is the length of the whole document when the search provider said so; `text` is an excerpt
    when it is shorter than that or holds several passages of the document.
    """

    id: str
    source: str
    url: str
    title: str
    fetched_at: str
    text: str
    kind: str = "web"
    tags: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    published: str = ""  # the date the document states (ISO), or the paper's publication date
    status: str = ""  # accepted, rejected, superseded, final, draft…: what the document says of itself
    original_chars: int = 0
    relevance: float | None = None  # the retrieval judge's 0–1 score, when it gave one
    landed: str = ""  # the release its header says it targets ("Python 3.8"), when it says one
    # the words naming the collection it comes from ("arthas"; sources/local.py): its pages leave them unsaid
    collection: str = ""
    VERSION: ClassVar[int] = 1  # `processed/sources/<id>.json`: bump when the shape changes
    version: int = VERSION

    @property
    def page(self) -> str:
        """Path of the raw page relative to the topic folder."""
        return f"raw/{self.id}.md"

    @property
    def excerpt(self) -> bool:
        return PASSAGE_JOIN in self.text or self.original_chars > len(self.text)


def source_id(source: str, url: str, text: str) -> str:
    key = canonical_url(url) if url else text
    return f"{store.slugify(source or 'web')}-{hashlib.sha1(key.encode('utf-8')).hexdigest()[:10]}"


def write_raw_source(
    paths: KBPaths,
    slug: str,
    item: Any,
    *,
    source: str | None = None,
    tags: list[str] | None = None,
) -> RawSource:
    """Save a SearchHit or a crawled FetchedPage as the record `processed/sources/{source}-{hash}.json`;
    storing the same source again keeps its first fetch time and adds only passages it did not have."""
    raw = _raw_from_item(item, source)
    ws = Workspace(paths, slug)
    old = load_raw_source(ws, raw.id) or _same_document(ws, raw.id)
    if old is not None:  # one document found again (maybe by another provider): one source, as first stored
        raw.id, raw.source, raw.kind, raw.url = old.id, old.source, old.kind, old.url
        raw.fetched_at = old.fetched_at or raw.fetched_at
        raw.text = merge_text(old.text, raw.text)
        raw.original_chars = max(old.original_chars, raw.original_chars)
        raw.relevance = raw.relevance if old.relevance is None else max(old.relevance, raw.relevance or 0.0)
    raw.tags = list(tags or [])
    save_raw_source(ws, raw)
    return raw


def _same_document(ws: Workspace, source_id: str) -> RawSource | None:
    """A stored source of the same document under another provider's id (`local-3d0d…` found again as
    `kb-3d0d…` through the knowledge base)."""
    found = sorted(ws.records_dir.glob(f"*-{document_key(source_id)}.json"))
    return load_raw_source(ws, found[0].stem) if found else None


def save_raw_source(ws: Workspace, raw: RawSource) -> None:
    save_record(ws.record_file(raw.id), raw)


def load_raw_source(ws: Workspace, source_id: str) -> RawSource | None:
    record = load_record(ws.record_file(source_id), RawSource)
    if record is not None:
        return record
    page = ws.raw_file(source_id)  # a workspace written before sources were records: its page is the record
    return read_raw_source(page) if page.is_file() else None


def merge_text(old: str, new: str) -> str:
    """Another passage of a document already stored is appended, so earlier citations keep their sentences."""
    if not old:
        return new
    if old in new:  # the whole document now, where a passage was stored before
        return new[:MAX_TEXT_CHARS]
    parts = [p for p in new.split(PASSAGE_JOIN) if p.strip() and p.strip() not in old]
    return PASSAGE_JOIN.join([old, *parts])[:MAX_TEXT_CHARS]


def _raw_from_item(item: Any, source: str | None) -> RawSource:
    url = str(getattr(item, "final_url", "") or getattr(item, "url", "") or "")
    full = str(getattr(item, "content", None) or getattr(item, "text", "") or "")
    name = source or str(getattr(item, "source", "") or "web")
    title = " ".join(str(getattr(item, "title", "") or url or "untitled").split())[:300]
    extra = getattr(item, "extra", None) or {}
    relevance = extra.get("relevance")
    return RawSource(
        id=source_id(name, url, full[:MAX_TEXT_CHARS]),
        source=name,
        url=url,
        title=title,
        fetched_at=now_iso(),
        text=full[:MAX_TEXT_CHARS],
        kind=str(getattr(item, "kind", "web") or "web"),
        authors=[str(a) for a in getattr(item, "authors", [])],
        published=str(getattr(item, "published", "") or extra.get("date") or ""),
        status=str(extra.get("status") or ""),
        original_chars=max(len(full), chars if isinstance(chars := extra.get("full_chars"), int) else 0),
        relevance=float(relevance) if isinstance(relevance, int | float) else None,
        landed=str(extra.get("landed") or ""),
        collection=" ".join(str(w) for w in extra.get("collection_words") or []),
    )


_UNESCAPE = re.compile(r"\\([\\`*_\[\]{}()#+!|~\-=>.0-9])")


def unescape_body(text: str) -> str:
    """Invert the page layer's markdown escaping closely enough for analysis (the page keeps the escaped form)."""
    return html.unescape(_UNESCAPE.sub(r"\1", text))


def source_markup(kind: str, url: str) -> str:
    """How a source's original text was marked up: KB pages are markdown, local files by their suffix."""
    if kind == "kb":
        return "markdown"
    return markup_of(url) if kind == "local" else "text"


def raw_page_text(meta: Mapping[str, object], escaped: str) -> str:
    """The plain text stored on a raw page; a page written before texts were stored plain is converted."""
    if meta.get("text_format") == TEXT_FORMAT:
        return "\n\n".join(_shown_back(block) for block in paragraphs(escaped.strip()))
    text = unescape_body(escaped.strip())
    kind = str(meta.get("kind", "web"))
    markup = source_markup(kind, str(meta.get("url", "")))
    generated = kind == "kb"  # a page deepkb wrote: its notices and its listings' tables are no source's text
    return (
        text
        if markup == "text"
        else markup_prose(text, markup, drop_admonitions=generated, tables=not generated)
    )


_PAGE_ITEM = re.compile(r"^((?:    )+)(?=- )", re.M)  # a nested item the page indents four columns a level


def _shown_back(block: str) -> str:
    """A block of a raw page's text as stored: a code block as the page shows it (literal), prose unescaped,
    a nested list item two spaces a level again (site/pages/topic_raw.stored_text)."""
    if _FENCE_OPENING.match(block):
        return block
    return _PAGE_ITEM.sub(lambda m: " " * (len(m.group(1)) // 2), unescape_body(block))


_FENCE_OPENING = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def stored_source_of(paths: KBPaths, page: str) -> RawSource | None:
    """The record a raw source page (`topics/<slug>/raw/<id>.md`, relative to site_src) was rendered from, when
    it is stored and readable: the text as stored, not as the page shows it."""
    parts = Path(page).parts
    if len(parts) != 4 or parts[2] != "raw" or not parts[3].endswith(".md"):
        return None
    try:
        ws = Workspace(paths, parts[1])
        if ws.raw_file(Path(parts[3]).stem) != store.safe_join(paths.site_src, page):
            return None  # not a topic workspace's raw page
        return load_record(ws.record_file(Path(parts[3]).stem), RawSource)
    except StoreError:
        return None


def read_raw_source(path: Path) -> RawSource:
    """A raw source read back from its page (workspaces written before sources were records)."""
    meta, body = store.read_page(path)
    _, _, text = body.partition(f"\n{TEXT_HEADING}\n")
    return RawSource(
        id=str(meta.get("id") or path.stem),
        source=str(meta.get("source", "")),
        url=str(meta.get("url", "")),
        title=str(meta.get("title", path.stem)),
        fetched_at=str(meta.get("fetched_at", "")),
        text=raw_page_text(meta, text),
        kind=str(meta.get("kind", "web")),
        tags=list(meta.get("tags") or []),
        authors=list(meta.get("authors") or []),
        published=str(meta.get("date") or meta.get("published") or ""),
        status=str(meta.get("status") or ""),
    )


def list_raw_sources(paths: KBPaths, slug: str) -> list[RawSource]:
    """Every stored raw source in citation order (first fetched first, then by id)."""
    folder = Workspace(paths, slug).root.relative_to(paths.site_src).as_posix()
    records = store.site_files(paths.site_src, f"{folder}/processed/sources", "*.json")  # no link followed
    found = {r.id: r for r in (load_record(p, RawSource) for p in records) if r}
    for page in store.site_files(paths.site_src, f"{folder}/raw", "*.md"):  # older: pages, no records
        if page.stem not in found:
            found[page.stem] = read_raw_source(page)
    return sorted(found.values(), key=lambda r: (r.fetched_at, r.id))


# --------------------------------------------------------------------------- processed records


class Versioned(Protocol):
    """A stored record: the shape it has today (`VERSION`) and the one it was written in (`version`)."""

    VERSION: ClassVar[int]

    @property
    def version(self) -> int: ...


R = TypeVar("R", bound=Versioned)


def save_record(path: Path, record: Versioned) -> None:
    """A processed record (aggregation, findings, report) as JSON."""
    store.write_json(path, msgspec.to_builtins(record))


def load_record(path: Path, kind: type[R]) -> R | None:
    """The record at `path`; None when there is none yet. A record of another version, or one that does not
    have the shape of `kind`, is refused with a StoreError that says how to redo it. (Records written before
    they carried a version have today's shape, so a missing version reads as the current one.)"""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise store.storage_error(path, exc, action="read") from None
    try:
        record = msgspec.json.decode(data, type=kind)
    except msgspec.DecodeError as exc:  # ValidationError included
        raise _refused(path, str(exc)) from None
    if record.version != kind.VERSION:
        raise _refused(path, f"version {record.version}, not {kind.VERSION}")
    return record


def _refused(path: Path, problem: str) -> StoreError:
    hint = "delete it and research the topic again: the stage that wrote it runs anew"
    return StoreError(f"cannot read {path}: {problem}", hint=hint)


def topic_keywords(paths: KBPaths, slug: str, topic: str) -> list[str]:
    """The topic's key phrases: as the sources use them once aggregated, else from the topic alone."""
    aggregated = load_record(Workspace(paths, slug).aggregated_file, Aggregation)
    if aggregated is not None and aggregated.keyphrases:
        return list(aggregated.keyphrases)
    return topic_phrases(topic)


def topic_tags(terms: list[str], paths: KBPaths | None = None) -> list[str]:
    """Canonical tags (generator/kb/synonyms.py) of a topic's key phrases, through the KB's own synonyms."""
    return canonical_tags(terms, load_synonyms(paths))


def retag_raw_sources(paths: KBPaths, slug: str, tags: list[str]) -> int:
    """Give every raw source of the topic these tags (once the sources have shown which phrases matter);
    returns how many records changed."""
    ws, changed = Workspace(paths, slug), 0
    for raw in list_raw_sources(paths, slug):
        if raw.tags != tags:
            raw.tags = list(tags)
            save_raw_source(ws, raw)
            changed += 1
    return changed


def document_key(source_id: str) -> str:
    """What identifies the document behind a source id, whichever provider found it: the hash of its URL
    (`local-3d0d…` and `kb-3d0d…` are one document found by two providers)."""
    return source_id.rsplit("-", 1)[-1]


def topics_citing(paths: KBPaths) -> dict[str, list[TopicMeta]]:
    """Document key → every topic whose report cites that document (for the raw pages' "cited by" links)."""
    citing: dict[str, list[TopicMeta]] = {}
    for workspace in store.site_workspaces(paths.site_src, "topics"):
        record = store.site_file(paths.site_src, f"{workspace}/processed/report.json")
        if record is None:
            continue
        meta = readable_meta(paths, workspace.removeprefix("topics/"))
        data = store.read_json(record, default={}) or {}
        if (
            meta is None
            or not isinstance(data, dict)
            or not any(x.get("claims") for x in data.get("sections", []))
        ):
            continue  # a report with no findings is never published: nothing to link to
        for key in dict.fromkeys(document_key(str(sid)) for sid in data.get("references", [])):
            citing.setdefault(key, []).append(meta)
    return citing
