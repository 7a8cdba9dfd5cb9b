"""The forked parser processes: chunks taken once each from both ends of the queue, a process that dies
leaves its chunks to this one, and no process outlives a parse, finished or cancelled."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import reaped
from repo_source_fixture import FIXTURE, write_tree

from generator.repo.facts import parser_processes, parsing
from generator.repo.facts.languages import SUPPORTED
from generator.repo.facts.parser_processes import ChunkQueue, ParserProcess
from generator.repo.facts.parsing import Job, Parsed, StartedParse, parse_sources, start_parse
from generator.repo.map.walk import map_repository
from generator.repo.model import FileEntry


@pytest.fixture(autouse=True)
def forks(forks_beside_threads: None) -> None:
    """Every test here forks, whatever threads earlier tests left."""


@pytest.fixture
def entries(tmp_path: Path) -> list[FileEntry]:
    return map_repository(write_tree(tmp_path / "repo", FIXTURE)).files


@pytest.fixture
def root(tmp_path: Path, entries: list[FileEntry]) -> Path:
    return tmp_path / "repo"


def ended(started: StartedParse) -> list[bool]:
    """Wait until every parser process has ended, without reaping it (its results stay to be read); whether
    each one ended well."""
    ends = [os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT) for p in started.processes]
    return [end is not None and (end.si_code, end.si_status) == (os.CLD_EXITED, 0) for end in ends]


def test_each_chunk_is_taken_once_from_either_end() -> None:
    queue = ChunkQueue(5)
    taken = [queue.take_front(), queue.take_back(), queue.take_front(), queue.take_back(), queue.take_back()]
    assert taken == [0, 4, 1, 3, 2]
    assert queue.take_front() is None and queue.take_back() is None
    queue.close()
    queue.close()  # idempotent


def test_chunks_are_balanced_largest_file_first_to_the_lightest() -> None:
    sizes = {"a.py": 5, "b.py": 4, "c.py": 3, "d.py": 3, "e.py": 1, "f/test_x.py": 0}
    entries = [FileEntry(path, size, 1, "python") for path, size in sizes.items()]
    chunks = parsing._balanced_chunks(entries, 2)
    # 5 → first (load 6); 4 → second (5); c → second (9); d → first (10); e → second (11); then the first
    assert [[path for path, _, _ in chunk] for chunk in chunks] == [
        ["a.py", "d.py", "f/test_x.py"],
        ["b.py", "c.py", "e.py"],
    ]
    assert chunks[0][2] == ("f/test_x.py", "python", False)  # a test: its symbols are read on demand
    equal = [FileEntry(f"m{i}.py", 10, 1, "python") for i in range(5)]
    assert [[p for p, _, _ in c] for c in parsing._balanced_chunks(equal, 3)] == [
        ["m0.py", "m3.py"],
        ["m1.py", "m4.py"],
        ["m2.py"],
    ]
    assert len(parsing._balanced_chunks(equal, 9)) == 5  # no empty chunk


def test_processes_racing_for_chunks_take_each_once() -> None:
    queue = ChunkQueue(3000)
    processes = [ParserProcess(queue, lambda index: index) for _ in range(3)]
    here = []
    while (index := queue.take_back()) is not None:  # taking from the back while they take from the front
        here.append(index)
    taken = [index for process in processes for index in process.results()] + here
    assert sorted(taken) == list(range(3000))
    queue.close()
    for process in processes:
        process.stop()


def test_this_process_parses_the_chunks_no_process_took(root: Path, entries: list[FileEntry]) -> None:
    sources = [e for e in entries if e.language in SUPPORTED]
    chunks = [[(e.path, e.language, True)] for e in sources[:4]]
    queue = ChunkQueue(len(chunks))
    assert (queue.take_front(), queue.take_front()) == (0, 1)  # a process holds chunks 0 and 1
    stolen = dict(
        parsing._parse_unstarted(queue, chunks, lambda jobs: parsing.parse_chunk(str(root), jobs, 1_000_000))
    )
    assert list(stolen) == [3, 2]  # from the back
    assert [path for path, _ in stolen[3] + stolen[2]] == [chunks[3][0][0], chunks[2][0][0]]
    assert all(extracted is not None for _, extracted in stolen[3] + stolen[2])
    assert queue.take_front() is None
    queue.close()


def test_results_are_taken_as_they_are_written_each_once() -> None:
    ready, go = os.pipe(), os.pipe()

    def work(index: int) -> int:
        if index == 1:  # chunk 0's result is written whole by now: say so, then wait for the test
            os.write(ready[1], b"r")
            os.read(go[0], 1)
        return index * index

    queue = ChunkQueue(3)
    process = ParserProcess(queue, work)
    try:
        os.read(ready[0], 1)
        assert process.written() == {0: 0}
        assert process.written() == {}
        os.write(go[1], b"g")
        assert process.results() == {1: 1, 2: 4} and reaped(process.pid)
    finally:
        process.stop()
        queue.close()
        for end in (*ready, *go):
            os.close(end)


def test_an_epilogue_runs_once_the_chunks_are_done_and_the_parent_need_not_wait_for_it() -> None:
    # the parse is collected while the process is still at its epilogue; its result comes after
    started, go = os.pipe(), os.pipe()

    def epilogue() -> str:
        os.write(started[1], b"s")
        os.read(go[0], 1)
        return "after the chunks"

    queue = ChunkQueue(2)
    process = ParserProcess(queue, lambda index: index + 10, epilogue=epilogue)
    try:
        os.read(started[0], 1)  # every chunk done: it runs its epilogue now
        assert process.written() == {0: 10, 1: 11} and not process.ended
        os.write(go[1], b"g")
        assert process.last() == "after the chunks" and reaped(process.pid)
    finally:
        process.stop()
        queue.close()
        for end in (*started, *go):
            os.close(end)


def test_an_epilogue_that_fails_gives_nothing() -> None:
    def epilogue() -> str:
        raise RuntimeError("over there")

    queue = ChunkQueue(1)
    process = ParserProcess(queue, lambda index: index, epilogue=epilogue)
    try:
        assert process.last() is None and reaped(process.pid)
    finally:
        process.stop()
        queue.close()


def test_bytes_shared_through_a_file_read_back_as_written() -> None:
    # more pieces than one writev takes, empty files among them
    contents = {f"pkg/m{i}.py": (b"x = %d\n" % i) * (i % 7) for i in range(1300)}
    file = parser_processes.anonymous_file("test-shared")
    try:
        shared = parser_processes.SharedBytes(file, parser_processes.share_bytes(file, contents))
        assert len(shared) == len(contents) and dict(shared) == contents
        assert shared.get("missing.py") is None
    finally:
        os.close(file)


def test_processes_and_this_one_share_the_work(root: Path, entries: list[FileEntry]) -> None:
    started = start_parse(root, entries, max_file_bytes=1_000_000, workers=3)
    assert started is not None and len(started.processes) == 2
    assert ended(started) == [True, True]  # the processes took every chunk: this one only collects
    parsed = started.finish()
    assert parsed == parse_sources(root, entries, max_file_bytes=1_000_000, workers=1)
    assert all(reaped(p.pid) for p in started.processes)


def dying_in_the_child(how: str, parent: int) -> Callable[..., Parsed]:
    """`parse_chunk`, except that a forked process dies (`how`) at the chunk holding pkg/core.py."""
    real = parsing.parse_chunk

    def parse_chunk(root: str, jobs: Sequence[Job], *args: Any) -> Parsed:
        if os.getpid() != parent and any(path == "pkg/core.py" for path, _, _ in jobs):
            if how == "exit":
                os._exit(3)
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("a parser that fails")
        return real(root, jobs, *args)

    return parse_chunk


@pytest.mark.parametrize("how", ["exit", "kill", "raise"])
def test_a_process_that_dies_leaves_its_chunk_to_this_one(
    root: Path, entries: list[FileEntry], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    here = parse_sources(root, entries, max_file_bytes=1_000_000, workers=1)
    monkeypatch.setattr(parsing, "parse_chunk", dying_in_the_child(how, os.getpid()))
    started = start_parse(root, entries, max_file_bytes=1_000_000, workers=3)
    assert started is not None
    # one died at pkg/core.py's chunk, the other took every chunk left
    assert sorted(ended(started)) == [False, True]
    assert started.finish() == here
    assert here["pkg/core.py"] is not None
    assert all(reaped(p.pid) for p in started.processes)


def test_cancelling_stops_and_reaps_every_process(root: Path, entries: list[FileEntry]) -> None:
    started = start_parse(root, entries, max_file_bytes=1_000_000, workers=3)
    assert started is not None and started.processes
    started.cancel()
    assert all(reaped(p.pid) for p in started.processes)
    started.cancel()  # idempotent


def test_no_fork_means_parsing_here(
    root: Path, entries: list[FileEntry], monkeypatch: pytest.MonkeyPatch
) -> None:
    here = parse_sources(root, entries, max_file_bytes=1_000_000, workers=1)

    def refused() -> int:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    assert start_parse(root, entries, max_file_bytes=1_000_000, workers=3) is None
    assert parse_sources(root, entries, max_file_bytes=1_000_000, workers=3) == here


def test_no_fork_while_other_threads_run(
    root: Path, entries: list[FileEntry], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parsing, "other_threads", parser_processes.other_threads)  # the real check
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert start_parse(root, entries, max_file_bytes=1_000_000, workers=3) is None
    finally:
        release.set()
        other.join()
