"""Model prose → safe markdown: the structure we allow (headings, paragraphs, lists, fenced code, inline
code, bold) kept, everything else escaped, and every `path:start-end` citation checked against the pinned
revision (generator/repo/analyze/citations.py) and linked, or dropped and counted.

Model output is untrusted: no HTML, link or image from the model reaches a page; the only links in the result
are the permalinks built here.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from generator.repo.analyze.citations import CITATION_RE, Linker, looks_like_file
from generator.repo.model import Citation
from generator.site.pages import diagrams
from generator.site.text import Markdown, code_block, md_escape, md_inline

_TOKEN_RE = re.compile(rf"`(?P<code>[^`\n]+)`|{CITATION_RE.pattern}")
_DROPPED = "\x00"


def citation_markdown(citation: Citation) -> Markdown:
    """`path:a-b` as a link to its permalink, or as inline code when there is no web view."""
    span = f"{citation.start}" if citation.start == citation.end else f"{citation.start}-{citation.end}"
    text = f"{citation.path}:{span}"
    if citation.url:
        return Markdown(f"[{md_inline(text)}]({citation.url})")
    return inline_code(text)


_CODE_SAFE = re.compile(r"[^`|\n<>&]{1,200}")  # text that cannot leave a code span or a table cell
_CODE_ESCAPED = re.compile(r"[^`|\n]{1,200}")  # …once its `<`, `>` and `&` are written as entities
_INERT = re.compile(r"[\\*_\[\]{}~:]")  # Markdown still reads these between HTML tags: entities too


def inline_code(text: str) -> Markdown:
    """Untrusted text as inline code (inert), or escaped text when it could break out of the span or a table.
    Code holding `<`, `>` or `&` (C#'s `Func<A, B>`, rayon's `&mut [T]`) is an HTML code element with them
    as entities: Markdown shows a code span's text as written, but the page source never holds a `<b>`."""
    if _CODE_SAFE.fullmatch(text):
        return Markdown(f"`{text}`")
    if _CODE_ESCAPED.fullmatch(text):
        return Markdown(f"<code>{_INERT.sub(lambda m: f'&#{ord(m.group(0))};', html.escape(text))}</code>")
    return md_inline(text)


def code_link(text: str, url: str) -> Markdown:
    """A name or path as inline code, linked to `url` when there is one (a web view of the code)."""
    code = inline_code(text)
    return Markdown(f"[{code}]({url})") if url else code


@dataclass
class RenderedText:
    markdown: Markdown
    citations: list[Citation] = field(default_factory=list)
    dropped: int = 0


def render_model_markdown(text: str, linker: Linker, top_level: int = 2) -> RenderedText:
    """Untrusted model markdown → safe markdown with checked citations (see the module docstring)."""
    out = RenderedText(Markdown(""))
    lines: list[str] = []
    fence: list[str] | None = None
    fence_lang = ""
    for raw in text.replace("\r\n", "\n").split("\n"):
        opener = re.match(r"^\s*(`{3,}|~{3,})\s*([\w+-]*)", raw)
        if fence is not None:
            if opener and not opener.group(2):
                lines.append(_model_fence(fence, fence_lang))
                fence = None
            else:
                fence.append(raw)
            continue
        if opener:
            fence, fence_lang = [], opener.group(2)
            continue
        lines.append(_render_line(raw, linker, out, top_level))
    if fence is not None:
        lines.append(_model_fence(fence, fence_lang))
    out.markdown = Markdown(re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n")
    return out


def _model_fence(lines: list[str], language: str) -> str:
    """A model's fenced block as code. A mermaid block runs in the reader's browser (`click` callbacks,
    `javascript:` links), so it stays a diagram only in the shapes our own diagrams use; else it is shown as text."""
    source = "\n".join(lines)
    if language.lower() == "mermaid":
        try:
            diagrams.validate(source)
        except diagrams.MermaidError:
            language = "text"
    return code_block(source, language)


def _render_line(raw: str, linker: Linker, out: RenderedText, top_level: int = 2) -> str:
    if not raw.strip():
        return ""
    heading = re.match(r"^\s*(#{1,6})\s+(.*?)\s*#*\s*$", raw)
    if heading:
        # the page title is the only h1; a model's headings sit below the section that holds them
        level = min(max(len(heading.group(1)), 2) + top_level - 2, 5)
        return "#" * level + " " + render_inline(heading.group(2), linker, out)
    item = re.match(r"^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$", raw)
    if item:
        depth = min(len(item.group(1).replace("\t", "    ")) // 2, 3)
        marker = "-" if item.group(2) in "-*+" else item.group(2)[:-1] + "."
        return "    " * depth + f"{marker} " + render_inline(item.group(3), linker, out)
    return render_inline(raw.strip(), linker, out)


def render_inline(text: str, linker: Linker, out: RenderedText) -> str:
    """One line of model prose: citations checked and linked, inline code kept, everything else escaped."""
    rendered: list[str] = []
    pending = ""  # raw text not escaped yet
    position = 0
    for match in _TOKEN_RE.finditer(text):
        pending += text[position : match.start()]
        position = match.end()
        kind, value = _token(match, linker, out)
        if kind == "plain":
            pending += value
        elif kind == "dropped":
            pending += _DROPPED
        else:
            rendered += [_escape_plain(pending), value]
            pending = ""
    rendered.append(_escape_plain(pending + text[position:]))
    return "".join(rendered).strip()


def _token(match: re.Match[str], linker: Linker, out: RenderedText) -> tuple[str, str]:
    """("markdown", text) ready to emit, ("plain", raw text to escape) or ("dropped", "")."""
    code = match.group("code")
    cited: re.Match[str] | None = match
    if code is not None:
        cited = CITATION_RE.fullmatch(code.strip())
        if cited is None or not looks_like_file(cited.group("path")):
            return "markdown", f"`{code}`"
    assert cited is not None
    if not looks_like_file(cited.group("path")):
        return "plain", match.group(0)
    end = int(cited.group("end")) if cited.group("end") else None
    citation = linker.check(cited.group("path"), int(cited.group("start")), end)
    if citation is None:
        out.dropped += 1
        return "dropped", ""
    out.citations.append(citation)
    return "markdown", citation_markdown(citation)


def _escape_plain(text: str) -> str:
    if _DROPPED in text:
        # a dropped citation leaves no "( )", "(, )" or dangling comma behind
        text = re.sub(rf"\(\s*(?:{_DROPPED}\s*[,;]?\s*)+\)", "", text)
        text = re.sub(rf"\s*[,;]\s*{_DROPPED}", "", text)
        text = re.sub(rf"{_DROPPED}\s*[,;]\s*", "", text)
        text = text.replace(_DROPPED, "")
        text = re.sub(r" {2,}", " ", text)
    escaped = md_escape(text)
    # bold is the one inline emphasis we let through; its content is already escaped
    return re.sub(r"\\\*\\\*(?=\S)(.+?)(?<=\S)\\\*\\\*", r"**\1**", escaped)
