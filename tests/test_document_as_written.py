"""Stored text as its author wrote it: a code span of spaces stays visible, an entity is its character once
in the stored text and escaped exactly once on the raw source page (never live HTML there)."""

from __future__ import annotations

from html.parser import HTMLParser

import markdown

from generator.documents.plain import markup_prose
from generator.site.pages.topic_raw import stored_text
from generator.topic.workspace import TEXT_FORMAT, raw_page_text

# datapackage's table-dialect.mdx:88-91: the default of headerJoin is a single space, in a code span
DIALECT = (
    "##### Delimited\n\n"
    "Their charactistics can be expressed the following properties:\n\n"
    "- [header](#header): `true` by default\n"
    "- [headerJoin](#headerJoin): ` ` by default\n"
    "- [delimiter](#delimiter): `,` by default\n"
)
# interledger 0038:335 and beego's orm.md:62 write `<` in code spans; beego's session README.md:256 writes it
# bare in a quote, and a page may write an entity
ANGLES = (
    "Requests MUST include an idempotency key within an `Idempotency-Key: <key>` header.\n\n"
    "例如`bulk<=1`代表每一批插入一条数据。\n\n"
    "- `Redis`: 配置文件信息如下所示，表示链接的地址，连接池，访问密码，没有保持为空：\n\n"
    '  > 注意：若使用 Redis 等引擎作为 session backend，请在使用前导入 < \\_ "github.com/beego/beego/v2/server/web/session/redis" >\n\n'
    "A &lt;script&gt; tag &amp; <b>bold</b> words.\n"
)


class Seen(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text += data


def _page(stored: str) -> tuple[str, Seen]:
    html = markdown.markdown(stored_text(stored), extensions=["tables", "fenced_code", "attr_list"])
    seen = Seen()
    seen.feed(html)
    return html, seen


def test_a_code_span_of_one_space_stays_as_a_quoted_space() -> None:
    stored = markup_prose(DIALECT, "mdx", structure=True)
    assert '- headerJoin: " " by default' in stored.splitlines()
    assert "- header: true by default" in stored.splitlines()  # other spans read as words, as before
    _, seen = _page(stored)
    assert 'headerJoin: " " by default' in seen.text


def test_a_table_cell_of_one_space_in_code_keeps_it() -> None:
    table = "## Options\n\n| Name | Default |\n| --- | --- |\n| `headerJoin` | ` ` |\n| `delimiter` | `,` |\n"
    stored = markup_prose(table, "markdown", structure=True)
    assert '- headerJoin (Default: " ").' in stored.splitlines()
    assert "- delimiter (Default: ,)." in stored.splitlines()


def test_angle_brackets_are_characters_in_the_stored_text_and_escaped_once_on_the_page() -> None:
    stored = markup_prose(ANGLES, "markdown", structure=True)
    assert "Idempotency-Key: <key> header" in stored and "例如bulk<=1代表" in stored
    assert '导入 < _ "github.com/beego/beego/v2/server/web/session/redis" >' in stored
    assert "- Redis: 配置文件信息" in stored
    assert "A <script> tag & bold words." in stored
    html, seen = _page(stored)
    assert "Idempotency-Key: <key> header" in seen.text and "bulk<=1" in seen.text
    assert "<script>" in seen.text and "script" not in seen.tags  # shown, never live
    assert "&amp;lt;" not in html and "&amp;amp;" not in html  # escaped once, not twice
    # another topic reading the page back gets the characters, not entities
    back = raw_page_text({"text_format": TEXT_FORMAT}, stored_text(stored))
    assert "Idempotency-Key: <key> header" in back and "&lt;" not in back
