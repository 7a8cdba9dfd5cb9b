"""The one small interface every LLM back end implements, and the registry that picks one by name."""

from __future__ import annotations

import importlib
import json
import os
import re
import threading
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal, cast

from ..config import LLMConfig
from ..errors import ConfigError, ProviderAuthError, ProviderError, ProviderRateLimited, SchemaRefused
from ..jsontypes import JSONObject

JSON_INSTRUCTION = "Reply with one JSON object only: no prose before or after it, no code fences."
TIMEOUT_HINT = "raise llm.timeout in deepkb.yml"


@dataclass(frozen=True)
class JsonSchema:
    """The JSON Schema a JSON stage's reply must fit, sent to servers that can constrain their output to it
    (OpenAI-compatible `response_format`, Anthropic tool use). Kept as text so a Prompt stays hashable."""

    name: str
    text: str

    @property
    def value(self) -> JSONObject:
        return cast("JSONObject", json.loads(self.text))


@dataclass(frozen=True)
class Window:
    """A model's context window in tokens, and where deepkb learnt it (said on pages and in errors)."""

    tokens: int
    source: str


@dataclass(frozen=True)
class Prompt:
    """Text in. `stage` picks the per-stage model (architect, analyze, report, …)."""

    user: str
    system: str | None = None
    max_tokens: int = 4096
    json_mode: bool = False
    stage: str = "default"
    cache_prefix_chars: int = 0
    """How many leading characters of `user` are shared by sibling prompts (instructions, repository map,
    facts). Anthropic marks that prefix cacheable; providers without prompt caching send `user` unchanged."""
    json_schema: JsonSchema | None = None
    """Set by `structured.complete_json`: providers that can constrain output to a schema send it."""

    def system_text(self) -> str:
        """The system prompt as sent: a JSON prompt's ends with the instruction to reply with JSON only
        (OpenAI refuses json_object mode unless a message mentions JSON, so it doubles as that)."""
        system = self.system or ""
        return f"{system}\n\n{JSON_INSTRUCTION}".strip() if self.json_mode else system


@dataclass(frozen=True)
class Completion:
    """Text out, with what it cost."""

    text: str
    model: str
    provider: str
    input_tokens: int = 0
    output_tokens: int = 0
    cached: bool = False
    cache_read_tokens: int = 0
    """Input tokens the provider read from its prompt cache (not part of `input_tokens`)."""
    cache_write_tokens: int = 0
    """Input tokens the provider wrote to its prompt cache (not part of `input_tokens`)."""
    batched: bool = False
    """Answered through a message batch (billed at the batch discount)."""
    batch_fallback: bool = False
    """Asked in a batch that did not answer it (errored, expired, canceled), then sent synchronously."""
    refused_counts: int = 0
    """Token counts the server reported that were not plausible (see `reported_tokens`), stored as 0."""


@dataclass
class TokenCount:
    """Tokens of one kind of call (one model, batched or not): what a price table multiplies."""

    input: int = 0
    cache_read: int = 0
    cache_write: int = 0
    output: int = 0


JsonOutcome = Literal["valid", "repaired", "fallen_back"]


@dataclass
class JsonTally:
    """How one JSON stage's replies went: valid the first time, valid after the repair round, or not at all
    (the stage used its offline result). `schema_refused` counts replies asked for after the server refused
    schema mode."""

    valid: int = 0
    repaired: int = 0
    fallen_back: int = 0
    schema_refused: int = 0


