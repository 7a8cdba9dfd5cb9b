"""Forked parser processes: numbered chunks of work claimed from both ends of a shared queue, and a process
that works through the chunks it claims and keeps each chunk's result in a file of its own.

Plain `os.fork` and files rather than a process pool: a pool's imports, queues and helper threads cost the
parent tens of milliseconds before and after the fork, on the path of every large run. Here the parent pays
for a shared file, and a file, a pipe and a fork per process, and nothing of theirs runs in it while they
work.

- The queue is two counters in a shared file: the front (the next chunk a parser process takes) and the back
  (one past the last chunk no process has taken). Taking one is a read and a write of those counters under
  a POSIX record lock on that file (`os.lockf`): the kernel drops the lock of a process that dies holding
  it, so no process waits on a dead one.
- A parser process appends each chunk's result (a length, then its pickle) to its own file and never waits
  for the parent, however long the parent is busy elsewhere (a pipe would hold 64 KB of results, then stop
  it); a byte on a pipe tells the parent each time a record is whole. The parent takes those whenever it is
  free (`written`), and the rest once the process has ended (`results`); a chunk the process took but did
  not finish (it was killed, or failed) is missing from them.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, NoReturn, TypeVar

R = TypeVar("R")
_COUNTERS = struct.Struct("=qq")  # front, back
_LENGTH = struct.Struct("=Q")  # before each record's pickle
_PRELUDE = -1  # the record of a prelude's result
_EPILOGUE = -2  # the record of an epilogue's result
_PIECES = 512  # byte strings handed to one writev (the system takes up to IOV_MAX, 1024 on Linux)


class ChunkQueue:
    """Chunks 0..count-1, taken from the front by the parser processes and from the back by the parent."""

    def __init__(self, count: int) -> None:
        self._file = anonymous_file("deepkb-chunks")
        os.pwrite(self._file, _COUNTERS.pack(0, count), 0)

    def reset(self, count: int) -> None:
        """Chunks 0..count-1, none taken yet (a process that learns the count after the fork sets it)."""
        os.lockf(self._file, os.F_LOCK, 0)
        try:
            os.pwrite(self._file, _COUNTERS.pack(0, count), 0)
        finally:
            os.lockf(self._file, os.F_ULOCK, 0)

    def take_front(self) -> int | None:
        return self._take(front=True)

    def take_back(self) -> int | None:
        return self._take(front=False)

    def _take(self, *, front: bool) -> int | None:
        """The chunk taken, or None when every chunk has been taken (by anyone)."""
        os.lockf(self._file, os.F_LOCK, 0)  # a record lock: per process, dropped by the kernel at its death
        try:
            first, end = _COUNTERS.unpack(os.pread(self._file, _COUNTERS.size, 0))
            if first >= end:
                return None
            taken = first if front else end - 1
            counters = (first + 1, end) if front else (first, end - 1)
            os.pwrite(self._file, _COUNTERS.pack(*counters), 0)
            return int(taken)
        finally:
            os.lockf(self._file, os.F_ULOCK, 0)

    def close(self) -> None:
        """Drop the shared file (idempotent)."""
        if self._file >= 0:
            os.close(self._file)
            self._file = -1


class ParserProcess(Generic[R]):
    """A forked process taking chunks from the front of a queue until none is left, each one's result
    kept in its file: `written` takes those written so far, `results` the rest once the process has ended.

    Given a `prelude`, the process first runs it and keeps what it returns as its first record (`first`
    waits for it): the work that decides the chunks (mapping the folder) done there, not before the fork.
    Given an `epilogue`, it runs that once no chunk is left and keeps what it returns as its last record
    (`last` waits for it): work the parent would otherwise do after the parse, done while it does the rest."""

    def __init__(
        self,
        queue: ChunkQueue,
        work: Callable[[int], R],
        prelude: Callable[[], object] | None = None,
        epilogue: Callable[[], object] | None = None,
    ) -> None:
        self._file = anonymous_file("deepkb-parsed")
        self._notices, notify = os.pipe()  # a byte per record written whole
        try:
            pid = os.fork()
        except OSError:
            for end in (self._file, self._notices, notify):
                os.close(end)
            raise
        if pid == 0:
            _work_through(queue, work, self._file, notify, prelude, epilogue)  # never returns
        os.close(notify)
        os.set_blocking(self._notices, False)
        self.pid = pid
        self.reaped = False
        self._taken = 0  # bytes of its file read so far
        self._prelude: object = None  # what the prelude returned, once read
        self.has_epilogue = epilogue is not None
        self._epilogue: object = None  # what the epilogue returned, once read
        self.ended = False  # its notices closed: it has left (reaped or not)

    def first(self) -> object:
        """What the prelude returned (None when it failed, or the process ended without saying): waits until
        the process has written it, and takes no other record."""
        while self._file >= 0:
            try:
                notice = os.read(self._notices, 1)
            except BlockingIOError:
                select.select([self._notices], [], [])
                continue
            if notice:
                self._read(1)
            break
        return self._prelude

    @property
    def notices(self) -> int:
        """What to wait on (select) for its next record or its end."""
        return self._notices

    def written(self) -> dict[int, R]:
        """Chunk → result, for the chunks whose record the process has written whole (and said so) since
        the last call; never waits. Its end is noted (`ended`) when its notices close."""
        notices = 0
        try:
            while notice := os.read(self._notices, 4096):
                notices += len(notice)
            self.ended = True  # end of the notices: the process has left
        except BlockingIOError:
            pass  # none left for now
        return self._read(notices)

    def last(self) -> object:
        """What the epilogue returned (None when it failed, or the process ended without saying): waits for
        it, collecting (and dropping) any chunk record still unread, then reaps the process."""
        while self._file >= 0 and self._epilogue is None and not self.ended:
            select.select([self._notices], [], [])
            self.written()
        if self._file >= 0:
            self.results()
        return self._epilogue

    def results(self) -> dict[int, R]:
        """Chunk → result, for every chunk the process finished and `written` did not hand over yet, once
        it has ended (however it ended: a record it did not write whole is a chunk missing)."""
        if not self.reaped:
            os.waitpid(self.pid, 0)
            self.reaped = True
        return self._read(None)

    def _read(self, records: int | None) -> dict[int, R]:
        """The next `records` records of the file (None: every one written whole, once the process has
        ended): each a length, then a pickle written by our own forked process, never outside data."""
        data = memoryview(os.pread(self._file, os.fstat(self._file).st_size - self._taken, self._taken))
        found: dict[int, R] = {}
        start, count = 0, 0
        while (records is None or count < records) and start + _LENGTH.size <= len(data):
            (size,) = _LENGTH.unpack_from(data, start)
            end = start + _LENGTH.size + size
            if end > len(data):
                break  # cut short: the process ended while writing it
            index, result = pickle.loads(data[start + _LENGTH.size : end])
            if index == _PRELUDE:
                self._prelude = result
            elif index == _EPILOGUE:
                self._epilogue = result
            else:
                found[index] = result
            start, count = end, count + 1
        self._taken += start
        return found

    def stop(self) -> None:
        """Kill the process if it has not been reaped yet, reap it, and drop its file (idempotent)."""
        if not self.reaped:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # it had ended
            os.waitpid(self.pid, 0)
            self.reaped = True
        if self._file >= 0:
            os.close(self._file)
            os.close(self._notices)
            self._file = -1


class SharedBytes(Mapping[str, bytes]):
    """Files' bytes a forked process read and wrote one after another into a shared anonymous file
    (`share_bytes`), each read here by its place in it: this process parses files the other one mapped
    without reading them from the repository again."""

    def __init__(self, file: int, places: dict[str, tuple[int, int]]) -> None:
        self._file, self._places = file, places

    def __getitem__(self, path: str) -> bytes:
        start, size = self._places[path]
        return os.pread(self._file, size, start)

    def __iter__(self) -> Iterator[str]:
        return iter(self._places)

    def __len__(self) -> int:
        return len(self._places)


def share_bytes(file: int, contents: Mapping[str, bytes]) -> dict[str, tuple[int, int]]:
    """Write `contents` into `file` (in the forked process): each path's (start, size) there."""
    places: dict[str, tuple[int, int]] = {}
    start = 0
    for path, data in contents.items():
        places[path] = (start, len(data))
        start += len(data)
    pieces = [data for data in contents.values() if data]
    for first in range(0, len(pieces), _PIECES):  # written as they are, not joined into one copy first
        batch = pieces[first : first + _PIECES]
        written = os.writev(file, batch)
        if written < sum(map(len, batch)):  # a short write: the rest of that batch, the plain way
            _write_all(file, b"".join(batch)[written:])
    return places


