"""The document model: each reader on small real-shaped inputs, with exact line spans."""

from __future__ import annotations

import re

from conftest import alarm

from generator.documents import Block, read_bytes, read_text
from generator.documents.docstring import read_docstring
from generator.repo.facts.prose import summary
from generator.text.sentences import lead_sentences


def blocks(doc):  # type: ignore[no-untyped-def]
    return [(s.path, b) for s, b in doc.blocks()]


def test_a_byte_order_mark_and_front_matter_keep_the_title_and_line_numbers() -> None:
    text = "\ufeff---\ntitle: Dependency Resolution\nstatus: Draft\ndate: 2021-05-25\n---\n\nIntro.\n"
    doc = read_text(text, name="resolution.md")
    assert (doc.title, doc.status, doc.date) == ("Dependency Resolution", "draft", "2021-05-25")
    [(path, block)] = blocks(doc)
    assert (path, block) == ((), Block("paragraph", "Intro.", 7, 7))


def test_a_bom_file_is_titled_from_its_heading_not_its_name() -> None:
    doc = read_text("\ufeff# 响应式基础 {#reactivity-fundamentals}\n\n正文。\n", name="reactivity.md")
    assert doc.title == "响应式基础"
    assert doc.language == "zh"


def test_a_section_name_is_a_title_only_where_the_file_is_named_after_it() -> None:
    # "Introduction" names a section of a proposal, but intro.rst is the introduction (jinja's docs)
    assert (
        read_text("Introduction\n============\n\nJinja is fast.\n", name="docs/intro.rst").title
        == "Introduction"
    )
    assert read_text("# Overview\n\nRoutes map paths.\n", name="docs/routing.md").title == "routing"


def test_a_title_set_above_the_first_part_of_the_body_is_the_title() -> None:
    # an EEP sets its title with `----` under an indented header block, above `Abstract` set with `====`
    # (76 EEPs were titled "eep 0049"); a GraphQL RFC's title sits under a `# Status` banner or above an
    # emoji part ("# 📜 Problem Statement", which had been the title)
    eep = (
        "    Author: Fred Hebert\n    Status: Final/25.0\n****\nEEP 49: Value-Based Error Handling\n----\n\n"
    )
    eep += "Abstract\n========\n\nThis EEP introduces maybe.\n\nRationale\n=========\n\nWhy.\n"
    doc = read_text(eep, name="eep-0049.md")
    assert (doc.title, doc.status) == ("EEP 49: Value-Based Error Handling", "final")
    banner = "# Status\n\n> Merged.\n\n# RFC: Schema Coordinates\n\nA syntax.\n\n## Use cases\n\nLogs.\n"
    assert read_text(banner, name="SchemaCoordinates.md").title == "RFC: Schema Coordinates"
    emoji = "Note: historic.\n\nRFC: Input Union\n----------\n\n# 📜 Problem Statement\n\nNo input type.\n"
    assert read_text(emoji, name="InputUnion.md").title == "RFC: Input Union"
    # a heading after the body's first part is no title: a Vue RFC opens "# Summary", "# Basic example"
    vue = "- Start Date: 2020-10-28\n\n# Summary\n\nIntroduce it.\n\n# Basic example\n\nCode.\n"
    assert read_text(vue, name="0040-script-setup.md").title == "script setup"


def test_an_image_in_a_heading_is_its_alt_text_alone_else_nothing() -> None:
    # faraday's docs open "# ![Faraday](logo.svg)" (titled "!Faraday"); ipfs specs put a status badge before
    # the title ("# ![status: wip](badge.svg) Addressing"); a linked logo reads as its alt text too
    text = "# ![Tool](logo.svg)\n\nTool sends requests.\n\n## ![status: wip](b.svg) Addressing\n\nText.\n\n"
    text += "## [![Logo](l.svg)](https://x.test)\n\nMore.\n"
    doc = read_text(text, name="index.md")
    assert doc.title == "Tool"
    assert [s.heading for s in doc.sections] == ["Tool", "Addressing", "Logo"]


def test_heading_anchors_never_reach_headings_or_titles() -> None:
    text = "# Title \\{\\#top\\}\n\n## 服务端渲染 {#ssr}\n\nBody.\n\n## Next [](#next)\n\nMore.\n"
    doc = read_text(text, name="a.md")
    assert doc.title == "Title"
    # Elastic's docs-builder closes a heading with its id in brackets; a type in a heading keeps its brackets
    assert read_text("# Logstash [introduction]\n\nText.\n", name="index.md").title == "Logstash"
    assert read_text("# Using List[int] [list-int]\n\nText.\n", name="types.md").title == "Using List[int]"
    # a reference link reads as its words, as an inline one does (okio's recipes, fastify's and multer's docs)
    recipe = "# R\n\nRead a file ([Java][ReadFile]/[Kotlin][ReadFileKt])\n---\n\nUse it.\n\n## Hooks [API][]\n\nT.\n"
    assert [s.heading for s in read_text(recipe, name="r.md").sections][1:] == [
        "Read a file (Java/Kotlin)",
        "Hooks API",
    ]
    # VitePress translations wrap the anchor in percent signs (Pinia's Chinese docs: "# 插件 %{#plugins}%")
    plugins = read_text("# 插件 %{#plugins}%\n\n## 介绍 %{#introduction}%\n\n正文。\n", name="plugins.md")
    assert plugins.title == "插件" and [s.heading for s in plugins.sections if s.heading] == ["插件", "介绍"]
    # emphasis is markup, not words (typer's "## *CLI Options* help panels"); a product of numbers stays
    emphasis = read_text(
        "# T\n\n## *CLI Options* help panels\n\nText.\n\n## Cost 2*3*4\n\nMore.\n", name="o.md"
    )
    assert [s.heading for s in emphasis.sections][1:] == ["CLI Options help panels", "Cost 2*3*4"]
    # styling tags go, their words stay (nlohmann/json's "# <small>nlohmann::</small>json"); an image stays text
    styled = read_text(
        "# <small>nlohmann::</small>json\n\nText.\n\n## A <b>bold</b> <img src=x>\n\nMore.\n", name="j.md"
    )
    assert [s.heading for s in styled.sections] == ["nlohmann::json", "A bold <img src=x>"]
    # an HTML anchor names a place to link to, not words of the heading (OCI's runtime spec)
    anchored = read_text(
        '# <a name="filesystemBundle" />Filesystem Bundle\n\nText.\n\n## <a id="fmt"></a>Format\n\nMore.\n',
        name="bundle.md",
    )
    assert [s.heading for s in anchored.sections] == ["Filesystem Bundle", "Format"]
    assert anchored.title == "Filesystem Bundle"
    assert [s.path for s in doc.sections] == [("Title",), ("Title", "服务端渲染"), ("Title", "Next")]
    assert [(s.start, s.end) for s in doc.sections] == [(1, 1), (3, 5), (7, 9)]


def test_a_heading_s_html_entities_read_as_their_characters() -> None:
    """jest's "`coverageReporters` [array&lt;string&gt;]", serde_json's "Serde JSON &emsp;", anyhow's setext
    "Anyhow&ensp;¯\\_(°ペ)_/¯": a browser shows the character, as a paragraph's entities already read."""
    text = "Anyhow&ensp;shrug\n===\n\nText &amp; more.\n\n### `reporters` [array&lt;string&gt;]\n\nList.\n"
    doc = read_text(text, name="README.md")
    assert doc.title == "Anyhow shrug"
    assert [s.heading for s in doc.sections] == ["Anyhow shrug", "reporters [array<string>]"]
    assert doc.sections[0].blocks[0].text == "Text & more."


def test_a_fence_s_language_is_its_first_word_before_any_attribute() -> None:
    """```rust,ignore (axum, mdBook, rfcs, image-spec) read "rustignore"; VitePress's ```js{1,3} (vue-router,
    pinia, Vue's docs) "js13", pandoc's ```{.python} ".python"."""
    infos = [
        "rust,ignore",
        "rust,no_run",
        "js{1,3}",
        "{.python}",
        "{r, echo=FALSE}",
        'py title="a.py"',
        "c++",
    ]
    text = "".join(f"```{info}\nx = 1\n```\n\n" for info in infos)
    languages = [b.language for _, b in read_text("# T\n\n" + text, name="a.md").blocks()]
    assert languages == ["rust", "rust", "js", "python", "r", "py", "c++"]


def test_pep_headers_give_title_status_and_date() -> None:
    text = "PEP: 639\nTitle: Improving License Clarity\nStatus: Rejected\nCreated: 15-Aug-2019\n\nAbstract\n========\n\nThis PEP defines a specification.\n"
    doc = read_text(text, name="pep-0639.rst")
    assert (doc.title, doc.status, doc.date) == ("Improving License Clarity", "rejected", "2019-08-15")
    abstract = next(s for s in doc.sections if s.heading == "Abstract")
    assert [b.text for b in abstract.blocks] == ["This PEP defines a specification."]


def test_a_pre_header_names_the_document_not_its_first_numbered_section() -> None:
    # an XRPL Standard opens with a `<pre>` block of fields and has no H1: "1. Abstract" is its first section
    text = (
        "<pre>\n  xls: 39\n  title: Clawback Support\n  status: Final\n  created: 2023-03-04\n</pre>\n\n"
        "## 1. Abstract\n\nIssuers can claw back issued tokens.\n"
    )
    doc = read_text(text, name="README.md")
    assert (doc.title, doc.status, doc.date) == ("Clawback Support", "final", "2023-03-04")
    titled = "<pre>\n  title: Automated Market Maker on XRPL\n</pre>\n\n# Automated Market Maker on XRP Ledger\n\nText.\n"
    assert read_text(titled, name="README.md").title == "Automated Market Maker on XRP Ledger"


def test_rfc_feature_name_is_the_title() -> None:
    text = "- Feature Name: `async_closure`\n- Start Date: 2023-10-31\n\n# Summary\n\nAdd async closures.\n"
    doc = read_text(text, name="3668-async-closures.md")
    assert (doc.title, doc.date) == ("async closure", "2023-10-31")
    assert [(s.heading, [b.text for b in s.blocks]) for s in doc.sections][-1] == (
        "Summary",
        ["Add async closures."],
    )


def test_a_list_keeps_its_items_and_their_lead_in() -> None:
    text = "Click in three places:\n\n- the top\n- the middle,\n  wrapped\n  1. nested\n\nAfter.\n"
    doc = read_text(text, name="a.md")
    assert [b for _, b in blocks(doc)] == [
        Block("paragraph", "Click in three places:", 1, 1),
        Block("item", "the top", 3, 3, lead="Click in three places:"),
        Block("item", "the middle, wrapped", 4, 5, lead="Click in three places:"),
        Block("item", "nested", 6, 6, lead="the middle, wrapped"),
        Block("paragraph", "After.", 8, 8),
    ]


def test_a_footnote_definition_is_no_paragraph_where_it_is_written() -> None:
    # nervos RFC 0017: the note sits between the paragraph bearing its marker and the list that paragraph
    # introduces; a site prints it at the page's foot, and read in place ": See RFC22 for …" led the list
    text = (
        "The field is a u64.[^1] Its highest 8 bits are flags:\n\n"
        "[^1]: See [RFC22](../0022.md) for the full structure.\n\n"
        "![Since Encoding](since.jpg)\n\n"
        "* The highest bit is absolute or relative.\n"
    )
    assert [b for _, b in blocks(read_text(text, name="a.md"))] == [
        Block("paragraph", "The field is a u64. Its highest 8 bits are flags:", 1, 1),
        Block(
            "item",
            "The highest bit is absolute or relative.",
            7,
            7,
            lead="The field is a u64. Its highest 8 bits are flags:",
        ),
    ]


def test_a_code_block_has_its_language_and_the_sentence_that_introduces_it() -> None:
    text = "# Use\n\nFirst install it. Then call `os.path.join` like this:\n\n```python\nimport os\n\nos.path.join('a')\n```\n"
    [_, code] = [b for _, b in blocks(read_text(text, name="a.md"))]
    assert code == Block(
        "code", "import os\n\nos.path.join('a')", 5, 9, "python", "Then call `os.path.join` like this:"
    )


def test_mdx_drops_imports_exports_and_jsx_but_keeps_their_text() -> None:
    text = (
        "import Tabs from '@theme/Tabs';\n"
        "import {\n  TabItem,\n} from '@theme/TabItem';\n"
        "export const meta = {title: 'x'};\n"
        "\n# Install\n\n"
        '<Tabs groupId="os">\n<TabItem value="linux" label="Linux">\n\nRun the installer on Linux.\n\n</TabItem>\n</Tabs>\n'
        '\nSee <Link to="/x">the guide</Link> next.\n'
        # a component standing for a term (reselect's glossary links) is its name's words; alone, a block
        '\nAccepts one or more "<InternalLinks.InputSelectors />" and a <ExternalLinks.Redux /> store.\n\n<PackageManagerTabs />\n'
    )
    doc = read_text(text, name="install.mdx")
    assert doc.markup == "mdx" and doc.title == "Install"
    assert [(b.text, b.start) for _, b in blocks(doc)] == [
        ("Run the installer on Linux.", 12),
        ("See the guide next.", 17),
        ('Accepts one or more "Input Selectors" and a Redux store.', 19),
    ]


