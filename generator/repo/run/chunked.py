"""Chunked repository research: `start` plans and checkpoints, `shard` analyzes named chunks, `synthesize`
writes the pages; the stages of `run_repo_research`, split where an operator may pause, parallelize or resume.
A chunk's analysis is cached before the session (rewritten atomically) marks it done.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console

from generator.config import Config
from generator.errors import DeepkbError, ResearchError, error_line
from generator.llm.base import Provider
from generator.redact import Redactor
from generator.repo.model import ShardDraft
from generator.repo.run.pipeline import (
    Publish,
    RepoPartialFailure,
    RepoResult,
    Study,
    analyze_shard,
    fall_back,
    prepare,
    shard_context,
    survey,
)
from generator.repo.run.session import (
    Chunk,
    ChunkedSession,
    RepoCache,
    load_session,
    new_session_id,
    save_session,
    session_lock,
    today,
)
from generator.repo.run.study import RepoTarget
from generator.repo.run.workers import Job, Report, run_jobs
from generator.repo.synthesize.synthesis import Outcome, synthesize
from generator.store import KBPaths, read_page


def start_session(
    paths: KBPaths,
    config: Config,
    provider: Provider,
    target: RepoTarget,
    *,
    request: str | None = None,
    console: Console | None = None,
) -> ChunkedSession:
    """Plan the research and checkpoint it as a session of pending chunks c1, c2, … (`request`: the question
    the command line asked, kept with the session; the target already holds it)."""
    study = prepare(paths, config, provider, target, console=console)
    chunks = [
        Chunk(id=f"c{i}", index=i, name=shard.name, files=list(shard.files), rationale=shard.rationale)
        for i, shard in enumerate(study.plan.shards, 1)
    ]
    session = ChunkedSession(
        session_id=new_session_id(study.source.owner, study.source.name),
        source=target.source.raw,
        request=request,
        owner=study.source.owner,
        name=study.source.name,
        revision=study.checkout.revision,
        created=today(),
        planner=study.plan.planner,
        plan_note=study.plan.note,
        chunks=chunks,
        plan_tokens=study.plan_tokens,
    )
    save_session(paths.cache_dir, session)
    return session


def run_chunks(
    paths: KBPaths,
    config: Config,
    provider: Provider,
    session_id: str,
    target: RepoTarget,
    chunk_ids: Sequence[str] = (),
    *,
    max_concurrent: int | None = None,
    console: Console | None = None,
) -> ChunkedSession:
    """Analyze the named chunks (default: every chunk not done yet), in parallel; returns the updated session."""
    session = load_session(paths.cache_dir, session_id)
    chosen = [session.chunk(c) for c in chunk_ids] if chunk_ids else session.pending()
    if not chosen:
        return session
    study = resume_study(paths, config, session, target, console)
    jobs = [Job(c.index, f"{c.id} {c.name}", _chunk_work(study, provider, session_id, c)) for c in chosen]
    outcomes = run_jobs(
        jobs,
        limit=max_concurrent or config.llm.max_concurrent,
        idle_timeout=config.repo.idle_timeout,
        total_timeout=config.repo.total_timeout,
        console=console,
    )
    for chunk in chosen:
        outcome = outcomes.get(chunk.index)
        if isinstance(outcome, BaseException):
            _record(paths, session_id, chunk.id, status="failed", error=error_line(outcome))
    return load_session(paths.cache_dir, session_id)


def _chunk_work(
    study: Study, provider: Provider, session_id: str, chunk: Chunk
) -> Callable[[Report], ShardDraft]:
    shard = study.plan.shards[chunk.index - 1]

    def work(report: Report) -> ShardDraft:
        entry = analyze_shard(study, provider, shard, report)  # saved to the cache first, then checkpointed
        _record(study.paths, session_id, chunk.id, status="done", analysis_key=entry.key)
        return entry

    return work


def _record(paths: KBPaths, session_id: str, chunk_id: str, **changes: str) -> None:
    with session_lock(paths.cache_dir, session_id):
        session = load_session(paths.cache_dir, session_id)
        chunk = session.chunk(chunk_id)
        chunk.error = ""
        for name, value in changes.items():
            setattr(chunk, name, value)
        save_session(paths.cache_dir, session)


def synthesize_session(
    paths: KBPaths,
    config: Config,
    provider: Provider,
    session_id: str,
    target: RepoTarget,
    *,
    console: Console | None = None,
    publish: Publish | None = None,
) -> RepoResult:
    """Publish the pages from the finished chunks; a chunk the model failed gets the offline analyst's page
    (labelled), a chunk not analysed yet is listed as failed (either way PartialFailure)."""
    session = load_session(paths.cache_dir, session_id)
    study = resume_study(paths, config, session, target, console)
    outcomes: dict[int, Outcome] = {}
    for chunk in session.chunks:
        entry = study.cache.load_analysis(chunk.analysis_key) if chunk.status == "done" else None
        if entry is None:
            why = chunk.error or "not analyzed yet"
            outcomes[chunk.index] = ResearchError(f"chunk {chunk.id} {chunk.status}: {why}")
        else:
            outcomes[chunk.index] = entry
        if chunk.status == "failed" and not provider.offline:
            # as in `repo run`: a chunk the model failed gets the offline analyst's page, with the reason
            outcomes[chunk.index] = fall_back(
                study, study.plan.shards[chunk.index - 1], outcomes[chunk.index]
            )
    result = synthesize(study, provider, outcomes)
    keep = bool(result.failed or result.fallen_back) and _complete_pages_exist(study)
    if not keep and publish is not None:
        publish(result)  # a partial synthesis never replaces a complete set of pages
    with session_lock(paths.cache_dir, session_id):
        session = load_session(paths.cache_dir, session_id)
        session.finished = not (result.failed or result.fallen_back)
        save_session(paths.cache_dir, session)
    if result.failed or result.fallen_back:
        raise RepoPartialFailure(result, kept_complete_pages=keep)
    return result


def resume_study(
    paths: KBPaths, config: Config, session: ChunkedSession, target: RepoTarget, console: Console | None
) -> Study:
    """The session's study again (`target`: the session's source, resolved again): same checkout revision,
    the saved plan, fresh map and facts, the flows starting where the session's start had them begin."""
    pinned, repo_map, facts = survey(paths, config, target, console)
    if pinned.revision != session.revision:
        raise ResearchError(
            f"{session.owner}/{session.name} moved from {session.revision[:12]} to {pinned.revision[:12]} "
            f"since session {session.session_id} started",
            hint="start a new session with `deepkb repo start`",
        )
    ctx = shard_context(pinned, repo_map, facts, config, Redactor.from_environ())
    cache = RepoCache(paths.cache_dir, target.source.owner, target.source.name)
    plan, tokens = session.plan(), session.plan_tokens
    return Study(paths, config, target, pinned, repo_map, facts, plan, ctx, cache, plan_tokens=tokens)


def _complete_pages_exist(study: Study) -> bool:
    """Whether the repository's index was written by a synthesis in which the model analysed every shard."""
    index = study.harvest_dir / "index.md"
    if not index.is_file():
        return False
    try:
        meta, _ = read_page(index)
    except DeepkbError:
        return False
    return bool(meta.get("shards")) and not meta.get("failed_shards") and not meta.get("fallback_shards")
