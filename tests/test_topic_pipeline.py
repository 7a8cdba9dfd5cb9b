"""Offline topic research end to end over a tmp corpus: workspace files, citations, hostile input, review, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from site_checks import citations_in, reference_gaps
from topic_fakes import (
    CORPUS,
    HOSTILE,
    SWITCH,
    config,
    entry,
    live_html,
    make_corpus,
    offline,
    read_json,
    topic_dir,
)

from generator.app.topic_target import topic_target
from generator.errors import ResearchError, UsageError
from generator.kb.search import refresh_search_db
from generator.site.pages.topic import publish_topic
from generator.site.pages.topic_raw import write_raw_pages
from generator.store import KBPaths, read_page
from generator.topic.findings import Analysis, Catalog, Claim, Section
from generator.topic.model_claims import _ClaimDraft, resolve_claims
from generator.topic.pipeline import resume_topic_research, run_topic_research, unverified_line
from generator.topic.plan import Plan
from generator.topic.report import Report, build_report
from generator.topic.workspace import Workspace, list_raw_sources, load_record, write_raw_source


def _run(root: Path, **options):
    return run_topic_research(
        KBPaths(root),
        config(),
        offline(),
        topic_target(KBPaths(root), entry(), refresh=True, **options),
        publish=publish_topic,
    )


def test_full_offline_run_writes_every_workspace_file(kb_root: Path) -> None:
    make_corpus(kb_root)
    result = _run(kb_root)
    folder = topic_dir(kb_root)
    assert result.status == "completed" and result.failed_steps == []

    meta = read_json(folder / "_meta.json")
    for key in (
        "id",
        "topic",
        "slug",
        "created_at",
        "updated_at",
        "status",
        "options",
        "queries",
        "progress",
        "stats",
        "runs",
        "metrics",
    ):
        assert key in meta, key
    assert meta["status"] == "completed" and meta["slug"] == "vector-databases"
    assert meta["progress"] == {"phase": "COMPLETED", "completed_tasks": 6, "total_tasks": 6}
    assert set(meta["stats"]) >= {"sources_count", "raw_items", "deduplicated"}
    assert meta["stats"]["sources_count"] == len(list((folder / "raw").glob("*.md"))) >= 3
    assert meta["metrics"]["steps_by_type"] == {"research": 5, "processing": 1}
    assert meta["metrics"]["dispatch_loops"] == 6 and len(meta["metrics"]["step_durations"]) == 6
    assert {"tokens", "cost_estimate_usd", "failures"} <= set(meta["metrics"])
    assert meta["runs"][-1]["status"] == "completed" and meta["runs"][-1]["finished_at"]

    plan = read_json(folder / "plan.json")
    assert all({"title", "description", "step_type", "depends_on"} <= set(s) for s in plan["steps"])
    assert all(s["status"] == "done" for s in plan["steps"])

    raw_pages = sorted((folder / "raw").glob("*.md"))
    for page in raw_pages:
        fm, _ = read_page(page)
        assert {"id", "source", "url", "title", "fetched_at", "tags"} <= set(fm)
        assert page.stem == fm["id"] and page.stem.startswith("local-")
        assert fm["url"].startswith("local:docs/") and str(kb_root) not in fm["url"]
    assert not any("gardening" in read_page(p)[0]["title"].lower() for p in raw_pages)

    aggregated = read_json(folder / "processed" / "aggregated.json")
    assert aggregated["clusters"] and all(
        {"id", "label", "items", "confidence"} <= set(c) for c in aggregated["clusters"]
    )
    assert all({"name", "type", "mentions"} <= set(e) for e in aggregated["entities"])
    assert any(e["name"] == "HNSW" for e in aggregated["entities"])

    for rel in ("processed/analysis.md", "output/report.md", "index.md", "sources.md"):
        fm, body = read_page(folder / rel)
        assert {"title", "description", "tags", "generated", "provider"} <= set(fm), rel
        assert (rel == "sources.md") != ('!!! info deepkb-notice "Produced offline"' in body), rel
        first = body.split("\n\n")[1]  # the paragraph after the title: what search shows
        assert first.strip() and not first.startswith("!!!"), rel
    report_meta, report = read_page(folder / "output" / "report.md")
    assert report_meta["unresolved_citations"] == 0
    for question in meta["queries"]:
        assert f"## {question}" in report
    cited = citations_in(report)
    assert cited and all((folder / "raw" / f"{sid}.md").is_file() for _, sid in cited)
    assert "## References" in report and "local:docs/" in report
    _, landing = read_page(folder / "index.md")
    assert (
        landing.index("output/report.md")
        < landing.index("processed/analysis.md")
        < landing.index("sources.md")
    )
    assert all(f"raw/{p.name}" in landing for p in raw_pages)
    assert "| 64 MB |" in report and "| What it measures | Value | Source |" in report  # figures with units
    assert reference_gaps(report) == 0
    assert report_meta["title"] == "vector databases — report"
    assert not list(folder.rglob("*.tmp"))


def test_fresh_completed_topic_is_not_researched_again(kb_root: Path) -> None:
    make_corpus(kb_root)
    paths = KBPaths(kb_root)
    run_topic_research(
        paths, config(), offline(), topic_target(paths, entry(), quick=True), publish=publish_topic
    )
    before = {p: p.stat().st_mtime_ns for p in topic_dir(kb_root).rglob("*")}
    again = run_topic_research(
        paths, config(), offline(), topic_target(paths, entry(), quick=True), publish=publish_topic
    )
    assert again.status == "completed" and again.sources_count >= 3
    assert {p: p.stat().st_mtime_ns for p in topic_dir(kb_root).rglob("*")} == before
    changed = run_topic_research(
        paths,
        config(),
        offline(),
        topic_target(paths, entry(sources=["local:docs", "tavily"]), quick=True),
        publish=publish_topic,
    )
    assert len(read_json(topic_dir(kb_root) / "_meta.json")["runs"]) == 2 and changed.status == "completed"


def test_rerun_keeps_slug_and_history(kb_root: Path) -> None:
    make_corpus(kb_root)
    _run(kb_root, quick=True)
    first = sorted(p.name for p in (topic_dir(kb_root) / "raw").glob("*.md"))
    _run(kb_root, quick=True)
    meta = read_json(topic_dir(kb_root) / "_meta.json")
    assert len(meta["runs"]) == 2 and meta["options"]["quick"] is True
    assert sorted(p.name for p in (topic_dir(kb_root) / "raw").glob("*.md")) == first


def test_hostile_document_stays_inert(kb_root: Path) -> None:
    make_corpus(
        kb_root,
        {
            "evil.md": HOSTILE,
            "evil.txt": HOSTILE,  # plain text: its "tags" are text, kept escaped
            "ok.md": "# Vector databases\n\nVector databases store embeddings "
            "for semantic search over documents.\n",
        },
    )
    _run(kb_root, verify=False)
    folder = topic_dir(kb_root)
    pages = [
        *folder.glob("raw/*.md"),
        folder / "output" / "report.md",
        folder / "processed" / "analysis.md",
        folder / "index.md",
        folder / "sources.md",
    ]
    raw = {read_page(p)[0]["url"]: p.read_text() for p in folder.glob("raw/*.md")}
    assert "onerror" in raw["local:docs/evil.txt"]  # a text file's markup-like text is kept …
    markdown = raw["local:docs/evil.md"]  # … a markdown file's HTML is markup: its prose stays, the tags go
    assert "popular for semantic search" in markdown and "the vector databases guide" in markdown
    assert "onerror" not in markdown and "javascript" not in markdown
    for page in pages:
        assert live_html(page) == [], page  # none of it is live HTML


def test_a_claim_of_the_models_own_words_or_citing_what_it_was_not_shown_is_dropped(kb_root: Path) -> None:
    """SmolLM2-135M's shape: schema-valid claims citing a real source number, in words the source never says."""
    paths = KBPaths(kb_root)
    first = write_raw_source(paths, "t", _Hit("https://a.example/x", "A", "Vectors are stored in an index."))
    other = write_raw_source(paths, "t", _Hit("https://a.example/y", "B", "Indexes are rebuilt nightly."))
    catalog = Catalog(list_raw_sources(paths, "t"))
    analysis = Analysis(sections=[])
    shown = {first.id: "Vectors are stored in an index and searched by distance."}
    one, two = catalog.number_of[first.id], catalog.number_of[other.id]
    drafts = [
        _ClaimDraft(text="Vectors are stored in an index.", citations=[one]),
        _ClaimDraft(
            text="It is a very important and useful concept for all parts of the stack.", citations=[one]
        ),
        _ClaimDraft(text="this is a summary of the content in the index.", citations=[one]),  # about the text
        _ClaimDraft(text="Indexes are rebuilt nightly.", citations=[two]),  # not in the prompt
        _ClaimDraft(text="向量存储在索引中。", citations=[one]),  # a translation: another script, kept
    ]
    claims = resolve_claims(drafts, catalog, analysis, shown)
    assert [c.text for c in claims] == ["Vectors are stored in an index.", "向量存储在索引中。"]
    assert analysis.unsupported == 3 and analysis.unresolved == 1


