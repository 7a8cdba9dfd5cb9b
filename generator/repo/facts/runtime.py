"""Set-up and the call made at run time, told apart by what functions do rather than by their names.

A set-up call stores what it is given into its object's fields or collections (`self._router.add_route(…)`
ending in `self._find = …`, `w.handlers[name] = h`), builds objects, spawns a goroutine, task or thread, and
returns; the work happens later, in the function a server, loop or user calls per request, job or message —
the one that reads what the set-up stored (falcon's `App.__call__` reaching the router's `find`), or the one
the set-up spawned (`go w.loop()`, `loop.create_task(self.main())`, `tokio::spawn(…)`,
`Thread(target=self.run)`).

Both are read from each function's own lines: the fields of its receiver (`self`, `this`, a Go receiver's
name) it stores and reads, and the lines where it spawns a call. flows.py moves the run-time call before the
set-up that leads the entry ranking; the answer walk (synthesize/answer_steps.py) starts where it runs.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from generator.repo.model import CallEdge, FileFacts, Symbol

Node = tuple[str, str]  # (path, qualified symbol)

# a receiver's field stored: assigned (also an element of it, or augmented), or a collection grown in place
_STORED_BY_ASSIGNMENT = r"\.(\w+)(?:\[[^\]\n]*\])*\s*(?:[-+*/|&]|\?\?|\|\|)?=(?![=>])"
_GROWN = (
    r"\.(\w+)\.(?:append|extend|insert|add|push|push_back|emplace|unshift|set|setdefault|update|put|Store"
    r"|PushBack|PushFront)\s*\("
)
# …an element stored in it (`self.routes[path] = handler`): what a table or list of registered things holds
_STORED_IN = r"\.(\w+)(?:\[[^\]\n]*\])+\s*=(?![=>])"
# a call spawned to run later: a goroutine, an asyncio task, a thread or process, a tokio/std task
SPAWNS = {
    "go": re.compile(r"^\s*go\s+[\w.(]"),
    "python": re.compile(
        r"\b(?:create_task|ensure_future|start_soon|start_new_thread|run_in_executor)\s*\("
        r"|\b(?:Thread|Process|Timer)\s*\([^)]*\btarget\s*="
    ),
    "rust": re.compile(r"\b(?:spawn|spawn_blocking|spawn_local)\s*\("),
}
# JavaScript's timers and queues run a callback later, as a goroutine does (bull's `process.nextTick(() =>
# this._processJobOnNextTick(…))`, agenda's `setInterval(() => this.process(), …)`)
SPAWNS["javascript"] = re.compile(
    r"\b(?:setInterval|setTimeout|setImmediate|queueMicrotask|process\.nextTick)\s*\("
)
SPAWNS["typescript"] = SPAWNS["tsx"] = SPAWNS["javascript"]
# a spawn line opening a closure's body (`go func() {`, `tokio::spawn(async move {`, `setTimeout(() => {`):
# the calls of the body, up to the line closing it, run later too
_OPENS_BODY = re.compile(r"(?:\{|=>|\()\s*$")
# a call reading input: a method or function named for reading or receiving (`read`, `recv`, `ReadPacket`,
# `read_frame`, `receive`), not one named for what it reads about (`already_read`)
_READS = re.compile(r"(?:^|[\s.(=!])_*(?:[Rr]ead|[Rr]ecv|[Rr]eceive)\w*\s*\(")
# the receiver by language: Python's first parameter, Go's named receiver, `self`/`this` elsewhere
_PY_RECEIVER = re.compile(r"def\s+\w+\s*\(\s*(\w+)")
_GO_RECEIVER = re.compile(r"func\s*\(\s*(\w+)\s+\*?\s*[\w.\[\]]+\s*\)")
_THIS = frozenset({"javascript", "typescript", "tsx", "java", "kotlin", "csharp", "c_sharp", "scala", "php"})
# a setter's statements: a store into the receiver (`self.x = x`, `s.header[k] = v`), a call storing through a
# field's object (`self.base_settings.set_follow_redirects(x)`), handing the receiver back (`return self`,
# Rust's tail `self`) or a bare `return`
_SETTER_STORE = r"(?:\.\w+)+(?:\[[^\]\n]*\])*\s*=(?![=>])"
_SETTER_DELEGATE = r"(?:\.\w+)+\.(\w+)\s*\(.*\)"
_SETS = re.compile(r"^_*[Ss]et(?:[A-Z_]|$)")  # `set_follow_redirects`, `SetHeader`, `setTimeout`
SETTER_STATEMENTS = 3  # a setter stores one choice, maybe two, and returns


@dataclass(frozen=True)
class FieldUse:
    """What one function does with its receiver's fields, each named `Owner.field`, and where it spawns."""

    stores: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()
    registers: frozenset[str] = frozenset()
    """The stored fields that are tables or lists grown in place (`self.handlers.append(h)`)."""
    spawn_lines: frozenset[int] = frozenset()
    delegates: frozenset[tuple[int, str]] = frozenset()
    """(line, field) of each call of a method of the object a field holds (`self._router.add_route(…)`)."""
    aliases: tuple[tuple[str, str], ...] = ()
    """A field keeping a bound method of another's object (`self._router_search = self._router.find`)."""


