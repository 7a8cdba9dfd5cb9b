"""Time a no-op `deepkb refresh` beside the cold `deepkb build` it follows.

    python bench/refresh_noop.py [REPO_PATH] [--docs DIR]

Builds a throw-away knowledge base in a temporary folder that researches REPO_PATH (default: this
repository, cloned so its history is real) and one topic over DIR (default: this repository's docs/), with
a fresh cache and the offline provider. Then runs `deepkb refresh` and checks that it changed no file under
site_src/. Prints one JSON line: {"cold_build_s", "noop_refresh_s", "ratio", "site_src_files",
"files_changed"}.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def deepkb(root: Path, env: dict[str, str], *args: str) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), "--provider", "offline", *args],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", nargs="?", default=str(HERE), help="repository to research")
    parser.add_argument("--docs", default=str(HERE / "docs"), help="folder of documents for the topic")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="deepkb-refresh-bench-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        subprocess.run(["git", "clone", "-q", args.repo, str(repo)], check=True)
        kb = work / "kb"
        shutil.copytree(args.docs, kb / "corpus")
        (kb / "deepkb.yml").write_text(
            f"repos:\n  - source: {repo}\ntopics:\n  - topic: How the documented system works\n"
            "    sources: ['local:corpus']\n",
            encoding="utf-8",
        )
        env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN", "_SECRET"))}
        env["DEEPKB_CACHE_DIR"] = str(work / "cache")
        cold = deepkb(kb, env, "build")
        before = digest(kb / "site_src")
        noop = deepkb(kb, env, "refresh")
        after = digest(kb / "site_src")
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    print(
        json.dumps(
            {
                "cold_build_s": round(cold, 2),
                "noop_refresh_s": round(noop, 2),
                "ratio": round(noop / cold, 3),
                "site_src_files": len(before),
                "files_changed": len(changed),
            }
        )
    )


if __name__ == "__main__":
    main()
