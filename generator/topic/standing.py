"""A source's standing: whether the document it stores is still in force (a rejected, withdrawn or superseded
proposal is not) and how new it is, from the `status` and `date` its header or front matter states.

The report labels a source that is no longer in force, never lets one answer what the subject is or how it
works, and answers "current state" from the newest sources.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from ..documents.standing import INACTIVE, opening_status, status_word
from ..text.topic_labels import LABELS
from .workspace import RawSource

__all__ = ["INACTIVE", "opening_status", "status_word"]  # the recogniser lives with the document model

# facets a document no longer in force must not answer: it would describe what never was or no longer is
CURRENT_ONLY = frozenset({"what", "how", "use", "limits", "current"})
NEWEST_SHARE = 3  # "current state" reads the newest third of the dated sources (at least one)
_DATE = re.compile(r"(\d{4})(?:[-/.](\d{1,2}))?(?:[-/.](\d{1,2}))?")
_MONTHS = {m: n for n, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})[- ]([A-Za-z]{3})[A-Za-z]*[- ,]+(\d{4})")


def standing_word(source: RawSource) -> str:
    """The source's status word: the one its header states, else one its opening sentences state of the
    document itself ("This PEP has been superseded by PEP 634" → "superseded"); '' when neither does."""
    return status_word(source.status) or opening_status(source.text)


def stated_standing(source: RawSource, lang: str) -> tuple[str, str, str]:
    """What a source's header states of it, as a reader sees it: its status (in `lang`'s words when deepkb
    has them: "已撤回"), the release it targets ("Python 3.8") and its date (YYYY-MM-DD); '' for each one
    it does not state."""
    word = standing_word(source)
    label = LABELS.get(lang, LABELS["en"]).get(f"status_{word}", word) if word else ""
    return label, source.landed, date_key(source.published)


def inactive(source: RawSource) -> bool:
    return standing_word(source) in INACTIVE


def date_key(date: str) -> str:
    """A stated date as YYYY-MM-DD for ordering ('' when it states none): ISO dates and PEP-style
    "14-Aug-2017" both read."""
    found = _DAY_MONTH_YEAR.search(date)
    if found and found.group(2).lower()[:3] in _MONTHS:
        day, month, year = found.groups()
        return f"{year}-{_MONTHS[month.lower()[:3]]:02d}-{int(day):02d}"
    found = _DATE.search(date)
    if not found:
        return ""
    year, month, day = found.groups()
    return f"{year}-{int(month or 1):02d}-{int(day or 1):02d}"


def newest(sources: Sequence[RawSource]) -> set[str]:
    """Ids of the newest dated sources (the newest third, at least one); every id when none is dated."""
    dated = sorted(
        (s for s in sources if date_key(s.published)), key=lambda s: date_key(s.published), reverse=True
    )
    if not dated:
        return {s.id for s in sources}
    keep = max(1, len(dated) // NEWEST_SHARE)
    return {s.id for s in dated[:keep]}


def proposals_only(sources: Sequence[RawSource], defining: Collection[str] = ()) -> bool:
    """Whether the source most about the subject is itself not in force: every proposal for it was deferred,
    rejected or withdrawn, and those proposals are the only account of it there is. A document `defining`
    the subject (its id; titled after it) that is in force is that account: PEP 572, final, beside the
    withdrawn PEP 577 that scored a little higher."""
    judged = [s for s in sources if s.relevance is not None]
    if any(s.id in defining and not inactive(s) for s in sources):
        return False
    return bool(judged) and inactive(max(judged, key=lambda s: s.relevance or 0.0))


# facets only documents about the subject answer, once one is stored: "What are const generics?" quoted an RFC
# on asm! operands ("Casting the pointer to usize does not help:") and one on statics
SUBJECT_ONLY = frozenset({"what", "how"})


# the question as written asking how its subject works or what it is now ("How does CometBFT choose the block
# proposer…", "What do PrepareProposal and ProcessProposal do…", "Gin 的中间件是怎么执行的"), not what it was
# or why ("How did…", "Why was … rejected"): a draft beside the current text does not answer it
_ASKS_NOW = re.compile(
    r"^\W*(?:how|what|which)\s+(?:does|do|is|are|can|should|must)\b|^\W*how\s+to\b"
    r"|^(?!.*(?:为什么|为何|曾经|以前)).*(?:如何|怎么|怎样|是什么)",
    re.I,
)


def asks_now(topic: str) -> bool:
    """Whether a topic asks how its subject works or what it is, as it is now."""
    return bool(_ASKS_NOW.search(topic.strip()))


def usable_for(
    facet: str,
    sources: Sequence[RawSource],
    about: Collection[str] = (),
    defining: Collection[str] = (),
    topic: str = "",
) -> Callable[[RawSource], bool]:
    """Which sources may answer a sub-question of `facet`. A document no longer in force answers none of
    CURRENT_ONLY, unless the subject has nothing else (`proposals_only`, given the ids of the documents
    `defining` it): then it answers all but "current state", labelled with its status wherever it is
    quoted. `about` are the sources saying in their title or opening that they are about the subject: when
    there are any, only they answer SUBJECT_ONLY, and "current state" reads the newest of them (the newest
    stored document was a 2024 RFC on capturing generic parameters, quoted as the current state of const
    generics). The question as written (facet "topic") is one of CURRENT_ONLY when it asks how the subject
    works or what it is now (`asks_now`), unless the document is one defining the subject: "How does CometBFT
    choose the block proposer for each round?" quoted a draft on proposer-based time."""
    in_force = [s for s in sources if not inactive(s)]
    on_subject = [s for s in in_force if s.id in about]
    recent = newest(on_subject or in_force) if facet == "current" else set()
    now = CURRENT_ONLY | {"topic"} if asks_now(topic) else CURRENT_ONLY
    barred = now if not proposals_only(sources, defining) else frozenset({"current"})
    # what the subject is and how it works are told by documents about it, once any is stored
    subject_only = facet in SUBJECT_ONLY and any(s.id in about for s in sources)

    def usable(source: RawSource) -> bool:
        # a draft of the subject's own account answers the question as written, labelled: AIP-104 "Account
        # Abstraction" for "How does account abstraction work on Aptos?"; one on something else does not
        own_draft = facet == "topic" and source.id in defining
        if facet in barred and inactive(source) and not own_draft or subject_only and source.id not in about:
            return False
        return facet != "current" or source.id in recent

    return usable


# header fields naming the release a proposal targets, and how a reader names it
_RELEASE_FIELDS = {"python-version": "Python {}", "target-version": "{}", "rust-version": "Rust {}"}


# a status naming the release that shipped it: "**Implemented (Swift 5.4)**", "Implemented in Go 1.21"
_IMPLEMENTED_IN = re.compile(
    r"^\W*(?i:implemented|shipped|released|landed)\W+(?:in\s+)?(?P<release>[A-Z][\w.+-]*\s+v?\d+(?:\.\d+){0,2})\b"
)


def landed_in(fields: dict[str, str]) -> str:
    """The release a document's header says it targets ("Python-Version: 3.8" → "Python 3.8") or shipped in
    ("Status: **Implemented (Swift 5.4)**" → "Swift 5.4"); ''."""
    for name, form in _RELEASE_FIELDS.items():
        value = fields.get(name, "").strip()
        if re.fullmatch(r"v?\d+(?:\.\d+){0,2}(?:,\s*v?\d+(?:\.\d+){0,2})*", value):
            return form.format(value)
    found = _IMPLEMENTED_IN.match(fields.get("status", "").strip("*` "))
    return found["release"] if found else ""
