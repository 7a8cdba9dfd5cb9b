"""deepkb's exception tree. SDK, network and OS errors are mapped into it at the boundary.

DeepkbError                 one clear line for the user, plus an exit code
├── ConfigError             deepkb.yml is wrong (names the key and the file)
├── UsageError              a command-line value is wrong
├── LockHeldError           another run holds the workspace lock
├── UnsafeSourceError       a repository URL/path or crawl target was refused before any process/request
├── StoreError              reading or writing the knowledge store failed
├── ResearchError           a research pipeline could not finish
│   ├── PartialFailure      some shards/steps failed, the rest landed (exit 3)
│   └── RunTimeout          the run outlived its total or idle timeout and was stopped (exit 3)
│   └── AnswerRejected      the model answered, but its answer failed the checks: the offline page stands in
│   └── NoUsableSources     a topic found no source that answers it: nothing is published as a report
└── ProviderError           an LLM or search provider failed
    ├── ProviderAuthError   400/401/403: our request or key is wrong; never retried
    ├── ProviderRateLimited 429/529 after the retries were spent
    ├── PromptTooLarge      400: the prompt does not fit the model's context window; never retried
    ├── SchemaRefused       400: the server has no schema mode; JSON stages ask without a schema
    ├── ProviderTimeout     no answer within the configured timeout
    │   └── RunDeadlineReached  the call was stopped by its run's total timeout (also a RunTimeout: exit 3)
    └── ProviderResponseError  the provider answered something we cannot read
"""

from __future__ import annotations


class DeepkbError(Exception):
    """Base of every error deepkb reports to the user as one line."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def line(self) -> str:
        """The one line the CLI prints: what was wrong, then how to fix it."""
        return f"{self.message} ({self.hint})" if self.hint else self.message


def error_line(error: BaseException) -> str:
    """One line for any error: ours as the CLI prints it, another with its type's name."""
    return error.line() if isinstance(error, DeepkbError) else f"{type(error).__name__}: {error}"


class ConfigError(DeepkbError):
    exit_code = 2


class UsageError(DeepkbError):
    exit_code = 2


class LockHeldError(DeepkbError):
    exit_code = 4


class UnsafeSourceError(DeepkbError):
    exit_code = 2


class StoreError(DeepkbError):
    pass


class ResearchError(DeepkbError):
    pass


class PartialFailure(ResearchError):
    """Some units of work failed while the others landed; the result is still written."""

    exit_code = 3


class RunTimeout(ResearchError):
    """A run stopped at its deadline; what finished before it is saved."""

    exit_code = 3


class AnswerRejected(ResearchError):
    """The model answered, but its answer failed the checks (empty, looping, citing no real line): the
    offline analyst's page stands in, labelled. An honest outcome of a weak model, not a failed run."""


class NoUsableSources(ResearchError):
    """The run finished, but no stored source answers the topic; the topic ends `no_sources`."""


class ProviderError(DeepkbError):
    pass


class ProviderAuthError(ProviderError):
    pass


class ProviderRateLimited(ProviderError):
    pass


class PromptTooLarge(ProviderError):
    """The server refused the prompt as larger than the model's context window. Not an auth error: a stage
    falls back on it (the offline page, the heuristic plan) instead of stopping the run."""

    def __init__(self, message: str, *, hint: str | None = None, window: int | None = None) -> None:
        super().__init__(message, hint=hint)
        self.window = window
        """The window the server said it has, when its refusal said (the rest of the run is fitted to it)."""


class SchemaRefused(ProviderError):
    """The server refused a request that asked for schema-constrained JSON (it has no schema mode)."""


class ProviderTimeout(ProviderError):
    pass


class ProviderResponseError(ProviderError):
    pass


class RunDeadlineReached(ProviderTimeout, RunTimeout):
    """A model or search call cut short because its run's total timeout passed.

    A ProviderError, so the stages that fall back on a failed call still do (the partial result is written);
    a RunTimeout, so a run it ends exits with code 3."""
