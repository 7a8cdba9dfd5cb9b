"""Which documents define a topic: those titled after it (or after one of the subjects a topic joins with
"and": "the question mark operator and the Try trait" is defined by "Try trait" too), and the one the
retrieval judge finds most about it. Every gate of the run keeps them (issue 30: a run "kept 1 of 7"
candidates and dropped the three proposals that define its subject, whose titles name the Try trait but
whose text writes the operator as `?`, never "question mark").
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager

from ..cjk import CJK_RUN
from ..retrieval.scoring import lead_of
from ..text.pointers import points_elsewhere
from ..text.sentences import sentences
from ..text.words import tokens
from .judge import RelevanceJudge
from .keyphrases import GENERIC, asks, subjects, topic_phrases

__all__ = ["subjects"]  # read with the topic's other words (keyphrases.py); named here for its readers
# "How X keeps Y trustworthy and fresh": a question ending in words joined by "and" asks about each of them
_ASPECTS = re.compile(r"^(?P<stem>.+?\s)(?P<items>[\w-]+(?:,\s*[\w-]+)*,?\s+(?:and|or)\s+[\w-]+)\s*$")
_ASPECT_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
# a Chinese question names its subject first and asks after it: "表单联动怎么实现", "Canvas 和 SVG 渲染器如何选择"
# ("是做什么的" asks what its subject is for; "什么时候", "何时" when it does what follows)
_ZH_ASKING = re.compile(r"如何|怎么|怎样|为什么|为何|是做什么的|是什么|有哪些|有什么|能否|是否|什么时候|何时")
# the copula before the question word is no part of the subject: "出码是怎么实现的" asks about 出码; nor is an
# adverb saying how it is asked of several things: "服务端中间件和客户端中间件分别怎么实现" asks about the two
_ZH_COPULA = re.compile(r"\s*(?:分别|各自|具体)?\s*(?:是|又是|到底是|究竟是)?\s*$")
# "X是怎么Y的": a copula and a closing 的 ask how X does what it does, whatever that is ("DTM 的子事务屏障是怎么解决
# 空补偿、悬挂和幂等问题的" asks about 子事务屏障)
_ZH_SHI = re.compile(r"是\s*$")
# what ends a question asking by its verb alone: "用", "实现的", "选择", or two verbs joined ("开发和注册",
# "注册和自定义", "加载和热更新": the second may be a three-character verb)
_ZH_BARE_VERB = re.compile(
    r"(?:[\u4e00-\u9fff]{1,2}[和与及、或][\u4e00-\u9fff]{1,3}|[\u4e00-\u9fff]{0,2})[的呢吗]?"
)
# two verbs a Chinese question asks of its subject, each an aspect of it: "注册和自定义", "排序和筛选"
_ZH_TWO_VERBS = re.compile(r"([\u4e00-\u9fff]{1,3})[和与及、或]([\u4e00-\u9fff]{1,3})[的呢吗]?")
# what no subject written as a name holds: a clause mark or a second question
_ZH_CLAUSE = re.compile(r"[，,；;：:。？?！!]")
# a second question joined after a comma or a question mark: "出码是怎么实现的，怎么使用出码功能", "GORM 怎么预加载
# 关联数据？Preload 和 Joins 有什么区别" ask two questions of one subject
ZH_NEXT_QUESTION = re.compile(
    r"\s*(?:[，,；;]\s*(?=.*(?:如何|怎么|怎样|为什么|为何|是什么|有哪些|有什么))|[？?]\s*(?=\S))"
)
# a question asking why names its subject before the question word, whatever it asks it to do: "GORM 的链式调用
# 为什么不能复用 *gorm.DB" asks about 链式调用
_ZH_WHY = re.compile(r"为什么|为何")
_NOT_ASPECT = re.compile(r"^(?:how|what|why|which|when|where|who|whom|whose|not|also|more|so|then)$", re.I)


# "how a beacon chain light client syncs using sync committees": after "a"/"an" the subject is one thing, so the
# first word ending in a third person's "s" is its verb and the words before it are its name
_ONE_SUBJECT = re.compile(
    r"^(?:how|why|when|where)\s+an?\s+((?:[a-z][\w-]*\s+){0,4}?[a-z][\w-]*)\s+[a-z][\w-]*s\b(?<![sui]s)", re.I
)


# where a question's thing is asked about: "… work in Filecoin", "… for each round"
_PLACE = r"(?:\s+(?:in|on|within|inside|for|per|across|during|under|at)\s+[^,;]+)?"
# "How does partitioned epoch rewards distribution work?": a question whose auxiliary comes first and whose one
# last word is a verb that asks (work, run, help) names its subject whole between the two, however many words,
# and whatever place it is asked in ("How does Fast Finality (F3) work in Filecoin?")
_AUXILIARY_FRAME = re.compile(
    rf"^(?:how|why|when|where)\s+(?:does|do|did|can|could|will|would|should)\s+(?:the\s+|an?\s+)?(.+?)\s+([a-z]+){_PLACE}$",
    re.I,
)
# "How does CometBFT choose the block proposer for each round?": a name (capitalised, as a product's is) doing
# something asks about what it does it to: the block proposer
_NAME_DOES_FRAME = re.compile(
    r"^(?:[Hh]ow|[Ww]hy|[Ww]hen)\s+(?:does|do|did|can|will|should)\s+(?:[A-Z][\w.-]*(?:\s+[A-Z0-9][\w.()-]*)*)\s+"
    rf"(?P<verb>[a-z]+)\s+(?:the\s+|an?\s+)?(?P<object>[^,;]+?){_PLACE}$"
)

# "How can a CKB light client verify the chain…", "How does the BIDS Inheritance Principle decide which files…":
# after an article the subject is a noun phrase of a few words, and the first word that a determiner or a question
# word follows is its verb (a verb takes an object; a noun phrase's words do not)
_ARTICLE_SUBJECT = re.compile(
    r"^(?:[Hh]ow|[Ww]hy|[Ww]hen|[Ww]here)\s+(?:does|do|did|can|could|will|would|should)\s+(?:the|an?)\s+"
    r"(?P<subject>(?:(?!(?:of|in|on|for|to|with|and|or|an?|the)\b)[\w.()-]+\s+){0,4}?"
    r"(?!(?:of|in|on|for|to|with|and|or|an?|the)\b)[\w.()-]+)\s+(?P<verb>[a-z]+)\s+"
    r"(?:the|an?|which|what|whether|when|how|who|whom|its|their|each|every|all)\b"
)

# "How do Interledger peers settle the balances…": a name with a common noun after it ("Interledger peers") is a
# noun phrase, not a product doing something (`_NAME_DOES_FRAME`), and the word a determiner follows is its verb
_NAMED_NOUN_SUBJECT = re.compile(
    r"^(?:[Hh]ow|[Ww]hy|[Ww]hen|[Ww]here)\s+(?:does|do|did|can|could|will|would|should)\s+"
    r"(?P<subject>[A-Z][\w.()-]*(?:\s+[A-Z0-9][\w.()-]*)*(?:\s+(?!(?:of|in|on|for|to|with|and|or)\b)[a-z][\w-]*){1,3})"
    r"\s+(?P<verb>[a-z]+)\s+(?:the|an?|which|what|whether|when|how|who|whom|its|their|each|every|all)\b"
)
# "How does a Table Schema declare missing values, primary keys and foreign keys?": after an article a name
# written in capitals is the whole noun phrase, and the lower-case word after it is its verb
_ARTICLE_NAME = re.compile(
    r"^(?:[Hh]ow|[Ww]hy|[Ww]hen|[Ww]here)\s+(?:does|do|did|can|could|will|would|should)\s+(?:the|an?)\s+"
    r"(?P<subject>[A-Z][\w.()-]*(?:\s+[A-Z0-9][\w.()-]*)*)\s+(?P<verb>[a-z]+)\b"
)
# "What happens to an ILP Prepare packet as connectors forward it…": what happens is asked of the noun phrase
# after "to", up to the clause saying when it happens
_HAPPENS_TO = re.compile(
    r"^what\s+happens\s+(?:to|with)\s+(?:the\s+|an?\s+)?"
    r"(?P<subject>(?:(?!(?:as|when|while|after|before|if|once|during|in|on|at|by|that|which|and)\b)[\w.()-]+\s*){1,5}?)"
    r"(?:\s+(?:as|when|while|after|before|if|once|during|in|on|at|by|that|which|and)\b|\s*[,;]|\s*$)",
    re.I,
)

# "What is the Aptos fungible asset standard and how does it differ from Coin?": a question opening on what the
# subject is names it whole before the second question, whose words (the Coin it is compared to) only qualify it
_WHAT_IS_FRAME = re.compile(
    r"^what\s+(?:is|are)\s+(?:the\s+|an?\s+)?(?P<subject>.+?)\s+and\s+(?:how|why|what|when|where|which)\b",
    re.I,
)


# a second question a topic asks of its subject: "… and how does it differ from Coin?", "出码是怎么实现的，怎么使用…"
_SECOND_QUESTION = re.compile(
    r"\s+and\s+(?:how|why|what|when|where|which)\b|[，,；;]\s*(?=.*(?:如何|怎么|怎样|为什么|为何|是什么|有哪些|有什么))",
    re.I,
)


# "… and how do they put data …", "… and what must an application guarantee": an English second question
_EN_NEXT = re.compile(r"\s*,?\s+and\s+(?=(?:how|why|what|when|where|which)\b)", re.IGNORECASE)


def question_parts(topic: str) -> list[str]:
    """The questions a topic asks one after another, each as written ("What are Snap Deals", "how do they
    put data into committed capacity sectors"); [] for a topic asking one question, or none."""
    text = " ".join(topic.split()).rstrip("?？").strip()
    splitter = ZH_NEXT_QUESTION if CJK_RUN.search(text) else _EN_NEXT
    parts = [p.strip() for p in splitter.split(text) if p.strip()]
    return parts if len(parts) > 1 else []


def compared_subject(topic: str) -> str:
    """The subject of a topic asking a second question of it (`plan_subject`): the words of that question
    outside it (the Coin "the fungible asset standard" is compared with) qualify what is asked about; '' for a
    topic asking one question."""
    return plan_subject(topic) if _SECOND_QUESTION.search(topic) else ""


def plan_subject(topic: str) -> str:
    """X in the plan's questions: the topic when it names a subject, else the noun phrase a question asks
    about ("how a garbage collector finds roots": garbage collector; "表单联动怎么实现": 表单联动), else its
    first key phrase ('' if none); never with the punctuation or conjunction a second clause starts with
    ("What are IRCv3 message tags, and what…": IRCv3 message tags)."""
    return _NAMED.get(" ".join(topic.split())) or grammar_subject(topic)


def grammar_subject(topic: str) -> str:
    """The subject the question's grammar cuts (`plan_subject` before the corpus names one)."""
    return _CLAUSE_TAIL.sub("", _cut_subject(topic.strip().rstrip("?？").strip()))


# a run's subject as its corpus names it (subject_names.corpus_subject), by topic, while the run lasts
_NAMED: dict[str, str] = {}


@contextmanager
def subject_named(topic: str, subject: str) -> Iterator[None]:
    """While the block runs, `plan_subject(topic)` is `subject` (the grammar cut where it is '')."""
    key = " ".join(topic.split())
    if subject:
        _NAMED[key] = subject
    try:
        yield
    finally:
        if subject:
            _NAMED.pop(key, None)


# what a subject cut before a second clause may end on: a comma, a colon, a conjunction
_CLAUSE_TAIL = re.compile(r"(?:[\s,;:，、；：]|\s(?:and|or)$|(?<=[\u4e00-\u9fff])(?:并且|并|以及|和|及))+$")


# "Seata 的 Saga 模式适合什么场景": asking in what case (where, when) its subject is used asks about the subject,
# with the verb that fits it to the case ("适合", "用于")
_ZH_CASE_ASKED = re.compile(
    r"(?:适合|适用于|适用|用于|用在|应用于|应用在)?\s*在?\s*什么(?:样的)?\s*(?:场景|情况|场合|时候|业务)"
)
# "Apollo 配置发布后，客户端是怎么实时收到更新的": a clause saying when (after, before, while) is no part of the
# question's subject, which the main clause after it names; a name it opens with (the product's) still owns it
_ZH_WHEN_CLAUSE = re.compile(
    r"^(?P<owner>[A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*)*)?\s*[^，,；;？?。]{1,24}?"
    r"(?:之后|以后|之前|以前|的时候|后|前|时)\s*[，,]\s*(?P<rest>[^，,；;？?]*?(?:如何|怎么|怎样|为什么|为何|是否|哪些|什么).*)$"
)


def _zh_asking(topic: str) -> re.Match[str] | None:
    """Where a Chinese question first asks: its first question word, or "什么场景" asking in what case."""
    named = _ZH_ASKING.search(topic)
    case = _ZH_CASE_ASKED.search(topic, 0, named.start() if named else len(topic))
    return case or named


def _main_clause(topic: str) -> str:
    """A Chinese question without the clause saying when it asks ("Apollo 配置发布后，客户端是怎么…" → "Apollo
    客户端是怎么…"); the question itself otherwise."""
    found = _ZH_WHEN_CLAUSE.match(topic) if CJK_RUN.search(topic) else None
    return joined(found["owner"] or "", found["rest"]) if found else topic


def _cut_subject(topic: str) -> str:
    topic = _main_clause(topic)
    named = _zh_asking(topic)
    which = _which_thing(topic, named.start() if named else len(topic))
    if which:
        return which
    if not asks(topic) and not named:
        return topic
    before = _zh_owner(_ZH_COPULA.sub("", topic[: named.start()])) if named else ""
    if named and before and topic_phrases(before):
        return _zh_subject(topic, named, before)
    return _en_subject(topic)


def _zh_subject(topic: str, named: re.Match[str], before: str) -> str:
    """The subject of a Chinese question naming it `before` its question word `named`."""
    asked = ZH_NEXT_QUESTION.split(topic[named.end() :], maxsplit=1)[0].strip()
    # what a clause mark or a conjunction joins after the first verb phrase asks more of the subject:
    # "怎么配置多数据源并在运行时切换数据源" asks about 多数据源
    asked = _ZH_NEXT_VERB.split(_ZH_CLAUSE.split(asked, maxsplit=1)[0], maxsplit=1)[0].strip()
    # "红烧肉怎么做才不腻": what doing it brings about (才…, 才能…) is no thing it is done to
    asked = _ZH_RESULT.sub("", asked).strip()
    shi_de = bool(_ZH_SHI.search(topic[: named.start()])) and asked.endswith("的")
    if _ZH_BARE_VERB.fullmatch(asked) or _named_kind(before) or _ZH_WHY.fullmatch(named[0]) or shi_de:
        # "X怎么用", "X如何选择", "X怎么注册和自定义": the question ends on its verb; "arthas watch 命令怎么观察
        # 方法的入参和返回值": the command it names is what it asks about, whatever it asks it to do
        return before
    # "X怎么配置多语言国际化", "X有哪些不兼容的变化": the subject names what follows the question word too,
    # and is written without it (never "X怎么定制主题是什么？")
    return _zh_acted_on(before, asked) or joined(before, asked)


# a conjunction joining a second verb phrase: "配置多数据源并在运行时切换数据源", "定义然后注册" (not the 并 of a
# word: 并发, 并行)
_ZH_NEXT_VERB = re.compile(r"并且|然后|并(?![发行列存集购入查非不])")
# the result a question asks its doing to bring about: "做才不腻", "浇水才不会烂根" (not 人才, 刚才)
_ZH_RESULT = re.compile(r"(?<![人刚方天])才.*$")
# "在 OpenCompass 里", "Excel 里": a place named around the subject's owner is no part of it
_ZH_PLACE = re.compile(r"^(?:在\s*(?P<owner>\S.*?)|(?P<latin>.*[A-Za-z0-9]))\s*(?:里面|里|中)$")


def _zh_owner(before: str) -> str:
    """The words before a Chinese question word without the place they are written as ("在 OpenCompass 里" →
    OpenCompass)."""
    place = _ZH_PLACE.match(before.strip())
    return (place["owner"] or place["latin"]).strip() if place else before


def _en_subject(topic: str) -> str:
    """The noun phrase an English question asks about: a name in code the question gives its kind ("with the
    CHATHISTORY command"), the subject of its frame, else its first key phrase."""
    coded = _CODE_NAMED.search(topic)
    if coded:
        return coded["name"].strip("`")
    owned = _possessive_subject(topic) or _passive_subject(topic)
    if owned:
        return owned
    what = _WHAT_IS_FRAME.match(topic) or _HAPPENS_TO.match(topic) or _WHAT_DO.match(topic)
    if what and topic_phrases(what["subject"]):
        return what["subject"]
    done = _PERSON_DOES.match(topic)
    if done and topic_phrases(_noun_phrase(done["object"])):
        return _noun_phrase(done["object"])
    one = _ONE_SUBJECT.match(topic)
    if one:
        return one.group(1)
    framed = _AUXILIARY_FRAME.match(topic)
    if framed and framed.group(2).lower() in GENERIC and topic_phrases(framed.group(1)):
        return framed.group(1)
    article = _ARTICLE_SUBJECT.match(topic) or _NAMED_NOUN_SUBJECT.match(topic) or _ARTICLE_NAME.match(topic)
    if article and article["verb"] not in GENERIC and topic_phrases(article["subject"]):
        return article["subject"]
    does = _NAME_DOES_FRAME.match(topic)
    if does and does["verb"] not in GENERIC and topic_phrases(_noun_phrase(does["object"])):
        return _noun_phrase(does["object"])
    phrases = topic_phrases(topic, in_topic_order=True)
    return phrases[0] if phrases else ""


# "How does Harbor's non-blocking garbage collection delete…": a name's possessive opens the noun phrase asked about
_POSSESSIVE = re.compile(
    r"^(?:[Hh]ow|[Ww]hy|[Ww]hen|[Ww]here)\s+(?:does|do|did|can|could|will|would|should)\s+(?:the\s+)?"
    r"(?P<owner>[A-Z][\w.-]*(?:\s+[A-Z0-9][\w.-]*)*)['’]s\s+(?P<rest>.+)$"
)
# what follows a verb and never a noun phrase's word: a determiner or a question word (`_ARTICLE_SUBJECT`)
_AFTER_VERB = frozenset("the a an which what whether when how its their each every all".split())
# a word whose ending makes it a noun, never the bare verb after "does": collection, collector, storage, ordering
_NOUN_ENDING = re.compile(r"(?:tion|sion|ment|ness|ity|ance|ence|er|or|age|ure|ism|ship|ing)$")
_HEAD_WORDS = 4  # a possessed noun phrase longer than this runs into its verb


def _possessive_subject(topic: str) -> str:
    """The noun phrase a name's possessive opens, up to its verb: "How does Harbor's non-blocking garbage
    collection delete unused blobs" → Harbor's non-blocking garbage collection; '' where there is none. The
    verb is the word before a determiner, else the first word after the words ending as nouns do."""
    found = _POSSESSIVE.match(topic)
    if found is None:
        return ""
    words = re.split(r"\s+", found["rest"])
    plain = list(itertools.takewhile(lambda w: re.fullmatch(r"[\w.()-]+", w), words))[: _HEAD_WORDS + 1]
    verb = next((n - 1 for n in range(2, len(plain)) if plain[n].lower() in _AFTER_VERB), 0)
    if not verb:
        # the run of words ending as nouns that the first such word opens ends the phrase: "garbage collector"
        nouns = [bool(_NOUN_ENDING.search(w.lower())) for w in plain[:_HEAD_WORDS]]
        first = nouns.index(True) if True in nouns else len(nouns)
        end = next((n for n in range(first, len(nouns)) if not nouns[n]), len(nouns))
        verb = end if first < end < len(words) else 0
    head = " ".join(plain[:verb])
    return f"{found['owner']}'s {head}" if head and topic_phrases(head) else ""


# "How is message history transferred to a new XMTP installation?": a question asking how its subject is done
# names it between the auxiliary and the participle, which a place, a means or the question's end follows
_PASSIVE = re.compile(
    r"^(?:how|why|when|where)\s+(?:is|are|was|were)\s+(?:the\s+|an?\s+)?"
    r"(?P<subject>(?:[\w.()-]+\s+){0,4}?[\w.()-]+)\s+"
    r"(?P<done>[a-z]+(?:ed|en|wn)|built|sent|kept|set|held|made|done|found|paid|read|run|put|split|bound|brought)"
    r"(?=\s+(?:to|into|onto|from|with|by|via|in|on|at|for|across|between|when|after|before|and|or|if|during"
    r"|over|through|using|without)\b|\s*[,;]|\s*$)",
    re.I,
)


def _passive_subject(topic: str) -> str:
    """What a question asking how a thing is done asks about ("How is message history transferred…" → message
    history); '' for another question."""
    found = _PASSIVE.match(topic)
    return found["subject"] if found and topic_phrases(found["subject"]) else ""


# a name written in code (capitals, camel case, backticks) that the question gives its kind: "with the
# CHATHISTORY command", "the `since` field": the documents are titled after that name
_CODE_NAMED = re.compile(
    r"\b(?P<name>[A-Z][A-Z0-9_]{3,}|[a-z]+[A-Z][\w]*|[A-Z][a-z]+[A-Z][\w]*|`[^`\s]+`)\s+"
    r"(?:command|subcommand|extension|capability|method|function|field|flag|option|parameter|batch|directive|"
    r"keyword|attribute|annotation|hook|opcode)s?\b"
)
# "What do PrepareProposal and ProcessProposal do in ABCI 2.0…": what is asked to be done of is the subject
_WHAT_DO = re.compile(r"^what\s+(?:do|does|did)\s+(?:the\s+)?(?P<subject>.+?)\s+do\b", re.I)
# "How do I set up two-factor authentication for…", "What is the best way to prune an apple tree in winter?":
# a question asking how someone does something asks about what it is done to
_PERSON_DOES = re.compile(
    r"^(?:how\s+(?:(?:do|can|should|could|would)\s+(?:i|we|you|one)|to)\s+|(?:what\s+is\s+)?the\s+"
    r"(?:best\s+|right\s+|recommended\s+|easiest\s+)?way\s+to\s+)"
    r"(?P<verb>[a-z]+)(?:\s+(?:up|out|off|down))?\s+(?:(?:the|an?|my|our|your)\s+)?(?P<object>.+)$",
    re.I,
)
# what ends the noun phrase a verb takes: where, with what or to what it is done ("connection details to external
# secret stores such as Vault", "an existing cloud resource without managing or deleting it")
_PHRASE_END = re.compile(
    r"\s+(?:to|into|onto|from|with|without|by|via|using|such\s+as|for|in|on|within|inside|per|across|during|"
    r"under|at|when|while|so|as|before|after|through|between|among|if|unless|until)\b.*$",
    re.I,
)


def _noun_phrase(words: str) -> str:
    """The noun phrase a verb takes, without what says where, how or to what it is done."""
    return _PHRASE_END.sub("", words.strip())


# "Hertz 默认用哪个网络库", "Gin 用什么模板引擎": a question asking which thing its subject uses asks about that
# thing, the noun phrase after the question word to the end of the question. "什么时候", "什么情况下" ask when,
# "为什么" why: no thing; "是什么", "有什么" ask of what stands before them (`_ZH_ASKING`)
_ZH_WHICH = re.compile(
    r"(?:哪一?[个种些类款]|(?<![为有是])什么)(?!时候|时|样|地方|情况|场景|场合|原因)\s*"
    r"(?P<thing>[^，,；;：:。？?！!\s][^，,；;：:。？?！!]*)"
)
# the verb a name asks the thing of, with its adverbs ("默认用", "应该使用"), written apart from the name
_ZH_OWNER = re.compile(r"^(?P<owner>.*?\S)\s+[\u4e00-\u9fff]{1,6}$")


# a verb saying little of its own before the thing it acts on: "使用事务", "用中间件", "做权限校验", "配置多数据源",
# "生成火焰图"; the thing is what the documents are titled after ("多数据源", "火焰图")
_ZH_USE = re.compile(
    r"^(?:使用|采用|用|做|进行|配置|设置|生成|开启|启用)(?![和与及、或])\s*(?P<object>\S.*)$"
)
# "用大模型作为评判器来评估回答": what the thing is used for, after 来 or 去, is no part of it
_ZH_PURPOSE = re.compile(r"\s*(?:来|去|以)(?=[\u4e00-\u9fff]).*$")
# "用 VLOOKUP 跨表查找数据": a name in Latin letters used to do what follows is the thing used
_ZH_USED_NAME = re.compile(r"^(?P<name>[A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*)*)\s+[\u4e00-\u9fff]")
# "把请求参数绑定到结构体": what 把 takes is acted on by the verb before 到 (为, 成, 进, 给), and the two name it
_ZH_BA = re.compile(r"^把(?P<object>\S.*?)(?P<verb>[\u4e00-\u9fff]{2})(?:到|为|成|进|给)")
# what a question asks done, one verb phrase after another: "定义任务、分派任务和重试失败任务", "定义和运行定时任务"
_ZH_VERB_LIST = re.compile(r"^[\u4e00-\u9fff]+(?:[、和与及或][\u4e00-\u9fff]+)+(?:\s*[A-Za-z][\w. -]*)?$")
# Han verbs acting on a thing named in Latin letters: "开启和使用 session", "配置 Redis"
_ZH_LATIN_OBJECT = re.compile(
    r"^[\u4e00-\u9fff、和与及或]+\s*(?P<object>[A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*)*)$"
)


def _zh_acted_on(before: str, asked: str) -> str:
    """The subject of a Chinese question that asks its subject done something to: "Beego ORM 怎么使用事务" →
    Beego ORM 事务 (a light verb asks about what it uses); "Beego 怎么开启和使用 session" → Beego session (a
    product named alone is asked about the thing its verbs act on); "Goravel 的队列怎么定义任务、分派任务和重试失败
    任务" → Goravel 的队列 (several things done name aspects of the subject, no part of it); '' otherwise."""
    used = _ZH_USE.match(asked)
    thing = _ZH_PURPOSE.sub("", used["object"]) if used else ""
    if used and asked.startswith(("用", "使用", "采用")):
        name = _ZH_USED_NAME.match(thing)
        # "用 AWQ 把模型量化成 4bit": the name is used for what 把 has it do (AWQ 量化), not for the whole product
        done = _ZH_BA.match(thing[len(name["name"]) :].strip()) if name else None
        thing = joined(name["name"], done["verb"]) if name and done else name["name"] if name else thing
    if thing and topic_phrases(thing):
        return joined(before, thing)
    ba = _ZH_BA.match(asked)
    if ba and topic_phrases(ba["object"]):
        return joined(before, ba["object"] + ba["verb"])
    latin = _ZH_LATIN_OBJECT.match(asked)
    if latin and not CJK_RUN.search(before):
        return joined(before, latin["object"])
    return before if _ZH_VERB_LIST.match(asked) else ""


def _which_thing(topic: str, asking: int) -> str:
    """The thing the first question of a Chinese topic asks which of ("Hertz 默认用哪个网络库？…" → Hertz 网络库),
    qualified by the name asking it when the name is written apart; '' when it asks another way first."""
    found = _ZH_WHICH.search(topic, 0, asking)
    if not found or _ZH_CLAUSE.search(topic[: found.start()]) or not topic_phrases(found["thing"]):
        return ""
    owner = _ZH_OWNER.match(topic[: found.start()].rstrip())
    return joined(owner["owner"], found["thing"]) if owner else found["thing"].strip()


def joined(left: str, right: str) -> str:
    """Two parts of a phrase written together: Chinese joins Chinese without a space, and sets Latin apart
    from what stands beside it ("ant-design-vue 定制主题", "如何使用 Kratos 中间件？")."""
    left, right = left.rstrip(), right.lstrip()
    if not left or not right:
        return left or right
    apart = not (CJK_RUN.match(left[-1]) and CJK_RUN.match(right[0]))
    if apart and (_ZH_PUNCT.match(left[-1]) or _ZH_PUNCT.match(right[0])):
        apart = False
    return f"{left} {right}" if apart else left + right


# what a thing named in code is in a Chinese question: "watch 命令", "Button 组件", "@SaCheckLogin 注解"
_ZH_KINDS = "命令|子命令|指令|组件|注解|插件|函数|方法|接口|属性|钩子|参数|选项|配置项|中间件|模块|事件|标签|字段|类型|类"
# a name written in code before its kind, after the product or project it belongs to ("arthas watch 命令"); the
# project's own name before its kind ("Semi 组件") names no one thing
_ZH_NAMED_KIND = re.compile(rf"\S.*?\s(?P<name>[A-Za-z@`][\w.@`:#/-]*)\s*(?:{_ZH_KINDS})$")
# a verb with no meaning of its own before what it does: "做权限校验", "进行权限校验"
_ZH_LIGHT_VERB = re.compile(r"^(?:做|进行)(?=[\u4e00-\u9fff]{2})")


def _named_kind(words: str) -> str:
    """The name of the one thing `words` name by its kind, qualified by what it belongs to ("watch" of
    "arthas watch 命令"); ''."""
    found = _ZH_NAMED_KIND.fullmatch(words.strip())
    return found["name"].strip("`") if found else ""


# full-width marks take no space beside them: "X：Y", "（X）"
_ZH_PUNCT = re.compile(r"[\u3000-\u303f\uff00-\uffef]")


# "低代码引擎的插件": the words after the last 的 name the thing, those before it whose it is
_ZH_POSSESSIVE = re.compile(r"^.*的\s*")


def subject_head(topic: str) -> str:
    """What a Chinese question's subject names past its possessor: "低代码引擎的插件怎么开发和注册" asks about
    插件, of 低代码引擎; '' when the subject names no possessor."""
    subject = plan_subject(topic)
    head = _ZH_POSSESSIVE.sub("", subject)
    # a subject written without its question word names past it what is asked ("…有哪些不兼容的变化"): its 的
    # joins a description to its noun, not a thing to its possessor
    return head if head != subject and subject in topic and topic_phrases(head) else ""


def zh_subjects(topic: str) -> list[str]:
    """What a Chinese question asks about, as written and then past its possessor (`subject_head`):
    "出码是怎么实现的，怎么使用出码功能" → [出码]; "低代码引擎的插件怎么开发和注册" → [低代码引擎的插件, 插件]; [] for a
    topic that is no Chinese question or names its subject itself. The question's own words (实现, 功能, 开发)
    are no part of what a page is titled after."""
    subject = asked_subject(topic)
    asking = _ZH_ASKING.search(topic) or _ZH_WHICH.search(topic)
    if not subject or not CJK_RUN.search(subject) or not asking:
        return []
    # …and by its name alone: the page of the command "watch" is titled "watch"
    return [s for s in dict.fromkeys([subject, subject_head(topic), _named_kind(subject)]) if s]


def asked_words(topic: str) -> set[str]:
    """The words of what a Chinese question asks its subject to do past its verb ("观察", "返回值" of "arthas
    watch 命令怎么观察方法的入参和返回值", "权限", "校验" of "Sa-Token 怎么做权限校验"): the section of its page
    that does it is titled so ("### 观察函数调用返回时的参数、this 对象和返回值", "##### 3、权限校验"). set() for a
    question asking by its verb alone ("X怎么用", "X怎么注册和自定义": `topic_aspects`) or no Chinese question."""
    text = topic.strip().rstrip("?？").strip()
    named = _ZH_ASKING.search(text)
    if named is None or not asked_subject(topic):
        return set()
    asked = _ZH_LIGHT_VERB.sub("", ZH_NEXT_QUESTION.split(text[named.end() :], maxsplit=1)[0].strip())
    if not asked or _ZH_BARE_VERB.fullmatch(asked):
        return set()
    # one Han character alone ("入" of 入参, "图" of 火焰图) is part of too many headings' words to name one
    named_before = set(tokens(text[: named.start()]))
    return {w for w in tokens(asked) if not (len(w) == 1 and CJK_RUN.match(w))} - named_before


def asked_subject(topic: str) -> str:
    """The subject a topic phrased as a question asks about ("How deepkb keeps…" → "deepkb"); '' for a
    topic that names its subject itself."""
    subject = plan_subject(topic)
    return subject if subject != topic.strip().rstrip("?？").strip() else ""


def topic_aspects(topic: str) -> list[str]:
    """A question-topic asked once per aspect it joins with "and"/"or" at its end: "How X keeps Y
    trustworthy and fresh" → "How X keeps Y trustworthy", "How X keeps Y fresh", "Kratos 中间件怎么注册和自定义"
    → "Kratos 中间件怎么注册", "Kratos 中间件怎么自定义"; [] when it joins none."""
    text = " ".join(topic.split())
    mark = "?" if text.endswith(("?", "？")) else ""
    text = text.rstrip("?？").strip()
    named = _ZH_ASKING.search(text)
    if named and asked_subject(topic):
        verbs = _ZH_TWO_VERBS.fullmatch(text[named.end() :].strip())
        mark = "？" if mark else ""
        return [f"{text[: named.end()]}{verb}{mark}" for verb in verbs.group(1, 2)] if verbs else []
    found = _ASPECTS.match(text) if asked_subject(topic) and text.isascii() else None
    if not found or not set(tokens(found["stem"])) - set(tokens(plan_subject(topic))):
        return []
    items = [i for i in _ASPECT_SPLIT.split(found["items"]) if i]
    if len(items) < 2 or any(_NOT_ASPECT.match(i) for i in items):
        return []
    return [f"{found['stem']}{item}{mark}" for item in items]


# who governs, maintains or hosts a subject says nothing of what it is: "The Data Package Standard is governed by
# a working group…" opens governance.md, the page of its neighbour, and "X 由…维护" likewise
_STEWARDED = re.compile(
    r"(?:[A-Z][\w-]*\s+)*(?:is|are|was|were|has\s+been|have\s+been)\s+(?:\w+ly\s+)?(?:governed|maintained|managed"
    r"|developed|owned|led|run|overseen|stewarded|funded|sponsored|hosted|published|edited|chaired)\s+by\b"
    r"|\s*(?:是)?由[^。，,；;]{1,30}?(?:治理|维护|管理|开发|主导|负责)"
)


def opens_with_subject(text: str, subject: str) -> bool:
    """Whether a document's first prose paragraph opens with `subject` doing something ("deepkb turns
    research into…", "生命周期钩子允许您…") or saying what it is alone ("手动加载微应用。" under the title
    "loadMicroApp"): the document says what its subject is or does, so it is about that subject. Chinese
    writes no space after the name: any word but one making it part of a larger name ("…的", "…和") follows
    it. A stub whose opening is the name and a pointer onward ("导航守卫。详情可查阅导航守卫。") says nothing."""
    subject = subject.strip()
    if not subject:
        return False
    lead = lead_of(text, limit=200)
    name = re.escape(subject).replace(r"\ ", r"\s*")
    if CJK_RUN.search(subject):
        found = re.match(rf"^{name}(?![的之和与或及、])", lead)
    else:
        found = re.match(rf"^(?:the\s+|an?\s+)?{name}\s+(?!of\b|and\b|or\b)[a-z]", lead, re.I)
    # the English pattern took the next word's first letter
    if found is None or _STEWARDED.match(lead[found.end() - (not CJK_RUN.search(subject)) :]):
        return False
    parts = sentences(lead)
    said = [part for part in parts[1:] if not points_elsewhere(part)]
    return bool(said) or parts[0].strip(" 。.：:") != subject


def titled_after(
    title: str, topic: str, judge: RelevanceJudge, collection: str = "", *, each_question: bool = False
) -> bool:
    """Whether a title names every concept of the topic, or of one of the subjects it joins (`names_topic`).
    A subject the topic joins that is one word ("verification" in "trusted resources signing and
    verification", "attributes" in "monkeypatching environment variables and attributes") titles only a
    document named that alone: "Tekton Conformance Verification" is about another verification, and
    defined a held-out report on trusted resources while TEP-0091 "Trusted Resources" was stored. The words
    of the `collection`'s name go without saying: "Account Abstraction" among Aptos' proposals is titled
    after "account abstraction on Aptos". With `each_question`, a title after the subject of any question
    the topic asks one after another counts too."""
    words = set(tokens(title))
    # a topic asking two questions asks each of its own subject: "…为什么不能复用 *gorm.DB？Session 有什么用"
    # is answered by the page titled "会话" (session) too
    for asked in [topic, *(question_parts(topic) if each_question else [])]:
        for subject, concepts, named in _subjects_named(words | set(tokens(collection)), asked, judge):
            one_word = (
                subject != asked.strip() and len(concepts) == 1 and all(len(f) == 1 for f in concepts[0])
            )
            if not one_word or not words - set(named[0]) - _TITLE_FILLER:
                return True
    return False


def titled_as(title: str, subject: str, collection: str = "", asked: str = "") -> bool:
    """A title that is the subject's name and nothing more ("Property Wrappers" for "property wrappers",
    a proposal number or a "PEP 572:" prefix aside): that document is the subject's own account, where one
    titled "Extend property wrappers to parameters" is about something it adds. The words of the
    `collection`'s name go without saying: "优雅退出" among Hertz's pages is "Hertz 优雅退出"'s own page. A word
    the question `asked` says besides the subject qualifies it there too: "BIDS Derivatives" is the page of
    "derivative" asked "…stored and named in a BIDS dataset?"."""
    unsaid = set(tokens(collection))
    named = [word for word in _name_words(subject) if word not in unsaid]
    qualifiers = unsaid | set(tokens(asked)) - set(named)
    before, _, after = title.rpartition(":")
    said = _name_words(_TITLE_PREFIX.split(title, maxsplit=1)[-1])
    if before and _STAGE_SUFFIX.fullmatch(after.strip()):  # "Composition Functions: Beta"
        said = _name_words(before)
    return bool(named) and (
        [word for word in said if word not in qualifiers] == named or _kind_of(said, subject, named)
    )


# a name written in code: "CHATHISTORY", "PrepareProposal", "`since`"
_CODE_NAME = re.compile(r"[A-Z][A-Z0-9_]{3,}|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|`[^`\s]+`")


def _kind_of(said: list[str], subject: str, named: list[str]) -> bool:
    """Whether a title's words are the name of a thing in code and what kind of thing it is, in a word or
    two: "chathistory Extension", "chathistory Batch Type" (IRCv3 specifies the CHATHISTORY command in
    both)."""
    return (
        bool(_CODE_NAME.fullmatch(subject.strip()))
        and said[: len(named)] == named
        and len(said) <= len(named) + 2
    )


_TITLE_FILLER = frozenset({"pep", "rfc", "se", "proposal"})
# a title's last part naming the stage of what its first part names: Crossplane's beta design of Composition
# Functions is titled "Composition Functions: Beta" (its defunct alpha design plain "Composition Functions")
_STAGE_SUFFIX = re.compile(
    r"(?:alpha|beta|ga|stable|mvp|v?\d+(?:\.\d+)*|(?:version|phase|part)\s+\d+|(?:design|proposal|draft)(?:\s+v?\d+)?)",
    re.IGNORECASE,
)
# what ends a title's prefix: a colon, the full-width one of Chinese and Japanese titles ("组合式 API：依赖注入")
_TITLE_PREFIX = re.compile(r"[:：]")


def _name_words(text: str) -> list[str]:
    return [word for word in tokens(text) if word not in _TITLE_FILLER]


def names_topic(text: str, topic: str, judge: RelevanceJudge) -> bool:
    """Whether `text` names every concept of the topic, or of one of the subjects it joins. A concept is
    named by one of its spellings whole: "type" in "type hints" is also spelled "type hint", and a title
    naming only "hint" ("A method for exposing a length hint") does not name "type"."""
    return any(True for _ in _subjects_named(set(tokens(text)), topic, judge))


def _subjects_named(
    words: set[str], topic: str, judge: RelevanceJudge
) -> Iterator[tuple[str, list[tuple[tuple[str, ...], ...]], list[tuple[str, ...]]]]:
    """Each of the topic's subjects (`subjects`) whose every concept `words` name by one spelling whole, with
    the concepts' spellings and the one of each that they use."""
    for subject in subjects(topic):
        concepts = [t.forms for t in judge.terms(subject)]
        named = [next((tuple(form) for form in forms if set(form) <= words), None) for forms in concepts]
        if concepts and None not in named:
            yield subject, concepts, [form for form in named if form is not None]


def about_subject(title: str, text: str, topic: str, judge: RelevanceJudge) -> bool:
    """Whether a document says it is about the topic: titled after it, or its own opening (abstract or first
    paragraph) names it. "Precise capturing" names const generics in a passage, never in its opening."""
    return names_topic(title, topic, judge) or names_topic(lead_of(text), topic, judge)


def sources_about(
    sources: Sequence[tuple[str, str, str]], judge: RelevanceJudge, defining: Collection[str]
) -> set[str]:
    """Ids of the (id, title, text) sources about the judge's topic: the `defining` ones, whatever their title
    or opening names ("HMR API" defines 热模块替换 API), and those whose title or opening names it."""
    return set(defining) | {
        sid for sid, title, text in sources if about_subject(title, text, judge.topic, judge)
    }


def defines(
    title: str,
    text: str,
    topic: str,
    judge: RelevanceJudge,
    collection: str = "",
    *,
    each_question: bool = False,
    place: str = "",
) -> bool:
    """Whether a document defines the topic: titled after it or named as the subject it asks about
    (`titled_as`; the words of its collection and of the folders of its `place` go without saying), or opening with what its subject (the topic,
    or the subject a question-topic asks about) is or does: "deepkb turns research into…" for "How deepkb
    keeps…"; qiankun's page titled with the API's name, "loadMicroApp", opening "手动加载微应用。" for
    手动加载微应用, and "Lifecycles" opening "生命周期钩子允许您…" for 生命周期钩子. With `each_question`, a
    title after the subject of any question the topic asks counts (`titled_after`): retrieval keeps those
    pages, while the report opens from the first question's."""
    titled = titled_after(title, topic, judge, collection, each_question=each_question)
    subject = plan_subject(topic)
    return titled or named_as(title, subject, collection, place) or opens_with_subject(text, subject)


def named_as(title: str, subject: str, collection: str = "", place: str = "") -> bool:
    """A title that is the subject's name (`titled_as`), the words of the `collection` and of the folders of
    the document's `place` going without saying ("事务" under orm/ for "Beego ORM 事务"); a title that is the
    whole name counts where the collection is named after the subject ("Data Package" among the Data Package
    standard's pages)."""
    return titled_as(title, subject) or titled_as(title, subject, f"{collection} {folder_words(place)}")


def folder_words(place: str) -> str:
    """The folders a document sits in ("local:docs/orm/transaction.md" → "docs orm"): a page's folder says
    what its title leaves unsaid, so "事务" under orm/ is the page of "Beego ORM 事务"."""
    path = place.split(":", 1)[-1]
    return " ".join(path.split("/")[:-1])


# the page a folder opens with: a docs site's section page ("binding/index.md", "数据绑定") or a folder's README
_SECTION_PAGE = frozenset({"index", "readme", "_index"})


def section_heads(pages: Sequence[tuple[str, str]]) -> dict[str, set[str]]:
    """For each of the (id, url) pages that is its folder's own page (index.md, README.md), the ids of the
    other pages stored under that folder: the section it heads. Gin's "数据绑定" (binding/index.md) heads
    "使用自定义结构体绑定表单数据请求" and "绑定 URI", the pages of its section."""
    folders = {}
    for sid, url in pages:
        path = url.split(":", 1)[-1]
        folder, _, name = path.rpartition("/")
        if folder and name.rsplit(".", 1)[0].lower() in _SECTION_PAGE:
            folders[sid] = folder + "/"
    return {
        head: {sid for sid, url in pages if sid != head and url.split(":", 1)[-1].startswith(folder)}
        for head, folder in folders.items()
    }


def most_about(scored: Sequence[tuple[str, float | None]]) -> str:
    """The key scored highest (ties broken by the key, so a run is the same whatever the order); ''."""
    judged = [(score, key) for key, score in scored if score is not None]
    return max(judged)[1] if judged else ""


def building_on_another(documents: Sequence[tuple[str, str, str]]) -> set[str]:
    """Ids of the (id, title, text) documents that name another of them by its title without being named by
    it in turn (`built_on`): of documents all titled after a subject, the one named is its account."""
    return {sid for sid, others in built_on(documents).items() if others}


def built_on(documents: Sequence[tuple[str, str, str]], urls: Sequence[str] = ()) -> dict[str, list[str]]:
    """For each of the (id, title, text) documents, the others it builds on, most named first: those its text
    names without being named by them in turn. A document is named by its title: "A91: gRPC Metrics for
    Outlier Detection" links "A50: gRPC xDS Outlier Detection Support", the proposal it builds on;
    "Improvements to the Ring Hash LB Policy" names "xDS Ring Hash LB Policy", "Complete Backend mutual TLS
    Configuration" the BackendTLSPolicy of "BackendTLSPolicy - Explicit Backend TLS Connection
    Configuration". With `urls` (one per document), also by its number or file name, at least twice:
    "Matrix with Explicit Combinations of Parameters" links "TEP-0090" and `0090-matrix.md` throughout; a
    passing "see GEP-1731" is no foundation. Of documents titled alike, the one named is the subject's
    account, not the one naming it."""
    numbers = [
        _document_number(urls[m], title) if m < len(urls) else ("", "")
        for m, (_, title, _) in enumerate(documents)
    ]
    named: dict[tuple[str, str], int] = {}
    for sid, _, text in documents:
        cited = Counter(int(n) for n in _NUMBER_MENTION.findall(text))  # "RFC#0105", "TEP-0090", "GEP-1897"
        lowered = text.lower()
        for m, (other, title, _) in enumerate(documents):
            if other == sid:
                continue
            times = max((text.count(t) for t in _title_spellings(title)), default=0)
            stem, number = numbers[m]  # a link's file name beside its "GEP-91" text is one mention
            mentions = max(cited[int(number)] if number else 0, lowered.count(stem) if stem else 0)
            if times or mentions >= NUMBER_MENTIONS:
                named[(sid, other)] = max(times, mentions)
    found: dict[str, list[str]] = {sid: [] for sid, _, _ in documents}
    for (sid, other), _ in sorted(named.items(), key=lambda kv: (-kv[1], kv[0])):
        if (other, sid) not in named:
            found[sid].append(other)
    return found


NUMBER_MENTIONS = 2  # a document naming another by its number this often builds on it


def cited_by_number(documents: Sequence[tuple[str, str, str]], urls: Sequence[str]) -> dict[str, list[str]]:
    """For each of the (id, title, text) documents, the others its text names by their number at least
    NUMBER_MENTIONS times ("SIMD-215" in "Snapshots use Accounts Lattice Hash"), whether or not they name it
    back: a document naming the subject both title and text share is no citation of it."""
    numbers = [_document_number(url, title)[1] for url, (_, title, _) in zip(urls, documents, strict=True)]
    found: dict[str, list[str]] = {}
    for sid, _, text in documents:
        cited = Counter(int(n) for n in _NUMBER_MENTION.findall(text))
        found[sid] = [
            other
            for (other, _, _), number in zip(documents, numbers, strict=True)
            if other != sid and number and cited[int(number)] >= NUMBER_MENTIONS
        ]
    return found


# a document's number in its file name or title: "0105-dockerfiles", "gep-1897", "GEP-1897: …"
_NUMBERED = re.compile(r"^(?:[A-Za-z]{2,6}[-_ ]?)?0*(?P<number>\d{1,5})(?=$|[-_ :.])")
# a document named by its number after a series prefix: "RFC#0105", "TEP-0090", "GEP-1897" (not "TLS 1.3")
_NUMBER_MENTION = re.compile(r"\b[A-Z]{2,6}(?:[-#]|\s#?)?(\d{1,5})(?![.\d])")


def _document_number(url: str, title: str) -> tuple[str, str]:
    """A document's file name as another document links it ("0105-dockerfiles", "gep-1897"; lower case) and
    its number ("105", "1897"), each '' when it has none."""
    parts = [p for p in re.split(r"[/\\]", url.split(":", 1)[-1]) if p]
    stem = re.sub(r"\.\w+$", "", parts[-1]) if parts else ""
    if stem.lower() in {"index", "readme"} and len(parts) > 1:
        stem = parts[-2]
    numbered = _NUMBERED.match(stem) or _NUMBERED.match(title.strip())
    if not numbered:
        return "", ""
    linked = stem.lower() if re.search(r"[A-Za-z]", stem) and re.search(r"\d", stem) else ""
    return linked, numbered["number"]


_GENERIC_PARAMETERS = re.compile(r"<[^<>]*>")


def _title_spellings(title: str) -> list[str]:
    """A title as another document names it: whole, without its number ("A50: …", "SE-0258: …"), and the
    name it coins before a dash ("BackendTLSPolicy - Explicit …"); a one-word name only when it is an
    identifier written in mixed case, not a plain word ("Matrix"). A title that is an identifier and
    nothing more ("preloadApp", "接口：PiniaPlugin", "DefineStoreOptionsInPlugin<Id, S>") is an API's
    reference entry: the guide naming it uses the API, and is the account of its topic (wujie's guide titled
    预加载 names `preloadApp`, pinia's 插件 names `PiniaPlugin`)."""
    bare = _TITLE_PREFIX.split(title, maxsplit=1)[-1].strip()
    if len(_GENERIC_PARAMETERS.sub("", bare).split()) == 1:
        return []
    coined = re.split(r"\s+[-–—]\s+", bare, maxsplit=1)[0].strip()
    spellings = [title.strip(), bare, coined]
    return [t for t in dict.fromkeys(spellings) if len(t.split()) >= 2 or re.search(r"[a-z][A-Z]", t)]
