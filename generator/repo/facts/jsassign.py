"""JavaScript definitions made by assignment, which a declaration walk never sees: `app.use = function use()`,
`Router.prototype.route = function ()`, `exports.json = (x) => …`, `module.exports = function create()`,
and the objects a CommonJS module exports (`var app = exports = module.exports = {}`)."""

from __future__ import annotations

from typing import Any

from generator.repo.facts.comments import doc_before, node_text
from generator.repo.facts.extracted import Extracted
from generator.repo.model import Symbol

_FUNCTIONS = {"function_expression", "function", "arrow_function", "generator_function", "class"}
_EXPORT_HEADS = ("module.exports", "exports")


def js_assignment(statement: Any, out: Extracted) -> None:
    """Record the function/class a top-level `target = function …` statement defines, and exported names."""
    assignment = statement.named_children[0] if statement.named_children else None
    if assignment is None or assignment.type != "assignment_expression":
        return
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    targets = [left]
    while right is not None and right.type == "assignment_expression":  # a = b = module.exports = …
        targets.append(right.child_by_field_name("left"))
        right = right.child_by_field_name("right")
    _note_exports(targets, right, out)
    if right is not None and right.type == "class":
        _class_symbol(targets, right, statement, out)
        return
    if left is None or left.type != "member_expression":
        return
    maker = _maker(right) if ".prototype." in node_text(left) else ""
    if maker:  # `Logger.prototype.info = mkLogEmitter(INFO)`: a method the function makes
        symbol = _assigned_symbol(node_text(left), right, statement)
        if symbol is not None:
            out.symbols.append(symbol)
            out.made_by[symbol.name] = maker
        return
    if right is None or right.type not in _FUNCTIONS:
        return
    symbol = _assigned_symbol(node_text(left), right, statement)
    if symbol is not None:
        out.symbols.append(symbol)


def _maker(value: Any) -> str:
    """The function a call made the value with (`mkLogEmitter(INFO)` → "mkLogEmitter"), "" otherwise."""
    function = (
        value.child_by_field_name("function")
        if value is not None and value.type == "call_expression"
        else None
    )
    return node_text(function) if function is not None and function.type == "identifier" else ""


def js_exported_object(declaration: Any, out: Extracted) -> None:
    """`var app = exports = module.exports = {}`: `app` is what the module exports."""
    for declarator in declaration.named_children:
        if declarator.type != "variable_declarator":
            continue
        value = declarator.child_by_field_name("value")
        chain = []
        while value is not None and value.type == "assignment_expression":
            chain.append(node_text(value.child_by_field_name("left")))
            value = value.child_by_field_name("right")
        if any(target in _EXPORT_HEADS for target in chain):
            out.exports.append(node_text(declarator.child_by_field_name("name")))


def js_made_by(declaration: Any, out: Extracted) -> None:
    """`const got = create(defaults)`: a module-level value a function makes (a factory's instance, which
    users call by the value's name)."""
    for declarator in declaration.named_children:
        if declarator.type != "variable_declarator":
            continue
        name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
        function = (
            value.child_by_field_name("function")
            if value is not None and value.type == "call_expression"
            else None
        )
        if (
            name is not None
            and name.type == "identifier"
            and function is not None
            and function.type == "identifier"
        ):
            out.made_by[node_text(name)] = node_text(function)


def _note_exports(targets: list[Any], value: Any, out: Extracted) -> None:
    names = [node_text(t) for t in targets if t is not None]
    if not any(name in _EXPORT_HEADS or name.startswith(("exports.", "module.exports.")) for name in names):
        return
    if value is not None and value.type == "identifier":
        out.exports.append(node_text(value))  # module.exports = Router
    elif value is not None and value.type in _FUNCTIONS:
        name = node_text(value.child_by_field_name("name"))
        if name:
            out.exports.append(name)  # module.exports = function createApplication() {…}
    elif value is not None and value.type == "object":  # module.exports = { scheduleJob, cancel: cancelJob }
        out.exports.extend(_object_members(value))
    out.exports.extend(n for n in names if n not in _EXPORT_HEADS and "." not in n)


def _object_members(literal: Any) -> list[str]:
    """The module's own names an exported object literal holds: `{ parse, serialize }`, `{ cancel: cancelJob }`
    (bree's job-utils.js, pino's lib/tools.js, node-schedule's lib/schedule.js export so)."""
    names = []
    for member in literal.named_children:
        if member.type == "shorthand_property_identifier":
            names.append(node_text(member))
        elif member.type == "pair":
            value = member.child_by_field_name("value")
            if value is not None and value.type == "identifier":
                names.append(node_text(value))
    return names


def _class_symbol(targets: list[Any], value: Any, statement: Any, out: Extracted) -> None:
    """The class a statement assigns (`exports.Report = class extends Error {…}`, hapi's `exports =
    module.exports = internals.Request = class {…}`), named by its own name or the innermost target's."""
    names = [node_text(t) for t in targets if t is not None]
    name = assigned_class_name(names, value)
    if not name:
        return
    exported = any(n in _EXPORT_HEADS or n.startswith(("exports.", "module.exports.")) for n in names)
    out.symbols.append(
        Symbol(
            name,
            "class",
            statement.start_point[0] + 1,
            statement.end_point[0] + 1,
            doc_before(statement, "javascript"),
            public=not name.startswith("_"),
            exported=exported,
        )
    )


