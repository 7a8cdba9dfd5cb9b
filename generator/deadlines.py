"""Run deadlines, and the one pool that runs jobs under them (repository shards, topic steps).

A run opens one `RunDeadline` (repo.* or topic.* idle/total timeouts). `generator.http` never lets a call
outlive it, and `JobPool` stops waiting at it and abandons what still runs: jobs run in daemon threads, so a
thread stuck on a far side that never answers cannot keep the process alive (a ThreadPoolExecutor's threads
are joined at exit). Tests open a deadline with their own clock instead of waiting.
"""

from __future__ import annotations

import contextvars
import math
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

Clock = Callable[[], float]
K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
TICK = 0.2  # real seconds between two looks at the deadline while jobs run


@dataclass(frozen=True)
class RunDeadline:
    """`total` seconds for the run and `idle` seconds without progress (0 disables either)."""

    section: str
    """The deepkb.yml section that sets the timeouts: `repo` or `topic`."""
    total: float = 0.0
    idle: float = 0.0
    clock: Clock = field(default=time.monotonic, compare=False)
    started: float = 0.0

    def remaining(self) -> float:
        """Seconds left of the total; infinite when there is no total."""
        if not self.total:
            return math.inf
        return self.started + self.total - self.clock()

    def total_reason(self) -> str:
        return f"total timeout: the run took longer than {self.total:g} s ({self.section}.total_timeout)"


_CURRENT: contextvars.ContextVar[RunDeadline | None] = contextvars.ContextVar(
    "deepkb_run_deadline", default=None
)


def current() -> RunDeadline | None:
    """The deadline of the run this code is part of, if one was opened."""
    return _CURRENT.get()


@contextmanager
def run_deadline(
    section: str, *, total: float, idle: float = 0.0, clock: Clock = time.monotonic
) -> Iterator[RunDeadline]:
    """Open a run's deadline, starting now on `clock`, for the code (and threads started with
    `daemon_thread`) inside the block."""
    deadline = RunDeadline(section, total, idle, clock, clock())
    token = _CURRENT.set(deadline)
    try:
        yield deadline
    finally:
        _CURRENT.reset(token)


def daemon_thread(target: Callable[[], None], name: str) -> threading.Thread:
    """Start `target` in a daemon thread that sees the caller's run deadline.

    A daemon, because a call still hanging after its run gave up on it must not keep the process alive.
    """
    context = contextvars.copy_context()
    thread = threading.Thread(target=context.run, args=(target,), name=name, daemon=True)
    thread.start()
    return thread


class DeadlinePassed(Exception):
    """The run is out of time: `reason` says which timeout, `abandoned` which jobs were still running."""

    def __init__(self, reason: str, abandoned: list[Any]) -> None:
        super().__init__(reason)
        self.reason, self.abandoned = reason, abandoned


class JobPool(Generic[K]):
    """At most `limit` jobs at once, each in a daemon thread, waited for under `deadline`.

    Progress is a job ending, or `touch()` (a stage reported, a heartbeat); the idle timeout counts from the
    last progress, the total timeout from the deadline's start."""

    def __init__(self, deadline: RunDeadline, limit: int) -> None:
        self.deadline, self.limit = deadline, max(1, limit)
        self.running: dict[K, futures.Future[Any]] = {}
        self.last_progress = deadline.clock()

    def has_room(self) -> bool:
        return len(self.running) < self.limit

    def touch(self) -> None:
        self.last_progress = self.deadline.clock()

    def submit(self, key: K, work: Callable[[], Any], name: str) -> None:
        future: futures.Future[Any] = futures.Future()
        future.set_running_or_notify_cancel()

        def target() -> None:
            try:
                value = work()
            # handed to the waiting thread: a KeyboardInterrupt stops the run there
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(value)

        self.running[key] = future
        self.touch()
        daemon_thread(target, name)

    def wait(self, on_tick: Callable[[], None] | None = None) -> list[tuple[K, futures.Future[Any]]]:
        """Block until at least one job ends; its (key, future) pairs in the order they were submitted.

        While none ends, the deadline is looked at every TICK (`on_tick` runs first): past a timeout the
        running jobs are abandoned and DeadlinePassed is raised. Jobs that ended are always handed over first."""
        while True:
            done, _ = futures.wait(self.running.values(), timeout=TICK, return_when=futures.FIRST_COMPLETED)
            if done:
                finished = [(key, f) for key, f in self.running.items() if f in done]
                for key, _ in finished:
                    del self.running[key]
                self.touch()
                return finished
            self._check(on_tick)

    def _check(self, on_tick: Callable[[], None] | None) -> None:
        if on_tick is not None:
            on_tick()
        reason = self.expired()
        if reason:
            abandoned = list(self.running)
            self.running.clear()
            raise DeadlinePassed(reason, abandoned)

    def expired(self) -> str:
        """Why the run is out of time, or "" while it is not."""
        deadline = self.deadline
        if deadline.remaining() < 0:
            return deadline.total_reason()
        if deadline.idle and deadline.clock() - self.last_progress > deadline.idle:
            return f"idle timeout: no progress for {deadline.idle:g} s ({deadline.section}.idle_timeout)"
        return ""


def run_all(works: Sequence[Callable[[], T]], limit: int) -> list[T]:
    """Every callable, at most `limit` at once and with no deadline; the results in order. The first
    exception a callable raised is raised here once the others have ended."""
    pool: JobPool[int] = JobPool(RunDeadline("batch"), limit)
    results: dict[int, T] = {}
    error: BaseException | None = None
    waiting = list(reversed(range(len(works))))
    while waiting or pool.running:
        while waiting and pool.has_room():
            n = waiting.pop()
            pool.submit(n, works[n], name=f"deepkb-job-{n}")
        for n, future in pool.wait():
            try:
                results[n] = future.result()
            except BaseException as exc:  # re-raised below, once the others have ended
                error = error or exc
                waiting.clear()
    if error is not None:
        raise error
    return [results[n] for n in range(len(works))]
