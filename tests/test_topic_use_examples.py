""" "How do you use it?" is answered by showing it used (issue 30 items 1, 7): a usage section that opens on
its example's caption quotes the caption with the example, and a usage question no section answers takes
the example the subject's defining document gives after its definition."""

from __future__ import annotations

from dataclasses import replace

from topic_fakes import facet_plan, offline

from generator.topic import workspace as wsp
from generator.topic.allocation import allocate
from generator.topic.analyze import analyze
from generator.topic.candidate import Candidate
from generator.topic.findings import Catalog
from generator.topic.opening_passages import opening_passages
from generator.topic.section_tree import TextSection, text_sections

PAGINATION = (
    "# Pagination 分页\n\n"
    "### 基础用法\n\n"
    "通过 v-model 来绑定当前页码。\n\n"
    '```html\n<van-pagination v-model="currentPage" :total-items="24" :items-per-page="5" />\n```\n\n'
    "### 简单模式\n\n"
    "将 mode 设置为 simple 来切换到简单模式，此时分页器不会展示具体的页码按钮。\n"
)


def _section(text: str, heading: str) -> TextSection:
    return next(s for s in text_sections(text) if s.heading == heading)


def test_a_usage_section_opening_on_its_examples_caption_quotes_it_with_the_example() -> None:
    basic = _section(PAGINATION, "基础用法")
    [passage] = opening_passages(basic, 2, example_alone=True)
    assert passage.text == "通过 v-model 来绑定当前页码。"
    assert passage.code.startswith('<van-pagination v-model="currentPage"')
    # what a section on anything else shows is no answer of its own: its caption leans on the heading
    assert opening_passages(basic, 2) == []
    # a list item right above the code ("- 类型：" after the caption) introduces nothing the caption says
    typed = PAGINATION.replace("来绑定当前页码。\n\n", "来绑定当前页码。\n- 类型：\n\n")
    assert opening_passages(_section(typed, "基础用法"), 2, example_alone=True) == []
    # only the section's opening: a caption further down introduces an example of a detail
    later = PAGINATION.replace("通过 v-model", "分页器有多种模式。\n\n通过 v-model")
    assert all(not p.code for p in opening_passages(_section(later, "基础用法"), 2, example_alone=True))


POOL = (
    "# Overview\n\nA pool of stateful VMs.\n\n# Design\n\n## VMPool API Examples\n\n"
    "Automatic rolling updates and scale-in strategy with state preservation\n\n"
    "```yaml\nkind: VirtualMachinePool\nspec:\n  replicas: 100\n```\n\n"
    "### Full Manifest:\n\n```yaml\nkind: MigrationPolicy\n```\n"
)


def test_an_example_under_its_own_caption_answers_how_it_is_used() -> None:
    # KubeVirt's "## VMPool API Examples" opens on a bold caption ("**Automatic rolling updates and scale-in
    # strategy …**", stored as a line of words) above its YAML: "How do you work with VirtualMachinePool?" said
    # the stored sources do not answer. A heading that is a label already ("### Full Manifest:") was quoted
    # "Full Manifest::"
    [pool] = opening_passages(_section(POOL, "VMPool API Examples"), 2, example_alone=True)
    assert pool.text == "Automatic rolling updates and scale-in strategy with state preservation:"
    assert pool.code.startswith("kind: VirtualMachinePool")
    [manifest] = opening_passages(_section(POOL, "Full Manifest:"), 2, example_alone=True)
    assert manifest.text == "Full Manifest:"
    # a sentence above an example is no caption: it is quoted as its lead-in or not at all
    stated = POOL.replace("with state preservation\n", "with state preservation.\n")
    assert all(
        not p.text.endswith(":")
        for p in opening_passages(_section(stated, "VMPool API Examples"), 2, example_alone=True)
    )


