"""One repository to research, resolved once by the app layer (app/targets.py) and passed down the stages:
which repository, what deepkb.yml says about it, and what this run asks."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.config import RepoEntry
from generator.repo.model import RepoSource


@dataclass(frozen=True)
class RepoTarget:
    source: RepoSource
    entry: RepoEntry | None = None
    """deepkb.yml's entry for this repository, however its source is written there; None when not listed."""
    notes: str = ""
    """The text of the maintainer's notes file the entry names ("" when it names none)."""
    questions: tuple[str, ...] = ()
    """Asked in this run, each on a page of its own: the entry's questions, then the command line's."""
    entry_points: tuple[str, ...] = ()
    """Where the main flows start: the command line's, else the entry's."""
    pins: dict[str, list[str]] = field(default_factory=dict, compare=False)
    """The entry's pinned subsystems: name → files or globs."""
    retry_failed: bool = False
    """Keep the last run's plan and ask the model again only for the shards it failed."""
    max_concurrent: int | None = None
    """Shards analyzed at once (None: llm.max_concurrent)."""

    @property
    def id(self) -> str:
        return f"repo:{self.source.owner}/{self.source.name}"