@dataclass
class Usage:
    """Running totals for one run: calls actually sent, cache hits and tokens (thread-safe)."""

    calls: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    batched_calls: int = 0
    batch_fallbacks: int = 0
    """Requests a batch did not answer (errored, expired, canceled) that were sent synchronously instead."""
    refused_counts: int = 0
    """Token counts servers reported that were refused (negative, not integers, or past any context)."""
    by_model: dict[tuple[str, bool], TokenCount] = field(default_factory=dict)
    """(model, batched) → tokens, so a cost can be priced per model and per billing mode."""
    json_stages: dict[str, JsonTally] = field(default_factory=dict)
    """stage → how its JSON replies went (see `structured.complete_json`)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, completion: Completion) -> None:
        with self._lock:
            if completion.cached:
                self.cache_hits += 1
                return
            self.calls += 1
            self.batched_calls += int(completion.batched)
            self.batch_fallbacks += int(completion.batch_fallback)
            self.refused_counts += completion.refused_counts
            self.input_tokens += completion.input_tokens
            self.output_tokens += completion.output_tokens
            self.cache_read_tokens += completion.cache_read_tokens
            self.cache_write_tokens += completion.cache_write_tokens
            tally = self.by_model.setdefault((completion.model, completion.batched), TokenCount())
            tally.input += completion.input_tokens
            tally.cache_read += completion.cache_read_tokens
            tally.cache_write += completion.cache_write_tokens
            tally.output += completion.output_tokens

    def add_json(self, stage: str, outcome: JsonOutcome, *, schema_refused: bool = False) -> None:
        with self._lock:
            tally = self.json_stages.setdefault(stage, JsonTally())
            setattr(tally, outcome, getattr(tally, outcome) + 1)
            tally.schema_refused += int(schema_refused)


class Provider:
    """An LLM back end. Subclasses set `name` and implement `complete`."""

    name: ClassVar[str] = ""
    offline: ClassVar[bool] = False
    default_model: ClassVar[str] = ""
    hosted: bool = True
    """A hosted API, whose model names mean what they say (a local server serves any model under any name)."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self.usage = Usage()
        self.windows: dict[str, Window] = {}
        """Context windows found so far this run, by model (see `window.context_window`)."""
        self.window_lock = threading.Lock()
        self._schema_refused = False

    def model_for(self, stage: str) -> str:
        return self.config.models.get(stage) or self.config.model or self.default_model

    def complete(self, prompt: Prompt) -> Completion:
        raise NotImplementedError

    def served_window(self, model: str) -> Window | None:
        """The context window the server says it serves `model` with, when it tells (asked once a run)."""
        return None

    def schema_mode(self) -> bool:
        """Whether JSON stages send their schema: until the server refuses it once in this run."""
        return not self._schema_refused

    def record_json(self, stage: str, outcome: JsonOutcome, *, schema_refused: bool = False) -> None:
        """Count how a JSON stage's reply went (wrappers also tell the provider they wrap)."""
        self.usage.add_json(stage, outcome, schema_refused=schema_refused)

    def forget(self, prompt: Prompt) -> None:
        """Drop a stored answer to `prompt` that did not validate (the reply cache overrides this)."""

    def schema_refusal(self, prompt: Prompt, error: ProviderError) -> ProviderError:
        """`error` as a SchemaRefused, remembered for the run, when the server refused a schema request by
        naming the schema parameters; `error` itself otherwise."""
        # a refusal is a 4xx, or the 500 llama-cpp-python answers when its request model rejects the field
        refused = (
            prompt.json_schema is not None
            and type(error) in (ProviderAuthError, ProviderError)
            and SCHEMA_REFUSAL.search(error.message) is not None
        )
        if not refused:
            return error
        self._schema_refused = True
        return SchemaRefused(
            f"the server refused schema mode: {error.message}",
            hint="JSON stages are asked without a schema for the rest of the run",
        )


# How servers name the schema parameters they refuse: OpenAI-compatible `response_format`/`json_schema`
# (llama.cpp, vLLM, FastAPI's 422 listing the field), Anthropic-compatible `tools`/`tool_choice`/`input_schema`.
SCHEMA_REFUSAL = re.compile(r"response_format|json_schema|input_schema|tool_choice|\btools?\b", re.IGNORECASE)


