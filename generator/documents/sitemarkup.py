"""A docs site's own markup in a page's prose: the MkDocs macros plugin's Jinja calls (`{{ asciinema("x.cast",
rows="12") }}`, `{% include "x.md" %}`), which render as a widget or nothing; attr_list's `{ loading=lazy }`
after an image and kramdown's `{: .note }` on its own line; Material's `:material-…:` icons; md_in_html's
`<div … markdown>` wrapper, whose body is Markdown (huma's badge row). Rewritten line for line, outside code,
so that a page never shows the markup as text."""

from __future__ import annotations

import re

# a Jinja expression calling a function, or a statement tag: what the page computes when it renders (Hugo's
# `{{% note %}}` is a shortcode, markdown.py's)
_JINJA_CALL = re.compile(
    r"\{\{-?\s*[A-Za-z_][\w.]*\s*\((?:[^}]|\}(?!\}))*\)\s*-?\}\}|(?<!\{)\{%-?(?:[^%]|%(?!\}))*-?%\}(?!\})"
)
_JINJA_LINE = re.compile(rf"^\s*(?:(?:{_JINJA_CALL.pattern})\s*)+$")
# … and a call spread over lines (BIDS' `{{ MACROS___make_filename_template(` … `) }}`), up to its closing line
_JINJA_OPENS = re.compile(r"^\s*\{\{-?\s*[A-Za-z_][\w.]*\s*\((?:[^}]|\}(?!\}))*$")
_JINJA_CLOSES = re.compile(r"\)\s*-?\}\}\s*$")
_CALL_LINES = 60  # a call running longer is no call: its lines are kept
# attr_list's attributes after an image or a link (`![API docs](x.png){ loading=lazy }`, `[Go](x){ .md-button }`)
_ATTRIBUTE = r"""(?:[#.][\w-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s}]+))"""
_ATTRIBUTES = rf"\{{:?[ \t]*{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*[ \t]*\}}"
_INLINE_ATTRIBUTES = re.compile(rf"(?<=[)\]])[ \t]?{_ATTRIBUTES}")
# … or on a line of their own, kramdown's block attributes (Just the Docs' `{: .warning }` over a callout,
# `{: .fs-6 .fw-300 }` under a lead paragraph): classes and ids only — one setting values (`{: onclick=… }`)
# stays text, as any untrusted markup does, and the paragraph it closes stays whole
_ATTRIBUTES_LINE = re.compile(r"^\s*\{:?[ \t]*[#.][\w-]+(?:[ \t]+[#.][\w-]+)*[ \t]*\}\s*$")
# Material for MkDocs' icon shortcodes (`Get started :material-arrow-right-bold:`, `:octicons-mark-github-16:`)
# with the attributes sizing it (a grid card's `:material-clock-fast:{ .lg .middle }`)
_ICON = re.compile(rf"[ \t]?:(?:material|octicons|fontawesome|simple)-[\w-]+:(?:{_ATTRIBUTES})?")
# md_in_html: a block tag with a `markdown` attribute, alone on its line, and the line closing it
_MARKDOWN_DIV = re.compile(
    r"^\s*<(div|section|article|span|p)\b[^<>]*\bmarkdown(?:\s*=\s*[\"']?(?:1|block|span)[\"']?)?[^<>]*>\s*$",
    re.I,
)


def without_site_markup(lines: list[str], prose: list[bool]) -> list[str]:
    """The `lines` (`prose`: whether each is outside code) with each Jinja call, attribute list and icon
    removed (a line of them blanked) and each md_in_html opening and closing line blanked, so that the body
    reads as Markdown."""
    out: list[str] = []
    open_tags: list[str] = []  # the md_in_html tags still open, innermost last
    calls = _spread_calls(lines, prose)
    for n, (line, outside) in enumerate(zip(lines, prose, strict=True)):
        if n in calls:
            out.append("")
        elif not outside:
            out.append(line)
        elif opened := _MARKDOWN_DIV.match(line):
            open_tags.append(opened.group(1).lower())
            out.append("")
        elif open_tags and line.strip().lower() == f"</{open_tags[-1]}>":
            open_tags.pop()
            out.append("")
        elif _JINJA_LINE.match(line) or _ATTRIBUTES_LINE.match(line):
            out.append("")
        else:
            out.append(_without_calls(line) if "{" in line or ":" in line else line)
    return out


def _spread_calls(lines: list[str], prose: list[bool]) -> set[int]:
    """The line numbers of each Jinja call spread over prose lines, its opening to its closing line: `) }}`,
    or `}}` alone under a line ending in `)` (BIDS' `})` then `}}`); none when another call opens first."""
    found: set[int] = set()
    for n, line in enumerate(lines):
        if not prose[n] or n in found or not _JINJA_OPENS.match(line):
            continue
        for m in range(n + 1, min(n + _CALL_LINES, len(lines))):
            if _JINJA_OPENS.match(lines[m]) or _JINJA_LINE.match(lines[m]):
                break  # an unclosed call: its lines stay as they are
            closing = lines[m].strip()
            if _JINJA_CLOSES.search(lines[m]) or (
                closing in ("}}", "-}}") and lines[m - 1].rstrip().endswith(")")
            ):
                found.update(range(n, m + 1))
                break
    return found


_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def _without_calls(line: str) -> str:
    """A prose line without its Jinja calls, attribute lists and icons, its code spans untouched (a Jinja
    tutorial's `{{ url_for('x') }}` is the example, not markup)."""
    kept, at = [], 0
    for span in _CODE_SPAN.finditer(line):
        kept += [_without_markup(line[at : span.start()]), span.group()]
        at = span.end()
    return "".join([*kept, _without_markup(line[at:])])


def _without_markup(prose: str) -> str:
    return _ICON.sub("", _INLINE_ATTRIBUTES.sub("", _JINJA_CALL.sub("", prose)))
