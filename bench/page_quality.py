"""Benchmark: how readable — and how much they teach — the repository pages of real, untuned repositories
are, offline.

    python bench/page_quality.py [PATH …]      (default: the repositories of bench/repo_expectations.json,
                                                from /work/refsrc; else every git checkout under /tmp/realrepos)
    python bench/page_quality.py --show PATH   (also print each debris line found)
    python bench/page_quality.py /tmp/bench/graphrag …   (any checkout: repositories with docs folders give
                                                the docs line: files read, guide pages, examples)

Each source is copied into a scratch git repository (origin https://github.com/bench/<name>) so its pages
carry permalinks, then researched offline. Measured against bench/repo_expectations.json, which was written
from each README and its code before these measures were first run (issue 20): whether the main flow reaches
the symbols a maintainer traces first (flow: share of them its call tree reaches; start: whether it opens at
a symbol a user calls), whether the central files have a deep page (files) and the central symbols a link
into their defining file (symbols), whether a sub-package's modules stay in one subsystem (together: the mean share in
its most common subsystem), files of test helpers planned as subsystem code (tests; goal 0), and, where the
code answers questions on pages of their own, whether the answer page of the expectations' question names an
expected symbol among its first three (answer: its rank, or ✗). The question is asked only then, so that the
general pages measured are never shaped by it.

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
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from page_debris import Debris, find_debris, repeated_openings  # noqa: E402

from generator.app.targets import repo_target
from generator.config import Config  # noqa: E402
from generator.errors import DeepkbError  # noqa: E402
from generator.llm import open_provider  # noqa: E402
from generator.repo.model import RepoSynthesis  # noqa: E402
from generator.repo.run.pipeline import run_repo_research  # noqa: E402
from generator.site.pages.repo import publish_repo  # noqa: E402
from generator.store import KBPaths, read_page  # noqa: E402

DEFAULT_ROOT = Path("/tmp/realrepos")
SOURCES = Path("/work/refsrc")
EXPECTATIONS = Path(__file__).with_name("repo_expectations.json")
# the code under test answers a question on a page of its own (older code reshaped the general pages for it)
ANSWER_PAGES = "answers" in RepoSynthesis.__dataclass_fields__
# tests, fixtures, mocks and helpers written for tests: context, never subsystem code
TEST_HELPER = re.compile(
    r"(^|/)(tests?|testing|testdata|test[-_]?helpers?|testutils?|fixtures?|mocks?|__tests__|spec)(/|$)"
    r"|(^|/)test[-_]?helpers?\.\w+$|_test\.go$|\.(test|spec)\.[cm]?[jt]sx?$|(^|/)(test_[^/]*|conftest)\.py$",
    re.IGNORECASE,
)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", type=Path, help="sources to research")
    parser.add_argument("--show", action="store_true", help="print every debris line found")
    parser.add_argument("--labels", type=Path, default=EXPECTATIONS, help="the expectations (JSON)")
    args = parser.parse_args()
    labels = json.loads(args.labels.read_text(encoding="utf-8"))["repos"]
    targets = (
        args.paths
        or _labelled_sources(labels)
        or sorted(p for p in DEFAULT_ROOT.glob("*") if (p / ".git").exists())
    )
    if not targets:
        parser.error(f"give PATHs, or put sources under {SOURCES} or git checkouts under {DEFAULT_ROOT}")
    print(
        f"{'repository':<17} {'lang':<4} {'subs':>4} {'flow':>5} {'start':>5} {'files':>5} {'symbols':>7}"
        f" {'together':>8} {'tests':>5} {'answer':>6} {'sym/page':>8} {'catalogued':>10} {'debris':>6} {'seconds':>7}"
    )
    total_debris = 0
    for target in targets:
        try:
            figures, debris = measure(target.resolve(), labels.get(target.name))
        except DeepkbError as exc:
            print(f"{target.name:<17} not researched: {exc.line()}")
            continue
        total_debris += len(debris)
        f = figures
        print(
            f"{target.name[:17]:<17} {f['language'][:4]:<4} {f['subsystems']:>4} {f['flow']:>5} {f['start']:>5}"
            f" {f['files']:>5} {f['symbols']:>7} {f['together']:>8} {f['tests']:>5} {f['answer']:>6}"
            f" {f['symbols_per_page']:>8.1f} {f['catalogued']:>10} {len(debris):>6} {f['seconds']:>7.2f}"
        )
        print(
            f"{'':<17} docs: {f['doc_files']} files read · guide pages {f['guide_pages']}"
            f" · install {f['install']} · examples {f['examples']} · concepts with code linked {f['concepts_linked']}"
        )
        print(f"{'':<17} names: {'; '.join(f['names'])}")
        if f["answer"] != "—":
            print(f"{'':<17} answer: starts at {f['answer_start']}; steps named {f['answer_steps']}")
        print(
            f"{'':<17} flow: {' → '.join(f['flow_names']) or '(none)'} (tree: {f['tree_calls']} calls;"
            f" doc passages beside it: {f['flow_docs']}; shard pages with a tree: {f['shard_trees']})"
        )
        if args.show:
            for item in debris:
                print(f"{'':<17} {item.kind}: {item.text}")
    print(
        "anchors: 3–5 subsystems, flow reaches the traced symbols (n/n), start ✓, central files and symbols"
        f" n/n, together 100%, tests 0, catalogued n/n, 0 debris — debris in all: {total_debris}"
    )
    return 0


def _tree_names(tree: list) -> list[str]:
    """Every callee of a call tree (model.FlowBranch), depth first."""
    return [name for branch in tree for name in [branch.hop.callee, *_tree_names(list(branch.below))]]


def _labelled_sources(labels: dict[str, dict]) -> list[Path]:
    found = [SOURCES / name if (SOURCES / name).is_dir() else SOURCES / "go" / name for name in labels]
    return [p for p in found if p.is_dir()]


def scratch_checkout(source: Path, into: Path) -> Path:
    """`source` as a one-commit git repository whose origin names a web host, so pages carry permalinks."""
    repo = into / source.name
    shutil.copytree(source, repo, ignore=shutil.ignore_patterns(".git", "node_modules"), symlinks=True)
    quiet = {"capture_output": True, "check": True, "cwd": repo}
    subprocess.run(["git", "init", "-q", "-b", "main"], **quiet)  # type: ignore[call-overload]
    subprocess.run(["git", "add", "-A", "-f"], **quiet)  # type: ignore[call-overload]
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "source"],
        **quiet,  # type: ignore[call-overload]
    )
    origin = f"https://github.com/bench/{source.name}.git"
    subprocess.run(["git", "remote", "add", "origin", origin], **quiet)  # type: ignore[call-overload]
    return repo


def measure(target: Path, expected: dict | None = None) -> tuple[dict[str, object], list[Debris]]:
    with tempfile.TemporaryDirectory(prefix="deepkb-pages-") as scratch:
        source = target if (target / ".git").exists() else scratch_checkout(target, Path(scratch))
        paths = KBPaths(Path(scratch) / "kb")
        config = Config()
        provider, _ = open_provider(paths, config.llm, "offline")
        started = time.perf_counter()
        question = (expected or {}).get("question") if ANSWER_PAGES else None
        result = run_repo_research(
            paths,
            config,
            provider,
            repo_target(paths, config, str(source), requests=question),
            publish=publish_repo,
        )
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
    planned = [path for a in synthesis.landed for path in a.shard.files]
    flow_names = [synthesis.main_flow[0].caller] if synthesis.main_flow else []
    flow_names += [hop.callee for hop in synthesis.main_flow]
    # the call tree (code since issue 29): the traced symbols are looked for among all its calls
    tree = _tree_names(getattr(synthesis, "flow_tree", []))
    reached = flow_names[:1] + [name for name in tree if name not in flow_names[:1]] if tree else flow_names
    figures: dict[str, object] = {
        "language": (expected or {}).get("language", "?"),
        "subsystems": len(synthesis.landed),
        "names": [a.shard.name for a in synthesis.landed],
        "flow_names": flow_names,
        "tree_calls": len(tree),
        # issue 29 item 3: the docs' account of the flow, and shard pages drawing their own call tree
        "flow_docs": len(getattr(synthesis, "flow_docs", [])),
        "shard_trees": sum("\n    - calls `" in body.split("## How it flows", 1)[-1] for body in shard_pages),
        "symbols_per_page": sum(symbols) / max(len(symbols), 1),
        "catalogued": f"{catalogued}/{synthesis.modules_present}",
        "tests": sum(1 for path in planned if TEST_HELPER.search(path)),
        "seconds": seconds,
        "answer": _answer_rank(expected, synthesis) if ANSWER_PAGES else "—",
        "answer_steps": _answer_steps(expected, synthesis),
        "answer_start": " → ".join(
            s.name for a in getattr(synthesis, "answers", [])[:1] for s in a.symbols[:4]
        )
        or "—",
        **docs_figures(result.study, pages),
        **judged(expected, reached, planned, pages, synthesis.catalogue),
    }
    return figures, debris


def docs_figures(study: object, pages: dict[str, str]) -> dict[str, object]:
    """What the project's own documentation gave the pages (issue 29): doc files read, guide pages, the
    examples shown whole on Getting started, and concept pages that link the code their docs name."""
    docs = getattr(study, "docs", None)
    guide = {name: body for name, body in pages.items() if name.startswith("guide/")}
    started = guide.get("guide/getting-started.md", "")
    # the project's own install steps open the page (issue 29, session 37): counted apart from the examples
    install = install_section(started)
    examples = started.replace(install, "", 1) if install else started
    return {
        "doc_files": docs.files if docs is not None else 0,
        "guide_pages": len(guide),
        "install": "✓" if install.strip() else "✗",
        "examples": examples.count("\n```") // 2,
        "concepts_linked": sum("## In the code" in body for body in guide.values()),
    }


def install_section(started: str) -> str:
    """The body of Getting started's "Install" section: the project's own install steps ("" without one)."""
    _, found, rest = started.partition("\n## Install\n")
    return rest.split("\n## ", 1)[0].strip() if found else ""


def judged(
    expected: dict | None, flow: list[str], planned: list[str], pages: dict[str, str], catalogue: list
) -> dict[str, str]:
    """The measures against the expectations ("—" where none were written)."""
    if not expected:
        return {"flow": "—", "start": "—", "files": "—", "symbols": "—", "together": "—"}
    trace = expected["trace"]
    reached = sum(1 for name in trace if any(_same(name, hop) for hop in flow))
    started = bool(flow) and any(_same(name, flow[0]) for name in expected["entry"])
    figures = {"flow": f"{reached}/{len(trace)}", "start": "✓" if started else "✗"}
    if "central_files" not in expected:  # flow labels alone (bench/flows_heldout_s12.json)
        return {**figures, "files": "—", "symbols": "—", "together": "—"}
    files = expected["central_files"]
    linked = [name for name, path in expected["central_symbols"].items() if _linked(name, path, pages)]
    return {
        **figures,
        "files": f"{sum(1 for p in files if p in planned)}/{len(files)}",
        "symbols": f"{len(linked)}/{len(expected['central_symbols'])}",
        "together": _together(expected["packages"], catalogue),
    }


def _answer_rank(expected: dict | None, synthesis: RepoSynthesis) -> str:
    """1, 2 or 3: where the first expected symbol sits on the question's answer page; ✗ past the third."""
    answers = getattr(synthesis, "answers", [])
    if not expected or not answers:
        return "—"
    names = [s.name for s in answers[0].symbols[:3]]
    ranks = [i for i, name in enumerate(names, 1) if any(_same(want, name) for want in expected["answer"])]
    return str(ranks[0]) if ranks else "✗"


