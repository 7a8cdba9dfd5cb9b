"""The one place that writes the knowledge base: paths, atomic files, frontmatter, JSON and the workspace lock.

Stages return data; this module writes it. Every write goes to a temporary file in the target's directory,
is fsynced, then replaces the target, so a killed run leaves either the old file or the new one, never a
torn one; the folder is synced after each replacement, or once at the end of a batch of writes
(`folders_synced_once`). A write whose bytes equal what is on disk is skipped, so a re-run with nothing new changes no file.
A write that fails (disk full, read-only file system, no permission) removes its temporary file and raises
StoreError naming the path and the fix. The libraries behind frontmatter, temporary files and the lock are
imported by the functions that use them, so a command that only reads paths does not load them.
"""

from __future__ import annotations

import errno
import glob
import json
import os
import re
import stat
import threading
import unicodedata
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from . import jsonbounds
from .errors import ConfigError, LockHeldError, StoreError, UsageError

if TYPE_CHECKING:
    import sqlite3

CONFIG_NAME = "deepkb.yml"


@dataclass(frozen=True)
class KBPaths:
    """Where everything of one knowledge base lives, derived from its root folder."""

    root: Path

    @property
    def config_file(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def site_src(self) -> Path:
        return self.root / "site_src"

    @property
    def site_dir(self) -> Path:
        return self.root / "site"

    @property
    def mkdocs_yml(self) -> Path:
        return self.root / "mkdocs.yml"

    @property
    def templates_dir(self) -> Path:
        """Its own page templates, each replacing deepkb's of the same name."""
        return self.root / "templates"

    @property
    def cache_dir(self) -> Path:
        """Clones, LLM replies, sessions and search indexes: never published, safe to delete."""
        override = os.environ.get("DEEPKB_CACHE_DIR")
        return Path(override) if override else self.root / ".cache" / "deepkb"

    @property
    def repos_dir(self) -> Path:
        return self.site_src / "repos"

    @property
    def topics_dir(self) -> Path:
        return self.site_src / "topics"

    @property
    def lock_file(self) -> Path:
        return self.cache_dir / "workspace.lock"

    def repo_dir(self, owner: str, repo: str) -> Path:
        owner_slug, repo_slug = slugify(owner, keep_case=True), slugify(repo, keep_case=True)
        return safe_join(self.repos_dir, owner_slug, repo_slug, root=self.root)

    def topic_dir(self, slug: str) -> Path:
        return safe_join(self.topics_dir, slugify(slug), root=self.root)

    def entry_dir(self, entry_id: str) -> Path:
        """The workspace folder of `repo:<owner>/<repo>` or `topic:<slug>`; any other id is a UsageError."""
        kind, _, name = entry_id.partition(":")
        parts = name.split("/")
        if all(_ID_SEGMENT.match(part) for part in parts):
            if kind == "repo" and len(parts) == 2:
                return safe_join(self.repos_dir, *parts, root=self.root)
            if kind == "topic" and len(parts) == 1:
                return safe_join(self.topics_dir, *parts, root=self.root)
        raise UsageError(
            f"{entry_id!r} is not an entry id", hint="give a repo:<owner>/<repo> or topic:<slug> id"
        )


# --------------------------------------------------------------------------- names and paths


_ID_SEGMENT = re.compile(r"^\w[\w.\-]*$")  # one part of an entry id, as slugify makes them
_SLUG_DROP = re.compile(r"[^\w\-.]+", re.UNICODE)


def slugify(text: str, *, max_len: int = 60, keep_case: bool = False) -> str:
    """A file-name-safe slug of untrusted text: letters (any script), digits, '-', '_' and inner '.'."""
    text = unicodedata.normalize("NFKC", text).strip()
    if not keep_case:
        text = text.lower()
    text = _SLUG_DROP.sub("-", text.replace("/", "-").replace("\\", "-"))
    text = re.sub(r"-{2,}", "-", text).strip("-._")
    return text[:max_len].strip("-._") or "untitled"


def safe_join(base: Path, *parts: str, root: Path | None = None) -> Path:
    """Join `parts` below `base`, refusing anything that would land outside it (untrusted text is never a path).

    A symbolic link on the way is refused too: `base` itself, every folder below it and, given `root`, every
    folder from `root` down to `base` (a site_src/topics linked elsewhere is not inside the knowledge base)."""
    target = base.joinpath(*parts)
    top = root if root is not None and base.is_relative_to(root) else base
    on_the_way = target.relative_to(top).parts if target.is_relative_to(top) else ()
    for depth in range(len(on_the_way) + 1):
        folder = top.joinpath(*on_the_way[:depth])
        if (depth or top is base) and folder.is_symlink():
            raise StoreError(
                f"refused to follow a symbolic link in the knowledge base: {folder}",
                hint="replace the link with a real folder",
            )
    try:
        target.resolve().relative_to(base.resolve())
    except ValueError:
        raise StoreError(f"refused to write outside the knowledge base: {'/'.join(parts)!r}") from None
    return target


# --------------------------------------------------------------------------- reading site_src/
# The one gate every reader of site_src/ lists folders and pages through. A knowledge base is a git
# repository and git stores links, so a shared one (or a pull request to one) can point site_src/repos, a
# topic or a page anywhere; nothing below site_src/ is ever reached through a link, at any depth.


def site_folder(site_src: Path, rel: str = "") -> Path | None:
    """site_src/`rel` when it and every folder from site_src/ down to it is a real folder (None otherwise:
    missing, a link, a file, or a `rel` that is absolute or climbs with '..')."""
    parts = rel.split("/") if rel else []
    if any(part in ("", ".", "..") for part in parts):
        return None
    current = site_src
    for part in ("", *parts):
        current = current / part if part else current
        try:
            if not stat.S_ISDIR(os.lstat(current).st_mode):
                return None
        except OSError:
            return None
    return current


def site_subfolders(site_src: Path, rel: str = "") -> list[str]:
    """The names of the real folders in site_src/`rel`, sorted (links are never listed)."""
    folder = site_folder(site_src, rel)
    return [entry.name for entry in _entries(folder) if entry.is_dir(follow_symlinks=False)] if folder else []


def site_files(site_src: Path, rel: str = "", pattern: str = "*") -> list[Path]:
    """The regular files in site_src/`rel` whose names match `pattern`, sorted (links, FIFOs, devices and
    anything in a linked folder are never listed)."""
    folder = site_folder(site_src, rel)
    found = [e for e in _entries(folder) if e.is_file(follow_symlinks=False)] if folder else []
    return [Path(entry.path) for entry in found if fnmatchcase(entry.name, pattern)]


_WORKSPACE_DEPTH = {"repos": 2, "topics": 1}  # repos/<owner>/<repo>, topics/<slug>


def site_workspaces(site_src: Path, section: str) -> list[str]:
    """Every entry workspace below site_src/`section` ("repos" or "topics") as its path below site_src/
    (`repos/acme/sample`, `topics/widgets`), sorted; real folders only."""
    rels = [section]
    for _ in range(_WORKSPACE_DEPTH[section]):
        rels = [f"{rel}/{name}" for rel in rels for name in site_subfolders(site_src, rel)]
    return rels


def site_file(site_src: Path, rel: str) -> Path | None:
    """site_src/`rel` when it is a regular file reached through real folders only, else None."""
    folder_rel, _, name = rel.rpartition("/")
    folder = site_folder(site_src, folder_rel)
    if folder is None or name in ("", ".", ".."):
        return None
    try:
        return folder / name if stat.S_ISREG(os.lstat(folder / name).st_mode) else None
    except OSError:
        return None


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda entry: entry.name)
    except OSError:
        return []


