"""Where a repository's main flow starts: its entry points, what a user calls — a maintainer's own, else
the public API (an exported or re-exported function, a public method of an exported class) — ranked by how
the project is used (the usage examples' calls, the callbacks a runtime calls on the object a user hands it:
`__call__`, `ServeHTTP`) and by the code each leads to, so `get → request → Session.request → …` opens
requests' flow and a one-line `__call__` in front of a command's whole run opens click's. Set-up gives way
to the call a user makes at run time with what it made (`runtime_first`: loguru's `logger.debug`, not
`logger.add`; echo's `Start`, serving the Echo that `New` built). The flow from there is the call tree
(calltree.py).
"""

from __future__ import annotations

import itertools
import math
import posixpath
import re
from collections.abc import Iterable
from typing import Protocol

from generator.repo.facts.calltree import RUNTIME_CALLBACKS, Node, TreeReader, reached, reaches, worked
from generator.repo.facts.imports import JS_LANGUAGES
from generator.repo.facts.native import family, in_public_api
from generator.repo.facts.runtime import RunTime
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import FileFacts, Symbol

TIER = 1.0  # what an entry loses per tier (API function, API class method, other export)
W_EXAMPLE = 2.0  # an entry the usage examples call, per doubling of how prominently (examples.py)
W_RUNTIME = 4.0  # a runtime callback (RUNTIME_CALLBACKS): every request or call passes through it
W_REACH = 2.0  # per doubling of the code an entry leads to (calltree.reaches)
POOL = 8  # entry points weighed for the run-time call (`runtime_first`), whatever the limit
CALLBACKS = 3  # runtime callbacks ranked below the entry points listed that may still open the flow
NEW_WORK = 0.5  # the share of the code a run-time call leads to that its set-up does not (`runtime_first`)
W_CHOSEN = 1000.0  # a maintainer's entry point (deepkb.yml `entry_points`) opens the flows before any other

# RUNTIME_CALLBACKS (calltree.py): what the runtime calls on an object a user hands it opens flows as if the
# examples called it
CALLABLE = frozenset({"function", "method"})
# what a `with` statement calls on the context manager it enters (`async with` the second)
ENTER = ("__enter__", "__aenter__")
_GO_CONSTRUCTOR = re.compile(r"^[Nn]ew(?:[A-Z_]\w*)?$")
_CONSTRUCTOR = re.compile(
    r"^(?:__init__|__new__|__post_init__|constructor|new|default|[Nn]ew(?:[A-Z_]\w*)?)$"
)


class CallReader(TreeReader, Protocol):
    # the code each entry point leads to, kept across the rankings of a run (the facts do not change)
    reaches: dict[Node, float]
    examples: dict[str, float]  # names the usage examples call, by prominence
    entered: dict[str, float]  # names of the calls making what they enter with `with`, by prominence
    deferred: dict[str, float]  # names of the calls they defer (`defer db.Close()`), by prominence
    qualified: dict[str, float]  # the calls they make through a lower-case name (`fx.New`), by prominence
    entry_points: list[Node]  # a maintainer's entry points
    runtime: RunTime  # what each function stores, reads and spawns

    def results(self, path: str) -> dict[str, str]: ...

    def embedded(self, path: str, type_name: str) -> list[str]: ...

    def declared(self) -> frozenset[str] | None: ...


def entry_points(
    graph: CallReader, files: dict[str, FileFacts], paths: Iterable[str] | None = None, *, limit: int = 8
) -> list[Node]:
    """The entry points the flows of `paths` start from, best first: a maintainer's, then the public API by
    how it is used and by the code it leads to; never a deprecated one."""
    # a Go file built only under a tag (a fuzz harness, a generator script) is no door, as a test is none
    scope = [
        p
        for p in (files if paths is None else paths)
        if p in files and not is_context_file(p) and not files[p].tagged
    ]
    within = set(scope)
    standing = {node: W_CHOSEN for node in graph.entry_points if node[0] in within}
    elsewhere = _called_elsewhere(files, scope, graph.qualified)
    for node, score in _standings(files, scope, graph.examples, graph.declared(), elsewhere):
        standing.setdefault(node, score)
    for node, uses in _entered(graph, files, scope).items():
        standing[node] = max(standing.get(node, -math.inf), W_EXAMPLE * math.log2(1 + uses))
    unknown = [node for node in standing if node not in graph.reaches]
    graph.reaches.update(reaches(graph, files, unknown))
    ranked = sorted(
        standing,
        key=lambda node: (-(standing[node] + W_REACH * math.log2(1 + graph.reaches[node])), node),
    )
    found: list[Node] = []
    for node in ranked:  # asked of the few that could be listed: it reads the symbol's lines
        if len(found) == max(limit, POOL):
            break
        if not graph.deprecated(node):
            found.append(node)
    # a runtime callback however far down (a one-line `ServeHTTP` leads to little code of its own) may be
    # the run-time call the set-up prepares
    callbacks = [n for n in ranked if n not in found and n[1].rpartition(".")[2] in RUNTIME_CALLBACKS]
    listed = [*found, *callbacks[:CALLBACKS]]
    rest = [n for n in ranked if n not in listed]
    return runtime_first(graph, files, listed, rest)[:limit]


