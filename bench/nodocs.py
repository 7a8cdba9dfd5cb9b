"""Benchmark: what a repository WITHOUT a docs folder teaches a newcomer on its offline pages (issue 29, items
1, 2 and 6), against labels written before the first run.

    python bench/nodocs.py CHECKOUT …                    grade each checkout (its folder name is its label key)
    python bench/nodocs.py --labels FILE --keep DIR …    other labels; keep each site's pages under DIR/<name>

Labels (bench/nodocs_heldout_s15.json): per repository, a usage example (met only inside a fenced code
block), the concepts a newcomer must meet (met only when ONE page holds both the concept's symbol and one
phrase that explains it: a name in a list is not an explanation), the configuration a user sets, and
phrases the overview must not open with. Phrases are compared lower-cased with backticks, emphasis, link
targets and runs of white space removed. Prints one line per repository and the items missed.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_quality import scratch_checkout  # noqa: E402

from generator.app.targets import repo_target  # noqa: E402
from generator.config import Config  # noqa: E402
from generator.llm import open_provider  # noqa: E402
from generator.repo.run.pipeline import run_repo_research  # noqa: E402
from generator.site.pages.repo import publish_repo  # noqa: E402
from generator.store import KBPaths, read_page  # noqa: E402

LABELS = Path(__file__).with_name("nodocs_heldout_s15.json")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_FENCE = re.compile(r"^(`{3,}|~{3,})[^\n]*\n(.*?)^\1\s*$", re.MULTILINE | re.DOTALL)


def plain(text: str) -> str:
    """`text` as the labels compare it: links as their label, no backticks or emphasis, one space."""
    text = _LINK.sub(r"\1", text)
    text = re.sub(r"[`*]|\\(?=[^\w\s])", "", text)
    return " ".join(text.lower().split())


def research(source: Path, keep: Path | None) -> dict[str, str]:
    """The published pages of `source`'s offline research, by their path under the site."""
    with tempfile.TemporaryDirectory(prefix="deepkb-nodocs-") as scratch:
        checkout = scratch_checkout(source, Path(scratch))
        paths = KBPaths(Path(scratch) / "kb")
        config = Config()
        provider, _ = open_provider(paths, config.llm, "offline")
        result = run_repo_research(
            paths, config, provider, repo_target(paths, config, str(checkout)), publish=publish_repo
        )
        directory = result.study.harvest_dir
        if keep is not None:
            shutil.rmtree(keep / source.name, ignore_errors=True)
            shutil.copytree(directory, keep / source.name)
        return {str(p.relative_to(directory)): read_page(p)[1] for p in sorted(directory.rglob("*.md"))}


def graded(label: dict, pages: dict[str, str]) -> tuple[int, int, list[str]]:
    """(met, total, what was missed) for one repository's label against its pages."""
    texts = {name: plain(body) for name, body in pages.items()}
    code = {name: plain("\n".join(m.group(2) for m in _FENCE.finditer(body))) for name, body in pages.items()}
    missed: list[str] = []
    met = total = 0

    def any_in(phrases: list[str], haystacks: dict[str, str]) -> set[str]:
        return {name for name, text in haystacks.items() if any(plain(p) in text for p in phrases)}

    for item in label.get("usage", []):
        total += 1
        if any_in(item["any"], code if item.get("code") else texts):
            met += 1
        else:
            missed.append(f"usage: {item['what']}")
    for item in label.get("concepts", []):
        total += 1
        symbol = {n for n, t in texts.items() if any(plain(s) in t for s in item["symbol"])}
        if symbol & any_in(item["any"], texts):
            met += 1
        else:
            missed.append(f"concept: {item['what']}")
    for item in label.get("configuration", []):
        total += 1
        if any_in(item["any"], texts):
            met += 1
        else:
            missed.append(f"configuration: {item['what']}")
    if label.get("overview_not"):
        total += 1
        home = pages.get("index.md", "")
        opening = plain(home.split("\n## ", 1)[0])
        if any(plain(p) in opening for p in label["overview_not"]):
            missed.append("overview opens with a notice")
        else:
            met += 1
    return met, total, missed


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+", type=Path, help="checkouts, named as in the labels")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--keep", type=Path, help="keep each site's pages under this folder")
    args = parser.parse_args()
    labels = json.loads(args.labels.read_text(encoding="utf-8"))["repos"]
    met_all = total_all = 0
    for path in args.paths:
        label = labels.get(path.name)
        pages = research(path, args.keep)
        if label is None:
            print(f"{path.name:12} no label: {len(pages)} pages", file=sys.stderr)
            continue
        met, total, missed = graded(label, pages)
        met_all, total_all = met_all + met, total_all + total
        print(f"{path.name:12} {met}/{total}")
        for line in missed:
            print(f"    missed {line}")
    print(f"{'all':12} {met_all}/{total_all}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
