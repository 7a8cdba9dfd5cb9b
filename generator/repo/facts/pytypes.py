"""What a Python module declares about the classes its names give, read from its syntax tree for the call
reader (pycalls.py): its functions' and methods' return annotations, its properties' (`@property def model(self)
-> type[T]`: reading the attribute gives that), the bound of each TypeVar it makes (`T = TypeVar("T",
bound="Model")`: a value typed `T` is a Model) and what entering each context manager it defines gives (`with
f() as x`: the yield type of a `@contextmanager` function, an `__enter__`'s annotation or its own instance)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

PROPERTIES = frozenset({"property", "cached_property"})
CONTEXT_MANAGERS = frozenset({"contextmanager", "asynccontextmanager"})
ENTER_METHODS = frozenset({"__enter__", "__aenter__"})
# what a `@contextmanager` function is annotated to return: the first argument is what `with` gives
YIELDING = frozenset(
    {"Iterator", "AsyncIterator", "Generator", "AsyncGenerator", "Iterable", "AsyncIterable"}
)
ITSELF: ast.expr = ast.Name("Self")  # an `__enter__` giving its own instance (`return self`, `-> Self`)
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class DeclaredTypes:
    """One module's declarations, by qualified name (`make_server`, `Pool.acquire`)."""

    returns: dict[str, ast.expr] = field(default_factory=dict)  # a function's or method's return annotation
    entered: dict[str, ast.expr] = field(default_factory=dict)  # what `with name(…) as x` / `__enter__` gives
    bounds: dict[str, ast.expr] = field(default_factory=dict)  # a TypeVar's name → its bound
    # `async def`s: their return annotation is what awaiting their call gives, not an awaitable
    coroutines: set[str] = field(default_factory=set)


NO_TYPES = DeclaredTypes()


def declared_types(module: ast.Module) -> DeclaredTypes:
    """The module's module-level functions', its classes' methods' and its TypeVars' declarations."""
    found = DeclaredTypes()
    for node in top_level(module.body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            _note_function(found, node.name, node, "")
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    _note_function(found, f"{node.name}.{item.name}", item, node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            bound = _typevar_bound(node.value)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets if bound is not None else []:
                if isinstance(target, ast.Name):
                    found.bounds[target.id] = bound  # type: ignore[assignment]
    return found


def is_property(method: Function) -> bool:
    """A method read as an attribute (`@property`, `@cached_property`): reading it gives its return."""
    return any(_named(d) in PROPERTIES for d in method.decorator_list)


def top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module statements, looking inside top-level if/try blocks (conditional imports, `if TYPE_CHECKING:`)."""
    for node in body:
        if isinstance(node, ast.If | ast.Try):
            yield from top_level(node.body)
            yield from top_level(node.orelse)
            if isinstance(node, ast.Try):
                for handler in node.handlers:
                    yield from top_level(handler.body)
        else:
            yield node


def _note_function(found: DeclaredTypes, name: str, function: Function, owner: str) -> None:
    if isinstance(function, ast.AsyncFunctionDef):
        found.coroutines.add(name)
    if function.returns is not None:
        found.returns[name] = function.returns
    if any(_named(d) in CONTEXT_MANAGERS for d in function.decorator_list):
        given = _yielded(function.returns)
        if given is not None:
            found.entered[name] = given
    elif owner and function.name in ENTER_METHODS:
        given = function.returns if not _names_itself(function.returns, owner) else ITSELF
        if given is None and _returns_self(function):
            given = ITSELF
        if given is not None:
            found.entered[name] = given


def _yielded(annotation: ast.expr | None) -> ast.expr | None:
    """`Iterator[Conn]`, `AsyncGenerator[Conn, None]` → `Conn`."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return None
    if not isinstance(annotation, ast.Subscript) or _named(annotation.value) not in YIELDING:
        return None
    inner = annotation.slice
    return inner.elts[0] if isinstance(inner, ast.Tuple) and inner.elts else inner


def _names_itself(annotation: ast.expr | None, owner: str) -> bool:
    """`-> Self`, `-> "Pool"` in class Pool."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.strip() in {owner, "Self"}
    return _named(annotation) in {owner, "Self"} if annotation is not None else False


def _returns_self(function: Function) -> bool:
    """Every `return` of the method's own body gives `self`, and there is one."""
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return)]
    return bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id == "self" for r in returns)


def _typevar_bound(value: ast.expr) -> ast.expr | None:
    """`TypeVar("T", bound="Model")`, `typing.TypeVar(…, bound=Model)` → its bound."""
    if not isinstance(value, ast.Call) or _named(value.func) != "TypeVar":
        return None
    return next((k.value for k in value.keywords if k.arg == "bound"), None)


def _named(node: ast.expr | None) -> str:
    """The last name of `name`, `pkg.name`, `name(…)` (a decorator called with arguments)."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
