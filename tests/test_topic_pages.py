"""Topic pages from records (the page layer), workspace identity, honest outcomes and bounded input."""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from report_quality import report_quality
from site_checks import citations_in, reference_gaps
from topic_fakes import config, entry, make_corpus, offline, read_json, topic_dir

from generator.app.topic_target import topic_target
from generator.cli import cli
from generator.errors import NoUsableSources, UsageError
from generator.kb.index import update_index
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.topic import identity
from generator.topic import workspace as wsp
from generator.topic.pipeline import run_topic_research
from generator.topic.report import Report
from generator.topic.state import TopicMeta

TOPIC_PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "topic"


def _research(root: Path, **options):
    options.setdefault("refresh", True)
    return run_topic_research(
        KBPaths(root),
        config(),
        offline(),
        topic_target(KBPaths(root), options.pop("topic_entry", entry()), **options),
        publish=publish_topic,
    )


def test_research_never_imports_the_site_layer_or_jinja() -> None:
    for module in sorted(TOPIC_PACKAGE.glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            for name in names:
                assert "jinja2" not in name, (module.name, name)
                assert not name.startswith(("generator.site", "..site")), (module.name, name)


# --------------------------------------------------------------------------- the pages


def test_each_page_has_its_own_title_and_opens_with_content(kb_root: Path) -> None:
    make_corpus(kb_root)
    _research(kb_root, quick=True)
    folder = topic_dir(kb_root)
    titles = {
        rel: read_page(folder / rel)[0]["title"] for rel in ("index.md", "output/report.md", "sources.md")
    }
    titles["processed/analysis.md"] = read_page(folder / "processed/analysis.md")[0]["title"]
    assert titles == {
        "index.md": "vector databases",
        "output/report.md": "vector databases — report",
        "sources.md": "vector databases — sources",
        "processed/analysis.md": "vector databases — analysis",
    }
    _, report = read_page(folder / "output" / "report.md")
    assert report.index("## Summary") < report.index("Produced offline") < report.index("## What are")


def test_report_references_are_contiguous_and_every_number_resolves(kb_root: Path) -> None:
    make_corpus(kb_root)
    _research(kb_root, quick=True)
    folder = topic_dir(kb_root)
    _, page = read_page(folder / "output" / "report.md")
    record = wsp.load_record(folder / "processed" / "report.json", Report)
    numbers = sorted({n for n, _ in citations_in(page)})
    assert numbers == list(range(1, len(record.references) + 1))
    assert all(record.references[n - 1] == sid for n, sid in citations_in(page))
    assert reference_gaps(page) == 0
    assert report_quality(record)["repeated_sentences"] == 0
    broken = page.replace("- \\[2\\] ", "- \\[9\\] ")  # the measure catches a gap
    assert reference_gaps(broken) > 0


def test_raw_page_holds_the_whole_text_and_links_back_to_citing_topics(kb_root: Path) -> None:
    long_text = "# Vector databases\n\n" + " ".join(
        f"Vector databases keep embedding number {n} in an index for semantic search." for n in range(400)
    )
    make_corpus(kb_root, {"long.md": long_text})
    make_corpus(kb_root)
    _research(kb_root, quick=True)
    result = _research(kb_root, quick=True, topic_entry=entry(slug="vector-databases-again"))
    paths = KBPaths(kb_root)
    first_ws, second_ws = wsp.Workspace(paths, "vector-databases"), wsp.Workspace(paths, result.slug)
    keys = [{wsp.document_key(sid) for sid in _report(ws).references} for ws in (first_ws, second_ws)]
    shared = sorted(keys[0] & keys[1])
    assert shared  # the second topic found the first one's sources again (through the knowledge base)
    page = next(first_ws.raw_dir.glob(f"*-{shared[0]}.md"))
    meta, body = read_page(page)
    assert "Cited by" in body and "(../../vector-databases/output/report.md)" in body
    assert f"(../../{result.slug}/output/report.md)" in body  # the later topic was added to the earlier page
    long_page = next(p for p in first_ws.raw_dir.glob("*.md") if read_page(p)[0]["url"].endswith("long.md"))
    long_meta, long_body = read_page(long_page)
    assert "embedding number 399 in an index" in long_body and long_meta["excerpt"] is False
    assert "the whole text as extracted" in long_body


def test_excerpt_says_so_with_the_original_length(kb_root: Path) -> None:
    class Hit:
        url, title, source, kind, authors = "https://a.example/doc", "Doc", "web", "web", []
        content = "First passage about vectors.\n\n…\n\nSecond passage about indexes."
        extra = {"full_chars": 48_000}

    paths = KBPaths(kb_root)
    raw = wsp.write_raw_source(paths, "t", Hit())
    from generator.site.pages.topic_raw import write_raw_pages

    write_raw_pages(paths, "t", wsp.list_raw_sources(paths, "t"), provider="offline")
    meta, body = read_page(wsp.Workspace(paths, "t").raw_file(raw.id))
    assert meta["excerpt"] is True and meta["original_chars"] == 48_000
    assert "an excerpt: the passages search returned" in body and "of 48,000 characters" in body


# --------------------------------------------------------------------------- honest outcomes


def test_irrelevant_corpus_ends_no_sources_with_no_report(kb_root: Path) -> None:
    make_corpus(kb_root)
    with pytest.raises(NoUsableSources) as info:
        _research(kb_root, topic_entry=entry(topic="medieval falconry techniques"))
    assert "no usable source found" in info.value.line()
    result = info.value.result  # type: ignore[attr-defined]
    folder = KBPaths(kb_root).topic_dir(result.slug)
    meta = read_json(folder / "_meta.json")
    assert meta["status"] == "no_sources" and result.report is None
    assert (
        not (folder / "output" / "report.md").exists() and not (folder / "processed" / "report.json").exists()
    )
    assert meta["metrics"]["verify_rounds"] <= 1  # a supplementary round that found nothing ends the loop
    landing, body = read_page(folder / "index.md")
    assert landing["status"] == "no_sources" and "no report is published" in body.split("\n\n")[1]
    assert not (kb_root / "site_src" / "_index.json").exists()  # the pipeline leaves the index to the app
    index = msgspec.to_builtins(update_index(KBPaths(kb_root)))
    assert index["topics"][f"topic:{result.slug}"]["status"] == "no_sources"


def test_topic_run_with_no_usable_source_exits_non_zero_with_one_line(kb_root: Path) -> None:
    make_corpus(kb_root)
    run = CliRunner().invoke(
        cli,
        ["--root", str(kb_root), "topic", "run", "medieval falconry", "--sources", "local:docs", "--quick"],
    )
    assert run.exit_code != 0
    lines = [
        line for line in run.output.splitlines() if line.startswith("error") or "no usable source" in line
    ]
    assert len(lines) == 1 and "no usable source found" in lines[0], run.output
    assert "Traceback" not in run.output


# --------------------------------------------------------------------------- workspace identity


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Widget Safety", "widget/safety"),
        ("..", "---"),
        ("x" * 60 + " first long topic", "x" * 60 + " second long topic"),
    ],
)
def test_distinct_topics_get_distinct_workspaces(kb_root: Path, a: str, b: str) -> None:
    paths = KBPaths(kb_root)
    slug_a = identity.topic_slug(a, None, paths)
    _save(paths, a, slug_a)
    slug_b = identity.topic_slug(b, None, paths)
    assert slug_a != slug_b and slug_a != "untitled"
    assert identity.topic_slug(a, None, paths) == slug_a  # the same topic finds its workspace again
    assert identity.topic_slug(a.upper() if a.isascii() else a, None, paths) == slug_a


