"""Calls of an interface or abstract method go on into the repository's implementations: in the call tree
only (`CallEdge.dispatched`), never in the graph's edges nor in what ranks an entry point."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import flow_branches
from generator.repo.facts.calltree import call_tree, main_line, reached
from generator.repo.facts.dispatch import DISPATCH
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import CallTree
from generator.site.pages.repo_diagrams import flow_tree_markdown

GO = {
    "go.mod": "module example.com/retry\n\ngo 1.21\n",
    "retry.go": (
        "package retry\n\n"
        "// BackOff says how long to wait before the next try.\n"
        "type BackOff interface {\n\tNext() int\n\tReset()\n}\n\n"
        "type Exponential struct {\n\tn int\n}\n\n"
        "func (e *Exponential) Next() int {\n\te.n = grow(e.n)\n\treturn e.n\n}\n\n"
        "func (e *Exponential) Reset() {\n\te.n = 1\n}\n\n"
        "type Constant struct{}\n\n"
        "func (c *Constant) Next() int {\n\treturn 1\n}\n\n"
        "func (c *Constant) Reset() {}\n\n"
        "// Noise has a Next but no Reset: it is no BackOff.\n"
        "type Noise struct{}\n\n"
        "func (n *Noise) Next() int {\n\treturn 0\n}\n\n"
        "func grow(n int) int {\n\tif n > 1000 {\n\t\treturn n\n\t}\n\tn = n * 2\n\tn = n + 1\n"
        "\treturn n\n}\n\n"
        "// Retry runs op until it succeeds, waiting as b says.\n"
        "func Retry(op func() error, b BackOff) error {\n\tb.Reset()\n\tfor {\n"
        "\t\tif err := op(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\twait(b.Next())\n\t}\n}\n\n"
        "func wait(n int) {\n\t_ = n\n}\n"
    ),
}

PYTHON = {
    "db/__init__.py": "from db.core import Connection\n\n__all__ = ['Connection']\n",
    "db/interfaces.py": (
        "class ConnectionBackend:\n"
        "    def fetch_all(self, query):\n"
        '        """Every row the query selects."""\n'
        "        raise NotImplementedError()\n\n"
        "    def close(self):\n        self.closed = True\n"
    ),
    "db/sqlite.py": (
        "from db.interfaces import ConnectionBackend\n\n\n"
        "class SQLiteConnection(ConnectionBackend):\n"
        "    def fetch_all(self, query):\n"
        "        compiled = self._compile(query)\n"
        "        rows = []\n"
        "        for row in compiled:\n            rows.append(row)\n"
        "        return rows\n\n"
        "    def _compile(self, query):\n"
        "        parts = query.split()\n        return [part.strip() for part in parts]\n\n"
        "    def close(self):\n        self.closed = 'twice'\n"
    ),
    "db/core.py": (
        "from db.interfaces import ConnectionBackend\n\n\n"
        "class Connection:\n"
        "    def __init__(self, backend):\n        self._backend: ConnectionBackend = backend\n\n"
        "    def fetch_all(self, query):\n        return self._backend.fetch_all(query)\n\n"
        "    def close(self):\n        self._backend.close()\n"
    ),
}


def _names(tree: list[CallTree]) -> list[str]:
    return [name for branch in tree for name in (branch.edge.callee, *_names(list(branch.below)))]


def test_a_go_interface_call_branches_to_the_types_that_implement_it_in_the_tree_only(tmp_path: Path) -> None:
    """`b.Next()` with `b BackOff` (an interface of the package) is answered by the package's types that
    have every method BackOff declares: Exponential and Constant, not Noise (no Reset). The tree follows
    them into `grow`; the graph's edges and what ranks an entry point know nothing of them."""
    root = write_tree(tmp_path / "repo", GO)
    facts = extract_facts(root, map_repository(root))
    graph = facts.calls
    assert graph is not None
    dispatched = {e.callee for e in graph.calls_of("retry.go", {"Retry"}, dispatched=True) if e.dispatched}
    assert dispatched == {"Exponential.Next", "Exponential.Reset", "Constant.Next", "Constant.Reset"}
    assert not any(e.dispatched or "Next" in e.callee for e in graph.edges())
    tree = call_tree(graph, facts.files, ("retry.go", "Retry"))
    assert {"Exponential.Next", "grow"} <= set(_names(tree))
    assert "Noise.Next" not in _names(tree)
    assert ("retry.go", "grow") not in reached(graph, facts.files, ("retry.go", "Retry"))


