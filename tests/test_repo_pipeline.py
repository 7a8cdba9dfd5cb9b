"""run_repo_research end to end on fixture repositories: pages, incremental re-runs, partial failure, focus."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path

import pytest
from llm_fakes import FakeOpenAI, Reply
from repo_output_fakes import (
    is_analyst,
    is_architect,
    make_project,
    offline_setup,
    online_setup,
    page_bytes,
    scripted_reply,
)

from generator.app.targets import repo_target
from generator.deadlines import run_deadline
from generator.errors import PartialFailure, ResearchError
from generator.repo.run.pipeline import RepoPartialFailure, run_repo_research
from generator.repo.run.workers import Job, run_jobs
from generator.site.pages.repo import publish_repo
from generator.store import read_page

INDEX_FIELDS = {
    "title",
    "source",
    "revision",
    "revision_date",
    "generated",
    "shards",
    "tags",
    "provider",
    "model",
    "description",
}


def harvest(paths) -> Path:
    return paths.repos_dir / "acme" / "shop"


def commit(root: Path, rel: str, text: str) -> None:
    (root / rel).write_text(text, encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", f"change {rel}"], cwd=root, check=True)


def test_offline_run_writes_index_and_shard_pages(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    meta, body = read_page(harvest(paths) / "index.md")
    assert INDEX_FIELDS <= set(meta)
    assert meta["title"] == "shop"
    assert meta["source"] == "https://github.com/acme/shop"
    assert len(meta["revision"]) == 40 and meta["provider"] == "offline"
    assert '!!! info deepkb-notice "Produced offline"' in body
    assert meta["shards"] and all((harvest(paths) / page).is_file() for page in meta["shards"])
    shard_meta, shard_body = read_page(harvest(paths) / meta["shards"][0])
    assert shard_meta["files"] and shard_meta["provider"] == "offline"
    assert "## Key types" in shard_body and "github.com/acme/shop/blob/" in shard_body
    data = result.to_json()
    assert data["success"] and data["shards_analyzed"] == len(meta["shards"])
    assert data["shards"][0]["page"] == meta["shards"][0]


def test_offline_drafts_are_written_one_at_a_time(tmp_path: Path, monkeypatch) -> None:
    # they are the interpreter's own work: threads would only interleave them (and wait to start)
    from generator.repo.run import pipeline

    running: list[int] = []
    most = [0]
    real = pipeline.analyze_shard
    lock = threading.Lock()

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        with lock:
            running.append(1)
            most[0] = max(most[0], len(running))
        try:
            time.sleep(0.01)  # long enough for another thread to start beside it, were there one
            return real(*args, **kwargs)
        finally:
            with lock:
                running.pop()

    monkeypatch.setattr(pipeline, "analyze_shard", counted)
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root), max_concurrent=8), publish=publish_repo
    )
    assert most[0] == 1


def test_offline_rerun_is_byte_identical(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    before = page_bytes(harvest(paths))
    mtimes = {p: p.stat().st_mtime_ns for p in harvest(paths).rglob("*.md")}
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    assert page_bytes(harvest(paths)) == before
    assert {p: p.stat().st_mtime_ns for p in harvest(paths).rglob("*.md")} == mtimes


def test_online_run_checks_citations_then_reruns_with_zero_calls(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    with FakeOpenAI(default=scripted_reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        result = run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        first_calls = len(fake.requests)
        before = page_bytes(harvest(paths))
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)  # a fresh process, same disk
        run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        assert len(fake.requests) == first_calls  # zero LLM calls the second time
    analyst = next(r.prompt for r in fake.requests if "Subsystem: Pricing core" in r.prompt)
    assert "What static analysis found" in analyst and "class Item (core/models.py:4-7)" in analyst
    assert first_calls == 5  # architect + three shards + the summary
    assert page_bytes(harvest(paths)) == before
    assert result.to_json()["planner"] == "llm"
    meta, index_body = read_page(harvest(paths) / "index.md")
    assert meta["provider"] == "openai" and meta["tokens"]["input"] > 0
    diagram = index_body.split("```mermaid\n", 1)[1].split("```", 1)[0]
    # app/routes.py imports `price` from core/engine.py: the arrow is labelled with what it uses
    assert '["Web app"]' in diagram and 'n1 -->|"price"| n0' in diagram
    page_meta, page = read_page(harvest(paths) / meta["shards"][0])
    # the model's one good citation only: deepkb's own permalinks to symbols and files are not the model's
    assert page_meta["citations_dropped"] == 2 and page_meta["citations_valid"] == 1
    assert "*Written by gpt-4o-mini from the code and the facts below" in page
    assert f"/blob/{meta['revision']}/core/engine.py#L1-L3" in page
    assert "<script" not in page and "ghost" not in page


def test_an_old_or_foreign_analysis_cache_entry_is_recomputed_not_trusted(tmp_path: Path):
    """The cached draft is a versioned record: an entry an older deepkb wrote (an untyped dict without a
    version), one of another version and a damaged file are each analyzed again, never a crash."""
    root = make_project(tmp_path / "shop")
    with FakeOpenAI(default=scripted_reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        before = page_bytes(harvest(paths))
        saved = sorted((paths.cache_dir / "repos" / "acme" / "shop" / "analyses").glob("*.json"))
        assert len(saved) == 3 and all(json.loads(f.read_text())["version"] == 1 for f in saved)
        old = json.loads(saved[0].read_text())
        del old["version"]  # the shape before versions: {key, draft, generated, provider, model}
        saved[0].write_text(json.dumps(old))
        saved[1].write_text(json.dumps({**json.loads(saved[1].read_text()), "version": 99}))
        saved[2].write_text('{"key": "cut sho')
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
    # each shard was analyzed again (the model's own reply cache answered the same prompts) …
    assert provider.usage.cache_hits == 3
    assert all(json.loads(f.read_text())["version"] == 1 for f in saved)  # … and saved as a record
    assert page_bytes(harvest(paths)) == before


def test_new_commit_reanalyzes_only_the_changed_shard(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    with FakeOpenAI(default=scripted_reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        seen = len(fake.requests)
        commit(
            root,
            "util/timefmt.py",
            '"""Time formatting, now in UTC."""\n\n\ndef stamp() -> str:\n    return "utc"\n',
        )
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        result = run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        fresh = fake.requests[seen:]
    assert len(fresh) == 1 and is_analyst(fresh[0]) and "Subsystem: Tools." in fresh[0].prompt
    meta, _ = read_page(harvest(paths) / "index.md")
    assert meta["revision"] == result.study.checkout.revision
    _, core_page = read_page(harvest(paths) / meta["shards"][0])
    assert f"/blob/{meta['revision']}/" in core_page  # unchanged shards are re-rendered at the new revision


def test_a_failing_shard_gets_the_offline_page_and_a_rerun_retries_only_it(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    broken = [True]

    def reply(req):
        if broken[0] and is_analyst(req) and "Subsystem: Tools" in req.prompt:
            return Reply.error(500, "boom")
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        with pytest.raises(RepoPartialFailure) as caught:
            run_repo_research(
                paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
            )
        assert isinstance(caught.value, PartialFailure) and caught.value.exit_code == 3
        assert "fell back to offline pages: Tools" in caught.value.line()
        data = caught.value.result.to_json()
        assert data["success"] is False and data["shards_analyzed"] == 3 and data["shards_failed"] == []
        [fell] = data["shards_fallen_back"]
        assert fell["name"] == "Tools" and fell["page"] == "shards/03_tools.md" and "500" in fell["reason"]
        meta, body = read_page(harvest(paths) / "index.md")
        assert meta["failed_shards"] == [] and meta["fallback_shards"] == ["Tools"]
        assert "Shards written offline" in body and "Failed shards" not in body
        pages = sorted(p.name for p in (harvest(paths) / "shards").iterdir())
        assert pages == ["01_pricing-core.md", "02_web-app.md", "03_tools.md"]
        tools_meta, tools = read_page(harvest(paths) / "shards" / "03_tools.md")
        assert tools_meta["provider"] == "offline" and "500" in tools_meta["fallback"]
        assert "Produced offline: the model's analysis failed" in tools and "## Functions" in tools
        assert "fallback" not in read_page(harvest(paths) / "shards" / "01_pricing-core.md")[0]
        # the offline draft was not cached as the model's analysis: a plain re-run asks for Tools alone
        broken[0] = False
        seen = len(fake.requests)
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        result = run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        analysts = [r for r in fake.requests[seen:] if is_analyst(r)]
    assert len(analysts) == 1 and "Subsystem: Tools." in analysts[0].prompt
    assert result.to_json()["success"] and not result.fallen_back
    tools_meta, tools = read_page(harvest(paths) / "shards" / "03_tools.md")
    assert tools_meta["provider"] == "openai" and "fallback" not in tools_meta
    assert "Produced offline" not in tools
    assert "fallback_shards" not in read_page(harvest(paths) / "index.md")[0]


def test_a_failed_architect_call_is_not_cached_as_the_models_plan(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    broken = [True]

    def reply(req):
        if broken[0] and is_architect(req):
            return Reply.error(500, "boom")
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        first = run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        assert first.study.plan.planner == "heuristic"
        assert "the architect request failed" in first.study.plan.note
        assert "the architect request failed" in read_page(harvest(paths) / "index.md")[1]
        broken[0] = False
        seen = len(fake.requests)
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        second = run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
        asked = [r for r in fake.requests[seen:] if is_architect(r)]
    assert len(asked) == 1 and second.study.plan.planner == "llm"


def test_a_model_whose_window_fits_nothing_leaves_every_page_offline_and_labelled(tmp_path: Path):
    """Every request over the window is refused (400, as llama.cpp answers): the architect falls back to the
    heuristic plan and every shard to its offline page, each saying why; the run ends partial, not failed."""
    root = make_project(tmp_path / "shop")
    overflow = Reply.error(400, "the request exceeds the available context size, try increasing it")
    with FakeOpenAI(default=overflow) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        with pytest.raises(RepoPartialFailure) as caught:
            run_repo_research(
                paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
            )
    data = caught.value.result.to_json()
    assert data["planner"] == "heuristic" and data["shards_failed"] == []
    assert len(data["shards_fallen_back"]) == data["shards_analyzed"] > 0
    for fell in data["shards_fallen_back"]:
        assert fell["reason"].startswith("the prompt does not fit the model's window")
        assert "Produced offline: the model's analysis failed" in read_page(harvest(paths) / fell["page"])[1]


def test_an_empty_model_answer_falls_back_to_the_offline_page(tmp_path: Path):
    root = make_project(tmp_path / "shop")

    def reply(req):
        if is_analyst(req) and "Subsystem: Web app" in req.prompt:
            return " \n "
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        # a refused answer is a weak model's honest outcome, labelled on its page: the run is not partial
        result = run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
    [fell] = result.to_json()["shards_fallen_back"]
    assert fell["name"] == "Web app" and fell["reason"] == "the model's answer was empty"
    assert fell["answer_refused"] and "1 of 3 shards of acme/shop are offline pages" in result.refused_line()
    meta, page = read_page(harvest(paths) / fell["page"])
    assert meta["provider"] == "offline" and "Produced offline: the model's analysis failed" in page


def test_total_timeout_fails_the_hanging_shard_only(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    hanging = threading.Event()
    before = set(threading.enumerate())

    def reply(req):
        if is_analyst(req) and "Subsystem: Tools" in req.prompt:
            hanging.set()
            return Reply.hanging(60)
        return scripted_reply(req)

    def clock() -> float:
        # real time, until only the hanging shard is left: then the run is 100 s older than its deadline
        shards = [t for t in set(threading.enumerate()) - before if t.name.startswith("deepkb-shard-")]
        return time.monotonic() + (100 if hanging.is_set() and len(shards) == 1 else 0)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url, total_timeout=8)
        with run_deadline("repo", total=8, clock=clock), pytest.raises(RepoPartialFailure) as caught:
            run_repo_research(
                paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
            )
    # the hanging shard falls back to its offline page, with the timeout as the reason
    failed = caught.value.result.to_json()["shards_fallen_back"]
    assert [f["name"] for f in failed] == ["Tools"] and "total timeout" in failed[0]["reason"]
    assert "repo.total_timeout" in failed[0]["reason"]


def test_a_request_is_answered_on_its_own_page_and_the_general_pages_stay(tmp_path: Path):
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(tmp_path / "kb")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    general = {k: v for k, v in page_bytes(harvest(paths)).items() if k.startswith("shards/")}
    run_repo_research(
        paths,
        config,
        provider,
        repo_target(paths, config, str(root), requests="How is the price of an item computed?"),
        publish=publish_repo,
    )
    pages = page_bytes(harvest(paths))
    assert {k: v for k, v in pages.items() if k.startswith("shards/")} == general
    meta, body = read_page(harvest(paths) / "answers" / "how-is-the-price-of-an-item-computed.md")
    assert meta["request"] == "How is the price of an item computed?"
    assert '??? note "How the files were found"' in body and "core/engine.py" in body
    assert "[`price`](https://github.com/acme/shop/blob/" in body


PLANTED = "sk-ant-api03-" + "Zq7" * 12
ENV_SECRET = "correct-horse-battery-staple-42"


PROJECT_WITH_SECRETS = {
    "README.md": f"# Shop\n\nShop sells things. The key {PLANTED} must stay private. Password {ENV_SECRET} too.\n",
    "core/engine.py": f'"""Price engine; token {PLANTED}; env {ENV_SECRET}."""\n\n\ndef price() -> float:\n    """Price."""\n    return 1.0\n',
    "core/models.py": '"""Models."""\n\n\nclass Item:\n    """Item."""\n',
}


def test_secrets_never_reach_a_page_or_a_request(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("SHOP_API_KEY", ENV_SECRET)
    root = make_project(tmp_path / "shop", PROJECT_WITH_SECRETS)
    paths, config, provider = offline_setup(tmp_path / "offline-kb")
    run_repo_research(
        paths,
        config,
        provider,
        repo_target(paths, config, str(root), requests="How is the price computed?"),
        publish=publish_repo,
    )
    written = b"".join(page_bytes(harvest(paths)).values())
    assert written and PLANTED.encode() not in written and ENV_SECRET.encode() not in written

    with FakeOpenAI(default=scripted_reply) as fake:
        paths, config, provider = online_setup(tmp_path / "online-kb", fake.base_url)
        run_repo_research(
            paths,
            config,
            provider,
            repo_target(paths, config, str(root), requests="How is the price computed?"),
            publish=publish_repo,
        )
        sent = json.dumps([r.json for r in fake.requests])
    assert "Price engine" in sent  # the files were sent …
    assert PLANTED not in sent and ENV_SECRET not in sent  # … without their secrets
    written = b"".join(page_bytes(harvest(paths)).values())
    assert PLANTED.encode() not in written and ENV_SECRET.encode() not in written


def test_model_summary_is_escaped_on_the_index(tmp_path: Path):
    root = make_project(tmp_path / "shop")

    def reply(req):
        if "summarize software repositories" in (req.system or ""):
            return "Shop prices items. <img src=x onerror=alert(1)> [x](javascript:alert(2))"
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
    _, body = read_page(harvest(paths) / "index.md")
    assert "Shop prices items." in body
    assert "<img" not in body and "](javascript:" not in body


def test_idle_timeout_fails_a_silent_job_and_the_others_land():
    release, quick_done = threading.Event(), threading.Event()
    now = [0.0]

    def silent(report):
        report("reading facts")  # not a long stage: no heartbeat covers it
        quick_done.wait(30)
        now[0] += 100  # then nothing happens for 100 s on the run's clock
        release.wait(30)
        return "late"

    def quick(report):
        threading.Timer(0.05, quick_done.set).start()  # after this job's result is handed over
        return "done"

    jobs = [Job(1, "silent", silent), Job(2, "quick", quick)]
    try:
        with run_deadline("repo", total=0, clock=lambda: now[0]):
            results = run_jobs(jobs, limit=2, idle_timeout=0.5)
    finally:
        release.set()
    assert results[2] == "done"
    assert isinstance(results[1], ResearchError) and "idle timeout" in results[1].message


def test_a_hung_job_is_abandoned_at_the_total_timeout():
    release = threading.Event()
    now = [0.0]

    def hung(report):
        report("asking the model")  # a long stage: heartbeats keep it from ever being idle
        now[0] += 1000
        release.wait(30)

    try:
        with run_deadline("repo", total=60, clock=lambda: now[0]):
            results = run_jobs([Job(1, "hung", hung)], limit=1, idle_timeout=30, total_timeout=60)
    finally:
        release.set()
    assert isinstance(results[1], ResearchError)
    assert results[1].message == "total timeout: the run took longer than 60 s (repo.total_timeout)"


def test_jobs_run_at_most_limit_at_once_and_each_result_comes_back():
    lock, running, most = threading.Lock(), [0], [0]
    both = threading.Event()  # the first two jobs are running together

    def job(key):
        def work(report):
            report("packing")
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
                if running[0] == 2:
                    both.set()
            if key <= 2:
                assert both.wait(10)
                time.sleep(0.05)  # a pool without the limit would start jobs 3-5 meanwhile
            with lock:
                running[0] -= 1
            if key == 3:
                raise ResearchError("shard 3 broke")
            return key * 10

        return Job(key, f"job {key}", work)

    results = run_jobs([job(k) for k in range(1, 6)], limit=2)
    assert most[0] == 2
    assert {k: v for k, v in results.items() if k != 3} == {1: 10, 2: 20, 4: 40, 5: 50}
    assert isinstance(results[3], ResearchError) and results[3].message == "shard 3 broke"


def test_a_kill_inside_a_job_stops_the_run():
    def killed(report):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_jobs([Job(1, "killed", killed)], limit=1)


def test_a_model_answers_from_the_facts_its_citations_checked_and_the_plan_ignores_the_question(
    tmp_path: Path,
):
    root = make_project(tmp_path / "shop")
    judged = {"core/engine.py": 0.95, "core/models.py": 0.8, "app/routes.py": 0.75, "README.md": 0.1}

    def reply(req):
        if "Rate how relevant" in req.prompt:
            listed = [line[4:] for line in req.prompt.splitlines() if line.startswith("### ")]
            scores = [{"path": p, "score": judged.get(p, 0.05), "reason": f"judged {p}"} for p in listed]
            return json.dumps({"scores": scores})
        if "answers a question" in (req.system or ""):
            return (
                "`price` computes the price of one item from its cost (core/engine.py:6-8). "
                "<b>The price of one item</b> is its cost (core/engine.py:6-8). "
                "It is cached forever (ghost/file.py:1-2)."
            )
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        question = "How is the price of an item computed?"
        run_repo_research(
            paths,
            config,
            provider,
            repo_target(paths, config, str(root), requests=question),
            publish=publish_repo,
        )
        architect = next(r for r in fake.requests if is_architect(r))
        asked = next(r for r in fake.requests if "answers a question" in (r.system or ""))
    assert question not in architect.prompt  # the general plan never depends on a question
    assert "price (function) at core/engine.py:6-8: Price of one item." in asked.prompt
    assert "return item.cost * 1.2" in asked.prompt  # the answering code, read at the pinned revision
    meta, body = read_page(harvest(paths) / "answers" / "how-is-the-price-of-an-item-computed.md")
    assert meta.get("fallback") is None, meta.get("fallback")
    assert meta["provider"] == "openai" and meta["citations_dropped"] == 0
    assert "[core/engine.py:6-8](https://github.com/acme/shop/blob/" in body
    # the sentence citing lines the model was not given is left out whole, not only its citation
    prose = body.split("## The code that answers it")[0]
    assert "ghost/file.py" not in prose and "cached forever" not in prose and "<b>" not in body
    assert "judged core/engine.py" in body


def test_a_failed_model_answer_falls_back_to_the_offline_draft(tmp_path: Path):
    root = make_project(tmp_path / "shop")

    def reply(req):
        if "answers a question" in (req.system or ""):
            return Reply.error(500, "answer stage broke")
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        run_repo_research(
            paths,
            config,
            provider,
            repo_target(paths, config, str(root), requests="How is the price computed?"),
            publish=publish_repo,
        )
    meta, body = read_page(harvest(paths) / "answers" / "how-is-the-price-computed.md")
    assert "500" in meta["fallback"] and "the model's answer failed" in body
    assert "1. Starts at **[`price`](https://github.com/acme/shop/blob/" in body


def test_a_weak_models_answer_of_its_own_words_falls_back_to_the_offline_draft(tmp_path: Path):
    """SmolLM2-135M's shape (bench/local_model.py): chat filler and made-up steps, one real citation copied in."""
    root = make_project(tmp_path / "shop")

    def reply(req):
        if "answers a question" in (req.system or ""):
            return (
                "Your code is already quite efficient, and the documentation provides a clear understanding.\n\n"
                "1.  You've got a list of your request methods using `this._requestMethods` (core/engine.py:6-8).\n"
                "2.  The docstring is used to provide information about what each part does.\n"
            )
        return scripted_reply(req)

    with FakeOpenAI(default=reply) as fake:
        paths, config, provider = online_setup(tmp_path / "kb", fake.base_url)
        run_repo_research(
            paths,
            config,
            provider,
            repo_target(paths, config, str(root), requests="How is the price computed?"),
            publish=publish_repo,
        )
    meta, body = read_page(harvest(paths) / "answers" / "how-is-the-price-computed.md")
    assert "most of the model's answer was not grounded" in meta["fallback"]
    assert "the model's answer failed" in body and "_requestMethods" not in body and "efficient" not in body
    assert "1. Starts at **[`price`](https://github.com/acme/shop/blob/" in body


