"""Sentences that lean on something outside themselves: one opening on a reference back ("This…",
"However…", "I.e.…"), one speaking of what is printed above or below it or pointing to further reading ("The
code above throws…", "see below", "For more information, see the docs."), and a question. Quoted or shown
alone, none of them says what it is about.
"""

from __future__ import annotations

import re

from .sentences import sentences

# A sentence opening with a pronoun or a demonstrative names something said before it ("They…", "This…")…
_REFERENT = re.compile(
    r"^(?:this|that|these|those|it|its|they|their|them|such|he|she|his|her|both|either|neither|another"
    r"|the\s+(?:latter|former|same))\b",
    re.IGNORECASE,
)
# … and one opening with a connective continues it, as the next step of a walk-through does ("However…",
# "For example…", "Then…", "I.e.…"): even at the top of a page, it continues nothing said there
_CONNECTIVE = re.compile(
    r"""^(?:the\ (?:above|following)|however|therefore|thus|hence|also|furthermore|moreover
    |in\ addition(?!\ to\b)|additionally|alternatively|instead|otherwise|similarly(?!\ to\b)|likewise|as\ a\ result|consequently|conversely
    |in\ other\ words|that\ is|in\ particular|on\ the\ other\ hand|as\ an\ example|to\ (?:that|this)\ end
    |for\ (?:example|instance)|in\ (?:this|that|such\ a)\ case|in\ contrast|by\ contrast
    |in\ (?:this|that|the\ above|the\ previous)\ (?:example|snippet|code|listing)|then|so|but|and|or|which|whereas|well|yes
    |here|now|next|finally|again|after\ that|afterwards|okay|ok|let's|let\ us|let’s|in\ the\ following|below
    |more\ (?:broadly|generally)|for\ one\ thing)\b
    |^(?:i\.\s?e\.|e\.\s?g\.|ie,|eg,)
    |^(?:\.\.\.|…)""",  # "...we create a new writable value store:": the rest of a sentence said before it
    re.IGNORECASE | re.VERBOSE,
)
# "It is easy to…", "It's preferable that…": a dummy "it" refers to nothing before it
_DUMMY_IT = re.compile(
    r"^it(?:'s|’s| is| was| can be| may be| might be| would be| will be)\s+(?:\w+\s+){0,2}?(?:to|that)\b",
    re.IGNORECASE,
)
_CJK_ANAPHOR = re.compile(
    r"^(?:它|它们|这|这些|这种|那|那些|其|此|该|但|但是|不过|因此|因而|所以|于是|而且|并且|此外|另外|同时|然而|相比之下|对比之下|与此相反|反之|或者|或是"
    r"|除此之外|上述|以上"
    # a tutorial's next step, as "Then…", "Next…", "By now…" are: "然后编写核心业务代码，调整用户的账户余额", "到此各个
    # 子事务的处理函数已经OK了，然后是…" (DTM's e-msg walk-through); "同理" ("likewise") applies what was just said
    r"|然后|接下来|接着|随后|到此|至此|到这里|同理|最后[，,])"
)
# the name a collection of design documents gives its own kind, written in capitals: a PEP, JEP, KEEP, SIP, BIP,
# gRFC, ADR, MSC (not a protocol's: HTTP, TCP and LDAP end otherwise)
DOCUMENT_KIND = r"(?-i:[A-Z]{0,3}[EIL]Ps?|g?RFCs?|ADRs?|MSCs?)"
# ...except "This PEP/JEP/document/proposal…" or "This is a proposal for…": the citation names what "this" is.
_SELF_REFERENCE = re.compile(
    r"^(?:this|these)\s+(?:(?:is|are)\s+(?:an?|the)\s+(?:[\w-]+\s+){0,2})?(?:peps?|documents?|proposals?"
    r"|specifications?|spec|guide|tutorial|library|package|project|tool|module|api|standard|rfcs?"
    rf"|extensions?|bindings?|profiles?|{DOCUMENT_KIND})\b",
    re.IGNORECASE,
)
# A sentence about the code, example or output printed above or below it, or pointing the reader elsewhere
# ("The code above throws…", "上面的代码会…", "(see below)"): quoted alone, what it speaks of is missing. "As
# noted above, …" is a discourse marker: the sentence says what it notes itself.
_POINTS_ELSEWHERE = re.compile(
    # a pointer to further reading says nothing itself: "To learn more, see the directives' docs."
    r"^(?:to\s+(?:learn|read|find\s+out)\s+more|for\s+more\s+(?:information|details|on)|learn\s+more\b|read\s+more\b"
    r"|(?:please\s+)?(?:see|refer\s+to|consult)\b"  # "See Capabilities & Constraints of Server and Client…"
    # "For additional usage samples, checkout the proof of concepts.", "For a full list, refer to RFC 1234."
    r"|(?:to\s+get\s+started|for\s+(?:more|further|additional|other|complete|full|detailed|an?)\b[^,.]{0,60}),?"
    r"\s+(?:please\s+)?(?:see|read|visit|check\s*out|refer\s+to|consult|look\s+at)\b"
    # … whatever it is for, a pointer set off by its comma: immer's Pitfalls opened "For performance tips, see
    # Performance Tips."
    r"|for\s+[^,.:;]{1,60},\s+(?:please\s+)?(?:see|visit|check\s*out|refer\s+to|consult)\b"
    r"|(?:(?:be|make)\s+sure\s+to\s+|don't\s+forget\s+to\s+)?check\s+out\b"
    # … or at what follows it: "Here are some examples…"
    r"|(?:here|(?:the\s+)?following)\s+(?:are|is)\b)"
    r"|^(?:要了解更多|了解更多|更多信息|更多详情|详情请|详情可(?:查阅|参阅|参考|查看|见)|详见|(?:另|也)?请参阅|请参考|参见|另见)"
    # "完整列表, 参考 GORM Finisher API。": a full list is found where it points
    r"|^(?:完整|全部|更多)的?[\u4e00-\u9fff]{0,8}[，,]\s*(?:请)?(?:参考|参阅|参见|查看|见)"
    # … or wherever it stands, a clause handing what it names to another page: "关于同步模式，可以参考事务选项中的等待
    # 事务结果" (DTM), "…通常会用到 RequestContext 相关操作，见 请求上下文。", "TLS 相关的配置信息可参考 tls。" (Hertz); a
    # statement that only adds "，详见 X" keeps its statement
    r"|^\W*关于[^，,。；;]{1,40}[，,]\s*(?:可以|可|请)?(?:参考|参阅|参见|查看|详见|见)"
    r"|相关的?(?:操作|内容|配置(?:信息)?|信息|用法|说明|介绍|文档|细节)[，,]?\s*(?:请|可以?)?(?:参考|参阅|参见|查看|详见|见)"
    # "All the risk and drawbacks are described in the “Security, Liveness and Privacy Considerations” section."
    r"|\b(?:is|are)\s+(?:described|explained|discussed|detailed|covered)\s+in\s+(?:the\s+)?[^.;]{0,80}?"
    r"\b(?:section|chapter|appendix)\b"
    r"|\b(?:code|example|snippet|listing|program|output|diagram|figure|table|command)s?\s+(?:above|below)\b"
    r"|\b(?:above|preceding)\s+(?:code|example|snippet|listing|program|output|diagram|figure|table)"
    r"|\bas\s+(?:shown|seen|illustrated)\s+(?:above|below)\b"
    # "In the above 11 leaf MMR, …" (nervos 0044, under a figure): "the above" is what is printed above
    r"|\bthe\s+above\b(?![\s-]*(?:which|whom|that)\b)"
    # "the above aspects", "the issues above", "the flowchart below"; not "the limit above 10 MB", "the limit
    # above which…", "at the threshold or above it"
    r"|\bthe\s+(?:(?!(?:or|and|is|are|was|were|be|goes|go|rises?)\b)[\w-]+\s+){0,2}(?:above|below)\b(?!\s*\d)"
    r"(?!\s+(?:which|whom|that|the|an?|all)\b)|\bthe\s+following\s+\w"
    r"|\bthis\s+(?:code|snippet|program|listing|output)\b(?!\s+of\b)|\bcompile\s+this\b"
    r"|\b(?:code|example)s?\s+(?:we|you)\s+(?:saw|have\s+seen)\b"
    # what an example printed before it: "The previous output shows…" (not "returns the previous result")
    r"|\bthe\s+previous\s+(?:code|snippet|listing)\b|\bthe\s+(?:previous|preceding)\s+output\b"
    # "…duplicate the capabilities of the original IntendedFor approach (see below), while permitting more complex
    # use cases." (BIDS): a bare "(see below)" after a name, the sentence going on, is an aside the sentence
    # reads right without; closing the sentence ("…more types of profiles (see below).") it hands it over
    r"|\bsee\s+(?:above|below)\b(?!\s*\)\s*[,;]?\s*\w)|\bwe(?:'ll| will)\s+see\b"
    # a pointer inside the sentence: "(see excerpt below)", "(see the section on Value Types below)", "with
    # instructions below", "the details below"
    r"|\(\s*(?:see|cf\.?)\s+(?!(?:above|below)\s*\)\s*[,;]?\s*\w)[^()]{0,60}\b(?:above|below)\s*\)"
    r"|\b(?:instructions|details|steps|excerpt|explanation)\s+(?:above|below)\b"
    # a caption ending on what it introduces with a full stop: "…usage of specific RateLimiters will look like
    # the following.", "The grammar is as follows."
    r"|\b(?:the\s+following|as\s+follows|like\s+(?:this|so))\s*\.?\s*$"
    # "Before describing the detailed design, here are some more examples of wrappers."
    r"|,\s+here\s+(?:are|is)\s+(?:some|a\s+few|several|more|the|an?)\b"
    r"|\b(?:given|shown|described|listed|mentioned|discussed|outlined|explained|presented|defined|provided|documented)\s+(?:above|below)"
    r"|^below\b|\bbelow\s+(?:are|is|we)\b|\((?:see\s+)?(?:figure|fig\.|table|listing)\s+\d+\)"
    r"|\bthe\s+(?:previous|preceding|next|following|last)\s+(?:section|chapter|paragraph|step|example)s?\b"
    # what this document's own place says: "The functions described here…",
    # "(see here)", "…described in this section…", "see the “fixes buggy code” section below"
    r"|\b(?:described|defined|listed|shown|given|available)\s+here\b|\bsee\s+here\b"
    r"|\b(?:described|defined|discussed|listed|explained|given)\s+in\s+this\s+(?:section|chapter)\b"
    r"|\bsections?\s+(?:above|below)\b|^for\s+(?:more\s+)?details\b"
    # an artefact found elsewhere: "A reference implementation of the L1 Attributes predeploy contract can be
    # found in L1Block.sol.", "The code repository for the prover service can be found in …"
    r"|^(?:an?|the)\s+(?:reference\s+|example\s+|sample\s+)?(?:implementation|specification|spec|documentation"
    r"|docs|source\s+code|code|example|details?|definition|list)\b[^.]{0,80}?\b(?:can|may)\s+be\s+found\b"
    # further reading: "The article Codebase Refactoring (with help from Go) presents the background…"
    r"|^(?:the|an?)\s+(?:article|talk|blog\s+post|post|paper|video|presentation)\b[^.]{0,80}?\b(?:presents"
    r"|describes|explains|discusses|covers|gives)\b"
    r"|上面的?(?:代码|示例|例子|配置|命令)|上述(?:代码|示例|例子|配置)|以上(?:代码|示例)|上例|如上所示"
    # … or of what an example printed, or of the example before: "上面的结果里，说明函数被执行了两次…", "对比前一个例子，
    # 返回值为空…"
    r"|(?:上面|上述|以上|前面)的?(?:结果|输出)|(?:前|上)一?个(?:例子|示例)|前面的?(?:例子|示例)"
    r"|下面的?(?:代码|示例|例子)|下例"
    # … or at what follows it, closing on a full stop: "…此时可以通过如下的方式进行添加。" (MyBatis-Flex, above its
    # code), "…可以使用以下命令启动。": quoted with what it introduces (`code_examples`) or not at all
    r"|(?:如下|以下|下面)的?(?:方式|方法|配置|命令|步骤|写法|几种|内容|代码|示例|例子)|如下所示"
    # a figure's caption or a sentence reading one: "下图展示了在 2-shot learning 的情况下…" (OpenCompass), "如上图所示，
    # 拦截器将拦截…" (Sa-Token); a quote shows no figure
    r"|(?:^|(?<=[，,；;：:\s(（])|如|见|参考|在)[上下]图|如图(?:所示)?"
    # … or, wherever its pointer stands, a sentence handing a wish to another page: "如果希望了解通用LLM评判器，请参考
    # examples目录中的eval_llm_judge.py文件…" (OpenCompass), "如果您想要修改为其它符号，可以参考 模板标签。" (Beego)
    r"|^\W*(?:如果|若|如需|如要|假如|要是)[^，,。；;]{0,40}[，,]\s*(?:请|可以|可|则)?(?:参考|参阅|参见|详见)",
    re.IGNORECASE,
)


