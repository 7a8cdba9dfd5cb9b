"""A doc comment written in HTML (Javadoc) is read as the Markdown it means, each block at its own source
lines: `<p>` paragraphs, `<ul><li>` items, `<h3>` headings, `<pre>` code (with `{@code …}` or `<code>`
inside, `@Override` kept as code), `<code>x</code>` spans. Markdown had dropped all of them as HTML blocks."""

from __future__ import annotations

from generator.documents import comment_text, read_text
from generator.documents.comment import doc_comment, inline_tags
from generator.repo.facts.prose import summary

GSON_LIKE = """package com.example;

/**
 * This is the main class for using Json. Json is typically used by first constructing a
 * {@code Json} instance and then invoking {@link #toJson(Object)} or {@link #fromJson(String, Class)}.
 *
 * <p>You can create a {@code Json} instance by invoking {@link #Json() new Json()} if the default
 * configuration is all you need.
 *
 * <p>Here is an example:
 *
 * <pre>{@code
 * Json json = new Json();
 * List<String> names = json.fromJson(text, LIST);
 * }</pre>
 *
 * <h3>Serialization</h3>
 *
 * <ul>
 *   <li>Use {@link #getAdapter(Class)} to obtain the adapter
 *   <li>Call <code>write()</code> on it, <b>never</b> {@code print()}
 * </ul>
 *
 * <pre class="code"><code class="java">
 *   &#064;Override
 *   public Map&lt;String, Object&gt; read() { return map; }
 * </code></pre>
 */
public final class Json {
}
"""


def _blocks(text: str) -> list[tuple[str, str, tuple[int, int], str]]:
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines, 1) if line.startswith("public final class"))
    comment = doc_comment(lines, start, start + 1, "java")
    assert comment is not None
    doc = read_text(comment.text, name="Json.java", markup=comment.markup)
    return [(block.kind, block.text, comment.span(block), section.heading) for section, block in doc.blocks()]


def test_javadoc_html_reads_as_paragraphs_items_headings_and_code_at_their_lines() -> None:
    found = _blocks(GSON_LIKE)
    assert found[0][:3] == (
        "paragraph",
        "This is the main class for using Json. Json is typically used by first constructing a `Json` "
        "instance and then invoking toJson(Object) or fromJson(String, Class).",
        (4, 5),
    )
    assert found[1][:3] == (
        "paragraph",
        "You can create a `Json` instance by invoking new Json() if the default configuration is all you need.",
        (7, 8),
    )
    assert found[2][:3] == ("paragraph", "Here is an example:", (10, 10))
    assert found[3][:3] == (
        "code",
        "Json json = new Json();\nList<String> names = json.fromJson(text, LIST);",
        (13, 14),
    )
    items = [(text, span, heading) for kind, text, span, heading in found if kind == "item"]
    assert items == [
        ("Use getAdapter(Class) to obtain the adapter", (20, 20), "Serialization"),
        ("Call `write()` on it, never `print()`", (21, 21), "Serialization"),
    ]
    assert found[-1][:3] == ("code", "@Override\npublic Map<String, Object> read() { return map; }", (25, 26))


def test_a_javadoc_opening_on_an_image_paragraph_is_summarised_by_its_first_sentence() -> None:
    raw = (
        '/**\n * <p align="left"><img src="logo.png" alt="Logo"/></p>\n'
        " * The library enables mock creation, verification and stubbing.\n *\n"
        " * <p>\n * This javadoc content is also available on the web page.\n */"
    )
    assert summary(comment_text(raw)) == "The library enables mock creation, verification and stubbing."


def test_a_link_to_a_method_with_several_parameters_reads_as_the_method() -> None:
    assert inline_tags("Call {@link TypeAdapter#write(JsonWriter, Object)} then") == (
        "Call TypeAdapter.write(JsonWriter, Object) then"
    )


def test_a_markdown_comment_without_html_blocks_keeps_its_indented_code() -> None:
    """JSDoc is Markdown: an inline `<code>` span is no sign of HTML, and indentation there means code."""
    text = (
        "/**\n * Render the <code>page</code>:\n *\n *     render(page, options)\n *\n * Then done.\n */\n"
        "function render(page, options) {}\n"
    )
    lines = text.split("\n")
    comment = doc_comment(lines, 8, 8, "javascript")
    assert comment is not None
    doc = read_text(comment.text, name="render.js", markup=comment.markup)
    assert [b.kind for _, b in doc.blocks()] == ["paragraph", "code", "paragraph"]
