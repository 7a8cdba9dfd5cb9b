"""The one gate every reader of site_src/ goes through (store.site_folder/site_subfolders/site_files): a
knowledge base is a git repository and git stores links, so site_src/repos, a topic or a page can point
anywhere; `ask`, `knowledge search`, the index, the catalog and the MCP reader never read through one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import deepkb

from generator.kb.reader import Reader
from generator.store import KBPaths, site_file, site_files, site_folder, site_subfolders, write_page

SECRET = "TOPSECRET walrus migration plans"


def _outside(tmp_path: Path) -> Path:
    """A folder outside the knowledge base laid out like site_src/repos and site_src/topics."""
    outside = tmp_path / "home"
    write_page(outside / "acme" / "leak" / "index.md", {"title": "walrus leak"}, f"# Leak\n\n{SECRET}\n")
    write_page(outside / "walrus" / "index.md", {"title": "walrus topic"}, f"# Walrus\n\n{SECRET}\n")
    return outside


@pytest.fixture
def linked_kb(tmp_path: Path) -> KBPaths:
    paths = KBPaths(tmp_path / "kb")
    write_page(paths.topic_dir("calculators") / "index.md", {"title": "Calculators"}, "# Walrus-free text\n")
    outside = _outside(tmp_path)
    os.symlink(outside, paths.repos_dir)  # site_src/repos → a home folder
    os.symlink(outside / "walrus", paths.topics_dir / "walrus")  # one topic → outside
    os.symlink(outside / "acme" / "leak" / "index.md", paths.topic_dir("calculators") / "leak.md")
    return paths


def test_ask_and_knowledge_search_never_read_through_a_link(linked_kb: KBPaths) -> None:
    """#32.2: `kb/search.py` listed site_src/repos with os.scandir, which follows a link at that level."""
    for args in (
        ("knowledge", "search", "walrus"),
        ("ask", "walrus migration plans"),
        ("knowledge", "rebuild"),
    ):
        result = deepkb(linked_kb.root, *args)
        assert "TOPSECRET" not in result.output, args
        assert "Traceback" not in result.output
    index = (linked_kb.site_src / "_index.json").read_text(encoding="utf-8")
    assert "walrus" not in index and "leak" not in index  # `knowledge rebuild` listed no linked entry
    assert "walrus" not in str(Reader(linked_kb).entries())


def test_the_gate_lists_real_folders_and_regular_files_only(tmp_path: Path) -> None:
    site_src = tmp_path / "site_src"
    write_page(site_src / "topics" / "t" / "index.md", {"title": "T"}, "Body.\n")
    outside = _outside(tmp_path)
    os.symlink(outside, site_src / "repos")
    os.symlink(outside / "walrus", site_src / "topics" / "linked")
    os.symlink(outside / "walrus" / "index.md", site_src / "topics" / "t" / "linked.md")
    os.mkfifo(site_src / "topics" / "t" / "fifo.md")
    assert site_subfolders(site_src) == ["topics"]
    assert site_subfolders(site_src, "topics") == ["t"]
    assert site_subfolders(site_src, "repos") == [] and site_files(site_src, "repos/acme/leak") == []
    assert [p.name for p in site_files(site_src, "topics/t", "*.md")] == ["index.md"]
    assert site_folder(site_src, "topics/linked") is None and site_folder(site_src, "topics/../..") is None
    assert site_file(site_src, "topics/t/index.md") == site_src / "topics" / "t" / "index.md"
    for rel in ("topics/t/linked.md", "topics/t/fifo.md", "repos/acme/leak/index.md", "/etc/passwd"):
        assert site_file(site_src, rel) is None, rel
    linked_root = tmp_path / "linked_site_src"
    os.symlink(site_src, linked_root)
    assert site_subfolders(linked_root) == [] and site_file(linked_root, "topics/t/index.md") is None


def test_the_catalog_and_listing_pages_never_reach_through_a_link(tmp_path: Path) -> None:
    from generator.config import Config
    from generator.site.catalog import load_catalog
    from generator.site.render import GENERATED_BY, render_site

    paths = KBPaths(tmp_path / "kb")
    write_page(
        paths.topic_dir("calculators") / "index.md", {"title": "Calculators", "tags": ["math"]}, "Body.\n"
    )
    os.symlink(_outside(tmp_path), paths.repos_dir)
    elsewhere = tmp_path / "elsewhere"
    write_page(
        elsewhere / "old.md", {"title": "Old", "kind": f"{GENERATED_BY}tag"}, "A page deepkb once wrote.\n"
    )
    before = {p: p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file() and "kb" not in p.parts}
    os.symlink(elsewhere, paths.site_src / "tags")
    assert "leak" not in str(load_catalog(paths))
    try:
        render_site(paths, Config())
    except Exception as exc:  # refusing to write through the link is fine; writing or deleting is not
        assert "symbolic link" in str(exc)
    after = {p: p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file() and "kb" not in p.parts}
    assert after == before


def test_a_topic_whose_records_folder_is_a_link_lists_no_source(tmp_path: Path) -> None:
    """Raw pages are rendered from a topic's stored records: a linked processed/ folder must not publish
    records from outside the knowledge base."""
    import json

    from generator.topic.workspace import list_raw_sources

    paths = KBPaths(tmp_path / "kb")
    write_page(paths.topic_dir("t") / "index.md", {"title": "T"}, "Body.\n")
    elsewhere = tmp_path / "elsewhere" / "sources"
    elsewhere.mkdir(parents=True)
    record = {
        "id": "leak",
        "source": "web",
        "url": "https://example.org/x",
        "title": "walrus",
        "text": SECRET,
    }
    record["fetched_at"] = "2026-01-01T00:00:00Z"
    (elsewhere / "leak.json").write_text(json.dumps(record), encoding="utf-8")
    os.symlink(elsewhere.parent, paths.topic_dir("t") / "processed")
    (paths.topic_dir("t") / "raw").mkdir()
    os.symlink(_outside(tmp_path) / "walrus" / "index.md", paths.topic_dir("t") / "raw" / "linked.md")
    assert list_raw_sources(paths, "t") == []
