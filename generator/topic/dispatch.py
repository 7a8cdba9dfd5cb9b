"""Dispatch (the ResearchTeam): which role handles the next step, and the runner that executes the plan.

`route` is the routing table; `run_plan` runs every step whose dependencies finished, concurrently when
allowed (`deadlines.JobPool`), checkpoints after each, and stops a run that loops without finishing or
outlives topic.total_timeout / idle_timeout (the running steps are recorded as failed: RunTimeout).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Literal, NoReturn

from .. import deadlines
from ..deadlines import DeadlinePassed, JobPool, RunDeadline
from ..errors import DeepkbError, ResearchError, RunTimeout
from ..jsontypes import StoredObject
from .plan import STEP_TYPES, Plan, Step

Role = Literal["planner", "researcher", "processing", "reporter"]
MAX_PLAN_ITERATIONS = 2


@dataclass(frozen=True)
class Route:
    role: Role
    step_id: str | None = None
    warning: str | None = None


def role_for(step: Step) -> tuple[Role, str | None]:
    """research → researcher, processing → processing role, anything else → researcher with a warning."""
    if step.step_type == "processing":
        return "processing", None
    if step.step_type not in STEP_TYPES:
        return "researcher", f"step '{step.id}' has unknown type '{step.step_type}'; treating it as research"
    return "researcher", None


def route(plan: Plan | None, *, max_plan_iterations: int = MAX_PLAN_ITERATIONS) -> Route:
    """The ResearchTeam routing table: who acts next given the plan's state."""
    if plan is None:
        return Route("planner")
    if not plan.steps:
        return Route("reporter", warning="the plan has no steps; reporting on what is already stored")
    step = next((s for s in plan.steps if s.status == "pending"), None)
    if step is not None:
        role, warning = role_for(step)
        return Route(role, step.id, warning)
    if not plan.has_enough_context and plan.iteration < max_plan_iterations:
        return Route("planner")
    return Route("reporter")


# --------------------------------------------------------------------------- the runner


@dataclass
class StepOutcome:
    """What a role reports for one step. `retry` leaves it pending, so it is dispatched again."""

    status: Literal["done", "failed", "retry"]
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    result: StoredObject | None = None
    found: int = 0  # candidates seen before dedupe
    dropped: int = 0  # candidates dropped as duplicates


ExecuteStep = Callable[[Step, Role], StepOutcome]
OnStep = Callable[[Step, StepOutcome, float], None]
Replan = Callable[[Plan], None]  # extends the plan in place


@dataclass
class DispatchStats:
    dispatches: int = 0
    max_in_flight: int = 0
    warnings: list[str] = field(default_factory=list)


def ready_steps(plan: Plan, running: set[str]) -> list[Step]:
    """Pending steps whose dependencies have all finished (done or failed), in plan order."""
    finished = {s.id for s in plan.steps if s.status != "pending"}
    return [
        s
        for s in plan.steps
        if s.status == "pending" and s.id not in running and all(dep in finished for dep in s.depends_on)
    ]


def run_plan(
    plan: Plan,
    execute: ExecuteStep,
    *,
    parallel: bool = True,
    max_concurrent: int = 4,
    on_step: OnStep | None = None,
    replan: Replan | None = None,
    max_plan_iterations: int = MAX_PLAN_ITERATIONS,
    deadline: RunDeadline | None = None,
) -> DispatchStats:
    """Run the plan to the end (every step finished, no re-plan wanted). Raises the first unexpected error
    after the steps already running have finished and been checkpointed.

    `deadline` (default: the run's open deadline, if any) bounds the whole plan and the time between steps."""
    runner = _Runner(
        plan,
        execute,
        parallel=parallel,
        limit=max_concurrent if parallel else 1,
        on_step=on_step,
        replan=replan,
        max_plan_iterations=max_plan_iterations,
        deadline=deadline or deadlines.current() or RunDeadline("topic"),
    )
    return runner.run()