def runtime_first(
    graph: CallReader, files: dict[str, FileFacts], ranked: list[Node], rest: Iterable[Node] = ()
) -> list[Node]:
    """The ranked entry points with the call a user makes at run time moved before the set-up that leads
    the ranking. A later entry is that call when the first does not lead to it nor it to the first, it
    makes nothing itself, and either
    - reads what the first's calls stored (runtime.py: falcon's `App.__call__` reaching the router's
      `find`, which reads the finder `App.add_route`'s calls compiled into it), or
    - leads to work of its own (NEW_WORK), is called at run time (the examples call it, or a runtime
      callback) and uses the objects the first makes — a method of a class the first makes, or leading to one: `logger.debug → _log →
      Handler.emit`, not `add → FileSink → parse_size`.
    `rest`: the entry points ranked below those, best first, where a call on what a set-up starting work
    returns may still be found (`_work_on_result`)."""
    first = ranked[0] if ranked else ("", "")
    if len(ranked) < 2 or first[1].rpartition(".")[2] in RUNTIME_CALLBACKS:
        return ranked  # a runtime callback is no set-up: each request passes through it
    before = reached(graph, files, first)
    if _starts_work(graph, first, before):
        # the work it prepares runs on its own, below it: no later call is that work — unless the set-up
        # hands back an object whose calls do work beside its spawned loops (a database's `Open`)
        return _work_on_result(graph, files, ranked, before, rest)
    made = _made(graph, files, set(before)) - {_owner(first[1])}
    # what the set-up leaves for later: the fields its calls store, a constructor's initial state aside
    stored = graph.runtime.left(node for node in before if not _constructs(files, node))
    if not made and not stored:
        return ranked
    # what the set-up's own calls do besides making objects: a constructor doing the work itself (fx's
    # `New` provides and invokes the whole graph) stays the flow's start over a call leading to less
    work = worked(graph, files, first)
    for node in ranked[1:]:
        if node in before or _made(graph, files, {node}):
            continue  # a constructor is set-up however late it comes
        below = reached(graph, files, node)
        if first in below:
            continue  # it runs the set-up itself
        # (one reading what the set-up registered may share code with it: falcon compiles its routes
        # when one is added and again on the first request)
        if stored & graph.runtime.reads(n for n in below if not _constructs(files, n)):
            return [node, *(n for n in ranked if n != node)]
        new = sum(size for n, size in below.items() if n not in before)
        if new <= NEW_WORK * sum(below.values()):
            continue  # the same work by another door (`Session.get` beside `get`)
        if new < work:
            continue  # it leads to less than what the set-up does itself
        if not _used_at_run_time(graph, node):
            continue
        uses = {_owner(name) for _, name in below} | {_owner(node[1])}
        # what it uses of the set-up's objects, not making them again itself (`configure` calls `add`)
        if (uses & made) - _made(graph, files, set(below)):
            return [node, *(n for n in ranked if n != node)]
    return ranked


