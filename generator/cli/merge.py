"""`deepkb merge`, `deepkb shards`: fold the entries of CI shard jobs into one knowledge base, and show the split."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape

from ..app.entries import assign_shards, config_entries, entry_weights
from ..app.merge import merge_checkouts
from ..kb.index import load_index, update_index
from ..kb.search import kb_writes, sync_search_db
from ..site.build import build_site
from ..site.render import render_site
from .app import App, pass_app
from .knowledge import clean


@click.command()
@click.argument(
    "folders", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path)
)
@click.option("--no-site", is_flag=True, help="Rebuild site_src/ (index, tags, listings) but not site/.")
@pass_app
def merge(app: App, folders: tuple[Path, ...], no_site: bool) -> None:
    """Fold entries researched in other checkouts (FOLDERS) into this one; rebuild index, search and listings.

    \b
    An entry absent here is added, a strictly newer one replaces ours, an identical one is skipped.
    Two different copies of the same version are refused before anything is written.
    """
    config = app.config
    with kb_writes(app.paths):
        report = merge_checkouts(app.paths, [folder.resolve() for folder in folders])
        for verb, ids in (("added", report.added), ("updated", report.updated)):
            for entry_id in ids:
                app.console.print(f"{verb:<8} {escape(clean(entry_id))}", highlight=False)
        app.paths.site_src.mkdir(parents=True, exist_ok=True)
        update_index(app.paths)
        render_site(app.paths, config)
        if not no_site:
            build_site(app.paths, config)
    sync_search_db(app.paths)
    app.console.print(f"merge: {report.summary()}")


@click.command()
@click.option(
    "--total", type=click.IntRange(1, 64), default=None, help="Number of shards (default: ci.research_jobs)."
)
@click.option("--matrix", is_flag=True, help="Print only the GitHub Actions matrix JSON, e.g. [1,2,3].")
@pass_app
def shards(app: App, total: int | None, matrix: bool) -> None:
    """Show which shard researches each entry of deepkb.yml (balanced by each entry's last measured cost).

    \b
    This is the split of `build --shard`; `refresh --shard` splits the entries it checks, which also
    include repositories and topics researched outside deepkb.yml.
    """
    count = total or app.config.ci.research_jobs
    if matrix:
        click.echo(json.dumps(list(range(1, count + 1))))
        return
    weights = entry_weights(load_index(app.paths))
    entries = config_entries(app.paths, app.config)
    assigned = assign_shards((e.id for e in entries), count, weights)
    for entry in entries:
        tokens = weights.get(entry.id)
        weight = f"{int(tokens):,} tokens last run" if tokens else "not measured"
        click.echo(f"{assigned[entry.id]}/{count}  {clean(entry.id)}  ({weight})")
