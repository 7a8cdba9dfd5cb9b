"""The research-everything loop shared by build and refresh: one bad entry fails alone, every entry's tokens
and estimated cost are recorded beside it, in _index.json and in `deepkb knowledge show`."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner, Result
from conftest import SAMPLE_PROJECT, git, make_git_repo
from llm_fakes import FakeOpenAI, Reply
from test_build_e2e import CORPUS

from generator.cli import cli


def deepkb(root: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, ["--root", str(root), *args], env=env)


def knowledge_base(tmp_path: Path, config: dict) -> Path:
    root = tmp_path / "kb"
    (root / "corpus").mkdir(parents=True)
    for name, text in CORPUS.items():
        (root / "corpus" / name).write_text(text, encoding="utf-8")
    (root / "deepkb.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return root


def test_one_bad_entry_fails_alone_and_the_site_is_still_built(tmp_path: Path) -> None:
    topic = {"topic": "How calculators evaluate expressions", "sources": ["local:corpus"], "verify": False}
    root = knowledge_base(tmp_path, {"repos": [str(tmp_path / "no-such-repo")], "topics": [topic]})
    result = deepkb(root, "--provider", "offline", "build")
    assert result.exit_code == 3, result.output
    flat = " ".join(result.output.split())  # the console wraps long lines
    assert flat.count("failed: ") == 1 and "failed: repository source" in flat and "no-such-repo" in flat
    assert "1 of 2 entries did not finish (1 failed); see above" in flat
    assert (root / "site_src" / "topics" / "how-calculators-evaluate-expressions" / "index.md").is_file()
    assert (root / "site" / "index.html").is_file()  # the rest and the site went on


def test_every_entry_records_its_tokens_and_cost(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "sample", SAMPLE_PROJECT, origin="https://github.com/acme/sample.git")
    with FakeOpenAI(
        default=lambda req: Reply(
            text="Summary: it evaluates text.\n\n## Purpose\n\nIt works (sample/core.py:1-2).",
            input_tokens=2000,
            output_tokens=300,
        )
    ) as fake:
        config = {
            "repos": [str(repo)],
            "llm": {
                "provider": "openai",
                "base_url": fake.base_url,
                "model": "gpt-4o-mini",
                "max_retries": 0,
            },
        }
        root = knowledge_base(tmp_path, config)
        result = deepkb(root, "build", "--no-site", env={"OPENAI_API_KEY": "test-key"})
        assert result.exit_code == 0, result.output
        calls = len(fake.requests)
        assert (
            f"LLM: {calls} calls, {2000 * calls:,} input + 0 cached + {300 * calls:,} output tokens"
            in " ".join(result.output.split())
        )
        # the nightly refresh of the changed repository reports what its calls cost
        (repo / "sample" / "core.py").write_text(
            '"""Core, rewritten."""\n\n\ndef evaluate(text):\n    return 0\n'
        )
        git(repo, "commit", "-qam", "rewrite core")
        refreshed = deepkb(root, "refresh", "--no-site", "--json", env={"OPENAI_API_KEY": "test-key"})
        assert refreshed.exit_code == 0, refreshed.output
        usage = json.loads(refreshed.stdout)["usage"]
        again = len(fake.requests) - calls
        assert 0 < again < calls and usage["calls"] == again
        assert usage["cost_usd"] == round(again * (2000 * 0.15 + 300 * 0.60) / 1_000_000, 6)
        calls = again  # the entry's record now describes its last run
    cost = json.loads((root / "site_src" / "repos" / "acme" / "sample" / "_cost.json").read_text())
    assert cost["calls"] == calls > 0 and cost["models"] == ["gpt-4o-mini"]
    assert cost["input_tokens"] == 2000 * calls and cost["output_tokens"] == 300 * calls
    assert cost["cost_usd"] == round(calls * (2000 * 0.15 + 300 * 0.60) / 1_000_000, 6)
    index = json.loads((root / "site_src" / "_index.json").read_text())
    assert index["topics"]["repo:acme/sample"]["cost"] == cost
    shown = deepkb(root, "knowledge", "show", "repo:acme/sample")
    assert shown.exit_code == 0
    assert f"cost: ${cost['cost_usd']:.4f} estimated: {2000 * calls:,} input + 0 cached" in shown.output


def test_shards_matrix_follows_the_one_setting(tmp_path: Path) -> None:
    root = knowledge_base(tmp_path, {"topics": ["a", "b", "c", "d", "e"], "ci": {"research_jobs": 4}})
    assert deepkb(root, "shards", "--matrix").output.strip() == "[1, 2, 3, 4]"
    listing = deepkb(root, "shards").output.splitlines()
    assert len(listing) == 5 and {line.split()[0] for line in listing} == {"1/4", "2/4", "3/4", "4/4"}


def test_a_repository_whose_model_answers_were_all_refused_is_an_honest_outcome(tmp_path: Path) -> None:
    # the shards are the offline analyst's labelled pages: build exits 0, --strict exits 3
    repo = make_git_repo(tmp_path / "sample", SAMPLE_PROJECT, origin="https://github.com/acme/sample.git")
    with FakeOpenAI(default=lambda req: "1. This is a bit of code from the documentation.") as fake:
        llm = {"provider": "openai", "base_url": fake.base_url, "model": "tiny", "max_retries": 0}
        root = knowledge_base(tmp_path, {"repos": [str(repo)], "llm": llm})
        built = deepkb(root, "build", "--no-site")
        strict = deepkb(root, "build", "--no-site", "--strict")
    assert built.exit_code == 0, built.output
    assert strict.exit_code == 3, strict.output
    flat = " ".join(strict.output.split())
    assert "1 of 1 entries did not finish (1 unverified)" in flat and "are offline pages, labelled" in flat
