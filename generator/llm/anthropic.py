"""Claude through the official Anthropic SDK; SDK errors are mapped into `generator.errors` here, nowhere else.

The SDK's own retries are off: its requests go through `generator.http`'s transport and retry rule, so a
call gets the same total deadline (`llm.timeout`, retries included) and body size cap as every other call.
"""

from __future__ import annotations

import importlib
import json
import os
from typing import TYPE_CHECKING, Any, Literal, TypedDict, cast

import msgspec

from ..config import LLMConfig
from ..errors import (
    ProviderAuthError,
    ProviderError,
    ProviderResponseError,
    ProviderTimeout,
)
from ..http import Budget, Failure, RetryPolicy, bounded_transport, environment_proxy, is_retryable, retrying
from ..jsontypes import JSONObject
from .base import (
    TIMEOUT_HINT,
    Completion,
    Prompt,
    Provider,
    register,
    reported_tokens,
    server_said,
    status_failure,
)
from .window import fit_to_window

if TYPE_CHECKING:
    import anthropic
    from anthropic.types.message_create_params import MessageCreateParamsBase

# Statuses that mean "busy, come back later"; they have been retried when we report them.
_BUSY = {429, 503, 529}
IDLE_HINT = "the API stopped sending; raise llm.idle_timeout if it is only slow"
DEFAULT_BASE_URL = "https://api.anthropic.com"


@register
class AnthropicProvider(Provider):
    """Messages API, sync client; deadline, retries and body cap from `generator.http`."""

    name = "anthropic"
    default_model = "claude-sonnet-5-5"  # the newest Sonnet in the SDK's model list (2.12)

    def __init__(self, config: LLMConfig) -> None:
        super().__init__(config)
        ours = config.provider == "anthropic"  # llm.api_key_env describes this provider
        key_env = (ours and config.api_key_env) or "ANTHROPIC_API_KEY"
        api_key = os.environ.get(key_env)
        if not api_key:
            raise ProviderAuthError(
                f"the anthropic provider needs an API key and {key_env} is not set",
                hint=f"export {key_env}=… or run with --provider offline",
            )
        import anthropic  # imported here: the SDK takes seconds to import and offline runs never need it

        self.sdk = anthropic
        self.httpx = _sdk_httpx(anthropic)
        base_url = self._base_url(config)
        self.host = self.httpx.URL(base_url or DEFAULT_BASE_URL).host
        self.client = anthropic.Anthropic(
            api_key=api_key,
            base_url=base_url,
            timeout=config.timeout,
            max_retries=0,
            http_client=anthropic.DefaultHttpxClient(transport=_sdk_transport(self.httpx, base_url)),
        )
        self.retry = RetryPolicy(attempts=config.max_retries + 1, backoff=0.5, max_wait=30.0)

    @staticmethod
    def _base_url(config: LLMConfig) -> str | None:
        # llm.base_url is the OpenAI-compatible endpoint unless deepkb.yml names anthropic explicitly.
        if config.provider == "anthropic" and config.base_url:
            return config.base_url
        return os.environ.get("ANTHROPIC_BASE_URL") or None

    def complete(self, prompt: Prompt) -> Completion:
        model = self.model_for(prompt.stage)
        request = self._request(fit_to_window(self, prompt), model)
        budget = Budget.start(
            self.name,
            self.config.timeout,
            clock=self.retry.clock,
            hint=TIMEOUT_HINT,
            idle=self.config.idle_timeout,
            idle_hint=IDLE_HINT,
        )
        message = retrying(
            lambda: self._streamed(request),
            lambda exc: self._classify(exc, model, budget, prompt),
            policy=self.retry,
            budget=budget,
        )
        completion = completion_from(message, model, self.name)
        self.usage.add(completion)
        return completion

    def _streamed(self, request: MessagesRequest) -> object:
        """The answer streamed (each event resets the idle deadline), assembled by the SDK into the Message a
        non-streamed call returns: text blocks, and usage from `message_start` and `message_delta`."""
        with self.client.messages.stream(**request.params()) as stream:
            kind = stream.response.headers.get("content-type", "")
            if "text/event-stream" not in kind:
                stream.response.read()  # through the bounded transport: its size and depth checks speak first
                raise ProviderResponseError(f"anthropic answered a streamed request with {kind or 'no type'}")
            started = False
            for event in stream:
                started = started or event.type == "message_start"
            if not started:
                raise ProviderResponseError("anthropic's event stream ended without a message")
            return stream.get_final_message()

    def _classify(self, exc: Exception, model: str, budget: Budget, prompt: Prompt) -> Failure | None:
        if isinstance(exc, self.httpx.TimeoutException):  # raised mid-stream, where the SDK does not wrap
            return Failure(budget.timed_out(self.host), retryable=False)
        if isinstance(exc, self.httpx.HTTPError):
            error = ProviderError(
                f"anthropic: the answer broke off: {exc}", hint="check the network or base URL"
            )
            return Failure(error, retryable=True)
        if isinstance(exc, self.sdk.APIStatusError):
            error = self.schema_refusal(prompt, map_sdk_error(exc, model))
            return Failure(error, is_retryable(exc.status_code), exc.response.headers)
        if isinstance(exc, self.sdk.APIError):
            # the SDK wraps what our transport raised (deadline, size cap): that verdict is final
            if isinstance(exc.__cause__, ProviderError):
                return Failure(exc.__cause__, retryable=False)
            connection = type(exc) is self.sdk.APIConnectionError
            return Failure(map_sdk_error(exc, model), retryable=connection)
        if isinstance(exc, ValueError):  # the SDK lets a 200 with a non-JSON body escape as JSONDecodeError
            return Failure(ProviderResponseError(f"anthropic sent a body that is not JSON: {exc}"), False)
        return None

    def _request(self, prompt: Prompt, model: str) -> MessagesRequest:
        """The Messages API body (also a Message Batches request's `params`)."""
        system = prompt.system_text()
        return MessagesRequest(
            model=model,
            max_tokens=min(prompt.max_tokens, self.config.max_output_tokens),
            messages=[UserTurn(content=user_content(prompt))],
            system=system or msgspec.UNSET,
            **schema_tool(prompt),
        )


