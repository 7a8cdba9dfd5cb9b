"""Synthesis work that needs only the plan, done by a forked process while the shards are analyzed.

Four parts of the synthesis depend on the plan and the facts alone: the calls of each shard's main module
(read whole, for the subsystem edges), where every module is placed among the subsystems, every module's
catalogue line, and the main call flow. On a large repository they cost as much as describing all the shards, and the second core is idle
then. So once the plan is made, a forked copy of the process works them out and pipes back each part as
a plain record as soon as it has it, in the order the synthesis needs them, and `synthesize` takes each
one only where it is exactly what it would have computed itself:

- the main modules' calls always (a file's calls depend on the facts alone; `CallGraph.read` takes them at
  the moment it would have read the file, so what has been read "so far" is the same);
- the placement when every planned shard landed (it is computed over the landed shards);
- each module's catalogue line when the calls into that module read by then are the ones the forked process
  ranked its symbols with (a ranking counts the calls read so far);
- the main flow when the files read whole by then are the same as in the forked process (a function's calls
  are read alone or from its file's, and the two can differ), with the files it read whole replayed.

Each is taken only if the process has handed its work over by the time it is needed: on a busy machine the
forked process may get no core, and this one never waits for it.

Anything else (no fork on this platform, other threads running, the process failed, a small repository)
means no read-ahead, and `synthesize` computes everything itself, as it always can.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import main_chain, module_lines
from generator.repo.facts.parser_processes import anonymous_file
from generator.repo.facts.ranking import call_counts
from generator.repo.model import CallEdge, Facts, ModuleLine, RepoMap, Shard, ShardPlan
from generator.repo.plan.subsystems import core_modules
from generator.repo.synthesize.architecture import place_modules

AHEAD_MIN_BYTES = 2_000_000  # smaller repositories: the fork costs more than the work it takes over
_LENGTH = struct.Struct(">Q")  # each part's pickle is preceded by its length


@dataclass
class Placement:
    """Every module's subsystem (architecture.place_modules), for these shards: (index, files)."""

    shards: list[tuple[int, tuple[str, ...]]]
    modules: dict[str, int]


@dataclass
class MainCalls:
    """Each shard's main module's calls, read whole, in the order read."""

    calls: dict[str, list[CallEdge]]


@dataclass
class CatalogueLines:
    """Every module's catalogue line (describe.module_lines), with the calls into it its ranking counted."""

    lines: dict[str, ModuleLine]
    counted: dict[str, Counted]


Counted = tuple[tuple[str, int], ...]  # calls into each of a file's symbols, sorted: what ranking.py keys on


def counted_calls(facts: Facts, path: str) -> Counted:
    return tuple(sorted(call_counts(facts, path).items()))


@dataclass
class Flow:
    """The main call flow, searched with `read_before` the files read whole; `read` what it read whole."""

    read_before: frozenset[str]
    chain: list[CallEdge]
    read: dict[str, list[CallEdge]] = field(default_factory=dict)


Part = TypeVar("Part", Placement, MainCalls, CatalogueLines, Flow)


class PendingAhead:
    """A forked process working the read-ahead out, handing each part over as soon as it has it: the part's
    record (a length, then its pickle) appended to a file of its own, then a byte on a pipe saying it is
    whole. The process never waits for this one (a pipe would hold 64 KB of parts, then stop it until this
    one reads, which it does only when the synthesis asks)."""

    def __init__(self, pid: int, records: int, notices: int) -> None:
        self._pid, self._records, self._notices = pid, records, notices
        self._offset = 0  # bytes of the records file taken so far
        self._parts: dict[type, object] = {}
        self._done = False

    def taken(self, kind: type[Part]) -> Part | None:
        """The part when it has been handed over by now, else None: the caller computes it (a busy machine
        may be starving the forked process, and this one never waits for it)."""
        while not self._done and select.select([self._notices], [], [], 0)[0]:
            self._receive()
        found = self._parts.get(kind)
        return found if isinstance(found, kind) else None

    def wait(self) -> None:
        """Take every part the process hands over, until it ends (tests; a run never waits)."""
        while not self._done:
            self._receive()

    def _receive(self) -> None:
        """The parts the process has said are whole (each written whole by our own forked process, never
        outside data); at the end of its notices the process is reaped, and what it handed over is kept."""
        notices = os.read(self._notices, 64)
        if not notices:
            self.close()
            return
        for _ in notices:
            (size,) = _LENGTH.unpack(os.pread(self._records, _LENGTH.size, self._offset))
            body = os.pread(self._records, size, self._offset + _LENGTH.size)
            self._offset += _LENGTH.size + size
            part = pickle.loads(body)
            self._parts[type(part)] = part

    def close(self) -> None:
        """Stop the process if it is still at work and reap it (idempotent)."""
        if self._done:
            return
        self._done = True
        os.close(self._notices)
        os.close(self._records)
        try:
            os.kill(self._pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # it had ended
        os.waitpid(self._pid, 0)


def start_ahead(
    plan: ShardPlan, facts: Facts, repo_map: RepoMap, linker: Linker | None = None
) -> PendingAhead | None:
    """Fork the read-ahead for a large repository (None: a small one, or no fork on this platform)."""
    if facts.calls is None or not hasattr(os, "fork"):
        return None
    if _other_threads():
        return None  # they (a batch of entries) may hold a lock the forked copy would need
    if sum(f.size for f in repo_map.files) < AHEAD_MIN_BYTES:
        return None
    records = anonymous_file("deepkb-ahead")
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for end in (records, read, write):
            os.close(end)
        return None
    if pid == 0:  # the forked process: work it out, hand it over, leave without running anything else
        code = 1
        try:
            os.close(read)
            for part in work_out(plan.shards, facts, repo_map, linker):  # each part as soon as it is known
                body = pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)
                _write_all(records, _LENGTH.pack(len(body)) + body)
                os.write(write, b"+")  # one byte a part: the pipe never fills
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    return PendingAhead(pid, records, read)


def _other_threads() -> bool:
    return threading.active_count() > 1


def _write_all(pipe: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(pipe, view) :]


def work_out(
    shards: Sequence[Shard], facts: Facts, repo_map: RepoMap, linker: Linker | None = None
) -> Iterator[Placement | MainCalls | CatalogueLines | Flow]:
    """The read-ahead itself, part by part in the order a synthesis needs them (in the forked process; in
    this one, for tests). The catalogue's lines need the run's `linker` (none: no lines worked out)."""
    calls = facts.calls
    assert calls is not None
    before = set(calls.read_paths())
    yield MainCalls(
        {
            path: calls.read(path)
            for path in main_modules(shards)
            if path in facts.files and path not in before
        }
    )
    planned = [(index, tuple(shard.files)) for index, shard in enumerate(shards, 1)]
    modules = core_modules(repo_map)
    yield Placement(planned, place_modules(modules, planned, facts, repo_map))
    read_before = frozenset(calls.read_paths())
    chain = main_chain(facts, modules)
    yield Flow(
        read_before, chain, {path: calls.read(path) for path in calls.read_paths() if path not in read_before}
    )
    if linker is not None:
        lines = module_lines(modules, repo_map, facts, linker)
        yield CatalogueLines(
            {line.path: line for line in lines}, {path: counted_calls(facts, path) for path in modules}
        )


def main_modules(shards: Sequence[Shard]) -> list[str]:
    """Each shard's main module (its first file): whose calls the subsystem edges add."""
    return [shard.files[0] for shard in shards if shard.files]
