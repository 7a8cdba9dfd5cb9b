"""Making untrusted text safe in the built site: page HTML through nh3, frontmatter fields to plain text.

Python-Markdown passes raw HTML and `javascript:` links through, and MkDocs/Material put frontmatter
fields (`title`, `description`, `tags`, …) into their templates unescaped (the theme's Jinja environment
does not autoescape). So the MkDocs plugin in `site/plugin.py` runs `clean_html` over every rendered page
body and `clean_meta` over every page's frontmatter, and `find_live_markup` checks each finished page.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import nh3

# What Material and our markdown extensions produce: headings with ids and headerlinks, tables, highlighted
# code (spans with classes, line-number anchors), admonitions, details, mermaid <pre>, images, lists.
ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd", "del",
    "details", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
    "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span", "strong",
    "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "*": {"class", "id", "title", "lang", "dir"},
    "a": {"href", "name"},
    "img": {"src", "alt", "width", "height", "loading"},
    "td": {"colspan", "rowspan", "align"},
    "th": {"colspan", "rowspan", "align", "scope"},
    "ol": {"start"},
    "details": {"open"},
    "time": {"datetime"},
}
URL_SCHEMES = {"http", "https", "mailto"}
# Removed together with their content, not just unwrapped.
DROP_WITH_CONTENT = {"script", "style", "iframe", "object", "embed", "noscript", "template", "svg", "math"}

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
_HTML_ELEMENTS = (
    "a|abbr|address|applet|area|article|aside|audio|b|base|basefont|bdi|bdo|blink|blockquote|body|br|button|"
    "canvas|caption|center|cite|code|col|colgroup|data|datalist|dd|del|details|dfn|dialog|div|dl|dt|em|embed|"
    "fieldset|figcaption|figure|font|footer|form|frame|frameset|h[1-6]|head|header|hr|html|i|iframe|image|img|"
    "input|ins|isindex|kbd|keygen|label|legend|li|link|listing|main|map|mark|marquee|math|menu|meta|meter|nav|"
    "noembed|noframes|noscript|object|ol|optgroup|option|output|p|param|picture|plaintext|pre|progress|q|rp|rt|"
    "ruby|s|samp|script|section|select|slot|small|source|span|strike|strong|style|sub|summary|sup|svg|table|"
    "tbody|td|template|textarea|tfoot|th|thead|time|title|tr|track|tt|u|ul|var|video|wbr|xmp"
)
# HTML tags, comments and declarations are removed; other angle brackets ("Vec<T>") stay as look-alikes
_TAG = re.compile(rf"<!--.*?(?:-->|$)|<[!?][^>]*>?|</?(?:{_HTML_ELEMENTS})(?=[\s/>]|$)[^>]*>?", re.I | re.S)
_TAG_SLUG = re.compile(r"[^\w\-. ]+", re.UNICODE)
# Jinja's `striptags` (used by Material for <title>) unescapes entities, so an `&lt;` in a title would come
# back as `<`; an ampersand that could start a character reference is replaced by a look-alike.
_ENTITY_START = re.compile(r"&(?=[#A-Za-z0-9])")

TEXT_FIELDS = {"title": 200, "description": 300, "subtitle": 200, "author": 100, "revision_date": 40}
# Keys the theme or MkDocs act on that untrusted frontmatter must not set (template picks a theme file,
# hide/search/status/icon change layout and indexing, social/robots emit markup).
DROPPED_KEYS = {
    "template",
    "hide",
    "search",
    "status",
    "icon",
    "robots",
    "social",
    "comments",
    "render_macros",
}


# Ids the theme and deepkb's scripts look elements up by (Material's `__config`, `__search`, `__drawer`…,
# deepkb's `deepkb-search`, mermaid's `deepkb-diagram-*` drawings): page content holding one would clobber
# it. pymdownx's line anchors are the one `__` family the body itself owns (Material links to them).
_RESERVED_ID = re.compile(r"(?!__codelineno-[\d-]+$)(?:__|deepkb-)")
RENAMED_ID_PREFIX = "kb-"
# A URL a browser resolves against another host: a scheme, or `//host` (a backslash counts as a slash)
_OUTSIDE_URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:|[/\\]{2}")
_URL_IGNORED = re.compile(r"[\t\n\r]")
# Bidi embeddings, overrides and isolates make text (code above all) read differently from what it holds.
_BIDI_CONTROL = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
_C0_AND_SPACE = "".join(chr(code) for code in range(0x21))


def clean_html(fragment: str) -> str:
    """A rendered page body with only the allowlisted markup left: no scripts, handlers, styles or bad URLs,
    no id the theme uses, no image from another host, no mermaid configuration, no bidi override."""
    cleaned = nh3.clean(
        fragment,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        clean_content_tags=DROP_WITH_CONTENT,
        strip_comments=True,
        link_rel=None,  # internal links need no rel; nothing opens a new window
        attribute_filter=_attribute_filter,
    )
    cleaned = _BIDI_CONTROL.sub("", cleaned)
    return _inert_diagrams(cleaned) if "deepkb-diagram" in cleaned else cleaned


def safe_id(value: str) -> str:
    """An id or anchor name page content may hold: one the theme or deepkb's scripts use gets a prefix."""
    return RENAMED_ID_PREFIX + value if _RESERVED_ID.match(value) else value


