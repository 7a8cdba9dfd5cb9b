"""Which search providers a query goes to (seed: academic → arXiv / Semantic Scholar; a URL → crawl, when a
web provider is configured; general → the configured web providers; the local folders and the knowledge base always)."""

from __future__ import annotations

import re

ACADEMIC_PROVIDERS = ("arxiv", "semantic_scholar")
LOCAL_PROVIDERS = ("local", "kb")
CRAWL = "crawl"

_URL = re.compile(r"https?://\S+", re.IGNORECASE)
_ACADEMIC_WORDS = re.compile(
    r"\b(papers?|arxiv|stud(?:y|ies)|theorems?|lemmas?|proofs?|surveys?|preprints?|journals?|"
    r"peer[- ]reviewed|citations?|literature review|meta-analysis|conference|proceedings|"
    r"neurips|icml|iclr|acl|emnlp|cvpr|doi)\b"
    r"|论文|综述|定理|期刊|文献|学术|研究进展|预印本"
    r"|\b\d{4}\.\d{4,5}(v\d+)?\b|\b10\.\d{4,9}/\S+",
    re.IGNORECASE,
)


def is_url_query(query: str) -> bool:
    """A query that is (or starts with) a web address goes to the crawler."""
    return bool(_URL.match(query.strip()))


def route_query(query: str, configured: list[str]) -> list[str]:
    """The provider specs (from `configured`, plus "crawl" for a URL) this query should be sent to."""
    specs = list(dict.fromkeys(s.strip() for s in configured if s.strip()))
    local = [s for s in specs if _name(s) in LOCAL_PROVIDERS]
    remote = [s for s in specs if _name(s) not in LOCAL_PROVIDERS]
    academic = [s for s in remote if _name(s) in ACADEMIC_PROVIDERS]
    web = [s for s in remote if _name(s) not in ACADEMIC_PROVIDERS]
    if is_url_query(query):
        chosen = [CRAWL] if remote else []  # a topic whose sources are all local never reaches the web
    elif _ACADEMIC_WORDS.search(query):
        chosen = academic or web
    else:
        chosen = web or academic  # something configured beats nothing
    return chosen + local


def _name(spec: str) -> str:
    return spec.partition(":")[0].strip()
