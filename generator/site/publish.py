"""Deploy the built site/ to a GitHub Pages branch, like `mkdocs gh-deploy`, without touching the work tree.

The commit is made with git plumbing in the knowledge base's own repository (so its remotes and credentials
apply) through a throw-away index file: the current branch, the real index and the work tree are never
touched. By default the pages branch keeps no history (one forced commit per publish), because every
deploy rewrites the whole site and old builds only make clones slower.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..config import Config
from ..errors import StoreError, UsageError
from ..store import KBPaths

NO_COMMIT = "(no commit yet)"
GIT_TIMEOUT = 600.0  # seconds; a push of a large site over a slow link


class PublishError(StoreError):
    """A git step of publishing failed (push refused, no credentials, remote missing)."""


@dataclass(frozen=True)
class PublishResult:
    commit: str
    revision: str
    remote: str
    branch: str
    files: int
    built: bool

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def publish_site(
    paths: KBPaths,
    config: Config,
    *,
    remote: str = "origin",
    branch: str = "gh-pages",
    keep_history: bool = False,
    force_build: bool = False,
) -> PublishResult:
    """Build site/ if it is missing or older than site_src/, commit it onto `branch` and push it to `remote`."""
    _check_ref_names(remote, branch)
    _git(paths.root, "rev-parse", "--show-toplevel", what="find the knowledge base's git repository")
    _refuse_source_branch(paths.root, remote, branch)
    revision = kb_revision(paths.root)
    built = force_build or site_is_stale(paths)
    if built:
        from .build import build_site
        from .render import render_site

        render_site(paths, config)
        build_site(paths, config)
    (paths.site_dir / ".nojekyll").write_bytes(b"")  # Pages must serve MkDocs' underscore folders as they are
    tree, files = _write_tree(paths)
    parent = _remote_tip(paths.root, remote, branch) if keep_history else None
    message = f"Deployed {revision} with deepkb {__version__}"
    commit = _commit_tree(paths.root, tree, parent, message)
    push = ["push", "--quiet"] + ([] if keep_history else ["--force"])
    _git(paths.root, *push, remote, f"{commit}:refs/heads/{branch}", what=f"push to {remote} {branch}")
    return PublishResult(commit, revision, remote, branch, files, built)


def revision_phrase(revision: str) -> str:
    """`kb_revision` as the publish line says it: "knowledge-base commit 0123456789ab (with uncommitted
    edits)", or "the knowledge base has no commit yet"."""
    if revision == NO_COMMIT:
        return "the knowledge base has no commit yet"
    commit, dirty, _ = revision.partition("+dirty")
    return f"knowledge-base commit {commit[:12]}" + (" with uncommitted edits to site_src" if dirty else "")


def kb_revision(root: Path) -> str:
    """The knowledge base's commit (`git rev-parse HEAD`), marked `+dirty` when site_src has uncommitted edits."""
    try:
        head = _git(root, "rev-parse", "HEAD", what="read HEAD")
    except PublishError:
        return NO_COMMIT
    dirty = _git(root, "status", "--porcelain", "--", "site_src", what="read the status of site_src")
    return f"{head}+dirty" if dirty else head


def site_is_stale(paths: KBPaths) -> bool:
    """True when site/ was never built or a page in site_src/ changed after the last build."""
    index = paths.site_dir / "index.html"
    if not index.is_file():
        return True
    built_at = index.stat().st_mtime_ns
    return any(p.stat().st_mtime_ns > built_at for p in paths.site_src.rglob("*") if p.is_file())


def _check_ref_names(remote: str, branch: str) -> None:
    # both land in git's argument vector: a leading '-' would be read as an option
    if not remote or remote.startswith("-") or any(c.isspace() for c in remote):
        raise UsageError(
            f"refused remote {remote!r}", hint="give a remote name like origin, or a repository URL"
        )
    if (
        not branch
        or branch.startswith("-")
        or ".." in branch
        or any(c.isspace() or c in "~^:?*[\\" for c in branch)
    ):
        raise UsageError(f"refused branch name {branch!r}", hint="e.g. gh-pages")


