"""The types of JSON data whose shape deepkb does not know in advance (a JSON Schema, a server's event, a
planted file before it is validated; code reading one narrows it with isinstance) or only writes out (a
`--json` report)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union

JSONValue = Union[str, int, float, bool, None, Sequence["JSONValue"], Mapping[str, "JSONValue"]]  # noqa: UP007 (a runtime alias: the quoted names need Union)
"""Any JSON value. Its containers are read-only views, so a `dict[str, int]` or `list[str]` is one too; mypy
checks the recursion, msgspec encodes it but cannot decode into it."""

JSONObject = dict[str, JSONValue]
"""A JSON object of unknown shape."""

StoredObject = dict[str, object]
"""A JSON object kept as it was read (a stored record's field, a model's reply) and validated again where it is
used; `object`, not JSONValue, because msgspec and pydantic fields cannot resolve that recursion."""
