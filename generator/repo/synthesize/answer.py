"""The facts that answer a question asked of a repository (`--request`): the symbols whose names (first) or docstrings match the question's
domain words, with their docstrings and definitions, and the call path that joins them. Of those, the ones
that call the others come first: the function that handles what was asked before the helpers it calls.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite, flow_hops, lead, sentences
from generator.repo.facts.ranking import key_symbols, unit_test_symbols
from generator.repo.model import Answer, AnswerStep, CallEdge, CitedSymbol, Facts, FlowHop, Symbol
from generator.repo.plan.naming import words_of
from generator.repo.plan.subsystems import is_context
from generator.repo.synthesize.answer_steps import AnswerWalk
from generator.repo.synthesize.aside import beside
from generator.repo.synthesize.asked import KIN, Process, builds, read_question
from generator.retrieval.scoring import idf
from generator.text.words import base_form, same_stem, stem

MAX_SYMBOLS = 8
NAME_WEIGHT, DOC_WEIGHT = 3.0, 1.0  # a symbol named after the question outranks one that mentions it
PROCESS_WEIGHT = 2.0  # a symbol named for a verb the question asks about ("sent", "updated and drawn")
OBJECT_WEIGHT = 1.5  # a word of what the process acts on ("the *index* built"), above a noun it merely shares
KIN_SHARE = 0.5  # what a word of the same family counts ("find" for `lookup`) against the word itself
# what a class's constructor does: a process begins there only when the question asks how a thing is made
CONSTRUCTORS = frozenset({"__init__", "__new__", "__post_init__", "constructor"})
START_KINDS = frozenset({"function", "method"})
ERROR_NAME = re.compile(r"(?:Error|Exception|Exc|Fault|Failure|Warning)$")
# folders of code that shows, documents or drives the project rather than being it (tests, docs, examples,
# scripts and benchmarks are context already: plan/subsystems.is_context)
NOT_CORE = re.compile(
    r"(?:^|/)(?:website|www|site|playground|demos?|cypress|storybook|stories|sandbox|vendors?)/",
    re.IGNORECASE,
)
# bases of a record or an enumeration: data, whose methods (`_asdict`, `__str__`) begin no process
RECORD_BASES = frozenset({"NamedTuple", "TypedDict", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})
Chosen = tuple[float, str, Symbol]  # (match score, path, symbol)


def answer_request(request: str, modules: Sequence[str], facts: Facts, linker: Linker) -> Answer:
    """The best-matching symbols of `modules` and the calls between them."""
    asked = read_question(request)
    terms, process = list(asked.terms), asked.process
    candidates = [
        (path, symbol)
        for path in modules
        # the tests that exercise an answer are not it, nor a Rust module's unit tests
        if not is_context(path) and path in facts.files and not facts.files[path].unit_tests
        for symbol in _code_symbols(facts.files[path].symbols)
    ]
    # a word written capitalized that is a method's name ("when a Get arrives", "how does a Put write …")
    # names that method as code would, a stopword ("get", "set") or not
    methods = {s.short_name for _, s in candidates if s.kind in START_KINDS} & asked.capitalized
    if methods:
        terms = list(dict.fromkeys([*(m.lower() for m in sorted(methods)), *terms]))
        asked = replace(asked, written=asked.written | methods)
    hits = [term_hits(symbol, terms) for _, symbol in candidates]  # each symbol's words are read once
    weights = term_weights(terms, hits)
    scored: list[Chosen] = []
    answered: dict[tuple[str, str], tuple[float, ...]] = {}  # each match's share of each question word
    acting: set[tuple[str, str]] = set()  # the question's subject doing its verb (`Route.Match`)
    verbed: set[tuple[str, str]] = set()  # named for doing the asked verb (`compile` for "compiled")
    subject: set[tuple[str, str]] = set()  # methods of what the question says does it (`Engine`'s)
    importance: dict[str, dict[str, float]] = {}
    for (path, symbol), found in zip(candidates, hits, strict=True):
        shares = in_folder(
            terms, stressed(terms, per_term(terms, found, weights), process, symbol), path, weights
        )
        score = sum(shares)
        if score > 0:
            answered[(path, symbol.name)] = shares
            if acts(process, symbol, terms):
                acting.add((path, symbol.name))
            if any(does(symbol, verb) for verb in process.verbs):
                verbed.add((path, symbol.name))
            if of_subject(process, symbol):
                subject.add((path, symbol.name))
            # every definition may answer (a class's 40th method too); the ranking only breaks ties
            if path not in importance:
                importance[path] = {e.symbol.name: e.score for e in key_symbols(facts, path, limit=50)}
            ranks = importance[path]
            weight = ranks.get(symbol.name, ranks.get(symbol.parent, 0.0))
            scored.append((score + 0.01 * weight, path, symbol))
    scored.sort(key=lambda item: (-item[0], item[1], item[2].start))
    steps = walked_steps(
        answered,
        facts,
        linker,
        asked.written,
        builds=builds(process),
        acting=acting,
        verbed=verbed,
        subject=subject,
        aside=_named(facts, asked.context),
        terms=terms,
        verbs=process.verbs,
        triggered=asked.triggered,
        arriving=asked.arriving,
    )
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
    hops = [FlowHop(step.caller, step.symbol.name, step.call, step.handed) for step in steps[1:]]
    return Answer(
        request, (*(step.symbol for step in steps), *others)[:MAX_SYMBOLS], tuple(hops), steps=steps
    )


def _code_symbols(symbols: Sequence[Symbol]) -> list[Symbol]:
    """The definitions an answer may cite: no declaration stub, no unit test of a Rust module's own."""
    tests = unit_test_symbols(symbols)
    return [symbol for symbol in symbols if not symbol.stub and symbol.name not in tests]


