"""A Python file's symbols (module- and class-level defs and classes, with line ranges and first docstring
line) read line by line instead of from a syntax tree, which costs several times more and matters because
the files a shard shows are a repository's largest.

It gives what pysource.extract_python gives (tests hold the two to the same answers); a file laid out in a
way this reader does not follow (tabs in indentation, unbalanced or very deep brackets, a comment line after
a backslash continuation) is read with `ast` instead. `read_python` reads a source module's imports in the
same walk: the stretches of text this reader passes over go to pyscan's ImportScan.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache, lru_cache

from generator.repo.facts.extracted import Extracted
from generator.repo.facts.prose import doc_head
from generator.repo.facts.pyscan import STRING_LITERAL, ImportScan, scan_python
from generator.repo.facts.pysource import dotted_name, extract_python
from generator.repo.model import Symbol

BRACKET_DEPTH = 10  # deeper nesting falls back to `ast`
# the patterns that skip lines are compiled once per indentation (a few ms each, in every process): they
# follow brackets this deep only, and a line nested deeper stops them and is read on its own
SKIP_DEPTH = 4

# a logical line: brackets (to BRACKET_DEPTH levels), strings and backslash continuations may span lines
_INNER = rf"[^()\[\]{{}}\"'#\\]++|{STRING_LITERAL}|#[^\n]*+|\\\r?\n"


def _group(depth: int) -> str:
    group = rf"[(\[{{](?:{_INNER})*+[)\]}}]"
    for _ in range(depth - 1):
        group = rf"[(\[{{](?:{_INNER}|{group})*+[)\]}}]"
    return group


def _code(depth: int) -> str:
    return rf"(?:[^()\[\]{{}}\"'#\\\n]++|{STRING_LITERAL}|\\\r?\n|{_group(depth)})++"


_GROUP = _group(BRACKET_DEPTH)
_CODE = _code(BRACKET_DEPTH)
_BLANK = r"[ \t\f]*+(?:#[^\n]*+)?\r?\n"
_REST = rf"{_code(SKIP_DEPTH)}(?:#[^\n]*+)?(?:\n|\Z)"  # a line the skipping patterns pass over
_CODE_LINE = re.compile(rf"(?:{_BLANK})*+(?P<indent>[ \t\f]*+)(?P<code>{_CODE})(?:#[^\n]*+)?(?:\n|\Z)")
_TAIL = re.compile(rf"(?:{_BLANK})*+[ \t\f]*+(?:#[^\n]*+)?\Z")
_HEADER_START = r"(?:async[ \t]++)?(?P<kind>def|class)[ \t]++(?P<name>\w++)"
_STARTS_DEFINITION = re.compile(_HEADER_START)
# a definition's header up to its colon (brackets and strings in it skipped)
_HEADER = re.compile(rf"{_HEADER_START}(?:[^()\[\]{{}}\"':]++|{STRING_LITERAL}|{_GROUP})*+:")
_NOT_A_DEFINITION = r"(?![ \t\f]|(?:async[ \t]++)?(?:def|class)[ \t]|@)"
# at the top level, compound statements stop the skipping too: a module-level `if` may define symbols, and
# its `else` is told from a `try`'s or a loop's by what came before it
_NOT_A_DEFINITION_OR_BLOCK = (
    r"(?![ \t\f]|(?:async[ \t]++)?(?:def|class)[ \t]|@|(?:if|elif|else|try|for|while)\b)"
)
_GUARD = re.compile(r"(?:if|elif)\b(?!.*__name__).*:|else[ \t]*:", re.DOTALL)
_CONTINUED_COMMENT = re.compile(r"\\\r?\n[ \t\f]*+#")
_MAYBE_STRING = re.compile(r"[ \t]*[rRuUbBfF]{0,2}[\"'(]")
# what a string (maybe parenthesized or after a backslash continuation) can start with
_STRING_START = re.compile(r"\s*+(?:[rRuUbBfF]{0,2}[\"'(]|\\)")
_SIMPLE_BASES = re.compile(r"\(\s*([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*,?\s*\)\s*:")
_OVERLOAD = re.compile(r"@[ \t]*(?:typing\.|typing_extensions\.|t\.)?overload\b")


class UnusualLayout(Exception):
    """The file is laid out in a way the line reader does not follow; read it with `ast`."""


def read_python(text: str) -> Extracted:
    """Everything pysource.extract_python gives; raises SyntaxError/ValueError when `ast` is needed and fails.

    One walk over the text: the symbol reader hands the import scan the stretches it passes over.
    """
    text = text.removeprefix("\ufeff")
    scan = ImportScan(text)
    try:
        symbols = _read_symbols(text, scan)
    except (UnusualLayout, RecursionError):
        out = scan_python(text)
        out.symbols = extract_python(text).symbols
        return out
    out = scan.extracted()
    out.symbols = symbols
    return out


def python_symbols(text: str) -> list[Symbol]:
    text = text.removeprefix("\ufeff")
    try:
        return _read_symbols(text)
    except (UnusualLayout, RecursionError):
        return extract_python(text).symbols


@cache
def _deeper_than(indent: int) -> re.Pattern[str]:
    """Lines indented deeper than `indent`: a function's body, which defines no symbols."""
    return re.compile(rf"(?:(?:{_BLANK})*+[ ]{{{indent + 1}}}[ \t\f]*+{_REST})*+")


