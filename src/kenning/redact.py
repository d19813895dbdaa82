"""Secret redaction applied to every text before it is stored or embedded.

Each secret found is replaced by a marker of the form ``[REDACTED:<kind>]``, for example
``[REDACTED:aws_access_key]`` or ``DB_PASSWORD=[REDACTED:password]``. Only the secret itself is
replaced: key names, URL schemes, user names, hosts and quotes are kept so the memory stays
readable. The bare ``[REDACTED]`` (the :data:`REDACTED` constant) is also recognised as a marker
on input but is never produced.

Kinds produced (see :data:`KINDS`): provider tokens (``aws_access_key``, ``github_token``,
``openai_key`` ...), ``jwt``, ``private_key`` (whole PEM block), ``url_password`` (the password of
``scheme://user:PASSWORD@host``), ``authorization`` (HTTP ``Authorization`` header credentials)
and, for ``key = value`` style assignments, a kind derived from the key name: ``password``,
``token``, ``api_key``, ``private_key``, ``aws_secret_key`` or ``secret``.

Values are judged before they are replaced: placeholders (``<your-token>``, ``${VAR}``, ``$VAR``,
``xxx``, ``***``), code (``os.environ["X"]``, ``get_token()``, ``self.password``, type
annotations) and prose (``password reset flow``, ``Use JWT for auth: stateless``) are left alone;
a literal such as ``changeme`` is a real password and is redacted. Arbitrary hashes, commit SHAs
and UUIDs are only redacted when assigned to a secret-looking key.

Every detector runs over the text, overlaps are resolved in favour of the earlier, more specific
detector, and the text is rewritten; this repeats until a pass finds nothing new. Markers already
present are never matched again, so :func:`redact` is idempotent. All regexes are precompiled,
bounded and use possessive quantifiers, so run time is linear in the input size.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["KINDS", "REDACTED", "Redaction", "marker", "redact", "redact_obj"]

REDACTED = "[REDACTED]"
"""The bare marker. Produced markers always carry a kind: ``[REDACTED:<kind>]``."""

KINDS: tuple[str, ...] = (
    "private_key",
    "anthropic_key",
    "openai_key",
    "stripe_key",
    "github_token",
    "gitlab_token",
    "slack_token",
    "slack_webhook",
    "aws_access_key",
    "aws_secret_key",
    "google_api_key",
    "npm_token",
    "pypi_token",
    "huggingface_token",
    "sendgrid_key",
    "twilio_key",
    "digitalocean_token",
    "shopify_token",
    "jwt",
    "url_password",
    "authorization",
    "password",
    "token",
    "api_key",
    "secret",
)
"""Every kind that can appear in a ``[REDACTED:<kind>]`` marker."""


@dataclass(frozen=True)
class Redaction:
    """Result of :func:`redact`."""

    text: str
    count: int
    kinds: tuple[str, ...]


def marker(kind: str) -> str:
    """Return the marker that replaces a secret of ``kind``."""
    return f"[REDACTED:{kind}]"


_Span = tuple[int, int, str]
_Detector = Callable[[str], Iterator[_Span]]

_MARKER_RE = re.compile(r"\[REDACTED(?::[A-Za-z0-9_]{1,40})?\]")

# --------------------------------------------------------------------------- PEM private keys

_PEM_BEGIN_RE = re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END_RE = re.compile(r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
# A truncated block (no END line): the header and base64 lines that follow BEGIN.
_PEM_BODY_RE = re.compile(
    r"(?:[ \t]*+(?:\r?\n|\\r?\\n)[ \t]*+"
    r"(?:[A-Za-z0-9+/=]{16,}+|[A-Z][A-Za-z-]{1,30}+: [^\n\\]{1,200}+))*+"
)
# What may sit between BEGIN and END: base64, blank lines, "Proc-Type: 4,ENCRYPTED" headers,
# and newlines escaped as \n inside JSON strings.
_PEM_INNER_RE = re.compile(r"[A-Za-z0-9+/=\s:,\\-]*+")
_PEM_B64_RUN_RE = re.compile(r"[A-Za-z0-9+/]{40}")
_PEM_MAX_BLOCK = 65536


def _pem(text: str) -> Iterator[_Span]:
    if "PRIVATE KEY" not in text:
        return
    ends = [(m.start(), m.end()) for m in _PEM_END_RE.finditer(text)]
    end_starts = [start for start, _ in ends]
    pos = 0
    while (begin := _PEM_BEGIN_RE.search(text, pos)) is not None:
        end = begin.end()
        i = bisect_left(end_starts, begin.end())
        if i < len(ends) and ends[i][1] - begin.start() <= _PEM_MAX_BLOCK:
            inner = text[begin.end() : ends[i][0]]
            if _PEM_INNER_RE.fullmatch(inner) and _PEM_B64_RUN_RE.search(inner):
                end = ends[i][1]
        if end == begin.end():  # no END line (truncated) or not a real key between the lines
            body = _PEM_BODY_RE.match(text, begin.end())
            end = body.end() if body else end
        if end > begin.end():  # a bare BEGIN line (e.g. a constant in code) is no secret
            yield begin.start(), end, "private_key"
        pos = end


# --------------------------------------------------------------------------- provider tokens


def _tok(prefix: str, width: int, body: str) -> str:
    """A token pattern: literal-ish ``prefix`` (``width`` chars), word boundary before it."""
    return rf"{prefix}(?<![A-Za-z0-9_-].{{{width}}}){body}"


_B64URL = "[A-Za-z0-9_-]"
# (kind, needles, pattern): a pattern only runs when one of its literal needles is present.
_TOKEN_SPECS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("anthropic_key", ("sk-ant-",), _tok("sk-ant-", 7, rf"{_B64URL}{{20,}}+")),
    (
        "openai_key",
        ("sk-",),
        _tok(
            "sk-",
            3,
            # Real keys are long and mix upper case, lower case and digits; this keeps
            # hyphenated slugs such as "sk-learn-..." out.
            r"(?=[a-z0-9_-]*+[A-Z])(?=[A-Z0-9_-]*+[a-z])(?=[A-Za-z_-]*+[0-9])"
            rf"{_B64URL}{{20,}}+",
        ),
    ),
    ("stripe_key", ("k_live_", "k_test_"), _tok(r"[sr]k_(?:live|test)_", 8, "[A-Za-z0-9]{16,}+")),
    ("stripe_key", ("whsec_",), _tok("whsec_", 6, "[A-Za-z0-9]{24,}+")),
    (
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        _tok("gh[pousr]_", 4, "[A-Za-z0-9]{30,}+"),
    ),
    ("github_token", ("github_pat_",), _tok("github_pat_", 11, "[A-Za-z0-9_]{22,}+")),
    ("gitlab_token", ("glpat-",), _tok("glpat-", 6, rf"{_B64URL}{{20,}}+")),
    ("gitlab_token", ("gldt-", "glrt-"), _tok("gl(?:dt|rt)-", 5, rf"{_B64URL}{{20,}}+")),
    ("slack_token", ("xox",), _tok("xox[abeprs]-", 5, "[A-Za-z0-9-]{10,}+")),
    ("slack_token", ("xapp-",), _tok("xapp-", 5, "[0-9]-[A-Za-z0-9-]{10,}+")),
    (
        "slack_webhook",
        ("hooks.slack.com",),
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}+",
    ),
    (
        "aws_access_key",
        ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        _tok("(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])", 4, "[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ),
    ("google_api_key", ("AIza",), _tok("AIza", 4, rf"{_B64URL}{{35}}(?![A-Za-z0-9_-])")),
    ("npm_token", ("npm_",), _tok("npm_", 4, "[A-Za-z0-9]{36}(?![A-Za-z0-9])")),
    ("pypi_token", ("pypi-Ag",), _tok("pypi-Ag", 7, rf"{_B64URL}{{50,}}+")),
    (
        "huggingface_token",
        ("hf_",),
        _tok("hf_", 3, "(?=[a-z0-9]*+[A-Z])(?=[A-Z0-9]*+[a-z])[A-Za-z0-9]{30,}+"),
    ),
    (
        "sendgrid_key",
        ("SG.",),
        _tok(r"SG\.", 3, rf"{_B64URL}{{16,32}}+\.{_B64URL}{{16,64}}+"),
    ),
    ("twilio_key", ("SK",), _tok("SK", 2, "[0-9a-f]{32}(?![A-Za-z0-9])")),
    (
        "digitalocean_token",
        ("_v1_",),
        _tok("do[por]_v1_", 7, "[a-f0-9]{64}(?![A-Za-z0-9])"),
    ),
    (
        "shopify_token",
        ("shp",),
        _tok("shp(?:at|ca|pa|ss)_", 6, "[a-fA-F0-9]{32}(?![A-Za-z0-9])"),
    ),
    ("jwt", ("eyJ",), _tok("eyJ", 3, rf"{_B64URL}{{8,}}+\.eyJ{_B64URL}{{8,}}+\.{_B64URL}{{8,}}+")),
)
_TOKEN_RES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (kind, needles, re.compile(pattern)) for kind, needles, pattern in _TOKEN_SPECS
)


def _tokens(text: str) -> Iterator[_Span]:
    for kind, needles, pattern in _TOKEN_RES:
        if any(n in text for n in needles):
            for m in pattern.finditer(text):
                yield m.start(), m.end(), kind


# --------------------------------------------------------------------------- value heuristics

_PLACEHOLDER_WORDS = frozenset(
    {
        "password", "passwd", "pass", "pwd", "secret", "token", "apikey", "key", "value",
        "string", "str", "bytes", "none", "null", "nil", "undefined", "true", "false",
        "redacted", "hidden", "masked", "placeholder", "dummy", "todo", "tbd", "fixme",
        "replaceme", "notset", "unset", "empty", "bearer", "basic", "required", "optional",
        "env", "secretvalue", "mytoken", "mysecret", "mypassword", "example",
    }
)  # fmt: skip
_CODE_WORDS = frozenset(
    {
        "none", "null", "nil", "undefined", "true", "false", "yes", "no", "on", "off",
        "str", "string", "bytes", "int", "bool", "any", "secretstr", "await", "new", "self",
        "this", "required", "optional", "void", "list", "dict", "tuple", "set", "float",
        "object", "type", "callable", "pattern", "sequence", "mapping", "text", "boolean",
        "number", "integer", "array", "uuid",
    }
)  # fmt: skip
_TEMPLATE_RE = re.compile(r"\$\{|\{\{|\{%|\{[A-Za-z_][\w.]{0,40}\}|%\(\w{1,40}\)s|^%[sd]$")
_REPEATED_RE = re.compile(r"(.)\1*+")
_IDENT_RE = re.compile(r"[A-Za-z_]\w*+")
# Names a programmer would write: snake_case, camelCase, PascalCase words, CONSTANT_CASE.
_CODE_NAME_RE = re.compile(
    r"_*+[a-z][a-z0-9]*+(?:_++[a-z0-9]++)++_*+"
    r"|_*+[A-Z][A-Z0-9]*+(?:_++[A-Z0-9]++)++_*+"
    r"|_*+[a-z][a-z0-9]*+(?:[A-Z][a-z0-9]++)++"
    r"|[A-Z][a-z0-9]++(?:[A-Z][a-z0-9]++)++"
)
_DOTTED_RE = re.compile(r"[A-Za-z_$][\w$]*+(?:\.[A-Za-z_$][\w$]*+)++(?![\w$])")
_SUBSCRIPT_RE = re.compile(r"[A-Za-z_][\w.]*+\[")
_NUMBER_RE = re.compile(r"-?[0-9]{1,5}")
_HUMP_RE = re.compile(r"[A-Z][a-z]")
_NON_ALNUM_RE = re.compile(r"[^a-z0-9]")
_FILLER_RE = re.compile(r"[\s_-]")
_XS_RE = re.compile(r"x{3,}+")
_PATH_RE = re.compile(r"(?:file://|~?/|\.{1,2}/)[\w./~-]*+")  # a key *file*, not a key
_SYMBOLS = frozenset("._~+/=-!@#%^&*?")
_BRACKETED = frozenset({("{", "}"), ("[", "]"), ("(", ")")})


def _is_placeholder(value: str) -> bool:
    """True for values that stand for a secret rather than being one (``<token>``, ``$VAR``)."""
    v = value.strip()
    if not v or v.startswith(("[REDACTED", "$", "%", "{{", "<")):
        return True
    if (v[0], v[-1]) in _BRACKETED:
        return True
    if "..." in v or "\u2026" in v or _PATH_RE.fullmatch(v):
        return True
    if _REPEATED_RE.fullmatch(v.strip(" :=_-") or v):
        return True
    low = _FILLER_RE.sub("", v.lower())
    if low in _PLACEHOLDER_WORDS or low.startswith("your") or _XS_RE.fullmatch(low):
        return True
    return _TEMPLATE_RE.search(v) is not None


def _opaque(value: str, min_len: int = 8) -> bool:
    """True when a bare value looks like a credential rather than an ordinary word."""
    v = value.strip()
    if len(v) < 6 or _is_placeholder(v):
        return False
    has_digit = any(c.isdigit() for c in v)
    has_alpha = any(c.isalpha() for c in v)
    if has_digit and has_alpha:
        return True
    if len(v) < min_len or not has_alpha:
        return False
    has_upper = any(c.isupper() for c in v)
    has_lower = any(c.islower() for c in v)
    if any(c in _SYMBOLS for c in v) and len(v) >= 12:
        return True
    capitalised = v[0].isupper() and v[1:].islower()
    return has_upper and has_lower and not capitalised and len(v) >= 12


def _looks_like_type(value: str) -> bool:
    """True for a type name in an annotation (``Pattern``, ``PKCS7PrivateKeyTypes``)."""
    if not (value[:1].isupper() and _IDENT_RE.fullmatch(value)):
        return False
    if not any(c.islower() for c in value):
        return False
    return not any(c.isdigit() for c in value) or len(_HUMP_RE.findall(value)) >= 2


def _looks_like_prose(value: str) -> bool:
    """True for a sentence such as a validation message (several plain words)."""
    words = value.replace("\\n", " ").replace("\\t", " ").split()
    if len(words) < 3:
        return False
    plain = sum(1 for w in words if w.strip(".,;:!?()'\"*`").isalpha())
    return plain >= min(len(words) - 1, 0.7 * len(words))


# --------------------------------------------------------------------------- secret key names

_NAME_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("secretaccesskey", "aws_secret_key"),
    ("password", "password"),
    ("passwd", "password"),
    ("passphrase", "password"),
    ("privatekey", "private_key"),
    ("apikey", "api_key"),
    ("token", "token"),
    ("secretkeybase", "secret"),
    ("secretkey", "secret"),
    ("secret", "secret"),
    ("accesskey", "secret"),
    ("signingkey", "secret"),
    ("encryptionkey", "secret"),
    ("masterkey", "secret"),
    ("authkey", "secret"),
    ("credentials", "secret"),
    ("credential", "secret"),
)
# A quoted value naming one of these (without digits) is a label, not a secret.
_NAME_STEMS = ("password", "passwd", "secret", "token", "credential", "apikey", "privatekey")
# Tokens that are pagination cursors, idempotency keys or locks rather than credentials.
_NAME_DENY_SUFFIXES = (
    "nexttoken",
    "pagetoken",
    "continuationtoken",
    "paginationtoken",
    "startingtoken",
    "backwardtoken",
    "forwardtoken",
    "synctoken",
    "locktoken",
    "idempotencytoken",
    "requesttoken",
    "clienttoken",
    "cursortoken",
    "inputtoken",
    "outputtoken",
)
_SHORT_PASS_RE = re.compile(r"(?:^|[_.-])(?:pass|pwd|pw)$|[a-z0-9](?:Pass|Pwd|PW|PWD|PASS)$")
_LOOSE_NAMES = {
    "auth": "secret",
    "authorization": "authorization",
    "proxyauthorization": "authorization",
    "cookie": "secret",
    "setcookie": "secret",
}
_LOOSE_AUTH_RE = re.compile(r"(?:^|[_.-])auth$", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _secret_kind(name: str, loose: bool = False) -> str | None:
    """Kind for a key whose value is a secret, or None. ``loose`` adds auth/cookie keys."""
    raw = name.strip().strip("-\"'`\\").strip()
    flat = _NON_ALNUM_RE.sub("", raw.lower())
    if not flat:
        return None
    if (
        flat in ("pass", "pwd", "pw")
        or _SHORT_PASS_RE.search(raw)
        or (raw.isupper() and _SHORT_PASS_RE.search(raw.lower()))
    ):
        return "password"
    if not flat.endswith(_NAME_DENY_SUFFIXES):
        for suffix, kind in _NAME_SUFFIXES:
            if flat.endswith(suffix):
                if flat.startswith("aws") and "secret" in flat:
                    return "aws_secret_key"
                return kind
    if loose:
        if flat in _LOOSE_NAMES:
            return _LOOSE_NAMES[flat]
        if _LOOSE_AUTH_RE.search(raw):
            return "secret"
    return None


# --------------------------------------------------------------------------- URL passwords

_URL_RE = re.compile(r"://(?P<user>[^\s:@/?#\"'<>\[\]]{0,256}+):(?P<rest>[^\s/?#\"'<>]{1,512}+)")


def _url_passwords(text: str) -> Iterator[_Span]:
    if "://" not in text:
        return
    for m in _URL_RE.finditer(text):
        rest = m.group("rest")
        at = rest.rfind("@")
        if at <= 0 or at == len(rest) - 1:
            continue
        password = rest[:at]
        if _is_placeholder(password) or not (rest[at + 1].isalnum() or rest[at + 1] == "["):
            continue
        yield m.start("rest"), m.start("rest") + at, "url_password"


# --------------------------------------------------------------------------- Authorization

_AUTH_RE = re.compile(
    r"(?<![\w-])(?i:(?:proxy-)?authorization)(?:\\?[\"'])?[ \t]*+[:=][ \t]*+(?:\\?[\"'])?"
    r"(?:(?P<scheme>(?i:bearer|basic|token|apikey|api-key|key|bot|sso-key))[ \t]++)?"
    r"(?P<v>[A-Za-z0-9._~+/=-]{1,8192}+)"
)


def _authorization(text: str) -> Iterator[_Span]:
    for m in _AUTH_RE.finditer(text):
        value = m.group("v").rstrip(".,;")
        if not _opaque(value):
            continue
        if m.group("scheme") is None and (
            _DOTTED_RE.match(value) or text.startswith("(", m.start("v") + len(value))
        ):
            continue  # code such as: authorization = self.headers.get("authorization")
        yield m.start("v"), m.start("v") + len(value), "authorization"


# --------------------------------------------------------------------------- CLI flags

_VAL = r"(?P<v>\"[^\"\n]{1,512}+\"|'[^'\n]{1,512}+'|[^\s\"'][^\s\"']{0,511}+)"
_CLI_RES: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    # mysql -pSECRET / -p'SECRET' (a bare "-p" prompts and is left alone)
    (
        ("mysql", "mariadb"),
        re.compile(
            r"\b(?:mysql(?:dump|admin|sh|import|check)?|mariadb(?:-dump|-admin)?)\b"
            rf"[^\n]{{0,300}}?[ \t]-p{_VAL}"
        ),
    ),
    (("sshpass",), re.compile(rf"\bsshpass[ \t]++-p[ \t]*+{_VAL}")),
    (("redis-cli",), re.compile(rf"\bredis-cli\b[^\n]{{0,300}}?[ \t]-a[ \t]++{_VAL}")),
    (("docker",), re.compile(rf"\bdocker[ \t]++login\b[^\n]{{0,300}}?[ \t]-p[ \t]++{_VAL}")),
    (
        ("curl",),
        re.compile(
            r"\bcurl\b[^\n]{0,300}?[ \t](?:-u|--user)[ \t]++[\"']?[^\s:\"']{1,256}+:"
            r"(?P<v>[^\s\"']{1,256}+)"
        ),
    ),
)
_LONG_FLAG_RE = re.compile(r"--(?<![\w-]--)(?P<name>[A-Za-z][\w-]{0,60}+)[ \t]++" + _VAL)


def _unquote(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a span to the inside of its quotes, if quoted."""
    if end - start >= 2 and text[start] in "\"'" and text[end - 1] == text[start]:
        return start + 1, end - 1
    return start, end


