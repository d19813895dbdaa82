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
and UUIDs are only redacted when assigned to a secret-looking key. A credential said in a
sentence, in any of the languages capture reads, is redacted when the sentence links it to a
credential's name (or calls it secret), and so are credentials passed to commands as plain
arguments and the private part of a PuTTY key file.

Every detector runs over the text, overlaps are resolved in favour of the earlier, more specific
detector, and the text is rewritten; this repeats until a pass finds nothing new. Markers already
present are never matched again, so :func:`redact` is idempotent. All regexes are precompiled,
bounded and use possessive quantifiers, so run time is linear in the input size.
"""

from __future__ import annotations

import base64
import contextlib
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

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
    "azure_key",
    "mailgun_key",
    "mailchimp_key",
    "discord_token",
    "discord_webhook",
    "telegram_token",
    "databricks_token",
    "square_token",
    "atlassian_token",
    "vault_token",
    "grafana_token",
    "age_key",
    "postman_key",
    "linear_key",
    "newrelic_key",
    "doppler_token",
    "terraform_token",
    "google_oauth",
    "groq_key",
    "xai_key",
    "replicate_token",
    "perplexity_key",
    "sentry_token",
    "docker_token",
    "tailscale_key",
    "brevo_key",
    "rubygems_token",
    "airtable_token",
    "notion_token",
    "figma_token",
    "buildkite_token",
    "netlify_token",
    "planetscale_token",
    "flyio_token",
    "supabase_token",
    "alibaba_key",
    "bitbucket_token",
    "heroku_key",
    "mapbox_token",
    "twitter_token",
    "jwt",
    "url_password",
    "authorization",
    "cookie",
    "password",
    "token",
    "api_key",
    "secret",
)
"""Every kind that can appear in a ``[REDACTED:<kind>]`` marker."""


@dataclass(frozen=True)
class Redaction:
    """Result of :func:`redact`. ``secrets`` holds each secret replaced, with its kind (kept
    out of comparisons and ``repr``, so it is never printed by accident)."""

    text: str
    count: int
    kinds: tuple[str, ...]
    secrets: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)


def marker(kind: str) -> str:
    """Return the marker that replaces a secret of ``kind``."""
    return f"[REDACTED:{kind}]"


_Span = tuple[int, int, str]
_Detector = Callable[[str], Iterator[_Span]]

# Markers are recognised in any case: a link word is stored lower-cased.
_MARKER_RE = re.compile(r"\[(?i:redacted)(?::[A-Za-z0-9_]{1,40})?\]")

# --------------------------------------------------------------------------- PEM private keys

_PEM_BEGIN_RE = re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END_RE = re.compile(r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
# A truncated block (no END line): the header and base64 lines that follow BEGIN.
# Newlines may be real, escaped once inside a JSON string (\\n) or escaped again (\\\\n); a line
# may be cut short where the text was truncated (at least 8 base64 characters are kept).
# A text that folded the lines into one (a summary, a commit subject) keeps them apart by
# spaces: then each piece must be 20+ characters of base64.
_PEM_BODY_RE = re.compile(
    r"(?:[ \t]*+(?:\r?\n|(?:\\{1,4}r)?\\{1,4}n)[ \t]*+"
    r"(?:[A-Za-z0-9+/=]{8,}+|[A-Z][A-Za-z-]{1,30}+: [^\n\\]{1,200}+)"
    r"|[ \t]++[A-Za-z0-9+/=]{20,}+)*+"
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


# A PEM block encoded whole in base64 ("LS0tLS1CRUdJTi" is "-----BEGIN"), as kubeconfig's
# client-key-data or a secret manager keeps it: a secret when its header names a private key.
_PEM_B64_RE = re.compile(
    r"(?:(?<![A-Za-z0-9+/])|(?<=\\[nrt]))LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}+={0,2}"
)


def _pem_base64(text: str) -> Iterator[_Span]:
    if "LS0tLS1CRUdJTi" not in text:
        return
    for m in _PEM_B64_RE.finditer(text):
        head = m.group()[:96]
        try:
            decoded = base64.b64decode(head[: len(head) // 4 * 4]).decode("ascii", "replace")
        except ValueError:
            continue
        if "PRIVATE KEY" in decoded:
            yield m.start(), m.end(), "private_key"


# --------------------------------------------------------------------------- provider tokens


def _tok(prefix: str, width: int, body: str) -> str:
    """A token pattern: literal-ish ``prefix`` (``width`` chars), word boundary before it (or
    an escaped newline or tab, as inside a JSON string)."""
    return rf"{prefix}(?:(?<![A-Za-z0-9_-].{{{width}}})|(?<=\\[nrt].{{{width}}})){body}"


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
    (
        "azure_key",
        ("Q~",),
        r"[A-Za-z0-9_~.-](?:(?<![\w~.-].)|(?<=\\[nrt].))"
        r"[A-Za-z0-9_~.-]{2}[0-9]Q~[A-Za-z0-9_~.-]{31,34}+(?![\w~.-])",
    ),
    ("mailgun_key", ("key-",), _tok("key-", 4, "[0-9a-z]{32}(?![A-Za-z0-9])")),
    (
        "mailgun_key",
        ("-",),
        r"[0-9a-f](?:(?<![A-Za-z0-9-].)|(?<=\\[nrt].))"
        r"[0-9a-f]{31}-[0-9a-f]{8}-[0-9a-f]{8}(?![A-Za-z0-9-])",
    ),
    (
        "mailchimp_key",
        ("-us",),
        r"[0-9a-f](?:(?<![A-Za-z0-9-].)|(?<=\\[nrt].))[0-9a-f]{31}-us[0-9]{1,2}"
        r"(?![A-Za-z0-9])",
    ),
    (
        "discord_token",
        (".",),
        r"[MNO](?:(?<![A-Za-z0-9_.-].)|(?<=\\[nrt].))"
        r"[A-Za-z0-9]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}+"
        r"(?![A-Za-z0-9_.-])",
    ),
    (
        "discord_webhook",
        ("/api/webhooks/",),
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}"
        r"/[A-Za-z0-9_-]{60,70}+",
    ),
    (
        "telegram_token",
        (":AA",),
        r"[0-9](?:(?<=bot.)|(?<![A-Za-z0-9_].)|(?<=\\[nrt].))"
        r"[0-9]{7,9}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])",
    ),
    ("databricks_token", ("dapi",), _tok("dapi", 4, "[0-9a-f]{32}(?:-[0-9])?(?![A-Za-z0-9])")),
    ("square_token", ("sq0",), _tok("sq0(?:atp|csp|idp)-", 7, "[A-Za-z0-9_-]{22,60}+")),
    ("square_token", ("EAAA",), _tok("EAAA", 4, "[A-Za-z0-9_-]{60}(?![A-Za-z0-9_-])")),
    ("atlassian_token", ("ATATT",), _tok("ATATT", 5, "[A-Za-z0-9_=-]{150,}+")),
    ("vault_token", ("hvs.", "hvb."), _tok(r"hv[sb]\.", 4, "[A-Za-z0-9_-]{90,}+")),
    ("grafana_token", ("glsa_",), _tok("glsa_", 5, "[A-Za-z0-9]{32}_[a-f0-9]{8}(?![A-Za-z0-9])")),
    ("grafana_token", ("glc_",), _tok("glc_", 4, "[A-Za-z0-9+/]{32,}+={0,2}")),
    (
        "age_key",
        ("AGE-SECRET-KEY-1",),
        "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?![A-Za-z0-9])",
    ),
    (
        "postman_key",
        ("PMAK-",),
        _tok("PMAK-", 5, "[a-f0-9]{24}-[a-f0-9]{34}(?![A-Za-z0-9])"),
    ),
    ("linear_key", ("lin_api_",), _tok("lin_api_", 8, "[A-Za-z0-9]{40}(?![A-Za-z0-9])")),
    ("newrelic_key", ("NRAK-",), _tok("NRAK-", 5, "[A-Z0-9]{27}(?![A-Za-z0-9])")),
    (
        "doppler_token",
        ("dp.",),
        _tok(r"dp\.", 3, r"(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}(?![A-Za-z0-9])"),
    ),
    (
        "terraform_token",
        (".atlasv1.",),
        r"[A-Za-z0-9](?:(?<![A-Za-z0-9].)|(?<=\\[nrt].))[A-Za-z0-9]{13}\.atlasv1\."
        r"[A-Za-z0-9_=-]{60,70}+",
    ),
    ("google_oauth", ("GOCSPX-",), _tok("GOCSPX-", 7, "[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])")),
    ("google_oauth", ("ya29.",), _tok(r"ya29\.", 5, "[A-Za-z0-9_-]{20,}+")),
    (
        "google_oauth",
        ("1//0",),
        r"(?:(?<![A-Za-z0-9/])|(?<=\\[nrt]))1//0[A-Za-z0-9_-]{40,}+",
    ),
    ("groq_key", ("gsk_",), _tok("gsk_", 4, "[A-Za-z0-9]{52}(?![A-Za-z0-9])")),
    ("xai_key", ("xai-",), _tok("xai-", 4, "[A-Za-z0-9]{70,90}+")),
    ("replicate_token", ("r8_",), _tok("r8_", 3, "[A-Za-z0-9]{37}(?![A-Za-z0-9])")),
    ("perplexity_key", ("pplx-",), _tok("pplx-", 5, "[A-Za-z0-9]{48}(?![A-Za-z0-9])")),
    ("sentry_token", ("sntry",), _tok("sntry[su]_", 7, "[A-Za-z0-9_=+/-]{40,}+")),
    ("docker_token", ("dckr_pat_",), _tok("dckr_pat_", 9, "[A-Za-z0-9_-]{27,}+")),
    (
        "tailscale_key",
        ("tskey-",),
        _tok("tskey-", 6, "(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}+-[A-Za-z0-9]{20,}+"),
    ),
    (
        "brevo_key",
        ("xkeysib-",),
        _tok("xkeysib-", 8, "[a-f0-9]{64}-[A-Za-z0-9]{16}(?![A-Za-z0-9])"),
    ),
    ("rubygems_token", ("rubygems_",), _tok("rubygems_", 9, "[a-f0-9]{48}(?![A-Za-z0-9])")),
    (
        "airtable_token",
        ("pat",),
        _tok("pat", 3, r"[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![A-Za-z0-9])"),
    ),
    ("notion_token", ("ntn_",), _tok("ntn_", 4, "[A-Za-z0-9]{46}(?![A-Za-z0-9])")),
    (
        "notion_token",
        ("secret_",),
        _tok("secret_", 7, "(?=[a-z0-9]*+[A-Z])[A-Za-z0-9]{43}(?![A-Za-z0-9])"),
    ),
    ("figma_token", ("figd_",), _tok("figd_", 5, "[A-Za-z0-9_-]{40,}+")),
    ("buildkite_token", ("bkua_",), _tok("bkua_", 5, "[a-f0-9]{40}(?![A-Za-z0-9])")),
    ("netlify_token", ("nfp_",), _tok("nfp_", 4, "[A-Za-z0-9]{36,}+")),
    (
        "planetscale_token",
        ("pscale_",),
        r"(?:(?<![A-Za-z0-9_-])|(?<=\\[nrt]))pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}+",
    ),
    ("flyio_token", ("fo1_", "fm2_"), _tok("f(?:o1|m2)_", 4, "[A-Za-z0-9_-]{39,}+")),
    ("supabase_token", ("sbp_",), _tok("sbp_", 4, "[a-f0-9]{40}(?![A-Za-z0-9])")),
    ("alibaba_key", ("LTAI",), _tok("LTAI", 4, "[A-Za-z0-9]{12,20}(?![A-Za-z0-9])")),
    ("bitbucket_token", ("ATBB",), _tok("ATBB", 4, "[A-Za-z0-9_=.-]{32,}+")),
    ("heroku_key", ("HRKU-",), _tok("HRKU-", 5, "[A-Za-z0-9_-]{58,}+")),
    ("mapbox_token", ("sk.eyJ",), _tok(r"sk\.eyJ", 6, r"[A-Za-z0-9_-]{20,}+\.[A-Za-z0-9_-]{20,}+")),
    ("twitter_token", ("AAAAAAAAAAAAAAAAAAAAA",), r"A{22}[A-Za-z0-9%]{60,}+"),
    ("authorization", ("SSWS ",), r"(?<=SSWS )[A-Za-z0-9_-]{40,}+"),
    ("api_key", ("sk-",), _tok("sk-", 3, "[a-f0-9]{32}(?![A-Za-z0-9_-])")),
)
# Each token pattern is compiled the first time its needle is seen: compiling all of them at
# import cost a hook process about a third of this module's import time (which every store
# opening pays), for patterns most sessions never need.
_TOKEN_RES: dict[int, re.Pattern[str]] = {}


def _tokens(text: str) -> Iterator[_Span]:
    for n, (kind, needles, pattern) in enumerate(_TOKEN_SPECS):
        if any(needle in text for needle in needles):
            rx = _TOKEN_RES.get(n)
            if rx is None:
                rx = _TOKEN_RES[n] = re.compile(pattern)
            for m in rx.finditer(text):
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
_NON_ALNUM_RE = re.compile(r"[^a-z0-9]")
_FILLER_RE = re.compile(r"[\s_-]")
_XS_RE = re.compile(r"x{3,}+")
_PATH_RE = re.compile(r"(?:file://|~?/|\.{1,2}/)[\w./~-]*+")  # a key *file*, not a key
_SYMBOLS = frozenset("._~+/=-!@#%^&*?")
_BRACKETED = frozenset({("{", "}"), ("[", "]"), ("(", ")")})


def _is_placeholder(value: str) -> bool:
    """True for values that stand for a secret rather than being one (``<token>``, ``$VAR``)."""
    v = value.strip()
    if not v or v[:9].upper() == "[REDACTED" or v.startswith(("$", "%", "{{", "<")):
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


# Words inside a name: acronyms (HTTP in HTTPBasicAuth), words (Basic), digit runs (32 in Int32).
_SEGMENT_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z]|[0-9]|_|$)|[A-Z]?[a-z]+|[0-9]+")
_CONSONANT_RUN_RE = re.compile(r"[b-df-hj-np-tv-xz]{5}")
# Short words programmers write without vowels.
_ABBREVIATIONS = frozenset(
    "str cfg ctx msg pkg src dst db fn cb rx tx btn mgr svc sql xml html http https ptr req "
    "ctrl std tmp pwd bsd tk js css sys dns ssl tls jwt rpc grpc cmd dt tz kv nbr lst txt md pb "
    "ws png jpg gz bz zst hmac rsa dsa pkcs crc smtp ftp tcp udp csv ttl wsgi asgi sdk vm "
    "nt".split()
)
# The letter pairs that make up 99 % of the pairs inside the words of the standard library's
# identifiers (plus a few common in English): a name whose pairs are mostly outside this set is
# random characters, not words.
_COMMON_PAIRS = frozenset(
    "ab ac ad ae af ag ai ak al am an ap ar as at au av aw ax ay ba bc bd be bi bj bl bo bp br bs "
    "bu by ca cc ce cf ch ci ck cl cm co cr cs ct cu cy da db dd de df dg di dl do dr ds dt du dy "
    "ea eb ec ed ee ef eg ei ek el em en eo ep eq er es et eu ev ew ex ey fa fc fd fe ff fi fl fo "
    "fp fr fs ft fu fy ga ge gg gh gi gl gn go gr gs gt gu gy ha he hi ho hr ht hu hy ia ib ic id "
    "ie if ig ii ik il im in io ip ir is it iv ix iz ja je jo ju ka ke ki kl kn ko ks kw ky la lb "
    "ld le lf li ll ln lo lp ls lt lu ly ma mb md me mi ml mm mo mp ms mt mu my na nc nd ne nf ng "
    "ni nk nl nn no np ns nt nu nv ny oa ob oc od oe of og oi ok ol om on oo op or os ot ou ov ow "
    "ox pa pc pd pe ph pi pl po pp pr ps pt pu py qu ra rb rc rd re rf rg ri rk rl rm rn ro rp rr "
    "rs rt ru rv rw ry sa sc se sf sg sh si sk sl sm sn so sp sr ss st su sw sy ta tb tc td te tf "
    "th ti tk tl tm to tp tr ts tt tu tw ty ua ub uc ud ue uf ug ui ul um un uo up ur us ut va ve "
    "vi vo wa wd we wh wi wl wn wo wr ws xa xc xe xf xi xm xp xt xx ya ye yi yl ym yn yo yp yr ys "
    "yt yw ze zi zo".split()
)


@lru_cache(maxsize=4096)
def _wordlike(value: str) -> bool:
    """True for a name made of words (``PrivateKeyTypes``, ``HTTPBasicAuth``, ``Int32``,
    ``SecretStr``), False for random characters of the same alphabet (``SVxsMlt9FL8536VH``):
    at most one run of at most five digits, at most two acronyms (seven capitals in all), every
    longer word pronounceable (a vowel, no five consonants in a row) or a common abbreviation,
    and 85 % of the letter pairs common ones. Measured: 1.3 % of the class names of the
    standard library and the main dependencies fail it; random values of 12-24 letters and
    digits starting with a capital pass 0.2 % of the time (letters only: 0.7 %)."""
    segments = _SEGMENT_RE.findall(value)
    if "".join(segments) != value.replace("_", ""):
        return False
    digits = [seg for seg in segments if seg.isdigit()]
    if len(digits) > 1 or sum(map(len, digits)) > 5:
        return False
    acronyms = [seg for seg in segments if seg.isupper()]
    if (len(acronyms) > 2 or sum(map(len, acronyms)) > 7
            or sum(len(a) == 1 for a in acronyms) > 1):
        return False
    short = pairs = common = 0
    for seg in segments:
        if seg.isdigit() or seg.isupper():
            continue
        word = seg.lower()
        if word in _ABBREVIATIONS:
            continue
        if len(word) <= 2:
            short += 1
            continue
        if not any(c in "aeiouy" for c in word) or _CONSONANT_RUN_RE.search(word):
            return False
        for a, b in pairwise(word):
            pairs += 1
            common += a + b in _COMMON_PAIRS
    return short <= 1 and common >= 0.85 * pairs


def _looks_like_type(value: str) -> bool:
    """True for a type name in an annotation (``Pattern``, ``PKCS7PrivateKeyTypes``)."""
    if not (value[:1].isupper() and _IDENT_RE.fullmatch(value)):
        return False
    return any(c.islower() for c in value) and _wordlike(value)


def _looks_like_code(value: str) -> bool:
    """True for an expression rather than a literal: a call, an attribute, a subscript."""
    return (
        "(" in value
        or _DOTTED_RE.match(value) is not None
        or _SUBSCRIPT_RE.match(value) is not None
    )


_CREDENTIAL_RE = re.compile(r"[A-Za-z0-9+/=_.~-]{16,}+")


def _credential_like(value: str) -> bool:
    """True for a value shaped like a token or base64 credentials: 16+ characters without
    spaces mixing upper case, lower case and digits, or 32+ hex digits."""
    if not _CREDENTIAL_RE.fullmatch(value) or _looks_like_code(value):
        return False
    if len(value) >= 32 and all(c in "0123456789abcdefABCDEF" for c in value):
        return True
    return (any(c.isupper() for c in value) and any(c.islower() for c in value)
            and any(c.isdigit() for c in value))


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
    ("sharedaccesskey", "azure_key"),
    ("accountkey", "azure_key"),
    ("subscriptionkey", "api_key"),
    ("licensekey", "api_key"),
    ("appkey", "api_key"),
    ("keydata", "private_key"),
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
    r"(?:(?P<scheme>(?i:bearer|basic|token|apikey|api-key|key|bot|sso-key|ssws|digest"
    r"|negotiate|hmac))[ \t]++)?"
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

# A flag's value: quoted, or a bare word (not starting with a backtick or a comma: prose that
# quotes the flag itself, "`mysql -p`, `curl -u`").
_VAL = r"(?P<v>\"[^\"\n]{1,512}+\"|'[^'\n]{1,512}+'|[^\s\"'`,][^\s\"'`]{0,511}+)"
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


# --------------------------------------------------------------------------- formats

# An Azure shared access signature: its sig= parameter (the HMAC) is the secret; 40+ characters
# (base64 of 32 bytes, URL-encoded) wherever it stands, 20+ in a URL that is plainly Azure's.
_SAS_RE = re.compile(r"[?&]sig=(?P<v>[A-Za-z0-9%+/=_-]{20,}+)")


def _sas(text: str) -> Iterator[_Span]:
    if "sig=" not in text:
        return
    azure = "sv=" in text or ".windows.net" in text
    for m in _SAS_RE.finditer(text):
        if azure or len(m.group("v")) >= 40:
            yield m.start("v"), m.end("v"), "azure_key"


# Cookie and Set-Cookie headers: every opaque cookie value (a session id, a signed session).
_COOKIE_RE = re.compile(
    r"(?<![\w-])(?i:set-cookie|cookie)[ \t]*+:[ \t]*+(?P<v>[^\n\r'\"]{1,4096}+)"
)
_COOKIE_PAIR_RE = re.compile(r"(?P<name>[^\s=;,\\]{1,128}+)=(?P<v>[^;\s,\\]{1,2048}+)")
_COOKIE_ATTRIBUTES = frozenset(
    {"path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "priority",
     "partitioned", "version", "comment"}
)  # fmt: skip


# Session cookies by their frameworks' names, wherever they are set (name=value).
_SESSION_COOKIE_RE = re.compile(
    r"(?<![\w.-])(?i:connect\.sid|sessionid|phpsessid|jsessionid|asp\.net_sessionid"
    r"|laravel_session|_gitlab_session|__session)=(?P<v>[^;\s,'\"\\]{8,2048}+)"
)


_SESSION_NEEDLES = ("sid=", "sessionid=", "session=")


def _cookies(text: str) -> Iterator[_Span]:
    low = text.lower() if "=" in text else ""
    if any(n in low for n in _SESSION_NEEDLES):
        for m in _SESSION_COOKIE_RE.finditer(text):
            if not _is_placeholder(m.group("v")):
                yield m.start("v"), m.end("v"), "cookie"
    if "ookie" not in text and "OOKIE" not in text:
        return
    for m in _COOKIE_RE.finditer(text):
        for pair in _COOKIE_PAIR_RE.finditer(m.group("v")):
            if pair.group("name").lower() in _COOKIE_ATTRIBUTES:
                continue
            value = pair.group("v")
            if _opaque(value, min_len=12) or (len(value) >= 16 and not _is_placeholder(value)):
                start = m.start("v") + pair.start("v")
                yield start, start + len(value), "cookie"


# .netrc: machine <host> [login <user>] [account <a>] password <secret>, on one line or several.
_NETRC_RE = re.compile(
    r"(?<![\w-])machine[ \t]++[^\s'\"]{1,256}+"
    r"(?:\s++(?:login|account|port)[ \t]++[^\s'\"]{1,256}+)*+"
    r"\s++password[ \t]++(?P<v>[^\s'\"]{1,512}+)"
)
# .pgpass: host:port:database:user:password, one entry per line.
_PGPASS_RE = re.compile(
    r"[A-Za-z0-9_.*\[\]-](?<!\S.)[A-Za-z0-9_.*\[\]-]{0,252}+:(?:[0-9]{1,5}|\*):[^\s:]{1,128}+"
    r":[^\s:]{1,128}+:"
    r"(?P<v>[^\s]{1,512}+)(?!\S)"
)


# A secret's name, a space and a value shaped like a credential ("password Xk9...", a .netrc
# line cut from its machine): the value must mix upper case, lower case and digits.
_SPACED_RE = re.compile(
    r"(?<![\w-])(?i:password|passwd|passphrase|secret|token|api[_-]?key)[ \t]++"
    r"(?P<v>[A-Za-z0-9+/=_.~!@#$%^&*-]{12,512}+)(?![^\s'\"),;])"
)


_SPACED_NEEDLES = ("password ", "passwd ", "passphrase ", "secret ", "token ", "key ",
                   "password\t", "secret\t", "token\t", "key\t")


def _credential_files(text: str) -> Iterator[_Span]:
    if "machine" in text and "password" in text:
        for m in _NETRC_RE.finditer(text):
            if not _is_placeholder(m.group("v")):
                yield m.start("v"), m.end("v"), "password"
    if ":" in text:
        named = "pgpass" in text
        for m in _PGPASS_RE.finditer(text):
            value = m.group("v")
            if not _is_placeholder(value) and (named or _credential_like(value)):
                yield m.start("v"), m.end("v"), "password"
    low = text.lower()
    if not any(n in low for n in _SPACED_NEEDLES):
        return
    for m in _SPACED_RE.finditer(text):
        value = m.group("v").rstrip(".,;:")
        if _credential_like(value):
            kind = _secret_kind(m.group()[: m.start("v") - m.start()].strip()) or "secret"
            yield m.start("v"), m.start("v") + len(value), kind


# A secret name and its value as two quoted arguments: define('DB_PASSWORD', '...'),
# os.Setenv("API_TOKEN", "..."), ("X-Api-Key", "...") in a list of headers.
_PAIR_RE = re.compile(
    r"(?P<q>[\"'])(?P<name>[A-Za-z_][\w.-]{0,80}+)(?P=q)[ \t]*+,[ \t]*+"
    r"(?P<vq>[\"'])(?P<v>[^\"'\n\\]{1,1024}+)(?P=vq)"
)


def _pairs(text: str) -> Iterator[_Span]:
    if "," not in text:
        return
    for m in _PAIR_RE.finditer(text):
        name, value = m.group("name"), m.group("v")
        # A setting's name has parts (DB_PASSWORD, X-Api-Key); a bare word such as 'Token' in
        # a list of names, or a value that is itself a name, is no name-value pair.
        if not any(c in "_-." for c in name.strip("_")) or (
            _CODE_NAME_RE.fullmatch(value) and _wordlike(value)
        ):
            continue
        kind = _secret_kind(name)
        if kind is not None and _quoted_value_is_secret(value, name):
            yield m.start("v"), m.end("v"), kind


# --------------------------------------------------------------------------- key = value

_ASSIGN_RE = re.compile(
    r"""
    (?<![\w.-])
    (?P<kq>\\?["'`])?
    (?P<name>-{0,2}[A-Za-z_][\w.-]{0,80}+)
    (?i:(?<=pass)|(?<=word)|(?<=sswd)|(?<=rase)|(?<=pwd)|(?<=pw)|(?<=cret)|(?<=oken)
        |(?<=key)|(?<=tial)|(?<=tials)|(?<=base)|(?<=data)|(?<=auth))
    (?:\\?["'`]\]?)?
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
        |["'][^"'\s\\]{8,1024}+(?=\n|\Z)
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


_DEFAULT_RE = re.compile(r"[ \t]*+=[ \t]*+[^=\s]")
_LINE_END_RE = re.compile(r"[ \t]*+(?:#[^\n]*+)?\r?(?:\n|\Z)|(?:\\r)?\\n")


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
    # An expression rather than a literal: a call, attribute, subscript or type annotation
    # (a name, or any value followed by a default: "token: OAuthToken = Depends(...)").
    code = _looks_like_code(value) or (sep == ":" and (
        _looks_like_type(value) or _DEFAULT_RE.match(text, m.end("val")) is not None))
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
        (
            _CODE_NAME_RE.fullmatch(value)
            and sum(c.isdigit() for c in value) <= 2
            and ("_" in value.strip("_") or _wordlike(value))
        )
        or (
            value.isalpha()
            and (value.islower() or _wordlike(value))
            and (spaced or trailing[:1] in (",", ")"))
        )
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
        loose = None if kind is not None else _secret_kind(m.group("name"), loose=True)
        if kind is None and loose is None:
            continue
        if m.group("sep") == ":" and not m.group("sp2") and text[m.start() - 1 : m.start()] == ":":
            continue  # a segment of an ARN/URN such as arn:aws:secretsmanager:...:secret:name
        val = m.group("val")
        if val.lstrip("\"'")[:9].upper() == "[REDACTED":
            continue
        if val.startswith('\\"'):
            q = 2
        elif val[0] in "\"'`":
            q = 1
        else:
            q = 0
        if loose is not None:
            # auth, cookie and the like also name ordinary settings: only an opaque value
            # (a token, base64 credentials) counts.
            if q:
                inner = val[q:-q] if len(val) > q and val[-1] == val[q - 1] else val[q:]
            else:
                inner = _strip_trailing(val.split(";", 1)[0])
            if _credential_like(inner):
                last_end = start + q + len(inner)
                yield start + q, last_end, loose
            continue
        assert kind is not None
        if q:
            # A quote left open to the end of the line: a text cut short after the secret.
            closed = len(val) > q and val[-1] == val[q - 1]
            inner = val[q:-q] if closed else val[q:]
            if _quoted_value_is_secret(inner, m.group("name")):
                last_end = start + q + len(inner)
                yield start + q, last_end, kind
            continue
        # A connection string or a shell line goes on after ';'; a query string after '&'.
        value = val.split(";", 1)[0]
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

# --------------------------------------------------------------------------- secrets in prose

# A credential named in a sentence: a credential noun of one of the languages capture reads,
# then, within a few words on the same line, its value. Two judgments apply. Right after a
# linking word or sign ("is", "'s", ":", "/", "est", "ist", "es", "是", a particle joined to a
# CJK or Hangul name) the sentence itself says what follows is the credential, so the value
# only has to be no word, number, placeholder, reference, code or technical term
# (:func:`_linked_secret`). Anywhere else in the window a token must look like a password on
# its own (:func:`_prose_secret`). Words that call a value secret without naming a credential
# ("secret", "private", "use this instead", "don't share") need both: the link and the shape.
# Written as a first character from a set, then a check that the word starts there, then the
# rest of the word chosen by that character: a scan that starts from a set of characters skips
# most of a text in C (an alternation of words behind a lookbehind tries every position).
_PROSE_NAME_RE = re.compile(
    r"[PpLlCcMmKkSsUuDdGg\u041f\u043f\ube44\ud328\uc554\u30d1\u5bc6\u53e3]"
    r"(?:(?<![\w:/@.$-].)(?i:(?<=p)(?:ass(?:words?|wd|phrase|code|wort)|wd?|rivate)"
    r"|(?<=l)og(?:in|[ -]in)|(?<=c)(?:redentials?|reds|ontrase\u00f1a|lave|onfidential)"
    r"|(?<=m)(?:ot de passe|dp)|(?<=k)ennwort|(?<=s)(?:enha|ecreto?|ensitive|ecr\u00e8te)"
    r"|(?<=u)se (?:this|that)(?: one)? instead"
    r"|(?<=d)on[\u2019']?t (?:share|paste|post|commit|leak|log)(?: it| this)?"
    r"|(?<=g)eheim|(?<=\u043f)\u0430\u0440\u043e\u043b\u044c)(?![\w-])"
    r"|(?<=\ube44)(?:\ubc00\ubc88\ud638|\ubc88)|(?<=\ud328)\uc2a4\uc6cc\ub4dc|(?<=\uc554)\ud638"
    r"|(?<=\u30d1)(?:\u30b9\u30ef\u30fc\u30c9|\u30b9\u30d5\u30ec\u30fc\u30ba)"
    r"|(?<=\u5bc6)[\u7801\u78bc]|(?<=\u53e3)\u4ee4)"
)
# Words that call a value secret without naming a credential (lower case, as they begin).
_MARKED_STARTS = ("secr", "priv", "conf", "sens", "use ", "don", "geheim")
_PROSE_WINDOW = 8  # tokens after the name
_PROSE_REACH = _PROSE_WINDOW * 258  # characters those tokens (and their spaces) can span
_CJK_REACH = 96
_PROSE_SYMBOLS = frozenset("!@#$%^&*~?+=")
_VERSION_RE = re.compile(r"v?\d+(?:\.\d+)++[\w.-]*+", re.IGNORECASE)
_PROSE_TOKEN_RE = re.compile(r"\S{1,256}+")
_ALNUM_RUN_RE = re.compile(r"[^\W\d_]++|\d++")
_PROSE_TRIM = "\"'`\u201c\u201d\u2018\u2019.,;:)(*"  # and Markdown's emphasis
# Words and signs that link a credential's name to its value, in the capture's languages.
_PROSE_LINKS = frozenset({
    "is", "was", "are", "'s", "\u2019s", "to", "=", ":", "/", "-", "\u2013", "\u2014", "=>",
    "->", "est", "c'est", "c\u2019est", "ist", "lautet", "war", "es", "era", "\u00e9",
    "\u662f", "\u4e3a", "\u70ba", "\u306f", "\uff1a",
})  # fmt: skip
# Adverbs that may stand between the link and the value.
_PROSE_FILLERS = frozenset({"now", "still", "currently", "just", "simply", "jetzt", "nun",
                            "maintenant", "toujours", "ahora", "todav\u00eda"})
# Han, kana, Hangul and full-width forms: a value written inside CJK or Korean text, with
# particles, punctuation or brackets joined to it, is the run of other characters.
_CJK = "\u1100-\u11ff\u3000-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef"
_PROSE_CORE_RE = re.compile(rf"[^{_CJK}]++")
_QUOTE_PAIRS = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019",
                "\u00ab": "\u00bb", "\u201e": "\u201c"}
# Terms that hold digits without being passwords: a number and the word it counts or
# qualifies, an algorithm or an encoding and its number (with a suffix or a word after it).
_TECHNICAL_RE = re.compile(
    r"(?i:\d++[-_]?+[a-z]++(?:[-_][a-z]++)*+"
    r"|(?:sha|md|base|argon|bcrypt|scrypt|pbkdf|utf|crc|aes|rsa|ecdsa|ed|hmac|des|blake|ucs"
    r"|latin|iso|cp|oauth|ipv|http|tls|ssl)[-_]?+\d++[a-z]{0,3}+(?:[-_][a-z0-9]++)*+)"
)
_DIGIT_INSIDE_RE = re.compile(r"[A-Za-z][0-9]++[A-Za-z]")


def _prose_secret(token: str) -> bool:
    """A token shaped like a password rather than a word: letters with digits or symbols, long
    enough, and not a version, path, address, identifier or placeholder."""
    if not 6 <= len(token) <= 128 or _is_placeholder(token) or "://" in token:
        return False
    if token.startswith(("/", "~", "./", "-")) or _VERSION_RE.fullmatch(token):
        return False
    if any(c in "=()[]{}<>:@" for c in token) or _looks_like_code(token) or _looks_like_type(
            token) or _CODE_NAME_RE.fullmatch(token):
        return False  # code (an argument, a call, a type, a name), an address, a placeholder
    letters = sum(c.isalpha() for c in token)
    digits = sum(c.isdigit() for c in token)
    if not letters:
        return False
    if any(c in _PROSE_SYMBOLS for c in token):
        return True
    if not digits or any(not c.isalnum() and c not in "_-" for c in token):
        return False
    # Letters and digits alone: a password mixes them more than a name such as "sha256",
    # "argon2id", "1Password" or a label and its number ("billing-10") does: at least two
    # runs of letters and two of digits.
    runs = _ALNUM_RUN_RE.findall(token)
    letter_runs = sum(r[0].isalpha() for r in runs)
    return len(token) >= 8 and letter_runs >= 2 and len(runs) - letter_runs >= 2


def _linked_secret(value: str) -> bool:
    """A value the sentence names as the credential ("the password is X"): a password unless it
    is a word, a number, a placeholder, a reference, code or a technical term. Letters alone
    count only when they are random (mixed case, no words)."""
    if _prose_secret(value):
        return True
    if not 6 <= len(value) <= 128 or _is_placeholder(value) or "://" in value:
        return False
    if value.startswith(("/", "~", "./", "-")) or _VERSION_RE.fullmatch(value):
        return False
    if any(c in "=()[]{}<>:@" for c in value) or _CODE_NAME_RE.fullmatch(value):
        return False
    # A dotted name is code (an attribute), unless a word of it has digits inside.
    if _looks_like_code(value) and (value.islower() or not _DIGIT_INSIDE_RE.search(value)):
        return False
    if not any(c.isalpha() for c in value):
        return False
    if any(c.isdigit() for c in value):  # letters and digits: a password, if no term
        return _TECHNICAL_RE.fullmatch(value) is None
    return _IDENT_RE.fullmatch(value) is not None and _opaque(value, 12) and not _wordlike(
        value)  # letters alone: random ones, not words or a type name


def _compound_type(value: str) -> bool:
    """A type's name as an annotation gives it: two capitalised words or more, digits allowed
    between them (a single word and its digits may well be a password)."""
    if not _looks_like_type(value):
        return False
    segments: list[str] = _SEGMENT_RE.findall(value)
    return sum(seg[0].isupper() and not seg.isdigit() for seg in segments) >= 2


def _quoted_prose_secret(inner: str, phrase: bool) -> bool:
    """A quoted value after the link: one token is judged as any linked value; several words
    are a passphrase when the name says so (three words or more, or with a digit)."""
    words = inner.split()
    if not words or _is_placeholder(inner) or len(inner) > 128:
        return False
    if len(words) == 1:
        return _linked_secret(inner)
    return phrase and len(words) <= 8 and (len(words) >= 3 or any(c.isdigit() for c in inner))


def _prose(text: str) -> Iterator[_Span]:
    for m in _PROSE_NAME_RE.finditer(text):
        name = m.group()
        marked = name.lower().startswith(_MARKED_STARTS)
        kind = "secret" if marked else "password"
        phrase = "phrase" in name.lower() or "\u30d5\u30ec\u30fc\u30ba" in name
        # CJK text runs without spaces: there the value stands within a few characters.
        reach = min(len(text), m.end() + (_PROSE_REACH if name[0].isascii() else _CJK_REACH))
        line_end = text.find("\n", m.end(), reach)
        rest_end = reach if line_end < 0 else line_end
        linked = colon = False
        for n, tok in enumerate(_PROSE_TOKEN_RE.finditer(text, m.end(), rest_end)):
            if n >= _PROSE_WINDOW:
                break
            raw = tok.group()
            if raw[:9].lower() == "[redacted":
                break  # already a marker: this credential is taken care of
            joined = tok.start() == m.end()
            if raw in _PROSE_LINKS or raw.lower() in _PROSE_LINKS:
                linked, colon = True, raw in (":", "\uff1a")
                continue
            if joined and name[0].isascii():
                if raw.strip(",;") == "":
                    continue
                break  # the name is part of a longer token ("password@host", "passwords.txt")
            if raw.isascii():
                core_at, core = 0, raw
            else:
                found = _PROSE_CORE_RE.search(raw)
                if found is None:  # CJK or Hangul alone: a particle joined to the name, or a word
                    linked = linked or joined
                    continue
                core_at, core = found.start(), found.group()
            if linked and raw.lower() in _PROSE_FILLERS:
                continue
            close = _QUOTE_PAIRS.get(raw[0]) if linked and len(raw) > 1 else None
            if close is not None:
                end = text.find(close, tok.start() + 1, rest_end)
                inner = text[tok.start() + 1 : end] if end > 0 else ""
                if inner and _quoted_prose_secret(inner, phrase) and not (
                        marked and not _prose_secret(inner)):
                    yield tok.start() + 1, end, kind
                    break
            value = core.strip(_PROSE_TRIM)
            # Shorter than six characters, or a word in lower case or capitalised: no value.
            if len(value) >= 6 and not (value.isalpha() and (value.islower() or value.istitle())):
                if colon and _compound_type(value):
                    break  # an annotation: the name of a parameter or a field and its type
                after_link = linked or (joined and core_at > 0)  # a particle, then the value
                if (after_link or not marked) and (_linked_secret(value) if after_link and not
                                                   marked else _prose_secret(value)):
                    start = tok.start() + core_at + core.index(value)
                    yield start, start + len(value), kind
                    break
            linked = colon = raw.endswith((":", "\uff1a"))  # a word and a colon link what follows


# Credentials given to commands as plain arguments: ``net use ... /user:NAME PASSWORD``,
# ``htpasswd -b FILE USER PASSWORD`` (``-nb USER PASSWORD`` without a file; ``-C`` and ``-r``
# take a number), ``auth=("user", "PASSWORD")`` and ``HTTPBasicAuth(user, "PASSWORD")`` as
# requests, httpx and aiohttp take them (the user a literal or a name; the password's quote
# may be left open where a text was cut short after it).
_NET_USE_RE = re.compile(
    r"(?i:\bnet[ \t]++use\b)[^\n]{0,256}?/(?i:user|u):[^\s]{1,128}+[ \t]++"
    r"(?P<v>[^\s/*][^\s]{0,255}+)")
_HTPASSWD_OPTS = r"(?:[ \t]++-(?:[Cr][ \t]*+[0-9]{1,3}+|[A-Za-z0-9]{1,6}+))"
_HTPASSWD_RE = re.compile(
    rf"\bhtpasswd{_HTPASSWD_OPTS}{{0,8}}?[ \t]++-(?P<flags>[A-Za-z]{{0,5}}?b[A-Za-z]{{0,5}}+)"
    rf"{_HTPASSWD_OPTS}{{0,8}}+(?:[ \t]++(?P<file>\S{{1,256}}+))?[ \t]++\S{{1,128}}+[ \t]++"
    r"(?P<v>\S{1,256}+)")
_AUTH_USER = r"(?:(?P<q>[\"'])[^\"'\n]{0,128}+(?P=q)|[A-Za-z_][\w.]{0,64}+)"
# (A first character from a set, then the word boundary before it: a faster scan, as above.)
_AUTH_TUPLE_RE = re.compile(
    r"[aHBDP](?<![\w].)(?:(?<=a)uth[ \t]*+=[ \t]*+\("
    r"|(?:(?<=H)TTP(?:Basic|Digest|Proxy)|(?<=B)asic|(?<=D)igest|(?<=P)roxy)Auth\()[ \t]*+"
    rf"(?:login[ \t]*+=[ \t]*+)?{_AUTH_USER}[ \t]*+,[ \t]*+(?:password[ \t]*+=[ \t]*+)?"
    r"(?P<vq>[\"'])(?P<v>[^\"'\n]{1,256}+)(?:(?P=vq)|(?=\r?\n|\Z))")


def _htpasswd_value(m: re.Match[str]) -> bool:
    """Whether a ``htpasswd -b`` match is a command: with ``-n`` there is no file, otherwise
    the file looks like one (a path, a name with a dot, ``passwd``), which keeps a sentence
    that only mentions the flag out."""
    file = m.group("file")
    if "n" in m.group("flags"):
        return file is None or not file.isalpha() or not m.group("v").isalpha()
    return file is not None and ("/" in file or "." in file or "passwd" in file)


def _command_arguments(text: str) -> Iterator[_Span]:
    low = text.lower()
    for pattern, present in ((_NET_USE_RE, "net" in low and "use" in low),
                             (_HTPASSWD_RE, "htpasswd" in text)):
        if not present:
            continue
        for m in pattern.finditer(text):
            if pattern is _HTPASSWD_RE and not _htpasswd_value(m):
                continue
            value = m.group("v").strip("\"'`").rstrip(",;").strip("\"'`")  # quotes, code
            if value and not _is_placeholder(value):
                start = m.start("v") + m.group("v").index(value)
                yield start, start + len(value), "password"
    if "uth" in text:
        for m in _AUTH_TUPLE_RE.finditer(text):
            if not _is_placeholder(m.group("v")) and not _CODE_NAME_RE.fullmatch(m.group("v")):
                yield m.start("v"), m.end("v"), "password"


# A PuTTY private key file: the lines after "Private-Lines: N" and the file's MAC, replaced
# as one block when the MAC follows them (as in the file), apart otherwise.
_PPK_RE = re.compile(r"Private-Lines:[ \t]*+(?P<n>[0-9]{1,4})(?P<sep>\r?\n|[ \t]++)")
_PPK_LINE_RE = re.compile(r"[A-Za-z0-9+/=]{1,128}+\r?\n?")
# The same lines in a text that folded them into one (a commit subject, a clipped summary).
_PPK_FOLDED_RE = re.compile(r"[A-Za-z0-9+/=]{8,128}+[ \t]*+")
_PPK_MAC_RE = re.compile(r"Private-(?:MAC|Hash):[ \t]*+(?P<v>[0-9A-Fa-f]{16,128}+)")
_PPK_B64_LINE_RE = re.compile(r"[A-Za-z0-9+/=]{16,128}+\r?")
_PPK_LEAD_RE = re.compile(r"[ \t]*+(?:[-*>][ \t]++)?")


def _ppk_lines_above(text: str, start: int) -> int:
    """Where the run of base64 lines that ends just before ``start`` begins (after a list
    marker or a quote sign that opens its first line). A text that folded the lines into one
    (a summary) keeps them apart by spaces: then each piece must be 20+ characters mixing
    upper case, lower case and digits."""
    while start > 0 and text[start - 1] in "\n \t":
        folded = text[start - 1] != "\n"
        low = max(0, start - 140)  # a line is at most 130 characters and its lead
        above = max(text.rfind(c, low, start - 1) for c in ("\n", " ", "\t")) + 1 if folded else (
            text.rfind("\n", low, start - 1) + 1)
        if above == 0 and low > 0:
            break
        lead_match = None if folded else _PPK_LEAD_RE.match(text, above, start - 1)
        lead = 0 if lead_match is None else lead_match.end() - above
        piece = text[above + lead : start - 1]
        if len(piece) > 130 or not _PPK_B64_LINE_RE.fullmatch(piece) or (
                folded and not (len(piece) >= 20 and _credential_like(piece))):
            break
        start = above + lead
        if lead:
            break
    return start
# A YAML block scalar under a secret's name: "password: >-" and the indented lines below it.
_YAML_BLOCK_RE = re.compile(
    r"^(?P<indent>[ \t]*+)(?P<name>[A-Za-z_][\w.-]{0,80}+):[ \t]*+[|>][+-]?[0-9]?[ \t]*+\r?\n"
    r"(?P<v>(?:(?P=indent)[ \t]++[^\n]*+(?:\n|\Z)){1,64}+)", re.MULTILINE)


def _key_files(text: str) -> Iterator[_Span]:
    if "Private-" in text:
        for m in _PPK_RE.finditer(text):
            pos, lines = m.end(), int(m.group("n"))
            line_re = _PPK_LINE_RE if m.group("sep").endswith("\n") else _PPK_FOLDED_RE
            end = pos
            for _ in range(lines):
                line = line_re.match(text, end)
                if line is None:
                    break
                end = line.end()
            if end <= pos:
                continue
            # The MAC that follows the private lines belongs to them: one marker for both.
            mac = _PPK_MAC_RE.match(text, end)
            if mac is not None:
                yield pos, mac.end("v"), "private_key"
            else:
                yield pos, len(text[:end].rstrip()), "private_key"
        for m in _PPK_MAC_RE.finditer(text):
            # The base64 lines right above the MAC are the private lines, even when the text
            # was cut after "Private-Lines: N" (above them in the file, never base64).
            start = _ppk_lines_above(text, m.start())
            yield start if start < m.start() else m.start("v"), m.end("v"), "private_key"
    if ":" in text and ("|" in text or ">" in text):
        for m in _YAML_BLOCK_RE.finditer(text):
            kind = _secret_kind(m.group("name"))
            body = m.group("v").rstrip("\n")
            if kind is None or _is_placeholder(body.strip()):
                continue
            start = m.start("v") + (len(body) - len(body.lstrip()))
            yield start, m.start("v") + len(body), kind


_DETECTORS: tuple[_Detector, ...] = (
    _pem,
    _pem_base64,
    _tokens,
    _url_passwords,
    _sas,
    _authorization,
    _cookies,
    _credential_files,
    _cli_flags,
    _xml,
    _pairs,
    _assignments,
    _key_files,
    _command_arguments,
    _prose,
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

    if "[REDACTED" in text or "[redacted" in text:
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


# Texts redact() returned lately. They hold no secret (redact is idempotent), so when one comes
# back (a service redacts a field, then the store's guard checks the same string) the answer is
# a dictionary lookup. Bounded in entries and in the length of each, newest last.
_CLEAN: dict[str, None] = {}
_CLEAN_ENTRIES = 1024
_CLEAN_CHARS = 2048


def _remember_clean(text: str) -> None:
    if len(text) > _CLEAN_CHARS:
        return
    _CLEAN[text] = None
    if len(_CLEAN) > _CLEAN_ENTRIES:
        # another thread may get there first
        with contextlib.suppress(KeyError, StopIteration, RuntimeError):
            del _CLEAN[next(iter(_CLEAN))]


def redact(text: str) -> Redaction:
    """Replace every secret in ``text`` by ``[REDACTED:<kind>]``; see the module docstring."""
    if not text:
        return Redaction(text, 0, ())
    if text in _CLEAN:
        return Redaction(text, 0, ())
    placed: list[_Span] = []  # markers added so far, in the coordinates of ``text``
    secrets: list[tuple[str, str]] = []
    for _ in range(_MAX_PASSES):
        found = _find(text)
        if not found:
            break
        parts: list[str] = []
        moved: list[_Span] = []
        pos = shift = j = 0
        for start, end, kind in found:
            secrets.append((text[start:end], kind))
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
    _remember_clean(text)
    return Redaction(text, len(placed), tuple(k for _, _, k in placed), tuple(secrets))


def _is_marker(value: str) -> bool:
    return _MARKER_RE.fullmatch(value.strip()) is not None


def redact_together(texts: Sequence[str]) -> list[str]:
    """``texts`` redacted as one record (``redact_obj``): a secret found in one is removed from
    the others too. The words of a link are such a record: a reason that says "the password is
    X" marks X as a secret, and a relation word or tag that repeats X would otherwise keep it."""
    out, _ = redact_obj(list(texts))
    assert isinstance(out, list)
    return [str(t) for t in out]


def redact_obj(value: object) -> tuple[object, int]:
    """Redact str values inside dicts/lists/tuples; returns (new value, count).

    Keys are kept. A non-empty string stored under a secret-looking key (password, token,
    api_key, auth, authorization, credentials, ...) is replaced whole by its marker.

    A secret found in one string is then removed from every other string of ``value`` too, in
    any letter case, and so is any run of 8 or more letters and digits that is part of one: a
    record often carries a secret twice, once in context and once taken apart (the lower-cased
    terms of a sentence, a normalised word, a clipped copy), where no detector could tell it.
    """
    found: dict[str, str] = {}
    out, count = _redact_walk(value, found)
    if not found:
        return out, count
    out, scrubbed = _scrub_walk(out, _Scrubber(found))
    return out, count + scrubbed


def _redact_walk(value: object, found: dict[str, str]) -> tuple[object, int]:
    if isinstance(value, str):
        result = redact(value)
        for secret, secret_kind in result.secrets:
            found.setdefault(secret, secret_kind)
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
                    found.setdefault(item.strip(), kind)
                    total += 1
                continue
            out[key], count = _redact_walk(item, found)
            total += count
        return out, total
    if isinstance(value, list | tuple):
        items: list[object] = []
        total = 0
        for item in value:
            new, count = _redact_walk(item, found)
            items.append(new)
            total += count
        return (items if isinstance(value, list) else tuple(items)), total
    return value, 0


_RUN_RE = re.compile(r"[A-Za-z0-9]{8,}")


class _Scrubber:
    """Takes the secrets found in a record out of the rest of it (see ``redact_obj``)."""

    def __init__(self, found: dict[str, str]) -> None:
        self.found = {secret.lower(): kind for secret, kind in found.items()}
        whole = sorted((s for s in self.found if len(s) >= 8), key=len, reverse=True)
        self.whole = (re.compile("|".join(re.escape(s) for s in whole), re.IGNORECASE)
                      if whole else None)
        self.blob = "\n".join(self.found)
        # Whole words of a secret ("password" in my-password-2024): words, not secret material.
        # Read in the secret's own letter case: lower-cased, a mixed-case run of a token
        # ("patFAKESfLz...") would pass for a word and stay behind in a clipped copy.
        self.words = {run.lower() for s in found for run in _RUN_RE.findall(s)
                      if run.isalpha() and (run.islower() or run.isupper())}

    def kind(self, piece: str) -> str:
        piece = piece.lower()
        return self.found.get(piece) or next(
            (k for s, k in self.found.items() if piece in s), "secret")

    def __call__(self, text: str) -> tuple[str, int]:
        count = 0

        def swap(m: re.Match[str]) -> str:
            nonlocal count
            piece = m.group()
            if m.re is _RUN_RE and (piece.lower() not in self.blob
                                    or piece.lower() in self.words):
                return piece
            count += 1
            return marker(self.kind(piece))

        if self.whole is not None:
            text = self.whole.sub(swap, text)
        return _RUN_RE.sub(swap, text), count


def _scrub_walk(value: object, scrub: _Scrubber) -> tuple[object, int]:
    if isinstance(value, str):
        if _MARKER_RE.fullmatch(value):
            return value, 0
        return scrub(value)
    if isinstance(value, dict):
        total = 0
        out: dict[object, object] = {}
        for key, item in value.items():
            out[key], n = _scrub_walk(item, scrub)
            total += n
        return out, total
    if isinstance(value, list | tuple):
        items: list[object] = []
        total = 0
        for item in value:
            new, n = _scrub_walk(item, scrub)
            items.append(new)
            total += n
        return (items if isinstance(value, list) else tuple(items)), total
    return value, 0
