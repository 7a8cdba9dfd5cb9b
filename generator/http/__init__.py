"""The one HTTP layer for model and search calls: one retry rule, a total deadline per call, a body size cap.

`retry.py` holds the retry rule, `budget.py` the deadline and the size cap enforced on the wire; this module
sends httpx requests under both (the Anthropic SDK's own client runs on the same transport and rule). The
rules, the same for the OpenAI-compatible client, the Anthropic SDK's client and every search provider:

- Retry 408/409/429/5xx answers and failed connections, at most `RetryPolicy.attempts` tries. The wait is the
  server's `retry-after`/`retry-after-ms` when given, else exponential backoff with jitter; every wait is
  capped at `RetryPolicy.max_wait` and is never longer than the time the call has left.
- A call has ONE deadline for connecting, every read and every retry. `bounded_transport` gives each request
  no more than the time left and checks the deadline after every chunk, so a server that trickles one byte
  at a time is cut off instead of holding a run forever.
- An answer larger than `max_body` bytes is refused as soon as its size is known or passed; it is never read
  into memory whole. A compressed answer is decoded by `decoding.py` a bounded piece at a time, so the cap
  counts decoded bytes as they are produced; stacked or unknown encodings are refused.
- A JSON answer nested deeper than `jsonbounds.MAX_JSON_DEPTH` is refused before it is parsed.

Failures leave as one of our errors (seed: "429 → exponential backoff honouring retry-after"):

    400/401/403                      → ProviderAuthError (never retried: our key or request is wrong)
    429 after the retries            → ProviderRateLimited
    deadline passed, read timed out  → ProviderTimeout (timeouts are not retried: the deadline is spent)
    5xx, oversized, unreadable body  → ProviderResponseError
    no connection after the retries  → ProviderError
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any
from xml.etree.ElementTree import Element

import httpx

from generator import __version__
from generator.errors import ProviderAuthError, ProviderError, ProviderRateLimited, ProviderResponseError

from ..jsonbounds import TooDeep, check_depth
from .budget import MAX_BODY_BYTES, Budget, bounded, bounded_client, bounded_transport, environment_proxy
from .decoding import EncodingRefused, iter_decoded
from .retry import DEFAULT_RETRY, Failure, RetryPolicy, is_retryable, retry_after_seconds, retrying

__all__ = [
    "MAX_BODY_BYTES",
    "Budget",
    "EncodingRefused",
    "Failure",
    "RetryPolicy",
    "bounded",
    "bounded_client",
    "bounded_transport",
    "environment_proxy",
    "get_json",
    "get_xml",
    "is_retryable",
    "iter_decoded",
    "post_json",
    "retry_after_seconds",
    "retrying",
    "send",
]

USER_AGENT = f"deepkb/{__version__} (+https://github.com/deepkb/deepkb; research bot)"
_AUTH_STATUS = {400, 401, 403}


class _Refused(Exception):
    """An answer with an error status, carried out of an attempt to be classified."""

    def __init__(self, response: httpx.Response) -> None:
        super().__init__(response.status_code)
        self.response = response


StatusError = Callable[[httpx.Response], ProviderError]


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
    client: httpx.Client | None = None,
    status_error: StatusError | None = None,
    timeout_hint: str | None = None,
    max_body: int = MAX_BODY_BYTES,
    idle: float | None = None,
    idle_hint: str | None = None,
) -> httpx.Response:
    """One request under the retry rule and a `timeout`-second total deadline; returns a read 2xx/3xx response.

    `client` must come from `bounded_client` (one is made and closed when absent); `status_error` words a
    final error status for this provider (default: `refusal`). With `idle`, a wait for the next bytes of
    the answer (a streamed one: the next token) longer than that many seconds ends the call too.
    """
    policy = retry or DEFAULT_RETRY
    budget = Budget.start(
        provider,
        timeout,
        clock=policy.clock,
        max_body=max_body,
        hint=timeout_hint,
        idle=idle,
        idle_hint=idle_hint,
    )
    describe = status_error or functools.partial(refusal, provider=provider)
    all_headers = {"User-Agent": USER_AGENT, **(headers or {})}
    own = client is None
    session = client or bounded_client(trust_env=False, follow_redirects=True)

    def attempt() -> httpx.Response:
        request = session.build_request(method, url, params=params, json=json, headers=all_headers)
        response = _read(session, request, budget)
        if response.status_code >= 400:
            raise _Refused(response)
        return response

    def classify(exc: Exception) -> Failure | None:
        if isinstance(exc, _Refused):
            status = exc.response.status_code
            return Failure(describe(exc.response), is_retryable(status), exc.response.headers)
        if isinstance(exc, httpx.TimeoutException):
            return Failure(budget.timed_out(httpx.URL(url).host), retryable=False)
        if isinstance(exc, httpx.HTTPError):
            return Failure(
                ProviderError(f"{provider}: could not reach {url}: {exc}", hint="is the server running?"),
                retryable=True,
            )
        return None

    try:
        return retrying(attempt, classify, policy=policy, budget=budget)
    finally:
        if own:
            session.close()


def _read(client: httpx.Client, request: httpx.Request, budget: Budget) -> httpx.Response:
    """Send and read the whole body, decoded, within the budget; the result is an ordinary read Response."""
    response = client.send(request, stream=True)
    try:
        body = bytearray()
        for chunk in iter_decoded(response):
            body += chunk  # decoded bytes, a bounded piece at a time: a compressed bomb stops at the cap
            budget.check(len(body), request.url.host)
    except EncodingRefused as exc:
        raise ProviderResponseError(
            f"{budget.provider}: {request.url.host}: {exc}", hint="check the URL"
        ) from None
    finally:
        response.close()
    if body.lstrip()[:1] in (b"{", b"["):  # decoded here, so the wire-side meter may not have seen it
        try:
            check_depth(bytes(body))
        except TooDeep as exc:
            raise budget.unreadable(request.url.host, str(exc)) from None
    kept = {k: v for k, v in response.headers.items() if k not in ("content-encoding", "content-length")}
    return httpx.Response(response.status_code, headers=kept, content=bytes(body), request=request)


def refusal(response: httpx.Response, provider: str) -> ProviderError:
    """The search providers' wording of a final error status."""
    status = response.status_code
    if status == 429:
        return ProviderRateLimited(
            f"{provider}: rate limited (HTTP 429) after the retries", hint="wait and retry later"
        )
    if status in _AUTH_STATUS:
        return ProviderAuthError(
            f"{provider}: request refused (HTTP {status}): {_short(response.text)}",
            hint="check the API key and the provider's options",
        )
    if status >= 500:
        return ProviderResponseError(f"{provider}: server error HTTP {status}", hint=str(response.url))
    return ProviderResponseError(f"{provider}: HTTP {status}: {_short(response.text)}")


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
