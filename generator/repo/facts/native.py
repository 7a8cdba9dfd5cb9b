"""What the facts read of C, C++ and Rust definitions beyond their names: the fields a struct, class or
enum declares (each with its type as written and its line), the type name a declared type stands for
(`Arc<Mutex<State>>` → State, `std::unique_ptr<formatter>` → formatter), and the source as tree-sitter
must see it (an export macro between `class` and its name, `class LEVELDB_EXPORT DB {`, blanked out).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from generator.repo.facts.comments import node_text

# (field name, declared type as written, 1-based line)
Field = tuple[str, str, int]
NATIVE = frozenset({"c", "cpp", "rust"})
# an all-capitals export macro between `class`/`struct` and the name (`class SPDLOG_API logger : …`)
_EXPORT_MACRO = re.compile(
    r"\b((?:class|struct)\s+)([A-Z][A-Z0-9_]{2,})(\s+)(?=[A-Za-z_]\w*\s*(?:final\b\s*)?[:{])"
)
# wrappers whose inner type is what a value of them is used as (a smart pointer, a lock, an option)
_WRAPPERS = frozenset(
    "Arc Rc Box Cell RefCell Mutex RwLock Option Weak Pin Cow ManuallyDrop OnceCell OnceLock "
    "unique_ptr shared_ptr weak_ptr optional reference_wrapper atomic".split()
)
# collections whose element is what iterating them gives
_COLLECTIONS = frozenset("Vec VecDeque vector list deque set unordered_set array span".split())
_RUST_FIELDS = frozenset({"field_declaration_list", "ordered_field_declaration_list"})
_DECLARATORS = frozenset(
    {"pointer_declarator", "reference_declarator", "array_declarator", "init_declarator", "bitfield_clause"}
    | {"function_declarator", "parenthesized_declarator"}  # a function pointer, `void *(*malloc_fn)(size_t)`
)
_MARKS = {
    "pointer_declarator": "*",
    "reference_declarator": "&",
    "array_declarator": "[]",
    "function_declarator": "()",
}


# what only C++ writes: a class, a namespace, a template, an access label, the standard library's namespace
_CPP = re.compile(
    r"^\s*(?:(?:class|namespace)\s+\w+[^;()]*$|template\s*<|(?:public|private|protected)\s*:)|\bstd::",
    re.MULTILINE,
)


def grammar(language: str, text: str) -> str:
    """The grammar a file is read with: a `.h` header (mapped to C) that holds C++ is read as C++ (a C++
    project's headers declare its classes)."""
    if language != "c" or not any(word in text for word in ("class ", "namespace ", "template", "std::")):
        return language
    return "cpp" if _CPP.search(text) else language


def family(language: str) -> str:
    """C and C++ call each other's functions (a `.h` may hold either): one family; other languages their own."""
    return "c" if language in {"c", "cpp"} else language


def parse_text(language: str, text: str) -> str:
    """`text` as tree-sitter must read it: C/C++ export macros between `class` and the name blanked out,
    every line and column where it was."""
    if language != "cpp" and language != "c":
        return text
    if "class " not in text and "struct " not in text:
        return text
    return _EXPORT_MACRO.sub(lambda m: m.group(1) + " " * len(m.group(2)) + m.group(3), text)


def declared_fields(node: Any, language: str) -> list[Field]:
    """The fields a Rust struct or enum, or a C/C++ struct, union, class or typedef'd struct declares: a
    struct's named fields, an enum's variants (typed by their payload, `Get(Get)` → Get)."""
    if language == "rust":
        return _rust_fields(node)
    if node.type == "type_definition":
        node = node.child_by_field_name("type")
        if node is None:
            return []
    body = node.child_by_field_name("body")
    if body is None:
        return []
    if body.type == "enumerator_list":
        return [
            (node_text(e.child_by_field_name("name")), "", e.start_point[0] + 1)
            for e in body.named_children
            if e.type == "enumerator"
        ]
    return [field for child in body.named_children for field in _c_field(child)]


def _rust_fields(node: Any) -> list[Field]:
    body = node.child_by_field_name("body")
    if body is None:
        return []
    if node.type == "enum_item":
        found = []
        for variant in body.named_children:
            if variant.type != "enum_variant":
                continue
            payload = variant.child_by_field_name("body")
            types = [c for c in payload.named_children if c.is_named] if payload is not None else []
            kind = (
                node_text(types[0]) if payload is not None and payload.type in _RUST_FIELDS and types else ""
            )
            if payload is not None and payload.type == "field_declaration_list":
                kind = "{…}"
            found.append((node_text(variant.child_by_field_name("name")), kind, variant.start_point[0] + 1))
        return found
    if body.type not in _RUST_FIELDS:
        return []
    return [
        (
            node_text(f.child_by_field_name("name")),
            _compact(f.child_by_field_name("type")),
            f.start_point[0] + 1,
        )
        for f in body.named_children
        if f.type == "field_declaration" and f.child_by_field_name("name") is not None
    ]


def _c_field(node: Any) -> list[Field]:
    """The fields one C/C++ member declaration names (`int a, *b;`, `void (*free_fn)(void *)`); a method's
    declaration names none: its name is wrapped by the function declarator itself, a function pointer's by a
    pointer."""
    if node.type != "field_declaration":
        return []
    kind = _compact(node.child_by_field_name("type"))
    found = []
    for declarator in node.children_by_field_name("declarator"):
        marks = ""
        while declarator is not None and declarator.type in _DECLARATORS:
            marks += _MARKS.get(declarator.type, "")
            declarator = declarator.child_by_field_name("declarator") or next(
                (c for c in reversed(declarator.named_children) if c.type != "ERROR"), None
            )
        if marks.endswith("()"):
            continue  # a C++ method's declaration (`ParseResult parse(int argc, …);`), not a function pointer
        if declarator is not None and declarator.type == "field_identifier":
            shown = f"{kind} (*)(…)" if "()" in marks else kind + marks
            found.append((node_text(declarator), shown, node.start_point[0] + 1))
    return found


def _compact(node: Any) -> str:
    return " ".join(node_text(node).split()) if node is not None else ""


def type_name(written: str, *, element: bool = False) -> str:
    """The repository type a declared type stands for: wrappers, references, pointers and paths peeled
    (`&'a mut Arc<Mutex<State>>` → State, `const redisReader *` → redisReader); `element`: a
    collection's element (`std::vector<sink_ptr>` → sink_ptr)."""
    text = written
    while True:
        head, _, inner = text.partition("<")
        name = _last_name(head)
        peel = name in _WRAPPERS or (element and name in _COLLECTIONS)
        if not inner or not peel:
            return name
        text = _first_argument(inner.rsplit(">", 1)[0])


def _last_name(text: str) -> str:
    # a trait object's first bound is its trait (`dyn Invoke + Send + Sync + 'a` → Invoke)
    words = re.findall(r"[A-Za-z_]\w*", text.split("+")[0].split("::")[-1].split(".")[-1])
    words = [
        w for w in words if w not in {"const", "mut", "struct", "enum", "union", "dyn", "impl", "volatile"}
    ]
    return words[-1] if words else ""


def _first_argument(text: str) -> str:
    depth = 0
    for i, char in enumerate(text):
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        elif char == "," and depth == 0:
            return text[:i]
    return text


def owner_name(written: str) -> str:
    """A Rust impl's or a C++ out-of-class definition's type as a plain name: `Foo<'a, T>` → Foo,
    `errors::Error` → Error, `base_sink<Mutex>` → base_sink."""
    head = re.sub(r"<.*", "", written.strip(), flags=re.DOTALL).strip()
    return head.rsplit("::", 1)[-1].strip() or written


PUBLIC_HEADERS = "include/"  # where a C or C++ library declares its public API (`include/uv.h`)
_DECLARED = re.compile(r"\b([A-Za-z_]\w*)\s*\(|\b(?:class|struct)\s+(?:[A-Z][A-Z0-9_]{2,}\s+)?([A-Za-z_]\w*)")


def declared_names(headers: Iterable[str]) -> frozenset[str]:
    """The functions, methods and types the texts of public headers declare (`uv_run`, `DB`, `Open`)."""
    return frozenset(
        name for text in headers for match in _DECLARED.finditer(text) for name in match.groups() if name
    )


def in_public_api(path: str, name: str, declared: frozenset[str]) -> bool:
    """Whether a C/C++ definition is part of the API the public headers declare: one in those headers, or
    one whose name (and its class's) they declare — libuv's `uv_run`, not the internal `uv__io_poll` its
    `src/unix/linux.c` defines without `static`."""
    if path.startswith(PUBLIC_HEADERS):
        return True
    owner, _, short = name.rpartition(".")
    return short in declared and (not owner or owner.rpartition(".")[2] in declared)
