"""`deepkb repo …`: repository research (run, chunked start/shard/synthesize, visualize)."""

from __future__ import annotations

import click

from .app import not_implemented


@click.group()
def repo() -> None:
    """Research a git repository: map, plan shards, analyze each, synthesize an index."""


@repo.command("run")
@click.argument("source")
def repo_run(source: str) -> None:
    """Research SOURCE (a https URL, git@host:owner/repo, or a local path)."""
    not_implemented("repo run")


COMMANDS = [repo]