# ko's `publishImages(…, b build.Interface)` in pkg/commands: the builder is an interface of another package
# of the repository, implemented there
GO_ACROSS = {
    "go.mod": "module example.com/ko\n\ngo 1.21\n",
    "pkg/build/build.go": (
        "package build\n\n"
        "// Interface builds an image from an import path.\n"
        "type Interface interface {\n\tBuild(path string) int\n\tQualify(path string) string\n}\n\n"
        "type gobuild struct{}\n\n"
        "func (g *gobuild) Build(path string) int {\n\treturn compile(len(path))\n}\n\n"
        "func (g *gobuild) Qualify(path string) string {\n\treturn path\n}\n\n"
        "func compile(n int) int {\n\tn = n * 2\n\tn = n + 1\n\treturn n\n}\n"
    ),
    "pkg/commands/publisher.go": (
        "package commands\n\n"
        'import "example.com/ko/pkg/build"\n\n'
        "// publishImages builds each import path.\n"
        "func publishImages(paths []string, b build.Interface) int {\n\ttotal := 0\n"
        "\tfor _, p := range paths {\n\t\ttotal += b.Build(b.Qualify(p))\n\t}\n\treturn total\n}\n"
    ),
}


def test_a_go_call_through_another_packages_interface_branches_to_that_packages_types(tmp_path: Path) -> None:
    """ko's flow stopped at `publishImages`: `b.Build(…)` with `b build.Interface` was no call of the
    repository's, as only the caller's own package's interfaces were looked up. The interface of an imported
    package of the repository is answered by that package's types having every method it declares."""
    root = write_tree(tmp_path / "repo", GO_ACROSS)
    facts = extract_facts(root, map_repository(root))
    graph = facts.calls
    assert graph is not None
    calls = graph.calls_of("pkg/commands/publisher.go", {"publishImages"}, dispatched=True)
    assert {(e.callee_path, e.callee) for e in calls if e.dispatched} == {
        ("pkg/build/build.go", "gobuild.Build"),
        ("pkg/build/build.go", "gobuild.Qualify"),
    }
    tree = call_tree(graph, facts.files, ("pkg/commands/publisher.go", "publishImages"))
    assert "compile" in _names(tree)


def test_an_abstract_python_method_branches_to_its_overrides_and_a_method_with_work_does_not(
    tmp_path: Path,
) -> None:
    """`self._backend.fetch_all()` on an attribute annotated ConnectionBackend reaches its abstract `fetch_all`
    (it only raises NotImplementedError), which goes on into SQLiteConnection's override and its
    `_compile`; `close` has work of its own, so its override is no branch of it."""
    root = write_tree(tmp_path / "repo", PYTHON)
    facts = extract_facts(root, map_repository(root))
    graph = facts.calls
    assert graph is not None
    assert {
        (e.callee, e.dispatched)
        for e in graph.calls_of("db/interfaces.py", {"ConnectionBackend.fetch_all"}, dispatched=True)
    } == {("SQLiteConnection.fetch_all", True)}
    assert graph.calls_of("db/interfaces.py", {"ConnectionBackend.close"}, dispatched=True) == []
    assert graph.calls_of("db/interfaces.py", {"ConnectionBackend.fetch_all"}) == []
    tree = call_tree(graph, facts.files, ("db/core.py", "Connection.fetch_all"))
    assert _names(tree)[:3] == [
        "ConnectionBackend.fetch_all",
        "SQLiteConnection.fetch_all",
        "SQLiteConnection._compile",
    ]


def test_an_abstract_call_follows_only_the_largest_implementations(tmp_path: Path) -> None:
    """A base with more subclasses than DISPATCH is followed into the largest overrides only."""
    subclasses = "".join(
        f"class Impl{n}(Base):\n    def run(self):\n" + "        x = 1\n" * n + "        return x\n\n\n"
        for n in range(1, DISPATCH + 3)
    )
    root = write_tree(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/base.py": "class Base:\n    def run(self):\n        raise NotImplementedError\n\n\n"
            + subclasses,
            "pkg/use.py": "from pkg.base import Base\n\n\ndef go(job: Base):\n    return job.run()\n",
        },
    )
    graph = extract_facts(root, map_repository(root)).calls
    assert graph is not None
    followed = {e.callee for e in graph.calls_of("pkg/base.py", {"Base.run"}, dispatched=True)}
    assert followed == {f"Impl{n}.run" for n in range(3, DISPATCH + 3)}


