"""The main flow as a call tree: from the entry point a user calls first, the callees that lead to the most
code, several where the work branches — `get → request → Session.request → Session.send → HTTPAdapter.send`
with `Session.prepare_request` beside `Session.send`.

A callee is weighed by what lies below it, not by its name: the lines of the distinct functions reachable
from it (each counting more in a central module) and its own, times the share of the path its call sits on
(branches.py: a fallback under a flag, an error handler count less than the straight line). A call that
reports an error, logs or traces, a deprecated symbol or a test helper is a side path and counts for little,
whatever it leads to (a logger's own level method handing over to its `_log` excepted).

A call building an object (a class, Go's `New…`) ranks below the calls that use it, its weight kept: ky's
`Ky.create` goes on into `#fetch`, its constructor's option merging a branch beside it.

The tree's nodes go to its main line first (the heaviest callee of each hop, what the diagram draws), then to
the heaviest calls offered anywhere: one callee's deep set-up cannot take every node from a sibling's work.
"""

from __future__ import annotations

import heapq
import itertools
import math
import posixpath
import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from generator.repo.facts.branches import ERROR, STRAIGHT
from generator.repo.facts.receivers import Receivers
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import CallEdge, CallTree, FileFacts

BREADTH = 4  # callees kept where the work branches
DEPTH = 6  # hops from the entry point
NODES = 24  # calls in the whole tree (a page shows it whole)
BRANCH = 0.05  # a further callee is a branch of its own when it weighs this share of the heaviest one
REACH_DEPTH = 5  # hops below a callee whose code counts towards its weight
REACH_NODES = 200  # distinct functions counted below one callee
ENTRY_SHARE = 0.9  # an earlier entry point is kept while it leads to this share of the code a later one does
ENTRY_NODES = 600  # distinct functions counted below an entry point
SIDE_PATH = 0.05  # what an error, logging, deprecated or test path weighs of what it leads to
SAME_MODULE = 0.5  # what code in the caller's own module counts of code it hands on to another one
SET_UP = 0.3  # what a constructor's call ranks of its weight: the object it builds then does the work
EARLY_CALL = 0.3  # what a caller's first call loses against its last one: set-up comes before the work
TEAR_DOWN = 0.3  # what a call closing what the work used ranks of its weight: it comes after the work
# what the runtime calls on an object a user hands it: Python's callable protocol (WSGI and ASGI apps, a
# command object), Go's http.Handler
RUNTIME_CALLBACKS = frozenset({"__call__", "ServeHTTP"})
# the calls of the user's code a node shows (CallEdge.plugged: a handler kept in a field), besides its
# callees: leaves taking no callee's place, the straight line's first
PLUGS = 2
# the packages an entry's straight-line calls go into for those calls to be its stages (`_Tree.stages`)
PIPELINE = 3
# a shared helper (`_Tree.helper`): called by this many functions, from this many files besides its own
HELPER_CALLERS = 5
HELPER_FILES = 2
DELEGATE = 1.01  # a call of the same-named method elsewhere ranks above the heaviest other (`delegates`)
Node = tuple[str, str]  # (path, qualified symbol)
# a callee that reports an error: an exception class, or a function named for failing
REPORTS_ERROR = re.compile(
    r"(?:Error|Exception|Abort|Exit)$|^_*(?:serve_?)?(?:error|fail|fatal|abort|exit|panic|die)(?:[A-Z_]\w*)?$"
    r"|_(?:error|exception)$"  # handle_exception, handle_http_error
)
# logging and tracing helpers: where a flow turns aside to report, not where the work goes on
_REPORTS = re.compile(
    r"^_*(?:(?:setup|set_up|configure|config|init|get|make|new)_?)?(?:log|logger|logging)s?$"
    r"|^_*(?:warn|debug|trace|deprecat)",
    re.IGNORECASE,
)


# a call ending what the work used (trio's `unrolled_run` closes its runner in a `finally:` after the event loop,
# and the close led to more code than the loop's own calls): it comes last, as the work is done
_TEARS_DOWN = re.compile(
    r"^_*(?:a?close|shutdown|clean_?up|tear_?down|dispose|destroy|__a?exit__)$", re.IGNORECASE
)


