"""A MkDocs site's markup is never a page's text: attr_list's `{ .hidden }` on headings and
`{ loading=lazy }` after images, the macros plugin's `{{ asciinema(…) }}`, md_in_html's `<div markdown>`
around a badge row (huma's docs; reader_s40_check.md 8)."""

from __future__ import annotations

from generator.documents import read_text

_PAGE = (
    "# Huma {.hidden}\n\n## Introduction { .hidden }\n\n"
    '<div style="display: flex; justify-content: center;" markdown>\n'
    "[![CI](https://example.org/ci.svg)](https://example.org/ci) [![Docs](https://example.org/d.svg)]"
    "(https://example.org/docs)\n</div>\n\n"
    "A small framework for building HTTP APIs backed by OpenAPI and JSON Schema.\n\n"
    "## Installation {: #install .wide }\n\nInstall it with the go tool and run the server.\n\n"
    '{{ asciinema("../../terminal/install.cast", rows="12") }}\n\n'
    '{{ MACROS___make_filename_template(\n   "raw",\n   datatypes=["anat"],\n) }}\n\n'
    '{{ MACROS___make_filetree_example({\n   "sub-001": {\n      "anat": "",\n   },\n})\n}}\n\n'
    "Spatial transforms are still under development and may change.\n\n"
    '{{ MACROS___make_filetree_example({\n   "sub-002": "",\n})\n}}\n\n'
    '![Generated API docs](./docs.png){ loading=lazy }\n\nThe docs are served at /docs. {{ note("x") }}\n\n'
    "A template writes `{{ url_for('index') }}` to link a page.\n\n"
    '```jinja\n{{ asciinema("kept.cast") }}\n```\n'
)


def test_site_markup_is_dropped_and_code_keeps_it() -> None:
    doc = read_text(_PAGE, name="docs/index.md")
    headings = [s.heading for s in doc.sections if s.heading]
    assert headings == ["Huma", "Introduction", "Installation"]
    texts = [b.text for _, b in doc.blocks()]
    shown = "\n".join(texts)
    assert "MACROS___" not in shown and "datatypes" not in shown, texts  # a call spread over lines
    assert "sub-00" not in shown and "Spatial transforms are still under development and may change." in texts
    assert 'asciinema("../../terminal' not in shown and "loading=lazy" not in shown, texts
    assert 'note("x")' not in shown and "The docs are served at /docs." in shown, texts
    assert not any("![CI]" in t or "example.org/ci" in t for t in texts), texts
    assert "A template writes `{{ url_for('index') }}` to link a page." in texts  # a code span is the example
    assert '{{ asciinema("kept.cast") }}' in shown  # code is never rewritten


def test_kramdown_block_attributes_buttons_and_icons_are_markup() -> None:
    """grpc-gateway's Just the Docs pages: `{: .warning }` over a callout, `{: .fs-6 .fw-300 }` under the lead,
    `[Next](x.md){: .btn .btn-primary }`; fx's `[Get started :material-arrow-right-bold:](x){ .md-button }`."""
    page = (
        "# Gateway\n\nThe gateway is a plugin that generates a reverse proxy from service definitions.\n"
        "{: .fs-6 .fw-300 }\n\n{: .warning }\nAlpha: the output is not yet stable and may change.\n\n"
        "[Next](next.md){: .btn .btn-primary .fs-5 } [Get started :material-arrow-right-bold:](start.md)"
        "{ .md-button .md-button--primary }\n"
    )
    texts = [b.text for _, b in read_text(page, name="docs/index.md").blocks()]
    assert texts[:2] == [
        "The gateway is a plugin that generates a reverse proxy from service definitions.",
        "Alpha: the output is not yet stable and may change.",
    ], texts
    assert not any("{" in t or ":material-" in t for t in texts), texts
