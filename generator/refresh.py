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
from pathlib import Path
from typing import Any, Literal

from rich.console import Console

from .config import Config, RepoEntry, TopicEntry
from .errors import DeepkbError, PartialFailure, StoreError
from .llm import Provider
from .store import KBPaths, read_json, read_page

Status = Literal["up-to-date", "stale", "refreshed", "partial", "failed", "skipped"]
# seed: a topic whose last run did not finish is picked up again by the next refresh
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

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k not in ("repo", "topic")}


@dataclass
class RefreshReport:
    items: list[RefreshItem]
    elapsed_s: float = 0.0
    llm_calls: int = 0
    dry_run: bool = False
    site_built: bool = False

    def count(self, status: Status) -> int:
        return sum(1 for item in self.items if item.status == status)

    def to_json(self) -> dict[str, Any]:
        return {
            "elapsed_s": round(self.elapsed_s, 3),
            "llm_calls": self.llm_calls,
            "dry_run": self.dry_run,
            "site_built": self.site_built,
            "checked": len(self.items),
            "refreshed": self.count("refreshed") + self.count("partial"),
            "failed": self.count("failed"),
            "items": [item.to_json() for item in self.items],
        }


# --------------------------------------------------------------------------- what is stale


def find_stale(paths: KBPaths, config: Config, *, now: dt.datetime | None = None) -> list[RefreshItem]:
    """Every repository and topic, each marked stale or up to date (or failed when it could not be checked)."""
    now = now or dt.datetime.now(dt.UTC)
    return [*_check_repos(paths, config), *_check_topics(paths, config, now)]


def _check_repos(paths: KBPaths, config: Config) -> Iterable[RefreshItem]:
    from generator.repo.checkout.clone import parse_source

    seen: set[str] = set()
    for entry in config.repos:
        try:
            source = parse_source(entry.source, paths.root)
        except DeepkbError as exc:
            yield RefreshItem("repo", f"repo:{entry.source}", entry.source, exc.line(), "failed", repo=entry)
            continue
        entry_id = f"repo:{source.owner}/{source.name}"
        if entry_id not in seen:
            seen.add(entry_id)
            yield _check_repo(paths, entry, source, entry_id)
    yield from _check_repos_on_disk(paths, seen)


def _check_repos_on_disk(paths: KBPaths, seen: set[str]) -> Iterable[RefreshItem]:
    """Repositories researched outside deepkb.yml (e.g. `deepkb repo run URL`) are kept fresh too,
    when their remote can still be named: a URL in the page's `source`, or the cached clone's origin."""
    from generator.repo.checkout.clone import parse_source, read_origin_url

    for page in sorted(paths.repos_dir.glob("*/*/index.md")) if paths.repos_dir.is_dir() else []:
        owner, name = page.parent.parent.name, page.parent.name
        entry_id = f"repo:{owner}/{name}"
        if entry_id in seen:
            continue
        seen.add(entry_id)
        candidates = [
            _frontmatter(page).get("source"),
            read_origin_url(paths.cache_dir / "clones" / owner / name),
        ]
        remote = next((c for c in candidates if isinstance(c, str) and _is_remote(c)), None)
        if remote is None:
            yield RefreshItem(
                "repo", entry_id, f"{owner}/{name}", "not in deepkb.yml and no remote URL known", "skipped"
            )
            continue
        entry = RepoEntry(source=remote)
        try:
            yield _check_repo(paths, entry, parse_source(remote, paths.root), entry_id)
        except DeepkbError as exc:
            yield RefreshItem("repo", entry_id, remote, exc.line(), "failed", repo=entry)


def _is_remote(source: str) -> bool:
    # a bare `owner/name` label must never be read as a local path
    return source.startswith("https://") or re.match(r"^[\w.-]+@[\w.-]+:", source) is not None


def _check_repo(paths: KBPaths, entry: RepoEntry, source: Any, entry_id: str) -> RefreshItem:
    from generator.repo.checkout.clone import remote_head

    item = RefreshItem("repo", entry_id, entry.source, "", "up-to-date", repo=entry)
    page = paths.repo_dir(source.owner, source.name) / "index.md"
    if not page.is_file():
        item.reason, item.status = "never researched", "stale"
        return item
    known = str(_frontmatter(page).get("revision") or "")
    try:
        head = remote_head(source, paths.cache_dir)
    except DeepkbError as exc:
        item.reason, item.status = f"could not read the remote HEAD: {exc.line()}", "failed"
        return item
    if not head:
        item.reason = "not a git repository: nothing to compare"
    elif head != known:
        item.reason, item.status = f"remote HEAD moved {known[:10] or '(none)'} → {head[:10]}", "stale"
    else:
        item.reason = f"HEAD {head[:10]} unchanged"
    return item


