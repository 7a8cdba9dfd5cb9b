"""Where a Go repository's flows start and go: files built only under a tag are no door, a constructor
returning an interface hands back the type it builds, and a package's `ServeHTTP` module is in its shard."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.buildtags import needs_tag
from generator.repo.facts.commands import namesakes
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts
from generator.repo.plan.subsystems import with_own_door


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    root = write_tree(tmp_path / "repo", files)
    return extract_facts(root, map_repository(root))


def _body(word: str, lines: int = 12) -> str:
    return "".join(f"\t{word}{i} := {i}\n\t_ = {word}{i}\n" for i in range(lines))


def test_a_build_constraint_needs_a_tag_only_when_no_platform_builds_it_by_default() -> None:
    assert needs_tag("//go:build gofuzz\n\npackage httprule\n")
    assert needs_tag("// +build ignore\n\npackage main\n")
    assert needs_tag("//go:build integration || e2e\n\npackage x\n")
    assert needs_tag("// Copyright 2024\n\n//go:build tools\n\npackage tools\n")
    assert not needs_tag("//go:build windows\n\npackage x\n")  # built by default on Windows
    assert not needs_tag("//go:build linux && !cgo\n\npackage x\n")
    assert not needs_tag("//go:build !integration\n\npackage x\n")
    assert not needs_tag("//go:build go1.21\n\npackage x\n")
    assert not needs_tag("// +build linux darwin\n// +build amd64\n\npackage x\n")
    assert not needs_tag("package x\n\n//go:build ignore\n")  # after the package clause: no constraint


TAGGED = {
    "go.mod": "module example.com/rule\n\ngo 1.21\n",
    "parse.go": (
        "package rule\n\n// Parse reads a template.\nfunc Parse(s string) (string, error) {\n"
        "\treturn segments(s), nil\n}\n\n"
        "func segments(s string) string {\n" + _body("seg") + "\treturn s\n}\n"
    ),
    # a fuzz harness: it calls Parse and more, so it would lead the ranking were it code
    "fuzz.go": (
        "//go:build gofuzz\n\npackage rule\n\n// Fuzz is the fuzzer's entry.\n"
        "func Fuzz(data []byte) int {\n\tParse(string(data))\n" + _body("f") + "\treturn 0\n}\n"
    ),
}
TOOL = {
    "go.mod": "module example.com/tool\n\ngo 1.21\n",
    "main.go": "package main\n\nfunc main() {\n\trun()\n}\n\nfunc run() {\n" + _body("r") + "}\n",
    # a generator script beside the code, run by `go generate`, never built
    "gen/main.go": "//go:build ignore\n\npackage main\n\nfunc main() {\n\tgenerate()\n}\n\n"
    + "func generate() {\n"
    + _body("g", 30)
    + "}\n",
}


def test_files_built_only_under_a_tag_are_no_entry_point_and_no_command(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, TAGGED)
    assert facts.calls is not None
    assert facts.files["fuzz.go"].tagged and not facts.files["parse.go"].tagged
    assert facts.calls.entries(limit=1) == [("parse.go", "Parse")]  # was fuzz.go's Fuzz
    tool = facts_of(tmp_path / "tool", TOOL).calls
    assert tool is not None and tool.commands == [("main.go", "main")]  # not the larger generator script


GENERATOR = {
    "go.mod": "module example.com/gw\n\ngo 1.21\n",
    "internal/generator/generator.go": (
        "package generator\n\n// Generator generates files.\ntype Generator interface {\n"
        "\tGenerate(targets []string) ([]string, error)\n}\n"
    ),
    "internal/gengateway/generator.go": (
        'package gengateway\n\nimport gen "example.com/gw/internal/generator"\n\n'
        "type generator struct{ suffix string }\n\n"
        "// New returns a generator of gateway files.\nfunc New(suffix string) gen.Generator {\n"
        '\tif suffix == "" {\n\t\treturn nil\n\t}\n\treturn &generator{suffix: suffix}\n}\n\n'
        "func (g *generator) Generate(targets []string) ([]string, error) {\n"
        "\treturn g.generate(targets), nil\n}\n\n"
        "func (g *generator) generate(targets []string) []string {\n" + _body("t") + "\treturn targets\n}\n"
    ),
    "cmd/protoc-gen-gw/main.go": (
        'package main\n\nimport "example.com/gw/internal/gengateway"\n\n'
        'func main() {\n\tgenerator := gengateway.New("Handler")\n\tfiles, _ := generator.Generate(nil)\n'
        "\t_ = files\n}\n"
    ),
}


def test_a_constructor_returning_an_interface_hands_back_the_type_it_builds(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, GENERATOR)
    assert facts.calls is not None
    assert facts.files["internal/gengateway/generator.go"].results["New"] == "generator"
    calls = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges(["cmd/protoc-gen-gw/main.go"])}
    assert ("main", "internal/gengateway/generator.go", "generator.Generate") in calls


def _helper(name: str, lines: int) -> str:
    return (
        f"package rt\n\n// {name.title()} helps.\nfunc {name.title()}() int {{\n"
        + _body("h", lines)
        + "\treturn 0\n}\n"
    )


RUNTIME = {
    "go.mod": "module example.com/rt\n\ngo 1.21\n",
    **{f"rt/{name}.go": _helper(name, 40) for name in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")},
    "rt/mux.go": (
        'package rt\n\nimport "net/http"\n\n// ServeMux routes requests.\ntype ServeMux struct{ n int }\n\n'
        "// ServeHTTP routes a request.\n"
        "func (s *ServeMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n"
        "\tAlpha()\n\tBeta()\n\tGamma()\n}\n"
    ),
}


def test_a_shard_holds_the_module_of_its_packages_servehttp(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, RUNTIME)
    helpers = [f"rt/{name}.go" for name in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")]
    shard = with_own_door([*helpers, "rt/mux.go"], facts)
    assert shard == (*helpers[:4], "rt/mux.go")  # in place of the lightest of the five
    # without a runtime callback, the five weightiest stay
    assert with_own_door(helpers, facts) == tuple(helpers[:5])


NESTED = {
    "go.mod": "module example.com/proxy\n\ngo 1.21\n",
    "generate.go": "package main\n\nfunc main() {}\n",
    "cmd/proxy/main.go": (
        "package main\n\nfunc main() {\n\tserve()\n}\n\nfunc serve() {\n" + _body("s") + "}\n"
    ),
    # a module of types published beside the program: a library, but not the repository's
    "pkg/ext/go.mod": "module example.com/proxy/pkg/ext\n\ngo 1.21\n",
    "pkg/ext/ext.go": "package ext\n\n// HTTP is an extension point.\ntype HTTP struct{}\n",
}


def test_a_nested_modules_library_leaves_the_programs_commands(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, NESTED)
    assert facts.calls is not None
    assert ("cmd/proxy/main.go", "main") in facts.calls.commands  # was none: "a library"
    assert [e.edge.callee for e in facts.calls.tree()][:1] == ["serve"]


ROUTES = {
    "go.mod": "module example.com/mux\n\ngo 1.21\n",
    "mux.go": (
        'package mux\n\nimport "net/http"\n\n'
        "type route struct {\n\tpat pattern\n\th   http.HandlerFunc\n}\n\n"
        "// Mux routes a request to the first route whose pattern matches.\n"
        "type Mux struct {\n\troutes map[string][]route\n}\n\n"
        "func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n"
        "\tfor _, rt := range m.routes[r.Method] {\n\t\tif rt.pat.Match(r.URL.Path) {\n"
        "\t\t\trt.h(w, r)\n\t\t\treturn\n\t\t}\n\t}\n}\n"
    ),
    "pattern.go": (
        "package mux\n\ntype pattern struct{ parts []string }\n\n"
        "func (p pattern) Match(path string) bool {\n" + _body("p") + "\treturn true\n}\n\n"
        # another `Match` of the package: the call is not known by its name alone
        "type glob struct{}\n\nfunc (g glob) Match(path string) bool {\n\treturn false\n}\n"
    ),
}


def test_a_call_on_a_field_of_an_element_ranged_over_from_a_map_of_slices(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, ROUTES)
    assert facts.calls is not None
    calls = {(e.caller, e.callee_path, e.callee) for e in facts.calls.edges(["mux.go"])}
    assert ("Mux.ServeHTTP", "pattern.go", "pattern.Match") in calls  # the routing lookup


# grpc-gateway: its own protoc plugin beside an OpenAPI plugin leading to more code; a root `main.go` (ko's)
# running a command the graph cannot follow
PLUGINS = {
    "go.mod": "module example.com/grpc-gateway/v2\n\ngo 1.22\n",
    "protoc-gen-grpc-gateway/main.go": (
        'package main\n\nimport "example.com/grpc-gateway/v2/internal/gengateway"\n\n'
        "func main() {\n\tgengateway.Generate()\n}\n"
    ),
    "protoc-gen-openapiv2/main.go": (
        'package main\n\nimport "example.com/grpc-gateway/v2/internal/genopenapi"\n\n'
        "func main() {\n\tgenopenapi.Generate()\n}\n"
    ),
    "internal/gengateway/generator.go": (
        "package gengateway\n\n// Generate writes the gateway.\nfunc Generate() {\n\tapply()\n}\n\n"
        f"func apply() {{\n{_body('g', 10)}}}\n"
    ),
    "internal/genopenapi/generator.go": (
        "package genopenapi\n\n// Generate writes the OpenAPI file.\nfunc Generate() {\n\trender()\n}\n\n"
        f"func render() {{\n{_body('r', 60)}}}\n"
    ),
}


def test_the_tool_named_after_the_module_opens_the_flow_before_a_heavier_one(tmp_path: Path) -> None:
    """grpc-gateway's index flow was protoc-gen-openapiv2's, the plugin leading to the most code: the
    command named after the module (`protoc-gen-grpc-gateway` of grpc-gateway, `cmd/traefik`, a module's
    root package) is what the project is for, and opens the flow when it leads to the repository's code."""
    facts = facts_of(tmp_path, PLUGINS)
    assert facts.calls is not None
    tree = facts.calls.tree()
    assert (tree[0].edge.caller_path, tree[0].edge.callee) == ("protoc-gen-grpc-gateway/main.go", "Generate")
    # a namesake leading to no code of the repository gives way to the heaviest command
    files = {**PLUGINS, "protoc-gen-grpc-gateway/main.go": "package main\n\nfunc main() {\n\tprintln()\n}\n"}
    other = facts_of(tmp_path / "other", files).calls
    assert other is not None
    assert other.tree()[0].edge.caller_path == "protoc-gen-openapiv2/main.go"
    # the binary of a module's root package goes by the module's name, a major version aside
    assert namesakes([("main.go", "main"), ("cmd/help/main.go", "main")], {"": "github.com/google/ko"}) == [
        ("main.go", "main")
    ]
    assert namesakes([("cmd/traefik/traefik.go", "main")], {"": "github.com/traefik/traefik/v3"}) == [
        ("cmd/traefik/traefik.go", "main")
    ]
