"""A Markdown text's line rewrites (MDX imports, partials, JSX comments, exercises, MyST includes and
eval-rst) look for their code fences only when the text writes their marker: a plain page is scanned for
fences once (for the site markup), not five times; a page that writes a marker is rewritten as before."""

from __future__ import annotations

import pytest

from generator.documents import markdown, read_text

PLAIN = (
    '# Routers\n\nA router matches requests.\n\n```go\nhttp.ListenAndServe(":80", nil)\n```\n\n- one\n- two\n'
)


def _fence_scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    scans: list[int] = []
    scan = markdown._outside_fences

    def counted(lines: list[str]) -> list[bool]:
        scans.append(len(lines))
        return scan(lines)

    monkeypatch.setattr(markdown, "_outside_fences", counted)
    return scans


def test_a_page_writing_no_marker_is_scanned_for_fences_once(monkeypatch: pytest.MonkeyPatch) -> None:
    scans = _fence_scans(monkeypatch)
    doc = read_text(PLAIN, name="docs/routers.md")
    assert len(scans) == 1
    assert [b.text for _, b in doc.blocks()] == [
        "A router matches requests.",
        'http.ListenAndServe(":80", nil)',
        "one",
        "two",
    ]


def test_each_marker_still_rewrites_its_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        "# Guide {/*guide*/}\n\n"
        "import Tabs from '@theme/Tabs';\n\n"
        "Intro text.\n\n"
        "<Challenges>\n\nSolve it.\n\n</Challenges>\n\n"
        "```{EVAL-RST}\n.. note:: Read this first.\n```\n\n"
        "```{include} ../CHANGES.md\n```\n\n"
        "Outro text.\n"
    )
    scans = _fence_scans(monkeypatch)
    doc = read_text(text, name="docs/guide.md")
    assert len(scans) == 5
    assert doc.title == "Guide"
    # the import and the exercise blanked, the anchor dropped, the reST note read, the include left out
    assert [b.text for _, b in doc.blocks()] == ["Intro text.", "Read this first.", "Outro text."]
