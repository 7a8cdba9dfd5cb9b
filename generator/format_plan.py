"""Which known secret formats to try on a text, cheaper than trying them all and answering the same.

The rule (`FormatPlan.hinted`): a format runs when one of its hints occurs in the lower-cased text. A
format with anchors (`KeyFormat.anchors`, literals every match holds in its case as written) cannot match
a text holding none of them, so `likely` leaves it out there; one scan finds every anchor a text holds.
`possible` answers which formats could match at all, whatever the hints (for judging texts inert).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from generator.regex_cache import from_source_code
from generator.regex_literals import any_literal, shortest_prefixes
from generator.secret_formats import KeyFormat, known_formats

MIN_ANCHOR_LEN = 2  # a one-character anchor (`:`, `.`) is in nearly every text: such formats go by hints


@dataclass(frozen=True)
class FormatPlan:
    """Which known formats to try on a text, by position in `known_formats()`.

    The rule: a format runs when one of its hints occurs in the lower-cased text (formats without hints
    always run). The same answer, cheaper: a format with anchors cannot match a text holding none of them,
    and one scan (`anchor_scan`) finds where the text holds any anchor at all.
    """

    hints: tuple[tuple[str, ...], ...]  # each format's hints
    always: tuple[int, ...]  # formats without hints
    by_hint: tuple[tuple[str, frozenset[int]], ...]  # each hint, the formats it lets run
    loose_always: tuple[int, ...]  # `always` and `by_hint` for the formats without anchors
    loose_by_hint: tuple[tuple[str, frozenset[int]], ...]
    anchored: Mapping[int, tuple[str, ...]]  # the formats with anchors of two characters or more
    by_anchor: Mapping[str, tuple[int, ...]]  # each anchor, the formats it lets run
    short_anchored: tuple[tuple[int, tuple[str, ...]], ...]  # formats whose anchors are one character
    folded: tuple[tuple[int, tuple[str, ...]], ...]  # case-insensitive formats (no anchors), with hints
    unanchored: tuple[int, ...]  # the other formats without anchors
    extensions: Mapping[str, tuple[str, ...]]  # each literal `anchor_scan` finds, the anchors it begins
    anchor_scan: re.Pattern[str] | None

    def hinted(self, lower: str) -> list[int]:
        """The formats the rule runs on a text whose lower-cased form is `lower`, in order."""
        chosen = set(self.always)
        for hint, positions in self.by_hint:  # each literal searched once
            if hint in lower:
                chosen.update(positions)
        return sorted(chosen)

    def likely(self, text: str, lower: str) -> list[int]:
        """`hinted(lower)` less the anchored formats none of whose anchors occurs in `text`."""
        chosen = set(self.loose_always)
        for hint, positions in self.loose_by_hint:
            if hint in lower:
                chosen.update(positions)
        for anchor in self._anchors_in(text):
            for i in self.by_anchor[anchor]:
                if not self.hints[i] or any(hint in lower for hint in self.hints[i]):
                    chosen.add(i)
        return sorted(chosen)

    def likely_among(self, text: str, lower: str, allowed: Iterable[int]) -> list[int]:
        """`likely(text, lower)` for a text none of whose other formats can match (`allowed` is few: each
        is checked on its own, no scan)."""
        return [
            i
            for i in sorted(allowed)
            if (not self.hints[i] or any(hint in lower for hint in self.hints[i]))
            and (i not in self.anchored or any(a in text for a in self.anchored[i]))
        ]

    def possible(self, text: str, lower: str) -> list[int]:
        """Every format that can match `text`, whatever the hints: those with an anchor in it and those
        without anchors. A case-insensitive format's hints are its literals (tested), so on ASCII text,
        where case folds as `str.lower` folds it, it is left out when none of them is in `lower`."""
        chosen = {i for anchor in self._anchors_in(text) for i in self.by_anchor[anchor]}
        chosen.update(i for i, anchors in self.short_anchored if any(a in text for a in anchors))
        ascii_text = text.isascii()
        chosen.update(i for i, hints in self.folded if not ascii_text or any(h in lower for h in hints))
        chosen.update(self.unanchored)
        return sorted(chosen)

    def _anchors_in(self, text: str) -> set[str]:
        found: set[str] = set()
        match = self.anchor_scan.search(text) if self.anchor_scan else None
        while match:  # every position holding an anchor, overlapping ones too
            start = match.start()
            found.update(a for a in self.extensions[match.group()] if text.startswith(a, start))
            match = self.anchor_scan.search(text, start + 1)  # type: ignore[union-attr]
        return found


@functools.cache
def format_plan() -> FormatPlan:
    """The plan for `known_formats()` (built once per process; its scan pattern, from the formats alone, is
    kept compiled between processes)."""
    with from_source_code():
        return plan_for(known_formats())


def plan_for(formats: tuple[KeyFormat, ...]) -> FormatPlan:
    """The plan for `formats`, positions being their indexes."""
    anchored = {i for i, f in enumerate(formats) if f.anchors and min(map(len, f.anchors)) >= MIN_ANCHOR_LEN}
    loose = set(range(len(formats))) - anchored
    by_anchor: dict[str, list[int]] = {}
    for i in sorted(anchored):
        for anchor in formats[i].anchors:
            by_anchor.setdefault(anchor, []).append(i)
    scan = any_literal(tuple(by_anchor)) if by_anchor else None
    return FormatPlan(
        hints=tuple(f.hints for f in formats),
        always=tuple(i for i, f in enumerate(formats) if not f.hints),
        by_hint=_hint_table(formats, set(range(len(formats)))),
        loose_always=tuple(i for i in sorted(loose) if not formats[i].hints),
        loose_by_hint=_hint_table(formats, loose),
        anchored={i: formats[i].anchors for i in sorted(anchored)},
        by_anchor={anchor: tuple(found) for anchor, found in by_anchor.items()},
        short_anchored=tuple((i, formats[i].anchors) for i in sorted(loose) if formats[i].anchors),
        folded=tuple(
            (i, formats[i].hints)
            for i in sorted(loose)
            if not formats[i].anchors and formats[i].hints and formats[i].pattern.flags & re.IGNORECASE
        ),
        unanchored=tuple(
            i
            for i in sorted(loose)
            if not formats[i].anchors and not (formats[i].hints and formats[i].pattern.flags & re.IGNORECASE)
        ),
        extensions={
            found: tuple(a for a in by_anchor if a.startswith(found))
            for found in shortest_prefixes(by_anchor)
        },
        anchor_scan=scan,
    )


def _hint_table(
    formats: tuple[KeyFormat, ...], positions: set[int]
) -> tuple[tuple[str, frozenset[int]], ...]:
    by_hint: dict[str, set[int]] = {}
    for i in sorted(positions):
        for hint in formats[i].hints:
            by_hint.setdefault(hint, set()).add(i)
    return tuple((hint, frozenset(found)) for hint, found in sorted(by_hint.items()))
