"""Links out of the site for a researched repository: its source URL and the commit that was researched.

Both values come from research records (a clone URL, a commit id) and so are untrusted: a link is made only
from an http(s) URL of plain URL characters and a hexadecimal commit id, and the commit links to the forge's
commit page only when the source is on GitHub, whose URL layout is known; anything else is shown as text.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from .text import Markdown, md_inline

_COMMIT = re.compile(r"^[0-9a-f]{7,64}$")
_GITHUB_REPO = re.compile(r"^/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")


def web_url(source: str) -> str | None:
    """`source` as a browsable http(s) URL (without a trailing .git), or None when it is not one."""
    parts = urlsplit(source.strip())
    if parts.scheme not in {"http", "https"} or not parts.hostname or parts.username or parts.password:
        return None
    path = parts.path.removesuffix("/").removesuffix(".git")
    return f"{parts.scheme}://{parts.netloc}{quote(path, safe='/._-~%')}"


def source_link(source: str) -> Markdown:
    """The source as a link labelled host/path, or as escaped text when it is not a web URL."""
    url = web_url(source)
    if url is None:
        return md_inline(source, 80)
    label = url.split("://", 1)[1]
    return Markdown(f"[{md_inline(label, 80)}]({url})")


def commit_link(source: str, revision: str) -> Markdown:
    """The revision shortened to 10 characters, linked to its GitHub commit page when the source is there."""
    if not _COMMIT.match(revision):
        return md_inline(revision, 20)
    url = web_url(source)
    parts = urlsplit(url) if url else None
    match = _GITHUB_REPO.match(parts.path) if parts and parts.hostname == "github.com" else None
    short = f"`{revision[:10]}`"
    if match is None:
        return Markdown(short)
    return Markdown(f"[{short}](https://github.com/{match.group(1)}/{match.group(2)}/commit/{revision})")
