"""Prompt caching: the prefix sibling prompts share is sent as a cacheable block, and the cache read/write
tokens the server reports reach the run's usage and its cost."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from llm_fakes import FakeAnthropic, FakeOpenAI

from generator.config import LLMConfig
from generator.llm.anthropic import AnthropicProvider
from generator.llm.base import Prompt, create_provider
from generator.llm.cost import usage_cost

SHARED = "Repository map and facts.\n" + "src/module.py: parses things\n" * 400  # ~3,000 tokens


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    with FakeAnthropic(default="analysis", prompt_cache=True) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        yield server


def shard_prompt(name: str) -> Prompt:
    return Prompt(
        user=SHARED + f"Shard {name}: its files\n", system="You analyze code.", cache_prefix_chars=len(SHARED)
    )


def test_shared_prefix_is_marked_and_read_from_the_cache(fake: FakeAnthropic) -> None:
    provider = AnthropicProvider(LLMConfig(provider="anthropic", max_retries=0))
    first = provider.complete(shard_prompt("a"))
    second = provider.complete(shard_prompt("b"))
    content = fake.requests[0].json["messages"][0]["content"]
    assert content[0] == {"type": "text", "text": SHARED, "cache_control": {"type": "ephemeral"}}
    assert content[1] == {"type": "text", "text": "Shard a: its files\n"}
    assert first.cache_write_tokens > 2000 and first.cache_read_tokens == 0
    assert second.cache_read_tokens == first.cache_write_tokens and second.cache_write_tokens == 0
    assert second.input_tokens < 50  # only the shard's own text is billed in full
    usage = provider.usage
    assert (usage.cache_write_tokens, usage.cache_read_tokens) == (
        first.cache_write_tokens,
        second.cache_read_tokens,
    )
    # the cached run costs less than the same two prompts without a breakpoint
    cached_usd, _ = usage_cost(usage, provider.config)
    plain = AnthropicProvider(LLMConfig(provider="anthropic", max_retries=0))
    for name in ("a", "b"):
        plain.complete(Prompt(user=shard_prompt(name).user, system="You analyze code."))
    plain_usd, _ = usage_cost(plain.usage, plain.config)
    assert (
        fake.requests[-1].json["messages"][0]["content"] == shard_prompt("b").user
    )  # no blocks without a prefix
    assert cached_usd < plain_usd * 0.75


def test_providers_without_prompt_caching_send_the_whole_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI(default="ok") as server:
        provider = create_provider(
            "openai", LLMConfig(provider="openai", base_url=server.base_url, max_retries=0)
        )
        provider.complete(shard_prompt("a"))
        assert server.requests[0].prompt == shard_prompt("a").user