# "On all other platforms, this field is REQUIRED.": a demonstrative after a short opening phrase
_LATE_DEMONSTRATIVE = re.compile(r"^[^,;:]{1,40},\s+(?=(?:this|these|those|such)\b)", re.IGNORECASE)


# a noun phrase naming what was said before it, anywhere in the sentence: "The current cures for this problem
# are worse than the disease.", "Each of these approaches delivers…", "One way to do so would be…"
_BACK_REFERENCE = re.compile(
    r"\b(?:this|these|those|such)\s+(?:problems?|issues?|frustrations?|concerns?|situations?|scenarios?"
    r"|approaches|techniques?|workarounds?|cures?|drawbacks?|limitations?|cases?)\b"
    r"|\b(?:one|another|the\s+(?:only|simplest|easiest|best))\s+way\s+to\s+do\s+(?:so|this|that)\b"
    r"|^to\s+do\s+(?:so|this|that)\b|(?:这(?:个|些|种)|以上|上述|上面的?)(?:问题|情况|方法|方式|场景|限制)"
    # "对于SAGA、二阶段消息，也是类似的机制。" (DTM's barrier page): similar to what the sentence before described
    r"|(?:也|同样)(?:是|有|采用|使用)?(?:类似|相似|相同|同样|一样)的?(?:机制|方法|方式|做法|处理|原理|流程|逻辑|道理)?[。.]?$"
    # "200155259131 shannons is hence the maximum withdrawable capacity." (Nervos DAO, under the sum that gives it):
    # a conclusion drawn from what the sentence before worked out
    r"|^[^,.;:]{1,60}?\b(?:is|are|was|were)\s+(?:hence|thus|therefore|consequently)\b"
    # "The second is that most heaps will have an inflated size.": the second of what the sentence before names
    r"|^the\s+(?:first|second|third|fourth|fifth|last|other)\s+(?:is|are|was|were|one|ones)\b",
    re.IGNORECASE,
)


