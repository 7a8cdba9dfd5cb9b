"""Repository research end to end. `run_repo_research` reads like the seed's table of contents:
clone → map → facts (symbols, imports, the whole call graph) → plan (architect + normalize) →
analyze shards → synthesize (and answer the questions asked) → publish pages.

Stages return records; `publish` hands them to the page layer (generator/site/pages/repo.py). Every stage's
output is saved under the cache dir (run/session.py), so an unchanged repository costs no LLM call.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from generator.config import Config
from generator.errors import AnswerRejected, DeepkbError, ResearchError, error_line
from generator.llm.base import Provider
from generator.llm.offline import OfflineProvider
from generator.llm.window import context_window
from generator.redact import Redactor
from generator.repo.analyze.citations import Linker
from generator.repo.analyze.draft import (
    ShardContext,
    draft_offline,
    draft_with_model,
)
from generator.repo.checkout.clone import checkout
from generator.repo.docs.project import read_project_docs
from generator.repo.facts.entrypoints import resolve_entry_points
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.languages import SUPPORTED
from generator.repo.facts.mentions import readme_paragraph
from generator.repo.map.walk import map_repository, read_or_none
from generator.repo.model import (
    DRAFT_VERSION,
    Checkout,
    Facts,
    ModelDraft,
    OfflineDraft,
    RepoMap,
    Shard,
    ShardDraft,
    ShardPlan,
)
from generator.repo.plan.architect import plan_shards
from generator.repo.plan.naming import part_namer
from generator.repo.plan.normalize import normalize_shards
from generator.repo.plan.pinned import pinned_shards
from generator.repo.reference.build import read_reference
from generator.repo.run.session import RepoCache, SavedPlan, fingerprint, today
from generator.repo.run.study import RepoPartialFailure, RepoResult, RepoTarget, Study
from generator.repo.run.workers import Job, Report, run_jobs
from generator.repo.synthesize.synthesis import Outcome, synthesize
from generator.store import KBPaths

Publish = Callable[[RepoResult], None]
"""Renders and writes a research result's pages: the page layer's `publish_repo`, passed in by the caller."""

# bump when a prompt or a draft's shape changes, so cached stage outputs are not reused across it
PLAN_VERSION = 2
ANALYSIS_VERSION = 3
MAP_KEEP_BYTES = 32_000_000
"""File bytes held from map to facts: a second read saved, memory bounded."""


def run_repo_research(
    paths: KBPaths,
    config: Config,
    provider: Provider,
    target: RepoTarget,
    *,
    console: Console | None = None,
    publish: Publish | None = None,
) -> RepoResult:
    """Research one repository; `publish` (generator/site/pages/repo.py's `publish_repo`) writes its pages
    under site_src/repos/<owner>/<repo>/. The target's questions are answered on pages of their own, beside
    the general pages and the questions asked before. Raises RepoPartialFailure after publishing when some
    shards failed or fell back to the offline analyst because their model call failed; shards whose model
    answer was refused by the checks are published labelled (`RepoResult.refused_line`), and the run ends."""
    started = time.monotonic()  # the run's total timeout counts from here
    study = prepare(paths, config, provider, target, console=console)
    jobs = list(enumerate(study.plan.shards, 1))
    outcomes = analyze_shards(
        study, provider, jobs, max_concurrent=target.max_concurrent, console=console, started=started
    )
    result = synthesize(study, provider, outcomes)
    if publish is not None:
        publish(result)
    if result.synthesis.unfinished:
        raise RepoPartialFailure(result)
    return result


def prepare(
    paths: KBPaths, config: Config, provider: Provider, target: RepoTarget, *, console: Console | None = None
) -> Study:
    """Stages 1–5: clone, map, facts, plan and normalize. The plan never depends on a question: questions
    are answered on pages of their own (synthesize/questions.py). `target.retry_failed` keeps the last run's
    plan (even a heuristic one), so the model is asked again only for the shards it failed."""
    pinned, repo_map, facts = survey(paths, config, target, console)
    redactor = Redactor.from_environ()
    cache = RepoCache(paths.cache_dir, target.source.owner, target.source.name)
    pins = pinned_shards(target.pins, repo_map)
    plan, plan_tokens = plan_stage(
        provider, repo_map, facts, cache, redactor, pins, target.retry_failed, project=target.source.name
    )
    _say(console, f"{len(plan.shards)} shards planned ({plan.planner})")
    docs = read_project_docs(pinned.path, repo_map, facts, repo_linker(pinned, repo_map), redactor)
    ctx = shard_context(pinned, repo_map, facts, config, redactor, docs.readme)
    _say(console, f"{docs.files} doc files read, {len(docs.concepts)} concepts")
    for path, error in docs.unreadable:
        _warn(console, f"docs page {path} left out: deepkb could not read it ({error}); please report it")
    reference = read_reference(pinned.path, repo_map, facts, ctx.linker, docs, redactor)
    return Study(
        paths,
        config,
        target,
        pinned,
        repo_map,
        facts,
        plan,
        ctx,
        cache,
        plan_tokens=plan_tokens,
        docs=docs,
        reference=reference,
    )


def survey(
    paths: KBPaths, config: Config, target: RepoTarget, console: Console | None = None
) -> tuple[Checkout, RepoMap, Facts]:
    """Stages 1–3 together: the pinned checkout, its map and its facts, the flows starting at the target's
    entry points (a name matching no symbol is a ConfigError naming it)."""
    allow_private = config.repo.allow_private_hosts
    pinned = checkout(target.source, paths.cache_dir, allow_private_hosts=allow_private)
    max_bytes = config.repo.max_file_bytes
    repo_map = map_stage(pinned.path, max_bytes, kb_output_dirs(paths, pinned.path))
    revision = pinned.revision[:12] or "-"
    if not pinned.git and console is not None:
        console.print(f"[yellow]{escape(no_git_line(target.source.raw))}[/yellow]")
    _say(console, f"{len(repo_map.files)} files mapped, {len(repo_map.skipped)} skipped, revision {revision}")
    facts = extract_facts(pinned.path, repo_map, max_file_bytes=max_bytes)
    if target.entry_points and facts.calls is not None:
        facts.calls.entry_points = resolve_entry_points(facts.files, target.entry_points)
    return pinned, repo_map, facts


# --------------------------------------------------------------------------- stages 2–3


def map_stage(root: Path, max_file_bytes: int, exclude: Sequence[str] = ()) -> RepoMap:
    """Stage 2, the god view of `root` minus `exclude`, keeping the bytes of the files the facts stage
    parses (up to MAP_KEEP_BYTES) rather than reading them again."""
    repo_map = map_repository(
        root, max_file_bytes=max_file_bytes, keep_languages=SUPPORTED, keep_bytes=MAP_KEEP_BYTES
    )
    return _without(repo_map, exclude) if exclude else repo_map


def kb_output_dirs(paths: KBPaths, repo_root: Path) -> list[str]:
    """The knowledge base's own output folders that lie inside the repository being researched.

    A knowledge base that researches its own repository (`source: .`) must not study its pages, or every
    build would change the input of the next one.
    """
    root = repo_root.resolve()
    folders = [folder.resolve() for folder in (paths.site_src, paths.site_dir, paths.cache_dir)]
    inside = [folder.relative_to(root).as_posix() for folder in folders if folder.is_relative_to(root)]
    return [rel for rel in inside if rel not in ("", ".")]


def _without(repo_map: RepoMap, prefixes: Sequence[str]) -> RepoMap:
    """The map minus the knowledge base's own output (not listed as skipped: it is not the subject)."""

    def excluded(path: str) -> bool:
        return any(path == p or path.startswith(p + "/") for p in prefixes)

    kept = [f for f in repo_map.files if not excluded(f.path)]
    skipped = [s for s in repo_map.skipped if not excluded(s.path)]
    links = {a: b for a, b in repo_map.links.items() if not excluded(a) and not excluded(b)}
    return RepoMap(root=repo_map.root, files=kept, skipped=skipped, links=links, contents=repo_map.contents)


# --------------------------------------------------------------------------- stages 4–6


def plan_stage(
    provider: Provider,
    repo_map: RepoMap,
    facts: Facts,
    cache: RepoCache,
    redactor: Redactor,
    pinned: Sequence[Shard] = (),
    retry_failed: bool = False,
    project: str = "",
) -> tuple[ShardPlan, dict[str, int]]:
    """Stages 4–5: the architect's plan after the maintainer's `pinned` shards (reused while the set of
    files and the pins are unchanged), then the seed's rules. The heuristic plan that stands in for a
    failed architect call carries the note saying so. With `retry_failed`, the plan of the last run with a
    model, while its files all still exist. `project`: the repository's name, as its pages are titled."""
    allowed = [f.path for f in repo_map.files]
    last_key = fingerprint("last-plan", PLAN_VERSION, provider.name, [[s.name, *s.files] for s in pinned])
    last = last_plan(cache, last_key, set(allowed)) if retry_failed and not provider.offline else None
    if last is not None:
        return last, {}
    key = fingerprint(
        "plan",
        PLAN_VERSION,
        sorted(allowed),
        provider.name,
        provider.model_for("architect"),
        [[s.name, *s.files] for s in pinned],
    )
    # offline planning is free and follows the current facts; a model's plan is kept until the file set changes
    saved = None if provider.offline else cache.load_plan("plan", key)
    if saved is not None:
        plan, tokens = saved.plan, saved.tokens
    else:
        before = (provider.usage.input_tokens, provider.usage.output_tokens)
        plan = plan_shards(provider, repo_map, facts, redactor=redactor, pinned=pinned, project=project)
        tokens = {
            "input": provider.usage.input_tokens - before[0],
            "output": provider.usage.output_tokens - before[1],
        }
        if plan.planner == "llm":
            # a heuristic plan after a failed architect call is not the model's plan: ask it again next run
            cache.save_plan("plan", key, SavedPlan(plan=plan, tokens=tokens))
    shards = tuple(normalize_shards(plan.shards, name_part=part_namer(facts)))
    if not shards:
        raise ResearchError(
            "nothing to analyze: the map found no readable source files", hint="check the path"
        )
    final = ShardPlan(shards, plan.planner, plan.note)
    if not provider.offline:  # what `repo run --retry-failed` keeps
        cache.save_plan("last-plan", last_key, SavedPlan(plan=final))
    return final, tokens


def last_plan(cache: RepoCache, key: str, allowed: set[str]) -> ShardPlan | None:
    """The plan the last run with a model analysed, when every file it names is still there."""
    saved = cache.load_plan("last-plan", key)  # None for a damaged entry too: plan afresh
    if saved is None or not {path for shard in saved.plan.shards for path in shard.files} <= allowed:
        return None
    return saved.plan


def shard_context(
    pinned: Checkout,
    repo_map: RepoMap,
    facts: Facts,
    config: Config,
    redactor: Redactor,
    readme: str | None = None,
) -> ShardContext:
    """What analyzing a shard needs; `readme` is the README's first paragraph when the docs stage read it
    (None: the README is read here)."""
    return ShardContext(
        root=pinned.path,
        label=f"{pinned.source.owner}/{pinned.source.name}",
        repo_map=repo_map,
        facts=facts,
        linker=repo_linker(pinned, repo_map),
        options=config.repo,
        redactor=redactor,
        readme=readme_paragraph(pinned.path, repo_map, redactor, readme),
    )


def repo_linker(pinned: Checkout, repo_map: RepoMap) -> Linker:
    """Citations checked against the pinned checkout's files, linked at its revision."""
    return Linker({f.path: f.lines for f in repo_map.files}, pinned.revision, pinned.source.web_url)


# --------------------------------------------------------------------------- stage 8


def analyze_shards(
    study: Study,
    provider: Provider,
    jobs: list[tuple[int, Shard]],
    *,
    max_concurrent: int | None = None,
    console: Console | None = None,
    started: float | None = None,
) -> dict[int, Outcome]:
    """Analyze shards concurrently; index → its draft, or the exception it failed with. Offline drafts are
    the interpreter's own work, which threads only interleave: one at a time. A shard whose model analysis
    failed gets the offline analyst's draft, marked with the reason (`fall_back`)."""
    limit = 1 if provider.offline else max_concurrent or study.config.llm.max_concurrent
    work = [
        Job(index, f"{index:02d} {shard.name}", partial(analyze_shard, study, provider, shard))
        for index, shard in jobs
    ]
    outcomes = run_jobs(
        work,
        limit=limit,
        idle_timeout=study.config.repo.idle_timeout,
        total_timeout=study.config.repo.total_timeout,
        started=started,
        console=console,
    )
    if provider.offline:
        return outcomes
    shards = dict(jobs)
    return {index: fall_back(study, shards[index], outcome) for index, outcome in outcomes.items()}


def fall_back(study: Study, shard: Shard, outcome: Outcome) -> Outcome:
    """A failed model analysis replaced by the offline analyst's draft, with the failure as its reason.

    The draft is not saved: the cache keeps only the model's analyses, so the next run asks the model again
    for this shard alone."""
    if not isinstance(outcome, Exception):
        return outcome
    try:
        draft = draft_offline(shard, study.ctx, lambda stage: None)
    except DeepkbError:
        return outcome  # nothing to show in its place: the shard stays failed
    return ShardDraft(
        version=DRAFT_VERSION,
        key="",
        draft=draft,
        generated=today(),
        provider="offline",
        model=OfflineProvider.default_model,
        fallback=error_line(outcome),
        rejected=isinstance(outcome, AnswerRejected),
    )


def analyze_shard(study: Study, provider: Provider, shard: Shard, report: Report) -> ShardDraft:
    """One shard: the saved draft when its inputs are unchanged, else a new one (saved before returning)."""
    key = analysis_key(study, provider, shard)
    saved = study.cache.load_analysis(key)
    draft: OfflineDraft | ModelDraft
    if provider.offline:
        draft = draft_offline(shard, study.ctx, report)
        # offline drafts are recomputed (free); the date only moves when the content does
        generated = saved.generated if saved is not None and saved.draft == draft else today()
    elif saved is not None:
        report("unchanged")
        return saved
    else:
        draft = draft_with_model(shard, study.ctx, provider, report)
        generated = today()
    entry = ShardDraft(
        version=DRAFT_VERSION,
        key=key,
        draft=draft,
        generated=generated,
        provider=provider.name,
        model=provider.model_for("analyze"),
    )
    study.cache.save_analysis(entry)
    return entry


def analysis_key(study: Study, provider: Provider, shard: Shard) -> str:
    """What an analysis depends on: the shard, its files' contents, the options and the model."""
    hashes = [[path, _content_hash(study, path)] for path in shard.files]
    options = study.config.repo
    return fingerprint(
        "analysis",
        ANALYSIS_VERSION,
        shard.name,
        shard.rationale,
        hashes,
        [
            options.remove_comments,
            options.remove_empty_lines,
            options.compress,
            study.config.llm.max_output_tokens,
            0 if provider.offline else context_window(provider, "analyze").tokens,  # what the prompt fits
        ],
        provider.name,
        provider.model_for("analyze"),
    )


def _content_hash(study: Study, path: str) -> str:
    text = read_or_none(study.checkout.path, path, max_bytes=study.config.repo.max_file_bytes)
    return fingerprint(text) if text is not None else "unreadable"


def no_git_line(source: str) -> str:
    """What a run says once when `source` is a folder outside git: it is researched, but pinned to nothing."""
    return (
        f"{source} is not a git repository: researched as a plain folder, with no revision and no permalinks"
    )


def _warn(console: Console | None, message: str) -> None:
    if console is not None:
        console.print(f"[yellow]{escape(message)}[/yellow]")


def _say(console: Console | None, message: str) -> None:
    if console is not None:
        console.print(f"[dim]{message}[/dim]")
