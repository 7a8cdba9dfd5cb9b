"""Processing steps (validated declarative specs over numbers from the sources) and aggregation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from topic_fakes import offline

from generator.errors import StoreError
from generator.site.pages.topic_charts import render_spec
from generator.site.text import Markdown
from generator.store import KBPaths, write_json
from generator.topic.aggregate import Aggregation, aggregate, cluster_by_terms, extract_entities, top_terms
from generator.topic.plan import Step
from generator.topic.processing import lexical_spec, number_in_text, validate_spec
from generator.topic.workspace import RawSource, Workspace, load_record, save_record


def _source(sid: str, text: str, title: str = "T") -> RawSource:
    return RawSource(
        id=sid, source="local", url=f"local:{sid}", title=title, fetched_at="2026-01-01", text=text
    )


def test_number_must_appear_in_the_cited_source() -> None:
    assert number_in_text(1_000_000, "about 1,000,000 vectors")
    assert number_in_text(95.0, "answered 95% of queries")
    assert number_in_text(12.5, "latency of 12.5 ms")
    assert not number_in_text(12.0, "latency of 12.5 ms")
    assert not number_in_text(5.0, "version 2.5 shipped")


def test_spec_rows_are_checked_against_their_sources() -> None:
    sources = {"a": _source("a", "FAISS answered 95% of queries at 12 ms.")}
    spec, notes = validate_spec(
        {
            "kind": "bar",
            "title": "Bench",
            "rows": [
                {"label": "recall", "value": 95, "source": "a"},
                {"label": "made up", "value": 99, "source": "a"},
                {"label": "elsewhere", "value": 12, "source": "zzz"},
            ],
        },
        sources,
    )
    assert spec is not None and [r.label for r in spec.rows] == ["recall"]
    assert any("99 does not appear in a" in n for n in notes) and any(
        "unknown source 'zzz'" in n for n in notes
    )
    assert validate_spec({"kind": "python", "title": "x", "rows": []}, sources)[0] is None
    assert (
        validate_spec(
            {"kind": "table", "title": "x", "rows": [{"label": "l", "value": 1, "source": "zzz"}]}, sources
        )[0]
        is None
    )


def test_rendered_chart_labels_are_inert() -> None:
    spec = {
        "kind": "pie",
        "title": 'T"]; click A call evil()',
        "unit": "%",
        "rows": [{"label": '<img src=x onerror=alert(1)> "share"', "value": 40, "source": "a"}],
    }
    out = render_spec(
        spec, lambda sid: Markdown("[\\[1\\]](../raw/a.md)"), headers=("Figure", "Value", "Source")
    )
    assert "<img" not in out and '"]' not in out.split("```mermaid")[1].split("pie title")[1].splitlines()[0]
    assert "&lt;img" in out and "```mermaid\npie title T" in out


def test_offline_spec_takes_figures_not_years_or_arguments() -> None:
    step = Step(id="p", title="Figures", step_type="processing", query="vector benchmark latency")
    sources = [
        _source(
            "a",
            "In 2024 the vector benchmark showed 12 ms latency and alert(1) style noise. "
            "The vector benchmark reached 95% recall on 1,000,000 vectors.",
        )
    ]
    spec = lexical_spec(step, sources)
    assert spec is not None
    values = sorted(r["value"] for r in spec["rows"])
    assert 2024.0 not in values and 1.0 not in values and 12.0 in values
    checked, _ = validate_spec(spec, {"a": sources[0]})
    assert checked is not None and len(checked.rows) == len(spec["rows"])


def test_lexical_clusters_and_entities() -> None:
    terms = {
        "a": ["hnsw", "graph"],
        "b": ["hnsw", "layers"],
        "c": ["pgvector", "postgres"],
        "d": ["postgres"],
    }
    clusters = cluster_by_terms(terms)
    assert [(c.label, c.items) for c in clusters] == [("hnsw", ["a", "b"]), ("postgres", ["c", "d"])]
    sources = [
        _source("a", "Many teams use the HNSW index. Facebook AI Research released FAISS in 2017."),
        _source("b", "The HNSW index is fast. Facebook AI Research maintains FAISS."),
    ]
    names = {(e.name, e.type) for e in extract_entities(sources)}
    assert {("HNSW", "acronym"), ("Facebook AI Research", "name"), ("FAISS", "acronym")} <= names


def test_aggregation_failure_degrades_to_raw_items() -> None:
    class Broken(RawSource):
        @property  # type: ignore[misc]
        def text(self) -> str:
            raise ValueError("unreadable source")

        @text.setter
        def text(self, value: str) -> None:
            pass

    good = _source("a", "Vector databases store embeddings.")
    broken = Broken(id="b", source="local", url="u", title="B", fetched_at="x", text="")
    data = aggregate(offline(), "vector databases", [good, broken])
    assert data.degraded is True and data.method == "raw" and "aggregation failed" in data.note
    assert [c.items for c in data.clusters] == [["a"], ["b"]] and data.entities == []


def test_figures_come_only_from_sentences_naming_the_topics_point() -> None:
    step = Step(id="p", title="Figures", step_type="processing", query="vector databases figures")
    text = (
        "Vectors are lists of numbers that every embedding model produces for its inputs. "
        "Vectors fit in 64 MB of memory after product quantization of the embeddings. "
        "Vector databases answer nearest neighbour queries in 12 ms on a single machine."
    )
    spec = lexical_spec(step, [_source("a", text)])
    assert spec is not None and [(r["value"], r["unit"]) for r in spec["rows"]] == [(12.0, "ms")]


def test_aggregation_record_round_trips_and_another_version_is_refused(tmp_path: Path) -> None:
    paths = KBPaths(tmp_path)
    sources = [
        _source("a", "The HNSW index is fast. HNSW graphs have layers."),
        _source("b", "HNSW layers make search fast."),
    ]
    aggregation = aggregate(offline(), "vector databases", sources)
    file = Workspace(paths, "vdb").aggregated_file
    save_record(file, aggregation)
    assert load_record(file, Aggregation) == aggregation
    stored = json.loads(file.read_text(encoding="utf-8"))
    assert stored["version"] == Aggregation.VERSION
    del stored["version"]  # written before records carried a version: the same shape, read as version 1
    write_json(file, stored)
    assert load_record(file, Aggregation) == aggregation
    write_json(file, {**stored, "version": Aggregation.VERSION + 1})
    with pytest.raises(StoreError, match="version 2, not 1"):
        load_record(file, Aggregation)
    write_json(file, {"clusters": "not a list"})
    with pytest.raises(StoreError, match="cannot read"):
        load_record(file, Aggregation)
    assert load_record(Workspace(paths, "other").aggregated_file, Aggregation) is None


def test_a_stored_verification_record_reads_as_typed_state(tmp_path: Path) -> None:
    from generator.topic.workspace import meta_from_json

    old = {"id": "t", "topic": "T", "slug": "t", "verification": {"unresolved_citations": 2, "rounds": 1}}
    meta = meta_from_json(tmp_path / "_meta.json", old)
    assert (meta.verification.unresolved_citations, meta.verification.rounds) == (2, 1)
    assert meta.verification.sources_before_round == -1  # no supplementary round began yet
    assert meta_from_json(tmp_path / "_meta.json", {**old, "verification": {}}).verification.passed is None


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_a_non_finite_chart_value_refuses_the_spec(value: str) -> None:
    # a model's JSON reply as the client parses it: NaN/Infinity literals and an overflowing exponent
    row = '{"label": "x", "value": ' + value + ', "source": "a"}'
    data = json.loads('{"kind": "bar", "title": "Bench", "rows": [' + row + "]}")
    spec, notes = validate_spec(data, {"a": _source("a", "FAISS answered 95% of queries at 12 ms.")})
    assert spec is None and notes[0].startswith("spec rejected:")


def test_a_stored_figure_with_a_non_finite_value_is_left_out_of_the_page() -> None:
    spec = {"kind": "bar", "title": "Bench", "rows": [{"label": "x", "value": float("inf"), "source": "a"}]}
    assert render_spec(spec, lambda sid: Markdown(""), headers=("Figure", "Value", "Source")) is None


def test_a_sources_top_terms_weigh_words_by_the_one_idf_of_every_ranking() -> None:
    # "gateway" is in every source, "quorum" in one: with BM25's IDF (retrieval/scoring.idf) the word that
    # tells this source apart comes first, though the common one is repeated
    sources = [_source("a", "gateway gateway gateway quorum")]
    sources += [
        _source(sid, f"gateway {word}")
        for sid, word in zip("bcd", ["lantern", "harbor", "meadow"], strict=True)
    ]
    assert top_terms(sources, set())["a"][:2] == ["quorum", "gateway"]


def test_figures_come_from_the_documents_about_the_topic_when_there_are_some() -> None:
    """PEP 203 "Augmented Assignments" counts "13 new bytecodes" beside the assignments it adds; in a report on
    assignment expressions its row cited a document no other section cited. Without any document about the
    topic stored, every stored one may still state its figures."""
    step = Step(id="p", title="Figures", step_type="processing", query="assignment expressions")
    own = _source(
        "a", "Assignment expressions cut the lines of a loop in half: 8 ms.", "Assignment Expressions"
    )
    other = _source(
        "b",
        "This PEP describes the augmented operators proposed for Python 2.0. They combine a binary "
        "operation with a store, as += and -= do in C. They apply to names, attributes and subscriptions "
        "alike. Each calls a new in-place method on the object when it has one; otherwise the plain binary "
        "operation runs and its result is stored. The idea came from a long discussion on python-dev in "
        "the spring of the same year, after several earlier proposals had been turned down. It keeps the "
        "grammar simple and adds no new keyword to the language, which its authors counted in its favour "
        "when it was weighed against the other ways of spelling the same update.\n\n"
        "Like assignment expressions, augmented assignments need 13 new bytecodes.",
        "Augmented Assignments",
    )
    spec = lexical_spec(step, [own, other])
    assert spec is not None and {r["source"] for r in spec["rows"]} == {"a"}
    alone = lexical_spec(step, [other])
    assert alone is not None and {r["source"] for r in alone["rows"]} == {"b"}
