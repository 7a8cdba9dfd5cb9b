"""The docs' own getting-started page read as the first use the project shows: Getting started quotes it whole,
its steps in prose as well as its code (ko's get-started.md: authenticate, choose the destination with
`KO_DOCKER_REPO`, then `ko build`), and the guide does not list it a second time under a near-same name."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from generator.repo.docs.model import DocConcept, DocPage, DocPassage

# what a page that walks a newcomer through a first use is called, in its title or its file name
GETTING_STARTED = re.compile(r"^\W*(?:(?:getting|get) started|quick ?start|first steps)\W*$", re.IGNORECASE)
_ORDINAL = re.compile(r"^[\d_.-]+")  # "01-getting-started"


@dataclass(frozen=True)
class Started:
    """The concepts and the examples once the docs' getting-started page is folded into Getting started."""

    concepts: tuple[DocConcept, ...]
    examples: tuple[DocPassage, ...]
    page: DocConcept | None = None  # the folded concept: its code path and symbols go with it


def fold_started(
    concepts: Sequence[DocConcept],
    examples: Sequence[DocPassage],
    readme: str,
    installing: Callable[[str], bool],
) -> Started:
    """The first concept that is one getting-started page showing code, taken out of the concepts and quoted
    whole in the examples where its own examples stood (else after the README's): its install section left
    out when `installing` (a heading predicate) is given — Getting started opens with the install steps."""
    concept = next((c for c in concepts if _walks_through(c)), None)
    if concept is None:
        return Started(tuple(concepts), tuple(examples))
    page = concept.pages[0]
    quoted = [p for p in page.passages if not installing(p.heading)]
    own = [n for n, p in enumerate(examples) if p.quoted_in == page.path]
    after_readme = [n + 1 for n, p in enumerate(examples) if p.quoted_in == readme]
    at = own[0] if own else max(after_readme, default=0)
    kept = [p for p in examples if p.quoted_in != page.path]  # the page's own examples come first in it
    return Started(
        tuple(c for c in concepts if c is not concept),
        (*kept[:at], *quoted, *kept[at:]),
        concept,
    )


def _walks_through(concept: DocConcept) -> bool:
    """A concept that is one page named as a getting-started page and showing code: a page of pointers
    (griffe's "To begin using Griffe, refer to Installation …") or a tutorial of several pages (fx's "Get
    started with Fx", nine pages) stays a guide page of its own."""
    if len(concept.pages) != 1:
        return False
    page = concept.pages[0]
    return _named_so(page) and any(p.kind == "code" for p in page.passages)


def _named_so(page: DocPage) -> bool:
    stem = _ORDINAL.sub("", PurePosixPath(page.path).stem).replace("-", " ").replace("_", " ")
    return bool(GETTING_STARTED.match(page.title) or GETTING_STARTED.match(stem))