def test_the_flow_list_says_an_implementation_is_one_not_a_direct_call(tmp_path: Path) -> None:
    """`Retry` calls `b.Next()` on the interface: the list says it reaches `Exponential.Next` as an
    implementation, cited at the interface call's line."""
    root = write_tree(tmp_path / "repo", GO)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    linker = Linker({path: 80 for path in GO}, "r" * 40, "https://github.com/acme/retry")
    tree = call_tree(facts.calls, facts.files, ("retry.go", "Retry"))
    listed = str(flow_tree_markdown(tuple(flow_branches(tree, linker)))).splitlines()
    line = GO["retry.go"].splitlines().index("\t\twait(b.Next())") + 1
    assert any(
        item.strip().startswith(f"- calls the implementation `Exponential.Next` — [retry.go:{line}]")
        for item in listed
    )
    assert any(item.strip().startswith("- calls `wait`") for item in listed)


# loguru's shape: a handler keeps whatever sink it is given and writes to it; the sinks share no base class
SINKS = {
    "log/__init__.py": "from log.handler import Handler\n\n__all__ = ['Handler']\n",
    "log/sinks.py": (
        "class StreamSink:\n"
        "    def __init__(self, stream):\n        self._stream = stream\n\n"
        "    def write(self, message):\n        self._stream.write(message)\n\n\n"
        "class FileSink:\n"
        "    def __init__(self, path):\n        self._fh = None\n\n"
        "    def write(self, message):\n"
        "        if self._fh is None:\n            self._fh = rotate(message)\n"
        "        self._fh.write(message)\n        self._fh.flush()\n\n\n"
        "def rotate(message):\n" + "".join(f"    step{n} = {n}\n" for n in range(8)) + "    return None\n"
    ),
    "log/handler.py": (
        "class Handler:\n"
        "    def __init__(self, sink):\n        self._sink = sink\n\n"
        "    def emit(self, record):\n        text = str(record)\n        self._sink.write(text)\n"
    ),
}

# multer's shape: the middleware calls the storage engine it was configured with, a constructor function
# whose prototype holds the method
ENGINES = {
    "package.json": '{"name": "up", "main": "index.js"}\n',
    "index.js": "var makeMiddleware = require('./lib/make')\n\nmodule.exports = makeMiddleware\n",
    "lib/make.js": (
        "function makeMiddleware (setup) {\n"
        "  return function middleware (req, next) {\n"
        "    var storage = setup().storage\n"
        "    storage._handleFile(req, function (err, info) { next(err, info) })\n"
        "  }\n}\n\nmodule.exports = makeMiddleware\n"
    ),
    "storage/disk.js": (
        "function DiskStorage (opts) {\n  this.dir = opts.dir\n}\n\n"
        "DiskStorage.prototype._handleFile = function _handleFile (req, cb) {\n"
        + "".join(f"  var step{n} = {n}\n" for n in range(6))
        + "  cb(null, {path: this.dir})\n}\n\n"
        "module.exports = function (opts) { return new DiskStorage(opts) }\n"
    ),
    "storage/memory.js": (
        "function MemoryStorage (opts) {}\n\n"
        "MemoryStorage.prototype._handleFile = function _handleFile (req, cb) {\n  cb(null, {})\n}\n\n"
        "module.exports = function (opts) { return new MemoryStorage(opts) }\n"
    ),
}


def test_a_receiver_named_after_a_family_of_classes_reaches_their_methods(tmp_path: Path) -> None:
    """`self._sink.write()` with the sink unknown reaches the `write` of the classes named like `sink`
    (StreamSink, FileSink: no base class says so), in the tree only; a receiver word too short to name a
    family (`self._fh.write()`) reaches nothing."""
    root = write_tree(tmp_path / "repo", SINKS)
    facts = extract_facts(root, map_repository(root))
    graph = facts.calls
    assert graph is not None
    assert {
        (e.callee, e.dispatched) for e in graph.calls_of("log/handler.py", {"Handler.emit"}, dispatched=True)
    } == {("FileSink.write", True), ("StreamSink.write", True)}
    assert graph.calls_of("log/handler.py", {"Handler.emit"}) == []
    assert graph.calls_of("log/sinks.py", {"FileSink.write"}, dispatched=True) == [
        e for e in graph.calls_of("log/sinks.py", {"FileSink.write"}) if e.callee == "rotate"
    ]
    tree = call_tree(graph, facts.files, ("log/handler.py", "Handler.emit"))
    assert {"FileSink.write", "rotate"} <= set(_names(tree))


