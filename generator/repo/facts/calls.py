"""The static call graph, read whole in the facts stage: which repository symbol calls which, with the line
of each call, for every source module (tests, examples and docs scripts are context, not read for calls).

Each file's calls are resolved from its own syntax tree and the facts alone (other modules are seen as the
facts know them, pycalls.py's light scope), so a file's edges never depend on which file was read before
it: every ranking and flow the pages draw counts the same, complete graph. Python is read with `ast`
(pycalls.py); Go and JavaScript/TypeScript with tree-sitter (tscalls.py).
"""

from __future__ import annotations

import ast
import posixpath
import re
import warnings
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from generator.repo.facts.callbacks import callback_calls
from generator.repo.facts.calltree import call_tree, heaviest_entry
from generator.repo.facts.channels import channel_calls
from generator.repo.facts.commands import cli_commands, is_library, namesakes, native_mains
from generator.repo.facts.crates import NO_WORKSPACE
from generator.repo.facts.declared import PyModule
from generator.repo.facts.deprecation import deprecated_by_body, deprecated_by_doc
from generator.repo.facts.dispatch import Families, dispatch_calls
from generator.repo.facts.flows import Node, entry_points, then_entry
from generator.repo.facts.forked import map_files
from generator.repo.facts.heldcalls import held_calls, kept_method_calls
from generator.repo.facts.imports import ImportIndex
from generator.repo.facts.languages import TREE_SITTER_LANGUAGES
from generator.repo.facts.native import PUBLIC_HEADERS, declared_names, family
from generator.repo.facts.prefixcalls import prefix_calls
from generator.repo.facts.pycalls import PythonCalls, class_attributes
from generator.repo.facts.pydeclarations import candidate_spans, read_module, record_bases
from generator.repo.facts.pytypes import NO_TYPES, DeclaredTypes, declared_types
from generator.repo.facts.registries import registry_calls
from generator.repo.facts.runtime import RunTime
from generator.repo.facts.tscalls import TreeSitterCalls
from generator.repo.map.filetypes import is_context_file
from generator.repo.map.walk import read_or_none
from generator.repo.model import CallEdge, CallTree, FileFacts, Symbol

MAX_CALLERS = 40  # files whose calls into a set of files are shown (the most important ones)
CALLS_MAX_BYTES = 400_000  # larger files (generated tables, vast test modules) are not read for calls
ENTRIES = 8  # entry points tried, best first, for a main flow that leads somewhere
CODE_LANGUAGES = TREE_SITTER_LANGUAGES | {"python"}
# a Go package for the users' tests (`fxtest`, `httptest`): it wraps the library's API
_TEST_HELPER_PACKAGE = re.compile(r"(?:^|/)[a-z]+test/[^/]+\.go$")


def _same_folder(path: str, other: str) -> bool:
    return posixpath.dirname(path) == posixpath.dirname(other)


