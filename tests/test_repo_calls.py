"""The static call graph: Python calls resolved through imports, self, class attributes, annotations and
receivers named after classes; Go and JavaScript through tree-sitter; main paths from the public entry
points; the graph of every source module read once, each file's calls independent of the order read."""

from __future__ import annotations

import ast
import gc
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from repo_source_fixture import write_tree

from generator.repo.facts import calls, forked, languages, tscalls
from generator.repo.facts.calls import CallGraph, read_call_graph
from generator.repo.facts.calltree import call_tree, main_line
from generator.repo.facts.dependencies import go_modules, js_aliases
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.imports import ImportIndex
from generator.repo.facts.pycalls import LEAF_FIELDS, UNKNOWN, read_body
from generator.repo.facts.ranking import key_symbols
from generator.repo.map.filetypes import is_context_file
from generator.repo.map.walk import map_repository
from generator.repo.model import CallEdge, CallTree, Facts, FileFacts, Symbol

FILES = {
    "web/__init__.py": '"""Web."""\nfrom .api import get, request\nfrom .sessions import Session\n',
    "web/api.py": (
        '"""The API."""\nfrom . import sessions\n\n\n'
        "def request(method, url):\n"
        "    with sessions.Session() as session:\n"
        "        return session.request(method, url)\n\n\n"
        "def get(url):\n"
        '    return request("get", url)\n'
    ),
    "web/hooks.py": "class Hooks:\n    def run(self, response):\n        return response\n",
    "web/models.py": (
        "class Response:\n    def json(self):\n        return {}\n\n\n"
        "def parse(response: Response):\n    return response.json()\n"
    ),
    "web/adapters.py": (
        "class BaseAdapter:\n    def send(self, request):\n        raise NotImplementedError\n\n\n"
        "class HTTPAdapter(BaseAdapter):\n"
        "    def send(self, request):\n"
        "        return self.build_response(request)\n\n"
        "    def build_response(self, request):\n"
        "        from .models import Response\n"
        "        return Response()\n"
    ),
    "web/sessions.py": (
        "import web.models\nfrom typing import TYPE_CHECKING\n\n"
        "from .adapters import HTTPAdapter\nfrom .hooks import Hooks\n\n"
        "if TYPE_CHECKING:\n    from .adapters import BaseAdapter\n\n\n"
        "class Base:\n    def merge(self, a):\n        return a\n\n\n"
        "class Session(Base):\n"
        "    def __init__(self):\n        self.hooks = Hooks()\n\n"
        "    def request(self, method, url):\n"
        "        prepared = self.merge(method)\n"
        "        return self.send(prepared)\n\n"
        "    def send(self, request):\n"
        "        adapter = self.get_adapter(request)\n"
        "        response = adapter.send(request)\n"
        "        web.models.parse(response)\n"
        "        return self.hooks.run(response)\n\n"
        "    def get_adapter(self, request):\n        return HTTPAdapter()\n"
    ),
    "tests/test_api.py": "from web.api import get\n\n\ndef test_get():\n    get('x')\n",
    "go/cmd/command.go": (
        'package cmd\n\nimport (\n\tflags "example.com/m/go/flags"\n)\n\n'
        "type Command struct{ Use string }\n\n"
        "func (c *Command) Execute() error {\n\treturn c.ExecuteC()\n}\n\n"
        "func (c *Command) ExecuteC() error {\n\tparser := &Parser{}\n\tparser.Parse()\n"
        "\tflags.Define()\n\treturn helper()\n}\n"
    ),
    "go/cmd/parser.go": "package cmd\n\ntype Parser struct{}\n\nfunc (p *Parser) Parse() {}\n\nfunc helper() error {\n\treturn nil\n}\n",
    "go/flags/flags.go": "package flags\n\nfunc Define() {}\n",
    "go.mod": "module example.com/m\n\ngo 1.21\n",
    "js/app.js": (
        "var router = require('./router');\nvar { compile } = require('./view');\n\n"
        "var app = exports = module.exports = {};\n\n"
        "app.use = function use(fn) {\n  this.lazyrouter();\n  router.handle(fn);\n  return compile(fn);\n};\n\n"
        "app.lazyrouter = function lazyrouter() {\n  app.init();\n};\n\napp.init = function init() {};\n"
    ),
    "js/router.js": "exports.handle = function handle(fn) {\n  return fn;\n};\n",
    "js/view.js": "function compile(x) {\n  return x;\n}\nmodule.exports = { compile };\n",
}


@pytest.fixture
def facts(tmp_path: Path) -> Facts:
    root = write_tree(tmp_path / "repo", FILES)
    return extract_facts(root, map_repository(root))


def hops(edges: list[CallEdge], caller: str) -> set[tuple[str, str]]:
    return {(e.callee_path, e.callee) for e in edges if e.caller == caller}


def test_python_calls_resolve_through_imports_self_attributes_and_receiver_names(facts: Facts) -> None:
    assert isinstance(facts.calls, CallGraph)
    api = facts.calls.edges(["web/api.py"])
    assert hops(api, "get") == {("web/api.py", "request")}
    assert hops(api, "request") == {("web/sessions.py", "Session"), ("web/sessions.py", "Session.request")}
    sessions = facts.calls.edges(["web/sessions.py"])
    assert hops(sessions, "Session.request") == {
        ("web/sessions.py", "Base.merge"),
        ("web/sessions.py", "Session.send"),
    }
    assert hops(sessions, "Session.send") == {
        ("web/sessions.py", "Session.get_adapter"),
        ("web/adapters.py", "HTTPAdapter.send"),  # `adapter` names HTTPAdapter, the subclass of BaseAdapter
        ("web/models.py", "parse"),  # through `import web.models`
        ("web/hooks.py", "Hooks.run"),  # self.hooks = Hooks()
    }
    assert hops(facts.calls.edges(["web/models.py"]), "parse") == {("web/models.py", "Response.json")}
    line = next(e.line for e in sessions if e.callee == "HTTPAdapter.send")
    assert FILES["web/sessions.py"].splitlines()[line - 1].strip() == "response = adapter.send(request)"


def test_the_graph_holds_every_source_modules_calls_and_tests_calls_only_as_incoming(facts: Facts) -> None:
    graph = facts.calls
    assert isinstance(graph, CallGraph)
    callers = {e.caller_path for e in graph.edges()}
    assert {"web/api.py", "web/sessions.py", "go/cmd/command.go", "js/app.js"} <= callers
    assert not any(is_context_file(path) for path in callers)
    incoming = graph.edges(["web/api.py"], incoming=True)
    assert ("tests/test_api.py", "test_get", "get") in {(e.caller_path, e.caller, e.callee) for e in incoming}


def test_go_calls_follow_receivers_locals_packages_and_imports(facts: Facts) -> None:
    edges = facts.calls.edges(["go/cmd/command.go"])
    assert hops(edges, "Command.Execute") == {("go/cmd/command.go", "Command.ExecuteC")}
    assert hops(edges, "Command.ExecuteC") == {
        ("go/cmd/parser.go", "Parser.Parse"),
        ("go/cmd/parser.go", "helper"),
        ("go/flags/flags.go", "Define"),
    }


def test_js_calls_follow_this_the_exported_object_and_requires(facts: Facts) -> None:
    edges = facts.calls.edges(["js/app.js"])
    assert hops(edges, "app.use") == {
        ("js/app.js", "app.lazyrouter"),
        ("js/router.js", "handle"),
        ("js/view.js", "compile"),
    }
    assert hops(edges, "app.lazyrouter") == {("js/app.js", "app.init")}