def clean_toc_title(title: str) -> str:
    """A table-of-contents entry as the sidebar prints it raw: Python-Markdown has escaped it already, so
    (idempotently: an escaped title holds no raw bracket) no tag can open there, and like the body and the
    page titles it keeps no bidi override or other control character."""
    return _CONTROL.sub("", title).replace("<", "&lt;").replace(">", "&gt;")


def outside_url(value: str) -> bool:
    """True when a browser would fetch `value` from a host of its own choosing rather than this site."""
    # URL parsing drops tabs and newlines anywhere and leading spaces and control characters
    return bool(_OUTSIDE_URL.match(_URL_IGNORED.sub("", value).lstrip(_C0_AND_SPACE)))


def _attribute_filter(tag: str, attribute: str, value: str) -> str | None:
    # ids and classes are names, never markup or script; drop anything that is not a plain token list
    if attribute in {"id", "class", "name"} and not re.fullmatch(r"[\w\-: .]*", value):
        return None
    if attribute in {"id", "name"}:
        return safe_id(value)
    if attribute == "href" and "#" in value and not outside_url(value):
        path, fragment = value.split("#", 1)
        return f"{path}#{safe_id(fragment)}"
    if attribute == "src" and outside_url(value):
        return None  # the README's promise: a page makes no request to another host
    return value


# superfences writes a ```mermaid fence as exactly this; mermaid obeys `%%{init: …}%%` directives and a
# `---` frontmatter block anywhere in that text (theme CSS, fonts, URLs), so both are removed
_FENCED_DIAGRAM = re.compile(r'<pre class="deepkb-diagram"><code>([^<]*)</code></pre>')
_MERMAID_CONFIG = re.compile(r"%%\{.*?(?:\}%%|\Z)|\A\s*---.*?(?:^---|\Z)", re.DOTALL | re.MULTILINE)
_PRE = re.compile(r"<pre\b([^>]*)>")
_DIAGRAM_CLASS = re.compile(r'(\sclass="(?:[^"]*\s)?)deepkb-diagram(?=[\s"])')


def _inert_diagrams(fragment: str) -> str:
    """Mermaid configuration removed from fenced diagrams; any other element claiming to be a diagram (raw
    HTML whose text could be split across tags) is left as text, never drawn."""
    parts: list[str] = []
    position = 0
    for tag in _PRE.finditer(fragment):
        if tag.start() < position or not _DIAGRAM_CLASS.search(tag.group(1)):
            continue
        parts.append(fragment[position : tag.start()])
        fenced = _FENCED_DIAGRAM.match(fragment, tag.start())
        if fenced:
            source = _MERMAID_CONFIG.sub("", fenced.group(1))
            parts.append(f'<pre class="deepkb-diagram"><code>{source}</code></pre>')
            position = fenced.end()
        else:
            parts.append(_DIAGRAM_CLASS.sub(r"\1deepkb-diagram-text", tag.group(0)))
            position = tag.end()
    return "".join(parts) + fragment[position:]


def plain_text(value: object, limit: int) -> str:
    """One line of inert text: tags and control characters removed, whitespace collapsed, length capped."""
    text = unicodedata.normalize("NFC", str(value))
    text = _CONTROL.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = " ".join(text.split())
    text = text.replace("<", "‹").replace(">", "›")
    text = _ENTITY_START.sub("＆", text)
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def clean_title(value: object) -> str:
    """A title safe in Material's raw `{{ page.title }}` and `{{ page.title | striptags }}` slots."""
    return plain_text(value, TEXT_FIELDS["title"]).replace('"', "”")


def clean_description(value: object) -> str:
    """A description safe inside `<meta name="description" content="…">` (quotes become entities)."""
    return html.escape(plain_text(value, TEXT_FIELDS["description"]), quote=True)


def clean_tag(value: object) -> str:
    """A tag as a plain slug-like word (letters of any script, digits, '-', '.', spaces)."""
    text = plain_text(value, 60).replace("‹", " ").replace("›", " ")
    text = _TAG_SLUG.sub(" ", text)
    return " ".join(text.split()).strip(" .-").lower()


