"""Jinja2 page templates from `templates/`, rendered with an explicit context and StrictUndefined."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .text import md_escape, md_inline

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,  # a missing variable fails loudly
        autoescape=False,  # output is markdown; untrusted values go through the md filters below
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = md_escape
    env.filters["inline"] = md_inline
    return env


def render_template(name: str, context: dict[str, Any]) -> str:
    """Render `templates/<name>` with exactly `context`."""
    return environment().get_template(name).render(**context)
