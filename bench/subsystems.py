"""Benchmark: are a repository's subsystems its concepts, described in words (issue 29, item 4)?

    python bench/subsystems.py CHECKOUT …                 score each checkout against its label
    python bench/subsystems.py --show CHECKOUT …          also print each group: name, files, description
    python bench/subsystems.py --labels FILE CHECKOUT …   other labels (default: subsystems_heldout_s16.json)

Labels (written before any run): per repository, its concepts (name, members: a folder ending in "/" or a
file) and what must never be a subsystem. A file belongs to the concept whose member matches it longest.
A group (a shard of the offline plan) matches a concept when more than half of its files belong to it.
Prints per repository: groups matching a labelled concept, distinct concepts met, concepts split over
several groups, non-concept groups (most files in a `never` folder, or no majority concept), and
descriptions that merely list names ("Defines X, Y and Z.").
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_quality import scratch_checkout  # noqa: E402

from generator.app.targets import repo_target  # noqa: E402
from generator.config import Config  # noqa: E402
from generator.llm import open_provider  # noqa: E402
from generator.repo.run.pipeline import run_repo_research  # noqa: E402
from generator.store import KBPaths  # noqa: E402

LABELS = Path(__file__).with_name("subsystems_heldout_s16.json")


@dataclass(frozen=True)
class Group:
    name: str
    files: tuple[str, ...]
    summary: str


def research(source: Path) -> list[Group]:
    """The subsystems of `source`'s offline research: each shard's name, files and one-line summary."""
    with tempfile.TemporaryDirectory(prefix="deepkb-subsystems-") as scratch:
        checkout = scratch_checkout(source, Path(scratch))
        paths = KBPaths(Path(scratch) / "kb")
        config = Config()
        provider, _ = open_provider(paths, config.llm, "offline")
        result = run_repo_research(paths, config, provider, repo_target(paths, config, str(checkout)))
        return [Group(a.shard.name, tuple(a.shard.files), a.summary) for a in result.synthesis.analyses]


def owner(path: str, members: dict[str, str]) -> str:
    """The key of the longest member matching `path` ('' for none): a folder ("x/") or the file itself."""
    matching = [m for m in members if path == m or (m.endswith("/") and path.startswith(m))]
    return members[max(matching, key=len)] if matching else ""


def scored(label: dict, groups: list[Group]) -> tuple[dict[str, int], list[str]]:
    members = {m: c["name"] for c in label["concepts"] for m in c["members"]}
    never = {m: "never" for m in label.get("never", [])}
    figures: Counter[str] = Counter()
    lines: list[str] = []
    met: Counter[str] = Counter()
    for group in groups:
        owners = Counter(owner(p, {**members, **never}) for p in group.files)
        best, count = owners.most_common(1)[0] if owners else ("", 0)
        majority = count * 2 > len(group.files)
        figures["groups"] += 1
        if majority and best and best != "never":
            figures["concept groups"] += 1
            met[best] += 1
            verdict = f"= {best}"
        else:
            figures["non-concept groups"] += 1
            verdict = "NEVER" if majority and best == "never" else "no concept"
        if group.summary.startswith("Defines "):
            figures["'Defines' descriptions"] += 1
        lines.append(f"    [{verdict}] {group.name}: {', '.join(group.files)}")
        lines.append(f"        {group.summary}")
    figures["concepts met"] = len(met)
    figures["concepts labelled"] = len(label["concepts"])
    figures["concepts split"] = sum(1 for n in met.values() if n > 1)
    return dict(figures), lines


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+", type=Path, help="checkouts")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--show", action="store_true", help="print each group")
    args = parser.parse_args()
    labels = json.loads(args.labels.read_text(encoding="utf-8"))["repositories"]
    by_name = {key: r for r in labels for key in (r["name"], r["mirror"].partition("+")[2])}
    total: Counter[str] = Counter()
    for path in args.paths:
        groups = research(path)
        label = by_name.get(path.name)
        if label is None:
            print(f"{path.name}: no label")
            for group in groups:
                print(f"    {group.name}: {', '.join(group.files)}\n        {group.summary}")
            continue
        figures, lines = scored(label, groups)
        total.update(figures)
        print(f"{path.name}: " + "; ".join(f"{k} {v}" for k, v in figures.items()))
        if args.show:
            print("\n".join(lines))
    if total:
        print("all: " + "; ".join(f"{k} {v}" for k, v in total.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
