"""Which of the docs' concepts explain each subsystem: a subsystem page leads to the guide pages that say how
its part works, and a guide page to the subsystems whose code does it. A concept explains a subsystem when the
code it names is defined there — at least two of its symbols, or one when the page names no more than two
in all and no other subsystem holds more of them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from generator.repo.docs.model import DocConcept
from generator.repo.model import ShardAnalysis

SHARD_CONCEPTS = 3  # guide pages a subsystem page leads to, the ones naming most of its code first
# a migration guide names the old API and the new, so it names much code; it says what changed, not how the
# part works, and comes after the pages that do (apispec's "Upgrading to Newer Releases", 19 repositories)
_MIGRATION = re.compile(r"migrat|upgrad", re.IGNORECASE)


def shard_concepts(concepts: Sequence[DocConcept], landed: Sequence[ShardAnalysis]) -> dict[int, list[int]]:
    """Shard index → the 1-based places (in `concepts`) of the concepts explaining it, best first: most of
    the shard's symbols named, then the docs' own order; migration guides last."""
    home = {path: analysis.index for analysis in landed for path in analysis.shard.files}
    ranked: dict[int, list[tuple[bool, int, int]]] = {}
    for place, concept in enumerate(concepts, 1):
        named = Counter(
            home[s.path] for s in {(s.name, s.path): s for s in concept.symbols}.values() if s.path in home
        )
        # one symbol of a shard is what a page is about only when the page names hardly anything else: a
        # FAQ naming a dozen symbols across the code is about none of them
        few = sum(named.values()) <= 2
        migration = any(_MIGRATION.search(text) for text in (concept.name, *(p.path for p in concept.pages)))
        for shard, count in named.items():
            if count >= 2 or (few and count == max(named.values())):
                ranked.setdefault(shard, []).append((migration, -count, place))
    return {shard: [place for *_, place in sorted(found)[:SHARD_CONCEPTS]] for shard, found in ranked.items()}
