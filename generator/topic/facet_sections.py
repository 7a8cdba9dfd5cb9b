"""Which stored sections treat a facet of the outline, and the passages that open them.

A document says itself which of its sections answers what: `## Motivation` answers why, `## Detailed design`
and `## Reference-level explanation` how it works, `#### Alternative approaches considered` what else was
weighed, and a section titled after the subject ("POSIX-platform Hooks" in a configuration reference) what
it is and how it works. The analyst quotes those sections' openings before any passage found by its words
alone, so a report says "the stored sources do not answer" only when no stored section does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from ..documents.standing import marked_old
from ..text.pointers import announces, continues
from ..text.promotion import community_heading, promotes
from ..text.sentences import sentences as split_all
from .content_facets import treating_blocks
from .headings import (
    ASIDE_ROLES,
    FRAME,
    aside_facets,
    decision_record,
    design_proposal,
    is_status_heading,
    lists_reference,
    names_option,
    section_facets,
    unnumbered,
    weighing,
)
from .limits import states_caveat, states_own_limit
from .sentences import (
    _FENCE,
    _SENTENCE_END,
    MAX_CODE,
    MAX_PASSAGE,
    RUN_IN_LABEL,
    caption_line,
    clean,
    code_examples,
    corrects,
    introduces_old_state,
    is_question,
    items_read_alone,
    lead_in_stands,
    leads_out_of_list,
    leans_back,
    list_parts,
    list_quote,
    naming_shown,
    points_ahead,
    points_at_shown,
    quotable,
    speaks_of_shown_code,
    text_blocks,
    with_lead_ins,
)

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$")
# the label line a list right under its heading carries ("**Non-goals:**"): the heading, not a lead-in
_HEADING_LABEL = re.compile(r"^\*\*[^*\n]+[:：]\*\*$")
PASSAGES_PER_SECTION = 2  # a section's opening paragraphs: what it says first is what it is about


@dataclass(frozen=True)
class TextSection:
    """One section of a stored text: its heading, its depth, and its blocks (paragraphs, fenced code) as
    stored, up to the next heading of any level."""

    heading: str
    level: int
    blocks: tuple[str, ...]


@dataclass(frozen=True)
class SectionPassage:
    """A passage that opens a section treating a facet: whole paragraphs, or a lead-in with its example."""

    text: str
    parts: tuple[str, ...]  # its sentences, as `clean` gives them
    heading: str
    code: str = ""
    items: tuple[str, ...] = ()  # the list the passage introduces (sentences.list_quote)


def text_sections(text: str) -> list[TextSection]:
    """A stored text cut at its `#` heading lines (a heading inside a fenced block is code, not a heading)."""
    found: list[TextSection] = []
    heading, level, blocks = "", 0, []
    for block in text_blocks(text):
        first, _, rest = block.partition("\n")
        match = _HEADING.match(first) if not block.startswith(("```", "~~~")) else None
        if match is None:
            blocks.append(block)
            continue
        if heading or blocks:
            found.append(TextSection(heading, level, tuple(blocks)))
        heading, level, blocks = match.group(2).strip(), len(match.group(1)), []
        if rest.strip():
            blocks.append(rest.strip())
    if heading or blocks:
        found.append(TextSection(heading, level, tuple(blocks)))
    return found


def with_example_below(sections: Sequence[TextSection], n: int) -> TextSection:
    """Section `n`, with the example its closing lead-in introduces when that example opens its first
    subsection ("…Join Preload will loads association data using left join, for example:" closing "#### Joins
    预加载", and "##### Generics API" opening on the code): the lead-in is quoted with what it introduces."""
    section = sections[n]
    below = sections[n + 1] if n + 1 < len(sections) else None
    if below is None or below.level <= section.level or not section.blocks or not below.blocks:
        return section
    if not section.blocks[-1].rstrip().endswith((":", "：")) or not _FENCE.match(below.blocks[0]):
        return section
    return replace(section, blocks=(*section.blocks, below.blocks[0]))


def old_sections(sections: Sequence[TextSection]) -> set[TextSection]:
    """The sections no longer in force, as their headings or opening lines mark them (`marked_old`: "#### Legacy
    Semantics", "# Migration" opening on "NOTE: OBSOLETE"), and every section standing in one."""
    found: set[TextSection] = set()
    marked_at = 0  # the level of the marked section the current one stands in (0: none)
    for section in sections:
        if marked_at and section.level > marked_at:
            found.add(section)
            continue
        marked_at = 0
        if section.heading and marked_old(section.heading, section.blocks[0] if section.blocks else ""):
            found.add(section)
            marked_at = section.level
    return found


# the facets of a section that frames the design rather than states it: what stands under "## Rationale",
# "## Compatibility" or "## Alternatives" answers that, whatever its own heading names ("current" is not one:
# "### Changes to the parser" under "## Detailed design" is the design)
FRAMING_FACETS = frozenset({"motivation", "limits", "alternatives"})
# the facets the subject's own account answers from its sections headed for them, whatever its title leaves out
# of the subject's name ("# Detailed design" in "Task builder" for task computation expressions)
ACCOUNT_FACETS = FRAMING_FACETS | {"how"}


def path_facets(headings: Sequence[str], title: str = "", *, proposal: bool = False) -> set[str]:
    """The outline facets the sections a passage stands in say they answer: its own section's heading's, else
    the nearest enclosing one's that names any ("### Special-casing conditional statements" under "# Rejected
    alternative proposals"). Anything under an alternatives section is an alternative, whatever its own
    heading says ("### Kotlin-like `by` syntax" under "## Alternatives considered" is not how it works), and
    anything under a section framing the design is that frame's ("### A decade of experience shows the cost
    of the current semantics" under "## Rationale and Compatibility" is rationale, not semantics). The
    document's own title is no section of it; a bare "Pros"/"Cons" heading weighs the one above it
    (`own_facets`)."""
    path = [h for h in headings if not title or h.strip() != title.strip()]
    named = [own_facets(h, path[n - 1] if n else "", proposal=proposal) for n, h in enumerate(path)]
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
    section: TextSection, parent: str, *, record: bool = False, proposal: bool = False
) -> set[str]:
    """The facets a section's heading names (`own_facets`), else those of its content (`table_facets`)."""
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


