"""A topic phrased as a question about a subject and two aspects ("How X keeps Y secure and fast"), over a
small collection shaped like deepkb's own docs/: the subject is defined in one document's opening, each
aspect is answered by another document that names neither the aspect's adjective nor the topic's object
(issue 30: the shipped topic's report never said what deepkb is and answered a generic template)."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import config, entry, make_corpus, offline, topic_dir

from generator.app.topic_target import topic_target
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.topic.aspects import aspect_words
from generator.topic.defining import opens_with_subject, topic_aspects
from generator.topic.pipeline import run_topic_research

TOPIC = "How cratebay keeps a package mirror secure and fast"

CORPUS = {
    "overview.md": "# cratebay overview\n\n"
    "cratebay copies public package registries into a mirror that a team runs itself. It serves the copied "
    "packages over plain HTTP to every build machine of the team.\n\n"
    "A package mirror is a folder with a cratebay.toml file. The file lists the registries to copy, the "
    "schedule of the copies and the address the mirror listens on.\n",
    "untrusted.md": "# Handling untrusted archives\n\n"
    "cratebay reads archives that nobody vetted. Every archive is checked against the checksum its "
    "registry publishes before it is stored, and an archive whose checksum differs is refused.\n\n"
    "Archive entries with unsafe paths, absolute paths or links pointing outside the archive are refused "
    "before anything is unpacked, and secrets found in metadata are redacted from every log line.\n",
    "serving.md": "# Serving builds quickly\n\n"
    "Responses come from a cache on local disk, so a build that asks for a package twice reads it once "
    "from the registry. The latency of a cached answer stays below a millisecond on the benchmarks.\n\n"
    "cratebay compresses the index files of a package mirror once when they are copied, and the "
    "performance of a cold start depends only on the size of the index, not on the number of packages.\n",
    "mirror-layout.md": "# The mirror's folders\n\n"
    "The package mirror keeps each registry in its own folder under data/. Package names are normalised "
    "to lower case, so that two spellings of one name meet in one folder of the package mirror.\n",
    "release-notes.md": "# Release notes\n\n"
    "Version 2 renamed the configuration file and dropped support for the old index format of the "
    "package mirror.\n",
}


def test_aspects_and_subject_opening_are_read_from_the_topic_and_the_documents() -> None:
    assert topic_aspects(TOPIC) == [
        "How cratebay keeps a package mirror secure",
        "How cratebay keeps a package mirror fast",
    ]
    assert topic_aspects("the question mark operator and the Try trait") == []  # names its subjects
    assert topic_aspects("How X works and why") == []
    assert opens_with_subject(CORPUS["untrusted.md"], "cratebay")
    assert not opens_with_subject(CORPUS["serving.md"], "cratebay")
    assert not opens_with_subject("# Notes\n\ncratebay's cache is a folder.\n", "cratebay")
    asked = topic_aspects(TOPIC)
    assert {"secur", "unsaf"} <= aspect_words(asked[0], asked) and "fast" not in aspect_words(asked[1], asked)


def test_question_topic_is_answered_aspect_by_aspect_from_the_defining_documents(kb_root: Path) -> None:
    make_corpus(kb_root, CORPUS)
    paths = KBPaths(kb_root)
    result = run_topic_research(
        paths, config(), offline(), topic_target(paths, entry(topic=TOPIC)), publish=publish_topic
    )
    meta, report = read_page(topic_dir(kb_root, result.slug) / "output" / "report.md")
    summary = report.split("## Summary", 1)[1].split("\n## ", 1)[0].strip()
    assert summary.startswith("cratebay copies public package registries")  # what the subject is, first
    sections = {
        part.split("\n", 1)[0]: part.split("\n", 1)[1] for part in report.split("\n## ")[1:] if "\n" in part
    }
    assert "cratebay copies public package registries" in sections["What is cratebay?"]
    # the definition is read first, then the aspects the topic asks about
    assert list(sections)[1:4] == [
        "What is cratebay?",
        "How cratebay keeps a package mirror secure",
        "How cratebay keeps a package mirror fast",
    ]
    secure = sections["How cratebay keeps a package mirror secure"]
    fast = sections["How cratebay keeps a package mirror fast"]
    assert "unsafe paths" in secure and "do not answer" not in secure
    assert "cache on local disk" in fast and "do not answer" not in fast
    assert not any("alternatives" in q or "benefits" in q for q in meta["sub_questions"])
    cited = report.split("## References", 1)[1]
    assert all(name in cited for name in ("overview.md", "untrusted.md", "serving.md"))
    assert result.status == "completed"
