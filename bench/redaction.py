"""Time secret redaction of what the facts stage reads: the distinct import strings and every file's docstrings.

    python bench/redaction.py PATH [--repeat 5]

Parses the repository's files in this process without redaction, then times, best of --repeat passes:
the distinct import strings redacted one call each (`Redactor.redact`, as the facts stage does), and each
file's docstrings as the parser redacts them (`redact_symbols`). Prints one JSON line beside the anchors:
the same measures before redaction was gated, on the 2,000-file anthropic SDK fixture.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from generator.redact import Redactor
from generator.repo.facts import redaction
from generator.repo.facts.parsing import parse_sources
from generator.repo.map.walk import map_repository

ANCHORS = {"imports_s": 0.053, "docstrings_s": 0.11}  # before gating, anthropic fixture, this machine


def best_of(repeat: int, task: Callable[[], object], before: Callable[[], object] = lambda: None) -> float:
    times = []
    for _ in range(repeat):
        before()
        started = time.perf_counter()
        task()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    repo_map = map_repository(args.path, max_file_bytes=1_000_000)
    parsed = parse_sources(args.path, repo_map.files, max_file_bytes=1_000_000)
    readings = [extracted for extracted in parsed.values() if extracted is not None]
    imports = sorted({raw for extracted in readings for raw in extracted.imports})
    redactor = Redactor.from_environ()
    redactor.redact("")  # formats loaded, as before any file is read

    def docstrings() -> None:
        for extracted in readings:
            redaction.redact_symbols(extracted.symbols, redactor)

    figures = {
        "files": len(readings),
        "imports": len(imports),
        "docstrings": sum(1 for e in readings for s in e.symbols if s.doc_source),
        "imports_s": round(best_of(args.repeat, lambda: [redactor.redact(raw) for raw in imports]), 4),
        "docstrings_s": round(best_of(args.repeat, docstrings), 4),
        "anchors": ANCHORS,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
