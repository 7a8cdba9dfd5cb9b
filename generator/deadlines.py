"""Run deadlines: how long one research run may take, seen by every model call and every worker pool.

A run opens one `RunDeadline` (repo.* or topic.* idle/total timeouts). `generator.http` never lets a call
outlive it, and the worker pools (repo shards, topic steps) stop waiting at it and abandon what still runs:
work runs in daemon threads, so a thread stuck on a far side that never answers cannot keep the process
alive. Tests open a deadline with their own clock instead of waiting. asyncio is imported by the pools that
await (`in_daemon_thread`), not by every command that opens a deadline.
"""

from __future__ import annotations

import contextvars
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import asyncio

Clock = Callable[[], float]
T = TypeVar("T")


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

    def idle_reason(self) -> str:
        return f"idle timeout: no progress for {self.idle:g} s ({self.section}.idle_timeout)"


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


async def in_daemon_thread(work: Callable[[], T], name: str) -> T:
    """Await `work` run in a `daemon_thread`. Cancelling the await abandons the thread instead of joining it
    (asyncio.to_thread's pool threads are joined at exit, so one hung call would keep the process alive)."""
    import asyncio

    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def target() -> None:
        try:
            value = work()
        except BaseException as exc:  # handed to the loop; KeyboardInterrupt stops the whole run there
            post(loop, _settle, done, None, exc)
        else:
            post(loop, _settle, done, value, None)

    daemon_thread(target, name)
    return await done


def post(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    """Call `callback` on `loop` from another thread, unless the run that owned the loop has ended."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:
        pass  # the run ended (a timeout gave up on this work): nobody is listening any more


def _settle(future: asyncio.Future[Any], value: Any, exc: BaseException | None) -> None:
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(value)
