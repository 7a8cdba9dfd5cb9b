"""The subject of a question as the corpus names it where the grammar cut names only the collection or runs into
a second clause (session 43's held-out check: "…the proposed Kubeflow data cache speed up…" was cut to
'Kubeflow' and its report opened from another proposal; "…an XRPL token issuer claw back…" to 'XRPL')."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import offline_report

from generator.topic.defining import plan_subject
from generator.topic.subject_names import CorpusNames, corpus_subject, named_subject

TITLES = (
    "WEP-7: Wavelet Data Cache",
    "WEP-9: Wavelet SDK for Model Builders",
    "WEP-12: Proposal to update the Release Process for Wavelet",
    "Clawback Support",
    "Automated Order Book on Wavelet Network",
    "Data Bundle",
    "Wavelet Governance",
)
CORPUS = CorpusNames.of(TITLES, {"wavelet", "network"})


def test_a_cut_naming_only_the_collection_takes_the_span_a_title_names() -> None:
    asked = "How does the planned Wavelet data cache shorten model loading for distributed jobs?"
    assert plan_subject(asked) == "Wavelet"  # the grammar cut: every page of the collection says "Wavelet"
    assert corpus_subject(asked, CORPUS) == "Wavelet data cache"
    # "claw back" is the one word a title writes: the subject is spelled as the title spells it
    issuer = "How can a Wavelet coin issuer claw back issued coins, and what are the limits?"
    assert corpus_subject(issuer, CORPUS) == "Clawback"
    book = "How does the Wavelet Network automated order book work, and how is its fee decided?"
    assert corpus_subject(book, CORPUS) == "automated order book"


def test_a_cut_running_into_a_second_clause_takes_the_span_a_title_names() -> None:
    sdk = "What is the proposed Wavelet SDK, what does it cover and how is it versioned?"
    assert corpus_subject(sdk, CORPUS) == "Wavelet SDK"
    release = "How does the updated Wavelet release process schedule a release, and who does what?"
    assert corpus_subject(release, CORPUS) == "release process"


def test_a_cut_naming_a_thing_of_its_own_or_titled_as_the_collection_stands() -> None:
    # the grammar names a thing no title names: it stands, as does a cut that is a page's whole title
    assert corpus_subject("How does the Wavelet scheduler pick a node for each job?", CORPUS) == ""
    bundle = CorpusNames.of(TITLES, {"data", "bundle"})
    assert corpus_subject("Where can a Data Bundle keep its data: local files or URLs?", bundle) == ""
    # no title names any span: the grammar cut stands
    assert corpus_subject("How does the Wavelet fly?", CORPUS) == ""
    assert corpus_subject("Wavelet 的数据缓存怎么用？", CORPUS) == ""


PROPOSAL = (
    "# {title}\n\n## Summary\n\nThis Wavelet proposal {what}. Wavelet users and Wavelet maintainers review it.\n\n"
    "## Motivation\n\nWavelet jobs need {why}.\n"
)
TOPICS = {
    "cache": ("WEP-7: Wavelet Data Cache", "adds a data cache that streams training shards to every worker"),
    "sdk": ("WEP-9: Wavelet SDK for Model Builders", "adds one Python SDK for every Wavelet project"),
    **{
        f"p{n}": (f"WEP-{20 + n}: Wavelet {name.title()} Integration", f"integrates {name} with Wavelet jobs")
        for n, name in enumerate(
            "mlflow ray spark dask kserve katib feast argo tekton airflow flyte prefect kueue volcano "
            "yunikorn jupyter vscode rstudio".split()
        )
    },
}


def test_the_report_asks_about_the_subject_the_corpus_names(kb_root: Path) -> None:
    files = {
        f"{key}.md": PROPOSAL.format(
            title=title, what=what, why=f"{key} support, which {what.split()[0]} gives"
        )
        for key, (title, what) in TOPICS.items()
    }
    topic = "How does the planned Wavelet data cache shorten model loading for distributed jobs?"
    report = offline_report(kb_root, files, topic)
    headings = [line for line in report.splitlines() if line.startswith("## ")]
    assert "## What is Wavelet data cache?" in headings
    assert not [h for h in headings if h.rstrip("?").endswith(" Wavelet")]
    assert plan_subject(topic) == "Wavelet"  # the run's subject lasts as long as the run


RELEASE = (
    "# WEP-12: Proposal to update the Release Process for Wavelet\n\n## Summary\n\nThis proposal shares what the "
    "Wavelet release team learned about the release process.\n\n## Proposal\n\n### Release Meetings\n\n"
    "Release cadence for every Wavelet release:\n\n- Week 0: leads and the Release Manager agree the roadmap.\n"
    "- Week 9: feature freeze; leads prepare the release notes.\n- Week 12: the Release Manager cuts the "
    "release.\n"
)


def test_the_question_as_written_is_answered_by_its_section_whatever_the_corpus_calls_its_subject(
    kb_root: Path,
) -> None:
    files = {
        f"{key}.md": PROPOSAL.format(
            title=title, what=what, why=f"{key} support, which {what.split()[0]} gives"
        )
        for key, (title, what) in TOPICS.items()
    }
    topic = "How does the revised Wavelet release process plan each release, and who does what?"
    report = offline_report(kb_root, {**files, "release.md": RELEASE}, topic)
    sections = dict(part.split("\n", 1) for part in report.split("\n## ")[1:])
    assert "What is release process?" in sections
    # the words the question asks besides its subject ("revised", "plan") are no test its section must pass
    asked = sections[topic]
    assert "do not answer" not in asked and "Week 9" in asked


def test_a_span_never_starts_or_ends_inside_a_hyphenated_word() -> None:
    """A hyphen split the question's words, so "non-blocking" gave the span "blocking" that a title holds too:
    a report on a non-blocking design asked "What does blocking involve?", the opposite of its subject."""
    corpus = CorpusNames.of(["WEP-3: Non-Blocking Sweep", "WEP-4: Snapshot Export"], shared=["wavelet"])
    assert named_subject("How does the Wavelet non-blocking sweep work, and what does it lock?", corpus) == (
        "non-blocking sweep"
    )
    assert named_subject("How does Wavelet's non-blocking garbage collection work?", corpus) == "non-blocking"