def _refuse_source_branch(root: Path, remote: str, branch: str) -> None:
    """Refuse to force a built site over the knowledge base itself: the branch checked out here, or a branch
    (local, or the remote's as last fetched) whose tree holds site_src/."""
    current = _git_or_none(root, "symbolic-ref", "--quiet", "--short", "HEAD")
    if branch == current:
        raise UsageError(
            f"refused branch {branch!r}: it is the branch this knowledge base is checked out on",
            hint="publish to a pages branch, e.g. --branch gh-pages",
        )
    for ref in (f"refs/heads/{branch}", f"refs/remotes/{remote}/{branch}"):
        if _git_or_none(root, "cat-file", "-t", f"{ref}:site_src") == "tree":
            raise UsageError(
                f"refused branch {branch!r}: it holds the knowledge base's site_src/ ({ref})",
                hint="publish to a pages branch, e.g. --branch gh-pages",
            )


def _git_or_none(root: Path, *args: str) -> str | None:
    try:
        return _git(root, *args, what="read a reference")
    except PublishError:
        return None


def _write_tree(paths: KBPaths) -> tuple[str, int]:
    """A tree object of everything in site/, staged through a temporary index file."""
    if not (paths.site_dir / "index.html").is_file():
        raise UsageError(f"{paths.site_dir} holds no built site", hint="run `deepkb site` first")
    git_dir = _git(paths.root, "rev-parse", "--absolute-git-dir", what="find the git directory")
    site = paths.site_dir
    with tempfile.TemporaryDirectory(prefix="deepkb-publish-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index"), "GIT_DIR": git_dir, "GIT_WORK_TREE": str(site)}
        # --force: the knowledge base's .gitignore (which ignores site/) must not drop built files
        _git(site, "add", "--all", "--force", "--", ".", env=env, what="stage site/")
        tree = _git(site, "write-tree", env=env, what="write the site tree")
        listed = _git(site, "ls-files", env=env, what="list the site tree")
    return tree, len(listed.splitlines())


def _remote_tip(root: Path, remote: str, branch: str) -> str | None:
    """The pages branch's current commit on the remote (fetched), or None when it does not exist yet."""
    listing = _git(root, "ls-remote", "--heads", remote, f"refs/heads/{branch}", what=f"list {remote}")
    if not listing.strip():
        return None
    _git(
        root, "fetch", "--quiet", "--no-tags", remote, f"refs/heads/{branch}", what=f"fetch {remote} {branch}"
    )
    return _git(root, "rev-parse", "FETCH_HEAD", what="read the fetched pages branch")


def _commit_tree(root: Path, tree: str, parent: str | None, message: str) -> str:
    env: dict[str, str] = {}
    if not _git_or_none(root, "config", "--get", "user.email") and "GIT_COMMITTER_EMAIL" not in os.environ:
        # a CI runner or a fresh machine has no identity; the pages commit still needs one
        env = {
            "GIT_AUTHOR_NAME": "deepkb",
            "GIT_AUTHOR_EMAIL": "deepkb@localhost",
            "GIT_COMMITTER_NAME": "deepkb",
            "GIT_COMMITTER_EMAIL": "deepkb@localhost",
        }
    args = ["commit-tree", tree, "-m", message] + (["-p", parent] if parent else [])
    return _git(root, *args, env=env, what="commit the site")


def _git(root: Path, *args: str, what: str, env: dict[str, str] | None = None) -> str:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            env={**os.environ, **(env or {})},
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PublishError(f"publish: could not {what}: {exc}") from None
    if done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or ["git exited with an error"])[-1]
        hint = (
            "publish needs the knowledge base in a git repository with a remote"
            if "not a git" in detail
            else None
        )
        raise PublishError(f"publish: could not {what}: {detail}", hint=hint)
    return done.stdout.strip()
