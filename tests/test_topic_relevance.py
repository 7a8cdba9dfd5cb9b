"""Topic research keeps only sources about the topic, finds English documents for a Chinese topic, and never
reports an irrelevant collection as a completed topic."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from llm_fakes import FakeOpenAI, RecordedRequest
from topic_fakes import CORPUS, config, entry, make_corpus, offline, openai_provider

from generator.app.topic_target import topic_target
from generator.errors import NoUsableSources
from generator.store import KBPaths
from generator.topic.judge import RelevanceJudge
from generator.topic.keyphrases import topic_phrases
from generator.topic.pipeline import run_topic_research
from generator.topic.workspace import list_raw_sources

DOCS = {
    "arbitrage.md": "# Statistical arbitrage\n\nArbitrage buys an asset where it is cheap and sells it where it is "
    "dear. A statistical arbitrage strategy trades pairs of stocks whose prices move together.\n\n## Risks of "
    "arbitrage\n\nArbitrage profits shrink as more traders compete; execution latency decides who wins.\n",
    "strategy.md": "# Trading strategies\n\nA trading strategy fixes when to buy and when to sell. Momentum and "
    "mean reversion are common trading strategies; arbitrage is one of them.\n",
    "changelog.md": "# Changelog\n\n## 2.1.0\n\n- Fixed a crash when the cache folder is missing.\n- Faster "
    "start-up.\n\n## 2.0.0\n\n- New configuration format.\n- Renamed the arbitrage example file.\n",
    "gardening.md": "# Gardening\n\nTomatoes need sun and regular watering. Compost improves the soil.\n",
    "cooking.md": "# Cooking rice\n\nRinse the rice, add water and simmer for twelve minutes.\n",
}


def _run(root: Path, topic: str, **extra: object):
    make_corpus(root, DOCS)
    paths = KBPaths(root)
    result = run_topic_research(paths, config(), offline(), topic_target(paths, entry(topic=topic, **extra)))
    return paths, result


def test_only_sources_about_the_topic_are_kept_each_with_its_relevance(kb_root: Path) -> None:
    # a one-document collection cannot pass verification (three sources wanted): not what this test is about
    paths, result = _run(kb_root, "arbitrage trading strategies", verify=False)
    assert result.status == "completed"
    kept = {raw.url.rsplit("/", 1)[-1]: raw for raw in list_raw_sources(paths, result.slug)}
    assert "arbitrage.md" in kept
    assert not {"gardening.md", "cooking.md", "changelog.md"} & set(kept)  # a passing mention is not a source
    assert all(raw.relevance is not None and 0 < raw.relevance <= 1 for raw in kept.values())
    assert kept["arbitrage.md"].title == "Statistical arbitrage"  # the document's own title


def test_a_chinese_topic_finds_english_documents(kb_root: Path) -> None:
    paths, result = _run(kb_root, "套利交易策略", lang="zh", verify=False)
    assert result.status == "completed"
    kept = {raw.url.rsplit("/", 1)[-1] for raw in list_raw_sources(paths, result.slug)}
    assert "arbitrage.md" in kept and "gardening.md" not in kept


def test_an_irrelevant_collection_is_never_a_completed_topic(kb_root: Path) -> None:
    with pytest.raises(NoUsableSources):
        _run(kb_root, "protein folding simulations on graphics cards")


def test_a_chinese_query_asks_for_the_english_twins_too() -> None:
    judge = RelevanceJudge("套利")
    assert judge.expanded_query("套利 交易策略") == "套利 交易策略 arbitrage trading strategy"
    assert judge.expanded_query("vector databases") == "vector databases"  # English is asked as written


@pytest.mark.parametrize(
    ("topic", "not_tags"),
    [
        ("How deepkb keeps a knowledge base fresh and trustworthy", {"fresh", "trustworthy"}),
        ("How structural pattern matching is specified", {"specified"}),
    ],
)
def test_descriptive_words_are_never_key_phrases(topic: str, not_tags: set[str]) -> None:
    phrases = topic_phrases(topic)
    assert phrases and not not_tags & {p.lower() for p in phrases}


def test_a_phrase_the_sources_barely_use_is_not_a_tag() -> None:
    texts = [f"Pattern matching, document {n}." for n in range(5)] + ["One page mentions guards."]
    assert topic_phrases("pattern matching guards", texts) == ["pattern matching"]


def test_a_model_judges_relevance_with_the_same_contract(kb_root: Path) -> None:
    """With a model, the judge's 0–1 JSON decides (wire format of an OpenAI-compatible server); what it
    scores low is never stored, and it is asked about the topic and the sub-question, not the raw query."""
    asked: list[str] = []

    def team(req: RecordedRequest) -> str:
        system = req.system or ""
        if "judge search results" in system:
            asked.append(req.prompt)
            listing = re.findall(r"^\[(\d+)\] (.*)$", req.prompt, re.MULTILINE)
            scores = [
                {"index": int(n), "score": 0.05 if "Gardening" in title else 0.9, "reason": "judged"}
                for n, title in listing
            ]
            return json.dumps({"scores": scores})
        return "{}"  # every other role falls back to its offline path

    make_corpus(
        kb_root, {**CORPUS, "gardening.md": "# Gardening\n\nVector databases? No: tomatoes and compost."}
    )
    with FakeOpenAI(default=team) as fake:
        result = run_topic_research(
            KBPaths(kb_root),
            config(),
            openai_provider(fake.base_url),
            topic_target(KBPaths(kb_root), entry(), verify=False),
        )
    kept = {raw.url.rsplit("/", 1)[-1] for raw in list_raw_sources(KBPaths(kb_root), result.slug)}
    assert asked and all("Topic: vector databases" in p and "Sub-question:" in p for p in asked)
    assert "overview.md" in kept and "gardening.md" not in kept
