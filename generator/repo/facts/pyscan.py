"""The first pass over every Python file: imports anywhere, module doc and main guard, read with regular
expressions instead of a syntax tree (`ast.parse` costs several times more, and every file is read). It reads what pysource.extract_python reads; tests hold the two to the same answers. A file whose
symbols are read too is scanned stretch by stretch as pysymbols.py walks it (ImportScan).
"""

from __future__ import annotations

import ast
import re

from generator.repo.facts.extracted import Extracted
from generator.repo.facts.prose import module_summary

# string literals (any prefix: a raw string ends where a plain one does) and comments are skipped whole, so
# an `import` line inside a docstring is never taken for one; possessive quantifiers keep the scan linear
STRING_LITERAL = (
    r'"""[^"\\]*+(?:(?:\\[\s\S]|"(?!""))[^"\\]*+)*+(?:"""|\Z)'
    r"|'''[^'\\]*+(?:(?:\\[\s\S]|'(?!''))[^'\\]*+)*+(?:'''|\Z)"
    r'|"[^"\\\n]*+(?:\\[\s\S][^"\\\n]*+)*+"?'
    r"|'[^'\\\n]*+(?:\\[\s\S][^'\\\n]*+)*+'?"
)
# a line starting an import statement (also after a one-line `try:`/`if …:`), or a top-level `if`
_LINE_OF_INTEREST = (
    r"[ \t\f]*+(?:(?:if|elif|else|try|except|finally|with|for|while)\b[^\n:#'\"]*+:[ \t]*+)?"
    r"(?=(?:import|from)\b)|if[ \t(]++(?=[_'\"])"
)
_AFTER_SEMICOLON = r"[ \t]*+(?=(?:import|from)\b)"  # `x = 1; import y`
# everything up to the next line of interest, consumed inside the regex engine
_NEXT = re.compile(
    rf"(?:[^\"'#\n;]++|{STRING_LITERAL}|#[^\n]*+|\n(?!{_LINE_OF_INTEREST})|;(?!{_AFTER_SEMICOLON}))*+"
    rf"(?:\n(?:{_LINE_OF_INTEREST})|;{_AFTER_SEMICOLON})"
)
_CONTINUED = (
    r"[^\n;#\\]*+(?:\\\r?\n[^\n;#\\]*+)*+"  # the rest of a logical line (backslash continuations included)
)
_NAMES = rf"(?:\((?P<paren>[^)#]*+(?:#[^\n]*+[^)#]*+)*+)\)|(?P<names>{_CONTINUED}))"
_FROM_PLAIN = re.compile(rf"from[ \t]++(?P<module>[.\w]++)[ \t]++import\b[ \t]*+(?!\\){_NAMES}")
_FROM = re.compile(  # any spacing: `from . . pkg \<newline> import …`
    rf"from\b(?P<module>(?:[ \t.\w]|\\\r?\n)+?)\bimport\b(?:[ \t]|\\\r?\n)*+{_NAMES}"
)
_IMPORT = re.compile(rf"import\b(?P<names>{_CONTINUED})")
_MAIN_GUARD = re.compile(
    r"""[ \t(]*(?:__name__[ \t]*==[ \t]*(['"])__main__\1|(['"])__main__\2[ \t]*==[ \t]*__name__)"""
)
_SEMICOLON = re.compile(r"[ \t]*;[ \t]*")
_COMMENT = re.compile(r"#[^\n]*")
_SPACING = re.compile(r"\s|\\")
_DOC_START = re.compile(r"(?:[ \t\f]*+(?:#[^\n]*+)?\r?\n)*+(?=[rRuU]?['\"])")
_STRING_TOKEN = re.compile(STRING_LITERAL)
_DUNDER_ALL = re.compile(r"__all__[ \t]*\+?=[ \t]*(?P<value>[\[(][^\])]*[\])])")
# a list or tuple of plain quoted words (the usual `__all__`), read without `ast.literal_eval`
_QUOTED_WORD = r"""(?:"\w*+"|'\w*+')[ \t\r\n]*+"""
_PLAIN_NAMES = re.compile(
    rf"(?:\[[ \t\r\n]*+(?:{_QUOTED_WORD},[ \t\r\n]*+)*+(?:{_QUOTED_WORD})?\]"
    rf"|\([ \t\r\n]*+(?:{_QUOTED_WORD},[ \t\r\n]*+)*+(?:{_QUOTED_WORD})?\))\Z"
)
_WORD = re.compile(r"""["'](\w*)["']""")
SEEN_LINES_LIMIT = 50_000  # import lines remembered (a few MB at most); the memo starts over past it
_SEEN_LINES: dict[str, tuple[tuple[str, ...], int]] = {}  # line from its import → (targets, length read)


