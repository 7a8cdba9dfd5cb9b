"""A sealed view of a repository we research: its objects and current commit, never its configuration.

git always reads `$GIT_DIR/config` (and whatever it includes), and that file decides which programs git
runs: gpg for `log.showSignature`, pagers, external diffs, filters, fsmonitor, hooks. A repository handed to
deepkb is untrusted, so git never gets its git directory. It gets a temporary one we build instead:

- `config` written by us (only the object format is carried over, read as text, never executed);
- copies of `HEAD`, the one branch file HEAD names, the tags, `packed-refs`, `shallow` and the index
  (regular files only, never through a symlink, never a FIFO or device), so nothing git does can write to
  the repository;
- the repository's object store, read through `GIT_OBJECT_DIRECTORY`.

No remote is configured in the view, so nothing is ever fetched from it.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from generator.store import open_regular, read_regular

# refs/heads/main and the like; anything else in HEAD (`ref: ../../etc/passwd`) is never opened
_BRANCH_REF = re.compile(r"^refs/(?:[A-Za-z0-9_][A-Za-z0-9._-]*/)*[A-Za-z0-9_][A-Za-z0-9._-]*$")
_OBJECT_ID = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
_COPY_LIMIT = 1 << 30  # bytes; an index or packed-refs past this is not a repository we can research
MAX_LOOSE_TAGS = 10_000  # tags not yet packed (a fetch writes each new one as its own file) copied at most


@dataclass(frozen=True)
class GitLayout:
    """Where a working tree's git data lives: `git_dir` (HEAD, index) and `common_dir` (objects, refs)."""

    git_dir: Path
    common_dir: Path


def find_layout(root: Path) -> GitLayout | None:
    """The git directory of the working tree at `root` (a `.git` folder or a `gitdir:` file), else None.

    A symlinked `.git` is not followed: it could point at another repository's history.
    """
    dot_git = root / ".git"
    try:
        st = os.lstat(dot_git)
    except OSError:
        return None
    if stat.S_ISDIR(st.st_mode):
        git_dir = dot_git
    elif stat.S_ISREG(st.st_mode):
        pointer = read_small(dot_git).strip()
        if not pointer.startswith("gitdir:"):
            return None
        git_dir = (root / pointer.removeprefix("gitdir:").strip()).resolve()
    else:
        return None
    common = read_small(git_dir / "commondir").strip()
    common_dir = (git_dir / common).resolve() if common else git_dir
    if not (common_dir / "objects").is_dir():
        return None
    return GitLayout(git_dir=git_dir, common_dir=common_dir)


@contextmanager
def sealed_view(root: Path, layout: GitLayout) -> Iterator[dict[str, str]]:
    """A temporary git directory that shows git `layout`'s objects and HEAD, and nothing it could run; yields
    the environment entries that point git at it instead of the repository."""
    with tempfile.TemporaryDirectory(prefix="deepkb-git-") as tmp:
        view = Path(tmp) / "git"
        (view / "refs" / "heads").mkdir(parents=True)
        _write_config(view, object_format(layout.common_dir / "config"))
        _copy_head(layout, view)
        _copy_tags(layout, view)
        for name in ("packed-refs", "shallow"):
            _copy_regular(layout.common_dir / name, view / name)
        _copy_regular(layout.git_dir / "index", view / "index")
        for shared in layout.git_dir.glob("sharedindex.*"):  # a split index keeps its base beside it
            _copy_regular(shared, view / shared.name)
        yield {
            "GIT_DIR": str(view),
            "GIT_WORK_TREE": str(root),
            "GIT_OBJECT_DIRECTORY": str(layout.common_dir / "objects"),
        }


def object_format(config: Path) -> str:
    """`extensions.objectformat` of a git config file read as text ("sha1" when absent or unreadable)."""
    value = (config_value(config, "extensions", "objectformat") or "sha1").lower()
    return value if value in {"sha1", "sha256"} else "sha1"


def config_value(config: Path, section: str, key: str) -> str | None:
    """The first `key` in `[section]` of a git config file, read as text: never executed, includes not
    followed. `section` is lower case with one space before a quoted subsection (`remote "origin"`)."""
    current = ""
    for line in read_small(config).splitlines():
        line = line.strip()
        if line.startswith("["):
            current = re.sub(r"\s+", " ", line.strip("[]")).lower()
        elif current == section and re.match(rf"(?i){re.escape(key)}\s*=", line):
            return line.split("=", 1)[1].strip().strip('"')
    return None


def _write_config(view: Path, fmt: str) -> None:
    version = "0" if fmt == "sha1" else "1"
    text = f"[core]\n\trepositoryformatversion = {version}\n\tbare = false\n"
    if fmt != "sha1":
        text += f"[extensions]\n\tobjectformat = {fmt}\n"
    (view / "config").write_text(text, encoding="utf-8")


def _copy_head(layout: GitLayout, view: Path) -> None:
    head = read_small(layout.git_dir / "HEAD").strip()
    if _OBJECT_ID.match(head):  # detached
        (view / "HEAD").write_text(head + "\n", encoding="ascii")
        return
    ref = head.removeprefix("ref:").strip() if head.startswith("ref:") else ""
    if not _BRANCH_REF.match(ref) or ".." in ref:
        ref = "refs/heads/unreadable-head"  # git then reports an unborn branch, as for a fresh repository
    (view / "HEAD").write_text(f"ref: {ref}\n", encoding="ascii")
    target = view / ref
    target.parent.mkdir(parents=True, exist_ok=True)
    _copy_regular(layout.common_dir / ref, target)


def _copy_tags(layout: GitLayout, view: Path) -> None:
    """Copy the loose tag files under `refs/tags` (a release a fetch has just brought), never descending
    through a symlinked folder (`refs` or `refs/tags` itself included); names that are no ref's are passed
    over."""
    tags = layout.common_dir / "refs" / "tags"
    if any(folder.is_symlink() for folder in (tags.parent, tags)):
        return
    copied = 0
    for folder, _, names in os.walk(tags, followlinks=False):
        for name in names:
            ref = Path(folder, name).relative_to(layout.common_dir).as_posix()
            if not _BRANCH_REF.match(ref) or ".." in ref or copied >= MAX_LOOSE_TAGS:
                continue
            (view / ref).parent.mkdir(parents=True, exist_ok=True)
            _copy_regular(layout.common_dir / ref, view / ref)
            copied += 1


def _copy_regular(source: Path, target: Path) -> None:
    """Copy `source` if it is a regular file (not a symlink, FIFO or device) of a sane size."""
    with ExitStack() as stack:
        try:
            src = stack.enter_context(open_regular(source, _COPY_LIMIT))
        except OSError:
            return  # not a regular file of a sane size: not copied (the target cannot be written: raised)
        with open(target, "wb") as out:
            shutil.copyfileobj(src, out)


def read_small(path: Path, limit: int = 1 << 20) -> str:
    """A small text file as text ("" when missing, a symlink, not a regular file, larger than `limit` or
    unreadable): a FIFO cannot block us, a link cannot point us elsewhere, a huge file is not read."""
    try:
        return read_regular(path, limit).decode("utf-8", errors="replace")
    except OSError:
        return ""
