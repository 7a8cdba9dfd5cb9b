"""The model's context window, and fitting prompts into it before they are sent.

A server refuses (or silently truncates) a prompt whose tokens plus the answer's `max_tokens` exceed the
window. deepkb cannot tokenize as the model does (tiktoken needs a download, local models have their own
vocabularies), so prompts are measured with a pessimistic estimate and a safety margin.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from ..errors import PromptTooLarge
from .base import Prompt, Provider, Window, estimate_tokens

DEFAULT_WINDOW = 8192
"""The window assumed when neither deepkb.yml, the server nor the model's name tells: small enough for most
local servers (llama.cpp and Ollama serve 2k–8k unless told more)."""
KNOWN_WINDOWS: tuple[tuple[str, int], ...] = (
    ("claude-", 200_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-5", 400_000),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4", 200_000),
    ("gpt-3.5-turbo", 16_385),
    ("gpt-", 128_000),
    ("chatgpt-", 128_000),
)
"""Hosted models' windows by name prefix (first match wins, so a longer prefix comes first)."""
SAFETY_MARGIN = 0.15
"""Share of the window kept free for the estimate's error."""
TEMPLATE_TOKENS = 64
"""Tokens the server's chat template adds around the messages (role markers, special tokens)."""
MIN_OUTPUT = 512
"""An answer is never squeezed below this many tokens (or what the stage asked, if less) to fit a prompt."""
CHARS_PER_TOKEN = 3.0
"""Code and non-English text run at about 3 characters a token in BPE vocabularies; the estimate never
counts fewer tokens than this gives, so a long identifier or a base64 run is not counted as one word."""


def context_window(provider: Provider, stage: str = "default") -> Window:
    """The window of the model `stage` uses: llm.context_window, else what the server says, else the known
    window of a hosted model, else DEFAULT_WINDOW. Found once per run and model, never per call."""
    model = provider.model_for(stage)
    with provider.window_lock:
        if model not in provider.windows:
            provider.windows[model] = _find_window(provider, model)
        return provider.windows[model]


def _find_window(provider: Provider, model: str) -> Window:
    if provider.config.context_window:
        return Window(provider.config.context_window, "llm.context_window")
    served = provider.served_window(model)
    if served is not None:
        return served
    known = known_window(model) if provider.hosted else None
    if known is not None:
        return Window(known, f"known window of {model}")
    return Window(DEFAULT_WINDOW, "assumed: set llm.context_window to the model's window")


def known_window(model: str) -> int | None:
    """The window of a hosted model deepkb knows by name, else None."""
    name = model.lower().rpartition("/")[2]  # OpenRouter-style "anthropic/claude-…"
    return next((tokens for prefix, tokens in KNOWN_WINDOWS if name.startswith(prefix)), None)


def prompt_tokens(text: str) -> int:
    """A pessimistic token count of `text`: the word-based estimate, never fewer than 1 per 3 characters."""
    return max(estimate_tokens(text), math.ceil(len(text) / CHARS_PER_TOKEN))


def measured(prompt: Prompt) -> int:
    """Tokens `prompt` is taken to occupy, margin included (system and user text, the chat template)."""
    text = prompt_tokens(prompt.system or "") + prompt_tokens(prompt.user)
    return math.ceil(text * (1 + SAFETY_MARGIN)) + TEMPLATE_TOKENS


def fit_to_window(provider: Provider, prompt: Prompt) -> Prompt:
    """`prompt` as a provider sends it: its answer held to llm.max_output_tokens and to what the model's
    window leaves (see `fit_output`)."""
    capped = replace(prompt, max_tokens=min(prompt.max_tokens, provider.config.max_output_tokens))
    return fit_output(capped, context_window(provider, prompt.stage))


def fit_output(prompt: Prompt, window: Window) -> Prompt:
    """`prompt` with `max_tokens` lowered so that prompt plus answer fit `window`, never below MIN_OUTPUT;
    PromptTooLarge (nothing is sent) when even that does not fit."""
    left = window.tokens - measured(prompt)
    floor = min(prompt.max_tokens, MIN_OUTPUT)
    if left < floor:
        raise PromptTooLarge(
            f"the {prompt.stage} prompt (about {measured(prompt):,} tokens) does not fit the model's "
            f"{window.tokens:,}-token window ({window.source}) with room for an answer; it was not sent",
            hint="set llm.context_window to the window the server really has, or serve the model with a "
            "larger one (llama.cpp: --ctx-size, Ollama: num_ctx)",
        )
    return prompt if prompt.max_tokens <= left else replace(prompt, max_tokens=left)


def fit_entries(build: Callable[[int], Prompt], count: int, window: Window) -> Prompt:
    """The prompt `build(n)` for the largest n ≤ `count` that fits `window` (entries are ranked, best first,
    so the least useful are left out); `build(min(count, 1))` when none fits, for `fit_output` to refuse."""
    low, high = min(count, 1), count
    if fits(build(high), window):
        return build(high)
    while low < high - 1:  # build(high) does not fit; find the largest n that does
        middle = (low + high) // 2
        low, high = (middle, high) if fits(build(middle), window) else (low, middle)
    return build(low)


def fits(prompt: Prompt, window: Window) -> bool:
    """Whether `prompt` fits with room for its whole answer, or a quarter of the window when that is less."""
    answer = min(prompt.max_tokens, max(MIN_OUTPUT, window.tokens // 4))
    return measured(prompt) + answer <= window.tokens