def test_citation_to_missing_source_is_caught(kb_root: Path) -> None:
    make_corpus(kb_root)
    paths = KBPaths(kb_root)
    stored = write_raw_source(
        paths, "t", _Hit("https://a.example/x", "A", "Alpha text about vectors: they are stored and indexed.")
    )
    catalog = Catalog(list_raw_sources(paths, "t"))
    analysis = Analysis(sections=[])
    claims = resolve_claims(
        [_ClaimDraft(text="Vectors are stored [1] and indexed [7].", citations=[9])], catalog, analysis
    )
    assert claims == [Claim("Vectors are stored and indexed.", [stored.id])]
    assert analysis.unresolved == 2  # [7] inline and 9 in the list name no stored source
    orphan = resolve_claims([_ClaimDraft(text="Made up.", citations=[42])], catalog, analysis)
    assert orphan == [] and analysis.unsupported == 1
    # a tiny model's schema-valid nonsense cites a real source but says nothing: not a claim
    nonsense = [_ClaimDraft(text=text, citations=[1]) for text in ("<bla bla", "...", "[1.3]", "1")]
    assert resolve_claims(nonsense, catalog, analysis) == [] and analysis.unsupported == 5

    report = build_report(
        Plan(topic="t", sub_queries=["q"]),
        Analysis([Section("q", [Claim("Stored.", [stored.id, "local-0000000000"]), Claim("Lost.", ["x"])])]),
        catalog,
    )
    assert [c.sources for c in report.sections[0].claims] == [[stored.id]]
    assert report.references == [stored.id] and report.unresolved == 2 and report.unsupported == 1


