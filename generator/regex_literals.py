"""What a regular expression's matches must contain, and whether they stay on one line, read from its parse tree.

Secret redaction runs a few dozen key formats over every text; a text holding none of a format's required
literals cannot match it, so one `in` (or one scan for all of them) rules the format out. The literals are
derived here from the pattern itself rather than written by hand, so they are necessary by construction:
a run of consecutive single-string items (literals, small character classes, fixed repeats, zero-width
assertions) must appear in every match, as must one alternative of a branch whose every arm requires one.
Case-insensitive patterns get none (`str.lower` and the regex engine fold case differently, e.g. `ſ`).
A line-local pattern matches a line the same on its own and among other lines (`line_local`), which lets
redaction judge texts that are later joined by line breaks one at a time.
Reads CPython's `re._parser`; used when the kept formats are written and by tests, never per text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

MAX_CHOICES = 16  # strings one run may stand for (`gh[pousr]_` stands for five)
MAX_CLASS = 6  # characters a class may hold and still count as a literal choice

Found = list[frozenset[str]]  # sets of literals, each: every match contains one of its members


def required_literals(pattern: re.Pattern[str]) -> tuple[str, ...]:
    """The best set of literals one of which every match of `pattern` contains (longest shortest member,
    then fewest members), sorted; () when the pattern ignores case or requires no literal."""
    if pattern.flags & re.IGNORECASE:
        return ()
    tree = _parser.parse(pattern.pattern, pattern.flags)
    if tree.state.flags & re.IGNORECASE:  # an inline (?i) at the start
        return ()
    exact, found = _sequence(list(tree))
    if exact is not None and "" not in exact:
        found.append(exact)
    if not found:
        return ()
    best: frozenset[str] = max(found, key=_strength)
    return tuple(sorted(best))


def _strength(choices: frozenset[str]) -> tuple[int, int]:
    return min(len(c) for c in choices), -len(choices)


def _sequence(items: list[tuple[Any, Any]]) -> tuple[frozenset[str] | None, Found]:
    """The exact strings the whole sequence matches (None: too many or unbounded) and the required sets
    found inside it. Each run of consecutive exact items is one required set."""
    run: set[str] = {""}
    exact = True
    found: Found = []
    for op, av in items:
        item_exact, item_found = _item(op, av)
        found += item_found
        if item_exact is not None and len(run) * len(item_exact) <= MAX_CHOICES:
            run = {a + b for a in run for b in item_exact}
            continue
        exact = False
        found.append(frozenset(run))
        run = set(item_exact) if item_exact is not None else {""}
    found.append(frozenset(run))
    useful = [f for f in found if "" not in f]
    return (frozenset(run) if exact else None), useful


def _item(op: Any, av: Any) -> tuple[frozenset[str] | None, Found]:
    if op is sre.LITERAL:
        return frozenset({chr(av)}), []
    if op is sre.IN:
        return _class(av), []
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return frozenset({""}), []  # zero width: consumes nothing, so runs on either side stay adjacent
    if op is sre.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        if add_flags & re.IGNORECASE:
            return None, []
        return _sequence(list(sub))
    if op is sre.ATOMIC_GROUP:
        return _sequence(list(av))
    if op is sre.BRANCH:
        return _branch([_sequence(list(arm)) for arm in av[1]])
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        return _repeat(*av)
    return None, []  # any character, a negated literal, a category, a group reference: no literal


def _class(members: list[tuple[Any, Any]]) -> frozenset[str] | None:
    chars: set[str] = set()
    for op, av in members:
        if op is sre.LITERAL:
            chars.add(chr(av))
        elif op is sre.RANGE and av[1] - av[0] < MAX_CLASS:
            chars.update(chr(c) for c in range(av[0], av[1] + 1))
        else:
            return None  # negated, a category, a wide range
    return frozenset(chars) if 0 < len(chars) <= MAX_CLASS else None


def _branch(arms: list[tuple[frozenset[str] | None, Found]]) -> tuple[frozenset[str] | None, Found]:
    exacts = [exact for exact, _ in arms]
    if all(e is not None for e in exacts):
        union = frozenset().union(*(e for e in exacts if e is not None))
        if len(union) <= MAX_CHOICES:
            return union, []
    # every arm must hold one of its own best set: the union of those sets is required of the branch
    best: list[frozenset[str]] = []
    for exact, found in arms:
        options = found + ([exact] if exact is not None and "" not in exact else [])
        if not options:
            return None, []
        best.append(max(options, key=_strength))
    return None, [frozenset().union(*best)]


def _repeat(low: int, high: int, sub: Any) -> tuple[frozenset[str] | None, Found]:
    exact, found = _sequence(list(sub))
    if low == 0:
        return (frozenset({""}) if high == 0 else None), []
    required = found + ([exact] if exact is not None and "" not in exact else [])
    if exact is not None and low == high and len(exact) ** low <= MAX_CHOICES:
        repeated = {""}
        for _ in range(low):
            repeated = {a + b for a in repeated for b in exact}
        return frozenset(repeated), required
    return None, required


def shortest_prefixes(literals: Iterable[str]) -> tuple[str, ...]:
    """`literals` less those another of them begins (`sk-ant-` goes where `sk-` stays), sorted: no kept
    literal begins another, so at most one of them occurs at any position of a text."""
    kept: list[str] = []
    for literal in sorted(set(literals)):  # a literal sorts right after the literals it begins with
        if not kept or not literal.startswith(kept[-1]):
            kept.append(literal)
    return tuple(kept)


def any_literal(literals: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching exactly `shortest_prefixes(literals)`, as a trie of alternatives (`gh(?:o_|p_)`):
    the engine tries one branch per character instead of one per literal."""
    trie: dict[str, Any] = {}
    for literal in shortest_prefixes(literals):
        node = trie
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}
    return re.compile(_alternatives(trie))