class CallGraph:
    """Every source module's calls (see model.CallGraphView), read once. The calls a test or an example
    makes into the code are read only when asked for (`edges(incoming=True)`, a request's answer): they
    count towards no ranking."""

    def __init__(
        self,
        reader: _CallReader,
        edges: dict[str, list[CallEdge]],
        commands: list[Node] | None = None,
        dispatched: dict[str, list[CallEdge]] | None = None,
        declarations: dict[str, PyModule] | None = None,
        named: list[Node] | None = None,
    ) -> None:
        self.files = reader.files
        # what each Python source module declares for its users, read with its calls (pydeclarations.py)
        self.declarations = declarations or {}
        self._reader = reader
        self._edges = edges
        # calls of an interface or abstract method into its implementations (dispatch.py): the tree's only
        self._dispatched = dispatched or {}
        self._context: dict[str, list[CallEdge]] = {}  # context files' calls, read for `incoming`
        # callee file → calls into each of its symbols from elsewhere
        self._into: dict[str, Counter[str]] = {}
        self._into_by_users: dict[str, Counter[str]] = {}  # … leaving out a test-helper package's calls
        self._callers: dict[Node, set[Node]] = {}  # each function's distinct callers (`fan_in`)
        for path_edges in edges.values():
            for edge in path_edges:
                self._callers.setdefault((edge.callee_path, edge.callee), set()).add(
                    (edge.caller_path, edge.caller)
                )
                if edge.callee_path != edge.caller_path:
                    self._into.setdefault(edge.callee_path, Counter())[edge.callee] += 1
                    if not _TEST_HELPER_PACKAGE.search(edge.caller_path) or _same_folder(
                        edge.caller_path, edge.callee_path
                    ):
                        self._into_by_users.setdefault(edge.callee_path, Counter())[edge.callee] += 1
        self.reaches: dict[Node, float] = {}  # the code each entry point leads to (flows.py)
        self.examples: dict[str, float] = {}  # what the usage examples call, how prominently (examples.py)
        self.entered: dict[str, float] = {}  # what they enter with `with`, by the making call (examples.py)
        self.deferred: dict[str, float] = {}  # what they defer (`defer db.Close()`): teardown (examples.py)
        self.qualified: dict[
            str, float
        ] = {}  # what they call through a lower-case name: `fx.New` (examples.py)
        self.workspace = NO_WORKSPACE  # a Rust workspace's crates a user works with (crates.py)
        self.entry_points: list[Node] = []  # a maintainer's entry points (deepkb.yml): flows start there
        # a command-line tool's commands (commands.py): its main flow starts at the heaviest of them
        self.commands: list[Node] = commands or []
        # the commands of the tool the project is named after (commands.namesakes): its flow starts there
        self.named: list[Node] = named or []
        self._lines: dict[str, list[str]] = {}
        # what each function stores, reads and spawns (runtime.py): set-up told from the call made at run time
        self.runtime = RunTime(self.files, reader.read, lambda node: self.calls_of(node[0], {node[1]}))

    def declared(self) -> frozenset[str] | None:
        """What a C/C++ library's public headers (`include/`) declare; None without such headers."""
        return self._public_headers

    @cached_property
    def _public_headers(self) -> frozenset[str] | None:
        headers = [
            path
            for path, fact in self.files.items()
            if path.startswith(PUBLIC_HEADERS) and family(fact.language) == "c"
        ]
        return declared_names(self._reader.read(path) or "" for path in headers) if headers else None

    def deprecated(self, node: Node) -> bool:
        """Whether the symbol is deprecated, by its doc comment or its own body's warning (deprecation.py);
        asked of the few symbols a flow may start at."""
        path, name = node
        fact = self.files.get(path)
        symbol = next((s for s in fact.symbols if s.name == name), None) if fact is not None else None
        if symbol is None:
            return False
        if deprecated_by_doc(symbol.doc_source):
            return True
        lines = self.lines(path)
        above = lines[max(0, symbol.start - 4) : symbol.start - 1]
        return deprecated_by_body(
            lines[symbol.start - 1 : symbol.end], [*above, *lines[symbol.start - 1 : symbol.start + 1]]
        )

    def fan_in(self, node: Node) -> tuple[int, int]:
        """How many functions of the source modules call `node`, and from how many files besides its own."""
        callers = self._callers.get(node, set())
        return len(callers), len({path for path, _ in callers} - {node[0]})

    def lines(self, path: str) -> list[str]:
        """The file's lines (none when it cannot be read), read once."""
        if path not in self._lines:
            self._lines[path] = (self._reader.read(path) or "").splitlines()
        return self._lines[path]

    def edges(self, paths: Iterable[str] | None = None, *, incoming: bool = False) -> list[CallEdge]:
        """Calls made from `paths` (every source module when None); `incoming`: calls made to them from the
        files that import them or share their package, the MAX_CALLERS most important of those."""
        wanted = list(self._edges) if paths is None else [p for p in paths if p in self.files]
        if not incoming:
            return [edge for path in wanted for edge in self._edges.get(path, ())]
        targets = set(wanted)
        callers = {c for p in wanted for c in self._possible_callers(p)}
        ranked = sorted(callers, key=lambda c: (-self.files[c].importance, c))[:MAX_CALLERS]
        return [e for path in sorted(ranked) for e in self._calls_made(path) if e.callee_path in targets]

    def _calls_made(self, path: str) -> list[CallEdge]:
        if path in self._edges:
            return self._edges[path]
        if path not in self._context:
            self._context[path] = self._reader.edges(path)
        return self._context[path]

    def calls_of(self, path: str, callers: set[str], *, dispatched: bool = False) -> list[CallEdge]:
        """The calls some symbols of `path` make; `dispatched`: with those into the implementations of an
        interface or abstract method they call (what a call tree follows)."""
        found = [e for e in self._edges.get(path, ()) if e.caller in callers]
        if dispatched:
            found += [e for e in self._dispatched.get(path, ()) if e.caller in callers]
        return found

    def results(self, path: str) -> dict[str, str]:
        """The type each Go function of `path` returns first, by its name ({} for other languages)."""
        fact = self.files.get(path)
        return self._reader.go_results(path) if fact is not None and fact.language == "go" else {}

    def embedded(self, path: str, type_name: str) -> list[str]:
        """The types of its package a Go struct of `path`'s package embeds, whose methods it promotes, and
        the types those embed ([] for other languages)."""
        fact = self.files.get(path)
        if fact is None or fact.language != "go" or not type_name:
            return []
        folder = posixpath.dirname(path)
        found = self._reader.go_embedded(folder, type_name)
        return list(dict.fromkeys([*found, *(t for e in found for t in self._reader.go_embedded(folder, e))]))

    def calls_into(self, path: str, *, helpers: bool = True) -> Counter[str]:
        """Calls from other files into each symbol of `path`; without `helpers`, not those of a Go package
        for the users' tests (`fxtest`, `httptest`), which wraps the whole API it tests."""
        return (self._into if helpers else self._into_by_users).get(path, Counter())

    def tree(self, paths: Iterable[str] | None = None) -> list[CallTree]:
        """calltree.call_tree from a maintainer's entry point of `paths`, else from the command of a
        command-line tool named after the project (`named`), else from the one leading to the most code,
        else from the best entry point (flows.entry_points) that calls into the repository's code: the
        calls it makes, each with the calls below it."""
        paths = self._users(list(self.files if paths is None else paths))
        within = set(paths)
        chosen = [node for node in self.entry_points if node[0] in within]  # a maintainer's comes first
        commands = [node for node in self.commands if node[0] in within]
        if chosen or commands:
            # the tool named after the project when it leads to code of the repository
            named = [] if chosen else [node for node in self.named if node in commands]
            tree = (self.tree_from(named) if named else []) or self.tree_from(chosen[:1] or commands)
            if tree:
                return tree
            # commands that lead nowhere (gqlgen's `main` hands its urfave/cli commands, declared in
            # package-level values, to `app.Run`) leave the flow to the public API they run
        # the best entry point whose calls lead anywhere: one calling only into other packages has no tree
        trees = (call_tree(self, self.files, entry) for entry in self.entries(paths, limit=ENTRIES))
        return next((tree for tree in trees if tree), [])

    def tree_from(self, candidates: Iterable[Node]) -> list[CallTree]:
        """calltree.call_tree from the candidate (best first) leading to the most code: [] without one."""
        entry = heaviest_entry(self, self.files, candidates)
        return call_tree(self, self.files, entry) if entry is not None else []

    def then(self, tree: list[CallTree]) -> list[CallTree]:
        """The call tree of what the usage examples call next on what the tree's entry returns
        (flows.then_entry: fx's `App.Run` after `New`); [] when they call nothing there."""
        entry = (tree[0].edge.caller_path, tree[0].edge.caller) if tree else None
        node = then_entry(self, self.files, entry) if entry is not None else None
        return call_tree(self, self.files, node) if node is not None else []

    def entries(self, paths: Iterable[str] | None = None, *, limit: int = 8) -> list[Node]:
        """flows.entry_points of this graph: where the flows of `paths` start."""
        return entry_points(
            self, self.files, self._users(list(self.files if paths is None else paths)), limit=limit
        )

    def _users(self, paths: list[str]) -> list[str]:
        """`paths` without those of a Rust workspace's side crates (a derive-macro or demo crate), unless
        that leaves none."""
        kept = [path for path in paths if not self.workspace.on_side(path)]
        return kept or paths

    def _possible_callers(self, path: str) -> list[str]:
        folder = path.rpartition("/")[0]
        same_package = [p for p in self.files if p.rpartition("/")[0] == folder and p != path]
        importers = [p for p, f in self.files.items() if path in f.depends_on]
        return [*importers, *(p for p in same_package if self.files[p].language == self.files[path].language)]


