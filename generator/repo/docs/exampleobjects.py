"""The project's methods a Python example calls on its own objects: a class the example defines on a
repository base (`class Product(Document)`), an object it makes of one (`tonybar = Product(…)`), and the
methods called on either (`tonybar.insert()`, `Product.find_one(…)`) are the base's, found along its bases
(`Document.insert`, `FindInterface.find_one`)."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Collection, Iterator

from generator.repo.facts.receivers import Node, Receivers


def example_methods(code: str, receivers: Receivers, foreign: Collection[str] = ()) -> list[tuple[str, str]]:
    """Each call of a repository method on the example's classes and objects, in the order made: the name
    as the example's called names give it (`insert`, `Product.find_one`) and the method it reaches
    (`Document.insert`, `FindInterface.find_one`); [] when the code is no Python the parser reads.
    `foreign`: the other packages the project imports — a base imported from one (pydantic's `BaseModel`)
    is theirs, whatever the project names so."""
    try:
        tree = ast.parse(textwrap.dedent(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    theirs = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in foreign
        for alias in node.names
    }
    classes: dict[str, tuple[set[str], list[Node]]] = {}  # the example's class → its own methods, bases
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            named = [base for base in node.bases if not (isinstance(base, ast.Name) and base.id in theirs)]
            bases = [b for base in named for b in _repository_classes(base, classes, receivers)]
            own = {f.name for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
            if bases:
                classes[node.name] = (own, bases)
    if not classes:
        return []
    held = dict(_objects(tree, classes))
    found: list[tuple[int, int, str, str]] = []
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            continue
        through = func.value.id
        cls = through if through in classes else held.get(through)
        if cls is None or func.attr in classes[cls][0]:
            continue
        method = receivers.method(classes[cls][1], func.attr)
        if method is not None:
            written = f"{through}.{func.attr}" if through in classes else func.attr
            found.append((call.lineno, call.col_offset, written, method[1]))
    return list(dict.fromkeys((written, method) for _, _, written, method in sorted(found)))


def _repository_classes(
    base: ast.expr, classes: dict[str, tuple[set[str], list[Node]]], receivers: Receivers
) -> list[Node]:
    """The repository classes a base names (`Document`, `beanie.Document`), or those an example class
    it names stands on."""
    name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
    if name in classes:
        return classes[name][1]
    return receivers.classes("python", name)


def _objects(tree: ast.AST, classes: dict[str, tuple[set[str], list[Node]]]) -> Iterator[tuple[str, str]]:
    """The example's variables holding an object of one of its classes: given a new one (`Product(…)`) or
    what an awaited call through the class gives (an ORM's `await Product.find_one(…)`)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value, awaited = (
            (node.value.value, True) if isinstance(node.value, ast.Await) else (node.value, False)
        )
        if len(targets) != 1 or not isinstance(targets[0], ast.Name) or not isinstance(value, ast.Call):
            continue
        func = value.func
        if isinstance(func, ast.Name) and func.id in classes:
            yield targets[0].id, func.id
        elif awaited and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            if func.value.id in classes:
                yield targets[0].id, func.value.id
