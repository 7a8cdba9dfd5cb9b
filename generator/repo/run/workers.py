"""Running shard jobs in `deadlines.JobPool`: at most `limit` at once, one progress line per shard, idle
and total timeouts. A job in a long stage gets a heartbeat every 10 s, which counts as progress; a job
that fails (or times out) is returned as its exception while the others carry on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from generator import deadlines
from generator.deadlines import Clock, DeadlinePassed, JobPool, RunDeadline
from generator.errors import ResearchError
from generator.terminal import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

HEARTBEAT_SECONDS = 10.0
LONG_STAGES = ("packing", "asking the model")

Report = Callable[[str], None]


@dataclass(frozen=True)
class Job:
    key: int
    label: str
    work: Callable[[Report], Any]  # runs in a thread; calls report(stage) as it goes


@dataclass
class _Watch:
    """The stage each running job last reported, and when the last heartbeat was sent (run clock)."""

    pool: JobPool[int]
    display: _Display
    stages: dict[int, str] = field(default_factory=dict)
    last_heartbeat: float = 0.0

    def report(self, key: int) -> Report:
        def stage(name: str) -> None:  # called from the job's thread
            self.stages[key] = name
            self.pool.touch()
            self.display.update(key, name)

        return stage

    def heartbeat(self) -> None:
        """Every HEARTBEAT_SECONDS a job packing or waiting for the model counts as alive."""
        now = self.pool.deadline.clock()
        if now - self.last_heartbeat < HEARTBEAT_SECONDS:
            return
        self.last_heartbeat = now
        stages = dict(self.stages)
        if any(stage in LONG_STAGES for stage in stages.values()):
            self.pool.touch()
        self.display.heartbeat(stages, now - self.pool.deadline.started)


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

    The run's open deadline, when there is one, supplies the clock and the start time. An exception that is
    not an `Exception` (KeyboardInterrupt) in a job stops the whole run with it."""
    run = deadlines.current()
    clock: Clock = run.clock if run else time.monotonic
    begun = run.started if run else (clock() if started is None else started)
    pool: JobPool[int] = JobPool(RunDeadline("repo", total_timeout, idle_timeout, clock, begun), limit)
    with _Display(console, jobs) as display:
        watch = _Watch(pool, display, last_heartbeat=clock())
        results: dict[int, Any] = {}
        reason = _run_all(jobs, watch, results)
        for job in jobs:
            if job.key not in results:
                results[job.key] = ResearchError(reason or "cancelled")
                display.finish(job.key, f"failed: {reason or 'cancelled'}")
    return results


def _run_all(jobs: Sequence[Job], watch: _Watch, results: dict[int, Any]) -> str:
    """Fill `results` as the jobs end; the timeout's reason when the run ran out of time, else ""."""
    pool = watch.pool
    waiting = list(reversed(jobs))  # the next job to start is last
    while waiting or pool.running:
        while waiting and pool.has_room():
            job = waiting.pop()
            pool.submit(job.key, partial(job.work, watch.report(job.key)), name=f"deepkb-shard-{job.key}")
        try:
            finished = pool.wait(on_tick=watch.heartbeat)
        except DeadlinePassed as passed:
            return passed.reason  # the jobs still running are abandoned in their daemon threads
        for key, future in finished:
            watch.stages.pop(key, None)
            _finish(key, future, watch.display, results)
    return ""


def _finish(key: int, future: Future[Any], display: _Display, results: dict[int, Any]) -> None:
    error = future.exception()
    if error is None:
        results[key] = future.result()
        display.finish(key, "done")
    elif isinstance(error, Exception):
        results[key] = error
        display.finish(key, f"failed: {error}")
    else:
        raise error


class _Display:
    """One progress line per shard on the console (stderr), redrawn as the shards go on a terminal; written
    once as each shard ends on anything else (a log, a pipe: nothing there to redraw); nothing when there is
    no console."""

    def __init__(self, console: Console | None, jobs: Sequence[Job]) -> None:
        self.progress: Progress | None = None
        self.tasks: dict[int, TaskID] = {}
        self.log: Console | None = None
        self.labels = {job.key: job.label for job in jobs}
        self.started = time.monotonic()
        if console is None:
            return
        if not console.is_terminal:
            self.log = console
            return
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

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
        if self.log is not None and key in self.labels:
            elapsed = time.monotonic() - self.started
            line = " ".join(f"{self.labels[key]} {stage[:120]}".split())
            self.log.file.write(f"  {printable(line)}  {elapsed:.1f} s\n")  # plain text: no markup read
            self.log.file.flush()
        if self.progress is not None and key in self.tasks:
            self.progress.update(self.tasks[key], stage=shown(stage[:120]), completed=1)

    def heartbeat(self, stages: dict[int, str], elapsed: float) -> None:
        # the stage is passed raw: update() makes it printable once
        for key, stage in stages.items():
            self.update(key, f"{stage} (still working, {elapsed:.0f} s)")


def shown(text: str) -> str:
    """Model and repository text as a progress column shows it: printable, its [markup] literal."""
    from rich.markup import escape

    return escape(printable(text))