def test_mdx_has_no_indented_code_blocks_so_indented_text_in_a_component_is_prose() -> None:
    body = (
        '# Input\n\nDefine your input parser:\n\n<Tabs>\n  <TabItem value="vanilla">\n'
        "     The input parser validates and casts the input of this procedure.\n\n"
        "    ```ts\n    const p = publicProcedure.input(parse);\n    ```\n  </TabItem>\n</Tabs>\n"
    )
    mdx = [(b.kind, b.text) for _, b in blocks(read_text(body, name="quickstart.mdx"))]
    assert mdx == [
        ("paragraph", "Define your input parser:"),
        ("paragraph", "The input parser validates and casts the input of this procedure."),
        ("code", "const p = publicProcedure.input(parse);"),
    ]
    markdown = "# Use\n\nRun it:\n\n    tinyweb serve --port 8000\n"
    assert [(b.kind, b.text) for _, b in blocks(read_text(markdown, name="use.md"))][-1] == (
        "code",
        "tinyweb serve --port 8000",
    )


def test_a_twoslash_block_shows_what_the_built_docs_show() -> None:
    text = (
        "# Routers\n\n"
        "```twoslash include server\nconst t = initTRPC.create();\n```\n\n"  # 3-5: shown nowhere
        "Define a router:\n\n"
        "```ts twoslash title='server/router.ts'\n"  # 9
        "// @include: server\n// @filename: router.ts\nimport { initTRPC } from '@trpc/server';\n// ---cut---\n"
        "// @ts-expect-error: typed later\nconst appRouter = t.router({});\n"  # 14-15
        "const user = await caller.user();\n//    ^?\n// @errors: 2322\nexport type AppRouter = typeof appRouter;\n"
        "```\n\n"
        "Svelte's docs cut plain blocks:\n\n"
        "```js\nlet todos = [];\n// ---cut---\ntodos.push(1);\n```\n\n"  # 24-28
        "The procedure, as its include defines it:\n\n```ts twoslash\n// @include: server\n```\n\n"  # 30, 32-34
        "A plain block keeps what it says:\n\n"
        "```ts\nconst tables = await db.introspection.getTables()\n//        ^?  TableMetadata[]\n```\n"
    )
    codes = [b for _, b in blocks(read_text(text, name="routers.md")) if b.kind == "code"]
    assert [(b.text, b.start) for b in codes] == [
        (
            "// @ts-expect-error: typed later\nconst appRouter = t.router({});\n"
            "const user = await caller.user();\nexport type AppRouter = typeof appRouter;",
            14,
        ),
        ("todos.push(1);", 27),
        ("const t = initTRPC.create();", 32),
        ("const tables = await db.introspection.getTables()\n//        ^?  TableMetadata[]", 38),
    ]
    assert codes[0].language == "ts" and codes[0].lead == "Define a router:"


def test_react_docs_lose_their_exercises_and_anchors_and_keep_their_recap_apart() -> None:
    """react.dev writes MDX in `.md` files: `{/*anchor*/}` after each heading, a "you will learn" list, and
    `<Challenges>` (with `<Hint>` and `<Solution>`, code inside) that set the reader tasks. The anchors and
    the blocks go, lines kept; a `<Recap>` list stands under a heading of its own, not the last section's."""
    text = (
        "---\ntitle: 条件渲染\n---\n\n"  # 1-4
        "<YouWillLearn>\n\n* 如何根据不同条件返回不同的 JSX\n\n</YouWillLearn>\n\n"  # 5-10
        "## 条件返回 JSX {/*conditionally-returning-jsx*/}\n\n"  # 11-12
        "你可以用 `if` 语句去判断，写 `{/*注释*/}` 作注释。\n\n"  # 13-14
        "<Recap>\n\n* 在 React，你可以使用 JavaScript 来控制分支逻辑。\n\n</Recap>\n\n"  # 15-20
        "<Challenges>\n\n#### 用 ? : 给未完成的物品加上图标 {/*show-an-icon*/}\n\n"  # 21-24
        "当 `isPacked` 不为 `true` 时，使用条件运算符来渲染 ❌\n\n"  # 25-26
        "<Hint>Try the ternary.</Hint>\n\n"  # 27-28
        "<Solution>\n\n```js\n</Challenges>\n```\n\n答案在这里。\n\n</Solution>\n\n"  # 29-38
        "</Challenges>\n\nThe page ends here.\n"  # 39-41
    )
    for name in ("conditional-rendering.md", "conditional-rendering.mdx"):
        doc = read_text(text, name=name)
        assert [(s.heading, s.level) for s in doc.sections if s.heading] == [
            ("条件返回 JSX", 2),
            ("摘要", 2),
        ], name
        assert [(b.text, b.start) for _, b in blocks(doc)] == [
            ("你可以用 `if` 语句去判断，写 `{/*注释*/}` 作注释。", 13),
            ("在 React，你可以使用 JavaScript 来控制分支逻辑。", 17),
            ("The page ends here.", 41),
        ], name


def test_rst_doctest_extension_code_is_python_and_its_output_shows_unless_hidden() -> None:
    """Sphinx's doctest directives (jsonschema, tenacity, attrs, structlog): `testcode` and `doctest` hold
    Python whatever group their argument names; `testoutput` is the output a reader sees, unless `:hide:`."""
    text = (
        "Errors\n======\n\n"
        ".. testcode:: errors\n\n    for error in errors:\n        print(error.message)\n\n"
        ".. testoutput:: errors\n\n    'spam' is not of type 'number'\n\n"
        ".. testoutput::\n   :hide:\n\n   Awesome sauce!\n\n"
        ".. doctest::\n\n   >>> import attr\n"
    )
    code = [(b.text, b.language) for _, b in blocks(read_text(text, name="errors.rst")) if b.kind == "code"]
    assert code == [
        ("for error in errors:\n    print(error.message)", "python"),
        ("'spam' is not of type 'number'", ""),
        (">>> import attr", "python"),
    ]


def test_an_ipython_session_is_python_code_in_rst() -> None:
    """pyee's only example is an IPython session in a `::` block and h11's are `.. ipython::` directives: both
    had been plain text or nothing, so no guide page said what they call."""
    text = (
        "Example\n=======\n\n::\n\n    In [1]: from pyee.base import EventEmitter\n\n    In [2]: ee = EventEmitter()\n\n"
        "Then:\n\n.. ipython:: python\n\n   import h11\n   conn = h11.Connection(our_role=h11.CLIENT)\n"
    )
    code = [(b.text, b.language) for _, b in blocks(read_text(text, name="man.rst")) if b.kind == "code"]
    assert code == [
        ("In [1]: from pyee.base import EventEmitter\n\nIn [2]: ee = EventEmitter()", "python"),
        ("import h11\nconn = h11.Connection(our_role=h11.CLIENT)", "python"),
    ]


def test_a_doctest_block_is_code_as_written_in_rst_and_in_docstrings() -> None:
    """A paragraph opened by `>>>` is a doctest block: code, never inline markup (jsonschema's docstring
    showed `validator\\_for`; a reST file's block became a quote run together on one line)."""
    docstring = (
        "Retrieve the validating class.\n\n    Here, a draft 7 schema:\n\n    >>> schema = {\n"
        '    ...     "type": "integer",\n    ... }\n    >>> jsonschema.validators.validator_for(schema)\n'
        "    <class 'jsonschema.validators.Draft7Validator'>\n\n    Schemas with no `$schema` fall back.\n"
    )
    code = [(b.text, b.start, b.end) for s in read_docstring(docstring) for b in s.blocks if b.kind == "code"]
    assert code == [
        (
            '>>> schema = {\n...     "type": "integer",\n... }\n>>> jsonschema.validators.validator_for(schema)\n'
            "<class 'jsonschema.validators.Draft7Validator'>",
            5,
            9,
        )
    ]
    text = "Title\n=====\n\nUse it:\n\n>>> import my_mod\n>>> my_mod.do_it()\n'done_ok'\n\nAfter it, a `role`_.\n"
    found = [(b.kind, b.text, b.start, b.end) for _, b in blocks(read_text(text, name="x.rst"))]
    assert found[1] == ("code", ">>> import my_mod\n>>> my_mod.do_it()\n'done_ok'", 6, 8)
    assert found[2][:2] == ("paragraph", "After it, a role.")


def test_an_rst_literal_block_is_python_as_sphinx_highlights_it_unless_the_file_says_otherwise() -> None:
    """Sphinx highlights a `::` block as Python when it parses as Python, else as nothing; `.. highlight::`
    sets the language for the blocks below it (anyio's, flask's and the PEPs' examples had no language)."""
    text = (
        "Basics\n======\n\nThe simplest program::\n\n    from anyio import run\n\n    run(main)\n\n"
        "Install it::\n\n    $ pip install anyio\n\n"
        "A session::\n\n    >>> double = partial(mul, 2)\n    >>> double(5)\n    10\n\n"
        ".. code::\n\n    >>> double(2)\n    4\n\n"
        ".. highlight:: console\n\nThen::\n\n    run(main)\n\n"
        ".. highlight:: none\n\nOr::\n\n    x = 1\n"
    )
    code = [(b.text, b.language) for _, b in blocks(read_text(text, name="basics.rst")) if b.kind == "code"]
    assert code == [
        ("from anyio import run\n\nrun(main)", "python"),
        ("$ pip install anyio", ""),
        (">>> double = partial(mul, 2)\n>>> double(5)\n10", "pycon"),  # a session: toolz', pyparsing's
        (">>> double(2)\n4", "pycon"),  # a code directive without a language is read the same way
        ("run(main)", "console"),
        ("x = 1", ""),
    ]


def test_rst_pep_and_rfc_roles_and_bare_named_references_read_as_sphinx_shows_them() -> None:
    """`:pep:`654`` is "PEP 654" (packaging's "eg: 440" lost its PEP); a reference written `Trio_` or
    `here__` is its word (anyio's overview read "asyncio\\_ or Trio\\_"); code and dunders keep theirs."""
    text = (
        "AnyIO\n=====\n\nIt works on top of either asyncio_ or Trio_, as :pep:`654` and :rfc:`7230#section-3`"
        " say; read more here__, about ``name_`` and __init__.\n"
    )
    (paragraph,) = [b.text for _, b in blocks(read_text(text, name="index.rst")) if b.kind == "paragraph"]
    assert paragraph == (
        "It works on top of either asyncio or Trio, as PEP 654 and RFC 7230 say; read more here, about `name_`"
        " and __init__."
    )
    # an identifier is no reference: a C comment's "TINY_REPLY_*" keeps its underscores
    (kept,) = [b.text for _, b in blocks(read_text("One of TINY_REPLY_* or MAX_VALUE.\n", name="x.rst"))]
    assert kept == "One of TINY_REPLY_* or MAX_VALUE."


def test_rst_file_metadata_and_build_values_read_as_sphinx_shows_them() -> None:
    """polyfactory's index opens ":layout: landing" / ":description: …" (its overview read "landing
    Polyfactory is …"), flask's pages ":orphan:": a field list opening the file is metadata. "sqlite-utils
    |version|" is titled "sqlite-utils": |version|, |release| and |today| come from the build's conf.py
    (11 mirrors); a substitution the file defines still reads as its name. A role opening the title stays."""
    text = (
        ":layout: landing\n:description: Tool makes mock data\n    from type hints.\n\n"
        "tool |version|\n==============\n\nReleased |today| with |PyPI| badges.\n"
    )
    doc = read_text(text, name="index.rst")
    assert doc.title == "tool"
    assert [(b.text, b.start) for _, b in blocks(doc)] == [("Released with PyPI badges.", 8)]
    titled = read_text(":py:mod:`tool.errors`\n=====================\n\nErrors.\n", name="e.rst")
    assert titled.title == "tool.errors"


def test_rst_version_notes_read_with_the_label_sphinx_gives_them() -> None:
    """flask-sqlalchemy's SQLALCHEMY_DATABASE_URI read "No longer defaults to an in-memory SQLite database",
    a change in 3.0 stated as if it always held: Sphinx writes "Changed in version 3.0: …"."""
    text = (
        "Config\n======\n\n.. data:: URI\n\n    The database URI.\n\n    .. versionchanged:: 3.0\n"
        "        No longer defaults to memory.\n\n    .. versionadded:: 0.12\n\n"
        ".. deprecated:: 2.0 Use ``URL`` instead.\n"
    )
    said = [(b.text, b.start) for _, b in blocks(read_text(text, name="config.rst"))]
    assert said == [
        ("The database URI.", 6),
        ("Changed in version 3.0: No longer defaults to memory.", 9),
        ("New in version 0.12.", 11),
        ("Deprecated since version 2.0: Use `URL` instead.", 13),
    ]