@dataclass
class _Runner:
    plan: Plan
    execute: ExecuteStep
    parallel: bool
    limit: int
    on_step: OnStep | None
    replan: Replan | None
    max_plan_iterations: int
    deadline: RunDeadline
    stats: DispatchStats = field(default_factory=DispatchStats)

    def __post_init__(self) -> None:
        self.limit = max(1, self.limit)
        self.pool: JobPool[str] = JobPool(self.deadline, self.limit)

    def run(self) -> DispatchStats:
        error: BaseException | None = None
        while True:
            if error is None:
                try:
                    self._launch_ready()
                except ResearchError as exc:
                    error = exc
            if not self.pool.running:
                if error is not None:
                    raise error
                if not self._maybe_replan():
                    return self.stats
                continue
            error = self._collect() or error

    def _launch_ready(self) -> None:
        ready = ready_steps(self.plan, set(self.pool.running))
        if not self.parallel:
            ready = ready[:1] if not self.pool.running else []
        for step in ready[: self.limit - len(self.pool.running)]:
            self._count_dispatch()
            role, warning = role_for(step)
            if warning:
                self.stats.warnings.append(warning)
            self.pool.submit(step.id, partial(self._timed, step, role), name=f"deepkb-step-{step.id}")
        self.stats.max_in_flight = max(self.stats.max_in_flight, len(self.pool.running))
        if not self.pool.running and any(s.status == "pending" for s in self.plan.steps):
            raise ResearchError("the plan has pending steps whose dependencies can never finish")

    def _count_dispatch(self) -> None:
        self.stats.dispatches += 1
        # seed: a run that dispatches more than twice its step count is looping
        if self.stats.dispatches > 2 * max(1, len(self.plan.steps)):
            raise ResearchError(
                f"dispatch loop guard: {self.stats.dispatches} dispatches for {len(self.plan.steps)} steps",
                hint="a step keeps asking to be retried; check its notes in plan.json",
            )

    def _timed(self, step: Step, role: Role) -> tuple[StepOutcome, float]:
        started = time.perf_counter()
        return self.execute(step, role), time.perf_counter() - started

    def _collect(self) -> BaseException | None:
        try:
            finished = self.pool.wait()
        except DeadlinePassed as passed:
            self._stop(passed)
        error: BaseException | None = None
        for step_id, future in finished:
            try:
                outcome, seconds = _outcome(future)
            except BaseException as exc:  # stop the run; finished steps stay checkpointed
                error = error or exc
                continue
            self._apply(self.plan.step(step_id), outcome, seconds)
        return error

    def _stop(self, passed: DeadlinePassed) -> NoReturn:
        """Past the total or idle timeout: record the abandoned steps as failed and stop the run."""
        reason = passed.reason
        for step_id in passed.abandoned:
            self._apply(self.plan.step(step_id), StepOutcome("failed", notes=[f"stopped: {reason}"]), 0.0)
        raise RunTimeout(
            f"topic research stopped: {reason}",
            hint=f"finished steps are saved: 'deepkb topic resume' continues; "
            f"or raise topic.{'total' if 'total' in reason else 'idle'}_timeout in deepkb.yml",
        )

    def _apply(self, step: Step, outcome: StepOutcome, seconds: float) -> None:
        if outcome.status != "retry":
            step.status = outcome.status
        step.sources = list(dict.fromkeys([*step.sources, *outcome.sources]))
        step.notes.extend(n for n in outcome.notes if n not in step.notes)
        if outcome.result is not None:
            step.result = outcome.result
        if self.on_step:
            self.on_step(step, outcome, seconds)

    def _maybe_replan(self) -> bool:
        decision = route(self.plan, max_plan_iterations=self.max_plan_iterations)
        if decision.warning:
            self.stats.warnings.append(decision.warning)
        if decision.role != "planner" or self.replan is None:
            return False
        self._count_dispatch()
        before = len(self.plan.steps)
        self.replan(self.plan)
        return len(self.plan.steps) > before


def _outcome(future: Future[tuple[StepOutcome, float]]) -> tuple[StepOutcome, float]:
    """A finished step's outcome and seconds; a deepkb error fails the step alone, anything else is raised."""
    try:
        return future.result()
    except DeepkbError as exc:
        return StepOutcome("failed", notes=[exc.line()]), 0.0
