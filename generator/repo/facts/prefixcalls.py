"""Calls by a computed name: a method that looks up one of its own class's methods by a prefix and a value
(`this['handler_' + commandName]` in smtp-server's command loop, `getattr(self, 'visit_' + node.expr_name)` in
parsimonious's visitor, `getattr(self, f"on_{event.event_type}")(event)` in watchdog's dispatcher) calls
whichever method that name picks at run time. No call names them; these edges say the lookup reaches every
method of the class (or of a class naming it as a base) whose name starts with the prefix, so a flow or an
answer reaching a protocol's command loop goes on into its command handlers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from generator.repo.facts.imports import JS_LANGUAGES
from generator.repo.facts.tscalls import innermost
from generator.repo.model import CallEdge, FileFacts, Symbol

Read = Callable[[str], str | None]
_CONSTRUCTORS = frozenset({"__init__", "constructor"})
MAX_PICKED = 40  # methods one lookup may pick; more and the prefix names no family of handlers
# `getattr(self, 'visit_' + …)`, `getattr(self, f"on_{…}")`: a prefix of letters and underscores
_PY_LOOKUP = re.compile(
    r"""getattr\(\s*self\s*,\s*(?:f(['"])([A-Za-z_]\w*?)\{|(['"])([A-Za-z_]\w*)\3\s*\+)"""
)
# `this['handler_' + …]`, not a `typeof` test of whether there is one
_JS_LOOKUP = re.compile(r"""(?<!typeof )this\[\s*(['"])([A-Za-z_$][\w$]*)\1\s*\+""")


def prefix_calls(
    edges: Mapping[str, list[CallEdge]], files: Mapping[str, FileFacts], read: Read
) -> list[CallEdge]:
    """For each method of a source module (one the graph reads) that looks a method of its own object up by a
    prefix, an edge to each method of its class, or of the classes naming it as a base, starting with the
    prefix: at the lookup's line."""
    found: list[CallEdge] = []
    for path, fact in files.items():
        if path not in edges or not (fact.language == "python" or fact.language in JS_LANGUAGES):
            continue
        text = read(path) if _may_look_up(fact) else None
        if not text or ("getattr(self" not in text and "this[" not in text):
            continue
        pattern = _PY_LOOKUP if fact.language == "python" else _JS_LOOKUP
        methods = sorted((s for s in fact.symbols if s.kind == "method"), key=lambda s: s.start)
        for line, prefix in _lookups(text, pattern):
            caller = innermost(methods, line)
            if caller is None or caller.short_name in _CONSTRUCTORS:
                continue  # a constructor keeping the methods it looks up (mistune's `self._methods = {…}`)
            picked = [
                (home, method)
                for home, method in _family_methods(files, edges, path, caller.parent)
                if method.short_name.startswith(prefix) and method.name != caller.name
            ]
            if len(picked) <= MAX_PICKED:
                found.extend(CallEdge(path, caller.name, home, m.name, line) for home, m in picked)
    return found


def _may_look_up(fact: FileFacts) -> bool:
    return any(s.kind == "method" for s in fact.symbols)


def _lookups(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """(line, prefix) of each lookup by a prefix in `text`."""
    for match in pattern.finditer(text):
        prefix = next((g for g in match.groups()[1::2] if g), "")
        if len(prefix) >= 2:
            yield text.count("\n", 0, match.start()) + 1, prefix


def _family_methods(
    files: Mapping[str, FileFacts], edges: Mapping[str, list[CallEdge]], path: str, cls: str
) -> Iterator[tuple[str, Symbol]]:
    """The methods of class `cls` of `path` and of the classes naming it as a base, in the source modules of
    the same language."""
    language = files[path].language
    short = cls.rpartition(".")[2]
    for home, fact in files.items():
        if home not in edges or fact.language != language:
            continue
        classes = {
            s.name
            for s in fact.symbols
            if (home == path and s.name == cls) or any(b.rpartition(".")[2] == short for b in s.bases)
        }
        if classes:
            yield from ((home, s) for s in fact.symbols if s.kind == "method" and s.parent in classes)
