"""The definition the report opens with: the opening of the document defining the topic, and its design
section's opening, which says how the subject works."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..retrieval.scoring import tokens
from ..text.paragraphs import paragraphs
from .defining import (
    asked_subject,
    building_on_another,
    opens_with_subject,
    plan_subject,
    subject_head,
    titled_after,
    titled_as,
    zh_subjects,
)
from .findings import Catalog, Claim
from .judge import RelevanceJudge
from .openings import (
    abstract_unit,
    document_opening,
    lead_example,
    lead_list,
    lead_paragraph,
    listed_opening,
    stated_opening,
)
from .parts import question_parts
from .section_tree import text_sections
from .sentences import is_changelog
from .stating_parts import outside_alternatives
from .subject_headings import headings_naming_whole, names_whole, section_opening, subject_opening
from .subject_sources import defining_sources, heads_naming, title_share
from .workspace import RawSource

_HAN = re.compile(r"[\u3400-\u9fff]")


def definition(
    sources: list[RawSource], judge: RelevanceJudge, usable: Callable[[RawSource], bool]
) -> Claim | None:
    """The opening of the document that defines the topic: a stored source whose title names the topic (the
    title with the fewest other words, then the most relevant, first), else the most relevant one, quoted from its abstract or its first paragraph that
    names the topic, whole. A document whose title does not name the topic opens only with such a paragraph."""
    own = subject_definition(sources, asked_subject(judge.topic), usable)
    if own is not None:
        return own
    terms = [{w for form in t.forms for w in form} for t in judge.terms(judge.topic)]  # with their spellings
    topic = set().union(*terms)  # (a Chinese topic's English twins included)
    titled_subject = {s.id for s in sources if titled_after(s.title, judge.topic, judge)}
    subject = plan_subject(judge.topic)
    # a title naming the subject the topic states a purpose of ("RFC-0078: Merkleized Metadata" for "merkleized
    # metadata so offline wallets can verify transactions") names it
    lead = set(tokens(purposed_subject(judge.topic)))
    named = [forms for forms in terms if forms & lead]
    titled_subject |= {
        s.id for s in sources if named and all(forms & set(tokens(s.title)) for forms in named)
    }
    # a title that is the subject's name is its account ("Keyless accounts" beside "Pepper service for keyless
    # accounts"; "watch" for "arthas watch 命令怎么观察…", a command's page titled with the command alone),
    # qualified by no word but the first question's ("BIDS Derivatives"; never "自定义中间件" for "Gin 的中间件是
    # 怎么执行的？怎么写自定义中间件", where the second question asks about that narrower thing)
    asked = (question_parts(judge.topic) or [judge.topic])[0]
    titled_subject |= {
        s.id
        for s in sources
        if titled_as(s.title, subject, judge.collection, asked) or _titled_as_named(s.title, judge)
    }

    heads = heads_naming(sources, judge)
    by_id = {s.id: s for s in sources}

    def share_of(source: RawSource) -> float:  # a title naming one of the subjects the topic joins names it
        if source.id in titled_subject:
            return 1.0
        # a folder's page is titled after what the pages of its section are: "数据绑定" after binding to structs
        section = [by_id[sid].title for sid in heads.get(source.id, ())]
        return max(title_share(title, terms) for title in [source.title, *section])

    # of the documents titled after the topic, one naming another builds on it
    building = building_on_another([(s.id, s.title, s.text) for s in sources if s.id in titled_subject])
    defining = defining_sources(sources, judge)  # without a title naming all of it, the one defining it first
    ranked = sorted(
        (s for s in sources if usable(s) and not is_changelog(s.title, s.url)),
        key=lambda s: (
            -share_of(s),
            s.id not in defining,
            s.id in building,
            len(set(tokens(s.title)) - topic),
            -(s.relevance or 0.0),
            s.id,
        ),
    )
    # when documents titled after the topic were stored (even ones no longer in force), one that only touches
    # it opens the report only with a paragraph naming all of it, as its passages are quoted (`candidates`)
    whole_topic = any(share_of(s) >= 0.5 for s in sources)
    forms = [t.forms for t in judge.terms(judge.topic)]
    segmented = bool(_HAN.search(judge.topic))
    spelled = [subject_head(judge.topic) or subject]  # the subject as the topic writes it, past its owner
    for source in ranked[:3]:
        sections = text_sections(source.text)
        whole = headings_naming_whole(sections, forms, tokens, source.title)
        own_section = section_opening(sections, whole, forms, tokens)
        if own_section is not None:  # the whole subject's section, in a document named for part of it
            return Claim(own_section.text, [source.id], 1.0, items=own_section.items)
        share = share_of(source)
        titled = share > 0
        # a document opening with the subject ("手动加载微应用。" under "loadMicroApp") says what it is there
        larger = share < 1.0 and not opens_with_subject(source.text, subject)
        section = subject_opening(source.text, terms, tokens, source.title, spelled) if larger else None
        if section is not None:  # a document about something larger says what the subject is in its section
            return Claim(section.text, [source.id], 1.0, items=section.items)  # a lead-in with its list
        unit = abstract_unit(source.text) if titled else None
        if unit is not None:  # a summary introducing a list or an example says what it is with them
            return Claim(unit.text, [source.id], 1.0, unit.code, unit.items)
        naming = terms if whole_topic and not titled else [topic]
        opened = share < 1.0 and not larger  # untitled, it opens with the subject: read from its name on
        opening = document_opening(source.text, naming, titled=titled, name=subject if opened else "")
        # a document not titled after a Chinese topic opens the report only with a paragraph naming all of it,
        # each concept in one whole spelling: a compound's segments are no concepts of their own, and Arco's
        # Menu page ("收纳、排列并展示一系列选项的列表。") names 列表 of 折叠列表, not 折叠列表
        if opening and (titled or not segmented or names_whole(opening, forms, tokens)):
            return _opening_claim(source, opening)
        shown = lead_example(source.text) if titled else None
        if shown is not None:  # a document that opens by showing its subject says what it is with the example
            return Claim(shown.text, [source.id], 1.0, shown.code)
        listed = lead_list(source.text) if titled else None
        if listed is not None:  # …or by listing its kinds, with the list
            return Claim(listed.text, [source.id], 1.0, items=listed.items)
    # a page defining the subject under a title naming none of the question's words says what it is in its lead,
    # before its first section ("概览": "Kratos 内置了一系列的 middleware（中间件）…"; "Table 表格": "展示行列数据。")
    # (a question only: a page titled after a named subject that opens on a quip, "每过一秒，就会少一秒。" under
    # "倒计时", opens the report on its props table instead)
    for source in ranked[:3] if asked_subject(judge.topic) else []:
        said = lead_paragraph(source.text) if source.id in defining else ""
        if said:
            return _opening_claim(source, said)
        # …or shows it there ("预加载": "GORM允许使用 Preload通过多个SQL中来直接加载关系, 例如：" and its Preload calls)
        shown = lead_example(source.text) if source.id in defining else None
        if shown is not None:
            return Claim(shown.text, [source.id], 1.0, shown.code)
    return None


def design_opening(catalog: Catalog, opening: Claim | None, judge: RelevanceJudge) -> Claim | None:
    """The opening of the design section of the document the definition is quoted from, where it says how its
    subject works ("At its core, the proposer selection procedure uses a weighted round-robin algorithm." under
    CometBFT's "## Basic Algorithm", after the lead saying what the procedure is for): its first paragraph
    naming the topic (`stated_opening`). None without a definition, or when the definition is that passage or
    holds it."""
    source = catalog.by_id.get(opening.sources[0]) if opening and opening.sources else None
    if opening is None or source is None:
        return None
    topic = {w for t in judge.terms(judge.topic) for form in t.forms for w in form}
    blocks = [b.strip() for b in paragraphs(outside_alternatives(source.text))]
    said = stated_opening(blocks, topic, parts=("design",))
    if not said or said in opening.text or opening.text in said:
        return None
    return Claim(said, [source.id], opening.score)


def _opening_claim(source: RawSource, passage: str) -> Claim:
    """A document's opening passage quoted with the list its paragraph goes on to introduce, when the passage
    stops at that list's lead-in and the list can be quoted whole with it ("…导致客户端连接断开和操作可能损坏。"
    then "优雅关闭通过以下方式解决这个问题：" and its four points): the lead-in comes with its list, never
    dropped before the paragraphs after it."""
    listed = listed_opening(source.text, passage)
    if listed is None:
        return Claim(passage, [source.id], 1.0)
    return Claim(listed.text, [source.id], 1.0, items=listed.items)


def _titled_as_named(title: str, judge: RelevanceJudge) -> bool:
    """Whether a title is the name a Chinese question gives its subject by ("watch" of "arthas watch 命令怎么…",
    `zh_subjects`), alone."""
    return any(titled_as(title, name) for name in zh_subjects(judge.topic)[1:])


def subject_definition(
    sources: Sequence[RawSource], subject: str, usable: Callable[[RawSource], bool]
) -> Claim | None:
    """The opening of the document that says what the subject of a question-topic is or does ("deepkb turns
    research into…" for "How deepkb keeps…"): one whose title names the subject first, then the most
    relevant; None when no stored document opens with it."""
    words = set(tokens(subject))
    opening = [s for s in sources if usable(s) and opens_with_subject(s.text, subject)]
    for source in sorted(
        opening,
        # the document titled as the subject first, then one whose title names it among other words
        key=lambda s: (
            not titled_as(s.title, subject),
            not words <= set(tokens(s.title)),
            -(s.relevance or 0.0),
            s.id,
        ),
    ):
        text = document_opening(source.text, [words], titled=False, name=subject)
        if text:
            return _opening_claim(source, text)
    return None


# what a topic says its subject is for, or asks of it: "… so offline wallets can verify transactions", "… to shorten
# the staking unbonding period", "Agile Coretime: how Polkadot sells coretime…"
_PURPOSE = re.compile(r"\s*:\s+|\s+(?:so(?:\s+that)?|in\s+order\s+to|to)\s+(?=\w)", re.IGNORECASE)


def purposed_subject(topic: str) -> str:
    """The subject a topic names before what it is for ("merkleized metadata" of "merkleized metadata so offline
    wallets can verify transactions", "Agile Coretime" of "Agile Coretime: how Polkadot sells coretime instead
    of parachain slot auctions"); '' for a topic stating no purpose, or one a word names ("migration to
    Python 3")."""
    lead = _PURPOSE.split(topic.strip(), maxsplit=1)
    return lead[0].strip() if len(lead) == 2 and len(lead[0].split()) >= 2 else ""