WordsOf = Callable[[str], Iterable[str]]  # the run's tokenizer (relevance.tokens), so spellings match


def names_subject(heading: str, concepts: Sequence[set[str]], words_of: WordsOf, title: str = "") -> bool:
    """Whether a section is titled after the subject: its heading names one of the topic's concepts (any
    spelling) and, with the document's title, every one of them ("Namespaces" in "Linux Container
    Configuration" for "Linux namespaces"; not "POSIX-platform Mounts" for "POSIX platform hooks")."""
    heading_words, title_words = set(words_of(heading)), set(words_of(title))
    named = [bool(forms & heading_words) for forms in concepts]
    return any(named) and all(n or forms & title_words for n, forms in zip(named, concepts, strict=True))


def subject_headings(
    sections: Sequence[TextSection], concepts: Sequence[set[str]], words_of: WordsOf, title: str
) -> set[str]:
    """The headings of the sections titled after the subject in a document about something larger (its
    title does not name every concept of the subject): "POSIX-platform Hooks" in "Configuration"; none
    in a document titled after the subject. A section is read with the headings it stands under: an option
    an ADR weighed ("### `format` remains an annotation keyword" under "## Considered Options") is an
    alternative, not the subject's own section."""
    title_words = set(words_of(title))
    if not title or all(forms & title_words for forms in concepts):
        return set()
    return {
        s.heading
        for s, facets in zip(sections, path_facet_sets(sections, title), strict=True)
        if s.heading and not facets - {"what", "how"} and names_subject(s.heading, concepts, words_of, title)
    }


Forms = Sequence[Sequence[tuple[str, ...]]]  # per concept of a topic, its spellings, each as its words


def headings_naming_whole(
    sections: Sequence[TextSection], forms: Forms, words_of: WordsOf, title: str
) -> set[str]:
    """The headings naming the subject whole — every concept in one of its spellings, all its words ("表单验证")
    — in a document whose title names it only in part ("Form 表单" for 表单验证: a word of it, not all). That
    section is the subject's own: Element's form.md says what form validation is under "### 表单验证", and
    a report answered from "典型表单" and a W3C sentence quoted there."""

    title_words = set(words_of(title))
    in_part = any(set(form) & title_words for concept in forms for form in concept)
    if not title or not in_part or names_whole(title, forms, words_of):
        return set()
    return {s.heading for s in sections if s.heading and names_whole(s.heading, forms, words_of)}


def completing_headings(
    sections: Sequence[TextSection], forms: Forms, words_of: WordsOf, title: str
) -> list[TextSection]:
    """The sections whose heading names what the document's title leaves out of a concept of the subject it
    names in part: "配置初始值与校验规则", "自定义校验(Form 级别)" and "静默校验" in "Form 表单" for Semi Form
    表单校验 (the title names 表单 of 表单 · 校验, each heading 校验). In a page on something larger they are the
    subject's own sections, where "使用 Form.Slot 放置自定义组件" is only a usage of the page's component."""
    title_words = set(words_of(title))
    left = [
        set(form) - title_words
        for concept in forms
        if not any(set(form) <= title_words for form in concept)
        for form in concept
        if len(form) > 1 and set(form) & title_words
    ]
    if not title or not left:
        return []
    return [s for s in sections if s.heading and any(rest <= set(words_of(s.heading)) for rest in left)]


def section_opening(
    sections: Sequence[TextSection], headings: set[str], forms: Forms, words_of: WordsOf
) -> SectionPassage | None:
    """The first prose passage of the first section of `headings` that has one: the first naming the subject
    whole when one does ("Form 组件提供了表单验证的功能，…" after the design line "在防止用户犯错的前提下，尽可能让用户
    更早地发现并纠正错误。")."""
    for section in sections:
        if section.heading in headings:
            prose = [p for p in opening_passages(section) if not p.code]
            naming = [p for p in prose if names_whole(p.text, forms, words_of)]
            if prose:
                return (naming or prose)[0]
    return None


