"""Where native code is meant to be extended: a Rust trait's required methods (rayon's `Producer`, log's
`Log`: the `fn` signatures without a body, which every `impl` provides) and a C++ class's pure virtual methods
(spdlog's `sink_it_`, Catch2's `IEventListener`, leveldb's `Env`), each an extension point with the methods an
implementation provides. A trait's provided methods and a class's virtual methods with a body are not."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite, lead
from generator.repo.facts.prose import summary
from generator.repo.model import CitedSymbol, Symbol
from generator.repo.reference.model import Extension

_RUST_FN = re.compile(r"^\s*(?:(?:unsafe|async|const|extern\s+\"\w+\")\s+)*fn\s+([A-Za-z_]\w*)")
_RUST_DOC = re.compile(r"^\s*///\s?(.*)$")
_PURE = re.compile(r"=\s*0\s*;")
SIGNATURE_LINES = 12  # lines a required method's signature may span before its `;`


def rust_trait(
    symbol: Symbol, lines: Sequence[str], path: str, linker: Linker, uses: Mapping[str, int]
) -> Extension | None:
    """A public Rust trait with the methods it requires (a signature ending in `;`, not a body), or None."""
    hooks = tuple(
        CitedSymbol(
            f"{symbol.name}.{name}",
            "method",
            path,
            _doc_above(lines, at),
            linker.check(path, at + 1, end + 1),
        )
        for name, at, end in _required(lines, symbol)
    )
    if not hooks:
        return None
    return Extension(cite(symbol, path, linker), "trait", hooks, uses.get(symbol.short_name, 0))


def _required(lines: Sequence[str], symbol: Symbol) -> list[tuple[str, int, int]]:
    """(name, 0-based first line, 0-based last line) of each `fn` the trait declares without a body: its
    signature reaches `;` before any `{` (a `where` clause may span lines)."""
    found = []
    for index in range(symbol.start, min(symbol.end, len(lines))):
        match = _RUST_FN.match(lines[index])
        if match is None:
            continue
        for end in range(index, min(index + SIGNATURE_LINES, symbol.end, len(lines))):
            code = lines[end].split("//", 1)[0]
            if "{" in code:
                break
            if code.rstrip().endswith(";"):
                found.append((match.group(1), index, end))
                break
    return found


def _doc_above(lines: Sequence[str], index: int) -> str:
    """The first sentence of the `///` comment above line `index` (attributes between them skipped)."""
    said: list[str] = []
    at = index - 1
    while at >= 0 and ((doc := _RUST_DOC.match(lines[at])) or lines[at].strip().startswith("#[")):
        if doc is not None:
            said.insert(0, doc.group(1))
        at -= 1
    return lead(summary("\n".join(said), sections=False)) if said else ""


def cpp_abstract(
    symbol: Symbol,
    members: Sequence[Symbol],
    lines: Sequence[str],
    path: str,
    linker: Linker,
    uses: Mapping[str, int],
) -> Extension | None:
    """A public C++ class with pure virtual methods (`virtual void sink_it_(…) = 0;`): an abstract base class
    whose pure methods a subclass provides, or None."""
    hooks = tuple(
        cite(member, path, linker)
        for member in members
        if member.kind == "method"
        and member.stub
        and _PURE.search(" ".join(lines[member.start - 1 : member.end]))
    )
    if not hooks:
        return None
    return Extension(cite(symbol, path, linker), "abstract base class", hooks, uses.get(symbol.short_name, 0))


def native_extensions(
    path: str,
    lines: Sequence[str],
    symbols: Sequence[Symbol],
    language: str,
    linker: Linker,
    uses: Mapping[str, int],
) -> list[Extension]:
    """The module's Rust traits or C++ abstract classes, each with the methods an implementation provides."""
    found: list[Extension | None] = []
    for symbol in symbols:
        if not symbol.public or symbol.start > len(lines):
            continue
        if language == "rust" and symbol.kind == "trait":
            found.append(rust_trait(symbol, lines, path, linker, uses))
        elif language in {"c", "cpp"} and symbol.kind in {"class", "struct"}:  # a `.h` may read as C
            members = [m for m in symbols if m.parent == symbol.name]
            found.append(cpp_abstract(symbol, members, lines, path, linker, uses))
    return [e for e in found if e is not None]
