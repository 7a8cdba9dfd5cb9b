"""Ask a provider for JSON that fits a pydantic schema, with one repair round, so callers can fall back cleanly.

The schema goes with the request (`Prompt.json_schema`: OpenAI-compatible `response_format`, Anthropic a forced
tool) until the server refuses schema mode; then the run asks without it and extracts, repairs and validates.

`complete_json` never raises on a bad answer: it returns `(None, notes)` and the caller uses its heuristic.
Provider failures (auth, timeout, rate limit) on the first call propagate; they are not the model's fault.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import TypeVar

import pydantic

from ..errors import ProviderAuthError, ProviderError, SchemaRefused
from ..jsonbounds import TooDeep, check_depth
from .base import JsonSchema, Prompt, Provider

T = TypeVar("T", bound=pydantic.BaseModel)

_FENCE_RE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n(.*?)```", re.DOTALL)
# How much of a bad reply the repair prompt quotes back; the model only needs to see its mistake.
_QUOTE_LIMIT = 6000
# Positions tried when scanning prose for a JSON value; bounds the work on a long non-JSON reply.
_MAX_SCAN = 200


class NoJSONFound(ValueError):
    """The text holds no parseable JSON value."""


def extract_json(text: str) -> object:
    """The JSON value in a model reply: the whole text, a ```json fence, or the first object/array in prose."""
    stripped = text.strip()
    try:
        check_depth(stripped)  # before any parser recurses
    except TooDeep as exc:
        raise NoJSONFound(f"the reply nests too deep to read ({exc})") from None
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    for block in _FENCE_RE.findall(stripped):
        try:
            return json.loads(block)
        except ValueError:
            continue
    found = _scan_for_json(stripped)
    if found is not None:
        return found[0]
    raise NoJSONFound(f"no JSON object in the reply (starts: {_preview(stripped)!r})")


def _scan_for_json(text: str) -> tuple[object] | None:
    decoder = json.JSONDecoder()
    starts = [m.start() for m in re.finditer(r"[{\[]", text)][:_MAX_SCAN]
    # Objects first: a schema reply is an object, and prose often holds stray "[1]" citations.
    for start in sorted(starts, key=lambda s: text[s] == "["):
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        return (value,)
    return None


def _preview(text: str, limit: int = 80) -> str:
    return text[:limit] + ("…" if len(text) > limit else "")


def parse_reply(text: str, schema: type[T]) -> tuple[T | None, str | None]:
    """Validate one reply against `schema`: (model, None) or (None, what was wrong)."""
    try:
        data = extract_json(text)
    except NoJSONFound as exc:
        return None, str(exc)
    try:
        return schema.model_validate(data), None
    except pydantic.ValidationError as exc:
        return None, _describe(exc)


def _describe(exc: pydantic.ValidationError) -> str:
    problems = []
    for error in exc.errors()[:8]:
        where = ".".join(str(part) for part in error["loc"]) or "(root)"
        problems.append(f"{where}: {error['msg']}")
    return "; ".join(problems)


def complete_json(provider: Provider, prompt: Prompt, schema: type[T]) -> tuple[T | None, list[str]]:
    """Ask for JSON matching `schema` (sending the schema while the server accepts schema mode); on a bad
    reply ask once more quoting the error. Returns (model or None, notes); the outcome is counted per stage
    in the provider's usage, and a reply that did not validate is dropped from the reply cache."""
    if provider.offline:
        return None, [f"{provider.name} provider has no model to ask for JSON"]
    notes: list[str] = []
    asked = replace(
        prompt, json_mode=True, json_schema=json_schema(schema) if provider.schema_mode() else None
    )
    refused = asked.json_schema is None
    try:
        try:
            first = provider.complete(asked)
        except SchemaRefused as exc:
            notes.append(exc.message)
            asked, refused = replace(asked, json_schema=None), True
            first = provider.complete(asked)
    except ProviderError:
        provider.record_json(prompt.stage, "fallen_back", schema_refused=refused)
        raise
    parsed, problem = parse_reply(first.text, schema)
    if parsed is not None:
        provider.record_json(prompt.stage, "valid", schema_refused=refused)
        return parsed, notes
    provider.forget(asked)
    notes.append(f"reply did not fit {schema.__name__}: {problem}")
    try:
        parsed, more = _repair(provider, asked, schema, first.text, problem or "")
    except ProviderError:
        provider.record_json(prompt.stage, "fallen_back", schema_refused=refused)
        raise
    provider.record_json(
        prompt.stage, "fallen_back" if parsed is None else "repaired", schema_refused=refused
    )
    return parsed, notes + more


def _repair(
    provider: Provider, asked: Prompt, schema: type[T], bad_output: str, problem: str
) -> tuple[T | None, list[str]]:
    """The one repair round of `complete_json`."""
    retry = repair_prompt(asked, schema, bad_output, problem)
    try:
        second = provider.complete(retry)
    except ProviderAuthError:
        raise
    except ProviderError as exc:
        return None, [f"repair request failed: {exc.message}"]
    parsed, still = parse_reply(second.text, schema)
    if parsed is not None:
        return parsed, ["repaired on the second attempt"]
    provider.forget(retry)
    return None, [f"repair reply did not fit {schema.__name__} either: {still}"]


def json_schema(schema: type[pydantic.BaseModel]) -> JsonSchema:
    """The schema a JSON stage sends, derived from its pydantic model without its size limits; the name is
    what OpenAI's `json_schema.name` and an Anthropic tool name accept (letters, digits, `_`, `-`; at most 64)."""
    name = re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__.lstrip("_"))[:64] or "reply"
    sent = without_size_limits(schema.model_json_schema())
    return JsonSchema(name, json.dumps(sent, ensure_ascii=False, sort_keys=True))


# Grammar-constrained servers unroll a size limit into one rule per character or item: llama-cpp-python 0.3 fails
# to parse the grammar of a 600-character `maxLength` and its server dies. Upper limits and patterns are not
# sent, nor lower limits past a few; the pydantic model keeps all of them and checks every reply.
_UPPER_LIMITS = frozenset({"maxLength", "maxItems", "pattern"})
_LOWER_LIMITS = frozenset({"minLength", "minItems"})
_LOWER_SENT = 8


def without_size_limits(schema: object) -> object:
    """`schema` without the size limits a grammar would unroll (property names that look like them are kept)."""
    if isinstance(schema, list):
        return [without_size_limits(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: without_size_limits(value)
        for key, value in schema.items()
        if isinstance(value, dict)  # a property's schema, whatever its name
        or key not in _UPPER_LIMITS | _LOWER_LIMITS
        or (key in _LOWER_LIMITS and isinstance(value, int) and value <= _LOWER_SENT)
    }


def repair_prompt(
    original: Prompt, schema: type[pydantic.BaseModel], bad_output: str, problem: str
) -> Prompt:
    """The follow-up: the original task, the bad output, the validation error, and the schema."""
    schema_text = json.dumps(schema.model_json_schema(), ensure_ascii=False)
    user = (
        f"{original.user}\n\n"
        "Your previous reply could not be used.\n"
        f"Problem: {problem}\n\n"
        f"Previous reply:\n<<<\n{bad_output[:_QUOTE_LIMIT]}\n>>>\n\n"
        f"The reply must be one JSON object matching this JSON Schema:\n{schema_text}\n\n"
        "Reply with the corrected JSON object only, no prose and no code fences."
    )
    return replace(original, user=user, json_mode=True)
