"""The synthesis' read-ahead (generator/repo/synthesize/ahead.py): a forked process works out what needs
only the plan while the shards are analyzed; the records and pages are the same with it and without it,
and a read-ahead that failed or no longer fits is computed again."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from repo_output_fakes import make_project, offline_setup, page_bytes
from test_repo_calls import FILES as CALLING

from generator.repo.analyze.describe import main_chain, module_lines
from generator.repo.facts import flows
from generator.repo.plan.subsystems import core_modules
from generator.repo.run.pipeline import analyze_shards, prepare
from generator.repo.run.study import RepoResult, Study
from generator.repo.synthesize import ahead as ahead_module
from generator.repo.synthesize.ahead import (
    CatalogueLines,
    Flow,
    MainCalls,
    PendingAhead,
    Placement,
    counted_calls,
    main_modules,
    start_ahead,
    work_out,
)
from generator.repo.synthesize.architecture import place_modules
from generator.repo.synthesize.synthesis import synthesize
from generator.site.pages.repo import publish_repo


@pytest.fixture
def always_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ahead_module, "AHEAD_MIN_BYTES", 0)  # any repository gets the forked process
    # a thread another test left behind (a hung call it abandoned) would turn the read-ahead off
    monkeypatch.setattr(ahead_module, "_other_threads", lambda: False)


PYTHON_ONLY = {path: text for path, text in CALLING.items() if path.endswith(".py")}


def study_of(tmp_path: Path, kb: str, files: dict[str, str] = CALLING) -> Study:
    """`files` (default: Python, Go and JavaScript calling across files) researched into knowledge base `kb`."""
    root = tmp_path / ("shop" if files is CALLING else "python-shop")
    if not root.exists():
        make_project(root, files)
    paths, config, provider = offline_setup(tmp_path / kb)
    return prepare(paths, config, provider, str(root))


def research(study: Study, pending: PendingAhead | None) -> RepoResult:
    provider = offline_setup(study.paths.root)[2]
    outcomes = analyze_shards(study, provider, list(enumerate(study.plan.shards, 1)))
    return synthesize(study, provider, outcomes, pending)


def parts_of(study: Study) -> tuple[MainCalls, Placement, Flow]:
    """The read-ahead worked out in this process, its parts in the order handed over."""
    calls, placement, flow = work_out(study.plan.shards, study.facts, study.repo_map)
    assert isinstance(calls, MainCalls) and isinstance(placement, Placement) and isinstance(flow, Flow)
    return calls, placement, flow


def test_the_read_ahead_is_what_the_synthesis_would_compute(tmp_path: Path) -> None:
    calls, placement, flow = parts_of(study_of(tmp_path, "a"))
    study = study_of(tmp_path, "b")
    graph = study.facts.calls
    assert graph is not None
    assert calls.calls == {p: graph.read(p) for p in main_modules(study.plan.shards)}
    modules = core_modules(study.repo_map)
    planned = [(i, shard.files) for i, shard in enumerate(study.plan.shards, 1)]
    assert placement.modules == place_modules(modules, planned, study.facts, study.repo_map)
    assert flow.read_before == frozenset(graph.read_paths())
    assert flow.chain == main_chain(study.facts, modules) and flow.chain  # the project has a main flow


@pytest.mark.parametrize("files", [CALLING, PYTHON_ONLY], ids=["three languages", "python"])
def test_pages_are_the_same_with_the_forked_read_ahead(
    tmp_path: Path, always_ahead: None, files: dict[str, str]
) -> None:
    alone = study_of(tmp_path, "alone", files)
    publish_repo(research(alone, None))
    forked = study_of(tmp_path, "forked", files)
    pending = start_ahead(forked.plan, forked.facts, forked.repo_map, forked.ctx.linker)
    assert pending is not None
    pending.wait()  # every part handed over before the synthesis asks: it takes them
    flow = pending.taken(Flow)
    assert flow is not None and flow.chain and pending.taken(MainCalls) and pending.taken(Placement)
    assert pending.taken(CatalogueLines) is not None
    publish_repo(research(forked, pending))
    assert page_bytes(forked.paths.repos_dir) == page_bytes(alone.paths.repos_dir)


def test_a_failed_read_ahead_is_computed_here(
    tmp_path: Path, always_ahead: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = ahead_module.work_out

    def broken(*args: object) -> Iterator[object]:
        yield next(real(*args))  # type: ignore[arg-type]  # the first part, then the process fails
        raise RuntimeError("the forked process fails")

    monkeypatch.setattr(ahead_module, "work_out", broken)  # the forked copy inherits it
    alone = study_of(tmp_path, "alone")
    publish_repo(research(alone, None))
    forked = study_of(tmp_path, "forked")
    pending = start_ahead(forked.plan, forked.facts, forked.repo_map)
    assert pending is not None
    pending.wait()
    assert pending.taken(MainCalls) is not None  # handed over before the failure: kept
    assert pending.taken(Placement) is None and pending.taken(Flow) is None
    publish_repo(research(forked, pending))
    assert page_bytes(forked.paths.repos_dir) == page_bytes(alone.paths.repos_dir)


class Given:
    """Parts handed over as they are (what the forked process would have sent)."""

    def __init__(self, *parts: object) -> None:
        self.parts = {type(part): part for part in parts}

    def taken(self, kind: type) -> object | None:
        return self.parts.get(kind)


def test_a_flow_read_with_other_files_read_whole_is_searched_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python only: its path searches read single functions, so no file is read whole before the flow
    calls, placement, flow = parts_of(study_of(tmp_path, "other", PYTHON_ONLY))
    searched: list[str] = []
    real = ahead_module.main_chain

    def counted(*args: object, **kwargs: object) -> object:
        searched.append("main flow")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("generator.repo.synthesize.architecture.main_chain", counted)
    taken = research(study_of(tmp_path, "taken", PYTHON_ONLY), Given(calls, placement, flow))  # type: ignore[arg-type]
    assert searched == [] and taken.synthesis.main_flow  # the forked process' flow, as it came
    # as if the forked process had read one more file whole: its flow may differ, so it is not taken
    stale = Flow(flow.read_before | {"elsewhere.py"}, [], {})
    again = research(study_of(tmp_path, "stale", PYTHON_ONLY), Given(calls, placement, stale))  # type: ignore[arg-type]
    assert searched == ["main flow"] and again.synthesis.main_flow == taken.synthesis.main_flow


class ArrivesLater(Given):
    """The flow handed over only once the synthesis has asked for it `after` times (mid-search)."""

    def __init__(self, after: int, *parts: object) -> None:
        super().__init__(*parts)
        self.after, self.asked = after, 0

    def taken(self, kind: type) -> object | None:
        if kind is Flow:
            self.asked += 1
            if self.asked <= self.after:
                return None
        return super().taken(kind)


def test_a_flow_arriving_during_the_search_here_is_taken_and_the_search_given_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python only: no file is read whole before the flow (see above)
    calls, placement, flow = parts_of(study_of(tmp_path, "other", PYTHON_ONLY))
    alone = research(study_of(tmp_path, "alone", PYTHON_ONLY), None)
    entries: list[str] = []
    real = flows._entries

    def counted(*args: object) -> list[tuple[str, str]]:
        found = real(*args)  # type: ignore[arg-type]
        entries.extend(name for _, name in found)
        return found

    monkeypatch.setattr(flows, "_entries", counted)
    # asked before the search, then before each entry point's paths (it arrives before the second's), then
    # once more to take it
    late = ArrivesLater(2, calls, placement, replace(flow, chain=flow.chain[:1]))
    taken = research(study_of(tmp_path, "late", PYTHON_ONLY), late)  # type: ignore[arg-type]
    assert late.asked == 4 and len(entries) > 2  # the search here was given up after one entry point
    assert len(taken.synthesis.main_flow) == 1  # the forked process' flow (marked: cut to one hop)
    assert len(alone.synthesis.main_flow) > 1
    # one that never arrives: the search here ends, and its flow is the one the run computes alone
    never = ArrivesLater(10_000, calls, placement, flow)
    searched = research(study_of(tmp_path, "never", PYTHON_ONLY), never)  # type: ignore[arg-type]
    assert searched.synthesis.main_flow == alone.synthesis.main_flow and never.asked > 4


def test_catalogue_lines_are_what_the_synthesis_would_write(tmp_path: Path) -> None:
    study = study_of(tmp_path, "a")
    parts = list(work_out(study.plan.shards, study.facts, study.repo_map, study.ctx.linker))
    lines = next(p for p in parts if isinstance(p, CatalogueLines))
    again = study_of(tmp_path, "b")
    graph = again.facts.calls
    assert graph is not None
    graph.edges(main_modules(again.plan.shards))  # what the synthesis has read by its catalogue
    modules = core_modules(again.repo_map)
    assert list(lines.lines.values()) == module_lines(modules, again.repo_map, again.facts, again.ctx.linker)
    assert lines.counted == {path: counted_calls(again.facts, path) for path in modules}
    assert any(lines.counted.values())  # some module's ranking did count calls into it


def test_a_catalogue_line_ranked_with_other_calls_is_written_again(tmp_path: Path) -> None:
    calls, placement, flow = parts_of(study_of(tmp_path, "other"))
    study = study_of(tmp_path, "lines")
    parts = list(work_out(study.plan.shards, study.facts, study.repo_map, study.ctx.linker))
    lines = next(p for p in parts if isinstance(p, CatalogueLines))
    alone = research(study_of(tmp_path, "alone"), None)
    # a line whose counts are those of the run is taken as it came (even a wrong one: it is trusted)
    path = next(iter(lines.lines))
    marked = replace(lines.lines[path], purpose="Marked by the read-ahead.")
    trusted = CatalogueLines({**lines.lines, path: marked}, lines.counted)
    taken = research(study_of(tmp_path, "taken"), Given(calls, placement, flow, trusted))  # type: ignore[arg-type]
    assert marked in [line for group in taken.synthesis.catalogue for line in group.modules]
    # ranked with other calls than the run has read by then: written again here
    stale = CatalogueLines({**lines.lines, path: marked}, {**lines.counted, path: (("Elsewhere", 1),)})
    again = research(study_of(tmp_path, "stale"), Given(calls, placement, flow, stale))  # type: ignore[arg-type]
    assert again.synthesis.catalogue == alone.synthesis.catalogue


def test_a_read_ahead_still_at_work_is_stopped(
    tmp_path: Path, always_ahead: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked, unblock = os.pipe()

    def waits(*_: object) -> Iterator[MainCalls]:
        os.read(blocked, 1)  # never written: the forked process waits until it is stopped
        yield MainCalls({})

    monkeypatch.setattr(ahead_module, "work_out", waits)
    alone = study_of(tmp_path, "alone")
    publish_repo(research(alone, None))
    forked = study_of(tmp_path, "forked")
    pending = start_ahead(forked.plan, forked.facts, forked.repo_map)
    assert pending is not None and pending.taken(MainCalls) is None
    publish_repo(research(forked, pending))  # never waits for it
    pid = pending._pid
    pending.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # stopped and reaped: no process left behind
    assert pending.taken(MainCalls) is None
    os.close(blocked)
    os.close(unblock)
    assert page_bytes(forked.paths.repos_dir) == page_bytes(alone.paths.repos_dir)


def test_no_read_ahead_for_a_small_repository(tmp_path: Path) -> None:
    study = study_of(tmp_path, "kb")
    assert start_ahead(study.plan, study.facts, study.repo_map) is None


def test_no_read_ahead_while_other_threads_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    monkeypatch.setattr(ahead_module, "AHEAD_MIN_BYTES", 0)
    study = study_of(tmp_path, "kb")
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert ahead_module._other_threads()
        assert start_ahead(study.plan, study.facts, study.repo_map) is None
    finally:
        release.set()
        other.join()
