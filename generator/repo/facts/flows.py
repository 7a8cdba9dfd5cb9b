"""The main paths through a repository: call chains that start at a public entry point (an exported or
re-exported function, a public method of an exported class) and follow the calls that reach the most
important symbols — `get → request → Session.request → Session.send → HTTPAdapter.send`.

Paths are searched depth-first with a small fan-out per hop (the callees that matter most) and scored by
the importance of every symbol they reach, so a path into the core beats one into a helper.
"""

from __future__ import annotations

import math
import posixpath
import re
from collections.abc import Iterable
from typing import Protocol

from generator.repo.facts.imports import JS_LANGUAGES
from generator.repo.facts.ranking import symbol_score
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import CallEdge, FileFacts, Symbol

CHAIN_DEPTH = 6  # hops in one path
FAN_OUT = 3  # callees followed from each symbol
ENTRIES = 24  # entry points tried
FILES_READ = 30  # files the search may read for their calls
OUTSIDE_READS = 4  # of which outside the files asked about
OVERLAP = 0.5  # a path sharing more than this share of its hops with a chosen one is left out
TIER = 1.0  # weight an entry loses per tier (API function, API class method, other export)
PER_OWNER = 2  # entry points taken from one class or module
EARLY_CALL = 0.3  # what a caller's first call loses of its weight against its last one
SAME_FILE = 0.5  # each further hop within a module the path already reached counts this much of the last
ERROR_PATH = 0.3  # what a call that reports an error counts in a path (and every hop after it)
# a callee that reports an error: an exception class, or a function named for failing
REPORTS_ERROR = re.compile(
    r"(?:Error|Exception|Abort|Exit)$|^_*(?:serve_?)?(?:error|fail|fatal|abort|exit|panic|die)(?:[A-Z_]\w*)?$"
    r"|_(?:error|exception)$"  # handle_exception, handle_http_error
)
TINY = 8  # lines below which a symbol counts for less in a path (lines / TINY of its weight)
W_FILE_IMPORTANCE, W_SYMBOL, W_SIZE, W_API_ENTRY = 1.0, 0.25, 0.15, 1.0
W_EXAMPLE = 2.0  # an entry the usage examples call, per doubling of how prominently (examples.py)
W_RUNTIME = 4.0  # a runtime callback (RUNTIME_CALLBACKS): every request or call passes through it
W_CHOSEN = 100.0  # a maintainer's entry point (deepkb.yml `entry_points`) opens the flows before any other


Node = tuple[str, str]  # (path, qualified symbol)
# what the runtime calls on an object a user hands it: Python's callable protocol (WSGI and ASGI apps, a
# command object), Go's http.Handler; these open flows as if the examples called them
RUNTIME_CALLBACKS = frozenset({"__call__", "ServeHTTP"})
CALLABLE = frozenset({"function", "method"})


class CallReader(Protocol):
    # each node's weight, kept across the searches of a run (the facts it comes from do not change)
    node_weights: dict[Node, float]
    examples: dict[str, float]  # names the usage examples call, by prominence
    entry_points: list[Node]  # a maintainer's entry points

    def calls_of(self, path: str, callers: set[str]) -> list[CallEdge]: ...

    def deprecated(self, node: Node) -> bool: ...


def main_paths(
    graph: CallReader,
    files: dict[str, FileFacts],
    paths: Iterable[str] | None = None,
    *,
    limit: int = 5,
) -> list[list[CallEdge]]:
    """Up to `limit` call chains from the entry points of `paths` (the repository's source files when
    None), best first; each chain is its hops in call order, every hop citing the caller's file and line."""
    scope = [p for p in (files if paths is None else paths) if p in files and not is_context_file(p)]
    search = _Search(graph, files, scope)
    chains: list[tuple[float, int, list[CallEdge]]] = []
    for order, (bonus, entry) in enumerate(_entries(files, scope, graph)):
        start = search.weigh(entry) + bonus  # a path from the public API outranks one from deep inside
        chains.extend((start + search.value(chain), order, chain) for chain in search.paths_from(entry))
    chains.sort(key=lambda item: (-item[0], item[1]))  # equal paths: the more important entry first
    return _distinct([chain for _, _, chain in chains], limit)


