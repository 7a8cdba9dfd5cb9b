"""Is a document about the question? Field-weighted BM25 (BM25F) over title, headings and body, normalised to
a 0–1 relevance with its reasons, and a keep threshold that adapts to the scores a run has seen.

A question becomes `Term`s, one per concept with its spellings (stems, synonyms, glossary translations). A
title match counts twenty body mentions, a heading eight, the document's own lead (its abstract or first
paragraph) four; the score is the IDF-weighted share of the question the document covers, so a page that
names it in its title and opening outranks a changelog that mentions it in passing.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .. import cjk
from ..text.paragraphs import paragraphs
from ..text.words import STOPWORDS, ZH_STOPWORDS, compound_parts, latin_names, latin_words, stem, tokens

K1 = 10.0
# a code example names the words it uses, as prose does, but says less about what the document is about
# what other documents' links to it say (anchor text) names what it is about as its own opening does
WEIGHTS = {"title": 20.0, "headings": 8.0, "lead": 4.0, "anchor": 4.0, "body": 1.0, "code": 0.5}
# Length normalisation per field (BM25's b). The body is normalised fully: a long document names every
# word often, and only a term's density, not its count, says the document is about it.
LENGTH_NORM = {
    "title": 0.75,
    "headings": 0.5,
    "lead": 0.5,
    "anchor": 0.5,
    "body": 1.0,
    "code": 1.0,
}  # a title listing many things names each less
MIN_NORM = 0.5  # a short body is not credited more than twice its count
MIN_LENGTH = {
    "title": 4.0,
    "headings": 20.0,
    "lead": 60.0,
    "anchor": 60.0,
    "body": 300.0,
    "code": 300.0,
}  # the typical length of a whole document's field never drops below these


@dataclass(frozen=True)
class FieldScale:
    """How each field counts: its weight, its length normalisation (BM25's b) and the least typical length.
    Whole documents by default; `ask`'s passages, a paragraph or a definition each, bring their own."""

    weights: Mapping[str, float] = field(default_factory=lambda: WEIGHTS)
    length_norm: Mapping[str, float] = field(default_factory=lambda: LENGTH_NORM)
    min_length: Mapping[str, float] = field(default_factory=lambda: MIN_LENGTH)


MIN_IDF = 0.15  # a term every candidate carries still counts a little
# An incidental word of a question (a qualifier: "线上" in "如何热更新线上代码", "Coin" in "how does the fungible
# asset standard differ from Coin") weighs at most this share of the lightest word naming what it asks about.
INCIDENTAL = 0.5
# The fields naming what a document, or a part of it, is about: its title (a fragment's, the heading its includers
# put it under), its headings and the text of the links to it. A word none of the candidates names so is incidental.
NAMING = ("title", "headings", "anchor")
NEAR = 3  # the words of a phrase count as the phrase within this many tokens of each other
# The keep threshold: at least FLOOR, and at least RATIO of the best score the run has seen, so a strong
# run keeps only its strong documents and a run whose best document is weak keeps nothing below FLOOR.
FLOOR = 0.3
RATIO = 0.45
# A document must name the words that carry at least this share of the question's IDF weight: in pytest's
# docs "files" and "tests" are everywhere, and a page naming only them is not about "temporary files".
ON_POINT = 0.5
MIN_SPREAD = 6  # scores above the floor needed before the run's score distribution may set a natural break
MIN_GAP = 0.12  # …and how wide a drop must be to be one


@dataclass(frozen=True)
class Term:
    """One concept of a question: its label and its spellings, each a sequence of stems (a phrase)."""

    label: str
    forms: tuple[tuple[str, ...], ...]


Expand = Callable[[str], Iterable[str]]  # a word or phrase → other spellings (synonyms, translations)


def question_terms(
    text: str,
    *,
    expand: Expand | None = None,
    segment: Callable[[str], list[str]] | None = None,
    ignore: Iterable[str] = (),
) -> list[Term]:
    """The concepts of a question: one term per content word, each with the spellings `expand` knows for it.

    Chinese runs are cut by `segment` (the glossary's longest terms first) or jieba; words in `ignore`
    (facet words such as "benefits") are left out.
    """
    # an ignored word and its inflections ("limit", "limits"), not a longer word sharing its stem
    # ("generalized" is not "general")
    skipped: dict[str, int] = {}
    for ignored in ignore:
        key = stem(ignored.lower())
        skipped[key] = min(skipped.get(key, len(ignored)), len(ignored))
    terms: dict[str, Term] = {}
    for surface in _surface_words(text, segment):
        joined = tuple(tokens(surface)) if "-" in surface else ()
        if len(joined) == 1:  # "built-in": one content word
            surface = latin_words(surface.replace("-", " "))[0]
        word = "-".join(joined) if len(joined) > 1 else stem(surface) if surface.isascii() else surface
        inflected = word in skipped and len(surface) <= skipped[word] + 2
        if inflected or surface in skipped or len(word) < 2 and word.isascii():
            continue
        # a hyphenated compound is one concept, read as its words side by side: "non-lexical" is not "lexical"
        forms: set[tuple[str, ...]] = {joined if len(joined) > 1 else (word,)}
        if not surface.isascii():  # as documents are cut (jieba): 向量数据库 is read as 向量 数据库
            forms.add(tuple(tokens(surface)) or (word,))
        for other in expand(surface) if expand else ():
            spelled = tuple(tokens(other))
            if spelled:
                forms.add(spelled)
        terms.setdefault(word, Term(label=surface, forms=tuple(sorted(forms))))
    return list(terms.values())


def translated(term: Term) -> bool:
    """A word of a Chinese question spelled in English too (by the glossary): 上下文 → "context"."""
    return not term.label.isascii() and any(all(w.isascii() for w in form) for form in term.forms)


def spelled_term(label: str, spellings: Iterable[str]) -> Term:
    """A concept read elsewhere (`ask`'s question words with their synonyms and glossary twins) as the engine
    reads terms: each spelling as its sequence of stems."""
    forms = {spelled for spelling in spellings if (spelled := tuple(tokens(spelling)))}
    return Term(label=label, forms=tuple(sorted(forms)))


_HYPHENATED = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)+")


