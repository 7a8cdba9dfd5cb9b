"""Flows that reach the core through what the code hands over rather than calls: a request-handler class
given to a server, protocol classes named by import strings, a factory's instance as the package's default
export, `new` instances in JavaScript, and Go struct fields (typed by a package type, or holding a handler)."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_source_fixture import write_tree

from generator.repo.facts.calltree import main_line
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import CallTree, Facts


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    root = write_tree(tmp_path / "repo", files)
    return extract_facts(root, map_repository(root))


def first_flow(facts: Facts) -> list[str]:
    assert facts.calls is not None
    chain = main_line(facts.calls.tree())
    return [chain[0].caller, *(e.callee for e in chain)]


def tree_names(tree: list[CallTree]) -> list[str]:
    return [name for branch in tree for name in [branch.edge.callee, *tree_names(list(branch.below))]]


def _work(name: str, lines: int = 12) -> str:
    """A method body of `lines` statements, so that it weighs something."""
    return "".join(f"        {name}{i} = {i}\n" for i in range(lines))


# werkzeug's shape: run_simple → make_server → a server class that hands its request-handler class (a
# parameter typed `type[Handler]`) to the standard library's server, which calls the handler's `handle`
WSGI_SERVER = {
    "README.md": "# srv\n\n```python\nfrom srv import run_simple\nrun_simple('localhost', 5000, app)\n```\n",
    "srv/__init__.py": "from .serving import run_simple\n",
    "srv/serving.py": (
        "from __future__ import annotations\n"
        "import socketserver\nimport typing\n\n\n"
        "class RequestHandler(socketserver.StreamRequestHandler):\n"
        "    def handle(self):\n"
        "        environ = self.make_environ()\n"
        "        return self.run_app(environ)\n\n"
        "    def make_environ(self):\n" + _work("env") + "        return {}\n\n"
        "    def run_app(self, environ):\n" + _work("step") + "        return self.server.app(environ)\n\n"
        "    def version(self):\n        return 1\n\n\n"
        "class Server(socketserver.TCPServer):\n"
        "    def __init__(self, host, port, app, handler: type[RequestHandler] | None = None):\n"
        "        if handler is None:\n"
        "            handler = RequestHandler\n"
        "        self.app = app\n"
        "        if isinstance(app, Server):\n"
        "            raise TypeError(app)\n"
        "        typing.cast(Server, app)\n"
        "        super().__init__((host, port), handler)\n\n"
        "    def serve_forever(self):\n        return super().serve_forever()\n\n\n"
        "def make_server(host, port, app) -> Server:\n"
        "    RequestHandler.version(None)\n"
        "    return Server(host, port, app)\n\n\n"
        "def run_simple(host, port, app):\n"
        "    srv = make_server(host, port, app)\n"
        "    srv.serve_forever()\n"
    ),
}


def test_a_handler_class_handed_to_a_server_is_called_back_where_it_does_the_work(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, WSGI_SERVER)
    assert facts.calls is not None
    edges = {(e.caller, e.callee, e.handed) for e in facts.calls.edges(["srv/serving.py"])}
    # the parameter typed type[RequestHandler] hands the class over; isinstance(app, Server) and
    # typing.cast(Server, app) hand nothing
    assert ("Server", "RequestHandler", True) in edges or ("Server.__init__", "RequestHandler", True) in edges
    assert not any(callee == "Server" and handed for _, callee, handed in edges)
    # the receiver calls the methods no code outside the class calls (`version` is make_server's to call)
    handed_methods = {callee for _, callee, handed in edges if handed and "." in callee}
    assert handed_methods == {
        "RequestHandler.handle",
        "RequestHandler.make_environ",
        "RequestHandler.run_app",
    }
    flow = first_flow(facts)
    assert flow[:3] == ["run_simple", "make_server", "Server"]
    # the flow list says the handler is handed over to the server, which calls it back
    from generator.repo.analyze.citations import Linker
    from generator.repo.analyze.describe import flow_branches
    from generator.site.pages.repo_diagrams import flow_tree_markdown

    linker = Linker({path: 40 for path in WSGI_SERVER}, "r" * 40, "https://github.com/acme/srv")
    listed = str(flow_tree_markdown(tuple(flow_branches(facts.calls.tree(), linker))))
    assert "- hands over `RequestHandler." in listed and "- calls `make_server`" in listed
    # make_server is annotated to return a Server: the server it makes serves
    assert ("run_simple", "Server.serve_forever", False) in edges
    reached = set(tree_names(facts.calls.tree()))
    assert {"RequestHandler.handle", "RequestHandler.run_app", "RequestHandler.make_environ"} <= reached


# uvicorn's shape: the protocol classes are named by import strings in a module constant, which the
# settings' `load` reads and hands to a loader; the event loop calls the protocol's `data_received`
ASGI_SERVER = {
    "README.md": "# asrv\n\n```python\nimport asrv\nasrv.run(app)\n```\n",
    "asrv/__init__.py": "from .main import run\n",
    "asrv/main.py": (
        "from asrv.config import Config\n\n\ndef run(app):\n    config = Config(app)\n    config.load()\n"
    ),
    "asrv/config.py": (
        "from asrv.importer import import_from_string\n\n"
        'PROTOCOLS = {\n    "h11": "asrv.protocols.h11:H11Protocol",\n    "other": "not a reference",\n}\n\n\n'
        "class Config:\n"
        "    def __init__(self, app):\n"
        "        self.app = app\n\n"
        "    def load(self):\n"
        '        self.protocol_class = import_from_string(PROTOCOLS["h11"])\n'
    ),
    "asrv/importer.py": (
        "import importlib\n\n\n"
        "def import_from_string(text):\n"
        '    module, _, name = text.partition(":")\n'
        "    return getattr(importlib.import_module(module), name)\n"
    ),
    "asrv/protocols/__init__.py": "",
    "asrv/protocols/h11.py": (
        "import asyncio\n\n\n"
        "class H11Protocol(asyncio.Protocol):\n"
        "    def data_received(self, data):\n"
        "        self.handle_events(data)\n\n"
        "    def handle_events(self, data):\n" + _work("event", 20) + "        return data\n"
    ),
}


def test_a_protocol_class_named_by_an_import_string_is_reached_from_where_the_string_is_read(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, ASGI_SERVER)
    assert facts.calls is not None
    edges = {(e.caller, e.callee, e.handed) for e in facts.calls.edges(["asrv/config.py"])}
    assert ("Config.load", "H11Protocol", True) in edges
    assert ("Config.load", "H11Protocol.data_received", True) in edges
    assert first_flow(facts)[:2] == ["run", "Config.load"]
    assert {"H11Protocol.data_received", "H11Protocol.handle_events"} <= set(tree_names(facts.calls.tree()))
    # a constant of other strings names nothing
    assert not any(callee == "import_from_string" and handed for _, callee, handed in edges)


# got's shape: the package's main is its build output (dist/), the default export is the instance a factory
# makes (`const got = create(defaults)`), and the factory makes a `new Request`, whose flush does the work;
# the package also exports a longer helper, which the README never calls
GOT_LIKE = {
    "package.json": '{"name": "got", "exports": {"types": "./dist/source/index.d.ts", "default": "./dist/source/index.js"}}\n',
    "README.md": "# got\n\n```js\nimport got from 'got';\nconst data = await got('https://x').json();\n```\n",
    "source/index.ts": (
        "import create from './create.js';\nimport {helper} from './helpers.js';\n\n"
        "const defaults = {handlers: []};\n\n"
        "const got = create(defaults);\n\n"
        "export default got;\nexport {helper};\n"
    ),
    "source/create.ts": (
        "import Request from './request.js';\n\n"
        "const create = (defaults: object) => {\n"
        "  const request = new Request(defaults);\n"
        "  request.flush();\n"
        "  return request;\n"
        "};\n\n"
        "export default create;\n"
    ),
    "source/request.ts": (
        "export default class Request {\n"
        "  constructor(options: object) {\n    this.options = options;\n  }\n\n"
        "  flush(): void {\n    this._makeRequest();\n  }\n\n"
        "  _makeRequest(): void {\n" + "".join(f"    const part{i} = {i};\n" for i in range(20)) + "  }\n"
        "}\n"
    ),
    "source/helpers.ts": (
        "export function helper(value: string): string {\n"
        + "".join(f"  const piece{i} = value + {i};\n" for i in range(80))
        + "  return value;\n}\n"
    ),
}


def test_a_factorys_default_export_opens_the_flow_into_the_instances_it_makes(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, GOT_LIKE)
    assert facts.files["source/index.ts"].made_by == {"got": "create"}
    # dist/source/index.js is built from source/index.ts: the package's main module
    assert facts.files["source/index.ts"].is_entry_point
    assert facts.calls is not None
    edges = {(e.caller, e.callee) for e in facts.calls.edges(["source/create.ts"])}
    assert {
        ("create", "Request"),
        ("create", "Request.flush"),
    } <= edges  # `new`, and a method of the instance
    assert facts.calls.entries(limit=1) == [("source/create.ts", "create")]
    assert first_flow(facts) == ["create", "Request.flush", "Request._makeRequest"]


# chi's shape: ServeHTTP calls the handler a field holds (set to a chain ending in routeHTTP), and routeHTTP
# looks the path up in the tree a typed field holds
GO_MUX = {
    "go.mod": "module example.com/mux\n\ngo 1.21\n",
    "mux.go": (
        'package mux\n\nimport "net/http"\n\n'
        "type Mux struct {\n\t// the chained handler\n\thandler http.Handler\n\n\ttree *node\n}\n\n"
        "func (mx *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n\tmx.handler.ServeHTTP(w, r)\n}\n\n"
        "func (mx *Mux) build() {\n\tmx.handler = chain(http.HandlerFunc(mx.routeHTTP))\n}\n\n"
        "func (mx *Mux) routeHTTP(w http.ResponseWriter, r *http.Request) {\n"
        "\th := mx.tree.findRoute(r.URL.Path)\n\th.ServeHTTP(w, r)\n}\n\n"
        "func chain(h http.Handler) http.Handler {\n\treturn h\n}\n"
    ),
    "tree.go": (
        'package mux\n\nimport "net/http"\n\n'
        "type node struct{ children []*node }\n\n"
        "func (n *node) findRoute(path string) http.Handler {\n"
        + "".join(f"\tstep{i} := {i}\n\t_ = step{i}\n" for i in range(12))
        + "\treturn nil\n}\n"
    ),
}


def test_a_go_call_through_a_struct_field_reaches_the_handler_it_holds_and_its_typed_field(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, GO_MUX)
    assert facts.calls is not None
    edges = {(e.caller, e.callee) for e in facts.calls.edges(["mux.go"])}
    assert ("Mux.ServeHTTP", "Mux.routeHTTP") in edges  # mx.handler holds chain(…(mx.routeHTTP))
    assert ("Mux.routeHTTP", "node.findRoute") in edges  # mx.tree is a *node
    assert ("Mux.build", "chain") in edges and (
        "Mux.ServeHTTP",
        "chain",
    ) not in edges  # chain is called there
    assert first_flow(facts) == ["Mux.ServeHTTP", "Mux.routeHTTP", "node.findRoute"]


def test_the_flow_list_says_a_handed_over_value_is_handed_over_not_called() -> None:
    from generator.repo.model import FlowBranch, FlowHop
    from generator.site.pages.repo_diagrams import flow_tree_markdown

    tree = (
        FlowBranch(
            FlowHop("Config.load", "import_from_string"),
            (),
        ),
        FlowBranch(
            FlowHop("Config.load", "H11Protocol.data_received", handed=True),
            (FlowBranch(FlowHop("H11Protocol.data_received", "H11Protocol.handle_events")),),
        ),
    )
    assert str(flow_tree_markdown(tree)).splitlines() == [
        "- `Config.load`",
        "    - calls `import_from_string`",
        "    - hands over `H11Protocol.data_received`",
        "        - calls `H11Protocol.handle_events`",
    ]


def test_the_flow_list_says_a_with_statement_runs_the_enter_it_starts_at() -> None:
    from generator.repo.model import FlowBranch, FlowHop
    from generator.site.pages.repo_diagrams import flow_tree_markdown

    tree = (FlowBranch(FlowHop("Connection.__enter__", "Connection.connect"), ()),)
    assert str(flow_tree_markdown(tree)).splitlines() == [
        "- `Connection.__enter__` — what a `with` block on a `Connection` runs first",
        "    - calls `Connection.connect`",
    ]
    tree = (FlowBranch(FlowHop("connect.__aenter__", "connect.connect"), ()),)
    assert str(flow_tree_markdown(tree)).splitlines()[0] == (
        "- `connect.__aenter__` — what an `async with` block on a `connect` runs first"
    )


# hono's shape: the base class matches with `this.router`, which its subclass (another file, importing the
# base under an alias) sets to a new SmartRouter in its constructor; a class's own constructor may set one too
JS_FIELDS = {
    "package.json": '{"name": "web", "main": "src/index.ts"}\n',
    "src/index.ts": "export { App } from './app'\n",
    "src/base.ts": (
        "import { Store } from './store'\n\n"
        "class App {\n"
        "  constructor() {\n    this.store = new Store()\n  }\n\n"
        "  fetch(request: Request) {\n    const found = this.router.match(request.url)\n"
        "    return this.store.read(found)\n  }\n"
        "}\n\nexport { App as AppBase }\n"
    ),
    "src/app.ts": (
        "import { AppBase } from './base'\nimport { SmartRouter } from './smart'\nimport { TrieRouter } from './trie'\n\n"
        "export class App extends AppBase {\n"
        "  constructor(options = {}) {\n    super()\n"
        "    this.router = options.router ?? new SmartRouter({ routers: [new TrieRouter()] })\n  }\n}\n"
    ),
    "src/smart.ts": "export class SmartRouter {\n  match(path: string) {\n    return path\n  }\n}\n",
    "src/trie.ts": "export class TrieRouter {\n  match(path: string) {\n    return path\n  }\n}\n",
    "src/store.ts": "export class Store {\n  read(key: string) {\n    return key\n  }\n}\n",
}


def test_a_js_field_given_an_instance_calls_that_instances_class_even_from_a_subclasss_constructor(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, JS_FIELDS)
    assert facts.calls is not None
    edges = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges(["src/base.ts"])}
    assert ("App.fetch", "src/smart.ts", "SmartRouter.match") in edges  # set by the subclass
    assert ("App.fetch", "src/store.ts", "Store.read") in edges  # set by the class itself
    assert not any(callee == "TrieRouter.match" for _, _, callee in edges)  # handed to the router, not kept


def test_a_registry_class_in_a_test_file_is_no_caller(tmp_path: Path) -> None:
    """Code proper registering a function with a class that lives in a test folder (read for its facts,
    never for its calls) gives that class's lookups no edges: the call graph is built, not a KeyError."""
    facts = facts_of(
        tmp_path,
        {
            "app/main.py": (
                "from tests.support.factory import Factory\n\n\n"
                "def work(x):\n    return x\n\n\n"
                "def setup():\n    Factory.register('w', work)\n"
            ),
            "tests/support/factory.py": (
                "class Factory:\n    items = {}\n\n"
                "    @classmethod\n    def register(cls, name, fn):\n        cls.items[name] = fn\n\n"
                "    @classmethod\n    def create(cls, name):\n        return cls.items[name]\n"
            ),
        },
    )
    assert facts.calls is not None
    callers = {(e.caller_path, e.caller) for e in facts.calls.edges()}
    assert ("app/main.py", "setup") in callers
    assert not any(path == "tests/support/factory.py" for path, _ in callers)


