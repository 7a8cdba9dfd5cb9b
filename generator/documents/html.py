"""HTML read as its main text (trafilatura, else lxml's visible text) turned into Markdown, then read by
the Markdown reader; formulas (MathML, KaTeX, MathJax, TeX-like image alt text) stay in as their TeX. A
block's lines are lines of that extracted text."""

from __future__ import annotations

import html as entities
import re

from ..text.htmlpage import html_title
from ..text.pagetext import html_to_markdown
from .markdown import read_markdown
from .model import Section

MAX_FORMULA = 200
_MATHML = re.compile(r"<math\b[^>]*?\balttext=\"([^\"]{1,200})\"[^>]*>.*?</math>", re.S | re.I)
_KATEX = re.compile(
    r"<span class=\"katex\">.*?<annotation encoding=\"application/x-tex\">(.{1,200}?)</annotation>.*?"
    r"</span></span>",
    re.S,
)
_MATHJAX = re.compile(r"<script type=\"math/tex[^\"]*\">(.{1,200}?)</script>", re.S)
_FORMULA_IMAGE = re.compile(r"<img\b[^>]*?\balt=\"([^\"]{1,40})\"[^>]*>", re.I)
_TEX_LIKE = re.compile(r"^(?:\S{1,3}|.*[\\^_{}=].*)$")


def read_html(raw: str, url: str = "") -> tuple[str, tuple[Section, ...]]:
    """(title, sections) of an HTML page."""
    text = html_to_markdown(keep_formulas(raw), url, fast=True)
    return html_title(raw), read_markdown(text)


def keep_formulas(raw: str) -> str:
    """Formulas as `<code>` TeX, which every extractor keeps, instead of markup it drops mid-sentence."""
    raw = _KATEX.sub(lambda m: _code(m.group(1)), raw)
    raw = _MATHML.sub(lambda m: _code(m.group(1)), raw)
    raw = _MATHJAX.sub(lambda m: _code(m.group(1)), raw)
    return _FORMULA_IMAGE.sub(lambda m: _code(m.group(1)) if _TEX_LIKE.match(m.group(1)) else m.group(0), raw)


def _code(tex: str) -> str:
    return f"<code>{entities.escape(entities.unescape(tex).strip()[:MAX_FORMULA])}</code>"