def test_the_main_flow_starts_at_the_public_api_and_reaches_the_core(facts: Facts) -> None:
    assert facts.calls is not None
    tree = facts.calls.tree(["web/api.py", "web/sessions.py"])
    paths = _tree_paths(tree)
    assert {path[0].caller for path in paths} <= {"get", "request"}
    named = [[path[0].caller, *(e.callee for e in path)] for path in paths]
    core = ["request", "Session.request", "Session.send", "HTTPAdapter.send", "HTTPAdapter.build_response"]
    assert any(name[i : i + len(core)] == core for name in named for i in range(len(name))), named
    for path in paths:  # each hop cites the caller's file and the line of the call
        for before, after in zip(path, path[1:], strict=False):
            assert after.caller_path == before.callee_path
            assert after.caller in {before.callee, f"{before.callee}.__init__"}  # a class: its constructor


def _tree_paths(tree: list[CallTree]) -> list[list[CallEdge]]:
    """Every path from the root of a call tree down to a leaf."""
    return [[branch.edge, *below] for branch in tree for below in (_tree_paths(list(branch.below)) or [[]])]


def test_calls_from_other_files_raise_a_symbol_in_its_file(facts: Facts) -> None:
    without = replace(facts, calls=None, rankings={})
    before = {r.symbol.name: r.score for r in key_symbols(without, "web/models.py")}
    after = {r.symbol.name: r.score for r in key_symbols(facts, "web/models.py")}
    assert after["parse"] > before["parse"]


def test_a_files_calls_do_not_depend_on_which_file_was_read_before(tmp_path: Path) -> None:
    """Each file's calls are resolved from its own syntax tree and the facts: the graph read in the map's
    order and in the reverse order holds the same edges, file by file."""
    # pkg/a_hub.py binds a module by `import … as`, which only its own syntax tree shows; read first, a
    # graph keeping that tree's scope would resolve z_caller's call through it, read last, it would not
    hub = {
        "pkg/__init__.py": "",
        "pkg/a_hub.py": "import pkg.worker as tasks\n\n\ndef hub():\n    return tasks.run()\n",
        "pkg/worker.py": "def run():\n    return 1\n",
        "pkg/z_caller.py": "from .a_hub import tasks\n\n\ndef call():\n    return tasks.run()\n",
    }
    root = write_tree(tmp_path / "repo", {**FILES, **hub})
    facts = extract_facts(root, map_repository(root))
    index = ImportIndex(
        facts.files,
        go_modules=go_modules(root, facts.files, 1_000_000),
        js_aliases=js_aliases(root, facts.files, 1_000_000),
    )
    backwards = read_call_graph(root, dict(reversed(facts.files.items())), index, 1_000_000)
    assert facts.calls is not None
    for path in facts.files:
        assert backwards.edges([path]) == facts.calls.edges([path])
    assert len(facts.calls.edges()) > 20


