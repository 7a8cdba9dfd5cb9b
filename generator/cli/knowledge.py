"""`deepkb knowledge …`: search, list, show, delete and rebuild the cross-topic knowledge index."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import click
import msgspec

from ..errors import UsageError
from ..kb.index import delete_entry, index_path, load_index, update_index
from ..kb.search import kb_writes, search, sync_search_db
from ..llm.cost import CostRecord
from ..site.render import render_site
from ..terminal import printable
from .app import App, echo_json, pass_app


def clean(value: Any) -> str:
    """Untrusted text made safe for a terminal: no escape sequences or bidi overrides, one line."""
    return " ".join(printable(str(value)).split())


@click.group()
def knowledge() -> None:
    """Search, list, show and delete entries of the knowledge base."""


@knowledge.command("search")
@click.argument("query")
@click.option(
    "--limit", "-n", type=click.IntRange(1, 200), default=10, show_default=True, help="Most results."
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@pass_app
def knowledge_search(app: App, query: str, limit: int, as_json: bool) -> None:
    """Search every repository, topic and source, through tag synonyms and full text."""
    if not query.strip():
        raise UsageError("the search query is empty", hint='e.g. deepkb knowledge search "trading"')
    results = search(app.paths, query, limit=limit)
    if as_json:
        echo_json([asdict(r) for r in results])
        return
    if not results:
        app.console.print(f"No entry matches {clean(query)!r}.")
        return
    for result in results:
        click.echo(f"{result.id}  {clean(result.title)}")
        click.echo(f"    {result.path}")
        if result.snippet:
            click.echo(f"    {clean(result.snippet)}")


@knowledge.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the entries as JSON.")
@pass_app
def knowledge_list(app: App, as_json: bool) -> None:
    """List every repository and topic with its status and tags."""
    index = _index(app)
    if as_json:
        echo_json(index["topics"])
        return
    if not index["topics"]:
        app.console.print(
            "The knowledge base is empty: run `deepkb repo run URL` or `deepkb topic run TOPIC`."
        )
        return
    for entry_id, entry in index["topics"].items():
        tags = ", ".join(entry.get("tags", [])[:6])
        click.echo(f"{entry_id}  [{entry.get('status', '')}]  {clean(entry.get('title', ''))}  {clean(tags)}")


@knowledge.command("show")
@click.argument("entry_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as JSON.")
@pass_app
def knowledge_show(app: App, entry_id: str, as_json: bool) -> None:
    """Show one entry (repo:<owner>/<repo>, topic:<slug> or source:<slug>/<name>)."""
    index = _index(app)
    entry = index["topics"].get(entry_id) or index["sources"].get(entry_id)
    if entry is None:
        raise UsageError(f"no entry {entry_id!r}", hint="see `deepkb knowledge list` for the ids")
    sources = {sid: s for sid, s in index["sources"].items() if s.get("topic") == entry_id}
    if as_json:
        echo_json({"id": entry_id, **entry, **({"sources": sources} if sources else {})})
        return
    click.echo(entry_id)
    for key, value in entry.items():
        if key == "cost" and isinstance(value, dict):
            click.echo(f"  cost: {clean(cost_line(value))}")
        elif value not in (None, "", []):
            shown = ", ".join(map(str, value)) if isinstance(value, list) else value
            click.echo(f"  {key}: {clean(shown)}")
    if sources:
        click.echo(f"  sources ({len(sources)}):")
        for source_id, source in sources.items():
            click.echo(f"    {source_id}  {clean(source.get('title', ''))}")


def cost_line(cost: dict[str, object]) -> str:
    """An index entry's cost figures as one line; figures the record lacks (or that are not numbers) are 0."""
    try:
        return msgspec.convert(cost, CostRecord).line()
    except msgspec.ValidationError:
        return CostRecord().line()


@knowledge.command("delete")
@click.argument("entry_id", metavar="ID")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@pass_app
def knowledge_delete(app: App, entry_id: str, yes: bool) -> None:
    """Delete a repository or topic: its workspace, pages and cache entries; then update the index."""
    index = _index(app)
    entry = index["topics"].get(entry_id)
    if entry is None:
        raise UsageError(
            f"no repository or topic {entry_id!r}", hint="see `deepkb knowledge list` for the ids"
        )
    if not yes:
        click.confirm(f"Delete {entry_id} ({clean(entry.get('title', ''))}) and all its pages?", abort=True)
    with kb_writes(app.paths):
        delete_entry(app.paths, entry_id)
        if (app.paths.site_src / "index.md").is_file():
            # the home, section and tag pages would otherwise link to the deleted pages
            render_site(app.paths, app.config)
    app.console.print(f"Deleted {entry_id}; the index is updated.")


@knowledge.command("rebuild")
@pass_app
def knowledge_rebuild(app: App) -> None:
    """Rebuild _index.json and the full-text search database from the workspaces on disk."""
    with kb_writes(app.paths):
        index = update_index(app.paths)
    counts = sync_search_db(app.paths, rebuild=True)
    app.console.print(
        f"Index: {len(index.topics)} entries, {len(index.sources)} sources, {len(index.tag_index)} tags;"
        f" search database: {counts.added} pages."
    )


def _index(app: App) -> dict[str, Any]:
    if not app.paths.site_src.is_dir():
        raise UsageError(
            f"{app.paths.root} holds no knowledge base (no site_src/)", hint="pass --root or cd into it"
        )
    if not index_path(app.paths).is_file():
        update_index(app.paths)
    return load_index(app.paths)
