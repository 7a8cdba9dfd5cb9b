"""Redaction's shortcuts: every gate is necessary for its rule, and the gated path answers as the full one.

The gates (format anchors derived from the patterns, context-rule gates, the entropy rule's digit) only
skip work: a rule they skip could not have matched. Two kinds of evidence: strings generated to match each
rule (hypothesis' `from_regex`) always pass the rule's gate, and over a corpus of secrets, real docstrings
and import strings from installed packages, and secrets planted inside those, redaction with the gates
answers byte for byte as redaction with every gate open.
"""

from __future__ import annotations

import ast
import random
import re
import sysconfig
import tempfile
from pathlib import Path

import pytest
import test_repo_redact as examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

import generator.format_plan as plan_module
import generator.redact as redact_module
from generator.format_plan import format_plan
from generator.redact import Redactor
from generator.regex_literals import any_literal, required_literals, shortest_prefixes
from generator.secret_formats import (
    ASSIGNMENT,
    ASSIGNMENT_GATES,
    BEARER,
    BEARER_GATES,
    HEX_ARGUMENT,
    HEX_ARGUMENT_GATE,
    OWN_FORMATS,
    KeyFormat,
    gates_find,
    known_formats,
)

set_hypothesis_home_dir(tempfile.mkdtemp(prefix="deepkb-hypothesis-"))  # not the repository's .hypothesis
GENERATED = settings(
    max_examples=40,
    database=None,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"\bgh[pousr]_[A-Za-z0-9]{30,}\b", ("gho_", "ghp_", "ghr_", "ghs_", "ghu_")),
        (r"(?:ab|cd)e", ("abe", "cde")),
        (r"x?(?:foo\d+|barbaz)", ("barbaz", "foo")),  # each arm's best, then their union
        (r"a(?=bcd)", ("a",)),  # a lookahead's text is not part of the match
        (r"(?:xy){2}z", ("xyxyz",)),
        (r"q*\d+", ()),  # nothing is required
        (r"(?:abc)?def", ("def",)),
        (r"(?i)secret", ()),  # case-insensitive: str.lower and the engine fold differently (ſ)
        (r"abc(?i:def)", ("abc",)),
        (r"[a-z]+@[a-z]+", ("@",)),
    ],
)
def test_required_literals(pattern: str, literals: tuple[str, ...]) -> None:
    assert required_literals(re.compile(pattern)) == literals


def test_own_anchors_are_the_derived_ones() -> None:
    # kept by hand so no process parses patterns at start; this keeps them honest
    for key_format in OWN_FORMATS:
        assert key_format.anchors == required_literals(key_format.pattern), key_format.kind


def _anchored() -> list[KeyFormat]:
    return [f for f in known_formats() if f.anchors]


@pytest.mark.parametrize("key_format", _anchored(), ids=lambda f: f.pattern.pattern[:24])
@GENERATED
@given(data=st.data())
def test_every_generated_match_holds_an_anchor(key_format: KeyFormat, data: st.DataObject) -> None:
    text = data.draw(st.from_regex(key_format.pattern))
    match = key_format.pattern.search(text)
    assert match is not None
    assert any(anchor in match.group(0) for anchor in key_format.anchors)


@pytest.mark.parametrize(
    ("rule", "gate_finds"),
    [
        (ASSIGNMENT, lambda text: gates_find(ASSIGNMENT_GATES, text)),
        (BEARER, lambda text: gates_find(BEARER_GATES, text)),
        (HEX_ARGUMENT, lambda text: bool(HEX_ARGUMENT_GATE.search(text))),
    ],
    ids=["assignment", "bearer", "hex_argument"],
)
@GENERATED
@given(data=st.data())
def test_every_generated_context_match_passes_its_gate(rule: re.Pattern[str], gate_finds, data) -> None:  # type: ignore[no-untyped-def]
    text = data.draw(st.from_regex(rule))
    assert rule.search(text) is not None
    assert gate_finds(text)


def test_shortest_prefixes_and_the_scan_built_from_them() -> None:
    assert shortest_prefixes(["sk-ant-", "sk-", "ab", "a", "b"]) == ("a", "b", "sk-")
    scan = any_literal(["sk-ant-", "sk-", "AC", "ABC"])
    assert [m.group() for m in scan.finditer("x sk-ant- ABC AC sk")] == ["sk-", "ABC", "AC"]


def test_the_plan_finds_every_anchor_even_overlapping_ones() -> None:
    plan = format_plan()
    anchors = sorted(plan.by_anchor)
    rng = random.Random(3)
    pieces = [*anchors, *(a[: len(a) // 2] for a in anchors), " ", "x", "A", "-", "_"]
    for _ in range(400):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12)))
        assert plan._anchors_in(text) == {a for a in anchors if a in text}, text
    assert {"AC", "CCA"} <= plan._anchors_in("xACCAy")  # `CCA` begins inside `AC`'s match


