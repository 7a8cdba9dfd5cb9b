"""A docs file read as a document: what the docs build puts in it from elsewhere (substitutions, `:ref:`
titles, included files, a Sphinx build's extras), secrets masked, a symbolic link to another doc file resolved
to that file."""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Collection, Mapping
from dataclasses import replace
from pathlib import Path

from generator.documents import Document, read_text
from generator.documents.standing import page_standing
from generator.redact import Redactor
from generator.repo.analyze.citations import Linker
from generator.repo.docs.includes import Includes
from generator.repo.docs.navigation import DOC_SUFFIXES
from generator.repo.docs.substitutions import substitute, with_ref_titles
from generator.repo.map.walk import read_or_none
from generator.repo.model import RepoMap

DOC_BYTES = 200_000  # a doc file larger than this is generated reference, not prose to quote


def linked_docs(root: Path, repo_map: RepoMap, files: Collection[str]) -> dict[str, str]:
    """Each doc file that is a symbolic link to another doc file of the repository, with that file's path:
    the link's own text, read and never followed, resolved within the tree; a link leading out of the
    repository, or to anything but a doc file the map read, is none."""
    docs = set(files)
    found: dict[str, str] = {}
    for skipped in repo_map.skipped:
        if not skipped.reason.startswith("symlink") or not skipped.path.lower().endswith(DOC_SUFFIXES):
            continue
        try:
            link = os.readlink(root / skipped.path)
        except OSError:
            continue
        if link.startswith(("/", "\\")) or "\\" in link:
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(skipped.path), link))
        if target in docs and not target.startswith("../"):
            found[skipped.path] = target
    return found


_SPHINX_EXTRAS = re.compile(r"(?:^|/)(?:conf\.py|[^/]+\.inc)$")


def sphinx_extras(root: Path, repo_map: RepoMap, folder: str) -> list[str]:
    """The texts a Sphinx build reads beside its pages: `conf.py` (its `rst_epilog`) and the `.inc` files
    pages include (watchdog's `global.rst.inc`)."""
    if not folder:
        return []
    paths = [
        f.path for f in repo_map.files if f.path.startswith(folder + "/") and _SPHINX_EXTRAS.search(f.path)
    ]
    return [text for p in paths[:50] if (text := read_or_none(root, p, max_bytes=DOC_BYTES)) is not None]


def read_doc(
    root: Path,
    path: str,
    linker: Linker,
    redactor: Redactor | None,
    subs: Mapping[str, str],
    includes: Includes | None = None,
    labels: Mapping[str, str] | None = None,
) -> Document | None:
    """A docs file as a document (`document_of`); None when it cannot be read."""
    text = read_or_none(root, path, max_bytes=DOC_BYTES)
    return None if text is None else document_of(text, path, linker, redactor, subs, includes, labels)


def document_of(
    text: str,
    path: str,
    linker: Linker,
    redactor: Redactor | None,
    subs: Mapping[str, str],
    includes: Includes | None = None,
    labels: Mapping[str, str] | None = None,
) -> Document:
    """A docs file's text as a document, with what the docs build puts in it from elsewhere (substitutions,
    the titles of the sections its `:ref:` roles name)."""
    text = with_ref_titles(substitute(text, subs), labels or {})
    if redactor is not None:
        text = redactor.redact(text)[0]
    document = read_text(
        text, name=path, origin=path, revision=linker.revision, includes=includes is not None
    )
    if includes is not None:
        document = includes.expand(document)
    standing = page_standing(text, document.status)
    return replace(document, status=standing) if standing else document
