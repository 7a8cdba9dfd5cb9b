"""OpenAI-compatible chat completions over httpx: OpenAI, Ollama, vLLM, llama.cpp server, OpenRouter.

Requests go through `generator.http`: its retry rule, one deadline of `llm.timeout` seconds per call (retries
included) and its body size cap. Answers are streamed (server-sent events), so a call waits at most
`llm.idle_timeout` for each next token: a slow model that keeps producing is never cut off, a stalled one is.
This module only words the server's refusals as `generator.errors`.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Literal, TypedDict

import httpx
import msgspec

from ..config import LLMConfig, is_local_url
from ..errors import (
    ConfigError,
    DeepkbError,
    PromptTooLarge,
    ProviderError,
    ProviderResponseError,
    SchemaRefused,
)
from ..http import RetryPolicy, bounded_client, environment_proxy, send
from ..jsontypes import JSONObject, JSONValue
from .base import (
    TIMEOUT_HINT,
    Completion,
    Prompt,
    Provider,
    Window,
    estimate_tokens,
    model_label,
    register,
    reported_tokens,
    server_said,
    status_failure,
)
from .window import fit_to_window

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# First backoff step in seconds; doubled per attempt. Tests monkeypatch it to keep retries instant.
BASE_DELAY = 0.5
# Longest wait we accept from a retry-after header or the backoff curve.
MAX_DELAY = 30.0
IDLE_HINT = "the server stopped answering; raise llm.idle_timeout if it is only slow"
PROBE_SECONDS = 10.0
"""Deadline of each question about the model's window (a server that does not know the endpoint answers 404)."""
OLLAMA_DEFAULT_CTX = 4096
"""The window Ollama serves a model with unless its `num_ctx` parameter says otherwise."""


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
        self.hosted = not is_local_url(self.base_url)
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
        fitted = fit_to_window(self, prompt)
        body = self._request(fitted, model)
        try:
            response = self._send(body, model, prompt)
        except PromptTooLarge as exc:
            self._learn_window(model, exc.window)
            raise
        completion = parse_completion(response, model, fitted)
        self.usage.add(completion)
        return completion

    def _send(self, body: ChatRequest, model: str, prompt: Prompt) -> httpx.Response:
        return send(
            "POST",
            f"{self.base_url}/chat/completions",
            provider=self.name,
            timeout=self.config.timeout,
            retry=self.retry,
            json=msgspec.to_builtins(body),
            client=self.client,
            status_error=lambda response: self.schema_refusal(prompt, status_error(response, model)),
            timeout_hint=TIMEOUT_HINT,
            idle=self.config.idle_timeout,
            idle_hint=IDLE_HINT,
        )

    def _learn_window(self, model: str, stated: int | None) -> None:
        """A refusal that names a smaller window than deepkb assumed: the rest of the run is fitted to it."""
        with self.window_lock:
            known = self.windows.get(model)
            if stated and (known is None or stated < known.tokens):
                self.windows[model] = Window(stated, "stated by the server when it refused a prompt")

    def served_window(self, model: str) -> Window | None:
        """What the server says: llama.cpp's `/props`, the model listing (vLLM, LM Studio, OpenRouter,
        llama.cpp's training window), Ollama's `/api/show`. api.openai.com tells nothing: known by name."""
        if "api.openai.com" in self.base_url:
            return None
        root = self.base_url.removesuffix("/v1")
        for source, ask in (
            ("the server's /props", lambda: props_window(self._probe("GET", f"{root}/props"))),
            (
                "the server's model listing",
                lambda: listing_window(self._probe("GET", f"{self.base_url}/models"), model),
            ),
            (
                "Ollama's /api/show",
                lambda: ollama_window(self._probe("POST", f"{root}/api/show", {"model": model})),
            ),
        ):
            tokens = ask()
            if tokens is not None:
                return Window(tokens, f"{source} ({model})")
        return None

    def _probe(self, method: str, url: str, body: Any = None) -> Any:
        """The JSON a server answers to one question about its model, or None (not known, refused, down)."""
        try:
            response = send(
                method,
                url,
                provider=self.name,
                timeout=PROBE_SECONDS,
                retry=RetryPolicy(attempts=1),
                json=body,
                client=self.client,
            )
            return response.json()
        except (DeepkbError, ValueError):
            return None

    def _request(self, prompt: Prompt, model: str) -> ChatRequest:
        system = prompt.system_text()
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
            stream=True,
            stream_options=StreamOptions(),
        )


