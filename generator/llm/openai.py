"""OpenAI-compatible chat completions over httpx: OpenAI, Ollama, vLLM, llama.cpp server, OpenRouter.

Requests go through `generator.http`: its retry rule, one deadline of `llm.timeout` seconds per call (retries
included) and its body size cap. This module only words the server's refusals as `generator.errors`.
"""

from __future__ import annotations

import os
import re
from typing import Any, Literal

import httpx
import msgspec

from ..config import LLMConfig
from ..errors import (
    ConfigError,
    PromptTooLarge,
    ProviderAuthError,
    ProviderError,
    ProviderRateLimited,
    ProviderResponseError,
    SchemaRefused,
)
from ..http import RetryPolicy, bounded_client, environment_proxy, send
from .base import Completion, Prompt, Provider, estimate_tokens, register, reported_tokens

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# First backoff step in seconds; doubled per attempt. Tests monkeypatch it to keep retries instant.
BASE_DELAY = 0.5
# Longest wait we accept from a retry-after header or the backoff curve.
MAX_DELAY = 30.0
# OpenAI refuses json_object mode unless a message mentions JSON, so the instruction doubles as that.
JSON_INSTRUCTION = "Reply with one JSON object only: no prose before or after it, no code fences."
TIMEOUT_HINT = "raise llm.timeout in deepkb.yml"


@register
class OpenAIProvider(Provider):
    """POST {base_url}/chat/completions; the key is optional because local servers need none."""

    name = "openai"
    default_model = "gpt-4o-mini"

    def __init__(self, config: LLMConfig) -> None:
        super().__init__(config)
        ours = config.provider in (None, "openai")  # llm.base_url / api_key_env describe this provider
        self.base_url = (
            (ours and config.base_url) or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        ).rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(
                f"llm.base_url '{self.base_url}' is not an http(s) URL",
                hint="e.g. http://localhost:11434/v1 for Ollama",
            )
        key = os.environ.get((ours and config.api_key_env) or "OPENAI_API_KEY")
        headers = {"authorization": f"Bearer {key}"} if key else {}
        self.client = bounded_client(headers=headers, proxy=environment_proxy(self.base_url))
        self.retry = RetryPolicy(attempts=config.max_retries + 1, backoff=BASE_DELAY, max_wait=MAX_DELAY)
        self.schema_style: Literal["json_schema", "json_object"] = "json_schema"
        """How a schema is sent: OpenAI's json_schema type, or inside json_object (llama-cpp-python's way)."""

    def complete(self, prompt: Prompt) -> Completion:
        try:
            return self._complete(prompt)
        except SchemaRefused:
            if prompt.json_schema is None or self.schema_style == "json_object":
                raise
            # llama-cpp-python refuses the json_schema type but constrains json_object to a schema it carries
            self.schema_style = "json_object"
            self._schema_refused = False
            return self._complete(prompt)

    def _complete(self, prompt: Prompt) -> Completion:
        model = self.model_for(prompt.stage)
        body = self._request(prompt, model)
        response = send(
            "POST",
            f"{self.base_url}/chat/completions",
            provider=self.name,
            timeout=self.config.timeout,
            retry=self.retry,
            json=msgspec.to_builtins(body),
            client=self.client,
            status_error=lambda response: self.schema_refusal(prompt, status_error(response, model)),
            timeout_hint=TIMEOUT_HINT,
        )
        completion = parse_completion(response, model, prompt)
        self.usage.add(completion)
        return completion

    def _request(self, prompt: Prompt, model: str) -> ChatRequest:
        system = prompt.system or ""
        if prompt.json_mode:
            system = f"{system}\n\n{JSON_INSTRUCTION}".strip()
        messages = [ChatMessage("system", system)] if system else []
        messages.append(ChatMessage("user", prompt.user))
        limit = min(prompt.max_tokens, self.config.max_output_tokens)
        # api.openai.com's newer models reject max_tokens; local servers only know max_tokens.
        official = "api.openai.com" in self.base_url
        return ChatRequest(
            model=model,
            messages=messages,
            max_completion_tokens=limit if official else msgspec.UNSET,
            max_tokens=msgspec.UNSET if official else limit,
            response_format=response_format(prompt, self.schema_style),
        )


class ChatMessage(msgspec.Struct, frozen=True):
    role: Literal["system", "user"]
    content: str


class SchemaSpec(msgspec.Struct, frozen=True):
    name: str
    schema: dict[str, Any]
    strict: bool


class ResponseFormat(msgspec.Struct, frozen=True):
    type: Literal["json_object", "json_schema"] = "json_object"
    json_schema: SchemaSpec | msgspec.UnsetType = msgspec.UNSET
    schema: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET


