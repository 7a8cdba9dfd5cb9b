"""`deepkb init [DIR]`: start a knowledge base of one's own (deepkb.yml, .gitignore, a nightly workflow)."""

from __future__ import annotations

from pathlib import Path

import click

from ..scaffold import default_install, make_knowledge_base


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option(
    "--install",
    metavar="REQUIREMENT",
    default=None,
    help="What the workflow installs with pip: a pinned version (deepkb==0.1.0) or a git URL "
    "(git+https://github.com/OWNER/deepkb@COMMIT). Default: where this deepkb came from.",
)
def init(directory: Path, install: str | None) -> None:
    """Make DIR a knowledge-base repository: a commented deepkb.yml, .gitignore and a nightly workflow."""
    made = make_knowledge_base(directory, install or default_install())
    for name in made.files:
        click.echo(f"created {directory / name}", err=True)
    click.echo(
        f"Next: list repositories and topics in {directory / 'deepkb.yml'}, then `deepkb build` and "
        "`deepkb serve`; push to GitHub for the nightly workflow (Settings → Pages → Source: GitHub Actions).",
        err=True,
    )
