"""What `deepkb` loads to start: the CLI and `--help` import no validation, console, research, model or site
library (each costs milliseconds to tens of milliseconds at every start), an offline repository run never
loads the network clients, the model-reply schemas, the web readers or the site builder it has no use for, and it imports its
pipeline with the garbage collector paused and leaves the heap frozen for the shutdown.

Each check runs in a fresh interpreter and reads its `sys.modules`: what the test process itself imported
says nothing about what a command needs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from repo_output_fakes import make_project

from generator import __version__

# heavy at import, and not needed to parse arguments, print help or fail with one line
NOT_AT_START = (
    "pydantic",
    "msgspec",
    "rich",
    "asyncio",
    "yaml",
    "frontmatter",
    "filelock",
    "sqlite3",
    "jinja2",
    "igraph",
    "markdown_it",
    "detect_secrets",
    "tree_sitter",
    "tree_sitter_language_pack",
    "httpx",
    "anthropic",
    "mkdocs",
    "generator.config",
    "generator.llm",
    "generator.repo.run.pipeline",
    "generator.repo.facts",
    "generator.repo.plan",
    "generator.topic",
    "generator.site",
    "generator.kb",
)
# an offline repository run reads a local checkout and writes markdown: no event loop (its shard jobs are
# threads), no HTTP client, model SDK, model-reply schemas (pydantic: ~0.1 s), web page reader, PDF
# reader, Chinese segmenter or MkDocs
NOT_IN_OFFLINE_REPO_RUN = (
    "asyncio",
    "pydantic",
    "httpx",
    "anthropic",
    "trafilatura",
    "lxml",
    "pypdf",
    "jieba",
    "mkdocs",
    "generator.topic",
    "generator.sources",
    "generator.http",
    "generator.llm.anthropic",
    "generator.llm.openai",
    "rich.progress",  # its redrawn table is for a terminal; a log gets a plain line per shard
)


def run_fresh(code: str, cwd: Path) -> str:
    """The last line `code` printed, run in a fresh interpreter without any key or token in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


def loaded_by(code: str, cwd: Path) -> set[str]:
    """The top-level packages and the modules in sys.modules after `code` ran in a fresh interpreter."""
    names = set(
        json.loads(run_fresh(f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))", cwd))
    )
    return names | {name.split(".")[0] for name in names}


def run_cli(*args: str) -> str:
    """Code that runs deepkb's click group with `args` without exiting the interpreter."""
    return (
        f"from generator.cli import cli\ncli.main({list(args)!r}, prog_name='deepkb', standalone_mode=False)"
    )


@pytest.mark.parametrize(
    "code",
    [
        "import generator.cli",
        run_cli("--help"),
        run_cli("repo", "--help"),
        run_cli("repo", "run", "--help"),
        run_cli("--version"),
    ],
    ids=["import", "help", "repo-help", "repo-run-help", "version"],
)
def test_starting_the_cli_loads_no_heavy_library(tmp_path: Path, code: str) -> None:
    loaded = loaded_by(code, tmp_path)
    assert "click" in loaded and "generator.cli" in loaded  # the probe did run the CLI
    assert sorted(loaded & set(NOT_AT_START)) == []


def test_offline_repo_run_loads_no_network_or_site_builder(tmp_path: Path) -> None:
    project = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()
    code = f"import os\nos.environ['DEEPKB_CACHE_DIR'] = {str(tmp_path / 'cache')!r}\n" + run_cli(
        "--root", str(kb), "--provider", "offline", "repo", "run", str(project)
    )
    loaded = loaded_by(code, tmp_path)
    assert (kb / "site_src" / "repos" / "acme" / "shop" / "index.md").is_file()  # the run did run
    assert "generator.repo.run.pipeline" in loaded and "jinja2" in loaded
    assert sorted(loaded & set(NOT_IN_OFFLINE_REPO_RUN)) == []