def test_a_js_receiver_named_after_a_family_of_constructors_reaches_their_prototype_methods(
    tmp_path: Path,
) -> None:
    root = write_tree(tmp_path / "repo", ENGINES)
    facts = extract_facts(root, map_repository(root))
    graph = facts.calls
    assert graph is not None
    called = graph.calls_of("lib/make.js", {"makeMiddleware"}, dispatched=True)
    assert {(e.callee_path, e.callee) for e in called if e.dispatched} == {
        ("storage/disk.js", "DiskStorage._handleFile"),
        ("storage/memory.js", "MemoryStorage._handleFile"),
    }
    assert not any(e.dispatched for e in graph.edges())


def test_a_function_calling_an_implementation_among_its_own_calls_weighs_as_before(tmp_path: Path) -> None:
    """`spawn` starts an optional engine (`self._engine.run()`, a family whose BigEngine leads to much
    code) beside its own small set-up; `serve` calls it, then `work`: the dispatched call does not make
    `spawn` outweigh `work` (only an abstract method, all of whose calls are dispatched, weighs what its
    implementation leads to), so the main line stays on `work`."""
    steps = "".join(f"    step{n} = {n}\n" for n in range(40))
    root = write_tree(
        tmp_path / "repo",
        {
            "srv/__init__.py": "from srv.app import App\n\n__all__ = ['App']\n",
            "srv/engines.py": (
                "class BigEngine:\n    def run(self):\n        return crunch()\n\n\n"
                "def crunch():\n" + steps * 4 + "    return 0\n"
            ),
            "srv/app.py": (
                "class App:\n"
                "    def __init__(self, engine):\n        self._engine = engine\n\n"
                "    def serve(self):\n        self.spawn()\n        return self.work()\n\n"
                "    def spawn(self):\n        self.prepare()\n        self._engine.run()\n\n"
                "    def prepare(self):\n        return 1\n\n"
                "    def work(self):\n        return handle()\n\n\n"
                "def handle():\n" + steps + "    return 0\n"
            ),
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = call_tree(facts.calls, facts.files, ("srv/app.py", "App.serve"))
    assert [edge.callee for edge in main_line(tree)][:2] == ["App.work", "handle"]


INHERITED = {
    "odm/__init__.py": "",
    "odm/getters.py": (
        "from abc import abstractmethod\n\n\n"
        "class Getters:\n"
        "    @classmethod\n    @abstractmethod\n    def get_settings(cls):\n        pass\n\n"
        "    @classmethod\n    def get_collection(cls):\n        return cls.get_settings().collection\n"
    ),
    "odm/documents.py": (
        "from odm.getters import Getters\n\n\n"
        "class Document(Getters):\n"
        "    def insert(self):\n"
        "        collection = self.get_collection()\n"
        "        collection.insert_one(self)\n        return self\n\n"
        "    @classmethod\n    def get_settings(cls):\n"
        "        settings = cls._settings\n        settings.check()\n        return settings\n"
    ),
    "odm/views.py": (
        "from odm.getters import Getters\n\n\n"
        "class View(Getters):\n"
        "    @classmethod\n    def get_settings(cls):\n"
        "        settings = cls._view\n        settings.check()\n        settings.load()\n"
        "        settings.parse()\n        settings.close()\n        return settings\n"
    ),
    "odm/history.py": (
        "from odm.documents import Document\n\n\n"
        "class Logged(Document):\n"
        "    def insert(self):\n        self.logged = True\n        return super().insert()\n"
    ),
}


def test_a_call_on_self_of_an_inherited_method_reaches_the_receivers_own_override(tmp_path: Path) -> None:
    """`Document.insert` calls the inherited `get_collection`, whose `cls.get_settings()` runs on a Document:
    it is `Document.get_settings`, cited at the call (getters.py:12), not the abstract declaration going on
    into `View.get_settings`, an override of another branch of the class tree. From the abstract type
    itself the implementations are still followed; `super().insert()` stays the base's."""
    root = write_tree(tmp_path / "repo", INHERITED)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = call_tree(facts.calls, facts.files, ("odm/documents.py", "Document.insert"))
    hops = [
        (branch.edge.callee_path, branch.edge.callee, branch.edge.line)
        for top in tree
        for branch in (top, *top.below)
    ]
    assert hops == [
        ("odm/getters.py", "Getters.get_collection", 6),
        ("odm/documents.py", "Document.get_settings", 12),
    ]
    base = call_tree(facts.calls, facts.files, ("odm/getters.py", "Getters.get_collection"))
    assert "View.get_settings" in _names(base)
    logged = call_tree(facts.calls, facts.files, ("odm/history.py", "Logged.insert"))
    assert _names(logged)[:3] == ["Document.insert", "Getters.get_collection", "Document.get_settings"]