def remove_stale(folder: Path, keep: Collection[str], *patterns: str) -> None:
    """Delete the files (and links: the link, never what it points at) of `folder`, a real folder, whose
    names match one of `patterns` and are not in `keep`: pages an earlier run wrote that must not linger."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for entry in _entries(folder):
        named = any(fnmatchcase(entry.name, pattern) for pattern in patterns or ("*.md",))
        if named and entry.name not in keep and not entry.is_dir(follow_symlinks=False):
            Path(entry.path).unlink(missing_ok=True)


# --------------------------------------------------------------------------- atomic writes


def write_bytes(path: Path, data: bytes) -> bool:
    """Atomically write `data` to `path`. Returns False (and touches nothing) when the bytes are unchanged."""
    with suppress(OSError):
        if path.is_file() and path.read_bytes() == data:
            return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _replace_atomically(path, data)
    except OSError as exc:
        raise storage_error(path, exc) from None
    _folder_written(path.parent)
    return True


def _replace_atomically(path: Path, data: bytes) -> None:
    import tempfile  # it loads shutil and its compressors: only a command that writes pays for them

    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        stale.unlink(missing_ok=True)  # left by a run killed mid-write (we hold the workspace lock)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_STORAGE_PROBLEMS = {
    errno.ENOSPC: ("the disk is full", "free space on that disk and run again; finished work is kept"),
    errno.EDQUOT: ("the disk quota is used up", "free space or raise the quota, then run again"),
    errno.EROFS: ("the file system is read-only", "put the knowledge base on a writable disk"),
    errno.EACCES: ("permission denied", "make the folder writable by this user"),
    errno.EPERM: ("operation not permitted", "make the folder writable by this user"),
}
STORAGE_ERRNOS = frozenset(_STORAGE_PROBLEMS)


def storage_error(path: Path | str, exc: OSError, *, action: str = "write") -> StoreError:
    """An OSError while writing (or `action`-ing) `path` as one line: what happened to which file, what to do."""
    problem, fix = _STORAGE_PROBLEMS.get(exc.errno or 0, (exc.strerror or str(exc), None))
    return StoreError(f"cannot {action} {path}: {problem}", hint=fix)


def write_text(path: Path, text: str) -> bool:
    return write_bytes(path, text.encode("utf-8"))


def write_json(path: Path, data: Any) -> bool:
    return write_text(
        path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False, default=str) + "\n"
    )


def read_json(path: Path, default: Any = None) -> Any:
    try:
        return jsonbounds.loads(read_regular_text(path))  # a planted 100,000-deep record is one line
    except FileNotFoundError:
        return default
    except (OSError, ValueError) as exc:
        raise StoreError(f"cannot read {path}: {exc}", hint="delete the file to rebuild it") from exc


MAX_READ_BYTES = 20_000_000
"""The largest page or record the store reads back (and the site gate publishes); deepkb's stay far below."""


