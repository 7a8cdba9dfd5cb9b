"""What every command shares: the knowledge-base root, its config, the LLM provider and the console.

Each is made on first use, and the modules behind it (msgspec for the config, rich for the console, the
providers) are imported then too: `deepkb --help` or a command that needs no provider does not pay for them.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

from .. import deadlines
from ..errors import UsageError
from ..store import KBPaths

if TYPE_CHECKING:
    from rich.console import Console

    from ..config import Config
    from ..llm import Provider, Usage
    from ..llm.cost import CostRecord


@dataclass
class App:
    root: Path
    provider_flag: str | None = None
    _provider: Provider | None = None

    @cached_property
    def console(self) -> Console:
        """Progress and results on stderr; everything it prints passes `terminal.printable`."""
        from ..console import SafeConsole

        return SafeConsole(stderr=True, highlight=False)

    @cached_property
    def paths(self) -> KBPaths:
        if not self.root.is_dir():
            raise UsageError(
                f"knowledge-base root {self.root} does not exist",
                hint="create it, or run deepkb in the folder that holds deepkb.yml",
            )

        paths = KBPaths(self.root)
        return paths

    @cached_property
    def config(self) -> Config:
        from ..config import load_config

        return load_config(self.paths.config_file)

    def provider(self) -> Provider:
        """The run's LLM provider, announced once on stderr."""
        if self._provider is None:
            from rich.markup import escape

            from ..llm import open_provider

            provider, selection = open_provider(self.paths, self.config.llm, self.provider_flag)
            model = provider.model_for("default")
            self.console.print(
                f"[dim]LLM provider: {provider.name} ({escape(model)}) — {escape(selection.reason)}[/dim]"
            )
            self._provider = provider
        return self._provider

    def warn(self, line: str | None) -> None:
        """One warning line on stderr (nothing for None)."""
        if line:
            from rich.markup import escape

            self.console.print(f"[yellow]warning:[/yellow] {escape(line)}")

    def note_json_fallbacks(self, usage: Usage | CostRecord | None) -> None:
        """One line on stderr when a JSON stage fell back to its offline result: what each stage got."""
        from rich.markup import escape

        from ..llm.cost import json_stages_line

        stages = getattr(usage, "json_stages", None)
        if isinstance(stages, dict) and (line := json_stages_line(stages)):
            self.console.print(f"[yellow]{escape(line)}[/yellow]")

    def run_deadline(
        self, section: Literal["repo", "topic"]
    ) -> AbstractContextManager[deadlines.RunDeadline]:
        """The idle and total timeouts of one research run, from deepkb.yml's `repo` or `topic` section."""
        limits = self.config.repo if section == "repo" else self.config.topic
        return deadlines.run_deadline(section, total=limits.total_timeout, idle=limits.idle_timeout)


pass_app = click.make_pass_decorator(App)


def echo_json(data: object) -> None:
    """`--json` output: one indented JSON document on stdout, non-ASCII text as it is."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))
