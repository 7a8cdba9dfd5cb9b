"""Where the page templates and the MkDocs configuration deepkb ships are found, and which knowledge base's
own `templates/` folder overrides them.

The repository keeps them at its top level (`templates/`, `mkdocs.yml`); a wheel carries copies of them in
`generator/site/defaults/` (setup.py puts them there at build time). A source checkout, which is what an
editable install runs, has no such folder and reads the top-level files themselves.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGED = Path(__file__).resolve().parent / "defaults"
_CHECKOUT = Path(__file__).resolve().parents[2]

DEFAULTS_DIR = _PACKAGED if _PACKAGED.is_dir() else _CHECKOUT
"""The folder holding `templates/` and `mkdocs.yml`: the package's copy, else the source checkout."""

TEMPLATES_DIR = DEFAULTS_DIR / "templates"
"""One Jinja2 template per page kind; a knowledge base's own `templates/` overrides them file by file."""

MKDOCS_YML = DEFAULTS_DIR / "mkdocs.yml"
"""The MkDocs configuration of a knowledge-base root that has no mkdocs.yml of its own."""
