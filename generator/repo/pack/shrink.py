"""Where a file can be shrunk for packing: function bodies to elide (compress) and comment spans to cut.

Both answers are in original line numbers, so the packer can keep numbering lines as on disk. Python uses
`ast`/`tokenize`; other languages use tree-sitter. A file that does not parse is simply not shrunk.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import defaultdict
from contextlib import suppress
from typing import Any

from generator.repo.facts.languages import TREE_SITTER_LANGUAGES, parse_tree

_FUNCTION_NODES = frozenset(
    "function_definition function_declaration generator_function_declaration method_definition"
    " method_declaration function_item constructor_declaration arrow_function function_expression".split()
)
# braced bodies only: an arrow function's expression body has no `{`/`}` lines to keep
_BLOCKS = {"block", "statement_block", "compound_statement", "constructor_body"}
MIN_BODY_LINES = 3  # shorter bodies cost less than the elision marker is worth


def elided_ranges(language: str, text: str) -> list[tuple[int, int]]:
    """Sorted, disjoint (first, last) 1-based line ranges of function bodies that compress drops."""
    with suppress(SyntaxError, ValueError, RecursionError, MemoryError):
        if language == "python":
            return _python_bodies(text)
        if language in TREE_SITTER_LANGUAGES:
            return _tree_sitter_bodies(language, text)
    return []


def _python_bodies(text: str) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    stack: list[ast.AST] = [ast.parse(text)]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if ast.get_docstring(node, clean=False) is not None:
                body = body[1:]  # keep the docstring: it says what the function is for
            if body:
                first, last = body[0].lineno, node.end_lineno or body[-1].lineno
                if last - first + 1 >= MIN_BODY_LINES:
                    ranges.append((first, last))
                    continue
        stack.extend(ast.iter_child_nodes(node))
    return _disjoint(ranges)


def _tree_sitter_bodies(language: str, text: str) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    stack: list[Any] = [parse_tree(language, text).root_node]
    while stack:
        node = stack.pop()
        if node.type in _FUNCTION_NODES:
            body = node.child_by_field_name("body")
            if (
                body is not None
                and body.type in _BLOCKS
                and body.end_point[0] - body.start_point[0] >= MIN_BODY_LINES
            ):
                # keep the line with `{` and the line with `}`; drop what is between
                ranges.append((body.start_point[0] + 2, body.end_point[0]))
                continue
        stack.extend(node.named_children)
    return _disjoint(ranges)


def _disjoint(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    result: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if first > last:
            continue
        if result and first <= result[-1][1]:
            result[-1] = (result[-1][0], max(result[-1][1], last))
        else:
            result.append((first, last))
    return result


def comment_cuts(language: str, text: str) -> dict[int, list[tuple[int, int]]]:
    """Line number → (start, end) byte columns of comment text on that line."""
    with suppress(SyntaxError, tokenize.TokenError, IndentationError, ValueError, RecursionError):
        if language == "python":
            return _python_comments(text)
        if language in TREE_SITTER_LANGUAGES:
            return _tree_sitter_comments(language, text)
    return {}


def _python_comments(text: str) -> dict[int, list[tuple[int, int]]]:
    cuts: dict[int, list[tuple[int, int]]] = defaultdict(list)
    lines = text.split("\n")
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            line = lines[row - 1] if row - 1 < len(lines) else ""
            start = len(line[:col].encode("utf-8", errors="replace"))
            end = len(line[: token.end[1]].encode("utf-8", errors="replace"))
            cuts[row].append((start, end))
    return dict(cuts)


def _tree_sitter_comments(language: str, text: str) -> dict[int, list[tuple[int, int]]]:
    cuts: dict[int, list[tuple[int, int]]] = defaultdict(list)
    widths = [len(line.encode("utf-8", errors="replace")) for line in text.split("\n")]
    stack: list[Any] = [parse_tree(language, text).root_node]
    while stack:
        node = stack.pop()
        if "comment" in node.type:
            (first_row, first_col), (last_row, last_col) = node.start_point, node.end_point
            for row in range(first_row, last_row + 1):
                start = first_col if row == first_row else 0
                end = last_col if row == last_row else widths[row] if row < len(widths) else 0
                cuts[row + 1].append((start, end))
            continue
        stack.extend(node.named_children)
    return dict(cuts)