@cache
def _members_skipped(indent: int, top: bool = False) -> re.Pattern[str]:
    """Lines of a body at `indent` that define nothing, and everything nested deeper (`top`: the module's
    lines, stopping at its compound statements)."""
    at = _NOT_A_DEFINITION_OR_BLOCK if top else _NOT_A_DEFINITION
    return re.compile(rf"(?:(?:{_BLANK})*+(?:[ ]{{{indent + 1}}}[ \t\f]*+|[ ]{{{indent}}}{at}){_REST})*+")


@dataclass(slots=True)
class _Definition:
    """A def or class being read: its symbol's fields, filled in as its body is read."""

    name: str
    kind: str
    start: int
    end: int
    public: bool
    indent: int
    doc: str = ""
    body: int = -1  # indentation of the body, once its first statement is seen
    parent: str = ""
    bases: tuple[str, ...] = ()
    stub: bool = False
    hidden: bool = False  # a second definition of a name under a module-level `if`'s other branch
    skip: re.Pattern[str] | None = None  # passes over body lines defining nothing, once `body` is known

    def symbol(self) -> Symbol:
        return Symbol(
            self.name,
            self.kind,
            self.start,
            self.end,
            self.doc,
            self.public,
            parent=self.parent,
            bases=self.bases,
            stub=self.stub,
        )


class _Lines:
    """Line numbers of positions in `text` (which starts with an added newline, line 0), counted
    incrementally (positions only move forward)."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line = text, 0, 0

    def at(self, pos: int) -> int:
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def _read_symbols(text: str, scan: ImportScan | None = None) -> list[Symbol]:
    """The symbols of `text`; every stretch read is handed to `scan` too, when given."""
    if _CONTINUED_COMMENT.search(text):
        raise UnusualLayout("a comment line after a backslash continuation")
    text = scan.text if scan is not None else "\n" + text  # as the scan reads it: a newline before line 1
    found: list[_Definition] = []
    open_: list[_Definition] = []  # enclosing definitions, innermost last
    lines = _Lines(text)
    pos, decorated = 0, 0
    overloaded = False
    top_level = _members_skipped(0, top=True)
    defined: set[str] = set()  # the names the module defines so far
    chain = False  # the last top-level compound statement was an `if`: an `else` is its branch
    while True:
        start = pos
        # skip lines defining nothing (not yet in a body whose first statement may be its docstring)
        skip = open_[-1].skip if open_ else top_level
        if skip is not None and (skipped := skip.match(text, pos)) is not None:
            pos = skipped.end()
        line = _CODE_LINE.match(text, pos)
        if line is None:
            if _TAIL.match(text, pos):
                if scan is not None:
                    scan.read(start, len(text))
                break
            raise UnusualLayout("unbalanced brackets or a stray backslash")
        if scan is not None and line.end() > scan.next:
            scan.read(start, line.end())
        indent_text, code = line.group("indent"), line.group("code")
        if "\t" in indent_text or "\f" in indent_text:
            raise UnusualLayout("tabs in indentation")
        indent = len(indent_text)
        if open_ and open_[-1].indent >= indent:  # dedent: close the blocks this line is not inside
            end = lines.at(pos - 1)  # the line holding the newline that ended the previous code line
            while open_ and open_[-1].indent >= indent:
                open_.pop().end = end
        pos = line.end()
        owner = open_[-1] if open_ else None
        if owner is not None and owner.body < 0:  # the first statement of a body: maybe its docstring
            owner.body = indent
            owner.skip = (
                _members_skipped(indent) if owner.kind in ("class", "guard") else _deeper_than(owner.indent)
            )
            if owner.kind != "guard" and not code.startswith(("def", "class", "async", "@")):
                owner.doc = _docstring(code)
                owner.stub = owner.stub or code.strip() == "..."
        if owner is None and indent == 0:
            chain, guard = _guard(code, chain)
            if guard is not None:
                open_.append(guard)
                continue
        member = (owner.kind in ("class", "guard") and indent == owner.body) if owner else indent == 0
        if member and code.startswith("@"):
            decorated = decorated or lines.at(line.start("code"))
            overloaded = overloaded or _OVERLOAD.match(code) is not None
            continue
        header = _header(code) if member else None
        if header is None:
            decorated, overloaded = 0, False
            continue
        guarded = owner is not None and owner.kind == "guard"
        definition = _definition(
            header, None if guarded else owner, indent, decorated or lines.at(line.start("code"))
        )
        definition.stub = overloaded
        if owner is None or guarded:
            definition.hidden = guarded and definition.name in defined
            defined.add(definition.name)
        else:
            definition.hidden = owner.hidden
        if definition.kind == "class":
            definition.bases = class_bases(code)
        found.append(definition)
        decorated, overloaded = 0, False
        inline = code[header.end() :].strip()
        if inline:  # `def f(): ...`: the whole definition is this logical line
            definition.end = lines.at(line.start("code")) + code.count("\n")
            definition.doc = _docstring(inline)
            definition.stub = definition.stub or inline == "..."
        else:
            open_.append(definition)
    if open_:
        tail = _TAIL.search(text, pos) if pos < len(text) else None
        end = lines.at(max(0, (tail.start() if tail else len(text)) - 1))
        for definition in open_:
            definition.end = end
    return [definition.symbol() for definition in found if not definition.hidden]


def _guard(code: str, chain: bool) -> tuple[bool, _Definition | None]:
    """Whether an `else` after this top-level line is an `if`'s, and the block this line opens when it is a
    module-level `if` / `elif` / `else` (not the main guard), whose definitions are the module's."""
    if not _GUARD.fullmatch(code.rstrip()) or code.startswith("else") and not chain:
        return False, None
    return not code.startswith("else"), _Definition("", "guard", 0, 0, False, 0)


