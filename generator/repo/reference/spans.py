"""Fields of Go structs and TypeScript interfaces, and the methods of Go interfaces, read from the lines of
their definitions (the facts give each definition's span), and environment variables JavaScript and Go
code reads."""

from __future__ import annotations

import re

_GO_FIELD = re.compile(r"^\s*([A-Za-z_]\w*)\s+([^\s`/][^`/]*?)\s*(?:`[^`]*`)?\s*(?://.*)?$")
_GO_METHOD = re.compile(r"^\s*([A-Z]\w*)\s*\(")
_TS_FIELD = re.compile(r"^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)(\??)\s*:\s*([^;,]+?)\s*[;,]?\s*(?://.*)?$")
_ENV = {
    "go": re.compile(r"\bos\.(?:Getenv|LookupEnv)\(\s*\"([^\"\n]+)\"\s*\)"),
    "javascript": re.compile(r"\bprocess\.env(?:\.([A-Za-z_]\w*)|\[\s*['\"]([^'\"\n]+)['\"]\s*\])"),
}
_ENV["typescript"] = _ENV["javascript"]


def struct_fields(lines: list[str], language: str) -> list[tuple[str, str, int]]:
    """(name, type, 1-based offset in `lines`) of each field declared one to a line between the braces; in
    TypeScript only the outer braces' own fields, never a line of a doc comment (an `@example`'s
    `https: {`) or of a nested object's type."""
    if language != "go":
        return _ts_fields(lines)
    found = []
    for offset, line in enumerate(lines[1:-1], 2):
        match = _GO_FIELD.match(line)
        if match is not None and match.group(1) not in {"func", "return", "type"}:
            found.append((match.group(1), match.group(2).strip(), offset))
    return found


def _ts_fields(lines: list[str]) -> list[tuple[str, str, int]]:
    found = []
    depth, in_comment = 0, False
    opener = next((i for i, line in enumerate(lines[:-1]) if "{" in line), 0)  # `extends …` may come first
    for offset, line in enumerate(lines[opener + 1 : -1], opener + 2):
        text = line.strip()
        if in_comment or text.startswith("/*"):
            in_comment = "*/" not in text
            continue
        match = _TS_FIELD.match(line) if depth == 0 else None
        if match is not None and match.group(1) not in {"return", "type"}:
            kind = match.group(3).strip()
            optional = " (optional)" if match.group(2) else ""
            found.append((match.group(1), ("{…}" if kind == "{" else kind) + optional, offset))
        depth = max(0, depth + text.count("{") - text.count("}"))
    return found


def interface_methods(lines: list[str]) -> list[tuple[str, int]]:
    """(name, 1-based offset) of each method a Go interface declares."""
    return [(m.group(1), i) for i, line in enumerate(lines[1:-1], 2) if (m := _GO_METHOD.match(line))]


def env_reads(text: str, language: str) -> list[tuple[str, int]]:
    """(variable, line) of each environment variable named by a literal."""
    pattern = _ENV.get(language)
    if pattern is None:
        return []
    return [
        (next(g for g in match.groups() if g), text.count("\n", 0, match.start()) + 1)
        for match in pattern.finditer(text)
    ]
