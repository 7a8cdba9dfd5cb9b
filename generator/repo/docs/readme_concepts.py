"""The concepts of a project documented in its READMEs: one per top-level section that explains something (a
chapter's subsections each one), one per package README of a monorepo."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from generator.documents import Document
from generator.documents.model import Section
from generator.repo.docs.concept import MAX_CONCEPTS, doc_concept, humane
from generator.repo.docs.headings import (
    ABOUT_HEADING,
    HOW_TO_HEADING,
    OTHER_PROJECTS,
    POLICY_HEADING,
    about_process,
    under_install,
)
from generator.repo.docs.model import DocConcept, DocPage, DocPassage
from generator.repo.docs.overview import overview
from generator.repo.docs.passages import bare_name, passages, without_contents
from generator.repo.docs.symbolnames import SymbolNames
from generator.repo.synthesize.readme import RELEASE_HEADING, news_section

README_PASSAGES = 4  # a README section quoting fewer is a note, not a concept
README_CONCEPTS = 3  # a README with fewer such sections is an overview and examples, not a guide
# a README section of this many subsections and passages is a chapter: each subsection a concept (CLI11's
# "Usage": adding options, subcommands, configuration files, formatting, subclassing; loguru's "Take the tour")
CHAPTER_SUBSECTIONS = 5
CHAPTER_PASSAGES = 30
_CODE_HEADING = re.compile(r"[`(]|\w[.:#]\w")  # "`app.use(fn)`", "Router#get": an API entry, never a concept


def package_concepts(documents: Sequence[Document], names: SymbolNames) -> list[DocConcept]:
    """One concept per package README, named by its title (`@vue/server-renderer`), its code symbols looked
    for in its package's folder first."""
    concepts = []
    for document in documents:
        quoted = passages(document)
        title = document.title or humane(str(PurePosixPath(document.origin).parent))
        page = DocPage(document.origin, title, tuple(quoted))
        concepts.append(doc_concept(title, [page], names, str(PurePosixPath(document.origin).parent)))
    return concepts


def readme_concepts(readme: Document | None, names: SymbolNames) -> list[DocConcept]:
    """A project without a docs folder documents itself in its README: one concept per top-level section
    that explains something (at least `README_PASSAGES` passages, or fewer with an example in code; never
    installing, licence or process),
    when the README has at least `README_CONCEPTS` of them; else none, and the README is only the overview
    and the examples. A README whose manual stands under one heading ("The non-quickstart", "Usage",
    "Examples" holding most of its lines) has that section's sub-sections as its concepts, when its
    top-level sections alone are too few."""
    if readme is None:
        return []
    readme = without_contents(readme)  # its parts are read apart: a table of its headings would not show
    top = top_level(readme.sections)
    concepts = _section_concepts(readme, readme.sections, top, names)
    if len(concepts) < README_CONCEPTS and (manual := _manual(readme.sections, top)):
        inner = _section_concepts(readme, manual, top + 1, names)
        if len(inner) >= README_CONCEPTS:
            concepts = [c for c in concepts if c.name != manual[0].path[top - 1]] + inner
    if len(concepts) > MAX_CONCEPTS:  # chapters divided past the guide's cut: whole, so none is lost
        whole = _section_concepts(readme, readme.sections, top, names, chapters=False)
        concepts = whole if len(whole) >= README_CONCEPTS else concepts
    return concepts[:MAX_CONCEPTS] if len(concepts) >= README_CONCEPTS else []


def top_level(sections: Sequence[Section]) -> int:
    """The heading level a document's parts stand at: 2, one level down from the title, when one title
    holds them all; else 1."""
    return 2 if len({s.path[0] for s in sections if s.path}) == 1 else 1


