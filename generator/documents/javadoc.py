"""A doc comment written in HTML, as Javadoc's is, read as the Markdown it means, line for line: `<p>` starts a
paragraph, `<ul>`/`<ol>` hold `<li>` items, `<h3>` is a heading, `<pre>` (with `<code>` or `{@code …}`
inside) is a code block, `<code>x</code>` a code span, `<b>` bold. Markdown reads such markup as HTML
blocks and drops them: gson's `Gson` class lost every `<p>` paragraph, both `<pre>` examples and its
"Serialization" steps; mockito's `ArgumentMatcher` its list of options and its examples.

Each line keeps its source line, so that a block read from the Markdown is cited where it is written (a
line split at a `<p>` gives two lines of the same source line). Entities (`&lt;`, `&#064;`) are decoded in
code, where Markdown would show them as written, and left to the Markdown reader elsewhere. Text is data:
the markup is read with regular expressions, never rendered.
"""

from __future__ import annotations

import html
import re
import textwrap

Numbered = list[tuple[int, str]]  # (1-based source line, text) of each line of a comment

# a comment is written in HTML when it uses block markup (a `<code>` span alone is no sign of it: Markdown
# comments (JSDoc) carry those too, and their indentation means code)
_HTML_BLOCK = re.compile(r"<(?:p|pre|ul|ol|li|h[1-6]|dl|dd|dt|blockquote)\b[^<>]*>", re.IGNORECASE)
_PRE_OPEN = re.compile(r"<pre\b[^<>]*>", re.IGNORECASE)
_PRE_CLOSE = re.compile(r"</pre\s*>", re.IGNORECASE)
_CODE_OPEN = re.compile(r"^\s*<code\b([^<>]*)>", re.IGNORECASE)
_CODE_CLOSE = re.compile(r"</code\s*>\s*$", re.IGNORECASE)
_LANGUAGE = re.compile(r"""class\s*=\s*["'](?:lang(?:uage)?-)?([\w+#-]+)["']""", re.IGNORECASE)
_CODE_TAG = re.compile(r"^\s*\{@code\s?")
# markup that breaks the text into blocks: a paragraph, a list, a definition list, a quote
_BREAK = re.compile(r"</?(?:p|ul|ol|dl|dt|dd|blockquote|table|tr)\b[^<>]*>|<td\b[^<>]*>", re.IGNORECASE)
_ITEM = re.compile(r"<li\b[^<>]*>", re.IGNORECASE)
_HEADING = re.compile(r"<h([1-6])\b[^<>]*>(.*?)</h\1\s*>", re.IGNORECASE)
_DROPPED = re.compile(r"</li\s*>|</td\s*>|</?(?:th|thead|tbody|caption|div|span)\b[^<>]*>|<img\b[^<>]*>|<br\s*/?>",
                      re.IGNORECASE)  # fmt: skip
_INLINE_CODE = re.compile(r"<(code|tt)\b[^<>]*>(.*?)</\1\s*>", re.IGNORECASE)
_BOLD = re.compile(r"<(b|strong)\b[^<>]*>(.*?)</\1\s*>", re.IGNORECASE)
_ITALIC = re.compile(r"<(i|em)\b[^<>]*>(.*?)</\1\s*>", re.IGNORECASE)
_LINK = re.compile(r"""<a\b[^<>]*?href\s*=\s*["']([^"']*)["'][^<>]*>(.*?)</a\s*>""", re.IGNORECASE)
_INLINE_MARKUP = re.compile(r"</?(?:code|tt|b|strong|i|em|a|span|font|u)\b[^<>]*>", re.IGNORECASE)


def is_html_comment(lines: Numbered) -> bool:
    """Whether the comment is written in HTML (Javadoc): it uses `<p>`, `<pre>`, `<ul>`, `<li>`, `<h3>` …"""
    return any(_HTML_BLOCK.search(text) for _, text in lines)


