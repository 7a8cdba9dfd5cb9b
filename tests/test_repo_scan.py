"""Reading Python without a syntax tree: every file is scanned for imports; source modules' symbols are read
in the same pass (the catalogue and the ranking need them) while tests, docs and examples are parsed only
when something asks for them; the map's bytes are parsed rather than read again; and the scan agrees with
`ast`."""

from __future__ import annotations

import ast
import threading
from dataclasses import fields
from pathlib import Path

import pytest
from conftest import make_git_repo, synced_folders
from repo_output_fakes import offline_setup
from repo_source_fixture import write_tree

from generator.app.targets import repo_target
from generator.repo.facts.extract import DocOnDemand, OnDemandFileFacts, extract_facts
from generator.repo.facts.pyscan import scan_python
from generator.repo.facts.pysource import extract_python
from generator.repo.facts.pysymbols import UnusualLayout, _read_symbols, python_symbols, read_python
from generator.repo.map.walk import map_repository
from generator.repo.model import MAX_TOTAL_FILES, FileFacts
from generator.repo.run.pipeline import analyze_shards, prepare
from generator.repo.synthesize.synthesis import synthesize
from generator.site.pages.repo import publish_repo


def big_project(modules: int) -> dict[str, str]:
    """A package of `modules` modules, each importing the core and defining a class and a function."""
    files = {
        "README.md": "# Big\n\nBig is a package with many modules, used to check what gets parsed.\n",
        "big/__init__.py": '"""The big package."""\n\nfrom .core import Engine\n',
        "big/core.py": '"""Core engine."""\n\n\nclass Engine:\n    """Runs."""\n\n    def run(self):\n        return 1\n',
    }
    for i in range(modules):
        files[f"big/part{i:02d}.py"] = (
            f'"""Part {i}."""\n\nfrom .core import Engine\n\n\n'
            f'class Part{i}(Engine):\n    """A part."""\n\n\ndef make{i}():\n    return Part{i}()\n'
        )
        files[f"tests/test_part{i:02d}.py"] = (
            f"from big.part{i:02d} import make{i}\n\n\ndef test_make():\n    assert make{i}()\n"
        )
    return files


def read_symbols(facts: dict[str, FileFacts]) -> set[str]:
    return {p for p, f in facts.items() if isinstance(f, OnDemandFileFacts) and f.symbols_read}


def test_source_modules_have_symbols_and_tests_are_parsed_on_demand(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", big_project(8))
    facts = extract_facts(root, map_repository(root))
    tests = [p for p, f in facts.files.items() if f.language == "python" and p.startswith("tests/")]
    assert len(tests) == 8 and all(isinstance(facts.files[p], OnDemandFileFacts) for p in tests)
    sources = [p for p, f in facts.files.items() if f.language == "python" and p.startswith("big/")]
    assert all(not isinstance(facts.files[p], OnDemandFileFacts) for p in sources)
    assert [s.name for s in facts.files["big/part03.py"].symbols] == ["Part3", "make3"]
    assert facts.files["big/part03.py"].symbols[0].bases == ("Engine",)
    assert facts.base_uses["Engine"] == 8
    assert read_symbols(facts.files) == set()
    assert facts.files["tests/test_part03.py"].depends_on == ["big/part03.py"]
    # imports, the graph, docs and importance are all there without any symbol
    assert facts.files["big/part03.py"].depends_on == ["big/core.py"]
    assert sorted(p for p, f in facts.files.items() if "big/core.py" in f.depends_on)[:2] == [
        "big/__init__.py",
        "big/part00.py",
    ]
    assert facts.files["big/part03.py"].doc == "Part 3."
    assert facts.files["big/core.py"].importance > facts.files["big/part03.py"].importance
    assert read_symbols(facts.files) == set()
    # asking for one test file's symbols parses that file only
    assert [s.name for s in facts.files["tests/test_part05.py"].symbols] == ["test_make"]
    assert read_symbols(facts.files) == {"tests/test_part05.py"}


def test_on_demand_facts_equal_eager_facts_with_the_same_values(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {"tests/a.py": "import os\n\n\ndef f():\n    pass\n"})
    lazy = extract_facts(root, map_repository(root)).files["tests/a.py"]
    assert isinstance(lazy, OnDemandFileFacts)
    eager = FileFacts(
        path="tests/a.py",
        language="python",
        symbols=list(lazy.symbols),
        imports=["os"],
        importance=lazy.importance,
    )
    assert lazy == eager and eager == lazy
    eager.imports = ["sys"]
    assert lazy != eager


def test_threads_reading_symbols_at_once_all_see_them(tmp_path: Path) -> None:
    body = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(300))
    root = write_tree(tmp_path / "repo", {"tests/many.py": body})
    facts = extract_facts(root, map_repository(root)).files["tests/many.py"]
    seen: list[int] = []
    start = threading.Barrier(4)

    def read() -> None:
        start.wait()
        seen.append(len(facts.symbols))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [300] * 4


