"""The knowledge store: atomic writes, frontmatter round-trips, safe paths and the workspace lock."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import synced_folders

from generator import store
from generator.cli import cli
from generator.errors import LockHeldError, StoreError
from generator.kb import search
from generator.kb.index import update_index


def test_write_text_is_atomic_and_skips_unchanged(tmp_path: Path) -> None:
    target = tmp_path / "a" / "page.md"
    assert store.write_text(target, "one") is True
    first = target.stat().st_mtime_ns
    assert store.write_text(target, "one") is False  # same bytes: not rewritten
    assert target.stat().st_mtime_ns == first
    assert store.write_text(target, "two") is True
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["page.md"]  # no temp file left behind


def test_failed_write_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "page.md"
    store.write_text(target, "old content")

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(StoreError, match="cannot write"):
        store.write_text(target, "new content")
    assert target.read_text() == "old content"
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]


def test_killed_writer_never_tears_the_file(tmp_path: Path) -> None:
    """A writer killed mid-loop leaves every file either old or new, never partial."""
    target = tmp_path / "big.md"
    store.write_text(target, "A" * 1_000_000)
    script = textwrap.dedent(
        f"""
        import os, signal
        from pathlib import Path
        from generator import store
        for i in range(200):
            store.write_text(Path({str(target)!r}), ("B" if i % 2 else "C") * 1_000_000)
            if i == 50:
                os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True)
    assert proc.returncode != 0
    text = target.read_text()
    assert len(text) == 1_000_000 and len(set(text)) == 1


def test_frontmatter_round_trips_hostile_values(tmp_path: Path) -> None:
    meta = {
        "title": "line one\n---\ntitle: injected\nother: 1",
        "description": '"><script>alert(1)</script>',
        "tags": ["<img src=x onerror=alert(1)>", "交易"],
        "generated": "2026-11-22",
        "shards": 3,
    }
    body = "Body\n---\nkey: value\n---\nmore"
    path = tmp_path / "p.md"
    store.write_page(path, meta, body)
    read_meta, read_body = store.read_page(path)
    assert read_meta == meta
    assert read_body.strip() == body


def test_safe_join_refuses_escape(tmp_path: Path) -> None:
    assert store.safe_join(tmp_path, "a", "b.md") == tmp_path / "a" / "b.md"
    with pytest.raises(StoreError):
        store.safe_join(tmp_path, "..", "etc", "passwd")
    with pytest.raises(StoreError):
        store.safe_join(tmp_path, "/etc/passwd")


