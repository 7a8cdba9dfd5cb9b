"""Each entry's `_cost.json`: what its last run's model calls cost, beside its pages (copied into
`_index.json`). `build`, `refresh`, `repo run` and `topic run` all write it here."""

from __future__ import annotations

from pathlib import Path

import msgspec

from ..config import LLMConfig
from ..errors import DeepkbError
from ..llm.cost import CostRecord, cost_record
from ..llm.meter import MeteredProvider
from ..store import KBPaths, safe_join, write_json
from .index import COST_FILE


def entry_dir(paths: KBPaths, entry_id: str) -> Path | None:
    """The workspace folder of `repo:<owner>/<name>` or `topic:<slug>` (None for any other id)."""
    kind, _, name = entry_id.partition(":")
    parts = name.split("/")
    try:
        if kind == "repo" and len(parts) == 2:
            return safe_join(paths.repos_dir, *parts)
        if kind == "topic" and len(parts) == 1 and parts[0]:
            return safe_join(paths.topics_dir, parts[0])
    except DeepkbError:
        return None
    return None


def save_cost(paths: KBPaths, llm: LLMConfig, meter: MeteredProvider, entry_id: str) -> CostRecord | None:
    """What the run's model calls through `meter` cost, when there were any; written beside the entry's pages
    (`_cost.json`) when it has a workspace (an entry that failed before writing has none)."""
    if not meter.usage.calls:
        return None
    record = cost_record(meter.usage, llm, meter.name)
    folder = entry_dir(paths, entry_id)
    if folder is not None and folder.is_dir():
        write_json(folder / COST_FILE, msgspec.to_builtins(record))
    return record
