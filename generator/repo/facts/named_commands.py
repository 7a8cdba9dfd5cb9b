"""A command-line tool's commands as its user types them: each command's name, its one-line help and the
function or class that runs it, read from the code that declares it (never run). Python: a table of
subcommands (commitizen's `{"name": ["commit", "c"], "help": …, "func": commands.Commit}`), argparse's
`add_parser("x", help=…)` with its `set_defaults(func=…)`, click and typer's `@x.command()`. Go: cobra's
`&cobra.Command{Use: …, Short: …}` and urfave/cli's `&cli.Command{Name: …, Usage: …}`; a command's root
(`Use: "chainsaw"`) names the program the others run under."""

from __future__ import annotations

import ast
import posixpath
import re
import tomllib
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from generator.repo.facts.commands import callables, keyed
from generator.repo.facts.comments import descendants, node_text
from generator.repo.facts.examples import called_in
from generator.repo.facts.languages import parse_tree
from generator.repo.facts.pysource import last_name
from generator.repo.facts.tscalls import innermost
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import FileFacts, Symbol

Read = Callable[[str], str | None]

MAX_COMMANDS = 40  # a program with more lists them on its own pages
_PY_NEEDLES = re.compile(r"\"func\"\s*:|'func'\s*:|add_parser\(|@[\w.]*\bcommand\b")
_GO_NEEDLES = re.compile(r"\.Command\s*\{")
_HELP_KEYS = ("help", "short_help", "description")
_TOOLING = frozenset(
    {"hack", "tools", "scripts"}
)  # the maintainers' own tools (chainsaw's hack/controller-gen)
_GO_NAME = {"Use": "Short", "Name": "Usage"}  # cobra, urfave/cli: the name field → its help field
_GO_RUN_FIELDS = frozenset({"Run", "RunE", "Action"})
_COMMAND_TYPE = re.compile(r"^\*?\w+\.Command$")


@dataclass(frozen=True)
class NamedCommand:
    """One command: its name as typed after the program's, its help line, and the symbol that runs it."""

    name: str
    help: str
    path: str
    symbol: Symbol


@dataclass(frozen=True)
class _Found:
    name: str
    help: str
    path: str
    handler: str  # the symbol's name; "" for the function declaring the command at `line`
    line: int
    qualifier: str = ""  # `commands` of `commands.Commit`: the module the handler is read from


def named_commands(read: Read, files: dict[str, FileFacts]) -> tuple[str, list[NamedCommand]]:
    """The program's name ("" when the code does not say it) and its commands, in file order, each once."""
    found: list[_Found] = []
    roots: list[str] = []
    for path, fact in files.items():
        if (
            is_context_file(path)
            or path.split("/")[0] in _TOOLING
            or fact.tagged
            or fact.language not in ("python", "go")
        ):
            continue
        text = read(path)
        if text is None:
            continue
        if fact.language == "python" and _PY_NEEDLES.search(text):
            found += _python(path, text)
        elif fact.language == "go" and _GO_NEEDLES.search(text):
            found += _go(path, text, roots)
    module = re.search(r"^module\s+(\S+)", read("go.mod") or "", re.MULTILINE)
    if module:  # `Use: "chainsaw"` in the module github.com/kyverno/chainsaw runs the others
        named = [p for p in module.group(1).split("/") if not re.fullmatch(r"v\d+", p)][-1:]
        roots += [item.name for item in found if [item.name] == named]
    program = roots[0] if len(set(roots)) == 1 else _script(read)
    found += _plugged(read, files, program)
    found = _nested([item for item in found if item.name != program])
    commands: dict[str, NamedCommand] = {}
    for item in found:
        if item.name in commands:
            continue
        located = _resolve(item, files)
        if located is not None:
            commands[item.name] = NamedCommand(item.name, item.help, *located)
    return program, list(commands.values())[:MAX_COMMANDS]


def started_commands(read: Read, files: dict[str, FileFacts], code: Iterable[str]) -> list[tuple[str, str]]:
    """Where a library's use starts when its usage examples' `code` starts it from the command line
    (`shown_commands`): each command's run (`running`). Only the source modules are read: a test's symbols,
    read here, would count in the facts' `base_uses`."""
    sources = {path: fact for path, fact in files.items() if not is_context_file(path)}
    program, commands = named_commands(read, sources)
    return [running(command, files[command.path]) for command in shown_commands(program, commands, code)]


