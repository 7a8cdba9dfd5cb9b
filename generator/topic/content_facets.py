"""Which facet of the outline a section answers by what it says, when its heading names none.

A document about the subject titles many of its sections with the subject's own terms ("#### Deposit",
"#### 服务端中间件", "#### 拆分为子事务") or with nothing at all (a page whose whole text stands under its
title): the heading table (headings.py) reads no facet there. What the section says first tells it: a
definition of its own term says what it is, a lead-in announcing a process and its steps says how it
works, and an instruction of what one must do to act says how it is used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.sentences import sentences as split_all
from .sentences import clean, list_parts

OPENING_BLOCKS = 3  # the blocks a section opens with: what it treats is said there, the rest is detail

# a lead-in announcing a process, told as the steps of its list: what it announces, right before its colon, is
# the process ("Unlike the deposit, withdrawal is a 2-phase process:", "优雅退出过程如下：", "分为以下三个步骤：").
# A list of options or advantages ("Gin 提供了两组绑定方法：", "两者对比，二阶段消息有以下优点：") is no process,
# whatever name it holds (二阶段消息, two-phase messages).
_PROCESS = re.compile(
    r"(?<![A-Za-z])(?:process|procedure|steps?|phases?|stages?|flow|works\s+as\s+follows)(?![A-Za-z])[^:]{0,16}:$"
    r"|(?:过程|流程|步骤|阶段|工作方式)(?:如下|是|为)?\s*[:：]$",
    re.IGNORECASE,
)
# an instruction of what a reader must do to act: "To deposit to Nervos DAO, one needs to create any
# transaction…", "如需修改等待超时时间，可通过 server.WithExitWaitTime() 进行配置"
_INSTRUCTION = re.compile(
    r"(?<![A-Za-z])to\s+[a-z]+\b[^.:;]{0,80},\s*(?:one|you|users?|a\s+user|the\s+user|callers?)\s+"
    r"(?:needs?\s+to|must|should|has\s+to|have\s+to)(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:one|you)\s+(?:needs?|has|have)\s+to\s+(?:create|call|send|use|set|add|include|write)\b"
    r"|如需.{1,40}?[，,]\s*(?:可|请|需)(?:以)?(?:通过|使用|调用)",
    re.IGNORECASE,
)
# what a sentence says of the term it opens on when it defines it: "…服务端中间件是 HTTP 请求－响应周期中的一个函数",
# "A deposit cell is…" (not "…中间件实现和服务端中间件不同", "…is shown below")
_DEFINING_VERB = re.compile(r"\s*(?:是|指|即|就是|(?:is|are|means|refers\s+to)\s+(?:an?|the|one)\b)", re.I)
# what may stand before the term in its defining sentence: the product it belongs to ("Hertz 服务端中间件是…")
_OWNER = r"(?:(?:the\s+|an?\s+)?[A-Za-z][\w.-]*\s*)?"


def content_facets(heading: str, blocks: Sequence[str]) -> set[str]:
    """The facets a section treats by its opening blocks (`heading` '' for a text's part under no heading):
    "what" when its first sentence defines its own heading's term, "how" when a lead-in announces a process
    with its list of steps, "use" when it tells what one must do to act."""
    return {facet for facet in ("what", "how", "use") if treating_blocks(heading, blocks, facet)}


def treating_blocks(heading: str, blocks: Sequence[str], facet: str) -> tuple[str, ...]:
    """The blocks of a section's opening that treat `facet` (`content_facets`), () for none: the defining
    paragraph, or the lead-in with its list that announces a process or tells what one must do. Only they
    answer: a section on another scheme ("二阶段消息 vs 本地消息表") may name a process it compares with, and
    what the section says after it is no step of it."""
    opening = [b for b in blocks[:OPENING_BLOCKS] if not b.lstrip().startswith(("```", "~~~", "|"))]
    if facet == "what":
        defining = bool(opening) and bool(heading) and defines_term(_first_sentence(opening[0]), heading)
        return (opening[0],) if defining else ()
    for n, block in enumerate(opening):
        lead, items = list_parts(block)
        lead = clean(lead)
        # the steps right under their lead-in, or in the block after it (a blank line between them)
        after = opening[n + 1] if n + 1 < len(opening) else ""
        listed = bool(items) or bool(after and not list_parts(after)[0].strip())
        steps = listed and lead.endswith((":", "：")) and _PROCESS.search(_last_sentence(lead)) is not None
        if (facet == "how" and steps) or (facet == "use" and _INSTRUCTION.search(lead)):
            return (block,) if items or not listed else (block, after)
    return ()


def defines_term(sentence: str, heading: str) -> bool:
    """Whether a sentence defines the term a heading names: it opens on that term (after the product it
    belongs to) and goes on with what it is ("Hertz 服务端中间件是 HTTP 请求－响应周期中的一个函数")."""
    term = " ".join(heading.split()).strip("#*_` ")
    if not term or not sentence:
        return False
    found = re.match(rf"{_OWNER}{re.escape(term)}(?:e?s)?(?![A-Za-z0-9_-])", sentence, re.IGNORECASE)
    return found is not None and _DEFINING_VERB.match(sentence[found.end() :]) is not None


def _first_sentence(block: str) -> str:
    parts = split_all(clean(list_parts(block)[0]))
    return clean(parts[0]) if parts else ""


def _last_sentence(lead: str) -> str:
    parts = split_all(lead)
    return clean(parts[-1]) if parts else lead
