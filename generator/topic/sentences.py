"""Which passages of a source can be quoted as a finding, and how a quote keeps its meaning.

A quote is a whole paragraph when it is short enough and prose throughout, else a whole prose sentence; never
boilerplate (acknowledgements, licences, references, changelogs), never a question, and never one whose
meaning hangs on the sentence before it ("This…", "I.e.…", "Let's…") unless quoted with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cjk import CJK_RUN, is_cjk, sentence_words, unstopped_sentence
from ..documents.prose import defined_field, prose_ratio
from ..text.paragraphs import paragraphs
from ..text.pointers import (
    DOCUMENT_KIND,
    is_question,
    navigates,
    needs_antecedent,
    past_step_opening,
    points_elsewhere,
)
from ..text.sentences import sentences as split_all
from ..text.words import content_words
from .headings import names_option, section_facets, weighing

MIN_PROSE = 0.65  # a sentence with fewer ordinary words than this (paths, identifiers, markup) is not quoted
MAX_QUOTE = 600  # characters: a longer "sentence" is a run-on block, not something one quotes
MAX_PASSAGE = (
    900  # characters: a paragraph up to this long is quoted whole, a longer one sentence by sentence
)

_SENTENCE_END = re.compile(r"[.!?。！？…][\"'”’)\]]*$")

# Boilerplate a reader never wants quoted as a finding. Each pattern names a kind of debris, not one input.
# Thanks are acknowledged by someone ("We acknowledge the support of…", "Acknowledgements:"); IBC's packet
# "acknowledgement" is no thanks.
_BOILERPLATE = re.compile(
    r"""
    \b(?:we|i|authors?|like\ to|gratefully)\ +acknowledge\b | ^\W*acknowledg(?:e)?ments?\b\W*(?:[:.—-]|$)
    | would\ not\ have\ been\ possible | \bthank(s|\ you|ing)?\b | \bgrateful | gratitude
    | copyright | \(c\)\s*\d{4} | © | all\ rights\ reserved | licensed\ under | \blicen[cs]e[ds]?\ (?:under|to)\b
    | placed\ in\ the\ public\ domain | \bspdx\b | permission\ is\ hereby\ granted | without\ warranty
    | ^\s*\[\d+\] | \bet\ al\. | \bretrieved\ (?:from|on)\b | \bdoi:\s*\S | arxiv:\s*\d | https?:// | www\.
    | changed\ in\ version | new\ in\ version | deprecated\ since | \bchangelog\b | release\ notes
    | ^\s*(?:version|release)\s+v?\d | ^\s*v?\d+\.\d+(?:\.\d+)*\s*[(:-] | \(\s*(?:gh-|bpo-|\#)\d+\s*\)
    | ^\s*(?:fixed|fix|bump(?:ed)?|merged?|added|removed|deprecated|renamed|now)\b
    | ^[\w .-]{1,40}:\s*(?:added|fixed|removed|deprecated|now|renamed)\b | scheduled\ for\ removal
    | \((?:issue|pr|pull\ request|bug)\s*\#?\d+\) | \(\#?\d{3,6}\)\W*$
    | ^["“][^"”]{10,}["”]\s*(?:in\b|$) | \bin\ proceedings\ of\b | \b(?:bachelor|master|doctoral|phd)(?:'s)?\ thesis\b
    | \bpp\.\s*(?:\d|$)
    | 如有(?:需求|需要|问题|疑问|建议)[，,]?\s*(?:可以?|请|欢迎)?(?:提|提交|创建)\s*issue
    | \bfeel\ free\ to\ (?:open|file|submit|raise)\ an?\ (?:issue|pr|pull\ request)\b
    | ^\s*this\ is\ (?:the|an?)\ (?:[\w-]+\ ){0,3}(?:specification|spec|document|description)\ (?:of|for)\b[^,;:]*\.\s*$
    | \b(?:pre-?)?requisites?\ for\ this\ (?:document|guide|specification|spec)\b
    | \bassumes?\ (?:them|it|these|those)\ as\ (?:an?\ )?pre-?requisites?\b
    | ^\s*(?:author|status|type|created|post-history|resolution|replaces|superseded-by|requires|python-version
              |discussions-to|content-type|last-modified|version|date|sponsor|delegate)\s*:
    """,
    re.IGNORECASE | re.VERBOSE,
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
# a file named for its history: "CHANGELOG-pre-5.md", "changes.rst", "HISTORY.md", "news.zh-CN.md"; a file
# only starting with the word is about something else ("history-mode.md", "HistoryState.md", "newsletters.md")
_CHANGELOG_PATH = re.compile(
    r"(?:^|[/:])(?:change ?log[^/]*|(?:changes|history|news)(?:\.[\w-]+)*|release[-_ ]?notes[^/]*"
    r"|release[-_]v?\d[^/]*|whats-?new[^/]*)$|/(?:history|changelog|announce|releases)/",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Quote:
    """A quotable passage: one sentence, or a sentence with the one before it that it refers back to."""

    text: str
    parts: tuple[str, ...]  # its sentences, each as it appears in the source
    index: int  # position of its main sentence in the source
    code: str = ""  # a code example the passage introduces ("…like this:"), quoted with it
    items: tuple[str, ...] = ()  # the list the passage introduces, an item each (two spaces a level deeper)


def is_changelog(title: str, url: str) -> bool:
    """A change history, release notes or a "what's new" page, by its title or its file name."""
    return bool(_CHANGELOG_TITLE.search(title) or _CHANGELOG_PATH.search(url))


# A short sentence that defines its subject ("Widgets are small gadgets.") says something however short.
_DEFINITION = re.compile(
    r"^(?!(?:It|This|That|These|Those|There|Here|He|She|They|We|What|Which|Who) )[A-Z][\w-]*(?: [\w-]+){0,2} (?:is|are) (?:an? |the )?[\w-]+(?: [\w-]+){0,6}\.$"
)


# a field of a reference entry: "Description: Contains a version, trace ID…", "Type: String" under "### traceparent"
_FIELD_ROW = re.compile(r"^[A-Z][\w-]*(?: [\w-]+){0,2}: \S")


_CJK_SENTENCE = 4  # Han characters that make a sentence Chinese, whatever Latin name it opens on


_CAPITAL_INSIDE = re.compile(r"[a-z]+[A-Z]\w*\b")


def is_prose(text: str) -> bool:
    """A sentence worth quoting: a whole sentence (it ends like one, or is a field's row "Description: …";
    its brackets and quotes are balanced; a list item, a caption or a lead-in ending in ':' is not), long
    enough to say something (six words, a CJK character counting half: Chinese is written without spaces), and
    mostly ordinary words."""
    if len(text) > MAX_QUOTE or text.startswith(("#", "|", "```")):
        return False
    # a field's row is whole unstopped, and so is a Chinese paragraph's last sentence
    if not _SENTENCE_END.search(text) and not _FIELD_ROW.match(text) and not unstopped_sentence(text):
        return False
    if _OPEN_LEAD.search(text):  # "Add anonymous records as a feature to F#, e.g.": its example is not in it
        return False
    if text.count("(") != text.count(")") or text.count('"') % 2 or text.count("“") != text.count("”"):
        return False
    # a fragment cut from a list or a clause, a field description, or markup left over; a Chinese sentence
    # opens on a name written in lower case as often as not ("useActionState 接受一个函数…", "hash 模式是…"),
    # and so does one naming gRPC, iOS, macOS or jQuery (a word with a capital inside is a name, never a
    # fragment's first word)
    cjk = sum(1 for ch in text if is_cjk(ch))
    fragment = text[:1].isascii() and text[:1].islower() and not _CAPITAL_INSIDE.match(text)
    if fragment and cjk < _CJK_SENTENCE or _MARKUP_LEFT.search(text):
        return False
    if text[:1].isupper() and _REFERENCE_FRAGMENT.match(text[:60]):
        return False
    # a Chinese sentence's Latin names are words of it ("Hexo 提供快速、简便的部署策略。"): six words either way
    long_enough = (
        (cjk >= _CJK_SENTENCE and sentence_words(text) >= 6)
        or (len(text) >= 40 and len(text.split()) + cjk >= 6)
        or bool(_DEFINITION.match(text))
    )
    return long_enough and prose_ratio(text) >= MIN_PROSE


def quotable(sentence: str) -> bool:
    return is_prose(sentence) and speaks_for_itself(sentence)


def speaks_for_itself(sentence: str) -> bool:
    """Whether a sentence says something of its own wherever it is quoted, however few ordinary words it has:
    not boilerplate (thanks, a licence, an invitation to write to the maintainers) and not a pointer elsewhere
    ("…通常会用到 RequestContext 相关操作，见 请求上下文。"). Every quote passes here, a sentence as a short
    statement under its heading does too (`quotable` adds the prose test for the rest)."""
    return not _BOILERPLATE.search(sentence) and not points_elsewhere(sentence) and not is_banner(sentence)


def is_banner(text: str) -> bool:
    """Whether a text is a warning's banner and nothing of the warning ("注意！注意！注意！", "Note:")."""
    return _BANNER.match(text) is not None


# a warning's banner and nothing of the warning: "注意！注意！注意！" (MyBatis-Flex's multi-tenancy page, above the
# paragraph it warns of), "Note:", "**重要**" — it is quoted with its warning or not at all
_BANNER = re.compile(
    r"^\W*(?:(?:注意|警告|提示|重要|特别注意|请注意|note|warning|caution|important|attention|danger|tip)\W*)+$",
    re.IGNORECASE,
)


# a glossary entry: "Const parameter (generic const): A const which a type or function is abstract over…"
_GLOSSARY_ENTRY = re.compile(
    r"^(?P<term>[A-Z][\w'’-]*(?: [\w'’-]+){0,4})(?: \([^)]{1,40}\))?: (?:An?|The|Any|Each|Some) \w"
)


def glossary_term(passage: str) -> str:
    """The term a passage defines when it is a glossary entry ("Term (alias): A thing which…"), else ''.
    Such an entry says what its term is, and nothing about why or how anything else works."""
    found = _GLOSSARY_ENTRY.match(passage)
    return found["term"] if found else ""


# a passage speaking of the document it comes from: "This PEP then goes much further…", "in this proposal",
# "we propose", "本提案": quoted from a document other than the subject's, it names that document
_OWN_DOCUMENT = re.compile(
    r"\b(?:this|the\s+present|the\s+current)\s+(?:peps?|rfcs?|neps?|proposals?|documents?|drafts?|designs?"
    rf"|specifications?|spec|enhancements?|{DOCUMENT_KIND})\b|\bwe\s+(?:propose|suggest|recommend)\b|本提案|该提案|此提案|本文档",
    re.IGNORECASE,
)


# a sentence right after a code example speaking of it ("…make the code more compact", "the example prints")
_SHOWN_CODE = re.compile(
    r"\b(?:the|this|that|these|both)\s+(?:code|examples?|snippets?|listings?|outputs?|lines)\b"
    r"|这段代码|该代码|此代码|这个例子|该示例",
    re.IGNORECASE,
)


# a demonstrative naming something by a noun ("this mode of use", "this deficiency", "these criteria", "such an
# approach"); what it names is said before it unless the same sentence said it first ("wrappers … and such
# wrappers"). A document speaking of itself ("this proposal", "this design") names what the citation names.
_DEMONSTRATIVE = re.compile(
    r"\b(?:this|these|those|such)\s+(?:an?\s+)?(?P<noun>[a-z][\w-]*)|(?P<above>\babove\b)"
    r"(?!\s*(?:\d|all\b|which\b|that\b|the\b|an?\b|its?\b))",
    re.IGNORECASE,
)
_NOT_NOUN = frozenset(
    """is was are were be been will would can could may might must should shall does did do has have had
    means mean allows allow makes make also by in to for with of and or but that the point time writing
    way as is, proposal proposals document documents rfc rfcs pep peps keep jep grfc spec specification
    design change changes enhancement feature features kind one guide tutorial library package project tool
    module api standard extension extensions binding bindings profile profiles""".split()
)


def leans_back(passage: str) -> bool:
    """Whether a passage's first sentence leans on something said before it: it opens on a reference back
    (`needs_antecedent`), or names something with a demonstrative ("Context parameters lift two of the main
    restrictions of this mode of use:", "To address this deficiency, …") or as "above" ("all issues above")
    that it has not named itself. Quoted alone, it speaks of what the quote leaves out."""
    first = clean(split_all(passage.strip())[0]) if passage.strip() else ""
    if not first:
        return False
    if needs_antecedent(first) or _OUTCOME.match(first):
        return True  # …or a predicate whose subject is the example before it ("Will be invalid because…")
    for found in _DEMONSTRATIVE.finditer(first):
        if found["above"]:
            return True
        if re.fullmatch(DOCUMENT_KIND, found["noun"]):
            continue  # "this JEP": the document quoted, named
        noun = found["noun"].lower()
        said = {w.lower().rstrip("s") for w in re.findall(r"[\w-]+", first[: found.start()])}
        if noun not in _NOT_NOUN and noun.rstrip("s") not in said:
            return True
    return False


def speaks_of_shown_code(sentence: str) -> bool:
    """Whether a sentence that follows a code example speaks of it: quoted without it, it speaks of
    nothing shown."""
    return bool(_SHOWN_CODE.search(sentence))


def speaks_of_its_document(passage: str) -> bool:
    """Whether a passage refers to the document it is quoted from ("this PEP", "we propose")."""
    return bool(_OWN_DOCUMENT.search(passage))


def quote_at(
    sentences: list[str], index: int, paragraph_starts: frozenset[int] = frozenset()
) -> Quote | None:
    """The quote for sentence `index`: itself, with the sentence before it when it refers back to it;
    None when it cannot stand (debris, or a reference back with nothing quotable before it in its paragraph)."""
    sentence = clean(sentences[index])
    if not quotable(sentence) or is_question(sentence):
        return None
    if not needs_antecedent(sentence):
        return Quote(sentence, (sentence,), index)
    before = clean(sentences[index - 1]) if index > 0 and index not in paragraph_starts else ""
    if not before or not quotable(before) or needs_antecedent(before):
        return None
    joined = f"{before} {sentence}"
    return Quote(joined, (before, sentence), index) if len(joined) <= MAX_QUOTE else None


def paragraph_parts(paragraph: str) -> tuple[str, ...]:
    """The cleaned sentences of a `paragraph` short enough to quote whole (MAX_PASSAGE), else (). Made once per
    paragraph: a PDF or web page can hold one of 30,000 characters, and splitting it again for each of its
    sentences made quoting it quadratic (34 s for 400 sentences)."""
    if len(clean(paragraph)) > MAX_PASSAGE:
        return ()
    parts = tuple(clean(p) for p in split_all(paragraph))
    return parts if len(" ".join(parts)) <= MAX_PASSAGE else ()


def passage_at(
    sentences: list[str], index: int, starts: frozenset[int], parts: tuple[str, ...] = ()
) -> Quote | None:
    """The passage for sentence `index`: its whole paragraph (its `parts`, from `paragraph_parts`, as the source
    writes it) when that is prose throughout (a run-in label such as "Testing." included) and does not end on a
    question, else the sentence as `quote_at` quotes it. A paragraph opening with a reference back ("This…",
    "I.e.…") is never quoted whole: nothing quoted before it says what it refers to. A paragraph whose later
    sentence cannot be quoted ("It would also have the same limitations as the above option.") is quoted from
    its start up to that sentence, when the sentence asked for stands before it: "This approach would not…"
    keeps the alternative it speaks of ("Automatically forward refs for stateless function components.")."""
    single = corrected(sentences, index, starts, quote_at(sentences, index, starts))
    if single is None or len(parts) < 2 or not all(p in parts for p in single.parts):
        return single
    end = max(parts.index(p) for p in single.parts) + 1
    for kept in (parts, parts[: _quotable_run(parts)]):
        if len(kept) >= max(2, end) and _whole(kept):
            return Quote(" ".join(kept), kept, index)
    return single


# a sentence correcting the one before it: "…they don't become instantly available. Instead, they enter an
# unbonding queue."
_CORRECTS = re.compile(r"^(?:instead|rather)\b", re.IGNORECASE)


def corrected(sentences: list[str], index: int, starts: frozenset[int], quote: Quote | None) -> Quote | None:
    """A quote with the sentence after it in its paragraph when that one corrects it ("Instead, they enter an
    unbonding queue."): alone, the quote says only what does not happen."""
    after = index + 1
    if quote is None or after >= len(sentences) or after in starts:
        return quote
    following = clean(sentences[after])
    joined = f"{quote.text} {following}"
    if not corrects(following) or len(joined) > MAX_QUOTE:
        return quote
    return Quote(joined, (*quote.parts, following), index)


def corrects(sentence: str) -> bool:
    """Whether a sentence corrects the one before it ("Instead, they enter an unbonding queue."): quoted with it,
    however short, as corrections are."""
    return bool(_CORRECTS.match(sentence) and _SENTENCE_END.search(sentence)) and not points_elsewhere(
        sentence
    )


def _quotable_run(parts: tuple[str, ...]) -> int:
    """How many of a paragraph's sentences, from its first, can be quoted."""
    return next((n for n, p in enumerate(parts) if not (quotable(p) or RUN_IN_LABEL.match(p))), len(parts))


def _whole(parts: tuple[str, ...]) -> bool:
    """Whether sentences of a paragraph, from its first, read as a whole passage: prose throughout, not opening
    on a reference back, not ending on a question."""
    said = [p for p in parts if not RUN_IN_LABEL.match(p)]
    return (
        bool(said)
        and all(quotable(p) or RUN_IN_LABEL.match(p) for p in parts)
        and not needs_antecedent(said[0])
        and not is_question(parts[-1])
    )


# a paragraph's run-in heading: "Testing.", "Multiple instances." (a label, not a sentence that says something)
RUN_IN_LABEL = re.compile(r"^[A-Z][\w-]*(?: [\w-]+){0,3}\.$")


_HEADING_LINE = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$", re.M)
_FENCE_LINE = re.compile(r"^\s*(```+|~~~+)", re.M)


@dataclass(frozen=True)
class Place:
    """Where a sentence of a stored text stands: the paragraph it is in (blank-line separated, as written),
    the section headings above it (markdown `#` lines, never a comment in a code block; top down, () before
    the first), and whether it opens its paragraph (a blank line or the store's "…" gap before it: one
    opening with "This…" refers to something the sentence before it, in another paragraph, does not say)."""

    paragraph: str
    headings: tuple[str, ...]
    opens: bool


def places(text: str, sentences: Sequence[str]) -> list[Place]:
    """Each sentence's place, found by its first 40 characters from where the one before it was found; a
    sentence not found stands where the one before it does and opens nothing."""
    marks = _heading_marks(text)
    ends, cursor = [], 0
    blocks = paragraphs(text) or [""]
    for paragraph in blocks:
        cursor = text.find(paragraph, cursor) + len(paragraph)
        ends.append(cursor)
    found: list[Place] = []
    at, after, mark, block, path = 0, 0, 0, 0, list[tuple[int, str]]()
    for index, sentence in enumerate(sentences):
        start = text.find(sentence[:40], after)
        gap = text[after:start]
        opens = start >= 0 and (index == 0 or "\n\n" in gap or "\n…\n" in gap)
        if start >= 0:
            at, after = start, start + len(sentence[:40])
        while mark < len(marks) and marks[mark][0] <= at:
            _, level, heading = marks[mark]
            path = [*(p for p in path if p[0] < level), (level, heading)]
            mark += 1
        while block < len(ends) - 1 and ends[block] <= at:
            block += 1
        found.append(Place(blocks[block], tuple(h for _, h in path), opens))
    return found


MAX_FIELD_NAME = 60  # characters: a longer heading is a section's title, not the name of a field
MAX_QUESTION = 200  # characters: the question a paragraph answers, when the one before it asks it


# a passage naming its subject only as "the API", "this operation": the heading it stands under names it
_NAMED_BY_HEADING = re.compile(
    r"^(?:the|this)\s+(?:api|function|method|operation|call|endpoint|command)\s+(?:must|should|may|shall|will"
    r"|returns?|accepts?|takes?|is|does)\b",
    re.IGNORECASE,
)
MAX_OPERATION_WORDS = 6  # a heading naming an operation ("Get current Context"), not a section's title


# a heading naming one of several options a document weighs: "#### Alternative: Use a keyword", "### Option 2:
# Keep the old syntax", "### D: Treat Like Optional Dependencies" (never a numbered section, "1. Introduction")
_OPTION_HEADING = re.compile(
    r"^(?:(?i:alternative|option|approach|variant)(?: [A-Z0-9#]\w{0,3})?\s*[:.)]|[A-H][:)])\s+\S"
)


def context_of(text: str, passage: str, items: Sequence[str] = ()) -> str:
    """What a passage of `text` answers, when the passage alone does not say it: the field a "Description:
    …" row describes (the one-word heading it stands under, "### traceparent"), or the paragraph describes
    (the field's definition line before it, "verifier object, required"), the operation "The API MUST
    return…" is ("### Get current Context"), the option it weighs ("### D: Treat Like Optional
    Dependencies"), or the question the paragraph right before it asks ("Why not inline every hot callee?",
    a rationale written as questions and answers), or the heading it opens asks (a FAQ's entry: "No, the
    number of subnets doesn't really matter." under "### Does having a lot of column subnets make the network
    unstable?"); '' for any other passage. A "Prologue: …" paragraph under "Profile-guided Inlining
    implementation" is a run-in label, not a field's row. A lead-in written alike under several headings ("The
    API MUST accept the following parameters:") is found by the first of its `items` too."""
    heading, before, field, start = "", "", "", _plain(" ".join(passage.split()[:8]))
    first_item = _plain(" ".join(items[0].split()[:6])) if items else ""
    blocks = text_blocks(text)
    stack: list[tuple[int, str]] = []  # the headings a block stands under, the document's title aside
    for n, block in enumerate(blocks):
        mark = _HEADING_LINE.match(block) if not block.startswith(("```", "~~~")) else None
        if mark:
            heading, before, field = mark.group(2).strip(), "", ""
            level = len(mark.group(1))
            stack = [(lv, h) for lv, h in stack if lv < level] + ([(level, heading)] if level > 1 else [])
            continue
        flat = " ".join(block.split())
        # a field's definition line names what the paragraphs after it describe, up to an example or a
        # lead-in ("Example:"), which speak of the whole record
        field = "" if block.startswith(("```", "~~~")) or flat.endswith((":", "：")) else field
        # a list may follow its lead-in's paragraph; a list's label ("**Pros:**") reads as its words
        after = _plain(" ".join(" ".join(blocks[n : n + 2]).split()))
        found = (
            _plain(flat).startswith(start) if len(start.split()) < 3 else start in _plain(flat)
        )  # "Example:" opens its own
        if found and first_item in after[after.index(start) :]:
            if _FIELD_ROW.match(passage):
                return heading if len(heading) <= MAX_FIELD_NAME and len(heading.split()) == 1 else ""
            if _NAMED_BY_HEADING.match(passage) and len(heading.split()) <= MAX_OPERATION_WORDS:
                return heading  # "The API MUST return the Context…" under "### Get current Context"
            if field or _OPTION_HEADING.match(heading) and len(heading) <= MAX_FIELD_NAME * 2:
                return field or heading
            if _asks(before):
                return before
            if not before and stack and stack[-1][1] == heading and _asks(heading):
                return heading  # a FAQ's entry: the answer under the question its heading asks
            option = _option_of([h for _, h in stack])
            return option if option and not _names(" ".join([passage, *items]), option) else ""
        field = defined_field(flat) or field
        before = block
    return ""


def _option_of(headings: Sequence[str]) -> str:
    """The option a passage weighs or belongs to, from the headings it stands under (top down): for a bare
    "Pros"/"Cons" heading the section it weighs when that is an option ("#### Considered option: Define
    mesh-auth-mode via daemon config", `names_option`); else the nearest heading below one naming alternatives
    that names no facet itself ("#### Use a proxy to enforce and identify tenants in queries." under "###
    Alternative solutions"); '' for none, or one too long to be a name."""
    names = [" ".join(_plain(_HEADING_ANCHOR.sub("", h)).split()).rstrip(":：.") for h in headings]
    if names and weighing(names[-1]):
        option = names[-2] if len(names) > 1 and names_option(names[-2]) else ""
    else:
        frame = max((n for n, h in enumerate(names) if "alternatives" in section_facets(h)), default=-1)
        below = [h for h in names[frame + 1 :] if not section_facets(h)] if frame >= 0 else []
        option = below[-1] if below else ""
    return option if len(option) <= MAX_FIELD_NAME * 2 else ""


def _names(passage: str, option: str) -> bool:
    """Whether a passage names the option it stands under itself: half the option's words or more ("One
    alternative is ApplicationSet…" under "### ApplicationSet")."""
    wanted = set(content_words(option))
    return not wanted or 2 * len(wanted & set(content_words(passage))) >= len(wanted)


_HEADING_ANCHOR = re.compile(r"\s*\{[#/][^{}]*\}\s*$")


def _plain(text: str) -> str:
    """Text without inline markup (`code`, *emphasis*), as a quoted list item reads."""
    return re.sub(r"[`*_\\]", "", text)


def _asks(block: str) -> bool:
    """A paragraph that only asks (one or two short questions), as a FAQ or a rationale heads its answers."""
    asked = [clean(p) for p in split_all(block)] if block and len(block) <= MAX_QUESTION else []
    return bool(asked) and len(asked) <= 2 and all(is_question(p) for p in asked)


def _heading_marks(text: str) -> list[tuple[int, int, str]]:
    """(offset, level, heading) of each heading line outside fenced code."""
    fences = [m.start() for m in _FENCE_LINE.finditer(text)]
    spans = list(zip(fences[::2], fences[1::2], strict=False))
    return [
        (m.start(), len(m.group(1)), m.group(2))
        for m in _HEADING_LINE.finditer(text)
        if not any(a < m.start() < b for a, b in spans)
    ]


MAX_CODE = 1500  # characters: a longer example is a listing, not something one quotes to make a point
_FENCE = re.compile(r"^(```+|~~~+)[^\n]*\n(.*?)\n\1\s*$", re.S)
CODE_FENCE = _FENCE  # a stored block that is one fenced example: its fence, then its code
_SHORT_LEAD_IN = 40  # "Like this:", "For example:": a lead-in this short needs a sentence before it


# a paragraph ending on the words that hand over to an example ("Add anonymous records to F#, e.g.", "…leads
# to bloated code such as"): it introduces the code after it as a colon does, and says nothing without it
_OPEN_LEAD = re.compile(
    r"(?:\be\.\s?g\.|\bfor\s+(?:example|instance)|\blike\s+(?:so|this)|\bas\s+follows|\bsuch\s+as|例如|比如)[,，]?$",
    re.IGNORECASE,
)


def leads_into_example(intro: str) -> bool:
    """Whether a paragraph ends as a lead-in to what follows it: a colon, or an open "e.g." / "for example"."""
    lead = intro.rstrip()
    return lead.endswith((":", "：")) or bool(_OPEN_LEAD.search(lead))


def bare_lead_in(block: str) -> bool:
    """Whether a block is only a lead-in that says nothing alone ("Where:", "例如：", "基本的代码模板：", "For
    example:"), perhaps with the list it introduces: it hands the paragraph before it over to what follows
    (the example or list after it is that paragraph's)."""
    lead, _ = list_parts(block)
    parts = split_all(clean(lead))
    text = block.lstrip()
    if len(parts) != 1 or text.startswith(("#", "```", "~~~", "|", "- ")):
        return False
    return leads_into_example(parts[0]) and not lead_in_stands((), parts[0])


def caption_line(block: str) -> bool:
    """Whether a block is a title line, not a sentence: one line ending on no full stop and running on no
    clause ("Example 1: Demonstration of inheritance principle"). A Chinese sentence missing its "。" runs on
    its commas ("中间件可能执行不止一次，比如发生跳转等，需要考虑幂等性"): a sentence still."""
    text = block.strip()
    return (
        bool(text) and "\n" not in text and not _SENTENCE_END.search(text) and not _CLAUSE_BREAK.search(text)
    )


_CLAUSE_BREAK = re.compile(r"[，,;；]")


def with_lead_ins(blocks: Sequence[str]) -> list[str]:
    """Blocks with each bare lead-in (`bare_lead_in`) read as the end of the prose paragraph before it ("在
    NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。", then "例如：" and the code): apart, the
    paragraph is quoted without what it introduces and the lead-in is quoted with nothing before it."""
    joined: list[str] = []
    for block in blocks:
        before = joined[-1] if joined else ""
        prose = bool(before) and not before.lstrip().startswith(("#", "```", "~~~", "|"))
        # …a paragraph, not a caption line ("Example 1: Demonstration of inheritance principle" above
        # "Contents of file task-rest_bold.json:"): a title says nothing the lead-in could end
        if (
            prose
            and not caption_line(before)
            and not list_parts(before)[1]
            and not before.rstrip().endswith((":", "："))
        ):
            if bare_lead_in(block) and len(before) + len(list_parts(block)[0]) <= MAX_PASSAGE:
                joined[-1] = f"{before}\n{block}"
                continue
        joined.append(block)
    return joined


# a name a sentence writes in code's spelling: camel case, an underscore, a dotted path or a call ("NewGRPCServer",
# "config.New", "tr.Value()", "max_size"); a word in capitals ("RFC", "CSS") is a word
_CODE_NAME = re.compile(
    r"\b[A-Za-z_]\w*(?:[a-z0-9][A-Z]|_[A-Za-z0-9])\w*(?:\.[A-Za-z_]\w*)*(?:\(\))?"
    r"|\b(?!(?:e\.g|i\.e)\b)[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|\b[A-Za-z_]\w*\(\)"
)


def naming_shown(sentence: str, code: str) -> str:
    """A Chinese sentence introducing a code example with each name it writes in code's spelling read as a
    plain word: "在 NewGRPCServer 和 NewHTTPServer 中通过 ServerOption 进行注册。" above the example registering
    the middleware is prose, the example showing what the names are. Chinese pads the Latin names it writes
    with spaces, and the prose test counts each against the sentence (rightly where no example says what it
    is); an English sentence reads as prose around its names, and is left to the test as it stands."""
    if not code or not any(is_cjk(ch) for ch in sentence):
        return sentence
    return _CODE_NAME.sub("name", sentence)


def code_examples(text: str, *, stated: bool = False, on_heading: bool = False) -> list[Quote]:
    """Code examples (fenced blocks the stored text keeps) with the paragraph that introduces them: the
    paragraph ends with ':' (or an open "e.g.", `leads_into_example`) and is prose up to that lead-in,
    which is quoted with it; index is -1. With `stated`, a paragraph that says what the example shows and
    ends on a full stop right above it introduces it too, as a Chinese page often closes that sentence
    ("您只需一条命令即可将网站部署到服务器上。" above `$ hexo deploy`). With `on_heading`, the text is a section's
    opening: its lead-in may lean on the heading ("基础的树形结构展示。" under "### 基础用法"). A bare
    lead-in ("例如：") introduces it with the paragraph before it (`with_lead_ins`)."""
    blocks = _labels_passed(with_lead_ins(text_blocks(text)))
    found = []
    for n, (intro, block) in enumerate(zip(blocks, blocks[1:], strict=False)):
        fence = _FENCE.match(block)
        if not fence or not (leads_into_example(intro) or stated and _closes_paragraph(intro)):
            continue
        if len(fence.group(2)) > MAX_CODE:
            continue
        parts = tuple(clean(p) for p in split_all(intro))
        shown = tuple(naming_shown(p, fence.group(2)) for p in parts)
        if (
            not parts
            or not lead_in_stands(shown[:-1], shown[-1], on_heading=on_heading)
            or len(intro) > MAX_PASSAGE
        ):
            continue  # "Like this:" alone says nothing; "The new one is very similar:" points back
        if introduces_old_state(intro):
            continue  # "Today, developers circumvent the problem using subscriptions:": not the design
        if example_goes_on(blocks, n + 1):
            continue  # "For example, this data file:" and its CSV, without the schema and the outcome after it
        found.append(Quote(" ".join(parts), parts, -1, fence.group(2).strip("\n")))
    return found


# a paragraph after an example carrying it on: a clause adding the next part ("With this schema definition:",
# "and this dialect:"), the example as the subject of what it gives ("This CSV data file will have logical
# values as below:") or the outcome, a predicate whose subject is the example ("SHOULD output the data from the
# second table.", "Will be invalid because the name field has a duplicate value.")
_NEXT_PART = re.compile(r"^(?:with|and|plus|given)\s+(?:this|these|the|an?)\b", re.I)
_SHOWN_SUBJECT = re.compile(r"^(?:this|these)\s+(?:[\w-]+\s+){0,3}?(?:will|would|should|must)\b", re.I)
_OUTCOME = re.compile(
    r"^(?:should|must|will|would)\s+(?:not\s+)?(?:be|output|produce|return|result|read|yield|give|fail|have)\b",
    re.I,
)


def example_goes_on(blocks: Sequence[str], at: int) -> bool:
    """Whether the example fenced in block `at` is only the first part of a worked example: the paragraph after
    it adds the next part ("With this dialect definition:" and the dialect), makes the example the subject of
    what follows ("This CSV data file will have logical values as below:") or gives its outcome ("SHOULD output
    the data from the second table."). Its caption with the first part alone ("For example, the database with
    the tables below:" and `table1 table2`) shows no rule at work: the example is quoted whole or not at all."""
    after = blocks[at + 1].strip() if at + 1 < len(blocks) else ""
    if not after or after.startswith(("#", "```", "~~~", "|", "- ")):
        return False
    said = split_all(clean(list_parts(after)[0]))
    first = said[0] if said else ""
    if _OUTCOME.match(first):
        return True
    shown_next = at + 2 < len(blocks) and _FENCE.match(blocks[at + 2]) is not None
    return (
        shown_next
        and first.endswith((":", "："))
        and bool(_NEXT_PART.match(first) or _SHOWN_SUBJECT.match(first))
    )


def code_language(text: str, code: str) -> str:
    """The language the fence of the code example `code` declares in the stored `text` ("go" for a block fenced
    ```go, "python" for ```{.python}), so a quote of it is highlighted as its author marked it; '' when its
    fence names none or the example is not in the text."""
    wanted = code.strip("\n")
    for block in text_blocks(text):
        fence = _FENCE.match(block)
        if fence and fence.group(2).strip("\n") == wanted:
            return fence_language(block.partition("\n")[0])
    return ""


def fence_language(line: str) -> str:
    """The language a fence's opening line names: its info string's first word, attributes left out."""
    info = line.strip().lstrip("`~").strip().split()
    return re.sub(r"[^\w+-]", "", info[0].lstrip("{.").rstrip("}"))[:20] if info else ""


# a subsection's heading that only labels the example under it ("##### Generics API")
_LABEL_HEADING = re.compile(r"^#{2,6}\s+\S[^\n]{0,40}$")


def _labels_passed(blocks: list[str]) -> list[str]:
    """Blocks without the heading that labels an example between the lead-in introducing it and the example
    ("GORM允许使用 Preload通过多个SQL中来直接加载关系, 例如：", "##### Generics API", the code): the lead-in
    introduces that example, and is quoted with it."""
    return [
        block
        for n, block in enumerate(blocks)
        if not (
            0 < n < len(blocks) - 1
            and _LABEL_HEADING.match(block.strip())
            and blocks[n - 1].rstrip().endswith((":", "："))
            and _FENCE.match(blocks[n + 1])
        )
    ]


def _closes_paragraph(block: str) -> bool:
    """A paragraph of sentences ending on a full stop: not a heading, a list, a table or another fence."""
    opens = block.lstrip().startswith(("#", "- ", "|", "`", "~"))
    return block.rstrip().endswith((".", "。", "!", "！")) and not opens and "\n- " not in block


# a list item of a stored text (documents/plain.py writes a list its paragraph introduces as `- item` lines)
_LIST_LINE = re.compile(r"^((?:  )*)- (.*\S)\s*$")
MAX_ITEMS = 12  # a longer list is a listing to look up, not a passage to quote


def list_parts(block: str) -> tuple[str, tuple[str, ...]]:
    """A stored block's lead (the paragraph introducing its list; '' for the rest of a list a code block
    interrupted) and the list's items (`- item` lines; an item nested a level deeper starts with two more
    spaces); the block itself and () when it holds no list."""
    lines = block.split("\n")
    first = next((n for n, line in enumerate(lines) if _LIST_LINE.match(line)), -1)
    if first < 0:
        return block, ()
    items: list[str] = []
    for line in lines[first:]:
        item = _LIST_LINE.match(line)
        if item:
            items.append(item.group(1) + clean(item.group(2)))
        elif items and line.strip():  # a line the item wraps onto
            items[-1] = f"{items[-1]} {clean(line)}"
    return " ".join(lines[:first]), tuple(items)


# a lead-in pointing at what follows it ("This example shows the binary mode mapping…:", "The following
# request creates…:"): its "this" is the example quoted with it, not something said before it
_POINTS_AHEAD = re.compile(
    r"^(?:this|the\s+following|here\s+is|here's|below\s+is)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:examples?|snippets?|listings?|samples?|requests?|responses?|messages?|commands?|configurations?"
    r"|programs?|code|output|documents?|events?|payloads?)\b|^(?:这个|以下|下面的?)(?:示例|例子|代码|配置)",
    re.IGNORECASE,
)


# a lead-in saying that what follows is the state a proposal changes ("the text currently reads:", "Today,
# the compiler reports:", "The existing behaviour is:"): what follows is not the design
_OLD_STATE = re.compile(
    r"\b(?:currently|at present|today|previously|as of now|so far|up to now|until now"
    r"|(?:the|its)\s+(?:current|existing|old|present|original)\s+(?:\w+\s+)?(?:text|wording|spec(?:ification)?"
    r"|behaviou?r|rules?|definition|implementation|syntax|semantics|design|code|version|model|process|approach"
    r"|mechanism|system)"
    r"|before\s+(?:this|the)\s+(?:change|proposal))\b|目前|当前|现有",
    re.IGNORECASE,
)


# a passage opening on the state of things at the time of writing ("Currently our optimizations have been
# tested on Linux only.", "Today, a loop variable is shared"): where the work stands, or what it changes
_NOW = re.compile(
    r"^(?:currently|today|at present|at the moment|right now|so far|until now|up to now|as of (?:today|now|this"
    r" writing)|at the time of writing)\b|^(?:目前|当前|现在|迄今)",
    re.IGNORECASE,
)


# a sentence on the work a change asks of its implementers ("The gc compiler needs to be updated to parse
# the new syntax…", "The necessary changes to ember-cli are relatively small…", "The implementation is small
# and already done."): the plan of the work, not how the thing works
_WORK = re.compile(
    r"\b(?:needs?|will\s+need|would\s+need|must)\s+to\s+be\s+(?:updated|changed|modified|adapted|extended"
    r"|taught|adjusted)\b|\bneeds?\s+(?:no\s+)?updating\b|\bneed\s+no\s+(?:updating|changes?)\b"
    r"|^the\s+(?:necessary|required)\s+changes\b|^the\s+implementation\s+(?:is|was|will\s+be)\b"
    # "The changes to toolchain resolution are fairly simple, and not directly related to the API": how much
    # the change is, before the change itself
    r"|^the\s+changes?\s+(?:to|in|for)\b[^.]{0,80}?\b(?:are|is)\s+(?:(?:fairly|relatively|quite|very|pretty)\s+)?"
    r"(?:simple|small|minor|straightforward|minimal|trivial)\b",
    re.IGNORECASE,
)


# a sentence saying only which release the subject arrived in ("自 antd@5.1.0 版本开始提供该组件。" under Ant
# Design's "## API", "Available since version 2.3."): where it stands, whatever section it stands in
_ARRIVAL = re.compile(
    r"^\W*(?:自|从)\s*\S{0,30}?v?\d+(?:\.\d+)+\S*?\s*(?:版本)?\s*(?:起|开始)\s*(?:提供|支持|引入|新增|可用)"
    r"(?:该|此|本)?(?:组件|功能|特性|接口|api)?\W*$"
    r"|^\W*(?:available|introduced|added|new)\s+(?:since|in)\s+(?:version\s+)?\S{0,30}?v?\d+(?:\.\d+)+\W*$",
    re.IGNORECASE,
)


def states_arrival(passage: str) -> bool:
    """Whether a passage says only the release its subject arrived in: an answer to where the subject stands,
    never to what it is, how it works or how it is used."""
    return bool(_ARRIVAL.match(clean(passage)))


# a passage set aside from the account it stands in: a note or a caveat ("Note: We have seen failures with the
# execution transition…", "注意：…"), or an instruction to the reader ("安装 Kitchen Sketch 插件 💎，两步就可以
# 自动生成 Ant Design 表格组件。", "Install the … plugin"); neither says what the subject is or how it works
_ASIDE = re.compile(
    r"^[*_]*(?:note|n\.?b\.?|warning|caution|caveat|tip|hint|注意|提示|警告|注)[*_]*\s*[:：]"
    r"|^(?:install|download|click|open|visit|go\s+to|make\s+sure|please)\b|^(?:请|安装|下载|点击|打开|访问)",
    re.IGNORECASE,
)


def stands_aside(passage: str) -> bool:
    """Whether a passage opens as a note, a caveat or an instruction to the reader: an aside to the account
    of the subject, never what it is or how it works."""
    return bool(_ASIDE.match(passage.strip()))


def speaks_of_now(passage: str) -> bool:
    """Whether a passage opens on the state of things when it was written, or on the work its change asks
    for: it tells where the work stands, what it will take, or the state a design changes, never how the
    design works."""
    text = passage.strip()
    first = split_all(text)[0] if text else ""
    return bool(_NOW.match(text) or _WORK.search(first))


# a lead-in to the way things are done without the subject ("如果不使用服务器组件，通常会在客户端通过一个 Effect 来获取
# 静态数据：", "Without context, you would pass the theme down:"): the state it replaces
_WITHOUT = re.compile(
    r"^(?:without|if\s+(?:you|we)\s+(?:don't|do\s+not|didn't)\s+(?:use|have))\b|^(?:如果|若|在)?(?:不使用|没有)",
    re.IGNORECASE,
)


def introduces_old_state(block: str) -> bool:
    """Whether a paragraph is a lead-in (ending in ':') to the state a change replaces, or to the way things
    are done without the subject: the quote or example after it tells how things were, not how they work
    under the design."""
    lead = block.strip()
    last = split_all(lead)[-1] if lead else lead
    return lead.endswith((":", "：")) and bool(_OLD_STATE.search(last) or _WITHOUT.match(last))


# a paragraph's last sentence pointing at the example shown right after it without a colon ("Example output from
# my mac looks like below.", "The shown values are the defaults.", "The following example gives a PriorityClass
# used by the system by default."): quoted without that example, it speaks of nothing shown
_POINTS_AT_SHOWN = re.compile(
    r"\b(?:below|as\s+follows|the\s+following|looks?\s+like\s+this|the\s+shown|shown\s+here|here\s+(?:is|are))\b"
    r"|^here's\b|^for\s+(?:example|instance)\b|\blike\s+(?:this|so)\W*$",
    re.IGNORECASE,
)
# a name spelled as code (`AltStringSetter`, `registerSetter`, `max_retries`, `config.New`): a sentence naming
# one the example right after it holds speaks of that example ("我们需要在低代码引擎中注册 Setter，这样就可以通过
# AltStringSetter 的名字在物料中使用了。" above `registerSetter('AltStringSetter', AltStringSetter)`)
_CODE_NAME = re.compile(
    r"(?<![\w.])(?:[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Za-z]+_\w+|[A-Za-z]\w*\.[A-Za-z]\w+)"
)


# Chinese guides introduce an example without a colon: by pointing at it ("如下", "以下", "下面"), by opening on "for
# example" ("例如我们需要在 NumberSetter 中配置 units 属性，可以在 asset.json 中声明。" above the JSON declaring it), or
# by a step's caption, one clause with no sentence end ("将生成的代码写入到磁盘中 (也可以生成一个 zip 包)" above the
# call; not "LocaleProvider 使用了 React 的 context 上下文特性，你只需要在应用外围包裹一次即可全局生效", a statement
# whose full stop the page leaves out)
_ZH_POINTS_AT_SHOWN = re.compile(r"如下|以下|下面|^(?:例如|比如)")
_ZH_CLAUSE_MARK = re.compile(r"[，,；;：:。！？.!?…]")


def points_at_shown(sentence: str, code: str = "") -> bool:
    """Whether a paragraph's last sentence, right above an example (`code`), points at it though it ends on a
    full stop (or, in Chinese, on nothing: a caption), or names a name the example spells as code."""
    if code and any(
        re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", code) for name in _CODE_NAME.findall(sentence)
    ):
        return True
    if CJK_RUN.search(sentence) and (
        _ZH_POINTS_AT_SHOWN.search(sentence) or not _ZH_CLAUSE_MARK.search(_PARENTHESES.sub("", sentence))
    ):
        return True
    return bool(_POINTS_AT_SHOWN.search(sentence))


_PARENTHESES = re.compile(r"\([^()]*\)|（[^（）]*）")


def points_ahead(lead_in: str) -> bool:
    """Whether a lead-in (a sentence ending in ':') opens with a pointer to what it introduces."""
    return lead_in.rstrip().endswith((":", "：")) and bool(_POINTS_AHEAD.match(lead_in))


def lead_in_stands(said: tuple[str, ...], lead_in: str, *, on_heading: bool = False) -> bool:
    """Whether a passage ending in a lead-in (`said`, then `lead_in` ending in ':') can be quoted with what
    it introduces: what it says first is prose and refers to nothing before it (`leans_back`: "Assume this
    transaction is included in the following block:" names a transaction an earlier example showed); a lead-in alone says
    something itself ("Like this:" does not) and points to nothing before it ("The new one is very
    similar:" compares with what the passage does not quote). A section's opening (`on_heading`) may lean
    on its heading and its document ("This addresses the following use cases:" under "## Motivation")."""
    if not (said or lead_in) or not all(quotable(p) for p in said) or is_question(lead_in):
        return False
    first = (*said, lead_in)[0]
    step = past_step_opening(lead_in) if not said else lead_in
    # "然后，你可以通过以下命令设置…：": the next step, which with its code says what it does
    stands_as_step = step != lead_in and not leans_back(step)
    if (
        leans_back(first)
        and not on_heading
        and not stands_as_step
        and not (not said and points_ahead(lead_in))
    ):
        return False
    if lead_in and _BOILERPLATE.search(lead_in):
        return False
    if said and is_question(said[-1]):
        return False
    if said or not lead_in:
        return True
    stem = _OPEN_LEAD.sub("", lead_in[:-1] if lead_in.endswith((":", "：")) else lead_in).rstrip(" ,，")
    as_sentence = stem + ("。" if stem and is_cjk(stem[-1]) else ".")
    long_enough = len(lead_in) >= _SHORT_LEAD_IN or any(is_cjk(ch) for ch in lead_in)
    says_itself = long_enough and is_prose(as_sentence) or bool(_NAMES_ITS_PARTS.match(lead_in))
    return (says_itself or on_heading) and not _POINTS_BACK.search(lead_in)


# a lead-in naming a thing whose parts its list gives: "A Data Package consists of:" (datapackage-spec), "The
# `observed` object consists of:" (crossplane), "Currently supported image types include:" (BIDS); the list ends
# the sentence. Not "Examples include:", which names nothing
_NAMES_ITS_PARTS = re.compile(
    r"^(?!(?:some\s+)?examples?\b)(?:an?\s+|the\s+|each\s+|every\s+|currently\s+supported\s+)?[`\w][\w`' -]{2,50}?\s+"
    r"(?:consists?\s+of|contains?|includes?|comprises?|is\s+(?:made\s+up|composed)\s+of)\s*:$",
    re.IGNORECASE,
)


# a lead-in comparing with something said before it: "The new one is very similar:", "It works the same way:"
_POINTS_BACK = re.compile(
    r"\b(?:similar(?:ly)?|the\s+same(?:\s+way)?|likewise|analogous(?:ly)?|equivalent|as\s+well|too|again)\s*[:：]$"
    r"|\bthe\s+(?:new|old|other|former|latter|second|first|previous)\s+one\b"
    r"|(?:类似|相同|同样|同理)\s*[:：]$",
    re.IGNORECASE,
)


def leads_out_of_list(items: tuple[str, ...]) -> bool:
    """Whether an item ends in a colon with no deeper item after it: it introduces what the list does not
    hold (a code example, "- Current:" in a list of worked examples), which a quote would leave out."""
    depth = [len(i) - len(i.lstrip(" ")) for i in items]
    return any(
        item.endswith((":", "：")) and (n + 1 == len(items) or depth[n + 1] <= depth[n])
        for n, item in enumerate(items)
    )


def _lead_in(parts: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """A list's lead-in paragraph as what it says and its lead-in: the last sentence when it ends in a colon
    or, after a whole sentence, breaks off into the list ("We add support for tasks along the lines of
    TaskBuilder.fs. This supports") or points at it ("…the following alternative approaches."), else none
    ('': the paragraph says what it introduces in whole sentences; a paragraph that is one broken-off sentence
    is a fragment)."""
    last = parts[-1]
    broken_off = len(parts) > 1 and not _SENTENCE_END.search(last)
    ahead = _POINTS_TO_LIST.search(last) is not None
    return (parts[:-1], last) if last.endswith((":", "：")) or broken_off or ahead else (parts, "")


# a lead-in closing on a full stop that points at the list after it ("We have discussed the following alternative
# approaches.", "The options are listed below.")
_POINTS_TO_LIST = re.compile(r"\bthe\s+following\b|\b(?:listed|given|described)\s+below\b|以下|如下", re.I)


# characters: a section's opening list (its lead-in right under the heading, "This addresses the following use
# cases:" and five items under "## Motivation") is the section's own answer, quoted whole up to this long
MAX_OPENING_LIST = 2 * MAX_PASSAGE


# how many of the question's concepts a list item names (section_candidates.py `naming`): a list cut to fit
# keeps the items naming the most of them
Naming = Callable[[str], int]


def list_quote(
    block: str, index: int = -1, *, opening: bool = False, naming: Naming | None = None
) -> Quote | None:
    """A stored block's list quoted with the paragraph that introduces it, whole: its lead-in must stand
    (`lead_in_stands`) or be the label of the heading the list stands right under, and the passage fits
    MAX_PASSAGE with at most MAX_ITEMS items; None when the block holds no list or it cannot be quoted whole
    (none of its items is quoted apart from it). A section's `opening` block may lean on its heading and run
    to MAX_OPENING_LIST, a longer one quoted by its first points — with `naming`, by the points naming the
    question first, then its first ones (`_answering_first`)."""
    lead, items = list_parts(block)
    entries = bool(_HEADING_LABEL.match(lead.strip())) and all(_ENTRY.match(item) for item in items)
    # a list its lead-in counts ("而 opts 对应三个选项：") is quoted whole or not at all: its count promises it
    counted = 1 < announced_count(lead) == sum(1 for item in items if not item.startswith("  "))
    limit = MAX_OPENING_LIST if opening else MAX_PASSAGE
    if len(items) > MAX_ITEMS or len(" ".join([lead, *items])) > limit:
        items = _top_level(items)  # a long nested list is quoted by its points, their details left out
    if not items or (len(items) > MAX_ITEMS and not entries) or leads_out_of_list(items):
        return None
    if _CONTENTS.match(lead.strip().strip("*")) or navigates(lead):
        return None  # "Table of Contents:", "另请参阅：" and their entries: the document's furniture, not what it says
    if all(_POINTER_ITEM.search(" ".join(item.split())) for item in items):
        return None  # "Related Proposals:" and "A9: Server-side Connection Management": where to read on
    if any(_READS_ABOVE.search(item) for item in items):
        return None  # "In the above 11 leaf MMR we have 3 peaks…": the figure the items read is not quoted
    if len(items) == 1 and bare_label(items[0]):
        # "The components of a OCI artifact:" and "- Configuration file", its next point a paragraph further: a
        # label standing over what follows it, one of several; alone it says nothing
        return None
    heading = _HEADING_LABEL.match(lead.strip())  # a list right under its heading, which introduces it
    parts = (heading.group(1),) if heading else tuple(clean(p) for p in split_all(lead))
    if not parts or not (heading or lead_in_stands(*_lead_in(parts), on_heading=opening)):
        return None
    if heading and not counted and all(_ENTRY.match(item) for item in items):
        items = _leading_entries(parts, items, limit, naming)  # a table's rows, each reading alone
    elif opening and not counted and len(" ".join([*parts, *items])) > limit:
        items = _leading_points(parts, items, limit, naming)  # the section's own answer: its first points
    if len(" ".join([*parts, *items])) > limit:
        return None
    return Quote(" ".join(parts), (*parts, *(i.strip() for i in items)), index, items=items)


def bare_label(item: str) -> bool:
    """Whether a list item is only a label, as a heading is: a few words with no sentence, colon or code
    ("User Stories", "Delete Blob", "Repository Table", "Configuration file", "二阶段-回滚")."""
    text = item.strip().strip("*_").strip()
    if not text or _SENTENCE_END.search(text) or any(c in text for c in ":：`()（）=,，;；"):
        return False
    words = text.split()
    return len(words) <= 4 and (len(words) > 1 or len(text) <= 12) and len(text) <= 40


def _top_level(items: tuple[str, ...]) -> tuple[str, ...]:
    """A nested list's top-level items ("prefix = rel_timestamp ++ l1_origin_num ++ …", "payload = …", "txs =
    …" without the 24 fields they break into), or the list itself when it is flat. A point's colon introduced
    the details left out: it goes with them ("payload = block_count ++ … ++ txs")."""
    kept = []
    for n, item in enumerate(items):
        if item.startswith(" "):
            continue
        deeper = n + 1 < len(items) and items[n + 1].startswith(" ")
        kept.append(item.rstrip(":：").rstrip() if deeper else item)
    return tuple(kept) if kept and len(kept) < len(items) else items


# an entry of a list under its heading naming what it is about before a colon: a table's row as the stored
# text lists it ("threshold：触发刷新需要下拉多少距离，单位为 px（类型：number，默认值：60）。"), which reads alone
_ENTRY = re.compile(r"^[^\s:：][^:：\n]{0,79}[:：]\s*\S")


def items_read_alone(label: str, items: Sequence[str]) -> bool:
    """Whether a quoted list is a table's rows (or entries like them) under their heading's label: each item
    names what it is about before a colon, so any first few of them read alone."""
    return label.rstrip().endswith((":", "：")) and all(_ENTRY.match(item.strip()) for item in items)


# a lead-in counting what it introduces: "而 `opts` 对应三个选项：", "它有两种用法：", "There are three options:"
_COUNTED_CJK = re.compile(r"([两二三四五六七八九]|[2-9])\s*(?:个|种|项|条|点|类|步)[^，,。：:]{0,8}[:：]\s*$")
_COUNTED_EN = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|[2-9])\s+(?:[\w-]+\s+){0,2}?[a-z-]+s[:：]\s*$", re.I
)
_NUMBERS = dict(zip("两三四五六七八九", range(2, 10), strict=True)) | {"二": 2}
_NUMBERS |= dict(zip("two three four five six seven eight nine".split(), range(2, 10), strict=True))


def announced_count(lead: str) -> int:
    """How many items a list's lead-in says it introduces ("三个选项：" → 3), 0 when it does not count them:
    a counted list is a whole the reader is promised, so a quote leaving one out breaks its word."""
    said = lead.replace("`", "").strip().strip("*").strip()
    found = _COUNTED_CJK.search(said) or _COUNTED_EN.search(said)
    if found is None:
        return 0
    word = found.group(1).lower()
    return int(word) if word.isdigit() else _NUMBERS[word]


def listed_items(text: str, items: Sequence[str]) -> int:
    """How many items the stored list holds that holds `items` (0 when `text` has none)."""
    return len(whole_list(text, items))


def whole_list(text: str, items: Sequence[str]) -> tuple[str, ...]:
    """The items of the stored list of `text` holding every one of `items` — its first ones, or a table's
    rows chosen from anywhere in it (`table_rows`) — in its order; () when `text` has none."""
    return _holding(text, items)[1]


def table_rows_of(text: str, items: Sequence[str]) -> tuple[str, ...]:
    """The rows of the table of `text` holding every one of `items`: a list standing right under its heading's
    label (documents/plain.py stores a table so: "**Transfer Props:**" and its rows), each an entry; () for
    any other list ("This includes the following artifacts:" and its items say what their author ordered)."""
    lead, listed = _holding(text, items)
    labelled = _HEADING_LABEL.match(lead.strip()) is not None
    return listed if labelled and all(_ENTRY.match(item) for item in listed) else ()


def _holding(text: str, items: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    wanted = {_point(item) for item in items}
    for block in text_blocks(text):
        lead, found = list_parts(block)
        listed = tuple(item.strip() for item in found)
        if wanted and wanted <= {_point(item) for item in listed}:
            return lead, listed
    return "", ()


def _point(item: str) -> str:
    """An item as a list's point: without the colon introducing the items under it (`_top_level`)."""
    return item.strip().rstrip(":：").rstrip()


OPENING_POINTS = 2  # a section's opening list quoted by its first points holds at least this many


def _leading_points(
    parts: tuple[str, ...], items: tuple[str, ...], limit: int, naming: Naming | None = None
) -> tuple[str, ...]:
    """A section's opening list too long to quote whole, by its first points, each with the items nested
    under it, as many as fit `limit` with the lead-in (SIMD-0118's four "alternative approaches", each a
    paragraph, under "## Alternatives Considered"); () when fewer than OPENING_POINTS fit. The report says how
    many it leaves out. With `naming`, the points naming the question go first (`_answering_first`)."""
    points: list[list[str]] = []
    for item in items:
        if item.startswith("  ") and points:
            points[-1].append(item)
        else:
            points.append([item])
    kept: set[int] = set()
    for n in _answering_first(points, naming):
        if len(" ".join([*parts, *(i for k in sorted(kept) for i in points[k]), *points[n]])) > limit:
            break
        kept.add(n)
    return tuple(item for n in sorted(kept) for item in points[n]) if len(kept) >= OPENING_POINTS else ()


def _leading_entries(
    parts: tuple[str, ...], items: tuple[str, ...], limit: int, naming: Naming | None = None
) -> tuple[str, ...]:
    """The first entries of a list whose entries each read alone, as many as fit `limit` with its label (the
    first one always): a long props table answers how a component is configured from its first rows. With
    `naming`, the entries naming the question go first (`_answering_first`)."""
    kept: set[int] = set()
    for n in _answering_first([[item] for item in items], naming)[:MAX_ITEMS]:
        if kept and len(" ".join([*parts, *(items[k] for k in sorted(kept)), items[n]])) > limit:
            break
        kept.add(n)
    return tuple(items[n] for n in sorted(kept))


def _answering_first(points: list[list[str]], naming: Naming | None) -> list[int]:
    """The indexes of a list's points in the order a quote cut to fit keeps them: those naming the most of the question's
    concepts first, then the rest, each in the list's order (ILPv4's differences from earlier versions, asked
    what happens as connectors forward a packet: "Forwarding, Not Delivery - ILPv4 connectors forward
    packets…" before "Designed for Smaller, More Homogenous Packet Amounts"). The quote gives them in the
    list's order."""
    if naming is None:
        return list(range(len(points)))
    named = [naming(" ".join(point)) for point in points]
    return sorted(range(len(points)), key=lambda n: -named[n])


# a list item that only points elsewhere: a link ("Master issue by … on supporting the protocol: https://…") or
# another document's number and title ("A9: Server-side Connection Management", "gRFC A27: xDS-based Global
# Load Balancing")
_POINTER_ITEM = re.compile(
    r"https?://\S+\W{0,2}$|^\[?(?:[A-Za-z]+\s)?[A-Z]{1,5}-?\d{1,5}\]?:\s[^.!?]*[.;,]?$"
    # where an implementation lives: "Implementation of ICS 20 in Go can be found in ibc-go repository."
    r"|^[^.!?]*\b(?:can|may)\s+be\s+found\s+(?:in|at|on)\b[^.!?]*[.;]?$"
)
# an item reading what is printed above the list ("In the above 11 leaf MMR we have 3 peaks…" under nervos 0044's
# figure); "the following" in an item is what the item itself goes on to give ("the following Precommit
# messages …: (p1, 100), (p2, 98)")
_READS_ABOVE = re.compile(
    r"\bthe\s+above\b|\b(?:above|preceding)\s+(?:figure|diagram|image|picture|table|example|code|snippet|listing"
    r"|output)s?\b|\b(?:figure|diagram|image|picture)s?\s+above\b|\b(?:shown|illustrated|depicted)\s+above\b"
    r"|如?上图|上面的?(?:图|示例|代码|例子)",
    re.IGNORECASE,
)
# a table of contents' label ("Table of Contents:", "**Contents:**", "目录")
_CONTENTS = re.compile(r"^\W*(?:table\s+of\s+contents|contents|toc|目录)\W*$", re.I)
# documents/plain.py stores a list right under its heading with the heading as its lead-in, a bold label
# ("**Main goals of this proposal:**"): the list's own name, not a sentence that must stand alone
_HEADING_LABEL = re.compile(r"^\*\*([^*\n]{1,200}[:：])\*\*$")


def text_blocks(text: str) -> list[str]:
    """The blank-line separated blocks of a text, a fenced code block whole (blank lines inside it too)."""
    blocks: list[str] = []
    current: list[str] = []
    fence = ""
    for line in text.split("\n"):
        opening = re.match(r"^\s*(```+|~~~+)", line)
        if not fence and opening:
            if current:
                blocks.append("\n".join(current))
            current, fence = [line.strip()], opening.group(1)
            continue
        if fence:
            current.append(line)
            if line.strip().startswith(fence) and len(current) > 1:
                blocks.append("\n".join(current))
                current, fence = [], ""
            continue
        if not line.strip():
            if current:
                blocks.append("\n".join(current))
            current = []
        else:
            current.append(line)
    if current:
        blocks.append("\n".join(current))
    return [b.strip() for b in blocks if b.strip()]


def similar(a: str, b: str) -> float:
    """Jaccard overlap of two passages' content words (0 = nothing shared, 1 = the same words)."""
    wa, wb = set(content_words(a)), set(content_words(b))
    return len(wa & wb) / max(1, len(wa | wb))


# a reST footnote or citation reference ("[1]_", "[#]_", "[PEP8]_") left in the prose: debris, not words
_FOOTNOTE_REF = re.compile(r"\s?\\?\[[\w#*.-]{1,30}\\?\]\\?_(?!\w)")


def clean(text: str) -> str:
    return " ".join(_FOOTNOTE_REF.sub("", text).split())