def _check_topics(paths: KBPaths, config: Config, now: dt.datetime) -> Iterable[RefreshItem]:
    from .topic.identity import topic_slug

    seen: set[str] = set()
    for entry in [*config.topics, *_topics_on_disk(paths, config)]:
        slug = topic_slug(entry.topic, entry.slug)
        if slug not in seen:
            seen.add(slug)
            yield _check_topic(paths, entry, slug, now)


def _check_topic(paths: KBPaths, entry: TopicEntry, slug: str, now: dt.datetime) -> RefreshItem:
    item = RefreshItem("topic", f"topic:{slug}", entry.topic, "", "up-to-date", topic=entry)
    meta = _meta(paths.topic_dir(slug) / "_meta.json")
    updated = _parse_time(meta.get("updated_at"))
    if not meta:
        item.reason, item.status = "never researched", "stale"
    elif meta.get("status") in UNFINISHED:
        item.reason, item.status = f"last run ended {meta.get('status')}", "stale"
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


def _topics_on_disk(paths: KBPaths, config: Config) -> Iterable[TopicEntry]:
    """Topics researched outside deepkb.yml refresh only when their _meta.json records refresh_days."""
    for meta_file in sorted(paths.topics_dir.glob("*/_meta.json")) if paths.topics_dir.is_dir() else []:
        meta = _meta(meta_file)
        topic, days = meta.get("topic"), meta.get("refresh_days")
        if isinstance(topic, str) and topic.strip() and isinstance(days, int) and days >= 0:
            raw_options = meta.get("options")
            options: dict[str, Any] = raw_options if isinstance(raw_options, dict) else {}
            known = {k: options[k] for k in ("sources", "lang", "verify", "parallel") if k in options}
            try:
                yield TopicEntry(topic=topic, slug=meta_file.parent.name, refresh_days=days, **known)
            except ValueError:
                continue  # a hand-edited record we cannot trust; the topic is left alone


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
) -> RefreshReport:
    """Check everything, re-research what is stale, then update the index and (optionally) the site."""
    started = time.perf_counter()
    report = RefreshReport(items=find_stale(paths, config, now=now), dry_run=dry_run)
    stale = [item for item in report.items if item.status == "stale"]
    provider: Provider | None = None
    if stale and not dry_run:
        provider = provider_factory()  # opened only now: an up-to-date knowledge base never touches a model
        for item in stale:
            _research(paths, config, provider, item, console)
        if any(item.status in ("refreshed", "partial") for item in stale):
            _publish_locally(paths, config, site)
            report.site_built = site
    report.llm_calls = provider.usage.calls if provider is not None else 0
    report.elapsed_s = time.perf_counter() - started
    return report


def _research(
    paths: KBPaths, config: Config, provider: Provider, item: RefreshItem, console: Console | None
) -> None:
    if console is not None:
        console.rule(f"refresh {item.id}: {item.reason}")
    try:
        if item.repo is not None:
            from generator.repo.run.pipeline import run_repo_research

            run_repo_research(
                paths, config, provider, item.repo.source, request=item.repo.request, console=console
            )
        elif item.topic is not None:
            from .site.pages.topic import publish_topic
            from .topic.pipeline import run_topic_research

            run_topic_research(paths, config, provider, item.topic, console=console, publish=publish_topic)
        item.status = "refreshed"
    except PartialFailure as exc:
        item.status, item.reason = "partial", exc.line()
    except DeepkbError as exc:
        item.status, item.reason = "failed", exc.line()


def _publish_locally(paths: KBPaths, config: Config, site: bool) -> None:
    from .kb.index import update_index

    update_index(paths)
    if site:
        from .site.build import build_site
        from .site.render import render_site

        render_site(paths, config)
        build_site(paths, config)


# --------------------------------------------------------------------------- small readers


def _frontmatter(page: Path) -> dict[str, Any]:
    try:
        return read_page(page)[0]
    except StoreError:
        return {}


def _meta(path: Path) -> dict[str, Any]:
    try:
        data = read_json(path, default={})
    except StoreError:
        return {}
    return data if isinstance(data, dict) else {}


def _parse_time(value: Any) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)