def test_rst_cross_references_and_auto_numbered_lists_read_as_sphinx_shows_them() -> None:
    """anyio's task page: "`.abc.TaskGroup.start_soon`" (a leading dot searches by suffix: never shown),
    `~anyio.CancelScope` (shown as its last part), `TaskGroup.start() <.abc.TaskGroup.start>` (an explicit
    title, in code type like any API reference) and a `#.` list, which ran together as one paragraph."""
    text = (
        "Tasks\n=====\n\nThis handle can be used to:\n\n#. Wait for the task to finish\n#. Retrieve the task's\n"
        "   return value\n\nUse :meth:`.abc.TaskGroup.start_soon`, :class:`~anyio.CancelScope`, "
        ":meth:`TaskGroup.start() <.abc.TaskGroup.start>` and :ref:`the guide <g>`.\n"
    )
    assert [(b.kind, b.text, b.start, b.end) for _, b in blocks(read_text(text, name="tasks.rst"))] == [
        ("paragraph", "This handle can be used to:", 4, 4),
        ("item", "Wait for the task to finish", 6, 6),
        ("item", "Retrieve the task's return value", 7, 8),
        (
            "paragraph",
            "Use `abc.TaskGroup.start_soon`, `CancelScope`, `TaskGroup.start()` and the guide.",
            10,
            10,
        ),
    ]


def test_a_docstrings_rest_field_list_is_a_parameters_section_of_items() -> None:
    """anyio's `fail_after`: its `:param …:`, `:return:` and `:raises X:` fields, read as one paragraph with
    the names dropped, were quoted under "How they work" as "maximum allowed time … `True` to shield the
    cancel scope … if no supported asynchronous event loop is running". They are a section of their own
    (the blank line above them its heading), each field an item named by its parameter."""
    docstring = (
        "\n    Create a context manager which raises if the block does not finish in time.\n\n"
        "    :param float delay: maximum allowed time, or\n        ``None`` to disable the timeout\n"
        "    :param shield: ``True`` to shield the scope\n    :raises NoEventLoopError: if no loop runs\n    "
    )
    found = [(s.heading, b.kind, b.text, b.start, b.end) for s in read_docstring(docstring) for b in s.blocks]
    assert found == [
        (
            "",
            "paragraph",
            "Create a context manager which raises if the block does not finish in time.",
            2,
            2,
        ),
        ("Parameters", "item", "delay: maximum allowed time, or `None` to disable the timeout", 4, 5),
        ("Parameters", "item", "shield: `True` to shield the scope", 6, 6),
        ("Parameters", "item", "NoEventLoopError: if no loop runs", 7, 7),
    ]
    assert summary(docstring) == "Create a context manager which raises if the block does not finish in time."


def test_a_docstrings_bibliographic_fields_are_no_text_and_its_synopsis_is_its_summary() -> None:
    """watchdog's modules open their docstrings with `:module:`, `:synopsis:` and `:author:` fields (17
    files), werkzeug's middleware close theirs with `:copyright: 2007 Pallets` and `:license:` (7): the module
    catalogue read "Watchdog.observers Observer that picks a native implementation if available.
    yesudeep@google.com (Yesudeep Mangalapilly) …" and werkzeug's middleware guide quoted "2007 Pallets
    BSD-3-Clause". Who wrote a module and where it lives are no text; the synopsis says what it is for."""
    docstring = (
        ":module: watchdog.observers\n:synopsis: Observer that picks a native implementation if available.\n"
        ":author: yesudeep@google.com (Yesudeep Mangalapilly)\n:author: Mickaël Schoentgen\n"
        "    <contact@tiger-222.fr>\n\nObserver thread that dispatches calls to event handlers.\n\n"
        ":copyright: 2007 Pallets\n:license: BSD-3-Clause\n"
    )
    found = [(s.heading, b.kind, b.text, b.start, b.end) for s in read_docstring(docstring) for b in s.blocks]
    assert found == [
        ("", "paragraph", "Observer that picks a native implementation if available.", 2, 2),
        ("", "paragraph", "Observer thread that dispatches calls to event handlers.", 7, 7),
    ]
    assert summary(docstring) == "Observer that picks a native implementation if available."
    assert summary(":copyright: 2007 Pallets\n:license: BSD-3-Clause\n") == ""
    # a parameter's field is not bibliographic: it stays a parameter
    assert [b.text for s in read_docstring("Run it.\n\n:param version: the version\n") for b in s.blocks] == [
        "Run it.",
        "version: the version",
    ]


def test_a_fenced_example_in_a_google_section_is_code_as_written() -> None:
    """humanize's docstrings (written for mkdocstrings) hold a ```pycon fence under "Examples:": the
    doctest lines were indented into the fence, `1_000_000` escaped, and the fence ran on over "Args"."""
    docstring = (
        "Converts an integer to a string with commas.\n\n    Examples:\n        ```pycon\n"
        "        >>> intcomma(1_000_000)\n        '1,000,000'\n        >>> for x in (1, 2):\n"
        "        ...     intcomma(x)\n\n        ```\n\n    Args:\n        value (int): Integer to convert.\n    "
    )
    found = [(s.heading, b.kind, b.text, b.language) for s in read_docstring(docstring) for b in s.blocks]
    assert found == [
        ("", "paragraph", "Converts an integer to a string with commas.", ""),
        (
            "Examples",
            "code",
            ">>> intcomma(1_000_000)\n'1,000,000'\n>>> for x in (1, 2):\n...     intcomma(x)",
            "pycon",
        ),
        ("Args", "paragraph", "value (int): Integer to convert.", ""),
    ]


def test_a_docstring_opening_on_a_directive_keeps_its_body_out_of_the_summary() -> None:
    """A module docstring that starts on the line after its quotes with `.. testsetup::` (packaging,
    structlog, click): cleaning it twice dedented the directive's body into prose, and the module's summary
    became its import lines."""
    docstring = "\n.. testsetup::\n\n    from packaging.version import Version\n\nVersions, compared.\n"
    assert summary(docstring) == "Versions, compared."
    assert summary("\n.. testsetup::\n\n    from packaging.version import Version\n") == ""


def test_an_rst_block_quote_is_text_not_code() -> None:
    """reST indents a block quote (jsonschema's and the PEPs' indented lists of steps); Markdown would read
    the same indentation as code. A literal block (`::`) stays code."""
    text = (
        "Title\n=====\n\nConfiguring it is a two step process:\n\n    * Create a `Registry` object\n\n"
        "    * Pass the `Registry` to your `Validator`\n\nThe examples below follow these steps.\n\n"
        "There are 3 main objects:\n\n    * `Registry`, a set\n    * `Resource`, which\n      spans two lines\n\n"
        "Example::\n\n    code_here()\n"
    )
    found = [(b.kind, b.text, b.start) for _, b in blocks(read_text(text, name="x.rst"))]
    assert found == [
        ("paragraph", "Configuring it is a two step process:", 4),
        ("item", "Create a `Registry` object", 6),
        ("item", "Pass the `Registry` to your `Validator`", 8),
        ("paragraph", "The examples below follow these steps.", 10),
        ("paragraph", "There are 3 main objects:", 12),
        ("item", "`Registry`, a set", 14),
        ("item", "`Resource`, which spans two lines", 15),
        ("paragraph", "Example:", 18),
        ("code", "code_here()", 20),
    ]


def test_an_rst_block_quote_holding_a_directive_reads_it_as_sphinx_does() -> None:
    """omegaconf's grammar.rst indents each `.. code-block:: antlr` under the sentence introducing it: the
    block was one indented code block of raw markup, a 4-backtick fence around a literal "```antlr"."""
    text = (
        "Title\n=====\n\nIt is parsed using the `text` rule of the grammar:\n\n    .. code-block:: antlr\n\n"
        "        text: (interpolation |\n               ANY_STR)+;\n\nSuch a string is an interpolation.\n"
    )
    found = [(b.kind, b.language, b.text, b.start) for _, b in blocks(read_text(text, name="x.rst"))]
    assert found == [
        ("paragraph", "", "It is parsed using the `text` rule of the grammar:", 4),
        ("code", "antlr", "text: (interpolation |\n       ANY_STR)+;", 6),
        ("paragraph", "", "Such a string is an interpolation.", 11),
    ]


def test_a_line_of_spaces_below_a_paragraph_is_blank_not_a_block_quote() -> None:
    """ghc-proposals' 0652-import-shadowing.rst has a line of five spaces between a paragraph and the next
    heading: read as a block quote holding no line, the reader never moved past it and a topic over the
    collection never ended."""
    text = "Warnings\n~~~~~~~~\n\nShadowing bindings.\n\n     \nExamples\n--------\nIt shines.\n"
    with alarm(20):
        found = [(s.heading, b.text, b.start) for s, b in read_text(text, name="x.rst").blocks()]
    assert found == [("Warnings", "Shadowing bindings.", 4), ("Examples", "It shines.", 9)]


def test_an_rst_definitions_body_and_a_simple_table_read_as_sphinx_shows_them() -> None:
    """guzzle's client options are a definition list whose bodies hold a paragraph, a code block, another
    paragraph and a simple table: all of it had been one code block of raw reST (waitress, huey, jinja,
    mupdf's tool pages too), and so had a field's list below it (its request options' `:Types:`, Sphinx
    API pages' `:raises:`); simple tables (dramatiq's options, sqlite-utils', the PEPs') had been a
    paragraph of `=` runs."""
    text = (
        "Options\n=======\n\n"  # 1-3
        "``base_uri``\n    (string) The base URI, merged into relative URIs.\n\n"  # 4-6
        "    .. code-block:: php\n\n        $client = new Client(['base_uri' => 'https://foo.com/']);\n\n"  # 7-10
        "    How a ``base_uri`` resolves:\n\n"  # 11-12
        "    =====================  =======  ========\n"  # 13
        "    base_uri               URI      Result\n"  # 14
        "    =====================  =======  ========\n"  # 15
        "    ``http://foo.com/a/``  ``b``    ``http://foo.com/a/b``\n"  # 16
        "    =====================  =======  ========\n\n"  # 17-18
        "``timeout``\n    (float) Seconds to wait, 0 for ever.\n\n"  # 19-21
        ":Summary: How long to wait\n:Types:\n    - float\n    - int\n"  # 22-25
    )
    found = [(b.kind, b.text, b.start) for _, b in blocks(read_text(text, name="x.rst"))]
    assert found == [
        ("paragraph", "`base_uri` (string) The base URI, merged into relative URIs.", 4),
        ("code", "$client = new Client(['base_uri' => 'https://foo.com/']);", 7),
        ("paragraph", "How a `base_uri` resolves:", 11),
        ("table", "base_uri | URI | Result\n`http://foo.com/a/` | `b` | `http://foo.com/a/b`", 14),
        ("paragraph", "`timeout` (float) Seconds to wait, 0 for ever.", 19),
        ("paragraph", "How long to wait", 22),
        ("item", "float", 24),
        ("item", "int", 25),
    ]


def test_rst_list_and_csv_tables_read_as_the_tables_sphinx_shows() -> None:
    """Sphinx docs list settings in `list-table` and `csv-table` directives as often as in simple tables;
    the reader dropped both whole, as it drops a toctree. Each is a table (its header from `:header-rows:`
    or `:header:`), a cell's roles resolved and its lines joined; a table read from a `:file:` says nothing
    here."""
    text = (
        "Settings\n========\n\n"  # 1-3
        ".. list-table:: Options\n   :header-rows: 1\n   :widths: 20 80\n\n"  # 4-7
        "   * - Name\n     - Meaning\n"  # 8-9
        "   * - ``timeout``\n     - Seconds to wait,\n       0 for ever.\n\n"  # 10-13
        '.. csv-table:: Levels\n   :header: "Level", "Value"\n\n'  # 14-16
        '   ``DEBUG``, 10\n   "INFO, the default", 20\n\n'  # 17-19
        ".. csv-table:: Elsewhere\n   :file: levels.csv\n\n"  # 20-22
        "After the tables.\n"  # 23
    )
    found = [(b.kind, b.rows, b.start) for _, b in blocks(read_text(text, name="x.rst"))]
    assert found == [
        ("table", (("Name", "Meaning"), ("`timeout`", "Seconds to wait, 0 for ever.")), 5),
        ("table", (("Level", "Value"), ("`DEBUG`", "10"), ("INFO, the default", "20")), 15),
        ("paragraph", (), 23),
    ]
    # without a header, each row is an item of its cells
    bare = ".. list-table::\n\n   * - ``a``\n     - the first\n   * - ``b``\n     - the second\n"
    assert [b.text for _, b in blocks(read_text(bare, name="x.rst"))] == [
        "`a` — the first",
        "`b` — the second",
    ]


