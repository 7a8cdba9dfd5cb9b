"""A report quotes what answers, not adverts (issue 30, items 4 and 5; session 37's held-out Sa-Token and Matrix
reports): a question asking how a thing is done is answered from the sections that show it done — a section
opening on its API calls is quoted by them under its heading ("### 2、踢人下线" and `StpUtil.kickout`), a
specification's "Server behaviour" by its steps with their lead-in — and a request for a star, an invitation
to a chat group or a count of demos never answers anything."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import config, entry, make_corpus, offline, topic_dir

from generator.app.topic_target import topic_target
from generator.site.pages.topic import publish_topic
from generator.store import KBPaths, read_page
from generator.text.promotion import community_heading, promotes
from generator.topic import workspace as wsp
from generator.topic.findings import Catalog
from generator.topic.headings import section_facets, unnumbered
from generator.topic.judge import RelevanceJudge
from generator.topic.opening_passages import opening_passages
from generator.topic.passage_headings import promoting
from generator.topic.passage_pools import asks_how, passage_pools
from generator.topic.pipeline import run_topic_research
from generator.topic.plan import Plan, Step
from generator.topic.section_tree import text_sections
from generator.topic.stating_parts import stating_parts
from generator.topic.topic_point import sentence_statistics

KICKOUT = (
    "StpUtil.kickout(10001);                    // 将指定账号踢下线\n"
    'StpUtil.kickout(10001, "PC");              // 将指定账号指定端踢下线'
)
KICK = (
    "# 踢人下线\n\n所谓踢人下线，核心操作就是找到指定 loginId 对应的 Token，并设置其失效。Kickbay 提供三种让账号下线的方式。\n\n"
    "### 1、强制注销\n\n```java\nStpUtil.logout(10001);                    // 强制指定账号注销下线\n```\n\n"
    f"### 2、踢人下线\n\n```java\n{KICKOUT}\n```\n\n"
    "强制注销 和 踢人下线 的区别在于：\n\n- 强制注销等价于对方主动调用了注销方法，再次访问会提示：Token无效。\n"
    "- 踢人下线不会清除Token信息，而是将其打上特定标记，再次访问会提示：Token已被踢下线。\n"
)
README = (
    "# 📝 前言\n\n## 🛠️ Kickbay 介绍\n\nKickbay 是一个轻量级 Java 权限认证框架，主要解决登录认证、权限认证、"
    "单点登录、踢人下线等一系列权限相关问题。\n\n"
    "Kickbay 目前主要五大功能模块：登录认证、权限认证、单点登录、踢人下线、微服务鉴权。\n\n"
    "## 📈 开源仓库 Star 趋势\n\n如果 Kickbay 帮助到了您，希望您可以为其点上一个 star：码云、GitHub。\n\n"
    "## 📚 示例大全\n\n我们为框架几乎所有技术点均单独制作了对应的集成示例，此压缩包共计 60+ Demo：涵盖登录认证、"
    "踢人下线、权限认证等方方面面。\n\n"
    "## 💬 交流群\n\n加入 Kickbay 框架 QQ、微信讨论群，和大家一起讨论踢人下线：点击加入。\n"
)
LOGIN = (
    "# 登录认证\n\nKickbay 的登录认证用 StpUtil.login(id) 为账号创建 Token，会话在 Token 失效前一直有效。\n\n"
    "### 注销\n\n账号注销后 Token 失效，再次访问会提示 Token 无效，与踢人下线不同。\n"
)


def _sections(report: str) -> dict[str, str]:
    return {
        part.split("\n", 1)[0]: part.split("\n", 1)[1] for part in report.split("\n## ")[1:] if "\n" in part
    }


def test_adverts_and_community_sections_are_told_apart_from_content() -> None:
    assert promotes("如果 Sa-Token 帮助到了您，希望您可以为其点上一个 star： 码云、 AtomGit、 GitHub")
    assert promotes("加入 Sa-Token 框架 QQ、微信讨论群：点击加入")
    assert promotes("此压缩包共计 60+ Demo：涵盖 Sa-Token 登录认证")
    assert promotes("If this project helps you, give it a star on GitHub.")
    assert promotes("Join our Discord server to chat with the maintainers.")
    assert not promotes("Sa-Token 目前主要五大功能模块：登录认证、权限认证、单点登录、OAuth2.0、微服务鉴权。")
    assert not promotes("A sponsored transaction lets a fee payer cover the gas of another account.")
    assert not promotes("The server joins the room on behalf of the user.")
    for heading in (
        "💬 交流群",
        "📈 开源仓库 Star 趋势",
        "🚀 使用 Sa-Token 的开源项目",
        "Contributing",
        "Sponsors",
    ):
        assert community_heading(heading), heading
    for heading in ("社区插件", "Server behaviour", "Community detection algorithm", "踢人下线"):
        assert not community_heading(heading), heading
    # a passage standing in such a section promotes, whatever its own words
    assert promoting("我们为框架几乎所有技术点均单独制作了对应的集成示例。", README.replace("60+ ", ""))
    assert not promoting(
        "Kickbay 目前主要五大功能模块：登录认证、权限认证、单点登录、踢人下线、微服务鉴权。", README
    )


def test_a_question_asking_how_and_a_section_opening_on_its_calls() -> None:
    assert asks_how("Sa-Token 如何踢人下线") and asks_how(
        "How are Matrix rooms upgraded to a new room version?"
    )
    assert not asks_how("Sa-Token 单点登录 SSO 三种模式怎么选") and not asks_how("What is a room version?")
    assert not asks_how("How to choose a storage engine")
    assert not asks_how("How do keyless accounts work on Aptos?") and not asks_how("arthas 热更新如何工作？")
    assert unnumbered("2、踢人下线") == "踢人下线"
    assert section_facets("Server behaviour") == {"how"} and section_facets("Client behavior") == {"how"}
    section = next(s for s in text_sections(KICK) if s.heading == "2、踢人下线")
    shown = opening_passages(section, 2, example_alone=True, shown_first=True)
    assert [(p.text, p.code) for p in shown][:1] == [("踢人下线:", KICKOUT)]
    # a section whose only prose comes after its example is quoted by the example wherever usage is asked
    assert [p.text for p in opening_passages(section, 1, example_alone=True)] == ["踢人下线:"]


def test_how_to_report_quotes_the_api_calls_and_no_advert(kb_root: Path) -> None:
    others = {f"page{n}.md": f"# 组件 {n}\n\n第 {n} 个组件用来展示一段文字和一张图片。\n" for n in range(4)}
    make_corpus(kb_root, {"kick.md": KICK, "README.md": README, "login.md": LOGIN, **others})
    paths = KBPaths(kb_root)
    target = topic_target(paths, entry(topic="Kickbay 如何踢人下线", verify=False, lang="zh"))
    result = run_topic_research(paths, config(), offline(), target, publish=publish_topic)
    _, report = read_page(topic_dir(kb_root, result.slug) / "output" / "report.md")
    asked = _sections(report)["Kickbay 如何踢人下线"]
    assert "StpUtil.kickout(10001);" in asked  # the operation asked about, shown by its calls
    for advert in ("star", "讨论群", "60+ Demo"):
        assert advert not in report, advert


VERSIONS = (
    "# Room Versions\n\nRooms are central to how Quill operates. Room versions manage a set of expectations for "
    "each room, and rooms move between room versions by upgrading to the desired version.\n\n"
    "## Properties\n\nRoom versions are used to change properties of rooms that may not be compatible with "
    "other servers, such as the rules for event authorisation.\n\n"
    "## Stability\n\nRoom versions are divided into stable and unstable ones. Clients should not ask room "
    "administrators to upgrade their rooms if the room is running a stable version.\n"
)
UPGRADES = (
    "# Room Upgrades\n\nFrom time to time, a Quill room may need to be upgraded to a different room version for a "
    "variety of reasons.\n\n## Client behaviour\n\nClients which understand tombstone events should tell the "
    "user that the room was upgraded and link the old room to the new one.\n\n## Server behaviour\n\n"
    "When the client requests to upgrade a known room to a known version, the server:\n\n"
    "1. Checks that the user has permission to send tombstone events in the room.\n"
    "2. Creates a replacement room with a create event containing a predecessor field.\n"
    "3. Replicates transferable state events to the new room, but never membership events.\n"
    "4. Sends a tombstone event to the old room to indicate that it is not intended to be used any further.\n"
)


def test_a_specification_says_how_it_works_in_each_party_s_behaviour() -> None:
    # stored as the document reader gives it: the lead-in with its items, no blank line between
    stored = UPGRADES.replace("server:\n\n1. ", "server:\n- ")
    for n in (2, 3, 4):
        stored = stored.replace(f"\n{n}. ", "\n- ")
    stored += "\n## Implementation notes\n\nServers keep the old room readable after the upgrade.\n"
    upgrades = wsp.RawSource(
        "local-u", "local", "local:upgrades.md", "Room Upgrades", "t", stored, kind="local"
    )
    versions = wsp.RawSource(
        "local-v", "local", "local:rooms.md", "Room Versions", "t", VERSIONS, kind="local"
    )
    topic = "How are Quill rooms upgraded to a new room version?"
    judge = RelevanceJudge(topic)
    sentence_statistics(judge, [upgrades, versions])
    question = "How do Quill rooms work?"
    plan = Plan(
        topic=topic,
        sub_queries=[question],
        steps=[Step(id="s1", title="how", question=question, facet="how")],
    )
    ids = [upgrades.id, versions.id]
    pool = passage_pools(
        plan, Catalog([upgrades, versions]), [(question, question, ids)], judge, opening=upgrades.id
    )
    treating = [c for c in pool[question] if c.treats]
    steps = [c for c in treating if c.text.endswith("the server:")]
    assert (
        steps
        and steps[0].items[0] == "Checks that the user has permission to send tombstone events in the room."
    )
    assert len(steps[0].items) == 4  # the normative list whole, with its lead-in
    # …but what a party does is no statement of what the subject is: the definition reads elsewhere
    blocks = [b for b in stored.split("\n\n") if b.strip()]
    parts = stating_parts(blocks)
    assert parts[blocks.index(next(b for b in blocks if b.startswith("When the client")))] == ""
