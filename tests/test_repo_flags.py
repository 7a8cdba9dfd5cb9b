"""Command-line flags as configuration options: click/typer options, argparse arguments, cobra/pflag and Go
flag declarations, commander options, each with its default and help as written and the line declaring it."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup
from test_repo_reference import BLOB

from generator.app.targets import repo_target
from generator.repo.reference.flags import Flag, cli_flags
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

CLICK = '''import click


@click.command()
@click.option("--port", "-p", default=8000, help="Port to serve on.")
@click.option(
    "--reload/--no-reload",
    default=False,
    help="Restart when a file changes "  # a comment, with a comma, in the call
    "(for development).",
)
def serve(port, reload):
    """Serve the app."""
'''
ARGPARSE = """import argparse

parser = argparse.ArgumentParser()
parser.add_argument("path", help="What to read.")
parser.add_argument("-n", "--lines", type=int, default=10, help="How many lines (default %(default)s).")
"""
TYPER = """import typer


def main(name: str = typer.Option("world", "--name", help="Who to greet.")) -> None:
    print(name)
"""
COBRA = """package cmd

var port int

func init() {
	serveCmd.Flags().IntVarP(&port, "port", "p", 8080, "port to listen on")
	rootCmd.PersistentFlags().String("config", "", "config file (default is $HOME/.app.yaml)")
	verbose := flag.Bool("verbose", false, "say more")
	_ = verbose
}
"""
COMMANDER = """program
  .option('-d, --debug', 'output extra debugging')
  .option('-s, --size <type>', 'pizza size', 'large');
