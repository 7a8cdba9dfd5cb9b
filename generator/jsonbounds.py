"""JSON nesting depth measured before parsing: Python's parser recurses once per level, so a 100,000-deep
body from a server or a planted record would end a run with a RecursionError instead of one clear line.

`NestingMeter` is fed a body piece by piece (bytes or text) as it arrives and raises `TooDeep` as soon as
the nesting passes its limit; `loads` measures a whole text first, then parses it. Brackets inside strings
do not count. This module imports nothing but `json` and `re`, so the store and the HTTP layer share it.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_JSON_DEPTH = 100
"""Deepest nesting of arrays and objects deepkb parses; its records and every API reply stay far below."""

# Outside a string only quotes and brackets matter; inside one only the closing quote and escapes.
_OUTSIDE: dict[type, re.Pattern[Any]] = {str: re.compile(r'["\[\]{}]'), bytes: re.compile(rb'["\[\]{}]')}
_INSIDE: dict[type, re.Pattern[Any]] = {str: re.compile(r'["\\]'), bytes: re.compile(rb'["\\]')}
_OPENS = frozenset({"[", "{", ord("["), ord("{")})
_CLOSES = frozenset({"]", "}", ord("]"), ord("}")})
_QUOTES = frozenset({'"', ord('"')})


class TooDeep(ValueError):
    """JSON nested deeper than the limit (a ValueError, as json's own decoding errors are)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"JSON nested more than {limit} levels deep")


class NestingMeter:
    """The running nesting depth of a JSON document fed in pieces; raises TooDeep past `limit`."""

    def __init__(self, limit: int = MAX_JSON_DEPTH) -> None:
        self.limit = limit
        self.depth = 0
        self.in_string = False
        self.escaped = False  # the previous piece ended on a backslash inside a string

    def feed(self, piece: str | bytes) -> None:
        kind = type(piece)
        position = 0
        if self.escaped and piece:
            position, self.escaped = 1, False
        while True:
            match = (_INSIDE if self.in_string else _OUTSIDE)[kind].search(piece, position)
            if match is None:
                return
            char = piece[match.start()]
            position = match.end()
            if char in _QUOTES:
                self.in_string = not self.in_string
            elif (
                self.in_string
            ):  # a backslash: the next character is escaped, even when it is in the next piece
                if position >= len(piece):
                    self.escaped = True
                    return
                position += 1
            elif char in _OPENS:
                self.depth += 1
                if self.depth > self.limit:
                    raise TooDeep(self.limit)
            elif char in _CLOSES:
                self.depth = max(0, self.depth - 1)


def check_depth(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise TooDeep when `text` nests deeper than `limit` (cheap when it holds few brackets at all)."""
    opens = (b"[", b"{") if isinstance(text, bytes) else ("[", "{")
    if text.count(opens[0]) + text.count(opens[1]) > limit:  # type: ignore[arg-type]
        NestingMeter(limit).feed(text)


def loads(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads` of a text whose nesting was measured first: TooDeep (a ValueError) instead of recursion."""
    check_depth(text, limit)
    return json.loads(text)
