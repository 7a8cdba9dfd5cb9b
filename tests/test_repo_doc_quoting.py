"""What a guide page quotes of a docs page. A page quotes a bounded number of passages: a long page cut to
fit keeps every section's opening, not its first sections whole (mermaid's usage page had lost its API and
syntax-check sections, graphrag's configuration page thirteen of its settings), and the pages of one
concept share the budget by need: a one-line page leaves what it does not use to the long page beside it.
A heading the page repeats ("Tokens", "Example") is shown with the heading it sits under."""

from __future__ import annotations

from pathlib import Path

from repo_output_fakes import make_project, offline_setup

from generator.app.targets import repo_target
from generator.documents import read_text
from generator.repo.analyze.citations import Linker
from generator.repo.docs.passages import PASSAGES_PER_PAGE, passages, within
from generator.repo.docs.project import read_project_docs
from generator.repo.facts.extract import extract_facts
from generator.repo.map.walk import map_repository
from generator.repo.run.pipeline import run_repo_research
from generator.site.pages.repo import publish_repo
from generator.store import read_page


def _setting(i: int, paragraphs: int) -> str:
    body = "".join(
        f"Paragraph {j} about setting number {i} says a little more about what it changes.\n\n"
        for j in range(paragraphs)
    )
    return f"## setting{i}\n\nSetting {i} controls one behaviour of the tool when it runs.\n\n{body}"


def test_a_long_page_cut_to_fit_keeps_every_sections_opening_in_order() -> None:
    text = "# Configuration\n\n" + "".join(_setting(i, 5) for i in range(20))
    quoted = passages(read_text(text, name="docs/configuration.md"), limit=40)
    assert len(quoted) == 40
    assert [p.heading for p in quoted if p.text.startswith("Setting ")] == [f"setting{i}" for i in range(20)]
    assert [p.start for p in quoted] == sorted(p.start for p in quoted)  # the page's own order
    assert passages(read_text(text, name="docs/configuration.md"), limit=1_000)[-1].heading == "setting19"


def test_a_lead_in_and_the_block_it_introduces_are_kept_or_left_together() -> None:
    section = (
        "## step{i}\n\nStep {i} is one more thing the reader does before the tool is ready.\n\n"
        "Run the following command to do it:\n\n```shell\ntool step {i}\n```\n\n"
        "Afterwards the step is finished and the next one can begin right away.\n\n"
    )
    text = "# Steps\n\n" + "".join(section.format(i=i) for i in range(6))
    document = read_text(text, name="docs/steps.md")
    quoted = passages(document, limit=18)  # each step's opening, then its lead-in with its command
    assert [p.kind for p in quoted] == ["paragraph", "paragraph", "code"] * 6
    quoted = passages(document, limit=15)  # the fifth lead-in fits, its command does not: both are left
    assert len(quoted) == 14
    assert all(quoted[i + 1].kind == "code" for i, p in enumerate(quoted) if p.text.endswith(":"))


def _resolvers(items: int) -> str:
    names = ["create", "decode", "deprecated", "env", "select", "dict"][:items]
    listed = "".join(f"* oc.{name}: what the {name} resolver does\n" for name in names)
    return f"## Built-in resolvers\n\nThe tool comes with a set of built-in resolvers:\n\n{listed}\n"


def test_a_long_page_cut_to_fit_keeps_an_announced_list_whole_and_every_other_passage() -> None:
    # omegaconf's usage.rst: "Built-in resolvers" kept one of its six items ("oc.deprecated: Deprecate a key"
    # was dropped as a deprecation notice, and each further item counted as a passage of its own)
    settings = [_setting(i, 3) for i in range(20)]
    whole, alone = (
        "# Configuration\n\n" + "".join(settings[:5]) + _resolvers(n) + "".join(settings[5:]) for n in (6, 1)
    )
    quoted = passages(read_text(whole, name="docs/usage.md"), limit=50)
    items = [p.text for p in quoted if p.kind == "item"]
    assert items == [
        f"oc.{name}: what the {name} resolver does"
        for name in ["create", "decode", "deprecated", "env", "select", "dict"]
    ]
    others = [p.text for p in passages(read_text(alone, name="docs/usage.md"), limit=50) if p.kind != "item"]
    assert [p.text for p in quoted if p.kind != "item"] == others  # the list costs what one item did


