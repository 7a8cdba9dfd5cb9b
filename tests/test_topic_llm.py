"""Topic research with a model: a fake OpenAI-compatible server answers every role in the real wire format."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from llm_fakes import FakeOpenAI, RecordedRequest
from site_checks import citations_in
from topic_fakes import config, entry, live_html, make_corpus, openai_provider, read_json, topic_dir

from generator.app.topic_target import topic_target
from generator.config import LLMConfig
from generator.llm.base import create_provider
from generator.retrieval.feedback import Judged, Retrieval
from generator.site.pages.topic import publish_topic
from generator.sources.base import SearchHit
from generator.store import KBPaths, read_page
from generator.topic.judge import RelevanceJudge
from generator.topic.pipeline import run_topic_research
from generator.topic.research import ResearchContext, about_topic

GOOD_PLAN = {
    "sub_queries": ["What is a vector database?", "Which alternatives exist?"],
    "steps": [
        {
            "id": "s1",
            "title": "Definition",
            "step_type": "research",
            "question": "What is a vector database?",
            "query": "vector database embeddings nearest neighbour",
        },
        {
            "id": "s2",
            "title": "Alternatives",
            "step_type": "research",
            "question": "Which alternatives exist?",
            "query": "pgvector FAISS alternatives",
        },
        {"id": "s3", "title": "Benchmark table", "step_type": "processing", "depends_on": ["s1", "s2"]},
    ],
    "has_enough_context": True,
}


class Team:
    """Answers each role's prompt; the planner's replies are scripted per test."""

    def __init__(self, plan_replies: list[str]) -> None:
        self.plan_replies = plan_replies
        self.roles: list[str] = []

    def __call__(self, req: RecordedRequest) -> str:
        prompt, system = req.prompt, req.system or ""
        if "planner" in system:
            self.roles.append("plan")
            return self.plan_replies.pop(0) if self.plan_replies else json.dumps(GOOD_PLAN)
        if "judge search results" in system:
            self.roles.append("judge")
            count = len(re.findall(r"^\[(\d+)\] ", prompt, re.MULTILINE))
            return json.dumps(
                {"scores": [{"index": n, "score": 0.9, "reason": "on topic"} for n in range(1, count + 1)]}
            )
        if "organize research material" in system:
            self.roles.append("aggregate")
            ids = re.findall(r"^id=(\S+)$", prompt, re.MULTILINE)
            return json.dumps(
                {
                    "clusters": [{"label": "Indexes", "items": [*ids[:2], "made-up-id"], "confidence": 0.8}],
                    "entities": [{"name": "HNSW", "type": "algorithm", "mentions": 2}],
                }
            )
        if "chart specification" in system:
            self.roles.append("processing")
            source = re.search(r"^\[(\S+)\] .*95%", prompt, re.MULTILINE)
            rows = [
                {"label": "FAISS recall", "value": 95, "source": source.group(1) if source else "x"},
                {"label": "invented", "value": 31337, "source": source.group(1) if source else "x"},
            ]
            return json.dumps({"kind": "pie", "title": "Benchmarks", "unit": "%", "rows": rows})
        if "analyst" in system:
            self.roles.append("analyze")
            return json.dumps(
                {
                    "claims": [
                        {
                            "text": "Vector databases answer nearest-neighbour queries <script>alert(1)</script>.",
                            "citations": [1],
                        },
                        {"text": "They were invented on the moon [99].", "citations": []},
                    ]
                }
            )
        self.roles.append("other")
        return "{}"


def _run(kb_root: Path, fake: FakeOpenAI):
    return run_topic_research(
        KBPaths(kb_root),
        config(),
        openai_provider(fake.base_url),
        topic_target(KBPaths(kb_root), entry(), verify=False),
        publish=publish_topic,
    )


def test_plan_invalid_then_repair_invalid_falls_back_to_heuristic(kb_root: Path) -> None:
    make_corpus(kb_root)
    team = Team(["this is not json", '{"sub_queries": "still wrong"}'])
    with FakeOpenAI(default=team) as fake:
        result = _run(kb_root, fake)
    assert fake.failures == []
    assert team.roles[:2] == ["plan", "plan"] and team.roles.count("plan") == 2
    plan = read_json(topic_dir(kb_root) / "plan.json")
    assert plan["origin"] == "heuristic" and len(plan["sub_queries"]) == 5
    assert any("used the heuristic plan" in w for w in result.warnings)
    assert result.status == "completed"


def test_plan_repaired_on_second_attempt_and_every_role_uses_the_model(kb_root: Path) -> None:
    make_corpus(kb_root)
    team = Team(["```json\n{broken", json.dumps(GOOD_PLAN)])
    with FakeOpenAI(default=team) as fake:
        result = _run(kb_root, fake)
    assert fake.failures == []
    folder = topic_dir(kb_root)
    plan = read_json(folder / "plan.json")
    assert plan["origin"] == "llm" and [s["id"] for s in plan["steps"]] == ["s1", "s2", "s3"]
    assert {"judge", "aggregate", "processing", "analyze"} <= set(team.roles)

    aggregated = read_json(folder / "processed" / "aggregated.json")
    assert aggregated["method"] == "llm"
    assert "made-up-id" not in aggregated["clusters"][0]["items"]

    spec = plan["steps"][2]["result"]
    assert [r["label"] for r in spec["rows"]] == ["FAISS recall"]  # 31337 is in no source: dropped
    assert any("31337 does not appear" in n for n in plan["steps"][2]["notes"])

    report_meta, report = read_page(folder / "output" / "report.md")
    assert report_meta["provider"] == "openai" and "Produced offline" not in report
    assert (
        '"Written by a language model"' in report
        and "written by gpt-4o-mini from the quoted sources" in report
    )
    assert report_meta["unresolved_citations"] == 2  # [99] in each of the two sections
    assert report_meta["unsupported_claims"] == 2
    assert "moon" not in report
    assert all(n <= result.sources_count for n, _ in citations_in(report))
    assert "```mermaid" in report and "pie title Benchmarks" in report
    assert live_html(folder / "output" / "report.md") == []
    meta = read_json(folder / "_meta.json")
    assert meta["metrics"]["tokens"]["input"] > 0 and meta["metrics"]["llm_calls"] == len(fake.requests)


def test_a_topics_cost_is_priced_for_the_model_actually_used(kb_root: Path) -> None:
    make_corpus(kb_root)
    costs = {}
    for model in ("gpt-4o-mini", "smollm2-135m-instruct"):  # a listed price, and a local model with none
        shutil.rmtree(topic_dir(kb_root), ignore_errors=True)
        with FakeOpenAI(default=Team([])) as fake:
            llm = LLMConfig(provider="openai", base_url=fake.base_url, model=model, max_retries=0)
            provider = create_provider("openai", llm)
            run_topic_research(
                KBPaths(kb_root),
                config(),
                provider,
                topic_target(KBPaths(kb_root), entry(), verify=False),
                publish=publish_topic,
            )
        metrics = read_json(topic_dir(kb_root) / "_meta.json")["metrics"]
        assert metrics["tokens"]["input"] > 0
        costs[model] = metrics["cost_estimate_usd"]
    tokens = metrics["tokens"]
    assert costs["smollm2-135m-instruct"] == 0.0
    assert (
        costs["gpt-4o-mini"] > 0
        and costs["gpt-4o-mini"] <= (tokens["input"] * 0.15 + tokens["output"] * 0.6) / 1e6 * 1.5
    )


def _judged(key: str, score: float, *, model: bool) -> Judged[SearchHit]:
    hit = SearchHit(url=f"https://example.org/{key}", title=key, content="", source="web")
    if model:
        hit.extra["model_judged"] = True
    return Judged(key=key, item=hit, score=score, reason="")


def test_relevance_cutoffs_follow_who_judged(tmp_path: Path) -> None:
    """With a model configured, the model's floor applies only to what the model scored: a candidate the
    offline scorer judged (the model's JSON failed) keeps the offline floor, as it would offline."""
    judge = RelevanceJudge("vector databases")
    judge.record("best", 0.6, "", 0.6)  # offline cutoff max(0.3, 0.6 × 0.6) = 0.36; the model's 0.4
    ctx = ResearchContext(
        KBPaths(tmp_path), "vector-databases", "vector databases", openai_provider("http://127.0.0.1:9"), {}
    )
    ctx.judge = judge
    kept = [
        _judged("best", 0.6, model=False),
        _judged("offline-scored", 0.38, model=False),
        _judged("model-scored", 0.38, model=True),
    ]
    chosen = about_topic(ctx, Retrieval(kept=kept, cycles=[], stopped_because="done"))
    assert [j.key for j in chosen] == ["best", "offline-scored"]


# A 135M-parameter model's plan (issue 30, item 9): plan fields and fragments as sub-questions.
WEAK_PLAN = {
    "sub_queries": [
        "\\{\\#fixes\\}",
        "question: why this has been done more often than it breaks correct code",
        "has_enough_context:",
        "What is a vector database?",
    ],
    "steps": [
        {"id": "s1", "title": "fixes", "question": "\\{\\#fixes\\}", "query": "fixes"},
        {
            "id": "s2",
            "title": "question",
            "question": "question: why this has been done more often than it breaks correct code",
        },
        {"id": "s3", "title": "context", "question": "has_enough_context:", "query": "context"},
        {
            "id": "s4",
            "title": "Definition",
            "question": "What is a vector database?",
            "query": "vector database",
        },
    ],
    "has_enough_context": True,
}


def test_a_weak_models_outline_is_checked_and_the_sources_outline_replaces_it(kb_root: Path) -> None:
    make_corpus(kb_root)
    team = Team([json.dumps(WEAK_PLAN)])
    with FakeOpenAI(default=team) as fake:
        result = _run(kb_root, fake)
    assert fake.failures == []
    plan = read_json(topic_dir(kb_root) / "plan.json")
    assert plan["origin"] == "heuristic"  # one usable question of four: the outline comes from the sources
    refused = [w for w in result.warnings if "model outline: refused" in w]
    assert len(refused) == 3 and any("has_enough_context" in w for w in refused)
    _, report = read_page(topic_dir(kb_root) / "output" / "report.md")
    headings = [line for line in report.splitlines() if line.startswith("## ")]
    assert headings and not any(("fixes" in h or "context" in h or "question:" in h) for h in headings)
    assert all(h.endswith(("?", "Summary", "References", "Figures")) or "Figures" in h for h in headings)


def test_a_model_outline_keeps_its_good_questions_and_drops_the_fragments(kb_root: Path) -> None:
    make_corpus(kb_root)
    mixed = json.loads(json.dumps(GOOD_PLAN))
    mixed["sub_queries"].append("has_enough_context:")
    mixed["steps"].insert(2, {"id": "s9", "title": "ctx", "question": "has_enough_context:", "query": "x"})
    team = Team([json.dumps(mixed)])
    with FakeOpenAI(default=team) as fake:
        _run(kb_root, fake)
    plan = read_json(topic_dir(kb_root) / "plan.json")
    assert plan["origin"] == "llm"
    assert plan["sub_queries"] == GOOD_PLAN["sub_queries"]
    assert "has_enough_context:" not in [s["question"] for s in plan["steps"]]
