"""Time the facts stage's reading of Python files: `survey` for every source module, `outline` for tests.

    python bench/python_facts.py PATH [--repeat 5]

Reads every Python file the map keeps under PATH into memory first, then times one pass over them in this
process: the first pass (patterns compiled on first use, as in a fresh worker) and the best of --repeat
later passes, with the import-line memo, the class-bases memo and the summary cache emptied before each
(a run starts with them empty). Prints one JSON line: {"files", "source_modules", "mbytes", "first_pass_s",
"best_pass_s"}.
"""

from __future__ import annotations

import argparse
import gc
import json
import time
import warnings
from pathlib import Path

from generator.repo.facts import prose, pyscan, pysymbols
from generator.repo.facts.languages import outline, survey
from generator.repo.map.filetypes import is_context_file
from generator.repo.map.walk import map_repository


def read_all(root: Path) -> list[tuple[str, bool]]:
    """(text, whether it is a source module) for each Python file of the map."""
    files = []
    for entry in map_repository(root).files:
        if entry.language == "python":
            text = (root / entry.path).read_bytes().decode("utf-8", errors="replace")
            files.append((text, not is_context_file(entry.path)))
    return files


def one_pass(files: list[tuple[str, bool]]) -> float:
    pyscan._SEEN_LINES.clear()
    pysymbols._bases_read_by_ast.cache_clear()
    prose.summary.cache_clear()
    gc.collect()
    started = time.perf_counter()
    for text, source_module in files:
        try:
            survey("python", text) if source_module else outline("python", text)
        except (SyntaxError, ValueError):
            pass  # the pipeline records such a file as unparsable
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path, help="a repository (or any folder) holding Python files")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes after the first")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # invalid escapes in old code warn when a string is evaluated
    files = read_all(args.path)
    first = one_pass(files)
    best = min(one_pass(files) for _ in range(max(1, args.repeat)))
    figures = {
        "files": len(files),
        "source_modules": sum(source for _, source in files),
        "mbytes": round(sum(len(text) for text, _ in files) / 1e6, 2),
        "first_pass_s": round(first, 3),
        "best_pass_s": round(best, 3),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
