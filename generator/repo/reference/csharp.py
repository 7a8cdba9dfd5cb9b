"""The properties and fields a C# class, struct or record declares (Polly's `RetryStrategyOptions`:
`public int MaxRetryAttempts { get; set; } = 3;`), each with what its XML doc comment says: the `<summary>` is
what the field is, the `<value>` states its default ("The default value is 3 retries."). Static members,
constants and computed properties (`=> …`) are not the record's data. Read with regular expressions line by
line: never compiled."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from generator.documents.comment import comment_text
from generator.repo.model import Symbol

_MODIFIERS = r"(?:(?:virtual|override|required|new|sealed|abstract|readonly|unsafe)\s+)*"
# `public int MaxRetryAttempts { get; set; } = 3;`, `public TimeSpan? Timeout { get; init; }`,
# `public readonly string Name;`, `public bool Enabled = true;`
_MEMBER = re.compile(
    rf"^\s*public\s+{_MODIFIERS}(?P<type>[A-Za-z_][\w.]*(?:<[^=;(){{}}]*>)?(?:\[[,\s]*\])*\??)\s+"
    r"(?P<name>[A-Za-z_]\w*)\s*(?:\{(?P<accessors>[^{}]*)\}\s*(?:=\s*(?P<initial>[^;]+?)\s*;)?"
    r"|(?:=(?!>)\s*(?P<value>[^;]+?)\s*)?;)\s*(?://.*)?$"
)
# a property whose accessors follow on lines of their own (`public Level MinimumLevel` / `{` / `get { … }`)
_OPEN_MEMBER = re.compile(
    rf"^\s*public\s+{_MODIFIERS}(?P<type>[A-Za-z_][\w.]*(?:<[^=;(){{}}]*>)?(?:\[[,\s]*\])*\??)\s+"
    r"(?P<name>[A-Za-z_]\w*)\s*$"
)
_ACCESSOR = re.compile(r"^\s*(?:(?:public|private|protected|internal)\s+)?(?:get|set|init)\b")
ACCESSOR_LINES = 3  # lines below an open declaration its first accessor may stand on (after its `{`)
_NOT_A_TYPE = frozenset(
    {"static", "const", "event", "delegate", "class", "struct", "interface", "enum", "record"}
)
_DOC_LINE = re.compile(r"^\s*///\s?(.*)$")
_ATTRIBUTE = re.compile(r"^\s*\[.*\]\s*$")
_ELEMENT = {tag: re.compile(rf"<{tag}>(.*?)</{tag}>", re.DOTALL) for tag in ("summary", "value")}
# "The default value is 3 retries.", "Defaults to <see langword="false"/>.", "Default is 30 seconds."
_STATED = re.compile(r"\b(?:[Tt]he default(?: value)? is|[Dd]efaults? (?:to|is))\s+(.+?)\.?\s*$", re.DOTALL)
_VALUE_END = re.compile(r",\s|\s-\s|\.\s|\s\(|\.$")  # the value stated, without what the sentence adds
# a default named by reference reads as written (`NullLoggerFactory.Instance`, not its last part)
_CREF = re.compile(r'<see\s+cref="(?:[A-Z]:)?([^"`]*)[^"]*"\s*/>')
_POSITIONAL = re.compile(r"\brecord\s+(?:struct\s+|class\s+)?\w+(?:<[^>]*>)?\s*\(([^)]*)\)")
_PARAMETER = re.compile(
    r"(?:\[[^\]]*\]\s*)*([A-Za-z_][\w.]*(?:<[^<>]*>)?(?:\[\])?\??)\s+([A-Za-z_]\w*)(?:\s*=.*)?$"
)


@dataclass(frozen=True)
class CsField:
    """A C# property or field: its name, type, default, 1-based line and what its doc comment says."""

    name: str
    type: str
    default: str
    line: int
    doc: str


def csharp_fields(lines: Sequence[str], symbol: Symbol, members: Sequence[Symbol]) -> list[CsField]:
    """The public instance properties and fields `symbol` declares on its own lines (not inside `members`,
    its methods and nested types), and a positional record's parameters (`record Point(int X, int Y)`)."""
    inside = {n for m in members for n in range(m.start, m.end + 1)}
    found = _positional(lines, symbol) if symbol.kind == "record" else []
    for number in range(symbol.start + 1, min(symbol.end, len(lines)) + 1):
        if number in inside:
            continue
        match = _MEMBER.match(lines[number - 1]) or _accessors_below(lines, number)
        if match is None or match.group("type") in _NOT_A_TYPE:
            continue
        summary, stated = xml_doc(lines, number - 1)
        given = match.groupdict()
        initial = given.get("initial") or given.get("value") or ""
        found.append(CsField(match.group("name"), match.group("type"), stated or initial, number, summary))
    return found


def _accessors_below(lines: Sequence[str], number: int) -> re.Match[str] | None:
    """A property declared on line `number` whose `{` and accessors follow on lines of their own (serilog's
    `LoggerConfiguration.MinimumLevel`, git-credential-manager's settings): the declaration's match."""
    match = _OPEN_MEMBER.match(lines[number - 1])
    below = lines[number : number + ACCESSOR_LINES]
    if match is None or not below or below[0].strip() != "{":
        return None
    return match if any(_ACCESSOR.match(line) for line in below[1:]) else None


def _positional(lines: Sequence[str], symbol: Symbol) -> list[CsField]:
    """A positional record's parameters, each a property (from its header, within its first lines)."""
    text = " ".join(lines[symbol.start - 1 : min(symbol.start + 5, len(lines))])
    header = _POSITIONAL.search(text)
    if header is None:
        return []
    parts = (_PARAMETER.match(part.strip()) for part in header.group(1).split(","))
    return [CsField(m.group(2), m.group(1), "", symbol.start, "") for m in parts if m is not None]


def xml_doc(lines: Sequence[str], below: int) -> tuple[str, str]:
    """What the `///` XML doc comment above line `below` (0-based index of the member's line) says: its
    `<summary>` as prose, and the default its `<value>` (or summary) states. Attribute lines between the
    comment and the member (`[Range(1, 100)]`) are stepped over."""
    index = below - 1
    while index >= 0 and _ATTRIBUTE.match(lines[index]):
        index -= 1
    said: list[str] = []
    while index >= 0 and (line := _DOC_LINE.match(lines[index])):
        said.insert(0, line.group(1))
        index -= 1
    xml = "\n".join(said)
    summary = _element(xml, "summary")
    value = _element(_CREF.sub(r"\1", xml), "value")
    stated = _STATED.search(value) or _STATED.search(summary)
    default = _VALUE_END.split(stated.group(1).strip(), maxsplit=1)[0] if stated else ""
    return " ".join(summary.split()), default


def _element(xml: str, tag: str) -> str:
    """One element of an XML doc comment as the words a reader sees (`<see cref="X"/>` reads `X`)."""
    match = _ELEMENT[tag].search(xml)
    return comment_text(match.group(1)) if match else ""
