"""Secret redaction: nothing read from a repository leaves the process (LLM request, page) unredacted.

Three nets, applied in order: literal values of our own secret environment variables, known key formats,
and long high-entropy tokens. Replacements keep the number of newlines of what they replace, so line
numbers computed after redaction still match the original file.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

SECRET_ENV_SUFFIXES = ("_KEY", "_TOKEN", "_SECRET")
MIN_ENV_SECRET_LEN = 8  # shorter values ("1", "true") would redact ordinary text

_SECRET_WORDS = (
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "apikey",
    "api_key",
    "api-key",
    "accesskey",
    "access_key",
    "access-key",
    "privatekey",
    "private_key",
    "private-key",
)


@dataclass(frozen=True)
class KeyFormat:
    """A known secret format. `hints` are lowercase literals every match contains: a text holding none of
    them skips the (much slower) regular expression. Group 1, when present, is the part replaced."""

    kind: str
    hints: tuple[str, ...]
    pattern: re.Pattern[str]


# fmt: off
KNOWN_FORMATS: tuple[KeyFormat, ...] = (
    KeyFormat("private_key", ("-----begin",), re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")),
    KeyFormat("aws_access_key", ("akia", "asia", "agpa", "aida", "aroa"),
              re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b")),
    KeyFormat("github_token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b")),
    KeyFormat("github_token", ("github_pat_",), re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}")),
    KeyFormat("anthropic_key", ("sk-ant-",), re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{16,}")),
    KeyFormat("openai_key", ("sk-",), re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    KeyFormat("slack_token", ("xox",), re.compile(r"\bxox[abposre]-[A-Za-z0-9\-]{10,}")),
    KeyFormat("google_api_key", ("aiza",), re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    KeyFormat("stripe_key", ("k_live_", "k_test_"), re.compile(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}")),
    KeyFormat("url_password", ("://",), re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@\"']+:([^/\s@\"']{3,})@")),
    KeyFormat("jwt", ("eyj",), re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
    # `key = "value"` / `"key": "value"`; no `\w*` before the keyword: only the value is replaced
    KeyFormat("assignment", _SECRET_WORDS, re.compile(
        r"(?i:(?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key)"
        r"[\w\-]*[\"']?\s*(?::=|=>|=|:)\s*[\"']([^\"'\s$<{%]{8,})[\"'])")),
    # .env / shell / ini style, unquoted: `export API_TOKEN=abc…`
    KeyFormat("assignment", _SECRET_WORDS, re.compile(
        r"(?im:^[ \t]*(?:export[ \t]+)?[A-Z0-9_.\-]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)"
        r"[A-Z0-9_\-]*[ \t]*=[ \t]*([^\s\"'#$<{%]{8,}))")),
)
# fmt: on

# hints are lowercase and searched in the lowercased text (an IGNORECASE alternation is ten times slower)
_ANY_HINT = re.compile("|".join(sorted({re.escape(h) for f in KNOWN_FORMATS for h in f.hints})))

# base64/URL-safe alphabets; a run must be this long before we judge its entropy
_TOKEN_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{32,}={0,2}")
_HEX_ONLY = re.compile(r"[0-9a-fA-F]+")
_LOWER, _UPPER, _DIGIT = re.compile(r"[a-z]"), re.compile(r"[A-Z]"), re.compile(r"[0-9]")
# Subresource-integrity and similar digests: "sha512-<base64>" is a hash, not a key
_DIGEST_PREFIX = re.compile(r"(?:sha1|sha256|sha384|sha512|md5)[-:]$", re.IGNORECASE)
_DIGEST_TOKEN = re.compile(r"(?:sha1|sha256|sha384|sha512|md5)[-:]", re.IGNORECASE)
ENTROPY_THRESHOLD = 4.3  # bits per character; identifiers and prose sit well below, random base64 near 6


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
    if "/" in core and core.count("/") > len(core) // 12:
        return False  # a path or URL, not a token
    # keys mix lower case, upper case and digits; identifiers and words rarely have all three
    if not (_LOWER.search(core) and _UPPER.search(core) and _DIGIT.search(core)):
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
        if _ANY_HINT.search(lower):  # one pass; most texts stop here
            for key_format in KNOWN_FORMATS:
                if any(hint in lower for hint in key_format.hints):
                    text, n = _substitute(key_format.pattern, key_format.kind, text)
                    count += n
        if self.entropy:
            text, n = _redact_entropy(text)
            count += n
        return text, count


def _replacement(kind: str, matched: str) -> str:
    # keep the line count so numbering after redaction matches the file on disk
    return f"[REDACTED:{kind}]" + "\n" * matched.count("\n")


def _substitute(pattern: re.Pattern[str], kind: str, text: str) -> tuple[str, int]:
    def replace(match: re.Match[str]) -> str:
        if pattern.groups and match.group(1) is not None:
            start, end = match.span(1)
            offset = match.start()
            whole = match.group(0)
            return whole[: start - offset] + _replacement(kind, match.group(1)) + whole[end - offset :]
        return _replacement(kind, match.group(0))

    return pattern.subn(replace, text)


def _redact_entropy(text: str) -> tuple[str, int]:
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