def test_a_budget_over_quoted_passages_takes_a_list_whole() -> None:
    document = read_text(
        "# Options\n\n" + _resolvers(6) + "".join(_setting(i, 1) for i in range(3)), name="docs/o.md"
    )
    quoted = passages(document)
    taken = within(quoted, 3)  # the lead-in, the list (the cost of one passage), a setting's opening
    assert [p.kind for p in taken] == ["paragraph", *["item"] * 6, "paragraph"]
    assert within(quoted, 1) == ()  # a lead-in is not left without its list


def test_a_concepts_short_pages_leave_their_share_to_its_long_page(tmp_path: Path) -> None:
    notes = {
        f"docs/config/note{i}.md": f"# Note {i}\n\nNote {i} says one short thing about configuring the tool.\n"
        for i in range(9)
    }
    files = {
        "README.md": "# tool\n\nTool logs messages to the places you choose, with levels and colours.\n",
        "docs/index.md": "# Tool\n\nTool logs messages.\n",  # the docs root's own page: config/ is one part
        "docs/config/usage.md": "# Usage\n\n" + "".join(_setting(i, 3) for i in range(30)),
        **notes,
        "tool/core.py": "def log():\n    return 1\n",
    }
    root = make_project(tmp_path / "tool", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tool")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    (config,) = [c for c in docs.concepts if any(p.path == "docs/config/usage.md" for p in c.pages)]
    usage = next(p for p in config.pages if p.path == "docs/config/usage.md")
    assert len(usage.passages) == PASSAGES_PER_PAGE  # an even share would have been 300 // 10 = 30
    assert {p.heading for p in usage.passages} >= {f"setting{i}" for i in range(30)}
    assert all(len(p.passages) == 1 for p in config.pages if p.path != "docs/config/usage.md")


def test_a_page_alone_in_its_concept_is_quoted_past_the_shared_pages_cap(tmp_path: Path) -> None:
    files = {
        "README.md": "# tool\n\nTool logs messages to the places you choose, with levels and colours.\n",
        "docs/flowchart.md": "# Flowchart syntax\n\n" + "".join(_setting(i, 3) for i in range(30)),
        **{  # docs of several pages: not one page that is the whole manual (read by its sections then)
            f"docs/chart{i}.md": f"# Chart {i}\n\nChart {i} draws one kind of diagram from a short text.\n"
            for i in range(3)
        },
        "tool/core.py": "def log():\n    return 1\n",
    }
    root = make_project(tmp_path / "tool", files)
    repo_map = map_repository(root)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "r" * 40, "https://github.com/acme/tool")
    docs = read_project_docs(root, repo_map, extract_facts(root, repo_map), linker)
    (page,) = [p for c in docs.concepts for p in c.pages if p.path == "docs/flowchart.md"]
    assert len(page.passages) == 120 > PASSAGES_PER_PAGE  # every block of its thirty sections


def test_a_heading_the_page_repeats_is_shown_with_the_heading_above_it() -> None:
    text = (
        "# Prompts\n\n## Local Search\n\nLocal search answers a question about one entity and its neighbours.\n\n"
        "### Tokens\n\n- {context_data} - the tables the local search context builder selected.\n\n"
        "## Drift Search\n\nDrift search starts from communities and then follows local leads.\n\n"
        "### Tokens\n\n- {context_data} - the tables the drift search context builder selected.\n\n"
        "## Global Search\n\nGlobal search maps over community reports and reduces the answers.\n"
    )
    headings = list(dict.fromkeys(p.heading for p in passages(read_text(text, name="docs/prompts.md"))))
    assert headings == [
        "Local Search",
        "Local Search › Tokens",
        "Drift Search",
        "Drift Search › Tokens",
        "Global Search",
    ]


def test_a_heading_repeating_the_one_above_it_is_shown_once() -> None:
    """huma's feature pages: "# Middleware" then "## Middleware {.hidden}" (hidden on the site, a repeat of
    the title): the page showed "Middleware › Middleware"."""
    text = (
        "# Middleware\n\nAdd middleware to your API for authentication, logging and more.\n\n"
        "## Middleware {.hidden}\n\nHuma has support for two variants of middleware, router and API ones.\n"
    )
    headings = {p.heading for p in passages(read_text(text, name="docs/middleware.md"))}
    assert headings == {"Middleware"}


