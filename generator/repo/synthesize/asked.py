"""What a question asked of a repository asks (`--request`): its words, and the process it asks about — the
verbs, what they act on and what does it — read from the question's shape; a symbol it names as code, and one
it names only as context ("the sinks added with `logger.add`").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from generator.repo.plan.focus import request_terms
from generator.text.words import base_form, stem

_PASSIVE = re.compile(r"^\W*how\s+(?:is|are|was|were|gets?|got)\b", re.IGNORECASE)
_ACTIVE = re.compile(r"^\W*how\s+(?:does|do|did|can|could|should|would|will)\b", re.IGNORECASE)
# where the question's main clause begins: "how" and its auxiliary, after any clause leading up to it
# ("When a task raises an exception, *how is it retried*…?")
_HOW = re.compile(
    r"\bhow\s+(?:is|are|was|were|gets?|got|does|do|did|can|could|should|would|will)\b", re.IGNORECASE
)
# a clause naming the event that sets the process off ("*when* the connection fails", "*after* it is lost";
# not "if any", "if possible")
_EVENT = re.compile(r"\b(?:when|whenever|once|after|if)\b(?!\s+(?:any|possible)\b)", re.IGNORECASE)
# data coming in from the other end of a connection ("a packet received from the broker", "an incoming
# frame", "a message the server delivers")
_ARRIVING = re.compile(
    r"\b(?:receiv(?:e|es|ed|ing)|incoming|inbound|arriv(?:e|es|ed|ing)|deliver(?:s|ed|y|ies)?)\b",
    re.IGNORECASE,
)
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
# adverbs that may close a passive's verb ("how is it called *again*?")
_CLOSING_ADVERBS = frozenset("again later instead anew".split())
_ENDS_PARTICIPLE = _PREPOSITIONS | _PARTICLES | _CLOSING_ADVERBS | {"and", "or"}
_RELATIVE = frozenset({"that", "which", "who", "whose"})
# words opening another clause: a verb after them is no verb of the process asked about
_CLAUSE_OPENERS = _RELATIVE | frozenset(
    "when whenever while if once where why how what because so unless until since".split()
)
_OBJECT_PRONOUNS = frozenset({"it", "them"})
# the prepositions naming what a thing was registered or added with ("registered *with* `use`")
_INSTRUMENTAL = frozenset({"with", "by", "via", "through", "using"})
_GET = frozenset({"get", "gets", "got"})  # "how does a function *get called*": a passive
# a verb and "up" the code spells as one word: "looked up" is a `lookup`, "set up" a `setup`
_PHRASAL = re.compile(r"\b([A-Za-z]{3,})\s+up\b(?!\s+to\b)", re.IGNORECASE)  # "up to" is no particle
_PARTICIPLE = re.compile(r"^[a-z]{3,}ed$|^(?:run|set|put|read|cut|hit|let|shut|split|spread)$")
# verbs a codebase names one act by: a question's "found" is a `lookup` or a `get`, "built" a `make`; and
# the words it names one event by: a request that "fails" is handled `…FromError`, an "exception" raised by a
# job is its `failure`
KIN = tuple(
    frozenset(group.split())
    for group in (
        "find lookup search get resolve",
        "build make create construct",
        "run execute invoke",
        "fail failure error exception",
    )
)
_CODE_NAME = re.compile(
    r"`?\b([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[a-z][a-z0-9]*_\w+|_\w+|[a-z]+[A-Z]\w*)\b`?"
)
# a name written as a call (`send()`, `subscribe()`): code however plain the word
_CALLED = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\(\)")
# a word written capitalized inside the sentence, one capital only ("when a *Get* arrives", "how does a *Put*
# write"): a method named so when the repository has one, though "get", "set" and "new" are stopwords
_CAPITALIZED = re.compile(r"(?<=[a-z,;] )([A-Z][a-z]{2,})\b")
# a participle, a preposition and a name ("added with `logger.add`", "registered by app.use")
_CONTEXT_CLAUSE = re.compile(
    r"\b([A-Za-z]{3,})\s+(?:with|by|via|through|using|from|to|into|in|on)\s+(?:the\s+|an?\s+)?"
    r"(`?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?`?)"
)


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
    made = {stem(word) for word in (*KIN[1], "initialize", "instantiate")}
    return any(stem(verb) in made or stem(base_form(verb)) in made for verb in process.verbs)


def code_names(request: str) -> set[str]:
    """The identifiers a question writes as code: dotted (`res.send`), snake_case (`parse_args`),
    camelCase (`parseOptions`) or written as a call (`send()`), except one in a clause describing what the process acts on (`asked_terms`)."""
    process = asked_process(request, request_terms(request))
    named = set(_CODE_NAME.findall(_CONTEXT_CLAUSE.sub(lambda m: _context(m, process), request)))
    # a call written in any such clause ("the callback I passed to subscribe()", "delivered to recv()")
    # stays a word of the question: the process ends there, it does not begin there
    return named | set(_CALLED.findall(_CONTEXT_CLAUSE.sub(" ", request)))


def context_names(request: str) -> set[str]:
    """The names a question writes as code in a clause describing what its process acts on ("the sinks added
    with `logger.add`"): context, not where the process begins."""
    return set(_CODE_NAME.findall(request)) - code_names(request)


def _context(clause: re.Match[str], process: Process) -> str:
    """A participle clause naming a symbol, blanked when it describes what the process acts on: its
    participle is no verb of the process and what follows it is a name written as code."""
    participle, name = clause.group(1), clause.group(2)
    if participle.lower() in process.verbs or not _is_participle(participle.lower()):
        return clause.group(0)
    return " " if _CODE_NAME.fullmatch(name.strip("`")) else clause.group(0)


def _aside(clause: re.Match[str], process: Process) -> str:
    """A participle clause naming a symbol however it is written ("the channel *returned by Consume*"),
    blanked when its participle is no verb of the process: what it names is context, not a start."""
    participle = clause.group(1)
    if participle[0].isupper():  # a name itself ("how does *Set on* an LRU cache evict …")
        return clause.group(0)
    return clause.group(0) if participle in process.verbs or not _is_participle(participle) else " "


@dataclass(frozen=True)
class Process:
    """What a "how" question asks about: the verbs of its process and the words of what they act on, and
    in an active question what does it (its subject: "how does *the router* find…")."""

    verbs: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()
    subject: tuple[str, ...] = ()


@dataclass(frozen=True)
class Asked:
    """A question asked of a repository, read once (`read_question`): its words, the process it asks about,
    the names it writes as code for where that process begins (`code_names`), and those it names only as
    context (`context_names`); whether it names the event that sets the process off (`triggered`), and
    whether what it asks about comes in from the other end of a connection (`arriving`); the words it writes
    capitalized inside the sentence, which may name a method (`capitalized`: "when a Get arrives")."""

    terms: tuple[str, ...]
    process: Process
    written: frozenset[str] = frozenset()
    context: frozenset[str] = frozenset()
    triggered: bool = False
    arriving: bool = False
    capitalized: frozenset[str] = frozenset()  # words written capitalized inside it (`_CAPITALIZED`)


def read_question(request: str) -> Asked:
    """The question's words, process and names (`Asked`)."""
    terms, process = asked_terms(request)
    return Asked(
        tuple(terms),
        process,
        frozenset(code_names(request)),
        frozenset(context_names(request)),
        triggered(request),
        bool(_ARRIVING.search(request)),
        frozenset(_CAPITALIZED.findall(_CONTEXT_CLAUSE.sub(lambda m: _aside(m, process), request))),
    )


def triggered(request: str) -> bool:
    """Does the question name the event that sets the process off — a clause leading up to "how" ("When a
    handler returns an error, how is the task retried?") or one after its verb ("how does the client
    reconnect *after the connection is lost*?", "how is a subprocess killed *when its timeout expires*?")?
    Such a process is run by the project itself when the event comes, not begun by a user's call."""
    return bool(_EVENT.search(request))


def asked_process(request: str, terms: Sequence[str]) -> Process:
    """The process of a "how" question, when its shape tells it. A passive one ("how is a *prepared
    request* *sent* over the connection?", "how is a chart *updated* and *drawn*?"): the words between
    its auxiliary and its first participle are the object, that participle and those joined to it by
    "and"/"or" the verbs. An active one ("how does the router *find* the *handler* for a path?"): the verb
    follows the subject (the word before a determiner, else the subject's second word), the object runs
    from it to a preposition. Light verbs ("turned into") name no process; words not among `terms` are
    left out."""
    request = main_clause(request)
    words = [w.lower() for w in re.findall(r"[A-Za-z][\w'-]*", request)]
    passive, active = _PASSIVE.match(request), _ACTIVE.match(request)
    if not passive and not active:
        return Process()
    rest = [w for w in words[2:] if w not in _DETERMINERS]
    if passive:
        # the participle ending the subject, not one describing it ("a *prepared* request *sent* over…")
        first = next((i for i, w in enumerate(rest) if _is_participle(w) and _ends(rest, i)), len(rest))
        objects, first = rest[:first], _past_description(rest, first)
        verbs = rest[first : first + 1]
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


def main_clause(request: str) -> str:
    """The question from where its main clause begins: a clause leading up to "how" ("When a request fails,
    how is it retried?", "If a function raises, how is it called again?") says when the process runs, not
    what it is; its words stay the question's words."""
    found = _HOW.search(request)
    return request[found.start() :] if found is not None and found.start() > 0 else request


def _past_description(rest: Sequence[str], first: int) -> int:
    """Where a passive question's verb is when its first participle describes the subject: one with an
    instrumental phrase of a word or two, and a participle after it ("the plugins *registered with use*
    loaded", "the sinks *added with add* written"): the later participle is the process, and the words
    describing the subject are neither its verb nor its object."""
    if first + 3 >= len(rest) or rest[first + 1] not in _INSTRUMENTAL:
        return first
    for later in range(first + 3, min(first + 5, len(rest))):
        if rest[later - 1] in _PREPOSITIONS or rest[later - 1] in ("and", "or"):
            return first
        word = rest[later]
        if _PARTICIPLE.match(word) or (_is_participle(word) and not word.endswith("s")):
            return later
    return first


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
    verbs += _verbs_after_complement(after, i)
    return verbs, objects, body[: body.index(verb)]


def _verbs_after_complement(after: Sequence[str], at: int) -> list[str]:
    """The verbs joined by "and" after the first verb's complement ("match a request *to a route and call*
    its handler", "find the handler for a path *and call it*"): a word after "and" with an object of its own
    (a determiner or "it" follows it), up to a word opening another clause ("when", "which", "how")."""
    found = []
    for i in range(at, len(after) - 2):
        if after[i] in _CLAUSE_OPENERS:
            break
        word = after[i + 1]
        if (
            after[i] == "and"
            and word not in _DETERMINERS | _PREPOSITIONS | _CLAUSE_OPENERS | _OBJECT_PRONOUNS
            and after[i + 2] in _DETERMINERS | _OBJECT_PRONOUNS
        ):
            found.append(word)
    return found


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
    """Does the participle at `i` end a clause: last, or before a preposition, a conjunction, a particle or
    an adverb closing it?"""
    return i + 1 == len(words) or words[i + 1] in _ENDS_PARTICIPLE
