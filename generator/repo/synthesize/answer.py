"""The facts that answer a question asked of a repository (`--request`): the symbols whose names (first) or docstrings match the question's
domain words, with their docstrings and definitions, and the call path that joins them. Of those, the ones
that call the others come first: the function that handles what was asked before the helpers it calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite, flow_hops, lead, sentences
from generator.repo.facts.ranking import key_symbols
from generator.repo.model import Answer, CallEdge, CitedSymbol, Facts, Symbol
from generator.repo.plan.focus import request_terms
from generator.repo.plan.naming import words_of
from generator.repo.plan.subsystems import is_context
from generator.retrieval.scoring import idf
from generator.text.words import shares_stem

MAX_SYMBOLS = 8
NAME_WEIGHT, DOC_WEIGHT = 3.0, 1.0  # a symbol named after the question outranks one that mentions it
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
    scored: list[Chosen] = []
    importance: dict[str, dict[str, float]] = {}
    for (path, symbol), found in zip(candidates, hits, strict=True):
        score = weighed(terms, found, weights)
        if score > 0:
            # every definition may answer (a class's 40th method too); the ranking only breaks ties
            if path not in importance:
                importance[path] = {e.symbol.name: e.score for e in key_symbols(facts, path, limit=50)}
            ranks = importance[path]
            weight = ranks.get(symbol.name, ranks.get(symbol.parent, 0.0))
            scored.append((score + 0.01 * weight, path, symbol))
    scored.sort(key=lambda item: (-item[0], item[1], item[2].start))
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
    return Answer(
        request,
        tuple(explained(symbol, path, linker) for _, path, symbol in callers_first(chosen, touching)),
        tuple(flow_hops(joined[:8], linker)),
    )


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


Hits = list[tuple[bool, bool]]
"""Per question word: whether the symbol's name, and whether its docstring, shares its stem."""


def term_hits(symbol: Symbol, terms: Sequence[str]) -> Hits:
    """Which question words the symbol's name and docstring share a stem with ("redirects" finds
    `resolve_redirects`, "parsed" finds `OptionParser`)."""
    name_words, doc_words = set(words_of(symbol.name)), set(words_of(symbol.doc))  # lower case already
    return [(shares_stem(term, name_words), shares_stem(term, doc_words)) for term in terms]


def weighed(terms: Sequence[str], hits: Hits, weights: Mapping[str, float] | None = None) -> float:
    """NAME_WEIGHT per question word the symbol's name shares, DOC_WEIGHT per one its docstring shares, each
    word counted by its weight (1 without `weights`)."""
    return sum(
        (NAME_WEIGHT * in_name + DOC_WEIGHT * in_doc) * (weights.get(term, 1.0) if weights else 1.0)
        for term, (in_name, in_doc) in zip(terms, hits, strict=True)
    )


def term_weights(terms: Sequence[str], hits: Sequence[Hits]) -> dict[str, float]:
    """How much each question word tells symbols apart, from every symbol's `term_hits`: the retrieval
    engine's IDF over the symbols. In an HTTP library "request" is in every other docstring and tells little;
    "connection" or "redirects" picks out the code that answers."""
    return {term: idf(sum(1 for found in hits if any(found[i])), len(hits)) for i, term in enumerate(terms)}
