"""The sanitizer's final-page check (`find_live_markup`) over every page of a built site.

    .venv/bin/python bench/final_check.py SITE_DIR [--rounds R]

Reads each HTML page of SITE_DIR (a knowledge base's site/, e.g. after `deepkb build`; assets excluded),
runs the check R times (default 3) and prints pages, mean page size and milliseconds per page (best
round), plus how many pages the check would refuse (0 for a site deepkb built). The check runs once per
page in every build, so this is its share of a build's time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from generator.site.sanitize import find_live_markup  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pages = [
        p.read_text(encoding="utf-8")
        for p in sorted(args.site_dir.rglob("*.html"))
        if "assets" not in p.relative_to(args.site_dir).parts
    ]
    if not pages:
        raise SystemExit(f"no HTML pages under {args.site_dir}")
    refused = sum(1 for page in pages if find_live_markup(page))
    best = min(_round(pages) for _ in range(args.rounds))
    size = sum(map(len, pages)) / len(pages) / 1000
    print(
        f"pages {len(pages)}  mean {size:.1f} KB  {best / len(pages) * 1000:.2f} ms/page  refused {refused}"
    )


def _round(pages: list[str]) -> float:
    start = time.perf_counter()
    for page in pages:
        find_live_markup(page)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
