"""The words of a text: content words without stopwords, and their stems (Snowball, the one stemmer).

Relevance (generator/retrieval/scoring.py), summaries, keyphrases and the focus step all read text through these,
so "parsing" and "parsed" are one word to every one of them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache

import snowballstemmer

from .. import cjk

STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have he her his how i if in
    into is it its may more most no not of on or our she should so such than that the their them then there
    these they this those to too under up us was we were what when where which while who why will with would
    you your also use used using via each other any all one two new see get set""".split()
)
# with the question words English leaves out above: 哪个 / 哪种 "which", (什么)时候 "when", 应该 / 该 "should",
# 我 / 我们 / 你 / 您 "I", "we", "you", the light verb 做 "do" ("怎么做服务端渲染"), and the adverbs every
# Chinese text is full of (才 "only then", 不 "not", 也 "also", 就 "then", 都 "all", 还 "still", 很 "very")
ZH_STOPWORDS = frozenset(
    "的 了 和 与 及 或 在 是 有 对 中 等 吗 呢 其 之 从 到 把 被 让 如何 什么 哪些 怎么 为什么 哪个 哪种 时候 应该 该"
    " 我 我们 你 您 做 才 不 也 就 都 还 很".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]+|[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9]*|\d+[A-Za-z][A-Za-z0-9]*")


def content_words(text: str) -> list[str]:
    """Lowercase words of two letters or more that are not stopwords; each CJK character is a word."""
    return [
        w
        for w in (m.lower() for m in _WORD.findall(text))
        if w not in STOPWORDS and len(w) > 1 or cjk.is_cjk(w)
    ]


