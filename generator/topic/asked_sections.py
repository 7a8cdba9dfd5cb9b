"""The stored section answering each thing a question asks beyond naming its subject ("…, and how are its
trading fee and auction slot decided?": "#### 3. Governance: Trading Fee Voting Mechanism" and "#### 4.
Continuous Auction Mechanism"): field-weighted BM25 over the sections of the defining documents, a heading
naming the part's words counting most, a word every section says counting least. Each part's answer is the
opening passage of its section, quoted beside the passages answering the question whole (`allocate`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..retrieval.scoring import CorpusStats, FieldScale, Term, score
from ..text.words import tokens
from .candidate import Candidate
from .defining import question_parts
from .opening_passages import opening_passages
from .parts import part_facets, part_words
from .section_candidates import SECTION_FACET_HITS, section_candidate
from .section_tree import SectionPassage, TextSection, text_sections, with_example_below
from .sentences import is_changelog, list_parts, list_quote
from .workspace import RawSource

MAX_PARTS = 3  # asked parts answered beside the question's own passages: the section grows by at most this
HEADING_WEIGHT = 8.0  # a heading names what its section treats: one mention there counts as many in its text
SECTION_K1 = 2.0  # a few mentions in one section count fully
BODY_NORM = 0.75  # BM25's b over a section's text: a long section names every word more often
# a section read as BM25F reads a document: its heading names it (each word once, whatever its length), its
# text against the sections' typical length
SECTION_SCALE = FieldScale(
    weights={"headings": HEADING_WEIGHT, "body": 1.0},
    length_norm={"headings": 0.0, "body": BODY_NORM},
    min_length={"headings": 1.0, "body": 1.0},
)

# two things one question asks of its subject, joined: "its trading fee and auction slot", "类型和权限"
_JOINED = re.compile(r",?\s+(?:and|as well as)\s+|\s*(?:以及|和|与|及|、)\s*", re.IGNORECASE)
# the words a part asks with, beside parts.py's question words: "how does X work" asks how it works, "怎么实现的"
# how it is done, "how do they differ from trust lines" what sets it apart from trust lines
_ASKING = frozenset(tokens("work works happen happens apply applies differ differs compare 实现 区别 相比"))


def asked_parts(topic: str) -> list[set[str]]:
    """The words of each thing a topic asks beyond naming its subject, one set per thing, stemmed: the
    questions it asks one after another (`question_parts`), and the things one of them joins ("trading fee",
    "auction slot decided" of "how are its trading fee and auction slot decided"). A part asking what a thing
    is ("What are IRCv3 message tags", "what is a settlement engine") is left to the outline's definition; []
    for a topic asking one question."""
    found: list[set[str]] = []
    for part in question_parts(topic):
        if part_facets(part) == ("what",):
            continue  # what a thing is, its definition says ("what is a settlement engine"), not a section opening
        for piece in _JOINED.split(part):
            words = part_words(piece, topic) - _ASKING
            if words and words not in found:
                found.append(words)
    return found[:MAX_PARTS]


def part_answers(
    topic: str, sources: Sequence[RawSource], said: frozenset[str] = frozenset()
) -> list[Candidate]:
    """The opening passage of the section of `sources` (the defining documents in force) answering each
    part of a topic asking two questions (`asked_parts`), marked with its part's number (1…): "The minimum
    price to buy a slot for 24-hour period…" comes from the auction's section, not from the abstract. A part
    no section is headed for gets none."""
    sections = [entry for source in sources for entry in _sections(source)]
    found: list[Candidate] = []
    for number, words in enumerate(asked_parts(topic), 1) if sections else ():
        best = _best_section(sections, words, said)
        if best is not None:
            found.append(replace(best, part=number))
    return found


# a section of a defining document: its source's id, the section, and the index of the section it stands in
# (-1: none)
Entry = tuple[str, TextSection, int]


def _sections(source: RawSource) -> list[Entry]:
    """The sections of a source that may answer a part, each with its example below it (`with_example_below`)
    and the section it stands in; not its title's, nor a change log's."""
    if is_changelog(source.title, source.url):
        return []
    tree = text_sections(source.text)
    found: list[Entry] = []
    above: list[tuple[int, int]] = []  # (level, index in `found`) of the sections enclosing the next one
    for n, section in enumerate(tree):
        if not section.heading or not section.blocks or _titles(section, source):
            continue
        while above and above[-1][0] >= section.level:
            above.pop()
        found.append((source.id, with_example_below(tree, n), above[-1][1] if above else -1))
        above.append((section.level, len(found) - 1))
    return found


def _best_section(sections: Sequence[Entry], words: set[str], said: frozenset[str]) -> Candidate | None:
    """The opening passage of the best-scoring section headed for `words` (`_headed_for`) that has one, read
    from the outermost section headed for them that encloses it: "4. Continuous Auction Mechanism" says
    what "4.1.2. AuctionSlot field" details."""
    fields = [_fields(section) for _, section, _ in sections]
    scores = _bm25(fields, sorted(words))
    headed = {n for n, field in enumerate(fields) if _headed_for(*field, words)}
    for n in sorted(headed, key=lambda n: (-scores[n], n)):
        outer = [n]
        while (n := sections[n][2]) >= 0:
            outer += [n] if n in headed else []
        for m in reversed(outer):
            source_id, section, _ = sections[m]
            opening = _opening(section, said)
            if opening is not None:
                return section_candidate(opening, source_id, SECTION_FACET_HITS, 0)
    return None


def _opening(section: TextSection, said: frozenset[str]) -> SectionPassage | None:
    """A section's opening passage (`opening_passages`), else the lead-in it opens on with the list standing
    below it ("Namespace类型有三种：" and 私有类型 / 公共类型 / 关联类型 under "5. Namespace的类型"); None for neither."""
    passages = opening_passages(section, 1, example_alone=True, said=said)
    if passages:
        return passages[0]
    blocks = section.blocks
    if len(blocks) < 2 or not blocks[0].rstrip().endswith((":", "：")) or list_parts(blocks[0])[1]:
        return None
    below, items = list_parts(blocks[1])
    listed = list_quote(f"{blocks[0]}\n{blocks[1]}", opening=True) if items and not below.strip() else None
    if listed is None or said.intersection(listed.parts):
        return None
    return SectionPassage(listed.text, listed.parts, section.heading, items=listed.items)


def _titles(section: TextSection, source: RawSource) -> bool:
    """Whether a section's heading is its document's title: the whole document, which the outline answers."""
    return section.heading.strip().casefold() == source.title.strip().casefold()


def _headed_for(heading: set[str], body: list[str], words: set[str]) -> bool:
    """Whether a section treats a part: its heading names at least half the part's words ("Trading Fee
    Voting Mechanism" for "trading fee"), or names one and its text the others up to half ("Continuous Auction
    Mechanism", whose text says "slot", for "auction slot decided"); not a heading naming none."""
    named = heading & words
    return bool(named) and 2 * len(named | (words & set(body))) >= len(words)


def _fields(section: TextSection) -> tuple[set[str], list[str]]:
    """The words BM25 reads of a section: its heading's, and its text's as written (stemmed)."""
    return set(tokens(section.heading)), tokens("\n".join(section.blocks))


def _bm25(fields: Sequence[tuple[set[str], list[str]]], words: Sequence[str]) -> list[float]:
    """Each section's score for `words` by the one BM25F of deepkb (retrieval/scoring.py), sections for
    documents: a word in its heading counting HEADING_WEIGHT mentions, each word weighing its IDF over the
    sections, so a word every section says decides little."""
    stats = CorpusStats(scale=SECTION_SCALE)
    read = [{"headings": sorted(heading), "body": body} for heading, body in fields]
    for n, field in enumerate(read):
        stats.add(str(n), field)
    terms = [Term(w, ((w,),)) for w in words]
    return [score(field, terms, stats, k1=SECTION_K1).score for field in read]
