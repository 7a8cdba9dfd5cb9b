"""Git history facts for the pages: which files changed most often recently (one git process)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from generator.errors import ResearchError
from generator.repo.checkout.gitcmd import run_git


def change_counts(root: Path, paths: Sequence[str], *, max_commits: int = 500) -> dict[str, int]:
    """How many of the last `max_commits` commits touched each of `paths` ({} when not a git repository).

    Only paths that changed at least once appear; ordered most-changed first, then by path.
    """
    if not (Path(root) / ".git").exists() or not paths:
        return {}
    try:
        out = run_git(
            [
                "log",
                f"--max-count={int(max_commits)}",
                "--no-renames",
                "--no-ext-diff",
                "--no-textconv",
                "--name-only",
                "--format=",
                "--no-merges",
                "HEAD",
                "--",
            ],
            cwd=Path(root),
            ceiling=Path(root).parent,
            timeout=120,
        )
    except ResearchError:
        return {}  # no commits yet, or a repository git cannot read: history is optional
    wanted = set(paths)
    counts = Counter(line for line in out.splitlines() if line in wanted)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
