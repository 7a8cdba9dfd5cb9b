"""What a guide page's code links lead with: the code its concept is about, before the code every page names.

A concept's pages name many symbols; most of the guide's examples set up the same few (ormar's `OrmarConfig`,
`Integer`, `String` open every model of every page). A symbol most concepts name says little about any one
of them, the way a word in most documents weighs nothing in a search."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from generator.repo.docs.model import DocConcept
from generator.repo.facts.ranking import TYPE_KINDS
from generator.repo.model import CitedSymbol

SHARED_SHARE = 0.5  # a symbol at least this share of the concepts name is every page's, none's own
SHARED_LEAST = 3  # … and at least this many: in a guide of four pages, two naming `Router` is no frame
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")  # an identifier's or a title's words
# words a title links its subjects with ("Filter and sort", "Use with mypy"): never a symbol's subject (`and_`)
_LINKING = frozenset("a an and or not the of to in on by for with from into as how use using".split())
# a docs page's place that says nothing of its subject
_PLACE_ONLY = frozenset({"docs", "doc", "index", "readme", "_index", "overview", "intro", "introduction"})


def specific_symbols_first(concepts: Sequence[DocConcept], limit: int) -> list[DocConcept]:
    """Each concept with at most `limit` symbols: its subject first (`_subject`: ormar's "Signals" →
    `Signal`), then what its pages name (`DocConcept.named`) that few other concepts do, then the key code
    of the package named like it, then what most concepts name; each group in the docs' order. anyio's
    every page ended on `run(main)`, tenacity's opened on `retry`, ormar's every page on `OrmarConfig` /
    `Integer` / `String`, and the eight links a page showed were spent on them: Signals never reached
    `receiver` or `pre_save`. A concept naming nothing but shared symbols keeps them; its key types follow
    what it keeps."""
    pools = [(c.named, c.package_code) if c.named or c.package_code else (c.symbols, ()) for c in concepts]
    named = Counter(name for said, code in pools for name in {s.name for s in (*said, *code)})
    least = max(SHARED_LEAST, SHARED_SHARE * len(concepts))
    shared = {name for name, count in named.items() if count >= least}
    found = []
    for concept, (said, code) in zip(concepts, pools, strict=True):
        subject = _subject(concept, said, code)
        own = [s for s in said if s not in subject and s.name not in shared]
        local = [s for s in code if s not in subject and s.name not in shared]
        common = [s for s in (*said, *code) if s not in subject and s.name in shared]
        symbols = (*subject, *own, *local, *common)[:limit]
        kept = {s.name for s in symbols}
        types = tuple(t for t in concept.types if t.symbol.name in kept)
        found.append(replace(concept, symbols=symbols, types=types))
    return found


def _subject(
    concept: DocConcept, said: Sequence[CitedSymbol], code: Sequence[CitedSymbol]
) -> list[CitedSymbol]:
    """What the concept is about, whichever other concept names it too: what its pages name that its name
    or their place names (ormar's Relations pages foreign-key.md, many-to-many.md → `ForeignKey`,
    `ManyToMany`), then the exported code of its package its name names (fx's "Lifecycle" → `Lifecycle`;
    traefik's unexported `circuitBreaker` is no reader's subject)."""
    found = [*titled(said, concept.name), *titled(said, _place_words(concept))]
    found += [s for s in titled(code, concept.name) if _exported(s)]
    return list({(s.path, s.name): s for s in reversed(found)}.values())[::-1]


def _exported(cited: CitedSymbol) -> bool:
    """Whether a symbol is its package's to others: a Go name is when it is capitalised."""
    return not (cited.path.endswith(".go") and cited.name[:1].islower())


def titled(
    symbols: Sequence[CitedSymbol], title: str, kinds: frozenset[str] | None = None
) -> list[CitedSymbol]:
    """The symbols whose name is words of `title` (of `kinds` only, when given): rich's "Tables" page is
    about `Table`, ormar's "Signals" about `Signal`, whichever other page names them too."""
    words = {_singular(w) for w in _WORDS.findall(title.lower())} - _LINKING
    return [
        cited
        for cited in symbols
        if (kinds is None or cited.kind in kinds)
        and (own := [_singular(w.lower()) for w in _WORDS.findall(cited.name.rsplit(".", 1)[-1])])
        and set(own) <= words
    ]


def subject_symbols(concept: DocConcept) -> list[CitedSymbol]:
    """The symbols the concept shows that its name or its pages' place names: what it is about (huma's
    "Middleware" → `Middlewares`, beanie's "Defining a document" → `Document`), whatever else it calls."""
    found = [*titled(concept.symbols, concept.name), *titled(concept.symbols, _place_words(concept))]
    return list({(s.path, s.name): s for s in found}.values())


def titled_types(concept: DocConcept) -> list[CitedSymbol]:
    """The concept's types (among the symbols it shows) its own name names: where its code path starts."""
    return titled(concept.symbols, concept.name, TYPE_KINDS)


def _place_words(concept: DocConcept) -> str:
    """What the place of a concept's pages says of it: the folder they share (ormar's "Definition" page is
    docs/models/index.md, about `Model`) and each page's own name; not every folder on the way there
    (traefik's routing/routers/ holds its TCP and UDP pages alike)."""
    paths = [page.path for page in concept.pages]
    if not paths:
        return ""
    folder = posixpath.commonpath([posixpath.dirname(p) for p in paths])
    places = [PurePosixPath(folder).name, *(PurePosixPath(p).stem for p in paths)]
    return " ".join(p for p in places if p.lower() not in _PLACE_ONLY)


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word
