"""A small knowledge base for the browser tests: `deepkb build` (offline provider) over a fixture repository and
a fixture corpus with English and Chinese text, plus a static server for the built site on 127.0.0.1.

Built once per test module, in process (it takes a few seconds): research of a git repository with docstrings
that carry the escape debris readers saw (`~~~~` underlines, `:class:` roles, snake_case), and a topic over a
local corpus, then the real site build (MkDocs, sanitizer, Pagefind).
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import deepkb, make_git_repo

PROJECT = {
    "README.md": "# Abacus\n\nAbacus is a small calculator library: it tokenizes arithmetic expressions, parses "
    "them into a tree and evaluates the tree. 算盘是一个计算器库。\n",
    "abacus/__init__.py": '"""Abacus: tokenize, parse and evaluate arithmetic expressions."""\n\n'
    "from .engine import evaluate\n",
    "abacus/engine.py": '"""Evaluation engine\n~~~~~~~~~~~~~~~~~\n\nThe :class:`Engine` walks a parsed tree; '
    'see :func:`evaluate`."""\n\nfrom .parser import parse\n\n\nclass Engine:\n'
    '    """Walks an expression tree and keeps a running_total."""\n\n'
    "    def run(self, text: str) -> float:\n        return sum(parse(text))\n\n\n"
    'def evaluate(text: str) -> float:\n    """Evaluate an arithmetic expression with an Engine."""\n'
    "    return Engine().run(text)\n",
    "abacus/parser.py": '"""Parser: turns tokens into numbers."""\n\nfrom .tokens import tokenize\n\n\n'
    'def parse(text: str) -> list[float]:\n    """Parse `text` into numbers."""\n'
    "    return [float(t) for t in tokenize(text)]\n",
    "abacus/tokens.py": '"""Tokenizer for arithmetic expressions."""\n\n\ndef tokenize(text: str) -> list[str]:\n'
    '    """Split an expression into tokens."""\n    return text.replace("+", " ").split()\n',
    "tests/test_engine.py": "from abacus import evaluate\n\n\ndef test_add():\n    assert evaluate('1+2') == 3\n",
}

CORPUS = {
    "calculators.md": "# Calculators\n\nA calculator evaluates arithmetic expressions. Parsers split the "
    "expression into tokens before evaluation. Expression evaluation is the core of every calculator.\n",
    "parsing.md": "# Parsing\n\nA parser turns text into a tree. Recursive descent parsers are easy to write "
    "by hand. Parsing errors should name the line and column.\n",
    "suanpan.md": "# 算盘与计算器\n\n计算器通过解析算术表达式来求值。算盘是中国古代的计算工具，计算器的表达式求值"
    "依靠解析器把文本切分成记号。\n",
}
TOPIC = "How calculators evaluate expressions 计算器"
ZH_TOPIC = "计算器 如何 求值 表达式"  # a Chinese topic over the same corpus: its raw pages hold Chinese text


def build_kb(folder: Path) -> Path:
    """Research the fixture repository and corpus offline and build the site; returns the KB root."""
    repo = make_git_repo(folder / "abacus", PROJECT, origin="https://github.com/acme/abacus.git")
    root = folder / "kb"
    (root / "corpus").mkdir(parents=True)
    for name, text in CORPUS.items():
        (root / "corpus" / name).write_text(text, encoding="utf-8")
    (root / "deepkb.yml").write_text(
        # a three-document corpus cannot pass verification (it would end `unverified`, exit 3): not tested here
        f"repos:\n  - source: {repo}\ntopics:\n  - topic: {TOPIC}\n    sources: ['local:corpus']\n"
        "    verify: false\n"
        f"  - topic: {ZH_TOPIC}\n    sources: ['local:corpus']\n    lang: zh\n    verify: false\n",
        encoding="utf-8",
    )
    result = deepkb(root, "build", timeout=900)
    if result.exit_code != 0:
        raise AssertionError(f"deepkb build failed ({result.exit_code}): {result.stderr[-2000:]}")
    return root


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve `folder` on 127.0.0.1 (a free port) until the block ends; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