def entry_points(
    graph: CallReader, files: dict[str, FileFacts], paths: Iterable[str] | None = None, *, limit: int = 8
) -> list[Node]:
    """The entry points the flows of `paths` start from, best first: a maintainer's, then what the usage
    examples call among the public API; never a deprecated one."""
    scope = [p for p in (files if paths is None else paths) if p in files and not is_context_file(p)]
    return [node for _, node in _entries(files, scope, graph)[:limit]]


def node_weight(files: dict[str, FileFacts], path: str, name: str) -> float:
    """How much reaching this symbol says about the code: its file's importance (centrality) and its own
    score there (export, users, size, doc: a large documented method outweighs a small helper)."""
    fact = files.get(path)
    return _FileNodes(fact).weight(name) if fact is not None else 0.0


class _FileNodes:
    """One file's symbols by name, gathered once for weighing several of them (`node_weight`)."""

    def __init__(self, fact: FileFacts) -> None:
        self.fact = fact
        self.first: dict[str, int] = {}  # name → the index of its first definition (`@overload`s passed over)
        for index, symbol in enumerate(fact.symbols):
            known = self.first.get(symbol.name)
            if known is None or (fact.symbols[known].stub and not symbol.stub):
                self.first[symbol.name] = index
        self.exports = set(fact.exports)
        self.api = set(fact.api_names)

    def weight(self, name: str) -> float:
        symbol = self._first(name)
        if symbol is not None and symbol.kind == "class":  # constructing an object: what its constructor does
            symbol = self._constructor(name)
        own = size = 0.0
        lines = TINY
        if symbol is not None:
            owner = self._first(symbol.parent) if symbol.parent else None
            own = max(0.0, symbol_score(self.fact, symbol, owner, self.exports, shown=False))
            lines = symbol.lines
            size = W_SIZE * math.log1p(lines)
        parent = name.rsplit(".", 1)[0] if "." in name else ""
        api = W_API_ENTRY * float(name in self.api or parent in self.api)
        weight = W_FILE_IMPORTANCE * self.fact.importance + W_SYMBOL * own + size + api
        # a getter or a printing helper of a few lines is where a path ends, not what it is about
        return weight * min(1.0, lines / TINY)

    def _first(self, name: str) -> Symbol | None:
        index = self.first.get(name)
        return self.fact.symbols[index] if index is not None else None

    def _constructor(self, cls: str) -> Symbol | None:
        """The first of the class's `__init__` and `constructor` in the file."""
        found = [self.first[n] for n in (f"{cls}.__init__", f"{cls}.constructor") if n in self.first]
        return self.fact.symbols[min(found)] if found else None


def _entries(files: dict[str, FileFacts], scope: list[str], graph: CallReader) -> list[tuple[float, Node]]:
    """Up to ENTRIES entry points with the bonus each brings its paths: a maintainer's own first, then the
    public API weighed by what the usage examples call (functions a top-level package re-exports, methods
    of the classes it re-exports, other exported callables); never a deprecated one, at most PER_OWNER
    from one class or module."""
    weights, examples = graph.node_weights, graph.examples
    within = set(scope)
    chosen = [(W_CHOSEN, node) for node in graph.entry_points if node[0] in within]
    found: list[tuple[float, Node, int]] = []  # (score, node, its first line: ties go in file order)
    for path in scope:
        fact = files[path]
        callables = [s for s in fact.symbols if s.kind in CALLABLE and _callable_from_outside(s)]
        exported = set(fact.exports) | set(fact.api_names) if callables else set()
        entries = [symbol for symbol in callables if _is_entry(symbol, exported)]
        if entries:
            api = set(fact.api_names)
            _weigh_all(weights, path, fact, [s.name for s in entries])
            for symbol in entries:
                tier = 0 if symbol.name in api else 1 if symbol.parent in api else 2
                bonus = _usage_bonus(symbol, examples, _module_name(path, fact, symbol))
                score = weights[(path, symbol.name)] - TIER * tier + bonus
                found.append((score, (path, symbol.name), symbol.start))
    if not found:  # nothing declared public: every public function and method may start a path
        for path in scope:
            fact = files[path]
            entries = [s for s in fact.symbols if s.kind in CALLABLE and s.public and not s.stub]
            _weigh_all(weights, path, fact, [s.name for s in entries])
            found.extend((weights[(path, s.name)], (path, s.name), s.start) for s in entries)
    found.sort(key=lambda entry: (-entry[0], entry[1][0], entry[2]))
    taken: dict[tuple[str, str], int] = {}
    explicit = {node for _, node in chosen}
    for score, (path, name), _ in found:
        if len(chosen) >= ENTRIES:
            break
        owner = (path, name.rsplit(".", 1)[0] if "." in name else "")
        short = name.rsplit(".", 1)[-1]
        shown = examples.get(short, 0.0) > 0 or short in RUNTIME_CALLBACKS  # how it is used: every one
        if (path, name) in explicit or (taken.get(owner, 0) >= PER_OWNER and not shown):
            continue
        if graph.deprecated((path, name)):
            continue
        taken[owner] = taken.get(owner, 0) + 1
        chosen.append((score - weights[(path, name)], (path, name)))  # the bonus over its own weight
    return chosen


