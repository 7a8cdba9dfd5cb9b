"""Secret redaction: nothing read from a repository or a source leaves the process (LLM request, page)
unredacted.

Four nets, applied in order: literal values of our own secret environment variables; known key formats
(ours and detect-secrets' maintained patterns, `secret_formats.py`); secrets known by where they stand (the
value of a secret-named key in code, YAML, INI, .env or prose, `Bearer` tokens, hex keys passed as
arguments); and long high-entropy tokens. Replacements keep the number of newlines of what they replace, so
line numbers computed after redaction still match the original file.

A format runs only where one of its lowercase hints occurs, and a context rule only where a looser gate
pattern finds something; both are necessary for a match, so the answer is the same as running every rule
(tests/test_redact_gates.py).
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from generator.secret_formats import (
    ASSIGNMENT,
    ASSIGNMENT_GATES,
    BEARER,
    BEARER_GATES,
    HEX_ARGUMENT,
    HEX_ARGUMENT_GATE,
    URL_PASSWORD_KINDS,
    KeyFormat,
    gates_find,
    known_formats,
    looks_like_bearer_token,
    looks_like_hex_key,
    looks_like_secret_value,
    plausible_secret,
    secret_span,
    url_host,
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
        text, n = _redact_formats(text)
        count += n
        text, n = _redact_in_context(text, _lower_in_place(text, text.lower()))
        count += n
        if self.entropy:
            text, n = _redact_entropy(text)
            count += n
        return text, count


def _redact_formats(text: str) -> tuple[str, int]:
    """Every known format, in the rule set's order, each where one of its hints is in the text as it
    stands after the formats before it."""
    count = 0
    formats = known_formats()
    # formats share hints (a vendor's seven token patterns, eleven prefixes each), and a hint the text lacks
    # costs a scan of the whole text: each is looked for once, and again only once a replacement changed it
    hints = {hint for key_format in formats for hint in key_format.hints}
    lower = text.lower()
    present = {hint for hint in hints if hint in lower}
    for key_format in formats:
        if key_format.hints and present.isdisjoint(key_format.hints):
            continue
        text, n = _substitute(key_format, text)
        if n:
            count, lower = count + n, text.lower()
            present = {hint for hint in hints if hint in lower}
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
        host = url_host(text, end) if key_format.kind in URL_PASSWORD_KINDS else None
        if start >= end or _embedded(text, *match.span()) or not plausible_secret(secret, url_host=host):
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
