"""bench/topic_retrieval.py's fact check: what a report states, not the questions and notices around it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "topic_retrieval.py"


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("topic_retrieval_bench", _SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


PAGE = """---
title: How do IBC channel upgrades work? — report
sub_questions:
- What happens on ChanUpgradeTimeout?
---

# How do IBC channel upgrades work? — report

## Summary

An upgrade renegotiates the parameters of an existing channel. [\\[1\\]](../raw/a.md)

Defined by [\\[1\\]](../raw/a.md) Channel Upgradability — draft

!!! warning deepkb-notice "Not verified"
    This report did not pass verification: no cited passage answers “What is the governance of upgrades?”.

## What are the limits of channel upgrades with an ErrorReceipt?

_The stored sources do not answer this question._

## References

- \\[1\\] [Channel Upgradability ChanUpgradeCancel](../raw/a.md)
"""


def test_a_fact_counts_only_where_the_report_states_it() -> None:
    # the s34 hand check found the script crediting facts a report never states: a keyword in a planned
    # question, a notice or a heading is the report asking, not telling
    facts = [
        {"any": ["renegotiat"]},
        {"any": ["ChanUpgradeTimeout", "governance", "ErrorReceipt", "ChanUpgradeCancel", "Upgradability"]},
    ]
    assert _bench().facts_stated(PAGE, facts) == [True, False]


def test_a_link_target_is_no_statement() -> None:
    # the s40 hand check: a Data Package fact's pattern `\.\./` matched every citation link `](../raw/…)`, so the
    # script counted the fact stated in every report; a link states its text, never where it points
    facts = [{"any": [r"\.\./"]}, {"any": ["raw/a"]}, {"any": ["renegotiat"]}]
    assert _bench().facts_stated(PAGE, facts) == [False, False, True]