def then_entry(graph: CallReader, files: dict[str, FileFacts], entry: Node) -> Node | None:
    """The call the usage examples make next, on what the flow's entry returns: the method of the type it
    returns (or one that type embeds) they call, neither reached by the entry nor leading back to it, and
    leading to code of the project's; of those, the most prominent no other of them runs — fx's `New` builds
    the App, then `fx.New(…).Run()` starts it, blocks and stops it (`App.Run`, which runs the `Start` and
    `Stop` the examples also call); what they defer (teardown) is none. None when the entry returns nothing
    of the project's with such a method."""
    made = _result(graph, files, entry)
    if not made:
        return None
    owners = {made, *graph.embedded(entry[0], made)}
    candidates = sorted(
        (
            (-graph.examples.get(symbol.short_name, 0.0), path, symbol.name)
            for path, fact in files.items()
            if not is_context_file(path)
            for symbol in fact.symbols
            if symbol.kind == "method" and symbol.parent in owners
        ),
    )
    before = reached(graph, files, entry)
    kept: dict[Node, set[Node]] = {}
    for weight, path, name in candidates:
        node = (path, name)
        if weight >= 0 or node in before or name.rpartition(".")[2] in graph.deferred:
            continue
        below = set(reached(graph, files, node))
        if entry in below or len(below) < 2 or graph.deprecated(node):
            continue
        kept[node] = below
    return next((n for n in kept if not any(n in below for o, below in kept.items() if o != n)), None)


def _starts_work(graph: CallReader, first: Node, before: Iterable[Node]) -> bool:
    """Whether the set-up starts work that runs on its own: it spawns (a timer, a goroutine, a closure of
    its own), or a function it leads to spawns one of the repository's (`go r.run()`, a queue's job loop
    on `process.nextTick`). That work is in its tree already (runtime.py); a later entry reading its state
    is a control call beside it (`pause`, `save`), not the call the set-up waits for."""
    return bool(graph.runtime.use(first).spawn_lines) or any(graph.runtime.spawned(node) for node in before)


def _work_on_result(
    graph: CallReader,
    files: dict[str, FileFacts],
    ranked: list[Node],
    before: dict[Node, float],
    rest: Iterable[Node] = (),
) -> list[Node]:
    """The ranked entry points with a call on what the set-up returns moved first, when the set-up starts
    work of its own that reads nothing coming in and the examples go on calling the object: a method of
    the type the set-up returns (a Go `Open` → DB, a constructor's class), called at run time, neither
    reached by the set-up before its spawned loops run nor leading to it. A database's `Open` spawns its
    upkeep (compaction, syncing, expiry) and the work is `db.Put` → the log and the index; a client's
    `Dial` spawns the loop reading what the connection brings (go-stomp's `readLoop`, amqp091-go's
    `Connection.reader`), and a worker's set-up returns nothing the examples call to work (`Queue.process`)."""
    first = ranked[0]
    made = _result(graph, files, first)
    if not made:
        return ranked
    # its methods, and those it promotes from the types it embeds (go-cache's `Cache{*cache}`)
    owners = {made, *graph.embedded(first[0], made)}
    loops = {loop for node in [first, *before] for loop in graph.runtime.spawned(node)}
    if any(graph.runtime.reads_input(loop) for loop in loops):
        return ranked  # what comes in is handled in its loop: that is the work
    # what the set-up does before its loops run (buntdb's expiry loop calls `DB.Update`)
    upkeep = {node for loop in loops for node in reached(graph, files, loop)}
    own = {node for node in before if node not in upkeep}
    # the listed entries first, then those below them (go-cache's `Delete`, below the methods of an
    # unexported type no user reaches)
    for node in itertools.chain(ranked[1:], rest):
        if _owner(node[1]) not in owners or node in own or not _used_at_run_time(graph, node):
            continue
        if node[1].rpartition(".")[2] in graph.deferred:
            continue  # what the examples defer is their teardown (ristretto's `defer cache.Close()`)
        below = reached(graph, files, node)
        if first in below or len(below) < 2 or graph.deprecated(node):
            continue  # it runs the set-up, or calls none of the project's code: no flow starts there
        return [node, *(n for n in ranked if n != node)]
    return ranked


def _result(graph: CallReader, files: dict[str, FileFacts], node: Node) -> str:
    """The project's type a set-up call returns: a constructor's class, a Go function's first result with
    methods of its own or promoted from a type it embeds (a method a test defines, as the next call's
    candidates, is none)."""
    path, name = node
    if _is_class(files, path, name):
        return name
    if _owner(name) and _constructs(files, node):
        return _owner(name)
    returned = graph.results(path).get(name, "")
    owners = {returned, *graph.embedded(path, returned)}
    methods = (
        s
        for at, fact in files.items()
        if not is_context_file(at)
        for s in fact.symbols
        if s.kind in CALLABLE and s.parent in owners
    )
    return returned if returned and next(methods, None) is not None else ""


