"""Batch mode against a fake Message Batches server on 127.0.0.1: grouping, successive batches for dependent
prompts, backoff with an injected sleep, resume without resubmitting, and synchronous fallback for
errored and expired requests."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from llm_fakes import FakeAnthropicBatches, RecordedRequest, Reply

from generator.config import LLMConfig, validated
from generator.errors import ConfigError, ProviderError
from generator.llm import open_provider
from generator.llm.anthropic import AnthropicProvider
from generator.llm.base import Prompt
from generator.llm.batch import BatchProvider
from generator.llm.cache import CachedProvider, ReplyCache
from generator.llm.cost import usage_cost
from generator.store import KBPaths


def answer(request: RecordedRequest) -> Reply:
    return Reply(text=f"answer to {request.prompt}", input_tokens=1000, output_tokens=100)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropicBatches]:
    with FakeAnthropicBatches(default=answer, polls_until_end=4) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        yield server


class Sleeps:
    """An injected sleep: records each wait, never waits; can stop the run at a chosen poll."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.waits: list[float] = []
        self.stop_at = stop_at

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        if self.stop_at is not None and len(self.waits) >= self.stop_at:
            raise RuntimeError("interrupted while polling")


class GatedBatch(BatchProvider):
    """A batch provider whose worker waits at a gate before it collects the queue: a test closes the gate,
    queues every prompt, then opens it, so the prompts share a batch without a timing guess."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = threading.Event()
        self.gate.set()

    def queued(self) -> int:
        with self._lock:
            return len(self._queue)

    def _collect(self) -> list[Any]:
        self.gate.wait()
        return super()._collect()


def batching(
    tmp_path: Path, sleeps: Sleeps, *, settle: float = 0.0, **llm: object
) -> tuple[CachedProvider, GatedBatch]:
    config = validated(LLMConfig, {"provider": "anthropic", "max_retries": 0, "batch": True, **llm})
    replies = ReplyCache(tmp_path / "llm")
    batch = GatedBatch(AnthropicProvider(config), replies, settle=settle, poll_first=5.0, sleep=sleeps)
    return CachedProvider(batch, replies.folder), batch


def ask_together(provider: CachedProvider, batch: GatedBatch, questions: list[str]) -> dict[str, str]:
    """Ask from one thread per question behind the provider's gate, release once all are queued."""
    answers: dict[str, str] = {}
    errors: list[BaseException] = []

    def ask(question: str) -> None:
        try:
            answers[question] = provider.complete(Prompt(user=question, stage="analyze")).text
        except BaseException as exc:
            errors.append(exc)

    batch.gate.clear()
    threads = [threading.Thread(target=ask, args=(q,)) for q in questions]
    for thread in threads:
        thread.start()
    while batch.queued() < len(questions):  # a latch, not a timeout: all of them are queued, then go
        time.sleep(0.005)
    batch.gate.set()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return answers


def test_prompts_asked_together_share_one_batch(tmp_path: Path, fake: FakeAnthropicBatches) -> None:
    sleeps = Sleeps()
    provider, batch = batching(tmp_path, sleeps, batch_poll_max=12.0)
    answers = ask_together(provider, batch, ["one", "two", "three"])
    assert answers == {q: f"answer to {q}" for q in ("one", "two", "three")}
    assert len(fake.created) == 1 and fake.requests == []  # nothing went to /v1/messages
    sent = fake.batches[fake.created[0]]
    assert sorted(r.prompt for r in sent) == ["one", "three", "two"]
    assert all(len(r.path) == 64 and r.json["max_tokens"] > 0 for r in sent)  # custom_id = the cache key
    # polled with backoff until it ended: 5 s, 10 s, then capped at llm.batch_poll_max
    assert sleeps.waits == [5.0, 10.0, 12.0]
    assert provider.usage.batched_calls == 3 and provider.usage.calls == 3
    # the answers are in the reply cache: asking again costs nothing
    again = provider.complete(Prompt(user="two", stage="analyze"))
    assert again.cached and len(fake.created) == 1
    # batched tokens are billed at half the list price
    usd, _ = usage_cost(provider.usage, provider.config)
    full = 3 * (1000 * 3.0 + 100 * 15.0) / 1_000_000
    assert usd == pytest.approx(full / 2)
    assert not list((tmp_path / "llm" / "batches").glob("*.json"))  # the record is gone once stored


def test_a_prompt_that_needs_an_answer_goes_in_the_next_batch(
    tmp_path: Path, fake: FakeAnthropicBatches
) -> None:
    provider, _ = batching(tmp_path, Sleeps())
    plan = provider.complete(Prompt(user="plan the steps", stage="plan")).text
    step = provider.complete(Prompt(user=f"do the first step of: {plan}", stage="analyze")).text
    assert len(fake.created) == 2
    first, second = (fake.batches[b] for b in fake.created)
    assert [r.prompt for r in first] == ["plan the steps"]
    assert [r.prompt for r in second] == ["do the first step of: answer to plan the steps"]
    assert step.startswith("answer to do the first step")


def test_errored_and_expired_requests_are_sent_synchronously(
    tmp_path: Path, fake: FakeAnthropicBatches
) -> None:
    fake.outcome = lambda request: {"bad": "errored", "late": "expired", "gone": "canceled"}.get(
        request.prompt, "succeeded"
    )
    provider, batch = batching(tmp_path, Sleeps())
    answers = ask_together(provider, batch, ["good", "bad", "late", "gone"])
    assert answers == {q: f"answer to {q}" for q in ("good", "bad", "late", "gone")}
    assert sorted(r.prompt for r in fake.requests) == ["bad", "gone", "late"]  # the synchronous fallbacks
    assert provider.usage.batch_fallbacks == 3 and provider.usage.batched_calls == 1


