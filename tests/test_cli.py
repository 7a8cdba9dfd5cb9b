"""The command line surface: every product command group exists, help is documented in the README."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from generator.cli import cli

COMMANDS = {
    "init",
    "build",
    "repo",
    "topic",
    "crawl",
    "knowledge",
    "ask",
    "mcp",
    "site",
    "serve",
    "publish",
    "refresh",
}
README = Path(__file__).resolve().parents[1] / "README.md"


def test_help_lists_every_command_group() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    listed = set(re.findall(r"^  (\w+)\s", result.output.split("Commands:")[1], re.MULTILINE))
    assert COMMANDS <= listed


def test_readme_documents_every_command() -> None:
    readme = README.read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"deepkb {command}" in readme, command
    for group in ("repo", "topic", "knowledge"):
        result = CliRunner().invoke(cli, [group, "--help"])
        sub = re.findall(r"^  (\w+)\s", result.output.split("Commands:")[1], re.MULTILINE)
        for name in sub:
            assert re.search(rf"deepkb {group}[^\n]*\b{name}\b", readme), f"{group} {name}"


def test_readme_quick_start_is_two_commands() -> None:
    readme = README.read_text(encoding="utf-8")
    block = readme.split("## Quick start")[1].split("```bash")[1].split("```")[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make build", "make test"]
