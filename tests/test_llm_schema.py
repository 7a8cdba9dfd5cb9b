"""Constrained JSON: JSON stages send their schema (OpenAI `response_format`, Anthropic tool use), a server
without schema mode is asked without it for the rest of the run, and every stage's outcome is counted."""

from __future__ import annotations

import json
from pathlib import Path

import pydantic
import pytest
from click.testing import CliRunner
from llm_fakes import FakeAnthropic, FakeOpenAI, Reply
from repo_output_fakes import is_architect, make_project, scripted_reply

from generator.cli import cli
from generator.config import LLMConfig, validated
from generator.llm import open_provider
from generator.llm.base import Prompt, create_provider
from generator.llm.openai import strict_compatible
from generator.llm.structured import complete_json
from generator.store import KBPaths


class Finding(pydantic.BaseModel):
    title: str
    score: int = 0


class Strict(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    title: str
    tags: list[str]


GOOD = '{"title": "x", "score": 3}'
PROMPT = Prompt(user="rate it", stage="evaluate")


def openai_config(fake: FakeOpenAI) -> LLMConfig:
    return validated(LLMConfig, {"provider": "openai", "base_url": fake.base_url, "max_retries": 0})


def test_a_json_stage_sends_its_schema_to_an_openai_compatible_server(tmp_path: Path) -> None:
    with FakeOpenAI(default=GOOD) as fake:
        provider, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        parsed, notes = complete_json(provider, PROMPT, Finding)
    assert parsed == Finding(title="x", score=3) and notes == []
    assert fake.requests[0].json["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Finding", "schema": Finding.model_json_schema(), "strict": False},
    }
    tally = provider.usage.json_stages["evaluate"]
    assert (tally.valid, tally.repaired, tally.fallen_back, tally.schema_refused) == (1, 0, 0, 0)


class Claim(pydantic.BaseModel):
    text: str = pydantic.Field(min_length=3, max_length=600)
    pattern: list[str] = pydantic.Field(
        default_factory=list, max_length=20
    )  # a property named like a keyword


def test_size_limits_are_not_sent_but_still_checked(tmp_path: Path) -> None:
    """A grammar server unrolls maxLength into a rule per character (llama-cpp-python's dies on 600): the
    schema sent has no size limits, the reply is still validated against them."""
    with FakeOpenAI(default=json.dumps({"text": "x" * 700})) as fake:
        fake.queue(json.dumps({"text": "short", "pattern": ["a"]}))
        provider, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        parsed, _ = complete_json(provider, PROMPT, Claim)
        too_long, notes = complete_json(provider, Prompt(user="again", stage="evaluate"), Claim)
    sent = fake.requests[0].schema
    assert sent is not None and "pattern" in sent["properties"]
    assert "maxLength" not in json.dumps(sent) and "maxItems" not in json.dumps(sent)
    assert sent["properties"]["text"]["minLength"] == 3  # a small lower limit unrolls to little: sent
    assert parsed == Claim(text="short", pattern=["a"])
    assert too_long is None and "at most 600 characters" in notes[0]


def test_strict_mode_only_for_schemas_openai_accepts_strictly() -> None:
    assert strict_compatible(Strict.model_json_schema())
    assert not strict_compatible(Finding.model_json_schema())  # `score` has a default: not required


def test_a_server_without_schema_mode_is_asked_without_it_for_the_rest_of_the_run(tmp_path: Path) -> None:
    with FakeOpenAI(default=GOOD, schema_mode=False) as fake:
        provider, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        first, notes = complete_json(provider, PROMPT, Finding)
        second, _ = complete_json(provider, Prompt(user="and this one", stage="plan"), Finding)
    sent = [request.json["response_format"] for request in fake.requests]
    assert [f["type"] for f in sent] == ["json_schema", "json_object", "json_object", "json_object"]
    assert "schema" in sent[1] and "schema" not in sent[2]  # refused in both shapes, then remembered
    assert first == second == Finding(title="x", score=3)
    assert "refused schema mode" in notes[0] and "response_format" in notes[0]
    assert provider.usage.json_stages["evaluate"].schema_refused == 1
    assert provider.usage.json_stages["plan"].schema_refused == 1


