"""A document's tables answer questions (issue 30 items 1, 4, 7): a props or options table survives into the
stored text as its rows, each a sentence under its columns' headers that reads alone, and a section of
reference tables ("### 属性", "## API", "### Countdown Props") answers how the subject is used."""

from __future__ import annotations

from generator.documents.plain import markup_prose
from generator.documents.table import row_sentences

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
