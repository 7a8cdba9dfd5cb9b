"""Which sentences of a source can be quoted as a finding, and how a quote keeps its meaning.

A quote is a whole prose sentence, never boilerplate (acknowledgements, licences, references, changelogs),
and never one whose meaning hangs on the sentence before it ("This…", "However…") unless quoted with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..cjk import is_cjk
from ..text.plaintext import prose_ratio
from ..text.words import content_words

MIN_PROSE = 0.65  # a sentence with fewer ordinary words than this (paths, identifiers, markup) is not quoted
MAX_QUOTE = 600  # characters: a longer "sentence" is a run-on block, not something one quotes

_SENTENCE_END = re.compile(r"[.!?。！？…][\"'”’)\]]*$")

# Boilerplate a reader never wants quoted as a finding. Each pattern names a kind of debris, not one input.
_BOILERPLATE = re.compile(
    r"""
    acknowledg | would\ not\ have\ been\ possible | \bthank(s|\ you|ing)?\b | \bgrateful | gratitude
    | copyright | \(c\)\s*\d{4} | © | all\ rights\ reserved | licensed\ under | \blicen[cs]e[ds]?\ (?:under|to)\b
    | placed\ in\ the\ public\ domain | \bspdx\b | permission\ is\ hereby\ granted | without\ warranty
    | ^\s*\[\d+\] | \bet\ al\. | \bretrieved\ (?:from|on)\b | \bdoi:\s*\S | arxiv:\s*\d | https?:// | www\.
    | changed\ in\ version | new\ in\ version | deprecated\ since | \bchangelog\b | release\ notes
    | ^\s*(?:version|release)\s+v?\d | ^\s*v?\d+\.\d+(?:\.\d+)*\s*[(:-] | \(\s*(?:gh-|bpo-|\#)\d+\s*\)
    | ^\s*(?:fixed|fix|bump(?:ed)?|merged?|added|removed|deprecated|renamed|now)\b
    | ^[\w .-]{1,40}:\s*(?:added|fixed|removed|deprecated|now|renamed)\b | scheduled\ for\ removal
    | \((?:issue|pr|pull\ request|bug)\s*\#?\d+\) | \(\#?\d{3,6}\)\W*$
    | ^\s*(?:author|status|type|created|post-history|resolution|replaces|superseded-by|requires|python-version
              |discussions-to|content-type|last-modified|version|date|sponsor|delegate)\s*:
    """,
    re.IGNORECASE | re.VERBOSE,
)

# A sentence opening with one of these points back at something said before it.
_ANAPHOR = re.compile(
    r"""^(?:this|that|these|those|it|its|they|their|them|such|he|she|his|her|both|either|neither
    |the\ (?:latter|former|above|following|same)|however|therefore|thus|hence|also|furthermore|moreover
    |in\ addition|additionally|instead|otherwise|similarly|likewise|as\ a\ result|consequently
    |for\ (?:example|instance)|in\ (?:this|that|such\ a)\ case|in\ contrast|by\ contrast|then|so|but|and|or|well|yes)\b""",
    re.IGNORECASE | re.VERBOSE,
)
# "It is easy to…", "It's preferable that…": a dummy "it" refers to nothing before it
_DUMMY_IT = re.compile(
    r"^it(?:'s|’s| is| was| can be| may be| might be| would be| will be)\s+(?:\w+\s+){0,2}?(?:to|that)\b",
    re.IGNORECASE,
)
_CJK_ANAPHOR = re.compile(
    r"^(?:它|它们|这|这些|这种|那|那些|其|此|该|但|但是|因此|所以|而且|此外|另外|同时|然而)"
)
# ...except "This PEP/document/proposal…": the citation names what "this" is.
_SELF_REFERENCE = re.compile(
    r"^(?:this|these)\s+(?:pep|peps|document|proposal|specification|spec|guide|tutorial|library|package"
    r"|project|tool|module|api|standard|rfc)\b",
    re.IGNORECASE,
)


# markup a converter left behind (reST roles, `~module.name` references): not prose a reader can use
_MARKUP_LEFT = re.compile(r"(?<![\w~])~[@\w]|:\w+:`|``|\.\. \w+::")
# The description of a field or a parameter in reference docs, with its subject left out: "Defines the default
# policy…", "Used by Task.retry() to…", "How many times the task has been retried." — a fragment, not a finding.
_REFERENCE_FRAGMENT = re.compile(
    r"""^(?:(?!(?i:sometimes|perhaps|always|besides|regardless|unless|thus|nevertheless|nonetheless|afterwards
    |this|these|those|its|his|has|does|is|was|as|us|yes|various|previous|numerous|obvious)\b)[A-Z][a-z]+s
    \s+(?:the|a|an|whether|if|how|which|all|any|one|extended|additional|optional|default|custom)\b
    |(?i:used|called|sent|set|passed|raised|returned|defaults?|required|optional)\s+(?:by|to|if|when|for|as
    |with|after|before|on|in)\b
    |(?i:how)\ (?:many|much|long|often)\b(?!.*\?)|(?i:whether)\b(?!.*\?))""",
    re.VERBOSE,
)
# a changelog or release history answers "what changed when", never how something works
_CHANGELOG_TITLE = re.compile(
    r"^\W*(?:change ?log|change history|changes|history|release notes|release history|what'?s new|news)\b",
    re.IGNORECASE,
)
_CHANGELOG_PATH = re.compile(
    r"(?:^|[/:])(?:change ?log|changes|history|news|release[-_ ]?notes|release[-_]v?\d|whats-?new)[^/]*$"
    r"|/(?:history|changelog|announce|releases)/",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Quote:
    """A quotable passage: one sentence, or a sentence with the one before it that it refers back to."""

    text: str
    parts: tuple[str, ...]  # its sentences, each as it appears in the source
    index: int  # position of its main sentence in the source


def is_changelog(title: str, url: str) -> bool:
    """A change history, release notes or a "what's new" page, by its title or its file name."""
    return bool(_CHANGELOG_TITLE.search(title) or _CHANGELOG_PATH.search(url))


# A short sentence that defines its subject ("Widgets are small gadgets.") says something however short.
_DEFINITION = re.compile(
    r"^(?!(?:It|This|That|These|Those|There|Here|He|She|They|We|What|Which|Who) )[A-Z][\w-]*(?: [\w-]+){0,2} (?:is|are) (?:an? |the )?[\w-]+(?: [\w-]+){0,6}\.$"
)


def needs_antecedent(sentence: str) -> bool:
    if _CJK_ANAPHOR.match(sentence):
        return True
    if _SELF_REFERENCE.match(sentence) or _DUMMY_IT.match(sentence):
        return False
    return bool(_ANAPHOR.match(sentence))


def is_prose(text: str) -> bool:
    """A sentence worth quoting: a whole sentence (it ends like one, its brackets and quotes are balanced;
    a list item, a caption or a lead-in ending in ':' is not), long enough to say something (six words, or
    twelve CJK characters: Chinese is written without spaces), and mostly ordinary words."""
    if len(text) > MAX_QUOTE or text.startswith(("#", "|", "```")) or not _SENTENCE_END.search(text):
        return False
    if text.count("(") != text.count(")") or text.count('"') % 2 or text.count("“") != text.count("”"):
        return False
    # a fragment cut from a list or a clause, a field description, or markup left over
    if text[:1].isascii() and text[:1].islower() or _MARKUP_LEFT.search(text):
        return False
    if text[:1].isupper() and _REFERENCE_FRAGMENT.match(text[:60]):
        return False
    cjk = sum(1 for ch in text if is_cjk(ch))
    long_enough = (
        cjk >= 12 or (len(text) >= 40 and len(text.split()) + cjk >= 6) or bool(_DEFINITION.match(text))
    )
    return long_enough and prose_ratio(text) >= MIN_PROSE


def quotable(sentence: str) -> bool:
    return is_prose(sentence) and not _BOILERPLATE.search(sentence)


def quote_at(
    sentences: list[str], index: int, paragraph_starts: frozenset[int] = frozenset()
) -> Quote | None:
    """The quote for sentence `index`: itself, with the sentence before it when it refers back to it;
    None when it cannot stand (debris, or a reference back with nothing quotable before it in its paragraph)."""
    sentence = clean(sentences[index])
    if not quotable(sentence):
        return None
    if not needs_antecedent(sentence):
        return Quote(sentence, (sentence,), index)
    before = clean(sentences[index - 1]) if index > 0 and index not in paragraph_starts else ""
    if not before or not quotable(before) or needs_antecedent(before):
        return None
    joined = f"{before} {sentence}"
    return Quote(joined, (before, sentence), index) if len(joined) <= MAX_QUOTE else None


def paragraph_starts(text: str, sentences: list[str]) -> frozenset[int]:
    """Which sentences open a paragraph (a blank line before them): one opening with "This…" there refers
    to something the sentence before it, in another paragraph, does not say."""
    starts, cursor = set(), 0
    for index, sentence in enumerate(sentences):
        found = text.find(sentence[:40], cursor)
        if found < 0:
            continue
        if index == 0 or "\n\n" in text[cursor:found] or "\n…\n" in text[cursor:found]:
            starts.add(index)
        cursor = found + len(sentence[:40])
    return frozenset(starts)


def similar(a: str, b: str) -> float:
    """Jaccard overlap of two passages' content words (0 = nothing shared, 1 = the same words)."""
    wa, wb = set(content_words(a)), set(content_words(b))
    return len(wa & wb) / max(1, len(wa | wb))


def clean(text: str) -> str:
    return " ".join(text.split())
