"""Which symbols matter: each file's definitions ranked by what a maintainer would name first.

A symbol scores for being exported (`__all__`, a package re-export, `export`, CommonJS exports, a capitalised
Go name), for being used by other files (imports by name, and calls from the other source modules), for
its size and, for a class, for the public methods it carries. Stubs (`@overload`, `...` bodies), dunders and
private helpers sink unless other files use them. Classes carry their main public methods (`methods`);
a method whose owner is not defined in the same file (a Go method beside its type's file, `app.use` on a
plain object) stands on its own. The number shown scales with the file: a large module shows more.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from generator.repo.facts.deprecation import deprecated_by_doc
from generator.repo.model import Facts, FileFacts, Symbol

W_API, W_EXPORTED, W_USED, W_CALLED, W_SIZE, W_DOC, W_CLASS, W_METHODS = (
    2.0,
    3.0,
    1.5,
    1.0,
    0.5,
    0.5,
    1.0,
    0.6,
)
W_SUBCLASSED = 1.0  # a class others extend is a hierarchy's root
W_MENTIONED = 1.5  # a name the README's code shows
P_STUB, P_PRIVATE, P_DUNDER, P_HIDDEN = 4.0, 2.5, 3.0, 2.0
P_DEPRECATED = 6.0  # its doc comment says it is deprecated: never what a list leads with
_ERROR_SUFFIXES = ("Error", "Exception", "Warning")
_SHIM_STEMS = ("compat", "shim", "shims", "polyfill", "polyfills")
_ERRORS_STEMS = ("error", "errors", "exception", "exceptions", "warnings")
_DOC_REFERENCE = re.compile(r"\b(\w+)\(\)|:(?:meth|func|class|attr):`[~.]?(?:[\w.]*\.)?(\w+)`")
_DOC_TAG = re.compile(r"@(?:api\s+)?(private|internal|ignore|protected|public)\b")
TYPE_KINDS = frozenset({"class", "struct", "interface", "trait", "record", "enum", "type", "impl"})
MIN_LIMIT, MAX_LIMIT, LINES_PER_SYMBOL = 3, 12, 150
MIN_METHODS, MAX_METHODS, LINES_PER_METHOD = 3, 8, 120


@dataclass(frozen=True)
class RankedSymbol:
    """A symbol with its score; a class (struct, interface) with its main public methods, best first."""

    symbol: Symbol
    score: float
    path: str = ""
    methods: tuple[Symbol, ...] = ()
    secondary: bool = False  # an error type or a compat shim (`secondary_names`): listed after the others


def key_symbols(facts: Facts, path: str, limit: int | None = None) -> list[RankedSymbol]:
    """The symbols of `path` a reader should meet first, best first ([] for a file without symbols).

    `limit` defaults to a budget that grows with the file's length (3 to 12 entries).
    """
    ranking = file_ranking(facts, path)
    if ranking is None:
        return []
    return ranking.top(ranking.default_limit if limit is None else limit)


def leading_symbols(facts: Facts, path: str, limit: int) -> list[Symbol]:
    """The symbols of `key_symbols(facts, path, limit)`, without picking their classes' main methods: what
    a line naming a module's symbols needs, for every module of the repository."""
    fact = facts.files.get(path)
    alone = _sole_entry(fact) if fact is not None else None
    if alone is not None:
        return [alone][:limit]  # it leads whatever its score: no ranking needed (one model per file, …)
    ranking = file_ranking(facts, path)
    return [] if ranking is None else [entry.symbol for entry in ranking.useful[:limit]]


def _sole_entry(fact: FileFacts) -> Symbol | None:
    """The file's one top-level symbol (its methods aside) when it has exactly one, else None."""
    owners = {s.name for s in fact.symbols if s.kind in TYPE_KINDS}
    folded = _not_entries(fact.symbols)
    entries = [s for s in fact.symbols if s.parent not in owners and id(s) not in folded]
    return entries[0] if len(entries) == 1 else None


