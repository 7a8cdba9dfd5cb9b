"""What a page says to win readers rather than to inform them: a request for a star, an invitation to a chat
group, a count of users or demos, a sponsor's plea, and the sections holding them ("## 💬 交流群", "## Star
History", "## Sponsors"). Quoted in a report, none of it answers what a reader asked.
"""

from __future__ import annotations

import re

# a sentence asking for a star, a donation or a follow, inviting to a chat group, or counting its own success
_PROMOTING = re.compile(
    r"点上?一?个\s*`?star|给.{0,12}(?:点)?(?:一?个)?\s*`?star|求\s*`?star|欢迎\s*`?star|star\s*一下"
    r"|(?:加入|扫码进|扫码加入|进入).{0,20}(?:群|频道|社区)|(?:qq|微信|钉钉|飞书|技术|讨论|交流|粉丝|用户)群"
    r"|赞助|捐赠|打赏|请作者喝|关注(?:我们|公众号)|深受.{0,12}(?:喜爱|欢迎|好评)"
    r"|\bstar\s+(?:us|it|the\s+(?:repo|repository|project)|this\s+(?:repo|repository|project))\b"
    r"|\bgive\s+(?:us|it|the\s+project|this\s+project)\s+an?\s+(?:star|⭐)"
    r"|\bjoin\s+(?:us|our|the)\b.{0,40}\b(?:discord|slack|gitter|telegram|matrix\s+room|community|chat"
    r"|forum|mailing\s+list|server)\b"
    r"|\b(?:patreon|open\s?collective|ko-?fi|buy\s+me\s+a\s+coffee)\b"
    r"|\bfollow\s+us\s+on\b"
    # a count of its own success: "60+ Demo", "25+ 微信粉丝群", "1000+ stars", "500+ contributors"
    r"|\d[\d,]*\s*\+\s*(?:个\s*)?(?:demos?\b|stars?\b|contributors?\b|users?\b|companies\b|downloads?\b"
    r"|示例|粉丝|贡献者|用户|企业|下载|开源项目)",
    re.IGNORECASE,
)
# a section speaking of the project's community, its standing or other projects, not of what it does
_COMMUNITY_HEADING = re.compile(
    r"交流群|讨论群|粉丝群|加入我们|加入讨论|贡献者|参与贡献|贡献指南|赞助|捐赠|致谢|鸣谢|友情链接|star\s*趋势"
    r"|使用.{0,30}的(?:开源)?项目|其[它他]语言版本|示例大全|^\W*(?:加入)?社区\W*$"
    r"|^\W*(?:star\s+history|stargazers|contribut\w*(?:\s+to\b.*)?|community(?:\s+(?:and|&)\s+support)?"
    r"|sponsors?|backers|donat\w+|acknowledg\w*|special\s+thanks|who\s+uses\b.*|used\s+by\b.*|adopters"
    r"|showcase|join\s+us)\W*$",
    re.IGNORECASE,
)


def promotes(text: str) -> bool:
    """Whether a passage asks readers for a star, a donation or a follow, invites them to a chat group, or
    counts its own success ("此压缩包共计 60+ Demo", "1000+ stars")."""
    return _PROMOTING.search(text) is not None


def community_heading(heading: str) -> bool:
    """Whether a section's heading names the project's community, standing or neighbours ("## 💬 交流群",
    "## 📈 开源仓库 Star 趋势", "## 🚀 使用 Sa-Token 的开源项目", "## Sponsors", "## Who uses it")."""
    return _COMMUNITY_HEADING.search(heading) is not None
