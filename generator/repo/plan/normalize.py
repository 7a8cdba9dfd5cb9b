"""The seed's shard normalization, applied to every plan (LLM or heuristic) before any shard is analyzed.

Three rules, in this order: split oversized shards, cap the total number of files, merge runs of tiny shards.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from generator.repo.model import MAX_FILES_PER_SHARD, MAX_TOTAL_FILES, MIN_SHARDS, Shard

PartNamer = Callable[[str, Sequence[str]], str]  # (shard name, a part's files) → the part's name


def normalize_shards(shards: Sequence[Shard], name_part: PartNamer | None = None) -> list[Shard]:
    """Apply the three seed rules: split → cap → merge."""
    return merge_small_shards(cap_total_files(split_large_shards(shards, name_part=name_part)))


def split_large_shards(
    shards: Sequence[Shard], limit: int = MAX_FILES_PER_SHARD, name_part: PartNamer | None = None
) -> list[Shard]:
    """seed: split any shard with more than 5 files into parts; each part is named by `name_part` (after
    what its files do), else numbered "Core (1)", "Core (2)", …"""
    result: list[Shard] = []
    for shard in shards:
        if len(shard.files) <= limit:
            result.append(shard)
            continue
        parts = [shard.files[i : i + limit] for i in range(0, len(shard.files), limit)]
        names = [name_part(shard.name, files) if name_part else "" for files in parts]
        if len(set(names)) < len(names) or not all(names):
            names = [f"{shard.name} ({number})" for number in range(1, len(parts) + 1)]
        for name, files in zip(names, parts, strict=True):
            result.append(Shard(name, tuple(files), shard.rationale, shard.pinned))
    return result


def cap_total_files(shards: Sequence[Shard], limit: int = MAX_TOTAL_FILES) -> list[Shard]:
    """seed: at most 30 files in total, trimming from the end (later shards lose files first)."""
    result: list[Shard] = []
    budget = limit
    for shard in shards:
        if budget <= 0:
            break
        files = shard.files[:budget]
        budget -= len(files)
        if files:
            result.append(Shard(shard.name, tuple(files), shard.rationale, shard.pinned))
    return result


def merge_small_shards(
    shards: Sequence[Shard], small: int = 2, limit: int = MAX_FILES_PER_SHARD, least: int = MIN_SHARDS
) -> list[Shard]:
    """seed: merge consecutive shards of ≤ 2 files into one shard of up to 5 files, named after all of them,
    while at least `least` shards remain (the seed's 3–5 subsystems outrank its merge rule). A maintainer's
    pinned shard is never merged."""
    result: list[Shard] = []
    run: list[Shard] = []  # the consecutive small shards being merged
    count = len(shards)  # how many shards there will be after the merges so far

    def flush() -> None:
        if run:
            result.append(_merged(run))
            run.clear()

    for shard in shards:
        if len(shard.files) > small or shard.pinned:
            flush()
            result.append(shard)
            continue
        if run and (sum(len(s.files) for s in run) + len(shard.files) > limit or count <= least):
            flush()
        elif run:
            count -= 1
        run.append(shard)
    flush()
    return result


def _merged(run: Sequence[Shard]) -> Shard:
    if len(run) == 1:
        return run[0]
    files = tuple(f for shard in run for f in shard.files)
    rationale = " ".join(dict.fromkeys(s.rationale for s in run if s.rationale))
    return Shard(merged_name([s.name for s in run]), files, rationale)


def merged_name(names: Sequence[str]) -> str:
    """One name from the names of merged shards: "Certs" + "Cookies and types" → "Certs, cookies and types"."""
    parts: list[str] = []
    for name in names:
        for part in re.split(r", | and ", name):
            if part and part.lower() not in (p.lower() for p in parts):
                parts.append(part)
    parts = [parts[0]] + [p[:1].lower() + p[1:] if not p[:2].isupper() else p for p in parts[1:]]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
