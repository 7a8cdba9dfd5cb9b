"""Secret redaction: known formats, environment literals, high-entropy tokens, and what must survive."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.redact import Redactor, looks_random, shannon_entropy
from generator.secret_formats import SNAPSHOT

# assembled at run time so this file itself never holds a string that looks like a live key
ANTHROPIC = "sk-ant-" + "api03-" + "Zq8vR2mXk4Lp9TnW3yB7cD1fH6jK0sAeUuIoPl5G"
OPENAI = "sk-" + "proj-" + "T3BlbkFJq9XyZ8wV7uT6sR5qP4oN3mL2kJ1hG0fE"
AWS = "AKIA" + "QX7RTUVW2345ABCD"
GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7"
GITHUB_PAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH"
SLACK = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
GOOGLE = "AIza" + "SyD8kQ3mX9vL2pR7tN5wB1cF6hJ4gK0sE-Y"
JWT = "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7v\nq8s9d0f1g2h3\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        (ANTHROPIC, "anthropic_key"),
        (OPENAI, "openai_key"),
        (AWS, "aws_access_key"),
        (GITHUB, "github_token"),
        (GITHUB_PAT, "github_token"),
        (SLACK, "slack_token"),
        (GOOGLE, "google_api_key"),
        (JWT, "jwt"),
        (PEM, "private_key"),
    ],
)
def test_known_formats_are_redacted(secret: str, kind: str) -> None:
    text, count = Redactor().redact(f"config = load()\nvalue = {secret}\nend()\n")
    assert secret not in text
    assert f"[REDACTED:{kind}]" in text
    assert count >= 1


def test_multiline_secret_keeps_line_count() -> None:
    original = f"line1\n{PEM}\nline after\n"
    text, _ = Redactor().redact(original)
    assert text.count("\n") == original.count("\n")
    assert text.split("\n")[-2] == "line after"


def test_generic_assignment_value_is_redacted_but_name_kept() -> None:
    text, count = Redactor().redact("DB_PASSWORD = \"hunter2-correct-horse\"\napi_key: 'abcd1234efgh'\n")
    assert "hunter2-correct-horse" not in text and "abcd1234efgh" not in text
    assert text.startswith("DB_PASSWORD = ") and count == 2


def test_environment_literals_are_redacted() -> None:
    redactor = Redactor.from_environ(
        {
            "FOO_API_KEY": "plain-looking-value",
            "SHORT_TOKEN": "abc",
            "HOME": "/home/x",
            "MY_SECRET": "another value here",
        }
    )
    text, count = redactor.redact("a plain-looking-value and another value here, abc, /home/x\n")
    assert "plain-looking-value" not in text and "another value here" not in text
    assert "abc" in text and "/home/x" in text  # short values and non-secret names are left alone
    assert count == 2


def test_high_entropy_token_redacted() -> None:
    token = "q7Zk2Lm9Xv4Rt8Wb3Nc6Yp1Hs5Gd0Jf7Ke2Ua9Bx"
    assert looks_random(token)
    text, count = Redactor().redact(f'connect(credential="{token}")')
    assert token not in text and count == 1


@pytest.mark.parametrize(
    "benign",
    [
        "0123456789abcdef0123456789abcdef01234567",  # git commit SHA (40 hex) must survive for permalinks
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",  # sha256 hex digest
        "test_parse_returns_expected_values_for_nested_input",  # long identifier
        "ThisIsAVeryLongCamelCaseIdentifierNameWithoutDigits",
        "src/generator/repo/pack/render_file_with_numbers.py",
        "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR6Q",  # SRI digest
    ],
)
def test_benign_strings_survive(benign: str) -> None:
    text, count = Redactor().redact(f"value = {benign}\n")
    assert benign in text and count == 0


def test_entropy_measure() -> None:
    assert shannon_entropy("") == 0
    assert shannon_entropy("aaaa") == 0
    assert shannon_entropy("abcd") == pytest.approx(2.0)


def test_url_password_redacted_but_plain_urls_kept() -> None:
    text, count = Redactor().redact(
        'DSN = "postgres://admin:s3cr3tpw@db.example.com/x"  # see https://github.com/a/b\n'
    )
    assert "s3cr3tpw" not in text and "postgres://admin:" in text and "https://github.com/a/b" in text
    assert count == 1


def test_unquoted_env_style_assignments_redacted() -> None:
    text, count = Redactor().redact(
        "export GITHUB_TOKEN=abcdefgh12345678\nDB_PASSWORD = hunter2hunter2\nDEBUG=true\n"
    )
    assert "abcdefgh12345678" not in text and "hunter2hunter2" not in text and "DEBUG=true" in text
    assert count == 2


# --- finding 2: common formats that used to be published ---------------------------------------------------
# Assembled at run time, like the keys above.
GLPAT = "glpat-" + "xR4vK9mQ2sT7wZ1bN6cY"
NPM = "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
SLACK_HOOK = "https://hooks.slack.com/services/" + "T0A1B2C3D/B0A1B2C3D/" + "q9W8e7R6t5Y4u3I2o1P0aSdF"
TWILIO = "SK" + "0f9e8d7c6b5a49382716f5e4d3c2b1a0"
HEX64 = "3f9a7c21" * 8
BEARER_TOKEN = "dGhpcy1pcy1h" + "LWxvbmctb3BhcXVlLXRva2VuLTQy"

SECRET_CORPUS: list[tuple[str, str]] = [
    ("database:\n  user: app\n  password: CorrectHorseBatteryStaple\n", "CorrectHorseBatteryStaple"),
    ("service:\n  api_key: " + HEX64 + "\n", HEX64),
    ("## Staging\n\nThe DB password: Tr0ub4dor&3 (rotate monthly).\n", "Tr0ub4dor&3"),
    ("[client]\nsecret_key = s3cr3t-v4lue-xyz\n", "s3cr3t-v4lue-xyz"),
    ("DB_PASS=hunter2hunter2\n", "hunter2hunter2"),
    ('{"clientSecret": "aB3$kL9!mN2@"}\n', "aB3$kL9!mN2@"),
    ("GITLAB_TOKEN: " + GLPAT + "\n", GLPAT),
    ("curl --header 'PRIVATE-TOKEN: " + GLPAT + "' https://gitlab.example/api\n", GLPAT),
    ("//registry.npmjs.org/:_authToken=" + NPM + "\n", NPM),
    ("Publish with " + NPM + " from CI.\n", NPM),
    ("webhook_url: " + SLACK_HOOK + "\n", SLACK_HOOK.rsplit("/", 1)[1]),
    ("notify(" + repr(SLACK_HOOK) + ")\n", SLACK_HOOK.rsplit("/", 1)[1]),
    ("headers = {'Authorization': 'Bearer " + BEARER_TOKEN + "'}\n", BEARER_TOKEN),
    ("curl -H 'Authorization: Bearer " + BEARER_TOKEN + "' https://api.example\n", BEARER_TOKEN),
    ("TWILIO_API_KEY_SID = '" + TWILIO + "'\n", TWILIO),
    ("client = Signer(" + '"' + HEX64 + '")\n', HEX64),
    ("mytool sync --api-key " + HEX64 + " --verbose\n", HEX64),
    ("hmac.new(" + "b'x', " + HEX64.upper() + ")\n", HEX64.upper()),
    # a password in a URL that names no placeholder, letters only or not
    ('SessionProviderConfig = "http://deploy:correcthorse@myserver:8091"\n', "correcthorse"),
    ("redis://default:Kq7vR2xPz9@cache.internal:6379/0\n", "Kq7vR2xPz9"),
    # a word for a password is still redacted on a deployment's host: only an example's host makes it an example
    ("AMQP_URL = 'amqp://app:apppassword@rabbit.prod.acme-corp.com:5672/'\n", "apppassword"),
    ("btp+wss://someUsername:someToken@amundsen.michielbdejong.com/api/17q3\n", "someToken"),
]


@pytest.mark.parametrize(("text", "secret"), SECRET_CORPUS)
def test_common_secret_formats_are_redacted(text: str, secret: str) -> None:
    redacted, count = Redactor().redact(text)
    assert secret not in redacted and count >= 1
    assert redacted.count("\n") == text.count("\n")


NON_SECRET_CORPUS = [
    # code: names, types, calls, templates, environment lookups
    "def login(user: str, password: str) -> Token:\n    token = get_token(password)\n    return token\n",
    "credentials: AccessTokenProvider | None = None\nclass AccessTokenProvider: ...\n",
    "    password = models.CharField(max_length=128)\n    api_key = os.environ['API_KEY']\n",
    "token = self.session.token\nsecret = settings.SECRET_KEY\npassword=password\n",
    "token = Token(ttype, tag, nesting)\nresolved_api_key = resolve_api_key(\npassword = password.encode('latin1')\n",
    "max_tokens: 4096\ntoken_limit: 100000\npassword_min_length: 12\nsecret_name: prod-db\n",
    'ENV_API_KEY = "ANTHROPIC_API_KEY"\nTOKEN_ENV = "GITHUB_TOKEN"\n',
    "password: ${DB_PASSWORD}\ntoken: {{ secrets.GITHUB_TOKEN }}\napi_key: <your-api-key>\nsecret: changeme\n",
    "password: '********'\ntoken: xxxxxxxxxxxxxxxx\nsecret: null\npassword: required\n",
    "Token: '#ddd0c0',\nKeyword: '#66d9ef',\n",
    "    password: string;\n    token?: AuthToken;\n",
    "let bypass = 1;\ncompass: north-east-2\n",
    "The password: must be at least 12 characters.\nSet the token: run `deepkb login`.\n",
    'password: "Mot de passe"\npassword_placeholder: "Enter your password"\n',
    # hashes, ids and links that pages cite
    "See https://github.com/acme/tool/blob/0123456789abcdef0123456789abcdef01234567/src/a.py#L10-L20\n",
    "Fixed in commit 0123456789abcdef0123456789abcdef01234567 (https://github.com/a/b/commit/0123456789abcdef0123456789abcdef01234567).\n",
    "assert hashlib.sha256(b'').hexdigest() == 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'\n",
    'checksum = "' + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" + '"\n',
    "git checkout 0123456789abcdef0123456789abcdef01234567\n",
    "request_id: 123e4567-e89b-12d3-a456-426614174000\nid = uuid.UUID('123e4567-e89b-12d3-a456-426614174000')\n",
    "version: 1.2.3\ntimeout: 30s\nretries: 5\n",
    "ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'\n",
    "class BetaMemoryTool20250818StrReplaceCommand(BaseModel):\n    pass\n",
    "// https://github.com/python/cpython/blob/55d035113dfb1bd90495c8571758f504ae8d4802/Python/ceval.c#L2710\n",
    "See docs/2018/05/20180525-Registration-Policy-MUSEUM-EN_VF-2.pdf and images/logo-dark-background-large.png\n",
    "postgres://user:pass@localhost:5432/db and scheme://[user:passwd@]proxy.server:port\n",
    # a documentation example's password is a word saying what goes there (beego's session README.md:153)
    'SessionProviderConfig = "http://bucketname:bucketpass@myserver:8091"\n',
    "redis://:yourpassword@127.0.0.1:6379 mysql://root:my_secret@localhost/db amqp://guest:dbPassword@mq\n",
    "seq = 'AAACCATCTCTACCGGTTCGCTTTCACTGGATATCGCGCTTGGGGCAGGTGGTCTGCCGATGGGCCG'\n",
    # a big number is no key (humanize's docstring, cJSON's and gson's number tests)
    ">>> intword(8100000000000000000000000000000000)\n'8.1 decillion'\nparse('123456789012345678901234567890123')\n",
    "Authorization: Bearer <token>\nheaders['Authorization'] = f'Bearer {token}'\nuse a bearer token for access\n",
]


@pytest.mark.parametrize("text", NON_SECRET_CORPUS)
def test_code_docs_and_hashes_survive(text: str) -> None:
    redacted, count = Redactor().redact(text)
    assert (redacted, count) == (text, 0)


def test_detect_secrets_rules_are_loaded() -> None:
    from generator.secret_formats import known_formats

    kinds = {f.kind for f in known_formats() if not f.own}
    assert {"gitlab_token", "slack_token", "twilio_api_key", "npm_tokens"} <= kinds


def test_kept_patterns_are_the_installed_detect_secrets_patterns() -> None:
    # the kept file must say what the plugins say; after an upgrade it is ignored until `make secret-formats`
    from generator.secret_formats import _installed_version, _snapshot, detect_secrets_patterns

    installed = _installed_version()
    kept = _snapshot(installed)
    if kept is None:  # another version installed: the plugins are read, as `known_formats` would
        assert json.loads(SNAPSHOT.read_text())["detect_secrets"] != installed
    else:
        assert kept == detect_secrets_patterns()
    assert len(detect_secrets_patterns()) >= 20


def test_patterns_kept_for_another_version_are_not_used(tmp_path: Path) -> None:
    from generator.secret_formats import _snapshot, write_snapshot

    kept = tmp_path / "formats.json"
    write_snapshot(kept)
    version = json.loads(kept.read_text())["detect_secrets"]
    assert _snapshot(version, kept) and _snapshot("0.0.1", kept) is None and _snapshot(None, kept) is None
    kept.write_text("{not json")
    assert _snapshot(version, kept) is None


def test_redaction_does_not_load_detect_secrets_while_its_patterns_are_kept() -> None:
    # importing the plugins loads an HTTP stack, a sixth of an offline run
    script = (
        "import sys\n"
        "from generator.redact import Redactor\n"
        "text = 'token: glpat-' + 'x1Y2z3W4v5U6t7S8r9Q0'\n"
        "assert 'glpat' not in Redactor().redact(text)[0]\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('detect_secrets', 'requests')"
        " or m == 'importlib.metadata'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_installed_version_read_as_text_is_the_distributions() -> None:
    from importlib import metadata

    from generator.secret_formats import _installed_version

    assert _installed_version() == metadata.version("detect-secrets")


def test_secret_in_text_with_a_growing_lowercase_letter_is_still_redacted() -> None:
    # 'İ' lower-cases to two characters: offsets must still line up
    text, count = Redactor().redact("İstanbul office\npassword: Tr0ub4dor&3\n")
    assert "Tr0ub4dor&3" not in text and text.startswith("İstanbul office\npassword: ") and count == 1