class _Hit:
    def __init__(self, url: str, title: str, content: str) -> None:
        self.url, self.title, self.content, self.source, self.kind = url, title, content, "web", "web"
        self.authors: list[str] = []


def test_verify_catches_a_deleted_source_and_adds_steps(kb_root: Path) -> None:
    from generator.topic.verify import supplementary_steps, verify_report

    make_corpus(kb_root)
    _run(kb_root, verify=False)
    paths = KBPaths(kb_root)
    ws = Workspace(paths, "vector-databases")
    plan = Plan.model_validate(read_json(ws.plan_file))
    report = load_record(ws.report_record, Report)
    assert report is not None
    assert verify_report(ws, plan, report).passed
    cited = citations_in(read_page(ws.report_file)[1])
    ws.raw_file(cited[0][1]).unlink()
    ws.record_file(cited[0][1]).unlink()
    plan.sub_queries.append("What do vector databases cost?")
    result = verify_report(ws, plan, report)
    assert not result.passed and result.unresolved >= 1
    assert result.uncovered == ["What do vector databases cost?"]
    extra = supplementary_steps(plan, result, 1)
    assert [s.question for s in extra] == ["What do vector databases cost?"] and extra[0].supplementary


def test_review_plan_pause_edit_resume(kb_root: Path) -> None:
    make_corpus(kb_root)
    paths = KBPaths(kb_root)
    paused = _run(kb_root, review_plan=True)
    folder = topic_dir(kb_root)
    assert paused.status == "awaiting_review"
    assert read_json(folder / "_meta.json")["status"] == "awaiting_review"
    assert not (folder / "raw").exists() and not (folder / "output").exists()

    assert _run(kb_root).status == "awaiting_review"  # `build` leaves a plan under review alone

    plan = read_json(folder / "plan.json")
    plan["steps"][1]["depends_on"] = ["missing"]
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    with pytest.raises(UsageError) as info:
        resume_topic_research(paths, config(), offline(), "vector-databases", publish=publish_topic)
    assert "step 's2' depends on unknown step 'missing'" in info.value.line()

    plan["steps"] = [plan["steps"][0], plan["steps"][3]]  # the user keeps two research steps
    plan["steps"][1]["depends_on"] = []
    plan["sub_queries"] = [plan["steps"][0]["question"], plan["steps"][1]["question"]]
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = resume_topic_research(paths, config(), offline(), "vector-databases", publish=publish_topic)
    # the run resumes and answers; whether two sections cite the three sources verification wants is the
    # report's business (a section is never padded to reach them)
    assert done.status in {"completed", "unverified"}
    final = read_json(folder / "plan.json")
    assert [s["id"] for s in final["steps"]][:2] == ["s1", "s4"]
    _, report = read_page(folder / "output" / "report.md")
    assert "## What are vector databases?" in report and "How do vector databases work?" not in report


