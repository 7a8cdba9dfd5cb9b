"""The result of reading one source file for the facts stage, shared by the Python and tree-sitter readers."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.repo.model import Symbol


@dataclass
class Extracted:
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # raw targets, resolved later by imports.py
    doc: str = ""
    has_main: bool = False  # a main function / `if __name__ == "__main__"` block
    package: str = ""  # Go package name, Java package
    exports: list[str] = field(default_factory=list)  # `__all__`, CommonJS exported objects
    made_by: dict[str, str] = field(default_factory=dict)  # JS `const got = create(defaults)`: got → create
    test_modules: list[str] = field(default_factory=list)  # Rust `#[cfg(test)] mod tests;`: unit tests
    shown_imports: list[str] = field(default_factory=list)  # as a reader writes them, redacted (parsing.py)
    # C, C++ and Rust: each struct's, class's or enum's fields as (name, declared type, line) (native.py)
    fields: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    tagged: bool = False  # Go: built only under a tag the default build never sets (buildtags.py)
    results: dict[str, str] = field(
        default_factory=dict
    )  # Go: each function's first result type (goresults.py)