# agenda's shape: a job handed in as a typed parameter (through an alias adding fields to the class), a
# typed local, and fields declared with their type (a field, a constructor's parameter property)
TS_TYPED = {
    "package.json": '{"name": "jobs", "main": "src/index.ts"}\n',
    "src/index.ts": "export { Processor } from './processor'\n",
    "src/job.ts": (
        "export class Job {\n  run() {\n    return 1\n  }\n  save() {\n    return 2\n  }\n}\n\n"
        "export type JobWithId = Job & { id: string };\n"
    ),
    "src/queue.ts": "export class Queue {\n  next(): string {\n    return 'a'\n  }\n}\n",
    "src/log.ts": "export class Log {\n  write(line: string) {\n    return line\n  }\n}\n",
    "src/processor.ts": (
        "import { Job, JobWithId } from './job'\nimport { Queue } from './queue'\nimport { Log } from './log'\n\n"
        "export class Processor {\n  private log: Log;\n\n"
        "  constructor(private queue: Queue) {}\n\n"
        "  runOrRetry(job: JobWithId | undefined, count: number) {\n    job.run()\n"
        "    const later: Job = this.make()\n    later.save()\n"
        "    this.log.write(this.queue.next())\n  }\n\n"
        "  untyped(job) {\n    job.run()\n  }\n\n"
        "  make() {\n    return null\n  }\n}\n"
    ),
}


