"""Topic research, end to end: PLANNING → CRAWLING → AGGREGATE → ANALYSIS → REPORT → VERIFY → COMPLETED.

Each phase is one method taking what the earlier phases saved; `_meta.json` and `plan.json` are checkpointed
after every phase and every step, so `resume` continues where a run stopped and repeats no finished step.
The pipeline does not take the workspace lock: the CLI (`topic run`, `build`) holds it.
"""

from __future__ import annotations

import threading

from rich.console import Console

from ..config import Config, TopicEntry
from ..errors import DeepkbError, PartialFailure, UsageError
from ..llm.base import Provider
from ..store import KBPaths
from . import workspace as wsp
from .aggregate import aggregate
from .analyze import Analysis, Catalog, analyze
from .dispatch import DispatchStats, Role, StepOutcome, run_plan
from .plan import Plan, Step, make_plan, replan
from .processing import process_step
from .report import PageContext, write_analysis, write_landing, write_report
from .research import ResearchContext, open_providers, research_step
from .state import ORDER, Options, Phase, Run, TopicMeta, TopicResult, cost_estimate, now_iso
from .verify import MAX_VERIFY_ROUNDS, supplementary_steps, verify_report


def run_topic_research(
    paths: KBPaths,
    config: Config,
    provider: Provider,
    entry: TopicEntry,
    *,
    console: Console | None = None,
    quick: bool = False,
    verify: bool | None = None,
    parallel: bool | None = None,
    sources: list[str] | None = None,
    lang: str | None = None,
    review_plan: bool = False,
    refresh: bool = False,
) -> TopicResult:
    """Research one topic into `site_src/topics/<slug>/`, continuing an unfinished run of the same topic.

    A completed topic younger than its `refresh_days`, asked for with the same sources and language, is
    returned as it is (so `deepkb build` re-runs nothing); `refresh=True` (`deepkb topic run`) researches again.
    """
    if lang not in (None, "en", "zh"):
        raise UsageError(f"--lang: unsupported language '{lang}'", hint="use en or zh")
    options = Options.model_validate(
        dict(
            quick=quick,
            verify=False if quick else (entry.verify if verify is None else verify),
            parallel=False if quick else (entry.parallel if parallel is None else parallel),
            sources=list(sources or entry.sources),
            lang=lang or entry.lang,
            review_plan=review_plan,
        )
    )
    slug = wsp.topic_slug(entry.topic, entry.slug)
    meta = wsp.load_meta(paths, slug)
    if meta is not None and meta.status == "completed" and not refresh and meta.is_fresh(options):
        return TopicRun(paths, config, provider, meta, console).result()
    if meta is None or meta.status == "completed":
        meta = _fresh_meta(entry.topic, slug, options, meta)
        meta.refresh_days = entry.refresh_days
        return TopicRun(paths, config, provider, meta, console, fresh=True).execute()
    if meta.status == "awaiting_review":
        run = TopicRun(paths, config, provider, meta, console)
        run.console.print(
            f"[yellow]topic '{meta.id}' is waiting for its plan to be reviewed:[/yellow] edit "
            f"{run.ws.plan_file}, then run: deepkb topic resume {meta.id}"
        )
        return run.result()
    run = TopicRun(paths, config, provider, meta, console)
    run.console.print(
        f"Continuing the unfinished run of '{meta.id}' from {meta.progress.phase} ({meta.status})"
    )
    return run.execute()


def resume_topic_research(
    paths: KBPaths, config: Config, provider: Provider, topic_id: str, *, console: Console | None = None
) -> TopicResult:
    """`deepkb topic resume ID`: continue a paused (plan review), interrupted or failed run."""
    meta = wsp.find_topic(paths, topic_id)
    if meta.status == "completed":
        raise UsageError(
            f"topic '{meta.id}' is already completed",
            hint=f'refresh it with: deepkb topic run "{meta.topic}"',
        )
    if meta.status == "awaiting_review":
        meta.plan_reviewed = True  # running resume is the user's approval of the (edited) plan
    return TopicRun(paths, config, provider, meta, console).execute()


