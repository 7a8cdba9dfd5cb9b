"""The one HTTP layer for model and search calls: one retry rule, a total deadline per call, a body size cap.

The rules, the same for the OpenAI-compatible client, the Anthropic SDK's client and every search provider:

- Retry 408/409/429/5xx answers and failed connections, at most `RetryPolicy.attempts` tries. The wait is the
  server's `retry-after`/`retry-after-ms` when given, else exponential backoff with jitter; every wait is
  capped at `RetryPolicy.max_wait` and is never longer than the time the call has left.
- A call has ONE deadline for connecting, every read and every retry. `bounded_transport` gives each request
  no more than the time left and checks the deadline after every chunk, so a server that trickles one byte
  at a time is cut off instead of holding a run forever.
- An answer larger than `max_body` bytes is refused as soon as its size is known or passed; it is never read
  into memory whole.

Failures leave as one of our errors (seed: "429 → exponential backoff honouring retry-after"):

    400/401/403                      → ProviderAuthError (never retried: our key or request is wrong)
    429 after the retries            → ProviderRateLimited
    deadline passed, read timed out  → ProviderTimeout (timeouts are not retried: the deadline is spent)
    5xx, oversized, unreadable body  → ProviderResponseError
    no connection after the retries  → ProviderError
"""

from __future__ import annotations

import contextvars
import email.utils
import functools
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC
from types import ModuleType
from typing import Any, TypeVar
from xml.etree.ElementTree import Element

import httpx

from generator import __version__, deadlines
from generator.errors import (
    ProviderAuthError,
    ProviderError,
    ProviderRateLimited,
    ProviderResponseError,
    ProviderTimeout,
    RunDeadlineReached,
)

USER_AGENT = f"deepkb/{__version__} (+https://github.com/deepkb/deepkb; research bot)"
MAX_BODY_BYTES = 16 * 1024 * 1024
"""No model reply or search answer is legitimately this large; anything bigger is refused unread."""
_AUTH_STATUS = {400, 401, 403}
T = TypeVar("T")


def is_retryable(status: int) -> bool:
    """408 timeout, 409 conflict, 429 rate limit and every 5xx (529 overloaded included): try again later."""
    return status in (408, 409, 429) or status >= 500


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry. Tests inject `sleep`, `clock` and `jitter` to run without waiting."""

    attempts: int = 4
    """Total tries, the first one included."""
    backoff: float = 1.0
    """First wait in seconds; doubled on every further retry."""
    max_wait: float = 30.0
    """Upper bound on any single wait, `retry-after` included."""
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)
    clock: Callable[[], float] = field(default=time.monotonic, compare=False)
    jitter: Callable[[], float] = field(default=random.random, compare=False)
    """A number in [0, 1): backoff waits land in the upper half of their step, so clients spread out."""

    def wait(self, attempt: int, headers: Mapping[str, str] | None) -> float:
        """Seconds before try `attempt + 1`: the server's hint when it gave one, else backoff with jitter."""
        hinted = retry_after_seconds(headers.get("retry-after-ms"), scale=0.001) if headers else None
        if hinted is None and headers:
            hinted = retry_after_seconds(headers.get("retry-after"))
        if hinted is None:
            hinted = self.backoff * 2**attempt * (0.5 + self.jitter() / 2)
        return min(hinted, self.max_wait)


DEFAULT_RETRY = RetryPolicy()