class ChatMessage(msgspec.Struct, frozen=True):
    role: Literal["system", "user"]
    content: str


class SchemaSpec(msgspec.Struct, frozen=True):
    name: str
    schema: JSONObject
    strict: bool


class ResponseFormat(msgspec.Struct, frozen=True):
    type: Literal["json_object", "json_schema"] = "json_object"
    json_schema: SchemaSpec | msgspec.UnsetType = msgspec.UNSET
    schema: JSONObject | msgspec.UnsetType = msgspec.UNSET


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


class StreamOptions(msgspec.Struct, frozen=True):
    include_usage: bool = True  # the last event then carries the token counts


class ChatRequest(msgspec.Struct, frozen=True, kw_only=True):
    """A chat completions request body; the fields left UNSET are not sent."""

    model: str
    messages: list[ChatMessage]
    max_completion_tokens: int | msgspec.UnsetType = msgspec.UNSET
    max_tokens: int | msgspec.UnsetType = msgspec.UNSET
    response_format: ResponseFormat | msgspec.UnsetType = msgspec.UNSET
    stream: bool | msgspec.UnsetType = msgspec.UNSET
    stream_options: StreamOptions | msgspec.UnsetType = msgspec.UNSET


def status_error(response: httpx.Response, model: str) -> ProviderError:
    """An error status → our exception, quoting what the server said."""
    status = response.status_code
    said = f"{response.request.url.host} answered {status}: {server_message(response)}"
    if status in (400, 413) and CONTEXT_OVERFLOW.search(said):
        return PromptTooLarge(
            f"the prompt does not fit the model's window: {said}",
            hint="serve the model with a larger window (llama.cpp: --ctx-size), or make prompts smaller: "
            "repo.compress: true, a lower llm.max_output_tokens; the shard gets the offline page meanwhile",
            window=stated_window(response, said),
        )
    key = "check OPENAI_API_KEY (or llm.api_key_env)"
    hints = {401: key, 403: key, 404: f"check the base URL and the model name '{model}'"}
    return status_failure(status, said, busy={429}, hints=hints)


CONTEXT_OVERFLOW = re.compile(
    r"context[ _-]?(?:length|window|size)|n_ctx|too many tokens|prompt is too long", re.IGNORECASE
)
"""How OpenAI, vLLM and llama.cpp word a prompt longer than the model's window ("maximum context length is
8192 tokens", "exceeds the context window", "exceeds the available context size")."""


STATED_WINDOW = re.compile(
    r"(?:maximum context length is|context window of|context size of|n_ctx\W{1,3})\s*(\d[\d,]*)",
    re.IGNORECASE,
)
"""Where a refusal names the window: OpenAI and vLLM "maximum context length is 8192 tokens", llama-cpp-python
"exceed context window of 2048", llama.cpp "n_ctx": 4096 in its error body."""


def stated_window(response: httpx.Response, said: str) -> int | None:
    """The window a context-overflow refusal names (llama.cpp's `error.n_ctx`, else in its words), or None."""
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        error = None
    if isinstance(error, dict) and _plausible_window(error.get("n_ctx")):
        return _plausible_window(error.get("n_ctx"))
    found = STATED_WINDOW.search(said)
    return _plausible_window(int(found[1].replace(",", ""))) if found else None


def server_message(response: httpx.Response) -> str:
    """What the server said in its error body, else the start of the body."""
    try:
        body = response.json()
    except ValueError:
        body = None
    return server_said(body, response.text[:300].strip() or response.reason_phrase)


def parse_completion(response: httpx.Response, model: str, prompt: Prompt) -> Completion:
    """choices[0].message.content and usage → Completion (streamed: the deltas joined, the last usage);
    anything else is ProviderResponseError."""
    streamed = "text/event-stream" in response.headers.get("content-type", "")
    try:
        data = joined_stream(response) if streamed else response.json()
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
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    counts = [_count(usage.get("prompt_tokens"), prompt.user), _count(usage.get("completion_tokens"), text)]
    return Completion(
        text=text,
        model=model_label(str(data.get("model") or model)),
        provider="openai",
        input_tokens=counts[0] or 0,
        output_tokens=counts[1] or 0,
        refused_counts=counts.count(None),
    )


