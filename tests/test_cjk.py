"""Chinese segmentation: words come out, and jieba's dictionary cache stays in deepkb's cache folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from generator import cjk


def test_segment_splits_han_runs_and_leaves_other_text() -> None:
    out = cjk.segment("向量数据库 stores vectors")
    assert "stores vectors" in out
    assert len(out.split()) > 3  # the Han run became several words
    assert cjk.segment("plain English") == "plain English"


def test_jieba_cache_lives_in_our_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deepkb-cache"
    monkeypatch.setenv("DEEPKB_CACHE_DIR", str(target))
    cjk.jieba()
    assert sys.modules["jieba"].dt.tmp_dir == str(target)
    assert target.is_dir()


def test_without_an_override_the_cache_is_the_users_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DEEPKB_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cjk.cache_dir() == tmp_path / "xdg" / "deepkb"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cjk.cache_dir() == Path.home() / ".cache" / "deepkb"
