"""Benchmark: deepkb's offline repository pages against CodeWikiBench's rubrics, graded strictly by hand.

    python bench/codewiki.py generate CHECKOUT [--pages DIR]   research a checkout offline; keep its pages
    python bench/codewiki.py candidates NAME [--pages DIR]     each rubric leaf with the page passages
                                                               nearest to it, to grade from
    python bench/codewiki.py score                             the per-repository table (tuning, held-out)

Rubrics: wangli-ustc/CodeWikiBench `examples/<NAME>/rubrics.json` (fetch it, clone it to /tmp/cwb), each
repository at the benchmark's commit. No LLM judge is available here: the grades are a person's, recorded
in bench/codewiki_grades.json (a leaf is 1 only when the pages explain or describe it; a name in a list is
not an explanation). Aggregation is the benchmark's (FSoft-AI4Code/CodeWikiBench src/judge/
combine_evaluations.py): a parent scores the weight-averaged score of its children, the root items likewise.
Repositories and pages are never committed.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

RUBRICS = Path("/tmp/cwb/examples")
PAGES = Path("/tmp/codewiki-pages")
GRADES = Path(__file__).with_name("codewiki_grades.json")
_WORD = re.compile(r"[a-z][a-z0-9]+")
_STOP = frozenset(
    "and the for with of to in on a an by from as or its their into via using based support system "
    "management handling configurable".split()
)


def leaves(items: list[dict], prefix: str = "") -> list[tuple[str, dict]]:
    """Every leaf of a rubric tree with its path, numbered as the benchmark's judge numbers them."""
    found: list[tuple[str, dict]] = []
    for index, item in enumerate(items):
        path = f"{prefix}.{index}" if prefix else str(index)
        if item.get("sub_tasks"):
            found += leaves(item["sub_tasks"], path)
        else:
            found.append((path, item))
    return found


def scored(items: list[dict], grades: dict[str, int], prefix: str = "") -> float:
    """The weighted average of `items`' scores, bottom-up: combine_evaluations.calculate_scores_bottom_up."""
    total = weights = 0.0
    for index, item in enumerate(items):
        path = f"{prefix}.{index}" if prefix else str(index)
        if item.get("sub_tasks"):
            score = scored(item["sub_tasks"], grades, path)
        else:
            score = float(grades.get(path, 0))
        total += score * item["weight"]
        weights += item["weight"]
    return total / weights if weights else 0.0


def rubric(name: str) -> list[dict]:
    return json.loads((RUBRICS / name / "rubrics.json").read_text())["rubrics"]


def generate(checkout: Path, pages: Path) -> Path:
    """Research `checkout` offline into a scratch knowledge base and copy its pages to pages/<name>."""
    from page_quality import scratch_checkout  # noqa: PLC0415 (bench scripts share one helper)

    from generator.app.targets import repo_target
    from generator.config import Config
    from generator.llm import open_provider
    from generator.repo.run.pipeline import run_repo_research
    from generator.site.pages.repo import publish_repo
    from generator.store import KBPaths

    with tempfile.TemporaryDirectory(prefix="deepkb-codewiki-") as scratch:
        source = scratch_checkout(checkout, Path(scratch))
        paths = KBPaths(Path(scratch) / "kb")
        config = Config()
        provider, _ = open_provider(paths, config.llm, "offline")
        result = run_repo_research(
            paths, config, provider, repo_target(paths, config, str(source)), publish=publish_repo
        )
        dest = pages / checkout.name
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(result.study.harvest_dir, dest)
    return dest


def passages(pages: Path) -> list[tuple[str, str]]:
    """Every paragraph of every page, with its page's name."""
    found = []
    for page in sorted(pages.rglob("*.md")):
        for block in re.split(r"\n\s*\n", page.read_text(encoding="utf-8")):
            if block.strip():
                found.append((str(page.relative_to(pages)), block.strip()))
    return found


def words(text: str) -> set[str]:
    return {w[:6] for w in _WORD.findall(text.lower()) if w not in _STOP}


def candidates(name: str, pages: Path, top: int = 3) -> None:
    """Each leaf and the passages sharing most of its words: where a grader looks first."""
    found = passages(pages / name)
    for path, leaf in leaves(rubric(name)):
        wanted = words(leaf["requirements"])
        ranked = sorted(found, key=lambda p: -len(wanted & words(p[1])))[:top]
        print(f"\n## {path} (w{leaf['weight']}) {leaf['requirements']}")
        for page, text in ranked:
            overlap = len(wanted & words(text))
            if overlap:
                print(f"  [{overlap}] {page}: {' '.join(text.split())[:300]}")


def score() -> None:
    sheet = json.loads(GRADES.read_text())
    # the newest session's held-out sheet (held_out_s15 after held_out_s14): graded once, never tuned on
    latest = max((key for key in sheet if re.fullmatch(r"held_out_s\d+", key)), key=lambda k: int(k[10:]))
    fresh = set(sheet[latest]) & set(sheet["repos"])
    earlier = set(sheet["held_out"]) - fresh  # held out when first graded, tuned on since
    halves = ("tuning", "held out earlier, seen since", f"held out in session {latest[10:]}")
    rows = {half: [] for half in halves}  # type: dict[str, list[tuple[str, str, int, int, float, str]]]
    for name, entry in sheet["repos"].items():
        if not (RUBRICS / name / "rubrics.json").exists():
            continue
        tree = rubric(name)
        graded = entry["grades"]
        # earlier sheets of a regraded repository: session 10's, session 14's on main before its fixes, and
        # session 15's held-out grade before its zeros were regraded on the final main
        before = " ".join(
            f"{scored(tree, entry[key]):6.1%}" if key in entry else f"{'':6}"
            for key in ("grades_s10", "grades_s14_main", "grades_s15_heldout", "grades_s18_heldout")
        )
        half = halves[2] if name in fresh else halves[1] if name in earlier else halves[0]
        rows[half].append(
            (name, entry["language"], len(graded), len(leaves(tree)), scored(tree, graded), before)
        )
    for half in halves:
        print(f"\n{half}:")
        print(
            f"  {'repository':<27} {'language':<11} {'graded':>9}  strict score   (s10, s14 main, s15 held out, s18 held out)"
        )
        for name, language, graded_count, total, value, before in rows[half]:
            print(f"  {name:<27} {language:<11} {graded_count:>4}/{total:<4}  {value:6.1%}        {before}")
        if rows[half]:
            mean = sum(r[4] for r in rows[half]) / len(rows[half])
            print(f"  {'mean':<23} {'':<11} {'':>9}  {mean:6.1%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("checkout", type=Path)
    gen.add_argument("--pages", type=Path, default=PAGES)
    cand = sub.add_parser("candidates")
    cand.add_argument("name")
    cand.add_argument("--pages", type=Path, default=PAGES)
    sub.add_parser("score")
    args = parser.parse_args()
    if args.command == "generate":
        print(generate(args.checkout.resolve(), args.pages))
    elif args.command == "candidates":
        candidates(args.name, args.pages)
    else:
        score()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
