"""Extractive summarization: the offline analyst's way of writing prose it can stand behind.

Sentences are scored by how common their content words are across the text, with a small bonus for coming
early; the best are returned in their order, so every line traces back to its source.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .text.sentences import split_sentences
from .text.words import content_words


@dataclass(frozen=True)
class RankedSentence:
    text: str
    index: int
    score: float


def rank_sentences(text: str, *, focus: str = "") -> list[RankedSentence]:
    """All sentences with scores, best first. Words of `focus` (a query) weigh triple."""
    sentences = split_sentences(text)
    freq = Counter(w for s in sentences for w in set(content_words(s)))
    focus_words = set(content_words(focus))
    ranked = []
    for index, sentence in enumerate(sentences):
        words = content_words(sentence)
        if not words:
            continue
        weight = sum(freq[w] * (3 if w in focus_words else 1) for w in set(words))
        score = weight / (len(words) ** 0.5) + 1.0 / (1 + index)
        ranked.append(RankedSentence(sentence, index, score))
    ranked.sort(key=lambda r: (-r.score, r.index))
    return ranked


def summarize(text: str, *, sentences: int = 3, focus: str = "", max_chars: int = 320) -> list[str]:
    """The `sentences` most central sentences of `text`, in original order, each cut to `max_chars`."""
    best = sorted(rank_sentences(text, focus=focus)[:sentences], key=lambda r: r.index)
    return [_clip(r.text, max_chars) for r in best]


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
