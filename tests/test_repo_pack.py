"""Stage 7 (pack): original line numbers survive every option, the cap is visible, secrets never leave."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from repo_source_fixture import FIXTURE, write_tree

from generator.redact import Redactor
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.pack.packer import pack_files, split_lines

NUMBERED = re.compile(r"^ *(\d+)\| (.*)$")

COMMENTED_PY = '''"""Module doc."""

# a full-line comment
import os  # trailing comment


def compute(values):
    """Sum the values."""
    total = 0
    for value in values:
        # inside comment
        total += value

    return total


URL = "http://example.com/#not-a-comment"
'''

COMMENTED_GO = """package lib

// Add adds.
func Add(a, b int) int {
	// inner comment
	sum := a + b
	x := 1
	y := 2 /* block */
	return sum + x + y
}
"""


def numbered(text: str, path: str) -> dict[int, str]:
    """Numbered lines of one file's section in a pack."""
    section = text.split(f"==== FILE: {path} ", 1)[1].split("\n==== FILE: ", 1)[0]
    result = {}
    for line in section.splitlines()[1:]:
        match = NUMBERED.match(line)
        if match:
            result[int(match.group(1))] = match.group(2)
    return result


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "repo", {**FIXTURE, "calc.py": COMMENTED_PY, "lib.go": COMMENTED_GO})


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"remove_comments": True},
        {"remove_empty_lines": True},
        {"compress": True},
        {"remove_comments": True, "remove_empty_lines": True, "compress": True},
    ],
)
def test_line_numbers_match_original(repo: Path, options: dict[str, bool]) -> None:
    files = [
        "calc.py",
        "lib.go",
        "pkg/core.py",
        "web/util.ts",
        "rs/src/parser.rs",
        "java/src/com/acme/App.java",
        "c/util.c",
    ]
    facts = extract_facts(repo, map_repository(repo))
    packed = pack_files(repo, files, facts, redactor=Redactor(), **options)
    assert packed.files_included == files and not packed.truncated
    for path in files:
        original = split_lines((repo / path).read_text())
        lines = numbered(packed.text, path)
        assert lines, path
        for number, content in lines.items():
            if options.get("remove_comments"):
                assert original[number - 1].startswith(content.rstrip()), (path, number)
            else:
                assert content == original[number - 1], (path, number)


def test_remove_comments_and_empty_lines(repo: Path) -> None:
    packed = pack_files(
        repo, ["calc.py", "lib.go"], None, remove_comments=True, remove_empty_lines=True, redactor=Redactor()
    )
    calc = numbered(packed.text, "calc.py")
    assert 3 not in calc and 11 not in calc  # comment-only lines dropped
    assert calc[4] == "import os"
    assert calc[17] == 'URL = "http://example.com/#not-a-comment"'  # a '#' inside a string is not a comment
    assert all(content.strip() for content in calc.values())
    go = numbered(packed.text, "lib.go")
    assert 5 not in go and go[8] == "\ty := 2"
    assert "comment" not in packed.text.split("==== FILE: lib.go", 1)[1]


def test_compress_keeps_signatures_and_docstrings(repo: Path) -> None:
    packed = pack_files(repo, ["calc.py", "lib.go", "pkg/core.py"], None, compress=True, redactor=Redactor())
    calc = numbered(packed.text, "calc.py")
    assert calc[7] == "def compute(values):" and calc[8] == '    """Sum the values."""'
    assert 9 not in calc and 14 not in calc
    assert "lines 9-14 elided" in packed.text
    go = numbered(packed.text, "lib.go")
    assert go[3] == "// Add adds." and go[4].startswith("func Add") and go[10] == "}"
    assert 6 not in go and "lines 5-9 elided" in packed.text
    core = numbered(packed.text, "pkg/core.py")
    assert core[9] == "class Engine:" and core[12].startswith("    def run")