def _cli_flags(text: str) -> Iterator[_Span]:
    for guards, pattern in _CLI_RES:
        if not any(g in text for g in guards):
            continue
        for m in pattern.finditer(text):
            start, end = _unquote(text, m.start("v"), m.end("v"))
            if not _is_placeholder(text[start:end]):
                yield start, end, "password"
    if "--" not in text:
        return
    for m in _LONG_FLAG_RE.finditer(text):
        kind = _secret_kind(m.group("name"))
        if kind is None or m.group("v").startswith("-"):
            continue
        start, end = _unquote(text, m.start("v"), m.end("v"))
        value = text[start:end]
        quoted = end - start != m.end("v") - m.start("v")
        if _is_placeholder(value) or not (quoted or _opaque(value, min_len=6)):
            continue
        yield start, end, kind


# --------------------------------------------------------------------------- key = value

_ASSIGN_RE = re.compile(
    r"""
    (?<![\w.-])
    (?P<kq>\\?["'`])?
    (?P<name>-{0,2}[A-Za-z_][\w.-]{0,80}+)
    (?i:(?<=pass)|(?<=word)|(?<=sswd)|(?<=rase)|(?<=pwd)|(?<=pw)|(?<=cret)|(?<=oken)
        |(?<=key)|(?<=tial)|(?<=tials)|(?<=base))
    (?:\\?["'`])?
    (?:[ \t]*+:[ \t]*+(?:str|bytes|string|String|SecretStr|Optional\[str\]
        |str[ \t]*+\|[ \t]*+None))?
    (?P<sp1>[ \t]*+)
    (?P<sep>:=|=>|=(?!=)|:(?![:/]))
    (?P<sp2>[ \t]*+)
    (?=(?P<val>
        \\"(?:[^"\\\n]|\\[^"\n]){0,1024}+\\"
        |"(?:[^"\\\n]|\\.){0,1024}+"
        |'(?:[^'\\\n]|\\.){0,1024}+'
        |`[^`\n]{0,1024}+`
        |[^\s"'`\\][^\s"'`]{0,1023}+
    ))
    """,
    re.VERBOSE,
)
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _strip_trailing(value: str) -> str:
    """Drop punctuation that ends the sentence or expression, keeping balanced brackets."""
    end = len(value)
    while end > 0:
        c = value[end - 1]
        if c in ",;:." or (
            c in _CLOSERS and value.count(c, 0, end) > value.count(_CLOSERS[c], 0, end)
        ):
            end -= 1
        else:
            break
    return value[:end]


