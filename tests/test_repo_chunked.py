"""Chunked research: start → shard (some chunks) → a kill mid-chunk → resume → synthesize."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from llm_fakes import FakeOpenAI
from repo_output_fakes import is_analyst, make_project, offline_setup, online_setup, scripted_reply

from generator.app.targets import repo_target, session_target
from generator.errors import ResearchError, UsageError
from generator.llm.base import Completion, Prompt, Provider
from generator.repo.run.chunked import run_chunks, start_session, synthesize_session
from generator.repo.run.pipeline import RepoPartialFailure
from generator.repo.run.session import load_session, session_path
from generator.site.pages.repo import publish_repo
from generator.store import read_page


class KilledMidway(Provider):
    """The process dies (Ctrl-C / kill) while the model answers a prompt mentioning `marker`."""

    def __init__(self, inner: Provider, marker: str) -> None:
        super().__init__(inner.config)
        self.inner, self.marker = inner, marker
        self.name = inner.name  # type: ignore[misc]

    def model_for(self, stage: str) -> str:
        return self.inner.model_for(stage)

    def complete(self, prompt: Prompt) -> Completion:
        if self.marker in prompt.user:
            raise KeyboardInterrupt
        return self.inner.complete(prompt)


def analyst_prompts(fake: FakeOpenAI) -> list[str]:
    return [r.prompt.split("Subsystem: ", 1)[1].split(".", 1)[0] for r in fake.requests if is_analyst(r)]


def test_start_checkpoints_a_plan_of_pending_chunks(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    session = start_session(paths, config, provider, repo_target(paths, config, str(root)))
    data = session.to_json()
    assert data["workflow"] == "research_chunked"
    assert [c["id"] for c in data["chunks"]] == [f"c{i}" for i in range(1, len(session.chunks) + 1)]
    assert all(c["status"] == "pending" and c["files"] for c in data["chunks"])
    assert data["next_action"] == f"deepkb repo shard {session.session_id}"
    assert session_path(paths.cache_dir, session.session_id).is_file()
    assert not paths.repos_dir.exists()  # nothing is published before synthesize


def test_a_killed_chunk_resumes_without_redoing_finished_ones(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    with FakeOpenAI(default=scripted_reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        session = start_session(paths, config, provider, repo_target(paths, config, str(root)))
        assert [c.name for c in session.chunks] == ["Pricing core", "Web app", "Tools"]
        sid = session.session_id

        run_chunks(paths, config, provider, sid, session_target(paths, config, sid), ["c1"])
        assert analyst_prompts(fake) == ["Pricing core"]

        killer = KilledMidway(provider, "app/routes.py")
        with pytest.raises(KeyboardInterrupt):
            run_chunks(
                paths, config, killer, sid, session_target(paths, config, sid), max_concurrent=1
            )  # c2 dies mid-way; c3 never starts
        state = load_session(paths.cache_dir, sid)
        assert [c.status for c in state.chunks] == ["done", "pending", "pending"]
        assert not list(session_path(paths.cache_dir, sid).parent.glob("*.tmp"))  # no torn files

        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)  # a new process resumes
        resumed = run_chunks(paths, config, provider, sid, session_target(paths, config, sid))
        assert [c.status for c in resumed.chunks] == ["done", "done", "done"]
        done_first, *resumed_names = analyst_prompts(fake)
        assert done_first == "Pricing core" and sorted(resumed_names) == ["Tools", "Web app"]  # c1 not redone
        assert resumed.next_action() == f"deepkb repo synthesize {sid}"

        result = synthesize_session(
            paths, config, provider, sid, session_target(paths, config, sid), publish=publish_repo
        )
        assert len(analyst_prompts(fake)) == 3  # synthesis reuses the saved analyses
    meta, _ = read_page(result.study.harvest_dir / "index.md")
    assert len(meta["shards"]) == 3
    assert load_session(paths.cache_dir, sid).finished


def test_synthesize_with_unfinished_chunks_is_partial(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    session = start_session(paths, config, provider, repo_target(paths, config, str(root)))
    run_chunks(
        paths, config, provider, session.session_id, session_target(paths, config, session.session_id), ["c1"]
    )
    with pytest.raises(RepoPartialFailure) as caught:
        synthesize_session(
            paths,
            config,
            provider,
            session.session_id,
            session_target(paths, config, session.session_id),
            publish=publish_repo,
        )
    data = caught.value.result.to_json()
    assert data["shards_analyzed"] == 1
    assert all("not analyzed yet" in f["reason"] for f in data["shards_failed"])


def test_a_session_refuses_a_repository_that_moved(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    session = start_session(paths, config, provider, repo_target(paths, config, str(root)))
    (root / "core/engine.py").write_text("# changed\n", encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "move"], cwd=root, check=True)
    with pytest.raises(ResearchError, match="moved"):
        run_chunks(
            paths, config, provider, session.session_id, session_target(paths, config, session.session_id)
        )


def test_a_chunked_research_answers_its_question_on_a_page_of_its_own(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    session = start_session(
        paths,
        config,
        provider,
        repo_target(paths, config, str(root), requests="How is the price computed?"),
        request="How is the price computed?",
    )
    assert [c.name for c in session.chunks] == [
        c.name for c in start_session(paths, config, provider, repo_target(paths, config, str(root))).chunks
    ]  # the plan is the general one
    run_chunks(paths, config, provider, session.session_id, session_target(paths, config, session.session_id))
    result = synthesize_session(
        paths,
        config,
        provider,
        session.session_id,
        session_target(paths, config, session.session_id),
        publish=publish_repo,
    )
    meta, body = read_page(result.study.harvest_dir / "answers" / "how-is-the-price-computed.md")
    assert meta["request"] == "How is the price computed?" and meta["symbols"][0] == "price"


def test_a_chunk_the_model_failed_gets_the_offline_page_labelled(tmp_path: Path):
    """As in `repo run`: synthesis gives a failed chunk the offline analyst's page with the reason; a
    re-run of `repo shard` asks the model for that chunk alone."""
    from llm_fakes import Reply

    root = make_project(tmp_path / "shop")

    def reply(request):
        if is_analyst(request) and "Subsystem: Tools" in request.prompt:
            return Reply.error(500, "the model server fell over")
        return scripted_reply(request)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        sid = start_session(paths, config, provider, repo_target(paths, config, str(root))).session_id
        state = run_chunks(paths, config, provider, sid, session_target(paths, config, sid))
        assert [c.status for c in state.chunks] == ["done", "done", "failed"]
        with pytest.raises(RepoPartialFailure) as caught:
            synthesize_session(
                paths, config, provider, sid, session_target(paths, config, sid), publish=publish_repo
            )
        data = caught.value.result.to_json()
        assert data["shards_failed"] == [] and data["shards_analyzed"] == 3
        [fell] = data["shards_fallen_back"]
        assert fell["name"] == "Tools" and "fell over" in fell["reason"]
        meta, body = read_page(caught.value.result.study.harvest_dir / fell["page"])
        assert meta["fallback"] == fell["reason"] and body.strip()
        asked = len(analyst_prompts(fake))
        fake.default = scripted_reply
        run_chunks(
            paths, config, provider, sid, session_target(paths, config, sid)
        )  # only the failed chunk is pending
        assert analyst_prompts(fake)[asked:] == ["Tools"]
        assert (
            synthesize_session(
                paths, config, provider, sid, session_target(paths, config, sid), publish=publish_repo
            ).fallen_back
            == []
        )


@pytest.mark.parametrize(
    "chunks",
    [[{"id": "c1"}], [{"id": "c1", "index": "one", "name": "core", "files": []}], "not a list"],
    ids=["missing fields", "a wrong type", "no chunk list"],
)
def test_a_damaged_session_file_is_refused_in_one_line(tmp_path: Path, chunks: object):
    paths, _, _ = offline_setup(tmp_path / "kb")
    fields = dict(source="x", request=None, owner="o", name="n", revision="r", created="d", planner="llm")
    path = session_path(paths.cache_dir, "o-n-1")
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps({"session_id": "o-n-1", **fields, "chunks": chunks, "workflow": "research_chunked"})
    )
    with pytest.raises(UsageError, match="no chunked research session 'o-n-1'"):
        load_session(paths.cache_dir, "o-n-1")
