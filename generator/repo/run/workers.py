"""Running shard jobs concurrently: bounded by a semaphore, one progress line per shard, idle and total timeouts.

Provider calls are synchronous, so each job runs in its own daemon thread and reports its stage back to the
event loop. A job in a long stage (packing, waiting for the model) sends a heartbeat every 10 s, which counts
as progress; the idle timeout catches a job that stops reporting, the total timeout bounds the whole run.
A job that fails (or times out) is returned as its exception; the others carry on. A job still hanging at a
timeout is abandoned: its daemon thread cannot keep the process alive. When a run deadline is open
(`generator.deadlines`), its clock and start time are the run's, so tests step time instead of waiting.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn

from generator import deadlines
from generator.deadlines import Clock, RunDeadline
from generator.errors import ResearchError
from generator.terminal import printable

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
    deadline: RunDeadline
    last_progress: float = 0.0
    last_heartbeat: float = 0.0
    stages: dict[int, str] = field(default_factory=dict)  # running job → its current stage
    reason: str = ""

    def __post_init__(self) -> None:
        self.last_progress = self.last_heartbeat = self.deadline.clock()

    def touch(self) -> None:
        self.last_progress = self.deadline.clock()


def run_jobs(
    jobs: Sequence[Job],
    *,
    limit: int,
    idle_timeout: float = 0,
    total_timeout: float = 0,
    started: float | None = None,
    console: Console | None = None,
) -> dict[int, Any]:
    """Run every job, at most `limit` at once. Returns key → result, or key → the exception it failed with.

    The run's open deadline, when there is one, supplies the clock and the start time."""
    run = deadlines.current()
    clock: Clock = run.clock if run else time.monotonic
    begun = run.started if run else (clock() if started is None else started)
    watch = _Watch(RunDeadline("repo", total_timeout, idle_timeout, clock, begun))
    display = _Display(console, jobs)
    with display:
        return asyncio.run(_run_all(jobs, max(1, limit), watch, display))


async def _run_all(jobs: Sequence[Job], limit: int, watch: _Watch, display: _Display) -> dict[int, Any]:
    semaphore = asyncio.Semaphore(limit)
    results: dict[int, Any] = {}
    tasks = [asyncio.create_task(_run_one(job, semaphore, watch, display, results)) for job in jobs]
    watchdog = asyncio.create_task(_watchdog(tasks, watch, display))
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

        def report(stage: str) -> None:
            deadlines.post(loop, _on_stage, job.key, stage, watch, display)

        try:
            results[job.key] = await deadlines.in_daemon_thread(
                lambda: job.work(report), name=f"deepkb-shard-{job.key}"
            )
            display.finish(job.key, "done")
        except Exception as exc:
            results[job.key] = exc
            display.finish(job.key, f"failed: {exc}")
        finally:
            watch.stages.pop(job.key, None)
            watch.touch()


def _on_stage(key: int, stage: str, watch: _Watch, display: _Display) -> None:
    watch.stages[key] = stage
    watch.touch()
    display.update(key, stage)


async def _watchdog(tasks: list[asyncio.Task[None]], watch: _Watch, display: _Display) -> None:
    deadline = watch.deadline
    while True:
        await asyncio.sleep(_TICK)
        now = deadline.clock()
        if now - watch.last_heartbeat >= HEARTBEAT_SECONDS:
            watch.last_heartbeat = now
            if any(stage in LONG_STAGES for stage in watch.stages.values()):
                watch.touch()  # heartbeat: a job packing or waiting for the model is alive
            display.heartbeat(watch.stages, now - deadline.started)
        if deadline.remaining() < 0:
            watch.reason = deadline.total_reason()
        elif deadline.idle and now - watch.last_progress > deadline.idle:
            watch.reason = deadline.idle_reason()
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
            self.tasks[job.key] = self.progress.add_task(shown(job.label), total=1, stage="waiting")

    def __enter__(self) -> _Display:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def update(self, key: int, stage: str) -> None:
        if self.progress is not None and key in self.tasks:
            self.progress.update(self.tasks[key], stage=shown(stage))

    def finish(self, key: int, stage: str) -> None:
        if self.progress is not None and key in self.tasks:
            self.progress.update(self.tasks[key], stage=shown(stage[:120]), completed=1)

    def heartbeat(self, stages: dict[int, str], elapsed: float) -> None:
        # the stage is passed raw: update() makes it printable once
        for key, stage in stages.items():
            self.update(key, f"{stage} (still working, {elapsed:.0f} s)")


def shown(text: str) -> str:
    """Model and repository text as a progress column shows it: printable, its [markup] literal."""
    return escape(printable(text))
