"""`_index.json` after create, update and delete, rebuilt from workspaces written through the real store."""

from __future__ import annotations

import json
import os
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from kb_fakes import add_repo, add_topic, tree_hashes

from generator.cli import cli
from generator.errors import UsageError
from generator.kb.index import (
    ENTRY_FILE,
    ENTRY_VERSION,
    delete_entry,
    index_path,
    load_entry,
    load_index,
    save_entry,
    update_index,
)
from generator.store import KBPaths, write_json


@pytest.fixture
def paths(kb_root: Path) -> KBPaths:
    paths = KBPaths(kb_root)
    add_repo(paths, "acme", "quant", tags=["Trading", "python"], shards={"core": "Order book code."})
    add_topic(
        paths,
        "algo-trading",
        topic="Algorithmic trading",
        tags=["交易", "机器学习"],
        sources={"Market microstructure": "Orders and trades.", "HFT primer": "Latency matters."},
    )
    add_topic(paths, "databases", topic="Databases", tags=["数据库"], updated_at="2026-11-05T08:00:00Z")
    return paths


def test_index_after_create(paths: KBPaths) -> None:
    index = msgspec.to_builtins(update_index(paths))
    on_disk = json.loads(index_path(paths).read_text(encoding="utf-8"))
    assert on_disk == index
    assert set(index["topics"]) == {"repo:acme/quant", "topic:algo-trading", "topic:databases"}
    repo = index["topics"]["repo:acme/quant"]
    assert (repo["kind"], repo["path"], repo["tags"]) == (
        "repo",
        "repos/acme/quant/index.md",
        ["trade", "python"],
    )
    assert repo["shards"] == 1
    topic = index["topics"]["topic:algo-trading"]
    assert topic["kind"] == "topic" and topic["status"] == "completed"
    assert topic["tags"] == ["trade", "machine-learning"]
    assert topic["report"] == "topics/algo-trading/output/report.md"
    assert len(index["sources"]) == 2
    source_id = next(iter(index["sources"]))
    assert source_id.startswith("source:algo-trading/")
    assert index["sources"][source_id]["topic"] == "topic:algo-trading"
    # repositories, topics and sources all meet on the one canonical tag
    assert index["tag_index"]["trade"] == sorted(["repo:acme/quant", "topic:algo-trading", *index["sources"]])
    assert index["tag_variants"]["trade"] == ["Trading", "交易"]
    assert index["tag_index"]["database"] == ["topic:databases"]
    assert index["updated_at"] == "2026-11-05T08:00:00Z"  # the newest entry, not the clock


def test_rebuild_of_unchanged_kb_writes_nothing(paths: KBPaths) -> None:
    update_index(paths)
    before = index_path(paths).stat().st_mtime_ns
    first = index_path(paths).read_bytes()
    update_index(paths)
    assert index_path(paths).read_bytes() == first
    assert index_path(paths).stat().st_mtime_ns == before


def test_index_after_update(paths: KBPaths) -> None:
    update_index(paths)
    add_topic(
        paths,
        "databases",
        topic="Database engines",
        tags=["databases", "performance"],
        updated_at="2026-11-09T00:00:00Z",
        sources={"B-trees": "Pages and splits."},
    )
    index = msgspec.to_builtins(update_index(paths))
    assert load_index(paths) == index
    entry = index["topics"]["topic:databases"]
    assert entry["title"] == "Database engines"
    assert entry["tags"] == ["database", "performance"]
    assert index["tag_index"]["performance"] == ["source:databases/b-trees-b04ad538", "topic:databases"]
    assert index["updated_at"] == "2026-11-09T00:00:00Z"


def test_delete_touches_nothing_else(paths: KBPaths) -> None:
    update_index(paths)
    clone_cache = paths.cache_dir / "clones" / "acme" / "quant"
    clone_cache.mkdir(parents=True)
    (clone_cache / "README").write_text("cached clone", encoding="utf-8")
    other_cache = paths.cache_dir / "clones" / "acme" / "other"
    other_cache.mkdir(parents=True)
    before = tree_hashes(paths.root)
    index = delete_entry(paths, "topic:algo-trading")
    after = tree_hashes(paths.root)
    removed = {p for p in before if p.startswith("site_src/topics/algo-trading/")}
    assert removed and not any(p in after for p in removed)
    changed = {p for p in after if before.get(p) != after[p]}
    assert changed == {"site_src/_index.json"}
    assert set(before) - set(after) == removed
    assert "topic:algo-trading" not in index.topics and not index.sources
    assert "machine-learning" not in index.tag_index
    assert index.tag_index["trade"] == ["repo:acme/quant"]

    delete_entry(paths, "repo:acme/quant")
    assert not (paths.repos_dir / "acme").exists()
    assert not clone_cache.exists() and other_cache.exists()
    assert list(load_index(paths)["topics"]) == ["topic:databases"]


@pytest.mark.parametrize(
    "bad", ["topic:missing", "repo:acme", "repo:../x", "topic:../../etc", "nothing", "source:a/b"]
)
def test_delete_refuses_unknown_or_crafted_ids(paths: KBPaths, bad: str) -> None:
    before = tree_hashes(paths.root)
    with pytest.raises(UsageError):
        delete_entry(paths, bad)
    assert tree_hashes(paths.root) == before


