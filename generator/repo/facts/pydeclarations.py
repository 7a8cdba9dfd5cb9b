"""What a Python module declares for its users (declared.py), read from its syntax tree: record classes and
their fields, base classes and protocols with the methods a subclass provides, environment variables it
reads, and the keyword arguments (with defaults) of its top-level functions and classes. The facts stage
reads it from the tree it parses for the calls; the reference stage reads a module it was not handed."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace

import docstring_parser

from generator.repo.facts.declared import EnvRead, PyClass, PyField, PyMethod, PyModule
from generator.repo.facts.pysettings import settings_env
from generator.repo.facts.pysource import dotted_name
from generator.repo.model import FileFacts

VALUE_CHARS = 60  # a default or a type longer than this is cut: the permalink shows it whole
_RECORD_DECORATORS = {
    "dataclass": "dataclass",
    "dataclasses.dataclass": "dataclass",
    "attr.s": "attrs class",
    "attr.attrs": "attrs class",
    "attrs.define": "attrs class",
    "attrs.frozen": "attrs class",
    "attr.define": "attrs class",
    "attr.frozen": "attrs class",
    "define": "attrs class",
    "frozen": "attrs class",
}
_RECORD_BASES = {
    "BaseModel": "pydantic model",
    "BaseSettings": "pydantic settings",
    "TypedDict": "TypedDict",
    "NamedTuple": "NamedTuple",
    "Struct": "msgspec struct",
}
# a record kind its subclasses keep: a pydantic model's subclass is a pydantic model, with the fields it adds
# (a dataclass's subclass is a dataclass only under its own decorator; a NamedTuple class adds no fields)
_INHERITED_KINDS = frozenset({"pydantic model", "pydantic settings", "msgspec struct", "TypedDict"})
RECORD_DEPTH = 8  # classes between a record base and a subclass that is still read as a record
_FIELD_CALLS = {"field", "Field", "attr.ib", "attrib", "attrs.field", "attr.field", "msgspec.field"}
_GETENV = {"os.getenv", "getenv"}
_ENVIRON_READS = {"get", "setdefault", "pop"}  # os.environ.get("X", d), self._environ.setdefault("X", d)
# a docstring that lists parameters or attributes: reST fields, Google and NumPy section headers
_LISTS_PARAMETERS = re.compile(
    r":(?:param|parameter|arg|argument|key|keyword|ivar|cvar|var)\b|^\s*(?:Args|Arguments|Parameters|Attributes|"
    r"Keyword Args|Keyword Arguments|Other Parameters)\s*:?\s*$",
    re.MULTILINE,
)
_ENV_WORDS = re.compile(r"environ\b|\bgetenv\b")  # `self._environ` too: a copy kept to replace in tests
PLAIN_CLASS_USES = 2  # modules importing a plain class before its `__init__` attributes make it a record
# what makes a class a record or an extension point (read_module decides; this only says it is worth parsing)
_CANDIDATE = re.compile(
    r"@[\w.]*(?:dataclass|attr\.s|attrs|define|frozen)\b|\b(?:BaseModel|BaseSettings|TypedDict|NamedTuple|Struct"
    r"|ABC|ABCMeta|Protocol|abstractmethod)\b|NotImplemented\w*(?:Error|Exception)\b"
)


def read_module(
    text: str,
    spans: Sequence[tuple[int, int]] | None = None,
    tree: ast.Module | None = None,
    inherited: Mapping[str, str] | None = None,
) -> PyModule | None:
    """The module's declarations; None when it does not parse. With `spans` (1-based line ranges of its
    top-level definitions), only those are parsed, unless it reads environment variables: parsing the few
    definitions a page shows costs a fraction of parsing every module whole. Given `tree`, the whole of
    `text` parsed (the facts stage's, for the calls), nothing is parsed again but a span that is not one of
    its top-level statements. `inherited`: the repository's record classes by name (`record_bases`), whose
    subclasses are records of their kind."""
    wanted = _names_environment(text)
    if tree is not None and not same_lines(text):
        tree = None  # its line numbers may not be those of `text.splitlines()`, which the spans count
    if spans is None or wanted:
        try:
            tree = tree or ast.parse(text)
        except (SyntaxError, ValueError):
            return None
        nodes = tree.body
    else:
        nodes = _span_nodes(text, spans, tree)
    classes: list[PyClass] = []
    signatures: dict[str, tuple[PyField, ...]] = {}
    for node in nodes:
        if isinstance(node, ast.ClassDef):
            classes.append(read_class(node, inherited or {}))
            init = _method(node, "__init__")
            if init is not None:
                said = {**documented_parameters(node), **documented_parameters(init)}
                signatures[node.name] = _documented(keyword_arguments(init.args), said)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_"):
            signatures[node.name] = _documented(keyword_arguments(node.args), documented_parameters(node))
    env = env_reads(tree, _lines_naming(text)) if wanted and tree is not None else ()
    return PyModule(tuple(classes), env, tuple(signatures.items()))


def candidate_spans(
    text: str, facts: FileFacts, inherited: Mapping[str, str] | None = None
) -> list[tuple[int, int]]:
    """The top-level definitions worth parsing: classes that declare records, abstract methods or protocols,
    classes several modules import, subclasses of the repository's records (`inherited`), and what the
    module offers as its public face."""
    inherited = inherited or {}
    lines = text.splitlines()
    public = set(facts.api_names) | set(facts.exports)
    return [
        (s.start, s.end)
        for s in facts.symbols
        if not s.parent
        and s.public
        and (
            s.name in public
            or s.kind == "class"
            and (
                facts.name_uses.get(s.name, 0) >= PLAIN_CLASS_USES
                or any(_last(base) in inherited for base in s.bases)
                or _CANDIDATE.search("\n".join(lines[s.start - 1 : s.end])) is not None
            )
        )
    ]


def same_lines(text: str) -> bool:
    """Whether `ast` numbers the lines of `text` as `text.splitlines()` does: no carriage return, form feed
    or other separator splitlines() counts, no byte-order mark (which `ast.parse` refuses)."""
    ends = text.count("\n") + (not text.endswith("\n"))
    return "\r" not in text and not text.startswith("\ufeff") and len(text.splitlines()) == ends


def _span_nodes(text: str, spans: Sequence[tuple[int, int]], tree: ast.Module | None) -> list[ast.stmt]:
    """The top-level statements the spans cover, in the spans' order: each span that is a statement of
    `tree` (decorators included) is that statement, as parsing the span alone would give it; another span
    is parsed alone."""
    statements: dict[tuple[int, int], list[ast.stmt]] = {}
    for node in tree.body if tree is not None else ():
        statements.setdefault((_first_line(node), node.end_lineno or node.lineno), []).append(node)
    lines = text.splitlines()
    nodes: list[ast.stmt] = []
    for start, end in spans:
        if (start, end) in statements:
            nodes += statements[(start, end)]
        elif (parsed := _parse_span(lines, start, end)) is not None:
            nodes += parsed.body
    return nodes


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", ())
    return min([node.lineno, *(d.lineno for d in decorators)])


def method_arguments(text: str, start: int, end: int, method: str) -> tuple[PyField, ...]:
    """The keyword arguments (with their defaults and what the docstring says of each) of the method `method`
    of the class spanning lines `start`–`end` of `text`; () when it has none or does not parse."""
    parsed = _parse_span(text.splitlines(), start, end)
    declared = next((n for n in parsed.body if isinstance(n, ast.ClassDef)), None) if parsed else None
    found = _method(declared, method) if declared is not None else None
    return _documented(keyword_arguments(found.args), documented_parameters(found)) if found else ()


def _parse_span(lines: list[str], start: int, end: int) -> ast.Module | None:
    # blank lines before the span keep its line numbers (cheaper than renumbering the tree)
    try:
        return ast.parse("\n" * (start - 1) + "\n".join(lines[start - 1 : end]))
    except (SyntaxError, ValueError):
        return None


def _names_environment(text: str) -> bool:
    # the substring test first: the pattern alone scans a large module several times slower
    return ("environ" in text or "getenv" in text) and _ENV_WORDS.search(text) is not None


def _lines_naming(text: str) -> set[int]:
    return {i for i, line in enumerate(text.splitlines(), 1) if _names_environment(line)}


def read_class(node: ast.ClassDef, inherited: Mapping[str, str] | None = None) -> PyClass:
    bases = tuple(dotted_name(b) for b in node.bases if dotted_name(b))
    record = record_kind(node, bases, inherited)
    metaclass = next((dotted_name(k.value) for k in node.keywords if k.arg == "metaclass"), "")
    abstract = any(_last(b) in {"ABC", "Protocol"} for b in bases) or _last(metaclass) == "ABCMeta"
    fields: list[PyField] = []
    hooks: list[PyMethod] = []
    methods: list[PyMethod] = []
    for at, item in enumerate(node.body):
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            method = PyMethod(item.name, item.lineno, item.end_lineno or item.lineno)
            if _is_hook(item):
                hooks.append(method)
                abstract = abstract or _is_abstract(item)
            elif not item.name.startswith("_"):
                methods.append(method)
        elif record and (declared := _field(item, record)) is not None:
            following = node.body[at + 1] if at + 1 < len(node.body) else None
            said = _docstring(following) if following is not None else ""
            fields.append(replace(declared, doc=said) if said else declared)
    init = _method(node, "__init__")
    attributes = init_attributes(init) if not record and init is not None else []
    listed = {**(documented_parameters(init) if init else {}), **documented_parameters(node)}
    return PyClass(
        node.name,
        node.lineno,
        node.end_lineno or node.lineno,
        bases,
        record,
        _documented(fields, listed),
        tuple(hooks),
        tuple(methods),
        abstract,
        _documented(attributes, listed),
        settings_env(node, fields) if record == "pydantic settings" else (),
    )


def documented_parameters(node: ast.AST) -> dict[str, str]:
    """What a class's or function's docstring says of each parameter or attribute it lists (reST `:param x:`,
    `:ivar x:`, Google "Args:"/"Attributes:", NumPy "Parameters"): anyio's `:param shield: True to shield the
    cancel scope from external cancellation`. Parsed only, never run; {} without such a list."""
    if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return {}
    doc = ast.get_docstring(node, clean=True)
    if not doc or not _LISTS_PARAMETERS.search(doc):
        return {}
    try:
        parsed = docstring_parser.parse(doc)
    except (docstring_parser.ParseError, ValueError, IndexError, AttributeError):
        return {}
    return {
        p.arg_name.split()[-1].lstrip("*"): " ".join(p.description.split())
        for p in parsed.params
        if p.arg_name and p.description
    }


def _documented(fields: list[PyField], said: dict[str, str]) -> tuple[PyField, ...]:
    """The fields, each without a doc of its own given what the docstring says of it."""
    return tuple(replace(f, doc=said[f.name]) if not f.doc and said.get(f.name) else f for f in fields)


def init_attributes(init: ast.FunctionDef | ast.AsyncFunctionDef) -> list[PyField]:
    """`self.x = …` / `self.x: T = …` at the top of `__init__`'s body: an argument passed straight through
    shows the argument's type and default."""
    arguments = {a.name: a for a in keyword_arguments(init.args)}
    annotations = {a.arg: _text(a.annotation) for a in init.args.args + init.args.kwonlyargs if a.annotation}
    found: dict[str, PyField] = {}
    for statement in init.body:
        target, value, annotation = _self_assignment(statement)
        if not target or target.startswith("_") or target in found:
            continue
        passed = value.id if isinstance(value, ast.Name) else ""
        default = arguments[passed].default if passed in arguments else "" if passed else _default(value)
        kind = annotation or annotations.get(passed, "")
        found[target] = PyField(target, kind, default, statement.lineno)
    return list(found.values())


def _self_assignment(statement: ast.stmt) -> tuple[str, ast.expr | None, str]:
    target: ast.expr
    if isinstance(statement, ast.AnnAssign):
        target, value, annotation = statement.target, statement.value, _text(statement.annotation)
    elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value, annotation = statement.targets[0], statement.value, ""
    else:
        return "", None, ""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return target.attr, value, annotation
    return "", None, ""


def record_kind(
    node: ast.ClassDef, bases: tuple[str, ...], inherited: Mapping[str, str] | None = None
) -> str:
    """What record a class is: its decorator's or its base's kind, or that of the repository's record class
    it stands on (`inherited`: beanie's `DocumentSettings(ItemSettings)` a pydantic model); '' for none."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        kind = _RECORD_DECORATORS.get(dotted_name(target))
        if kind:
            return kind
    kinds = {**(inherited or {}), **_RECORD_BASES}
    return next((kinds[_last(b)] for b in bases if _last(b) in kinds), "")


def record_bases(files: Iterable[FileFacts]) -> dict[str, str]:
    """The repository's Python classes (by name) whose subclasses are records of their kind: those standing
    on pydantic's BaseModel or BaseSettings, msgspec's Struct or TypedDict, directly or through another such
    class of the repository (beanie's `ItemSettings(BaseModel)`, then `DocumentSettings(ItemSettings)`). A
    name two classes go by is one only when both are (fastapi's plain `security.base.SecurityBase` beside
    the OpenAPI model of that name)."""
    written: dict[str, list[tuple[str, ...]]] = {}
    for facts in files:
        if facts.language != "python" or not getattr(facts, "symbols_read", True):
            continue  # a test file not parsed yet stays unread
        for symbol in facts.symbols:
            if symbol.kind == "class":
                written.setdefault(symbol.name.rsplit(".", 1)[-1], []).append(symbol.bases)
    kinds: dict[str, str] = {}
    for _ in range(RECORD_DEPTH):
        known = {**kinds, **_RECORD_BASES}
        grown: dict[str, str] = {}
        for name, classes in written.items():
            found = {next((known[_last(b)] for b in bases if _last(b) in known), "") for bases in classes}
            kind = found.pop() if len(found) == 1 else ""
            if name not in kinds and kind in _INHERITED_KINDS:
                grown[name] = kind
        if not grown:
            break
        kinds.update(grown)
    return kinds


def _field(item: ast.stmt, kind: str) -> PyField | None:
    """`name: T = default` (a ClassVar is not a field), or an attrs `name = attr.ib(…)`."""
    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
        annotation = _text(item.annotation)
        if annotation.startswith(("ClassVar", "typing.ClassVar")) or item.target.id.startswith("_"):
            return None
        return PyField(item.target.id, annotation, _default(item.value), item.lineno, _described(item.value))
    if (
        kind == "attrs class"
        and isinstance(item, ast.Assign)
        and len(item.targets) == 1
        and isinstance(item.targets[0], ast.Name)
        and isinstance(item.value, ast.Call)
        and dotted_name(item.value.func) in _FIELD_CALLS
    ):
        return PyField(item.targets[0].id, "", _default(item.value), item.lineno)
    return None


def _docstring(node: ast.stmt) -> str:
    """An attribute docstring: the string standing alone right after a field (Sphinx reads it too)."""
    if (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ):
        return node.value.value
    return ""


def _described(value: ast.expr | None) -> str:
    """A pydantic `Field(description="…")`'s description."""
    if isinstance(value, ast.Call) and dotted_name(value.func) in _FIELD_CALLS:
        for keyword in value.keywords:
            if keyword.arg == "description" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    return ""


def _default(value: ast.expr | None) -> str:
    """The default as written; `field(default=…)` / `Field(…)` give theirs, a factory shows as its call."""
    if value is None:
        return ""
    if isinstance(value, ast.Call) and dotted_name(value.func) in _FIELD_CALLS:
        for keyword in value.keywords:
            if keyword.arg == "default":
                return _text(keyword.value)
            if keyword.arg in {"default_factory", "factory"}:
                return f"{_text(keyword.value)}()"
        return _text(value.args[0]) if value.args and dotted_name(value.func) == "Field" else ""
    return _text(value)


def keyword_arguments(arguments: ast.arguments) -> list[PyField]:
    """The arguments a caller may leave out, with their defaults (`self`, `*args`, `**kwargs` are not), each
    saying whether it can be given by name only."""
    positional = arguments.posonlyargs + arguments.args
    paired = [
        (a, d, False)
        for a, d in zip(
            positional[len(positional) - len(arguments.defaults) :], arguments.defaults, strict=True
        )
    ]
    paired += [
        (a, d, True)
        for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
        if d is not None
    ]
    return [
        PyField(
            arg.arg,
            _text(arg.annotation) if arg.annotation else "",
            _text(default),
            arg.lineno,
            keyword_only=named,
        )
        for arg, default, named in paired
        if not arg.arg.startswith("_")
    ]


def env_reads(tree: ast.Module, lines: set[int]) -> tuple[EnvRead, ...]:
    """`os.getenv("X", d)`, `os.environ.get("X", d)`, `os.environ["X"]`: each variable named by a literal,
    or by a module constant holding one (omegaconf's `os.environ.get(_MAX_YAML_EXPANDED_NODES_ENV)`, the
    constant `"OMEGACONF_MAX_YAML_EXPANDED_NODES"`). Only the statements spanning `lines` (those naming the environment) are walked. A bare `environ` is the
    process's only where the module imports it from `os`: elsewhere it is a WSGI request's (`def
    __call__(self, environ, start_response)`), whose keys (`HTTP_RANGE`, `wsgi.input`) are no settings."""
    found = []
    constants = _string_constants(tree)
    nodes = list(_nodes_at(tree, lines)) if lines else []  # no line naming the environment: nothing is walked
    bare = _imports_environ(nodes)
    for node in nodes:
        if isinstance(node, ast.Call) and _reads_environ(node.func, bare) and node.args:
            name = _literal(node.args[0], constants)
            default = _text(node.args[1]) if len(node.args) > 1 else ""
        elif isinstance(node, ast.Subscript) and _is_environ(node.value, bare):
            name, default = _literal(node.slice, constants), ""
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and _is_environ(node.comparators[0], bare)
        ):
            name, default = _literal(node.left, constants), ""  # "NO_COLOR" in os.environ
        else:
            continue
        if name:
            found.append(EnvRead(name, default, node.lineno))
    return tuple(sorted(found, key=lambda read: read.line))  # the walk goes last statement first


def _is_environ(node: ast.expr, bare: bool) -> bool:
    """`os.environ`, `environ` imported from `os` (`bare`), or a private attribute holding it (rich's
    `self._environ`); not a request's (`request.environ`, werkzeug's and beaker's `environ` parameter)."""
    name = dotted_name(node)
    owner, _, attr = name.rpartition(".")
    return name == "os.environ" or (name == "environ" and bare) or (bool(owner) and attr == "_environ")


def _imports_environ(nodes: list[ast.AST]) -> bool:
    """Whether the module imports `environ` from `os` under that name: an import naming it is among the
    `nodes` of the statements spanning a line that names the environment, and need not be looked for in the
    rest of the module."""
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "os"
        and any(alias.name == "environ" and alias.asname in (None, "environ") for alias in node.names)
        for node in nodes
    )


def _reads_environ(func: ast.expr, bare: bool) -> bool:
    if dotted_name(func) in _GETENV:
        return True
    return isinstance(func, ast.Attribute) and func.attr in _ENVIRON_READS and _is_environ(func.value, bare)


def _nodes_at(tree: ast.AST, lines: set[int]) -> Iterator[ast.AST]:
    pending = [tree]
    while pending:
        node = pending.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            first: int | None = getattr(child, "lineno", None)
            last: int = getattr(child, "end_lineno", None) or first or 0
            if first is None or any(first <= line <= last for line in lines):
                pending.append(child)


_NOT_IMPLEMENTED = re.compile(r"\w*NotImplemented\w*(?:Error|Exception)")


def _is_hook(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """An abstract method, or one whose body (after its docstring) only raises NotImplementedError, or the
    project's own error saying so (apispec's `PluginMethodNotImplementedError`, a `NotImplementedException`)."""
    if _is_abstract(node):
        return True
    body = node.body[1:] if node.body and _is_docstring(node.body[0]) else node.body
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return _NOT_IMPLEMENTED.fullmatch(dotted_name(raised).rpartition(".")[2]) is not None


def _is_abstract(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(_last(dotted_name(d)) == "abstractmethod" for d in node.decorator_list)


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _method(node: ast.ClassDef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next(
        (i for i in node.body if isinstance(i, ast.FunctionDef | ast.AsyncFunctionDef) and i.name == name),
        None,
    )


def _literal(node: ast.expr, constants: Mapping[str, str] | None = None) -> str:
    if isinstance(node, ast.Name):
        return (constants or {}).get(node.id, "")
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """The module's top-level names bound once to a string literal (`_ENV = "OMEGACONF_…"`)."""
    bound: dict[str, list[str]] = {}
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        for target in targets:
            if isinstance(target, ast.Name) and value is not None:
                bound.setdefault(target.id, []).append(_literal(value))
    return {name: values[0] for name, values in bound.items() if len(values) == 1 and values[0]}


def _text(node: ast.expr) -> str:
    value = " ".join(ast.unparse(node).split())
    return value if len(value) <= VALUE_CHARS else value[: VALUE_CHARS - 1] + "…"


def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1]