def names_whole(text: str, forms: Forms, words_of: WordsOf) -> bool:
    """Whether `text` names every concept of the subject whole: one of its spellings, every word of it."""
    words = set(words_of(text))
    return all(any(set(form) <= words for form in concept) for concept in forms)


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
    return None if block.startswith(("```", "~~~")) else _HEADING.match(block.partition("\n")[0])


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


def path_facet_sets(sections: Sequence[TextSection], title: str = "") -> list[set[str]]:
    """Each section's facets read with those of the sections it stands in (`framed`): the heading path, any
    level ("### Limitations" under "## Overview" is a limits section; anything under "## Alternatives" is an
    alternative). The document's own title frames nothing."""
    found: list[set[str]] = []
    enclosing: list[tuple[int, set[str]]] = []
    parents: list[tuple[int, str]] = []  # the headings it stands in, the document's title aside
    record = decision_record(s.heading for s in sections)
    proposal = design_proposal(s.heading for s in sections)
    for section in sections:
        enclosing = [(level, named) for level, named in enclosing if level < section.level]
        parents = [(level, heading) for level, heading in parents if level < section.level]
        parent = parents[-1][1] if parents else ""
        says = section_own_facets(section, parent, record=record, proposal=proposal)
        facets = framed(says, [named for _, named in enclosing])
        found.append(facets)
        if section.heading and section.level > 1:  # a top heading is the document's title, or a part of it
            parents.append((section.level, section.heading))
        if facets and section.heading and not (section.level == 1 and section.heading == title):
            enclosing.append((section.level, facets))
    return found


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
    for section in sections:
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
        says = section_own_facets(section, parent, record=record, proposal=proposal)
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


def caveat_passages(section: TextSection, said: frozenset[str] = frozenset()) -> list[SectionPassage]:
    """A section's caveats as passages, wherever they stand in it: a paragraph opening on "注意：" or
    "Warning:", or a caveat's label with its points ("特别说明：" and its five points after a paragraph of links
    under "## 参数说明"), the list quoted whole with its label, as a section's own answer is."""
    found = []
    for block in _paragraphs_going_on(section.blocks):
        if not states_caveat(block):
            continue
        listed = list_quote(block, opening=True)
        lead, items = list_parts(block)
        if listed is not None:
            passage = SectionPassage(listed.text, listed.parts, section.heading, items=listed.items)
        elif not items and len(lead) <= MAX_PASSAGE:
            parts = tuple(clean(p) for p in split_all(lead))
            passage = SectionPassage(" ".join(parts), parts, section.heading)
        else:
            continue
        if passage.parts and not said.intersection(passage.parts):
            found.append(passage)
    return found


def by_substance(chosen: Sequence[TextSection], sections: Sequence[TextSection]) -> list[TextSection]:
    """`chosen` sections, those a document spends the most words on first, a subsection's words counting half
    its parent's ("3.1. Binary Content Mode" before "2.1. datacontenttype Attribute"): its substance."""
    sizes = subtree_sizes(sections)
    top = min((s.level for s in chosen), default=0)
    return sorted(chosen, key=lambda s: -sizes[id(s)] * 0.5 ** (s.level - top))


def subtree_sizes(sections: Sequence[TextSection]) -> dict[int, int]:
    """The characters each section holds with its subsections, by the section's id()."""
    sizes: dict[int, int] = {}
    for n, section in enumerate(sections):
        size = 0
        for inner in sections[n:]:
            if inner is not section and inner.level <= section.level:
                break
            size += sum(len(block) for block in inner.blocks)
        sizes[id(section)] = size
    return sizes


def opening_passages(
    section: TextSection,
    limit: int = PASSAGES_PER_SECTION,
    *,
    example_alone: bool = False,
    said: frozenset[str] = frozenset(),
    past_lists: bool = False,
    on_heading: bool = False,
    shown_first: bool = False,
) -> list[SectionPassage]:
    """The first `limit` quotable passages of a section: a prose paragraph whole, or a paragraph that
    introduces a code example ("…like this:") with the example. A paragraph opening with a reference back
    ("This…") is not quoted: what it refers to is not quoted with it — except, with `on_heading`, the
    section's first paragraph, which can lean only on its heading and its document's subject ("Several
    systems to do this already exist." under "### Prior Art"). With `example_alone`, a section that
    is only an example ("### Example" holding a configuration) is quoted as its example under its heading.
    A passage repeating a sentence `said` already (the report's definition) does not count: the section's
    next passage is quoted in its place. With `past_lists`, a list a lead-in introduces does not end the
    opening: the paragraph after it is the section's next passage (why, limits and alternatives live in their
    own sections only; a design section's lead-in introduces its algorithm, and what follows it is a note).
    The first block of a section on why, limits or alternatives, a lead-in with its list, is the section's own
    answer: it may lean on the heading ("This addresses the following use cases:" under "## Motivation") and
    is quoted whole up to MAX_OPENING_LIST. Outside why, limits and alternatives, a lead-in and list telling the model a design
    replaces ("the current Nix model … works (roughly) as follows:") is passed over."""
    found = _prose_openings(section, limit, said, past_lists, on_heading)
    example = opening_example(section.blocks) if shown_first else ""
    if example and not any(p.code == example for p in found):
        # a section opening on its example, asked how a thing is done: the example under its heading first
        # ("### 2、踢人下线" and its `StpUtil.kickout(10001)` calls; "### 3、权限校验", "然后就可以用以下 api 来鉴权了" and
        # its StpUtil.checkPermission calls), then what the section says after it
        lead = _standing_lead(section.blocks)
        if lead:  # "Memory Compiler/内存编译器，编译.java文件生成.class。" above `mc /tmp/Test.java` under "## 使用参考"
            shown = SectionPassage(" ".join(lead), lead, section.heading, example)
            return [shown, *[p for p in found if p.parts != lead][:limit]]
        caption = unnumbered(" ".join(_MARKUP.sub(" ", section.heading).split())).rstrip(":：")
        if caption:
            shown = SectionPassage(f"{caption}:", (f"{caption}:",), section.heading, example)
            return [shown, *found[:limit]]  # the example takes no place of the prose after it
    if not found and example_alone:
        example = _example_after(["", *section.blocks], 0)
        caption = unnumbered(" ".join(_MARKUP.sub(" ", section.heading).split()))
        if not example and section.blocks and example_caption(section.blocks[0]):
            example, caption = _example_after(list(section.blocks), 0), example_caption(section.blocks[0])
        caption = caption.rstrip(":：")  # "### Full Manifest:" is one label
        if example and caption:
            found.append(SectionPassage(f"{caption}:", (f"{caption}:",), section.heading, example))
    if not found and example_alone:
        # a usage section opening on its example's caption, which leans on the heading and may close on a
        # full stop ("通过 v-model 来绑定当前页码。" above the example under "### 基础用法"): its answer
        found = shown_examples(section, said, opening=True)
    return found