# --- the gated path against the full path ---------------------------------------------------------------


def _full_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Open every gate: each format the hints choose runs, and every context and entropy rule runs."""
    monkeypatch.setattr(plan_module.FormatPlan, "likely", lambda self, text, lower: self.hinted(lower))
    monkeypatch.setattr(redact_module, "gates_find", lambda gates, lower: True)
    monkeypatch.setattr(redact_module, "HEX_ARGUMENT_GATE", re.compile(""))
    monkeypatch.setattr(redact_module, "_ENTROPY_GATE", re.compile(""))


def _installed_sources(limit_chars: int = 400_000) -> list[str]:
    """Docstrings and `module:Name` import strings of installed packages (real text, read not run)."""
    site = Path(sysconfig.get_paths()["purelib"])
    texts: list[str] = []
    for package in ("anthropic", "jinja2", "click", "yaml", "markdown", "httpx", "detect_secrets", "mkdocs"):
        for path in sorted((site / package).rglob("*.py"))[:60]:
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError, OSError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    doc = ast.get_docstring(node, clean=False)
                    texts += [doc] if doc else []
                elif isinstance(node, ast.ImportFrom):
                    texts += [f"{'.' * node.level}{node.module or ''}:{alias.name}" for alias in node.names]
            if sum(map(len, texts)) > limit_chars:
                return texts
    return texts


def _corpus() -> list[str]:
    secrets = [text for text, _ in examples.SECRET_CORPUS] + list(examples.NON_SECRET_CORPUS)
    secrets += [v for name, v in vars(examples).items() if name.isupper() and isinstance(v, str)]
    real = _installed_sources()
    rng = random.Random(11)
    planted = []
    for secret in secrets:
        for _ in range(3):
            host = rng.choice(real) if real else ""
            at = rng.randrange(len(host) + 1)
            planted.append(host[:at] + rng.choice(["", " ", "\n", "(", "="]) + secret + " " + host[at:])
        planted += [secret + "\n" + rng.choice(secrets), secret.upper(), "[REDACTED:x] " + secret]
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    for digit in "0123456789":  # random keys whose only digit is `digit`: the entropy rule's gate must pass
        key = "".join(rng.choice(letters) for _ in range(40))
        planted += [
            f"token = {key[:20]}{digit}{key[20:]}\n",
            f"see {key[:9]}/{key[9:]}{digit}{key[:12]} here",
            f"({key[:16]}{digit}{key[16:31]})",  # 32 characters, the digit 16 in from either end
            f"'{key[:15]}{digit}{key[15:31]}'",
        ]
    return real + secrets + planted


def test_gated_redaction_answers_as_the_full_path(monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = _corpus()
    assert len(corpus) > 1000  # real text was found: the comparison is not vacuous
    redactor = Redactor(literals=("plain-looking-value",))
    gated = [redactor.redact(text) for text in corpus]
    _full_path(monkeypatch)
    full = [redactor.redact(text) for text in corpus]
    assert gated == full
    # both paths were exercised: secrets were replaced and most real text was left as it was
    assert sum(1 for _, count in gated if count) > len(examples.SECRET_CORPUS)
    assert (
        sum(1 for (text, _), original in zip(gated, corpus, strict=True) if text == original)
        > len(corpus) // 2
    )


def test_after_a_replacement_later_formats_go_by_their_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    # anchors are looked for in the text before any replacement; a replacement can make a later format
    # match where none of its anchors was, and the rule (hints, in order) must still run it
    first = KeyFormat("zz", ("secreta",), re.compile(r"secretA"), anchors=("secretA",))
    second = KeyFormat("second", ("redacted",), re.compile(r"zz\]tail"), anchors=("zz]tail",))
    monkeypatch.setattr(redact_module, "known_formats", lambda: (first, second))
    monkeypatch.setattr(plan_module, "known_formats", lambda: (first, second))
    format_plan.cache_clear()
    try:
        text, count = Redactor(entropy=False).redact("redacted secretAtail")
    finally:
        format_plan.cache_clear()
    assert (text, count) == ("redacted [REDACTED:[REDACTED:second]", 2)


def test_redacting_a_batch_answers_as_redacting_each() -> None:
    corpus = _corpus()
    redactor = Redactor(literals=("plain-looking-value",))
    one_by_one = [redactor.redact(text) for text in corpus]
    assert redactor.redact_each(corpus) == one_by_one
    rng = random.Random(2)
    for _ in range(30):  # small batches: most rules are ruled out for all of their texts at once
        picked = rng.sample(range(len(corpus)), 40)
        assert redactor.redact_each([corpus[i] for i in picked]) == [one_by_one[i] for i in picked]
    assert redactor.redact_each([]) == []