def retry_after_seconds(value: str | None, *, scale: float = 1.0) -> float | None:
    """Parse a `retry-after` header: delta-seconds or an HTTP date. None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    seconds: float | None
    try:
        seconds = float(value) * scale
    except ValueError:
        seconds = _seconds_until(value)
    if seconds is None or math.isnan(seconds):
        return None
    return max(0.0, seconds)


def _seconds_until(date: str) -> float | None:
    try:
        when = email.utils.parsedate_to_datetime(date)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000" means UTC with unknown origin (RFC 5322)
        when = when.replace(tzinfo=UTC)
    return when.timestamp() - time.time()


# --------------------------------------------------------------------------- one call's budget


@dataclass
class Budget:
    """What one call may spend: until `ends_at` on `clock`, and `max_body` bytes of answer."""

    provider: str
    seconds: float
    ends_at: float
    max_body: int = MAX_BODY_BYTES
    clock: Callable[[], float] = time.monotonic
    hint: str | None = None
    """How the user gives the call more time, e.g. "raise llm.timeout in deepkb.yml"."""
    run_reason: str | None = None
    """Set when the run's own deadline ends before the call's: what the user is told when it passes."""

    @classmethod
    def start(
        cls,
        provider: str,
        seconds: float,
        *,
        policy: RetryPolicy = DEFAULT_RETRY,
        max_body: int = MAX_BODY_BYTES,
        hint: str | None = None,
    ) -> Budget:
        run = deadlines.current()
        run_left = run.remaining() if run is not None else math.inf
        if run is not None and run_left < seconds:  # the run ends first: the call may not outlive it
            ends_at = policy.clock() + max(0.0, run_left)
            return cls(provider, seconds, ends_at, max_body, policy.clock, None, run.total_reason())
        return cls(provider, seconds, policy.clock() + seconds, max_body, policy.clock, hint)

    def remaining(self) -> float:
        return self.ends_at - self.clock()

    def check(self, received: int, host: str) -> None:
        """Raise once the deadline has passed or more than `max_body` bytes have arrived."""
        if received > self.max_body:
            raise self.too_large(host)
        if self.remaining() <= 0:
            raise self.timed_out(host)

    def timed_out(self, host: str) -> ProviderTimeout:
        if self.run_reason:
            return RunDeadlineReached(
                f"{self.provider}: call to {host} stopped: {self.run_reason}",
                hint="finished work is kept; raise that timeout in deepkb.yml to give runs longer",
            )
        return ProviderTimeout(
            f"{self.provider}: no complete answer from {host} within {self.seconds:g} s", hint=self.hint
        )

    def too_large(self, host: str) -> ProviderResponseError:
        return ProviderResponseError(
            f"{self.provider}: the answer from {host} is larger than {self.max_body // 1_000_000} MB; refused",
            hint="no model or search answer is that large: check the base URL",
        )


_CURRENT: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("deepkb_http_budget", default=None)


@contextmanager
def bounded(budget: Budget) -> Iterator[Budget]:
    """Every request a `bounded_transport` sends inside this block spends `budget` (the SDK's retries too)."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


class _BoundedTransport:
    """An httpx transport that holds each request to the current `Budget`: time left and body size."""

    def __init__(self, inner: Any, stream_class: type) -> None:
        self.inner, self.stream_class = inner, stream_class

    def handle_request(self, request: Any) -> Any:
        budget = _CURRENT.get()
        if budget is None:
            return self.inner.handle_request(request)
        host = request.url.host
        budget.check(0, host)
        timeouts = request.extensions.get("timeout") or {}
        left = budget.remaining()
        request.extensions["timeout"] = {
            phase: left if limit is None else min(limit, left) for phase, limit in timeouts.items()
        } or dict.fromkeys(("connect", "read", "write", "pool"), left)
        request.headers["accept-encoding"] = "identity"  # so the bytes counted are the bytes kept
        response = self.inner.handle_request(request)
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > budget.max_body:
            response.close()
            raise budget.too_large(host)
        response.stream = self.stream_class(response.stream, budget, host)
        return response

    def close(self) -> None:
        self.inner.close()


def bounded_transport(module: ModuleType = httpx, inner: Any = None) -> Any:
    """A `BaseTransport` of `module` that obeys the current `Budget` (see `bounded`), sending through `inner`
    (default: the module's own HTTPTransport; tests pass a MockTransport).

    Built per httpx module because the Anthropic SDK 2.x ships its own fork (`httpx2`) with the same
    transport interface and refuses objects whose classes come from `httpx`.
    """
    transport_class, stream_class = _classes_for(module.BaseTransport, module.SyncByteStream)
    return transport_class(inner or module.HTTPTransport(), stream_class)


@functools.cache
def _classes_for(base_transport: type, base_stream: type) -> tuple[type, type]:
    class BoundedStream(base_stream):  # type: ignore[misc, valid-type]
        """The response body, chunk by chunk, checking the budget after each one."""

        def __init__(self, inner: Any, budget: Budget, host: str) -> None:
            self.inner, self.budget, self.host = inner, budget, host

        def __iter__(self) -> Iterator[bytes]:
            received = 0
            for chunk in self.inner:
                received += len(chunk)
                self.budget.check(received, self.host)
                yield chunk

        def close(self) -> None:
            self.inner.close()

    class BoundedTransport(_BoundedTransport, base_transport):  # type: ignore[misc, valid-type]
        pass

    return BoundedTransport, BoundedStream


def bounded_client(inner: httpx.BaseTransport | None = None, **options: Any) -> httpx.Client:
    """An httpx client whose requests obey the current `Budget` (see `bounded`).

    It sets no per-phase timeout of its own (httpx's default is 5 s a read): each request gets the time its
    call has left."""
    return httpx.Client(transport=bounded_transport(httpx, inner), timeout=None, **options)


# --------------------------------------------------------------------------- the retry rule


@dataclass(frozen=True)
class Failure:
    """What one failed try means: the error to raise if it is the last, and whether to try again."""

    error: ProviderError
    retryable: bool
    headers: Mapping[str, str] | None = None


def retrying(
    attempt: Callable[[], T],
    classify: Callable[[Exception], Failure | None],
    *,
    policy: RetryPolicy,
    budget: Budget,
) -> T:
    """Run `attempt` under `budget` until it succeeds, a failure is final, or tries or time run out.

    `classify` turns an exception into a `Failure`; None means "not ours to handle" and it propagates.
    """
    with bounded(budget):
        for number in range(policy.attempts):
            try:
                return attempt()
            except ProviderError:
                raise  # the budget's own verdict (deadline, size): final
            except Exception as exc:
                failure = classify(exc)
                if failure is None:
                    raise
                wait = policy.wait(number, failure.headers)
                last = number == policy.attempts - 1
                if last or not failure.retryable or wait >= budget.remaining():
                    raise failure.error from None
                policy.sleep(wait)
    raise AssertionError("unreachable: the last attempt returns or raises")


# --------------------------------------------------------------------------- httpx calls


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
) -> httpx.Response:
    """One request under the retry rule and a `timeout`-second total deadline; returns a read 2xx/3xx response.

    `client` must come from `bounded_client` (one is made and closed when absent); `status_error` words a
    final error status for this provider (default: `refusal`).
    """
    policy = retry or DEFAULT_RETRY
    budget = Budget.start(provider, timeout, policy=policy, max_body=max_body, hint=timeout_hint)
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
        for chunk in response.iter_bytes():
            body += chunk  # decoded bytes: a compressed bomb stops here even if its raw size was small
            budget.check(len(body), request.url.host)
    finally:
        response.close()
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
