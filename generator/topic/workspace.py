"""The topic workspace `site_src/topics/<slug>/`: the only code that writes it, always through generator/store.py.

Layout (the seed's data design): `_meta.json`, `plan.json`, `raw/{source}-{hash}.md`, `processed/aggregated.json`,
`processed/analysis.md`, `output/report.md`, and the landing page `index.md`. Raw source bodies are escaped
text, never HTML, and are read back (unescaped) by the later stages.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import store
from ..errors import StoreError, UsageError
from ..site.text import Markdown, md_escape, md_inline
from ..store import KBPaths
from ..summarize import summarize
from .keyphrases import topic_phrases
from .plaintext import markup_of, to_plain
from .plan import Plan, validate_plan
from .state import TopicMeta, now_iso

TEXT_HEADING = "## Text"
MAX_TEXT_CHARS = 60_000  # a raw page keeps this much of a source's text
PASSAGE_JOIN = "\n\n…\n\n"  # how search providers join several passages of one document
TEXT_FORMAT = "plain"  # raw pages say their text is plain prose; older pages may still hold markdown


def topic_slug(topic: str, slug: str | None = None) -> str:
    """Stable slug: the configured one, else one derived from the topic text (so URLs survive refreshes)."""
    return store.slugify(slug or topic)


@dataclass(frozen=True)
class Workspace:
    paths: KBPaths
    slug: str

    @property
    def root(self) -> Path:
        return self.paths.topic_dir(self.slug)

    @property
    def meta_file(self) -> Path:
        return self.root / "_meta.json"

    @property
    def plan_file(self) -> Path:
        return self.root / "plan.json"

    @property
    def raw_dir(self) -> Path:
        return self.root / "raw"

    @property
    def aggregated_file(self) -> Path:
        return self.root / "processed" / "aggregated.json"

    @property
    def analysis_file(self) -> Path:
        return self.root / "processed" / "analysis.md"

    @property
    def report_file(self) -> Path:
        return self.root / "output" / "report.md"

    @property
    def index_file(self) -> Path:
        return self.root / "index.md"

    @property
    def sources_file(self) -> Path:
        return self.root / "sources.md"

    def raw_file(self, source_id: str) -> Path:
        return store.safe_join(self.raw_dir, f"{store.slugify(source_id)}.md")


# --------------------------------------------------------------------------- meta and plan


def load_meta(paths: KBPaths, slug: str) -> TopicMeta | None:
    data = store.read_json(Workspace(paths, slug).meta_file)
    return None if data is None else TopicMeta.model_validate(data)


def save_meta(paths: KBPaths, meta: TopicMeta) -> None:
    meta.updated_at = now_iso()
    store.write_json(Workspace(paths, meta.slug).meta_file, meta.model_dump(mode="json"))


def find_topic(paths: KBPaths, topic_id: str) -> TopicMeta:
    """The workspace a `resume ID` names: by id or slug."""
    meta = load_meta(paths, store.slugify(topic_id))
    if meta is not None:
        return meta
    for meta_file in sorted(paths.topics_dir.glob("*/_meta.json")):
        data = store.read_json(meta_file) or {}
        if data.get("id") == topic_id:
            return TopicMeta.model_validate(data)
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
    """One stored source. `text` is the plain text (unescaped), used by aggregation and the analyst."""

    id: str
    source: str
    url: str
    title: str
    fetched_at: str
    text: str
    kind: str = "web"
    tags: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)

    @property
    def page(self) -> str:
        """Path of the raw page relative to the topic folder."""
        return f"raw/{self.id}.md"


def source_id(source: str, url: str, text: str) -> str:
    key = _canonical(url) if url else text
    return f"{store.slugify(source or 'web')}-{hashlib.sha1(key.encode('utf-8')).hexdigest()[:10]}"


def _canonical(url: str) -> str:
    from .dedupe import canonical_url

    return canonical_url(url)


def write_raw_source(
    paths: KBPaths,
    slug: str,
    item: Any,
    *,
    source: str | None = None,
    tags: list[str] | None = None,
    provider: str = "offline",
) -> RawSource:
    """Store a SearchHit or a crawled FetchedPage as `raw/{source}-{hash}.md`; rewriting it changes nothing."""
    raw = _raw_from_item(item, source)
    ws = Workspace(paths, slug)
    path = ws.raw_file(raw.id)
    if path.exists():  # keep the first fetch time and text, so re-storing the same source is a no-op write
        old = read_raw_source(path)
        raw.fetched_at = old.fetched_at or raw.fetched_at
        raw.text = merge_text(old.text, raw.text)  # read_raw_source made an older page's text plain
    raw.tags = list(tags or [])
    store.write_page(path, _raw_frontmatter(raw, item, provider), _raw_body(raw, item))
    return raw


def merge_text(old: str, new: str) -> str:
    """Another passage of a document already stored is appended, so earlier citations keep their sentences."""
    if not old:
        return new
    parts = [p for p in new.split(PASSAGE_JOIN) if p.strip() and p.strip() not in old]
    return PASSAGE_JOIN.join([old, *parts])[:MAX_TEXT_CHARS]


def _raw_from_item(item: Any, source: str | None) -> RawSource:
    url = str(getattr(item, "final_url", "") or getattr(item, "url", "") or "")
    text = str(getattr(item, "content", None) or getattr(item, "text", "") or "")[:MAX_TEXT_CHARS]
    name = source or str(getattr(item, "source", "") or "web")
    title = " ".join(str(getattr(item, "title", "") or url or "untitled").split())[:300]
    return RawSource(
        id=source_id(name, url, text),
        source=name,
        url=url,
        title=title,
        fetched_at=now_iso(),
        text=text,
        kind=str(getattr(item, "kind", "web") or "web"),
        authors=[str(a) for a in getattr(item, "authors", [])],
    )


def _raw_frontmatter(raw: RawSource, item: Any, provider: str) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "id": raw.id,
        "source": raw.source,
        "url": raw.url,
        "title": raw.title,
        "fetched_at": raw.fetched_at,
        "tags": raw.tags,
        "description": _one_line((summarize(raw.text, sentences=1, max_chars=200) or [raw.title])[0]),
        "generated": raw.fetched_at[:10],
        "provider": provider,
        "kind": raw.kind,
        "text_format": TEXT_FORMAT,
    }
    if raw.kind == "paper":
        meta.update(
            type="paper",
            authors=raw.authors,
            published=str(getattr(item, "published", "") or ""),
            summary=_paper_summary(raw.text),
        )
    return meta


def _paper_summary(text: str) -> dict[str, list[str]]:
    """seed: a paper's summary sections, extracted (never invented) from its abstract."""
    return {
        "key_points": summarize(text, sentences=3, max_chars=240),
        "methods": summarize(text, sentences=1, focus="method approach propose model", max_chars=240),
        "results": summarize(
            text, sentences=1, focus="result show outperform accuracy improve", max_chars=240
        ),
    }