def test_resume_after_kill_mid_crawling_repeats_no_finished_step(kb_root: Path) -> None:
    make_corpus(kb_root)
    paths = KBPaths(kb_root)
    SWITCH.queries.clear()
    SWITCH.after = 8  # a search call after the survey, the seed retrieval and some steps "kills" the run
    killable = entry(sources=["killable:docs"])
    with pytest.raises(ResearchError, match="failed: RuntimeError: killed mid-crawl"):
        run_topic_research(
            paths,
            config(),
            offline(),
            topic_target(paths, killable, parallel=False, verify=False, refresh=True),
            publish=publish_topic,
        )
    folder = topic_dir(kb_root)
    meta = read_json(folder / "_meta.json")
    plan = read_json(folder / "plan.json")
    assert meta["progress"]["phase"] == "CRAWLING"
    finished = [s for s in plan["steps"] if s["status"] == "done"]
    assert 1 <= len(finished) < 5
    before = list(SWITCH.queries)
    _assert_no_torn_files(folder)

    SWITCH.after = None
    result = resume_topic_research(paths, config(), offline(), "vector-databases", publish=publish_topic)
    assert result.status == "completed"
    after = SWITCH.queries[len(before) :]
    finished_queries = {s["query"] for s in finished}
    assert not finished_queries & set(after)  # a finished step searched nothing again
    plan = read_json(folder / "plan.json")
    assert all(s["status"] == "done" for s in plan["steps"])
    assert read_json(folder / "_meta.json")["runs"][0]["status"] == "failed"
    _assert_no_torn_files(folder)


def _assert_no_torn_files(folder: Path) -> None:
    assert not list(folder.rglob("*.tmp"))
    for path in folder.rglob("*.json"):
        json.loads(path.read_text(encoding="utf-8"))
    for path in folder.rglob("*.md"):
        meta, body = read_page(path)
        assert meta.get("title") and body.strip(), path


def test_unknown_provider_in_sources_is_one_line(kb_root: Path) -> None:
    make_corpus(kb_root)
    with pytest.raises(UsageError, match="unknown search provider 'nosuch'"):
        run_topic_research(
            KBPaths(kb_root),
            config(),
            offline(),
            topic_target(KBPaths(kb_root), entry(sources=["nosuch"])),
            publish=publish_topic,
        )


def test_keyless_web_provider_is_skipped_with_a_warning(kb_root: Path) -> None:
    make_corpus(kb_root)
    result = run_topic_research(
        KBPaths(kb_root),
        config(),
        offline(),
        topic_target(KBPaths(kb_root), entry(sources=["tavily", "local:docs"]), quick=True),
        publish=publish_topic,
    )
    assert result.status == "completed" and result.sources_count >= 3
    assert any("skipping search provider 'tavily'" in w for w in result.warnings)


def test_chinese_report_localizes_headings(kb_root: Path) -> None:
    make_corpus(kb_root)
    _run(kb_root, quick=True, lang="zh")
    _, report = read_page(topic_dir(kb_root) / "output" / "report.md")
    assert "## 摘要" in report and "## 参考文献" in report and "是什么？" in report


