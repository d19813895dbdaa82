"""Tests for kenning.redact: the secret redactor run on every text before it is stored."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

_ROOT = Path(__file__).resolve().parents[1]


def _load(module: str, path: Path) -> ModuleType:
    """Import ``module``; fall back to loading ``path`` directly.

    kenning/__init__.py imports the whole package, which may not be importable while other
    modules are being written; the redactor itself only needs the standard library.
    """
    try:
        return importlib.import_module(module)
    except Exception:
        name = f"_standalone_{path.stem}"
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod


rd = _load("kenning.redact", _ROOT / "src" / "kenning" / "redact.py")
corpus = _load("tests.secret_corpus", _ROOT / "tests" / "secret_corpus.py")

redact = rd.redact
redact_obj = rd.redact_obj
SECRET_SAMPLES: list[tuple[str, str]] = corpus.SECRET_SAMPLES
SECRET_SAMPLE_KINDS: list[str] = corpus.SECRET_SAMPLE_KINDS
NEGATIVE_SAMPLES: list[str] = corpus.NEGATIVE_SAMPLES

MARKER = re.compile(r"\[REDACTED:([a-z_]+)\]")
_SAMPLE_IDS = [f"{i:02d}-{kind}" for i, kind in enumerate(SECRET_SAMPLE_KINDS)]


# --------------------------------------------------------------------------- the corpus


def test_corpus_is_large_and_covers_every_required_kind() -> None:
    assert len(SECRET_SAMPLES) >= 70
    assert len({s.name for s in corpus.CORPUS}) == len(corpus.CORPUS)
    assert len(NEGATIVE_SAMPLES) >= 12
    assert len(SECRET_SAMPLE_KINDS) == len(SECRET_SAMPLES)
    required = {
        "aws_access_key", "aws_secret_key", "github_token", "gitlab_token", "slack_token",
        "stripe_key", "openai_key", "anthropic_key", "google_api_key", "npm_token", "pypi_token",
        "huggingface_token", "sendgrid_key", "twilio_key", "jwt", "private_key", "url_password",
        "authorization", "password", "token", "api_key", "secret", "azure_key", "mailgun_key",
        "mailchimp_key", "discord_token", "discord_webhook", "telegram_token",
        "databricks_token", "square_token", "cookie",
    }  # fmt: skip
    assert required <= set(SECRET_SAMPLE_KINDS)
    assert set(SECRET_SAMPLE_KINDS) <= set(rd.KINDS)


@pytest.mark.parametrize(("text", "secret", "kind"), [
    (t, s, k) for (t, s), k in zip(SECRET_SAMPLES, SECRET_SAMPLE_KINDS, strict=True)
], ids=_SAMPLE_IDS)  # fmt: skip
def test_secret_is_replaced_and_context_kept(text: str, secret: str, kind: str) -> None:
    assert text.count(secret) == 1, "corpus sample must hold its secret exactly once"
    result = redact(text)
    assert secret not in result.text
    assert f"[REDACTED:{kind}]" in result.text
    before, after = text.split(secret)
    assert result.text == f"{before}[REDACTED:{kind}]{after}"
    assert result.count == 1
    assert result.kinds == (kind,)


@pytest.mark.parametrize("text", NEGATIVE_SAMPLES)
def test_ordinary_text_is_unchanged(text: str) -> None:
    result = redact(text)
    assert result.text == text
    assert result.count == 0
    assert result.kinds == ()


def test_all_secrets_in_one_document() -> None:
    doc = "\n\n".join(text for text, _ in SECRET_SAMPLES)
    result = redact(doc)
    for _, secret in SECRET_SAMPLES:
        assert secret not in result.text
    assert result.count == len(SECRET_SAMPLES)
    assert list(result.kinds) == SECRET_SAMPLE_KINDS
    assert [m.group(1) for m in MARKER.finditer(result.text)] == SECRET_SAMPLE_KINDS


# --------------------------------------------------------------------------- idempotence


@pytest.mark.parametrize("text", [t for t, _ in SECRET_SAMPLES] + NEGATIVE_SAMPLES)
def test_idempotent_per_sample(text: str) -> None:
    once = redact(text)
    twice = redact(once.text)
    assert twice.text == once.text
    assert twice.count == 0
    assert twice.kinds == ()


def test_idempotent_on_random_mixtures() -> None:
    rng = random.Random(1234)
    pieces = [t for t, _ in SECRET_SAMPLES] + NEGATIVE_SAMPLES + [
        "[REDACTED]", "password=", "token: ", "://", "@", '"', "'", "&", "Bearer ", "mysql -p",
        "-----BEGIN RSA PRIVATE KEY-----\n", "-----END RSA PRIVATE KEY-----", "--password ",
    ]  # fmt: skip
    for _ in range(400):
        parts = rng.choices(pieces, k=rng.randint(1, 6))
        text = "".join(p + rng.choice(["", " ", "\n", "; ", "=", ":"]) for p in parts)
        once = redact(text)
        twice = redact(once.text)
        assert twice.text == once.text, text
        assert twice.count == 0, text


@pytest.mark.parametrize("text", [
    "[REDACTED]",
    "[REDACTED:password]",
    "password=[REDACTED]",
    "DB_PASSWORD=[REDACTED:password]",
    'password: "[REDACTED:password]"',
    '{"api_key": "[REDACTED:api_key]"}',
    "postgres://app:[REDACTED:url_password]@db:5432/app",
    "Authorization: Bearer [REDACTED:jwt]",
    "mysql -u root -p[REDACTED:password] shop",
    "-----BEGIN",
])  # fmt: skip
def test_marker_never_counts_as_a_secret(text: str) -> None:
    result = redact(text)
    assert result.text == text
    assert result.count == 0


def test_empty_text() -> None:
    assert redact("") == rd.Redaction("", 0, ())


# --------------------------------------------------------------------------- specific rules


def test_marker_format_and_result_type() -> None:
    assert rd.REDACTED == "[REDACTED]"
    assert rd.marker("password") == "[REDACTED:password]"
    result = redact("DB_PASSWORD=hunter2hunter2")
    assert result == rd.Redaction("DB_PASSWORD=[REDACTED:password]", 1, ("password",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.count = 5  # type: ignore[misc]


@pytest.mark.parametrize(("url", "expected"), [
    (
        "postgres://app_user:Sup3rS3cretPw@db.internal:5432/app",
        "postgres://app_user:[REDACTED:url_password]@db.internal:5432/app",
    ),
    (
        "amqp://guest:Gu3st-Pa55@rabbit.local/vhost",
        "amqp://guest:[REDACTED:url_password]@rabbit.local/vhost",
    ),
    ("redis://:r3d1sPw@cache:6379/0", "redis://:[REDACTED:url_password]@cache:6379/0"),
    (
        "https://deploy:p@ss@w0rd@git.example.com/repo.git",
        "https://deploy:[REDACTED:url_password]@git.example.com/repo.git",
    ),
])  # fmt: skip
def test_url_keeps_scheme_user_and_host(url: str, expected: str) -> None:
    result = redact(f"connect with {url} then retry")
    assert result.text == f"connect with {expected} then retry"
    assert result.kinds == ("url_password",)


@pytest.mark.parametrize("text", [
    "https://user@example.com/path",
    "https://example.com:8443/path?next=a@b",
    "postgres://user:password@localhost/db",
    "postgres://app:${DB_PASSWORD}@db/app",
    "mysql://root:<password>@127.0.0.1/test",
    "redis://:****@cache:6379",
])  # fmt: skip
def test_url_without_real_password_is_unchanged(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize("text", [
    "DB_PASSWORD=",
    "DB_PASSWORD=${DB_PASSWORD}",
    "export GITHUB_TOKEN=$GH_TOKEN",
    'api_key: "<your-api-key>"',
    "token = 'xxx'",
    "SECRET=***",
    'password: "{{ vault_db_password }}"',
    "client_secret: ${{ secrets.CLIENT_SECRET }}",
    'token = "..."',
    "PASSWORD=$(cat /run/secrets/db)",
    "password: null",
])  # fmt: skip
def test_placeholders_are_left_alone(text: str) -> None:
    assert redact(text).text == text


def test_changeme_is_a_real_password() -> None:
    assert redact("DB_PASSWORD=changeme").text == "DB_PASSWORD=[REDACTED:password]"
    assert redact('password: "changeme"').text == 'password: "[REDACTED:password]"'


@pytest.mark.parametrize(("text", "expected"), [
    ("DB_PASS=s3cr3tValue", "DB_PASS=[REDACTED:password]"),
    ('PASSWORD: "Hunter2!x"', 'PASSWORD: "[REDACTED:password]"'),
    ("export SECRET_TOKEN=a1b2c3d4e5f6", "export SECRET_TOKEN=[REDACTED:token]"),
    ("token = 'tok_9f8e7d6c5b'", "token = '[REDACTED:token]'"),
    ('"api_key": "k-1234567890"', '"api_key": "[REDACTED:api_key]"'),
    ("client_secret: Zx9-Qw8_Er7", "client_secret: [REDACTED:secret]"),
    ("--password=Pa55word!", "--password=[REDACTED:password]"),
    ("mysql -u app -p'My$qlPw1' app", "mysql -u app -p'[REDACTED:password]' app"),
    ("mysql -u app -pMyPw1234 app", "mysql -u app -p[REDACTED:password] app"),
    (
        "psql 'host=db user=app password=Pg_pw_42'",
        "psql 'host=db user=app password=[REDACTED:password]'",
    ),
    (
        "Authorization: Bearer abcDEF1234567890ghiJKL",
        "Authorization: Bearer [REDACTED:authorization]",
    ),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED:authorization]"),
])  # fmt: skip
def test_assignment_keeps_key_and_replaces_value(text: str, expected: str) -> None:
    assert redact(text).text == expected


def test_mysql_bare_p_prompts_and_is_left_alone() -> None:
    text = "mysql -h db -u root -p shop"
    assert redact(text).text == text


def test_high_entropy_only_when_assigned_to_a_secret_key() -> None:
    sha = "9c1185a5c5e9fc54612808977ee8f548b2258d31"
    uuid = "550e8400-e29b-41d4-a716-446655440000"
    prose = f"Reverted {sha}; trace id {uuid}; etag: {sha}"
    assert redact(prose).text == prose
    assert redact(f"api_key = {sha}").text == "api_key = [REDACTED:api_key]"
    assert redact(f"SESSION_SECRET={uuid}").text == "SESSION_SECRET=[REDACTED:secret]"


def test_pem_block_is_replaced_whole() -> None:
    body = "\n".join(f"MIIEFAKEKEY{i:02d}" + "A1b2C3d4" * 6 + "xyzQ" for i in range(5))
    block = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----"
    result = redact(f"before\n{block}\nafter")
    assert result.text == "before\n[REDACTED:private_key]\nafter"
    assert "MIIEFAKEKEY" not in result.text


def test_truncated_pem_block_is_still_redacted() -> None:
    body = "\n".join(f"MIIEFAKEKEY{i:02d}" + "A1b2C3d4" * 6 + "xyzQ" for i in range(3))
    result = redact(f"key:\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n(output truncated)")
    assert result.text == "key:\n[REDACTED:private_key]\n(output truncated)"


def test_public_key_and_pem_constants_are_not_redacted() -> None:
    text = '_SK_START = b"-----BEGIN OPENSSH PRIVATE KEY-----"\n_SK_END = b"-----END OPENSSH'
    assert redact(text).text == text


def test_kinds_are_in_order_of_appearance() -> None:
    aws = "AKIA" + "FAKE" + "ABCDEFGH2345"
    text = f"key {aws} and password=Tr0ub4dor3 and postgres://u:Pg5ecret@db/app"
    result = redact(text)
    assert result.kinds == ("aws_access_key", "password", "url_password")
    assert result.count == 3


# --------------------------------------------------------------------------- redact_obj


def test_redact_obj_nested_metadata() -> None:
    github = corpus.GH_CLASSIC
    meta = {
        "source": "shell",
        "password": "hunter2",
        "auth": "jwt",
        "apiKey": "abc",
        "Authorization": "Bearer whatever",
        "credentials": {"user": "deploy", "client_secret": "s3cr3t", "token": ""},
        "commands": [f"git push https://{github}@github.com/a/b", "ls -la", 42],
        "env": ("DB_PASSWORD=changeme", None, 3.5),
        "count": 3,
        "token_count": 128,
        "max_tokens": "4096",
    }
    new, count = redact_obj(meta)
    assert new == {
        "source": "shell",
        "password": "[REDACTED:password]",
        "auth": "[REDACTED:secret]",
        "apiKey": "[REDACTED:api_key]",
        "Authorization": "[REDACTED:authorization]",
        "credentials": {"user": "deploy", "client_secret": "[REDACTED:secret]", "token": ""},
        "commands": ["git push https://[REDACTED:github_token]@github.com/a/b", "ls -la", 42],
        "env": ("DB_PASSWORD=[REDACTED:password]", None, 3.5),
        "count": 3,
        "token_count": 128,
        "max_tokens": "4096",
    }
    assert count == 7
    assert meta["password"] == "hunter2", "input must not be mutated"
    again, again_count = redact_obj(new)
    assert again == new
    assert again_count == 0


def test_redact_obj_scalars_and_sequences() -> None:
    assert redact_obj("DB_PASSWORD=changeme") == ("DB_PASSWORD=[REDACTED:password]", 1)
    assert redact_obj(None) == (None, 0)
    assert redact_obj(7) == (7, 0)
    assert redact_obj([]) == ([], 0)
    value, count = redact_obj(("a", ["token: abcd1234efgh"]))
    assert value == ("a", ["token: [REDACTED:token]"])
    assert count == 1


# ------------------------------------------------- large and adversarial input (timed in
# benchmarks/bench_redact.py: no wall-clock bound here)


def mixed_megabyte() -> str:
    """One megabyte of code, prose and real-looking secrets."""
    chunk = "\n".join(NEGATIVE_SAMPLES + [t for t, _ in SECRET_SAMPLES[:10]]) + "\n"
    filler = (
        "def handler(event, context):\n    user = event['user']\n    return {'ok': True}\n"
        "The service retries three times with exponential backoff before giving up.\n"
    )
    return ((chunk + filler * 40) * (1_000_000 // len(chunk + filler * 40) + 1))[:1_000_000]


def test_one_megabyte_of_mixed_text_loses_every_secret() -> None:
    out = redact(mixed_megabyte())
    assert [s for _, s in SECRET_SAMPLES[:10] if s in out.text] == []
    assert "exponential backoff" in out.text and out.count >= 10


PATHOLOGICAL = {
    "letters": "a" * 1_000_000,
    "equals": "=" * 1_000_000,
    "colons": ":" * 1_000_000,
    "dashes": "-" * 1_000_000,
    "assignments": ("password=" * 120_000)[:1_000_000],
    "yaml-keys": ("token: abc " * 100_000)[:1_000_000],
    "url-starts": ("://a:" * 200_000)[:1_000_000],
    "pem-begins": ("-----BEGIN RSA PRIVATE KEY-----\n" * 32_000)[:1_000_000],
    "mysql": ("mysql -u x " * 100_000)[:1_000_000],
    "jwt-starts": ("eyJabcdefghij." * 72_000)[:1_000_000],
    "open-quotes": ('"password": "' * 80_000)[:1_000_000],
    "headers": ("Authorization: " * 70_000)[:1_000_000],
    "xml-tags": ("<password>" * 100_000)[:1_000_000],
    "cookies": ("Cookie: a=" * 100_000)[:1_000_000],
    "netrc": ("machine a login b " * 60_000)[:1_000_000],
    "pairs": ('"DB_PASSWORD", "' * 70_000)[:1_000_000],
    "hex": ("0123456789abcdef" * 62_500)[:1_000_000],
}


@pytest.mark.parametrize("text", list(PATHOLOGICAL.values()), ids=list(PATHOLOGICAL))
def test_pathological_inputs_are_redacted_whole(text: str) -> None:
    """Adversarial, secret-dense megabytes come back whole: redacted text, never an error or
    a cut. (Linear time, ~0.1-0.5 s each, is measured by benchmarks/bench_redact.py.)"""
    out = redact(text)
    assert out.text == text if out.count == 0 else "[REDACTED:" in out.text


@pytest.mark.parametrize("text", list(PATHOLOGICAL.values()), ids=list(PATHOLOGICAL))
def test_pathological_inputs_come_out_idempotent(text: str) -> None:
    once = redact(text)
    assert redact(once.text).text == once.text


# --------------------------------------------------------------------------- key: Value


def test_capitalised_values_are_secrets_and_type_names_are_not() -> None:
    rng = random.Random("capitalised")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    missed = []
    for _ in range(300):
        value = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "".join(
            rng.choice(alphabet) for _ in range(rng.randint(15, 23)))
        for text in (f"password: {value}", f"X-Api-Key: {value}", f"the password: {value} ok",
                     f"SECRET: {value}\nREGION: eu-west-1", f"api_token={value}"):
            if value in redact(text).text:
                missed.append(text)
    assert len(missed) <= 3, missed  # about 0.2 % by design (see _wordlike); 1 500 tried
    for text in ("    password: SecretStr", "    token: OAuth2PasswordBearer",
                 "def f(self, api_key: APIKeyHeader) -> None:", "private_key: RSAPrivateKey",
                 "credentials: HTTPBasicCredentials = Depends(security)",
                 "secret: Ed25519PrivateKey = field(repr=False)", "token: TokenData",
                 "password: PasswordHasher", "auth_token: AccessToken"):
        assert redact(text).text == text


@pytest.mark.parametrize(("text", "secret"), [
    ('{"text": "deploy notes\\nya29.a0FAKEFAKEFAKEfake1234567890abcdefABCDEF"}',
     "ya29.a0FAKEFAKEFAKEfake1234567890abcdefABCDEF"),
    ('"cmd": "export A=1\\nghp_FAKEa1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"',
     "ghp_FAKEa1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"),
    ("db:\\n  password: Xk9vQ2mLp4ZrT7wY\\n  pool: 5", "Xk9vQ2mLp4ZrT7wY"),
])  # fmt: skip
def test_secrets_after_an_escaped_newline_are_found(text: str, secret: str) -> None:
    assert secret not in redact(text).text


def test_a_quote_left_open_at_the_end_still_holds_a_secret() -> None:
    cut = '{"password": "Xk9vQ2mLp4ZrT7wY'
    assert redact(cut).text == '{"password": "[REDACTED:password]'
    assert redact("def f(prompt='Password: ', stream=None):").count == 0


def test_markers_are_recognised_in_any_case() -> None:
    for text in ("export_aws_access_key_id=[redacted:aws_access_key]",
                 "password:_[redacted:password]", "[Redacted:token]"):
        assert redact(text).text == text


def test_redact_obj_removes_a_secret_from_every_field_that_repeats_it() -> None:
    aws = "AKIA" + "FAKE" + "ABCDEFGH2345"
    record = {"text": f"export AWS_ACCESS_KEY_ID={aws}",
              "rule": {"terms": [aws.lower(), "export"], "subject": "exports"},
              "tags": [aws.lower()[:12]]}
    new, count = redact_obj(record)
    dumped = repr(new).lower()
    assert aws.lower() not in dumped and aws.lower()[:12] not in dumped
    assert new["rule"]["terms"] == ["[REDACTED:aws_access_key]", "export"]  # type: ignore[index]
    assert count == 3
    assert redact_obj(new) == (new, 0)


def test_redact_obj_leaves_plain_words_of_a_secret_alone() -> None:
    new, _ = redact_obj({"a": "DB_PASSWORD=my-password-2024", "b": "the password field"})
    assert new == {"a": "DB_PASSWORD=[REDACTED:password]", "b": "the password field"}


def test_secrets_of_a_redaction_are_kept_out_of_its_repr() -> None:
    result = redact("DB_PASSWORD=hunter2hunter2")
    assert result.secrets == (("hunter2hunter2", "password"),)
    assert "hunter2" not in repr(result)


def test_ordinary_code_and_prose_is_left_alone() -> None:
    ordinary = _load("tests.ordinary_corpus", _ROOT / "tests" / "ordinary_corpus.py").ORDINARY
    changed = [t for t in ordinary if redact(t).count]
    assert len(ordinary) >= 1000
    assert len(changed) <= len(ordinary) // 100, changed[:5]  # the target: at most 1 %


# --------------------------------------------------------------------------- said in prose

@pytest.mark.parametrize(("text", "secret"), [
    ("fyi the staging db password is Qx7-mango!rain", "Qx7-mango!rain"),
    ("pw for the office wifi is Wf9-22kiwi", "Wf9-22kiwi"),
    ("the build box pw: Bb4-longer?x", "Bb4-longer?x"),
    ("just log in with admin / Adm1n-Tr!cky", "Adm1n-Tr!cky"),
    ("our passphrase is violet-9-otter-42", "violet-9-otter-42"),
    ("le mot de passe du serveur est Srv!2024-bleu", "Srv!2024-bleu"),
    ("das Passwort für Jenkins ist Jk-88-Blau!", "Jk-88-Blau!"),
    ("운영 서버 비밀번호는 Op3r-9!kor 입니다", "Op3r-9!kor"),
    ("the key vault passcode is 4471xq82zz", "4471xq82zz"),
    ("net use Z: \\\\files\\team /user:CORP\\ana An4-Share!x /persistent:yes", "An4-Share!x"),
    ("htpasswd -cb /etc/nginx/.htpasswd ops 0ps-Nginx-7", "0ps-Nginx-7"),
    ('r = requests.get(url, auth=("svc", "Svc-P4ss-99"))', "Svc-P4ss-99"),
    ("db:\n  password: >-\n    Yaml-B1ock-77\n  host: db\n", "Yaml-B1ock-77"),
])
def test_a_password_said_in_a_sentence_or_passed_to_a_command_is_redacted(
        text: str, secret: str) -> None:
    result = redact(text)
    assert secret not in result.text and "[REDACTED:password]" in result.text
    assert redact(result.text).text == result.text


def test_a_putty_key_file_loses_its_private_lines_and_mac() -> None:
    body = "AAAAIG" + "k" * 40 + "0123456789"
    mac = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    text = ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 1\n"
            f"AAAAC3NzaC1lZDI1NTE5AAAA\nPrivate-Lines: 1\n{body}\nPrivate-MAC: {mac}\n")
    out = redact(text).text
    assert body not in out and mac not in out
    assert "AAAAC3NzaC1lZDI1NTE5AAAA" in out and "Public-Lines: 1" in out


@pytest.mark.parametrize("text", [
    "reset the password from the settings page (docs v2.4.1)",
    "the password hash uses argon2id and sha256",
    "passwords must be at least 12 characters long",
    "log in with your GitHub account, then open 1Password",
    "the login form posts to /api/v2/session",
    "def ask(prompt='Password: ', stream=None):",
    "credentials: Ed25519PrivateKey = Field(default=None)",
    "postgres://user:password@localhost:5432/app is the compose default",
])
def test_prose_about_passwords_without_one_is_left_alone(text: str) -> None:
    assert redact(text).text == text


# ------------------------------------------------ issue 37: the link, commands, key files

@pytest.mark.parametrize(("text", "secret"), [
    ("the wifi password is Cafe2024", "Cafe2024"),
    ("ok the password was Winter2025 but I changed it", "Winter2025"),
    ("creds are ops / Pa55-word-9", "Pa55-word-9"),
    ("the db password's now Zebra-4411-cup", "Zebra-4411-cup"),
    ("le mot de passe c'est Marseille13!", "Marseille13!"),
    ("contraseña: Madrid-2024-sol", "Madrid-2024-sol"),
    ("密码为Shanghai-88", "Shanghai-88"),
    ("비밀번호는 아직 Busan-77-bay 입니다", "Busan-77-bay"),
    ('the vault passphrase is "seven blue kites 1999"', "seven blue kites 1999"),
])  # fmt: skip
def test_a_value_right_after_the_link_needs_no_password_shape(text: str, secret: str) -> None:
    result = redact(text)
    assert result.text == text.replace(secret, "[REDACTED:password]")


@pytest.mark.parametrize("text", [
    "the password is hashed with sha256-crypt before it is stored",
    "password is base64-encoded in the secret",
    "the password is 16-characters long",
    "the password changed to argon2id in v2.3",
    "the password is in 1Password under Staging-DB",
    "password is SecretStr",
    "the password is whatever you set in step 2",
    "login with GitHub / GitLab / Bitbucket",
    "the secret is stored in AWS Secrets Manager under prod/db",
    "keep this private: do not commit .env files",
    "no, use this instead: pytest -n auto tests/unit",
    "this is private API, don't use it: _internal_call2",
    ":param password: the password to log in with",
    "비밀번호를 입력하세요",
    "パスワードを入力してください",
    "**Credentials given to tools** (see below)",
    "Redacted: `net use ... /user:NAME PASSWORD`, and more",
    "def topic_secret(self, password: OAuth2PasswordBearer) -> None:",
])  # fmt: skip
def test_a_word_number_or_term_after_the_link_is_no_password(text: str) -> None:
    assert redact(text).text == text


def test_a_value_called_secret_needs_the_link_and_a_password_shape() -> None:
    assert redact("keep this private: Qz7!mx-40Lp").text == "keep this private: [REDACTED:secret]"
    assert redact("keep this private: Winter2025").count == 0
    assert redact("a private Qz7!mx-40Lp value").count == 0


@pytest.mark.parametrize(("text", "expected"), [
    ("htpasswd -nb admin Adm1n-P4ss", "htpasswd -nb admin [REDACTED:password]"),
    ("htpasswd -b -C 10 users.htpasswd bob Bob-pw-12",
     "htpasswd -b -C 10 users.htpasswd bob [REDACTED:password]"),
    ("htpasswd -b is insecure because it shows the password", None),
    ("aiohttp.BasicAuth(login='svc', password='Aio-Pw-882')",
     "aiohttp.BasicAuth(login='svc', password='[REDACTED:password]')"),
    ("auth=(user, 'Cut-Sh0rt-pw", "auth=(user, '[REDACTED:password]"),
    ("auth=HTTPBasicAuth(username, password)", None),
])  # fmt: skip
def test_commands_and_auth_objects(text: str, expected: str | None) -> None:
    assert redact(text).text == (text if expected is None else expected)


def test_a_putty_key_is_one_block_folded_cut_or_in_a_list() -> None:
    body = ["AAAAFAKE" + "Qx7kLm2P" * 7, "ZZ9y" + "Rt5uVw3S" * 7 + "fake"]
    mac = "deadbeef" + "0123456789abcdef" * 3
    whole = f"Private-Lines: 2\n{body[0]}\n{body[1]}\nPrivate-MAC: {mac}\n"
    assert redact(whole).text == "Private-Lines: 2\n[REDACTED:private_key]\n"
    folded = " ".join(whole.split())
    assert redact(folded).text == "Private-Lines: 2 [REDACTED:private_key]"
    assert redact(folded[:60] + "…").text == "Private-Lines: 2 [REDACTED:private_key]…"
    without_header = f"- {body[0]}\n{body[1]}\nPrivate-MAC: {mac}"
    assert redact(without_header).text == "- [REDACTED:private_key]"
    assert redact(f"see ConfigurationFileLoader Private-MAC: {mac}").text == (
        "see ConfigurationFileLoader Private-MAC: [REDACTED:private_key]")


def test_the_corpus_holds_issue_37s_dev_groups_and_a_frozen_held_out_part() -> None:
    dev = {s.group for s in corpus.CORPUS if s.group}
    held = {s.group for s in corpus.HELDOUT}
    assert len(dev) == 11 and len(held) == 6 and not dev & held
    assert len(corpus.HELDOUT) >= 15
    assert not {s.name for s in corpus.HELDOUT} & {s.name for s in corpus.CORPUS}
    assert all(s.text.count(s.secret) == 1 for s in corpus.HELDOUT)
