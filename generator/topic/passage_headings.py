"""What the headings a passage stands under say of it: in a reference's entry (a section headed by the API
it describes) it speaks of that API, in a section on the project's community it promotes the project."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..text.promotion import community_heading, promotes
from .section_tree import TextSection, text_sections
from .sentences import clean

# a reference entry's heading is the API it describes: "registerValidateLocale", "FormDialog.Portal",
# "hydrate(dom: HTMLElement, options)" — an identifier in code's spelling (mixed case, a dot, an underscore or
# a call's parentheses), not a word ("Installation", "API")
_ENTRY_NAME = re.compile(r"^`?(?P<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)`?\s*(?P<call>\(.*\))?\s*$")


# the parts an entry is written in, under its name: what they say is said of the entry
_ENTRY_PARTS = re.compile(
    r"^(?:描述|说明|签名|用例|示例|例子|参数|返回值?|类型|用法|description|signature|usage|examples?"
    r"|parameters|params|arguments|returns?|type)$",
    re.I,
)


_NOT_WORD = re.compile(r"[\W_]+")


def entry_name(heading: str) -> str:
    """The API a reference entry's heading names ("hydrate" for "hydrate(dom, options)", "FormDialog.Portal"),
    '' for a heading in words."""
    found = _ENTRY_NAME.match(heading.strip())
    if found is None:
        return ""
    name = found["name"]
    coded = found["call"] or "." in name or "_" in name or re.search(r"[a-z][A-Z]", name)
    return name if coded else ""


def stranded_in_entry(passage: str, text: str, subject: str = "") -> bool:
    """Whether a passage stands in a reference entry of `text` (a section headed by the API it describes, or
    one of its parts: "#### 描述" under "## registerValidateLocale") without naming that API: read alone, "全局
    注册校验语言包…" says nothing of registerValidateLocale, "dom：图表容器…" of hydrate, "接收可选的 id 属性…" of
    FormDialog.Portal. A document's title and an entry named by the `subject` are no such entry: the report
    names them."""
    path = _heading_path(passage, text)
    return _unnamed_entry(passage, [h for level, h in path if level > 1 and h], subject)


def promoting(passage: str, text: str) -> bool:
    """Whether a passage of `text` promotes its project rather than informs (text/promotion.py): it asks for a
    star or invites to a chat group itself ("如果 Sa-Token 帮助到了您，希望您可以为其点上一个 star"), or it stands in
    a section on the project's community or standing ("## 📚 示例大全": "此压缩包共计 60+ Demo"). Such text
    answers no question a reader brings, whatever words it shares with it."""
    return promotes(passage) or any(community_heading(h) for _, h in _heading_path(passage, text) if h)


def _heading_path(passage: str, text: str) -> list[tuple[int, str]]:
    """The (level, heading) of the section of `text` holding a passage and of each section it stands in, top
    down; [] when the passage is not found there."""
    key = _NOT_WORD.sub("", clean(passage)).lower()[:24]
    if not key:
        return []
    path: list[tuple[int, str]] = []
    for section in _sections(text):
        path = [(level, h) for level, h in path if level < section.level] + [(section.level, section.heading)]
        if any(key in _NOT_WORD.sub("", clean(block)).lower() for block in section.blocks):
            return path
    return []


@lru_cache(maxsize=64)
def _sections(text: str) -> tuple[TextSection, ...]:
    return tuple(text_sections(text))  # every passage of a source is looked up in it


def _unnamed_entry(passage: str, headings: Sequence[str], subject: str) -> bool:
    """Whether the entry a passage stands in (its section, or the one its part stands in) goes unnamed."""
    while headings and _ENTRY_PARTS.match(headings[-1].strip()):
        headings = headings[:-1]
    name = entry_name(headings[-1]) if headings else ""
    return bool(name) and not _names_entry(passage, name) and not _names_entry(subject, name)


def _names_entry(text: str, name: str) -> bool:
    lowered = text.lower()
    return name.lower() in lowered or name.rsplit(".", 1)[-1].lower() in lowered
