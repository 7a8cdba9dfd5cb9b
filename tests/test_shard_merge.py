"""`build --shard I/N` in separate checkouts plus `merge` give the same site_src/ as one `build`, byte for byte."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
import time_machine
import yaml
from click.testing import CliRunner, Result
from conftest import SAMPLE_PROJECT, make_git_repo
from test_build_e2e import CORPUS, tree_digest

from generator.app.entries import assign_shards, parse_shard
from generator.app.merge import merge_checkouts
from generator.cli import cli
from generator.store import KBPaths

OTHER_PROJECT = {
    "README.md": "# Ledger\n\nLedger keeps accounts balanced and prints statements.\n",
    "ledger/__init__.py": '"""Double-entry ledger."""\n',
    "ledger/accounts.py": '"""Accounts and postings."""\n\n\nclass Account:\n    """One account."""\n\n    def post(self, amount: int) -> int:\n        return amount\n',
    "ledger/report.py": '"""Statements."""\n\nfrom .accounts import Account\n\n\ndef statement(account: Account) -> str:\n    return "ok"\n',
}


def site_src_bytes(root: Path) -> dict[str, str]:
    """Every file of site_src/ by digest; the one field no two runs share is blanked: the wall-clock seconds
    each topic step took (`_meta.json` metrics.step_durations), which differ between two whole builds too."""
    digests = tree_digest(root / "site_src")
    for meta_file in sorted((root / "site_src" / "topics").glob("*/_meta.json")):
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        meta["metrics"]["step_durations"] = dict.fromkeys(sorted(meta["metrics"]["step_durations"]), 0)
        rel = str(meta_file.relative_to(root / "site_src"))
        digests[rel] = json.dumps(meta, sort_keys=True)
    return digests


def deepkb(root: Path, *args: str) -> Result:
    env = {"DEEPKB_CACHE_DIR": str(root / ".cache" / "deepkb")}  # every checkout is its own machine
    return CliRunner().invoke(cli, ["--root", str(root), "--provider", "offline", *args], env=env)


def checkout(base: Path, name: str, config: dict) -> Path:
    root = base / name
    (root / "corpus").mkdir(parents=True)
    for file, text in CORPUS.items():
        (root / "corpus" / file).write_text(text, encoding="utf-8")
    (root / "deepkb.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return root


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    # committed before the frozen instant the tests run at: a merge refuses versions dated in the future
    for variable in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(variable, "2026-02-01T12:00:00Z")
    sample = make_git_repo(
        tmp_path / "src" / "sample", SAMPLE_PROJECT, origin="https://github.com/acme/sample.git"
    )
    ledger = make_git_repo(
        tmp_path / "src" / "ledger", OTHER_PROJECT, origin="https://github.com/acme/ledger.git"
    )
    return {
        "repos": [str(sample), str(ledger)],
        "topics": [
            {"topic": "How calculators evaluate expressions", "sources": ["local:corpus"], "verify": False},
            {"topic": "History of calculators", "sources": ["local:corpus"], "verify": False},
        ],
    }


# every run happens at the same instant: pages carry research dates, and equality is about everything else
FROZEN_AT = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@time_machine.travel(FROZEN_AT, tick=False)
def test_three_shards_and_a_merge_equal_one_build(tmp_path: Path, config: dict) -> None:
    whole = checkout(tmp_path, "whole", config)
    result = deepkb(whole, "build")
    assert result.exit_code == 0, result.output

    shard_roots = []
    for index in (1, 2, 3):
        root = checkout(tmp_path, f"shard{index}", config)
        result = deepkb(root, "build", "--shard", f"{index}/3")
        assert result.exit_code == 0, result.output
        shard_roots.append(root)
    # each shard wrote only its own entries, and together they cover all four exactly once
    repos = [sorted(p.name for p in (r / "site_src" / "repos").glob("*/*")) for r in shard_roots]
    topics = [sorted(p.name for p in (r / "site_src" / "topics").glob("*")) for r in shard_roots]
    assert sorted(sum(repos, [])) == ["ledger", "sample"]
    assert sorted(sum(topics, [])) == ["history-of-calculators", "how-calculators-evaluate-expressions"]
    assert all(repo or topic for repo, topic in zip(repos, topics, strict=True))  # no shard idle
    assert not any((r / "site_src" / "index.md").exists() for r in shard_roots)  # no listings in shards

    merged = checkout(tmp_path, "merged", config)
    result = deepkb(merged, "merge", "--no-site", *map(str, shard_roots))
    assert result.exit_code == 0, result.output
    assert site_src_bytes(merged) == site_src_bytes(whole)

    # idempotent: merging again changes no file and adds nothing
    before = tree_digest(merged / "site_src")
    again = deepkb(merged, "merge", "--no-site", *map(str, shard_roots))
    assert again.exit_code == 0, again.output
    assert "0 added, 0 updated, 4 unchanged" in again.output
    assert tree_digest(merged / "site_src") == before


def test_merge_takes_the_newer_entry_and_refuses_a_conflict(tmp_path: Path) -> None:
    def topic(root: Path, updated: str, body: str) -> Path:
        folder = root / "site_src" / "topics" / "t"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "_meta.json").write_text(json.dumps({"topic": "T", "updated_at": updated}))
        (folder / "index.md").write_text(f"---\ntitle: T\n---\n{body}\n")
        return root

    ours = topic(tmp_path / "ours", "2026-01-01T00:00:00Z", "old")
    (ours / "site_src" / "topics" / "t" / "raw").mkdir()
    (ours / "site_src" / "topics" / "t" / "raw" / "gone.md").write_text("an old source")
    newer = topic(tmp_path / "newer", "2026-02-01T00:00:00Z", "new")
    older = topic(tmp_path / "older", "2025-12-01T00:00:00Z", "ancient")
    paths = KBPaths(ours)

    report = merge_checkouts(paths, [older])
    assert report.kept == ["topic:t"]
    assert "old" in (ours / "site_src/topics/t/index.md").read_text()
    report = merge_checkouts(paths, [newer, older])
    assert report.updated == ["topic:t"]
    assert "new" in (ours / "site_src/topics/t/index.md").read_text()
    assert not (ours / "site_src/topics/t/raw").exists()  # files the newer copy lacks are gone

    rival = topic(tmp_path / "rival", "2026-02-01T00:00:00Z", "different")
    before = tree_digest(ours / "site_src")
    result = deepkb(ours, "merge", "--no-site", str(rival))
    assert result.exit_code == 2
    assert "cannot merge topic:t" in result.output and "same version" in result.output
    assert tree_digest(ours / "site_src") == before  # nothing written


def test_merge_refuses_a_folder_without_entries(tmp_path: Path) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "empty").mkdir()
    result = deepkb(tmp_path / "kb", "merge", str(tmp_path / "empty"))
    assert result.exit_code == 2 and "holds no researched entries" in result.output


def test_shard_assignment_is_stable_balanced_and_total() -> None:
    ids = [f"repo:o/r{i}" for i in range(10)] + [f"topic:t{i}" for i in range(5)]
    weights = {"repo:o/r0": 900.0, "repo:o/r1": 500.0, "repo:o/r2": 400.0}
    first = assign_shards(ids, 3, weights)
    assert first == assign_shards(reversed(ids), 3, weights)  # order of deepkb.yml does not matter
    assert set(first.values()) == {1, 2, 3} and set(first) == set(ids)
    loads = {k: sum(weights.get(i, 600.0) for i in ids if first[i] == k) for k in (1, 2, 3)}
    assert max(loads.values()) - min(loads.values()) <= 900.0  # within the heaviest single entry
    assert first["repo:o/r0"] != first["repo:o/r1"]  # the two heaviest never share a job
    assert parse_shard(" 2/3 ").index == 2
    for bad in ("0/3", "4/3", "x", "1/0"):
        with pytest.raises(Exception, match="--shard"):
            parse_shard(bad)


def test_refresh_shard_researches_only_its_stale_entries(tmp_path: Path, config: dict) -> None:
    root = checkout(tmp_path, "kb", config)
    result = deepkb(root, "refresh", "--shard", "2/3", "--json", "--no-site")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    refreshed = {i["id"] for i in report["items"] if i["status"] == "refreshed"}
    assert refreshed and len(refreshed) < 4 and report["site_built"] is False
    assert {i["id"] for i in report["items"]} == refreshed  # the other shards' entries are not even checked
    assert not (root / "site_src" / "index.md").exists()
    # the three shards together check every entry once
    seen = []
    for index in (1, 2, 3):
        dry = deepkb(root, "refresh", "--dry-run", "--shard", f"{index}/3", "--json")
        seen += [i["id"] for i in json.loads(dry.stdout)["items"]]
    assert len(seen) == len(set(seen)) == 4
    shutil.rmtree(root / ".cache")


def test_a_merge_stopped_half_way_is_finished_by_running_it_again(tmp_path: Path) -> None:
    def topic(root: Path, updated: str, raw: str) -> Path:
        folder = root / "site_src" / "topics" / "t"
        (folder / "raw").mkdir(parents=True)
        (folder / "_meta.json").write_text(json.dumps({"topic": "T", "updated_at": updated}))
        (folder / "index.md").write_text(f"---\ntitle: T\n---\n{raw}\n")
        (folder / "raw" / f"{raw}.md").write_text(raw)
        return root

    ours = topic(tmp_path / "ours", "2026-01-01T00:00:00Z", "old")
    newer = topic(tmp_path / "newer", "2026-02-01T00:00:00Z", "new")
    # what a merge killed before it wrote the version-bearing files leaves behind
    (ours / "site_src/topics/t/raw/new.md").write_text("new")
    (ours / "site_src/topics/t/raw/old.md").unlink()
    report = merge_checkouts(KBPaths(ours), [newer])
    assert report.updated == ["topic:t"]
    assert tree_digest(ours / "site_src/topics/t") == tree_digest(newer / "site_src/topics/t")


def _topic_checkout(root: Path, updated: str = "2026-01-01T00:00:00Z") -> Path:
    folder = root / "site_src" / "topics" / "t"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "_meta.json").write_text(json.dumps({"topic": "T", "updated_at": updated}))
    (folder / "index.md").write_text("---\ntitle: T\n---\nbody\n")
    return root


@pytest.mark.parametrize("linked", ["site_src", "site_src/topics", "site_src/topics/t/raw", "page"])
def test_merge_refuses_an_incoming_folder_holding_a_link(tmp_path: Path, linked: str) -> None:
    secret = tmp_path / "outside"
    (secret / "topics" / "t").mkdir(parents=True)
    (secret / ".env").write_text("TOKEN=abc")
    incoming = _topic_checkout(tmp_path / "incoming")
    target = incoming / linked
    if linked == "page":
        (incoming / "site_src/topics/t/stolen.md").symlink_to(secret / ".env")
    else:
        target.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target)
        target.symlink_to(secret if linked == "site_src" else secret / "topics", target_is_directory=True)
    ours = tmp_path / "ours"
    (ours / "site_src").mkdir(parents=True)
    result = deepkb(ours, "merge", "--no-site", str(incoming))
    assert result.exit_code != 0
    assert "symbolic link" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (ours / "site_src" / "topics").exists()  # nothing copied


def test_merge_refuses_files_the_site_would_not_publish(tmp_path: Path) -> None:
    incoming = _topic_checkout(tmp_path / "incoming")
    (incoming / "site_src/topics/t/x.svg").write_text('<svg onload="alert(1)"/>')
    ours = tmp_path / "ours"
    (ours / "site_src").mkdir(parents=True)
    result = deepkb(ours, "merge", "--no-site", str(incoming))
    assert result.exit_code != 0 and "x.svg" in result.output
    assert not (ours / "site_src" / "topics").exists()


@time_machine.travel(FROZEN_AT, tick=False)
def test_merge_refuses_an_entry_dated_in_the_future(tmp_path: Path) -> None:
    incoming = _topic_checkout(tmp_path / "incoming", updated="2099-01-01T00:00:00Z")
    ours = tmp_path / "ours"
    (ours / "site_src").mkdir(parents=True)
    result = deepkb(ours, "merge", "--no-site", str(incoming))
    assert result.exit_code == 2
    assert "in the future" in result.output and "2099-01-01" in result.output
    assert not (ours / "site_src" / "topics").exists()
    tomorrow = _topic_checkout(tmp_path / "tomorrow", updated="2026-03-02T23:00:00Z")  # a time zone ahead
    assert merge_checkouts(KBPaths(ours), [tomorrow]).added == ["topic:t"]
