"""`deepkb refresh`: re-research only what went stale, then update the index and the site."""

from __future__ import annotations

import click
from rich.markup import escape

from ..app.entries import parse_shard
from ..app.refresh import run_refresh
from ..config import check_config_folders
from ..errors import PartialFailure
from ..kb.search import kb_writes
from ..llm.cost import CostRecord
from . import wall_seconds
from .app import App, echo_json, pass_app
from .knowledge import clean

_MARK = {
    "up-to-date": "=",
    "stale": "!",
    "refreshed": "+",
    "unverified": "?",
    "partial": "~",
    "failed": "x",
    "skipped": "-",
}


@click.command()
@click.option("--dry-run", is_flag=True, help="Only report what is stale; research nothing, write nothing.")
@click.option("--no-site", is_flag=True, help="Do not render and build the site after refreshing.")
@click.option("--json", "as_json", is_flag=True, help="Print the refresh report as JSON on stdout.")
@click.option(
    "--shard",
    "shard_text",
    metavar="I/N",
    default=None,
    help="Refresh only shard I of N (for parallel CI jobs) and write only those entries; no index or site.",
)
@click.option(
    "--batch", is_flag=True, help="Send model calls through Anthropic's Message Batches (half price)."
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 3 when a topic's report was published without passing verification, or a repository's shards"
    " are offline pages because the model's answers did not pass the checks.",
)
@pass_app
def refresh(
    app: App,
    dry_run: bool,
    no_site: bool,
    as_json: bool,
    shard_text: str | None,
    batch: bool,
    strict: bool,
) -> None:
    """Re-research repositories whose remote HEAD moved and topics older than their refresh_days."""
    config = app.config
    check_config_folders(config, app.paths.root, str(app.paths.config_file))
    shard = parse_shard(shard_text) if shard_text else None
    if batch:
        config.llm.batch = True  # read when the provider is opened
    if dry_run:
        report = run_refresh(app.paths, config, app.provider, dry_run=True, console=app.console, shard=shard)
    else:
        with kb_writes(app.paths):
            report = run_refresh(
                app.paths, config, app.provider, site=not no_site, console=app.console, shard=shard
            )
    wall = wall_seconds(click.get_current_context())
    if as_json:
        echo_json({**report.to_json(), "wall_s": round(wall, 3)})
    else:
        for item in report.items:
            line = f"{_MARK[item.status]} {item.status:<10} {escape(clean(item.id))}"
            app.console.print(f"{line}  [dim]{escape(clean(item.reason))}[/dim]", highlight=False)
    done = report.count("refreshed") + report.count("unverified") + report.count("partial")
    stale = report.count("stale") if dry_run else done
    verb = "stale" if dry_run else "refreshed"
    app.console.print(
        f"refresh: {stale} of {len(report.items)} {verb}, {report.count('failed')} failed,"
        f" {report.llm_calls} LLM calls{_cost(report.usage)}, {wall:.2f} s"
    )
    app.note_json_fallbacks(report.usage)
    unfinished = report.count("failed") + report.count("partial")
    if strict:
        unfinished += report.count("unverified")
    if unfinished:
        raise PartialFailure(f"{unfinished} entries could not be refreshed fully")


def _cost(usage: CostRecord | None) -> str:
    if usage is None or not usage.calls:
        return ""
    tokens = usage.input_tokens + usage.cached_tokens
    return f" ({tokens:,} input + {usage.output_tokens:,} output tokens, ${usage.cost_usd:.4f})"
