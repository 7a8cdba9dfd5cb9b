"""Per-language extraction of symbols, raw imports, module doc and `main` for the facts stage.

Python is read without a syntax tree (pyscan.py, pysymbols.py; `ast` where the layout needs it); JS/TS,
Go, Rust, Java and C/C++ through tree-sitter (bundled grammars from tree-sitter-language-pack). The tree
walk only descends into containers (classes, impls, namespaces, export statements), never into function
bodies, which keeps it fast on large files.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

from generator.repo.facts.buildtags import needs_tag
from generator.repo.facts.comments import descendants, doc_before, leading_doc, node_text
from generator.repo.facts.extracted import Extracted
from generator.repo.facts.goresults import go_results
from generator.repo.facts.jsassign import (
    js_assignment,
    js_delegates,
    js_export_names,
    js_exported_object,
    js_made_by,
    js_members_value,
    js_object_pairs,
)
from generator.repo.facts.native import NATIVE, declared_fields, grammar, owner_name, parse_text
from generator.repo.facts.pyscan import scan_python
from generator.repo.facts.pysymbols import python_symbols, read_python
from generator.repo.map.filetypes import is_context_file
from generator.repo.model import Symbol

Reader = Callable[[str, str], Extracted]
"""Reads one file's text in its language for the first pass."""


def extract(language: str, text: str) -> Extracted:
    """Everything the facts stage needs from one file; raises SyntaxError/ValueError on unparsable input."""
    if language == "python":
        return read_python(text)
    if language in TREE_SITTER_LANGUAGES:
        return _extract_tree_sitter(language, text)
    return Extracted()


def survey(language: str, text: str) -> Extracted:
    """`extract` for a source module, except that a Python file whose symbols cannot be read keeps its
    imports and doc (the scan needs no syntax tree) with no symbols."""
    if language != "python":
        return extract(language, text)
    try:
        return read_python(text)
    except (SyntaxError, ValueError):
        out = scan_python(text)
        out.symbols = []
        return out


def symbols_of(language: str, text: str) -> list[Symbol]:
    """Only the symbols of one file: what `outline` leaves out for the languages read on demand."""
    if language == "python":
        return python_symbols(text)
    return extract(language, text).symbols


def outline(language: str, text: str) -> Extracted:
    """The first pass over every file: imports, doc and main, plus symbols unless read on demand."""
    if language == "python":
        return scan_python(text)
    return extract(language, text)


def symbols_on_demand(language: str, path: str) -> bool:
    """Whether the first pass leaves a file's symbols to be read on demand, for the few files a shard or a
    prompt shows: Python's context files (building its syntax tree costs several times more than finding
    its imports) and Go's tests (`_test.go`, which `go build` leaves out: most of a Go project's text)."""
    if language == "python":
        return is_context_file(path)
    return language == "go" and path.endswith("_test.go")


def first_pass(language: str, path: str) -> Reader:
    """How the first pass reads a file: a source module whole (`survey`), a context file's outline, a Go
    test's head alone."""
    if not is_context_file(path):
        return survey
    if language == "go" and symbols_on_demand(language, path):
        return go_head
    return outline


# a Go file's first declaration other than its imports, with the `//` comment lines right above it (its
# doc): the spec puts every import before it, so the text above is the file's head
_GO_DECLARATION = re.compile(r"^(?:[ \t]*//[^\n]*\n)*(?:func|type|var|const)\b", re.MULTILINE)


def go_head(language: str, text: str) -> Extracted:
    """A Go file's package, doc and imports, read from the head of its text alone, without symbols, results
    or `main` (the head declares none). The whole text is read when the cut leaves an error (it fell in a
    `/* … */` comment) or a comment last (one that could be the next declaration's doc)."""
    out = _outlined(go_head_tree(language, text).root_node, language)
    return Extracted(imports=out.imports, doc=out.doc, package=out.package)