def clean_tags(values: object) -> list[str]:
    """A deduplicated list of clean tags from whatever the frontmatter held (a list or one string)."""
    items: Iterable[Any] = values if isinstance(values, list | tuple) else [values] if values else []
    seen: list[str] = []
    for item in items:
        tag = clean_tag(item) if isinstance(item, str | int | float) else ""
        if tag and tag not in seen:
            seen.append(tag)
    return seen[:50]


def clean_meta(meta: Mapping[str, object]) -> dict[str, object]:
    """Frontmatter as the theme may see it: text fields plain, tags slug-like, layout-changing keys dropped."""
    clean: dict[str, object] = {}
    for key, value in meta.items():
        if not isinstance(key, str) or key in DROPPED_KEYS:
            continue
        if key == "title":
            clean[key] = clean_title(value)
        elif key == "description":
            clean[key] = clean_description(value)
        elif key == "tags":
            clean[key] = clean_tags(value)
        elif key in TEXT_FIELDS:
            clean[key] = plain_text(value, TEXT_FIELDS[key])
        else:
            # data fields (source, revision, files…): a theme or plugin may still print one raw, so no
            # string anywhere in them can open a tag or leave an attribute
            clean[key] = _inert(value)
    return clean


def _inert(value: object, depth: int = 0) -> object:
    if isinstance(value, str):
        text = _CONTROL.sub(" ", value).replace("<", "‹").replace(">", "›").replace('"', "”")
        return _ENTITY_START.sub("＆", text)
    if depth > 5:
        return None
    if isinstance(value, list | tuple):
        return [_inert(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {str(_inert(k, depth + 1)): _inert(v, depth + 1) for k, v in value.items()}
    return value


# --------------------------------------------------------------------------- final check of a built page


# Attributes a browser loads or navigates to (SVG animations set them through values/to/from).
_URL_ATTRIBUTES = frozenset(
    {"href", "src", "action", "formaction", "poster", "background", "xlink:href", "data", "lowsrc",
     "dynsrc", "codebase", "values", "to", "from"}
)  # fmt: skip
_FRAMES = frozenset({"iframe", "object", "embed", "frame", "frameset", "base", "applet"})
# a '<' html.parser left as text although a browser could open a tag there (a tag cut short, a tag hidden
# in a comment or declaration that a browser ends sooner): judged as live markup, never waved through
_TAG_START = re.compile(r"<[A-Za-z/!?]")


@dataclass(frozen=True)
class _Tag:
    name: str
    attributes: tuple[tuple[str, str], ...]
    in_article: bool
    self_closed: bool = False


@dataclass
class _Script:
    attributes: tuple[tuple[str, str], ...]
    text: list[str] = field(default_factory=list)
    closed: bool = False


class _PageTokens(HTMLParser):
    """A finished page as a browser tokenizes it: real tags with their attributes (a value is only ever
    text), script bodies, and whatever could open a tag that the parser left as text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)  # so a '<' in text is a raw one, not an unescaped &lt;
        self.tags: list[_Tag] = []
        self.scripts: list[_Script] = []
        self.unparsed: list[str] = []
        self._article = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._article += tag == "article"
        self.tags.append(_Tag(tag, tuple((k, v or "") for k, v in attrs), self._article > 0))
        if tag == "script":
            self.scripts.append(_Script(self.tags[-1].attributes))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # `<script/>` opens a script in a browser (html.parser closes it): everything after it would run
        self.tags.append(_Tag(tag, tuple((k, v or "") for k, v in attrs), self._article > 0, True))

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._article = max(0, self._article - 1)
        elif tag == "script" and self.scripts and not self.scripts[-1].closed:
            self.scripts[-1].closed = True

    def handle_data(self, data: str) -> None:
        if self.scripts and not self.scripts[-1].closed:
            self.scripts[-1].text.append(data)
        elif "<" in data:
            self._unparsed(data)

    def handle_comment(self, data: str) -> None:
        self._unparsed(data)

    def unknown_decl(self, data: str) -> None:
        self._unparsed(data)

    def handle_pi(self, data: str) -> None:
        self._unparsed(data)

    def _unparsed(self, text: str) -> None:
        self.unparsed += [text[m.start() : m.start() + 20] for m in _TAG_START.finditer(text)]


def find_live_markup(page_html: str, base_path: str = "/") -> list[str]:
    """Everything in a finished page that could run script and is not the theme's own (empty when safe).

    The page is judged as a browser parses it: tag and attribute names of real tags, URL attributes' values,
    script bodies — never text, nor text inside an attribute value (a description that mentions `onclick=`).
    A script is the theme's own when it loads a bundle from assets/javascripts/, when it is an inline
    snippet whose text is exactly one of the theme's (Material's own partials, `theme_inline_scripts`),
    or when it is the theme's JSON configuration block (data, never run). `base_path` is the path of the
    site's address (`/kb/` for https://owner.github.io/kb/): the 404 page loads the bundles from under it.
    Anywhere else — the page body, the header, the 404 page — no script of any kind is allowed, nor a form
    in the page body.
    """
    allowed = theme_inline_scripts()
    tokens = _PageTokens()
    try:
        tokens.feed(page_html)
        tokens.close()
    except Exception as exc:  # html.parser gives up on very little; a page it cannot read is not published
        return [f"a page the check cannot parse ({exc.__class__.__name__})"]
    problems: list[str] = []
    for script in tokens.scripts:
        problems += _script_problems(dict(script.attributes), "".join(script.text), allowed, base_path)
        problems += [] if script.closed else ["unclosed <script>"]
    for tag in tokens.tags:
        problems += _tag_problems(tag)
    problems += [f"{text!r} the parser could not read as text" for text in tokens.unparsed]
    return problems


def _tag_problems(tag: _Tag) -> list[str]:
    problems: list[str] = []
    if tag.name in _FRAMES or (tag.name == "meta" and any(k == "http-equiv" for k, _ in tag.attributes)):
        problems.append(f"<{tag.name}>" if tag.name != "meta" else "<meta http-equiv>")
    if tag.name == "form" and tag.in_article:
        problems.append("<form> in the page body")
    if tag.self_closed and tag.name in {"script", "style"}:
        problems.append(f"self-closed <{tag.name}/>")
    for name, value in tag.attributes:
        if name.startswith("on"):
            problems.append(f"{name}= handler")
        elif name in _URL_ATTRIBUTES and _bad_url(value):
            problems.append(f"{value[:40]!r} as a link")
    return problems


def _bad_url(value: str) -> bool:
    # html.parser has decoded the value's character references already, as a browser does, so no second pass
    compact = re.sub(r"[\s\x00-\x1f]+", "", value).lower()
    return compact.startswith(("javascript:", "vbscript:", "data:"))


def _script_problems(
    attributes: dict[str, str], text: str, allowed: Sequence[re.Pattern[str]], base_path: str = "/"
) -> list[str]:
    src = attributes.get("src")
    if src is not None:
        ok = _theme_asset(src, base_path) and not text.strip()
        return [] if ok else [f"<script src={src[:60]!r}>"]
    json_config = attributes == {"id": "__config", "type": "application/json"}
    if not text.strip() or (json_config and _is_json(text)):
        return []
    if any(pattern.fullmatch(text) for pattern in allowed):
        return []
    return [f"inline <script> {' '.join(text.split())[:40]!r}"]


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# the inline scripts in Material's own template files (trusted text, read with a pattern)
_SCRIPT_BLOCK = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
_JINJA_EXPRESSION = re.compile(r"\{\{.*?\}\}", re.DOTALL)
# What a `{{ base_url }}`-like expression inside one of the theme's snippets renders to: a relative path,
# or on the 404 page the site's absolute path ("/", "/kb/"); never a quote or anything else
_RELATIVE_BASE = r"(?:\.|\.\.(?:/\.\.)*|/[\w\-./~%]*)"


@lru_cache(maxsize=1)
def theme_inline_scripts() -> tuple[re.Pattern[str], ...]:
    """Material's inline snippets (partials/javascripts/*.html) as exact patterns, the only inline scripts
    a page may hold; each `{{ … }}` in them may only have become a relative path."""
    import material

    partials = Path(material.__file__).parent / "templates" / "partials" / "javascripts"
    patterns = []
    for template in sorted(partials.glob("*.html")):
        for match in _SCRIPT_BLOCK.finditer(template.read_text(encoding="utf-8")):
            parts = _JINJA_EXPRESSION.split(match.group(2))
            if "{%" not in match.group(2):
                patterns.append(re.compile(_RELATIVE_BASE.join(re.escape(part) for part in parts)))
    return tuple(patterns)


def _theme_asset(src: str, base_path: str = "/") -> bool:
    # the theme's bundles are loaded from assets/javascripts/ relative to the page, or on the 404 page from
    # the site's own absolute path
    path = src.split("?")[0]
    if base_path.strip("/") and path.startswith("/" + base_path.strip("/") + "/"):
        path = path[len(base_path.strip("/")) + 2 :]
    path = re.sub(r"^(\.\./|\./|/)+", "", path)
    return path.startswith("assets/javascripts/") and path.endswith(".js")