def walked_steps(
    answered: Mapping[tuple[str, str], Sequence[float]],
    facts: Facts,
    linker: Linker,
    written: Collection[str] = (),
    *,
    builds: bool = False,
    acting: Collection[tuple[str, str]] = (),
    verbed: Collection[tuple[str, str]] = (),
    subject: Collection[tuple[str, str]] = (),
    aside: Collection[tuple[str, str]] = (),
    terms: Sequence[str] = (),
    verbs: Sequence[str] = (),
    triggered: bool = False,
    arriving: bool = False,
) -> tuple[AnswerStep, ...]:
    """The answer in the code from where the asked process begins (answer_steps.py): the start, then the
    calls from it that lead to the other matches, in call order; () without a call graph or a start.
    `written`: the names the question writes as code (`code_names`); `builds`: the question asks how a
    thing is made, so a constructor may start the answer; `acting`: the matches that are the question's
    subject doing its verb (`acts`); `verbed`: those named for doing its verb (`does`); `subject`: the
    methods of its subject (`of_subject`); `aside`: the symbols
    the question names as context (`context_names`), neither a start nor a step; `terms`: its words (code
    under a diagnostic folder or file starts only when one of them names it); `triggered`: it names the
    event that sets the process off (`asked.triggered`), which the project's own code then runs — no
    exported function nor public entry begins it while other code may."""
    if facts.calls is None or not answered:
        return ()
    symbols = {node: symbol for node in answered if (symbol := _symbol_at(facts, node)) is not None}
    lines = {node: symbol.lines for node, symbol in symbols.items()}
    # what the question writes as code, its owner read case-blind (`job.save()` is `Job.save`)
    writes = symbols.keys() & _named(facts, written)
    startable = {
        node
        for node, symbol in symbols.items()
        if can_start(facts, node[0], symbol)
        and (builds or symbol.short_name not in CONSTRUCTORS)
        and node not in aside
        and not beside(node[0], symbol, terms, verbs)
        # a setter keeps a choice the process reads later (attohttpc's `follow_redirects`): the process
        # does not begin there unless the question names it
        and (node in writes or not facts.calls.runtime.sets(node))
    } or {node for node, symbol in symbols.items() if can_start(facts, node[0], symbol) and node not in aside}
    commands = set(facts.calls.commands)
    # a command-line handler starts the answer only when no library code does: it hands the work on
    library = {node for node in startable if node not in commands} or startable
    if triggered:  # the project runs the process when the event comes: its exported API, an operator's
        # bulk retry or a forced reconnect, is a user's way in (asynq's `RDB.ArchiveAllRetryTasks`)
        library = {node for node in library if not symbols[node].exported} or library
    shown = facts.mentioned | set(facts.calls.examples)  # what the README and the usage examples call
    # the library's entries: public, and what its README or usage examples call
    entries = {node for node in library if symbols[node].public and symbols[node].short_name in shown}
    public = {node for node in library if symbols[node].exported} | entries
    if triggered:  # …and a user's call does not begin it (nats' `ForceReconnect` over `doReconnect`)
        entries, public = set(), set()
    # a question naming a symbol (`res.send`, `parse_args`) asks where it leads: the answer starts there
    named = startable & writes
    # "how does a route match a request?": the process begins where the route matches, when one may start
    doing = {node for node in acting if node in library}

    def joinable(node: tuple[str, str]) -> bool:
        # a symbol no word of the question names may start as the one joining its matches (answer_steps.py)
        symbol = _symbol_at(facts, node)
        return (
            symbol is not None
            and node not in commands
            and node not in aside
            and can_start(facts, node[0], symbol)
            and (builds or symbol.short_name not in CONSTRUCTORS)
            and not beside(node[0], symbol, terms, verbs)
        )

    walk = AnswerWalk(
        facts.calls,
        answered,
        lines,
        named or doing or library,
        public,
        entries,
        verbed,
        set(aside),
        None if named or doing else joinable,
        plain_siblings({node: symbols[node] for node in startable}, terms),
        subject,
        facts.calls.runtime,
        arriving,
    )
    start = walk.start()
    if start is None:
        return ()
    found = walk.steps(start)  # none: the process begins there and calls no other match
    first = _symbol_at(facts, start)
    steps = [AnswerStep(explained(first, start[0], linker))] if first is not None else []
    for edge, depth in found:
        symbol = _symbol_at(facts, (edge.callee_path, edge.callee))
        if symbol is not None:
            call = linker.check(edge.caller_path, edge.line)
            cited = explained(symbol, edge.callee_path, linker)
            steps.append(AnswerStep(cited, edge.caller, call, depth, edge.handed, edge.inferred))
    return tuple(steps)


