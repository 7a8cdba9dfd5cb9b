"""A worked example spread over several blocks ("For example, this data file:", its CSV, "With this schema
definition:", the schema, "Will be invalid because…") is quoted whole or not at all: its caption with the first
part alone shows no rule at work, and its outcome alone speaks of an example not shown (issue #30 items 4, 5)."""

from __future__ import annotations

from generator.topic import sentences
from generator.topic.opening_passages import opening_passages
from generator.topic.section_tree import TextSection
from generator.topic.sentences import code_examples, leans_back

RULE = "The value of the field MUST exactly match one of the values in the enum array."
CSV = "```csv\nid,name\n1,apple\n2,orange\n```"
SCHEMA = '```json\n{"fields": [{"name": "name", "type": "string", "constraints": {"enum": ["apple"]}}]}\n```'
TABLES = "```txt\ntable1\ntable2\n```"
DIALECT = '```json\n{"table": "table2"}\n```'


def _enum(*after: str) -> TextSection:
    return TextSection("enum", 5, (f"{RULE}\nFor example, this data file:", CSV, *after))


def _quoted(section: TextSection) -> list[tuple[str, str]]:
    return [(p.text, p.code) for p in opening_passages(section)]


def test_a_caption_whose_example_goes_on_is_not_quoted_with_its_first_part() -> None:
    section = _enum(
        "With this schema definition:",
        SCHEMA,
        "Will be invalid because the name field has a value that is not in the enum array.",
    )
    assert _quoted(section) == [(RULE, "")]  # the rule alone, neither the caption nor the CSV


def test_the_outcome_of_a_worked_example_is_never_quoted_alone() -> None:
    section = TextSection(
        "table",
        5,
        (
            "A Table Dialect descriptor MAY have the table property that MUST be a string; undefined by "
            "default.\nFor example, the database with the tables below:",
            TABLES,
            "With this dialect definition:",
            DIALECT,
            "SHOULD output the data from the second table.",
        ),
    )
    quoted = _quoted(section)
    assert [code for _, code in quoted] == [""]
    assert not any("SHOULD output" in text or "tables below" in text for text, _ in quoted)
    assert leans_back("Will be invalid because the name field has a duplicate value.")
    assert leans_back("SHOULD output the data from the second table.")


def test_an_example_whose_next_part_is_named_as_its_subject_goes_on() -> None:
    blocks = [
        "For example, having a Table Schema below:",
        SCHEMA,
        "This CSV data file will have logical values as below:",
        CSV,
    ]
    text = "\n\n".join([f"{RULE} For example, having a Table Schema below:", *blocks[1:]])
    assert not any('"fields"' in q.code for q in code_examples(text))
    assert sentences.example_goes_on(blocks, 1)


def test_steps_each_with_their_example_are_quoted_one_by_one() -> None:
    # a next step ("Then run this command:") is no part of the example before it: each step reads alone
    blocks = (
        "Create a configuration file named app.toml in the project root:",
        '```toml\nname = "demo"\n```',
        "Then run this command to start the server:",
        "```bash\ndemo serve\n```",
    )
    assert not sentences.example_goes_on(list(blocks), 1)
    assert _quoted(TextSection("Setup", 2, blocks))[0][1] == 'name = "demo"'


def test_an_example_closing_its_section_is_quoted_with_its_caption() -> None:
    assert _quoted(_enum())[0] == (f"{RULE} For example, this data file:", "id,name\n1,apple\n2,orange")
