"""The documents that define a topic survive retrieval and open its report (issue 30 item 3): a page titled
after what a Chinese question asks about is kept and quoted first, whatever the question's other words."""

from __future__ import annotations

from topic_fakes import component_page, facet_plan

from generator.retrieval.scoring import FLOOR, Fields
from generator.topic.defining import defines, titled_after, titled_as
from generator.topic.definition import definition
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.judge import RelevanceJudge
from generator.topic.report import build_report


def test_a_chinese_question_s_i_should_and_difference_ask_nothing_of_a_document() -> None:
    """我 "I", 该 "should" and 区别 "difference" shape a Chinese question as their English twins do an English
    one: dtm-zh's "…有什么区别？我该选哪种事务模式" left the page titled "如何选择事务模式" naming under half of the
    topic, off point, and the run never stored it."""
    topic = "Tornado 的 asyncio、uvloop 和 trio 有什么区别？我该选哪种事件循环"
    choice = Fields(
        title="如何选择事件循环",
        headings="如何选择事件循环\n特性对比\n应用场景",
        body="Tornado 支持三种事件循环：asyncio 适合不需要额外安装的场景；uvloop 适合连接多的场景；"
        "trio 适合需要结构化并发的场景。",
    )
    [verdict] = RelevanceJudge(topic).judge([("choice", choice)], topic)
    assert verdict.topic.on_point
    assert verdict.topic.score >= FLOOR
    labels = {t.label for t in RelevanceJudge(topic).terms(topic)}
    assert not labels & {"我", "该", "区别"}


def test_a_page_naming_only_a_chinese_question_s_light_verb_is_not_about_it() -> None:
    """做 "do" asks nothing of a page: dtm-zh's upgrade page ("升级时需要做…服务端…") kept "React 怎么做服务端渲染"
    from ending without sources, on 做 and 服务端 alone."""
    topic = "React 怎么做服务端渲染"
    upgrade = Fields(
        title="升级指南",
        headings="升级指南\n服务端升级",
        body="升级服务端之前需要做好备份。服务端升级时需要做数据迁移，升级完成后再做一次检查。",
    )
    [verdict] = RelevanceJudge(topic).judge([("upgrade", upgrade)], topic)
    assert "做" not in {t.label for t in RelevanceJudge(topic).terms(topic)}
    assert not verdict.topic.on_point


def test_a_title_naming_the_subject_without_its_collection_s_name_is_titled_as_it() -> None:
    # "优雅退出" among Hertz's pages is the page of "Hertz 优雅退出"; elsewhere the product's name is a word of it
    assert titled_as("优雅退出", "Hertz 优雅退出", "Hertz")
    assert not titled_as("优雅退出", "Hertz 优雅退出")
    assert not titled_as("Hooks", "Hertz 优雅退出", "Hertz")
    # a word the question says besides the subject qualifies it in a title too, nothing else does
    asked = "How should derivative (processed) data be stored and named in a BIDS dataset?"
    assert titled_as("BIDS Derivatives", "derivative", asked=asked)
    assert not titled_as("BIDS Derivatives", "derivative")
    assert not titled_as("Derivatives of atlases", "derivative", asked=asked)
    # …of the question where the subject is asked, not of a second question on a narrower thing
    assert not titled_as("自定义中间件", "Gin 的中间件", "Gin", "Gin 的中间件是怎么执行的")


def test_a_page_titled_after_the_subject_of_a_topic_s_second_question_defines_it() -> None:
    # gorm-zh never stored 会话 (session.md) for "…为什么不能复用 *gorm.DB？Session 有什么用"
    topic = "GORM 的链式调用为什么不能复用 *gorm.DB？Session 有什么用"
    judge = RelevanceJudge(topic)
    assert defines("会话", "GORM 提供了 Session 方法。", topic, judge, each_question=True)
    assert not defines("钩子", "GORM 的钩子方法。", topic, judge, each_question=True)
    # …while the report still opens from a page on the first question's subject
    assert not defines("会话", "GORM 提供了 Session 方法。", topic, judge)
    assert titled_after("会话", topic, judge, each_question=True)
    assert not titled_after("会话", topic, judge)


