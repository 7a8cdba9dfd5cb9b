"""`deepkb build`: research everything deepkb.yml lists (cached), then render and build the site."""

from __future__ import annotations

import click

from ..errors import ConfigError, PartialFailure
from ..store import workspace_lock
from .app import App, pass_app


@click.command()
@click.option("--no-site", is_flag=True, help="Research only; do not render or build the site.")
@pass_app
def build(app: App, no_site: bool) -> None:
    """Research every repository and topic in deepkb.yml, then build the site into site/."""
    if not app.paths.config_file.is_file():
        raise ConfigError(
            f"no deepkb.yml in {app.paths.root}",
            hint="run deepkb in your knowledge base's folder (or pass --root); README.md shows a deepkb.yml",
        )
    config = app.config  # a broken deepkb.yml fails here, before anything runs
    from generator.repo.run.pipeline import run_repo_research

    from ..kb.index import update_index
    from ..site.build import build_site
    from ..site.pages.topic import publish_topic
    from ..site.render import render_site
    from ..topic.pipeline import run_topic_research

    partial: list[str] = []
    with workspace_lock(app.paths):
        for entry in config.repos:
            app.console.rule(f"repository {entry.source}")
            try:
                run_repo_research(
                    app.paths,
                    config,
                    app.provider(),
                    entry.source,
                    request=entry.request,
                    console=app.console,
                )
            except PartialFailure as exc:
                partial.append(exc.line())
        for topic in config.topics:
            app.console.rule(f"topic {topic.topic}")
            try:
                run_topic_research(
                    app.paths, config, app.provider(), topic, console=app.console, publish=publish_topic
                )
            except PartialFailure as exc:
                partial.append(exc.line())
        update_index(app.paths)
        if no_site:
            return
        render_site(app.paths, config)
        site_dir = build_site(app.paths, config)
    index = site_dir / "index.html"
    app.console.print(f"\n[bold green]Site built:[/bold green] {index}")
    app.console.print(
        "Open it in a browser, or run [bold]deepkb serve[/bold] (make serve) for a live preview."
    )
    if partial:
        for line in partial:
            app.console.print(f"[yellow]partial:[/yellow] {line}")
        raise PartialFailure(f"{len(partial)} research run(s) finished only partly; see above")


COMMANDS = [build]