def go_head_tree(language: str, text: str) -> Any:
    """The syntax tree of a Go file's head: its text above the first declaration (Go's package clause and
    imports come first), the whole text when the cut leaves an error or a comment last."""
    found = _GO_DECLARATION.search(text)
    tree = parse_tree(language, text[: found.start()] if found else text)
    if found is not None and (tree.root_node.has_error or _ends_in_comment(tree.root_node)):
        tree = parse_tree(language, text)
    return tree


def _ends_in_comment(root: Any) -> bool:
    return root.child_count > 0 and "comment" in root.children[-1].type


# --- tree-sitter --------------------------------------------------------------------------------------


@cache
def parser_for(language: str) -> Any:
    from tree_sitter_language_pack import get_parser

    return get_parser(language)  # type: ignore[arg-type]


def parse_tree(language: str, text: str) -> Any:
    """The syntax tree of `text`, read with the grammar its content needs (native.grammar). A TypeScript file
    the grammar cannot read is read again with its call signatures separated (`separated_signatures`), and
    that reading kept when it has fewer errors."""
    language = grammar(language, text)
    tree = parser_for(language).parse(parse_text(language, text).encode("utf-8", errors="replace"))
    if language != "typescript" or not tree.root_node.has_error:
        return tree
    separated = separated_signatures(text)
    if separated == text:
        return tree
    again = parser_for(language).parse(separated.encode("utf-8", errors="replace"))
    return again if _errors(again.root_node) < _errors(tree.root_node) else tree


# a line opening a generic call signature, `  <T extends U>(…): R`, after a line ending a type or a name: the
# previous member ended there without a semicolon, which TypeScript allows and tree-sitter's grammar does not
# (it reads `Name\n<T …>` as one generic type, and everything after is an error)
_BARE_SIGNATURE = re.compile(
    r"(?<=[\w$)\]>])([ \t]*\n(?:[ \t]*(?://[^\n]*|/\*(?:[^*]|\*(?!/))*\*/)?[ \t]*\n)*)[ \t](?=[ \t]*<\s*[A-Za-z_$])"
)


def separated_signatures(text: str) -> str:
    """`text` with a semicolon in the indentation of each call signature that follows a member ending without
    one (reselect's and immer's overloaded call signatures): same length, every line and column where it was."""
    return _BARE_SIGNATURE.sub(lambda m: m.group(1) + ";", text)


def _errors(node: Any) -> int:
    """How many error and missing nodes a syntax tree holds (walked only for a file that has some)."""
    count, stack = 0, [node]
    while stack:
        node = stack.pop()
        if node.has_error or node.is_missing:
            count += node.type == "ERROR" or node.is_missing
            stack.extend(node.children)
    return count


# fmt: off
# definition node type → symbol kind, per grammar family
_JS_DEFS = {
    "function_declaration": "function", "generator_function_declaration": "function", "class_declaration": "class",
    "abstract_class_declaration": "class", "method_definition": "method", "interface_declaration": "interface",
    "type_alias_declaration": "type", "enum_declaration": "enum",
}
_C_DEFS = {"function_definition": "function", "struct_specifier": "struct", "union_specifier": "union",
           "enum_specifier": "enum"}
