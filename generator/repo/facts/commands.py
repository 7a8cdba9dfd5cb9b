"""Command-line commands found by their framework's idiom: the functions a CLI runs when a user types a
command, where a command-line tool's main flow starts.

Python: a function decorated as a click or typer command (`@click.command()`, `@cli.group()`,
`@app.command()`), one an argparse parser dispatches to (`set_defaults(func=run)`), one called under
`if __name__ == "__main__"`. Go: the function a cobra or urfave/cli command runs (`&cobra.Command{RunE:
run}`), `func main` of package main. JavaScript/TypeScript: a commander or yargs command's handler
(`.command("x").action(run)`, `.command("x", "desc", builder, run)`). A handler written in place (a
function literal) is credited to the function that declares the command. Only files that name the idiom
are parsed.
"""

from __future__ import annotations

import ast
import posixpath
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from generator.repo.facts.comments import descendants, node_text
from generator.repo.facts.fanin import is_top_package
from generator.repo.facts.imports import JS_LANGUAGES
from generator.repo.facts.languages import parse_tree
from generator.repo.facts.pysource import is_main_guard, last_name
from generator.repo.facts.tscalls import innermost
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import FileFacts, Symbol

Node = tuple[str, str]  # (path, qualified symbol)
Read = Callable[[str], str | None]

# what a file must say before it is parsed for commands: plain words first (a fast scan), then the idiom
_NEEDLES = {
    "python": ("__main__", "set_defaults", ".command", ".group", "@command", "@group"),
    "go": ("Command{", "App{", "func main()"),
    "js": (".action(", "yargs"),
}
_MARKERS = {
    "python": re.compile(r"@[\w.]*\b(?:command|group)\b|set_defaults\(|[\"']__main__[\"']"),
    "go": re.compile(r"\.(?:Command|App)\s*\{|^func main\(\)", re.MULTILINE),
    "js": re.compile(r"\.action\s*\(|\byargs\b"),
}
_DECORATORS = frozenset({"command", "group"})  # click, typer: @x.command(), @x.group(), @command
_DISPATCH_KEYWORDS = frozenset({"func", "handler", "command", "callback", "run"})  # set_defaults(func=…)
_EXITS = frozenset({"exit", "SystemExit", "_exit"})  # sys.exit(main()), raise SystemExit(main())
_GO_RUN_FIELDS = frozenset({"Run", "RunE", "Action"})  # cobra.Command, urfave/cli Command and App
_GO_COMMAND_TYPES = re.compile(r"^\*?\w+\.(?:Command|App)$")


def cli_commands(read: Read, files: dict[str, FileFacts]) -> list[Node]:
    """The commands of the source modules, in file order, each once."""
    found: dict[Node, None] = {}
    for path, fact in files.items():
        family = _family(fact.language)
        if family is None or is_context_file(path) or fact.tagged:
            continue  # a test's, or a Go script built only under a tag (`//go:build ignore`)
        text = read(path)
        if text is None or not _names_idiom(family, text):
            continue
        for node in _COMMANDS[family](path, fact.language, text, files):
            found.setdefault(node, None)
    return list(found)


def namesakes(commands: Iterable[Node], go_modules: Mapping[str, str]) -> list[Node]:
    """The Go `main` functions among `commands` of the tool a module is named after: the module's root
    package (ko's `main.go`), or a folder named after the module (traefik's `cmd/traefik`, grpc-gateway's
    `protoc-gen-grpc-gateway`) — what the project is for, before a heavier plugin or helper beside it
    (grpc-gateway's `protoc-gen-openapiv2`). `go_modules`: the folder of each go.mod → its module path."""
    found: list[Node] = []
    for path, name in commands:
        if name != "main" or not path.endswith(".go"):
            continue
        folder = posixpath.dirname(path)
        home = max(
            (d for d in go_modules if not d or folder == d or folder.startswith(d + "/")),
            key=len,
            default=None,
        )
        if home is None:
            continue
        project = _module_name(go_modules[home])
        binary = project if folder == home else posixpath.basename(folder)
        if project and (binary == project or binary.endswith("-" + project)):
            found.append((path, name))
    return found


def _module_name(module: str) -> str:
    """A Go module path's name: its last part, a major version suffix (`/v2`) aside."""
    parts = [part for part in module.split("/") if part]
    if len(parts) > 1 and re.fullmatch(r"v\d+", parts[-1]):
        parts.pop()
    return parts[-1] if parts else ""


