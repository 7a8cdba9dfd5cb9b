"""`deepkb publish` against a local bare repository standing in for GitHub."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import git, make_git_repo
from kb_fakes import add_topic

from generator.cli import cli
from generator.store import KBPaths


def bare(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", str(path)], check=True)
    return path


def remote_git(remote: Path, *args: str) -> str:
    return git(remote, *args)


@pytest.fixture
def kb(tmp_path: Path) -> KBPaths:
    """A committed knowledge base with a built site/ (ignored by git) and an `origin` bare remote."""
    remote = bare(tmp_path / "origin.git")
    root = make_git_repo(
        tmp_path / "kb",
        {"site_src/index.md": "# Home\n", ".gitignore": "site/\n.cache/\n"},
        origin=str(remote),
    )
    site = root / "site"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text("<html><body>knowledge base</body></html>\n", encoding="utf-8")
    (site / "assets" / "app.js").write_text("console.log(1)\n", encoding="utf-8")
    (site / "_static").mkdir()
    (site / "_static" / "x.css").write_text("body{}\n", encoding="utf-8")
    return KBPaths(root)


def publish(kb: KBPaths, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--root", str(kb.root), "publish", "--json", *args])


def test_publish_makes_one_commit_on_the_pages_branch(kb: KBPaths, tmp_path: Path) -> None:
    head = git(kb.root, "rev-parse", "HEAD")
    status_before = git(kb.root, "status", "--porcelain")
    result = publish(kb)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["built"] is False and data["revision"] == head
    remote = tmp_path / "origin.git"
    assert remote_git(remote, "rev-list", "--count", "gh-pages") == "1"
    files = set(remote_git(remote, "ls-tree", "-r", "--name-only", "gh-pages").splitlines())
    assert files == {"index.html", "assets/app.js", "_static/x.css", ".nojekyll"}
    assert "knowledge base" in remote_git(remote, "show", "gh-pages:index.html")
    assert head in remote_git(remote, "log", "-1", "--format=%s", "gh-pages")
    # the knowledge base's own repository is left as it was: same HEAD, same status, no new branch
    assert git(kb.root, "rev-parse", "HEAD") == head
    assert git(kb.root, "status", "--porcelain") == status_before
    assert git(kb.root, "branch", "--list", "gh-pages") == ""


def test_republish_keeps_no_history_unless_asked(kb: KBPaths, tmp_path: Path) -> None:
    remote = tmp_path / "origin.git"
    assert publish(kb).exit_code == 0
    first = remote_git(remote, "rev-parse", "gh-pages")
    (kb.site_dir / "index.html").write_text("<html><body>second build</body></html>\n", encoding="utf-8")
    assert publish(kb).exit_code == 0
    assert remote_git(remote, "rev-list", "--count", "gh-pages") == "1"
    assert "second build" in remote_git(remote, "show", "gh-pages:index.html")
    second = remote_git(remote, "rev-parse", "gh-pages")
    assert second != first
    (kb.site_dir / "index.html").write_text("<html><body>third build</body></html>\n", encoding="utf-8")
    assert publish(kb, "--keep-history").exit_code == 0
    assert remote_git(remote, "rev-list", "--count", "gh-pages") == "2"
    assert remote_git(remote, "rev-parse", "gh-pages^") == second


def test_publish_to_a_url_and_another_branch(kb: KBPaths, tmp_path: Path) -> None:
    other = bare(tmp_path / "other.git")
    result = publish(kb, "--remote", str(other), "--branch", "pages")
    assert result.exit_code == 0, result.output
    assert remote_git(other, "rev-list", "--count", "pages") == "1"
    assert remote_git(tmp_path / "origin.git", "branch", "--list") == ""


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--remote", "--upload-pack=touch /tmp/x"], "refused remote"),
        (["--branch", "a..b"], "refused branch"),
        (["--remote", "nowhere"], "could not push"),
    ],
)
def test_publish_refuses_bad_targets_with_one_line(kb: KBPaths, args: list[str], needle: str) -> None:
    result = publish(kb, *args)
    assert result.exit_code != 0
    assert needle in result.output and "Traceback" not in result.output


def test_publish_outside_a_git_repository(kb_root: Path) -> None:
    (kb_root / "site_src").mkdir()
    result = CliRunner().invoke(cli, ["--root", str(kb_root), "publish"])
    assert result.exit_code == 1 and "git repository" in result.output


def test_publish_builds_a_missing_site(tmp_path: Path) -> None:
    remote = bare(tmp_path / "origin.git")
    root = make_git_repo(
        tmp_path / "kb", {".gitignore": "site/\n.cache/\n", "deepkb.yml": "topics: []\n"}, origin=str(remote)
    )
    paths = KBPaths(root)
    add_topic(paths, "market-making", topic="Market making", tags=["trading"], report="Quotes on both sides.")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "research")
    result = publish(paths)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["built"] is True
    files = set(remote_git(remote, "ls-tree", "-r", "--name-only", "gh-pages").splitlines())
    assert "index.html" in files
    assert any(f.startswith("topics/market-making/") and f.endswith(".html") for f in files)
    assert not any(f.endswith(".json") and f.startswith("topics/") for f in files)  # workspace data stays out


def test_publish_refuses_the_knowledge_bases_own_branches(kb: KBPaths, tmp_path: Path) -> None:
    """Issue 22 #13: `--branch main` force-overwrote the branch the knowledge base lives on."""
    remote = tmp_path / "origin.git"
    git(kb.root, "push", "-q", "origin", "main")
    git(kb.root, "branch", "research")  # another branch holding site_src/
    git(kb.root, "fetch", "-q", "origin")
    git(kb.root, "checkout", "-q", "-b", "drafts")  # the current branch, not on the remote
    for branch, reason in [
        ("drafts", "is the branch this knowledge base is checked out on"),
        ("research", "holds"),
        ("main", "holds"),
    ]:
        result = publish(kb, "--branch", branch)
        assert result.exit_code != 0, branch
        assert f"refused branch {branch!r}: it {reason}" in result.output
        assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    git(kb.root, "branch", "-D", "-q", "main")  # known only as origin/main now: still refused
    assert (
        "holds the knowledge base's site_src/ (refs/remotes/origin/main)"
        in publish(kb, "--branch", "main").output
    )
    assert remote_git(remote, "ls-tree", "--name-only", "main").splitlines() == [".gitignore", "site_src"]
    assert publish(kb, "--branch", "gh-pages").exit_code == 0


def test_publish_says_which_knowledge_base_commit_it_published(kb: KBPaths, tmp_path: Path) -> None:
    head = git(kb.root, "rev-parse", "HEAD")
    said = CliRunner().invoke(cli, ["--root", str(kb.root), "publish"])
    assert said.exit_code == 0, said.output
    assert f"knowledge-base commit {head[:12]})" in said.output
    (kb.root / "site_src" / "index.md").write_text("# Home, edited\n", encoding="utf-8")
    said = CliRunner().invoke(cli, ["--root", str(kb.root), "publish"])
    assert f"knowledge-base commit {head[:12]} with uncommitted edits to site_src)" in said.output


def test_publish_before_the_first_commit_says_so(tmp_path: Path) -> None:
    remote = bare(tmp_path / "origin.git")
    root = tmp_path / "kb"
    (root / "site").mkdir(parents=True)
    (root / "site" / "index.html").write_text("<html></html>\n", encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    said = CliRunner().invoke(cli, ["--root", str(root), "publish", "--remote", str(remote)])
    assert said.exit_code == 0, said.output
    assert "(commit " in said.output and ", the knowledge base has no commit yet)" in said.output
    assert "no commit y)" not in said.output
