"""A Go package's documentation: the doc comment above its `package` clause, which pkg.go.dev shows as the
package's page (robfig/cron's doc.go holds its usage, its spec format and its time zones). Read as Markdown
with the source's line numbers: a heading (`# Heading`, or an old-style line standing alone before a
paragraph) is a section, an indented span is code, an indented bullet or number is a list item.
"""

from __future__ import annotations

import itertools
import re

_PACKAGE = re.compile(r"^package\s+(\w+)")
_LIST_ITEM = re.compile(r"^\s+(?:[-*+•]|\d+[.)])\s+")
# an old-style heading: one capitalised line with no closing punctuation, standing alone before a paragraph
_OLD_HEADING = re.compile(r"^[A-Z][^.,;:!?()\[\]{}`\"]*[A-Za-z0-9]$")
MIN_LINES = 6  # a shorter package comment is a sentence about the package, not its documentation


def package_doc(text: str) -> tuple[str, str]:
    """(package name, Markdown) of a Go file's package doc comment, the Markdown holding as many lines as
    `text` (blank outside the comment) so each block keeps its source lines; ("", "") without one of at
    least MIN_LINES lines of text."""
    lines = text.split("\n")
    clause = next((i for i, line in enumerate(lines) if _PACKAGE.match(line)), None)
    if clause is None:
        return "", ""
    first = clause
    if clause > 0 and lines[clause - 1].rstrip().endswith("*/"):  # a /* … */ block: its lines as written
        first = next((i for i in range(clause - 1, -1, -1) if lines[i].lstrip().startswith("/*")), clause)
        body = [line.rstrip() for line in lines[first:clause]]
        body[0] = body[0].lstrip().removeprefix("/*")
        body[-1] = body[-1].removesuffix("*/")
    else:
        while first > 0 and lines[first - 1].lstrip().startswith("//"):
            first -= 1
        body = [_uncommented(line) for line in lines[first:clause]]
    if sum(1 for line in body if line.strip()) < MIN_LINES:
        return "", ""
    marked = doc_markdown(body)
    out = [""] * len(lines)
    out[first:clause] = marked
    match = _PACKAGE.match(lines[clause])
    return (match.group(1) if match else ""), "\n".join(out)


def _uncommented(line: str) -> str:
    text = line.lstrip().removeprefix("//")
    return text[1:] if text.startswith(" ") else text


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