def read_call_graph(
    root: Path,
    files: dict[str, FileFacts],
    index: ImportIndex,
    max_bytes: int,
    sizes: Mapping[str, int] | None = None,
) -> CallGraph:
    """The calls of every source module of `files`, in the map's order, and the commands of a command-line
    tool (commands.is_library: not a library). Given the files' `sizes`, a large
    repository's files are read by a pool of forked processes (forked.py; each file's calls depend on the
    facts alone, so the graph is the same)."""
    reader = _CallReader(root, files, index, max_bytes)
    paths = [path for path in files if not is_context_file(path)]
    total = sum(sizes.get(p, 0) for p in paths) if sizes is not None else 0
    read = dict(zip(paths, map_files(reader.edges_and_declared, paths, total), strict=True))
    declarations = {path: module for path, (_, module) in read.items() if module is not None}
    edges = {path: [e for e in found if not _tree_only(e)] for path, (found, _) in read.items()}
    # a call of an interface or abstract method, into its implementations, and a call of what a user plugs
    # in: kept apart, for the call trees
    dispatched = {path: [e for e in found if _tree_only(e)] for path, (found, _) in read.items()}
    for edge in registry_calls(edges, files):  # a registry's lookups call what was registered with it
        edges[edge.caller_path].append(edge)
    for edge in callback_calls(edges, files):  # a class handed over is called back by its receiver
        edges[edge.caller_path].append(edge)
    known: set[tuple[str, str, int]] = set()  # calls of what the repository itself keeps on an instance
    for edge in held_calls(edges, files, reader.read):  # a function kept on an instance is called there
        edges.setdefault(edge.caller_path, []).append(edge)
        known.add((edge.caller_path, edge.caller, edge.line))
    for edge in kept_method_calls(edges, files, reader.read):  # …and a bound method of another's object
        edges.setdefault(edge.caller_path, []).append(edge)
        known.add((edge.caller_path, edge.caller, edge.line))
    # what the repository keeps there is no user's code: such a call plugs nothing in
    for path, found in dispatched.items():
        dispatched[path] = [e for e in found if not (e.plugged and (path, e.caller, e.line) in known)]
    for edge in prefix_calls(edges, files, reader.read):  # a method looked up by a prefix and a value
        edges[edge.caller_path].append(edge)
    for edge in channel_calls(edges, files, reader.read):  # a Go channel field's sender → its receiving loop
        edges[edge.caller_path].append(edge)
    for edge in dispatch_calls(edges, files, reader.read):
        dispatched.setdefault(edge.caller_path, []).append(edge)
    # a library's commands are tools beside its public API, where its flows start; a tool's are its front door
    commands = [] if is_library(files) else cli_commands(reader.read, files) + native_mains(files)
    minor = minor_languages(files)
    commands = [node for node in commands if files[node[0]].language not in minor]
    dispatched = {p: found for p, found in dispatched.items() if found}
    named = namesakes(commands, index.go_modules)
    return CallGraph(reader, edges, commands, dispatched, declarations, named)