def native_mains(files: dict[str, FileFacts]) -> list[Node]:
    """The `main` functions of a C, C++ or Rust program's source modules (`src/main.rs`, `src/main.c`;
    not a test's — `test.c` included —, an example's, a benchmark's or a Cargo build script's): a tool's
    front door, unless the
    repository is a library (`native_library`), whose tools sit beside its API."""
    if native_library(files):
        return []
    return [
        (path, "main")
        for path, fact in files.items()
        if fact.language in {"c", "cpp", "rust"}
        and fact.is_entry_point
        and not is_context_file(path)
        and posixpath.basename(path) != "build.rs"
        and posixpath.splitext(posixpath.basename(path))[0] not in {"test", "tests"}  # cJSON's test.c
        and any(s.name == "main" and s.kind == "function" for s in fact.symbols)
    ]


def native_library(files: dict[str, FileFacts]) -> bool:
    """A Rust library crate (a `src/lib.rs`), or C/C++ with public headers in an `include/` folder."""
    for path, fact in files.items():
        if fact.language == "rust" and (path == "src/lib.rs" or path.endswith("/src/lib.rs")):
            return True
        if fact.language in {"c", "cpp"} and (path.startswith("include/") or "/include/" in path):
            if not is_context_file(path):
                return True
    return False


def is_library(files: dict[str, FileFacts]) -> bool:
    """Whether the repository is a library, its commands tools beside its API: its packages re-export a
    public API (Python, JavaScript), a Python top package defines public functions of its own (`rich.print`:
    a module's `if __name__ == "__main__":` demo is then no command), or the root package of a Go module no
    other holds is not a main package (a `cmd/` tool beside it does not make it one)."""
    if any(fact.api_names for fact in files.values()):
        return True
    if any(_defines_api(path, fact, files) for path, fact in files.items()):
        return True
    for folder in _outer_go_modules(files):
        root = [
            fact
            for path, fact in files.items()
            if fact.language == "go"
            and posixpath.dirname(path) == folder
            and not path.endswith("_test.go")
            and not fact.tagged
        ]
        if root and not any(fact.is_entry_point for fact in root):
            return True
    return False


def _outer_go_modules(files: dict[str, FileFacts]) -> list[str]:
    """The folders of the Go modules no other module of the repository holds: the project's own, not a
    nested one published beside it (traefik's pkg/config/dynamic/ext, a library of types, had made the
    traefik program a library without commands) nor a test's fixture module."""
    folders = [
        posixpath.dirname(p) for p in files if posixpath.basename(p) == "go.mod" and not is_context_file(p)
    ]
    return [
        folder
        for folder in folders
        if not any(other != folder and (other == "" or folder.startswith(other + "/")) for other in folders)
    ]


def _defines_api(path: str, fact: FileFacts, files: dict[str, FileFacts]) -> bool:
    if posixpath.basename(path) != "__init__.py" or not is_top_package(path, files):
        return False
    return any(s.public and not s.parent and s.kind == "function" for s in fact.symbols)


def _names_idiom(family: str, text: str) -> bool:
    return any(needle in text for needle in _NEEDLES[family]) and _MARKERS[family].search(text) is not None


def _family(language: str) -> str | None:
    if language in JS_LANGUAGES:
        return "js"
    return language if language in ("python", "go") else None


# --- Python --------------------------------------------------------------------------------------------