def file_ranking(facts: Facts, path: str) -> FileRanking | None:
    """The ranking of `path`'s symbols (None for a file without symbols), kept on `facts`: the pages ask for
    the same files several times."""
    fact = facts.files.get(path)
    if fact is None or not fact.symbols:
        return None
    cached = facts.rankings.get(path)
    if isinstance(cached, FileRanking):
        return cached
    # calls into its symbols from the other source modules (none without a call graph)
    calls = facts.calls.calls_into(path) if facts.calls is not None else None
    # … and for picking a type's methods, not a test-helper package's: fxtest's App embeds *fx.App and calls
    # its Err and StartTimeout, which had outranked the Run every usage example calls
    by_users = facts.calls.calls_into(path, helpers=False) if facts.calls is not None else None
    references = doc_references(fact)
    ranking = FileRanking.of(
        fact,
        calls + references if calls else references,
        facts,
        by_users + references if by_users else references,
    )
    facts.rankings[path] = ranking
    return ranking


@dataclass
class _Scored:
    """A top-level symbol with its score and the methods it owns; `shown` is picked on first use."""

    symbol: Symbol
    score: float
    members: list[Symbol]
    shown: RankedSymbol | None = None
    secondary: bool = False  # an error type or a shim (`secondary_names`)


@dataclass
class FileRanking:
    """A file's top-level symbols scored and sorted (the useful ones: scoring above zero, else the best one).

    A class's main methods are picked when the class is first handed out: most rankings are only ever
    asked for their first few symbols' names (the module catalogue).
    """

    fact: FileFacts
    called: Counter[str]
    exports: set[str]
    mentioned: frozenset[str]
    useful: list[_Scored]
    default_limit: int  # how many symbols the file shows: its length's budget
    called_by_users: Counter[str]  # `called` without a test-helper package's calls: picks the methods

    @classmethod
    def of(
        cls, fact: FileFacts, called: Counter[str], facts: Facts, called_by_users: Counter[str] | None = None
    ) -> FileRanking:
        exports = set(fact.exports)
        entries = _scored(fact, exports, called, facts.base_uses, facts.mentioned)
        useful = [e for e in entries if e.score > 0] or entries[:1]
        default_limit = budget(max((s.end for s in fact.symbols), default=0))
        users = called if called_by_users is None else called_by_users
        return cls(fact, called, exports, facts.mentioned, useful, default_limit, users)

    def top(self, limit: int) -> list[RankedSymbol]:
        """The first `limit` useful symbols, each with its main methods."""
        found = []
        for entry in self.useful[:limit]:
            if entry.shown is None:
                methods = _main_methods(
                    entry.symbol, entry.members, self.fact, self.exports, self.called_by_users, self.mentioned
                )
                entry.shown = RankedSymbol(
                    entry.symbol, entry.score, self.fact.path, methods, entry.secondary
                )
            found.append(entry.shown)
        return found


