"""The one gate for what becomes the site: every file under site_src/ is checked when a build reads it,
whoever put it there (deepkb's page writer, a merged folder, a contributor's commit).

Only regular files pass (a symbolic link anywhere, at any depth, is refused: it would publish whatever it
points at), only the kinds deepkb writes or a browser cannot run (markdown, JSON records, raster images),
each under a size cap, and a page's frontmatter must load within the bounds deepkb.yml is read with.
Names starting with a dot are not published by MkDocs, so they are only held to the first rule.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..config import load_bounded_yaml
from ..errors import ConfigError, DeepkbError
from ..store import MAX_READ_BYTES

PUBLISHED_SUFFIXES = frozenset({".md", ".json", ".png", ".jpg", ".jpeg", ".gif", ".webp"})
"""File types site_src/ may hold, compared case-insensitively. SVG, HTML, XML and scripts are not here:
each can carry script that runs on the site's origin."""
TOP_LEVEL_TEXT = {
    "CNAME": re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.\-]{0,251}[A-Za-z0-9])?\n?"),
    "robots.txt": None,
}
"""Plain-text files GitHub Pages and crawlers read, allowed at the top of site_src/ only: a custom domain's
CNAME must be one host name; robots.txt is served as text/plain, so a browser never runs it."""
MAX_FILE_BYTES = MAX_READ_BYTES
"""The largest file site_src/ may hold: the most the store reads back."""
# MkDocs' own frontmatter rule (mkdocs.utils.meta.YAML_RE), so the block checked is the block it loads.
_FRONTMATTER = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.UNICODE | re.DOTALL)


class SiteSourceRefused(DeepkbError):
    """A file under site_src/ that must not reach the site: a link, a special file, a type or size not
    allowed, or a frontmatter that cannot be loaded within bounds."""


def check_site_source(site_src: Path) -> None:
    """Raise SiteSourceRefused naming the first file under `site_src` the site must not publish."""
    if site_src.is_symlink():
        raise _refused(site_src.name, "is a symbolic link; only regular files and folders are published")
    pending = [site_src]
    while pending:
        folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda item: item.name):
                path = Path(entry.path)
                if entry.is_symlink():
                    raise _refused(
                        _shown(site_src, path), "is a symbolic link; only regular files are published"
                    )
                if entry.is_dir(follow_symlinks=False):
                    pending.append(path)
                elif not entry.is_file(follow_symlinks=False):
                    raise _refused(_shown(site_src, path), "is not a regular file")
                elif not entry.name.startswith(".") and not _hidden(site_src, path):
                    _check_file(site_src, path, entry.stat(follow_symlinks=False).st_size)


def _check_file(site_src: Path, path: Path, size: int) -> None:
    shown = _shown(site_src, path)
    if path.parent == site_src and path.name in TOP_LEVEL_TEXT:
        shape = TOP_LEVEL_TEXT[path.name]
        if size > 64_000 or (
            shape and not shape.fullmatch(path.read_text(encoding="utf-8", errors="replace"))
        ):
            raise _refused(shown, "must be one host name (a custom domain), e.g. kb.example.org")
        return
    if path.suffix.lower() not in PUBLISHED_SUFFIXES:
        raise _refused(
            shown, f"'{path.suffix or path.name}' files are not published (markdown, JSON and images only)"
        )
    if size > MAX_FILE_BYTES:
        raise _refused(shown, f"is larger than {MAX_FILE_BYTES // 1_000_000} MB")
    if path.suffix.lower() == ".md":
        match = _FRONTMATTER.match(path.read_text(encoding="utf-8", errors="replace"))
        if match:
            try:
                load_bounded_yaml(match.group(1), f"{shown} (frontmatter)")
            except ConfigError as exc:
                raise SiteSourceRefused(exc.message, hint=exc.hint) from None


def _hidden(site_src: Path, path: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(site_src).parts)


def _shown(site_src: Path, path: Path) -> str:
    return f"{site_src.name}/{path.relative_to(site_src).as_posix()}"


def _refused(shown: str, why: str) -> SiteSourceRefused:
    return SiteSourceRefused(
        f"{shown} {why}", hint="remove it or replace it with a regular file of an allowed kind"
    )