def _work_through(
    queue: ChunkQueue,
    work: Callable[[int], R],
    results: int,
    notify: int,
    prelude: Callable[[], object] | None,
    epilogue: Callable[[], object] | None,
) -> NoReturn:
    """The forked process: the prelude's result first, when there is one (None if it failed: the parent
    does that work again and reports what went wrong), then each chunk taken from the front, its result
    appended to `results` and a byte to `notify` (the parent reads a record only once told it is whole: a
    file's size says nothing of a write still under way); then it leaves with `os._exit`, so that nothing of
    the parent's (exit handlers, `finally` blocks, buffered output) runs or is flushed twice. The notices
    (one byte a record) never fill the pipe, so it never waits for the parent."""
    code = 1
    try:
        if prelude is not None:
            try:
                before = prelude()
            except Exception:
                before = None
            _record(results, notify, _PRELUDE, before)
            if before is None:
                os._exit(1)
        while (index := queue.take_front()) is not None:
            _record(results, notify, index, work(index))
        if epilogue is not None:
            try:
                after = epilogue()
            except Exception:
                after = None  # the parent does that work itself
            _record(results, notify, _EPILOGUE, after)
        code = 0
    finally:
        os._exit(code)


def _record(results: int, notify: int, index: int, value: object) -> None:
    body = pickle.dumps((index, value), protocol=pickle.HIGHEST_PROTOCOL)
    _write_all(results, _LENGTH.pack(len(body)) + body)
    os.write(notify, b"+")


def _write_all(file: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(file, view) :]


def anonymous_file(name: str) -> int:
    """A read-write file with no name, gone when its last descriptor is closed (in memory on Linux); forked
    processes share it, and a command the parent runs later does not inherit it."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create(name, os.MFD_CLOEXEC)
    import tempfile

    file, path = tempfile.mkstemp(prefix=name)
    os.unlink(path)
    return file


def other_threads() -> bool:
    """Whether threads besides this one run: a fork copies only this one, and a lock another holds (a
    progress display's, the logger's) would stay held forever in the copy."""
    threading = sys.modules.get("threading")  # not imported: no thread was started through it
    return threading is not None and threading.active_count() > 1