def _raw_body(raw: RawSource, item: Any) -> str:
    from ..site.templates import render_template

    summary = _paper_summary(raw.text) if raw.kind == "paper" else {}
    return render_template(
        "topic_raw.md.j2",
        {
            "title": raw.title,
            "source": raw.source,
            "kind": raw.kind,
            "original": link_or_text(raw.url),
            "fetched_at": raw.fetched_at,
            "authors": raw.authors,
            "summary": summary,
            "text": md_escape(raw.text.strip()) or Markdown("_(no text)_"),
        },
    )


def _one_line(text: str) -> str:
    return " ".join(re.sub(r"<[^>]{0,200}>", " ", text).split())[:200]


_SAFE_URL = re.compile(r"^https?://[^\s<>\"'`]+$", re.IGNORECASE)


def link_or_text(url: str) -> Markdown:
    """A markdown link for an http(s) URL; anything else (javascript:, file paths) stays inert text."""
    if _SAFE_URL.match(url):
        target = url.replace("(", "%28").replace(")", "%29")
        return Markdown(f"[{md_inline(url, limit=120)}](<{target}>)")
    return md_inline(url) if url else Markdown("—")


_UNESCAPE = re.compile(r"\\([\\`*_\[\]{}()#+!|~\-=>.0-9])")


