"""A docs concept's code: what its pages name, then the key code of the package named like it (each once)."""

from __future__ import annotations

from generator.repo.analyze.citations import Linker
from generator.repo.docs.concept import doc_concept
from generator.repo.docs.model import DocPage
from generator.repo.docs.symbolnames import SymbolNames
from generator.repo.model import DocPassage, Facts, FileFacts, Symbol


def _names() -> SymbolNames:
    query = [
        Symbol("Builder", "class", 1, 40, "Builder assembles a query."),
        Symbol("Builder.where", "method", 10, 20, "Adds a condition.", parent="Builder"),
        Symbol("compile_query", "function", 42, 80, "Compiles a query to SQL."),
    ]
    session = [Symbol("Session", "class", 1, 30, "A unit of work.")]
    files = {
        "lib/query/builder.py": FileFacts("lib/query/builder.py", "python", query),
        "lib/session.py": FileFacts("lib/session.py", "python", session),
    }
    return SymbolNames(Facts(files=files), Linker({}, "r" * 40, "https://github.com/acme/orm"))


def _pages() -> list[DocPage]:
    passage = DocPassage("docs/query/index.md", 3, 3, "paragraph", "Open a `Session`, then chain `Builder`.")
    return [DocPage("docs/query/index.md", "Queries", (passage,))]


def test_resolving_names_leaves_the_package_code_to_its_own_list() -> None:
    names = _names()
    assert [s.name for s in names.resolve(["Session", "Builder"])] == ["Session", "Builder"]
    assert [s.name for s in names.package_code("query")] == ["Builder", "compile_query"]


def test_a_concept_names_what_its_pages_name_then_its_package_code_each_once() -> None:
    concept = doc_concept("Queries", _pages(), _names(), "query")
    assert [s.name for s in concept.named] == ["Session", "Builder"]
    assert [s.name for s in concept.package_code] == ["compile_query"]
    assert [s.name for s in concept.symbols] == ["Session", "Builder", "compile_query"]


def test_a_concept_without_a_package_names_only_what_its_pages_name() -> None:
    concept = doc_concept("Queries", _pages(), _names(), "")
    assert [s.name for s in concept.named] == ["Session", "Builder"]
    assert concept.package_code == ()
