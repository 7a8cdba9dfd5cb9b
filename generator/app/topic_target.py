"""A topic to research, resolved once at the top: its text checked, its workspace found, and the command
line's options over its deepkb.yml entry's; the pipeline below only reads it."""

from __future__ import annotations

from collections.abc import Sequence

from ..cjk import written_language
from ..config import TopicEntry
from ..errors import UsageError
from ..store import KBPaths
from ..topic.identity import check_configured_slug, topic_slug
from ..topic.pipeline import MAX_TOPIC_CHARS
from ..topic.state import Options, TopicTarget


def topic_target(
    paths: KBPaths,
    entry: TopicEntry,
    *,
    quick: bool = False,
    verify: bool | None = None,
    parallel: bool | None = None,
    sources: Sequence[str] | None = None,
    lang: str | None = None,
    review_plan: bool = False,
    refresh: bool = False,
    entry_options: bool = False,
) -> TopicTarget:
    """The topic `entry` names, with the command line's options over the entry's; a topic text out of bounds,
    an unknown language or a configured slug that belongs to another topic fails here, before any work."""
    if lang not in (None, "en", "zh"):
        raise UsageError(f"--lang: unsupported language '{lang}'", hint="use en or zh")
    topic = " ".join(entry.topic.split())
    if not topic or len(topic) > MAX_TOPIC_CHARS:
        raise UsageError(
            f"the topic text is {len(topic)} characters; a topic is 1 to {MAX_TOPIC_CHARS}",
            hint="ask a shorter question; details belong in the sources",
        )
    options = Options(
        quick=quick,
        verify=False if quick else (entry.verify if verify is None else verify),
        parallel=False if quick else (entry.parallel if parallel is None else parallel),
        sources=list(sources or entry.sources),
        lang="zh" if (lang or entry.lang or written_language(topic)) == "zh" else "en",  # checked above
        review_plan=review_plan,
    )
    slug = topic_slug(topic, entry.slug, paths)
    if entry.slug:
        check_configured_slug(paths, topic, slug)
    return TopicTarget(topic, slug, entry, options, refresh=refresh, entry_options=entry_options)
