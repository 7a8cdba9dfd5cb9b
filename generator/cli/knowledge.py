"""`deepkb knowledge …`: the cross-topic index (filled in by the knowledge-base issue)."""

from __future__ import annotations

import click

from .app import not_implemented


@click.group()
def knowledge() -> None:
    """Search, list, show and delete entries of the knowledge base."""


@knowledge.command("search")
@click.argument("query")
def knowledge_search(query: str) -> None:
    """Search every repository, topic and source, through tag synonyms and full text."""
    not_implemented("knowledge search")


COMMANDS = [knowledge]
