"""Secret redaction: nothing read from a repository or a source leaves the process (LLM request, page)
unredacted.

Four nets, applied in order: literal values of our own secret environment variables; known key formats
(ours and detect-secrets' maintained patterns, `secret_formats.py`); secrets known by where they stand (the
value of a secret-named key in code, YAML, INI, .env or prose, `Bearer` tokens, hex keys passed as
arguments); and long high-entropy tokens. Replacements keep the number of newlines of what they replace, so
line numbers computed after redaction still match the original file.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from generator.regex_literals import any_literal, shortest_prefixes
from generator.secret_formats import (
    ASSIGNMENT,
    ASSIGNMENT_GATES,
    BEARER,
    BEARER_GATES,
    HEX_ARGUMENT,
    HEX_ARGUMENT_GATE,
    KeyFormat,
    gates_find,
    known_formats,
    looks_like_bearer_token,
    looks_like_hex_key,
    looks_like_secret_value,
    plausible_secret,
    secret_span,
)

SECRET_ENV_SUFFIXES = ("_KEY", "_TOKEN", "_SECRET")
MIN_ENV_SECRET_LEN = 8  # shorter values ("1", "true") would redact ordinary text

# base64/URL-safe alphabets; a run must be this long before we judge its entropy
_TOKEN_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{32,}={0,2}")
_HEX_ONLY = re.compile(r"[0-9a-fA-F]+")
_CAPITALS_DIGITS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_SEPARATORS = re.compile(r"[/_\-+]")
_COMMIT_LIKE = re.compile(r"[0-9a-f]{7,64}")
_ALPHABET_RUN = re.compile(r"abcdefgh|ABCDEFGH|01234567", re.IGNORECASE)
_WORDISH = re.compile(r"[A-Z]?[a-z]{3,}")
_LOWER, _UPPER, _DIGIT = re.compile(r"[a-z]"), re.compile(r"[A-Z]"), re.compile(r"[0-9]")
# Subresource-integrity and similar digests: "sha512-<base64>" is a hash, not a key
_DIGEST_PREFIX = re.compile(r"(?:sha1|sha256|sha384|sha512|md5)[-:]$", re.IGNORECASE)
_DIGEST_TOKEN = re.compile(r"(?:sha1|sha256|sha384|sha512|md5)[-:]", re.IGNORECASE)
ENTROPY_THRESHOLD = 4.3  # bits per character; identifiers and prose sit well below, random base64 near 6
# `looks_random` wants a digit in the token (or in the segment of it it judges), so the entropy rule needs a
# digit inside a run of 32 token characters: with 16 of them before it or after it (a fast scan for digits)
_ENTROPY_GATE = re.compile(r"[0-9](?:(?<=[A-Za-z0-9+/_\-]{17})|[A-Za-z0-9+/_\-]{16})")
MIN_ANCHOR_LEN = 2  # a one-character anchor (`:`, `.`) is in nearly every text: such formats go by hints


def shannon_entropy(text: str) -> float:
    """Bits per character of `text` (0 for empty text)."""
    if not text:
        return 0.0
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in Counter(text).values())


def looks_random(token: str) -> bool:
    """A long run of mixed letters and digits with high entropy: likely a key, not an identifier or hash.

    Pure hex runs are left alone: they are overwhelmingly commit hashes and digests (a 40-hex git SHA
    must survive so citations and permalinks still work); hex secrets are caught by the assignment rule.
    """
    core = token.rstrip("=")
    if len(core) < 32 or _HEX_ONLY.fullmatch(core):
        return False
    if "/" in core:
        segments = core.split("/")
        if core.count("/") > len(core) // 12 or any(_COMMIT_LIKE.fullmatch(s) for s in segments):
            return any(looks_random(s) for s in segments)  # a path or URL: only a key inside it counts
    # keys mix lower case, upper case and digits; identifiers and words rarely have all three
    if not (_LOWER.search(core) and _UPPER.search(core) and _DIGIT.search(core)):
        return False
    if max(len(piece) for piece in _SEPARATORS.split(core)) < 16:
        return False  # a slug or path of short words (`2018/05/20180525-Registration-Policy`)
    if _ALPHABET_RUN.search(core):
        return False  # an alphabet ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef…0123456789"), not a key
    # `BetaMemoryTool20250818StrReplaceCommand` is words and a date: random text has few long lower-case runs
    if sum(len(w) for w in _WORDISH.findall(core)) >= 0.6 * len(core):
        return False
    return shannon_entropy(core) >= ENTROPY_THRESHOLD


@dataclass(frozen=True)
class Redactor:
    """Replaces secrets in text with `[REDACTED:<kind>]` and counts the replacements."""

    literals: tuple[str, ...] = field(default=())
    entropy: bool = True

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Redactor:
        """Collect the values of variables named *_KEY, *_TOKEN or *_SECRET (at least 8 characters)."""
        env = os.environ if environ is None else environ
        values = {
            value
            for name, value in env.items()
            if name.upper().endswith(SECRET_ENV_SUFFIXES) and len(value) >= MIN_ENV_SECRET_LEN
        }
        # longest first, so a value containing another is replaced whole
        return cls(literals=tuple(sorted(values, key=lambda v: (-len(v), v))))

    def redact(self, text: str) -> tuple[str, int]:
        """Return `text` with every secret replaced, and how many replacements were made."""
        count = 0
        for value in self.literals:
            if value in text:
                count += text.count(value)
                text = text.replace(value, "[REDACTED:env]")
        lower = text.lower()
        text, n = _redact_formats(text, lower)
        count += n
        lower = text.lower() if n else lower
        text, n = _redact_in_context(text, _lower_in_place(text, lower))
        count += n
        if self.entropy:
            text, n = _redact_entropy(text)
            count += n
        return text, count

    def inert(self, text: str) -> bool:
        """Whether redaction leaves `text` as it is, on its own or joined to other inert texts by blank lines
        (`redaction.DOC_SEPARATOR`): no literal is in it, every known format that could match it is
        line-local and finds nothing, no context gate (line-local too) finds anything, and the entropy rule
        replaces nothing (it judges a token by itself and the few characters before it on its line). A rule
        changing such a join would change one line of one of its texts, and none does."""
        if any(value in text or "\n" in value for value in self.literals):
            return False
        lower, formats = text.lower(), known_formats()
        for i in _format_plan().possible(text, lower):
            if not formats[i].one_line or formats[i].pattern.search(text):
                return False
        lower = _lower_in_place(text, lower)
        if (
            gates_find(ASSIGNMENT_GATES, lower)
            or gates_find(BEARER_GATES, lower)
            or HEX_ARGUMENT_GATE.search(lower)
        ):
            return False
        return not (self.entropy and _redact_entropy(text)[1])


@dataclass(frozen=True)
class _FormatPlan:
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
def _format_plan() -> _FormatPlan:
    formats = known_formats()
    anchored = {i for i, f in enumerate(formats) if f.anchors and min(map(len, f.anchors)) >= MIN_ANCHOR_LEN}
    loose = set(range(len(formats))) - anchored
    by_anchor: dict[str, list[int]] = {}
    for i in sorted(anchored):
        for anchor in formats[i].anchors:
            by_anchor.setdefault(anchor, []).append(i)
    scan = any_literal(tuple(by_anchor)) if by_anchor else None
    return _FormatPlan(
        hints=tuple(f.hints for f in formats),
        always=tuple(i for i, f in enumerate(formats) if not f.hints),
        by_hint=_hint_table(formats, set(range(len(formats)))),
        loose_always=tuple(i for i in sorted(loose) if not formats[i].hints),
        loose_by_hint=_hint_table(formats, loose),
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


def _redact_formats(text: str, lower: str) -> tuple[str, int]:
    """Every known format the plan's rule chooses, in the rule set's order, as if each had been tried."""
    plan, formats = _format_plan(), known_formats()
    count = 0
    for position in plan.likely(text, lower):
        text, n = _substitute(formats[position], text)
        count += n
        if n:  # the anchors were checked against the text before this replacement: the rest go by hints
            for later in plan.hinted(lower):
                if later > position:
                    text, n = _substitute(formats[later], text)
                    count += n
            break
    return text, count


def _replacement(kind: str, matched: str) -> str:
    # keep the line count so numbering after redaction matches the file on disk
    return f"[REDACTED:{kind}]" + "\n" * matched.count("\n")


def _substitute(key_format: KeyFormat, text: str) -> tuple[str, int]:
    if not key_format.pattern.search(text):
        return text, 0  # most texts: no replacement function to build
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        start, end = secret_span(key_format, match)
        secret = text[start:end]
        if start >= end or _embedded(text, *match.span()) or not plausible_secret(secret):
            return match.group(0)
        count += 1
        offset, whole = match.start(), match.group(0)
        return whole[: start - offset] + _replacement(key_format.kind, secret) + whole[end - offset :]

    return key_format.pattern.sub(replace, text), count


def _embedded(text: str, start: int, end: int) -> bool:
    """A match inside a longer run of capitals and digits (a DNA string, a constant) is part of something else."""
    return (start > 0 and text[start - 1] in _CAPITALS_DIGITS) or (
        end < len(text) and text[end] in _CAPITALS_DIGITS
    )


def _lower_in_place(text: str, lower: str) -> str:
    """`text` lower-cased with every offset kept (a few letters, like 'İ', grow when lowered: kept as is);
    `lower` is `text.lower()`."""
    if len(lower) == len(text):
        return lower
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _redact_in_context(text: str, lower: str) -> tuple[str, int]:
    """Values of secret-named keys, bearer tokens and hex arguments that look like literal secrets."""
    spans = sorted(_context_spans(text, lower))
    if not spans:
        return text, 0
    parts: list[str] = []
    position = count = 0
    for start, end, kind in spans:
        if start < position:
            continue  # overlaps a span already replaced
        parts += [text[position:start], _replacement(kind, text[start:end])]
        position, count = end, count + 1
    return "".join(parts) + text[position:], count


def _context_spans(text: str, lower: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    # each rule runs only where its gate, a looser pattern every match of the rule contains, finds something
    for match in ASSIGNMENT.finditer(lower) if gates_find(ASSIGNMENT_GATES, lower) else ():
        if match["word"] in {"pass", "pwd"} and match.start() and lower[match.start() - 1].isalpha():
            continue  # bypass, compass
        group = next(g for g in ("dq", "sq", "bare") if match.group(g) is not None)
        start, end = match.span(group)
        if looks_like_secret_value(text[start:end], quoted=group != "bare", text=text):
            spans.append((start, end, "assignment"))
    for match in BEARER.finditer(lower) if gates_find(BEARER_GATES, lower) else ():
        start, end = match.span("bare")
        if looks_like_bearer_token(text[start:end]):
            spans.append((start, end, "bearer_token"))
    for match in HEX_ARGUMENT.finditer(lower) if HEX_ARGUMENT_GATE.search(lower) else ():
        start, end = match.span("bare")
        if looks_like_hex_key(lower, match.start(), text[start:end]):
            spans.append((start, end, "hex_key"))
    return spans


def _redact_entropy(text: str) -> tuple[str, int]:
    if not _ENTROPY_GATE.search(text):
        return text, 0
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        token = match.group(0)
        digest = _DIGEST_TOKEN.match(token) or _DIGEST_PREFIX.search(
            text, max(0, match.start() - 8), match.start()
        )
        if digest or not looks_random(token):
            return token
        count += 1
        return "[REDACTED:high_entropy]"

    return _TOKEN_RUN.sub(replace, text), count
