"""Code a doc page includes from another file of the repository: MkDocs' snippets (`--8<-- "file"`) and
Sphinx's `literalinclude` show the included file in the built docs, so a page quotes that file's lines,
cited there, never the placeholder; an MDX page's Markdown partial (`<Types />`) and a page's text included
from another file (`.. include:: ../README.rst`, MyST's `{include}` between two marker lines) show that file's
text, cited there. A snippet names a whole file, its lines (`file.go:10:20`) or a section between two marker lines
(`file.go:main`, `// --8<-- [start:main]` … `[end:main]`; marker lines are never shown). A name is looked up
among the repository's files (the page's folder, `mkdocs.yml`'s snippets `base_path`, the repository root and
the docs folder, then the one file whose path ends with it: nlohmann/json copies
its examples into the docs at build time); it is never opened as a path of its own. A VuePress page's code
import (`@[code{3-10} python](../examples/run.py)`) is read the same way, as that file's lines in code."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, replace
from pathlib import Path

from generator.documents import read_text
from generator.documents.included import (
    CODE,
    INCLUDE,
    PARTIAL,
    PROSE,
    SNIPPET,
    code_target,
    include_markers,
    prose_target,
)
from generator.documents.model import Block, Document, Section
from generator.redact import Redactor
from generator.repo.map.filetypes import language_of
from generator.repo.map.walk import read_or_none

MAX_BYTES = 40_000  # an included file is an example; how long a page shows whole is the page's to say
# a name and the part of the file it includes: lines `:10:20` or a section `:name`
_SPAN = re.compile(r"^(.+?)(?::(\d*)(?::(\d*))?|:([A-Za-z][-\w]*))?$")
# the line marking where a file's section starts or ends (`# --8<-- [start:main]`), never shown
_SECTION = re.compile(r"(?<!;)-{1,}8<-{1,}[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*([A-Za-z][-\w]*)[ \t]*\]")
_NO_FENCE = frozenset({"other", "text", "markdown"})


@dataclass(frozen=True)
class Included:
    """The lines of one repository file a block includes."""

    path: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Includes:
    """The repository's files, for the doc pages that include them."""

    root: Path
    files: frozenset[str]
    docs: str  # the docs folder ("" when there is none)
    redactor: Redactor | None = None
    bases: tuple[str, ...] = ()  # the folders snippets' names are relative to (`mkdocs.yml`'s `base_path`)

    def expand(self, document: Document) -> Document:
        """`document` with each block that only includes files replaced by those files' lines (a block whose
        files cannot all be read is left out: a placeholder says nothing)."""
        if not any(include_markers(block) for _, block in document.blocks()):
            return document
        return replace(document, sections=tuple(self._section(document.origin, s) for s in document.sections))

    def _section(self, page: str, section: Section) -> Section:
        blocks: list[Block] = []
        for block in section.blocks:
            markers = include_markers(block)
            if not markers:
                blocks.append(block)
                continue
            if all(kind in (PARTIAL, PROSE) for kind, _ in markers):
                blocks += [b for marker in markers for b in self.partial(page, *_text_included(marker))]
                continue
            if all(kind == CODE for kind, _ in markers):
                blocks += self._imported(page, block, [code_target(name) for _, name in markers])
                continue
            found = [self.read(page, marker) for marker in markers]
            if block.kind == "code" and all(found):
                blocks += [_as_block(block, included) for included in _joined([f for f in found if f])]
        return replace(section, blocks=tuple(blocks))

    def _imported(self, page: str, block: Block, targets: list[tuple[str, str]]) -> list[Block]:
        """A VuePress page's code imports as code blocks in their language, cited at the file's lines; none
        when one cannot be read."""
        found = [(self.read(page, (SNIPPET, name)), language) for name, language in targets]
        if not all(included for included, _ in found):
            return []
        code = replace(block, kind="code")
        return [
            _as_block(replace(code, language=language), included) for included, language in found if included
        ]

    def read(self, page: str, marker: tuple[str, str]) -> Included | None:
        """The lines a marker names (blank lines at either end left out), from the file it resolves to; None
        when it resolves to none or they are blank."""
        kind, name = marker
        spanned = _SPAN.match(name)
        if not spanned:
            return None
        path = self.resolve(page, spanned.group(1), sphinx=kind == INCLUDE)
        if not path:
            return None
        text = read_or_none(self.root, path, max_bytes=MAX_BYTES)
        if text is None:
            return None
        if self.redactor is not None:
            text = self.redactor.redact(text)[0]
        lines = text.splitlines()
        span = _section(lines, spanned.group(4)) if spanned.group(4) else None
        start, end = span or (int(spanned.group(2) or 1), int(spanned.group(3) or len(lines)))
        if spanned.group(4) and not span:
            return None
        shown = [n for n in range(start, min(end, len(lines)) + 1) if not _SECTION.search(lines[n - 1])]
        while shown and not lines[shown[0] - 1].strip():
            shown.pop(0)
        while shown and not lines[shown[-1] - 1].strip():
            shown.pop()
        if not shown:
            return None
        return Included(path, shown[0], shown[-1], "\n".join(lines[n - 1] for n in shown))

    def partial(self, page: str, name: str, after: str = "", before: str = "") -> tuple[Block, ...]:
        """The blocks of the file `name` a page shows where it stands — an MDX page's Markdown partial
        (Docusaurus' `@site/` is the repository's site folder: found by the path's ending), a page's included
        text (only the lines between the one holding `after` and the one holding `before`, when given) — each
        cited in that file; () when it cannot be read. What that file includes in turn is left out."""
        path = self.resolve(page, name.removeprefix("@site/"))
        text = read_or_none(self.root, path, max_bytes=MAX_BYTES) if path else None
        if text is not None and (after or before):
            text = _between(text, after, before)
        if text is None:
            return ()
        if self.redactor is not None:
            text = self.redactor.redact(text)[0]
        document = read_text(text, name=path, origin=path)
        return tuple(replace(block, origin=path) for _, block in document.blocks())

    def resolve(self, page: str, name: str, sphinx: bool = False) -> str:
        """The repository file `name` means on `page`: relative to the page's folder (Sphinx's `/x` to the
        docs folder), the repository root or the docs folder, else the one file whose path ends with it."""
        name = name.strip().replace("\\", "/")
        if not name or "\x00" in name or "://" in name:
            return ""
        here = posixpath.dirname(page)
        bases = [self.docs] if sphinx and name.startswith("/") else [here, *self.bases, "", self.docs]
        for base in bases:
            path = posixpath.normpath(posixpath.join(base, name.lstrip("/")))
            if path in self.files:
                return path
        tail = "/" + posixpath.normpath(name.lstrip("/"))
        ending = [p for p in self.files if p.endswith(tail)] if not tail.startswith("/..") else []
        return ending[0] if len(ending) == 1 else ""


