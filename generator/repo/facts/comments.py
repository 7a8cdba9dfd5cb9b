"""Doc comments for the tree-sitter facts: the comment block attached to a definition, and a file's own
leading comment (license headers skipped), cleaned of comment markers and doc markup."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from generator.documents import comment_text
from generator.repo.facts.prose import doc_head, summary


def node_text(node: Any) -> str:
    """A tree-sitter node's source text ("" for no node)."""
    return node.text.decode("utf-8", errors="replace") if node is not None else ""


def descendants(node: Any, *kinds: str) -> Iterator[Any]:
    """The nodes of one of the types `kinds` in a tree-sitter tree, `node` itself included, in source
    order: the named nodes below `node`, reached through named nodes only (its named children, theirs and
    so on). One tree cursor walks them: no node's list of children is built."""
    if node is None:
        return
    cursor = node.walk()  # rooted at `node`: it never moves to `node`'s siblings or parent
    here = node
    while True:
        if here.type in kinds:
            yield here
        if cursor.goto_first_child():
            if _to_named(cursor):
                here = cursor.node
                continue
            cursor.goto_parent()
        # `here`'s subtree is walked: the next named node is a later sibling of it or of an ancestor
        while not (cursor.goto_next_sibling() and _to_named(cursor)):
            if not cursor.goto_parent():
                return
        here = cursor.node


def _to_named(cursor: Any) -> bool:
    """Move the cursor to the first named node among its node and the later siblings (False: none)."""
    while not cursor.node.is_named:
        if not cursor.goto_next_sibling():
            return False
    return True


_DOC_ANCHORS = {"export_statement", "type_declaration", "template_declaration"}
_SWALLOWING = {"import_list", "import_header", "package_header"}
# a Rust item's attributes (`#[derive(Clone)]`, `#[cfg(feature = "tls")]`) stand between its doc and itself
_ATTRIBUTES = {"attribute_item"}
# a TypeScript overload's signature, which stands between a function's doc comment and its implementation
_OVERLOAD_SIGNATURES = {"function_signature", "method_signature"}
# a bundler's annotation between a doc comment and its definition: `/*#__PURE__*/`, `/* @__NO_SIDE_EFFECTS__ */`
_ANNOTATION = re.compile(r"/\*\s*[#@]__[A-Z_]+__\s*\*/")


def doc_before(node: Any, language: str) -> str:
    if node is None:
        return ""
    named = node.child_by_field_name("name")  # a TypeScript function's, whose overloads may stand above it
    if node.parent is not None and node.parent.type in _DOC_ANCHORS and not _grouped(node.parent):
        node = node.parent  # the comment sits before `export …` / `type …` / `template<…>`
    comments: list[str] = []
    sibling = node.prev_named_sibling
    if sibling is None and node.parent is not None and node.parent.type == "body_statement":
        sibling = node.parent.prev_named_sibling  # Ruby keeps a leading comment outside the body node
    while sibling is not None and sibling.type in _SWALLOWING and sibling.named_children:
        sibling = sibling.named_children[-1]  # Kotlin's imports hold the comment that follows them
    expected_end = node.start_point[0] - 1
    while sibling is not None and sibling.type in _ATTRIBUTES and _last_row(sibling) == expected_end:
        expected_end = sibling.start_point[0] - 1  # `/// A progress bar` stands above `#[derive(Clone)]`
        sibling = sibling.prev_named_sibling
    while named is not None and _overloads(sibling, node_text(named)) and _last_row(sibling) == expected_end:
        expected_end = sibling.start_point[0] - 1  # superstruct's `object` is documented above its overloads
        sibling = sibling.prev_named_sibling
    while (
        sibling is not None
        and "comment" in sibling.type
        and _attached(sibling, expected_end, comments)
        and not _trailing(sibling)
    ):
        text = node_text(sibling)
        if text.startswith(("//!", "/*!")):
            break  # a Rust inner doc comment belongs to the enclosing module, not to this item
        if not _ANNOTATION.fullmatch(text.strip()):  # immer's `/*#__PURE__*/` speaks to a bundler
            # a Rust line comment holds its newline: no blank line between
            comments.append(text.rstrip("\r\n"))
        expected_end = sibling.start_point[0] - 1
        sibling = sibling.prev_named_sibling
    return doc_head(comment_text("\n".join(reversed(comments))))


def _grouped(declaration: Any) -> bool:
    """A Go `type ( … )` group, whose types each have their own comment inside it."""
    return declaration.type == "type_declaration" and any(c.type == "(" for c in declaration.children)


def _overloads(sibling: Any, name: str) -> bool:
    """Whether `sibling` is a TypeScript overload signature of `name` (`export function object(): …`)."""
    if sibling is not None and sibling.type == "export_statement":
        sibling = sibling.child_by_field_name("declaration")
    if sibling is None or sibling.type not in _OVERLOAD_SIGNATURES:
        return False
    named = sibling.child_by_field_name("name")
    return named is not None and node_text(named) == name


def _attached(comment: Any, expected_end: int, above: list[str]) -> bool:
    """Right above the definition; a `/** … */` block may stand one blank line above it (JSDoc style)."""
    end = _last_row(comment)
    return end == expected_end or (
        not above and end == expected_end - 1 and node_text(comment).startswith("/**")
    )


def _trailing(comment: Any) -> bool:
    """A comment ending a line of code (`virtual ~A(); // = default;`, `limit = 3 // retries`) is about that
    code, not a doc comment of the definition below it."""
    before = comment.prev_sibling
    return (
        before is not None and before.end_point[0] == comment.start_point[0] and "comment" not in before.type
    )


def _last_row(node: Any) -> int:
    # line comments may end at column 0 of the next row (they include their newline)
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


_PREAMBLE = {
    "package_clause",
    "package_declaration",
    "package_header",
    "import_list",
    "preproc_include",
    "use_declaration",
    "import_declaration",
    "import_statement",
}


_IMPORTS = _PREAMBLE - {"package_clause", "package_declaration"}


def leading_doc(root: Any, language: str) -> str:
    """The file's leading comment block (license headers skipped; a comment attached to the first
    definition is that definition's doc, not the file's). Go: the package comment."""
    blocks: list[list[str]] = []
    last_row = -2
    imported = False  # a comment among the imports is a note on the one below it, not the file's doc
    for child in root.children:
        if "comment" in child.type and imported:
            continue
        if "comment" in child.type:
            # a `/** … */` doc comment starts a block of its own, even right under a licence header
            if child.start_point[0] != last_row + 1 or not blocks or node_text(child).startswith("/**"):
                blocks.append([])
            blocks[-1].append(node_text(child))
            last_row = _last_row(child)
            continue
        adjacent = bool(blocks) and last_row == child.start_point[0] - 1
        if language == "go" and child.type == "package_clause" and adjacent:
            blocks = blocks[-1:]  # Go convention: the comment right above `package` documents it
            break
        if child.type not in _PREAMBLE:
            if adjacent and not _is_inner_doc(blocks[-1]):
                blocks.pop()
            break
        imported = imported or child.type in _IMPORTS
    for block in blocks:
        text = summary(comment_text("\n".join(block)))  # licence headers and build tags give ""
        if text:
            return text
    return ""


def _is_inner_doc(block: list[str]) -> bool:
    return bool(block) and block[0].startswith(("//!", "/*!"))
