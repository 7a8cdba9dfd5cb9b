"""What a document says about itself before its text: front matter, RFC 822-style headers (`Title:`,
`Status:`, `Created:`), an RFC's `Feature Name:`, reST field lists; and heading text cleaned of anchors."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

BOM = "\ufeff"
MAX_TITLE = 300
# YAML (`---`) or TOML (`+++`) front matter; its lines are blanked, not removed, so line numbers hold
FRONTMATTER = re.compile(r"\A(?:---|\+\+\+)[ \t]*\n(.*?)\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
# front matter written as a fenced yaml block opening the page (Arco Design's component pages: ```yaml with
# `title: 伸缩框 ResizeBox` and `description: 伸缩框组件。`): the page's title and description, not its code —
# only at the very top and only when it sets a top-level title or description
_FENCED_FRONTMATTER = re.compile(r"\A```ya?ml[ \t]*\n(.*?)\n```[ \t]*(?:\n|\Z)", re.S)
_TITLED = re.compile(r"(?m)^(?:title|description)[ \t]*:[ \t]*\S")
_FRONTMATTER_FIELD = re.compile(r"^([A-Za-z][\w -]{0,30}?)[ \t]*[:=][ \t]*(.*?)[ \t]*$", re.M)
# a header written as a two-column table at the top of a document: `| Status | DRAFT |`, `| Author | @x |`
_TABLE_FIELD = re.compile(
    r"^[ \t]*\|[ \t]*(?:\*\*|__)?([A-Za-z][A-Za-z -]{1,30}?)(?:\*\*|__)?[ \t]*\|[ \t]*([^|]+?)[ \t]*\|[ \t]*$"
)
_HEADER_LINE = re.compile(r"^[A-Z][A-Za-z-]{1,30}:[ \t]")
_HEADER_TITLE = re.compile(r"^Title:[ \t]*(.+)$")
# a header block set in `<pre>` opening the document, one `name: value` field a line: an XRPL Standard's
# `<pre>` `xls: 39` `title: Clawback Support` … `</pre>` (its first heading is "1. Abstract", no name)
_PRE_HEADER = re.compile(r"\A\s*<pre>[ \t]*\n(.*?)\n[ \t]*</pre>", re.S)
_H1 = re.compile(r"^#[ \t]+\S", re.M)
_PRE_TITLE = re.compile(r"^[ \t]*title[ \t]*:[ \t]*(.+?)[ \t]*$", re.M | re.I)
# A field at the top of a document, in any of the header styles proposals use: `Status: Final` (PEP),
# `:Status: Final` (reST field list), `- Start Date: 2018-03-30` (RFC list), `status: draft` (frontmatter).
# The name may be set in bold, as KEEP's `* **Status**: In progress` and OpenTelemetry's `**Status**: [Stable](…)`.
_FIELD = re.compile(
    r"^[ \t]*(?:[-*][ \t]+)?:?(?:\*\*|__)?([A-Za-z][A-Za-z -]{1,30}?)(?:\*\*|__)?:(?:\*\*|__)?[ \t]+(.+?)[ \t]*$"
)
STATUSES = (
    "superseded",
    "obsolete",  # a Nervos CKB RFC's `Status: Obsolete`: replaced, no longer in force
    "withdrawn",
    "rejected",
    "deferred",
    "returned",  # Swift Evolution's "Returned for revision": not what was accepted
    "deprecated",
    "accepted",
    "provisional",
    "final",
    "implemented",  # "Implemented (Swift 5.4)"
    "stable",  # KEEP's "Stable in 1.5.0"
    "shipped",  # a SIP's front matter `status: shipped` (beside `stage: completed`)
    "activated",  # a Solana SIMD's `status: Activated`: live on the network
    "released",  # an Ember RFC's `stage: released`
    "completed",
    "recommended",  # an Ember RFC's `stage: recommended`: released and the recommended way
    "discontinued",  # an Ember RFC's `stage: discontinued`
    # what standing.INACTIVE names, stated in a header: Crossplane's `* Status: Defunct` (its defunct/ alpha
    # design of Composition Functions had opened a report as how Functions work), `Status: Abandoned`
    "defunct",
    "abandoned",
    "postponed",
    "declined",
    "replaced",
    "retired",
    "experimental",
    "work in progress",  # IRCv3's front matter `work-in-progress: true`: a draft, before "in progress"
    "in progress",
    "proposed",  # an architecture decision record's first status
    "under review",  # `status: under-review`
    "draft",
    "active",
)
_STATUS_FIELDS = ("status", "state", "stage")
# front matter flags stating a page's standing when set (`work-in-progress: true` on 13 of IRCv3's 50 pages,
# `deprecated: true` or `deprecated: 0027-interledger-protocol-4` on Interledger's deprecated/ pages, Hugo's
# `draft: true`); a number or FINAL (Interledger's `draft: 10`, its revision) and a false value state none
_FLAGS = {
    "work-in-progress": "work_in_progress",
    "wip": "work_in_progress",
    "draft": "draft",
    "experimental": "experimental",
    "deprecated": "deprecated",
}
_TRUE = frozenset({"true", "yes", "on"})
_UNSET = frozenset({"", "false", "no", "off", "0", "null", "~", "none"})
_DATE_FIELDS = (
    "created",
    "date",
    "start date",
    "published",
    "resolution date",
    "last-modified",
    "last updated",  # Go design documents: "Last updated: July 18, 2016"
)
_FEATURE_NAME = {"feature name", "feature-name"}
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
# `{#anchor}` (kramdown, VitePress, MyST), escaped `\{\#anchor\}`, `[](#anchor)` or `¶` permalinks
# a heading's anchor: `{#id}` (Pandoc, VitePress), `%{#id}%` (VitePress translations: Pinia's "插件
# %{#plugins}%"), `[](#id)`, a pilcrow, or Elastic docs-builder's `[id]` (a lower-case slug in brackets closing
# the heading: "# Logstash [introduction]"), or an attribute list (MkDocs' attr_list, kramdown: huma's
# "## Introduction {.hidden}", "{ .hidden }", "{: #id .class }"): markup of the site, never words
_ANCHOR = re.compile(
    r"\s*(?:%?\\?\{\\?#[^}\s]*\\?\}%?|\[\]\(#[^)\s]*\)|¶)\s*$|\s+\\?\[[a-z0-9][a-z0-9_-]*\\?\]\s*$"
    r"|\s*\\?\{:?[ \t]*\\?[#.][\w-][^{}]*\\?\}\s*$"
)
# an HTML anchor that only names a place to link to (OCI's `# <a name="filesystemBundle" />Filesystem Bundle`,
# `<a id="x"></a>`): no words of the heading, dropped as `{#anchor}` is
_ANCHOR_TAG = re.compile(r"<a\s+(?:name|id)\s*=\s*[\"']?[^<>]*?/?>(?:\s*</a>)?", re.I)
# a template's note in a heading ("Positive Consequences <!-- optional -->"): no word of the heading
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)")
_HEADING_MARKUP = re.compile(r"`+|\*\*|(?<!\\)__|\\(?=[^\w\s]|_)")
_EMPHASIS = re.compile(r"(?<![\w*\\])\*([^*\s](?:[^*\n]*[^*\s])?)\*(?![\w*])")  # "*CLI option* names"
# an inline link, or a reference link (okio's "Read a text file ([Java][ReadFile]/[Kotlin][ReadFileKt])")
_HEADING_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_HEADING_LINK = re.compile(r"\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])")
# inline HTML that only styles the words around it: the words stay, the tags go
_STYLE_TAG = re.compile(
    r"</?(?:small|big|code|tt|kbd|var|samp|b|i|u|s|em|strong|mark|sup|sub|span|abbr)\b[^<>]*>", re.I
)
# The parts a document's body opens with, and the banners set above it: neither is its title. A part may
# wear an emoji (GraphQL RFCs' "# 📜 Problem Statement").
_PARTS = (
    r"summary|abstract|introduction|overview|motivation|background|contents|table of contents|preamble|"
    r"rationale|problem statement"
)
_BANNERS = r"status|notice|note|warning|important|deprecated|draft|" + "|".join(STATUSES)
_NOT_A_TITLE = re.compile(rf"^\W*(?:{_PARTS}|{_BANNERS})\W*$", re.I)
_PART = re.compile(rf"^\W*(?:{_PARTS})\W*$", re.I)


@dataclass(frozen=True)
class Header:
    """The fields a document opens with."""

    title: str = ""
    status: str = ""
    date: str = ""


def blank_frontmatter(text: str) -> tuple[str, str]:
    """(front matter body, text with the front matter's lines blanked); "" when there is none."""
    found = FRONTMATTER.match(text)
    if not found and (fenced := _FENCED_FRONTMATTER.match(text)) and _TITLED.search(fenced.group(1)):
        found = fenced
    if not found:
        return "", text
    lines = found.group(0).count("\n")
    return found.group(1), "\n" * lines + text[found.end() :]


def frontmatter_field(body: str, *names: str) -> str:
    """The value front matter (its `body`) gives the first of `names` it sets ("" when none): quotes left
    out; a YAML tag, anchor or alias (`!!python/object/apply:os.system [...]`) is no value to use."""
    for name, value in _FRONTMATTER_FIELD.findall(body):
        if name.strip().lower() in names and value.strip().strip("'\""):
            return "" if value.startswith(("!", "&", "*")) else value.strip().strip("'\"")
    return ""


def stated_field(text: str, *names: str) -> str:
    """The value a document's front matter gives the first of `names` it sets ("" when none)."""
    return frontmatter_field(blank_frontmatter(text.lstrip(BOM))[0], *names)


def header_fields(text: str, limit: int = 60) -> dict[str, str]:
    """The `Name: value` fields at the top of a document (or its `| Name | value |` table rows), lower-cased
    names; the first value wins."""
    fields: dict[str, str] = {}
    for line in text.lstrip(BOM).splitlines()[:limit]:
        found = _FIELD.match(line) or _TABLE_FIELD.match(line)
        if found:
            fields.setdefault(found.group(1).strip().lower(), found.group(2).strip().strip("`'\""))
    return fields


def read_header(text: str) -> Header:
    """Title (`Title:` header, front matter, RFC `Feature Name:`), status and ISO date a text states."""
    fields = header_fields(text)
    # the first status field naming a status deepkb knows: `status: shipped` or, failing it, `stage: completed`
    status = next((word for name in _STATUS_FIELDS if (word := status_of(fields.get(name, "")))), "")
    status = status or flagged_status(blank_frontmatter(text.lstrip(BOM))[0])
    date = next((iso for name in _DATE_FIELDS if name in fields and (iso := iso_date(fields[name]))), "")
    title = _header_title(text) or _pre_title(text) or _front_title(text) or _table_title(text)
    title = title or _feature_name(text)
    return Header(clean_heading(title), status, date)


# a subtitle this short names the subject again (a translation); a longer one is a tagline
SUBTITLE_CHARS = 24


def _front_title(text: str) -> str:
    """The front matter's title, with a short subtitle after it as the docs site shows it: a dumi page
    (Ant Design's, umi's) is `title: Affix` and `subtitle: 固钉` — its Chinese name, the one a reader searches."""
    title = stated_field(text, "title")
    subtitle = stated_field(text, "subtitle") if title else ""
    if subtitle and len(subtitle) <= SUBTITLE_CHARS and subtitle.lower() not in title.lower():
        return f"{title} {subtitle}"
    return title


def flagged_status(front: str) -> str:
    """The status a front matter flag states (`work-in-progress: true` → "work_in_progress"; '' when none is
    set). `deprecated:` holds a reason or a successor as often as `true`: any value but a false one marks it."""
    for name, word in _FLAGS.items():
        value = frontmatter_field(front, name).lower()
        if value in _TRUE or name == "deprecated" and value not in _UNSET:
            return word
    return ""


def status_of(stated: str) -> str:
    """The status a stated status names, as one word ("Superseded by PEP 3333" → "superseded", "In progress"
    → "in_progress"); '' when it names none deepkb knows."""
    lowered = re.sub(r"[-_]", " ", stated.lower())  # `under-review` is "under review"
    lowered = re.sub(r"^\s*(?:in\s+)?review\b", "under review", lowered)  # a SIMD's `status: Review`
    # a Nervos CKB RFC's `Status: Proposal` is what an ADR calls "Proposed"; "Obsoleted by RFC 8" is obsolete
    lowered = re.sub(r"^\W*proposal\b", "proposed", lowered)
    lowered = re.sub(r"\bobsoleted\b", "obsolete", lowered)
    word = next((word for word in STATUSES if re.search(rf"\b{word}\b", lowered)), "")
    return word.replace(" ", "_")


def _feature_name(text: str) -> str:
    feature = next((v for k, v in header_fields(text, 20).items() if k in _FEATURE_NAME), "")
    if re.fullmatch(r"[\w:-]+(?: [\w:-]+){0,8}", feature) and feature.lower() not in {"n/a", "none", "na"}:
        return feature.replace("_", " ")
    return ""


def _table_title(text: str) -> str:
    """The `| Title | … |` row of a header table opening the document ('' when it opens otherwise)."""
    for line in text.lstrip(BOM).lstrip().splitlines()[:20]:
        if not line.lstrip().startswith("|"):
            return ""
        found = _TABLE_FIELD.match(line)
        if found and found.group(1).strip().lower() == "title":
            return found.group(2).strip()
    return ""


def _header_title(text: str) -> str:
    """`Title:` from a header block that opens the document (every line before it is a header too)."""
    for line in text.lstrip(BOM).splitlines()[:40]:
        found = _HEADER_TITLE.match(line)
        if found:
            return found.group(1).strip()
        if not _HEADER_LINE.match(line) and not line.startswith((" ", "\t")):
            return ""
    return ""


def _pre_title(text: str) -> str:
    """`title:` from a `<pre>` header block that opens the document ('' when it opens otherwise, or has a
    first-level heading of its own: "Automated Market Maker on XRP Ledger" is what its page calls itself)."""
    block = _PRE_HEADER.match(text.lstrip(BOM))
    if block and _H1.search(text, block.end()):
        return ""
    found = _PRE_TITLE.search(block.group(1)) if block else None
    return found.group(1) if found else ""


def iso_date(value: str) -> str:
    """YYYY-MM-DD from `2021-05-25`, `25-May-2021`, `May 25, 2021` or `2021/05/25` ('' otherwise)."""
    value = value.strip()
    if found := re.match(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b", value):
        year, month, day = found.groups()
    elif found := re.match(r"(\d{1,2})[- ]([A-Za-z]{3})[A-Za-z]*[- ,]+(\d{4})\b", value):
        day, name, year = found.groups()
        month = str(_MONTHS.index(name.lower()) + 1) if name.lower() in _MONTHS else ""
    elif found := re.match(r"([A-Za-z]{3})[A-Za-z]*\.? (\d{1,2}),? (\d{4})\b", value):
        name, day, year = found.groups()
        month = str(_MONTHS.index(name.lower()) + 1) if name.lower() in _MONTHS else ""
    else:
        return ""
    if not month or not 1 <= int(month) <= 12 or not 1 <= int(day) <= 31:
        return ""
    return f"{year}-{int(month):02d}-{int(day):02d}"


def clean_heading(text: str) -> str:
    """A heading's words as written: anchors, code and strong markers and escapes dropped, a link reduced
    to its words, styling tags and comments dropped (`<small>nlohmann::</small>json`, a template's
    `<!-- optional -->`), any other HTML kept as text (a
    heading `<img …>` is searched by those words, never rendered)."""
    text = _HTML_COMMENT.sub(" ", text.replace(BOM, ""))
    text = _STYLE_TAG.sub("", _ANCHOR.sub("", _ANCHOR_TAG.sub("", text)))
    # an image: its alt text when it is the whole heading (faraday's logo "# ![Faraday](logo.svg)"), else
    # nothing (ipfs specs' status badge before the title)
    imageless = _HEADING_IMAGE.sub("", text)
    worded = re.search(r"\w", _HEADING_LINK.sub(r"\1", imageless))
    text = imageless if worded else _HEADING_IMAGE.sub(r"\1", text)
    text = _HEADING_LINK.sub(r"\1", _HEADING_MARKUP.sub("", _EMPHASIS.sub(r"\1", text)))
    # an entity is its character, as a browser shows it (`array&lt;string&gt;`, `Serde JSON &emsp;`)
    return " ".join(html.unescape(text).split())[:MAX_TITLE]


def is_section_name(heading: str) -> bool:
    """A heading that names a part of a document ("Summary", "Motivation") or a banner ("Status"), never its
    title."""
    return bool(_NOT_A_TITLE.match(heading))


# the reference part a Markdown page without a title heading opens with when its title lives elsewhere
# (TDesign's pages are ':: BASE_DOC ::' then "## API"; Arco's keep theirs in a yaml block): no title
_REFERENCE_PART = re.compile(r"^\W*(?:api|api reference|faq|frequently asked questions|常见问题)\W*$", re.I)


def is_reference_part(heading: str) -> bool:
    """A heading naming a page's reference part ("API", "FAQ"), which titles no page that has no title."""
    return bool(_REFERENCE_PART.match(heading))


def opens_body(heading: str) -> bool:
    """A heading that names a part of a document's body ("Abstract", "Summary"): the title is above it."""
    return bool(_PART.match(heading))


# Nuxt Content orders files and folders by a number before a dot: docs/1.guide/2.utils.md
_ORDER_PREFIX = re.compile(r"^\d+\.(?=[A-Za-z_])")


def unordered(name: str) -> str:
    """A file or folder name without Nuxt Content's order prefix: "2.utils.md" → "utils.md"."""
    return _ORDER_PREFIX.sub("", name)


def title_from_name(stem: str) -> str:
    """A file name as a title: "0016-more-project-flexibility" → "more project flexibility", Nuxt Content's
    ordered "2.utils" → "utils"."""
    words = _ORDER_PREFIX.sub("", stem).replace("_", " ").replace("-", " ").split()
    while len(words) > 1 and words[0].isdigit():  # a proposal's number says nothing of its subject
        words = words[1:]
    return " ".join(words)