def test_safe_join_refuses_a_symlinked_top_folder_or_one_below_it(tmp_path: Path) -> None:
    """Issue 22 #4: resolving the base made a site_src/topics linked elsewhere count as inside."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "victim").mkdir(parents=True)
    paths = store.KBPaths(tmp_path / "kb")
    paths.site_src.mkdir(parents=True)
    paths.topics_dir.symlink_to(elsewhere)
    with pytest.raises(StoreError, match="symbolic link"):
        store.safe_join(paths.topics_dir, "victim")
    with pytest.raises(StoreError, match="symbolic link"):
        paths.topic_dir("victim")
    paths.topics_dir.unlink()
    paths.topics_dir.mkdir()
    (paths.topics_dir / "t").symlink_to(elsewhere)
    with pytest.raises(StoreError, match="symbolic link"):
        store.safe_join(paths.topics_dir, "t", "victim")


def test_topic_dir_refuses_a_symlinked_site_src(tmp_path: Path) -> None:
    (tmp_path / "elsewhere" / "topics" / "victim").mkdir(parents=True)
    paths = store.KBPaths(tmp_path / "kb")
    paths.root.mkdir()
    paths.site_src.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(StoreError, match="symbolic link"):
        paths.topic_dir("victim")
    with pytest.raises(StoreError, match="symbolic link"):
        paths.repo_dir("acme", "widgets")


def test_knowledge_delete_refuses_a_symlinked_topics_folder(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "victim").mkdir(parents=True)
    (elsewhere / "victim" / "keep.txt").write_text("precious", encoding="utf-8")
    paths = store.KBPaths(tmp_path / "kb")
    paths.topic_dir("victim").mkdir(parents=True)
    store.write_page(paths.topic_dir("victim") / "index.md", {"title": "Victim", "kind": "topic"}, "x")
    update_index(paths)  # the entry is listed while its folder is real, then the folder is swapped
    shutil.rmtree(paths.topics_dir)
    paths.topics_dir.symlink_to(elsewhere)
    result = CliRunner().invoke(
        cli, ["--root", str(paths.root), "knowledge", "delete", "topic:victim", "--yes"]
    )
    assert result.exit_code != 0 and "symbolic link" in result.output, result.output
    assert (elsewhere / "victim" / "keep.txt").read_text(encoding="utf-8") == "precious"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello World", "hello-world"),
        ("../../etc/passwd", "etc-passwd"),
        ("交易 策略", "交易-策略"),
        ("...", "untitled"),
    ],
)
def test_slugify(text: str, expected: str) -> None:
    assert store.slugify(text) == expected


def test_second_run_is_refused_while_the_lock_is_held(tmp_path: Path) -> None:
    paths = store.KBPaths(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from generator import store\n"
            f"with store.workspace_lock(store.KBPaths(Path({str(tmp_path)!r}))):\n"
            "    print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(LockHeldError, match="another deepkb run"):
            with store.workspace_lock(paths):
                pass
    finally:
        holder.kill()
        holder.wait()
    # the killed holder does not leave the lock stuck
    with store.workspace_lock(paths):
        pass


# --- a full or read-only disk is one line, and leaves no temp file (issue 8, finding 8) ----------------------


def fail_with(code: int):
    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    return fail


def test_full_disk_is_one_line_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "pages" / "big.md"
    store.write_text(target, "old")
    monkeypatch.setattr(os, "fsync", fail_with(errno.ENOSPC))  # the disk fills while the 8 MB are flushed
    with pytest.raises(StoreError) as caught:
        store.write_bytes(target, b"x" * 8_000_000)
    assert caught.value.line() == (
        f"cannot write {target}: the disk is full (free space on that disk and run again; finished work is kept)"
    )
    assert target.read_text() == "old"
    assert [p.name for p in target.parent.iterdir()] == ["big.md"]


def test_read_only_file_system_names_the_path_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tests run as root, which ignores chmod: the file system's refusal is raised from the write path instead
    monkeypatch.setattr(os, "replace", fail_with(errno.EROFS))
    target = tmp_path / "site_src" / "index.md"
    with pytest.raises(StoreError) as caught:
        store.write_text(target, "new")
    assert caught.value.line().endswith(
        "the file system is read-only (put the knowledge base on a writable disk)"
    )
    assert str(target) in caught.value.line()
    assert list(target.parent.iterdir()) == []


def test_a_temp_file_left_by_a_killed_run_is_swept_by_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "page[1].md"
    (tmp_path / ".page[1].md.k1ll3d.tmp").write_bytes(b"x" * 1000)
    store.write_text(target, "new")
    assert [p.name for p in tmp_path.iterdir()] == ["page[1].md"]


def test_cli_read_only_site_src_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "site_src").mkdir()
    monkeypatch.setenv("DEEPKB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(os, "replace", fail_with(errno.EROFS))
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "knowledge", "rebuild"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert f"cannot write {tmp_path / 'site_src'}" in result.output
    assert "the file system is read-only (put the knowledge base on a writable disk)" in result.output


def test_cli_full_search_database_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site_src = tmp_path / "site_src" / "topics" / "t"
    site_src.mkdir(parents=True)
    (site_src / "index.md").write_text("---\ntitle: T\n---\n\n" + "words " * 20_000, encoding="utf-8")
    monkeypatch.setenv("DEEPKB_CACHE_DIR", str(tmp_path / "cache"))
    connect = sqlite3.connect

    def small_disk(*args: object, **kwargs: object) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)  # type: ignore[arg-type]
        conn.execute("PRAGMA max_page_count = 8")  # sqlite's own "database or disk is full"
        return conn

    monkeypatch.setattr(search.sqlite3, "connect", small_disk)
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "knowledge", "rebuild"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert ".sqlite3: the disk is full" in result.output


def test_cli_full_disk_met_by_mkdocs_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # MkDocs writes site/ itself, outside store.py: the CLI still reports the disk, not a traceback
    import shutil

    monkeypatch.setenv("DEEPKB_CACHE_DIR", str(tmp_path / "cache"))

    def full(src: str, dst: str, **kwargs: object) -> str:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), dst)

    monkeypatch.setattr(shutil, "copyfile", full)
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "site"])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert f"Error: cannot use {tmp_path}" in result.output and "the disk is full" in result.output
    assert not list(tmp_path.glob(".site.building-*"))  # the staged build is removed, not left half written


def test_remove_stale_deletes_only_unkept_matching_files_of_a_real_folder(tmp_path: Path) -> None:
    from generator.store import remove_stale

    shards = tmp_path / "shards"
    shards.mkdir()
    for name in ("01_core.md", "02_old.md", "notes.md", "03_dir"):
        (shards / name).write_text("x\n", encoding="utf-8") if "dir" not in name else (shards / name).mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("mine\n", encoding="utf-8")
    (shards / "04_link.md").symlink_to(outside)
    remove_stale(shards, {"01_core.md"}, "[0-9][0-9]_*.md")
    assert sorted(p.name for p in shards.iterdir()) == ["01_core.md", "03_dir", "notes.md"]
    assert outside.read_text(encoding="utf-8") == "mine\n"  # a link is removed, never what it points at
    linked = tmp_path / "linked"
    linked.symlink_to(shards)
    remove_stale(linked, set(), "*.md")  # a linked folder is never entered
    assert (shards / "notes.md").exists()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads an fd's path from /proc")
def test_a_batch_of_writes_syncs_each_folder_once_at_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced = synced_folders(monkeypatch)
    store.write_text(tmp_path / "alone.md", "one\n")
    assert synced == [str(tmp_path)]  # outside a batch: at once, after each file
    synced.clear()
    with store.folders_synced_once():
        for n in range(5):
            store.write_text(tmp_path / "pages" / f"{n}.md", f"page {n}\n")
        with store.folders_synced_once():  # a batch inside a batch joins it
            store.write_text(tmp_path / "other" / "index.md", "index\n")
        store.write_text(tmp_path / "pages" / "0.md", "page 0\n")  # unchanged: not written
        assert synced == []
    assert synced == [str(tmp_path / "pages"), str(tmp_path / "other")]
    assert (tmp_path / "pages" / "4.md").read_text() == "page 4\n"


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads an fd's path from /proc")
def test_a_batch_ends_with_its_folders_synced_when_a_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced = synced_folders(monkeypatch)
    (tmp_path / "taken").write_text("a file where a folder should be\n")
    with pytest.raises(StoreError), store.folders_synced_once():
        store.write_text(tmp_path / "pages" / "1.md", "page 1\n")
        store.write_text(tmp_path / "taken" / "2.md", "page 2\n")
    assert synced == [str(tmp_path / "pages")]  # what was written is durable all the same
    store.write_text(tmp_path / "pages" / "3.md", "page 3\n")
    assert synced[-1] == str(tmp_path / "pages")  # the batch is over: each write syncs again