def test_index_tolerates_a_broken_page(paths: KBPaths) -> None:
    (paths.topic_dir("databases") / "index.md").write_text("---\ntitle: [unclosed\n---\n", encoding="utf-8")
    write_json(paths.topic_dir("databases") / "_meta.json", {"topic": "Databases", "status": "failed"})
    entry = msgspec.to_builtins(update_index(paths))["topics"]["topic:databases"]
    assert entry["title"] == "Databases" and entry["status"] == "failed"


def test_cli_list_show_delete(paths: KBPaths) -> None:
    runner = CliRunner()
    root = ["--root", str(paths.root)]
    listed = runner.invoke(cli, [*root, "knowledge", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    assert set(json.loads(listed.output)) == {"repo:acme/quant", "topic:algo-trading", "topic:databases"}
    shown = runner.invoke(cli, [*root, "knowledge", "show", "topic:algo-trading"])
    assert shown.exit_code == 0 and "Algorithmic trading" in shown.output and "sources (2)" in shown.output
    refused = runner.invoke(cli, [*root, "knowledge", "delete", "topic:databases"], input="n\n")
    assert refused.exit_code != 0 and paths.topic_dir("databases").exists()
    deleted = runner.invoke(cli, [*root, "knowledge", "delete", "topic:databases", "--yes"])
    assert deleted.exit_code == 0, deleted.output
    assert not paths.topic_dir("databases").exists()
    assert "topic:databases" not in load_index(paths)["topics"]
    missing = runner.invoke(cli, [*root, "knowledge", "show", "topic:databases"])
    assert missing.exit_code == 2 and "no entry" in missing.output


def test_cli_delete_rerenders_listing_pages(paths: KBPaths) -> None:
    from generator.config import Config
    from generator.site.render import render_site

    update_index(paths)
    render_site(paths, Config())
    before = tree_hashes(paths.site_src)
    assert (paths.site_src / "tags" / "machine-learning.md").is_file()
    result = CliRunner().invoke(
        cli, ["--root", str(paths.root), "knowledge", "delete", "topic:algo-trading", "--yes"]
    )
    assert result.exit_code == 0, result.output
    after = tree_hashes(paths.site_src)
    assert not (paths.site_src / "tags" / "machine-learning.md").exists()  # its only entry is gone
    for rel in after:
        if rel.endswith(".md"):
            assert "algo-trading" not in (paths.site_src / rel).read_text(encoding="utf-8"), rel
    # the other workspaces are untouched
    assert {p: h for p, h in after.items() if p.startswith(("repos/acme/", "topics/databases/"))} == {
        p: h for p, h in before.items() if p.startswith(("repos/acme/", "topics/databases/"))
    }


def test_index_lists_the_entry_records_not_the_pages(paths: KBPaths) -> None:
    folder = paths.repo_dir("acme", "quant")
    record = load_entry(folder)
    assert record is not None and record.title == "acme/quant" and record.version == ENTRY_VERSION
    save_entry(folder, msgspec.structs.replace(record, title="Quant engine", terms=["Order books"]))
    os.utime(folder / "index.md", ns=(1, 1))  # the page is older than its record
    entry = msgspec.to_builtins(update_index(paths))["topics"]["repo:acme/quant"]
    assert (entry["title"], entry["tags"]) == ("Quant engine", ["order-book"])


def test_a_workspace_without_records_is_migrated_from_its_pages(paths: KBPaths) -> None:
    before = update_index(paths)
    for folder in (paths.repo_dir("acme", "quant"), paths.topic_dir("algo-trading")):
        (folder / ENTRY_FILE).unlink()
    for record in (paths.topic_dir("algo-trading") / "processed" / "sources").glob("*.json"):
        record.unlink()  # raw sources stored before they were records: their pages stand in
    assert update_index(paths) == before
    assert (paths.repo_dir("acme", "quant") / ENTRY_FILE).is_file()  # migrated once, then read


def test_an_entry_record_of_another_version_is_migrated_again(paths: KBPaths) -> None:
    before = update_index(paths)
    folder = paths.topic_dir("databases")
    stale = json.loads((folder / ENTRY_FILE).read_text(encoding="utf-8"))
    write_json(folder / ENTRY_FILE, {**stale, "version": ENTRY_VERSION + 1, "title": "Stale"})
    assert update_index(paths) == before
    assert json.loads((folder / ENTRY_FILE).read_text(encoding="utf-8"))["version"] == ENTRY_VERSION
    (folder / ENTRY_FILE).write_text("{not json", encoding="utf-8")
    assert update_index(paths) == before


def test_a_copy_without_an_entry_record_is_the_same_version_for_merge(tmp_path: Path) -> None:
    from generator.app.merge import merge_checkouts

    ours, theirs = KBPaths(tmp_path / "ours"), KBPaths(tmp_path / "theirs")
    for paths in (ours, theirs):
        add_repo(paths, "acme", "quant", tags=["python"])
    (theirs.repo_dir("acme", "quant") / ENTRY_FILE).unlink()  # written by a deepkb before entry records
    report = merge_checkouts(ours, [theirs.root])
    assert (report.added, report.updated) == ([], [])  # the same research: nothing to take, no conflict
    assert (ours.repo_dir("acme", "quant") / ENTRY_FILE).is_file()
