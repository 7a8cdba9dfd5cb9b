"""`deepkb crawl URL`: fetch a page (and same-site pages up to --depth links away) through the SSRF-guarded
crawler, then print it as markdown or JSON, or store it as raw sources of a topic (--topic)."""

from __future__ import annotations

import json

import click
from rich.markup import escape

from ..errors import UsageError
from ..jsontypes import JSONObject
from ..kb.search import kb_writes
from ..site.pages.topic import publish_topic
from ..site.text import md_inline
from ..sources.base import SearchHit
from ..store import KBPaths
from ..terminal import printable
from ..topic.crawl import Crawler, CrawlResult, FetchedPage, crawl_site
from ..topic.workspace import find_topic, write_raw_source
from .app import App, pass_app

MAX_DEPTH = 3


def make_crawler() -> Crawler:
    """The production crawler: public addresses only, polite one-second spacing per host."""
    return Crawler()


@click.command()
@click.argument("url")
@click.option(
    "--depth",
    type=click.IntRange(0, MAX_DEPTH),
    default=0,
    show_default=True,
    help="Also fetch same-site pages up to this many links away.",
)
@click.option(
    "--max-pages",
    type=click.IntRange(1, 200),
    default=20,
    show_default=True,
    help="Stop after this many pages.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "json"]),
    default="md",
    show_default=True,
    help="How to print the pages (ignored with --topic).",
)
@click.option(
    "--topic", "topic_id", metavar="ID", help="Store the pages as raw sources of this topic (id or slug)."
)
@pass_app
def crawl(app: App, url: str, depth: int, max_pages: int, fmt: str, topic_id: str | None) -> None:
    """Fetch URL (and same-site links) into a topic's raw sources, or print it."""
    if not url.strip():
        raise UsageError("the URL is empty", hint="deepkb crawl https://example.org/page")
    with make_crawler() as crawler:
        result = crawl_site(url.strip(), depth, max_pages=max_pages, crawler=crawler)
    for skipped_url, reason in result.skipped:
        app.console.print(f"[yellow]skipped[/yellow] {escape(skipped_url)}: {escape(reason)}")
    if topic_id:
        with kb_writes(app.paths):
            stored = store_pages(app.paths, topic_id, result.pages)
        for raw_id in stored:
            click.echo(raw_id)
        app.console.print(f"stored {len(stored)} page(s) as raw sources of topic '{escape(topic_id)}'")
        return
    click.echo(printable(render_pages(result, fmt)))  # page titles and text are the far side's words


def render_pages(result: CrawlResult, fmt: str) -> str:
    """The crawl as JSON ({pages, skipped}) or as markdown, one section per page."""
    if fmt == "json":
        payload: JSONObject = {
            # a JSON string escapes ESC, but `jq -r` would print it raw: titles are made printable first
            "pages": [{**page.to_json(), "title": printable(page.title)} for page in result.pages],
            "skipped": [{"url": url, "reason": reason} for url, reason in result.skipped],
        }
        return json.dumps(payload, ensure_ascii=False, indent=2)
    return "\n\n---\n\n".join(_page_markdown(page) for page in result.pages)


def _page_markdown(page: FetchedPage) -> str:
    # page.text is already inert markdown; the title and URL are plain text and get escaped here.
    return f"# {md_inline(printable(page.title))}\n\nSource: {md_inline(page.final_url)}\n\n{page.text.strip()}\n"


def store_pages(paths: KBPaths, topic_id: str, pages: list[FetchedPage]) -> list[str]:
    """Write each page as a raw source of the topic; returns the raw source ids."""
    slug = find_topic(paths, topic_id).slug
    stored = []
    for page in pages:
        # The raw-source writer escapes the text itself, so hand it the plain markdown (entities undone).
        hit = SearchHit(url=page.final_url, title=page.title, content=page.plain_text, source="crawl")
        stored.append(write_raw_source(paths, slug, hit, source="crawl").id)
    publish_topic(paths, slug)  # the new sources get their raw pages
    return stored
