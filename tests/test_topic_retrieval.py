"""Topic retrieval finds the defining documents: the gate keeps a corpus that answers and refuses one that does
not, the relevance scale does not depend on the order steps finish in, proposals keep their own titles,
status and date, stored whole texts keep their headings and code, and Chinese follow-ups stay whole."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from topic_fakes import config, entry, make_corpus, offline

from generator.app.topic_target import topic_target
from generator.documents import read_file
from generator.documents.plain import markup_prose
from generator.errors import NoUsableSources
from generator.kb.synonyms import canonical_tags, default_synonyms
from generator.retrieval.scoring import Fields
from generator.site.pages.topic_raw import write_raw_pages
from generator.store import KBPaths, read_page
from generator.topic.judge import RelevanceJudge
from generator.topic.keyphrases import topic_phrases
from generator.topic.pipeline import run_topic_research
from generator.topic.plan import query_words
from generator.topic.verify import follow_up_query
from generator.topic.workspace import list_raw_sources

REPO_DOCS = Path(__file__).resolve().parents[1] / "docs"


def _research(root: Path, topic: str, **extra: object):
    paths = KBPaths(root)
    try:
        return paths, run_topic_research(
            paths, config(), offline(), topic_target(paths, entry(topic=topic, **extra))
        )
    except NoUsableSources:
        raise
    except Exception as exc:  # a partial failure (verification) still carries the run's result
        result = getattr(exc, "result", None)
        if result is None:
            raise
        return paths, result


def _stored(paths: KBPaths, slug: str) -> dict[str, object]:
    return {raw.url.rsplit("/", 1)[-1]: raw for raw in list_raw_sources(paths, slug)}


# --------------------------------------------------------------------------- the gate


def test_a_two_page_corpus_that_answers_gets_a_report(kb_root: Path) -> None:
    make_corpus(
        kb_root,
        {
            "widgets.md": "# Widgets\n\nWidgets are small gadgets.\n",
            "tools.md": "# Tools\n\nA hammer drives nails into wood; a saw cuts boards to length.\n",
        },
    )
    paths, result = _research(kb_root, "widgets and gadgets", verify=False)
    assert result.status == "completed"
    assert "widgets.md" in _stored(paths, result.slug) and "tools.md" not in _stored(paths, result.slug)


def test_the_projects_own_docs_answer_how_a_knowledge_base_is_published(kb_root: Path) -> None:
    shutil.copytree(REPO_DOCS, kb_root / "docs")
    paths, result = _research(kb_root, "publishing a knowledge base", verify=False)
    assert result.status == "completed"
    assert "operations.md" in _stored(paths, result.slug)  # "`deepkb publish` deploys … to GitHub Pages"


def test_the_same_docs_still_refuse_an_unrelated_topic(kb_root: Path) -> None:
    shutil.copytree(REPO_DOCS, kb_root / "docs")
    with pytest.raises(NoUsableSources):
        _research(kb_root, "sourdough bread fermentation", verify=False)


# --------------------------------------------------------------------------- one scale per run


def _doc(title: str, body: str) -> Fields:
    return Fields(title=title, headings="", body=body, lead=body[:200])


def test_a_settled_judge_scores_the_same_whatever_order_the_steps_finish_in() -> None:
    seed = [
        ("a", _doc("Missing data", "Missing data is marked NA; missing values propagate through sums.")),
        ("b", _doc("NA support", "NA support via a special dtype keeps missing data out of results.")),
        ("c", _doc("Roadmap", "The roadmap lists work on dtypes and on missing data.")),
    ]
    step_one = [("d", _doc("Masked arrays", "Masked arrays hide missing data behind a mask " * 3))]
    step_two = [("e", _doc("Changelog", "Fixed missing data handling in one function."))]
    runs = []
    for batches in ([step_one, step_two], [step_two, step_one]):
        judge = RelevanceJudge("missing data")
        judge.judge(seed, "missing data")
        judge.settle()
        scores = {
            key: v.topic.score
            for batch in batches
            for key, v in zip((k for k, _ in batch), judge.judge(batch, "what is missing data?"), strict=True)
        }
        runs.append((scores, judge.threshold()))
    assert runs[0] == runs[1]


# --------------------------------------------------------------------------- titles, status, date


@pytest.mark.parametrize(
    ("name", "text", "title", "status", "date"),
    [
        (
            "2394-async_await.md",
            "- Feature Name: `async_await`\n- Start Date: 2018-03-30\n\n# Summary\n\nAsync functions.\n",
            "async await",
            "",
            "2018-03-30",
        ),
        (
            "0243-trait-based-exception-handling.md",
            "- Start Date: 2014-08-24\n- RFC PR: 243\n\n# Summary\n\nAdd a `?` operator.\n",
            "trait based exception handling",
            "",
            "2014-08-24",
        ),
        (
            "pep-0557.rst",
            "PEP: 557\nTitle: Data Classes\nStatus: Final\nCreated: 02-Jun-2017\n\nAbstract\n========\n\nx\n",
            "Data Classes",
            "final",
            "2017-06-02",
        ),
        (
            "nep-0017.rst",
            "=========================\nNEP 17 — Split out masked arrays\n=========================\n\n"
            ":Author: Someone\n:Status: Rejected\n:Created: 2018-03-22\n\nAbstract\n--------\n\nx\n",
            "NEP 17 — Split out masked arrays",
            "rejected",
            "2018-03-22",
        ),
        (
            "notes.md",
            "---\ntitle: Notes\nstatus: Superseded by 12\ndate: 2020-01-02\n---\n# Intro\n",
            "Notes",
            "superseded",
            "2020-01-02",
        ),
    ],
)
def test_a_proposal_is_titled_dated_and_labelled_by_its_own_header(
    tmp_path: Path, name: str, text: str, title: str, status: str, date: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    doc = read_file(tmp_path / name)
    assert (doc.title, doc.status, doc.date) == (title, status, date)


def test_stored_sources_carry_their_title_status_and_date_and_keep_code(kb_root: Path) -> None:
    make_corpus(
        kb_root,
        {
            "0001-pattern-matching.md": "- Start Date: 2019-05-01\n- Status: accepted\n\n# Summary\n\n"
            "Pattern matching lets a match statement compare a value against patterns and bind the parts "
            "that match.\n\n# Guide\n\nPattern matching is written like this:\n\n```python\nmatch point:\n"
            "    case (0, 0):\n        print('origin')\n```\n\nEach case of pattern matching is tried in "
            "order until one matches the value.\n",
            "other.md": "# Cooking rice\n\nRinse the rice, add water and simmer it for twelve minutes.\n",
        },
    )
    paths, result = _research(kb_root, "pattern matching", verify=False)
    raw = _stored(paths, result.slug)["0001-pattern-matching.md"]
    assert raw.title == "pattern matching" and raw.status == "accepted" and raw.published == "2019-05-01"
    assert "case (0, 0):" in raw.text and "# Guide" in raw.text
    write_raw_pages(paths, result.slug, list_raw_sources(paths, result.slug), provider="offline")
    meta, body = read_page(paths.topic_dir(result.slug) / raw.page)
    assert meta["status"] == "accepted" and meta["date"] == "2019-05-01"
    assert "```python\nmatch point:\n    case (0, 0):" in body  # shown as code, not escaped prose


def test_structured_plain_text_keeps_headings_and_code_blocks_whole() -> None:
    text = "# Title\n\nSome prose that says a thing.\n\n```python\nx = 1\n\ny = 2\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    whole = markup_prose(text, "markdown", structure=True)
    assert whole.startswith("# Title\n\nSome prose that says a thing.")
    assert "```python\nx = 1\n" in whole and "y = 2\n```" in whole
    assert "| a |" not in whole and markup_prose(text, tables=False) == "Some prose that says a thing."
    assert whole.endswith("**Title:**\n- 1 (b: 2).")  # a table is its rows, each under its columns' headers


# --------------------------------------------------------------------------- Chinese


def test_a_follow_up_query_names_each_word_once_and_keeps_chinese_phrases_whole() -> None:
    assert follow_up_query(query_words("widgets and gadgets"), "How do widgets and gadgets work?") == (
        "widgets gadgets work"
    )
    query = follow_up_query(query_words("Rust 异步编程 async/await"), "Rust 异步编程 async/await 如何工作？")
    assert "异步编程" in query and "异 步" not in query and query.count("Rust") == 1


def test_chinese_and_english_topics_on_one_subject_share_their_tags() -> None:
    synonyms = default_synonyms()
    english = canonical_tags(topic_phrases("Rust async/await"), synonyms)
    chinese = canonical_tags(topic_phrases("Rust 异步编程"), synonyms)
    assert {"rust", "async"} <= set(english) & set(chinese)


def test_a_chinese_topic_asks_for_its_english_terms() -> None:
    assert "missing data" in RelevanceJudge("缺失数据").expanded_query("缺失数据与 NA 支持")


def test_meeting_notes_beside_the_proposal_are_not_its_sources(kb_root: Path) -> None:
    # npm RFCs' meetings/ and the GraphQL WG's notes discuss the proposals beside them ("Workspaces v2:",
    # "1. PR: #375 …"); they had been quoted as how workspaces work
    rfc = "# npm workspaces\n\n## Summary\n\nWorkspaces manage multiple packages from one root package.\n\n"
    rfc += "## Detailed Explanation\n\nThe workspaces property lists the folders of the nested packages.\n"
    minutes = "# Open RFC Meeting (npm)\n\n### Attendees\n\n- Ruy\n\n### Agenda\n\n"
    minutes += "1. PR: #375 workspaces shared dependencies\n\n- Workspaces v2: nested workspaces packages\n"
    notes = "# WG Notes - March 2021\n\n## Workspaces\n\n- workspaces packages hoisting discussed\n"
    # a working group's paper kept with the meetings, titled after the subject: no account of it either
    group = "# Workspaces: next steps\n\nThe group discussed workspaces and nested workspaces packages.\n"
    for folder in ("rfcs", "meetings/working-groups", "notes"):
        (kb_root / "docs" / folder).mkdir(parents=True)
    files = {"rfcs/0026-workspaces.md": rfc, "meetings/2021-05-12.md": minutes, "notes/2021-03.md": notes}
    make_corpus(kb_root, {**files, "meetings/working-groups/workspaces-next.md": group})
    paths, result = _research(kb_root, "workspaces", verify=False)
    assert set(_stored(paths, result.slug)) == {"0026-workspaces.md"}