# a guard checking its arguments (reselect's `assertIsArrayOfFunctions`, `assert_valid`, `invariant`): it throws
# when they are wrong and hands nothing on, so what it checks with is no part of the work, however long it is.
# A function named `assert` alone may be a library's own API (superstruct's `assert(value, Struct)` validates)
_GUARDS = re.compile(r"^_*(?:assert(?:[A-Z]|_[a-z])\w*|invariant)$")


# a constructor by its name (a class is known by its symbol): Python's, JavaScript's, Rust's `T::new`, Go's `New…`
_CONSTRUCTOR = re.compile(r"^(?:__init__|constructor|new|[Nn]ew(?:[A-Z_]\w*)?)$")


# a logger's level methods: what they hand to their own class's logging helper is their work, not a side path
_LEVEL = re.compile(
    r"^(?:log|trace|debug|info|success|notice|warn|warning|error|critical|fatal|exception)$", re.I
)


def _logs_for(edge: CallEdge) -> bool:
    """A logger's level method calling its own class's logging helper (loguru's `Logger.info → _log`,
    logrus' `Entry.Info → Entry.Log`): in a logging library that is the straight line, not a report."""
    owner, _, short = edge.caller.rpartition(".")
    return bool(owner) and owner == edge.callee.rpartition(".")[0] and bool(_LEVEL.match(short))


class TreeReader(Protocol):
    def calls_of(self, path: str, callers: set[str], *, dispatched: bool = False) -> list[CallEdge]: ...

    def deprecated(self, node: Node) -> bool: ...

    def fan_in(self, node: Node) -> tuple[int, int]: ...


def call_tree(graph: TreeReader, files: dict[str, FileFacts], entry: Node) -> list[CallTree]:
    """The calls `entry` makes that lead to the most code, each with the calls below it, heaviest first;
    every hop cites its caller's file and line; a call of an interface or abstract method goes on into its
    implementations (`CallEdge.dispatched`)."""
    return _Tree(graph, files, dispatch=True).below(entry, (entry,))


def reaches(graph: TreeReader, files: dict[str, FileFacts], entries: Iterable[Node]) -> dict[Node, float]:
    """The code each entry point leads to: the whole depth of the tree below it (so an entry a few hops
    above the work loses nothing to one below), the files' calls read once for all of them."""
    tree = _Tree(graph, files)
    return {entry: tree.reach(entry, (), DEPTH + REACH_DEPTH, ENTRY_NODES) for entry in entries}


def reached(graph: TreeReader, files: dict[str, FileFacts], entry: Node) -> dict[Node, float]:
    """The functions `entry` leads to, side paths and error handlers aside (expr's `Run` reaching the parser's
    `Source` only through a recovered panic's `Error.Bind` uses nothing `Compile` made), each with its size."""
    tree = _Tree(graph, files)
    return {node: tree.size(node) for node in tree.reached(entry, DEPTH + REACH_DEPTH, ENTRY_NODES)}


def worked(graph: TreeReader, files: dict[str, FileFacts], entry: Node) -> float:
    """The code `entry`'s calls lead to besides the objects they make: the functions below it reached
    through calls that build nothing (a class, a constructor, Go's `New…`), side paths and error handlers
    aside, by size. fx's `New` provides and invokes the whole graph (`provideAll → runProvide`,
    `invokeAll → runInvoke`); echo's `New` and loguru's `add` only make the router or the handler."""
    tree = _Tree(graph, files)
    seen: set[Node] = {entry}
    frontier: list[tuple[Node, Node | None]] = [(entry, None)]
    for _ in range(DEPTH + REACH_DEPTH):
        onward = _first_reached(
            (callee, here)
            for here, parent in frontier
            for call in tree.calls(here, parent)
            if (callee := (call.callee_path, call.callee)) not in seen
            and not tree.side_path(call)
            and call.share > ERROR
            and not tree.constructs(callee)
        )
        seen.update(callee for callee, _ in onward)
        if len(seen) > ENTRY_NODES:
            break
        frontier = onward
    return sum(tree.size(node) for node in seen if node != entry)


