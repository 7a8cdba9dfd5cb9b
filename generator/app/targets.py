"""A repository to research, resolved once at the top: its source parsed and matched to its deepkb.yml entry,
with the entry's notes, pins, entry points and questions; the pipeline below only reads it."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace

from ..config import Config, RepoEntry
from ..errors import DeepkbError
from ..repo.checkout.clone import parse_source
from ..repo.model import RepoSource
from ..repo.run.session import load_session
from ..repo.run.study import RepoTarget
from ..repo.synthesize.notes import entry_notes
from ..repo.synthesize.questions import asked
from ..store import KBPaths


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


def entry_target(paths: KBPaths, config: Config, repo: RepoEntry, source: RepoSource | None) -> RepoTarget:
    """The target of a deepkb.yml repository entry, from the source its id was parsed from; one that did not
    parse is parsed again here, so its error is that entry's failure."""
    return repo_target(paths, config, repo.source) if source is None else resolved_target(paths, source, repo)


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
    for repo in config.repos:
        with suppress(DeepkbError):
            if RepoTarget(parse_source(repo.source, paths.root)).id == wanted:
                return repo
    return None


def session_target(paths: KBPaths, config: Config, session_id: str) -> RepoTarget:
    """The target of a chunked session (`deepkb repo shard/synthesize`): its source and question, resolved
    again as `deepkb repo start` resolved them."""
    session = load_session(paths.cache_dir, session_id)
    return repo_target(paths, config, session.source, requests=session.request)
