"""A stored source reads as its author wrote it: a raw source page shows its code fenced in its language, its
lists as lists and its prose escaped; another topic reads the text back as stored."""

from __future__ import annotations

from html.parser import HTMLParser

import markdown

from generator.site.pages.topic_raw import stored_text
from generator.topic import workspace as wsp

EXTENSIONS = ["tables", "fenced_code", "attr_list", "md_in_html", "admonition"]

# a stored text as documents/plain.py writes it: a list one block with the paragraph introducing it, a code
# block fenced with its language and its empty lines kept
STORED = (
    "### 自定义中间件\n\n"
    "中间件函数分为两个阶段，由 c.Next() 调用分隔：\n"
    "- c.Next() 之前 -- 此处的代码在请求到达主处理函数之前运行。\n"
    "  - 例如 <script>alert(1)</script> 记录开始时间。\n"
    "- c.Next() 之后 -- 此处的代码在主处理函数完成后运行。\n\n"
    "编写一个记录延迟的中间件：\n\n"
    "```go\nfunc Logger() gin.HandlerFunc {\n  return func(c *gin.Context) {\n    t := time.Now()\n\n"
    "    c.Next()\n    ok := regexp.MustCompile(`\\d+\\.\\d+`) // </code><script>x</script>\n  }\n}\n```\n\n"
    "**属性：**\n- threshold：触发刷新需要下拉多少距离。"
)


class Seen(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text += data


def _shown(text: str) -> Seen:
    seen = Seen()
    seen.feed(markdown.markdown(stored_text(text), extensions=EXTENSIONS))
    return seen


def test_a_raw_page_fences_its_code_in_its_language_with_the_empty_lines_it_holds() -> None:
    seen = _shown(STORED)
    assert [attrs for tag, attrs in seen.tags if tag == "code"] == [[("class", "language-go")]]
    assert "    t := time.Now()\n\n    c.Next()" in seen.text  # one block, not cut at its empty line
    assert "`\\d+\\.\\d+`" in seen.text  # literal, backslashes and all


def test_a_raw_page_shows_a_list_as_a_list_under_its_lead_in_and_nothing_live() -> None:
    seen = _shown(STORED)
    tags = [tag for tag, _ in seen.tags]
    assert tags.count("ul") == 3 and tags.count("li") == 4  # the nested item in its own list
    assert "由 c.Next() 调用分隔：" in seen.text and "- c.Next()" not in seen.text
    assert "属性：" in seen.text and "strong" in tags and "**" not in seen.text
    assert "script" not in tags and "<script>alert(1)</script>" in seen.text  # shown, never run
    assert all(not attrs for tag, attrs in seen.tags if tag != "code")


def test_another_topic_reads_a_raw_pages_text_back_as_stored() -> None:
    back = wsp.raw_page_text({"text_format": wsp.TEXT_FORMAT}, stored_text(STORED))
    code = STORED[STORED.index("```go") : STORED.index("```\n\n**")]
    assert code in back  # the example as written: no backslash taken from its pattern
    assert (
        "  - 例如 <script>alert(1)</script> 记录开始时间。" in back
    )  # the nested item two spaces deeper again