def scan_python(text: str) -> Extracted:
    """Imports (as `extract_python` writes them, in line order), module doc and main guard; no symbols.

    Never raises on bad syntax: a statement it cannot read is left out.
    """
    scan = ImportScan(text.removeprefix("\ufeff"))
    scan.read(0, len(scan.text))
    return scan.extracted()


class ImportScan:
    """The scan of one module, fed stretch by stretch (whole lines, in order) by a reader that walks the
    module's logical lines anyway (pysymbols.py): only stretches holding `import` or `__main__` are walked
    again here, so a module's text is read about once instead of twice."""

    def __init__(self, text: str) -> None:
        self.text = "\n" + text  # every line of interest then starts after a newline
        self.found: list[tuple[int, str]] = []  # (line, target)
        self.has_main = False
        self._line = self._counted = self._reached = 0
        self._import_at = self._main_at = -1
        self.next = self._next_interest(0)  # no stretch ending at or before it holds anything to read

    def read(self, start: int, end: int) -> None:
        """Read the statements of `self.text[start:end]`, the lines after those read before."""
        if end <= self.next:
            return
        text = self.text
        pos = max(start - 1, self._reached)  # from the newline before the stretch (the old scan's view)
        while (hit := _NEXT.match(text, pos, end)) is not None:
            pos = hit.end()
            if not text.startswith(("import", "from"), pos):  # a top-level `if`
                self.has_main = self.has_main or _MAIN_GUARD.match(text, pos - 1) is not None
                continue
            self._line += text.count("\n", self._counted, pos)
            self._counted = pos
            pos = _import_statements(text, pos, self._line, self.found)
        self._reached = pos
        self.next = self._next_interest(end)

    def extracted(self) -> Extracted:
        """What the scan gives once every stretch is read: imports in line order, doc, main guard, `__all__`."""
        text = self.text
        out = Extracted(doc=_module_doc(text), has_main=self.has_main)
        out.imports = list(dict.fromkeys(name for _, name in sorted(self.found)))
        out.exports = dunder_all(text) if "__all__" in text else []
        return out

    def _next_interest(self, pos: int) -> int:
        """Where the next `import` or `__main__` is at or after `pos` (the text's length when none is)."""
        if self._import_at < pos:
            self._import_at = _find(self.text, "import", pos)
        if self._main_at < pos:
            self._main_at = _find(self.text, "__main__", pos)
        return min(self._import_at, self._main_at)


def _find(text: str, word: str, pos: int) -> int:
    at = text.find(word, pos)
    return at if at >= 0 else len(text)


def dunder_all(text: str) -> list[str]:
    """The names a module's top-level `__all__ = [...]` / `__all__ += (...)` statements list."""
    names: list[str] = []
    starts = [0] if text.startswith("__all__") else []
    at = text.find("\n__all__")
    while at >= 0:  # only lines that start with `__all__` are tried
        starts.append(at + 1)
        at = text.find("\n__all__", at + 1)
    for start in starts:
        match = _DUNDER_ALL.match(text, start)
        if match is not None:
            names.extend(_listed_names(match.group("value")))
    return list(dict.fromkeys(names))