_LINE_END_RE = re.compile(r"[ \t]*+(?:#[^\n]*+)?\r?(?:\n|\Z)")


def _quoted_value_is_secret(value: str, name: str) -> bool:
    """Decide whether a quoted (or XML element) value under a secret key is a secret."""
    if _is_placeholder(value) or value.startswith("arn:"):
        return False
    flat = _NON_ALNUM_RE.sub("", value.lower())
    if not any(c.isdigit() for c in flat) and any(stem in flat for stem in _NAME_STEMS):
        return False  # a label such as "Access-Control-Allow-Credentials"
    if "passphrase" in name.lower():
        return True
    return not _looks_like_prose(value)


def _unquoted_value_is_secret(text: str, m: re.Match[str], value: str, trailing: str) -> bool:
    """Decide whether a bare (unquoted) assigned value is a secret."""
    if _is_placeholder(value) or value.lower() in _CODE_WORDS:
        return False
    name = m.group("name").lstrip("-")
    sep = m.group("sep")
    spaced = bool(m.group("sp1") or m.group("sp2"))
    # Shell / .env style: UPPER_CASE=value
    if sep == "=" and not spaced and name.upper() == name:
        return True
    # An expression rather than a literal: a call, attribute, subscript or type annotation.
    code = (
        "(" in value
        or _DOTTED_RE.match(value) is not None
        or _SUBSCRIPT_RE.match(value) is not None
        or (sep == ":" and _looks_like_type(value))
    )
    # YAML style: "key: value" alone on its line.
    if (
        sep == ":"
        and not code
        and m.group("kq") is None
        and not trailing
        and _LINE_END_RE.match(text, m.end("val"))
    ):
        return True
    if code or _NUMBER_RE.fullmatch(value) or (value.isalpha() and value.isupper()):
        return False
    if _IDENT_RE.fullmatch(value) and (
        (_CODE_NAME_RE.fullmatch(value) and sum(c.isdigit() for c in value) <= 2)
        or (value.isalpha() and (spaced or trailing[:1] in (",", ")")))
    ):
        return False  # a variable name
    if sep == ":":
        return _opaque(value)
    return True


