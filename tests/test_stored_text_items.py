"""A stored source keeps every item and paragraph its author wrote: a term glossed after its colon, a
config key's value under its label, a section whose list is all it says; deepkb's own index lines still go."""

from __future__ import annotations

from generator.documents.plain import markup_prose
from generator.documents.prose import is_symbol_paragraph


def test_an_option_named_in_camel_case_keeps_the_sentences_after_it() -> None:
    # a design document's options list: the item for `method` stayed and the one for `dataSource` went, its
    # term a name of code (prose ratio 0), though four sentences follow it
    page = (
        "## Options\n\n"
        "- `method`: `quick` or `complete`. The default is `quick`.\n"
        "- `dataSource`: `zero` or `random`. The default is `zero`. The `random` source only works with the "
        "`complete` method. It may consume entropy on the host.\n"
    )
    stored = markup_prose(page, structure=True)
    assert "dataSource: zero or random. The default is zero. The random source only works" in stored
    assert "method: quick or complete." in stored
    # an error code and what it means, an option and its Chinese gloss
    assert not is_symbol_paragraph("`temINVALID_FLAG`: Invalid transaction flags set")
    assert not is_symbol_paragraph("out_dir: 指定项目生成路径，默认为当前路径")


def test_a_config_key_s_default_under_its_label_is_kept() -> None:
    # a scheduler plugin's config item: "默认值:" then the value in a code span went as a symbol listing
    page = (
        "## 配置项\n\n"
        "### apscheduler_config\n\n"
        "apscheduler 的配置对象，详见 apscheduler 的文档。\n\n"
        '默认值: `{ "apscheduler.timezone": "Asia/Shanghai" }`\n'
    )
    stored = markup_prose(page, structure=True)
    assert '默认值: { "apscheduler.timezone": "Asia/Shanghai" }' in stored


def test_a_section_of_labelled_links_is_not_left_empty() -> None:
    page = (
        "## Plugin runners\n\n"
        "- Java: https://github.com/apache/apisix-java-plugin-runner\n"
        "- Go: https://github.com/apache/apisix-go-plugin-runner\n"
        "- Python: https://github.com/apache/apisix-python-plugin-runner\n\n"
        "## References\n\n"
        "- https://example.org/spec/\n"
        "- https://example.org/notes/\n"
    )
    stored = markup_prose(page, structure=True)
    assert "Java: https://github.com/apache/apisix-java-plugin-runner" in stored
    assert "Python: https://github.com/apache/apisix-python-plugin-runner" in stored
    # a list that is all its section says stays, though its items are bare links
    assert "- https://example.org/notes/" in stored


def test_index_lines_and_markup_still_go() -> None:
    listing = (
        "Text.\n\n`expire_results` (function) `core/cache.py:82-99` — Removes old results and logs them.\n"
    )
    assert markup_prose(listing) == "Text."
    assert markup_prose("## In the code\n\n- `a.b` (function) `x.py:1-9`\n- `c.d` (class) `y.py:3-7`\n") == ""
    assert is_symbol_paragraph("goravel/framework: v1.15.0")
    assert is_symbol_paragraph("amount:String")
    assert is_symbol_paragraph("<demo-block type=\"form\" :config=\"[{ type: 'date', name: 'date' }]\">")
