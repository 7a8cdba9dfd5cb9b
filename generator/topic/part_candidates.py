"""The passages answering each question a topic asks one after another (topic/parts.py): the rows
describing the names a part asks about, the sections treating its facet, those naming what it asks."""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Sequence

from .aspect_candidates import aspect_sections
from .candidate import Candidate
from .judge import RelevanceJudge
from .parts import part_facets, part_words, question_parts
from .section_candidates import SECTION_FACET_HITS, section_candidate, section_candidates
from .section_tree import SectionPassage, text_sections
from .sentences import MAX_ITEMS, list_parts
from .workspace import RawSource

PART_PASSAGES = 1  # passages answering one part of a topic asking two questions: its best section opening


def part_candidates(
    topic: str,
    answering: Sequence[RawSource],
    defining_pages: Sequence[RawSource],
    judge: RelevanceJudge,
    *,
    stored: Sequence[RawSource],
    said: frozenset[str],
    account: Collection[str],
    opening: str,
) -> list[Candidate]:
    """The passages answering each question a topic asks one after another (topic/parts.py), in turn: the
    openings of the sections treating the part's facet ("how do they put data into committed capacity
    sectors": Snap Deals' "One-messages Update Protocol:" under "##### One-messages Update Protocol"), then the
    sections of the defining pages naming what the part asks about ("Preload 和 Joins 有什么区别": "Preload loads
    the association data in a separate query, Join Preload will loads association data using left join" under
    "#### Joins 预加载"). [] for a topic asking one question."""
    per_part = []
    for part in question_parts(topic):
        found = rows_defining(answering, named_identifiers(part))
        found += [
            candidate
            for facet in part_facets(part)
            for candidate in section_candidates(
                answering,
                facet,
                judge,
                stored=stored,
                said=said,
                account=account,
                opening=opening,
                shown_first=facet == "use",
            )
        ]
        words = part_words(part, topic)
        found += aspect_sections(defining_pages, words, judge, said) if words else []
        per_part.append(found[:PART_PASSAGES])
    # each part's best first, so that no part is left unanswered by the passages of another
    return [c for row in itertools.zip_longest(*per_part) for c in row if c is not None]


# a name written as code: an inner capital ("PrepareProposal", "checkPermission"), not an acronym ("ABCI")
_IDENTIFIER = re.compile(r"\b[A-Za-z][a-z0-9]+[A-Z][A-Za-z0-9]*\b")


# a reference list's row opening on the name it describes ("PrepareProposal: It allows the block proposer…")
_ROW_TERM = re.compile(r"^\W*([\w.()]+?)\W*[:：]\s+\S")


def named_identifiers(text: str) -> set[str]:
    """The names written as code a question asks about ("PrepareProposal", "ProcessProposal"), lowercased."""
    return {name.lower() for name in _IDENTIFIER.findall(text)}


def rows_defining(sources: Sequence[RawSource], names: Collection[str]) -> list[Candidate]:
    """The rows of the stored reference lists that describe the names asked about, each list's rows quoted
    under its lead-in, else under its section's heading: "PrepareProposal: It allows the block proposer to
    perform application-dependent work…" and "ProcessProposal: …" under "##### Consensus/block execution
    methods" say what the two methods do. [] when no name is asked."""
    found: list[Candidate] = []
    for source in sources if names else ():
        for section in text_sections(source.text):
            for block in section.blocks:
                lead, items = list_parts(block)
                rows = tuple(
                    item for item in items if (term := _ROW_TERM.match(item)) and term[1].lower() in names
                )[:MAX_ITEMS]
                label = lead.strip() if lead.strip().endswith((":", "：")) else f"{section.heading}:"
                if rows and label != ":":
                    passage = SectionPassage(label, (label, *rows), section.heading, items=rows)
                    found.append(section_candidate(passage, source.id, SECTION_FACET_HITS, len(found)))
    return found