def _sdk_httpx(sdk: Any) -> Any:
    """The httpx module the SDK is built on (`httpx`, or `httpx2` in SDK 2.x)."""
    client_class = next(c for c in sdk.DefaultHttpxClient.__mro__ if c.__name__ == "Client")
    return importlib.import_module(client_class.__module__.partition(".")[0])


def _sdk_transport(module: Any, base_url: str | None) -> Any:
    """Our bounded transport over the SDK's httpx module."""
    proxy = environment_proxy(base_url or DEFAULT_BASE_URL)
    # the SDK decodes where we can't count
    return bounded_transport(module, proxy=proxy, uncompressed_only=True)


class CacheControl(msgspec.Struct, frozen=True):
    # the prompt cache keeps a prefix for 5 minutes from its last use: shards asked together all read it
    type: Literal["ephemeral"] = "ephemeral"


class TextBlock(msgspec.Struct, frozen=True):
    text: str
    type: Literal["text"] = "text"
    cache_control: CacheControl | msgspec.UnsetType = msgspec.UNSET


class UserTurn(msgspec.Struct, frozen=True):
    content: str | list[TextBlock]
    role: Literal["user"] = "user"


class Tool(msgspec.Struct, frozen=True):
    name: str
    description: str
    input_schema: JSONObject


class ToolChoice(msgspec.Struct, frozen=True):
    name: str
    type: Literal["tool"] = "tool"


class SchemaTool(TypedDict, total=False):
    tools: list[Tool]
    tool_choice: ToolChoice


def schema_tool(prompt: Prompt) -> SchemaTool:
    """A schema prompt's one tool and the choice that forces it: the reply is that tool's input, which
    the API checks against `input_schema`."""
    if prompt.json_schema is None:
        return {}
    name = prompt.json_schema.name
    tool = Tool(name, "Record the reply as structured data.", prompt.json_schema.value)
    return {"tools": [tool], "tool_choice": ToolChoice(name)}