def _with_compounds(piece: str) -> list[str]:
    """A Latin piece's words, a hyphenated compound ("non-lexical", "profile-guided") kept whole."""
    words: list[str] = []
    at = 0
    for found in _HYPHENATED.finditer(piece):
        words.extend(latin_names(piece[at : found.start()]))
        if tokens(found.group()):
            words.append(found.group().lower())
        at = found.end()
    words.extend(latin_names(piece[at:]))
    return words


def _surface_words(text: str, segment: Callable[[str], list[str]] | None) -> list[str]:
    words: list[str] = []
    for piece in re.split(f"({cjk.CJK_RUN.pattern})", text):
        if cjk.CJK_RUN.fullmatch(piece):
            words.extend(w for w in (segment or cjk.words)(piece) if w not in ZH_STOPWORDS)
        else:
            words.extend(_with_compounds(piece))
    return list(dict.fromkeys(words))


@dataclass(frozen=True)
class Fields:
    """The parts of a document that relevance reads, each as it was written."""

    title: str
    headings: str
    body: str
    lead: str = ""  # the document's abstract or first paragraph, which says what it is about
    code: str = ""  # its code examples, when they are told apart from its prose
    anchor: str = ""  # what the links to it say: their text and sentence (documents/references.py)
    # the words its collection's name is written in ("Arthas", "Matrix"): every page of the collection is
    # about them, written or not, so a question's word among them asks nothing of this document
    context: str = ""


