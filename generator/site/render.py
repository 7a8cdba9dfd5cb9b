"""Rendering the site's own pages into site_src: home dashboard, section indexes and tag pages.

Research pages are written by the pipelines; this module writes the pages that list them, from the
knowledge index (`site.catalog`). Every untrusted value goes through the templates' `inline` filter, every
link is a relative path computed from a validated page path, and every write goes through the store
(atomic, skipped when unchanged), so re-rendering an unchanged knowledge base changes no file.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..config import Config
from ..errors import StoreError
from ..store import KBPaths, read_page, slugify, write_page
from .catalog import Catalog, Entry, Source, load_catalog, short_date
from .templates import render_template
from .text import Markdown, md_inline

PER_PAGE = 200
"""Rows per listing page; bigger listings continue on `<section>/_page-N.md`."""
TOP_TAGS = 30
GENERATED_BY = "deepkb-site"
"""Frontmatter `kind` prefix of pages this module owns (and may delete when they go stale)."""


@dataclass(frozen=True)
class Row:
    title: str
    href: str
    cells: tuple[str, ...] = ()
    tags: str = ""
    note: str = ""
    kind: str = ""
    updated: str = ""
    summary: str = ""


def render_site(paths: KBPaths, config: Config) -> None:
    """Write home, repos/topics indexes and tag pages for what the knowledge index holds now."""
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


def _meta(title: str, description: str, kind: str, generated: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"title": title, "description": " ".join(description.split())[:300]}
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


def render_home(paths: KBPaths, config: Config, catalog: Catalog, tag_files: dict[str, str]) -> None:
    page = "index.md"
    members = catalog.tag_members
    recent = sorted(catalog.entries, key=lambda e: (e.updated_at, e.title.lower()), reverse=True)
    top = sorted(members, key=lambda tag: (-len(members[tag]), tag))[:TOP_TAGS]
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
        "recent": [
            Row(
                title=e.title,
                href=link(page, e.path),
                kind="repository" if e.kind == "repo" else "topic",
                updated=short_date(e.updated_at),
                summary=e.summary,
            )
            for e in recent[: config.site.recent]
        ],  # fmt: skip
        "top_tags": [
            {"name": tag, "href": link(page, tag_files[tag]), "count": len(members[tag])} for tag in top
        ],
    }
    meta = _meta(config.site.title, config.site.description, "home", catalog.latest_update())
    write_page(paths.site_src / page, meta, render_template("home.md.j2", context))


# --------------------------------------------------------------------------- repos/ and topics/


def render_section(paths: KBPaths, catalog: Catalog, kind: str, tag_files: dict[str, str]) -> None:
    """`repos/index.md` or `topics/index.md` listing every entry, continued on page-N.md past PER_PAGE."""
    section, heading = ("repos", "Repositories") if kind == "repo" else ("topics", "Topics")
    entries = catalog.of_kind(kind)
    columns = (
        ["Title", "Revision date", "Shards", "Tags"]
        if kind == "repo"
        else ["Title", "Status", "Updated", "Tags"]
    )
    intro = f"{len(entries)} {heading.lower()} researched, most recently updated first."
    files = _paged_files(section, len(entries))

    def row(page: str, entry: Entry) -> Row:
        cells = (short_date(entry.updated_at), str(entry.shards or 0)) if kind == "repo" else (
            entry.status or "done", short_date(entry.updated_at))  # fmt: skip
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
        write_page(paths.site_src / page, meta, render_template("section_index.md.j2", context))
    _remove_stale(paths.site_src, paths.site_src.glob(f"{section}/_page-*.md"), keep=set(files))


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
    _remove_stale(paths.site_src, paths.site_src.glob("tags/*.md"), keep=written)


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
        write_page(paths.site_src / page, meta, render_template("tag.md.j2", context))
    return files


def _tag_groups(page: str, items: list[Entry | Source], titles: dict[str, str]) -> list[dict[str, Any]]:
    groups: list[tuple[str, Callable[[Entry | Source], bool]]] = [
        ("Repositories", lambda i: isinstance(i, Entry) and i.kind == "repo"),
        ("Topics", lambda i: isinstance(i, Entry) and i.kind == "topic"),
        ("Raw sources", lambda i: isinstance(i, Source)),
    ]
    result = []
    for heading, wanted in groups:
        rows = [Row(i.title, link(page, i.path), note=_note(i, titles)) for i in items if wanted(i)]
        if rows:
            result.append({"heading": heading, "rows": rows})
    return result


def _note(item: Entry | Source, titles: dict[str, str]) -> str:
    if isinstance(item, Source):
        # only web addresses are shown; anything else (javascript:, data:) is not worth even inert text
        url = item.url if item.url.startswith(("https://", "http://")) else ""
        topic = titles.get(item.topic) or titles.get(f"topic:{item.topic}") or item.topic
        return " · ".join(part for part in (topic, url) if part)
    return item.summary


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
    write_page(paths.site_src / page, meta, render_template("tags_index.md.j2", {"tags": tags}))


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
