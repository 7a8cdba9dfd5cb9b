"""The ResearchTeam dispatcher: its routing table, every edge case, dependency-aware parallel steps, the loop guard."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable

import pytest

from generator.deadlines import run_all, run_deadline
from generator.errors import ResearchError, RunTimeout, UsageError
from generator.topic.dispatch import Route, StepOutcome, ready_steps, route, run_plan
from generator.topic.plan import Plan, Step, heuristic_plan, validate_plan


def _plan(*steps: Step, enough: bool = True, iteration: int = 1) -> Plan:
    return Plan(
        topic="t", sub_queries=["q"], steps=list(steps), has_enough_context=enough, iteration=iteration
    )


def _step(sid: str, kind: str = "research", deps: list[str] | None = None, status: str = "pending") -> Step:
    return Step(id=sid, title=f"step {sid}", step_type=kind, depends_on=deps or [], status=status)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- routing table


def test_routing_table_by_step_type() -> None:
    assert route(_plan(_step("a"), _step("b", "processing"))) == Route("researcher", "a")
    assert route(_plan(_step("a", status="done"), _step("b", "processing"))) == Route("processing", "b")


def test_unknown_step_type_goes_to_researcher_with_a_warning() -> None:
    decision = route(_plan(_step("a", "astrology")))
    assert decision.role == "researcher" and decision.step_id == "a"
    assert decision.warning and "unknown type 'astrology'" in decision.warning


def test_no_plan_goes_to_planner() -> None:
    assert route(None) == Route("planner")


def test_empty_plan_goes_to_reporter_with_a_warning() -> None:
    decision = route(_plan())
    assert decision.role == "reporter" and decision.warning and "no steps" in decision.warning


def test_all_done_goes_to_reporter() -> None:
    assert route(_plan(_step("a", status="done"), _step("b", status="failed"))) == Route("reporter")


def test_all_done_replans_while_iterations_allow() -> None:
    done = _step("a", status="done")
    assert route(_plan(done, enough=False, iteration=1), max_plan_iterations=2).role == "planner"
    assert route(_plan(done, enough=False, iteration=2), max_plan_iterations=2).role == "reporter"
    assert route(_plan(done, enough=True, iteration=1), max_plan_iterations=2).role == "reporter"


def test_first_unfinished_step_wins_in_plan_order() -> None:
    plan = _plan(_step("a", status="done"), _step("b", "processing"), _step("c"))
    assert route(plan).step_id == "b"


# --------------------------------------------------------------------------- runner


def _recorder(events: list[str], lock: threading.Lock):
    def execute(step: Step, role: str) -> StepOutcome:
        with lock:
            events.append(f"start:{step.id}:{role}")
        with lock:
            events.append(f"end:{step.id}")
        return StepOutcome("done", sources=[f"src-{step.id}"])

    return execute


def test_dependencies_are_respected() -> None:
    plan = _plan(_step("a"), _step("b"), _step("c", "processing", ["a", "b"]), _step("d", deps=["c"]))
    events: list[str] = []
    run_plan(plan, _recorder(events, threading.Lock()), parallel=True, max_concurrent=4)
    assert all(s.status == "done" for s in plan.steps)
    assert events.index("start:c:processing") > max(events.index("end:a"), events.index("end:b"))
    assert events.index("start:d:researcher") > events.index("end:c")
    assert plan.step("c").sources == ["src-c"]


class _Gate:
    """Each step waits (bounded) until `want` steps have been in flight at once, and records the peak.

    The condition is latched on the peak: a step that finishes early must not send the others back to wait."""

    def __init__(self, want: int, timeout: float = 5.0) -> None:
        self.want, self.timeout, self.in_flight, self.peak = want, timeout, 0, 0
        self.cond = threading.Condition()

    def __call__(self, step: Step, role: str) -> StepOutcome:
        with self.cond:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.peak >= self.want, timeout=self.timeout)
        with self.cond:
            self.in_flight -= 1
        return StepOutcome("done")


def test_independent_steps_run_concurrently_when_allowed() -> None:
    plan = _plan(_step("a"), _step("b"), _step("c"))
    gate = _Gate(want=3)
    stats = run_plan(plan, gate, parallel=True, max_concurrent=4)
    assert gate.peak == 3 and stats.max_in_flight == 3


def test_concurrency_is_bounded() -> None:
    plan = _plan(*(_step(f"s{i}") for i in range(5)))
    gate = _Gate(want=5, timeout=0.2)  # never reached: the bound holds the peak at 2
    run_plan(plan, gate, parallel=True, max_concurrent=2)
    assert gate.peak == 2


def test_no_parallel_runs_steps_one_at_a_time_in_order() -> None:
    plan = _plan(_step("a"), _step("b"), _step("c"))
    gate = _Gate(want=3, timeout=0.2)  # never reached: one step at a time
    order: list[str] = []
    run_plan(plan, gate, parallel=False, on_step=lambda step, outcome, secs: order.append(step.id))
    assert gate.peak == 1
    assert order == ["a", "b", "c"]


def test_loop_guard_stops_a_step_that_never_finishes() -> None:
    plan = _plan(_step("a"), _step("b"))
    calls: list[str] = []

    def stubborn(step: Step, role: str) -> StepOutcome:
        calls.append(step.id)
        return StepOutcome("done") if step.id == "b" else StepOutcome("retry")

    with pytest.raises(ResearchError, match="dispatch loop guard: 5 dispatches for 2 steps"):
        run_plan(plan, stubborn, parallel=False)
    assert calls == ["a", "a", "a", "a"]  # 2 × 2 steps dispatched, the fifth refused
    assert plan.step("a").status == "pending"


def test_replan_is_bounded_by_max_plan_iterations() -> None:
    plan = _plan(_step("a"), enough=False)
    replans: list[int] = []

    def replan(p: Plan) -> None:
        p.iteration += 1
        replans.append(p.iteration)
        p.steps.append(_step(f"r{p.iteration}"))
        p.has_enough_context = False  # the planner keeps asking for more

    run_plan(plan, lambda s, r: StepOutcome("done"), replan=replan, max_plan_iterations=3)
    assert replans == [2, 3]
    assert [s.id for s in plan.steps] == ["a", "r2", "r3"] and all(s.status == "done" for s in plan.steps)


def test_step_error_is_recorded_and_others_finish() -> None:
    from generator.errors import ProviderTimeout

    plan = _plan(_step("a"), _step("b"), _step("c", deps=["a"]))

    def flaky(step: Step, role: str) -> StepOutcome:
        if step.id == "a":
            raise ProviderTimeout("search timed out")
        return StepOutcome("done")

    run_plan(plan, flaky, parallel=True)
    assert [s.status for s in plan.steps] == ["failed", "done", "done"]
    assert "search timed out" in plan.step("a").notes[0]


def test_unexpected_error_stops_the_run_after_running_steps_are_checkpointed() -> None:
    plan = _plan(_step("a"), _step("b"), _step("c", deps=["a", "b"]))
    saved: list[str] = []

    def boom(step: Step, role: str) -> StepOutcome:
        if step.id == "a":
            raise RuntimeError("killed")
        return StepOutcome("done")

    with pytest.raises(RuntimeError, match="killed"):
        run_plan(plan, boom, parallel=False, on_step=lambda s, o, t: saved.append(s.id))
    assert plan.step("a").status == "pending" and plan.step("c").status == "pending"


def test_ready_steps_wait_for_dependencies() -> None:
    plan = _plan(_step("a", status="done"), _step("b", deps=["a"]), _step("c", deps=["b"]))
    assert [s.id for s in ready_steps(plan, set())] == ["b"]


# --------------------------------------------------------------------------- plan validation


def test_heuristic_plan_covers_the_facets_and_depends_correctly() -> None:
    plan = heuristic_plan("vector databases")
    research = [s for s in plan.steps if s.step_type == "research"]
    assert len(research) == 5 and len(plan.sub_queries) == 5
    assert any("compare" in q for q in plan.sub_queries) and any(
        "current state" in q for q in plan.sub_queries
    )
    processing = [s for s in plan.steps if s.step_type == "processing"]
    assert processing[0].depends_on == [s.id for s in research]
    assert len(heuristic_plan("vector databases", quick=True).sub_queries) == 3
    assert "是什么" in heuristic_plan("向量数据库", lang="zh").sub_queries[0]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["steps"][1].update(depends_on=["nope"]), "step 's2' depends on unknown step 'nope'"),
        (lambda d: d["steps"][0].update(depends_on=["s6"]), "dependency cycle"),
        (lambda d: d["steps"][1].update(id="s1"), "duplicate step id 's1'"),
        (lambda d: d["steps"][0].pop("title"), "'steps.0.title': Field required"),
        (lambda d: d["steps"][0].update(status="maybe"), "'steps.0.status'"),
    ],
)
def test_broken_plan_edit_gives_one_clear_line(mutate, message) -> None:
    data = heuristic_plan("vector databases").model_dump()
    mutate(data)
    with pytest.raises(UsageError) as info:
        validate_plan(data)
    assert message in info.value.line() and "\n" not in info.value.line()


# --------------------------------------------------------------------------- run deadlines


def test_total_timeout_abandons_a_hung_step_and_records_it() -> None:
    plan = _plan(_step("a"), _step("b"))
    release, now = threading.Event(), [0.0]
    checkpointed: list[tuple[str, str]] = []

    def execute(step: Step, role: str) -> StepOutcome:
        if step.id == "a":
            return StepOutcome("done")
        now[0] += 1000  # the far side never answers; the run's clock moves on
        release.wait(30)
        return StepOutcome("done")

    try:
        with run_deadline("topic", total=60, clock=lambda: now[0]), pytest.raises(RunTimeout) as caught:
            run_plan(plan, execute, on_step=lambda s, o, _: checkpointed.append((s.id, o.status)))
    finally:
        release.set()
    assert caught.value.exit_code == 3
    assert "total timeout" in caught.value.line() and "topic.total_timeout" in caught.value.line()
    assert sorted(checkpointed) == [("a", "done"), ("b", "failed")]
    assert plan.step("b").status == "failed" and "stopped: total timeout" in plan.step("b").notes[0]


def test_idle_timeout_stops_a_run_whose_steps_stop_finishing() -> None:
    plan = _plan(_step("a"))
    release, now = threading.Event(), [0.0]

    def execute(step: Step, role: str) -> StepOutcome:
        now[0] += 11
        release.wait(30)
        return StepOutcome("done")

    try:
        with (
            run_deadline("topic", total=0, idle=10, clock=lambda: now[0]),
            pytest.raises(RunTimeout) as caught,
        ):
            run_plan(plan, execute)
    finally:
        release.set()
    assert "idle timeout" in caught.value.line() and "topic.idle_timeout" in caught.value.line()


def test_a_hung_step_does_not_keep_the_process_alive() -> None:
    # asyncio.to_thread's pool threads are joined at exit: one call that never returns hung the process
    script = textwrap.dedent(
        """
        import sys, threading
        from generator.deadlines import run_all, run_deadline
        from generator.errors import DeepkbError
        from generator.topic.dispatch import StepOutcome, run_plan
        from generator.topic.plan import Plan, Step

        plan = Plan(topic="t", sub_queries=["q"], steps=[Step(id="a", title="a", step_type="research")])
        now = [0.0]

        def never_answers(step, role):
            now[0] += 100
            threading.Event().wait()

        try:
            with run_deadline("topic", total=10, clock=lambda: now[0]):
                run_plan(plan, never_answers)
        except DeepkbError as exc:
            print(exc.line(), file=sys.stderr)
            sys.exit(exc.exit_code)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1 and "total timeout" in done.stderr


def test_run_all_keeps_the_order_the_limit_and_the_first_error() -> None:
    lock, running, most = threading.Lock(), [0], [0]

    def work(n: int) -> Callable[[], int]:
        def run() -> int:
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.02 * (5 - n))  # later jobs end first
            with lock:
                running[0] -= 1
            return n * n

        return run

    assert run_all([work(n) for n in range(5)], limit=2) == [0, 1, 4, 9, 16]
    assert most[0] == 2

    def broken() -> int:
        raise ResearchError("entry 1 broke")

    with pytest.raises(ResearchError, match="entry 1 broke"):
        run_all([work(0), broken, work(2)], limit=3)
