"""Go test files (`_test.go`, which `go build` leaves out) in the facts stage: their package, doc and imports
are read from the head of the file, above its first declaration, and their symbols only when something asks
for them; a whole run asks for none."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.repo.facts.extract import OnDemandFileFacts, extract_facts
from generator.repo.facts.languages import extract, first_pass, go_head, outline, survey
from generator.repo.map.walk import map_repository
from generator.repo.run.pipeline import analyze_shards, prepare
from generator.repo.synthesize.synthesis import synthesize
from generator.site.pages.repo import publish_repo

BODY = "".join(
    f"func TestCase{i}(t *testing.T) {{\n\tif {i} < 0 {{\n\t\tt.Fatal()\n\t}}\n}}\n\n" for i in range(5)
)
HEADS = {
    "package doc and an import block": (
        "// Package shop_test checks the shop.\npackage shop_test\n\n"
        'import (\n\t"testing"\n\n\t"example.com/shop"\n)\n\n' + BODY
    ),
    "one import, its declaration's doc right above it": (
        'package shop\n\nimport "testing"\n\n// TestCase0 checks.\n// Twice.\n' + BODY
    ),
    "no import: the comment above the first test is its doc, not the file's": (
        "package shop\n\n// helper notes\n" + BODY
    ),
    "no import: a comment apart from the first test": "package shop\n\n// Notes on the shop.\n\n" + BODY,
    "a licence comment holding a declaration at the start of a line": (
        "/*\nCopyright the authors.\nfunc main() is not code here.\n*/\n\n"
        '// Package shop is a shop.\npackage shop\n\nimport "fmt"\n\n' + BODY
    ),
    "a note after the imports": 'package shop\n\nimport "fmt"\n\n// Notes.\n\nvar _ = fmt.Sprint\n\n' + BODY,
    "build constraints": '//go:build linux\n\npackage shop\n\nimport "os"\n\n' + BODY,
    "nothing but the package": "package shop\n",
}


@pytest.mark.parametrize("name", sorted(HEADS))
def test_a_go_test_s_head_holds_what_the_whole_file_gives(name: str) -> None:
    text = HEADS[name]
    whole, head = extract("go", text), go_head("go", text)
    assert (head.imports, head.doc, head.package) == (whole.imports, whole.doc, whole.package)
    assert head.symbols == [] and head.results == {} and not head.has_main


def test_only_go_tests_are_read_by_their_head() -> None:
    assert first_pass("go", "shop/cart_test.go") is go_head
    assert first_pass("go", "shop/cart.go") is survey
    assert first_pass("go", "examples/hello/main.go") is outline  # an example's `main` is still read
    assert first_pass("python", "tests/test_cart.py") is outline


LINES = "".join(f"\tstep{i} := {i}\n\t_ = step{i}\n" for i in range(40))
SHOP = {
    "go.mod": "module example.com/shop\n\ngo 1.21\n",
    "README.md": "# shop\n\n```go\nshop.New().Run()\n```\n",
    "docs/plugins.md": "# Writing a plugin\n\nWrap a `Shop` and override `Shop.Run` to change how it opens.\n",
    "shop.go": (
        "// Package shop sells things.\npackage shop\n\n// Shop sells.\ntype Shop struct {\n\topen bool\n}\n\n"
        "// New makes a shop.\nfunc New() *Shop {\n\ts := &Shop{}\n\ts.stock()\n\treturn s\n}\n\n"
        f"func (s *Shop) stock() {{\n{LINES}\ts.price()\n}}\n\nfunc (s *Shop) price() {{\n{LINES}}}\n\n"
        "// Run opens the shop.\nfunc (s *Shop) Run() {\n\ts.serve()\n\ts.close()\n}\n\n"
        "func (s *Shop) serve() {\n\ts.open = true\n}\n\nfunc (s *Shop) close() {\n\ts.open = false\n}\n"
    ),
    "shop_test.go": (
        'package shop_test\n\nimport (\n\t"testing"\n\n\t"example.com/shop"\n)\n\n'
        "// Shop stands in for the shop in tests.\ntype Shop struct{}\n\n"
        "func (Shop) Run() {}\n\n"
        "func TestRun(t *testing.T) {\n\tshop.New().Run()\n}\n"
    ),
}


def test_a_go_test_s_symbols_are_read_on_demand(tmp_path: Path) -> None:
    root = make_project(tmp_path / "shop", SHOP)
    facts = extract_facts(root, map_repository(root))
    test = facts.files["shop_test.go"]
    assert isinstance(test, OnDemandFileFacts) and not test.symbols_read
    assert test.depends_on == ["shop.go"]  # its imports were read from its head
    assert not isinstance(facts.files["shop.go"], OnDemandFileFacts)
    assert [s.name for s in test.symbols] == ["Shop", "Shop.Run", "TestRun"]
    assert test.symbols_read


def test_a_run_reads_no_go_test_s_symbols(tmp_path: Path) -> None:
    """The flow's next call (what the examples call on what `New` returns) and the docs' classes look at the
    library's modules alone: the test's own `Shop` neither offers its `Run` nor makes `Shop` ambiguous."""
    root = make_project(tmp_path / "shop", SHOP)
    paths, config, provider = offline_setup(tmp_path / "kb")
    study = prepare(paths, config, provider, repo_target(paths, config, str(root)))
    outcomes = analyze_shards(study, provider, list(enumerate(study.plan.shards, 1)))
    publish_repo(synthesize(study, provider, outcomes))
    test = study.facts.files["shop_test.go"]
    assert isinstance(test, OnDemandFileFacts) and not test.symbols_read
    index = (paths.repos_dir / "acme" / "shop" / "index.md").read_text(encoding="utf-8")
    assert "Then the usage examples call `Shop.Run` on what `New` returns" in index
