"""What the project is and why, in its own words: the README's opening prose and the docs' introduction, its
tagline and the list of what it does."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import takewhile

from generator.documents import Document
from generator.repo.docs.headings import ABOUT_HEADING, HOW_TO_HEADING, aside, closing, under_install
from generator.repo.docs.model import DocPassage
from generator.repo.docs.passages import NOT_OVERVIEW, quotable_passages, worth_quoting
from generator.repo.synthesize.readme import (
    NOTICE,
    RELEASE_HEADING,
    about_the_docs,
    describes_project,
    news_blocks,
    tagline,
)
from generator.text.pointers import LEADING_INTO, without_lead_in
from generator.text.sentences import split_sentences

OVERVIEW_PASSAGES = 4
FEATURE_ITEMS = 10  # an overview's list of what the project does shows this many of its items
TAGLINE_WORDS = 6  # the README's first overview paragraph may be this short; the others say more
# a folder's README saying what the folder holds (pdoc's docs/README.md: "This directory contains the source
# code for the pdoc website"): about a folder, never what the project is
_ABOUT_FOLDER = re.compile(r"(?:this|the) (?:directory|folder|dir)\b", re.IGNORECASE)
_FEATURES_HEADING = re.compile(r"^\W*(?:(?:key|main|core) )?(?:features|highlights|capabilities)\b", re.I)
_FEATURES_ONLY = re.compile(r"^\W*(?:(?:key|main|core) )?(?:features|highlights|capabilities)\W*$", re.I)
# … and a section asking why one would use it, which lists what it does (consola's "Why Consola?": "Easy to use",
# "Fancy output with fallback …", "Pluggable reporters" …)
_WHY_IT = re.compile(r"^\W*why (?:use |choose |pick )?[\w.-]+(?: [\w.-]+)?\?\W*$", re.I)


def overview(
    readme: Document | None, intro: Sequence[Document], whole: bool = False
) -> tuple[DocPassage, ...]:
    """What the project is and why: the README's opening prose (before its first code example) and the
    docs' introduction page's, whole paragraphs only; never a lead-in to what it does not show (a paragraph
    ending in ':') or how to install it. The README's first such paragraph may be short: a tagline centred
    under its logo ("A light-weight module that brings Fetch API to Node.js")."""
    found: list[DocPassage] = [t for t in [_tagline(readme)] if t is not None] if readme is not None else []
    openings: set[str] = {_opening(t.text) for t in found}  # a README and an introduction page often agree
    for document in {id(d): d for d in (readme, *intro) if d is not None}.values():
        # … the docs' own first page when that is the README (`whole`): its sections past the first example
        # say what the project is too (copier's "Basic concepts": templates, questionnaires, projects)
        past = whole and document is readme
        installing = {b.start for s, b in document.blocks() if under_install(s.path)}
        teaching = {b.start for s, b in document.blocks() if any(HOW_TO_HEADING.search(h) for h in s.path)}
        # … and a migration guide or the list of versions, which say how it changed, not what it is
        news = news_blocks(document) | {
            b.start for s, b in document.blocks() if any(RELEASE_HEADING.search(h) for h in s.path)
        }
        asides = {b.start for s, b in document.blocks() if any(aside(h) for h in s.path)}
        # the community, contributing, support, licence or sponsors part after the lead ends what a document
        # says it is (chainsaw's "Community Meetings" paragraph had been its lead's fourth); one before it is a
        # banner over the page (beanie's "Join Us" under its news, above its "Overview")
        closings = [b.start for s, b in document.blocks() if any(closing(h) for h in s.path)]
        began = len(found)
        heading_one = next((s.heading for s in document.sections if s.level == 1), "")
        # every passage in order: a long README cut to fit a page (`spread`) keeps only its sections'
        # first passages, and its opening section is what the project is (tqdm's 1,500-line README had
        # only its badge row left of it, and read as the name's etymology)
        quoted = [p for _, p in quotable_passages(document)]
        # the first example ends the opening, even one too long to quote (grape's 74-line "Basic Usage")
        long = [
            b.start for _, b in document.blocks() if b.kind == "code" and not worth_quoting(b.kind, b.text)
        ]
        shown = [p.start for p in quoted if p.kind == "code"]
        # the README's opening statement: its tagline, else the first paragraph saying what the project is
        opened = next(
            (
                n
                for n, p in enumerate(quoted)
                if found and p.start == found[0].start and p.kind == "paragraph"
            ),
            -1,
        )
        example = min((at for at in (*long, *shown) if at not in installing), default=None)
        for at, passage in enumerate(quoted):
            if len(found) > began and any(found[began].start < c <= passage.start for c in closings):
                break
            if example is not None and passage.start >= example:  # how to get it is not how to use it
                if not past:
                    break
                if passage.start in teaching or passage.start in installing:
                    continue
            if document is readme and at == opened:  # the list right under the README's opening statement
                found += _opening_list(quoted, at)
            if listed := _feature_list(quoted, at, heading_one, openings):
                found += listed
                openings.add(_opening(passage.text))
            else:
                passage = _without_lead_in(passage, heading_one)
                opening = _opening(passage.text)
                if (
                    passage.kind == "paragraph"
                    and passage.start not in teaching
                    and passage.start not in news
                    and passage.start not in asides
                    and passage.start not in closings
                    and not NOTICE.match(passage.text)  # "NOTE: Starting with version 0.9 …": an aside
                    and not _ABOUT_FOLDER.match(passage.text)
                    and describes_project(
                        _stated(passage.text) if document is readme and not found else passage.text,
                        steps=True,
                    )
                    and passage.start not in installing
                    and len(passage.text.split())
                    >= (TAGLINE_WORDS if document is readme and not found else 10)
                    and opening not in openings
                ):
                    found.append(passage)
                    openings.add(opening)
                    if document is readme and len(found) == 1:
                        found += _opening_list(quoted, at)
            if sum(p.kind != "item" for p in found) >= OVERVIEW_PASSAGES:
                return _with_features(tuple(found), readme)
    return _with_features(tuple(found), readme)


def _opening_list(quoted: Sequence[DocPassage], at: int) -> list[DocPassage]:
    """The list right under the README's opening statement, which goes on saying what the project does
    (copier's "A library and CLI app for rendering project templates." then "Works with local paths and Git
    URLs", "… can dynamically replace values in any kind of text file", "… not overwriting existing files
    unless instructed to do so"); [] when no list of described items follows it there."""
    if (
        quoted[at].text.rstrip().endswith((":", "："))
    ):  # a lead-in: its list is a feature list (`_feature_list`)
        return []
    items = list(takewhile(lambda p: p.kind == "item" and p.heading == quoted[at].heading, quoted[at + 1 :]))
    if any(NOT_OVERVIEW.search(p.text) for p in items):
        return []
    described = sum(len(p.text.split()) >= 3 for p in items)
    return items[:FEATURE_ITEMS] if len(items) >= 2 and described == len(items) else []


def _stated(text: str) -> str:
    """The README's first paragraph as a statement: it often stands under the logo unpunctuated, like a
    tagline ("Promise based HTTP client for the browser and node.js", "Simple yet flexible JavaScript
    charting for designers & developers") — one sentence of prose, never a row of links or badges
    ("Deutsch | Español", "What's new • Documentation", "PyPI Pythons CI ReadTheDocs")."""
    flat = " ".join(text.split())
    prose = _FUNCTION_WORD.search(flat) and not _LINK_ROW.search(flat) and len(split_sentences(flat)) == 1
    return f"{flat}." if prose and flat[-1:].isalnum() else text


_FUNCTION_WORD = re.compile(r"\b(?:for|of|the|an?|to|and|by|with|in|on|that|from)\b")
_LINK_ROW = re.compile(r"[|•·👉📖]")


def _with_features(found: tuple[DocPassage, ...], readme: Document | None) -> tuple[DocPassage, ...]:
    """An overview with the README's features list after it when it holds no list of what the project does."""
    if readme is not None and not any(p.kind == "item" for p in found):
        return (*found, *_features_section(readme))
    return found


def _as_lead_in(heading: str) -> str:
    """A heading leading into its list: "Features:"; a question asks it already ("Why Consola?")."""
    flat = " ".join(heading.split()).rstrip(":")
    return flat if flat.endswith("?") else f"{flat}:"


def _features_section(readme: Document) -> list[DocPassage]:
    """The first list of the README's "Features" section wherever it stands (httpx, express, hono and
    pdoc list what they do after their first example, where the overview stops reading), headed by the
    paragraph leading into it or else by the heading as its lead-in ("Features:"); [] when there is none."""
    for section in readme.sections:
        features = _FEATURES_ONLY.match(section.heading) or _WHY_IT.match(section.heading)
        if not features or any(aside(h) for h in section.path):
            continue
        first = next((n for n, b in enumerate(section.blocks) if b.kind == "item"), None)
        if first is None or (not _FEATURES_ONLY.match(section.heading) and first > 0):
            continue  # … a "Why X?" section only when its list is all it says (viper's says it in prose first)
        lead = section.blocks[first].lead
        items = [
            DocPassage(readme.origin, b.start, b.end, "item", b.text, section.heading)
            for b in takewhile(lambda b: b.kind == "item", section.blocks[first:])
            if b.lead == lead and not NOT_OVERVIEW.search(b.text)
        ][:FEATURE_ITEMS]
        before = section.blocks[first - 1] if first else None
        if before is not None and before.kind == "paragraph" and before.text.rstrip().endswith((":", "：")):
            head = DocPassage(
                readme.origin, before.start, before.end, "paragraph", before.text, section.heading
            )
        else:
            head = DocPassage(
                readme.origin,
                section.start,
                section.start,
                "paragraph",
                _as_lead_in(section.heading),
                section.heading,
            )
        return [head, *items] if len(items) >= 2 else []
    return []


def _feature_list(quoted: Sequence[DocPassage], at: int, title: str, openings: set[str]) -> list[DocPassage]:
    """The lead-in at `at` and the list it announces, when the README's opening or its about/features
    section says what the project does in a list ("It supports:" then CSS and XPath, JMESPath, regular
    expressions; "AnyIO offers the following functionality:" then task groups, networking, threads …): the
    list is what the project is, kept as items, at most FEATURE_ITEMS of them; [] otherwise."""
    lead = quoted[at]
    if lead.kind != "paragraph" or not lead.text.rstrip().endswith(":") or NOT_OVERVIEW.search(lead.text):
        return []
    if about_the_docs(lead.text):  # "The documentation for Fastify is split into two categories:"
        return []
    if lead.heading not in ("", title) and not ABOUT_HEADING.search(lead.heading):
        if not _FEATURES_HEADING.search(lead.heading):
            return []
    if _opening(lead.text) in openings:
        return []
    items: list[DocPassage] = []
    for passage in quoted[at + 1 :]:
        if passage.kind != "item" or passage.heading != lead.heading or NOT_OVERVIEW.search(passage.text):
            break
        items.append(passage)
    described = sum(
        len(item.text.split()) >= 2 for item in items
    )  # not a list of links ("Roadmap", "Releases")
    return [lead, *items[:FEATURE_ITEMS]] if len(items) >= 2 and described * 2 >= len(items) else []


def _tagline(readme: Document) -> DocPassage | None:
    """The README's opening quote, else its title or the heading under a bare title when that is a
    sentence saying what the project is ("Kong is a command-line parser for Go")."""
    block = tagline(readme)
    text = " ".join(block.text.split()) if block is not None else ""
    if block is None or NOT_OVERVIEW.search(text):
        return None
    return DocPassage(readme.origin, block.start, block.end, "paragraph", text)


def _without_lead_in(passage: DocPassage, title: str) -> DocPassage:
    """A paragraph whose last sentence leads into a list ("It supports:") or sends the reader to the docs
    says what the project is before it: that much is quoted, the lead-in to what the overview does not show
    and the pointer are not. Only where a README says what the project is (its opening, "Why use Viper?",
    "About"): elsewhere the sentences before a lead-in prepare it ("There are myriads of JSON libraries out
    there. Our class had these goals:")."""
    opening = passage.heading in ("", title) or ABOUT_HEADING.search(passage.heading)
    if passage.kind != "paragraph" or not opening:
        return passage
    parts = split_sentences(passage.text)
    if len(parts) > 1 and about_the_docs(parts[-1]):
        # … nor the closing pointer to the docs: restify's "… for building REST APIs. For full details, see
        # http://restify.com" (unpunctuated, it had left the overview empty), caffeine's "For more details, see
        # our user's guide …"
        passage = replace(passage, text=" ".join(parts[:-1]))
    if not passage.text.rstrip().endswith(LEADING_INTO):
        return passage
    text = without_lead_in(passage.text)
    if text.rstrip().endswith(":") and len(split_sentences(text)) == 1 and _says_what(text, title):
        # sinatra's one sentence, "Sinatra is a DSL for … effort:", pytest-xdist's "The pytest-xdist plugin
        # extends pytest with … execution::", then code
        text = text.rstrip().rstrip(":") + "."
    return replace(passage, text=text)


# a sentence saying what something is ("Sinatra is a DSL for …")
_STATES_WHAT = re.compile(r"^(?!(?:there|here)\b)\S+(?:\s\S+){0,3}\s(?:is|are)\s(?:an?|the)\s", re.IGNORECASE)


def _says_what(sentence: str, title: str) -> bool:
    """Whether a sentence says what the project is or does: "X is a …", or the project's name among its
    first words as its subject ("The pytest-xdist plugin extends pytest …")."""
    opening = [w.strip("`*_\"'").lower() for w in sentence.split()[:4]]
    return bool(_STATES_WHAT.search(sentence)) or bool(title) and title.strip().lower() in opening


def _opening(text: str) -> str:
    """A paragraph's first sentence, folded to its words (markup and punctuation left out: msgspec's docs say
    "a `lightweight library`" where its README says "a lightweight library"), to tell a paragraph that says
    again what another said."""
    first = split_sentences(text)[:1]
    # … a Go package's doc says it as "Package negroni is …" where the README says "Negroni is …"
    return " ".join(re.findall(r"\w+", first[0].lower())).removeprefix("package ") if first else ""
