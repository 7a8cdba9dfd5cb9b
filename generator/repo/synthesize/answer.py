"""The facts that answer a question asked of a repository (`--request`): the symbols whose names (first) or docstrings match the question's
domain words, with their docstrings and definitions, and the call path that joins them. Of those, the ones
that call the others come first: the function that handles what was asked before the helpers it calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite, flow_hops, lead, sentences
from generator.repo.facts.ranking import key_symbols
from generator.repo.model import Answer, AnswerStep, CallEdge, CitedSymbol, Facts, FlowHop, Symbol
from generator.repo.plan.focus import request_terms
from generator.repo.plan.naming import words_of
from generator.repo.plan.subsystems import is_context
from generator.repo.synthesize.answer_steps import AnswerWalk
from generator.retrieval.scoring import idf
from generator.text.words import base_form, shares_stem, stem

MAX_SYMBOLS = 8
NAME_WEIGHT, DOC_WEIGHT = 3.0, 1.0  # a symbol named after the question outranks one that mentions it
PROCESS_WEIGHT = 2.0  # a symbol named for the verb the question asks about ("sent", "dispatched")
_PASSIVE = re.compile(r"^\W*how\s+(?:is|are|was|were|gets?|got)\b", re.IGNORECASE)
_ACTIVE = re.compile(
    r"^\W*how\s+(?:does|do|did|can|could|should|would|will)\s+(?:(?:the|a|an|this|that|each|every)\s+)?"
    r"[\w.\-]+\s+(\w+)",
    re.IGNORECASE,
)
# light verbs say little of a process ("turn X into Y", "make", "get"): the words after them say what it is
_LIGHT_VERBS = frozenset(
    "turn turned make made get got do done go gone take taken have had become came".split()
)
_PARTICIPLE = re.compile(r"^[a-z]{3,}ed$|^(?:run|set|put|read|cut|hit|let|shut|split|spread)$")
Chosen = tuple[float, str, Symbol]  # (match score, path, symbol)


def answer_request(request: str, modules: Sequence[str], facts: Facts, linker: Linker) -> Answer:
    """The best-matching symbols of `modules` and the calls between them."""
    terms = request_terms(request)
    candidates = [
        (path, symbol)
        for path in modules
        if not is_context(path) and path in facts.files  # the tests that exercise an answer are not it
        for symbol in facts.files[path].symbols
        if not symbol.stub
    ]
    hits = [term_hits(symbol, terms) for _, symbol in candidates]  # each symbol's words are read once
    weights = term_weights(terms, hits)
    process = asked_process(request, terms)
    scored: list[Chosen] = []
    answered: dict[tuple[str, str], tuple[float, ...]] = {}  # each match's share of each question word
    importance: dict[str, dict[str, float]] = {}
    for (path, symbol), found in zip(candidates, hits, strict=True):
        shares = per_term(terms, found, weights)
        if process and does(symbol, process):
            shares = tuple(
                share * PROCESS_WEIGHT if term == process else share
                for term, share in zip(terms, shares, strict=True)
            )
        score = sum(shares)
        if score > 0:
            answered[(path, symbol.name)] = shares
            # every definition may answer (a class's 40th method too); the ranking only breaks ties
            if path not in importance:
                importance[path] = {e.symbol.name: e.score for e in key_symbols(facts, path, limit=50)}
            ranks = importance[path]
            weight = ranks.get(symbol.name, ranks.get(symbol.parent, 0.0))
            scored.append((score + 0.01 * weight, path, symbol))
    scored.sort(key=lambda item: (-item[0], item[1], item[2].start))
    steps = walked_steps(answered, facts, linker)
    chosen = scored[:MAX_SYMBOLS]
    names = {(path, symbol.name) for _, path, symbol in chosen}
    files = sorted({path for path, _ in names})
    calls = (
        facts.calls.edges(files) + facts.calls.edges(files, incoming=True) if facts.calls is not None else []
    )
    touching = [e for e in calls if (e.caller_path, e.caller) in names or (e.callee_path, e.callee) in names]
    # calls between two answering symbols first: they are the path the answer takes
    joined = sorted(
        _distinct_calls(touching),
        key=lambda e: -(((e.caller_path, e.caller) in names) + ((e.callee_path, e.callee) in names)),
    )
    symbols = [explained(symbol, path, linker) for _, path, symbol in callers_first(chosen, touching)]
    if not steps:
        return Answer(request, tuple(symbols), tuple(flow_hops(joined[:8], linker)))
    walked = [step.symbol.name for step in steps]
    others = [s for s in symbols if s.name not in walked]
    hops = [FlowHop(step.caller, step.symbol.name, step.call) for step in steps[1:]]
    return Answer(
        request, (*(step.symbol for step in steps), *others)[:MAX_SYMBOLS], tuple(hops), steps=steps
    )


def walked_steps(
    answered: Mapping[tuple[str, str], Sequence[float]], facts: Facts, linker: Linker
) -> tuple[AnswerStep, ...]:
    """The answer in the code from where the asked process begins (answer_steps.py): the start, then the
    calls from it that lead to the other matches, in call order; () without a call graph or a call."""
    if facts.calls is None or not answered:
        return ()
    lines = {node: symbol.lines for node in answered if (symbol := _symbol_at(facts, node)) is not None}
    walk = AnswerWalk(facts.calls, answered, lines)
    start = walk.start()
    if start is None:
        return ()
    found = walk.steps(start)
    if not found:
        return ()
    first = _symbol_at(facts, start)
    steps = [AnswerStep(explained(first, start[0], linker))] if first is not None else []
    for edge, depth in found:
        symbol = _symbol_at(facts, (edge.callee_path, edge.callee))
        if symbol is not None:
            call = linker.check(edge.caller_path, edge.line)
            steps.append(AnswerStep(explained(symbol, edge.callee_path, linker), edge.caller, call, depth))
    return tuple(steps)


def _symbol_at(facts: Facts, node: tuple[str, str]) -> Symbol | None:
    fact = facts.files.get(node[0])
    return next((s for s in fact.symbols if s.name == node[1]), None) if fact is not None else None


def explained(symbol: Symbol, path: str, linker: Linker, limit: int = 3) -> CitedSymbol:
    """The symbol cited at its definition with its docstring's leading sentences: what explains it."""
    cited = cite(symbol, path, linker, described=False)
    return replace(cited, doc=" ".join(sentences(symbol.doc, limit)) or lead(symbol.doc))