_NAMED_BACK = re.compile(r"^(?:this|these|those|such)\s+(\w+)", re.IGNORECASE)

# a Chinese demonstrative naming what was said before it, wherever it stands in the sentence: "注意，默认情况下，
# OpenCompass会使用这三个环境变量…" (OpenCompass's LLM judge, under the `export` block setting them), "据此…"; not
# "下面这个例子", which points ahead, nor "…两个字段，这两个字段…", which names them first
_CJK_BACK = re.compile(
    r"(?<!下面)(?<!如下)(?<!以下)(?<!下列)这(?:些|[一两二三四五六七八九十几]+[个种类项条步点]|[个种类项条])"
    r"(?P<noun>[\u4e00-\u9fff]{2}|[A-Za-z][\w-]*)?"
    r"(?![\u4e00-\u9fff]*\s*[`A-Z])"  # "实现这些接口 `BeforeSave`, …": it names them right after
    r"|(?:上述|前述)(?:的)?(?P<named>[\u4e00-\u9fff]{2}|[A-Za-z][\w-]*)?|据此"
    # "上面分析了Try和Cancel的执行时间没有重叠的情况下…" (DTM's barrier page): what the page said above it
    r"|(?:上面|前面|上文|前文)(?:所说|所述|分析|介绍|讲|提到|说|描述)"
)
# … unless what it names is the document itself ("这个项目": the page quoted) or a time ("这个时候", "then"),
# or it stands after the name it puts in apposition ("`TYPE1` 这个字符串", "sa-token-demo 这个 demo")
_CJK_OWN = frozenset({"项目", "文档", "教程", "指南", "章节", "页面", "小节", "部分", "文章", "时候"})
_APPOSED = re.compile(r"[A-Za-z0-9_`'\"”)）]\s*$")
# characters before the demonstrative: a sentence that has said more has likely named what it refers to ("在某些场景下，
# 我们可能希望…的值并非 0 和 1，…那么，我们可以通过配置 FlexGlobalConfig 来修改这个默认值")
_CJK_BACK_WITHIN = 36


