"""Synthesis work that needs only the plan, done by a forked process while the shards are analyzed.

Three parts of the synthesis depend on the plan and the facts alone: the calls of each shard's main module
(read whole, for the subsystem edges), where every module is placed among the subsystems, and the main call
flow. On a large repository they cost as much as describing all the shards, and the second core is idle
then. So once the plan is made, a forked copy of the process works them out and pipes back each part as
a plain record as soon as it has it, in the order the synthesis needs them, and `synthesize` takes each
one only where it is exactly what it would have computed itself:

- the main modules' calls always (a file's calls depend on the facts alone; `CallGraph.read` takes them at
  the moment it would have read the file, so what has been read "so far" is the same);
- the placement when every planned shard landed (it is computed over the landed shards);
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

from generator.repo.analyze.describe import main_chain
from generator.repo.model import CallEdge, Facts, RepoMap, Shard, ShardPlan
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
class Flow:
    """The main call flow, searched with `read_before` the files read whole; `read` what it read whole."""

    read_before: frozenset[str]
    chain: list[CallEdge]
    read: dict[str, list[CallEdge]] = field(default_factory=dict)


Part = TypeVar("Part", Placement, MainCalls, Flow)


class PendingAhead:
    """A forked process working the read-ahead out, handing each part over as soon as it has it."""

    def __init__(self, pid: int, pipe: int) -> None:
        self._pid, self._pipe = pid, pipe
        self._parts: dict[type, object] = {}
        self._done = False

    def taken(self, kind: type[Part]) -> Part | None:
        """The part when it has been handed over by now, else None: the caller computes it (a busy machine
        may be starving the forked process, and this one never waits for it)."""
        while not self._done and select.select([self._pipe], [], [], 0)[0]:
            self._receive()
        found = self._parts.get(kind)
        return found if isinstance(found, kind) else None

    def wait(self) -> None:
        """Take every part the process hands over, until it ends (tests; a run never waits)."""
        while not self._done:
            self._receive()

    def _receive(self) -> None:
        """One part (a length, then its pickle: written whole by our own forked process, never outside
        data); at the end of the stream the process is reaped, and what it handed over is kept."""
        header = self._read_exactly(_LENGTH.size)
        body = self._read_exactly(_LENGTH.unpack(header)[0]) if header is not None else None
        if body is None:
            self.close()
            return
        part = pickle.loads(body)
        self._parts[type(part)] = part

    def _read_exactly(self, size: int) -> bytes | None:
        data = bytearray()
        while len(data) < size:
            chunk = os.read(self._pipe, size - len(data))
            if not chunk:
                return None
            data += chunk
        return bytes(data)

    def close(self) -> None:
        """Stop the process if it is still at work and reap it (idempotent)."""
        if self._done:
            return
        self._done = True
        os.close(self._pipe)
        try:
            os.kill(self._pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # it had ended
        os.waitpid(self._pid, 0)


def start_ahead(plan: ShardPlan, facts: Facts, repo_map: RepoMap) -> PendingAhead | None:
    """Fork the read-ahead for a large repository (None: a small one, or no fork on this platform)."""
    if facts.calls is None or not hasattr(os, "fork"):
        return None
    if _other_threads():
        return None  # they (a batch of entries) may hold a lock the forked copy would need
    if sum(f.size for f in repo_map.files) < AHEAD_MIN_BYTES:
        return None
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid == 0:  # the forked process: work it out, hand it over, leave without running anything else
        code = 1
        try:
            os.close(read)
            for part in work_out(plan.shards, facts, repo_map):  # each part as soon as it is known
                body = pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)
                _write_all(write, _LENGTH.pack(len(body)) + body)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    return PendingAhead(pid, read)


def _other_threads() -> bool:
    return threading.active_count() > 1


def _write_all(pipe: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(pipe, view) :]


def work_out(
    shards: Sequence[Shard], facts: Facts, repo_map: RepoMap
) -> Iterator[Placement | MainCalls | Flow]:
    """The read-ahead itself, part by part in the order a synthesis needs them (in the forked process; in
    this one, for tests)."""
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


def main_modules(shards: Sequence[Shard]) -> list[str]:
    """Each shard's main module (its first file): whose calls the subsystem edges add."""
    return [shard.files[0] for shard in shards if shard.files]
