"""Parse every source file of a map, on all cores for large repositories (parsing is the facts stage's cost).

The pass over every file is the languages' `outline` (for Python: no symbols); `parse_symbols` reads one
file's symbols when they are wanted. Each file is read through `read_source` and parsed on its own: a
file that cannot be read or parsed yields None and never stops the others.

On a large repository, parser processes are forked (a spawned one would spend longer importing the parsers
than parsing; generator/repo/facts/parser_processes.py) and take the chunks of work from the front, while
this process first does `meanwhile` (the caller's other start-up work: importing the later stages, loading
rules) and then takes the chunks no process has taken, from the back; whoever is free takes the next, so
they finish together. Forked processes share the bytes the map read without copying them and only parse and
hand back plain data; none is forked while other threads run (a lock one holds would stay held in the copy).
A chunk a process took but never finished (it was killed, or failed) is parsed here.
`start_parse` hands the work out and returns at once (`deepkb repo run` starts it before loading its
configuration, generator/repo/run/headstart.py); `parse_sources` finishes a started parse or does it all.
"""

from __future__ import annotations

import heapq
import os
import re
import select
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.facts.extracted import Extracted
from generator.repo.facts.imports import show_imports
from generator.repo.facts.languages import SUPPORTED, SYMBOLS_ON_DEMAND, outline, survey, symbols_of
from generator.repo.facts.parser_processes import (
    ChunkQueue,
    ParserProcess,
    SharedBytes,
    anonymous_file,
    other_threads,
    share_bytes,
)
from generator.repo.facts.redaction import redact_extracted
from generator.repo.map.filetypes import is_context_file
from generator.repo.map.walk import decode_text, read_source
from generator.repo.model import FileEntry, RepoMap, Symbol

PARALLEL_MIN_BYTES = 2_000_000  # below this, starting worker processes costs more than it saves
OUTLINE_WEIGHT = 0.5  # Python bytes count half towards that (outlining needs no syntax tree)
MAX_WORKERS = 4
CHUNKS_PER_PROCESS = 16  # small chunks: whoever is free takes the next, so the processes finish together

Job = tuple[str, str, bool]  # (path, language, whether its symbols are read now even if on demand)
Parsed = list[tuple[str, Extracted | None]]
Shown = dict[tuple[str, str], str]  # (language, raw import) → the import as shown, redacted
T = TypeVar("T")


def parse_sources(
    root: Path,
    entries: Iterable[FileEntry],
    *,
    max_file_bytes: int,
    workers: int | None = None,
    contents: Mapping[str, bytes] | None = None,
    redactor: Redactor | None = None,
    meanwhile: Callable[[], object] | None = None,
    started: StartedParse | None = None,
) -> dict[str, Extracted | None]:
    """path → the outline of each file in a supported language (None when unreadable or unparsable).

    `workers`: processes parsing, this one included (None: one per core for a large repository).
    `contents`: bytes the map already read, parsed instead of reading those files again. `redactor`: each
    file's docstrings and module doc come back redacted by it. `meanwhile`: run in this process while the
    workers start parsing (before this process joins them), or first when there are no workers.
    `started`: a parse of these same entries already handed to workers (`start_parse`): it is finished.
    """
    entries = list(entries)
    waiting = [meanwhile] if meanwhile is not None else []

    def run_meanwhile() -> None:  # once, wherever the parsing happens
        while waiting:
            waiting.pop()()

    if started is None:
        started = start_parse(
            root,
            entries,
            max_file_bytes=max_file_bytes,
            workers=workers,
            contents=contents,
            redactor=redactor,
        )
    if started is not None:
        try:
            return started.finish(run_meanwhile)
        except OSError:
            pass  # their results could not be read (out of memory): parse in this process
    run_meanwhile()
    jobs: list[Job] = [_job(e) for e in entries if e.language in SUPPORTED]
    return dict(parse_chunk(str(root), jobs, max_file_bytes, contents, redactor))


def start_parse(
    root: Path,
    entries: Iterable[FileEntry],
    *,
    max_file_bytes: int,
    workers: int | None = None,
    contents: Mapping[str, bytes] | None = None,
    redactor: Redactor | None = None,
) -> StartedParse | None:
    """Fork the parser processes and hand them the work, or None when this process parses alone (a small
    repository, one core, no fork on this platform or allowed here, or other threads running)."""
    selected = [e for e in entries if e.language in SUPPORTED]
    count = _process_count_for(selected, workers)
    if count <= 1 or not _may_fork():
        return None
    try:
        return StartedParse.forked(root, selected, max_file_bytes, count - 1, contents, redactor)
    except OSError:
        return None  # no process may be forked here (a sandbox, a process limit): parse in this process