def read_regular_text(path: Path) -> str:
    """The UTF-8 text of `path` if it is a regular file of at most MAX_READ_BYTES (see `open_regular`)."""
    return read_regular(path, MAX_READ_BYTES).decode("utf-8")


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of `path` if it is a regular file of at most `limit` bytes (see `open_regular`)."""
    with open_regular(path, limit) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:  # it grew after it was measured
        raise OSError(errno.EFBIG, _larger_than(limit))
    return data


@contextmanager
def open_regular(path: str | Path, limit: int) -> Iterator[BinaryIO]:
    """`path` open for reading if it is a regular file of at most `limit` bytes: a link, FIFO or device
    planted where a file should be (→ /dev/zero, → /etc/passwd) is an OSError (ELOOP, EINVAL, EFBIG), never
    followed, read or waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(exc.errno, "a symbolic link, not a regular file") from None
        raise
    with os.fdopen(fd, "rb") as handle:
        found = os.fstat(handle.fileno())
        if not stat.S_ISREG(found.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if found.st_size > limit:
            raise OSError(errno.EFBIG, _larger_than(limit))
        yield handle


def _larger_than(limit: int) -> str:
    return f"larger than {limit / 1_000_000:g} MB" if limit >= 1_000_000 else f"larger than {limit:,} bytes"


class _Batch(threading.local):
    folders: dict[Path, None] | None = None  # the folders a batch of this thread's writes replaced files in


_batch = _Batch()


@contextmanager
def folders_synced_once() -> Iterator[None]:
    """Writes that each sync their folder once, at the end, rather than after every file: the pages of a
    site, dozens to a folder. Each file's bytes are still synced before it replaces the old one, so no
    file is ever torn; a crash before the end loses only replacements not yet synced, the old file staying
    whole. Other threads' writes sync their folder at once, as outside a batch; a batch inside a batch
    joins the outer one."""
    if _batch.folders is not None:
        yield
        return
    folders: dict[Path, None] = {}
    _batch.folders = folders
    try:
        yield
    finally:
        _batch.folders = None
        for folder in folders:
            _fsync_dir(folder)


def _folder_written(folder: Path) -> None:
    """A file in `folder` was replaced: its folder synced now, or at the end of this thread's batch."""
    if _batch.folders is None:
        _fsync_dir(folder)
    else:
        _batch.folders[folder] = None


def _fsync_dir(directory: Path) -> None:
    with suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def database_error(path: Path | str, exc: sqlite3.DatabaseError) -> StoreError | None:
    """sqlite's "disk is full" or "read-only" as the same line as any other failed write; None otherwise."""
    said = str(exc).lower()
    if "disk is full" in said:
        return storage_error(path, OSError(errno.ENOSPC, "disk full"))
    if "readonly" in said or "read-only" in said:
        return storage_error(path, OSError(errno.EROFS, "read-only"))
    return None


# --------------------------------------------------------------------------- frontmatter


def dump_frontmatter(meta: Mapping[str, Any], body: str) -> str:
    """A markdown document with `meta` as YAML frontmatter, always through a safe dump (never string formatting)."""
    import yaml

    header = yaml.safe_dump(
        dict(meta), allow_unicode=True, sort_keys=False, default_flow_style=False, width=1000
    )
    body = body if body.endswith("\n") else body + "\n"
    return f"---\n{header}---\n\n{body}"


def write_page(path: Path, meta: Mapping[str, Any], body: str) -> bool:
    return write_text(path, dump_frontmatter(meta, body))


def read_page(path: Path) -> tuple[dict[str, Any], str]:
    """Frontmatter and body of a page written by `write_page`, or planted by anyone: the frontmatter is
    loaded within config's bounds (nesting depth, values after alias expansion), so a bomb is one line."""
    import frontmatter

    from .config import load_bounded_yaml

    class BoundedHandler(frontmatter.YAMLHandler):  # type: ignore[misc]
        def load(self, fm: str, **kwargs: object) -> Any:
            return load_bounded_yaml(fm, f"{path} (frontmatter)")

    try:
        text = read_regular_text(path).strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(
            f"cannot read page {path}: {exc.strerror if isinstance(exc, OSError) else exc}"
        ) from exc
    handler = BoundedHandler()
    if not handler.detect(text):
        return {}, text
    try:
        metadata, content = frontmatter.parse(text, handler=handler)
    except ConfigError as exc:  # a broken, too deep or alias-bomb frontmatter: the page is refused
        raise StoreError(f"cannot read page {exc.message}", hint=exc.hint) from None
    return dict(metadata), content


def page_meta(path: Path) -> Mapping[str, object]:
    """A page's frontmatter; {} when it cannot be read (a torn or hand-broken page still counts, without it)."""
    try:
        return read_page(path)[0]
    except StoreError:
        return {}


# --------------------------------------------------------------------------- lock


@contextmanager
def workspace_lock(paths: KBPaths) -> Iterator[None]:
    """Hold the knowledge base's write lock for the duration, or fail at once if another run holds it.

    The lock is an OS file lock (flock), so a killed holder releases it with its process.
    """
    import filelock

    lock = filelock.FileLock(str(paths.lock_file), timeout=0)
    try:
        paths.lock_file.parent.mkdir(parents=True, exist_ok=True)
        lock.acquire()
    except filelock.Timeout:  # an OSError too, so it is caught first
        raise LockHeldError(
            f"another deepkb run is writing {paths.root}",
            hint="wait for it to finish; the lock frees itself if that run dies",
        ) from None
    except OSError as exc:
        raise storage_error(paths.lock_file, exc) from None
    try:
        yield
    finally:
        lock.release()
