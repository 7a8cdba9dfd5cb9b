"""`deepkb crawl URL`: fetch a page into a topic's raw sources (filled in by the topic-research issue)."""

from __future__ import annotations

import click

from .app import not_implemented


@click.command()
@click.argument("url")
def crawl(url: str) -> None:
    """Fetch URL (and same-site links) into a topic's raw sources, or print it."""
    not_implemented("crawl")


COMMANDS = [crawl]