def start_mapped_parse(
    root: Path,
    map_folder: Callable[[], RepoMap],
    *,
    max_file_bytes: int,
    redactor: Redactor | None = None,
    after: Callable[[RepoMap], object] | None = None,
) -> MappedParse | None:
    """Fork a parser process that maps the folder itself (`map_folder`, in the forked process) and then
    parses from the front, so that this process goes on with other work meanwhile; None when no process
    may be forked (then the caller maps and parses here). `after`: work on the map that process does once
    its chunks are done (`StartedParse.extras` takes what it returns)."""
    if not _may_fork():
        return None
    try:
        return MappedParse(root, map_folder, max_file_bytes, redactor, after)
    except OSError:
        return None


def _may_fork() -> bool:
    # threads: one may hold a lock (a progress display's) that a forked copy would need
    return hasattr(os, "fork") and not other_threads()


def _process_count_for(selected: Sequence[FileEntry], workers: int | None) -> int:
    """The processes parsing `selected` (this one included): `workers`, else as the repository's size asks."""
    if len(selected) <= 1:
        return 1
    # outlining Python needs no syntax tree: its bytes count for less when deciding whether workers pay
    work = sum(e.size * (OUTLINE_WEIGHT if _outlined(e) else 1.0) for e in selected)
    return _process_count(round(work)) if workers is None else workers


def _outlined(entry: FileEntry) -> bool:
    """Read without its symbols in the first pass: a test, example or doc script in an on-demand language."""
    return entry.language in SYMBOLS_ON_DEMAND and is_context_file(entry.path)


def _job(entry: FileEntry) -> Job:
    return (entry.path, entry.language, not is_context_file(entry.path))


def _process_count(total_bytes: int) -> int:
    if total_bytes < PARALLEL_MIN_BYTES:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    # on a busy machine a worker costs little more than the fork: this process parses whatever it left
    return max(1, min(cpus, MAX_WORKERS + 1))


class StartedParse:
    """Chunks of work taken from the front by forked parser processes; `finish` runs the caller's other
    work, then parses here, from the back, the chunks no process has taken, and collects the rest."""

    def __init__(
        self,
        root: Path,
        paths: list[str],
        chunks: list[list[Job]],
        queue: ChunkQueue,
        max_bytes: int,
        contents: Mapping[str, bytes] | None,
        redactor: Redactor | None,
    ) -> None:
        self.root, self.max_bytes, self.contents, self.redactor = root, max_bytes, contents, redactor
        self.paths, self.chunks, self.queue = paths, chunks, queue
        self.processes: list[ParserProcess[Parsed]] = []

    @classmethod
    def forked(
        cls,
        root: Path,
        entries: Sequence[FileEntry],
        max_bytes: int,
        workers: int,
        contents: Mapping[str, bytes] | None,
        redactor: Redactor | None,
    ) -> StartedParse:
        """The chunks of `entries` handed to `workers` forked parser processes."""
        chunks = _balanced_chunks(entries, (workers + 1) * CHUNKS_PER_PROCESS)
        started = cls(
            root, [e.path for e in entries], chunks, ChunkQueue(len(chunks)), max_bytes, contents, redactor
        )
        started.fork(workers)
        return started

    def fork(self, workers: int) -> None:
        """Add `workers` forked parser processes taking chunks from the front."""
        root, chunks, max_bytes, contents, redactor = (
            self.root,
            self.chunks,
            self.max_bytes,
            self.contents,
            self.redactor,
        )
        shown: Shown = {}  # each forked copy has its own: the import strings that process has shown

        def parse(index: int) -> Parsed:  # in a forked copy, which sees these objects as they are
            return parse_chunk(str(root), chunks[index], max_bytes, contents, redactor, shown)

        try:
            for _ in range(workers):
                self.processes.append(ParserProcess(self.queue, parse))
        except OSError:
            if not self.processes:  # no process at all: the caller parses in this process
                self.cancel()
                raise

    def finish(self, meanwhile: Callable[[], object] | None = None) -> dict[str, Extracted | None]:
        """Every entry's outline, in the map's order, whatever the parser processes did."""
        try:
            if meanwhile is not None:
                meanwhile()
            done = self._parse_and_collect()
        except BaseException:
            self.cancel()
            raise
        self._stop(lambda process: not process.has_epilogue)  # one with an epilogue: `extras` takes it
        results: dict[str, Extracted | None] = {}
        for parsed in done.values():
            results.update(parsed)
        return {path: results.get(path) for path in self.paths}

    def _parse_and_collect(self) -> dict[int, Parsed]:
        """Each chunk's result: the chunks no process has taken parsed here, with the processes' results
        taken as they are written (unpickled while they parse, rather than all once they end), theirs
        once they end, and a chunk a process took and never finished (it died) parsed here."""
        shown: Shown = {}

        def here(chunk: list[Job]) -> Parsed:
            return parse_chunk(str(self.root), chunk, self.max_bytes, self.contents, self.redactor, shown)

        done: dict[int, Parsed] = {}
        for index, parsed in _parse_unstarted(self.queue, self.chunks, here):
            done[index] = parsed
            for process in self.processes:
                done.update(process.written())
        # the chunks the processes took, as each is written; a process that has left gives what it wrote
        while len(done) < len(self.chunks) and (
            working := [p for p in self.processes if not p.ended and not p.reaped]
        ):
            select.select([p.notices for p in working], [], [])
            for process in working:
                done.update(process.written())
        for process in self.processes:
            if process.ended or process.reaped:
                done.update(process.results())
        for index, chunk in enumerate(self.chunks):
            if index not in done:
                done[index] = here(chunk)
        return done

    def extras(self) -> object:
        """What the first process with an epilogue returned once its chunks were done (None: there was
        none, or it failed); waits for it, then reaps that process."""
        for process in self.processes:
            if process.has_epilogue:  # it may have ended already (and its records been read): kept
                found = process.last()
                process.stop()
                return found
        return None

    def cancel(self) -> None:
        """Stop every parser process still at work and reap them all (idempotent)."""
        self._stop(lambda process: True)

    def _stop(self, which: Callable[[ParserProcess[Parsed]], bool]) -> None:
        for process in self.processes:
            if which(process):
                process.stop()
        if all(process.reaped for process in self.processes):
            self.queue.close()


