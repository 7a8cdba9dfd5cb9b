"""Markdown and MDX read into sections and blocks, by markdown-it-py's token stream (each block token
carries its source lines). MDX's imports, exports and JSX tags are dropped, their text children kept;
MkDocs admonitions, VitePress containers and MyST admonition directives (```` ```{note} ````, `:::{tip}`)
lose their markers and keep their bodies; MyST navigation and build directives (`{toctree}`, `{contents}`,
`{eval-rst}`, autodoc) are dropped whole; `{code-block} python` is a code block in Python. Every rewrite keeps
the text's line count, so a block's span is its line span in the file."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from .header import clean_heading
from .htmlblock import html_paragraphs, html_tables
from .included import API_LINE, PARTIAL, SNIPPET, code_marker, included_text
from .model import Block, Section
from .outline import Outline
from .sitemarkup import without_site_markup
from .twoslash import Twoslash

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
# Python-Markdown's space after the marker is optional: ormar writes `!!!tip`, `!!!warning`
_ADMONITION = re.compile(
    r"^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]*[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+\"[^\"\n]*\")?[ \t]*$"
)
# pymdownx.tabbed: `=== "Title"`, `===+`, `===!`
_TAB = re.compile(r'^([ \t]*)===!?\+?[ \t]+"[^"\n]*"[ \t]*$')
# VuePress' tabs (vuepress-plugin-md-enhance, vuepress-theme-hope): `@tab Title`, `@tab:active Title#id`
_AT_TAB = re.compile(r"^([ \t]*)@tab(?::active)?[ \t]+([^#\n]*?)(?:#[\w-]*)?[ \t]*$")
# VuePress' code import on a line of its own: `@[code{3-10} python{2} title="x"](../examples/run.py)`
_CODE_IMPORT = re.compile(
    r"^([ \t]*)@\[code(?:\{(\d*)(-?)(\d*)\})?(?:[ \t]+([\w+#.-]+))?[^\]\n]*\]\(([^()\s]+)\)[ \t]*$"
)
_AUTODOC = re.compile(r"^[ \t]*:::[ \t]+([A-Za-z_][\w.]*)[ \t]*$")  # mkdocstrings: `::: pkg.Object`
_OPTION = re.compile(r"^:?[\w-]+:(?:\s|$)")  # `options:`, `handler: python`, `:docstring:`
_CONTAINER = re.compile(r"^[ \t]*:{3,}[ \t]*(?:[\w-]+.*)?$")  # VitePress / MyST `:::tip Title` … `:::`
# a container whose title holds a sentence: Element's and its ports' component pages describe each example on
# the marker (`:::demo Form 组件提供了表单验证的功能，只需要通过 `rules` 属性传入…。`), at times going on after
# its full stop ("…即可。校验规则参见 [async-validator](…)"); a box's label ("提示", "Security Warning", "为什么需要
# 打包开发模式？", "v1.2 notes") is no sentence of the page
_CONTAINER_SENTENCE = re.compile(
    r"^(?P<indent>[ \t]*):{3,}[ \t]*[\w-]+[ \t]+(?P<text>\S.*(?:[.。]|。.*\S|\.[ \t]+\S.*))[ \t]*$"
)
_DIRECTIVE = re.compile(r"^([ \t]*)(`{3,}|~{3,}|:{3,})[ \t]*\{([\w:.-]+)\}[ \t]*(.*?)[ \t]*$")
_DIRECTIVE_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
# MyST directives whose body is prose the author wrote for the reader: kept, their markers blanked
_PROSE_DIRECTIVES = frozenset(
    "note warning tip important hint caution danger attention error admonition seealso see-also dropdown "
    "versionadded versionchanged deprecated margin sidebar topic epigraph pull-quote card grid-item-card "
    "tab-item tab-set tab tabs group-tab grid grid-item div".split()
)
LABEL_WORDS = 4
# a content tab (MyST, sphinx-tabs, sphinx-design): its argument is the label its button shows
TAB_ITEMS = frozenset({"tab-item", "tab", "group-tab"})
_CALLOUT_FENCES = frozenset({"note", "tip", "warning", "danger", "caution", "important", "info", "hint"})
# directives whose body is a code block (its argument names the language)
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-cell", "code-tab"})
# what a docs build reads, never the reader: navigation, inclusion, autodoc, raw markup (dropped whole)
_DROPPED_DIRECTIVES = re.compile(
    r"^(?:contents|toctree|tableofcontents|eval-rst|eval-md|include|literalinclude|image|figure|raw|only|index"
    r"|math|list-table|csv-table|table|bibliography|rubric|glossary|autosummary|auto[\w-]*|[\w-]+:[\w:.-]+"
    r"|ifconfig|highlight|tabularcolumns|embed|mdinclude|mermaid|graphviz|plot|jupyter-execute)$",
    re.IGNORECASE,
)
_MDX_STATEMENT = re.compile(r"^(?:import\s+[\w{*'\"]|export\s+(?:default|const|function|let|var|\{|\*))")
_MDX_STATEMENT_END = re.compile(r"(?:\bfrom\s+['\"][^'\"]*['\"]|;)\s*$|^\s*$")
_JSX_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s(?:[^<>{}]|\{[^{}]*\})*)?/?>")
_JSX_OPEN_UNCLOSED = re.compile(r"^\s*<[A-Za-z][\w.:-]*(?:\s[^>]*)?$")
_JSX_COMMENT = re.compile(r"\{/\*.*?\*/\}")
_JSX_COMMENT_OPEN = re.compile(r"\{/\*")
# an ES module import on a line of its own (Docusaurus reads `.md` pages as MDX too: jest, redux)
_ESM_IMPORT = re.compile(r"""^import\s+(?:[\w{*][^'"]*\s+from\s+)?['"][^'"]+['"];?\s*$""")
# a Markdown partial an MDX page imports (`import Types from './_types.mdx'`) and renders alone (`<Types />`)
_PARTIAL_IMPORT = re.compile(r"""^import\s+([A-Z]\w*)\s+from\s+['"]([^'"]+\.mdx?)['"];?\s*$""")
_PARTIAL_USE = re.compile(r"^\s*<([A-Z]\w*)\s*/>\s*$")
_IMPORT_LINE = re.compile(r"^import\s", re.MULTILINE)  # what an ES import and a partial's import open with
# react.dev's exercise components: `<Challenges>` and what only stands inside one (with or without props)
_EXERCISE = re.compile(r"^\s*<(Challenges|Solution|Hint|YouWillLearn)\b[^>]*>(.*</\1>\s*$)?")
_RECAP = re.compile(r"^\s*<Recap>\s*$")
_EXERCISE_TAG = re.compile(r"<(?:Challenges|Solution|Hint|YouWillLearn|Recap)")
_HAN = re.compile(r"[\u3400-\u9fff]")
_JSX_EXPRESSION_LINE = re.compile(r"^\s*\{.*\}\s*$")
MAX_INLINE_ALT = 60
_MYST_ROLE = re.compile(r"\{([\w:.+-]+)\}$")
# roles Sphinx shows as words, not code; those it shows numbered ("PEP 440")
_PLAIN_ROLES = {"ref", "doc", "term", "abbr", "numref", "download", "pep", "rfc", "title"}
_NUMBERED_ROLES = {"pep": "PEP", "rfc": "RFC"}
_TARGET_TEXT = re.compile(r"\s*<[^>]*>$")
_TAG_NAME = re.compile(r"</?([A-Za-z][\w-]*)")
# what documents write as HTML; any other <word> is a placeholder of the text ("repos/<owner>/")
_HTML_ELEMENTS = frozenset(
    "a abbr b big blockquote br center code dd del details div dl dt em font h1 h2 h3 h4 h5 h6 hr i img ins kbd"
    " li ol p picture pre q s samp small source span strike strong sub summary sup table tbody td th thead tr"
    " tt u ul var video audio iframe script style svg math mi mo mn section article nav header footer main"
    " figure figcaption caption col colgroup tfoot label input button form select option textarea mark cite"
    " dfn time wbr ruby rt rp bdi bdo object embed param track canvas noscript template slot".split()
)
_CITATION_TEXT = re.compile(r"^\s*\[?\s*\d{1,4}\s*\]?\s*$")  # a link whose text is "[3]" cites, says nothing
# bold markers CommonMark's flanking rule leaves as text: a marker between a letter and punctuation opens or
# closes nothing ("部署通常通过**_config.yml**进行配置。", "**注意：**在插件还没发布前"), though the author and
# every site built from the page show bold there
_UNSEEN_STRONG = re.compile(r"(?<!\*)\*\*(?=[^\s*])([^*\n]*?[^\s*])\*\*(?!\*)")
_FOOTNOTE_REF = re.compile(r"\[\^[^\]\s]{1,40}\]")
# a footnote's definition (`[^1]: See RFC22 for …`): GitHub and every footnote extension print it at the page's
# foot, never where it is written; read in place it ran on as the next paragraph (": See RFC22 for the full
# transaction structure." after nervos 0017's since paragraph) and led the list after it
_FOOTNOTE_DEFINITION = re.compile(r"^\[\^[^\]\s]{1,40}\]:")
_SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:!?])(?=\s|$)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？])")
POINTER_WORDS = 5  # a closing sentence this short only points at what follows ("Here's an example of use:")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_POINTING = frozenset(
    "a an the this that these those it its here there here's is are was be below above follows following as "
    "for e g example examples usage use shown show shows see like look looks how code snippet sample of in "
    "our we you can simple basic quick short".split()
)
_WIDGET_TOGGLE = re.compile(r"</(\w+)>\s*<\1\s[^>]*class=", re.I)  # `</span><span class=…>`: one of two views


