"""A redirect stub: a short page saying where its content went ("This page has moved to Configuration.",
"See Runtime and Lifecycle instead.", "The documents are moved to https://day.js.org.", "本页已移至 配置").
A topic follows it to the document it names; a repository's docs never make a guide page of it."""

from __future__ import annotations

import re

REDIRECT_CHARS = 400  # a page with more text than this says something itself
_REDIRECT = re.compile(
    r"(?:(?:has|have|is|are)\s+(?:been\s+)?moved\s+to|(?:was|is\s+now|now)\s+(?:moved|located|maintained)\s+(?:to|at|in)"
    r"|^\W*moved\s+to|^\W*see|please\s+see|has\s+been\s+merged\s+into|已(?:移至|迁移至|迁移到|移动到)|请参阅|请参见)"
    r"\s*:?\s*[\"“'‘]?(?P<target>[^\n\"”'’]{3,120}?)[\"”'’]?\s*(?:instead|代替)?\s*[.。!！]?\s*$",
    re.I | re.M,
)


def redirect_target(text: str) -> str:
    """The title or path a redirect stub points at ('' for a document that says something itself)."""
    stripped = " ".join(line for line in text.splitlines() if not line.startswith("#")).strip()
    if not stripped or len(stripped) > REDIRECT_CHARS:
        return ""
    found = _REDIRECT.search(stripped)
    return found.group("target").strip(" .。") if found else ""
