"""The subject of a question as the corpus itself names it: the span of the question that the stored documents'
titles use as a name ("How can an XRPL token issuer claw back issued tokens" is about the "Clawback" a
specification is titled after, not about "XRPL", the name every page of the collection shares). The grammar cut
of `defining.plan_subject` stands where it names a thing of its own, or no title names any of the question's
spans."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..cjk import CJK_RUN
from ..text.words import STOPWORDS
from .defining import plan_subject, question_parts
from .keyphrases import GENERIC

# what a question's noun phrase never runs across: the words that frame, ask or join ("how does", "and")
_BREAK = (
    STOPWORDS | GENERIC | frozenset("can could should would will may might must proposed updated new".split())
)
# a hyphenated compound is one token: a span never starts or ends inside it ("non-blocking" is never "blocking")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+]*(?:-[A-Za-z0-9][A-Za-z0-9.+]*)*|[^\sA-Za-z0-9]")
MAX_SPAN = 5  # words: a name longer than this is a sentence


@dataclass(frozen=True)
class CorpusNames:
    """What a collection names: each stored document's title, and the words most of its documents hold (the
    collection's own name: 'XRPL', 'Kubeflow'), lower-case."""

    titles: tuple[str, ...]
    common: frozenset[str] = frozenset()

    @classmethod
    def of(cls, titles: Sequence[str], shared: Collection[str] = ()) -> CorpusNames:
        return cls(tuple(titles), frozenset(_stem(w.lower()) for w in shared))


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _words(text: str) -> list[str]:
    """Lower-case words, a hyphen or an underscore splitting them ("multi-purpose" → multi purpose)."""
    return [_stem(w) for w in re.findall(r"[a-z0-9]+", text.lower())]


def _phrase(words: Sequence[str]) -> str:
    return f" {' '.join(words)} "


def _named_in(span: Sequence[str], names: Collection[str]) -> tuple[bool, str]:
    """Whether one of `names` (each as its spaced words) holds the span, written apart or as one word ("claw
    back" ~ "Clawback"), and the span run together where it is one word there."""
    if any(_phrase(span) in n for n in names):
        return True, ""
    joined = "".join(span)
    return (True, joined) if len(span) > 1 and any(_phrase([joined]) in n for n in names) else (False, "")


def candidate_spans(question: str) -> list[tuple[int, list[str]]]:
    """(position, words) of every run of up to MAX_SPAN words of the English question that no framing,
    asking or joining word breaks, longest first."""
    runs: list[list[tuple[int, str]]] = [[]]
    for n, token in enumerate(_WORD.findall(question)):
        if not token[0].isalnum() or token.lower() in _BREAK:
            runs.append([])
        else:
            runs[-1].append((n, token))
    spans = []
    for run in runs:
        for size in range(min(MAX_SPAN, len(run)), 0, -1):
            for start in range(len(run) - size + 1):
                part = run[start : start + size]
                spans.append((part[0][0], [w for _, w in part]))
    return spans


def corpus_subject(topic: str, corpus: CorpusNames) -> str:
    """The subject of an English question-topic as the corpus names it where the grammar cut names no thing of
    its own: only words the whole collection shares ('Kubeflow' for "…the proposed Kubeflow data cache speed
    up…", 'XRPL'), or a second clause ("proposed Kubeflow SDK, what does it cover"); '' where the cut stands."""
    cut = plan_subject(topic)
    if not cut or CJK_RUN.search(topic) or cut == topic.strip().rstrip("?").strip():
        return ""
    own = [w for w in _words(cut) if w not in corpus.common and w not in _BREAK]
    if own and not _CLAUSE.search(cut) or _titled(cut, corpus.titles):
        # "Data Package" among the Data Package standard's pages: the collection is named after its subject
        return ""
    asked = (question_parts(topic) or [topic])[0]
    named = named_subject(asked, corpus)
    return named if named and named != cut else ""


# a clause mark or a question word: what no noun phrase holds
_CLAUSE = re.compile(r"[,;:]|\b(?:what|who|how|why|which|when|where)\b", re.I)


def _titled(name: str, titles: Sequence[str]) -> bool:
    """Whether a title is the name and nothing more, a number before a colon aside ("KEP-819: …")."""
    words = _words(name)
    return any(_words(title.rpartition(":")[2]) == words for title in titles)


def named_subject(question: str, corpus: CorpusNames) -> str:
    """The span of the English `question` that the corpus's titles name, specific rather than shared by the
    whole collection: the longest such span, the first in the question of equal length; '' when the titles
    name none."""
    titles = [_phrase(_words(t)) for t in corpus.titles]
    best: tuple[tuple[int, int], str] | None = None
    for position, span in candidate_spans(question):
        words = [w for token in span for w in _words(token)]
        own = [w for w in words if w not in corpus.common and w not in _BREAK and not w.isdigit()]
        if not own or (len(own) == 1 and len(own[0]) < 3):
            continue
        held, spelled = _named_in(words, titles)
        key = (len(own), -position)
        if held and (best is None or key > best[0]):
            best = (key, _written(span, spelled, corpus.titles))
    return best[1] if best else ""


def _written(span: Sequence[str], joined: str, names: Sequence[str]) -> str:
    """The span as the question writes it, or as the corpus does where it writes it as one word."""
    if not joined:
        return " ".join(span)
    found = next((m for n in names for m in re.findall(r"[A-Za-z0-9]+", n) if _stem(m.lower()) == joined), "")
    return found or " ".join(span)