def assigned_class_name(targets: list[str], value: Any) -> str:
    """A class expression's name: its own (`class Application {…}`), else the last part of the innermost
    target it is assigned to (`internals.Request = class {…}` → "Request"); "" when only the module's
    exports hold it (`module.exports = class {…}`: the module is the class)."""
    own = node_text(value.child_by_field_name("name"))
    if own:
        return own
    target = targets[-1] if targets else ""
    last = target.rpartition(".")[2]
    return last if target not in _EXPORT_HEADS and (last.isidentifier() or last.startswith("$")) else ""


def _assigned_symbol(target: str, value: Any, statement: Any) -> Symbol | None:
    """`app.use` → method "app.use" of "app"; `X.prototype.y` → "X.y" of "X"; `exports.y` → exported "y"."""
    parts = [p for p in target.split(".") if p != "prototype"]
    exported = False
    for head in ("module.exports", "exports"):
        if target.startswith(head + ".") or target == head:
            parts, exported = target[len(head) :].lstrip(".").split("."), True
            break
    if target in _EXPORT_HEADS:  # module.exports = function createApplication()
        parts = [node_text(value.child_by_field_name("name"))]
    parts = [p for p in parts if p and p != "prototype"]
    if not parts or not all(p.isidentifier() or p.startswith("$") for p in parts):
        return None
    name = ".".join(parts)
    parent = ".".join(parts[:-1])
    kind = "class" if value.type == "class" else ("method" if parent else "function")
    return Symbol(
        name,
        kind,
        statement.start_point[0] + 1,
        statement.end_point[0] + 1,
        doc_before(statement, "javascript"),
        public=not parts[-1].startswith("_"),
        parent=parent,
        exported=exported,
    )


def js_members_value(statement: Any) -> tuple[str, Any] | None:
    """The class or object literal a top-level statement defines, with the name its members hang off:
    `module.exports = class Application {…}` → ("Application", class), `const proto = module.exports = {…}`
    → ("proto", object), `module.exports = {…}` → ("", object): an anonymous module object's members
    are the module's own names."""
    if statement.type == "expression_statement":
        node = statement.named_children[0] if statement.named_children else None
        name = ""
    elif statement.type in {"lexical_declaration", "variable_declaration"}:
        declarators = [d for d in statement.named_children if d.type == "variable_declarator"]
        if len(declarators) != 1:
            return None
        node = declarators[0].child_by_field_name("value")
        name = node_text(declarators[0].child_by_field_name("name"))
    else:
        return None
    targets = []
    while node is not None and node.type == "assignment_expression":
        targets.append(node_text(node.child_by_field_name("left")))
        node = node.child_by_field_name("right")
    if node is None or node.type not in {"class", "object"}:
        return None
    if node.type == "class":
        name = assigned_class_name(targets, node) or name
    return (name, node) if name or statement.type == "expression_statement" else None


def js_object_pairs(value: Any, prefix: str, out: Extracted) -> None:
    """`key: function () {…}` and `key: (…) => …` members of an object literal, as methods of `prefix`."""
    for pair in value.named_children:
        if pair.type != "pair":
            continue
        function = pair.child_by_field_name("value")
        key = node_text(pair.child_by_field_name("key")).strip("'\"")
        if function is None or function.type not in _FUNCTIONS or not key.isidentifier():
            continue
        out.symbols.append(
            Symbol(
                prefix + key,
                "method" if prefix else "function",
                pair.start_point[0] + 1,
                pair.end_point[0] + 1,
                doc_before(pair, "javascript"),
                public=not key.startswith("_"),
                parent=prefix[:-1],
            )
        )


_DELEGATE_KINDS = {"method": "method", "access": "property", "getter": "property", "setter": "property"}
_DELEGATE_KINDS["fluent"] = "method"


def js_delegates(statement: Any, out: Extracted) -> None:
    """`delegate(proto, 'response').method('redirect').access('status')` (the `delegates` package): each
    delegated name is a member of `proto`, defined on the line that names it."""
    node = statement.named_children[0] if statement.named_children else None
    found: list[tuple[str, str, int]] = []
    while node is not None and node.type == "call_expression":
        function, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        strings = [c for c in args.named_children if c.type == "string"] if args is not None else []
        if function is not None and function.type == "identifier":
            owner = args.named_children[0] if args is not None and args.named_children else None
            if (
                node_text(function) in {"delegate", "delegates"}
                and owner is not None
                and owner.type == "identifier"
            ):
                parent = node_text(owner)
                target = strings[0] if strings else None
                to = f"{node_text(target).strip(chr(39) + chr(34) + '`')}." if target is not None else ""
                for role, member, line in reversed(found):
                    doc = f"Delegates to `{to}{member}`." if to.removesuffix(".").isidentifier() else ""
                    out.symbols.append(
                        Symbol(f"{parent}.{member}", role, line, line, doc, public=True, parent=parent)
                    )
            return
        if function is None or function.type != "member_expression" or len(strings) != 1:
            return
        kind = _DELEGATE_KINDS.get(node_text(function.child_by_field_name("property")))
        name = node_text(strings[0]).strip("'\"`")
        if kind is None or not name.isidentifier():
            return
        found.append((kind, name, strings[0].start_point[0] + 1))
        node = function.child_by_field_name("object")


def js_export_names(statement: Any, out: Extracted) -> None:
    """The names an ES module exports by name: `export default Axios;`, `export { a, b as c };` (the local
    names; a re-export `export { a } from './x'` defines nothing here)."""
    if statement.child_by_field_name("source") is not None:
        return
    for child in statement.named_children:
        if child.type == "identifier":
            out.exports.append(node_text(child))
        elif child.type == "export_clause":
            for specifier in child.named_children:
                name = specifier.child_by_field_name("name") if specifier.type == "export_specifier" else None
                if name is not None:
                    out.exports.append(node_text(name))