def plain_siblings(
    symbols: Mapping[tuple[str, str], Symbol], terms: Sequence[str]
) -> dict[tuple[str, str], tuple[str, str]]:
    """Each method named like a sibling of its class plus words the question does not ask, mapped to that
    sibling (`read_chunked` to `read`, `call_extra` to `__call__`, `#retryFromError` to `#retry`): a variant
    for a case the question does not name, beside the plain method that does what it asks."""
    asked = {stem(base_form(term)) for term in terms}
    by_parent: dict[tuple[str, str], list[tuple[tuple[str, str], list[str]]]] = {}
    for node, symbol in symbols.items():
        if symbol.parent:
            by_parent.setdefault((node[0], symbol.parent), []).append((node, words_of(symbol.short_name)))
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for siblings in by_parent.values():
        for node, words in siblings:
            plain = [  # the closest by its words, then the shortest name (`read` before `read1`)
                (len(other), -len(other_node[1]), other_node)
                for other_node, other in siblings
                if other
                and set(other) < set(words)
                and not any(stem(base_form(w)) in asked for w in set(words) - set(other))
            ]
            if plain:
                found[node] = max(plain)[2]
    return found


def _named(facts: Facts, names: Collection[str]) -> set[tuple[str, str]]:
    """The symbols `names` name, read case-blind as far as they go (`logger.add` is `Logger.add`)."""
    wanted = {name.strip("`").removesuffix("()").lower() for name in names}
    if not wanted:
        return set()
    return {
        (path, symbol.name)
        for path, fact in facts.files.items()
        for symbol in fact.symbols
        if any(symbol.name.lower() == n or symbol.name.lower().endswith(f".{n}") for n in wanted)
    }


