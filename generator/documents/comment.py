"""Doc comments read from source lines: the `//` lines or `/** … */` block above a definition, a Python
class's docstring, or a Go package's comment, found by position (never by parsing the file), cleaned of its
markers, with the source line it starts on. The text is Markdown (Go doc comments and JSDoc/TSDoc block tags
turned into it) or a docstring, for `read_text` to read as a document. `comment_text` cleans a comment the
facts found in the syntax tree the same way (markers, XML and HTML doc markup, inline tags).

A Go package's documentation is the doc comment above its `package` clause, which pkg.go.dev shows as the
package's page (robfig/cron's doc.go holds its usage, its spec format and its time zones): a heading (`#
Heading`, or an old-style line standing alone before a paragraph) is a section, an indented span is code,
an indented bullet or number is a list item. A Rust doc comment is rustdoc's Markdown (its code Rust unless
the fence says otherwise, doctest lines it hides left out); a crate's `//!` docs opening its `lib.rs` are the
crate's page on docs.rs, as a Go package's comment is on pkg.go.dev.
"""

from __future__ import annotations

import ast
import itertools
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .docstring import cleandoc
from .javadoc import html_markdown, is_html_comment
from .model import Block, Document

_LINE_COMMENT = ("go", "rust", "swift")
# JSDoc/TSDoc block tags: what the type is is told before them or under @remarks; parameters, returns and
# visibility markers describe pieces, never the whole
_TAG = re.compile(r"^@(\w+)\s*(.*)$")
_KEPT_TAGS = frozenset({"remarks", "example", "defaultvalue", "default", "summary", "description"})
# … and a comment may say what it documents only under @summary and @description (date-fns' 338 functions,
# hono's and svelte's): prose like @remarks
_PROSE_TAGS = frozenset({"remarks", "summary", "description"})
_FENCE = re.compile(r"^\s*(```|~~~)")
# a reST directive that dates a change ("versionadded", "versionchanged", "deprecated"): release notes, not
# what the type does
_VERSION_NOTE = re.compile(r"^(\s*)\.\.\s+(?:versionadded|versionchanged|deprecated)::")
_DOC_OPEN = re.compile(r"""^\s*([rRuUbB]{0,2})(\"\"\"|\'\'\')""")
_ENDS_HEADER = re.compile(r":\s*(?:#.*)?$")  # the colon that ends `class Name(…):`
HEADER_LINES = 30  # a class header longer than this is not looked into
_COMMENT_MARKERS = re.compile(r"^\s*(?:/\*[*!]?|\*/|\*|//[/!]?|#)\s?")
# XML doc (C#) and HTML (Javadoc) markup around the words of a doc comment
_DOC_TAGS = re.compile(
    r"</?(?:summary|remarks|returns|para|p|b|i|em|strong|code|c|br|tt)\b[^<>]*>", re.IGNORECASE
)
# Javadoc/JSDoc inline tags: `{@link pkg.Type#member label}` (TSDoc: `{@link Type | label}`) reads as its label,
# else as the member it names;
# `{@code x}` as code; `{@literal x}`/`{@value x}` as their text; `{@inheritDoc}` as nothing
# the reference may name a method's parameters with spaces between them: `{@link #fromJson(String, Class)}`
_INLINE_LINK = re.compile(
    r"\{@link(?:plain|code)?\s+([^\s{}|(]*(?:\([^(){}]*\))?)\s*(?:\|?\s*([^{}|][^{}]*?))?\s*\}"
)
_INLINE_CODE = re.compile(r"\{@code\s+([^{}]*?)\s*\}")
_DOC_LINK = re.compile(r"(?<![\w\])`\\\[])\[`?\*?([A-Za-z_][\w.:#]*\w)`?\](?![(\[:])")
# …tried where a code span does not start first: in `&mut [T]` or `&[u8]` the brackets are code, not a link
_DOC_LINK_OR_CODE = re.compile(_DOC_LINK.pattern + r"|(`+)[^`].*?\2")
_INLINE_TEXT = re.compile(r"\{@(?:literal|value)\s+([^{}]*?)\s*\}")
_INHERIT_DOC = re.compile(r"\{@inheritDoc\}\s?")
# XML doc (C#) references: `<see cref="T:Ns.Type"/>` reads as `Type`, `<see cref="X">text</see>` as text
_SEE_WITH_TEXT = re.compile(r'<see\s+(?:cref|href|langword)="[^"]*"\s*>([^<>]*)</see>', re.IGNORECASE)
_SEE_REFERENCE = re.compile(
    r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)="([^"]*)"\s*/>', re.IGNORECASE
)
_PACKAGE = re.compile(r"^package\s+(\w+)")
# a Go marker comment, read by code generators and never by a reader: `+optional`, `+k8s:deepcopy-gen=false`,
# `+kubebuilder:validation:Type:=""`, `+kubebuilder:default:="30s"` (chainsaw's APIs shard was described by
# "Projection can be any type. +k8s:deepcopy-gen=false +kubebuilder:validation:XPreserveUnknownFields …")
GO_MARKER = re.compile(r"^\+[a-z][\w.-]*(?::[\w.-]+)*(?:(?::=|=)\S.*)?$")
_LIST_ITEM = re.compile(r"^\s+(?:[-*+•]|\d+[.)])\s+")
# an old-style heading: one capitalised line with no closing punctuation, standing alone before a paragraph
_OLD_HEADING = re.compile(r"^[A-Z][^.,;:!?()\[\]{}`\"]*[A-Za-z0-9]$")
MIN_LINES = 6  # a shorter package comment is a sentence about the package, not its documentation
Numbered = list[tuple[int, str]]  # (1-based source line, text) of each line of a comment being cleaned