_DEFS: dict[str, dict[str, str]] = {
    "javascript": _JS_DEFS, "typescript": _JS_DEFS, "tsx": _JS_DEFS,
    "go": {"function_declaration": "function", "method_declaration": "method", "type_alias": "type"},
    "rust": {"function_item": "function", "struct_item": "struct", "enum_item": "enum", "trait_item": "trait",
             "mod_item": "module", "macro_definition": "macro", "impl_item": "impl", "union_item": "union",
             "type_item": "type"},
    "java": {"class_declaration": "class", "interface_declaration": "interface", "enum_declaration": "enum",
             "record_declaration": "record", "method_declaration": "method", "constructor_declaration": "method",
             "annotation_type_declaration": "interface"},
    "c": _C_DEFS,
    "cpp": {**_C_DEFS, "class_specifier": "class", "namespace_definition": "namespace"},
    "csharp": {"class_declaration": "class", "interface_declaration": "interface", "struct_declaration": "struct",
               "enum_declaration": "enum", "record_declaration": "record", "method_declaration": "method",
               "constructor_declaration": "method", "namespace_declaration": "namespace"},
    "php": {"class_declaration": "class", "interface_declaration": "interface", "trait_declaration": "trait",
            "enum_declaration": "enum", "function_definition": "function", "method_declaration": "method"},
    "ruby": {"class": "class", "module": "module", "method": "function", "singleton_method": "function"},
    # Kotlin's grammar names no fields: a definition's name is its first identifier (_symbol_name)
    "kotlin": {"class_declaration": "class", "object_declaration": "class", "function_declaration": "function",
               "type_alias": "type"},
}
# nodes whose children may hold more definitions
_CONTAINERS = {
    "export_statement", "class_body", "declaration_list", "field_declaration_list", "interface_body", "enum_body",
    "template_declaration", "linkage_specification", "impl_item", "preproc_ifdef", "preproc_if", "preproc_else",
    "type_declaration", "ambient_declaration", "internal_module", "statement_block", "object_type",
    "body_statement", "enum_class_body", "companion_object", "import_list",
}
_CLASSLIKE = {
    "class_declaration", "abstract_class_declaration", "interface_declaration", "class_specifier",
    "struct_specifier", "impl_item", "trait_item", "enum_declaration", "record_declaration",
    "namespace_definition", "mod_item", "internal_module", "struct_declaration", "namespace_declaration",
    "trait_declaration", "class", "module", "object_declaration",
}
_IMPORT_NODES = {"import_statement", "import_declaration", "use_declaration", "preproc_include", "import_spec",
                 "import_spec_list", "package_clause", "package_declaration", "using_directive",
                 "namespace_use_declaration", "import_header", "package_header"}
_JS = {"javascript", "typescript", "tsx"}
_NAMESPACES = {"namespace_definition", "mod_item", "internal_module", "namespace_declaration"}
# fmt: on
TREE_SITTER_LANGUAGES = frozenset(_DEFS)
SUPPORTED = TREE_SITTER_LANGUAGES | {"python"}


def _extract_tree_sitter(language: str, text: str) -> Extracted:
    language = grammar(language, text)
    out = _outlined(parse_tree(language, text).root_node, language)
    out.tagged = language == "go" and needs_tag(text)
    return out


def _outlined(root: Any, language: str) -> Extracted:
    out = Extracted(doc=leading_doc(root, language), results=go_results(root) if language == "go" else {})
    _collect(root, language, "", out, depth=0)
    out.imports = list(dict.fromkeys(out.imports))
    if out.exports:  # CommonJS: what hangs off an exported object is exported too
        exported = set(out.exports)
        out.symbols = [
            replace(s, public=True, exported=True)
            if (s.public and s.parent in exported) or s.name in exported
            else s
            for s in out.symbols
        ]
        out.exports = list(dict.fromkeys(out.exports))
    return out


def _collect(
    node: Any, language: str, prefix: str, out: Extracted, depth: int, in_type: bool = False
) -> None:
    if depth > 12:
        return
    for child in node.named_children:
        kind = child.type
        if kind in _IMPORT_NODES:
            _record_import(child, language, out)
        elif kind in {"lexical_declaration", "variable_declaration"} and language in _JS:
            _js_variable(child, prefix, out)
            if depth == 0:
                js_exported_object(child, out)
                js_made_by(child, out)
                _js_members(child, language, out)
        elif kind == "expression_statement" and language in _JS:
            _js_require(child, out)
            if depth == 0:
                js_assignment(child, out)
                js_delegates(child, out)
                _js_members(child, language, out)
        elif kind == "export_statement" and language in _JS and depth == 0:
            js_export_names(child, out)
            _record_import(child, language, out)  # a re-export (`export * from './x'`) imports its source
        elif kind in {"public_field_definition", "field_definition"} and language in _JS and in_type:
            _js_field(child, prefix, out)
        elif kind == "call" and language == "ruby":
            _ruby_require(child, out)
        elif kind == "field_declaration" and language == "cpp" and in_type:
            _pure_virtual(child, prefix, out)
        if _add_symbol(child, language, prefix, out, depth, in_type):
            continue
        if kind in _CONTAINERS or kind in _CLASSLIKE:
            _collect(child, language, prefix, out, depth + 1, in_type)
        elif kind == "function_definition" and _symbol_name(child) == "namespace":  # a macro before it
            body = child.child_by_field_name("body")
            if body is not None:
                _collect(body, language, prefix, out, depth + 1, in_type)


