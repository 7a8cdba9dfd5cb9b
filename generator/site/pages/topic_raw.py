"""Raw source pages `topics/<slug>/raw/<id>.md`: one stored source, its text (the whole text as extracted, or
plainly marked as an excerpt with the original's length), and links back to every topic whose report cites it.

The text sits under the `## Text` heading, escaped; generator/topic/research.py reads other topics' raw pages
back through that heading when it searches the knowledge base.
"""

from __future__ import annotations

import re
import textwrap

from ... import store
from ...jsontypes import JSONObject
from ...store import KBPaths, site_files, site_folder, site_workspaces
from ...summarize import summarize
from ...text.paragraphs import paragraphs
from ...text.sentences import split_sentences
from ...topic import workspace as wsp
from ...topic.sentences import fence_language, quotable
from ...topic.state import TopicMeta
from ..templates import render_template
from ..text import Markdown, code_block, md_escape, md_inline
from .topic_labels import labels
from .topic_standing import standing

_SAFE_URL = re.compile(r"^https?://[^\s<>\"'`]+$", re.IGNORECASE)


def link_or_text(url: str) -> Markdown:
    """A markdown link for an http(s) URL; anything else (javascript:, file paths) stays inert text."""
    if _SAFE_URL.match(url):
        target = url.replace("(", "%28").replace(")", "%29")
        return Markdown(f"[{md_inline(url, limit=120)}](<{target}>)")
    return md_inline(url) if url else Markdown("—")


def write_raw_pages(paths: KBPaths, slug: str, sources: list[wsp.RawSource], *, provider: str) -> None:
    """The raw page of every source of `slug`, and of the same documents stored by other topics (their
    "cited by" lists may have changed); each page in its own topic's language."""
    citing, meta = wsp.topics_citing(paths), wsp.load_meta(paths, slug)
    lang = meta.options.lang if meta else "en"
    for raw in sources:
        cited_by = citing.get(wsp.document_key(raw.id), [])
        _write_raw_page(wsp.Workspace(paths, slug), raw, cited_by, provider=provider, lang=lang)
    keys = {wsp.document_key(raw.id) for raw in sources}
    for workspace in site_workspaces(paths.site_src, "topics"):
        ws = wsp.Workspace(paths, workspace.removeprefix("topics/"))
        meta = wsp.load_meta(paths, ws.slug) if ws.slug != slug else None
        if meta is None:
            continue
        for key in sorted(keys):
            for record in site_files(paths.site_src, f"{workspace}/processed/sources", f"*-{key}.json"):
                shared = wsp.load_raw_source(ws, record.stem)
                if shared is not None:
                    cited_by = citing.get(key, [])
                    _write_raw_page(ws, shared, cited_by, provider=meta.provider, lang=meta.options.lang)


def refresh_cited_by(paths: KBPaths) -> None:
    """Every topic's raw pages with the "cited by" links of the whole knowledge base as it is now.

    A topic researched in another checkout (`build --shard`, then `deepkb merge`) cites documents that
    topics researched here store too: their pages learn of it here, where every listing is rebuilt.
    Pages whose links did not change are not rewritten (the store skips equal bytes)."""
    citing = wsp.topics_citing(paths)
    for workspace in site_workspaces(paths.site_src, "topics"):
        slug = workspace.removeprefix("topics/")
        if site_folder(paths.site_src, f"{workspace}/processed/sources") is None:
            continue
        meta = wsp.load_meta(paths, slug)
        if meta is None:
            continue
        ws = wsp.Workspace(paths, slug)
        for raw in wsp.list_raw_sources(paths, slug):
            cited_by = citing.get(wsp.document_key(raw.id), [])
            _write_raw_page(ws, raw, cited_by, provider=meta.provider, lang=meta.options.lang)


def _write_raw_page(
    ws: wsp.Workspace, raw: wsp.RawSource, cited_by: list[TopicMeta], *, provider: str, lang: str
) -> None:
    t = labels(lang)
    chars = f"{len(raw.text):,}"
    original = f"{max(raw.original_chars, len(raw.text)):,}"
    extent = t["text_excerpt"] if raw.excerpt else t["text_full"]
    lead = _lead(raw.text)
    body = render_template(
        ws.paths,
        "topic_raw.md.j2",
        {
            "t": t,
            "title": raw.title,
            "lead": lead,
            "source": raw.source,
            "kind": raw.kind,
            "original": link_or_text(raw.url),
            "fetched_at": raw.fetched_at,
            "standing": standing(raw, t),
            "authors": raw.authors,
            "extent": Markdown(extent.format(chars=chars, original=original)),
            "cited_by": [_citing_link(m) for m in cited_by],
            "summary": _paper_summary(raw.text) if raw.kind == "paper" else {},
            "text": stored_text(raw.text) or Markdown("_(no text)_"),
        },
    )
    store.write_page(ws.raw_file(raw.id), _raw_frontmatter(raw, provider), body)


def stored_text(text: str) -> Markdown:
    """A stored text as its author wrote it, safely: its headings as headings under the page's own, its code
    blocks fenced in the language their fence declares (literal inside a fence untrusted text cannot close),
    a list as a list under the paragraph introducing it, every other block escaped."""
    shown = [_shown_block(run, code) for block in paragraphs(text.strip()) for run, code in _runs(block)]
    return Markdown("\n\n".join(block for block in shown if block))