def test_a_ts_call_on_a_typed_parameter_local_or_field_calls_the_declared_classs_method(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, TS_TYPED)
    assert facts.calls is not None
    edges = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges(["src/processor.ts"])}
    assert ("Processor.runOrRetry", "src/job.ts", "Job.run") in edges  # through `type JobWithId = Job & …`
    assert ("Processor.runOrRetry", "src/job.ts", "Job.save") in edges  # `const later: Job`
    assert ("Processor.runOrRetry", "src/log.ts", "Log.write") in edges  # `private log: Log;`
    assert (
        "Processor.runOrRetry",
        "src/queue.ts",
        "Queue.next",
    ) in edges  # `constructor(private queue: Queue)`
    assert not any(caller == "Processor.untyped" and callee == "Job.run" for caller, _, callee in edges)


# needle's shape: the exported `request` makes a Needle and starts it in one expression, and the prototype's
# methods call each other through `var self = this` from the callbacks they hand on
NEEDLE = {
    "package.json": '{"name": "needle", "main": "lib/needle.js"}\n',
    "lib/needle.js": (
        "function Needle(method, uri) {\n  this.method = method;\n  this.uri = uri;\n}\n\n"
        "Needle.prototype.start = function() {\n"
        "  var self = this, body = null;\n"
        "  setTimeout(function() {\n    self.send_request(1, body);\n  }, 0);\n"
        "  return body;\n};\n\n"
        "Needle.prototype.send_request = function(count, body) {\n"
        "  var self = this;\n"
        "  return self.should_follow(count) ? self.send_request(count + 1, body) : body;\n};\n\n"
        "Needle.prototype.should_follow = function(count) {\n  return count < 3;\n};\n\n"
        "module.exports.request = function(method, uri) {\n"
        "  return new Needle(method, uri).start();\n};\n\n"
        "module.exports.size = function(uri) {\n  return new Date().getTime() + uri.length;\n};\n"
    ),
}


