"""A topic summary states the API its defining document shows: the first example the page gives, quoted
with the paragraph that introduces it (hexo's one-command deployment, Vuex's plugins, Rsbuild's HMR)."""

from __future__ import annotations

from generator.site.pages.topic import summary_paragraphs
from generator.site.text import Markdown
from generator.topic import workspace as wsp
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.plan import Plan, Step
from generator.topic.report import build_report
from generator.topic.sentences import code_examples

DEPLOY = (
    "# 一键部署\n\n"
    "Hexo 提供快速、简便的部署策略。 您只需一条命令即可将网站部署到服务器上。\n\n"
    "```bash\n$ hexo deploy\n```\n\n"
    "## Git\n\n部署通常通过 _config.yml 进行配置。 有效配置必须有 type 字段。\n"
)
PLUGINS = (
    "# 插件\n\n"
    "Vuex 的 store 接受 plugins 选项，这个选项暴露出每次 mutation 的钩子。 Vuex 插件就是一个函数，它接收 store "
    "作为唯一参数：\n\n"
    "```js\nconst myPlugin = (store) => {\n  store.subscribe((mutation, state) => {})\n}\n```\n\n"
    "## 在插件内提交 Mutation\n\n在插件中不允许直接修改状态，只能通过提交 mutation 来触发变化。\n"
)


def _source(sid: str, title: str, text: str) -> wsp.RawSource:
    return wsp.RawSource(sid, "local", f"local:{sid}.md", title, "t", text, kind="local", relevance=0.9)


def _report(source: wsp.RawSource, definition: Claim, *more: Claim) -> list[Claim]:
    """The summary of a report whose "what" section quotes `definition`, each of `more` leading a section."""
    questions = [f"{source.title}是什么？", *(f"{source.title}如何工作？（{n}）" for n in range(len(more)))]
    plan = Plan(
        topic=source.title,
        sub_queries=questions,
        steps=[Step(id=f"s{n}", title=q, question=q, facet="what") for n, q in enumerate(questions)],
    )
    sections = [Section(q, [c]) for q, c in zip(questions, [definition, *more], strict=True)]
    analysis = Analysis(sections=sections, definition=definition)
    return build_report(plan, analysis, Catalog([source])).summary


def test_a_paragraph_closing_on_a_full_stop_above_code_introduces_it_only_when_asked() -> None:
    assert code_examples(DEPLOY) == []  # no lead-in colon: not an example of the paragraph by default
    [shown] = code_examples(DEPLOY, stated=True)
    assert shown.text.endswith("即可将网站部署到服务器上。") and shown.code == "$ hexo deploy"
    # a heading or a list above the code introduces nothing
    assert code_examples("## 安装\n\n```bash\n$ npm i hexo\n```\n", stated=True) == []
    assert code_examples("- 安装 hexo。\n\n```bash\n$ npm i hexo\n```\n", stated=True) == []


def test_the_summary_states_the_command_its_defining_page_shows_in_place_of_the_paragraph_it_follows() -> (
    None
):
    source = _source("local-d", "一键部署", DEPLOY)
    opening = Claim(
        "Hexo 提供快速、简便的部署策略。 您只需一条命令即可将网站部署到服务器上。", [source.id], 1.0
    )
    config = Claim("部署通常通过 _config.yml 进行配置。 有效配置必须有 type 字段。", [source.id], 0.5)
    summary = _report(source, opening, config)
    assert [c.text for c in summary] == [opening.text, config.text]
    assert summary[0].code == "$ hexo deploy" and not summary[1].code


