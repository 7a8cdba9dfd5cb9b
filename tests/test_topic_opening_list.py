"""A document's opening passage stopping at the lead-in of the list its paragraph goes on to introduce is
quoted with that list, never run on into the paragraphs after the list (issue #30 item 5)."""

from __future__ import annotations

from generator.topic import workspace as wsp
from generator.topic.definition import definition
from generator.topic.judge import RelevanceJudge

SHUTDOWN = (
    "# 优雅重启或停止\n\n"
    "当服务器进程收到终止信号时，立即关闭会丢弃所有正在进行中的请求，导致客户端连接断开。"
    "优雅关闭通过以下方式解决这个问题：\n"
    "- 完成进行中的请求 -- 正在处理的请求有时间完成。\n"
    "- 排空连接 -- 服务器停止接受新连接，同时允许现有连接完成。\n\n"
    "在 Go 中有多种方式实现这一点。\n\n"
    "我们可以使用 fvbock/endless 来替换默认的 ListenAndServe。\n"
)


def test_an_opening_that_stops_at_a_list_lead_in_is_quoted_with_the_list() -> None:
    source = wsp.RawSource(
        "local-g",
        "local",
        "local:docs/graceful.md",
        "优雅重启或停止",
        "t",
        SHUTDOWN,
        kind="local",
        relevance=0.9,
    )
    opening = definition([source], RelevanceJudge("Gin 服务怎么优雅关闭"), lambda s: True)
    assert opening is not None
    assert opening.text.endswith("优雅关闭通过以下方式解决这个问题：")
    assert opening.items == (
        "完成进行中的请求 -- 正在处理的请求有时间完成。",
        "排空连接 -- 服务器停止接受新连接，同时允许现有连接完成。",
    )
    assert "fvbock" not in opening.text  # the paragraphs after the list are not run into the lead
