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
        ("llm:\n  max_concurent: 3\n", "unknown key 'llm.max_concurent': did you mean `max_concurrent`?"),
        ("colour: red\n", "unknown key 'colour' (remove it or check its spelling)"),
        ("sitee:\n  title: t\n", "unknown key 'sitee': did you mean `site`?"),
        ("repos:\n  - sorce: .\n", "unknown key 'repos.0.sorce': did you mean `source`?"),
        # `repo` is a known key (research settings), but a list under it is the list of repositories misspelt
        ("repo:\n  - source: .\n", "'repo': did you mean `repos`?"),
        ("topic:\n  - Rust async\n", "'topic': did you mean `topics`?"),
        ("llm:\n  max_concurrent: many\n", "'llm.max_concurrent': must be an integer (got 'many')"),
        ("llm:\n  max_concurrent: 0\n", "'llm.max_concurrent': must be an integer ≥ 1 (got 0)"),
        (
            "llm:\n  provider: gemini\n",
            "'llm.provider': must be one of anthropic, openai, offline (got 'gemini')",
        ),
        ("topics:\n  - topic: t\n    lang: fr\n", "'topics.0.lang': must be one of en, zh (got 'fr')"),
        ("repo:\n  max_file_bytes: 2048.5\n", "'repo.max_file_bytes': must be an integer (got 2048.5)"),
        ("topics:\n  - sources: [arxiv]\n", "'topics.0.topic' is required"),
        (
            "repos:\n  - source: .\n    subsystems:\n      Web: []\n",
            "'repos.0.subsystems.*': must be a list of length ≥ 1",
        ),
        (
            "repos:\n  - source: .\n    subsystems: [a]\n",
            "'repos.0.subsystems': must be a mapping (got a list of 1 items)",
        ),
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


# --- bounded loading (issue 8, findings 4 and 8) -------------------------------------------------------------

ANCHORS = "abcdefghij"


