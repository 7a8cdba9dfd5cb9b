"""Whether a document says it is no longer in force: a rejected, withdrawn or superseded proposal, a docs
page marked obsolete or deprecated. Read from the status its header or front matter states, or from what
its opening says of itself ("This document is obsolete.", "This PEP has been superseded by PEP 634", a
"Deprecated" admonition). Topic research labels such sources; repository pages list such doc pages
labelled and never quote them as how something works now."""

from __future__ import annotations

import re

from .header import blank_frontmatter, status_of
from .model import Section

# statuses that say the document does not describe what is (first word of the stated status, lowercased):
# a draft describes what may be, a deprecated feature what is on its way out
INACTIVE = frozenset(
    "rejected withdrawn superseded deferred postponed abandoned declined obsolete replaced retired draft"
    " deprecated returned discontinued defunct work_in_progress".split()
)
# a document saying of itself, near its top, that it is no longer in force: "This PEP has been superseded by
# PEP 634", "Superseded by RFC 3058", "This proposal was withdrawn", "该提案已被废弃"
_STATED = re.compile(
    r"\bthis\s+(?:pep|rfc|nep|kep|adr|decision|proposal|document|page|specification|spec|draft|enhancement)"
    r"\s+(?:has\s+been|"
    r"was|is|is\s+now|has\s+now\s+been)\s+(superseded|withdrawn|rejected|deferred|deprecated|replaced|abandoned|"
    r"obsoleted?)\b|^\W*(superseded|replaced|obsoleted)\s+by\b",
    re.I | re.M,
)
_STATED_ZH = re.compile(
    r"(?:本提案|该提案|此提案|本文档|本文|本页)(?:现)?已(?:被)?(取代|撤回|拒绝|废弃|弃用|推迟)"
)
_ZH_WORDS = {"取代": "superseded", "撤回": "withdrawn", "拒绝": "rejected", "废弃": "deprecated",
             "弃用": "deprecated", "推迟": "deferred"}  # fmt: skip
# a page saying near its top that it is unfinished or moved: CometBFT's "> Warning: This is the beginning of
# an unfinished draft.", "This is a work in progress.", "Deprecated, please see [light-client](…)"
_STATED_UNFINISHED = re.compile(
    r"^\W*(?:warning\W+)?this\s+(?:is\s+)?(?:the\s+beginning\s+of\s+)?(?:an?\s+)?"
    r"(unfinished\s+draft|work\s+in\s+progress)\b|^\W*(deprecated)\W+(?:please\s+)?see\b",
    re.I | re.M,
)
OPENING = 800  # characters of a document's start where it states its own standing
# a docs page opening with an admonition that marks it: `> **Deprecated:** …`, `> [!WARNING]` then
# `> Deprecated.`, `!!! warning "Deprecated"`, `:::{deprecated}`, `.. deprecated::`
_ADMONITION = re.compile(
    r"^[ \t]*(?:>[ \t]*)*(?:\[!\w+\][ \t]*)?"
    r"(?:(?:!!!|\?\?\?|:::+)[ \t]*\{?(?:\w+\}?[ \t]+)?|\.\.[ \t]+)?[\"*_]*"
    r"(deprecated|obsolete|superseded)\b[\"*_]*[ \t]*(?:::|[:.!\"}]|$)",
    re.I | re.M,
)
# front matter that marks a page: `deprecated: true`, `deprecated: "use X"`; `deprecated: false` does not
_DEPRECATED_FIELD = re.compile(r"^deprecated[ \t]*:[ \t]*(.*?)[ \t]*$", re.I | re.M)
_FALSE = frozenset({"", "false", "no", "off", "0", "null", "~"})


def status_word(status: str) -> str:
    """The stated status reduced to its first word ("Superseded by PEP 3333" → "superseded"; the reader's
    "in_progress" is one word)."""
    words = re.findall(r"[a-z]+(?:_[a-z]+)*", status.lower())
    return words[0] if words else ""


def opening_status(text: str) -> str:
    """A status the start of a document states of itself ('' when none)."""
    opening = text[:OPENING]
    found = _STATED.search(opening)
    if found:
        word = (found.group(1) or found.group(2)).lower()
        return "obsolete" if word.startswith("obsolete") else word
    found = _STATED_ZH.search(opening)
    if found:
        return _ZH_WORDS[found.group(1)]
    found = _STATED_UNFINISHED.search(opening)
    if not found:
        return ""
    said = (found.group(1) or found.group(2)).lower()
    return "deprecated" if said == "deprecated" else "draft" if said.endswith("draft") else "work_in_progress"


