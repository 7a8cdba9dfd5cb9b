"""A command-line program's commands as its user types them, each with its help line and the code that runs
it (commitizen's table of subcommands in cli.py, chainsaw's cobra commands), listed on the Overview."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup
from repo_source_fixture import write_tree
from test_repo_reference import BLOB

from generator.app.targets import repo_target
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.named_commands import named_commands
from generator.repo.map.walk import map_repository, read_or_none
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page

# commitizen's shape: cli.py declares a table of subcommands, each naming the class that runs it
TABLE_CLI = {
    "README.md": "# cz\n\nCz writes commit messages.\n",
    "pyproject.toml": '[project]\nname = "cz"\nversion = "1.0"\n\n[project.scripts]\ncz = "cz.cli:main"\n',
    "cz/__init__.py": '"""Cz."""\n',
    "cz/commands/__init__.py": "from .bump import Bump\nfrom .commit import Commit\nfrom .version import Version\n",
    "cz/commands/version.py": "class Version:\n    def __call__(self):\n        return 2\n",
    "cz/commands/bump.py": (
        "class Bump:\n    def __init__(self, config, arguments):\n        self.config = config\n\n"
        "    def __call__(self):\n        return self.config\n"
    ),
    "cz/commands/commit.py": "class Commit:\n    def __call__(self):\n        return 1\n",
    "cz/cli.py": (
        '"""The command line."""\n'
        "import argparse\n\n"
        "from cz import commands\n\n"
        "data = {\n"
        '    "arguments": [{"name": "--debug", "action": "store_true", "help": "Use debug mode."}],\n'
        '    "subcommands": {\n'
        '        "commands": [\n'
        '            {"name": ["commit", "c"], "help": "Create new commit.", "func": commands.Commit},\n'
        '            {"name": "bump", "help": "Bump semantic version.", "func": commands.Bump},\n'
        '            {"name": ["version"], "description": "Get the version", "func": commands.Version},\n'
        "        ]\n"
        "    },\n"
        "}\n\n\n"
        "def main():\n"
        "    parser = argparse.ArgumentParser()\n"
        "    arguments = parser.parse_args()\n"
        "    arguments.func(None, vars(arguments))()\n"
    ),
}

CLICK_AND_ARGPARSE = {
    "tool/__init__.py": "",
    "tool/cli.py": (
        "import click\n\n\n"
        "@click.group()\ndef cli():\n    pass\n\n\n"
        '@cli.command("build")\ndef build_all():\n    """Build everything.\n\n    Slowly."""\n\n\n'
        '@cli.command(help="Clean the tree.")\ndef clean_tree():\n    pass\n'
    ),
    "tool/legacy.py": (
        "import argparse\n\n\ndef serve(args):\n    pass\n\n\n"
        "def main():\n    parser = argparse.ArgumentParser()\n    sub = parser.add_subparsers()\n"
        '    run = sub.add_parser("serve", help="Serve the site.")\n    run.set_defaults(func=serve)\n'
    ),
    "tests/test_cli.py": '@cli.command("fake")\ndef fake():\n    pass\n',
}

COBRA = {
    "go.mod": "module github.com/acme/kite\n\ngo 1.22\n",
    "main.go": 'package main\n\nimport "github.com/acme/kite/pkg/commands"\n\nfunc main() { commands.Root().Execute() }\n',
    "pkg/commands/root.go": (
        'package commands\n\nimport "github.com/spf13/cobra"\n\n'
        "func Root() *cobra.Command {\n"
        '\troot := &cobra.Command{Use: "kite", Short: "Kite flies", RunE: func(cmd *cobra.Command, _ []string) error {\n'
        "\t\treturn cmd.Help()\n\t}}\n"
        "\troot.AddCommand(Test(), Lint())\n\treturn root\n}\n"
    ),
    "pkg/commands/test.go": (
        'package commands\n\nimport "github.com/spf13/cobra"\n\n'
        "// Test runs the tests.\nfunc Test() *cobra.Command {\n"
        "\treturn &cobra.Command{\n"
        '\t\tUse:   "test [flags]... [test directories]...",\n'
        '\t\tShort: "Run tests",\n'
        "\t\tRunE: func(cmd *cobra.Command, args []string) error {\n\t\t\treturn nil\n\t\t},\n"
        "\t}\n}\n"
    ),
    "pkg/commands/lint.go": (
        'package commands\n\nimport "github.com/spf13/cobra"\n\n'
        "func lint(cmd *cobra.Command, args []string) error {\n\treturn nil\n}\n\n"
        "func Lint() *cobra.Command {\n"
        '\treturn &cobra.Command{Use: "lint", Short: "Lint a file", RunE: lint}\n}\n'
    ),
    "hack/gen/main.go": (
        'package main\n\nimport "github.com/spf13/cobra"\n\nfunc main() {\n'
        '\tc := &cobra.Command{Use: "gen", Short: "Generate code", Run: func(*cobra.Command, []string) {}}\n'
        "\tc.Execute()\n}\n"
    ),
}


def _commands(files: dict[str, str], tmp_path: Path) -> tuple[str, list[tuple[str, str, str]]]:
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    program, commands = named_commands(lambda path: read_or_none(root, path), facts.files)
    return program, [(c.name, c.help, f"{c.path}:{c.symbol.start} {c.symbol.name}") for c in commands]


def test_a_table_of_subcommands_names_each_command_and_the_class_that_runs_it(tmp_path: Path) -> None:
    assert _commands(TABLE_CLI, tmp_path) == (
        "cz",
        [
            ("commit", "Create new commit.", "cz/commands/commit.py:1 Commit"),
            ("bump", "Bump semantic version.", "cz/commands/bump.py:1 Bump"),
            ("version", "Get the version", "cz/commands/version.py:1 Version"),
        ],  # a module named as a release script's runs a command all the same
    )


def test_click_commands_and_argparse_subparsers_are_named_as_typed(tmp_path: Path) -> None:
    program, commands = _commands(CLICK_AND_ARGPARSE, tmp_path)
    assert program == ""
    assert sorted(commands) == [
        ("build", "Build everything.", "tool/cli.py:9 build_all"),
        ("clean-tree", "Clean the tree.", "tool/cli.py:16 clean_tree"),
        ("serve", "Serve the site.", "tool/legacy.py:4 serve"),
    ]  # the group `cli` runs none of its own; a test's command is none of the program's


def test_cobra_commands_run_under_the_root_named_after_the_module(tmp_path: Path) -> None:
    program, commands = _commands(COBRA, tmp_path)
    assert program == "kite"
    assert sorted(commands) == [
        ("lint", "Lint a file", "pkg/commands/lint.go:5 lint"),
        ("test", "Run tests", "pkg/commands/test.go:6 Test"),
    ]  # a handler written in place is credited to the function declaring the command; hack/ is tooling


def test_the_overview_lists_the_commands_linked_to_the_code_that_runs_them(tmp_path: Path) -> None:
    root = make_project(tmp_path / "repo", TABLE_CLI)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    page = read_page(result.study.harvest_dir / "index.md")[1]
    at = f"{BLOB}{result.synthesis.revision}/cz/commands"
    assert "**Commands**, as the code declares them, each with the code that runs it:" in page
    assert f"- `cz bump` — Bump semantic version. · runs [`Bump`]({at}/bump.py#L1-L6)" in page
    assert f"- `cz commit` — Create new commit. · runs [`Commit`]({at}/commit.py#L1-L3)" in page


def test_an_entry_point_group_named_after_the_program_registers_its_subcommands(tmp_path: Path) -> None:
    """taskiq's `[project.entry-points.taskiq_cli]`: `worker = "taskiq.cli.worker.cmd:WorkerCMD"` is
    `taskiq worker`, helped by the class's `short_help`; another group (a plugin's) registers no command."""
    files = {
        "pyproject.toml": (
            '[project]\nname = "tq"\nversion = "1.0"\n\n[project.scripts]\ntq = "tq.__main__:main"\n\n'
            '[project.entry-points.tq_cli]\nworker = "tq.cli.worker:WorkerCMD"\n\n'
            '[project.entry-points.opentelemetry_instrumentor]\ntq = "tq.otel:Instrumentor"\n'
        ),
        "tq/__init__.py": "",
        "tq/__main__.py": "def main():\n    pass\n",
        "tq/otel.py": "class Instrumentor:\n    pass\n",
        "tq/cli/__init__.py": "",
        "tq/cli/worker.py": 'class WorkerCMD:\n    """Workers."""\n\n    short_help = "Run workers"\n',
    }
    assert _commands(files, tmp_path) == ("tq", [("worker", "Run workers", "tq/cli/worker.py:1 WorkerCMD")])


def test_a_cobra_command_in_a_package_under_anothers_is_its_subcommand(tmp_path: Path) -> None:
    """chainsaw's pkg/commands/migrate/kuttl/config is `chainsaw migrate kuttl config`; two `config`
    commands in two packages are two commands."""

    def command(package: str, use: str) -> str:
        return (
            f'package {package}\n\nimport "github.com/spf13/cobra"\n\nfunc Command() *cobra.Command {{\n'
            f'\treturn &cobra.Command{{Use: "{use}", Short: "{use} it", RunE: func(*cobra.Command, []string) error {{ return nil }}}}\n}}\n'
        )

    files = {
        "go.mod": "module github.com/acme/saw\n",
        "pkg/commands/root/command.go": command("root", "saw"),
        "pkg/commands/migrate/command.go": command("migrate", "migrate"),
        "pkg/commands/migrate/config/command.go": command("config", "config"),
        "pkg/commands/renovate/command.go": command("renovate", "renovate"),
        "pkg/commands/renovate/config/command.go": command("config", "config"),
    }
    program, commands = _commands(files, tmp_path)
    assert program == "saw"
    assert [(name, help_line) for name, help_line, _ in commands] == [
        ("migrate", "migrate it"),
        ("migrate config", "config it"),
        ("renovate", "renovate it"),
        ("renovate config", "config it"),
    ]
