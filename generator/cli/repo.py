"""`deepkb repo …`: repository research (run, chunked start/shard/synthesize, visualize).

`--json` prints only the JSON object on stdout; progress and the provider announcement go to stderr.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from ..app.targets import repo_target, session_target
from ..errors import PartialFailure
from ..jsontypes import JSONObject
from ..kb.costs import save_cost
from ..kb.index import indexed
from ..kb.search import kb_writes
from ..llm.meter import MeteredProvider
from ..repo.run.chunked import run_chunks, start_session, synthesize_session
from ..repo.run.pipeline import RepoPartialFailure, run_repo_research
from ..repo.run.session import ChunkedSession
from ..repo.run.study import RepoResult
from ..site.pages.diagrams import workflow_diagram
from ..site.pages.repo import publish_repo, shard_summary_lines
from ..terminal import printable
from .app import App, echo_json, pass_app

REQUEST = click.option(
    "--request",
    default=None,
    help="A question about the code; answered on a page of its own (answers/<slug>.md) beside the general pages.",
)
REQUESTS = click.option(
    "--request",
    "requests",
    multiple=True,
    help="A question about the code (repeatable); each is answered on a page of its own (answers/<slug>.md)"
    " beside the general pages, and again at every later run.",
)
JSON = click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object on stdout.")


@click.group()
def repo() -> None:
    """Research a git repository: map, plan shards, analyze each, synthesize an index."""


@repo.command("run")
@click.argument("source")
@REQUESTS
@click.option(
    "--max-concurrent",
    type=click.IntRange(1, 64),
    default=None,
    help="Shards analyzed at once (default: llm.max_concurrent).",
)
@click.option(
    "--entry-point",
    "entry_points",
    multiple=True,
    help="Where the main flows start (repeatable): module.symbol, path:symbol or a symbol's name.",
)
@click.option(
    "--retry-failed",
    is_flag=True,
    help="Keep the last run's plan and ask the model again only for the shards that failed or fell back "
    "(a plain re-run also reuses finished shards, but plans again when the last plan was a fallback).",
)
@JSON
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 3 when some shards are offline pages because the model's answers did not pass the checks.",
)
@pass_app
def repo_run(
    app: App,
    source: str,
    requests: tuple[str, ...],
    max_concurrent: int | None,
    entry_points: tuple[str, ...],
    retry_failed: bool,
    as_json: bool,
    strict: bool,
) -> None:
    """Research SOURCE (a https URL, git@host:owner/repo, or a local path)."""
    meter = MeteredProvider(app.provider())  # this run's calls, for _cost.json as build writes it
    with kb_writes(app.paths), app.run_deadline("repo"), indexed(app.paths):
        target = repo_target(
            app.paths,
            app.config,
            _cli_source(source),
            requests=requests,
            entry_points=entry_points,
            retry_failed=retry_failed,
            max_concurrent=max_concurrent,
        )
        try:
            result = run_repo_research(
                app.paths, app.config, meter, target, console=app.console, publish=publish_repo
            )
        except RepoPartialFailure as exc:
            _save_cost(app, meter, exc.result)
            _report(app, exc.result, as_json)
            raise
        _save_cost(app, meter, result)
    _report(app, result, as_json)
    if strict and result.refused_line():
        raise PartialFailure(result.refused_line(), hint="run again with a stronger model, or --retry-failed")


def _save_cost(app: App, meter: MeteredProvider, result: RepoResult) -> None:
    source = result.study.source
    save_cost(app.paths, app.config.llm, meter, f"repo:{source.owner}/{source.name}")
    app.note_json_fallbacks(meter.usage)


@repo.command("start")
@click.argument("source")
@REQUEST
@pass_app
def repo_start(app: App, source: str, request: str | None) -> None:
    """Plan a chunked research of SOURCE; prints {session_id, chunk_plan, next_action} as JSON."""
    with kb_writes(app.paths), app.run_deadline("repo"):
        target = repo_target(app.paths, app.config, _cli_source(source), requests=request)
        session = start_session(
            app.paths, app.config, app.provider(), target, request=request, console=app.console
        )
    echo_json(_session_json(session))


@repo.command("shard")
@click.argument("session_id", metavar="SESSION")
@click.option(
    "--chunk", "chunks", multiple=True, help="Chunk id to analyze (repeatable). Default: every pending chunk."
)
@click.option("--max-concurrent", type=click.IntRange(1, 64), default=None, help="Chunks analyzed at once.")
@pass_app
def repo_shard(app: App, session_id: str, chunks: tuple[str, ...], max_concurrent: int | None) -> None:
    """Analyze chunks of SESSION (resumable: finished chunks are not redone); prints the session as JSON."""
    # only the cache is written here, guarded per session, so several `repo shard` processes may run at once
    wanted = [c.strip() for value in chunks for c in value.split(",") if c.strip()]  # --chunk c1,c2 works too
    session = run_chunks(
        app.paths,
        app.config,
        app.provider(),
        session_id,
        session_target(app.paths, app.config, session_id),
        wanted,
        max_concurrent=max_concurrent,
        console=app.console,
    )
    echo_json(_session_json(session))
    failed = [c.id for c in session.chunks if c.status == "failed"]
    if failed:
        raise PartialFailure(
            f"chunks failed: {', '.join(failed)}", hint=f"retry with `deepkb repo shard {session_id}`"
        )


@repo.command("synthesize")
@click.argument("session_id", metavar="SESSION")
@JSON
@pass_app
def repo_synthesize(app: App, session_id: str, as_json: bool) -> None:
    """Write the pages of SESSION from its finished chunks."""
    with kb_writes(app.paths), app.run_deadline("repo"), indexed(app.paths):
        target = session_target(app.paths, app.config, session_id)
        try:
            result = synthesize_session(
                app.paths,
                app.config,
                app.provider(),
                session_id,
                target,
                console=app.console,
                publish=publish_repo,
            )
        except RepoPartialFailure as exc:
            _report(app, exc.result, as_json)
            raise
    _report(app, result, as_json)


@repo.command("visualize")
def repo_visualize() -> None:
    """Print the repository-research workflow as a mermaid flowchart."""
    click.echo(workflow_diagram())


def _cli_source(source: str) -> str:
    """A path typed on the command line is relative to the current directory (config paths: to the root)."""
    if not source.startswith("-") and "://" not in source and Path(source).is_dir():
        return str(Path(source).resolve())
    return source


def _session_json(session: ChunkedSession) -> JSONObject:
    return {
        "session_id": session.session_id,
        "workflow": session.workflow,
        "source": session.source,
        "revision": session.revision,
        "chunk_plan": [
            {
                "id": c.id,
                "name": c.name,
                "files": c.files,
                "status": c.status,
                **({"error": c.error} if c.error else {}),
            }
            for c in session.chunks
        ],
        "next_action": session.next_action(),
    }


def _report(app: App, result: RepoResult, as_json: bool) -> None:
    # each landed shard as a markdown link line too: what agents paste into notes
    if as_json:
        echo_json({**result.to_json(), "shard_summaries": shard_summary_lines(result.synthesis)})
        return
    state = (
        "[yellow]partly done[/yellow]"
        if result.synthesis.unfinished
        else "[yellow]done, with offline pages[/yellow]"
        if result.fallen_back
        else "[green]done[/green]"
    )
    landed = len(result.synthesis.landed)
    app.console.print(f"{state}: {landed} shards of {escape(result.study.label)} analyzed")
    for failed in result.failed:
        app.console.print(f"  [red]failed[/red] {escape(failed.shard.name)}: {escape(failed.error)}")
    for fell in result.fallen_back:
        app.console.print(
            f"  [yellow]offline page[/yellow] {escape(fell.shard.name)}: {escape(fell.fallback)}"
        )
    click.echo(printable(str(result.study.harvest_dir / "index.md")))
