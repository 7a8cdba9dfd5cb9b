"""The disk cache in front of a provider: a repeated prompt costs no request, across instances and processes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from llm_fakes import FakeAnthropic, FakeOpenAI, Reply

from generator.config import LLMConfig, validated
from generator.llm import open_provider
from generator.llm.base import Prompt
from generator.llm.cache import CachedProvider
from generator.store import KBPaths


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    with FakeOpenAI(
        default=lambda request: Reply(text=f"answer to {request.prompt}", input_tokens=9)
    ) as server:
        yield server


@pytest.fixture
def paths(tmp_path: Path) -> KBPaths:
    return KBPaths(tmp_path / "kb")


def config_for(fake: FakeOpenAI, **extra: object) -> LLMConfig:
    return validated(LLMConfig, {"provider": "openai", "base_url": fake.base_url, **extra})


def test_repeated_prompt_is_answered_from_disk(fake: FakeOpenAI, paths: KBPaths) -> None:
    provider, selection = open_provider(paths, config_for(fake))
    assert isinstance(provider, CachedProvider) and selection.name == "openai"
    first = provider.complete(Prompt(user="what is x?"))
    second = provider.complete(Prompt(user="what is x?"))
    assert len(fake.requests) == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.text == first.text == "answer to what is x?"
    assert second.input_tokens == 9
    assert (provider.usage.calls, provider.usage.cache_hits) == (1, 1)


def test_a_new_provider_instance_reads_the_same_cache(fake: FakeOpenAI, paths: KBPaths) -> None:
    open_provider(paths, config_for(fake))[0].complete(Prompt(user="q", stage="analyze"))
    again, _ = open_provider(paths, config_for(fake))
    completion = again.complete(Prompt(user="q", stage="analyze"))
    assert completion.cached and completion.text == "answer to q"
    assert len(fake.requests) == 1
    assert again.usage.calls == 0


def test_a_new_process_makes_no_request(fake: FakeOpenAI, paths: KBPaths) -> None:
    open_provider(paths, config_for(fake))[0].complete(Prompt(user="across processes"))
    script = (
        "import json, sys\n"
        "from generator.config import LLMConfig\n"
        "from generator.llm import open_provider\n"
        "from generator.llm.base import Prompt\n"
        "from generator.store import KBPaths\n"
        f"config = LLMConfig(provider='openai', base_url={fake.base_url!r})\n"
        f"provider, _ = open_provider(KBPaths({str(paths.root)!r}), config)\n"
        "c = provider.complete(Prompt(user='across processes'))\n"
        "print(json.dumps({'text': c.text, 'cached': c.cached}))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(run.stdout) == {"text": "answer to across processes", "cached": True}
    assert len(fake.requests) == 1


def test_model_system_and_json_mode_are_part_of_the_key(fake: FakeOpenAI, paths: KBPaths) -> None:
    provider, _ = open_provider(paths, config_for(fake, models={"architect": "big-model"}))
    provider.complete(Prompt(user="same"))
    provider.complete(Prompt(user="same", stage="architect"))  # another model
    provider.complete(Prompt(user="same", json_mode=True))
    provider.complete(Prompt(user="same", system="be brief"))
    provider.complete(Prompt(user="same", stage="report"))  # same model as the first: a hit
    assert len(fake.requests) == 4
    assert provider.usage.cache_hits == 1


def test_errors_are_not_cached(fake: FakeOpenAI, paths: KBPaths) -> None:
    fake.queue(Reply.error(401, "bad key"))
    provider, _ = open_provider(paths, config_for(fake))
    with pytest.raises(Exception, match="bad key"):
        provider.complete(Prompt(user="q"))
    assert provider.complete(Prompt(user="q")).text == "answer to q"
    assert len(fake.requests) == 2


def test_a_damaged_cache_entry_is_a_miss_and_is_rewritten(fake: FakeOpenAI, paths: KBPaths) -> None:
    provider, _ = open_provider(paths, config_for(fake))
    provider.complete(Prompt(user="q"))
    entries = list((paths.cache_dir / "llm").rglob("*.json"))
    assert len(entries) == 1
    entries[0].write_text("{truncated", encoding="utf-8")
    again, _ = open_provider(paths, config_for(fake))
    assert again.complete(Prompt(user="q")).text == "answer to q"
    assert len(fake.requests) == 2
    assert json.loads(entries[0].read_text(encoding="utf-8"))["text"] == "answer to q"


def test_a_cache_entry_of_another_version_is_a_miss(fake: FakeOpenAI, paths: KBPaths) -> None:
    provider, _ = open_provider(paths, config_for(fake))
    provider.complete(Prompt(user="q"))
    [entry] = list((paths.cache_dir / "llm").rglob("*.json"))
    stored = json.loads(entry.read_text(encoding="utf-8"))
    assert stored["version"] == 1
    del stored["version"]  # an entry written before entries carried a version
    entry.write_text(json.dumps({**stored, "text": "stale answer"}), encoding="utf-8")
    again, _ = open_provider(paths, config_for(fake))
    assert again.complete(Prompt(user="q")).text == "answer to q"
    assert len(fake.requests) == 2
    assert json.loads(entry.read_text(encoding="utf-8"))["version"] == 1


def test_anthropic_behind_the_cache(monkeypatch: pytest.MonkeyPatch, paths: KBPaths) -> None:
    with FakeAnthropic(default="claude says hi") as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        for _ in range(2):
            provider, selection = open_provider(paths, LLMConfig())
            assert selection.name == "anthropic"
            assert provider.complete(Prompt(user="hello")).text == "claude says hi"
        assert len(server.requests) == 1


def test_offline_is_not_cached(paths: KBPaths) -> None:
    provider, selection = open_provider(paths, LLMConfig())
    assert selection.name == "offline" and provider.offline
    provider.complete(Prompt(user="Some text to summarize. It has sentences."))
    assert not (paths.cache_dir / "llm").exists()