def page_standing(text: str, status: str = "") -> str:
    """Why a docs page is no longer in force, as one word ("obsolete", "deprecated", "superseded"…): its
    stated status, a `deprecated:` front matter field, what its opening says of itself, or an admonition
    opening it; '' when it is in force."""
    word = status_word(status)
    if word in INACTIVE:
        return word
    front, body = blank_frontmatter(text)
    marked = _DEPRECATED_FIELD.search(front)
    if marked and marked.group(1).strip("'\"").lower() not in _FALSE:
        return "deprecated"
    said = opening_status(body.lstrip())
    if said:
        return said
    found = _ADMONITION.search(body.lstrip()[:OPENING])
    return found.group(1).lower() if found else ""


# a section stating the document's status: an architecture decision record's "## Status" holding "Accepted",
# "PROPOSED" or "Superseded by ADR-0005"; the status of a Chinese document ("## 状态")
_STATUS_SECTION = re.compile(r"^\W*(?:status|状态)\W*$", re.I)
STATUS_LINE = 80  # characters: a longer first paragraph discusses the status rather than stating it


def section_status(sections: tuple[Section, ...]) -> str:
    """The status a document's own "Status" section states in its first short paragraph ('' when it has no
    such section, or the section states none deepkb knows)."""
    for section in sections:
        if section.level >= 1 and _STATUS_SECTION.match(section.heading) and section.blocks:
            first = section.blocks[0].plain
            return status_of(first) if len(first) <= STATUS_LINE else ""
    return ""


# a file name carrying its revision and that revision's standing: CometBFT's `pbts_001_draft.md` beside the
# current `pbts-algorithm.md`, `verification_002_draft.md` beside `verification_001_published.md`; a name
# without the revision number ("draft-mode.md", "save-as-draft.md") is a page about drafts, not one
_NAMED_REVISION = re.compile(r"[-_.]v?\d{1,3}[-_.](draft|obsolete|deprecated|superseded)$", re.I)


def name_status(stem: str) -> str:
    """The status a file's name states of its revision ("pbts_001_draft" → "draft"; '' for most names)."""
    found = _NAMED_REVISION.search(stem)
    return found.group(1).lower() if found else ""


# a section heading marking its own section as no longer in force: a status in brackets ("### L2 Block-number
# based activation (deprecated)", "### 默认步骤条（旧版）", "#### 2.1.6 [Deprecated]支持转设计稿"), or a short
# heading naming what it holds as old ("#### Legacy Semantics", "Old Version", "Deprecated `blob_sidecar`"); a
# longer one speaks of old things in the present ("### Unplug interface of a legacy VM", "### 兼容旧版浏览器")
_OLD_WORDS = r"legacy|deprecated|obsolete|superseded|outdated|old(?:\s+version)?"
_BRACKETED_OLD = re.compile(rf"[(\[（【]\s*(?:{_OLD_WORDS}|旧版|已?废弃|已?弃用|已?过时)\s*[)\]）】]", re.I)
_NAMED_OLD = re.compile(rf"^[\W_]*(?:{_OLD_WORDS})\b(?:\s+\S+){{0,2}}\s*$", re.I)
# a section opening on a line marking it ("**NOTE: OBSOLETE**" under bazel's "# Migration", "Deprecated.", "已废弃")
_OPENING_OLD = re.compile(
    rf"^[\W_]*(?:(?:note|warning|status)\s*[:：][\W_]*)?(?:{_OLD_WORDS})[\W_]*$|^[\W_]*(?:已废弃|已弃用|已过时)[\W_]*$",
    re.I,
)


def marked_old(heading: str, opening: str = "") -> bool:
    """Whether a section's heading, or the short line it opens on, says the section is no longer in force."""
    first = opening.strip().partition("\n")[0]
    return bool(
        _BRACKETED_OLD.search(heading) or _NAMED_OLD.match(heading) or first and _OPENING_OLD.match(first)
    )


_OLD_WORD = re.compile(rf"\b(?:{_OLD_WORDS})\b|旧版|废弃|弃用|过时", re.I)


def names_old(text: str) -> bool:
    """Whether a text (a topic) names something as old: it asks about what is no longer in force."""
    return bool(_OLD_WORD.search(text))
