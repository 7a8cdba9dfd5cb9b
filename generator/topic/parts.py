"""The questions a topic asks one after another ("What are Snap Deals and how do they put data into committed
capacity sectors?", "GORM 怎么预加载关联数据？Preload 和 Joins 有什么区别"). No one passage answers such a topic
as written: each part is answered where the documents' sections treat it (what it is from a definition, how
it is done from a usage or design section, the two things it compares from the sections naming them), and
the question as written is answered part by part.
"""

from __future__ import annotations

import re

from ..cjk import CJK_RUN
from ..text.words import tokens
from .defining import plan_subject, question_parts

__all__ = ["question_parts"]  # split in defining.py, whose titles read each part; named here for its readers

# what a part asks by its question words → the outline facets whose sections answer it
_PART_FACETS = (
    (re.compile(r"^\W*why\b|为什么|为何", re.IGNORECASE), ("motivation",)),
    (re.compile(r"\bdiffer|\bcompare|区别|不同|差异|比较|对比", re.IGNORECASE), ("alternatives",)),
    # how a reader does it ("how to…", "how do I…", "怎么预加载关联数据"): shown in use, then told in design
    (
        re.compile(
            r"^\W*how\s+(?:to|(?:do|can|should)\s+(?:i|we|you|one))\b|(?:如何|怎么|怎样)(?!选|工作|运作|实现)",
            re.IGNORECASE,
        ),
        ("use", "how"),
    ),
    # how the thing itself does it ("how do they put data into…", "how does it change sector onboarding")
    (re.compile(r"^\W*how\b|如何工作|怎么工作|怎么实现|如何实现|原理", re.IGNORECASE), ("how",)),
    (re.compile(r"^\W*what\s+(?:is|are|do|does)\b|是什么|有什么用", re.IGNORECASE), ("what",)),
)
# the words a question asks with, no part of what it asks about
_QUESTION_WORDS = frozenset(
    tokens(
        "how why what when where which who do does did is are can should must they it its their them "
        "如何 怎么 怎样 为什么 为何 是什么 有哪些 有什么 区别 不同"
    )
)


def part_facets(part: str) -> tuple[str, ...]:
    """The outline facets whose sections answer one part of a topic: "how do they put data into …" is
    answered where the documents say how it is done and how it works, "Preload 和 Joins 有什么区别" where they
    weigh one against another, "Session 有什么用" where they say what it is; () when its words say none."""
    return next((facets for asking, facets in _PART_FACETS if asking.search(part)), ())


def part_words(part: str, topic: str) -> set[str]:
    """What a part asks about beyond the topic's subject and its question words ("preload", "join" of
    "Preload 和 Joins 有什么区别"; "put", "data", "sector" of "how do they put data into committed capacity
    sectors"), stemmed: the section of a defining document whose heading names one treats that part
    ("#### Joins 预加载"). A Han character alone is part of too many headings to name one."""
    subject = set(tokens(plan_subject(topic)))
    return {
        w
        for w in tokens(part)
        if w not in subject and w not in _QUESTION_WORDS and not (len(w) == 1 and CJK_RUN.match(w))
    }
