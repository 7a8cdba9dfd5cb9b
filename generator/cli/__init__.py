"""The `deepkb` command line: parse, load config, call a pipeline, print. Errors become one line."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..errors import DeepkbError
from .app import App


class DeepkbGroup(click.Group):
    """Turns any DeepkbError raised below into one line on stderr and its exit code, no traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except DeepkbError as exc:
            click.echo(f"Error: {exc.line()}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("Interrupted; finished work is saved and the run can be resumed.", err=True)
            ctx.exit(130)


@click.group(cls=DeepkbGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Knowledge-base root (holds deepkb.yml). Default: the current directory.",
)
@click.option(
    "--provider",
    type=click.Choice(["anthropic", "openai", "offline"]),
    default=None,
    help="LLM provider. Default: DEEPKB_PROVIDER, deepkb.yml, anthropic if ANTHROPIC_API_KEY is set, else offline.",
)
@click.version_option(__version__, prog_name="deepkb")
@click.pass_context
def cli(ctx: click.Context, root: Path | None, provider: str | None) -> None:
    """deepkb — research repositories and topics, publish them as a searchable knowledge base.

    \b
    Typical use:
      deepkb build              research everything in deepkb.yml, then build site/
      deepkb repo run URL       research one repository
      deepkb topic run "TOPIC"  research one topic
      deepkb serve              preview the site
    """
    base = (root or Path(os.environ.get("DEEPKB_ROOT", "."))).resolve()
    ctx.obj = App(root=base, provider_flag=provider)


def _register() -> None:
    from . import build, crawl, knowledge, merge, publish, refresh, repo, site, topic

    for module in (build, repo, topic, crawl, knowledge, site, publish, refresh, merge):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    cli.main(prog_name="deepkb")


if __name__ == "__main__":  # pragma: no cover
    main()
