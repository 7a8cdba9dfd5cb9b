"""What every command shares: the knowledge-base root, its config, the LLM provider and the console."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal, NoReturn

import click
from rich.console import Console
from rich.markup import escape

from .. import cjk, deadlines
from ..config import Config, load_config
from ..errors import NotImplementedYetError, UsageError
from ..llm import Provider, open_provider
from ..store import KBPaths
from ..terminal import SafeConsole


@dataclass
class App:
    root: Path
    provider_flag: str | None = None
    console: Console = field(default_factory=lambda: SafeConsole(stderr=True, highlight=False))
    """Progress and results on stderr; everything it prints passes `terminal.printable`."""
    _provider: Provider | None = None

    @cached_property
    def paths(self) -> KBPaths:
        if not self.root.is_dir():
            raise UsageError(
                f"knowledge-base root {self.root} does not exist",
                hint="create it, or run deepkb in the folder that holds deepkb.yml",
            )
        paths = KBPaths(self.root)
        cjk.use_cache_dir(paths.cache_dir)  # jieba's dictionary cache stays in ours (no import here)
        return paths

    @cached_property
    def config(self) -> Config:
        return load_config(self.paths.config_file)

    def provider(self) -> Provider:
        """The run's LLM provider, announced once on stderr."""
        if self._provider is None:
            provider, selection = open_provider(self.paths, self.config.llm, self.provider_flag)
            model = provider.model_for("default")
            self.console.print(
                f"[dim]LLM provider: {provider.name} ({escape(model)}) — {escape(selection.reason)}[/dim]"
            )
            self._provider = provider
        return self._provider

    def run_deadline(
        self, section: Literal["repo", "topic"]
    ) -> AbstractContextManager[deadlines.RunDeadline]:
        """The idle and total timeouts of one research run, from deepkb.yml's `repo` or `topic` section."""
        limits = self.config.repo if section == "repo" else self.config.topic
        return deadlines.run_deadline(section, total=limits.total_timeout, idle=limits.idle_timeout)


pass_app = click.make_pass_decorator(App)


def not_implemented(command: str) -> NoReturn:
    raise NotImplementedYetError(f"'deepkb {command}' is not implemented yet")