def comment_text(raw: str) -> str:
    """Comment text without its markers (`//`, `/** … */`, `*`, `#`) and doc markup (`<summary>`, `<p>`)."""
    numbered: Numbered = []
    for number, line in enumerate(raw.splitlines()):
        line = line.rstrip()
        line = line[:-2].rstrip() if line.endswith("*/") else line
        numbered.append((number, _COMMENT_MARKERS.sub("", line, count=1)))
    if is_html_comment(numbered):  # Javadoc: `<p>` parts paragraphs (mockito's opens on a `<p><img></p>`)
        numbered = html_markdown(numbered)
    said = (_DOC_TAGS.sub("", line).strip() for _, line in numbered)
    return inline_tags("\n".join(line for line in said if not GO_MARKER.match(line))).strip()


def inline_tags(text: str) -> str:
    """Javadoc/JSDoc inline tags, C# `<see …/>` references and KDoc/rustdoc/Go doc links (`doc_links`) as
    the words a reader sees."""
    text = doc_links(_INLINE_LINK.sub(lambda m: m.group(2) or _member_name(m.group(1)), text))
    text = _INLINE_CODE.sub(lambda m: f"`{m.group(1)}`", text)
    text = _INLINE_TEXT.sub(r"\1", _INHERIT_DOC.sub("", text))
    text = _SEE_WITH_TEXT.sub(r"\1", text)
    return _SEE_REFERENCE.sub(lambda m: _cref_name(m.group(1)), text)


def _cref_name(reference: str) -> str:
    """A C# reference as its name; a generic one (`ResiliencePipelineRegistry{TKey}`, XML's spelling of
    `<TKey>`) as the code C# writes, which no Markdown reader takes for a tag."""
    name = _member_name(reference)
    if "{" not in name or "://" in name:
        return name
    return f"`{name.replace('{', '<').replace('}', '>')}`"


def doc_links(text: str) -> str:
    """KDoc's `[Buffer]`, rustdoc's [`Client`] and Go's `[bytes.Buffer]` link a symbol by its name: the name
    as code (Markdown showed "[Buffer]" as written). Never an index (`items[i]`, `a[key]`), a reference link
    (`[text][ref]`, `[text](url)`), its definition (`[ref]: url`) or brackets inside code (`&mut [T]`)."""
    return _DOC_LINK_OR_CODE.sub(lambda m: f"`{m.group(1)}`" if m.group(1) else m.group(0), text)


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


