"""The facets a section answers by its headings: its own, the table's, those of the sections it stands in
(a section on why, limits or alternatives frames what stands under it)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .headings import (
    ASIDE_ROLES,
    aside_facets,
    decision_record,
    design_proposal,
    lists_reference,
    names_option,
    section_facets,
    weighing,
)
from .implementation_sections import design_implementations
from .section_tree import TextSection
from .sentences import items_read_alone, list_parts

# the facets of a section that frames the design rather than states it: what stands under "## Rationale",
# "## Compatibility" or "## Alternatives" answers that, whatever its own heading names ("current" is not one:
# "### Changes to the parser" under "## Detailed design" is the design)
FRAMING_FACETS = frozenset({"motivation", "limits", "alternatives"})


# the facets the subject's own account answers from its sections headed for them, whatever its title leaves out
# of the subject's name ("# Detailed design" in "Task builder" for task computation expressions)
ACCOUNT_FACETS = FRAMING_FACETS | {"how"}


def path_facets(
    headings: Sequence[str], title: str = "", *, proposal: bool = False, designs: Collection[str] = ()
) -> set[str]:
    """The outline facets the sections a passage stands in say they answer: its own section's heading's, else
    the nearest enclosing one's that names any ("### Special-casing conditional statements" under "# Rejected
    alternative proposals"). Anything under an alternatives section is an alternative, whatever its own
    heading says ("### Kotlin-like `by` syntax" under "## Alternatives considered" is not how it works), and
    anything under a section framing the design is that frame's ("### A decade of experience shows the cost
    of the current semantics" under "## Rationale and Compatibility" is rationale, not semantics). The
    document's own title is no section of it; a bare "Pros"/"Cons" heading weighs the one above it
    (`own_facets`); an "Implementation" heading among `designs` (implementation_sections.py) says how."""
    path = [h for h in headings if not title or h.strip() != title.strip()]
    named = [
        {"how"} if h in designs else own_facets(h, path[n - 1] if n else "", proposal=proposal)
        for n, h in enumerate(path)
    ]
    own = named[-1] if named else set()
    return framed(own, named[:-1]) or next((found for found in reversed(named) if found), set())


def own_facets(heading: str, parent: str, *, record: bool = False, proposal: bool = False) -> set[str]:
    """The facets a heading names (`section_facets`), a bare "Pros"/"Cons" heading read with the heading of the
    section it stands in (`parent`, "" for the document's title or none): under an option a document weighed
    ("#### Considered option: Define mesh-auth-mode via daemon config", "### Option 1: Using CRD approach instead
    of ConfigMaps", `names_option`) it is that option's case, an alternative; under the design itself ("##
    Proposal", "### Overview") its pros say why and its cons are its limits."""
    weighs = weighing(heading)
    if not weighs:
        return section_facets(heading, record=record, proposal=proposal)
    if names_option(parent, record=record):
        return {"alternatives"}
    return {"motivation"} if weighs == "for" else {"limits"}


def section_own_facets(
    section: TextSection, parent: str, *, record: bool = False, proposal: bool = False, design: bool = False
) -> set[str]:
    """The facets a section's heading names (`own_facets`), else those of its content (`table_facets`); an
    "Implementation" section saying how its design works (`design`, implementation_sections.py) says how."""
    if design:
        return {"how"}
    return own_facets(section.heading, parent, record=record, proposal=proposal) or table_facets(section)


def table_facets(section: TextSection) -> set[str]:
    """{"use"} for a section holding nothing but a reference table's rows under a heading naming what they
    list ("### Form Attributes", "### Form Methods"): how its subject is used; else none."""
    lists = [(lead.strip().strip("*"), items) for lead, items in map(list_parts, section.blocks)]
    reference = bool(lists) and all(
        items and lists_reference(section.heading, label, items_read_alone(label, items))
        for label, items in lists
    )
    return {"use"} if reference else set()


def framed(own: set[str], enclosing: Sequence[set[str]]) -> set[str]:
    """A section's facets read with those of the sections it stands in (`enclosing`, top down): under an
    alternatives section it is an alternative, under a section framing the design ("## Rationale and
    Compatibility") it is that frame's, whatever its own heading names ("### A decade of experience shows the
    cost of the current semantics" is no "how"); else its own. A heading naming drawbacks and alternatives at
    once ("## Drawbacks, Alternatives and Unknowns") holds both: its "Unknowns include the economic
    parameterisations:" is a limit; what stands under it is an alternative."""
    named = [*enclosing, own]
    if any("alternatives" in found for found in enclosing):
        return {"alternatives"}
    if "alternatives" in own:
        return own & {"alternatives", "limits"}
    aside = set().union(*named) & ASIDE_ROLES  # "### Backwards Compatibility" under "## History": history
    if aside:
        return set().union(*(aside_facets(role) for role in aside))
    return (set().union(*named) & FRAMING_FACETS) or own


def path_facet_sets(sections: Sequence[TextSection], title: str = "") -> list[set[str]]:
    """Each section's facets read with those of the sections it stands in (`framed`): the heading path, any
    level ("### Limitations" under "## Overview" is a limits section; anything under "## Alternatives" is an
    alternative). The document's own title frames nothing."""
    found: list[set[str]] = []
    enclosing: list[tuple[int, set[str]]] = []
    parents: list[tuple[int, str]] = []  # the headings it stands in, the document's title aside
    record = decision_record(s.heading for s in sections)
    proposal = design_proposal(s.heading for s in sections)
    designs = design_implementations(sections)
    for n, section in enumerate(sections):
        enclosing = [(level, named) for level, named in enclosing if level < section.level]
        parents = [(level, heading) for level, heading in parents if level < section.level]
        parent = parents[-1][1] if parents else ""
        says = section_own_facets(section, parent, record=record, proposal=proposal, design=n in designs)
        facets = framed(says, [named for _, named in enclosing])
        found.append(facets)
        if section.heading and section.level > 1:  # a top heading is the document's title, or a part of it
            parents.append((section.level, section.heading))
        if facets and section.heading and not (section.level == 1 and section.heading == title):
            enclosing.append((section.level, facets))
    return found
