"""A topic's checkpoint record (`_meta.json`): files written by earlier deepkb versions still load, and a save
writes the same JSON plus the record's version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.errors import StoreError
from generator.store import KBPaths, write_json
from generator.topic import workspace as wsp
from generator.topic.state import Phase, TopicMeta

# written by deepkb before _meta.json was a msgspec record (pydantic's model_dump of a run's first phase)
OLD_META = json.loads(
    '{"id": "t", "topic": "T", "slug": "t", "topic_key": "", "created_at": "2025-01-02T03:04:05Z", "updated_at": "2025-01-02T03:04:05Z", "status": "in_progress", "options": {"quick": false, "verify": true, "parallel": true, "sources": ["local"], "lang": "en", "review_plan": false}, "queries": [], "progress": {"phase": "PLANNING", "completed_tasks": 0, "total_tasks": 0}, "stats": {"sources_count": 0, "raw_items": 0, "deduplicated": 0}, "runs": [{"started_at": "2025-01-02T03:04:05Z", "finished_at": null, "status": "in_progress", "provider": "offline", "note": ""}], "metrics": {"steps_by_type": {}, "dispatch_loops": 0, "step_durations": {}, "failures": [], "tokens": {"input": 0, "output": 0}, "llm_calls": 0, "cost_estimate_usd": 0.0, "plan_iterations": 0, "verify_rounds": 0}, "phases_done": ["INIT"], "provider": "offline", "model": "", "warnings": [], "verification": {"unresolved_citations": 0, "passed": null, "uncovered": [], "unresolved": 0, "distinct_sources": 0, "problems": [], "rounds": 0, "sources_before_round": -1}, "error": "", "plan_reviewed": false, "refresh_days": 7}'
)


def _paths(tmp_path: Path) -> KBPaths:
    paths = KBPaths(tmp_path)
    paths.topic_dir("t").mkdir(parents=True)
    return paths


def test_an_older_meta_file_loads_and_saves_the_same_json_with_its_version(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    meta_file = wsp.Workspace(paths, "t").meta_file
    write_json(meta_file, {**OLD_META, "retired_key": {"kept": False}})  # a key no deepkb reads any more
    meta = wsp.load_meta(paths, "t")
    assert meta is not None and meta.phases_done == [Phase.INIT] and meta.progress.phase is Phase.PLANNING
    assert meta.runs[0].finished_at is None and meta.options.sources == ["local"]
    updated = meta.updated_at
    wsp.save_meta(paths, meta)
    saved = json.loads(meta_file.read_text(encoding="utf-8"))
    assert saved == {**OLD_META, "updated_at": saved["updated_at"], "version": TopicMeta.VERSION}
    assert list(saved) == [*OLD_META, "version"]  # the same key order as before
    assert saved["updated_at"] >= updated


def test_numbers_written_as_text_are_read_as_numbers(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    write_json(wsp.Workspace(paths, "t").meta_file, {**OLD_META, "refresh_days": "30"})
    meta = wsp.load_meta(paths, "t")
    assert meta is not None and meta.refresh_days == 30


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"version": TopicMeta.VERSION + 1}, "version 2, not 1"),
        ({"status": "exploded"}, "status"),
        ({"options": {"lang": "fr"}}, "lang"),
        ({"id": None}, "id"),
    ],
)
def test_a_meta_file_of_another_version_or_shape_is_one_store_error(
    tmp_path: Path, change: dict[str, object], problem: str
) -> None:
    paths = _paths(tmp_path)
    write_json(wsp.Workspace(paths, "t").meta_file, {**OLD_META, **change})
    with pytest.raises(StoreError, match=problem):
        wsp.load_meta(paths, "t")
    assert wsp.readable_meta(paths, "t") is None