def _weigh_all(weights: dict[Node, float], path: str, fact: FileFacts, names: list[str]) -> None:
    """Weigh those of a file's symbols not weighed yet, its symbols gathered once for all of them."""
    missing = [name for name in names if (path, name) not in weights]
    if missing:
        nodes = _FileNodes(fact)
        for name in missing:
            weights[(path, name)] = nodes.weight(name)


def _callable_from_outside(symbol: Symbol) -> bool:
    return (symbol.public or symbol.short_name in RUNTIME_CALLBACKS) and not symbol.stub


def _module_name(path: str, fact: FileFacts, symbol: Symbol) -> str:
    """The name a JavaScript module goes by when the function it exports first is what requiring it
    gives (`exports = module.exports = createApplication` in `lib/express.js`, called as `express()`)."""
    if fact.language not in JS_LANGUAGES or not fact.exports or fact.exports[0] != symbol.name:
        return ""
    return posixpath.basename(path).split(".")[0]


def _usage_bonus(symbol: Symbol, examples: dict[str, float], module_name: str = "") -> float:
    """What an entry gains from how the project is used: the examples calling it (by its name, or by its
    module's when it is what the module exports), or a server calling it on the object the examples hand
    it (a WSGI/ASGI app's `__call__`, Go's `ServeHTTP`)."""
    uses = max(examples.get(symbol.short_name, 0.0), examples.get(module_name, 0.0) if module_name else 0.0)
    bonus = W_EXAMPLE * math.log2(1 + uses)
    return bonus + W_RUNTIME * float(symbol.short_name in RUNTIME_CALLBACKS)


def _is_entry(symbol: Symbol, exported: set[str]) -> bool:
    """Of the public callables that are not stubs: one exported, or a method of an exported class."""
    if symbol.short_name.startswith("_") and symbol.short_name not in RUNTIME_CALLBACKS:
        return False
    return symbol.exported or symbol.name in exported or (bool(symbol.parent) and symbol.parent in exported)


