"""Fake but well-formed secrets in realistic contexts, for redaction tests.

Every value is generated here from a fixed seed (and most carry ``FAKE``/``fake`` or ``deadbeef``),
so none is a real credential and no token-shaped literal sits in the source for secret scanners.

``SECRET_SAMPLES`` is a list of ``(text, secret_substring)``: after redaction the secret substring
must be gone from the stored text. ``SECRET_SAMPLE_KINDS`` gives the kind expected in each
sample's ``[REDACTED:<kind>]`` marker, in the same order. Each text holds exactly one secret and
the secret substring is exactly the span that gets replaced.
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CORPUS", "HELDOUT", "NEGATIVE_SAMPLES", "SECRET_SAMPLES", "SECRET_SAMPLE_KINDS",
    "SecretSample",
]  # fmt: skip

_UP = string.ascii_uppercase
_LO = string.ascii_lowercase
_DIG = string.digits
_ALNUM = _UP + _LO + _DIG
_B64URL = _ALNUM + "-_"
_HEX = "0123456789abcdef"


def _fake(label: str, alphabet: str, n: int) -> str:
    """Deterministic pseudo-random string (seeded by ``label``)."""
    rng = random.Random(f"kenning-fake-{label}")
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: dict[str, object]) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _pem_body(label: str, lines: int) -> str:
    body = [_fake(f"{label}-{i}", _ALNUM + "+/", 64) for i in range(lines)]
    body[1] = "FAKEKEY" + body[1][7:]
    return "\n".join(body)


AWS_KEY_ID = "AKIA" + "FAKE" + _fake("aws-id", _UP + _DIG, 12)
AWS_SESSION_KEY_ID = "ASIA" + "FAKE" + _fake("aws-sts-id", _UP + _DIG, 12)
AWS_SECRET = _fake("aws-secret", _ALNUM + "+/", 36) + "FAKE"
AWS_STS_SECRET = "FAKE" + _fake("aws-sts-secret", _ALNUM + "+/", 36)
GH_CLASSIC = "ghp_" + "FAKE" + _fake("ghp", _ALNUM, 32)
GH_OAUTH = "gho_" + "FAKE" + _fake("gho", _ALNUM, 32)
GH_SERVER = "ghs_" + "FAKE" + _fake("ghs", _ALNUM, 32)
GH_FINE = (
    "github_pat_11FAKE" + _fake("ghfine1", _UP + _DIG, 16) + "_" + _fake("ghfine2", _ALNUM, 59)
)
GITLAB = "glpat-" + "FAKE" + _fake("glpat", _B64URL, 16)
SLACK_BOT = (
    "xoxb-" + _fake("slack1", _DIG, 12) + "-" + _fake("slack2", _DIG, 13) + "-FAKE"
    + _fake("slack3", _ALNUM, 20)
)  # fmt: skip
SLACK_APP = "xapp-1-A0FAKE" + _fake("xapp1", _UP + _DIG, 5) + "-" + _fake("xapp2", _HEX, 64)
SLACK_WEBHOOK = (
    "https://hooks.slack.com/services/T" + _fake("swh1", _UP + _DIG, 8) + "/B"
    + _fake("swh2", _UP + _DIG, 8) + "/FAKE" + _fake("swh3", _ALNUM, 20)
)  # fmt: skip
STRIPE_LIVE = "sk_live_" + "FAKE" + _fake("stripe-live", _ALNUM, 44)
STRIPE_RESTRICTED = "rk_test_" + "FAKE" + _fake("stripe-rk", _ALNUM, 44)
STRIPE_WEBHOOK = "whsec_" + "FAKE" + _fake("whsec", _ALNUM, 28)
OPENAI_PROJECT = "sk-proj-" + "FAKEfake9" + _fake("openai-proj", _B64URL, 100)
OPENAI_LEGACY = (
    "sk-"
    + "FAKE"
    + _fake("openai-a", _ALNUM, 16)
    + "T3BlbkFJ"
    + "fake9"
    + _fake("openai-b", _ALNUM, 15)
)
ANTHROPIC = "sk-ant-api03-" + "FAKE" + _fake("anthropic", _B64URL, 89) + "AA"
GOOGLE = "AIza" + "SyFAKE" + _fake("google", _B64URL, 29)
NPM = "npm_" + "FAKE" + _fake("npm", _ALNUM, 32)
PYPI = "pypi-AgEIcHlwaS5vcmc" + "FAKE" + _fake("pypi", _B64URL, 120)
HUGGINGFACE = "hf_" + "FAKEfake" + _fake("hf", _UP + _LO, 26)
SENDGRID = "SG." + "FAKE" + _fake("sg1", _B64URL, 18) + "." + "FAKE" + _fake("sg2", _B64URL, 39)
TWILIO = "SK" + "deadbeef" + _fake("twilio", _HEX, 24)
DIGITALOCEAN = "dop_v1_" + "deadbeef" + _fake("do", _HEX, 56)
SHOPIFY = "shpat_" + "deadbeef" + _fake("shopify", _HEX, 24)
JWT = (
    _b64url({"alg": "HS256", "typ": "JWT"}) + "."
    + _b64url({"sub": "fake-user-1234", "name": "Fake User", "iat": 1700000000}) + "."
    + _fake("jwt-sig", _B64URL, 43)
)  # fmt: skip
JWT_SESSION = (
    _b64url({"alg": "RS256", "kid": "fake-kid"}) + "."
    + _b64url({"sid": "fake-session", "exp": 1900000000}) + "."
    + _fake("jwt-sig-2", _B64URL, 86)
)  # fmt: skip

PEM_RSA = (
    "-----BEGIN RSA PRIVATE KEY-----\n" + _pem_body("rsa", 8) + "\n-----END RSA PRIVATE KEY-----"
)
PEM_OPENSSH = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    + _pem_body("openssh", 6)
    + "\n-----END OPENSSH PRIVATE KEY-----"
)
PEM_ENCRYPTED = (
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
    + _pem_body("encrypted", 5)
    + "\n-----END ENCRYPTED PRIVATE KEY-----"
)
PEM_EC = (
    "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,FAKE0123\n\n"
    + _pem_body("ec", 3)
    + "\n-----END EC PRIVATE KEY-----"
)
# A service-account style key inside JSON, newlines escaped as \n.
PEM_JSON = (
    "-----BEGIN PRIVATE KEY-----\\n"
    + _pem_body("gcp", 4).replace("\n", "\\n")
    + "\\n-----END PRIVATE KEY-----"
)

PG_PASSWORD = "Sup3rS3cret" + _fake("pg", _ALNUM, 6)
REDIS_URL_PASSWORD = "r3d1sPassw0rd" + _fake("redis", _ALNUM, 4)
MONGO_PASSWORD = "M0ngoPa55" + _fake("mongo", _ALNUM, 6)
DJANGO_SECRET = "django-insecure-" + _fake("django", _LO + _DIG + "!@%^&*(-_=+)", 50)
RAILS_SECRET = _fake("rails", _HEX, 128)
HEX_API_KEY = _fake("hex-api", _HEX, 40)
AZURE_SECRET = "8Q~FAKE" + _fake("azure", _ALNUM, 20) + "." + _fake("azure2", _ALNUM, 10)
ENV_TOKEN = _fake("env-token", _HEX, 24)
K8S_TOKEN = base64.b64encode(b"fake-service-account-token-" + _fake("k8s", _ALNUM, 20).encode())
K8S_TOKEN_STR = K8S_TOKEN.decode()
QUERY_KEY = "q1w2FAKE" + _fake("query", _ALNUM, 12)
PS_KEY = "FAKE" + _fake("powershell", _ALNUM, 28)
TOML_TOKEN = "pul-FAKE" + _fake("pulumi", _HEX, 36)

_SAMPLES: list[tuple[str, str, str]] = [
    # ---- provider tokens
    (
        f"export AWS_ACCESS_KEY_ID={AWS_KEY_ID}\nexport AWS_DEFAULT_REGION=eu-west-1",
        AWS_KEY_ID,
        "aws_access_key",
    ),
    (
        f"[default]\naws_secret_access_key = {AWS_SECRET}\nregion = us-east-1\n",
        AWS_SECRET,
        "aws_secret_key",
    ),
    (
        '{"Credentials": {"SecretAccessKey": "' + AWS_STS_SECRET + '", '
        '"Expiration": "2025-01-01T00:00:00Z"}}',
        AWS_STS_SECRET,
        "aws_secret_key",
    ),
    (
        f"The STS call returned {AWS_SESSION_KEY_ID} which expires in an hour.",
        AWS_SESSION_KEY_ID,
        "aws_access_key",
    ),
    (
        f"git remote set-url origin https://{GH_CLASSIC}@github.com/acme/widgets.git",
        GH_CLASSIC,
        "github_token",
    ),
    (f'{{"oauth": {{"access": "{GH_OAUTH}", "scope": "repo"}}}}', GH_OAUTH, "github_token"),
    (
        f"[checkout] Using installation token {GH_SERVER} for acme/widgets",
        GH_SERVER,
        "github_token",
    ),
    (f"GH_TOKEN={GH_FINE}\nGH_HOST=github.com", GH_FINE, "github_token"),
    (
        f"git clone https://oauth2:{GITLAB}@gitlab.com/acme/infra.git /tmp/infra",
        GITLAB,
        "gitlab_token",
    ),
    (
        f'client = WebClient(token="{SLACK_BOT}")\nclient.chat_postMessage(channel="#ops")',
        SLACK_BOT,
        "slack_token",
    ),
    (f"socket mode uses the app-level {SLACK_APP} token", SLACK_APP, "slack_token"),
    (
        f'curl -X POST -d \'{{"text":"deploy done"}}\' {SLACK_WEBHOOK}',
        SLACK_WEBHOOK,
        "slack_webhook",
    ),
    (
        f'const stripe = require("stripe")("{STRIPE_LIVE}");\nawait stripe.charges.list();',
        STRIPE_LIVE,
        "stripe_key",
    ),
    (
        f"Use the restricted key {STRIPE_RESTRICTED} for the nightly reporting job.",
        STRIPE_RESTRICTED,
        "stripe_key",
    ),
    (f"Webhook signing secret is {STRIPE_WEBHOOK} (test mode).", STRIPE_WEBHOOK, "stripe_key"),
    (f"OPENAI_API_KEY={OPENAI_PROJECT}\nOPENAI_ORG=org-acme", OPENAI_PROJECT, "openai_key"),
    (
        f"import openai\nopenai.api_key = '{OPENAI_LEGACY}'\nprint(openai.Model.list())",
        OPENAI_LEGACY,
        "openai_key",
    ),
    (
        f'client = anthropic.Anthropic(api_key="{ANTHROPIC}")\nmsg = client.messages.create()',
        ANTHROPIC,
        "anthropic_key",
    ),
    (
        f'<script src="https://maps.googleapis.com/maps/api/js?key={GOOGLE}&callback=initMap">'
        "</script>",
        GOOGLE,
        "google_api_key",
    ),
    (
        f"//registry.npmjs.org/:_authToken={NPM}\nalways-auth=true",
        NPM,
        "npm_token",
    ),
    (
        f"[pypi]\n  username = __token__\n  password = {PYPI}\n",
        PYPI,
        "pypi_token",
    ),
    (
        f"huggingface-cli login --token {HUGGINGFACE} --add-to-git-credential",
        HUGGINGFACE,
        "huggingface_token",
    ),
    (f"SENDGRID_API_KEY='{SENDGRID}'\nSENDGRID_FROM=noreply@example.com", SENDGRID, "sendgrid_key"),
    (f"twilio api:core:keys:fetch --sid {TWILIO} --profile staging", TWILIO, "twilio_key"),
    (
        f"doctl auth init --context ci --access-token {DIGITALOCEAN}",
        DIGITALOCEAN,
        "digitalocean_token",
    ),
    (
        f"curl -H 'X-Shopify-Access-Token: {SHOPIFY}' https://acme.myshopify.com",
        SHOPIFY,
        "shopify_token",
    ),
    # ---- JWTs
    (
        f'curl -H "Authorization: Bearer {JWT}" https://api.example.com/v1/me',
        JWT,
        "jwt",
    ),
    (
        f"2024-05-02T10:11:12Z DEBUG session cookie set sid={JWT_SESSION}; path=/; HttpOnly",
        JWT_SESSION,
        "jwt",
    ),
    # ---- PEM private keys (whole block)
    (f"Deploy key for the build box:\n{PEM_RSA}\nAdd it to ~/.ssh/id_rsa", PEM_RSA, "private_key"),
    (
        f"cat ~/.ssh/id_ed25519\n{PEM_OPENSSH}\n$ chmod 600 ~/.ssh/id_ed25519",
        PEM_OPENSSH,
        "private_key",
    ),
    (
        f"openssl pkcs8 output:\n{PEM_ENCRYPTED}\n(passphrase in 1Password)",
        PEM_ENCRYPTED,
        "private_key",
    ),
    (f"legacy EC key:\n{PEM_EC}\nend of file", PEM_EC, "private_key"),
    (
        '{"type": "service_account", "private_key": "'
        + PEM_JSON
        + '\\n", "client_email": "ci@acme.iam.gserviceaccount.com"}',
        PEM_JSON,
        "private_key",
    ),
    # ---- passwords in URLs
    (
        f"DATABASE_URL=postgres://app_user:{PG_PASSWORD}@db.internal:5432/app?sslmode=require",
        PG_PASSWORD,
        "url_password",
    ),
    (
        f"CELERY_BROKER=redis://:{REDIS_URL_PASSWORD}@cache:6379/0",
        REDIS_URL_PASSWORD,
        "url_password",
    ),
    (
        f'client = MongoClient("mongodb+srv://admin:{MONGO_PASSWORD}'
        '@cluster0.abcde.mongodb.net/?retryWrites=true")',
        MONGO_PASSWORD,
        "url_password",
    ),
    # ---- assignments and key/value pairs
    ("DB_HOST=db.internal\nDB_PASSWORD=changeme\nDB_PORT=5432", "changeme", "password"),
    ('database:\n  user: app\n  password: "Tr0ub4dor&3"\n  pool: 5', "Tr0ub4dor&3", "password"),
    (
        '{"username": "deploy", "password": "c0rrect-h0rse-battery", "port": 22}',
        "c0rrect-h0rse-battery",
        "password",
    ),
    (f'SECRET_KEY = "{DJANGO_SECRET}"\nDEBUG = False', DJANGO_SECRET, "secret"),
    (f"export SECRET_TOKEN={ENV_TOKEN}\n./run.sh", ENV_TOKEN, "token"),
    (f"azure:\n  tenant: acme\n  client_secret: {AZURE_SECRET}\n", AZURE_SECRET, "secret"),
    (f"vault:\n  api_key: {HEX_API_KEY}\n  timeout: 30", HEX_API_KEY, "api_key"),
    (f'config.secret_key_base = "{RAILS_SECRET}"', RAILS_SECRET, "secret"),
    (
        f"apiVersion: v1\nkind: Secret\ndata:\n  token: {K8S_TOKEN_STR}\n  namespace: ZGVmYXVsdA==",
        K8S_TOKEN_STR,
        "token",
    ),
    (f'$env:API_KEY = "{PS_KEY}"\n.\\deploy.ps1', PS_KEY, "api_key"),
    (
        f"GET https://api.example.com/v1/data?api_key={QUERY_KEY}&format=json returned 200",
        QUERY_KEY,
        "api_key",
    ),
    ("PGPASSWORD=pgS3cret!x psql -h db.internal -U app -c 'select 1'", "pgS3cret!x", "password"),
    ('password := "g0Lang-Secr3t"\ndb, err := sql.Open("mysql", dsn)', "g0Lang-Secr3t", "password"),
    ("$config = ['host' => 'db', 'password' => 'PhpS3cret!42'];", "PhpS3cret!42", "password"),
    (f'[backend]\ntoken = "{TOML_TOKEN}"\nurl = "https://api.pulumi.com"', TOML_TOKEN, "token"),
    (
        "<server>\n  <id>nexus</id>\n  <username>ci</username>\n"
        "  <password>Xml$ecret42</password>\n</server>",
        "Xml$ecret42",
        "password",
    ),
    (
        "curl -H 'Authorization: Basic ZGVwbG95OnMzY3JldC1wYXNzLWZha2U=' https://ci.example.com",
        "ZGVwbG95OnMzY3JldC1wYXNzLWZha2U=",
        "authorization",
    ),
    # ---- CLI flags
    ("mysql -h db.prod -u root -p'R00tPa$$w0rd' shop < dump.sql", "R00tPa$$w0rd", "password"),
    ("mysqldump -u backup -pBkpS3cret9 --all-databases > all.sql", "BkpS3cret9", "password"),
    ("curl -u admin:Adm1nPassw0rd https://jenkins.local/api/json", "Adm1nPassw0rd", "password"),
    (
        "docker login -u ci --password Dk3rHubPw99 registry.example.com",
        "Dk3rHubPw99",
        "password",
    ),
    ("sshpass -p 'Ss4Pass!x' ssh deploy@10.0.0.5 uptime", "Ss4Pass!x", "password"),
    ("redis-cli -h cache.internal -a R3d1sCl1Pw ping", "R3d1sCl1Pw", "password"),
]


# Names of the samples above, in order: one per kind of secret the corpus covers.
_NAMES = [
    "aws-access-key-env", "aws-secret-key-ini", "aws-sts-secret-json", "aws-sts-key-prose",
    "github-classic-in-url", "github-oauth-json", "github-server-token-log",
    "github-fine-grained-env", "gitlab-pat-in-url", "slack-bot-token-code",
    "slack-app-token-prose", "slack-webhook-url", "stripe-live-key-code",
    "stripe-restricted-key-prose", "stripe-webhook-secret", "openai-project-key-env",
    "openai-legacy-key-code", "anthropic-key-code", "google-api-key-in-url", "npm-token-npmrc",
    "pypi-token-pypirc", "huggingface-token-cli", "sendgrid-key-env", "twilio-api-key-cli",
    "digitalocean-token-cli", "shopify-token-header", "jwt-bearer-header", "jwt-session-cookie",
    "pem-rsa", "pem-openssh", "pem-encrypted-pkcs8", "pem-ec-with-headers", "pem-json-escaped",
    "postgres-url-password", "redis-url-password", "mongodb-url-password", "env-password",
    "yaml-password-quoted", "json-password", "django-secret-key", "env-secret-token",
    "azure-client-secret-yaml", "hex-api-key-yaml", "rails-secret-key-base",
    "kubernetes-secret-data", "powershell-env-api-key", "query-param-api-key",
    "pgpassword-env", "go-password", "php-array-password", "toml-token", "xml-password",
    "basic-auth-header", "mysql-p-quoted", "mysqldump-p", "curl-user-password",
    "docker-login-password", "sshpass-p", "redis-cli-a",
]  # fmt: skip


def _capitalised(label: str, n: int = 16, alphabet: str = _ALNUM) -> str:
    """A random value starting with a capital and mixing cases (and digits when the alphabet
    has them): the shape that once read as a type annotation in ``key: Value``."""
    rng = random.Random(f"kenning-cap-{label}")
    while True:
        value = rng.choice(_UP) + "".join(rng.choice(alphabet) for _ in range(n - 1))
        if any(c.islower() for c in value) and sum(c.isupper() for c in value) >= 3:
            return value


_BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
AZURE_STORAGE_KEY = "FAKE" + _fake("azure-storage", _ALNUM + "+/", 82) + "=="
AZURE_SB_KEY = "FAKE" + _fake("azure-sb", _ALNUM + "+/", 39) + "="
AZURE_SAS_SIG = "FAKE" + _fake("azure-sas", _ALNUM, 20) + "%2B" + _fake("sas2", _ALNUM, 16) + "%3D"
AZURE_AD_SECRET = (
    _fake("azure-ad1", _ALNUM, 3) + "8Q~" + "FAKE" + _fake("azure-ad2", _ALNUM + "_~.-", 29)
    + _fake("azure-ad3", _ALNUM, 1)
)  # fmt: skip
AZURE_APIM_KEY = "deadbeef" + _fake("azure-apim", _HEX, 24)
MAILGUN_LEGACY = "key-" + "deadbeef" + _fake("mailgun", _LO + _DIG, 24)
MAILGUN_PRIVATE = (
    "deadbeef" + _fake("mailgun-2", _HEX, 24) + "-" + _fake("mg3", _HEX, 8) + "-"
    + _fake("mg4", _HEX, 8)
)  # fmt: skip
MAILCHIMP = "deadbeef" + _fake("mailchimp", _HEX, 24) + "-us21"
DISCORD_BOT = (
    "MTA" + _fake("discord1", _ALNUM, 23) + "." + _fake("discord2", _B64URL, 6) + ".FAKE"
    + _fake("discord3", _B64URL, 34)
)  # fmt: skip
DISCORD_WEBHOOK = (
    "https://discord.com/api/webhooks/1" + _fake("dwh1", _DIG, 18) + "/FAKE"
    + _fake("dwh2", _B64URL, 64)
)  # fmt: skip
TELEGRAM = "7" + _fake("tg1", _DIG, 9) + ":AAF" + "FAKE" + _fake("tg2", _B64URL, 28)
DATABRICKS = "dapi" + "deadbeef" + _fake("databricks", _HEX, 24)
SQUARE_ACCESS = "EAAA" + "FAKE" + _fake("square", _B64URL, 56)
SQUARE_SECRET = "sq0csp-" + "FAKE" + _fake("square-2", _B64URL, 39)
COOKIE_SESSION = _fake("cookie", _LO + _DIG, 32)
SET_COOKIE = "s%3AFAKE" + _fake("setcookie1", _B64URL, 28) + "." + _fake("setcookie2", _ALNUM, 43)
NETRC_PASSWORD = "FAKE" + _fake("netrc", _ALNUM, 20)
NETRC_INLINE = "nEtRc" + _fake("netrc-2", _ALNUM + "!#%", 14)
PEM_JSON_CUT = (
    "-----BEGIN PRIVATE KEY-----\\n"
    + _pem_body("gcp-cut", 3).replace("\n", "\\n")
    + "\\n" + _fake("gcp-cut-tail", _ALNUM, 21)
)  # fmt: skip
PEM_JSON_TWICE = (
    "-----BEGIN RSA PRIVATE KEY-----\\\\n"
    + _pem_body("twice", 3).replace("\n", "\\\\n")
    + "\\\\n-----END RSA PRIVATE KEY-----"
)  # fmt: skip
PEM_B64 = base64.b64encode(PEM_RSA.encode()).decode()
CAP_YAML = _capitalised("yaml")
CAP_PROSE = _capitalised("prose", 18)
CAP_HEADER = _capitalised("header", 24)
CAP_UPPER_KEY = _capitalised("upper-key", 20)
CAP_ENV = _capitalised("env", 14)
CAP_LOG = _capitalised("log", 12)
CAP_ALPHA = _capitalised("alpha", 14, _UP + _LO)
CAP_PROPERTIES = _capitalised("properties", 16)
PGPASS = "FAKE" + _fake("pgpass", _ALNUM, 16)
PHP_DEFINE = "FAKE" + _fake("php-define", _ALNUM + "!@#", 14)
ENV_SUBSCRIPT = "FAKE" + _fake("env-subscript", _ALNUM, 28)
GO_SETENV = "FAKE" + _fake("go-setenv", _ALNUM, 24)
DOCKER_AUTH = base64.b64encode(b"ci:FAKE" + _fake("docker-auth", _ALNUM, 20).encode()).decode()
NPM_AUTH = base64.b64encode(b"deploy:FAKE" + _fake("npm-auth", _ALNUM, 16).encode()).decode()
ADO_PASSWORD = "FAKE" + _fake("ado", _ALNUM + "!#", 14)
OKTA = "00" + "FAKE" + _fake("okta", _ALNUM + "-_", 36)
AWS_SESSION_TOKEN = "FwoGZXIvYXdzEFAKE" + _fake("aws-session", _ALNUM + "+/", 180)
ATLASSIAN = "ATATT3xFfGF0" + "FAKE" + _fake("atlassian", _B64URL, 170) + "=" + "DEADBEEF"
VAULT = "hvs." + "CAESIFAKE" + _fake("vault", _B64URL, 86)
GRAFANA = "glsa_" + "FAKE" + _fake("grafana", _ALNUM, 28) + "_" + _fake("grafana2", _HEX, 8)
AGE = "AGE-SECRET-KEY-1" + _fake("age", _BECH32, 58)
POSTMAN = "PMAK-" + _fake("postman1", _HEX, 24) + "-" + _fake("postman2", _HEX, 34)
LINEAR = "lin_api_" + "FAKE" + _fake("linear", _ALNUM, 36)
NEWRELIC = "NRAK-" + "FAKE" + _fake("newrelic", _UP + _DIG, 23)
DOPPLER = "dp.pt." + "FAKE" + _fake("doppler", _ALNUM, 39)
TERRAFORM = _fake("tfc1", _ALNUM, 14) + ".atlasv1." + "FAKE" + _fake("tfc2", _ALNUM, 63)
GOOGLE_OAUTH_SECRET = "GOCSPX-" + "FAKE" + _fake("gocspx", _B64URL, 24)
GOOGLE_ACCESS = "ya29." + "a0FAKE" + _fake("ya29", _B64URL, 150)
GROQ = "gsk_" + "FAKE" + _fake("groq", _ALNUM, 48)
XAI = "xai-" + "FAKE" + _fake("xai", _ALNUM, 76)
REPLICATE = "r8_" + "FAKE" + _fake("replicate", _ALNUM, 33)
PERPLEXITY = "pplx-" + "FAKE" + _fake("pplx", _ALNUM, 44)
SENTRY = "sntrys_" + "eyJpYXQiOjE3MDAwMDAwMDB9FAKE" + _fake("sentry", _B64URL, 60)
DOCKER_HUB = "dckr_pat_" + "FAKE" + _fake("dckr", _B64URL, 23)
TAILSCALE = "tskey-auth-" + "kFAKE" + _fake("ts1", _ALNUM, 8) + "-" + _fake("ts2", _ALNUM, 33)
BREVO = "xkeysib-" + "deadbeef" + _fake("brevo", _HEX, 56) + "-" + _fake("brevo2", _ALNUM, 16)
RUBYGEMS = "rubygems_" + "deadbeef" + _fake("rubygems", _HEX, 40)
AIRTABLE = "pat" + "FAKE" + _fake("airtable1", _ALNUM, 10) + "." + _fake("airtable2", _HEX, 64)
NOTION = "ntn_" + "FAKE" + _fake("notion", _ALNUM, 42)
FIGMA = "figd_" + "FAKE" + _fake("figma", _B64URL, 36)
BUILDKITE = "bkua_" + "deadbeef" + _fake("buildkite", _HEX, 32)
NETLIFY = "nfp_" + "FAKE" + _fake("netlify", _ALNUM, 32)
PLANETSCALE = "pscale_tkn_" + "FAKE" + _fake("pscale", _B64URL, 39)
FLYIO = "fo1_" + "FAKE" + _fake("flyio", _B64URL, 39)
SUPABASE = "sbp_" + "deadbeef" + _fake("supabase", _HEX, 32)
ALIBABA = "LTAI" + "FAKE" + _fake("alibaba", _ALNUM, 16)
BITBUCKET = "ATBB" + "FAKE" + _fake("bitbucket", _ALNUM, 28)
HEROKU = "HRKU-AA" + "FAKE" + _fake("heroku", _B64URL, 54)
MAPBOX = "sk.eyJ1IjoiZmFrZSIsImEiOiJGQUtFIn0." + _fake("mapbox", _B64URL, 22)
TWITTER = "A" * 22 + "FAKE" + _fake("twitter", _ALNUM + "%", 88)
DEEPSEEK = "sk-" + "deadbeef" + _fake("deepseek", _HEX, 24)
SHOPIFY_SHARED = "shpss_" + "deadbeef" + _fake("shpss", _HEX, 24)

_MORE: list[tuple[str, str, str, str]] = [
    # ---- kinds that were never caught
    (
        "azure-storage-connection-string",
        "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmeprod;"
        f"AccountKey={AZURE_STORAGE_KEY};EndpointSuffix=core.windows.net",
        AZURE_STORAGE_KEY,
        "azure_key",
    ),
    (
        "azure-service-bus-connection-string",
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName="
        f"RootManageSharedAccessKey;SharedAccessKey={AZURE_SB_KEY}",
        AZURE_SB_KEY,
        "azure_key",
    ),
    (
        "azure-sas-token-url",
        "az storage blob download -u 'https://acme.blob.core.windows.net/backups/db.bak?"
        f"sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01T00:00:00Z&spr=https&sig={AZURE_SAS_SIG}'",
        AZURE_SAS_SIG,
        "azure_key",
    ),
    (
        "azure-ad-client-secret-prose",
        f"The app registration's new client secret is {AZURE_AD_SECRET} (expires in 6 months)",
        AZURE_AD_SECRET,
        "azure_key",
    ),
    (
        "azure-apim-subscription-key",
        f"curl -H 'Ocp-Apim-Subscription-Key: {AZURE_APIM_KEY}' https://acme.azure-api.net/v1",
        AZURE_APIM_KEY,
        "api_key",
    ),
    (
        "mailgun-legacy-key",
        f"Mailgun rejected the request: the key {MAILGUN_LEGACY} was revoked last week",
        MAILGUN_LEGACY,
        "mailgun_key",
    ),
    (
        "mailgun-private-key",
        f"mg = Mailgun(domain='mg.acme.test', api='{MAILGUN_PRIVATE}')",
        MAILGUN_PRIVATE,
        "mailgun_key",
    ),
    (
        "mailchimp-key",
        f"client.set_config({{'server': 'us21', 'api': '{MAILCHIMP}'}})",
        MAILCHIMP,
        "mailchimp_key",
    ),
    (
        "discord-bot-token",
        f'bot.run("{DISCORD_BOT}")  # the bot reconnects on its own',
        DISCORD_BOT,
        "discord_token",
    ),
    (
        "discord-webhook-url",
        f"curl -H 'Content-Type: application/json' -d '{{\"content\":\"deployed\"}}' "
        f"{DISCORD_WEBHOOK}",
        DISCORD_WEBHOOK,
        "discord_webhook",
    ),
    (
        "telegram-bot-token-url",
        f"curl -s https://api.telegram.org/bot{TELEGRAM}/sendMessage -d chat_id=42 -d text=hi",
        TELEGRAM,
        "telegram_token",
    ),
    (
        "telegram-bot-token-code",
        f"bot = telebot.TeleBot('{TELEGRAM}', parse_mode=None)",
        TELEGRAM,
        "telegram_token",
    ),
    (
        "databricks-token",
        f"databricks configure --host https://adb-1234.azuredatabricks.net; token {DATABRICKS}",
        DATABRICKS,
        "databricks_token",
    ),
    (
        "square-access-token",
        f"client = Client(access_token='{SQUARE_ACCESS}', environment='production')",
        SQUARE_ACCESS,
        "square_token",
    ),
    (
        "square-oauth-secret",
        f"The Square application secret {SQUARE_SECRET} is only needed for OAuth.",
        SQUARE_SECRET,
        "square_token",
    ),
    (
        "cookie-session-header",
        f"curl -H 'Cookie: theme=dark; sessionid={COOKIE_SESSION}; lang=en-GB' "
        "https://admin.acme.test/",
        COOKIE_SESSION,
        "cookie",
    ),
    (
        "set-cookie-session",
        f"< Set-Cookie: connect.sid={SET_COOKIE}; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT;"
        " HttpOnly",
        SET_COOKIE,
        "cookie",
    ),
    (
        "netrc-password",
        f"cat ~/.netrc\nmachine api.heroku.com\n  login deploy@acme.test\n  password "
        f"{NETRC_PASSWORD}\n",
        NETRC_PASSWORD,
        "password",
    ),
    (
        "netrc-one-line",
        f"echo 'machine git.acme.test login ci password {NETRC_INLINE}' >> ~/.netrc",
        NETRC_INLINE,
        "password",
    ),
    (
        "pem-json-escaped-cut",
        '{"type": "service_account", "project_id": "acme", "private_key": "' + PEM_JSON_CUT,
        PEM_JSON_CUT,
        "private_key",
    ),
    (
        "pem-json-escaped-twice",
        '{"message": "{\\"key\\": \\"' + PEM_JSON_TWICE + '\\"}"}',
        PEM_JSON_TWICE,
        "private_key",
    ),
    (
        "pem-base64-kubeconfig",
        f"users:\n- name: admin\n  user:\n    client-key-data: {PEM_B64}\n",
        PEM_B64,
        "private_key",
    ),
    # ---- key: Value with a capitalised value (once read as a type annotation)
    (
        "yaml-password-capitalised",
        f"db:\n  host: db.internal\n  password: {CAP_YAML}\n  pool: 5",
        CAP_YAML,
        "password",
    ),
    (
        "prose-password-capitalised",
        f"The staging admin password: {CAP_PROSE} (rotate it after the demo).",
        CAP_PROSE,
        "password",
    ),
    (
        "header-api-key-capitalised",
        f"curl -H 'X-Api-Key: {CAP_HEADER}' https://api.acme.test/v2/orders",
        CAP_HEADER,
        "api_key",
    ),
    (
        "upper-key-capitalised",
        f"SECRET: {CAP_UPPER_KEY}\nREGION: eu-west-1",
        CAP_UPPER_KEY,
        "secret",
    ),
    ("env-lower-key-capitalised", f"api_token={CAP_ENV} ./sync.sh", CAP_ENV, "token"),
    (
        "log-password-capitalised",
        f"2024-05-02 10:11:12 INFO created user admin. Password: {CAP_LOG} - change it",
        CAP_LOG,
        "password",
    ),
    (
        "properties-password-letters",
        f"spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password={CAP_ALPHA}",
        CAP_ALPHA,
        "password",
    ),
    (
        "annotation-like-password",
        f"    password: {CAP_PROPERTIES},  # from the vault dump",
        CAP_PROPERTIES,
        "password",
    ),
    # ---- other assignment forms
    ("pgpass-line", f"~/.pgpass:\ndb.internal:5432:app:app_user:{PGPASS}", PGPASS, "password"),
    ("php-define", f"define('DB_PASSWORD', '{PHP_DEFINE}');", PHP_DEFINE, "password"),
    (
        "environ-subscript",
        f'os.environ["OPENAI_API_KEY"] = "{ENV_SUBSCRIPT}"',
        ENV_SUBSCRIPT,
        "api_key",
    ),
    ("go-setenv", f'os.Setenv("GITLAB_TOKEN", "{GO_SETENV}")', GO_SETENV, "token"),
    (
        "docker-config-auth",
        '{"auths": {"registry.acme.test": {"auth": "' + DOCKER_AUTH + '"}}}',
        DOCKER_AUTH,
        "secret",
    ),
    ("npmrc-auth", f"registry=https://npm.acme.test/\n_auth={NPM_AUTH}", NPM_AUTH, "secret"),
    (
        "ado-connection-string",
        "Server=tcp:acme.database.windows.net,1433;Initial Catalog=app;User ID=sa;"
        f"Password={ADO_PASSWORD};Encrypt=True;",
        ADO_PASSWORD,
        "password",
    ),
    (
        "okta-ssws-header",
        f"curl -H 'Authorization: SSWS {OKTA}' https://acme.okta.com/api/v1/users",
        OKTA,
        "authorization",
    ),
    (
        "aws-session-token",
        f"[default]\naws_session_token = {AWS_SESSION_TOKEN}\n",
        AWS_SESSION_TOKEN,
        "token",
    ),
    # ---- more provider tokens
    ("atlassian-api-token", f"JIRA_CREDS=me@acme.test:{ATLASSIAN}", ATLASSIAN, "atlassian_token"),
    ("vault-token", f"vault login {VAULT}", VAULT, "vault_token"),
    ("grafana-token", f"Grafana service account token {GRAFANA} (Editor)", GRAFANA,
     "grafana_token"),
    ("age-secret-key", f"# created: 2024-05-02\n{AGE}\n", AGE, "age_key"),
    ("postman-key", f"newman run api.json --postman-api-key {POSTMAN}", POSTMAN, "postman_key"),
    ("linear-key", f"const linear = new LinearClient({{ apiKey: '{LINEAR}' }})", LINEAR,
     "linear_key"),
    ("newrelic-key", f"New Relic user key {NEWRELIC} works for NerdGraph", NEWRELIC,
     "newrelic_key"),
    ("doppler-token", f"doppler configure set token {DOPPLER} --scope /", DOPPLER,
     "doppler_token"),
    (
        "terraform-cloud-token",
        f'credentials "app.terraform.io" {{ value = {TERRAFORM} }}',
        TERRAFORM,
        "terraform_token",
    ),
    (
        "google-oauth-client-secret",
        f"OAuth client created; its secret {GOOGLE_OAUTH_SECRET} goes in the vault",
        GOOGLE_OAUTH_SECRET,
        "google_oauth",
    ),
    (
        "google-access-token",
        f"gcloud auth print-access-token\n{GOOGLE_ACCESS}",
        GOOGLE_ACCESS,
        "google_oauth",
    ),
    ("groq-key", f"client = Groq(api_key={GROQ!r})", GROQ, "groq_key"),
    ("xai-key", f"The xAI key {XAI} belongs to the research team", XAI, "xai_key"),
    ("replicate-token", f"REPLICATE={REPLICATE} python gen.py", REPLICATE, "replicate_token"),
    ("perplexity-key", f"pplx client uses {PERPLEXITY} in CI", PERPLEXITY, "perplexity_key"),
    ("sentry-auth-token", f"sentry-cli --auth-token {SENTRY} releases new 1.2.3", SENTRY,
     "sentry_token"),
    ("docker-hub-token", f"echo {DOCKER_HUB} | docker login -u acme --password-stdin",
     DOCKER_HUB, "docker_token"),
    ("tailscale-auth-key", f"tailscale up --authkey={TAILSCALE} --ssh", TAILSCALE,
     "tailscale_key"),
    ("brevo-key", f"Brevo (Sendinblue) key {BREVO} for transactional mail", BREVO,
     "brevo_key"),
    ("rubygems-key", f"---\n:rubygems_api_key: {RUBYGEMS}\n", RUBYGEMS, "rubygems_token"),
    ("airtable-pat", f"base = Api('{AIRTABLE}').base('appFAKE')", AIRTABLE, "airtable_token"),
    ("notion-token", f"notion = Client(auth=\"{NOTION}\")", NOTION, "notion_token"),
    ("figma-token", f"curl -H 'X-FIGMA-TOKEN: {FIGMA}' https://api.figma.com/v1/me", FIGMA,
     "figma_token"),
    ("buildkite-token", f"bk configure --token {BUILDKITE}", BUILDKITE, "buildkite_token"),
    ("netlify-token", f"netlify deploy --auth {NETLIFY} --prod", NETLIFY, "netlify_token"),
    ("planetscale-token", f"pscale auth login --service-token {PLANETSCALE}", PLANETSCALE,
     "planetscale_token"),
    ("flyio-token", f"fly deploy --access-token {FLYIO}", FLYIO, "flyio_token"),
    ("supabase-token", f"supabase login --token {SUPABASE}", SUPABASE, "supabase_token"),
    ("alibaba-access-key", f"aliyun configure set --access-key-id {ALIBABA} --region cn-hangzhou",
     ALIBABA, "alibaba_key"),
    ("bitbucket-app-password", f"git clone https://x-token-auth:{BITBUCKET}@bitbucket.org/a/b",
     BITBUCKET, "bitbucket_token"),
    ("heroku-api-key", f"heroku authorizations:create printed {HEROKU}", HEROKU, "heroku_key"),
    ("mapbox-secret-token", f"MapboxAPI(token: \"{MAPBOX}\")", MAPBOX, "mapbox_token"),
    ("twitter-bearer-token", f"tweepy.Client(bearer_token='{TWITTER}')", TWITTER,
     "twitter_token"),
    ("deepseek-key", f"DeepSeek answered 401 for {DEEPSEEK}", DEEPSEEK, "api_key"),
    ("shopify-shared-secret", f"Shopify app shared secret: {SHOPIFY_SHARED}", SHOPIFY_SHARED,
     "shopify_token"),
]


def _ppk(label: str, public: int, private: int) -> tuple[str, str, str]:
    """A PuTTY key file's public lines, private lines and MAC (seeded, 64 base64 characters a
    line as PuTTY writes them)."""
    pub = "\n".join(["AAAAC3NzaC1lZDI1NTE5AAAA" + _fake(f"{label}-pub-{i}", _ALNUM + "+/", 40)
                     for i in range(public)])
    priv = [_fake(f"{label}-priv-{i}", _ALNUM + "+/", 64) for i in range(private)]
    priv[0] = "AAAAFAKE" + priv[0][8:]
    return pub, "\n".join(priv), "deadbeef" + _fake(f"{label}-mac", _HEX, 56)


PPK3_PUB, PPK3_PRIV, PPK3_MAC = _ppk("ppk3", 1, 1)
PPK2_PUB, PPK2_PRIV, PPK2_MAC = _ppk("ppk2", 2, 5)
PROSE_PW = _fake("prose-set-to", _ALNUM, 15)
PASSPHRASE_TOKEN = "maple-Orbit-" + _fake("passphrase", _DIG, 4) + "-dune"

# Issue 37: credentials said in a sentence (in the capture's languages) or passed to commands
# as plain arguments, which reached the store and the files Claude Code loads. Each is tagged
# with its shape group; the groups drawn for the held-out part are in ``HELDOUT``, these are
# the dev part. (group, name, text, secret, kind)
_PROSE: list[tuple[str, str, str, str, str]] = [
    ("prose-en-is", "prose-password-is-bare", "password is Tr0ub4dor-x9Q", "Tr0ub4dor-x9Q",
     "password"),
    ("prose-en-is", "prose-staging-password-is-now",
     "fyi, the staging password is now Lq8#vortex-12, rotate after the demo", "Lq8#vortex-12",
     "password"),
    ("prose-en-is", "prose-root-password-backticks",
     "The root password on db-2 is `Pg!Root-5521`.", "Pg!Root-5521", "password"),
    ("prose-en-is", "prose-password-contraction", "heads up: the password's Mar1gold.Seven",
     "Mar1gold.Seven", "password"),
    ("prose-en-is", "prose-set-password-to",
     f"I set the password to {PROSE_PW} on the new VM", PROSE_PW, "password"),
    ("prose-passphrase", "prose-passphrase-token",
     f"our backup passphrase is {PASSPHRASE_TOKEN}", PASSPHRASE_TOKEN, "password"),
    ("prose-passphrase", "prose-passphrase-quoted-words",
     'the GPG passphrase is "quiet lantern 42 harbor" and nobody else has it',
     "quiet lantern 42 harbor", "password"),
    ("prose-passphrase", "prose-passphrase-backtick-words",
     "the signing key's passphrase: `copper kettle 9 violet`", "copper kettle 9 violet",
     "password"),
    ("prose-fr", "prose-fr-est", "le mot de passe est Cr0issant!42", "Cr0issant!42", "password"),
    ("prose-fr", "prose-fr-colon-spaced", "Mot de passe du wifi : Baguette-77-Rue",
     "Baguette-77-Rue", "password"),
    ("prose-fr", "prose-fr-mdp-cest", "le mdp de la base, c'est Lyon2024#prod",
     "Lyon2024#prod", "password"),
    ("prose-ko", "prose-ko-particle-spaced", "비밀번호는 Hangang!2024 입니다", "Hangang!2024",
     "password"),
    ("prose-ko", "prose-ko-colon", "DB 비밀번호: Seoul-88-tower", "Seoul-88-tower", "password"),
    ("prose-ko", "prose-ko-ending-joined", "관리자 암호는 Kimchi#77x예요", "Kimchi#77x",
     "password"),
    ("prose-es", "prose-es-es", "la contraseña es Tortilla#88", "Tortilla#88", "password"),
    ("prose-es", "prose-es-colon", "Contraseña del servidor: Paella-2024-mar", "Paella-2024-mar",
     "password"),
    ("prose-zh", "prose-zh-shi-joined", "密码是Dragon88!cn", "Dragon88!cn", "password"),
    ("prose-zh", "prose-zh-fullwidth-colon", "数据库密码：Panda-7731-bj", "Panda-7731-bj",
     "password"),
    ("htpasswd", "htpasswd-b", "htpasswd -b /etc/apache2/.htpasswd alice Al1ce-Wonder!",
     "Al1ce-Wonder!", "password"),
    ("htpasswd", "htpasswd-bc-quoted",
     "sudo htpasswd -bc /etc/nginx/.htpasswd admin 'N9inx#Adm1n'", "N9inx#Adm1n", "password"),
    ("htpasswd", "htpasswd-option-with-argument",
     "htpasswd -B -b -C 12 ./auth/htpasswd registry Reg1stry-Pw-55", "Reg1stry-Pw-55",
     "password"),
    ("requests-auth-tuple", "requests-auth-tuple-get",
     'r = requests.get(url, auth=("svc-reporter", "R3port!ng-2024"))', "R3port!ng-2024",
     "password"),
    ("requests-auth-tuple", "requests-auth-tuple-post-single-quotes",
     "resp = requests.post(API, json=body, auth=('bot', 'B0t-Secret-9x'), timeout=10)",
     "B0t-Secret-9x", "password"),
    ("requests-auth-tuple", "httpx-auth-tuple-variable-user",
     "client = httpx.Client(auth=(user, 'Httpx-Pw-771'))", "Httpx-Pw-771", "password"),
    ("requests-basic-auth", "requests-httpbasicauth",
     'requests.get(url, auth=HTTPBasicAuth("ops", "0ps-B4sic!"))', "0ps-B4sic!", "password"),
    ("requests-basic-auth", "requests-auth-module-httpbasicauth",
     "session.auth = requests.auth.HTTPBasicAuth('jenkins', 'Jenk1ns_Tok_88')",
     "Jenk1ns_Tok_88", "password"),
    ("requests-basic-auth", "requests-httpdigestauth",
     "r = requests.get(url, auth=HTTPDigestAuth('admin', 'Dig3st-Pw!'))", "Dig3st-Pw!",
     "password"),
    ("putty-ppk", "putty-ppk-v3",
     "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@build\n"
     f"Public-Lines: 1\n{PPK3_PUB}\nPrivate-Lines: 1\n{PPK3_PRIV}\nPrivate-MAC: {PPK3_MAC}\n",
     f"{PPK3_PRIV}\nPrivate-MAC: {PPK3_MAC}", "private_key"),
    ("putty-ppk", "putty-ppk-v2-encrypted",
     "type C:\\keys\\ci.ppk\nPuTTY-User-Key-File-2: ssh-rsa\nEncryption: aes256-cbc\n"
     f"Comment: ci-key\nPublic-Lines: 2\n{PPK2_PUB}\nPrivate-Lines: 5\n{PPK2_PRIV}\n"
     f"Private-MAC: {PPK2_MAC}",
     f"{PPK2_PRIV}\nPrivate-MAC: {PPK2_MAC}", "private_key"),
    ("marked-secret-in-words", "marked-use-this-instead",
     "no, always use this instead: Zr8!kLm-204q", "Zr8!kLm-204q", "secret"),
    ("marked-secret-in-words", "marked-secret-dont-paste",
     "this one is secret, don't paste it anywhere: Hq4$wnT-88", "Hq4$wnT-88", "secret"),
    ("marked-secret-in-words", "marked-keep-private",
     "keep this private: 7Gx!pL2-mQw9", "7Gx!pL2-mQw9", "secret"),
    ("marked-secret-in-words", "marked-secret-value-is",
     "the secret value is Sn0w-Fall-2025", "Sn0w-Fall-2025", "secret"),
]  # fmt: skip


@dataclass(frozen=True)
class SecretSample:
    """One kind of secret in a realistic context: ``secret`` is the exact span that must be
    replaced by ``[REDACTED:<kind>]`` and appears once in ``text``."""

    name: str
    text: str
    secret: str
    kind: str
    group: str = ""


CORPUS: list[SecretSample] = [
    SecretSample(name, text, secret, kind)
    for name, (text, secret, kind) in zip(_NAMES, _SAMPLES, strict=True)
] + [SecretSample(*sample) for sample in _MORE] + [
    SecretSample(name, text, secret, kind, group) for group, name, text, secret, kind in _PROSE
]
"""Every kind of secret the corpus covers, each with a unique name (the dev part: the
held-out part is :data:`HELDOUT`)."""

HELDOUT_FILE = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "heldout" / (
    "prose_secrets.jsonl")


def _heldout() -> list[SecretSample]:
    rows = [json.loads(line) for line in HELDOUT_FILE.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return [SecretSample(r["name"], r["text"], r["secret"], r["kind"], r["group"]) for r in rows]


HELDOUT: list[SecretSample] = _heldout()
"""The held-out shape groups of issue 37 (``benchmarks/data/heldout/prose_secrets.jsonl``,
frozen): scored by ``benchmarks/bench_security.py``, never used to tune the redactor."""

SECRET_SAMPLES: list[tuple[str, str]] = [(s.text, s.secret) for s in CORPUS]
SECRET_SAMPLE_KINDS: list[str] = [s.kind for s in CORPUS]

NEGATIVE_SAMPLES: list[str] = [
    "Use JWT for auth: stateless, scales",
    "Implemented the password reset flow with a 30 minute expiry.",
    "token refresh is slow when the cache is cold",
    "the API key is stored in Vault and injected at deploy time",
    'token = os.environ["GITHUB_TOKEN"]',
    'api_key = os.getenv("OPENAI_API_KEY")',
    'password = getpass.getpass("DB password: ")',
    "def login(username: str, password: str) -> bool:",
    'if not password:\n    raise ValueError("password required")',
    "max_tokens: 4096\ntemperature: 0.2\ntoken_count = len(tokens)",
    "Fixed in commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f (see PR #42).",
    "request_id=550e8400-e29b-41d4-a716-446655440000 failed with 502",
    "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "Authorization: Bearer tokens are validated by the gateway, not the service.",
    'headers = {"Authorization": f"Bearer {token}"}',
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me',
    "DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=xxx\nSECRET=<your-secret-here>",
    'password: "********"\ntoken: ""\napi_key: null',
    "postgres://user:password@localhost:5432/app is the docker-compose default",
    "git clone git@github.com:acme/widgets.git && cd widgets",
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n"
    "-----END PUBLIC KEY-----",
    "mysql -u root -p mydb   # prompts for the password",
    'cache_key = f"user:{user_id}"\nsecret_name = "prod/db"',
    "pip install scikit-learn; sk-learn is a common misspelling",
    "const token = await getToken();\nconst secret = config.get('secret');",
    "password_min_length = 12\ntoken_type: bearer",
    "Rotate the AWS access key every 90 days; long-term keys start with AKIA.",
    'SECRET_KEY = env("DJANGO_SECRET_KEY")',
    "The `password` field is hashed with argon2id before storage.",
    "api_key: str | None = None\npassword: Optional[str] = None",
    "Password: must be at least 12 characters and is checked against HIBP.",
    "token: refresh is slow when redis is far away",
    "Set the --password flag only in CI; locally use the keychain.",
    "https://docs.example.com:8443/guide/auth#tokens",
    "user.password = hash_password(form.password.data)",
    '{"password": new_password, "token": token}',
    # Issue 37: prose about passwords, and code that names one, with no password in it.
    "the password is stored hashed with argon2",
    "password is required",
    "the password field is validated",
    "reset your password via the link",
    'password = os.environ["DB_PASSWORD"]',
    "password: ${DB_PASSWORD}",
    "passphrase is too short",
    "the passphrase is the same as last year",
    "Password is set via the PASSWORD env var, never on the command line.",
    "le mot de passe est trop court",
    "das Passwort ist falsch",
    "비밀번호는 8자 이상이어야 합니다",
    "密码是必填项",
    "パスワードは変更済みです",
    "la contraseña es obligatoria",
    "no, always use this instead: pnpm install --frozen-lockfile",
    "use this instead: ruff format",
    "htpasswd -b is insecure because the password shows up in shell history",
    "requests.get(url, auth=(user, password))",
    'auth=HTTPBasicAuth(username, os.environ["API_PASSWORD"])',
    "net use Z: \\\\server\\share /user:admin *",
    "keep this private: it is internal-only documentation",
    "the secret is to cache the embeddings before the first query",
    "the pw field is optional for SSO users",
]
