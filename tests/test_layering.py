"""The floors of `generator/`: each package imports only its own floor and the floors below, and no two
modules or packages import each other round a circle.

Top to bottom: `python -m generator`; the CLI; the app layer (build, refresh, merge, the research loop); the page layer (site/);
the research pipelines (repo/, topic/, which never import each other); the search providers (sources/); the
store (kb/); and the base every floor may use (config, store.py, llm/, text/, retrieval, …), which imports
none of the named floors. Repository research also never imports the site layer or Jinja2, no module keeps
module state through a `global` statement, and none but the fork pool plays with the garbage collector.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

GENERATOR = Path(__file__).resolve().parents[1] / "generator"
REPO_PACKAGE = GENERATOR / "repo"
FORBIDDEN = ("generator.site", "jinja2")
FLOORS: tuple[tuple[str, ...], ...] = (
    ("__main__",),
    ("cli",),
    ("app",),
    ("site",),
    ("repo", "topic"),
    ("sources",),
    ("kb",),
)
"""The named floors, top first; every other package or module of generator/ is the base, below them all."""


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module `path` imports (top level, inside a function or under TYPE_CHECKING), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = "." * node.level + node.module
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):  # `from . import x`, `from .. import x`
            found += [(node.lineno, "." * node.level + alias.name) for alias in node.names]
    return found


def module_name(root: Path, path: Path) -> str:
    """`generator.repo.model` for `<root>/repo/model.py`, `generator.repo` for its `__init__.py`."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def absolute(importer: str, is_package: bool, module: str) -> str:
    """The dotted name a relative import in module `importer` refers to."""
    level = len(module) - len(module.lstrip("."))
    if not level:
        return module
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    base = package[: len(package) - level + 1]
    return ".".join([*base, module[level:]] if module[level:] else base)


def import_graph(root: Path) -> dict[str, set[str]]:
    """module → the modules of the same tree it imports (a name imported from a module counts as that module)."""
    paths = {module_name(root, p): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        targets = set()
        for _, module in imported_modules(path):
            target = absolute(name, path.name == "__init__.py", module)
            while target and target not in paths:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def unit(module: str) -> str:
    """The package (or single module) directly under generator/ that `module` belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def floor_of(name: str, floors: tuple[tuple[str, ...], ...]) -> int:
    """0 for the top floor; the base (anything not named) is below every named floor."""
    return next((i for i, units in enumerate(floors) if name in units), len(floors))


def upward_imports(graph: Mapping[str, set[str]], floors: tuple[tuple[str, ...], ...]) -> list[str]:
    """Each import that reaches a floor above its module's, or a sibling package on its own named floor."""
    found = []
    for module, targets in sorted(graph.items()):
        here, home = floor_of(unit(module), floors), unit(module)
        for target in sorted(targets):
            there, away = floor_of(unit(target), floors), unit(target)
            if there < here or (there == here < len(floors) and away != home and away):
                found.append(f"{module} imports {target}")
    return found


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_graph(graph: Mapping[str, set[str]]) -> dict[str, set[str]]:
    units: dict[str, set[str]] = {}
    for module, targets in graph.items():
        units.setdefault(unit(module), set()).update(unit(t) for t in targets if unit(t) != unit(module))
    units.pop("", None)
    return {name: targets - {""} for name, targets in units.items()}


@cache
def generator_graph() -> dict[str, set[str]]:
    return import_graph(GENERATOR)


def test_no_package_imports_a_floor_above_its_own():
    assert upward_imports(generator_graph(), FLOORS) == []


def test_no_circles_between_modules_or_packages():
    assert circles(generator_graph()) == []
    assert circles(package_graph(generator_graph())) == []


def test_every_named_floor_exists():
    units = {unit(m) for m in generator_graph()}
    assert {name for floor in FLOORS for name in floor} <= units


def test_the_checks_catch_an_upward_import_and_a_circle(tmp_path: Path):
    root = tmp_path / "generator"
    for name, text in {
        "__init__.py": "",
        "kb/__init__.py": "",
        "kb/index.py": "def f():\n    from ..app.run import go\n",
        "app/__init__.py": "",
        "app/run.py": "from generator.kb import index\n\ndef go(): ...\n",
        "repo/__init__.py": "",
        "repo/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
        "repo/b.py": "from . import a\n\nclass B: ...\n",
        "topic/__init__.py": "",
        "topic/pipeline.py": "from ..repo.a import x\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    graph = import_graph(root)
    assert upward_imports(graph, FLOORS) == [
        "generator.kb.index imports generator.app.run",
        "generator.topic.pipeline imports generator.repo.a",
    ]
    assert circles(graph) == [
        ["generator.app.run", "generator.kb.index"],
        ["generator.repo.a", "generator.repo.b"],
    ]
    assert circles(package_graph(graph)) == [["app", "kb"]]


FORK_POOL = GENERATOR / "repo" / "facts" / "forked.py"
"""The one module allowed to play with the garbage collector: it is paused for a pass."""


def module_state_and_collector_tricks(path: Path) -> list[str]:
    """Each `global` statement and each use of the `gc` module in `path`, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Global):
            found.append(f"{path.name}:{node.lineno} global {', '.join(node.names)}")
        elif isinstance(node, ast.Import) and any(alias.name == "gc" for alias in node.names):
            found.append(f"{path.name}:{node.lineno} import gc")
    return found


def test_no_global_statement_anywhere_and_no_collector_tricks_outside_the_fork_pool(tmp_path: Path):
    offenders = [
        finding
        for path in sorted(GENERATOR.rglob("*.py"))
        for finding in module_state_and_collector_tricks(path)
        if path != FORK_POOL or " global " in finding
    ]
    assert offenders == []
    sample = tmp_path / "m.py"
    sample.write_text("import gc\n_x = None\n\ndef f():\n    global _x\n    gc.freeze()\n")
    assert module_state_and_collector_tricks(sample) == ["m.py:1 import gc", "m.py:5 global _x"]


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
