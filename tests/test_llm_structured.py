"""complete_json / extract_json: fences, prose, one repair round, and clean fallbacks."""

from __future__ import annotations

import pydantic
import pytest

from generator.config import LLMConfig
from generator.errors import ProviderAuthError, ProviderTimeout
from generator.llm.base import Completion, Prompt, Provider, create_provider
from generator.llm.structured import NoJSONFound, complete_json, extract_json, parse_reply


class Finding(pydantic.BaseModel):
    title: str
    score: int


class ScriptedProvider(Provider):
    """Answers from a queue (text, or an exception to raise) and records every prompt."""

    name = "scripted"

    def __init__(self, replies: list[str | Exception]) -> None:
        super().__init__(LLMConfig())
        self.replies = list(replies)
        self.prompts: list[Prompt] = []

    def complete(self, prompt: Prompt) -> Completion:
        self.prompts.append(prompt)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return Completion(text=reply, model="m", provider=self.name)


@pytest.mark.parametrize(
    "text",
    [
        '{"title": "a", "score": 1}',
        '```json\n{"title": "a", "score": 1}\n```',
        'Here you go:\n```\n{"title": "a", "score": 1}\n```\nHope that helps.',
        'Sure! The answer [1] is {"title": "a", "score": 1} as requested.',
    ],
)
def test_extract_json_finds_the_object(text: str) -> None:
    assert extract_json(text) == {"title": "a", "score": 1}


def test_extract_json_array_and_failure() -> None:
    assert extract_json("list: [1, 2]") == [1, 2]
    with pytest.raises(NoJSONFound):
        extract_json("no json here {not: valid")


def test_valid_first_reply_needs_one_call_in_json_mode() -> None:
    provider = ScriptedProvider(['```json\n{"title": "x", "score": 3}\n```'])
    parsed, notes = complete_json(provider, Prompt(user="rate it", stage="analyze"), Finding)
    assert parsed == Finding(title="x", score=3)
    assert notes == []
    assert len(provider.prompts) == 1
    assert provider.prompts[0].json_mode is True
    assert provider.prompts[0].stage == "analyze"


def test_invalid_reply_is_repaired_once_quoting_the_error() -> None:
    provider = ScriptedProvider(['{"title": "x", "score": "many"}', '{"title": "x", "score": 7}'])
    parsed, notes = complete_json(provider, Prompt(user="rate it"), Finding)
    assert parsed == Finding(title="x", score=7)
    assert len(provider.prompts) == 2
    repair = provider.prompts[1].user
    assert "score" in repair and '"many"' in repair and "JSON object only" in repair
    assert provider.prompts[1].json_mode is True
    assert any("repaired" in note for note in notes)


def test_two_bad_replies_give_none_and_notes() -> None:
    provider = ScriptedProvider(["I cannot do that.", '{"title": 5}'])
    parsed, notes = complete_json(provider, Prompt(user="rate it"), Finding)
    assert parsed is None
    assert len(provider.prompts) == 2
    assert "no JSON object" in notes[0]
    assert "score" in notes[-1]


def test_repair_failure_is_a_note_but_auth_errors_propagate() -> None:
    provider = ScriptedProvider(["nope", ProviderTimeout("timed out")])
    parsed, notes = complete_json(provider, Prompt(user="q"), Finding)
    assert parsed is None and "timed out" in notes[-1]
    with pytest.raises(ProviderAuthError):
        complete_json(ScriptedProvider([ProviderAuthError("bad key")]), Prompt(user="q"), Finding)


def test_offline_provider_is_not_asked() -> None:
    offline = create_provider("offline", LLMConfig())
    parsed, notes = complete_json(offline, Prompt(user="q"), Finding)
    assert parsed is None and notes
    assert offline.usage.calls == 0


def test_a_reply_nested_beyond_bounds_is_a_bad_answer_not_a_crash() -> None:
    class Reply(pydantic.BaseModel):
        answer: str

    for text in ("[" * 100_000, '{"answer": ' + "[" * 50_000 + "]" * 50_000 + "}", "Sure: " + "{" * 5000):
        data, note = parse_reply(text, Reply)
        assert data is None and note is not None and "deep" in note