@dataclass(frozen=True)
class Comment:
    """A doc comment: its text without comment markers, the markup `read_text` reads it as ("markdown" or
    "docstring"), and the 1-based source line of each line of the text, so that a block read from it is
    cited at its own lines (a line the cleaning wrote, a fence around an `@example`, has its tag's line)."""

    text: str
    markup: str
    lines: tuple[int, ...]

    def span(self, block: Block) -> tuple[int, int]:
        """The source lines of a block read from the text; a code block's own, without its fences."""
        start, end = block.start, block.end
        if block.kind == "code":
            start += 1 if _FENCE.match(self.text.split("\n")[start - 1]) else 0
            end = start + block.text.count("\n")
        return self.lines[start - 1], self.lines[min(end, len(self.lines)) - 1]

    def at_source(self, document: Document) -> Document:
        """`document`, read from this comment's text, with each section and block at its source lines."""

        def line(n: int) -> int:
            return self.lines[min(max(n, 1), len(self.lines)) - 1]

        sections = tuple(
            replace(
                section,
                start=line(section.start),
                end=line(section.end),
                blocks=tuple(replace(b, start=self.span(b)[0], end=self.span(b)[1]) for b in section.blocks),
            )
            for section in document.sections
        )
        return replace(document, sections=sections)


def _comment(numbered: Numbered, markup: str) -> Comment:
    return Comment("\n".join(text for _, text in numbered), markup, tuple(n for n, _ in numbered))


def comment_above(lines: Sequence[str], index: int) -> tuple[int, list[str]]:
    """The comment ending on the 0-based line `index`, as written: its run of `//` lines, or the `/* … */`
    block it closes; (its 0-based first line, its lines), no lines when `index` ends no comment."""
    if index < 0:
        return 0, []
    if not lines[index].lstrip().startswith("//") and lines[index].rstrip().endswith("*/"):
        opening = next((i for i in range(index, -1, -1) if lines[i].lstrip().startswith("/*")), None)
        return (opening, list(lines[opening : index + 1])) if opening is not None else (index + 1, [])
    first = index + 1
    while first > 0 and lines[first - 1].lstrip().startswith("//"):
        first -= 1
    return first, list(lines[first : index + 1])


def uncommented(line: str) -> str:
    """A `//` (or `///`) comment line's text, one space after the marker taken off."""
    text = line.lstrip().removeprefix("//").removeprefix("/")
    return text[1:] if text.startswith(" ") else text


def doc_comment(lines: Sequence[str], start: int, end: int, language: str) -> Comment | None:
    """The doc comment of the definition at 1-based lines `start`–`end` of a file in `language`: a Python
    class's docstring, the `//` lines above it (Go, Rust, Swift, or any language writing them), else a
    `/** … */` block, which may stand one blank line above."""
    if language == "python":
        return _docstring(lines, start, end)
    above = start - 2  # the 0-based line just above the definition
    while above >= 0 and lines[above].lstrip().startswith("@") and language != "go":
        above -= 1  # decorators and annotations stand between a comment and its class
    if language in _LINE_COMMENT or (above >= 0 and lines[above].lstrip().startswith("//")):
        if above >= 0 and not lines[above].lstrip().startswith("//"):
            return None
        first, raw = comment_above(lines, above)
        if language == "rust":
            numbered = rustdoc_markdown(list(enumerate((uncommented(line) for line in raw), first + 1)))
            return _comment(numbered, "markdown") if numbered else None
        body = _linked(doc_markdown([uncommented(line) for line in raw]))
        return _comment(list(enumerate(body, first + 1)), "markdown") if body else None
    if not language:
        return None
    if above >= 0 and not lines[above].strip():
        above -= 1  # a JSDoc block may stand one blank line above
    opening, raw = comment_above(lines, above)
    if not raw or not raw[0].lstrip().startswith("/**"):
        return None
    numbered = list(enumerate(_unstarred(raw), opening + 1))
    if is_html_comment(numbered):  # Javadoc: `<p>`, `<pre>`, `<ul>` read as the Markdown they mean
        numbered = html_markdown(numbered, language)
    return _comment(_inline_tags_by_line(_block_tags(numbered)), "markdown")


def _linked(body: list[str]) -> list[str]:
    """`doc_links` on the prose lines of a `//` comment read as Markdown: code (fenced, or indented with a tab
    by doc_markdown) is shown as written."""
    out, fenced = [], False
    for line in body:
        fenced = not fenced if _FENCE.match(line) else fenced
        out.append(line if fenced or _FENCE.match(line) or line.startswith("\t") else doc_links(line))
    return out


