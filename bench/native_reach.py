"""Benchmark: what a C, C++ or Rust repository's offline pages derive from its code (issue 29 items 2-3) —
the main flow (as bench/flow_reach.py measures it, from the facts), the Data model page's types and their
fields, and the Configuration page's options — against labels written before the first run.

    python bench/native_reach.py CHECKOUT …                 (labels: bench/native_heldout_s16.json)
    python bench/native_reach.py --labels FILE CHECKOUT …   (a checkout's folder name is its label key)
    python bench/native_reach.py --keep DIR CHECKOUT …      (keep each site's pages under DIR/<name>)

A flow's name matches a label's with or without its namespace or module (`spdlog.logger.log` is
`logger.log`). A type counts when a section heading of reference/data-model.md names it (`Type`, or a qualified name
ending in it), a field when that section lists it; an option when reference/configuration.md names it
(lower-cased, `-` read as `_`, leading dashes dropped). Prints one block per repository and the totals.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from flow_reach import measure  # noqa: E402
from nodocs import research  # noqa: E402

LABELS = Path(__file__).with_name("native_heldout_s16.json")
_HEADING = re.compile(r"^#{2,3} (.+)$", re.MULTILINE)


def same_symbol(expected: str, name: str) -> bool:
    """A flow's symbol is the labelled one, its C++ namespace or Rust module prefix aside."""
    name = name.replace("*", "")
    return name == expected or name.endswith("." + expected)


def sections(page: str) -> dict[str, str]:
    """A page's sections by their heading's plain text."""
    marks = list(_HEADING.finditer(page))
    return {
        _plain(m.group(1)): page[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(page)]
        for i, m in enumerate(marks)
    }


def _plain(text: str) -> str:
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("`", "").replace("\\", "").strip()


def _names(heading: str, name: str) -> bool:
    words = re.split(r"[\s(),:]+", heading)
    return any(w == name or w.endswith(("." + name, "::" + name)) for w in words)


def _option_key(name: str) -> str:
    return name.lower().lstrip("-").replace("-", "_")


def graded_types(label: dict[str, list[str]], page: str) -> tuple[int, int, int, int, list[str]]:
    """(types found, types, fields found, fields, missed) on the Data model page."""
    parts = sections(page)
    found_types = found_fields = fields = 0
    missed = []
    for name, wanted in label.items():
        fields += len(wanted)
        body = next((text for heading, text in parts.items() if _names(heading, name)), None)
        if body is None:
            missed.append(f"type {name}")
            continue
        found_types += 1
        words = set(re.findall(r"[A-Za-z_][\w]*", _plain(body)))
        hit = [f for f in wanted if f in words]
        found_fields += len(hit)
        if len(hit) < len(wanted):
            missed.append(f"{name} fields {', '.join(f for f in wanted if f not in hit)}")
    return found_types, len(label), found_fields, fields, missed


def graded_options(label: list[str], page: str) -> tuple[int, int, list[str]]:
    words = {_option_key(w) for w in re.findall(r"-*[A-Za-z_][\w-]*", _plain(page))}
    missed = [name for name in label if _option_key(name) not in words]
    return len(label) - len(missed), len(label), missed


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    labels = json.loads(args.labels.read_text(encoding="utf-8"))["repos"]
    totals = [0] * 9
    for path in args.paths:
        label = labels.get(path.name)
        if label is None:
            print(f"{path.name}: no label", file=sys.stderr)
            continue
        reached, traced, started = measure(path, label, same=same_symbol)
        pages = research(path, args.keep)
        types = graded_types(label.get("types", {}), pages.get("reference/data-model.md", ""))
        options = graded_options(label.get("configuration", []), pages.get("reference/configuration.md", ""))
        print(
            f"{'':<18} types {types[0]}/{types[1]}, fields {types[2]}/{types[3]}; "
            f"configuration {options[0]}/{options[1]}"
        )
        for line in types[4]:
            print(f"{'':<18} missed {line}")
        if options[2]:
            print(f"{'':<18} missed options {', '.join(options[2])}")
        row = (reached, traced, started, *types[:4], *options[:2])
        totals = [a + b for a, b in zip(totals, row, strict=True)]
    print(
        f"all: traced symbols reached {totals[0]}/{totals[1]}, starts {totals[2]}; types {totals[3]}/{totals[4]}, "
        f"fields {totals[5]}/{totals[6]}; configuration {totals[7]}/{totals[8]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