class MessagesRequest(msgspec.Struct, frozen=True, kw_only=True):
    """A Messages API request body; `system`, `tools` and `tool_choice` are left out when there are none."""

    model: str
    max_tokens: int
    messages: list[UserTurn]
    system: str | msgspec.UnsetType = msgspec.UNSET
    tools: list[Tool] | msgspec.UnsetType = msgspec.UNSET
    tool_choice: ToolChoice | msgspec.UnsetType = msgspec.UNSET

    def params(self) -> MessageCreateParamsBase:
        """The body as the SDK takes it (keyword arguments, or a batch request's `params`)."""
        return cast("MessageCreateParamsBase", msgspec.to_builtins(self))


def user_content(prompt: Prompt) -> str | list[TextBlock]:
    """The user turn; with `cache_prefix_chars`, its shared prefix is a block of its own marked cacheable
    (sibling prompts, one repository's shards, then pay a tenth of its price after the first)."""
    cut = min(prompt.cache_prefix_chars, len(prompt.user))
    if cut <= 0:
        return prompt.user
    blocks = [TextBlock(prompt.user[:cut], cache_control=CacheControl())]
    if cut < len(prompt.user):
        blocks.append(TextBlock(prompt.user[cut:]))
    return blocks


def completion_from(message: object, model: str, provider: str, *, batched: bool = False) -> Completion:
    """A Messages API reply (synchronous, or one result of a batch) as our Completion."""
    fields = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    counts = [_usage(message, name) for name in fields]
    return Completion(
        text=_reply_text(message),
        model=getattr(message, "model", None) or model,
        provider=provider,
        input_tokens=counts[0] or 0,
        output_tokens=counts[1] or 0,
        cache_read_tokens=counts[2] or 0,
        cache_write_tokens=counts[3] or 0,
        batched=batched,
        refused_counts=counts.count(None),
    )


def map_sdk_error(exc: anthropic.APIError, model: str) -> ProviderError:
    """One SDK exception → one of our errors, with the server's own message in the line."""
    import anthropic

    if isinstance(exc, anthropic.APITimeoutError):
        return ProviderTimeout("anthropic did not answer in time", hint=TIMEOUT_HINT)
    if isinstance(exc, anthropic.APIConnectionError):
        return ProviderError(
            f"could not reach the Anthropic API: {exc.message}", hint="check the network or base URL"
        )
    if isinstance(exc, anthropic.APIStatusError):
        body = exc.body
        said = server_said(body, str(body)[:300] if body else exc.message)
        hints = {
            401: "check ANTHROPIC_API_KEY",
            403: "the key lacks permission for this request",
            404: f"check the model name '{model}' in deepkb.yml",
        }
        return status_failure(
            exc.status_code, f"anthropic answered {exc.status_code}: {said}", busy=_BUSY, hints=hints
        )
    return ProviderResponseError(f"anthropic sent a reply deepkb cannot read: {exc.message}")


def _reply_text(message: object) -> str:
    """The text blocks joined; a forced tool call's input as JSON text (what `complete_json` validates)."""
    blocks = getattr(message, "content", None)
    if not isinstance(blocks, list):
        raise ProviderResponseError("anthropic reply has no content list")
    calls = [block.input for block in blocks if getattr(block, "type", None) == "tool_use"]
    if calls:
        return json.dumps(calls[0], ensure_ascii=False)
    texts = [
        block.text
        for block in blocks
        if getattr(block, "type", None) == "text" and isinstance(block.text, str)
    ]
    if not texts:
        raise ProviderResponseError("anthropic reply holds no text block")
    return "".join(texts)


def _usage(message: object, field: str) -> int | None:
    """The count the server reported (0 when it sent none), None when it is not plausible."""
    value = getattr(getattr(message, "usage", None), field, None)
    return 0 if value is None else reported_tokens(value)
