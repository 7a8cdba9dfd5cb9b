"""What a run's model calls cost: tokens priced by the `llm.prices` table, batch discount included.

Prices are list prices per million tokens. Anthropic reports cached input apart from `input_tokens`:
reads are billed at `cache_read` (default 0.1 × input), writes at `cache_write` (default 1.25 × input).
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from ..config import LLMConfig, ModelPrice
from .base import JsonTally, TokenCount, Usage


def price_for(model: str, config: LLMConfig) -> ModelPrice | None:
    """The price of `model`: an exact key, else the longest key the name starts with, else None."""
    if model in config.prices:
        return config.prices[model]
    keys = [key for key in config.prices if model.startswith(key)]
    return config.prices[max(keys, key=len)] if keys else None


def tokens_cost(tokens: TokenCount, price: ModelPrice, *, batched: bool, discount: float) -> float:
    cache_write = price.cache_write if price.cache_write is not None else price.input * 1.25
    cache_read = price.cache_read if price.cache_read is not None else price.input * 0.1
    usd = (
        tokens.input * price.input
        + tokens.cache_write * cache_write
        + tokens.cache_read * cache_read
        + tokens.output * price.output
    ) / 1_000_000
    return usd * discount if batched else usd


def usage_cost(usage: Usage, config: LLMConfig) -> tuple[float, list[str]]:
    """Estimated USD of `usage`, and the models no price was found for (counted as free)."""
    total, unpriced = 0.0, []
    for (model, batched), tokens in sorted(usage.by_model.items()):
        price = price_for(model, config)
        if price is None:
            unpriced.append(model)
            continue
        total += tokens_cost(tokens, price, batched=batched, discount=config.batch_discount)
    return total, sorted(set(unpriced))


class JsonStageRecord(msgspec.Struct, frozen=True, kw_only=True):
    """How one JSON stage's replies went in a run (see `structured.complete_json`)."""

    valid: int = 0
    repaired: int = 0
    fallen_back: int = 0
    schema_refused: int = 0


class CostRecord(msgspec.Struct, frozen=True, kw_only=True):
    """The cost figures of one entry's run, as stored beside the entry (`_cost.json`) and in `_index.json`.

    Plain figures: a record missing one (written by an older deepkb) reads it as 0."""

    provider: str = ""
    models: list[str] = msgspec.field(default_factory=list)
    calls: int = 0
    batched_calls: int = 0
    batch_fallbacks: int = 0
    input_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    # written only when a model had no price, and when a server's count was refused
    unpriced_models: list[str] | msgspec.UnsetType = msgspec.UNSET
    refused_token_counts: int | msgspec.UnsetType = msgspec.UNSET
    json_stages: dict[str, JsonStageRecord] | msgspec.UnsetType = msgspec.UNSET
    """stage → its JSON replies: valid first time, repaired, fallen back (written when a stage asked)."""

    @property
    def cached_tokens(self) -> int:
        return self.cache_read_tokens + self.cache_write_tokens

    def line(self) -> str:
        """`$0.0123 estimated: 1,234 input + 5,678 cached + 910 output tokens in 3 calls (2 batched)`."""
        line = (
            f"${self.cost_usd:.4f} estimated: {self.input_tokens:,} input + {self.cached_tokens:,} cached"
            f" + {self.output_tokens:,} output tokens in {self.calls} calls"
        )
        return line + (f" ({self.batched_calls} batched)" if self.batched_calls else "")


def cost_record(usage: Usage, config: LLMConfig, provider: str) -> CostRecord:
    """The cost figures of one entry's run."""
    usd, unpriced = usage_cost(usage, config)
    return CostRecord(
        provider=provider,
        models=sorted({model for model, _ in usage.by_model}),
        calls=usage.calls,
        batched_calls=usage.batched_calls,
        batch_fallbacks=usage.batch_fallbacks,
        input_tokens=usage.input_tokens,
        cache_read_tokens=usage.cache_read_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        output_tokens=usage.output_tokens,
        cost_usd=round(usd, 6),
        unpriced_models=unpriced or msgspec.UNSET,
        refused_token_counts=usage.refused_counts or msgspec.UNSET,
        json_stages={stage: _stage_record(t) for stage, t in sorted(usage.json_stages.items())}
        or msgspec.UNSET,
    )


def _stage_record(tally: JsonTally) -> JsonStageRecord:
    return JsonStageRecord(
        valid=tally.valid,
        repaired=tally.repaired,
        fallen_back=tally.fallen_back,
        schema_refused=tally.schema_refused,
    )


def json_stages_line(stages: Mapping[str, JsonTally | JsonStageRecord]) -> str | None:
    """`JSON replies: architect 0 valid / 1 repaired / 1 fell back; plan …` when any stage fell back to its
    offline result (None otherwise: nothing to say)."""
    if not any(t.fallen_back for t in stages.values()):
        return None
    parts = [
        f"{stage} {t.valid} valid / {t.repaired} repaired / {t.fallen_back} fell back"
        + (f" ({t.schema_refused} without schema: the server refused it)" if t.schema_refused else "")
        for stage, t in sorted(stages.items())
    ]
    return "JSON replies: " + "; ".join(parts)


def usage_line(usage: Usage, config: LLMConfig) -> str:
    """`LLM: 12 calls (12 batched), 48,160 input + 0 cached + 277 output tokens, $0.0743 estimated`."""
    usd, _ = usage_cost(usage, config)
    batched = f" ({usage.batched_calls} batched)" if usage.batched_calls else ""
    cached = usage.cache_read_tokens + usage.cache_write_tokens
    refused = f"; {usage.refused_counts} implausible token count(s) from the server stored as 0"
    return (
        f"LLM: {usage.calls} calls{batched}, {usage.input_tokens:,} input + {cached:,} cached"
        f" + {usage.output_tokens:,} output tokens, ${usd:.4f} estimated{refused if usage.refused_counts else ''}"
    )