NOTHING = FieldUse()


def only_sets(language: str, own: str, body: list[str]) -> bool:
    """Does a method's body (its lines, signature first) only store into its receiver `own` and hand it
    back: one to SETTER_STATEMENTS statements, at least one a store?"""
    statements = _statements(language, body)
    if not own or not 0 < len(statements) <= SETTER_STATEMENTS:
        return False
    name = re.escape(own)
    store = re.compile(rf"^{name}{_SETTER_STORE}")
    delegate = re.compile(rf"^{name}{_SETTER_DELEGATE}$")
    handed_back = re.compile(rf"^(?:return|(?:return\s+)?{name})$")
    returns_self = any(handed_back.match(s) and s != "return" for s in statements)
    # a call on a field's object stores when it is named for setting, or the receiver is handed back
    # after it (a builder's option); else it forwards (`self.sock.sendall(data)`)
    stores = [
        s
        for s in statements
        if store.match(s) or ((found := delegate.match(s)) and (returns_self or _SETS.match(found.group(1))))
    ]
    return bool(stores) and all(s in stores or handed_back.match(s) for s in statements)


def _statements(language: str, body: list[str]) -> list[str]:
    """The statements of a function's body (its lines, signature first), a docstring, comments and braces
    left out; [] when they cannot be told."""
    if language == "python":
        try:
            tree = ast.parse(textwrap.dedent("\n".join(body)))
        except SyntaxError:
            return []
        function = tree.body[0] if tree.body else None
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return []
        code = function.body[1:] if ast.get_docstring(function) is not None else function.body
        return [ast.unparse(statement) for statement in code]
    text = "\n".join(re.sub(r"//.*", "", line) for line in body)
    inside = text[text.find("{") + 1 : text.rfind("}")] if "{" in text else ""
    *ended, tail = inside.split(";")
    if language == "rust" and tail.strip():  # the tail expression is what the function returns
        tail = f"return {tail.strip()}"
    # a line a statement (a statement over several lines is no setter's)
    pieces = (piece.strip().strip("{}").strip() for part in [*ended, tail] for piece in part.splitlines())
    return [piece for piece in pieces if piece]


def receiver(language: str, first_line: str) -> str:
    """The name a method's own object goes by in its body ("" when it has none or it cannot be told)."""
    if language == "python":
        found = _PY_RECEIVER.search(first_line)
        return found.group(1) if found and found.group(1) not in {"cls", "mcs", "metacls"} else ""
    if language == "go":
        found = _GO_RECEIVER.search(first_line)
        return found.group(1) if found else ""
    if language == "rust":
        return "self"
    return "this" if language in _THIS else ""


