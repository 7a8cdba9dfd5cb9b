"""Code beside the process a question asks about that shares its words and never begins it, unless the
question asks for it: a registration beside a lookup, a devtools or tracing file, a function that makes an
error or logs, an asynchronous twin, a shim kept for older callers, a yes-or-no check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from generator.repo.analyze.describe import lead
from generator.repo.model import Symbol
from generator.repo.plan.naming import words_of
from generator.text.words import base_form, same_stem, stem

# code that inspects the project rather than running it, by its folder's or file's words (stemmed)
_DIAGNOSTIC = frozenset(
    stem(word) for word in "debug debugger devtools trace tracer tracing profiler profiling inspector".split()
)
# a docstring saying the function registers something: it adds to what a lookup later searches
_REGISTERS = re.compile(
    r"^\W*(?:\w+\s+)?(registers?|adds?|mounts?)\s+(?:an?|the|new|one|each|every|\w+s)\b", re.IGNORECASE
)
_LOGS = frozenset(stem(word) for word in "log logger logging".split())
_ASYNC = frozenset("async asyncio aio asynchronous asynchronously".split())
_COMPATIBILITY = re.compile(r"\bbackwards?[- ]compatib|\blegacy\b|\bold[- ]style\b", re.IGNORECASE)
_MAKES = frozenset("create make new build raise throw report format".split())
# a name opening on one of these asks a yes-or-no question of a value
_ASKS = frozenset("is has have should can may must".split())
# …and these question words ask for that check
_CHECKS = frozenset(
    stem(word) for word in "whether decide decided check checked determine determined".split()
)


def beside(path: str, symbol: Symbol, terms: Sequence[str], verbs: Sequence[str]) -> bool:
    """Is the function code beside the process asked about (the question's `terms` and process `verbs`):
    a devtools or tracing file's, a registration, a logging helper, an asynchronous twin, a compatibility
    shim or a function making an error, none of which the question asks for?"""
    return (
        diagnostic(path, terms)
        or makes_error(symbol)
        or registers(symbol, verbs)
        or logs(symbol, terms)
        or asynchronous(path, symbol, terms)
        or kept_for_compatibility(symbol)
        or predicate(symbol, terms)
    )


def diagnostic(path: str, terms: Sequence[str]) -> bool:
    """Is the file code that inspects the project rather than running it (a tracer, devtools, a debugger, a
    profiler) that no word of the question names? A helper there shares the question's words (zustand's
    devtools `findCallerName` for "calling set") but no process the question asks about begins there."""
    words = {stem(word) for part in path.split("/") for word in words_of(part.rsplit(".", 1)[0])}
    found = words & _DIAGNOSTIC
    return bool(found) and not any(stem(term) in found for term in terms)


def registers(symbol: Symbol, verbs: Sequence[str]) -> bool:
    """Does the function's docstring open by saying it registers or adds something (echo's `GET`: "GET
    registers a new GET route for a path with matching handler", pluggy's `register`: "Register a plugin"),
    when the question's process is no registering (its verbs): a lookup, a dispatch or a run begins where the
    registered thing is used, not where it is added ("run the *registered* implementations" runs them)."""
    said = _REGISTERS.match(symbol.doc or "")
    if said is None:
        return False
    verb = stem(said.group(1))
    return not any(same_stem(verb, stem(base_form(v))) for v in verbs)


def logs(symbol: Symbol, terms: Sequence[str]) -> bool:
    """Is the function named for logging (tenacity's `after_log`, `before_sleep_log`) in a question that asks
    nothing of logging: it reports on a process, which begins elsewhere. A question with any word of the
    family ("a *log* call", "a *logged* message") asks of logging: structlog's `_proxy_to_logger` may start."""
    said = {stem(word) for word in words_of(symbol.short_name)} & _LOGS
    return bool(said) and not any(stem(base_form(term)) in _LOGS for term in terms)


def asynchronous(path: str, symbol: Symbol, terms: Sequence[str]) -> bool:
    """Is the function the asynchronous twin of a process (joi's `validateAsync`, tenacity's
    `asyncio/` retrying), by its name's or its file's words, in a question that does not ask for it: the
    process asked about is the plain one."""
    words = {*words_of(symbol.short_name), *(w for part in path.split("/") for w in words_of(part))}
    return bool(words & _ASYNC) and not any(term in _ASYNC for term in terms)


def kept_for_compatibility(symbol: Symbol) -> bool:
    """Is the function a shim kept for older callers, by its name (`run_old_style_hookwrapper`,
    `legacy_parse`) or its docstring's lead ("backward compatibility wrapper to…"): the process it stands
    in for begins in the code it keeps compatible with."""
    words = words_of(symbol.short_name)
    named = (
        "legacy" in words
        or "compat" in words
        or any(a == "old" and b == "style" for a, b in zip(words, words[1:], strict=False))
    )
    return named or bool(_COMPATIBILITY.search(lead(symbol.doc or "")))


def predicate(symbol: Symbol, terms: Sequence[str]) -> bool:
    """Is the function a check answering yes or no (`Retry.is_retry`, `Job.should_retry`,
    `_is_method_retryable`) in a question that asks for no check ("whether", "decided"): the process calls
    it to decide, and begins where it is called."""
    words = words_of(symbol.short_name)
    asked = {stem(base_form(term)) for term in terms}
    return len(words) > 1 and words[0] in _ASKS and not asked & _CHECKS


def makes_error(symbol: Symbol) -> bool:
    """Is the function named for making or reporting an error (joi's `$_createError`, `raise_error`): where a
    process reports failing, not where it begins."""
    words = words_of(symbol.short_name)
    if words in (["error"], ["errors"]):  # joi's annotate.js `error`: the error of a failed validation
        return True
    return any(
        word in _MAKES and words[i + 1] in ("error", "errors", "exception")
        for i, word in enumerate(words[:-1])
    )
