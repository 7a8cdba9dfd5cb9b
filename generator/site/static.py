"""The files every built page needs that deepkb ships itself, so a page makes no request to another origin.

The diagram renderer (mermaid, vendored from the npm package with its licence), deepkb's own scripts (draw
diagrams, open search) and stylesheet live under `generator/site/assets/` as package data and are served
from the site's own `assets/` folder. Material's web fonts are switched off: the theme falls back to the
reader's system fonts instead of asking a third party.
"""

from __future__ import annotations

from pathlib import Path

ASSETS_DIR = Path(__file__).resolve().parent / "assets"
"""Package data, laid out as it is served: `assets/javascripts/…`, `assets/stylesheets/…`."""

MERMAID_VERSION = "11.17.2"
"""The vendored npm `mermaid` release (assets/javascripts/vendor/mermaid/mermaid.min.js, MIT licence)."""

SCRIPTS = (
    "assets/javascripts/deepkb/diagrams.js",
    "assets/javascripts/deepkb/search.js",
    "assets/javascripts/deepkb/tables.js",
)
STYLESHEETS = ("assets/stylesheets/deepkb/deepkb.css",)


def asset_files() -> list[tuple[str, Path]]:
    """Every shipped file as (site-relative URI, file on disk), in a stable order."""
    return [
        (f"assets/{path.relative_to(ASSETS_DIR).as_posix()}", path)
        for path in sorted(ASSETS_DIR.rglob("*"))
        if path.is_file()
    ]