def field_use(language: str, symbol: Symbol, lines: list[str]) -> FieldUse:
    """The fields of its receiver `symbol`'s lines store and read (`Owner.field`), and the lines where it
    spawns a call; NOTHING for a function without a receiver in a language with no spawn form known."""
    body = lines[symbol.start - 1 : symbol.end]
    if not body:
        return NOTHING
    spawn = SPAWNS.get(language)
    spawn_lines = frozenset(
        symbol.start + i
        for at, line in enumerate(body)
        if spawn is not None and spawn.search(line)
        for i in _spawned_span(body, at)
    )
    signature = " ".join(re.sub(r"(?:#|//).*", "", line) for line in body[:3])
    own = receiver(language, signature) if symbol.parent else ""
    if not own:
        return FieldUse(spawn_lines=spawn_lines)
    name = re.escape(own)
    stored_at = re.compile(rf"(?<![\w.]){name}{_STORED_BY_ASSIGNMENT}|(?<![\w.]){name}{_GROWN}")
    mentioned = re.compile(rf"(?<![\w.]){name}\.(\w+)")
    grown = re.compile(rf"(?<![\w.]){name}{_STORED_IN}|(?<![\w.]){name}{_GROWN}")
    delegated = re.compile(rf"(?<![\w.]){name}\.(\w+)\.\w+\s*\(")
    alias = re.compile(rf"^\s*{name}\.(\w+)\s*=\s*{name}\.(\w+)\.\w+\s*$")
    owner = symbol.parent
    stores: set[str] = set()
    reads: set[str] = set()
    registers: set[str] = set()
    delegates: set[tuple[int, str]] = set()
    aliases: list[tuple[str, str]] = []
    for at, line in enumerate(body[1:], start=symbol.start + 1):
        text = line.split("//", 1)[0] if language != "python" else line.split("#", 1)[0]
        taken = set()
        here: set[str] = set()  # stored on this line: its old value read there is what is grown
        for match in stored_at.finditer(text):
            here.add(match.group(1) or match.group(2))
            taken.add(match.start())
        stores.update(f"{owner}.{field}" for field in here)
        registers.update(f"{owner}.{m.group(1) or m.group(2)}" for m in grown.finditer(text))
        for match in delegated.finditer(text):  # a read or a store, by what the method called does
            if match.start() in taken:
                continue  # a collection grown in place
            delegates.add((at, f"{owner}.{match.group(1)}"))
            taken.add(match.start())
        reads.update(
            f"{owner}.{m.group(1)}"
            for m in mentioned.finditer(text)
            if m.start() not in taken and m.group(1) not in here
        )
        if kept := alias.match(text):
            aliases.append((f"{owner}.{kept.group(1)}", f"{owner}.{kept.group(2)}"))
    return FieldUse(
        frozenset(stores),
        frozenset(reads),
        frozenset(registers),
        spawn_lines,
        frozenset(delegates),
        tuple(aliases),
    )


def _spawned_span(body: list[str], at: int) -> range:
    """The lines of `body` a spawn on line `at` runs: that line, and the body of a closure it opens, to the
    line closing it (the first one indented no deeper than the spawn's)."""
    if not _OPENS_BODY.search(re.sub(r"\s*(?://|#).*$", "", body[at])):
        return range(at, at + 1)
    depth = len(body[at]) - len(body[at].lstrip())
    end = at + 1
    while end < len(body) and (not body[end].strip() or len(body[end]) - len(body[end].lstrip()) > depth):
        end += 1
    return range(at, min(end + 1, len(body)))


