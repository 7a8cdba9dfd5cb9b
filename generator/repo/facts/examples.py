"""What the project's own usage examples call: the README's code (`requests.get(…)`, `app.listen(3000)`,
`r := gin.Default()`), the code of a few getting-started pages of its docs, and Go's example tests
(`example_test.go`, which godoc shows as the package's examples). A name those examples call is where a
user enters the code, so the main flows start there (flows.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt

from generator.repo.map.filetypes import front_readme
from generator.repo.map.walk import read_or_none
from generator.repo.model import FileEntry, RepoMap

DOC_BYTES = 200_000
DOC_PAGES = 6  # getting-started pages of the docs read besides the README
GO_EXAMPLES = 10  # Go example test files read
EARLY = 5  # a file's first names called count up to twice: its first example is the one to follow
# a call `name(`, a method call `.name(`, a constructor `new Name(`; a decorator `@x.name`
_CALL = re.compile(r"\b([A-Za-z_]\w+)\s*\(")
# the class a call goes through, just before the call's name: `OmegaConf.` of `OmegaConf.create(`
_OWNER = re.compile(r"\b([A-Z]\w*)\.$")
_IMPORTED = re.compile(
    r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+[\w \t,]+|^[ \t]*import[ \t]*\{[\w\s,]+\}", re.MULTILINE
)
# a function the example defines (`def homepage(request):`, `function handler(req)`, `func (h *H) Serve(`):
# its name is the example's, not a call into the project
_DEFINED = re.compile(r"\b((?:def|function|func|fn)\s+(?:\([^)]*\)\s*)?)[A-Za-z_]\w*\s*\(")
_DECORATOR = re.compile(r"@(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w+)")
# what a `with` statement enters: the object its last call makes (`with requests_mock.Mocker() as m:`,
# `async with connect(uri) as ws:`, `with Betamax(session).use_cassette("user"):` → use_cassette)
_WITH = re.compile(r"\b(?:async[ \t]+)?with[ \t]+(?:await[ \t]+)?((?:[A-Za-z_][\w.]*\([^()\n]*\)\.?)+)")
_LAST_CALL = re.compile(r"([A-Za-z_]\w*)\([^()\n]*\)$")
# a call a Go example defers (`defer db.Close()`): it runs when the example is done — its teardown
# a call through a lower-case name: `fx.New(`, not `a.b.New(` (`b` is a field there)
_QUALIFIED = re.compile(r"(?<![\w.])([a-z]\w*)\.([A-Za-z_]\w*)\s*\(")
_DEFERRED = re.compile(r"^[ \t]*defer[ \t]+(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)\s*\(", re.MULTILINE)
# …numbered in its folder (`01-getting-started.md`), saying its level (kazoo's `basic_usage.rst`) or its
# language (`quickstart.en-US.md`)
_STARTER_PAGE = re.compile(
    r"(?:^|/)(?:\d+[-_.])?(?:basic[-_])?"
    r"(?:index|readme|quick[-_]?start|getting[-_]?started|intro\w*|tutorial\w*|usage|overview|basics?)"
    r"(?:\.[a-z]{2}(?:[-_][A-Za-z]{2,4})?)?\.(?:md|markdown|rst)$",
    re.IGNORECASE,
)
_GO_EXAMPLE = re.compile(r"(?:^|/)example[^/]*_test\.go$")
_RST_CODE = re.compile(r"^(?:[ \t]{2,}|>>> ?)(.*)$", re.MULTILINE)
# words of the languages and their standard printing, never a repository's entry point
_NOT_NAMES = frozenset(
    "if for while switch return func function print println printf console log len str int dict list "
    "set range super require import catch then def class new self this assert isinstance type main fmt "
    "Println Printf Sprintf Fatal Fatalf panic make append await async".split()
)


@dataclass(frozen=True)
class ExampleCode:
    """The code of one usage example file (`_example_files`) and how much it counts."""

    path: str
    weight: int
    code: str


def example_code(root: Path, repo_map: RepoMap) -> tuple[ExampleCode, ...]:
    """The code of each usage example file, each read and parsed once for every name set taken from it."""
    return tuple(
        ExampleCode(
            entry.path, weight, _code(read_or_none(root, entry.path, max_bytes=DOC_BYTES) or "", entry.path)
        )
        for entry, weight in _example_files(repo_map)
    )


def example_calls(
    examples: Sequence[ExampleCode], names_in: Callable[[str], list[str]] | None = None
) -> dict[str, float]:
    """How prominently the usage examples call each name (or name what `names_in` finds in a file's code:
    `entered_in`): once per file that calls it (the README counts twice: it is the front page), more
    when a file calls it early (a quick start comes first)."""
    names_in = names_in or called_in
    counts: dict[str, float] = {}
    for example in examples:
        for order, name in enumerate(dict.fromkeys(names_in(example.code))):
            counts[name] = counts.get(name, 0.0) + example.weight * (1 + EARLY / (EARLY + order))
    return {name: round(count, 3) for name, count in counts.items()}


def entered_names(text: str, path: str) -> list[str]:
    """The names of the calls whose result a `with` statement in the code of one file enters (`entered_in`)."""
    return entered_in(_code(text, path))


def entered_in(code: str) -> list[str]:
    """The names of the calls whose result a `with` statement in `code` enters, in order: the context
    managers a user opens (`Mocker` of `with requests_mock.Mocker() as m:`)."""
    made = (_LAST_CALL.search(found.rstrip(".")) for found in _WITH.findall(code))
    return [last.group(1) for last in made if last is not None and last.group(1) not in _NOT_NAMES]


def deferred_in(code: str) -> list[str]:
    """The names of the calls `code` defers, in order: what a Go example tears down when it is done
    (`Close` of `defer db.Close()`)."""
    return _DEFERRED.findall(code)


def qualified_in(code: str) -> list[str]:
    """The calls in `code` made through a lower-case name, as `owner.name` in order: a Go package's
    function (`fx.New`, `fxtest.New`), or a method on a variable (`app.Run`)."""
    return [f"{owner}.{name}" for owner, name in _QUALIFIED.findall(code) if name not in _NOT_NAMES]


def _code(text: str, path: str) -> str:
    """The code of one file: a markdown page's code blocks and inline code, a reST page's indented blocks
    and doctest lines, a Go example's whole text."""
    lower = path.lower()
    if lower.endswith((".md", ".markdown")):
        return markdown_code(text)
    if lower.endswith(".rst"):
        return "\n".join(_RST_CODE.findall(text))
    return text


