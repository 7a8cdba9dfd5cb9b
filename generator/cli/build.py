"""`deepkb build`: research everything deepkb.yml lists (cached), then render and build the site."""

from __future__ import annotations

import click
from rich.markup import escape

from ..app.entries import config_entries, entry_weights, parse_shard, select_shard
from ..app.run import OnDemand, exit_line, research_entries
from ..config import check_config_folders
from ..errors import ConfigError, PartialFailure
from ..kb.index import load_index, update_index
from ..kb.search import kb_writes
from ..llm.cost import usage_line
from ..site.build import build_site, sitemap_warning
from ..site.render import render_site
from .app import App, pass_app
from .knowledge import clean


@click.command()
@click.option("--no-site", is_flag=True, help="Research only; do not render or build the site.")
@click.option(
    "--shard",
    "shard_text",
    metavar="I/N",
    default=None,
    help="Research only shard I of N (for parallel CI jobs) and write only those entries; no site.",
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
def build(app: App, no_site: bool, shard_text: str | None, batch: bool, strict: bool) -> None:
    """Research every repository and topic in deepkb.yml, then build the site into site/."""
    if not app.paths.config_file.is_file():
        raise ConfigError(
            f"no deepkb.yml in {app.paths.root}",
            hint="run deepkb in your knowledge base's folder (or pass --root); README.md shows a deepkb.yml",
        )
    config = app.config  # a broken deepkb.yml fails here, before anything runs
    check_config_folders(config, app.paths.root, str(app.paths.config_file))
    shard = parse_shard(shard_text) if shard_text else None
    if batch:
        config.llm.batch = True  # read when the provider is opened
    with kb_writes(app.paths):
        entries = config_entries(app.paths, config)
        if shard is not None:
            entries = select_shard(entries, shard, entry_weights(load_index(app.paths)))
            app.console.print(f"shard {shard}: {len(entries)} entries: {', '.join(e.id for e in entries)}")
        calls = OnDemand(app.provider)
        outcomes = research_entries(
            app.paths, config, calls.open, entries, console=app.console, batch=config.llm.batch
        )
        if calls.provider is not None:
            app.console.print(usage_line(calls.provider.usage, config.llm), highlight=False)
            app.note_json_fallbacks(calls.provider.usage)
        for outcome in outcomes:
            if outcome.line:
                app.console.print(f"[yellow]{outcome.status}:[/yellow] {escape(clean(outcome.line))}")
        if shard is not None:
            # a shard writes only its entries: `deepkb merge` rebuilds the index, tags and listings
            _finish(exit_line(outcomes, strict=strict))
            return
        update_index(app.paths)
        if not no_site:
            render_site(app.paths, config)
            site_dir = build_site(app.paths, config)
            app.console.print(f"\n[bold green]Site built:[/bold green] {site_dir}")
            app.warn(sitemap_warning(config))
            # search and diagrams load files with fetch(), which a browser refuses for file:// pages: serve it
            app.console.print(
                "Read it with [bold]deepkb serve[/bold] (or make serve): http://127.0.0.1:8000/"
            )
    _finish(exit_line(outcomes, strict=strict))


def _finish(line: str | None) -> None:
    if line:
        raise PartialFailure(line)
