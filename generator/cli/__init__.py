"""The `deepkb` command line: parse, load config, call a pipeline, print. Errors become one line."""

from __future__ import annotations

from ..regex_cache import keep_regexes

# first: the patterns the modules imported from here on compile are built from kept programs
keep_regexes()

import atexit
import gc
import os
import sys
import threading
from pathlib import Path
from typing import Any, NoReturn

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
    except SystemExit as done:
        # Frozen, the objects still alive are left out of any garbage collection from here on (one over the
        # whole heap took 0.2-0.5 s after an offline run on 2,000 files)
        gc.freeze()
        if isinstance(done.code, int | None) and _only_daemon_threads():
            leave(done.code or 0)
        raise  # a message to print, or threads the interpreter's shutdown must wait for
    finally:
        gc.freeze()


def leave(code: int) -> NoReturn:
    """End the process as the interpreter would, less the teardown of every module and object it built:
    the exit handlers run (atexit, weakref finalizers: temporary files, logging), the standard streams are
    flushed, then the operating system frees the memory at once (~15 ms after a run on 2,000 files)."""
    atexit._run_exitfuncs()
    for stream in dict.fromkeys([sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__]):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: what was left for it is lost
            code = code or 120  # the interpreter's own status when it cannot flush at exit
    os._exit(code)


def _only_daemon_threads() -> bool:
    """No thread the interpreter would wait for at exit (a daemon thread is stopped either way)."""
    main_thread = threading.main_thread()
    return all(thread is main_thread or thread.daemon for thread in threading.enumerate())


if __name__ == "__main__":  # pragma: no cover
    main()
