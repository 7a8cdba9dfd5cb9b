"""The project in its own words: the README's first real paragraph (not a badge, an install line, a heading
or a licence notice), parsed as markdown (markdown-it-py) or, for reStructuredText, by its blocks.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from generator.text.plaintext import inline_text

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
_RST_NOISE = re.compile(r"^(\.\. |:\w+:|[=\-~^\"'`#*+<>]{3,}\s*$|\|[\w-]+\|)")
_RST_ROLE = re.compile(r":[\w:-]+:`([^`<]*?)(?:\s*<[^>]*>)?`")


def first_paragraph(text: str, rst: bool = False) -> str:
    """The first paragraph that reads as prose about the project; "" when there is none."""
    candidates = _rst_paragraphs(text) if rst else _markdown_paragraphs(text)
    for paragraph in candidates:
        flat = " ".join(paragraph.split())
        if (
            len(flat.split()) >= MIN_WORDS
            and not _BOILERPLATE.search(flat)
            and not _NOT_A_DESCRIPTION.search(flat)
            and flat[-1:] in ".!?:)"
        ):
            return flat.rstrip(":") + ("." if flat.endswith(":") else "")
    return ""


def _markdown_paragraphs(text: str) -> list[str]:
    tokens = MarkdownIt("commonmark").parse(text)
    paragraphs = []
    skipping = False  # inside an installation, licence or contributing section
    for i, token in enumerate(tokens):
        if token.type in {"fence", "code_block"}:
            break  # past the first code example the README teaches usage: its prose is not the summary
        if token.type == "heading_open" and i + 1 < len(tokens):
            skipping = bool(_SKIPPED_SECTION.search(tokens[i + 1].content))
        # top-level paragraphs only: list items, quotes and table cells are not the project's own summary
        elif token.type == "paragraph_open" and token.level == 0 and i + 1 < len(tokens) and not skipping:
            paragraphs.append(inline_text(tokens[i + 1].children or [], code=True))
    return paragraphs


def _rst_paragraphs(text: str) -> list[str]:
    blocks = re.split(r"\n\s*\n", text)
    paragraphs = []
    for block in blocks:
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines or lines[0].startswith((" ", "\t")) or any(_RST_NOISE.match(ln) for ln in lines):
            continue
        joined = _RST_ROLE.sub(r"\1", " ".join(lines))
        paragraphs.append(re.sub(r"`+([^`]*?)(?:\s*<[^>]*>)?`+_{0,2}", r"\1", joined).replace("**", ""))
    return paragraphs