def _answer_steps(expected: dict | None, synthesis: RepoSynthesis) -> str:
    """How many of the expected steps the answer page's code steps name, and whether in their order (issue
    29 item 5); "—" without expected steps."""
    answers = getattr(synthesis, "answers", [])
    if not expected or "steps" not in expected or not answers:
        return "—"
    walked = [step.symbol.name for step in getattr(answers[0], "steps", ())]
    where = [
        next((i for i, name in enumerate(walked) if _same(want, name)), -1) for want in expected["steps"]
    ]
    found = [i for i in where if i >= 0]
    return f"{len(found)}/{len(where)}" + ("" if found == sorted(found) else " (out of order)")


def _same(expected: str, name: str) -> bool:
    """A flow's name is the expected symbol (a Go receiver may be written `*Engine`)."""
    return name.replace("*", "") == expected


def _linked(name: str, path: str, pages: dict[str, str]) -> bool:
    """Some page links the symbol (by its name, or a method's own name under its type) into `path`."""
    shown = {name, name.rsplit(".", 1)[-1]}
    for body in pages.values():
        for text, url in re.findall(r"\[`([^`]+)`\]\((https://[^)\s]+)\)", body):
            if text in shown and re.search(rf"/blob/[0-9a-f]+/{re.escape(path)}#L\d", url):
                return True
    return False


def _together(packages: list[str], catalogue: list) -> str:
    """The mean share of a sub-package's catalogued modules that sit in its most common subsystem."""
    shares = []
    for package in packages:
        groups = Counter(
            group.index
            for group in catalogue
            for module in group.modules
            if module.path.rsplit("/", 1)[0] == package
        )
        if groups:
            shares.append(max(groups.values()) / sum(groups.values()))
    return f"{100 * sum(shares) / len(shares):.0f}%" if shares else "—"


def _symbol_sections(body: str) -> str:
    """The Key types and Functions sections of a shard page."""
    parts = re.split(r"^## ", body, flags=re.MULTILINE)
    return "\n".join(p for p in parts if p.startswith(("Key types", "Functions")))


if __name__ == "__main__":
    sys.exit(main())