def unescape_body(text: str) -> str:
    """Invert `md_escape` closely enough for analysis (the page keeps the escaped form)."""
    return html.unescape(_UNESCAPE.sub(r"\1", text))


def source_markup(kind: str, url: str) -> str:
    """How a source's original text was marked up: KB pages are markdown, local files by their suffix."""
    if kind == "kb":
        return "markdown"
    return markup_of(url) if kind == "local" else "text"


def raw_page_text(meta: dict[str, Any], escaped: str) -> str:
    """The plain text stored on a raw page; a page written before texts were stored plain is converted."""
    text = unescape_body(escaped.strip())
    if meta.get("text_format") == TEXT_FORMAT:
        return text
    kind = str(meta.get("kind", "web"))
    markup = source_markup(kind, str(meta.get("url", "")))
    return text if markup == "text" else to_plain(text, markup, drop_admonitions=kind == "kb")


def read_raw_source(path: Path) -> RawSource:
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
    )


def list_raw_sources(paths: KBPaths, slug: str) -> list[RawSource]:
    """Every stored raw source in citation order (first fetched first, then by id)."""
    raw_dir = Workspace(paths, slug).raw_dir
    found = [read_raw_source(p) for p in sorted(raw_dir.glob("*.md"))]
    return sorted(found, key=lambda r: (r.fetched_at, r.id))


# --------------------------------------------------------------------------- processed and output


def save_aggregated(paths: KBPaths, slug: str, data: dict[str, Any]) -> None:
    store.write_json(Workspace(paths, slug).aggregated_file, data)


def load_aggregated(paths: KBPaths, slug: str) -> dict[str, Any]:
    return store.read_json(Workspace(paths, slug).aggregated_file, default={}) or {}


def write_markdown(path: Path, meta: dict[str, Any], body: str) -> bool:
    return store.write_page(path, meta, body)


FINDINGS = "processed/findings.json"  # the analysis as data, so REPORT can run (or resume) without redoing it


def save_findings(paths: KBPaths, slug: str, data: dict[str, Any]) -> None:
    store.write_json(Workspace(paths, slug).root / FINDINGS, data)


def load_findings(paths: KBPaths, slug: str) -> dict[str, Any]:
    return store.read_json(Workspace(paths, slug).root / FINDINGS, default={}) or {}


def topic_keywords(paths: KBPaths, slug: str, topic: str) -> list[str]:
    """The topic's key phrases: as the sources use them once aggregated, else from the topic alone."""
    aggregated = load_aggregated(paths, slug).get("keyphrases")
    if isinstance(aggregated, list) and aggregated:
        return [str(k) for k in aggregated]
    return topic_phrases(topic)


def topic_tags(terms: list[str], paths: KBPaths | None = None) -> list[str]:
    """Canonical tags (generator/kb/synonyms.py) of a topic's key phrases, through the KB's own synonyms."""
    from ..kb.synonyms import canonical_tags, load_synonyms

    return canonical_tags(terms, load_synonyms(paths))


def retag_raw_sources(paths: KBPaths, slug: str, tags: list[str]) -> int:
    """Give every raw page of the topic these tags (once the sources have shown which phrases matter);
    returns how many pages changed. Bodies are kept byte for byte."""
    changed = 0
    for path in sorted(Workspace(paths, slug).raw_dir.glob("*.md")):
        meta, body = store.read_page(path)
        if list(meta.get("tags") or []) != tags:
            changed += store.write_page(path, {**meta, "tags": tags}, body)
    return changed
