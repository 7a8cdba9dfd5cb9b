"""What every command shares: the knowledge-base root, its config, the LLM provider and the console."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NoReturn

import click
from rich.console import Console

from .. import cjk
from ..config import Config, load_config
from ..errors import NotImplementedYetError, UsageError
from ..llm import Provider, open_provider
from ..store import KBPaths


@dataclass
class App:
    root: Path
    provider_flag: str | None = None
    console: Console = field(default_factory=lambda: Console(stderr=True, highlight=False))
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
            self.console.print(f"[dim]LLM provider: {provider.name} ({model}) — {selection.reason}[/dim]")
            self._provider = provider
        return self._provider


pass_app = click.make_pass_decorator(App)


def not_implemented(command: str) -> NoReturn:
    raise NotImplementedYetError(f"'deepkb {command}' is not implemented yet")
