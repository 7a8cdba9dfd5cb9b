"""The rule set secret redaction applies: known key formats, and secrets recognised by where they stand.

Known formats come from two places: a few of our own (kept first so their kinds stay stable) and every
regex-based plugin of detect-secrets (Yelp's maintained scanner: GitLab, npm, Slack webhooks, Twilio,
SendGrid, PyPI, Stripe, Azure, Discord, Telegram, …), taken as data — its compiled patterns — and run over
whole texts. Importing the plugins loads detect-secrets' HTTP stack (a sixth of an offline run), so their
patterns are kept in `secret_formats.json` for the detect-secrets version that file names; with any other
version installed they are read from the plugins themselves (`make secret-formats` refreshes the file).
Context rules then catch what has no fixed format: the value of a secret-named key in code, YAML, INI, .env
or prose (`password: CorrectHorse…`, `DB password: X`), a `Bearer` token, and a long hex key passed as an
argument. Each context rule checks that the value looks like a literal secret (not a variable, call,
template, placeholder, type name or number), so code and docs keep their words.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import json
import pkgutil
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KeyFormat:
    """A known secret format. `hints` are lowercase literals every match contains (empty: always run): a
    text whose lower-cased form holds none of them skips the regular expression (tests/test_redact_gates.py
    checks them against generated matches). In our own formats group 1, when present, is the secret;
    detect-secrets' groups vary (`own=False`), see `secret_span`."""

    kind: str
    hints: tuple[str, ...]
    pattern: re.Pattern[str]
    own: bool = True


# the formats whose match is a URL's password (ours, detect-secrets' BasicAuthDetector)
URL_PASSWORD_KINDS = frozenset({"url_password", "basic_auth_credentials"})