ROUTING = (
    "# 约定式路由\n\n"
    "约定式路由即根据路由文件路径自动生成路由，是 dumi 默认且推荐使用的路由模式。\n\n"
    "## 文档标题及排序\n\n"
    "dumi 会自动将 Markdown 文件中的第一个标题作为该文档的标题，如果没有标题，则会使用文件名作为标题。\n\n"
    "## 菜单归类及生成\n\n"
    "倘若你的文档比较多，希望将相关联的文档归类到同一菜单分组下，可以在文档的 Markdown 源文件头部通过 "
    "FrontMatter 指定它的分组及分组顺序，比如：\n\n"
    "```md\n---\ngroup:\n  title: 基础\n  order: 1\n---\n```\n\n"
    "## 导航归类及生成\n\n"
    "导航的名称默认为该导航类目下第一篇文档的分组标题或文档标题，可以在该导航类目下任一文档的 Markdown "
    "源文件头部通过 FrontMatter 指定，比如：\n\n"
    "```md\n---\nnav:\n  title: 配置项\n  order: 1\n---\n```\n\n"
    "## 解析示例\n\n"
    "| 磁盘路径 | 路由类别 |\n| --- | --- |\n| docs/hello.md | 文档路由 |\n"
)


def test_a_usage_question_no_section_answers_is_answered_by_an_example_of_the_subjects_page() -> None:
    # dumi's 约定式路由: its one usage-titled section ("## 解析示例") is a table, and every example sat in the
    # "how" section while "如何使用约定式路由？" said the stored sources do not answer
    page = wsp.RawSource(
        "local-r", "local", "local:r.md", "约定式路由", "t", ROUTING, kind="local", relevance=0.9
    )
    questions = {"约定式路由是什么？": "what", "约定式路由如何工作？": "how", "如何使用约定式路由？": "use"}
    plan = facet_plan("约定式路由", questions)
    what, how, use = analyze(offline(), plan, Catalog([page]), lang="zh").sections
    assert use.claims and all(c.code for c in use.claims)
    assert use.claims[0].code.startswith("---\ngroup:") or use.claims[0].code.startswith("---\nnav:")
    quoted = [c.text for s in (what, how) for c in s.claims]
    assert not {c.text for c in use.claims} & set(quoted)  # each example quoted once
    # a usage section that answers keeps its own passages: no example of another section is borrowed
    answered = ROUTING.replace(
        "## 解析示例\n\n", "## 用法\n\n在 docs 目录下新建 Markdown 文件即可生成对应的页面路由。\n\n"
    )
    page = replace(page, text=answered)
    use = analyze(offline(), plan, Catalog([page]), lang="zh").sections[2]
    assert [c.text for c in use.claims] == ["在 docs 目录下新建 Markdown 文件即可生成对应的页面路由。"]


def test_a_fallback_passage_answers_only_a_section_its_own_passages_leave_empty() -> None:
    # rollup's 除屑优化: the usage pool's own passages were all quoted by other sections, and the example its
    # page shows was left out while "如何使用除屑优化？" said the stored sources do not answer
    quoted = Candidate(
        "Rollup 静态分析你导入的代码，并将排除任何实际上没有使用的内容。", "local-i", 1.0, 0.9, 0.0
    )
    shown = Candidate(
        "使用 ES 模块，我们只需导入我们需要的一个 ajax 函数：",
        "local-i",
        2.0,
        1.0,
        0.0,
        code="import { ajax } from './utils';",
        fallback=True,
    )
    contrast = replace(
        shown, text="例如，使用 CommonJS 必须导入整个工具或库。", code="const utils = require('./utils');"
    )
    chosen = allocate({"除屑优化如何工作？": [quoted], "如何使用除屑优化？": [quoted, contrast, shown]})
    assert [c.text for c in chosen["除屑优化如何工作？"]] == [quoted.text]
    # the page's examples, each once: the contrast it draws and the way to write it
    assert [c.code for c in chosen["如何使用除屑优化？"]] == [contrast.code, shown.code]
    # a section its own passages answer takes no fallback passage, however strong
    assert [c.text for c in allocate({"如何使用除屑优化？": [quoted, shown]})["如何使用除屑优化？"]] == [
        quoted.text
    ]
