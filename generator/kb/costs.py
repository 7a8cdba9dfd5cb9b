"""Each entry's `_cost.json`: what its last run's model calls cost, beside its pages (copied into
`_index.json`). `build`, `refresh`, `repo run` and `topic run` all write it here."""

from __future__ import annotations

import msgspec

from ..config import LLMConfig
from ..errors import DeepkbError
from ..llm.cost import CostRecord, cost_record
from ..llm.meter import MeteredProvider
from ..store import KBPaths, write_json
from .index import COST_FILE


def save_cost(paths: KBPaths, llm: LLMConfig, meter: MeteredProvider, entry_id: str) -> CostRecord | None:
    """What the run's model calls through `meter` cost, when there were any; written beside the entry's pages
    (`_cost.json`) when it has a workspace (an entry that failed before writing has none)."""
    if not meter.usage.calls:
        return None
    record = cost_record(meter.usage, llm, meter.name)
    try:
        folder = paths.entry_dir(entry_id)
    except DeepkbError:
        return record
    if folder.is_dir():
        write_json(folder / COST_FILE, msgspec.to_builtins(record))
    return record
