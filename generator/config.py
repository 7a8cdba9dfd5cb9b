"""The deepkb.yml model: what to research and how. Unknown keys and wrong types fail with the key's name.

deepkb.yml is read within bounds (size, nesting depth, values after alias expansion), so a hostile or broken
file costs milliseconds and gives one line, never a traceback, a RecursionError or gigabytes of memory.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import ConfigError

MAX_CONFIG_BYTES = 1_000_000
"""A deepkb.yml larger than this is refused unread."""
MAX_NESTING = 64
"""Deepest nesting of lists and mappings accepted in deepkb.yml."""
MAX_VALUES = 100_000
"""Most values deepkb.yml may hold once its aliases are expanded (a 1 KB alias bomb expands to billions)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class RepoEntry(_Strict):
    source: str
    """A https URL, `git@host:owner/repo`, or a local path (relative to the knowledge-base root)."""
    request: str | None = None
    """Optional research question; focuses the shards on the files that answer it."""
    refresh_days: int | None = Field(default=None, ge=0)
    """Not used for repositories (they refresh when their remote HEAD moves); kept for symmetry with topics."""


class TopicEntry(_Strict):
    topic: str
    """The topic text to research."""
    sources: list[str] = Field(default_factory=lambda: ["local"])
    """Search providers, e.g. `local:docs`, `arxiv`, `tavily`. `local:PATH` searches a folder of documents."""
    lang: Literal["en", "zh"] = "en"
    """Language of the analysis and report."""
    refresh_days: int = Field(default=7, ge=0)
    """`deepkb refresh` re-researches the topic once its last run is older than this many days (0: never)."""
    verify: bool = True
    """Run the verification loop after the report."""
    parallel: bool = True
    """Run independent research steps concurrently."""
    slug: str | None = None
    """Stable URL slug; defaults to one derived from the topic text."""


class ModelPrice(_Strict):
    """USD per million tokens of one model (list prices; a batch is billed at `llm.batch_discount` of them)."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cache_write: float | None = Field(default=None, ge=0)
    """Writing the prompt cache; None: 1.25 × input (Anthropic's 5-minute cache)."""
    cache_read: float | None = Field(default=None, ge=0)
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


class LLMConfig(_Strict):
    provider: Literal["anthropic", "openai", "offline"] | None = None
    """None: `anthropic` when ANTHROPIC_API_KEY is set, else `offline`. Overridden by DEEPKB_PROVIDER / --provider."""
    model: str | None = None
    """Default model for every stage; None picks the provider's default."""
    models: dict[str, str] = Field(default_factory=dict)
    """Per-stage model overrides, e.g. {architect: a bigger model, analyze: a faster one}."""
    base_url: str | None = None
    """OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp server); env OPENAI_BASE_URL also works."""
    api_key_env: str | None = None
    """Name of the environment variable that holds the key, when not the provider's usual one. It must end in
    _API_KEY, _KEY or _TOKEN: the variable's value is sent to llm.base_url, so a knowledge base's config can
    never name another secret of the machine (a database password, a deploy credential) to send there."""
    max_concurrent: int = Field(default=4, ge=1, le=64)
    """How many LLM calls run at once."""
    timeout: float = Field(default=120.0, gt=0)
    """Seconds for one LLM call in total: connecting, every read and the retries (a trickling server is cut off)."""
    max_retries: int = Field(default=3, ge=0, le=10)
    """Retries on 408/409/429/5xx answers and failed connections, with backoff (within llm.timeout)."""
    max_output_tokens: int = Field(default=4096, ge=16)
    """Upper bound on tokens per answer."""
    batch: bool = False
    """Send the run's model calls through Anthropic's Message Batches API (half price, answers within hours)."""
    batch_poll_max: float = Field(default=600.0, gt=0)
    """Longest wait in seconds between two polls of a pending batch (the wait doubles up to this)."""
    batch_discount: float = Field(default=0.5, ge=0, le=1)
    """Fraction of the list price a batched call costs."""
    prices: dict[str, ModelPrice] = Field(default_factory=_default_prices)
    """USD per million tokens by model name (or name prefix), for the cost figures of every run; entries
    given in deepkb.yml are added to (or replace) the defaults."""

    @field_validator("api_key_env")
    @classmethod
    def _key_variable(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN)", value):
            raise ValueError("must name an environment variable ending in _API_KEY, _KEY or _TOKEN")
        return value

    @field_validator("prices", mode="after")
    @classmethod
    def _over_defaults(cls, value: dict[str, ModelPrice]) -> dict[str, ModelPrice]:
        return {**_default_prices(), **value}


class RepoResearchConfig(_Strict):
    idle_timeout: float = Field(default=120.0, ge=0)
    """Seconds without progress before a repository run is stopped (0 disables)."""
    total_timeout: float = Field(default=180.0, ge=0)
    """Seconds for a whole repository run (0 disables)."""
    remove_comments: bool = False
    """Strip comments when packing code for the LLM."""
    remove_empty_lines: bool = False
    """Strip blank lines when packing code for the LLM."""
    compress: bool = False
    """Keep only signatures, docstrings and structure when packing."""
    max_file_bytes: int = Field(default=1_000_000, ge=1024)
    """Files larger than this are listed in the map but not read."""
    allow_private_hosts: bool = False
    """Let remote repository URLs reach hosts that resolve to loopback, private, link-local, CGNAT or cloud
    metadata addresses (self-hosted git on your own network, or a proxy where DNS does not resolve). Off:
    such hosts are refused before any git process starts."""


class TopicResearchConfig(_Strict):
    idle_timeout: float = Field(default=600.0, ge=0)
    """Seconds without a research step finishing before a topic run is stopped (0 disables)."""
    total_timeout: float = Field(default=1800.0, ge=0)
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

    @field_validator("site_url", "repo_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        # MkDocs rejects these with "Aborted with a configuration error!" and no reason; say which and why
        if value is None:
            return value
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in value):
            raise ValueError("must be a full http(s) address such as https://example.org/kb/")
        return value

    @field_validator("edit_uri")
    @classmethod
    def _relative_path(cls, value: str | None) -> str | None:
        if value is None:
            return value
        parts = urlsplit(value)
        if parts.scheme or parts.netloc or ".." in value.split("/") or any(c.isspace() for c in value):
            raise ValueError("must be a path inside repo_url such as edit/main/site_src/")
        return value

    recent: int = Field(default=10, ge=1, le=100)
    """How many recently updated entries the home page lists."""


class CIConfig(_Strict):
    research_jobs: int = Field(default=3, ge=1, le=64)
    """How many parallel research jobs the nightly workflow runs (`deepkb shards --matrix`)."""


class Config(_Strict):
    repos: list[RepoEntry] = Field(default_factory=list)
    """Repositories to research."""
    topics: list[TopicEntry] = Field(default_factory=list)
    """Topics to research."""
    llm: LLMConfig = Field(default_factory=LLMConfig)
    repo: RepoResearchConfig = Field(default_factory=RepoResearchConfig)
    topic: TopicResearchConfig = Field(default_factory=TopicResearchConfig)
    site: SiteConfig = Field(default_factory=SiteConfig)
    ci: CIConfig = Field(default_factory=CIConfig)

    @field_validator("repos", mode="before")
    @classmethod
    def _repo_shorthand(cls, value: Any) -> Any:
        # `- .` is shorthand for `- {source: .}`
        if isinstance(value, list):
            return [{"source": item} if isinstance(item, str) else item for item in value]
        return value

    @field_validator("topics", mode="before")
    @classmethod
    def _topic_shorthand(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"topic": item} if isinstance(item, str) else item for item in value]
        return value


