"""A component library's page read as its authors lay it out (issue 30 items 1, 4, 7): the lead under its
title says what the component is even when it leaves the component unsaid, and "## 何时使用" says when and why
one takes it, never how it is used."""

from __future__ import annotations

from topic_fakes import component_page, facet_plan, offline

from generator.documents.plain import markup_prose
from generator.topic import workspace as wsp
from generator.topic.analyze import analyze
from generator.topic.findings import Catalog
from generator.topic.headings import section_facets
from generator.topic.sentences import states_arrival

# antd-mobile's SafeArea page (src/components/safe-area/index.zh.md), shortened
SAFE_AREA = (
    "# SafeArea 安全区\n\n"
    "在全面屏下提供自适应的边距调整。\n\n"
    "## 何时使用\n\n"
    "当网页被全屏展示时，可借助安全区实现自动适配。\n\n"
    "## 说明\n\n"
    "SafeArea 组件是用来在全面屏下提供自适应的边距调整，它的底层实现其实是 `env(safe-area-inset-xxx)`。\n\n"
    "## SafeArea\n\n"
    "### 属性\n\n"
    "| 属性     | 说明         | 类型                | 默认值 |\n"
    "| -------- | ------------ | ------------------- | ------ |\n"
    "| position | 安全区的位置 | `'top' \\| 'bottom'` | -      |\n"
)


def test_when_to_use_says_why_not_how() -> None:
    # "如何使用下拉刷新？" was answered "适用于对当前页面进行内容更新。", "如何使用二维码？" "当需要将文本转换成为二维码时使用。"
    for heading in ("何时使用", "什么时候使用", "使用场景", "When to use", "When should you use it?"):
        assert section_facets(heading) == {"motivation"}, heading
    assert section_facets("使用") == {"use"} and section_facets("基础用法") == {"use"}


def test_a_chinese_heading_summing_up_its_subject_says_what_it_is() -> None:
    # lowcode-engine's "## 设置器简述" and "## 插件简述" open their pages: "是什么" said the stored sources do not answer
    for heading in ("设置器简述", "插件简述", "协议栈简介", "编辑态扩展概述", "概述"):
        assert section_facets(heading) == {"what"}, heading
    assert section_facets("产品简介与安装") != {"what"}  # the summary word must end the heading


def test_a_lead_leaving_its_subject_unsaid_says_what_the_titled_component_is() -> None:
    # "安全区是什么？" quoted 何时使用's sentence (the first naming 安全区), so "安全区为什么重要？" had nothing left to
    # quote and said the stored sources do not answer
    page = component_page("local-s", "safe-area/index.zh.md", "SafeArea 安全区", SAFE_AREA)
    questions = {"安全区是什么？": "what", "安全区为什么重要？": "motivation", "如何使用安全区？": "use"}
    plan = facet_plan("安全区", questions)
    what, why, use = analyze(offline(), plan, Catalog([page]), lang="zh").sections
    assert [c.text for c in what.claims][:1] == ["在全面屏下提供自适应的边距调整。"]
    assert [c.text for c in why.claims] == ["当网页被全屏展示时，可借助安全区实现自动适配。"]
    assert [c.text for c in use.claims] == ["属性："]
    # a lead naming a word of the title is read as before: it must name the topic
    named = SAFE_AREA.replace("在全面屏下提供", "SafeArea 在全面屏下提供")
    page = wsp.RawSource(
        "local-s",
        "local",
        "local:s.md",
        "SafeArea 安全区",
        "t",
        markup_prose(named, structure=True),
        kind="local",
    )
    what = analyze(offline(), plan, Catalog([page]), lang="zh").sections[0]
    assert "SafeArea 在全面屏下提供自适应的边距调整。" not in [c.text for c in what.claims][:1]


def test_a_pages_demo_tags_are_no_sentence() -> None:
    # Ant Design's 水印 page lists its demos as dumi tags; the stored text read them as one paragraph, "基本
    # 多行水印 图片水印 自定义配置 Modal 与 Drawer Table 固定列", quoted as the summary's line and as the whole answer
    # of "水印如何工作？"
    page = (
        "# Watermark 水印\n\n## 代码演示\n\n<!-- prettier-ignore -->\n"
        '<code src="./demo/basic.tsx">基本</code>\n<code src="./demo/multi-line.tsx">多行水印</code>\n'
        '<code src="./demo/debug.tsx" debug>Table 固定列</code>\n\n'
        "## API\n\n给页面的某个区域加上水印，用 <code>content</code> 设置文字。\n"
    )
    stored = markup_prose(page, structure=True)
    assert "基本" not in stored and "多行水印" not in stored and "固定列" not in stored
    assert "给页面的某个区域加上水印，用 content 设置文字。" in stored  # an HTML code span is still its text