def test_a_js_method_called_on_a_new_instance_or_through_an_alias_of_this_is_its_classs(
    tmp_path: Path,
) -> None:
    """needle: `new Needle(…).start()` reached only the constructor and `self.send_request(…)` (after `var
    self = this`) nothing, so the flow opened at a querystring helper instead of `request → Needle.start →
    Needle.send_request`."""
    facts = facts_of(tmp_path, NEEDLE)
    assert facts.calls is not None
    edges = {(e.caller, e.callee) for e in facts.calls.edges(["lib/needle.js"])}
    assert ("request", "Needle.start") in edges
    assert ("Needle.start", "Needle.send_request") in edges  # from the callback it hands on
    assert ("Needle.send_request", "Needle.should_follow") in edges
    assert not any(caller == "size" for caller, _ in edges)  # `new Date()` is no repository class


# bunyan's shape: a constructor function sets its object up through its own prototype's methods
BUNYAN = {
    "package.json": '{"name": "bunyan", "main": "lib/bunyan.js"}\n',
    "lib/bunyan.js": (
        "function Logger(options) {\n  var self = this;\n  this.streams = [];\n"
        "  (options.streams || []).forEach(function (s) {\n    self.addStream(s);\n  });\n"
        "  this.level(options.level);\n}\n\n"
        "Logger.prototype.addStream = function addStream(s) {\n  this.streams.push(s);\n};\n\n"
        "Logger.prototype.level = function level(value) {\n  this._level = value;\n};\n\n"
        "function helper() {\n  this.level(1);\n}\n\n"
        "module.exports = Logger;\nmodule.exports.helper = helper;\n"
    ),
}


