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
from generator.errors import ResearchError
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
    """A well-behaved model: says what the first doc passage and the first code symbol it was given say, citing
    them, and writes one sentence citing a range it was not given."""
    if "Concept: " not in req.prompt:
        return "ok"  # the architect: not a plan, so the heuristic one is used
    given = [m.group(0) for m in _GIVEN.finditer(req.prompt)]
    doc = next(g for g in given if g.startswith("docs/"))
    said = req.prompt.split(f"- {doc}: ", 1)[1].split("\n", 1)[0].rstrip(".")
    code = next((g for g in given if g.startswith("tinyweb/")), doc)
    patterns = next((g for g in given if g.startswith("docs/routing/patterns")), doc)
    return (
        "## How it works\n\n"
        f"As the documentation says, {said} ({doc}). "
        f"The router matches paths to handlers; `add` adds a route ({code}).\n\n"
        "- The whole application is configured in one place (tinyweb/app.py:1-400). "
        f"A pattern is a path with placeholders ({patterns}).\n"
    )


def faithful_reply(req: RecordedRequest) -> str:
    """A model that only says what the first doc passage it was given says, citing it."""
    if "Concept: " not in req.prompt:
        return "ok"
    doc = next(m.group(0) for m in _GIVEN.finditer(req.prompt) if m.group(0).startswith("docs/"))
    said = req.prompt.split(f"- {doc}: ", 1)[1].split("\n", 1)[0].rstrip(".")
    return f"## What it is\n\nAs the documentation says, {said} ({doc}).\n"


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
    assert "matches each request path against its routes in the order they were added" in body
    assert f"/blob/{revision}/docs/routing/index.md#L8)" in body  # the doc citation, linked
    assert f"/blob/{revision}/tinyweb/routing/router.py#L4-" in body  # the code citation, linked
    # the sentence citing lines it was not given is gone; its neighbour in the same list item stays
    assert "configured in one place" not in body and "app.py:1-400" not in body
    assert "- A pattern is a path with placeholders" in body
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
    with FakeOpenAI(default=faithful_reply) as fake:
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
    given = given_linker(
        linker,
        [
            Fact(
                "- a.py:10-20: function parse reads the options of a command line",
                (Citation("a.py", 10, 20, ""),),
            ),
            Fact(
                "- docs/x.md:3-5 (python example):\n```\nx = parse(argv)\n```",
                (Citation("docs/x.md", 3, 5, ""),),
            ),
        ],
    )
    text = (
        "The parse function reads the options of a command line (a.py:12-14). It also reads the options "
        "of a command line (a.py:30-31). And that (docs/x.md:1-2).\n"
        "```python\nx = parse(argv)\n```\n"
    )
    prose, dropped = checked_prose(text, given, linker)
    assert (
        prose
        == "The parse function reads the options of a command line (a.py:12-14).\n```python\nx = parse(argv)\n```"
    )
    assert dropped == 2


# What SmolLM2-135M-Instruct wrote for koa's "Koa vs Express" concept (bench/local_model.py, koa 3.2.0): the
# prompt's list of doc passages echoed, each citation kept and the passage replaced by words of its own; the
# prompt's heading echoed as a sentence; code it made up.
_FAQ = {
    "docs/faq.md:16-17": "Koa is not Express: Koa is more like Connect, but a lot of the Express goodies were moved "
    "to the middleware level in Koa to help form a stronger foundation.",
    "docs/faq.md:28-31": "Koa does not include a router; routing is done by middleware such as koa-router.",
    "docs/faq.md:40-43": "Koa's context exposes the request and the response of one request to every middleware.",
}
SMOLLM2_ECHO = (
    "What the project's documentation says about Koa is:\n"
    "- docs/faq.md:16-17: It's not just about this, but also what is in the middleware layer; it's about the "
    "foundation of all Koa.\n"
    "- docs/faq.md:28-31: It's not just what we use, but also how. In some cases, how is used can be different "
    "from how things are used in other places.\n"
    "- docs/faq.md:40-43: It's not just what we use, but also how many different ways we can implement it; this "
    "makes it a very important and useful concept for all parts of the stack.\n"
    "```javascript\nconst { koa-body-parser } = require('koa');\nclass KOAxDreamList({ type }) => ({});\n```\n"
)