def called_names(text: str, path: str, through_class: bool = False) -> list[str]:
    """The names called in the code of one file (`_code`, `called_in`)."""
    return called_in(_code(text, path), through_class)


def called_in(code: str, through_class: bool = False) -> list[str]:
    """The names called in `code`; with `through_class`, a method called through a class as
    `Class.method` (omegaconf's `OmegaConf.create(…)`)."""
    # a name imported from a module in the example (`from rich import print`) is the project's own, even
    # when a builtin goes by it
    imported = {word for match in _IMPORTED.finditer(code) for word in re.findall(r"\w+", match.group(0))}
    code = _DEFINED.sub(r"\1(", code)  # `async def app(scope, …)` defines the example's own app
    names = [_owned(code, call) if through_class else call.group(1) for call in _CALL.finditer(code)]
    names += _DECORATOR.findall(code)
    return [name for name in names if name.rsplit(".", 1)[-1] not in _NOT_NAMES or name in imported]


def _owned(code: str, call: re.Match[str]) -> str:
    """A call's name, with the class it goes through when it goes through one: `OmegaConf.create`."""
    owner = _OWNER.search(code, max(call.start() - 100, 0), call.start())
    return f"{owner.group(1)}.{call.group(1)}" if owner else call.group(1)


def markdown_code(text: str) -> str:
    """The code of a markdown text: its fenced and indented blocks and its inline code spans."""
    blocks = []
    for token in _commonmark().parse(text):
        if token.type in {"fence", "code_block"}:
            blocks.append(token.content)
        for child in token.children or ():
            if child.type == "code_inline":
                blocks.append(child.content)
    return "\n".join(blocks)


@lru_cache(maxsize=1)
def _commonmark() -> MarkdownIt:
    parser = MarkdownIt("commonmark")
    parser.normalizeLink = _as_written  # type: ignore[method-assign]  # only code is read, never a link
    return parser


def _as_written(url: str) -> str:
    return url


def _example_files(repo_map: RepoMap) -> list[tuple[FileEntry, int]]:
    """The top-level README (weight 2), the docs' getting-started pages (shortest paths first) and Go's
    example tests."""
    readme = front_readme((e.path for e in repo_map.files), repo_map.links)
    pages = [e for e in repo_map.files if "/" in e.path and _STARTER_PAGE.search(e.path)]
    pages.sort(key=lambda e: (e.path.count("/"), e.path))
    go = sorted((e for e in repo_map.files if _GO_EXAMPLE.search(e.path)), key=lambda e: e.path)
    return [
        *((e, 2) for e in repo_map.files if e.path == readme),
        *((e, 1) for e in pages[:DOC_PAGES]),
        *((e, 1) for e in go[:GO_EXAMPLES]),
    ]
