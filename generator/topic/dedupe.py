"""Deduplication of research results: canonical URLs for exact duplicates, SimHash for near-duplicate text.

`canonical_url` is a comparison key (case, `www.`, default port, fragment, credentials, tracking parameters,
query order, dot segments and trailing slash folded); `simhash` is Charikar's 64-bit fingerprint over word
3-shingles; `dedupe` keeps the first item of every group of duplicates.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

T = TypeVar("T")

TRACKING_PARAMS = frozenset(
    "fbclid gclid dclid msclkid yclid igshid mc_cid mc_eid ref ref_src _ga spm".split()
)
_DEFAULT_PORTS = {"http": 80, "https": 443}
_TOKEN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]|[^\W_]+", re.UNICODE)
MIN_TOKENS = 8  # below this, texts are too short for SimHash to say anything: compare them by URL only


def canonical_url(url: str) -> str:
    """The comparison key for `url` (not meant for fetching). Non-web URLs only lose their fragment."""
    raw = url.strip()
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        return raw
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return urlunsplit((scheme, parts.netloc, parts.path, parts.query, ""))
    host = parts.hostname.lower().rstrip(".").removeprefix("www.")
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    if ":" in host:  # IPv6 literal
        netloc = f"[{host}]" + (f":{port}" if port not in (None, _DEFAULT_PORTS[scheme]) else "")
    return urlunsplit((scheme, netloc, _canonical_path(parts.path), _canonical_query(parts.query), ""))


def _canonical_path(path: str) -> str:
    # Decode then re-encode, so %7E and ~ (or %2f case) compare equal; "/" and "%" stay as they mean.
    cleaned = quote(unquote(path), safe="/%:@!$&'()*+,;=-._~")
    normalized = posixpath.normpath(cleaned) if cleaned else "/"
    normalized = "/" + normalized.lstrip("/") if normalized != "." else "/"
    return normalized.rstrip("/") or "/"


def _canonical_query(query: str) -> str:
    pairs = [
        (key, value)
        for key, value in parse_qsl(query, keep_blank_values=True)
        if not key.lower().startswith("utm_") and key.lower() not in TRACKING_PARAMS
    ]
    return urlencode(sorted(pairs))


def normalized_tokens(text: str) -> list[str]:
    """Lowercased NFKC words; each Han character is a token of its own (Chinese has no spaces)."""
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).lower())


def simhash(text: str, *, shingle: int = 3) -> int:
    """64-bit SimHash of `text` over word shingles; near-identical texts differ in few bits."""
    tokens = normalized_tokens(text)
    # a text shorter than one shingle is fingerprinted word by word
    grams = [" ".join(tokens[i : i + shingle]) for i in range(len(tokens) - shingle + 1)] or tokens
    weights = [0] * 64
    for gram, count in Counter(grams).items():
        digest = int.from_bytes(hashlib.blake2b(gram.encode(), digest_size=8).digest(), "big")
        for bit in range(64):
            weights[bit] += count if digest >> bit & 1 else -count
    return sum(1 << bit for bit, weight in enumerate(weights) if weight > 0)


def hamming(a: int, b: int) -> int:
    """Number of differing bits between two fingerprints."""
    return (a ^ b).bit_count()


@dataclass
class DedupeResult(Generic[T]):
    kept: list[T] = field(default_factory=list)
    dropped: list[tuple[T, T, str]] = field(default_factory=list)
    """(item, the kept item it duplicates, reason)."""


def dedupe(
    items: Sequence[T],
    key_text: Callable[[T], str],
    key_url: Callable[[T], str],
    max_distance: int = 3,
) -> DedupeResult[T]:
    """Keep the first of every group of items sharing a canonical URL or a near-identical text."""
    result: DedupeResult[T] = DedupeResult()
    by_url: dict[str, T] = {}
    prints: list[tuple[int, T]] = []
    for item in items:
        url = canonical_url(key_url(item) or "")
        if url and url in by_url:
            result.dropped.append((item, by_url[url], "same URL"))
            continue
        text = key_text(item) or ""
        fingerprint = simhash(text) if len(normalized_tokens(text)) >= MIN_TOKENS else None
        twin = _near(fingerprint, prints, max_distance)
        if twin is not None:
            distance, original = twin
            result.dropped.append((item, original, f"near-duplicate text (distance {distance})"))
            continue
        if url:
            by_url[url] = item
        if fingerprint is not None:
            prints.append((fingerprint, item))
        result.kept.append(item)
    return result


def _near(fingerprint: int | None, prints: list[tuple[int, T]], max_distance: int) -> tuple[int, T] | None:
    if fingerprint is None:
        return None
    best = min(
        ((hamming(fingerprint, other), item) for other, item in prints), default=None, key=lambda p: p[0]
    )
    return best if best is not None and best[0] <= max_distance else None
