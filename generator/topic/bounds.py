"""Bounded text fields for model drafts: an over-long string from a model is cut at a word boundary when it
is validated, so a chatty reply becomes a shorter draft instead of a validation error (or a traceback)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from pydantic import BeforeValidator, Field


def cut(value: Any, *, limit: int) -> Any:
    """`value` cut to `limit` characters at the last space before it (non-strings are left to pydantic)."""
    if not isinstance(value, str) or len(value) <= limit:
        return value
    head = value[: limit - 1]
    return (head.rsplit(" ", 1)[0] if " " in head[limit // 2 :] else head).rstrip(" ,;:") + "…"


Label = Annotated[str, BeforeValidator(partial(cut, limit=120)), Field(min_length=1, max_length=120)]
Kind = Annotated[str, BeforeValidator(partial(cut, limit=40)), Field(min_length=1, max_length=40)]
Unit = Annotated[str, BeforeValidator(partial(cut, limit=20)), Field(max_length=20)]
Quote = Annotated[str, BeforeValidator(partial(cut, limit=600)), Field(max_length=600)]
ClaimText = Annotated[str, BeforeValidator(partial(cut, limit=1200)), Field(min_length=1, max_length=1200)]
