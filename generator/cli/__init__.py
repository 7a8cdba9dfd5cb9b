"""The `deepkb` command line: parse, load config, call a pipeline, print. Errors become one line.

Commands load lazily (as simonw/llm and mkdocs do): `deepkb --help` and a one-line error import only click
and this package, and each command's module, with the libraries it needs at its top, loads when it runs.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..errors import DeepkbError
from ..store import STORAGE_ERRNOS, database_error, storage_error
from ..terminal import printable
from .app import App

# each command is the attribute of its name in the module of its name, except these (name → module)
MODULES = {"serve": "site", "shards": "merge"}
# what `deepkb --help` lists, in this order, without importing a module: each command's first docstring line
# (tests/test_startup.py checks they agree)
SUMMARIES = {
    "init": "Make DIR a knowledge-base repository: a commented deepkb.yml, .gitignore and a nightly workflow.",
    "build": "Research every repository and topic in deepkb.yml, then build the site into site/.",
    "repo": "Research a git repository: map, plan shards, analyze each, synthesize an index.",
    "topic": "Research a topic: plan, search, crawl, dedupe, aggregate, report, verify.",
    "crawl": "Fetch URL (and same-site links) into a topic's raw sources, or print it.",
    "knowledge": "Search, list, show and delete entries of the knowledge base.",
    "ask": "Answer QUESTION from every repository and topic, with cited passages and the pages they are on.",
    "mcp": "Serve the knowledge base read-only to MCP clients (coding agents), over stdio or HTTP.",
    "site": "Render home, section and tag pages into site_src/, then build site/ with MkDocs.",
    "serve": "Preview the site with live reload (renders the listing pages first).",
    "publish": "Build site/ if needed, then commit it to the pages branch and push it (like `mkdocs gh-deploy`).",
    "refresh": "Re-research repositories whose remote HEAD moved and topics older than their refresh_days.",
    "merge": "Fold entries researched in other checkouts (FOLDERS) into this one; rebuild index, search and listings.",
    "shards": "Show which shard researches each entry of deepkb.yml (balanced by each entry's last measured cost).",
}

STARTED = "deepkb.started"  # ctx.meta key: when the command line was read (time.perf_counter)


def wall_seconds(ctx: click.Context) -> float:
    """Seconds since deepkb began this command, its imports included (what the user waited)."""
    now = time.perf_counter()
    return now - float(ctx.meta.get(STARTED, now))


class DeepkbGroup(click.Group):
    """Loads each command on first use, and turns any DeepkbError raised below into one line on stderr
    and its exit code, no traceback.

    A full or read-only disk met by code that writes outside store.py (MkDocs, sqlite indexes) is the
    user's environment, not a bug: it gets the same one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(SUMMARIES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in SUMMARIES:
            return None
        module = importlib.import_module(f"{__name__}.{MODULES.get(cmd_name, cmd_name)}")
        command = getattr(module, cmd_name)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl(list(SUMMARIES.items()))

    def invoke(self, ctx: click.Context) -> Any:
        ctx.meta[STARTED] = (
            time.perf_counter()
        )  # before the command's module loads: its wall time is all of it
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
    """sqlite's full or read-only disk as one line. sqlite3 is imported by the commands that keep an index,
    so while it is not loaded no error can be one of its."""
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


def main() -> None:
    cli.main(prog_name="deepkb")


if __name__ == "__main__":  # pragma: no cover
    main()
