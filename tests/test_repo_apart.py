"""Code only the tests use (facts/apart.py) never answers for the project: expr's copies of testify, spew and
difflib in internal/ had been the Functions guide's flow (`fmt.Errorf` → spew's `Errorf`), "What the examples
call" (`fmt.Print` → spew's `Print`), an extension point (testify's `TestingT`), data-model records (spew's
`ConfigState`) and module descriptions (spew's build-tag notice)."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project

from generator.repo.analyze.citations import Linker
from generator.repo.analyze.describe import SERVING_TESTS, module_lines
from generator.repo.docs.symbolnames import SymbolNames
from generator.repo.facts.apart import serving_tests
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.reference.build import library_modules

SPEW = "internal/spew/spew.go"
ASSERT = "internal/testify/assert/assertions.go"
REQUIRE = "internal/testify/require/requirements.go"
DEREF = "internal/deref/deref.go"

EXPR = {
    "go.mod": "module example.com/expr\n\ngo 1.22\n",
    "expr.go": (
        'package expr\n\nimport "example.com/expr/internal/deref"\n\n'
        "// Compile parses and checks the input.\nfunc Compile(input string) (any, error) {\n"
        "\treturn deref.Deref(input), nil\n}\n"
    ),
    DEREF: "// Package deref follows pointers.\npackage deref\n\nfunc Deref(v any) any {\n\treturn v\n}\n",
    SPEW: (
        '// The "disableunsafe" tag is deprecated and thus should not be used.\npackage spew\n\n'
        'import "fmt"\n\n// ConfigState houses the options.\ntype ConfigState struct {\n\tIndent string\n'
        "\tMaxDepth int\n}\n\n// Print is a wrapper for fmt.Print.\nfunc Print(a ...any) (int, error) {\n"
        "\treturn fmt.Print(a...)\n}\n\n// Errorf is a wrapper for fmt.Errorf.\n"
        "func Errorf(format string, a ...any) error {\n\treturn fmt.Errorf(format, a...)\n}\n"
    ),
    ASSERT: (
        'package assert\n\nimport "example.com/expr/internal/spew"\n\n'
        "// Equal asserts that two objects are equal.\nfunc Equal(a, b any) bool {\n"
        "\tspew.Print(a, b)\n\treturn a == b\n}\n"
    ),
    REQUIRE: (
        'package require\n\nimport "example.com/expr/internal/testify/assert"\n\n'
        "// TestingT is an interface wrapper around *testing.T.\ntype TestingT interface {\n"
        "\tErrorf(format string, args ...any)\n\tFailNow()\n}\n\n"
        "// Equal asserts that two objects are equal.\nfunc Equal(t TestingT, a, b any) {\n"
        "\tif !assert.Equal(a, b) {\n\t\tt.FailNow()\n\t}\n}\n"
    ),
    "expr_test.go": (
        'package expr\n\nimport (\n\t"testing"\n\n\t"example.com/expr/internal/testify/require"\n)\n\n'
        'func TestCompile(t *testing.T) {\n\tout, _ := Compile("1")\n\trequire.Equal(t, out, "1")\n}\n'
    ),
}


def test_internal_packages_only_the_tests_reach_answer_for_nothing(tmp_path: Path):
    """testify's require is imported by the tests alone, its assert by require, spew by assert: all three
    serve the tests (the planner had caught only require, whose importers are tests). deref, which the
    project's code imports, is the project's. Then no resolver, reference page or description reads them."""
    from generator.repo.plan.subsystems import test_support  # imported here: pytest would collect it

    root = make_project(tmp_path / "expr", EXPR)
    repo_map = map_repository(root)
    facts = extract_facts(root, repo_map)
    assert serving_tests(facts) == {SPEW, ASSERT, REQUIRE}
    assert serving_tests(facts) is serving_tests(facts)  # found once, kept with the facts every stage asks
    modules = [f.path for f in repo_map.files if f.language == "go" and not f.path.endswith("_test.go")]
    assert test_support(modules, facts) == {SPEW, ASSERT, REQUIRE}

    linker = Linker({f.path: f.lines for f in repo_map.files}, "0" * 40)
    names = SymbolNames(facts, linker)
    assert [s.name for s in names.resolve(["Print", "Errorf", "Compile"], methods=True)] == ["Compile"]
    assert SPEW not in names.folders.get("", [])

    library = library_modules(repo_map, facts)
    assert DEREF in library and "expr.go" in library
    assert not {SPEW, ASSERT, REQUIRE} & set(library)

    lines = {line.path: line.purpose for line in module_lines([DEREF, SPEW], repo_map, facts, linker)}
    assert lines == {DEREF: "Package deref follows pointers.", SPEW: SERVING_TESTS}
