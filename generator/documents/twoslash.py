"""Twoslash code blocks (shiki-twoslash in VitePress, Docusaurus and Svelte's docs): the built docs show only
the code after a `// ---cut---` line (and before a `// ---cut-after---` one), never the compiler directives
(`// @filename: x.ts`, `// @errors: 2322`, `// @include: name`) nor the type queries and highlights
(`//    ^?`); a ```` ```twoslash include name ```` block is shown nowhere (later blocks pull it in)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_CUT = re.compile(r"^\s*//\s*-{3,}\s*cut(?:-before)?\s*-{3,}\s*$")
_CUT_AFTER = re.compile(r"^\s*//\s*-{3,}\s*cut-after\s*-{3,}\s*$")
# `// @ts-expect-error` and `// @ts-ignore` are TypeScript's own comments: shown as written
_DIRECTIVE = re.compile(r"^\s*//\s*@(?!ts-)[A-Za-z][\w-]*(?::.*)?\s*$")
_QUERY = re.compile(r"^\s*//\s*\^+[?|]?(?:\s.*)?$")


@dataclass(frozen=True)
class Shown:
    """What a code block shows: its text, and how many of its lines the cut hid above it."""

    text: str
    skipped: int


def is_twoslash(info: str, code: str) -> bool:
    """A block twoslash renders: its fence says so (```` ```ts twoslash ````) or it cuts (Svelte's docs cut
    plain ```` ```js ```` blocks)."""
    return "twoslash" in info.split() or any(_CUT.match(line) for line in code.splitlines())


def shown(info: str, code: str) -> Shown | None:
    """The part of a code block a twoslash renderer shows (`code` whole when the block is no twoslash block);
    None for an include block, which shows nothing."""
    words = info.split()
    if "twoslash" in words and words[words.index("twoslash") + 1 : words.index("twoslash") + 2] == [
        "include"
    ]:
        return None
    if not is_twoslash(info, code):
        return Shown(code, 0)
    lines = code.split("\n")
    cuts = [n for n, line in enumerate(lines) if _CUT.match(line)]
    top = cuts[-1] + 1 if cuts else 0
    ends = [n for n, line in enumerate(lines) if n >= top and _CUT_AFTER.match(line)]
    kept = lines[top : ends[0] if ends else len(lines)]
    skipped = top
    while kept and (not kept[0].strip() or _DIRECTIVE.match(kept[0]) or _QUERY.match(kept[0])):
        kept, skipped = kept[1:], skipped + 1
    text = "\n".join(line for line in kept if not _DIRECTIVE.match(line) and not _QUERY.match(line))
    return Shown(text.rstrip("\n"), skipped)
