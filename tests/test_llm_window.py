"""The model's window and streaming deadlines (issue 24): windows found once a run, prompts fitted before they
are sent, answers streamed under an idle deadline, local-server defaults; against fakes that enforce all of it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from llm_fakes import FakeAnthropic, FakeOpenAI, RecordedRequest, Reply, fake_token_count
from repo_output_fakes import is_analyst, make_project

from generator.app.topic_target import topic_target
from generator.cli import cli
from generator.config import Config, LLMConfig, is_local_url, validated
from generator.errors import PromptTooLarge, ProviderResponseError, ProviderTimeout
from generator.llm.base import Prompt, create_provider
from generator.llm.openai import listing_window, ollama_window, status_error
from generator.llm.window import DEFAULT_WINDOW, context_window, measured, prompt_tokens
from generator.store import read_page

# --- finding the window -------------------------------------------------------------------------------------


def test_the_window_is_asked_of_the_server_once_a_run() -> None:
    with FakeOpenAI(window=4096) as fake:
        provider = create_provider("openai", LLMConfig(provider="openai", base_url=fake.base_url))
        provider.complete(Prompt(user="one"))
        provider.complete(Prompt(user="two"))
        window = context_window(provider, "analyze")
    assert (window.tokens, "/props" in window.source) == (4096, True)
    assert fake.probes == ["/props"]  # asked once, for every call and stage of the run


def test_the_configured_window_wins_and_nothing_is_asked() -> None:
    with FakeOpenAI(window=32_768) as fake:
        config = LLMConfig(provider="openai", base_url=fake.base_url, context_window=16_384)
        provider = create_provider("openai", config)
        provider.complete(Prompt(user="one"))
    assert context_window(provider).tokens == 16_384 and fake.probes == []


def test_a_server_that_tells_nothing_gets_the_conservative_default_and_claude_its_known_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with FakeOpenAI(window=4096, advertise=False) as fake:
        provider = create_provider("openai", LLMConfig(provider="openai", base_url=fake.base_url))
        assert context_window(provider).tokens == DEFAULT_WINDOW
    assert fake.probes == ["/props", "/v1/models", "/api/show"]
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    claude = create_provider("anthropic", LLMConfig(model="claude-haiku-4-5"))
    assert context_window(claude).tokens == 200_000


def test_model_listings_and_ollama_say_the_window_in_their_own_fields() -> None:
    vllm = {
        "object": "list",
        "data": [{"id": "qwen", "max_model_len": 32768}, {"id": "other", "max_model_len": 4}],
    }
    assert listing_window(vllm, "qwen") == 32768
    llama = {"data": [{"id": "model.gguf", "meta": {"n_ctx_train": 8192}}]}
    assert listing_window(llama, "anything") == 8192  # the only model served
    assert listing_window({"data": [{"id": "a"}, {"id": "b"}]}, "c") is None
    show = {"model_info": {"llama.context_length": 131072}, "parameters": "num_ctx 16384\nstop <|eot|>"}
    assert ollama_window(show) == 16384
    assert ollama_window({"model_info": {"qwen2.context_length": 32768}}) == 4096  # Ollama's own default
    assert ollama_window({"model_info": {"x.context_length": 2048}, "parameters": "num_ctx 8192"}) == 2048


# --- fitting ------------------------------------------------------------------------------------------------


def test_the_estimate_never_counts_fewer_tokens_than_a_bpe_would() -> None:
    # the fake's tokenizer stands in for a real one: code, prose, a base64 run and CJK
    samples = [
        Path(__file__).read_text(encoding="utf-8"),
        "The quick brown fox jumps over the lazy dog. " * 40,
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=" * 50,
        "知识库的研究报告" * 100,
    ]
    for text in samples:
        assert measured(Prompt(user=text)) >= fake_token_count(text)
        assert prompt_tokens(text) >= len(text) / 3


def test_an_answer_is_lowered_to_fit_and_a_prompt_that_cannot_fit_is_not_sent() -> None:
    with FakeOpenAI(window=2048) as fake:
        provider = create_provider("openai", LLMConfig(provider="openai", base_url=fake.base_url))
        provider.complete(Prompt(user="word " * 300, max_tokens=4096))
        with pytest.raises(PromptTooLarge, match="2,048-token window"):
            provider.complete(Prompt(user="word " * 3000))
    [sent] = fake.requests
    assert 512 <= sent.json["max_tokens"] < 2048 - 300 and fake.refused == []


# --- streaming deadlines ------------------------------------------------------------------------------------

SLOW = " ".join(f"w{n}" for n in range(15))  # 15 tokens, one every 0.2 s: 3 s in all


def openai_provider(fake: FakeOpenAI, **options: object):
    return create_provider("openai", LLMConfig(provider="openai", base_url=fake.base_url, **options))  # type: ignore[arg-type]


def test_a_slow_model_that_keeps_producing_is_not_cut_off_by_the_idle_deadline() -> None:
    with FakeOpenAI() as fake:
        fake.queue(Reply.streaming(SLOW, every=0.2))
        done = openai_provider(fake, idle_timeout=1, timeout=30, max_retries=0).complete(Prompt(user="go"))
    assert done.text == SLOW and done.output_tokens == 7  # the usage chunk was read
    assert fake.requests[0].json["stream"] is True
    assert fake.requests[0].json["stream_options"] == {"include_usage": True}


def test_a_stalled_model_is_cut_off_by_the_idle_deadline_long_before_the_total() -> None:
    with FakeOpenAI() as fake:
        fake.queue(Reply.streaming(SLOW, every=0.05, stall_after=3))
        with pytest.raises(ProviderTimeout, match="sent nothing for 1 s") as caught:
            openai_provider(fake, idle_timeout=1, timeout=60, max_retries=0).complete(Prompt(user="go"))
    assert "llm.idle_timeout" in (caught.value.hint or "")


def test_anthropic_streams_under_the_same_idle_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    with FakeAnthropic() as fake:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        fake.queue(Reply.streaming(SLOW, every=0.2), Reply.streaming(SLOW, every=0.05, stall_after=3))
        provider = create_provider("anthropic", LLMConfig(idle_timeout=1, timeout=60, max_retries=0))
        done = provider.complete(Prompt(user="go"))
        assert (done.text, done.input_tokens, done.output_tokens) == (SLOW, 11, 7)
        with pytest.raises(ProviderTimeout, match="sent nothing for 1 s"):
            provider.complete(Prompt(user="again"))
    assert all(r.json["stream"] is True for r in fake.requests)


# --- defaults for a local server ----------------------------------------------------------------------------


def test_a_local_server_gets_one_call_at_a_time_and_long_deadlines_unless_set() -> None:
    local = validated(Config, {"llm": {"provider": "openai", "base_url": "http://127.0.0.1:8080/v1"}})
    assert (local.llm.max_concurrent, local.llm.timeout, local.llm.idle_timeout) == (1, 3600.0, 300.0)
    assert (local.repo.total_timeout, local.topic.total_timeout) == (0.0, 0.0)
    kept = validated(
        Config,
        {"llm": {"base_url": "http://ollama:11434/v1", "max_concurrent": 3}, "repo": {"total_timeout": 900}},
    )
    assert (kept.llm.max_concurrent, kept.repo.total_timeout, kept.llm.timeout) == (3, 900.0, 3600.0)
    hosted = validated(Config, {"llm": {"provider": "openai", "base_url": "https://openrouter.ai/api/v1"}})
    assert (hosted.llm.max_concurrent, hosted.repo.total_timeout) == (4, 180.0)


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://localhost:11434/v1", True),
        ("http://192.168.1.20:8000/v1", True),
        ("http://[::1]:8080/v1", True),
        ("http://gpu-box.lan/v1", True),
        ("https://api.openai.com/v1", False),
        ("http://8.8.8.8/v1", False),
        (None, False),
    ],
)
def test_local_urls(url: str | None, local: bool) -> None:
    assert is_local_url(url) is local


# --- the "done when": a 20-module repository against a server with an 8,192 or 2,048 window ----------


def twenty_modules() -> dict[str, str]:
    """A package of 20 modules of a few hundred lines each: more code per shard than an 8k window holds."""
    files = {"README.md": "# Ledger\n\nLedger keeps accounts, posts journal entries and prints reports.\n"}
    for n in range(20):
        name = f"ledger/part{n:02d}.py"
        uses = f"from ledger.part{n - 1:02d} import Book{n - 1:02d}\n\n" if n else ""
        methods = "".join(
            textwrap.dedent(f'''
                def step_{m}(self, amount: int, memo: str = "") -> int:
                    """Post step {m} of the book's closing: check the amount, record it and return the balance."""
                    if amount < 0:
                        raise ValueError(f"negative amount {{amount}} in step {m}")
                    self.entries.append((amount, memo or "step {m}"))
                    self.balance += amount * {m + 1}
                    return self.balance
            ''').replace("\n", "\n    ")
            for m in range(14)
        )
        files[name] = (
            f'"""Part {n} of the ledger: book {n:02d} posts and closes entries."""\n\n{uses}'
            f"class Book{n:02d}:\n"
            f'    """Book number {n}: a list of entries and a running balance."""\n\n'
            "    def __init__(self) -> None:\n        self.entries: list[tuple[int, str]] = []\n"
            f"        self.balance = 0\n{methods}\n"
        )
    files["ledger/__init__.py"] = '"""The ledger package."""\n'
    return files


def local_model(request: RecordedRequest) -> str:
    """A weak local model: every JSON stage gets text that is not JSON; an analysis cites a file it saw."""
    if request.json_mode:
        return "Sure! Here are the shards you asked for: shards = core, reports"
    if is_analyst(request):
        name = request.prompt.split("Subsystem: ", 1)[1].split(".", 1)[0]
        shown = request.prompt.split("==== FILE: ", 1)[1].split(" ", 1)[0]
        return f"Summary: {name} posts entries to the books.\n\n## Purpose\nIt posts entries ({shown}:1-3).\n"
    return "The ledger keeps books."


def run_against(tmp_path: Path, fake: FakeOpenAI, window: int | None):
    root = make_project(tmp_path / "ledger", twenty_modules())
    kb = tmp_path / "kb"
    kb.mkdir()
    given = f"  context_window: {window}\n" if window else ""
    (kb / "deepkb.yml").write_text(
        f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n{given}  max_retries: 0\n", encoding="utf-8"
    )
    result = CliRunner().invoke(cli, ["--root", str(kb), "repo", "run", str(root), "--json"])
    return result, kb / "site_src" / "repos" / "acme" / "shop"


def test_an_8k_window_gets_every_shard_analysed_by_the_model(tmp_path: Path) -> None:
    with FakeOpenAI(default=local_model, window=8192, one_at_a_time=True) as fake:
        result, harvest = run_against(tmp_path, fake, 8192)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert fake.refused == [] and fake.peak_in_flight == 1  # all fitted; one call at a time (local defaults)
    assert data["planner"] == "heuristic" and not data["shards_fallen_back"]
    index_meta, index = read_page(harvest / "index.md")
    assert "dependency-graph heuristic planned the shards" in index
    analysts = [r for r in fake.requests if is_analyst(r)]
    assert len(analysts) == len(index_meta["shards"]) >= 3
    cut = 0
    for page in index_meta["shards"]:
        meta, body = read_page(harvest / page)
        assert meta["provider"] == "openai" and "fallback" not in meta
        assert "## Analysis" in body and "posts entries" in body  # no shard page is empty
        cut += "its prompt was fitted to the model's 8,192-token context window" in body
    assert cut >= 1  # a shard larger than the window says what the model saw
    for request in analysts:
        assert fake.requested_tokens(request) <= 8192


def test_a_refusal_that_names_the_window_fits_the_rest_of_the_run_to_it(tmp_path: Path) -> None:
    """A server that tells nothing (llama-cpp-python) is assumed to hold 8,192 tokens; its first refusal says
    4,096, and from then on every prompt is fitted to that: no shard is lost to the wrong guess."""
    with FakeOpenAI(default=local_model, window=4096, advertise=False) as fake:
        result, harvest = run_against(tmp_path, fake, None)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert len(fake.refused) == 1 and not data["shards_fallen_back"]
    pages = [read_page(harvest / page) for page in read_page(harvest / "index.md")[0]["shards"]]
    assert all(meta["provider"] == "openai" for meta, _ in pages)
    assert any("fitted to the model's 4,096-token context window" in body for _, body in pages)


def test_a_2k_window_leaves_every_shard_to_the_offline_analyst_labelled(tmp_path: Path) -> None:
    with FakeOpenAI(default=local_model, window=2048) as fake:
        result, harvest = run_against(tmp_path, fake, 2048)
    assert result.exit_code == 3, result.stderr
    data = json.loads(result.stdout)
    assert data["shards_failed"] == [] and len(data["shards_fallen_back"]) == data["shards_analyzed"] > 0
    assert fake.refused == [] and not [r for r in fake.requests if is_analyst(r)]  # nothing sent to fail
    for fell in data["shards_fallen_back"]:
        assert "does not fit the model's 2,048-token window" in fell["reason"]
        meta, body = read_page(harvest / fell["page"])
        assert meta["provider"] == "offline" and "Produced offline" in body and "## Key types" in body


@pytest.mark.parametrize("fake_class", [FakeOpenAI, FakeAnthropic])
def test_a_streamed_event_nested_too_deep_is_refused(
    fake_class: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = "data: " + '{"a": ' * 200 + "1" + "}" * 200 + "\n\n"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    with fake_class() as fake:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        fake.queue(Reply(raw=deep, headers={"content-type": "text/event-stream"}))
        name = "openai" if fake_class is FakeOpenAI else "anthropic"
        provider = create_provider(name, LLMConfig(provider=name, base_url=fake.base_url, max_retries=0))
        with pytest.raises(ProviderResponseError, match="nested more than 100 levels deep"):
            provider.complete(Prompt(user="go"))


@pytest.mark.parametrize(
    ("body", "window"),
    [
        ({"error": {"message": "the request exceeds the available context size", "n_ctx": 4096}}, 4096),
        ({"error": {"message": "This model's maximum context length is 32,768 tokens. However, ..."}}, 32768),
        ({"error": {"message": "Requested tokens (9000) exceed context window of 2048"}}, 2048),
        ({"error": {"message": "prompt is too long"}}, None),
    ],
)
def test_a_refusal_names_the_window_in_each_servers_words(body: dict, window: int | None) -> None:
    request = httpx.Request("POST", "http://127.0.0.1:8080/v1/chat/completions")
    error = status_error(httpx.Response(400, json=body, request=request), "m")
    assert isinstance(error, PromptTooLarge) and error.window == window


def test_every_topic_stage_fits_a_small_window(kb_root: Path) -> None:
    """Planner, judge, analyst, aggregation and charts against a 1,024-token server: listings are cut to fit
    (unfitted, the judge's and the analyst's prompts run past it), nothing is refused, the stages still use the
    model, and answers are lowered to what the window leaves."""
    from test_topic_llm import Team
    from topic_fakes import config, entry, make_corpus, openai_provider

    from generator.site.pages.topic import publish_topic
    from generator.store import KBPaths
    from generator.topic.pipeline import run_topic_research

    make_corpus(kb_root)
    team = Team([])
    with FakeOpenAI(default=team, window=1024) as fake:
        provider = openai_provider(fake.base_url)
        run_topic_research(
            KBPaths(kb_root),
            config(),
            provider,
            topic_target(KBPaths(kb_root), entry(), verify=False),
            publish=publish_topic,
        )
    assert fake.failures == [] and fake.refused == []
    assert all(fake.requested_tokens(r) <= 1024 for r in fake.requests)
    assert {"plan", "judge", "analyze", "aggregate"} <= set(team.roles)
    assert all(512 <= r.json["max_tokens"] < 1024 for r in fake.requests)
