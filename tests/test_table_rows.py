"""A table is quoted by the rows that matter (issue 30 items 1, 4): TDesign's and antd's props tables are
alphabetical, and a report quoting their first rows left 穿梭框's value, 图片预览's visible and 进度条's theme among
the rows it only counted."""

from __future__ import annotations

from topic_fakes import component_page, facet_plan

from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.report import SUMMARY_ROWS, build_report
from generator.topic.sentences import list_quote, listed_items, text_blocks
from generator.topic.table_rows import central_rows, row_weight

# TDesign Vue Next's Transfer page (packages/components/transfer/transfer.md), its rows shortened
TRANSFER = (
    ":: BASE_DOC ::\n\n## API\n### Transfer Props\n\n"
    "名称 | 类型 | 默认值 | 说明 | 必传\n-- | -- | -- | -- | --\n"
    "checkboxProps | Object | - | 用于控制复选框属性。TS 类型：`CheckboxProps` | N\n"
    "data | Array | [] | 全量数据。TS 类型：`Array<T>` | N\n"
    "direction | String | both | 穿梭框可操作方向。可选项：left/right/both | N\n"
    "disabled | Boolean / Array | - | 禁用全部操作：搜索、选中、移动、分页等 | N\n"
    "empty | String / Slot | '' | 列表为空时呈现的内容 | N\n"
    "footer | Slot / Function | - | 底部内容 | N\n"
    "keys | Object | - | 用来定义 label / disabled 在选项中对应的字段别名 | N\n"
    "operation | Array / Slot | - | 方向操作按钮。默认显示组件内置操作图标 | N\n"
    "showCheckAll | Boolean | true | 是否显示全选 | N\n"
    "targetDraggable | Boolean | false | 是否允许通过拖拽对目标列表进行排序 | N\n"
    "title | Array / Slot | [] | 标题，示例：['源列表', '目标列表'] | N\n"
    "tree | Slot / Function | - | 传入 Tree 组件定义树形结构 | N\n"
    "value | Array | [] | 目标数据列表数据。支持语法糖 `v-model` 或 `v-model:value` | N\n"
    "defaultValue | Array | [] | 目标数据列表数据。非受控属性 | N\n"
)


def _transfer_report() -> tuple[Claim, Claim]:
    page = component_page("local-t", "transfer/transfer.md", "transfer", TRANSFER)
    table = next(b for b in text_blocks(page.text) if b.startswith("**Transfer Props"))
    quote = list_quote(table)
    assert quote is not None and quote.items[0].startswith("checkboxProps：")  # the analyst's first rows
    claim = Claim(quote.text, [page.id], 0.8, items=quote.items)
    questions = {"穿梭框是什么？": "what", "如何使用穿梭框？": "use"}
    analysis = Analysis([Section("穿梭框是什么？"), Section("如何使用穿梭框？", [claim])], defining=[page.id])
    report = build_report(facet_plan("穿梭框", questions), analysis, Catalog([page]))
    [summary] = report.summary
    [used] = report.sections[1].claims
    return summary, used


def test_a_summary_opens_on_the_row_binding_the_components_value() -> None:
    # main opened 穿梭框's summary on checkboxProps, checked and data, and counted value among "另有 21 项"
    summary, used = _transfer_report()
    assert summary.items[0].startswith("value：目标数据列表数据。支持语法糖 v-model")
    assert summary.items[1].startswith("direction：穿梭框可操作方向")  # its choices, the subject's word
    assert len(summary.items) == SUMMARY_ROWS and summary.omitted == 14 - SUMMARY_ROWS
    # the use section quotes the central rows first (disabled: the keys row names it), then the others in the
    # table's order, and counts the rest
    assert used.items[:3] == summary.items and summary.items[2].startswith("disabled：")
    assert used.items[3].startswith("checkboxProps：") and used.omitted == 14 - len(used.items)
    text = component_page("local-t", "transfer/transfer.md", "transfer", TRANSFER).text
    assert listed_items(text, used.items) == 14


def test_a_row_is_central_by_what_it_says_not_by_where_it_stands() -> None:
    named = frozenset({"images"})
    # the value a component binds, a required row, a second binding, choices, named elsewhere, the subject
    assert row_weight("visible：隐藏/显示预览。支持语法糖 v-model 或 v-model:visible。", frozenset(), "") == 4
    assert row_weight("width (v-model)：宽度（类型：number）。", frozenset(), "") == 4  # Arco's name cell
    assert row_weight("rules：校验规则（类型：object，必传：Y）。", frozenset(), "") == 3
    assert row_weight("index：当前预览图片所在的下标。支持语法糖 v-model:index。", frozenset(), "") == 2
    assert row_weight("theme：进度条风格。可选项：line/plump/circle。", frozenset(), "进度条") == 2
    assert row_weight("images：图片数组。", named, "图片预览") == 1
    assert row_weight("zIndex：层级，默认为 3000（必传：N）。", named, "图片预览") == 0
    # equals keep the table's order; a row too long for the quote gives way to the next
    rows = ["a：第一。", "b：第二。", "c：第三。支持语法糖 v-model。", "d：" + "长" * 40 + "。可选项：x/y"]
    assert central_rows(rows, "", "", "X Props:", 60) == (
        "c：第三。支持语法糖 v-model。",
        "a：第一。",
        "b：第二。",
    )
    # the page's examples name a row: `:images="list"` in a demo
    page = '```vue\n<t-image-viewer v-model:visible="visible" :images="list" />\n```'
    assert (
        central_rows(["attach：挂载节点。", "images：图片数组。"], page, "", "P:", 900)[0]
        == "images：图片数组。"
    )
