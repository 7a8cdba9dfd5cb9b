"""`deepkb refresh`: re-research only what went stale (filled in by the knowledge-base issue)."""

from __future__ import annotations

import click

from .app import not_implemented


@click.command()
def refresh() -> None:
    """Re-research repositories whose remote HEAD moved and topics older than their refresh_days."""
    not_implemented("refresh")


COMMANDS = [refresh]