def _python(path: str, language: str, text: str, files: dict[str, FileFacts]) -> Iterator[Node]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = ast.parse(text.removeprefix("\ufeff"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_command(node):
            target = _python_target(files, path, node.name)
            if target is not None:
                yield target
        elif isinstance(node, ast.Call) and last_name(node.func) == "set_defaults":
            for keyword in node.keywords:
                if keyword.arg in _DISPATCH_KEYWORDS:
                    yield from _python_named(files, path, keyword.value)
        elif isinstance(node, ast.If) and is_main_guard(node):
            for call in _guarded_calls(node.body):
                yield from _python_named(files, path, call.func)


def _is_command(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        if last_name(called) in _DECORATORS:
            return True
    return False


def _guarded_calls(body: list[ast.stmt]) -> Iterator[ast.Call]:
    """The calls a main guard makes at its own level: `main()`, `sys.exit(main())`, `raise SystemExit(main())`."""
    for statement in body:
        value = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(statement, ast.Raise):
            value = statement.exc
        if not isinstance(value, ast.Call):
            continue
        inner = [a for a in value.args if isinstance(a, ast.Call)]
        yield from inner if last_name(value.func) in _EXITS else [value]


def _python_named(files: dict[str, FileFacts], path: str, expression: ast.expr) -> Iterator[Node]:
    if isinstance(expression, ast.Name):
        target = _python_target(files, path, expression.id)
        if target is not None:
            yield target


def _python_target(files: dict[str, FileFacts], path: str, name: str) -> Node | None:
    """The function `name` of module `path`: defined there at the top level, or imported by name."""
    if _defines(files[path], name):
        return path, name
    for source, names in files[path].names_from.items():
        if name in names and source in files and _defines(files[source], name):
            return source, name
    return None


def _defines(fact: FileFacts, name: str) -> bool:
    return any(s.name == name and s.kind in ("function", "method") for s in fact.symbols)


# --- Go ------------------------------------------------------------------------------------------------


def _go(path: str, language: str, text: str, files: dict[str, FileFacts]) -> Iterator[Node]:
    root = parse_tree(language, text).root_node
    package = _go_package(root)
    if package == "main" and _defines(files[path], "main"):
        yield path, "main"
    symbols = callables(files[path])
    for literal in descendants(root, "composite_literal"):
        kind = literal.child_by_field_name("type")
        if kind is None or not _GO_COMMAND_TYPES.match(node_text(kind)):
            continue
        for field in descendants(literal, "keyed_element"):
            key, value = keyed(field)
            if key in _GO_RUN_FIELDS and value is not None:
                target = _handler(files, path, value, symbols, _go_function)
                if target is not None:
                    yield target


def _go_package(root: Any) -> str:
    for child in root.named_children:
        if child.type == "package_clause":
            return node_text(child.named_children[0]) if child.named_children else ""
    return ""


def keyed(element: Any) -> tuple[str, Any]:
    """A keyed element's key and value (tree-sitter-go wraps each in a literal_element)."""
    parts = [
        c.named_children[0] if c.type == "literal_element" and c.named_children else c
        for c in element.named_children
    ]
    return (node_text(parts[0]), parts[1]) if len(parts) == 2 else ("", None)


def _go_function(files: dict[str, FileFacts], path: str, name: str) -> Node | None:
    """A function of `path`'s package (the non-test Go files of its folder)."""
    folder = posixpath.dirname(path)
    same = [path, *(p for p in files if p != path and posixpath.dirname(p) == folder)]
    for candidate in same:
        fact = files[candidate]
        if fact.language == "go" and not candidate.endswith("_test.go") and _defines(fact, name):
            return candidate, name
    return None


# --- JavaScript / TypeScript ---------------------------------------------------------------------------


def _js(path: str, language: str, text: str, files: dict[str, FileFacts]) -> Iterator[Node]:
    root = parse_tree(language, text).root_node
    symbols = callables(files[path])
    for call in descendants(root, "call_expression"):
        handler = _js_handler(call)
        if handler is not None:
            target = _handler(files, path, handler, symbols, _js_function)
            if target is not None:
                yield target


def _js_handler(call: Any) -> Any:
    """commander's `.action(handler)` on a command chain, yargs' `.command(cmd, desc, builder, handler)`."""
    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if function is None or arguments is None or function.type != "member_expression":
        return None
    method = node_text(function.child_by_field_name("property"))
    values = [a for a in arguments.named_children if a.type != "comment"]
    if method == "action" and len(values) == 1:
        return values[0]
    if method == "command" and len(values) == 4:
        return values[3]
    return None


def _js_function(files: dict[str, FileFacts], path: str, name: str) -> Node | None:
    """A top-level function of `path`, or of a module it requires or imports."""
    for candidate in [path, *files[path].depends_on]:
        if candidate in files and _defines(files[candidate], name):
            return candidate, name
    return None


# --- shared --------------------------------------------------------------------------------------------

_FUNCTION_LITERALS = frozenset({"func_literal", "arrow_function", "function_expression", "function"})


def _handler(
    files: dict[str, FileFacts],
    path: str,
    value: Any,
    symbols: list[Symbol],
    named: Callable[[dict[str, FileFacts], str, str], Node | None],
) -> Node | None:
    """The function a handler names, or for a handler written in place the function declaring it."""
    if value.type == "identifier":
        return named(files, path, node_text(value))
    if value.type in _FUNCTION_LITERALS:
        line = value.start_point[0] + 1
        holder = innermost(symbols, line)
        return (path, holder.name) if holder is not None else None
    return None


def callables(fact: FileFacts) -> list[Symbol]:
    return sorted(
        (s for s in fact.symbols if s.kind in ("function", "method")), key=lambda s: (s.start, -s.end)
    )


_COMMANDS: dict[str, Callable[[str, str, str, dict[str, FileFacts]], Iterator[Node]]] = {
    "python": _python,
    "go": _go,
    "js": _js,
}