def _section(lines: list[str], name: str) -> tuple[int, int] | None:
    """The first and last line numbers inside the section `name` of a file (to its end when it is never
    closed); None when it never starts."""
    marks = [
        (n, m.group(1).lower(), m.group(2)) for n, line in enumerate(lines, 1) if (m := _SECTION.search(line))
    ]
    start = next((n for n, kind, found in marks if kind == "start" and found == name), None)
    if start is None:
        return None
    end = next(
        (n for n, kind, found in marks if kind == "end" and found == name and n > start), len(lines) + 1
    )
    return start + 1, end - 1


def _text_included(marker: tuple[str, str]) -> tuple[str, str, str]:
    """(file, after, before) of a partial's or an included text's marker."""
    kind, name = marker
    return prose_target(name) if kind == PROSE else (name, "", "")


def _between(text: str, after: str, before: str) -> str | None:
    """`text` with only its lines after the first holding `after` and before the next holding `before` kept,
    the others blanked (each kept line keeps its number); None when `after` is never found (the docs build
    fails there too)."""
    lines = text.split("\n")
    start = next((n + 1 for n, line in enumerate(lines) if after in line), None) if after else 0
    if start is None:
        return None
    end = (
        next((n for n in range(start, len(lines)) if before in lines[n]), len(lines))
        if before
        else len(lines)
    )
    return "\n".join(line if start <= n < end else "" for n, line in enumerate(lines))


def _joined(found: list[Included]) -> list[Included]:
    """The files one fence includes, as the built docs show them: one block, the snippets of a file one
    after the other (fx's `main.go:partial-1` and `main.go:partial-2`, a function with its middle left out),
    cited from the first's first line to the last's last; a block of its own for each other file."""
    joined: list[Included] = []
    for included in found:
        last = joined[-1] if joined else None
        if last is not None and last.path == included.path and included.start > last.end:
            joined[-1] = Included(last.path, last.start, included.end, f"{last.text}\n{included.text}")
        else:
            joined.append(included)
    return joined


def _as_block(block: Block, included: Included) -> Block:
    language = block.language or language_of(included.path)
    return replace(
        block,
        text=included.text,
        start=included.start,
        end=included.end,
        language="" if language in _NO_FENCE else language,
        origin=included.path,
    )
