"""A source's standing: whether the document it stores is still in force (a rejected, withdrawn or superseded
proposal is not) and how new it is, from the `status` and `date` its header or front matter states.

The report labels a source that is no longer in force, never lets one answer what the subject is or how it
works, and answers "current state" from the newest sources.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .workspace import RawSource

# statuses that say the document does not describe what is (first word of the stated status, lowercased)
INACTIVE = frozenset(
    "rejected withdrawn superseded deferred postponed abandoned declined obsolete replaced retired".split()
)
# facets a document no longer in force must not answer: it would describe what never was or no longer is
CURRENT_ONLY = frozenset({"what", "how", "use", "limits", "current"})
NEWEST_SHARE = 3  # "current state" reads the newest third of the dated sources (at least one)
_DATE = re.compile(r"(\d{4})(?:[-/.](\d{1,2}))?(?:[-/.](\d{1,2}))?")
_MONTHS = {m: n for n, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})[- ]([A-Za-z]{3})[A-Za-z]*[- ,]+(\d{4})")


def status_word(status: str) -> str:
    """The stated status reduced to its first word ("Superseded by PEP 3333" → "superseded")."""
    words = re.findall(r"[a-z]+", status.lower())
    return words[0] if words else ""


def inactive(source: RawSource) -> bool:
    return status_word(source.status) in INACTIVE


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


def proposals_only(sources: Sequence[RawSource]) -> bool:
    """Whether the source most about the subject is itself not in force: every proposal for it was deferred,
    rejected or withdrawn, and those proposals are the only account of it there is."""
    judged = [s for s in sources if s.relevance is not None]
    return bool(judged) and inactive(max(judged, key=lambda s: s.relevance or 0.0))


def usable_for(facet: str, sources: Sequence[RawSource]) -> Callable[[RawSource], bool]:
    """Which sources may answer a sub-question of `facet`. A document no longer in force answers none of
    CURRENT_ONLY, unless the subject has nothing else (`proposals_only`): then it answers all but "current
    state", labelled with its status wherever it is quoted."""
    recent = newest([s for s in sources if not inactive(s)]) if facet == "current" else set()
    barred = CURRENT_ONLY if not proposals_only(sources) else frozenset({"current"})

    def usable(source: RawSource) -> bool:
        if facet in barred and inactive(source):
            return False
        return facet != "current" or source.id in recent

    return usable
