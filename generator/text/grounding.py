"""Is a sentence a model wrote grounded in the text it was given? Most of its content words (stemmed, CJK
segmented) must occur in that text. A weak model copies a fact's citation and writes beside it a sentence of
its own ("this makes it a very important and useful concept for all parts of the stack"), or echoes the
prompt's instructions ("Sure, here is a guide page on …"); neither shares much with the facts.

The share is fixed, not fitted to any reply: half the sentence's content words, and at least two of them
(all of them when it has fewer). A sentence whose only content words speak of the text itself ("this is a
summary of the content in the file", "the documentation provides a clear understanding") says nothing of
its subject, whatever it shares.
"""

from __future__ import annotations

from collections.abc import Iterable

from .words import tokens

GROUNDED_SHARE = 0.5
MIN_SHARED = 2
# words a model uses to talk about the text it was given rather than its subject
_ABOUT_THE_TEXT = frozenset(
    tokens(
        "summary summarize content contents file document documentation text article source sources passage "
        "section page paragraph information details description describes explains understanding provides "
        "guide example mentioned following above below"
    )
)


def source_words(texts: Iterable[str]) -> frozenset[str]:
    """The stemmed content words of the texts a model was given."""
    return frozenset(word for text in texts for word in tokens(text))


def grounded(sentence: str, source: frozenset[str]) -> bool:
    """Whether most of `sentence`'s content words occur in `source` (see the module docstring); a sentence
    with no content word ("1. 3-5:", "And so on...") is not grounded."""
    said = set(tokens(sentence))
    if not said - _ABOUT_THE_TEXT:
        return False
    shared = len(said & source)
    return shared >= min(MIN_SHARED, len(said)) and shared >= GROUNDED_SHARE * len(said)