_local = threading.local()  # research steps run in parallel


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The English stem of a lowercase word (Snowball); other scripts are kept as they are."""
    if not word.isascii():
        return word
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:  # a Snowball stemmer keeps its word in instance state: one per thread
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return str(stemmer.stemWord(word))


# Irregular English participles a question asks with ("how is a request sent?", "where is it written?"): the
# verb a symbol is named after (`send`, `write`), which no stemmer reaches from them.
_PARTICIPLES = dict(
    pair.split(":")
    for pair in """sent:send built:build found:find written:write made:make taken:take given:give held:hold
    kept:keep brought:bring chosen:choose drawn:draw shown:show thrown:throw got:get gotten:get begun:begin
    done:do spent:spend sold:sell told:tell bound:bind hidden:hide left:leave lost:lose paid:pay said:say
    seen:see sought:seek thought:think understood:understand won:win fed:feed led:lead caught:catch
    taught:teach bought:buy broken:break spoken:speak frozen:freeze forgotten:forget driven:drive
    risen:rise lent:lend bent:bend dealt:deal felt:feel meant:mean slept:sleep swept:sweep hung:hang
    flown:fly grown:grow known:know blown:blow ran:run began:begin wrote:write took:take gave:give
    struck:strike stuck:stick torn:tear worn:wear woken:wake""".split()
)


def base_form(word: str) -> str:
    """The verb an irregular participle comes from ("sent" → "send"); any other word as it is."""
    return _PARTICIPLES.get(word.lower(), word)


def shares_stem(term: str, names: Iterable[str]) -> bool:
    """Is the term one of `names`, or does its stem begin or extend a name's stem ("parse", "parser",
    "parsing")?"""
    root = stem(term.lower())
    return any(name == term or same_stem(root, stem(name)) for name in names)


def same_stem(one: str, other: str) -> bool:
    """Are two stems one word: equal, or one begins the other ("handl" and "handler", "throw" and "thrown",
    which Snowball leaves apart)? Stems shorter than four letters must match whole: a prefix that short finds
    too much."""
    short, long = sorted((one, other), key=len)
    return short == long or len(short) >= 4 and long.startswith(short)


def holds_stems(wanted: Iterable[str], seen: set[str]) -> bool:
    """Does `seen` hold every stem of `wanted`, each as it is or as `same_stem` reads it?"""
    return all(word in seen or any(same_stem(word, other) for other in seen) for word in wanted)


def tokens(text: str) -> list[str]:
    """Stemmed content words of a text, in order; Chinese runs are segmented into words (jieba). A compound
    identifier is followed by its words: `RateLimiter` is read as "ratelimit rate limit", so "rate limiting"
    finds the API named after it, as `rate_limiter` (split at its underscore) always was."""
    out: list[str] = []
    for piece in re.split(f"({cjk.CJK_RUN.pattern})", text):
        if cjk.CJK_RUN.fullmatch(piece):
            out.extend(w for w in cjk.words(piece) if w not in ZH_STOPWORDS)
            continue
        for match in _LATIN.finditer(piece):
            found, word = match.group(), match.group().lower()
            if word not in STOPWORDS:
                out.append(stem(word))
                out.extend(numbered_name(piece, match))
            if COMPOUND.fullmatch(found):
                out.extend(stem(part) for part in compound_parts(found))
    return out


# a name and its number ("EEP 49", "PEP 572", "UTF-8", "HTTP/2", "Python 3.12"): a number alone is no word,
# so "EEP 49" read as "eep" named every EEP; its name and number joined is one ("eep49"), as "GHC2024" and
# "utf8" are written whole. A number running into letters ("2nd", "3a") or another number is no such name.
_NUMBER_AFTER = re.compile(r"[-/ ](\d+(?:\.\d+)*)(?![\w.]*[A-Za-z_])(?!\.?\d)")


def numbered_name(text: str, word: re.Match[str]) -> list[str]:
    """The word `word` found in `text` joined with the number right after it ("EEP 0049" → "eep49"), a
    dotted number's leading parts first ("OAuth 2.0" → "oauth2", "oauth2.0": a topic on OAuth 2 names it);
    [] when no number follows it, or the word is a single letter (a variable, "x 2")."""
    number = _NUMBER_AFTER.match(text, word.end())
    if number is None or len(word.group()) < 2:
        return []
    parts = [str(int(part)) for part in number.group(1).split(".")]
    return [word.group().lower() + ".".join(parts[:n]) for n in range(1, len(parts) + 1)]


# a CamelCase or mixedCase name: a lower-case letter or digit before a capital, or a capital run before a
# capitalised word (`RateLimiter`, `fooBar`, `HTTPServer`); `API`, `Python` and `iOS`-like short names are
# single words
COMPOUND = re.compile(r"[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z][a-z])[A-Za-z0-9]*")
COMPOUND_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z]+")


def compound_parts(name: str) -> list[str]:
    """The lowercase content words inside a compound identifier (`RateLimitLease` → rate, limit, lease;
    `HTTPServer` → http, server), one-letter pieces and stopwords left out; [] for a plain word."""
    if not COMPOUND.fullmatch(name):
        return []
    parts = [p.lower() for p in COMPOUND_PART.findall(name)]
    return [p for p in parts if len(p) > 1 and p not in STOPWORDS and not p.isdigit()]


def numbered_names(text: str) -> list[str]:
    """Every name a text gives with its number, joined (`numbered_name`): "GHC 2024, UTF-8" → ghc2024, utf8."""
    return [name for match in _LATIN.finditer(text) for name in numbered_name(text, match)]


def latin_names(text: str) -> list[str]:
    """`latin_words`, a word with a number after it read as the name they make ("EEP 49" → "eep49")."""
    out: list[str] = []
    for match in _LATIN.finditer(text):
        if match.group().lower() not in STOPWORDS:
            out.extend(numbered_name(text, match)[-1:] or [match.group().lower()])
    return out


def latin_words(text: str) -> list[str]:
    """The lowercase Latin-script words of a text that are not stopwords, unstemmed."""
    return [w for w in (m.lower() for m in _LATIN.findall(text)) if w not in STOPWORDS]
