"""A tiny model's nonsense stays contained: its prose is labelled with its name, its summary is its own
"Summary:" line or the offline one, only its own checked citations count, and an answer that is empty,
loops or cites nothing real gives the shard the offline analyst's page with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from llm_fakes import FakeOpenAI, RecordedRequest, Reply
from repo_output_fakes import ANALYSIS, PLAN, is_analyst, is_architect, make_project

from generator.app.targets import repo_target
from generator.config import Config, LLMConfig
from generator.llm import open_provider
from generator.llm.base import model_label
from generator.repo.analyze.draft import repeats_itself, split_model_summary
from generator.repo.run.pipeline import RepoPartialFailure, run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import KBPaths, read_page

GGUF = "/models/SmolLM2-135M-Instruct-Q8_0.gguf"
STRAY = "1. This is a bit of code from the [Pytorch documentation](https://pytorch.org).\n\nIt is good code."
LOOP = "The function is called. " * 60


def research(tmp_path: Path, analyst: dict[str, str], summary: str):
    """Research the fixture repository with a model that answers each shard's analyst prompt from
    `analyst` (by shard name, else the well-behaved ANALYSIS) and the repository summary with `summary`."""
    import json

    def reply(request: RecordedRequest) -> str | Reply:
        if is_architect(request):
            return json.dumps(PLAN)
        if is_analyst(request):
            name = request.prompt.split("Subsystem: ", 1)[1].split(".", 1)[0]
            first = "core/engine.py" if name == "Pricing core" else "app/routes.py"
            return analyst.get(name, ANALYSIS.format(name=name, first=first))
        if "summary of the whole repository" in request.prompt:
            return summary
        return '{"scores": []}'

    paths = KBPaths(tmp_path / "kb")
    config = Config(llm=LLMConfig(provider="openai", model=GGUF, max_retries=0, timeout=20))
    root = make_project(tmp_path / "shop")
    with FakeOpenAI(default=reply) as fake:
        config.llm.base_url = fake.base_url
        provider, _ = open_provider(paths, config.llm)
        try:
            return run_repo_research(
                paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
            )
        except RepoPartialFailure as partial:
            return partial.result


def test_stray_loops_and_uncited_answers_fall_back_to_labelled_offline_pages(tmp_path: Path) -> None:
    result = research(tmp_path, {"Web app": STRAY, "Tools": LOOP}, summary="1.")
    reasons = {a.shard.name: a.fallback for a in result.fallen_back}
    assert "cites no line of the repository" in reasons["Web app"]
    assert "repeats itself" in reasons["Tools"]
    folder = result.study.harvest_dir
    for analysis in result.fallen_back:
        meta, body = read_page(folder / "shards" / f"{analysis.slug}.md")
        assert meta["fallback"] == analysis.fallback and "Produced offline" in body
        assert "Pytorch" not in body and "The function is called. The function" not in body
        assert meta["citations_valid"] == 0  # deepkb's own links are not the model's citations
    index_meta, index = read_page(folder / "index.md")
    assert "1." not in index.split("**Source:**", 1)[0].split("\n", 2)[-1].split()  # no stray summary line
    # the one shard the model answered well is labelled with the model's name, as a reader knows it
    meta, body = read_page(folder / index_meta["shards"][0])
    assert "*Written by SmolLM2-135M-Instruct-Q8\\_0 from the code and the facts below" in body
    assert meta["citations_valid"] == 1 and meta["citations_dropped"] == 2


def test_the_index_labels_a_model_summary(tmp_path: Path) -> None:
    good = research(tmp_path, {}, summary="The shop computes item prices and serves them on the web.")
    assert (
        good.synthesis.summary_by == "SmolLM2-135M-Instruct-Q8_0"
    )  # the served file, never its path on this machine
    _, index = read_page(good.study.harvest_dir / "index.md")
    assert "*Summaries and subsystem analyses written by SmolLM2-135M-Instruct-Q8\\_0;" in index


@pytest.mark.parametrize("summary", ["1.\n\n## Summary", "1. This is a bit of code from the docs.", LOOP])
def test_a_stray_repository_summary_is_not_published(tmp_path: Path, summary: str) -> None:
    stray = research(tmp_path, {}, summary=summary)
    assert stray.synthesis.summary_by == "" and not any("bit of code" in p for p in stray.synthesis.summary)
    assert stray.synthesis.summary != ["1."]


def test_a_model_that_analysed_no_shard_writes_no_summary(tmp_path: Path) -> None:
    every = {name: STRAY for name in ("Pricing core", "Web app", "Tools")}
    result = research(tmp_path, every, summary="The shop computes item prices and serves them on the web.")
    assert len(result.fallen_back) == 3 and result.synthesis.summary_by == ""
    _, index = read_page(result.study.harvest_dir / "index.md")
    assert "computes item prices" not in index and "written by" not in index


def test_a_list_marker_before_a_real_summary_is_dropped(tmp_path: Path) -> None:
    result = research(tmp_path, {}, summary="1. The shop computes item prices and serves them on the web.")
    assert result.synthesis.summary == ["The shop computes item prices and serves them on the web."]


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        (
            "Summary: The engine prices items from their cost.\n\n## Purpose\n",
            "The engine prices items from their cost.",
        ),
        ("Summary: 1.\n\nThe engine prices items.", ""),  # no sentence: the offline summary is used
        ("1.\n\nThis is a bit of code from the documentation.", ""),  # no Summary: line, no first-line guess
    ],
)
def test_the_summary_is_the_models_summary_line_or_none(text: str, summary: str) -> None:
    assert split_model_summary(text)[0] == summary


def test_repetition_is_told_from_prose() -> None:
    assert repeats_itself(LOOP)
    assert repeats_itself("\n".join(["- the request is parsed here"] * 8 + ["- and the reply written"]))
    prose = ANALYSIS.format(name="Pricing core", first="core/engine.py") * 1
    assert not repeats_itself(
        prose + " ".join(f"Step {i} hands item {i * 7} to stage {i + 1}." for i in range(40))
    )


def test_model_label_reads_a_served_file_path_as_its_model_name() -> None:
    assert model_label(GGUF) == "SmolLM2-135M-Instruct-Q8_0"
    assert model_label("gpt-4o-mini") == "gpt-4o-mini"
    assert model_label("meta-llama/Llama-3.1-8B-Instruct") == "meta-llama/Llama-3.1-8B-Instruct"  # a hub id
    assert model_label("C:\\models\\q4.gguf") == "q4" and model_label("~/m/weights.bin") == "weights.bin"
