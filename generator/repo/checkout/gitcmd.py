"""The one way deepkb runs git: deny-by-default configuration, a scrubbed environment, errors as one line.

Design (deny by default, not one dangerous key at a time):
- `run_git` reads a repository — one we were handed, or our own clone — only through a *sealed view*
  (`sealed.py`): a temporary git directory whose config we wrote, over the repository's object store. The
  repository's `.git/config`, its `include`/`includeIf` files, hooks and `info/attributes` are never read, so
  nothing in them (signature programs, pagers, external diffs, textconv and filter drivers, fsmonitor,
  hooks, credential helpers, aliases, protocol rules) can run. System and global config are off too
  (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`): only the configuration below exists.
- `run_remote_git` is for clone, fetch, ls-remote and the checkout of deepkb's own cached clones. Their config
  is the one `git clone` wrote (a remote controls objects, never config); they keep the operator's global
  config (credential helpers, proxies, `url.*.insteadOf` are the operator's own choices), under the same
  overrides.
- Both pass `_OVERRIDES` on the command line, which wins over every config file: no hooks, fsmonitor,
  signature checks, pager or symlinks; only the https and ssh transports (file:// in tests); no redirects.

The environment holds none of our secrets and no inherited variable that points git at another repository
or injects configuration; terminal prompts are off. Callers put user text only after `--` or where git
cannot read it as an option.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from generator.errors import ResearchError
from generator.repo.checkout.sealed import find_layout, sealed_view

_SECRET_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET", "_KEY", "_PASSWORD")
GIT_TIMEOUT = 900.0  # seconds; a clone of a large repository over a slow link


# inherited variables that would point git at another repository or inject configuration
_GIT_REDIRECTS = frozenset(
    "GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_COMMON_DIR"
    " GIT_NAMESPACE GIT_CEILING_DIRECTORIES GIT_DISCOVERY_ACROSS_FILESYSTEM GIT_CONFIG GIT_CONFIG_PARAMETERS"
    " GIT_CONFIG_COUNT GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM GIT_ALLOW_PROTOCOL GIT_ASKPASS SSH_ASKPASS"
    " GIT_EXTERNAL_DIFF GIT_PAGER GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_PROXY_COMMAND GIT_EXEC_PATH"
    " GIT_TEMPLATE_DIR GIT_REPLACE_REF_BASE".split()
)


def git_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every git process gets: our secrets removed, prompts and user transports off."""
    env = {
        k: v
        for k, v in (os.environ if environ is None else environ).items()
        if not k.upper().endswith(_SECRET_SUFFIXES)
        and k not in _GIT_REDIRECTS
        and not k.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "GIT_TRACE"))
    }
    env.update(
        GIT_PROTOCOL_FROM_USER="0",
        GIT_TERMINAL_PROMPT="0",
        GCM_INTERACTIVE="never",
        GIT_LFS_SKIP_SMUDGE="1",  # never download large LFS objects we would skip as binary anyway
        GIT_PAGER="cat",
        GIT_EDITOR="false",
        GIT_NO_REPLACE_OBJECTS="1",  # replace refs would let a repository show other history than it holds
        GIT_OPTIONAL_LOCKS="0",  # reading never rewrites an index
        GIT_ATTR_NOSYSTEM="1",
        LC_ALL="C",
    )
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    return env


# Command-line configuration outranks every config file, so these hold whatever a file says.
_OVERRIDES: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.symlinks", "false"),
    ("core.quotePath", "false"),
    ("core.pager", "cat"),
    ("core.editor", "false"),
    ("core.untrackedCache", "false"),
    ("log.showSignature", "false"),
    ("gpg.program", "false"),
    ("gpg.ssh.program", "false"),
    ("gpg.x509.program", "false"),
    ("merge.verifySignatures", "false"),
    ("submodule.recurse", "false"),
    ("safe.bareRepository", "explicit"),  # a folder that merely looks like a bare repository is not one
    ("http.followRedirects", "false"),  # a redirect could lead to an address the host check refused
    ("protocol.allow", "never"),
    ("protocol.https.allow", "always"),
    ("protocol.ssh.allow", "always"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("fetch.writeCommitGraph", "false"),
)


def _argv(args: Sequence[str], allow_file: bool, extra: Sequence[tuple[str, str]] = ()) -> list[str]:
    settings = [*_OVERRIDES, ("protocol.file.allow", "always" if allow_file else "never"), *extra]
    return ["git", *(part for key, value in settings for part in ("-c", f"{key}={value}")), *args]


def run_git(
    args: Sequence[str], *, cwd: Path | None = None, allow_file: bool = False, timeout: float = GIT_TIMEOUT
) -> str:
    """Run `git <args>` on the repository at `cwd` through a sealed view and return stdout.

    A `cwd` whose repository cannot be read safely (none, a symlinked `.git`, a folder that merely looks
    like a bare repository) is never shown to git: git then runs in an empty folder and finds no repository.
    The view never looks above `cwd`. A failure raises ResearchError.
    """
    env = git_environment()
    # reading must never turn into a fetch from a promisor remote (a clone's checkout does fetch its blobs)
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_NO_LAZY_FETCH="1")
    layout = find_layout(Path(cwd)) if cwd is not None else None
    if layout is None or cwd is None:
        with tempfile.TemporaryDirectory(prefix="deepkb-git-") as empty:
            env["GIT_CEILING_DIRECTORIES"] = str(Path(empty).resolve().parent)
            return _run(_argv(args, allow_file), Path(empty), env, timeout, args[0])
    with sealed_view(Path(cwd), layout) as view:
        env.update(view)
        return _run(_argv(args, allow_file), cwd, env, timeout, args[0])


def run_remote_git(
    args: Sequence[str],
    *,
    cwd: Path,
    allow_file: bool = False,
    pin: Sequence[tuple[str, str]] = (),
    environ: Mapping[str, str] | None = None,
    timeout: float = GIT_TIMEOUT,
) -> str:
    """Run a network command (clone, fetch, ls-remote) or the checkout of a clone deepkb made itself.

    `pin` adds command-line settings (the checked addresses of the host); `environ` adds variables.
    """
    env = git_environment()
    env["GIT_CEILING_DIRECTORIES"] = str(Path(cwd).resolve().parent)
    env.update(environ or {})
    return _run(_argv(args, allow_file, pin), cwd, env, timeout, args[0])


def _run(argv: list[str], cwd: Path | None, env: dict[str, str], timeout: float, what: str) -> str:
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
        raise ResearchError(f"git {what} took longer than {timeout:.0f} s", hint="retry later") from None
    if done.returncode != 0:
        lines = [ln.strip() for ln in done.stderr.splitlines() if ln.strip()]
        raise ResearchError(f"git {what} failed: {lines[-1] if lines else f'exit {done.returncode}'}")
    return done.stdout
