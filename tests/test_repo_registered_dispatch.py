"""Calls through a registry reach what was registered with it: nfpm's `nfpm.Get(format)` hands back the
`Packager` each format's package registered in its `init` (`nfpm.RegisterPackager("deb", Default)`), and
`pkg.Package(info, f)` runs that packager's `Package`: a call tree from the command goes on into deb's and
rpm's packaging. And a Go module's root package imported as `example.com/pack/v2` goes by its name
(`pack.Get`), not by its major version."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts

PACKAGERS = {
    "go.mod": "module example.com/pack/v2\n\ngo 1.21\n",
    "pack.go": (
        "package pack\n\n"
        'import "sync"\n\n'
        "var (\n\tpackagers = map[string]Packager{}\n\tlock      sync.Mutex\n)\n\n"
        "// Packager makes a package of one format.\n"
        "type Packager interface {\n\tPackage(info *Info) error\n\tName() string\n}\n\n"
        "// Info is what goes in a package.\n"
        "type Info struct {\n\tTarget string\n}\n\n"
        "// Register a packager for a format.\n"
        "func Register(format string, p Packager) {\n"
        "\tlock.Lock()\n\tdefer lock.Unlock()\n\tpackagers[format] = p\n}\n\n"
        "// Get the packager registered for a format.\n"
        "func Get(format string) (Packager, error) {\n"
        "\tp, ok := packagers[format]\n\tif !ok {\n\t\treturn nil, nil\n\t}\n\treturn p, nil\n}\n"
    ),
    "deb/deb.go": (
        "package deb\n\n"
        'import "example.com/pack/v2"\n\n'
        'func init() {\n\tpack.Register("deb", Default)\n}\n\n'
        "// Default deb packager.\n"
        "var Default = &Deb{}\n\n"
        "// Deb packages .deb files.\n"
        "type Deb struct{}\n\n"
        "// Package writes the .deb.\n"
        "func (*Deb) Package(info *pack.Info) error {\n\treturn writeControl(info)\n}\n\n"
        "// Name of the format.\n"
        'func (*Deb) Name() string {\n\treturn "deb"\n}\n\n'
        "func writeControl(info *pack.Info) error {\n"
        '\tif info.Target == "" {\n\t\treturn nil\n\t}\n\tinfo.Target = info.Target + ".deb"\n\treturn nil\n}\n'
    ),
    "rpm/rpm.go": (
        "package rpm\n\n"
        'import "example.com/pack/v2"\n\n'
        'func init() {\n\tpack.Register("rpm", &RPM{})\n}\n\n'
        "// RPM packages .rpm files.\n"
        "type RPM struct{}\n\n"
        "// Package writes the .rpm.\n"
        "func (*RPM) Package(info *pack.Info) error {\n\treturn writeSpec(info)\n}\n\n"
        "// Name of the format.\n"
        'func (*RPM) Name() string {\n\treturn "rpm"\n}\n\n'
        "func writeSpec(info *pack.Info) error {\n"
        '\tif info.Target == "" {\n\t\treturn nil\n\t}\n\tinfo.Target = info.Target + ".rpm"\n\treturn nil\n}\n'
    ),
    "internal/cmd/run.go": (
        "package cmd\n\n"
        'import "example.com/pack/v2"\n\n'
        "// Run makes the package of one format.\n"
        "func Run(format string) error {\n"
        "\tinfo := &pack.Info{Target: format}\n"
        "\tp, err := pack.Get(format)\n"
        "\tif err != nil {\n\t\treturn err\n\t}\n"
        "\treturn p.Package(info)\n}\n"
    ),
}


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    root = write_tree(tmp_path / "repo", files)
    return extract_facts(root, map_repository(root))


def test_a_go_modules_root_package_imported_with_its_major_version_goes_by_its_name(tmp_path: Path) -> None:
    """`import "example.com/pack/v2"` is package `pack`: `pack.Get` and `pack.Register` are the root
    package's functions (nfpm's `nfpm.Get`, imported as github.com/goreleaser/nfpm/v2, had given no edge)."""
    facts = facts_of(tmp_path, PACKAGERS)
    assert facts.calls is not None
    edges = [(e.caller_path, e.caller, e.callee) for e in facts.calls.edges() if e.callee_path == "pack.go"]
    assert ("internal/cmd/run.go", "Run", "Get") in edges
    assert ("deb/deb.go", "init", "Register") in edges


def test_a_call_through_a_registry_reaches_each_registered_implementation(tmp_path: Path) -> None:
    """`p.Package(info)` on what `pack.Get` hands back runs the `Package` of each type registered with
    `pack.Register` (a package variable `Default = &Deb{}`, a literal `&RPM{}`), cited at the call."""
    facts = facts_of(tmp_path, PACKAGERS)
    assert facts.calls is not None
    dispatched = facts.calls.calls_of("internal/cmd/run.go", {"Run"}, dispatched=True)
    found = sorted((e.callee_path, e.callee, e.line) for e in dispatched if e.dispatched)
    assert found == [("deb/deb.go", "Deb.Package", 12), ("rpm/rpm.go", "RPM.Package", 12)]


# commitizen's cli.py: a table of subcommands, each filed under "func", then `args.func(conf, arguments)()`
COMMANDS = {
    "pyproject.toml": '[project]\nname = "cz"\n\n[project.scripts]\ncz = "cz.cli:main"\n',
    "cz/__init__.py": "",
    "cz/commands.py": (
        "class Bump:\n"
        '    """Bump the version."""\n\n'
        "    def __init__(self, config, arguments):\n"
        "        self.config = config\n\n"
        "    def __call__(self):\n"
        "        return self.find_increment() + 1\n\n"
        "    def find_increment(self):\n"
        "        step = 1\n        step += 1\n        step += 1\n        return step\n\n\n"
        "class Version:\n"
        '    """Show the version."""\n\n'
        "    def __init__(self, config, arguments):\n"
        "        self.config = config\n\n"
        "    def __call__(self):\n"
        "        return 1\n\n\n"
        "def helper():\n    return 0\n"
    ),
    "cz/cli.py": (
        "import argparse\n\n"
        "from cz import commands\n\n"
        "data = {\n"
        '    "prog": "cz",\n'
        '    "subcommands": {\n'
        '        "commands": [\n'
        '            {"name": ["bump"], "help": "bump the version", "func": commands.Bump},\n'
        '            {"name": ["version"], "help": "show the version", "func": commands.Version},\n'
        "        ],\n"
        "    },\n"
        "}\n\n\n"
        "def main():\n"
        "    parser = argparse.ArgumentParser(prog=data['prog'])\n"
        "    args = parser.parse_args()\n"
        "    args.func({}, vars(args))()\n"
    ),
}


def test_a_python_call_through_a_table_of_commands_runs_each_command(tmp_path: Path) -> None:
    """`args.func(conf, arguments)()` runs the `__call__` of each command class the module's table of
    subcommands files under "func" (commitizen's cli.py:722), marked as dispatch; helpers it does not list
    are not reached."""
    facts = facts_of(tmp_path, COMMANDS)
    assert facts.calls is not None
    dispatched = facts.calls.calls_of("cz/cli.py", {"main"}, dispatched=True)
    found = sorted((e.callee, e.line) for e in dispatched if e.dispatched)
    assert found == [("Bump", 19), ("Bump.__call__", 19), ("Version", 19), ("Version.__call__", 19)]


LOGGERS = {
    "go.mod": "module example.com/logs\n\ngo 1.21\n",
    "logging/logger.go": (
        "package logging\n\n"
        "// Logger logs one operation.\n"
        "type Logger interface {\n\tLog(operation string, status int)\n}\n\n"
        "type LoggerFunc func(string, int)\n\n"
        "func (f LoggerFunc) Log(operation string, status int) {\n\tf(operation, status)\n}\n"
    ),
    "logging/sink.go": (
        "package logging\n\n"
        "// Sink writes a test's log lines.\n"
        "type Sink interface {\n\tLog(test, step string, operation string, status int)\n}\n\n"
        "type SinkFunc func(string, string, string, int)\n\n"
        "func (f SinkFunc) Log(test, step string, operation string, status int) {\n"
        "\tf(test, step, operation, status)\n}\n"
    ),
    "logging/log.go": (
        "package logging\n\n"
        "// Log one operation with the logger given.\n"
        "func Log(logger Logger, operation string) {\n\tlogger.Log(operation, 0)\n}\n"
    ),
}


def test_a_go_interface_call_reaches_only_the_methods_taking_its_parameters(tmp_path: Path) -> None:
    """`logger.Log(operation, 0)` on a `Logger` runs `LoggerFunc.Log` (2 parameters), not the `Log` of
    4 that `SinkFunc` has for the package's other interface (chainsaw's pkg/logging/log.go:13)."""
    facts = facts_of(tmp_path, LOGGERS)
    assert facts.calls is not None
    dispatched = facts.calls.calls_of("logging/log.go", {"Log"}, dispatched=True)
    assert [e.callee for e in dispatched if e.dispatched] == ["LoggerFunc.Log"]
