"""The passages of the sources found by their words: scored by the run's relevance judge against a
sub-question, kept where their document's headings let them answer its facet."""

from __future__ import annotations

from collections.abc import Sequence

from ..documents.prose import prose_ratio
from ..retrieval.scoring import Fields, keep_threshold, tokens
from .candidate import Candidate
from .heading_facets import path_facets
from .headings import design_proposal, frames_document, lists_reference, section_facets
from .implementation_sections import design_headings
from .judge import RelevanceJudge
from .plan import FACETS, unnumbered
from .section_candidates import no_longer_answering
from .section_tree import text_sections
from .sentences import (
    glossary_term,
    is_changelog,
    items_read_alone,
    speaks_of_now,
    stands_aside,
    states_arrival,
)
from .source_quotes import quotes_of
from .subject_headings import headings_naming_whole, names_subject, subject_headings
from .subject_sources import defining_sources, title_share
from .topic_point import point_shares
from .workspace import RawSource

COVERAGE_SHARE = 0.5  # a passage must cover the topic at least this share as well as the best one does


def candidates(
    sources: list[RawSource],
    *,
    focus: str,
    judge: RelevanceJudge,
    facet: set[str],
    reserved: set[str],
    strongest: float | None = None,
    facet_name: str = "",
    section: str = "",
    stored: Sequence[RawSource] = (),
) -> list[Candidate]:
    """The passages of `sources` that could answer the question `focus` describes, best first, scored by
    the run's relevance judge (a sentence naming only the topic's common words falls below the cut). Passages
    naming the question's own facet rank higher; one naming only another section's facet is left to it.
    `stored` are the run's other sources (those this question may not quote): whether any is titled after
    the topic decides how much of it a passage of a document that only touches it must name."""
    concepts = {w for t in judge.terms(judge.topic) for form in t.forms for w in form}
    if strongest is None:  # the run's most relevant stored source, when the caller knows it
        strongest = max((s.relevance or 0.0 for s in sources), default=0.0)
    # the retrieval judge's keep rule, applied again once the run's most relevant source is known: a source
    # kept early in the run, before the best one was seen, is not quoted beside much better ones
    defining = defining_sources([*sources, *stored], judge)
    usable = [
        s
        for s in sources
        if not is_changelog(s.title, s.url)
        and (s.relevance is None or s.relevance >= keep_threshold(strongest) or s.id in defining)
    ]
    # a passage standing in a section that frames its document ("#### Errata": "Previous versions of this spec
    # listed connection registration in the middle…") answers no question about the subject
    found = [
        (s, q, c, h)
        for s in usable
        for q, c, h in quotes_of(s, focus, concepts)
        if not any(frames_document(x) for x in h if x.strip() != s.title.strip())
    ]
    if not found:
        return []
    docs = [(f"{s.id}#{q.index}", Fields("", "", " ".join([q.text, *q.items]))) for s, q, _, _ in found]
    verdicts = judge.judge(docs, focus)
    cut = COVERAGE_SHARE * max(v.topic.score for v in verdicts)
    terms = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    concept_labels = {t.label for t in judge.terms(judge.topic)}
    titled = {s.id for s in [*sources, *stored] if title_share(s.title, terms) >= 0.5}
    whole_topic = bool(titled)
    about = titled | {s.id for s in usable if (s.relevance or 0.0) >= strongest}
    titles = [s.title for s in usable if s.id in about]
    others = _other_titles(usable, about)
    shares = point_shares(judge, [v.topic for v in verdicts], titles=titles, others=others)
    # in a document about the topic, a passage naming its point is on it, however few of its other words it
    # repeats ("CliRunner invokes the command in a test" on the page about testing command line applications)
    naming = point_shares(judge, [v.topic for v in verdicts], share=0.0, titles=titles, others=others)
    shares = [
        s or (sid in about and n) for s, n, sid in zip(shares, naming, (f[0].id for f in found), strict=True)
    ]
    concept_sets = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]
    forms = [t.forms for t in judge.terms(judge.topic)]
    # a document about something larger is quoted on the subject inside the subject's own section, and only
    # there when a heading names the whole subject
    whole = {s.id: headings_naming_whole(text_sections(s.text), forms, tokens, s.title) for s in usable}
    scoped = {
        s.id: subject_headings(text_sections(s.text), concept_sets, tokens, s.title) | whole[s.id]
        for s in usable
    }
    labelled = {s.id: labelled_facets(s.text, s.title) for s in usable}
    proposals = {s.id for s in usable if design_proposal(t.heading for t in text_sections(s.text))}
    designs = {s.id: design_headings(s.text) for s in usable}  # "## Implementation" holding the design
    old = {s.id: {t.heading for t in no_longer_answering(s.text, facet_name, judge)} for s in usable}
    pool = []
    for (source, quote, centrality, heading), verdict, on_point in zip(found, verdicts, shares, strict=True):
        if old[source.id] & {h.strip() for h in heading}:
            continue  # "#### Legacy Semantics" of withdrawals is not how they are proven now
        inside = not scoped[source.id] or bool(scoped[source.id] & set(heading))
        if not inside and (whole[source.id] or concept_labels - set(verdict.topic.matched)):
            continue  # "For POSIX platforms the user structure has…" in "Configuration", outside its hooks
        words = set(tokens(" ".join([quote.text, *quote.items])))  # a list is what its lead-in says
        # a passage of the section the sub-question is named after answers it: that section of a document
        # about the topic is on the topic, whatever words it uses. Only such a document's own headings say
        # which question a passage answers: a "Usage" section elsewhere is about that document's subject.
        own_headings = source.id in about
        named = own_headings and bool(section) and bool(heading) and heading[-1].lower() == section.lower()
        if section and not (own_headings and _stands_under(heading, section)):
            continue  # a section named after a document's heading quotes that section, not its words elsewhere
        if not named and (
            verdict.topic.score < cut or not on_point or words & reserved and not words & facet
        ):
            continue
        # the source's own section says, or the section it stands in ("Special-casing conditional statements"
        # under "Rejected alternative proposals" is an alternative, not how it works)
        answers = (
            {facet_name}
            if named
            else path_facets(
                heading, source.title, proposal=source.id in proposals, designs=designs[source.id]
            )
        )
        # "### Form Attributes" and its rows: how the component is used, never what it is
        listed = bool(heading) and items_read_alone(quote.text, quote.items)
        if not answers and listed and lists_reference(heading[-1], quote.text, listed):
            answers = {"use"}
        if states_arrival(quote.text):  # the release it arrived in says where it stands, wherever written
            answers = {"current"}
        claimed = answers if own_headings else set()
        # another outline facet's section is left to it; a question that is the topic itself takes any section
        if facet_name in FACETS and answers and facet_name not in answers:
            continue
        # a document with a section of its own on the facet ("## Introduction", "## Motivation") answers it
        # there: what its unlabelled sections say is the detail of the design ("### Implicit memberwise
        # initializer" under "## Type inference" is not what result builders are)
        if own_headings and not answers and facet_name in labelled[source.id] - {"how"}:
            continue
        if facet_name in {"what", "how"} and (speaks_of_now(quote.text) or stands_aside(quote.text)):
            continue  # "Currently our optimizations have been tested on Linux only": not how it works
        # when documents titled after the topic were stored, one that only touches it is quoted where it names
        # the whole topic, not where its own subject shares a word or two with it ("command line application"
        # of a packaging page, "backwards compatibility" of a random number policy)
        if whole_topic and not own_headings and concept_labels - set(verdict.topic.matched):
            continue
        term = glossary_term(quote.text)
        if term and (facet_name != "what" or not concepts & set(tokens(term))):
            continue  # a glossary entry defines its own term: the subject's, under "what is", or none
        quality = prose_ratio(quote.text)
        # the retrieval judge's view of the whole source: a passage from the document about the topic outranks
        # the same words in a document that only touches it
        weight = 1.0 if source.relevance is None or strongest <= 0 else max(source.relevance, 0.0) / strongest
        coverage = (verdict.topic.score + verdict.question.score) / 2 * quality
        parts = quote.parts if len(quote.parts) > 1 else ()
        own = 1.0 if facet_name in claimed else 0.0
        under = any(
            names_subject(h, concept_sets, tokens) for h in heading if h.strip() != source.title.strip()
        )
        pool.append(
            Candidate(
                quote.text,
                source.id,
                (len(facet & words) + own) * quality,
                coverage,
                centrality,
                parts,
                weight,
                quote.code,
                items=quote.items,
                under_subject=under,
            )
        )
    return sorted(pool, key=lambda c: -c.relevance)


def _stands_under(headings: Sequence[str], section: str) -> bool:
    """Whether a passage stands in the section headed `section` or in one of its subsections."""
    return section.strip().lower() in {unnumbered(h.strip()).lower() for h in headings}


def labelled_facets(text: str, title: str = "") -> set[str]:
    """The facets a document's own headings name a section for (its title is no section of it)."""
    return set().union(
        *(section_facets(s.heading) for s in text_sections(text) if s.heading and s.heading != title)
    )


def _other_titles(sources: Sequence[RawSource], about: set[str]) -> list[str]:
    return [s.title for s in sources if s.id not in about]
