"""Benchmark: where each repository's main flow starts and what it reaches, as the offline pages draw it.

    python bench/flow_starts.py PATH [PATH …]

For each repository (a local checkout or unpacked source): the first flow (its hops), whether it starts
at a name the usage examples call (README, docs getting-started pages, Go example tests) or at a runtime
callback (`__call__`, `ServeHTTP`), how many distinct modules it passes through, and how many of the five
largest source modules it reaches. A markdown table, then the totals.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.repo.facts.calltree import main_line
from generator.repo.facts.examples import example_calls, example_code
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.flows import RUNTIME_CALLBACKS
from generator.repo.facts.languages import SUPPORTED
from generator.repo.map.walk import map_repository
from generator.repo.plan.subsystems import core_modules

LARGEST = 5


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args()
    print("| repository | first flow | starts where the examples enter | modules passed | largest reached |")
    print("|---|---|---|---|---|")
    starts = reached = 0
    for path in args.paths:
        row = measure(path)
        starts += row[2] == "yes"
        reached += int(row[4].split(" ")[0])
        print("| " + " | ".join(row) + " |")
    print(
        f"\n{starts} of {len(args.paths)} flows start where the examples enter; {reached} largest modules reached"
    )
    return 0


def measure(root: Path) -> list[str]:
    repo_map = map_repository(root, keep_languages=SUPPORTED, keep_bytes=64_000_000)
    facts = extract_facts(root, repo_map)
    modules = core_modules(repo_map)
    chain = main_line(facts.calls.tree(modules)) if facts.calls is not None else []
    names = [chain[0].caller, *(e.callee for e in chain)] if chain else []
    files = [chain[0].caller_path, *(e.callee_path for e in chain)] if chain else []
    lines = {e.path: e.lines for e in repo_map.files}
    largest = sorted((p for p in modules if p in facts.files), key=lambda p: (-lines.get(p, 0), p))[:LARGEST]
    examples = example_calls(example_code(root, repo_map))
    short = names[0].rsplit(".", 1)[-1] if names else ""
    entered = bool(short) and (short in examples or short in RUNTIME_CALLBACKS)
    return [
        root.name,
        " → ".join(names) or "(none)",
        "yes" if entered else "no",
        str(len(set(files))),
        f"{len(set(files) & set(largest))} of {len(largest)}",
    ]


if __name__ == "__main__":
    sys.exit(main())