def test_paths_go_where_the_work_is_not_into_getters(tmp_path: Path) -> None:
    body = "".join(f"    step{i} = {i}\n" for i in range(30))
    files = {
        "app/__init__.py": "from .engine import run\n",
        "app/engine.py": (
            "def run():\n    name()\n    label()\n    return _core()\n\n\n"
            "def name():\n    return 'n'\n\n\ndef label():\n    return 'l'\n\n\n"
            f"def _core():\n{body}    return _finish()\n\n\n"
            f"def _finish():\n{body}    return 1\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    best = main_line(facts.calls.tree())
    assert [best[0].caller, *(e.callee for e in best)] == ["run", "_core", "_finish"]


def test_a_large_repository_is_read_by_a_pool_of_forked_processes_into_the_same_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    index = ImportIndex(
        facts.files,
        go_modules=go_modules(root, facts.files, 1_000_000),
        js_aliases=js_aliases(root, facts.files, 1_000_000),
    )
    pools: list[int] = []

    class CountedPool(forked.ProcessPoolExecutor):
        def __init__(self, workers: int, **kwargs: Any) -> None:
            pools.append(workers)
            super().__init__(workers, **kwargs)

    monkeypatch.setattr(forked, "ProcessPoolExecutor", CountedPool)
    monkeypatch.setattr(forked, "workers", lambda total, least: 2)  # two processes for this small repository
    sizes = {e.path: e.size for e in repo_map.files}
    pooled = calls.read_call_graph(root, facts.files, index, 1_000_000, sizes)
    assert pools == [2] and forked._Inherited.work is None
    assert facts.calls is not None
    assert pooled.edges() == facts.calls.edges() and len(pooled.edges()) > 20


def test_the_collector_is_off_while_calls_are_read_and_as_it_was_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    facts = extract_facts(root, map_repository(root))
    index = ImportIndex(
        facts.files,
        go_modules=go_modules(root, facts.files, 1_000_000),
        js_aliases=js_aliases(root, facts.files, 1_000_000),
    )
    seen: list[bool] = []
    parse = ast.parse

    def watched(*args: Any, **kwargs: Any) -> ast.Module:
        seen.append(gc.isenabled())
        return parse(*args, **kwargs)

    monkeypatch.setattr(calls.ast, "parse", watched)
    graph = read_call_graph(root, facts.files, index, 1_000_000)
    assert seen and not any(seen) and gc.isenabled()
    assert facts.calls is not None and graph.edges() == facts.calls.edges()
    gc.disable()  # a caller that turned it off keeps it off
    try:
        read_call_graph(root, facts.files, index, 1_000_000)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_pass_runs_with_the_collector_off_here_and_in_forked_workers_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths = [f"f{i}.py" for i in range(20)]
    assert forked.map_files(lambda path: (path, gc.isenabled()), paths, 0) == [(p, False) for p in paths]
    monkeypatch.setattr(forked, "workers", lambda total, least: 2)
    # a lambda cannot be pickled: the workers inherit the work from the fork
    found = forked.map_files(lambda path: (path, gc.isenabled(), os.getpid()), paths, 0)
    assert [(p, enabled) for p, enabled, _ in found] == [(p, False) for p in paths]
    assert os.getpid() not in {pid for _, _, pid in found}  # the work ran in the forked workers
    assert gc.isenabled() and forked._Inherited.work is None  # set in the workers, never here


def test_only_a_large_repository_read_by_one_thread_gets_a_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "_other_threads", lambda: False)
    assert forked.workers(forked.PARALLEL_MIN_BYTES - 1) == 1
    assert forked.workers(forked.PARALLEL_MIN_BYTES) == min(len(os.sched_getaffinity(0)), forked.MAX_WORKERS)
    monkeypatch.setattr(forked, "_other_threads", lambda: True)  # a forked copy could inherit a held lock
    assert forked.workers(forked.PARALLEL_MIN_BYTES) == 1


def test_the_calls_of_one_function_are_its_files_calls_from_it(facts: Facts) -> None:
    graph = facts.calls
    assert isinstance(graph, CallGraph)
    assert graph.tree(["web/api.py"])
    single = {(e.caller, e.callee, e.line) for e in graph.calls_of("web/sessions.py", {"Session.send"})}
    whole = {
        (e.caller, e.callee, e.line) for e in graph.edges(["web/sessions.py"]) if e.caller == "Session.send"
    }
    assert single == whole and len(single) == 4  # the same calls at the same lines, read either way


WALKED = """
def run(self, items: list[Item], *rest, key=None, **options):
    session = Session()
    if items:
        session = Other()  # deeper: the first binding met breadth first (the outer one) wins
        log = make_log(f"{items!r:>{width()}}", *[wrap(i) for i in items], **{**options, "k": key()})
    with open_file() as handle, lock():
        handle.write(lambda: inner(1)[slice_at(2) : end()])
    for index, (left, right) in enumerate(pairs()):
        yield from produce(index, -left if right else +right)
    try:
        total = {name: value() async for name in names() if check(name)}
    except Error as error:
        raise Wrapped(error) from cause()
    match subject():
        case Point(x=0, y=found) if guard(found):
            self.adapter = Adapter(found)
        case [first, *others]:
            self.count: int = others.count(first)
    if (size := measure()) > limit(size):
        del cache()[size]
    global counter
    return await finish(session, log, total, not done(), counter @ scale())
"""


def test_reading_a_function_meets_every_call_in_ast_walks_order() -> None:
    function = ast.parse(WALKED).body[0]
    attributes: dict[str, ast.expr] = {}
    local, calls = read_body(function, attributes)
    assert calls == [node for node in ast.walk(function) if isinstance(node, ast.Call)] and len(calls) == 30
    assert ast.unparse(local["session"]) == "Session()"  # the outer binding, met first breadth first
    assert ast.unparse(local["items"]) == "list[Item]" and local["key"] is UNKNOWN
    assert {"log", "handle", "index", "left", "right", "total", "name", "size"} <= set(local)
    assert ast.unparse(attributes["adapter"]) == "Adapter(found)"
    assert ast.unparse(attributes["count"]) == "int"


def test_the_fields_a_walk_skips_hold_no_expression_or_statement() -> None:
    """Every AST class's signature (its docstring, from Python's grammar) types each skipped field as a name,
    a number, a flag or a leaf node: nothing under it can be a call or a binding."""
    leaf_types = {"identifier", "int", "string", "constant", "expr_context", "operator", "boolop", "unaryop"}
    leaf_types |= {"cmpop", "alias"}
    checked = 0
    for cls in vars(ast).values():
        if not (isinstance(cls, type) and issubclass(cls, ast.AST) and cls._fields and cls.__doc__):
            continue
        signature = re.fullmatch(r"\w+\((.*)\)", cls.__doc__.strip())
        if signature is None:
            continue  # a deprecated alias (ast.Num …): never produced by the parser
        for field in signature.group(1).split(", "):
            kind, name = field.split(" ")
            if name in LEAF_FIELDS:
                assert kind.rstrip("*?") in leaf_types, (cls.__name__, field)
                checked += 1
    assert checked > 30


def test_receivers_named_after_a_class_resolve_alike_each_time_and_either_way(tmp_path: Path) -> None:
    """`adapter.send()` is matched against the classes the module knows once per receiver name and scope;
    later functions asking again, and a whole-file read, find the same class."""
    files = {
        "net/adapters.py": (
            "class BaseAdapter:\n    def send(self, r):\n        raise NotImplementedError\n\n\n"
            "class HTTPAdapter(BaseAdapter):\n    def send(self, r):\n        return r\n\n"
            "    def close(self):\n        return None\n"
        ),
        "net/client.py": (
            "from .adapters import BaseAdapter, HTTPAdapter\n\n\n"
            "def first(adapter):\n    return adapter.send(1)\n\n\n"
            "def second(adapter, http_adapter):\n    adapter.send(2)\n    http_adapter.close()\n\n\n"
            "def third(ad):\n    return ad.send(3)\n"  # too short a receiver to name a class
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    single = [
        (e.caller, e.callee, e.line)
        for c in ("first", "second", "third")
        for e in graph.calls_of("net/client.py", {c})
    ]
    assert single == [
        ("first", "HTTPAdapter.send", 5),
        ("second", "HTTPAdapter.send", 9),
        ("second", "HTTPAdapter.close", 10),
    ]
    assert [(e.caller, e.callee, e.line) for e in graph.edges(["net/client.py"])] == single


def test_a_method_bound_to_a_local_and_a_with_statements_manager_are_calls(tmp_path: Path) -> None:
    """`render = self.render` then `render(x)` calls the method; `with self:` calls `__enter__` and
    `__exit__` (where a console's buffer is written out); `Buffer().flush()` calls the new instance's
    method. A local holding something unknown is still left out."""
    files = {
        "term/console.py": (
            "class Buffer:\n    def flush(self):\n        return 1\n\n\n"
            "class Console:\n"
            "    def __enter__(self):\n        return self\n\n"
            "    def __exit__(self, *exc):\n        self._write()\n\n"
            "    def _write(self):\n        Buffer().flush()\n\n"
            "    def render(self, x):\n        return x\n\n"
            "    def print(self, *objects, hook=None):\n"
            "        render = self.render\n"
            "        with self:\n"
            "            for x in objects:\n                render(x)\n"
            "                hook(x)\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    edges = graph.edges(["term/console.py"])
    assert {(e.callee, e.line) for e in edges if e.caller == "Console.print"} == {
        ("Console.__enter__", 21),
        ("Console.__exit__", 21),
        ("Console.render", 23),
    }
    assert hops(edges, "Console.__exit__") == {("term/console.py", "Console._write")}
    assert hops(edges, "Console._write") == {
        ("term/console.py", "Buffer"),
        ("term/console.py", "Buffer.flush"),
    }


def test_a_receiver_named_by_its_last_word_after_a_class_resolves_to_it(tmp_path: Path) -> None:
    """rich's `write_console.print(…)` in `rich.print`: the receiver's last word names the Console class."""
    files = {
        "term/console.py": "class Console:\n    def print(self, *objects):\n        return objects\n",
        "term/__init__.py": (
            "from .console import Console\n\n\n"
            "def print(*objects, file=None):\n"
            "    write_console = Console() if file is None else Console()\n"
            "    return write_console.print(*objects)\n\n\n"
            "def show(x_y):\n    return x_y.print()\n"  # a last word too short to name anything
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    edges = graph.edges(["term/__init__.py"])
    assert ("term/console.py", "Console.print") in hops(edges, "print")
    assert not hops(edges, "show")


ELEMENTS = {
    "web/__init__.py": '"""Web."""\n',
    "web/routing.py": (
        "class BaseRoute:\n    def matches(self, scope):\n        raise NotImplementedError\n\n\n"
        "class Route(BaseRoute):\n    def matches(self, scope):\n        return True\n\n\n"
        "class Mount(BaseRoute):\n    def matches(self, scope):\n        return False\n\n\n"
        "class Router:\n"
        "    def __init__(self):\n        self.routes = []\n        self.pairs = {}\n"
        "        self.mounts: list[BaseRoute] = []\n\n"
        "    def add_route(self, path):\n"
        "        route = Route()\n        self.routes.append(route)\n\n"
        "    def app(self, scope):\n"
        "        for entry in self.routes:\n            entry.matches(scope)\n"
        "        for item in self.mounts:\n            item.matches(scope)\n"
        "        for name, value in self.pairs.items():\n            value.decode()\n"
    ),
    "web/convertors.py": (
        "class IntConvertor:\n    def convert(self, value):\n        return int(value)\n\n\n"
        "class PathConvertor:\n    def convert(self, value):\n        return value\n\n\n"
        "class Params:\n"
        "    def __init__(self):\n        self.convertors = {}\n\n"
        "    def read(self, key, value):\n        return self.convertors[key].convert(value)\n"
    ),
    "web/text.py": "class Raw:\n    def decode(self):\n        return ''\n",
    "other/routes.py": "class Elsewhere:\n    def matches(self, scope):\n        return None\n",
    "go/mux/mux.go": (
        "package mux\n\n"
        "type Router struct {\n\troutes []*Route\n\tmatchers []matcher\n}\n\n"
        "type Route struct{}\n\ntype matcher interface{ Match(r int) bool }\n\n"
        "type methodMatcher struct{}\n\n"
        "func (m methodMatcher) Match(r int) bool {\n\treturn true\n}\n\n"
        "func (r *Route) Match(req int) bool {\n\treturn true\n}\n\n"
        "func (r *Router) Match(req int) bool {\n"
        "\tfor _, route := range r.routes {\n\t\tif route.Match(req) {\n\t\t\treturn true\n\t\t}\n\t}\n"
        "\treturn false\n}\n\n"
        "func (r *Router) Check(req int) bool {\n"
        "\tfor _, m := range r.matchers {\n\t\tif !m.Match(req) {\n\t\t\treturn false\n\t\t}\n\t}\n"
        "\treturn true\n}\n"
    ),
    "go.mod": "module example.com/m\n\ngo 1.21\n",
}


def test_calls_on_the_elements_of_a_collection_are_inferred_edges(tmp_path: Path) -> None:
    """`for entry in self.routes: entry.matches()` calls `matches` of the classes stored there (Route, put
    there by `add_route`) and of their subclasses beside them; `self.convertors[key].convert()` with nothing
    known to be stored calls the package's `convert` methods; a built-in method's name (`value.decode()`) or
    a class of another package is never a guess. Go: a slice field's element type, else the package's
    methods of that name (an interface's implementations)."""
    root = write_tree(tmp_path / "repo", ELEMENTS)
    graph = extract_facts(root, map_repository(root)).calls
    assert graph is not None
    routing = graph.edges(["web/routing.py"])
    inferred = {(e.callee, e.line) for e in routing if e.caller == "Router.app" and e.inferred}
    assert inferred == {
        ("Route.matches", 28),  # stored by add_route
        ("BaseRoute.matches", 30),  # `list[BaseRoute]`: the base and its subclasses
        ("Route.matches", 30),
        ("Mount.matches", 30),
    }
    # not `Raw.decode` (`value` may be bytes), nor `Elsewhere.matches` of another package
    assert hops(routing, "Router.app") == {("web/routing.py", name) for name, _ in inferred}
    params = graph.edges(["web/convertors.py"])
    assert hops(params, "Params.read") == {
        ("web/convertors.py", "IntConvertor.convert"),
        ("web/convertors.py", "PathConvertor.convert"),
    }
    assert all(e.inferred for e in params if e.caller == "Params.read")
    mux = graph.edges(["go/mux/mux.go"])
    assert hops(mux, "Router.Match") == {("go/mux/mux.go", "Route.Match")}
    assert hops(mux, "Router.Check") == {
        ("go/mux/mux.go", "methodMatcher.Match"),
        ("go/mux/mux.go", "Route.Match"),
        ("go/mux/mux.go", "Router.Match"),
    }
    assert all(e.inferred for e in mux if e.caller in {"Router.Match", "Router.Check"})


def test_a_name_imported_from_a_barrel_module_resolves_to_the_module_that_defines_it(tmp_path: Path) -> None:
    """immer's `import {processResult} from "../internal"`, where `internal.ts` only re-exports
    (`export * from "./core/finalize"`): the call reaches `finalize.ts`'s function, through a barrel of a
    barrel too, and the barrel depends on the modules it re-exports."""
    files = {
        "src/internal.ts": 'export * from "./utils/common"\nexport * from "./core/finalize"\n',
        "src/utils/common.ts": "export function isDraft(x: any) {\n  return !!x\n}\n",
        "src/core/finalize.ts": (
            'import {isDraft} from "../internal"\n'
            "export function processResult(x: any) {\n  return isDraft(x)\n}\n"
        ),
        "src/core/index.ts": 'export {processResult} from "./finalize"\n',
        "src/core/immer.ts": (
            'import {processResult} from "../internal"\nimport * as core from "./index"\n'
            "export class Immer {\n  produce(base: any) {\n    return processResult(base)\n  }\n"
            "  finish(base: any) {\n    return core.processResult(base)\n  }\n}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    graph = facts.calls
    assert isinstance(graph, CallGraph)
    edges = graph.edges(["src/core/immer.ts", "src/core/finalize.ts"])
    assert hops(edges, "Immer.produce") == {("src/core/finalize.ts", "processResult")}
    assert hops(edges, "Immer.finish") == {("src/core/finalize.ts", "processResult")}
    assert hops(edges, "processResult") == {("src/utils/common.ts", "isDraft")}
    assert set(facts.files["src/internal.ts"].depends_on) == {"src/utils/common.ts", "src/core/finalize.ts"}


def test_a_go_variable_made_by_a_function_has_the_type_the_function_returns(tmp_path: Path) -> None:
    """kong's `parser, err := New(cli)` then `parser.Parse(args)`: `Kong.Parse`, the type `New` returns
    first; the same through an imported package (`k, _ := kong.New()`), and a method's result too."""
    files = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "kong/kong.go": (
            "package kong\n\ntype Kong struct{}\n\ntype Context struct{}\n\n"
            "func New(cli any) (*Kong, error) {\n\treturn &Kong{}, nil\n}\n\n"
            "func (k *Kong) Parse(args []string) *Context {\n\treturn &Context{}\n}\n\n"
            "func (c *Context) Run() error {\n\treturn nil\n}\n"
        ),
        "kong/global.go": (
            "package kong\n\nfunc Parse(cli any) *Context {\n\tparser, err := New(cli)\n\t_ = err\n"
            "\tctx := parser.Parse(nil)\n\tctx.Run()\n\treturn ctx\n}\n"
        ),
        "app/main.go": (
            'package app\n\nimport "example.com/m/kong"\n\nfunc Main() {\n\tk, _ := kong.New(nil)\n'
            "\tk.Parse(nil)\n}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    assert hops(graph.edges(["kong/global.go"]), "Parse") == {
        ("kong/kong.go", "New"),
        ("kong/kong.go", "Kong.Parse"),
        ("kong/kong.go", "Context.Run"),
    }
    assert hops(graph.edges(["app/main.go"]), "Main") == {
        ("kong/kong.go", "New"),
        ("kong/kong.go", "Kong.Parse"),
    }


def test_each_go_file_is_parsed_once_for_its_symbols_and_once_for_its_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a function returns first (`New` → Kong, so `k.Parse` is `Kong.Parse`) is read with the file's
    symbols, from the tree the survey parsed: the call graph's pass parses a file for its own calls only,
    never again for what another file's calls need of it, and the pages asking a file's results parse none."""
    files = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "app/main.go": (
            'package app\n\nimport "example.com/m/kong"\n\nfunc Main() {\n\tk, _ := kong.New(nil)\n'
            "\tk.Parse(nil)\n}\n"
        ),
        "kong/kong.go": (
            "package kong\n\ntype Kong struct{}\n\nfunc New(cli any) (*Kong, error) {\n\treturn &Kong{}, nil\n}\n\n"
            "func (k *Kong) Parse(args []string) {}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    parsed: list[str] = []
    parse_tree = languages.parse_tree

    def counted(language: str, text: str) -> Any:
        parsed.append(text)
        return parse_tree(language, text)

    monkeypatch.setattr(languages, "parse_tree", counted)
    monkeypatch.setattr(tscalls, "parse_tree", counted)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    assert hops(graph.edges(["app/main.go"]), "Main") == {
        ("kong/kong.go", "New"),
        ("kong/kong.go", "Kong.Parse"),
    }
    assert graph.results("kong/kong.go") == {"New": "Kong"}
    assert sorted(parsed.count(files[p]) for p in ("app/main.go", "kong/kong.go")) == [2, 2]


def test_a_go_method_called_on_a_value_made_in_place_is_that_type_s_method(tmp_path: Path) -> None:
    """expr's `checker.ParseCheck` runs `new(Parser).Parse(input, config)` (through `ParseWithConfig`) and
    `new(Checker).PatchAndCheck(tree, config)`: both had no callee, so the parser and the type checker
    weighed nothing under `expr.Compile` and its flow skipped them. `new(T)`, `new(pkg.T)`, `T{…}` and
    `(&T{…})` make a value of `T`; `new(int)` and a call's result make none the package has a method of."""
    files = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "parser/parser.go": (
            "package parser\n\ntype Parser struct{}\n\ntype Tree struct{}\n\n"
            "func (p *Parser) Parse(input string) *Tree {\n\treturn &Tree{}\n}\n\n"
            "func ParseWithConfig(input string) *Tree {\n\treturn new(Parser).Parse(input)\n}\n"
        ),
        "checker/checker.go": (
            'package checker\n\nimport "example.com/m/parser"\n\ntype Checker struct{}\n\n'
            "func (v *Checker) PatchAndCheck(tree *parser.Tree) error {\n\treturn nil\n}\n\n"
            "func (v Checker) Check(tree *parser.Tree) error {\n\treturn nil\n}\n\n"
            "func ParseCheck(input string) (*parser.Tree, error) {\n\ttree := new(parser.Parser).Parse(input)\n"
            "\t_ = (&Checker{}).PatchAndCheck(tree)\n\t_ = Checker{}.Check(tree)\n"
            "\t_ = new(int)\n\treturn tree, new(Checker).PatchAndCheck(tree)\n}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    assert hops(graph.edges(["parser/parser.go"]), "ParseWithConfig") == {
        ("parser/parser.go", "Parser.Parse")
    }
    assert hops(graph.edges(["checker/checker.go"]), "ParseCheck") == {
        ("parser/parser.go", "Parser.Parse"),
        ("checker/checker.go", "Checker.PatchAndCheck"),
        ("checker/checker.go", "Checker.Check"),
    }


def test_a_function_value_behind_a_cast_is_an_exported_function(tmp_path: Path) -> None:
    """zustand's `export const createStore = ((createState) => …) as CreateStore`: the cast and the
    parentheses hide an exported function, which calls on as any function does."""
    files = {
        "src/vanilla.ts": (
            "type CreateStore = (f: any) => any\n\n"
            "const createStoreImpl = (createState: any) => {\n  return { state: createState() }\n}\n\n"
            "export const createStore = ((createState) =>\n"
            "  createState ? createStoreImpl(createState) : createStoreImpl) as CreateStore\n\n"
            "export const checked = ((f: any) => createStoreImpl(f)) satisfies CreateStore\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    symbols = {s.name: s for s in facts.files["src/vanilla.ts"].symbols}
    assert symbols["createStore"].kind == "function" and symbols["createStore"].exported
    assert symbols["checked"].kind == "function" and symbols["checked"].exported
    assert not symbols["createStoreImpl"].exported
    graph = facts.calls
    assert isinstance(graph, CallGraph)
    assert hops(graph.edges(["src/vanilla.ts"]), "createStore") == {("src/vanilla.ts", "createStoreImpl")}


def test_a_function_given_properties_by_object_assign_is_an_exported_function(tmp_path: Path) -> None:
    """reselect's `export const createStructuredSelector = /* @__PURE__ */ Object.assign((…) => { … },
    { withTypes: … }) as StructuredSelectorCreator` had no symbol: no page named or linked the API its
    docs page is about. The function is that symbol, with its doc comment; an object given properties is
    none."""
    files = {
        "src/structured.ts": (
            "const createSelector = (deps: any[], f: any) => f\n\n"
            "/**\n * A convenience function that simplifies returning an object of selector results.\n */\n"
            "export const createStructuredSelector: Creator =\n  /* @__PURE__ */ Object.assign(\n"
            "    (inputs: any) => {\n      return createSelector(Object.values(inputs), (...r: any[]) => r)\n    },\n"
            "    { withTypes: () => createStructuredSelector }\n  ) as Creator\n\n"
            "export const defaults = Object.assign({}, { size: 1 })\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    symbols = {s.name: s for s in facts.files["src/structured.ts"].symbols}
    structured = symbols["createStructuredSelector"]
    assert structured.kind == "function" and structured.exported
    assert structured.doc.startswith("A convenience function that simplifies")
    assert "defaults" not in symbols
    graph = facts.calls
    assert isinstance(graph, CallGraph)
    assert ("src/structured.ts", "createSelector") in hops(
        graph.edges(["src/structured.ts"]), "createStructuredSelector"
    )


def test_a_go_value_of_another_module_s_type_never_calls_the_package_s_method_of_that_name(
    tmp_path: Path,
) -> None:
    """resty's `bufPool.Put(buf)` on a package variable `bufPool = &sync.Pool{…}` is the standard
    library's `Pool.Put`, not the package's only `Put` method (`Request.Put`); neither is `c.Do(req)` on
    a local `*http.Client`, nor `buf.Reset()` on a `*bytes.Buffer` asserted from the pool. A value of a
    repository package's type still reaches that package's method, and an untyped value the package's only
    method of its name."""
    files = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "client.go": (
            'package resty\n\nimport (\n\t"bytes"\n\t"net/http"\n\t"sync"\n\n\t"example.com/m/store"\n)\n\n'
            "var (\n\tbufPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}\n"
            "\tshelf   store.Shelf\n)\n\n"
            "type Request struct{}\n\n"
            "func (r *Request) Put(url string) {}\n\n"
            "func (r *Request) Reset() {}\n\n"
            "func (r *Request) Do() {}\n\n"
            "func release(buf *bytes.Buffer) {\n\tbufPool.Put(buf)\n}\n\n"
            "func acquire() {\n\tbuf := bufPool.Get().(*bytes.Buffer)\n\tbuf.Reset()\n\trelease(buf)\n}\n\n"
            "func send(req *http.Request) {\n\tc := &http.Client{}\n\tc.Do(req)\n}\n\n"
            "func keep(item string) {\n\tshelf.Put(item)\n\tlocal := store.Shelf{}\n\tlocal.Put(item)\n}\n\n"
            'func guess(anything interface{ Reset() }) {\n\tr := &Request{}\n\tr.Put("u")\n}\n'
        ),
        "store/shelf.go": "package store\n\ntype Shelf struct{}\n\nfunc (s Shelf) Put(item string) {}\n",
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    edges = graph.edges(["client.go"])
    assert hops(edges, "release") == set()
    assert hops(edges, "acquire") == {("client.go", "release")}
    assert hops(edges, "send") == set()
    assert hops(edges, "keep") == {("store/shelf.go", "Shelf.Put")}
    assert hops(edges, "guess") == {("client.go", "Request.Put")}


RETRYING = {
    "go.mod": "module example.com/retry\n\ngo 1.21\n",
    "client.go": (
        'package retry\n\nimport "io"\n\ntype CheckRetry func(err error) bool\n\ntype Middleware func(c *Client) error\n\n'
        "type Client struct {\n\tCheckRetry CheckRetry\n\tbefore []Middleware\n\tafter map[string]Middleware\n}\n\n"
        "func NewClient() *Client {\n\tc := &Client{CheckRetry: DefaultRetryPolicy}\n"
        "\tc.before = []Middleware{parseURL, createRequest}\n"
        '\tc.after = map[string]Middleware{"log": logResponse}\n\treturn c\n}\n\n'
        "func DefaultRetryPolicy(err error) bool {\n\treturn err != nil\n}\n\n"
        "func parseURL(c *Client) error {\n\treturn nil\n}\n\n"
        "func createRequest(c *Client) error {\n\treturn nil\n}\n\n"
        "func logResponse(c *Client) error {\n\treturn nil\n}\n\n"
        "func (c *Client) drain(body any) {\n}\n\n"
        "func (c *Client) Do(body any) {\n"
        "\tfor _, f := range c.before {\n\t\tf(c)\n\t}\n"
        "\tif c, ok := body.(io.ReadCloser); ok {\n\t\tc.Close()\n\t}\n"
        "\tif c.CheckRetry(nil) {\n\t\tc.drain(body)\n\t}\n"
        '\tc.after["log"](c)\n}\n'
    ),
}


def test_a_go_call_through_a_field_reaches_the_functions_stored_in_it(tmp_path: Path) -> None:
    """go-retryablehttp's `c.CheckRetry(…)` with `&Client{CheckRetry: DefaultRetryPolicy}`, resty's
    `for _, f := range c.beforeRequest { f(c, req) }` with `c.beforeRequest = []RequestMiddleware{…}`, an
    element by its key (`c.after["log"](c)`): the functions stored in the field are the call's callees; a
    name declared again in an inner block (`if c, ok := body.(…)`) leaves the receiver's type to the rest
    of the method (`c.drain`)."""
    root = write_tree(tmp_path / "repo", RETRYING)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    assert hops(graph.edges(["client.go"]), "Client.Do") >= {
        ("client.go", "parseURL"),
        ("client.go", "createRequest"),
        ("client.go", "DefaultRetryPolicy"),
        ("client.go", "Client.drain"),
        ("client.go", "logResponse"),
    }


TABLES = {
    "kit/__init__.py": "",
    "kit/render.py": (
        "class TextRenderer:\n    def render(self):\n        return 'text'\n\n\n"
        "class JSONRenderer:\n    def render(self):\n        return '{}'\n\n\n"
        "RENDERERS = {'text': TextRenderer, 'json': JSONRenderer}\n\n\n"
        "def row(size):\n    return size\n\n\ndef column(size):\n    return size\n\n\n"
        "def renderer(kind):\n    return RENDERERS[kind]()\n\n\n"
        "def chosen(kind):\n    make = RENDERERS.get(kind)\n    return make()\n\n\n"
        "def local_table(kind):\n    table = {'row': row}\n    return table[kind](1)\n\n\n"
        "class Layout:\n    splitters = {'row': row, 'column': column}\n\n"
        "    def split(self, name):\n        return self.splitters[name](2)\n"
    ),
}


def test_a_python_call_looked_up_in_a_table_may_reach_each_of_its_values(tmp_path: Path) -> None:
    """huey's `WORKER_TO_ENVIRONMENT[worker_type]()`, rich's `self.splitters[splitter]()`: a call of a value
    looked up in a dict literal of the repository's functions or classes (module constant, class
    attribute, local; by `[key]` or `.get(key)`, called at once or through a local) reaches each value, as
    an inferred edge."""
    root = write_tree(tmp_path / "repo", TABLES)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    edges = graph.edges(["kit/render.py"])
    both = {("kit/render.py", "TextRenderer"), ("kit/render.py", "JSONRenderer")}
    assert hops(edges, "renderer") == both and hops(edges, "chosen") == both
    assert hops(edges, "local_table") == {("kit/render.py", "row")}
    assert hops(edges, "Layout.split") == {("kit/render.py", "row"), ("kit/render.py", "column")}
    assert all(e.inferred for e in edges if e.caller in {"renderer", "Layout.split"})


def test_a_function_imported_from_the_module_of_its_own_name_is_the_function(tmp_path: Path) -> None:
    """rich's `from ._emoji_replace import _emoji_replace`, arq's `from .cron import cron`: the name is the
    module's function, called as one; `from . import cron` still names the module."""
    files = {
        "sched/__init__.py": "",
        "sched/cron.py": "def cron(spec):\n    return parse(spec)\n\n\ndef parse(spec):\n    return spec\n",
        "sched/worker.py": (
            "from .cron import cron\nfrom . import cron as module\n\n\n"
            "def run(spec):\n    cron(spec)\n    module.parse(spec)\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    assert hops(graph.edges(["sched/worker.py"]), "run") == {
        ("sched/cron.py", "cron"),
        ("sched/cron.py", "parse"),
    }


def test_a_go_method_call_reaches_the_method_an_embedded_type_promotes(tmp_path: Path) -> None:
    """go-cache's `type Cache struct { *cache }`: every method is `cache`'s, promoted to `Cache`, so a call on
    a `*Cache` (declared, or returned by `New`) led nowhere and its flow stopped at the call."""
    files = {
        "go.mod": "module example.com/cache\n\ngo 1.21\n",
        "cache.go": (
            'package cache\n\nimport "sync"\n\n// Cache is a cache.\ntype Cache struct {\n\t*cache\n}\n\n'
            "type cache struct {\n\tmu    sync.RWMutex\n\titems map[string]int\n}\n\n"
            "// New returns a cache.\nfunc New() *Cache {\n\treturn &Cache{&cache{items: map[string]int{}}}\n}\n\n"
            "// Set stores a value.\nfunc (c *cache) Set(k string, v int) {\n\tc.items[k] = v\n}\n\n"
            "// Get reads a value.\nfunc (c *cache) Get(k string) int {\n\treturn c.items[k]\n}\n"
        ),
        "use.go": (
            'package cache\n\n// Warm fills a cache.\nfunc Warm() {\n\tc := New()\n\tc.Set("a", 1)\n'
            '\tvar d *Cache = New()\n\td.Get("a")\n}\n'
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert graph is not None
    assert hops(graph.edges(["use.go"]), "Warm") == {
        ("cache.go", "New"),
        ("cache.go", "cache.Set"),
        ("cache.go", "cache.Get"),
    }


def test_a_method_looked_up_by_a_prefix_is_called_where_it_is_looked_up(tmp_path: Path) -> None:
    """smtp-server's command loop calls `this['handler_' + name]`, parsimonious's visitor `getattr(self,
    'visit_' + kind)`: no call named the handlers, so the loop's flow stopped there. A `typeof` test, or a
    constructor keeping the methods it looks up (mistune's `self._methods = {…}`), calls none."""
    files = {
        "package.json": '{"name": "smtp", "main": "lib/conn.js"}\n',
        "lib/conn.js": (
            "class Conn {\n"
            "    constructor() {\n        this.known = this['handler_' + 'EHLO'];\n    }\n\n"
            "    onCommand(name, line) {\n        const handler = this['handler_' + name];\n"
            "        handler.call(this, line);\n    }\n\n"
            "    isSupported(name) {\n        return typeof this['handler_' + name] === 'function';\n    }\n\n"
            "    handler_EHLO(line) {\n        return line;\n    }\n\n"
            "    handler_DATA(line) {\n        return line;\n    }\n}\n\n"
            "module.exports = Conn;\n"
        ),
        "visit/__init__.py": '"""Visitors."""\n',
        "visit/nodes.py": (
            '"""Visiting a tree."""\n\n\nclass NodeVisitor:\n    """Visits nodes."""\n\n'
            "    def visit(self, node):\n"
            '        """Visit a node by its kind."""\n'
            "        method = getattr(self, 'visit_' + node.kind, self.generic_visit)\n"
            "        return method(node)\n\n"
            "    def generic_visit(self, node):\n        return node\n\n\n"
            "class RuleVisitor(NodeVisitor):\n"
            '    """Visits rules."""\n\n'
            "    def visit_rule(self, node):\n        return node\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert graph is not None
    edges = graph.edges(["lib/conn.js"])
    assert hops(edges, "Conn.onCommand") == {
        ("lib/conn.js", "Conn.handler_EHLO"),
        ("lib/conn.js", "Conn.handler_DATA"),
    }
    assert not hops(edges, "Conn.isSupported") and not hops(edges, "Conn.constructor")
    assert hops(graph.edges(["visit/nodes.py"]), "NodeVisitor.visit") == {
        ("visit/nodes.py", "RuleVisitor.visit_rule")
    }


def test_a_go_method_call_on_an_indexed_field_element_reaches_the_element_types_method(
    tmp_path: Path,
) -> None:
    """freecache's `cache.segments[segID].set(…)` with `segments [segmentCount]segment`: a call on an element
    of a struct's array, slice or map field led nowhere, and `Cache.Set`'s flow stopped at `hashFunc`."""
    files = {
        "go.mod": "module example.com/cache\n\ngo 1.21\n",
        "cache.go": (
            "package cache\n\nconst segmentCount = 4\n\n// Cache is a cache.\ntype Cache struct {\n"
            "\tsegments [segmentCount]segment\n\tbyName   map[string]*segment\n}\n\n"
            "type segment struct {\n\tdata map[string]int\n}\n\n"
            "func (s *segment) set(k string, v int) {\n\ts.data[k] = v\n}\n\n"
            "func (s *segment) get(k string) int {\n\treturn s.data[k]\n}\n\n"
            "// Set stores a value.\nfunc (c *Cache) Set(k string, v int) {\n\tc.segments[len(k)%segmentCount].set(k, v)\n}\n\n"
            '// Get reads a value.\nfunc (c *Cache) Get(k string) int {\n\treturn c.byName["a"].get(k)\n}\n'
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    graph = extract_facts(root, map_repository(root)).calls
    assert graph is not None
    edges = graph.edges(["cache.go"])
    assert hops(edges, "Cache.Set") == {("cache.go", "segment.set")}
    assert hops(edges, "Cache.Get") == {("cache.go", "segment.get")}


def _named_walk(node: Any, kinds: set[str]) -> list[Any]:
    """What `descendants` gives, by the definition: `node`, then its named children's walks, in order."""
    found = [node] if node.type in kinds else []
    for child in node.named_children:
        found.extend(_named_walk(child, kinds))
    return found


def test_descendants_walks_a_subtrees_named_nodes_in_source_order() -> None:
    """The tree cursor's walk gives what a walk over named children gives: the subtree's own nodes only
    (never a later sibling of the node it starts from), the named ones, parents before children."""
    from generator.repo.facts.comments import descendants
    from generator.repo.facts.languages import parse_tree

    text = (
        'package a\n\nimport "fmt"\n\n// Run runs.\nfunc Run(x int) {\n\tif x > 0 {\n\t\tfmt.Println(f(g(x)))\n\t}\n'
        '\ts := []string{"a", h()}\n\t_ = s\n}\n\nfunc f(x int) int { return x }\n\nfunc g(x int) int { return x }\n'
        "\nfunc h() string { return `b` }\n"
    )
    root = parse_tree("go", text).root_node
    kinds = ("call_expression", "identifier", "block", "comment", "source_file", "interpreted_string_literal")
    assert [n.id for n in descendants(root, *kinds)] == [n.id for n in _named_walk(root, set(kinds))]
    first = next(n for n in root.named_children if n.type == "function_declaration")  # `func Run`: `f`,
    # `g` and `h`, its later siblings, stay out
    calls = [n.text.decode() for n in descendants(first, "call_expression")]
    assert calls == ["fmt.Println(f(g(x)))", "f(g(x))", "g(x)", "h()"]
    assert [n.id for n in descendants(first, *kinds)] == [n.id for n in _named_walk(first, set(kinds))]
    leaf = next(descendants(first, "identifier"))
    assert [n.id for n in descendants(leaf, "identifier", "call_expression")] == [leaf.id]  # a leaf: itself
    assert list(descendants(None, "identifier")) == []


PACKAGED = {
    "go.mod": "module example.com/shop\n\ngo 1.21\n",
    "shop.go": (
        "package shop\n\ntype Store interface {\n\tGet(key string) string\n}\n\n"
        "type Hasher interface {\n\tSum() string\n}\n\n"
        "type Shop struct {\n\tstore Store\n\tstoreName Store\n\tcache Store\n\th Hasher\n}\n\n"
        "func (s *Shop) Find(key string) string {\n\ts.store.Get(key)\n\ts.cache.Get(key)\n"
        "\treturn s.storeName.Get(key)\n}\n\n"
        "func (s *Shop) Check() string {\n\treturn s.h.Sum()\n}\n"
    ),
    "setup.go": (
        "package shop\n\nfunc Open() *Shop {\n\ts := &Shop{}\n\ts.store = newDisk()\n\ts.storeName = &newMemory()\n"
        "\ts.cache = newDisk()\n\treturn s\n}\n\n"
        "func Reopen(s *Shop) {\n\ts.cache = newMemory()\n\ts.h = newHash()\n}\n"
    ),
    "disk.go": (
        "package shop\n\ntype disk struct{}\n\nfunc newDisk() *disk {\n\treturn &disk{}\n}\n\n"
        "func (d *disk) Get(key string) string {\n\treturn key\n}\n"
    ),
    "memory.go": (
        "package shop\n\ntype memory struct{}\n\nfunc newMemory() *memory {\n\treturn &memory{}\n}\n\n"
        "func (m *memory) Get(key string) string {\n\treturn key\n}\n\n"
        "type hash struct{}\n\nfunc newHash() *hash {\n\treturn &hash{}\n}\n\nfunc (h *hash) Sum() string {\n"
        '\treturn ""\n}\n'
    ),
}


def test_a_go_interface_fields_type_is_the_one_its_package_constructs_for_that_field(tmp_path: Path) -> None:
    """echo's `e.router = NewRouter(e)`: a call through an interface field reaches the method of the one type
    the package's files assign to that very field (`s.store`, set in another file), not to a field whose
    name starts alike (`s.storeName`, given a `memory`); a field given two types (`s.cache`) is left out;
    a stored value's call is no handler of the field (`s.h = newHash()`: `s.h.Sum()` never calls
    `newHash`)."""
    root = write_tree(tmp_path / "repo", PACKAGED)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    edges = graph.edges(["shop.go"])
    found = {(e.callee_path, e.callee, e.line) for e in edges if e.caller == "Shop.Find"}
    assert ("disk.go", "disk.Get", 19) in found  # `s.store.Get(key)`
    assert ("memory.go", "memory.Get", 21) in found  # `s.storeName.Get(key)`
    assert not any(line == 20 for _, _, line in found)  # `s.cache.Get(key)`: disk or memory
    assert hops(edges, "Shop.Check") == {("memory.go", "hash.Sum")}


def test_a_go_file_calling_its_own_constructor_is_parsed_once_for_its_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`s := NewServer()` then `s.Start()`: the type `NewServer` returns is read from the tree the file's calls
    are read from, not from a second parse of the same file."""
    files = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "server/server.go": (
            "package server\n\ntype Server struct{}\n\nfunc NewServer() *Server {\n\treturn &Server{}\n}\n\n"
            "func (s *Server) Start() {}\n\nfunc Run() {\n\ts := NewServer()\n\ts.Start()\n}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    parsed: list[str] = []
    parse_tree = tscalls.parse_tree

    def counted(language: str, text: str) -> Any:
        parsed.append(language)
        return parse_tree(language, text)

    monkeypatch.setattr(tscalls, "parse_tree", counted)
    graph = extract_facts(root, map_repository(root)).calls
    assert hops(graph.edges(["server/server.go"]), "Run") == {
        ("server/server.go", "NewServer"),
        ("server/server.go", "Server.Start"),
    }
    assert parsed == ["go"]


def test_a_go_package_s_table_reads_its_own_folder_s_files_not_every_file_again() -> None:
    """traefik has 180 Go packages: each package's table scanned all 2,000 files' facts for its folder."""

    class Counted(dict):  # type: ignore[type-arg]
        scans = 0

        def items(self):  # type: ignore[no-untyped-def]
            Counted.scans += 1
            return super().items()

    def go(path: str, *names: str) -> FileFacts:
        return FileFacts(path, "go", [Symbol(name, "function", 1, 2) for name in names])

    files = Counted(
        {
            "a/a.go": go("a/a.go", "New", "Run"),
            "a/a_test.go": go("a/a_test.go", "TestRun"),
            "b/b.go": go("b/b.go", "New"),
            "b/c/c.go": go("b/c/c.go", "Serve"),
            "b/b.ts": FileFacts("b/b.ts", "typescript", [Symbol("New", "function", 1, 2)]),
        }
    )
    calls = tscalls.TreeSitterCalls(lambda path: None, lambda path: [], files, lambda *args: [])
    tables = {folder: calls.package(folder, "go") for folder in ("a", "b", "b/c", "d")}
    assert {folder: sorted(table) for folder, table in tables.items()} == {
        "a": ["New", "Run"],
        "b": ["New"],
        "b/c": ["Serve"],
        "d": [],
    }
    assert tables["b"]["New"][0][0] == "b/b.go"
    assert Counted.scans == 1


RUNNING = {
    "go.mod": "module example.com/fx\n\ngo 1.21\n",
    "internal/lifecycle/lifecycle.go": (
        "package lifecycle\n\n// Hook is a pair of callbacks.\ntype Hook struct {\n\tOnStart func() error\n}\n\n"
        "// Lifecycle runs hooks.\ntype Lifecycle struct {\n\thooks []Hook\n}\n\n"
        "// Start runs the start hooks.\nfunc (l *Lifecycle) Start() error {\n"
        "\tfor _, h := range l.hooks {\n\t\tif err := l.runStartHook(h); err != nil {\n\t\t\treturn err\n"
        "\t\t}\n\t}\n\treturn nil\n}\n\n"
        "func (l *Lifecycle) runStartHook(h Hook) error {\n\treturn h.OnStart()\n}\n\n"
        "// Stop runs nothing.\nfunc (l *Lifecycle) Stop() error {\n\treturn nil\n}\n"
    ),
    "lifecycle.go": (
        'package fx\n\nimport "example.com/fx/internal/lifecycle"\n\n'
        "type lifecycleWrapper struct {\n\t*lifecycle.Lifecycle\n}\n"
    ),
    "app.go": (
        "package fx\n\n// App is an application.\ntype App struct {\n\tlifecycle *lifecycleWrapper\n}\n\n"
        "// Run starts the application, then stops it.\nfunc (app *App) Run() {\n"
        "\tapp.Start()\n\tapp.Stop()\n}\n\n"
        "// Start runs the start hooks.\nfunc (app *App) Start() error {\n"
        "\treturn withTimeout(&withTimeoutParams{callback: app.start})\n}\n\n"
        "func (app *App) start() error {\n\treturn app.lifecycle.Start()\n}\n\n"
        "// Stop runs the stop hooks.\nfunc (app *App) Stop() error {\n"
        "\tcb := func() error {\n\t\treturn app.lifecycle.Stop()\n\t}\n"
        "\treturn withTimeout(&withTimeoutParams{callback: cb})\n}\n\n"
        "type withTimeoutParams struct {\n\tcallback func() error\n}\n\n"
        "func withTimeout(param *withTimeoutParams) error {\n\treturn param.callback()\n}\n"
    ),
}


def test_a_go_function_value_a_caller_passes_is_called_under_that_caller(tmp_path: Path) -> None:
    """fx's `withTimeout(ctx, &withTimeoutParams{callback: app.start})` in `Start`, and a closure in `Stop`:
    `param.callback(ctx)` reaches `App.start` only as `Start` passes it (CallEdge.passed_by), so the call
    tree draws `App.start` under `Start → withTimeout` — it had been drawn under `Stop`, the first caller
    of `withTimeout` reached — and `Stop → withTimeout` calls nothing of the repository."""
    root = write_tree(tmp_path / "repo", RUNNING)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    passed = [e for e in graph.edges(["app.go"]) if e.caller == "withTimeout"]
    assert [(e.callee, e.passed_by) for e in passed] == [("App.start", (("app.go", "App.Start"),))]
    tree = call_tree(graph, graph.files, ("app.go", "App.Run"))
    start, stop = tree
    assert (start.edge.callee, stop.edge.callee) == ("App.Start", "App.Stop")
    assert [t.edge.callee for t in start.below] == ["withTimeout"]
    assert [t.edge.callee for t in start.below[0].below] == ["App.start"]
    assert "App.start" not in str(stop)


def test_a_go_method_call_reaches_the_method_another_package_s_embedded_type_promotes(tmp_path: Path) -> None:
    """fx's `type lifecycleWrapper struct { *lifecycle.Lifecycle }`: `app.lifecycle.Start(ctx)` is
    internal/lifecycle's `Lifecycle.Start`, promoted to the wrapper; it led nowhere, so the run half of the
    flow stopped at `App.start`."""
    root = write_tree(tmp_path / "repo", RUNNING)
    graph = extract_facts(root, map_repository(root)).calls
    assert isinstance(graph, CallGraph)
    edges = graph.edges(["app.go"])
    assert hops(edges, "App.start") == {("internal/lifecycle/lifecycle.go", "Lifecycle.Start")}
    assert hops(edges, "App.Stop") == {
        ("app.go", "withTimeout"),
        ("internal/lifecycle/lifecycle.go", "Lifecycle.Stop"),
    }


HELPED = {
    "go.mod": "module example.com/fx\n\ngo 1.21\n",
    "README.md": "# fx\n\n```go\nfunc main() {\n\tfx.New().Run()\n}\n```\n",
    "app.go": (
        "package fx\n\n// App is an application.\ntype App struct {\n\terr error\n}\n\n"
        "// New makes an App.\nfunc New() *App {\n\treturn &App{}\n}\n\n"
        "// Err is the error New met.\nfunc (app *App) Err() error {\n\treturn app.err\n}\n\n"
        "// Timeout is how long starting may take.\nfunc (app *App) Timeout() int {\n\treturn 1\n}\n\n"
        "// Done is closed when the App stops.\nfunc (app *App) Done() error {\n\treturn nil\n}\n\n"
        "// Run runs the application.\nfunc (app *App) Run() {\n\tapp.Err()\n}\n"
    ),
    "fxtest/app.go": (
        'package fxtest\n\nimport "example.com/fx"\n\n// App is an App for tests.\n'
        "type App struct {\n\t*fx.App\n}\n\n"
        "// RequireStart starts it.\nfunc (app *App) RequireStart() {\n\tapp.Err()\n\tapp.Timeout()\n"
        "\tapp.Done()\n}\n\n// RequireStop stops it.\nfunc (app *App) RequireStop() {\n\tapp.Err()\n"
        "\tapp.Timeout()\n\tapp.Done()\n}\n\n// RequireDone waits.\nfunc (app *App) RequireDone() {\n"
        "\tapp.Err()\n\tapp.Timeout()\n\tapp.Done()\n}\n"
    ),
}


def test_a_test_helper_package_s_calls_pick_none_of_a_type_s_main_methods(tmp_path: Path) -> None:
    """fx's fxtest embeds `*fx.App` and calls its `Err` and `StartTimeout`: counted as the library's own
    use, they pushed `Run`, which the usage examples call, off the App's methods. A Go package for the users'
    tests (`fxtest`, `httptest`) wraps the API it tests: its calls still weigh the type, not its methods."""
    root = write_tree(tmp_path / "repo", HELPED)
    facts = extract_facts(root, map_repository(root))
    assert isinstance(facts.calls, CallGraph)
    assert facts.calls.calls_into("app.go")["App.Timeout"] == 3  # the embedding is followed
    (app,) = [r for r in key_symbols(facts, "app.go") if r.symbol.name == "App"]
    assert "App.Run" in [m.name for m in app.methods]