def test_a_js_constructor_functions_calls_through_this_are_its_prototypes_methods(tmp_path: Path) -> None:
    """bunyan: `function Logger(…)` calls `self.addStream(s)` and `this.level(…)`, its prototype's methods;
    the calls resolved only in those methods, so the flow opened at `Logger.addStream`, below the door."""
    facts = facts_of(tmp_path, BUNYAN)
    assert facts.calls is not None
    edges = {(e.caller, e.callee) for e in facts.calls.edges(["lib/bunyan.js"])}
    assert ("Logger", "Logger.addStream") in edges  # through `var self = this`, from a callback
    assert ("Logger", "Logger.level") in edges
    assert not any(caller == "helper" for caller, _ in edges)  # no prototype of its own: `this` is unknown


# bunyan's shape: the level methods are made by a function (`Logger.prototype.info = mkLogEmitter(INFO)`),
# whose returned function logs through `this`
BUNYAN_LEVELS = {
    "package.json": '{"name": "bunyan", "main": "lib/bunyan.js"}\n',
    "lib/bunyan.js": (
        "function Logger(options) {\n  this.streams = [];\n}\n\n"
        "Logger.prototype._emit = function (rec) {\n  this.streams.forEach(function (s) { s.write(rec); });\n};\n\n"
        "function mkRecord(args) {\n  return { msg: args[0] };\n}\n\n"
        "function mkLogEmitter(level) {\n  return function () {\n"
        "    var rec = mkRecord(arguments);\n    this._emit(rec);\n  };\n}\n\n"
        "function plain() {\n  this._emit(1);\n}\n\n"
        "Logger.prototype.info = mkLogEmitter(30);\n"
        "Logger.prototype.warn = mkLogEmitter(40);\n\n"
        "module.exports = Logger;\nmodule.exports.plain = plain;\n"
    ),
}


