"""Is a symbol deprecated: its doc comment says so (`.. deprecated::`, JSDoc `@deprecated`, Go's
`// Deprecated:`, "no longer documented"), or its body warns that it is (`warnings.warn(…,
DeprecationWarning)`, `deprecate(…)`, a printed notice) in one of its own statements, not inside a branch.
A deprecated symbol never opens a flow nor leads a list of key symbols."""

from __future__ import annotations

import re
from collections.abc import Sequence

_DOC = re.compile(
    r"^(?P<margin>[ \t]*)(?:\.\.\s+deprecated::|@deprecated\b|deprecated\s*:)"
    r"|\b(?:is|are|now|been)\s+deprecated\b|\bdeprecated\s+(?:since|in|as\s+of|and|alias|in\s+favou?r)\b"
    r"|\bno\s+longer\s+(?:documented|supported|recommended|maintained)\b",
    re.IGNORECASE | re.MULTILINE,
)
_WARNING_CALL = re.compile(r"(?:[\w$]+\.)*(?:warn\w*|_?deprecat\w*|print\w*)\s*\(", re.IGNORECASE)
_DECORATOR = re.compile(r"^\s*@(?:[\w.]+\.)?deprecated\b", re.IGNORECASE)
WINDOW = 6  # lines of a warning call searched for the word "deprecat…"


def deprecated_by_doc(doc: str) -> bool:
    """Its doc comment says it is deprecated; a directive indented under a field (anyio's `:param
    item_type:` holding `.. deprecated:: 4.0`) deprecates that argument, not the symbol."""
    lower = doc.lower()
    if "deprecat" not in lower and "no longer" not in lower:
        return False
    margin = min((_indent(line) for line in doc.splitlines()[1:] if line.strip()), default=0)
    return any(
        found.group("margin") is None or len(found.group("margin").expandtabs()) <= margin
        for found in _DOC.finditer(doc)
    )


def deprecated_by_body(lines: Sequence[str], decorators: Sequence[str] = ()) -> bool:
    """`lines`: the symbol's own source, its header first; `decorators`: the lines just above it. True when
    a `@deprecated` decorator marks it, or one of the body's own statements (at the body's first indentation)
    is a warning call that speaks of a deprecation."""
    if any(_DECORATOR.match(line) for line in decorators):
        return True
    if len(lines) < 2:
        return False
    header = _indent(lines[0])
    body = [(i, _indent(line)) for i, line in enumerate(lines[1:], 1) if line.strip()]
    inner = [indent for _, indent in body if indent > header]
    if not inner:
        return False
    level = min(inner)
    for index, indent in body:
        if indent == level and _WARNING_CALL.match(lines[index].strip()):
            window = " ".join(lines[index : index + WINDOW]).lower()
            if "deprecat" in window:
                return True
    return False


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