QR_CODE = (
    "# QRCode 二维码\n\n"
    "能够将文本转换生成二维码的组件，支持自定义配色和 Logo 配置。\n\n"
    "## API\n\n"
    "> 自 `antd@5.1.0` 版本开始提供该组件。\n\n"
    "| 参数 | 说明 | 类型 | 默认值 |\n| :-- | :-- | :-- | :-- |\n"
    "| value | 扫描后的文本 | `string` | - |\n| size | 二维码大小 | number | 160 |\n\n"
    "### StatusRenderInfo\n\n类型定义。\n"
)


def test_the_release_a_component_arrived_in_says_where_it_stands_not_how_to_use_it() -> None:
    # Ant Design's 二维码: "如何使用二维码？" opened on "自 antd@5.1.0 版本开始提供该组件。" (the line under "## API")
    # while "二维码的现状如何？" said the stored sources do not answer
    assert states_arrival("自 antd@5.1.0 版本开始提供该组件。") and states_arrival(
        "Available since version 2.3."
    )
    assert not states_arrival(
        "当使用图片水印且图片加载异常时，可以同时添加 content 防止水印失效（自 5.2.3 开始支持）。"
    )
    assert not states_arrival("自 5.17.0 版本，我们提供了 loading 属性，内置 Spin 组件作为加载状态。")
    page = component_page("local-q", "qr-code/index.zh-CN.md", "QRCode 二维码", QR_CODE)
    questions = {"二维码是什么？": "what", "如何使用二维码？": "use", "二维码的现状如何？": "current"}
    plan = facet_plan("二维码", questions)
    _, use, current = analyze(offline(), plan, Catalog([page]), lang="zh").sections
    assert [c.text for c in use.claims] == ["API:"]
    assert [c.text for c in current.claims] == ["自 antd@5.1.0 版本开始提供该组件。"]


def _arco_page(name: str, title: str, description: str, table: str) -> str:
    """An Arco Design Vue component page: its title and description in a yaml block, demos, its props."""
    return (
        f"```yaml\nmeta:\n  type: 组件\ntitle: {title}\ndescription: {description}\n```\n\n"
        f"@import ./__demo__/basic.md\n\n## API\n\n### `<{name}>` Props\n\n|参数名|描述|类型|默认值|\n|---|---|---|:---:|\n"
        f"{table}"
    )


def test_another_pages_description_naming_a_word_of_the_subject_does_not_say_what_it_is() -> None:
    # with Arco's yaml blocks read as front matter, Menu's description ("收纳、排列并展示一系列选项的列表。") said what
    # 折叠列表 is: it names 列表, a word of it, and the OverflowList page has an empty description
    overflow = _arco_page(
        "overflow-list", "折叠列表 OverflowList", "", "|min|最少展示的元素个数|`number`|`0`|\n"
    )
    menu = _arco_page(
        "menu", "菜单 Menu", "收纳、排列并展示一系列选项的列表。", "|theme|菜单的主题|`string`|`'light'`|\n"
    )
    pages = [
        component_page("local-o", "overflow-list/README.zh-CN.md", "折叠列表 OverflowList", overflow),
        component_page("local-m", "menu/README.zh-CN.md", "菜单 Menu", menu),
    ]
    assert pages[1].text.startswith("菜单 Menu：收纳、排列并展示一系列选项的列表。")
    plan = facet_plan("折叠列表", {"折叠列表是什么？": "what", "如何使用折叠列表？": "use"})
    analysis = analyze(offline(), plan, Catalog(pages), lang="zh")
    said = [c.text for s in analysis.sections for c in s.claims]
    assert analysis.definition is None and not any("菜单" in text for text in said)


def test_a_chinese_description_naming_its_subject_further_on_says_what_the_titled_component_is() -> None:
    # Arco's BackTop says "可一键返回顶部的按钮。" (a button, named further on): read alone it is no sentence, and
    # "返回顶部是什么？" said the stored sources do not answer
    text = _arco_page(
        "back-top",
        "返回顶部 BackTop",
        "可一键返回顶部的按钮。",
        "|duration|滚动动画的持续时间|`number`|`200`|\n",
    )
    page = component_page("local-b", "back-top/README.zh-CN.md", "返回顶部 BackTop", text)
    plan = facet_plan("返回顶部", {"返回顶部是什么？": "what", "如何使用返回顶部？": "use"})
    what = analyze(offline(), plan, Catalog([page]), lang="zh").sections[0]
    assert [c.text for c in what.claims][:1] == ["返回顶部 BackTop：可一键返回顶部的按钮。"]
