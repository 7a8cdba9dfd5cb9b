"""Synthesis work that needs only the plan, done by a forked process while the shards are analyzed.

Three parts of the synthesis depend on the plan and the facts alone: the calls of each shard's main module
(read whole, for the subsystem edges), where every module is placed among the subsystems, and the main call
flow. On a large repository they cost as much as describing all the shards, and the second core is idle
then. So once the plan is made, a forked copy of the process works them out and pipes back plain records,
and `synthesize` takes each one only where it is exactly what it would have computed itself:

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
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from generator.repo.analyze.describe import main_chain
from generator.repo.model import CallEdge, Facts, RepoMap, Shard, ShardPlan
from generator.repo.plan.subsystems import core_modules
from generator.repo.synthesize.architecture import place_modules

AHEAD_MIN_BYTES = 2_000_000  # smaller repositories: the fork costs more than the work it takes over
_READ_SIZE = 1 << 16


@dataclass
class Ahead:
    """What the forked process worked out (see the module docstring)."""

    main_calls: dict[str, list[CallEdge]]  # each main module's calls, in the order read
    placement: dict[str, int]
    shards: list[tuple[int, tuple[str, ...]]]  # the shards the placement was made for: (index, files)
    read_at_flow: frozenset[str]  # the files read whole when the main flow was searched
    flow: list[CallEdge]
    flow_reads: dict[str, list[CallEdge]] = field(default_factory=dict)  # files the flow search read whole


class PendingAhead:
    """A forked process working the read-ahead out; `result` waits for it (None when it failed)."""

    def __init__(self, pid: int, pipe: int) -> None:
        self._pid, self._pipe = pid, pipe
        self._result: Ahead | None = None
        self._done = False

    def ready(self) -> bool:
        """Whether `result` would answer without waiting (the process has begun handing over, or ended)."""
        if self._done:
            return True
        readable, _, _ = select.select([self._pipe], [], [], 0)
        return bool(readable)

    def taken(self) -> Ahead | None:
        """The result when it is ready now, else None (the caller computes it: never waiting on a process a
        busy machine is starving)."""
        return self.result() if self.ready() else None

    def close(self) -> None:
        """Stop the process if it is still at work (the run ended another way); idempotent."""
        if not self._done:
            self._done = True
            os.close(self._pipe)
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # it had finished
            os.waitpid(self._pid, 0)

    def result(self) -> Ahead | None:
        if not self._done:
            self._done = True
            data = bytearray()
            try:
                while chunk := os.read(self._pipe, _READ_SIZE):
                    data += chunk
            finally:
                os.close(self._pipe)
                _, status = os.waitpid(self._pid, 0)
            if os.waitstatus_to_exitcode(status) == 0 and data:
                found = pickle.loads(bytes(data))  # our own forked process's output, never outside data
                self._result = found if isinstance(found, Ahead) else None
        return self._result


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
            _send(write, work_out(plan.shards, facts, repo_map))
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    return PendingAhead(pid, read)


def _other_threads() -> bool:
    return threading.active_count() > 1


def _send(pipe: int, ahead: Ahead) -> None:
    view = memoryview(pickle.dumps(ahead, protocol=pickle.HIGHEST_PROTOCOL))
    while view:
        view = view[os.write(pipe, view) :]
    os.close(pipe)


def work_out(shards: Sequence[Shard], facts: Facts, repo_map: RepoMap) -> Ahead:
    """The read-ahead itself (in the forked process; in this one, for tests)."""
    calls = facts.calls
    assert calls is not None
    planned = [(index, tuple(shard.files)) for index, shard in enumerate(shards, 1)]
    modules = core_modules(repo_map)
    placement = place_modules(modules, planned, facts, repo_map)
    before = set(calls.read_paths())
    main_calls = {
        path: calls.read(path) for path in main_modules(shards) if path in facts.files and path not in before
    }
    read_at_flow = frozenset(calls.read_paths())
    flow = main_chain(facts, modules)
    flow_reads = {path: calls.read(path) for path in calls.read_paths() if path not in read_at_flow}
    return Ahead(main_calls, placement, planned, read_at_flow, flow, flow_reads)


def main_modules(shards: Sequence[Shard]) -> list[str]:
    """Each shard's main module (its first file): whose calls the subsystem edges add."""
    return [shard.files[0] for shard in shards if shard.files]
