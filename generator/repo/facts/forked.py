"""The per-file passes of the facts stage (symbols, then calls) and of the docs stage (each page read as a
document), over a pool of forked processes when the files are large enough to pay for starting them. The
work, and all it reads, is inherited by the fork rather than sent (a forked process's arguments are never
pickled, so the pool's initializer hands it over); only the paths go out and the results come back, in the
order given, so the output is the same."""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

PARALLEL_MIN_BYTES = 2_000_000  # source bytes below which starting processes costs more than it saves
MAX_WORKERS = 8
CHUNK_FILES = 32  # files handed to a worker at a time: fewer round trips, still balanced at the end
CHUNKS_EACH = 8  # … or fewer, so that each worker takes this many chunks of a short list (156 docs pages)


class _Inherited:
    """What a forked worker runs: set in the worker alone, by the pool's initializer."""

    work: Callable[[str], Any] | None = None


def map_files(
    work: Callable[[str], T], paths: list[str], total_bytes: int, min_bytes: int = PARALLEL_MIN_BYTES
) -> list[T]:
    """`[work(path) for path in paths]`: in a pool of forked processes when the files hold `total_bytes`
    of text, `min_bytes` or more (see `workers`), else in this process."""
    count = workers(total_bytes, min_bytes)
    with _collector_paused():
        if count == 1:
            return [work(path) for path in paths]
        return _in_pool(work, paths, count)


def _in_pool(work: Callable[[str], T], paths: list[str], count: int) -> list[T]:
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(count, mp_context=context, initializer=_inherit, initargs=(work,)) as pool:
        chunk = max(1, min(CHUNK_FILES, len(paths) // (count * CHUNKS_EACH)))
        return list(pool.map(_run, paths, chunksize=chunk))


def _inherit(work: Callable[[str], Any]) -> None:
    _Inherited.work = work


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a pass (forked workers inherit it off). A pass builds many
    objects without a cycle, freed by reference counting (a syntax tree is tens of thousands), that the
    collector would walk again and again; in a forked worker each walk also copies the inherited objects."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _run(path: str) -> Any:
    assert _Inherited.work is not None
    return _Inherited.work(path)


def _other_threads() -> bool:
    return threading.active_count() > 1


def workers(total_bytes: int, min_bytes: int = PARALLEL_MIN_BYTES) -> int:
    """Processes for a pass over `total_bytes` of text: one per core from `min_bytes` on, else this one alone
    (also when another thread runs: a lock it holds would stay held in a forked copy, or forking is not
    available)."""
    if total_bytes < min_bytes or _other_threads():
        return 1
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(cores, MAX_WORKERS)