def _definition(header: re.Match[str], owner: _Definition | None, indent: int, start: int) -> _Definition:
    name = header.group("name")
    prefix = owner.name + "." if owner else ""
    public = not name.startswith("_") or (name.startswith("__") and name.endswith("__"))
    kind = "class" if header.group("kind") == "class" else ("method" if owner else "function")
    definition = _Definition(prefix + name, kind, start, start, public and not prefix.startswith("_"), indent)
    definition.parent = owner.name if owner else ""
    return definition


def class_bases(header: str) -> tuple[str, ...]:
    """The bases of `class Name(A, pkg.B, Generic[T], metaclass=M):` as written: ("A", "pkg.B", "Generic")."""
    start = header.find("(")
    if start < 0:
        return ()
    simple = _SIMPLE_BASES.match(header, start)
    if simple is not None:  # `(A, pkg.B)`: most headers, read without a syntax tree
        return tuple(name.strip() for name in simple.group(1).split(",") if name.strip())
    colon = _HEADER.match(header)
    if colon is None or start > colon.end():
        return ()
    return _bases_read_by_ast(header[start : colon.end()])


@lru_cache(maxsize=4096)  # the same bases repeat across a repository: `(TypedDict, total=False):`
def _bases_read_by_ast(arguments: str) -> tuple[str, ...]:
    try:
        tree = ast.parse(f"class _{arguments} pass")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    node = tree.body[0]
    return (
        tuple(name for name in map(dotted_name, node.bases) if name) if isinstance(node, ast.ClassDef) else ()
    )


def _header(code: str) -> re.Match[str] | None:
    """`def name(…) -> T:` / `class Name(…):` up to its colon; None when `code` defines nothing."""
    header = _HEADER.match(code)
    if header is None and _STARTS_DEFINITION.match(code):
        raise UnusualLayout("a definition header without its colon")
    return header


def _docstring(code: str) -> str:
    """The docstring (its head) when `code`, a body's first statement, is one: as ast.get_docstring(clean=False)."""
    if not _STRING_START.match(code):
        return ""  # `return x`, `self.a = b`: only a string literal (maybe parenthesized) can be a docstring
    value = _plain_string(code.strip())
    if value is None:
        try:
            value = ast.literal_eval(code.strip())
        except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
            if ";" in code and _MAYBE_STRING.match(code):
                raise UnusualLayout("a string statement joined to another by ';'") from None
            return ""
    if not isinstance(value, str):
        return ""
    return doc_head(value)


def _plain_string(token: str) -> str | None:
    """The value of a string literal without escapes, or of a raw one (r-prefixed docstrings with markup
    are common), else None (read with `ast.literal_eval`)."""
    raw = token[:1] in {"r", "R"}
    if raw:
        token = token[1:]
    for quote in ('"""', "'''", '"', "'"):
        if token.startswith(quote):
            inner = token[len(quote) : -len(quote)]
            plain = len(token) >= 2 * len(quote) and token.endswith(quote) and quote not in inner
            # a raw string's backslashes are its text, unless one stands before a quote or at the end
            escaped = "\\" in inner and (not raw or "\\" + quote[0] in inner or inner.endswith("\\"))
            return inner if plain and not escaped and "\r" not in inner else None
    return None