def _unstarred(raw: Sequence[str]) -> list[str]:
    """A `/** … */` block's lines without its markers, each line's own indentation past `* ` kept."""
    out = []
    for line in raw:
        text = line.strip()
        text = (
            text.removeprefix("/**").removesuffix("*/") if text.startswith("/**") else text.removesuffix("*/")
        )
        stripped = line.lstrip()
        if stripped.startswith("*") and not stripped.startswith("*/") and not stripped.startswith("/**"):
            text = stripped[1:]
            text = text[1:] if text.startswith(" ") else text
            text = text.removesuffix("*/").rstrip()
        out.append(text.rstrip())
    return out


def _block_tags(lines: Numbered) -> Numbered:
    """JSDoc/TSDoc block tags as Markdown: `@remarks`, `@summary` and `@description` are prose, `@example`
    code (fenced when it is not), `@defaultValue x` "Default: x"; every other tag (`@param`, `@returns`,
    `@public`…) dropped with its lines. A line written here has the tag's line."""
    out: Numbered = []
    tag, at = "", 0
    example: Numbered = []

    def close_example() -> None:
        if example:
            body = example if any(_FENCE.match(line) for _, line in example) else _fenced(example)
            out.extend([(at, ""), *body, (body[-1][0], "")])
            example.clear()

    fenced = False  # inside a code block (a `<pre>` read as one): `@Override` there is code, not a tag
    for number, line in lines:
        if tag != "example" and _FENCE.match(line):
            fenced = not fenced
        match = None if fenced else _TAG.match(line.strip())
        if match:
            close_example()
            tag, at = match.group(1).lower(), number
            rest = match.group(2).strip()
            if tag in ("defaultvalue", "default") and rest:
                out.extend([(at, ""), (at, f"Default: {rest}")])
            elif tag in _PROSE_TAGS and rest:
                out.extend([(at, ""), (at, rest)])
            elif tag in _PROSE_TAGS:
                out.append((at, ""))
            elif tag == "example" and rest:
                out.extend([(at, ""), (at, _CAPTION.sub(r"\1", rest) + ":")])
            continue
        if tag == "example" and not example and (caption := _CAPTION.fullmatch(line.strip())):
            out.extend([(number, ""), (number, caption.group(1) + ":")])  # the example's title
        elif tag == "example":
            example.append((number, line))
        elif not tag or tag in _KEPT_TAGS:
            out.append((number, line))
    close_example()
    return out


# JSDoc's title of an example (`@example <caption>Modern Use Case</caption>`, or on the line below): read as
# HTML, it opened a block that swallowed the fence under it, and reselect's example read as run-on prose
_CAPTION = re.compile(r"<caption>\s*(.*?)\s*</caption>", re.IGNORECASE)


def _fenced(example: Numbered) -> Numbered:
    """An `@example`'s lines as a fenced block: dedented, without the blank lines around them."""
    dedented = textwrap.dedent("\n".join(line for _, line in example)).split("\n")
    body = [(number, line) for (number, _), line in zip(example, dedented, strict=True)]
    while len(body) > 1 and not body[-1][1]:
        body.pop()
    while len(body) > 1 and not body[0][1]:
        body.pop(0)
    return [(body[0][0], "```"), *body, (body[-1][0], "```")]


# an inline tag a line leaves open (`{@link Type` … `label}` on the next): read with the line it closes on
_OPEN_TAG = re.compile(r"\{@[^}]*$")


def _inline_tags_by_line(lines: Numbered) -> Numbered:
    """Inline tags read as their words line by line, a tag broken over lines carried whole onto the line it
    closes on; a line only a dropped tag held (`{@inheritDoc}`) goes."""
    out: Numbered = []
    carried, at = "", 0
    fenced = False  # code is shown as written: `{@link` there is code
    for number, line in lines:
        if _FENCE.match(line) and not carried:
            fenced = not fenced
            out.append((number, line))
            continue
        if fenced:
            out.append((number, line))
            continue
        if carried and line.strip():
            line, carried = f"{carried} {line.lstrip()}", ""
        elif carried:
            out.append((at, carried))
            carried = ""
        opened = _OPEN_TAG.search(line)
        if opened:
            carried, at, line = opened.group(0), number, line[: opened.start()]
        if line.strip() or not opened:
            out.append((number, line))
    out += [(at, carried)] if carried else []
    kept: Numbered = []
    for n, line in out:
        fenced = not fenced if _FENCE.match(line) else fenced
        if fenced or _FENCE.match(line):
            kept.append((n, line))
        elif not line.strip() or inline_tags(line).strip():
            kept.append((n, inline_tags(line)))
    return kept


