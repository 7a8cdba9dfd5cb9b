"""Cross-topic search: synonyms → tag_index → FTS5 full text (jieba for Chinese), merged and ranked."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from kb_fakes import add_repo, add_topic

from generator.cli import cli
from generator.kb.fulltext import SyncCounts
from generator.kb.index import delete_entry, update_index
from generator.kb.search import refresh_search_db, search, sync_search_db
from generator.store import KBPaths, write_page


@pytest.fixture
def paths(kb_root: Path) -> KBPaths:
    paths = KBPaths(kb_root)
    add_topic(
        paths,
        "market-making",
        topic="Market making",
        tags=["trading", "finance"],
        report="Market makers quote both sides of the book and earn the spread.",
        sources={"Spread capture": "Inventory risk grows with volatility."},
    )
    add_topic(
        paths,
        "compilers",
        topic="Compilers",
        tags=["compiler"],
        report="Register allocation and instruction selection. Nothing about markets.",
        analysis="SSA form makes dataflow simple.",
    )
    add_topic(
        paths,
        "deep-nets",
        topic="深度学习",
        tags=["深度学习"],
        report="卷积神经网络在图像识别中表现出色。深度学习需要大量数据。",
    )
    add_repo(
        paths, "acme", "orderbook", tags=["python"], shards={"matching": "The matching engine pairs bids."}
    )
    update_index(paths)
    return paths


def test_chinese_query_finds_topic_tagged_in_english(paths: KBPaths) -> None:
    # `交易` never appears in the text: only the synonym table links it to the `trading` tag
    results = search(paths, "交易")
    assert results and results[0].id == "topic:market-making"
    assert results[0].kind == "topic" and results[0].title == "Market making"
    assert any(r.id.startswith("source:market-making/spread-capture-") for r in results)
    assert not any(r.id == "topic:compilers" for r in results)


def test_synonym_ranks_tagged_topic_over_passing_mention(paths: KBPaths) -> None:
    results = search(paths, "trades")
    ids = [r.id for r in results]
    assert ids[0] == "topic:market-making"
    # the compilers report only mentions "markets" once, and carries no trade tag
    assert "topic:compilers" not in ids[:2]


def test_full_text_over_reports_analyses_shards_and_sources(paths: KBPaths) -> None:
    assert [r.id for r in search(paths, "dataflow")] == ["topic:compilers"]
    assert search(paths, "dataflow")[0].path == "topics/compilers/processed/analysis.md"
    shard = search(paths, "matching engine")[0]
    assert (shard.id, shard.kind) == ("repo:acme/orderbook", "repo")
    assert shard.path.startswith("repos/acme/orderbook/shards/")
    source = search(paths, "volatility")[0]
    assert source.kind == "source" and source.id.startswith("source:market-making/")
    assert "volatility" in source.snippet.lower()


def test_chinese_full_text_is_segmented(paths: KBPaths) -> None:
    hit = search(paths, "神经网络")[0]
    assert hit.id == "topic:deep-nets"
    assert "神经网络" in hit.snippet
    assert search(paths, "图像识别")[0].id == "topic:deep-nets"


def test_query_text_is_never_fts_syntax(paths: KBPaths) -> None:
    for query in ['"unbalanced', "NEAR(a b", "*", "market) OR (", "title:x", "-"]:
        search(paths, query)  # must not raise


def test_incremental_sync_follows_the_files(paths: KBPaths) -> None:
    first = sync_search_db(paths)
    assert first.added == 12 and first.unchanged == 0
    assert sync_search_db(paths) == SyncCounts(added=0, updated=0, removed=0, unchanged=12)
    report = paths.topic_dir("compilers") / "output" / "report.md"
    write_page(
        report, {"title": "Report: Compilers"}, "Peephole optimizers rewrite short instruction windows."
    )
    os.utime(report, ns=(1, 1))  # a different mtime even on coarse clocks
    counts = sync_search_db(paths)
    assert counts.updated == 1 and counts.added == 0
    assert search(paths, "peephole")[0].id == "topic:compilers"
    assert not search(paths, "allocation")
    delete_entry(paths, "topic:compilers")
    assert search(paths, "peephole")  # a query never syncs: the database changes between runs only
    assert sync_search_db(paths).removed == 3
    assert not search(paths, "peephole")


def test_cli_search_json_and_text(paths: KBPaths) -> None:
    runner = CliRunner()
    result = runner.invoke(
        cli, ["--root", str(paths.root), "knowledge", "search", "交易", "--json", "--limit", "1"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["id"] for r in rows] == ["topic:market-making"]
    assert set(rows[0]) == {"id", "title", "path", "snippet", "score", "kind"}
    text = runner.invoke(cli, ["--root", str(paths.root), "knowledge", "search", "volatility"])
    assert text.exit_code == 0 and "topics/market-making/raw/" in text.output
    empty = runner.invoke(cli, ["--root", str(paths.root), "knowledge", "search", "  "])
    assert empty.exit_code == 2


def test_rebuild_command(paths: KBPaths) -> None:
    (paths.site_src / "_index.json").unlink()
    result = CliRunner().invoke(cli, ["--root", str(paths.root), "knowledge", "rebuild"])
    assert result.exit_code == 0, result.output
    assert (paths.site_src / "_index.json").is_file()
    assert {r.id.split("/")[0] for r in search(paths, "spread")} == {
        "topic:market-making",
        "source:market-making",
    }


def test_old_database_schema_is_rebuilt(paths: KBPaths) -> None:
    import sqlite3

    from generator.kb.search import db_path

    sync_search_db(paths)
    with sqlite3.connect(db_path(paths)) as conn:
        conn.execute("UPDATE meta SET value = 'old' WHERE key = 'schema'")
    assert sync_search_db(paths).added == 12  # tables recreated, every page indexed again
    assert search(paths, "dataflow")[0].id == "topic:compilers"


def test_a_new_page_and_a_new_title_are_found_after_the_run_without_a_rebuild(paths: KBPaths) -> None:
    assert not search(paths, "zeppelin")
    add_topic(
        paths,
        "airships",
        topic="Airships",
        tags=["aviation"],
        sources={"Rigid frames": "A zeppelin keeps its shape with a rigid frame."},
    )
    refresh_search_db(paths)  # what every command that writes pages does when it is done
    assert [r.id for r in search(paths, "zeppelin")] == [
        "source:airships/rigid-frames-" + _sha8("Rigid frames")
    ]
    update_index(paths)  # titles and tags come from _index.json, copied when it changes
    refresh_search_db(paths)
    assert search(paths, "aviation")[0].title == "Airships"
    meta_page = paths.topic_dir("airships") / "index.md"
    write_page(meta_page, {"title": "Lighter than air", "tags": ["aviation"]}, "Landing page.")
    update_index(paths)
    refresh_search_db(paths)
    assert search(paths, "aviation")[0].title == "Lighter than air"


def test_queries_read_the_database_as_the_last_command_left_it(paths: KBPaths) -> None:
    from generator.kb.search import db_path, kb_writes

    search(paths, "anything")  # the first query builds a database never synced
    stamp = db_path(paths).stat().st_mtime_ns
    with kb_writes(paths):  # a run: its pages are written, its searches read the database as it stood
        add_topic(paths, "airships", topic="Airships", tags=["aviation"], report="Zeppelins float.")
        update_index(paths)
        assert not search(paths, "zeppelins")
        assert not search(paths, "aviation")
        assert db_path(paths).stat().st_mtime_ns == stamp  # queries wrote nothing
    assert search(paths, "zeppelins")[0].id == "topic:airships"  # synced once, when the run ended
    assert search(paths, "aviation")[0].id == "topic:airships"


def _sha8(text: str) -> str:
    import hashlib

    return hashlib.sha1(text.encode()).hexdigest()[:8]


def test_an_indexed_chinese_title_reads_as_written_not_with_its_search_parts() -> None:
    """jieba's search mode gives a long word's parts before the word: the title shown is the author's."""
    from generator.kb.fulltext import segment
    from generator.kb.search import unsegment

    for title in ("服务端渲染", "组合式函数", "中华人民共和国的服务端渲染指南", "Vite 的服务端渲染 (SSR)"):
        assert unsegment(segment(title, for_index=True)) == title
