"""The garbage collector paused for a research run, and restored after it whatever happens."""

from __future__ import annotations

import gc

import pytest

from generator.repo.run.collector import collector_paused


def test_paused_inside_and_restored_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0  # what was alive before the run is left out of later scans
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_restored_after_an_error() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a stage failed")
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_nested_blocks_leave_it_to_the_outermost() -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_already_off_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_as_a_decorator_each_call_pauses_it() -> None:
    seen = []

    @collector_paused()
    def stage() -> None:
        seen.append(gc.isenabled())

    stage()
    stage()
    assert seen == [False, False]
    assert gc.isenabled()


def test_cycles_left_by_a_run_are_still_collected_afterwards() -> None:
    import weakref

    class Node:
        pass

    with collector_paused():
        node = Node()
        node.self = node  # type: ignore[attr-defined]  # a reference cycle only the collector can free
        watch = weakref.ref(node)
        del node
        assert watch() is not None
    gc.collect()
    assert watch() is None