@dataclass(frozen=True)
class Relevance:
    score: float  # 0–1
    reasons: tuple[str, ...]
    matched: tuple[str, ...]  # labels of the terms found
    named: float = 0.0  # share of the question's IDF weight carried by the terms found (its specific words)
    phrased: bool = True  # names the question's phrase ("const generics") as one, not only its words apart

    @property
    def on_point(self) -> bool:
        """Does the document name what is specific to the question, not just its common words apart?"""
        return self.named >= ON_POINT and self.phrased


FieldTokens = dict[str, list[str]]  # field name → its stemmed tokens


# Release notes and changelogs: their titles and headings name versions and list every feature in passing.
_RELEASE_TITLE = re.compile(r"\bchange ?log\b|\brelease notes?\b|\bwhat's new\b|\bnews\b", re.I)
_VERSION = re.compile(r"\bv?\d+\.\d+(?:\.\d+)*\b", re.I)
# a heading numbered as a section of its document ("1.2.1 项目管理员权限", "3.2.1. Fields"): its number places it
# in the outline and names no version, unless the words after it announce one ("2.0.1 released")
_SECTION_NUMBER = re.compile(r"\s*\d+(?:\.\d+)+\.?\s+(?=[^\W\d_])(?!.*\b(?:releas|changes?\b|fix))", re.I)
# what a title says of the version it names when that version is the news: "Vite 7.0 is out!"
_RELEASED = re.compile(r"\breleas(?:e|ed|ing)\b|\bis out\b|\bannounc\w*|\bbug ?fix", re.I)
_EDITION = re.compile(r"\bversion\s+v?\d", re.I)  # "CloudEvents - Version 1.0.3": which edition it is


def field_tokens(doc: Fields) -> FieldTokens:
    """The tokens relevance reads. A release note's title and headings are left out: "2.2.0: marking++,
    parametrization++" lists a feature, it is not a page about it; its body still counts."""
    if is_release_notes(doc):
        empty: list[str] = []
        return {
            "title": [],
            "headings": [],
            "lead": [],
            "anchor": empty,
            "body": tokens(doc.body),
            "code": tokens(doc.code),
        }
    return {
        "title": tokens(doc.title),
        "headings": heading_tokens(doc.headings),
        "lead": tokens(doc.lead),
        "anchor": tokens(doc.anchor),
        "body": tokens(doc.body),
        "code": tokens(doc.code),
    }


def unsaid(terms: Sequence[Term], context: str) -> list[Term]:
    """The terms a document of a collection named in `context` must still name: those the collection's name
    spells are left out (every term when all are)."""
    named = set(tokens(context))
    left = [t for t in terms if not any(set(form) <= named for form in t.forms)] if named else list(terms)
    return left or list(terms)


# Between two headings in a document's run of heading words: a phrase is never read across it ("Auth Context"
# then "Attributes" does not name "context attributes"), and it is no word of the document's length.
WALL = "\x00"


def heading_tokens(headings: str) -> list[str]:
    """The tokens of a document's headings (one a line), a WALL between two headings."""
    out: list[str] = []
    for line in headings.splitlines():
        words = tokens(line)
        if words:
            out.extend([WALL, *words] if out else words)
    return out


def length(words: Sequence[str]) -> int:
    """How many words a field holds (its WALLs are no words)."""
    return len(words) - words.count(WALL)


def is_release_notes(doc: Fields) -> bool:
    """A changelog or release announcement: its title says so, or most of its headings name versions."""
    if _RELEASE_TITLE.search(doc.title) or _names_a_release(doc.title):
        return True
    headings = [h for h in doc.headings.splitlines() if h.strip()]
    versions = sum(1 for h in headings if _VERSION.search(h) and not _SECTION_NUMBER.match(h))
    return len(headings) >= 4 and versions * 2 >= len(headings)


