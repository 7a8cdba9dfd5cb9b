"""Twoslash code blocks (shiki-twoslash in VitePress, Docusaurus and Svelte's docs): the built docs show only
the code after a `// ---cut---` line (and before a `// ---cut-after---` one), never the compiler directives
(`// @filename: x.ts`, `// @errors: 2322`) nor the type queries and highlights (`//    ^?`). A
```` ```twoslash include name ```` block is shown nowhere: a later block's `// @include: name` line shows its
code there (trpc's middleware docs define `adminProcedure` so, and show it by a block of that one line)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_CUT = re.compile(r"^\s*//\s*-{3,}\s*cut(?:-before)?\s*-{3,}\s*$")
_CUT_AFTER = re.compile(r"^\s*//\s*-{3,}\s*cut-after\s*-{3,}\s*$")
_INCLUDE = re.compile(r"^\s*//\s*@include:\s*(\S+)\s*$")
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


@dataclass
class Twoslash:
    """One document's twoslash blocks, read in order: the include blocks seen so far, by name."""

    includes: dict[str, str] = field(default_factory=dict)

    def shown(self, info: str, code: str) -> Shown | None:
        """The part of a code block a twoslash renderer shows (`code` whole when the block is no twoslash
        block); None for an include block, which shows nothing."""
        words = info.split()
        if "twoslash" in words and words[words.index("twoslash") + 1 : words.index("twoslash") + 2] == [
            "include"
        ]:
            named = words[words.index("twoslash") + 2 :]
            if named:
                self.includes[named[0]] = code.strip("\n")
            return None
        if not is_twoslash(info, code):
            return Shown(code, 0)
        lines = code.split("\n")
        cuts = [n for n, line in enumerate(lines) if _CUT.match(line)]
        top = cuts[-1] + 1 if cuts else 0
        ends = [n for n, line in enumerate(lines) if n >= top and _CUT_AFTER.match(line)]
        kept = lines[top : ends[0] if ends else len(lines)]
        skipped = top
        while kept and (not kept[0].strip() or _hidden(kept[0]) and not self._included(kept[0])):
            kept, skipped = kept[1:], skipped + 1
        shown = [part for line in kept for part in self._expanded(line) if not _hidden(part)]
        return Shown("\n".join(shown).strip("\n"), skipped)

    def _included(self, line: str) -> str:
        found = _INCLUDE.match(line)
        return self.includes.get(found.group(1), "") if found else ""

    def _expanded(self, line: str) -> list[str]:
        included = self._included(line)
        return included.split("\n") if included else [line]


def _hidden(line: str) -> bool:
    return bool(_DIRECTIVE.match(line) or _QUERY.match(line))
