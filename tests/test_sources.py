"""Search providers against a fake server speaking each API's documented shape, plus the local BM25 index."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from search_fakes import DEFAULT_DOCS, Doc, FakeSearchServer, Reply, fast_retry, payload, tiny_pdf

from generator.errors import (
    ConfigError,
    ProviderAuthError,
    ProviderError,
    ProviderRateLimited,
    ProviderResponseError,
    ProviderTimeout,
)
from generator.http import retry_after_seconds
from generator.sources.base import SearchProvider, create_search_provider
from generator.sources.local import LocalProvider, fts_query
from generator.sources.routing import route_query

KEYS = {"tavily": "TAVILY_API_KEY", "exa": "EXA_API_KEY", "brave": "BRAVE_API_KEY"}
# provider name → (path it calls, HTTP method)
PATHS = {
    "arxiv": ("/api/query", "GET"),
    "semantic_scholar": ("/graph/v1/paper/search", "GET"),
    "wikipedia": ("/w/api.php", "GET"),
    "tavily": ("/search", "POST"),
    "exa": ("/search", "POST"),
    "brave": ("/res/v1/web/search", "GET"),
    "searxng": ("/search", "GET"),
}


@pytest.fixture
def server() -> Iterator[FakeSearchServer]:
    with FakeSearchServer() as fake:
        yield fake


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in KEYS.values():
        monkeypatch.setenv(variable, f"key-for-{variable}")


def provider(name: str, server: FakeSearchServer, waits: list[float] | None = None) -> SearchProvider:
    return create_search_provider(name, base_url=server.url, retry=fast_retry(waits))


def test_registry_creates_every_provider_by_name() -> None:
    for name in {"local", *PATHS}:
        assert create_search_provider(name).name == name


@pytest.mark.parametrize("name", sorted(PATHS))
def test_provider_reads_documented_shape(name: str, server: FakeSearchServer) -> None:
    docs = [
        Doc("Paper <one>", "https://example.org/one", "First abstract."),
        Doc("Two", "https://example.org/two", "Second."),
    ]
    server.route(PATHS[name][0], payload(name, docs))
    hits = provider(name, server).search("retrieval augmented generation", limit=5)
    assert [h.url for h in hits] == ["https://example.org/one", "https://example.org/two"]
    assert hits[0].title == "Paper <one>"
    assert hits[0].content == "First abstract."
    assert {h.source for h in hits} == {name}
    assert server.requests[-1].method == PATHS[name][1]


def test_an_odd_result_is_skipped_and_the_others_kept(server: FakeSearchServer) -> None:
    results = [
        {"url": "https://example.org/one", "title": "One", "content": "First.", "score": "0.9"},
        {"url": "https://example.org/odd", "title": {"not": "a title"}},
        "not an object",
        {"url": "https://example.org/two", "title": None, "content": "Second.", "score": 0.5},
    ]
    server.route("/search", Reply(200, {"results": results}))
    hits = provider("tavily", server).search("x")
    assert [(h.url, h.title, h.score) for h in hits] == [
        ("https://example.org/one", "One", 0.9),  # a number sent as a string is read as a number
        ("https://example.org/two", "https://example.org/two", 0.5),
    ]


@pytest.mark.parametrize("name", sorted(PATHS))
def test_429_with_retry_after_then_success(name: str, server: FakeSearchServer) -> None:
    server.script(PATHS[name][0], Reply(429, {"error": "slow down"}, headers={"retry-after": "1"}))
    waits: list[float] = []
    hits = provider(name, server, waits).search("bm25 ranking", limit=2)
    assert [h.title for h in hits] == [d.title for d in DEFAULT_DOCS]
    assert waits == [1.0]
    assert server.hits(PATHS[name][0]) == 2


def test_retry_after_is_bounded_and_rate_limit_reported(server: FakeSearchServer) -> None:
    server.script("/search", *[Reply(429, {}, headers={"retry-after": "86400"})] * 3)
    waits: list[float] = []
    with pytest.raises(ProviderRateLimited, match="429"):
        provider("tavily", server, waits).search("x")
    assert waits == [2.0, 2.0]  # capped at max_wait; no wait after the last try
    assert server.hits("/search") == 3


def test_server_error_retried_then_reported(server: FakeSearchServer) -> None:
    server.script("/graph/v1/paper/search", *[Reply(503, "down")] * 3)
    with pytest.raises(ProviderResponseError, match="503"):
        provider("semantic_scholar", server).search("x")


def test_auth_error_not_retried(server: FakeSearchServer) -> None:
    server.script("/res/v1/web/search", Reply(401, {"error": "bad key"}))
    with pytest.raises(ProviderAuthError):
        provider("brave", server).search("x")
    assert server.hits() == 1


def test_bad_json_and_bad_xml(server: FakeSearchServer) -> None:
    server.route("/search", Reply(200, "<html>not json</html>", content_type="text/html"))
    with pytest.raises(ProviderResponseError, match="not JSON"):
        provider("tavily", server).search("x")
    server.route("/api/query", Reply(200, "<feed><unclosed>", content_type="application/atom+xml"))
    with pytest.raises(ProviderResponseError, match="XML"):
        provider("arxiv", server).search("x")


@pytest.mark.parametrize(
    ("name", "key"),
    [("tavily", "results"), ("exa", "results"), ("searxng", "results"), ("semantic_scholar", "data")],
)
def test_an_answer_without_its_result_list_is_refused(name: str, key: str, server: FakeSearchServer) -> None:
    path, _ = PATHS[name]
    server.route(path, Reply(200, '{"other": []}', content_type="application/json"))
    with pytest.raises(ProviderResponseError, match=f"no '{key}' list") as refused:
        provider(name, server).search("x")
    assert (refused.value.hint == "enable the json format") == (name == "searxng")


def test_xml_entity_expansion_refused(server: FakeSearchServer) -> None:
    bomb = '<?xml version="1.0"?><!DOCTYPE f [<!ENTITY a "aaaa">]><feed>&a;</feed>'
    server.route("/api/query", Reply(200, bomb, content_type="application/atom+xml"))
    with pytest.raises(ProviderResponseError):
        provider("arxiv", server).search("x")


def test_timeout_becomes_provider_timeout(server: FakeSearchServer) -> None:
    server.route("/search", Reply(200, {"results": []}, delay=0.5))
    slow = create_search_provider("searxng", base_url=server.url, retry=fast_retry(attempts=1), timeout=0.1)
    with pytest.raises(ProviderTimeout):
        slow.search("x")


@pytest.mark.parametrize("name", sorted(KEYS))
def test_missing_key_names_the_variable(
    name: str, monkeypatch: pytest.MonkeyPatch, server: FakeSearchServer
) -> None:
    monkeypatch.delenv(KEYS[name])
    with pytest.raises(ProviderAuthError) as caught:
        provider(name, server).search("x")
    assert KEYS[name] in caught.value.line()
    assert server.hits() == 0


def test_unreachable_server_is_a_provider_error() -> None:
    with FakeSearchServer() as gone:
        url = gone.url
    with pytest.raises(ProviderError, match="could not reach"):
        create_search_provider("searxng", base_url=url, retry=fast_retry(attempts=2)).search("x")


def test_wikipedia_language_option() -> None:
    from generator.sources.wikipedia import WikipediaProvider

    assert WikipediaProvider("zh").endpoint == "https://zh.wikipedia.org"
    assert WikipediaProvider().endpoint == "https://en.wikipedia.org"
    with pytest.raises(ConfigError):
        _ = WikipediaProvider("evil.example/x?").endpoint


def test_missing_searxng_url() -> None:
    with pytest.raises(ProviderAuthError, match="SEARXNG_URL"):
        create_search_provider("searxng").search("x")


def test_keys_and_parameters_sent(server: FakeSearchServer, monkeypatch: pytest.MonkeyPatch) -> None:
    provider("tavily", server).search("alpha", limit=3)
    assert server.requests[-1].headers["authorization"] == "Bearer key-for-TAVILY_API_KEY"
    assert server.requests[-1].json["query"] == "alpha"
    provider("exa", server).search("beta", limit=3)
    assert server.requests[-1].headers["x-api-key"] == "key-for-EXA_API_KEY"
    assert server.requests[-1].json["numResults"] == 3
    provider("brave", server).search("gamma")
    assert server.requests[-1].headers["x-subscription-token"] == "key-for-BRAVE_API_KEY"
    monkeypatch.setenv("SEMANTIC_SCHOLAR_API_KEY", "s2key")
    provider("semantic_scholar", server).search("delta")
    assert server.requests[-1].headers["x-api-key"] == "s2key"
    provider("arxiv", server).search("the transformer attention")
    assert server.requests[-1].query["search_query"] == ["all:transformer AND all:attention"]
    provider("searxng", server).search("epsilon")
    assert server.requests[-1].query["format"] == ["json"]


def test_arxiv_fields(server: FakeSearchServer) -> None:
    hit = provider("arxiv", server).search("rag")[0]
    assert hit.kind == "paper" and hit.authors == ["Ada Lovelace"] and hit.published == "2024-01-15"
    assert hit.extra["pdf"].endswith(".pdf")


def test_brave_snippet_markup_stripped(server: FakeSearchServer) -> None:
    assert provider("brave", server).search("x")[0].content == DEFAULT_DOCS[0].content


def test_academic_flags() -> None:
    flags = {name: create_search_provider(name).academic for name in PATHS}
    assert flags == {name: name in {"arxiv", "semantic_scholar"} for name in PATHS}


# --- routing ----------------------------------------------------------------------------------------

CONFIGURED = ["local:docs", "arxiv", "tavily", "semantic_scholar", "brave"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("a survey of retrieval augmented generation", ["arxiv", "semantic_scholar", "local:docs"]),
        ("大语言模型 论文", ["arxiv", "semantic_scholar", "local:docs"]),
        ("what does arXiv 2401.12345 prove", ["arxiv", "semantic_scholar", "local:docs"]),
        ("https://example.org/post", ["crawl", "local:docs"]),
        ("best pizza in Naples", ["tavily", "brave", "local:docs"]),
    ],
)
def test_route_query(query: str, expected: list[str]) -> None:
    assert route_query(query, CONFIGURED) == expected


def test_route_query_falls_back_to_what_is_configured() -> None:
    assert route_query("theorem proving", ["brave", "local:a"]) == ["brave", "local:a"]
    assert route_query("pizza", ["arxiv"]) == ["arxiv"]
    assert route_query("pizza", ["local:a", "local:b"]) == ["local:a", "local:b"]


# --- local ------------------------------------------------------------------------------------------


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "caching.md").write_text(
        "# Response caching\n\nThe cache stores every model reply on disk, keyed by the prompt hash. "
        "A cache hit skips the network call.\n\n"
        + "Unrelated paragraph about gardening and tomatoes. " * 20
        + "\n"
    )
    (root / "notes.txt").write_text("Gardening notes: tomatoes need sun. The cache in the shed is empty.\n")
    (root / "page.html").write_text(
        "<html><head><title>Search engines</title><script>var cache = 1;</script></head>"
        "<body><p>Search engines rank documents with BM25, a probabilistic ranking function.</p></body></html>"
    )
    (root / "paper.pdf").write_bytes(tiny_pdf("Quantum annealing schedules for optimisation"))
    (root / "zh.md").write_text(
        "# 机器学习\n\n机器学习是人工智能的一个分支，研究计算机如何从数据中学习。\n", encoding="utf-8"
    )
    (root / "ignored.py").write_text("cache cache cache cache")
    return root


def local(corpus: Path, tmp_path: Path) -> LocalProvider:
    found = create_search_provider(f"local:{corpus}", cache_dir=tmp_path / "cache")
    assert isinstance(found, LocalProvider)
    return found


def test_local_bm25_ranking(corpus: Path, tmp_path: Path) -> None:
    hits = local(corpus, tmp_path).search("cache hit model reply")
    assert [h.extra["path"] for h in hits][:2] == ["caching.md", "notes.txt"]
    assert hits[0].score > hits[1].score
    assert hits[0].title == "Response caching"
    assert "tomatoes" not in hits[0].content  # the best passage, not the whole file
    assert hits[0].url.startswith("file://") and hits[0].kind == "local"


def test_local_reads_html_and_pdf(corpus: Path, tmp_path: Path) -> None:
    provider = local(corpus, tmp_path)
    html = provider.search("probabilistic ranking function")
    assert html[0].extra["path"] == "page.html" and html[0].title == "Search engines"
    assert "var cache" not in html[0].content
    assert provider.search("annealing schedules")[0].extra["path"] == "paper.pdf"
    assert all(h.extra["path"] != "ignored.py" for h in provider.search("cache"))


def test_local_chinese_query(corpus: Path, tmp_path: Path) -> None:
    hits = local(corpus, tmp_path).search("人工智能 学习")
    assert hits and hits[0].extra["path"] == "zh.md"


def test_local_finds_a_numbered_name_written_as_one_word(tmp_path: Path) -> None:
    """ghc-proposals titles its 2024 edition "GHC2024": the index holds one word "ghc2024", which a search
    for "GHC 2024" (the words "ghc" and "2024") never matched, so the proposal was never a candidate."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ghc2024.md").write_text("# GHC2024\n\nThe GHC2024 language edition adds extensions.\n")
    (docs / "ghc-extensions.md").write_text("# Extensions\n\nGHC extensions, their lifecycle.\n")
    hits = local(docs, tmp_path).search("GHC 2024")
    assert [h.extra["path"] for h in hits][:1] == ["ghc2024.md"]


