"""`deepkb refresh`: only what went stale is re-researched; a refresh with nothing new changes nothing."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import git
from kb_fakes import add_repo, add_topic, tree_hashes
from llm_fakes import FakeOpenAI

from generator.app.refresh import find_stale
from generator.cli import cli
from generator.config import load_config
from generator.kb.index import update_index
from generator.store import KBPaths

NOW = dt.datetime.now(dt.UTC).replace(microsecond=0)


@pytest.fixture
def fake_llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(default="should never be asked") as fake:
        yield fake


@pytest.fixture
def paths(kb_root: Path, sample_repo: Path, fake_llm: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> KBPaths:
    """A knowledge base whose repository and topic are both up to date, with an LLM that records every hit."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    config = {
        "repos": [str(sample_repo)],
        "topics": [{"topic": "Market making", "refresh_days": 7}],
        "llm": {"provider": "openai", "base_url": fake_llm.base_url},
    }
    (kb_root / "deepkb.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    paths = KBPaths(kb_root)
    add_repo(
        paths,
        "acme",
        "sample",
        tags=["calculator"],
        source=str(sample_repo),
        revision=git(sample_repo, "rev-parse", "HEAD"),
    )
    yesterday = (NOW - dt.timedelta(days=1)).isoformat().replace("+00:00", "Z")
    add_topic(paths, "market-making", topic="Market making", tags=["trading"], updated_at=yesterday)
    update_index(paths)
    return paths


def _refresh(paths: KBPaths, *args: str) -> dict:
    result = CliRunner().invoke(cli, ["--root", str(paths.root), "refresh", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_noop_refresh_changes_no_file_and_calls_no_model(paths: KBPaths, fake_llm: FakeOpenAI) -> None:
    before = tree_hashes(paths.site_src)
    report = _refresh(paths)
    assert tree_hashes(paths.site_src) == before
    assert fake_llm.requests == []
    assert report["llm_calls"] == 0 and report["refreshed"] == 0 and report["failed"] == 0
    assert report["elapsed_s"] >= 0  # the report carries its time
    assert {(i["id"], i["status"]) for i in report["items"]} == {
        ("repo:acme/sample", "up-to-date"),
        ("topic:market-making", "up-to-date"),
    }


def test_moved_head_and_old_topic_are_stale(paths: KBPaths, sample_repo: Path, fake_llm: FakeOpenAI) -> None:
    (sample_repo / "NEWS.md").write_text("new release\n", encoding="utf-8")
    git(sample_repo, "add", "-A")
    git(sample_repo, "commit", "-q", "-m", "release")
    config = load_config(paths.config_file)
    items = {i.id: i for i in find_stale(paths, config, now=NOW + dt.timedelta(days=10))}
    assert items["repo:acme/sample"].status == "stale"
    assert "remote HEAD moved" in items["repo:acme/sample"].reason
    assert items["topic:market-making"].status == "stale"
    assert "refresh_days 7" in items["topic:market-making"].reason
    # a dry run reports without researching or writing anything
    before = tree_hashes(paths.site_src)
    report = _refresh(paths, "--dry-run")
    assert [i["status"] for i in report["items"]] == ["stale", "up-to-date"]
    assert tree_hashes(paths.site_src) == before and fake_llm.requests == []


def test_refresh_days_zero_and_unfinished_runs(paths: KBPaths) -> None:
    config = load_config(paths.config_file)
    config.topics[0].refresh_days = 0
    topic = next(i for i in find_stale(paths, config, now=NOW + dt.timedelta(days=400)) if i.kind == "topic")
    assert topic.status == "up-to-date" and "never" in topic.reason
    meta_file = paths.topic_dir("market-making") / "_meta.json"
    meta_file.write_text(meta_file.read_text().replace('"completed"', '"failed"'), encoding="utf-8")
    topic = next(i for i in find_stale(paths, config) if i.kind == "topic")
    assert topic.status == "stale" and "failed" in topic.reason
    # a published report that did not pass verification waits for its refresh_days like a completed one
    meta_file.write_text(meta_file.read_text().replace('"failed"', '"unverified"'), encoding="utf-8")
    config.topics[0].refresh_days = 7
    topic = next(i for i in find_stale(paths, config, now=NOW) if i.kind == "topic")
    assert topic.status == "up-to-date"
    topic = next(i for i in find_stale(paths, config, now=NOW + dt.timedelta(days=400)) if i.kind == "topic")
    assert topic.status == "stale" and "days old" in topic.reason


def test_refresh_reruns_only_the_moved_repository(paths: KBPaths, sample_repo: Path) -> None:
    (sample_repo / "sample" / "extra.py").write_text(
        '"""Extra helpers."""\n\n\ndef double(x):\n    return 2 * x\n'
    )
    git(sample_repo, "add", "-A")
    git(sample_repo, "commit", "-q", "-m", "extra")
    head = git(sample_repo, "rev-parse", "HEAD")
    topic_before = tree_hashes(paths.topic_dir("market-making"))
    result = CliRunner().invoke(
        cli, ["--root", str(paths.root), "--provider", "offline", "refresh", "--no-site", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    statuses = {i["id"]: i["status"] for i in report["items"]}
    assert statuses == {"repo:acme/sample": "refreshed", "topic:market-making": "up-to-date"}
    meta = yaml.safe_load((paths.repo_dir("acme", "sample") / "index.md").read_text().split("---")[1])
    assert meta["revision"] == head
    assert tree_hashes(paths.topic_dir("market-making")) == topic_before
    index = json.loads((paths.site_src / "_index.json").read_text())
    assert index["topics"]["repo:acme/sample"]["revision"] == head
    # and now it is up to date again: a second refresh is a no-op
    before = tree_hashes(paths.site_src)
    assert _refresh(paths, "--no-site")["refreshed"] == 0
    assert tree_hashes(paths.site_src) == before


def test_repo_outside_config_is_checked_only_with_a_known_remote(paths: KBPaths, sample_repo: Path) -> None:
    add_repo(paths, "someone", "thing", tags=["tool"], source="someone/thing")  # a label, not a URL or a path
    (paths.root / "someone" / "thing").mkdir(parents=True)  # even when a folder of that name exists
    items = {i.id: i for i in find_stale(paths, load_config(paths.config_file))}
    assert items["repo:someone/thing"].status == "skipped"
    assert items["repo:acme/sample"].status == "up-to-date"


def _plant_sources(paths: KBPaths, slug: str, sources: list[str]) -> None:
    meta_file = paths.topic_dir(slug) / "_meta.json"
    meta = json.loads(meta_file.read_text())
    meta["options"]["sources"] = sources
    meta_file.write_text(json.dumps(meta), encoding="utf-8")


def _secret_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "notes.md").write_text("# Market making\n\nMarket making PLANTED-SECRET-7731 spreads.\n")
    return folder


def _published(paths: KBPaths) -> str:
    return "".join(p.read_text(errors="replace") for p in paths.site_src.rglob("*") if p.is_file())


def test_refresh_refuses_a_recorded_local_source_outside_the_knowledge_base(
    paths: KBPaths, tmp_path: Path
) -> None:
    # a topic deepkb.yml does not list, whose planted _meta.json points `local:` at any folder
    secret = _secret_folder(tmp_path)
    add_topic(paths, "planted", topic="Market making spreads", tags=["x"], status="failed", refresh_days=1)
    _plant_sources(paths, "planted", [f"local:{secret}"])
    add_topic(paths, "inside", topic="Market making inside", tags=["x"], status="failed", refresh_days=1)
    _plant_sources(paths, "inside", ["local:site_src"])
    items = {i.id: i for i in find_stale(paths, load_config(paths.config_file))}
    assert items["topic:planted"].status == "failed"
    assert items["topic:planted"].reason.startswith("refused: recorded source 'local:")
    assert "\n" not in items["topic:planted"].reason
    assert items["topic:inside"].status == "stale"  # a recorded folder inside the knowledge base is kept
    result = CliRunner().invoke(
        cli, ["--root", str(paths.root), "--provider", "offline", "refresh", "--no-site", "--json"]
    )
    report = json.loads(result.stdout)
    assert {i["id"]: i["status"] for i in report["items"]}["topic:planted"] == "failed"
    assert "PLANTED-SECRET-7731" not in _published(paths)


def test_refresh_takes_a_listed_topics_sources_from_deepkb_yml(paths: KBPaths, tmp_path: Path) -> None:
    # the topic deepkb.yml lists, with an unfinished run whose record names another folder
    secret = _secret_folder(tmp_path)
    meta_file = paths.topic_dir("market-making") / "_meta.json"
    meta_file.write_text(meta_file.read_text().replace('"completed"', '"in_progress"'), encoding="utf-8")
    _plant_sources(paths, "market-making", [f"local:{secret}"])
    result = CliRunner().invoke(
        cli, ["--root", str(paths.root), "--provider", "offline", "refresh", "--no-site", "--json"]
    )
    assert result.exit_code in (0, 3), result.output  # 3: nothing on the topic in site_src, a failed entry
    assert "PLANTED-SECRET-7731" not in _published(paths)
    assert json.loads(meta_file.read_text())["options"]["sources"] == ["local"]


def test_a_refresh_reports_the_whole_wall_time_of_the_command(
    paths: KBPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The figure is the command's time from the command line read, imports included — not only the
    staleness check (a no-op refresh printed 0.07 s and took 9–14 s). A fake clock stands in for the wait."""
    import types

    import generator.cli

    clock = iter([100.0, 112.5, 200.0, 203.25])  # command read, figure printed; twice
    monkeypatch.setattr(generator.cli, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
    said = CliRunner().invoke(cli, ["--root", str(paths.root), "refresh", "--no-site"])
    assert said.exit_code == 0, said.output
    assert re.search(r"refresh: 0 of 2 refreshed, 0 failed, 0 LLM calls, 12\.50 s\n", said.output), (
        said.output
    )
    assert _refresh(paths, "--no-site")["wall_s"] == 3.25
