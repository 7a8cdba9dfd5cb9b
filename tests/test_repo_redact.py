"""Secret redaction: known formats, environment literals, high-entropy tokens, and what must survive."""

from __future__ import annotations

import pytest

from generator.redact import Redactor, looks_random, shannon_entropy

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
