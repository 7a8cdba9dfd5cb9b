"""Python files for the facts stage, read with `ast`: symbols, imports anywhere, module doc, main guard.

This is the reference reading: pyscan.py and pysymbols.py read the same facts without building a syntax
tree (several times faster), and fall back to this module when a file's layout is unusual.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from generator.repo.facts.extracted import Extracted
from generator.repo.facts.prose import doc_head, module_summary
from generator.repo.facts.pyscan import dunder_all
from generator.repo.model import Symbol


def extract_python(text: str) -> Extracted:
    """Facts of one Python module; raises SyntaxError/ValueError when it does not parse."""
    tree = ast.parse(text.removeprefix("\ufeff"))  # a UTF-8 byte-order mark is legal at the top of a file
    out = Extracted(doc=module_summary(ast.get_docstring(tree, clean=True)))
    for node in module_definitions(tree.body):
        out.symbols.extend(_python_symbols(node, prefix="", in_class=False))
    out.imports = _python_imports(tree, text)
    out.has_main = any(is_main_guard(node) for node in tree.body)
    out.exports = dunder_all(text) if "__all__" in text else []
    return out


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def module_definitions(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's statements, each definition under a module-level `if` / `elif` / `else` (unless its
    test reads `__name__`: the main guard) in its place, once: taskiq declares `TaskiqResult` under
    `if IS_PYDANTIC2:` and again under `else:`, and the first is the symbol (a name already defined is not
    defined again under a guard)."""
    seen: set[str] = set()
    for node in body:
        guarded = isinstance(node, ast.If) and not _names_module(node.test)
        for child in _branches(node) if isinstance(node, ast.If) and guarded else [node]:
            if isinstance(child, _DEFINITIONS):
                if guarded and child.name in seen:
                    continue
                seen.add(child.name)
            if not guarded or isinstance(child, _DEFINITIONS):
                yield child


def _names_module(test: ast.expr) -> bool:
    """Whether a condition reads `__name__` (the main guard, alone or with another test)."""
    return any(isinstance(n, ast.Name) and n.id == "__name__" for n in ast.walk(test))


def _branches(node: ast.If) -> Iterator[ast.stmt]:
    """The statements of an `if` and of its `elif`s and `else`, not of an `if` nested in them."""
    yield from node.body
    elif_ = node.orelse[0] if len(node.orelse) == 1 else None
    if isinstance(elif_, ast.If) and elif_.col_offset == node.col_offset:
        yield from _branches(elif_)
    else:
        yield from node.orelse


def _python_symbols(node: ast.stmt, prefix: str, in_class: bool) -> Iterator[Symbol]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        is_class = isinstance(node, ast.ClassDef)
        kind = "class" if is_class else ("method" if in_class else "function")
        name = prefix + node.name
        public = not node.name.startswith("_") or (node.name.startswith("__") and node.name.endswith("__"))
        yield Symbol(
            name,
            kind,
            start,
            node.end_lineno or node.lineno,
            doc_head(ast.get_docstring(node, clean=False) or ""),
            public and not prefix.startswith("_"),
            parent=prefix[:-1],
            bases=tuple(n for n in map(dotted_name, node.bases) if n)
            if isinstance(node, ast.ClassDef)
            else (),
            stub=_is_stub(node),
        )
        if is_class:
            for child in node.body:
                yield from _python_symbols(child, prefix=name + ".", in_class=True)


def dotted_name(node: ast.expr) -> str:
    """ "pkg.Base" for a Name/Attribute chain (a subscript `Generic[T]` names its value), else ""."""
    if isinstance(node, ast.Subscript):
        node = node.value
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


def last_name(node: ast.expr) -> str:
    """The name an attribute or a name ends with (`send` of `self.sock.send`), else ""."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _is_stub(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """An `@overload` or a body whose first statement is `...`: a declaration, not where the work is."""
    overload = any(dotted_name(d).rsplit(".", 1)[-1] == "overload" for d in node.decorator_list)
    first = node.body[0] if node.body else None
    ellipsis = (
        isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and first.value.value is ...
    )
    return overload or ellipsis


def _python_imports(tree: ast.Module, text: str) -> list[str]:
    """Imports anywhere in the module, as written: 'pkg.mod', '.sibling', '..pkg.mod:name'."""
    found: list[tuple[int, str]] = []
    # most modules import only at the top level (or in a top-level if/try); walk deeper only when an
    # indented import line exists somewhere
    nested = _INDENTED_IMPORT.search(text) is not None
    for node in _statements(tree.body) if nested else tree.body:
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            # `from pkg import name` may import a submodule: keep the names for resolution
            for alias in node.names:
                found.append((node.lineno, base if alias.name == "*" else f"{base}:{alias.name}"))
    return list(dict.fromkeys(name for _, name in sorted(found)))


_INDENTED_IMPORT = re.compile(r"^[ \t]+(?:import|from)[ \t]", re.MULTILINE)
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_COMPOUND = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.Try,
    ast.TryStar,
    ast.With,
    ast.AsyncWith,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Match,
    ast.ExceptHandler,
    ast.match_case,
)


def _statements(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every statement, nested ones included, without visiting expressions (imports are statements;
    skipping the expression nodes makes this several times faster than ast.walk)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _COMPOUND):
            for name in _BLOCK_FIELDS:
                children = getattr(node, name, None)
                if children:
                    stack.extend(children)


def is_main_guard(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":`, either way round."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    parts = [node.test.left, *node.test.comparators]
    names = {p.id for p in parts if isinstance(p, ast.Name)}
    consts = {p.value for p in parts if isinstance(p, ast.Constant)}
    return "__name__" in names and "__main__" in consts
