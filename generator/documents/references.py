"""What the other documents of a collection say of one: the pages that include it (a Hugo fragment under
`### State resolution` in each room version's page) and the links that point at it, with the words around
each link (anchor text, as a web search engine reads it). A fragment that opens on a formula is named by
the heading it is included under; a command page that never says 热更新 is found by the page that links it
"可以结合[retransform](retransform.md)命令实现热更新代码".

`references(text, source, files)` reads one source's Markdown or reST lines (fenced code skipped) and
returns its references to other files of the collection, each resolved to a file's relative path.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass

from .header import clean_heading

INCLUDE = "include"
LINK = "link"
MAX_CONTEXT = 240  # characters of a link's sentence kept as its anchor context

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
# a line that only includes another file, in the syntaxes docs builds read: a Hugo shortcode naming it by
# any quoted argument (`{{% rver-fragment name="v2-state-res" %}}`), an MkDocs snippet, markdown-include,
# VuePress' `<!-- @include: ./x.md -->`, reST's and MyST's `include`, docsify's `':include'` link
_SHORTCODE = re.compile(r"^\s*\{\{[<%]\s*[\w./-]+\s+(.*?)\s*[>%]\}\}\s*$")
_QUOTED = re.compile(r"\"([^\"\s]+)\"|'([^'\s]+)'")
_INCLUDES = (
    re.compile(r"^\s*-{1,}8<-{1,}\s+[\"']([^\"'\s]+)[\"']\s*$"),
    re.compile(r"^\s*\{!\s*([^!\s]+)\s*!\}\s*$"),
    re.compile(r"^\s*<!--\s*@include:\s*([^\s{#]+)\S*\s*-->\s*$"),
    re.compile(r"^\s*\.\.\s+include::\s*(\S+)\s*$"),
    re.compile(r"^\s*(?:`{3,}|:{3,})\s*\{include\}\s*(\S+)\s*$"),
    re.compile(r"^\s*\[[^\]]*\]\(([^)\s]+)\s+[\"']:include"),
)
_LINK = re.compile(r"(?<!!)\[([^\]\n]{1,200})\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^\"'\n]*[\"'])?\s*\)")
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；;])")
_MARKUP = re.compile(r"\*\*|__|`|<[^>\n]+>|^\s*(?:[-*+]|\d+[.)])\s+|^\s*>\s*|\|")
_SUFFIXES = (".md", ".mdx", ".markdown", ".rst", ".txt", ".html")
_INDEX_NAMES = ("index.md", "_index.md", "README.md", "readme.md", "index.mdx", "index.rst")


@dataclass(frozen=True)
class Reference:
    """One source's reference to `target` (a file of the collection): an include, with the heading it stands
    under, or a link, with its text and the sentence holding it."""

    target: str
    kind: str  # INCLUDE or LINK
    text: str  # the include's heading, or the link's text
    context: str = ""  # a link's sentence, its markup dropped


def references(
    text: str, source: str, files: Collection[str], stems: Mapping[str, str] | None = None
) -> list[Reference]:
    """The references `source`'s text makes to the other `files` (relative paths) of its collection
    (`stems`: their `unique_stems`, when already known)."""
    stems = unique_stems(files) if stems is None else stems
    found: list[Reference] = []
    for heading, line in _prose_lines(text):
        included = _included_names(line)
        if included:
            targets = [t for name in included if (t := _resolve(name, source, files, stems))]
            found.extend(Reference(t, INCLUDE, heading) for t in targets if t != source)
            continue
        for link in _LINK.finditer(line):
            target = _resolve(link.group(2), source, files, {}) if not _EXTERNAL.match(link.group(2)) else ""
            if target and target != source:
                words = clean_heading(link.group(1)).strip()
                found.append(Reference(target, LINK, words, _sentence_of(line, link.start(), link.end())))
    return found


def _prose_lines(text: str) -> Iterator[tuple[str, str]]:
    """Each line outside fenced code, with the heading it stands under ('' before the first)."""
    heading, fence = "", ""
    for line in text.splitlines():
        opener = _FENCE.match(line)
        if fence:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = ""
            continue
        if opener and not _included_names(line):  # MyST's ```{include} opens a directive, no code
            fence = opener.group(1)
            continue
        if atx := _ATX.match(line):
            heading = clean_heading(atx.group(2)).strip()
            continue
        yield heading, line


def _included_names(line: str) -> list[str]:
    if "{{" in line and (shortcode := _SHORTCODE.match(line)):
        return [a or b for a, b in _QUOTED.findall(shortcode.group(1))]
    return [found.group(1) for pattern in _INCLUDES if (found := pattern.match(line))]


def _sentence_of(line: str, start: int, end: int) -> str:
    """The sentence of `line` holding the link at start:end, links reduced to their text, markup dropped."""
    at = 0
    for part in _SENTENCE_END.split(line):
        if at <= start < at + len(part) or at < end <= at + len(part):
            sentence = part
            break
        at += len(part)
    else:
        sentence = line
    plain = _MARKUP.sub(" ", _LINK.sub(lambda m: m.group(1), sentence))
    return " ".join(plain.split())[:MAX_CONTEXT]


def unique_stems(files: Collection[str]) -> dict[str, str]:
    """File stems that name one file of the collection ("v2-state-res" → rooms/fragments/v2-state-res.md)."""
    seen: dict[str, list[str]] = {}
    for rel in files:
        seen.setdefault(posixpath.splitext(posixpath.basename(rel))[0], []).append(rel)
    return {stem: paths[0] for stem, paths in seen.items() if len(paths) == 1}


def _resolve(name: str, source: str, files: Collection[str], stems: Mapping[str, str]) -> str:
    """The file of the collection `name` (as `source` writes it) points at: relative to the source's folder,
    or to the collection's root for a site path ("/rooms/v1"), with or without its suffix (".html" as the
    built site names a Markdown page), a folder by its index page; a site path whose first folders the
    collection leaves out ("/doc/mc.html" in site/docs/doc) by its shortest tail that names a file; a name
    alone (an include's `name="v2-state-res"`) by the one file of that stem. '' when none."""
    path = name.split("#", 1)[0].split("?", 1)[0].strip()
    if not path:
        return ""
    base = "" if path.startswith("/") else posixpath.dirname(source)
    joined = posixpath.normpath(posixpath.join(base, path.lstrip("/")))
    parts = [p for p in joined.split("/") if p and p != "."]
    if not parts or parts[0] == "..":  # outside the folder: a file the collection does not hold
        return ""
    for start in range(len(parts)):
        if found := _file_of("/".join(parts[start:]), files):
            return found
        if not path.startswith("/"):
            break
    return stems.get(path, "") if "/" not in path else ""


def _file_of(path: str, files: Collection[str]) -> str:
    stem, suffix = posixpath.splitext(path)
    bare = stem if suffix.lower() in _SUFFIXES else path
    candidates = [path, *(bare + s for s in _SUFFIXES), *(f"{path}/{index}" for index in _INDEX_NAMES)]
    return next((c for c in candidates if c in files), "")