def _js_members(statement: Any, language: str, out: Extracted) -> None:
    """The members of a class or object literal a module defines by assignment (`module.exports = class
    Application {…}`, koa's `module.exports = { get body() {…} }`): methods, getters and setters, each once
    (a getter's setter shares its name)."""
    found = js_members_value(statement)
    if found is None:
        return
    name, value = found
    prefix = f"{name}." if name else ""
    before = len(out.symbols)
    _collect(
        value.child_by_field_name("body") if value.type == "class" else value, language, prefix, out, 1, True
    )
    if value.type == "object":
        js_object_pairs(value, prefix, out)
    members, seen = [], set()
    for symbol in out.symbols[before:]:
        if symbol.name not in seen:
            seen.add(symbol.name)
            if not name:  # an anonymous module object's methods are the module's functions
                kind = "function" if symbol.kind == "method" else symbol.kind
                symbol = replace(symbol, kind=kind, exported=symbol.public)
            members.append(symbol)
    out.symbols[before:] = members
    if not name:  # `module.exports = {…}`: its members are what the module exports
        out.exports.extend(s.name for s in members if s.public)


def _add_symbol(node: Any, language: str, prefix: str, out: Extracted, depth: int, in_type: bool) -> bool:
    """Record `node` when it defines something; True when it did (its members are collected too)."""
    kind = node.type
    symbol_kind = _DEFS.get(language, {}).get(kind)
    if kind == "type_spec":
        symbol_kind = _go_type_kind(node)
    elif kind == "type_definition" and language in {"c", "cpp"}:
        symbol_kind = "type"
    elif kind == "class_declaration" and language == "kotlin":
        symbol_kind = _kotlin_class_kind(node)
    if not symbol_kind or not _has_body_or_is_decl(node, kind):
        return False
    name = _symbol_name(node)
    if not name or name in _RESERVED:
        return False
    if kind == "mod_item" and node.child_by_field_name("body") is None:
        out.imports.append(f"mod:{name}")
        if _compiled_for_tests(node):
            out.test_modules.append(name)
    qualified = _qualify(node, language, prefix, name)
    anchor = node.parent if node.parent is not None and node.parent.type == "template_declaration" else node
    public = _is_public(node, language, name)
    parent = qualified.rsplit(".", 1)[0] if qualified != name and "." in qualified else prefix[:-1]
    out.symbols.append(
        Symbol(
            qualified,
            _kind(node, symbol_kind, in_type or (language == "cpp" and parent != prefix[:-1])),
            anchor.start_point[0] + 1,
            node.end_point[0] + 1,
            doc_before(node, language),
            public,
            parent=parent,
            bases=_bases(node),
            exported=public and (language not in _JS or _is_exported_js(node)),
            # `mod route;` only points at route.rs: a declaration, never what a name in the docs or a call in an
            # example means (axum's `.route(…)`), nor a key symbol of lib.rs
            stub=kind == "mod_item" and node.child_by_field_name("body") is None,
        )
    )
    if name in {"main", "Main"} and symbol_kind in {"function", "method"} and not _built_on_request(node):
        out.has_main = True
    if language in NATIVE and symbol_kind in _FIELD_KINDS:
        fields = declared_fields(node, language)
        if fields:
            out.fields[qualified] = fields
    if kind in _CLASSLIKE:
        _collect(node, language, qualified + ".", out, depth + 1, in_type=kind not in _NAMESPACES)
    return True