def shown_commands(program: str, commands: Iterable[NamedCommand], code: Iterable[str]) -> list[NamedCommand]:
    """The program's commands a user starts with: those the first usage example showing any code shows a
    user typing, in the order shown, when it shows one before any call into the code. datasette's README runs
    `datasette serve path/to/database.db` after its install lines, nfpm's quick start (its README shows no
    code) `nfpm init` and `nfpm package`; taskiq's README makes a broker and sends a task before it runs
    `taskiq worker`, and piccolo's queries come before `piccolo asgi new`: a library used from code first.
    A command is a line of code (a block's line or an inline span) opening with the program's name, after
    a shell prompt at most; `pip install datasette` runs pip."""
    by_name = {command.name: command for command in commands}
    if not program or not by_name:
        return []
    typed = re.compile(
        rf"^[ \t]*(?:\$[ \t]*)?{re.escape(program)}[ \t]+([a-z][\w-]*)(?:[ \t]+([a-z][\w-]*))?", re.MULTILINE
    )
    for text in code:
        found = (
            (m.start(), by_name.get(f"{m[1]} {m[2]}") or by_name.get(m[1])) for m in typed.finditer(text)
        )
        shown = [(at, command) for at, command in found if command is not None]
        if shown and not _calls(text[: shown[0][0]]):
            return list({command.name: command for _, command in shown}.values())
        if shown or _calls(text):
            return []  # the code is used from code first
    return []


def running(command: NamedCommand, fact: FileFacts) -> tuple[str, str]:
    """Where a command's run starts: its function, or the `__call__` of its class (commitizen's table files
    `commands.Bump` under "func", and cli.py runs `args.func(conf, arguments)()`: a flow from the class
    would follow its constructor)."""
    name = command.symbol.name
    if command.symbol.kind == "class" and any(s.name == f"{name}.__call__" for s in fact.symbols):
        return command.path, f"{name}.__call__"
    return command.path, name


# an `@` right after a word is a version or an address (`go install …/cmd/nfpm@latest`), never a decorator
_AT_AFTER_WORD = re.compile(r"(?<=\S)@[\w.-]+")


def _calls(code: str) -> bool:
    return bool(called_in(_AT_AFTER_WORD.sub("", code)))


def _nested(found: list[_Found]) -> list[_Found]:
    """A Go command in a package under another command's is its subcommand: chainsaw's
    pkg/commands/migrate/kuttl/config is `migrate kuttl config`, not `config`."""
    folders = {posixpath.dirname(f.path): f.name for f in found if f.path.endswith(".go")}
    if len(folders) != sum(f.path.endswith(".go") for f in found):
        return found  # several commands share a package (ko's pkg/commands): its folders tell no nesting
    nested: list[_Found] = []
    for item in found:
        folder = posixpath.dirname(item.path)
        above = [folders[d] for d in sorted(folders, key=len) if d and folder.startswith(d + "/")]
        nested.append(
            replace(item, name=" ".join([*above, item.name])) if item.path.endswith(".go") else item
        )
    return nested


def _script(read: Read) -> str:
    """The first script pyproject installs (`cz = "commitizen.cli:main"` → "cz")."""
    project = _pyproject(read)
    scripts = project.get("project", {}).get("scripts") or project.get("tool", {}).get("poetry", {}).get(
        "scripts"
    )
    return next((str(name) for name in scripts), "") if isinstance(scripts, dict) else ""


def _pyproject(read: Read) -> dict[str, Any]:
    try:
        return tomllib.loads(read("pyproject.toml") or "")
    except tomllib.TOMLDecodeError:
        return {}


def _plugged(read: Read, files: dict[str, FileFacts], program: str) -> list[_Found]:
    """The subcommands an entry-point group named after the program registers (taskiq's `taskiq_cli`:
    `worker = "taskiq.cli.worker.cmd:WorkerCMD"` is `taskiq worker`), each helped by its `short_help`."""
    groups = _pyproject(read).get("project", {}).get("entry-points", {})
    found: list[_Found] = []
    for group, table in groups.items() if program and isinstance(groups, dict) else ():
        if not group.startswith(program) or not isinstance(table, dict) or group == program:
            continue
        for name, target in table.items():
            module, _, attribute = str(target).strip().partition(":")
            rel = module.replace(".", "/") + ".py"
            path = next((p for p in (rel, f"src/{rel}") if p in files), "")
            symbol = _top_level(files[path], attribute) if path and attribute else None
            if symbol is not None:
                text = read(path) or ""
                found.append(_Found(str(name), _class_help(text, attribute), path, attribute, symbol.start))
    return found


def _class_help(text: str, name: str) -> str:
    """A command class's `short_help = "…"` (or `help`), else its docstring's first line."""
    try:
        module = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ""
    for node in module.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            for statement in node.body:
                if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                    if last_name(statement.targets[0]) in ("short_help", "help"):
                        return _string(statement.value)
            doc = (ast.get_docstring(node) or "").strip().splitlines()
            return doc[0] if doc else ""
    return ""


def _resolve(item: _Found, files: dict[str, FileFacts]) -> tuple[str, Symbol] | None:
    if not item.handler:
        holder = innermost(callables(files[item.path]), item.line)
        return (item.path, holder) if holder is not None else None
    here = _top_level(files[item.path], item.handler)
    if here is not None and not item.qualifier:
        return item.path, here
    # `commands.Commit`: the class of that name in a module under a folder or file named `commands`, be its
    # name a release script's (commitizen's commands/version.py runs `cz version`)
    language = files[item.path].language
    defining = [
        (p, s) for p, f in files.items() if f.language == language if (s := _top_level(f, item.handler))
    ]
    named = [(p, s) for p, s in defining if item.qualifier and item.qualifier in _parts(p)]
    defining = [(p, s) for p, s in defining if not is_context_file(p)]
    chosen = named or defining
    return chosen[0] if len(chosen) == 1 or named else None


