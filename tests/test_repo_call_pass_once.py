"""The call pass over a Go package does each piece of its work once: each file is read from the checkout
once, though the calls of every file of the package look into the file declaring the struct they go
through; each file is parsed whole once, though a struct it declares embeds another package's type (its
imports are read from its head); and each top-level declaration's syntax tree is walked once, for its
calls, its variables' types and the functions it stores in fields alike. The edges it finds are checked by
the Go call tests."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from repo_source_fixture import write_tree

from generator.repo.facts import calls, comments, extract, languages, tscalls
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.languages import parse_tree
from generator.repo.map.walk import map_repository

SERVER = {
    "go.mod": "module example.com/srv\n\ngo 1.22\n",
    "server.go": (
        "package srv\n\n// Server routes requests.\ntype Server struct {\n\trouter *Router\n"
        "\thandler func(string)\n\thooks []Hook\n}\n\n// Hook runs before a request.\n"
        "type Hook struct{ name string }\n\n// Run runs the hook.\nfunc (h Hook) Run() {}\n\n"
        "// New makes a server.\nfunc New() *Server {\n\ts := &Server{handler: log}\n"
        "\ts.router = &Router{}\n\treturn s\n}\n\nfunc log(line string) {}\n\n"
        "// Handle hands a line to the handler.\nfunc (s *Server) Handle(line string) {\n\ts.handler(line)\n}\n"
    ),
    "router.go": (
        "package srv\n\n// Router finds routes.\ntype Router struct{ routes []string }\n\n"
        "// Find finds a route.\nfunc (r *Router) Find(path string) string {\n\treturn path\n}\n"
    ),
    "serve.go": (
        "package srv\n\n// Serve serves one path.\nfunc (s *Server) Serve(path string) {\n"
        "\tfor _, hook := range s.hooks {\n\t\thook.Run()\n\t}\n\ts.handler(s.router.Find(path))\n}\n"
    ),
    "listen.go": (
        "package srv\n\n// Listen serves every path.\nfunc (s *Server) Listen(paths []string) {\n"
        "\tfor _, p := range paths {\n\t\ts.router.Find(p)\n\t\ts.Serve(p)\n\t}\n}\n"
    ),
}


def _call_pass_facts(tmp_path: Path) -> Any:
    root = write_tree(tmp_path / "srv", SERVER)
    return root, extract_facts(root, map_repository(root))


def test_each_file_is_read_from_the_checkout_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: Counter[str] = Counter()
    read_or_none = calls.read_or_none

    def counted(root: Path, rel: str, **kwargs: Any) -> str | None:
        reads[rel] += 1
        return read_or_none(root, rel, **kwargs)

    monkeypatch.setattr(calls, "read_or_none", counted)
    _, facts = _call_pass_facts(tmp_path)
    edges = {(e.caller, e.callee) for e in facts.calls.edges()}
    assert ("Server.Serve", "Router.Find") in edges and ("Server.Listen", "Router.Find") in edges
    assert reads["server.go"] == 1  # was 3: its own calls, then Serve's and Listen's look at Server's fields
    assert max(reads.values()) == 1


def test_each_top_level_declaration_is_walked_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    walked: Counter[tuple[bytes, int, int]] = Counter()  # (its file's text, start, end) of each walk's node
    descendants = comments.descendants

    def counted(node: Any, *kinds: str) -> Iterator[Any]:
        if node is not None:
            top = node
            while top.parent is not None:
                top = top.parent
            walked[(top.text, node.start_byte, node.end_byte)] += 1
        return descendants(node, *kinds)

    readers = [m for name, m in sys.modules.items() if name.startswith("generator.repo.facts.")]
    for module in (m for m in readers if getattr(m, "descendants", None) is descendants):
        if module.__name__.endswith(("tscalls", "gonodes")):  # the readers of a Go file's calls
            monkeypatch.setattr(module, "descendants", counted)
    root, facts = _call_pass_facts(tmp_path)
    edges = {(e.caller, e.callee) for e in facts.calls.edges()}
    assert ("Server.Serve", "Hook.Run") in edges  # a ranged field's element: the variables were read
    assert ("Server.Handle", "log") in edges  # the function stored in the field it calls
    for path in ("server.go", "serve.go", "listen.go"):
        tree = parse_tree("go", (root / path).read_text()).root_node
        assert walked[(tree.text, tree.start_byte, tree.end_byte)] == 0, path  # the whole file: by its parts
        spans = [(tree.text, d.start_byte, d.end_byte) for d in tree.named_children]
        assert [walked[span] for span in spans] == [1] * len(spans), path  # was 2 for each function


EMBEDDING = {
    "go.mod": "module example.com/fx\n\ngo 1.21\n",
    "internal/lifecycle/lifecycle.go": (
        "package lifecycle\n\n// Lifecycle runs hooks.\ntype Lifecycle struct{ hooks []string }\n\n"
        "// Start runs the start hooks.\nfunc (l *Lifecycle) Start() error {\n\treturn nil\n}\n"
    ),
    "lifecycle.go": (
        'package fx\n\nimport "example.com/fx/internal/lifecycle"\n\n'
        "type lifecycleWrapper struct {\n\t*lifecycle.Lifecycle\n}\n\n"
        "func (w *lifecycleWrapper) size() int {\n\treturn 0\n}\n"
    ),
    "app.go": (
        "package fx\n\n// App is an application.\ntype App struct {\n\tlifecycle *lifecycleWrapper\n}\n\n"
        "// Start runs the start hooks.\nfunc (app *App) Start() error {\n\treturn app.lifecycle.Start()\n}\n"
    ),
}


def test_each_file_is_parsed_whole_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: Counter[str] = Counter()  # the texts the call pass parses
    reading = [False]
    read_call_graph = extract.read_call_graph

    def call_pass(*args: Any, **kwargs: Any) -> Any:
        reading[0] = True
        try:
            return read_call_graph(*args, **kwargs)
        finally:
            reading[0] = False

    def counted(language: str, text: str) -> Any:
        if reading[0]:
            parsed[text] += 1
        return parse_tree(language, text)

    monkeypatch.setattr(extract, "read_call_graph", call_pass)
    for module in (tscalls, languages):
        monkeypatch.setattr(module, "parse_tree", counted)
    root = write_tree(tmp_path / "fx", EMBEDDING)
    facts = extract_facts(root, map_repository(root))
    edges = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges()}
    assert ("App.Start", "internal/lifecycle/lifecycle.go", "Lifecycle.Start") in edges  # the promoted method
    wrapper = (root / "lifecycle.go").read_text()
    assert parsed[wrapper] == 1  # was 2: again for the imports of the struct embedding Lifecycle
    assert max(parsed.values()) == 1