def load_config(path: Path) -> Config:
    """Read and validate deepkb.yml; a missing file is an empty config."""
    if not path.exists():
        return Config()
    data = read_yaml(path)
    if data is None:
        return Config()
    if not isinstance(data, dict):
        raise ConfigError(
            f"{path}: the top level must be a mapping of keys (repos, topics, llm, repo, topic, site)"
        )
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, path)) from None


def read_yaml(path: Path) -> Any:
    """deepkb.yml's data, read within MAX_CONFIG_BYTES, MAX_NESTING and MAX_VALUES; ConfigError otherwise."""
    text = _read_text(path)
    if _bracket_depth(text) > MAX_NESTING:
        raise _too_deep(path)
    try:
        _check_nesting(text, path)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        if root is not None and _measure(root, 0, {})[0] > MAX_VALUES:
            raise ConfigError(
                f"{path}: more than {MAX_VALUES} values once its aliases (*name) are expanded",
                hint="write the values out, or reuse fewer anchors",
            )
        return yaml.safe_load(text)
    except _TooDeep:
        raise _too_deep(path) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}{where}: not valid YAML", hint="check indentation and quoting") from None


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


def _too_deep(path: Path) -> ConfigError:
    return ConfigError(f"{path}: lists and mappings nested more than {MAX_NESTING} levels deep")


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


def _check_nesting(text: str, path: Path) -> None:
    # The event stream is flat, so a 5,000-level file is measured without the recursion that
    # composing it would need (which ends in RecursionError).
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                raise _too_deep(path)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


class _TooDeep(Exception):
    pass


def _measure(node: yaml.Node, depth: int, seen: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """(values, levels) of `node` with every alias expanded; each node is walked once and never deeper than
    MAX_NESTING, so anchors nested inside anchors cannot build a depth the walk (or pydantic) cannot take."""
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


def _describe(exc: ValidationError, path: Path) -> str:
    first = exc.errors()[0]
    key = ".".join(str(part) for part in first["loc"])
    if first["type"] == "extra_forbidden":
        return f"{path}: unknown key '{key}' (remove it or check its spelling)"
    if first["type"] == "missing":
        return f"{path}: '{key}' is required"
    return f"{path}: '{key}': {first['msg'].removeprefix('Value error, ')} (got {_shown(first.get('input'))})"


def _shown(value: Any) -> str:
    """The offending value as the error quotes it: short scalars as written, containers by kind only."""
    if isinstance(value, dict):
        return f"a mapping of {len(value)} keys"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