def test_the_summary_states_the_example_a_definition_leads_into_once() -> None:
    source = _source("local-p", "插件", PLUGINS)
    opening = Claim("Vuex 的 store 接受 plugins 选项，这个选项暴露出每次 mutation 的钩子。", [source.id], 1.0)
    rule = Claim("在插件中不允许直接修改状态，只能通过提交 mutation 来触发变化。", [source.id], 0.5)
    # the definition opens the paragraph that leads into the example: said once, with it, in its place
    [said, after] = _report(source, opening, rule)
    assert said.text.startswith(opening.text) and said.text.endswith("它接收 store 作为唯一参数：")
    assert said.code.startswith("const myPlugin") and after == rule
    # a summary not quoting that paragraph closes with it
    source = _source(
        "local-p", "插件", PLUGINS.replace("# 插件\n\n", "# 插件\n\n插件为 store 增加能力。\n\n")
    )
    other = Claim("插件为 store 增加能力。", [source.id], 1.0)
    summary = _report(source, other, rule)
    assert summary[:2] == [other, rule] and summary[2].code.startswith("const myPlugin")
    # a section that already quotes the example keeps it there alone
    quoted = Claim(said.text, [source.id], 0.5, said.code)
    assert _report(source, other, quoted) == [other]


def test_a_summary_passage_with_its_example_ends_its_paragraph() -> None:
    shown = Markdown("您只需一条命令即可将网站部署到服务器上。 [1]\n\n```text\n$ hexo deploy\n```")
    said = [Markdown("Hexo 提供部署策略。 [1]"), shown, Markdown("有效配置必须有 type 字段。 [1]")]
    assert summary_paragraphs(said) == [f"{said[0]} {shown}", said[2]]


def test_a_definition_from_one_answer_of_a_faq_takes_no_example_from_another() -> None:
    faq = (
        "# 常见问题\n\n## 为什么 ES 模块更好？\n\nES 模块是官方标准。\n\n"
        "## 什么是除屑优化\n\n除屑优化是 Rollup 的一个处理过程，用于消除实际上未使用的代码。\n\n"
        "## 为什么在代码分割时入口块中会出现额外的导入？\n\n入口块的依赖项导入将作为空导入添加。 请看示例：\n\n"
        "```js\nimport value from './other-entry.js';\n```\n"
    )
    source = _source("local-f", "常见问题", faq)
    opening = Claim("除屑优化是 Rollup 的一个处理过程，用于消除实际上未使用的代码。", [source.id], 1.0)
    assert _report(source, opening) == [opening]
    # the same answer opening the page speaks for all of it
    page = faq.replace("## 为什么 ES 模块更好？\n\nES 模块是官方标准。\n\n## 什么是除屑优化\n\n", "")
    summary = _report(_source("local-f", "除屑优化", page), opening)
    assert summary[-1].code == "import value from './other-entry.js';"


GRACEFUL = (
    "# 优雅重启或停止\n\n"
    "当服务器进程收到终止信号时，立即关闭会丢弃所有正在进行中的请求。**优雅关闭**通过以下方式解决这个问题：\n"
    "- 完成进行中的请求。\n- 排空连接。\n\n"
    "在 Go 中有多种方式实现这一点。\n\n"
    "我们可以使用 fvbock/endless 来替换默认的 ListenAndServe。参考 issue #296 了解更多详情。\n\n"
    '```go\nrouter := gin.Default()\nendless.ListenAndServe(":4242", router)\n```\n'
)


def test_a_summary_passage_closing_on_the_paragraph_an_example_follows_says_it_once_with_the_example() -> (
    None
):
    source = _source("local-g", "优雅重启或停止", GRACEFUL)
    lead = "我们可以使用 fvbock/endless 来替换默认的 ListenAndServe。参考 issue #296 了解更多详情。"
    opening = Claim(
        f"当服务器进程收到终止信号时，立即关闭会丢弃所有正在进行中的请求。在 Go 中有多种方式实现这一点。{lead}",
        [source.id],
        1.0,
    )
    [said, shown] = _report(source, opening)
    assert (
        said.text
        == "当服务器进程收到终止信号时，立即关闭会丢弃所有正在进行中的请求。在 Go 中有多种方式实现这一点。"
    )
    assert "".join(shown.text.split()) == "".join(lead.split()) and shown.code.startswith("router :=")