def test_a_run_parses_test_symbols_only_for_the_files_its_shards_show(tmp_path: Path) -> None:
    root = make_git_repo(
        tmp_path / "big", big_project(MAX_TOTAL_FILES + 10), origin="https://github.com/acme/big.git"
    )
    paths, config, provider = offline_setup(tmp_path / "kb")
    study = prepare(paths, config, provider, repo_target(paths, config, str(root)))
    planned = {path for shard in study.plan.shards for path in shard.files}
    assert len(planned) <= MAX_TOTAL_FILES < len(study.facts.files)
    assert read_symbols(study.facts.files) <= planned
    outcomes = analyze_shards(study, provider, list(enumerate(study.plan.shards, 1)))
    result = synthesize(study, provider, outcomes)
    publish_repo(result)  # synthesis returns records; the page layer writes them
    assert not result.failed
    shown = read_symbols(study.facts.files)
    assert shown <= planned  # no test file outside the shards was parsed
    assert any(isinstance(f, OnDemandFileFacts) for p, f in study.facts.files.items() if p not in shown)
    pages = "".join(p.read_text() for p in (paths.repos_dir / "acme" / "big" / "shards").glob("*.md"))
    assert "**[`Engine`](https://github.com/acme/big/blob/" in pages  # symbols read on demand reach the pages
    assert "/big/core.py#L4-L8)** *class*" in pages


# every tricky spot of reading imports without a syntax tree; the reference is `ast` (extract_python)
SCAN_CASES = {
    "docstring_with_code": '"""Module doc.\n\n    from fake import nothing\n    import also_fake\n"""\nimport real\n',
    "nested_and_one_liners": (
        "import a\n"
        "try: import b\n"
        "except ImportError: from c import d\n"
        "if True:\n    import e.f as g, h\n"
        "def fn():\n    from .sib import (x,  # comment (with parens)\n        y as z,\n    )\n"
        "class K:\n    import i; from j import *\n"
    ),
    "continuations": "from pkg.mod import \\\n    (one,\n     two)\nimport k, \\\n    l\nfrom . import m\nfrom .. n import o\n",
    "strings_hide_imports": (
        "x = 'import fake1'\n"
        'y = """\nimport fake2\n"""\n'
        "z = r'''\\\nfrom fake3 import q\n'''\n"
        's = "a \\" quote"; import after_quote\n'
        "# import fake4\n"
    ),
    "main_guards": 'import sys\n\nif __name__ == "__main__":\n    sys.exit(0)\n',
    "reversed_main_guard": "if ('__main__' == __name__):\n    pass\n",
    "nested_main_is_not_top_level": "def f():\n    if __name__ == '__main__':\n        pass\n",
    "doc_after_comments": "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\nr'''Raw doc.\n\n  Second paragraph.'''\n",
    "expression_is_not_a_doc": '"abc".join([])\nimport q\n',
    "bytes_is_not_a_doc": "b'not a doc'\n",
    "crlf": '"""CRLF doc."""\r\nimport alpha\r\nfrom beta import gamma\r\n',
    "bom": '\ufeff"""BOM doc."""\nimport delta\n',
    # hug's `"""hug/api.py` and websocket-client's `_app.py` title a docstring with the file's name
    "file_titled_doc": '"""hug/api.py\n\nDefines the API object.\n"""\nimport falcon\n',
    "file_titled_doc_no_blank": '"""\n_app.py\nwebsocket - WebSocket client library for Python\n"""\n',
    "same_line_sorted_by_name": "from zed import b, a; import m\n",
    "not_an_import": "x = (yield\n     from g)\nimport_thing = 1\nfrom_here = 2\n",
}


