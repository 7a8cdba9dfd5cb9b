"""Where the answer to a question starts and the steps it takes from there. Of the symbols matching the
question, the start is one that matches it well itself and from which the calls reach what answers the rest
of it: the process asked about begins there, not at a helper that shares one word with the question nor at
a command-line group that merely names it. The steps are the calls the start makes, in call order (then
theirs, depth first), that lead to the matches answering the question below it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Protocol

from generator.repo.facts.calltree import REPORTS_ERROR
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import CallEdge, RunTimeView

Node = tuple[str, str]  # (path, qualified symbol name)
START_SHARE = 0.5  # a start matches the question at least this share of the best match's own score
LEADS_SHARE = 0.9  # …or its calls lead to this share of it
REACH = 4  # hops of calls followed to find the matches a symbol leads to
DECAY = 0.7  # what a match counts one call further below
STEP_DEPTH = 3  # steps below the start
MAX_STEPS = 8
LONE = 0.5  # what a start reaching no other match counts of what its own words answer
PUBLIC = 1.1  # what an entry of the project's public API weighs against other code answering as much
WRAPPER_LINES = 4  # a function this short calling one other match is a wrapper of it
SET_UP_HOPS = 2  # hops below a start where what it spawns still only starts the work
SPAWN_SHARE = 0.75  # what a spawned function answers of the question, at least, against the start spawning it
READ_HOPS = 8  # hops of straight calls from a read loop to where what it read is handled
_TIE = 1e-9


class CallReader(Protocol):
    def calls_of(self, path: str, callers: set[str]) -> list[CallEdge]: ...


Below = list[tuple[float, set[Node]]]
"""Per question word: the most a match at or below a symbol answers of it, and the matches that do."""


class AnswerWalk:
    """The call graph read from the matches of one question (each symbol's calls and reach read once)."""

    def __init__(
        self,
        graph: CallReader,
        answered: Mapping[Node, Sequence[float]],
        lines: Mapping[Node, int],
        startable: Collection[Node] | None = None,
        public: Collection[Node] = (),
        entries: Collection[Node] = (),
        verbed: Collection[Node] = (),
        aside: Collection[Node] = (),
        joinable: Callable[[Node], bool] | None = None,
        plain: Mapping[Node, Node] | None = None,
        subject: Collection[Node] = (),
        runtime: RunTimeView | None = None,
        arriving: bool = False,
    ) -> None:
        """`answered`: what each match answers of each question word (answer.py's `per_term`); `lines`:
        each match's length; `startable`: the matches an answer may start at (every one when None; answer.py's
        `can_start`); `public`: those of the project's public API; `entries`: those its README or usage
        examples call; `verbed`: those named for doing the asked verb; `aside`: symbols the question names as
        context, whose calls are no part of the process asked about (never reached); `joinable`: whether a
        symbol no word of the question names may start an answer by joining its matches (`joins`; never
        without it); `plain`: a match named like a sibling plus words the question does not ask, to that
        sibling (answer.py's `plain_siblings`); `subject`: the methods of the question's subject ("how does
        *the engine* find…": `Engine`'s); `runtime`: what each function stores, reads and spawns (set-up
        told from the call made at run time, `run_time`); `arriving`: what the question asks about comes in
        over a connection (`readers`)."""
        self.graph, self.answered, self.lines = graph, dict(answered), lines
        self.runtime = runtime
        self.startable = set(answered if startable is None else startable) & set(answered)
        self.public = set(public)
        self.entries = set(entries)
        self.verbed = set(verbed)
        self.subject = set(subject)
        self.aside = set(aside)
        self.joinable = joinable
        self.plain = dict(plain or {})
        self.arriving = arriving
        # a read loop an answer starts at, to the start it hands what it reads on to (`read_from`)
        self.handed: dict[Node, Node] = {}
        self.joined: set[Node] = set()
        self.matches = {node: sum(shares) for node, shares in answered.items()}
        self.best = max(self.matches.values(), default=0.0) or 1.0
        self.width = len(next(iter(answered.values()), ()))
        self._calls: dict[Node, list[CallEdge]] = {}
        self._reach: dict[tuple[Node, bool, int], dict[Node, int]] = {}
        self._below: dict[tuple[Node, bool], Below] = {}

    def start(self) -> Node | None:
        """Of the matches that may start an answer and match START_SHARE of the best of them (or lead to
        LEADS_SHARE of it), the one whose call tree answers the most of the question (`coverage`; PUBLIC
        more for the public API's entry): the process begins where its calls reach what answers the rest of
        it, not at a helper sharing one of its words. Ties go to one calling another match, then to the
        better match, then to the longer (where the work is done rather than a wrapper of it), then the
        first by path. None when no match may start one. A function joining the matches (`joins`) may start
        as a match answering nothing itself."""
        self.join()
        matches = {node: value for node, value in self.matches.items() if node in self.startable}
        if not matches:
            return None
        best = max(matches.values())
        # a match of its own, or a caller leading to nearly as much as the best match answers alone
        eligible = [
            node
            for node, value in matches.items()
            if value >= START_SHARE * best or self.leads_to(node) >= LEADS_SHARE * best
        ]
        # …or a caller whose calls answer more of the question than any of those does (echo's
        # `DefaultRouter.Route` beside `Routes.FindByMethodPath`, named for finding a registered route), not
        # by reaching the best match: that caller only uses the process (attrs' `disabled`, which reaches
        # `set_run_validators`; node-fetch's `Body.json`, which reads the body with `Body.text`)
        most = max(self.coverage(node) for node in eligible)
        named = {node for node, value in matches.items() if value >= best - _TIE}
        # (a function joining the matches, `joins`, does more than use the one it reaches)
        covering = {
            node
            for node in matches
            if self.coverage(node) > most and (node in self.joined or not named & self.reached(node).keys())
        }
        # nor by reaching another such caller not named for the verb: one further up (echo's `WrapHandler`,
        # reaching `DefaultRouter.Route` through `ServeHTTP`) holds its coverage by holding the other's
        beneath = {node for node in covering if node not in self.verbed}
        covering = {node for node in covering if not (beneath - {node}) & self.reached(node).keys()}
        eligible = sorted({*eligible, *covering})
        # what comes in over a connection is taken in where it is read: a user's call that reads nothing
        # (jsonrpc2's `Conn.Call`, sending and waiting on a channel) is no start beside one that reads
        eligible = [node for node in eligible if self.takes_in(node)] or eligible
        best_start = self.unwrapped(self.unvaried(min(eligible, key=self._rank)), eligible)
        begun = self.run_time(self.entry_to(self.begun_below(best_start, best, eligible), eligible), eligible)
        return self.read_from(begun)

    def read_from(self, node: Node) -> Node:
        """Where what the question asks about comes in (`arriving`): the function the project spawns to read
        from the connection (`readers`) that hands what it reads on to `node` (its straight path reaches
        it within READ_HOPS: lapin's `IoLoop.run`, seven calls above the consumer's delivery; amqp091's
        `Connection.reader`, above the frame parser) — the one whose calls answer most of the question;
        `node` itself when no reader leads to it (a handshake a user's `accept` performs)."""
        if not self.arriving or self.runtime is None:
            return node
        leading = [
            reader for reader in self.readers() if node in self.reached(reader, straight=True, hops=READ_HOPS)
        ]
        for reader in leading:
            self.answered.setdefault(reader, (0.0,) * self.width)
            self.matches.setdefault(reader, 0.0)
        chosen = max(leading, key=lambda reader: (self.coverage(reader), reader), default=node)
        if chosen != node:
            self.handed[chosen] = node
        return chosen

    def takes_in(self, node: Node) -> bool:
        """Does `node` read what comes in, itself or through its calls (REACH hops)? Always, unless the
        question asks about what arrives (`arriving`)."""
        if not self.arriving or self.runtime is None:
            return True
        return any(self.runtime.reads_input(n) for n in (node, *self.reached(node)))

    def readers(self) -> list[Node]:
        """The functions the project spawns to run on their own (`RunTimeView.workers`: a read loop's task
        or goroutine) that read input on their own lines (`RunTimeView.reads_input`), no test's."""
        assert self.runtime is not None
        return [
            worker
            for worker in sorted(self.runtime.workers())
            if not is_context_file(worker[0]) and self.runtime.reads_input(worker)
        ]

    def run_time(self, node: Node, eligible: Collection[Node]) -> Node:
        """Where the work runs when `node` only sets it up (facts/runtime.py): the function it spawns, or
        one its calls spawn within SET_UP_HOPS (`go w.loop()` under `WorkerPool.Start`, arq's
        `create_task(self.main())` in `Worker.run`) that answers SPAWN_SHARE of what `node`'s calls do —
        `node` adds little but starting it (nats' `doReconnect` reconnects, then starts a reader: it
        stays) —, the one answering most; else an eligible match reading what `node`'s calls register (a
        route table, a handler list) that `node` does not reach nor it `node`, answering START_SHARE of
        what `node` does through calls of its own (a property reading a task's kept data is no such
        call): the call a server or loop makes with it later. `node` itself otherwise."""
        if self.runtime is None:
            return node
        setting_up = [
            node,
            *(n for n, hops in self.reached(node, straight=True).items() if hops <= SET_UP_HOPS),
        ]
        spawned = [f for n in setting_up for f in self.runtime.spawned(n) if f != node]
        enough = SPAWN_SHARE * self.coverage(node)
        answering = [f for f in spawned if self.coverage(f) >= enough and self.leads_to(f) > 0]
        if answering:
            return max(answering, key=lambda f: (self.coverage(f), f))
        left = self.runtime.left([node, *self.reached(node)])
        if not left:
            return node
        later = [
            other
            for other in eligible
            if other != node
            and other not in self.reached(node)
            and node not in self.reached(other)
            and self.coverage(other) >= START_SHARE * self.coverage(node)
            and any(match in self.reached(other) for match in self.matches)  # no getter of what is kept
            and left & self.runtime.reads([other, *self.reached(other)])
        ]
        return min(later, key=self._rank, default=node)

    def join(self) -> None:
        """Take the functions that join the matches (`joins`) as matches answering nothing of their own that
        may start an answer: the process they run is told by what they call."""
        if self.joinable is None:
            return
        below = {node for match in self.startable for node in self.reached(match)}
        self.joined = {
            node for node in below if node not in self.matches and self.joins(node) and self.joinable(node)
        }
        for node in self.joined:
            self.answered[node] = (0.0,) * self.width
            self.matches[node] = 0.0
        self.startable |= self.joined

    def joins(self, node: Node) -> bool:
        """Does `node` join the matches: call two whose trees answer different words of the question, neither
        answering all the other does? The process then begins where both are called, at a function named for
        its role in the flow rather than any word of the question (bottle's `Bottle._handle`, calling
        `Router.match` for "matched to a route" and `Route.call` for "its callback called"; httpie's
        `collect_messages`, calling `make_request_kwargs` and `build_requests_session`)."""
        answers = [
            frozenset(i for i, (value, _) in enumerate(self.best_below(callee)) if value > 0)
            for edge in self.calls(node)
            if self.matches.get(callee := (edge.callee_path, edge.callee), 0.0) > 0
        ]
        return any(not a <= b and not b <= a for i, a in enumerate(answers) for b in answers[i + 1 :])

    def unvaried(self, node: Node) -> Node:
        """The plain method a variant is named after (`plain`: `read` for `read_chunked`, `__call__` for
        `call_extra`), when it leads on to other matches: the variant does the asked process for a case the
        question does not name, and reaches more only by handling that case as well. A variant the plain
        method calls is its implementation (`loads_unsafe` calling `_loads_unsafe_impl`), no other case."""
        plain = self.plain.get(node)
        if plain is None or plain not in self.startable or node in self.reached(plain):
            return node
        return plain if any(match in self.reached(plain) for match in self.matches) else node

    def unwrapped(self, node: Node, eligible: Collection[Node]) -> Node:
        """Where a thin wrapper (WRAPPER_LINES at most) hands the whole process on: the one eligible public
        match it calls, named for the asked verb (joi's `$_validate`, one line calling the `validate` that
        does the validating); `node` itself otherwise, and when what it calls is private (marshmallow's
        `Schema.load` stays before its `_do_load`)."""
        if self.lines.get(node, WRAPPER_LINES + 1) > WRAPPER_LINES:
            return node
        onward = [
            (edge.callee_path, edge.callee)
            for edge in self.calls(node)
            if (edge.callee_path, edge.callee) in eligible
        ]
        if len(onward) != 1 or onward[0] not in self.public or onward[0] not in self.verbed:
            return node
        return onward[0]

    def _rank(self, node: Node) -> tuple[float, bool, float, int]:
        return (
            -round(self.coverage(node) * (PUBLIC if node in self.public else 1.0), 9),
            not any(other in self.reached(node) for other in self.matches),
            -round(self.matches[node], 9),
            -self.lines.get(node, 0),
        )

    def begun_below(self, node: Node, best: float, eligible: Collection[Node]) -> Node:
        """Where the process begins when `node` only uses it: a start eligible by its calls alone (its own
        words answer less than START_SHARE of the best match) that reaches a match named for doing the asked
        verb, eligible by its own words and calling on to other matches, is a caller of that process for
        another purpose (jinja's `BaseLoader.load` reaching `Environment.compile` for "how is a template's
        source compiled"); the best ranked of those starts. A caller reaching only leaves keeps the start
        (got's `_beforeError`, reaching `calculateRetryDelay`), and so does a function joining the matches
        (`joins`): it is no caller for another purpose but where the process's parts are called together.
        A method of the question's subject (`subject`) keeps it too: what the question says does the process
        begins it there (gin's `Engine.handleHTTPRequest` for "how does the engine find the handler for a
        path and call it?", not the tree's `node.findCaseInsensitivePath` it reaches)."""
        if self.matches[node] >= START_SHARE * best or node in self.joined or node in self.subject:
            return node
        # …reached on its straight path: one it calls only in an error handler or a branch it takes on a
        # condition is the last step of a process `node` decides on (urllib3's `urlopen` calling
        # `Retry.increment` when the connection fails, rq's `handle_job_failure` calling `Job.retry`)
        below = [
            other
            for other in self.reached(node, straight=True)
            if other in eligible
            and other in self.verbed
            and self.matches[other] >= START_SHARE * best
            and any(match in self.reached(other) for match in self.matches)
        ]
        return min(below, key=self._rank, default=node)

    def entry_to(self, node: Node, eligible: Collection[Node]) -> Node:
        """The library's entry (`entries`) that leads to `node` and matches the question nearly as well
        (LEADS_SHARE): the process a user starts begins there (`Axios.request` before the `dispatchRequest`
        it calls, `Viper.Get` before `Viper.find`); `node` itself when it is such an entry or none calls
        it. Of several, the nearest. An entry the start itself reaches is below it, not above (a completion
        callback calling back into the loop that handles the next request: uvicorn's
        `RequestResponseCycle.send` reaches `H11Protocol.handle_events`, which runs the app that sends).
        A start that calls such an entry itself hands the process on to it: the entry starts instead."""
        if node in self.entries:
            return node
        # a wrapper handing the process straight on to the documented entry (marshmallow's `Schema.loads`,
        # which decodes JSON and calls `Schema.load`): the process a user starts begins at the entry
        # (one the process goes on through, calling on to a function that answers too: not a getter or
        # setter it merely uses, pluggy's `Result.get_result` or tenacity's `RetryCallState.set_result`)
        handed = [
            (edge.callee_path, edge.callee)
            for edge in self.calls(node)
            if (edge.callee_path, edge.callee) in self.entries
            and (edge.callee_path, edge.callee) in eligible
            and any(match in self.reached((edge.callee_path, edge.callee)) for match in self.startable)
        ]
        if handed:
            return handed[0]
        entries = [
            other
            for other in eligible
            if other in self.entries
            and node in self.reached(other)
            and other not in self.reached(node)
            and self.matches[other] >= LEADS_SHARE * self.matches[node]
        ]
        return max(
            entries, key=lambda other: (-self.reached(other)[node], self.coverage(other), other), default=node
        )

    def coverage(self, node: Node) -> float:
        """How much of the question `node`'s call tree answers: the words it and the matches below it answer
        (`leads_to`), grown by the matching code it reaches — each match by its score and the share of the
        question's words it answers, DECAY less for each call it lies below, against the best match alone.
        A symbol reaching no other match is weak (LONE), however well it is named: the process does not
        begin at a leaf; one reaching a dozen helpers that share one word gains little from them."""
        reached = sum(
            self.matches[match] * self.words(match) * DECAY**hops
            for match, hops in self.reached(node).items()
            if match in self.matches
        )
        if not reached:
            return self.leads_to(node) * LONE
        return self.leads_to(node) * (1.0 + reached / self.best)

    def words(self, match: Node) -> float:
        """The share of the question's words a match answers."""
        shares = self.answered[match]
        return sum(1 for share in shares if share > 0) / max(1, len(shares))

    def leads_to(self, node: Node) -> float:
        """How much of the question `node` and the matches below it (REACH hops) answer together: each
        question word counted once, by the match answering it best, a match DECAY less for each call it
        lies below; so a start reaching a dozen helpers that share one word with the question does not
        outrank one reaching what the rest of it asks, nor does a far caller outrank the code doing it."""
        return sum(best for best, _ in self.best_below(node))

    def best_below(self, node: Node, *, strictly: bool = False) -> Below:
        """Per question word, the match at or below `node` (`strictly` below it) answering it best, decayed
        by its depth."""
        key = (node, strictly)
        if key not in self._below:
            below = {**({} if strictly else {node: 0}), **self.reached(node)}
            found: Below = []
            for term in range(self.width):
                best, where = 0.0, set()
                for match, hops in below.items():
                    shares = self.answered.get(match)
                    value = shares[term] * DECAY**hops if shares is not None else 0.0
                    if value > best + _TIE:
                        best, where = value, {match}
                    elif value > 0 and abs(value - best) <= _TIE:
                        where.add(match)
                found.append((best, where))
            self._below[key] = found
        return self._below[key]

    def steps(self, start: Node) -> list[tuple[CallEdge, int]]:
        """The calls from `start` towards the matches below it answering the question best (for each of its
        words), depth first in call order, each with its depth below the start (1 for the start's own
        calls). A word the start answers as a method of the question's subject (`subject`) needs no step
        to other methods answering it only as the subject's: the worker's loop answers "worker", and its
        steps go to the job taken off the queue and run, not to every other method of the worker
        (`register_birth`, `check_for_suspension`)."""
        own = self.answered.get(start, ())
        targets = {
            m
            for term, (best, where) in enumerate(self.best_below(start, strictly=True))
            if not (start in self.subject and where <= self.subject and own[term] >= best)
            for m in where
        }
        # from a read loop, first the calls that hand what it reads on to where the words' start is
        found = self.handing(start)
        seen = {start, *((e.callee_path, e.callee) for e, _ in found)}

        def walk(node: Node, depth: int) -> None:
            for edge in self.calls(node):
                callee = (edge.callee_path, edge.callee)
                if len(found) >= MAX_STEPS or callee in seen:
                    continue
                if callee not in targets and not self.toward(node, callee, targets):
                    continue
                seen.add(callee)
                found.append((edge, depth))
                if depth < STEP_DEPTH:
                    walk(callee, depth + 1)

        walk(start, 1)
        return found

    def handing(self, start: Node) -> list[tuple[CallEdge, int]]:
        """The straight calls from a read loop the answer starts at (`read_from`) to the start it hands on
        to, shortest first found in call order, each with its depth; [] from any other start."""
        end = self.handed.get(start)
        if end is None:
            return []
        came: dict[Node, CallEdge] = {}
        frontier = [start]
        for _ in range(READ_HOPS):
            if end in came:
                break
            onward = []
            for here in frontier:
                for edge in self.calls(here):
                    target = (edge.callee_path, edge.callee)
                    if edge.share >= 1.0 and target != start and target not in came:
                        came[target] = edge
                        onward.append(target)
            frontier = onward
        path: list[CallEdge] = []
        node = end
        while node in came:
            path.append(came[node])
            node = (came[node].caller_path, came[node].caller)
        return [(edge, depth) for depth, edge in enumerate(reversed(path), 1)][:MAX_STEPS]

    def toward(self, node: Node, callee: Node, targets: Collection[Node]) -> bool:
        """Does the call from `node` to `callee` lie on a shortest way from `node` to one of `targets`? A
        callee reaching a target only the long way round (the worker's `register_birth`, reaching the queue
        names its caller `bootstrap` reads itself) is a detour, no step."""
        here, there = self.reached(node), self.reached(callee)
        return any(target in there and here.get(target) == there[target] + 1 for target in targets)

    def reached(self, node: Node, *, straight: bool = False, hops: int = REACH) -> dict[Node, int]:
        """The symbols `node`'s calls reach within `hops` (never itself), each with its fewest hops;
        `straight`: through calls on their caller's straight path only (`CallEdge.share`), never one in an
        error handler or a branch a condition guards."""
        key = (node, straight, hops)
        if key not in self._reach:
            seen, frontier = {node: 0}, [node]
            for depth in range(1, hops + 1):
                onward = []
                for here in frontier:
                    for edge in self.calls(here):
                        target = (edge.callee_path, edge.callee)
                        if target not in seen and (not straight or edge.share >= 1.0):
                            seen[target] = depth
                            onward.append(target)
                frontier = onward
            del seen[node]
            self._reach[key] = seen
        return self._reach[key]

    def calls(self, node: Node) -> list[CallEdge]:
        """The calls `node` makes (a class's: its constructor's), one per callee, in line order; a call that
        reports an error or goes into a test or example is no step of the answer."""
        if node not in self._calls:
            path, name = node
            edges = self.graph.calls_of(path, {name, f"{name}.__init__", f"{name}.constructor"})
            distinct: dict[Node, CallEdge] = {}
            for edge in sorted(edges, key=lambda e: e.line):
                short = edge.callee.rsplit(".", 1)[-1]
                if (
                    REPORTS_ERROR.search(short)
                    or is_context_file(edge.callee_path)
                    or (edge.callee_path, edge.callee) in self.aside
                ):
                    continue
                distinct.setdefault((edge.callee_path, edge.callee), edge)
            self._calls[node] = [e for target, e in distinct.items() if target != node]
        return self._calls[node]
