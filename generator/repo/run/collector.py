"""The cyclic garbage collector, paused while a repository is researched.

The stages build hundreds of thousands of small objects that hold no reference cycles (symbols, syntax
trees, records): reference counting frees them, and each of the collector's passes — one per few hundred
allocations, a full one as the heap grows — only rescans the heap to find nothing (about a tenth of an
offline run). The objects alive when a run starts (imported modules, the configuration) are frozen out of
those scans too. Afterwards the collector is back as it was, with everything alive in its oldest
generation: the cycles a run leaves (few) are collected at its next full pass.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause automatic collection inside the block (nested blocks leave it to the outermost)."""
    if not gc.isenabled():
        yield
        return
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        # what the run left alive joins the oldest generation unscanned (the youngest, where it all sits
        # after no collection, would otherwise be scanned whole at the first allocation)
        gc.freeze()
        gc.unfreeze()
        gc.enable()
