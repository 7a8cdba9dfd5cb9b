"""Rendering the site's own pages into site_src: home dashboard, section indexes and tag pages.

Research pages are written by the pipelines; this module writes the pages that list them, from the
knowledge index (`site.catalog`). Every untrusted value goes through the templates' `inline` filter, every
link is a relative path computed from a validated page path, and every write goes through the store
(atomic, skipped when unchanged), so re-rendering an unchanged knowledge base changes no file.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..config import Config
from ..errors import StoreError
from ..jsontypes import JSONObject
from ..store import KBPaths, read_page, safe_join, site_files, slugify, write_page
from .catalog import Catalog, Entry, Source, load_catalog, short_date
from .links import commit_link, source_link
from .templates import render_template
from .text import Markdown, md_inline

PER_PAGE = 200
"""Rows per listing page; bigger listings continue on `<section>/_page-N.md`."""
TOP_TAGS = 30
GENERATED_BY = "deepkb-site"
"""Frontmatter `kind` prefix of pages this module owns (and may delete when they go stale)."""


@dataclass(frozen=True)
class TopicRows:
    """A topic's raw sources on a tag page, under the topic's title."""

    title: str
    rows: list[Row]


@dataclass(frozen=True)
class TagGroup:
    """One section of a tag page: repositories, topics, or raw sources grouped by their topic."""

    heading: str
    rows: list[Row]
    topics: list[TopicRows]


@dataclass(frozen=True)
class Row:
    title: str
    href: str
    cells: tuple[Markdown, ...] = ()
    tags: str = ""
    note: str = ""
    kind: str = ""
    updated: str = ""
    summary: str = ""


def render_site(paths: KBPaths, config: Config) -> None:
    """Write home, repos/topics indexes and tag pages for what the knowledge index holds now."""
    from .pages.topic_raw import refresh_cited_by

    refresh_cited_by(paths)
    catalog = load_catalog(paths)
    tag_files = tag_file_names(catalog.tag_members)
    render_tag_pages(paths, catalog, tag_files)
    render_section(paths, catalog, "repo", tag_files)
    render_section(paths, catalog, "topic", tag_files)
    render_home(paths, config, catalog, tag_files)


def link(from_page: str, to_page: str) -> Markdown:
    """A relative markdown link target from one docs-relative page to another, percent-quoted."""
    rel = posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
    return Markdown(quote(rel, safe="/._-~"))


def tag_file_names(tags: Iterable[str]) -> dict[str, str]:
    """Canonical tag → docs-relative tag page path; two tags that slugify alike get distinct files."""
    names: dict[str, str] = {}
    taken: set[str] = {"index"}
    for tag in sorted(tags):
        slug = slugify(tag)
        if slug in taken:
            slug = f"{slug}-{hashlib.sha1(tag.encode()).hexdigest()[:6]}"
        taken.add(slug)
        names[tag] = f"tags/{slug}.md"
    return names


def _meta(title: str, description: str, kind: str, generated: str) -> JSONObject:
    meta: JSONObject = {"title": title, "description": " ".join(description.split())[:300]}
    meta["kind"] = f"{GENERATED_BY}:{kind}"
    if generated:
        meta["generated"] = generated
    return meta


def _tag_links(page: str, tags: Sequence[str], tag_files: dict[str, str], limit: int = 6) -> Markdown:
    shown = [
        f"[{md_inline(tag, 60)}]({link(page, tag_files[tag])})" for tag in tags[:limit] if tag in tag_files
    ]
    return Markdown(", ".join(shown))


# --------------------------------------------------------------------------- home

# research that ended with something to read; any other status (no_sources, failed, in_progress…) is listed
# apart, never as fresh research
FINISHED = frozenset({"", "completed", "done"})
STATUS_WORDS = {
    "no_sources": "no usable source found",
    "failed": "failed",
    "in_progress": "in progress",
    "awaiting_review": "awaiting review",
}


def render_home(paths: KBPaths, config: Config, catalog: Catalog, tag_files: dict[str, str]) -> None:
    page = "index.md"
    members = catalog.tag_members
    recent = sorted(catalog.entries, key=lambda e: (e.updated_at, e.title.lower()), reverse=True)
    unfinished = [e for e in recent if e.status not in FINISHED]
    recent = [e for e in recent if e.status in FINISHED]
    top = home_tags(catalog)[:TOP_TAGS]

    def row(e: Entry, note: str = "", summary: str = "") -> Row:
        kind, updated = "repository" if e.kind == "repo" else "topic", short_date(e.updated_at)
        return Row(e.title, link(page, e.path), note=note, kind=kind, updated=updated, summary=summary)

    context = {
        "site_title": config.site.title,
        "site_description": config.site.description,
        "counts": {
            "repos": len(catalog.of_kind("repo")),
            "topics": len(catalog.of_kind("topic")),
            "sources": len(catalog.sources),
            "tags": len(members),
        },
        "links": {name: link(page, f"{name}/index.md") for name in ("repos", "topics", "tags")},
        "recent": [row(e, summary=e.summary) for e in recent[: config.site.recent]],
        "unfinished": [
            row(e, note=STATUS_WORDS.get(e.status, e.status.replace("_", " ")))
            for e in unfinished[: config.site.recent]
        ],
        "top_tags": [
            {"name": tag, "href": link(page, tag_files[tag]), "count": len(members[tag])} for tag in top
        ],
    }
    meta = _meta(config.site.title, config.site.description, "home", catalog.latest_update())
    write_page(_site_page(paths, page), meta, render_template(paths, "home.md.j2", context))


def home_tags(catalog: Catalog) -> list[str]:
    """Tags worth showing on the home page, best first: ranked by how many repositories and topics carry
    them (a topic carries its raw sources' tags), so a word repeated across one topic's sources does not
    outrank one shared by several entries; tags every entry (or every entry of a kind) carries say nothing
    about any of them and are left out."""
    owner = {e.id: e.id for e in catalog.entries}
    for source in catalog.sources:
        topic = source.topic if source.topic.startswith("topic:") else f"topic:{source.topic}"
        if topic in owner:
            owner[source.id] = topic
    kinds = {e.id: e.kind for e in catalog.entries}
    sizes = {kind: sum(1 for k in kinds.values() if k == kind) for kind in set(kinds.values())}
    ranked = []
    for tag, ids in catalog.tag_members.items():
        carriers = {owner[i] for i in ids if i in owner}
        per_kind = {kind: sum(1 for c in carriers if kinds[c] == kind) for kind in sizes}
        everywhere = len(carriers) == len(owner.keys() & kinds.keys()) and len(carriers) > 1
        kind_marker = any(per_kind[k] == n and n > 1 for k, n in sizes.items())
        if carriers and not everywhere and not kind_marker:
            ranked.append((-len(carriers), -len(ids), tag))
    return [tag for _, _, tag in sorted(ranked)]


# --------------------------------------------------------------------------- repos/ and topics/


def render_section(paths: KBPaths, catalog: Catalog, kind: str, tag_files: dict[str, str]) -> None:
    """`repos/index.md` or `topics/index.md` listing every entry, continued on page-N.md past PER_PAGE."""
    section, heading = ("repos", "Repositories") if kind == "repo" else ("topics", "Topics")
    entries = catalog.of_kind(kind)
    columns = (
        ["Repository", "Source", "Revision", "Revision date", "Shards", "Tags"]
        if kind == "repo"
        else ["Title", "Status", "Updated", "Tags"]
    )
    intro = f"{len(entries)} {heading.lower()} researched, most recently updated first."
    files = _paged_files(section, len(entries))

    def row(page: str, entry: Entry) -> Row:
        cells = _repository_cells(entry) if kind == "repo" else (
            md_inline(entry.status or "done", 40), md_inline(short_date(entry.updated_at), 40))  # fmt: skip
        return Row(entry.title, link(page, entry.path), cells, _tag_links(page, entry.tags, tag_files))

    for number, page in enumerate(files, start=1):
        chunk = entries[(number - 1) * PER_PAGE : number * PER_PAGE]
        context = {
            "heading": heading, "intro": intro, "columns": columns, "page_number": number,
            "pages": [{"number": n, "href": link(page, f)} for n, f in enumerate(files, start=1)],
            "rows": [row(page, entry) for entry in chunk],
        }  # fmt: skip
        title = heading if number == 1 else f"{heading} (page {number})"
        meta = _meta(title, intro, section, catalog.latest_update())
        write_page(_site_page(paths, page), meta, render_template(paths, "section_index.md.j2", context))
    _remove_stale(paths.site_src, site_files(paths.site_src, section, "_page-*.md"), keep=set(files))


def _repository_cells(entry: Entry) -> tuple[Markdown, ...]:
    # the revision date is the researched commit's date; the research date is only a fallback for old pages
    date = short_date(entry.revision_date or entry.updated_at)
    return (
        source_link(entry.source) if entry.source else Markdown(""),
        commit_link(entry.source, entry.revision) if entry.revision else Markdown(""),
        md_inline(date, 40),
        Markdown(str(entry.shards or 0)),
    )


def _paged_files(base: str, count: int, stem: str = "index") -> list[str]:
    # continuation pages start with '_', which no slug can (store.slugify strips it): no clash with a
    # topic called "page-2" or a tag called "search page 2"
    pages = max(1, -(-count // PER_PAGE))
    prefix = f"{base}/_page-" if stem == "index" else f"{base}/_{stem}-"
    return [f"{base}/{stem}.md"] + [f"{prefix}{n}.md" for n in range(2, pages + 1)]


# --------------------------------------------------------------------------- tags/


def render_tag_pages(paths: KBPaths, catalog: Catalog, tag_files: dict[str, str]) -> None:
    """One page per canonical tag (every repository, topic and raw source carrying it), plus tags/index.md."""
    members = catalog.tag_members
    by_id: dict[str, Entry | Source] = {s.id: s for s in catalog.sources}
    by_id.update({e.id: e for e in catalog.entries})
    titles = {e.id: e.title for e in catalog.entries}
    written: set[str] = set()
    for tag, ids in members.items():
        items = sorted(
            (by_id[i] for i in ids if i in by_id), key=lambda item: (item.title.lower(), item.path)
        )
        written.update(_render_tag(paths, catalog, tag, items, tag_files, titles))
    _render_tags_index(paths, catalog, members, tag_files)
    written.add("tags/index.md")
    _remove_stale(paths.site_src, site_files(paths.site_src, "tags", "*.md"), keep=written)


def _render_tag(
    paths: KBPaths,
    catalog: Catalog,
    tag: str,
    items: list[Entry | Source],
    tag_files: dict[str, str],
    titles: dict[str, str],
) -> list[str]:
    base, stem = tag_files[tag].removesuffix(".md").split("/", 1)
    files = _paged_files(base, len(items), stem)
    variants = [v for v in catalog.tag_variants.get(tag, []) if v != tag]
    for number, page in enumerate(files, start=1):
        chunk = items[(number - 1) * PER_PAGE : number * PER_PAGE]
        context = {
            "tag": tag, "variants": variants, "page_number": number, "tags_index": link(page, "tags/index.md"),
            "pages": [{"number": n, "href": link(page, f)} for n, f in enumerate(files, start=1)],
            "groups": _tag_groups(page, chunk, titles),
        }  # fmt: skip
        description = f"{len(items)} entries tagged {tag}" + (
            f" (also: {', '.join(variants[:8])})" if variants else ""
        )
        meta = _meta(f"Tag: {tag}", description, "tag", catalog.latest_update())
        meta["tag"] = tag
        write_page(_site_page(paths, page), meta, render_template(paths, "tag.md.j2", context))
    return files


def _tag_groups(page: str, items: list[Entry | Source], titles: dict[str, str]) -> list[TagGroup]:
    """Repositories and topics with their own summaries; raw sources under the topic they belong to (the
    topic's title once, each source with only its own address), so no description repeats down the page."""
    result = []
    for heading, kind in (("Repositories", "repo"), ("Topics", "topic")):
        rows = [
            Row(i.title, link(page, i.path), note=i.summary)
            for i in items
            if isinstance(i, Entry) and i.kind == kind
        ]
        if rows:
            result.append(TagGroup(heading, _once(rows), []))
    by_topic: dict[str, list[Row]] = {}
    for item in items:
        if isinstance(item, Source):
            by_topic.setdefault(item.topic, []).append(
                Row(item.title, link(page, item.path), note=_web(item.url))
            )
    if by_topic:
        topics = [
            TopicRows(titles.get(f"topic:{t}") or titles.get(t) or t, rows)
            for t, rows in sorted(
                by_topic.items(), key=lambda kv: (titles.get(f"topic:{kv[0]}") or kv[0]).lower()
            )
        ]
        result.append(TagGroup("Raw sources", [], topics))
    return result


def _once(rows: list[Row]) -> list[Row]:
    # a summary shared by several entries (a template sentence, a failed run's notice) is shown on the first
    seen: set[str] = set()
    kept = []
    for row in rows:
        kept.append(row if row.note not in seen else Row(row.title, row.href))
        seen.add(row.note)
    return kept


def _web(url: str) -> str:
    # only web addresses are shown; anything else (javascript:, data:) is not worth even inert text
    return url if url.startswith(("https://", "http://")) else ""


def _render_tags_index(
    paths: KBPaths, catalog: Catalog, members: dict[str, set[str]], tag_files: dict[str, str]
) -> None:
    page = "tags/index.md"
    tags = [
        {"name": tag, "href": link(page, tag_files[tag]), "count": len(members[tag]),
         "variants": ", ".join(v for v in catalog.tag_variants.get(tag, []) if v != tag)}
        for tag in sorted(members, key=lambda t: (-len(members[t]), t))
    ]  # fmt: skip
    meta = _meta("Tags", f"{len(tags)} canonical tags", "tags", catalog.latest_update())
    write_page(_site_page(paths, page), meta, render_template(paths, "tags_index.md.j2", {"tags": tags}))


def _site_page(paths: KBPaths, rel: str) -> Path:
    # a linked tags/ or repos/ folder would take the write elsewhere: safe_join refuses every link on the way
    return safe_join(paths.site_src, *rel.split("/"), root=paths.root)


def _remove_stale(site_src: Path, candidates: Iterable[Path], keep: set[str]) -> None:
    """Delete listing pages this module wrote earlier that no longer belong (never a page it did not write)."""
    for path in candidates:
        if path.relative_to(site_src).as_posix() in keep:
            continue
        try:
            kind = str(read_page(path)[0].get("kind", ""))
        except StoreError:
            continue
        if kind.startswith(GENERATED_BY):
            path.unlink(missing_ok=True)
