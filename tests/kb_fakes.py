"""Workspaces for the knowledge-base tests, written through the real store in the layout the pipelines use."""

from __future__ import annotations

import hashlib
from pathlib import Path

from generator.kb.index import entry_record, save_entry
from generator.store import KBPaths, write_json, write_page


def add_repo(
    paths: KBPaths,
    owner: str,
    repo: str,
    *,
    tags: list[str],
    body: str = "A repository.",
    source: str = "",
    revision: str = "0" * 40,
    generated: str = "2026-11-01",
    shards: dict[str, str] | None = None,
) -> Path:
    folder = paths.repo_dir(owner, repo)
    meta = {
        "title": f"{owner}/{repo}",
        "source": source or f"https://github.com/{owner}/{repo}",
        "revision": revision,
        "revision_date": generated,
        "generated": generated,
        "tags": tags,
        "provider": "offline",
        "description": f"Research on {owner}/{repo}",
    }
    write_page(folder / "index.md", meta, body)
    for number, (name, text) in enumerate((shards or {}).items(), start=1):
        write_page(folder / "shards" / f"{number:02d}_{name}.md", {"title": name, "tags": tags}, text)
    save_entry(folder, entry_record("repo", meta, shards=len(shards or {})))
    return folder


def add_topic(
    paths: KBPaths,
    slug: str,
    *,
    topic: str,
    tags: list[str],
    report: str = "A report.",
    analysis: str = "An analysis.",
    sources: dict[str, str] | None = None,
    updated_at: str = "2026-11-01T00:00:00Z",
    status: str = "completed",
    refresh_days: int | None = None,
) -> Path:
    folder = paths.topic_dir(slug)
    meta: dict[str, object] = {
        "id": slug,
        "topic": topic,
        "slug": slug,
        "status": status,
        "updated_at": updated_at,
        "created_at": updated_at,
        "options": {"lang": "en", "sources": ["local"]},
    }
    if refresh_days is not None:
        meta["refresh_days"] = refresh_days
    write_json(folder / "_meta.json", meta)
    landing = {
        "title": topic,
        "description": f"Topic: {topic}",
        "tags": tags,
        "generated": updated_at[:10],
        "provider": "offline",
    }
    write_page(folder / "index.md", landing, "Landing page.")
    save_entry(folder, entry_record("topic", landing))
    write_page(folder / "output" / "report.md", {"title": f"Report: {topic}", "tags": tags}, report)
    write_page(folder / "processed" / "analysis.md", {"title": f"Analysis: {topic}", "tags": tags}, analysis)
    for title, text in (sources or {}).items():
        name = f"{title.lower().replace(' ', '-')}-{hashlib.sha1(title.encode()).hexdigest()[:8]}"
        raw = {
            "id": name,
            "source": "local",
            "url": f"https://example.org/{name}",
            "title": title,
            "fetched_at": updated_at,
            "text": text,
            "tags": tags,
        }
        write_json(folder / "processed" / "sources" / f"{name}.json", raw)
        write_page(folder / "raw" / f"{name}.md", {k: v for k, v in raw.items() if k != "text"}, text)
    return folder


def tree_hashes(root: Path) -> dict[str, str]:
    """Every file under `root` → sha256 of its bytes."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }
