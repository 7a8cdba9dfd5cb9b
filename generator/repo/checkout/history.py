"""Git history facts for the pages: which files changed most often within a stated window, with renames
followed so a core module's count is not reset by a move (one git process, through the hardened runner)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import ResearchError
from generator.repo.checkout.gitcmd import run_git

MAX_COMMITS = 1000
_RECORD = "\x1e"  # starts each commit's record in the log output


@dataclass(frozen=True)
class History:
    """Change counts over a window a page can state: "in the last {commits} commits since {since}"."""

    counts: dict[str, int] = field(default_factory=dict)  # current path → commits that touched it
    commits: int = 0  # commits read (merges left out)
    since: str = ""  # ISO date of the oldest commit read
    until: str = ""  # ISO date of the newest (HEAD)
    complete: bool = True  # False when older commits exist beyond the window

    @property
    def window(self) -> str:
        """The window in words ("" when no commit was read)."""
        if not self.commits:
            return ""
        scope = f"the last {self.commits} commits" if not self.complete else f"all {self.commits} commits"
        return f"{scope} ({self.since[:10]} to {self.until[:10]})"


def file_history(
    root: Path, paths: Sequence[str], *, max_commits: int = MAX_COMMITS, since: str | None = None
) -> History:
    """How many of the newest `max_commits` commits (after `since`, an ISO date, when given) touched each
    of `paths`, following renames: a commit that touched a file under an older name counts for it.

    Only paths that changed at least once appear, most-changed first. An empty History when `root` is not
    a git repository or git cannot read it (history is optional).
    """
    if not (Path(root) / ".git").exists() or not paths:
        return History()
    args = [
        "-c",
        "core.quotePath=false",  # paths as they are on disk, not octal-escaped
        "log",
        f"--max-count={int(max_commits) + 1}",  # one more tells whether the window is the whole history
        "-M",
        "--name-status",
        "--no-ext-diff",
        "--no-textconv",
        f"--format={_RECORD}%cI",
        "--no-merges",
    ]
    if since:
        args.append(f"--since={since}")
    try:
        out = run_git([*args, "HEAD", "--"], cwd=Path(root), timeout=120)
    except ResearchError:
        return History()  # no commits yet, or a repository git cannot read
    return _count(out, paths, max_commits)


def _count(log: str, paths: Sequence[str], max_commits: int) -> History:
    """Walk the log newest first; a rename maps the older name to the file's current path."""
    current = {path: path for path in paths}  # a name in the commit being read → the path today
    counts: Counter[str] = Counter()
    records = [r for r in log.split(_RECORD) if r.strip()]
    read = records[:max_commits]
    for record in read:
        lines = record.splitlines()
        touched: set[str] = set()
        for line in lines[1:]:
            parts = line.split("\t")
            if len(parts) == 3 and parts[0].startswith(("R", "C")):
                old, new = parts[1], parts[2]
                today = current.get(new)
                if today is not None:
                    touched.add(today)
                    if parts[0].startswith("R"):
                        del current[new]  # before this commit the file was called `old`
                        current[old] = today
            elif len(parts) == 2 and parts[1] in current:
                touched.add(current[parts[1]])
        counts.update(touched)
    dates = [record.splitlines()[0].strip() for record in read]
    return History(
        counts=dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))),
        commits=len(read),
        since=dates[-1] if dates else "",
        until=dates[0] if dates else "",
        complete=len(records) <= max_commits,
    )
