"""What a docs build puts in a page from elsewhere in the docs, put in before the page is read.

Elastic docs-builder substitutions: `{{ls}}` in a docs page reads as the value `docset.yml`'s `subs:`
gives it ("Logstash"). Values are data, put in as written and never evaluated or expanded again; a name
the docset does not give stays as written. Code blocks are left alone unless their fence says
`subs=true`, as docs-builder does.

Sphinx cross-references: `:ref:`label`` reads as the title of the section the label stands over, in any
page of the docs ("See Cryptographic Dependencies (Optional)", not "See installation_cryptography").

reST substitutions: `|project_name|` reads as what a `.. |project_name| replace:: ``watchdog``` definition
gives it, in a page, a file the docs include (`global.rst.inc`) or `conf.py`'s `rst_epilog`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

MAX_SUBS = 1_000  # names read from one docset
MAX_VALUE = 1_000  # characters of one value
DOCSET_FILES = ("docset.yml", "_docset.yml")  # docs-builder reads either
_REFERENCE = re.compile(r"\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
MAX_LABELS = 5_000  # labels read from one docs folder
# `.. _label:` then, past blank lines and further labels, a title over its underline (an overline allowed)
_LABEL = re.compile(r"^\.\. _([^:`\n]+):[ \t]*$", re.MULTILINE)
_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+:._])\1{2,}[ \t]*$")
_BARE_REF = re.compile(r":ref:`([^`<>]+)`")


def docset_subs(docset: object) -> dict[str, str] | None:
    """A docset's `subs:` (read with its table of contents, navigation.py), one-line values only (a
    substitution never moves a passage's lines); None when it gives none."""
    subs = docset.get("subs") if isinstance(docset, dict) else None
    if not isinstance(subs, dict):
        return None
    found: dict[str, str] = {}
    for key, value in list(subs.items())[:MAX_SUBS]:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)) or not isinstance(key, str):
            continue
        text = str(value)
        if "\n" not in text and "\r" not in text and len(text) <= MAX_VALUE:
            found[key] = text
    return found


def substitute(text: str, subs: Mapping[str, str]) -> str:
    """`text` with each `{{name}}` the docset gives replaced by its value, outside code blocks (and inside
    those whose fence says `subs=true`)."""
    if not subs or "{{" not in text:
        return text
    out: list[str] = []
    fence, expand = "", True
    for line in text.splitlines(keepends=True):
        opened = _FENCE.match(line)
        if opened and not fence:
            fence, expand = opened.group(1), "subs=true" in opened.group(2)
        elif opened and opened.group(1).startswith(fence) and not opened.group(2).strip():
            fence, expand = "", True
        elif expand:
            line = _REFERENCE.sub(lambda ref: subs.get(ref.group(1), ref.group(0)), line)
        out.append(line)
    return "".join(out)


def rst_labels(texts: Iterable[str]) -> dict[str, str]:
    """Each Sphinx label of the reST `texts` that stands over a section title, with that title (labels
    folded to lower case, as Sphinx folds them)."""
    found: dict[str, str] = {}
    for text in texts:
        lines = text.splitlines()
        for at, line in enumerate(lines):
            if (
                (label := _LABEL.match(line))
                and (title := _title_after(lines, at + 1))
                and len(found) < MAX_LABELS
            ):
                found.setdefault(label.group(1).strip().lower(), title)
    return found


def _title_after(lines: Sequence[str], at: int) -> str:
    """The section title the lines from `at` open with, past blank lines and other labels; "" if none."""
    while at < len(lines) and (not lines[at].strip() or _LABEL.match(lines[at])):
        at += 1
    if at < len(lines) and _ADORNMENT.match(lines[at]):  # an overline
        at += 1
    if at + 1 >= len(lines) or not lines[at].strip() or not _ADORNMENT.match(lines[at + 1]):
        return ""
    title = lines[at].strip().replace("`", "")  # the role's own syntax: ``Client`` reads "Client"
    return title if len(lines[at + 1].rstrip()) >= len(title) and not _ADORNMENT.match(title) else ""


def with_ref_titles(text: str, labels: Mapping[str, str]) -> str:
    """`text` with each `:ref:`label`` a section title is known for written `:ref:`Title <label>``."""
    if not labels or ":ref:`" not in text:
        return text

    def titled(ref: re.Match[str]) -> str:
        title = labels.get(ref.group(1).strip().lower())
        return f":ref:`{title} <{ref.group(1)}>`" if title else ref.group(0)

    return _BARE_REF.sub(titled, text)


MAX_REPLACEMENTS = 1_000  # substitution definitions read from one docs folder
_REPLACE = re.compile(r"^[ \t]*\.\. \|([^|\n]{1,40})\|[ \t]+replace::[ \t]+(\S[^\n]*?)[ \t]*$", re.MULTILINE)
# `|name|`, or `|name|_` / `|name|__` where the substitution is also a link's text (the link is dropped)
_USE = re.compile(r"\|([^|\n]{1,40})\|(?:__?(?![\w|]))?")


def rst_replacements(texts: Iterable[str]) -> dict[str, str]:
    """Each reST `replace::` substitution the `texts` define (the first definition of a name stands)."""
    found: dict[str, str] = {}
    for text in texts:
        for match in _REPLACE.finditer(text):
            if len(found) < MAX_REPLACEMENTS and len(match.group(2)) <= MAX_VALUE:
                found.setdefault(match.group(1), match.group(2))
    return found


def with_replacements(text: str, replacements: Mapping[str, str]) -> str:
    """reST `text` with each `|name|` (or linked `|name|_`) a definition is known for replaced by its text
    (line for line; the definitions themselves left as written)."""
    if not replacements or "|" not in text:
        return text
    lines = text.splitlines(keepends=True)
    return "".join(
        line
        if _REPLACE.match(line)
        else _USE.sub(lambda use: replacements.get(use.group(1), use.group(0)), line)
        for line in lines
    )
