"""ANALYSIS: findings per sub-question, each claim tied to the raw sources that support it.

Offline the analyst is extractive: the sentences of the step's sources ranked with the sub-question as focus
(generator/summarize.py), each cited to its own source. With a model, its JSON claims cite catalog numbers;
a number that names no stored source is dropped and counted, and a claim left without a source is dropped.

The stage reads as its table of contents; the modules beside this one each do one step of it:
definition.py (the defining document's opening, which the report opens with, from openings.py), passage_pools.py
(each sub-question's candidates: section_candidates.py, word_candidates.py, aspect_candidates.py,
part_candidates.py, the subject's own account first by account.py), allocation.py (passages to sections),
section_claims.py (a section's quotes in their source's order, in context, attributed) and model_claims.py (a
model's claims, checked). findings.py holds the records the stage returns, candidate.py the passages it weighs.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..llm.base import Provider
from ..text.sentences import sentences as split_all
from .allocation import allocate
from .candidate import Candidate
from .defining import compared_subject
from .definition import definition, design_opening
from .findings import Analysis, Catalog, Claim, Section
from .judge import RelevanceJudge
from .model_claims import MODEL_PASSAGES, model_section
from .passage_pools import facet_of, passage_pools
from .plan import Plan
from .section_claims import attribute, header_claims, in_context, in_source_order
from .sentences import clean
from .standing import date_key, usable_for
from .subject_sources import defining_sources
from .topic_point import sentence_statistics
from .workspace import RawSource

EVIDENCE_FACETS = frozenset(
    {"limits", "alternatives", "section", "aspect"}
)  # answered only by passages that say they answer it


def questions_with_sources(plan: Plan, catalog: Catalog) -> list[tuple[str, str, list[str]]]:
    """Each sub-question, the search text of its steps (the focus), and the raw sources those steps stored
    (every source when no step maps to the question)."""
    result = []
    for question in plan.sub_queries or [plan.topic]:
        steps = [s for s in plan.steps if s.question == question and s.step_type != "processing"]
        ids = [sid for s in steps for sid in s.sources if sid in catalog.by_id]
        focus = " ".join([question, *(s.query for s in steps)])
        result.append((question, focus, list(dict.fromkeys(ids)) or [s.id for s in catalog.sources]))
    return result


def analyze(provider: Provider, plan: Plan, catalog: Catalog, *, lang: str) -> Analysis:
    """One section per sub-question: the model's claims when it gives usable ones, else quoted passages.
    The model reads the passages the offline analyst would quote (whole paragraphs, in context), with the
    defining document's opening, so its answer rests on the same evidence."""
    analysis = Analysis(sections=[], method="extractive" if provider.offline else "llm")
    questions = questions_with_sources(plan, catalog)
    # one scale for all sections
    judge = RelevanceJudge(
        plan.topic, collection=collection_of(catalog.sources), subject=compared_subject(plan.topic)
    )
    sentence_statistics(judge, catalog.sources)
    analysis.defining = sorted(defining_sources(catalog.sources, judge))
    usable = usable_for("what", catalog.sources, defining=analysis.defining)
    analysis.definition = opening = definition(catalog.sources, judge, usable)
    analysis.mechanism = design_opening(catalog, opening, judge)
    said = frozenset(clean(p) for p in split_all(opening.text)) if opening else frozenset()
    pools = passage_pools(
        plan,
        catalog,
        questions,
        judge,
        said=said,
        defining=analysis.defining,
        opening=opening.sources[0] if opening else "",
    )
    written: dict[str, Section] = {}
    if not provider.offline:
        for question, _, ids in questions:
            evidence: list[Claim | Candidate] = [
                *([opening] if opening else []),
                *pools[question][:MODEL_PASSAGES],
            ]
            section = model_section(provider, question, ids, evidence, catalog, analysis, lang=lang)
            if section is not None:
                written[question] = section
    used = {c.text for s in written.values() for c in s.claims}
    if opening:  # no passage repeats a sentence of the definition (the summary may)
        used |= {opening.text, *(clean(p) for p in split_all(opening.text))}
        used |= {opening.code.strip()} if opening.code else set()  # nor shows its example again
    dated = any(date_key(s.published) for s in catalog.sources)
    strict = {
        q
        for q in pools
        if facet_of(plan, q) in EVIDENCE_FACETS or (facet_of(plan, q) == "current" and not dated)
    }
    unwritten = {q: pool for q, pool in pools.items() if q not in written}
    aspects = {q for q in pools if facet_of(plan, q) == "aspect"}
    as_written = {q for q in pools if facet_of(plan, q) == "topic"}
    quoted = allocate(unwritten, used=used, strict=strict, asked=aspects, first=as_written)
    for question, _, ids in questions:
        if question in written:
            analysis.sections.append(written[question])
            continue
        ordered = in_context(in_source_order(quoted[question], catalog), catalog)
        extracted = attribute(ordered, catalog, analysis.defining)
        section = Section(question, extracted, ids)
        if opening and facet_of(plan, question) == "what":
            section.claims.insert(0, opening)  # the definition answers "What is X?" first
        if facet_of(plan, question) == "current":
            first = opening.sources[0] if opening else ""
            section.claims[:0] = header_claims(catalog, analysis.defining, lang, first=first)
        analysis.sections.append(section)
    return analysis


def collection_of(sources: Sequence[RawSource]) -> str:
    """The words naming the collection every source comes from (`RawSource.collection`); '' when a source
    comes from none or the sources from several."""
    named = [set(s.collection.split()) for s in sources]
    common = set.intersection(*named) if named else set()
    return " ".join(sorted(common))
