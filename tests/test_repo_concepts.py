"""Concept pages written by a model: the prompt carries the concept's doc passages and code facts with their
lines, every citation in the reply is checked against what was given (a sentence citing anything else is
left out), the offline page stands in when nothing cited is left, and an unchanged concept costs no call."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from llm_fakes import FakeAnthropic, FakeOpenAI, RecordedRequest
from repo_output_fakes import make_project
from test_repo_docs import PROJECT

from generator.app.targets import repo_target
from generator.config import Config, LLMConfig
from generator.llm import Provider, open_provider
from generator.llm.base import create_provider
from generator.repo.analyze.citations import Linker
from generator.repo.model import Citation
from generator.repo.run.pipeline import prepare
from generator.repo.run.study import Study
from generator.repo.synthesize.concepts import (
    Fact,
    checked_prose,
    concept_prompt,
    given_linker,
    write_concepts,
)
from generator.site.pages.repo_guide import write_guide_pages
from generator.store import KBPaths, read_page

_GIVEN = re.compile(r"(?P<path>[\w./-]+):(?P<start>\d+)-(?P<end>\d+)")


def good_reply(req: RecordedRequest) -> str:
    """Cites the first doc passage and the first code symbol it was given, and one range it was not."""
    if "Concept: " not in req.prompt:
        return "ok"  # the architect: not a plan, so the heuristic one is used
    given = [m.group(0) for m in _GIVEN.finditer(req.prompt)]
    doc = next(g for g in given if g.startswith("docs/"))
    code = next((g for g in given if g.startswith("tinyweb/")), doc)
    return (
        "## How it works\n\n"
        f"Each request path is matched against the routes in the order they were added ({doc}). "
        f"The router keeps its routes in one table ({code}).\n\n"
        "- The whole application is configured in one place (tinyweb/app.py:1-400). "
        f"Patterns hold placeholders ({doc}).\n"
    )


def concept_study(tmp_path: Path, llm: LLMConfig) -> tuple[KBPaths, Study, Provider]:
    root = make_project(tmp_path / "tinyweb", PROJECT)
    paths = KBPaths(tmp_path / "kb")
    config = Config(llm=llm)
    provider, _ = open_provider(paths, config.llm)
    study = prepare(paths, config, provider, repo_target(paths, config, str(root)))
    return paths, study, provider


def routing_page(paths: KBPaths, study: Study, provider: Provider) -> str:
    texts = write_concepts(study, provider)
    directory = study.harvest_dir
    write_guide_pages(paths, directory, study.docs, study.label, study.ctx.linker, texts)
    return read_page(next((directory / "guide").glob("*_routing.md")))[1]


@pytest.mark.parametrize("server", ["openai", "anthropic"])
def test_a_model_writes_the_concept_page_from_the_facts_it_was_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: str
) -> None:
    fake: FakeOpenAI | FakeAnthropic = (FakeOpenAI if server == "openai" else FakeAnthropic)(
        default=good_reply
    )
    with fake:
        if server == "openai":
            llm = LLMConfig(provider="openai", base_url=fake.base_url, max_retries=0, timeout=20)
        else:
            monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
            monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
            llm = LLMConfig(provider="anthropic", max_retries=0, timeout=20)
        paths, study, provider = concept_study(tmp_path, llm)
        body = routing_page(paths, study, provider)
        asked = [r for r in fake.requests if "Concept: " in r.prompt]
        # one call per concept page, and the same facts for both servers: passages and code, with their lines
        assert len(asked) == len(study.docs.concepts) if study.docs else False
        routing = next(r.prompt for r in asked if "Concept: Routing" in r.prompt)
        assert "docs/routing/index.md:8-8: The `Router` matches each request path" in routing
        assert re.search(r"class Router \(tinyweb/routing/router\.py:4-\d+\)", routing)
        assert re.search(r"method add \(tinyweb/routing/router\.py:7-9\): Add a route\.", routing)
    revision = study.checkout.revision
    assert "Written by" in body
    assert "Each request path is matched against the routes in the order they were added" in body
    assert f"/blob/{revision}/docs/routing/index.md#L8)" in body  # the doc citation, linked
    assert f"/blob/{revision}/tinyweb/routing/router.py#L4-" in body  # the code citation, linked
    # the sentence citing lines it was not given is gone; its neighbour in the same list item stays
    assert "configured in one place" not in body and "app.py:1-400" not in body
    assert "- Patterns hold placeholders" in body
    # the offline page's quoted passages are replaced by the prose; the code list stays
    assert "## In the code" in body and "*Source:*" not in body


def test_a_reply_citing_nothing_it_was_given_leaves_the_offline_page_and_asks_again(tmp_path: Path) -> None:
    def bogus(req: RecordedRequest) -> str:
        return "The router is fast (tinyweb/routing/router.py:90-99) and small (README.md:1-2)."

    with FakeOpenAI(default=bogus) as fake:
        llm = LLMConfig(provider="openai", base_url=fake.base_url, max_retries=0, timeout=20)
        paths, study, provider = concept_study(tmp_path, llm)
        body = routing_page(paths, study, provider)
        assert "The model's page could not be used" in body
        assert "The `Router` matches each request path" in body  # the docs' own passages, as offline
        assert "router is fast" not in body
        before = len(fake.requests)
        fresh = create_provider("openai", llm)  # not behind the LLM disk cache
        write_concepts(study, fresh)
        assert len(fake.requests) > before  # a page that fell back is not saved: asked again


def test_an_unchanged_concept_costs_no_call(tmp_path: Path) -> None:
    with FakeOpenAI(default=good_reply) as fake:
        llm = LLMConfig(provider="openai", base_url=fake.base_url, max_retries=0, timeout=20)
        paths, study, provider = concept_study(tmp_path, llm)
        first = write_concepts(study, provider)
        calls = len(fake.requests)
        # a new provider without the LLM disk cache's help: the concept stage's own cache answers
        fresh = create_provider("openai", llm)
        assert write_concepts(study, fresh) == first
        assert len(fake.requests) == calls and all(t.text for t in first)


def test_offline_there_is_no_model_page(tmp_path: Path) -> None:
    _, study, provider = concept_study(tmp_path, LLMConfig(provider="offline"))
    assert write_concepts(study, provider) == []


def test_a_sentence_citing_lines_outside_what_was_given_is_dropped() -> None:
    linker = Linker({"a.py": 50, "docs/x.md": 20}, "r" * 40, "https://github.com/o/r")
    given = given_linker(linker, [Fact("- a.py:10-20: f", (Citation("a.py", 10, 20, ""),))])
    text = "F works so (a.py:12-14). It also does this (a.py:30-31). And that (docs/x.md:1-2).\n```\nx = 1 (a.py:40-41)\n```"
    prose, dropped = checked_prose(text, given, linker)
    assert prose.startswith("F works so (a.py:12-14).\n```") and dropped == 2
    assert "x = 1 (a.py:40-41)" in prose  # code is the model's example, not a claim


def test_a_small_window_keeps_the_code_and_the_docs_first_passages(tmp_path: Path) -> None:
    many = "\n\n".join(
        f"Paragraph {i} explains one more detail of how routes are matched in order." for i in range(80)
    )
    root = make_project(
        tmp_path / "tinyweb", {**PROJECT, "docs/routing/more.md": f"# More routing\n\n{many}\n"}
    )
    with FakeOpenAI(default=good_reply) as fake:
        llm = LLMConfig(
            provider="openai", base_url=fake.base_url, max_retries=0, timeout=20, context_window=2048
        )
        paths = KBPaths(tmp_path / "kb")
        config = Config(llm=llm)
        provider, _ = open_provider(paths, config.llm)
        study = prepare(paths, config, provider, repo_target(paths, config, str(root)))
        assert study.docs is not None
        routing = next(c for c in study.docs.concepts if c.name == "Routing")
        prompt, given = concept_prompt(study, provider, routing)
    assert "class Router (tinyweb/routing/router.py:4-" in prompt.user  # the code is never what is cut
    assert "Paragraph 0 explains" in prompt.user and "Paragraph 79 explains" not in prompt.user
    # the docs come first in the prompt, in their order; only what was shown may be cited
    assert prompt.user.index("documentation says") < prompt.user.index("The code that implements it")
    last = max(int(n) for n in re.findall(r"Paragraph (\d+) explains", prompt.user))
    shown = next(p for page in routing.pages for p in page.passages if f"Paragraph {last} " in p.text)
    cut = next(p for page in routing.pages for p in page.passages if "Paragraph 79 " in p.text)
    assert given.check(shown.path, shown.start) is not None and given.check(cut.path, cut.start) is None


def test_two_concepts_of_one_name_each_get_their_own_page(tmp_path: Path) -> None:
    setup = "# Setup\n\nThe {part} is set up by calling `Router.add` once per route before serving.\n"
    files = {
        **PROJECT,
        "docs/server/index.md": setup.format(part="server"),
        "docs/server/more.md": "# More\n\nThe server listens on one port and hands requests to the router.\n",
        "docs/worker/index.md": setup.format(part="worker"),
        "docs/worker/more.md": "# More\n\nThe worker runs jobs in the background while requests are served.\n",
    }
    root = make_project(tmp_path / "tinyweb", files)
    with FakeOpenAI(default=good_reply) as fake:
        paths = KBPaths(tmp_path / "kb")
        config = Config(llm=LLMConfig(provider="openai", base_url=fake.base_url, max_retries=0, timeout=20))
        provider, _ = open_provider(paths, config.llm)
        study = prepare(paths, config, provider, repo_target(paths, config, str(root)))
        texts = write_concepts(study, provider)
        write_guide_pages(paths, study.harvest_dir, study.docs, study.label, study.ctx.linker, texts)
    pages = sorted((study.harvest_dir / "guide").glob("*_setup.md"))
    assert len(pages) == 2
    first, second = (read_page(p)[1] for p in pages)
    assert "docs/server/index.md#L3" in first and "docs/worker/" not in first
    assert "docs/worker/index.md#L3" in second and "docs/server/" not in second
