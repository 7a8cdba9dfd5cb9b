"""`deepkb ask` end to end, on a knowledge base researched offline in the test: a fixture git repository with a
GitHub origin (so its citations are permalinks) and a topic over a small local corpus, one document Chinese."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ask_kb import KB, build_kb
from conftest import deepkb
from llm_fakes import FakeAnthropic

from generator.kb.answer import check_citations
from generator.kb.ask import Concept, Found, identifiers, names_symbol, retrieve
from generator.kb.passages import Cite, code_words, page_passages
from generator.store import KBPaths
from generator.text.words import holds_stems


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KB:
    return build_kb(tmp_path_factory.mktemp("ask-kb"))


def ask_json(kb: KB, *args: str) -> tuple[int, dict[str, object]]:
    result = deepkb(kb.root, "ask", "--json", *args)
    return result.exit_code, json.loads(result.stdout)


def test_an_english_question_is_answered_with_the_symbols_permalink(kb: KB) -> None:
    code, answer = ask_json(kb, "What does evaluate do?")
    assert code == 0 and answer["answered"] is True and answer["method"] == "extractive"
    first = answer["passages"][0]  # type: ignore[index]
    assert first["symbol"] == "evaluate"
    permalink = f"https://github.com/acme/sample/blob/{kb.revision}/sample/core.py#L6-L8"
    assert first["citations"][0]["url"] == permalink
    assert first["citations"][0]["path"] == "sample/core.py" and first["citations"][0]["line"] == 6
    assert first["page"].startswith("repos/acme/sample/shards/")
    assert any(page["page"] == first["page"] for page in answer["pages"])  # type: ignore[union-attr]


def test_a_question_about_prose_cites_the_stored_source(kb: KB) -> None:
    code, answer = ask_json(kb, "how do recursive descent parsers work")
    assert code == 0
    passages = answer["passages"]
    assert isinstance(passages, list)
    top = passages[0]
    assert "Recursive descent parsers" in top["text"]
    stored = [c for c in top["citations"] if c["page"]]
    assert stored and stored[0]["url"] == "local:corpus/parsing.md"
    assert stored[0]["page"].startswith("topics/") and "/raw/" in stored[0]["page"]


def test_a_chinese_question_finds_english_passages_through_the_glossary(kb: KB) -> None:
    code, answer = ask_json(kb, "会话存储在哪里")  # 会话 ↔ session, 存储 ↔ storage
    assert code == 0
    top = answer["passages"][0]  # type: ignore[index]
    assert "Session storage" in top["text"]
    assert top["citations"][0]["path"] == "sample/sessions.py"
    assert any(p["symbol"] == "SessionStore" for p in answer["passages"])  # type: ignore[union-attr]


def test_a_chinese_question_finds_chinese_text_and_a_word_is_not_a_symbol(kb: KB) -> None:
    code, answer = ask_json(kb, "异步计算器")
    assert code == 0
    assert "异步计算器在后台线程中求值表达式" in answer["passages"][0]["text"]  # type: ignore[index]
    # "calculator" in a sentence is a word, not the class `Calculator`: the passage about it comes first
    code, answer = ask_json(kb, "asynchronous calculator")
    assert code == 0 and answer["passages"][0]["symbol"] == ""  # type: ignore[index]
    assert "asynchronous calculator" in answer["passages"][0]["text"]  # type: ignore[index]


def test_a_question_nothing_answers_says_so_and_exits_non_zero(kb: KB) -> None:
    result = deepkb(kb.root, "ask", "zzqx walrus migration")
    assert result.exit_code == 4
    assert "Nothing in the knowledge base answers" in result.stderr
    code, answer = ask_json(kb, "zzqx walrus migration")
    assert code == 4 and answer["answered"] is False and answer["passages"] == []


def test_the_text_output_names_citation_and_page(kb: KB) -> None:
    result = deepkb(kb.root, "ask", "Calculator running total")
    assert result.exit_code == 0
    assert "[1] Calculator class — Keeps a running total." in result.stdout
    assert f"blob/{kb.revision}/sample/core.py#L11" in result.stdout
    assert "Pages:" in result.stdout and "repos/acme/sample/shards/" in result.stdout


def test_bad_input_is_one_line(kb: KB, tmp_path: Path) -> None:
    empty = deepkb(kb.root, "ask", "  ")
    assert empty.exit_code != 0 and "question is empty" in empty.stderr and "Traceback" not in empty.output
    nowhere = deepkb(tmp_path, "ask", "evaluate")
    assert nowhere.exit_code != 0 and "holds no knowledge base" in nowhere.stderr


def test_a_model_writes_the_answer_and_its_unchecked_citations_are_dropped(
    kb: KB, monkeypatch: pytest.MonkeyPatch
) -> None:
    reply = (
        "evaluate sums the parsed parts [1], defined at sample/core.py:6. It also caches results [7] "
        "in sample/cache.py:3."
    )
    with FakeAnthropic(default=reply) as fake:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        result = deepkb(kb.root, "--provider", "anthropic", "ask", "--json", "What does evaluate do?")
        assert result.exit_code == 0, result.stderr
        answer = json.loads(result.stdout)
        assert len(fake.requests) == 1
        prompt = fake.requests[0].prompt
    assert "[1]" in prompt and "sample/core.py:6" in prompt and "What does evaluate do?" in prompt
    assert answer["method"] == "model"
    assert answer["citations_checked"] == 2 and answer["citations_dropped"] == 2
    assert "[1]" in answer["answer"] and "sample/core.py:6" in answer["answer"]
    assert "[7]" not in answer["answer"] and "sample/cache.py:3" not in answer["answer"]


def test_offline_flag_never_calls_the_model(kb: KB, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeAnthropic(default="unused") as fake:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        result = deepkb(kb.root, "--provider", "anthropic", "ask", "--offline", "--json", "evaluate")
        assert result.exit_code == 0 and fake.requests == []
    assert json.loads(result.stdout)["method"] == "extractive"


def test_check_citations_keeps_only_what_the_passages_hold() -> None:
    found = [
        Found(
            "evaluate function",
            "Functions",
            "p.md",
            "P",
            "repo:a/b",
            "shard",
            1.0,
            (Cite("e", "", "a.py", 6),),
        )
    ]
    text, kept, dropped = check_citations("Sums [1] at a.py:6, see [2] and a.py:7 and [0].", found)
    assert (kept, dropped) == (2, 3)
    assert "[1]" in text and "a.py:6" in text and "[2]" not in text and "a.py:7" not in text


def test_passages_of_a_shard_page_carry_symbols_calls_and_permalinks() -> None:
    url = "https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/src/app.py#L10-L20"
    body = (
        "# r · Core\n\n## Key types\n\n"
        f"- **[`App`]({url})** *class* — The application.\n"
        f"    - [`run`]({url.replace('L10-L20', 'L12')}) *method* — Runs it.\n\n"
        "## How it flows\n\n```mermaid\nsequenceDiagram\n```\n\n"
        "1. `App.run` calls `serve` — `src/app.py:14`\n\n"
        "## Depends on / used by\n\n- **Uses** [Net](02_net.md): `connect`, `Socket`\n"
    )
    passages = page_passages("repos/o/r/shards/01_core.md", "shard", {"title": "r · Core"}, body)
    symbols = [(p.symbol.name, p.symbol.kind, p.symbol.cite.line) for p in passages if p.symbol]
    assert symbols == [("App", "class", 10), ("run", "method", 12)]
    calls = [(p.call.caller, p.call.callee, p.call.cite.line) for p in passages if p.call]
    assert calls == [("App.run", "serve", 14), ("Core", "connect", 0), ("Core", "Socket", 0)]
    assert not any("sequenceDiagram" in p.text for p in passages)  # diagrams are not passages


def test_a_word_names_a_symbol_only_as_written_or_spelled_as_code() -> None:
    assert names_symbol("evaluate", "evaluate") and names_symbol("url_for", "URL_FOR")
    assert names_symbol("sessionStore", "SessionStore") and names_symbol("Flask.run", "flask.RUN")
    assert not names_symbol("calculator", "Calculator") and not names_symbol("session", "Session")
    assert identifiers("How does Flask.url_for build a URL?") == ["Flask.url_for", "url_for", "build", "URL"]


def test_a_repository_named_in_the_question_scopes_the_answer(kb: KB) -> None:
    # "sample" is the repository's name: set aside as a concept, its passages rank first
    code, answer = ask_json(kb, "sample expression")
    assert code == 0 and answer["passages"][0]["entry"] == "repo:acme/sample"  # type: ignore[index]
    assert answer["concepts"] == ["sample", "expression"]


def test_camel_case_names_are_found_by_their_words() -> None:
    assert code_words("AsyncClient, HTTPAdapter and getUserID; url_for and JSON stay") == (
        "Async Client HTTP Adapter get User ID"
    )


def test_a_long_question_is_read_in_linear_time(kb: KB, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue #32.6: a list-membership test of Concept records made `ask` quadratic in the question's distinct
    # words (4,000 words took 37 s). Counted, not timed: comparisons of concepts stay linear in the words.
    compared = 0
    real_eq = Concept.__eq__

    def counting_eq(self: Concept, other: object) -> bool:
        nonlocal compared
        compared += 1
        return real_eq(self, other)

    monkeypatch.setattr(Concept, "__eq__", counting_eq)
    words = 1500
    question = " ".join(f"zq{i}x" for i in range(words))
    retrieve(KBPaths(kb.root), question)
    assert compared <= 10 * words


def test_a_passage_of_an_answer_page_about_itself_is_not_retrieved() -> None:
    body = (
        "# How are sessions stored?\n\n"
        '!!! info deepkb-notice "Produced offline"\n    deepkb wrote this answer from static facts.\n\n'
        "**Question:** How are sessions stored?\n\n"
        "Sessions are kept in signed cookies by `SessionStore` (`sample/sessions.py:4`).\n\n"
        "## How the files were found\n\n**Cycle 1**: terms sessions, stored\n\n"
        "| File | Relevance | Reason |\n| --- | ---: | --- |\n| sample/sessions.py | 0.90 | matches session |\n"
    )
    texts = [p.text for p in page_passages("repos/acme/sample/answers/q.md", "answer", {}, body)]
    assert texts == ["Sessions are kept in signed cookies by SessionStore (sample/sessions.py:4)."]
    raw = "# A source\n\n- Source: local (file)\n- 引用于: [报告](../output/report.md)\n\nThe stored text.\n"
    assert [p.text for p in page_passages("topics/t/raw/a.md", "source", {}, raw)] == ["The stored text."]


def test_answered_is_false_when_no_passage_names_the_questions_rare_words(kb: KB) -> None:
    # "expression evaluation" is all over the knowledge base; "walrus" and "zzqx" are in no passage and carry
    # most of the question's weight: the closest passages are shown, but nothing answers it
    code, answer = ask_json(kb, "expression evaluation walrus zzqx")
    assert code == 4 and answer["answered"] is False and answer["passages"]
    code, answer = ask_json(kb, "expression evaluation")
    assert code == 0 and answer["answered"] is True


def test_a_question_asking_how_one_thing_becomes_another_is_answered(kb: KB) -> None:
    """ "How does a log call become output?" (structlog), "How does a class with table=True become a database
    table?", "How does a log call become a JSON line?" (two labelled questions of earlier benches): `become`
    only shapes the question, but it weighed as a word no passage names, and nothing answered."""
    code, answer = ask_json(kb, "How does an expression become an evaluation?")
    assert code == 0 and answer["answered"] is True
    assert [c for c in answer["concepts"] if "becom" in c] == []  # type: ignore[union-attr]


def test_a_topic_named_in_the_question_answers_first_and_no_passage_is_given_twice(kb: KB) -> None:
    code, answer = ask_json(kb, "do calculators evaluate expressions", "--limit", "8")
    assert code == 0
    pages = [p["page"] for p in answer["passages"]]  # type: ignore[union-attr]
    assert pages[0].startswith("topics/how-calculators-evaluate-expressions/")
    texts = [" ".join(p["text"].lower().split()) for p in answer["passages"]]  # type: ignore[union-attr]
    assert len(texts) == len(set(texts))


def test_the_cli_caps_a_question_as_mcp_does(kb: KB) -> None:
    result = deepkb(kb.root, "ask", "evaluate " * 60)
    assert result.exit_code != 0 and "at most 500" in result.stderr and "Traceback" not in result.output


def test_a_plain_word_naming_a_symbol_answers_only_with_the_rest_of_the_question(kb: KB) -> None:
    # "evaluate" names the function `evaluate`, but the question asks about more: its passage alone is not an
    # answer. A name spelled as code (`Calculator`) is one, whatever else the question holds.
    code, answer = ask_json(kb, "evaluate zzqx walrus")
    assert code == 4 and answer["answered"] is False
    code, answer = ask_json(kb, "Calculator zzqx walrus")
    assert code == 0 and answer["passages"][0]["symbol"] == "Calculator"  # type: ignore[index]


def test_stems_snowball_leaves_apart_are_one_word() -> None:
    assert holds_stems(["handl", "error"], {"handler", "error", "default"})
    assert holds_stems(["thrown"], {"throw"}) and holds_stems(["pars"], {"parser"})
    assert not holds_stems(["run"], {"runner"})  # a prefix that short finds too much
    assert not holds_stems(["handl", "zzqx"], {"handler"})


def test_ask_reads_the_store_s_passage_count_kept_at_sync(kb: KB) -> None:
    """The engine's IDF counts a concept's passages out of every passage of the knowledge base: the count is
    kept when the database syncs, not scanned on each question."""
    from generator.kb.search import search_db

    with search_db(KBPaths(kb.root)) as conn:
        kept = conn.execute("SELECT value FROM meta WHERE key = 'passages'").fetchone()
        counted = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
    assert kept is not None and int(kept[0]) == counted > 0


def test_an_english_question_over_english_pages_never_loads_jieba(tmp_path: Path) -> None:
    """Loading jieba's dictionary takes seconds: an English question's glossary twins (中间件 for
    middleware) are segmented only when some passage of the knowledge base is Chinese."""
    import subprocess
    import sys

    from generator.kb.search import search_db, sync_search_db

    paths = KBPaths(tmp_path)
    page = tmp_path / "site_src" / "topics" / "web" / "output" / "report.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        "---\ntitle: Web middleware\n---\n\n# Web middleware\n\nMiddleware wraps every request handler "
        "of the application, so logging and sessions run around each request.\n",
        encoding="utf-8",
    )
    sync_search_db(paths)
    with search_db(paths) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'han'").fetchone()[0] == "0"
    probe = (
        "import sys; from generator.kb.ask import retrieve; from generator.store import KBPaths; "
        f"from pathlib import Path; found = retrieve(KBPaths(Path({str(tmp_path)!r})), 'how is middleware run around each request'); "
        "print(bool(found.found), 'jieba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]
