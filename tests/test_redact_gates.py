"""Redaction's shortcuts: every hint and gate is necessary for its rule, and the gated path answers as the
full one.

The hints (lowercase literals per format) and gates (looser context patterns, the entropy rule's digit) only
skip work: a rule they skip could not have matched. Two kinds of evidence: strings generated to match each
rule (hypothesis' `from_regex`) always pass the rule's hint or gate, and over a corpus of secrets, real
docstrings and import strings from installed packages, and secrets planted inside those, redaction with
the shortcuts answers byte for byte as redaction with every rule run everywhere.
"""

from __future__ import annotations

import ast
import random
import re
import sysconfig
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import test_repo_redact as examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

import generator.redact as redact_module
from generator.redact import Redactor
from generator.secret_formats import (
    ASSIGNMENT,
    ASSIGNMENT_GATES,
    BEARER,
    BEARER_GATES,
    HEX_ARGUMENT,
    HEX_ARGUMENT_GATE,
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


def _hinted() -> list[KeyFormat]:
    return [f for f in known_formats() if f.hints]


@pytest.mark.parametrize("key_format", _hinted(), ids=lambda f: f.pattern.pattern[:24])
@GENERATED
@given(data=st.data())
def test_every_generated_match_holds_a_hint(key_format: KeyFormat, data: st.DataObject) -> None:
    # ASCII: `str.lower` and the engine's case folding differ on a few other letters (ſ, K)
    text = data.draw(st.from_regex(key_format.pattern, alphabet=st.characters(max_codepoint=127)))
    match = key_format.pattern.search(text)
    assert match is not None
    assert any(hint in match.group(0).lower() for hint in key_format.hints)


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


# --- the gated path against the full path ---------------------------------------------------------------


def _full_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Open every gate: every format, context and entropy rule runs on every text."""
    unhinted = tuple(KeyFormat(f.kind, (), f.pattern, f.own) for f in known_formats())
    monkeypatch.setattr(redact_module, "known_formats", lambda: unhinted)
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


def test_after_a_replacement_later_formats_see_the_new_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # a replacement can make a later format match where the text held none of its hints before
    first = KeyFormat("zz", ("secreta",), re.compile(r"secretA"))
    second = KeyFormat("second", ("zz]",), re.compile(r"zz\]tail"))
    monkeypatch.setattr(redact_module, "known_formats", lambda: (first, second))
    text, count = Redactor(entropy=False).redact("secretAtail")
    assert (text, count) == ("[REDACTED:[REDACTED:second]", 2)


class _CountedLower(str):
    """A lower-cased text that counts how often each string is looked for in it."""

    looked: Counter[str] = Counter()

    def __contains__(self, part: object) -> bool:
        _CountedLower.looked[str(part)] += 1
        return super().__contains__(part)  # type: ignore[operator]


class _Text(str):
    def lower(self) -> str:
        return _CountedLower(super().lower())


def test_each_hint_is_looked_for_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # formats share hints (GitLab's seven patterns, eleven prefixes each): a hint the text lacks costs a scan
    # of the whole text, once, however many formats name it
    monkeypatch.setattr(_CountedLower, "looked", Counter())
    text = "a long page of prose with no secret in it, and an access: call\n" * 200
    assert Redactor(entropy=False).redact(_Text(text)) == (text, 0)
    hints = {hint for f in known_formats() for hint in f.hints}
    looked = {hint: n for hint, n in _CountedLower.looked.items() if hint in hints}
    assert looked and max(looked.values()) == 1, looked
    assert {"glpat-", "ac", "://"} <= set(looked)  # GitLab's, Twilio's and two formats' hints
