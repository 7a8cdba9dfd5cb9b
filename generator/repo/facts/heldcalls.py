"""Calls through a function kept on an instance: a function handed to a Python class's constructor
(`HookCaller(name, self._hookexec)`) that `__init__` keeps on the instance (`self._hookexec =
hook_execute`) is called wherever the class calls that attribute (`self._hookexec(…)` in `__call__`). No
call in the class names the function; these edges say where it is reached from, so pluggy's flow goes on
from `HookCaller.__call__` into the plugin manager's `_hookexec` and `_multicall`.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from generator.repo.model import CallEdge, FileFacts

Read = Callable[[str], str | None]
# `self.<attribute> = self.<attribute>.<method>` alone on its line: a bound method kept
_KEEPS_METHOD = re.compile(r"^\s+self\.\w+\s*=\s*self\.\w+\.\w+\s*$", re.MULTILINE)
Target = tuple[str, str]


@dataclass
class _Trees:
    """The syntax trees asked for: a symbol's own lines (a class, the function making the call), parsed
    once, with their line numbers; the whole file where a span does not parse alone."""

    read: Read
    files: Mapping[str, FileFacts]
    texts: dict[str, list[str] | None] = field(default_factory=dict)
    parsed: dict[tuple[str, str], ast.Module | None] = field(default_factory=dict)

    def of(self, path: str, name: str) -> ast.Module | None:
        if (path, name) not in self.parsed:
            self.parsed[(path, name)] = self._parse(path, name)
        return self.parsed[(path, name)]

    def _parse(self, path: str, name: str) -> ast.Module | None:
        if path not in self.texts:
            text = self.read(path)
            self.texts[path] = text.split("\n") if text is not None else None
        lines = self.texts[path]
        if lines is None:
            return None
        fact = self.files.get(path)
        symbol = next((s for s in fact.symbols if s.name == name), None) if fact is not None else None
        if symbol is not None:  # blank lines before the span keep its line numbers
            span = textwrap.dedent("\n".join(lines[symbol.start - 1 : symbol.end]))
            try:
                return ast.parse("\n" * (symbol.start - 1) + span)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                pass
        try:
            return ast.parse("\n".join(lines))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def held_calls(
    edges: Mapping[str, list[CallEdge]], files: Mapping[str, FileFacts], read: Read
) -> list[CallEdge]:
    """For each call of a Python class handing it functions (`CallEdge.handed` at the line of a call to
    the class), an edge from each of the class's methods calling the attribute `__init__` keeps the handed
    function in, to that function, at the line of that call."""
    trees = _Trees(read, files)
    found: list[CallEdge] = []
    for path, path_edges in edges.items():
        at_line: dict[tuple[str, int], list[CallEdge]] = {}
        for edge in path_edges:
            at_line.setdefault((edge.caller, edge.line), []).append(edge)
        for calls in at_line.values():
            handed = [e for e in calls if e.handed]
            if not handed:
                continue  # nothing handed at this line: no class call here to look into
            made = [e for e in calls if not e.handed and _python_class(files, e.callee_path, e.callee)]
            for edge in made:
                found.extend(_through_instance(trees, path, edge, handed))
    return list({(e.caller_path, e.caller, e.callee_path, e.callee, e.line): e for e in found}.values())


def _through_instance(trees: _Trees, path: str, made: CallEdge, handed: list[CallEdge]) -> list[CallEdge]:
    home = trees.of(made.callee_path, made.callee)
    cls = _class_def(home, made.callee) if home is not None else None
    kept = _kept_parameters(cls) if cls is not None else {}
    module = trees.of(path, made.caller) if kept else None
    if module is None or cls is None:
        return []
    given = _given(module, made.line, made.callee.rpartition(".")[2], handed)
    found = []
    for parameter, target in given.items():
        attribute = kept.get(parameter)
        for method, line in _attribute_calls(cls, attribute) if attribute else []:
            name = f"{made.callee}.{method}"
            found.append(CallEdge(made.callee_path, name, target.callee_path, target.callee, line))
    return found


def _given(module: ast.Module, line: int, cls: str, handed: list[CallEdge]) -> dict[int | str, CallEdge]:
    """The handed functions among the arguments of the call of `cls` at `line`: by position (0 the first
    after `self`) or by keyword."""
    short = {e.callee.rpartition(".")[2]: e for e in handed}
    found: dict[int | str, CallEdge] = {}
    for node in ast.walk(module):
        if not (isinstance(node, ast.Call) and node.lineno == line and _names(node.func) == cls):
            continue
        for index, argument in enumerate(node.args):
            if _names(argument) in short:
                found[index] = short[_names(argument)]
        for keyword in node.keywords:
            if keyword.arg and _names(keyword.value) in short:
                found[keyword.arg] = short[_names(keyword.value)]
    return found


def _kept_parameters(cls: ast.ClassDef) -> dict[int | str, str]:
    """`__init__`'s parameters it keeps on the instance (`self.attr = parameter`), by position (0 the first
    after `self`) and by name, each with its attribute."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return {}
    positional = [a.arg for a in [*init.args.posonlyargs, *init.args.args][1:]]
    named = {*positional, *(a.arg for a in init.args.kwonlyargs)}
    kept: dict[int | str, str] = {}
    for node in ast.walk(init):
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if isinstance(target, ast.Attribute) and _on_self(target) and isinstance(value, ast.Name):
            if value.id in named:
                kept[value.id] = target.attr
            if value.id in positional:
                kept[positional.index(value.id)] = target.attr
    return kept