def test_an_interrupted_batch_is_resumed_not_resubmitted(tmp_path: Path, fake: FakeAnthropicBatches) -> None:
    provider, _ = batching(tmp_path, Sleeps(stop_at=1))
    with pytest.raises(ProviderError, match="interrupted while polling"):
        provider.complete(Prompt(user="long question", stage="analyze"))
    records = list((tmp_path / "llm" / "batches").glob("*.json"))
    assert len(records) == 1 and len(fake.created) == 1  # submitted, id saved, no answer yet
    record = json.loads(records[0].read_text(encoding="utf-8"))
    assert set(record) == {"id", "keys", "version"} and len(record["keys"]) == 1
    del record["version"]  # as written before the record carried one: still resumed
    records[0].write_text(json.dumps(record), encoding="utf-8")

    # a new run (a new provider over the same cache) waits for the same batch
    resumed, _ = batching(tmp_path, Sleeps())
    completion = resumed.complete(Prompt(user="long question", stage="analyze"))
    assert completion.text == "answer to long question" and completion.batched
    assert len(fake.created) == 1 and fake.requests == []
    assert not list((tmp_path / "llm" / "batches").glob("*.json"))


def test_batch_mode_is_opened_from_config_for_anthropic_only(
    tmp_path: Path, fake: FakeAnthropicBatches
) -> None:
    paths = KBPaths(tmp_path / "kb")
    provider, _ = open_provider(paths, LLMConfig(provider="anthropic", batch=True))
    assert isinstance(provider, CachedProvider) and isinstance(provider.inner, BatchProvider)
    with pytest.raises(ConfigError, match="needs the anthropic provider"):
        open_provider(paths, LLMConfig(provider="openai", base_url="http://127.0.0.1:9/v1", batch=True))
    offline, _ = open_provider(paths, LLMConfig(provider="offline", batch=True))
    assert offline.offline  # nothing to batch: runs as usual


def test_a_repository_researched_in_batch_mode(tmp_path: Path, fake: FakeAnthropicBatches) -> None:
    """The real pipeline, unchanged: the architect's prompt in one batch, the shards' prompts after it."""
    from repo_output_fakes import is_analyst, is_architect, make_project, scripted_reply

    from generator.app.entries import config_entries
    from generator.app.run import research_entries
    from generator.config import Config, validated

    fake.default = scripted_reply
    fake.polls_until_end = 1
    repo = make_project(tmp_path / "shop")
    paths = KBPaths(tmp_path / "kb")
    config = validated(Config, {"repos": [str(repo)], "llm": {"provider": "anthropic", "max_retries": 0}})
    config_file = validated(LLMConfig, {**msgspec.to_builtins(config.llm), "batch": True})
    replies = ReplyCache(paths.cache_dir / "llm")
    batch = BatchProvider(AnthropicProvider(config_file), replies, settle=0.2, sleep=Sleeps())
    provider = CachedProvider(batch, replies.folder)
    entries = config_entries(paths, config)

    outcomes = research_entries(paths, config, lambda: provider, entries, batch=True)
    assert [o.status for o in outcomes] == ["done"], outcomes
    assert fake.requests == []  # every model call went through a batch
    sent = [(b, r) for b in fake.created for r in fake.batches[b]]
    assert len({r.path for _, r in sent}) == len(sent)  # no prompt submitted twice
    architect_batches = {b for b, r in sent if is_architect(r)}
    analyst_batches = {b for b, r in sent if is_analyst(r)}
    assert len(architect_batches) == 1 and analyst_batches
    assert max(fake.created.index(b) for b in architect_batches) < min(
        fake.created.index(b) for b in analyst_batches
    )
    assert (paths.repo_dir("acme", "shop") / "index.md").is_file()
    cost = outcomes[0].cost
    assert cost is not None and cost.batched_calls == cost.calls == len(sent) and cost.cost_usd > 0

    # everything is in the reply cache now: the same research submits nothing
    before = len(fake.created)
    assert [o.status for o in research_entries(paths, config, lambda: provider, entries, batch=True)] == [
        "done"
    ]
    assert len(fake.created) == before


def test_the_batch_flag_reaches_the_provider(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli import cli

    root = tmp_path / "kb"
    root.mkdir()
    (root / "deepkb.yml").write_text(
        "topics: [a topic]\nllm: {provider: openai, base_url: 'http://127.0.0.1:9/v1'}\n", encoding="utf-8"
    )
    for command in ("build", "refresh"):
        result = CliRunner().invoke(cli, ["--root", str(root), command, "--batch", "--no-site"])
        assert result.exit_code == 2, result.output
        assert "llm.batch (or --batch) needs the anthropic provider, not openai" in " ".join(
            result.output.split()
        )


def test_cost_record_writes_unpriced_models_only_when_there_are_some() -> None:
    import msgspec

    from generator.llm.cost import CostRecord

    priced = CostRecord(provider="openai", models=["gpt-4o-mini"], calls=2, input_tokens=10, cost_usd=0.5)
    assert "unpriced_models" not in msgspec.to_builtins(priced)
    unpriced = msgspec.structs.replace(priced, unpriced_models=["mystery-1"])
    assert msgspec.to_builtins(unpriced)["unpriced_models"] == ["mystery-1"]
    # a record written by an older deepkb, without the cache figures: they read as 0
    old = msgspec.convert(
        {"calls": 3, "input_tokens": 1000, "output_tokens": 20, "cost_usd": 0.01}, CostRecord
    )
    assert old.line() == "$0.0100 estimated: 1,000 input + 0 cached + 20 output tokens in 3 calls"
