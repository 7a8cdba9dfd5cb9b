"""Chinese word segmentation with jieba, loaded on first use.

jieba caches its parsed dictionary in the system temp dir by default, where another user could plant one
for it to load; we point it at deepkb's cache dir (`$DEEPKB_CACHE_DIR`, else the user's own cache folder).
Its import is heavy, so nothing imports jieba until text with Han characters (or the MkDocs build, whose
search plugin uses it) needs it.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Literal

CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def is_cjk(char: str) -> bool:
    """One Han character (the unified ideographs and extension A): about a word of Chinese."""
    return len(char) == 1 and "\u3400" <= char <= "\u9fff"


def written_language(text: str) -> Literal["en", "zh"]:
    """ "zh" for a text written in Chinese (more Han characters than Latin words: "Apollo 的灰度发布怎么用？"),
    else "en" ("What is 交易?")."""
    han = sum(len(run) for run in CJK_RUN.findall(text))
    return "zh" if han > len(_LATIN_WORD.findall(text)) else "en"


# a Latin word or a number of a sentence, outside its Han runs ("Hexo", "type", "4.6", "Front-matter")
_LATIN_WORD = re.compile(r"[A-Za-z0-9][\w.'’+#-]*")


def sentence_words(text: str) -> float:
    """How many words a sentence says: each Latin word or number once, each Han character half. A Chinese
    word is one to three characters, most often two ("部署", "策略"), so "Hexo 提供快速、简便的部署策略。" says
    about as much as "Hexo offers a fast, simple way to deploy." (six and a half words, seven)."""
    han = sum(1 for ch in text if is_cjk(ch))
    return han / 2 + len(_LATIN_WORD.findall(CJK_RUN.sub(" ", text)))


# a Chinese clause closing its paragraph on a Han character, a name or an inline code word: not a label, a lead-in
# ("：") or a list's run ("，", "、")
_UNSTOPPED_END = re.compile(r"[\u3400-\u9fff\w`)）》」”]$")
UNSTOPPED_WORDS = (
    8  # words (`sentence_words`) a sentence says without its stop, a caption or label says fewer
)


def unstopped_sentence(text: str) -> bool:
    """Whether a paragraph's last words are a Chinese sentence written without its full stop, as many Chinese
    pages close a paragraph ("预加载能力可以极大的提升子应用打开的首屏时间", wujie's docs in 123 of 172 paragraphs):
    Chinese, long enough to be a sentence rather than a caption ("CSS 冲突示例"), and closing on a word."""
    text = text.strip()
    han = sum(1 for ch in text if is_cjk(ch))
    return han >= 4 and sentence_words(text) >= UNSTOPPED_WORDS and bool(_UNSTOPPED_END.search(text))


# a space after a Chinese sentence's full-width stop: what joining quoted sentences with " " leaves
_SPACED_STOP = re.compile(r"(?<=[。！？；])[ \t]+(?=\S)")


def run_on(text: str) -> str:
    """Chinese sentences as Chinese writes them, one running on after the other's full-width stop: quoted
    sentence by sentence and joined as Latin sentences are, "对象。 当应用变得非常复杂时" reads as a foreign
    text would ("对象。当应用变得非常复杂时"); a Latin sentence's space after its "." stays."""
    return _SPACED_STOP.sub("", text)


def cache_dir() -> Path:
    """Where jieba keeps its parsed dictionary: one user's folder, shared by every knowledge base it opens."""
    override = os.environ.get("DEEPKB_CACHE_DIR")
    if override:
        return Path(override)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "deepkb"


def jieba() -> ModuleType:
    """The jieba module, quiet and with its cache in our cache dir."""
    import logging

    import jieba as module

    module.setLogLevel(logging.WARNING)  # its dictionary-loading chatter is not for our users
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    module.dt.tmp_dir = str(folder)
    return module


def segment(text: str, *, search_mode: bool = False) -> str:
    """`text` with every Han run split into space-separated words (search mode cuts finer, for recall)."""
    if not CJK_RUN.search(text):
        return text
    cut = _cut_for_search if search_mode else _cut
    return CJK_RUN.sub(lambda m: " " + cut(m.group(0)) + " ", text)


# A page is indexed whole and again passage by passage (kb/passages.py): each Han run is cut once.
@lru_cache(maxsize=8192)
def _cut_for_search(run: str) -> str:
    return " ".join(w for w in jieba().cut_for_search(run) if w.strip())


@lru_cache(maxsize=8192)
def _cut(run: str) -> str:
    return " ".join(w for w in jieba().cut(run) if w.strip())


def words(run: str) -> list[str]:
    """The words of one Han run."""
    return [w for w in jieba().lcut(run) if w.strip()]
