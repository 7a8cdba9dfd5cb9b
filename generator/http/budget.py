"""What one model or search call may spend: a total deadline and a body size cap, enforced on the wire
(the rules are stated in `generator/http/__init__.py`).
"""

from __future__ import annotations

import contextvars
import functools
import math
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import httpx

from generator import deadlines
from generator.errors import ProviderResponseError, ProviderTimeout, RunDeadlineReached
from generator.jsonbounds import NestingMeter, TooDeep

MAX_BODY_BYTES = 16 * 1024 * 1024
"""No model reply or search answer is legitimately this large; anything bigger is refused unread."""
UNBUDGETED_SECONDS = 120.0
"""The deadline of a request sent through a bounded transport outside any call's `bounded` block."""


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
    idle: float | None = None
    """Longest wait for the next bytes of an answer (the first ones included); None: only the deadline."""
    idle_hint: str | None = None

    @classmethod
    def start(
        cls,
        provider: str,
        seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_body: int = MAX_BODY_BYTES,
        hint: str | None = None,
        idle: float | None = None,
        idle_hint: str | None = None,
    ) -> Budget:
        run = deadlines.current()
        run_left = run.remaining() if run is not None else math.inf
        if run is not None and run_left < seconds:  # the run ends first: the call may not outlive it
            ends_at = clock() + max(0.0, run_left)
            return cls(provider, seconds, ends_at, max_body, clock, None, run.total_reason(), idle, idle_hint)
        return cls(provider, seconds, clock() + seconds, max_body, clock, hint, None, idle, idle_hint)

    def remaining(self) -> float:
        return self.ends_at - self.clock()

    def check(self, received: int, host: str) -> None:
        """Raise once the deadline has passed or more than `max_body` bytes have arrived."""
        if received > self.max_body:
            raise self.too_large(host)
        if self.remaining() <= 0:
            raise self.timed_out(host)

    def timed_out(self, host: str) -> ProviderTimeout:
        """The deadline that passed: the idle one while time was left, else the call's or the run's."""
        if self.idle is not None and self.remaining() > 0:
            return ProviderTimeout(
                f"{self.provider}: {host} sent nothing for {self.idle:g} s; the call was given up as stalled",
                hint=self.idle_hint,
            )
        if self.run_reason:
            return RunDeadlineReached(
                f"{self.provider}: call to {host} stopped: {self.run_reason}",
                hint="finished work is kept; raise that timeout in deepkb.yml to give runs longer",
            )
        return ProviderTimeout(
            f"{self.provider}: no complete answer from {host} within {self.seconds:g} s", hint=self.hint
        )

    def unreadable(self, host: str, why: str) -> ProviderResponseError:
        """An answer refused for its shape (JSON nested too deep), as one line naming the host."""
        return ProviderResponseError(f"{self.provider}: {host}: {why}; refused", hint="check the base URL")

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
    """An httpx transport that holds each request to the current `Budget`: time left and body size.

    It counts the bytes on the wire and asks for them uncompressed. With `uncompressed_only`, an answer
    compressed all the same is refused: for clients (the SDK's) whose decoded bytes we cannot count, a
    small compressed body could still expand without bound."""

    def __init__(self, inner: Any, stream_class: type, uncompressed_only: bool) -> None:
        self.inner, self.stream_class, self.uncompressed_only = inner, stream_class, uncompressed_only

    def handle_request(self, request: Any) -> Any:
        host = request.url.host
        # a request sent outside `bounded` still gets a deadline: these clients set no timeout of their own
        budget = _CURRENT.get() or Budget.start(host, UNBUDGETED_SECONDS)
        left = budget.remaining()  # read once: a second reading could be past the deadline
        if left <= 0:
            raise budget.timed_out(host)
        timeouts = request.extensions.get("timeout") or {}
        limits = {
            phase: left if limit is None else min(limit, left) for phase, limit in timeouts.items()
        } or dict.fromkeys(("connect", "read", "write", "pool"), left)
        if budget.idle is not None:  # a read waits for the next bytes no longer than the idle deadline
            limits["read"] = min(limits.get("read", left), budget.idle)
        request.extensions["timeout"] = limits
        request.headers["accept-encoding"] = "identity"  # so the bytes counted are the bytes kept
        response = self.inner.handle_request(request)
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > budget.max_body:
            response.close()
            raise budget.too_large(host)
        if self.uncompressed_only and response.headers.get("content-encoding", "identity") != "identity":
            response.close()
            raise ProviderResponseError(
                f"{budget.provider}: {host} compressed its answer although asked not to; refused",
                hint="check the base URL",
            )
        json_like = any(kind in response.headers.get("content-type", "") for kind in ("json", "event-stream"))
        response.stream = self.stream_class(response.stream, budget, host, json_like)
        return response

    def close(self) -> None:
        self.inner.close()