def test_the_prose_of_a_readmes_html_header_is_read_as_paragraphs() -> None:
    """READMEs centre their logo, title and tagline in HTML (go-task, node-fetch, httpx, mermaid): a `<p>` of
    words is a paragraph on its own lines; badges, a row of links and a script are not."""
    text = (
        '<div align="center">\n  <a href="https://taskfile.dev"><img src="logo.svg" /></a>\n\n'  # 1-3
        "  <h1>Task: The Modern Task Runner</h1>\n\n"  # 4-5
        "  <p>\n    A fast, cross-platform build tool inspired by <em>Make</em>, designed for modern workflows.\n"
        "  </p>\n\n"  # 6-9
        '  <p><a href="/i">Installation</a> &bullet; <a href="/g">Getting Started</a> &bullet; '
        '<a href="/d">Docs</a></p>\n'  # 10
        '  <p><img src="badge.svg"></p>\n  <script>alert("never read as words here")</script>\n</div>\n\n'  # 11-13
        "# Usage\n\nRun `task` in a folder that holds a Taskfile.\n"
    )
    found = [(b.kind, b.text, b.start, b.end) for _, b in blocks(read_text(text, name="README.md"))]
    assert found == [
        (
            "paragraph",
            "A fast, cross-platform build tool inspired by Make, designed for modern workflows.",
            6,
            8,
        ),
        ("paragraph", "Run `task` in a folder that holds a Taskfile.", 17, 17),
    ]
    # small print is no sentence of the project: ky's and got's sponsor note in `<sup>` had become their
    # tagline, ahead of "> Ky is a tiny and elegant HTTP client based on the Fetch API"
    sponsor = (
        '<div align="center">\n\t<p>\n\t\t<p>\n\t\t\t<sup>\n\t\t\t\tSindre\'s open source work is supported by the '
        "community.<br>Special thanks to:\n\t\t\t</sup>\n\t\t</p>\n\t</p>\n</div>\n\n"
        "> Ky is a tiny and elegant HTTP client based on the Fetch API\n"
    )
    assert [b.text for _, b in blocks(read_text(sponsor, name="readme.md"))] == [
        "Ky is a tiny and elegant HTTP client based on the Fetch API"
    ]


def test_the_words_a_readmes_centred_div_holds_without_a_paragraph_are_a_paragraph() -> None:
    """bree centres its tagline as a `<div>`'s own text ("Bree is the best job scheduler for Node.js …"), no
    `<p>` around it: its overview opened on the Foreword's asides instead. A div of badges, or one holding only a
    title, says nothing."""
    text = (
        '<h1 align="center">\n  <a href="https://x.net"><img src="logo.png" alt="jobs" /></a>\n</h1>\n'  # 1-3
        '<div align="center">\n  <a href="ci"><img src="ci.svg" alt="build status" /></a>\n</div>\n'  # 4-6
        '<div align="center">\n  Jobs is a job scheduler for <a href="https://nodejs.org">Node.js</a> with'
        ' <a href="cron">cron</a> and dates.\n</div>\n'  # 7-9
        '<div align="center"><h2>Jobs, made simple and fast</h2></div>\n\n'  # 10-11
        "## Foreword\n\nJobs was written to be small.\n"
    )
    found = [(b.kind, b.text, b.start, b.end) for _, b in blocks(read_text(text, name="README.md"))]
    assert found == [
        ("paragraph", "Jobs is a job scheduler for Node.js with cron and dates.", 7, 9),
        ("paragraph", "Jobs was written to be small.", 14, 14),
    ]


def test_a_sphinx_object_description_is_a_heading_over_its_body() -> None:
    """yarl's, huey's, jinja's and flask's API pages are `.. method::`, `.. class::` and `.. attribute::`
    descriptions: each is a heading one level below its section, with its body read in its place (a class's
    methods below it); their text was dropped whole."""
    text = (
        "URL properties\n--------------\n\nThere are two kinds of properties.\n\n"
        ".. attribute:: URL.user\n\n   Decoded *user* part of URL, ``None`` if absent.\n\n"
        "   .. doctest::\n\n      >>> URL('http://john@example.com').user\n      'john'\n\n"
        ".. py:class:: URL(url, *, encoded=False)\n   :noindex:\n\n   Represents a URL.\n\n"
        "   .. method:: with_path(path)\n\n      Return a new URL with *path* replaced.\n\n"
        "Other\n-----\n\nAfter it.\n"
    )
    found = [
        (s.level, s.path[-1], [(b.kind, b.text, b.start) for b in s.blocks])
        for s in read_text(text, name="api.rst").sections
    ]
    assert found == [
        (1, "URL properties", [("paragraph", "There are two kinds of properties.", 4)]),
        (
            2,
            "URL.user",
            [
                ("paragraph", "Decoded user part of URL, `None` if absent.", 8),
                ("code", ">>> URL('http://john@example.com').user\n'john'", 10),
            ],
        ),
        (2, "URL(url, *, encoded=False)", [("paragraph", "Represents a URL.", 18)]),
        (3, "with_path(path)", [("paragraph", "Return a new URL with path replaced.", 22)]),
        (1, "Other", [("paragraph", "After it.", 27)]),
    ]


def test_an_admonitions_body_is_read_as_rest_so_its_code_stays_code() -> None:
    """huey's `.. note::` holds a code block whose comment ("# Manually store …") became a heading when the
    note's lines were read one by one as text."""
    text = (
        "Tasks\n=====\n\n.. note::\n    The result of a periodic task is not stored by the consumer:\n\n"
        "    .. code-block:: python\n\n        # Manually store some data.\n        huey.put('key', data)\n\n"
        "    More info is in the API.\n\nAfter the note, the guide goes on about tasks.\n"
    )
    document = read_text(text, name="guide.rst")
    assert [s.heading for s in document.sections] == ["Tasks"]
    assert [(b.kind, b.text, b.language) for _, b in blocks(document)] == [
        ("paragraph", "The result of a periodic task is not stored by the consumer:", ""),
        ("code", "# Manually store some data.\nhuey.put('key', data)", "python"),
        ("paragraph", "More info is in the API.", ""),
        ("paragraph", "After the note, the guide goes on about tasks.", ""),
    ]


def test_a_docs_home_pages_hero_and_features_are_what_it_says_the_project_is() -> None:
    """VitePress home pages (pinia, vue-router, zustand, mermaid, go-task) say what the project is in front
    matter: the hero is a paragraph and the features a list, on their own lines; a tag is never constructed."""
    text = (
        "---\nlayout: home\n\nhero:\n  name: Pinia\n  text: The intuitive store for Vue.js\n"  # 1-6
        "  tagline: Type Safe, Extensible, and Modular by design.\n  actions:\n    - text: Get Started\n"  # 7-9
        "      link: /introduction\n\nfeatures:\n  - title: Intuitive\n"  # 10-13
        "    details: Stores are as familiar as components.\n  - title: Light\n    details: Pinia weighs 1.5kb\n"
        "---\n\n<HomeSponsors />\n"  # 14-19
    )
    found = [(b.kind, b.text, b.start) for _, b in blocks(read_text(text, name="index.md"))]
    assert found == [
        (
            "paragraph",
            "Pinia: The intuitive store for Vue.js. Type Safe, Extensible, and Modular by design.",
            7,
        ),
        ("item", "Intuitive: Stores are as familiar as components.", 14),
        ("item", "Light: Pinia weighs 1.5kb.", 16),
    ]
    hostile = (
        "---\nhero: !!python/object/apply:os.system ['echo owned']\n---\n\nText of the page, said plainly.\n"
    )
    assert [b.text for _, b in blocks(read_text(hostile, name="index.md"))] == [
        "Text of the page, said plainly."
    ]


def test_rst_roles_directives_and_a_toctree() -> None:
    text = (
        ".. _assert:\n\n"  # 1-2
        "Assertions\n==========\n\n"  # 3-5
        ".. toctree::\n   :maxdepth: 2\n\n   intro\n\n"  # 6-10
        "Use :func:`pytest.raises` or {func}`os.path.join`, ``x``, see :ref:`the guide <g>`.\n\n"  # 11-12
        ".. code-block:: python\n   :linenos:\n\n   def f():\n       return 3\n\n"  # 13-18
        "Details\n-------\n\nAn example::\n\n    x = 1\n\n"  # 19-25
        ".. note::\n\n   A note's body.\n"  # 26-28
    )
    doc = read_text(text, name="assert.rst")
    assert doc.title == "Assertions"
    assert [(s.path, s.level) for s in doc.sections] == [(("Assertions",), 1), (("Assertions", "Details"), 2)]
    assert [b for _, b in blocks(doc)] == [
        Block("paragraph", "Use `pytest.raises` or `os.path.join`, `x`, see the guide.", 11, 11),
        Block(
            "code",
            "def f():\n    return 3",
            13,
            17,
            "python",
            "Use `pytest.raises` or `os.path.join`, `x`, see the guide.",
        ),
        Block("paragraph", "An example:", 22, 22),
        Block("code", "x = 1", 24, 24, "python", "An example:"),  # Sphinx highlights it as Python
        Block("paragraph", "A note's body.", 28, 28),
    ]


def test_a_docs_site_widget_is_not_content_and_containers_keep_their_body() -> None:
    text = (
        ':::tip API 参考\n本页包含示例代码。现在你选择的是 <span class="options-api">选项式 API</span>'
        '<span class="composition-api">组合式 API</span>。\n:::\n\n'
        "::: warning\n注意这一点。\n:::\n"
    )
    assert [b.text for _, b in blocks(read_text(text, name="a.md"))] == ["注意这一点。"]


def test_a_container_titled_with_a_sentence_keeps_it_as_text() -> None:
    """Element (and element-react) describe each example on its container's marker line: `:::demo Form 组件提供
    了表单验证的功能，只需要通过 `rules` 属性传入约定的验证规则…` was blanked with the marker, and the report on
    表单验证 never said `rules`. A box's label ("提示", "Security Warning") stays out."""
    text = (
        "### 表单验证\n\n:::demo Form 组件提供了表单验证的功能，只需要通过 `rules` 属性传入约定的验证规则。\n"
        '```html\n<el-form :rules="rules"></el-form>\n```\n:::\n\n'
        "::: demo Set `effect` to change theme, default is `light`.\n```html\n<el-alert/>\n```\n:::\n\n"
        ":::info 提示\n注意这一点。\n:::\n\n:::warning Security Warning\nKeep it safe.\n:::\n"
    )
    found = [(b.kind, b.text) for _, b in blocks(read_text(text, name="form.md"))]
    assert found == [
        ("paragraph", "Form 组件提供了表单验证的功能，只需要通过 `rules` 属性传入约定的验证规则。"),
        ("code", '<el-form :rules="rules"></el-form>'),
        ("paragraph", "Set `effect` to change theme, default is `light`."),
        ("code", "<el-alert/>"),
        ("paragraph", "注意这一点。"),
        ("paragraph", "Keep it safe."),
    ]


def test_a_container_title_holding_a_sentence_and_a_pointer_after_it_keeps_both() -> None:
    """Element's `:::demo` line on 表单验证 goes on after its sentence's full stop: "…设置为需校验的字段名即可。校验
    规则参见 [async-validator](…)" (3 such lines in its zh-CN pages, 6 in all its languages, 2 in element-react).
    Ending on a link, not a stop, it was blanked with the marker: the report never said `rules` or `prop`. A
    label with a dot inside a word ("v1.2 notes") is still no sentence."""
    text = (
        ":::demo Form 组件提供了表单验证的功能，只需要通过 `rules` 属性传入约定的验证规则。校验规则参见"
        " [async-validator](https://github.com/yiminghe/async-validator)\n```html\n<el-form/>\n```\n:::\n\n"
        ":::demo Use `type` to pick a layout. See the options below\n```html\n<el-row/>\n```\n:::\n\n"
        ":::tip v1.2 notes\n注意这一点。\n:::\n"
    )
    found = [b.text for _, b in blocks(read_text(text, name="form.md")) if b.kind == "paragraph"]
    assert found == [
        "Form 组件提供了表单验证的功能，只需要通过 `rules` 属性传入约定的验证规则。校验规则参见 async-validator",
        "Use `type` to pick a layout. See the options below",
        "注意这一点。",
    ]


