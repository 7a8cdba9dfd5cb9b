"""The code names passages use: `Name` spans in prose and the names example code calls, a method called on
what a call returns kept apart from a function of the same name."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping

from generator.repo.docs.exampleobjects import example_methods
from generator.repo.docs.model import DocPassage
from generator.repo.docs.symbolnames import SymbolNames
from generator.repo.facts.examples import called_names

_PYTHON = frozenset({"python", "py", "python3"})
_PROGRAM_LANGUAGES = frozenset(
    "python py pycon ipython javascript js jsx typescript ts tsx go golang rust rs java kotlin csharp cs c# c cpp c++ "
    "ruby rb php swift scala svelte vue".split()
)
_CODE_SPAN = re.compile(r"`([A-Za-z_](?:[\w.]|::)*)(?:\(\))?`")


def names_in(found: Iterable[DocPassage], symbols: SymbolNames | None = None) -> list[str]:
    """Code names the passages use: `Name` spans in prose, names called in program code blocks (not shell
    or config); first use first. With `symbols`, a method a Python example calls on its own class or object
    standing on a project class is the one it inherits (`Document.insert`); a call qualified by the project's own package comes as
    written (`expr.Patch`, `ast.Patch`: two definitions of `Patch`, each the one its package names), and a
    name only ever called on another package the project imports (`reflect.TypeOf`, `fmt.Errorf`,
    `time.sleep`) is that package's, never the project's definition of the name."""
    names: list[str] = []
    for passage in found:
        if passage.kind == "code":
            if passage.language.lower() in _PROGRAM_LANGUAGES:
                called = called_names(passage.text, "example.py", through_class=True)
                # a method called on what a call returns (`fx.New(…).Run()`) is a method, never a type or
                # function another package defines under that name (fxevent's `Run` event)
                if symbols is not None:
                    held = _held_results(passage.text, symbols.qualifiers)
                    on_results = _called_on_results(passage.text, symbols.qualifiers, held)
                    # a method called on a variable holding a result (`a.Run()`) stays where it is called
                    on_held = {n for n in on_results if _called_on(passage.text, n, held)}
                    names += [f".{name}" for name in on_results - on_held]
                    called = [
                        _held_method(passage.text, n, held) if n in on_held else n
                        for n in called
                        if n not in on_results - on_held
                    ]
                    if passage.language.lower() in _PYTHON:
                        # `tonybar.insert()` on the example's `Product(Document)`: `Document.insert`
                        reached = example_methods(passage.text, symbols.receivers, symbols.foreign)
                        methods = dict(reached)
                        called = [methods.get(n, n) for n in called] + [m for _, m in reached]
                    names += symbols.qualified_calls(passage.text)
                    theirs = symbols.foreign_calls(passage.text)
                    called = [name for name in called if name not in theirs]
                names += called
        else:
            names += [
                m.rsplit(".", 1)[-1] if m.count(".") > 1 else m for m in _CODE_SPAN.findall(passage.text)
            ]
    return list(dict.fromkeys(names))


# a method called on what a call returns: `.Run(` of `fx.New(…).Run()`
_ON_RESULT = re.compile(r"\)\s*\.\s*([A-Za-z_]\w*)\s*\(")
_CALLED_THROUGH = re.compile(r"(?<![\w.])([a-z_][a-z0-9_]*)\.[A-Za-z_]\w*\s*$")
# a variable given what a call through a package returns, at a line's start: `app := fx.New(`, `app, err :=
# pkg.Open(`, `>>> markdown = griffe.load(`
_HELD_RESULT = re.compile(
    r"(?m)^[ \t]*(?:>>>[ \t]*)?(?:var[ \t]+)?([A-Za-z_]\w*)(?:[ \t]*,[ \t]*\w+)*[ \t]*:?=[ \t]*"
    r"([a-z_][a-z0-9_]*)\.[A-Za-z_]\w*[ \t]*\("
)


def _held_results(code: str, packages: Collection[str]) -> dict[str, str]:
    """The variables `code` gives what a function of one of `packages` returns, each with that function as
    called (`app := fx.New(` → {"app": "fx.New"}); a variable given two functions' results is neither's."""
    given: dict[str, set[str]] = {}
    for m in _HELD_RESULT.finditer(code):
        if m[2] in packages and m[1] not in packages:
            call = re.sub(r"\s+", "", code[m.start(2) : m.end()]).rstrip("(")
            given.setdefault(m[1], set()).add(call)
    return {variable: next(iter(calls)) if len(calls) == 1 else "" for variable, calls in given.items()}


def _held_method(code: str, name: str, held: Mapping[str, str]) -> str:
    """The method `name` as `names_in` gives it: through the function whose result holds it
    (`expr.Compile().Node`: the Node of what Compile returns) when every variable it is called on holds
    one function's result, else by its name alone (`.Node`)."""
    made = {held[v] for v in held if _called_on(code, name, [v])}
    return f"{made.pop()}().{name}" if len(made) == 1 and "" not in made else f".{name}"


def _called_on(code: str, name: str, held: Collection[str]) -> bool:
    """Whether `code` calls `name` on one of the variables `held`."""
    return any(re.search(rf"(?<![\w.]){re.escape(v)}\s*\.\s*{re.escape(name)}\s*\(", code) for v in held)


def _called_on_results(code: str, packages: Collection[str], held: Collection[str] = ()) -> set[str]:
    """The names `code` calls only on what a function of one of `packages` returns (`fx.New(…).Run()`:
    the App's `Run`; `).Run()` alone, a snippet cut from inside that call), or on a variable given it
    (`app := fx.New(…)` then `app.Run()`, `cowsay = griffe.load("cowsay")` then `cowsay.as_json()`), never
    bare nor through another name; `held`: those variables (`_held_results`)."""
    found = set()
    for match in _ON_RESULT.finditer(code):
        opening = _opened_at(code, match.start())
        through = _CALLED_THROUGH.search(code, 0, opening) if opening >= 0 else None
        if opening < 0 or (through is not None and through.group(1) in packages):
            found.add(match.group(1))
    for variable in held:
        found.update(re.findall(rf"(?<![\w.]){re.escape(variable)}\s*\.\s*([A-Za-z_]\w*)\s*\(", code))
    return {n for n in found if _only_on_results(code, n, held)}


def _only_on_results(code: str, name: str, held: Collection[str]) -> bool:
    """Whether every call of `name` in `code` is made on what a call returns or on a variable of `held`."""
    for call in re.finditer(rf"(?<!\w){re.escape(name)}\s*\(", code):
        before = code[: call.start()]
        if re.search(r"\)\s*\.\s*$", before):
            continue
        through = re.search(r"(?<![\w.])([A-Za-z_]\w*)\s*\.\s*$", before)
        if through is None or through.group(1) not in held:
            return False
    return True


def _opened_at(code: str, closing: int) -> int:
    """Where the parenthesis closed at `closing` opens; -1 when it does not."""
    depth = 0
    for at in range(closing, -1, -1):
        depth += {")": 1, "(": -1}.get(code[at], 0)
        if depth == 0:
            return at
    return -1
