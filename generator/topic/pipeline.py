"""Topic research, end to end: PLANNING → CRAWLING → AGGREGATE → ANALYSIS → REPORT → VERIFY → COMPLETED.

Each phase is one method over saved records (topic/workspace.py), checkpointed after every phase and step so
`resume` repeats no finished step. The pipeline writes no pages (the caller's `publish` renders them) and
takes no lock (the CLI holds it) and leaves the index to its caller; a run with no usable source raises
`NoUsableSources`.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import msgspec
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from ..cjk import written_language
from ..config import Config
from ..errors import DeepkbError, NoUsableSources, PartialFailure, ResearchError, UsageError
from ..llm.base import Provider, model_label
from ..llm.cost import usage_cost
from ..store import KBPaths, read_json, safe_join, write_json
from . import identity
from . import workspace as wsp
from .aggregate import aggregate
from .analyze import analyze
from .defining import subject_named
from .dispatch import Role, StepOutcome, run_plan
from .findings import Analysis, Catalog
from .plan import DocumentOutline, Plan, Step, make_plan, replan
from .processing import process_step
from .report import Report, build_report, refused_figures
from .research import ResearchContext, open_providers, research_step, seed_research, survey
from .state import ORDER, Options, Phase, Run, TopicMeta, TopicResult, TopicTarget, now_iso
from .subject_names import CorpusNames, corpus_subject
from .verify import MAX_VERIFY_ROUNDS, supplementary_steps, verify_report
from .versions import of_asked_release

MAX_TOPIC_CHARS = 500
PUBLISHED = frozenset({"completed", "unverified"})  # the run ended with a report
FINISHED = PUBLISHED | {"no_sources"}  # a new run starts afresh; `resume` has nothing to continue
Publish = Callable[[KBPaths, str], None]  # renders a topic's pages from its saved records (the page layer)


def run_topic_research(
    paths: KBPaths,
    config: Config,
    provider: Provider,
    target: TopicTarget,
    *,
    console: Console | None = None,
    publish: Publish | None = None,
) -> TopicResult:
    """Research one topic into `site_src/topics/<slug>/`, continuing an unfinished run of the same topic.

    A completed topic younger than its `refresh_days`, asked for with the same sources and language, is
    returned as it is (so `deepkb build` re-runs nothing), unless the target asks for a refresh.
    """
    options, slug = target.options, target.slug
    meta = wsp.load_meta(paths, slug)
    # an unverified report is published and labelled as such: like a completed one it waits for refresh_days
    if meta is not None and meta.status in PUBLISHED and not target.refresh and meta.is_fresh(options):
        return TopicRun(paths, config, provider, meta, console, publish).result()
    if meta is None or meta.status in FINISHED:
        meta = _fresh_meta(target.topic, slug, options, meta)
        meta.refresh_days = target.entry.refresh_days
        return TopicRun(paths, config, provider, meta, console, publish, fresh=True).execute()
    if meta.status == "awaiting_review":
        run = TopicRun(paths, config, provider, meta, console, publish)
        run.console.print(
            f"[yellow]topic '{meta.id}' is waiting for its plan to be reviewed:[/yellow] edit "
            f"{run.ws.plan_file}, then run: deepkb topic resume {meta.id}"
        )
        return run.result()
    if target.entry_options:
        fields = {"sources", "lang", "verify", "parallel", "quick"}
        meta.options = msgspec.structs.replace(
            meta.options, **{name: getattr(options, name) for name in fields}
        )
    run = TopicRun(paths, config, provider, meta, console, publish)
    run.console.print(
        f"Continuing the unfinished run of '{meta.id}' from {meta.progress.phase} ({meta.status})"
    )
    return run.execute()


def unverified_line(result: TopicResult) -> str:
    """What `--strict` reports, and what the CLI prints, for a report published without passing verification."""
    check = result.verification
    return (
        f"topic '{result.id}': answered from {check.distinct_sources} source(s); not verified"
        f" ({'; '.join(check.problems)})"
    )


def resume_topic_research(
    paths: KBPaths,
    config: Config,
    provider: Provider,
    topic_id: str,
    *,
    console: Console | None = None,
    publish: Publish | None = None,
) -> TopicResult:
    """`deepkb topic resume ID`: continue a paused (plan review), interrupted or failed run."""
    meta = wsp.find_topic(paths, topic_id)
    if meta.status in FINISHED:
        raise UsageError(
            f"topic '{meta.id}' has already finished ({meta.status})",
            hint=f'refresh it with: deepkb topic run "{meta.topic}"',
        )
    listed = [entry for entry in config.topics if " ".join(entry.topic.split()) == meta.topic]
    if listed:  # as build does: the entry's options, never the ones a record on disk claims
        entry = listed[0]
        meta.options = msgspec.structs.replace(
            meta.options,
            sources=list(entry.sources),
            lang=entry.lang or written_language(meta.topic),
            verify=entry.verify,
            parallel=entry.parallel,
        )
    elif read_json(_options_file(paths, meta.slug)) != msgspec.to_builtins(meta.options):
        raise UsageError(
            f"topic '{meta.id}' was not started on this machine with the options its _meta.json records",
            hint=f'start it here: deepkb topic run "{meta.topic}" (with the --sources you want)',
        )
    if meta.status == "awaiting_review":
        meta.plan_reviewed = True  # running resume is the user's approval of the (edited) plan
    return TopicRun(paths, config, provider, meta, console, publish).execute()


def _options_file(paths: KBPaths, slug: str) -> Path:
    """Where a run records the options it started with: the cache is this machine's own, never published or
    merged, so `resume` can tell a run it started from a `_meta.json` that arrived with someone's site_src."""
    return safe_join(paths.cache_dir, "topics", slug, "options.json")


