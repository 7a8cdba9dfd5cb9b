"""Passages to sections: round-robin by maximal marginal relevance, no sentence or example quoted twice,
a strict section taking only passages of its facet."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from .candidate import Candidate
from .findings import Claim
from .sentences import items_read_alone, similar

CLAIMS_PER_QUESTION = 4


MMR_LAMBDA = 0.7  # relevance against diversity when a section picks its next passage


MIN_SHARE = 0.3  # a passage under this share of the section's best relevance is filler


TOO_SIMILAR = 0.6  # word overlap at which a passage says what the section already said


NEAR_COPY = 0.8  # word overlap at which a passage is another section's quote in other words


def allocate(
    pools: dict[str, list[Candidate]],
    *,
    used: set[str] | None = None,
    limit: int = CLAIMS_PER_QUESTION,
    strict: set[str] = frozenset(),  # type: ignore[assignment]
    asked: Collection[str] = (),
    first: Collection[str] = (),
) -> dict[str, list[Claim]]:
    """Passages to sections, round-robin so that no early section takes every good one (a section with fewer
    candidates chooses first, so a section only the newest sources answer keeps them): its own facet's
    passages first, then, in a section none of those answers, its best remaining one (fewer, stronger quotes:
    a passage naming none of the facet never pads a section), by maximal marginal relevance. No sentence is
    quoted twice, and a passage far weaker than the section's best is filler (verification researches an
    empty section).
    A `strict` section (limits, alternatives: a wrong answer misleads) takes only passages naming its facet or
    standing under a section heading of its facet. The aspects the topic `asked` by name choose before the
    facets every topic is asked ("Kratos 配置怎么热更新" takes "##### 3.热更新" before "如何工作？" does), and the
    topic's own question as written (`first`: the reader's) chooses before them: "How are Matrix rooms upgraded
    to a new room version?" quotes the server's upgrade steps, not the outline's "How do Matrix rooms work?"."""
    picked = _allocated(pools, used=used, limit=limit, strict=strict, asked=asked, first=first)
    parted = [q for q in first if q in pools and not picked[q] and any(c.fallback for c in pools[q])]
    if parted:
        # the question as written, left empty by the passages treating it whole ("What are Snap Deals and how
        # do they put data into committed capacity sectors?"), is answered part by part (`part_candidates`),
        # choosing before the outline's facets take those parts' passages (its part answers kept for below)
        pools = {
            q: [replace(c, fallback=False) for c in p if c.fallback or c.part] if q in parted else p
            for q, p in pools.items()
        }
        picked = _allocated(pools, used=used, limit=limit, strict=strict, asked=asked, first=first)
    picked = _with_part_answers(picked, pools, first, used or set())
    return {
        q: [Claim(c.text, [c.source], round(c.relevance, 4), c.code, c.items) for c in chosen]
        for q, chosen in picked.items()
    }


def _with_part_answers(
    picked: dict[str, list[Candidate]],
    pools: dict[str, list[Candidate]],
    first: Collection[str],
    used: set[str],
) -> dict[str, list[Candidate]]:
    """Each section as chosen, the question as written with the answer to each part it asks that the report
    quotes nowhere yet (`Candidate.part`: the opening of the section treating it, "…a discounted TradingFee
    for a 24 hour slot" for "how is its auction slot decided"): every passage chosen before stays where it is,
    and the section grows by at most one passage a part (asked_sections.MAX_PARTS)."""
    taken = used | {s for chosen in picked.values() for c in chosen for s in _taken_by(c)}
    everywhere = [_said_text(c) for chosen in picked.values() for c in chosen]
    return {
        q: [*chosen, *_part_answers(pools[q], taken, everywhere)] if q in first else chosen
        for q, chosen in picked.items()
    }


