"""A topic that a section heading names is answered from that section (issue 30 item 1): Element's form.md is
titled "Form 表单" and says what form validation is under "### 表单验证"; the report on 表单验证 answered from the
headings it borrowed (典型表单, 行内表单) and a W3C sentence quoted under 典型表单, stating none of its facts."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import zh_report_on

from generator.retrieval.scoring import tokens
from generator.topic.section_tree import text_sections
from generator.topic.subject_headings import headings_naming_whole, section_opening

# Element's form.md (packages docs/zh-CN/form.md), shortened
FORM = (
    "## Form 表单\n\n由输入框、选择器、单选框、多选框等控件组成，用以收集、校验、提交数据\n\n"
    "### 典型表单\n\n包括各种表单项，比如输入框、选择器、开关、单选框、多选框等。\n\n"
    ":::tip\nW3C 标准中有如下规定：\n\n> <i>When there is only one single-line text input field in a form, the user"
    " agent should accept Enter in that field as a request to submit the form.</i>\n:::\n\n"
    "### 行内表单\n\n当垂直方向空间受限且表单较简单时，可以在一行内放置表单。\n\n"
    "### 表单验证\n\n在防止用户犯错的前提下，尽可能让用户更早地发现并纠正错误。\n\n"
    "Form 组件提供了表单验证的功能，只需要通过 `rules` 属性传入约定的验证规则，并将 Form-Item 的 `prop` 属性设置为"
    "需校验的字段名即可。\n\n"
    '```html\n<el-form :model="ruleForm" :rules="rules"></el-form>\n```\n\n'
    "### 数字类型验证\n\n数字类型的验证需要在 v-model 处加上 .number 的修饰符，这是 Vue 自身提供的用于将绑定值转化为"
    " number 类型的修饰符。\n"
)
FORMS = [(("表单", "验证"), ("表单验证",), ("form", "valid"))]  # the run's spellings of 表单验证


def test_a_heading_naming_the_whole_subject_in_a_page_titled_for_part_of_it_is_its_section() -> None:
    from generator.documents.plain import markup_prose

    sections = text_sections(markup_prose(FORM, structure=True))
    # "数字类型验证" names one word of it, as the title does: neither is the subject's section
    assert headings_naming_whole(sections, FORMS, tokens, "Form 表单") == {"表单验证"}
    opening = section_opening(sections, {"表单验证"}, FORMS, tokens)
    assert opening is not None and opening.text.startswith("Form 组件提供了表单验证的功能")
    # a page titled after the whole subject, or after none of it, has no such section
    assert headings_naming_whole(sections, FORMS, tokens, "表单验证") == set()
    assert headings_naming_whole(sections, FORMS, tokens, "Input 输入框") == set()


def test_a_report_on_a_section_of_a_page_answers_from_that_section(kb_root: Path) -> None:
    _, _, report = zh_report_on(kb_root, "form.md", FORM, "表单验证")
    summary = report.split("## 摘要", 1)[1].split("\n## ", 1)[0]
    assert "Form 组件提供了表单验证的功能，只需要通过 rules 属性传入约定的验证规则" in summary
    assert "W3C" not in report and "single-line" not in report and "典型表单" not in report
