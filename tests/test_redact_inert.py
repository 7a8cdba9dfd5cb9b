"""Inert docstrings: a file whose every docstring redaction leaves alone needs no redaction of their join.

`Redactor.inert` judges one text; `redact_symbols` trusts the verdicts (kept per docstring text, since
generated code repeats docstrings across files) instead of redacting the file's joined docstrings. That is
sound when every rule is line-local (reads only within one line, matches no line break): the tests derive
line-locality from the patterns, check the separator's own lines match nothing, and compare
`redact_symbols` with the join-and-redact path on real docstrings, secrets planted in them, and secrets
split across two docstrings.
"""

from __future__ import annotations

import random
import re
import tempfile

import pytest
import test_redact_gates as gates_corpus
import test_repo_redact as examples
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from generator.redact import _ENTROPY_GATE, _TOKEN_RUN, Redactor
from generator.regex_literals import line_local
from generator.repo.facts.redaction import DOC_SEPARATOR, _inert_kept, redact_symbols
from generator.repo.model import Symbol
from generator.secret_formats import (
    ASSIGNMENT_GATES,
    BEARER_GATES,
    HEX_ARGUMENT_GATE,
    OWN_FORMATS,
    KeyFormat,
    known_formats,
)

set_hypothesis_home_dir(tempfile.mkdtemp(prefix="deepkb-hypothesis-"))


@pytest.mark.parametrize(
    ("pattern", "local"),
    [
        (r"ab", True),
        (r"a.b", True),  # `.` takes no line break
        (r"(?s)a.b", False),
        (r"[^x]y", False),  # a negated class holds the line break
        (r"[^x\s]y", True),
        (r"a\Db", False),
        (r"a[\x00-\x7f]b", False),
        (r"\bab\b", True),  # a line break is a non-word character, like either end of the text
        (r"^ab", False),  # the text's start only
        (r"(?m)^ab$", True),
        (r"a\Z", False),
        (r"ab(?!c)", True),  # needs a character of its line: fails alike at a line break and at the end
        (r"ab(?=\s|$)", False),
        (r"a(?<![\w-])b", True),
    ],
)
def test_line_local(pattern: str, local: bool) -> None:
    assert line_local(re.compile(pattern)) is local


def test_own_formats_say_whether_they_are_line_local() -> None:
    for key_format in OWN_FORMATS:
        assert key_format.one_line == line_local(key_format.pattern), key_format.kind


def _line_local_rules() -> list[re.Pattern[str]]:
    gates = [gate for _, gate in (*ASSIGNMENT_GATES, *BEARER_GATES)]
    return [
        *gates,
        HEX_ARGUMENT_GATE,
        _ENTROPY_GATE,
        _TOKEN_RUN,
        *(f.pattern for f in known_formats() if f.one_line),
    ]


def test_the_gates_and_the_entropy_rule_are_line_local() -> None:
    for pattern in _line_local_rules()[: -sum(f.one_line for f in known_formats())]:
        assert line_local(pattern), pattern.pattern
    assert sum(f.one_line for f in known_formats()) > len(known_formats()) // 2


def test_the_separator_lines_match_nothing() -> None:
    # a line-local rule matching a join matches a line of one of its texts, or one of the separator's
    for pattern in _line_local_rules():
        assert pattern.search(DOC_SEPARATOR) is None and pattern.search(DOC_SEPARATOR.lower()) is None


def _folded() -> list[KeyFormat]:
    return [f for f in known_formats() if f.pattern.flags & re.IGNORECASE and f.hints and not f.anchors]


@pytest.mark.parametrize("key_format", _folded(), ids=lambda f: f.pattern.pattern[:24])
@gates_corpus.GENERATED
@given(data=st.data())
def test_a_case_insensitive_formats_hints_are_in_every_ascii_match(key_format: KeyFormat, data) -> None:  # type: ignore[no-untyped-def]
    # `Redactor.inert` leaves such a format out of ASCII text holding none of its hints
    text = data.draw(st.from_regex(key_format.pattern, alphabet=st.characters(max_codepoint=127)))
    match = key_format.pattern.search(text)
    assert match is not None
    assert any(hint in match.group(0).lower() for hint in key_format.hints)


def _symbols(docs: list[str]) -> list[Symbol]:
    return [Symbol(f"f{i}", "function", i + 1, i + 1, doc_source=doc) for i, doc in enumerate(docs)]


def _joined_path(docs: list[str], redactor: Redactor) -> list[str]:
    """What redact_symbols did before verdicts were kept: the join redacted, split (one at a time when a
    replacement ran across the separator)."""
    joined = redactor.redact(DOC_SEPARATOR.join(docs))[0].split(DOC_SEPARATOR)
    return joined if len(joined) == len(docs) else [redactor.redact(doc)[0] for doc in docs]


def _files() -> list[list[str]]:
    real = [text for text in gates_corpus._installed_sources(200_000) if ":" not in text or " " in text]
    rng = random.Random(5)
    secrets = [text for text, _ in examples.SECRET_CORPUS] + [examples.PEM, examples.JWT, examples.AWS]
    files = [real[i : i + rng.randrange(1, 8)] for i in range(0, len(real), 5)]
    for secret in secrets:  # a secret in one docstring, or split between two of them
        host = rng.choice(files)
        files.append([*host, secret])
        cut = rng.randrange(1, len(secret))
        files.append([*host[:2], secret[:cut], secret[cut:], *host[2:]])
        files.append([secret.split(":")[0] + ":", " " + secret.split(":")[-1]])
    files.append(["-----BEGIN RSA PRIVATE KEY-----\nabc", "def\n-----END RSA PRIVATE KEY-----"])
    files.append(["see https://user:", "hunter2hunter2@example.com"])
    files.append(["x = AccessTokenProvider", "password: AccessTokenProvider2"])
    return files


def test_kept_verdicts_answer_as_the_joined_path() -> None:
    redactor = Redactor(literals=("plain-looking-value",))
    files = _files()
    assert len(files) > 100
    _inert_kept.cache_clear()
    inert_files = 0
    for docs in files:
        symbols = _symbols(docs)
        redacted = [s.doc_source for s in redact_symbols(symbols, redactor)]
        assert redacted == _joined_path(docs, redactor), docs
        inert_files += redacted == docs
    # both paths ran: most real files were judged inert, and planted secrets were redacted
    assert len(files) // 2 < inert_files < len(files) - len(examples.SECRET_CORPUS)