def _first_reached(pairs: Iterable[tuple[Node, Node]]) -> list[tuple[Node, Node | None]]:
    """Each callee once, with the caller it was first reached from."""
    found: dict[Node, Node | None] = {}
    for callee, parent in pairs:
        found.setdefault(callee, parent)
    return list(found.items())


def heaviest_entry(graph: TreeReader, files: dict[str, FileFacts], entries: Iterable[Node]) -> Node | None:
    """Of the candidate entry points (best first), the first leading to ENTRY_SHARE of the most code any of
    them leads to: a later one must lead to more."""
    weighed = [(weight, entry) for entry, weight in reaches(graph, files, entries).items()]
    most = max((weight for weight, _ in weighed), default=0.0)
    return next((entry for weight, entry in weighed if weight >= ENTRY_SHARE * most), None)


def main_line(tree: Iterable[CallTree]) -> list[CallEdge]:
    """The tree's heaviest calls, one per hop: the flow a sequence diagram draws (the first call of each hop,
    or the one marked `main` where the calls are in the order they are made)."""
    line: list[CallEdge] = []
    branches = list(tree)
    while branches:
        heaviest = next((b for b in branches if b.main), branches[0])
        line.append(heaviest.edge)
        branches = list(heaviest.below)
    return line


class _Tree:
    def __init__(self, graph: TreeReader, files: dict[str, FileFacts], *, dispatch: bool = False) -> None:
        self.graph, self.files = graph, files
        # whether calls go on into an interface's implementations: the tree's, never an entry's ranking
        self.dispatch = dispatch
        # the object a tree's path works on: a call on `self` reaches its class's own override
        self.receivers = Receivers(files) if dispatch else None
        self.by_caller: dict[str, dict[str, list[CallEdge]]] = {}  # each file's calls by calling symbol
        self.lines: dict[str, dict[str, int]] = {}  # each file's functions' lines by name
        self.kept: set[Node] = set()  # every node the tree holds: a function is shown once
        self.helpers: dict[Node, bool] = {}  # whether each node asked of is a shared helper (`helper`)

    def below(self, node: Node, above: tuple[Node, ...]) -> list[CallTree]:
        """The heaviest callees of `node`: the main line first (the heaviest callee of each hop, as the
        diagram draws it), then the rest grown best first — the heaviest call offered anywhere in the tree
        is kept next, so one callee's deep subtree (a constructor building a whole model) cannot take every
        node from a sibling's work; each node's callees keep their rank."""
        offered: list[tuple[float, int, Node, CallEdge, tuple[Node, ...], bool]] = []
        count = itertools.count()
        kept: dict[Node, list[tuple[int, CallEdge, bool]]] = {}
        pushed: set[tuple[Node, Node]] = set()
        # the entry's stages, else the sequence its straight line runs when an option would push it out
        stages = self.stages(node, above) or self.sequence(node, above)

        def offer(parent: Node, path: tuple[Node, ...], main: bool) -> None:
            """`parent`'s best callees not yet offered, up to BREADTH kept (again when one of those it
            offered was kept meanwhile elsewhere); the main line's next hop and the entry's stages before
            anything else."""
            if len(path) > DEPTH or (parent != node and self.helper(parent)):
                return
            room = BREADTH - len(kept.get(parent, ()))
            found = self.branches(parent, path, stages if parent == node else ())
            for rank, (weight, edge) in enumerate(found[: max(0, room)]):
                if (parent, (edge.callee_path, edge.callee)) not in pushed:
                    pushed.add((parent, (edge.callee_path, edge.callee)))
                    first = main and rank == 0
                    staged = parent == node and any(s.callee == edge.callee for s in stages)
                    priority = -math.inf if first or staged else -weight
                    heapq.heappush(offered, (priority, next(count), parent, edge, path, first))

        offer(node, above, True)
        while offered and len(self.kept) < NODES:
            _, order, parent, edge, path, main = heapq.heappop(offered)
            callee = (edge.callee_path, edge.callee)
            if callee in self.kept:  # kept meanwhile below a heavier call: the parent offers its next
                offer(parent, path, False)
                continue
            self.kept.add(callee)
            kept.setdefault(parent, []).append((order, edge, main))
            offer(callee, (*path, callee), main)

        shown: set[Node] = set()  # the user's code each field holds, shown once

        def grown(parent: Node) -> list[CallTree]:
            # a node's calls in the order it makes them (set-up before the work, the work before what
            # follows it: griffe's `find_spec` before `_load_package` and `_post_load`), the one the main line
            # goes on through marked: the main line's own next hop, else the heaviest kept
            items = kept.get(parent, [])
            ahead = next((item for item in items if item[2]), min(items, default=None, key=lambda i: i[0]))
            calls = [
                CallTree(edge, tuple(grown((edge.callee_path, edge.callee))), main=item is ahead)
                for item in sorted(items, key=lambda i: (i[1].line, i[0]))
                for _, edge, _ in [item]
            ]
            plugs = [e for e in self.plugs(parent) if (e.callee_path, e.callee) not in shown]
            shown.update((e.callee_path, e.callee) for e in plugs)
            return [*calls, *(CallTree(edge) for edge in plugs)]

        return grown(node)

    def plugs(self, node: Node) -> list[CallEdge]:
        """Where `node` runs the user's code (CallEdge.plugged): up to PLUGS of its calls of a handler kept in
        a field, those on its straight line first, no side path (an error callback)."""
        edges = {e.callee: e for e in self.calls(node) if e.plugged and not self.side_path(e)}
        return sorted(edges.values(), key=lambda e: (-e.share, e.line))[:PLUGS]

    def stages(self, node: Node, above: tuple[Node, ...]) -> list[CallEdge]:
        """The functions of other packages (folders) `node` calls on its straight line (or under a flag), one
        per callee, when they are in PIPELINE packages or more: the stages it runs in turn (expr's `Compile`:
        the configuration's `CreateNew`, the checker's `ParseCheck`, the optimizer's `Optimize`, the
        compiler's `Compile`), each where the work goes another way, however little code it leads to. A
        method or a class is no stage: it works on an object (anyio's `run_sync` closing idle workers). []
        when fewer."""
        home = posixpath.dirname(node[0])
        found: dict[Node, CallEdge] = {}
        for edge in self.calls(node):
            callee = (edge.callee_path, edge.callee)
            if (
                "." in edge.callee  # a method works on an object: a function of a package is a stage
                or edge.plugged
                or edge.dispatched
                or edge.share <= ERROR
                or posixpath.dirname(edge.callee_path) == home
                or callee in above
                or self.side_path(edge)
                or self.graph.deprecated(callee)
                or self.constructs(callee)
            ):
                continue
            found.setdefault(callee, edge)
        packages = {posixpath.dirname(path) for path, _ in found}
        return list(found.values()) if len(packages) >= PIPELINE else []

    def sequence(self, node: Node, above: tuple[Node, ...]) -> list[CallEdge]:
        """The calls `node` makes on its straight line into code of the repository (no side path, no
        constructor, the heaviest of one line's implementations), when a call off it (under a flag, in an
        error handler) would take a place among its branches while one of these is left out: the sequence a
        typical call runs goes before an option or a failure however much code that leads to. ormar's
        `QuerySet.get` builds the select, fetches the rows through its executor, makes the models and checks
        their count; the prefetching under `if self._prefetch_related` led to more code and had pushed out
        all but the first. grpc-gateway's `ServeMux.ServeHTTP` hands the request to the matched handler
        (`handleHandler`), which the error handler of a malformed path had pushed out. [] when no call off
        the straight line takes such a place."""
        branches = [edge for _, edge in self._branches(node, above)]
        if not any(edge.share < STRAIGHT for edge in branches):
            return []
        kept = {(edge.callee_path, edge.callee) for edge in branches}
        by_line: dict[int, tuple[float, CallEdge]] = {}
        for edge in self.received(node, above):
            callee = (edge.callee_path, edge.callee)
            if (
                edge.share < STRAIGHT
                or edge.plugged
                or callee in above
                or self.side_path(edge)
                or self.constructs(callee)
                or self.graph.deprecated(callee)
            ):
                continue
            weight = self.weigh(edge, above)
            if weight > 0 and weight > by_line.get(edge.line, (0.0, edge))[0]:
                by_line[edge.line] = (weight, edge)
        found = {(e.callee_path, e.callee): e for _, (_, e) in sorted(by_line.items())}
        return list(found.values()) if set(found) - kept else []

    def branches(
        self, node: Node, above: tuple[Node, ...], stages: Sequence[CallEdge] = ()
    ) -> list[tuple[float, CallEdge]]:
        """Up to BREADTH callees of `node` with their weights: the heaviest, and those weighing BRANCH of it
        (a deprecated callee as a side path), the main line first: a later call outranks an equal early one
        (set-up). With `stages` (the entry's, or its straight-line `sequence`): the heaviest callee on the
        straight line (else the heaviest), then the heaviest stages leading to any code, whatever they weigh
        beside it."""
        found = self._branches(node, above)
        if not stages or not found:
            return found
        weighed = sorted(
            ((self.weigh(e, above), e) for e in stages if (e.callee_path, e.callee) not in self.kept),
            key=lambda item: (-item[0], item[1].line),
        )
        # the main line goes on along the straight line: an option under a flag is beside it
        main = next((f for f in found if f[1].share >= STRAIGHT), found[0])
        heaviest = (main[1].callee_path, main[1].callee)
        return [main, *((w, e) for w, e in weighed if w > 0 and (e.callee_path, e.callee) != heaviest)][
            :BREADTH
        ]

    def received(self, node: Node, above: tuple[Node, ...]) -> list[CallEdge]:
        """The calls `node` makes on the object the tree's path works on (`Receivers`): a call on `self` of
        an inherited method reaches the receiver's own override, and an abstract method's implementations
        are those of the receiver's class tree."""
        parent = above[-2] if len(above) > 1 and above[-1] == node else None
        calls = self.calls(node, parent)
        if self.receivers is None:
            return calls
        receiver = self.receivers.receiver(above if above and above[-1] == node else (*above, node))
        return [edge for call in calls if (edge := self.receivers.resolve(call, receiver)) is not None]

    def _branches(self, node: Node, above: tuple[Node, ...]) -> list[tuple[float, CallEdge]]:
        calls = self.received(node, above)
        edges = list({(e.callee_path, e.callee): e for e in calls if not e.plugged}.values())
        last = max(1, len(edges) - 1)
        weighed: list[tuple[float, float, CallEdge]] = []
        for order, edge in enumerate(edges):
            callee = (edge.callee_path, edge.callee)
            if callee not in self.kept and callee not in above:
                weight = self.weigh(edge, above)
                rank = weight * (1.0 - EARLY_CALL * (1.0 - order / last))
                if self.constructs(callee):
                    rank *= SET_UP
                elif _TEARS_DOWN.match(edge.callee.rpartition(".")[2]):
                    rank *= TEAR_DOWN
                weighed.append((weight, rank, edge))
        weighed.sort(key=lambda item: (-item[1], item[2].line))
        # asked of the few callees that could be kept: it reads the callee's lines
        weighed = [
            (w * SIDE_PATH, r * SIDE_PATH, e)
            if self.graph.deprecated((e.callee_path, e.callee))
            else (w, r, e)
            for w, r, e in weighed[: BREADTH + 2]
        ]
        heaviest = max((w for w, _, _ in weighed), default=0.0)
        if heaviest <= 0:
            return []
        # a method handing its work to the same-named method of another object (kombu's
        # `Connection.drain_events → Transport.drain_events`, `Session.send → HTTPAdapter.send`): the
        # straight line, before the arguments' look-ups and set-up around it
        # (one such method of several is no hand-over, and none goes before a runtime callback handed to
        # a server: the per-request work it calls)
        # (the implementations of one abstract call are one hand-over: its heaviest goes first)
        delegate = [(w, e) for w, _, e in weighed if w > 0 and self.delegates(node, e)]
        served = any(e.handed and e.callee.rpartition(".")[2] in RUNTIME_CALLBACKS for _, _, e in weighed)
        if len({e.line for _, e in delegate}) == 1 and not served:
            chosen = max(delegate, key=lambda item: item[0])[1]
            first = max(r for _, r, _ in weighed)
            weighed = [(w, first * DELEGATE if e is chosen else r, e) for w, r, e in weighed]
        weighed.sort(key=lambda item: (-item[1], item[2].line))
        return [(w, e) for w, _, e in weighed if w >= BRANCH * heaviest][:BREADTH]

    def delegates(self, node: Node, edge: CallEdge) -> bool:
        """Does `node` call the same-named method of another class or module (no constructor, no side
        path)?"""
        owner, _, short = node[1].rpartition(".")
        other, _, called = edge.callee.rpartition(".")
        return (
            called == short
            and (other, edge.callee_path) != (owner, node[0])
            and not self.constructs((edge.callee_path, edge.callee))
            and not self.side_path(edge)
        )

    def weigh(self, edge: CallEdge, above: tuple[Node, ...]) -> float:
        """What `edge`'s callee leads to (`reach`), times the share of the caller's path the call sits on (an
        error handler's or a flag's branch counts less than the straight line); a side path counts SIDE_PATH
        of its own lines."""
        callee = (edge.callee_path, edge.callee)
        if self.side_path(edge):
            return self.size(callee) * SIDE_PATH
        if self.helper(callee):
            return self.size(callee) * edge.share
        return (self.reach(callee, above) + self.implemented(callee, above)) * edge.share

    def implemented(self, node: Node, above: tuple[Node, ...]) -> float:
        """What the largest implementation of an abstract method leads to (one of them answers each call);
        0 for a function with calls of its own. No other weight counts an implementation: an abstract call
        weighs what it dispatches to, a function calling one among its other calls and the calls above it
        as before."""
        calls = self.calls(node, above[-1] if above else None)
        if not calls or not all(e.dispatched for e in calls):
            return 0.0
        below = (*above, node)
        return max(self.reach((e.callee_path, e.callee), below) for e in calls)

    def reach(
        self, node: Node, above: tuple[Node, ...] = (), depth: int = REACH_DEPTH, most: int = REACH_NODES
    ) -> float:
        """The code `node` leads to: its own lines and those of the distinct functions below it (REACH_DEPTH
        hops, never back up the tree), each by how central its module is; code in the caller's own module
        counts SAME_MODULE of that, so a call handing the work to another module stands out."""
        home = above[-1][0] if above else ""
        seen = {node, *above}
        frontier = [(node, above[-1] if above else None)]
        total = self.size(node) * (SAME_MODULE if node[0] == home else 1.0)
        for _ in range(depth):
            onward: list[tuple[Node, Node | None]] = []
            for here, parent in frontier:
                for call in self.calls(here, parent):
                    target = (call.callee_path, call.callee)
                    if target in seen or call.dispatched or self.side_path(call):
                        continue
                    seen.add(target)
                    total += self.size(target) * (SAME_MODULE if target[0] == home else 1.0)
                    if not self.helper(target):  # what a shared helper runs is none of the caller's work
                        onward.append((target, here))
                    if len(seen) > most:
                        return total
            frontier = onward
        return total

    def reached(self, node: Node, depth: int, most: int) -> set[Node]:
        seen: set[Node] = {node}
        frontier: list[tuple[Node, Node | None]] = [(node, None)]
        for _ in range(depth):
            onward = _first_reached(
                ((call.callee_path, call.callee), here)
                for here, parent in frontier
                for call in self.calls(here, parent)
                if (call.callee_path, call.callee) not in seen
                and not self.side_path(call)
                and call.share > ERROR  # what it does when it fails: no work of its own
            )
            seen.update(callee for callee, _ in onward)
            if len(seen) > most:
                break
            frontier = onward
        return seen

    def helper(self, node: Node) -> bool:
        """Whether a tree's `node` is a helper many parts of the project share that hands nothing on to
        another module (commitizen's `cmd.run`, called by 18 functions of git.py and init.py, running
        `_popen` and `_try_decode` of its own module; `smart_open`, by 8 in 6 files): what it runs is how,
        not what, the calling step does, so the tree shows it and goes no further, and it weighs its own
        lines only — the steps the caller takes beside it go first. A function called from one place is
        never one, nor one whose calls go on into other modules (taskiq's `AsyncKicker.kiq`, called from
        everywhere, hands the message to the broker)."""
        if not self.dispatch:
            return False
        if node not in self.helpers:
            self.helpers[node] = self.shared(node) and self.self_contained(node)
        return self.helpers[node]

    def shared(self, node: Node) -> bool:
        callers, files = self.graph.fan_in(node)
        return callers >= HELPER_CALLERS and files >= HELPER_FILES

    def self_contained(self, node: Node) -> bool:
        """Whether every call below `node` (REACH_DEPTH hops) stays in its own module, but for its error
        reports and logging and the calls of other shared functions (`smart_open`'s `EOLType.for_open`
        running `cmd.run`)."""
        seen, frontier = {node}, [node]
        for _ in range(REACH_DEPTH):
            onward = []
            for here in frontier:
                for call in self.calls(here):
                    target = (call.callee_path, call.callee)
                    if self.side_path(call) or call.share <= ERROR:
                        continue
                    if target[0] != node[0]:
                        if self.shared(target):
                            continue
                        return False
                    if target not in seen:
                        seen.add(target)
                        onward.append(target)
            frontier = onward
        return True

    def constructs(self, node: Node) -> bool:
        """Whether calling `node` builds an object: a class, a constructor, Go's `New…`, Rust's `T::new`."""
        path, name = node
        short = name.rpartition(".")[2]
        if _CONSTRUCTOR.match(short):
            return True
        fact = self.files.get(path)
        return fact is not None and any(s.name == name and s.kind == "class" for s in fact.symbols)

    def side_path(self, edge: CallEdge) -> bool:
        short = edge.callee.rsplit(".", 1)[-1]
        reports = _REPORTS.search(short) and not _logs_for(edge)
        guards = _GUARDS.match(short)
        return bool(REPORTS_ERROR.search(short) or reports or guards or is_context_file(edge.callee_path))

    def size(self, node: Node) -> float:
        """A function's lines (a class's: its constructor's), counting double in the most central module."""
        path, name = node
        fact = self.files.get(path)
        if fact is None:
            return 0.0
        if path not in self.lines:
            lines: dict[str, int] = {}
            for symbol in fact.symbols:
                if symbol.kind != "class":
                    lines[symbol.name] = max(lines.get(symbol.name, 0), symbol.lines)
            self.lines[path] = lines
        known = self.lines[path]
        own = max(known.get(name, 0), known.get(f"{name}.__init__", 0), known.get(f"{name}.constructor", 0))
        return own * (1.0 + fact.importance)

    def calls(self, node: Node, parent: Node | None = None) -> list[CallEdge]:
        """The calls `node` makes (a class's: its constructor's), in line order; reached from `parent`, a
        call of a function value only the callers that pass it make (CallEdge.passed_by) is `parent`'s."""
        path, name = node
        if path not in self.by_caller:
            fact = self.files.get(path)
            names = {s.name for s in fact.symbols} if fact is not None else set()
            index: dict[str, list[CallEdge]] = {}
            for edge in self.graph.calls_of(path, names, dispatched=self.dispatch):
                index.setdefault(edge.caller, []).append(edge)
            self.by_caller[path] = index
        index = self.by_caller[path]
        callers = (name, f"{name}.__init__", f"{name}.constructor", f"{name}.new")
        found = [edge for caller in callers for edge in index.get(caller, ())]
        if parent is not None:
            found = [edge for edge in found if not edge.passed_by or parent in edge.passed_by]
        return sorted(found, key=lambda e: e.line)