# a task list's box, as GitHub draws it: gws' and gnet's feature lists (`- [x] Event-driven API …`) read
# "\[x\] Event-driven API"; 6 of the mirrored READMEs and many proposals' checklists hold them
_TASK_MARK = re.compile(r"^\[([ xX])\]\s+")
TASK_BOXES = {"x": "☑ ", " ": "☐ "}


@lru_cache(maxsize=2)
def markdown_parser(mdx: bool = False) -> MarkdownIt:
    """The Markdown parser; for MDX, without indented code blocks (MDX has none: text indented inside a JSX
    element, as trpc's `<TabItem>` bodies and immer's `<details>` are, is prose)."""
    parser = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    if mdx:
        parser.disable("code")
    # Every link target is dropped, never rendered: parse `[text](javascript:…)` as a link too, so that its
    # target goes with the others instead of staying behind as literal text; and leave each target as
    # written, since no reader of the tokens looks at one (an autolink's shown text is still decoded).
    parser.validateLink = lambda url: True  # type: ignore[method-assign]
    parser.normalizeLink = _as_written  # type: ignore[method-assign]
    return parser


def _as_written(url: str) -> str:
    return url


RstLines = Callable[[list[str]], list[str]]
"""reST lines rewritten line for line as the Markdown lines that mean the same (rst.py's `rst_as_markdown`)."""


def read_markdown(text: str, *, mdx: bool = False, rst: RstLines | None = None) -> tuple[Section, ...]:
    """The sections of a Markdown (or MDX) text whose front matter is already blanked; with `rst`, the body
    of a MyST `{eval-rst}` block is read as the reST it is (else it is dropped)."""
    source = text.split("\n")
    jsx = _partials(_drop_exercises(source))
    jsx = _strip_mdx(jsx) if mdx else _drop_esm_imports(_drop_jsx_comments(jsx))
    jsx = without_site_markup(jsx, _outside_fences(jsx))
    lines = _myst_directives(
        _myst_includes(_markdown_includes(_eval_rst(_hugo_shortcodes(_code_imports(jsx)), rst)))
    )
    return markdown_sections("\n".join(_unwrap_containers(lines)), source, mdx=mdx)


def markdown_sections(text: str, source: list[str], *, mdx: bool = False) -> tuple[Section, ...]:
    """Sections of Markdown whose lines are the `source`'s lines (readers of other formats rewrite theirs
    line for line); a block's span never starts or ends on a blank source line."""
    walker = _Walker(Outline(source))
    walker.walk(markdown_parser(mdx).parse(text))
    return walker.outline.finish(len(source))


# --------------------------------------------------------------------------- line-keeping rewrites


