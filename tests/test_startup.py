"""What `deepkb` loads to start: commands load lazily, so the CLI, `--help` and `--version` import no
validation, console, research, model or site library; a command loads what it uses and nothing of the
other commands; an offline repository run never loads the network clients, the model-reply schemas, the
web readers or the site builder it has no use for.

Each check runs in a fresh interpreter and reads its `sys.modules`: what the test process itself imported
says nothing about what a command needs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from repo_output_fakes import make_project

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
        run_cli("--version"),
    ],
    ids=["import", "help", "version"],
)
def test_starting_the_cli_loads_no_heavy_library(tmp_path: Path, code: str) -> None:
    loaded = loaded_by(code, tmp_path)
    assert "click" in loaded and "generator.cli" in loaded  # the probe did run the CLI
    assert sorted(loaded & set(NOT_AT_START)) == []
    assert sorted(m for m in loaded if m.startswith("generator.cli.") and m != "generator.cli.app") == []


def test_a_commands_help_loads_that_command_only(tmp_path: Path) -> None:
    loaded = loaded_by(run_cli("repo", "run", "--help"), tmp_path)
    assert "generator.cli.repo" in loaded
    others = {"generator.cli.topic", "generator.cli.site", "generator.topic", "mkdocs", "httpx", "anthropic"}
    assert sorted(loaded & others) == []


def test_help_lists_every_command_with_its_own_first_line() -> None:
    from generator.cli import SUMMARIES, cli

    ctx = click.Context(cli)
    assert list(SUMMARIES) == cli.list_commands(ctx)
    for name, summary in SUMMARIES.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.get_short_help_str(limit=200) == summary, name
    assert cli.get_command(ctx, "no-such-command") is None


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