def bounded_transport(
    module: ModuleType = httpx,
    inner: Any = None,
    *,
    proxy: str | None = None,
    uncompressed_only: bool = False,
) -> Any:
    """A `BaseTransport` of `module` that obeys the current `Budget` (see `bounded`), sending through `inner`
    (default: the module's own HTTPTransport, through `proxy` if given; tests pass a MockTransport).

    Built per httpx module because the Anthropic SDK 2.x ships its own fork (`httpx2`) with the same
    transport interface and refuses objects whose classes come from `httpx`.
    """
    transport_class, stream_class = _classes_for(module.BaseTransport, module.SyncByteStream)
    return transport_class(inner or module.HTTPTransport(proxy=proxy), stream_class, uncompressed_only)


@functools.cache
def _classes_for(base_transport: type, base_stream: type) -> tuple[type, type]:
    class BoundedStream(base_stream):  # type: ignore[misc, valid-type]
        """The response body, chunk by chunk, checking the budget after each one and, for a JSON body (by
        its type or its first character) or an event stream, its nesting depth as it arrives."""

        def __init__(self, inner: Any, budget: Budget, host: str, json_like: bool = False) -> None:
            self.inner, self.budget, self.host = inner, budget, host
            self.meter: NestingMeter | None = NestingMeter() if json_like else None

        def __iter__(self) -> Iterator[bytes]:
            received = 0
            for chunk in self.inner:
                if not received and self.meter is None and chunk.lstrip()[:1] in (b"{", b"["):
                    self.meter = NestingMeter()
                received += len(chunk)
                self.budget.check(received, self.host)
                if self.meter is not None:
                    try:
                        self.meter.feed(chunk)
                    except TooDeep as exc:
                        raise self.budget.unreadable(self.host, str(exc)) from None
                yield chunk

        def close(self) -> None:
            self.inner.close()

    class BoundedTransport(_BoundedTransport, base_transport):  # type: ignore[misc, valid-type]
        pass

    return BoundedTransport, BoundedStream


def bounded_client(
    inner: httpx.BaseTransport | None = None, *, proxy: str | None = None, **options: Any
) -> httpx.Client:
    """An httpx client whose requests obey the current `Budget` (see `bounded`).

    It sets no per-phase timeout of its own (httpx's default is 5 s a read): each request gets the time its
    call has left."""
    return httpx.Client(transport=bounded_transport(httpx, inner, proxy=proxy), timeout=None, **options)


def environment_proxy(url: str) -> str | None:
    """The proxy HTTP(S)_PROXY / ALL_PROXY name for `url`, unless NO_PROXY exempts its host.

    httpx reads these itself only for clients without a transport of their own; ours has one, so the
    model clients pick the proxy here and keep honouring the environment as before."""
    host = urlsplit(url).hostname
    proxies = urllib.request.getproxies_environment()
    if not host or urllib.request.proxy_bypass(host):
        return None
    return proxies.get(urlsplit(url).scheme) or proxies.get("all")