def test_no_results_broadens_the_query(kb_root: Path) -> None:
    from generator.topic.plan import Step
    from generator.topic.research import ResearchContext, open_providers, research_step

    make_corpus(kb_root)
    paths = KBPaths(kb_root)
    ctx = ResearchContext(
        paths, "t", "vector databases", offline(), open_providers(paths, ["local:docs"]), warn=lambda m: None
    )
    outcome = research_step(ctx, Step(id="s1", title="odd", query="zyxwv qwerty"))
    assert any("broadened to 'vector databases'" in n for n in outcome.notes)
    assert outcome.sources and outcome.found >= len(outcome.sources)


def test_existing_knowledge_base_is_searched_too(kb_root: Path) -> None:
    make_corpus(kb_root)
    paths = KBPaths(kb_root)
    _run(kb_root, quick=True)
    refresh_search_db(paths)  # what the command that ran it does when it ends
    (kb_root / "empty").mkdir()
    second = entry(topic="vector databases indexes", sources=["local:empty"])
    result = run_topic_research(
        paths, config(), offline(), topic_target(paths, second, quick=True), publish=publish_topic
    )
    raw = [read_page(p)[0] for p in (paths.topic_dir(result.slug) / "raw").glob("*.md")]
    assert raw and all(m["source"] == "kb" for m in raw)
    # the first topic's raw sources, keyed by their original documents; never its report or analysis pages
    first = {read_page(p)[0]["url"] for p in (paths.topic_dir("vector-databases") / "raw").glob("*.md")}
    assert {m["url"] for m in raw} <= first


def test_hostile_hit_url_and_title_stay_inert(kb_root: Path) -> None:
    paths = KBPaths(kb_root)
    hit = _Hit("javascript:alert(1)", '<img src=x onerror="alert(2)">', "<script>alert(3)</script> vectors")
    stored = write_raw_source(paths, "t", hit)
    write_raw_pages(paths, "t", list_raw_sources(paths, "t"), provider="offline")
    page = Workspace(paths, "t").raw_file(stored.id)
    assert live_html(page) == []
    assert "](javascript:" not in page.read_text() and "](<javascript:" not in page.read_text()
    assert list_raw_sources(paths, "t")[0].text == hit.content  # read back exactly, for the analyst


def test_secrets_in_documents_never_reach_a_stored_page(kb_root: Path, monkeypatch) -> None:
    env_secret = "zq7Vx2Lm9Kp4Wd8Rt6Yb3Nc5"
    planted = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8I9j0" * 4
    monkeypatch.setenv("VECTORSTORE_API_KEY", env_secret)
    make_corpus(
        kb_root,
        {
            "setup.md": "# Vector databases setup\n\nVector databases store embeddings for semantic search.\n\n"
            "Production deployments of vector databases connect the embedding service and the index with one "
            f"credential, for example {planted} or {env_secret}, and the service then indexes new documents "
            "every night so that semantic search over the whole archive stays current for every reader.\n",
            "ok.md": "# Vector databases\n\nVector databases store embeddings for semantic search.\n",
        },
    )
    _run(kb_root, verify=False)
    written = "".join(p.read_text(encoding="utf-8") for p in topic_dir(kb_root).rglob("*") if p.is_file())
    assert "setup.md" in written  # the document was used …
    assert planted not in written and env_secret not in written  # … without its secrets
    assert "REDACTED" in written


def test_resume_drops_a_stored_chart_with_a_non_finite_value(kb_root: Path) -> None:
    make_corpus(kb_root)
    paths = KBPaths(kb_root)
    assert _run(kb_root, verify=False).status == "completed"
    folder = topic_dir(kb_root)
    plan = read_json(folder / "plan.json")
    step = next(s for s in plan["steps"] if s["step_type"] == "processing" and s["result"])
    step["result"]["rows"][0]["value"] = float("nan")  # a plan.json written before the schema refused it
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    meta = read_json(folder / "_meta.json")
    meta["status"], meta["progress"]["phase"] = "failed", "REPORT"
    meta["phases_done"] = [p for p in meta["phases_done"] if p not in ("REPORT", "VERIFY")]
    (folder / "_meta.json").write_text(json.dumps(meta), encoding="utf-8")
    result = resume_topic_research(paths, config(), offline(), "vector-databases", publish=publish_topic)
    assert result.status == "completed"
    meta = read_json(folder / "_meta.json")
    assert any(f"chart '{step['title']}' dropped" in w for w in meta["warnings"])
    assert "NaN" not in (folder / "output" / "report.md").read_text(encoding="utf-8")