def _assignments(text: str) -> Iterator[_Span]:
    if "=" not in text and ":" not in text:
        return
    last_end = 0
    for m in _ASSIGN_RE.finditer(text):
        start = m.start("val")
        if start < last_end:  # inside a value already redacted
            continue
        kind = _secret_kind(m.group("name"))
        if kind is None:
            continue
        if m.group("sep") == ":" and not m.group("sp2") and text[m.start() - 1 : m.start()] == ":":
            continue  # a segment of an ARN/URN such as arn:aws:secretsmanager:...:secret:name
        val = m.group("val")
        if val.startswith(("[REDACTED", '"[REDACTED', "'[REDACTED")):
            continue
        if val.startswith('\\"'):
            q = 2
        elif val[0] in "\"'`":
            q = 1
        else:
            q = 0
        if q:
            inner = val[q:-q]
            if _quoted_value_is_secret(inner, m.group("name")):
                last_end = start + len(val) - q
                yield start + q, last_end, kind
            continue
        value = val
        if m.start() > 0 and text[m.start() - 1] in "?&":
            value = value.split("&", 1)[0]
        stripped = _strip_trailing(value)
        trailing = value[len(stripped) :]
        if stripped and _unquoted_value_is_secret(text, m, stripped, trailing):
            last_end = start + len(stripped)
            yield start, last_end, kind


