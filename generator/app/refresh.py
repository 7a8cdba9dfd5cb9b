"""What is stale, and re-running only that: repositories whose remote HEAD moved, topics past refresh_days.

Checking costs no LLM call (a `git ls-remote` per repository, a date per topic), and the LLM provider is
opened only when something is stale, so a refresh with nothing new calls no model and writes no file.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Literal

import msgspec
from rich.console import Console

from generator.repo.checkout.clone import parse_source, read_origin_url, remote_head
from generator.repo.synthesize.notes import corrections_digest, entry_notes

from ..config import Config, RepoEntry, TopicEntry
from ..errors import DeepkbError, StoreError
from ..jsontypes import JSONObject
from ..kb.index import load_entry, load_index, update_index
from ..llm import Provider
from ..llm.cost import CostRecord, cost_record
from ..repo.model import RepoSource
from ..site.build import build_site
from ..site.render import render_site
from ..store import KBPaths, read_json
from ..topic.identity import topic_slug
from ..topic.workspace import readable_meta
from .entries import Entry, ShardSpec, assign_shards, entry_weights
from .run import OnDemand, research_entries

Status = Literal["up-to-date", "stale", "refreshed", "unverified", "partial", "failed", "skipped"]
# seed: a topic whose last run did not finish is picked up again by the next refresh; an unverified report
# (published, labelled "not verified") waits for its refresh_days like a completed one: sources that did not
# answer last night will not answer tonight either, and a no-op refresh must cost nothing
UNFINISHED = {"in_progress", "failed"}


@dataclass
class RefreshItem:
    """One repository or topic: why it is (not) stale, and what the refresh did with it."""

    kind: Literal["repo", "topic"]
    id: str
    name: str
    reason: str
    status: Status
    repo: RepoEntry | None = field(default=None, repr=False)
    topic: TopicEntry | None = field(default=None, repr=False)
    source: RepoSource | None = field(default=None, repr=False)

    def to_json(self) -> JSONObject:
        return {k: v for k, v in asdict(self).items() if k not in ("repo", "topic", "source")}

    def entry(self) -> Entry:
        return Entry(self.kind, self.id, self.name, repo=self.repo, topic=self.topic, source=self.source)


@dataclass
class RefreshReport:
    items: list[RefreshItem]
    elapsed_s: float = 0.0
    llm_calls: int = 0
    usage: CostRecord | None = None
    dry_run: bool = False
    site_built: bool = False

    def count(self, status: Status) -> int:
        return sum(1 for item in self.items if item.status == status)

    def to_json(self) -> JSONObject:
        return {
            "elapsed_s": round(self.elapsed_s, 3),
            "llm_calls": self.llm_calls,
            "usage": msgspec.to_builtins(self.usage),
            "dry_run": self.dry_run,
            "site_built": self.site_built,
            "checked": len(self.items),
            "refreshed": self.count("refreshed") + self.count("unverified") + self.count("partial"),
            "failed": self.count("failed"),
            "items": [item.to_json() for item in self.items],
        }


# --------------------------------------------------------------------------- what is stale


# an entry's id and how to check it: checks are run only for the entries of this run's shard, so a CI shard
# job reads the remote HEAD of its own repositories only
Check = tuple[str, Callable[[], RefreshItem]]


def find_stale(
    paths: KBPaths, config: Config, *, now: dt.datetime | None = None, shard: ShardSpec | None = None
) -> list[RefreshItem]:
    """Every repository and topic (of `shard`, when given), each marked stale or up to date (or failed when
    it could not be checked)."""
    moment = now or dt.datetime.now(dt.UTC)
    checks = [*_check_repos(paths, config), *_check_topics(paths, config, moment)]
    if shard is not None:
        assigned = assign_shards((i for i, _ in checks), shard.total, entry_weights(load_index(paths)))
        checks = [(i, check) for i, check in checks if assigned[i] == shard.index]
    return [check() for _, check in checks]


def _check_repos(paths: KBPaths, config: Config) -> Iterable[Check]:
    seen: set[str] = set()
    allow_private = config.repo.allow_private_hosts
    for entry in config.repos:
        try:
            source = parse_source(entry.source, paths.root)
        except DeepkbError as exc:  # failed before any check: its item is already decided
            entry_id, why = f"repo:{entry.source}", exc.line()
            yield entry_id, partial(RefreshItem, "repo", entry_id, entry.source, why, "failed", repo=entry)
            continue
        entry_id = f"repo:{source.owner}/{source.name}"
        if entry_id not in seen:
            seen.add(entry_id)
            yield entry_id, partial(_check_repo, paths, entry, source, entry_id, allow_private)
    yield from _check_repos_on_disk(paths, seen, allow_private)


def _check_repos_on_disk(paths: KBPaths, seen: set[str], allow_private: bool) -> Iterable[Check]:
    """Repositories researched outside deepkb.yml (e.g. `deepkb repo run URL`) are kept fresh too,
    when their remote can still be named: a URL in the entry record's `source`, or the cached clone's origin."""
    for page in sorted(paths.repos_dir.glob("*/*/index.md")) if paths.repos_dir.is_dir() else []:
        owner, name = page.parent.parent.name, page.parent.name
        entry_id = f"repo:{owner}/{name}"
        if entry_id in seen:
            continue
        seen.add(entry_id)
        record = load_entry(page.parent)
        candidates = [
            record.source if record else None,
            read_origin_url(paths.cache_dir / "clones" / owner / name),
        ]
        remote = next((c for c in candidates if isinstance(c, str) and _is_remote(c)), None)
        if remote is None:
            reason = "not in deepkb.yml and no remote URL known"
            yield entry_id, partial(RefreshItem, "repo", entry_id, f"{owner}/{name}", reason, "skipped")
            continue
        yield entry_id, partial(_check_remote_repo, paths, RepoEntry(source=remote), entry_id, allow_private)


def _check_remote_repo(paths: KBPaths, entry: RepoEntry, entry_id: str, allow_private: bool) -> RefreshItem:
    try:
        return _check_repo(paths, entry, parse_source(entry.source, paths.root), entry_id, allow_private)
    except DeepkbError as exc:
        return RefreshItem("repo", entry_id, entry.source, exc.line(), "failed", repo=entry)


def _is_remote(source: str) -> bool:
    # a bare `owner/name` label must never be read as a local path
    return source.startswith("https://") or re.match(r"^[\w.-]+@[\w.-]+:", source) is not None


def _check_repo(
    paths: KBPaths, entry: RepoEntry, source: RepoSource, entry_id: str, allow_private_hosts: bool
) -> RefreshItem:
    item = RefreshItem("repo", entry_id, entry.source, "", "up-to-date", repo=entry, source=source)
    folder = paths.repo_dir(source.owner, source.name)
    record = load_entry(folder) if (folder / "index.md").is_file() else None
    if record is None:
        item.reason, item.status = "never researched", "stale"
        return item
    known = record.revision
    try:
        head = remote_head(source, paths.cache_dir, allow_private_hosts=allow_private_hosts)
    except DeepkbError as exc:
        item.reason, item.status = f"could not read the remote HEAD: {exc.line()}", "failed"
        return item
    try:
        corrections = corrections_digest(entry, entry_notes(paths, entry))
    except DeepkbError:
        corrections = "unreadable"  # the run says what is wrong with the notes file
    if head and head != known:
        item.reason, item.status = f"remote HEAD moved {known[:10] or '(none)'} → {head[:10]}", "stale"
    elif corrections != record.corrections:
        item.reason, item.status = "the maintainer's settings in deepkb.yml changed", "stale"
    elif not head:
        item.reason = "not a git repository: nothing to compare"
    else:
        item.reason = f"HEAD {head[:10]} unchanged"
    return item


def _check_topics(paths: KBPaths, config: Config, now: dt.datetime) -> Iterable[Check]:
    seen: set[str] = set()
    listed = [(entry, True) for entry in config.topics]
    for entry, in_config in [*listed, *((entry, False) for entry in _topics_on_disk(paths))]:
        slug = topic_slug(entry.topic, entry.slug, paths)
        if slug in seen:
            continue
        seen.add(slug)
        refused = None if in_config else unsafe_source(paths, config, entry.sources)
        if refused is not None:
            why = f"refused: recorded source '{refused}' lies outside the knowledge base and deepkb.yml does not name it"
            yield f"topic:{slug}", partial(RefreshItem, "topic", f"topic:{slug}", entry.topic, why, "failed")
            continue
        yield f"topic:{slug}", partial(_check_topic, paths, entry, slug, now)


def unsafe_source(paths: KBPaths, config: Config, specs: Iterable[str]) -> str | None:
    """The first `local:` source of a record that reads outside the knowledge-base root, unless deepkb.yml
    names it: records are data, so a planted `_meta.json` cannot point research at any folder."""
    named = {" ".join(spec.split()) for topic in config.topics for spec in topic.sources}
    root = paths.root.resolve()
    for spec in specs:
        name, _, option = spec.partition(":")
        if name.strip() != "local" or " ".join(spec.split()) in named:
            continue
        folder = Path(option.strip()).expanduser()
        folder = (folder if folder.is_absolute() else root / folder).resolve()
        if not folder.is_relative_to(root):
            return spec
    return None


def _check_topic(paths: KBPaths, entry: TopicEntry, slug: str, now: dt.datetime) -> RefreshItem:
    item = RefreshItem("topic", f"topic:{slug}", entry.topic, "", "up-to-date", topic=entry)
    meta = readable_meta(paths, slug)
    updated = _parse_time(meta.updated_at) if meta else None
    if meta is None:
        item.reason, item.status = "never researched", "stale"
    elif meta.status in UNFINISHED:
        item.reason, item.status = f"last run ended {meta.status}", "stale"
    elif entry.refresh_days == 0:
        item.reason = "refresh_days is 0: never refreshed"
    elif updated is None:
        item.reason, item.status = "no usable updated_at in _meta.json", "stale"
    elif now - updated > dt.timedelta(days=entry.refresh_days):
        age = (now - updated).days
        item.reason, item.status = f"{age} days old (refresh_days {entry.refresh_days})", "stale"
    else:
        item.reason = f"researched {updated.date().isoformat()}, within {entry.refresh_days} days"
    return item


def _topics_on_disk(paths: KBPaths) -> Iterable[TopicEntry]:
    """Topics researched outside deepkb.yml refresh only when their _meta.json records refresh_days."""
    for meta_file in sorted(paths.topics_dir.glob("*/_meta.json")) if paths.topics_dir.is_dir() else []:
        meta = readable_meta(paths, meta_file.parent.name)
        stated, stated_options = _stated_keys(meta_file)  # a default filled in on reading is no record
        if meta is None or "refresh_days" not in stated or meta.refresh_days < 0 or not meta.topic.strip():
            continue
        names = ("sources", "lang", "verify", "parallel")
        known = {name: getattr(meta.options, name) for name in names if name in stated_options}
        try:
            yield TopicEntry(
                topic=meta.topic, slug=meta_file.parent.name, refresh_days=meta.refresh_days, **known
            )
        except ValueError:
            continue  # a hand-edited record we cannot trust; the topic is left alone


def _stated_keys(meta_file: Path) -> tuple[set[str], set[str]]:
    """The keys a `_meta.json` holds itself, at its top level and in its `options`."""
    try:
        data = read_json(meta_file)
    except StoreError:
        return set(), set()
    top = data if isinstance(data, dict) else {}
    options = top.get("options")
    return set(top), set(options) if isinstance(options, dict) else set()


# --------------------------------------------------------------------------- re-running what is stale


def run_refresh(
    paths: KBPaths,
    config: Config,
    provider_factory: Callable[[], Provider],
    *,
    dry_run: bool = False,
    site: bool = True,
    console: Console | None = None,
    now: dt.datetime | None = None,
    shard: ShardSpec | None = None,
) -> RefreshReport:
    """Check everything, re-research what is stale, then update the index and (optionally) the site.

    With `shard`, only the entries of that shard are refreshed and neither the index nor the site is
    rebuilt: `deepkb merge` does that once for all shards."""
    started = time.perf_counter()
    items = find_stale(paths, config, now=now, shard=shard)
    report = RefreshReport(items=items, dry_run=dry_run)
    stale = [item for item in report.items if item.status == "stale"]
    if stale and not dry_run:
        calls = OnDemand(provider_factory)  # opened only now: an up-to-date knowledge base calls no model
        outcomes = research_entries(
            paths,
            config,
            calls.open,
            [item.entry() for item in stale],
            console=console,
            batch=config.llm.batch,
        )
        for item, outcome in zip(stale, outcomes, strict=True):
            item.status = _STATUS[outcome.status]
            item.reason = outcome.line or item.reason
        report.llm_calls = calls.count()
        if calls.provider is not None:
            report.usage = cost_record(calls.provider.usage, config.llm, calls.provider.name)
        if shard is None and any(item.status in ("refreshed", "unverified", "partial") for item in stale):
            update_index(paths)
            if site:
                render_site(paths, config)
                build_site(paths, config)
            report.site_built = site
    report.elapsed_s = time.perf_counter() - started
    return report


_STATUS: dict[str, Status] = {
    "done": "refreshed",
    "unverified": "unverified",
    "partial": "partial",
    "failed": "failed",
}


# --------------------------------------------------------------------------- small readers


def _parse_time(value: str) -> dt.datetime | None:
    try:
        parsed = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)
