"""Records are typed (issue 28 item 5): `dict[str, Any]` in generator/ stays within its budget; what a JSON
object of unknown shape is gets a name from generator/jsontypes.py instead."""

from __future__ import annotations

import re
from pathlib import Path

GENERATOR = Path(__file__).resolve().parents[1] / "generator"
BUDGET = 40  # the rest: MCP payloads, the index as read, frontmatter as read, the synonyms file
UNTYPED = re.compile(r"\bdict\[str,\s*Any\]")


def untyped_dicts(package: Path) -> list[str]:
    """`path:line` of every `dict[str, Any]` in the package's modules."""
    return [
        f"{path.relative_to(package)}:{n}"
        for path in sorted(package.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for _ in UNTYPED.finditer(line)
    ]


def test_dict_str_any_stays_within_its_budget() -> None:
    found = untyped_dicts(GENERATOR)
    assert len(found) <= BUDGET, f"{len(found)} dict[str, Any] (budget {BUDGET}): " + ", ".join(found)


def test_the_count_sees_every_occurrence(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "def f(a: dict[str, Any]) -> dict[str,Any]:\n    return a\nx: dict[str, object] = {}\n",
        encoding="utf-8",
    )
    assert untyped_dicts(tmp_path) == ["m.py:1", "m.py:1"]
