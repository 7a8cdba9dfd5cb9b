"""`deepkb topic run|resume` through click's CliRunner: exit codes, JSON on stdout, files written, one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from llm_fakes import FakeOpenAI
from topic_fakes import make_corpus, read_json, topic_dir

from generator.cli import cli
from generator.store import KBPaths, workspace_lock


def _invoke(root: Path, *args: str):
    return CliRunner().invoke(cli, ["--root", str(root), *args], catch_exceptions=False)


def test_topic_run_json(kb_root: Path) -> None:
    make_corpus(kb_root)
    result = _invoke(
        kb_root, "topic", "run", "vector databases", "--sources", "local:docs", "--quick", "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["success"] is True and data["status"] == "completed" and data["id"] == "vector-databases"
    assert data["sources_count"] >= 3 and Path(data["report"]).is_file()
    meta = read_json(topic_dir(kb_root) / "_meta.json")
    assert meta["options"] == {
        "quick": True,
        "verify": False,
        "parallel": False,
        "sources": ["local:docs"],
        "lang": "en",
        "review_plan": False,
    }
    assert (kb_root / "site_src" / "_index.json").is_file()


def test_topic_run_uses_the_deepkb_yml_entry(kb_root: Path) -> None:
    make_corpus(kb_root, folder="notes")
    (kb_root / "deepkb.yml").write_text(
        "topics:\n  - topic: vector databases\n    sources: [local:notes]\n    slug: vdb\n    lang: zh\n",
        encoding="utf-8",
    )
    result = _invoke(kb_root, "topic", "run", "Vector Databases", "--no-verify", "--no-parallel", "--json")
    assert result.exit_code == 0, result.output
    meta = read_json(KBPaths(kb_root).topic_dir("vdb") / "_meta.json")
    assert meta["options"]["sources"] == ["local:notes"] and meta["options"]["lang"] == "zh"
    assert meta["options"]["parallel"] is False and meta["options"]["verify"] is False


def test_review_plan_then_resume_through_the_cli(kb_root: Path) -> None:
    make_corpus(kb_root)
    paused = _invoke(
        kb_root, "topic", "run", "vector databases", "--sources", "local:docs", "--review-plan", "--json"
    )
    assert paused.exit_code == 0 and json.loads(paused.stdout)["status"] == "awaiting_review"
    plan_file = topic_dir(kb_root) / "plan.json"
    plan_file.write_text("{not json", encoding="utf-8")
    broken = _invoke(kb_root, "topic", "resume", "vector-databases")
    assert broken.exit_code == 2
    errors = [line for line in broken.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "plan.json: not valid JSON" in errors[0] and "Traceback" not in broken.output
    plan_file.unlink()  # without a plan the planner runs again on resume
    resumed = _invoke(kb_root, "topic", "resume", "vector-databases", "--json")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["status"] == "completed"
    again = _invoke(kb_root, "topic", "resume", "vector-databases")
    assert again.exit_code == 2 and "already finished (completed)" in again.stderr


def test_resume_refuses_options_this_machine_did_not_start(kb_root: Path) -> None:
    make_corpus(kb_root)
    paused = _invoke(
        kb_root, "topic", "run", "vector databases", "--sources", "local:docs", "--review-plan", "--json"
    )
    assert paused.exit_code == 0, paused.output
    meta_file = topic_dir(kb_root) / "_meta.json"
    meta = read_json(meta_file)
    meta["options"]["sources"] = ["local:/etc"]  # as a _meta.json from someone else's site_src would say
    meta_file.write_text(json.dumps(meta), encoding="utf-8")
    refused = _invoke(kb_root, "topic", "resume", "vector-databases")
    errors = [line for line in refused.stderr.splitlines() if line.startswith("Error:")]
    assert refused.exit_code == 2 and len(errors) == 1 and "was not started on this machine" in errors[0]
    assert not list((topic_dir(kb_root) / "raw").glob("*.md"))  # nothing was searched

    (kb_root / "deepkb.yml").write_text(  # a listed topic resumes with its entry's options, as build does
        "topics:\n  - topic: vector databases\n    sources: [local:docs]\n    verify: false\n",
        encoding="utf-8",
    )
    resumed = _invoke(kb_root, "topic", "resume", "vector-databases", "--json")
    assert resumed.exit_code == 0, resumed.output
    assert read_json(meta_file)["options"]["sources"] == ["local:docs"]


def test_resume_unknown_id_is_one_line(kb_root: Path) -> None:
    result = _invoke(kb_root, "topic", "resume", "nothing-here")
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert result.exit_code == 2 and errors == [
        f"Error: no topic workspace with id 'nothing-here' (look in {kb_root / 'site_src' / 'topics'})"
    ]


def test_topic_run_refuses_while_the_lock_is_held(kb_root: Path) -> None:
    make_corpus(kb_root)
    with workspace_lock(KBPaths(kb_root)):
        result = _invoke(kb_root, "topic", "run", "vector databases", "--sources", "local:docs")
    assert result.exit_code == 4 and "another deepkb run" in result.stderr
    assert not topic_dir(kb_root).exists()


def test_topic_run_with_a_model_writes_its_cost(kb_root: Path) -> None:
    """Like build, `topic run` records what its model calls cost beside the topic's pages (_cost.json)."""
    make_corpus(kb_root)
    with FakeOpenAI(default="{}") as fake:
        (kb_root / "deepkb.yml").write_text(
            f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n  max_retries: 0\n", encoding="utf-8"
        )
        result = _invoke(kb_root, "topic", "run", "vector databases", "--sources", "local:docs", "--quick")
    assert result.exit_code == 0, result.output
    cost = read_json(topic_dir(kb_root) / "_cost.json")
    assert cost["provider"] == "openai" and cost["calls"] == len(fake.requests) > 0


def test_piped_output_prints_one_plain_line_per_finished_step(kb_root: Path) -> None:
    """On a pipe (CliRunner's stderr is not a terminal) each finished step is one whole line, never wrapped
    at the console's width; a title's [markup] is printed as written."""
    make_corpus(kb_root)
    topic = "vector databases [bold]and[/bold] how approximate nearest neighbour indexes keep semantic search fast"
    result = _invoke(kb_root, "topic", "run", topic, "--sources", "local:docs", "--quick")
    steps = [line for line in result.stderr.splitlines() if re.match(r"\[\d+/\d+\] ", line)]
    total = int(steps[0].split("/", 1)[1].split("]", 1)[0])
    assert len(steps) == total > 1 and any(len(line) > 100 for line in steps)
    assert all(re.fullmatch(r"\[\d+/\d+\] done .+ \(\d+ sources\)", line) for line in steps), steps
    assert any("[bold]and[/bold]" in line for line in steps)


def test_a_broken_meta_record_is_one_line_not_a_traceback(kb_root: Path) -> None:
    make_corpus(kb_root)
    meta_file = topic_dir(kb_root) / "_meta.json"
    meta_file.parent.mkdir(parents=True, exist_ok=True)
    meta_file.write_text(
        json.dumps({"id": "vector-databases", "topic": "vector databases"}), encoding="utf-8"
    )
    result = CliRunner().invoke(
        cli,
        ["--root", str(kb_root), "topic", "run", "vector databases", "--sources", "local:docs", "--quick"],
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code != 0 and "_meta.json" in result.stderr and "slug" in result.stderr
    assert "Traceback" not in result.output
