"""deepkb.yml: defaults, shorthand, and one clear line for every mistake."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.config import load_config
from generator.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deepkb.yml"
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_file_is_an_empty_config(tmp_path: Path) -> None:
    config = load_config(tmp_path / "deepkb.yml")
    assert config.repos == [] and config.topics == [] and config.llm.max_concurrent == 4


def test_shorthand_and_full_entries(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            "repos:\n  - .\n  - source: https://github.com/a/b\n    request: how?\n"
            "topics:\n  - Vector databases\n  - topic: Rust async\n    sources: [arxiv]\n    lang: zh\n",
        )
    )
    assert [r.source for r in config.repos] == [".", "https://github.com/a/b"]
    assert config.repos[1].request == "how?"
    assert config.topics[0].sources == ["local"]
    assert config.topics[1].lang == "zh"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("llm:\n  max_concurent: 3\n", "unknown key 'llm.max_concurent'"),
        ("colour: red\n", "unknown key 'colour'"),
        ("llm:\n  max_concurrent: many\n", "'llm.max_concurrent'"),
        ("llm:\n  provider: gemini\n", "'llm.provider'"),
        ("topics:\n  - sources: [arxiv]\n", "'topics.0.topic' is required"),
        ("repos: [\n", "not valid YAML"),
        ("- a\n- b\n", "top level must be a mapping"),
    ],
)
def test_errors_name_the_key_and_the_file(tmp_path: Path, text: str, fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    line = info.value.line()
    assert fragment in line
    assert str(path) in line
    assert "\n" not in line


def test_cli_prints_one_line_and_exits_non_zero(tmp_path: Path) -> None:
    write(tmp_path, "llm:\n  max_concurent: 3\n")
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "build"])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "unknown key 'llm.max_concurent'" in result.output
    assert "Traceback" not in result.output


def test_missing_root_is_one_line_and_creates_nothing(tmp_path: Path) -> None:
    root = tmp_path / "nowhere"
    result = CliRunner().invoke(cli, ["--root", str(root), "build"])
    assert result.exit_code == 2
    assert f"knowledge-base root {root} does not exist" in result.output
    assert not root.exists()


def test_build_without_deepkb_yml_says_where_it_looked(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "build"])
    assert result.exit_code == 2
    assert f"no deepkb.yml in {tmp_path}" in result.output
    assert list(tmp_path.iterdir()) == []