def test_bold_markers_commonmark_leaves_as_text_are_no_debris() -> None:
    """Between a Han character and punctuation a `**` opens or closes nothing in CommonMark (Hexo's
    "部署通常通过**_config.yml**进行配置。", egg's "**注意：**在插件还没发布前"): markdown-it keeps the asterisks
    as text, where the author and the built site show bold. A lone `*` and bold it parsed stay as they were."""
    text = (
        "部署通常通过**_config.yml**进行配置。\n\n**注意：**在插件还没发布前，可以通过 path 来指定。\n\n"
        "这是**重点**内容，a * b 也一样。\n"
    )
    assert [b.text for _, b in blocks(read_text(text, name="a.md"))] == [
        "部署通常通过_config.yml进行配置。",
        "注意：在插件还没发布前，可以通过 path 来指定。",
        "这是重点内容，a * b 也一样。",
    ]


def test_a_formula_set_as_an_image_stays_in_its_sentence_and_badges_go() -> None:
    text = "[![build](b.svg)](https://ci) [![cov](c.svg)](https://cov)\n\n![`T`](inl3.png) is the total memory. ![`F`](inl4.png) is free.\n"
    assert [b.text for _, b in blocks(read_text(text, name="a.md"))] == [
        "`T` is the total memory. `F` is free."
    ]
    # a row of linked badges ending in words, or a sentence followed by its badges, keeps only the words
    row = (
        "[![PostgreSQL](https://img.shields.io/badge/PostgreSQL.svg)](https://kysely.dev/pg)\n"
        "[![MySQL](https://img.shields.io/badge/MySQL.svg)](https://kysely.dev/mysql)\n& more!\n\n"
        "Very fast, header-only C++ logging library. [![ci](ci.svg)](https://ci)&nbsp; [![Release](r.svg)](https://r)\n"
    )
    assert [b.text for _, b in blocks(read_text(row, name="README.md"))] == [
        "& more!",
        "Very fast, header-only C++ logging library.",
    ]


def test_mkdocs_admonition_bodies_are_paragraphs_on_their_own_lines() -> None:
    text = 'Intro.\n\n!!! note "Heads up"\n    Indented body.\n\nAfter.\n'
    assert [(b.text, b.start) for _, b in blocks(read_text(text, name="a.md"))] == [
        ("Intro.", 1),
        ("Indented body.", 4),
        ("After.", 6),
    ]
    classes = (
        '!!! info deepkb-notice "Produced offline"\n    Written offline.\n\nAfter.\n'  # a type and a class
    )
    assert [(b.text, b.start) for _, b in blocks(read_text(classes, name="a.md"))] == [
        ("Written offline.", 2),
        ("After.", 4),
    ]


def test_an_admonition_marker_needs_no_space_before_its_type() -> None:
    # ormar's docs write `!!!tip` (Python-Markdown's ` ?`): its body was read as an indented code block, and
    # Getting started showed "It's divided into subsections for clarity." as an example
    text = "Intro.\n\n!!!tip\n    Put the example in one file.\n\n    It's divided into parts.\n\nAfter.\n"
    assert [(b.kind, b.text, b.start) for _, b in blocks(read_text(text, name="a.md"))] == [
        ("paragraph", "Intro.", 1),
        ("paragraph", "Put the example in one file.", 4),
        ("paragraph", "It's divided into parts.", 6),
        ("paragraph", "After.", 8),
    ]


def test_content_tabs_are_read_as_their_bodies_even_inside_an_admonition() -> None:
    # pymdownx.tabbed: `=== "Title"` over an indented body (uvicorn's pip/uv, json's Deprecated/Future-proof)
    tabs = 'Install it:\n=== "pip"\n    ```bash\n    pip install it\n    ```\n\n=== "uv"\n\n    ```bash\n    uv add it\n    ```\n'
    assert [(b.kind, b.text, b.start, b.end) for _, b in blocks(read_text(tabs, name="a.md"))] == [
        ("paragraph", "Install it:", 1, 1),
        ("code", "pip install it", 3, 5),
        ("paragraph", "uv", 7, 7),  # the title stays where its button shows, unless a line runs on into it
        ("code", "uv add it", 9, 11),
    ]
    assert [b.lead for _, b in blocks(read_text(tabs, name="a.md")) if b.kind == "code"] == [
        "Install it:",
        "uv",
    ]
    nested = (
        '!!! example "Example"\n    === "docs/page.md"\n        ```md\n        # Title\n        ```\n\n'
        '    === "Result"\n        The rendered *page*.\n\nAfter.\n'
    )
    assert [(b.kind, b.text, b.start) for _, b in blocks(read_text(nested, name="a.md"))] == [
        ("code", "# Title", 3),
        ("paragraph", "The rendered page.", 8),
        ("paragraph", "After.", 10),
    ]


def test_an_autodoc_marker_and_its_options_are_no_text_of_the_page() -> None:
    # mkdocstrings' `::: httpx.get` with `:docstring:` (httpx, httpcore, typer) or an `options:` block (its
    # own API page) had become a code block; VitePress's `::: tip` stays a container
    text = (
        "The helpers:\n\n::: tinyhttp.get\n    :docstring:\n\n::: tinyhttp\n    options:\n"
        "        show_submodules: true\n\nAfter.\n\n::: tip\nA tip for you.\n:::\n"
    )
    assert [(b.kind, b.text, b.start) for _, b in blocks(read_text(text, name="a.md"))] == [
        ("paragraph", "The helpers:", 1),
        ("paragraph", "After.", 10),
        ("paragraph", "A tip for you.", 13),
    ]


def test_quotes_and_tables_are_blocks_of_their_own() -> None:
    text = "> quoted\n> text\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    assert [b for _, b in blocks(read_text(text, name="a.md"))] == [
        Block("quote", "quoted text", 1, 2),
        Block("table", "a | b\n1 | 2", 4, 6, rows=(("a", "b"), ("1", "2"))),
    ]


def test_plain_text_paragraphs_and_items() -> None:
    text = "Notes on queues.\nSecond line.\n\nSteps:\n- drain\n- stop\n"
    doc = read_text(text, name="notes-on-queues.txt")
    assert doc.title == "notes on queues"
    assert [b for _, b in blocks(doc)] == [
        Block("paragraph", "Notes on queues. Second line.", 1, 2),
        Block("paragraph", "Steps:", 4, 4),
        Block("item", "drain", 5, 5, lead="Steps:"),
        Block("item", "stop", 6, 6, lead="Steps:"),
    ]


def test_a_google_docstring_summary_is_never_its_args_section() -> None:
    text = "Return the sum of two numbers.\n\n    Args:\n        a: the first.\n\n    Returns:\n        The sum.\n    "
    doc = read_text(text, name="f", markup="docstring")
    assert [s.heading for s in doc.sections] == ["", "Args", "Returns"]
    assert summary(text) == summary(text, sections=False) == "Return the sum of two numbers."
    only_args = "Args:\n    a: the first.\n"
    assert summary(only_args) == summary(only_args, sections=False) == ""


def test_a_numpy_docstring_has_its_sections_and_doctest_as_code() -> None:
    text = "Compute a mean.\n\nParameters\n----------\nx : array\n    Input.\n\nExamples\n--------\n>>> mean([1, 2])\n1.5\n"
    doc = read_text(text, name="mean", markup="docstring")
    assert summary(text) == summary(text, sections=False) == "Compute a mean."
    assert [s.heading for s in doc.sections] == ["", "Parameters", "Examples"]
    assert [b.kind for s, b in doc.blocks() if s.heading == "Examples"] == ["code"]


def test_a_go_comment_block() -> None:
    from generator.documents import comment_text

    text = comment_text("// Package queue implements a bounded queue.\n//\n// It is safe for concurrent use.")
    doc = read_text(text, name="queue.go", markup="docstring")
    assert [b.text for _, b in doc.blocks()] == [
        "Package queue implements a bounded queue.",
        "It is safe for concurrent use.",
    ]


def test_html_keeps_formulas_and_its_title() -> None:
    page = (
        "<html><head><title>GC guide</title></head><body><article><h1>Memory limit</h1>"
        '<p>The limit <script type="math/tex">\\hat{L}</script> is computed from the total '
        '<math alttext="T"><mi>T</mi></math> the runtime mapped, which is a long enough sentence.</p>'
        "</article></body></html>"
    )
    doc = read_bytes(page.encode(), name="gc.html")
    text = " ".join(b.text for _, b in doc.blocks())
    assert doc.title == "GC guide"
    assert "\\hat{L}" in text and "`T`" in text


def test_the_document_package_sits_on_the_bottom_floor() -> None:
    from pathlib import Path

    from test_layering import imported_modules

    package = Path(__file__).resolve().parents[1] / "generator" / "documents"
    upward = ("generator.repo", "generator.topic", "generator.kb", "generator.site", "generator.cli")
    offenders = [
        f"{path.name}:{line} imports {module}"
        for path in sorted(package.rglob("*.py"))
        for line, module in imported_modules(path)
        if module.startswith(upward)
        or module.lstrip(".").split(".")[0] in ("repo", "topic", "kb", "site", "cli")
        and module.startswith("..")
    ]
    assert offenders == []


def test_a_stored_source_is_cut_into_passages_by_the_document_model() -> None:
    from generator.kb.passages import page_passages

    body = (
        "Source: https://docs.test/a\n\n## Stored text\n\n## 服务端渲染 {#ssr}\n\n"
        "Steps to [render](https://docs.test/r):\n\n- first\n- second\n\n"
        "> a quoted\n> remark\n\n| name | role |\n|---|---|\n| ssr | server |\n\n```js\ncode()\n```\n"
    )
    passages = page_passages(
        "topics/t/raw/a.md", "source", {"url": "https://docs.test/a", "title": "A"}, body
    )
    assert [(p.heading, p.text) for p in passages] == [
        ("服务端渲染", "Steps to render:"),
        ("服务端渲染", "first"),
        ("服务端渲染", "second"),
        ("服务端渲染", "a quoted remark"),
        ("服务端渲染", "ssr · server"),
    ]
    assert (
        passages[0].cites[0].url == "https://docs.test/r"
        and passages[1].cites[0].url == "https://docs.test/a"
    )


def test_a_myst_role_in_markdown_reads_as_the_code_it_names() -> None:
    [(_, block)] = blocks(read_text("Call {func}`os.path.join` here.\n", name="a.md"))
    assert block.text == "Call `os.path.join` here."


MYST = """# Guide

```{contents}
:local:
```

The router matches paths in order.

```{toctree}
:maxdepth: 2

intro
```

:::{note}
:class: dropdown
Routes added later never shadow earlier ones.

```python
router.add("/x", f)
```
:::

```{eval-rst}
.. autoclass:: tinyweb.Router
```

```{code-block} python
:linenos:
x = 1
```

````markdown
```{note}
MyST syntax, shown
```
````

```warning
Typing "end" in lower case breaks the flowchart.
```
"""


def test_an_autodoc_directive_s_own_body_is_the_docs_words_about_the_object() -> None:
    """cachetools' and tornado's docs write their account of each class in the autoclass directive's body
    ("This class evicts items in the order they were added …"): the body was dropped with the directive, and
    the guide said nothing of any cache algorithm."""
    text = (
        "Caches\n======\n\n.. autoclass:: FIFOCache(maxsize, getsizeof=None)\n   :members: popitem\n\n"
        "   This class evicts items in the order they were added.\n\n"
        ".. autoclass:: tiny.LRUCache\n   :members:\n\n   This one evicts the least recently used.\n\n"
        ".. autofunction:: tiny.hashkey\n\n.. autoclass:: Quiet\n\nAfter.\n"
    )
    found = [(b.kind, b.text, b.start) for _, b in blocks(read_text(text, name="index.rst"))]
    assert found == [
        ("paragraph", "This class evicts items in the order they were added.", 7),
        ("paragraph", "This one evicts the least recently used.", 12),  # below an object named in full
        ("paragraph", "After.", 18),
    ]
    sections = [s.heading for s in read_text(text, name="index.rst").sections]
    assert "FIFOCache(maxsize, getsizeof=None)" in sections  # "This class" says which class


def test_myst_directives_read_as_the_author_wrote_them() -> None:
    found = [(b.kind, b.text, b.start, b.language) for _, b in blocks(read_text(MYST, name="g.md"))]
    assert found == [
        ("paragraph", "The router matches paths in order.", 7, ""),
        ("paragraph", "Routes added later never shadow earlier ones.", 17, ""),  # the admonition's body
        ("code", 'router.add("/x", f)', 19, "python"),
        ("code", "x = 1", 28, "python"),  # {code-block} python: its option left out
        ("code", "```{note}\nMyST syntax, shown\n```", 33, "markdown"),  # a directive inside code is code
        ("paragraph", 'Typing "end" in lower case breaks the flowchart.', 40, ""),  # a callout fence
    ]
    said = " ".join(text for _, text, _, _ in found)
    assert "{" not in said.replace("{note}", "") and "toctree" not in said and "autoclass" not in said