def test_a_js_method_a_function_makes_is_a_method_and_its_this_is_the_class(tmp_path: Path) -> None:
    """bunyan: `Logger.prototype.info = mkLogEmitter(INFO)` defined no `Logger.info`, so the examples'
    `log.info(…)` led nowhere and `this._emit(rec)` in the function mkLogEmitter returns resolved to nothing:
    the flow opened at the set-up (`Logger → addStream`), never reaching `_emit`."""
    facts = facts_of(tmp_path, BUNYAN_LEVELS)
    assert facts.calls is not None
    symbols = {s.name: s for s in facts.files["lib/bunyan.js"].symbols}
    assert symbols["Logger.info"].kind == "method" and symbols["Logger.info"].parent == "Logger"
    edges = {(e.caller, e.callee) for e in facts.calls.edges(["lib/bunyan.js"])}
    assert ("Logger.info", "mkLogEmitter") in edges and ("Logger.warn", "mkLogEmitter") in edges
    assert ("mkLogEmitter", "Logger._emit") in edges  # `this` in the method it makes
    assert not any(caller == "plain" for caller, _ in edges)  # a function making no method: `this` unknown


def test_the_flow_list_tells_side_by_side_implementations_of_one_name_by_their_file() -> None:
    """anyio's task flow listed "calls the implementation `Event.set` — `src/anyio/_core/_tasks.py:331`" three
    times, word for word: its core, asyncio and trio classes, all named Event. Calls side by side that go by
    one name say the file defining each; a name called once says nothing more."""
    from generator.repo.model import FlowBranch, FlowHop
    from generator.site.pages.repo_diagrams import flow_tree_markdown

    def implementation(path: str) -> FlowBranch:
        return FlowBranch(FlowHop("TaskHandle._run", "Event.set", dispatched=True, callee_path=path))

    tree = (
        FlowBranch(
            FlowHop("TaskGroup.start_soon", "TaskHandle._run", callee_path="src/tasks.py"),
            (implementation("src/_backends/_asyncio.py"), implementation("src/_backends/_trio.py")),
        ),
    )
    assert str(flow_tree_markdown(tree)).splitlines() == [
        "- `TaskGroup.start_soon`",
        "    - calls `TaskHandle._run`",
        "        - calls the implementation `Event.set` in `src/_backends/_asyncio.py`",
        "        - calls the implementation `Event.set` in `src/_backends/_trio.py`",
    ]


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("Connection.__enter__", "what a `with` block on a `Connection` runs first"),
        (
            "ByteReceiveStream.__anext__",
            "what each step of an `async for` loop over a `ByteReceiveStream` runs",
        ),
        ("Reader.__iter__", "what a `for` loop over a `Reader` runs first"),
        ("App.__call__", "what calling an `App` runs"),
    ],
)
def test_the_flow_list_says_what_runs_a_special_method(entry: str, said: str) -> None:
    """anyio's Streams page opened its code on `ByteReceiveStream.__anext__` with no word of what runs it: a
    special method the user never calls by name says which statement on its class runs it."""
    from generator.repo.model import FlowBranch, FlowHop
    from generator.site.pages.repo_diagrams import flow_tree_markdown

    first = str(flow_tree_markdown((FlowBranch(FlowHop(entry, "read"), ()),))).splitlines()[0]
    assert first == f"- `{entry}` — {said}"


