"""How to install the project, in its own words: the first install section of the README or of a docs page, up
to its last block that installs."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from itertools import takewhile

from generator.documents import Document
from generator.documents.model import Block
from generator.repo.docs.codeblocks import INSTALL_LINE, badge_markup, install_only, program_output
from generator.repo.docs.headings import skipped_section, under_install
from generator.repo.docs.model import DocPassage
from generator.repo.synthesize.readme import NOTICE

INSTALL_PASSAGES = 8  # the install steps quote at most this many blocks of the project's install section …
MIN_STEP_WORDS = 4  # a shorter paragraph of an install section that installs nothing is a link left bare
INSTALL_BLOCKS = 3  # … and this many code blocks: more is a list of package managers, not a first step
# a docs page titled as the way to install the project ("Installation", "Installing mise", "Install") — never a
# command's reference page (mise's docs/cli/install.md is "`mise install`")
_INSTALL_TITLE = re.compile(r"^\W*install(?:ation|ing)?\b", re.IGNORECASE)
_SPAN = re.compile(r"`([^`\n]+)`")
_INSTALL_KINDS = frozenset({"paragraph", "item", "code"})


def install_steps(documents: Iterable[Document]) -> list[DocPassage]:
    """How to install the project, in its own words: the first install section of the README or of a docs
    page in the docs' order (a page titled "Installation" whole), with its requirement lines and its first
    install blocks — copier's "Install Python 3.10 or newer", `pipx install copier`, `brew install copier`;
    expr's `go get github.com/expr-lang/expr`; ky's `npm install ky` —, each cited at its lines; [] when no
    document says how to install it."""
    for document in documents:
        part = _install_part(document)
        if not part.sections and _INSTALL_TITLE.match(document.title):
            part = document  # a page titled so under no such heading (its title in its front matter)
        if found := _install_passages(part):
            return found
    return []


def _install_part(document: Document) -> Document:
    """The first section of `document` under an "Install"/"Installation" heading, with its subsections
    (copier's "Homebrew formula" under "Installation")."""
    sections = list(document.sections)
    first = next((n for n, s in enumerate(sections) if under_install(s.path[-1:])), len(sections))
    heading = sections[first].path[-1] if first < len(sections) else ""
    part = takewhile(lambda s: heading in s.path, sections[first:])
    return replace(document, sections=tuple(part))


def _install_passages(document: Document) -> list[DocPassage]:
    """The blocks of an install section up to its last that installs (a command, or a code span holding
    one), within `INSTALL_PASSAGES` and `INSTALL_BLOCKS`; notes, quotes and images left out."""
    found: list[DocPassage] = []
    blocks: list[Block] = []  # the code blocks that count against INSTALL_BLOCKS
    # an install page of alternatives, one a subsection: one that installs nothing (ko's release download and
    # its provenance check, a CI step) spends no room the package managers after it need
    top = document.sections[0].path if document.sections else ()
    installing = {id(s) for s, b in document.blocks() if _installs_block(b)}
    for section, block in document.blocks():
        if skipped_section(section) or block.kind not in _INSTALL_KINDS or not block.text.strip():
            continue
        if len(section.path) > len(top) and id(section) not in installing:
            continue
        if _bare_link(block):
            continue  # "More info here" under a package manager's command: a link, no step
        if block.kind == "code" and (badge_markup(block.text) or program_output(block)):
            continue
        if block.kind != "code" and (NOTICE.match(block.text) or not any(ch.isalnum() for ch in block.text)):
            continue
        if len(found) >= INSTALL_PASSAGES or len(blocks) >= INSTALL_BLOCKS:
            break
        # … a one-line command under its own subsection is one way in of a menu, each labelled: ko's Homebrew,
        # MacPorts, Scoop, then `go install` — only the passages' room bounds them
        if block.kind == "code" and not (len(section.path) > len(top) and "\n" not in block.text.strip()):
            blocks.append(block)
        found.append(
            DocPassage(
                block.origin or document.origin,
                block.start,
                block.end,
                block.kind,
                block.text,
                section.heading,
                block.language,
                document.origin if block.origin else "",
            )
        )
    last = max((n for n, p in enumerate(found) if _installs(p)), default=-1)
    return found[: last + 1]


def _installs(passage: DocPassage) -> bool:
    """Whether a passage installs the project: a code block of install commands, or prose whose code span is
    one (copier's "To use as a library: `pip install copier`")."""
    return _installs_text(passage.kind, passage.text)


def _bare_link(block: Block) -> bool:
    """A paragraph of a few words that neither installs nor leads into what follows ("Start Traefik:")."""
    text = block.text.strip()
    short = len(text.split()) < MIN_STEP_WORDS and not text.endswith((":", "："))
    return block.kind == "paragraph" and short and not _installs_block(block)


def _installs_block(block: Block) -> bool:
    return _installs_text(block.kind, block.text)


def _installs_text(kind: str, text: str) -> bool:
    if kind == "code":
        return install_only(text)
    return any(INSTALL_LINE.match(span.strip().removeprefix("$").strip()) for span in _SPAN.findall(text))