def _attribute_calls(cls: ast.ClassDef, attribute: str) -> list[tuple[str, int]]:
    """(method, line) of each call of `self.<attribute>(…)` in the class's methods."""
    found = []
    for method in (n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
        for node in ast.walk(method):
            if isinstance(node, ast.Call) and _on_self(node.func) and _names(node.func) == attribute:
                found.append((method.name, node.lineno))
    return found


def _class_def(module: ast.Module, name: str) -> ast.ClassDef | None:
    return next((n for n in module.body if isinstance(n, ast.ClassDef) and n.name == name), None)


def _python_class(files: Mapping[str, FileFacts], path: str, name: str) -> bool:
    fact = files.get(path)
    return (
        fact is not None
        and fact.language == "python"
        and any(s.name == name and s.kind == "class" for s in fact.symbols)
    )


def _on_self(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _names(node: ast.expr) -> str:
    """The last name an expression ends in: `self._hookexec` → `_hookexec`, `HookCaller` → itself."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def kept_method_calls(
    edges: Mapping[str, list[CallEdge]], files: Mapping[str, FileFacts], read: Read
) -> list[CallEdge]:
    """Calls through a bound method a Python class keeps (`self._router_search = self._router.find` in
    `__init__`, sanic's `self.request_handler = self.app.handle_request`): wherever the class calls the
    attribute (`self._router_search(path)`), an edge to the method of the class the other attribute holds —
    known from the class's own calls of that attribute's methods (`self._router.add_route(…)` resolved to
    `CompiledRouter.add_route`)."""
    trees = _Trees(read, files)
    found: list[CallEdge] = []
    for path, fact in files.items():
        if fact.language != "python" or path not in edges or not any(s.kind == "class" for s in fact.symbols):
            continue
        if not _KEEPS_METHOD.search(read(path) or ""):
            continue  # a file keeping no bound method is never parsed for one
        for symbol in (s for s in fact.symbols if s.kind == "class"):
            found.extend(_kept_method_calls(trees, path, symbol.name, edges[path], files))
    return found


def _kept_method_calls(
    trees: _Trees, path: str, cls_name: str, path_edges: list[CallEdge], files: Mapping[str, FileFacts]
) -> list[CallEdge]:
    module = trees.of(path, cls_name)
    cls = _class_def(module, cls_name) if module is not None else None
    if cls is None:
        return []
    # (an `@overload`ed constructor's stubs beside it)
    inits = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    kept: dict[str, tuple[str, str]] = {}  # attribute → (attribute holding the object, method)
    for node in (n for init in inits for n in ast.walk(init)):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(target := node.targets[0], ast.Attribute)
            and _on_self(target)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Attribute)
            and _on_self(node.value.value)
        ):
            kept[target.attr] = (node.value.value.attr, node.value.attr)
    if not kept:
        return []
    holders = {holder for holder, _ in kept.values()}
    # the class each holding attribute's object is, from the calls of its methods the class makes
    typed: dict[str, str] = {}
    for node in ast.walk(cls):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value
        if isinstance(owner, ast.Attribute) and _on_self(owner) and owner.attr in holders:
            for edge in path_edges:
                if edge.line == node.lineno and edge.callee.endswith(f".{node.func.attr}"):
                    typed.setdefault(owner.attr, f"{edge.callee_path}\0{edge.callee.rpartition('.')[0]}")
    found = []
    for attribute, (holder, method) in kept.items():
        if holder not in typed:
            continue
        callee_path, owner_class = typed[holder].split("\0")
        callee = f"{owner_class}.{method}"
        if not any(s.name == callee for s in files[callee_path].symbols):
            continue
        for caller, line in _attribute_calls(cls, attribute):
            found.append(CallEdge(path, f"{cls_name}.{caller}", callee_path, callee, line))
    return found
