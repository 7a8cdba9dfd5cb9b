"""Running shard jobs concurrently: at most `limit` at once, one progress line per shard, idle and total timeouts.

Provider calls are synchronous, so each job runs in its own daemon thread and sends its stages, its result or
its exception back through one queue; the calling thread alone starts jobs, keeps the watch and draws the
progress lines (no event loop: a repository run has nothing else to await). A job in a long stage (packing,
waiting for the model) sends a heartbeat every 10 s, which counts as progress; the idle timeout catches a job
that stops reporting, the total timeout bounds the whole run. A job that fails (or times out) is returned as
its exception; the others carry on. A job still hanging at a timeout is abandoned: its daemon thread cannot
keep the process alive. When a run deadline is open (`generator.deadlines`), its clock and start time are
the run's, so tests step time instead of waiting.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from generator import deadlines
from generator.deadlines import Clock, RunDeadline
from generator.errors import ResearchError
from generator.terminal import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

HEARTBEAT_SECONDS = 10.0
_TICK = 0.2  # real seconds between two looks at the timeouts
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


@dataclass(frozen=True)
class _Event:
    """What a job's thread sends back: a new stage, its result, or the exception it ended with."""

    key: int
    kind: Literal["stage", "done", "failed"]
    value: Any


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
    watch = _Watch(RunDeadline("repo", total_timeout, idle_timeout, clock, begun))
    display = _Display(console, jobs)
    with display:
        return _run_all(jobs, max(1, limit), watch, display)


def _run_all(jobs: Sequence[Job], limit: int, watch: _Watch, display: _Display) -> dict[int, Any]:
    events: queue.SimpleQueue[_Event] = queue.SimpleQueue()
    waiting = list(reversed(jobs))  # the next job to start is last
    running: set[int] = set()
    results: dict[int, Any] = {}
    next_look = time.monotonic() + _TICK
    while waiting or running:
        while waiting and len(running) < limit:
            job = waiting.pop()
            running.add(job.key)
            watch.touch()
            _start(job, events)
        try:
            event = events.get(timeout=max(0.0, next_look - time.monotonic()))
        except queue.Empty:
            pass
        else:
            if event.kind != "stage":
                running.discard(event.key)
            _on_event(event, watch, display, results)
        if time.monotonic() >= next_look:
            next_look = time.monotonic() + _TICK
            if _timed_out(watch, display):
                break  # the jobs still running are abandoned in their daemon threads
    for job in jobs:
        if job.key not in results:
            results[job.key] = ResearchError(watch.reason or "cancelled")
            display.finish(job.key, f"failed: {watch.reason or 'cancelled'}")
    return results


def _start(job: Job, events: queue.SimpleQueue[_Event]) -> None:
    def report(stage: str) -> None:
        events.put(_Event(job.key, "stage", stage))

    def work() -> None:
        try:
            value = job.work(report)
        except BaseException as exc:  # handed to the calling thread; KeyboardInterrupt stops the run there
            events.put(_Event(job.key, "failed", exc))
        else:
            events.put(_Event(job.key, "done", value))

    deadlines.daemon_thread(work, name=f"deepkb-shard-{job.key}")


def _on_event(event: _Event, watch: _Watch, display: _Display, results: dict[int, Any]) -> None:
    if event.kind == "stage":
        watch.stages[event.key] = event.value
        watch.touch()
        display.update(event.key, event.value)
        return
    watch.stages.pop(event.key, None)
    watch.touch()
    if event.kind == "done":
        results[event.key] = event.value
        display.finish(event.key, "done")
    elif isinstance(event.value, Exception):
        results[event.key] = event.value
        display.finish(event.key, f"failed: {event.value}")
    else:
        raise event.value


def _timed_out(watch: _Watch, display: _Display) -> bool:
    """Send the heartbeat when one is due; True (with the reason kept) once the run is out of time."""
    deadline = watch.deadline
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
    return bool(watch.reason)


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