def _names_a_release(title: str) -> bool:
    """A title whose version is its subject: the name and the version alone ("pytest-5.1.2", "React 19.2"),
    the version heading a summary ("py.test 2.0.1: bug fixes") or announced ("Vite 7.0 is out!"). A title
    naming the edition of a specification ("CloudEvents - Version 1.0.3") or a version inside what the
    document is about ("Go 1.5 Bootstrap Plan", "Schema File Format 1.0.0") is not a release note."""
    found = _VERSION.search(title)
    if not found:
        return False
    if _RELEASED.search(title):
        return True
    if _EDITION.search(title):
        return False
    rest = f"{title[: found.start()]} {title[found.end() :]}"
    return title[found.end() :].lstrip().startswith(":") or len(latin_words(rest)) <= 2


def idf(df: int, n: int) -> float:
    """BM25's inverse document frequency of a word `df` of `n` documents hold (smoothed, at least MIN_IDF):
    the one IDF of every ranking in deepkb."""
    return max(MIN_IDF, math.log(1 + (max(n, 1) - df + 0.5) / (df + 0.5)))


@dataclass
class CorpusStats:
    """What the run's candidates look like (thread-safe): which words each holds (for IDF) and how long each
    field typically is. Every candidate of a batch is added before any is scored, so the first document
    judged does not set the scale for itself."""

    vocab: dict[str, frozenset[str]] = field(default_factory=dict)
    lengths: dict[str, dict[str, int]] = field(default_factory=dict)
    scale: FieldScale = field(default_factory=FieldScale)
    # Where the candidates were drawn from a store that knows every document (`ask`'s passages): a term's
    # document frequency there and the store's size, so IDF is not skewed by candidates chosen for the terms.
    collection: Callable[[Term], int] | None = None
    collection_size: int = 0
    # Whether a question's words no candidate is named by weigh as incidental (`incidental`): the topic judge's
    # candidates, each a whole document with its title and the text of the links to it.
    qualifiers: bool = False
    # per candidate, the words that name it or its parts (NAMING)
    names: dict[str, frozenset[str]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # document frequencies and typical lengths, known until the next document joins
    _known: dict[object, float] = field(default_factory=dict, repr=False)

    def add(self, key: str, fields: FieldTokens) -> None:
        with self.lock:
            if key not in self.vocab:
                self.vocab[key] = frozenset(w for words in fields.values() for w in words)
                self.names[key] = frozenset(w for name in NAMING for w in fields.get(name, ()))
                self.lengths[key] = {name: length(words) for name, words in fields.items()}
                self._known.clear()

    def copy(self) -> CorpusStats:
        """An independent copy: a batch scored against it leaves this one as it was."""
        with self.lock:
            return CorpusStats(
                dict(self.vocab),
                dict(self.lengths),
                self.scale,
                self.collection,
                self.collection_size,
                self.qualifiers,
                dict(self.names),
            )

    def df(self, term: Term) -> int:
        """How many candidates (or documents of the collection) hold the term (a phrase: at most as many as
        hold its rarest word)."""
        with self.lock:
            if term not in self._known and self.collection is not None:
                self._known[term] = self.collection(term)
            elif term not in self._known:
                docs = self.vocab.values()
                counts = (min(sum(1 for d in docs if w in d) for w in form) for form in term.forms)
                self._known[term] = max(counts, default=0)
            return int(self._known[term])

    def idf(self, term: Term) -> float:
        """The term's inverse document frequency over the run's candidates."""
        return self.idf_of(self.df(term))

    def idf_of(self, df: int) -> float:
        """The IDF of a word `df` of the run's candidates hold (smoothed, at least MIN_IDF)."""
        with self.lock:
            n = self.collection_size if self.collection is not None else len(self.vocab)
        return idf(df, n)

    def weights(self, terms: Sequence[Term], subject: Collection[str] | None = None) -> list[float]:
        """The weight of each term: half its IDF, half the mean IDF. Candidates are found by the topic's
        own words, so inside the run those words are common and their IDF low; yet a document must name
        them to be about the topic, so every concept keeps an equal share of at least half the weight.
        A translated term (`translated`) weighs its IDF alone: 必需 becomes "required", which every
        attribute of every extension of a specification says, and must not decide which document is about
        必需的上下文属性 where "context attributes" is the rare, distinctive term. So does an incidental
        term (`incidental`), at most half the lightest term naming what the question asks about."""
        capped = self._capped_idfs(terms, subject)
        incidental = self.incidental(terms, subject)
        mean = sum(capped) / len(capped) if capped else 0.0
        return [
            w if translated(t) or i in incidental else (w + mean) / 2
            for i, (t, w) in enumerate(zip(terms, capped, strict=True))
        ]

    def specificity(self, terms: Sequence[Term], subject: Collection[str] | None = None) -> list[float]:
        """Each term's share of the question's capped IDF (not blended as in `weights`): how much of what
        is specific to the question naming it says."""
        capped = self._capped_idfs(terms, subject)
        total = sum(capped)
        return [w / total if total else 0.0 for w in capped]

    def _capped_idfs(self, terms: Sequence[Term], subject: Collection[str] | None = None) -> list[float]:
        """Each term's IDF, a term no candidate holds weighing no more than the rarest term some candidate
        holds: one word the collection never uses must not outweigh all the words it does; an incidental
        term (`incidental`) no more than INCIDENTAL of the lightest other term."""
        dfs = [self.df(t) for t in terms]
        idfs = [self.idf_of(df) for df in dfs]
        seen = [w for w, df in zip(idfs, dfs, strict=True) if df]
        cap = max(seen) if seen else max(idfs, default=MIN_IDF)
        capped = [min(w, cap) for w in idfs]
        incidental = self.incidental(terms, subject)
        if not incidental:
            return capped
        lightest = min(w for i, w in enumerate(capped) if i not in incidental)
        return [min(w, lightest) * INCIDENTAL if i in incidental else w for i, w in enumerate(capped)]

    def incidental(self, terms: Sequence[Term], subject: Collection[str] | None = None) -> set[int]:
        """The indexes of the terms that qualify a question rather than name what it asks about: those whose
        labels are outside its `subject` ("Coin" when the subject is "fungible asset standard"), and, where
        the candidates are named by some term (NAMING) and `qualifiers` is on, a term none is named by and one
        candidate alone holds: it describes that page, not what is asked about. "线上" (in production) of
        "arthas 如何热更新线上代码" is said by the introduction alone and titles no page, heading or link; 热更新 is
        the text of the link to retransform.md. A word several pages hold stays a concept however they are
        titled: 错误码 of "Kratos 错误码怎么定义和判断", whose page is titled 错误处理, while a heading says
        "Kratos". Empty when every term would be."""
        out = {i for i, t in enumerate(terms) if subject and t.label not in subject}
        if self.qualifiers:
            named = [self._names(t) for t in terms]
            if any(named):
                out |= {
                    i for i, (t, n) in enumerate(zip(terms, named, strict=True)) if not n and self.df(t) <= 1
                }
        return out if len(out) < len(terms) else set()

    def _names(self, term: Term) -> bool:
        """Whether some candidate's title, headings or links name the term (every word of one spelling)."""
        with self.lock:
            key = ("names", term)
            if key not in self._known:
                self._known[key] = float(
                    any(set(form) <= words for words in self.names.values() for form in term.forms)
                )
            return bool(self._known[key])

    def average(self, name: str) -> float:
        """The typical length of a field: the median, so one huge changelog does not make every other
        document look short (and so dense) next to it."""
        with self.lock:
            if name not in self._known:
                lengths = sorted(fields[name] for fields in self.lengths.values())
                self._known[name] = max(
                    float(lengths[len(lengths) // 2]) if lengths else 1.0,
                    self.scale.min_length.get(name, 1.0),
                )
            return self._known[name]


def score(
    fields: FieldTokens,
    terms: Sequence[Term],
    stats: CorpusStats,
    *,
    k1: float = K1,
    subject: Collection[str] | None = None,
) -> Relevance:
    """How much of the question a document is about (BM25F, normalised by the score of full coverage).
    The document should already be in `stats`. A lower `k1` lets a few mentions count fully sooner. The
    labels of `subject` name what the question asks about; its other terms are incidental (`incidental`)."""
    terms = readable_terms(fields, terms)
    if not terms:
        return Relevance(0.0, ("no question terms",), ())
    total = weight_sum = 0.0
    matched: list[str] = []
    where: dict[str, list[str]] = {name: [] for name in WEIGHTS}
    weights, length_norm = stats.scale.weights, stats.scale.length_norm
    averages = {name: stats.average(name) for name in fields}
    specific = stats.specificity(terms, subject)
    named = 0.0
    for term, idf, own in zip(terms, stats.weights(terms, subject), specific, strict=True):
        weight_sum += idf
        saturation = []  # per word the term is read as (one but for a cut Chinese compound)
        for forms in cut_words(fields, term):
            strength = 0.0
            for name, words in fields.items():
                tf = max(_count(form, words) for form in forms)
                if tf:
                    where[name].extend([term.label] if term.label not in where[name] else [])
                    norm = 1 - length_norm[name] + length_norm[name] * length(words) / averages[name]
                    strength += weights[name] * tf / max(norm, MIN_NORM)
            saturation.append(strength / (k1 + strength))
        total += idf * sum(saturation) / len(saturation)
        if all(saturation):
            matched.append(term.label)
            named += own
    value = round(total / weight_sum, 3) if weight_sum else 0.0
    return Relevance(value, _reasons(where, terms, matched), tuple(matched), round(named, 3))


def readable_terms(fields: FieldTokens, terms: Sequence[Term]) -> Sequence[Term]:
    """The terms a document can name at all: a document written without Chinese cannot name a Chinese word the
    glossary has no English twin for (软内存限制 over English proposals: 软 and 限制 have none), so such a term
    neither counts against it nor takes a share of the question; every term when none is readable."""
    readable = [t for t in terms if any(all(w.isascii() for w in form) for form in t.forms)]
    if len(readable) == len(terms) or not readable:
        return terms
    if any(not word.isascii() for words in fields.values() for word in words):
        return terms
    return readable


def cut_words(fields: FieldTokens, term: Term) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The spellings a document matches `term` by, one group per word it must name: a document written in
    Chinese reads a Chinese word of the question its segmentation cuts in two (the glossary's 路由配置, 环境变量配置, 表单验证) as
    those words, each found on its own, as 依赖预构建 already is and as an English document reads "routing
    configuration". Read as one phrase, the compound asked both words side by side: VitePress' routing page
    (titled 路由) scored 0 for 路由配置 and NestJS's configuration page (titled 配置) 0.12 for 环境变量配置,
    below the floor, so that run found no source at all."""
    words = next((f for f in term.forms if len(f) > 1 and "".join(f) == term.label), ())
    if words and any(not word.isascii() for found in fields.values() for word in found):
        return tuple(((w,),) for w in words)
    return (term.forms,)


def _reasons(where: dict[str, list[str]], terms: Sequence[Term], matched: list[str]) -> tuple[str, ...]:
    if not matched:
        return ("none of the question's terms appear",)
    found = [f"{name} names {', '.join(labels[:4])}" for name, labels in where.items() if labels]
    missing = [t.label for t in terms if t.label not in matched]
    return (*found, *([f"missing {', '.join(missing[:4])}"] if missing else []))


# a phrase's words side by side: words, and the marks and stopwords that part two words ("consts in generic")
_PHRASE_PIECE = re.compile(r"[A-Za-z][A-Za-z0-9]*|[^\sA-Za-z0-9-]")


def names_phrase(doc: Fields, form: tuple[str, ...]) -> bool:
    """Whether the document's title, one of its headings or its text names the phrase (stems, in its order)
    with no stopword or mark between its words: a name, where `_count` finds its words close together in
    any order ("Associated consts in generic code" names no "const generics")."""
    texts = [doc.title, *doc.headings.splitlines(), doc.lead, doc.body]
    return any(
        _side_by_side(_phrase_stems(text), form)
        for text in texts
        if form[0][: max(2, len(form[0]) - 1)] in text.lower()
    )


def _phrase_stems(text: str) -> list[str]:
    """The text's stems with a WALL at each stopword or mark; a compound identifier followed by its words'
    stems (`RateLimiter` names "rate limit"), as `tokens` reads it."""
    out: list[str] = []
    for piece in _PHRASE_PIECE.findall(text):
        word = piece.lower()
        out.append(stem(word) if word.isalnum() and word not in STOPWORDS else WALL)
        out.extend(stem(part) for part in compound_parts(piece))
    return out


def _side_by_side(words: list[str], form: tuple[str, ...]) -> bool:
    size = len(form)
    return any(tuple(words[i : i + size]) == form for i, w in enumerate(words) if w == form[0])


def _count(form: tuple[str, ...], words: list[str]) -> int:
    """Occurrences of a word, or of a phrase's words close together in any order ("trading strategy" is
    found in "a strategy that trades"): within NEAR tokens of its first word."""
    if len(form) == 1:
        return words.count(form[0])
    rest = set(form[1:])
    found = 0
    for i, word in enumerate(words):
        if word == form[0] and rest <= _near(words, i):
            found += 1
    return found


def _near(words: list[str], i: int) -> set[str]:
    """The words within NEAR tokens of the i-th, up to a WALL on either side."""
    before, after = words[max(0, i - NEAR) : i], words[i + 1 : i + NEAR + 1]
    if WALL in before:
        before = before[len(before) - before[::-1].index(WALL) :]
    if WALL in after:
        after = after[: after.index(WALL)]
    return {*before, *after}


_SENTENCE_END = re.compile(r"[.!?。！？]")


def lead_of(text: str, limit: int = 600) -> str:
    """A document's opening: its first paragraphs of prose, up to about `limit` characters (a header block
    of fields, "Author: … Status: …", is not prose: a paragraph without a sentence's end is skipped)."""
    lead = ""
    for block in paragraphs(text):
        block = " ".join(block.split())
        prose = _SENTENCE_END.search(block) or cjk.unstopped_sentence(block)
        if not prose or block.startswith(("#", "```")):  # a heading or a code example
            continue
        lead = f"{lead} {block}".strip()
        if len(lead) >= limit:
            break
    return lead[: limit * 2]


def keep_threshold(best: float, *, floor: float = FLOOR, ratio: float = RATIO) -> float:
    """The score a document needs to be kept, given the best score seen in the run."""
    return max(floor, ratio * best)


def natural_break(scores: Sequence[float], *, floor: float = FLOOR, ratio: float = RATIO) -> float:
    """The lowest score above the widest drop among the run's strong scores (those ≥ `ratio` × best), when
    there are enough scores to see one and the drop is wide (≥ MIN_GAP); else 0. A run whose documents fall
    into "about it" and "mentions it" is cut between the two, wherever the two groups sit on the scale.
    "About it" is a group: the drop below the best score alone is no break (the best document stands
    apart from the next in most runs, "Phase 0 -- Weak Subjectivity Guide" from "Electra -- Weak
    Subjectivity Guide"), so a break never keeps one document where `ratio` keeps more."""
    strong = sorted((s for s in scores if s >= floor), reverse=True)
    if len(strong) < MIN_SPREAD:
        return 0.0
    top = [s for s in strong if s >= ratio * strong[0]]
    drops = [(top[i] - top[i + 1], top[i]) for i in range(1, len(top) - 1)]
    if 1 < len(top) < len(strong):  # the drop from the last strong score to the first weak one counts too
        drops.append((top[-1] - strong[len(top)], top[-1]))
    gap, above = max(drops, default=(0.0, 0.0))
    return above if gap >= MIN_GAP else 0.0
