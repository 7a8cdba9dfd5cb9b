"""A measure of a topic report record, used by the topic tests and bench/topic_retrieval.py: sentences quoted
twice outside the summary, reference gaps, and figure rows that are not measured quantities."""

from __future__ import annotations

from generator.text.sentences import split_sentences
from generator.topic.processing import measured_figures
from generator.topic.report import Report
from generator.topic.sentences import clean


def report_quality(report: Report) -> dict[str, int]:
    """What bench/topic_retrieval.py counts per report: sentences quoted twice outside the summary, citation
    numbers without a reference (and references never cited), and figure rows that are not measured
    quantities in the sentence they came from."""
    seen: set[str] = set()
    repeated = 0
    for section in report.sections:
        for sentence in (clean(s) for c in section.claims for s in split_sentences(c.text)):
            repeated += sentence in seen
            seen.add(sentence)
    numbers = report.number_of()
    cited = {sid for s in report.sections for c in s.claims for sid in c.sources}
    cited |= {sid for c in report.summary for sid in c.sources}
    cited |= {str(r["source"]) for f in report.figures for r in f.spec["rows"]}
    gaps = sum(1 for sid in cited if sid not in numbers) + sum(
        1 for sid in report.references if sid not in cited
    )
    rows = [r for f in report.figures for r in f.spec["rows"]]
    identifiers = sum(1 for r in rows if not _measured(float(r["value"]), str(r.get("quote", ""))))
    return {
        "repeated_sentences": repeated,
        "reference_gaps": gaps,
        "figure_rows": len(rows),
        "identifier_figures": identifiers,
        "rejected_figure_rows": sum(int(f.spec.get("rejected", 0)) for f in report.figures),
    }


def _measured(value: float, quote: str) -> bool:
    return any(abs(f.value - value) < 1e-9 for f in measured_figures(quote))
