"""The knowledge store: atomic writes, frontmatter round-trips, safe paths and the workspace lock."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator import store
from generator.errors import LockHeldError, StoreError


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
    with pytest.raises(OSError):
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