def _docstring(lines: Sequence[str], start: int, end: int) -> Comment | None:
    """A Python class's docstring: the triple-quoted string that opens its body, read without parsing the
    class (a class of a thousand lines is parsed for nothing)."""
    header = next(
        (i for i in range(start - 1, min(end, start + HEADER_LINES)) if _ENDS_HEADER.search(lines[i])), None
    )
    first = next((i for i in range((header or 0) + 1, end) if lines[i].strip()), None)
    return _string_at(lines, first, end) if header is not None else None


def module_docstring(lines: Sequence[str]) -> Comment | None:
    """A Python module's docstring: the triple-quoted string before its first statement (comments, a
    shebang and blank lines may stand above it)."""
    first = next(
        (
            i
            for i in range(min(len(lines), HEADER_LINES))
            if lines[i].strip() and not lines[i].lstrip().startswith("#")
        ),
        None,
    )
    return _string_at(lines, first, len(lines))


def _string_at(lines: Sequence[str], first: int | None, end: int) -> Comment | None:
    """The triple-quoted string opening at 0-based line `first` (before `end`), cleaned, as a comment."""
    opening = _DOC_OPEN.match(lines[first]) if first is not None else None
    if opening is None or first is None:
        return None
    quote = opening.group(2)
    rest = lines[first][opening.end() :]
    last = first if quote in rest else next((i for i in range(first + 1, end) if quote in lines[i]), None)
    if last is None:
        return None
    try:
        value = ast.literal_eval("\n".join(lines[first : last + 1]).strip())
    except (SyntaxError, ValueError):
        return None
    if not isinstance(value, str) or not value.strip():
        return None
    cleaned = cleandoc(value).split("\n")
    return _comment(_without_version_notes(list(enumerate(cleaned, first + 1))), "docstring")


def _without_version_notes(doc: Numbered) -> Numbered:
    """A docstring without its `.. versionadded::` / `.. versionchanged::` / `.. deprecated::` directives
    and the lines indented under them."""
    out: Numbered = []
    inside: int | None = None  # the directive's indentation while its body is skipped
    for number, line in doc:
        if inside is not None and (not line.strip() or len(line) - len(line.lstrip()) > inside):
            continue
        note = _VERSION_NOTE.match(line)
        inside = len(note.group(1)) if note else None
        if note is None:
            out.append((number, line))
    return out


# --------------------------------------------------------------------------- Go doc comments


def package_comment(text: str) -> tuple[str, int, list[str]]:
    """(package name, 0-based first line, lines) of the comment right above a Go file's `package` clause:
    `//` lines without their markers, or a `/* … */` block's lines as written; ("", 0, []) without one."""
    lines = text.split("\n")
    clause = next((i for i, line in enumerate(lines) if _PACKAGE.match(line)), None)
    if clause is None:
        return "", 0, []
    match = _PACKAGE.match(lines[clause])
    first, raw = comment_above(lines, clause - 1)
    if raw and not raw[0].lstrip().startswith("//"):  # a /* … */ block: its lines as written
        body = [line.rstrip() for line in raw]
        body[0] = body[0].lstrip().removeprefix("/*")
        body[-1] = body[-1].removesuffix("*/")
        return (match.group(1) if match else ""), first, body
    return (match.group(1) if match else ""), first, [uncommented(line) for line in raw]


def package_doc(text: str) -> tuple[str, str]:
    """(package name, Markdown) of a Go file's package doc comment, the Markdown holding as many lines as
    `text` (blank outside the comment) so each block keeps its source lines; ("", "") without one of at
    least MIN_LINES lines of text."""
    package, first, body = package_comment(text)
    if sum(1 for line in body if line.strip()) < MIN_LINES:
        return "", ""
    out = [""] * (text.count("\n") + 1)
    out[first : first + len(body)] = _linked(doc_markdown(body))
    return package, "\n".join(out)


