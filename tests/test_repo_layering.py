"""The page-layer rule: repository research returns records and never imports the site layer or Jinja2."""

from __future__ import annotations

import ast
from pathlib import Path

REPO_PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "repo"
FORBIDDEN = ("generator.site", "jinja2")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module `path` imports (top level or inside a function), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = "." * node.level + node.module
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def test_research_modules_never_import_the_site_layer_or_jinja():
    offenders = []
    for path in sorted(REPO_PACKAGE.rglob("*.py")):
        for line, module in imported_modules(path):
            resolved = module.lstrip(".")
            if module.startswith(".") and "site" in module.split("."):
                offenders.append(f"{path.relative_to(REPO_PACKAGE)}:{line} imports {module}")
            elif any(resolved == f or resolved.startswith(f + ".") for f in FORBIDDEN):
                offenders.append(f"{path.relative_to(REPO_PACKAGE)}:{line} imports {module}")
    assert offenders == []


def test_the_scan_catches_an_import(tmp_path: Path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from generator.site.text import md_escape\n    import jinja2\n")
    assert [m for _, m in imported_modules(module)] == [
        "generator.site.text",
        "generator.site.text.md_escape",
        "jinja2",
    ]
