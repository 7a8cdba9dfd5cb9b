"""Chinese segmentation: words come out, and jieba's dictionary cache stays in the knowledge base's cache."""

from __future__ import annotations

import sys
from pathlib import Path

from generator import cjk


def test_segment_splits_han_runs_and_leaves_other_text(tmp_path: Path) -> None:
    cjk.use_cache_dir(tmp_path / "cache")
    out = cjk.segment("向量数据库 stores vectors")
    assert "stores vectors" in out
    assert len(out.split()) > 3  # the Han run became several words
    assert cjk.segment("plain English") == "plain English"


def test_jieba_cache_lives_in_our_cache_dir(tmp_path: Path) -> None:
    target = tmp_path / "kb-cache"
    cjk.use_cache_dir(target)
    cjk.words("机器学习")
    assert sys.modules["jieba"].dt.tmp_dir == str(target)
    assert target.is_dir()