def test_cap_and_truncation_note(repo: Path) -> None:
    files = sorted(p for p in FIXTURE if p.endswith((".py", ".go", ".ts", ".rs", ".java", ".c")))
    packed = pack_files(repo, files, None, cap=1200, redactor=Redactor())
    assert packed.truncated and len(packed.text) <= 1200
    assert "[TRUNCATED: this pack is capped at 1,200 characters" in packed.text
    assert packed.files_omitted and set(packed.files_omitted).isdisjoint(packed.files_included)
    assert set(packed.files_omitted) | set(packed.files_included) == set(files)
    for path in packed.files_included:  # a file cut short still carries its true line numbers
        original = split_lines((repo / path).read_text())
        assert all(content == original[n - 1] for n, content in numbered(packed.text, path).items())
    whole = pack_files(repo, files, None, redactor=Redactor())
    assert not whole.truncated and "TRUNCATED" not in whole.text


def test_planted_and_environment_secrets_never_appear(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    anthropic = "sk-ant-" + "api03-" + "Hk2Lx9Qm4Rv7Tz1Wb8Nc3Yp6Js0Gd5Fa"
    aws = "AKIA" + "ZX9QRST4UVW7XY2A"
    env_value = "my-private-env-value-42"
    monkeypatch.setenv("FOO_API_KEY", env_value)
    (repo / "settings.py").write_text(
        f'"""Settings."""\nANTHROPIC = "{anthropic}"\nAWS_ID = "{aws}"\nlabel = "{env_value}"\nDONE = True\n'
    )
    packed = pack_files(repo, ["settings.py"], None, redactor=Redactor.from_environ(), compress=True)
    for secret in (anthropic, aws, env_value):
        assert secret not in packed.text
    assert packed.redactions >= 3
    lines = numbered(packed.text, "settings.py")
    assert lines[5] == "DONE = True" and "[REDACTED:" in lines[2]


def test_only_mapped_files_are_packed_when_facts_given(repo: Path) -> None:
    (repo / ".gitignore").write_text("local.cfg\n")
    (repo / "local.cfg").write_text("password_hint = 'LOCAL-ONLY-CONTENT'\n")
    (repo / ".env").write_text("ENV-FILE-CONTENT\n")
    (repo / "blob.dat2").write_bytes(b"BINARY-CONTENT\x00\x01")
    facts = extract_facts(repo, map_repository(repo))
    packed = pack_files(repo, ["app.py", "local.cfg", ".env", "blob.dat2"], facts, redactor=Redactor())
    assert packed.files_included == ["app.py"]
    assert packed.files_omitted == ["local.cfg", ".env", "blob.dat2"]  # in the order asked
    for marker in ("LOCAL-ONLY-CONTENT", "ENV-FILE-CONTENT", "BINARY-CONTENT"):
        assert marker not in packed.text
    assert "not in the repository map" in packed.text


def test_a_shared_cap_shows_the_start_of_every_file(tmp_path: Path) -> None:
    files = {
        "big.py": "".join(f"x{n} = {n}\n" for n in range(2000)),
        "small.py": "A = 1\n",
        "mid.py": "B = 2\n" * 300,
    }
    write_tree(tmp_path, files)
    packed = pack_files(tmp_path, list(files), None, cap=4000, redactor=Redactor(), shared=True)
    assert len(packed.text) <= 4000 and packed.files_included == ["big.py", "small.py", "mid.py"]
    assert packed.files_cut == ["big.py", "mid.py"] and packed.truncated and not packed.files_omitted
    assert "1| A = 1\n\n" in packed.text.split("FILE: small.py", 1)[1]  # the small file whole
    big, mid = packed.text.split("FILE: mid.py")
    assert big.count("| x") > 20 and mid.count("| B = 2") > 20  # the rest shared between the two
    assert packed.text.count("left out to fit the model's window") == 2
    whole = pack_files(tmp_path, list(files), None, cap=100_000, redactor=Redactor(), shared=True)
    assert not whole.truncated and not whole.files_cut
