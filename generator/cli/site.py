"""`deepkb site`, `serve`, `publish`: render site_src and build, preview or publish it with MkDocs."""

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


@click.command()
def publish() -> None:
    """Publish site/ to GitHub Pages."""
    not_implemented("publish")


COMMANDS = [site, serve, publish]
