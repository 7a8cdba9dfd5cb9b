"""Which of the docs' concepts explain each subsystem: a subsystem page leads to the guide pages that say how
its part works, and a guide page to the subsystems whose code does it. A concept explains a subsystem when the
code it names is defined there, weighed by what it is about: a symbol its name or its pages' place names
(`subject_symbols`: huma's "Middleware" → `Middlewares`) counts for SUBJECT_WEIGHT, any other for one. A
subsystem weighing at least two explains it, or one when the page names no more than two symbols in all and
no other subsystem weighs more; never one weighing half the heaviest or less.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from generator.repo.docs.model import DocConcept
from generator.repo.docs.specific import subject_symbols
from generator.repo.model import ShardAnalysis

SHARD_CONCEPTS = 3  # guide pages a subsystem page leads to, the ones naming most of its code first
SUBJECT_WEIGHT = 3  # a symbol a concept is about outweighs the setup its examples share
# a migration guide names the old API and the new, so it names much code; it says what changed, not how the
# part works, and comes after the pages that do (apispec's "Upgrading to Newer Releases", 19 repositories)
_MIGRATION = re.compile(r"migrat|upgrad", re.IGNORECASE)


def shard_concepts(concepts: Sequence[DocConcept], landed: Sequence[ShardAnalysis]) -> dict[int, list[int]]:
    """Shard index → the 1-based places (in `concepts`) of the concepts explaining it, best first: the most
    of the shard's code weighed, then the docs' own order; migration guides last. Every concept about the
    shard's code is kept, and SHARD_CONCEPTS of those only naming it: a page about `Document` leads there
    however many other pages name more of its code."""
    home = {path: analysis.index for analysis in landed for path in analysis.shard.files}
    ranked: dict[int, list[tuple[bool, int, int, bool]]] = {}
    for place, concept in enumerate(concepts, 1):
        symbols = {(s.name, s.path): s for s in concept.symbols}.values()
        subject = {(s.name, s.path) for s in subject_symbols(concept)}
        about = {home[path] for _, path in subject if path in home}
        weight = Counter[int]()
        for s in symbols:
            if s.path in home:
                weight[home[s.path]] += SUBJECT_WEIGHT if (s.name, s.path) in subject else 1
        if not weight:
            continue
        heaviest = max(weight.values())
        # one symbol of a shard is what a page is about only when the page names hardly anything else, in
        # any subsystem or none: a FAQ naming a dozen symbols across the code is about none of them, and
        # huma's Response Errors (`ErrorModel`, `StatusError` … in error.go) is not about the Adapters its
        # example's one `humachi.New` is in
        few = len(symbols) <= 2
        migration = any(_MIGRATION.search(text) for text in (concept.name, *(p.path for p in concept.pages)))
        for shard, weighed in weight.items():
            if (weighed >= 2 or (few and weighed == heaviest)) and 2 * weighed > heaviest:
                ranked.setdefault(shard, []).append((migration, -weighed, place, shard in about))
    return {shard: _leading(sorted(found)) for shard, found in ranked.items()}


def _leading(found: Sequence[tuple[bool, int, int, bool]]) -> list[int]:
    """The places of the concepts about the shard's code and of the first SHARD_CONCEPTS others, in order."""
    others = [place for *_, place, about in found if not about][:SHARD_CONCEPTS]
    return [place for *_, place, about in found if about or place in others]
