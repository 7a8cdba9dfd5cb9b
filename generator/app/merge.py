"""`deepkb merge`: fold the entries researched in other checkouts (CI shard jobs) into this knowledge base.

An entry (a repository or topic workspace) absent here is copied in, a strictly newer one replaces ours, an
identical or older one is left alone; the same version with other content is a conflict, refused before any
write. Versions are ISO dates (a repository's revision date then `generated`; a topic's `updated_at`); a
topic's raw pages are not compared (the listing rebuild re-renders them). The file carrying the version is
written last, so a merge stopped half way is finished by running it again.

An incoming folder passes the site's own gate first (site/gate.py: no links, only published file kinds,
bounded sizes and frontmatter), and a version dated in the future is refused: it would never be replaced.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DeepkbError, UsageError
from ..kb.index import ENTRY_FILE
from ..site.gate import check_site_source
from ..store import KBPaths, page_meta, read_json, safe_join, write_bytes

# written last, in this order: they say which version a folder holds (the entry record after its page)
_VERSION_FILES = ("index.md", "_meta.json", ENTRY_FILE)


@dataclass(frozen=True)
class Found:
    """One entry's folder in one checkout, with its version and a digest of every file in it."""

    entry_id: str
    folder: Path
    version: tuple[str, ...]
    digest: str


@dataclass
class MergeReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{len(self.added)} added, {len(self.updated)} updated, {len(self.unchanged)} unchanged,"
            f" {len(self.kept)} kept (ours newer)"
        )


def merge_checkouts(paths: KBPaths, sources: Sequence[Path]) -> MergeReport:
    """Fold every entry of `sources` (knowledge-base roots or their site_src/) into `paths`."""
    incoming: dict[str, Found] = {}
    for source in sources:
        site_src = site_src_of(source)
        check_site_source(site_src)
        for found in entries_in(site_src):
            _refuse_future(found)
            incoming[found.entry_id] = _newer(incoming.get(found.entry_id), found)
    report, plan = MergeReport(), []
    for entry_id, found in sorted(incoming.items()):
        ours = _ours(paths, entry_id)
        if ours is None:
            report.added.append(entry_id)
        elif ours.digest == found.digest:
            report.unchanged.append(entry_id)
            continue
        elif _newer(ours, found) is ours:
            report.kept.append(entry_id)
            continue
        else:
            report.updated.append(entry_id)
        plan.append(found)
    for found in plan:
        copy_entry(found.folder, paths.entry_dir(found.entry_id))
    return report


def site_src_of(source: Path) -> Path:
    """A checkout's site_src/, or `source` itself when it is one (holds repos/ or topics/)."""
    if (source / "site_src").is_dir():
        return source / "site_src"
    if (source / "repos").is_dir() or (source / "topics").is_dir():
        return source
    raise UsageError(
        f"{source} holds no researched entries (no site_src/, repos/ or topics/)",
        hint="pass the root of a checkout that ran `deepkb build --shard` or `deepkb refresh --shard`",
    )


def entries_in(site_src: Path) -> Iterable[Found]:
    """Every repository and topic workspace below `site_src`, symlinks ignored."""
    repos, topics = site_src / "repos", site_src / "topics"
    pages = sorted(repos.glob("*/*/index.md")) if repos.is_dir() else []
    folders = sorted(p for p in topics.iterdir() if p.is_dir()) if topics.is_dir() else []
    found = [_found(f"repo:{p.parent.parent.name}/{p.parent.name}", p.parent, repos) for p in pages]
    found += [_found(f"topic:{folder.name}", folder, topics) for folder in folders]
    yield from (entry for entry in found if entry is not None)


