"""The deepkb.yml model: what to research and how. Unknown keys and wrong types fail with the key's name.

The sections are msgspec structs, checked by `validated` when deepkb.yml is read: every command loads the
config, so it is checked by the lighter of the two validation libraries (pydantic checks model replies).

deepkb.yml is read within bounds (size, nesting depth, values after alias expansion), so a hostile or broken
file gives one line, never a traceback, a RecursionError or gigabytes of memory.
"""

from __future__ import annotations

import difflib
import ipaddress
import re
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

import msgspec
import yaml
from msgspec import Meta

from .errors import ConfigError

MAX_CONFIG_BYTES = 1_000_000
"""A deepkb.yml larger than this is refused unread."""
MAX_NESTING = 64
"""Deepest nesting of lists and mappings accepted in deepkb.yml."""
MAX_VALUES = 100_000
"""Most values deepkb.yml may hold once its aliases are expanded (a 1 KB alias bomb expands to billions)."""
# libyaml's parser when PyYAML was built with it (every page's frontmatter goes through here), else PyYAML's own
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Strict(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A section of deepkb.yml: unknown keys are refused. Checked when read (`validated`); a value set in
    code is trusted as it is."""


NonNegative = Annotated[float, Meta(ge=0)]
Positive = Annotated[float, Meta(gt=0)]


class RepoEntry(_Strict):
    source: str
    """A https URL, `git@host:owner/repo`, or a local path (relative to the knowledge-base root)."""
    request: str | list[str] | None = None
    """Questions asked of the repository (one string or a list): each is answered on a page of its own
    (answers/<slug>.md), beside the general pages, and answered again at every refresh."""
    notes: str | None = None
    """The maintainer's own markdown (a file, relative to the knowledge-base root and inside it), shown on the
    repository's index and kept across every refresh."""
    refresh_days: Annotated[int, Meta(ge=0)] | None = None
    """Not used for repositories (they refresh when their remote HEAD moves); kept for symmetry with topics."""
    subsystems: dict[
        Annotated[str, Meta(min_length=1, max_length=80)], Annotated[list[str], Meta(min_length=1)]
    ] = msgspec.field(default_factory=dict)
    """The maintainer's pinned part of the plan: subsystem name → files or globs (`src/pkg/adapters.py`,
    `binding/*`). Pinned files form those subsystems, first and as named; the rest is planned as usual."""
    entry_points: list[str] = msgspec.field(default_factory=list)
    """Where the main flows start, e.g. `[requests.api.request, src/requests/sessions.py:Session.send]`
    (module.symbol, path:symbol, or a symbol's name); by default, what the README's examples call."""


class TopicEntry(_Strict):
    topic: str
    """The topic text to research."""
    sources: list[str] = msgspec.field(default_factory=lambda: ["local"])
    """Search providers, e.g. `local:docs`, `arxiv`, `tavily`. `local:PATH` searches a folder of documents."""
    lang: Literal["en", "zh"] | None = None
    """Language of the analysis and report; by default the topic's own ("zh" for a question written in
    Chinese)."""
    refresh_days: Annotated[int, Meta(ge=0)] = 7
    """`deepkb refresh` re-researches the topic once its last run is older than this many days (0: never)."""
    verify: bool = True
    """Run the verification loop after the report."""
    parallel: bool = True
    """Run independent research steps concurrently."""
    slug: str | None = None
    """Stable URL slug; defaults to one derived from the topic text."""


class ModelPrice(_Strict):
    """USD per million tokens of one model (list prices; a batch is billed at `llm.batch_discount` of them)."""

    input: NonNegative
    output: NonNegative
    cache_write: NonNegative | None = None
    """Writing the prompt cache; None: 1.25 × input (Anthropic's 5-minute cache)."""
    cache_read: NonNegative | None = None
    """Reading the prompt cache; None: 0.1 × input."""


def _default_prices() -> dict[str, ModelPrice]:
    # keys match a model name exactly or as its longest prefix; a model matching none is priced at 0
    table = {
        "claude-opus": (5.0, 25.0),
        "claude-sonnet": (3.0, 15.0),
        "claude-haiku": (1.0, 5.0),
        "gpt-4o-mini": (0.15, 0.60),
        "gpt-4o": (2.5, 10.0),
        "offline": (0.0, 0.0),
    }
    return {name: ModelPrice(input=i, output=o) for name, (i, o) in table.items()}


_KEY_VARIABLE = re.compile(r"[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN)")


class LLMConfig(_Strict):
    provider: Literal["anthropic", "openai", "offline"] | None = None
    """None: `anthropic` when ANTHROPIC_API_KEY is set, else `offline`. Overridden by DEEPKB_PROVIDER / --provider."""
    model: str | None = None
    """Default model for every stage; None picks the provider's default."""
    models: dict[str, str] = msgspec.field(default_factory=dict)
    """Per-stage model overrides, e.g. {architect: a bigger model, analyze: a faster one}."""
    base_url: str | None = None
    """OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp server); env OPENAI_BASE_URL also works."""
    api_key_env: str | None = None
    """Name of the environment variable that holds the key, when not the provider's usual one. It must end in
    _API_KEY, _KEY or _TOKEN: the variable's value is sent to llm.base_url, so a knowledge base's config can
    never name another secret of the machine (a database password, a deploy credential) to send there."""
    max_concurrent: Annotated[int, Meta(ge=1, le=64)] = 4
    """How many LLM calls run at once."""
    timeout: Positive = 120.0
    """Seconds for one LLM call in total: connecting, every read and the retries (a trickling server is cut off).
    A cap: the idle deadline (`idle_timeout`) is what ends a stalled call."""
    idle_timeout: Positive = 60.0
    """Seconds a streaming call may wait for its next piece of answer (the first one included) before it is
    given up as stalled: a slow model that keeps producing is never cut off by it."""
    context_window: Annotated[int, Meta(ge=512)] | None = None
    """The model's context window in tokens (prompt and answer together). None: asked of the server where it
    tells (llama.cpp `/props`, an OpenAI-compatible model listing, Ollama `/api/show`), else known per hosted
    model (Claude: 200,000), else 8,192. Every prompt is fitted to it before it is sent."""
    max_retries: Annotated[int, Meta(ge=0, le=10)] = 3
    """Retries on 408/409/429/5xx answers and failed connections, with backoff (within llm.timeout)."""
    max_output_tokens: Annotated[int, Meta(ge=16)] = 4096
    """Upper bound on tokens per answer."""
    batch: bool = False
    """Send the run's model calls through Anthropic's Message Batches API (half price, answers within hours)."""
    batch_poll_max: Positive = 600.0
    """Longest wait in seconds between two polls of a pending batch (the wait doubles up to this)."""
    batch_discount: Annotated[float, Meta(ge=0, le=1)] = 0.5
    """Fraction of the list price a batched call costs."""
    prices: dict[str, ModelPrice] = msgspec.field(default_factory=_default_prices)
    """USD per million tokens by model name (or name prefix), for the cost figures of every run; entries
    given in deepkb.yml are added to (or replace) the defaults."""

    def __post_init__(self) -> None:
        if self.api_key_env is not None and not _KEY_VARIABLE.fullmatch(self.api_key_env):
            raise ValueError(
                "api_key_env: must name an environment variable ending in _API_KEY, _KEY or _TOKEN"
            )
        self.prices = {**_default_prices(), **self.prices}


def is_local_url(url: str | None) -> bool:
    """Whether `url` names a server on this machine or the local network: a loopback or private IP literal,
    `localhost`, a one-label host name (`ollama` in a compose file) or a `.local`/`.lan`/`.internal` name.
    Names are not resolved: reading the config never touches the network."""
    host = (urlsplit(url).hostname or "") if url else ""
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host or host == "localhost" or host.endswith(_LOCAL_SUFFIXES)
    return address.is_loopback or address.is_private or address.is_link_local


_LOCAL_SUFFIXES = (".localhost", ".local", ".lan", ".internal", ".home.arpa")

LOCAL_SERVER_DEFAULTS: dict[tuple[str, str], float] = {
    ("llm", "max_concurrent"): 1,
    ("llm", "timeout"): 3600.0,
    ("llm", "idle_timeout"): 300.0,
    ("repo", "idle_timeout"): 3600.0,
    ("repo", "total_timeout"): 0.0,
    ("topic", "idle_timeout"): 3600.0,
    ("topic", "total_timeout"): 0.0,
}
"""Defaults when `llm.base_url` is a local server (see `is_local_url`): it answers one call at a time, and a
model on a CPU can take minutes per answer, so only the idle deadline (no token for 5 minutes) ends a call
and the run waits for it. A value set in deepkb.yml is kept."""


class RepoResearchConfig(_Strict):
    idle_timeout: NonNegative = 120.0
    """Seconds without progress before a repository run is stopped (0 disables)."""
    total_timeout: NonNegative = 180.0
    """Seconds for a whole repository run (0 disables)."""
    remove_comments: bool = False
    """Strip comments when packing code for the LLM."""
    remove_empty_lines: bool = False
    """Strip blank lines when packing code for the LLM."""
    compress: bool = False
    """Keep only signatures, docstrings and structure when packing."""
    max_file_bytes: Annotated[int, Meta(ge=1024)] = 1_000_000
    """Files larger than this are listed in the map but not read."""
    allow_private_hosts: bool = False
    """Let remote repository URLs reach hosts that resolve to loopback, private, link-local, CGNAT or cloud
    metadata addresses (self-hosted git on your own network, or a proxy where DNS does not resolve). Off:
    such hosts are refused before any git process starts."""


class TopicResearchConfig(_Strict):
    idle_timeout: NonNegative = 600.0
    """Seconds without a research step finishing before a topic run is stopped (0 disables)."""
    total_timeout: NonNegative = 1800.0
    """Seconds for a whole topic run (0 disables); finished steps are kept for `deepkb topic resume`."""


class SiteConfig(_Strict):
    title: str = "deepkb knowledge base"
    """Site name shown in the header."""
    description: str = "Research on repositories and topics, generated by deepkb."
    """Home page description."""
    site_url: str | None = None
    """Public URL of the published site (GitHub Pages), e.g. https://example.org/kb/."""
    repo_url: str | None = None
    """The knowledge base's own repository, for edit/source links, e.g. https://github.com/me/kb."""
    edit_uri: str | None = None
    """Path of site_src in repo_url for edit links, e.g. edit/main/site_src/."""
    recent: Annotated[int, Meta(ge=1, le=100)] = 10
    """How many recently updated entries the home page lists."""

    def __post_init__(self) -> None:
        # MkDocs rejects bad addresses with "Aborted with a configuration error!" and no reason; say which and why
        for key in ("site_url", "repo_url"):
            value = getattr(self, key)
            parts = urlsplit(value) if value is not None else None
            if parts is not None and (
                parts.scheme not in ("http", "https")
                or not parts.netloc
                or any(_unsafe_in_url(c) for c in value)
            ):
                raise ValueError(
                    f"{key}: must be a full http(s) address such as https://example.org/kb/"
                    " (no spaces, quotes or angle brackets)"
                )
        if self.edit_uri is not None:
            parts = urlsplit(self.edit_uri)
            if (
                parts.scheme
                or parts.netloc
                or ".." in self.edit_uri.split("/")
                or any(c.isspace() for c in self.edit_uri)
            ):
                raise ValueError("edit_uri: must be a path inside repo_url such as edit/main/site_src/")


def _unsafe_in_url(char: str) -> bool:
    # the theme prints these addresses into attributes and scripts: a quote or bracket would end them
    return char.isspace() or char in "\"'<>`\\{}|^" or not char.isprintable()


class CIConfig(_Strict):
    research_jobs: Annotated[int, Meta(ge=1, le=64)] = 3
    """How many parallel research jobs the nightly workflow runs (`deepkb shards --matrix`)."""


class Config(_Strict):
    repos: list[RepoEntry] = msgspec.field(default_factory=list)
    """Repositories to research (`- .` is shorthand for `- {source: .}`)."""
    topics: list[TopicEntry] = msgspec.field(default_factory=list)
    """Topics to research (a plain string is shorthand for `{topic: ...}`)."""
    llm: LLMConfig = msgspec.field(default_factory=LLMConfig)
    repo: RepoResearchConfig = msgspec.field(default_factory=RepoResearchConfig)
    topic: TopicResearchConfig = msgspec.field(default_factory=TopicResearchConfig)
    site: SiteConfig = msgspec.field(default_factory=SiteConfig)
    ci: CIConfig = msgspec.field(default_factory=CIConfig)


Section = TypeVar("Section", bound=_Strict)


def validated(kind: type[Section], data: Any, source: str = "deepkb.yml") -> Section:
    """`data` as read from YAML (or given in code) checked against `kind`: its keys, types and bounds.
    A mismatch is a ConfigError naming `source` and the key, quoting the value only when it is short."""
    if kind is Config and isinstance(data, dict):
        data = _expand_shorthands(data)
    try:
        section = msgspec.convert(data, kind, strict=False)
    except msgspec.ValidationError as exc:
        raise ConfigError(_describe(str(exc), data, source, kind)) from None
    if isinstance(section, Config) and isinstance(data, dict):
        _apply_local_defaults(section, data)
    return section


def _apply_local_defaults(config: Config, data: dict[str, object]) -> None:
    """LOCAL_SERVER_DEFAULTS for the keys deepkb.yml left out, when its model server is local (an
    `anthropic` base URL is a proxy to the hosted API, not a local model)."""
    if config.llm.provider == "anthropic" or not is_local_url(config.llm.base_url):
        return
    for (name, key), value in LOCAL_SERVER_DEFAULTS.items():
        given = data.get(name)
        if not (isinstance(given, dict) and key in given):
            section = getattr(config, name)
            setattr(section, key, type(getattr(section, key))(value))


def _expand_shorthands(data: dict[str, object]) -> dict[str, object]:
    """`repos: [.]` means `repos: [{source: .}]`, `topics: [text]` means `topics: [{topic: text}]`."""
    found = dict(data)
    for key, field_name in (("repos", "source"), ("topics", "topic")):
        items = found.get(key)
        if isinstance(items, list):
            found[key] = [{field_name: item} if isinstance(item, str) else item for item in items]
    return found


def load_config(path: Path) -> Config:
    """Read and validate deepkb.yml; a missing file is an empty config."""
    if not path.exists():
        return Config()
    data = load_bounded_yaml(_read_text(path), str(path))
    if data is None:
        return Config()
    if not isinstance(data, dict):
        raise ConfigError(
            f"{path}: the top level must be a mapping of keys (repos, topics, llm, repo, topic, site)"
        )
    return validated(Config, data, str(path))


def local_folder(option: str, root: Path) -> Path:
    """The folder `local:OPTION` searches: OPTION with `~` expanded, relative to the knowledge-base root."""
    raw = Path(option).expanduser()
    return raw if raw.is_absolute() else root / raw


def check_local_folders(sources: list[str], root: Path, where: str) -> None:
    """A `local:PATH` among `sources` whose folder does not exist is one ConfigError naming `where`, raised
    before any research starts (else the run would warn at every step and research nothing)."""
    for spec in sources:
        name, _, option = spec.strip().partition(":")
        if name == "local" and option and not local_folder(option, root).is_dir():
            raise ConfigError(
                f"{where}: the folder of {spec.strip()!r} does not exist",
                hint=f"looked for {local_folder(option, root)}",
            )


def check_config_folders(config: Config, root: Path, source: str = "deepkb.yml") -> None:
    """`check_local_folders` for every topic of deepkb.yml, naming the key (`topics.0.sources`)."""
    for number, entry in enumerate(config.topics):
        check_local_folders(entry.sources, root, f"{source}: 'topics.{number}.sources'")


def load_bounded_yaml(text: str, source: str, *, foreign_tags: bool = False) -> Any:
    """YAML `text` (deepkb.yml, or a page's frontmatter) loaded within MAX_NESTING and MAX_VALUES: a deep or
    alias-bomb document is one ConfigError line naming `source`, never a RecursionError or gigabytes.

    `foreign_tags` is for a project's own YAML (a repository's mkdocs.yml carries `!!python/name:` and `!ENV`
    tags): any tag YAML itself does not define is read as the plain value it tags, never constructed."""
    if _bracket_depth(text) > MAX_NESTING:
        raise _too_deep(source)
    try:
        _check_nesting(text, source)
        loader = (_ForeignTagsLoader if foreign_tags else _LOADER)(text)
        try:
            root = loader.get_single_node()  # composed once, measured, then constructed from the same nodes
            if root is None:
                return None
            if _measure(root, 0, {})[0] > MAX_VALUES:
                raise ConfigError(
                    f"{source}: more than {MAX_VALUES} values once its aliases (*name) are expanded",
                    hint="write the values out, or reuse fewer anchors",
                )
            return loader.construct_document(root)
        finally:
            loader.dispose()
    except _TooDeep:
        raise _too_deep(source) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{source}{where}: not valid YAML", hint="check indentation and quoting") from None


class _ForeignTagsLoader(_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader, reading every tag it does not know as the plain scalar, list or mapping it tags."""


def _tag_as_value(loader: Any, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)


_ForeignTagsLoader.add_multi_constructor("", _tag_as_value)


def _read_text(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES // 1_000_000} MB; a deepkb.yml is a few KB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(f"{path} line {line}: not valid UTF-8", hint="save the file as UTF-8") from None


def _too_deep(source: str) -> ConfigError:
    return ConfigError(f"{source}: lists and mappings nested more than {MAX_NESTING} levels deep")


def _bracket_depth(text: str) -> int:
    """Deepest [ / { nesting, counted on the raw text: PyYAML's scanner is quadratic in it, so this runs first.

    Brackets inside quoted strings count too; no real deepkb.yml comes near the limit that way."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
    return deepest


def _check_nesting(text: str, source: str) -> None:
    # The event stream is flat, so a 5,000-level file is measured without the recursion that
    # composing it would need (which ends in RecursionError).
    depth = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                raise _too_deep(source)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


class _TooDeep(Exception):
    pass


def _measure(node: yaml.Node, depth: int, seen: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """(values, levels) of `node` with every alias expanded; each node is walked once and never deeper than
    MAX_NESTING, so anchors nested inside anchors cannot build a depth the walk (or the validation) cannot take."""
    if depth > MAX_NESTING:
        raise _TooDeep
    if id(node) in seen:
        size, height = seen[id(node)]
        if depth + height > MAX_NESTING:
            raise _TooDeep
        return size, height
    seen[id(node)] = (MAX_VALUES + 1, 0)  # reached again while being measured: a cycle, too big
    children: list[yaml.Node] = []
    if isinstance(node, yaml.SequenceNode):
        children = list(node.value)
    elif isinstance(node, yaml.MappingNode):
        children = [part for pair in node.value for part in pair]
    size, height = 1, 0
    for child in children:
        child_size, child_height = _measure(child, depth + 1, seen)
        size, height = min(size + child_size, MAX_VALUES + 1), max(height, child_height)
    seen[id(node)] = (size, height + 1)
    return seen[id(node)]


_ERROR = re.compile(r"^(?P<message>.*?)(?: - at `\$(?P<where>[^`]*)`)?$", re.DOTALL)
_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]|\[\.\.\.\]")  # `[...]`: a value of a mapping, its key not given
_NAMED = re.compile(r"^Object (?:contains unknown|missing required) field `(?P<name>[^`]+)`$")
_OWN = re.compile(r"^(?P<name>[a-z_]+): (?P<reason>must .*)$", re.DOTALL)  # a section's own check


def _describe(error: str, data: Any, source: str, kind: type = object) -> str:
    """One line from msgspec's error ("Expected `int` >= 1 - at `$.llm.max_concurrent`"): the key as
    written in deepkb.yml (`llm.max_concurrent`, `topics.0.topic`), what is wrong, and the value given."""
    parsed = _ERROR.match(error)
    message, where = (parsed["message"], parsed["where"] or "") if parsed else (error, "")
    parts: list[str | int] = [
        m[1] if m[1] is not None else int(m[2]) if m[2] is not None else "*" for m in _PART.finditer(where)
    ]
    named, own = _NAMED.match(message), _OWN.match(message)
    if named or own:
        parts.append((named or own)["name"])  # type: ignore[index]
    key = ".".join(str(part) for part in parts) or "(top level)"
    if message.startswith("Object contains unknown field"):
        near = _near_key(kind, parts, lambda field: True)
        hint = f": did you mean `{near}`?" if near else " (remove it or check its spelling)"
        return f"{source}: unknown key '{key}'{hint}"
    if message.startswith("Object missing required field"):
        return f"{source}: '{key}' is required"
    given = _value_at(data, parts)
    near = _near_key(kind, parts, lambda field: _accepts_list(field)) if isinstance(given, list) else None
    if near and not _accepts_list(_field_type(kind, parts)):
        return f"{source}: '{key}': did you mean `{near}`? (`{parts[-1]}` takes settings, not a list)"
    reason = own["reason"] if own else _reason(message, _choices(kind, parts))
    got = "" if "*" in parts else f" (got {_shown(_value_at(data, parts))})"  # "*": which key is not said
    return f"{source}: '{key}': {reason}{got}"


def _reason(message: str, choices: tuple[str, ...] = ()) -> str:
    """msgspec's wording made into ours: "Expected `int` >= 1" → "must be an integer ≥ 1"."""
    kinds = {
        "int": "an integer",
        "float": "a number",
        "str": "text",
        "bool": "true or false",
        "array": "a list",
        "object": "a mapping",
        "null": "empty",
    }
    expected = re.match(r"Expected `([^`]+)`(.*?)(?:, got `[^`]+`)?$", message)
    if expected:
        wanted = " or ".join(kinds.get(k.strip(), k.strip()) for k in expected[1].split("|"))
        bound = expected[2].strip().replace(">=", "≥").replace("<=", "≤")
        return f"must be {wanted}{' ' + bound if bound else ''}"
    if message.startswith("Invalid enum value") and choices:
        return "must be one of " + ", ".join(choices)
    return message


def _choices(kind: Any, parts: list[str | int]) -> tuple[str, ...]:
    """The values a Literal-typed key allows, found by walking `kind`'s fields along `parts`."""
    for part in parts:
        hints = typing.get_type_hints(kind, include_extras=True) if isinstance(kind, type) else {}
        kind = hints.get(part) if isinstance(part, str) else kind
        while typing.get_origin(kind) in (Annotated, list, dict, types.UnionType, typing.Union):
            kind = next((a for a in typing.get_args(kind)[::-1] if a is not type(None)), None)
    return tuple(str(a) for a in typing.get_args(kind)) if typing.get_origin(kind) is Literal else ()


def _field_type(kind: Any, parts: list[str | int]) -> Any:
    """The declared type of the key at `parts`, walking `kind`'s fields (None when a part is not a field)."""
    for part in parts:
        while typing.get_origin(kind) in (Annotated, list, dict, types.UnionType, typing.Union):
            kind = next((a for a in typing.get_args(kind)[::-1] if a is not type(None)), None)
        if isinstance(part, int):
            continue
        hints = typing.get_type_hints(kind, include_extras=True) if isinstance(kind, type) else {}
        kind = hints.get(part)
    return kind


def _accepts_list(kind: Any) -> bool:
    while typing.get_origin(kind) is Annotated:
        kind = typing.get_args(kind)[0]
    return typing.get_origin(kind) is list


def _near_key(kind: Any, parts: list[str | int], fits: typing.Callable[[Any], bool]) -> str | None:
    """The known key closest in spelling to the last of `parts` among its siblings that `fits` (difflib):
    `repo:` holding a list is most likely `repos:`."""
    if not parts or not isinstance(parts[-1], str):
        return None
    parent = _field_type(kind, parts[:-1])
    hints = typing.get_type_hints(parent, include_extras=True) if isinstance(parent, type) else {}
    siblings = [name for name, field in hints.items() if name != parts[-1] and fits(field)]
    close = difflib.get_close_matches(parts[-1], siblings, n=1, cutoff=0.75)
    return close[0] if close else None


def _value_at(data: Any, parts: list[str | int]) -> Any:
    for part in parts:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


def _shown(value: Any) -> str:
    """The offending value as the error quotes it: short scalars as written, containers by kind only."""
    if isinstance(value, dict):
        return f"a mapping of {len(value)} keys"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