# a Rust item compiled only for tests: `#[cfg(test)]`, `#[cfg(all(test, …))]`, or a test-only feature
# (ureq's `#[cfg(feature = "_test")] mod test;`)
_TEST_CFG = re.compile(r'^#\[cfg\((?:all\(\s*)?(?:test\b|feature\s*=\s*"_?test)')


def _compiled_for_tests(node: Any) -> bool:
    """Whether a Rust item's attributes right above it compile it for tests only."""
    sibling = node.prev_named_sibling
    while sibling is not None and sibling.type == "attribute_item":
        if _TEST_CFG.match(node_text(sibling)):
            return True
        sibling = sibling.prev_named_sibling
    return False


_CONDITIONALS = frozenset({"preproc_if", "preproc_ifdef"})


def _built_on_request(node: Any) -> bool:
    """A C/C++ definition compiled only when a build defines a macro: inside `#ifdef X` or `#if X` with no
    `#else` (hiredis' `#ifdef SDS_TEST_MAIN int main(void) { return sdsTest(); }`, a self-test driver) —
    not a platform split's branch (`#ifdef WIN32 … #else int main(…)`) nor one a build may switch off
    (`#ifndef NO_MAIN`)."""
    parent = node.parent
    while parent is not None and parent.type != "translation_unit":
        if parent.type in _CONDITIONALS and parent.child_by_field_name("alternative") is None:
            first = parent.children[0].type if parent.children else ""
            return first in {"#ifdef", "#if"}
        if parent.type in {"preproc_else", "preproc_elif", "preproc_elifdef"}:
            return False
        parent = parent.parent
    return False


# a keyword is never a name: a macro before `namespace detail {` (nlohmann/json's
# NLOHMANN_JSON_NAMESPACE_BEGIN) makes tree-sitter read a function called "namespace"
_RESERVED = frozenset(
    "namespace class struct union enum template typename typedef using if else for while do switch case "
    "default return sizeof operator public private protected extern static const".split()
)


_FIELD_KINDS = frozenset({"struct", "enum", "union", "class", "type"})


def _pure_virtual(node: Any, prefix: str, out: Extracted) -> None:
    """A C++ pure virtual method (`virtual void sink_it_(const log_msg &msg) = 0;`): a method with no
    body, which a subclass's override answers (dispatch.py)."""
    declarator = node.child_by_field_name("declarator")
    default = node.child_by_field_name("default_value")
    if declarator is None or declarator.type != "function_declarator" or default is None:
        return
    if node_text(default) != "0" or not prefix:
        return
    name = node_text(declarator.child_by_field_name("declarator"))
    out.symbols.append(
        Symbol(
            prefix + name,
            "method",
            node.start_point[0] + 1,
            node.end_point[0] + 1,
            doc_before(node, "cpp"),
            True,
            parent=prefix[:-1],
            exported=True,
            stub=True,
        )
    )


def _kind(node: Any, symbol_kind: str, in_type: bool) -> str:
    """A function inside a type is a method; a JS `get x()` / `set x(v)` member is a property."""
    if node.type == "method_definition" and any(c.type in {"get", "set"} for c in node.children):
        return "property"
    return "method" if symbol_kind == "function" and in_type else symbol_kind