def _entered(graph: CallReader, files: dict[str, FileFacts], scope: list[str]) -> dict[Node, float]:
    """The `__enter__` methods the usage examples' `with` statements run, each with how prominently they
    enter it: the context manager is a class of `scope` they make (`with requests_mock.Mocker()`), the
    class whose method they call (`with Betamax(session).use_cassette(…)`, returning itself), or the first
    one a function they call leads to making (vcrpy's `use_cassette` → `CassetteContextDecorator`).
    Python runs `__enter__` on the user's behalf: the work the `with` starts is entered there."""
    if not graph.entered:
        return {}
    managers = _context_managers(files)
    found: dict[Node, float] = {}
    for path in scope:
        for symbol in files[path].symbols:
            name = symbol.name if symbol.kind == "class" else symbol.short_name
            uses = graph.entered.get(name, 0.0)
            if not uses:
                continue
            if symbol.kind == "class" or (path, symbol.parent) in managers:
                made: Iterable[Node] = [(path, symbol.name if symbol.kind == "class" else symbol.parent)]
            elif symbol.kind in CALLABLE:
                made = reached(graph, files, (path, symbol.name))
            else:
                continue
            enter = next((managers[node] for node in made if node in managers), None)
            if enter is not None:
                found[enter] = max(found.get(enter, 0.0), uses)
    return found


def _context_managers(files: dict[str, FileFacts]) -> dict[Node, Node]:
    """Each class with an `__enter__` (or `__aenter__`) of its own or of a base defined in the same module
    or one it imports, with that method."""
    own: dict[Node, Node] = {}
    for path, fact in files.items():
        for symbol in fact.symbols:
            if symbol.kind in CALLABLE and symbol.parent and symbol.short_name in ENTER:
                own.setdefault((path, symbol.parent), (path, symbol.name))
    found = dict(own)
    for path, fact in files.items():
        homes = [path, *fact.depends_on]
        for symbol in fact.symbols:
            if symbol.kind != "class" or (path, symbol.name) in own:
                continue
            bases = {base.rpartition(".")[2] for base in symbol.bases}
            enter = next((own[(home, base)] for base in bases for home in homes if (home, base) in own), None)
            if enter is not None:
                found[(path, symbol.name)] = enter
    return found


def _constructs(files: dict[str, FileFacts], node: Node) -> bool:
    """A constructor or a class: what it stores is the object's initial state, no set-up left for later."""
    owner, _, short = node[1].rpartition(".")
    java = bool(owner) and short == owner.rpartition(".")[2]  # Java's, C#'s: named after its class
    return java or bool(_CONSTRUCTOR.match(short)) or _is_class(files, *node)


def _made(graph: CallReader, files: dict[str, FileFacts], nodes: set[Node]) -> set[str]:
    """The objects a call that leads to `nodes` makes: the classes among them, and the types Go
    constructors among them return (`New` → Echo, `NewRouter` → DefaultRouter)."""
    made = {name for path, name in nodes if _is_class(files, path, name)}
    made.update(
        graph.results(path).get(name, "")
        for path, name in nodes
        if _GO_CONSTRUCTOR.match(name) and path in files and files[path].language == "go"
    )
    return made - {""}


def _used_at_run_time(graph: CallReader, node: Node) -> bool:
    short = node[1].rpartition(".")[2]
    return short in RUNTIME_CALLBACKS or graph.examples.get(short, 0.0) > 0


def _owner(name: str) -> str:
    return name.rpartition(".")[0]


def _is_class(files: dict[str, FileFacts], path: str, name: str) -> bool:
    fact = files.get(path)
    return fact is not None and any(s.name == name and s.kind == "class" for s in fact.symbols)