def can_start(facts: Facts, path: str, symbol: Symbol) -> bool:
    """Can the asked process begin at this symbol: a function or method of the code proper, not a type, a
    property, an error type's or a record's method (its serializer, its message), nor code under a folder
    that shows or drives the project (a website, a playground, a browser-test harness) or another project's
    code copied in (vendor)?"""
    if symbol.kind not in START_KINDS or NOT_CORE.search(path):
        return False
    owner = _symbol_at(facts, (path, symbol.parent)) if symbol.parent else None
    if owner is not None and RECORD_BASES & {base.rsplit(".", 1)[-1] for base in owner.bases}:
        return False
    # a method named for the error it handles (got's `Request._beforeError`) is no error type's: its owner
    # says, read from the file (a Go receiver's type may be declared in another, its name says then)
    if owner is not None:
        return not is_error_type(owner)
    return not (symbol.parent and ERROR_NAME.search(symbol.parent.rsplit(".", 1)[-1]))


def is_error_type(symbol: Symbol) -> bool:
    """An exception or error type, by its name or a base's (`ValidationError`, `class Bad(HTTPException)`)."""
    return any(ERROR_NAME.search(name.rsplit(".", 1)[-1]) for name in (symbol.name, *symbol.bases))


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


def stressed(
    terms: Sequence[str], shares: Sequence[float], process: Process, symbol: Symbol
) -> tuple[float, ...]:
    """A symbol's shares of the question's words with the asked process stressed: PROCESS_WEIGHT for each of
    its verbs the symbol is named for doing (`does`), OBJECT_WEIGHT for each word of what they act on."""
    return tuple(
        share * PROCESS_WEIGHT
        if term in process.verbs and does(symbol, term)
        else share * OBJECT_WEIGHT
        if term in process.objects
        else share
        for term, share in zip(terms, shares, strict=True)
    )


def acts(process: Process, symbol: Symbol, terms: Sequence[str]) -> bool:
    """Is the symbol the question's subject doing its verb: a method of a class named like the subject's
    last word, itself named for the verb ("how does a route match a request?" → `Route.Match`)? Of a
    question asking two ("match a request to its routes *and run* their middleware"), for each of them:
    the one doing the first alone is a step of the process, which begins where both are done. A method
    whose name says more than the question asks (`Worker.run_maintenance_tasks` for "how does a worker
    take a job off the queue and run it?") does the verb for another purpose: one of the process's
    neighbours, not the subject doing what was asked."""
    if not of_subject(process, symbol):
        return False
    alone = replace(symbol, name=symbol.short_name, parent="")
    # the verb's own word: a word of its family is too weak for a rule that decides the start alone
    # (gin's `RouterGroup.GET` is an HTTP method, not the router "finding" anything)
    return (
        bool(process.verbs)
        and all(does(alone, verb, kin=False) for verb in process.verbs)
        and not unasked_words(symbol.short_name, terms)
    )


def unasked_words(name: str, terms: Sequence[str]) -> list[str]:
    """The words of a name that share a stem with no word of the question (its verbs read as the code
    spells them: "sent" is `send`)."""
    asked = {root for term in terms for root in word_forms(term)[0] | {stem(term)}}
    return [word for word in words_of(name) if not any(same_stem(stem(word), root) for root in asked)]


def of_subject(process: Process, symbol: Symbol) -> bool:
    """Is the symbol a method of the question's subject: of a class named like the subject's last word
    ("how does *the engine* find…" → `Engine.handleHTTPRequest`)?"""
    if not process.subject or not symbol.parent:
        return False
    head = stem(process.subject[-1])
    return any(same_stem(head, stem(word)) for word in words_of(symbol.parent.rsplit(".", 1)[-1]))


