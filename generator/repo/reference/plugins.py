"""Plugin systems as extension points: a pluggy hook specification (datasette's hookspecs.py, 42 functions
marked `@hookspec` whose bodies are only a docstring) and the Go interfaces a plugin is passed in as
(gqlgen's `api.AddPlugin(p plugin.Plugin)`) or type-asserted to (`p.(plugin.ConfigMutator)`). These are how
a project asks to be extended, ahead of any base class its own code extends most."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import cite
from generator.repo.docs.model import DocPage, ProjectDocs
from generator.repo.map.walk import read_or_none
from generator.repo.model import CitedSymbol, Symbol
from generator.repo.reference.model import Extension

HOOKS = "plugin hooks"  # a pluggy hook specification: the functions a plugin implements
PLUGIN_INTERFACE = "plugin interface"  # a Go interface a plugin is registered as or asserted to
PLUGGED = frozenset({HOOKS, PLUGIN_INTERFACE})
SIGNATURE_CHARS = 120  # a parameter list longer than this is cut: the link leads to the rest
MIN_GUIDE_HOOKS = 2  # a docs page naming this many of the hooks is their how-to (gqlgen names two)

_SPEC_MARKER = re.compile(r"^(\w+)\s*=\s*(?:[\w.]+\.)?HookspecMarker\(", re.MULTILINE)
# a function a plugin system calls (`@hookimpl`, `@pytest.hookimpl(tryfirst=True)`) or declares (`@hookspec`):
# it takes nothing in, whatever its name (datasette's `register_output_renderer` implementations)
_HOOK_DECORATOR = re.compile(r"^\s*@(?:\w+\.)*\w*hook(?:impl|spec)\w*\b")
_DEF = re.compile(r"^\s*(?:async\s+)?def\s")
# a page on plugging in by its name or title ("custom" alone is any page's: gqlgen's "Sending custom error data")
_EXTENDING_PAGE = re.compile(r"plugin|hook|middleware|extend|extension", re.IGNORECASE)
_COMPOUND = re.compile(r"_|[a-z][A-Z]")
# a Go function that takes something in by its name: `AddPlugin`, `PrependPlugin`, `Use`, `RegisterCodec`
_GO_TAKER = re.compile(r"^func\s+(?:\([^)]*\)\s*)?(?:Add|Prepend|Append|Replace|Register|Use|Plug)\w*\s*\(")
_GO_PARAMETER = re.compile(r"(?:^|,)\s*\w+(?:\s*,\s*\w+)*\s+(?:\.\.\.)?[*\[\]]*(?:\w+\.)?([A-Z]\w*)\s*$")
_GO_ASSERTED = re.compile(r"\.\(\s*\*?(?:\w+\.)?([A-Z]\w*)\s*\)")
_WORD = re.compile(r"\w+")


def pluggy_hooks(path: str, text: str, symbols: Iterable[Symbol], linker: Linker) -> Extension | None:
    """The module's pluggy hook specification: each function marked with its `HookspecMarker`, with its
    parameters and docstring, in the module's order."""
    markers = set(_SPEC_MARKER.findall(text))
    if not markers:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    defined = [s for s in symbols if s.kind in {"function", "method"}]
    hooks: list[tuple[int, CitedSymbol, str]] = []  # (line, hook, its parameters)
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not any(_marker_name(d) in markers for d in node.decorator_list):
            continue
        symbol = next(
            (s for s in defined if s.short_name == node.name and s.start <= node.lineno <= s.end), None
        )
        if symbol is not None:
            hooks.append((node.lineno, cite(symbol, path, linker), _shortened(f"({ast.unparse(node.args)})")))
    if not hooks:
        return None
    hooks.sort(key=lambda found: found[0])
    module = CitedSymbol(path.removesuffix(".py").replace("/", "."), "module", path)
    return Extension(
        module,
        HOOKS,
        tuple(hook for _, hook, _ in hooks),
        signatures=tuple(signature for _, _, signature in hooks),
    )


