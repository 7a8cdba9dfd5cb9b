"""The page titled after the subject answers, and drafts never say how the thing works now (issue 30, items 2
and 3; session 38's held-out CometBFT and Gin reports): a file named as a numbered draft (`pbts_001_draft.md`)
is a draft, labelled and kept from the question as written; "choose" and "selection" are one concept, so
"Proposer Selection Procedure" is the page about choosing the block proposer; and a folder's page
("数据绑定", binding/index.md) speaks for the pages of its section."""

from __future__ import annotations

from topic_fakes import facet_plan

from generator.documents import read_bytes
from generator.topic import workspace as wsp
from generator.topic.defining import section_heads
from generator.topic.definition import definition
from generator.topic.findings import Catalog
from generator.topic.judge import RelevanceJudge
from generator.topic.passage_pools import passage_pools
from generator.topic.standing import asks_now, inactive, usable_for
from generator.topic.subject_sources import defining_sources, title_share
from generator.topic.topic_point import sentence_statistics

PROPOSER = "How does Tendo choose the block proposer for each round?"
SELECTION = (
    "# Proposer Selection Procedure\n\n"
    "This document specifies the Proposer Selection Procedure that is used in Tendo to choose a round "
    "proposer.\n\n"
    "## Requirements for Proposer Selection\n\n"
    "R1 Determinism: given a validator set, every correct process computes the same proposer.\n\n"
    "## Basic Algorithm\n\nIt runs at every round of a height.\n\n"
    "At its core, the proposer selection procedure uses a weighted round-robin algorithm over the validators' "
    "priorities, and the validator with the highest priority becomes the proposer.\n"
)
DRAFT = (
    "# Proposer-Based Time\n\n"
    "An alternative approach to time has been discussed: the proposer sends its time in the propose message "
    "of the round, and validators check the block time against their clocks.\n"
)


def _source(sid: str, path: str, title: str, text: str, relevance: float, status: str = "") -> wsp.RawSource:
    return wsp.RawSource(
        sid, "local", f"local:{path}", title, "t", text, kind="local", relevance=relevance, status=status
    )


def test_a_file_named_as_a_numbered_draft_is_a_draft() -> None:
    for name, status in (
        ("pbts_001_draft.md", "draft"),
        ("verification_002_draft.md", "draft"),
        ("verification_001_published.md", ""),
        ("draft-mode.md", ""),  # a page about drafts, not one
        ("save-as-draft.md", ""),
    ):
        doc = read_bytes(b"# A title\n\nSome text of the page.\n", name=name, origin=f"spec/{name}")
        assert doc.status == status, name


def test_a_draft_does_not_answer_the_question_as_written_when_it_asks_how_it_works_now() -> None:
    selection = _source("sel", "proposer-selection.md", "Proposer Selection Procedure", SELECTION, 0.6)
    draft = _source("drf", "pbts_001_draft.md", "Proposer-Based Time", DRAFT, 0.7, status="draft")
    assert inactive(draft) and asks_now(PROPOSER)
    usable = usable_for("topic", [selection, draft], defining={"sel"}, topic=PROPOSER)
    assert usable(selection) and not usable(draft)
    # a draft of the subject's own account answers it, labelled where it is quoted
    assert usable_for("topic", [selection, draft], defining={"sel", "drf"}, topic=PROPOSER)(draft)
    # a question of what was, or why, is answered by what was written then
    assert not asks_now("Why was proposer-based time rejected?")
    assert usable_for("topic", [selection, draft], defining={"sel"}, topic="Why was it rejected?")(draft)
    assert asks_now("Gin 的中间件是怎么执行的") and not asks_now("GORM 为什么不能复用 *gorm.DB")


def test_choosing_the_proposer_is_its_selection() -> None:
    judge = RelevanceJudge(PROPOSER, collection="tendo")  # the collection's name goes without saying
    terms = [{w for form in t.forms for w in form} for t in judge.terms(PROPOSER)]
    assert any({"choos", "select"} <= forms for forms in terms)
    # the page on proposer selection names half the topic, the draft sharing "proposer" alone none of it
    assert title_share("Proposer Selection Procedure", terms) > title_share("Proposer-Based Time", terms)


def test_the_question_as_written_quotes_the_subject_s_page_in_the_topic_s_other_spellings() -> None:
    # "selection" is the topic's "choose": no word of the section "Requirements for Proposer Selection" alone
    selection = _source("sel", "proposer-selection.md", "Proposer Selection Procedure", SELECTION, 0.8)
    judge = RelevanceJudge(PROPOSER, collection="tendo")
    sentence_statistics(judge, [selection])
    asked = {PROPOSER: "topic", "How do you work with block proposer?": "use"}
    plan = facet_plan(PROPOSER, {**asked, "Requirements for Proposer Selection": "section"})
    questions = [(q, q, ["sel"]) for q in plan.sub_queries]
    pools = passage_pools(plan, Catalog([selection]), questions, judge, defining=["sel"], opening="sel")
    assert any(c.text.startswith("This document specifies the Proposer Selection") for c in pools[PROPOSER])


BINDING = (
    "# 数据绑定\n\n"
    "Gin 提供了强大的绑定系统，可以将请求数据解析到 Go 结构体中并自动验证。你只需定义一个带标签的结构体，让 Gin 来完成工作。\n\n"
    "## Bind 与 ShouldBind\n\nGin 提供了两组绑定方法。\n"
)
NESTED = (
    "# 使用自定义结构体绑定表单数据请求\n\n"
    "Gin 可以自动将表单数据绑定到嵌套结构体中，并把每个 form 标签映射到相应的查询参数或表单字段。\n"
)


def test_a_folder_s_page_speaks_for_the_pages_of_its_section() -> None:
    topic = "Gin 怎么把请求参数绑定到结构体并校验"
    index = _source("idx", "docs/binding/index.md", "数据绑定", BINDING, 0.40)
    nested = _source(
        "nst",
        "docs/binding/bind-form-data-request-with-custom-struct.md",
        "使用自定义结构体绑定表单数据请求",
        NESTED,
        0.45,
    )
    faq = _source("faq", "docs/faq/index.md", "常见问题", "# 常见问题\n\n问与答。\n", 0.30)
    assert section_heads([(s.id, s.url) for s in (index, nested, faq)]) == {"idx": {"nst"}, "faq": set()}
    judge = RelevanceJudge(topic, collection="gin")
    # the judge found the nested-struct page most about it; the section's page defines the subject beside it
    assert defining_sources([index, nested, faq], judge) == {"nst", "idx"}
    opening = definition([index, nested, faq], judge, lambda s: True)
    assert opening is not None and opening.sources == ["idx"]
    assert opening.text.startswith("Gin 提供了强大的绑定系统")
