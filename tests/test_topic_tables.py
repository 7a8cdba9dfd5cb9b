"""A document's tables answer questions (issue 30 items 1, 4, 7): a props or options table survives into the
stored text as its rows, each a sentence under its columns' headers that reads alone, and a section of
reference tables ("### 属性", "## API", "### Countdown Props") answers how the subject is used."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import component_page, facet_plan, offline

from generator.documents.plain import markup_prose
from generator.documents.table import row_sentences
from generator.site.pages.topic import described
from generator.topic import workspace as wsp
from generator.topic.analyze import analyze
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.headings import section_facets
from generator.topic.plan import Plan
from generator.topic.report import SUMMARY_ROWS, Report, build_report
from generator.topic.sentences import MAX_PASSAGE, list_quote

# antd-mobile's SafeArea page (src/components/safe-area/index.zh.md), shortened
SAFE_AREA = (
    "# SafeArea 安全区\n\n"
    "在全面屏下提供自适应的边距调整。\n\n"
    "## 说明\n\n"
    "SafeArea 组件是用来在全面屏下提供自适应的边距调整，它的底层实现其实是 `env(safe-area-inset-xxx)`。\n\n"
    "## 示例\n\n"
    '<code src="./demos/demo1.tsx"></code>\n\n'
    "## SafeArea\n\n"
    "### 属性\n\n"
    "| 属性     | 说明         | 类型                | 默认值 |\n"
    "| -------- | ------------ | ------------------- | ------ |\n"
    "| position | 安全区的位置 | `'top' \\| 'bottom'` | -      |\n\n"
    "### CSS 变量\n\n"
    "| 属性       | 说明       | 默认值 | 全局变量                   |\n"
    "| ---------- | ---------- | ------ | -------------------------- |\n"
    "| --multiple | 显示的倍数 | `1`    | `--adm-safe-area-multiple` |\n"
)


def test_a_tables_rows_are_stored_as_sentences_under_their_headers() -> None:
    # the stored text of antd-mobile's pages kept "### 属性" and "### CSS 变量" empty: "如何使用安全区？" said the
    # stored sources do not answer, and PullToRefresh's report never named onRefresh or threshold
    stored = markup_prose(SAFE_AREA, structure=True)
    assert "**属性：**\n- position：安全区的位置（类型：'top' | 'bottom'）。" in stored
    assert (
        "**CSS 变量：**\n- --multiple：显示的倍数（默认值：1，全局变量：--adm-safe-area-multiple）。"
        in stored
    )
    # a page deepkb generated lists files and symbols in its tables: no source's text
    assert "position" not in markup_prose(SAFE_AREA, structure=True, tables=False)


def test_a_row_reads_alone_in_its_tables_language() -> None:
    header = ("属性", "说明", "类型", "默认值")
    assert row_sentences(
        [header, ("`threshold`", "触发刷新需要下拉多少距离，单位为 px", "`number`", "`60`")]
    ) == ["threshold：触发刷新需要下拉多少距离，单位为 px（类型：number，默认值：60）。"]
    # English columns, the description column anywhere after the first; a row saying nothing beside its name
    # is left out
    english = [
        ("Name", "Type", "Default", "Description"),
        ("timeout", "int", "30", "Seconds to wait."),
        ("x", "", "-", ""),
    ]
    assert row_sentences(english) == ["timeout: Seconds to wait (Type: int; Default: 30)."]
    # without a description column every cell stands under its header; a table of one column is a list
    assert row_sentences([("Key", "Value"), ("retries", "3")]) == ["retries (Value: 3)."]
    assert row_sentences([("Step",), ("Build the wheel",)]) == ["Build the wheel."]
    assert row_sentences([("属性", "说明")]) == []  # a header alone


def test_reference_table_headings_answer_how_it_is_used() -> None:
    for heading in (
        "属性",
        "CSS 变量",
        "API",
        "Countdown Props",
        "Button 属性",
        "事件",
        "插槽",
        "<resize-box> Props",
    ):
        assert section_facets(heading) == {"use"}, heading
    # a concept named like a table ("计算属性"), a design ("Futures API"), the options a decision weighed, a
    # guide's advanced section ("Options {🚀}"): none is a component's reference
    assert section_facets("计算属性") == set()
    assert section_facets("Futures API") == set()
    assert section_facets("Considered Options") == {"alternatives"}
    assert section_facets("Options {🚀}") == set()


def test_a_long_table_is_quoted_from_its_first_rows() -> None:
    # Naive UI's Split Props: 16 rows, past any list a report quotes whole
    rows = [
        f"- prop{n}：第 {n} 个属性的说明，为 number 类型时应该为 0 ~ 1 之间的值（类型：number）。"
        for n in range(16)
    ]
    quote = list_quote("\n".join(["**Split Props:**", *rows]))
    assert quote is not None and quote.text == "Split Props:"
    assert quote.items[0] == rows[0][2:] and 1 < len(quote.items) < 16
    assert len(" ".join([quote.text, *quote.items])) <= MAX_PASSAGE
    # a list under its heading whose items lean on one another is quoted whole or not at all
    steps = [f"- 第 {n} 步，把前一步得到的结果再交给下一个处理函数继续处理下去" for n in range(16)]
    assert list_quote("\n".join(["**步骤：**", *steps])) is None


def test_the_props_table_answers_how_to_use_the_component() -> None:
    page = component_page("local-s", "safe-area/index.zh.md", "SafeArea 安全区", SAFE_AREA)
    questions = {"安全区是什么？": "what", "如何使用安全区？": "use"}
    plan = facet_plan("安全区", questions)
    _, use = analyze(offline(), plan, Catalog([page]), lang="zh").sections
    assert use.claims
    assert {item for c in use.claims for item in c.items} >= {
        "position：安全区的位置（类型：'top' | 'bottom'）。",
        "--multiple：显示的倍数（默认值：1，全局变量：--adm-safe-area-multiple）。",
    }


def test_a_raw_pages_description_is_no_row_of_its_tables() -> None:
    from generator.site.pages.topic_raw import _raw_frontmatter
    from generator.topic import workspace as wsp

    # Ant Design's 水印 page: its many rows repeat the page's words, and the raw page's description read
    # "**Watermark:** - width：水印的宽度，content 的默认值为自身的宽度（类型：number，默认值：120，全局配置：×）。"
    rows = "\n".join(
        f"- prop{n}：水印的第 {n} 个属性，设置水印的样子（类型：number，默认值：{n}）。" for n in range(12)
    )
    text = f"# Watermark 水印\n\n给页面的某个区域加上水印。\n\n## API\n\n**Watermark:**\n{rows}"
    raw = wsp.RawSource("local-w", "local", "local:w.md", "Watermark 水印", "t", text, kind="local")
    assert _raw_frontmatter(raw, "offline")["description"] == "给页面的某个区域加上水印。"


def test_a_tables_rows_say_which_language_the_quotes_are_in() -> None:
    from generator.site.pages.topic import quotes_in_another_language
    from generator.topic.findings import Claim
    from generator.topic.report import Report, ReportSection

    # Naive UI's 倒计时 report quoted only its props tables, each under an English label ("Countdown Props:"),
    # and said "来源为英文：引文保留原文，未经翻译" of Chinese rows
    rows = Claim(
        "Countdown Props:",
        ["local-c"],
        1.0,
        items=(
            "duration：倒计时持续时间，单位毫秒，非响应式（类型：number，默认值：0）。",
            "precision：倒计时的秒显示的精度。",
        ),
    )
    report = Report("倒计时", [], [ReportSection("如何使用倒计时？", [rows])], [], ["local-c"])
    assert not quotes_in_another_language(report, "zh")
    english = Claim(
        "Countdown Props:", ["local-c"], 1.0, items=("duration: How long it counts down, in ms.",)
    )
    assert quotes_in_another_language(
        Report("倒计时", [], [ReportSection("q", [english])], [], ["local-c"]), "zh"
    )


COUNTDOWN_ROWS = (
    "active：是否处于计时状态（类型：boolean，默认值：true）。",
    "duration：倒计时持续时间，单位毫秒，非响应式（类型：number，默认值：0）。",
    "precision：倒计时的秒显示的精度（类型：0 | 1 | 2 | 3，默认值：0）。",
    "render：时间的渲染函数（类型：function）。",
    "on-finish：倒计时结束的回调（类型：() => void）。",
)


def _table_report(*claims: Claim, defining: list[str] | None = None) -> Report:
    """The report of a page whose "use" section quotes `claims` and whose other sections quote nothing."""
    questions = {"倒计时是什么？": "what", "如何使用倒计时？": "use"}
    plan = facet_plan("倒计时", questions)
    pages = {sid for c in claims for sid in c.sources}
    catalog = Catalog(
        [wsp.RawSource(sid, "local", f"local:{sid}.md", sid, "t", "x", kind="local") for sid in sorted(pages)]
    )
    analysis = Analysis(
        [Section("倒计时是什么？"), Section("如何使用倒计时？", list(claims))], defining=defining or []
    )
    return build_report(plan, analysis, catalog)


def test_a_summary_of_a_page_of_tables_opens_on_its_first_rows() -> None:
    # Naive UI's 倒计时 report quoted "Countdown Props:" and its rows under "如何使用倒计时？", and its summary said
    # "已存储的来源没有回答这个问题。": a list is never a summary lead, and its page has no sentence of its own
    props = Claim("Countdown Props:", ["local-c"], 0.6, items=COUNTDOWN_ROWS)
    methods = Claim("Countdown Methods:", ["local-c"], 0.9, items=("reset：重置（类型：() => void）。",))
    other = Claim("Statistic Props:", ["local-s"], 0.99, items=("value：数值（类型：number）。",))
    [summary] = _table_report(props, methods, other, defining=["local-c"]).summary
    # the defining page's best table first, with its first rows: the section quotes the rest
    assert summary.text == "Countdown Methods:" and summary.items == methods.items
    [summary] = _table_report(props, other, defining=["local-c"]).summary
    assert summary.text == "Countdown Props:" and summary.items == COUNTDOWN_ROWS[:SUMMARY_ROWS]
    assert described(summary) == "Countdown Props: " + COUNTDOWN_ROWS[0]
    # a list whose items lean on one another, or on a lead-in sentence, is still no summary
    steps = Claim("步骤：", ["local-c"], 0.9, items=("先安装依赖", "再运行它"))
    assert _table_report(steps, defining=["local-c"]).summary == []


def test_a_table_quoted_from_its_first_rows_says_how_many_it_leaves_out() -> None:
    from generator.site.pages.topic import claim_markdown
    from generator.topic.sentences import listed_items

    # Naive UI's "Split Props:" was quoted with 10 of its 16 rows and nothing said the list went on
    rows = [
        f"prop{n}：第 {n} 个属性的说明，取 0 ~ 1 之间的值（类型：number，默认值：0.5）。" for n in range(16)
    ]
    text = "\n".join(["# Split 面板分割", "", "**Split Props:**", *(f"- {r}" for r in rows)])
    quote = list_quote(text.split("\n\n")[-1])
    assert quote is not None and len(quote.items) < 16
    assert listed_items(text, quote.items) == 16 and listed_items(text, ("nothing：没有。",)) == 0
    page = wsp.RawSource("local-p", "local", "local:split.md", "Split 面板分割", "t", text, kind="local")
    claim = Claim(quote.text, [page.id], 1.0, items=quote.items)
    analysis = Analysis([Section("如何使用面板分割？", [claim])], defining=[page.id])
    plan = Plan(topic="面板分割", sub_queries=["如何使用面板分割？"], steps=[])
    report = build_report(plan, analysis, Catalog([page]))
    [told] = report.sections[0].claims
    assert told.omitted == 16 - len(quote.items)
    assert report.summary[0].omitted == 16 - SUMMARY_ROWS
    shown = claim_markdown(told, {page.id: 1}, omitted="（另有 {count} 项未在此列出）")
    assert shown.endswith(f"*（另有 {told.omitted} 项未在此列出）*")
    # a list quoted whole says nothing more
    whole = Claim("Split Slots:", [page.id], 1.0, items=tuple(rows))
    assert "另有" not in claim_markdown(whole, {page.id: 1}, omitted="（另有 {count} 项未在此列出）")


# Element's Form page (examples/docs/zh-CN/form.md), shortened: prose sections, then English-named tables
FORM = (
    "# Form 表单\n\n"
    "由输入框、选择器、单选框、多选框等控件组成，用以收集、校验、提交数据。\n\n"
    "## 典型表单\n\n"
    "包括各种表单项，比如输入框、选择器、开关、单选框、多选框等。\n\n"
    "## 基本用法\n\n"
    "在 Form 组件中，每一个表单域由一个 Form-Item 组件构成，表单域中可以放置各种类型的表单控件。\n\n"
    "## Form Attributes\n\n"
    "| 参数 | 说明 | 类型 | 可选值 | 默认值 |\n"
    "| ---- | ---- | ---- | ---- | ---- |\n"
    "| model | 表单数据对象 | object | — | — |\n"
    "| rules | 表单验证规则 | object | — | — |\n"
    "| inline | 行内表单模式 | boolean | — | false |\n\n"
    "## Form Methods\n\n"
    "| 方法名 | 说明 | 参数 |\n"
    "| ---- | ---- | ---- |\n"
    "| validate | 对整个表单进行校验的方法 | Function(callback: Function(boolean, object)) |\n"
)


def test_english_named_reference_tables_answer_how_it_is_used() -> None:
    from generator.topic.headings import lists_reference

    page = component_page("local-f", "form.md", "Form 表单", FORM)
    questions = {"表单是什么？": "what", "表单如何工作？": "how", "如何使用表单？": "use"}
    plan = facet_plan("表单", questions)
    what, how, use = analyze(offline(), plan, Catalog([page]), lang="zh").sections
    # "### Form Attributes" named no facet: its rows stood where any question took them, and a page with a
    # section on its use ("## 基本用法") kept them out of "use"
    rows = {item for c in use.claims for item in c.items}
    assert "rules：表单验证规则（类型：object）。" in rows
    assert not [c for c in [*what.claims, *how.claims] if c.items]
    assert lists_reference("Form Attributes", "Form Attributes:", True)
    assert lists_reference("Attributes", "Attributes:", True)
    assert lists_reference("<resize-box> Events", "<resize-box> Events:", True)  # Arco names it by its tag
    # a specification's "Context Attributes" over prose, or a list leaning on its lead-in, is no reference
    assert not lists_reference("Context Attributes", "Context Attributes:", False)
    assert not lists_reference("Context Attributes", "The attributes are:", True)
    assert not lists_reference("Event Formats and Attributes of a Message", "x:", True)


def test_a_table_written_in_html_is_stored_as_its_rows() -> None:
    # Element's border.md and typography.md write their tables in HTML, which the stored text dropped whole
    page = (
        "## Border 边框\n\n### 边框\n\n我们提供了以下几种边框样式，以供选择。\n\n"
        '<table class="demo-border">\n  <tbody>\n'
        "    <tr>\n      <td>名称</td>\n      <td>粗细</td>\n      <td>举例</td>\n    </tr>\n"
        '    <tr>\n      <td>实线</td>\n      <td>1px</td>\n      <td><div class="solid"></div></td>\n    </tr>\n'
        '    <tr\n    :style="{ fontSize: font_size_small }"\n    >\n      <td>虚线</td>\n'
        "      <td>{{border_width}} 2px</td>\n      <td></td>\n    </tr>\n"
        "  </tbody>\n</table>\n\n### 圆角\n\n我们提供了以下几种圆角样式。\n"
    )
    stored = markup_prose(page, structure=True)
    # a template's interpolation is computed when the page renders: no word of the source
    assert "**边框：**\n- 实线（粗细：1px）。\n- 虚线（粗细：2px）。" in stored
    assert "我们提供了以下几种圆角样式。" in stored and "{{" not in stored


COUNTDOWN = (
    "# 倒计时 Countdown\n\n每过一秒，就会少一秒。\n\n## 演示\n\n```demo\nbasic.vue\nprecision.vue\n```\n\n"
    "## API\n\n### Countdown Props\n\n"
    "| 名称 | 类型 | 默认值 | 说明 |\n| --- | --- | --- | --- |\n"
    "| active | `boolean` | `true` | 是否处于计时状态 |\n"
    "| duration | `number` | `0` | 倒计时持续时间，单位毫秒 |\n"
    "| precision | `0 \\| 1 \\| 2 \\| 3` | `0` | 倒计时的秒显示的精度 |\n"
    "| render | `function` | `undefined` | 时间的渲染函数 |\n"
    "| on-finish | `() => void` | `undefined` | 倒计时结束的回调 |\n"
)


def test_a_report_on_a_page_of_tables_opens_on_its_rows_and_says_how_many_follow(kb_root: Path) -> None:
    from topic_fakes import zh_report_on

    from generator.store import read_page

    folder, meta, report = zh_report_on(kb_root, "countdown.md", COUNTDOWN, "倒计时")
    summary = report.split("## 摘要", 1)[1].split("\n## ", 1)[0]
    assert "没有回答" not in summary and "Countdown Props:" in summary
    # precision, which the page's demo list names, before active, which nothing names (test_table_rows.py)
    assert (
        "- precision：倒计时的秒显示的精度" in summary and f"另有 {5 - SUMMARY_ROWS} 项未在此列出" in summary
    )
    assert meta["description"].startswith("Countdown Props: precision：")
    _, landing = read_page(folder / "index.md")
    # the landing lists the summary: a table's rows and its note stand inside the label's item
    assert "- Countdown Props: " in landing and "\n    - precision：倒计时的秒显示的精度" in landing
    assert f"\n    *（另有 {5 - SUMMARY_ROWS} 项未在此列出）*" in landing


def test_local_search_finds_a_page_of_tables_by_its_rows_words(tmp_path: Path) -> None:
    from generator.sources.base import create_search_provider

    # Arco's OverflowList page holds its title only in a yaml fence and says what it is about only in its
    # tables ("折叠方向", "溢出数量"): the index left tables out, and "折叠列表" found no page at all
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "overflow-list.md").write_text(
        "```yaml\ntitle: 折叠列表 OverflowList\n```\n\n## API\n\n### `<overflow-list>` Props\n\n"
        "|参数名|描述|类型|默认值|\n|---|---|---|:---:|\n|min|最少展示的元素个数|`number`|`0`|\n"
        "|from|折叠方向|`'start' \\| 'end'`|`'end'`|\n\n### `<overflow-list>` Events\n\n"
        "|事件名|描述|参数|\n|---|---|---|\n|change|溢出数量改变时触发|value: `number`|\n",
        encoding="utf-8",
    )
    (docs / "button.md").write_text("# 按钮 Button\n\n按钮用于开始一个即时操作。\n", encoding="utf-8")
    provider = create_search_provider(f"local:{docs}", cache_dir=tmp_path / "cache")
    [hit] = provider.search("折叠", limit=3)
    assert hit.url.endswith("overflow-list.md") and "min：最少展示的元素个数" in hit.content
