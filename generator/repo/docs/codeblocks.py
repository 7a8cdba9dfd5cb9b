"""What a code block of the docs holds: commands that install or build the project, what a program printed,
badge markup to paste, or code that uses the project."""

from __future__ import annotations

import re

from generator.documents.model import Block
from generator.repo.docs.model import DocPassage


def shows_code(passage: DocPassage) -> bool:
    """A usage example in a programming language, not shell commands (an unnamed block is either: commands
    when each of its lines runs a tool)."""
    if passage.kind != "code":
        return False
    if passage.language == "":
        return not install_only(_ENV_PREFIX.sub("", passage.text))
    return passage.language.lower() not in SHELL


# a line a program printed: a log line (a timestamp, a level: gunicorn's "2013-06-29 06:26:55 [20682] [INFO]
# Handling signal: hup", fastify's `{"level":30,"time":…}`, zinx's "2023/03/09 18:39:49 [INFO]…") or a start-up
# banner's block letters (zinx's, dynaconf's "██████╗"); never a file tree's `├──`
_OUTPUT_LINE = re.compile(
    r"^\s*(?:\d{4}[-/]\d\d[-/]\d\d|\d\d:\d\d:\d\d|\[?(?:INFO|DEBUG|WARN(?:ING)?|ERROR|TRACE|FATAL)\]"
    r"|(?:time|level|ts)=|\{\"(?:level|time|msg|ts)\"|.*[█▀▄▓░╗╔╝╚═║])"
)
_OUTPUT_LANGUAGES = frozenset(
    {"", "bash", "sh", "shell", "console", "text", "txt", "log", "plaintext", "output"}
)
# a block this much of whose lines a program printed shows a run, not how to use it (zinx's start-up output is
# half log lines, half the settings it prints): a command never looks like a log line
OUTPUT_SHARE, OUTPUT_LINES = 0.4, 3


def program_output(block: Block) -> bool:
    """A shell or plain block that is what a program printed, not what to type: zinx's README shows its
    server's banner and start-up log under "Zinx-Server" (the example before it is the code)."""
    if block.language.lower() not in _OUTPUT_LANGUAGES:
        return False
    lines = [line for line in block.text.splitlines() if line.strip()]
    printed = sum(bool(_OUTPUT_LINE.match(line)) for line in lines)
    return printed >= OUTPUT_LINES and printed >= OUTPUT_SHARE * len(lines)


# a line that installs, fetches or builds the project: a package manager's or git's command, or any `install`
INSTALL_LINE = re.compile(
    r"(?:sudo\s+)?(?:(?:pip3?|pipx|uv|npm|yarn|pnpm|bun|go|cargo|dotnet|brew|apt|apt-get|port|pacman|"
    r"xbps-install|nix-shell|nix-env|pkg|eopkg|choco|scoop|winget|snap|dnf|yum|zypper|apk|gem|composer|conda|"
    r"mamba|git|cd|docker|npx|mkdir|\./gradlew|gradlew|gradle|mvn|\./mvnw|mvnw|cmake|make|meson|ninja|bazel|sbt)"
    r"\b|\S+\s+(?:\S+\s+)?install\b)"  # a build too: mockito's `./gradlew build`, libuv's `cmake ..`, `make`
)
# a build file's dependency on the project: Maven's `<dependency>` and its coordinates, a Gradle
# `implementation("io.javalin:javalin:7.2.3")`, an sbt `libraryDependencies += …` (gson, jsoup, moshi,
# javapoet, commons-cli, jackson-core and javalin show them first in their READMEs)
_DEPENDENCY_LINE = re.compile(
    r"</?(?:dependenc(?:y|ies)|groupId|artifactId|version|scope|type|classifier|optional)>"
    r"|(?:implementation|api|compile|compileOnly|runtimeOnly|testImplementation|annotationProcessor|kapt|ksp)"
    r"\s*[(\"']|dependencies\s*\{|\}$|libraryDependencies\s*\+\+?="
)
SHELL = frozenset(
    {"", "bash", "sh", "shell", "console", "zsh", "fish", "powershell", "ps1", "pwsh", "bat", "cmd"}
)
_ENV_PREFIX = re.compile(
    r"^[ \t]*(?:[A-Z_][A-Z0-9_]*=\S*[ \t]+)+", re.MULTILINE
)  # `RUST_LOG=debug cargo run`
_COMMENT_LINE = re.compile(r"^(?:#|//|rem\b|::)", re.IGNORECASE)
_CONTINUED = re.compile(r"[ \t]*(?:\\|`|\^)[ \t]*\r?\n")  # a shell's, PowerShell's, cmd's line continuation


def install_only(code: str) -> bool:
    """Whether a code block only installs, fetches or builds the project (comment lines aside): one per
    package manager is a list of ways in, not an example of use. A command continued over lines is one line
    (grpc-gateway's `go install \\` and the four packages after it)."""
    code = _CONTINUED.sub(" ", code)
    lines = [ln.strip().removeprefix("$").strip() for ln in code.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not _COMMENT_LINE.match(ln)]
    return bool(lines) and (
        all(INSTALL_LINE.match(ln) for ln in lines) or all(_DEPENDENCY_LINE.match(ln) for ln in lines)
    )


# a line of image markup: a badge to paste into one's own README (copier's "Show your support": the badge as
# Markdown, as reST with its options, as HTML) is no use of the project
_IMAGE_LINE = re.compile(
    r"^\s*(?:\[?!\[[^\]]*\]\([^)]*\)\]?(?:\([^)]*\))?|\.\. (?:image|figure|\|[^|]+\| image)::.*"
    r"|:(?:target|alt|width|height|align|scale):.*|(?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*</a>)?|</?(?:a|p|div)\b[^>]*>)\s*$",
    re.IGNORECASE,
)


def badge_markup(code: str) -> bool:
    """Whether a code block is only image markup: a badge or a logo to copy, not code that uses the project."""
    lines = [line for line in code.splitlines() if line.strip()]
    return bool(lines) and all(_IMAGE_LINE.match(line) for line in lines)
