"""The JSON the architect model must answer with (a pydantic schema: `complete_json` checks the reply against
it and asks once for a repair). Imported only on the model path."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ShardProposal(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    files: list[str] = Field(min_length=1, max_length=40)
    rationale: str = Field(default="", max_length=600)


class ArchitectReply(BaseModel):
    """The JSON the architect must answer with."""

    shards: list[ShardProposal] = Field(min_length=1, max_length=12)
