"""Whether a passage states a limit of what it describes, or only what a design leaves alone.

A section on limits ("## Security Considerations", "## Drawbacks") says more than its limits: "The white paper
provides proofs for safety and liveness" stands before "While it does not have the 33% byzantine security …
the 40% crash failure resilience is worth the tradeoff". A document states a limit outside such a section too
("This specification does not directly handle the 'diamond problem'…" under "##### Multi-chain notes"), and a
caveat wherever it sits: a paragraph or a list opening on its label ("**特别说明**：" and its points under
"## 参数说明", "注意：…", "Warning: …", GitHub's `> [!WARNING]`, which the stored text reads as "Warning:"). What a
design leaves alone is told as a negation as well ("it does not alter the economics of the reward system", "The
authors cannot see any potential impact"), and is no limit of it.
"""

from __future__ import annotations

import re

from ..text.sentences import sentences

# what a sentence states a limit in: what its subject cannot do, does not have, handle or support, what it
# restricts, trades away or breaks, what is not yet settled
_LIMIT = re.compile(
    r"\b(?:cannot|can't|can\s+not|unable|impossible|unsupported|incompatible|may\s+never|not\s+yet\s+clear"
    r"|(?:not|never)\s+(?:be\s+|been\s+|yet\s+|fully\s+|directly\s+)*(?:supported|handled|covered|addressed"
    r"|guaranteed|compatible|possible)"
    r"|(?:does|do|did|is|are|will|would|can|could|may|might)\s*(?:not|n't)\s+(?:\w+ly\s+)?(?:have|handle|support"
    r"|cover|address|provide|guarantee|scale|prevent|protect|solve|apply|offer)"
    r"|limitations?|limited\s+to|restrict(?:s|ed|ing|ions?)?|constraints?|drawbacks?|downsides?|trade-?offs?"
    r"|caveats?|breaking\s+change|risks?|only\s+(?:be\s+able|works?|applies|supports?))\b"
    r"|无法|不支持|不能|局限|缺点|代价|仅支持|只能",
    re.IGNORECASE,
)
# what a design leaves alone: a negation of what it changes ("it does not alter the economics", "This proposal
# does not change the wire format"), or no impact seen ("The authors cannot see any potential impact on …")
_LEAVES_ALONE = re.compile(
    r"\b(?:does|do|did|will|would|should|shall)\s*(?:not|n't)\s+(?:\w+ly\s+)?(?:change|alter|affect|modify"
    r"|impact|touch)\b|\b(?:any|no)\s+(?:\w+\s+)?(?:impact|effect|changes?)\s+(?:on|to)\b|\bunchanged\b"
    r"|\bremains?\s+the\s+same\b|不会(?:改变|影响)",
    re.IGNORECASE,
)
# the document, or the design it describes, speaking of itself ("This specification", "this proposal", "The
# protocol"): what it says it does not handle is a limit of the subject it defines
_ITSELF = re.compile(
    r"^(?:this|the)\s+(?:specification|spec|standard|proposal|document|design|protocol|rfc|simd|eip|kep|gep"
    r"|pep|approach|mechanism|implementation|feature|change)\b|^本(?:规范|方案|文档|提案|设计)",
    re.IGNORECASE,
)


# a caveat's label: what the author marks for the reader to watch out for, as a page's limits
_CAVEAT = re.compile(
    r"^[\s*_>]*(?:(?:特别说明|注意事项|警告|重要提示|caveats?|warnings?|caution|danger|important|limitations?"
    r"|known\s+issues?)[*_]*\s*[:：]"
    # a Chinese caveat opens on 注意 whatever follows ("注意，jfr 只支持在 start 时配置。", "请注意，ctimer 事件目前仅在
    # Linux 上支持", "注意--include/--exclude只支持在stop action…中指定"), never on 注意力 (attention)
    r"|(?:请|特别|需要|值得)?注意(?!力))",
    re.IGNORECASE,
)
# a remark's label: a note or a tip says a limit only when what it says is one ("Note: this cannot be undone")
_REMARK = re.compile(
    r"^[\s*_>]*(?:(?:说明|提示|备注|小贴士|note|nb|tip)[*_]*\s*[:：]|(?:please\s+)?note\s+that\b)",
    re.IGNORECASE,
)


def states_caveat(passage: str) -> bool:
    """Whether a paragraph or a list opens on a caveat's label ("特别说明：" and its points, "注意：…",
    "Warning: …"), or on a remark's ("Note: …", "提示：…") saying a limit: what its page says to watch out for,
    wherever it stands."""
    if _CAVEAT.match(passage):
        return True
    return _REMARK.match(passage) is not None and states_limit(passage)


def states_limit(passage: str) -> bool:
    """Whether a passage states a limit: one of its sentences says what its subject cannot do, does not
    handle, restricts or trades away, without saying only what the design leaves alone."""
    return any(_limit(sentence) for sentence in sentences(passage))


def leaves_alone(passage: str) -> bool:
    """Whether a passage says what a design leaves alone, and no limit of it ("While the proposed new approach
    does impact and modify various components of the validators, it does not alter the economics of the reward
    system.")."""
    said = sentences(passage)
    return any(_LEAVES_ALONE.search(s) for s in said) and not any(_limit(s) for s in said)


def states_own_limit(passage: str) -> bool:
    """Whether a passage opens on its document, or the design it describes, saying what it does not handle
    ("This specification does not directly handle the 'diamond problem', …"), or is a caveat of its page."""
    if states_caveat(passage):
        return True
    said = sentences(passage)
    return bool(said) and _ITSELF.match(said[0]) is not None and _limit(said[0])


def _limit(sentence: str) -> bool:
    return _LIMIT.search(sentence) is not None and _LEAVES_ALONE.search(sentence) is None
