"""The one way deepkb runs git: safe configuration, a scrubbed environment, errors as one clear line.

A fixed argument vector (callers put user text only after `--` or where git cannot read it as an option),
an environment without our secrets or inherited repository redirections, no terminal prompts, no
user-chosen transports, no submodules, no hooks, no fsmonitor and no symlinks materialised on checkout.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from generator.errors import ResearchError

_SECRET_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET", "_KEY", "_PASSWORD")
GIT_TIMEOUT = 900.0  # seconds; a clone of a large repository over a slow link


# inherited variables that would point git at another repository or inject configuration
_GIT_REDIRECTS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_ALLOW_PROTOCOL",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
)


def git_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every git process gets: our secrets removed, prompts and user transports off."""
    env = {
        k: v
        for k, v in (os.environ if environ is None else environ).items()
        if not k.upper().endswith(_SECRET_SUFFIXES)
        and k not in _GIT_REDIRECTS
        and not k.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))
    }
    env.update(
        GIT_PROTOCOL_FROM_USER="0",
        GIT_TERMINAL_PROMPT="0",
        GCM_INTERACTIVE="never",
        GIT_LFS_SKIP_SMUDGE="1",  # never download large LFS objects we would skip as binary anyway
        GIT_PAGER="cat",
        LC_ALL="C",
    )
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    return env


_BASE_CONFIG = (
    "-c",
    "core.symlinks=false",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "submodule.recurse=false",
    "-c",
    "protocol.ext.allow=never",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.quotePath=false",
)


def run_git(
    args: Sequence[str],
    *,
    cwd: Path | None = None,
    allow_file: bool = False,
    ceiling: Path | None = None,
    timeout: float = GIT_TIMEOUT,
) -> str:
    """Run `git <args>` safely and return stdout; a failure raises ResearchError with git's last line."""
    file_policy = "always" if allow_file else "never"
    argv = ["git", *_BASE_CONFIG, "-c", f"protocol.file.allow={file_policy}", *args]
    env = git_environment()
    if ceiling is not None:  # never let git discover a repository above the folder we were given
        env["GIT_CEILING_DIRECTORIES"] = str(ceiling)
    try:
        done = subprocess.run(
            argv,
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
            stdin=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError:
        raise ResearchError("git is not installed", hint="install git and retry") from None
    except subprocess.TimeoutExpired:
        raise ResearchError(f"git {args[0]} took longer than {timeout:.0f} s", hint="retry later") from None
    if done.returncode != 0:
        lines = [ln.strip() for ln in done.stderr.splitlines() if ln.strip()]
        raise ResearchError(f"git {args[0]} failed: {lines[-1] if lines else f'exit {done.returncode}'}")
    return done.stdout