def callers_first(chosen: Sequence[Chosen], calls: Iterable[CallEdge]) -> list[Chosen]:
    """The answering symbols in reading order: symbols joined by calls form a path, read from the caller
    that reaches most of the others down to the helpers; paths (and lone symbols) come in the order of their
    best match, so a better answer is never pushed below a weaker symbol's helpers."""
    nodes = [(path, symbol.name) for _, path, symbol in chosen]
    onward: dict[tuple[str, str], set[tuple[str, str]]] = {node: set() for node in nodes}
    group = {node: node for node in nodes}

    def root(node: tuple[str, str]) -> tuple[str, str]:
        while group[node] != node:
            node = group[node]
        return node

    for edge in calls:
        caller, callee = (edge.caller_path, edge.caller), (edge.callee_path, edge.callee)
        if caller in onward and callee in onward and caller != callee:
            onward[caller].add(callee)
            group[root(caller)] = root(callee)

    def reached(start: tuple[str, str]) -> int:
        seen, stack = {start}, [start]
        while stack:
            for node in onward[stack.pop()] - seen:
                seen.add(node)
                stack.append(node)
        return len(seen) - 1

    first_of: dict[tuple[str, str], int] = {}
    for i, node in enumerate(nodes):
        first_of.setdefault(root(node), i)
    reach = [reached(node) for node in nodes]
    order = sorted(range(len(chosen)), key=lambda i: (first_of[root(nodes[i])], -reach[i], i))
    return [chosen[i] for i in order]


def _distinct_calls(calls: Iterable[CallEdge]) -> list[CallEdge]:
    """One call per caller and callee (the first site): repeated calls say nothing new."""
    seen: dict[tuple[str, str], CallEdge] = {}
    for edge in calls:
        seen.setdefault((edge.caller, edge.callee), edge)
    return list(seen.values())


def asked_process(request: str, terms: Sequence[str]) -> str:
    """The verb of a "how" question, when its shape tells it: the last participle of a passive one ("how is a
    prepared request *sent* over the connection?"), the word after the subject of an active one ("how does
    the client *follow* redirects?"); "" otherwise. The process asked about weighs more than the nouns it
    shares with every helper."""
    if _PASSIVE.match(request):
        found = [t for t in terms if _PARTICIPLE.match(t) or base_form(t) != t]
        verb = found[-1] if found else ""
    else:
        active = _ACTIVE.match(request)
        verb = active.group(1).lower() if active else ""
    return verb if verb in terms and verb not in _LIGHT_VERBS else ""


def does(symbol: Symbol, verb: str) -> bool:
    """Is the symbol named for doing what the verb says: a word of its name with the verb's own stem
    (`parse_args` for "parsed", `send` for "sent"), not the agent doing it (`make_parser`, `Compiler`)?"""
    root = stem(base_form(verb))
    return any(
        stem(word) == root and not (word.endswith(("er", "or")) and len(word) >= len(root) + 2)
        for word in words_of(symbol.name)
    )


Hits = list[tuple[bool, bool]]
"""Per question word: whether the symbol's name, and whether its docstring, shares its stem."""


def term_hits(symbol: Symbol, terms: Sequence[str]) -> Hits:
    """Which question words the symbol's name and docstring share a stem with ("redirects" finds
    `resolve_redirects`, "parsed" finds `OptionParser`)."""
    name_words, doc_words = set(words_of(symbol.name)), set(words_of(symbol.doc))  # lower case already
    # an irregular participle is read as its verb: "sent" finds `send` (and "built" no `builtin`)
    verbs = [base_form(term) for term in terms]
    return [
        (shares_stem(verb, name_words), shares_stem(term, doc_words) or shares_stem(verb, doc_words))
        for term, verb in zip(terms, verbs, strict=True)
    ]


def weighed(terms: Sequence[str], hits: Hits, weights: Mapping[str, float] | None = None) -> float:
    """NAME_WEIGHT per question word the symbol's name shares, DOC_WEIGHT per one its docstring shares, each
    word counted by its weight (1 without `weights`)."""
    return sum(per_term(terms, hits, weights))


def per_term(
    terms: Sequence[str], hits: Hits, weights: Mapping[str, float] | None = None
) -> tuple[float, ...]:
    """What the symbol's name and docstring answer of each question word (see `weighed`)."""
    return tuple(
        (NAME_WEIGHT * in_name + DOC_WEIGHT * in_doc) * (weights.get(term, 1.0) if weights else 1.0)
        for term, (in_name, in_doc) in zip(terms, hits, strict=True)
    )


def term_weights(terms: Sequence[str], hits: Sequence[Hits]) -> dict[str, float]:
    """How much each question word tells symbols apart, from every symbol's `term_hits`: the retrieval
    engine's IDF over the symbols. In an HTTP library "request" is in every other docstring and tells little;
    "connection" or "redirects" picks out the code that answers."""
    return {term: idf(sum(1 for found in hits if any(found[i])), len(hits)) for i, term in enumerate(terms)}