def _count(value: object, fallback_text: str) -> int | None:
    """The reported count; an estimate when the server sent none (some local servers omit usage), None
    when it sent one that is not plausible."""
    return estimate_tokens(fallback_text) if value is None else reported_tokens(value)


class JoinedReply(TypedDict, total=False):
    """A streamed answer in the shape of a non-streamed chat completion."""

    model: JSONValue
    usage: JSONObject
    choices: list[dict[str, dict[str, str]]]


def joined_stream(response: httpx.Response) -> JoinedReply:
    """A streamed answer's events as one non-streamed reply: the text deltas joined, the model named and the
    usage of the last event that carried one (OpenAI's `include_usage`, llama.cpp and vLLM send it)."""
    parts: list[str] = []
    reply: JoinedReply = {}
    for event in _events(response):
        if "error" in event:
            error = event["error"]
            said = error.get("message") if isinstance(error, dict) else error
            raise ProviderResponseError(f"{response.request.url.host} failed mid-answer: {str(said)[:300]}")
        reply["model"] = event.get("model") or reply.get("model")
        usage = event.get("usage")
        if isinstance(usage, dict):
            reply["usage"] = usage
        choices = event.get("choices")
        delta = (
            choices[0].get("delta")
            if isinstance(choices, list) and choices and isinstance(choices[0], dict)
            else None
        )
        content = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(content, str):
            parts.append(content)
    reply["choices"] = [{"message": {"content": "".join(parts)}}]
    return reply


def _events(response: httpx.Response) -> list[JSONObject]:
    """The JSON objects of a server-sent event stream's `data:` lines, up to `[DONE]`."""
    events = []
    for line in response.text.splitlines():
        if not line.startswith("data:"):
            continue  # comments (": ping"), event names, blank separators
        payload = line[5:].strip()
        if payload == "[DONE]":
            break
        try:
            event = json.loads(payload)
        except ValueError:
            raise ProviderResponseError(
                f"{response.request.url} streamed an event that is not JSON"
            ) from None
        if isinstance(event, dict):
            events.append(event)
    return events


def _plausible_window(value: object) -> int | None:
    return value if type(value) is int and 512 <= value <= 10_000_000 else None


def props_window(data: Any) -> int | None:
    """llama.cpp server's `/props`: the window each slot serves (`default_generation_settings.n_ctx`)."""
    settings = data.get("default_generation_settings") if isinstance(data, dict) else None
    return _plausible_window(settings.get("n_ctx")) if isinstance(settings, dict) else None


_LISTING_FIELDS = (
    "loaded_context_length",
    "max_model_len",
    "context_length",
    "context_window",
    "max_context_length",
)


def listing_window(data: Any, model: str) -> int | None:
    """The window an OpenAI-compatible `/models` listing gives for `model` (or its only model): vLLM's
    `max_model_len`, LM Studio's `loaded_context_length`, OpenRouter's `context_length`, llama.cpp's
    `meta.n_ctx_train` (the trained window: /props, asked first, gives the one served)."""
    entries = data.get("data") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return None
    named = [e for e in entries if isinstance(e, dict) and e.get("id") == model]
    entry = named[0] if named else entries[0] if len(entries) == 1 else None
    if not isinstance(entry, dict):
        return None
    meta = entry.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    found = [entry.get(name) for name in _LISTING_FIELDS] + [meta.get("n_ctx_train")]
    return next((tokens for value in found if (tokens := _plausible_window(value)) is not None), None)


_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)


def ollama_window(data: Any) -> int | None:
    """Ollama's `/api/show`: the model's `num_ctx` parameter, else Ollama's default window, never more than
    the model was trained for (`model_info` `<family>.context_length`)."""
    if not isinstance(data, dict) or not isinstance(data.get("model_info"), dict):
        return None
    trained = [v for k, v in data["model_info"].items() if k.endswith(".context_length")]
    given = _NUM_CTX.search(data.get("parameters") or "") if isinstance(data.get("parameters"), str) else None
    tokens = int(given[1]) if given else OLLAMA_DEFAULT_CTX
    limit = _plausible_window(trained[0]) if trained else None
    return _plausible_window(min(tokens, limit) if limit else tokens)
