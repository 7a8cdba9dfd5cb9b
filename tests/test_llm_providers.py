"""The anthropic and openai providers, through their real client code, against fake servers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import httpx
import msgspec
import pytest
from click.testing import CliRunner
from llm_fakes import FakeAnthropic, FakeOpenAI, RecordedRequest, Reply

from generator.cli import cli
from generator.cli.app import App
from generator.config import LLMConfig, validated
from generator.errors import (
    ConfigError,
    PromptTooLarge,
    ProviderAuthError,
    ProviderError,
    ProviderRateLimited,
    ProviderResponseError,
    ProviderTimeout,
)
from generator.llm import openai as openai_provider
from generator.llm.base import Prompt, create_provider, select_provider_name
from generator.llm.cost import cost_record, usage_line

# The SDK honours retry-after-ms; a tiny wait keeps the 529 retries quick without touching SDK internals.
FAST_RETRY = {"retry-after-ms": "5"}


@pytest.fixture
def fake_anthropic(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        yield fake


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setattr(openai_provider, "BASE_DELAY", 0.0)
    with FakeOpenAI() as fake:
        yield fake


def openai_config(fake: FakeOpenAI, **overrides: object) -> LLMConfig:
    return validated(LLMConfig, {"provider": "openai", "base_url": fake.base_url, **overrides})


# --- anthropic ---------------------------------------------------------------------------------------------


def test_anthropic_529_529_200_succeeds(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(
        Reply.error(529, "Overloaded", headers=FAST_RETRY),
        Reply.error(529, "Overloaded", headers=FAST_RETRY),
        "done",
    )
    provider = create_provider("anthropic", LLMConfig(max_retries=3))
    completion = provider.complete(Prompt(user="hello"))
    assert completion.text == "done"
    assert len(fake_anthropic.requests) == 3
    assert provider.usage.calls == 1


def test_anthropic_overloaded_past_retries_is_rate_limited(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.default = Reply.error(529, "Overloaded", headers=FAST_RETRY)
    provider = create_provider("anthropic", LLMConfig(max_retries=2))
    with pytest.raises(ProviderRateLimited, match="Overloaded"):
        provider.complete(Prompt(user="hello"))
    assert len(fake_anthropic.requests) == 3


@pytest.mark.parametrize(("status", "message"), [(400, "max_tokens: too large"), (401, "invalid x-api-key")])
def test_anthropic_refusals_are_tried_once(fake_anthropic: FakeAnthropic, status: int, message: str) -> None:
    fake_anthropic.queue(Reply.error(status, message))
    provider = create_provider("anthropic", LLMConfig(max_retries=3))
    with pytest.raises(ProviderAuthError) as caught:
        provider.complete(Prompt(user="hello"))
    assert len(fake_anthropic.requests) == 1
    line = caught.value.line()
    assert message in line and str(status) in line and "\n" not in line


def almost_spent() -> Callable[[], float]:
    """A clock on which 0.8 s pass at every reading: a 1 s deadline leaves the request 0.2 s."""
    now = [0.0]

    def read() -> float:
        now[0] += 0.8
        return now[0]

    return read


def test_anthropic_hang_hits_the_timeout(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(Reply.hanging(30))
    provider = create_provider("anthropic", LLMConfig(timeout=1, max_retries=0))
    provider.retry = replace(provider.retry, clock=almost_spent())  # type: ignore[attr-defined]
    with pytest.raises(ProviderTimeout):
        provider.complete(Prompt(user="hello"))
    assert len(fake_anthropic.requests) == 1


@pytest.mark.parametrize("body", ["{not json", '{"type": "message", "role": "assistant"}', '{"content": []}'])
def test_anthropic_malformed_body(fake_anthropic: FakeAnthropic, body: str) -> None:
    fake_anthropic.queue(Reply.body(body))
    provider = create_provider("anthropic", LLMConfig(max_retries=0))
    with pytest.raises(ProviderResponseError):
        provider.complete(Prompt(user="hello"))


def test_anthropic_usage_stage_model_and_json_mode_on_the_wire(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(Reply(text='{"a": 1}', input_tokens=123, output_tokens=45), "plain")
    config = LLMConfig(
        model="claude-haiku-4-5", models={"architect": "claude-opus-5-5"}, max_output_tokens=1000
    )
    provider = create_provider("anthropic", config)
    first = provider.complete(
        Prompt(user="plan", system="You are an architect.", stage="architect", json_mode=True)
    )
    second = provider.complete(Prompt(user="look", stage="analyze", max_tokens=300))
    assert (second.text, second.model) == ("plain", "claude-haiku-4-5")
    assert (first.input_tokens, first.output_tokens, first.model) == (123, 45, "claude-opus-5-5")
    sent_first, sent_second = fake_anthropic.requests
    assert sent_first.model == "claude-opus-5-5" and sent_second.model == "claude-haiku-4-5"
    assert sent_first.system is not None and sent_first.system.startswith("You are an architect.")
    assert "JSON" in sent_first.system and sent_second.system is None
    assert sent_first.json["max_tokens"] == 1000 and sent_second.json["max_tokens"] == 300
    assert sent_first.prompt == "plan"
    assert provider.usage.input_tokens == 123 + 11


def test_anthropic_missing_key_names_the_variable() -> None:
    with pytest.raises(ProviderAuthError) as caught:
        create_provider("anthropic", LLMConfig())
    assert "ANTHROPIC_API_KEY" in caught.value.line() and "--provider offline" in caught.value.line()
    with pytest.raises(ProviderAuthError, match="TEAM_CLAUDE_KEY"):
        create_provider("anthropic", LLMConfig(provider="anthropic", api_key_env="TEAM_CLAUDE_KEY"))


def test_anthropic_config_base_url_and_custom_key_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEAM_CLAUDE_KEY", "sk-team-123")
    with FakeAnthropic(default="hi") as fake:
        config = LLMConfig(provider="anthropic", base_url=fake.base_url, api_key_env="TEAM_CLAUDE_KEY")
        assert create_provider("anthropic", config).complete(Prompt(user="x")).text == "hi"
        headers = fake.requests[0].headers
    assert "sk-team-123" in headers.get("x-api-key", "") + headers.get("authorization", "")


# --- openai-compatible ---------------------------------------------------------------------------------------


def test_openai_429_500_200_succeeds(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue(Reply.error(429, "slow down", retry_after="0"), Reply.error(500, "boom"), "done")
    provider = create_provider("openai", openai_config(fake_openai, max_retries=3))
    assert provider.complete(Prompt(user="hello")).text == "done"
    assert len(fake_openai.requests) == 3


def test_openai_429_past_retries_is_rate_limited(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = Reply.error(429, "Rate limit reached")
    provider = create_provider("openai", openai_config(fake_openai, max_retries=2))
    with pytest.raises(ProviderRateLimited, match="Rate limit reached"):
        provider.complete(Prompt(user="hello"))
    assert len(fake_openai.requests) == 3


@pytest.mark.parametrize(("status", "message"), [(400, "Invalid model"), (401, "Incorrect API key provided")])
def test_openai_refusals_are_tried_once(fake_openai: FakeOpenAI, status: int, message: str) -> None:
    fake_openai.queue(Reply.error(status, message))
    provider = create_provider("openai", openai_config(fake_openai, max_retries=3))
    with pytest.raises(ProviderAuthError) as caught:
        provider.complete(Prompt(user="hello"))
    assert len(fake_openai.requests) == 1
    line = caught.value.line()
    assert message in line and str(status) in line and "\n" not in line


@pytest.mark.parametrize(
    "message",
    [
        "the request exceeds the available context size, try increasing it",  # llama.cpp server
        "This model's maximum context length is 8192 tokens. However, you requested 13400 tokens.",  # vLLM
        "Input exceeds the context window of this model",
    ],
)
def test_openai_context_overflow_is_its_own_error(fake_openai: FakeOpenAI, message: str) -> None:
    """A prompt larger than the model's window is not "the request was refused": it says what to set, it is
    not retried, and (not being an auth error) the stages fall back on it instead of stopping the run."""
    fake_openai.queue(Reply.error(400, message))
    provider = create_provider("openai", openai_config(fake_openai, max_retries=3))
    with pytest.raises(PromptTooLarge) as caught:
        provider.complete(Prompt(user="hello"))
    assert len(fake_openai.requests) == 1 and not isinstance(caught.value, ProviderAuthError)
    line = caught.value.line()
    assert line.startswith("the prompt does not fit the model's window") and message in line
    assert "--ctx-size" in line and "refused" not in line


def test_openai_ollama_style_error_string(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue(
        Reply.body('{"error": "model \\"llama9\\" not found, try pulling it first"}', status=404)
    )
    provider = create_provider("openai", openai_config(fake_openai, model="llama9"))
    with pytest.raises(ProviderAuthError, match="try pulling it first"):
        provider.complete(Prompt(user="hello"))


def test_openai_hang_hits_the_timeout(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue(Reply.hanging(30))
    provider = create_provider("openai", openai_config(fake_openai, timeout=1, max_retries=2))
    provider.retry = replace(provider.retry, clock=almost_spent())  # type: ignore[attr-defined]
    with pytest.raises(ProviderTimeout):
        provider.complete(Prompt(user="hello"))
    assert len(fake_openai.requests) == 1


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        '{"choices": []}',
        '{"choices": [{"message": {"role": "assistant", "content": null}}]}',
        "[1]",
    ],
)
def test_openai_malformed_body(fake_openai: FakeOpenAI, body: str) -> None:
    fake_openai.queue(Reply.body(body))
    provider = create_provider("openai", openai_config(fake_openai))
    with pytest.raises(ProviderResponseError):
        provider.complete(Prompt(user="hello"))
    assert len(fake_openai.requests) == 1


def test_openai_usage_stage_model_json_mode_and_key(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-999")
    fake_openai.queue(Reply(text='{"a": 1}', input_tokens=77, output_tokens=5), "plain")
    provider = create_provider(
        "openai", openai_config(fake_openai, models={"report": "qwen3:32b"}, model="llama3.2")
    )
    first = provider.complete(Prompt(user="write", stage="report", json_mode=True))
    provider.complete(Prompt(user="look", stage="analyze"))
    assert (first.text, first.input_tokens, first.output_tokens, first.model) == (
        '{"a": 1}',
        77,
        5,
        "qwen3:32b",
    )
    sent_first, sent_second = fake_openai.requests
    assert (sent_first.model, sent_second.model) == ("qwen3:32b", "llama3.2")
    assert sent_first.json["response_format"] == {"type": "json_object"}
    assert "JSON" in (
        sent_first.system or ""
    )  # OpenAI rejects json_object mode without the word in a message
    assert "response_format" not in sent_second.json and sent_second.system is None
    assert sent_first.json["max_tokens"] == 4096  # local servers get max_tokens, not max_completion_tokens
    assert sent_first.headers["authorization"] == "Bearer sk-test-999"


def test_openai_without_key_sends_no_authorization(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    provider = create_provider("openai", LLMConfig())  # base URL from the environment
    assert provider.complete(Prompt(user="hi")).text == "ok"
    assert "authorization" not in fake_openai.requests[0].headers


def test_openai_unreachable_server_is_one_error_after_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openai_provider, "BASE_DELAY", 0.0)
    fake = FakeOpenAI().start()
    fake.stop()  # the port is now closed: connection refused
    provider = create_provider("openai", openai_config(fake, max_retries=1))
    with pytest.raises(ProviderError, match="could not reach"):
        provider.complete(Prompt(user="hi"))


def test_retry_after_seconds_date_and_cap(fake_openai: FakeOpenAI) -> None:
    policy = create_provider("openai", openai_config(fake_openai)).retry  # type: ignore[attr-defined]

    def wait(value: str) -> float:
        return float(policy.wait(0, httpx.Headers({"retry-after": value})))

    assert wait("2") == 2.0
    assert wait("0") == 0.0
    assert wait("86400") == openai_provider.MAX_DELAY
    assert wait("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date in the past: retry now
    assert wait("Wed, 21 Oct 2099 07:28:00 GMT") == openai_provider.MAX_DELAY
    assert wait("Wed, 21 Oct 2099 07:28:00 -0000") == openai_provider.MAX_DELAY
    for unreadable in ("soon", "nan"):
        assert wait(unreadable) == 0.0  # unreadable: the backoff curve, which the fixture set to 0


# --- selection, offline and the CLI ---------------------------------------------------------------------------


def test_selection_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    configured = LLMConfig(provider="openai")
    assert select_provider_name(None, LLMConfig()).name == "offline"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert select_provider_name(None, LLMConfig()).name == "anthropic"
    assert select_provider_name(None, configured).name == "openai"
    monkeypatch.setenv("DEEPKB_PROVIDER", "offline")
    assert select_provider_name(None, configured).name == "offline"
    chosen = select_provider_name("anthropic", configured)
    assert (chosen.name, chosen.reason) == ("anthropic", "--provider")


def test_offline_provider_is_deterministic() -> None:
    prompt = Prompt(user="Parsers split text. Evaluators compute sums. The CLI prints results. " * 3)
    first = create_provider("offline", LLMConfig()).complete(prompt)
    second = create_provider("offline", LLMConfig()).complete(prompt)
    assert first == second and first.text
    assert first.provider == "offline"


def test_missing_key_through_the_cli_app_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "deepkb.yml").write_text("repos: []\n", encoding="utf-8")
    with pytest.raises(ProviderAuthError) as caught:
        App(root=tmp_path, provider_flag="anthropic").provider()
    assert "ANTHROPIC_API_KEY" in caught.value.line()


def test_repo_run_with_anthropic_and_no_key_fails_with_one_line(sample_repo: Path, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    (root / "deepkb.yml").write_text("repos: []\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["--root", str(root), "--provider", "anthropic", "repo", "run", str(sample_repo)]
    )
    if "not implemented" in result.output:
        pytest.skip("deepkb repo run is not implemented yet")
    assert result.exit_code != 0
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "ANTHROPIC_API_KEY" in errors[0]
    assert "Traceback" not in result.output


def test_openai_base_url_without_scheme_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="localhost:11434"):
        create_provider("openai", LLMConfig(provider="openai", base_url="localhost:11434/v1"))


def test_openai_dot_com_gets_max_completion_tokens() -> None:
    provider = create_provider("openai", LLMConfig(provider="openai"))  # the default base URL
    assert isinstance(provider, openai_provider.OpenAIProvider)
    request = msgspec.to_builtins(provider._request(Prompt(user="x", max_tokens=100), "gpt-4o-mini"))
    assert request["max_completion_tokens"] == 100 and "max_tokens" not in request


def test_concurrent_calls_each_get_their_own_answer(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = lambda request: f"echo {request.prompt}"
    provider = create_provider("openai", openai_config(fake_openai))
    prompts = [f"question {n}" for n in range(8)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda text: provider.complete(Prompt(user=text)).text, prompts))
    assert answers == [f"echo {text}" for text in prompts]
    assert sorted(r.prompt for r in fake_openai.requests) == sorted(prompts)
    assert provider.usage.calls == 8


def test_fake_reports_a_failing_callable(fake_openai: FakeOpenAI) -> None:
    def broken(request: RecordedRequest) -> str:
        raise ZeroDivisionError(request.prompt)

    fake_openai.default = broken
    provider = create_provider("openai", openai_config(fake_openai, max_retries=0))
    with pytest.raises(ProviderError, match="ZeroDivisionError"):
        provider.complete(Prompt(user="x"))
    assert len(fake_openai.failures) == 1
    FakeAnthropic().stop()  # stopping a fake that never started returns at once


# --- token counts a server reports (issue 22 #16) -----------------------------------------------------------

ANTHROPIC_BODY = (  # a streamed answer: the input count comes in message_start, the output in message_delta
    'event: message_start\ndata: {"type": "message_start", "message": {"id": "msg_1", "type": "message",'
    ' "role": "assistant", "model": "claude-fake", "content": [], "stop_reason": null,'
    ' "usage": {"input_tokens": %s, "output_tokens": 1}}}\n\n'
    'event: content_block_start\ndata: {"type": "content_block_start", "index": 0,'
    ' "content_block": {"type": "text", "text": ""}}\n\n'
    'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0,'
    ' "delta": {"type": "text_delta", "text": "hi"}}\n\n'
    'event: content_block_stop\ndata: {"type": "content_block_stop", "index": 0}\n\n'
    'event: message_delta\ndata: {"type": "message_delta", "delta": {"stop_reason": "end_turn"},'
    ' "usage": {"output_tokens": %s}}\n\n'
    'event: message_stop\ndata: {"type": "message_stop"}\n\n'
)
OPENAI_BODY = (
    '{"model": "gpt-fake", "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}],'
    ' "usage": {"prompt_tokens": %s, "completion_tokens": %s}}'
)
IMPLAUSIBLE = [("-5", "1e400"), ("99999999999999", "3.5"), ('"12"', "true")]


# the SDK's stream accumulator coerces '"12"' and 'true' to integers itself, before deepkb sees them
@pytest.mark.parametrize(("first", "second"), IMPLAUSIBLE[:2])
def test_anthropic_implausible_token_counts_are_stored_as_zero(
    fake_anthropic: FakeAnthropic, first: str, second: str
) -> None:
    streamed = Reply(raw=ANTHROPIC_BODY % (first, second), headers={"content-type": "text/event-stream"})
    fake_anthropic.queue(streamed, Reply(input_tokens=5, output_tokens=2))
    provider = create_provider("anthropic", LLMConfig(model="claude-haiku-4-5"))
    done = provider.complete(Prompt(user="hi"))
    provider.complete(Prompt(user="again"))
    assert (done.text, done.input_tokens, done.output_tokens, done.refused_counts) == ("hi", 0, 0, 2)
    assert (provider.usage.input_tokens, provider.usage.output_tokens, provider.usage.refused_counts) == (
        5,
        2,
        2,
    )
    record = cost_record(provider.usage, LLMConfig(), "anthropic")
    assert record.refused_token_counts == 2
    assert "2 implausible token count(s) from the server stored as 0" in usage_line(
        provider.usage, LLMConfig()
    )


@pytest.mark.parametrize(("first", "second"), IMPLAUSIBLE)
def test_openai_implausible_token_counts_are_stored_as_zero(
    fake_openai: FakeOpenAI, first: str, second: str
) -> None:
    fake_openai.queue(Reply.body(OPENAI_BODY % (first, second)))
    provider = create_provider("openai", openai_config(fake_openai))
    done = provider.complete(Prompt(user="hi"))
    assert (done.text, done.input_tokens, done.output_tokens, done.refused_counts) == ("hi", 0, 0, 2)
    assert provider.usage.refused_counts == 2 and provider.usage.input_tokens == 0
    # a server that sends no usage at all still gets an estimate, not a note
    fake_openai.queue(Reply.body('{"choices": [{"message": {"content": "hello there"}}]}'))
    plain = provider.complete(Prompt(user="count me"))
    assert plain.refused_counts == 0 and plain.input_tokens > 0 and plain.output_tokens > 0


def test_a_served_model_file_is_recorded_by_its_name_never_its_path(fake_openai: FakeOpenAI) -> None:
    # llama.cpp's server names its model by the file it loaded; pages, records and the committed site_src/
    # would publish this machine's path
    served = "/home/someone/models/SmolLM2-135M-Instruct-Q8_0.gguf"
    fake_openai.queue(Reply(text="hi"))
    provider = create_provider("openai", openai_config(fake_openai, model=served))
    assert provider.complete(Prompt(user="hi")).model == "SmolLM2-135M-Instruct-Q8_0"
    assert fake_openai.requests[-1].model == served  # the server is still asked for what it serves
    record = cost_record(provider.usage, LLMConfig(), "openai")
    assert record.models == ["SmolLM2-135M-Instruct-Q8_0"]


@pytest.mark.parametrize("status", [429, 500])
def test_both_providers_word_a_final_status_alike(
    fake_anthropic: FakeAnthropic, fake_openai: FakeOpenAI, status: int
) -> None:
    # one status table (llm.base.status_failure): a server still busy, or still failing, after the
    # retries gets the same advice whichever provider met it
    fake_anthropic.default = Reply.error(status, "boom", headers=FAST_RETRY)
    fake_openai.default = Reply.error(status, "boom", retry_after="0")
    errors = []
    for provider in (
        create_provider("anthropic", LLMConfig(max_retries=1)),
        create_provider("openai", openai_config(fake_openai, max_retries=1)),
    ):
        with pytest.raises(ProviderError) as caught:
            provider.complete(Prompt(user="hello"))
        errors.append(caught.value)
    assert type(errors[0]) is type(errors[1])
    assert errors[0].hint == errors[1].hint and "boom" in errors[0].line() and "boom" in errors[1].line()