def status_failure(
    status: int, said: str, *, busy: Collection[int], hints: Mapping[int, str]
) -> ProviderError:
    """A model server's final error status as our exception, `said` quoting the server: still busy after
    the retries, a refused request (`hints` says what to check for a status), or a server that kept failing."""
    if status in busy:
        return ProviderRateLimited(
            said, hint="still busy after the retries; lower llm.max_concurrent or try later"
        )
    if 400 <= status < 500:
        return ProviderAuthError(said, hint=hints.get(status, "the request was refused; it is not retried"))
    return ProviderError(said, hint="the server kept failing after the retries; try later")


def server_said(body: object, fallback: str) -> str:
    """What an error body says: `{"error": {"message": …}}` (OpenAI, Anthropic), `{"error": "…"}` (Ollama),
    else `fallback` (the start of the body)."""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"])
    return error if isinstance(error, str) and error else fallback


_REGISTRY: dict[str, type[Provider]] = {}
BUILTIN = {"anthropic": "anthropic", "openai": "openai", "offline": "offline"}  # name → module


def register(cls: type[Provider]) -> type[Provider]:
    """Class decorator: make a provider selectable by its `name`."""
    _REGISTRY[cls.name] = cls
    return cls


@dataclass(frozen=True)
class Selection:
    name: str
    reason: str


def select_provider_name(cli_value: str | None, config: LLMConfig) -> Selection:
    """--provider, then DEEPKB_PROVIDER, then deepkb.yml, then anthropic-if-keyed, else offline."""
    if cli_value:
        return Selection(cli_value, "--provider")
    if env := os.environ.get("DEEPKB_PROVIDER"):
        return Selection(env, "DEEPKB_PROVIDER")
    if config.provider:
        return Selection(config.provider, "deepkb.yml llm.provider")
    if os.environ.get("ANTHROPIC_API_KEY"):
        return Selection("anthropic", "ANTHROPIC_API_KEY is set")
    return Selection("offline", "no API key set")


def create_provider(name: str, config: LLMConfig) -> Provider:
    if name not in _REGISTRY and name in BUILTIN:
        # imported on demand: an offline run never loads httpx or the Anthropic SDK
        importlib.import_module(f"{__package__}.{BUILTIN[name]}")
    try:
        cls = _REGISTRY[name]
    except KeyError:
        raise ConfigError(
            f"unknown LLM provider '{name}'",
            hint=f"choose one of: {', '.join(sorted(set(_REGISTRY) | set(BUILTIN)))}",
        ) from None
    return cls(config)


_TOKEN_RE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


# no model reads or writes this many tokens in one call: a larger count is a server's mistake or a lie
MAX_REPORTED_TOKENS = 10_000_000


def reported_tokens(value: object) -> int | None:
    """A token count as a server reported it, when it is plausible: an integer (not a bool or a float)
    from 0 to MAX_REPORTED_TOKENS; None otherwise, so the caller stores 0 and notes it."""
    if type(value) is int and 0 <= value <= MAX_REPORTED_TOKENS:
        return value
    return None


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate (tiktoken needs a download): ~1.3 tokens per word or symbol, one per CJK character."""
    cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff")
    pieces = len(_TOKEN_RE.findall(text))
    return int(pieces * 1.3) + cjk


# a local server (llama.cpp's) names its model by the file it loaded: a path of this machine, which pages, the
# committed site_src/ and its records would publish
_MODEL_FILE = re.compile(r"^(?:/|~|[A-Za-z]:[\\/])|\.(?:gguf|ggml|bin|safetensors)$", re.IGNORECASE)


def model_label(name: str) -> str:
    """A model's name as deepkb records and shows it: a model file's path becomes the model's name
    ("/models/SmolLM2-135M-Instruct-Q8_0.gguf" → "SmolLM2-135M-Instruct-Q8_0"); a hub id stays whole."""
    if not _MODEL_FILE.search(name):
        return name
    file = re.split(r"[\\/]", name.rstrip("/\\"))[-1]
    return re.sub(r"\.gguf$", "", file, flags=re.IGNORECASE) or name
