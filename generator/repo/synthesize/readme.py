"""The project in its own words: the README's first real paragraph (not a badge, an install line, a heading
or a licence notice), read through the document model (generator/documents).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator.documents import read_text

MIN_WORDS = 5
_BOILERPLATE = re.compile(
    r"\b(pip install|npm (i|install)|yarn add|go get|go install|cargo add|licen[cs]ed? under|copyright"
    r"|all rights reserved|pull requests? (are|is) welcome|build status|code of conduct|table of contents)\b",
    re.IGNORECASE,
)
# what a front page says that is not what the project is: release news, thanks, and how-to steps
_NOT_A_DESCRIPTION = re.compile(
    r"\b(?:(?:is|are) (?:now )?(?:out|released|available (?:now|on))|we(?:'re| are) (?:excited|happy|pleased|proud)"
    r"|announc\w+|release notes|new (?:major )?version|sponsor\w*|backers?|donat\w+|thanks? (?:to|you)"
    r"|see the (?:authors|contributors|notice|changelog) file|maintained by)\b"
    r"|^(?:once|to|first|then|next|now|install|import|use|see|check|read|visit|please|note|if)\b",
    re.IGNORECASE,
)
_SKIPPED_SECTION = re.compile(
    r"install|licen[cs]e|contribut|sponsor|backer|security|changelog|support|credits|authors|badges|table of contents",
    re.IGNORECASE,
)


def first_paragraph(text: str, rst: bool = False) -> str:
    """The first paragraph that reads as prose about the project; "" when there is none."""
    for paragraph in _paragraphs(text, rst):
        flat = " ".join(paragraph.split())
        if (
            len(flat.split()) >= MIN_WORDS
            and not _BOILERPLATE.search(flat)
            and not _NOT_A_DESCRIPTION.search(flat)
            and flat[-1:] in ".!?:)"
        ):
            return flat.rstrip(":") + ("." if flat.endswith(":") else "")
    return ""


def _paragraphs(text: str, rst: bool) -> Iterator[str]:
    """Top-level paragraphs outside installation, licence and contributing sections (list items, quotes and
    table cells are not the project's own summary), up to the first code example of a Markdown README."""
    doc = read_text(text, name="README", markup="rst" if rst else "markdown")
    for section in doc.sections:
        skipping = bool(_SKIPPED_SECTION.search(section.heading))
        for block in section.blocks:
            if block.kind == "code" and not rst:
                return  # past the first code example the README teaches usage: its prose is not the summary
            if block.kind == "paragraph" and not skipping:
                yield block.plain if rst else block.text  # Markdown's code spans stay code on the overview
