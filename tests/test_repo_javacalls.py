"""Java calls (facts/javacalls.py): which repository method each call reaches, and the main flow they give."""

from __future__ import annotations

from pathlib import Path

from repo_source_fixture import write_tree

from generator.repo.facts.calltree import main_line
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.model import Facts

BODY = "".join(f"        int step{i} = {i};\n" for i in range(12))
PARSER = {
    "src/main/java/org/kit/Kit.java": (
        "package org.kit;\n\nimport org.kit.parser.Parser;\n\n"
        "public class Kit {\n    public static Document parse(String html) {\n"
        '        return Parser.parse(html, "");\n    }\n}\n'
    ),
    "src/main/java/org/kit/parser/Parser.java": (
        "package org.kit.parser;\n\npublic class Parser {\n"
        "    private final TreeBuilder builder;\n\n"
        "    public Parser(TreeBuilder builder) {\n        this.builder = builder;\n    }\n\n"
        "    public static Document parse(String html, String base) {\n"
        "        TreeBuilder treeBuilder = new HtmlTreeBuilder();\n"
        "        return treeBuilder.parse(html, new Parser(treeBuilder));\n    }\n\n"
        "    public Document again(String html) {\n        return this.builder.parse(html, this);\n    }\n}\n"
    ),
    "src/main/java/org/kit/parser/TreeBuilder.java": (
        "package org.kit.parser;\n\nabstract class TreeBuilder {\n    Tokeniser tokeniser;\n\n"
        "    Document parse(String input, Parser parser) {\n"
        f"{BODY}        runParser();\n        return null;\n    }}\n\n"
        f"    void runParser() {{\n{BODY}        Token token = tokeniser.read();\n        process(token);\n    }}\n\n"
        "    abstract boolean process(Token token);\n}\n"
    ),
    "src/main/java/org/kit/parser/HtmlTreeBuilder.java": (
        "package org.kit.parser;\n\nclass HtmlTreeBuilder extends TreeBuilder {\n"
        f"    boolean process(Token token) {{\n{BODY}        return super.reset();\n    }}\n}}\n"
    ),
    "src/main/java/org/kit/parser/Tokeniser.java": (
        f"package org.kit.parser;\n\nclass Tokeniser {{\n    Token read() {{\n{BODY}        return null;\n    }}\n}}\n"
    ),
}


def facts_of(tmp_path: Path, files: dict[str, str]) -> Facts:
    root = write_tree(tmp_path / "repo", files)
    return extract_facts(root, map_repository(root))


def test_java_calls_reach_static_methods_declared_types_fields_constructors_and_the_class_itself(
    tmp_path: Path,
) -> None:
    facts = facts_of(tmp_path, PARSER)
    assert facts.calls is not None
    edges = {(e.caller, e.callee) for e in facts.calls.edges()}
    assert ("Kit.parse", "Parser.parse") in edges  # a static call on a class in another package
    assert ("Parser.parse", "HtmlTreeBuilder") in edges  # `new` a class declaring no constructor
    assert ("Parser.parse", "Parser.Parser") in edges  # `new` a class with one: its constructor
    assert ("Parser.parse", "TreeBuilder.parse") in edges  # a local variable's declared type
    assert ("Parser.again", "TreeBuilder.parse") in edges  # a field, through `this.`
    assert ("TreeBuilder.parse", "TreeBuilder.runParser") in edges  # the class's own method
    assert ("TreeBuilder.runParser", "Tokeniser.read") in edges  # a field's declared type
    assert ("TreeBuilder.runParser", "TreeBuilder.process") in edges  # the declaration, not an override
    assert not any(callee.endswith(".reset") for _, callee in edges)  # nothing the repository defines


def test_a_java_librarys_main_flow_runs_from_its_static_entry_to_the_tokeniser_and_the_builder(
    tmp_path: Path,
) -> None:
    """The abstract `process` the parser loop calls goes on into HtmlTreeBuilder's override (its last call,
    so the main line); the tokeniser's `read` beside it is a branch of the same hop."""
    facts = facts_of(tmp_path, PARSER)
    assert facts.calls is not None
    tree = facts.calls.tree()
    line = main_line(tree)
    assert [line[0].caller, *(e.callee for e in line)] == [
        "Kit.parse",
        "Parser.parse",
        "TreeBuilder.parse",
        "TreeBuilder.runParser",
        "TreeBuilder.process",
        "HtmlTreeBuilder.process",
    ]
    hop = tree[0].below[0].below[0]
    assert hop.edge.callee == "TreeBuilder.runParser"
    # in the order the loop makes them, the main line's marked
    assert [(branch.edge.callee, branch.main) for branch in hop.below] == [
        ("Tokeniser.read", False),
        ("TreeBuilder.process", True),
    ]