def _fresh_meta(topic: str, slug: str, options: Options, previous: TopicMeta | None) -> TopicMeta:
    meta = TopicMeta(id=slug, topic=topic, slug=slug, options=options)
    if previous is not None:  # a refresh keeps the history and the creation date
        meta.created_at, meta.runs, meta.metrics = previous.created_at, previous.runs, previous.metrics
    return meta


class TopicRun:
    """One run over one topic workspace: the phases in order, checkpointed."""

    def __init__(
        self,
        paths: KBPaths,
        config: Config,
        provider: Provider,
        meta: TopicMeta,
        console: Console | None,
        *,
        fresh: bool = False,
    ) -> None:
        self.paths, self.config, self.provider, self.meta = paths, config, provider, meta
        self.console = console or Console(stderr=True, highlight=False)
        self.ws = wsp.Workspace(paths, meta.slug)
        self.plan: Plan | None = None if fresh else wsp.load_plan(paths, meta.slug)
        self.tokens_at_start = dict(meta.metrics.tokens)
        self.calls_at_start = meta.metrics.llm_calls
        self.lock = threading.Lock()
        self.failed: list[str] = []

    # ----------------------------------------------------------------------- the table of contents

    def execute(self) -> TopicResult:
        self._start_run()
        phases = {
            Phase.PLANNING: self.planning,
            Phase.CRAWLING: self.crawling,
            Phase.AGGREGATE: self.aggregating,
            Phase.ANALYSIS: self.analysing,
            Phase.REPORT: self.reporting,
            Phase.VERIFY: self.verifying,
        }
        try:
            while (phase := self._next_phase()) is not None:
                self.meta.progress.phase = phase
                self._save()
                outcome = phases[phase]()
                if outcome == "pause":  # the plan waits for the user's review
                    return self._pause()
                if outcome != "loop":  # verification reopened the research phases
                    self.meta.finish_phase(phase)
                self._save()
        except DeepkbError as exc:
            self._fail(exc.line())
            raise
        except Exception as exc:
            self._fail(f"{type(exc).__name__}: {exc}")
            raise
        return self._complete()

    def _next_phase(self) -> Phase | None:
        return next((p for p in ORDER if p is not Phase.INIT and not self.meta.done(p)), None)

    # ----------------------------------------------------------------------- phases

    def planning(self) -> str | None:
        if self.plan is None:
            opts = self.meta.options
            self.plan = make_plan(self.provider, self.meta.topic, lang=opts.lang, quick=opts.quick)
            for note in self.plan.notes:
                self._warn(f"plan: {note}")
            wsp.save_plan(self.paths, self.meta.slug, self.plan)
        self.meta.queries = list(self.plan.sub_queries)
        self.meta.metrics.plan_iterations = self.plan.iteration
        if self.meta.options.review_plan and not self.meta.plan_reviewed:
            return "pause"
        return None

    def crawling(self) -> None:
        plan = self._require_plan()
        self._progress()
        ctx = self._research_context()

        def execute(step: Step, role: Role) -> StepOutcome:
            if role == "processing":
                return process_step(self.provider, step, self._sources_for(step))
            return research_step(ctx, step)

        try:
            stats = run_plan(
                plan,
                execute,
                parallel=self.meta.options.parallel,
                max_concurrent=self.config.llm.max_concurrent,
                on_step=self._checkpoint_step,
                replan=self._replan,
            )
        finally:
            ctx.close()
        self._record_dispatch(stats)

    def aggregating(self) -> None:
        sources = wsp.list_raw_sources(self.paths, self.meta.slug)
        data = aggregate(self.provider, self.meta.topic, sources)
        if data.get("degraded"):
            self._warn(str(data.get("note")))
        wsp.save_aggregated(self.paths, self.meta.slug, data)
        # the sources now say which of the topic's phrases matter: their pages carry the same tags as the topic
        wsp.retag_raw_sources(self.paths, self.meta.slug, wsp.topic_tags(self._keywords(), self.paths))

    def analysing(self) -> None:
        ctx = self._page_context()
        analysis = analyze(self.provider, ctx.plan, ctx.catalog, lang=self.meta.options.lang)
        for note in analysis.notes:
            self._warn(note)
        wsp.save_findings(self.paths, self.meta.slug, analysis.to_json())
        write_analysis(ctx, analysis, wsp.load_aggregated(self.paths, self.meta.slug))

    def reporting(self) -> None:
        ctx = self._page_context()
        analysis = Analysis.from_json(wsp.load_findings(self.paths, self.meta.slug))
        unresolved = write_report(ctx, analysis)
        self.meta.verification["unresolved_citations"] = unresolved
        if unresolved:
            self._warn(f"{unresolved} citation(s) did not resolve to a stored source and were removed")

    def verifying(self) -> str | None:
        if not self.meta.options.verify:
            return None
        ctx = self._page_context()
        result = verify_report(self.ws, ctx.plan, ctx.catalog)
        rounds = self.meta.metrics.verify_rounds
        self.meta.verification.update(result.to_json(), rounds=rounds)
        if result.passed or rounds >= MAX_VERIFY_ROUNDS:
            for problem in result.problems:
                self._warn(f"verify: {problem}")
            return None
        extra = supplementary_steps(ctx.plan, result, rounds + 1)
        self.meta.metrics.verify_rounds = rounds + 1
        if not extra:
            return None
        self.console.print(
            f"[yellow]verify:[/yellow] {'; '.join(result.problems)} — adding {len(extra)} step(s)"
        )
        ctx.plan.steps.extend(extra)
        wsp.save_plan(self.paths, self.meta.slug, ctx.plan)
        self.meta.reopen(Phase.CRAWLING, Phase.AGGREGATE, Phase.ANALYSIS, Phase.REPORT, Phase.VERIFY)
        return "loop"

    # ----------------------------------------------------------------------- helpers

    def _research_context(self) -> ResearchContext:
        try:
            providers = open_providers(self.paths, self.meta.options.sources)
        except DeepkbError as exc:
            raise UsageError(f"--sources: {exc.message}", hint=exc.hint) from None
        tags = wsp.topic_tags(self._keywords(), self.paths)
        return ResearchContext(
            self.paths, self.meta.slug, self.meta.topic, self.provider, providers, tags=tags, warn=self._warn
        )

    def _sources_for(self, step: Step) -> list[wsp.RawSource]:
        plan = self._require_plan()
        wanted = {sid for dep in step.depends_on for sid in plan.step(dep).sources}
        every = wsp.list_raw_sources(self.paths, self.meta.slug)
        return [s for s in every if s.id in wanted] or every

    def _replan(self, plan: Plan) -> None:
        found = "\n".join(f"- {s.title}: {len(s.sources)} sources" for s in plan.steps)
        replan(self.provider, plan, found, lang=self.meta.options.lang, quick=self.meta.options.quick)
        self.meta.metrics.plan_iterations = plan.iteration
        wsp.save_plan(self.paths, self.meta.slug, plan)

    def _checkpoint_step(self, step: Step, outcome: StepOutcome, seconds: float) -> None:
        metrics = self.meta.metrics
        metrics.steps_by_type[step.step_type] = metrics.steps_by_type.get(step.step_type, 0) + 1
        metrics.step_durations[step.id] = round(seconds, 3)
        if outcome.status == "failed":
            metrics.failures.append({"step": step.id, "error": "; ".join(outcome.notes)[:300]})
            self.failed.append(step.id)
        self.meta.stats.raw_items += outcome.found
        self.meta.stats.deduplicated += outcome.dropped
        wsp.save_plan(self.paths, self.meta.slug, self._require_plan())
        self._progress()
        self._save()
        done, total = self.meta.progress.completed_tasks, self.meta.progress.total_tasks
        mark = "[green]done[/green]" if outcome.status == "done" else f"[red]{outcome.status}[/red]"
        self.console.print(
            f"[{done}/{total}] {mark} {step.title} ({len(outcome.sources)} sources)", markup=True
        )

    def _record_dispatch(self, stats: DispatchStats) -> None:
        self.meta.metrics.dispatch_loops += stats.dispatches
        for warning in stats.warnings:
            self._warn(warning)

    def _progress(self) -> None:
        plan = self._require_plan()
        self.meta.progress.completed_tasks = plan.done_count()
        self.meta.progress.total_tasks = len(plan.steps)

    def _require_plan(self) -> Plan:
        if self.plan is None:
            self.plan = wsp.load_plan(self.paths, self.meta.slug)
        if self.plan is None:
            raise UsageError(
                f"topic '{self.meta.id}' has no plan.json", hint="run the topic again to re-plan"
            )
        return self.plan

    def _page_context(self) -> PageContext:
        catalog = Catalog(wsp.list_raw_sources(self.paths, self.meta.slug))
        keywords = self._keywords()
        tags = wsp.topic_tags([*keywords, "topic-research"], self.paths)
        return PageContext(
            self.ws, self.meta, self._require_plan(), catalog, self.provider.offline, tags, keywords
        )

    def _keywords(self) -> list[str]:
        return wsp.topic_keywords(self.paths, self.meta.slug, self.meta.topic)

    def _warn(self, message: str) -> None:
        with self.lock:
            self.meta.warn(message)
        self.console.print(f"[yellow]warning:[/yellow] {message}", markup=True, highlight=False)

    def _save(self) -> None:
        usage = self.provider.usage
        tokens = {
            "input": self.tokens_at_start.get("input", 0) + usage.input_tokens,
            "output": self.tokens_at_start.get("output", 0) + usage.output_tokens,
        }
        self.meta.metrics.tokens = tokens
        self.meta.metrics.llm_calls = self.calls_at_start + usage.calls
        self.meta.metrics.cost_estimate_usd = cost_estimate(
            self.provider.name, tokens["input"], tokens["output"]
        )
        self.meta.stats.sources_count = (
            len(list(self.ws.raw_dir.glob("*.md"))) if self.ws.raw_dir.is_dir() else 0
        )
        with self.lock:  # researchers may add a warning from their threads meanwhile
            wsp.save_meta(self.paths, self.meta)

    # ----------------------------------------------------------------------- run bookkeeping

    def _start_run(self) -> None:
        self.meta.status = "in_progress"
        self.meta.provider = self.provider.name
        self.meta.error = ""
        self.meta.runs.append(Run(started_at=now_iso(), provider=self.provider.name))
        self._save()

    def _end_run(self, status: str, note: str = "") -> None:
        self.meta.runs[-1].finished_at = now_iso()
        self.meta.runs[-1].status = status
        self.meta.runs[-1].note = note
        self._save()
        self._write_landing()

    def _pause(self) -> TopicResult:
        self.meta.status = "awaiting_review"
        self._end_run("awaiting_review", "plan written for review")
        self.console.print(
            f"Plan written to {self.ws.plan_file}; edit it, then run: deepkb topic resume {self.meta.id}"
        )
        return self.result()

    def _fail(self, line: str) -> None:
        self.meta.status = "failed"
        self.meta.error = line
        self._end_run("failed", line)

    def _complete(self) -> TopicResult:
        self.meta.status = "completed"
        self.meta.progress.phase = Phase.COMPLETED
        self._end_run("completed")
        _update_index(self.paths)
        result = self.result()
        if self.failed:
            error = PartialFailure(
                f"topic '{self.meta.id}': {len(self.failed)} step(s) failed: {', '.join(self.failed)}"
            )
            error.result = result  # type: ignore[attr-defined]  # the CLI still prints the result
            raise error
        return result

    def _write_landing(self) -> None:
        if self.plan is None:
            return
        ctx = self._page_context()
        data = wsp.load_findings(self.paths, self.meta.slug)
        findings = Analysis.from_json(data) if data else None
        write_landing(ctx, findings)

    def result(self) -> TopicResult:
        m = self.meta
        return TopicResult(
            id=m.id,
            slug=m.slug,
            topic=m.topic,
            status=m.status,
            phase=str(m.progress.phase),
            workspace=str(self.ws.root),
            report=str(self.ws.report_file) if self.ws.report_file.is_file() else None,
            sources_count=m.stats.sources_count,
            raw_items=m.stats.raw_items,
            deduplicated=m.stats.deduplicated,
            unresolved_citations=int(m.verification.get("unresolved_citations", 0)),
            failed_steps=list(self.failed),
            warnings=list(m.warnings),
            verification=dict(m.verification),
            metrics=m.metrics.model_dump(mode="json"),
        )


def _update_index(paths: KBPaths) -> None:
    from ..kb.index import update_index

    update_index(paths)
