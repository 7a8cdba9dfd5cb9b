"""Running shard jobs concurrently: bounded by a semaphore, one progress line per shard, idle and total timeouts.

Provider calls are synchronous, so each job runs in its own daemon thread and reports its stage back to the
event loop. A job in a long stage (packing, waiting for the model) sends a heartbeat every 10 s, which counts
as progress; the idle timeout catches a job that stops reporting, the total timeout bounds the whole run.
A job that fails (or times out) is returned as its exception; the others carry on.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn

from generator.errors import ResearchError

HEARTBEAT_SECONDS = 10.0
_TICK = 0.2
LONG_STAGES = ("packing", "asking the model")

Report = Callable[[str], None]


@dataclass(frozen=True)
class Job:
    key: int
    label: str
    work: Callable[[Report], Any]  # runs in a thread; calls report(stage) as it goes


@dataclass
class _Watch:
    started: float
    last_progress: float = field(default_factory=time.monotonic)
    last_heartbeat: float = field(default_factory=time.monotonic)
    stages: dict[int, str] = field(default_factory=dict)  # running job → its current stage
    reason: str = ""

    def touch(self) -> None:
        self.last_progress = time.monotonic()


def run_jobs(
    jobs: Sequence[Job],
    *,
    limit: int,
    idle_timeout: float = 0,
    total_timeout: float = 0,
    started: float | None = None,
    console: Console | None = None,
) -> dict[int, Any]:
    """Run every job, at most `limit` at once. Returns key → result, or key → the exception it failed with."""
    watch = _Watch(started=started if started is not None else time.monotonic())
    display = _Display(console, jobs)
    with display:
        return asyncio.run(_run_all(jobs, max(1, limit), watch, idle_timeout, total_timeout, display))


async def _run_all(
    jobs: Sequence[Job], limit: int, watch: _Watch, idle: float, total: float, display: _Display
) -> dict[int, Any]:
    semaphore = asyncio.Semaphore(limit)
    results: dict[int, Any] = {}
    tasks = [asyncio.create_task(_run_one(job, semaphore, watch, display, results)) for job in jobs]
    watchdog = asyncio.create_task(_watchdog(tasks, watch, idle, total, display))
    await asyncio.gather(*tasks, return_exceptions=True)
    watchdog.cancel()
    for job in jobs:
        if job.key not in results:
            results[job.key] = ResearchError(watch.reason or "cancelled")
            display.finish(job.key, f"failed: {watch.reason or 'cancelled'}")
    return results


async def _run_one(
    job: Job, semaphore: asyncio.Semaphore, watch: _Watch, display: _Display, results: dict[int, Any]
) -> None:
    loop = asyncio.get_running_loop()
    async with semaphore:
        watch.touch()
        done: asyncio.Future[Any] = loop.create_future()

        def report(stage: str) -> None:
            _post(loop, _on_stage, job.key, stage, watch, display)

        def target() -> None:
            try:
                value = job.work(report)
            except BaseException as exc:  # handed to the loop; KeyboardInterrupt stops the whole run there
                _post(loop, _settle, done, None, exc)
            else:
                _post(loop, _settle, done, value, None)

        # a daemon thread: a model call still hanging after a timeout must not keep the process alive
        threading.Thread(target=target, name=f"deepkb-shard-{job.key}", daemon=True).start()
        try:
            results[job.key] = await done
            display.finish(job.key, "done")
        except Exception as exc:
            results[job.key] = exc
            display.finish(job.key, f"failed: {exc}")
        finally:
            watch.stages.pop(job.key, None)
            watch.touch()


def _post(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:
        pass  # the run ended (a timeout gave up on this job): nobody is listening any more


def _on_stage(key: int, stage: str, watch: _Watch, display: _Display) -> None:
    watch.stages[key] = stage
    watch.touch()
    display.update(key, stage)


def _settle(future: asyncio.Future[Any], value: Any, exc: BaseException | None) -> None:
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(value)


async def _watchdog(
    tasks: list[asyncio.Task[None]], watch: _Watch, idle: float, total: float, display: _Display
) -> None:
    while True:
        await asyncio.sleep(_TICK)
        now = time.monotonic()
        if now - watch.last_heartbeat >= HEARTBEAT_SECONDS:
            watch.last_heartbeat = now
            if any(stage in LONG_STAGES for stage in watch.stages.values()):
                watch.touch()  # heartbeat: a job packing or waiting for the model is alive
            display.heartbeat(watch.stages, now - watch.started)
        if total and now - watch.started > total:
            watch.reason = f"total timeout: the run took longer than {total:g} s (repo.total_timeout)"
        elif idle and now - watch.last_progress > idle:
            watch.reason = f"idle timeout: no progress for {idle:g} s (repo.idle_timeout)"
        else:
            continue
        for task in tasks:
            task.cancel()
        return


class _Display:
    """One progress line per shard on the console (stderr); nothing when there is no console."""

    def __init__(self, console: Console | None, jobs: Sequence[Job]) -> None:
        self.progress: Progress | None = None
        self.tasks: dict[int, TaskID] = {}
        if console is None:
            return
        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TextColumn("[dim]{task.fields[stage]}[/dim]"),
            TimeElapsedColumn(),
            console=console,
        )
        for job in jobs:
            self.tasks[job.key] = self.progress.add_task(job.label, total=1, stage="waiting")

    def __enter__(self) -> _Display:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def update(self, key: int, stage: str) -> None:
        if self.progress is not None and key in self.tasks:
            self.progress.update(self.tasks[key], stage=stage)

    def finish(self, key: int, stage: str) -> None:
        if self.progress is not None and key in self.tasks:
            self.progress.update(self.tasks[key], stage=stage[:120], completed=1)

    def heartbeat(self, stages: dict[int, str], elapsed: float) -> None:
        for key, stage in stages.items():
            self.update(key, f"{stage} (still working, {elapsed:.0f} s)")
