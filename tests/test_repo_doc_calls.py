"""Names in the docs' code resolved to the symbol of the package the code calls."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.analyze.citations import Linker
from generator.repo.docs.exampleobjects import example_methods
from generator.repo.docs.model import ProjectDocs
from generator.repo.docs.project import read_project_docs
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.receivers import Receivers
from generator.repo.map.walk import map_repository

# fx's shape: the root package's App has a `Run` method, the event package a `Run` struct of the same name
_APP_WITH_RUN_EVENT = {
    "app.go": (
        "package app\n\n// App is an application.\ntype App struct {\n\tn int\n}\n\n"
        "// New makes an App.\nfunc New(opts ...func()) *App {\n\treturn &App{}\n}\n\n"
        "// Provide provides a constructor.\nfunc Provide(f func()) func() {\n\treturn f\n}\n\n"
        "// Run runs the App.\nfunc (a *App) Run() {\n\ta.n++\n}\n"
    ),
    "event/event.go": "package event\n\n// Run is emitted after a run.\ntype Run struct {\n\tName string\n}\n",
}


def _project_docs(tmp_path: Path, files: dict[str, str]) -> ProjectDocs:
    """What the docs of a repository written from `files` say, read as a repo run reads them."""
    root = write_tree(tmp_path / "repo", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/app")
    return read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)


def test_a_method_called_on_what_the_projects_function_returns_is_that_method(tmp_path: Path) -> None:
    # fx's shape: `fx.New(…).Run()` runs the App's `Run`; the event package's `Run` struct shares the name
    files = {
        "go.mod": "module example.com/app\n\ngo 1.21\n",
        "README.md": (
            "# app\n\nApp runs applications.\n\n## Usage\n\n"
            "```go\napp.New(\n\tapp.Provide(NewServer),\n).Run()\n```\n"
        ),
        **_APP_WITH_RUN_EVENT,
    }
    docs = _project_docs(tmp_path, files)
    called = {(s.name, s.path) for s in docs.example_symbols}
    assert ("App.Run", "app.go") in called
    assert ("Run", "event/event.go") not in called


def test_a_go_pages_prose_name_of_a_package_its_code_never_calls_through_is_not_that_packages(
    tmp_path: Path,
) -> None:
    # fx's Value Groups: the code calls `app.…` only, the prose says "function `Run`" (the user's own);
    # the event package's `Run` struct is not what the page means, the root's `Invoke` is
    files = {
        "go.mod": "module example.com/app\n\ngo 1.21\n",
        "README.md": "# app\n\nApp runs applications.\n",
        "docs/groups.md": (
            "# Value groups\n\nA value group is consumed by function `Run`, invoked with `Invoke`.\n\n"
            "```go\napp.Invoke(Run)\n```\n"
        ),
        "app.go": (
            "package app\n\n// Invoke registers a function to run.\nfunc Invoke(f any) int {\n\treturn 1\n}\n"
        ),
        "event/event.go": "package event\n\n// Run is emitted after a run.\ntype Run struct {\n\tName string\n}\n",
    }
    docs = _project_docs(tmp_path, files)
    named = {(s.name, s.path) for concept in docs.concepts for s in concept.symbols}
    assert ("Invoke", "app.go") in named
    assert ("Run", "event/event.go") not in named


def test_a_method_called_on_a_variable_given_what_the_projects_function_returns_is_that_method(
    tmp_path: Path,
) -> None:
    """`a := app.New(…)` then `a.Run()` (fx's tests and docs), `cowsay = griffe.load("cowsay")` then
    `cowsay.as_json()`: the App's `Run`, as `app.New(…).Run()` is — it had been resolved by its bare name, to
    the event package's `Run` struct."""
    files = {
        "go.mod": "module example.com/app\n\ngo 1.21\n",
        "README.md": (
            "# app\n\nApp runs applications.\n\n## Usage\n\n"
            "```go\na := app.New(\n\tapp.Provide(NewServer),\n)\na.Run()\n```\n"
        ),
        **_APP_WITH_RUN_EVENT,
    }
    docs = _project_docs(tmp_path, files)
    called = {(s.name, s.path) for s in docs.example_symbols}
    assert ("App.Run", "app.go") in called
    assert ("Run", "event/event.go") not in called


def test_a_method_called_on_a_variable_is_the_method_of_the_type_the_function_it_holds_returns(
    tmp_path: Path,
) -> None:
    """expr's Visitor page: `program, err := expr.Compile(…)` then `node := program.Node()`. Two types have
    a `Node` method; `program` holds what `Compile` returns, a `*vm.Program`, so it is `Program.Node`, and
    `node` the `ast.Node` it gives back — the page had linked neither."""
    files = {
        "go.mod": "module example.com/expr\n\ngo 1.21\n",
        "README.md": "# expr\n\nExpr evaluates expressions.\n",
        "docs/visitor.md": (
            "# Visitor\n\nA visitor walks the tree of a compiled program.\n\n"
            "```go\nprogram, err := expr.Compile(`foo + bar`)\nif err != nil {\n\tpanic(err)\n}\n\n"
            "node := program.Node()\n\nv := &Visitor{}\nast.Walk(&node, v)\n```\n"
        ),
        "expr.go": (
            'package expr\n\nimport "example.com/expr/vm"\n\n'
            "// Compile compiles an expression.\nfunc Compile(input string) (*vm.Program, error) {\n"
            "\treturn &vm.Program{}, nil\n}\n"
        ),
        "vm/program.go": (
            'package vm\n\nimport "example.com/expr/ast"\n\n// Program is compiled bytecode.\n'
            "type Program struct {\n\tnode ast.Node\n}\n\n"
            "// Node returns the program's tree.\nfunc (program *Program) Node() ast.Node {\n"
            "\treturn program.node\n}\n"
        ),
        "ast/node.go": (
            "package ast\n\n// Node is a node of the tree.\ntype Node interface {\n\tType() string\n}\n\n"
            "// Walk visits every node.\nfunc Walk(node *Node, v Visitor) {\n\tv.Visit(node)\n}\n\n"
            "// Visitor visits nodes.\ntype Visitor interface {\n\tVisit(node *Node)\n}\n"
        ),
        "parser/tree.go": (
            'package parser\n\nimport "example.com/expr/ast"\n\n// Tree is a parsed expression.\n'
            "type Tree struct {\n\troot ast.Node\n}\n\n"
            "// Node returns the root.\nfunc (t *Tree) Node() ast.Node {\n\treturn t.root\n}\n"
        ),
    }
    root = write_tree(tmp_path / "repo", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/expr")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    (visitor,) = [c for c in docs.concepts if c.name == "Visitor"]
    named = {(s.name, s.path) for s in visitor.symbols}
    assert ("Program.Node", "vm/program.go") in named
    assert ("Node", "ast/node.go") in named
    assert ("Tree.Node", "parser/tree.go") not in named


# beanie's shape: the example defines its own document on the project's Document, whose methods come partly
# from a base in another module; `insert` and `set` are also a query's methods
_ODM = {
    "pyproject.toml": '[project]\nname = "odm"\n',
    "odm/__init__.py": "from odm.documents import Document\n\n__all__ = ['Document']\n",
    "odm/find.py": (
        "class FindInterface:\n"
        "    @classmethod\n    def find_one(cls, *args):\n"
        '        """Find one document by criteria."""\n        return cls._query(args)\n'
    ),
    "odm/documents.py": (
        "from pydantic import BaseModel\n\nfrom odm.find import FindInterface\n\n\n"
        "class Document(FindInterface, BaseModel):\n"
        '    """A document mapping class."""\n\n'
        "    async def insert(self):\n"
        '        """Insert the document."""\n        return self\n\n'
        "    async def set(self, values):\n"
        '        """Set values."""\n        return self\n'
    ),
    "odm/queries.py": (
        "class UpdateQuery:\n"
        "    def set(self, values):\n        return self\n\n"
        "    def insert(self, values):\n        return self\n\n\n"
        "class BaseModel:\n    def describe(self):\n        return 'a query model'\n"
    ),
    "README.md": (
        "# odm\n\nAn object-document mapper.\n\n## Example\n\n```python\nfrom pydantic import BaseModel\n"
        "from odm import Document\n\n\n"
        "class Product(Document):\n    name: str\n\n\n"
        "async def example():\n"
        '    bar = Product(name="bar")\n    await bar.insert()\n'
        "    product = await Product.find_one(Product.name == 'bar')\n"
        '    await product.set({Product.name: "Gold bar"})\n```\n'
    ),
}


def test_methods_an_example_calls_on_its_own_document_class_are_the_project_bases(tmp_path: Path) -> None:
    """beanie's README: `class Product(Document)`, `bar = Product(…)`, `bar.insert()`, `Product.find_one(…)`,
    `product = await Product.find_one(…)` then `product.set(…)` are Document's `insert` and `set` and the
    `find_one` it inherits from FindInterface; none had been linked (`insert` and `set` are also a query's,
    `Product.find_one` names no class of the project)."""
    docs = _project_docs(tmp_path, _ODM)
    called = [(s.name, s.path) for s in docs.example_symbols]
    assert ("Document.insert", "odm/documents.py") in called
    assert ("FindInterface.find_one", "odm/find.py") in called
    assert ("Document.set", "odm/documents.py") in called
    assert not any(path == "odm/queries.py" for _, path in called)


def test_an_example_class_on_a_base_imported_from_another_package_is_none_of_the_projects(
    tmp_path: Path,
) -> None:
    """`class Category(BaseModel)` with `from pydantic import BaseModel` (a package the project imports)
    stands on pydantic's model, though the project has a `BaseModel` of its own."""
    root = write_tree(tmp_path / "repo", _ODM)
    receivers = Receivers(extract_facts(root, map_repository(root)).files)
    code = (
        "from pydantic import BaseModel\n\n\nclass Category(BaseModel):\n    name: str\n\n\n"
        'sweets = Category(name="sweets")\nsweets.describe()\n'
    )
    assert example_methods(code, receivers) == [("describe", "BaseModel.describe")]
    assert example_methods(code, receivers, {"pydantic"}) == []


def test_two_functions_of_one_name_an_example_calls_through_their_packages_are_both_linked(
    tmp_path: Path,
) -> None:
    """huma's getting started calls `humacli.New(…)` and `humachi.New(…)`: each package's `New`, where
    only the last had been kept (both are named `New`)."""
    files = {
        "go.mod": "module example.com/huma\n\ngo 1.21\n",
        "README.md": (
            "# huma\n\nAPIs.\n\n## Example\n\n```go\ncli := humacli.New(func() {\n"
            "\tapi := humachi.New(router)\n\t_ = api\n})\ncli.Run()\n```\n"
        ),
        "humacli/humacli.go": "package humacli\n\n// New creates a CLI.\nfunc New(f func()) int {\n\treturn 1\n}\n",
        "adapters/humachi/humachi.go": (
            "package humachi\n\n// New creates an API on a router.\nfunc New(r any) int {\n\treturn 2\n}\n"
        ),
    }
    docs = _project_docs(tmp_path, files)
    called = {(s.name, s.path) for s in docs.example_symbols}
    assert {("New", "humacli/humacli.go"), ("New", "adapters/humachi/humachi.go")} <= called