def _writes(lines: list[str], marker: re.Pattern[str]) -> bool:
    """Whether the text holds `marker` anywhere: a rewrite whose marker the text never writes (most texts
    import nothing, hold no JSX comment, no exercise, no MyST include) leaves every line as it was, and
    need not find the text's code fences first."""
    return marker.search("\n".join(lines)) is not None


def _outside_fences(lines: list[str]) -> list[bool]:
    """For each line, whether it is outside a fenced code block (fence lines count as inside)."""
    marks, fence = [], ""
    for line in lines:
        opener = _FENCE.match(line)
        if fence:
            marks.append(False)
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = ""
        elif opener:
            marks.append(False)
            fence = opener.group(1)
        else:
            marks.append(True)
    return marks


def _drop_jsx_comments(lines: list[str]) -> list[str]:
    """JSX comments (`{/*anchor*/}` after a heading, `{/* TODO */}`) removed from prose lines outside code
    spans: Markdown files of MDX sites (react.dev writes `.md`) hold them, and no Markdown text means one."""
    if not _writes(lines, _JSX_COMMENT_OPEN):
        return list(lines)
    return [
        _without_jsx_comments(line) if prose else line
        for line, prose in zip(lines, _outside_fences(lines), strict=True)
    ]


def _without_jsx_comments(line: str) -> str:
    return _JSX_COMMENT.sub(lambda m: m.group() if _in_code_span(line, m.start()) else "", line)


def _in_code_span(line: str, at: int) -> bool:
    return line[:at].count("`") % 2 == 1


def _drop_exercises(lines: list[str]) -> list[str]:
    """An MDX site's exercise blocks (`<Challenges>`, their `<Solution>`s and `<Hint>`s) and its "you will
    learn" lists blanked whole, code included: a task set for the reader and its worked answer, or the page's
    own table of contents, not what the page says its subject is. A `<Recap>` opens a section of its own
    ("Recap", "摘要" on a Chinese page, as the site renders it), so its items do not read as the last
    section's."""
    if not _writes(lines, _EXERCISE_TAG):
        return list(lines)
    out: list[str] = []
    closing = ""
    for n, (line, prose) in enumerate(zip(lines, _outside_fences(lines), strict=True)):
        if closing:
            out.append("")
            if prose and line.strip().startswith(closing):
                closing = ""
            continue
        opened = _EXERCISE.match(line) if prose else None
        if opened and not opened.group(2):  # `<Hint>…</Hint>` on one line closes itself
            closing = f"</{opened.group(1)}>"
        if prose and _RECAP.match(line):
            out.append("## 摘要" if _HAN.search(" ".join(lines[n + 1 : n + 4])) else "## Recap")
        else:
            out.append("" if opened else line)
    return out


def _partials(lines: list[str]) -> list[str]:
    """Each line that only renders an imported Markdown partial (`<Types />` after `import Types from
    './_types.mdx'`) as the marker the docs stage reads that file's blocks for (included.PARTIAL): the built
    page shows the partial there."""
    if not _writes(lines, _IMPORT_LINE):
        return lines
    prose = _outside_fences(lines)
    imported = {
        m.group(1): m.group(2)
        for line, p in zip(lines, prose, strict=True)
        if p and (m := _PARTIAL_IMPORT.match(line))
    }
    if not imported:
        return lines
    out = []
    for line, p in zip(lines, prose, strict=True):
        used = _PARTIAL_USE.match(line) if p else None
        name = imported.get(used.group(1), "") if used else ""
        out.append(f'{PARTIAL} "{name}"' if name and '"' not in name else line)
    return out


def _drop_esm_imports(lines: list[str]) -> list[str]:
    """A Markdown page's paragraphs made only of ES module imports blanked: an MDX site's `.md` pages import
    the components they use, and the built page shows none of it."""
    if not _writes(lines, _IMPORT_LINE):
        return list(lines)
    prose = _outside_fences(lines)
    out = list(lines)
    n = 0
    while n < len(lines):
        end = n
        while end < len(lines) and prose[end] and _ESM_IMPORT.match(lines[end]):
            end += 1
        bounded = (n == 0 or not lines[n - 1].strip()) and (end == len(lines) or not lines[end].strip())
        if end > n and bounded:
            out[n:end] = [""] * (end - n)
        n = max(end, n + 1)
    return out


def _strip_mdx(lines: list[str]) -> list[str]:
    """MDX: imports and exports blanked, JSX tags and comments removed with their text children kept."""
    out: list[str] = []
    in_statement = in_tag = False
    for line, prose in zip(lines, _outside_fences(lines), strict=True):
        if not prose:
            out.append(line)
        elif in_statement or _MDX_STATEMENT.match(line):
            in_statement = not _MDX_STATEMENT_END.search(line)
            out.append("")
        elif in_tag:
            in_tag = ">" not in line
            out.append("")
        elif _JSX_OPEN_UNCLOSED.match(line):
            in_tag = True
            out.append("")
        else:
            kept = _JSX_TAG.sub("", _named_components(_without_jsx_comments(line)))
            out.append("" if _JSX_EXPRESSION_LINE.match(kept) else kept.strip() if kept != line else line)
    return out


# a component standing for a term inside a sentence, written without attributes or children: a Docusaurus site's
# link to its glossary ("Accepts one or more <InternalLinks.InputSelectors />" read 'Accepts one or more ""' once
# the tag went): the words of its name stand in its place
_NAMED_COMPONENT = re.compile(r"<((?:[A-Z]\w*\.)*[A-Z][A-Za-z0-9]*)\s*/>")
_CAMEL_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")


def _named_components(line: str) -> str:
    if "/>" not in line or not line.strip() or _NAMED_COMPONENT.fullmatch(line.strip()):
        return line  # a component alone on its line is a block the site renders: no words of the text
    return _NAMED_COMPONENT.sub(
        lambda tag: (
            line[tag.start() : tag.end()]
            if _in_code_span(line, tag.start())
            else " ".join(_CAMEL_WORD.findall(tag[1].rpartition(".")[2]))
        ),
        line,
    )


@dataclass
class _Fence:
    """An open fence: its marker (```` ``` ````, `~~~`, `:::`) and what becomes of its lines."""

    marker: str
    action: str  # "drop" (a navigation directive), "prose" (an admonition's body), "code" (a code block)
    colons: bool = False  # a `:::{code-block}` fence, rewritten as a backtick fence