def _parts(path: str) -> list[str]:
    return [posixpath.splitext(part)[0] for part in path.split("/")]


def _top_level(fact: FileFacts, name: str) -> Symbol | None:
    return next((s for s in fact.symbols if s.name == name and not s.parent), None)


# --- Python --------------------------------------------------------------------------------------------


def _python(path: str, text: str) -> list[_Found]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = ast.parse(text.removeprefix("\ufeff"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found: list[_Found] = []
    parsers: dict[str, tuple[str, str, int]] = {}  # a parser variable → its command's name, help and line
    for node in ast.walk(module):
        if isinstance(node, ast.Dict):
            found += _table_entry(path, node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += _decorated(path, node)
        elif (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            call = node.value
            if isinstance(call, ast.Call) and last_name(call.func) == "add_parser" and call.args:
                name = _string(call.args[0])
                if name:
                    parsers[node.targets[0].id] = (name, _keyword_help(call), node.lineno)
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and last_name(node.func) == "set_defaults":
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            if isinstance(owner, ast.Name) and owner.id in parsers:
                name, help_line, line = parsers[owner.id]
                for keyword in node.keywords:
                    if keyword.arg in ("func", "handler", "command") and last_name(keyword.value):
                        found.append(_Found(name, help_line, path, last_name(keyword.value), line))
    return sorted(found, key=lambda f: f.line)


def _table_entry(path: str, node: ast.Dict) -> list[_Found]:
    """`{"name": ["commit", "c"], "help": "Create new commit.", "func": commands.Commit}`."""
    entry = {
        key.value: value
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant)
    }
    handler, name = entry.get("func"), entry.get("name")
    if handler is None or name is None or not last_name(handler):
        return []
    names = [_string(e) for e in name.elts] if isinstance(name, ast.List | ast.Tuple) else [_string(name)]
    if not names or not names[0] or names[0].startswith("-"):
        return []
    help_line = next((h for key in _HELP_KEYS if key in entry and (h := _string(entry[key]))), "")
    qualifier = last_name(handler.value) if isinstance(handler, ast.Attribute) else ""
    return [_Found(names[0], help_line, path, last_name(handler), node.lineno, qualifier)]


def _decorated(path: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[_Found]:
    """click and typer: `@cli.command()`, `@app.command("name", help=…)`; the help is else the docstring's."""
    for decorator in function.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        if last_name(call.func if call else decorator) != "command":
            continue
        name = (_string(call.args[0]) if call and call.args else "") or _keyword(call, "name")
        help_line = _keyword_help(call) if call else ""
        doc = (ast.get_docstring(function) or "").strip().splitlines()
        return [
            _Found(
                name or function.name.replace("_", "-"),
                help_line or (doc[0] if doc else ""),
                path,
                function.name,
                function.lineno,
            )
        ]
    return []


def _keyword_help(call: ast.Call | None) -> str:
    return next((h for key in _HELP_KEYS if (h := _keyword(call, key))), "")


def _keyword(call: ast.Call | None, name: str) -> str:
    if call is None:
        return ""
    return next((_string(k.value) for k in call.keywords if k.arg == name), "")


def _string(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return " ".join(node.value.split())
    return ""


# --- Go ------------------------------------------------------------------------------------------------


def _go(path: str, text: str, roots: list[str]) -> list[_Found]:
    found: list[_Found] = []
    root = parse_tree("go", text).root_node
    for literal in descendants(root, "composite_literal"):
        kind = literal.child_by_field_name("type")
        if kind is None or not _COMMAND_TYPE.match(node_text(kind)):
            continue
        fields = dict(_go_fields(literal))
        key = next((k for k in _GO_NAME if k in fields), "")
        name = _go_string(fields.get(key))
        if not name:
            continue
        word = name.split()[0]
        runs = [fields[k] for k in _GO_RUN_FIELDS if k in fields]
        if not runs:
            roots.append(word)  # a command that runs nothing of its own groups the others: the program
            continue
        handler = node_text(runs[0]) if runs[0].type == "identifier" else ""
        found.append(
            _Found(word, _go_string(fields.get(_GO_NAME[key])), path, handler, literal.start_point[0] + 1)
        )
    return found


def _go_fields(literal: Any) -> Iterator[tuple[str, Any]]:
    """The literal's own keyed fields (not those of literals nested in it)."""
    for element in descendants(literal, "keyed_element"):
        if element.parent is not None and element.parent.parent == literal:
            key, value = keyed(element)
            if value is not None:
                yield key, value


def _go_string(node: Any) -> str:
    if node is None or node.type not in ("interpreted_string_literal", "raw_string_literal"):
        return ""
    return " ".join(node_text(node)[1:-1].split())
