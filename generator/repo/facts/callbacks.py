"""Calls back into a class handed over: a class given to a call rather than called (`HTTPServer(address,
WSGIRequestHandler)`, `loop.create_server(H11Protocol)`, an import string `"pkg.http:H11Protocol"` read by
a loader) is made and driven by whatever receives it, which calls the methods of its protocol
(`handle`, `data_received`, `__call__`). No call in the repository names those methods; these edges say they
are reached from where the class was handed over, so a server's flow goes on into its request handler.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.repo.model import CallEdge, FileFacts

MAX_CALLBACKS = 12  # a class with more uncalled methods is a whole API handed over, not a protocol
CALLBACK_DUNDERS = frozenset({"__call__", "__iter__", "__aiter__", "__enter__", "__aenter__"})


def callback_calls(edges: Mapping[str, list[CallEdge]], files: Mapping[str, FileFacts]) -> list[CallEdge]:
    """For each call handing over a repository class (`CallEdge.handed`, the callee a class), an edge from
    the caller to each of the class's own methods that no code outside the class calls (public, or a
    callable protocol's dunder): what the receiver calls on the instances it makes. The methods these call
    are already edges of the class's own file."""
    # a method its own class calls is still the receiver's to call (`handle_websocket_upgrade` feeding the
    # next protocol's `data_received`); one called from elsewhere is the repository's API
    called = {
        (e.callee_path, e.callee)
        for path_edges in edges.values()
        for e in path_edges
        if not e.handed and _owner(e.caller) != _owner(e.callee)
    }
    found: list[CallEdge] = []
    callbacks: dict[tuple[str, str], list[str]] = {}
    for path_edges in edges.values():
        for edge in path_edges:
            if not edge.handed or not _is_class(files, edge.callee_path, edge.callee):
                continue
            key = (edge.callee_path, edge.callee)
            if key not in callbacks:
                callbacks[key] = _uncalled_methods(
                    files[edge.callee_path], edge.callee, edge.callee_path, called
                )
            found.extend(
                CallEdge(
                    edge.caller_path, edge.caller, edge.callee_path, method, edge.line, edge.share, True, True
                )
                for method in callbacks[key]
            )
    return found


def _owner(name: str) -> str:
    return name.rpartition(".")[0]


def _is_class(files: Mapping[str, FileFacts], path: str, name: str) -> bool:
    fact = files.get(path)
    return fact is not None and any(s.name == name and s.kind == "class" for s in fact.symbols)


def _uncalled_methods(fact: FileFacts, cls: str, path: str, called: set[tuple[str, str]]) -> list[str]:
    """The class's own methods nothing outside it calls, the receiver's to call; none when there are more
    than MAX_CALLBACKS of them."""
    methods = [
        s.name
        for s in fact.symbols
        if s.parent == cls
        and s.kind == "method"
        and (not s.short_name.startswith("_") or s.short_name in CALLBACK_DUNDERS)
        and (path, s.name) not in called
    ]
    return methods if len(methods) <= MAX_CALLBACKS else []