def _directives_named(lines: list[str], name: str) -> Iterator[tuple[int, int, re.Match[str]]]:
    """Each MyST directive `name` outside code: its opening line, its closing fence's line (the text's end
    when it is never closed) and its opening's match."""
    if f"{{{name}}}" not in "\n".join(lines).lower():
        return
    fence = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        opened = None if fence else _DIRECTIVE.match(line)
        if opened and opened.group(3).lower() == name:
            end = next(
                (j for j in range(i + 1, len(lines)) if _closes(lines[j], opened.group(2))), len(lines)
            )
            yield i, end, opened
            i = end + 1
            continue
        plain = _FENCE.match(line)
        if fence and _closes(line, fence):
            fence = ""
        elif not fence and plain:
            fence = plain.group(1)
        i += 1


def _eval_rst(lines: list[str], rst: RstLines | None) -> list[str]:
    """Each MyST `{eval-rst}` block (outside code) with its body rewritten by `rst` as the Markdown it
    means, its fence lines blanked; blanked whole without `rst`."""
    out = list(lines)
    for i, end, _ in _directives_named(lines, "eval-rst"):
        body = lines[i + 1 : end]
        # one line more: a code block that ends the body closes on the fence's own line
        read = (rst(body + [""]) + [""] * (len(body) + 1))[: len(body) + 1] if rst else []
        out[i : end + 1] = [""] + (read or [""] * (len(body) + 1))
    return out[: len(lines)]


# Hugo's shortcodes (`{{< figure src="…" >}}`, `{{% note %}}`…`{{% /note %}}`, `{{< tabs >}}`): the site's
# markup around the text, never text itself
_SHORTCODE = re.compile(r"\{\{([<%])\s*/?\s*([\w.-]+)((?:[^}]|\}(?!\}))*)\}\}")
_SHORTCODE_LINE = re.compile(r"^\s*(?:\{\{[<%](?:[^}]|\}(?!\}))*\}\}\s*)+$")
# … one that shows a file where it stands (mitmproxy's `{{< example src="examples/addons/x.py" lang="py" >}}`,
# `readfile`, a site's `load-snippet`) includes it; `ref` and `relref` stand for the page they link
_SHOWS_FILE = re.compile(
    r"^(?:example|readfile|load-snippet(?:-partial)?|snippet|include|code)$", re.IGNORECASE
)
_FILE_ARGUMENT = re.compile(r'\b(?:src|file|path)\s*=\s*"([^"\s]+)"')
_QUOTED = re.compile(r'"([^"\n]*)"')


def _hugo_shortcodes(lines: list[str]) -> list[str]:
    """Hugo's shortcodes outside code: a line of shortcodes alone blanked, or, for one showing a file, the
    marker the docs stage reads that file for (included.py: a text file's text, a program as code);
    `{{< relref "/overview/features" >}}` in a link as the page it names; any other in a line removed."""
    if not any("{{" in line for line in lines):
        return lines
    out = []
    for line, prose in zip(lines, _outside_fences(lines), strict=True):
        if not prose or "{{" not in line:
            out.append(line)
        elif _SHORTCODE_LINE.match(line):
            codes = list(_SHORTCODE.finditer(line))
            shown = _FILE_ARGUMENT.search(codes[0].group(3)) if len(codes) == 1 else None
            named = shown.group(1) if shown and _SHOWS_FILE.match(codes[0].group(2)) else ""
            # a file of code as an indented code block holding its marker (the site shows it as code)
            marker = included_text(named, {}) or (f'    {SNIPPET} "{named}"' if named else "")
            out.append(marker)
        else:
            out.append(_SHORTCODE.sub(_inline_shortcode, line))
    return out


def _inline_shortcode(found: re.Match[str]) -> str:
    if found.group(2).lower() in ("ref", "relref") and (target := _QUOTED.search(found.group(3))):
        return target.group(1)
    return ""


# markdown-include's line (`{!docs/installation.md!}`; FastAPI's docs write `{!> ../docs_src/app.py !}`)
_MARKDOWN_INCLUDE = re.compile(r"^(\s*)\{!>?\s*([^!\s][^!\n]*?)\s*!\}\s*$")


def _markdown_includes(lines: list[str]) -> list[str]:
    """Each markdown-include line as the marker the docs stage reads its file for: in prose, a text file's
    (pendulum's docs/index.md is seventeen `{!docs/….md!}` lines) as its text (included.PROSE); in a code
    block (sqlmodel's tutorials fence their `{!./docs_src/….py!}` programs) as a snippet, the file's code."""
    if not any("{!" in line for line in lines):
        return lines
    out = []
    for at, (line, prose) in enumerate(zip(lines, _outside_fences(lines), strict=True)):
        found = _MARKDOWN_INCLUDE.match(line)
        name = found.group(2) if found and '"' not in found.group(2) else ""
        # in code, only a fence holding the line alone: a page showing the syntax in an example keeps it
        alone = 0 < at < len(lines) - 1 and all(_FENCE_LINE.match(lines[i]) for i in (at - 1, at + 1))
        marker = (
            (included_text(name, {}) if prose else f'{SNIPPET} "{name}"' if alone else "") if name else ""
        )
        out.append(found.group(1) + marker if found and marker else line)
    return out


_FENCE_LINE = re.compile(r"^\s*(?:`{3,}|~{3,})")


def _code_imports(lines: list[str]) -> list[str]:
    """Each VuePress code import outside code (`@[code{3-10} python](../examples/run.py)`) as the marker the
    docs stage reads those lines of that file for (included.CODE): the built page shows them there as code."""
    if not any("@[code" in line for line in lines):
        return lines
    out = []
    for line, prose in zip(lines, _outside_fences(lines), strict=True):
        found = _CODE_IMPORT.match(line) if prose else None
        if found:
            indent, start, dash, end, language, name = found.groups()
            end = end if dash else start  # `{3}` is line 3 alone
            line = indent + (code_marker(name, start, end, language or "") or line.strip())
        out.append(line)
    return out