def _marker_name(decorator: ast.expr) -> str:
    """`hookspec` of `@hookspec`, `@hookspec(firstresult=True)`, `@hooks.hookspec`."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    if isinstance(decorator, ast.Attribute):
        return decorator.attr
    return decorator.id if isinstance(decorator, ast.Name) else ""


def _shortened(signature: str) -> str:
    return signature if len(signature) <= SIGNATURE_CHARS else signature[: SIGNATURE_CHARS - 1] + "…"


def hook_marked(lines: list[str], symbol: Symbol) -> bool:
    """Whether a function's decorators (a symbol starts at its first one) mark it as a plugin hook's
    specification or implementation."""
    for line in lines[symbol.start - 1 : symbol.end]:
        if _DEF.match(line):
            return False
        if _HOOK_DECORATOR.match(line):
            return True
    return False


def go_taken(lines: list[str]) -> set[str]:
    """The type names (their last part) a Go file's `Add…`, `Register…`, `Use…` functions take: the
    interfaces a plugin is handed in as."""
    taken: set[str] = set()
    for at, line in enumerate(lines):
        if not _GO_TAKER.match(line):
            continue
        head = " ".join(lines[at : at + 4])
        opened = _GO_TAKER.match(head)
        if opened is None:
            continue
        parameters = _closed(head[opened.end() :])
        for part in parameters.split(","):
            if found := _GO_PARAMETER.search(part):
                taken.add(found.group(1))
    return taken


def _closed(rest: str) -> str:
    """A parameter list up to its closing parenthesis (nested ones kept)."""
    depth = 1
    for at, char in enumerate(rest):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return rest[:at]
    return rest


def go_asserted(lines: list[str], symbols: Iterable[Symbol]) -> list[tuple[set[str], set[str]]]:
    """Each Go function's type assertions (`p.(plugin.ConfigMutator)`), with the words of its body."""
    found = []
    for symbol in symbols:
        if symbol.kind not in {"function", "method"}:
            continue
        body = "\n".join(lines[symbol.start - 1 : symbol.end])
        if asserted := set(_GO_ASSERTED.findall(body)):
            found.append((asserted, set(_WORD.findall(body))))
    return found


def plugin_interfaces(
    taken: set[str], interfaces: set[str], functions: Iterable[tuple[set[str], set[str]]]
) -> set[str]:
    """The interfaces a plugin is passed in as, and those a function handling one asserts it to: gqlgen's
    `Generate` holds its `[]plugin.Plugin` and asserts each to `ConfigMutator`, `CodeGenerator`…; resolvergen
    ranges over `data.Plugins`. An assertion in a function that names none (`err.(BatchErrors)`, a websocket
    connection's `c.conn.(WebsocketReadDeadliner)`) is no plugin's. Only the project's own `interfaces` count:
    `AddBatchError(ctx context.Context, …)` takes no plugin."""
    taken = taken & interfaces
    plugged = set(taken)
    for asserted, words in functions:
        if any(name in word for word in words for name in taken):
            plugged |= asserted
    return plugged


def interface_signatures(body: list[str], offsets: Iterable[int]) -> tuple[str, ...]:
    """Each method of a Go interface as declared, its name taken off: `(cfg *config.Config) error`."""
    shown = []
    for at in offsets:
        line = body[at - 1].split("//", 1)[0].strip()
        start = line.find("(")
        shown.append(_shortened(line[start:]) if start >= 0 else "")
    return tuple(shown)


def doc_words(root: Path, docs: ProjectDocs | None) -> list[tuple[DocPage, frozenset[str]]]:
    """Each docs page that has passages with the words of its whole text, read once for every plugin
    system's how-to (a word is a run of word characters, so a name is one when `\bname\b` finds it)."""
    if docs is None:
        return []
    pages = {page.path: page for concept in docs.concepts for page in concept.pages if page.passages}
    return [(page, frozenset(_WORD.findall(read_or_none(root, path) or ""))) for path, page in pages.items()]


def how_to(
    pages: Iterable[tuple[DocPage, frozenset[str]]], names: Iterable[str], linker: Linker
) -> CitedSymbol | None:
    """The docs page naming the most of a plugin system's hooks or interfaces anywhere in its text
    (datasette's docs/plugin_hooks.rst), by its title and cited at its lines; none when no page names
    MIN_GUIDE_HOOKS of them. `pages` are `doc_words`'."""
    # a compound name only (`MutateConfig`, `prepare_connection`): `Name` or `startup` is any page's word
    wanted = {
        short for n in names if _COMPOUND.search(short := n.rsplit(".", 1)[-1]) and _WORD.fullmatch(short)
    }
    best: tuple[bool, int, DocPage] | None = None
    for page, words in pages:
        count = len(wanted & words)
        # a page about extending first, of those naming enough: gqlgen's middlewares.md names three of its
        # handler interfaces, its "Migrating to 0.11" five, and errors.md three
        extending = bool(_EXTENDING_PAGE.search(f"{page.path} {page.title}"))
        if count >= MIN_GUIDE_HOOKS and (best is None or (extending, count) > best[:2]):
            best = (extending, count, page)
    if best is None:
        return None
    page = best[2]
    first = page.passages[0]
    citation = linker.check(
        first.path, first.start, max(p.end for p in page.passages if p.path == first.path)
    )
    return CitedSymbol(page.title, "docs page", first.path, citation=citation)
