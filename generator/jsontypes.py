"""The types of parsed JSON and YAML data whose shape deepkb does not know in advance (a JSON Schema, a
server's event, a planted file before it is validated): code reading one narrows it with isinstance."""

from __future__ import annotations

from typing import Union

JSONValue = Union[str, int, float, bool, None, list["JSONValue"], dict[str, "JSONValue"]]  # noqa: UP007 (a runtime alias: the quoted names need Union)
"""Any JSON value (mypy checks the recursion; msgspec encodes it but cannot decode into it)."""

JSONObject = dict[str, JSONValue]
"""A JSON object of unknown shape."""