def _standing_lead(blocks: Sequence[str]) -> tuple[str, ...]:
    """The one-line paragraph a section opens on above its example, when its sentences stand alone (a
    statement of what the example does, not "然后就可以用以下 api 来鉴权了" nor a caveat): the example's lead-in in place of
    the heading, which may be a bare label ("使用参考"); () for none."""
    if not blocks or _FENCE.match(blocks[0]) or not opening_example(blocks):
        return ()
    parts = tuple(clean(p) for p in split_all(blocks[0]))
    if not parts or leans_back(parts[0]) or not all(quotable(p) and not is_question(p) for p in parts):
        return ()
    if states_caveat(" ".join(parts)):
        return ()  # "注意，jfr 只支持在 start时配置。" warns of the example, it does not say what it shows
    return parts


def opening_example(blocks: Sequence[str]) -> str:
    """The example a section opens on: its first block, or the one after a one-line lead-in that cannot be quoted
    alone ("然后就可以用以下 api 来鉴权了", leaning on the section before it); '' for none."""
    if blocks and _FENCE.match(blocks[0]):
        return _example_after(["", *blocks], 0)
    lead = blocks[0].strip() if blocks else ""
    if "\n" in lead or len(lead) > MAX_CAPTION or not _prose(lead) or list_parts(lead)[1]:
        return ""
    return _example_after(list(blocks), 0)


def shown_examples(
    section: TextSection, said: frozenset[str] = frozenset(), *, opening: bool = False
) -> list[SectionPassage]:
    """The examples a section shows, each with the paragraph that introduces it (`code_examples`, `stated`),
    none repeating a sentence `said` already. With `opening`, only the example its first paragraph
    introduces, which may lean on the heading as a section's opening does."""
    blocks = section.blocks[:2] if opening else section.blocks
    if opening and blocks and list_parts(blocks[0])[1]:
        return []  # a list's last item ("- 类型：") introduces nothing the caption says
    shown = code_examples("\n\n".join(blocks), stated=True, on_heading=opening)
    return [
        SectionPassage(q.text, q.parts, section.heading, q.code)
        for q in shown
        if not said.intersection(q.parts)
    ]


# a caption saying only that an example follows ("代码示例：", "例如：", "Example:"), or in which notation ("JSON
# example:", "YAML 示例：")
_BARE_CAPTION = re.compile(
    r"(?:[A-Za-z]+\s*)?(?:代码)?(?:示例|例子|范例|样例|例如|比如|举例)|(?:[A-Za-z]+\s+)?examples?|for\s+example|e\.g\.",
    re.IGNORECASE,
)


def own_examples(section: TextSection, said: frozenset[str] = frozenset()) -> list[SectionPassage]:
    """Every example a section shows, each with what introduces it: a caption line right above it ("创建时可用的
    hook" above the order GORM calls its hooks in), or a paragraph (`shown_examples`: "…考虑使用 http.Server 内置的
    Shutdown() 方法进行优雅关闭。" above the server it shuts down), in the section's order."""
    blocks = list(section.blocks)
    found = []
    for n, block in enumerate(blocks[:-1]):
        caption = example_caption(block).rstrip(":：")
        if _BARE_CAPTION.fullmatch(caption):  # "代码示例：" names nothing: the section's heading does
            caption = unnumbered(" ".join(_MARKUP.sub(" ", section.heading).split())).rstrip(":：")
        code = _example_after(blocks, n) if caption and caption not in said else ""
        if code:
            found.append((n, SectionPassage(f"{caption}:", (f"{caption}:",), section.heading, code)))
    captioned = {p.code for _, p in found}
    for passage in shown_examples(section, said):
        if passage.code not in captioned:
            at = next((n for n, b in enumerate(blocks) if passage.code and passage.code in b), len(blocks))
            found.append((at, passage))
    return [passage for _, passage in sorted(found, key=lambda f: f[0])]


