"""Architect: the model's plan checked against the schema and the file list; repair; heuristic fallback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from llm_fakes import FakeOpenAI
from repo_output_fakes import PLAN, PROJECT, is_architect, make_project, online_setup

from generator.config import LLMConfig
from generator.llm.offline import OfflineProvider
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts, RepoMap
from generator.repo.plan.architect import heuristic_plan, plan_shards


@pytest.fixture
def surveyed(tmp_path: Path) -> tuple[Path, RepoMap, Facts]:
    files = dict(PROJECT)
    files["tests/test_engine.py"] = "from core.engine import price\n\n\ndef test_price():\n    assert price\n"
    files["docs/guide.md"] = "# Guide\n"
    root = make_project(tmp_path / "shop", files)
    repo_map = map_repository(root)
    return root, repo_map, extract_facts(root, repo_map)


def test_offline_uses_the_heuristic_plan(surveyed):
    _, repo_map, facts = surveyed
    plan = plan_shards(OfflineProvider(LLMConfig()), repo_map, facts)
    assert plan.planner == "heuristic"
    assert "offline" in plan.note.lower()
    planned = [f for s in plan.shards for f in s.files]
    assert not any(f.startswith(("tests/", "docs/")) or f.endswith(".md") for f in planned)
    assert {"core/engine.py", "app/routes.py", "cli/main.py"} <= set(planned)
    assert all(len(s.files) <= 5 for s in plan.shards)


def test_heuristic_plans_graph_communities_named_after_their_modules(surveyed):
    _, repo_map, facts = surveyed
    plan = heuristic_plan(repo_map, facts, note="n")
    by_name = {s.name: s.files for s in plan.shards}
    # a sub-package is one subsystem named after it, not a list of its modules' names
    assert set(by_name["Core"]) == {"core/engine.py", "core/models.py", "core/__init__.py"}
    assert set(by_name["App"]) == {"app/server.py", "app/routes.py", "app/__init__.py"}
    assert set(by_name["Utilities"]) == {"util/strings.py", "util/timefmt.py"}
    assert not any(re.search(r"\d|/|\(", name) for name in by_name)
    # the tests and docs beside the code are context, never planned
    assert not any(f.startswith(("tests/", "docs/")) for files in by_name.values() for f in files)


def test_heuristic_plans_tests_when_nothing_else_exists(tmp_path: Path):
    root = make_project(
        tmp_path / "t", {"tests/test_a.py": "def test_a():\n    pass\n", "README.md": "# x\n"}
    )
    repo_map = map_repository(root)
    plan = heuristic_plan(repo_map, extract_facts(root, repo_map), note="")
    assert [f for s in plan.shards for f in s.files] == ["tests/test_a.py"]


def test_valid_plan_drops_unknown_files_and_carries_the_limits(tmp_path, surveyed):
    _, repo_map, facts = surveyed
    with FakeOpenAI(default=json.dumps(PLAN)) as fake:
        _, _, provider = online_setup(tmp_path / "kb", fake.base_url)
        plan = plan_shards(provider, repo_map, facts)
        prompt = fake.requests[0].prompt
    assert plan.planner == "llm"
    assert [s.name for s in plan.shards] == ["Pricing core", "Web app", "Tools"]
    assert "nope.py" not in plan.shards[0].files
    assert "at most 5 files per shard, at most 25 files in total" in prompt
    assert "stay under the limits" in prompt
    assert "core/engine.py" in prompt and "Price computation engine" in prompt
    # the model starts from the offline planner's communities and the facts' key symbols
    assert "Subsystems the dependency graph suggests" in prompt and "- Core: core/engine.py" in prompt
    assert "symbols: price" in prompt and "tests/test_engine.py" not in prompt


def test_invalid_json_is_repaired_once(tmp_path, surveyed):
    _, repo_map, facts = surveyed
    with FakeOpenAI(default=json.dumps(PLAN)) as fake:
        fake.queue("Here is my plan: shards are core and web.")
        _, _, provider = online_setup(tmp_path / "kb", fake.base_url)
        plan = plan_shards(provider, repo_map, facts)
        requests = list(fake.requests)
    assert len(requests) == 2
    assert "could not be used" in requests[1].prompt
    assert plan.planner == "llm"
    assert "repaired" in plan.note


def test_still_invalid_after_repair_falls_back_to_heuristic(tmp_path, surveyed):
    _, repo_map, facts = surveyed
    with FakeOpenAI(default='{"shards": "not a list"}') as fake:
        _, _, provider = online_setup(tmp_path / "kb", fake.base_url)
        plan = plan_shards(provider, repo_map, facts)
        assert len(fake.requests) == 2
        assert all(is_architect(r) for r in fake.requests)
    assert plan.planner == "heuristic"
    assert "unusable" in plan.note
    assert plan.shards


def test_a_plan_naming_no_real_file_falls_back(tmp_path, surveyed):
    _, repo_map, facts = surveyed
    bogus = {"shards": [{"name": "Ghosts", "files": ["../../etc/passwd", "ghost.py"], "rationale": "x"}]}
    with FakeOpenAI(default=json.dumps(bogus)) as fake:
        _, _, provider = online_setup(tmp_path / "kb", fake.base_url)
        plan = plan_shards(provider, repo_map, facts)
    assert plan.planner == "heuristic"
    assert "etc/passwd" not in json.dumps([s.files for s in plan.shards])


def test_the_model_is_told_the_pinned_subsystems_and_plans_only_the_rest(tmp_path, surveyed):
    from generator.repo.model import Shard

    _, repo_map, facts = surveyed
    pinned = [Shard("Pricing", ("core/engine.py", "core/models.py"), "", pinned=True)]
    with FakeOpenAI(default=json.dumps(PLAN)) as fake:
        _, _, provider = online_setup(tmp_path / "kb", fake.base_url)
        plan = plan_shards(provider, repo_map, facts, pinned=pinned)
        prompt = fake.requests[0].prompt
    assert (
        "Subsystems the maintainer pinned" in prompt and "- Pricing: core/engine.py, core/models.py" in prompt
    )
    assert "in at most 4 more subsystems" in prompt
    assert plan.shards[0] == pinned[0]
    # the model's "Pricing core" keeps only the file nobody pinned
    assert plan.shards[1].name == "Pricing core" and plan.shards[1].files == ("core/__init__.py",)
    assert all("core/engine.py" not in s.files for s in plan.shards[1:])
    offline = heuristic_plan(repo_map, facts, note="n", pinned=pinned)
    assert offline.shards[0] == pinned[0] and "1 of the subsystems was pinned" in offline.note
