"""`deepkb topic run|resume`: topic research into `site_src/topics/<slug>/`, under the workspace lock."""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from ..app.topic_target import topic_target
from ..config import TopicEntry, check_local_folders
from ..errors import NoUsableSources, PartialFailure, UsageError
from ..kb.costs import save_cost
from ..kb.index import indexed
from ..kb.search import kb_writes
from ..llm.meter import MeteredProvider
from ..site.pages.topic import publish_topic
from ..topic.pipeline import resume_topic_research, run_topic_research, unverified_line
from ..topic.state import TopicResult
from .app import App, echo_json, pass_app


@click.group()
def topic() -> None:
    """Research a topic: plan, search, crawl, dedupe, aggregate, report, verify."""


@topic.command("run")
@click.argument("text")
@click.option("--quick", is_flag=True, help="No verification loop and no parallel steps (fastest).")
@click.option("--no-verify", is_flag=True, help="Skip the verification loop.")
@click.option("--no-parallel", is_flag=True, help="Run the plan's steps one at a time, in order.")
@click.option(
    "--sources",
    "sources_csv",
    metavar="LIST",
    help="Search providers, comma-separated, e.g. local:docs,arxiv,tavily. Default: the topic's "
    "deepkb.yml entry, else local (the knowledge base).",
)
@click.option(
    "--lang",
    type=click.Choice(["en", "zh"]),
    default=None,
    help="Language of the analysis and report (default: the topic's own).",
)
@click.option(
    "--review-plan", is_flag=True, help="Stop after planning so plan.json can be edited; then run resume."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@click.option(
    "--strict", is_flag=True, help="Exit 3 when the report was published without passing verification."
)
@pass_app
def topic_run(
    app: App,
    text: str,
    quick: bool,
    no_verify: bool,
    no_parallel: bool,
    sources_csv: str | None,
    lang: str | None,
    review_plan: bool,
    as_json: bool,
    strict: bool,
) -> None:
    """Research TEXT and write its report into the knowledge base."""
    if not text.strip():
        raise UsageError("the topic text is empty", hint='deepkb topic run "TOPIC"')
    entry = _entry_for(app, text.strip())
    sources = [s.strip() for s in sources_csv.split(",") if s.strip()] if sources_csv else None
    check_local_folders(sources or entry.sources, app.paths.root, "--sources" if sources else "deepkb.yml")
    meter = MeteredProvider(app.provider())  # this run's calls, for _cost.json as build writes it
    with kb_writes(app.paths), app.run_deadline("topic"), indexed(app.paths):
        target = topic_target(
            app.paths,
            entry,
            quick=quick,
            verify=False if no_verify else None,
            parallel=False if no_parallel else None,
            sources=sources,
            lang=lang,
            review_plan=review_plan,
            refresh=True,
        )
        _finish(
            app,
            as_json,
            meter,
            strict,
            lambda: run_topic_research(
                app.paths, app.config, meter, target, console=app.console, publish=publish_topic
            ),
        )


@topic.command("resume")
@click.argument("topic_id")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@pass_app
def topic_resume(app: App, topic_id: str, as_json: bool) -> None:
    """Continue an interrupted, failed or paused (--review-plan) topic run from its last finished step."""
    meter = MeteredProvider(app.provider())
    with kb_writes(app.paths), app.run_deadline("topic"), indexed(app.paths):
        _finish(
            app,
            as_json,
            meter,
            False,
            lambda: resume_topic_research(
                app.paths, app.config, meter, topic_id, console=app.console, publish=publish_topic
            ),
        )


def _entry_for(app: App, text: str) -> TopicEntry:
    """The deepkb.yml entry for this topic when there is one (its sources, slug, lang), else the defaults."""
    for entry in app.config.topics:
        if entry.topic.strip().lower() == text.lower():
            return entry
    return TopicEntry(topic=text)


def _finish(app: App, as_json: bool, meter: MeteredProvider, strict: bool, run: Any) -> None:
    try:
        result = run()
    except (PartialFailure, NoUsableSources) as exc:  # the run ended; its result is still shown
        partial = getattr(exc, "result", None)
        if partial is not None:
            save_cost(app.paths, app.config.llm, meter, f"topic:{partial.slug}")
            app.note_json_fallbacks(meter.usage)
            if as_json or isinstance(exc, PartialFailure):
                _print(app, partial, as_json)
        raise
    save_cost(app.paths, app.config.llm, meter, f"topic:{result.slug}")
    app.note_json_fallbacks(meter.usage)
    _print(app, result, as_json)
    if strict and result.status == "unverified":
        raise PartialFailure(unverified_line(result))


def _print(app: App, result: TopicResult, as_json: bool) -> None:
    if as_json:
        echo_json(result.to_json())
        return
    status = result.status
    colour = "green" if status == "completed" else "yellow"
    app.console.print(
        f"[bold {colour}]{status}[/bold {colour}] {escape(result.topic)} — {result.sources_count} sources"
    )
    if result.report:
        app.console.print(f"Report: {escape(result.report)}")
    if status == "unverified":
        app.console.print(f"[yellow]not verified:[/yellow] {escape(unverified_line(result))}")
    if status == "awaiting_review":
        app.console.print(f"Review the plan, then: deepkb topic resume {escape(result.id)}")