def budget(lines: int, *, low: int = MIN_LIMIT, high: int = MAX_LIMIT, per: int = LINES_PER_SYMBOL) -> int:
    """How many symbols a file (or a class) of `lines` lines shows."""
    return max(low, min(high, low + lines // per))


def doc_references(fact: FileFacts) -> Counter[str]:
    """How often the file's own doc comments point at each of its symbols ("the same as Execute()",
    :meth:`send`): what its authors refer readers to. Counted like calls from elsewhere."""
    counts: Counter[str] = Counter()
    # a reference holds "()" or ":`" (_DOC_REFERENCE's two forms): most files have no doc holding either
    referring = [s for s in fact.symbols if "()" in s.doc_source or ":`" in s.doc_source]
    if not referring:
        return counts
    named: dict[str, list[str]] = {}
    for symbol in fact.symbols:
        named.setdefault(symbol.short_name, []).append(symbol.name)
    for symbol in referring:
        for match in _DOC_REFERENCE.finditer(symbol.doc_source):
            short = match.group(1) or match.group(2)
            for name in named.get(short, ()):
                if name != symbol.name:
                    counts[name] += 1
    return counts


def _scored(
    fact: FileFacts,
    exports: set[str],
    called: Counter[str],
    subclassed: dict[str, int],
    mentioned: frozenset[str] = frozenset(),
) -> list[_Scored]:
    owners = {s.name for s in fact.symbols if s.kind in TYPE_KINDS}
    methods: dict[str, list[Symbol]] = {}
    for symbol in fact.symbols:
        if symbol.parent in owners:
            methods.setdefault(symbol.parent, []).append(symbol)
    folded = _not_entries(fact.symbols)
    entries = []
    for symbol in fact.symbols:
        if symbol.parent in owners or id(symbol) in folded:
            continue  # shown under its class
        members = methods.get(symbol.name, [])
        short = symbol.short_name
        score = _score(symbol, fact, exports, called) + _members_bonus(members, called)
        score += W_SUBCLASSED * math.log2(1 + subclassed.get(short, 0))
        score += W_MENTIONED * float(short in mentioned)
        entries.append(_Scored(symbol, round(score, 4), members))
    # error types and shims come after the file's primary symbols whatever their use (every module raises
    # them), and after other files' in a subsystem's lists; in a module of errors they lead its own line
    lesser = secondary_names(fact)
    for entry in entries:
        entry.secondary = entry.symbol.name in lesser
    tiered = not _errors_module(fact.path)
    entries.sort(key=lambda e: (tiered and e.secondary, -e.score, e.symbol.start))
    return entries


def _not_entries(symbols: Sequence[Symbol]) -> set[int]:
    """The symbols that are no entry of their own (by `id`): a Rust type's `impl` blocks are the type, their
    methods shown under it (indicatif's `ProgressBar` was listed three times: its struct, its `impl
    fmt::Debug` and its `impl ProgressBar`); of a type defined elsewhere, the longest block stands for it.
    A Rust module of unit tests (`#[cfg(test)] mod tests`) is test code, never a key symbol."""
    tests = unit_test_symbols(symbols)
    defined = {s.name for s in symbols if s.kind in TYPE_KINDS and s.kind != "impl"}
    longest: dict[str, Symbol] = {}
    for symbol in symbols:
        if symbol.kind == "impl" and symbol.name not in defined:
            kept = longest.get(symbol.name)
            if kept is None or symbol.lines > kept.lines:
                longest[symbol.name] = symbol
    kept_ids = {id(s) for s in longest.values()}
    return {id(s) for s in symbols if (s.kind == "impl" and id(s) not in kept_ids) or s.name in tests}


_TEST_MODULES = frozenset({"tests", "test"})


def unit_test_symbols(symbols: Sequence[Symbol]) -> set[str]:
    """The names of a Rust file's unit tests: a module named `tests` or `test` and what it holds."""
    modules = {s.name for s in symbols if s.kind == "module" and s.short_name in _TEST_MODULES}
    return {s.name for s in symbols if s.name.split(".", 1)[0] in modules} if modules else set()


def secondary_names(fact: FileFacts) -> set[str]:
    """The file's exception and error types (a name or a base ending in Error/Exception/Warning, a subclass
    of one of those in the same file, a Go `ErrX` value), or every symbol of a compat shim module: a list of
    what a subsystem is made of names these last."""
    stem = fact.path.rsplit("/", 1)[-1].split(".", 1)[0].lower()
    if stem.endswith(_SHIM_STEMS):
        return {s.name for s in fact.symbols}
    found = {s.name for s in fact.symbols if _error_named(s.short_name)}
    # ReadTimeout(Timeout), Timeout(RequestException): an error's subclasses in the same file are errors too
    derived = [s for s in fact.symbols if s.bases and s.name not in found]
    grew = True
    while grew:
        grew = False
        for symbol in derived:
            if symbol.name not in found and any(
                _base_name(b) in found or _error_named(_base_name(b)) for b in symbol.bases
            ):
                found.add(symbol.name)
                grew = True
    return found


def _errors_module(path: str) -> bool:
    """`errors.go`, `_exceptions.py`, `AxiosError.js`: a module whose errors are what it is for."""
    return path.rsplit("/", 1)[-1].split(".", 1)[0].lower().endswith(_ERRORS_STEMS)


def _error_named(short: str) -> bool:
    return short.endswith(_ERROR_SUFFIXES) or (short[:3] in ("Err", "err") and short[3:4].isupper())


def _base_name(base: str) -> str:
    """`errors.RequestException` → `RequestException`, `Base[T]` → `Base`."""
    return base.split("[", 1)[0].rsplit(".", 1)[-1]


def _main_methods(
    owner: Symbol,
    members: list[Symbol],
    fact: FileFacts,
    exports: set[str],
    called: Counter[str],
    mentioned: frozenset[str] = frozenset(),
) -> tuple[Symbol, ...]:
    scored = [
        (_score(m, fact, exports, called, owner) + W_MENTIONED * float(m.short_name in mentioned), m)
        for m in members
    ]
    scored = [(score, m) for score, m in scored if score > 0]
    scored.sort(key=lambda pair: (-pair[0], pair[1].start))
    # a Go type's methods sit outside its body: the budget counts them too
    lines = owner.lines + sum(m.lines for m in members if m.start > owner.end or m.end < owner.start)
    limit = budget(lines, low=MIN_METHODS, high=MAX_METHODS, per=LINES_PER_METHOD)
    kept: dict[str, Symbol] = {}
    for _, m in scored:
        kept.setdefault(m.name, m)  # a property's getter and setter, a method's overloads: one method
    return tuple(list(kept.values())[:limit])


def _members_bonus(members: list[Symbol], called: Counter[str]) -> float:
    if not members:
        return 0.0  # what the sum below gives for none, without computing it for every function
    public = [m for m in members if _plain_public(m) and not m.stub]
    uses = sum(called.get(m.name, 0) for m in members)
    return W_METHODS * math.log1p(len(public)) + W_CALLED * math.log1p(uses)


def _score(
    symbol: Symbol,
    fact: FileFacts,
    exports: set[str],
    called: Counter[str],
    owner: Symbol | None = None,
    *,
    shown: bool = True,
) -> float:
    short = symbol.short_name
    tagged = _DOC_TAG.search(symbol.doc_source) if "@" in symbol.doc_source else None
    hidden = tagged is not None and tagged.group(1) in {"private", "internal", "ignore", "protected"}
    exported = symbol.exported or symbol.name in exports or (owner is not None and owner.name in exports)
    exported = (exported or (tagged is not None and tagged.group(1) == "public")) and not hidden
    uses = fact.name_uses.get(symbol.name, 0) if not symbol.parent else 0
    calls = called.get(symbol.name, 0)
    score = W_EXPORTED * float(exported and _plain_public(symbol) and shown)
    score += W_API * float(not symbol.parent and symbol.name in fact.api_names and shown)
    score += W_USED * math.log2(1 + uses) + W_CALLED * math.log2(1 + calls)
    score += W_SIZE * math.log1p(symbol.lines) + W_DOC * float(bool(symbol.doc_source))
    if symbol.kind in TYPE_KINDS:
        score += W_CLASS
    # other files lean on it: shown whatever its name says; a path through the code passes private
    # helpers as readily as public ones (`shown=False`)
    central = uses + calls >= 3 or not shown
    if symbol.stub:
        score -= P_STUB
    if shown and symbol.doc_source and deprecated_by_doc(symbol.doc_source):
        score -= P_DEPRECATED
    if short.startswith("__") and short.endswith("__") and len(short) > 4 and not central:
        score -= P_DUNDER
    elif short.startswith(("_", "#")) and not central:
        score -= P_PRIVATE
    if (hidden or not symbol.public) and not central:
        score -= P_HIDDEN  # not public, or its doc comment says so (JSDoc `@private`, `@api private`)
    return score


def _plain_public(symbol: Symbol) -> bool:
    short = symbol.short_name
    return symbol.public and not short.startswith(("_", "#"))
