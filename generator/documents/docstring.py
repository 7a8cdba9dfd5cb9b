"""Doc comments read as documents: a Python docstring (reST, Google or NumPy style) or a Go / JavaScript /
C-family comment block. Section headers ("Args:", "Returns:", "Parameters" over dashes) open sections of
their own, so they are never a summary; doctests are code. Lines are the docstring's own lines."""

from __future__ import annotations

import re

from ..text.sentences import DOCSTRING_SECTIONS
from .model import Section
from .rst import read_rst

_GOOGLE_SECTION = re.compile(rf"(?i)^(\s*)({DOCSTRING_SECTIONS})\s*:\s*$")
_COMMENT_MARKERS = re.compile(r"^\s*(?:/\*[*!]?|\*/|\*|//[/!]?|#)\s?")
# XML doc (C#) and HTML (Javadoc) markup around the words of a doc comment
_DOC_TAGS = re.compile(
    r"</?(?:summary|remarks|returns|para|p|b|i|em|strong|code|c|br|tt)\b[^<>]*>", re.IGNORECASE
)
# Javadoc/JSDoc inline tags: `{@link pkg.Type#member label}` (TSDoc: `{@link Type | label}`) reads as its label,
# else as the member it names;
# `{@code x}` as code; `{@literal x}`/`{@value x}` as their text; `{@inheritDoc}` as nothing
_INLINE_LINK = re.compile(r"\{@link(?:plain|code)?\s+([^\s{}|]+)\s*(?:\|?\s*([^{}|][^{}]*?))?\s*\}")
_INLINE_CODE = re.compile(r"\{@code\s+([^{}]*?)\s*\}")
_INLINE_TEXT = re.compile(r"\{@(?:literal|value)\s+([^{}]*?)\s*\}")
_INHERIT_DOC = re.compile(r"\{@inheritDoc\}\s?")
# XML doc (C#) references: `<see cref="T:Ns.Type"/>` reads as `Type`, `<see cref="X">text</see>` as text
_SEE_WITH_TEXT = re.compile(r'<see\s+(?:cref|href|langword)="[^"]*"\s*>([^<>]*)</see>', re.IGNORECASE)
_SEE_REFERENCE = re.compile(
    r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)="([^"]*)"\s*/>', re.IGNORECASE
)
_DOCTEST = re.compile(r"^\s*(?:>>>|\.\.\.)(?:\s|$)")


def read_docstring(text: str) -> tuple[Section, ...]:
    """A docstring's sections: its description first (heading ""), then one per section header."""
    return read_rst("\n".join(_docstring_lines(cleandoc(text).split("\n"))))


def comment_text(raw: str) -> str:
    """Comment text without its markers (`//`, `/** … */`, `*`, `#`) and doc markup (`<summary>`, `<p>`)."""
    lines = []
    for line in raw.splitlines():
        line = line.rstrip()
        line = line[:-2].rstrip() if line.endswith("*/") else line
        lines.append(_DOC_TAGS.sub("", _COMMENT_MARKERS.sub("", line, count=1)).strip())
    return inline_tags("\n".join(lines)).strip()


def inline_tags(text: str) -> str:
    """Javadoc/JSDoc inline tags and C# `<see …/>` references as the words a reader sees."""
    text = _INLINE_LINK.sub(lambda m: m.group(2) or _member_name(m.group(1)), text)
    text = _INLINE_CODE.sub(lambda m: f"`{m.group(1)}`", text)
    text = _INLINE_TEXT.sub(r"\1", _INHERIT_DOC.sub("", text))
    text = _SEE_WITH_TEXT.sub(r"\1", text)
    return _SEE_REFERENCE.sub(lambda m: _member_name(m.group(1)), text)


def _member_name(reference: str) -> str:
    """`org.jsoup.select.Selector` → `Selector`; `Gson#toJson(Object)` → `Gson.toJson(Object)`;
    `#select` → `select`; C#'s `T:FluentValidation.AbstractValidator`1` → `AbstractValidator`."""
    if "://" in reference:  # `{@link https://…}`: the address is what the reader sees
        return reference
    reference = re.sub(r"^[A-Z]:", "", reference).split("`")[0]
    owner, _, member = reference.partition("#")
    if "(" in owner:  # a C# method reference: `M:Ns.Type.Method(System.String)`
        owner, member = owner.split("(")[0], ""
    name = owner.rsplit(".", 1)[-1]
    return f"{name}.{member}" if name and member else name or member


def _docstring_lines(lines: list[str]) -> list[str]:
    """Google section headers as headings (their indented bodies dedented), doctests as indented code."""
    out: list[str] = []
    body_indent = -1
    in_doctest = False
    for line in lines:
        header = _GOOGLE_SECTION.match(line)
        in_doctest = bool(line.strip()) and (in_doctest or bool(_DOCTEST.match(line)))
        if header:
            out.append(f"## {header.group(2).title()}")
            body_indent = len(header.group(1)) + 1
        elif in_doctest:  # a doctest and its output: code, indented as Markdown reads code
            out.append(f"    {line.strip()}")
        elif body_indent >= 0 and line.strip() and len(line) - len(line.lstrip()) >= body_indent:
            out.append(line.strip())
        else:
            if line.strip():
                body_indent = -1
            out.append(line)
    return out


def cleandoc(text: str) -> str:
    """inspect.cleandoc's rule, keeping the leading blank lines (line numbers count from the first)."""
    lines = text.expandtabs(4).split("\n")
    rest = [line for line in lines[1:] if line.strip()]
    margin = min((len(line) - len(line.lstrip()) for line in rest), default=0)
    return "\n".join([lines[0].strip(), *(line[margin:].rstrip() for line in lines[1:])])
