"""Benchmark: how readable the repository pages of real, untuned repositories are, offline.

    python bench/page_quality.py [PATH …]      (default: every git checkout under /tmp/realrepos)
    python bench/page_quality.py --show PATH   (also print each debris line found)

For each repository: deepkb's offline research into a scratch knowledge base, then, from the records and the
rendered pages: the subsystems planned, key symbols per shard page, modules catalogued / source modules
present, and debris lines found by tests/page_debris.py (escapes shown as they are, reST
underlines and roles, licence headers, build tags, repeated sentences).

Anchors (issue 9): 3–5 named subsystems, no number in a name; every source module catalogued; 0 debris.
Inputs come from package registries (pip download --no-binary :all:, npm pack, Debian golang-*-dev) and are
never committed.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from page_debris import Debris, find_debris, repeated_openings  # noqa: E402

from generator.config import Config  # noqa: E402
from generator.errors import DeepkbError  # noqa: E402
from generator.llm import open_provider  # noqa: E402
from generator.repo.run.pipeline import run_repo_research  # noqa: E402
from generator.site.pages.repo import publish_repo  # noqa: E402
from generator.store import KBPaths, read_page  # noqa: E402

DEFAULT_ROOT = Path("/tmp/realrepos")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", type=Path, help="git checkouts to research")
    parser.add_argument("--show", action="store_true", help="print every debris line found")
    args = parser.parse_args()
    targets = args.paths or sorted(p for p in DEFAULT_ROOT.glob("*") if (p / ".git").exists())
    if not targets:
        parser.error(f"give PATHs, or put git checkouts under {DEFAULT_ROOT}")
    print(
        f"{'repository':<12} {'subsystems':>10} {'symbols/page':>12} {'catalogued':>11} {'debris':>6}  seconds"
    )
    total_debris = 0
    for target in targets:
        try:
            figures, debris = measure(target.resolve())
        except DeepkbError as exc:
            print(f"{target.name:<12} not researched: {exc.line()}")
            continue
        total_debris += len(debris)
        print(
            f"{target.name:<12} {figures['subsystems']:>10} {figures['symbols_per_page']:>12.1f}"
            f" {figures['catalogued']:>11} {len(debris):>6}  {figures['seconds']:.2f}"
        )
        print(f"{'':<12} names: {'; '.join(figures['names'])}")
        if args.show:
            for item in debris:
                print(f"{'':<12} {item.kind}: {item.text}")
    print(f"anchor: 3–5 subsystems, catalogued n/n, 0 debris — debris in all: {total_debris}")
    return 0


def measure(target: Path) -> tuple[dict[str, object], list[Debris]]:
    with tempfile.TemporaryDirectory(prefix="deepkb-pages-") as scratch:
        paths = KBPaths(Path(scratch))
        config = Config()
        provider, _ = open_provider(paths, config.llm, "offline")
        started = time.perf_counter()
        result = run_repo_research(paths, config, provider, str(target), publish=publish_repo)
        seconds = time.perf_counter() - started
        synthesis = result.synthesis
        directory = result.study.harvest_dir
        pages = {str(p.relative_to(directory)): read_page(p)[1] for p in sorted(directory.rglob("*.md"))}
    shard_pages = [body for name, body in pages.items() if name.startswith("shards/")]
    symbols = [
        len(re.findall(r"^\s*- (?:\*\*)?\[?`", _symbol_sections(body), re.MULTILINE)) for body in shard_pages
    ]
    catalogued = sum(len(group.modules) for group in synthesis.catalogue)
    debris = [d for body in pages.values() for d in find_debris(body)]
    debris += repeated_openings({n: b for n, b in pages.items() if n.startswith("shards/")})
    figures: dict[str, object] = {
        "subsystems": len(synthesis.landed),
        "names": [a.shard.name for a in synthesis.landed],
        "symbols_per_page": sum(symbols) / max(len(symbols), 1),
        "catalogued": f"{catalogued}/{synthesis.modules_present}",
        "seconds": seconds,
    }
    return figures, debris


def _symbol_sections(body: str) -> str:
    """The Key types and Functions sections of a shard page."""
    parts = re.split(r"^## ", body, flags=re.MULTILINE)
    return "\n".join(p for p in parts if p.startswith(("Key types", "Functions")))


if __name__ == "__main__":
    sys.exit(main())
