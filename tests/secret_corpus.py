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

__all__ = ["NEGATIVE_SAMPLES", "SECRET_SAMPLES", "SECRET_SAMPLE_KINDS"]

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

SECRET_SAMPLES: list[tuple[str, str]] = [(text, secret) for text, secret, _ in _SAMPLES]
SECRET_SAMPLE_KINDS: list[str] = [kind for _, _, kind in _SAMPLES]

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
]
