"""A model's outline is checked like its claims: each sub-question it asks becomes a section heading of the
report, so it must be a question, in the report's language, about the topic, and never a key, an anchor or a
fragment of the plan's JSON (`## \\{\\#fixes\\}`, `## has_enough_context:`, `## question: why this has…`, as
a 135M-parameter model wrote them). The questions that fail are dropped; when too few are left, the plan takes
its outline from the sources (plan.heuristic_plan).
"""

from __future__ import annotations

import re

from ..text.words import content_words, tokens
from .defining import subjects

MAX_QUESTION = 200  # characters: a longer "question" is a paragraph the model wrote into the field
MIN_KEPT = 2  # research questions a model's outline must keep to be used at all

_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
# a key of the plan's JSON or a markdown/anchor fragment: "has_enough_context:", "question: …", "{#fixes}"
_KEY = re.compile(r"^\W*[\w-]+\s*[:=]|^\W*[a-z]+_[a-z_]+\b|[{}\[\]<>#\\|]|^\W*$")
_QUESTION_EN = re.compile(
    r"\?$|^(?:how|what|why|which|when|where|who|whose|does|do|is|are|can|could|should|would|will|was|were"
    r"|has|have|did)\b",
    re.I,
)
# a question about a facet of the outline asks about the report's subject without naming it
_FACET_WORDS = re.compile(
    r"\b(?:alternatives?|limit(?:s|ations?)|drawbacks?|trade-?offs?|motivation|history|status|compare[sd]?"
    r"|comparison|benefits?|risks?|examples?|usage|future)\b|替代|局限|缺点|优点|动机|历史|现状|比较|示例|用法",
    re.I,
)
_QUESTION_ZH = re.compile(r"[？?]$|什么|如何|怎样|怎么|为什么|为何|哪些|哪个|是否|吗|呢|多少")


def question_problem(question: str, topic: str, lang: str) -> str:
    """Why `question` cannot head a section of the report on `topic` ('' when it can)."""
    text = " ".join(question.split())
    if not text or len(text) > MAX_QUESTION:
        return "empty" if not text else "too long to be a heading"
    if _KEY.search(text):
        return "a key, an anchor or markup, not a question"
    if not _in_language(text, lang):
        return f"not written in the report's language ({lang})"
    if not (_QUESTION_ZH if lang == "zh" else _QUESTION_EN).search(text):
        return "not a question"
    if not _about(text, topic) and not _FACET_WORDS.search(text):
        return "not about the topic"
    return ""


def _in_language(text: str, lang: str) -> bool:
    """Chinese: Han characters outnumber Latin letters' words; any other language: no Han at all and
    letters in it."""
    han, latin = len(_HAN.findall(text)), len(_LATIN.findall(text))
    if lang == "zh":
        return han > 0 and han * 3 >= len(re.findall(r"[A-Za-z]+", text))
    return han == 0 and latin > 0


def _about(text: str, topic: str) -> bool:
    """The question names one of the topic's content words (stemmed, any of the subjects it joins), or, in
    Chinese, one of its Han characters' pairs."""
    words = set(tokens(text))
    for subject in subjects(topic):
        if words & set(tokens(subject)):
            return True
    han = "".join(w for w in content_words(topic) if _HAN.match(w))
    pairs = {han[n : n + 2] for n in range(len(han) - 1)}
    return any(pair in text for pair in pairs)