# --------------------------------------------------------------------------- XML elements

_XML_RE = re.compile(r"<(?P<tag>[A-Za-z_][\w.:-]{0,60}+)>(?P<v>[^<>\n]{1,1024}+)</(?P=tag)>")


def _xml(text: str) -> Iterator[_Span]:
    if "</" not in text:
        return
    for m in _XML_RE.finditer(text):
        kind = _secret_kind(m.group("tag").rsplit(":", 1)[-1])
        value = m.group("v")
        if kind is not None and _quoted_value_is_secret(value.strip(), m.group("tag")):
            yield m.start("v"), m.end("v"), kind


# --------------------------------------------------------------------------- driver

_DETECTORS: tuple[_Detector, ...] = (
    _pem,
    _tokens,
    _url_passwords,
    _authorization,
    _cli_flags,
    _xml,
    _assignments,
)


def _find(text: str) -> list[_Span]:
    """Non-overlapping secret spans in ``text``, sorted; existing markers are never matched."""
    starts: list[int] = []
    spans: list[tuple[int, int, str | None]] = []

    def claim(start: int, end: int, kind: str | None) -> None:
        i = bisect_left(starts, start)
        if (i > 0 and spans[i - 1][1] > start) or (i < len(spans) and spans[i][0] < end):
            return
        starts.insert(i, start)
        spans.insert(i, (start, end, kind))

    if "[REDACTED" in text:
        for m in _MARKER_RE.finditer(text):
            claim(m.start(), m.end(), None)
    for detector in _DETECTORS:
        for start, end, kind in detector(text):
            if start < end:
                claim(start, end, kind)
    return [(s, e, k) for s, e, k in spans if k is not None]


