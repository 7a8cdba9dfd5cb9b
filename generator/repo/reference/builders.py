"""The chainable setters of a builder: the public methods of a type that return the type itself, so that a
user sets one option after another (`Builder::new().num_threads(8).build()`, `Caffeine.newBuilder()
.maximumSize(10_000)`), read from each method's declaration as written: Rust's `-> Self`, `-> &mut Self` or
`-> Builder`, Java's, Kotlin's and C#'s declared return type, Go's `func (c *Client) SetTimeout(…) *Client`,
TypeScript's `: this`, Python's `-> Self`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from generator.repo.facts.native import type_name
from generator.repo.model import Symbol

LANGUAGES = frozenset({"rust", "java", "kotlin", "csharp", "go", "typescript", "python"})
HEADER_LINES = 8  # annotation and signature lines a method's declaration may take
MIN_SETTERS = 2  # a type returning itself from fewer methods is no builder (a `clone`, a `with_name`)
# a receiver is no setting: Rust's `self`, `mut self`, `&mut self`, `self: Box<Self>`; Python's `self`
_RECEIVER = re.compile(r"^(?:&(?:'\w+\s+)?)?(?:mut\s+)?self\b")
_ENDS = {"rust": "{;", "go": "{", "python": ":"}  # a declaration ends at its body (others: at `{`, `=>`, `;`)
# what returns the object itself though no type is named: Rust's `Self`, TypeScript's `this`
_ITSELF = frozenset({"Self", "this"})
_GENERICS = re.compile(r"<[^<>]*>")  # twice over: `Map<K, List<V>>`
_STATIC = "static"
_ASYNC = "async"
_RECEIVED = frozenset({"rust", "python"})  # languages whose methods name their receiver first
_NOT_SETTERS = frozenset({"clone", "Clone", "copy", "build", "Build", "create", "Create", "new", "New"})
# a method that adds to a collection or takes from it (RestSharp's `RestRequest.AddParameter`) builds up
# content, not a setting
_COLLECTING = re.compile(r"^(?:[Aa]dd|[Rr]emove|[Aa]ppend|[Pp]ush|[Ii]nsert|[Cc]lear|[Dd]elete)(?:[A-Z_]|$)")


@dataclass(frozen=True)
class Setter:
    """One chainable setter: its method, the parameters it takes as written (the receiver left out)."""

    method: Symbol
    takes: str


def chainable_setters(lines: list[str], symbols: Iterable[Symbol], language: str) -> list[Setter]:
    """Each public method whose declaration returns its own type, for the types with MIN_SETTERS of them
    or more."""
    if language not in LANGUAGES:
        return []
    by_owner: dict[str, list[Setter]] = {}
    for symbol in symbols:
        if symbol.kind != "method" or not symbol.public or not symbol.parent or symbol.stub:
            continue
        short = symbol.short_name
        if short in _NOT_SETTERS or short == symbol.parent.rsplit(".", 1)[-1] or _COLLECTING.match(short):
            continue  # a constructor or a copy returns a new one, nothing is set on it; nor on a collection
        if short.startswith("__"):
            continue  # the language's protocol (werkzeug's `Response.__enter__`), no option a user sets
        declared = _declaration(lines, symbol, language)
        if declared is not None and _returns_owner(declared[1], symbol.parent, language):
            by_owner.setdefault(symbol.parent, []).append(Setter(symbol, declared[0]))
    return [s for setters in by_owner.values() if len(setters) >= MIN_SETTERS for s in setters]


def _declaration(lines: list[str], symbol: Symbol, language: str) -> tuple[str, str] | None:
    """(the parameters as written, the return type as written) of the method's declaration."""
    span = lines[symbol.start - 1 : symbol.start - 1 + HEADER_LINES]
    # the line naming the method (annotations may come first) and those its parameters run on to
    at = next((i for i, line in enumerate(span) if symbol.short_name in line), None)
    if at is None:
        return None
    head = span[at]
    if head.count("(") > head.count(")"):
        head = " ".join(line.strip() for line in span[at:])
    if symbol.parent.rsplit(".", 1)[-1] not in head and not any(word in head for word in _ITSELF):
        return None  # it names no type of its own: asked first, since most methods are not setters
    named = re.search(rf"\b{re.escape(symbol.short_name)}\s*(?:<[^()]*>)?\s*\(", head)
    if named is None:
        return None
    opened = named.end() - 1
    closed = _closing(head, opened)
    if closed < 0:
        return None
    parameters, receiver = _without_receiver(head[opened + 1 : closed])
    before = _GENERICS.sub("", _GENERICS.sub("", head[: named.start()])).split()
    if _STATIC in before or (language in _RECEIVED and not receiver):
        return None  # a factory (`static Caffeine<K, V> newBuilder()`, Rust's `fn from_env(…) -> Self`)
    if _ASYNC in before:
        return None  # calling it gives an awaitable to wait for, nothing the next setting chains onto
    if language in {"java", "csharp"}:
        return (parameters, before[-1]) if before else None
    after = head[closed + 1 :]
    ends = _ENDS.get(language, "{;=")
    end = min((i for i in (after.find(c) for c in ends) if i >= 0), default=len(after))
    written = re.sub(r"\bwhere\b.*", "", after[:end]).strip()
    return parameters, written.removeprefix("->").removeprefix(":").strip()