def test_parser_processes_are_forked_without_a_process_pool(tmp_path: Path) -> None:
    # importing multiprocessing costs ~15 ms before the fork, and a process pool's threads take turns with
    # this process's imports while the parser processes work (concurrent.futures' thread-side Future is
    # what deadlines.JobPool runs shard jobs on; its process pool is not loaded)
    project = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()
    code = (
        "import json, os, sys\n"
        f"os.environ['DEEPKB_CACHE_DIR'] = {str(tmp_path / 'cache')!r}\n"
        "from generator.repo.facts import parser_processes, parsing\n"
        "parsing.PARALLEL_MIN_BYTES = 0  # parser processes even for this small project\n"
        "forked = []\n"
        "real = parser_processes.ParserProcess.__init__\n"
        "def started(self, *args, **kwargs): real(self, *args, **kwargs); forked.append(self.pid)\n"
        "parser_processes.ParserProcess.__init__ = started\n"
        + run_cli("--root", str(kb), "--provider", "offline", "repo", "run", str(project))
        + "\nprint(json.dumps([len(forked), sorted(sys.modules)]))"
    )
    forked, modules = json.loads(run_fresh(code, tmp_path))
    assert forked >= 1 and (kb / "site_src" / "repos" / "acme" / "shop" / "index.md").is_file()
    pools = [m for m in modules if m.split(".")[0] == "multiprocessing" or m == "concurrent.futures.process"]
    assert pools == []


def test_repo_run_imports_and_runs_with_the_collector_paused(tmp_path: Path) -> None:
    # each automatic collection during the pipeline's imports would rescan every object they made
    project = make_project(tmp_path / "shop")
    kb = tmp_path / "kb"
    kb.mkdir()
    code = (
        "import gc, os\n"
        f"os.environ['DEEPKB_CACHE_DIR'] = {str(tmp_path / 'cache')!r}\n"
        "import generator.cli\n"
        "passes = []\n"
        "gc.collect()\n"
        "gc.callbacks.append(lambda phase, info: passes.append(info) if phase == 'start' else None)\n"
        + run_cli("--root", str(kb), "--provider", "offline", "repo", "run", str(project))
        + "\nassert gc.isenabled()\nprint(len(passes))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert (kb / "site_src" / "repos" / "acme" / "shop" / "index.md").is_file()  # the run did run
    # click's parsing may allocate enough for one pass; unpaused, the pipeline's imports alone take ~100
    assert int(done.stdout.splitlines()[-1]) <= 2


def test_the_entry_point_leaves_the_heap_frozen_for_the_shutdown(tmp_path: Path) -> None:
    # shutdown's collections would otherwise rescan every object a run left (atexit runs after main)
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen' if gc.get_freeze_count() else 'scanned'))\n"
        "from generator.cli import main\n"
        "sys.argv = ['deepkb', '--version']\n"
        "main()"
    )
    assert run_fresh(code, tmp_path) == "frozen"


def test_the_entry_point_runs_the_exit_handlers_and_flushes_its_output(tmp_path: Path) -> None:
    # it leaves with os._exit (no teardown of the heap): what the interpreter's exit would do must still
    # happen, handlers and piped output included
    code = (
        "import atexit, sys, tempfile\n"
        "atexit.register(lambda: print('exit handler'))\n"
        "left = tempfile.TemporaryDirectory()\n"  # removed by its finalizer at exit
        "print(left.name)\n"
        "sys.stdout.write('unflushed ')\n"
        "from generator.cli import main\n"
        "sys.argv = ['deepkb', '--version']\n"
        "main()"
    )
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # as a pipe is by default
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=buffered
    )
    assert done.returncode == 0, done.stderr
    folder, *rest = done.stdout.splitlines()
    assert rest == [f"unflushed deepkb, version {__version__}", "exit handler"]
    assert not Path(folder).exists()


def test_the_entry_point_keeps_the_exit_status_and_waits_for_working_threads(tmp_path: Path) -> None:
    # a thread the interpreter would wait for (not a daemon) still finishes its work: the usual shutdown
    code = (
        "import sys, threading, time\n"
        "def work():\n"
        "    time.sleep(0.05)\n"
        "    print('thread done', flush=True)\n"
        "threading.Thread(target=work).start()\n"
        "from generator.cli import main\n"
        "sys.argv = ['deepkb', 'no-such-command']\n"
        "main()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2  # click's usage error
    assert "No such command" in done.stderr and done.stdout == "thread done\n"
    bad = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom generator.cli import main\nsys.argv = ['deepkb', 'nope']\nmain()",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert bad.returncode == 2 and "No such command" in bad.stderr
