"""`deepkb publish`: deploy the built site to GitHub Pages (filled in by the knowledge-base issue)."""

from __future__ import annotations

import click

from .app import not_implemented


@click.command()
def publish() -> None:
    """Publish site/ to GitHub Pages."""
    not_implemented("publish")


COMMANDS = [publish]
