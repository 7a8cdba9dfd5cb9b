"""Key phrases of a topic — the terms it is about ("knowledge base"), not the words that ask ("how") — for
its tags and keywords and for the heuristic plan's sub-questions.

A topic is cut into chunks at stopwords, generic words and punctuation; with source texts, a chunk keeps the
runs of words the sources use together, ranked by how many sources name them, and only phrases enough
sources use become tags. Chinese is segmented with glossary terms kept whole, jieba between them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .. import cjk
from ..kb.glossary import default_glossary
from ..text.words import STOPWORDS, ZH_STOPWORDS

MIN_SUPPORT = 2  # a run of words the sources use this often is a phrase (once is the fallback)
MAX_WORDS = 4  # a chunk longer than this is never one phrase

# Words that ask about a subject or describe an aspect of it, not the subject itself: never a tag, never X
# in "What is X?". Inflections are listed because no stemmer runs here.
GENERIC = frozenset(
    """how what why which who whom whose when where whether keep keeps kept keeping make makes made making
    use uses used using usage get gets got getting work works worked working do does did doing done help
    helps helped helping handle handles handled handling need needs needed want wants way ways thing things
    stay stays staying become becomes run runs running go goes going give gives take takes allow allows
    enable enables let lets provide provides mean means good best better new different various many much
    some really actually simply basic basics overview introduction intro guide tutorial explained explain
    explains understanding compare compared comparison versus vs tips state current recent today modern
    about between among within without across over against toward towards per limit limits limitation
    limitations benefit benefits advantage advantages disadvantage disadvantages pro pros con cons role
    impact future history trend trends difference differences type types example examples challenge
    challenges problem problems issue issues risk risks""".split()
)
_ZH_GENERIC = ZH_STOPWORDS | frozenset(
    "使 用 以及 关于 怎样 为何 是否 保持 使用 进行 实现 可以 能够 局限 优势 现状 比较 介绍 概述 问题 方法 作用 影响 区别 工作 运行 原理".split()
)
_ADJECTIVE_ENDINGS = ("worthy", "able", "ible", "ful", "less", "ous")
# Lone words that describe a subject rather than name one: never a tag or key phrase on their own.
DESCRIPTIVE = frozenset(
    """fresh new old good bad great fast slow quick easy hard simple complex modern popular common main key
    important useful efficient effective robust reliable trustworthy accurate correct right wrong free full
    large small big high low open real true general specific proper possible available""".split()
)
MIN_DF = 2  # a tag is a phrase at least this many sources use…
FEW_SOURCES = 4  # …once there are this many sources; with fewer, one source is enough
_VERB_ENDINGS = ("izes", "yzes", "ized", "yzed", "izing", "yzing")
_LATIN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#'-]*(?:\.[A-Za-z0-9]+)*")
_CJK_RUN = cjk.CJK_RUN
_TOKEN = re.compile(rf"{_CJK_RUN.pattern}|{_LATIN_WORD.pattern}|[^\sA-Za-z0-9]")


# what joins two subjects in a topic's words
_JOIN = re.compile(r"\s*(?:,|;|\band\b|\bor\b|\bversus\b|\bvs\.?|&|/|与|和|及|或|、)\s*", re.I)
_INTERROGATIVE = re.compile(
    r"^(how|what|why|which|when|where|who|does|do|is|are|can|should)\b|[?？]$|^(如何|为什么|什么)|(如何|怎样|怎么|吗|呢)",
    re.I,
)


def subjects(topic: str) -> list[str]:
    """The topic itself, then each subject it joins ("A and B" → "A and B", "A", "B")."""
    parts = [p.strip() for p in _JOIN.split(topic) if p and p.strip()]
    return list(dict.fromkeys([topic.strip(), *(parts if len(parts) > 1 else [])]))


def asks(topic: str) -> bool:
    """Whether the topic is a question ("How does X…", "为什么…") rather than the name of a subject."""
    return _INTERROGATIVE.search(topic.strip().rstrip("?？").strip()) is not None


def topic_phrases(
    topic: str, texts: Sequence[str] = (), *, limit: int = 5, in_topic_order: bool = False
) -> list[str]:
    """The topic's key phrases: those the sources name most (multi-word phrases weigh more) first, or in
    the order the topic names them."""
    corpus = [_normalize(t) for t in texts if t.strip()]
    found: dict[str, tuple[float, int]] = {}
    support: dict[str, int] = {}
    for chunk, joiner in chunks(topic):
        for phrase in _split_chunk(chunk, joiner, corpus):
            if phrase.lower() in {p.lower() for p in found} or _is_generic(phrase) or _is_descriptive(phrase):
                continue
            support[phrase] = sum(1 for text in corpus if _pattern(phrase.lower()).search(text))
            multiword = phrase not in chunk  # several words of the chunk kept together
            found[phrase] = ((support[phrase] + 1) * (1.5 if multiword else 1.0), len(found))
    if corpus:  # document-frequency limit: what the sources barely use is not what the topic is about
        wanted = 1 if len(corpus) < FEW_SOURCES else MIN_DF
        backed = {p: v for p, v in found.items() if support[p] >= wanted}
        best = max(support.values(), default=0)
        found = backed or {p: v for p, v in found.items() if best and support[p] == best} or found
    if in_topic_order:
        return list(found)[:limit]
    return sorted(found, key=lambda p: (-found[p][0], found[p][1]))[:limit]


def chunks(topic: str) -> list[tuple[list[str], str]]:
    """Runs of subject words between stopwords, generic words and punctuation, with how they are joined."""
    result: list[tuple[list[str], str]] = []
    current: list[str] = []
    joiner = " "

    def close() -> None:
        nonlocal current
        if current:
            result.append((current, joiner))
        current = []

    for token in _tokens(topic):
        cjk = bool(_CJK_RUN.fullmatch(token))
        if cjk != (joiner == ""):
            close()
            joiner = "" if cjk else " "
        if _is_break(token) or token.lower() in DESCRIPTIVE:
            close()
        elif current and not cjk and _is_participle(token):
            close()  # "how pattern matching is specified": after its subject, a participle is the verb
        elif current and not cjk and token.lower().endswith(_ADJECTIVE_ENDINGS) and len(token) > 5:
            close()  # "keeps a knowledge base trustworthy": the adjective describes, it is not the subject
            current = [token]
            close()
        else:
            current.append(token)
    close()
    return result


def _tokens(topic: str) -> list[str]:
    tokens: list[str] = []
    for token in _TOKEN.findall(topic):
        tokens.extend(default_glossary().segment(token) if _CJK_RUN.fullmatch(token) else [token])
    return tokens


def _is_break(token: str) -> bool:
    lower = token.lower()
    if not any(ch.isalnum() for ch in token):
        return True
    single_latin = len(token) == 1 and not _CJK_RUN.fullmatch(token)
    verb = len(lower) > 6 and lower.endswith(_VERB_ENDINGS)  # "analyzes shards": the verb joins two subjects
    return lower in STOPWORDS or lower in GENERIC or token in _ZH_GENERIC or single_latin or verb


def _is_generic(phrase: str) -> bool:
    return phrase.lower() in GENERIC or phrase in _ZH_GENERIC or phrase.isdigit()


def _is_descriptive(phrase: str) -> bool:
    """A lone adjective or participle ("fresh", "trustworthy", "specified"): it says how, not what."""
    word = phrase.lower()
    if " " in word or not word.isascii():
        return False
    return word in DESCRIPTIVE or word.endswith(_ADJECTIVE_ENDINGS) and len(word) > 5 or _is_participle(word)


def _is_participle(word: str) -> bool:
    word = word.lower()
    return len(word) > 5 and word.endswith("ed") and not word.endswith(("eed", "ced")) and word.isascii()


def _split_chunk(words: list[str], joiner: str, corpus: list[str]) -> list[str]:
    """The chunk cut into the longest runs of two or more words that the sources use (MIN_SUPPORT times,
    else at least once) and single words; a chunk none of whose runs the sources use stays as written."""
    whole = [joiner.join(words)] if len(words) <= 3 else words
    if len(words) == 1 or not corpus:
        return whole
    for support in (MIN_SUPPORT, 1):
        phrases = _runs(words, joiner, corpus, support)
        if len(phrases) < len(words):
            return phrases
    return whole


def _runs(words: list[str], joiner: str, corpus: list[str], support: int) -> list[str]:
    phrases: list[str] = []
    start = 0
    while start < len(words):
        end = next(
            (
                e
                for e in range(min(len(words), start + MAX_WORDS), start + 1, -1)
                if _count(joiner.join(words[start:e]).lower(), corpus) >= support
            ),
            start + 1,
        )
        phrases.append(joiner.join(words[start:end]))
        start = end
    return phrases


def _normalize(text: str) -> str:
    return " ".join(text.lower().split())


@lru_cache(maxsize=256)
def _pattern(phrase: str) -> re.Pattern[str]:
    if _CJK_RUN.search(phrase):
        return re.compile(re.escape(phrase))
    # word boundaries, any whitespace or hyphen between words, and a plural ending
    body = r"[\s-]+".join(re.escape(w) for w in phrase.split())
    return re.compile(rf"(?<![a-z0-9]){body}(?:s|es)?(?![a-z0-9])")


def _count(phrase: str, corpus: list[str]) -> int:
    pattern = _pattern(phrase)
    return sum(len(pattern.findall(text)) for text in corpus)


# --------------------------------------------------------------------------- grammar for questions


_PREPOSITIONS = frozenset(
    "of for from in on with to by at about into over under between across via without".split()
)


def is_plural(phrase: str) -> bool:
    """English agreement for "What is/are X?", judged on X's head: the words before its first preposition.
    "vector databases" and "X and Y" are plural; "extracting main text from web pages" (a gerund) and
    "data validation with type hints" are not."""
    words = phrase.lower().split()
    if "and" in words:
        return True
    head = next((words[:i] for i, w in enumerate(words) if w in _PREPOSITIONS), words)
    if not head or head[0].endswith("ing"):
        return False
    last = head[-1]
    return len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is"))
