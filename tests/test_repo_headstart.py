"""`deepkb repo run PATH` maps the folder and starts parsing it before loading its configuration: the run
takes that work over only when it is exactly what the run would have done, and the facts are the same."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import make_git_repo, reaped

from generator.cli import cli
from generator.config import Config, RepoResearchConfig
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Checkout, RepoMap
from generator.repo.run import headstart
from generator.repo.run.headstart import HeadStart, head_start
from generator.repo.run.pipeline import map_and_extract
from generator.store import KBPaths

FILES = {
    "README.md": "# Pkg\n\nPkg answers questions.\n",
    "pkg/__init__.py": '"""The package."""\n\nfrom .core import Engine\n',
    "pkg/core.py": '"""Core engine."""\n\n\nclass Engine:\n    """Runs."""\n\n    def run(self):\n        return 1\n',
    "pkg/big.py": '"""A module past a small size limit."""\n\nVALUES = [\n' + "    1,\n" * 600 + "]\n",
    "tests/test_core.py": "from pkg.core import Engine\n\n\ndef test_run():\n    assert Engine().run()\n",
}


@pytest.fixture
def workers_always(monkeypatch: pytest.MonkeyPatch, forks_beside_threads: None) -> None:
    # any repository gets parser processes, so the head start forks as it does on a large one
    monkeypatch.setattr("generator.repo.facts.parsing.PARALLEL_MIN_BYTES", 0)


def checkout_of(root: Path) -> Checkout:
    from generator.repo.checkout.clone import checkout, parse_source

    return checkout(parse_source(str(root), root.parent), root.parent / "cache")


def test_the_default_size_limit_is_the_configs() -> None:
    assert headstart.DEFAULT_MAX_FILE_BYTES == RepoResearchConfig().max_file_bytes


def test_a_taken_over_head_start_gives_the_same_map_and_facts(tmp_path: Path, workers_always: None) -> None:
    root = make_git_repo(tmp_path / "repo", FILES)
    head = head_start(KBPaths(tmp_path / "kb"), str(root))
    assert head is not None and head.parse is not None  # parser processes are at work
    with head:
        repo_map, facts = map_and_extract(checkout_of(root), Config(), head=head)
    assert repo_map is head.repo_map
    assert facts == extract_facts(root, map_repository(root), workers=1)
    assert facts.files["pkg/core.py"].symbols[0].name == "Engine"
    assert all(reaped(p.pid) for p in head.parse.processes)


def test_a_head_start_that_assumed_other_settings_is_dropped(tmp_path: Path, workers_always: None) -> None:
    root = make_git_repo(tmp_path / "repo", FILES)
    head = head_start(KBPaths(tmp_path / "kb"), str(root))
    assert head is not None and "pkg/big.py" in {f.path for f in head.repo_map.files}
    config = Config(repo=RepoResearchConfig(max_file_bytes=2048))
    with head:
        repo_map, facts = map_and_extract(checkout_of(root), config, head=head)
    # mapped again with deepkb.yml's limit: the large module is listed as skipped, not parsed
    assert repo_map is not head.repo_map
    assert "pkg/big.py" in {s.path for s in repo_map.skipped}
    assert "pkg/big.py" not in facts.files and "pkg/core.py" in facts.files
    assert head.parse is not None and all(reaped(p.pid) for p in head.parse.processes)  # cancelled


def test_a_knowledge_base_inside_the_repository_is_left_out(tmp_path: Path, workers_always: None) -> None:
    root = make_git_repo(tmp_path / "repo", {**FILES, "kb/site_src/page.md": "# Page\n"})
    head = head_start(KBPaths(root / "kb"), str(root))
    assert head is not None and "kb/site_src" in head.exclude
    assert all(not f.path.startswith("kb/site_src") for f in head.repo_map.files)
    head.cancel()
    assert head.parse is not None and all(reaped(p.pid) for p in head.mapped.processes)


def test_the_folder_is_mapped_by_the_forked_process(
    tmp_path: Path, workers_always: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # this process goes on importing the pipeline meanwhile: the map is made over there, and comes back
    # without the bytes it read (the forked process parses those)
    root = make_git_repo(tmp_path / "repo", FILES)
    mapped_by = tmp_path / "mapped-by"
    real = headstart.map_folder

    def map_folder(*args: object, **kwargs: object) -> RepoMap:
        mapped_by.write_text(str(os.getpid()))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(headstart, "map_folder", map_folder)
    with head_start(KBPaths(tmp_path / "kb"), str(root)) as head:
        assert head.repo_map is not None and head.repo_map.contents == {}
        assert int(mapped_by.read_text()) not in {os.getpid(), 0}
        repo_map, facts = map_and_extract(checkout_of(root), Config(), head=head)
    assert repo_map is head.repo_map
    assert facts == extract_facts(root, map_repository(root), workers=1)
    assert all(reaped(p.pid) for p in head.mapped.processes)


def test_a_map_that_fails_over_there_is_made_again_here(
    tmp_path: Path, workers_always: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_git_repo(tmp_path / "repo", FILES)
    here = os.getpid()
    real = headstart.map_folder

    def map_folder(*args: object, **kwargs: object) -> RepoMap:
        if os.getpid() != here:
            raise OSError(13, "Permission denied")  # what only the forked process meets
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(headstart, "map_folder", map_folder)
    monkeypatch.setattr("generator.repo.run.pipeline.map_folder", map_folder)
    with head_start(KBPaths(tmp_path / "kb"), str(root)) as head:
        assert head.repo_map is None and head.parse is None
        repo_map, facts = map_and_extract(checkout_of(root), Config(), head=head)
    assert facts == extract_facts(root, map_repository(root), workers=1)
    assert all(reaped(p.pid) for p in head.mapped.processes)


def test_a_small_folder_comes_back_with_its_bytes_and_is_parsed_here(
    tmp_path: Path, forks_beside_threads: None
) -> None:
    root = make_git_repo(tmp_path / "repo", FILES)  # far below the size where parser processes pay
    with head_start(KBPaths(tmp_path / "kb"), str(root)) as head:
        assert head.repo_map is not None and head.parse is None
        assert set(head.repo_map.contents) >= {"pkg/core.py", "pkg/__init__.py"}
        repo_map, facts = map_and_extract(checkout_of(root), Config(), head=head)
    assert repo_map is head.repo_map
    assert facts == extract_facts(root, map_repository(root), workers=1)
    assert all(reaped(p.pid) for p in head.mapped.processes)


def test_a_head_start_cancelled_before_its_map_leaves_no_process(
    tmp_path: Path, workers_always: None
) -> None:
    root = make_git_repo(tmp_path / "repo", FILES)
    head = head_start(KBPaths(tmp_path / "kb"), str(root))
    assert head is not None
    head.cancel()
    head.cancel()  # idempotent
    assert all(reaped(p.pid) for p in head.mapped.processes)


README = "# Pkg\n\nPkg answers the questions its users ask of it.\n\n```python\nfrom pkg.core import Engine\nEngine().run()\n```\n"


def test_the_readme_is_read_by_the_forked_process_once_its_chunks_are_done(
    tmp_path: Path, workers_always: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_git_repo(tmp_path / "repo", {**FILES, "README.md": README})
    read_by = tmp_path / "read-by"
    real = headstart.read_readme_facts

    def read_readme_facts(*args: object) -> object:
        read_by.write_text(str(os.getpid()))
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(headstart, "read_readme_facts", read_readme_facts)
    with head_start(KBPaths(tmp_path / "kb"), str(root)) as head:
        # this process takes what the forked one read (it must not read the README itself)
        with monkeypatch.context() as here:
            here.setattr("generator.repo.facts.mentions.read_readme_facts", pytest.fail)
            _, facts = map_and_extract(checkout_of(root), Config(), head=head)
    assert int(read_by.read_text()) != os.getpid()
    alone = extract_facts(root, map_repository(root), workers=1)
    assert facts.mentioned == alone.mentioned and {"Engine", "run"} <= facts.mentioned
    assert facts.readme == alone.readme == "Pkg answers the questions its users ask of it."
    assert all(reaped(p.pid) for p in head.mapped.processes)


def test_a_readme_the_forked_process_could_not_read_is_read_here(
    tmp_path: Path, workers_always: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_git_repo(tmp_path / "repo", {**FILES, "README.md": README})
    here = os.getpid()
    real = headstart.read_readme_facts

    def read_readme_facts(*args: object) -> object:
        if os.getpid() != here:
            raise OSError(5, "Input/output error")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(headstart, "read_readme_facts", read_readme_facts)
    with head_start(KBPaths(tmp_path / "kb"), str(root)) as head:
        _, facts = map_and_extract(checkout_of(root), Config(), head=head)
    assert facts.readme == "Pkg answers the questions its users ask of it." and "Engine" in facts.mentioned
    assert all(reaped(p.pid) for p in head.mapped.processes)


def test_no_head_start_for_remote_or_refused_sources(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    assert head_start(paths, "https://github.com/owner/name") is None
    assert head_start(paths, str(tmp_path / "missing")) is None
    assert head_start(paths, "--upload-pack=touch /tmp/x") is None


def test_repo_run_uses_the_head_start_and_leaves_no_worker_behind(
    tmp_path: Path, workers_always: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_git_repo(tmp_path / "repo", FILES)
    kb = tmp_path / "kb"
    kb.mkdir()
    offered: list[HeadStart] = []
    real = headstart.HeadStart.matches

    def matches(self: HeadStart, root: Path, exclude: list[str], max_file_bytes: int) -> bool:
        offered.append(self)
        return real(self, root, exclude, max_file_bytes)

    monkeypatch.setattr(headstart.HeadStart, "matches", matches)
    monkeypatch.setenv("DEEPKB_CACHE_DIR", str(tmp_path / "cache"))
    args = ["--root", str(kb), "--provider", "offline", "repo", "run", str(root), "--json"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert len(offered) == 1 and offered[0].parse is not None
    assert all(reaped(p.pid) for p in offered[0].parse.processes)  # no parser process left behind
    assert (kb / "site_src/repos/local/repo/index.md").is_file()
    assert '"success": true' in result.stdout


def test_the_page_templates_compile_ahead_of_the_first_page() -> None:
    from generator.site.pages.repo import INDEX_TEMPLATE, SHARD_TEMPLATE, prepare_publishing
    from generator.site.templates import environment

    environment.cache_clear()
    prepare_publishing()
    cache = environment().cache
    assert cache is not None
    assert {key[1] for key in cache.keys()} == {SHARD_TEMPLATE, INDEX_TEMPLATE}
