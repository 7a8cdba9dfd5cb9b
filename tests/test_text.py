"""The text jobs: words and stems, sentence ends, HTML to plain text."""

from __future__ import annotations

import pytest

from generator.text.htmlpage import read_html, strip_tags
from generator.text.sentences import lead_sentences, sentences, split_sentences
from generator.text.words import content_words, shares_stem, stem, tokens


def test_one_stemmer_joins_inflections() -> None:
    assert stem("redirects") == stem("redirected") == stem("redirect")
    assert stem("参数") == "参数"  # other scripts are kept as they are
    assert tokens("Parsing the parsed parses") == ["pars", "pars", "pars"]


def test_shares_stem_reaches_agent_nouns_but_not_short_stems() -> None:
    assert shares_stem("parse", {"parser"})
    assert shares_stem("parsing", {"parser"})
    assert shares_stem("options", {"optional"})
    assert not shares_stem("use", {"user"})  # a stem under four letters must match whole
    assert shares_stem("use", {"use"})


def test_content_words_drop_stopwords_and_keep_cjk_characters() -> None:
    assert content_words("The parser of 参数") == ["parser", "参", "数"]


def test_abbreviations_and_initials_do_not_end_a_sentence() -> None:
    text = "Tools, e.g. pytest, run tests. J. Smith wrote it! Does it work? Yes."
    assert sentences(text) == [
        "Tools, e.g. pytest, run tests.",
        "J. Smith wrote it!",
        "Does it work?",
        "Yes.",
    ]


def test_e_g_and_i_e_however_spelt_do_not_end_a_sentence() -> None:
    # SIMD-0118: "…after the reward computation phase, ie.\nduring the second block…" was quoted cut at "ie."
    text = (
        "The distribution happens after the computation phase, ie. during the second block. "
        "Chains may differ, eg. in their fees. Set it once, i. e. at start, or twice, e. g. on restart. "
        "A leg. The pie."
    )
    assert sentences(text) == [
        "The distribution happens after the computation phase, ie. during the second block.",
        "Chains may differ, eg. in their fees.",
        "Set it once, i. e. at start, or twice, e. g. on restart.",
        "A leg.",
        "The pie.",
    ]


def test_an_ellipsis_the_sentence_goes_on_after_does_not_end_it() -> None:
    text = (
        "The maybe ... end expression groups expressions, like begin ... end does. "
        "If the value does not match, the maybe ... end expression returns it. He paused... Then he left..."
    )
    assert sentences(text) == [
        "The maybe ... end expression groups expressions, like begin ... end does.",
        "If the value does not match, the maybe ... end expression returns it.",
        "He paused...",
        "Then he left...",
    ]


def test_cjk_sentences_end_without_a_space_and_blank_lines_end_one() -> None:
    text = (
        "第一句话在这里说明问题。第二句话给出答案！\n\nA heading without a stop\n\nAn English sentence here."
    )
    assert split_sentences(text) == [
        "第一句话在这里说明问题。",
        "第二句话给出答案！",
        "A heading without a stop",
        "An English sentence here.",
    ]


def test_read_html_keeps_title_links_and_visible_paragraphs() -> None:
    page = read_html(
        '<?xml version="1.0" encoding="utf-8"?><html><head><title> A  page </title>'
        "<style>p { color: red }</style></head><body><script>alert(1)</script>"
        '<p>First <a href=" /next ">para</a>graph.</p><div>Second<br>line</div></body></html>'
    )
    assert page.title == "A page"
    assert page.links == ("/next",)
    assert page.text == "First paragraph.\n\nSecond\n\nline"


def test_broken_or_empty_html_gives_what_could_be_read() -> None:
    assert read_html("") == read_html("\x00")
    assert read_html("").text == ""
    assert read_html("<p>open <b>bold").text == "open bold"
    assert strip_tags("a <strong>match</strong>\n here") == "a match here"


def test_a_page_title_prefers_og_title_then_title_then_h1() -> None:
    og = '<head><meta property="og:title" content="Caching &amp; <b>more</b>"><title>Caching | Site</title></head>'
    assert read_html(og).title == "Caching & more"
    assert read_html("<title>  </title><h1>Only <em>a</em> heading</h1>").title == "Only a heading"


def test_a_docstring_lead_is_cut_only_where_a_sentence_starts() -> None:
    doc = "Return the sum. x is added to y. Then `z` follows, e.g. Foo."
    assert lead_sentences(doc) == ["Return the sum. x is added to y.", "Then `z` follows, e.g.", "Foo."]
    assert lead_sentences(doc, 2) == ["Return the sum. x is added to y.", "Then `z` follows, e.g. Foo."]
    assert lead_sentences("  ") == [""]


@pytest.mark.parametrize(
    ("doc", "lead"),
    [
        # a label in capitals is a heading, not the summary's first word
        (
            "ANALYSIS: findings per sub-question, each claim tied to its sources.\n\nMore.",
            "Findings per sub-question, each claim tied to its sources.",
        ),
        ("Args:\n    x: the value.\n", ""),  # opens with a section: no summary
        ("Returns\n-------\nint\n", ""),
        (":param x: the value.\n", ""),
        ("Add two numbers\n\nArgs:\n    x: the first.\n", "Add two numbers"),  # no period: ends at `Args:`
        ("Add two numbers.\n\nParameters\n----------\nx : int\n", "Add two numbers."),
        ("Note: the cache is shared.", "Note: the cache is shared."),  # a sentence that starts with a word
    ],
)
def test_a_docstring_section_header_is_never_a_summary(doc: str, lead: str) -> None:
    assert lead_sentences(doc, 2)[0] == lead
