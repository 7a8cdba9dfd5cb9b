"""`deepkb repo …` through the real click entry point: JSON on stdout only, exit codes, chunked commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from llm_fakes import FakeOpenAI, Reply
from repo_output_fakes import is_analyst, is_architect, make_project, scripted_reply

from generator.cli import cli
from generator.store import read_page

RESULT_KEYS = {"success", "harvest_dir", "shards_analyzed", "revision", "shard_summaries", "summary"}


def invoke(kb: Path, *args: str):
    return CliRunner().invoke(cli, ["--root", str(kb), *args], catch_exceptions=False)


def test_repo_run_json_prints_only_the_result(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()
    result = invoke(kb, "repo", "run", str(root), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert RESULT_KEYS <= set(data)
    assert data["success"] is True and len(data["revision"]) == 40
    assert Path(data["harvest_dir"]) == kb / "site_src" / "repos" / "acme" / "shop"
    assert all(s.startswith("[") and "](shards/" in s for s in data["shard_summaries"])
    assert "LLM provider: offline" in result.stderr
    # piped (CliRunner's stderr is no terminal): one plain line per finished shard, in its own words
    finished = [
        line for line in result.stderr.splitlines() if re.fullmatch(r"  \d\d .+ done  \d+\.\d s", line)
    ]
    assert len(finished) == data["shards_analyzed"] == 3


def test_repo_run_partial_failure_exits_3_with_the_json(tmp_path: Path, monkeypatch):
    root = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()

    def reply(req):
        if is_analyst(req) and "Subsystem: Tools" in req.prompt:
            return Reply.error(500, "boom")
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        (kb / "deepkb.yml").write_text(
            f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n  max_retries: 0\n", encoding="utf-8"
        )
        result = invoke(kb, "repo", "run", str(root), "--json", "--max-concurrent", "2")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    # the failed shard's page is the offline analyst's, and the run still ends partial
    assert data["success"] is False and data["shards_fallen_back"][0]["name"] == "Tools"
    assert "Error:" in result.stderr and "fell back to offline pages: Tools" in result.stderr
    # like build, the run records what its model calls cost beside the pages
    cost = json.loads((kb / "site_src" / "repos" / "acme" / "shop" / "_cost.json").read_text())
    answered = len(fake.requests) - 1  # the refused analyst request cost nothing
    assert cost["provider"] == "openai" and cost["calls"] == answered and cost["input_tokens"] > 0


def test_unsafe_source_is_one_line_and_exit_2(tmp_path: Path):
    result = invoke(tmp_path, "repo", "run", "ext::sh -c touch% /tmp/pwned", "--json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines()[-1].startswith("Error:")


def test_chunked_commands_round_trip(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()
    started = invoke(kb, "repo", "start", str(root), "--request", "How are prices computed?")
    assert started.exit_code == 0, started.stderr
    plan = json.loads(started.stdout)
    assert {"session_id", "chunk_plan", "next_action"} <= set(plan)
    assert plan["chunk_plan"][0]["id"] == "c1" and plan["chunk_plan"][0]["files"]
    sid = plan["session_id"]

    first = json.loads(invoke(kb, "repo", "shard", sid, "--chunk", "c1").stdout)
    assert first["chunk_plan"][0]["status"] == "done"
    rest = json.loads(invoke(kb, "repo", "shard", sid).stdout)
    assert all(c["status"] == "done" for c in rest["chunk_plan"])
    assert rest["next_action"] == f"deepkb repo synthesize {sid}"

    done = invoke(kb, "repo", "synthesize", sid, "--json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["shards_analyzed"] == len(plan["chunk_plan"])
    assert invoke(kb, "repo", "shard", sid, "--chunk", "c9").exit_code == 2


def test_visualize_prints_the_workflow_as_mermaid(tmp_path: Path):
    result = invoke(tmp_path, "repo", "visualize")
    assert result.exit_code == 0
    assert result.stdout.startswith("flowchart TD")
    assert "Architect" in result.stdout and "Synthesize" in result.stdout


def test_pinned_subsystems_come_first_as_named_and_a_glob_matching_nothing_is_one_line(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()
    # written relative to the knowledge base, run with the absolute path: the same repository
    (kb / "deepkb.yml").write_text(
        "repos:\n  - source: ../shop\n    subsystems:\n      Web layer: [app/*.py, cli]\n", encoding="utf-8"
    )
    result = invoke(kb, "repo", "run", str(root), "--json")
    assert result.exit_code == 0, result.stderr
    names = [re.match(r"\[(.+?)\]", s).group(1) for s in json.loads(result.stdout)["shard_summaries"]]
    assert names[0] == "Web layer" and len(names) >= 2
    page = next((kb / "site_src" / "repos" / "acme" / "shop" / "shards").glob("01_*.md")).read_text()
    for path in ("app/server.py", "app/routes.py", "app/__init__.py", "cli/main.py"):
        assert path in page
    # the rest is planned as usual, without the pinned files
    others = "".join(
        p.read_text() for p in sorted((kb / "site_src/repos/acme/shop/shards").glob("0[2-9]_*.md"))
    )
    assert "- core/engine.py\n" in others and "- app/server.py\n" not in others

    (kb / "deepkb.yml").write_text(
        "repos:\n  - source: ../shop\n    subsystems:\n      Web layer: [app/*.py, web/nothing*.py]\n",
        encoding="utf-8",
    )
    result = invoke(kb, "repo", "run", str(root))
    assert result.exit_code == 2
    assert "'Web layer': 'web/nothing*.py' matches no file of the repository" in result.stderr
    assert "Traceback" not in result.stderr


def test_retry_failed_keeps_the_last_plan_and_asks_only_for_the_failed_shards(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()
    broken = {"on": True}

    def packs_cli(req) -> bool:
        return is_analyst(req) and "cli/main.py" in req.prompt.split("Files (each line", 1)[1]

    def reply(req):
        if is_architect(req) and broken["on"]:
            return "1. Here is a plan."  # no JSON: the heuristic plan stands in
        if broken["on"] and packs_cli(req):
            return Reply.error(500, "the model server fell over")
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        (kb / "deepkb.yml").write_text(
            f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n  max_retries: 0\n", encoding="utf-8"
        )
        first = invoke(kb, "repo", "run", str(root), "--json")
        assert first.exit_code == 3
        fell = json.loads(first.stdout)["shards_fallen_back"]
        assert len(fell) == 1
        broken["on"] = False
        asked = len(fake.requests)
        retried = invoke(kb, "repo", "run", str(root), "--json", "--retry-failed")
        assert retried.exit_code == 0, retried.stderr
        again = fake.requests[asked:]
        # the heuristic plan was kept (no architect call) and only the fallen-back shard was asked again
        assert not any(is_architect(r) for r in again)
        assert [r for r in again if is_analyst(r)] and all(packs_cli(r) for r in again if is_analyst(r))
        data = json.loads(retried.stdout)
        assert data["planner"] == "heuristic" and data["shards_fallen_back"] == []
        assert fell[0]["name"] in [s["name"] for s in data["shards"]]


def test_repo_run_text_report_names_the_shards_that_fell_back(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()

    def reply(req):
        if is_analyst(req) and "Subsystem: Tools" in req.prompt:
            return Reply.error(500, "boom")
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        (kb / "deepkb.yml").write_text(
            f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n  max_retries: 0\n", encoding="utf-8"
        )
        result = invoke(kb, "repo", "run", str(root))
    assert result.exit_code == 3
    # the summary on stderr, the index page's path alone on stdout
    assert "partly done: 3 shards of acme/shop analyzed" in result.stderr
    assert re.search(r"^  offline page Tools: \S.+$", result.stderr, re.MULTILINE), result.stderr
    assert result.stdout == f"{kb / 'site_src' / 'repos' / 'acme' / 'shop' / 'index.md'}\n"


def test_a_weak_models_refused_answers_are_labelled_offline_pages_exit_0_and_strict_exits_3(tmp_path: Path):
    # every analysis cites nothing real (SmolLM2's usual answer): the offline pages stand in, labelled; that
    # is the honest outcome of a weak model, not a failed run. A model call that fails still exits 3 (above).
    root = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()

    def reply(req):
        if is_analyst(req):
            return "1. This is a bit of code from the [Pytorch documentation](https://pytorch.org)."
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        (kb / "deepkb.yml").write_text(
            f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n  max_retries: 0\n", encoding="utf-8"
        )
        result = invoke(kb, "repo", "run", str(root), "--json")
        strict = invoke(kb, "repo", "run", str(root), "--strict")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    fell = data["shards_fallen_back"]
    assert len(fell) == data["shards_analyzed"] == 3
    assert all(f["answer_refused"] and "cites no line of the repository" in f["reason"] for f in fell)
    _, page = read_page(Path(data["harvest_dir"]) / fell[0]["page"])
    assert "Produced offline: the model's analysis failed" in page
    assert strict.exit_code == 3
    assert "done, with offline pages: 3 shards of acme/shop analyzed" in strict.stderr
    assert "3 of 3 shards of acme/shop are offline pages, labelled" in strict.stderr
