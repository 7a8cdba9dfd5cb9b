"""Where a call sits in its function: on the straight-line path, or on a side path — an error handler
(`except`, `catch`, `if err != nil {…}`), a warning or deprecation branch, or a branch a bare flag guards
(`if allow_redirects:`, `if engine.RedirectFixedPath && …`) that a typical call may not take.

A flow weighs a callee by the code it leads to times the share of the path its call sits on, so a fallback
that leads to much code (following redirects) does not outweigh the normal path (sending the request).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from generator.repo.facts.comments import node_text

STRAIGHT = 1.0  # a call every run of its function makes (as far as the syntax tells)
FLAG = 0.4  # in a branch a bare flag or setting guards: an option a typical call may leave off
ERROR = 0.2  # in an error handler, an error check's branch, a warning or deprecation branch

_WARNS = re.compile(r"deprecat|warn", re.IGNORECASE)
# an error check: Go's `err != nil`, JavaScript's `if (err)` / `if (error)`
_ERROR_TEST = re.compile(r"\berr\w*\s*!=\s*nil\b|^\(?\s*!?\s*(?:err|error)\s*\)?$", re.IGNORECASE)
_RECOVERS = re.compile(r"\brecover\(\s*\)")  # what a deferred Go function's panic handler tests


# --- Python --------------------------------------------------------------------------------------------


def python_regions(node: ast.AST) -> list[tuple[int, int, float]]:
    """The line spans an `if` or `except` node opens, each with the share of the path a call in it gets."""
    if isinstance(node, ast.ExceptHandler):
        return [_span(node.body, ERROR)]
    if isinstance(node, ast.If):
        share = _python_test(node.test)
        regions = [_span(node.body, share)] if share < STRAIGHT else []
        if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And):
            regions += _python_guarded_operands(node.test)
        return regions
    return []


def _span(body: list[ast.stmt], share: float) -> tuple[int, int, float]:
    return body[0].lineno, max(getattr(s, "end_lineno", s.lineno) or s.lineno for s in body), share


def _python_test(test: ast.expr) -> float:
    names = [
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(test)
        if isinstance(n, ast.Name | ast.Attribute)
    ]
    if any(_WARNS.search(name) for name in names):
        return ERROR
    return FLAG if _is_python_flag(test) else STRAIGHT


def _is_python_flag(test: ast.expr) -> bool:
    """Only names and attributes, negated or joined by `and`/`or`: `allow_redirects`, `not self.debug`."""
    if isinstance(test, ast.Name | ast.Attribute):
        return True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _is_python_flag(test.operand)
    return isinstance(test, ast.BoolOp) and all(_is_python_flag(v) for v in test.values)


def _python_guarded_operands(test: ast.BoolOp) -> list[tuple[int, int, float]]:
    """`if flag and fallback(…)`: the operands after a flag run only when it is set."""
    regions = []
    for index, value in enumerate(test.values[1:], 1):
        if any(_is_python_flag(v) for v in test.values[:index]) and value.lineno:
            regions.append((value.lineno, getattr(value, "end_lineno", value.lineno) or value.lineno, FLAG))
    return regions


def share_at(regions: list[tuple[int, int, float]], line: int) -> float:
    """The smallest share among the regions holding `line` (STRAIGHT outside every one)."""
    return min((share for start, end, share in regions if start <= line <= end), default=STRAIGHT)


# --- Go and JavaScript/TypeScript (tree-sitter) --------------------------------------------------------

_FUNCTIONS = frozenset(
    {"function_declaration", "method_declaration", "func_literal", "method_definition", "arrow_function"}
    | {"function_expression", "function", "generator_function_declaration"}
)
_FLAG_NODES = frozenset(
    {"identifier", "selector_expression", "field_identifier", "member_expression", "property_identifier"}
    | {"this", "parenthesized_expression", "unary_expression", "binary_expression", "true", "false"}
)


def tree_share(call: Any) -> float:
    """The share of the path a tree-sitter call node sits on, from its ancestors up to its function."""
    share, child, node = STRAIGHT, call, call.parent
    while node is not None and node.type not in _FUNCTIONS:
        if node.type == "catch_clause":
            share = min(share, ERROR)
        elif node.type == "if_statement" and _same(node.child_by_field_name("consequence"), child):
            share = min(share, _tree_test(node.child_by_field_name("condition")))
            if _RECOVERS.search(node_text(node.child_by_field_name("initializer"))):
                share = min(share, ERROR)  # Go's `if r := recover(); r != nil {…}`: a panic's handler
        elif node.type == "binary_expression" and _operator(node) == "&&":
            left = node.child_by_field_name("left")
            if not _same(left, child) and left is not None and _is_tree_flag(left):
                share = min(share, FLAG)
        child, node = node, node.parent
    return share


def _same(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a.start_byte == b.start_byte and a.end_byte == b.end_byte


def _operator(node: Any) -> str:
    operator = node.child_by_field_name("operator")
    return operator.type if operator is not None else ""


def _tree_test(condition: Any) -> float:
    if condition is None:
        return STRAIGHT
    text = node_text(condition)
    if _ERROR_TEST.search(text) or _WARNS.search(text):
        return ERROR
    return FLAG if _is_tree_flag(condition) else STRAIGHT


def _is_tree_flag(node: Any) -> bool:
    """Only names, fields and properties, negated or joined by `&&`/`||`: `engine.RedirectFixedPath`."""
    if node.type not in _FLAG_NODES:
        return False
    if node.type == "unary_expression" and _operator(node) != "!":
        return False
    if node.type == "binary_expression" and _operator(node) not in ("&&", "||"):
        return False
    return all(_is_tree_flag(child) for child in node.named_children)