def _found(entry_id: str, folder: Path, base: Path) -> Found | None:
    """The entry in `folder`, or None when the folder is a symlink or holds no version-bearing file."""
    if folder.is_symlink() or folder.parent.is_symlink() or base not in folder.parents:
        return None
    if entry_id.startswith("repo:"):
        if not (folder / "index.md").is_file():
            return None
        meta = page_meta(folder / "index.md")
        version = (_text(meta.get("revision_date")), _text(meta.get("generated")))
    else:
        if not any((folder / name).is_file() for name in _VERSION_FILES):
            return None
        landing = page_meta(folder / "index.md")
        version = (_text(_json(folder / "_meta.json").get("updated_at")), _text(landing.get("generated")))
    return Found(entry_id, folder, version, _digest(folder))


def copy_entry(source: Path, target: Path) -> None:
    """Make `target` hold exactly `source`'s files. The version-bearing files are written last, after the
    files the newer copy no longer has are removed: until then the entry still reads as the older version."""
    files = sorted(_files(source))
    versioned = [rel for rel in _VERSION_FILES if rel in files]
    for rel in (rel for rel in files if rel not in _VERSION_FILES):
        write_bytes(safe_join(target, *rel.split("/")), (source / rel).read_bytes())
    wanted = set(files)
    for rel in sorted(_files(target)) if target.is_dir() else []:
        if rel not in wanted:
            (target / rel).unlink()
    for rel in versioned:
        write_bytes(safe_join(target, rel), (source / rel).read_bytes())
    for folder in sorted((p for p in target.rglob("*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()


# --------------------------------------------------------------------------- comparing


def _newer(current: Found | None, other: Found) -> Found:
    """The newer of two copies of one entry; refuses two different copies of the same version."""
    if current is None or current.digest == other.digest or other.version > current.version:
        return other
    if current.version > other.version:
        return current
    shown = " / ".join(v for v in other.version if v) or "no date"
    raise UsageError(
        f"cannot merge {other.entry_id}: {current.folder} and {other.folder} differ"
        f" but carry the same version ({shown})",
        hint="keep one of them: delete the other folder, or research the entry again",
    )


def _refuse_future(found: Found) -> None:
    """A version dated after tomorrow (any time zone's today) is planted or broken, not research."""
    tomorrow = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1)).isoformat()
    for value in found.version:
        if re.match(r"\d{4}-\d{2}-\d{2}", value) and value[:10] > tomorrow:
            raise UsageError(
                f"cannot merge {found.entry_id}: {found.folder} is dated {value[:10]}, in the future",
                hint="research the entry again, or correct the date in its files",
            )


def _ours(paths: KBPaths, entry_id: str) -> Found | None:
    target = paths.entry_dir(entry_id)
    base = paths.repos_dir if entry_id.startswith("repo:") else paths.topics_dir
    return _found(entry_id, target, base) if target.is_dir() else None


# a topic's raw pages are rendered from its source records plus the "cited by" links of the whole knowledge
# base, which the listing rebuild after a merge refreshes; the entry record restates the landing page (and a
# copy written before records has none until it is indexed): they say nothing about which copy is which
_DERIVED = re.compile(rf"raw/[^/]+\.md|{re.escape(ENTRY_FILE)}")


def _digest(folder: Path) -> str:
    sha = hashlib.sha256()
    for rel in sorted(r for r in _files(folder) if not _DERIVED.fullmatch(r)):
        sha.update(rel.encode() + b"\0" + hashlib.sha256((folder / rel).read_bytes()).digest())
    return sha.hexdigest()


def _files(folder: Path) -> Iterable[str]:
    """Regular files below `folder` as posix paths; symlinks (to files or folders) are never followed."""
    for below, _, names in os.walk(folder):  # os.walk does not descend into linked folders
        for path in (Path(below, name) for name in names):
            if path.is_file() and not path.is_symlink():
                yield path.relative_to(folder).as_posix()


def _json(path: Path) -> dict[str, object]:
    try:
        data = read_json(path, default={})
    except DeepkbError:
        return {}
    return data if isinstance(data, dict) else {}


def _text(value: object) -> str:
    if value is None:
        return ""
    return value.isoformat() if hasattr(value, "isoformat") else str(value).strip()
