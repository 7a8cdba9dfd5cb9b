"""A knowledge base researched offline for the ask and MCP tests: a fixture git repository with a GitHub origin
(so its citations are permalinks) and a topic over a small local corpus, part of it Chinese."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from conftest import SAMPLE_PROJECT, deepkb, git, make_git_repo

PROJECT = {
    **SAMPLE_PROJECT,
    "sample/sessions.py": '"""Session storage for requests."""\n\n\nclass SessionStore:\n'
    '    """Keeps each user session between requests, in signed cookies."""\n\n'
    "    def load(self, key: str) -> dict:\n        return {}\n",
}
CORPUS = {
    "calculators.md": "# Calculators\n\nA calculator evaluates arithmetic expressions. Parsers split the "
    "expression into tokens before evaluation. Expression evaluation is the core of every calculator.\n",
    "parsing.md": "# How calculators parse expressions\n\nBefore a calculator evaluates an expression, a parser "
    "turns it into a tree. Recursive descent parsers are how most calculators parse expressions by hand.\n",
    "async.md": "# Calculators that evaluate expressions asynchronously\n\nAn asynchronous calculator evaluates "
    "expressions in a background thread. 异步计算器在后台线程中求值表达式，不阻塞界面。\n",
}
TOPIC = "How calculators evaluate expressions"


@dataclass
class KB:
    root: Path
    revision: str


def build_kb(folder: Path) -> KB:
    """A knowledge base researched offline: the repository (`repo run`) and the topic (`topic run`)."""
    repo = make_git_repo(folder / "sample", PROJECT, origin="https://github.com/acme/sample.git")
    root = folder / "kb"
    (root / "corpus").mkdir(parents=True)
    for name, text in CORPUS.items():
        (root / "corpus" / name).write_text(text, encoding="utf-8")
    assert deepkb(root, "repo", "run", str(repo)).exit_code == 0
    result = deepkb(root, "topic", "run", TOPIC, "--sources", "local:corpus", "--quick")
    assert result.exit_code == 0, result.output[-2000:]
    return KB(root, git(repo, "rev-parse", "HEAD"))