@pytest.mark.parametrize("name", sorted(SCAN_CASES))
def test_scan_reads_what_ast_reads(name: str) -> None:
    text = SCAN_CASES[name]
    reference = extract_python(text)
    scanned = scan_python(text)
    assert (scanned.imports, scanned.doc, scanned.has_main) == (
        reference.imports,
        reference.doc,
        reference.has_main,
    )
    assert scanned.symbols == []


def test_scan_reads_the_expected_values() -> None:
    # the comparison above could pass with both readers wrong; pin a few values down
    nested = scan_python(SCAN_CASES["nested_and_one_liners"])
    assert nested.imports == ["a", "b", "c:d", "e.f", "h", ".sib:x", ".sib:y", "i", "j"]
    assert scan_python(SCAN_CASES["docstring_with_code"]).imports == ["real"]
    assert scan_python(SCAN_CASES["doc_after_comments"]).doc == "Raw doc."
    assert scan_python(SCAN_CASES["file_titled_doc"]).doc == "Defines the API object."
    assert scan_python(SCAN_CASES["file_titled_doc_no_blank"]).doc.startswith("websocket - WebSocket client")
    assert scan_python(SCAN_CASES["main_guards"]).has_main
    assert not scan_python(SCAN_CASES["nested_main_is_not_top_level"]).has_main


def test_a_file_with_a_syntax_error_keeps_its_imports_but_has_no_symbols(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "lib.py": "def helper():\n    return 1\n",
            "broken.py": "from lib import helper\n\ndef oops(:\n    pass\n",
        },
    )
    facts = extract_facts(root, map_repository(root))
    assert facts.files["broken.py"].depends_on == ["lib.py"]
    assert facts.files["broken.py"].symbols == []
    assert [s.name for s in facts.files["lib.py"].symbols] == ["helper"]


# layouts the line-by-line symbol reader must follow exactly as `ast` does
SYMBOL_CASES = {
    "decorators_and_docstrings": (
        "import functools\n\n\n@functools.cache\n@other(\n    arg=1,\n)\ndef cached(x):\n"
        '    """Cached.\n\n    More."""\n    return x\n\n\nclass Box:\n    r"""Raw doc."""\n\n'
        "    @property\n    def size(self) -> int:\n        'Single quoted.'\n        return 1\n\n"
        "    async def fetch(self):\n        pass\n    # a trailing comment is not part of the method\n"
    ),
    "nested_classes_and_privacy": (
        "class _Hidden:\n    def shown(self):\n        pass\n\n    class Inner:\n        def deep(self):\n"
        "            def local():\n                pass\n            return local\n\n"
        "    def __init__(self):\n        pass\n"
    ),
    "not_symbols": (
        "if True:\n    def in_if():\n        pass\n\ntry:\n    class InTry:\n        pass\nexcept Exception:\n"
        "    pass\n\n\ndef outer():\n    class InFunction:\n        def m(self):\n            pass\n"
        "    return InFunction\n"
    ),
    # taskiq's result/result.py: `TaskiqResult` under `if IS_PYDANTIC2:` and again under `else:`
    "definitions_under_a_module_if": (
        "if V2:\n    from p import M\n\n    class Result(M):\n        '''Result of a task.'''\n\n"
        "        def raise_for_error(self):\n            pass\n\nelif V1:\n    class Result(N):\n"
        "        def raise_for_error(self):\n            pass\n\n    def v1_only():\n        pass\n"
        "else:\n    if deep:\n        def nested():\n            pass\n    Result = None\n\n"
        "try:\n    import x\nexcept ImportError:\n    pass\nelse:\n    def after_try():\n        pass\n\n"
        "if __name__ == '__main__' and True:\n    def main():\n        pass\n"
    ),
    "inline_bodies": (
        "from typing import overload\n\n\nclass Api:\n    @overload\n    def get(self, x: int) -> int: ...\n"
        '    @overload\n    def get(self, x: str) -> str: "Doc inline."\n    def get(self, x): return x\n\n\n'
        "class Empty: pass\n"
    ),
    "multiline_signature_and_strings": (
        "def long(\n    a: dict[str, int] = {'k': 1},\n    b=lambda y: y,\n) -> tuple[\n    int, str\n]:\n"
        '    """Doc after a long header."""\n    text = """\nnot code: def fake():\n"""\n'
        '    return (\n        1,\n    )\n\n\ndef last():\n    x = """\nends here\n"""\n\n# comment at the end\n'
    ),
    "first_statement_not_a_docstring": (
        'def f():\n    x = "not a doc"\n    return x\n\n\ndef g():\n    f"formatted {1}"\n\n\n'
        'def h():\n    ("parenthesized doc")\n\n\ndef i():\n    b"bytes"\n'
    ),
    "first_statement_starts_like_a_prefix": (
        'def f():\n    return "x"\n\n\ndef g():\n    u"Unicode doc."\n\n\ndef h():\n    rb"raw bytes"\n\n\n'
        "def i():\n    bar = 1\n\n\ndef j():\n    (\n        'Parenthesized on its own lines.'\n    )\n"
    ),
    "nested_deeper_than_the_skipping_patterns_follow": (
        "x = f(g(h(i(j(1)))))\n\n\nclass K:\n    y = [[[[[{'a': (1,)}]]]]]\n\n    def m(self):\n"
        "        z = a(b(c(d(e(\n            1)))))\n        return z\n\n"
        "    @deco(a(b(c(d(e())))))\n    def n(self): ...\n\n\ndef top():\n    w = ((((((0))))))\n"
        "    return w\n"
    ),
    "bases_that_need_ast_twice": (
        "class A(TypedDict, total=False):\n    a: int\n\n\nclass B(TypedDict, total=False):\n    b: int\n\n\n"
        "class C(pkg.Base[T], Generic[T], metaclass=abc.ABCMeta):\n    pass\n\n\nclass D(*mixins, E):\n    pass\n"
    ),
    "tabs_fall_back_to_ast": "class T:\n\tdef m(self):\n\t\t'''Tab doc.'''\n\t\tpass\n",
    "backslash_then_comment_falls_back": "def f():\n    assert True \\\n        # c\n\n\ndef g():\n    pass\n",
}


