"""`deepkb topic …`: topic research (filled in by the topic-research issue)."""

from __future__ import annotations

import click

from .app import not_implemented


@click.group()
def topic() -> None:
    """Research a topic: plan, search, crawl, dedupe, aggregate, report, verify."""


@topic.command("run")
@click.argument("text")
def topic_run(text: str) -> None:
    """Research TEXT and write its report into the knowledge base."""
    not_implemented("topic run")


@topic.command("resume")
@click.argument("topic_id")
def topic_resume(topic_id: str) -> None:
    """Continue an interrupted or paused topic run."""
    not_implemented("topic resume")


COMMANDS = [topic]