def _bases(node: Any) -> tuple[str, ...]:
    """What a class extends/implements, as written (JS/TS `extends`, Java/C# superclass and interfaces)."""
    found: list[str] = []
    if node.type == "impl_item" and node.child_by_field_name("trait") is not None:
        return (owner_name(node_text(node.child_by_field_name("trait"))),)
    if node.type == "type_alias" and (target := node.child_by_field_name("type")) is not None:
        # Go's `type In = dig.In`, `type Pair[T any] = Gen[T, T]`: the type it stands for (a `*T`, map or
        # func type names none)
        if target.type == "generic_type":
            target = target.child_by_field_name("type")
        return (node_text(target),) if target.type in _GO_NAMED_TYPES else ()
    for child in node.named_children:
        if child.type == "base_class_clause":  # C++: `: public base_sink<Mutex>, private other`
            found.extend(node_text(c) for c in child.named_children if c.type != "access_specifier")
        elif child.type == "delegation_specifier":  # Kotlin: `: Source, Closeable`, `: Base()`
            found.extend(node_text(c) for c in itertools.islice(descendants(child, "user_type"), 1))
        elif child.type in {
            "class_heritage",
            "superclass",
            "super_interfaces",
            "base_list",
            "extends_clause",
        }:
            names = [c for c in child.named_children if c.type != "type_arguments"] or [child]
            for name in names:
                if name.type in {"extends_clause", "implements_clause", "type_list", "interfaces"}:
                    found.extend(node_text(n) for n in name.named_children if n.type != "type_arguments")
                else:
                    found.append(node_text(name))
    return tuple(dict.fromkeys(b.split("<", 1)[0].strip() for b in found if b.strip()))


_GO_NAMED_TYPES = frozenset({"type_identifier", "qualified_type"})


def _is_exported_js(node: Any) -> bool:
    """An `export`ed declaration, or a member of one."""
    while node is not None:
        if node.type == "export_statement":
            return True
        node = node.parent
    return False


def _kotlin_class_kind(node: Any) -> str:
    """`interface Source`, `enum class Color` and `class Buffer` are all a Kotlin `class_declaration`."""
    words = {c.type for c in node.children if not c.is_named}
    return "interface" if "interface" in words else "enum" if "enum" in words else "class"


def _has_body_or_is_decl(node: Any, kind: str) -> bool:
    # `struct S;` forward declarations and `struct S x;` uses are not definitions
    if kind in {"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"}:
        return node.child_by_field_name("body") is not None
    return True


_UNNAMED_FIELDS = frozenset({"class_declaration", "object_declaration", "function_declaration", "type_alias"})


def _type_parameters(node: Any) -> set[str]:
    """The names of a Rust item's type parameters (`impl<S, T: Iterator<Item = S>>`: S and T)."""
    params = node.child_by_field_name("type_parameters")
    named = [p for p in (params.named_children if params is not None else ()) if p.type == "type_parameter"]
    return {node_text(p.named_children[0]) for p in named if p.named_children}


_REFERENCE = re.compile(r"^&\s*(?:'\w+\s+)?(?:mut\s+)?")


def _symbol_name(node: Any) -> str:
    if node.type == "impl_item":  # methods of `impl Trait for Type<T>` are qualified by the type, `Type`
        implemented = owner_name(node_text(node.child_by_field_name("type")))
        trait = node.child_by_field_name("trait")
        parameters = _type_parameters(node)
        if trait is not None and implemented in parameters:  # `impl<T> Tr for T`: for every type
            return owner_name(node_text(trait))
        # `impl Invoke for &HttpClient`: HttpClient's methods (a reference to any `T` stays as written: a
        # forwarding impl, which a call on the trait must not stop at)
        referenced = _REFERENCE.sub("", implemented)
        return referenced if referenced not in parameters else implemented
    name = node.child_by_field_name("name")
    if name is not None:
        return node_text(name)
    if node.type in _UNNAMED_FIELDS:  # Kotlin: the identifier after the keywords and the receiver type
        found = next(
            (c for c in node.named_children if c.type in {"type_identifier", "simple_identifier"}), None
        )
        return node_text(found)
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in {
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "type_identifier",
        "destructor_name",
        "operator_name",
    }:
        declarator = declarator.child_by_field_name("declarator")
    return node_text(declarator)


