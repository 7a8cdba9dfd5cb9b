"""The seed's normalization rules, one by one and together."""

from __future__ import annotations

from generator.repo.model import MAX_FILES_PER_SHARD, MAX_TOTAL_FILES, Shard
from generator.repo.plan.normalize import (
    cap_total_files,
    merge_small_shards,
    normalize_shards,
    split_large_shards,
)


def files(prefix: str, n: int) -> tuple[str, ...]:
    return tuple(f"{prefix}/f{i}.py" for i in range(n))


def test_split_names_parts_and_keeps_order():
    shards = split_large_shards([Shard("Core", files("core", 12), "why"), Shard("Web", files("web", 3))])
    assert [s.name for s in shards] == ["Core (1)", "Core (2)", "Core (3)", "Web"]
    assert [len(s.files) for s in shards] == [5, 5, 2, 3]
    assert shards[0].files + shards[1].files + shards[2].files == files("core", 12)
    assert shards[2].rationale == "why"


def test_split_leaves_a_shard_of_exactly_five_alone():
    shard = Shard("Core", files("core", MAX_FILES_PER_SHARD))
    assert split_large_shards([shard]) == [shard]


def test_cap_trims_from_the_end():
    shards = [Shard(f"S{i}", files(f"s{i}", 5)) for i in range(8)]  # 40 files
    capped = cap_total_files(shards)
    assert sum(len(s.files) for s in capped) == MAX_TOTAL_FILES
    assert [s.name for s in capped] == ["S0", "S1", "S2", "S3", "S4", "S5"]
    partial = cap_total_files([Shard("A", files("a", 5)), Shard("B", files("b", 5))], limit=7)
    assert partial == [Shard("A", files("a", 5)), Shard("B", files("b", 2))]


def test_merge_joins_consecutive_small_shards_up_to_five_files():
    shards = [
        Shard("A", files("a", 2)),
        Shard("B", files("b", 2)),
        Shard("C", files("c", 1)),
        Shard("D", files("d", 2)),  # would make 7: starts a new merged shard
        Shard("Big", files("big", 3)),
        Shard("E", files("e", 1)),
    ]
    merged = merge_small_shards(shards)
    assert [s.name for s in merged] == ["A, B and C", "D", "Big", "E"]
    assert merged[0].files == files("a", 2) + files("b", 2) + files("c", 1)


def test_merge_keeps_three_shards_when_there_were_three():
    # seed: 3–5 subsystems; merging the small ones must not leave fewer than three
    shards = [Shard("A", files("a", 2)), Shard("B", files("b", 2)), Shard("C", files("c", 2))]
    assert [s.name for s in merge_small_shards(shards)] == ["A", "B", "C"]
    four = [*shards, Shard("D", files("d", 1))]
    assert [s.name for s in merge_small_shards(four)] == ["A and B", "C", "D"]


def test_merge_does_not_join_across_a_large_shard():
    shards = [Shard("A", files("a", 1)), Shard("Big", files("big", 4)), Shard("B", files("b", 1))]
    assert [s.name for s in merge_small_shards(shards)] == ["A", "Big", "B"]


def test_rules_apply_in_order_split_cap_merge():
    shards = [
        Shard("Core", files("core", 27)),
        Shard("Util", files("util", 2)),
        Shard("Cli", files("cli", 2)),
    ]
    result = normalize_shards(shards)
    # 27 → 5+5+5+5+5+2; the cap keeps 30 files: the split's 2-file tail plus Util's 2 and Cli's first 1
    assert [s.name for s in result] == [
        "Core (1)",
        "Core (2)",
        "Core (3)",
        "Core (4)",
        "Core (5)",
        "Core (6), util and cli",
    ]
    assert sum(len(s.files) for s in result) == 30
    assert all(len(s.files) <= 5 for s in result)