def html_markdown(lines: Numbered, language: str = "") -> Numbered:
    """The comment's HTML as Markdown, line for line (a line may become several of the same source line):
    paragraphs apart, list items, headings, fenced code in `language` unless the `<pre>` names another."""
    out: Numbered = []
    code: Numbered = []  # the lines of the `<pre>` block being read
    in_code, code_tag, fence = False, False, "```"
    for number, text in lines:
        while True:
            if in_code:
                closed = _PRE_CLOSE.search(text)
                body = text[: closed.start()] if closed else text
                code.append((number, body))
                if not closed:
                    break
                out.extend(_fenced(code, fence, code_tag, number))
                code, in_code = [], False
                text = text[closed.end() :]
                continue
            opened = _PRE_OPEN.search(text)
            out.extend(_prose(number, text[: opened.start()] if opened else text))
            if not opened:
                break
            rest = text[opened.end() :]
            inner = _CODE_OPEN.match(rest)
            named = _LANGUAGE.search(inner.group(1)) if inner else _LANGUAGE.search(opened.group(0))
            fence = "```" + (named.group(1).lower() if named else language)
            rest = rest[inner.end() :] if inner else rest
            code_tag = bool(_CODE_TAG.match(rest))
            text, in_code = _CODE_TAG.sub("", rest, count=1), True
    if in_code:
        out.extend(_fenced(code, fence, code_tag, code[-1][0] if code else 0))
    return out


def _fenced(code: Numbered, fence: str, code_tag: bool, closing: int) -> Numbered:
    """A `<pre>` block's lines as a fenced block: `</code>` and the `{@code …}` wrapper's closing brace taken
    off, inline markup (`<b>`) dropped, entities decoded, dedented, blank lines around it trimmed."""
    lines = [(n, _CODE_CLOSE.sub("", t)) for n, t in code]
    if code_tag:  # `<pre>{@code … }</pre>`: the last brace closes the tag, not the code
        last = next((i for i in range(len(lines) - 1, -1, -1) if "}" in lines[i][1]), None)
        if last is not None:
            n, t = lines[last]
            cut = t.rfind("}")
            lines[last] = (n, t[:cut] + t[cut + 1 :])
    lines = [(n, html.unescape(_INLINE_MARKUP.sub("", t)).rstrip()) for n, t in lines]
    while lines and not lines[0][1].strip():
        lines.pop(0)
    while lines and not lines[-1][1].strip():
        lines.pop()
    if not lines:
        return []
    dedented = textwrap.dedent("\n".join(t for _, t in lines)).split("\n")
    body = [(n, t) for (n, _), t in zip(lines, dedented, strict=True)]
    return [(body[0][0], ""), (body[0][0], fence), *body, (closing, "```"), (closing, "")]


def _prose(number: int, text: str) -> Numbered:
    """A line of prose as Markdown lines: a break at each paragraph or list tag, `- ` at each item, `###` for a
    heading, inline markup as Markdown; HTML indentation (meaningless there) taken off."""
    text = _HEADING.sub(lambda m: f"<p>{'#' * int(m.group(1))} {m.group(2)}<p>", text)
    text = _ITEM.sub("<p>- ", text)
    out: Numbered = []
    for i, piece in enumerate(_BREAK.split(text)):
        if i:
            out.append((number, ""))
        piece = _inline(_DROPPED.sub("", piece)).strip()
        if piece:
            out.append((number, piece))
    return out if out or text.strip() else [(number, "")]


def _inline(text: str) -> str:
    """`<code>x</code>` as `x` in backticks (entities decoded), bold and italics as Markdown, a link to a web
    address as a Markdown link and any other as its words."""
    text = _INLINE_CODE.sub(lambda m: f"`{html.unescape(_INLINE_MARKUP.sub('', m.group(2))).strip()}`", text)
    text = _BOLD.sub(lambda m: f"**{m.group(2).strip()}**" if m.group(2).strip() else "", text)
    text = _ITALIC.sub(lambda m: f"*{m.group(2).strip()}*" if m.group(2).strip() else "", text)
    text = _LINK.sub(lambda m: f"[{m.group(2)}]({m.group(1)})" if "://" in m.group(1) else m.group(2), text)
    return _INLINE_MARKUP.sub("", text)  # what is left open over lines (`<b>` here, `</b>` on the next)