def test_a_topic_whose_verification_failed_is_published_unverified(kb_root: Path) -> None:
    """One source cannot pass verification (it wants three distinct ones): the report is published, the
    status, the landing page and the report say how many sources answered it and that it is not verified, and the run
    ends normally; a plain re-run (build) leaves it alone until its refresh_days are over."""
    make_corpus(kb_root, {"overview.md": CORPUS["overview.md"]})
    result = _run(kb_root, verify=True)
    assert result.status == "unverified" and result.report is not None
    assert result.to_json()["success"] is False
    assert "answered from 1 source(s); not verified" in unverified_line(result)
    assert read_json(topic_dir(kb_root) / "_meta.json")["status"] == "unverified"
    front, body = read_page(topic_dir(kb_root) / "index.md")
    assert front["status"] == "unverified"
    assert "answered from 1 source(s); not verified" in body
    # the report says so itself: a search result or a link lands a reader on it, not on the landing page
    _, report = read_page(topic_dir(kb_root) / "output" / "report.md")
    notice = report[report.index('!!! warning deepkb-notice "Not verified"') :].split("\n\n")[0]
    assert "it cites 1 source(s), and verification wants at least 3" in notice
    assert report.index("Not verified") < report.index("## References")
    # a question the report leaves out (a borrowed heading with nothing quotable) is counted, never named
    folder = topic_dir(kb_root)
    meta = read_json(folder / "_meta.json")
    meta["verification"]["uncovered"].append("Overview: a heading nothing answered")
    (folder / "_meta.json").write_text(json.dumps(meta), encoding="utf-8")
    publish_topic(KBPaths(kb_root), result.slug)
    _, report = read_page(folder / "output" / "report.md")
    assert "1 more question(s) it researched found nothing quotable" in report
    assert "a heading nothing answered" not in report
    again = run_topic_research(
        KBPaths(kb_root),
        config(),
        offline(),
        topic_target(KBPaths(kb_root), entry(verify=True)),
        publish=publish_topic,
    )
    assert again.status == "unverified"
    assert len(read_json(topic_dir(kb_root) / "_meta.json")["runs"]) == 1


def test_a_chinese_report_that_failed_verification_says_so_in_chinese(kb_root: Path) -> None:
    make_corpus(
        kb_root,
        {
            "cache.md": "# 缓存\n\n缓存是一个把计算结果保存起来以便再次使用的组件。\n\n## 用法\n\n调用 get 读取缓存。\n"
        },
    )
    paths = KBPaths(kb_root)
    target = topic_target(paths, entry(topic="缓存", verify=True, lang="zh"))
    result = run_topic_research(paths, config(), offline(), target, publish=publish_topic)
    assert result.status == "unverified"
    _, report = read_page(paths.topic_dir(result.slug) / "output" / "report.md")
    assert '!!! warning deepkb-notice "未经核查"' in report
    assert "本报告未通过核查：只引用了 1 个来源，核查要求至少 3 个" in report
    assert "没有引用的段落回答“如何使用缓存？”。" in report


def test_a_topic_written_in_chinese_is_reported_in_chinese_unless_told_otherwise(kb_root: Path) -> None:
    """`deepkb topic run "Apollo 的灰度发布怎么用？"` wrote "What is Apollo 的灰度发布?", "Not verified" and the
    other headings in English over Chinese quotes: a topic's language defaulted to English whatever it was
    written in. Unset, it is the topic's own; --lang or the entry's `lang` still decide."""
    paths = KBPaths(kb_root)

    def lang(topic: str, **options: str) -> str:
        return topic_target(paths, entry(topic=topic, **options)).options.lang

    assert lang("Apollo 的灰度发布怎么用？") == "zh"
    assert lang("What is 交易?") == "en" and lang("vector databases") == "en"
    assert lang("Apollo 的灰度发布怎么用？", lang="en") == "en"
    assert topic_target(paths, entry(topic="What is 交易?"), lang="zh").options.lang == "zh"
