"""Parse every source file of a map, on all cores for large repositories (parsing is the facts stage's cost).

The pass over every file is the languages' `outline` (for Python: no symbols); `parse_symbols` reads one
file's symbols when they are wanted. Each file is read through `read_source` and parsed on its own: a
file that cannot be read or parsed yields None and never stops the others. Workers are forked where the
platform allows it (a spawned worker would spend longer importing the parsers than parsing); children
only parse and return plain data, so the parent's other threads (a progress display) hold nothing they
need.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TypeVar

from generator.errors import DeepkbError
from generator.redact import Redactor
from generator.repo.facts.extracted import Extracted
from generator.repo.facts.languages import SUPPORTED, SYMBOLS_ON_DEMAND, outline, survey, symbols_of
from generator.repo.facts.redaction import redact_extracted
from generator.repo.map.filetypes import is_context_file
from generator.repo.map.walk import decode_text, read_source
from generator.repo.model import FileEntry, Symbol

PARALLEL_MIN_BYTES = 3_000_000  # below this, starting worker processes costs more than it saves
OUTLINE_WEIGHT = 0.5  # Python bytes count half towards that (2 workers: 0.40 s → 0.26 s on 14 MB)
MAX_WORKERS = 4
CHUNKS_PER_WORKER = 4  # several chunks per worker even out large and small files

Job = tuple[str, str, bool]  # (path, language, whether its symbols are read now even if on demand)
T = TypeVar("T")


def parse_sources(
    root: Path,
    entries: Iterable[FileEntry],
    *,
    max_file_bytes: int,
    workers: int | None = None,
    contents: Mapping[str, bytes] | None = None,
    redactor: Redactor | None = None,
) -> dict[str, Extracted | None]:
    """path → the outline of each file in a supported language (None when unreadable or unparsable).

    `contents`: bytes the map already read, parsed instead of reading those files again. `redactor`: each
    file's docstrings and module doc come back redacted by it.
    """
    selected = [e for e in entries if e.language in SUPPORTED]
    jobs: list[Job] = [(e.path, e.language, not is_context_file(e.path)) for e in selected]
    # outlining Python needs no syntax tree: its bytes count for less when deciding whether workers pay
    work = sum(e.size * (OUTLINE_WEIGHT if _outlined(e) else 1.0) for e in selected)
    count = _worker_count(round(work)) if workers is None else workers
    if count > 1 and len(jobs) > 1 and "fork" in multiprocessing.get_all_start_methods():
        try:
            return _parse_in_workers(root, selected, max_file_bytes, count, contents, redactor)
        except (OSError, BrokenProcessPool):
            pass  # no process support here (sandbox, /dev/shm missing): parse in this process
    return dict(parse_chunk(str(root), jobs, max_file_bytes, contents, redactor))


def _outlined(entry: FileEntry) -> bool:
    """Read without its symbols in the first pass: a test, example or doc script in an on-demand language."""
    return entry.language in SYMBOLS_ON_DEMAND and is_context_file(entry.path)


def _worker_count(total_bytes: int) -> int:
    if total_bytes < PARALLEL_MIN_BYTES:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    try:  # only cores nobody else is using help; on a busy machine extra processes only add overhead
        idle = cpus - os.getloadavg()[0]
    except OSError:
        idle = float(cpus)
    return max(1, min(cpus, MAX_WORKERS, round(idle)))


def _parse_in_workers(
    root: Path,
    entries: Sequence[FileEntry],
    max_bytes: int,
    workers: int,
    contents: Mapping[str, bytes] | None = None,
    redactor: Redactor | None = None,
) -> dict[str, Extracted | None]:
    chunks = _balanced_chunks(entries, workers * CHUNKS_PER_WORKER)
    if redactor is not None:
        redactor.redact("")  # load the rule set once, before forking, rather than once per worker
    # sending held bytes down the pipe costs less than each worker reading the files again
    contents = contents or {}
    held = [{path: contents[path] for path, _, _ in chunk if path in contents} for chunk in chunks]
    context = multiprocessing.get_context("fork")
    results: dict[str, Extracted | None] = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for chunk_result in pool.map(
            parse_chunk,
            [str(root)] * len(chunks),
            chunks,
            [max_bytes] * len(chunks),
            held,
            [redactor] * len(chunks),
        ):
            results.update(chunk_result)
    return {e.path: results.get(e.path) for e in entries}  # the map's order, whatever the workers did


def _balanced_chunks(entries: Sequence[FileEntry], count: int) -> list[list[Job]]:
    """Largest files first, each to the lightest chunk so far (greedy bin packing by size)."""
    chunks: list[list[Job]] = [[] for _ in range(max(1, count))]
    loads = [0] * len(chunks)
    for entry in sorted(entries, key=lambda e: (-e.size, e.path)):
        lightest = loads.index(min(loads))
        chunks[lightest].append((entry.path, entry.language, not is_context_file(entry.path)))
        loads[lightest] += entry.size + 1
    return [chunk for chunk in chunks if chunk]


def parse_chunk(
    root: str,
    jobs: Sequence[Job],
    max_bytes: int,
    contents: Mapping[str, bytes] | None = None,
    redactor: Redactor | None = None,
) -> list[tuple[str, Extracted | None]]:
    """Outline `jobs`, with symbols for the source modules (runs in a worker process, or in this one);
    docstrings and module docs redacted when given a `redactor`."""
    base = Path(root)
    held = contents or {}
    found = []
    for path, language, full in jobs:
        extracted = _read(base, path, language, max_bytes, survey if full else outline, held.get(path))
        if extracted is not None and redactor is not None:
            extracted = redact_extracted(extracted, redactor)
        found.append((path, extracted))
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