def _standings(
    files: dict[str, FileFacts],
    scope: list[str],
    examples: dict[str, float],
    declared: frozenset[str] | None = None,
    elsewhere: set[Node] | frozenset[Node] = frozenset(),
) -> list[tuple[Node, float]]:
    """Every entry point of `scope` with what its place in the API and its use give it: functions a
    top-level package re-exports, methods of the classes it re-exports, other exported callables, each the
    more the usage examples call it; when nothing is declared public, every public function and method.
    `declared`: what a C/C++ library's public headers declare (native.in_public_api), its only API;
    `elsewhere`: functions the examples' calls of their name are another package's (`_called_elsewhere`)."""
    found: list[tuple[Node, float]] = []
    made = _made_values(files)
    for path in scope:
        fact = files[path]
        callables = [
            s
            for s in fact.symbols
            if s.kind in CALLABLE
            and _callable_from_outside(s)
            and (declared is None or family(fact.language) != "c" or in_public_api(path, s.name, declared))
        ]
        exported = set(fact.exports) | set(fact.api_names) if callables else set()
        api = set(fact.api_names)
        for symbol in (s for s in callables if _is_entry(s, exported)):
            tier = 0 if symbol.name in api else 1 if symbol.parent in api else 2
            names = [_module_name(path, fact, symbol), *made.get((path, symbol.name), ())]
            bonus = _usage_bonus(symbol, {} if (path, symbol.name) in elsewhere else examples, *names)
            found.append(((path, symbol.name), bonus - TIER * tier))
    if found:
        return found
    return [
        ((path, s.name), _usage_bonus(s, examples))
        for path in scope
        for s in files[path].symbols
        if s.kind in CALLABLE
        and _callable_from_outside(s)
        and (declared is None or family(files[path].language) != "c" or in_public_api(path, s.name, declared))
    ]


def _called_elsewhere(
    files: dict[str, FileFacts], scope: list[str], qualified: dict[str, float]
) -> set[Node]:
    """The Go functions of a sub-package whose name the usage examples call only through another
    package's name: `fx.New(…)` runs the root package's `New`, never fxtest's (a Go example calls another
    package's function only through that package's name)."""
    through = {name.rpartition(".")[2] for name in qualified}
    found: set[Node] = set()
    for path in scope:
        fact = files[path]
        package = posixpath.basename(posixpath.dirname(path))
        if fact.language != "go" or not package or re.fullmatch(r"v\d+", package):
            continue
        found.update(
            (path, s.name)
            for s in fact.symbols
            if s.kind == "function"
            and not s.parent
            and s.name in through
            and f"{package}.{s.name}" not in qualified
        )
    return found


def _callable_from_outside(symbol: Symbol) -> bool:
    return (symbol.public or symbol.short_name in RUNTIME_CALLBACKS) and not symbol.stub


def _module_name(path: str, fact: FileFacts, symbol: Symbol) -> str:
    """The name a JavaScript module goes by when the function it exports first is what requiring it
    gives (`exports = module.exports = createApplication` in `lib/express.js`, called as `express()`)."""
    if fact.language not in JS_LANGUAGES or not fact.exports or fact.exports[0] != symbol.name:
        return ""
    return posixpath.basename(path).split(".")[0]


def _made_values(files: dict[str, FileFacts]) -> dict[Node, list[str]]:
    """The exported module-level values each function makes (`export default got` of `const got =
    create(defaults)`: create → ["got"]), the function found in the module itself or in one it imports."""
    found: dict[Node, list[str]] = {}
    for path, fact in files.items():
        for value, function in fact.made_by.items():
            if value not in fact.exports:
                continue
            homes = [path, *fact.depends_on]
            home = next((p for p in homes if p in files and _defines(files[p], function)), None)
            if home is not None:
                found.setdefault((home, function), []).append(value)
    return found


def _defines(fact: FileFacts, name: str) -> bool:
    return any(s.name == name and s.kind in CALLABLE for s in fact.symbols)


def _usage_bonus(symbol: Symbol, examples: dict[str, float], *other_names: str) -> float:
    """What an entry gains from how the project is used: the examples calling it (by its name, by its
    module's when it is what the module exports, or by the name of a value it makes that a module
    exports: got's `got`, made by `create`), or a server calling it on the object the examples hand it (a
    WSGI/ASGI app's `__call__`, Go's `ServeHTTP`)."""
    uses = max(examples.get(name, 0.0) for name in (symbol.short_name, *other_names) if name)
    bonus = W_EXAMPLE * math.log2(1 + uses)
    return bonus + W_RUNTIME * float(symbol.short_name in RUNTIME_CALLBACKS)


def _is_entry(symbol: Symbol, exported: set[str]) -> bool:
    """Of the public callables that are not stubs: one exported, or a method of an exported class."""
    if symbol.short_name.startswith("_") and symbol.short_name not in RUNTIME_CALLBACKS:
        return False
    return symbol.exported or symbol.name in exported or (bool(symbol.parent) and symbol.parent in exported)
