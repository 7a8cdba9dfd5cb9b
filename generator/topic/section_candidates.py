"""The passages opening the stored sections that treat a facet (facet_sections.py), ranked in the order
their documents give them; the sections no longer in force left out; how the subject works from the
parts of its own account titled after it."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ..documents.standing import names_old
from ..retrieval.scoring import tokens
from .candidate import Candidate
from .content_facets import defines_term
from .facet_sections import stating_own_limits, treating
from .heading_facets import FRAMING_FACETS, framed, table_facets
from .headings import section_facets
from .judge import RelevanceJudge
from .limits import leaves_alone, states_limit, states_own_limit
from .opening_passages import caveat_passages, opening_passages
from .plan import FACETS
from .section_examples import opening_example, shown_examples
from .section_tree import SectionPassage, TextSection, old_sections, text_sections
from .sentences import Naming, clean, is_changelog, speaks_of_now, stands_aside, states_arrival, text_blocks
from .subject_headings import names_subject
from .subject_sources import defining_sources
from .workspace import RawSource

# the plan's facet names that a section heading can answer, by the name the heading table uses
SECTION_FACET = {"comparison": "alternatives", "topic": "what"}


SECTION_FACET_HITS = 2.0  # a passage opening a section that treats the facet outranks one naming its words


# each later section of a document treating the facet weighs a little less: its own order ("Abstract" before
# "Introduction", the largest sections first) outweighs the variety a passage's other words would add
SECTION_ORDER_DECAY = 0.1


def section_candidates(
    sources: Sequence[RawSource],
    facet: str,
    judge: RelevanceJudge,
    *,
    stored: Sequence[RawSource],
    said: frozenset[str] = frozenset(),
    account: Collection[str] = (),
    opening: str = "",
    shown_first: bool = False,
) -> list[Candidate]:
    """The opening passages of the stored sections that treat `facet` (facet_sections.py), the documents
    about the topic first: their own headings say which question a section answers (the subject's own
    `account` is about it throughout, and so is the document the report `opening`s from: kick.md, "踢人下线",
    for "Sa-Token 如何踢人下线", whatever else the judge finds titled after the question)."""
    facet = SECTION_FACET.get(facet, facet)
    if facet not in FACETS:
        return []
    found = treating_candidates(
        sources,
        facet,
        judge,
        stored=stored,
        said=said,
        account=account,
        opening=opening,
        shown_first=shown_first,
    )
    if facet == "current":
        found += _arrivals(sources, defining_sources(stored, judge), said)
    if found or facet not in FRAMING_FACETS | {"how"}:
        return found
    # no section on why, limits or alternatives opens quotably: its first paragraph leans only on its
    # heading ("Several systems to do this already exist." under "### Prior Art"), and it is the answer; a
    # design that is code opens on a lead-in naming only what it changes ("Modify ResourceQuota API object:"
    # under "### Kueue LendingLimit API", and the Go struct whose comments define `lendingLimit`)
    return treating_candidates(
        sources,
        facet,
        judge,
        stored=stored,
        said=said,
        on_heading=True,
        account=account,
        opening=opening,
        shown_first=shown_first,
    )


def section_candidate(
    passage: SectionPassage,
    source_id: str,
    hits: float,
    rank: int,
    weight: float = 1.0,
    *,
    under_subject: bool = False,
) -> Candidate:
    """A passage opening a section that treats the question, ranked `rank`-th in the order such sections
    are found: the later, the less central."""
    return Candidate(
        passage.text,
        source_id,
        hits,
        1.0 / (1.0 + SECTION_ORDER_DECAY * rank),
        0.0,
        passage.parts if len(passage.parts) > 1 else (),
        weight,
        passage.code,
        treats=True,
        items=passage.items,
        under_subject=under_subject,
    )


def _arrivals(sources: Sequence[RawSource], about: Collection[str], said: frozenset[str]) -> list[Candidate]:
    """The paragraphs of the documents about the topic saying only the release it arrived in ("自 antd@5.1.0
    版本开始提供该组件。" under "## API"): where it stands, whatever section holds them."""
    return [
        Candidate(text, source.id, SECTION_FACET_HITS, 1.0, 0.0, treats=True)
        for source in sources
        if source.id in about
        for text in (clean(block) for block in text_blocks(source.text))
        if states_arrival(text) and text not in said
    ]


# a heading naming a design's limits as such ("## Drawbacks, Alternatives and Unknowns", "## Limitations"): its
# limits before those of the sections the heading table also reads as limits ("## Performance, Ergonomics and
# Compatibility", "## Testing, Security and Privacy", "## Future Directions")
_NAMED_LIMITS = re.compile(
    r"(?<![A-Za-z])(?:limitations?|caveats?|drawbacks?|downsides?|pitfalls?|known\s+issues|unknowns"
    r"|negative\s+consequences)(?![A-Za-z])|局限|缺点|不足",
    re.IGNORECASE,
)


def treating_candidates(
    sources: Sequence[RawSource],
    facet: str,
    judge: RelevanceJudge,
    *,
    stored: Sequence[RawSource],
    said: frozenset[str],
    on_heading: bool = False,
    account: Collection[str] = (),
    shown: bool = False,
    opening: str = "",
    shown_first: bool = False,
) -> list[Candidate]:
    """The passages of the sections treating `facet`, or with `shown` the first example each shows; with
    `shown_first` (a question asking how a thing is done), a section opening on its example is quoted by it,
    under its heading. The document the report `opening`s from answers first."""
    forms = [t.forms for t in judge.terms(judge.topic)]
    concepts = [{w for form in concept for w in form} for concept in forms]

    def naming(item: str) -> int:  # a list cut to fit keeps the items naming the topic
        return _concepts_named(item, concepts)

    about = defining_sources(stored, judge) | ({opening} if opening else set())
    strongest = max((s.relevance or 0.0 for s in stored), default=0.0)
    ranked = sorted(sources, key=lambda s: (s.id not in about, s.id != opening, -(s.relevance or 0.0), s.id))
    found = []
    for source in ranked:
        if is_changelog(source.title, source.url):
            continue
        weight = 1.0 if source.id in about or strongest <= 0 else (source.relevance or 0.0) / strongest
        own = source.id in about
        rank = 0  # the order `treating` gives a document's sections is the order they answer in
        sections = list(
            treating(
                source.text,
                facet,
                concepts,
                tokens,
                own_headings=own,
                title=source.title,
                account=source.id in account,
                forms=forms,
            )
        )
        old = no_longer_answering(source.text, facet, judge)
        sections = [(section, limit) for section, limit in sections if section not in old]
        if shown_first and own:
            # asked how a thing is done: the sections of a document about it that name it and open on its example
            # show it done, whatever their heading's facet ("### 3、权限校验" and its StpUtil.checkPermission calls
            # beside "### 1、设计思路"), the sections naming most of it first
            chosen = {id(section) for section, _ in sections}
            sections += [
                (section, 1)
                for section in text_sections(source.text)
                if id(section) not in chosen
                and section not in old
                and section.heading
                and _concepts_named(section.heading, concepts)
                and opening_example(section.blocks)
            ]
            sections.sort(key=lambda found: -_concepts_named(found[0].heading, concepts))
        if facet == "limits":  # …a section headed for its limits by name first
            sections.sort(key=lambda found: not _NAMED_LIMITS.search(found[0].heading))
        # …then where a document about the subject says what it does not handle, whatever the heading
        stating = stating_own_limits(source.text, source.title) if own and facet == "limits" else []
        sections += [(s, 1) for s in stating if s not in {found for found, _ in sections}]
        for section, limit in sections:
            if section in stating:  # the paragraph saying so, not the section's opening: its caveats too
                every = _section_openings(section, len(section.blocks), facet, said)
                own_limits = [p for p in every if states_own_limit(p.text)]
                caveats = [
                    p for p in caveat_passages(section, said) if p.text not in {o.text for o in own_limits}
                ]
                passages = [*own_limits, *caveats][:limit]
            elif shown:
                passages = shown_examples(section, said)[:limit]
            else:
                passages = _section_openings(
                    section, limit, facet, said, on_heading, shown_first=shown_first, naming=naming
                )
            for passage in passages:
                if facet == "use" and passage.parts and defines_term(passage.parts[0], section.heading):
                    continue  # "Hertz 服务端中间件是…一个函数" says what its heading's term is: "what" quotes it
                if facet in {"what", "how"} and (speaks_of_now(passage.text) or stands_aside(passage.text)):
                    continue  # where the work stands, what it changes, or an aside to the account
                if facet != "current" and states_arrival(passage.text):
                    continue  # the release it arrived in, quoted where its standing is asked
                # a document not about the subject is quoted only in the subject's own section
                found.append(
                    section_candidate(
                        passage, source.id, SECTION_FACET_HITS, rank, weight, under_subject=not own
                    )
                )
                rank += 1
    return found


def _concepts_named(heading: str, concepts: Sequence[set[str]]) -> int:
    """How many of the topic's concepts a heading names ("3、权限校验": 权限 and 校验)."""
    words = set(tokens(heading))
    return sum(bool(concept & words) for concept in concepts)


# facets a section no longer in force may answer: why its successor was made, what else was weighed
OLD_SECTION_FACETS = frozenset({"motivation", "alternatives"})


def no_longer_answering(text: str, facet: str, judge: RelevanceJudge) -> set[TextSection]:
    """The sections of a stored text that may not answer `facet`: those no longer in force (`old_sections`:
    "#### Legacy Semantics", a "# Migration" opening on "NOTE: OBSOLETE"), as a document no longer in force
    may not (standing.CURRENT_ONLY); none when the topic itself asks about what is old ("deprecated
    lifecycle methods")."""
    if facet in OLD_SECTION_FACETS or names_old(judge.topic):
        return set()
    return old_sections(text_sections(text))


SUBJECT_SECTION_HITS = SECTION_FACET_HITS + 1.0  # a section titled after the subject, in its own account


def subject_sections(
    account: Sequence[RawSource], judge: RelevanceJudge, said: frozenset[str] = frozenset()
) -> list[Candidate]:
    """How the subject works, in its own account: the opening passage of each of its parts (its top-level
    sections) titled after it, in the order the account writes them ("## Declarations with context
    parameters" in "Context parameters", "## Arrays of inline class values" in "Inline classes"; not
    "##### Inline classes over primitive types", a detail of its JVM mapping). The account is about the subject throughout, so
    a heading naming it again says this section is the subject itself at work, whatever other sections the
    account labels as its design ("## Technical design" holds the grammar and the resolution algorithm)."""
    concepts = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    found = []
    for source in account:
        headed = [
            (s, enclosing)
            for s, enclosing in _with_enclosing(text_sections(source.text))
            if s.heading.strip() != source.title.strip()
        ]
        top = min((s.level for s, _ in headed), default=0)  # the account's own parts, not their details
        old = no_longer_answering(source.text, "how", judge)
        sections = [
            s
            for s, enclosing in headed
            if s.level == top
            and s not in old
            and not framed(section_facets(s.heading) or table_facets(s), enclosing) - {"how"}
            and names_subject(s.heading, concepts, tokens)
        ]
        for rank, section in enumerate(sections):
            named = opening_passages(
                section, 1, said=said, naming=lambda item: _concepts_named(item, concepts)
            )
            for passage in named:
                found.append(section_candidate(passage, source.id, SUBJECT_SECTION_HITS, rank))
    return found


def _with_enclosing(sections: Sequence[TextSection]) -> list[tuple[TextSection, list[set[str]]]]:
    """Each headed section with the facets of the sections it stands in, top down ("### Dependency injection"
    under "## Use cases" stands in a motivation)."""
    found: list[tuple[TextSection, list[set[str]]]] = []
    stack: list[tuple[int, set[str]]] = []
    for section in sections:
        if not section.heading:
            continue
        stack = [(level, named) for level, named in stack if level < section.level]
        found.append((section, [named for _, named in stack]))
        stack.append((section.level, section_facets(section.heading)))
    return found


def _section_openings(
    section: TextSection,
    limit: int,
    facet: str,
    said: frozenset[str],
    on_heading: bool = False,
    *,
    shown_first: bool = False,
    naming: Naming | None = None,
) -> list[SectionPassage]:
    """The passages of a section treating `facet` that answer it. What the subject is, a section says in
    its first paragraph, and shows in an example ("This simple example shows a Person class with three
    tracked properties:") or names its parts in a list ("Hooks add their logic at any of four specific stages
    of flag evaluation:" and the four); when the definition quotes that paragraph already, the prose after it tells how
    it is specified or used ("Namespaces are specified as an array of entries…" after "A namespace wraps a
    global system resource…"), which is no answer to "what" in its place. A section on limits answers with
    the paragraphs stating one first (limits.py): "Alpenglow features a distinctive 20+20 security model.
    While it does not have the 33% byzantine security …" after the proofs its "## Security Considerations"
    opens on. A list cut to fit keeps the items `naming` the topic first."""
    if facet == "limits":
        # …its paragraphs stating a limit first, wherever they stand in it (a section on security opens on the
        # proofs it has), never one saying only what the design leaves alone
        passages = opening_passages(
            section, len(section.blocks), said=said, past_lists=True, on_heading=on_heading, naming=naming
        )
        kept = [p for p in passages if not leaves_alone(p.text)]
        return sorted(kept, key=lambda p: not states_limit(p.text))[:limit]
    if shown_first:  # "### 2、踢人下线" and its StpUtil.kickout calls, before the paragraph after them
        return opening_passages(section, limit, example_alone=True, said=said, shown_first=True)
    if facet != "what":
        framing = facet in FRAMING_FACETS  # its own section is the only place such an answer lives
        return opening_passages(
            section,
            limit,
            example_alone=facet == "use",
            said=said,
            past_lists=framing,
            on_heading=on_heading,
            naming=naming,
        )
    first = [p for p in opening_passages(section, 1) if not said.intersection(p.parts)]
    shown = [
        p
        for p in opening_passages(section, limit, said=said, naming=naming)
        if (p.code or p.items) and p not in first
    ]
    return [*first, *shown][:limit]