class MappedParse:
    """A parser process that maps the folder before it parses: `taken` waits for its map, then hands back
    the parse to finish here (`StartedParse`), the process taking chunks from the front as usual.

    The process decides the chunks from its map, as `start_parse` would, and hands them over with the map
    and the bytes it read (an anonymous file this process parses its own chunks from). Below the size where
    parser processes pay it parses nothing: the map comes back with its bytes, for this process to parse. A
    process that could not map the folder gives no map; the caller maps it again, and reports what is
    wrong. `after`: work on the map the process does once no chunk is left (the README's facts)."""

    def __init__(
        self,
        root: Path,
        map_folder: Callable[[], RepoMap],
        max_bytes: int,
        redactor: Redactor | None,
        after: Callable[[RepoMap], object] | None = None,
    ) -> None:
        self.root, self.max_bytes, self.redactor = root, max_bytes, redactor
        self.queue = ChunkQueue(0)  # how many chunks there are, the process says once it has mapped
        self.shared = anonymous_file("deepkb-map-bytes")  # the bytes it read, for this process's chunks
        planned: list[list[list[Job]]] = []
        held: dict[str, bytes] = {}
        mapped: list[RepoMap] = []
        shown: Shown = {}

        def prelude() -> tuple[RepoMap, int, list[list[Job]], dict[str, tuple[int, int]]]:  # forked
            repo_map = map_folder()
            mapped.append(repo_map)
            selected = [e for e in repo_map.files if e.language in SUPPORTED]
            count = _process_count_for(selected, None)
            if count <= 1:
                return repo_map, count, [], {}  # with its bytes: the parent parses it all
            planned.append(_balanced_chunks(selected, count * CHUNKS_PER_PROCESS))
            held.update(repo_map.contents)
            self.queue.reset(len(planned[0]))  # parsing may start: the parent's chunks wait for the map
            places = share_bytes(self.shared, held)
            bare = RepoMap(root=repo_map.root, files=repo_map.files, skipped=repo_map.skipped)
            return bare, count, planned[0], places  # the chunks too: worked out once

        def parse(index: int) -> Parsed:  # in the forked process, after the prelude
            return parse_chunk(str(root), planned[0][index], max_bytes, held, redactor, shown)

        def epilogue() -> object:  # in the forked process, once no chunk is left
            return after(mapped[0]) if after is not None and planned else None  # planned: it parsed

        self.process: ParserProcess[Parsed] = ParserProcess(
            self.queue, parse, prelude=prelude, epilogue=epilogue if after is not None else None
        )
        self._taken: tuple[RepoMap | None, StartedParse | None] | None = None

    def taken(self) -> tuple[RepoMap | None, StartedParse | None]:
        """The process's map (None: it could not map) and the parse this process finishes (None: this
        process parses it all); waits for the map the first time."""
        if self._taken is None:
            found = self.process.first()
            if isinstance(found, tuple):
                repo_map, count, chunks, places = found
                shared = SharedBytes(self.shared, places)
                self._taken = (repo_map, self._started(repo_map, count, chunks, shared))
            else:
                self._taken = (None, None)
            if self._taken[1] is None:
                self.cancel()
        return self._taken

    def _started(
        self, repo_map: RepoMap, count: int, chunks: list[list[Job]], shared: SharedBytes
    ) -> StartedParse | None:
        if count <= 1:
            return None
        selected = [e.path for e in repo_map.files if e.language in SUPPORTED]
        started = StartedParse(self.root, selected, chunks, self.queue, self.max_bytes, shared, self.redactor)
        started.processes.append(self.process)
        if count > 2 and _may_fork():  # more cores: more processes, parsing from the shared bytes too
            try:
                started.fork(count - 2)
            except OSError:
                pass  # the one process and this one parse it
        return started

    @property
    def processes(self) -> list[ParserProcess[Parsed]]:
        """Every process forked for this parse."""
        started = self._taken[1] if self._taken is not None else None
        return started.processes if started is not None else [self.process]

    def cancel(self) -> None:
        """Stop every process still at work and reap them all (idempotent)."""
        for process in self.processes:
            process.stop()
        self.queue.close()
        if self.shared >= 0:
            os.close(self.shared)
            self.shared = -1