def _myst_includes(lines: list[str]) -> list[str]:
    """Each MyST `{include}` of a text file (outside code) as the marker the docs stage reads that file's text
    for (included.PROSE), its other lines blanked: the built page shows the file there."""
    out = list(lines)
    for i, end, opened in _directives_named(lines, "include"):
        if marker := included_text(opened.group(4), directive_options(lines[i + 1 : end])):
            out[i : end + 1] = [opened.group(1) + marker, *[""] * (min(end, len(lines) - 1) - i)]
    return out[: len(lines)]


def directive_options(lines: list[str]) -> dict[str, str]:
    """A directive's options, MyST's or reST's (the `:name: value` lines opening its body), each value whole."""
    found: dict[str, str] = {}
    for line in lines:
        if not _DIRECTIVE_OPTION.match(line):
            break
        key, _, value = line.strip()[1:].partition(":")
        found[key] = value.strip()
    return found


def _myst_directives(lines: list[str]) -> list[str]:
    """MyST directives: a prose directive's markers and options blanked, its body kept; a navigation or
    build directive blanked whole; a code directive rewritten as a plain fence with its language. Quarto's
    and R Markdown's ```` ```{python} ```` is a code block in that language."""
    out: list[str] = []
    stack: list[_Fence] = []
    options = False  # the `:key: value` lines right after a directive's opening
    for line in lines:
        dropping = any(f.action == "drop" for f in stack)
        if stack and _closes(line, stack[-1].marker):
            fence = stack.pop()
            keep = fence.action == "code" and not dropping
            out.append(("```" if fence.colons else line) if keep else "")
            options = False
            continue
        if options and _DIRECTIVE_OPTION.match(line):
            out.append("")
            continue
        options = False
        if stack and stack[-1].action == "code":
            out.append("" if dropping else line)
            continue
        opened = _DIRECTIVE.match(line)
        if opened:
            fence, rewritten = _directive(opened)
            stack.append(fence)
            options = True
            out.append("" if dropping else rewritten)
        elif plain := _FENCE.match(line):
            # ```` ```warning ```` (mermaid's docs, rendered as a callout): an admonition, not code
            callout = line.strip()[len(plain.group(1)) :].strip().lower() in _CALLOUT_FENCES
            stack.append(_Fence(plain.group(1), "prose" if callout else "code"))
            out.append("" if dropping or callout else line)
        else:
            out.append("" if dropping else line)
    return out


def _directive(opened: re.Match[str]) -> tuple[_Fence, str]:
    """The fence a directive's opening line starts, and what that line becomes."""
    indent, marker, name, argument = opened.groups()
    name = name.lower()
    if name in _PROSE_DIRECTIVES:
        # a content tab's label stays where its button shows (`{tab-item} AIOHTTP`)
        return _Fence(marker, "prose"), f"{indent}{argument}" if name in TAB_ITEMS else ""
    if _DROPPED_DIRECTIVES.match(name):
        return _Fence(marker, "drop"), ""
    language = argument.split()[0] if name in _CODE_DIRECTIVES and argument else name
    if name in _CODE_DIRECTIVES and not argument:
        language = ""
    colons = marker.startswith(":")
    return _Fence(marker, "code", colons), f"{indent}{'```' if colons else marker}{language}"