def _qualify(node: Any, language: str, prefix: str, name: str) -> str:
    if node.type == "function_definition" and language == "cpp" and "::" in name:
        # a method defined outside its class, `void logger::log_it_(…)`: the class's method `logger.log_it_`
        owner, _, short = name.split()[-1].rpartition("::")
        return f"{prefix}{owner_name(owner)}.{short}" if owner else prefix + short
    if node.type == "method_declaration" and language == "go":
        receiver = node.child_by_field_name("receiver")
        types = list(descendants(receiver, "type_identifier"))
        return f"{node_text(types[0])}.{name}" if types else name
    return prefix + name


def _go_type_kind(node: Any) -> str:
    target = node.child_by_field_name("type")
    return {"struct_type": "struct", "interface_type": "interface"}.get(target.type if target else "", "type")


def _is_public(node: Any, language: str, name: str) -> bool:
    base = name.rsplit(".", 1)[-1].split("::")[-1]
    if node.type in _NAMESPACES:
        return True
    if language == "go":
        return base[:1].isupper()
    if language == "rust":
        return any(c.type == "visibility_modifier" for c in node.children) or node.type == "impl_item"
    if language in {"java", "csharp"}:
        words = " ".join(node_text(c) for c in node.children if c.type in {"modifiers", "modifier"}).split()
        return "public" in words
    if language == "kotlin":  # public unless said otherwise
        modifiers = [c for c in node.children if c.type == "modifiers"]
        hidden = {"private", "internal", "protected"}
        return not any(node_text(v) in hidden for m in modifiers for v in m.named_children)
    if language in {"c", "cpp"}:
        return not any(
            c.type == "storage_class_specifier" and node_text(c) == "static" for c in node.children
        )
    if language in {"php", "ruby"}:
        hidden = {"private", "protected"}
        return not base.startswith("_") and not any(
            c.type == "visibility_modifier" and node_text(c) in hidden for c in node.children
        )
    # javascript/typescript: exported, or a non-private class member
    if node.type == "method_definition":
        return not base.startswith(("#", "_")) and not any(
            c.type == "accessibility_modifier" and node_text(c) != "public" for c in node.children
        )
    parent = node.parent
    return parent is not None and parent.type == "export_statement"


_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "class"})


def _js_variable(node: Any, prefix: str, out: Extracted) -> None:
    for declarator in node.named_children:
        if declarator.type != "variable_declarator":
            continue
        value = _unwrapped(declarator.child_by_field_name("value"))
        if value is None:
            continue
        if value.type in _FUNCTION_VALUES:
            public = node.parent is not None and node.parent.type == "export_statement"
            out.symbols.append(
                Symbol(
                    prefix + node_text(declarator.child_by_field_name("name")),
                    "class" if value.type == "class" else "function",
                    node.start_point[0] + 1,
                    node.end_point[0] + 1,
                    doc_before(node.parent if public else node, "javascript"),
                    public,
                    exported=public,  # `export const create = …`
                )
            )
        else:
            _js_require(value, out)


# what only casts or groups the value it holds: `((createState) => …) as CreateStore`, `fn!`, `<T>fn`
_CASTS = frozenset(
    {
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "type_assertion",
    }
)


def _unwrapped(value: Any) -> Any:
    """A declared value without the casts and parentheses around it (zustand's `export const create =
    ((createState) => …) as Create` is a function), and a function given properties of its own is that
    function (reselect's `export const createStructuredSelector = Object.assign((inputSelectorsObject, …)
    => { … }, { withTypes: … }) as StructuredSelectorCreator`)."""
    while value is not None:
        if value.type in _CASTS and value.named_children:
            value = value.named_children[0]
        elif (assigned := _assigned_to(value)) is not None:
            value = assigned
        else:
            return value
    return value


