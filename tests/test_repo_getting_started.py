"""Getting started: the project's install steps, then the first use it shows whole — its README's Quick Start
and its docs' own getting-started page — in the docs' order."""

from __future__ import annotations

from generator.documents import read_text
from generator.repo.docs.project import usage_examples


def test_a_readme_quick_start_is_shown_whole_though_long_and_after_a_partial_snippet() -> None:
    """ormar's README shows a 20-line "partial snippet" under "Migrations & Database creation", then its
    430-line "Quick Start" script (`OrmarConfig`, two models, `create_all`, `Author.objects.create`,
    `Book.objects.get`): Getting started dropped the script as too long for an example that is not the first."""
    steps = "\n".join(
        f"    await Book.objects.create(author=tolkien, title='Book {n}', year={n})" for n in range(200)
    )
    readme = read_text(
        "# tinyorm\n\nTinyorm is an async mini ORM for Python with support for Postgres and SQLite.\n\n"
        "### Migrations & Database creation\n\nFor tests the `sqlalchemy` engine is more than enough:\n\n"
        "```python\n# note this is just a partial snippet\nengine = sqlalchemy.create_engine(URL)\n"
        "metadata.create_all(engine)\n```\n\n"
        "### Quick Start\n\nNote that you can find the same script in the examples folder.\n\n"
        "```python\nimport tinyorm\n\nclass Author(tinyorm.Model):\n    id: int = tinyorm.Integer(primary_key=True)\n\n"
        f"async def create():\n    tolkien = await Author.objects.create(name='J.R.R. Tolkien')\n{steps}\n```\n\n"
        "### Later\n\n```python\n" + "x = 1\n" * 130 + "```\n",
        name="README.md",
        origin="README.md",
    )
    code = [p for p in usage_examples([readme]) if p.kind == "code"]
    assert [(p.heading, p.text.count("\n") + 1) for p in code] == [
        ("Migrations & Database creation", 3),
        ("Quick Start", 207),
    ]
