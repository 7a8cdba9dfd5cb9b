"""History for the pages: change counts over a stated window, renames followed, the revision's date."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import git, make_git_repo

from generator.repo.checkout.history import file_history


def commit(repo: Path, message: str, date: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", "commit", "-q", "-am", message], cwd=repo, check=True, env=env)


@pytest.fixture
def moved_repo(tmp_path: Path) -> Path:
    """core.py changed 3 times, then moved to pkg/engine.py, then changed twice more; other.py once."""
    repo = make_git_repo(
        tmp_path / "repo", {"core.py": "x = 0\n" * 20, "other.py": "y = 1\n", "README.md": "r\n"}
    )
    for i in range(1, 3):
        (repo / "core.py").write_text("x = 0\n" * 20 + f"z = {i}\n")
        commit(repo, f"change {i}", f"2024-01-0{i}T12:00:00+00:00")
    (repo / "pkg").mkdir()
    git(repo, "mv", "core.py", "pkg/engine.py")
    commit(repo, "move the core", "2024-02-01T12:00:00+00:00")
    for i in range(2):
        (repo / "pkg" / "engine.py").write_text("x = 0\n" * 20 + f"w = {i}\n")
        commit(repo, f"engine {i}", f"2024-03-0{i + 1}T12:00:00+00:00")
    return repo


def test_counts_follow_renames(moved_repo: Path) -> None:
    history = file_history(moved_repo, ["pkg/engine.py", "other.py", "README.md", "gone.py"])
    # initial + 2 changes + the move + 2 changes: the move does not reset the count
    assert history.counts == {"pkg/engine.py": 6, "README.md": 1, "other.py": 1}
    assert history.commits == 6 and history.complete
    assert history.until.startswith("2024-03-02") and history.window.startswith("all 6 commits (")
    assert file_history(moved_repo, ["pkg/engine.py"]).counts == {"pkg/engine.py": 6}


def test_window_is_stated_when_history_is_longer(moved_repo: Path) -> None:
    history = file_history(moved_repo, ["pkg/engine.py", "other.py"], max_commits=3)
    assert history.counts == {"pkg/engine.py": 3}
    assert (history.commits, history.complete) == (3, False)
    assert history.window == "the last 3 commits (2024-02-01 to 2024-03-02)"
    since = file_history(moved_repo, ["pkg/engine.py"], since="2024-01-15")
    assert since.counts == {"pkg/engine.py": 3} and since.since.startswith("2024-02-01")


def test_no_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert file_history(plain, ["a.py"]).counts == {}
    assert file_history(plain, ["a.py"]).window == ""