def test_a_page_titled_by_its_front_matter_opens_under_its_title_not_its_path(tmp_path: Path) -> None:
    """svelte's docs pages have no heading of their own: their opening had been headed by the file's path
    ("## documentation/docs/03-template-syntax/12-bind.md")."""
    files = {
        "README.md": "# tool\n\nTool keeps a form's fields and the program's values in step, both ways.\n",
        "docs/bind.md": (
            "---\ntitle: bind:\n---\n\nData ordinarily flows down, from parent to child, until a binding.\n\n"
            "## Function bindings\n\nA binding may also call a getter and a setter you give it.\n"
        ),
        "docs/events.md": "---\ntitle: Events\n---\n\nHandlers are attributes starting with on, like onclick.\n",
        "tool/core.py": "def bind():\n    return 1\n",
    }
    root = make_project(tmp_path / "tool", files)
    paths, config, provider = offline_setup(tmp_path / "kb")
    result = run_repo_research(
        paths, config, provider, repo_target(paths, config, str(root)), publish=publish_repo
    )
    guide = result.study.harvest_dir / "guide"
    text = "\n".join(read_page(page)[1] for page in sorted(guide.glob("*.md")))
    assert "## bind:\n" in text and "## Function bindings" in text
    assert "## docs/bind.md" not in text and "## docs/events.md" not in text


def test_what_a_lead_in_announces_is_quoted_however_short() -> None:
    """Chart.js' "the following options are available:" then "Namespace: `options.animations[animation]`";
    a short line no lead-in announces is still too short to quote."""
    text = (
        "# Animations\n\n## Animation configuration\n\n"
        "For the animation configuration, the following options are available:\n\n"
        "Namespace: `options.animations[animation]`\n\n"
        "Also `options.transitions`\n\n"
        "Each option below changes how one property of an element is animated over time.\n\n"
        "See also: transitions.\n\n"
        "## Other\n\nAnimations can be turned off for the whole chart with one option.\n\nThat is all.\n"
    )
    quoted = [p.text for p in passages(read_text(text, name="docs/animations.md"))]
    assert "Namespace: `options.animations[animation]`" in quoted and "Also `options.transitions`" in quoted
    assert "That is all." not in quoted  # announced by nothing


def test_a_list_item_telling_the_flow_is_quoted_after_its_steps_without_its_bullet() -> None:
    """webargs' flow quoted an upgrading note's item as "`use_args` → `parse`: - A schema …": a list item
    is one passage after the steps, written as prose."""
    from generator.repo.docs.model import DocPassage
    from generator.repo.model import FlowPassage
    from generator.site.pages.repo import flow_passage_markdown

    item = DocPassage(
        "docs/usage.rst", 3, 4, "item", "A schema with `unknown` set is passed to `use_args` or `parse`"
    )
    linker = Linker({"docs/usage.rst": 10}, "r" * 40, "https://github.com/acme/tool")
    written = flow_passage_markdown(FlowPassage(item, ("use_args", "parse")), linker)
    assert written.startswith("- `use_args` → `parse`: A schema with `unknown` set is passed")


def test_the_program_an_example_heading_opens_with_is_quoted_whole() -> None:
    """huma's how-to pages put their 64- and 75-line programs right under "## Example" (image-response.md:13-76,
    graceful-shutdown.md:15-89): the heading introduces the code as a lead-in would, and the merged "How to"
    page showed neither. Long code under any other heading, with nothing introducing it, is still left."""
    program = (
        "```go\npackage main\n\n" + "".join(f"// step {i} of the program\n" for i in range(70)) + "```\n\n"
    )
    text = (
        "# Graceful Shutdown\n\n## Stopping the Server\n\n"
        "Servers should stop accepting new requests and let in-flight requests finish first.\n\n"
        f"## Example\n\n{program}## Listing\n\n{program}"
    )
    quoted = passages(read_text(text, name="docs/how-to/graceful-shutdown.md"))
    assert [(p.heading, p.kind) for p in quoted if p.kind == "code"] == [("Example", "code")]
    assert quoted[-1].text.endswith("step 69 of the program")  # whole
