"""Which stored sections treat a facet of the outline, and the passages that open them.

A document says itself which of its sections answers what: `## Motivation` answers why, `## Detailed design`
and `## Reference-level explanation` how it works, `#### Alternative approaches considered` what else was
weighed, and a section titled after the subject ("POSIX-platform Hooks" in a configuration reference) what
it is and how it works. The analyst quotes those sections' openings before any passage found by its words
alone, so a report says "the stored sources do not answer" only when no stored section does.

The sections treating a facet are chosen here (`treating`); the modules beside this one hold the rest:
section_tree.py (a text's sections), heading_facets.py (the facets a heading and its parents name),
stating_parts.py (where a document states its subject), subject_headings.py (headings naming the subject),
opening_passages.py and section_examples.py (the passages and examples a section opens with) and
passage_headings.py (what the headings a passage stands under say of it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from .content_facets import treating_blocks
from .heading_facets import ACCOUNT_FACETS, framed, path_facet_sets, section_own_facets
from .headings import FRAME, decision_record, design_proposal, is_status_heading, section_facets, unnumbered
from .implementation_sections import design_implementations
from .limits import states_own_limit
from .opening_passages import PASSAGES_PER_SECTION
from .section_tree import TextSection, by_substance, old_sections, text_sections
from .subject_headings import Forms, WordsOf, completing_headings, names_subject, subject_headings


def treating(
    text: str,
    facet: str,
    concepts: Sequence[set[str]],
    words_of: WordsOf,
    *,
    own_headings: bool,
    title: str = "",
    account: bool = False,
    forms: Forms = (),
) -> Iterator[tuple[TextSection, int]]:
    """The sections of `text` that treat `facet`, each with how many of its opening passages to quote. A
    section titled after the subject answers "what" (its opening) and "how" (its opening, and the opening of
    each of its subsections: "### Prestart" under "## POSIX-platform Hooks"). A section whose heading names
    the facet answers it only in a document about the subject (`own_headings`): a "Motivation" elsewhere is
    the motivation of that document's own subject; in a document about something larger whose section is
    titled after the subject ("Configuration" and its "POSIX-platform Hooks"), only the headings inside
    that section: the "### Example" under "Specification version" is no example of hooks. The subject's own
    `account` (the defining document the report opens from) titled with part of the subject's name is about
    the subject throughout: its sections named after the subject are parts of its design ("### Resolved
    derivations" in "Content-addressed paths"), and its "# Motivation", "# Detailed design", "# Drawbacks" and
    "# Alternatives" say why, how it works, its limits and what else was weighed ("# Detailed design" in "Task
    builder" for task computation expressions; a design opening on the model it replaces is quoted after that
    model, `opening_passages`). One whose title names none of it ("Configuration") is still about something
    larger. In a document about the subject whose title names one of its concepts in part (`forms`: "Form 表单"
    for 表单校验), the sections naming the rest (`completing_headings`) say how it is used and works before
    any section headed only for the facet."""
    sections = text_sections(text)
    completing = completing_headings(sections, forms, words_of, title) if own_headings else []
    if facet in {"use", "how"}:
        yield from ((section, PASSAGES_PER_SECTION) for section in completing)
    record = decision_record(s.heading for s in sections)
    proposal = design_proposal(s.heading for s in sections)
    in_other_words = (
        account and facet in ACCOUNT_FACETS and bool(set(words_of(title)) & set().union(*concepts))
    )
    larger = not in_other_words and bool(subject_headings(sections, concepts, words_of, title))
    # a document about the subject with no section saying how it works says it section by section
    sections_say_how = (
        own_headings
        and facet == "how"
        and not any("how" in section_facets(s.heading, proposal=proposal) for s in sections)
    )
    marked = old_sections(sections)  # no longer in force: what they say treats nothing now
    designs = design_implementations(sections)  # "## Implementation" holding the design: how it works
    subject_level = 0  # the level of the subject's section the current one stands in (0: none)
    design_level = 0  # the level of the "how" section ("## Proposal", "## Detailed design") it stands in
    facet_level = 0  # the level of the section treating `facet` it stands in
    # the sections it stands in that name a facet, (level, facets): "### 1.3. Content Modes" stands in
    # "## 1. Introduction"
    enclosing: list[tuple[int, set[str]]] = []
    unlabelled: list[
        TextSection
    ] = []  # sections naming no facet, in a document saying how section by section
    parents: list[tuple[int, str]] = []  # the headings it stands in, the document's title aside
    for n, section in enumerate(sections):
        if not section.heading and own_headings and not larger and facet in {"use", "how"}:
            # a text with no heading over its account ("Hertz 支持优雅退出，优雅退出过程如下：" and the steps) says
            # how it works or is used by what it says (`content_facets`)
            treated = treating_blocks("", section.blocks, facet)
            if treated:
                yield replace(section, blocks=treated), 1
            continue
        if not section.heading or (facet in {"use", "how"} and section in completing):
            continue
        enclosing = [(level, named) for level, named in enclosing if level < section.level]
        parents = [(level, heading) for level, heading in parents if level < section.level]
        inherited = enclosing[-1][1] if enclosing else set()
        parent = parents[-1][1] if parents else ""
        says = section_own_facets(section, parent, record=record, proposal=proposal, design=n in designs)
        facets = framed(says, [named for _, named in enclosing])
        if facets and not (section.level == 1 and section.heading == title):
            enclosing.append((section.level, facets))
        if section.level > 1:  # a top heading is the document's title, or a part of it
            parents.append((section.level, section.heading))
        if subject_level and section.level <= subject_level:
            subject_level = 0
        if design_level and section.level <= design_level:
            design_level = 0
        if facet_level and section.level <= facet_level:
            facet_level = 0
        own = own_headings and (not larger or bool(subject_level))
        if own and facet == "how" and design_level and not facets - {"how"}:
            yield section, 1  # "### The GOTOOLCHAIN environment variable" under "## Proposal"
            continue
        if own and facet_level and not facets - {facet}:
            # "##### Enforcement" under "#### Alternative approaches considered"; a summary's subsections are its
            # design in detail, not what the subject is ("### High-level APIs" under "## Overview")
            if facet != "what":
                yield section, 1
            continue
        if own and not design_level and "how" in facets and not facets - {"how", "what"}:
            design_level = section.level
        if section.level == 1 and set(words_of(section.heading)) == set(words_of(title)):
            continue  # the document's own title: its opening is the document's (`definition` quotes it)
        # in a document titled after the subject every section is the subject's: one naming a word of it
        # ("1.2. Relation to HTTP" in "HTTP Protocol Binding for CloudEvents") is not its definition
        if larger and not subject_level and not facets - {"what", "how"}:
            if names_subject(section.heading, concepts, words_of, title):
                subject_level = section.level
                if facet in {"what", "how"}:
                    yield section, PASSAGES_PER_SECTION
                continue
        if subject_level and facet == "how" and not facets - {"how"}:
            yield section, 1
        elif (
            own
            and facet in facets
            and (facet != "current" or is_status_heading(unnumbered(section.heading.strip())))
        ):
            facet_level = section.level  # its subsections treat the facet too
            yield section, PASSAGES_PER_SECTION  # "current": a status section, not "No Changes to Scoping"
        elif (
            own
            and not facets | inherited
            and not FRAME.search(unnumbered(section.heading.strip()))
            and section not in marked
            and (treated := treating_blocks(section.heading, section.blocks, facet))
        ):
            # a section headed by the subject's own term ("#### Deposit", "#### 服务端中间件") treats the facet its
            # opening does: a definition of its term, a process and its steps, what one must do to act — in
            # those blocks, quoted alone
            yield replace(section, blocks=treated), 1
        elif (
            sections_say_how
            and not facets | inherited
            and not FRAME.search(unnumbered(section.heading.strip()))
        ):
            unlabelled.append(section)
    for section in by_substance(unlabelled, sections):
        yield section, 1


def stating_own_limits(text: str, title: str = "") -> list[TextSection]:
    """The sections of a document where it says what it does not handle, outside any section on limits
    ("This specification does not directly handle the 'diamond problem', …" under "##### Multi-chain notes"):
    a limit of the subject it defines. A section framing another facet speaks of something else there: the
    design a motivation replaces, an alternative weighed, the state of the work."""
    sections = text_sections(text)
    return [
        section
        for section, facets in zip(sections, path_facet_sets(sections, title), strict=True)
        if not facets - {"what", "how", "use"} and any(states_own_limit(block) for block in section.blocks)
    ]
