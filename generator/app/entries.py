"""The entries of a knowledge base (repositories and topics) by id, and their split into shards I of N.

Every CI job computes the same split from the same checkout: longest-processing-time greedy on each entry's
last measured tokens (the mean for one never measured), ties broken by a hash of the id, not by file order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from generator.repo.checkout.clone import parse_source

from ..config import Config, RepoEntry, TopicEntry
from ..errors import DeepkbError, UsageError
from ..repo.model import RepoSource
from ..store import KBPaths
from ..topic.identity import topic_slug

Kind = Literal["repo", "topic"]
_SHARD = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*$")


@dataclass(frozen=True)
class Entry:
    """One unit of research: a repository or a topic, with what deepkb.yml (or its record) says about it."""

    kind: Kind
    id: str
    name: str
    repo: RepoEntry | None = field(default=None, repr=False, compare=False)
    topic: TopicEntry | None = field(default=None, repr=False, compare=False)
    source: RepoSource | None = field(default=None, repr=False, compare=False)
    """The repository's source as parsed for its id (None for a topic, or a source that does not parse)."""


def config_entries(paths: KBPaths, config: Config) -> list[Entry]:
    """Every repository and topic of deepkb.yml, once each (the first of two that name the same entry)."""
    found: dict[str, Entry] = {}
    for entry in [
        *(repo_entry(paths, r) for r in config.repos),
        *(topic_entry(paths, t) for t in config.topics),
    ]:
        found.setdefault(entry.id, entry)
    return list(found.values())


def repo_entry(paths: KBPaths, repo: RepoEntry) -> Entry:
    """`repo:<owner>/<name>`, parsed without any git process; a source that cannot be parsed keeps its text
    as id, and the research loop reports it as that entry's one failure."""
    try:
        source = parse_source(repo.source, paths.root)
    except DeepkbError:
        return Entry("repo", f"repo:{repo.source}", repo.source, repo=repo)
    return Entry("repo", f"repo:{source.owner}/{source.name}", repo.source, repo=repo, source=source)


def topic_entry(paths: KBPaths, topic: TopicEntry) -> Entry:
    """`topic:<slug>`, the workspace the topic pipeline will use (an existing one is found again)."""
    return Entry("topic", f"topic:{topic_slug(topic.topic, topic.slug, paths)}", topic.topic, topic=topic)


# --------------------------------------------------------------------------- shards


@dataclass(frozen=True)
class ShardSpec:
    """Shard `index` (1-based) of `total`."""

    index: int
    total: int

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"


def parse_shard(text: str) -> ShardSpec:
    match = _SHARD.match(text)
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise UsageError(f"--shard {text!r} is not I/N with 1 ≤ I ≤ N", hint="e.g. --shard 2/3")
    return ShardSpec(int(match[1]), int(match[2]))


def entry_weights(index: Mapping[str, Any]) -> dict[str, float]:
    """id → the tokens its last measured run used (input, cached and output), from `_index.json`."""
    weights: dict[str, float] = {}
    for entry_id, entry in (index.get("topics") or {}).items():
        cost = entry.get("cost") if isinstance(entry, dict) else None
        if isinstance(cost, dict):
            keys = ("input_tokens", "cache_read_tokens", "cache_write_tokens", "output_tokens")
            tokens = sum(v for k in keys if isinstance(v := cost.get(k), int | float) and v > 0)
            if tokens > 0:
                weights[str(entry_id)] = float(tokens)
    return weights


def assign_shards(ids: Iterable[str], total: int, weights: Mapping[str, float]) -> dict[str, int]:
    """id → shard (1-based): heaviest first onto the lightest shard, ties by id hash and lowest shard."""
    unique = list(dict.fromkeys(ids))
    known = [weights[i] for i in unique if weights.get(i, 0) > 0]
    default = sum(known) / len(known) if known else 1.0
    weight = {i: weights.get(i, 0) or default for i in unique}
    loads = [0.0] * total
    assigned: dict[str, int] = {}
    for entry_id in sorted(unique, key=lambda i: (-weight[i], hashlib.sha256(i.encode()).hexdigest())):
        shard = min(range(total), key=lambda k: (loads[k], k))
        loads[shard] += weight[entry_id]
        assigned[entry_id] = shard + 1
    return assigned


def select_shard(entries: Sequence[Entry], spec: ShardSpec, weights: Mapping[str, float]) -> list[Entry]:
    """The entries of shard `spec`, in their original order."""
    assigned = assign_shards((e.id for e in entries), spec.total, weights)
    return [e for e in entries if assigned[e.id] == spec.index]
