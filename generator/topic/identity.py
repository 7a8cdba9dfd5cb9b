"""Which workspace a topic has: its slug, and the identity hash that keeps distinct topics apart.

The slug is the topic's text when that loses nothing (`Widget Safety` → `widget-safety`), else the text plus
a short stable hash, so two topics never share a workspace; the hash (`topic_key` in `_meta.json`) finds
the workspace again.
"""

from __future__ import annotations

import hashlib
import unicodedata

from .. import store
from ..errors import UsageError
from ..store import KBPaths
from .state import TopicMeta
from .workspace import readable_meta

SLUG_CHARS = 60
HASH_CHARS = 8


def folded(topic: str) -> str:
    """The topic as its identity sees it: case, spacing and a closing question mark or full stop folded
    ("How do X work?" and "how do x work" are one topic)."""
    return " ".join(unicodedata.normalize("NFKC", topic).lower().split()).rstrip("?!.。？！ ")


def topic_key(topic: str) -> str:
    """The topic's identity: a short stable hash of its folded text."""
    return hashlib.sha1(folded(topic).encode("utf-8")).hexdigest()[:HASH_CHARS]


def topic_slug(topic: str, slug: str | None = None, paths: KBPaths | None = None) -> str:
    """The topic's workspace slug: the configured one, else one derived from the topic text (with a hash
    when the slug loses part of it). With `paths`, an existing workspace of this topic under either form is
    found again."""
    if slug:
        return store.slugify(slug)
    base = store.slugify(topic, max_len=SLUG_CHARS)
    hashed = f"{base[: SLUG_CHARS - HASH_CHARS - 1].rstrip('-._')}-{topic_key(topic)}"
    lossless = base == "-".join(folded(topic).split())
    if paths is None:
        return base if lossless else hashed
    for candidate in (base, hashed):
        meta = readable_meta(paths, candidate)
        if meta is not None and _same_topic(meta, topic):
            return candidate
    return base if lossless and readable_meta(paths, base) is None else hashed


def _same_topic(meta: TopicMeta, topic: str) -> bool:
    return (meta.topic_key or topic_key(meta.topic)) == topic_key(topic)


def check_configured_slug(paths: KBPaths, topic: str, slug: str) -> None:
    """A slug set in deepkb.yml must not take over another topic's workspace."""
    meta = readable_meta(paths, slug)
    if meta is not None and not _same_topic(meta, topic):
        raise UsageError(
            f"slug '{slug}' already holds the topic '{meta.topic[:80]}'",
            hint="give this topic its own slug in deepkb.yml",
        )