# fmt: off
OWN_FORMATS: tuple[KeyFormat, ...] = (
    KeyFormat("private_key", ("-----begin",), re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")),
    KeyFormat("aws_access_key", ("akia", "asia", "agpa", "aida", "aroa"),
              re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b")),
    KeyFormat("github_token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b")),
    KeyFormat("github_token", ("github_pat_",), re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}")),
    KeyFormat("anthropic_key", ("sk-ant-",), re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{16,}")),
    KeyFormat("openai_key", ("sk-",), re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    KeyFormat("slack_token", ("xox",), re.compile(r"\bxox[abposre]-[A-Za-z0-9\-]{10,}")),
    KeyFormat("google_api_key", ("aiza",), re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    KeyFormat("stripe_key", ("k_live_", "k_test_"), re.compile(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}")),
    KeyFormat("npm_token", ("npm_",), re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    KeyFormat("url_password", ("://",), re.compile(r"://[^/\s:@\"']+:([^/\s@\"']{3,})@")),
    KeyFormat("jwt", ("eyj",), re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
)

# Literals each detect-secrets plugin's patterns contain (lowercase). A plugin not listed runs on every text:
# a newer detect-secrets only costs time, never coverage.
PLUGIN_HINTS: dict[str, tuple[str, ...]] = {
    "AWSKeyDetector": ("a3t", "abia", "acca", "akia", "asia", "aws"),
    "AzureStorageKeyDetector": ("accountkey=",),
    "BasicAuthDetector": ("://",),
    "GitHubTokenDetector": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "GitLabTokenDetector": ("glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "gr1348941", "glcbt-", "glimt-",
                            "glptt-", "glagent-", "gloas-"),
    "JwtTokenDetector": ("eyj",),
    "MailchimpDetector": ("-us",),
    "NpmDetector": ("_authtoken",),
    "OpenAIDetector": ("t3blbkfj",),
    "PypiTokenDetector": ("pypi-",),
    "SendGridDetector": ("sg.",),
    "SlackDetector": ("xox", "hooks.slack.com"),
    "SquareOAuthDetector": ("sq0csp-",),
    "StripeDetector": ("k_live_",),
    "TelegramBotTokenDetector": (":",),
    "TwilioKeyDetector": ("ac", "sk"),
}
# fmt: on
# Plugins left out, and why:
# - IPPublicDetector: public IP addresses are not secrets, and pages about networking are full of them.
# - PrivateKeyDetector: it matches the BEGIN line alone; our own rule replaces the whole block, body included.
# - ArtifactoryDetector: `AP[0-9A-F]…` matches capitalised words; a 73-character Artifactory key is caught by
#   the entropy rule, and by the assignment rule as the value of a secret-named key.
# - Cloudant, IBM Cloud IAM, IBM COS HMAC, SoftLayer: they look for `<vendor>_key = <value>`, which the
#   assignment rule already covers; their lookbehind patterns cost more than all the other rules together.
_SKIPPED_PLUGINS = frozenset(
    {
        "IPPublicDetector",
        "PrivateKeyDetector",
        "ArtifactoryDetector",
        "CloudantDetector",
        "IbmCloudIamDetector",
        "IbmCosHmacDetector",
        "SoftlayerDetector",
    }
)


@functools.cache
def known_formats() -> tuple[KeyFormat, ...]:
    """Our formats, then every regex-based detect-secrets plugin's patterns (loaded once per process, from
    the installed library or the snapshot of its patterns shipped with us)."""
    return (*OWN_FORMATS, *_detect_secrets_formats())


SNAPSHOT = Path(__file__).with_name("secret_formats.json")

# (plugin class, kind, pattern, flags)
PluginPattern = tuple[str, str, str, int]


def _detect_secrets_formats() -> list[KeyFormat]:
    found = _snapshot(_installed_version()) or detect_secrets_patterns()
    return [
        KeyFormat(kind, PLUGIN_HINTS.get(plugin, ()), re.compile(pattern, flags), own=False)
        for plugin, kind, pattern, flags in found
    ]


def detect_secrets_patterns() -> list[PluginPattern]:
    """Every pattern of the installed detect-secrets' regex plugins (but `_SKIPPED_PLUGINS`), in plugin order."""
    import detect_secrets.plugins as plugins
    from detect_secrets.plugins.base import RegexBasedDetector

    found: list[PluginPattern] = []
    for info in sorted(pkgutil.iter_modules(plugins.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{plugins.__name__}.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or not issubclass(cls, RegexBasedDetector):
                continue
            if name in _SKIPPED_PLUGINS or inspect.isabstract(cls):
                continue
            kind = re.sub(r"[^a-z0-9]+", "_", str(cls.secret_type).lower()).strip("_")
            # the plugins scan one line at a time: MULTILINE keeps `^`/`$` meaning a line's ends (a pattern
            # with neither matches the same either way, and is used as the plugin compiled it)
            for pattern in cls().denylist:
                anchored = _line_anchored(pattern)
                found.append((name, kind, anchored.pattern, anchored.flags))
    return found


_VERSION_LINE = re.compile(r"""^VERSION\s*=\s*['"]([^'"\s]+)['"]""", re.MULTILINE)


def _installed_version() -> str | None:
    """The installed detect-secrets' version: its `__version__.py` read as text (importing the package
    loads requests and more), else its distribution's metadata."""
    spec = importlib.util.find_spec("detect_secrets")  # finds the top-level package without importing it
    if spec is None:
        return None
    for folder in spec.submodule_search_locations or ():
        try:
            found = _VERSION_LINE.search((Path(folder) / "__version__.py").read_text(encoding="utf-8"))
        except OSError:
            continue
        if found:
            return found.group(1)
    from importlib import metadata

    try:
        return metadata.version("detect-secrets")
    except metadata.PackageNotFoundError:
        return None


def _snapshot(version: str | None, path: Path | None = None) -> list[PluginPattern] | None:
    """The patterns kept for `version`, None when the file holds another version's (or is unreadable)."""
    try:
        data = json.loads((path or SNAPSHOT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if version is None or data.get("detect_secrets") != version:
        return None
    try:
        return [(str(p), str(k), str(r), int(f)) for p, k, r, f in data["patterns"]]
    except (TypeError, ValueError):  # rows of another shape: read the plugins instead
        return None


def write_snapshot(path: Path | None = None) -> None:
    """Keep the installed detect-secrets' patterns in `path` (default SNAPSHOT; `make secret-formats`)."""
    rows = ",\n".join("  " + json.dumps(list(row), ensure_ascii=False) for row in detect_secrets_patterns())
    version = json.dumps(_installed_version())
    (path or SNAPSHOT).write_text(
        f'{{"detect_secrets": {version},\n "patterns": [\n{rows}\n]}}\n', encoding="utf-8"
    )


def _line_anchored(pattern: re.Pattern[str]) -> re.Pattern[str]:
    if "^" not in pattern.pattern and "$" not in pattern.pattern:
        return pattern
    return re.compile(pattern.pattern, pattern.flags | re.MULTILINE)


def secret_span(key_format: KeyFormat, match: re.Match[str]) -> tuple[int, int]:
    """The part of a known-format match to replace. Our formats: group 1 when present. detect-secrets'
    formats: the longest group of 8+ characters (their groups are sometimes a prefix like `(ghp|gho)`), else
    the whole match without the delimiters some patterns include (spaces, quotes, `=`, `:`)."""
    if key_format.own:
        return match.span(1) if match.re.groups and match.group(1) is not None else match.span()
    groups = [(match.end(i) - match.start(i), i) for i in range(1, match.re.groups + 1) if match.group(i)]
    longest = max(groups, default=(0, 0))
    if longest[0] >= 8:
        return match.span(longest[1])
    start, end = match.span()
    whole = match.group(0)
    lead = len(whole) - len(whole.lstrip(" \t\r\n\"'=:"))
    trail = len(whole) - len(whole.rstrip(" \t\r\n\"'=:"))
    return start + lead, max(start + lead, end - trail)


# --- context rules ---------------------------------------------------------------------------------------

# A secret-named key (`password`, `db_pass`, `apiKey`, `SECRET_KEY_BASE`, `_authToken`, `DB password`) ending
# at a separator, then the value. The key must END with the secret word: `max_tokens`, `password_hint` and
# `secret_name` are not secrets. Context patterns are written in lower case and run over the lower-cased
# text (ten times faster than IGNORECASE); the caller reads values from the original at the same offsets.
_SECRET_WORDS = (
    r"pass(?:word|wd|phrase)?|pwd|secret|token|credentials?"
    r"|(?:api|access|private|secret|auth|signing|encryption|master|client)[_\-]?key"
)
_ASSIGNED = r"(?:[_\-](?:base|value|b64|hex)|\d)?[\"']?\]?[ \t]*(?::=|=>|=|:(?!:))[ \t]*"
_ASSIGNED_VALUE = (
    _ASSIGNED
    + r"(?:\"(?P<dq>[^\"\n]{6,200})\"|'(?P<sq>[^'\n]{6,200})'|(?P<bare>[^\s\"'`,;()\[\]{}<>|]{6,200})(?=[\s,;)\]}]|$))"
)
ASSIGNMENT = re.compile(rf"(?P<word>{_SECRET_WORDS}){_ASSIGNED_VALUE}", re.MULTILINE)
_BEARER_TOKEN = r"(?:bearer|token|basic)[ \t]+(?P<bare>[a-z0-9\-._~+/]{16,}=*)(?![a-z0-9\-._~+/=])"
BEARER = re.compile(r"\b" + _BEARER_TOKEN)
# a long hex key as an argument: `f("3fa9…")`, `f(a, 3fa9…)`, `--api-key 3fa9…`, `-k=3fa9…`
HEX_ARGUMENT = re.compile(
    r"(?:[(,][ \t]*|(?<![\w-])--?[a-z][\w-]*[ \t=][ \t]*)[\"']?(?P<bare>[0-9a-f]{32,})(?![0-9a-z])"
)
# Gates: looser patterns that every match of a context rule contains, and that the engine scans for fast
# (each opens with a literal or a class, not a group or `\b`); a text none of a rule's gates finds anything
# in skips the rule. Every secret word ends in one of the ASSIGNMENT_GATES' words (`api_key` in `key`),
# followed by the start of a value; the BEARER_GATES are BEARER's keywords and the start of a token;
# HEX_ARGUMENT_GATE starts at the argument's `(`, `,` or last `-`. A gate runs only where its literal occurs
# (`in` costs less than a scan).
ASSIGNMENT_GATES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (literal, re.compile(word + _ASSIGNED + r"(?:\"[^\"\n]{6}|'[^'\n]{6}|[^\s\"'`,;()\[\]{}<>|]{6})"))
    for literal, word in (
        ("pass", "pass(?:word|wd|phrase)?"),
        ("pwd", "pwd"),
        ("secret", "secret"),
        ("token", "token"),
        ("credential", "credentials?"),
        ("key", "key"),
    )
)
BEARER_GATES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (word, re.compile(word + r"[ \t]+[a-z0-9\-._~+/]{16}")) for word in ("bearer", "token", "basic")
)
HEX_ARGUMENT_GATE = re.compile(r"[(,\-](?:[a-z][\w-]*[ \t=])?[ \t]*[\"']?[0-9a-f]{32}")


def gates_find(gates: tuple[tuple[str, re.Pattern[str]], ...], lower: str) -> bool:
    """Whether any of a rule's gates finds something in `lower`."""
    return any(gate.search(lower) for literal, gate in gates if literal in lower)


# what a hex argument is when it is no key: a digest or an object id
_HASH_CONTEXT = re.compile(
    r"sha|hash|digest|checksum|commit|rev|md5|etag|integrity|fingerprint|oid|uuid|guid"
)
_HEX = re.compile(r"[0-9a-f]+|[0-9A-F]+")

# templates, placeholders, calls, attribute paths, file paths and URLs: names of a secret, not the secret
_TEMPLATE = re.compile(
    r"^[$%@<{\[*./~#]|\{\{|\$\{|%\(|\}\}|://|^\w+\(|^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(|$)|^\[REDACTED"
)
_NUMBER = re.compile(r"^[\d_.,:+\-/ ]+[a-zA-Z]{0,3}$")  # counts, versions, dates, sizes (30s, 10MB)
_PLACEHOLDER_WORDS = frozenset(
    """true false none null nil undefined yes no on off required optional string str bytes int integer bool
    boolean number object any secret password token changeme example placeholder redacted hidden dummy
    sample xxxxxx""".split()
)
_SYMBOL = re.compile(r"[!@#%^&*+=/~?|$]")
_INNER_UPPER = re.compile(r"[a-z][A-Z]")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[A-Za-z]")
_LETTER_ONLY = re.compile(r"[A-Za-z]+")
# SCREAMING_SNAKE or snake_case names with a number (`ANTHROPIC_API_KEY`, `tool_20250818`) are names too
_IDENTIFIER_WITH_VERSION = re.compile(r"[A-Z][A-Z_]*(?:_\d+)?[A-Z_]*|[a-z][a-z_]*(?:_\d+)+[a-z_]*")


def looks_like_secret_value(value: str, *, quoted: bool, text: str = "") -> bool:
    """A literal that could be a password or key, not a variable, call, template, type name or number.

    `text` is the whole text the value came from: a CamelCase word found there more than once is a name
    (a type, a class) rather than a passphrase.
    """
    value = value.strip()
    if len(value) < 6 or _TEMPLATE.search(value) or _NUMBER.match(value):
        return False
    if value.lower().strip("*x.-_") in _PLACEHOLDER_WORDS or len(set(value)) <= 2:
        return False
    if " " in value:  # prose and UI strings ("Mot de passe", "Enter your password") need a strong signal
        return quoted and bool(_DIGIT.search(value) and _SYMBOL.search(value)) and len(value.split()) <= 4
    if _DIGIT.search(value) and _LETTER.search(value) or _SYMBOL.search(value):
        return not _IDENTIFIER_WITH_VERSION.fullmatch(value)
    if len(value) >= 16 and _INNER_UPPER.search(value) and _LETTER_ONLY.fullmatch(value):
        # CamelCase: a type name (`AccessTokenProvider`) recurs in its file, a passphrase does not
        return text.count(value) <= 1
    return len(value) >= 20 and value.isalpha() and value.islower()


def plausible_secret(value: str, *, url_host: str | None = None) -> bool:
    """A known-format match that is no placeholder: `user:pass@`, `ACxxxxxxxx…`, `<password>` stay, and so
    does a URL's password that is a documentation example's word for what goes there on an example's host
    (`bucketname:bucketpass@myserver`, `:yourpassword@127.0.0.1`; `url_host`: the host after the `@`)."""
    core = value.strip("<>{}[]*")
    if core.lower() in _PLACEHOLDER_WORDS or core.lower() in {"pass", "passwd", "pwd", "user", "username"}:
        return False
    if url_host is not None and _example_host(url_host) and _names_a_secret(core):
        return False
    return len(set(core)) > 4 and not _TEMPLATE.search(value[:2])


# a word standing for a secret rather than being one: letters only (a real password mixes in digits or
# symbols, or is no word about passwords), naming one ("bucketpass", "dbpassword", "mysecret", "your_token")
_WORDS_ONLY = re.compile(r"[A-Za-z]+(?:[_\-.][A-Za-z]+)*")
_SECRET_NAMING = re.compile(
    r"pass|pwd|secret|token|xxx|changeme|example|dummy|sample|placeholder|redacted|^(?:your|my)",
    re.IGNORECASE,
)


def _names_a_secret(core: str) -> bool:
    return bool(_WORDS_ONLY.fullmatch(core) and _SECRET_NAMING.search(core))


# the host of an example rather than of a deployment: one word (`myserver`, `mq`, `db`), loopback, or a name
# reserved for documentation (RFC 2606); a password on a real domain stays redacted whatever its words
_EXAMPLE_HOST = re.compile(
    r"[\w-]+|localhost|127\.0\.0\.1|(?:[\w-]+\.)*(?:example\.(?:com|org|net)|example|test|invalid)",
    re.IGNORECASE,
)
_URL_HOST = re.compile(r"@\[?([\w.-]+)")


def url_host(text: str, end: int) -> str:
    """The host named right after a URL password ending at `end` in `text` ('' when no `@host` follows)."""
    found = _URL_HOST.match(text, end)
    return found.group(1) if found else ""


def _example_host(host: str) -> bool:
    return bool(_EXAMPLE_HOST.fullmatch(host))


def looks_like_hex_key(lower: str, start: int, value: str) -> bool:
    """A hex run in one case whose line does not name it a digest, commit or id (`lower`: the lower-cased
    text; `start`: where the argument begins). A run of decimal digits alone is a number (humanize's
    `intword(8100000000000000000000000000000000)`, big-number tests in cJSON, gson, json): a 32-character hex
    key is all digits once in three million."""
    if not _HEX.fullmatch(value) or value.isdigit():
        return False
    line_start = lower.rfind("\n", 0, start) + 1
    return not _HASH_CONTEXT.search(lower, max(line_start, start - 60), start)


def looks_like_bearer_token(value: str) -> bool:
    """Real tokens mix letters and digits; "Bearer authentication_header_value" is prose."""
    return bool(_DIGIT.search(value) and _LETTER.search(value)) and not _TEMPLATE.search(value[:2])
