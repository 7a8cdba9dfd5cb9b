"""Extractive summarization: the offline analyst's way of writing prose it can stand behind.

Sentences are scored by the frequency of their content words across the text (a TF-style centrality),
with a small bonus for coming early; the best ones are returned in their original order. No sentence is
invented, so every summary line can be traced back to its source.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])|\n{2,}")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]+|[\u3400-\u9fff]")
STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have he her his how i if in
    into is it its may more most no not of on or our she should so such than that the their them then there
    these they this those to too under up us was we were what when where which while who why will with would
    you your also use used using via each other any all one two new see get set""".split()
)


@dataclass(frozen=True)
class RankedSentence:
    text: str
    index: int
    score: float


def split_sentences(text: str) -> list[str]:
    text = re.sub(r"[ \t]+", " ", text)
    parts = (part.strip() for part in _SENTENCE_END.split(text))
    return [part for part in parts if _long_enough(part) and _WORD.search(part)]


def _long_enough(sentence: str) -> bool:
    # a CJK character carries about a word, so short Chinese sentences still count
    return len(sentence) >= 12 or sum(1 for ch in sentence if _is_cjk(ch)) >= 5


def content_words(text: str) -> list[str]:
    return [
        w for w in (m.lower() for m in _WORD.findall(text)) if w not in STOPWORDS and len(w) > 1 or _is_cjk(w)
    ]


def _is_cjk(word: str) -> bool:
    return len(word) == 1 and "\u3400" <= word <= "\u9fff"


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