def _assigned_to(call: Any) -> Any:
    """The function `Object.assign(function, …)` returns with the properties added, else None."""
    if call.type != "call_expression" or node_text(call.child_by_field_name("function")) != "Object.assign":
        return None
    arguments = call.child_by_field_name("arguments")
    target = next((a for a in arguments.named_children if a.type != "comment"), None) if arguments else None
    unwrapped = _unwrapped(target)
    return target if unwrapped is not None and unwrapped.type in _FUNCTION_VALUES else None


def _js_field(node: Any, prefix: str, out: Extracted) -> None:
    """A class field holding a function is a method (`fetch = (request) => this.#dispatch(request)`: what
    a runtime calls on a hono app)."""
    value = node.child_by_field_name("value")
    name = node.child_by_field_name("name") or node.child_by_field_name("property")
    if value is None or name is None or value.type not in {"arrow_function", "function_expression"}:
        return
    text = node_text(name)
    public = not text.startswith(("#", "_")) and not any(
        c.type == "accessibility_modifier" and node_text(c) != "public" for c in node.children
    )
    out.symbols.append(
        Symbol(
            prefix + text,
            "method",
            node.start_point[0] + 1,
            node.end_point[0] + 1,
            doc_before(node, "javascript"),
            public,
            parent=prefix[:-1],
            exported=public and _is_exported_js(node),
        )
    )


def _js_require(node: Any, out: Extracted) -> None:
    text = node.text or b""
    if b"require" not in text and b"import" not in text:
        return  # no call below can be `require(…)` or `import(…)`: the statement's tree is not walked
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            function = current.child_by_field_name("function")
            args = current.child_by_field_name("arguments")
            if function is not None and node_text(function) in {"require", "import"} and args is not None:
                strings = [c for c in args.named_children if c.type == "string"]
                if strings:
                    out.imports.append(node_text(strings[0]).strip("'\"`"))
        if len(stack) < 64:
            stack.extend(current.named_children)


def _ruby_require(node: Any, out: Extracted) -> None:
    method = node_text(node.child_by_field_name("method"))
    arguments = node.child_by_field_name("arguments")
    if method not in {"require", "require_relative"} or arguments is None:
        return
    strings = [c for c in arguments.named_children if c.type == "string"]
    if strings:
        kind = "relative" if method == "require_relative" else "require"
        out.imports.append(f"{kind}:{node_text(strings[0]).strip(chr(34) + chr(39))}")


def _record_import(node: Any, language: str, out: Extracted) -> None:
    kind = node.type
    if kind in {"package_clause", "package_declaration", "package_header"}:
        named = [c for c in node.named_children if c.type != "annotation"]
        out.package = node_text(named[0]) if named else ""
        return
    if language in {"javascript", "typescript", "tsx"}:
        source = node.child_by_field_name("source")
        if source is not None:
            out.imports.append(node_text(source).strip("'\"`"))
    elif language == "go":
        for spec in descendants(node, "import_spec"):
            out.imports.append(node_text(spec.child_by_field_name("path")).strip('"`'))
    elif language == "rust":
        out.imports.append("use:" + re.sub(r"\s+", "", node_text(node.child_by_field_name("argument"))))
    elif language == "java":
        body = node_text(node).removeprefix("import").strip().rstrip(";").strip()
        out.imports.append(body.removeprefix("static").strip())
    elif language == "kotlin":  # `import okio.internal.commonRead as read`: the name imported
        dotted = next((c for c in node.named_children if c.type == "identifier"), None)
        star = node_text(node).rstrip().endswith("*")
        if dotted is not None:
            out.imports.append(node_text(dotted) + (".*" if star else ""))
    elif language in {"csharp", "php"}:
        words = node_text(node).rstrip(";").split()
        out.imports.append(" ".join(w for w in words if w not in {"using", "use", "static", "global"}))
    elif language in {"c", "cpp"}:
        path = node.child_by_field_name("path")
        if path is not None:
            raw = node_text(path)
            out.imports.append(("quote:" if raw.startswith('"') else "angle:") + raw.strip('"<>'))