# Replacing a long secret by a short marker can bring text within reach of a bounded pattern
# (e.g. "curl ... -u user:pw" more than 300 characters apart). Passes repeat until nothing new is
# found, which makes redact() idempotent; each pass only consumes non-marker text.
_MAX_PASSES = 4


def redact(text: str) -> Redaction:
    """Replace every secret in ``text`` by ``[REDACTED:<kind>]``; see the module docstring."""
    if not text:
        return Redaction(text, 0, ())
    placed: list[_Span] = []  # markers added so far, in the coordinates of ``text``
    for _ in range(_MAX_PASSES):
        found = _find(text)
        if not found:
            break
        parts: list[str] = []
        moved: list[_Span] = []
        pos = shift = j = 0
        for start, end, kind in found:
            while j < len(placed) and placed[j][0] < start:
                moved.append((placed[j][0] + shift, placed[j][1] + shift, placed[j][2]))
                j += 1
            mark = marker(kind)
            parts.append(text[pos:start])
            parts.append(mark)
            moved.append((start + shift, start + shift + len(mark), kind))
            shift += len(mark) - (end - start)
            pos = end
        moved.extend((s + shift, e + shift, k) for s, e, k in placed[j:])
        parts.append(text[pos:])
        text = "".join(parts)
        placed = moved
    return Redaction(text, len(placed), tuple(k for _, _, k in placed))


def _is_marker(value: str) -> bool:
    return _MARKER_RE.fullmatch(value.strip()) is not None


def redact_obj(value: object) -> tuple[object, int]:
    """Redact str values inside dicts/lists/tuples; returns (new value, count).

    Keys are kept. A non-empty string stored under a secret-looking key (password, token,
    api_key, auth, authorization, credentials, ...) is replaced whole by its marker.
    """
    if isinstance(value, str):
        result = redact(value)
        return result.text, result.count
    if isinstance(value, dict):
        out: dict[object, object] = {}
        total = 0
        for key, item in value.items():
            kind = _secret_kind(key, loose=True) if isinstance(key, str) else None
            if kind is not None and isinstance(item, str) and item.strip():
                if _is_marker(item):
                    out[key] = item
                else:
                    out[key] = marker(kind)
                    total += 1
                continue
            out[key], count = redact_obj(item)
            total += count
        return out, total
    if isinstance(value, list | tuple):
        items: list[object] = []
        total = 0
        for item in value:
            new, count = redact_obj(item)
            items.append(new)
            total += count
        return (items if isinstance(value, list) else tuple(items)), total
    return value, 0
