"""A question naming a release is answered by that release's document, not by the same-titled documents of
other releases (issue 30: ant-design-vue's "从 3.x 升级到 4.x 有哪些不兼容的变化" quoted the v3 and v2 upgrade
guides, all three titled "升级准备", and never the v4 guide it stored)."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import config, entry, make_corpus, offline, topic_dir

from generator.app.topic_target import topic_target
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.topic.pipeline import run_topic_research
from generator.topic.versions import asked_releases


def _guide(major: int, changes: str) -> str:
    return (
        "# Upgrading\n\n"
        f"This guide lists the incompatible changes of the upgrade to widgetkit {major}.0 and how to upgrade "
        "widgetkit projects.\n\n"
        f"## Incompatible changes in {major}.0\n\n{changes}\n"
    )


CORPUS = {
    "migration-v2.md": _guide(2, "The widgetkit icons moved to a package of their own, which saves 150 KB."),
    "migration-v3.md": _guide(
        3, "The widgetkit font colour is darker and the deprecated widgetkit APIs are removed."
    ),
    "migration-v4.md": _guide(4, "The widgetkit styles are written in CSS-in-JS and less is no longer used."),
}


def test_the_release_an_upgrade_goes_to_is_the_one_asked() -> None:
    assert asked_releases("从 3.x 升级到 4.x 有哪些不兼容的变化") == {"4"}
    assert asked_releases("How do clients work in IBC v2?") == {"2"}
    assert asked_releases("How does ICS-20 work?") == set()


def test_an_upgrade_question_is_answered_by_the_guide_of_its_release(kb_root: Path) -> None:
    make_corpus(kb_root, CORPUS)
    paths = KBPaths(kb_root)
    topic = "widgetkit upgrade from 3.x to 4.x incompatible changes"
    result = run_topic_research(
        paths, config(), offline(), topic_target(paths, entry(topic=topic)), publish=publish_topic
    )
    _, report = read_page(topic_dir(kb_root, result.slug) / "output" / "report.md")
    assert "CSS-in-JS" in report
    assert "150 KB" not in report and "font colour" not in report
    cited = report.split("## References", 1)[1]
    assert "migration-v4.md" in cited
    assert "migration-v3.md" not in cited and "migration-v2.md" not in cited
