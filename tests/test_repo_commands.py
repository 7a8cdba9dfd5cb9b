"""A command-line tool's commands are entry points, found by their framework's idiom (click and typer
decorators, argparse's `set_defaults(func=…)` and main guard, cobra's `Run`/`RunE`, commander's `.action`),
and its main flow starts at the command most of the code hangs under."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository


def _work(module: str, steps: int) -> str:
    """A module whose `run` does `steps` pieces of work, each a function of a few lines."""
    body = "".join(f"    step_{i}(job)\n" for i in range(steps))
    helpers = "".join(
        f"\n\ndef step_{i}(job):\n    total = 0\n    for part in job:\n        total += part * {i}\n"
        f"    if total > {i}:\n        total -= {i}\n    return total\n"
        for i in range(steps)
    )
    return f'"""{module}."""\n\n\ndef run(job):\n{body}    return job\n{helpers}'


# a click tool: a group with a heavy command (build), a light one (version); no public API re-exported
CLICK_TOOL = {
    "tool/__init__.py": '"""A build tool."""\n',
    "tool/cli.py": (
        '"""The commands."""\n'
        "import click\n"
        "\n"
        "from .engine import run\n"
        "\n"
        "\n"
        "@click.group()\n"
        "def cli():\n"
        '    """The tool."""\n'
        "\n"
        "\n"
        "@cli.command()\n"
        "def version():\n"
        '    click.echo("1.0")\n'
        "\n"
        "\n"
        '@cli.command("build")\n'
        '@click.option("--fast", is_flag=True)\n'
        "def build(fast):\n"
        '    """Build everything."""\n'
        "    run([1, 2, 3])\n"
    ),
    "tool/engine.py": _work("The engine", 12),
    "tool/http.py": _work("An HTTP layer", 16).replace("def run(", "def serve("),
}


def _entry(files: dict[str, str], tmp_path: Path) -> tuple[str, str]:
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    tree = facts.calls.tree()
    assert tree, "a flow was found"
    return tree[0].edge.caller_path, tree[0].edge.caller


def test_a_click_tools_flow_starts_at_its_heaviest_command(tmp_path: Path) -> None:
    # without commands the flow starts at the heaviest public function: the unrelated HTTP layer
    assert _entry(CLICK_TOOL, tmp_path) == ("tool/cli.py", "build")
    facts = extract_facts(tmp_path / "repo", map_repository(tmp_path / "repo"))
    assert facts.calls is not None
    assert ("tool/cli.py", "version") in facts.calls.commands
    assert ("tool/cli.py", "cli") in facts.calls.commands


def test_a_librarys_commands_do_not_open_its_flow(tmp_path: Path) -> None:
    # the same code, but the package re-exports a public API: its commands are tools beside it
    library = {**CLICK_TOOL, "tool/__init__.py": '"""A build library."""\nfrom .http import serve\n'}
    root = write_tree(tmp_path / "repo", library)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert facts.calls.commands == []
    assert facts.calls.tree()[0].edge.caller != "build"


def test_a_package_defining_its_own_functions_is_a_library_and_a_modules_demo_is_no_command(
    tmp_path: Path,
) -> None:
    # rich: `rich.print` is defined in the package itself, and `python -m rich.diagnose` runs a module's
    # `if __name__ == "__main__":` demo; the flow must not start there
    library = {
        **CLICK_TOOL,
        "tool/__init__.py": '"""A build library."""\n\n\ndef build_all(path):\n    return path\n',
    }
    root = write_tree(tmp_path / "repo", library)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert facts.calls.commands == []
    private = {**CLICK_TOOL, "tool/__init__.py": '"""A tool."""\n\n\ndef _setup():\n    return 1\n'}
    root = write_tree(tmp_path / "tool", private)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None and ("tool/cli.py", "cli") in facts.calls.commands  # still a tool


ARGPARSE_TOOL = {
    "fetcher/__init__.py": "",
    "fetcher/__main__.py": (
        '"""python -m fetcher."""\nimport sys\n\n\ndef main():\n'
        "    from fetcher.core import main as core_main  # imported late: start-up stays fast\n"
        "    return core_main()\n\n\n"
        'if __name__ == "__main__":\n    sys.exit(main())\n'
    ),
    "fetcher/core.py": (
        '"""The program."""\nimport argparse\n\nfrom .engine import run\n\n\n'
        "def fetch(args):\n    run(args.urls)\n\n\n"
        "def raw_main(program, argv):\n    args = argparse.Namespace(urls=argv)\n    return program(args)\n\n\n"
        "def main():\n    return raw_main(program=fetch, argv=[])\n"
    ),
    "fetcher/engine.py": _work("The engine", 12),
    "fetcher/http.py": _work("An HTTP layer", 16).replace("def run(", "def serve("),
}


def test_an_argparse_tool_starts_at_its_main_guard_and_follows_a_late_import_and_a_handed_function(
    tmp_path: Path,
) -> None:
    root = write_tree(tmp_path / "repo", ARGPARSE_TOOL)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert ("fetcher/__main__.py", "main") in facts.calls.commands
    edges = {(e.caller_path, e.caller, e.callee_path, e.callee) for e in facts.calls.edges()}
    # `from fetcher.core import main as core_main` inside the function: the call is the core's main
    assert ("fetcher/__main__.py", "main", "fetcher/core.py", "main") in edges
    # `raw_main(program=fetch)`: raw_main calls what it is handed, so main's flow leads to fetch
    assert ("fetcher/core.py", "main", "fetcher/core.py", "fetch") in edges
    tree = facts.calls.tree()
    assert (tree[0].edge.caller_path, tree[0].edge.caller) == ("fetcher/__main__.py", "main")
    reached = _names(tree)
    assert {"main", "fetch", "run"} <= reached


def test_set_defaults_names_a_subcommands_function(tmp_path: Path) -> None:
    files = {
        "tool.py": (
            "import argparse\n\n\ndef serve(args):\n    return args\n\n\n"
            "def build_parser():\n    parser = argparse.ArgumentParser()\n    sub = parser.add_subparsers()\n"
            '    serving = sub.add_parser("serve")\n    serving.set_defaults(func=serve)\n    return parser\n'
        )
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert facts.calls.commands == [("tool.py", "serve")]


def _names(tree: object) -> set[str]:
    found: set[str] = set()
    for branch in tree:  # type: ignore[attr-defined]
        found.add(branch.edge.callee)
        found |= _names(branch.below)
    return found


COBRA_TOOL = {
    "go.mod": "module example.com/viewer\n\ngo 1.22\n",
    "main.go": (
        "package main\n\n"
        'import "github.com/spf13/cobra"\n\n'
        "var rootCmd = &cobra.Command{\n"
        '\tUse:  "viewer",\n'
        "\tRunE: execute,\n"
        "}\n\n"
        "func newServeCmd() *cobra.Command {\n"
        "\treturn &cobra.Command{\n"
        '\t\tUse: "serve",\n'
        "\t\tRun: func(cmd *cobra.Command, args []string) {\n"
        "\t\t\tserve(args)\n"
        "\t\t},\n"
        "\t}\n"
        "}\n\n"
        "func serve(args []string) {\n\t_ = args\n}\n\n"
        "func execute(cmd *cobra.Command, args []string) error {\n"
        "\trender(args)\n"
        "\treturn nil\n"
        "}\n\n"
        "func main() {\n"
        "\t_ = rootCmd.Execute()\n"
        "}\n"
    ),
    "render.go": "package main\n\n"
    + "".join(
        f"func step{i}(args []string) int {{\n\ttotal := 0\n\tfor range args {{\n\t\ttotal += {i}\n\t}}\n"
        f"\tif total > {i} {{\n\t\ttotal -= {i}\n\t}}\n\treturn total\n}}\n\n"
        for i in range(10)
    )
    + "func render(args []string) {\n"
    + "".join(f"\tstep{i}(args)\n" for i in range(10))
    + "}\n",
}


def test_a_cobra_commands_run_function_opens_the_flow(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", COBRA_TOOL)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    commands = facts.calls.commands
    # `RunE: execute` names it; a Run written in place is credited to the function declaring the command
    assert ("main.go", "execute") in commands
    assert ("main.go", "newServeCmd") in commands
    assert ("main.go", "main") in commands
    tree = facts.calls.tree()
    assert (tree[0].edge.caller_path, tree[0].edge.caller) == ("main.go", "execute")
    assert "render" in _names(tree)


def test_a_commander_action_is_a_command(tmp_path: Path) -> None:
    files = {
        "package.json": '{"name": "deployer", "bin": {"deploy": "cli.js"}}\n',
        "cli.js": (
            "const { program } = require('commander');\n"
            "const { deploy } = require('./deploy');\n\n"
            "function setup() {\n"
            "  program.command('init').action(async () => {\n    deploy([]);\n  });\n"
            "}\n\n"
            "program.command('deploy <target>').description('deploy it').action(deploy);\n"
            "setup();\nprogram.parse();\n"
        ),
        "deploy.js": "function deploy(targets) {\n  return targets.length;\n}\n\nmodule.exports = { deploy };\n",
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert ("deploy.js", "deploy") in facts.calls.commands
    assert ("cli.js", "setup") in facts.calls.commands


def test_a_go_librarys_command_line_tool_does_not_open_its_flow(tmp_path: Path) -> None:
    # the root package is a library (no main); a tool under cmd/ runs it: the library's API opens the flow
    files = {
        **{k: v for k, v in COBRA_TOOL.items() if k != "main.go"},
        "render.go": COBRA_TOOL["render.go"]
        .replace("package main", "package viewer")
        .replace("func render(", "func Render("),
        "cmd/viewer/main.go": COBRA_TOOL["main.go"],
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert facts.calls.commands == []
    # the same tool with no library beside it (cmd/ layout only) is a command-line tool
    app = {"go.mod": COBRA_TOOL["go.mod"], "cmd/viewer/main.go": COBRA_TOOL["main.go"]}
    root = write_tree(tmp_path / "app", app)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert ("cmd/viewer/main.go", "execute") in facts.calls.commands


def test_the_helpers_a_bin_script_requires_make_no_library(tmp_path: Path) -> None:
    """A package.json `bin` script is a command line, not the package's face: its helper module exporting
    `deploy` (`exports.deploy = …`, or `module.exports = { deploy }`) had joined the package's API, the
    repository counted as a library and its commands were dropped. A `main` module's helpers still make one."""
    files = {
        "package.json": '{"name": "deployer", "bin": {"deploy": "cli.js"}}\n',
        "cli.js": (
            "const { program } = require('commander');\nconst { deploy } = require('./deploy');\n\n"
            "program.command('deploy <target>').description('deploy it').action(deploy);\nprogram.parse();\n"
        ),
        "deploy.js": "exports.deploy = function deploy(targets) {\n  return targets.length;\n};\n",
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None and ("deploy.js", "deploy") in facts.calls.commands
    assert facts.files["deploy.js"].api_names == []
    library = {**files, "package.json": '{"name": "deployer", "main": "cli.js"}\n'}
    root = write_tree(tmp_path / "library", library)
    assert extract_facts(root, map_repository(root)).files["deploy.js"].api_names == ["deploy"]


def test_a_librarys_command_its_readme_shows_a_user_typing_opens_its_flow(tmp_path: Path) -> None:
    # datasette: the package re-exports an API, yet its README runs `datasette serve data.db`; the flow had
    # followed the API's heaviest function (the HTTP layer here, a permission-rule builder there)
    library = {
        **CLICK_TOOL,
        "tool/__init__.py": '"""A build library."""\nfrom .http import serve\n',
        "pyproject.toml": '[project]\nname = "tool"\n\n[project.scripts]\ntool = "tool.cli:cli"\n',
        "README.md": "# tool\n\n```sh\npip install tool\n$ tool build --fast\n```\n",
    }
    assert _entry(library, tmp_path) == ("tool/cli.py", "build")
    facts = extract_facts(tmp_path / "repo", map_repository(tmp_path / "repo"))
    assert facts.calls is not None and facts.calls.commands == [("tool/cli.py", "build")]  # not `version`


def test_a_librarys_command_opens_its_flow_only_when_shown_before_its_code_is_called(tmp_path: Path) -> None:
    library = {
        **CLICK_TOOL,
        "tool/__init__.py": '"""A build library."""\nfrom .http import serve\n',
        "pyproject.toml": '[project]\nname = "tool"\n\n[project.scripts]\ntool = "tool.cli:cli"\n',
    }
    # taskiq: the README makes a broker and sends a task before it runs `taskiq worker`: used from code
    called = {**library, "README.md": "# tool\n\n```python\nserve([1])\n```\n\n```sh\ntool build\n```\n"}
    root = write_tree(tmp_path / "called", called)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None and facts.calls.commands == []
    # nfpm: a README without code, a quick start installing with `go install …@latest` (no decorator) then
    # running `nfpm init` and `nfpm package`: the commands shown, the heaviest opening the flow
    started = {
        **library,
        "README.md": "# tool\n\nBuilds things.\n",
        "docs/quick-start.md": (
            "# Quick start\n\n```sh\ngo install example.com/tool@latest\n```\n\n"
            "Make a sample with `tool version`, then build:\n\n```sh\n$ tool build --fast\n```\n"
        ),
    }
    root = write_tree(tmp_path / "started", started)
    facts = extract_facts(root, map_repository(root))
    assert facts.calls is not None
    assert facts.calls.commands == [("tool/cli.py", "version"), ("tool/cli.py", "build")]
    assert facts.calls.tree()[0].edge.caller == "build"


GO_CLI_VALUES = {
    # gqlgen: its urfave/cli commands are package-level values whose actions run the API; `main` only hands
    # them to `app.Run`, so no call of main's leads into the repository
    "go.mod": "module example.com/gen\n\ngo 1.21\n\nrequire github.com/urfave/cli/v3 v3.0.0\n",
    "main.go": (
        'package main\n\nimport (\n\t"context"\n\t"os"\n\n\t"example.com/gen/api"\n'
        '\t"github.com/urfave/cli/v3"\n)\n\n'
        "var generateCmd = &cli.Command{\n"
        '\tName: "generate",\n'
        "\tAction: func(ctx context.Context, c *cli.Command) error {\n\t\treturn api.Generate()\n\t},\n}\n\n"
        "func main() {\n\tapp := &cli.Command{}\n\tapp.Commands = []*cli.Command{generateCmd}\n"
        "\t_ = app.Run(context.Background(), os.Args)\n}\n"
    ),
    "api/generate.go": (
        "package api\n\n// Generate writes the code.\nfunc Generate() error {\n\tload()\n\twrite()\n"
        "\treturn nil\n}\n\nfunc load() {\n"
        + "".join(f"\tl{i} := {i}\n\t_ = l{i}\n" for i in range(12))
        + "}\n\nfunc write() {\n"
        + "".join(f"\tw{i} := {i}\n\t_ = w{i}\n" for i in range(12))
        + "}\n"
    ),
}


def test_a_tool_whose_commands_lead_nowhere_takes_its_flow_from_the_api_they_run(tmp_path: Path) -> None:
    # the commands' tree was empty, and with it the index's main flow
    assert _entry(GO_CLI_VALUES, tmp_path) == ("api/generate.go", "Generate")


def test_a_command_class_its_readme_shows_opens_the_flow_at_its_call(tmp_path: Path) -> None:
    # commitizen: a table files `commands.Bump` under "func" and cli.py runs `args.func(conf, arguments)()`;
    # a flow from the class followed its constructor (`Bump.__init__`), not the bump
    files = {
        "rel/__init__.py": '"""A release library."""\nfrom .http import serve\n',
        "rel/engine.py": _work("The engine", 12),
        "rel/config.py": _work("The settings", 14).replace("def run(", "def read_config("),
        "rel/http.py": _work("An HTTP layer", 16).replace("def run(", "def serve("),
        "rel/commands/__init__.py": "from .bump import Bump\n",
        "rel/commands/bump.py": (
            '"""Bump."""\nfrom rel.config import read_config\nfrom rel.engine import run\n\n\nclass Bump:\n'
            "    def __init__(self, config):\n        self.config = read_config(config)\n\n"
            "    def __call__(self):\n        run([1, 2])\n"
        ),
        "rel/cli.py": (
            '"""The commands."""\nfrom rel import commands\n\n'
            'data = {"commands": [{"name": ["bump"], "help": "Bump the version.", "func": commands.Bump}]}\n'
        ),
        "pyproject.toml": '[project]\nname = "rel"\n\n[project.scripts]\nrel = "rel.cli:main"\n',
        "README.md": "# rel\n\n```sh\nrel bump\n```\n",
    }
    assert _entry(files, tmp_path) == ("rel/commands/bump.py", "Bump.__call__")
