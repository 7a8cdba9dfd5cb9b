"""Benchmark: wall and CPU time of each offline topic query, this checkout beside an earlier revision.

    .venv/bin/python bench/topic_speed.py bench/collections/ghc-proposals.json --against 8f505ef
    .venv/bin/python bench/topic_speed.py COLLECTION.json --against main --only "linear" --timeout 300

Each labelled query of a collection runs as `bench/topic_retrieval.py` runs it (one offline run, a fresh
cache: the collection's search index is built anew each time), in a subprocess of its own, this checkout's
`generator/` and `revision`'s alternately (a drifting machine load touches both alike). Per query it prints
the wall and CPU seconds of each side (CPU of the whole process, its threads included), the CPU ratio, and
whether the two published reports are byte-identical. A run past `--timeout` is stopped and shown as
"> N s". Figures only: what each report says is `topic_retrieval.py`'s to judge.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "bench"))

from topic_retrieval import build_corpus  # noqa: E402


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float
    report: str  # the published report's text ("" when none was written)
    finished: bool


def export(revision: str, into: Path) -> Path:
    """`revision`'s tree, unpacked into `into` (its generator/ is what the "before" runs import)."""
    archive = subprocess.run(["git", "-C", str(HERE), "archive", revision], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def run_once(spec: dict, query: dict, corpus: Path, code: Path, timeout: float) -> Timing:
    """One query of `spec` over `corpus` with `code`'s deepkb, through topic_retrieval.py."""
    with tempfile.TemporaryDirectory(prefix="deepkb-topic-speed-") as tmp:
        single = Path(tmp) / "collection.json"
        single.write_text(json.dumps({**spec, "queries": [query], "irrelevant": []}), encoding="utf-8")
        keep = Path(tmp) / "keep"
        env = {**os.environ, "DEEPKB_SRC": str(code)}
        command = [sys.executable, str(HERE / "bench" / "topic_retrieval.py"), str(single)]
        command += ["--corpus", str(corpus), "--keep", str(keep)]
        started = time.perf_counter()
        process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        finished, usage = _wait(process, started + timeout)
        wall = time.perf_counter() - started
        reports = sorted(keep.glob("*.md")) if keep.is_dir() else []
        text = reports[0].read_text(encoding="utf-8") if reports else ""
    return Timing(wall, usage.ru_utime + usage.ru_stime, text, finished)


def _wait(process: subprocess.Popen[bytes], deadline: float) -> tuple[bool, os.struct_rusage]:
    """The process's own usage once it ends, or once it is stopped at `deadline`."""
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            return True, usage
        if time.perf_counter() >= deadline:
            os.killpg(process.pid, signal.SIGKILL)
            _, _, usage = os.wait4(process.pid, 0)
            return False, usage
        time.sleep(0.2)


def _shown(timing: Timing) -> str:
    if not timing.finished:
        return f"> {timing.wall:6.1f} s wall (stopped), {timing.cpu:6.1f} s CPU"
    return f"{timing.wall:6.1f} s wall, {timing.cpu:6.1f} s CPU"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("collection", type=Path, help="bench/collections/*.json")
    parser.add_argument("--against", required=True, help="the earlier revision (a commit or branch)")
    parser.add_argument("--only", help="run only the queries whose text contains this")
    parser.add_argument("--timeout", type=float, default=600.0, help="stop a run after this many seconds")
    args = parser.parse_args(argv)
    spec = json.loads(args.collection.read_text(encoding="utf-8"))
    queries = [q for q in spec["queries"] if not args.only or args.only in q["query"]]
    corpus = build_corpus(spec)
    print(f"== {spec['name']}: {corpus} · this checkout vs {args.against} · timeout {args.timeout:.0f} s")
    totals = {"this": 0.0, "before": 0.0}
    identical = 0
    with tempfile.TemporaryDirectory(prefix="deepkb-rev-") as older:
        before_code = export(args.against, Path(older))
        for query in queries:
            now = run_once(spec, query, corpus, HERE, args.timeout)
            before = run_once(spec, query, corpus, before_code, args.timeout)
            totals["this"] += now.cpu
            totals["before"] += before.cpu
            same = now.finished and before.finished and now.report == before.report
            identical += same
            print(f"query {query['query']!r}")
            print(f"  this checkout  {_shown(now)}")
            print(f"  {args.against:<14} {_shown(before)}")
            ratio = now.cpu / before.cpu if before.cpu else 0.0
            print(f"  CPU this / before {ratio:.2f} · report {'identical' if same else 'differs'}")
    print(
        f"total CPU: this checkout {totals['this']:.1f} s, {args.against} {totals['before']:.1f} s"
        f" (a stopped run counts to its stop) · reports identical {identical}/{len(queries)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
