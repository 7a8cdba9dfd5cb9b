"""Benchmark: whether each repository's main flow starts where a typical call enters and reaches the symbols
that call passes through (issue 29 item 3), from the facts alone — the call tree the index page draws,
without researching and rendering the pages (bench/page_quality.py does that, with the same measure).

    python bench/flow_reach.py                       (the labelled sets below, from their clones)
    python bench/flow_reach.py --labels FILE PATH …  (some checkouts against one labels file)
    python bench/flow_reach.py --prefixed …          (names match with or without a module prefix;
                                                      bench/flows_heldout_s17.json is scored so)
    python bench/flow_reach.py --tree …              (also print each call tree)
    python bench/flow_reach.py --subsystems …        (also print the offline subsystems, scored against a
                                                      label's concepts when it has them)

Labels: bench/flows_heldout_s29.json (session 29: ssh and hypercorn held out, in /tmp/flows29/held, not
measured here; the six tuning repositories' clones in /tmp/flows29/repos), bench/flows_heldout_s28.json (session 28: freecache and aiosmtpd held out, in /tmp/flows28/held, not
measured here; the six tuning repositories' clones in /tmp/flows28/repos), bench/flows_heldout_s27.json (session 27: go-cache and node-resque held out, in /tmp/flows27/held, not
measured here; the six tuning repositories' clones in /tmp/flows27/repos), bench/flows_heldout_s26.json (session 26: requests-mock and filelock held out, in /tmp/flows26/held, not
measured here; the six tuning repositories' clones in /tmp/flows26/repos), bench/flows_heldout_s25.json (session 25: rpyc and nsqjs held out, in /tmp/flows25/held, not
measured here; the six tuning repositories' clones in /tmp/flows25/repos), bench/flows_heldout_s24.json (session 24: rust-memcache and pynsq held out, in /tmp/flows24/held, not
measured here; the six tuning repositories' clones in /tmp/flows24/repos), and every other flows_*.json, seen —
bench/flows_heldout_s23.json (session 23: kazoo and memjs held out then, clones in /tmp/flows23/held; the six
tuning repositories' in /tmp/flows23/repos),
bench/flows_heldout_s22.json (session 22: needle and gomemcache held out
then, six tuning repositories; clones in /tmp/flows22/repos, names matched with or without a module prefix),
bench/flows_heldout_s21.json (session 21: stompjs and go-stomp held out
then, six tuning repositories; clones in /tmp/flows21/repos, names matched with or without a module prefix),
bench/flows_heldout_s20.json (session 20's held out: paho.mqtt.golang, MQTT.js, python-socketio, clones in
/tmp/flows/repos), bench/flows_tuning_s20.json (session 20's tuning set, clones in /tmp/flows/repos),
bench/flows_heldout_s19.json (clones in /tmp/fl19), bench/flows_heldout_s18.json (clones in /tmp/rt18), bench/flows_heldout_s17.json (held out in session 17, clones in
/tmp/flows17, names matched with or without a module prefix), bench/flows_heldout_s15.json (clones in
/tmp/flows15) and the earlier ones —, bench/flows_tuning_s12.json and the flow part of
bench/repo_expectations.json (tuning). A row: the start (✓ when it is a labelled entry),
the traced symbols the main line or the tree reaches (n/m), the main line. The totals print per set.
Subsystems: a labelled concept is named when a subsystem's name holds one of its words, and a subsystem is
on a concept when its name holds a word of any concept (bench/flows_heldout_s13.json).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from generator.repo.facts.calltree import main_line
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.languages import SUPPORTED
from generator.repo.map.walk import map_repository
from generator.repo.model import CallTree
from generator.repo.plan.architect import heuristic_plan
from generator.repo.plan.naming import part_namer
from generator.repo.plan.normalize import normalize_shards
from generator.repo.plan.subsystems import core_modules

BENCH = Path(__file__).resolve().parent
SETS = {
    "tuning (s29)": (BENCH / "flows_heldout_s29.json", Path("/tmp/flows29/repos")),
    "tuning (s28)": (BENCH / "flows_heldout_s28.json", Path("/tmp/flows28/repos")),
    "tuning (s27)": (BENCH / "flows_heldout_s27.json", Path("/tmp/flows27/repos")),
    "tuning (s26)": (BENCH / "flows_heldout_s26.json", Path("/tmp/flows26/repos")),
    "tuning (s25)": (BENCH / "flows_heldout_s25.json", Path("/tmp/flows25/repos")),
    "tuning (s24)": (BENCH / "flows_heldout_s24.json", Path("/tmp/flows24/repos")),
    "tuning (s23)": (BENCH / "flows_heldout_s23.json", Path("/tmp/flows23/repos")),
    "seen (held out in s23)": (BENCH / "flows_heldout_s23.json", Path("/tmp/flows23/held")),
    "seen (s22)": (BENCH / "flows_heldout_s22.json", Path("/tmp/flows22/repos")),
    "seen (s21)": (BENCH / "flows_heldout_s21.json", Path("/tmp/flows21/repos")),
    "seen (held out in s20)": (BENCH / "flows_heldout_s20.json", Path("/tmp/flows/repos")),
    "tuning (s20)": (BENCH / "flows_tuning_s20.json", Path("/tmp/flows/repos")),
    "seen (held out in s19)": (BENCH / "flows_heldout_s19.json", Path("/tmp/fl19")),
    "seen (held out in s18)": (BENCH / "flows_heldout_s18.json", Path("/tmp/rt18")),
    "seen (held out in s17)": (BENCH / "flows_heldout_s17.json", Path("/tmp/flows17")),
    "seen (held out in s15)": (BENCH / "flows_heldout_s15.json", Path("/tmp/flows15")),
    "seen (held out in s14)": (BENCH / "flows_heldout_s14.json", Path("/tmp/flows14")),
    "seen (lead's s14)": (BENCH / "flows_heldout_lead_s14.json", Path("/tmp/lead14")),
    "seen (held out in s13)": (BENCH / "flows_heldout_s13.json", Path("/tmp/flows13")),
    "seen (lead's s13)": (BENCH / "flows_heldout_lead_s13.json", Path("/tmp/lead13")),
    "seen (held out in s12)": (BENCH / "flows_heldout_s12.json", Path("/tmp/flows")),
    "seen (lead's s12 four)": (BENCH / "flows_seen_lead_s12.json", Path("/tmp/lead12")),
    "tuning": (BENCH / "flows_tuning_s12.json", None),
    "tuning (expectations)": (BENCH / "repo_expectations.json", Path("/tmp/flows_repos")),
}
TUNING_CLONES = (Path("/tmp/held"), Path("/tmp/bench"), Path("/tmp/flows"))
# sets labelled with names matched with or without a module prefix
PREFIXED = {
    "tuning (s29)",
    "tuning (s28)",
    "tuning (s27)",
    "tuning (s26)",
    "tuning (s25)",
    "tuning (s24)",
    "tuning (s23)",
    "seen (held out in s23)",
    "seen (s22)",
    "seen (s21)",
    "seen (held out in s20)",
    "tuning (s20)",
    "seen (held out in s19)",
    "seen (held out in s18)",
    "seen (held out in s17)",
}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--labels", type=Path)
    parser.add_argument("--tree", action="store_true", help="print each call tree")
    parser.add_argument("--subsystems", action="store_true", help="print the offline subsystems")
    parser.add_argument(
        "--prefixed",
        action="store_true",
        help="a flow's name matches a label's with or without a module/namespace prefix",
    )
    args = parser.parse_args()
    if args.labels:
        runs = {args.labels.stem: (_labels(args.labels), args.paths)}
    else:
        runs = {name: (_labels(file), _clones(file, root)) for name, (file, root) in SETS.items()}
    for name, (labels, paths) in runs.items():
        print(f"## {name}")
        reached = wanted = started = named = concepts = on_concept = planned = 0
        for path in paths:
            label = labels.get(path.name)
            if label is None:
                continue
            prefixed = args.prefixed or name in PREFIXED
            row = measure(path, label, show_tree=args.tree, same=_prefixed if prefixed else None)
            reached, wanted, started = reached + row[0], wanted + row[1], started + row[2]
            if args.subsystems:
                found = measure_subsystems(path, label)
                named, concepts = named + found[0], concepts + found[1]
                on_concept, planned = on_concept + found[2], planned + found[3]
        print(f"   {name}: traced symbols reached {reached}/{wanted}; starts at a labelled entry {started}")
        if concepts:
            print(
                f"   {name}: concepts named {named}/{concepts}; subsystems on a concept {on_concept}/{planned}"
            )
    return 0


def _labels(path: Path) -> dict[str, dict]:
    return {
        name: label
        for name, label in json.loads(path.read_text(encoding="utf-8"))["repos"].items()
        if "trace" in label
    }


def _clones(labels_file: Path, root: Path | None) -> list[Path]:
    roots = [root] if root is not None else list(TUNING_CLONES)
    names = _labels(labels_file)
    found = [r / name for name in names for r in roots if (r / name).is_dir()]
    return [path for path in found if path.name != "koa-3.2.0"]


def measure(
    root: Path, label: dict, *, show_tree: bool = False, same: Callable[[str, str], bool] | None = None
) -> tuple[int, int, int]:
    """(traced symbols reached, traced symbols, 1 when the flow starts at a labelled entry); `same` compares
    a label's name with a flow's (`_same` unless given)."""
    same = same or _same
    repo_map = map_repository(root, keep_languages=SUPPORTED, keep_bytes=64_000_000)
    facts = extract_facts(root, repo_map)
    graph = facts.calls
    tree = graph.tree(core_modules(repo_map)) if graph is not None else []
    line = main_line(tree)
    names = [line[0].caller, *(edge.callee for edge in line)] if line else []
    everything = names[:1] + _tree_names(tree)
    trace = label["trace"]
    reached = [name for name in trace if any(same(name, seen) for seen in everything)]
    started = bool(names) and any(same(name, names[0]) for name in label["entry"])
    print(
        f"{root.name[:18]:<18} start {'✓' if started else '✗'}  reached {len(reached)}/{len(trace)}"
        f"  missed: {', '.join(n for n in trace if n not in reached) or '-'}"
    )
    print(f"{'':<18} {' → '.join(names) or '(none)'}")
    if show_tree:
        _print_tree(tree, "    ")
    return len(reached), len(trace), int(started)


def measure_subsystems(root: Path, label: dict) -> tuple[int, int, int, int]:
    """The offline plan's subsystem names (as the pipeline normalizes them), and how many of the label's
    concepts they name: (concepts named, concepts, subsystems on a concept, subsystems)."""
    repo_map = map_repository(root, keep_languages=SUPPORTED, keep_bytes=64_000_000)
    facts = extract_facts(root, repo_map)
    plan = heuristic_plan(repo_map, facts, note="")
    shards = normalize_shards(plan.shards, name_part=part_namer(facts))
    names = [shard.name for shard in shards]
    wanted = [_concept_words(concept) for concept in label.get("concepts", [])]
    named = sum(1 for words in wanted if any(_names_concept(n, words) for n in names))
    on = sum(1 for n in names if any(_names_concept(n, words) for words in wanted))
    print(f"{'':<18} subsystems: {' | '.join(f'{s.name} ({len(s.files)})' for s in shards)}")
    if wanted:
        print(f"{'':<18} concepts named {named}/{len(wanted)}; subsystems on a concept {on}/{len(names)}")
    return named, len(wanted), on if wanted else 0, len(names) if wanted else 0


def _concept_words(concept: list[str] | str) -> list[str]:
    """A concept label's words: a list as given, or a phrase's words of four letters or more before any
    parenthesis ("Logger (add/remove/opt/bind)" → logger)."""
    if isinstance(concept, list):
        return [word.lower() for word in concept]
    head = concept.split("(", 1)[0].lower()
    return [
        word for word in re.findall(r"[a-z]+", head) if len(word) >= 4 and word not in {"and", "with", "from"}
    ]


def _names_concept(name: str, words: list[str]) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in words)


def _tree_names(tree: list[CallTree]) -> list[str]:
    return [name for branch in tree for name in [branch.edge.callee, *_tree_names(list(branch.below))]]


def _print_tree(tree: list[CallTree], indent: str) -> None:
    for branch in tree:
        print(f"{indent}{branch.edge.callee}  ({branch.edge.callee_path})")
        _print_tree(list(branch.below), indent + "  ")


def _same(expected: str, name: str) -> bool:
    """A flow's name is the expected symbol (a Go receiver may be written `*Engine`)."""
    return name.replace("*", "") == expected


def _prefixed(expected: str, name: str) -> bool:
    """A flow's name is the expected symbol, its module, namespace or Go `*` aside."""
    name = name.replace("*", "")
    return name == expected or name.endswith("." + expected)


if __name__ == "__main__":
    sys.exit(main())