def alias_bomb(levels: int) -> str:
    """`levels` anchors, each a list of nine aliases of the one before: 9**levels values from under 1 KB."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for before, name in zip(ANCHORS[: levels - 1], ANCHORS[1:levels], strict=True):
        lines.append(f"{name}: &{name} [{','.join([f'*{before}'] * 9)}]")
    return "\n".join(lines) + f"\nllm:\n  max_concurrent: *{ANCHORS[levels - 1]}\n"


@pytest.mark.parametrize("levels", [6, 9])
def test_alias_bomb_is_refused_in_one_short_line(tmp_path: Path, levels: int) -> None:
    path = write(tmp_path, alias_bomb(levels))
    assert path.stat().st_size < 1024
    with pytest.raises(ConfigError) as info:
        load_config(path)
    line = info.value.line()
    assert "aliases" in line and str(path) in line
    assert len(line) < 300 and "lol" not in line  # never the expanded input


@pytest.mark.parametrize(
    "text",
    [
        "repos: " + "[" * 5000 + "]" * 5000 + "\n",
        "site: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n",
        "repos:\n" + "- " * 5000 + "x\n",
    ],
    ids=["flow-lists", "flow-mappings", "block-lists"],
)
def test_deep_nesting_is_one_line_not_a_recursion_error(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match="nested more than 64 levels"):
        load_config(path)


def test_anchors_nested_in_anchors_cannot_build_depth(tmp_path: Path) -> None:
    text = "a0: &a0 [[[[[[[[[[1]]]]]]]]]]\n" + "".join(
        f"a{i}: &a{i} [[[[[[[[[[*a{i - 1}]]]]]]]]]]\n" for i in range(1, 40)
    )
    with pytest.raises(ConfigError, match="nested more than 64 levels"):
        load_config(write(tmp_path, text))


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "deepkb.yml"
    path.write_bytes(b"topics:\n  - caf\xe9\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.line() == f"{path} line 2: not valid UTF-8 (save the file as UTF-8)"


def test_oversized_config_is_refused_unread(tmp_path: Path) -> None:
    path = write(tmp_path, "# " + "x" * 1_000_000 + "\n")
    with pytest.raises(ConfigError, match="larger than 1 MB"):
        load_config(path)


def test_a_container_where_a_value_belongs_is_described_not_printed(tmp_path: Path) -> None:
    path = write(tmp_path, "llm:\n  max_concurrent: [1, 2, 3]\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "'llm.max_concurrent'" in info.value.line() and "(got a list of 3 items)" in info.value.line()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("site:\n  site_url: example.org/kb\n", "site.site_url"),
        ("site:\n  site_url: javascript:alert(1)\n", "site.site_url"),
        ("site:\n  repo_url: github.com/me/kb\n", "site.repo_url"),
        ("site:\n  edit_uri: ../../outside\n", "site.edit_uri"),
    ],
)
def test_site_addresses_are_checked_by_our_validation(tmp_path: Path, text: str, key: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert f"'{key}': must be" in info.value.line()


def test_bad_site_url_through_the_cli_is_one_line(tmp_path: Path) -> None:
    write(tmp_path, "site:\n  site_url: example.org/kb\n")
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "build"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "'site.site_url': must be a full http(s) address" in result.output


def test_topic_timeouts_are_configurable(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "topic:\n  total_timeout: 60\n  idle_timeout: 0\n"))
    assert (config.topic.total_timeout, config.topic.idle_timeout) == (60, 0)


@pytest.mark.parametrize("name", ["DATABASE_PASSWORD", "HOME", "aws_secret", "X_API_KEY; rm"])
def test_api_key_env_names_only_key_variables(tmp_path: Path, name: str) -> None:
    """Its value is sent to llm.base_url: a config must not be able to send any other secret there."""
    (tmp_path / "deepkb.yml").write_text(f"llm:\n  api_key_env: '{name}'\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "deepkb.yml")
    assert "llm.api_key_env" in caught.value.line()


def test_api_key_env_accepts_a_key_variable(tmp_path: Path) -> None:
    (tmp_path / "deepkb.yml").write_text("llm:\n  api_key_env: OLLAMA_API_KEY\n", encoding="utf-8")
    assert load_config(tmp_path / "deepkb.yml").llm.api_key_env == "OLLAMA_API_KEY"


def test_foreign_yaml_reads_unknown_tags_as_values_and_stays_bounded(tmp_path: Path) -> None:
    """A repository's mkdocs.yml is read with its `!!python/…` and `!ENV` tags as plain values (never
    constructed, so nothing runs), within the same nesting and alias bounds as deepkb.yml."""
    from generator.config import load_bounded_yaml

    marker = tmp_path / "pwned"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\nb: !ENV [SITE, 1]\nc: !!python/name:x.y\n"
    assert load_bounded_yaml(text, "mkdocs.yml", foreign_tags=True) == {
        "a": [f"touch {marker}"],
        "b": ["SITE", 1],
        "c": "",
    }
    assert not marker.exists()
    with pytest.raises(ConfigError):
        load_bounded_yaml(text, "deepkb.yml")  # deepkb's own YAML keeps refusing them
    laughs = ['a: &a ["l","l","l","l","l","l","l","l","l"]']
    laughs += [f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]" for i in range(9)]
    with pytest.raises(ConfigError, match="aliases"):
        load_bounded_yaml("\n".join(laughs) + "\nnav: *j\n", "mkdocs.yml", foreign_tags=True)
    with pytest.raises(ConfigError, match="nested"):
        load_bounded_yaml("nav: " + "[" * 50_000 + "]" * 50_000, "mkdocs.yml", foreign_tags=True)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["build"], "'topics.0.sources': the folder of 'local:nodocs' does not exist"),
        (["refresh"], "'topics.0.sources': the folder of 'local:nodocs' does not exist"),
        (["topic", "run", "x things"], "deepkb.yml: the folder of 'local:nodocs' does not exist"),
        (["topic", "run", "other", "--sources", "local:gone"], "--sources: the folder of 'local:gone'"),
    ],
)
def test_a_missing_local_folder_is_one_line_before_any_research(
    tmp_path: Path, args: list[str], fragment: str
) -> None:
    write(tmp_path, 'topics:\n  - topic: x things\n    sources: ["local:nodocs"]\n')
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), *args])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert fragment in result.output and "looked for" in result.output
    assert not (tmp_path / "site_src").exists()  # nothing researched, nothing written
