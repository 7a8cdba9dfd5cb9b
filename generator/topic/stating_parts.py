"""The parts of a document where it states its subject (its lead, its summary, its design) and those
aside from it (its motivation, limits, open questions); the text outside the alternatives it weighed."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .heading_facets import path_facet_sets
from .headings import decision_record, design_proposal, section_facets
from .section_tree import HEADING_LINE, text_sections

# the parts of a document that state what its subject is, in the order a definition is looked for there
STATING_PARTS = ("lead", "summary", "design")


# the part of a section naming another facet (its motivation, limits, alternatives, state, open questions,
# history): the problem a document solves or what it leaves open, never what its subject is
ASIDE = "aside"


def stating_parts(blocks: Sequence[str]) -> list[str]:
    """Per block of a document (its paragraphs and headings, in order), the part it stands in: "lead" (under
    its title, before any section), "summary" (a section summing the document up: "Abstract", "Summary",
    "Introduction"), "design" (a section stating the design: "Proposal", "Proposed Enhancement", "Detailed
    design"), ASIDE (a section naming another facet: the problem the document solves, its motivation, limits,
    alternatives, the state of the work, its open questions) or "" (a heading, a section naming no facet). A
    subsection naming no facet stands in its parent's part
    ("### Adding an `id` field" under "## Proposed Enhancement" is design; "### Scope" under "## Problem"
    is not). A subsection of a section naming another facet stands in that section whatever its own heading
    names: "#### Shared abstractions and implementation for the entire stack" under "## Scenarios and User
    Experience" is a scenario, "### Subtest semantics" under "## Rationale" a reason, not the design."""
    found: list[str] = []
    headings = [m.group(2) for b in blocks if (m := _heading_of(b))]
    record, proposal = decision_record(headings), design_proposal(headings)
    part, titled = "lead", False
    enclosing: list[tuple[int, str, bool]] = []  # level, part, whether it names a facet other than what/how
    for block in blocks:
        match = _heading_of(block)
        if match is None:
            found.append(part)
            continue
        found.append("")
        level, heading = len(match.group(1)), match.group(2).strip()
        if level == 1 and not titled and part == "lead":
            titled = True  # the document's title: its lead follows it
            continue
        enclosing = [(lv, p, other) for lv, p, other in enclosing if lv < level]
        facets = section_facets(heading, record=record, proposal=proposal)
        if _BEHAVIOUR.search(heading):
            facets = set()  # "#### Server behaviour": what a party does, no statement of what the subject is
        if any(other for _, _, other in enclosing):
            part = ASIDE
        elif not facets:
            part = enclosing[-1][1] if enclosing else ""
        else:
            part = ("summary" if "what" in facets else "design") if not facets - {"what", "how"} else ASIDE
        enclosing.append((level, part, bool(facets - {"what", "how"})))
    return found


_BEHAVIOUR = re.compile(r"(?<![A-Za-z])behaviou?r(?![A-Za-z])", re.IGNORECASE)


def _heading_of(block: str) -> re.Match[str] | None:
    return None if block.startswith(("```", "~~~")) else HEADING_LINE.match(block.partition("\n")[0])


def outside_alternatives(text: str, title: str = "") -> str:
    """A stored text without the sections its heading path frames as alternatives ("### Option 2" under "##
    Considered Options", "## Rejected ideas"): what the document says its subject is never comes from an
    option it weighed."""
    sections = text_sections(text)
    kept = [
        section
        for section, facets in zip(sections, path_facet_sets(sections, title), strict=True)
        if "alternatives" not in facets
    ]
    if len(kept) == len(sections):
        return text
    return "\n\n".join(
        "\n\n".join([f"{'#' * s.level} {s.heading}", *s.blocks] if s.heading else s.blocks) for s in kept
    )