def test_an_eval_rst_block_is_read_as_the_rest_it_holds() -> None:
    text = (
        "# Quickstart\n\n```{eval-rst}\n.. click:example::\n    import click\n\n    @click.command()\n"
        "    def hello():\n        click.echo('Hello')\n\nThe decorator makes a :class:`Command` of it.\n\n"
        ".. autoclass:: click.Command\n   :members:\n```\n\nAfter the block.\n"
    )
    found = [(b.kind, b.text, b.start) for _, b in blocks(read_text(text, name="q.md"))]
    assert found == [
        ("code", "import click\n\n@click.command()\ndef hello():\n    click.echo('Hello')", 4),
        ("paragraph", "The decorator makes a `Command` of it.", 11),
        ("paragraph", "After the block.", 17),  # the lines after the block keep their numbers
    ]


def test_a_docstring_knows_the_section_names_its_summary_stops_at() -> None:
    # one list of section names for the document model and text/sentences' docstring summary
    text = "Open a pool.\n\nKeyword Args:\n    size: how many.\n"
    doc = read_text(text, name="f", markup="docstring")
    assert [s.heading for s in doc.sections] == ["", "Keyword Args"] and summary(
        text, sections=False
    ) == "Open a pool."
    assert lead_sentences("Open a pool.\n\nExample usage:\n    pool = open_pool()\n") == ["Open a pool."]


def test_javadoc_inline_tags_and_xml_doc_references_read_as_words() -> None:
    from generator.documents import comment_text

    javadoc = "/**\n * Converts with {@link Gson#toJson(Object)} and {@link #fromJson};\n * {@code null} is {@literal none}. {@inheritDoc}\n */"
    assert comment_text(javadoc) == "Converts with Gson.toJson(Object) and fromJson;\n`null` is none."
    assert comment_text("/** See {@link org.acme.Selector the query syntax}. */") == "See the query syntax."
    # TSDoc (puppeteer): `{@link Page.goto | navigating}` reads as its label; an address as itself
    tsdoc = "/** Waits for {@link Page.goto | navigating} to finish; see {@link https://pptr.dev/api}. */"
    assert comment_text(tsdoc) == "Waits for navigating to finish; see https://pptr.dev/api."
    xml = '/// Returns <see cref="T:Acme.Validator`1"/> or <see langword="null"/> for <paramref name="rule"/>;\n/// see <see cref="IValidator">the interface</see>.'
    assert comment_text(xml) == "Returns Validator or null for rule;\nsee the interface."
    # a generic reference (XML doc spells `<TKey>` as `{TKey}`; Polly 465, FluentValidation 9, serilog 6) read
    # "ResiliencePipelineRegistry\\{TKey\\}" on the pages: it is the code C# writes
    generic = '/// Creates a <see cref="ResiliencePipelineRegistry{TKey}"/> from <see cref="M:Ns.Outcome.From{T}(T)"/>.'
    assert comment_text(generic) == "Creates a `ResiliencePipelineRegistry<TKey>` from `From<T>`."


def test_kdoc_rustdoc_and_go_doc_links_read_as_code() -> None:
    """KDoc's `[FileSystem]` (okio 415 lines, moshi, javalin), rustdoc's [`Client`] (reqwest, serde_json, mdBook)
    and Go's `[bytes.Buffer]` name a symbol: shown as code, never as "[FileSystem]"; an index stays an index."""
    from generator.documents import comment_text
    from generator.documents.comment import doc_comment

    kdoc = "/**\n * Expose this [AssetManager] as an Okio [FileSystem]; see `items[i]` and [the docs][docs].\n */"
    assert (
        comment_text(kdoc)
        == "Expose this `AssetManager` as an Okio `FileSystem`; see `items[i]` and [the docs][docs]."
    )
    rust = "/// A [`Client`] to make requests with, built by [crate::ClientBuilder].\n///\n/// ```\n/// let a = v[Buffer];\n/// ```\npub struct Client {}\n"
    comment = doc_comment(rust.split("\n"), 6, 6, "rust")
    assert comment is not None
    assert comment.text == (
        "A `Client` to make requests with, built by `crate::ClientBuilder`.\n\n```rust\nlet a = v[Buffer];\n```"
    )


def test_brackets_inside_inline_code_are_no_doc_link() -> None:
    """rayon's "The [`par_sort`] method sorts `&mut [T]` slices", serde_json's `&[u8]`, axum, libsql: the
    brackets inside a code span were rewritten as a doc link (`&mut `T``), breaking the span, and the page
    showed "&amp;mut \\[T\\]" as plain text."""
    from generator.documents.comment import doc_links

    assert doc_links("The [`par_sort`] method sorts `&mut [T]` slices, reads `&[u8]` into [Buffer].") == (
        "The `par_sort` method sorts `&mut [T]` slices, reads `&[u8]` into `Buffer`."
    )
    assert doc_links("``a `[T]` b`` then [Value]") == "``a `[T]` b`` then `Value`"


def test_a_docs_page_that_says_it_is_no_longer_in_force() -> None:
    from generator.documents.standing import page_standing

    assert (
        page_standing("---\ntitle: Legacy\n---\nThis document is obsolete.\n\n# Draft design\n") == "obsolete"
    )
    assert page_standing("---\ndeprecated: true\n---\n# Old API\n") == "deprecated"
    assert page_standing("---\ndeprecated: false\n---\n# API\n") == ""
    assert page_standing("# Old API\n\n> **Deprecated:** use the new API.\n") == "deprecated"
    assert page_standing('# Old\n\n!!! warning "Deprecated"\n    Use `run`.\n') == "deprecated"
    assert page_standing("# Old\n\n:::{deprecated} 2.0\nUse run.\n:::\n") == "deprecated"
    assert page_standing("# Old\n\n> [!WARNING]\n> Obsolete. See the guide.\n") == "obsolete"
    assert page_standing("# Guide\n", status="superseded") == "superseded"
    # a page about deprecations, or one naming a deprecated option in passing, is in force
    assert page_standing("# Deprecations\n\nThe `--old` flag is deprecated: use `--new`.\n") == ""
    assert page_standing("# Options\n\n- **deprecated** options are listed last.\n") == ""


def test_swift_and_go_proposal_headers_give_status_and_date() -> None:
    """Swift Evolution's "**Returned for revision**" and "**Implemented (Swift 5.4)**" are statuses, and a
    Go design document's "Last updated: July 18, 2016" is its date."""
    swift = "# Custom metadata\n\n* Proposal: [SE-0385](0385.md)\n* Status: **Returned for revision**\n\n## Introduction\n\nText.\n"
    assert read_text(swift, name="0385.md").status == "returned"
    shipped = "# Result builders\n\n* Proposal: [SE-0289](0289.md)\n* Status: **Implemented (Swift 5.4)**\n\n## Introduction\n\nText.\n"
    assert read_text(shipped, name="0289.md").status == "implemented"
    go = "# Proposal: Alias declarations\n\nAuthors: Robert Griesemer & Rob Pike.\nLast updated: July 18, 2016\n\n## Abstract\n\nText.\n"
    assert read_text(go, name="16339.md").date == "2016-07-18"


def test_a_ckb_rfcs_proposal_and_obsolete_statuses_are_statuses() -> None:
    """A Nervos CKB RFC's front matter states `Status: Proposal` (what an ADR calls "Proposed") and, for an RFC
    replaced by another, `Status: Obsolete`; a proposal's "Draft proposal" stays a draft."""
    rfc = '---\nNumber: "0044"\nCategory: Standards Track\nStatus: {}\nCreated: 2022-08-18\n---\n\n# CKB Light Client\n\nText.\n'
    assert read_text(rfc.format("Proposal"), name="0044.md").status == "proposed"
    assert read_text(rfc.format("Obsolete"), name="0011.md").status == "obsolete"
    assert read_text(rfc.format("Obsoleted by RFC 0045"), name="0011.md").status == "obsolete"
    assert read_text(rfc.format("Active"), name="0017.md").status == "active"
    assert read_text(rfc.format("Withdrawn"), name="0011.md").status == "withdrawn"
    assert read_text(rfc.format("Draft proposal"), name="0050.md").status == "draft"


def test_a_defunct_or_abandoned_design_is_no_longer_in_force() -> None:
    """Crossplane's superseded alpha design opens `* Status: Defunct` (design/defunct/…); it had read as no
    status and opened a report as how Composition Functions work. The words standing.INACTIVE knows are
    statuses a header states too."""
    from generator.documents.standing import page_standing

    design = "# Composition Functions\n\n* Owners: Nic Cope\n* Status: {}\n\n## Background\n\nText.\n"
    for stated, word in [("Defunct", "defunct"), ("Abandoned", "abandoned"), ("Postponed", "postponed")]:
        read = read_text(design.format(stated), name="design-doc-composition-functions.md")
        assert read.status == word
        assert page_standing(design.format(stated), read.status) == word
    accepted = read_text(design.format("Accepted"), name="design-doc-composition-functions.md")
    assert accepted.status == "accepted" and page_standing(design.format("Accepted"), accepted.status) == ""


def test_front_matter_and_header_tables_state_the_status() -> None:
    """A proposal's status in YAML front matter (`status: shipped` beside `stage: completed`, `stage:
    released # FIXME…`, `status: under-review`) and in a header table opening the document (`| Status |
    DRAFT |`, with its `| Title |` row as the title) is the document's status."""
    sip = "---\nlayout: sip\nstage: completed\nstatus: shipped\ntitle: SIP-15 - Value Classes\n---\n\n## Intro\n\nText.\n"
    assert read_text(sip, name="015.md").status == "shipped"
    staged = "---\nstatus: waiting-for-implementation\nstage: completed\n---\n\n# T\n\nText.\n"
    assert read_text(staged, name="a.md").status == "completed"  # the first field naming a known status
    ember = "---\nstage: discontinued # FIXME: Is this correct?\n---\n\n# Old idea\n\nText.\n"
    assert read_text(ember, name="0001.md").status == "discontinued"
    assert read_text("---\nstatus: under-review\n---\n\n# T\n\nText.\n", name="b.md").status == "under_review"
    # a Solana SIMD's `status: Review` (a proposal under review) and `status: Activated` (live on the network)
    simd = (
        "---\nsimd: '0326'\ntitle: Alpenglow\nstatus: {}\ncreated: 2025-07-25\n---\n\n## Summary\n\nText.\n"
    )
    assert read_text(simd.format("Review"), name="0326.md").status == "under_review"
    assert read_text(simd.format("Activated"), name="0118.md").status == "activated"
    assert read_text(simd.format("Reviewed by X"), name="0001.md").status == ""  # no status deepkb knows
    table = "| Title  | ABI Stable Module API |\n|--------|------|\n| Status | DRAFT |\n| Date   | 2016-12-12 |\n\n# Introduction\n\nText.\n"
    doc = read_text(table, name="005-ABI-Stable-Module-API.md")
    assert (doc.title, doc.status, doc.date) == ("ABI Stable Module API", "draft", "2016-12-12")


def test_the_default_role_with_a_target_reads_as_its_title() -> None:
    """marshmallow's docs: `from_dict <marshmallow.Schema.from_dict>` (Sphinx's default role) showed its
    target; a hyperlink and a ``literal`` keep their own rules."""
    text = (
        "Use `from_dict <marshmallow.Schema.from_dict>` to build one, see `the docs <https://x.test>`_ "
        "and ``literal <x>``; all `versioned validators <versioned-validators>` check ``string``\\s "
        "and ``number``\\ s, \\*not\\* others.\n"
    )
    paragraph = next(b for _, b in blocks(read_text(text, name="quickstart.rst")))
    assert paragraph.text == (
        "Use `from_dict` to build one, see the docs and `literal <x>`; all versioned validators check "
        "`string`s and `number`s, *not* others."
    )


def test_a_list_s_heading_label_in_a_stored_source_is_no_passage_of_its_own() -> None:
    # documents/plain.py stores a list right under its heading with the heading as its label line: the items
    # are passages, the label ("Main goals:") only repeats the heading
    from generator.kb.passages import page_passages

    body = "## Main goals\n\n**Main goals:**\n- Zero cost for initial mount.\n- Easy-to-use API.\n"
    passages = page_passages("topics/t/raw/a.md", "source", {"url": "local:a.md", "title": "A"}, body)
    assert [p.text for p in passages] == ["Zero cost for initial mount.", "Easy-to-use API."]


def test_a_paragraph_opening_on_another_documents_number_and_title_is_prose() -> None:
    from generator.documents.plain import plain_prose

    text = (
        "# Metrics for outlier detection\n\n## Background\n\n"
        "[A50: gRPC xDS Outlier Detection Support][A50] is a spec for gRPC to support Outlier Detection.\n\n"
        "[SE-0316: Global Actors](0316-global-actors.md) introduced annotations like `@MainActor`.\n\n"
        "`get_foo()` · `set_foo(x)` · `Foo.bar`\n\n[A50]: A50-xds-outlier-detection.md\n"
    )
    prose = plain_prose(read_text(text, name="A91.md"), structure=True)
    assert "A50: gRPC xDS Outlier Detection Support is a spec for gRPC to support Outlier Detection." in prose
    assert "SE-0316: Global Actors introduced annotations like @MainActor." in prose
    assert "set_foo" not in prose  # an API index line is still no prose (a term with a sentence after it is:
    # tests/test_stored_text_items.py)


