"""The subject's own account answers first: which passages speak of the subject (its own pages, those
opening on its name, those of documents building on it) and the examples its own pages show."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ..retrieval.scoring import tokens
from .candidate import Candidate
from .heading_facets import FRAMING_FACETS
from .headings import section_facets
from .judge import RelevanceJudge
from .section_candidates import SECTION_FACET_HITS, section_candidate
from .section_examples import own_examples
from .section_tree import TextSection, text_sections
from .sentences import is_changelog, text_blocks
from .subject_headings import subject_headings
from .workspace import RawSource

_HAN = re.compile(r"[\u3400-\u9fff]")


# examples of the subject's own pages a how-to question may quote when nothing else answers
ACCOUNT_EXAMPLES = 4


def own_pages(
    sources: Sequence[RawSource], account: Collection[str], defining: Collection[str]
) -> list[RawSource]:
    """The subject's own pages, whose examples show it used: its account first, then the other pages defining
    it, in the catalog's order. Gin's 数据绑定 (binding/index.md) shows one example, its quick example; "绑定 URI"
    (bind-uri.md), also titled after binding, shows ShouldBindUri used."""
    return [
        *(s for s in sources if s.id in account),
        *(s for s in sources if s.id in defining and s.id not in account),
    ]


def account_examples(
    sources: Sequence[RawSource], said: frozenset[str], concepts: Sequence[set[str]] = ()
) -> list[Candidate]:
    """The first examples the subject's own pages show, in their order, each with the caption or sentence
    introducing it (`own_examples`): how it is used, as its own documentation shows it ("如果你使用 Go 1.8 及更高
    版本，…考虑使用 http.Server 内置的 Shutdown() 方法进行优雅关闭。" and the server it shuts down on SIGTERM).
    A page about something larger shows the subject in the sections titled after it (`subject_part`) only:
    BIDS' MRI page holds the B0 fieldmaps, and its "###### fMRI task information" example is none of them."""
    found = [
        (source.id, passage)
        for source in sources
        if not is_changelog(source.title, source.url)
        for section in subject_part(text_sections(source.text), concepts, source.title)
        for passage in own_examples(section, said)
    ]
    return [
        section_candidate(passage, sid, SECTION_FACET_HITS, rank)
        for rank, (sid, passage) in enumerate(found[:ACCOUNT_EXAMPLES])
    ]


def subject_part(
    sections: Sequence[TextSection], concepts: Sequence[set[str]], title: str
) -> list[TextSection]:
    """The sections of a document where it speaks of the subject: all of them in a document titled after it
    (or naming no section after it), else the sections titled after it with those they hold."""
    own = subject_headings(sections, concepts, tokens, title) if concepts else set()
    if not own:
        return list(sections)
    kept, level = [], 0  # the level of the subject's section the current one stands in (0: none)
    for section in sections:
        if level and section.heading and section.level <= level:
            level = 0
        if not level and section.heading in own:
            level = section.level
        if level:
            kept.append(section)
    return kept


def defining_passages(pool: list[Candidate], name: str, own: Collection[str] = ()) -> list[Candidate]:
    """What the subject is, beside the definition the section opens with: the passages opening a section
    that says what it is ("## Summary", "## Introduction", a section titled after it), those opening on the
    subject's name with what it is or does ("Async components are…", "插件可以…"), and those of a document
    titled as it with no such section (`own`: "依赖注入" says what it is throughout). A passage found by its
    words alone answers another question, in another document ("The @deprecated built-in directive…" in the
    spec's "Type System" for 非空类型) and in a document saying what the subject is in a section of its own
    ("Baggage names are any valid, non-empty UTF-8 strings." in "Baggage API", whose "Overview" says what
    baggage is): a detail of it."""
    return [c for c in pool if c.source in own or c.treats or opens_on(c.text, name, defining=True)]


# passages of the subject's own documents (besides the definition, which opens the section from its opening)
# that answer "what" without the others
SUBJECT_PASSAGES = 1


# passages of the subject's own sections on a facet that answer it without the others: a thin account ("Element
# Modifiers" adds a package to the app blueprint) leaves "how" to the proposal defining the mechanism it builds on
SECTION_PASSAGES = 2


def subject_first(
    pool: list[Candidate],
    facet: str,
    subject: set[str],
    name: str = "",
    extending: Collection[str] = (),
) -> list[Candidate]:
    """Each facet of the subject from its own account when that answers it. What the subject is: its own
    passages, when it gives SUBJECT_PASSAGES of them beside the definition (a proposal extending it, "Extend
    property wrappers to parameters", or removing one of its inferences, says what something else is: "SE-0316:
    Global Actors introduced annotations like @MainActor…"); else, beside its own, only the passages of other
    documents that open on the subject (`name`): "异步组件是为另一个组件提供的包装器…" in a glossary says what
    it is, "组件是 Vue 提供的…" beside it and Suspense's "要了解 <Suspense> 所解决的问题…" do not. Every other
    facet: its own passages alone when its own account has a section on the facet ("## Motivation", "##
    Detailed design", "## Drawbacks") opening with enough passages (one for why, limits and alternatives,
    SECTION_PASSAGES for how), and then from those sections only: a passage of its other sections found by its
    words answers their question ("For this RFC, we adopt the following definitions:" is no account of how
    doc-comments work beside its "# Design"). Without such a section the other documents answer
    with it, each as far as it speaks of the subject (`_of_subject`)."""
    if not subject:
        return pool
    own = [c for c in pool if c.source in subject]
    if facet == "what" and len(own) >= SUBJECT_PASSAGES:
        return own
    if facet == "what":  # without the subject's name, whatever the others say of it
        return [c for c in pool if c in own or opens_on(c.text, name)] if name else pool
    needed = 1 if facet in FRAMING_FACETS else SECTION_PASSAGES
    headed = [c for c in own if c.treats]
    if len(headed) >= needed:
        return headed
    kept = [c for c in pool if c in own or _of_subject(c, facet, name, c.source in extending)]
    if facet in FRAMING_FACETS and name and not kept:
        # …else the sections of the other documents titled after the subject that treat the facet (an ADR
        # beside the proposal: its "## Considered Options"), quoted with their document's title
        return [c for c in pool if c.treats]
    return kept


def names_most(ids: Collection[str], sources: Sequence[RawSource], judge: RelevanceJudge) -> set[str]:
    """Of `ids`, the documents whose title names as many of the topic's concepts as any stored title: the
    subject's account in other words ("Content-addressed paths" for content-addressed derivations), not a
    proposal building on a subject another title names better ("async fn in trait" beside "async await", for
    async/await syntax)."""
    # the topic's own words, as the topic spells them: a synonym ("async" among the spellings of "await")
    # names no second concept
    spelled = [set(tokens(t.label)) for t in judge.terms(judge.topic)]

    def named(title: str) -> int:
        words = set(tokens(title))
        return sum(1 for own in spelled if own and own <= words)

    most = max((named(s.title) for s in sources), default=0)
    return {s.id for s in sources if s.id in ids and named(s.title) == most}


def building_on(sources: Sequence[RawSource], account: Collection[str], subject: str) -> set[str]:
    """Ids of the documents building on the subject: titled after it ("CoroutineContext context parameter in
    suspend functions" beside "Context parameters"), beside its account, which does not name them. A
    document the account names is what it builds on ("This RFC builds on top of low-level primitives …
    introduced in RFC #373 "Element Modifier Manager"" in "Element Modifiers"): it may tell how the subject
    works. A document titled after the subject and a facet of it ("出码模块设计", the design of 出码, beside
    "使用出码功能", its usage) is another part of its account: it changes nothing."""
    if not subject or not account:
        return set()
    blocks = [set(tokens(b)) for s in sources if s.id in account for b in text_blocks(s.text)]
    return {
        s.id
        for s in sources
        if s.id not in account
        and _names(s.title, subject)
        and not section_facets(s.title)
        and not any(set(tokens(s.title)) <= words for words in blocks)
    }


def _of_subject(passage: Candidate, facet: str, name: str, extending: bool) -> bool:
    """Whether a passage of a document other than the subject's own account speaks of the subject. A
    document titled after the subject without being its account (`extending`: "CoroutineContext context
    parameter in suspend functions" beside "Context parameters") is a proposal building on it: its sections
    state its own change — its design, its examples, its motivation, its rejected options ("we could just
    allow suspend properties"; "Exposing a factory method…") — and it speaks of the subject only in a section
    titled after it, naming it. Another document answers how the subject works with the mechanism it
    describes ("How vector search works" beside an overview titled "Vector databases"), and why it matters,
    its limits and its alternatives only where it names it: its own drawbacks are its own change's ("Adding
    these modifiers means more ways to accomplish similar goals" in "Render Element Modifiers")."""
    if extending:
        return passage.under_subject and (not name or _names(passage.text, name))
    return facet not in FRAMING_FACETS or not name or _names(passage.text, name)


def _names(passage: str, name: str) -> bool:
    """Whether a passage names the subject: every word of its name ("we could just allow suspend properties"
    in a proposal building on context parameters is that proposal's alternative, not theirs)."""
    return set(tokens(name)) <= set(tokens(passage))


# what a Chinese sentence opening on its subject says of it when it says what the subject is or does
# ("插件是…", "插件可以…"; not "插件只会应用于…", a limit)
_ZH_DEFINING = re.compile(r"(?:是|为|指|即|就是|可以|能够|能|允许|提供|用于|让|通过|会在|包含|负责)")


# what an English sentence opening on its subject says of it when it says what the subject is or does ("Tracked
# properties introduce…", "A modifier manager is…"; not "Baggage names are…", another subject named after it)
_EN_DEFINING = re.compile(
    # …or a glossary entry naming it before a colon ("Interchain Account: An account on a host chain.")
    r"\s*(?:\([^)]*\)\s*)?(?::\s+(?=[A-Z])|,?\s*(?:is|are|was|were|can|may|must|will|let|lets|allow|allows|enable|enables|provide"
    r"|provides|introduce|introduces|describe|describes|define|defines|represent|represents|refer|refers|mean"
    r"|means|consist|consists|contain|contains|wrap|wraps|hold|holds|make|makes|give|gives|offer|offers|support"
    r"|supports|add|adds|work|works|run|runs|do|does|have|has|behave|behaves|serve|serves|store|stores|track"
    r"|tracks|map|maps|mark|marks|embed|embeds|carry|carries)\b)",
    re.I,
)


def opens_on(passage: str, subject: str, *, defining: bool = False) -> bool:
    """Whether a passage opens with the subject's name, as a sentence saying what it is or does ("Async
    components are…", "An async component wraps…", "异步组件是…"); with `defining`, it must go on with what
    it is or does ("插件可以…", "Tracked properties introduce…"; not "Baggage names are…")."""
    name = " ".join(subject.split())
    if not name:
        return False
    if _HAN.search(name):
        rest = passage[len(name) :] if passage.startswith(name) else ""
        return bool(rest) and (not defining or _ZH_DEFINING.match(rest.lstrip()) is not None)
    stem = name[:-1] if name.lower().endswith("s") and not name.lower().endswith("ss") else name
    opening = re.match(rf"(?:the\s+|an?\s+)?{re.escape(stem)}(?:e?s)?(?![\w-])", passage, re.I)
    return opening is not None and (not defining or _EN_DEFINING.match(passage[opening.end() :]) is not None)