def _allocated(
    pools: dict[str, list[Candidate]],
    *,
    used: set[str] | None,
    limit: int,
    strict: Collection[str],
    asked: Collection[str],
    first: Collection[str],
) -> dict[str, list[Candidate]]:
    """`allocate`'s passages, each section's in the order chosen."""
    picked: dict[str, list[Candidate]] = {question: [] for question in pools}
    taken = set(used or ())
    everywhere: list[str] = []
    for facet_only in (True, False):
        progress = True
        while progress:
            progress = False
            # the question as written, asked aspects, then scarce pools first
            for question, pool in sorted(
                pools.items(), key=lambda qp: (qp[0] not in first, qp[0] not in asked, len(qp[1]))
            ):
                if len(picked[question]) >= limit or (question in strict and not facet_only):
                    continue
                if not facet_only and picked[question]:
                    continue  # a passage naming none of the facet fills an empty section, never pads one
                own = [c for c in pool if not c.fallback and not c.part]
                pick = _next_pick(own, picked[question], taken, everywhere, facet_only=facet_only)
                if pick is not None:
                    picked[question].append(pick)
                    taken.update(_taken_by(pick))
                    everywhere.append(_said_text(pick))
                    progress = True
        if facet_only:
            # a section none of its facet's passages answers takes its fallback passages (the examples of the
            # sections saying how it works, for how it is used) before any passage naming none of its facet
            # (the question as written keeps its fallbacks, the parts of a topic asking two questions, to
            # `allocate`)
            for question, pool in pools.items():
                if question not in first:
                    _fill(picked[question], [c for c in pool if c.fallback], taken, everywhere, limit)
    return picked


def _part_answers(pool: list[Candidate], taken: set[str], everywhere: list[str]) -> list[Candidate]:
    """The first passage of `pool` answering each asked part (`Candidate.part`) that no quote says already."""
    chosen: dict[int, Candidate] = {}
    for c in pool:
        if not c.part or c.part in chosen:
            continue
        if any(s in taken for s in _taken_by(c)) or any(
            similar(_said_text(c), t) > NEAR_COPY for t in everywhere
        ):
            continue
        chosen[c.part] = c
        taken.update(_taken_by(c))
        everywhere.append(_said_text(c))
    return list(chosen.values())


def _fill(
    have: list[Candidate], pool: list[Candidate], taken: set[str], everywhere: list[str], limit: int
) -> None:
    """An empty section's passages from `pool`, up to `limit`, none saying again what is quoted already."""
    if have:
        return
    while len(have) < limit:
        pick = _next_pick(pool, have, taken, everywhere, facet_only=False)
        if pick is None:
            return
        have.append(pick)
        taken.update(_taken_by(pick))
        everywhere.append(_said_text(pick))


def _taken_by(passage: Candidate) -> tuple[str, ...]:
    """What quoting a passage takes from every other: its sentences (`_said`) and the example it shows (GORM's
    Preload calls are shown once, under its definition's lead-in, not again under a caption of its own)."""
    return (*_said(passage), passage.code.strip()) if passage.code.strip() else _said(passage)


def _said(passage: Candidate) -> tuple[str, ...]:
    """What a passage says that no other may say again: its sentences, a table's label aside (Table's
    "Column:" quotes the sorter rows for 怎么排序 and the onFilter rows for 怎么筛选)."""
    if passage.items and items_read_alone(passage.text, passage.items):
        return tuple(s for s in passage.sentences if s != passage.text) or passage.sentences
    return passage.sentences


def _said_text(passage: Candidate) -> str:
    """The text a passage is compared by with those quoted already: a table's rows, else its text."""
    table = passage.items and items_read_alone(passage.text, passage.items)
    return " ".join(_said(passage)) if table else passage.text


def _next_pick(
    pool: list[Candidate], have: list[Candidate], taken: set[str], everywhere: list[str], *, facet_only: bool
) -> Candidate | None:
    # a passage opening a section that treats the facet goes first, and sets no bar for the others: the
    # passages found by their words are measured against the best of their kind
    top = max((c.relevance for c in pool if not c.treats), default=0.0) or max(
        (c.relevance for c in pool), default=0.0
    )
    # the passages opening sections that treat the facet are measured against the best of them: the order
    # their documents give them (SECTION_ORDER_DECAY) is kept, not flattened by the bar of the others
    top_treating = max((c.relevance for c in pool if c.treats), default=0.0)
    best: tuple[float, Candidate] | None = None
    for c in pool:
        if not c.treats and c.relevance < MIN_SHARE * top or (facet_only and c.facet_hits <= 0):
            continue
        if any(s in taken for s in _taken_by(c)) or any(
            similar(_said_text(c), t) > NEAR_COPY for t in everywhere
        ):
            continue
        redundancy = max((similar(c.text, h.text) for h in have), default=0.0)
        if redundancy > TOO_SIMILAR:
            continue
        bar = top_treating if c.treats else top
        mmr = (
            MMR_LAMBDA * (1.0 + c.treats) * min(c.relevance / (bar or 1.0), 1.0)
            - (1 - MMR_LAMBDA) * redundancy
        )
        if best is None or mmr > best[0]:
            best = (mmr, c)
    return best[1] if best else None