def test_a_bare_markdown_fence_in_a_docstring_is_code_never_an_overlined_heading() -> None:
    """httpx's WSGITransport: a fence with no language (```) met the reST rule for an overline first, so
    the code between two fences became a heading ("client = httpx.Client(app=app)") over what followed."""
    text = (
        "A custom transport.\n\n```\nclient = httpx.Client(app=app)\n```\n\nOr set it up explicitly:\n\n```\n"
        "transport = httpx.WSGITransport(\n    app=app,\n)\n```\n"
    )
    doc = read_text(text, name="w", markup="docstring")
    assert [s.heading for s in doc.sections] == [""]
    assert [(b.kind, b.text) for _, b in doc.blocks()] == [
        ("paragraph", "A custom transport."),
        ("code", "client = httpx.Client(app=app)"),
        ("paragraph", "Or set it up explicitly:"),
        ("code", "transport = httpx.WSGITransport(\n    app=app,\n)"),
    ]


def test_a_two_letter_title_between_its_overline_and_underline_is_a_heading() -> None:
    """dateutil's docs/tz.rst opens "==", "tz", "==": reST asks only that the adornment reach the title's end,
    but an adornment was three characters or more, so the page was titled "== tz" (shown "&#61;= tz")."""
    doc = read_text("==\ntz\n==\n\nTime zones.\n\n--\n\nA transition above.\n", name="tz.rst")
    assert doc.title == "tz"
    assert [(b.kind, b.text) for _, b in doc.blocks()] == [
        ("paragraph", "Time zones."),
        ("paragraph", "--"),
        ("paragraph", "A transition above."),
    ]


def test_a_modules_docstring_is_read_below_its_comment_header() -> None:
    """What `automodule` shows above a module's members: its docstring, after a shebang or licence comments."""
    from generator.documents.comment import module_docstring

    lines = ["#!/usr/bin/env python", "# Licensed under MIT.", "", '"""Humanizing functions', "for numbers."]
    lines += ['"""', "", "import math"]
    comment = module_docstring(lines)
    assert comment is not None and comment.text.strip() == "Humanizing functions\nfor numbers."
    assert comment.lines[:2] == (4, 5)
    assert module_docstring(["import math", '"""Not a docstring."""']) is None


def test_rest_and_myst_content_tabs_keep_their_code_under_their_labels() -> None:
    """sphinx-tabs' `.. code-tab:: python Label` and `.. tab::`, sphinx-design's `tab-set`/`tab-item` (falcon
    51, flask 35, anyio, apscheduler, websockets) were blanked whole: falcon's quickstart lost its first
    app, apscheduler's user guide how to run the scheduler. Each tab's label stays, a line of its own."""
    rst = (
        "Running\n=======\n\nStart it:\n\n.. tabs::\n\n   .. code-tab:: python Synchronous\n\n"
        "      with Scheduler() as s:\n          s.run_until_stopped()\n\n"
        "   .. tab:: Windows\n\n      Run this::\n\n         py -3 app.py\n\nAfter.\n"
    )
    assert [(b.kind, b.text, b.language, b.start) for _, b in blocks(read_text(rst, name="a.rst"))] == [
        ("paragraph", "Start it:", "", 4),
        ("paragraph", "Synchronous", "", 8),
        ("code", "with Scheduler() as s:\n    s.run_until_stopped()", "python", 10),
        ("paragraph", "Windows", "", 13),
        ("paragraph", "Run this:", "", 15),
        ("code", "py -3 app.py", "", 17),
        ("paragraph", "After.", "", 19),
    ]
    lead = [b.lead for _, b in blocks(read_text(rst, name="a.rst")) if b.kind == "code"][0]
    assert lead == "Start it:"  # a label says less than what opens the tabs
    myst = ":::: {tab-set}\n::: {tab-item} AIOHTTP\n:sync: aio\n\n```python\nimport tinydi\n```\n:::\n::::\n"
    assert [(b.kind, b.text) for _, b in blocks(read_text(myst, name="a.md"))] == [
        ("paragraph", "AIOHTTP"),
        ("code", "import tinydi"),
    ]


def test_a_rest_simple_table_is_a_table_and_a_headless_one_a_list() -> None:
    """reST simple tables (`=====  =====` borders: peewee's operators, PEPs, sqlite-utils, websockets, cleo,
    bottle, dramatiq, flask — 17 mirrors) read as one run-on paragraph of borders and cells."""
    headed = (
        "Operators\n=========\n\nSupported comparisons:\n\n"
        "========  ===================\nOperator  Meaning\n========  ===================\n"
        "``==``    x equals y\n``<<``    x IN y, where y is a list\n========  ===================\n\nAfter.\n"
    )
    found = [(b.kind, b.text, b.start) for _, b in blocks(read_text(headed, name="a.rst"))]
    assert found == [
        ("paragraph", "Supported comparisons:", 4),
        ("table", "Operator | Meaning\n`==` | x equals y\n`<<` | x IN y, where y is a list", 7),
        ("paragraph", "After.", 13),
    ]
    headless = (
        "Flags:\n\n=====  ==========\n-v     verbose\n-q     quiet and\n       silent\n=====  ==========\n"
    )
    assert [(b.kind, b.text) for _, b in blocks(read_text(headless, name="a.rst"))] == [
        ("paragraph", "Flags:"),
        ("item", "-v — verbose"),
        ("item", "-q — quiet and silent"),
    ]
    unclosed = "=====  =====\na      b\n\nNo closing border.\n"
    assert "a b" in [b.text for _, b in blocks(read_text(unclosed, name="a.rst"))][0]


def test_a_rest_link_or_role_broken_over_two_lines_reads_as_its_words() -> None:
    """reST wraps a link's text and target over two lines (trio's README 182 times, PEPs 1,258, msgspec,
    quart, falcon, urllib3, flask — 20 mirrors): read line by line, "`permissively licensed" and
    "<https://…>`__," became "&lt;https://…&gt;\\_\\_" in trio's overview."""
    text = (
        "Trio\n====\n\nA production-quality, `permissively licensed\n<https://x/LICENSE>`__, async library.\n\n"
        "All of it is in a :ref:`lightweight library\n<library-size>` with no dependencies.\n\n"
        "`Whole link\n<https://y>`_\n"
    )
    assert [(b.text, b.start, b.end) for _, b in blocks(read_text(text, name="a.rst"))] == [
        ("A production-quality, permissively licensed, async library.", 4, 5),
        ("All of it is in a lightweight library with no dependencies.", 7, 8),
        ("`Whole link <https://y>`_", 10, 11),  # nothing left on either line to move: as written
    ]
    bare = "Source & issue trackers are available at `<https://github.com/acme/tiny/>`_\n"  # tortoise's
    assert [b.text for _, b in blocks(read_text(bare, name="a.rst"))] == [
        "Source & issue trackers are available at https://github.com/acme/tiny/"
    ]
    three = "A deep dive: `this blog\npost\n<https://x/post>`__ is good.\n"  # trio's tutorial
    assert [b.text for _, b in blocks(read_text(three, name="a.rst"))] == [
        "A deep dive: this blog post is good."
    ]


def test_a_rest_note_whose_text_starts_on_its_directive_line_is_read_whole() -> None:
    """`.. warning:: If you start the scheduler … finish` over "execution, the scheduler …" (27 mirrors:
    anyio 75, libuv 42, babel, PEPs, alembic, peewee, requests, apscheduler): the directive line's words
    were dropped, and apscheduler's getting-started led its first example with "execution, the …"."""
    text = (
        "T\n=\n\n.. warning:: If you start the scheduler in the background and let the script finish\n"
        "   execution, the scheduler will shut down.\n\n.. note::\n   A body below.\n"
    )
    assert [(b.text, b.start) for _, b in blocks(read_text(text, name="a.rst"))] == [
        (
            "If you start the scheduler in the background and let the script finish execution, the scheduler will shut down.",
            4,
        ),
        ("A body below.", 8),
    ]


def test_a_myst_role_reads_as_sphinx_shows_it() -> None:
    """MyST's {class}`~svcs.Registry` showed as "`~svcs.Registry`" (svcs, attrs, structlog, cattrs,
    stamina): the role reads as in reST — the last part after `~`, an explicit title, a page's name."""
    text = (
        "Create a {class}`~svcs.Registry` (see {doc}`../core-concepts`), call {meth}`~svcs.Container.get()`, "
        "read {ref}`the guide <guide>` and {pep}`8`.\n"
    )
    assert [b.text for _, b in blocks(read_text(text, name="a.md"))] == [
        "Create a `Registry` (see core-concepts), call `get()`, read the guide and PEP 8."
    ]


def test_a_docstring_fence_with_attributes_is_code_as_written() -> None:
    """mkdocstrings' ```py title="IsInt"``` in a docstring (dirty-equals 53, mcp-sdk, watchfiles) was read
    as reST prose: its code lost its fence and showed `from dirty\\_equals import IsInt`."""
    from generator.documents.docstring import read_docstring

    text = '\n    Checks that a value is an integer.\n\n    ```py title="IsInt"\n    from dirty_equals import IsInt\n    ```\n'
    found = [(b.kind, b.language, b.text) for s in read_docstring(text) for b in s.blocks]
    assert found == [
        ("paragraph", "", "Checks that a value is an integer."),
        ("code", "py", "from dirty_equals import IsInt"),
    ]


def test_a_github_alert_reads_as_its_label_never_its_marker() -> None:
    """Polly's docs (24 files), zustand's, vitepress', pika's and MQTT.js' READMEs and 27 mirrors in all write
    GitHub alerts (`> [!NOTE]`, `> [!IMPORTANT]`): pages quoted "\\[\\!NOTE\\] The configuration options are
    automatically validated…", a topic report "[!NOTE] Field casing…". GitHub shows the label; so do we."""
    text = (
        "# Tool\n\n> [!NOTE]\n> The options are validated by the tool.\n\n"
        "> [!important]\n> Only WebSockets work in browsers.\n> Use ws:// there.\n\n"
        "> A plain quote names [!NOTE] in passing.\n"
    )
    found = [
        (b.kind, b.text, b.start, b.end) for s in read_text(text, name="a.md").sections for b in s.blocks
    ]
    assert found == [
        ("quote", "Note: The options are validated by the tool.", 3, 4),
        ("quote", "Important: Only WebSockets work in browsers. Use ws:// there.", 6, 8),
        ("quote", "A plain quote names [!NOTE] in passing.", 10, 10),
    ]


def test_an_items_label_paragraph_reads_with_the_paragraph_it_names() -> None:
    """npm's overrides RFC lists its prior art as a link per item over an indented paragraph: the item read
    "Yarn Selective Dependency Resolutions This feature is very similar…", two sentences run into one. A
    label (a few words, no sentence of its own) leads its paragraph with a dash; two sentences stay apart."""
    text = (
        "# RFC\n\n## Prior Art\n\n* [Yarn Selective Dependency\n  Resolutions](https://example.com/y)\n\n"
        "    This feature is very similar to yarn resolutions.\n\n* [Prior RFC](../x.md)\n\n"
        "    Limiting a package name is unnecessarily limiting.\n\n* One sentence here.\n\n  Another one.\n"
    )
    found = [b.text for s in read_text(text, name="a.md").sections for b in s.blocks]
    assert found == [
        "Yarn Selective Dependency Resolutions — This feature is very similar to yarn resolutions.",
        "Prior RFC — Limiting a package name is unnecessarily limiting.",
        "One sentence here.\n\nAnother one.",
    ]


def test_struck_out_text_is_not_what_the_document_says() -> None:
    # Argo CD's rebalancing proposal strikes its Redis design (`~~…~~`) and writes the ConfigMap one after it;
    # OpenKruise's ConfigMapSet strikes a storage design. 158 struck spans in 25 stored collections.
    text = (
        "# Rebalancing\n\n~~We would rely on Redis to store the shard of each controller.~~ Each controller "
        "records its shard in a ConfigMap.\n\n- ~~Redis keeps the heartbeat.~~\n- The ConfigMap keeps "
        "~~no~~ the heartbeat.\n"
    )
    texts = [block.text for _, block in blocks(read_text(text, name="rebalancing.md"))]
    assert texts == [
        "Each controller records its shard in a ConfigMap.",
        "The ConfigMap keeps the heartbeat.",
    ]