# a line opening a fenced code block (CommonMark: three or more backticks or tildes, perhaps indented)
_FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}|~{3,})")
# a list item of a stored text (documents/plain.py: `- item`, two more spaces a level deeper)
_ITEM = re.compile(r"^((?:  )*)- (.*)$")
_LABEL = re.compile(
    r"^\*\*([^*\n]+)\*\*$"
)  # a heading as a list's lead-in ("**属性：**", plain.lead_in_line)


def _runs(block: str) -> list[tuple[str, bool]]:
    """A stored paragraph cut into its prose and its fenced code, each (text, is_code): a fence the lines
    before it lead into is a run of its own."""
    runs: list[tuple[list[str], bool]] = []
    fence = ""
    for line in block.split("\n"):
        opened = _FENCE_OPEN.match(line)
        if not fence and opened:
            fence = opened.group(1)
            runs.append(([line], True))
            continue
        if fence and line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            runs[-1][0].append(line)
            fence = ""
            continue
        if fence or (runs and not runs[-1][1]):
            runs[-1][0].append(line)
        else:
            runs.append(([line], False))
    return [("\n".join(lines), code) for lines, code in runs]


def _shown_block(block: str, code: bool) -> str:
    if code:
        opening, _, rest = block.partition("\n")
        fence = _FENCE_OPEN.match(opening)
        marker = fence.group(1) if fence else "```"
        lines = rest.split("\n")
        if lines and lines[-1].strip().startswith(marker):
            lines.pop()  # its closing fence: code_block writes one untrusted text cannot close early
        return code_block(textwrap.dedent("\n".join(lines)).strip("\n"), fence_language(opening))
    heading = re.match(r"(#{1,6}) (.+)", block)
    if heading and "\n" not in block:
        return f"{'#' * min(len(heading.group(1)) + 2, 6)} {md_escape(heading.group(2))}"
    lines = block.split("\n")
    first = next((n for n, line in enumerate(lines) if _ITEM.match(line)), -1)
    if first < 0:
        return str(md_escape(block)) if block.strip() else ""
    lead = " ".join(line.strip() for line in lines[:first])
    label = _LABEL.match(lead)
    said = f"**{md_escape(label.group(1))}**" if label else str(md_escape(lead))
    return "\n\n".join(part for part in (said if lead else "", _item_lines(lines[first:])) if part)


def _item_lines(lines: list[str]) -> str:
    """A stored text's `- item` lines as a Markdown list, each item escaped (a line an item wraps onto is the
    item's); a nested item four columns deeper, as Python-Markdown wants."""
    items: list[tuple[int, str]] = []
    for line in lines:
        item = _ITEM.match(line)
        if item:
            items.append((len(item.group(1)) // 2, item.group(2).strip()))
        elif items and line.strip():
            items[-1] = (items[-1][0], f"{items[-1][1]} {line.strip()}")
    return "\n".join(f"{'    ' * depth}- {md_escape(text)}" for depth, text in items)


def _lead(text: str) -> str:
    """The page's first paragraph: one of the source's most central whole sentences (not a fragment or
    debris, nor a list's item: a props table's rows, "**Watermark:** - width：水印的宽度…", "- height：水印的高度…"),
    else its first whole sentence."""
    central = summarize(text, sentences=6, max_chars=600)
    said = [*central, *split_sentences(text[:20_000])]
    return next((s for s in said if quotable(s) and not _LIST_PIECE.match(s)), "")


_LIST_PIECE = re.compile(r"^\s*(?:\*\*[^*\n]+[:：]\*\*\s*)?-\s")


def _citing_link(meta: TopicMeta) -> Markdown:
    """A link from a raw page to the report of a topic citing it (workspace.topics_citing lists only
    topics whose report has findings: those are the published ones)."""
    return Markdown(f"[{md_inline(meta.topic, 150)}](../../{meta.slug}/output/report.md)")


def _raw_frontmatter(raw: wsp.RawSource, provider: str) -> JSONObject:
    lead = _lead(raw.text) or raw.title
    meta: JSONObject = {
        "id": raw.id,
        "source": raw.source,
        "url": raw.url,
        "title": raw.title,
        "fetched_at": raw.fetched_at,
        "tags": raw.tags,
        "description": " ".join(re.sub(r"<[^>]{0,200}>", " ", lead).split())[:200],
        "generated": raw.fetched_at[:10],
        "provider": provider,
        "kind": raw.kind,
        "text_format": wsp.TEXT_FORMAT,
        "text_chars": len(raw.text),
        "original_chars": max(raw.original_chars, len(raw.text)),
        "excerpt": raw.excerpt,
    }
    meta.update({key: value for key, value in (("date", raw.published), ("status", raw.status)) if value})
    if raw.kind == "paper":
        meta.update(
            type="paper", authors=raw.authors, published=raw.published, summary=_paper_summary(raw.text)
        )
    return meta


def _paper_summary(text: str) -> dict[str, list[str]]:
    """seed: a paper's summary sections, extracted (never invented) from its abstract."""
    return {
        "key_points": summarize(text, sentences=3, max_chars=240),
        "methods": summarize(text, sentences=1, focus="method approach propose model", max_chars=240),
        "results": summarize(
            text, sentences=1, focus="result show outperform accuracy improve", max_chars=240
        ),
    }