@pytest.mark.parametrize("name", sorted(SYMBOL_CASES))
def test_symbols_read_line_by_line_equal_the_syntax_tree(name: str) -> None:
    text = SYMBOL_CASES[name]
    assert python_symbols(text) == extract_python(text).symbols


def test_symbols_reader_values_and_fallbacks() -> None:
    symbols = {s.name: s for s in _read_symbols(SYMBOL_CASES["decorators_and_docstrings"])}
    assert (symbols["cached"].start, symbols["cached"].end, symbols["cached"].doc) == (4, 12, "Cached.")
    assert (symbols["Box"].doc, symbols["Box.size"].kind, symbols["Box.fetch"].end) == (
        "Raw doc.",
        "method",
        24,
    )
    assert [s.name for s in _read_symbols(SYMBOL_CASES["not_symbols"])] == ["in_if", "outer"]
    guarded = _read_symbols(SYMBOL_CASES["definitions_under_a_module_if"])
    assert [(s.name, s.start, s.end, s.parent) for s in guarded] == [  # the first definition, once
        ("Result", 4, 8, ""),
        ("Result.raise_for_error", 7, 8, "Result"),
        ("v1_only", 15, 16, ""),
    ]
    assert (guarded[0].doc, guarded[0].bases, guarded[2].kind) == ("Result of a task.", ("M",), "function")
    bases = {s.name: s.bases for s in _read_symbols(SYMBOL_CASES["bases_that_need_ast_twice"])}
    assert bases == {"A": ("TypedDict",), "B": ("TypedDict",), "C": ("pkg.Base", "Generic"), "D": ("E",)}
    inline = {s.name: s for s in _read_symbols(SYMBOL_CASES["inline_bodies"])}
    assert inline["Empty"].start == inline["Empty"].end == 12
    for unusual in ("tabs_fall_back_to_ast", "backslash_then_comment_falls_back"):
        with pytest.raises(UnusualLayout):
            _read_symbols(SYMBOL_CASES[unusual])
    with pytest.raises(SyntaxError):  # neither reader makes symbols up for a file Python cannot read
        python_symbols("def broken(:\n    pass\n")
    with pytest.raises(UnusualLayout):  # a header without its colon
        _read_symbols("class Fine:\n    pass\n\n\ndef no_colon()\n    pass\n")