def test_a_task_list_s_boxes_read_as_github_draws_them() -> None:
    # gws' and gnet's feature lists (`- [x] Event-driven API …`) read "\[x\] Event-driven API" on their pages
    doc = read_text(
        "# Features\n\n- [x] Event API\n- [ ] Planned thing\n- [link](x) item\n", name="README.md"
    )
    assert [b.text for _, b in doc.blocks()] == ["☑ Event API", "☐ Planned thing", "link item"]


def test_a_code_blocks_empty_lines_never_cut_it_into_paragraphs_of_prose() -> None:
    """An empty line inside a fenced example, or one holding spaces (an example indented under a list item),
    had cut the stored text where readers split it at `\\n\\s*\\n`, so the code after it stood as a
    paragraph of prose and its comment was quoted as a sentence (mpx's "使用 Symbol 创建唯一注入名，或再结合命名
    空间 export const InjectionKeys = {…}"); written as a zero-width space instead, a copied example failed
    (`node --check`: "Invalid or unexpected token"). The empty lines stay empty and the readers read a fenced
    block as one paragraph."""
    from generator.documents.plain import plain_prose
    from generator.text.paragraphs import paragraphs as read_paragraphs

    text = (
        "# 依赖注入\n\n推荐在一个单独的文件中导出这些注入名。\n\n```ts\n// 1. 使用枚举类型\nexport const A = 1\n\n"
        "// 3. 使用 Symbol 创建唯一注入名\nexport const B = Symbol('b')\n    \nexport const C = 3\n```\n\n"
        "- 一个列表项\n\n  ```js\n  x()\n  \n  y()\n  ```\n"
    )
    prose = plain_prose(read_text(text, name="provide-inject.md"), structure=True)
    paragraphs = read_paragraphs(prose)
    code = [p for p in paragraphs if "Symbol" in p or "y()" in p]
    assert len(code) == 2 and all(p.startswith("```") and p.endswith("```") for p in code)
    assert "export const C = 3" in code[0] and "x()" in code[1]
    # as written: the example copied from the page is the example
    assert "export const A = 1\n\n// 3. 使用 Symbol" in code[0] and "x()\n\ny()" in code[1]
    assert not re.search("[\u200b\u00a0]", prose)


def test_a_stored_texts_paragraphs_keep_a_fenced_block_whole_and_cut_prose_at_blank_lines() -> None:
    from generator.text.paragraphs import paragraphs

    text = (
        "Intro line one\nline two\n\n  \nA list:\n- a\n- b\n\n```python\nx = 1\n\n\ny = 2\n   \n```\n"
        "After the code.\n\n~~~~\n```\nnot a close\n\n~~~~\n\nLast."
    )
    assert paragraphs(text) == [
        "Intro line one\nline two",
        "A list:\n- a\n- b",
        "```python\nx = 1\n\n\ny = 2\n   \n```\nAfter the code.",
        "~~~~\n```\nnot a close\n\n~~~~",
        "Last.",
    ]
    assert all(p in text for p in paragraphs(text))  # each a slice of the text as written
    assert paragraphs("```\nunclosed\n\nstill code") == ["```\nunclosed\n\nstill code"]
    assert paragraphs("\n\n") == []


def test_a_page_saying_what_it_is_in_front_matter_only_opens_on_it() -> None:
    """Ant Design's component pages have no title or opening in their body: `title: Affix`, `subtitle: 固钉` and
    `description: 将页面元素钉在可视范围。` in front matter, then "## 何时使用". A search for 固钉 found no
    document and "固钉是什么？" had no answer. The short subtitle joins the title; the description opens the
    page, said of its title when it leaves its subject unsaid; a search engine's invitation ("Read the
    technical documentation.") is left out; a page whose body opens on prose keeps its own opening."""
    affix = read_text(
        "---\ncategory: Components\ntitle: Affix\nsubtitle: 固钉\ndescription: 将页面元素钉在可视范围。\n---\n\n"
        "## 何时使用 {#when-to-use}\n\n当内容区域比较长，需要滚动页面时使用。\n",
        name="index.zh-CN.md",
    )
    assert affix.title == "Affix 固钉"
    opening = [b.text for s in affix.sections if not s.heading for b in s.blocks]
    assert opening == ["Affix 固钉：将页面元素钉在可视范围。"]
    logs = read_text(
        '---\ntitle: "Logs"\ndescription: "Logs are a key part of observability in Traefik Proxy. Read the '
        'technical documentation to learn their configurations."\n---\n\n## Configuration\n\nSet `log.level`.\n',
        name="logs.md",
    )
    assert [b.text for s in logs.sections if not s.heading for b in s.blocks] == [
        "Logs are a key part of observability in Traefik Proxy."
    ]
    views = read_text(
        "---\ntitle: Views\ndescription: Read-only views of the store, derived on demand.\n---\n\n## API\n",
        name="views.md",
    )
    assert [b.text for s in views.sections if not s.heading for b in s.blocks] == [
        "Read-only views of the store, derived on demand."
    ]
    said = read_text(
        "---\ntitle: Routers\nsubtitle: How requests find their service, rule by rule\n"
        "description: Routers connect requests to services.\n---\n\n# Routers\n\nA router matches a rule.\n",
        name="routers.md",
    )
    assert said.title == "Routers"  # a subtitle of a sentence is a tagline, not a name
    assert "Routers connect requests" not in " ".join(b.text for _, b in said.blocks())


def test_a_page_s_summary_in_any_front_matter_field_opens_it() -> None:
    """Semi Design's LocaleProvider page keeps what it is in `brief: 国际化组件，为 Semi 组件提供多语言支持` and opens
    on "## 目前支持语言" (a table): "多语言国际化是什么？" said the stored sources do not answer. A summary kept in
    `brief`, Hugo's `summary` or Jekyll's `excerpt` opens the page as a `description` does, on its own line;
    `description` comes first; a subtitle too long to be a name (a tagline) is a summary too."""
    locale = read_text(
        "---\nlocaleCode: zh-CN\norder: 96\ntitle:  LocaleProvider 多语言\nicon: doc-i18n\n"
        "brief: 国际化组件，为 Semi 组件提供多语言支持\n---\n\n\n## 目前支持语言\n\n| 版本 | 语言 |\n|---|---|\n"
        "| v0.0.1 | 简体中文: zh_CN |\n",
        name="index.md",
    )
    opening = [(b.text, b.start) for s in locale.sections if not s.heading for b in s.blocks]
    assert opening == [("LocaleProvider 多语言：国际化组件，为 Semi 组件提供多语言支持。", 6)]

    def opening_of(frontmatter: str) -> list[str]:
        doc = read_text(f"---\ntitle: Shortcodes\n{frontmatter}---\n\n## Use\n\nWrite one.\n", name="s.md")
        return [b.text for s in doc.sections if not s.heading for b in s.blocks]

    said = "Shortcodes are snippets inside content files that call built-in or custom templates."
    assert opening_of(f"summary: {said}\n") == [said]
    assert opening_of(f"excerpt: {said}\n") == [said]
    assert opening_of(f"summary: Not this one.\ndescription: {said}\n") == [said]
    assert opening_of("subtitle: Snippets that call templates from content\n") == [
        "Shortcodes: Snippets that call templates from content."
    ]
    assert opening_of("subtitle: 短代码\n") == []  # a name: it joins the title


def test_a_doctest_s_bare_prompt_underlines_no_heading() -> None:
    """deepdiff's search_doc.rst ends a doctest on "    {}" then "    >>>", and its deephash_doc.rst has
    "    ...         return 'obj b'" then "    ...": read as a title over its adornment, the page was titled
    "{}", the other ">>> from deepdiff import DeepHash". A bare `>>>` or `...` is a prompt, never an
    adornment; a title over `===` still is a heading."""
    text = (
        "grep searches an object.\n\nExamples\n    >>> pprint(ds)\n    {}\n    >>>\n    >>> class B:\n"
        "    ...     def r(self):\n    ...         return 'obj b'\n    ...\n\nMore\n====\n\nText.\n"
    )
    doc = read_text(text, name="search_doc.rst")
    assert [s.heading for s in doc.sections if s.heading] == ["More"]


def test_a_paragraph_of_lines_each_ended_by_a_br_is_a_list() -> None:
    """consola's "Why Consola?" is written "👌&nbsp; Easy to use<br>", "💅&nbsp; Fancy output …<br>", one line
    per feature: read as one paragraph, "👌 Easy to use 💅 Fancy output …", it was no sentence and no list. Three
    or more lines each ended by `<br>` are items, each at its line; a line broken once stays prose."""
    text = (
        "# X\n\n## Why X?\n\n👌&nbsp; Easy to use<br>\n💅&nbsp; Fancy output with fallback<br>\n"
        "🔌&nbsp; Pluggable **reporters**<br>\n\n## Install\n\nA line<br>\nand another.\n"
    )
    doc = read_text(text, name="README.md")
    assert [(b.kind, b.text, b.start) for _, b in doc.blocks()] == [
        ("item", "👌 Easy to use", 5),
        ("item", "💅 Fancy output with fallback", 6),
        ("item", "🔌 Pluggable reporters", 7),
        ("paragraph", "A line and another.", 11),
    ]


def test_a_status_line_in_capitals_stays_in_the_stored_text() -> None:
    # bazel's 2019-02-12-toolchain-transitions.md:107 marks its old plan "**NOTE: OBSOLETE**"; ibc-spec's
    # "NOTE: …" paragraphs read as prose; a constant's name joins its words with "_" and stays a symbol
    from generator.documents.plain import markup_prose

    text = markup_prose(
        "# Migration\n\n**NOTE: OBSOLETE**\n\nSee the new migration plan.\n\n"
        "NOTE: IBC v2 allows multiple payloads in the same packet.\n\n"
        "`MAX_RLP_BYTES_PER_CHANNEL` `MAX_SPAN_BATCH_ELEMENT_COUNT`\n",
        structure=True,
    )
    assert "NOTE: OBSOLETE" in text
    assert "NOTE: IBC v2 allows multiple payloads in the same packet." in text
    assert "MAX_RLP_BYTES_PER_CHANNEL" not in text


def test_an_rst_code_block_ended_by_an_unindented_line_keeps_the_text_line_for_line() -> None:
    """A code block in a tab whose body runs up to the next directive with no blank line between (a docs
    page whose JSON tab is followed at once by a cog `.. [[[end]]]` comment) closed its fence on a line the
    source does not have: every such block pushed the rest of the page one line down, and once the drift
    passed the page's end, reading the page raised IndexError and the whole repository run died."""
    tab = '.. tab:: JSON\n\n    .. code-block:: json\n\n        {\n          "allow": true\n        }\n.. [[[end]]]\n\n'
    text = "Title\n=====\n\nIntro.\n\n" + tab * 3 + "Later\n-----\n\nThe end.\n"
    with alarm(20):
        found = [(s.heading, b.kind, b.start, b.end) for s, b in read_text(text, name="x.rst").blocks()]
    lines = text.split("\n")
    later = lines.index("Later") + 1
    assert ("Later", "paragraph", later + 3, later + 3) in found
    codes = [(start, end) for _, kind, start, end in found if kind == "code"]
    assert len(codes) == 3
    for start, end in codes:  # each block's span is the lines its code stands on
        assert lines[start - 1].strip() in ("{", ".. code-block:: json") and lines[end - 1].strip() == "}"


def test_an_rst_heading_after_literal_blocks_that_ran_long_is_read_within_the_file() -> None:
    """A `::` literal block in a list item with the next item right below it (no blank line) still closes
    its fence one line past the source; five of them above a heading near the file's end put the heading past
    the last line, and reading the page raised IndexError (a changelog has the shape)."""
    text = "T\n=\n\n" + "- a::\n\n      code\n" * 5 + "\nEnd\n---\nx"
    with alarm(20):
        document = read_text(text, name="x.rst")
    lines = text.split("\n")
    assert all(1 <= s.start <= s.end <= len(lines) for s in document.sections)
    assert [s.heading for s in document.sections] == ["T", "End"]


def test_an_rst_literal_block_with_the_next_list_item_right_below_keeps_the_text_line_for_line() -> None:
    """A changelog's "- New option::" item with its code and the next item right below, no blank line
    between: the fence closed on a line the source does not have, so every later citation was a line off
    per such block. Such a block is an indented code block now, which needs no closing line."""
    text = "T\n=\n\n" + "- New option::\n\n      serve --config x\n      serve --help\n" * 3 + "- Last.\n"
    lines = text.split("\n")
    found = [(b.kind, b.start, b.end) for _, b in read_text(text, name="x.rst").blocks()]
    codes = [(s, e) for k, s, e in found if k == "code"]
    assert codes == [(6, 7), (10, 11), (14, 15)]
    assert all(
        lines[s - 1].strip() == "serve --config x" and lines[e - 1].strip() == "serve --help"
        for s, e in codes
    )
    assert found[-1] == ("item", 16, 16) and lines[15] == "- Last."