class RunTime:
    """Each function's field use and spawned calls, read once from its lines when first asked."""

    def __init__(
        self,
        files: dict[str, FileFacts],
        read: Callable[[str], str | None],
        calls: Callable[[Node], list[CallEdge]],
    ) -> None:
        self.files, self._read, self._calls = files, read, calls
        self._lines: dict[str, list[str]] = {}
        self._use: dict[Node, FieldUse] = {}
        self._workers: set[Node] | None = None

    def use(self, node: Node) -> FieldUse:
        if node not in self._use:
            path, name = node
            fact = self.files.get(path)
            # its implementation, not an overload's stub
            named = [s for s in fact.symbols if s.name == name] if fact is not None else []
            symbol = max(named, key=lambda s: (not s.stub, s.lines), default=None)
            if fact is None or symbol is None or symbol.kind == "class":
                self._use[node] = NOTHING
            else:
                if path not in self._lines:
                    self._lines[path] = (self._read(path) or "").splitlines()
                self._use[node] = field_use(fact.language, symbol, self._lines[path])
        return self._use[node]

    def sets(self, node: Node) -> bool:
        """Does the method only store into its receiver and hand it back (`only_sets`: a setter, a builder's
        option — `self.base_settings.set_follow_redirects(follow); self`)? It keeps a choice a later call
        acts on."""
        path, name = node
        fact = self.files.get(path)
        symbol = next((s for s in fact.symbols if s.name == name), None) if fact is not None else None
        if fact is None or symbol is None or not symbol.parent or symbol.kind == "class":
            return False
        if path not in self._lines:
            self._lines[path] = (self._read(path) or "").splitlines()
        body = self._lines[path][symbol.start - 1 : symbol.end]
        signature = " ".join(re.sub(r"(?:#|//).*", "", line) for line in body[:3])
        return only_sets(fact.language, receiver(fact.language, signature), body)

    def spawned(self, node: Node) -> list[Node]:
        """The functions `node` spawns to run later (`go w.loop()`, `create_task(self.main())`,
        `Thread(target=self.run)`), in line order."""
        at = self.use(node).spawn_lines
        if not at:
            return []
        found = [(edge.callee_path, edge.callee) for edge in self._calls(node) if edge.line in at]
        return list(dict.fromkeys(found))

    def workers(self) -> set[Node]:
        """The functions the repository spawns to run on their own (a read loop's task, a goroutine, a
        thread's target): what comes in over a connection is handled there, not in a user's call."""
        if self._workers is None:
            self._workers = {
                worker
                for path, fact in self.files.items()
                for symbol in fact.symbols
                if symbol.kind != "class"
                for worker in self.spawned((path, symbol.name))
            }
        return self._workers

    def reads_input(self, node: Node) -> bool:
        """Does the function read what comes in: call a reader (`self._transport.read(…)`, `conn.Recv()`,
        `packets.ReadPacket(c)`, `ws.receive()`) on its own lines?"""
        path, name = node
        fact = self.files.get(path)
        symbol = next((s for s in fact.symbols if s.name == name), None) if fact is not None else None
        if symbol is None:
            return False
        if path not in self._lines:
            self._lines[path] = (self._read(path) or "").splitlines()
        body = self._lines[path][symbol.start : symbol.end]
        return any(_READS.search(line) for line in body)

    def stores(self, nodes: Iterable[Node]) -> set[str]:
        """The fields the functions `nodes` store, and those holding an object they store into: a call of
        a method of a field's object (`self._router.add_route(…)`) that is among `nodes` and stores."""
        nodes = set(nodes)
        return {field for node in nodes for field in self._fields(node, nodes, stored=True)}

    def reads(self, nodes: Iterable[Node]) -> set[str]:
        """The fields the functions `nodes` read (a call of a method of a field's object that stores
        nothing among `nodes` reads it), a field keeping a bound method of another's object (its class's
        constructor says so: `self._router_search = self._router.find`) read as that one."""
        nodes = set(nodes)
        return {field for node in nodes for field in self._fields(node, nodes, stored=False)}

    def left(self, nodes: Iterable[Node]) -> set[str]:
        """What the functions `nodes` register for later: the tables and lists they grow and the objects
        held in fields they store into (`self._router.add_route(…)`), none of them reading it back. A call
        doing its work keeps state it reads on (parsed flags, a pool's connections), or sets a plain
        value; a set-up call registers and returns."""
        nodes = set(nodes)
        kept: set[str] = set()
        read: set[str] = set()
        for node in nodes:
            stored = self._fields(node, nodes, stored=True)
            kept |= self.use(node).registers | (stored - self.use(node).stores)
            read |= self._fields(node, nodes, stored=False)
        return kept - read

    def _fields(self, node: Node, nodes: set[Node], *, stored: bool) -> set[str]:
        """The fields `node` stores (or reads), a call of a method of a field's object storing into it
        when the method is among `nodes` and stores."""
        use = self.use(node)
        owner = node[1].rpartition(".")[0]
        kept = dict(self.use((node[0], f"{owner}.__init__")).aliases) if owner and not stored else {}
        found = {kept.get(field, field) for field in (use.stores if stored else use.reads)}
        if use.delegates:
            storing = {
                edge.line
                for edge in self._calls(node)
                if (edge.callee_path, edge.callee) in nodes
                and self.use((edge.callee_path, edge.callee)).stores
            }
            found.update(field for line, field in use.delegates if (line in storing) == stored)
        return found

    def prepares(self, setup: Iterable[Node], run: Iterable[Node]) -> set[str]:
        """The fields the calls of `setup` store that those of `run` read: what the set-up leaves for the
        run-time call (a route table, a handler list, a compiled finder)."""
        return self.stores(setup) & self.reads(run)
