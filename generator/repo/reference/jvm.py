"""The fields a Java or Kotlin class declares, read from its lines outside its members: a Java class's
instance fields (`private final int maxNestingDepth = 1000;`), a Java record's components, a Kotlin class's
constructor properties (`data class Options(val retries: Int = 3)`) and its `val`/`var` properties. Static
fields are constants, not the record's data. Read with regular expressions line by line: never compiled."""

from __future__ import annotations

import re
from collections.abc import Sequence

from generator.repo.model import Symbol

# (name, type, default, 1-based line in the file)
Field = tuple[str, str, str, int]

_MODIFIERS = (
    r"(?:(?:public|protected|private|internal|static|final|transient|volatile|override|open|lateinit)\s+)*"
)
_JAVA_FIELD = re.compile(
    rf"^\s*(?:@\w+(?:\([^)]*\))?\s+)*({_MODIFIERS})([A-Za-z_][\w.]*(?:<[^=;()]*>)?(?:\[\])*)\s+([A-Za-z_]\w*)"
    r"\s*(?:=\s*([^;]+?))?\s*;"
)
_KOTLIN_PROPERTY = re.compile(
    rf"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*{_MODIFIERS}(?:val|var)\s+([A-Za-z_]\w*)\s*:\s*([^=,{{]+?)"
    r"\s*(?:=\s*([^,{]+?))?\s*,?\s*\)?\s*(?:\{.*)?$"
)
_JAVA_COMPONENT = re.compile(r"(?:@\w+\s+)*([A-Za-z_][\w.]*(?:<[^<>]*>)?(?:\[\])*)\s+([A-Za-z_]\w*)$")
_NOT_A_TYPE = frozenset({"return", "throw", "new", "else", "case", "package", "import"})


def jvm_fields(lines: Sequence[str], symbol: Symbol, members: Sequence[Symbol], language: str) -> list[Field]:
    """The fields `symbol` (a class or record at lines `start`–`end`) declares on its own lines: not inside
    `members` (its methods and nested types), static ones left out."""
    inside = {n for m in members for n in range(m.start, m.end + 1)}
    own = [n for n in range(symbol.start, min(symbol.end, len(lines)) + 1) if n not in inside]
    if language == "kotlin":
        header = _one_line_parameters(lines[symbol.start - 1], symbol.start)
        return header + [f for n in own[1 if header else 0 :] if (f := _kotlin_property(lines[n - 1], n))]
    found = _record_components(lines, symbol) if symbol.kind == "record" else []
    for n in own[1:]:
        match = _JAVA_FIELD.match(lines[n - 1])
        if match and "static" not in match.group(1).split() and match.group(2) not in _NOT_A_TYPE:
            found.append((match.group(3), match.group(2), (match.group(4) or "").strip(), n))
    return found


def _kotlin_property(line: str, number: int) -> Field | None:
    """A Kotlin `val`/`var` on one line: a constructor parameter or a property of the class body."""
    if "const val" in line or line.lstrip().startswith(("private ", "//", "*")):
        return None
    match = _KOTLIN_PROPERTY.match(line)
    if match is None:
        return None
    return match.group(1), match.group(2).strip(), (match.group(3) or "").strip(), number


def _one_line_parameters(header: str, number: int) -> list[Field]:
    """A Kotlin class's constructor properties written on its header line (`data class P(val x: Int = 0)`)."""
    opened, closed = header.find("("), header.rfind(")")
    if opened < 0 or closed < opened:
        return []
    return [f for part in header[opened + 1 : closed].split(",") if (f := _kotlin_property(part, number))]


def _record_components(lines: Sequence[str], symbol: Symbol) -> list[Field]:
    """A Java record's components, from its header `record Point(int x, int y)` (on its first lines)."""
    text = " ".join(lines[symbol.start - 1 : min(symbol.start + 3, len(lines))])
    opened = text.find("(")
    closed = text.find(")", opened)
    if opened < 0 or closed < 0:
        return []
    parts = (_JAVA_COMPONENT.match(part.strip()) for part in text[opened + 1 : closed].split(","))
    return [(m.group(2), m.group(1), "", symbol.start) for m in parts if m is not None]
