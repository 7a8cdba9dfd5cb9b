"""`deepkb site`, `serve`: render site_src and build or preview it with MkDocs."""

from __future__ import annotations

import click

from .app import not_implemented


@click.command()
def site() -> None:
    """Render home, section and tag pages into site_src/, then build site/ with MkDocs."""
    not_implemented("site")


@click.command()
def serve() -> None:
    """Preview the site with live reload."""
    not_implemented("serve")


COMMANDS = [site, serve]