def _closing(text: str, opened: int) -> int:
    depth = 0
    for at in range(opened, len(text)):
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        if depth == 0:
            return at
    return -1


def _without_receiver(parameters: str) -> tuple[str, bool]:
    """The parameters without a leading receiver, and whether there was one."""
    listed = " ".join(parameters.split())
    first, _, rest = listed.partition(",")
    return (rest.strip(), True) if _RECEIVER.match(first.strip()) else (listed, False)


def _returns_owner(written: str, owner: str, language: str) -> bool:
    """Whether the declared return type is the method's own type (a Go pointer to it; Rust `&mut Self`)."""
    if not written:
        return False
    written = written.strip("\"'")
    own = owner.rsplit(".", 1)[-1]
    outer, subscripted, _ = written.partition("[")
    if language == "python" and subscripted and type_name(outer) != own:
        # a Python type subscripted by another holds the object or promises it, it is not the object:
        # `Coroutine[None, None, Self]` (beanie's `Document.set`, a database update to await), `list[Self]`
        return False
    returned = type_name(written)
    return returned in _ITSELF or returned == own


# Go's functional options: `func New(opts ...Option) *Cron` takes them; `func WithSeconds() Option` makes one
_VARIADIC_TAKER = re.compile(
    r"^func\s+([A-Z]\w*)\s*(?:\[[^\]]*\])?\s*\([^)]*\.\.\.\s*\*?([A-Z]\w*)\s*\)", re.MULTILINE
)
# (a parameter may be a function: `func WithPanicHandler(panicHandler func(any)) Option {`)
_MAKER = re.compile(r"^func\s+([A-Z]\w*)\s*\(((?:[^()]|\([^()]*\))*)\)\s*\*?([A-Z]\w*)\s*\{", re.MULTILINE)


def option_takers(text: str, language: str) -> list[tuple[str, str]]:
    """(function, option type) of each exported Go function that takes a trailing `...Option`."""
    if language != "go" or "..." not in text:
        return []
    return [(m.group(1), m.group(2)) for m in _VARIADIC_TAKER.finditer(text)]


def option_makers(text: str, symbols: Iterable[Symbol], language: str) -> list[tuple[Setter, str]]:
    """(the function as a setter, the type it returns) of each exported top-level Go function with a
    one-line declaration returning a named type (`func WithPreAlloc(preAlloc bool) Option {`); which of
    those types are options is known once every module's takers are."""
    if language != "go":
        return []
    functions = {s.name: s for s in symbols if s.kind == "function" and not s.parent and s.public}
    return [
        (Setter(functions[m.group(1)], " ".join(m.group(2).split())), m.group(3))
        for m in _MAKER.finditer(text)
        if m.group(1) in functions
    ]
