"""A code block right after a sentence that introduces it belongs to that sentence, though the sentence ends on a
full stop: it points at the example ("For example, …", "…like this.") or names a name the example spells as
code (lowcode-engine's "我们需要在低代码引擎中注册 Setter，这样就可以通过 AltStringSetter 的名字在物料中使用了。" above
`registerSetter('AltStringSetter', AltStringSetter)`)."""

from __future__ import annotations

from generator.documents.plain import markup_prose
from generator.topic.opening_passages import opening_passages
from generator.topic.section_tree import text_sections
from generator.topic.sentences import points_at_shown

SETTER = (
    "# 自定义设置器\n\n## 自定义设置器\n\n### 注册 AltStringSetter\n\n"
    "我们需要在低代码引擎中注册 Setter，这样就可以通过 AltStringSetter 的名字在物料中使用了。\n\n"
    "```typescript\nimport AltStringSetter from './AltStringSetter';\n"
    "const registerSetter = window.AliLowCodeEngine.setters.registerSetter;\n"
    "registerSetter('AltStringSetter', AltStringSetter);\n```\n\n"
    "### 物料中使用\n\n我们需要将目标组件的属性值类型值配置到物料资源配置文件中。\n"
)


def test_a_sentence_naming_what_the_code_after_it_spells_is_quoted_with_that_code() -> None:
    text = markup_prose(SETTER, structure=True)
    [section] = [s for s in text_sections(text) if s.heading == "注册 AltStringSetter"]
    [passage] = opening_passages(section, 3, example_alone=True)
    assert passage.text.startswith("我们需要在低代码引擎中注册 Setter")
    assert "registerSetter('AltStringSetter', AltStringSetter);" in passage.code


def test_a_sentence_points_at_the_example_after_it_by_naming_it_or_pointing() -> None:
    code = "registerSetter('AltStringSetter', AltStringSetter);"
    assert points_at_shown("这样就可以通过 AltStringSetter 的名字在物料中使用了。", code)
    assert not points_at_shown("这样就可以通过 AltStringSetter 的名字在物料中使用了。")
    assert not points_at_shown("The setter is registered once, at start-up.", code)  # "Setter" is a word
    assert points_at_shown("For example, a client retries three times.")
    assert points_at_shown("You register it like this.")