def response_format(
    prompt: Prompt, style: Literal["json_schema", "json_object"] = "json_schema"
) -> ResponseFormat | msgspec.UnsetType:
    """For a prompt with a schema: OpenAI's `json_schema` type (llama.cpp, vLLM, Ollama and OpenAI constrain
    decoding to it), or with `style` json_object the schema inside `json_object` (llama-cpp-python's server);
    `json_object` for a JSON prompt without one; nothing for prose."""
    if prompt.json_schema is not None:
        schema = prompt.json_schema.value
        if style == "json_object":
            return ResponseFormat(schema=schema)
        spec = SchemaSpec(prompt.json_schema.name, schema, strict=strict_compatible(schema))
        return ResponseFormat("json_schema", spec)
    return ResponseFormat() if prompt.json_mode else msgspec.UNSET


def strict_compatible(schema: object) -> bool:
    """Whether OpenAI's strict mode accepts `schema`: every object lists all its properties as required and
    forbids others. Strict mode refuses any other schema, so those are sent best-effort (strict false)."""
    if isinstance(schema, list):
        return all(strict_compatible(item) for item in schema)
    if not isinstance(schema, dict):
        return True
    if schema.get("type") == "object":
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is not False or set(schema.get("required", [])) != set(
            properties
        ):
            return False
    return all(strict_compatible(value) for value in schema.values())


class ChatRequest(msgspec.Struct, frozen=True, kw_only=True):
    """A chat completions request body; the fields left UNSET are not sent."""

    model: str
    messages: list[ChatMessage]
    max_completion_tokens: int | msgspec.UnsetType = msgspec.UNSET
    max_tokens: int | msgspec.UnsetType = msgspec.UNSET
    response_format: ResponseFormat | msgspec.UnsetType = msgspec.UNSET


def status_error(response: httpx.Response, model: str) -> ProviderError:
    """An error status → our exception, quoting what the server said."""
    status = response.status_code
    said = f"{response.request.url.host} answered {status}: {server_message(response)}"
    if status == 429:
        return ProviderRateLimited(
            said, hint="still rate limited after the retries; lower llm.max_concurrent"
        )
    if status in (401, 403):
        return ProviderAuthError(said, hint="check OPENAI_API_KEY (or llm.api_key_env)")
    if status == 404:
        return ProviderAuthError(said, hint=f"check the base URL and the model name '{model}'")
    if status in (400, 413) and CONTEXT_OVERFLOW.search(said):
        return PromptTooLarge(
            f"the prompt does not fit the model's window: {said}",
            hint="serve the model with a larger window (llama.cpp: --ctx-size), or make prompts smaller: "
            "repo.compress: true, a lower llm.max_output_tokens; the shard gets the offline page meanwhile",
        )
    if 400 <= status < 500:
        return ProviderAuthError(said, hint="the request was refused; it is not retried")
    return ProviderError(said, hint="the server kept failing after the retries; try later")


CONTEXT_OVERFLOW = re.compile(
    r"context[ _-]?(?:length|window|size)|n_ctx|too many tokens|prompt is too long", re.IGNORECASE
)
"""How OpenAI, vLLM and llama.cpp word a prompt longer than the model's window ("maximum context length is
8192 tokens", "exceeds the context window", "exceeds the available context size")."""


def server_message(response: httpx.Response) -> str:
    """OpenAI's {"error": {"message"}}, Ollama's {"error": "..."}, else the start of the body."""
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        error = None
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"])
    if isinstance(error, str) and error:
        return error
    return response.text[:300].strip() or response.reason_phrase


def parse_completion(response: httpx.Response, model: str, prompt: Prompt) -> Completion:
    """choices[0].message.content and usage → Completion; anything else is ProviderResponseError."""
    try:
        data = response.json()
        text = data["choices"][0]["message"]["content"]
    except ValueError:
        raise ProviderResponseError(f"{response.request.url} sent a body that is not JSON") from None
    except (KeyError, IndexError, TypeError):
        raise ProviderResponseError(
            f"{response.request.url} reply has no choices[0].message.content"
        ) from None
    if not isinstance(text, str):
        raise ProviderResponseError(
            f"{response.request.url} reply content is {type(text).__name__}, not text"
        )
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    counts = [_count(usage.get("prompt_tokens"), prompt.user), _count(usage.get("completion_tokens"), text)]
    return Completion(
        text=text,
        model=str(data.get("model") or model),
        provider="openai",
        input_tokens=counts[0] or 0,
        output_tokens=counts[1] or 0,
        refused_counts=counts.count(None),
    )


def _count(value: object, fallback_text: str) -> int | None:
    """The reported count; an estimate when the server sent none (some local servers omit usage), None
    when it sent one that is not plausible."""
    return estimate_tokens(fallback_text) if value is None else reported_tokens(value)
