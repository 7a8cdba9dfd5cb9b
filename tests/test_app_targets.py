"""A research target is resolved once, at the top: each deepkb.yml source is parsed once per run, the
repository's entry (notes, pins, entry points, questions) is found by one rule, and the pipelines below
read the target and leave the knowledge index to the app layer."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_output_fakes import make_project, offline_setup

from generator.app import entries, refresh, targets
from generator.app.entries import config_entries
from generator.app.run import research_entries
from generator.app.targets import repo_target
from generator.config import Config, validated
from generator.repo.checkout import clone
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every source the app layer asks `parse_source` to parse (the stages below it no longer import it)."""
    seen: list[str] = []
    real = clone.parse_source

    def counting(raw: str, root: Path) -> object:
        seen.append(raw)
        return real(raw, root)

    for module in (entries, targets, refresh):
        monkeypatch.setattr(module, "parse_source", counting)
    return seen


def listed(root: Path, other: str = "https://github.com/acme/other") -> Config:
    shop = {
        "source": str(root),
        "request": ["how is a price computed?"],
        "entry_points": ["core.engine.price"],
    }
    return validated(Config, {"repos": [shop, other]})


def test_a_run_parses_each_listed_source_once(tmp_path: Path, parsed: list[str]) -> None:
    root = make_project(tmp_path / "shop")
    paths, _, _ = offline_setup(tmp_path / "kb")
    config = listed(root)
    offline = offline_setup(tmp_path / "kb")[2]
    shop = [e for e in config_entries(paths, config) if e.id == "repo:acme/shop"]
    assert parsed == [str(root), "https://github.com/acme/other"]  # the ids of both entries
    outcomes = research_entries(paths, config, lambda: offline, shop)
    assert [o.status for o in outcomes] == ["done"], outcomes
    assert parsed == [str(root), "https://github.com/acme/other"]  # the run parsed nothing again
    answers = paths.repo_dir("acme", "shop") / "answers"
    assert [p.name for p in answers.glob("*.md")] == ["how-is-a-price-computed.md"]


def test_the_entry_of_a_repository_is_found_however_it_is_named(tmp_path: Path) -> None:
    root = make_project(tmp_path / "shop")
    paths, _, _ = offline_setup(tmp_path / "kb")
    config = validated(
        Config, {"repos": [{"source": "https://github.com/acme/shop", "entry_points": ["core.engine.price"]}]}
    )
    target = repo_target(paths, config, str(root), requests="where are routes served?")
    assert target.entry is config.repos[0] and target.id == "repo:acme/shop"
    assert target.entry_points == ("core.engine.price",)  # an https entry names the local checkout too
    assert target.questions == ("where are routes served?",)
    assert repo_target(paths, config, str(root), entry_points=["app.server.serve"]).entry_points == (
        "app.server.serve",
    )


def test_the_pipeline_leaves_the_index_to_the_app(tmp_path: Path) -> None:
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    assert (paths.repo_dir("acme", "shop") / "index.md").is_file()
    assert not (paths.site_src / "_index.json").exists()
