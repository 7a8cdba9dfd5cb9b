"""The facts that answer a question asked of a repository (`--request`): the symbols whose names (first) or docstrings match the question's
domain words, with their docstrings and definitions, and the call path that joins them. Of those, the ones
that call the others come first: the function that handles what was asked before the helpers it calls.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite, flow_hops, lead, sentences
from generator.repo.facts.ranking import key_symbols
from generator.repo.model import Answer, AnswerStep, CallEdge, CitedSymbol, Facts, FlowHop, Symbol
from generator.repo.plan.focus import request_terms
from generator.repo.plan.naming import words_of
from generator.repo.plan.subsystems import is_context
from generator.repo.synthesize.answer_steps import AnswerWalk
from generator.retrieval.scoring import idf
from generator.text.words import base_form, same_stem, stem

MAX_SYMBOLS = 8
NAME_WEIGHT, DOC_WEIGHT = 3.0, 1.0  # a symbol named after the question outranks one that mentions it
PROCESS_WEIGHT = 2.0  # a symbol named for a verb the question asks about ("sent", "updated and drawn")
OBJECT_WEIGHT = 1.5  # a word of what the process acts on ("the *index* built"), above a noun it merely shares
KIN_SHARE = 0.5  # what a word of the same family counts ("find" for `lookup`) against the word itself
_PASSIVE = re.compile(r"^\W*how\s+(?:is|are|was|were|gets?|got)\b", re.IGNORECASE)
_ACTIVE = re.compile(r"^\W*how\s+(?:does|do|did|can|could|should|would|will)\b", re.IGNORECASE)
_DETERMINERS = frozenset(
    "a an the this that these those each every its their his her our my your some any".split()
)
# where an active question's object ends and its complement begins ("find the handler *for* a path")
_PREPOSITIONS = frozenset(
    "from to over into in on onto for with by before after through as of at via when while across within "
    "without against between under per".split()
)
# light verbs say little of a process ("turn X into Y", "make", "get"): the words after them say what it is
_LIGHT_VERBS = frozenset(
    "turn turned make made get got do done go gone take taken have had become came".split()
)
_PARTICLES = frozenset("out up down off back away together apart".split())
_RELATIVE = frozenset({"that", "which", "who", "whose"})
_GET = frozenset({"get", "gets", "got"})  # "how does a function *get called*": a passive
# a verb and "up" the code spells as one word: "looked up" is a `lookup`, "set up" a `setup`
_PHRASAL = re.compile(r"\b([A-Za-z]{3,})\s+up\b", re.IGNORECASE)
# what a class's constructor does: a process begins there only when the question asks how a thing is made
CONSTRUCTORS = frozenset({"__init__", "__new__", "__post_init__", "constructor"})
_PARTICIPLE = re.compile(r"^[a-z]{3,}ed$|^(?:run|set|put|read|cut|hit|let|shut|split|spread)$")
# verbs a codebase names one act by: a question's "found" is a `lookup` or a `get`, "built" a `make`
_KIN = tuple(
    frozenset(group.split())
    for group in (
        "find lookup search get resolve",
        "build make create construct",
        "run execute invoke",
    )
)
_CODE_NAME = re.compile(
    r"`?\b([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[a-z][a-z0-9]*_\w+|_\w+|[a-z]+[A-Z]\w*)\b`?"
)
# a participle, a preposition and a name ("added with `logger.add`", "registered by app.use")
_CONTEXT_CLAUSE = re.compile(
    r"\b([A-Za-z]{3,})\s+(?:with|by|via|through|using|from|to|into|in|on)\s+(?:the\s+|an?\s+)?"
    r"(`?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?`?)"
)
START_KINDS = frozenset({"function", "method"})
# code that inspects the project rather than running it, by its folder's or file's words (stemmed)
_DIAGNOSTIC = frozenset(
    stem(word) for word in "debug debugger devtools trace tracer tracing profiler profiling inspector".split()
)
# a docstring saying the function registers something: it adds to what a lookup later searches
_REGISTERS = re.compile(
    r"^\W*(?:\w+\s+)?(registers?|adds?|mounts?)\s+(?:an?|the|new|one|each|every|\w+s)\b", re.IGNORECASE
)
_LOGS = frozenset(stem(word) for word in "log logger logging".split())
_ASYNC = frozenset("async asyncio aio asynchronous asynchronously".split())
_COMPATIBILITY = re.compile(r"\bbackwards?[- ]compatib|\blegacy\b|\bold[- ]style\b", re.IGNORECASE)
_MAKES = frozenset("create make new build raise throw report format".split())
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
    terms, process = asked_terms(request)
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
    answered: dict[tuple[str, str], tuple[float, ...]] = {}  # each match's share of each question word
    acting: set[tuple[str, str]] = set()  # the question's subject doing its verb (`Route.Match`)
    verbed: set[tuple[str, str]] = set()  # named for doing the asked verb (`compile` for "compiled")
    importance: dict[str, dict[str, float]] = {}
    for (path, symbol), found in zip(candidates, hits, strict=True):
        shares = in_folder(
            terms, stressed(terms, per_term(terms, found, weights), process, symbol), path, weights
        )
        score = sum(shares)
        if score > 0:
            answered[(path, symbol.name)] = shares
            if acts(process, symbol):
                acting.add((path, symbol.name))
            if any(does(symbol, verb) for verb in process.verbs):
                verbed.add((path, symbol.name))
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
        code_names(request),
        builds=builds(process),
        acting=acting,
        verbed=verbed,
        aside=_named(facts, context_names(request)),
        terms=terms,
        verbs=process.verbs,
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


def walked_steps(
    answered: Mapping[tuple[str, str], Sequence[float]],
    facts: Facts,
    linker: Linker,
    written: Collection[str] = (),
    *,
    builds: bool = False,
    acting: Collection[tuple[str, str]] = (),
    verbed: Collection[tuple[str, str]] = (),
    aside: Collection[tuple[str, str]] = (),
    terms: Sequence[str] = (),
    verbs: Sequence[str] = (),
) -> tuple[AnswerStep, ...]:
    """The answer in the code from where the asked process begins (answer_steps.py): the start, then the
    calls from it that lead to the other matches, in call order; () without a call graph or a start.
    `written`: the names the question writes as code (`code_names`); `builds`: the question asks how a
    thing is made, so a constructor may start the answer; `acting`: the matches that are the question's
    subject doing its verb (`acts`); `verbed`: those named for doing its verb (`does`); `aside`: the symbols
    the question names as context (`context_names`), neither a start nor a step; `terms`: its words (code
    under a diagnostic folder or file starts only when one of them names it)."""
    if facts.calls is None or not answered:
        return ()
    symbols = {node: symbol for node in answered if (symbol := _symbol_at(facts, node)) is not None}
    lines = {node: symbol.lines for node, symbol in symbols.items()}
    startable = {
        node
        for node, symbol in symbols.items()
        if can_start(facts, node[0], symbol)
        and (builds or symbol.short_name not in CONSTRUCTORS)
        and node not in aside
        and not (
            diagnostic(node[0], terms)
            or makes_error(symbol)
            or registers(symbol, verbs)
            or logs(symbol, terms)
            or asynchronous(node[0], symbol, terms)
            or kept_for_compatibility(symbol)
        )
    } or {node for node, symbol in symbols.items() if can_start(facts, node[0], symbol) and node not in aside}
    commands = set(facts.calls.commands)
    # a command-line handler starts the answer only when no library code does: it hands the work on
    library = {node for node in startable if node not in commands} or startable
    shown = facts.mentioned | set(facts.calls.examples)  # what the README and the usage examples call
    # the library's entries: public, and what its README or usage examples call
    entries = {node for node in library if symbols[node].public and symbols[node].short_name in shown}
    public = {node for node in library if symbols[node].exported} | entries
    # a question naming a symbol (`res.send`, `parse_args`) asks where it leads: the answer starts there
    named = {node for node in startable if any(node[1] == n or node[1].endswith(f".{n}") for n in written)}
    # "how does a route match a request?": the process begins where the route matches, when one may start
    doing = {node for node in acting if node in library}
    walk = AnswerWalk(
        facts.calls, answered, lines, named or doing or library, public, entries, verbed, set(aside)
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


def asked_terms(request: str) -> tuple[list[str], Process]:
    """The question's words and its process (`asked_process`), a verb and "up" read as the one word the
    code spells them as ("looked up" → `lookup`, which finds `find` and `get` as its family). A symbol the
    question names only in a clause describing what the process acts on ("the sinks *added with
    `logger.add`*") is context, not the process: its words and the clause's participle are left out."""
    terms = request_terms(request)
    process = asked_process(request, terms)
    kept = set(request_terms(_CONTEXT_CLAUSE.sub(lambda m: _context(m, process), request)))
    # a preposition or conjunction ("again *after* it fails") names nothing the code does
    terms = [term for term in terms if term in kept and term not in _PREPOSITIONS]
    joined = {verb.lower(): stem(verb.lower()) + "up" for verb in _PHRASAL.findall(request)}
    if not joined:
        return terms, process
    terms = list(dict.fromkeys(joined.get(term, term) for term in terms))
    return terms, replace(process, verbs=tuple(joined.get(v, v) for v in process.verbs))


def builds(process: Process) -> bool:
    """Does the question ask how something is made ("how is a client created?")?"""
    made = {stem(word) for word in (*_KIN[1], "initialize", "instantiate")}
    return any(stem(verb) in made or stem(base_form(verb)) in made for verb in process.verbs)


def code_names(request: str) -> set[str]:
    """The identifiers a question writes as code: dotted (`res.send`), snake_case (`parse_args`) or
    camelCase (`parseOptions`), except one in a clause describing what the process acts on (`asked_terms`)."""
    process = asked_process(request, request_terms(request))
    return set(_CODE_NAME.findall(_CONTEXT_CLAUSE.sub(lambda m: _context(m, process), request)))


def context_names(request: str) -> set[str]:
    """The names a question writes as code in a clause describing what its process acts on ("the sinks added
    with `logger.add`"): context, not where the process begins."""
    return set(_CODE_NAME.findall(request)) - code_names(request)


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


def diagnostic(path: str, terms: Sequence[str]) -> bool:
    """Is the file code that inspects the project rather than running it (a tracer, devtools, a debugger, a
    profiler) that no word of the question names? A helper there shares the question's words (zustand's
    devtools `findCallerName` for "calling set") but no process the question asks about begins there."""
    words = {stem(word) for part in path.split("/") for word in words_of(part.rsplit(".", 1)[0])}
    found = words & _DIAGNOSTIC
    return bool(found) and not any(stem(term) in found for term in terms)


def registers(symbol: Symbol, verbs: Sequence[str]) -> bool:
    """Does the function's docstring open by saying it registers or adds something (echo's `GET`: "GET
    registers a new GET route for a path with matching handler", pluggy's `register`: "Register a plugin"),
    when the question's process is no registering (its verbs): a lookup, a dispatch or a run begins where the
    registered thing is used, not where it is added ("run the *registered* implementations" runs them)."""
    said = _REGISTERS.match(symbol.doc or "")
    if said is None:
        return False
    verb = stem(said.group(1))
    return not any(same_stem(verb, stem(base_form(v))) for v in verbs)


def logs(symbol: Symbol, terms: Sequence[str]) -> bool:
    """Is the function named for logging (tenacity's `after_log`, `before_sleep_log`) in a question that asks
    nothing of logging: it reports on a process, which begins elsewhere."""
    said = {stem(word) for word in words_of(symbol.short_name)} & _LOGS
    return bool(said) and not any(stem(base_form(term)) in said for term in terms)


def asynchronous(path: str, symbol: Symbol, terms: Sequence[str]) -> bool:
    """Is the function the asynchronous twin of a process (joi's `validateAsync`, tenacity's
    `asyncio/` retrying), by its name's or its file's words, in a question that does not ask for it: the
    process asked about is the plain one."""
    words = {*words_of(symbol.short_name), *(w for part in path.split("/") for w in words_of(part))}
    return bool(words & _ASYNC) and not any(term in _ASYNC for term in terms)


def kept_for_compatibility(symbol: Symbol) -> bool:
    """Is the function a shim kept for older callers, by its name (`run_old_style_hookwrapper`,
    `legacy_parse`) or its docstring's lead ("backward compatibility wrapper to…"): the process it stands
    in for begins in the code it keeps compatible with."""
    words = words_of(symbol.short_name)
    named = (
        "legacy" in words
        or "compat" in words
        or any(a == "old" and b == "style" for a, b in zip(words, words[1:], strict=False))
    )
    return named or bool(_COMPATIBILITY.search(lead(symbol.doc or "")))


def makes_error(symbol: Symbol) -> bool:
    """Is the function named for making or reporting an error (joi's `$_createError`, `raise_error`): where a
    process reports failing, not where it begins."""
    words = words_of(symbol.short_name)
    return any(
        word in _MAKES and words[i + 1] in ("error", "errors", "exception")
        for i, word in enumerate(words[:-1])
    )


def _context(clause: re.Match[str], process: Process) -> str:
    """A participle clause naming a symbol, blanked when it describes what the process acts on: its
    participle is no verb of the process and what follows it is a name written as code."""
    participle, name = clause.group(1), clause.group(2)
    if participle.lower() in process.verbs or not _is_participle(participle.lower()):
        return clause.group(0)
    return " " if _CODE_NAME.fullmatch(name.strip("`")) else clause.group(0)


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


@dataclass(frozen=True)
class Process:
    """What a "how" question asks about: the verbs of its process and the words of what they act on, and
    in an active question what does it (its subject: "how does *the router* find…")."""

    verbs: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()
    subject: tuple[str, ...] = ()


def asked_process(request: str, terms: Sequence[str]) -> Process:
    """The process of a "how" question, when its shape tells it. A passive one ("how is a *prepared
    request* *sent* over the connection?", "how is a chart *updated* and *drawn*?"): the words between
    its auxiliary and its first participle are the object, that participle and those joined to it by
    "and"/"or" the verbs. An active one ("how does the router *find* the *handler* for a path?"): the verb
    follows the subject (the word before a determiner, else the subject's second word), the object runs
    from it to a preposition. Light verbs ("turned into") name no process; words not among `terms` are
    left out."""
    words = [w.lower() for w in re.findall(r"[A-Za-z][\w'-]*", request)]
    passive, active = _PASSIVE.match(request), _ACTIVE.match(request)
    if not passive and not active:
        return Process()
    rest = [w for w in words[2:] if w not in _DETERMINERS]
    if passive:
        # the participle ending the subject, not one describing it ("a *prepared* request *sent* over…")
        first = next((i for i, w in enumerate(rest) if _is_participle(w) and _ends(rest, i)), len(rest))
        objects, verbs = rest[:first], rest[first : first + 1]
        i = first + 1
        while i + 1 < len(rest) and rest[i] in ("and", "or") and _is_participle(rest[i + 1]):  # "and drawn"
            verbs.append(rest[i + 1])
            i += 2
        if verbs and verbs[-1] in _LIGHT_VERBS and i < len(rest) and rest[i] == "into":
            # "turned into a click command": what it becomes names the process, the light verb does not
            objects += rest[
                i + 1 : i
                + 1
                + next((j for j, w in enumerate(rest[i + 1 :]) if w in _PREPOSITIONS), len(rest))
            ]
    else:
        verbs, objects, subject = _active_process(words[2:])
    wanted = set(terms)
    return Process(
        tuple(v for v in verbs if v in wanted and v not in _LIGHT_VERBS),
        tuple(o for o in objects if o in wanted),
        tuple(w for w in subject if w in wanted) if active else (),
    )


def _active_process(after: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """An active question's verbs, objects and subject, from its words after "how does". The verb follows
    the subject (the word before a determiner, else the subject's second word) and its object runs to a
    preposition; "and" with a word that takes an object of its own ("run the hooks *and write* the entry",
    "validate a value *and report* errors") joins a second verb; "get" with a participle ("does a function
    *get called*") is a passive: the subject is what the process acts on."""
    got = next(
        (i for i in range(1, len(after) - 1) if after[i] in _GET and _is_participle(after[i + 1])), None
    )
    if got is not None:
        objects = [w for w in after[:got] if w not in _DETERMINERS]
        return [after[got + 1], *_joined_verbs(after, got + 2)], objects, []
    at = next(
        (
            i
            for i in range(1, len(after) - 1)
            if after[i + 1] in _DETERMINERS and after[i] not in _DETERMINERS
        ),
        None,
    )
    body = [w for w in after if w not in _DETERMINERS]
    verb = after[at] if at is not None else (body[1] if len(body) > 1 else "")
    if verb not in after:
        return [verb], [], []
    verbs, objects = [verb], []
    i = after.index(verb) + 1
    while i < len(after) and after[i] not in _PREPOSITIONS:
        word = after[i]
        if objects and (word in _RELATIVE or _is_participle(word) and _ends(after, i)):
            break  # a clause describing the object ("the sinks *added with* …", "components *that* use it")
        if word in ("and", "or") and _takes_object(after, i + 1):
            verbs.append(after[i + 1])
            i += 1
        elif word not in _DETERMINERS and word not in ("and", "or"):
            objects.append(word)
        i += 1
    if verb in _LIGHT_VERBS and "into" in after[i:]:  # "turn the changes into a new state": what it becomes
        into = after.index("into", i) + 1
        end = next((j for j in range(into, len(after)) if after[j] in _PREPOSITIONS), len(after))
        objects += [w for w in after[into:end] if w not in _DETERMINERS]
    return verbs, objects, body[: body.index(verb)]


def _joined_verbs(words: Sequence[str], at: int) -> list[str]:
    """The participles joined by "and"/"or" to a passive's first one from `at` on ("checked against the level
    *and written* by the core")."""
    return [
        words[i + 1]
        for i in range(at, len(words) - 1)
        if words[i] in ("and", "or") and _is_participle(words[i + 1])
    ]


def _takes_object(words: Sequence[str], i: int) -> bool:
    """Is the word at `i`, after "and", a verb with an object of its own: followed by a determiner or a word
    that is neither a preposition nor a conjunction ("and *write the* entry", "and *report errors*"), not a
    noun closing a list ("the handler *and middleware* for a path", "keys *and values*")?"""
    if i + 1 >= len(words) or words[i] in _DETERMINERS or words[i] in _PREPOSITIONS:
        return False
    return words[i + 1] not in _PREPOSITIONS and words[i + 1] not in ("and", "or")


def _is_participle(word: str) -> bool:
    return bool(_PARTICIPLE.match(word)) or base_form(word) != word


def _ends(words: Sequence[str], i: int) -> bool:
    """Does the participle at `i` end a clause: last, or before a preposition, a conjunction or a particle?"""
    return i + 1 == len(words) or words[i + 1] in _PREPOSITIONS | _PARTICLES | {"and", "or"}


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


def acts(process: Process, symbol: Symbol) -> bool:
    """Is the symbol the question's subject doing its verb: a method of a class named like the subject's
    last word, itself named for the verb ("how does a route match a request?" → `Route.Match`)?"""
    if not process.subject or not symbol.parent:
        return False
    head = stem(process.subject[-1])
    if not any(same_stem(head, stem(word)) for word in words_of(symbol.parent.rsplit(".", 1)[-1])):
        return False
    alone = replace(symbol, name=symbol.short_name, parent="")
    # the verb's own word: a word of its family is too weak for a rule that decides the start alone
    # (gin's `RouterGroup.GET` is an HTTP method, not the router "finding" anything)
    return any(does(alone, verb, kin=False) for verb in process.verbs)


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
    ("response" → `respond`, "expansion" → `expand`), and the verbs of its family in `_KIN`."""
    verb = base_form(term)
    roots = {stem(verb)} if verb != term else {stem(term)}
    for root in list(roots):
        if root.endswith("ns") and len(root) >= 6:
            roots.add(root[:-1] + "d")
        elif root.endswith("nd") and len(root) >= 6:
            roots.add(root[:-1] + "s")
    kin = {stem(word) for group in _KIN if any(stem(w) in roots for w in group) for word in group}
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
