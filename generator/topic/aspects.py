"""The aspects a question-topic asks about ("How X keeps Y trustworthy and fresh"): each is a section of the
report, answered by the passages that name the quality it asks for in the words documents use for it. A
document rarely calls itself "fresh" or "trustworthy"; it says it refreshes, updates, verifies or sanitizes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..text.words import tokens

# a quality a topic asks about → the words documents use when they say how it is achieved (a small
# thesaurus of common quality adjectives, not of any one collection)
_SENSES = {
    "fresh": "refresh refreshed update updated stale outdated current latest",
    "current": "update updated latest stale outdated refresh",
    "trustworthy": "trust trusted untrusted verify verified verification validate evidence cite cited "
    "citation secure security safe unsafe sanitize sanitized",
    "reliable": "reliability failure failed retry resume recover atomic",
    "secure": "security safe unsafe untrusted sanitize sanitized redact secret attack",
    "safe": "safety unsafe untrusted sanitize sanitized secure security",
    "fast": "speed performance latency cache cached quickly",
    "efficient": "efficiency performance cost cache cached",
    "cheap": "cost costs cache cached",
    "accurate": "accuracy correct correctness verify verified evidence",
    "correct": "correctness verify verified validate test tested",
    "scalable": "scale scaling grows bounded",
    "maintainable": "maintenance maintain readable tested",
    "portable": "portability platform platforms",
    "private": "privacy secret secrets redact",
    # a verb a Chinese question asks of its subject ("错误码怎么判断", "表格怎么筛选") → the words its documents
    # write in headings and items ("错误断言", "onFilter：…筛选的运行函数"), the verb itself too
    "判断": "判断 断言 判定",
    "自定义": "自定义 定制",
    "筛选": "筛选 过滤 filter",
}
SENSES = {tokens(word)[0]: frozenset(tokens(words)) for word, words in _SENSES.items()}


def aspect_words(question: str, asked: Sequence[str]) -> set[str]:
    """The words of an aspect question its sibling aspects lack ("fresh"), a quality the thesaurus knows in
    the words documents use for it instead ("refresh", "update", "stale": the adjective itself is mostly
    another sense, "a fresh clone"); stemmed."""
    others = set().union(*(set(tokens(q)) for q in asked if q != question))
    own = set(tokens(question)) - others
    return set().union(*(SENSES.get(word, {word}) for word in own))