def _alternatives(node: dict[str, Any]) -> str:
    arms = [re.escape(char) + _alternatives(child) for char, child in sorted(node.items()) if char]
    if not arms:
        return ""
    return arms[0] if len(arms) == 1 else "(?:" + "|".join(arms) + ")"


# classes of characters that hold a line break: `\s`, `\D`, `\W`, line-break categories
_BREAKING = {
    sre.CATEGORY_SPACE, sre.CATEGORY_UNI_SPACE, sre.CATEGORY_NOT_DIGIT, sre.CATEGORY_UNI_NOT_DIGIT,
    sre.CATEGORY_NOT_WORD, sre.CATEGORY_UNI_NOT_WORD, sre.CATEGORY_LOC_NOT_WORD, sre.CATEGORY_LINEBREAK,
    sre.CATEGORY_UNI_LINEBREAK,
}  # fmt: skip
# assertions that read a line break as they read either end of the text
_LINE_ASSERTIONS = {sre.AT_BOUNDARY, sre.AT_NON_BOUNDARY, sre.AT_UNI_BOUNDARY, sre.AT_UNI_NON_BOUNDARY}
_LINE_ENDS = {sre.AT_BEGINNING, sre.AT_END}  # `^`, `$`: line ends only under MULTILINE


def line_local(pattern: re.Pattern[str]) -> bool:
    """Whether no match of `pattern` holds a line break and each is decided by its own line alone: `\\b`,
    `^`/`$` under MULTILINE, and lookarounds that need a character of their line read a line break as they
    read an end of the text (`\\A`, `\\Z` and other lookarounds are taken as reading further). Then a line
    matches alike on its own and among other lines, and nothing matches across a line break."""
    tree = _parser.parse(pattern.pattern, pattern.flags)
    return _on_one_line(list(tree), tree.state.flags)


def _on_one_line(items: list[tuple[Any, Any]], flags: int) -> bool:
    return all(_item_on_one_line(op, av, flags) for op, av in items)


def _item_on_one_line(op: Any, av: Any, flags: int) -> bool:
    if op is sre.LITERAL:
        return bool(av != ord("\n"))
    if op is sre.ANY:
        return not flags & re.DOTALL
    if op is sre.IN:
        return not _holds_line_break(av)
    if op is sre.AT:
        return av in _LINE_ASSERTIONS or bool(flags & re.MULTILINE and av in _LINE_ENDS)
    if op is sre.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        return _on_one_line(list(sub), (flags | add_flags) & ~del_flags)
    if op is sre.ATOMIC_GROUP:
        return _on_one_line(list(av), flags)
    if op is sre.BRANCH:
        return all(_on_one_line(list(arm), flags) for arm in av[1])
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        return _on_one_line(list(av[2]), flags)
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        # a lookaround that needs a character and cannot take a line break fails alike at a line break
        # and at an end of the text
        _direction, body = av
        return bool(body.getwidth()[0] >= 1 and _on_one_line(list(body), flags))
    return op is sre.GROUPREF  # a group's own text again; negated literals, conditionals: no


def _holds_line_break(members: list[tuple[Any, Any]]) -> bool:
    negated = any(op is sre.NEGATE for op, _ in members)
    holds = any(
        (op is sre.LITERAL and av == ord("\n"))
        or (op is sre.RANGE and av[0] <= ord("\n") <= av[1])
        or (op is sre.CATEGORY and av in _BREAKING)
        for op, av in members
    )
    return holds != negated