_MARKUP = re.compile(r"<[^>]*>|\\?\{#[^}]*\\?\}")  # heading anchors: `<a name="…" />`, `{#…}`


def _prose_openings(
    section: TextSection,
    limit: int,
    quoted: frozenset[str] = frozenset(),
    past_lists: bool = False,
    on_heading: bool = False,
) -> list[SectionPassage]:
    found: list[SectionPassage] = []
    blocks = _paragraphs_going_on(section.blocks)
    skip = -1  # the list a lead-in introduced
    # a section headed for why, limits or alternatives opens on its own answer ("## Motivation": "This addresses
    # the following use cases:"); a document's title section opening on "Authors:" and its list does not
    headed = past_lists and bool(section_facets(section.heading) & FRAMING_FACETS)
    # the paragraph a section on what the subject is, how it works or how it is used opens with: the section
    # answers from there or not at all (a later paragraph is a detail: "Explicitly not covered in this
    # specification is…" after a pixel convention's opening); why, limits and alternatives read on
    first = -1 if past_lists else _opening_index(blocks, quoted)
    for n, block in enumerate(blocks):
        if len(found) >= limit:
            break
        if n == skip or block.startswith(("```", "~~~", "|")):
            continue
        if n > first >= 0 and not found:
            break  # its opening paragraph could not be quoted
        if n and introduces_old_state(blocks[n - 1]):
            continue  # "the text currently reads:": what the design replaces
        if not past_lists and introduces_old_state(list_parts(block)[0]) and list_parts(block)[1]:
            continue  # "the current Nix model … works (roughly) as follows:" and its list: the model the design
            # replaces (why it is replaced is motivation, which quotes it)
        # an opening lead-in naming its heading ("Voting proceeds in two rounds:" under "### Voting") leans on
        # it as a heading on why or limits does: it is the section's own introduction of its list
        listed = list_quote(block, opening=n == 0 and (headed or _names_heading(block, section.heading)))
        if listed is not None and quoted.intersection(listed.parts):
            continue
        if listed is not None:  # a list with the paragraph that introduces it, whole
            found.append(SectionPassage(listed.text, listed.parts, section.heading, items=listed.items))
            continue
        lead, items = list_parts(block)  # a list too long to quote: what its paragraph says before it
        parts = tuple(clean(p) for p in split_all(lead))
        if parts and not items and len(" ".join(parts)) > MAX_PASSAGE:
            parts = _opening_run(parts)  # a long paragraph: its opening sentences say what it is about
        if not parts or len(" ".join(parts)) > MAX_PASSAGE:
            continue
        leaning = leans_back(parts[0]) and not (on_heading and n == 0 and not continues(parts[0]))
        if leaning and not (len(parts) == 1 and points_ahead(parts[0])):
            continue  # "This example shows…:" points at the example quoted with it, nothing before
        if quoted.intersection(parts):
            continue  # quoted already
        if n and blocks[n - 1].startswith(("```", "~~~")) and speaks_of_shown_code(parts[0]):
            continue  # "…make the code more compact": about the example before it
        if leads_out_of_list(items) and not (past_lists and _HEADING_LABEL.match(lead.strip())):
            break  # it leads into worked examples ("- Current:", code): about them, quoted with none
        if leads_out_of_list(items):
            continue  # a list under its heading's label ("**Non-goals:**"): the section goes on after it
        # a last sentence pointing at the example after it ("Example output from my mac looks like below.")
        # introduces it as a colon would: quoted with it or not at all
        shown = not items and n + 1 < len(blocks) and _FENCE.match(blocks[n + 1]) is not None
        ends_in_lead = parts[-1].endswith((":", "：")) or (
            shown and points_at_shown(parts[-1], blocks[n + 1])
        )
        # a lead-in inside the paragraph right above an example ("使用file，即从本地文件加载：" and what the
        # example's path may name) introduces the example too: the paragraph is quoted whole with it
        head, tail = ("", "") if ends_in_lead or not shown else _inner_lead(lead)
        code = _example_after(blocks, n) if (ends_in_lead or head) and not items else ""
        if code and head:
            named = tuple(naming_shown(clean(p), code) for p in split_all(head))
            stated = tuple(naming_shown(clean(p), code) for p in split_all(tail))
            stands = lead_in_stands(named[:-1], named[-1], on_heading=on_heading and n == 0)
            if stands and _quotes(stated, opening=n == first) and not introduces_old_state(block):
                found.append(SectionPassage(" ".join(parts), parts, section.heading, code))
            continue
        if code and introduces_old_state(block):
            continue  # an example of how things are done without the design
        if not ends_in_lead and not items and caption_line(lead):
            continue  # a caption line alone ("Example 1: Demonstration of inheritance principle") is no statement
        said = parts[:-1] if ends_in_lead else parts
        if not code and not items:  # a paragraph is quoted from its start up to a sentence that cannot be
            said = _quotable_run(said)  # ("For more information, see the namespaces(7) man page.")
            if n == first:  # an opening paragraph, up to one in its middle
                said = _quotable_opening(said)
        prose = not said or _quotes(said, opening=n == first)  # a lead-in alone introduces its example
        if code:  # the lead-in is quoted with its example; alone it must say something itself
            # …naming what the example shows in its own spelling ("通过 ServerOption 进行注册")
            named = tuple(naming_shown(p, code) for p in parts)
            prose = not said or _quotes(named[:-1], opening=n == first)
            if prose and lead_in_stands(named[:-1], named[-1], on_heading=on_heading and n == 0):
                found.append(SectionPassage(" ".join(parts), parts, section.heading, code))
            elif n == first and _quotes(opened := _quotable_opening(_quotable_run(said)), opening=True):
                # the opening says what the section is about without its example
                found.append(SectionPassage(" ".join(opened), opened, section.heading))
        elif said and prose:
            found.append(SectionPassage(" ".join(said), said, section.heading))
        if ends_in_lead and not code:
            # what follows is the list it introduces: its items read differently alone. After the list, the
            # section goes on ("## Non-goals": "1. Accounting for memory outside the runtime, such as:", its
            # list, then why that is out of scope); without a list, what follows is what it introduced
            if items and past_lists:
                continue
            if past_lists and n + 1 < len(blocks) and _only_list(blocks[n + 1]):
                skip = n + 1
                continue
            break
    return found