# ormar's shape: a field helper hands the model class (a parameter typed `type[Model]`) to a function of the
# repository that only asks it its name; the model's `save` and `load_all` are nobody's callbacks. A class
# handed to a repository function that passes it on to a server is still called back
MODEL_HELPERS = {
    "orm/__init__.py": "",
    "orm/models.py": (
        "class Model:\n"
        "    def save(self):\n" + _work("saved") + "        return self\n\n"
        "    def load_all(self):\n" + _work("loaded") + "        return self\n\n"
        "    @classmethod\n"
        "    def get_name(cls):\n        return cls.__name__\n"
    ),
    "orm/fields.py": (
        "import socketserver\n"
        "from orm.models import Model\n\n\n"
        "def create_dummy_model(base_model, pk_field):\n"
        "    return (base_model.get_name(), base_model.__module__, pk_field)\n\n\n"
        "def serve(handler):\n"
        "    return socketserver.TCPServer(('', 0), handler)\n\n\n"
        "def populate(to: type[Model], nullable):\n"
        "    dummy = create_dummy_model(to, nullable)\n"
        "    return dummy\n\n\n"
        "def run(to: type[Model]):\n"
        "    return serve(to)\n"
    ),
}


def test_a_class_handed_to_a_function_that_only_reads_it_is_not_called_back(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, MODEL_HELPERS)
    assert facts.calls is not None
    edges = {(e.caller, e.callee, e.handed) for e in facts.calls.edges(["orm/fields.py"])}
    assert ("populate", "create_dummy_model", False) in edges
    assert not {callee for caller, callee, handed in edges if caller == "populate" and handed}
    # `serve` passes its handler on to the standard library's server, which calls it back
    assert {"Model", "Model.save", "Model.load_all"} <= {
        callee for caller, callee, handed in edges if caller == "run" and handed
    }
