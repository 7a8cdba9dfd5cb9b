"""`deepkb publish`: deploy the built site to GitHub Pages (a pages branch on a git remote)."""

from __future__ import annotations

import json

import click
from rich.markup import escape

from ..site.build import sitemap_warning
from ..site.publish import publish_site, revision_phrase
from ..store import workspace_lock
from .app import App, pass_app


@click.command()
@click.option(
    "--remote", default="origin", show_default=True, help="Remote name or repository URL to push to."
)
@click.option("--branch", default="gh-pages", show_default=True, help="Pages branch.")
@click.option(
    "--keep-history", is_flag=True, help="Add a commit on top of the branch instead of replacing it."
)
@click.option("--build", "force_build", is_flag=True, help="Rebuild site/ even when it looks up to date.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@pass_app
def publish(app: App, remote: str, branch: str, keep_history: bool, force_build: bool, as_json: bool) -> None:
    """Build site/ if needed, then commit it to the pages branch and push it (like `mkdocs gh-deploy`)."""
    with workspace_lock(app.paths):
        result = publish_site(
            app.paths,
            app.config,
            remote=remote,
            branch=branch,
            keep_history=keep_history,
            force_build=force_build,
        )
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
        return
    app.console.print(
        f"[bold green]Published[/bold green] {result.files} files to {escape(result.remote)} {result.branch}"
        f" (commit {result.commit[:10]}, {escape(revision_phrase(result.revision))})",
        markup=True,
        highlight=False,
    )
    app.warn(sitemap_warning(app.config))
    app.console.print("On GitHub: Settings → Pages → Source: Deploy from a branch → " + result.branch)