def _cjk_refers_back(sentence: str) -> bool:
    """Whether a Chinese sentence names with a demonstrative (这些, 这三个, 上述, 据此) something it has not named
    before it, in its first few words: a short clause before the demonstrative names nothing it could refer to."""
    for found in _CJK_BACK.finditer(sentence[: _CJK_BACK_WITHIN + 8]):
        if found.start() > _CJK_BACK_WITHIN:
            break
        noun = found["noun"] or found["named"] or ""
        if noun in _CJK_OWN or _APPOSED.search(sentence[: found.start()]):
            continue
        if not noun or noun not in sentence[: found.start()]:
            return True
    return False


def _refers_back(sentence: str) -> bool:
    """Whether a sentence names something said before it ("this problem") that it does not itself name
    first: "The problem of choosing … only solves this problem when…" and "To enable test authors to log
    non-failing issues…, we provide a method for recording such issues:" hold their antecedent."""
    for found in _BACK_REFERENCE.finditer(sentence):
        named = _NAMED_BACK.match(found.group(0))
        stem = re.sub(r"(?:es|s)$", "", named.group(1).lower()) if named else ""
        if not stem or not re.search(rf"\b{re.escape(stem)}", sentence[: found.start()], re.IGNORECASE):
            return True
    return False


# a document stating its own purpose: "This document proposes a new BC and FC policy based on operator
# versioning.", "This RFC introduces…", "This specification defines…", "We propose…", "本提案引入…". Whatever
# the paragraphs before it set out (the problem, the world it changes), this sentence says what the subject is.
_STATES_PURPOSE = re.compile(
    r"^(?:this|the\s+present)\s+(?:peps?|rfcs?|proposals?|documents?|drafts?|designs?|specifications?|spec"
    rf"|enhancements?|{DOCUMENT_KIND})\s+(?:\w+\s+){{0,2}}?(?:proposes|introduces|defines|describes|specifies|provides"
    r"|outlines|adds|suggests|presents|establishes)\b|^we\s+(?:propose|suggest|introduce|describe|define|specify|present|enable)\b"
    r"|^(?:本|该|此)(?:提案|文档|规范|RFC)(?:提出|引入|定义|描述|规定|建议)",
    re.IGNORECASE,
)


