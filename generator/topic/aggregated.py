"""The record of `processed/aggregated.json`: the sources grouped into clusters, their entities and key phrases.

It sits below both the stage that makes it (aggregate.py) and the workspace that stores it (workspace.py).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec


class Cluster(msgspec.Struct, frozen=True):
    """Sources about one theme; `confidence` is how much they share (0–1)."""

    id: str
    label: str
    items: list[str]
    confidence: float


class Entity(msgspec.Struct, frozen=True):
    name: str
    type: str
    mentions: int


class SourceItem(msgspec.Struct, frozen=True):
    id: str
    title: str
    source: str
    url: str


class Aggregation(msgspec.Struct, frozen=True, kw_only=True):
    """`processed/aggregated.json`: the sources grouped into clusters, their entities and key phrases.

    A record written before records carried a version has this shape, so a missing version reads as 1."""

    VERSION: ClassVar[int] = 1  # bump when the shape changes: a stored record of another version is refused
    version: int = VERSION
    generated: str
    method: Literal["llm", "lexical", "raw"]
    note: str = ""
    degraded: bool = False
    keyphrases: list[str] = msgspec.field(default_factory=list)
    items: list[SourceItem] = msgspec.field(default_factory=list)
    clusters: list[Cluster] = msgspec.field(default_factory=list)
    entities: list[Entity] = msgspec.field(default_factory=list)
