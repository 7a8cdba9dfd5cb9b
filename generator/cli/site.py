"""`deepkb site`, `serve`: render site_src and build or preview it with MkDocs."""

from __future__ import annotations

import click

from ..site.build import build_site, serve_site, sitemap_warning
from ..site.preview import check_can_serve
from ..site.render import render_site
from ..store import workspace_lock
from .app import App, pass_app


@click.command()
@click.option("--no-strict", is_flag=True, help="Do not fail the build on MkDocs warnings (broken links…).")
@pass_app
def site(app: App, no_strict: bool) -> None:
    """Render home, section and tag pages into site_src/, then build site/ with MkDocs."""
    config = app.config
    with workspace_lock(app.paths):
        render_site(app.paths, config)
        site_dir = build_site(app.paths, config, strict=not no_strict)
    app.console.print(f"[bold green]Site built:[/bold green] {site_dir}")
    app.warn(sitemap_warning(config))
    # search and diagrams load files with fetch(), which a browser refuses for file:// pages: serve it
    app.console.print("Read it with [bold]deepkb serve[/bold] (or make serve): http://127.0.0.1:8000/")


@click.command()
@click.option(
    "--dev-addr", default="127.0.0.1:8000", show_default=True, help="Address to serve on (IP:PORT)."
)
@pass_app
def serve(app: App, dev_addr: str) -> None:
    """Preview the site with live reload (renders the listing pages first)."""
    config = app.config
    check_can_serve(dev_addr)
    with workspace_lock(app.paths):
        render_site(app.paths, config)
    app.console.print(f"Serving on [bold]http://{dev_addr}/[/bold] — Ctrl+C stops.")
    serve_site(app.paths, config, dev_addr=dev_addr)
