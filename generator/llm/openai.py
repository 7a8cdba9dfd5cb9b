"""OpenAI-compatible chat completions over httpx: OpenAI, Ollama, vLLM, llama.cpp server, OpenRouter.

Retries 429/5xx and connection errors with exponential backoff and jitter, honouring retry-after;
refusals (4xx) are raised at once. Every failure leaves this module as a `generator.errors` exception.
"""

from __future__ import annotations

import email.utils
import math
import os
import random
import time
from datetime import UTC, datetime
from typing import Any

import httpx

from ..config import LLMConfig
from ..errors import (
    ConfigError,
    ProviderAuthError,
    ProviderError,
    ProviderRateLimited,
    ProviderResponseError,
    ProviderTimeout,
)
from .base import Completion, Prompt, Provider, estimate_tokens, register

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# First backoff step in seconds; doubled per attempt. Tests monkeypatch it to keep retries instant.
BASE_DELAY = 0.5
# Longest wait we accept from a retry-after header or the backoff curve.
MAX_DELAY = 30.0
# OpenAI refuses json_object mode unless a message mentions JSON, so the instruction doubles as that.
JSON_INSTRUCTION = "Reply with one JSON object only: no prose before or after it, no code fences."
_RETRYABLE = {408, 409, 429}


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
        self.client = httpx.Client(timeout=config.timeout, headers=headers)

    def complete(self, prompt: Prompt) -> Completion:
        model = self.model_for(prompt.stage)
        response = self._post_with_retries(self._request(prompt, model))
        completion = parse_completion(response, model, prompt)
        self.usage.add(completion)
        return completion

    def _request(self, prompt: Prompt, model: str) -> dict[str, Any]:
        system = prompt.system or ""
        if prompt.json_mode:
            system = f"{system}\n\n{JSON_INSTRUCTION}".strip()
        messages = [{"role": "system", "content": system}] if system else []
        messages.append({"role": "user", "content": prompt.user})
        # api.openai.com's newer models reject max_tokens; local servers only know max_tokens.
        limit_field = "max_completion_tokens" if "api.openai.com" in self.base_url else "max_tokens"
        request: dict[str, Any] = {
            "model": model,
            "messages": messages,
            limit_field: min(prompt.max_tokens, self.config.max_output_tokens),
        }
        if prompt.json_mode:
            request["response_format"] = {"type": "json_object"}
        return request

    def _post_with_retries(self, body: dict[str, Any]) -> httpx.Response:
        url = f"{self.base_url}/chat/completions"
        for attempt in range(self.config.max_retries + 1):
            last = attempt == self.config.max_retries
            try:
                response = self.client.post(url, json=body)
            except httpx.TimeoutException:
                raise ProviderTimeout(
                    f"{url} did not answer within {self.config.timeout:g}s",
                    hint="raise llm.timeout in deepkb.yml",
                ) from None
            except httpx.TransportError as exc:
                if last:
                    raise ProviderError(
                        f"could not reach {url}: {exc}", hint="is the server running?"
                    ) from None
                time.sleep(backoff_delay(attempt))
                continue
            if response.status_code < 400:
                return response
            if last or not _retryable(response.status_code):
                raise status_error(response, body["model"])
            time.sleep(retry_after(response) if "retry-after" in response.headers else backoff_delay(attempt))
        raise AssertionError("unreachable: the last attempt returns or raises")


def _retryable(status: int) -> bool:
    return status in _RETRYABLE or status >= 500


def backoff_delay(attempt: int) -> float:
    """Exponential backoff with full jitter in its upper half, capped."""
    step = min(MAX_DELAY, BASE_DELAY * 2**attempt)
    return step * random.uniform(0.5, 1.0)


def retry_after(response: httpx.Response) -> float:
    """The server's retry-after (seconds or an HTTP date), clamped to [0, MAX_DELAY]; unreadable → BASE_DELAY."""
    value = response.headers.get("retry-after", "").strip()
    seconds = _seconds_or_date(value)
    if seconds is None or math.isnan(seconds):
        return BASE_DELAY
    return max(0.0, min(MAX_DELAY, seconds))


def _seconds_or_date(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000" means UTC with unknown origin (RFC 5322)
        when = when.replace(tzinfo=UTC)
    return (when - datetime.now(UTC)).total_seconds()


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
    if 400 <= status < 500:
        return ProviderAuthError(said, hint="the request was refused; it is not retried")
    return ProviderError(said, hint="the server kept failing after the retries; try later")


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
    # Some local servers omit usage; an estimate keeps the run's token totals meaningful.
    return Completion(
        text=text,
        model=str(data.get("model") or model),
        provider="openai",
        input_tokens=_count(usage.get("prompt_tokens"), prompt.user),
        output_tokens=_count(usage.get("completion_tokens"), text),
    )


def _count(value: object, fallback_text: str) -> int:
    return value if isinstance(value, int) else estimate_tokens(fallback_text)