class _Search:
    def __init__(self, graph: CallReader, files: dict[str, FileFacts], scope: Iterable[str]) -> None:
        self.graph, self.files, self.scope = graph, files, set(scope)
        self.read: set[str] = set()
        self.outside: set[str] = set()
        self.symbols: dict[str, _FileNodes] = {}  # the symbols of the files whose nodes it has weighed
        self.late: dict[CallEdge, float] = {}  # how late in its caller each call comes: 0 first, 1 last

    def out(self, node: Node) -> list[CallEdge]:
        """The calls `node` makes (a class's: its constructor's), most important callee first. Files of
        the scope are read as the paths reach them; a path continues through OUTSIDE_READS files beyond
        it at most (a path may always end outside: the last hop needs no reading)."""
        path, name = node
        if path not in self.read:
            if len(self.read) >= FILES_READ:
                return []
            if path not in self.scope:
                if len(self.outside) >= OUTSIDE_READS:
                    return []
                self.outside.add(path)
        self.read.add(path)
        callers = {name, f"{name}.__init__", f"{name}.constructor", f"{name}.new"}
        edges = self.graph.calls_of(path, callers)
        unique: dict[Node, CallEdge] = {}
        for edge in edges:
            unique.setdefault((edge.callee_path, edge.callee), edge)
        last = len(unique) - 1
        for order, edge in enumerate(unique.values()):  # in call order: the edges are in line order
            self.late[edge] = order / last if last else 1.0
        # as `value` counts them: a call on the main line, into another module, first
        ranked = sorted(
            unique.values(),
            key=lambda e: (
                -self.weight(e) * self.main_line(e) * (SAME_FILE if e.callee_path == path else 1.0),
                e.line,
            ),
        )
        return ranked[:FAN_OUT]

    def weight(self, edge: CallEdge) -> float:
        return self.weigh((edge.callee_path, edge.callee))

    def main_line(self, edge: CallEdge) -> float:
        """1 for a caller's last call, down to 1 - EARLY_CALL for its first (its set-up); ERROR_PATH of that
        for a call that reports an error (raising `UsageError`, `serveError`, `this.error(…)`): where a
        path turns aside, whatever the callee weighs."""
        share = (
            1.0 - EARLY_CALL * (1.0 - self.late.get(edge, 1.0))
        ) * edge.share  # where it sits (branches.py)
        return share * ERROR_PATH if REPORTS_ERROR.search(edge.callee.rsplit(".", 1)[-1]) else share

    def weigh(self, node: Node) -> float:
        """`node_weight`, each node weighed once per run (`node_weights`), each file's symbols gathered
        once per search."""
        weights = self.graph.node_weights
        if node not in weights:
            path, name = node
            fact = self.files.get(path)
            if fact is None:
                weights[node] = 0.0
            else:
                if path not in self.symbols:
                    self.symbols[path] = _FileNodes(fact)
                weights[node] = self.symbols[path].weight(name)
        return weights[node]

    def value(self, chain: list[CallEdge]) -> float:
        """Importance reached: each hop's callee, plus a little per hop so a deeper path beats a stub. Each
        further hop within a module the path has already reached counts SAME_FILE times less than the one
        before it, so that a path crossing into other central modules (`Session.send → HTTPAdapter.send`)
        beats one that stays inside a module (`prepare → prepare_body → prepare_content_length`)."""
        hops: dict[str, int] = {chain[0].caller_path: 1} if chain else {}
        total, main_line = 0.0, 1.0
        for edge in chain:
            share = SAME_FILE ** hops.get(edge.callee_path, 0)
            hops[edge.callee_path] = hops.get(edge.callee_path, 0) + 1
            # the work a function hands on comes after its set-up (`send` after `prepare_request`): a path
            # down a set-up call stays a side path for every hop after it
            main_line *= self.main_line(edge)
            total += share * main_line * self.weight(edge) + 0.1
        return total

    def paths_from(self, entry: Node) -> list[list[CallEdge]]:
        """Every path from `entry` that cannot go further (depth, fan-out and cycles bounding it)."""
        found: list[list[CallEdge]] = []
        stack: list[tuple[Node, list[CallEdge]]] = [(entry, [])]
        while stack:
            node, chain = stack.pop()
            onward = []
            if len(chain) < CHAIN_DEPTH:
                seen = {entry} | {(e.callee_path, e.callee) for e in chain}
                onward = [e for e in self.out(node) if (e.callee_path, e.callee) not in seen]
            stack.extend(((e.callee_path, e.callee), [*chain, e]) for e in reversed(onward))  # best first
            if not onward and chain:
                found.append(chain)
        return found


def _distinct(chains: list[list[CallEdge]], limit: int) -> list[list[CallEdge]]:
    chosen: list[list[CallEdge]] = []
    for chain in chains:
        hops = {(e.callee_path, e.callee) for e in chain}
        if any(
            len(hops & {(e.callee_path, e.callee) for e in other}) > OVERLAP * len(hops) for other in chosen
        ):
            continue
        chosen.append(chain)
        if len(chosen) == limit:
            break
    return chosen
