"""reStructuredText read into sections and blocks: each line is rewritten as the Markdown line that means
the same (a title over its underline becomes a heading of its adornment's rank, `.. code-block:: lang` and
`::` literal blocks become fences, admonitions keep their bodies, other directives — toctree, image,
include, targets, comments — are blanked, roles become code spans), line for line, and the Markdown reader
reads the result: a block's span is its span in the reST file."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .included import API, INCLUDE, included_text
from .markdown import (
    TAB_ITEMS,
    code_span,
    dedent_by,
    directive_options,
    indent_width,
    markdown_sections,
    role_shown,
)
from .model import Section
from .rst_tables import TABLE_DIRECTIVES, table_directive

_ADMONITIONS = frozenset(
    "note warning tip important hint caution attention danger error seealso admonition topic sidebar"
    " rubric".split()
)
# a version note as Sphinx labels it ("Changed in version 3.0: No longer defaults to …")
_VERSIONED = {
    "versionadded": "New in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}
# Sphinx's autodoc directives: the object's docstring, rendered at build time
_AUTODOC = frozenset(
    "automodule autoclass autofunction autoexception autodata autoattribute automethod autoproperty".split()
)
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode"})
# content tabs (sphinx-tabs, sphinx-design, sphinx-inline-tabs): a tab set holds tabs (markdown.TAB_ITEMS),
# each shown under its label — the label stays, a line of its own, before the tab's text (`code-tab:: python
# Label` is code)
_TAB_SETS = frozenset({"tabs", "tab-set"})
# Sphinx's default language for `::` literal blocks: Python where the block parses as Python, else none;
# `.. highlight:: lang` sets it for the rest of the file
_PYTHON_NAMES = frozenset({"", "default", "python", "python3", "py", "py3"})
_PLAIN_NAMES = frozenset({"none", "text"})
# the doctest extension's code is Python (its output, `testoutput`, is shown unless `:hide:`), and so is the
# IPython directive's, which the docs build runs (h11's examples)
_PYTHON_DIRECTIVES = {"doctest": "python", "testcode": "python", "ipython": "python"}
_EXPLICIT = re.compile(r"^([ \t]*)\.\.(?:[ \t]+([\w:-]+)::[ \t]*(.*)|[ \t].*)?$")  # directive, comment
_ESCAPED = re.compile(r"\\([ \tA-Za-z0-9])")  # punctuation stays escaped: Markdown reads it the same
_DOCTEST = re.compile(r"^[ \t]*(?:>>>|In \[\d*\]:)(?:[ \t]|$)")  # a Python or an IPython session (pyee)
_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:\s|$)")
# a simple table's border: columns of `=` apart (`=====  ======`); a heading's adornment is one run
_TABLE_BORDER = re.compile(r"^[ \t]*=+(?:[ \t]+=+)+[ \t]*$")
# … never a doctest's bare prompt, `>>>` or `...` (deepdiff's search_doc.rst was titled "{}", the output
# line above one, and its deephash_doc.rst ">>> from deepdiff import DeepHash")
_ADORNMENT = re.compile(r"^(?!(?:>>>|\.\.\.)[ \t]*$)([=\-~^\"'`#*+<>:._])\1{2,}[ \t]*$")
# … and a short title's, over and under it: dateutil's tz.rst opens "==", "tz", "==" (reST asks only that
# the adornment reach the title's end)
_SHORT_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+<>:._])\1[ \t]*$")
_ROLE = re.compile(r"(?::(?P<name>[\w.+-]+(?::[\w.+-]+)*):|\{(?P<myst>[\w.+:-]+)\})`(?P<body>[^`]+)`")
# a hyperlink reference (`text <url>`_, `text`__), or the default role with an explicit target (Sphinx's
# `default_role`: `from_dict <marshmallow.Schema.from_dict>`); a plain `text` is neither
_LINK = re.compile(r"(?<![`\w:])`(?![\s`])([^`<]+?)\s*(?:(<[^>`]*>)`(?![`_])|(?:<[^>`]*>)?`__?)")
# a link shown as its address: `<https://x>`_ (PEPs 36, bottle, libuv, pyjwt, tortoise)
_BARE_LINK = re.compile(r"(?<![`\w:])`<(https?://[^>`\s]+)>`__?")
_CODE_OR_TEXT = re.compile(r"(`+).+?\1|[^`]+|`+")
# reST has no underscore emphasis: an underscore stays one (`__init__`, `_private`) when Markdown reads it
_FIELD = re.compile(r"^([ \t]*):([\w ().-]{1,40}):(?:[ \t]+|$)")
_BULLET = re.compile(r"^[ \t]*(?:[-*+•]|\d+[.)]|#\.|\(?[a-zA-Z0-9]\))[ \t]+")
# `literalinclude`'s options that only change how the included lines show
# Sphinx's object descriptions (any domain's: `py:method`, `js:function`), each a heading over its body
_OBJECTS = frozenset(
    "function method class attribute data exception decorator decoratormethod classmethod staticmethod"
    " property describe object".split()
)
_INCLUDE_SHOWING = frozenset(
    {
        "language",
        "caption",
        "linenos",
        "lineno-start",
        "emphasize-lines",
        "name",
        "class",
        "dedent",
        "force",
        "encoding",
        "tab-width",
    }
)
_LINES = re.compile(r"(\d*)-(\d*)")
# a named hyperlink reference written without backquotes (`Trio_`, `asyncio_`, anonymous `here__`): its word
_REFERENCE = re.compile(r"(?<![\w\\])([A-Za-z][A-Za-z0-9.-]*[A-Za-z0-9])__?(?=[\s.,;:!?)\]]|$)")
# a Markdown fence line (a docstring written for mkdocstrings holds them): its marker is group 1
# a Markdown fence, its language and attributes after (mkdocstrings' ```py title="IsInt"```)
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*[\w+-]*(?:[ \t]+[^`\n]*)?[ \t]*$")
_AUTO_NUMBERED = re.compile(r"^([ \t]*)#\.[ \t]")
_SUBSTITUTION = re.compile(r"\|([\w -]{1,40})\|(?:_{1,2})?")
# what Sphinx fills in from the build's conf.py (never run here): "sqlite-utils |version|" is "sqlite-utils"
_BUILD_VALUES = frozenset({"version", "release", "today"})
# a field list opening the file is its metadata (":orphan:", ":description: …", ":layout: landing"), not text
_DOCINFO = re.compile(r"^:[\w-]+:(?:\s.*)?$")


def rst_as_markdown(lines: list[str]) -> list[str]:
    """reST lines as the Markdown lines that mean the same, line for line (a code block that ends the text
    closes one line past it)."""
    shadow = _Shadow(lines)
    shadow.rewrite()
    return shadow.out


def read_rst(text: str, *, file: bool = False) -> tuple[Section, ...]:
    """A reST text's sections; a `file`'s opening field list is its metadata, not its text."""
    lines = text.split("\n")
    shadow = _Shadow(lines)
    shadow.rewrite(docinfo=file)
    return markdown_sections("\n".join(shadow.out), lines)


@dataclass
class _Shadow:
    lines: list[str]
    out: list[str] = field(default_factory=list)
    ranks: list[tuple[str, bool]] = field(default_factory=list)  # adornment styles in order of first use
    level: int = 0  # the last heading's level: an object description nests one below it
    highlight: str = ""  # the language `.. highlight::` set for the literal blocks below it

    def __post_init__(self) -> None:
        self.lines = list(
            self.lines
        )  # definitions are read at their own margin: the caller's stay as written

    def rewrite(self, docinfo: bool = False) -> None:
        i = 0
        while (
            docinfo
            and i < len(self.lines)
            and (  # the file's metadata: a blank line for each line
                _DOCINFO.match(self.lines[i]) or (i and self.lines[i][:1].isspace() and self.lines[i].strip())
            )
        ):
            self.out.append("")
            i += 1
        while i < len(self.lines):
            i = self._line(i)

    def _line(self, i: int) -> int:
        line = self.lines[i]
        following = self.lines[i + 1] if i + 1 < len(self.lines) else ""
        # a bare ``` opens a fence before it could overline a heading (httpx's, starlette's docstrings)
        if (fence := FENCE.match(line)) and fence.group(1)[0] == "`":
            return self._verbatim(i, fence.group(1))
        if _TABLE_BORDER.match(line) and (table := _simple_table(self.lines, i)):
            self.out += table
            return i + len(table)
        if _ADORNMENT.match(line) and following.strip() and i + 2 < len(self.lines):
            if _ADORNMENT.match(self.lines[i + 2]) and not _ADORNMENT.match(following):  # overline
                self.out += ["", self._heading(following.strip(), line[0], True), ""]
                return i + 3
        if (
            _SHORT_ADORNMENT.match(line)
            and i + 2 < len(self.lines)
            and self.lines[i + 2].rstrip() == line.rstrip()
            and 0 < len(following.strip()) <= len(line.rstrip())
            and not following[:1].isspace()
        ):
            self.out += ["", self._heading(following.strip(), line[0], True), ""]
            return i + 3
        if line.strip() and not line[0].isspace() and _ADORNMENT.match(following):
            if len(following.rstrip()) >= min(len(line.rstrip()), 3) and not _ADORNMENT.match(line):
                self.out += [self._heading(line.strip(), following[0], False), ""]
                return i + 2
        if _ADORNMENT.match(line):  # a transition
            self.out.append("")
            return i + 1
        if fence := FENCE.match(line):  # a Markdown fence (a docstring written for mkdocstrings): as written
            return self._verbatim(i, fence.group(1))
        if indent_width(line) >= 4 and self._quoted(i):
            return self._block_quote(i)
        if directive := _EXPLICIT.match(line):
            return self._directive(i, directive)
        if line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            return self._literal(i)
        if _DOCTEST.match(line) and (i == 0 or not self.lines[i - 1].strip()):
            return self._doctest(i)
        if self._defines(i):
            self._dedent_definition(i + 1)
        if i + 1 < len(self.lines) and (mended := _mend_split(line, self.lines[i + 1])):
            line, self.lines[i + 1] = mended
        self.out.append(inline(_numbered(line)))
        return i + 1

    def _defines(self, i: int) -> bool:
        """Whether line i is a definition list's term (an unindented line opening a paragraph) or a field
        (`:Types:`), with its body indented right below it (guzzle's ``base_uri`` and its option's text,
        code and table; its request options' `:Types:` and `:Default:`)."""
        line = self.lines[i]
        below = self.lines[i + 1] if i + 1 < len(self.lines) else ""
        return (
            bool(line.strip())
            and not line[0].isspace()
            and (i == 0 or not self.lines[i - 1].strip() or _FIELD.match(line) is not None)
            and not _BULLET.match(line)
            and bool(below.strip())
            and below[0].isspace()
            and not _ADORNMENT.match(below.strip())
        )

    def _dedent_definition(self, start: int) -> None:
        """A definition's lines from `start`, read at its own margin, as Sphinx shows it: its paragraphs,
        code blocks and tables are blocks of their own, never one indented code block of raw reST."""
        margin = indent_width(self.lines[start])
        end = start
        while end < len(self.lines) and (
            not self.lines[end].strip() or indent_width(self.lines[end]) >= margin
        ):
            end += 1
        self.lines[start:end] = [dedent_by(line, margin) for line in self.lines[start:end]]

    def _verbatim(self, i: int, marker: str) -> int:
        """A fenced code block's lines, unchanged, to its closing fence (or the text's end)."""
        end = i + 1
        while end < len(self.lines) and not self.lines[end].strip().startswith(marker):
            end += 1
        end = min(end + 1, len(self.lines))
        self.out += self.lines[i:end]
        return end

    def _quoted(self, i: int) -> bool:
        """Whether line i opens a block quote under a paragraph of the page's own (indented text after a
        blank line below an unindented paragraph): reST's quote, never Markdown's indented code. A line of
        spaces alone is blank: it opens no quote (ghc-proposals' 0652 has one below a paragraph)."""
        if not i or self.lines[i - 1].strip() or not self.lines[i].strip():
            return False
        above = next((line for line in reversed(self.lines[:i]) if line.strip()), "")
        return (
            bool(above) and not above[0].isspace() and not _BULLET.match(above) and not above.startswith("..")
        )

    def _block_quote(self, i: int) -> int:
        """A block quote's lines, read at their own margin as the text, lists, code and directives they hold
        (jsonschema's indented lists of steps; omegaconf's grammar rules, each a `.. code-block:: antlr`
        indented under the sentence introducing it, had been one indented code block of raw markup)."""
        margin = indent_width(self.lines[i])
        end = i
        while end < len(self.lines) and (
            not self.lines[end].strip() or indent_width(self.lines[end]) >= margin
        ):
            end += 1
        self.lines[i:end] = [dedent_by(line, margin) for line in self.lines[i:end]]
        return i

    def _doctest(self, i: int) -> int:
        """A doctest block (a paragraph opened by `>>>`, to the next blank line): code as written, never
        read as inline markup (`validator_for` keeps its underscore), indented as Markdown reads code."""
        end = i
        while end < len(self.lines) and self.lines[end].strip():
            end += 1
        margin = min(indent_width(line) for line in self.lines[i:end])
        self.out += ["    " + dedent_by(line, margin) for line in self.lines[i:end]]
        return end

    def _heading(self, title: str, char: str, over: bool) -> str:
        if (char, over) not in self.ranks:
            self.ranks.append((char, over))
        self.level = min(self.ranks.index((char, over)) + 1, 6)
        return f"{'#' * self.level} {inline(title)}"

    def _body_end(self, i: int, indent: int) -> int:
        """The line after the indented body that starts below line i."""
        j = i + 1
        while j < len(self.lines) and (not self.lines[j].strip() or indent_width(self.lines[j]) > indent):
            j += 1
        return j

    def _directive(self, i: int, found: re.Match[str]) -> int:
        indent = len(found.group(1).expandtabs(4))
        name = (found.group(2) or "").lower().split(":")[-1]
        end = self._body_end(i, indent)
        body = self.lines[i + 1 : end]
        # a domain's example directive (pallets' `click:example`) holds the example's code
        if name in _PYTHON_DIRECTIVES or name == "testoutput" and not _option(body, "hide", True):
            self._fence(body, _PYTHON_DIRECTIVES.get(name, ""), indent)  # their argument names a group
        elif name in _CODE_DIRECTIVES or name == "example" and ":" in (found.group(2) or ""):
            # without a language, the block is highlighted as a `::` block is (toolz' bare `.. code::`)
            language = (found.group(3) or "").strip().split(" ")[0]
            code = [line for line in body if not _OPTION.match(line)]
            self._fence(
                body, language or (self._literal_language(code) if name in _CODE_DIRECTIVES else ""), indent
            )
        elif name == "literalinclude" and (marker := _include_marker(found.group(3) or "", body)):
            self._include(marker, _option(body, "language"), indent, end - i)
        elif name == "include" and (marker := included_text(found.group(3) or "", directive_options(body))):
            # what the built page shows here is that file's text: the docs stage reads it
            self.out += [" " * indent + marker, *[""] * (end - i - 1)]
        elif name in _AUTODOC:
            # what the built docs show here is the object's docstring: the docs stage reads the code (an
            # object named in full); the directive's own body is the docs' words about it (cachetools' and
            # tornado's autoclass bodies: "This class evicts items in the order they were added …"), read
            # in its place
            signature = (found.group(3) or "").strip()
            target = signature.split("(")[0]
            if _DOTTED.fullmatch(target):
                self.out.append(f"{' ' * indent}{API} {target}")
                self._nested(body, self.level)
            elif signature and any(line.strip() and not _OPTION.match(line) for line in body):
                self._object(signature, body, indent)  # a name in the current module, described here
            else:
                self.out += [""] * (end - i)
        elif name == "highlight":
            self.highlight = (found.group(3) or "").strip().split(" ")[0].lower() or self.highlight
            self.out += [""] * (end - i)
        elif name in _OBJECTS and (signature := (found.group(3) or "").strip()):
            self._object(signature, self.lines[i + 1 : end], indent)
        elif name in _VERSIONED:
            self._versioned(_VERSIONED[name], (found.group(3) or "").strip(), body)
        elif name in _TAB_SETS or name in TAB_ITEMS:
            self.out.append(
                " " * indent + inline((found.group(3) or "").strip()) if name in TAB_ITEMS else ""
            )
            self._nested(body, self.level)
        elif name == "code-tab":
            language, _, label = (found.group(3) or "").strip().partition(" ")
            if body and not body[0].strip():  # the blank line after the label opens the code
                self.out.append(" " * indent + inline(label.strip() or language))
                self._fence(body, language, indent, replaces_line=False)
            else:
                self._fence(body, language, indent)
        elif name in TABLE_DIRECTIVES and (table := table_directive(name, body, inline)):
            # the table the docs build renders, in the directive's lines (a longer one pushes the rest down)
            lines = ["", *(" " * indent + line for line in table)]
            self.out += [*lines, *[""] * (end - i - len(lines))]
        elif name in _ADMONITIONS:
            # a titled one's argument is its title; a note's or a warning's is its text's first line
            # (`.. warning:: If you start the scheduler … finish` over "execution, …": anyio, libuv, babel)
            self.out.append(inline((found.group(3) or "").strip()))
            self._nested(body, self.level)
        else:  # toctree, image, include, a target, a comment: nothing a reader reads as prose
            self.out += [""] * (end - i)
            return end
        return end

    def _object(self, signature: str, body: list[str], indent: int) -> None:
        """An object description (`.. method:: URL.with_path(path)`, `.. class::`, `.. attribute::`): a heading
        one level below the section's, its signature as code, and its body read as reST in its place (a class's
        methods nest below it); options (`:noindex:`, `:type:`) are left out."""
        level = min(self.level + 1, 6)
        self.out.append(f"{' ' * indent}{'#' * level} {code_span(signature, padded=True)}")
        self._nested(body, level)
        self.level = level - 1 if level > 1 else self.level

    def _versioned(self, label: str, argument: str, body: list[str]) -> None:
        """`.. versionchanged:: 3.0` as Sphinx shows it: "Changed in version 3.0: " leading its text (the
        rest of the directive's line, else its body's first line), "New in version 0.12." alone."""
        version, _, said = argument.partition(" ")
        lead = f"{label} {version}".strip()
        first = next((n for n, line in enumerate(body) if line.strip() and not _OPTION.match(line)), None)
        if said.strip():
            self.out.append(f"{lead}: {inline(said.strip())}")
        elif first is None:
            self.out.append(f"{lead}.")
        else:
            self.out.append("")
            body = [*body]
            body[first] = f"{body[first][: indent_width(body[first])]}{lead}: {body[first].lstrip()}"
        self._nested(body, self.level)

    def _nested(self, body: list[str], level: int) -> None:
        """A directive's body read as reST of its own, in its place (a note's code block stays code, a
        class's methods nest below it); its options (`:noindex:`, `:class:`) are left out."""
        kept = [line for line in body if not _OPTION.match(line)]
        margin = min((indent_width(line) for line in kept if line.strip()), default=0)
        inner = _Shadow(
            ["" if _OPTION.match(line) else dedent_by(line, margin) for line in body],
            ranks=self.ranks,
            level=level,
            highlight=self.highlight,
        )
        inner.rewrite()
        self.out += inner.out

    def _include(self, marker: str, language: str, indent: int, lines: int) -> None:
        """A `literalinclude` as a code block holding only its marker, for the docs stage to read the file
        it names: fenced when the directive has three lines to rewrite, else one indented line."""
        pad = " " * indent
        if lines >= 3:
            self.out += [f"{pad}```{language}", pad + marker, f"{pad}```", *[""] * (lines - 3)]
        else:
            self.out += [f"{pad}    {marker}", *[""] * (lines - 1)]

    def _literal(self, i: int) -> int:
        line = self.lines[i].rstrip()
        kept = line[:-1] if len(line) > 2 and line[-3] != " " else line[:-2]  # "Example::" → "Example:"
        self.out.append(inline(kept))
        bullet = _BULLET.match(line)  # "- Run it::": the block is indented past the item's text
        indent = bullet.end() if bullet else indent_width(line)
        end = self._body_end(i, indent)
        body = self.lines[i + 1 : end]
        last = not any(
            line.strip() for line in self.lines[end:]
        )  # nothing follows: a fence may close past it
        self._fence(body, self._literal_language(body), indent, False, followed=not last)
        return end

    def _literal_language(self, body: list[str]) -> str:
        """The language Sphinx highlights a `::` block in: the file's `.. highlight::`, else Python when the
        block parses as Python (its default) and a Python session when it opens with a `>>>` prompt (as
        Sphinx's default lexer reads one: toolz's and pyparsing's examples), else none — a shell line or a C
        snippet stays plain."""
        if self.highlight not in _PYTHON_NAMES:
            return "" if self.highlight in _PLAIN_NAMES else self.highlight
        margin = min((indent_width(line) for line in body if line.strip()), default=0)
        code = "\n".join(dedent_by(line, margin) for line in body).strip("\n")
        if code.startswith(">>>"):
            return "pycon"
        return "python" if code and _parses_as_python(code) else ""

    def _fence(
        self, body: list[str], language: str, indent: int, replaces_line: bool = True, followed: bool = False
    ) -> None:
        """A code block in the lines of `body` (plus the directive's own line, when it replaces one),
        indented as far as the text it belongs to (a list item's code stays in the item); `followed`: a `::`
        block that text follows, which may not run a line long."""
        code = [line for line in body if not _OPTION.match(line)] if replaces_line else list(body)
        margin = min((indent_width(line) for line in code if line.strip()), default=0)
        if not any(line.strip() for line in code):
            self.out += [""] * (len(body) + replaces_line)
            return
        pad = " " * indent
        lines = [
            ""
            if replaces_line and _OPTION.match(line)
            else pad + dedent_by(line, margin)
            if line.strip()
            else ""
            for line in body
        ]
        trailing = len(lines) - len([*_rstrip_blank(lines)])
        opener = f"{pad}```{language}"
        if replaces_line:
            self.out.append(opener)
        else:  # the blank line between "Example::" and the block opens the fence
            lines[0] = opener if not lines[0].strip() else lines[0]
        content = [*_rstrip_blank(lines)]
        if trailing:
            self.out += [*content, f"{pad}```", *[""] * (trailing - 1)]
            return
        # no blank line after the block (it ends the file, or an unindented line follows at once): the blank
        # line that opens its code makes room for the closing fence, so the text stays line for line
        first = 0 if replaces_line else 1
        if len(content) > first and not content[first].strip():
            del content[first]
        elif followed and content[0] == opener and len(content) > 1:
            # "Example::" with its code right above the next line and no blank to spare: an indented code
            # block, which needs no closing line (a changelog's list items: "- New option::" / code / "- Next")
            self.out += [
                "",
                *(f"{pad}    {line[len(pad) :]}" if line.strip() else "" for line in content[1:]),
            ]
            return
        self.out += [*content, f"{pad}```"]  # else one line more than the source


MENDED_CHARS = 120  # a link's or role's text carried down a line at a time stays this short
# a backtick that is not part of a ``literal``; a role's name right before one
_BACKTICK = re.compile(r"``.+?``|`")
_ROLE_BEFORE = re.compile(r"(?:^|(?<=[\s(\[\"']))(?::[\w:+.-]+:)?$")


def _mend_split(line: str, following: str) -> tuple[str, str] | None:
    """Two lines of a paragraph with an inline construct broken between them (trio's "`permissively
    licensed" over "<https://…/LICENSE>`__,", msgspec's ":ref:`lightweight library" over
    "<benchmark-library-size>`") with the construct whole on one of them — its head moved down to the
    next line, else its tail up — so that each line reads as reST on its own and keeps its number; None
    when nothing is broken there, or either line would be left empty."""
    opened = [m.start() for m in _BACKTICK.finditer(line) if m.group(0) == "`"]
    after = following.strip()
    if len(opened) % 2 == 0 or not after or after.startswith("..") or _BULLET.match(following):
        return None
    role = _ROLE_BEFORE.search(line[: opened[-1]])
    if role is None:
        return None
    closing = next((m for m in _BACKTICK.finditer(after) if m.group(0) == "`"), None)
    head, kept = line[role.start() :].strip(), line[: role.start()].rstrip()
    indent = following[: len(following) - len(following.lstrip())]
    if closing is None:  # a title over three lines ("`this blog" / "post" / "<https://…>`__"): one line on
        short = len(head) + len(after) <= MENDED_CHARS and "`" not in after
        return (kept, f"{indent}{head} {after}") if kept and short else None
    end = closing.end() + len(after[closing.end() :]) - len(after[closing.end() :].lstrip("_"))
    if kept:
        return kept, f"{indent}{head} {after}"
    if rest := after[end:].lstrip():
        return f"{line.rstrip()} {after[:end]}", indent + rest
    return None


def _simple_table(lines: list[str], i: int) -> list[str]:
    """The simple table whose top border is line `i`, as Markdown line for line: under a header (the rows
    above its second border) a table, its borders blank and the header's own border the delimiter row;
    without one, each row a list item of its cells. [] when line `i` opens no table (no closing border
    before a blank line)."""
    borders = [i]
    for j in range(i + 1, len(lines)):
        if _TABLE_BORDER.match(lines[j]):
            borders.append(j)
            if j + 1 == len(lines) or not lines[j + 1].strip():
                break
        elif not lines[j].strip():
            return []
    else:
        return []
    starts = [m.start() for m in re.finditer(r"=+", lines[i])]
    if len(borders) < 2 or len(starts) < 2:
        return []

    def cells(line: str) -> list[str]:
        ends = [*starts[1:], len(line) + 1]
        return [inline(line[a:b].strip()).replace("|", "\\|") for a, b in zip(starts, ends, strict=True)]

    end = borders[-1]
    headed = len(borders) >= 3 and borders[1] > i + 1
    # a header of several lines: its cells joined, on its last line, the others blank
    rows = [cells(lines[k]) for k in range(i + 1, borders[1])] if headed else []
    header = [" ".join(column) for column in zip(*rows, strict=True)]
    out = [""]
    for j in range(i + 1, end):
        line = lines[j]
        if j in borders:
            out.append("| " + " | ".join("---" for _ in starts) + " |" if headed and j == borders[1] else "")
        elif headed and j < borders[1]:
            last = j == borders[1] - 1
            out.append("| " + " | ".join(" ".join(h.split()) for h in header) + " |" if last else "")
        elif not line.strip():
            out.append("")
        elif headed:
            out.append("| " + " | ".join(cells(line)) + " |")
        else:
            said = [c for c in cells(line) if c]
            first = not line[: starts[1]].strip()  # a blank first column goes on with the row above
            out.append(("  " if first else "- ") + " — ".join(said))
    return [*out, ""]


def _numbered(line: str) -> str:
    """An auto-numbered item (`#. Wait for the task`) as Markdown's `1.`, which numbers itself the same way."""
    auto = _AUTO_NUMBERED.match(line)
    return f"{auto.group(1)}1.{line[auto.end() - 1 :]}" if auto else line


def _parses_as_python(code: str) -> bool:
    """Whether the text is Python source (parsed, never run); a doctest or IPython session is Python too."""
    if _DOCTEST.match(code):
        return True
    try:
        ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return bool(re.search(r"[A-Za-z_]", code))


def _include_marker(target: str, options: list[str]) -> str:
    """`.. literalinclude:: file` (with `:lines: a-b` as `file:a:b`, the snippet form); "" when an option
    picks a part the marker cannot say (`:pyobject:`, `:start-after:`, several ranges…)."""
    target = target.strip()
    if not target or " " in target:
        return ""
    for line in options:
        found = _OPTION.match(line)
        name = found.group(0).strip().strip(":") if found else ""
        if name == "lines":
            if not (span := _LINES.fullmatch(line[found.end() :].strip() if found else "")):
                return ""
            target += f":{span.group(1)}:{span.group(2)}"
        elif found and name not in _INCLUDE_SHOWING:
            return ""
    return f"{INCLUDE} {target}"


def _option(body: list[str], name: str, flag: bool = False) -> str:
    """An option's first word (a flag option, `flag`, as "yes" when given); "" when not given."""
    for line in body:
        stripped = line.strip()
        if stripped.startswith(f":{name}:"):
            return "yes" if flag else stripped[len(name) + 2 :].strip().split(" ")[0]
        if stripped and not _OPTION.match(line):
            break
    return ""


def _rstrip_blank(lines: list[str]) -> list[str]:
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def inline(line: str) -> str:
    """reST inline markup as Markdown: roles and literals to code spans (`:ref:` and the like to their
    text), hyperlink references to their text, substitutions and field names to words."""
    # ``literals`` are Markdown code spans as they are; a default role's target, a code span of its text
    # unless the text is words (`versioned validators <versioned-validators>`: a label's title)
    line = _LINK.sub(lambda m: f"`{m[1]}`" if m[2] and " " not in m[1].strip() else m[1], line)
    line = _BARE_LINK.sub(r"\1", line)
    line = _ROLE.sub(_role, line)
    line = _SUBSTITUTION.sub(lambda m: "" if m.group(1) in _BUILD_VALUES else m.group(1), line)
    line = _FIELD.sub(lambda m: m.group(1), line)
    return "".join(piece if piece.startswith("`") else _unescaped(piece) for piece in _pieces(line))


def _unescaped(text: str) -> str:
    """Text outside code spans: reST's escaped whitespace gone and an escaped letter plain (jsonschema's
    "``string``\\s" reads "`string`s"), underscores kept as underscores when Markdown reads them."""
    text = _REFERENCE.sub(r"\1", text)
    return _ESCAPED.sub(lambda m: "" if m[1].isspace() else m[1], text).replace("_", "\\_")


def _pieces(line: str) -> list[str]:
    """The line cut into code spans and the text between them."""
    return [found.group(0) for found in _CODE_OR_TEXT.finditer(line)]


def _role(found: re.Match[str]) -> str:
    """A role as Sphinx shows it (markdown.role_shown), in code type unless it links to prose."""
    name = (found.group("name") or found.group("myst") or "").split(":")[-1]
    shown, code = role_shown(name, found.group("body"))
    return f"`{shown}`" if code else shown
