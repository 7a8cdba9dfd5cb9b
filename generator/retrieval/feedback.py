"""Iterative retrieval, shared by repository focus and topic research.

The seed's loop: dispatch (search) → evaluate (score each new candidate 0–1 with a reason) → refine (add the
words that set the good candidates apart: pseudo-relevance feedback; exclude what scored < 0.2) → repeat, at
most 3 cycles. It goes on while new good candidates appear and stops once 3 score ≥ 0.7 and a cycle brings
no new one. Callers supply dispatch and evaluate (an LLM judge, or the lexical judge below offline).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..text.words import content_words, tokens
from .scoring import CorpusStats, idf, question_terms, score

T = TypeVar("T")

MAX_CYCLES = 3
GOOD_SCORE = 0.7
ENOUGH_GOOD = 3
EXCLUDE_BELOW = 0.2
LEXICAL_K1 = 1.2  # BM25's usual saturation: a term named three times scores about 0.7 of a full match


@dataclass
class Query:
    terms: list[str]
    excludes: set[str] = field(default_factory=set)  # candidate keys never to dispatch again
    cycle: int = 1

    def text(self) -> str:
        return " ".join(self.terms)


@dataclass
class Judged(Generic[T]):
    key: str
    item: T
    score: float  # relevance 0–1
    reason: str


@dataclass
class Cycle:
    terms: list[str]
    judged: list[tuple[str, float, str]]  # (key, score, reason), as the trace shows them


@dataclass
class Retrieval(Generic[T]):
    kept: list[Judged[T]]  # every candidate scored ≥ EXCLUDE_BELOW, best first
    cycles: list[Cycle]
    stopped_because: str

    def trace(self) -> dict[str, object]:
        """The JSON-ready trace saved beside the research and shown on its page."""
        return {
            "stopped_because": self.stopped_because,
            "cycles": [
                {
                    "cycle": n,
                    "terms": c.terms,
                    "judged": [{"key": k, "score": round(s, 3), "reason": r} for k, s, r in c.judged],
                }
                for n, c in enumerate(self.cycles, 1)
            ],
        }


Dispatch = Callable[[Query], Sequence[T]]
Evaluate = Callable[[Query, Sequence[T]], list[Judged[T]]]
TextOf = Callable[[T], str]


def iterative_retrieval(
    initial_terms: Sequence[str],
    *,
    dispatch: Dispatch[T],
    key: Callable[[T], str],
    evaluate: Evaluate[T],
    text_of: TextOf[T] | None = None,
) -> Retrieval[T]:
    """Run the dispatch → evaluate → refine loop and return what was kept, with its trace."""
    query = Query(terms=_dedupe_terms(initial_terms))
    kept: dict[str, Judged[T]] = {}
    cycles: list[Cycle] = []
    reason = f"reached {MAX_CYCLES} cycles"
    for cycle in range(1, MAX_CYCLES + 1):
        query.cycle = cycle
        fresh = [c for c in dispatch(query) if key(c) not in query.excludes and key(c) not in kept]
        judged = evaluate(query, fresh) if fresh else []
        cycles.append(Cycle(list(query.terms), [(j.key, j.score, j.reason) for j in judged]))
        for j in judged:
            if j.score < EXCLUDE_BELOW:
                query.excludes.add(j.key)
            else:
                kept[j.key] = j
        new_good = any(j.score >= GOOD_SCORE for j in judged)
        if sum(1 for j in kept.values() if j.score >= GOOD_SCORE) >= ENOUGH_GOOD and not new_good:
            reason = f"{ENOUGH_GOOD} or more candidates scored ≥ {GOOD_SCORE} and no new one appeared"
            break
        if not fresh:
            reason = "no new candidates"
            break
        query = refine(query, judged, text_of=text_of)
    ranked = sorted(kept.values(), key=lambda j: (-j.score, j.key))
    return Retrieval(kept=ranked, cycles=cycles, stopped_because=reason)


def refine(
    query: Query,
    judged: Sequence[Judged[T]],
    *,
    text_of: TextOf[T] | None,
    new_terms: int = 3,
) -> Query:
    """Pseudo-relevance feedback: add the words the high-relevance candidates share and the other candidates
    lack (how many good ones hold a word, times its rarity among all judged), which the query lacks."""
    excludes = set(query.excludes) | {j.key for j in judged}  # judged ones are not dispatched again
    if text_of is None:
        return Query(terms=list(query.terms), excludes=excludes, cycle=query.cycle + 1)
    have = {t.lower() for term in query.terms for t in term.split()}
    words = {j.key: set(content_words(text_of(j.item))) for j in judged}
    every: Counter[str] = Counter(w for found in words.values() for w in found)
    good: Counter[str] = Counter(
        w for j in judged if j.score >= GOOD_SCORE * 0.8 for w in words[j.key] - have
    )
    weight = {w: n * idf(every[w], len(judged)) for w, n in good.items() if len(w) > 2}
    # ties: by word, not set order
    extra = [term for term, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:new_terms]]
    return Query(terms=_dedupe_terms([*query.terms, *extra]), excludes=excludes, cycle=query.cycle + 1)


def lexical_relevance(
    terms: Sequence[str], text: str, stats: CorpusStats | None = None, *, words: Sequence[str] = ()
) -> tuple[float, str]:
    """The offline judge: BM25 (retrieval/scoring.py) of `text` (or its stemmed `words`, when known)
    for the query terms, with the IDF of `stats` (the text alone when None).

    Returns (score 0–1, reason naming the matched terms).
    """
    wanted = question_terms(" ".join(terms))
    if not wanted:
        return 0.0, "no query terms"
    body = {"body": list(words) or tokens(text)}
    if stats is None:
        stats = CorpusStats()
        stats.add("", body)
    found = score(body, wanted, stats, k1=LEXICAL_K1)
    if not found.matched:
        return 0.0, "none of the query terms appear"
    return found.score, f"matches {', '.join(found.matched[:6])}" + (" …" if len(found.matched) > 6 else "")


def _dedupe_terms(terms: Iterable[str]) -> list[str]:
    normalized = (" ".join(str(term).split()).lower() for term in terms)
    return list(dict.fromkeys(term for term in normalized if term))
