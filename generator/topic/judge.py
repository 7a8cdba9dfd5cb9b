"""The run's relevance judge: is a found source about the topic, and which sub-question does it serve?

One judge per run holds the topic's terms (expanded through synonyms and the bilingual glossary), the
document frequencies of every candidate judged, and the best score seen; a source is kept when it reaches
the threshold that score sets (retrieval/scoring.py), whether this scorer or a model judged it.

The run's seed retrieval (topic/research.py) calibrates the judge, then `settle` fixes its statistics and
threshold: the plan's steps, which run in parallel, each score their candidates against that same scale
(plus their own batch), so what a step keeps never depends on which other step finished first.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .. import cjk
from ..kb.synonyms import Synonyms, default_synonyms
from ..retrieval.scoring import (
    FLOOR,
    CorpusStats,
    Fields,
    Relevance,
    Term,
    field_tokens,
    keep_threshold,
    names_phrase,
    natural_break,
    question_terms,
    score,
    tokens,
    unsaid,
)
from ..text.words import STOPWORDS, ZH_STOPWORDS, stem
from .keyphrases import DESCRIPTIVE, GENERIC, asks, subjects

# Words the heuristic plan adds to a facet's query or question ("overview", "benefits") and lone adjectives
# ("fast"): they say which aspect is asked about, not what the topic is; no source is relevant for naming them.
FACET_WORDS = (
    GENERIC
    | DESCRIPTIVE
    | frozenset(
        """overview definition purpose design mechanism process steps drawbacks trade-offs trade offs alternatives
    instead differs developments status recent figures reported sources 定义 概念 原理 机制 优点 局限 比较 替代
    现状 进展 是什么 如何 工作 有哪些 相比 区别 方案 其他 用 使用""".split()
    )
)
# Facet words that are also nouns naming things. Next to another content word of the topic, with no stopword
# or mark between, such a word is part of the subject's name: "type hints", "soft memory limit", "state 批处理".
# Ignored there, "type hints" was judged on "hints" alone and a PEP on "a length hint" ranked first. Standing
# alone or beside facet words ("the limits of X", "current state") it still only names the aspect asked about.
NAMING_NOUNS = frozenset(
    "type types state states limit limits example examples issue issues problem problems risk risks role"
    " history future difference differences".split()
)
_PHRASE_TOKEN = re.compile(rf"[A-Za-z][A-Za-z0-9'-]*|{cjk.CJK_RUN.pattern}|\S")
MODEL_FLOOR = 0.4  # a model's scores are calibrated differently: its floor is its own
# A source is kept at this share of the run's best score: measured over five collections (bench/
# topic_retrieval.py), 0.6 keeps every defining document and drops most pages that only mention the topic.
KEEP_RATIO = 0.6
_LATIN_WORDS = re.compile(r"[a-z][a-z0-9]*")
MAX_PHRASE = 3  # more adjacent words than this describe a subject ("global interpreter lock optional")
MIN_PHRASED = 3  # candidates that must write a topic's phrase before a document is asked to name it so


def name_phrases(topic: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The phrases naming each subject the topic joins ("A and B": A's, then B's; the topic's own when it
    joins none): its runs of two or three adjacent content words, as stems ("const generics" → ("const",
    "generic")). Apart, those words name other things: an RFC on associated items says "const" and "generic"
    in passing, never "const generics". A topic asked as a question has none (its verbs stand next to its
    nouns without naming anything with them), nor do Chinese words (segmentation keeps compounds whole)."""
    if asks(topic):
        return ()
    parts = subjects(topic)
    ignore = {stem(w) for w in ignored_words(topic)}
    return tuple(_adjacent_runs(subject, ignore) for subject in parts[1:] or parts)


def _adjacent_runs(subject: str, ignore: set[str]) -> tuple[tuple[str, ...], ...]:
    runs: list[tuple[str, ...]] = []
    run: list[str] = []
    for word in [*_PHRASE_TOKEN.findall(subject), "."]:
        stems = tokens(word) if word.isascii() else []
        if stems and not ignore.intersection(stems):
            run.extend(stems)
            continue
        if 2 <= len(run) <= MAX_PHRASE:
            runs.append(tuple(run))
        run = []
    return tuple(runs)


def naming_words(text: str) -> set[str]:
    """The NAMING_NOUNS of `text` that stand next to a content word (not a stopword, a facet word or a mark):
    "type" in "type hints", "limit" in "soft memory limit", "state" in "state 批处理"; not "limits" in "the
    limits of X", nor "state" in "the current state of X"."""
    found = _PHRASE_TOKEN.findall(text)
    words = [w.lower() for w in found]

    def content(word: str) -> bool:
        if cjk.CJK_RUN.fullmatch(word):
            return word not in ZH_STOPWORDS
        return word[:1].isalpha() and word not in STOPWORDS and word not in FACET_WORDS

    return {
        word
        for i, word in enumerate(words)
        if word in NAMING_NOUNS and any(0 <= j < len(words) and content(words[j]) for j in (i - 1, i + 1))
    }