def _listed_names(value: str) -> list[str]:
    """The identifiers a list or tuple literal holds as strings (none when `value` is not one)."""
    if _PLAIN_NAMES.match(value):
        if value[0] == "(" and "," not in value and _WORD.search(value):
            return []  # `("name")` is a string in parentheses, not a tuple
        return [word for word in _WORD.findall(value) if word.isidentifier()]
    try:
        literal = ast.literal_eval(value)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    if not isinstance(literal, list | tuple):
        return []
    return [v for v in literal if isinstance(v, str) and v.isidentifier()]


def _import_statements(text: str, pos: int, line: int, found: list[tuple[int, str]]) -> int:
    """Read the import statement(s) at `pos` (several when joined by `;`); returns where reading stopped."""
    # the same import lines repeat across a repository's files (about half of them): read each once. A
    # line is remembered only when its statements end on it and hold no bracket (an unclosed one would
    # read differently with other lines after it)
    eol = text.find("\n", pos)
    key = text[pos:eol] if eol >= 0 else None
    seen = _SEEN_LINES.get(key) if key is not None else None
    if seen is None:
        targets: list[str] = []
        end = _read_statements(text, pos, targets)
        seen = (tuple(targets), end - pos)
        if key is not None and end <= eol and "(" not in key:
            if len(_SEEN_LINES) >= SEEN_LINES_LIMIT:
                _SEEN_LINES.clear()
            _SEEN_LINES[key] = seen
    found.extend([(line, target) for target in seen[0]])
    return pos + seen[1]


def _read_statements(text: str, pos: int, targets: list[str]) -> int:
    while (statement := _statement_at(text, pos)) is not None:
        targets.extend(_import_targets(statement))
        pos = statement.end()
        separator = _SEMICOLON.match(text, pos)
        if separator is None:
            break
        pos = separator.end()
    return pos


def _statement_at(text: str, pos: int) -> re.Match[str] | None:
    if text.startswith("import", pos):
        return _IMPORT.match(text, pos)
    return _FROM_PLAIN.match(text, pos) or _FROM.match(text, pos)


def _import_targets(statement: re.Match[str]) -> list[str]:
    """'pkg.mod' for `import pkg.mod`, 'pkg:name' / '.:name' / 'pkg' (star) for `from … import …`."""
    groups = statement.groupdict()
    names = groups.get("paren")
    if names is None:
        names = groups["names"]
    elif "#" in names:
        names = _COMMENT.sub("", names)
    heads = []
    for item in names.replace("\\", " ").split(","):  # a backslash can only continue the line here
        words = item.split()
        if not words:
            continue
        if len(words) != 1 and (len(words) != 3 or words[1] != "as"):
            return []  # not an import statement after all (or one that does not parse)
        heads.append(words[0])
    if not all(map(_is_dotted, heads)):
        return []
    if "module" not in groups:
        return [head for head in heads if head != "*"]
    module = groups["module"] if statement.re is _FROM_PLAIN else _SPACING.sub("", groups["module"])
    if not module or not _is_dotted(module.lstrip("."), empty=True):
        return []
    return [module if head == "*" else f"{module}:{head}" for head in heads]


def _is_dotted(name: str, *, empty: bool = False) -> bool:
    if name.isidentifier() or name == "*" or (empty and not name):
        return True
    return all(part.isidentifier() for part in name.split("."))


def _module_doc(text: str) -> str:
    """First paragraph of the module docstring: a string literal alone on the first statement's line."""
    start = _DOC_START.match(text)
    if start is None:
        return ""
    begin = start.end()
    token = _STRING_TOKEN.match(text, begin + (text[begin] not in "'\""))
    if token is None:
        return ""
    line_end = text.find("\n", token.end())
    rest = text[token.end() : line_end if line_end >= 0 else len(text)].strip()
    if rest and not rest.startswith(("#", ";")):
        return ""  # `"a" + b`, `"x".join(…)`: an expression, not a docstring
    try:
        value = ast.literal_eval(text[begin : token.end()])
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return ""
    return module_summary(value) if isinstance(value, str) else ""