def states_purpose(sentence: str) -> bool:
    """Whether a sentence is its document saying what it proposes or defines ("This RFC proposes adding two
    8-bit floating point data types…"): the document's own definition of its subject."""
    return bool(_STATES_PURPOSE.match(sentence.strip()))


# a clause of a sentence, after the phrase that opens it ("With recent changes in Cluster API, we can now have
# finer control on the drain process, and thus we propose…"); an opening phrase ending on what was said before
# it ("To solve it, we propose…", "To address this, this proposal introduces…", "To do so, we…") leans on that
_CLAUSE = re.compile(r"[,;]\s+(?:(?:and|so|thus|therefore|hence)\s+)*")
_PHRASE_LEANING = re.compile(r"\b(?:it|this|that|these|those|them|so)\W*$", re.IGNORECASE)


def states_purpose_within(paragraph: str) -> bool:
    """Whether a paragraph says what its document proposes in one of its sentences or in a clause after a
    sentence's opening phrase that leans on nothing before it (`states_purpose`): where a summary says what the
    subject is, after the state it sets out first ("Today, when Cluster API deletes a Machine it drains the
    corresponding Node…")."""
    return any(
        states_purpose(clause)
        for sentence in sentences(paragraph)
        for clause in (
            sentence,
            *(
                sentence[m.end() :]
                for m in _CLAUSE.finditer(sentence)
                if not _PHRASE_LEANING.search(sentence[: m.start()])
            ),
        )
    )


def needs_antecedent(sentence: str) -> bool:
    """Whether a sentence opens on something said before it, or names it ("this problem", "these
    approaches"), so that alone it speaks of nothing."""
    if _CJK_ANAPHOR.match(sentence) or _refers_back(sentence):
        return True
    # a lead-in's demonstrative names what its code shows: "二阶段消息完成上述任务的核心代码如下所示:" (DTM)
    if _cjk_refers_back(sentence) and not sentence.rstrip().endswith(LEADING_INTO):
        return True
    late = _LATE_DEMONSTRATIVE.match(sentence)
    if late and not _SELF_REFERENCE.match(sentence[late.end() :]):
        return True
    if _SELF_REFERENCE.match(sentence) or _DUMMY_IT.match(sentence):
        return False
    return bool(_REFERENT.match(sentence)) or continues(sentence)


