"""The one way search providers talk HTTP: an httpx call with timeouts and bounded, polite retries.

429 and 5xx answers are retried with exponential backoff; a `retry-after` header (seconds or an HTTP date)
is honoured but capped at `RetryPolicy.max_wait`, so a hostile or confused server cannot stall a run. Every
failure leaves this module as one of our own errors (seed: "429 → exponential backoff honouring
retry-after"):

    400/401/403               → ProviderAuthError (never retried: our key or request is wrong)
    429 after the retries     → ProviderRateLimited
    timeout after the retries → ProviderTimeout
    5xx, unreadable JSON/XML  → ProviderResponseError
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

import httpx

from generator import __version__
from generator.errors import (
    ProviderAuthError,
    ProviderError,
    ProviderRateLimited,
    ProviderResponseError,
    ProviderTimeout,
)

USER_AGENT = f"deepkb/{__version__} (+https://github.com/deepkb/deepkb; research bot)"
_RETRY_STATUS = {429, 500, 502, 503, 504}
_AUTH_STATUS = {400, 401, 403}


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry. Tests pass `backoff=0` and a recording `sleep`."""

    attempts: int = 4
    """Total tries, the first one included."""
    backoff: float = 1.0
    """First wait in seconds; doubled on every further retry."""
    max_wait: float = 30.0
    """Upper bound on any single wait, `retry-after` included."""
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)


DEFAULT_RETRY = RetryPolicy()


def retry_after_seconds(value: str | None) -> float | None:
    """Parse a `retry-after` header: delta-seconds or an HTTP date. None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _wait_for(attempt: int, response: httpx.Response | None, policy: RetryPolicy) -> float:
    wait = policy.backoff * (2**attempt)
    if response is not None:
        hinted = retry_after_seconds(response.headers.get("retry-after"))
        if hinted is not None:
            wait = hinted
    return min(wait, policy.max_wait)


def send(
    method: str,
    url: str,
    *,
    provider: str,
    timeout: float = 20.0,
    retry: RetryPolicy | None = None,
    params: Mapping[str, Any] | None = None,
    json: Any = None,
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    """One request with retries; returns a 2xx/3xx response or raises a ProviderError subclass."""
    policy = retry or DEFAULT_RETRY
    all_headers = {"User-Agent": USER_AGENT, **(headers or {})}
    with httpx.Client(timeout=timeout, trust_env=False, follow_redirects=True) as client:
        for attempt in range(policy.attempts):
            last = attempt == policy.attempts - 1
            try:
                response = client.request(method, url, params=params, json=json, headers=all_headers)
            except httpx.TimeoutException as exc:
                if last:
                    raise ProviderTimeout(f"{provider}: no answer within {timeout:g}s") from exc
                policy.sleep(_wait_for(attempt, None, policy))
                continue
            except httpx.HTTPError as exc:
                if last:
                    raise ProviderError(f"{provider}: request failed: {exc}", hint=url) from exc
                policy.sleep(_wait_for(attempt, None, policy))
                continue
            if response.status_code not in _RETRY_STATUS:
                return _checked(response, provider)
            if last:
                break
            policy.sleep(_wait_for(attempt, response, policy))
    if response.status_code == 429:
        raise ProviderRateLimited(
            f"{provider}: rate limited (HTTP 429) after {policy.attempts} tries", hint="wait and retry later"
        )
    raise ProviderResponseError(f"{provider}: server error HTTP {response.status_code}", hint=url)


def _checked(response: httpx.Response, provider: str) -> httpx.Response:
    if response.status_code in _AUTH_STATUS:
        raise ProviderAuthError(
            f"{provider}: request refused (HTTP {response.status_code}): {_short(response.text)}",
            hint="check the API key and the provider's options",
        )
    if response.status_code >= 400:
        raise ProviderResponseError(f"{provider}: HTTP {response.status_code}: {_short(response.text)}")
    return response


def _short(text: str, limit: int = 200) -> str:
    return " ".join(text.split())[:limit]


def get_json(url: str, *, provider: str, **options: Any) -> Any:
    """GET and decode JSON; unreadable JSON is a ProviderResponseError."""
    return decode_json(send("GET", url, provider=provider, **options), provider)


def post_json(url: str, body: Any, *, provider: str, **options: Any) -> Any:
    """POST a JSON body and decode the JSON answer."""
    return decode_json(send("POST", url, provider=provider, json=body, **options), provider)


def decode_json(response: httpx.Response, provider: str) -> Any:
    try:
        return response.json()
    except ValueError as exc:
        raise ProviderResponseError(
            f"{provider}: answer is not JSON: {_short(response.text, 80)!r}", hint=str(response.url)
        ) from exc


def get_xml(url: str, *, provider: str, **options: Any) -> Element:
    """GET and parse XML with defusedxml (no entities, no external references)."""
    import defusedxml.ElementTree as safe_xml
    from defusedxml import DefusedXmlException

    response = send("GET", url, provider=provider, **options)
    try:
        return safe_xml.fromstring(response.content)
    except (safe_xml.ParseError, DefusedXmlException) as exc:
        raise ProviderResponseError(f"{provider}: answer is not readable XML: {exc}", hint=url) from exc
