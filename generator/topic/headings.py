"""Which facet of a topic's outline a section heading says its section answers: one table, English and
Chinese, read alike by the plan (which questions the top documents' sections answer) and by the analyst
(which sections answer each question). A question the outline asks because of a heading is answered from
the section under that heading.

The table holds the words documents title their sections with: design proposals ("Motivation", "Detailed
design", "Rejected ideas"), architecture decision records ("Context and Problem Statement", "Decision",
"Considered Options", "Status"), guides ("Usage", "Caveats") and their Chinese counterparts ("背景",
"原理", "注意事项", "进展"); 状态 alone is a program's state as often as a status ("组件状态"), and
names none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import accumulate

from .. import cjk

# a status the subject reports ("Response Status Codes", "Exit status", "Status field") is no status of the work
_STATUS = (
    r"(?<!exit\s)(?<!http\s)(?<!response\s)status"
    r"(?!\s+(?:codes?|fields?|lines?|messages?|objects?|conditions?|bars?)\b)"
)
# facet → the words of a heading naming it. "what" is answered by a document's own summary; "current" by a
# section on the state of the work (`is_status_heading` keeps "Implementation" from being how it works)
FACET_WORDS = {
    # "### User Stories" under "## Proposal" (a KEP-like template): who needs the subject and why, not the design
    "motivation": r"motivation|rationale|background|why\b|problem|use cases?|user stor(?:y|ies)\b|purpose"
    r"|decision drivers"
    r"|动机|背景|原因|为什么|为何|目的",
    # an algorithm section says how the subject works (CometBFT's "## Basic Algorithm" of proposer selection: its
    # weighted round-robin; "basic" names no usage there); a proposal template's bare "## How" beside its "## Why" (Prometheus), "## How does it work?" (npm); a
    # convention for what the reader writes (semi's "## 文案规范" in 36 component pages: "保持简洁", "句尾不使用句号";
    # "命名规范", "Commit 提交规范") specifies no part of the subject; a specification's "Server behaviour" and "Client
    # behaviour" say what each party does, normatively
    "how": r"specification|design|how (?:it|this|they) works?|^\W*how\W*$|how (?:does|do) (?:it|this|they) work"
    r"|semantics|syntax|mechanism|architecture|algorithms?\b|behaviou?r\b|"
    r"implementation|details|detailed description|overview of|reference|^\W*decision(?:\s+outcome)?\W*$"
    r"|(?<!文案)(?<!写作风格)(?<!命名)(?<!提交)(?<!文档)规范|设计|原理|机制|细节"
    r"|工作方式|实现方式|实现原理",
    # "## Scenarios and User Experience" (a design's use cases told as a user meets them), "#### Scenario:
    # prepublishing a new minor version": how it is used; a KEP-like template's "### User Experience In Detail"
    # under "## Proposal" (a user's steps: "Users can enable the option…, then run fstrim") is no design
    # a component's reference tables, under a heading naming only them ("## API", "### Countdown Props",
    # "### `<resize-box>` Props", "### 属性", "### CSS 变量"): what a reader sets to use it ("计算属性" names a
    # concept and "Futures API" a design, neither a table; MobX's "## Options {🚀}" is a guide's advanced
    # section)
    "use": r"usage|how to|using|examples?|scenarios?\b|user experience|tutorial|getting started|quick ?start"
    r"|configur|install|basic(?!\s+(?:algorithms?|approach|design|mechanism)\b)|"
    r"^\W*(?:api|props)\W*$|^\W*<?[A-Za-z][\w.-]*>?\s+props\W*$"
    r"|^\W*(?:[A-Za-z][\w.-]*\s*)?(?:属性|参数|配置项|选项|事件|方法|插槽|css\s*变量|样式变量)\W*$|"
    r"用法|使用|示例|教程|配置|快速上手|入门",
    # a scope of use says where the subject stops ("## 出码的适用范围": "当然，出码也会存在一些限制：…")
    "limits": r"limitations?|caveats?|drawbacks?|downsides?|pitfalls?|security|"
    r"backwards? compatib|performance|known issues|negative consequences|局限|缺点|限制|注意|不足|陷阱|适用范围",
    # a comparison with other work ("Comparison with other languages", "与 Webpack 比较"), not one inside the
    # design ("Module-level vs type-level docs", "计算属性缓存 vs 方法") nor comparing as a subject
    # ("Comparison traits", "自定义比较函数"); an ADR's options weighed against each other
    # "## Related Work" (other systems doing the same: Dask, Parquet/Arrow) is prior art, not the design
    "alternatives": r"rejected|alternatives?|prior art|related (?:work|projects|efforts|technologies|approaches)\b"
    r"|other approaches|compar(?:ison|ed|ing)s?\s+(?:with|to|against)\b|"
    r"^\W*comparisons?\W*$|considered options|options considered|pros and cons of the options"
    r"|替代|对比|与.{1,30}(?:比较|相比)|比较\W*$|备选方案"
    # how it differs from another thing ("Difference from blocklist", "与 webpack-bundle-analyzer 的区别") and
    # which of several to take ("## 如何选择" between two strategies, "该选哪一个？"): weighed against the others
    r"|differen(?:ces?|t)\s+(?:from|with|to)\b|\bdiffers?\s+from\b|(?:^\W*和|与).{1,30}(?:区别|差异|不同)"
    r"|how to choose|which (?:one\s+)?to choose|choosing between|如何选择\W*$|怎么选|该?选哪",
    # "changes" alone or summed up is the history of the work; "Language changes", "Changes to the parser",
    # "Determining Changes" and "Changeset" are what the design changes
    "current": rf"{_STATUS}|history|(?:^\W*|summary\s+of\s+)changes\b(?!\s+to\b)|changes\s+(?:from|since)\b"
    r"|timeline|roadmap|what'?s new|现状|历史|进展|当前状态",
}
# a facet's word begins a word of the heading: "opcuastatus", an attribute's name, is no status section
FACET_PATTERNS = {
    facet: re.compile(rf"(?<![A-Za-z])(?:{words})", re.I) for facet, words in FACET_WORDS.items()
}
FACETS = ("what", *FACET_WORDS)

# Sections whose role in their document is an aside, never an answer to the outline's questions, whatever
# their sub-headings name: what is still undecided or left for later ("Unresolved questions", "Open points",
# "Future work": "### Downgraders for FC" under "# Open Questions" is no design, and no limit of it), what
# came before the design ("## History" and its "### Backwards Compatibility": the policy before the
# proposal), and how the work is to be delivered: a KEP-like template's "Test Plan", "Graduation Criteria",
# "Upgrade / Downgrade Strategy", "Version Skew Strategy", "Infrastructure Needed" (Argo CD's "Upgrade /
# Downgrade Strategy" under "## Design Details" was quoted as how server-side apply works). The roles frame
# their subsections as the outline's framing facets do (heading_facets.framed).
#
# The questions and troubles readers bring ("## FAQ", "## 常见问题", "## Troubleshooting", "## 疑难解答") are an
# aside too: what goes wrong with the subject and what to take instead ("是否支持上拉加载更多？" "上拉加载更多是另一个
# 组件"), whatever a question asks — "### 为什么不直接使用 formatMessage？" under umi's "## FAQ" is no reason the
# subject matters, "为什么…一直处于 loading？" under antd-mobile's "## 常见问题" none either.
OPEN, HISTORY, DELIVERY, QUESTIONS = "open", "history", "delivery", "questions"
ASIDE_ROLES = frozenset({OPEN, HISTORY, DELIVERY, QUESTIONS})
_OPEN_HEADING = re.compile(
    r"^\W*(?:(?:open|unresolved|outstanding|remaining|undecided)\s+(?:questions?|issues|points|problems|items)"
    r"|future\s+(?:work|directions?|extensions?|possibilities|plans|improvements|considerations)"
    r"|未解决的?问题|未决问题|开放(?:性)?问题|待解决问题|未来(?:的)?工作|后续工作)",
    re.I,
)
# how the work is tested is delivery too, whatever kind of tests it names: KubeVirt's "## Functional Testing
# Approach" (27 of its proposals: "- Reliably distinguish after a migration if it was pre- or post-copy" was quoted
# as how migration policies work), "## Unit Testing Approach", Tekton's bare "## Testing"
_DELIVERY_HEADING = re.compile(
    r"^\W*(?:(?:(?:functional|unit|integration|e2e|end[- ]to[- ]end)\s+)?test(?:ing)?\s+"
    r"(?:plan|approach|strategy)|testing(?=\W*$)|graduation\s+criteria|upgrade\s*/\s*downgrade|version\s+skew"
    r"|infrastructure\s+needed|production\s+readiness)\b",
    re.I,
)
_QUESTIONS_HEADING = re.compile(
    r"(?<![A-Za-z])(?:faqs?|frequently\s+asked\s+questions|q\s*&\s*a)(?![A-Za-z])|^\W*troubleshooting\b"
    r"|^\W*common\s+(?:errors|mistakes|problems|issues)\b|常见问题|常见错误|疑难解答|故障排除|错误排查|问题排查",
    re.I,
)
# a heading asking a question: "是否支持下拉刷新？", "Why not just use Reference?"
_QUESTION_MARK = re.compile(r"[?？]\W*$")
_HISTORY_HEADING = re.compile(
    r"^\W*(?:(?:a\s+)?(?:brief\s+|short\s+)?history\b(?!\.)|historical\s+(?:background|context|notes?|overview)"
    r"|background\s+and\s+history|历史(?:背景)?\W*$)",
    re.I,
)


def aside_facets(role: str) -> set[str]:
    """The facets an aside answers: what a design leaves open is where it states what it cannot do yet ("##
    Open issues" > "### Bazel language version": Bazel cannot set the language version per package), and the
    questions readers bring are what goes wrong with it, so both answer "limits" — never how the subject
    works; history answers none."""
    return {role, "limits"} if role in (OPEN, QUESTIONS) else {role}


def aside_role(heading: str) -> str:
    """OPEN, HISTORY, DELIVERY or '': the role a heading gives its section when the section is an aside."""
    heading = facet_words(unnumbered(heading.strip()))
    if _OPEN_HEADING.match(heading):
        return OPEN
    if _DELIVERY_HEADING.match(heading):
        return DELIVERY
    if names(_QUESTIONS_HEADING, heading):
        return QUESTIONS
    return HISTORY if _HISTORY_HEADING.match(heading) else ""


# a section on who implements what, where and when, not on how the thing works: "Implementation" of a
# design proposal ("the change is implemented in the compiler today…"), "Reference Implementation" of a PEP.
# A "Proposed Implementation" or "Suggested implementation" is the design itself ("This is the bulk of the
# RFC. Explain the design…", a proposal template's words)
_STATUS_HEADING = re.compile(
    r"^\W*(?:(?:reference|initial|prototype)[- ]+)?implementations?"
    r"(?:\s+(?:status|history|plan|progress|timeline|schedule|and\s+(?:rollout|timeline|migration)))?\W*$"
    rf"|^\W*(?:(?:current\s+)?{_STATUS}|timeline|rollout|schedule|stabili[sz]ation)\b"
    r"|^\W*(?:timeline|rollout)\s+and\s+\w+\W*$|(?:实现状态|当前状态|进展)(?![\u3400-\u9fff])",
    re.I,
)
# a heading's anchor, as docs sites write it ("{#computed-caching-vs-methods}", MDX's "{/*props-vs-state*/}")
_HEADING_ANCHOR = re.compile(r"\s*\{[#/][^{}]*\}\s*$")
# an MADR template's note on a heading ("Positive Consequences <!-- optional -->"): no word of the heading
_HEADING_COMMENT = re.compile(r"\s*<!--.*?-->\s*")

# a document's own summary of itself: its opening answers "what is it"; Chinese names what it sums up before
# the word ("## 设置器简述", "## 插件简述", "## 编辑态扩展概述")
_SUMMARY = re.compile(
    r"^(?:abstract|summary|synopsis|overview|introduction|description|tl;?dr|概述|摘要|简介|介绍)\b"
    r"|^[^\n，。？?]{1,16}?(?:简述|概述|概要|概览|简介)\W*$",
    re.I,
)
# headings the proposal templates use beyond the table's words
_TEMPLATE_FACETS = {
    "use": re.compile(r"guide[- ]level|tutorial|walk-?through|用法|指南", re.I),
    "how": re.compile(
        r"reference[- ]level|detailed design|^\W*explanation\W*$|^\W*(?:the\s+)?proposal\b(?!\s*:)|specification|semantics"
        r"|^\W*(?:the\s+)?proposed\s+(?:solution|design|changes?|enhancements?|approach|api|features?)\b",
        re.I,
    ),
    # a KEP-like template's "### Risks and Mitigations": what could go wrong with the design; a specification's
    # bare "### Considerations" ("Note that a channel upgrade handshake may never complete successfully if…")
    "limits": re.compile(
        r"drawbacks|caveats|restrictions|limitations|known issues|pitfalls|out of scope|non[- ]?goals?|^\W*risks?\b"
        r"|^\W*(?:additional\s+|other\s+|key\s+)?considerations\W*$",
        re.I,
    ),
    "alternatives": re.compile(r"alternatives?|rejected ideas|prior art|other approaches", re.I),
}
# the state a design changes, told before it ("Current behaviour", "Status quo"): its background, never how
# the design works or where the work stands
_OLD_STATE_HEADING = re.compile(
    r"^\W*(?:the\s+)?(?:current|existing|present|old)\s+(?:behaviou?r|situation|design|approach|semantics"
    r"|implementation|practice|solutions?)\b|status quo|现有方案",
    re.I,
)
# what the subject gains ("What are the performance benefits of Server Components?", "Advantages", "优点"): why
# it matters, whatever else the heading names ("performance" is no limit here)
_BENEFIT_HEADING = re.compile(
    r"\b(?:benefits?|advantages?|upsides?|pros|positive consequences)\b|优点|优势|好处", re.I
)
# what a design sets out to achieve ("### Design goals": "Speed: Fetching repodata MUST be very fast."; a proposal's
# own "## Goals" beside its "## Non-Goals": "Prometheus can perform meaningful rate-like functions even with a single
# scrape."): why it is made as it is, not how it works
_GOALS_HEADING = re.compile(
    r"^\W*(?:(?:\w+\s+)?design\s+)?(?:goals?|principles|objectives)\b(?!.*non[- ]?goals?)", re.I
)
# when a reader takes the subject ("## 何时使用": "当需要将文本转换成为二维码时使用。", "## When to use"): why it is
# there, never how it is used
_WHEN_HEADING = re.compile(
    r"^\W*(?:何时使用|什么时候(?:使用|用)|(?:使用|适用)场景|when\s+(?:to|should\s+(?:i|you|we))\s+use)", re.I
)
# a case a guide numbers ("##### 场景三：协议不能描述部分代码逻辑（协议功能不足或特别定制化的逻辑）" under "出码的适用范围"):
# when a reader takes the subject, whatever the case's own words name (协议功能不足 is the protocol's shortfall,
# which 出码 answers, no limit of 出码)
_CASE_HEADING = re.compile(r"^\W*(?:使用|适用|应用)?场景\s*[\d一二三四五六七八九十]*\s*[:：]")
_COST_HEADING = re.compile(r"\b(?:cons|costs?|drawbacks?|disadvantages?|downsides?)\b|缺点|代价", re.I)
# sections that frame a document rather than say anything about its subject (an appendix of one too: "%appendix%
# Change Log"; a specification's "#### Errata": "Previous versions of this spec listed connection registration
# in the middle…", what changed in the text, never how the subject works), and a specification's notational
# conventions ("All conventions and terms used and defined by the Core specification also apply to this
# document.")
FRAME = re.compile(
    r"^\W*(?:appendix\W*)?(?:(?:notational\s+)?conventions\b|references?\b(?![- ]level)|footnotes?|copyright|licen[cs]e|acknowledg|credits|see also|further reading|links|"
    r"change ?log|(?:version|revision|change|document)\s+history|errata\b|resources|table\s+of\s+contents"
    r"|contents\W*$|参考|致谢|版权|许可|相关链接|延伸阅读|目录|更新日志|变更(?:记录|日志)|修订(?:记录|历史))",
    re.I,
)


def frames_document(heading: str) -> bool:
    """Whether a section heading frames its document (FRAME: "Errata", "4. References", "Change Log"): what
    stands under it answers no question about the subject."""
    return bool(FRAME.search(facet_words(unnumbered(heading.strip()))))


# a specification's section number: "3.", "3.1.", "3.1.2", "A.1", "§ 4", "IV." before the heading's words
_SECTION_NUMBER = re.compile(
    r"^\s*(?:§\s*)?(?:(?:\d{1,3}(?:\.\d{1,3})*\.?|(?:[A-Z]|[IVX]+)(?:\.\d{1,3})+\.?|(?:[A-Z]|[IVX]+)\.)\)?\s+"
    r"|\d{1,3}\s*、\s*)(?=\S)"  # …and a Chinese one: "2、踢人下线"
)


def unnumbered(heading: str) -> str:
    """A heading without its section number: "3. HTTP Message Mapping" is a section on HTTP message mapping
    (the number alone had made it look like a name, not a section a reader asks about)."""
    return _SECTION_NUMBER.sub("", heading, count=1)


# a heading written in bold or italics ("## **Summary**", "## __Motivation__"): its words are the heading's
_HEADING_EMPHASIS = re.compile(r"^(\*{1,2}|_{1,2})(?=\S)(.+?)(?<=\S)\1(?=\W*$)")


def facet_words(heading: str) -> str:
    """A heading's own words: its anchor's words ("…-vs-…"), a template's comment and the emphasis it is
    written in say nothing about the section."""
    words = _HEADING_COMMENT.sub(" ", _HEADING_ANCHOR.sub("", heading)).strip()
    return _HEADING_EMPHASIS.sub(r"\2", words)


def names(pattern: re.Pattern[str], heading: str) -> bool:
    """Whether `pattern` finds a word of `heading`. Chinese has no spaces: a match must begin where one of the
    heading's words (jieba) begins, so 实现状态队列 (实现 · 状态 · 队列, implementing a state queue) holds no
    现状 (current state), while 注意事项 still begins with 注意."""
    return any(_begins_word(heading, found.start()) for found in pattern.finditer(heading))


def _begins_word(text: str, at: int) -> bool:
    for run in cjk.CJK_RUN.finditer(text):
        if run.start() < at < run.end():
            return at in set(accumulate((len(w) for w in cjk.words(run.group())), initial=run.start()))
    return True


def heading_facets(heading: str) -> set[str]:
    """The outline facets a section heading names in the table's words ("Rejected Ideas" → alternatives). An
    implementation or status section tells the state of the work, never how the thing works."""
    role = aside_role(heading)
    if role:
        return aside_facets(role)
    heading = facet_words(heading)
    found = {facet for facet, pattern in FACET_PATTERNS.items() if names(pattern, heading)}
    if is_status_heading(heading):
        found = (found - {"how"}) | {"current"}
    return found


def is_status_heading(heading: str) -> bool:
    """A section on the state of the work ("Implementation", "Status", "Timeline and Rollout", "进展")."""
    return names(_STATUS_HEADING, facet_words(heading).strip())


# a heading that only weighs the section it stands in ("#### Pros", "##### Cons", "Disadvantages"): the case for
# or against what that section names, which the list under it never names itself
_WEIGHING = re.compile(r"^\W*(?:(pros|advantages|upsides)|cons|disadvantages|downsides)\W*$", re.I)
# what a section of the design itself names: its summary, its design, its reasons or its costs ("### Overview"
# under "## Proposal")
_DESIGN_FACETS = frozenset({"what", "how", "motivation", "limits"})


def weighing(heading: str) -> str:
    """ "for" for a bare "Pros"/"Advantages" heading, "against" for "Cons"/"Disadvantages", else ''."""
    found = _WEIGHING.match(facet_words(unnumbered(heading.strip())))
    return "" if found is None else "for" if found.group(1) else "against"


def names_option(heading: str, *, record: bool = False) -> bool:
    """Whether a section with a "Pros"/"Cons" subsection is an option a document weighed, not its design: its
    heading names none of the design's facets ("#### Considered option: Define mesh-auth-mode via daemon
    config"; not "## Proposal", "### Overview")."""
    return bool(heading.strip()) and not section_facets(heading, record=record) & _DESIGN_FACETS


# an architecture decision record's "## Context" is why it was decided; elsewhere "Context" names a subject
# ("#### Context" of an event's attributes in a specification)
_RECORD_CONTEXT = re.compile(r"^\W*context\W*$", re.I)
_DECISION = re.compile(r"^\W*decision(?:\s+outcome)?\W*$", re.I)


# a design proposal's bare "API" heading names the API it proposes, how the subject works as well as how it is used:
# Gateway API's GEPs hold their design under "## API" ("### Timeout values", "### GO", "### YAML"), a KEP's "### API"
# under "## Design Details" its Go types, KubeVirt's "## API" under "# Design" its virtctl commands. A component
# page's "## API" (antd, Naive UI, Arco, TDesign) is its props tables: how it is used only. A proposal says what it
# sets out to do ("## Goals", "## Non-Goals") or weighs alternatives; no component page does
_API_HEADING = re.compile(r"^\W*api\W*$", re.I)
_PROPOSAL_HEADING = re.compile(r"^\W*(?:non[- ]?)?goals?\b|^\W*alternatives?\b", re.I)


def design_proposal(headings: Iterable[str]) -> bool:
    """Whether a document's headings are a design proposal's: one of them names its goals or non-goals, or
    the alternatives it weighed."""
    return any(_PROPOSAL_HEADING.match(facet_words(unnumbered(h.strip()))) for h in headings)


def decision_record(headings: Iterable[str]) -> bool:
    """Whether a document's headings are a decision record's: one of them is "Decision" ("Decision
    Outcome")."""
    return any(_DECISION.match(facet_words(h)) for h in headings)


# what a component's reference table lists, named in English after the component (or its tag: Arco's
# "### `<resize-box>` Events") or alone ("### Form Attributes", "### Attributes", "### Form-Item Scoped Slot",
# "### Picker Options"): these words name no facet by themselves, as a specification's "## Context Attributes"
# or an API's "## Events" says how the thing works; a table's rows right under them are a reference
# (`lists_reference`)
_REFERENCE_HEADING = re.compile(
    r"^\W*(?:<?[A-Za-z][\w.-]*>?\s+){0,2}(?:attributes|events|methods|(?:scoped\s+)?slots?|options|parameters"
    r"|arguments)\W*$",
    re.I,
)


def lists_reference(heading: str, label: str, rows_read_alone: bool) -> bool:
    """Whether a quoted list is a component's reference table answering how it is used: its rows, each reading
    alone, stand right under a heading naming what they list (their label is the heading's)."""
    return (
        rows_read_alone
        and label.rstrip(":： ") == heading.strip()
        and bool(_REFERENCE_HEADING.match(heading.strip()))
    )


def section_facets(heading: str, *, record: bool = False, proposal: bool = False) -> set[str]:
    """The outline facets a heading says its section answers: the table, the proposal templates' headings
    ("Guide-level explanation", "Reference-level explanation", "Unresolved questions"), "what" for a
    document's own summary, and "motivation" for the state a design changes or what it gains. A section's
    number is no word of it ("1. Introduction" is an introduction), and a frame section ("4. References",
    "Acknowledgements") answers nothing. In a decision record (`record`), "Context" says why; in a design
    proposal (`proposal`, `design_proposal`), "API" says how it works as well as how it is used."""
    if frames_document(heading):
        return set()
    heading = facet_words(unnumbered(heading.strip()))
    if aside_role(heading):
        return aside_facets(aside_role(heading))
    if record and _RECORD_CONTEXT.match(heading):
        return {"motivation"}
    if _OLD_STATE_HEADING.search(heading):
        return {"motivation"}
    if _GOALS_HEADING.match(heading) or _WHEN_HEADING.match(heading) or _CASE_HEADING.match(heading):
        return {"motivation"}
    if _BENEFIT_HEADING.search(heading):  # "Costs and benefits": both
        return {"motivation", "limits"} if _COST_HEADING.search(heading) else {"motivation"}
    found = heading_facets(heading) | {f for f, p in _TEMPLATE_FACETS.items() if p.search(heading)}
    if _SUMMARY.match(heading.strip()):
        found.add("what")
    if "alternatives" in found:  # "Rejected alternative proposals", "Alternative semantics": not the design
        found.discard("how")
    if proposal and _API_HEADING.match(heading):
        found.add("how")
    return found


def outline_heading_facets(
    headings: Sequence[str], *, record: bool = False, proposal: bool = False
) -> list[set[str]]:
    """The facets each of a document's headings says (`section_facets`), read from its flat outline, which
    tells no levels: a question asked after a section of readers' questions ("## 常见问题" then "为什么 InfiniteScroll
    由隐藏切换为显示时，一直处于 loading？") is one of them, as the analyst reads it under that section."""
    found: list[set[str]] = []
    asking = False
    for heading in headings:
        facets = section_facets(heading, record=record, proposal=proposal)
        asking = asking or QUESTIONS in facets
        found.append(aside_facets(QUESTIONS) if asking and _QUESTION_MARK.search(heading) else facets)
    return found
