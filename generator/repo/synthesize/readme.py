"""The project in its own words: the README's first real paragraph (not a badge, an install line, a heading
or a licence notice), read through the document model (generator/documents).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator.documents import Block, Document
from generator.text.pointers import points_elsewhere
from generator.text.sentences import sentences as split_sentences

MIN_WORDS = 5
_BOILERPLATE = re.compile(
    r"\b(pip install|npm (i|install)|yarn add|go get|go install|cargo add|licen[cs]ed? under|copyright"
    r"|all rights reserved|pull requests? (are|is) welcome|build status|code of conduct|table of contents)\b",
    re.IGNORECASE,
)
# what a front page says that is not what the project is: release news, sponsors, thanks ("thanks to
# httprouter" says why it is fast: only thanks to people count), calls for issues and pull requests, and
# invitations to join a community …
_NEWS = re.compile(
    r"\b(?:(?:is|are) (?:now )?(?:out|released|available (?:now|on))|we(?:'re| are) (?:excited|happy|pleased|proud)"
    r"|announc\w+|release notes|new (?:major )?version|sponsor\w*|backers?|donat\w+|thank you"
    r"|(?:special|many) thanks|thanks to (?:all|our|every\w*|the (?:community|contributors|maintainers))"
    r"|see the (?:authors|contributors|notice|changelog) file|maintained by"
    r"|(?:file|open|submit|send|make) (?:an? )?(?:issue|pull request|PR)s?"
    r"|join (?:us|our (?:\w+ )?(?:community|slack|discord|chat|forum|mailing list))"
    r"|(?:use|want|try|prefer|consider|recommend\w*)\b[^.!?]{0,60}\binstead\b(?!\s+of))\b",
    re.IGNORECASE,
)
# … and the steps of a how-to, which a README's first paragraph is not
_STEP = re.compile(
    r"^(?:once|to|first|then|next|now|install|import|use|see|check|read|visit|please|note|if)\b", re.I
)
# … and a paragraph about the page it is on ("This document describes…") rather than the project
_ABOUT_ITSELF = re.compile(r"^(?:in )?this (?:page|section|document|guide|tutorial)\b", re.IGNORECASE)
# … and one saying what the code above it did ("With this call, pytest will spawn …", "In this example, …")
_AFTER_CODE = re.compile(
    r"^(?:(?:with|in|after|by)\s+(?:this|that|these|the above)\b|the above\b|this (?:will|call|command|code)\b)",
    re.IGNORECASE,
)
# … and one pointing at the docs or saying what they hold ("Documentation is available at Read The Docs.",
# babel's "Details can be found in the HTML files…", "The user documentation explains …"), or which
# interpreters it is tested on (colander's "It is tested on Python 3.7, …")
_POINTS_TO_DOCS = re.compile(
    r"^(?:the |full |complete |more |further |detailed )?(?:user )?(?:documentation|docs|details|information)"
    r" (?:is|are|can be) (?:available|found|hosted)\b"
    r"|^(?:the |this )?(?:user |api )?(?:documentation|reference|guide) (?:explains|describes|covers|contains|lists)\b"
    r"|^(?:it is |it's )?tested (?:on|with|against|under) (?:python|cpython|pypy|node|go|ruby)\b",
    re.IGNORECASE,
)
# a quote that is a callout, not a tagline ("> **Note** …", GitHub's "> [!WARNING]")
NOTICE = re.compile(r"\W*(?:\[!\w+\]|warning|important|caution|tip|note|info)\b", re.IGNORECASE)
_SKIPPED_SECTION = re.compile(
    r"install|licen[cs]e|contribut|sponsor|backer|security|changelog|support|credits|authors|badges|table of contents",
    re.IGNORECASE,
)


# a section announcing a release ("Version 1.0.0 Release", "What's new in 3.0"): news, not what it is
RELEASE_HEADING = re.compile(
    r"\bv?\d+\.\d+(?:\.\d+)?\b.*\breleas\w*|\breleas\w*\b.*\bv?\d+\.\d+|release notes|what'?s new"
    r"|\bupgrad\w*|\bmigrat\w*|breaking changes",
    re.IGNORECASE,
)
# a title that is a sentence about the project: "Kong is a command-line parser for Go"
_TITLE_SENTENCE = re.compile(r"^\W*[\w.-]+(?:\s+[\w.-]+)?\s+(?:is|are)\s+(?:a|an|the)\s+\w", re.IGNORECASE)


def title_sentence(doc: Document) -> Block | None:
    """The README's title when it is a sentence saying what the project is ("Kong is a command-line parser
    for Go"), else the heading right under a title that says nothing itself, when it is a sentence (joi's
    "#### The most powerful schema description language and data validator for JavaScript."): its
    tagline when it has no opening quote."""
    headed = [s for s in doc.sections if s.level >= 1][:2]
    if not headed:
        return None
    title = headed[0]
    said = title.heading if title.heading.endswith((".", "!")) else f"{title.heading}."
    if _TITLE_SENTENCE.search(title.heading) and describes_project(said):
        return Block("paragraph", said, title.start, title.start)
    quiet = not any(len(b.text.split()) >= MIN_WORDS for b in title.blocks)
    under = headed[1] if len(headed) > 1 and quiet else None
    if under is not None and under.heading.endswith(".") and describes_project(under.heading):
        return Block("paragraph", under.heading, under.start, under.start)
    return None


def tagline(doc: Document) -> Block | None:
    """The README's tagline: its opening quote, else its title (or the heading under it) when that is a
    sentence saying what the project is."""
    return opening_quote(doc) or title_sentence(doc)


def first_paragraph(doc: Document) -> str:
    """The README's tagline, else its first paragraph that reads as prose about the project; "" when there
    is none."""
    said = tagline(doc)
    if said is not None:
        return " ".join(said.text.split())
    for paragraph in _paragraphs(doc, doc.markup == "rst"):
        flat = " ".join(paragraph.split())
        if describes_project(flat):
            return flat
    return ""


def describes_project(paragraph: str, *, steps: bool = False) -> bool:
    """Whether a README paragraph says what the project is: prose of a few words that is no install line,
    licence, release news or thanks (nor, unless `steps`, a how-to step: "Use …", "First …"), and ends as a
    statement — a lead-in ending in ':' ("…making it ideal for:") introduces a list or code not quoted
    with it."""
    flat = " ".join(paragraph.split())
    return (
        len(flat.split()) >= MIN_WORDS
        and not _BOILERPLATE.search(flat)
        and not _NEWS.search(flat)
        and (steps or not _STEP.search(flat))
        and not points_elsewhere(split_sentences(flat)[0])
        and not _ABOUT_ITSELF.match(flat)
        and not _AFTER_CODE.match(flat)
        and not _POINTS_TO_DOCS.match(flat)
        and flat[-1:] in ".!?)"
    )


def opening_quote(doc: Document) -> Block | None:
    """A README's opening quote, before any prose, list, code or section, when it says what the project is
    ("> Human-friendly and powerful HTTP request library for Node.js"): its tagline, often unpunctuated."""
    for section, block in doc.blocks():
        text = " ".join(block.text.split())
        if section.level > 1:
            return None
        if block.kind == "quote":
            said = describes_project(text if text[-1:] in ".!?)" else f"{text}.")
            return block if said and not NOTICE.match(text) else None
        if block.kind != "paragraph" or len(text.split()) >= MIN_WORDS:
            return None  # prose, code or a list came first
    return None


def _paragraphs(doc: Document, rst: bool) -> Iterator[str]:
    """Top-level paragraphs outside installation, licence and contributing sections (list items, quotes and
    table cells are not the project's own summary), up to the first code example of a Markdown README."""
    for section in doc.sections:
        skipping = any(
            _SKIPPED_SECTION.search(heading) or RELEASE_HEADING.search(heading) for heading in section.path
        )  # "macOS" under "Installation"
        for block in section.blocks:
            if block.kind == "code" and not rst:
                return  # past the first code example the README teaches usage: its prose is not the summary
            if block.kind == "paragraph" and not skipping:
                yield block.plain if rst else block.text  # Markdown's code spans stay code on the overview
