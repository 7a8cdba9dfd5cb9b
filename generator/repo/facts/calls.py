"""The static call graph, read on demand: which repository symbol calls which, with the line of each call,
and the main paths from a repository's public entry points through the code they reach.

Reading calls needs a syntax tree per file (several times the cost of the facts' first pass), so a file's
calls are read the first time something asks for them: the pages ask for the files they show, and a
path from an entry point reads the files it passes through. Python is read with `ast` (pycalls.py);
Go and JavaScript/TypeScript with tree-sitter (tscalls.py).
"""

from __future__ import annotations

import ast
import threading
import warnings
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from generator.errors import DeepkbError
from generator.repo.facts.imports import ImportIndex
from generator.repo.facts.pycalls import PythonCalls
from generator.repo.facts.pyfunction import function_edges
from generator.repo.facts.tscalls import TreeSitterCalls
from generator.repo.map.walk import read_source
from generator.repo.model import CallEdge, FileFacts, Symbol

MAX_CALLERS = 40  # files read for the calls into a set of files
CALLS_MAX_BYTES = 400_000  # larger files (generated tables, vast test modules) are not read for calls
RECENT_FILES = 16  # files whose lines are kept while a path search reads their functions one by one


class CallGraph:
    """Calls between the repository's symbols (see model.CallGraphView), read file by file on first use."""

    def __init__(self, root: Path, files: dict[str, FileFacts], index: ImportIndex, max_bytes: int) -> None:
        self.root, self.files, self.index, self.max_bytes = root, files, index, max_bytes
        self._edges: dict[str, list[CallEdge]] = {}
        self._into: dict[
            str, Counter[str]
        ] = {}  # callee file → calls into each of its symbols from elsewhere
        # a syntax tree is many times its file's size: each is dropped once its file's calls are read
        self._python = PythonCalls(self._resolve, self._symbols, self._names_from, self._parse, self._imports)
        self._functions: dict[tuple[str, str], list[CallEdge]] = {}  # calls of single functions read
        # lines and symbols of the files single functions were read from
        self._recent: dict[str, tuple[list[str], dict[str, Symbol]] | None] = {}
        self._recent_lock = threading.Lock()
        self.node_weights: dict[tuple[str, str], float] = {}  # what reaching each symbol weighs (flows.py)
        self._ahead: dict[str, list[CallEdge]] = {}  # whole files read by another process (take_ahead)
        self._other = TreeSitterCalls(self._read, self._symbols, files, index.resolve)

    def edges(self, paths: Iterable[str] | None = None, *, incoming: bool = False) -> list[CallEdge]:
        """Calls made from `paths` (every source file when None: costly, a syntax tree per file); `incoming`:
        calls made to them, from the files that import them or share their package — the MAX_CALLERS most
        important of those, so a module imported everywhere does not read the whole repository."""
        wanted = list(self.files) if paths is None else [p for p in paths if p in self.files]
        if not incoming:
            return [edge for path in wanted for edge in self.read(path)]
        targets = set(wanted)
        callers = {c for p in wanted for c in self._possible_callers(p)}
        ranked = sorted(callers, key=lambda c: (-self.files[c].importance, c))[:MAX_CALLERS]
        return [e for path in sorted(ranked) for e in self.read(path) if e.callee_path in targets]

    @property
    def files_read(self) -> int:
        """How many files' calls have been read so far."""
        return len(self._edges)

    @property
    def functions_read(self) -> int:
        """How many single functions' calls have been read so far (a path search passing a large module)."""
        return len(self._functions)

    def read_paths(self) -> list[str]:
        """The files whose calls have been read whole so far, in the order read."""
        return list(self._edges)

    def take_ahead(self, found: dict[str, list[CallEdge]]) -> None:
        """Calls of whole files read by another process (generator/repo/synthesize/ahead.py): `read` takes
        each at the moment it would have read that file itself, so the calls read "so far" stay the same."""
        self._ahead.update(found)

    def known_edges(self) -> list[CallEdge]:
        """The calls read so far, without reading any file."""
        return [edge for edges in self._edges.values() for edge in edges]

    def read(self, path: str) -> list[CallEdge]:
        """The calls made by one file (cached)."""
        if path not in self._edges:
            fact = self.files.get(path)
            language = fact.language if fact else ""
            if path in self._ahead:
                self._edges[path] = self._ahead.pop(path)
            elif language == "python":
                self._edges[path] = self._python.edges(path)
            else:
                self._edges[path] = self._other.edges(path, language)
            for edge in self._edges[path]:
                if edge.callee_path != path:
                    into = self._into.get(edge.callee_path)
                    if into is None:
                        into = self._into[edge.callee_path] = Counter()
                    into[edge.callee] += 1
        return self._edges[path]

    def calls_of(self, path: str, callers: set[str]) -> list[CallEdge]:
        """The calls some symbols of `path` make. From the file's edges when it has been read; for a Python
        file not read yet, from those functions' own lines (a path search passes a few functions of large
        modules); the whole file when a function's lines do not parse alone."""
        fact = self.files.get(path)
        if path in self._edges or fact is None or fact.language != "python":
            return [e for e in self.read(path) if e.caller in callers]
        found: list[CallEdge] = []
        for caller in sorted(callers):
            if (path, caller) not in self._functions:
                source = self._source(path, fact)
                edges = function_edges(self._python, path, *source, caller) if source is not None else []
                if edges is None:
                    return [e for e in self.read(path) if e.caller in callers]
                self._functions[(path, caller)] = edges
            found.extend(self._functions[(path, caller)])
        return found

    def _source(self, path: str, fact: FileFacts) -> tuple[list[str], dict[str, Symbol]] | None:
        """A Python file's lines and its symbols by name (a name given twice: its last definition), for
        reading single functions; kept for the few files a path search is passing through (it asks for
        one function at a time), then dropped."""
        with self._recent_lock:  # drafts may be written on several threads
            if path not in self._recent:
                text = self._read(path, CALLS_MAX_BYTES)
                lines = text.splitlines() if text is not None else None
                named = {s.name: s for s in fact.symbols} if lines else {}
                self._recent[path] = (lines, named) if lines is not None else None
                if len(self._recent) > RECENT_FILES:
                    del self._recent[next(iter(self._recent))]  # the oldest
            return self._recent[path]

    def calls_into(self, path: str) -> Counter[str]:
        """Calls from other files into each symbol of `path`, among the files read so far (reads none)."""
        return self._into.get(path, Counter())

    def chains(
        self, paths: Iterable[str] | None = None, *, limit: int = 5, stop: Callable[[], bool] | None = None
    ) -> list[list[CallEdge]]:
        """flows.main_paths through this graph (`stop`: SearchStopped when it says to give up)."""
        from generator.repo.facts.flows import main_paths

        return main_paths(self, self.files, paths, limit=limit, stop=stop)

    # --- what the language readers need ------------------------------------------------------------

    def _possible_callers(self, path: str) -> list[str]:
        folder = path.rpartition("/")[0]
        same_package = [p for p in self.files if p.rpartition("/")[0] == folder and p != path]
        importers = [p for p, f in self.files.items() if path in f.depends_on]
        return [*importers, *(p for p in same_package if self.files[p].language == self.files[path].language)]

    def _resolve(self, source: str, raw: str) -> list[str]:
        return self.index.resolve(source, "python", raw)

    def _imports(self, path: str) -> list[str]:
        fact = self.files.get(path)
        return fact.imports if fact is not None else []

    def _names_from(self, path: str) -> dict[str, list[str]]:
        fact = self.files.get(path)
        return fact.names_from if fact is not None else {}

    def _symbols(self, path: str) -> list[Symbol]:
        fact = self.files.get(path)
        return fact.symbols if fact is not None else []

    def _read(self, path: str, limit: int | None = None) -> str | None:
        try:
            return read_source(self.root, path, max_bytes=min(self.max_bytes, limit or self.max_bytes))
        except DeepkbError:
            return None

    def _parse(self, path: str) -> ast.Module | None:
        text = self._read(path, CALLS_MAX_BYTES)
        if text is None:
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return ast.parse(text.removeprefix("\ufeff"))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