def _inner_lead(lead: str) -> tuple[str, str]:
    """A paragraph cut after its one lead-in before its last words (the lead-in, then what it says of the
    example after the paragraph), or ("", ""): a line ending in a colon, or a full-width colon the stored text
    joined to the next line with a space ("使用file，即从本地文件加载： 这里的path就是…"; Chinese runs on after
    "：" without one)."""
    text = lead.strip()
    cuts = [m.end() for m in _INNER_LEAD.finditer(text)]
    if len(cuts) != 1:
        return "", ""
    return text[: cuts[0]].strip(), text[cuts[0] :].strip()


_INNER_LEAD = re.compile(r"[:：][ \t]*\n|：[ \t]+(?=\S)")


def _names_heading(block: str, heading: str) -> bool:
    """Whether a block's lead-in before its list names a word of the section's heading."""
    named = {w.lower() for w in _WORD.findall(heading) if len(w) > 3}
    return bool(named & {w.lower() for w in _WORD.findall(list_parts(block)[0])})


_WORD = re.compile(r"[A-Za-z][A-Za-z-]+")


def _paragraphs_going_on(blocks: Sequence[str]) -> list[str]:
    """A section's blocks with each prose paragraph that leans on the one before it ("The idea behind the
    “content-addressed” model is that rather than deriving these output paths from the inputs…") joined to
    that paragraph ("The “input-addressed” designation comes from the way the output paths are computed…"),
    when both are plain prose and fit MAX_PASSAGE together: quoted in order, the two read as written; apart,
    the second speaks of what its quote leaves out."""
    joined: list[str] = []
    counting = False  # the last block joined is a lead-in with the points it counts so far
    for block in with_lead_ins(blocks):  # "例如：" after a paragraph ends it, introducing the code after it
        before = joined[-1] if joined else ""
        going_on = bool(before) and _plain_paragraph(before) and _plain_paragraph(block) and leans_back(block)
        # a lead-in counting its points in paragraphs of their own ("…poses 2 main benefits:", "Firstly, it
        # lowers the barrier…", "Secondly, …"): alone it is no sentence, and each point leans on it
        first = (
            _leads_into_points(before) and _FIRST_POINT.match(block) is not None and _plain_paragraph(block)
        )
        point = counting and _NEXT_POINT.match(block) is not None and _plain_paragraph(block)
        if (going_on or first or point) and len(" ".join([*before.split(), *block.split()])) <= MAX_PASSAGE:
            joined[-1] = f"{before}\n{block}"
            counting = first or point
            continue
        counting = False
        joined.append(block)
    return joined


# the points a lead-in counts, each a paragraph: the first ("Firstly, …", "First, …"), then the next ones
_FIRST_POINT = re.compile(r"^(?:first(?:ly)?|first of all)\b,?\s", re.I)
_NEXT_POINT = re.compile(r"^(?:second(?:ly)?|third(?:ly)?|fourth(?:ly)?|finally|lastly)\b,?\s", re.I)


def _leads_into_points(block: str) -> bool:
    """A paragraph of prose ending as a lead-in (a colon), with no list or example after it in its block."""
    text = block.strip()
    return (
        text.endswith((":", "："))
        and not _HEADING.match(text)
        and not text.startswith(("```", "~~~", "|"))
        and not list_parts(text)[1]
    )


def _plain_paragraph(block: str) -> bool:
    """A paragraph of prose: no heading, code, table or list, and no lead-in to what follows it."""
    text = block.strip()
    return bool(text) and not (
        _HEADING.match(text)
        or text.startswith(("```", "~~~", "|"))
        or list_parts(text)[1]
        or text.endswith((":", "："))
    )


