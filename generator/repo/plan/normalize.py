"""The seed's shard normalization, applied to every plan (LLM or heuristic) before any shard is analyzed.

Three rules, in this order: split oversized shards, cap the total number of files, merge runs of tiny shards.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.repo.model import MAX_FILES_PER_SHARD, MAX_TOTAL_FILES, Shard


def normalize_shards(shards: Sequence[Shard]) -> list[Shard]:
    """Apply the three seed rules: split → cap → merge."""
    return merge_small_shards(cap_total_files(split_large_shards(shards)))


def split_large_shards(shards: Sequence[Shard], limit: int = MAX_FILES_PER_SHARD) -> list[Shard]:
    """seed: split any shard with more than 5 files into parts named "Core (1)", "Core (2)", …"""
    result: list[Shard] = []
    for shard in shards:
        if len(shard.files) <= limit:
            result.append(shard)
            continue
        parts = [shard.files[i : i + limit] for i in range(0, len(shard.files), limit)]
        for number, files in enumerate(parts, 1):
            result.append(Shard(f"{shard.name} ({number})", tuple(files), shard.rationale))
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
            result.append(Shard(shard.name, tuple(files), shard.rationale))
    return result


def merge_small_shards(
    shards: Sequence[Shard], small: int = 2, limit: int = MAX_FILES_PER_SHARD
) -> list[Shard]:
    """seed: merge consecutive shards of ≤ 2 files into one shard of up to 5 files."""
    result: list[Shard] = []
    run: list[Shard] = []  # the consecutive small shards being merged

    def flush() -> None:
        if run:
            result.append(_merged(run))
            run.clear()

    for shard in shards:
        if len(shard.files) > small:
            flush()
            result.append(shard)
            continue
        if run and sum(len(s.files) for s in run) + len(shard.files) > limit:
            flush()
        run.append(shard)
    flush()
    return result


def _merged(run: Sequence[Shard]) -> Shard:
    if len(run) == 1:
        return run[0]
    files = tuple(f for shard in run for f in shard.files)
    rationale = " ".join(s.rationale for s in run if s.rationale)
    return Shard(" + ".join(s.name for s in run), files, rationale)