def doc_markdown(body: list[str]) -> list[str]:
    """Go doc comment lines as Markdown, one for one: headings, code and list items marked."""
    out: list[str] = []
    indent = 0  # the current code block's own indentation, taken off its lines (kept inside it)
    for i, line in enumerate(body):
        if line.strip() and line[:1] in {" ", "\t"} and (not out or not out[-1].startswith("\t")):
            block = itertools.takewhile(lambda ln: not ln.strip() or ln[:1] in {" ", "\t"}, body[i:])
            indent = min(len(ln) - len(ln.lstrip()) for ln in block if ln.strip())
        before = body[i - 1] if i > 0 else ""
        after = body[i + 1] if i + 1 < len(body) else ""
        following = body[i + 2] if i + 2 < len(body) else ""
        if line.startswith("# "):
            out.append("#" + line)
        elif line[:1] in {" ", "\t"} and line.strip():
            item = _LIST_ITEM.match(line)
            out.append("- " + line[item.end() :] if item else "\t" + line[indent:])
        elif (
            i > 0
            and not before.strip()
            and not after.strip()
            and following[:1] not in {"", " ", "\t"}
            and _OLD_HEADING.match(line)
        ):
            out.append("## " + line)
        else:
            out.append(line)
    return out


# --------------------------------------------------------------------------- Rust doc comments

# rustdoc reads a doc comment as Markdown, where a code block is Rust unless its fence names another
# language: the attributes after it (`rust,ignore`, `no_run`, `should_panic`, `edition2021`) tell the doctest
# runner how to run it
_RUSTDOC_ATTRIBUTE = re.compile(
    r"^(?:rust|ignore(?:-[\w-]+)?|no_run|should_panic|compile_fail|test_harness|standalone_crate"
    r"|edition\d{4}|E\d{4})$"
)
_FENCE_LINE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`]*)$")
_HIDDEN = re.compile(r"^\s*#(?:\s|$)")  # a doctest line rustdoc compiles but never shows
_CRATE_PREAMBLE = re.compile(r"^\s*(?:$|//(?![/!])|#!\[.*\]\s*$)")  # blank, a plain comment, `#![attr]`


def rust_fence(info: str) -> bool:
    """Whether a fence's info string opens a Rust block as rustdoc reads it: none, `rust`, or only doctest
    attributes."""
    return all(_RUSTDOC_ATTRIBUTE.match(a) for a in re.split(r"[,\s]+", info.strip("{} ")) if a)


def rustdoc_markdown(body: Numbered) -> Numbered:
    """Rust doc comment lines as the Markdown rustdoc shows: a Rust code block's fence says `rust`, its
    hidden lines (`# fn main() {`) are left out and `##` shows one `#`; everything else is Markdown already
    (never Go's indented code or old-style headings)."""
    out: Numbered = []
    fence, rust = "", False  # the open fence's marker, and whether its block is Rust
    for number, line in body:
        match = _FENCE_LINE.match(line)
        if match and not fence:
            fence, rust = match.group(2), rust_fence(match.group(3))
            line = f"{match.group(1)}{fence}rust" if rust else line
        elif match and line.strip().startswith(fence) and not match.group(3).strip():
            fence = ""
        elif fence and rust and _HIDDEN.match(line):
            continue
        elif fence and rust and line.lstrip().startswith("##"):
            line = line.replace("##", "#", 1)
        elif not fence:
            line = doc_links(line)
        out.append((number, line))
    return out


def crate_doc(text: str) -> Comment | None:
    """A Rust crate's own documentation, which docs.rs shows as the crate's front page: the `//!` lines
    opening its `lib.rs` (licence comments and `#![…]` attributes may stand among them), as rustdoc's
    Markdown; None for fewer than MIN_LINES lines of text."""
    numbered: Numbered = []
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if stripped.startswith("//!"):
            body = stripped[3:]
            numbered.append((number, body[1:] if body.startswith(" ") else body))
        elif not _CRATE_PREAMBLE.match(line):
            break
    if sum(1 for _, line in numbered if line.strip()) < MIN_LINES:
        return None
    return _comment(rustdoc_markdown(numbered), "markdown")
