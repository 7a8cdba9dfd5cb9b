"""The one HTTP layer: retry rule, total deadline per call and body size cap, for model and search calls alike.

Every far side is a fake server on 127.0.0.1; time is an injected clock, so no test waits out a deadline.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from dataclasses import replace

import httpx
import pytest
from llm_fakes import FakeAnthropic, FakeOpenAI, Reply
from search_fakes import FakeSearchServer, fast_retry
from search_fakes import Reply as SearchReply

from generator.config import LLMConfig, validated
from generator.deadlines import run_deadline
from generator.errors import ProviderError, ProviderResponseError, ProviderTimeout
from generator.http import MAX_BODY_BYTES, RetryPolicy, bounded_client, get_json, post_json
from generator.llm import openai as openai_provider
from generator.llm.base import Prompt, Provider, create_provider

# The Anthropic SDK takes about 2 s to import; done here, that cost is not booked to the first test using it.
pytest.importorskip("anthropic")


def ticking_clock(step: float) -> Callable[[], float]:
    """A clock that moves `step` seconds every time it is read."""
    now = [0.0]

    def read() -> float:
        now[0] += step
        return now[0]

    return read


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setattr(openai_provider, "BASE_DELAY", 0.0)
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def fake_anthropic(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        yield fake


def openai(fake: FakeOpenAI, **overrides: object) -> Provider:
    config = validated(LLMConfig, {"provider": "openai", "base_url": fake.base_url, **overrides})
    return create_provider("openai", config)


def with_policy(provider: Provider, **changes: object) -> Provider:
    provider.retry = replace(provider.retry, **changes)  # type: ignore[attr-defined]
    return provider


# --- the total deadline -------------------------------------------------------------------------------------


def test_openai_trickling_answer_is_cut_off_at_the_deadline(fake_openai: FakeOpenAI) -> None:
    # issue 8 finding 3: one byte every few ms kept every per-read timeout happy and the call alive forever
    fake_openai.queue(Reply.trickling("a long answer " * 20, every=0.005))
    provider = with_policy(openai(fake_openai, timeout=5, max_retries=3), clock=ticking_clock(1.0))
    with pytest.raises(ProviderTimeout, match="within 5 s") as caught:
        provider.complete(Prompt(user="hello"))
    assert "llm.timeout" in caught.value.line()
    assert len(fake_openai.requests) == 1  # a spent deadline is not retried


def test_anthropic_trickling_answer_is_cut_off_at_the_deadline(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(Reply.trickling("a long answer " * 20, every=0.005))
    provider = create_provider("anthropic", LLMConfig(timeout=5, max_retries=3))
    with_policy(provider, clock=ticking_clock(1.0))
    with pytest.raises(ProviderTimeout, match="within 5 s"):
        provider.complete(Prompt(user="hello"))
    assert len(fake_anthropic.requests) == 1


def test_search_call_trickling_is_cut_off_too(fake_openai: FakeOpenAI) -> None:
    # any endpoint that trickles will do: the search providers' calls share the deadline code path
    fake_openai.queue(Reply.trickling("a long answer " * 20, every=0.005))
    policy = RetryPolicy(clock=ticking_clock(1.0))
    with pytest.raises(ProviderTimeout, match="tavily: no complete answer .* within 5 s"):
        post_json(f"{fake_openai.base_url}/chat/completions", {}, provider="tavily", timeout=5, retry=policy)


def test_a_retry_that_would_outlast_the_deadline_is_not_waited_for(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue(Reply.error(503, "busy", retry_after="20"), "never reached")
    waits: list[float] = []
    provider = with_policy(openai(fake_openai, timeout=10, max_retries=3), sleep=waits.append)
    with pytest.raises(ProviderError, match="503"):
        provider.complete(Prompt(user="hello"))
    assert waits == [] and len(fake_openai.requests) == 1


# --- the body size cap --------------------------------------------------------------------------------------


def test_openai_oversized_answer_is_refused_unread(fake_openai: FakeOpenAI) -> None:
    # issue 8 finding 10: a 400 MB body was read into memory, then reported as "did not answer"
    fake_openai.queue(Reply(text="x" * (MAX_BODY_BYTES + 1)))
    with pytest.raises(ProviderResponseError, match="larger than 16 MB"):
        openai(fake_openai).complete(Prompt(user="hello"))


def test_anthropic_oversized_answer_is_refused(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(Reply(text="x" * (MAX_BODY_BYTES + 1)))
    provider = create_provider("anthropic", LLMConfig(max_retries=2))
    with pytest.raises(ProviderResponseError, match="larger than 16 MB"):
        provider.complete(Prompt(user="hello"))
    assert len(fake_anthropic.requests) == 1


def test_anthropic_compressed_answer_is_refused(fake_anthropic: FakeAnthropic) -> None:
    # the SDK decodes gzip itself, past where bytes are counted: a compressed answer could expand unbounded
    fake_anthropic.queue(Reply(text="fine", headers={"content-encoding": "gzip"}))
    provider = create_provider("anthropic", LLMConfig(max_retries=2))
    with pytest.raises(ProviderResponseError, match="compressed its answer although asked not to"):
        provider.complete(Prompt(user="hello"))
    assert fake_anthropic.requests[0].headers["accept-encoding"] == "identity"


def test_search_answer_without_length_is_capped_while_streaming() -> None:
    with FakeSearchServer() as server:
        server.route("/big", SearchReply(200, {"results": ["y" * 50_000]}, chunked=True))
        with pytest.raises(ProviderResponseError, match="larger than"):
            get_json(f"{server.url}/big", provider="searxng", retry=fast_retry(), max_body=10_000)


def test_compressed_bomb_is_capped_on_its_decoded_size() -> None:
    bomb = gzip.compress(json.dumps({"results": ["0" * 2_000_000]}).encode())
    with FakeSearchServer() as server:
        server.route("/bomb", SearchReply(200, bomb, headers={"content-encoding": "gzip"}))
        with pytest.raises(ProviderResponseError, match="larger than"):
            get_json(f"{server.url}/bomb", provider="searxng", retry=fast_retry(), max_body=100_000)
        assert len(bomb) < 100_000  # the raw bytes alone would have passed


# --- the retry rule -----------------------------------------------------------------------------------------


def test_backoff_doubles_with_jitter_and_is_capped() -> None:
    policy = RetryPolicy(backoff=1.0, max_wait=5.0, jitter=lambda: 0.5)
    assert [policy.wait(attempt, None) for attempt in range(4)] == [0.75, 1.5, 3.0, 5.0]
    assert RetryPolicy(jitter=lambda: 0.0).wait(0, {"retry-after-ms": "250"}) == 0.25


def test_anthropic_retries_follow_our_rule_not_the_sdks(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(Reply.error(529, "Overloaded", retry_after="3"), Reply.error(500, "boom"), "done")
    waits: list[float] = []
    provider = create_provider("anthropic", LLMConfig(max_retries=3))
    with_policy(provider, sleep=waits.append, jitter=lambda: 0.0)
    assert provider.complete(Prompt(user="hello")).text == "done"
    assert waits == [3.0, 0.5]  # retry-after honoured, then backoff 0.5 * 2 * (0.5 + 0/2)
    assert len(fake_anthropic.requests) == 3


def test_openai_and_search_share_the_retry_statuses(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue(Reply.error(408, "timeout"), Reply.error(409, "conflict"), "done")
    assert openai(fake_openai, max_retries=2).complete(Prompt(user="hi")).text == "done"
    with FakeSearchServer() as server:
        server.script("/search", SearchReply(408, "slow"), SearchReply(529, "busy"))
        assert get_json(f"{server.url}/search", provider="searxng", retry=fast_retry())["results"]


def test_a_call_never_outlives_its_runs_deadline(fake_openai: FakeOpenAI) -> None:
    # after repo.total_timeout a run's remaining model calls (synthesis, …) end at once instead of hanging
    now = [0.0]
    provider = openai(fake_openai, timeout=120)
    with run_deadline("repo", total=10, clock=lambda: now[0]):
        now[0] = 11.0
        with pytest.raises(ProviderTimeout, match=r"stopped: total timeout.*repo\.total_timeout") as caught:
            provider.complete(Prompt(user="hello"))
    assert fake_openai.requests == []
    assert caught.value.exit_code == 3  # the run ends as a timeout, not as a provider failure


def test_each_request_waits_up_to_the_time_left_not_a_short_default() -> None:
    # httpx waits 5 s per read unless told otherwise: a model that thinks for 6 s must not time out
    seen: list[dict[str, float]] = []

    def far_side(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions["timeout"])
        return httpx.Response(200, json={"ok": True})

    client = bounded_client(httpx.MockTransport(far_side))
    frozen = RetryPolicy(clock=lambda: 1000.0)
    assert get_json("http://127.0.0.1/x", provider="t", client=client, timeout=90, retry=frozen) == {
        "ok": True
    }
    assert seen == [{"connect": 90.0, "read": 90.0, "write": 90.0, "pool": 90.0}]


@pytest.mark.parametrize("provider_name", ["openai", "anthropic"])
def test_model_calls_still_go_through_the_environments_proxy(
    provider_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # httpx stops reading HTTP_PROXY once a client has its own transport: ours picks the proxy itself
    fake = FakeOpenAI() if provider_name == "openai" else FakeAnthropic()
    with fake:
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{fake.port}")
        monkeypatch.setenv("NO_PROXY", "")
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://model.test")  # never resolved: the proxy answers
        config = validated(
            LLMConfig,
            {"provider": provider_name, "base_url": "http://model.test/v1"}
            if provider_name == "openai"
            else {},
        )
        assert create_provider(provider_name, config).complete(Prompt(user="hi")).text == "ok"
        assert fake.requests[0].path.startswith("http://model.test/v1/")


def test_a_request_outside_any_call_still_has_a_deadline() -> None:
    seen: list[dict[str, float]] = []

    def far_side(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions["timeout"])
        return httpx.Response(200)

    bounded_client(httpx.MockTransport(far_side)).get("http://127.0.0.1/x")
    assert all(0 < limit <= 120 for limit in seen[0].values())