def test_local_incremental_reindex(corpus: Path, tmp_path: Path) -> None:
    provider = local(corpus, tmp_path)
    assert provider.refresh_index().added == 5
    assert provider.refresh_index().unchanged == 5
    (corpus / "notes.txt").write_text("Volcanoes erupt basalt lava.\n")
    (corpus / "caching.md").unlink()
    (corpus / "new.rst").write_text("Title\n=====\n\nGlaciers carve fjords.\n")
    stats = provider.refresh_index()
    assert (stats.added, stats.updated, stats.removed, stats.unchanged) == (1, 1, 1, 3)
    assert provider.search("basalt lava")[0].extra["path"] == "notes.txt"
    assert provider.search("glaciers")[0].extra["path"] == "new.rst"
    assert all(h.extra["path"] != "caching.md" for h in provider.search("cache reply"))


def test_local_index_of_another_schema_is_rebuilt(corpus: Path, tmp_path: Path) -> None:
    import sqlite3

    provider = local(corpus, tmp_path)
    assert provider.refresh_index().added == 5
    with sqlite3.connect(provider.db_path) as db:
        db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    fresh = local(corpus, tmp_path)  # a new process: nothing cached in memory
    assert fresh.refresh_index().added == 5  # tables recreated, every file indexed again
    assert fresh.search("cache hit model reply")[0].extra["path"] == "caching.md"