def _opening_run(parts: tuple[str, ...]) -> tuple[str, ...]:
    """A long paragraph's opening sentences, as many as fit MAX_PASSAGE (at least two, ending on a full
    stop): "Whether a particular loop is buggy depends on whether…" opens the section on why static analysis
    is no alternative; the rest of the paragraph is its evidence."""
    kept: list[str] = []
    for part in parts:
        if len(" ".join([*kept, part])) > MAX_PASSAGE:
            break
        kept.append(part)
    while kept and not kept[-1].endswith((".", "。")):
        kept.pop()  # never end on a lead-in or a question
    return tuple(kept) if len(kept) >= 2 else ()


def _opening_index(blocks: Sequence[str], quoted: frozenset[str]) -> int:
    """The index of a section's opening paragraph (-1: none): its first prose block, past one the report
    quotes already (its definition), a note that is no sentence, one leaning on the heading, a lead-in to an
    example, and the model a design replaces ("the text currently reads:" and what it introduces)."""
    for n, block in enumerate(blocks):
        lead, items = list_parts(block)
        if not _prose(block) or (n and introduces_old_state(blocks[n - 1])):
            continue
        parts = [clean(p) for p in split_all(lead)]
        if not items and parts and not (_SENTENCE_END.search(parts[-1]) or parts[-1].endswith((":", "："))):
            continue  # a note or caption ("_In everything that follows, … pseudo-python snippets_")
        introduces = lead.rstrip().endswith((":", "："))
        if (items or introduces) and introduces_old_state(lead):
            continue  # "Without context, you would pass the theme through every level of props:"
        shown = n + 1 < len(blocks) and _FENCE.match(blocks[n + 1]) is not None
        if (
            introduces
            and not items
            and shown
            and not _quotes(_quotable_opening(tuple(parts[:-1])), opening=True)
        ):
            continue  # a lead-in to an example ("For example, a simple task:"): the section shows, it opens later
        if quoted.intersection(parts) or (parts and leans_back(parts[0])):
            continue  # a paragraph leaning on the heading ("This section defines…") prefaces the opening
        return n
    return -1


def _quotes(parts: tuple[str, ...], *, opening: bool = False) -> bool:
    """Whether sentences can be quoted as they stand: none a question, and not all run-in labels ("None."
    under "Unresolved questions" says nothing quoted alone). In a section's `opening`, a sentence too short
    to quote alone reads with the one it leads into (`_reads_on`)."""
    return (
        bool(parts)
        and all(_reads_on(parts, i) if opening else _quotable(parts[i]) for i in range(len(parts)))
        and not is_question(parts[-1])
        and not all(RUN_IN_LABEL.match(p) for p in parts)
    )


def _quotable(sentence: str) -> bool:
    return quotable(sentence) or bool(RUN_IN_LABEL.match(sentence))


def _reads_on(parts: tuple[str, ...], i: int) -> bool:
    """Whether sentence `i` of a paragraph can be quoted there: alone, or as a short sentence leading into the
    next ("We propose a "sharded" repodata format. It works by splitting the repodata into multiple files…")."""
    if _said_there(parts, i):
        return True
    return i + 1 < len(parts) and quotable(parts[i + 1]) and quotable(f"{parts[i]} {parts[i + 1]}")


def _prose(block: str) -> bool:
    """A block of prose (a paragraph, or a lead-in with its list): not code, a table or a heading."""
    text = block.strip()
    return bool(text) and not (_HEADING.match(text) or text.startswith(("```", "~~~", "|")))


def _quotable_opening(parts: tuple[str, ...]) -> tuple[str, ...]:
    """An opening paragraph's sentences up to the first that cannot be quoted, when they end on a full stop:
    what the section says first ("The exact choice of which value represents the "edge" of a pixel is
    arbitrary… However, the API this APE proposes opts to use a single choice…") stands without the sentence
    citing a paper after it."""
    n = next((i for i in range(len(parts)) if not _reads_on(parts, i)), len(parts))
    if n == len(parts):
        return parts
    kept = _quotable_run(parts[:n])
    return kept if kept and kept[-1].endswith((".", "。")) else parts


def _only_list(block: str) -> bool:
    lead, items = list_parts(block)
    return bool(items) and not lead.strip()


def _quotable_run(parts: tuple[str, ...]) -> tuple[str, ...]:
    """A paragraph's sentences without a tail of sentences that cannot be quoted (a pointer to a man page,
    a link left alone, an announcement of what follows): what it says before that stands on its own. A sentence that cannot be quoted in the
    middle of what it says leaves the paragraph whole (and unquoted): its argument goes on after it."""
    n = len(parts)
    while n and (not _said_there(parts, n - 1) or announces(parts[n - 1])):
        n -= 1  # …or a tail announcing what the next paragraphs say ("There are two main reasons to…")
    return parts[:n]


def _said_there(parts: tuple[str, ...], i: int) -> bool:
    """Whether sentence `i` of a paragraph can be quoted with the sentences before it: quotable (or a run-in
    label), or a short correction of a quotable one ("…they don't become instantly available. Instead, they
    enter an unbonding queue.")."""
    return _quotable(parts[i]) or (i > 0 and corrects(parts[i]) and quotable(parts[i - 1]))


MAX_CAPTION = 160  # characters: a longer line is a paragraph, not a name for the example under it


