"""Issue 22 #11: a 100,000-deep JSON body from a server, or a deep record planted on disk, is one clear error
line, never a RecursionError. Every far side is a fake server on 127.0.0.1."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from llm_fakes import FakeAnthropic, FakeOpenAI, Reply
from search_fakes import FakeSearchServer, fast_retry
from search_fakes import Reply as SearchReply

from generator import store
from generator.config import LLMConfig, validated
from generator.errors import ProviderResponseError, StoreError
from generator.http import bounded_transport, get_json
from generator.jsonbounds import MAX_JSON_DEPTH, NestingMeter, TooDeep, check_depth, loads
from generator.llm import openai as openai_provider
from generator.llm.base import Prompt, create_provider

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000


def test_the_meter_counts_structure_not_brackets_inside_strings() -> None:
    check_depth(json.dumps({"text": "[" * 5000 + '\\"{' * 5000}))
    check_depth("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)
    with pytest.raises(TooDeep, match=f"more than {MAX_JSON_DEPTH} levels"):
        check_depth("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    with pytest.raises(TooDeep):
        check_depth(DEEP.encode())
    assert loads(b'{"a": [1, {"b": "]]]"}]}') == {"a": [1, {"b": "]]]"}]}


def test_the_meter_follows_strings_and_escapes_across_pieces() -> None:
    text = '["a\\"[[[[", "\\\\", ' + "[" * 50 + "]" * 50 + "]"
    for cut in range(len(text)):
        meter = NestingMeter(limit=51)
        meter.feed(text[:cut].encode())
        meter.feed(text[cut:].encode())
        assert meter.depth == 0 and not meter.in_string, cut
    with pytest.raises(TooDeep):
        meter = NestingMeter(limit=50)
        meter.feed(text[:7])
        meter.feed(text[7:])


def test_a_deep_record_on_disk_is_one_store_error(tmp_path: Path) -> None:
    meta = tmp_path / "_meta.json"
    for deep in (DEEP, DEEP_OBJECT):
        meta.write_text(deep, encoding="utf-8")
        with pytest.raises(StoreError, match="JSON nested more than 100 levels deep") as caught:
            store.read_json(meta)
        assert "Recursion" not in caught.value.line()


@pytest.mark.parametrize("content_type", ["application/json", "text/html", None])
def test_a_deep_search_answer_is_refused_whatever_its_type(content_type: str | None) -> None:
    with FakeSearchServer() as server:
        server.route("/deep", SearchReply(200, DEEP, content_type=content_type))
        with pytest.raises(ProviderResponseError, match="JSON nested more than 100 levels deep"):
            get_json(f"{server.url}/deep", provider="searxng", retry=fast_retry())


def test_a_deep_compressed_search_answer_is_refused_once_decoded() -> None:
    with FakeSearchServer() as server:
        server.route(
            "/deep", SearchReply(200, gzip.compress(DEEP.encode()), headers={"content-encoding": "gzip"})
        )
        with pytest.raises(ProviderResponseError, match="JSON nested more than 100 levels deep"):
            get_json(f"{server.url}/deep", provider="searxng", retry=fast_retry())


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setattr(openai_provider, "BASE_DELAY", 0.0)
    with FakeOpenAI() as fake:
        yield fake


def test_a_deep_model_reply_is_refused_openai(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue(Reply.body(DEEP_OBJECT))
    provider = create_provider(
        "openai", validated(LLMConfig, {"provider": "openai", "base_url": fake_openai.base_url})
    )
    with pytest.raises(ProviderResponseError, match="JSON nested more than 100 levels deep"):
        provider.complete(Prompt(user="hello"))


def test_a_deep_model_reply_is_refused_anthropic(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("anthropic")
    with FakeAnthropic() as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        fake.queue(Reply.body(DEEP_OBJECT))
        provider = create_provider("anthropic", LLMConfig(max_retries=1))
        with pytest.raises(ProviderResponseError, match="JSON nested more than 100 levels deep"):
            provider.complete(Prompt(user="hello"))


def test_the_bounded_transport_meters_a_json_stream_as_it_arrives() -> None:
    with FakeSearchServer() as server:
        server.route("/deep", SearchReply(200, DEEP, content_type="application/json", chunked=True))
        server.route("/page", SearchReply(200, "<p>" + "[" * 500 + "</p>", content_type="text/html"))
        with httpx.Client(transport=bounded_transport()) as client:
            with pytest.raises(ProviderResponseError, match="JSON nested more than 100 levels deep"):
                client.get(f"{server.url}/deep")
            assert (
                client.get(f"{server.url}/page").status_code == 200
            )  # a page that is not JSON is not metered