def does(symbol: Symbol, verb: str, *, kin: bool = True) -> bool:
    """Is the symbol named for doing what the verb says: a word of its name with the verb's own stem
    (`parse_args` for "parsed", `send` for "sent") or, with `kin`, a word of its family (`lookup` for
    "found"), not the agent doing it (`make_parser`, `Compiler`)?"""
    roots, family = word_forms(verb)
    return any(
        (stem(word) in roots or kin and stem(word) in family)
        and not (word.endswith(("er", "or")) and len(word) >= len(stem(word)) + 2)
        for word in words_of(symbol.name)
    )


def in_folder(
    terms: Sequence[str], shares: tuple[float, ...], path: str, weights: Mapping[str, float]
) -> tuple[float, ...]:
    """A question word the symbol does not name but its folder does counts as a mention in its docstring
    ("an incoming *HTTP* request": `protocols/http/h11_impl.py`'s `handle_events`, not the websockets
    protocol's): a folder names the concept its code belongs to."""
    folders = _folder_stems(path)
    return tuple(
        share or (DOC_WEIGHT * weights.get(term, 1.0) if stem(term) in folders else 0.0)
        for term, share in zip(terms, shares, strict=True)
    )


@lru_cache(maxsize=4096)
def _folder_stems(path: str) -> frozenset[str]:
    """The stems of the words of a file's folders (every symbol of a file asks)."""
    return frozenset(stem(word) for folder in path.split("/")[:-1] for word in words_of(folder))


Hits = list[tuple[float, float]]
"""Per question word: how much the symbol's name, and how much its docstring, share it (1 for the word's own
stem, KIN_SHARE for a word of its family, 0 for neither)."""


def term_hits(symbol: Symbol, terms: Sequence[str]) -> Hits:
    """Which question words the symbol's name and docstring share a stem with ("redirects" finds
    `resolve_redirects`, "parsed" finds `OptionParser`, "response" finds `respond`), or a word of its
    family with ("found" finds `lookup`, at KIN_SHARE)."""
    name_words, doc_words = set(words_of(symbol.name)), set(words_of(symbol.doc))  # lower case already
    found = []
    for term in terms:
        roots, kin = word_forms(term)
        # the word as written finds a docstring too ("found"), never a name ("built" is no `builtin`)
        found.append((_share(roots, kin, name_words), _share(roots | {stem(term)}, kin, doc_words)))
    return found


@lru_cache(maxsize=4096)
def word_forms(term: str) -> tuple[frozenset[str], frozenset[str]]:
    """The stems a question word is spelled with in code, and those of its family: an irregular participle
    read as its verb ("sent" → `send`; "built" finds no `builtin`), a noun in -nse as its verb in -nd
    ("response" → `respond`, "expansion" → `expand`), and the verbs of its family in `KIN`."""
    verb = base_form(term)
    roots = {stem(verb)} if verb != term else {stem(term)}
    for root in list(roots):
        if root.endswith("ns") and len(root) >= 6:
            roots.add(root[:-1] + "d")
        elif root.endswith("nd") and len(root) >= 6:
            roots.add(root[:-1] + "s")
    kin = {stem(word) for group in KIN if any(stem(w) in roots for w in group) for word in group}
    return frozenset(roots), frozenset(kin - roots)


def _share(roots: frozenset[str], kin: frozenset[str], words: set[str]) -> float:
    stems = [stem(word) for word in words]
    if any(same_stem(root, other) for root in roots for other in stems):
        return 1.0
    return KIN_SHARE if any(word == other for word in kin for other in stems) else 0.0


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
    # a word is told apart by the symbols naming it, not by those naming a word of its family
    return {
        term: idf(sum(1 for found in hits if max(found[i]) >= 1.0), len(hits)) for i, term in enumerate(terms)
    }
