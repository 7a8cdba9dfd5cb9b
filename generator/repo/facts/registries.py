"""Calls through a registry: functions handed to a class's method (`PipelineFactory.register_all({"load":
run_load, …})`) are called later by the class's other methods, which look them up (`create_pipeline` reads
`cls.workflows[name]`). No call names them there; these edges say where the registered functions are reached
from, so a flow or an answer starting at the lookup goes on into them.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.repo.model import CallEdge, FileFacts

MAX_REGISTERED = 60  # functions one class registers whose lookups are drawn
MAX_METHODS = 20  # a class with more methods is no registry but a whole component
_CONSTRUCTORS = (".__init__", ".constructor")


def registry_calls(edges: Mapping[str, list[CallEdge]], files: Mapping[str, FileFacts]) -> list[CallEdge]:
    """For each class some call hands functions to (the call's callee a method of the class, the
    functions among its arguments: `CallEdge.handed`), an edge from each of the class's other methods to
    each function, at the method's first line; the methods that receive them (and those they call in the
    class) are registrars, not lookups. A constructor is no registrar: what it is given it keeps on the one
    instance it makes (heldcalls.py), whether called as the class or as `super().__init__(table)` (piccolo's
    queries passing their table class on to `Query.__init__`)."""
    registered: dict[tuple[str, str], dict[tuple[str, str], None]] = {}
    registrars: dict[tuple[str, str], set[str]] = {}
    for path_edges in edges.values():
        by_call: dict[tuple[str, int], list[CallEdge]] = {}
        for edge in path_edges:
            by_call.setdefault((edge.caller, edge.line), []).append(edge)
        for call in by_call.values():
            handed = [e for e in call if e.handed]
            if len({(e.callee_path, e.callee) for e in call if not e.handed}) != 1:
                continue  # a line making several calls does not say which one the functions go to
            for edge in call:
                registers = handed and not edge.handed and not edge.callee.endswith(_CONSTRUCTORS)
                owner = _owner(files, edge) if registers else None
                if owner is not None:
                    registrars.setdefault(owner, set()).add(edge.callee)
                    registered.setdefault(owner, {}).update({(e.callee_path, e.callee): None for e in handed})
    found: list[CallEdge] = []
    for (path, cls), functions in registered.items():
        if path not in edges:  # a class of a test or build file the graph does not read (fmt's test/scan.h)
            continue
        methods = [s for s in files[path].symbols if s.parent == cls and s.kind == "method"]
        if len(methods) > MAX_METHODS:
            continue
        inner = _called_within(edges.get(path, []), registrars[(path, cls)])
        for method in methods:
            if method.name in inner or method.name.endswith(_CONSTRUCTORS):
                continue
            found.extend(
                CallEdge(path, method.name, target[0], target[1], method.start, 1.0, True)
                for target in list(functions)[:MAX_REGISTERED]
            )
    return found


def _owner(files: Mapping[str, FileFacts], edge: CallEdge) -> tuple[str, str] | None:
    """The class whose method `edge` calls, when it is one of the repository's."""
    fact = files.get(edge.callee_path)
    if fact is None or "." not in edge.callee:
        return None
    cls = edge.callee.rsplit(".", 1)[0]
    is_class = any(s.name == cls and s.kind == "class" for s in fact.symbols)
    return (edge.callee_path, cls) if is_class else None


def _called_within(path_edges: list[CallEdge], registrars: set[str]) -> set[str]:
    """The registrars and the methods they call in their file, transitively."""
    found, frontier = set(registrars), list(registrars)
    while frontier:
        caller = frontier.pop()
        for edge in path_edges:
            if edge.caller == caller and not edge.handed and edge.callee not in found:
                found.add(edge.callee)
                frontier.append(edge.callee)
    return found