GRACEFUL = (
    "---\ntitle: 优雅退出\n---\n\nHertz 支持优雅退出，优雅退出过程如下：\n\n"
    "1. 设置 `engine` 状态为 `closed`\n2. 顺序非阻塞触发回调函数 `[]OnShutDown`\n3. 注册中心注销对应服务\n"
    "4. 等待超时时间为 `ExitWaitTime` 的 context 触发，默认 5s\n\n"
    "如需修改等待超时时间，可通过 `server.WithExitWaitTime()` 进行配置。\n"
)
HOOKS = (
    "---\ntitle: Hooks\n---\n\nHertz 提供了全局的 Hook 注入能力，用于在服务触发启动后和退出前注入自己的处理逻辑。\n\n"
    "## ShutdownHook\n\nServer 退出前，框架会并发地调用所有声明的 ShutdownHook 函数。\n"
)
TOPIC = "Hertz 怎么优雅退出？退出前怎么执行自己的清理逻辑"


def _pages() -> list:  # type: ignore[type-arg]
    graceful = component_page("local-g", "basic-feature/graceful-shutdown.md", "优雅退出", GRACEFUL)
    hooks = component_page("local-h", "basic-feature/hooks.md", "Hooks", HOOKS)
    return [hooks, graceful]


def test_the_page_titled_after_the_asked_subject_without_the_product_s_name_defines_it() -> None:
    # hertz-zh's 优雅退出 had no definition: "Hertz 优雅退出" named the product, the page "优雅退出" did not
    hooks, graceful = _pages()
    judge = RelevanceJudge(TOPIC, collection="Hertz")
    opening = definition([hooks, graceful], judge, lambda s: True)
    assert opening is not None and opening.sources == [graceful.id]
    assert opening.text.startswith("Hertz 支持优雅退出")


def test_a_summary_quoting_no_defining_page_opens_with_the_definition() -> None:
    # the summary opened on hooks.md's sentence, while 优雅退出's steps stood below under 是什么
    hooks, graceful = _pages()
    definition_claim = Claim(
        "Hertz 支持优雅退出，优雅退出过程如下：", [graceful.id], 1.0, items=["设置 engine 状态为 closed"]
    )
    lead = Claim(
        "Hertz 提供了全局的 Hook 注入能力，用于在服务触发启动后和退出前注入自己的处理逻辑。", [hooks.id], 0.5
    )
    questions = {"Hertz 优雅退出是什么？": "what", TOPIC: "topic"}
    analysis = Analysis(
        [Section("Hertz 优雅退出是什么？", [definition_claim]), Section(TOPIC, [lead])],
        definition=definition_claim,
        defining=[graceful.id],
    )
    report = build_report(facet_plan(TOPIC, questions), analysis, Catalog([hooks, graceful]))
    assert report.summary[0].sources == [graceful.id]
    assert report.references[0] == graceful.id
    assert lead in report.summary  # what the other page says still follows


def test_a_title_naming_the_subject_then_its_stage_is_the_subjects_page() -> None:
    """Crossplane's accepted beta design is titled "Composition Functions: Beta" and its defunct alpha design
    plain "Composition Functions": the stage after the colon qualifies the name, so the beta design is the
    subject's page too (it had not been, and the alpha design opened the report as how Functions work). A
    title whose part after the colon is more than a stage is not the subject's name."""
    from generator.topic.defining import named_as, titled_as

    subject = "Crossplane Composition Functions"
    place = "local:docs/design-doc-composition-functions.md"
    for title in (
        "Composition Functions: Beta",
        "Composition Functions: v2",
        "Composition Functions: Design",
    ):
        assert named_as(title, subject, "crossplane-designs", place)
    assert not named_as(
        "Composition Functions: Why the pipeline matters", subject, "crossplane-designs", place
    )
    assert titled_as("PEP 572: Assignment Expressions", "assignment expressions")
    assert not titled_as("Assignment Expressions: Beta", "walrus operator")