def _section_concepts(
    readme: Document, sections: Sequence[Section], top: int, names: SymbolNames, *, chapters: bool = True
) -> list[DocConcept]:
    """One concept per heading at level `top` of `sections` that explains something (with `chapters`, one per
    sub-section of a chapter)."""
    concepts = []
    for heading in dict.fromkeys(s.path[top - 1] for s in sections if len(s.path) >= top):
        if (
            about_process(heading)
            or under_install([heading])
            or OTHER_PROJECTS.match(heading)
            or POLICY_HEADING.match(heading)
            or RELEASE_HEADING.search(heading)
            or news_section([heading])
        ):
            continue
        part = tuple(s for s in sections if len(s.path) >= top and s.path[top - 1] == heading)
        if (
            bare_name(heading) == bare_name(readme.title.split()[-1] if readme.title else "")
            and part[0].level == 1
        ):
            # … nor the title again (rustdoc's "# Serde JSON" opening the crate docs "Crate serde_json"); a
            # page without one is titled by its first heading, which is its first part (hapi's API.md,
            # "## Server": 2,700 lines of the server's API, had been no concept)
            continue
        quoted = tuple(passages(replace(readme, sections=part)))
        chapter = _chapter(readme, part, top) if chapters and len(quoted) >= CHAPTER_PASSAGES else []
        for name, chapter_part in chapter or [(heading, part)]:
            quoted = tuple(passages(replace(readme, sections=chapter_part))) if chapter else quoted
            if len(quoted) >= README_PASSAGES or _shows_a_feature(name, quoted):
                concepts.append(doc_concept(name, [DocPage(readme.origin, name, quoted)], names, ""))
    return concepts


def _manual(sections: Sequence[Section], top: int) -> tuple[Section, ...]:
    """The sections under the top-level heading that holds most of the README's lines (more than half)
    in at least three sub-sections; () when no heading does."""
    lines: Counter[str] = Counter()
    for s in sections:
        if len(s.path) >= top:
            lines[s.path[top - 1]] += s.end - s.start + 1
    if not lines:
        return ()
    heading, held = lines.most_common(1)[0]
    part = tuple(s for s in sections if len(s.path) >= top and s.path[top - 1] == heading)
    inner = {s.path[top] for s in part if len(s.path) > top}
    return part if held * 2 > sum(lines.values()) and len(inner) >= README_CONCEPTS else ()


def distinct(concepts: Sequence[DocConcept]) -> list[DocConcept]:
    """The concepts without a later one named like an earlier (a crate's docs repeating its README's
    sections: serde_json's, anyhow's)."""
    kept: dict[str, DocConcept] = {}
    for concept in concepts:
        kept.setdefault(bare_name(concept.name), concept)
    return list(kept.values())


def _chapter(readme: Document, part: Sequence[Section], top: int) -> list[tuple[str, tuple[Section, ...]]]:
    """The subsections of a README section that is a chapter (at least CHAPTER_SUBSECTIONS, most of them named
    in words rather than code), each with the sections under it; [] for a section that is one concept. The
    section's own opening is a page of its own, named after it, when it says as much as a concept; else it
    goes with the first subsection (machinery's "Configuration" opening — `config.NewFromEnvironment()`, the
    `Config` struct — had been the start of a page called "Lock", python-tabulate's "Library usage" that of
    "Headers")."""
    names = list(
        dict.fromkeys(s.path[top] for s in part if len(s.path) > top and not about_process(s.path[top]))
    )
    worded = [n for n in names if not _CODE_HEADING.search(n)]
    if len(names) < CHAPTER_SUBSECTIONS or len(worded) * 2 < len(names):
        return []
    grouped = [(n, tuple(s for s in part if len(s.path) > top and s.path[top] == n)) for n in names]
    opening = tuple(s for s in part if len(s.path) == top)
    said = passages(replace(readme, sections=opening))
    # … unless the overview quotes it: kingpin's and voluptuous' READMEs are one chapter under their title
    if len(said) >= README_PASSAGES and not {p.start for p in said} & {p.start for p in overview(readme, ())}:
        return [(part[0].path[top - 1], opening), *grouped]
    return [(grouped[0][0], opening + grouped[0][1]), *grouped[1:]]


def beside(first: Sequence[DocConcept], then: Sequence[DocConcept]) -> list[DocConcept]:
    """The concepts of `first`, then those of `then` not named alike, at most MAX_CONCEPTS."""
    named = {c.slug for c in first}
    return [*first, *(c for c in then if c.slug not in named)][:MAX_CONCEPTS]


def _shows_a_feature(heading: str, quoted: Sequence[DocPassage]) -> bool:
    """A short README section that says what a feature does and shows it in code (logrus' "Default
    Fields", kong's "Positional arguments"): a concept however short, where a short section of prose alone
    ("News", "Useful resources") is a note, and a short introduction or usage section is the overview's and
    Getting started's."""
    if ABOUT_HEADING.search(heading) or HOW_TO_HEADING.search(heading):
        return False
    code = [p for p in quoted if p.kind == "code"]
    return len(quoted) >= 2 and bool(code) and len(code) < len(quoted)