def test_facts_parse_the_bytes_the_map_kept_instead_of_reading_again(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", big_project(3))
    repo_map = map_repository(root, keep_languages={"python"}, keep_bytes=10_000)
    assert set(repo_map.contents) == {p.path for p in repo_map.files if p.language == "python"}
    assert "README.md" not in repo_map.contents  # only languages the facts stage parses are kept
    # the files change on disk after mapping: the facts describe what the map saw, and hold no bytes after
    for name in ("big/part00.py", "big/core.py"):
        (root / name).write_text("import json\n")
    facts = extract_facts(root, repo_map)
    assert facts.files["big/part00.py"].depends_on == ["big/core.py"]
    assert facts.files["big/part00.py"].doc == "Part 0."
    assert repo_map.contents == {}
    # once parsed, the bytes are gone: a second extraction reads the files on disk
    assert extract_facts(root, repo_map).files["big/part00.py"].depends_on == []


def test_the_map_keeps_bytes_within_its_budget_only(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", big_project(3))
    sizes = {e.path: e.size for e in map_repository(root).files}
    budget = sizes["big/__init__.py"] + sizes["big/core.py"]
    kept = map_repository(root, keep_languages={"python"}, keep_bytes=budget).contents
    assert sum(map(len, kept.values())) <= budget and kept
    assert map_repository(root).contents == {}  # nothing kept unless asked
    # files the map did not keep are read from disk: the facts are the same either way
    assert extract_facts(root, map_repository(root, keep_languages={"python"}, keep_bytes=budget)) == (
        extract_facts(root, map_repository(root))
    )


def test_a_statement_seen_in_another_file_reads_the_same() -> None:
    first = scan_python("from .core import Engine, Part\nimport os.path as p\n").imports
    again = scan_python('"""Doc."""\nimport os.path as p\nfrom .core import Engine, Part\n').imports
    assert first == [".core:Engine", ".core:Part", "os.path"]
    assert again == ["os.path", ".core:Engine", ".core:Part"]


def test_an_import_line_seen_before_reads_the_same_whatever_follows_it() -> None:
    # an unclosed bracket or a backslash makes the statement go on: such a line is never remembered
    assert scan_python("from x import (a,\n").imports == []
    assert scan_python("from x import (a,\n    b)\n").imports == ["x:a", "x:b"]
    assert scan_python("import a, \\\n    b\n").imports == ["a", "b"]
    assert scan_python("import a, \\\n    c\n").imports == ["a", "c"]
    assert scan_python("import os  # first\n").imports == scan_python("x = 1\nimport os  # first\n").imports


def test_raw_docstrings_are_read_without_a_syntax_tree_and_agree_with_ast() -> None:
    text = (
        'def f():\n    r"""Solve :math:`x \\\\in S` for\n    sets."""\n\n\n'
        "def g():\n    r'''Ends in a backslash \\\\'''\n\n\n"
        'def h():\n    R"""Quote \\" inside."""\n'
    )
    assert python_symbols(text) == extract_python(text).symbols
    assert python_symbols(text)[0].doc == "Solve x in S for sets."


# one walk reads imports and symbols: the symbol reader hands the scan only the stretches holding `import`
# or `__main__`; imports anywhere in those layouts must still be found, in line order
ONE_WALK_CASES = {
    "imports_deep_in_bodies": (
        '"""Doc that mentions import lines:\n\nimport not_this\n"""\nimport os\n\n\n'
        "class Box:\n    import inside_class\n\n    def method(self):\n        x = 1\n"
        "        if x:\n            from .deep import (\n                a,\n                b,\n            )\n"
        "        return x\n\n\ndef f():\n    import first_statement\n    y = 2; import after_semicolon\n"
        "    z = 3; \\\nimport after_continuation\n    return y\n"
    ),
    "main_guard_after_definitions": (
        'def main():\n    """Run when __main__."""\n    s = "if __name__ == \'__main__\': pass"\n    return s\n\n\n'
        'if __name__ == "__main__":\n    import sys\n    sys.exit(main())'
    ),
    "no_newline_at_end": "def f():\n    pass\n\n\nimport late",
    "only_imports": "import a\nfrom b import c\n",
    "nothing_to_read": "x = 1\n\n\ndef f():\n    return x\n",
}


@pytest.mark.parametrize("name", sorted(ONE_WALK_CASES))
def test_one_walk_reads_what_ast_reads(name: str) -> None:
    text = ONE_WALK_CASES[name]
    assert read_python(text) == extract_python(text)
    scanned = scan_python(text)  # the scan alone (test files) agrees
    assert (scanned.imports, scanned.has_main) == (read_python(text).imports, read_python(text).has_main)


def test_one_walk_values() -> None:
    deep = read_python(ONE_WALK_CASES["imports_deep_in_bodies"])
    assert deep.imports == [
        "os",
        "inside_class",
        ".deep:a",
        ".deep:b",
        "first_statement",
        "after_semicolon",
        "after_continuation",
    ]
    assert [s.name for s in deep.symbols] == ["Box", "Box.method", "f"]
    guarded = read_python(ONE_WALK_CASES["main_guard_after_definitions"])
    assert guarded.has_main and guarded.imports == ["sys"]
    assert read_python(ONE_WALK_CASES["no_newline_at_end"]).imports == ["late"]
    assert not read_python(ONE_WALK_CASES["nothing_to_read"]).imports


DUNDER_ALL_CASES = {
    "list": '__all__ = ["Engine", \'Part\', "run_all"]\n',
    "tuple_and_extension": "__all__ = ('a',)\n__all__ += (\n    'b',\n    'c',  \n)\n",
    "parenthesized_string_is_not_a_tuple": '__all__ = ("only")\n',
    "empty": "__all__ = []\n__all__ += ()\n",
    "not_identifiers_are_dropped": '__all__ = ["ok", "not-a-name", "1st", ""]\n',
    "implicit_concatenation": '__all__ = ["ab" "cd", "e"]\n',
    "triple_quoted_and_escapes": '__all__ = ["""tq""", "esc\\u0041pe"]\n',
    "comment_inside": '__all__ = [\n    "kept",  # the public one\n    "too",\n]\n',
    "crlf": '__all__ = [\r\n    "crlf",\r\n]\r\n',
    "not_a_literal": "__all__ = [name for name in dir()]\n",
}


def _all_by_ast(text: str) -> list[str]:
    names: list[str] = []
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign | ast.AugAssign) and isinstance(node.value, ast.List | ast.Tuple):
            elements = node.value.elts
            names.extend(
                e.value for e in elements if isinstance(e, ast.Constant) and str(e.value).isidentifier()
            )
    return list(dict.fromkeys(names))


@pytest.mark.parametrize("name", sorted(DUNDER_ALL_CASES))
def test_dunder_all_reads_what_ast_reads(name: str) -> None:
    text = DUNDER_ALL_CASES[name]
    assert scan_python(text).exports == _all_by_ast(text)


def test_dunder_all_values() -> None:
    assert scan_python(DUNDER_ALL_CASES["list"]).exports == ["Engine", "Part", "run_all"]
    assert scan_python(DUNDER_ALL_CASES["tuple_and_extension"]).exports == ["a", "b", "c"]
    assert scan_python(DUNDER_ALL_CASES["triple_quoted_and_escapes"]).exports == ["tq", "escApe"]
    assert scan_python(DUNDER_ALL_CASES["parenthesized_string_is_not_a_tuple"]).exports == []


def test_a_documentation_file_s_summary_is_read_when_asked_and_redacted(tmp_path: Path) -> None:
    """Hundreds of Markdown files and no page asks for most of their summaries: each is read on first
    access, redacted then, and equal to the eager facts it stands for."""
    secret = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8" * 4
    files = {
        **big_project(2),
        "docs/guide.md": f"# Guide\n\nThe engine builds parts in order. Its key is {secret} today.\n",
    }
    root = write_tree(tmp_path / "repo", files)
    facts = extract_facts(root, map_repository(root))
    guide = facts.files["docs/guide.md"]
    assert isinstance(guide, DocOnDemand) and not guide.doc_read
    assert guide.doc.startswith("The engine builds parts in order.") and secret not in guide.doc
    assert guide.doc_read
    assert guide == FileFacts(**{f.name: getattr(guide, f.name) for f in fields(FileFacts)})


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads an fd's path from /proc")
def test_publishing_a_run_syncs_each_page_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_git_repo(tmp_path / "big", big_project(6), origin="https://github.com/acme/big.git")
    paths, config, provider = offline_setup(tmp_path / "kb")
    study = prepare(paths, config, provider, repo_target(paths, config, str(root)))
    result = synthesize(
        study, provider, analyze_shards(study, provider, list(enumerate(study.plan.shards, 1)))
    )
    synced = synced_folders(monkeypatch)
    publish_repo(result)
    pages = list((paths.repos_dir / "acme" / "big").rglob("*.md"))
    assert len(pages) > len({p.parent for p in pages})  # folders holding several pages
    assert sorted(synced) == sorted(set(synced))  # … each synced once, not once per page
    assert {str(p.parent) for p in pages} <= set(synced)