"""


def test_a_cobra_flag_belongs_to_the_command_its_use_names() -> None:
    """ko's Configuration page titled its tables "flags of `cmd`" — the `*cobra.Command` parameter of
    `AddPublishArg(cmd, …)`, which adds its flags to every command calling it — and "flags of `root`" for
    both `ko` (pkg/commands/root.go) and the doc generator `gendoc` (cmd/help/main.go). A command variable
    is named by its `Use`; a parameter names no command."""
    root = (
        "package commands\n\nfunc New() *cobra.Command {\n\tvar verbose bool\n\troot := &cobra.Command{\n"
        '\t\tUse:   "ko",\n\t\tShort: "Build images.",\n\t}\n'
        '\troot.PersistentFlags().BoolVarP(&verbose, "verbose", "v", false, "Enable debug logs")\n'
        "\treturn root\n}\n"
    )
    shared = (
        "package options\n\nfunc AddPublishArg(cmd *cobra.Command, po *PublishOptions) {\n"
        '\tcmd.Flags().StringSliceVarP(&po.Tags, "tags", "t", []string{"latest"}, "Which tags to use")\n}\n'
    )
    assert [(f.name, f.command) for f in cli_flags(root, "go")] == [("--verbose", "ko")]
    assert [(f.name, f.command) for f in cli_flags(shared, "go")] == [("--tags", "")]


def test_flags_are_read_from_the_calls_that_declare_them() -> None:
    assert cli_flags(CLICK, "python") == [
        Flag("--port", "8000", "Port to serve on.", 5, "serve"),
        Flag("--reload/--no-reload", "False", "Restart when a file changes (for development).", 6, "serve"),
    ]
    assert cli_flags(ARGPARSE, "python") == [
        Flag("--lines", "10", "How many lines (default %(default)s).", 5, "parser")  # "path" is no flag
    ]
    assert cli_flags(TYPER, "python") == [Flag("--name", '"world"', "Who to greet.", 4, "")]
    assert cli_flags(COBRA, "go") == [
        Flag("--port", "8080", "port to listen on", 6, "serveCmd"),
        Flag("--config", '""', "config file (default is $HOME/.app.yaml)", 7, "rootCmd"),
        Flag("--verbose", "false", "say more", 8, ""),
    ]
    assert cli_flags(COMMANDER, "javascript") == [
        Flag("--debug", "", "output extra debugging", 2),
        Flag("--size", "'large'", "pizza size", 3),
    ]


def test_the_configuration_page_lists_a_commands_flags(tmp_path: Path) -> None:
    files = {
        "README.md": "# servekit\n\nServekit serves a folder over HTTP.\n",
        "servekit/__init__.py": '"""Servekit."""\n',
        "servekit/cli.py": '"""The command line."""\n\n' + CLICK,
    }
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    page = read_page(result.study.harvest_dir / "reference" / "configuration.md")[1]
    at = f"{BLOB}{result.synthesis.revision}/servekit/cli.py"
    assert "## Command-line flags of `serve`" in page
    assert f"| `--port` | `8000` | Port to serve on. | [servekit/cli.py:7]({at}#L7) |" in page


def test_an_example_in_a_docstring_or_comment_declares_no_flag() -> None:
    python = 'def f():\n    """Use it so:\n\n        @click.option("--name")\n    """\n\n# parser.add_argument("--x")\n'
    go = '// cmd.Flags().String("name", "", "help")\n/* flag.Bool("v", false, "x") */\n'
    assert cli_flags(python, "python") == [] and cli_flags(go, "go") == []


def test_a_file_of_endless_unclosed_declarations_is_read_a_bounded_number_of_times(monkeypatch) -> None:
    from generator.repo.reference import flags

    calls: list[int] = []
    real = flags.call_arguments
    monkeypatch.setattr(flags, "call_arguments", lambda text, start: calls.append(start) or real(text, start))
    for text, language in (("click.option( " * 20_000, "python"), ('.option("' * 20_000, "javascript")):
        calls.clear()
        assert cli_flags(text, language) == []
        assert len(calls) == flags.MAX_CALLS  # each scans up to CALL_CHARS: 20,000 of them took 16 s


def test_each_installed_command_has_its_own_flags_table_named_as_it_is_run(tmp_path: Path) -> None:
    """taskiq's worker and scheduler each build an argparse `parser` with `--app-dir`, `--log-level` …: the
    flags were merged by name into one table "of `parser`", all cited in the scheduler's args.py. Each command
    the project installs (pyproject's scripts and the `taskiq_cli` group under the `taskiq` script) is a
    table of its own, named as it is run; a parser no command names keeps its variable, with its module
    when another module's parser shares the name."""

    def args(log: str) -> str:
        return (
            "import argparse\n\n\ndef parse():\n    parser = argparse.ArgumentParser()\n"
            f'    parser.add_argument("--app-dir", default=None, help="Where the app is.")\n'
            f'    parser.add_argument("--log-level", default="INFO", help="{log} log level.")\n'
            "    return parser\n"
        )

    files = {
        "README.md": "# tq\n\nTq runs tasks on workers.\n",
        "pyproject.toml": (
            '[project]\nname = "tq"\nversion = "1.0"\n\n[project.scripts]\ntq = "tq.__main__:main"\n\n'
            '[project.entry-points.tq_cli]\nworker = "tq.cli.worker.cmd:WorkerCMD"\n'
            'scheduler = "tq.cli.scheduler.cmd:SchedulerCMD"\n'
        ),
        "tq/__init__.py": '"""Tq."""\n',
        "tq/__main__.py": "def main():\n    pass\n",
        "tq/cli/__init__.py": "",
        "tq/cli/worker/__init__.py": "",
        "tq/cli/worker/cmd.py": "class WorkerCMD:\n    pass\n",
        "tq/cli/worker/args.py": args("worker"),
        "tq/cli/scheduler/__init__.py": "",
        "tq/cli/scheduler/cmd.py": "class SchedulerCMD:\n    pass\n",
        "tq/cli/scheduler/args.py": args("scheduler"),
        "tq/extra/__init__.py": "",
        "tq/extra/a.py": args("a"),
        "tq/extra/b.py": args("b"),
    }
    root = make_project(tmp_path / "repo", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    page = read_page(result.study.harvest_dir / "reference" / "configuration.md")[1]
    worker = page.split("## Command-line flags of `tq worker`")[1].split("##")[0]
    scheduler = page.split("## Command-line flags of `tq scheduler`")[1].split("##")[0]
    assert "worker log level." in worker and "tq/cli/worker/args.py:7" in worker and "scheduler" not in worker
    assert "scheduler log level." in scheduler and "tq/cli/scheduler/args.py:7" in scheduler
    assert "## Command-line flags of `parser` in `tq/extra/a.py`" in page
    assert "## Command-line flags of `parser` in `tq/extra/b.py`" in page