# the opening of a walk-through's next step: "然后，你可以通过以下命令设置…：", "接着在你的入口函数中初始化数据：",
# "Next, add the route:" — it orders the step after the one before, and what the step says stands
_STEP_OPENING = re.compile(
    r"^(?:然后|接下来|接着|随后|之后|首先|其次|最后|此外|另外"
    r"|then|next|first|finally|now|after\s+that|additionally)\s*[，,]?\s*(?=\S)",
    re.IGNORECASE,
)


def past_step_opening(sentence: str) -> str:
    """A sentence without the opening that orders it as a walk-through's next step ("然后，", "Next,"): what the
    step itself says; the sentence as it is when it opens otherwise."""
    return _STEP_OPENING.sub("", sentence, count=1)


def continues(sentence: str) -> bool:
    """Whether a sentence opens on a connective ("However…", "Then…"): it goes on from what came before it."""
    return bool(_CONNECTIVE.match(sentence))


# a sentence announcing what the next paragraphs or subsections list: "There are two main reasons to introduce
# this API in the BCL.", "There are several alternative options for the VLA syntax." — alone it says only
# that something follows
_ANNOUNCES = re.compile(
    r"^(?:there\s+are|we\s+have|we\s+see)\s+(?:two|three|four|five|six|several|a\s+few|a\s+couple\s+of"
    r"|a\s+number\s+of|many)\s+(?:[\w-]+\s+){0,3}?(?:reasons|ways|options|approaches|cases|kinds|types|steps"
    r"|things|parts|problems|issues|alternatives|scenarios|goals|changes|questions|categories|use\s+cases)\b"
    r"[^.:;!?]{0,80}\.$",
    re.IGNORECASE,
)


def announces(sentence: str) -> bool:
    """Whether a sentence only announces what follows it ("There are two main reasons to introduce this API
    in the BCL."): quoted as a paragraph's last sentence, what it announces is missing."""
    return bool(_ANNOUNCES.match(sentence.strip()))


# a lead-in to a list of links, a page's navigation: "另请参阅：", "本节内容：", "See also:", "In this section:"
_NAVIGATION = re.compile(
    r"^\W*(?:另请参阅|另请参见|另见|请参阅|参见|相关(?:文档|链接|阅读|内容|主题)|延伸阅读|目录"
    r"|本(?:节|章|页|部分|文)(?:内容|包含|包括|目录)?|see\s+also|related(?:\s+(?:pages|topics|links))?|further\s+reading"
    r"|in\s+this\s+(?:section|chapter|page)|(?:table\s+of\s+)?contents)\W*[:：]\W*$",
    re.IGNORECASE,
)


def navigates(lead_in: str) -> bool:
    """Whether a lead-in introduces links to other pages ("另请参阅：", "**本节内容：**", "See also:"): a page's
    navigation, which says nothing of its subject whatever its list names."""
    return bool(_NAVIGATION.match(lead_in.strip()))


def points_elsewhere(sentence: str) -> bool:
    """Whether a sentence speaks of something printed elsewhere in its document ("The code above throws…",
    "上面的代码会…", "(see below)"): quoted, what it speaks of is missing, whatever is quoted before it. A
    lead-in ("…like the example below:") is quoted with its example instead, unless what it leads into is
    links to other pages ("另请参阅：", "本节内容：")."""
    if navigates(sentence):
        return True
    return bool(_POINTS_ELSEWHERE.search(sentence)) and not sentence.rstrip().endswith((":", "："))


def without_lead_in(text: str) -> str:
    """A passage without its closing lead-in ("Here is a simple request to …:", "It supports:", quart's
    "Using Quart you can,"), which introduces a code block or a list the passage is shown without; the
    passage whole when it is all lead-in."""
    parts = sentences(text)
    while len(parts) > 1 and parts[-1].endswith(LEADING_INTO):
        parts.pop()
    return " ".join(parts) if parts and text.rstrip().endswith(LEADING_INTO) else text


LEADING_INTO = (":", "：", ",")  # a paragraph ending so leads into what follows it


def is_question(sentence: str) -> bool:
    """A question asks; quoted as a finding it answers nothing."""
    return sentence.rstrip("\"'”’)]").endswith(("?", "？"))
