"""What is specific about the topic: every stored sentence in the judge's statistics, and which passages
name the topic's point rather than its common words."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from ..retrieval.scoring import Fields, Relevance, field_tokens
from ..text.sentences import split_sentences
from .judge import RelevanceJudge
from .workspace import RawSource

ON_POINT = 0.5  # share of the best passage's topic weight (IDF) a passage's concepts must carry


def sentence_statistics(judge: RelevanceJudge, sources: list[RawSource]) -> None:
    """Every sentence of every stored source joins the judge's statistics, so a word's IDF says how rare it
    is in what was stored, not among the sentences already picked for naming the topic: in a Flask testing
    run "flask" and "application" are everywhere and "test" is the point."""
    for source in sources:
        for n, sentence in enumerate(split_sentences(source.text)):
            judge.stats.add(f"{source.id}~{n}", field_tokens(Fields("", "", sentence)))


def point_shares(
    judge: RelevanceJudge,
    found: list[Relevance],
    *,
    share: float = ON_POINT,
    titles: Sequence[str] = (),
    others: Sequence[str] = (),
) -> list[bool]:
    """Which passages name what is specific about the topic: its rarest concept any passage names ("retries"
    in "celery task retries"), concepts carrying `share` of the best passage's weight, or a concept the
    sources' titles name that is as specific as the topic's median one (the rarest may be incidental) and
    that no title in `others` (the sources not about the topic) names: "applications" in "Testing Click
    Applications" is no point when "Complex Applications" is stored too."""
    terms = judge.terms(judge.topic)
    weights = {t.label: judge.stats.idf(t) for t in terms}
    named = [sum(w for label, w in weights.items() if label in r.matched) for r in found]
    best = max(named, default=0.0)
    # the rarest concept the stored text names at all (a word no stored sentence holds has the largest IDF)
    unseen = judge.stats.idf_of(0)
    seen = {label for r in found for label in r.matched if label in weights}
    seen |= {label for label, w in weights.items() if w < unseen - 1e-9}
    # ties broken by the label, so the same sources give the same report whatever the hash seed
    point = max(seen, key=lambda label: (weights[label], label), default=None)
    points = {point} | (_title_points(judge, weights, titles) - _title_points(judge, weights, others))
    return [
        best == 0 or (n >= share * best and bool(points & set(r.matched)))
        for n, r in zip(named, found, strict=True)
    ]


def _title_points(judge: RelevanceJudge, weights: dict[str, float], titles: Sequence[str]) -> set[str]:
    """The topic's concepts that a stored source's title names, no more common than the median concept."""
    if not weights or not titles:
        return set()
    median = statistics.median(weights.values())
    titled = {t.label for title in titles for t in judge.terms(title)}
    return {label for label, weight in weights.items() if label in titled and weight >= median}
