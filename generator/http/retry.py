"""The retry rule every model and search call follows (stated in `generator/http/__init__.py`)."""

from __future__ import annotations

import email.utils
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC
from typing import TypeVar

from generator.errors import ProviderError

from .budget import Budget, bounded

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
