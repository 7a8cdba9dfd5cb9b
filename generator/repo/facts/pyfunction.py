"""One Python function's calls, read from its own lines: a path search through a large module needs the
calls of the few functions it passes, not a syntax tree of the whole file (the cost of the main flows on a
repository of large modules). Names resolve through the module's scope as the facts know it (pycalls.py's
light scope, plus the modules it imports); a class's attributes come from its own `__init__`."""

from __future__ import annotations

import ast
import textwrap
import warnings
from collections.abc import Mapping, Sequence

from generator.repo.facts.pycalls import ClassInfo, ModuleScope, PythonCalls, read_body
from generator.repo.model import CallEdge, Symbol


def function_edges(
    calls: PythonCalls, path: str, lines: Sequence[str], symbols: Mapping[str, Symbol], caller: str
) -> list[CallEdge] | None:
    """The calls `caller` (a function or method of `path`, whose text's lines are `lines` and whose symbols
    by name are `symbols`) makes; None when its lines do not parse on their own (the whole file is read
    instead)."""
    symbol = symbols.get(caller)
    if symbol is None or symbol.kind not in {"function", "method"}:
        return []  # a class makes its calls through its methods (`__init__` is asked for by name)
    node = _parse_lines(lines, symbol)
    if node is None:
        return None
    scope = calls.scope(path)
    if scope is None:
        return None
    _bind_modules(calls, scope)
    local, found = read_body(node)
    owner_info = scope.classes.get(symbol.parent) if symbol.parent else None
    if owner_info is not None and any(_through_attribute(call) for call in found):
        _read_constructor(owner_info, lines, symbols, symbol, node)
    owner = symbol.parent if symbol.parent in scope.classes else ""
    # the snippet's line numbers start at 1: shift them to the file's
    shifted = [_at_line(call, symbol.start - 1) for call in found]
    return calls.resolved(scope, [(caller, owner, local, shifted)])


def _through_attribute(call: ast.Call) -> bool:
    """Whether the callee is reached through an attribute of `self` (`self.adapter.send()`): the one
    kind of call the attributes a class's constructor assigns resolve."""
    node = call.func
    while isinstance(node, ast.Attribute):
        inner = node.value
        if (
            isinstance(inner, ast.Attribute)
            and isinstance(inner.value, ast.Name)
            and inner.value.id == "self"
        ):
            return True
        node = inner
    return False


def _read_constructor(
    info: ClassInfo, lines: Sequence[str], symbols: Mapping[str, Symbol], method: Symbol, node: ast.AST
) -> None:
    """The attributes a light scope's class assigns in its `__init__` (`self.adapter = HTTPAdapter()`),
    read the first time one of its methods calls through an attribute; `node`: `method` parsed."""
    if info.attributes or info.constructor_read:
        return
    info.constructor_read = True  # once: a constructor that types no attribute gives nothing every time
    init = symbols.get(f"{method.parent}.__init__")
    # the constructor itself asked for (a path constructing the class): its lines are parsed once
    constructor = node if init is method else _parse_lines(lines, init) if init is not None else None
    if constructor is not None:
        read_body(constructor, info.attributes)


def _parse_lines(lines: Sequence[str], symbol: Symbol) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    own = lines[symbol.start - 1 : symbol.end]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = ast.parse(dedented(own))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    first = module.body[0] if module.body else None
    return first if isinstance(first, ast.FunctionDef | ast.AsyncFunctionDef) else None


def dedented(lines: Sequence[str]) -> str:
    """`textwrap.dedent` of the joined lines, without its regular expressions when every line that is not
    blank starts with the first line's indentation (a function's lines, unless a string holds text left of
    it): that indentation is the common margin then. Blank lines come out empty, as dedent's do."""
    first = lines[0] if lines else ""
    if not first.strip(" \t"):
        return textwrap.dedent("\n".join(lines))
    width = len(first) - len(first.lstrip(" \t"))
    margin = first[:width]
    out = []
    for line in lines:
        if line.startswith(margin) and line[width:].strip(" \t"):
            out.append(line[width:])
        elif not line.strip(" \t"):
            out.append("")
        else:
            return textwrap.dedent("\n".join(lines))
    return "\n".join(out)


def _bind_modules(calls: PythonCalls, scope: ModuleScope) -> None:
    """Add the modules the file imports (`from . import sessions`, `import pkg.models`) to a light scope."""
    if scope.modules_bound:
        return
    scope.modules_bound = True
    for target, name in calls.imported_modules(scope.path):
        scope.names.setdefault(name, (target, ""))


def _at_line(call: ast.Call, offset: int) -> ast.Call:
    call.lineno += offset
    return call
