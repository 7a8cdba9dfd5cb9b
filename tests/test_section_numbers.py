"""A heading numbered as a section of its page ("1.2.1 项目管理员权限", "3.2.1. Fields") names no version: such
a page is no release note, and its headings count for what it is about (retrieval/scoring.py)."""

from __future__ import annotations

from generator.retrieval.scoring import Fields, is_release_notes
from generator.topic.judge import RelevanceJudge

# Apollo's portal/apollo-user-guide.md: most headings carry a section number, and 灰度发布 is one of its chapters
USER_GUIDE = Fields(
    title="名词解释",
    headings="名词解释\n一、普通应用接入指南\n1.1 创建项目\n1.2 项目权限分配\n1.2.1 项目管理员权限\n"
    "五、灰度发布使用指南\n5.1 场景介绍\n5.2 创建灰度\n5.3 灰度配置\n5.4 配置灰度规则\n5.5 灰度发布",
    body="通过灰度发布功能，可以先在一个或者多个实例生效，观察一段时间没问题后再全量发布配置。" * 2,
    context="apollo",
)
# contribution/apollo-release-guide.md: a release procedure that names 灰度发布 once, in a list
RELEASE_GUIDE = Fields(
    title="Apollo 发布指南（Skill 自动化版）",
    headings="Apollo 发布指南（Skill 自动化版）\n适用范围\n发布流程\n人工确认点\n常见问题",
    body="发布流程由 3 个 Skill 覆盖。关键路径冒烟验证通过（配置发布、灰度发布、客户端拉取）。" * 2,
    context="apollo",
)


def test_a_numbered_section_heading_is_no_version() -> None:
    assert not is_release_notes(USER_GUIDE)
    assert not is_release_notes(
        Fields(title="Clawback", headings="1. Abstract\n3.2.1. Fields\n3.2.2. Flags\n4.1 Rules", body="")
    )
    assert is_release_notes(
        Fields(title="History", headings="v1.2.0\n1.1.0 (2021-01-02)\n1.0.0\n0.9.0", body="")
    )
    assert is_release_notes(
        Fields(title="History", headings="1.2.0 - 2021\n1.1.0\n1.0.1 Bug fixes\n1.0.0 released", body="")
    )


def test_a_user_guide_with_numbered_sections_is_judged_by_its_headings() -> None:
    """ "Apollo 的灰度发布怎么用？" scored the user guide, whose chapter 五 is 灰度发布使用指南, on its body alone:
    its headings read as versions made it a release note."""
    judge = RelevanceJudge("Apollo 的灰度发布怎么用？")
    guide, release = judge.judge(
        [("guide", USER_GUIDE), ("release", RELEASE_GUIDE)], "Apollo 的灰度发布怎么用？"
    )
    assert any(r.startswith("headings names 灰度") for r in guide.topic.reasons)
    assert guide.topic.score > release.topic.score
