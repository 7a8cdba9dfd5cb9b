"""The records the docs stage returns: passages quoted from the project's own documentation, each with the
lines it came from, grouped into the concepts the docs are about. The page layer renders them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from generator.repo.model import CitedSymbol, DocPassage, FlowBranch, KeyType

__all__ = ["DocConcept", "DocPage", "DocPassage", "ProjectDocs", "ReleaseTag", "table_cells", "table_text"]

_CELL_BREAK = re.compile(r"(?<!\\) \| ")


def table_text(rows: Sequence[Sequence[str]]) -> str:
    """A table passage's text: a row a line, its cells joined by " | ", a pipe within a cell escaped ("\\|":
    superstruct's `string \\| number \\| undefined`) so that the cells come back as written."""
    return "\n".join(" | ".join(cell.replace("|", "\\|") for cell in row) for row in rows)


def table_cells(text: str) -> list[list[str]]:
    """The rows of a table passage's text, each a list of its cells (`table_text`)."""
    rows = [_CELL_BREAK.split(row) for row in text.splitlines() if row.strip()]
    return [[cell.replace("\\|", "|") for cell in row] for row in rows]


@dataclass(frozen=True)
class DocPage:
    """One doc file: its title and the passages a page quotes from it, in order. A page that says it is no
    longer in force (`standing`: "obsolete", "deprecated"…) is listed with that label and quotes nothing: it
    never explains how something works now."""

    path: str
    title: str
    passages: tuple[DocPassage, ...]
    standing: str = ""
    # the code objects the page documents from their docstrings (autodoc, mkdocstrings), each with the line
    # of its marker: the built page shows the docstrings there
    api: tuple[tuple[str, int], ...] = ()
    # its own level-1 heading, when it has one under another title ("HTTP Middleware Overview" on the page
    # traefik's navigation calls "Overview"): a folded page's passages under it are the page's own, not a part
    headline: str = ""


@dataclass(frozen=True)
class DocConcept:
    """A part of the project as its docs present it: a navigation section (or a page of its own), its pages
    in the docs' order, and the code symbols those pages name, resolved to their definitions."""

    name: str
    slug: str
    pages: tuple[DocPage, ...]
    symbols: tuple[CitedSymbol, ...] = ()
    types: tuple[KeyType, ...] = ()  # the classes among `symbols`, each with its main public methods
    flow: tuple[
        FlowBranch, ...
    ] = ()  # the code that does it: a call tree from the symbol leading to most code
    named: tuple[CitedSymbol, ...] = ()  # every symbol its pages name, in the docs' order (`symbols`: shown)
    package_code: tuple[CitedSymbol, ...] = ()  # … and the key code of the package named like it, unnamed


@dataclass(frozen=True)
class ReleaseTag:
    """The newest release tag reachable from the revision read: where a project whose version comes from
    its git tags (versioningit, Go modules, semantic-release) stands when no changelog says."""

    name: str  # "v2.30.0"
    date: str  # ISO date it was tagged
    since: int  # commits from it to the revision read


@dataclass(frozen=True)
class ProjectDocs:
    """What the project says about itself: the overview, the usage examples and the concepts."""

    root: str  # the docs folder read ("" when the project has none)
    files: int  # doc files read
    overview: tuple[DocPassage, ...] = ()
    examples: tuple[DocPassage, ...] = ()  # code blocks whole, each after the sentence that introduces it
    install: tuple[DocPassage, ...] = ()  # how to install it: requirement lines and install commands
    # where it stands: the README's stability section, the latest release, the manifests' status and
    # requirements (release.py), each headed by what it says
    release: tuple[DocPassage, ...] = ()
    tag: ReleaseTag | None = None  # … and the newest release tag, when no changelog heads a release
    prerelease: ReleaseTag | None = None  # … and a pre-release tag newer than it (the revision's "1.0a37")
    example_symbols: tuple[CitedSymbol, ...] = ()  # what the examples call, resolved
    concepts: tuple[DocConcept, ...] = ()
    # the docs' own getting-started page, quoted whole among the examples and so no concept of the guide: its
    # code path and the code it names go on Getting started
    started: DocConcept | None = None
    readme: str | None = None  # the README's first real paragraph, redacted (None when there is no README)
    # docs pages deepkb failed to read (a bug of its readers, never of the page): each path with the error,
    # left out of every page and named by the run
    unreadable: tuple[tuple[str, str], ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.overview or self.examples or self.install or self.concepts)
