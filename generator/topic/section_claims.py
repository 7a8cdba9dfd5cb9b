"""A section's quoted claims as the report reads them: in their source's order, a lead-in joined to what
follows it, with what they answer and the title of a document speaking of itself; and the headers'
claims on the current state."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from ..text.paragraphs import paragraphs
from .findings import Catalog, Claim
from .sentences import context_of, speaks_of_its_document
from .standing import date_key, stated_standing
from .subject_sources import subject_documents

MAX_HEADERS = 3  # defining documents whose headers answer "current state"


def header_claims(catalog: Catalog, defining: Collection[str], lang: str, *, first: str = "") -> list[Claim]:
    """What the headers of the documents defining the subject state of them ("Assignment Expressions —
    final · Python 3.8 · 2018-02-28"): the first answer to "What is the current state of X?", whatever their
    sections say. A document stating neither a status nor a release gives none. The document the report opens
    from (`first`) comes first, then the others newest first (the latest says most of the state now), those
    stating no date last, and last the earlier drafts no longer in force, titled as one in force (a withdrawn
    draft: what the state is not): the catalog's order is the order the sources were fetched in, which concurrent
    searches change from run to run."""
    documents = sorted(subject_documents(catalog, defining), key=lambda s: s.id)
    documents.sort(key=lambda s: date_key(s.published), reverse=True)
    documents.sort(key=lambda s: s.id != first)
    # …then those no longer in force titled as one in force, newest first: the earlier draft the account
    # replaced ("Partitioned Epoch Rewards Distribution — withdrawn · 2023-03-02" after SIMD-0118's "— activated
    # · 2024-02-16"); a rejected proposal titled otherwise is another design, not the state of this one
    titles = {" ".join(s.title.lower().split()) for s in documents}
    replaced = sorted(
        (
            s
            for s in catalog.sources
            if s.id in defining and s not in documents and " ".join(s.title.lower().split()) in titles
        ),
        key=lambda s: s.id,
    )
    documents += sorted(replaced, key=lambda s: date_key(s.published), reverse=True)
    found = []
    for source in documents:
        status, landed, date = stated_standing(source, lang)
        if status or landed:
            stated = " · ".join(part for part in (status, landed, date) if part)
            found.append(Claim(f"{source.title} — {stated}", [source.id], 1.0, header=True))
    return found[:MAX_HEADERS]


def attribute(claims: list[Claim], catalog: Catalog, defining: Collection[str]) -> list[Claim]:
    """Passages quoted from a document other than the subject's that speak of their own document ("This PEP
    then goes much further…"), each with that document's title: in the report, "this PEP" is the quoted
    one, not the subject's."""
    found = []
    subject = {s.id for s in subject_documents(catalog, defining)}
    for claim in claims:
        source = catalog.by_id.get(claim.sources[0]) if len(claim.sources) == 1 else None
        own = " ".join([claim.text, *claim.items])
        if source is not None and source.id not in subject and speaks_of_its_document(own):
            claim = replace(claim, attributed=source.title)
        found.append(claim)
    return found


def in_context(claims: list[Claim], catalog: Catalog) -> list[Claim]:
    """A quote with what it answers when it does not say it itself (sentences.context_of): a field's row
    ("Description: a comma-delimited list of key-value pairs…") with the field's name ("tracestate"), the
    answer of a rationale written as questions with its question ("Why not inline every hot callee?")."""
    found = []
    for claim in claims:
        source = catalog.by_id.get(claim.sources[0]) if len(claim.sources) == 1 else None
        context = context_of(source.text, claim.text, claim.items) if source is not None else ""
        found.append(replace(claim, context=context) if context else claim)
    return found


def in_source_order(claims: list[Claim], catalog: Catalog) -> list[Claim]:
    """A section's passages from one paragraph of one source, together and in the order the source writes
    them, at the place of the first: a lead-in ("Every page is sanitized twice.") reads before the sentence
    it leads into, whichever of the two ranked higher."""
    places = [_paragraph_place(c, catalog) for c in claims]
    ordered: list[Claim] = []
    for n, (claim, place) in enumerate(zip(claims, places, strict=True)):
        if claim in ordered:
            continue
        if place is None:
            ordered.append(claim)
            continue
        same = [(p, c) for p, c in zip(places[n:], claims[n:], strict=True) if p and p[:2] == place[:2]]
        ordered.extend(c for _, c in sorted(same, key=lambda pc: pc[0]))
    return _joined(ordered, catalog)


def _joined(claims: list[Claim], catalog: Catalog) -> list[Claim]:
    """Passages that follow each other in one paragraph of their source quoted as one: a lead-in is never
    cited apart from what it introduces (the summary quotes a section's first passage alone)."""
    joined: list[Claim] = []
    for claim in claims:
        last = joined[-1] if joined else None
        ends_open = last is not None and bool(last.code or last.items)  # what it introduces follows it
        if last and not ends_open and last.sources == claim.sources and _follows(last, claim, catalog):
            joined[-1] = Claim(
                f"{last.text} {claim.text}",
                last.sources,
                max(last.score, claim.score),
                claim.code,
                claim.items,
            )
        else:
            joined.append(claim)
    return joined


def _follows(first: Claim, second: Claim, catalog: Catalog) -> bool:
    source = catalog.by_id.get(first.sources[0])
    text = " ".join(source.text.split()) if source else ""
    return bool(text) and f"{first.text} {second.text}" in text


def _paragraph_place(claim: Claim, catalog: Catalog) -> tuple[str, int, int] | None:
    """(source id, paragraph number, offset in it) of a passage's first words in its source; None when the
    source does not hold them as written."""
    source = catalog.by_id.get(claim.sources[0]) if len(claim.sources) == 1 else None
    if source is None:
        return None
    start = " ".join(claim.text.split()[:8])
    for n, block in enumerate(paragraphs(source.text)):
        at = " ".join(block.split()).find(start)
        if at >= 0:
            return source.id, n, at
    return None
