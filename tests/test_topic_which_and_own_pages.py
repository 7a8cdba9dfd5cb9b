"""The thing a question asks which of is its subject, and every page defining the subject shows it used (issue 30;
session 40's hertz-zh and gin-zh): "Hertz 默认用哪个网络库？…" asks about Hertz's network library, whose page
opens on what it is, and "如何使用" quotes the example of "绑定 URI" beside the section page "数据绑定" that
shows none left to quote."""

from __future__ import annotations

from topic_fakes import component_page, facet_plan

from generator.topic.defining import plan_subject, zh_subjects
from generator.topic.definition import definition
from generator.topic.findings import Catalog
from generator.topic.judge import RelevanceJudge
from generator.topic.passage_pools import passage_pools
from generator.topic.plan import heuristic_plan
from generator.topic.subject_sources import defining_sources
from generator.topic.topic_point import sentence_statistics

NETWORK = "Hertz 默认用哪个网络库？什么时候应该换成 Go 原生的 net"


def test_a_question_asking_which_thing_is_about_that_thing() -> None:
    # the subject was the whole query: "## Hertz 默认用哪个网络库？什么时候应该换成 Go 原生的 net 是什么？"
    assert plan_subject(NETWORK) == "Hertz 网络库"
    assert zh_subjects(NETWORK) == ["Hertz 网络库"]
    assert heuristic_plan(NETWORK, lang="zh").sub_queries[0] == "Hertz 网络库是什么？"
    assert plan_subject("Gin 用什么模板引擎") == "Gin 模板引擎"
    assert plan_subject("低代码引擎默认使用哪种渲染器") == "渲染器"  # no name set apart to qualify it
    # asking when names no thing; nor does a which-word after the first question
    assert "时候" not in plan_subject("什么时候应该换成 Go 原生的 net")
    assert plan_subject("DTM 的 SAGA、TCC 有什么区别？我该选哪种事务模式") == "DTM 的 SAGA、TCC"


def test_the_page_titled_after_the_thing_asked_about_says_what_it_is() -> None:
    # "是什么" said the stored sources do not answer: no page opens on the whole query
    page = component_page(
        "net",
        "docs/tutorials/basic-feature/network-lib.md",
        "网络库",
        "Hertz 默认集成了 Netpoll 和 Golang 原生网络库两个网络库，用户可以根据自己的场景选择合适的网络库以达到最佳性能。\n\n"
        "## 网络库选择\n\n"
        "在较大 request size 下，推荐使用 go net 网络库加流式。在其他场景下，推荐使用 netpoll 网络库。\n",
    )
    overview = component_page(
        "ovw",
        "docs/overview/_index.md",
        "概览",
        "Hertz 是一个 Golang 微服务 HTTP 框架。\n\n## 框架特点\n\n高性能。\n",
    )
    judge = RelevanceJudge(NETWORK, collection="hertz")
    sentence_statistics(judge, [page, overview])
    assert defining_sources([page, overview], judge) == {"net"}
    opening = definition([page, overview], judge, lambda s: True)
    assert opening is not None and opening.sources == ["net"]
    assert opening.text.startswith("Hertz 默认集成了 Netpoll 和 Golang 原生网络库两个网络库")


BINDING = "Gin 怎么把请求参数绑定到结构体并校验"
BINDING_INDEX = (
    "Gin 提供了强大的绑定系统，可以将请求数据解析到 Go 结构体中并自动验证。\n\n"
    "## 快速示例\n\n"
    "```go\nvar form LoginForm\nif err := c.ShouldBind(&form); err != nil {\n  return\n}\n```\n"
)
BIND_URI = (
    "`ShouldBindUri` 使用 `uri` 结构体标签将 URI 路径参数直接绑定到结构体中。\n\n"
    "当你的路由包含结构化数据时，需要在使用前进行验证和类型检查，这将非常有用。\n\n"
    '```go\ntype Person struct {\n  ID string `uri:"id" binding:"required,uuid"`\n}\n'
    "if err := c.ShouldBindUri(&person); err != nil {\n  return\n}\n```\n"
)


def test_how_to_quotes_the_examples_of_every_page_defining_the_subject() -> None:
    # the section page's one example was quoted for the question as written, and "如何使用" said the stored
    # sources do not answer while bind-uri.md, a defining page too, shows ShouldBindUri used
    index = component_page("idx", "docs/binding/index.md", "数据绑定", BINDING_INDEX)
    uri = component_page("uri", "docs/binding/bind-uri.md", "绑定 URI", BIND_URI)
    judge = RelevanceJudge(BINDING, collection="gin")
    sentence_statistics(judge, [index, uri])
    use = f"如何使用{plan_subject(BINDING)}？"
    plan = facet_plan(BINDING, {use: "use"})
    questions = [(use, use, ["idx", "uri"])]
    said = frozenset({"快速示例"})  # the index's one example, quoted already
    pools = passage_pools(
        plan, Catalog([index, uri]), questions, judge, said=said, defining=["idx", "uri"], opening="idx"
    )
    assert any("ShouldBindUri(&person)" in c.code and c.source == "uri" for c in pools[use])