def _closes(line: str, marker: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(marker) and set(stripped) == {marker[0]}


def _unwrap_containers(lines: list[str]) -> list[str]:
    """Admonition markers (`!!! note`), content tab titles (`=== "pip"`) and container fences (`:::tip`)
    blanked, an admonition's or tab's indented body dedented so that it reads as paragraphs and code, a body
    inside another's (tabs in an admonition) too; an mkdocstrings autodoc marker's options blanked, the marker
    kept as a line of its own when it names a dotted object (documents/included.api_names: the docs stage
    shows that object's docstrings; every other reader drops it)."""
    out: list[str] = []
    bodies: list[int] = []  # the open bodies' indentation in columns, outermost first
    fence, fence_depth = "", 0  # an open code fence and how many bodies it sits in
    autodoc = -1  # the indentation of an autodoc marker whose options block is being dropped
    for n, line in enumerate(lines):
        if autodoc >= 0 and (not line.strip() or indent_width(line) > autodoc):
            out.append("")
            continue
        autodoc = -1
        while bodies and line.strip() and indent_width(line) < bodies[-1]:
            bodies.pop()
        if fence and fence_depth > len(bodies):
            fence = ""  # the body holding the fence ended, so did the fence
        text = dedent_by(line, bodies[-1]) if bodies else line
        opener = _FENCE.match(text)
        if fence:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = ""
            out.append(text)
        elif opener:
            fence, fence_depth = opener.group(1), len(bodies)
            out.append(text)
        elif found := _AT_TAB.match(text):
            out.append(_at_tab_label(found, lines[max(n - 1, 0) : n], lines[n + 1 : n + 2]))
        elif found := _ADMONITION.match(text) or _TAB.match(text):
            bodies.append((bodies[-1] if bodies else 0) + len(found.group(1).expandtabs(4)) + 4)
            out.append(_tab_label(found, lines[max(n - 1, 0) : n], lines[n + 1 : n + 2]))
        elif _is_autodoc(text, lines[n + 1 : n + 2]):
            autodoc = indent_width(line)
            out.append(text.strip() if API_LINE.match(text) else "")  # the docs stage reads the object
        else:
            out.append(_container_sentence(text) if _CONTAINER.match(text) else text)
    return out


def _container_sentence(marker: str) -> str:
    """What stays of a container's marker line: its title when that is a sentence (`_CONTAINER_SENTENCE`),
    as a line of text; else nothing."""
    found = _CONTAINER_SENTENCE.match(marker)
    return found["indent"] + found["text"] if found else ""


def _tab_label(found: re.Match[str], before: list[str], after: list[str]) -> str:
    """A content tab's title (`=== "pip"`) as a line of its own where its button shows, when neither the
    line before nor the one after can run on into it (a blank line; after it, a code fence too); an
    admonition's marker: ""."""
    title = found.group(0).strip()
    if not title.startswith("===") or _runs_on(before, after):
        return ""
    return found.group(1) + title.split('"')[1].strip()


def _at_tab_label(found: re.Match[str], before: list[str], after: list[str]) -> str:
    """A VuePress tab's title (`@tab pypi`) as a content tab's (`_tab_label`): a line of its own where its
    button shows, else nothing; the marker itself is never text."""
    return "" if _runs_on(before, after) else found.group(1) + found.group(2)


def _runs_on(before: list[str], after: list[str]) -> bool:
    """Whether the line before a tab's title, or the one after it (unless a code fence), would run on into
    it: the title then shows as no line of its own."""
    return bool(
        before and before[0].strip() or after and after[0].strip() and not _FENCE.match(after[0].strip())
    )


def _is_autodoc(line: str, after: list[str]) -> bool:
    """mkdocstrings' `::: package.module.Object` (a dotted identifier, or any identifier over an indented
    options block): the build inserts the object's API documentation there; the marker and its options
    (`options:`, `:docstring:`) are no text of the page. VitePress's `::: tip` has neither a dotted name nor
    an options block under it."""
    found = _AUTODOC.match(line)
    if found is None:
        return False
    options = bool(after) and indent_width(after[0]) > indent_width(line) and _OPTION.match(after[0].strip())
    return "." in found.group(1) or bool(options)


def drop_admonitions(text: str) -> str:
    """Admonitions (`!!! note` and their indented bodies) blanked: our own pages' notices, not content."""
    lines = text.split("\n")
    out: list[str] = []
    body_indent = -1
    for line, prose in zip(lines, _outside_fences(lines), strict=True):
        if body_indent >= 0 and (not line.strip() or indent_width(line) >= body_indent):
            out.append("")
            continue
        body_indent = -1
        found = _ADMONITION.match(line) if prose else None
        if found:
            body_indent = len(found.group(1).expandtabs(4)) + 4
        out.append("" if found else line)
    return "\n".join(out)


def indent_width(line: str) -> int:
    """A line's indentation in columns, a tab counted as four."""
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def dedent_by(line: str, width: int) -> str:
    """The line without up to `width` columns of its indentation (tabs expanded to four)."""
    expanded = line.expandtabs(4)
    return expanded[min(width, indent_width(line)) :]


# --------------------------------------------------------------------------- tokens to blocks


@dataclass
class _Item:
    """An open list item: its paragraphs since it (or the code or list inside it) was last emitted."""

    start: int
    end: int
    lead: str
    texts: list[str] = field(default_factory=list)
    said: str = ""  # what the item said before the code or nested list inside it


@dataclass
class _Walker:
    outline: Outline
    leads: list[str] = field(default_factory=list)  # one per open list: what introduces its items
    items: list[_Item] = field(default_factory=list)
    quote: list[str] = field(default_factory=list)
    quote_depth: int = 0
    quote_span: tuple[int, int] = (0, 0)
    twoslash: Twoslash = field(default_factory=Twoslash)
    closed: tuple[str, int] | None = None  # the lead of the top-level list closed last, and the blocks then

    def walk(self, tokens: list[Token]) -> None:
        i = 0
        while i < len(tokens):
            i = self.step(tokens, i)

    def step(self, tokens: list[Token], i: int) -> int:
        token = tokens[i]
        kind = token.type
        if kind == "heading_open" and token.level == 0 and not self.quote_depth:
            heading = clean_heading(tokens[i + 1].content)  # any HTML kept as words, never rendered
            self.closed = None
            self.outline.open(heading, int(token.tag[1:]), _start(token))
            return i + 3
        if kind == "blockquote_open":
            self._open_quote(token)
        elif kind == "blockquote_close":
            self._close_quote()
        elif kind == "table_open":
            return self._table(tokens, i)
        elif kind in ("fence", "code_block"):
            self._code(token)
        elif kind == "inline" and self.quote_depth:
            self.quote.append(block_text(token))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            self._open_list(token)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lead = self.leads.pop()
            self.closed = (lead, len(self.outline.blocks)) if not self.leads else self.closed
        elif kind == "list_item_open":
            self.items.append(_Item(_start(token), _start(token), self.leads[-1] if self.leads else ""))
        elif kind == "list_item_close":
            self._emit_item(self.items.pop())
        elif kind in ("paragraph_open", "heading_open"):
            self._paragraph(token, tokens[i + 1])
            return i + 3
        elif kind == "html_block" and not self.items and "<table" in token.content.lower():
            for table in html_tables(token.content):  # a table written in HTML is a table all the same
                text = "\n".join(" | ".join(row) for row in table.rows)
                start, end = _start(token) + table.start, _start(token) + table.end
                self.outline.add(Block("table", text, start, max(start, end), rows=table.rows))
        elif (
            kind == "html_block"
            and not self.items
            and ("<p" in (lower := token.content.lower()) or "<div" in lower)
        ):
            for found in html_paragraphs(token.content):
                start = _start(token) + found.start
                self.outline.add(
                    Block("paragraph", clean_text(found.text), start, max(start, _start(token) + found.end))
                )
        return i + 1

    def _paragraph(self, opened: Token, inline: Token) -> None:
        text = block_text(inline)
        if self.quote_depth:
            self.quote.append(text)
        elif self.items:
            item = self.items[-1]
            if not item.texts:
                item.start = _start(opened)
                text = _TASK_MARK.sub(lambda box: TASK_BOXES[box.group(1).lower()], text, count=1)
            item.texts.append(text)
            item.end = _end(opened)
        elif _FOOTNOTE_DEFINITION.match(inline.content):
            return  # a note at the page's foot, not the next paragraph here
        elif (lines := _broken_lines(inline)) is not None:
            for at, line in lines:
                self.outline.add(Block("item", line, _start(opened) + at, _start(opened) + at))
        elif text and not _is_widget(inline.content):
            self.outline.add(Block("paragraph", text, _start(opened), _end(opened)))

    def _open_list(self, token: Token) -> None:
        if self.items:  # a nested list: its parent item comes first, and introduces it
            self.leads.append(self._emit_item(self.items[-1]))
            return
        if self._numbered_on(token):  # "2. 运行例子" after "1. 运行dtm" and its unindented command
            self.leads.append(self.closed[0] if self.closed else "")
            return
        last = self.outline.last
        self.leads.append(last.text if last is not None and last.kind == "paragraph" else "")

    def _numbered_on(self, token: Token) -> bool:
        """Whether an ordered list numbered from past 1 goes on with the list closed last, only code blocks
        between them: a step's example written unindented ends the list in Markdown, never for its author
        (DTM's tutorials: "步骤如下：", "1. 运行dtm", its commands, "2. 运行例子")."""
        start = token.attrGet("start") if token.type == "ordered_list_open" else None
        if self.closed is None or not isinstance(start, int) or start < 2:
            return False
        after = self.outline.blocks[self.closed[1] :]
        return bool(after) and all(block.kind == "code" for block in after)

    def _emit_item(self, item: _Item) -> str:
        """Add what the item said so far as a block; its text (or what it said before, if nothing new)."""
        if item.texts:
            texts = item.texts
            # "[Yarn Selective Dependency Resolutions](…)" over its paragraph: the label leads it
            if len(texts) > 1 and _LABEL_ONLY.fullmatch(texts[0]):
                texts = [f"{texts[0]} — {texts[1]}", *texts[2:]]
            item.said = "\n\n".join(texts)
            self.outline.add(Block("item", item.said, item.start, item.end, lead=item.lead))
            item.texts = []
        return item.said

    def _code(self, token: Token) -> None:
        if self.quote_depth:
            self.quote.append(token.content.rstrip("\n"))
            return
        lead = ""
        if self.items:
            lead = self._emit_item(self.items[-1])
        elif (last := self.outline.last) is not None and last.kind == "paragraph":
            lead = introducing(last.text)
            before = self.outline.blocks[-2] if len(self.outline.blocks) > 1 else None
            if _pointing(lead) and before is not None and before.kind == "paragraph":
                lead = introducing(f"{before.text} {lead}")  # "For example:" alone: what comes before says
            elif is_label(last.text) and before is not None and before.kind == "paragraph":
                lead = introducing(before.text)  # a content tab's label ("pip"): what opens the tabs says
        language = _fence_language(token.info or "")
        shown = self.twoslash.shown(token.info or "", token.content)
        if shown is None or shown.text != token.content and not shown.text.strip():
            return  # an include block, or one whose shown part is empty
        start = _start(token) + (shown.skipped + (token.type == "fence") if shown.skipped else 0)
        code = shown.text.strip("\n")
        # a block shown as written keeps its lines: its text's first is below the fence and its blank lines
        above = len(shown.text) - len(shown.text.lstrip("\n"))
        first = _start(token) + (token.type == "fence") + above if shown.text == token.content else 0
        self.outline.add(Block("code", code, start, _end(token), language, introducing(lead), first=first))

    def _open_quote(self, token: Token) -> None:
        if not self.quote_depth:
            self.quote, self.quote_span = [], (_start(token), _end(token))
        self.quote_depth += 1

    def _close_quote(self) -> None:
        self.quote_depth -= 1
        if not self.quote_depth:
            text = _ALERT.sub(
                lambda m: f"{m[1].title()}: ", "\n\n".join(t for t in self.quote if t), count=1
            ).rstrip()
            self.outline.add(Block("quote", text, *self.quote_span))

    def _table(self, tokens: list[Token], i: int) -> int:
        opened = tokens[i]
        rows: list[list[str]] = []
        while tokens[i].type != "table_close":
            token = tokens[i]
            if token.type == "tr_open":
                rows.append([])
            elif token.type == "inline" and rows:
                rows[-1].append(block_text(token))
            i += 1
        kept = tuple(tuple(row) for row in rows if any(row))
        text = "\n".join(" | ".join(row) for row in kept)
        self.outline.add(Block("table", text, _start(opened), _end(opened), rows=kept))
        return i + 1


# an item's first paragraph that only names what the paragraphs below it say ("Yarn Selective Dependency
# Resolutions", a link's text, over "This feature is very similar to yarn resolutions…"): a few words, no
# sentence of their own; joined to the next paragraph they read as one ("Resolutions This feature …")
_LABEL_ONLY = re.compile(r"[^.!?:;\n]{1,80}(?<![.!?:;,])", re.DOTALL)


# a GitHub alert's marker (`> [!NOTE]`, `> [!WARNING]`): GitHub shows it as the label "Note", never as written
_ALERT = re.compile(r"^\\?\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\\?\]\s*", re.IGNORECASE)


def _start(token: Token) -> int:
    return token.map[0] + 1 if token.map else 1


def _end(token: Token) -> int:
    return max(token.map[1], token.map[0] + 1) if token.map else 1


def _is_widget(source: str) -> bool:
    """A paragraph naming a docs site's alternative views side by side (a toggle's labels)."""
    return bool(_WIDGET_TOGGLE.search(source))


def introducing(text: str) -> str:
    """The sentence of a paragraph that introduces what follows it: its last, with the one before when the
    last alone is a bare pointer of a few words ("Here's an example:" after "The Console object has a
    `print` method …"), which says nothing without it."""
    pieces = [p.strip() for p in _SENTENCE_END.split(text.strip()) if p.strip()]
    if len(pieces) >= 2 and _points_only(pieces[-1]):
        return pieces[-2] + ("" if pieces[-2].endswith(("。", "！", "？")) else " ") + pieces[-1]
    return pieces[-1] if pieces else ""


def _points_only(sentence: str) -> bool:
    """A sentence of a few words naming nothing (no code span): "Here's an example:", "示例如下：", or of
    pointing words alone ("An example of this is below:", "Here is an example of the usage:")."""
    if "`" in sentence:
        return False
    short = len(sentence.split()) <= POINTER_WORDS and len(sentence) <= 8 * POINTER_WORDS
    return short or _pointing(sentence)


def is_label(text: str) -> bool:
    """A label of a few words, no sentence (a content tab's title: "pip", "Synchronous (run in foreground)")."""
    return len(text.split()) <= LABEL_WORDS and not text.rstrip().endswith(tuple(".!?:;。！？：；"))


def _pointing(sentence: str) -> bool:
    """A sentence of pointing words alone ("For example:", "An example of this is below:"); a paragraph of
    one before code says nothing of its own, where a short caption ("Escaped, as written:") does."""
    words = _WORD.findall(sentence.lower())
    return (
        "`" not in sentence
        and bool(words)
        and len(words) <= 2 * POINTER_WORDS
        and all(w in _POINTING for w in words)
    )


_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
BROKEN_LINES = 3  # lines ended by <br> that make a list, not a paragraph with a break


def _broken_lines(inline: Token) -> list[tuple[int, str]] | None:
    """A paragraph written as a list, each line ended by `<br>` (consola's "Why Consola?": "👌&nbsp; Easy to
    use<br>", "🔌&nbsp; Pluggable reporters<br>" …): its lines as (0-based line offset, text), each read as an
    item is; None for a paragraph of prose, which a break or two leaves one paragraph."""
    children = inline.children or []
    lines: list[list[Token]] = [[]]
    for child in children:
        if child.type in ("softbreak", "hardbreak"):
            lines.append([])
        else:
            lines[-1].append(child)
    ended = [
        bool(line) and line[-1].type == "html_inline" and _BR.fullmatch(line[-1].content) for line in lines
    ]
    if len(lines) < BROKEN_LINES or not all(ended[:-1]):
        return None
    found = [(at, clean_text(inline_text(line))) for at, line in enumerate(lines)]
    return [(at, text) for at, text in found if text]


def block_text(inline: Token) -> str:
    return clean_text(inline_text(inline.children or []))


def inline_text(children: list[Token], *, code: bool = True) -> str:
    """Inline markup to text: link text without its target, code spans in backticks (`code`), html
    dropped (a demo tag with its title too), images too unless they stand in a sentence (a formula's alt
    text), a link whose text is only a citation number dropped with it. Struck-out text (`~~…~~`) is
    dropped: the author withdrew it, and a reader sees it crossed out, never as what the document says now
    (Argo CD's rebalancing proposal strikes its Redis design and writes the ConfigMap one after it)."""
    parts: list[str] = []
    link_start: int | None = None
    struck = demo = 0
    in_prose = any(c.type in ("text", "code_inline") and c.content.strip() for c in children)
    for child in children:
        kind = child.type
        if kind in ("s_open", "s_close"):
            struck += 1 if kind == "s_open" else -1
        elif kind == "html_inline" and (
            _DEMO_TAG.match(child.content) or (demo and child.content == "</code>")
        ):
            demo = 0 if child.content == "</code>" else 1
        elif struck or demo:
            continue
        elif kind == "link_open":
            link_start = len(parts)
        elif kind == "link_close" and link_start is not None:
            if _CITATION_TEXT.match("".join(parts[link_start:])):
                del parts[link_start:]
            link_start = None
        elif kind == "text":
            parts.append(_UNSEEN_STRONG.sub(r"\1", child.content))
        elif kind == "code_inline":
            role = _MYST_ROLE.search(parts[-1]) if parts else None
            if role:  # {func}`~pkg.name` in Markdown (MyST): shown as Sphinx shows the role
                parts[-1] = parts[-1][: role.start()]
                shown, as_code = role_shown(role.group(1).split(":")[-1], child.content)
                parts.append(code_span(shown) if as_code and code else shown)
            else:
                parts.append(code_span(child.content) if code else child.content)
        elif kind in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif kind == "html_inline" and not _is_html_tag(child.content):
            parts.append(child.content)  # a placeholder written like a tag: "repos/<owner>/"
        elif kind == "image" and in_prose and link_start is None:  # a formula or symbol set as an image,
            # mid-sentence; a linked image is a badge or a logo, even in a row ending in words ("& more!")
            alt = inline_text(child.children or [], code=code)
            parts.append(alt if len(alt) <= MAX_INLINE_ALT else "")
    return "".join(parts)  # an image alone (a badge, a figure) is dropped


# a dumi demo (`<code src="./demo/basic.tsx">基本</code>`): the site renders the example from another file under
# its title; the title alone says nothing, and a page's list of them read "基本 多行水印 图片水印 自定义配置 …"
_DEMO_TAG = re.compile(r"<code\s[^>]*\bsrc=", re.IGNORECASE)


def role_shown(name: str, body: str) -> tuple[str, bool]:
    """A Sphinx role's text as the built docs show it, and whether in code type (not for the roles linking
    to prose: `:ref:`, `:doc:`): a cross-reference's explicit title ("Title <target>"), `~a.b.C` as its last
    part `C`, a leading `.` (a suffix search) dropped, `:pep:`440`` as "PEP 440"."""
    if "<" in body and body.rstrip().endswith(">"):
        label = _TARGET_TEXT.sub("", body).strip()
        if not label:
            return body, True
        return label, name not in _PLAIN_ROLES
    if name == "doc":  # a page named by its path: its name ("../core-concepts" → "core-concepts")
        body = body.strip().rstrip("/").rpartition("/")[2]
    if body.startswith("~"):
        body = body[1:].rpartition(".")[2] if "." in body else body[1:]
    body = body.lstrip("~!.").strip()
    if name in _NUMBERED_ROLES:  # an anchor after # is not shown
        return f"{_NUMBERED_ROLES[name]} {body.partition('#')[0]}", False
    return body, name not in _PLAIN_ROLES


def _is_html_tag(markup: str) -> bool:
    found = _TAG_NAME.match(markup)
    return found is None or found.group(1).lower() in _HTML_ELEMENTS


def code_span(content: str, *, padded: bool = False) -> str:
    """`content` as a code span, fenced by one more backtick than its longest run; `padded`, a space inside
    each fence when it begins or ends with a backtick (a reST signature)."""
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", content)), default=0) + 1)
    pad = " " if padded and (content.startswith("`") or content.endswith("`")) else ""
    return f"{ticks}{pad}{content}{pad}{ticks}"


def clean_text(text: str) -> str:
    text = _FOOTNOTE_REF.sub("", text)
    text = " ".join(text.replace("\u00a0", " ").split())
    return _SPACE_BEFORE_STOP.sub(r"\1", text)  # where a dropped citation or image left a gap


# a fence's language: its info string's first word, before any attribute (`rust,ignore`, `js{1,3}`,
# `{r, echo=FALSE}`, `{.python}`, `python title="a.py"`)
_FENCE_LANGUAGE = re.compile(r"[\w+#-][\w+#.-]*")


def _fence_language(info: str) -> str:
    found = _FENCE_LANGUAGE.match(info.strip().lstrip("{.").lstrip())
    return found.group(0)[:20] if found else ""