def _parse_unstarted(
    queue: ChunkQueue, chunks: Sequence[list[Job]], parse: Callable[[list[Job]], Parsed]
) -> Iterator[tuple[int, Parsed]]:
    """The chunks no parser process has taken, each parsed here as it is taken, from the last one back
    (the processes go forwards, so all finish together)."""
    while (index := queue.take_back()) is not None:
        yield index, parse(chunks[index])


def _balanced_chunks(entries: Sequence[FileEntry], count: int) -> list[list[Job]]:
    """Largest files first, each to the lightest chunk so far, the first of equals (greedy bin packing by
    size; a heap of (load, chunk) finds it, on the way to the fork)."""
    chunks: list[list[Job]] = [[] for _ in range(max(1, count))]
    lightest = [(0, index) for index in range(len(chunks))]  # a heap already: all equal, in order
    for entry in sorted(entries, key=lambda e: (-e.size, e.path)):
        load, index = lightest[0]
        chunks[index].append(_job(entry))
        heapq.heapreplace(lightest, (load + entry.size + 1, index))
    return [chunk for chunk in chunks if chunk]


def parse_chunk(
    root: str,
    jobs: Sequence[Job],
    max_bytes: int,
    contents: Mapping[str, bytes] | None = None,
    redactor: Redactor | None = None,
    shown: Shown | None = None,
) -> Parsed:
    """Outline `jobs`, with symbols for the source modules (runs in a worker process, or in this one).
    Given a `redactor`: docstrings and module docs redacted, and the imports shown as a reader writes them,
    redacted (`shown` keeps the strings already shown by this process)."""
    base = Path(root)
    held = contents or {}
    shown = {} if shown is None else shown
    found: Parsed = []
    read: list[tuple[str, Extracted]] = []
    for path, language, full in jobs:
        extracted = _read(base, path, language, max_bytes, survey if full else outline, held.get(path))
        if extracted is not None and redactor is not None:
            extracted = redact_extracted(extracted, redactor)
            read.append((language, extracted))
        found.append((path, extracted))
    if redactor is not None:
        show_imports(read, redactor, shown)
    return found


def parse_symbols(root: Path, path: str, language: str, max_bytes: int) -> list[Symbol] | None:
    """Only the symbols of one file (what the outline left for later), None when unreadable or unparsable."""
    return _read(root, path, language, max_bytes, symbols_of)


def _read(
    root: Path,
    path: str,
    language: str,
    max_bytes: int,
    reader: Callable[[str, str], T],
    data: bytes | None = None,
) -> T | None:
    try:
        if data is not None and len(data) <= max_bytes:
            text = decode_text(data)  # read by the map with read_source's checks
        else:
            text = read_source(root, path, max_bytes=max_bytes)
        with warnings.catch_warnings():  # invalid escapes in old code warn at parse time
            warnings.simplefilter("ignore")
            return reader(_parser_language(path, language, text), text)
    except (DeepkbError, SyntaxError, ValueError, RecursionError, MemoryError, UnicodeError):
        return None


_CPP_HEADER = re.compile(r"^\s*(?:class|namespace|template\s*<)\b|^\s*(?:public|private):", re.MULTILINE)


def _parser_language(path: str, language: str, text: str) -> str:
    # `.h` is shared by C and C++; a header with classes or namespaces is C++
    if language == "c" and path.endswith(".h") and _CPP_HEADER.search(text):
        return "cpp"
    return language
