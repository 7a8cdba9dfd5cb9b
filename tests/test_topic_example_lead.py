"""A section opening on a one-line statement above its example is quoted as that statement with the example,
not as its heading turned label ("使用参考:"), which says nothing alone (issue #30 item 5)."""

from __future__ import annotations

from generator.topic.opening_passages import opening_passages
from generator.topic.section_tree import TextSection

CODE = "```bash\nmc /tmp/Test.java\n```"


def _shown(*blocks: str) -> list[str]:
    section = TextSection("使用参考", 2, blocks)
    return [p.text for p in opening_passages(section, 2, example_alone=True, shown_first=True)]


def test_a_statement_above_the_example_is_its_lead_in() -> None:
    shown = _shown("Memory Compiler/内存编译器，编译.java文件生成.class。", CODE)
    assert shown[0] == "Memory Compiler/内存编译器，编译.java文件生成.class。"
    assert "使用参考:" not in shown
    assert len(shown) == 1  # the statement is not quoted a second time without its example


def test_a_lead_leaning_on_what_came_before_leaves_the_heading_as_label() -> None:
    assert _shown("This compiles a Java source file into a class file in memory.", CODE)[0] == "使用参考:"


def test_a_caveat_above_the_example_is_no_lead_in() -> None:
    assert _shown("注意，jfr 只支持在 start时配置。如果是在stop时指定，则不会生效。", CODE)[0] == "使用参考:"
