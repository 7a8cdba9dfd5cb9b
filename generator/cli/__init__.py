"""The `deepkb` command line: parse, load config, call a pipeline, print. Errors become one line."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..errors import DeepkbError
from ..store import STORAGE_ERRNOS, database_error, storage_error
from ..terminal import printable
from .app import App


class DeepkbGroup(click.Group):
    """Turns any DeepkbError raised below into one line on stderr and its exit code, no traceback.

    A full or read-only disk met by code that writes outside store.py (MkDocs, sqlite indexes) is the
    user's environment, not a bug: it gets the same one line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except DeepkbError as exc:
            _fail(ctx, exc)
        except OSError as exc:
            if exc.errno not in STORAGE_ERRNOS:
                raise
            _fail(ctx, storage_error(exc.filename or "a file", exc, action="use"))
        except KeyboardInterrupt:
            click.echo("Interrupted; finished work is saved and the run can be resumed.", err=True)
            ctx.exit(130)
        except Exception as exc:
            mapped = _database_error(exc)
            if mapped is None:
                raise
            _fail(ctx, mapped)


def _database_error(exc: Exception) -> DeepkbError | None:
    """sqlite's full or read-only disk as one line. sqlite3 is imported by the commands that keep an index
    (not here: every command would pay for it), so while it is not loaded no error can be one of its."""
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is None or not isinstance(exc, sqlite3.OperationalError):
        return None
    return database_error("a search index", exc)


def _fail(ctx: click.Context, exc: DeepkbError) -> None:
    click.echo(f"Error: {' '.join(printable(exc.line()).split())}", err=True)
    ctx.exit(exc.exit_code)


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
    try:
        cli.main(prog_name="deepkb")
    finally:
        # The process ends here. Frozen, the objects still alive are left out of the garbage collections
        # the interpreter's shutdown runs over the whole heap (0.2-0.5 s after an offline run on 2,000 files);
        # the exit frees their memory, and what must happen at exit (atexit, flushing) happens as before.
        gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    main()
