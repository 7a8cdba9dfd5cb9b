"""One topic to research, resolved once by the app layer (app/targets.py) and passed down the phases: the
topic's text, its workspace, its deepkb.yml entry and the options this run works with."""

from __future__ import annotations

from dataclasses import dataclass

from ..config import TopicEntry
from .state import Options


@dataclass(frozen=True)
class TopicTarget:
    topic: str
    """The topic's text, whitespace folded."""
    slug: str
    """Its workspace, site_src/topics/<slug>/ (an existing one of the same topic is found again)."""
    entry: TopicEntry
    """Its deepkb.yml entry, or the defaults for a topic deepkb.yml does not list."""
    options: Options
    """The entry's options with the command line's over them."""
    refresh: bool = False
    """Research again even when the topic is younger than its `refresh_days` (`deepkb topic run`)."""
    entry_options: bool = False
    """Continue an unfinished run with these options, never the ones its `_meta.json` records (build,
    refresh): a record on disk is data, not authority."""