def test_plain_topic_keeps_its_readable_slug_and_a_legacy_workspace_is_found(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    assert identity.topic_slug("Widget Safety", None, paths) == "widget-safety"
    _save(paths, "widget/safety", "widget-safety")  # made before slugs carried a hash
    assert identity.topic_slug("widget/safety", None, paths) == "widget-safety"
    assert identity.topic_slug("Widget Safety", None, paths).startswith("widget-safety-")  # no takeover


def test_configured_slug_cannot_take_another_topics_workspace(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    _save(paths, "vector databases", "vdb")
    with pytest.raises(UsageError, match="slug 'vdb' already holds the topic 'vector databases'"):
        _research(kb_root, topic_entry=entry(topic="graph databases", slug="vdb"))


def _save(paths: KBPaths, topic: str, slug: str) -> None:
    wsp.save_meta(paths, TopicMeta(id=slug, topic=topic, slug=slug))


# --------------------------------------------------------------------------- bounded input


def test_long_topic_is_one_line_not_a_traceback(kb_root: Path) -> None:
    make_corpus(kb_root)
    with pytest.raises(UsageError, match="the topic text is 600 characters"):
        _research(kb_root, topic_entry=entry(topic="v" * 600))
    run = CliRunner().invoke(
        cli, ["--root", str(kb_root), "topic", "run", "w " * 300, "--sources", "local:docs"]
    )
    assert run.exit_code == 2 and "Traceback" not in run.output and "characters" in run.output


def test_long_but_allowed_topic_researches(kb_root: Path) -> None:
    make_corpus(kb_root)
    topic = (
        "vector databases and how their approximate nearest neighbour indexes keep semantic search fast " * 3
    )
    try:
        result = _research(kb_root, quick=True, topic_entry=entry(topic=topic.strip()))
    except NoUsableSources as exc:  # an honest outcome is fine; a traceback is not
        result = exc.result  # type: ignore[attr-defined]
    assert len(result.slug) <= 60 and result.slug != "untitled"


def test_a_report_page_goes_only_when_the_topic_ended_without_sources(kb_root: Path) -> None:
    make_corpus(kb_root)
    _research(kb_root, quick=True)
    paths, folder = KBPaths(kb_root), topic_dir(kb_root)
    (folder / "processed" / "report.json").unlink()  # a workspace from before reports were records
    publish_topic(paths, "vector-databases")
    assert (folder / "output" / "report.md").is_file()  # kept: nothing says it is wrong
    meta = wsp.load_meta(paths, "vector-databases")
    assert meta is not None
    meta.status = "no_sources"
    wsp.save_meta(paths, meta)
    publish_topic(paths, "vector-databases")
    assert (
        not (folder / "output" / "report.md").exists() and not (folder / "processed" / "analysis.md").exists()
    )
    assert "- [Report](output/report.md)" not in read_page(folder / "index.md")[1]


def test_a_question_keeps_a_readable_slug_and_its_workspace(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    slug = identity.topic_slug("How do Celery retries work?", None, paths)
    assert slug == "how-do-celery-retries-work"
    _save(paths, "How do Celery retries work?", slug)
    assert identity.topic_slug("how do celery retries work", None, paths) == slug


def _report(ws: wsp.Workspace) -> Report:
    report = wsp.load_record(ws.report_record, Report)
    assert report is not None
    return report