def _faq_given() -> tuple[Linker, Linker]:
    linker = Linker({"docs/faq.md": 80, "lib/application.js": 300}, "r" * 40, "https://github.com/o/r")
    facts = []
    for span, said in _FAQ.items():
        path, lines = span.split(":")
        start, end = (int(n) for n in lines.split("-"))
        facts.append(Fact(f"- {span}: {said}", (Citation(path, start, end, ""),), "docs"))
    return linker, given_linker(linker, facts)


def test_a_weak_models_echo_of_the_facts_with_its_own_words_is_refused() -> None:
    linker, given = _faq_given()
    with pytest.raises(ResearchError, match="not grounded"):
        checked_prose(SMOLLM2_ECHO, given, linker)


def test_only_grounded_sentences_and_copied_code_stay() -> None:
    linker, given = _faq_given()
    text = (
        "## Koa and Express\n\n"
        "Koa moved the Express goodies to the middleware level (docs/faq.md:16-17). Koa has no router; routing "
        "is done by middleware (docs/faq.md:28-31). It's not just what we use, but also how.\n\n"
        "- The context exposes the request and the response to every middleware (docs/faq.md:40-43).\n"
        "- Middleware such as koa-router does the routing (docs/faq.md:28-31).\n\n"
        "## Extra\n\nSure, here is a guide page on the concept of Koa vs Express:\n"
        "```javascript\nconst app = new Koa();\n```\n"
        "Koa moved the Express goodies to the middleware level (docs/faq.md:16-17).\n"
    )
    prose, dropped = checked_prose(text, given, linker)
    assert prose.startswith("## Koa and Express\n\nKoa moved the Express goodies")
    assert "routing is done by middleware (docs/faq.md:28-31)." in prose
    # the sentence of its own, the echo of the request, the invented code, the repeat, and the heading
    # left with nothing under it
    assert "not just what we use" not in prose and "Sure, here" not in prose and "new Koa" not in prose
    assert prose.count("Express goodies") == 1 and "## Extra" not in prose
    assert dropped == 4


def test_a_weak_models_echo_falls_back_to_the_offline_page_saying_why(tmp_path: Path) -> None:
    def echo(req: RecordedRequest) -> str:
        if "Concept: " not in req.prompt:
            return "ok"
        spans = [m.group(0) for m in _GIVEN.finditer(req.prompt) if m.group(0).startswith("docs/")]
        return "What the project's documentation says about it is:\n" + "".join(
            f"- {span}: It's not just what we use, but also how; this makes it a very important and useful "
            "concept for all parts of the stack.\n"
            for span in spans
        )

    with FakeOpenAI(default=echo) as fake:
        llm = LLMConfig(provider="openai", base_url=fake.base_url, max_retries=0, timeout=20)
        paths, study, provider = concept_study(tmp_path, llm)
        body = routing_page(paths, study, provider)
    assert "The model's page could not be used (most of the model's page was not grounded" in body
    assert "The `Router` matches each request path" in body  # the docs' own passages, as offline
    assert "useful concept" not in body


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


def test_the_prompt_carries_the_code_path_the_page_shows() -> None:
    from generator.repo.docs.model import DocConcept, DocPage
    from generator.repo.model import Citation, FlowBranch, FlowHop
    from generator.repo.synthesize.concepts import concept_facts

    match = FlowHop("Router.dispatch", "Router.match", Citation("web/router.py", 12, 12, ""))
    normalize = FlowHop("Router.match", "Router.normalize", Citation("web/router.py", 20, 20, ""))
    call = FlowHop("Router.dispatch", "Router.call", Citation("web/router.py", 13, 13, ""))
    flow = (FlowBranch(match, (FlowBranch(normalize),)), FlowBranch(call))
    concept = DocConcept("Routing", "routing", (DocPage("docs/routing.md", "Routing", ()),), flow=flow)
    said = [f.text for f in concept_facts(concept) if f.part == "calls"]
    assert said == [  # depth first, each call at its line: the same path the page draws
        "1. Router.dispatch calls Router.match (web/router.py:12)",
        "2. Router.match calls Router.normalize (web/router.py:20)",
        "3. Router.dispatch calls Router.call (web/router.py:13)",
    ]
