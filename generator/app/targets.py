"""A research target resolved once, at the top: the repository's source parsed and matched to its deepkb.yml
entry, with the entry's notes, pins, entry points and questions; the pipelines below only read it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..config import Config, RepoEntry, TopicEntry
from ..errors import UsageError
from ..repo.checkout.clone import parse_source
from ..repo.model import RepoSource
from ..repo.run.session import load_session
from ..repo.run.study import RepoTarget
from ..repo.synthesize.notes import entry_notes
from ..repo.synthesize.questions import asked
from ..store import KBPaths
from ..topic.identity import check_configured_slug, topic_slug
from ..topic.pipeline import MAX_TOPIC_CHARS
from ..topic.state import Options, TopicTarget
from .entries import Entry, repo_entry


def repo_target(
    paths: KBPaths,
    config: Config,
    source: str,
    *,
    requests: str | Sequence[str] | None = None,
    entry_points: Sequence[str] = (),
    retry_failed: bool = False,
    max_concurrent: int | None = None,
) -> RepoTarget:
    """The repository `source` names (checked before any git process) with its deepkb.yml entry, whose
    questions are asked however the repository is run; the command line's questions and entry points are
    added to the entry's. A bad `notes:` path or question fails here, before any work."""
    repo_source = parse_source(source, paths.root)
    target = resolved_target(paths, repo_source, listed_entry(paths, config, repo_source))
    return replace(
        target,
        questions=tuple(asked([*target.questions, *asked(requests)])),
        entry_points=tuple(entry_points) or target.entry_points,
        retry_failed=retry_failed,
        max_concurrent=max_concurrent,
    )


def entry_target(paths: KBPaths, config: Config, entry: Entry) -> RepoTarget:
    """The target of a deepkb.yml repository entry, from the source its id was parsed from; one that did not
    parse is parsed again here, so its error is that entry's failure."""
    if entry.source is None or entry.repo is None:
        return repo_target(paths, config, entry.name)
    return resolved_target(paths, entry.source, entry.repo)


def resolved_target(paths: KBPaths, source: RepoSource, entry: RepoEntry | None) -> RepoTarget:
    """A parsed source with its deepkb.yml entry (None when not listed): the entry's notes, questions, entry
    points and pinned subsystems."""
    if entry is None:
        return RepoTarget(source)
    return RepoTarget(
        source=source,
        entry=entry,
        notes=entry_notes(paths, entry),
        questions=tuple(asked(entry.request)),
        entry_points=tuple(entry.entry_points),
        pins=dict(entry.subsystems),
    )


def listed_entry(paths: KBPaths, config: Config, source: RepoSource) -> RepoEntry | None:
    """deepkb.yml's entry for `source`'s repository, however either names it: the one with the same id
    (`repo:<owner>/<name>`, also its pages' folder); an entry whose source does not parse matches none."""
    wanted = RepoTarget(source).id
    entries = (repo_entry(paths, repo) for repo in config.repos)
    return next((e.repo for e in entries if e.source is not None and e.id == wanted), None)


def session_target(paths: KBPaths, config: Config, session_id: str) -> RepoTarget:
    """The target of a chunked session (`deepkb repo shard/synthesize`): its source and question, resolved
    again as `deepkb repo start` resolved them."""
    session = load_session(paths.cache_dir, session_id)
    return repo_target(paths, config, session.source, requests=session.request)


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
        lang="zh" if (lang or entry.lang) == "zh" else "en",  # checked above: en or zh
        review_plan=review_plan,
    )
    slug = topic_slug(topic, entry.slug, paths)
    if entry.slug:
        check_configured_slug(paths, topic, slug)
    return TopicTarget(topic, slug, entry, options, refresh=refresh, entry_options=entry_options)
