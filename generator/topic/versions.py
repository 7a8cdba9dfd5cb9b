"""The version a topic asks about, and the stored documents of another version that may not answer it: a
collection keeps one upgrade guide per release under the same title ("升级准备" for ant-design-vue 2, 3 and 4;
"Client Semantics" for IBC and IBC v2), and a question naming one release is answered by that release's."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from .workspace import RawSource

# a release as a question or a title names it: "3.x", "4.0", "v2", "V5.1"
_RELEASE = re.compile(r"(?<![\w.])(?:v(\d+)(?:\.(?:\d+|x))*|(\d+)(?:\.(?:\d+|x))+)(?![\w.])", re.I)
# the release an upgrade goes to: "从 3.x 升级到 4.x", "from 3.x to 4.x", "3.x → 4.x", "升级到 ECharts 6"
_TARGET = re.compile(
    r"(?:到|至|\bto\b|\binto\b|→|->)\s*(?:版本\s*)?(?:[A-Za-z][\w.-]*\s+){0,2}v?(\d+)(?:\.(?:\d+|x))*(?![\w.])",
    re.I,
)
_NUMBER = re.compile(r"v?\d+(?:\.(?:\d+|x))*")
# a release in a document's path: "migration-v4.zh-CN.md", "IBC_V2/core/…", "v5-upgrade-guide.md"
_PATH_RELEASE = re.compile(r"(?:^|[/_.-])v(\d+)(?=$|[/_.-])", re.I)


def asked_releases(topic: str) -> set[str]:
    """The major releases a topic asks about: the one an upgrade goes to when it names one ("从 3.x 升级到
    4.x" → {"4"}), else every release it names; empty when it names none."""
    target = _TARGET.search(topic)
    if target:
        return {target.group(1)}
    return {m.group(1) or m.group(2) for m in _RELEASE.finditer(topic)}


def own_releases(source: RawSource) -> set[str]:
    """The major releases a document is of, as its path and title name them ("migration-v4" → {"4"};
    "Apache ECharts 6 升级指南" → {"6"})."""
    path = source.url.split(":", 1)[-1]
    found = {m.group(1) for m in _PATH_RELEASE.finditer(path)}
    return found | {m.group(0).lstrip("vV").split(".")[0] for m in _NUMBER.finditer(source.title)}


def of_asked_release(sources: Sequence[RawSource], topic: str) -> list[RawSource]:
    """`sources` without the documents of another release than the topic asks about: of documents sharing
    one title, when one is of the asked release, the others (of another release, or of none: the unversioned
    original beside "IBC_V2/…") do not answer. Documents titled alone, and every document when the topic
    names no release, stay."""
    asked = asked_releases(topic)
    if not asked:
        return list(sources)
    twins: dict[str, list[RawSource]] = defaultdict(list)
    for source in sources:
        # one title but for its release: "Apache ECharts 5 升级指南" and "Apache ECharts 6 升级指南"
        twins[" ".join(_NUMBER.sub(" ", source.title.lower()).split())].append(source)
    twins.pop("", None)  # titles that are only a release ("5.2.0") are no one document's
    other = {
        source.id
        for group in twins.values()
        if len(group) > 1 and any(own_releases(s) & asked for s in group)
        for source in group
        if not own_releases(source) & asked
    }
    return [s for s in sources if s.id not in other]