def ignored_words(text: str) -> frozenset[str]:
    """The facet words relevance leaves out of `text`'s concepts: all of FACET_WORDS but those naming part of
    the subject there (`naming_words`), with their inflections ("types" beside "type")."""
    named = {stem(w) for w in naming_words(text)}
    return frozenset(w for w in FACET_WORDS if stem(w) not in named) if named else FACET_WORDS


@dataclass
class Judgement:
    """A source's relevance to the topic (the keep decision) and to the sub-question that found it."""

    topic: Relevance
    question: Relevance


@dataclass
class RelevanceJudge:
    """Relevance scoring shared by the steps of one run (thread-safe)."""

    topic: str
    synonyms: Synonyms = field(default_factory=default_synonyms)
    # a word of the topic no candidate's title or links name qualifies it (retrieval/scoring.py `incidental`)
    stats: CorpusStats = field(default_factory=lambda: CorpusStats(qualifiers=True))
    best: float = 0.0
    by_question: dict[str, dict[str, float]] = field(default_factory=dict)  # source key → question → score
    topic_scores: dict[str, float] = field(default_factory=dict)  # source key → relevance to the topic
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    settled: dict[bool, float] | None = None  # model judged? → threshold, once the seed has calibrated it
    # per subject (index into `name_phrases`), the candidates naming its phrases as phrases: only a phrase
    # the collection writes as a name (MIN_PHRASED candidates) is asked of a document. "question mark
    # operator", where the documents write `?`, asks nothing, nor does "Linux namespaces", which one document
    # writes where the Linux configuration has a "Namespaces" section.
    phrased_by: dict[int, set[str]] = field(default_factory=dict)
    # the words naming the one collection every source comes from ("arthas" over Arthas' pages): no concept of
    # the topic, since its pages leave them unsaid (retrieval/scoring.py `unsaid`)
    collection: str = ""
    # what a topic asking two questions of its subject asks about (defining.py `compared_subject`): the words
    # of the topic outside it qualify it (retrieval/scoring.py `incidental`); '' for every other topic
    subject: str = ""
    _terms: dict[str, list[Term]] = field(default_factory=dict, repr=False)
    _subject: frozenset[str] | None = field(default=None, repr=False)

    def terms(self, text: str) -> list[Term]:
        """The concepts of a topic or question (cached): facet words left out, spellings expanded, and the
        words of a phrase the synonym table knows ("version control systems") also matched by the phrase's
        other spellings ("VCS")."""
        with self.lock:
            if text not in self._terms:
                ignore = ignored_words(text)
                terms = question_terms(
                    text, expand=self.spellings, segment=self.synonyms.glossary.compounds, ignore=ignore
                )
                self._terms[text] = unsaid(self._with_phrase_spellings(text, terms), self.collection)
            return self._terms[text]

    def _with_phrase_spellings(self, text: str, terms: list[Term]) -> list[Term]:
        words = _LATIN_WORDS.findall(text.lower())
        by_label = {t.label: t for t in terms}
        for size in (3, 2):
            for start in range(len(words) - size + 1):
                phrase = words[start : start + size]
                canonical = self.synonyms.lookup(" ".join(phrase))
                group = self.synonyms.group(canonical) if canonical else []
                others = {tuple(tokens(v)) for v in group} - {()}
                for word in phrase:
                    term = by_label.get(word)
                    if term and others:
                        by_label[word] = Term(term.label, tuple(sorted(set(term.forms) | others)))
        return [by_label[t.label] for t in terms]

    def spellings(self, word: str) -> Iterable[str]:
        """Other spellings of a word: its synonym group and its twins in the other language."""
        found = list(self.synonyms.glossary.spellings(word))
        canonical = self.synonyms.lookup(word)
        if canonical:
            found.extend(self.synonyms.group(canonical) or [canonical.replace("-", " ")])
        return found

    def expanded_query(self, text: str) -> str:
        """A query with the English twins of its Chinese words appended (套利 → arbitrage), so that a Chinese
        topic finds English sources; an English query is returned as it is."""
        if not cjk.CJK_RUN.search(text):
            return text
        twins: dict[str, None] = {}
        for run in cjk.CJK_RUN.findall(text):
            for word in self.synonyms.glossary.segment(run):
                twins.update(dict.fromkeys(self.synonyms.glossary.english(word)))
        extra = [t for t in twins if t.lower() not in text.lower()]
        return " ".join([text, *extra])

    def judge(self, docs: Sequence[tuple[str, Fields]], question: str) -> list[Judgement]:
        """Score each (key, document) against the topic and against `question`, and remember both. The whole
        batch joins the run's statistics first, so every document is scored on the same scale."""
        tokenized = [(key, field_tokens(doc)) for key, doc in docs]
        stats = self.stats if self.settled is None else self.stats.copy()
        for key, fields in tokenized:
            stats.add(key, fields)
        topic_terms = self.terms(self.topic)
        subject = self.subject_labels()
        asked = self.terms(question) if question.strip() else []
        phrased = self._phrased(docs)
        verdicts = []
        for (key, fields), names_it, (_, doc) in zip(tokenized, phrased, docs, strict=True):
            on_topic = score(fields, unsaid(topic_terms, doc.context), stats, subject=subject)
            if not names_it and on_topic.matched:
                reason = "names the topic's words only apart, never as its phrase"
                on_topic = replace(on_topic, phrased=False, reasons=(*on_topic.reasons, reason))
            for_question = score(fields, unsaid(asked, doc.context), stats) if asked else on_topic
            self.record(key, on_topic.score, question, for_question.score)
            verdicts.append(Judgement(on_topic, for_question))
        return verdicts

    def subject_labels(self) -> frozenset[str]:
        """The labels of the terms naming `subject`: "What is the fungible asset standard and how does it
        differ from Coin?" asks about the standard, and "Coin" only qualifies it. Empty (every term) without
        a subject or when it is the whole topic."""
        if self._subject is None:  # the same for every caller: computed twice at worst
            said = self.subject.strip()
            whole = said == self.topic.strip().rstrip("?？").strip()
            self._subject = (
                frozenset(t.label for t in self.terms(said)) if said and not whole else frozenset()
            )
        return self._subject

    def _phrased(self, batch: Sequence[tuple[str, Fields]]) -> list[bool]:
        """For each (key, document): whether it names the topic as a phrase (`name_phrases`): every phrase
        of one subject the topic joins, or the words of a subject whose phrase the candidates do not write
        as a name. Until the judge settles, a batch's own documents count among the candidates."""
        phrases = name_phrases(self.topic)
        if not any(phrases):
            return [True] * len(batch)
        named = [
            {i for i, runs in enumerate(phrases) if runs and all(names_phrase(doc, r) for r in runs)}
            for _, doc in batch
        ]
        with self.lock:
            if self.settled is None:
                for (key, _), own in zip(batch, named, strict=True):
                    for i in own:
                        self.phrased_by.setdefault(i, set()).add(key)
            required = {i for i, keys in self.phrased_by.items() if len(keys) >= MIN_PHRASED}
        return [any(i not in required or i in own for i in range(len(phrases))) for own in named]

    def record(self, key: str, topic_score: float, question: str, question_score: float) -> None:
        with self.lock:
            if self.settled is not None:  # the scale is fixed: only what a source serves is remembered
                self.topic_scores.setdefault(key, topic_score)
                scores = self.by_question.setdefault(key, {})
                scores[question] = max(scores.get(question, 0.0), round(question_score, 3))
                return
            self.best = max(self.best, topic_score)
            self.topic_scores[key] = max(self.topic_scores.get(key, 0.0), topic_score)
            if question.strip():
                scores = self.by_question.setdefault(key, {})
                scores[question] = max(scores.get(question, 0.0), round(question_score, 3))

    def threshold(self, *, model: bool = False) -> float:
        """The relevance a source needs to be kept, given the scores the run has seen so far (once settled,
        the scores of the seed retrieval): the floor, a share of the best, and the natural break between
        documents about the topic and the rest."""
        with self.lock:
            if self.settled is not None:
                return self.settled[model]
            best = self.best
            scores = list(self.topic_scores.values())
        floor = MODEL_FLOOR if model else FLOOR
        return max(
            keep_threshold(best, floor=floor, ratio=KEEP_RATIO),
            natural_break(scores, floor=floor, ratio=KEEP_RATIO),
        )

    def settle(self) -> None:
        """Fix the statistics and thresholds seen so far (the seed retrieval's): from now on every batch is
        judged against them, whatever order the steps run in."""
        thresholds = {model: self.threshold(model=model) for model in (False, True)}
        with self.lock:
            self.settled = thresholds

    def questions_served(self, key: str) -> dict[str, float]:
        with self.lock:
            return dict(self.by_question.get(key, {}))