def test_local_does_not_follow_symlinks_out(corpus: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("platypus credentials\n")
    (corpus / "link.md").symlink_to(outside / "secret.md")
    (corpus / "linkdir").symlink_to(outside, target_is_directory=True)
    assert local(corpus, tmp_path).search("platypus") == []


@pytest.mark.parametrize(
    "query", ['"unbalanced', "NEAR(a b", "title:cache", "a AND OR NOT", "*", "-cache ^x"]
)
def test_local_query_syntax_is_sanitized(corpus: Path, tmp_path: Path, query: str) -> None:
    local(corpus, tmp_path).search(query)  # no sqlite3.OperationalError
    assert all(part.startswith('"') for part in fts_query(query).split(" OR ") if part)


def test_local_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        create_search_provider(f"local:{tmp_path / 'nope'}").search("x")


def test_bare_local_searches_site_src(tmp_path: Path) -> None:
    (tmp_path / "site_src").mkdir()
    (tmp_path / "site_src" / "page.md").write_text("# Okapi\n\nThe okapi lives in forests.\n")
    hits = create_search_provider("local", root=tmp_path, cache_dir=tmp_path / "c").search("okapi")
    assert hits[0].extra["path"] == "page.md"


@pytest.mark.parametrize(
    ("header", "seconds"),
    [("3", 3.0), ("0", 0.0), ("soon", None), (None, None), ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0)],
)
def test_retry_after_parsing(header: str | None, seconds: float | None) -> None:
    assert retry_after_seconds(header) == seconds


def test_local_concurrent_searches_share_one_index(corpus: Path, tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    provider = local(corpus, tmp_path)
    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(lambda q: provider.search(q)[0].extra["path"], ["annealing", "okapi BM25"] * 4))
    assert found == ["paper.pdf", "page.html"] * 4