def example_caption(block: str) -> str:
    """The caption a section's first block gives the example right under it, or '': one line of words closing
    on no sentence's end, as a bold label is stored ("**Automatic rolling updates and scale-in strategy …**"
    above a VirtualMachinePool under KubeVirt's "## VMPool API Examples")."""
    line = block.strip()
    if (
        "\n" in line
        or len(line) > MAX_CAPTION
        or _SENTENCE_END.search(line)
        or not _CAPTION_START.match(line)
    ):
        return ""
    return line


_CAPTION_START = re.compile(r"^[^\W\d_]")  # words, not a list, a table, a quote or markup


def _example_after(blocks: list[str], n: int) -> str:
    """The fenced example right after block `n`, when there is one short enough to quote."""
    if n + 1 >= len(blocks):
        return ""
    fence = _FENCE.match(blocks[n + 1])
    return fence.group(2).strip("\n") if fence and len(fence.group(2)) <= MAX_CODE else ""


def subject_opening(
    text: str, concepts: Sequence[set[str]], words_of: WordsOf, title: str = ""
) -> SectionPassage | None:
    """The first prose passage of the first section titled after the subject: what a document whose own
    title is about something larger ("Configuration") says the subject is."""
    for section in text_sections(text):
        if not section.heading or section_facets(section.heading) - {"what", "how"}:
            continue
        if names_subject(section.heading, concepts, words_of, title):
            prose = [p for p in opening_passages(section) if not p.code]
            if prose:
                return prose[0]
    return None


# a reference entry's heading is the API it describes: "registerValidateLocale", "FormDialog.Portal",
# "hydrate(dom: HTMLElement, options)" — an identifier in code's spelling (mixed case, a dot, an underscore or
# a call's parentheses), not a word ("Installation", "API")
_ENTRY_NAME = re.compile(r"^`?(?P<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)`?\s*(?P<call>\(.*\))?\s*$")
# the parts an entry is written in, under its name: what they say is said of the entry
_ENTRY_PARTS = re.compile(
    r"^(?:描述|说明|签名|用例|示例|例子|参数|返回值?|类型|用法|description|signature|usage|examples?"
    r"|parameters|params|arguments|returns?|type)$",
    re.I,
)
_NOT_WORD = re.compile(r"[\W_]+")


def entry_name(heading: str) -> str:
    """The API a reference entry's heading names ("hydrate" for "hydrate(dom, options)", "FormDialog.Portal"),
    '' for a heading in words."""
    found = _ENTRY_NAME.match(heading.strip())
    if found is None:
        return ""
    name = found["name"]
    coded = found["call"] or "." in name or "_" in name or re.search(r"[a-z][A-Z]", name)
    return name if coded else ""


def stranded_in_entry(passage: str, text: str, subject: str = "") -> bool:
    """Whether a passage stands in a reference entry of `text` (a section headed by the API it describes, or
    one of its parts: "#### 描述" under "## registerValidateLocale") without naming that API: read alone, "全局
    注册校验语言包…" says nothing of registerValidateLocale, "dom：图表容器…" of hydrate, "接收可选的 id 属性…" of
    FormDialog.Portal. A document's title and an entry named by the `subject` are no such entry: the report
    names them."""
    path = _heading_path(passage, text)
    return _unnamed_entry(passage, [h for level, h in path if level > 1 and h], subject)


def promoting(passage: str, text: str) -> bool:
    """Whether a passage of `text` promotes its project rather than informs (text/promotion.py): it asks for a
    star or invites to a chat group itself ("如果 Sa-Token 帮助到了您，希望您可以为其点上一个 star"), or it stands in
    a section on the project's community or standing ("## 📚 示例大全": "此压缩包共计 60+ Demo"). Such text
    answers no question a reader brings, whatever words it shares with it."""
    return promotes(passage) or any(community_heading(h) for _, h in _heading_path(passage, text) if h)


def _heading_path(passage: str, text: str) -> list[tuple[int, str]]:
    """The (level, heading) of the section of `text` holding a passage and of each section it stands in, top
    down; [] when the passage is not found there."""
    key = _NOT_WORD.sub("", clean(passage)).lower()[:24]
    if not key:
        return []
    path: list[tuple[int, str]] = []
    for section in _sections(text):
        path = [(level, h) for level, h in path if level < section.level] + [(section.level, section.heading)]
        if any(key in _NOT_WORD.sub("", clean(block)).lower() for block in section.blocks):
            return path
    return []


@lru_cache(maxsize=64)
def _sections(text: str) -> tuple[TextSection, ...]:
    return tuple(text_sections(text))  # every passage of a source is looked up in it


def _unnamed_entry(passage: str, headings: Sequence[str], subject: str) -> bool:
    """Whether the entry a passage stands in (its section, or the one its part stands in) goes unnamed."""
    while headings and _ENTRY_PARTS.match(headings[-1].strip()):
        headings = headings[:-1]
    name = entry_name(headings[-1]) if headings else ""
    return bool(name) and not _names_entry(passage, name) and not _names_entry(subject, name)


def _names_entry(text: str, name: str) -> bool:
    lowered = text.lower()
    return name.lower() in lowered or name.rsplit(".", 1)[-1].lower() in lowered