def test_a_knowledge_base_researching_its_own_repository_ignores_its_pages(tmp_path: Path):
    """`source: .` — the KB's site_src/, site/ and cache live inside the repository being studied."""
    root = make_project(tmp_path / "shop")
    paths, config, provider = offline_setup(root)
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    first = page_bytes(harvest(paths))
    (root / "site").mkdir(exist_ok=True)
    (root / "site" / "index.html").write_text("<html>built</html>", encoding="utf-8")
    run_repo_research(paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo)
    meta, body = read_page(harvest(paths) / "index.md")
    assert page_bytes(harvest(paths)) == first  # its own pages never feed the next run
    assert "site_src" not in json.dumps(meta) and "site_src" not in body


def test_shard_prompts_share_a_cached_prefix_with_anthropic(tmp_path: Path, monkeypatch) -> None:
    """Every shard prompt of a repository opens with the same instructions and repository overview, marked
    cacheable: the first shard writes the prompt cache, the others read it."""
    from llm_fakes import FakeAnthropic

    from generator.config import Config, LLMConfig
    from generator.llm import open_provider
    from generator.store import KBPaths

    root = make_project(tmp_path / "shop")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    with FakeAnthropic(default=scripted_reply, prompt_cache=True, cache_min_tokens=40) as fake:
        paths = KBPaths(tmp_path / "kb")
        config = Config(llm=LLMConfig(provider="anthropic", base_url=fake.base_url, max_concurrent=1))
        provider, _ = open_provider(paths, config.llm)
        run_repo_research(
            paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
        )
    analysts = [r for r in fake.requests if is_analyst(r)]
    assert len(analysts) == 3
    firsts = [r.json["messages"][-1]["content"][0] for r in analysts]
    assert all(block.get("cache_control") == {"type": "ephemeral"} for block in firsts)
    assert len({block["text"] for block in firsts}) == 1  # one shared prefix, shard text after it
    assert "core/engine.py" in firsts[0]["text"] and "Subsystem:" not in firsts[0]["text"]
    assert provider.usage.cache_read_tokens > 0 and provider.usage.cache_write_tokens > 0


def test_a_saved_plan_reads_back_typed_and_a_damaged_one_is_planned_afresh(tmp_path: Path) -> None:
    from generator.repo.model import Shard, ShardPlan
    from generator.repo.run.session import RepoCache, SavedPlan

    cache = RepoCache(tmp_path, "acme", "shop")
    plan = ShardPlan((Shard("Core", ("core/a.py", "core/b.py"), "prices"),), "llm")
    cache.save_plan("plan", "k1", SavedPlan(plan=plan, tokens={"input": 5, "output": 2}))
    assert cache.load_plan("plan", "k1") == SavedPlan(plan=plan, tokens={"input": 5, "output": 2})
    assert cache.load_plan("plan", "another key") is None
    cache.save_stage("plan", "k1", {"plan": {"planner": "llm"}})  # no shards: a damaged entry
    assert cache.load_plan("plan", "k1") is None
    cache.save_stage("plan", "k1", {"plan": {"planner": "oracle", "shards": []}})
    assert cache.load_plan("plan", "k1") is None