def _fresh_meta(topic: str, slug: str, options: Options, previous: TopicMeta | None) -> TopicMeta:
    meta = TopicMeta(id=slug, topic=topic, slug=slug, topic_key=identity.topic_key(topic), options=options)
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
        publish: Publish | None = None,
        *,
        fresh: bool = False,
    ) -> None:
        self.paths, self.config, self.provider, self.meta = paths, config, provider, meta
        self.publish = publish
        self.console = console or Console(stderr=True, highlight=False)
        self.ws = wsp.Workspace(paths, meta.slug)
        self.plan: Plan | None = None if fresh else wsp.load_plan(paths, meta.slug)
        self.tokens_at_start = dict(meta.metrics.tokens)
        self.calls_at_start = meta.metrics.llm_calls
        self.cost_at_start = meta.metrics.cost_estimate_usd
        self.lock = threading.Lock()
        self.failed: list[str] = []

    # ----------------------------------------------------------------------- the table of contents

    def execute(self) -> TopicResult:
        self._start_run()
        write_json(_options_file(self.paths, self.meta.slug), msgspec.to_builtins(self.meta.options))
        phases = {
            Phase.PLANNING: self.planning,
            Phase.CRAWLING: self.crawling,
            Phase.AGGREGATE: self.aggregating,
            Phase.ANALYSIS: self.analysing,
            Phase.REPORT: self.reporting,
            Phase.VERIFY: self.verifying,
        }
        try:
            with subject_named(self.meta.topic, self._corpus_subject()):
                paused = self._run_phases(phases)
            if paused is not None:
                return paused
        except DeepkbError as exc:
            self._fail(exc.line())
            raise
        except ValidationError as exc:
            # a record out of bounds (a model draft, an edited file): one line, not a traceback
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or exc.title
            raise self._failed(f"{exc.title}.{where}: {first['msg']}") from exc
        except Exception as exc:
            raise self._failed(
                f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            ) from exc
        return self._complete()

    def _run_phases(self, phases: dict[Phase, Callable[[], str | None]]) -> TopicResult | None:
        """Each phase not yet done, in order; the paused result when the plan waits for the user's review."""
        while (phase := self._next_phase()) is not None:
            self.meta.progress.phase = phase
            self._save()
            outcome = phases[phase]()
            if outcome == "pause":  # the plan waits for the user's review
                return self._pause()
            if outcome != "loop":  # verification reopened the research phases
                self.meta.finish_phase(phase)
            self._save()
        return None

    def _failed(self, reason: str) -> ResearchError:
        """Record an unexpected failure and turn it into one line, so `build` can go on with other topics."""
        line = f"topic '{self.meta.id}' failed: {reason}"[:500]
        self._fail(line)
        return ResearchError(
            line, hint=f"deepkb topic resume {self.meta.id} continues from {self.meta.progress.phase}"
        )

    def _next_phase(self) -> Phase | None:
        return next((p for p in ORDER if p is not Phase.INIT and not self.meta.done(p)), None)

    # ----------------------------------------------------------------------- phases

    def planning(self) -> str | None:
        if self.plan is None:
            opts = self.meta.options
            outlines = self._survey()
            self.plan = make_plan(
                self.provider, self.meta.topic, lang=opts.lang, quick=opts.quick, outlines=outlines
            )
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
            self._seed(ctx)
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
        self.meta.metrics.dispatch_loops += stats.dispatches
        for warning in stats.warnings:
            self._warn(warning)

    def aggregating(self) -> None:
        sources = wsp.list_raw_sources(self.paths, self.meta.slug)
        aggregation = aggregate(self.provider, self.meta.topic, sources)
        if aggregation.degraded:
            self._warn(aggregation.note)
        wsp.save_record(self.ws.aggregated_file, aggregation)
        # the sources now say which of the topic's phrases matter: their pages carry the same tags as the topic
        wsp.retag_raw_sources(self.paths, self.meta.slug, wsp.topic_tags(self._keywords(), self.paths))

    def analysing(self) -> None:
        analysis = analyze(
            self.provider, self._require_plan(), self._answering(), lang=self.meta.options.lang
        )
        for note in analysis.notes:
            self._warn(note)
        wsp.save_record(self.ws.findings_file, analysis)

    def reporting(self) -> None:
        analysis = wsp.load_record(self.ws.findings_file, Analysis) or Analysis(sections=[])
        report = build_report(self._require_plan(), analysis, self._answering())
        wsp.save_record(self.ws.report_record, report)
        for title in refused_figures(self._require_plan()):
            self._warn(f"chart '{title}' dropped: its stored spec does not validate (a value is not finite)")
        self.meta.verification.unresolved_citations = report.unresolved
        if report.unresolved:
            self._warn(f"{report.unresolved} citation(s) did not resolve to a stored source and were removed")

    def verifying(self) -> str | None:
        if not self.meta.options.verify:
            return None
        plan = self._require_plan()
        result = verify_report(self.ws, plan, self._report())
        rounds = self.meta.metrics.verify_rounds
        sources = len(self._catalog().sources)
        added_nothing = rounds > 0 and sources <= self.meta.verification.sources_before_round
        self.meta.verification = msgspec.structs.replace(
            self.meta.verification, **asdict(result), rounds=rounds
        )
        if result.passed or rounds >= MAX_VERIFY_ROUNDS or added_nothing:
            if added_nothing and not result.passed:
                self._warn(f"verify: round {rounds} found no new source; stopping")
            for problem in result.problems:
                self._warn(f"verify: {problem}")
            return None
        self.meta.verification.sources_before_round = sources
        extra = supplementary_steps(plan, result, rounds + 1)
        self.meta.metrics.verify_rounds = rounds + 1
        if not extra:
            return None
        self.console.print(
            f"[yellow]verify:[/yellow] {'; '.join(result.problems)} — adding {len(extra)} step(s)"
        )
        plan.steps.extend(extra)
        wsp.save_plan(self.paths, self.meta.slug, plan)
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

    def _corpus_subject(self) -> str:
        """The subject as the stored documents' titles name it where the question's grammar names no thing of
        its own (`corpus_subject`); '' when the sources hold no corpus or cannot be opened (the research
        phases say why)."""
        try:
            providers = open_providers(self.paths, self.meta.options.sources)
            titles = [title for p in providers.values() for title in p.titles()]
            shared = {word for p in providers.values() for word in p.shared_words(self.meta.topic)}
        except DeepkbError:
            return ""
        return corpus_subject(self.meta.topic, CorpusNames.of(titles, shared)) if titles else ""

    def _survey(self) -> list[DocumentOutline]:
        """The top documents' outlines the plan is drawn from (none when the sources cannot be searched)."""
        ctx = self._research_context()
        try:
            return survey(ctx)
        finally:
            ctx.close()

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

    def _seed(self, ctx: ResearchContext) -> None:
        """The seed retrieval, alone before the parallel steps: the defining documents, and the relevance
        scale every step is judged on."""
        outcome = seed_research(ctx)
        self.meta.stats.raw_items += outcome.found
        self.meta.stats.deduplicated += outcome.dropped
        self._save()
        self.console.print(
            f"{'; '.join(outcome.notes)} ({len(outcome.sources)} sources)", markup=False, soft_wrap=True
        )

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
        title = escape(" ".join(step.title.split()))  # the planner's text: its [brackets] are not markup
        # one line per step, never wrapped at the console's width: a pipe or a log reads it as one line
        self.console.print(
            f"[{done}/{total}] {mark} {title} ({len(outcome.sources)} sources)", markup=True, soft_wrap=True
        )

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

    def _catalog(self) -> Catalog:
        return Catalog(wsp.list_raw_sources(self.paths, self.meta.slug))

    def _answering(self) -> Catalog:
        """The stored sources that may answer the topic: another release's same-titled document does not."""
        return Catalog(of_asked_release(wsp.list_raw_sources(self.paths, self.meta.slug), self.meta.topic))

    def _report(self) -> Report | None:
        return wsp.load_record(self.ws.report_record, Report)

    def _keywords(self) -> list[str]:
        return wsp.topic_keywords(self.paths, self.meta.slug, self.meta.topic)

    def _warn(self, message: str) -> None:
        with self.lock:
            self.meta.warn(message)
        self.console.print(f"[yellow]warning:[/yellow] {message}", markup=True, highlight=False)

    def _save(self) -> None:
        usage = self.provider.usage
        self.meta.metrics.tokens = {
            "input": self.tokens_at_start.get("input", 0) + usage.input_tokens,
            "output": self.tokens_at_start.get("output", 0) + usage.output_tokens,
        }
        self.meta.metrics.llm_calls = self.calls_at_start + usage.calls
        # priced per model actually used (llm.prices): a model without a price, a local one, costs 0
        cost, _ = usage_cost(usage, self.config.llm)
        self.meta.metrics.cost_estimate_usd = round(self.cost_at_start + cost, 6)
        self.meta.stats.sources_count = len(list(self.ws.records_dir.glob("*.json")))
        with self.lock:  # researchers may add a warning from their threads meanwhile
            wsp.save_meta(self.paths, self.meta)

    # ----------------------------------------------------------------------- run bookkeeping

    def _start_run(self) -> None:
        self.meta.status = "in_progress"
        self.meta.provider = self.provider.name
        self.meta.model = "" if self.provider.offline else model_label(self.provider.model_for("analyze"))
        self.meta.error = ""
        self.meta.runs.append(Run(started_at=now_iso(), provider=self.provider.name))
        self._save()

    def _end_run(self, status: str, note: str = "") -> None:
        self.meta.runs[-1].finished_at = now_iso()
        self.meta.runs[-1].status = status
        self.meta.runs[-1].note = note
        self._save()
        if self.publish is not None:
            self.publish(self.paths, self.meta.slug)

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
        report = self._report()
        if report is None or not report.has_findings:
            return self._no_sources()
        verification = self.meta.verification
        unverified = bool(self.meta.options.verify) and verification.passed is False
        self.meta.status = "unverified" if unverified else "completed"
        self.meta.progress.phase = Phase.COMPLETED
        self._end_run(self.meta.status, "; ".join(verification.problems) if unverified else "")
        result = self.result()
        # unverified is an honest outcome, labelled on the pages (the caller reports it; `--strict` exits 3)
        if self.failed:
            line = f"{len(self.failed)} step(s) failed: {', '.join(self.failed)}"
            error = PartialFailure(f"topic '{self.meta.id}': {line}")
            error.result = result  # type: ignore[attr-defined]  # the CLI still prints the result
            raise error
        return result

    def _no_sources(self) -> TopicResult:
        """Nothing stored answers the topic: no report is published, and the run says so in one line."""
        stored = len(self._catalog().sources)
        line = (
            f"topic '{' '.join(self.meta.topic.split())[:120]}': no usable source found "
            f"({self.meta.stats.raw_items} candidate(s) seen, {stored} stored, none answering a sub-question)"
        )
        self.ws.report_record.unlink(missing_ok=True)
        self.meta.status = "no_sources"
        self.meta.error = line
        self.meta.progress.phase = Phase.COMPLETED
        self._end_run("no_sources", line)
        error = NoUsableSources(line, hint=f"try other --sources than {', '.join(self.meta.options.sources)}")
        error.result = self.result()  # type: ignore[attr-defined]  # the CLI still prints the result
        raise error

    def result(self) -> TopicResult:
        m = self.meta
        return TopicResult(
            id=m.id,
            slug=m.slug,
            topic=m.topic,
            status=m.status,
            phase=str(m.progress.phase),
            workspace=str(self.ws.root),
            report=str(self.ws.report_file)
            if m.status in PUBLISHED and self.ws.report_file.is_file()
            else None,
            sources_count=m.stats.sources_count,
            raw_items=m.stats.raw_items,
            deduplicated=m.stats.deduplicated,
            unresolved_citations=m.verification.unresolved_citations,
            failed_steps=list(self.failed),
            warnings=list(m.warnings),
            verification=copy.deepcopy(m.verification),
            metrics=copy.deepcopy(m.metrics),
        )