def _parsed_python(text: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text.removeprefix("\ufeff"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


@dataclass(frozen=True)
class _ModuleParts:
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]  # module-level, by name
    attributes: dict[str, dict[str, ast.expr]]  # class → its attributes (pycalls.class_attributes)
    types: DeclaredTypes  # its return annotations, TypeVars' bounds, context managers (pytypes.py)


def _tree_only(edge: CallEdge) -> bool:
    """A call the call trees follow and no ranking counts: into an interface's implementations, or of what a
    user plugs in (no symbol of the repository)."""
    return edge.dispatched or edge.plugged


MINOR_SHARE = 0.1  # a language with fewer of the source modules writes the repository's side tools


def minor_languages(files: Mapping[str, FileFacts]) -> set[str]:
    """The languages holding under MINOR_SHARE of the source modules: a Python graphviz script or a Go
    release script beside a Rust or C++ program is a side tool, whose command is no main flow."""
    counts = Counter(
        family(fact.language)
        for path, fact in files.items()
        if fact.language in CODE_LANGUAGES and not is_context_file(path)
    )
    total = sum(counts.values())
    return {language for language in CODE_LANGUAGES if counts[family(language)] < MINOR_SHARE * total}


class _CallReader:
    """Reads one file's calls at a time; what the language readers need of the facts and the checkout."""

    def __init__(self, root: Path, files: dict[str, FileFacts], index: ImportIndex, max_bytes: int) -> None:
        self.root, self.files, self.index, self.max_bytes = root, files, index, max_bytes
        families = Families(files)
        self._python = PythonCalls(
            self._resolve,
            self._symbols,
            self._names_from,
            self._parse,
            self._package,
            family=lambda receiver, method: families.of("python", receiver, method),
            attributes=self._class_attributes,
            function=self._function,
            types=lambda path: self._module_parts(path).types,
        )
        self._modules: dict[str, _ModuleParts] = {}  # another module's functions and class attributes
        self._folders: dict[str, list[str]] = {}  # folder → its Python modules (a package)
        self._parsed: tuple[str, ast.Module] | None = None  # the Python module whose calls are being read
        self._texts: dict[tuple[str, int], str | None] = {}  # (path, bytes read at most) → its text (`_read`)
        self._other = TreeSitterCalls(self._read, self._symbols, files, index.resolve)

    def edges(self, path: str) -> list[CallEdge]:
        return self._read_calls(path)[0]

    def edges_and_declared(self, path: str) -> tuple[list[CallEdge], PyModule | None]:
        """The file's calls and, for a Python module, what it declares for its users (pydeclarations.py),
        read from the same syntax tree: the reference stage then parses none of it again."""
        found, parsed = self._read_calls(path)
        if parsed is None:
            return found, None
        text, tree = parsed
        inherited = self.record_bases
        return found, read_module(text, candidate_spans(text, self.files[path], inherited), tree, inherited)

    @cached_property
    def record_bases(self) -> dict[str, str]:
        """pydeclarations.record_bases of the repository's modules, read once for all of them."""
        return record_bases(self.files.values())

    def _read_calls(self, path: str) -> tuple[list[CallEdge], tuple[str, ast.Module] | None]:
        """The file's calls, with the Python module's text and syntax tree they were read from."""
        if self.files[path].language != "python":
            return self._other.edges(path, self.files[path].language), None
        found = self._python.edges(path)
        # the scope built from its syntax tree served this file only: other files see it as the facts do
        self._python.scopes.pop(path, None)
        parsed, self._parsed = self._parsed, None
        return found, parsed

    def _resolve(self, source: str, raw: str) -> list[str]:
        return self.index.resolve(source, "python", raw)

    def _names_from(self, path: str) -> dict[str, list[str]]:
        fact = self.files.get(path)
        return fact.names_from if fact is not None else {}

    def _package(self, path: str) -> list[str]:
        if not self._folders:
            for source, fact in self.files.items():
                if fact.language == "python" and not is_context_file(source):
                    self._folders.setdefault(posixpath.dirname(source), []).append(source)
        return self._folders.get(posixpath.dirname(path), [])

    def _symbols(self, path: str) -> list[Symbol]:
        fact = self.files.get(path)
        return fact.symbols if fact is not None else []

    def go_results(self, path: str) -> dict[str, str]:
        return self._other.go_results(path)

    def go_embedded(self, folder: str, type_name: str) -> list[str]:
        return self._other.go_embedded(folder, type_name)

    def read(self, path: str) -> str | None:
        """The file's text (None when it cannot be read)."""
        return self._read(path)

    def _read(self, path: str, limit: int | None = None) -> str | None:
        """The file's text, read from the checkout once: the calls of each file of a package look into the
        package's other files (a struct's fields, its constructors, the types it embeds), and the later
        passes over the graph into the files again."""
        max_bytes = min(self.max_bytes, limit or self.max_bytes)
        if (path, max_bytes) not in self._texts:
            self._texts[(path, max_bytes)] = read_or_none(self.root, path, max_bytes=max_bytes)
        return self._texts[(path, max_bytes)]

    def _parse(self, path: str) -> ast.Module | None:
        text = self._read(path, CALLS_MAX_BYTES)
        tree = _parsed_python(text) if text is not None else None
        if text is not None and tree is not None:
            self._parsed = (text, tree)  # the file whose calls are read: what it declares comes from it too
        return tree

    def _function(self, path: str, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """A Python module's module-level function of that name (the last one defined)."""
        return self._module_parts(path).functions.get(name)

    def _class_attributes(self, path: str, cls: str) -> dict[str, ast.expr]:
        """The attributes a Python class of `path` sets on `self` (pycalls.class_attributes)."""
        return self._module_parts(path).attributes.get(cls, {})

    def _module_parts(self, path: str) -> _ModuleParts:
        """What another Python module declares that the calls being read look up, read from its own text
        once, whichever module's calls are being read (its tree is not kept)."""
        if path not in self._modules:
            fact = self.files.get(path)
            text = (
                self._read(path, CALLS_MAX_BYTES) if fact is not None and fact.language == "python" else None
            )
            tree = _parsed_python(text) if text is not None else None
            self._modules[path] = _ModuleParts(
                functions={
                    node.name: node
                    for node in (tree.body if tree is not None else [])
                    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                },
                attributes=class_attributes(tree) if tree is not None else {},
                types=declared_types(tree) if tree is not None else NO_TYPES,
            )
        return self._modules[path]
