"""Ordinary code and prose that holds no secret, for the redactor's false-positive rate.

What a coding agent's memories are full of and a redactor is most tempted by: commit SHAs,
UUIDs, content hashes and image digests, base64 test fixtures, lock-file integrity strings, long
identifiers, type annotations and settings whose names say password, token or key, placeholders,
and prose about credentials. ``ORDINARY`` is a fixed list of such snippets, generated from a
fixed seed; none of them holds a credential, so every change the redactor makes is a false
positive.
"""

from __future__ import annotations

import base64
import hashlib
import random
import string
import uuid

__all__ = ["ORDINARY"]

_rng = random.Random("kenning-ordinary")


def _hex(n: int) -> str:
    return "".join(_rng.choice("0123456789abcdef") for _ in range(n))


def _uuid() -> str:
    return str(uuid.UUID(int=_rng.getrandbits(128), version=4))


def _word() -> str:
    return _rng.choice(_WORDS)


def _b64(n: int) -> str:
    return base64.b64encode(bytes(_rng.getrandbits(8) for _ in range(n))).decode()


def _ident(parts: int, style: str) -> str:
    words = [_word() for _ in range(parts)]
    if style == "snake":
        return "_".join(words)
    if style == "camel":
        return words[0] + "".join(w.title() for w in words[1:])
    if style == "const":
        return "_".join(words).upper()
    return "".join(w.title() for w in words)


_WORDS = (
    "user account order invoice payment ledger charge refund session cache queue worker job "
    "retry backoff timeout limit window rate request response handler router middleware "
    "config settings loader parser builder factory manager service client server store "
    "index search ranking score weight vector embedding token password secret key auth login "
    "logout reset verify hash digest salt cipher encrypt decrypt sign verify certificate "
    "public private field model schema table column migration version release deploy build "
    "test fixture mock stub report metric trace span event message topic stream batch page "
    "cursor offset filter sort group merge split format render template view widget button"
).split()

_TYPES = (
    "SecretStr", "SecretBytes", "OAuth2PasswordBearer", "APIKeyHeader", "HTTPBasicCredentials",
    "HTTPAuthorizationCredentials", "RSAPrivateKey", "Ed25519PrivateKey", "PrivateKeyTypes",
    "TokenData", "AccessToken", "RefreshToken", "PasswordField", "SecretsManager", "KeyPair",
    "Credentials", "CredentialProvider", "BearerAuth", "ApiKeyAuth", "TokenResponse",
    "PasswordHasher", "SigningKey", "VerifyKey", "Fernet", "Secret", "Token", "Password",
)
_SECRET_NAMES = ("password", "token", "api_key", "secret", "private_key", "credentials",
                 "access_token", "refresh_token", "client_secret", "auth_token", "secret_key")


def _snippet() -> str:
    kind = _rng.randrange(24)
    name = _rng.choice(_SECRET_NAMES)
    if kind == 0:
        return f"commit {_hex(40)}\nAuthor: Dev <dev@acme.test>\n\n    Fix the {_word()} {_word()}"
    if kind == 1:
        return (f"Reverted {_hex(40)[:_rng.choice((7, 10, 12, 40))]} because the {_word()} "
                f"{_word()} broke; see {_hex(40)}.")
    if kind == 2:
        return (f"2026-05-0{_rng.randint(1, 9)}T10:11:12Z INFO request_id={_uuid()} "
                f"trace_id={_hex(32)} span_id={_hex(16)} status=200 took={_rng.randint(3, 900)}ms")
    if kind == 3:
        data = _b64(_rng.choice((24, 48, 96)))
        return f'FIXTURE = base64.b64decode("{data}")\nassert decode(FIXTURE) == expected'
    if kind == 4:
        version = f"1.{_rng.randint(0, 9)}.0"
        return (f'"node_modules/{_word()}-{_word()}": {{\n  "version": "{version}",\n'
                f'  "integrity": "sha512-{_b64(64)}"\n}}')
    if kind == 5:
        return f"docker pull ghcr.io/acme/{_word()}@sha256:{_hex(64)}"
    if kind == 6:
        return f"github.com/acme/{_word()} v1.{_rng.randint(0, 9)}.0 h1:{_b64(32)}"
    if kind == 7:
        style = _rng.choice(("snake", "camel", "pascal", "const"))
        return f"def test_{_ident(6, 'snake')}():\n    {_ident(3, style)} = {_ident(4, style)}()"
    if kind == 8:
        return f"    {name}: {_rng.choice(_TYPES)}"
    if kind == 9:
        return f"def {_ident(2, 'snake')}(self, {name}: {_rng.choice(_TYPES)}) -> None:"
    if kind == 10:
        return f"    {name}: {_rng.choice(_TYPES)} = Field(default=None, description='the {name}')"
    if kind == 11:
        return (f"{name}_min_length: {_rng.randint(8, 16)}\n"
                f"{name}_ttl_seconds: {_rng.randint(60, 9999)}")
    if kind == 12:
        return (f"{name.upper()}=${{{name.upper()}}}\n{name}: <your-{name}>\n"
                f"{name} = os.environ[\"{name.upper()}\"]")
    if kind == 13:
        return (f"The {name.replace('_', ' ')} is read from Vault at start-up and rotated every "
                f"{_rng.randint(2, 90)} days; never log it.")
    if kind == 14:
        return f"{name} = {_ident(2, 'snake')}.{_ident(2, 'snake')}({_ident(1, 'snake')})"
    if kind == 15:
        return f"sha256sum dist/{_word()}.tar.gz\n{_hex(64)}  dist/{_word()}.tar.gz"
    if kind == 16:
        digest = hashlib.md5(_word().encode(), usedforsecurity=False).hexdigest()
        return f"ETag: \"{digest}\"\nCache-Control: max-age={_rng.randint(60, 86400)}"
    if kind == 17:
        return (f"const {_ident(2, 'camel')} = useMemo(() => {_ident(3, 'camel')}(props), "
                f"[{_ident(1, 'camel')}]);")
    if kind == 18:
        return (f"CREATE INDEX ix_{_ident(3, 'snake')} ON {_word()}s ({_word()}_id, created_at);"
                f"\n-- migration {_hex(12)}")
    if kind == 19:
        return (f"https://github.com/acme/{_word()}/pull/{_rng.randint(10, 9999)}/commits/"
                f"{_hex(40)}")
    if kind == 20:
        return f"uuid: {_uuid()}\nname: {_word()}-{_word()}\nreplicas: {_rng.randint(1, 9)}"
    if kind == 21:
        cls = _ident(3, "pascal")
        return f"class {cls}({_rng.choice(_TYPES)}):\n    \"\"\"The {_word()} {_word()}.\"\"\""
    if kind == 22:
        empty = _rng.choice(("null", "None", "required", '""', '"********"'))
        return f"{name}: {empty}\n{name}_file: /run/secrets/{name}"
    letters = string.ascii_lowercase
    slug = "-".join("".join(_rng.choice(letters) for _ in range(_rng.randint(3, 8)))
                    for _ in range(3))
    return f"Branch feature/{slug} merged into main as {_hex(40)[:12]}."


ORDINARY: list[str] = [_snippet() for _ in range(1200)]
"""Snippets of ordinary code and prose without secrets (a fixed list)."""
