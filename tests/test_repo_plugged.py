"""Where the user's code plugs in (CallEdge.plugged): a call of a handler the user hands to the repository and
a field keeps (gliderlabs/ssh's `sess.handler(sess)`, arpc's `ctx.handlers[i](ctx)`, schedule's
`self.job_func()`, better-queue's `self.fn.call(…)`) is a leaf of the call tree, named for the field, beside
the library's own calls around it; no entry ranking counts it."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.calltree import call_tree, main_line
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import CallGraphView, CallTree

SERVER = {
    "go.mod": "module example.com/srv\n\ngo 1.21\n",
    "server.go": (
        "package srv\n\ntype Session interface {\n\tWrite(b []byte) (int, error)\n}\n\n"
        "type Handler func(s Session)\n\ntype Hook func(s Session) error\n\n"
        "type Server struct {\n\tAddr    string\n\tHandler Handler // the user's\n\thooks   []Hook\n"
        "\tfallback Handler\n\tonClose func(s Session)\n}\n\n"
        "func ListenAndServe(addr string, handler Handler, hooks ...Hook) error {\n"
        "\tsrv := &Server{Addr: addr, Handler: handler, hooks: hooks}\n\treturn srv.Serve()\n}\n\n"
        "func defaultHandler(s Session) {\n\ts.Write(nil)\n}\n\n"
        "func (srv *Server) Serve() error {\n\tsrv.fallback = defaultHandler\n\tsrv.handle(nil)\n\treturn nil\n}\n\n"
        "func (srv *Server) handle(s Session) {\n\tfor i := range srv.hooks {\n\t\tsrv.hooks[i](s)\n\t}\n"
        "\tsrv.greet(s)\n\tsrv.Handler(s)\n\tsrv.fallback(s)\n\tsrv.close(s)\n}\n\n"
        "func (srv *Server) greet(s Session) {\n\tsrv.write(s)\n}\n\n"
        "func (srv *Server) write(s Session) {\n}\n\n"
        "func (srv *Server) close(s Session) {\n}\n"
    ),
}


def _plugged(graph: CallGraphView | None, path: str, caller: str) -> set[str]:
    assert graph is not None
    return {e.callee for e in graph.calls_of(path, {caller}, dispatched=True) if e.plugged}


def _names(tree: list[CallTree] | tuple[CallTree, ...]) -> list[str]:
    return [name for branch in tree for name in (branch.edge.callee, *_names(branch.below))]


def test_a_go_call_of_a_function_field_the_user_fills_is_where_the_user_code_runs(tmp_path: Path) -> None:
    """`srv.Handler(s)` (a field of the package's function type, filled from ListenAndServe's argument) and
    `srv.hooks[i](s)` (an element of a slice of them, which Go's grammar reads as a conversion) run the
    user's code: plugged leaves of the tree under `handle`, beside its own calls, never in the graph's edges;
    `srv.fallback(s)`, where the package stores `defaultHandler`, is a call of that function."""
    root = write_tree(tmp_path / "repo", SERVER)
    facts = extract_facts(root, map_repository(root))
    graph = facts.calls
    assert _plugged(graph, "server.go", "Server.handle") == {"Server.Handler", "Server.hooks"}
    assert graph is not None
    assert not any(e.plugged for e in graph.edges())
    assert ("server.go", "defaultHandler") in {(e.callee_path, e.callee) for e in graph.edges()}
    tree = call_tree(graph, facts.files, ("server.go", "ListenAndServe"))
    line = [edge.callee for edge in main_line(tree)]
    assert line[:3] == ["Server.Serve", "Server.handle", "Server.greet"]
    handle = tree[0].below[0]
    assert {b.edge.callee for b in handle.below if b.edge.plugged} == {"Server.Handler", "Server.hooks"}
    assert {"Server.greet", "Server.close", "defaultHandler"} <= set(_names(handle.below))


SCHEDULER = {
    "sched/__init__.py": "",
    "sched/jobs.py": (
        "import functools\n\n\n"
        "class Job:\n"
        "    def __init__(self, interval, retention=None):\n"
        "        self.interval = interval\n"
        "        self._retention = self._make_retention(retention)\n\n"
        "    def _make_retention(self, retention):\n"
        "        return lambda: retention\n\n"
        "    def do(self, job_func, *args):\n"
        "        self.job_func = functools.partial(job_func, *args)\n"
        "        self.on_done = args or None\n"
        "        return self\n\n"
        "    def run(self):\n"
        "        ret = self.job_func()\n"
        "        self._retention()\n"
        "        self._schedule_next_run()\n"
        "        return ret\n\n"
        "    def _schedule_next_run(self):\n"
        "        self.next_run = self.interval\n\n\n"
        "class Signal:\n"
        "    def connect(self, receiver):\n"
        "        self._receivers.append(receiver)\n\n"
        "    def send(self, sender):\n"
        "        for receiver in self._receivers:\n"
        "            receiver(sender)\n"
    ),
}


def test_a_python_attribute_kept_from_a_parameter_and_called_runs_the_user_code(tmp_path: Path) -> None:
    """schedule's `Job.do` keeps `functools.partial(job_func, …)` as `self.job_func`, which `run` calls: the
    user's job runs there; what a method of the class makes of a parameter
    (`self._make_retention(retention)`) is the library's own function, no plug."""
    root = write_tree(tmp_path / "repo", SCHEDULER)
    facts = extract_facts(root, map_repository(root))
    assert _plugged(facts.calls, "sched/jobs.py", "Job.run") == {"Job.job_func"}
    # the receivers `connect` appends, walked by `send`: each is the user's code
    assert _plugged(facts.calls, "sched/jobs.py", "Signal.send") == {"Signal._receivers"}


QUEUE = {
    "package.json": '{"name": "q", "main": "lib/queue.js"}\n',
    "lib/worker.js": (
        "function Worker(opts) {\n  this.fn = opts.fn;\n  this.batch = opts.batch;\n  this.log = console.log;\n}\n\n"
        "Worker.prototype.start = function () {\n  var self = this;\n"
        "  self.fn.call(self, self.batch, function (err) { self.finish(err) });\n  self.log('started');\n};\n\n"
        "Worker.prototype.finish = function (err) {\n  this.done = true;\n};\n\n"
        "module.exports = Worker;\n"
    ),
    "lib/job.ts": (
        "export class CronJob {\n  private _callbacks: Array<() => void> = [];\n"
        "  constructor(onTick: () => void) {\n    this.addCallback(onTick);\n  }\n"
        "  addCallback(callback: () => void) {\n    this._callbacks.push(callback);\n  }\n"
        "  fireOnTick() {\n    for (const callback of this._callbacks) {\n      callback.call(this);\n    }\n  }\n}\n"
    ),
}


def test_a_js_field_set_from_the_constructor_options_and_called_runs_the_user_code(tmp_path: Path) -> None:
    """better-queue's `Worker` keeps `opts.fn` as `this.fn` and `start` calls `self.fn.call(self, …)`: the
    process function the user gave the queue runs there; `this.log`, set from no parameter, is no plug."""
    root = write_tree(tmp_path / "repo", QUEUE)
    facts = extract_facts(root, map_repository(root))
    assert _plugged(facts.calls, "lib/worker.js", "Worker.start") == {"Worker.fn"}
    # node-cron's `onTick`, pushed onto `this._callbacks` and called walking them
    assert _plugged(facts.calls, "lib/job.ts", "CronJob.fireOnTick") == {"CronJob._callbacks"}


def test_the_flow_list_says_where_the_user_code_runs(tmp_path: Path) -> None:
    """The index page's call tree names the field the user's handler is kept in."""
    from generator.repo.analyze.citations import Linker
    from generator.repo.analyze.describe import flow_branches
    from generator.site.pages.repo_diagrams import flow_tree_markdown

    root = write_tree(tmp_path / "repo", SERVER)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = call_tree(facts.calls, facts.files, ("server.go", "ListenAndServe"))
    linker = Linker({"server.go": 40}, "r" * 40, "https://github.com/acme/srv")
    listed = str(flow_tree_markdown(tuple(flow_branches(tree, linker))))
    assert "- calls your code, kept in `Server.Handler`" in listed
    assert "- calls `Server.greet`" in listed


HOOKS = {
    "hooks/__init__.py": "",
    "hooks/manager.py": (
        "class HookCaller:\n"
        "    def __init__(self, name, hook_execute):\n"
        "        self.name = name\n"
        "        self._hookexec = hook_execute\n\n"
        "    def __call__(self, **kwargs):\n"
        "        return self._hookexec(self.name, kwargs)\n\n\n"
        "class PluginManager:\n"
        "    def add_hookspecs(self, name):\n"
        "        self.hook = HookCaller(name, self._hookexec)\n\n"
        "    def _hookexec(self, name, kwargs):\n"
        "        return [name, kwargs]\n"
    ),
}


def test_a_function_the_repository_itself_keeps_on_an_instance_plugs_nothing_in(tmp_path: Path) -> None:
    """pluggy's shape: `HookCaller(name, self._hookexec)` hands the manager's own method to the attribute
    `__call__` calls, so that call reaches `PluginManager._hookexec` (heldcalls.py), not the user's code."""
    root = write_tree(tmp_path / "repo", HOOKS)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert _plugged(facts.calls, "hooks/manager.py", "HookCaller.__call__") == set()
    called = {e.callee for e in facts.calls.calls_of("hooks/manager.py", {"HookCaller.__call__"})}
    assert "PluginManager._hookexec" in called


def test_a_go_call_of_a_handler_through_a_back_pointer_is_where_the_user_code_runs(tmp_path: Path) -> None:
    """melody's session reads a message and calls the user's handler through its pointer back to the
    instance that keeps it, `s.melody.messageHandler(s, message)`: the flow of a connection stopped at
    `Session.handleMessage`. A field of the struct another field points to is where the user's code plugs in
    too; a method of that struct (`s.hub.count()`) stays an ordinary call."""
    files = {
        "go.mod": "module example.com/ws\n\ngo 1.21\n",
        "hub.go": (
            "package ws\n\ntype handleMessageFunc func(*Session, []byte)\n\n"
            "type Hub struct {\n\tmessageHandler handleMessageFunc\n\tsessions       int\n}\n\n"
            "func New() *Hub {\n\treturn &Hub{messageHandler: func(*Session, []byte) {}}\n}\n\n"
            "func (h *Hub) HandleMessage(fn func(*Session, []byte)) {\n\th.messageHandler = fn\n}\n\n"
            "func (h *Hub) count() int {\n\treturn h.sessions\n}\n"
        ),
        "session.go": (
            "package ws\n\ntype Session struct {\n\thub  *Hub\n\tdata []byte\n}\n\n"
            "func (s *Session) readPump() {\n\ts.handleMessage(s.data)\n}\n\n"
            "func (s *Session) handleMessage(message []byte) {\n\ts.hub.count()\n"
            "\ts.hub.messageHandler(s, message)\n}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert _plugged(facts.calls, "session.go", "Session.handleMessage") == {"Hub.messageHandler"}
    assert facts.calls is not None
    assert ("hub.go", "Hub.count") in {(e.callee_path, e.callee) for e in facts.calls.edges()}


STRUCTS = {
    "package.json": '{"name": "structs", "main": "src/index.ts"}\n',
    "src/struct.ts": (
        "import { run } from './utils'\n\n"
        "export class Struct<T = unknown, S = unknown> {\n  type: string\n  schema: S\n"
        "  validator: (value: unknown, context: Context) => Iterable<Failure>\n"
        "  refiner?: ((value: T, context: Context) => Iterable<Failure>) | undefined\n"
        "  constructor(props: { type: string; schema: S }) {\n    this.type = props.type\n"
        "    this.schema = props.schema\n    this.validator = () => []\n  }\n"
        "  validate(value: unknown) {\n    return validate(value, this)\n  }\n}\n\n"
        "export function validate<T, S>(value: unknown, struct: Struct<T, S>) {\n"
        "  return run(value, struct)\n}\n"
    ),
    "src/utils.ts": (
        "import { Struct } from './struct'\n\n"
        "export function isObject(value: unknown): boolean {\n  return typeof value === 'object'\n}\n\n"
        "export function run<T, S>(value: unknown, struct: Struct<T, S>) {\n"
        "  const ctx = { path: [] }\n  isObject(value)\n  struct.schema(value)\n"
        "  for (const failure of struct.validator(value, ctx)) {\n    return failure\n  }\n"
        "  struct.refiner(value, ctx)\n  return struct.validate(value)\n}\n"
    ),
}


def test_a_ts_call_of_a_function_typed_field_on_a_typed_value_runs_the_code_kept_there(
    tmp_path: Path,
) -> None:
    """superstruct's `run(value, struct: Struct<T, S>)` does its work through the struct's fields,
    `struct.validator(value, ctx)`, `struct.refiner(value, ctx)` (`Struct` declares them with function types):
    the flow `validate → run` stopped at `isObject`. A call of a function-typed field of the class a
    parameter is declared of runs the code kept there (plugged, named `Struct.validator`); a field of no
    function type (`schema: S`) is none, a method (`struct.validate`) stays an ordinary call."""
    root = write_tree(tmp_path / "repo", STRUCTS)
    facts = extract_facts(root, map_repository(root))
    assert _plugged(facts.calls, "src/utils.ts", "run") == {"Struct.validator", "Struct.refiner"}
    assert facts.calls is not None
    called = {
        (e.callee_path, e.callee) for e in facts.calls.calls_of("src/utils.ts", {"run"}) if not e.plugged
    }
    assert called == {("src/utils.ts", "isObject"), ("src/struct.ts", "Struct.validate")}
    assert all(
        e.callee_path == "src/struct.ts" for e in facts.calls.calls_of("src/utils.ts", {"run"}) if e.plugged
    )
    tree = call_tree(facts.calls, facts.files, ("src/struct.ts", "validate"))
    run = tree[0]
    assert run.edge.callee == "run"
    assert {b.edge.callee for b in run.below if b.edge.plugged} == {"Struct.validator", "Struct.refiner"}


def test_a_ts_parameter_property_typed_by_a_function_alias_is_a_function_field(tmp_path: Path) -> None:
    """io-ts's `Type` keeps its operations as constructor parameter properties typed by aliases of function
    types (`constructor(readonly is: Is<A>, …)`, `type Is<A> = (u: unknown) => u is A`): `codec.is(u)` on a
    parameter declared `Type` runs the function kept there; a plain constructor parameter (`check`) is no
    field, a property of no function type (`name: string`) none either."""
    files = {
        "package.json": '{"name": "codecs", "main": "src/index.ts"}\n',
        "src/index.ts": (
            "export type Is<A> = (u: unknown) => u is A\n\n"
            "export class Type<A> {\n"
            "  constructor(readonly name: string, readonly is: Is<A>, check: Is<A>) {}\n"
            "  describe(): string {\n    return this.name\n  }\n}\n\n"
            "export function decode<A>(codec: Type<A>, u: unknown) {\n"
            "  codec.name(u)\n  codec.check(u)\n  codec.describe()\n  return codec.is(u)\n}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert _plugged(facts.calls, "src/index.ts", "decode") == {"Type.is"}
