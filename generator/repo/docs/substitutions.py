"""Elastic docs-builder substitutions: `{{ls}}` in a docs page reads as the value `docset.yml`'s `subs:`
gives it ("Logstash"). Values are data, put in as written and never evaluated or expanded again; a name
the docset does not give stays as written. Code blocks are left alone unless their fence says
`subs=true`, as docs-builder does."""

from __future__ import annotations

import re
from collections.abc import Mapping

MAX_SUBS = 1_000  # names read from one docset
MAX_VALUE = 1_000  # characters of one value
DOCSET_FILES = ("docset.yml", "_docset.yml")  # docs-builder reads either
_REFERENCE = re.compile(r"\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")


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