def test_llama_cpp_python_gets_the_schema_inside_json_object(tmp_path: Path) -> None:
    """llama-cpp-python's server answers 422 to the json_schema type but constrains a json_object to the
    `schema` it carries: asked that way for the rest of the run, the schema still counts as accepted."""
    with FakeOpenAI(default=GOOD, schema_mode="in_json_object") as fake:
        provider, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        first, notes = complete_json(provider, PROMPT, Finding)
        complete_json(provider, Prompt(user="and this one", stage="plan"), Finding)
    sent = [request.json["response_format"] for request in fake.requests]
    assert [f["type"] for f in sent] == ["json_schema", "json_object", "json_object"]
    assert sent[1]["schema"] == sent[2]["schema"] == Finding.model_json_schema()
    assert first == Finding(title="x", score=3) and notes == []
    assert provider.usage.json_stages["evaluate"].schema_refused == 0


def test_a_reply_that_never_validates_falls_back_and_is_not_cached(tmp_path: Path) -> None:
    with FakeOpenAI(default="1. This is a bit of code") as fake:
        provider, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        parsed, notes = complete_json(provider, PROMPT, Finding)
        assert parsed is None and "repair reply did not fit" in notes[-1]
        assert len(fake.requests) == 2
        # the next run asks the model again instead of reading back the replies that did not validate
        again, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        complete_json(again, PROMPT, Finding)
        assert len(fake.requests) == 4
    assert provider.usage.json_stages["evaluate"].fallen_back == 1


def test_a_valid_reply_is_cached(tmp_path: Path) -> None:
    with FakeOpenAI(default=GOOD) as fake:
        provider, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        complete_json(provider, PROMPT, Finding)
        again, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        parsed, _ = complete_json(again, PROMPT, Finding)
    assert parsed == Finding(title="x", score=3) and len(fake.requests) == 1


def test_a_repaired_reply_is_counted_as_repaired(tmp_path: Path) -> None:
    with FakeOpenAI(default=GOOD) as fake:
        fake.queue("not json at all")
        provider, _ = open_provider(KBPaths(tmp_path), openai_config(fake))
        parsed, _ = complete_json(provider, PROMPT, Finding)
    assert parsed is not None and provider.usage.json_stages["evaluate"].repaired == 1
    assert fake.requests[1].schema == Finding.model_json_schema()  # the repair round keeps the schema


def test_anthropic_json_stages_force_a_tool_with_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeAnthropic(default=GOOD) as fake:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        provider = create_provider("anthropic", LLMConfig(provider="anthropic", max_retries=0))
        parsed, notes = complete_json(provider, PROMPT, Finding)
    body = fake.requests[0].json
    assert body["tools"] == [
        {
            "name": "Finding",
            "description": "Record the reply as structured data.",
            "input_schema": Finding.model_json_schema(),
        }
    ]
    assert body["tool_choice"] == {"type": "tool", "name": "Finding"}
    assert parsed == Finding(title="x", score=3) and notes == []


def test_an_anthropic_compatible_server_refusing_tools_is_asked_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with FakeAnthropic(default=GOOD) as fake:
        fake.queue(Reply.error(400, "tools: extra inputs are not permitted"))
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        provider = create_provider("anthropic", LLMConfig(provider="anthropic", max_retries=0))
        parsed, _ = complete_json(provider, PROMPT, Finding)
        complete_json(provider, PROMPT, Finding)
    assert parsed == Finding(title="x", score=3)
    assert ["tools" in request.json for request in fake.requests] == [True, False, False]


def test_repo_run_counts_json_stages_and_says_when_one_fell_back(tmp_path: Path) -> None:
    root = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()

    def reply(request):  # the architect answers prose: its stage falls back to the heuristic plan
        return "1. The plan is good." if is_architect(request) else scripted_reply(request)

    with FakeOpenAI(default=reply) as fake:
        (kb / "deepkb.yml").write_text(
            f"llm:\n  provider: openai\n  base_url: {fake.base_url}\n  max_retries: 0\n", encoding="utf-8"
        )
        result = CliRunner().invoke(
            cli, ["--root", str(kb), "repo", "run", str(root)], catch_exceptions=False
        )
    architect = [request for request in fake.requests if is_architect(request)]
    assert architect and all(
        request.schema and request.schema["title"] == "ArchitectReply" for request in architect
    )
    cost = json.loads((kb / "site_src" / "repos" / "acme" / "shop" / "_cost.json").read_text())
    assert cost["json_stages"]["architect"] == {
        "valid": 0,
        "repaired": 0,
        "fallen_back": 1,
        "schema_refused": 0,
    }
    assert "JSON replies: architect 0 valid / 0 repaired / 1 fell back" in result.stderr
