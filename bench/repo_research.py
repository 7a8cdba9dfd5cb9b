"""Benchmark: wall time and peak RSS of a full offline `deepkb repo run` on a repository, beside the time
repomix and gitingest take just to pack the same path (when they are installed).

    python bench/repo_research.py PATH
    python bench/repo_research.py --make-fixture /tmp/big --package anthropic --max-files 2000
    python bench/repo_research.py --make-fixture /tmp/sym --source-dir /path/to/site-packages/sympy
    python bench/repo_research.py PATH --repeat 3    # best of 3 for deepkb and for each packer (deepkb and
                                                     # repomix alternately)
    python bench/repo_research.py PATH --repeat 5 --against 43a9363   # beside an earlier revision's deepkb

Targets (issue 19): on a ~2,000-file repository, deepkb's whole offline research, the whole call graph of
its source modules included, ≤ 1.5 × repomix's pack time (1.0 until issue 29 added reading the project's
docs), peak RSS ≤ 200 MB. deepkb runs as a subprocess
with a fresh cache dir and knowledge-base root; its peak RSS is the child's ru_maxrss (os.wait4's usage of
that run), so the figure covers the deepkb process itself.

A second run in one process reports what the call graph holds and what the pages drew from it; the stages
are then timed one by one in a fresh process (map, facts with the call graph, the main call tree, every module's
key symbols).
If repomix is missing: `npm install -g repomix` (or it is used through `npx --no-install repomix`).
A fixture: `pip download --no-binary :all: --no-deps sympy`, unpack it, then
`--make-fixture /tmp/sym --source-dir sympy-1.14.0` (1,977 files).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

DEEPKB = Path(sys.executable).with_name("deepkb")
TARGET_RATIO = 1.5  # issue 29: the docs stage reads more, the ceiling rose from 1.0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", nargs="?", type=Path, help="a git checkout to research")
    parser.add_argument(
        "--make-fixture", type=Path, help="create a git repo from an installed package, then bench it"
    )
    parser.add_argument("--package", default="anthropic", help="installed package copied by --make-fixture")
    parser.add_argument(
        "--source-dir",
        type=Path,
        help="copy this folder (e.g. another interpreter's sympy) instead of --package",
    )
    parser.add_argument("--max-files", type=int, default=2000, help="files copied by --make-fixture")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run deepkb and each packer this many times and keep each one's best time (a busy machine)",
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also time the deepkb of this git revision (git archive of this checkout), run the same way",
    )
    args = parser.parse_args()
    target = args.path
    if args.make_fixture:
        target = make_fixture(args.make_fixture, args.package, args.max_files, args.source_dir)
    if target is None or not target.is_dir():
        parser.error("give a PATH (a git checkout) or --make-fixture DEST")
    files = sum(1 for p in target.rglob("*") if p.is_file() and ".git" not in p.parts)
    print(f"repository: {target} ({files} files)")
    compile_bytecode()
    # a busy machine's figures are slower, deepkb's and the packers' alike
    print(f"load average before the run: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    # deepkb and repomix alternately, best of each: a machine whose speed drifts touches both alike
    repomix = repomix_command(target)
    runs: list[tuple[float, float, float]] = []
    packs: list[tuple[float, float] | None] = []
    for _ in range(max(1, args.repeat)):
        runs.append(bench_deepkb(target))
        if repomix is not None and None not in packs:  # a failed pack is not tried again
            packs.append(pack_time("repomix", repomix))
    deepkb_time, rss_mb, cpu = min(runs)
    print(
        f"deepkb repo run (offline, full research): {deepkb_time:7.2f} s   peak RSS {rss_mb:6.1f} MB   "
        f"CPU {cpu:.2f} s"
    )
    if args.against:
        compare_revision(target, args.against, args.repeat)
    graph = bench_call_graph(target)
    print(
        f"  the run's call graph: {graph['edges']:.0f} calls from {graph['callers']:.0f} source modules; "
        f"{graph['flows']:.0f} flow diagrams, {graph['hops']:.0f} cited hops, on {graph['pages']:.0f} pages"
    )
    stages = bench_stages(target)
    print(
        f"  in one process: map {stages['map']:.2f} s, facts {stages['facts']:.2f} s (of which the call "
        f"graph {stages['graph']:.2f} s), main call tree {stages['chains']:.2f} s, key symbols of every module "
        f"{stages['catalogue']:.2f} s, peak RSS {stages['rss_mb']:.1f} MB"
    )
    if not graph["flows"]:
        print("  the run drew no call flow: its call graph is missing from the pages")
    repomix_time = None
    if repomix is None:
        print("repomix: not installed, skipped")
    elif None not in packs:
        repomix_time, repomix_cpu = min(p for p in packs if p is not None)
        print(f"repomix pack only:                       {repomix_time:7.2f} s   CPU {repomix_cpu:.2f} s")
    bench_tool("gitingest", gitingest_command(target), args.repeat)
    print()
    if repomix_time:
        ratio = deepkb_time / repomix_time
        met = ratio <= TARGET_RATIO and graph["flows"] > 0
        print(
            f"deepkb / repomix time: {ratio:.2f} (target ≤ {TARGET_RATIO:.2f}, docs and call graph included: {'met' if met else 'NOT met'})"
        )
    print(f"peak RSS: {rss_mb:.1f} MB (target ≤ 200 MB: {'met' if rss_mb <= 200 else 'NOT met'})")
    return 0


def make_fixture(dest: Path, package: str, max_files: int, source_dir: Path | None = None) -> Path:
    """A git repository holding the first `max_files` files of an installed package (sorted, no caches)."""
    source = source_dir or Path(sysconfig.get_paths()["purelib"]) / package
    if not source.is_dir():
        sys.exit(f"{source} is not a folder (is package {package!r} installed?)")
    package = source.name
    if dest.exists():
        shutil.rmtree(dest)
    chosen = sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts)[:max_files]
    for path in chosen:
        target = dest / package / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    }
    for command in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "add", "-A"],
        ["git", "commit", "-qm", "fixture"],
    ):
        subprocess.run(command, cwd=dest, check=True, env=env)
    return dest


def compare_revision(target: Path, revision: str, repeat: int) -> None:
    """This checkout's deepkb and `revision`'s, each run as `python -c` with its code first on the path,
    alternately (a drifting machine load touches both alike); best and median of each."""
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="deepkb-rev-") as older:
        archive = subprocess.run(
            ["git", "-C", str(here), "archive", revision], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", older], input=archive.stdout, check=True)
        import compileall

        compileall.compile_dir(str(Path(older) / "generator"), quiet=1)
        times: dict[str, list[float]] = {"this checkout": [], revision: []}
        cpu: dict[str, list[float]] = {"this checkout": [], revision: []}
        for _ in range(max(3, repeat)):
            for name, code in (("this checkout", here), (revision, Path(older))):
                elapsed, _, used = bench_deepkb(target, code=code)
                times[name].append(elapsed)
                cpu[name].append(used)
    for name, found in times.items():
        found.sort()
        cpu[name].sort()
        print(
            f"  {name:<14} best {found[0]:5.2f} s   median {found[len(found) // 2]:5.2f} s   "
            f"CPU best {cpu[name][0]:5.2f} s   median {cpu[name][len(found) // 2]:5.2f} s"
        )
    print(
        f"  this checkout / {revision}: {times['this checkout'][0] / times[revision][0]:.2f} (best to best), "
        f"CPU {cpu['this checkout'][0] / cpu[revision][0]:.2f}"
    )


def bench_deepkb(target: Path, code: Path | None = None) -> tuple[float, float, float]:
    """Wall time, peak RSS and CPU time (its worker processes' included) of one offline run: the installed
    `deepkb`, or `code`'s (a folder holding generator/) through this interpreter."""
    with tempfile.TemporaryDirectory(prefix="deepkb-bench-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DEEPKB_", "ANTHROPIC_", "OPENAI_"))}
        env["DEEPKB_CACHE_DIR"] = str(Path(tmp) / "cache")
        program = [str(DEEPKB)]
        if code is not None:
            env["PYTHONPATH"] = str(code)
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            program = [sys.executable, "-c", "import sys; from generator.cli import main; sys.exit(main())"]
        command = [
            *program,
            "--root",
            tmp,
            "--provider",
            "offline",
            "repo",
            "run",
            str(target.resolve()),
            "--json",
        ]
        errors = Path(tmp) / "stderr.txt"
        with errors.open("w") as err:
            started = time.perf_counter()
            # run from the temporary folder: `python -c` puts its working folder first on the module path
            process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err, cwd=tmp)
            # this run's own peak (its forked processes included), not that of every child so far (repomix)
            _, status, usage = os.wait4(process.pid, 0)
            elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode not in (0, 3):
            sys.exit(f"deepkb failed ({process.returncode}): {errors.read_text().strip()[-400:]}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # KiB on Linux


STAGES_SCRIPT = """
import json, resource, sys, time
from pathlib import Path
import generator.repo.facts.extract as extract
from generator.repo.analyze.describe import MODULE_SYMBOLS
from generator.repo.facts.ranking import leading_symbols
from generator.repo.map.filetypes import is_context_file
from generator.repo.map.walk import map_repository

root = Path(sys.argv[1])
graph_time = []
read_call_graph = extract.read_call_graph

def timed(*args):
    started = time.perf_counter()
    found = read_call_graph(*args)
    graph_time.append(time.perf_counter() - started)
    return found

extract.read_call_graph = timed
started = time.perf_counter()
repo_map = map_repository(root)
mapped = time.perf_counter()
facts = extract.extract_facts(root, repo_map)
extracted = time.perf_counter()
core = sorted((p for p in facts.files if not is_context_file(p)), key=lambda p: -facts.files[p].importance)
facts.calls.tree(core[:30])
chained = time.perf_counter()
for path in core:  # what the catalogue asks of every module
    leading_symbols(facts, path, MODULE_SYMBOLS)
done = time.perf_counter()
print(json.dumps({
    "map": mapped - started, "facts": extracted - mapped, "graph": graph_time[0],
    "chains": chained - extracted, "catalogue": done - chained,
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


CALL_GRAPH_SCRIPT = """
import atexit, json, os, sys
from pathlib import Path
import generator.repo.synthesize.synthesis as synthesis
from generator.cli import main

target, out, root = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(root)
studied = []
synthesize = synthesis.synthesize

def keep(study, *args, **kwargs):  # the run's facts
    studied.append(study)
    return synthesize(study, *args, **kwargs)

synthesis.synthesize = keep
os.environ["DEEPKB_CACHE_DIR"] = os.path.join(root, "cache")

def measure():  # at exit: the run's pages are written
    edges = studied[0].facts.calls.edges()
    found = {"edges": len(edges), "callers": len({e.caller_path for e in edges})}
    pages = list(Path(root, "site_src", "repos").rglob("*.md"))
    texts = [p.read_text(encoding="utf-8") for p in pages]
    found["pages"] = len(pages)
    found["flows"] = sum(t.count("sequenceDiagram") for t in texts)
    found["hops"] = sum(line.lstrip().startswith("p") and "->>" in line for t in texts for line in t.splitlines())
    Path(out).write_text(json.dumps(found))

atexit.register(measure)
sys.argv = ["deepkb", "--root", root, "--provider", "offline", "repo", "run", target, "--json"]
main()
"""


def bench_call_graph(target: Path) -> dict[str, float]:
    """A run in one process: what its call graph holds and what its pages drew from it."""
    with tempfile.TemporaryDirectory(prefix="deepkb-graph-out-") as tmp:
        out = Path(tmp) / "graph.json"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DEEPKB_", "ANTHROPIC_", "OPENAI_"))}
        done = subprocess.run(
            [sys.executable, "-c", CALL_GRAPH_SCRIPT, str(target.resolve()), str(out), str(Path(tmp) / "kb")],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
        )
        if done.returncode not in (0, 3) or not out.exists():
            sys.exit(f"call graph timing failed: {done.stderr.strip()[-400:]}")
        return json.loads(out.read_text())


def bench_stages(target: Path) -> dict[str, float]:
    """The facts stages timed in one process: map, facts, the main call tree, every module's key symbols."""
    done = subprocess.run(
        [sys.executable, "-c", STAGES_SCRIPT, str(target.resolve())], capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(f"stage timing failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compile_bytecode() -> None:
    """Byte-compile deepkb first, as a regular install and its first run do: an editable install run with
    PYTHONDONTWRITEBYTECODE=1 would otherwise recompile every module on each run, and time the compiler
    rather than deepkb."""
    import compileall

    import generator

    compileall.compile_dir(str(Path(generator.__file__).parent), quiet=1)


def repomix_command(target: Path) -> list[str] | None:
    if shutil.which("repomix"):
        return ["repomix", str(target), "-o", "{out}", "--quiet"]
    if (
        shutil.which("npx")
        and subprocess.run(["npx", "--no-install", "repomix", "--version"], capture_output=True).returncode
        == 0
    ):
        return ["npx", "--no-install", "repomix", str(target), "-o", "{out}", "--quiet"]
    return None


def gitingest_command(target: Path) -> list[str] | None:
    found = shutil.which("gitingest") or os.environ.get("GITINGEST")
    return [found, str(target), "-o", "{out}"] if found else None


def pack_time(name: str, command: list[str]) -> tuple[float, float] | None:
    """One pack's wall time and CPU time (None: it failed, and says why)."""
    with tempfile.TemporaryDirectory(prefix=f"{name}-bench-") as tmp:
        out = str(Path(tmp) / "packed.txt")
        errors = Path(tmp) / "stderr.txt"
        with errors.open("w") as err:
            started = time.perf_counter()
            process = subprocess.Popen(
                [part.replace("{out}", out) for part in command], stdout=subprocess.DEVNULL, stderr=err
            )
            _, status, usage = os.wait4(process.pid, 0)
            elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            print(f"{name}: failed ({process.returncode}): {errors.read_text().strip()[-300:]}")
            return None
    return elapsed, usage.ru_utime + usage.ru_stime


def bench_tool(name: str, command: list[str] | None, repeat: int = 1) -> float | None:
    if command is None:
        print(f"{name}: not installed, skipped")
        return None
    times = []
    for _ in range(max(1, repeat)):
        found = pack_time(name, command)
        if found is None:
            return None
        times.append(found)
    elapsed, cpu = min(times)
    print(f"{name} pack only:{' ' * (27 - len(name))}{elapsed:7.2f} s   CPU {cpu:.2f} s")
    return elapsed


if __name__ == "__main__":
    sys.exit(main())
