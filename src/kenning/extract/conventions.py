"""Standing rules in what people write: conventions (how to work here) and decisions (what the
project chose), found by sentence structure and a small lexicon. No model, no network, no I/O.

People state rules indirectly ("I'd like you to...", "going forward...", "our convention is...",
"let's stick to...", "no more X"), several to a message, among chatter, questions, one-off
requests and reports. ``find_rules`` reads every sentence of a message and keeps only the
standing ones, each rewritten as a short imperative in the speaker's own words.
``same_subject`` and ``supersedes`` let a newer rule replace an older one on the same subject
without hiding compatible refinements."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Literal

MAX_INPUT = 20_000
MAX_SAID = 300
MIN_CONFIDENCE = 0.5
MAX_CONFIDENCE = 0.85
ASSISTANT_MAX_CONFIDENCE = 0.6

# Tools that do one job: two rules naming members of one family are about the same thing,
# and a rule prescribing one member can replace a rule that prescribed another.
TOOL_FAMILIES: dict[str, frozenset[str]] = {
    "package manager": frozenset({"npm", "pnpm", "yarn", "bun", "npx", "pnpx"}),
    "python env": frozenset({"pip", "pip3", "uv", "poetry", "pipenv", "conda", "pdm", "hatch",
                             "rye", "mamba", "virtualenv", "pip-tools"}),
    "test runner": frozenset({"pytest", "unittest", "nose2", "jest", "vitest", "mocha",
                              "jasmine", "ava", "go test", "gotestsum", "nextest",
                              "cargo nextest", "cargo test", "rspec", "minitest", "phpunit",
                              "junit", "bun test", "node:test"}),
    "e2e runner": frozenset({"playwright", "cypress", "selenium", "puppeteer"}),
    "linter": frozenset({"eslint", "biome", "oxlint", "ruff", "flake8", "pylint", "pyflakes",
                         "clippy", "golangci-lint", "go vet", "staticcheck", "rubocop",
                         "shellcheck", "tslint", "stylelint"}),
    "formatter": frozenset({"black", "ruff format", "prettier", "gofmt", "goimports", "rustfmt",
                            "cargo fmt", "yapf", "autopep8", "dprint", "biome format",
                            "clang-format"}),
    "import sorter": frozenset({"isort", "ruff isort"}),
    "type checker": frozenset({"mypy", "pyright", "basedpyright", "tsc", "pytype", "pyre",
                               "flow"}),
    "http client": frozenset({"requests", "httpx", "aiohttp", "urllib3", "urllib", "axios",
                              "fetch", "node-fetch", "got", "ky", "superagent", "reqwest",
                              "ureq", "net/http", "resty"}),
    "logging": frozenset({"logging", "loguru", "structlog", "winston", "pino", "bunyan",
                          "log4j", "slf4j", "logback", "zap", "zerolog", "slog", "logrus",
                          "tracing", "log crate"}),
    "orm": frozenset({"sqlalchemy", "django orm", "peewee", "tortoise", "sqlmodel", "prisma",
                      "typeorm", "sequelize", "drizzle", "gorm", "sqlx", "diesel", "sea-orm",
                      "knex", "mikro-orm", "activerecord", "ent", "sqlc"}),
    "assertion library": frozenset({"testify", "go-cmp", "assert", "chai", "expect",
                                    "hamcrest", "assertj", "gomega", "should.js", "power-assert"}),
    "bundler": frozenset({"webpack", "vite", "rollup", "esbuild", "parcel", "turbopack", "tsup",
                          "rspack", "swc", "babel"}),
    "ci": frozenset({"github actions", "gitlab ci", "circleci", "jenkins", "travis",
                     "buildkite", "azure pipelines", "drone"}),
    "task runner": frozenset({"make", "just", "task", "invoke", "nox", "tox", "mage", "rake"}),
    "web framework": frozenset({"flask", "django", "fastapi", "starlette", "express", "koa",
                                "fastify", "hono", "nestjs", "gin", "echo", "fiber", "chi",
                                "actix", "axum", "rails", "sinatra", "spring"}),
    "ui framework": frozenset({"react", "vue", "svelte", "angular", "solid", "preact",
                               "htmx", "lit"}),
    "database": frozenset({"postgres", "postgresql", "mysql", "sqlite", "mongodb", "mariadb",
                           "dynamodb", "cockroachdb", "redis", "duckdb"}),
    "validation": frozenset({"pydantic", "marshmallow", "attrs", "zod", "yup", "joi",
                             "valibot", "cerberus"}),
    "dates": frozenset({"moment", "dayjs", "date-fns", "luxon", "arrow", "pendulum"}),
    "cli framework": frozenset({"click", "typer", "argparse", "cobra", "clap", "commander",
                                "yargs"}),
    "css": frozenset({"tailwind", "css modules", "styled-components", "emotion", "sass"}),
    "module system": frozenset({"esm", "commonjs", "cjs"}),
    "containers": frozenset({"docker", "podman"}),
}

# Exclusive style choices: prescribing one member replaces a rule that prescribed another.
STYLE_CHOICES: dict[str, frozenset[str]] = {
    "indentation": frozenset({"tabs", "spaces"}),
    "quotes": frozenset({"single quotes", "double quotes"}),
    "naming case": frozenset({"snake_case", "camelcase", "pascalcase", "kebab-case",
                              "screaming_snake_case"}),
    "merge strategy": frozenset({"squash merge", "squash-merge", "rebase merge", "merge commits",
                                 "fast-forward"}),
    "pagination": frozenset({"offset paging", "offset pagination", "limit and offset",
                             "limit/offset", "offset-based paging", "keyset",
                             "keyset pagination", "keyset paging", "cursor pagination",
                             "cursor-based pagination", "page numbers"}),
}

# Generic words that name a family without naming a member.
_FAMILY_WORDS: dict[str, str] = {
    "package manager": "package manager", "test runner": "test runner", "linter": "linter",
    "formatter": "formatter", "type checker": "type checker", "typechecker": "type checker",
    "http client": "http client", "logger": "logging", "orm": "orm", "bundler": "bundler",
    "ci": "ci",
}

# The words that say what a family is for: a rule scoped to one of these is not narrower.
_FAMILY_PURPOSE: dict[str, frozenset[str]] = {
    "package manager": frozenset({"install", "package", "dep", "dependenc", "node", "js",
                                  "script", "everyth", "frontend", "lockfil"}),
    "python env": frozenset({"dep", "dependenc", "env", "environ", "virtualenv", "venv",
                             "package", "install", "python", "lockfil", "everyth"}),
    "test runner": frozenset({"test", "unit", "spec", "suit"}),
    "e2e runner": frozenset({"e2e", "end-to-end", "test", "browser"}),
    "linter": frozenset({"lint", "code", "python", "style", "check"}),
    "formatter": frozenset({"format", "cod", "code", "style"}),
    "type checker": frozenset({"typ", "type", "typecheck", "check"}),
    "http client": frozenset({"http", "request", "call", "api", "client"}),
    "logging": frozenset({"log", "logg", "messag"}),
    "orm": frozenset({"databas", "db", "model", "quer", "query"}),
    "bundler": frozenset({"bundl", "build"}),
    "ci": frozenset({"ci", "build", "pipelin", "check"}),
    "cli framework": frozenset({"cli", "command", "tool", "script", "argument", "arg"}),
    "web framework": frozenset({"web", "api", "servic", "server", "app", "endpoint"}),
    "database": frozenset({"storag", "data", "databas", "db", "persist"}),
    "validation": frozenset({"validat", "schema", "model", "input", "request", "bod"}),
    "dates": frozenset({"dat", "time", "timestamp"}),
    "pagination": frozenset({"pag", "list", "respons", "endpoint", "number", "quer", "param",
                             "cursor", "result", "scroll"}),
}

# Languages of tools that exist in several ecosystems, so that a Python rule and a
# JavaScript rule never replace each other.
_ECOSYSTEM: dict[str, str] = {
    **{t: "python" for t in ("pytest", "unittest", "nose2", "ruff", "flake8", "pylint",
                             "pyflakes", "black", "ruff format", "yapf", "autopep8", "mypy",
                             "pyright", "basedpyright", "pytype", "pyre", "requests", "httpx",
                             "aiohttp", "urllib3", "urllib", "logging", "loguru", "structlog",
                             "sqlalchemy", "django orm", "peewee", "tortoise", "sqlmodel",
                             "pydantic", "marshmallow", "attrs", "cerberus", "click", "typer",
                             "argparse", "flask", "django", "fastapi", "starlette", "isort",
                             "pendulum", "arrow", "nox", "tox", "invoke")},
    **{t: "js" for t in ("jest", "vitest", "mocha", "jasmine", "ava", "bun test", "node:test",
                         "eslint", "biome", "oxlint", "tslint", "prettier", "biome format",
                         "dprint", "tsc", "flow", "axios", "fetch", "node-fetch", "got", "ky",
                         "superagent", "winston", "pino", "bunyan", "prisma", "typeorm",
                         "sequelize", "drizzle", "knex", "mikro-orm", "chai", "expect",
                         "zod", "yup", "joi", "valibot", "moment", "dayjs", "date-fns", "luxon",
                         "commander", "yargs", "express", "koa", "fastify", "hono", "nestjs")},
    **{t: "go" for t in ("go test", "gotestsum", "golangci-lint", "go vet", "staticcheck",
                         "gofmt", "goimports", "net/http", "resty", "zap", "zerolog", "slog",
                         "logrus", "gorm", "ent", "sqlc", "testify", "go-cmp", "gomega",
                         "cobra", "gin", "echo", "fiber", "chi", "mage")},
    **{t: "rust" for t in ("nextest", "cargo nextest", "cargo test", "clippy", "rustfmt",
                           "cargo fmt", "reqwest", "ureq", "tracing", "log crate", "sqlx",
                           "diesel", "sea-orm", "clap", "actix", "axum")},
    **{t: "ruby" for t in ("rspec", "minitest", "rubocop", "activerecord", "rails", "sinatra",
                           "rake")},
}

# Members that are also everyday English words: a tool only inside code, or right after a
# word that takes a tool ("use make", "switch to just").
_AMBIGUOUS_TOOLS = frozenset({
    "just", "make", "task", "invoke", "echo", "got", "expect", "express", "tracing", "logging",
    "assert", "fetch", "requests", "arrow", "click", "attrs", "emotion", "rye", "hatch", "ava",
    "chai", "solid", "zap", "joi", "ky", "bun", "flow", "lit", "chi", "ent", "moment",
    "spring", "fiber", "drone", "travis", "jenkins", "gin", "react", "vue", "angular", "sass",
    "black", "ruff", "mocha", "jest", "rake", "mage", "nox", "tox", "tortoise", "pino", "zod",
    "yup", "drizzle", "knex", "cargo test", "prettier", "biome", "sqlite",
})
_TOOL_TAKERS = frozenset({
    "use", "using", "used", "uses", "with", "prefer", "prefers", "to", "over", "than", "of",
    "not", "from", "via", "run", "runs", "running", "adopt", "try", "into", "and", "or",
    "favour", "favor", "plain", "native", "stick", "keep", "no", "never", "avoid", "drop",
    "ditch", "replace", "pin", "through", "by", "bare", "call",
})

_ALL_TOOLS: dict[str, list[str]] = {}
for _fam, _members in TOOL_FAMILIES.items():
    for _tool in _members:
        _ALL_TOOLS.setdefault(_tool, []).append(_fam)
_TOOL_RE = re.compile(
    r"(?<![\w@/.-])(" + "|".join(re.escape(t) for t in sorted(_ALL_TOOLS, key=len, reverse=True))
    + r")(?![\w/-]|\.\w)", re.I)
_STYLE_MEMBER: dict[str, str] = {m: f for f, ms in STYLE_CHOICES.items() for m in ms}
_STYLE_RE = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(t) for t in sorted(_STYLE_MEMBER, key=len, reverse=True))
    + r")(?![\w-])", re.I)

# ---------------------------------------------------------------------------------------------
# Lexicon


# Verbs whose bare generic object makes a standing rule ("use type hints", "keep functions
# small", "prefix branches with feat/").
_CONV_VERBS = frozenset({
    "use", "prefer", "avoid", "keep", "name", "prefix", "suffix", "write", "put", "place",
    "wrap", "favor", "favour", "follow", "format", "indent", "annotate", "type", "document",
    "log", "pin", "squash", "squash-merge", "rebase", "sign", "mark", "store", "limit", "cap",
    "vendor", "lowercase", "uppercase", "capitalise", "capitalize", "spell", "quote",
    "colocate", "co-locate", "mock", "parametrize", "parameterize", "respect", "honor",
    "honour", "declare", "target", "support", "require", "sort", "group", "separate",
    "structure", "organise", "organize", "reuse", "raise", "return", "throw", "catch",
    "handle", "validate", "guard", "inject", "treat", "tag", "label", "reference", "link",
    "include", "exclude", "comment", "stick", "default", "express", "model", "represent",
    "encode", "escape", "pass", "accept", "lint",
})
# Verbs that make a one-off request unless something says the rule stands.
_TASK_VERBS = frozenset({
    "run", "add", "merge", "push", "open", "create", "update", "delete", "remove", "touch",
    "edit", "modify", "change", "rename", "refactor", "regenerate", "generate", "build",
    "compile", "install", "upgrade", "downgrade", "set", "configure", "enable", "disable",
    "turn", "make", "ensure", "verify", "print", "emit", "send", "read", "load", "save",
    "cache", "hash", "encrypt", "call", "import", "export", "split", "extract", "inline",
    "measure", "benchmark", "assert", "compare", "await", "retry", "close", "clean", "skip",
    "xfail", "deploy", "release", "publish", "bump", "version", "tell", "ask", "explain",
    "describe", "leave", "start", "end", "begin", "query", "hit", "access", "expose",
    "instantiate", "initialize", "initialise", "define", "mirror", "match", "stay", "rely",
    "depend", "cite", "stub", "order", "go", "do", "be", "get", "bring", "fix", "write",
    "check", "look", "try", "keep", "show", "let", "wait", "stop", "sync", "rerun", "re-run",
    "document", "note", "record", "announce", "cc", "ping", "notify", "tag", "commit", "test",
    "ship", "hardcode", "hard-code", "leak", "silence", "suppress", "ignore", "swallow",
    "bypass", "force-push", "overwrite", "reformat", "duplicate", "copy", "paste", "nest",
    "shadow", "mutate", "block", "find", "locate", "select",
})
_VERBS = _CONV_VERBS | _TASK_VERBS
# Verbs of a project choice: an imperative with one of these is a decision.
_DECISION_VERB = (
    r"(?:pin|unpin|migrate|migrating|switch|switching|move|moving|adopt|adopting|replace|"
    r"replacing|standardi[sz]e|standardi[sz]ing|deprecate|deprecating|rip|ripping|ditch|"
    r"ditching|drop|dropping|sunset|freeze|go|going|get rid|raise|raising|lower|lowering|"
    r"bump|bumping|increase|increasing|reduce|reducing)"
)
_ING_BASE = {
    "moving": "move", "switching": "switch", "migrating": "migrate", "dropping": "drop",
    "adopting": "adopt", "going": "go", "using": "use", "standardizing": "standardize",
    "standardising": "standardise", "replacing": "replace", "deprecating": "deprecate",
    "ripping": "rip", "ditching": "ditch", "sticking": "stick", "pinning": "pin",
    "keeping": "keep", "killing": "kill", "removing": "remove", "sunsetting": "sunset",
}
_ARCH_NOUNS = frozenset({
    "cache", "caching", "database", "db", "api", "schema", "architecture", "service",
    "services", "microservices", "monolith", "monorepo", "framework", "backend", "frontend",
    "auth", "authentication", "queue", "storage", "endpoint", "endpoints", "protocol", "etags",
    "etag", "rest", "graphql", "grpc", "websockets", "esm", "commonjs", "cjs", "typescript",
    "javascript", "runtime", "dependency", "dependencies", "deps", "release", "releases",
    "versioning", "license", "deployment", "kubernetes", "k8s", "serverless", "lambda", "cdn",
    "orm", "migrations", "sharding", "replication", "pagination", "feature flags", "i18n",
    "build system", "plugin", "plugins", "toml", "yaml", "json", "python", "node", "support",
    "server", "client", "sdk", "cli", "ui", "store", "state management", "event bus",
    "message queue", "events", "webhooks", "polling", "rpc", "s3", "aws", "gcp", "azure",
})

_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "my", "your",
                          "its", "their", "his", "her", "some", "one"})
_PRONOUNS = frozenset({"it", "them", "that", "this", "these", "those", "him", "her", "me",
                       "you", "everything", "something", "anything", "nothing", "stuff",
                       "things", "whatever", "so", "going", "on", "up", "in", "out", "at"})
_NOT_PLURAL = frozenset({
    "this", "its", "is", "was", "has", "does", "always", "process", "class", "access",
    "status", "bus", "css", "js", "ts", "sass", "less", "alias", "analysis", "https", "redis",
    "postgres", "yes", "us", "as", "his", "thus", "plus", "across", "unless", "express",
    "pass", "various", "previous", "focus", "minus", "bonus", "canvas", "atlas", "chaos",
    "basis", "axis", "kubernetes", "k8s", "jenkins", "nodejs", "nextjs", "vuejs", "gas",
    "news", "series", "lens", "perhaps", "whereas", "besides", "sometimes", "afterwards",
    "towards", "regardless", "nevertheless",
})

_STOP = frozenset("""
a an the and or but if then else when whenever while of to in on at by for with from into onto
over under as is are was were be been being am do does did done doing have has had having it
its this that these those there here we our us you your i me my he she they them their his her
not no nor so too very just only also always never ever please pls thanks thank can could
would should must shall will may might let lets let's use uses using used prefer prefers make
sure ensure need needs want like would'd i'd we'd you'd don't dont do not any some all every
each more most less least other another such same than rather instead again anymore longer
going forward now from then one ones thing things stuff way ways kind sort get gets got go
goes what which who whom whose why how where via per etc e.g i.e eg ie okay ok yes yeah
really actually basically generally usually typically probably maybe perhaps ideally
possible keep keeps kept stick try btw oh also new future project repo repository codebase
around here's it's that's there's we're we've we'll i'll i'm you're they're isn't aren't
wasn't weren't doesn't didn't won't can't cannot shouldn't mustn't don doesn didn isn aren
below above without within across after before between through onto
won shouldn mustn wouldn couldn hasn haven wasn weren
""".split())
_GENERIC_VERBS = frozenset({"use", "prefer", "make", "ensure", "keep", "stick", "go", "run",
                            "do", "be", "have", "get", "put", "follow", "write", "add",
                            "avoid", "stop", "start", "switch", "move", "migrate", "drop"})

# ---------------------------------------------------------------------------------------------
# Splitting a message into pieces


@dataclass(frozen=True)
class Rule:
    """A standing rule found in a message.

    ``text`` is the rule as a short imperative in the speaker's words; ``said`` the sentence it
    came from; ``subject`` a key that two rules about one thing share; ``terms`` the rule's
    content words for matching; ``change`` whether the sentence says it changes an earlier
    way of working; ``replaces`` what it replaces when the sentence names it."""

    kind: Literal["convention", "decision"]
    text: str
    said: str
    subject: str
    terms: frozenset[str]
    change: bool
    replaces: str | None
    confidence: float


@dataclass(frozen=True)
class _Piece:
    """A sentence, bullet or line of a message, with the rules header it sits under."""

    raw: str
    header: str | None  # "standing", "topic", "always", "never", "avoid" or None
    context: str  # the header line it sits under, for ``said``
    change: bool


_FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.S)
_CODE = re.compile(r"`[^`\n]+`")
_BULLET = re.compile(r"^\s*(?:[-*•+▪◦‣–]|\(?\d{1,2}[.)]|\(?[a-hA-H][.)](?=\s))\s+")
_EMOJI = re.compile(
    r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2190-\u21FF\u2300-\u23FF]"
    r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2190-\u21FF\u2300-\u23FF\uFE0F\u200d"
    r"\U0001F3FB-\U0001F3FF]*\uFE0F?|(?<!\S)(?:[:;]-?[)(DPpO/|]|<3|\^_\^|xD)(?!\S)")
_ABBREV = frozenset({"e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "esp", "resp", "mr",
                     "mrs", "dr", "st", "no", "fig", "ca", "eg", "ie", "al"})
_BOUNDARY = re.compile(r"([.!?]+)[\"')\]]*(?=\s)|[\s,](?=\s*(?:btw|oh and|by the way|p\.?s\.?:?|"
                       r"also,|anyway,|anyways,)[\s,])", re.I)
_INLINE_NUM = re.compile(r"(?:^|(?<=\s))(\d{1,2})[.)]\s+")
_STRONG_HEADER = re.compile(
    r"\b(?:rules?|conventions?|guidelines?|preferences?|standards?|style ?guide|house style|"
    r"going forward|from now on|moving forward|in (?:this|our) (?:repo|repository|project|"
    r"codebase)|for (?:this|our) (?:repo|repository|project|codebase)|policy|policies|"
    r"ground rules|do'?s and don'?ts|keep in mind|remember|always|never|avoid|please follow|"
    r"norms|principles|expectations|instructions for (?:you|working)|"
    r"the way (?:\w+ ){1,2}works?(?: here| in this \w+)?)\b", re.I)
_CHANGE_HEADER = re.compile(r"\b(?:from now on|going forward|moving forward|change of plan)\b",
                            re.I)


def _mask(text: str) -> str:
    """``text`` lower-cased with the inside of every code span blanked to ``x``, same length,
    so structure is read on the mask and words are taken from the same slice of the text."""
    low = text.lower()
    return _CODE.sub(lambda m: "`" + "x" * (len(m.group()) - 2) + "`", low)


def _unfence(text: str) -> str:
    """Code blocks out of the prose: a one-line block becomes inline code, a longer one
    a paragraph break (code is not where people state rules)."""
    def repl(m: re.Match[str]) -> str:
        body = m.group(1).strip()
        if body and "\n" not in body and "`" not in body and len(body) <= 120:
            return f" `{body}` "
        return "\n\n"
    return _FENCE.sub(repl, text)


def _split_sentences(line: str) -> list[str]:
    """Sentences of one line: at end punctuation (not abbreviations, not inside code),
    at emoji, before "btw" / "oh and", and at inline numbered items "1. ... 2. ..."."""
    masked = _mask(line)
    cuts: list[int] = [0]
    for m in _BOUNDARY.finditer(masked):
        if m.group(1):
            before = masked[: m.start(1)].rsplit(None, 1)
            word = before[-1].lstrip("(\"'") if before else ""
            if word in _ABBREV or (len(word) == 1 and word.isalpha() and m.group(1) == "."):
                continue
            cuts.append(m.end())
        else:
            cuts.append(m.start() + 1)
    for m in _EMOJI.finditer(masked):
        cuts.extend((m.start(), m.end()))
    nums = [m for m in _INLINE_NUM.finditer(masked)]
    seq: list[re.Match[str]] = []
    for m in nums:
        if int(m.group(1)) == len(seq) + 1:
            seq.append(m)
    if len(seq) >= 2:
        cuts.extend(m.start() for m in seq)
    cuts = [*sorted(set(cuts)), len(line)]
    out: list[str] = []
    for a, b in pairwise(cuts):
        part = _EMOJI.sub(" ", line[a:b]).strip()
        part = _BULLET.sub("", part).strip()
        if part:
            out.append(part)
    return out


def _pieces(text: str, *, topics: bool = False) -> list[_Piece]:
    """Every sentence, bullet and line of a message, with the rule header it sits under (a
    lead-in that only names a topic counts with ``topics``: the user's lists)."""
    text = _unfence(text[:MAX_INPUT].replace("\r\n", "\n").replace("\r", "\n"))
    out: list[_Piece] = []
    header: str | None = None
    context = ""
    change = False
    for line in text.split("\n"):
        if not line.strip():
            header, context, change = None, "", False
            continue
        is_bullet = bool(_BULLET.match(line))
        if not is_bullet and header is not None and not line.startswith((" ", "\t")):
            header, context, change = None, "", False
        sentences = _split_sentences(line)
        for i, sentence in enumerate(sentences):
            head = sentence.rstrip()
            colon = _colon_header(head, topics=topics)
            if colon is not None:
                header, context = colon, head
                change = bool(_CHANGE_HEADER.search(head))
                rest = head.split(":", 1)[1].strip() if ":" in head else ""
                if rest and not rest.startswith("`"):
                    out.append(_Piece(rest, header, context, change))
                continue
            # the sentences after a header on its line are its items, unless it only named a
            # topic ("decision: all list endpoints use cursors. the old ones move later.")
            inline = i > 0 and header is not None and header != "topic"
            out.append(_Piece(sentence, header if (is_bullet or inline) else None,
                              context if (is_bullet or inline) else "", change))
    return out


def _colon_header(sentence: str, *, topics: bool = False) -> str | None:
    """The kind of header a line ending (or opening) with a colon is: a list of standing
    rules ("Conventions:", "Going forward:"), of things never to do ("Never:"), with
    ``topics`` a lead-in that only names what its list is about ("versioning: ..."), or
    None."""
    if ":" not in sentence:
        return None
    head, _, rest = sentence.partition(":")
    if "`" in head or len(head.split()) > 10:
        return None
    low = head.strip().lower().strip("*_ ")
    if low in ("always", "do", "dos", "do's"):
        return "always"
    if low in ("never", "don't", "dont", "do not", "don'ts", "donts", "avoid"):
        return "never" if low != "avoid" else "avoid"
    if _STRONG_HEADER.search(head) and (not rest.strip() or len(rest.split()) <= 3
                                        or _is_header_words(low)):
        return "standing"
    if (topics and _TOPIC_HEAD.match(low) and not _NOT_A_TOPIC.search(low) and rest.strip()
            and not _NARRATED.match(rest.strip().lower())):
        return "topic"  # "versioning: semver, tags look like `vX.Y.Z`, ..."
    return None


# A lead-in that only names what the list after its colon is about: "api naming:",
# "versioning:", "TS:", "in the rust crates:" (a few words, no verb); not news, a question or
# the task ("update:", "quick question:", "bug:").
_TOPIC_HEAD = re.compile(r"^(?:(?:ok|okay|so|and|also|oh|btw)\W*\s+)?(?:(?:in|for)\s+"
                         r"(?:the\s+|our\s+|all\s+)?)?[a-z][\w./+#-]*(?:\s+[a-z][\w./+#-]*){0,2}$")
# What follows a lead-in as a story, not a list: "config time: we're at seven env vars now, ...".
_NARRATED = re.compile(r"(?:i|we|you|they|he|she|it|there|this|that)(?:'?re|'?ve|'?s|'?m|'?d|"
                       r"\s+(?:are|is|was|were|have|has|had|did|do|got|get|just|still|"
                       r"finally|now))\b")
_NOT_A_TOPIC = re.compile(
    r"\b(?:update|updates|status|news|fyi|question|questions|q|a|context|background|bug|bugs|"
    r"issue|issues|problem|problems|error|errors|note|notes|ps|todo|to-do|next|today|plan|"
    r"idea|ideas|thought|thoughts|summary|result|results|recap|tl;?dr|edit|heads[- ]up|"
    r"reminder|example|e\.?g|i\.?e|warning|log|logs|output|trace|traceback|stack|diff|"
    r"ticket|task|feature|request|hey|hi|hello|thanks|thank|morning|ok|okay|yes|no|so|"
    r"well|also|btw|sure|done|step|steps|first|second|then|after|before|answer|reason|"
    r"because|why|what|how|who|when|where|which|time|story|fun|drama|is|are|was|were|be|"
    r"been|has|have|had|do|does|did|can|could|will|would|should|must|need|needs|want|wants|"
    r"like|see|look|looks|said|says|think|know|got|get|i|we|you|they|it|this|that|my)\b")


def _is_header_words(low: str) -> bool:
    """A lead-in such as "our conventions" or "from now on", not a full clause (one with a
    verb, such as "we always keep everything in UTC internally", is a rule of its own that the
    words after the colon spell out: the sentence is kept whole)."""
    return not re.search(r"\b(?:is|are|was|were|use|prefer)\b|"
                         r"^(?:we|you|i)\s+(?:always|never)\s+\w+\s+\w+", low)


# ---------------------------------------------------------------------------------------------
# Reading one sentence


class _Clause:
    """A sentence being read: the text and its mask stay the same length, so a cut on one is
    the same cut on the other."""

    __slots__ = ("change", "correction", "hedged", "polite", "raw", "scope", "standing",
                 "trigger")

    def __init__(self, raw: str) -> None:
        self.raw = " ".join(raw.split())
        self.scope = ""  # a lead-in naming what the rule covers ("in every Dockerfile")
        self.standing = False
        self.change = False
        self.polite = False
        self.hedged = False
        self.correction = False
        self.trigger = False

    @property
    def mask(self) -> str:
        return _mask(self.raw)

    def cut(self, start: int, end: int, insert: str = "") -> None:
        self.raw = " ".join((self.raw[:start] + insert + self.raw[end:]).split())


_LEAD_SOFT = re.compile(
    r"^(?:btw|by the way|fyi|heads[- ]up|while you'?re (?:here|at it)|oh and|and also|also|"
    r"and|plus|p\.?s\.?|anyway|anyways|"
    r"um+|uh+|hm+|ok(?:ay)? so|alright so|so|oh|then|hey|hi|hello)\b[\s,:;.!—–-]*")
_LEAD_HARD = re.compile(
    r"^(?:ok(?:ay)?|alright|all right|right|well|yeah|yes|yep|sure|great|cool|nice|perfect|"
    r"thanks|thank you|hey|hi|hello|one more thing|one (?:last |other |more )?thing"
    r"(?: first| to note)?|another thing|first(?:ly)?|first of all|before (?:we|you) start|"
    r"second(?:ly)?|third(?:ly)?|finally|lastly|last(?:ly)?|next|important|note|nb|n\.b\.|"
    r"fyi|heads up|reminder|quick note|quick reminder|just so you know|for the record|"
    r"for your info|as discussed|as i said|as mentioned|also note|side note|general note|"
    r"actually|instead|change of plan(?:s)?|update|correction|edit|small thing|quick thing|"
    r"one rule|a rule|rule|general rule|tip|pro tip|don'?t forget|remember|keep in mind|"
    r"bear in mind|please note|note that|just a reminder|friendly reminder|nit|small nit|"
    r"minor nit|nitpick|minor|minor thing|small note|one note|(?:ok(?:ay)?,? )?do it|"
    r"go ahead|go for it|let'?s do (?:it|that)|agreed|sounds good|makes sense)\s*[,:;.!—–-]+\s*")
_LEAD_SCOPE = re.compile(
    r"^(?:going forward|moving forward|from now on|from here on(?: out)?|henceforth|"
    r"in (?:the )?future|for (?:the )?future reference|for future reference|"
    r"for (?:this|the|our) (?:repo|repository|project|codebase|code base|team)|"
    r"in (?:this|our|the) (?:repo|repository|project|codebase|code base|monorepo|team|org|"
    r"company|shop)|around here|over here|here|in general|generally(?: speaking)?|"
    r"as a (?:general )?rule|by convention|as a convention|for all (?:future )?\w+|"
    r"in all (?:future )?\w+|for everything|for (?:every|each) \w+|in (?:every|each) \w+|"
    r"everywhere|always|"
    r"(?:for|in) (?:all )?(?:new|future) (?:code|files|modules|work|prs|changes))"
    r"(?:\s*[,:;—–-]+\s*|\s+(?=(?:we|you|i|please|use|always|never|don'?t|let'?s|our|can|"
    r"could|would|make|do|no|all|every|pls)\b))")
_LEAD_CORRECTION = re.compile(r"^(?:no|nope|nah|wrong|not that|actually|instead)\s*[,:;.!—–-]+"
                              r"\s*(?=\S)")
_LEAD_HEDGE = re.compile(
    r"^(?:(?:i'?d|i would) (?:really )?(?:like|love|prefer|want) (?:it )?(?:if )?"
    r"(?:you|us|we|everyone|people) (?:to |could |would |'d |can |will )?(?:please )?|"
    r"i (?:really )?(?:want|need|expect|ask) (?:you|us|everyone|people) to |"
    r"(?:i'?d|i would) appreciate (?:it )?if you(?:'d| would| could)? |"
    r"it(?:'d| would| will)? be (?:great|nice|good|better|ideal|helpful|best) if "
    r"(?:you|we)(?: could| would|'d| can)? |"
    r"(?:could|can|would|will) you (?:please |pls |kindly |also )?|"
    r"(?:please|pls|plz|kindly) (?:do |also )?|"
    r"make sure (?:to |that you |you |that we |we )|be sure to |ensure (?:that )?you |"
    r"remember to |don'?t forget to |try (?:to |and )|ideally,? |if (?:at all )?possible,? |"
    r"where(?:ver)? possible,? |when(?:ever)? possible,? |i think |i feel like |i'?d say |"
    r"honestly,? |basically,? |just |"
    r"you (?:should|must|need to|have to|'ll want to|will want to|want to|ought to|are to|"
    r"'re to|gotta|got to) |(?:we|i) (?:need|want) you to )")
_LEAD_NEG_YOU = re.compile(
    r"^(?:(?:i'?d|i would) (?:rather|prefer (?:it )?if) (?:you|we) (?:didn'?t|did not|not|"
    r"wouldn'?t|would not)|"
    r"(?:you|we) (?:should ?n[o']t|must ?n[o']t|shouldn'?t|mustn'?t|can'?t|cannot|may not|"
    r"are not to|aren'?t to|don'?t need to|do not need to|never need to)) ")
# "you can't tell a rename from a drop", "so you can't see which test hung": what no one is
# able to know, never a prohibition.
_UNABLE_TO_KNOW = re.compile(r"^(?:you|we) (?:can'?t|cannot) (?:really |even |easily |always )?"
                             r"(?:tell|see|know|say|distinguish|notice|guess|predict|figure|work "
                             r"out|find out|reproduce)\b")
_TRAIL = re.compile(
    r"(?:[\s,;:—–-]+(?:please|pls|plz|thanks|thank you|thx|ty|ok\??|okay\??|if you can|"
    r"if possible|from now on|going forward|moving forward|from here on(?: out)?|"
    r"in (?:the )?future|for future reference|, got it\??|thanks in advance|cheers|"
    r"if that makes sense|kthx|ta|honestly|lol|haha|imo|imho|tbh|fwiw|for me|thx!?))+"
    r"[\s!.?]*$|[\s!?.,;:—–-]+$")
_TRAIL_CHANGE = re.compile(r"\b(?:from now on|from here on|henceforth)\b")
_TRAIL_STANDING = re.compile(r"\b(?:going forward|moving forward|from now on|from here on"
                             r"|in (?:the )?future|henceforth)\b")


_PAST_BASE = {"used": "use", "ran": "run", "kept": "keep", "wrote": "write", "stuck": "stick",
              "added": "add", "named": "name", "avoided": "avoid", "preferred": "prefer",
              "followed": "follow", "switched": "switch", "moved": "move", "stopped": "stop",
              "made": "make", "put": "put", "did": "do"}


def _past_to_base(c: _Clause) -> None:
    """"(I'd prefer if you) used httpx and didn't ..." -> "use httpx and don't ..."."""
    first = c.mask.split(None, 1)
    if first and first[0] in _PAST_BASE:
        c.cut(0, len(first[0]), _PAST_BASE[first[0]])
    later = re.search(r"\band (?:didn'?t|did not)\b", c.mask)
    if later:
        c.cut(later.start(), later.end(), "and don't")


def _strip_leads(c: _Clause) -> None:
    """Remove greetings, connectors, hedges and scope lead-ins, noting what they said."""
    for _ in range(8):
        m = c.mask
        for pattern, flag in ((_LEAD_SOFT, ""), (_LEAD_HARD, ""), (_LEAD_SCOPE, "standing"),
                              (_LEAD_CORRECTION, "correction"), (_LEAD_HEDGE, "hedge")):
            found = pattern.match(m)
            if found and found.end() > 0 and found.end() < len(m):
                said = found.group().strip(" ,:;.!—–-")
                if flag == "standing":
                    if said != "always":
                        c.standing = True
                    else:
                        continue
                    if re.match(r"(?:in|for) (?:every|each|all) (?!future\b)\w+$", said):
                        # what the rule covers, kept in its text
                        c.scope = c.raw[: len(said)]
                    if _TRAIL_CHANGE.search(said):
                        c.change = True
                elif flag == "correction":
                    c.correction = True
                    if said in ("instead", "actually"):
                        c.change = c.change or said == "instead"
                elif flag == "hedge":
                    if re.match(r"(?:could|can|would|will) you", said):
                        c.polite = True
                    if re.search(r"\bif (?:you|we)(?:'d| would| could)?$", said):
                        c.cut(0, found.end())
                        _past_to_base(c)
                        break
                    if re.match(r"(?:try|ideally|if|where|when|i think|i feel|i'?d say)", said):
                        c.hedged = True
                elif said.startswith(("change of plan", "update", "correction")):
                    c.change = True
                c.cut(0, found.end())
                break
            if pattern is _LEAD_HEDGE:
                neg = _LEAD_NEG_YOU.match(m)
                if neg and not _UNABLE_TO_KNOW.match(m):
                    c.cut(0, neg.end(), "don't ")
                    break
        else:
            break
    m = c.mask
    trail = _TRAIL.search(m)
    if trail and trail.start() > 0:
        tail = m[trail.start():]
        if _TRAIL_STANDING.search(tail):
            c.standing = True
        if _TRAIL_CHANGE.search(tail):
            c.change = True
        c.cut(trail.start(), len(c.raw))
    # inner scope phrases such as "..., going forward, ..." or "... from now on."
    m = c.mask
    inner = re.search(r",?\s*\b(?:from now on|going forward|moving forward|from here on(?: out)?)"
                      r"\b,?", m)
    if inner and inner.start() > 0:
        c.standing = True
        if "going" not in inner.group() and "moving" not in inner.group():
            c.change = True
        c.cut(inner.start(), inner.end(), " " if inner.end() < len(m) else "")


_PLEASANTRY = re.compile(
    r"^(?:(?:always|never) (?:happy|glad|a pleasure|fun|nice|good|great|a good idea to ask|"
    r"hurts to ask|mind)|never mind|nevermind|no (?:worries|problem|prob|probs|thanks|idea|rush|"
    r"pressure|clue|luck|way|biggie|offense|offence|need|big deal|sweat|doubt|kidding|"
    r"comment|comments|questions?|change|changes|difference|errors?|issues?|problems?|"
    r"worries|hurry)\b|thanks?\b|thank you|thx|cheers|you'?re (?:welcome|the best|a star)|"
    r"(?:hope|hopefully) (?:this|that|it) helps|let me know|good (?:morning|night|job|work|"
    r"catch|call|point|question)|well done|nice work|great work|looks good|sounds good|lgtm)")
_QUESTION_START = re.compile(
    r"^(?:should|shall|do|does|did|is|are|was|were|have|has|had|can|may|might|why|what|how|"
    r"which|who|whom|whose|where|isn'?t|aren'?t|don'?t we|doesn'?t|any idea|wdyt|"
    r"is there|are there|would it|could it|will it|what about|how about|any (?:thoughts|"
    r"reason|chance))\b")
_HYPOTHETICAL = re.compile(
    r"^(?:what if|suppose|supposing|imagine|in theory|hypothetically|theoretically|maybe|"
    r"perhaps|possibly|i wonder|i'?m wondering|wondering|not sure|i'?m not sure|i guess|"
    r"i was thinking|i'?m thinking|thinking about|considering|we could|we might|you could|"
    r"you might|it might|it could|could we|it would be (?:nice|cool|neat|interesting) to have|"
    r"one option|an option|an alternative|either way|in case|unless)\b|"
    r",\s*i (?:think|guess|suppose|believe)\b|\bif i were you\b|"
    r"\b(?:maybe|perhaps|not sure|i wonder|might be worth|could consider|at some point|"
    r"someday|some day|one day|eventually we)\b")
_REPORT = re.compile(
    r"\b(?:used to|kept|got|gets|getting|was|were|had|did|didn'?t|failed|fails|failing|"
    r"complains?|complained|broke|breaks|crashes|crashed|happened|happens|seems|seemed|"
    r"tried|keeps|forgot|forget|run into|ran into|end(?:ed)? up|worked|works|snuck|sneaked|"
    r"slipped|crept|showed up|turned up|popped up|made it into)\b")
_DEICTIC = re.compile(
    r"\b(?:this|these)\s+(?!(?:repo|repository|project|codebase|code ?base|team|"
    r"company|org|organi[sz]ation|monorepo|workspace|package|app|application|service|"
    r"library|lib|kind|sort|way|convention|rule|style|pattern|is|are|means)s?\b)[a-z]+|"
    r"\b(?:that|those)\s+(?:one|ones|file|files|function|functions|method|test|tests|line|"
    r"lines|thing|things|part|case|class|module|bug|change|changes|pr|branch|script|"
    r"snippet|approach|helper|component|endpoint|query|call|loop|block|error|issue)\b|"
    r"\b(?:right now|this time|for now in|just this|just once|for that|today|"
    r"for this(?!\s+(?:repo|repository|project|codebase|code ?base|team|monorepo|workspace|"
    r"package|crate|app|service|library)s?\b)|"
    r"tonight|at the moment|for the moment|this once|on line \d+|on this line|in here|"
    r"the (?:one|code|snippet|function|example|thing) (?:above|below)|above|"
    r"for (?:the|this) (?:rest of )?(?:the )?(?:session|task|pr|ticket|change|fix|bug))\b|"
    r"(?:^|\s)(?:it|them|that|this|those|these)\s*$")
_STANDING_WORDS = re.compile(
    r"\b(?:always|never|every|each|all|any|whenever|by default|in general|generally|"
    r"as a rule|everywhere|throughout|project-wide|repo-wide|codebase-wide|consistently|"
    r"across the (?:code ?base|repo|project|board)|anywhere|no matter|ever|"
    r"(?:in|for|to) (?:this|our|the) (?:repo|repository|project|codebase|code base|monorepo|"
    r"team)|(?<!the )(?<!this )(?<!that )(?<!my )(?<!your )new (?:code|files?|modules?|"
    r"functions?|tests?|components?|endpoints?|features?|"
    r"packages?|scripts?|classes?|prs?|commits?|branches|apis?|work|services?|projects?)|"
    r"our|we|us|convention|standard|by convention)\b")
_TRIGGER = re.compile(
    r"\b(?:before|after|when|whenever|prior to|every time|each time)\s+(?:you\s+|we\s+|"
    r"anyone\s+|someone\s+|a\s+|an\s+|any\s+|new\s+)?"
    r"(?:\w+ing|commit|push|merg|open|add|writ|creat|chang|touch|releas|deploy|tag|submit|"
    r"send|ship|introduc|bump|upgrad|install|edit|modif|renam|remov|delet|fix|refactor|"
    r"finish|start|need|want|make|run|publish|cut|land|pr\b|pull request|new|there|the)|"
    r"(?<!see )(?<!check )(?<!know )(?<!ask )\bif\s+(?:you|we|anyone|someone|a|an|any|"
    r"there(?:'s| is| are))\s")
_PLURAL_SCOPE = re.compile(
    r"\b(?:for|in|on|across|within|inside|to) (?:all |any |new |every |each |our )?"
    r"(?:[a-z0-9_./-]+ ){0,2}(?:tests|test files|code|files|modules|functions|classes|"
    r"components|endpoints|handlers|scripts|packages|services|apis|prs|commits|branches|"
    r"projects|libraries|docs|models|views|migrations|fixtures|helpers|utilities|utils|"
    r"types|interfaces|calls|requests|queries|errors|exceptions|logs|messages|strings|"
    r"names|variables|constants|imports|dependencies|deps|installs|builds|releases|"
    r"deployments|jobs|pipelines|workflows|repos|crates|routes|pages|templates|hooks|"
    r"lines|columns|python|typescript|javascript|go|rust|sql|everything|production|prod|"
    r"ci|config|configuration|settings|secrets)\b(?![.\w])")
_CONTRAST = re.compile(r"(?:,|;|—|–|\s-)\s*(?:but )?(?:not|never|no)\s+\S|\binstead of\b|"
                       r"\brather than\b|\binstead\b|\bover\s+\S|\bnot\s+`|\bnot\s+"
                       + r"(?=\S+\s*$)")


def _words(mask: str) -> list[str]:
    return re.findall(r"`x+`|[a-z0-9_][a-z0-9_.+/@:'*-]*[a-z0-9_/*+]|[a-z0-9]", mask)


def _is_plural(word: str) -> bool:
    return (len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
            and word not in _NOT_PLURAL and word.isalpha())


def _tool_mentions(raw: str) -> list[tuple[int, str]]:
    """(position, tool) of every tool named in ``raw``, in order; words that are also English
    ("make", "just", "requests") count only inside code or right after a tool-taking word."""
    out: list[tuple[int, str]] = []
    spans = [(m.start(), m.end()) for m in _CODE.finditer(raw)]
    for m in _TOOL_RE.finditer(raw):
        tool = m.group(1).lower()
        if tool in _AMBIGUOUS_TOOLS:
            in_code = any(a < m.start() < b for a, b in spans)
            before = raw[: m.start()].rstrip(" `\"'(").lower().rsplit(None, 1)
            prev = before[-1].strip(",;:") if before else ""
            after = raw[m.end(): m.end() + 12].lower()
            ok = in_code or prev in _TOOL_TAKERS or (
                m.group(1)[0].isupper() and m.start() > 0 and tool not in (
                    "just", "make", "task", "got", "expect", "assert", "echo", "flow"))
            if tool in ("just", "make", "task", "got", "expect", "echo", "flow") and not in_code:
                ok = prev in ("use", "using", "with", "via", "prefer", "to", "over", "than",
                              "of", "not", "plain") and not after.startswith((" sure", " it",
                                                                              " the", " a "))
            if tool == "fetch" and not in_code:
                ok = ok or bool(re.match(r"\s*(?:api|\(\))", after))
            if re.match(r"\s+(?:module|library|lib|package|crate)\b", after) or prev in (
                    "standard", "stdlib", "python's", "builtin", "built-in", "native"):
                ok = True
            if not ok:
                continue
        out.append((m.start(), tool))
    return out


def names_something_technical(text: str) -> bool:
    """Whether ``text`` names something of the craft: code, a path or dotted name, an
    identifier, an acronym, or a word such as tests, commits, endpoints or migrations (a bare
    number does not count: "214 screws" is not work)."""
    return _NAMES_TECH.search(text) is not None


def tool_mentions(text: str) -> list[str]:
    """The tools ``text`` names, each once, in order (English words that are also tool names
    count only where the text uses them as tools)."""
    return list(dict.fromkeys(tool for _, tool in _tool_mentions(text)))


def _style_mentions(raw: str) -> list[str]:
    return [m.group(1).lower() for m in _STYLE_RE.finditer(raw)]


# ---------------------------------------------------------------------------------------------
# Frames: the sentence shapes that state a rule


@dataclass
class _Hit:
    """A sentence shape that matched: the rule's raw text, its kind and confidence."""

    body: str  # raw text of the rule before tidying
    kind: Literal["convention", "decision"]
    confidence: float


_WE_ADVERBS = (r"(?:(?:all|generally|usually|typically|normally|always|never|only|mostly|"
               r"really|strongly|also|now|just|consistently|prefer to|like to|tend to|try to|"
               r"don'?t|do not|no longer|won'?t|will not|will|'ll|shall|should|must|"
               r"should always|must always|should never|must never|need to|have to|want to|"
               r"are going to|'re going to|have|'ve|'d rather|would rather|'d prefer to|"
               r"would prefer to|still|already|officially|not)\s+)*")
_VAGUE_OBJECT = re.compile(r"(?:common sense|(?:your|good|best|own) (?:best )?judg(?:e)?ment|"
                           r"caution|discretion|your head|your brain|your imagination)\b")
_WE_FRAME = re.compile(r"^(?:we|we'?re|we'?ve|we'?ll|we'?d|i|i'?ve|i'?ll|i'?d|the team|"
                       r"everyone|everybody|our team)\s+" + _WE_ADVERBS
                       + r"(?P<verb>[a-z][a-z'-]*)\b")
_DECIDED = re.compile(r"^(?:we|i|the team)(?:'ve| have)?\s+(?:all\s+)?(?:finally\s+)?"
                      r"(?:decided|agreed|settled|chose|opted)\s+(?:to\s+|on\s+|that\s+|"
                      r"we'?ll\s+|we\s+will\s+|for\s+)?")
_POLICY = re.compile(
    r"^(?:(?:our|the|my|team|house|project|repo|one|a|general)\s+)?(?:\w+\s+)?"
    r"(?:convention|conventions|rule|rules|policy|standard|style|preference|practice|"
    r"guideline|approach|default|decision|plan|rule of thumb|norm|expectation|way we do it)"
    r"(?:\s+(?:here|in this (?:repo|project|codebase)|for (?:this|the) (?:repo|project)|"
    r"for [a-z ]{2,30}?))?\s*(?:is|are|:|=|—|-)\s*(?:that\s+|to\s+)?(?P<rest>.+)$")
_LETS = re.compile(r"^(?:let'?s|lets|let us)\s+(?P<neg>not\s+|never\s+)?(?:(?:finally|just|now|"
                   r"also|officially|simply|actually|definitely)\s+)?(?P<rest>.+)$")
_NO_NP = re.compile(r"^(?:no more|no|zero|nothing but)\s+(?P<rest>.+)$")
_MODAL_SUBJ = re.compile(
    r"^(?P<subj>(?:(?:all|every|each|any|no|new|our|the|public|private|internal|"
    r"[a-z0-9_`x./*-]+)\s+){0,4}?[a-z0-9_`x./*-]+)\s+(?P<modal>should|must|shall|"
    r"need to|needs to|needs|need|have to|has to|are to|is to|ought to|require|requires|"
    r"(?:should|must|shall|need to|needs to|have to|has to) (?:always|never|not|only|all)|"
    r"(?:always|never|only)|are not to|mustn'?t|shouldn'?t|get|gets|go|goes|live|lives|"
    r"belong|belongs|stay|stays|can no longer|may not|cannot|can'?t|won'?t|will|follow|follows|"
    r"(?:start|starts|begin|begins|end|ends) with|"
    r"no longer (?:need|needs|require|requires|have to|has to)|(?:don'?t|do not|doesn'?t|"
    r"does not) (?:need|have) to|"
    r"use|uses|(?:are|is) (?:not |never |always |only )?(?:allowed|required|mandatory|forbidden|"
    r"banned|preferred|encouraged|discouraged|disallowed|optional|expected|welcome|fine|ok|"
    r"okay|off-limits|a no-go|not ok|not okay|not fine|not welcome))\b\s*(?P<rest>.*)$")
_SETTING = re.compile(
    r"^(?:the\s+|our\s+)?(?:max(?:imum)?\s+|min(?:imum)?\s+|default\s+|target\s+)?"
    r"(?P<subj>line[- ]length|line width|column limit|indent(?:ation)?(?: width| size)?|"
    r"tab (?:width|size)|python version|node version|go version|rust version|msrv|"
    r"coverage(?: threshold| target| minimum)?|test timeout|timeout|commit message format|"
    r"branch naming|branch name format|naming convention|code style|quote style|"
    r"min(?:imum)? supported \w+|supported \w+ versions?|python target|node target)"
    r"\s*(?:is|=|:|should be|must be|will be|of|stays at|at)\s+(?P<value>.+)$")
_VERSION_DECISION = re.compile(
    r"^(?:(?:the\s+)?(?:v?\d+(?:\.\d+){0,2}(?:\.x)?|next (?:major|minor|release|version)|"
    r"the next (?:major|minor|release|version)|the release|this release|our next release|"
    r"the (?:\d+\.\d+|major) release|[a-z][\w-]*\s+v?\d+(?:\.\d+)*))\s+"
    r"(?:goes|will go|is going|will be|is|ships|will ship|drops|will drop|requires|"
    r"will require|targets|supports only|removes|deprecates|switches|moves)\s+(?P<rest>.+)$")
_DEPRECATED = re.compile(r"^(?P<old>.{1,60}?)\s+(?:is|are)\s+(?:now\s+)?deprecated\b")
_ASSISTANT = re.compile(
    r"^(?:so[:,]?\s+)?(?:for (?:the\s+)?[a-z]+(?:\s+[a-z]+)?,\s+)?"
    r"(?P<alt>(?:rather than|instead of)\s+[^,]{2,60},\s*)?"
    r"(?:i'?ll|i will|i'?m going to|i am going to|we'?ll|we will|let'?s|"
    r"i'?d go with|i'?d use|i'?d (?=(?:revert|switch|move|go back|replace|drop|rip out|pin|"
    r"remove)\b)|i'?d rather (?=not\b)|so:\s*(?=(?:remove|drop|rip out|ditch|revert|replace|"
    r"switch|move|use)\b)|"
    r"i'?d (?:suggest|recommend|propose)(?: we| that we)?|i (?:suggest|recommend|propose)"
    r"(?: we| that we)?|going with|i'?ve decided to|i decided to|decision:|the plan is to|"
    r"the fix is to|my plan is to|plan:)\s*(?P<rest>.+)$")


def _base(verb: str) -> str:
    """The base form of an -ing or -ed verb when the lexicon knows it ("rebasing" ->
    "rebase", "stopping" -> "stop", "used" -> "use"); the word itself otherwise."""
    if verb in _ING_BASE:
        return _ING_BASE[verb]
    for suffix in ("ing", "ed"):
        if verb.endswith(suffix) and len(verb) > len(suffix) + 2:
            stem = verb[: -len(suffix)]
            for cand in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2]
                         else stem):
                if cand in _VERBS or cand in _ING_BASE.values():
                    return cand
    return verb


def _object_words(mask: str, start: int) -> list[str]:
    return _words(mask[start:])[:6]


def _bare_object(words: list[str]) -> bool:
    """A generic object: no determiner, not a pronoun ("type hints", "pnpm", "`ruff`")."""
    if not words:
        return False
    first = words[0]
    if first in _DETERMINERS or first in _PRONOUNS:
        return False
    return not first.isdigit() or len(words) > 1


def _rule_object(mask: str, start: int, verb: str, raw: str = "") -> bool:
    """Whether what follows the verb makes the imperative a standing rule by itself."""
    words = _object_words(mask, start)
    if _VAGUE_OBJECT.match(" ".join(words)):
        return False
    if verb in ("use", "follow", "prefer", "stick") and re.match(
            r"(?:to |with )?the (?!other\b|same\b|first\b|second\b|old\b|new\b)(?:[\w-]+ ){1,2}"
            r"(?:pattern|convention|style|format|layout|approach|naming scheme|structure)\b",
            mask[start:].strip()):
        return True
    if raw and verb in ("use", "prefer", "stick") and any(
            start <= pos <= start + 24 for pos, _ in _tool_mentions(raw)):
        purpose = re.search(r"\bto\s+(?:\w+)\s+(?P<obj>\S+)", mask[start:])
        return not purpose or _is_plural(purpose.group("obj")) or purpose.group("obj") in (
            "deps", "everything", "anything", "stuff", "code", "dependencies")
    if not words:
        return False
    if words[0] in ("to", "with", "on", "for", "by", "in") and len(words) > 1:
        words = words[1:]
    if verb in ("prefer", "avoid", "favor", "favour", "stick", "respect", "honor", "honour"):
        return words[0] not in _PRONOUNS and words[0] not in _DETERMINERS
    return verb in _CONV_VERBS and _bare_object(words)


def _decision_like(mask: str, raw: str) -> bool:
    """Whether a clause names a project choice: a tool, an architecture noun or a version."""
    words = set(_words(mask))
    return bool(words & _ARCH_NOUNS) or bool(_tool_mentions(raw)) or bool(
        re.search(r"\bv?\d+(?:\.\d+)+\b|\b(?:python|node|go|rust|java) ?\d", mask))


# A verb in the third person or the past right after a sentence's first word: that word is a
# noun, the subject, and the sentence a report ("support wants ...", "test fails ...").
_FINITE_NEXT = re.compile(r"\s+(?:wants|wanted|says|said|got|gets|is|are|was|were|has|had|keeps|"
                          r"kept|needs|needed|asked|asks|reported|reports|complained|complains|"
                          r"told|tells|sent|sends|thinks|thought|noticed|found|called|wrote|"
                          r"mentioned|pinged|filed|opened|broke|breaks|fails|failed)\b")


def _imperative(c: _Clause, header: str | None) -> _Hit | None:
    """An imperative sentence: kept when something says it stands (always, scope, a trigger,
    a generic object, a contrast with another tool), dropped as a one-off request otherwise."""
    m = c.mask
    lead = re.match(r"^(?:(?P<adv>always|never|never ever|don'?t ever|do not ever|only|"
                    r"consistently|generally|usually)\s+)?(?P<neg>(?:don'?t|do not|dont|"
                    r"please don'?t|stop|avoid|no longer|never)\s+)?(?:(?:always|ever|"
                    r"also|just|only)\s+)?(?P<verb>[a-z][a-z'-]*)\b", m)
    if not lead:
        return None
    verb = lead.group("verb")
    adv = lead.group("adv") or ""
    neg = (lead.group("neg") or "").strip()
    start = lead.end("verb")
    if not adv and not neg and _FINITE_NEXT.match(m[start:]):
        return None  # "support wants to see refunds": "support" is who, not what to do
    if neg in ("stop",) and not verb.endswith("ing"):
        return None
    if verb in ("prefix", "suffix") and not re.search(r"\bwith\b", m[start:]):
        return None  # "prefix match, so --target app::http also catches ...": a noun
    if neg in ("avoid", "stop") and verb.endswith("ing"):
        verb = _base(verb)
    if verb == "make" and m[start:].startswith(" sure"):
        start += 5
        rest = m[start:].strip()
        verb = "make sure"
        if not rest:
            return None
    if verb == "get" and m[start:].startswith(" rid of"):
        verb = "get rid"
        start += 7
    decision_verb = re.match(_DECISION_VERB + r"\b", verb) is not None
    deictic_now = bool(_DEICTIC.search(m))
    if decision_verb and not neg and not deictic_now:
        hit = _decision_imperative(c, verb, start)
        if hit is not None:
            return hit
    ever = bool(adv in ("always", "never", "never ever", "don't ever", "do not ever")
                or neg == "never" or re.match(r"(?:please\s+)?(?:don'?t|do not)\s+ever\b", m))
    if verb not in _VERBS and verb != "make sure":
        if neg == "avoid" and verb not in _PRONOUNS:
            return _Hit(c.raw, "convention", 0.65) if not _DEICTIC.search(m) else None
        # a verb the lexicon lacks, made a rule by "always" or "don't ever" and read as a verb
        # by the particle after it ("don't ever paper over warnings with an ignore")
        if not (ever and verb not in _PRONOUNS and re.match(
                r"\s+(?:over|up|out|around|away|with|into|onto|on|off)\b", m[start:])):
            return None
    strong = ever
    standing = strong or c.standing or header is not None
    scope = bool(_STANDING_WORDS.search(_without_relative(m)) or (
        verb in _CONV_VERBS and _PLURAL_SCOPE.search(m)
        and _bare_object(_object_words(m, start))))
    if verb in _REFACTOR_VERBS and not re.search(
            r"\b(?:whenever|by default|in general|as a rule|every time|each time|we|our|us|"
            r"(?:for|to|on|in|per|after|before|with) (?:every|each|all|any)|"
            r"(?<!the )(?<!this )(?<!that )(?<!my )new \w+s?)\b", m):
        scope = False
    trigger = c.trigger or bool(_TRIGGER.search(m))
    contrast = bool(_CONTRAST.search(m)) and bool(_tool_mentions(c.raw) or "`" in c.raw
                                                  or _style_mentions(c.raw))
    deictic = bool(_DEICTIC.search(m)) and not trigger
    if re.search(r"\bhere\s*$|\bhere\b(?!\s+(?:is|are))", m) and not (
            strong or re.search(r"\b(?:we|our|us)\b", m)):
        deictic = True
    if not (strong or c.standing or header is not None or trigger) and (
            re.search(r"\b(?:and then|then|and tell me|and let me know|and show me|after that|"
                      r"first and)\b|\b(?:it|them)\b(?!')|\b(?:those|these)\b(?=\s*(?:$|[,.;!?]|"
                      r"\s(?:instead|too|as well|for|with|from|in|on|and|or)\b))", m)
            or _ONE_OFF.search(m)):
        deictic = True
    if deictic and not (strong and not re.search(r"\b(?:this time|right now|for now|just this|"
                                                  r"this once|for this one|today)\b", m)):
        return None
    if re.search(r"\bhere\b", m) and re.match(r"\s+(?:a|an|the|one|this|that)\s", m[start:]) \
            and not re.search(r"\b(?:we|our|us)\b", m):
        return None
    if _LOCAL_TARGET.search(m) and not (strong or c.standing or header is not None or trigger):
        return None
    conf = 0.0
    if strong:
        conf = 0.8
    elif c.standing or header is not None:
        conf = 0.75
    elif neg in ("don't", "dont", "do not", "please don't"):
        conf = 0.65 if (_bare_object(_object_words(m, start)) or scope or trigger
                        or _PLURAL_SCOPE.search(m)) else 0.0
    elif neg in ("avoid", "stop", "no longer"):
        conf = 0.65
    elif trigger and (scope or verb in _VERBS):
        conf = 0.7
    elif scope:
        conf = 0.7 if verb in _CONV_VERBS or trigger else 0.65
    elif contrast or (c.correction and (_tool_mentions(c.raw) or "`" in c.raw)):
        conf = 0.7
    elif _rule_object(m, start, verb, c.raw):
        conf = 0.65 if verb in ("prefer", "avoid", "favor", "favour", "stick") else 0.6
    elif verb == "make sure" and _GENERIC_CLAUSE.match(m[start:]):
        conf = 0.65  # "make sure errors in commands raise ClickException": every such thing
    elif verb == "keep" and re.match(
            r"\s+(?:the\s+|our\s+|all\s+)?(?!(?:pr|diff|change|commit|function|file|patch|fix|"
            r"message|response|answer|summary|output|reply|explanation|test|branch)\b)"
            r"(?:[a-z0-9_`x.-]+\s+){1,5}(?:small|short|simple|minimal|stable|consistent|"
            r"backwards?[- ]compatible|clean|focused|flat|lean|tidy|sorted|alphabetical|"
            r"up to date|in sync|green|private|immutable|pure|deterministic|fast|separate|"
            r"under \d+|below \d+|at \d+)\b", m[start:]):
        conf = 0.6
    elif verb in ("run", "lint", "format", "test", "build", "check", "typecheck") and \
            _bare_object(_object_words(m, start)) and re.search(
                r"\b(?:with|using|via|through)\s+(?:`|\S+\s*$)|\bin\s+\w+\s+mode\b|"
                r"\b(?:in|on) (?:ci|pre-commit|the pipeline)\b", m) and (
                _tool_mentions(c.raw) or "`" in c.raw):
        conf = 0.6
        contrast = True
    if conf == 0.0:
        return None
    if verb in _TASK_VERBS and verb not in _CONV_VERBS and not (
            strong or standing or trigger or scope or contrast or neg):
        return None
    if c.polite and not (strong or standing or trigger or scope):
        return None
    kind: Literal["convention", "decision"] = "convention"
    if verb in ("pin", "vendor", "target", "support", "require", "drop") and _decision_like(
            m, c.raw):
        kind = "decision"
    if verb in ("use", "prefer") and _decision_family(c.raw):
        kind = "decision"
    return _Hit(c.raw, kind, conf)


# "errors in commands raise ...", "new endpoints have ...": a bare plural subject (no article,
# so every one of them) and a verb in the present.
_GENERIC_CLAUSE = re.compile(
    r"\s+(?!(?:the|this|that|these|those|it|you|we|i|they|my|your)\b)(?:[a-z_]+\s+){0,2}?"
    r"[a-z_]+s\s+(?:(?:in|of|from|for|on)\s+(?:[a-z_]+\s+){0,1}?[a-z_]+\s+)?"
    r"(?:always\s+)?(?:raise|return|use|have|go|get|carry|include|log|call|follow|start|end|"
    r"stay|are|do|don'?t|never|only)\b")


_REFACTOR_VERBS = frozenset({"rename", "remove", "delete", "update", "fix", "convert", "refactor",
                             "change", "clean", "rewrite", "regenerate", "move", "edit",
                             "modify", "add", "bump", "upgrade", "downgrade", "install"})
# "in the parser module", "for the date parser": a request about one place in the code.
# (one thing: "in the fetch function", "in this file"; "in the shell scripts" is every one of
# them, a scope)
_LOCAL_TARGET = re.compile(
    r"\b(?:in|for|to|on|inside|from|into) (?:(?:this|that|my) (?:[\w./-]+ ){0,2}"
    r"(?:function|method|class|module|file|component|endpoint|handler|script|test|service|"
    r"page|view|model|job|query|route|hook|helper|loop|block|parser|client|form|button|"
    r"screen|dialog|migration|table|schema|controller|worker|cli|readme|pr|branch)s?|the "
    r"(?:[\w./-]+ ){0,2}(?:function|method|class|module|file|component|endpoint|handler|script|"
    r"test|service|page|view|model|job|query|route|hook|helper|loop|block|parser|client|form|"
    r"button|screen|dialog|migration|table|schema|controller|worker|cli|readme|pr|branch))\b"
    r"(?=\s*(?:$|[,.;:!?)]|\b(?:and|to|so|that|which|instead|rather|with|in|on|for|because|"
    r"first|now)\b))")


def _without_relative(mask: str) -> str:
    """The sentence without its relative and purpose clauses ("... a flag that prints each
    step", "commit what we have", "... so we know it still works"), whose quantifiers and
    pronouns do not make the rule stand."""
    mask = re.sub(r"\b(?:what|so|so that)\s+(?:we|you|i|they)\s+\w+\b.*$", "", mask)
    # a clause with no "that" after the thing it describes: "as a dependency we can reuse"
    mask = re.sub(r"\b(?:a|an|some|one)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:we|you|they)\s+"
                  r"(?:can|could|will|'ll|might|may|would|want to|need to)\b.*$", "", mask)
    return re.sub(r"\b(?:that|which|who)\s+\w+s\b.*$", "", mask)


_DECISION_FAMILIES = frozenset({"database", "orm", "web framework", "ui framework",
                                "module system", "ci", "containers", "bundler"})


def _decision_family(raw: str) -> bool:
    """Whether the tools a sentence names are architecture choices (a database, a web
    framework) rather than everyday tooling."""
    return any(set(_ALL_TOOLS[t]) & _DECISION_FAMILIES for _, t in _tool_mentions(raw))


def _decision_imperative(c: _Clause, verb: str, start: int) -> _Hit | None:
    """"pin pydantic below 2", "move to vitest", "rip out the cache; use ETags instead"."""
    m = c.mask
    rest = m[start:].strip()
    verb = _ING_BASE.get(verb, verb)
    if verb in ("move", "switch", "migrate") or verb.startswith("switch"):
        target = re.match(r"(?:(?:everything|us|over|back|the \w+|all \w+)\s+)?(?:to|from|off|"
                          r"away from|onto|over to)\s+(?P<obj>.+)", rest)
        if not target:
            return None
        obj = target.group("obj")
        if re.match(r"(?:the\s+)?(?:other|next|previous|main|master|new|that|this|a|your)?\s*"
                    r"(?:branch|tab|file|folder|directory|window|terminal|step|line|page|"
                    r"section|task|one|worktree|shell|pane|repo)\b", obj):
            return None
        if not (_decision_like(obj, c.raw) or _is_plural(obj.split()[0] if obj.split() else "")
                or re.match(r"`x+`|[a-z0-9]+-(?:based|only|first|driven)\b", obj)
                or (re.search(r"\b(?:development|workflow|process|strategy|model|layout|"
                              r"structure|format|setup|stack|pipeline)\b",
                              " ".join(obj.split()[:3]))
                    and not re.match(r"(?:the\s+)?(?:other|next|previous|first|second|old)\b",
                                     obj))):
            return None
        return _Hit(c.raw, "decision", 0.75)
    if verb == "go":
        if re.match(r"\S+-only\b", rest):
            return _Hit(c.raw, "decision", 0.75)
        if not re.match(r"with\s+\S", rest) or re.match(
                r"with\s+(?:option|plan|approach|idea|suggestion|yours|your|that|this|it|"
                r"the (?:first|second|third|last|other|former|latter))\b", rest):
            return None
        return _Hit(c.raw, "decision", 0.7) if _decision_like(rest, c.raw) or re.match(
            r"with\s+`", rest) else None
    if verb == "pin":
        if re.search(r"\b(?:below|under|to|at|<|<=|==|~=|\^|>=|version|v?\d)", rest):
            return _Hit(c.raw, "decision", 0.75)
        return None
    if verb in ("drop", "sunset", "deprecate", "freeze"):
        if re.match(r"(?:support for|support of|the \w+ (?:backend|support|dependency)|python|"
                    r"node|py|v?\d|ie|windows|legacy|the (?:v\d+|old|legacy)\b)", rest) \
                or _tool_mentions(c.raw) \
                or re.search(r"\b(?:in|by|after|until|with)\s+v?\d+\.\d+\b", rest):
            # "deprecate the v1 endpoints in 3.2 and remove them in 4.0": on a schedule
            return _Hit(c.raw, "decision", 0.75)
        return None
    if verb in ("rip", "ditch", "get rid"):
        if verb == "rip" and not rest.startswith("out"):
            return None
        if re.search(r"\binstead\b|;\s*use\b", m) or _decision_like(rest, c.raw):
            return _Hit(c.raw, "decision", 0.75)
        return None
    if verb == "replace":
        w = re.match(r"(?P<old>.+?)\s+with\s+(?P<new>.+)", rest)
        if w and (_tool_mentions(c.raw) or _decision_like(w.group("old"), c.raw)
                  or _is_plural(w.group("old").split()[-1])) and not _DEICTIC.search(m):
            return _Hit(c.raw, "decision", 0.7)
        return None
    if verb in ("raise", "lower", "bump", "increase", "reduce"):
        # a setting moved to a new value ("raise the size budget to 2.5 kB"): what holds now
        return _Hit(c.raw, "decision", 0.7) if _SETTING_MOVED.match(f"{verb} {rest}") else None
    if verb in ("adopt", "standardize", "standardise", "unpin"):
        rest = re.sub(r"^on\s+", "", rest)
        if rest and rest.split()[0] not in _PRONOUNS:
            return _Hit(c.raw, "decision", 0.7)
    return None


_REPORT_TAIL = re.compile(r"(?:,\s*|\s)(?:but|which|though|although|and it|and they)\s+(?:it|they|"
                          r"that|is|was|were|has|have|'s|keeps?|seems?|never|always)\b|"
                          r"\b(?:lately|recently|last (?:week|month|year|time)|yesterday|"
                          r"earlier|so far)\b")


def _we_frame(c: _Clause) -> _Hit | None:
    """"we use pnpm", "we always squash merge", "we're moving to vitest", "I prefer tabs"."""
    m = c.mask
    decided = _DECIDED.match(m)
    if decided:
        rest = c.raw[decided.end():].strip()
        rest_mask = m[decided.end():].strip()
        first = rest_mask.split()[0] if rest_mask.split() else ""
        if not rest or _DEICTIC.search(rest_mask) or _ONE_OFF.search(rest_mask):
            return None
        if not (_base(first) in _VERBS or re.match(_DECISION_VERB + r"\b", first)
                or _decision_like(rest_mask, rest)):
            return None
        if first in ("go", "get", "do", "be", "have", "try", "wait", "let", "look", "start",
                     "end", "stop", "leave", "keep") and not _decision_like(rest_mask, rest):
            return None
        return _Hit(rest, "decision", 0.75)
    wish = re.match(r"^(?:i|we)(?:'d| would)?\s+(?:really\s+)?(?:like|want|prefer|need|expect)\s+"
                    r"(?P<np>(?:all|every|each|any|new|our|no)\s+[^,;]{1,40}?|"
                    r"(?:[a-z_`x-]+\s+){0,2}[a-z_`x-]+s)\s+"
                    r"to\s+(?:always\s+|never\s+)?(?:be|go|use|live|follow|stay|have|start|end|"
                    r"come|run|get|return|raise|include)\b", m)
    if wish and not _DEICTIC.search(m) and wish.group("np").split()[0] not in _DETERMINERS:
        return _Hit(c.raw, "convention", 0.7)
    f = _WE_FRAME.match(m)
    if not f or _REPORT_TAIL.search(m):
        return None
    subj = m.split()[0]
    verb = f.group("verb")
    between = m[len(m.split()[0]): f.start("verb")]
    if re.search(r"\b(?:could|might|would|may|used)\b", between) or re.match(
            r"\s*(?:'d|would)\s+(?!rather|prefer)", between):
        return None
    if subj.endswith("'d") and not re.match(r"\s*(?:rather|prefer|like|love)\b",
                                            between + verb):
        return None  # "we'd put it out as 1.0.0-beta.1 first": what would be done, once
    if subj.startswith("i") and re.search(r"\b(?:for|with|to|on|in)\s+(?:them|it|those|these)\s*$",
                                          m):
        return None  # "I never start redis for them": a habit about the things just named
    if subj in ("i", "i'd", "i'll", "i've") and verb not in ("prefer", "like") and not re.search(
            r"\b(?:always|never|prefer|like to|don'?t|do not|no longer|rather|only|want|"
            r"'d prefer|would prefer)\b", between + " " + verb):
        return None
    if re.search(r"\bneed to\b|\bhave to\b|\bwant to\b", between) and not (
            c.standing or re.search(r"\b(?:always|never)\b", between)
            or _STANDING_WORDS.search(m[f.end():]) or _TRIGGER.search(m)):
        return None
    base = _base(verb)
    if verb.endswith("ing") and base == verb:
        return None
    if verb.endswith("ed") and base != verb and not re.search(r"(?:'ve|have|'re|are)\s*$",
                                                             m[: f.start("verb")]) and not (
            re.match(_DECISION_VERB + r"\b", base) and base != "go"):
        return None
    if re.search(r"\b(?:don'?t|do not|not)\s+always\b", between):
        return None
    if base in ("end", "get", "hit", "have", "see", "forget", "seem", "need", "run") and re.match(
            r"\s+(?:up|into|stuck|lost|confused|trouble|problems?|issues?|errors?|conflicts?)\b",
            m[f.end("verb"):]):
        return None
    if base in ("end", "get", "hit", "see", "forget", "seem", "stay", "look", "bring", "let",
                "wait", "try", "show", "tell", "ask", "note", "record"):
        return None
    if subj.startswith("i") and re.match(r"\s+(?:the|a|an|my|this|that)\s+(?!`)",
                                         m[f.end("verb"):]):
        return None
    if base in ("prefer", "like") and subj.startswith("i"):
        base = "prefer"
    neg = bool(re.search(r"\b(?:don'?t|do not|never|no longer|won'?t|will not|not)\b", between))
    tail = c.raw[f.end("verb"):]
    rest_mask = m[f.end("verb"):]
    if _DEICTIC.search(rest_mask) and not re.search(r"\b(?:always|never)\b", between):
        return None
    going = re.search(r"(?:'re|are) going to|'ll|will|shall", between) is not None or bool(
        re.match(r"(?:we'?ll|i'?ll)\b", m))
    is_decision_verb = re.match(_DECISION_VERB + r"\b", verb) is not None
    if is_decision_verb or base in ("move", "switch", "migrate", "adopt", "drop", "replace",
                                    "standardize", "standardise", "deprecate", "ditch", "pin"):
        hit = _decision_imperative(_Clause(base + tail), base, len(base))
        if hit is None:
            return None
        body = _adverbs(between, neg) + base + tail
        return _Hit(body, "decision", 0.75 if not c.hedged else 0.65)
    if base == "do" and _PRACTICE.match(rest_mask) and not neg:
        return _Hit(_adverbs(between, neg) + base + tail, "convention", 0.7)
    if base not in _VERBS and base not in ("prefer", "like"):
        return None
    if base in ("like", "love"):
        if not re.match(r"\s+(?:to\s+)?\S", rest_mask):
            return None
        base = "prefer"
    if base in _TASK_VERBS and base not in _CONV_VERBS and not (
            re.search(r"\b(?:always|never|only|generally|usually|typically|normally|"
                      r"consistently)\b", between) or re.match(r"\s+only\b", rest_mask)
            or _TRIGGER.search(m) or _PLURAL_SCOPE.search(rest_mask) or c.standing
            or _STANDING_WORDS.search(rest_mask)):
        return None
    if base in ("use", "prefer") and re.match(r"\s+(?:a|an|the|one)\s+(?!`)", rest_mask) and \
            not _tool_mentions(c.raw) and not re.search(r"\b(?:always|never)\b", between):
        return None
    if re.search(r"\s(?:to|in order to|so that|so we|because|since)\s", rest_mask) and base == \
            "use" and not (_tool_mentions(c.raw) or re.search(r"\b(?:always|never)\b", between)
                           or _bare_object(_words(rest_mask)[:3])):
        return None
    if _REPORT.search(" " + verb + " "):
        return None
    body = _adverbs(between, neg) + base + tail
    kind: Literal["convention", "decision"] = "convention"
    conf = 0.75
    if base in ("target", "support", "require", "vendor", "pin") and _decision_like(
            rest_mask, tail):
        kind = "decision"
    if going or (base in ("use", "go") and subj.startswith("we") and _decision_like(
            rest_mask, tail) and bool(set(_words(rest_mask)) & _ARCH_NOUNS)) or (
            base in ("use", "prefer") and _decision_family(tail)):
        kind = "decision"
    if going and not (_decision_like(rest_mask, tail) or re.search(r"\balways|never\b",
                                                                      between)):
        return None
    if c.hedged:
        conf -= 0.1
    return _Hit(body, kind, conf)


# "we do conventional commits": a way of working the team keeps.
_PRACTICE = re.compile(r"\s+(?:[a-z-]+\s+){0,2}?(?:commits|code reviews?|reviews|squash merges?|"
                       r"rebases|trunk-based development|tdd|pair programming|pairing|semver|"
                       r"semantic versioning|feature flags|release notes|changelogs?|"
                       r"migrations|snapshots|retros|standups)\b")


def _adverbs(between: str, neg: bool) -> str:
    """The frequency and negation words of "we always / we don't" that the imperative keeps."""
    words = between.split()
    keep = [w for w in words if w in ("always", "never", "only", "also")]
    if "no" in words and "longer" in words:
        return "no longer "
    if neg and "never" not in keep:
        return "don't " + " ".join(k for k in keep if k != "never") + (" " if keep else "")
    return " ".join(keep) + (" " if keep else "")


def _policy_frame(c: _Clause) -> _Hit | None:
    """"our convention is X", "the rule here is: X", "house style: X", "decision: X"."""
    m = c.mask
    p = _POLICY.match(m)
    if not p:
        return None
    head = m[: p.start("rest")]
    if re.match(r"^(?:the|a|one)\s+(?:plan|decision|approach|default)\b", head) and re.search(
            r"\b(?:for (?:this|that|the)|here\b(?!\s*(?:is|:)))", head):
        return None
    if re.search(r"\b(?:my|your)\s+(?:plan|approach)\b", head):
        return None
    rest = c.raw[p.start("rest"):].strip()
    rest_mask = m[p.start("rest"):]
    if not rest or _QUESTION_START.match(rest_mask) or rest_mask.startswith(("unclear",
                                                                            "tbd", "not ")):
        return None
    if _DEICTIC.search(rest_mask) or _ONE_OFF.search(rest_mask):
        return None
    if re.match(r"(?:is\s+)?(?:to\s+)?(?:we\s+|you\s+)", rest_mask):
        rest = re.sub(r"^(?:we|you)\s+", "", rest, flags=re.I)
    decision = bool(re.search(r"\b(?:decision|plan)\b", head))
    if not decision and not re.search(r"\b(?:convention|rule|policy|standard|style|"
                                      r"guideline|norm|rule of thumb|practice|preference|"
                                      r"expectation|way we do it|default)\b", head):
        return None
    if len(_words(rest_mask)) < 2 and not ("`" in rest_mask or _tool_mentions(rest)):
        return None
    if re.match(r"(?:a mess|messy|bad|broken|weird|unclear|outdated|fine|ok|okay|good|great|"
                r"nice|confusing|inconsistent|unknown|different|simple|complicated|"
                r"not clear|wrong|here|there|below|above|as follows)\b", rest_mask):
        return None
    return _Hit(rest, "decision" if decision else "convention", 0.8)


def _lets_frame(c: _Clause) -> _Hit | None:
    """"let's stick to X", "let's move to vitest", "let's not mock the database"."""
    m = c.mask
    lt = _LETS.match(m)
    if not lt:
        return None
    rest = c.raw[lt.start("rest"):]
    rest_mask = m[lt.start("rest"):]
    words = rest_mask.split()
    if not words:
        return None
    verb = words[0]
    if _DEICTIC.search(rest_mask) and not re.search(r"\b(?:always|never)\b", rest_mask):
        return None
    if re.match(_DECISION_VERB + r"\b", verb) and not lt.group("neg"):
        hit = _decision_imperative(_Clause(rest), _ING_BASE.get(verb, verb), len(verb))
        if hit is not None:
            return _Hit(rest, "decision", 0.75)
        if verb not in ("go", "stick", "keep"):
            return None
    allowed = {"use", "stick", "keep", "prefer", "avoid", "always", "never", "name", "standardize",
               "standardise", "agree", "make", "require", "follow", "put", "write", "prefix",
               "treat", "limit", "only", "target", "support", "ship", "do", "go", "try"}
    if lt.group("neg") and verb in _VERBS and verb not in ("do", "go", "get", "be", "let",
                                                           "look", "wait", "try", "worry"):
        allowed.add(verb)
    if verb not in allowed:
        return None
    if verb == "try" and not re.match(r"try to (?:always|never|keep|stick|use|avoid)", rest_mask):
        return None
    if (verb in ("make", "do", "go") and not re.match(
            r"(?:make sure (?:we|to) (?:always|never)|do (?:all|every)|go with\s+\S|"
            r"go back to\s+\S)", rest_mask)) or (
                rest_mask.startswith("go back to") and not (
                    names_something_technical(rest) or _tool_mentions(rest))):
        return None
    if verb == "go":
        if re.match(r"go with\s+(?:option|plan|approach|idea|suggestion|yours|your|that|this|"
                    r"it|the (?:first|second|third|last|other|former|latter|simpler|simplest|"
                    r"easier|easiest)|[a-z]\b|\d)", rest_mask):
            return None
        return _Hit(rest, "decision", 0.7)
    if verb == "agree" and not re.match(r"agree (?:to|on|that)\s+\S", rest_mask):
        return None
    if verb == "use" and re.match(r"use\s+(?:a|an|the|one)\s+(?!`)", rest_mask) and not (
            _tool_mentions(rest) or _STANDING_WORDS.search(rest_mask)):
        return None
    if verb in ("keep", "stick") and not re.match(
            r"(?:keep|stick)\s+(?:to|with|using|it|things|all|the|\S+s\b|`|\S+\s+as\s+(?:our|"
            r"the)\s+(?:only|sole|single|one|default|main|primary)\b)", rest_mask):
        return None
    if verb == "keep" and re.match(r"keep\s+(?:going|it|that|this|at it|on)\b", rest_mask):
        return None
    body = ("don't " + rest) if lt.group("neg") and not lt.group("neg").startswith("never") \
        else (("never " + rest) if lt.group("neg") else rest)
    kind: Literal["convention", "decision"] = "convention"
    if verb in ("standardize", "standardise", "target", "support", "ship") or (
            verb == "use" and (set(_words(rest_mask)) & _ARCH_NOUNS or _decision_family(rest))):
        kind = "decision"
    return _Hit(body, kind, 0.75)


_NO_REPORT = re.compile(
    r"\b(?:failed|passed|found|left|changed|happened|broke|works?|worked|is|are|was|were|"
    r"has|have|had|seems?|appear|showed|shown|needed|yet|at all|here|there|luck|idea|"
    r"problem|worries|rush|thanks|way|clue|doubt|matter|one|time|reason|need|sense)\b")


def _no_frame(c: _Clause, header: str | None) -> _Hit | None:
    """"no more default exports", "no print statements in library code"."""
    m = c.mask
    n = _NO_NP.match(m)
    if not n:
        return None
    rest = m[n.start("rest"):]
    words = _words(rest)
    if not words or words[0] in _PRONOUNS or words[0] in _DETERMINERS:
        return None
    if _NO_REPORT.search(rest) or _PLEASANTRY.match(m) or _DEICTIC.search(rest):
        return None
    if len(words) > 12:
        return None
    head_nps = [w for w in words[:4] if _is_plural(w) or w.startswith("`") or w in (
        "magic", "inline", "global", "mutable", "wildcard", "raw", "bare", "direct", "new",
        "emoji", "emojis", "semicolons", "mocking", "mocks", "any", "console.log", "print",
        "todo", "todos", "force", "force-push", "force-pushes", "merge", "commits", "pushing",
        "committing", "lodash", "jquery", "default", "star", "relative", "hardcoded",
        "hard-coded", "trailing", "unused", "commented-out", "dead", "debug", "secrets")]
    tools = _tool_mentions(c.raw)
    if not head_nps and not tools and header is None and not m.startswith("no more"):
        return None
    more = m.startswith("no more")
    return _Hit(c.raw, "convention", 0.75 if more or header else 0.7)


_PASSIVE = re.compile(
    r"^(?P<subj>(?:(?:all|every|each|any|new|our)\s+)?(?:[a-z0-9_`x./*-]+\s+){0,3}?"
    r"[a-z0-9_`x./*-]+)\s+(?:are|is|get|gets)\s+(?P<adv>always\s+|never\s+|only\s+)?"
    r"(?P<pp>[a-z]+ed|cut|built|run|written|kept|made|done|put|set|sent|shipped)\b")
_NORM_PARTICIPLES = frozenset({
    "written", "formatted", "named", "stored", "kept", "prefixed", "suffixed", "linted",
    "sorted", "documented", "tested", "squashed", "reviewed", "versioned", "tagged", "signed",
    "deployed", "released", "generated", "pinned", "vendored", "validated", "logged",
    "handled", "wrapped", "typed", "annotated", "managed", "built", "cut", "placed", "put",
    "organised", "organized", "grouped", "merged", "rebased", "declared", "defined",
    "encoded", "serialized", "serialised", "injected", "configured", "loaded", "read"})


# Who asks for features: "the warehouse needs to ...", "finance wants ...".
_STAKEHOLDER = re.compile(r"\b(?:warehouse|finance|ops|support|marketing|sales|legal|product|"
                          r"design|qa|mobile|management|accounting|partners?|clients?|"
                          r"stakeholders?|business)\b")


# Who asks for features, and what they are built for: "the scanner app wants error bodies as
# JSON", "customers want ..." (only where the sentence says they want it: "the app must stay
# ESM-only" is a rule).
_WANTERS = (r"(?:" + _STAKEHOLDER.pattern + r"|\b(?:apps?|frontend|dashboard|ios|android|"
            r"analysts?|agenc(?:y|ies)|office|customers?|users?|vendors?|suppliers?|"
            r"auditors?)\b)")


def _modal_frame(c: _Clause) -> _Hit | None:
    """"branch names should start with feat/", "every PR needs a changelog entry", "tests go
    in tests/", "1.0 goes ESM-only", "line length is 100"."""
    m = c.mask
    v = _VERSION_DECISION.match(m)
    if v:
        rest = m[v.start("rest"):]
        if re.match(r"(?:out|live|green|red|well|fine|ok|great|through|down|up|broken|"
                    r"failing|buggy|slow|fast|better|worse)\b", rest):
            return None
        return _Hit(c.raw, "decision", 0.75)
    s = _SETTING.match(m)
    if s and re.search(r"\d|`|\b(?:tabs|spaces|single|double|snake|camel|kebab|pascal)",
                       m[s.start("value"):]):
        return _Hit(c.raw, "convention", 0.75)
    d = _DEPRECATED.match(m)
    if d and not _DEICTIC.search(d.group("old")) and (
            _tool_mentions(c.raw) or "`" in d.group("old")) and re.search(
            r"\buse\b|\binstead\b|\bprefer\b|\bin favou?r of\b", m):
        return _Hit(c.raw, "decision", 0.7)
    passive = _PASSIVE.match(m)
    if passive and not _DEICTIC.search(m) and not passive.group("subj").startswith("the "):
        sw = passive.group("subj").split()
        generic = _is_plural(sw[-1]) or sw[0] in ("all", "every", "each", "any", "new")
        if generic and (c.standing or passive.group("adv") or sw[0] in ("all", "every", "each",
                                                                         "any")):
            return _Hit(c.raw, "convention", 0.7)
        if generic and passive.group("pp") in _NORM_PARTICIPLES and re.match(
                r"\s+(?:in|with|as|by|using|under|from|on|into|via|through|before|after)\b|"
                r"\s+\S*[/<`_*]", m[passive.end():]) and not _REPORT_TAIL.search(m):
            return _Hit(c.raw, "convention", 0.65)
    md = _MODAL_SUBJ.match(m)
    if not md:
        return None
    subj = md.group("subj")
    modal = md.group("modal")
    rest = md.group("rest")
    sw = subj.split()
    if sw[0] in ("it", "this", "that", "these", "those", "he", "she", "they", "you", "i", "we",
                 "there", "what", "which", "who", "everything", "something", "nothing",
                 "anything", "if", "when", "so", "and", "but", "or", "then", "also", "just",
                 "maybe", "perhaps", "probably", "one", "someone", "anyone", "everyone",
                 "nobody", "somebody", "people", "users", "customers"):
        return None
    if any(w in _VERBS and w not in ("test", "tests", "type", "types", "log", "logs", "name",
                                     "names", "commit", "commits", "release", "merge", "sort",
                                     "format", "lint", "check", "label", "comment", "tag",
                                     "version", "change", "changes", "import", "imports",
                                     "export", "exports", "cache", "build", "builds", "model",
                                     "models", "hook", "hooks", "mock", "mocks", "end", "order",
                                     "group", "store", "support", "link", "links", "query",
                                     "queries", "record", "records", "note", "notes", "pin",
                                     "pins", "print", "hash", "default", "defaults", "match",
                                     "write", "writes", "read", "reads")
           for w in sw):
        return None
    if _DEICTIC.search(subj) or _REPORT.search(" " + rest.split()[0] + " " if rest.split()
                                              else " "):
        return None
    if _STAKEHOLDER.search(subj):
        return None  # "the warehouse needs to mark orders as shipped": what someone asked for
    generic = (sw[0] in ("all", "every", "each", "any", "no", "new", "our", "public",
                         "private", "internal") or _is_plural(sw[-1]) or "`" in subj
               or bool(re.search(r"\b(?:code|style|formatting|indentation|naming|logging|"
                                 r"config|configuration|documentation|docs|changelog|"
                                 r"everything|coverage|line length|test coverage)\b", subj)))
    definite = sw[0] == "the"
    strong = bool(re.search(r"\b(?:always|never|not|only|all|no longer|mustn'?t|"
                            r"shouldn'?t|cannot|can'?t|may not|won'?t)\b", modal + " "
                            + rest.split()[0] if rest.split() else modal))
    if modal in ("go", "goes", "live", "lives", "belong", "belongs", "stay", "stays"):
        if not re.match(r"(?:in|into|under|inside|next to|alongside|beside|at|on top of)\s",
                        rest) or not generic or definite:
            return None
        return _Hit(c.raw, "convention", 0.7)
    if modal in ("follow", "follows", "use", "uses"):
        if not (_is_plural(sw[-1]) or sw[0] in ("all", "every", "each", "any", "new")) or \
                definite or not rest or _REPORT_TAIL.search(rest):
            return None
        return _Hit(c.raw, "convention", 0.7)
    if modal.startswith(("are ", "is ")):
        if not (generic or strong) or definite:
            return None
        return _Hit(c.raw, "convention", 0.75)
    if not rest:
        return None
    if modal in ("get", "gets"):
        if not (sw[0] in ("every", "each", "all", "any", "new") and re.match(
                r"(?:a|an|its|their|one|\S+ed)\b", rest)):
            return None
        return _Hit(c.raw, "convention", 0.7)
    if modal in ("always", "never", "only"):
        if not generic or definite:
            return None
        verb = rest.split()[0] if rest.split() else ""
        if verb.endswith("ed") or verb in ("was", "were", "had", "did", "got", "kept"):
            return None
        if not (verb.endswith("s") or verb in ("go", "use", "live", "need", "run", "start",
                                                "end", "have", "get", "follow")):
            return None
        if modal == "only" and not re.match(r"(?:go|live|use|run|belong)", verb):
            return None
        if not re.match(r"(?:use|go|live|need|start|begin|end|follow|have|get|belong|run|"
                        r"include|contain|require|target|return|raise|point|come|pass|"
                        r"import|stay|get)", verb):
            return None
        return _Hit(c.raw, "convention", 0.75)
    if modal in ("will",):
        if not (sw[0] in ("all", "every", "each", "any", "no", "new") or strong):
            return None
        return _Hit(c.raw, "decision" if _decision_like(m, c.raw) else "convention", 0.65)
    if not (generic or strong or c.standing or _TRIGGER.search(m)):
        return None
    if definite and not (strong or c.standing or _TRIGGER.search(m) or _STANDING_WORDS.search(
            rest)):
        return None
    if re.match(r"(?:be\s+)?(?:done|fixed|merged|finished|ready|green|passing|working|fine|"
                r"ok|okay|good|updated|landed)\b", rest) and not strong:
        return None
    kind: Literal["convention", "decision"] = "convention"
    if set(sw) & {"dependencies", "deps", "dependency", "release", "releases", "version",
                  "versions", "api", "schema", "database", "architecture", "runtime"}:
        kind = "decision"
    return _Hit(c.raw, kind, 0.75 if strong or generic else 0.65)


# How something is doing right now: news, not a way of working.
_STATE_NEWS = re.compile(r"\b(?:again|still|red|green|down|broken|flaky|failing|passing|passed|"
                         r"failed|slow|fine|done|works|working|crash\w*|since|yesterday|today|"
                         r"tonight|this morning|currently|right now)\b")


def _np_bullet(c: _Clause, header: str | None) -> _Hit | None:
    """A verbless bullet under a rules header ("- snake_case for modules", "- tabs, not
    spaces")."""
    if header is None:
        return None
    m = c.mask
    if header == "topic" and (not (names_something_technical(c.raw) or _tool_mentions(c.raw))
                              or _STATE_NEWS.search(m)):
        return None  # "staging: down again since 9am", "CI: red again" are news
    words = _words(m)
    if not words or len(words) > 14 or _QUESTION_START.match(m) or m.endswith("?"):
        return None
    # a verb makes it a sentence, not a bullet: "it's what shows in the docs header" says why
    if words[0].split("'")[0] in _PRONOUNS or _DEICTIC.search(m) or _REPORT.search(m) \
            or re.search(r"\b(?:is|are|was|were|has|have|had|will|would|can|could|might)\b|"
                         r"\b(?:it|that|there|what|here|he|she|who)'s\b|"
                         r"\b(?:they|we|you)'re\b|\bi'm\b|"
                         r"\b(?:says|said|told|asked|thinks|thought|wants|wanted|mentioned)\b",
                         m):
        return None  # "Leo says hi, he's back from leave" is news, said in passing
    return _Hit(c.raw, "convention", 0.65)


# An assistant naming the option it goes with: "Cheapest win: an in-process cache in front of
# GetOrder", "the cheapest lever is an in-process cache: ...", "A cache is the quickest win
# here: I'll add ...".
_BEST = (r"(?:cheapest|simplest|quickest|quick|easiest|cleanest|safest|best|biggest|obvious)\s+"
         r"(?:win|lever|fix|option|approach|route|way|bet|move|answer)s?(?:\s+here)?")
_BEST_FIRST = re.compile(r"(?:^|[,;]\s*so\s+|[,;]\s+|\bso\s+)(?:the\s+)?" + _BEST
                         + r"\s*(?:is\s+|:\s*)(?P<rest>.+)$")
_BEST_AFTER = re.compile(r"^(?P<what>.{3,80}?)\s+(?:is|are)\s+the\s+" + _BEST
                         + r"\s*[:,]\s*(?P<rest>.+)$")


def _best_option_frame(c: _Clause) -> _Hit | None:
    """The option an assistant picks as the best one, when it names something technical."""
    found = _BEST_FIRST.search(c.mask) or _BEST_AFTER.match(c.mask)
    if found is None:
        return None
    body = re.sub(r"^(?:i'?ll|i will|we'?ll|let'?s)\s+", "", c.raw[found.start("rest"):].strip(),
                  flags=re.I)  # "a cache is the quickest win here: I'll add ..."
    if len(body.split()) < 3 or not (names_something_technical(body) or _tool_mentions(body)):
        return None
    return _Hit(body, "decision", 0.55)


def _assistant_frame(c: _Clause) -> _Hit | None:
    """An assistant's committed decision: "I'll use httpx rather than requests", "So: no
    Redis; the in-process cache instead", "the fix is to ...; I'd go with X", "cheapest win:
    an in-process cache in front of GetOrder"."""
    m = c.mask
    best = _best_option_frame(c)
    if best is not None:
        return best
    said = re.sub(r",\s*which\b.*$", "", m)  # what it is for ("which parses ...") aside
    if _DEICTIC.search(re.sub(r"\s+for (?:that|this)\s*$", "", said)) or re.search(r"\bhere\b",
                                                                                 said):
        return None
    no_x = re.match(r"^(?:so[:,]?\s+)?no\s+(?P<old>[^;,.]+?)\s*[;,]\s*(?P<new>.+?)\s+instead\b", m)
    if no_x:
        body = c.raw[no_x.start("old") - 3:] if m[no_x.start("old") - 3:].startswith("no ") \
            else c.raw
        return _Hit(body, "decision", 0.55)
    parts = re.split(r";\s*", c.raw)
    for i, part in enumerate(parts):
        pm = _mask(part)
        a = _ASSISTANT.match(pm)
        if not a:
            continue
        rest = part[a.start("rest"):]
        rm = pm[a.start("rest"):]
        lead = pm[: a.start("rest")]
        verb_ok = re.match(r"(?:use|go with|switch (?:to|over to|from)|move (?:to|from)|"
                           r"switch\s+(?:[\w`'.()-]+\s+){1,3}?(?:over\s+)?to\s|"
                           r"migrate (?:to|from)|replace|drop|adopt|pin|keep|stick with|"
                           r"standardi[sz]e on|rip out|ditch|revert|go back to|roll back|"
                           r"remove|not)\b", rm)
        went = re.search(r"(?:go with|'d use|going with)\s*$", lead) and _bare_object(
            _words(rm)[:2])
        if not verb_ok and not went:
            continue
        contrast = re.search(r"\b(?:rather than|instead of|instead|over|not)\b", rm) or a.group(
            "alt")
        chosen = re.match(r"(?:go with|switch|move|migrate|replace|drop|adopt|pin|"
                          r"standardi[sz]e|rip out|ditch|revert|go back to|roll back|remove|"
                          r"not)", rm) or went
        dropped = re.match(r"(?:remove|drop|rip out|ditch|not)\b", rm) and (
            "`" in rest or _tool_mentions(rest) or _decision_like(rm, rest)
            or re.match(r"not\s+\w+\s+\S+.*\bat all\b", rm))
        coded = bool(re.search(r"`[^`]+`|\b\w+_\w+\b|\b\w+\(|\w=['\"\w]", rest))
        if not (contrast or dropped or (chosen and (went or _decision_like(rm, rest) or (
                coded and re.match(r"switch\s+(?!to\b|over\b|back\b)\S+\s+to\b", rm))))):
            continue  # "I'll switch read_csv to the pyarrow engine (engine='pyarrow')": code
        if re.match(r"use\s+(?:a|an|the)\s+(?!`)", rm) and not _tool_mentions(rest):
            continue
        if went:
            rest = "go with " + rest
        elif rm.startswith("not "):
            rest = "Don't " + rest[4:]  # "I'd rather not cache order state at all"
        prefix = ""
        first = _ASSISTANT.match(_mask(parts[0])) if i else None
        if first is not None and re.search(r"\b(?:fix|plan)\b", _mask(parts[0])[: first.start(
                "rest")]):
            prefix = parts[0][first.start("rest"):].strip() + "; "
        if a.group("alt"):
            prefix += part[a.start("alt"): a.end("alt")]
        return _Hit(prefix + rest, "decision", 0.55 if contrast else 0.5)
    return None


# ---------------------------------------------------------------------------------------------
# Turning a hit into a Rule


_END = (r"(?=\s*(?:[,;:!?()]|\.(?:\s|$)|\b(?:for|in|on|when|whenever|because|since|unless|"
        r"except|if|so|but|and then)\b|$))")
_REPLACES = [
    re.compile(r"\binstead of\s+(?P<old>.+?)" + _END),
    re.compile(r"\brather than\s+(?P<old>.+?)" + _END),
    re.compile(r"\b(?:switch|switching|switched|move|moving|moved|migrate|migrating|migrated|"
               r"go|going|went)(?:\s+\w+)?\s+(?:over\s+)?(?:away\s+)?from\s+(?P<old>.+?)"
               r"\s+(?:to|onto)\b"),
    re.compile(r"\b(?:move|moving|moved|migrate|migrating|migrated|switch|switching)\s+"
               r"(?:away from|off(?: of)?)\s+(?P<old>.+?)(?=\s*(?:[,;.]|\bto\b|\band\b|$))"),
    re.compile(r"\breplac(?:e|ing|ed)\s+(?P<old>.+?)\s+with\b"),
    re.compile(r"\bno longer\s+(?:use|using|run|running|do|doing|need|want|allow|support)?\s*"
               r"(?P<old>.+?)" + _END),
    re.compile(r"\b(?:don'?t|do not|never|stop|not)\s+(?:use\s+|using\s+|run\s+|running\s+)?"
               r"(?P<old>.+?)\s+any\s?(?:more|longer)\b"),
    re.compile(r"\bstop\s+(?:using\s+|running\s+|doing\s+)?(?P<old>\w+ing(?:\s+[^,;.]+?)?|"
               r"[^,;.]+?)" + _END),
    re.compile(r"\bno more\s+(?P<old>.+?)" + _END),
    re.compile(r"(?:,|;|—|–|\s-)\s*(?:and\s+|but\s+)?(?:not|never|no)\s+(?P<old>[^,;]+?)" + _END),
    re.compile(r"\b(?:use|prefer|run|with|choose|pick|favou?r)\s+\S+\s+not\s+(?P<old>[^,;]+?)"
               + _END),
    re.compile(r"^\S+\s+not\s+(?P<old>[^,;\s]+)$"),
    re.compile(r"\b(?:prefer|favou?r|choose|pick|use)\s+.+?\s+over\s+(?P<old>.+?)" + _END),
    re.compile(r"\b(?:rip(?:ping)? out|ditch(?:ing)?|get rid of|drop(?:ping)?|remove|removing)"
               r"\s+(?P<old>[^,;.]+?)\s*[;,]\s*(?:and\s+)?(?:just\s+)?use\s+.+\binstead\b"),
    re.compile(r"^(?:so[:,]?\s+)?no\s+(?P<old>[^;,.]+?)\s*[;,]\s*.+\binstead\b"),
    re.compile(r"^(?P<old>.{1,60}?)\s+(?:is|are)\s+(?:now\s+)?deprecated\b"),
    re.compile(r"^(?:so[:,]?\s+)?(?:revert|roll back)\s+(?P<old>[^,;.:]+?)\s+and\s+go back to\b"),
    re.compile(r"(?:^|[,:;]\s*)(?:but\s+)?(?P<old>[\w.()/+-]+(?:[ -][\w.()/+-]+)?)\s+can wait\b"),
    re.compile(r"^(?:so[:,]?\s+)?(?:remove|rip out|ditch|drop)\s+(?P<old>[^,;.:]+?)"
               r"(?=\s+(?:entirely|completely|altogether|and)\b|\s*[,;.:]|$)"),
    re.compile(r"^(?:don'?t|do not)\s+(?P<old>\w+\s+[^,;.:]+?)\s+at all\b"),
    re.compile(r"(?:^|[:;]\s*)(?:so\s+)?(?:scratch|ditch|rip out|get rid of)\s+(?P<old>[^,;.]+?)"
               r"(?=\s+for\b|\s*[,;.]|$)"),
]
_CHANGE = re.compile(
    r"\binstead\b|\bno longer\b|\bfrom now on\b|\bswitch(?:ing|ed|es)?\s+(?:\w+\s+)?(?:over\s+)?"
    r"(?:to|from|away)\b|\bany\s?more\b|\bany longer\b|\bchange of plans?\b|\brather than\b|"
    r"\bmov(?:e|ing|ed)\s+(?:\w+\s+)?(?:over\s+)?(?:to|from|away from|off)\b|"
    r"\bmigrat\w*\s+(?:\w+\s+)?(?:to|from|off)\b|\breplac\w*\s+.+?\s+with\b|\bstop\s+\w+ing\b|"
    r"\bagain\b|\bno more\b|\bdrop(?:ping)? support\b|\brip(?:ping)? out\b|\bditch\w*\b|"
    r"\brather not\b|\bremove\b.{0,40}\b(?:entirely|completely|altogether)\b|"
    r"\bget rid of\b|\bdeprecated\b|\bin favou?r of\b|\bgo(?:ing)? back to\b|"
    r"\bnot\s+.{1,40}?\bany (?:more|longer)\b|"
    r"(?<!from )\bscratch\b(?! (?:file|dir|directory|space|pad|buffer|org|build)s?\b)")


def _clean_old(old: str) -> str | None:
    """The replaced thing without determiners, trailing cues or code ticks; None if vague."""
    old = re.sub(r"^(?:the|a|an|our|any|using|use|plain|your|that|those|these)\s+", "",
                 old.strip(" `\"'"), flags=re.I)
    old = re.sub(r"\s+(?:anymore|any more|any longer|again|please|either|here|there|for \w+ing)$",
                 "", old,
                 flags=re.I)
    old = old.replace("`", "").strip(" ,.;:")
    if not old or len(old) > 60 or old.lower() in _PRONOUNS or old.lower() in _DETERMINERS:
        return None
    return old


def _replaces(raw: str) -> str | None:
    """What a rule says it replaces (the old way named after "instead of"), or None."""
    mask = _mask(raw)
    for pattern in _REPLACES:
        found = pattern.search(mask)
        if found and found.group("old"):
            return _clean_old(raw[found.start("old"): found.end("old")])
    return None


def _tidy(body: str) -> str:
    """The rule as one imperative line: lead-ins gone, capitalised, ending with a period."""
    text = " ".join(body.split()).strip(" ,;:—–-")
    text = re.sub(r"^(?:please|pls|plz|kindly|just|also|and)\s+", "", text, flags=re.I)
    text = re.sub(r"^(?:you|we)\s+(?:should|must|need to|have to)\s+", "", text, flags=re.I)
    text = re.sub(r"^(?:to)\s+(?=[a-z])", "", text)
    text = re.sub(r"\s*[!?.,;:…]+$", "", text).strip()
    text = re.sub(r"\s+(?:please|pls|thanks|thx)$", "", text, flags=re.I)
    # "..., so a small schema (please)": what the user asks for this time, not the rule
    text = re.sub(r",\s+so\s+(?:a|an|the|some)(?:\s+[\w-]+){1,3}$", "", text, flags=re.I)
    if not text:
        return text
    first = text.split()[0].strip(",;:")
    word = first.isalpha() and first.islower() and (
        first not in _ALL_TOOLS or first in _AMBIGUOUS_TOOLS)
    if word or first in ("don't", "dont", "i'll", "we'll", "let's", "i'd"):
        text = text[0].upper() + text[1:]
    return text + "."


_SUBJECTS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bbranch(?:es)?\s+names?\b|\bname\s+(?:\w+\s+)?branches\b|\bprefix\s+(?:\w+\s+)?"
                r"branch(?:es)?\b|\bbranch(?:es)?\s+(?:should|must)\s+(?:start|begin|be named|"
                r"use)\b|\bbranch naming\b|\bbranch name format\b|\bbranch prefix"),
     "branch names"),
    (re.compile(r"\bcommit\s+(?:messages?|subjects?|titles?|format|style)\b|\bconventional "
                r"commits?\b|\bcommit message format\b"), "commit messages"),
    (re.compile(r"\b(?:pr|pull request)\s+(?:titles?|descriptions?)\b"), "pr titles"),
    (re.compile(r"\bline[- ]length\b|\bline width\b|\bcolumn limit\b|\blines?\s+(?:under|over|"
                r"below|at most|no longer than|shorter than|longer than|max|<=?)\s*\d+|"
                r"\d+\s+(?:chars|characters|columns|cols)\b"), "line length"),
    (re.compile(r"\btest\s+(?:names?|functions? names?|files? names?)\b|\bname\s+(?:the\s+)?"
                r"(?:test|spec)s?\b|\bname\s+test files\b|\btest naming\b"), "test names"),
    (re.compile(r"\b(?:file|module)\s*names?\b|\bname\s+(?:\w+\s+)?files\b|\bfile naming\b"),
     "file names"),
    (re.compile(r"\b(?:function|method|variable|class|type|constant)\s+names?\b|"
                r"\bnaming\s+(?:convention|case|style)\b"), "identifier names"),
    (re.compile(r"\berror handling\b|\b(?:handl|catch)\w*\s+(?:\w+\s+)?(?:errors|exceptions)\b|"
                r"\bexceptions?\b|"
                r"\braise\b|\bbare except\b|\bresult types?\b"), "error handling"),
    (re.compile(r"\bdocstrings?\b|\bjsdoc\b|\bdoc comments?\b"), "docstrings"),
    (re.compile(r"\btype (?:hints?|annotations?)\b|\bannotat\w+\b|\btyped?\b|\bany\b(?= type)|"
                r"\bstrict mode\b"), "type hints"),
    (re.compile(r"\bindent\w*\b|\btabs\b|\bspaces\b"), "indentation"),
    (re.compile(r"\b(?:single|double)\s+quotes\b|\bquotes\b|\bquote style\b"), "quotes"),
    (re.compile(r"\bsemicolons?\b"), "semicolons"),
    (re.compile(r"\bimports?\b"), "imports"),
    (re.compile(r"\bexports?\b"), "exports"),
    (re.compile(r"\bchangelog\b"), "changelog"),
    (re.compile(r"\bsecrets?\b|\bcredentials?\b|\bapi keys?\b|\.env\b|\btokens?\b"), "secrets"),
    (re.compile(r"\bmigrations?\b"), "migrations"),
    (re.compile(r"\bsquash\w*\b|\brebas\w*\b|\bmerge commits?\b|\bfast-forward\b|"
                r"\bmerge strateg"), "merge strategy"),
    (re.compile(r"\bforce[- ]push\w*\b|\b(?:commit|push)\w*\s+(?:directly\s+)?(?:to|on|into)\s+"
                r"(?:the\s+)?(?:main|master|trunk|default branch)\b"), "main branch"),
    (re.compile(r"\bcommits?\b"), "commits"),
    (re.compile(r"\b(?:prs?|pull requests?|code reviews?|reviewers?)\b"), "pull requests"),
    (re.compile(r"\bversion(?:ing)?\b|\bsemver\b|\breleases?\b"), "releases"),
    (re.compile(r"\bcomments?\b"), "comments"),
    (re.compile(r"\bprint\s*(?:\(\)|statements?|calls?)|\bconsole\.log\b|\blog(?:s|ging|ger)?\b"),
     "logging"),
    (re.compile(r"\bcache|caching\b|\betags?\b"), "caching"),
    (re.compile(r"\bmocks?\b|\bmocking\b|\bfixtures?\b"), "test doubles"),
    (re.compile(r"\bf-strings?\b|\bstring formatting\b|\btemplate literals?\b|"
                r"\bstring concatenation\b"), "string formatting"),
]
_PURPOSE_HINT: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\btests?\b|\btesting\b|\bspecs?\b"), "test runner"),
    (re.compile(r"\blint\w*\b"), "linter"),
    (re.compile(r"\bformat\w*\b"), "formatter"),
    (re.compile(r"\btype[- ]?check\w*\b|\btypes\b|\btyping\b"), "type checker"),
    (re.compile(r"\binstall\w*\b|\bdependenc\w+\b|\bdeps\b|\bpackages?\b|\block ?files?\b"),
     "package manager"),
    (re.compile(r"\bhttp\b|\brequests? to\b|\bapi calls?\b"), "http client"),
    (re.compile(r"\blog\w*\b"), "logging"),
    (re.compile(r"\bbundl\w*\b"), "bundler"),
    (re.compile(r"\bci\b|\bpipelines?\b|\bworkflows?\b"), "ci"),
]


@dataclass(frozen=True)
class _Facts:
    """What ``supersedes`` needs from a rule's text."""

    prescribed: str  # the rule without its "instead of / not / rather than" part
    positive: bool
    family: str | None
    tool: str | None  # the first member of ``family`` it prescribes
    tools: frozenset[str]  # every tool it prescribes
    style: tuple[str, str] | None  # (choice family, member)
    values: frozenset[str]
    core: frozenset[str]  # stems of the prescribed content words, values removed
    scope: frozenset[str]  # stems of "for X / in X" qualifiers
    additive: bool
    permission: bool
    stop: bool
    ecosystem: str | None


def _strip_contrast(mask: str) -> str:
    """The mask without the part naming what is replaced ("instead of X", ", not X")."""
    out = mask
    for pattern in (
            re.compile(r"\binstead of\s+[^,;.]+"), re.compile(r"\brather than\s+[^,;.]+"),
            re.compile(r"\bfrom\s+[^,;.]+?\s+(?=to\b)"), re.compile(r"\breplac\w*\s+.+?\s+with\b"),
            re.compile(r"(?:,|;|—|–|\s-)\s*(?:and\s+|but\s+)?(?:not|never|no)\s+[^,;.]+"),
            re.compile(r"(?<=\S)\s+not\s+[^,;.]+$"),
            re.compile(r"\bover\s+[^,;.]+"), re.compile(r"\b(?:away from|off of|off)\s+[^,;.]+"),
            re.compile(r"^(?:so[:,]?\s+)?no\s+[^;,.]+?\s*[;,]"),
            re.compile(r"\b(?:rip(?:ping)? out|ditch\w*|get rid of|drop\w*|remov\w*)\s+[^;,]+[;,]"
                       r"(?=.*\binstead\b)"),
            re.compile(r"^.{1,60}?\s+(?:is|are)\s+(?:now\s+)?deprecated\b")):
        out = pattern.sub(" ", out)
    return " ".join(out.split())


def _stem(word: str) -> str:
    """A crude stem so that "rebasing", "rebase" and "rebased" compare equal."""
    if not word.isalpha() or len(word) <= 3:
        return word
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


_VALUE = re.compile(r"`[^`]+`|\b\d+(?:\.\d+)*\+?\b|(?<![\w/])[a-z][\w-]*/(?=\s|$|[,.;])|"
                    r"\"[^\"]+\"|'[^' ]+'|\b[\w-]*\*[\w.*-]*")


def _term_list(text: str) -> list[str]:
    """Content words and identifiers of a text, lower-case, code and flags kept."""
    raw = re.sub(r"`([^`]*)`", lambda m: " " + m.group(1) + " ", text.lower())
    raw = re.sub(r"\b[a-z]+n't\b|\b[a-z]+'(?:re|ve|ll|d|m)\b", " ", raw)
    raw = re.sub(r"'s\b", "", raw)
    out = []
    for w in re.findall(r"(?<![\w-])--?[a-z][\w-]*|[a-z0-9_@][a-z0-9_.+/@:*-]*[a-z0-9_/*+]|"
                        r"[a-z0-9]", raw):
        w = w.strip(".:") if w.startswith("-") else w.strip(".:-")
        if (w and w not in _STOP and w not in _GENERIC_VERBS and len(w) > 1) or w.isdigit():
            out.append(w)
    return out


@lru_cache(maxsize=4096)
def _facts(text: str) -> _Facts:
    """What ``supersedes`` compares, read once per rule text."""
    mask = _mask(text)
    pres_mask = _strip_contrast(mask)
    positions = [p for p in _tool_mentions(text)]
    # a tool inside a contrast part of the sentence is the one replaced, not prescribed
    contrast_tools = {t for t in _tools_in(_contrast_parts(text))}
    tools = [t for _, t in positions if t not in contrast_tools or t in _tools_in(
        _strip_contrast_raw(text))]
    family = _primary_family(pres_mask, tools)
    tool = next((t for t in tools if family and family in _ALL_TOOLS.get(t, [])), None)
    styles = [s for s in _style_mentions(_strip_contrast_raw(text))]
    style = (_STYLE_MEMBER[styles[0]], styles[0]) if styles else None
    neg = bool(re.search(r"^(?:never|don'?t|dont|do not|no|avoid|stop|no longer|no more|not|"
                         r"drop|ditch|rip out|get rid of)\b|"
                         r":\s*(?:scratch|drop|ditch|rip out|get rid of)\b|"
                         r"\b(?:should|must|shall|will|can|may|do|does|are|is)\s+(?:never|not)\b|"
                         r"\b(?:shouldn'?t|mustn'?t|won'?t|can'?t|cannot|don'?t|doesn'?t)\b|"
                         r"\bno longer\b|\bnever\b|\bno more\b|\bany ?more\b", pres_mask))
    permission = bool(re.search(r"\b(?:you can|you may|we can|it'?s (?:fine|ok|okay) to|"
                                r"feel free to|is (?:fine|ok|okay|allowed)|are (?:fine|ok|okay|"
                                r"allowed)|go ahead and|again)\b", pres_mask))
    if permission and re.search(r"\bagain\b", pres_mask) and not re.search(
            r"\b(?:never|don'?t|no)\b.*\bagain\b", pres_mask):
        neg = False
    stop = bool(re.search(r"\bstop\b|\bno longer\b|\bany ?more\b|^(?:drop|ditch|rip out|"
                          r"get rid of)\b", mask))
    values = frozenset(v.strip("`\"'").lower() for v in _VALUE.findall(text.lower()))
    value_words = set()
    for v in values:
        value_words.update(_term_list(v))
    core = frozenset(_stem(w) for w in _term_list(_unmask_like(text, pres_mask))
                     if w not in value_words)
    scope_words: set[str] = set()
    for sm in re.finditer(r"\b(?:for|in|on|inside|within|when|to)\s+((?:[a-z0-9_./-]+\s*){1,3})",
                          pres_mask):
        phrase = sm.group(1)
        if re.match(r"(?:this|the|our)\s+(?:repo|repository|project|codebase)|now\b|general\b|"
                    r"future\b|all\b\s*$|(?:main|master|trunk)\b", phrase) or (
                    sm.group().startswith("to") and not re.match(
                        r"(?:compile|build|manage|run|install|lint|format|check|test|publish|"
                        r"deploy|release|generate|bundle|type-?check)\b", phrase)):
            continue
        scope_words.update(_stem(w) for w in _term_list(phrase))
    additive = bool(re.search(r"\b(?:too|also|as well|additionally|in addition|on top of|"
                              r"alongside|plus)\b", mask))
    ecosystem = _ECOSYSTEM.get(tool) if tool else None
    return _Facts(pres_mask, not neg, family, tool, frozenset(tools), style, values, core,
                  frozenset(scope_words), additive, permission, stop, ecosystem)


def _unmask_like(text: str, pres_mask: str) -> str:
    """The words of ``text`` that survive in the contrast-free mask, code restored."""
    codes = [m.group() for m in _CODE.finditer(text)]
    out = pres_mask
    for code in codes:
        out = out.replace("`" + "x" * (len(code) - 2) + "`", code.lower(), 1)
    return out


def _contrast_parts(text: str) -> str:
    """The parts of a rule that name what it replaces, joined."""
    mask = _mask(text)
    kept = _strip_contrast(mask)
    removed = []
    for pattern in _REPLACES:
        found = pattern.search(mask)
        if found and found.group("old"):
            removed.append(text[found.start("old"): found.end("old")])
    return " ".join(removed) if removed or kept != mask else ""


def _strip_contrast_raw(text: str) -> str:
    return _unmask_like(text, _strip_contrast(_mask(text)))


def _tools_in(text: str) -> set[str]:
    return {t for _, t in _tool_mentions(text)} if text else set()


def _primary_family(mask: str, tools: list[str]) -> str | None:
    """The tool family a rule is about: the only one it names, or the one its purpose
    words point to ("tests" -> test runner), else the first named."""
    families: list[str] = []
    for t in tools:
        for fam in _ALL_TOOLS.get(t, []):
            if fam not in families:
                families.append(fam)
    for word, fam in _FAMILY_WORDS.items():
        if re.search(r"\b" + re.escape(word) + r"s?\b", mask) and fam not in families:
            families.append(fam)
    if not families:
        return None
    if len(families) == 1:
        return families[0]
    for pattern, fam in _PURPOSE_HINT:
        if fam in families and pattern.search(mask):
            return fam
    if "ruff" in tools and "formatter" in families and "ruff format" not in tools:
        families.remove("formatter")
    return families[0]


_SETTING_MOVED = re.compile(
    r"(?:from now on,? )?(?:raise|lower|bump|increase|reduce)\s+(?:the|our)\s+"
    r"(?P<what>(?:[\w-]+\s+){0,2}?(?:budget|limit|timeout|threshold|size|length|cap|"
    r"max(?:imum)?|min(?:imum)?|coverage|retries|ttl|quota|pool size|workers|concurrency))"
    r"\s+(?:to|up to|down to)\s+\S*\d")


def _subject(text: str, facts: _Facts) -> str:
    """The subject key: a pinned package, a tool family, a style choice, a lexicon phrase,
    or the head noun."""
    mask = _mask(text)
    pin = re.search(r"\bpin(?:ned|ning)?\s+`?([a-z0-9_.-]+)`?", mask)
    if pin and pin.group(1) not in _PRONOUNS:
        if pin.group(1) in _STOP or pin.group(1) in _DETERMINERS or _is_plural(pin.group(1)):
            return "dependency versions"
        return f"{text[pin.start(1): pin.end(1)].lower()} version"
    if facts.family:
        return facts.family
    if facts.style:
        return facts.style[0]
    setting = _SETTING_MOVED.match(mask)
    if setting:  # "raise the size budget to 2.5 kB": the setting, by its head noun
        return setting.group("what").split()[-1]
    pres = facts.prescribed
    for pattern, name in _SUBJECTS:
        if pattern.search(pres) or pattern.search(mask):
            return name
    low = _strip_contrast_raw(text).lower()
    for pattern, name in _SUBJECTS:
        if pattern.search(low):
            return name
    if re.search(r"\besm\b|\bcommonjs\b|\bcjs\b", mask):
        return "module system"
    return _head_noun(text)


def _head_noun(text: str) -> str:
    """The noun a rule is about when no lexicon entry names it: the last word of the first
    noun phrase, singular ("prefer explicit return types on ..." -> "type")."""
    tokens = re.findall(r"[a-z0-9_][\w.+/@*-]*|[,;:()]", _strip_contrast_raw(text).lower()
                        .replace("`", " "))
    run: list[str] = []
    for tok in tokens:
        word = tok.strip(".")
        content = (word.isalpha() and len(word) > 2 and word not in _STOP
                   and word not in _PHRASE_BREAK and word not in _PRONOUNS and not (not run and (
                       word in _VERBS or word in _GENERIC_VERBS or word.endswith("ly"))))
        if content:
            run.append(word)
        elif run:
            break
    if run:
        return _singular(run[-1])
    words = [w for w in _term_list(text) if w not in _VERBS and not w.isdigit()]
    return words[0] if words else ""


_PHRASE_BREAK = frozenset({
    "without", "within", "across", "after", "before", "below", "above", "behind", "between",
    "through", "during", "against", "along", "among", "including", "except", "unless",
    "until", "like", "upon", "about", "beyond", "inside", "outside", "should", "must",
    "need", "needs", "is", "are", "get", "gets", "go", "goes", "instead", "rather", "than",
})


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if _is_plural(word):
        return word[:-1]
    return word


def _make_rule(hit: _Hit, clause: _Clause, said: str, speaker: str) -> Rule | None:
    """The Rule for a matched sentence: tidy text, replacement, change cue, subject, terms."""
    text = _tidy(hit.body)
    if clause.scope and clause.scope.lower() not in text.lower():
        text = _tidy(f"{clause.scope}, {_lower_first(text)}")
    if len(_words(_mask(text))) < 2 or len(text) > 400:
        return None
    mask = _mask(text)
    replaces = _replaces(text) or _replaces(clause.raw)
    change = bool(clause.change or _CHANGE.search(mask) or _CHANGE.search(clause.mask)
                  or _CHANGE_STATEMENT.search(mask) or _SETTING_MOVED.match(mask))
    facts = _facts(text)
    subject = _subject(text, facts)
    terms = frozenset(_term_list(text))
    confidence = hit.confidence
    if clause.hedged:
        confidence -= 0.05
    if change:
        confidence += 0.03
    if speaker == "assistant":
        confidence = min(confidence, ASSISTANT_MAX_CONFIDENCE)
    confidence = round(max(MIN_CONFIDENCE, min(MAX_CONFIDENCE, confidence)), 3)
    kind = "decision" if speaker == "assistant" else hit.kind
    return Rule(kind, text, _clip(said, MAX_SAID), subject, terms, change, replaces, confidence)


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------------
# The public functions


_SPLIT_CLAUSES = re.compile(r";\s+|,?\s+and\s+(?:also\s+)?(?=(?:always|never|don'?t|do not|"
                            r"please|make sure|prefer|avoid|keep|use|we|our|no more)\b)|"
                            r",\s+(?:also|plus)\s+|"
                            r",\s+(?=(?:please\s+(?:don'?t|do not|never|always|make sure|use)|"
                            r"don'?t ever|do not ever|never ever)\b)|"
                            r",\s+so\s+(?=(?:from now on|going forward|moving forward|always|"
                            r"never|please|make sure|use|prefer|we)\b)")


# A sentence no shape above reads is still a rule when it is marked as standing and is about
# the work: the marker says "from now on / always / every / the rule is", the content names
# something technical. Reports, questions, other people's views and chatter never are.
_STANDING_MARK = re.compile(
    r"\b(?:from now on|from here on|going forward|moving forward|henceforth|as a rule|"
    r"the rule (?:here )?is|our (?:convention|rule|standard|policy|style)|house style|"
    r"conventions? here|no exceptions|must|mustn'?t|(?<!i )needs? to|has to|"
    r"(?<!i )have to|should|"
    r"shouldn'?t|please (?:keep|respect|follow|stick)|i'?d (?:like|prefer|rather)|"
    r"it'?d be (?:nice|great|good) if you|stick (?:to|with)|"
    r"we (?:always |only |never )?(?:use|prefer|go with|do|write|name|keep|put|run|want)|"
    r"(?:is|are) (?:not )?allowed|(?:is|are) required|required|mandatory|forbidden|banned|"
    r"don'?t ever|do not ever|not allowed|comes? from|"
    r"i (?:want|expect) (?:all|every|each|new|our|you to always|you to never)|(?<!i )need|"
    r"(?:is|are) (?:always|never|only)|(?:always|never|only) (?:go|live|belong)|"
    r"new (?:code|files|modules|functions|tests|components|endpoints|features|packages|"
    r"services|classes|scripts|migrations|crates|apis))\b")
# Words that make a rule only in a directive sentence (an imperative, or "we" / "you" as the
# subject): "always run ruff" is a rule, "pytest always takes forever" a report.
# A statement of change about the work is a rule even without a directive: "sessions move to
# redis", "ruff for lint now, flake8 is removed", "we're on bun now".
_CHANGE_STATEMENT = re.compile(
    r"\b(?:no longer|anymore|any more|(?:is|are) gone|(?:is|are|was|were|got|has been|have been) "
    r"(?:removed|dropped|deprecated|retired|replaced)|instead of|moves? to|moving to|"
    r"migrat\w* to|switch\w* (?:to|over)|bump\w* \S+(?: \S+)? to|we'?re on|"
    r"(?:^|[,;] )now\b|\bnow\s*[,;.!]?\s*$)")
_CHANGE_REPORT = re.compile(
    r"\b(?:we'?re at|it'?s at|coverage|next (?:step|week|month|year|sprint)|office)\b|"
    r"\b(?:it|that|this|which|they|path|thing)\s+(?:\w+\s+)?(?:doesn'?t|isn'?t|can'?t|"
    r"won'?t|don'?t)\b")
# Something named: code, a path or flag, an identifier, an acronym.
_NAMED = re.compile(r"`[^`]+`|[\w-]*[./_%()<>:=@#][\w.-]+|\b(?:[a-z]+[A-Z]\w*|[A-Z]{2,}\w*)\b|"
                    r"\b\d+(?:\.\d+)+\b")
_WEAK_MARK = re.compile(r"\b(?:always|never|every|each|all|only|no more|any new|ever)\b")
_DIRECTIVE_START = re.compile(
    r"^(?:always|never|don'?t|do not|no more|only|please|use|prefer|avoid|keep|"
    r"put|run|write|name|add|make|wrap|return|log|send|format|lint|test|pin|tag|cut|"
    r"follow|stick|go|call|import|store|set|mark|give|show|indent|split|copy|create|"
    r"ship|deploy|merge|rebase|squash|route|version|document|check|validate|lazy-load|"
    r"freeze|mock|type|declare|prefix|suffix|start|end|move|drop|remove)\b")
_DIRECTIVE_SUBJECT = re.compile(
    r"^(?:we|you|everyone|everybody|new code)\s+(?:always |never |only |all |don'?t |do not |"
    r"should |must )?(?!(?:are|were|have|had|also|just|did|got|can|could|would|will|may|"
    r"might|still|now|then|really|talked|spent|saw|found|went|made|took|lost|signed)\b)"
    r"[a-z]+(?<!ed)(?<!ing)\b")
_TECH_TERMS = (
    r"`[^`]+`|[\w-]*[./_%()<>:=@#][\w.-]+|\b(?:[a-z]+[A-Z]\w*|[A-Z]{2,}\w*)\b|"
    r"(?i:\b(?:tests?|commits?|branch(?:es)?|prs?|pull requests?|reviews?|approvals?|merges?|"
    r"releases?|tags?|versions?|semver|deploy(?:ment)?s?|columns?|tables?|migrations?|"
    r"schemas?|errors?|exceptions?|logs?|logging|apis?|endpoints?|routes?|configs?|"
    r"env(?:ironment)? vars?|secrets?|timestamps?|dates?|yaml|json|toml|lint(?:er|ing)?|"
    r"format(?:ter|ting)?|types?|functions?|methods?|classes|modules?|files?|imports?|"
    r"dependenc(?:y|ies)|packages?|crates?|libraries|library|docs?|comments?|names?|"
    r"naming|prefix(?:es)?|indent(?:s|ation)?|spaces|tabs|quotes|strings?|queries|sql|"
    r"handlers?|components?|services?|jobs?|locks?|caches?|builds?|ci|pipelines?|"
    r"dockerfiles?|containers?|images?|probes?|limits?|diffs?|refactors?|screenshots?|"
    r"fixtures?|mocks?|snapshots?|assertions?|keywords?|headers?|parameters?|args?|"
    r"variables?|constants?|booleans?|structs?|traits?|interfaces?|generics?|async|sync|"
    r"database|db|orm|server|client|frontend|backend|cli|shell|scripts?|makefile|"
    r"outputs?|stdout|stderr|terminal|colou?rs?|styles?|flags?|options?|budgets?|"
    r"bundles?|size)\b)")
_TECH = re.compile(_TECH_TERMS + r"|\b\d+\b")
_NAMES_TECH = re.compile(_TECH_TERMS + r"|(?<!\w)--?[a-z][\w-]*")
_ATTRIBUTED = re.compile(
    r"\b(?:keeps? saying|kept saying|said (?:that|we|to)|says (?:that|we)|asked|asks|"
    r"suggested|suggests|proposed|"
    r"proposes|wants us to|wanted us to|thinks|thought|argued|argues|claims?|mentioned|"
    r"(?:has|have|had) a rule|i'?ll always|fun story|til)\b|^if we\b")


_WE_NEED = re.compile(r"^(?:(?:so|and|also|now|then|ok|okay)\s+)?(?:(?:we|i)\s+(?:really\s+|"
                      r"still\s+|also\s+)?need\b(?!\s+to\b)|(?:i|we)(?:'d| would)\s+(?:really\s+)?"
                      r"(?:like|love|want)\s+(?:a|an|some|one)\b)")


# A "should" whose subject is a pronoun in a later clause ("their API is slow and flaky so it
# should happen in the background", "... are exactly those, they should move over"): how the
# thing just described should go this time, not a standing rule.
_MODAL_MARK = re.compile(r"must|mustn'?t|needs? to|has to|have to|should|shouldn'?t|need")
_LATER_PRONOUN = re.compile(r"(?:[,;]|\bso|\band|\bbut|\bthen)\s+(?:it|they|this|that)\s+$")


def _standing_sentence(c: _Clause) -> Rule | None:
    """A rule from a sentence that is marked as standing and names something technical, read
    as a whole (lead-ins stripped); None for questions, reports, hypotheticals, attributions
    and chatter."""
    original_question = c.raw.rstrip().endswith("?")
    _strip_leads(c)
    m = c.mask
    if (not c.raw or original_question or m.endswith("?") or _PLEASANTRY.match(m)
            or _QUESTION_START.match(m) or _HYPOTHETICAL.search(m) or _ATTRIBUTED.search(m)
            or _REPORT.search(_strip_contrast(m)) or _DEICTIC.search(m)):
        return None
    if not _TECH.search(c.raw):
        return None
    if (re.match(r"(?:they|he|she)\s+(?!(?:should|must|shall|need to|have to|always|never|"
                 r"can'?t|cannot|mustn'?t|shouldn'?t)\b)", m)
            or re.match(r"(?:the\s+)?(?:\w+\s+)?" + _WANTERS
                        + r"\s+(?:team\s+|folks\s+|people\s+)?(?:wants?|needs?|asks?|asked|"
                          r"would like|'d like|says?|said)\b", m)
            or re.match(r"[a-z]+(?:\s+and\s+[a-z]+)?\s+(?:those|these|them|it)\b", m)):
        return None  # what others do or want, or a request about things named just before
    directive = bool(_DIRECTIVE_START.match(m))
    if _REPORT_TAIL.search(m):
        return None
    first = _words(m)[0] if _words(m) else ""
    if (re.search(r"\bhere\b", m) or _LOCAL_TARGET.search(m)) and not (
            c.change or re.search(r"\b(?:from now on|going forward|as a rule)\b", m)):
        return None  # "use a dict here instead", "... in the fetch function": one-off tasks
    if first in _TASK_VERBS and first not in _CONV_VERBS and not (
            c.change or re.search(r"\b(?:always|never|every|each|whenever|any new|ever|"
                                  r"from now on|going forward|as a rule)\b", m)):
        return None  # "update the deps and make sure it builds": a task
    changed = bool(_CHANGE_STATEMENT.search(m)) and not _CHANGE_REPORT.search(m) and bool(
        _NAMED.search(c.raw) or _tool_mentions(c.raw))
    if first in _TASK_VERBS and first not in _CONV_VERBS and not re.search(
            r"\b(?:always|never|every|whenever|from now on|going forward)\b", m):
        changed = False  # "switch to the other branch now": a task, not a change of rule
    marked = any(not (_MODAL_MARK.fullmatch(mark.group()) and _LATER_PRONOUN.search(
        m[:mark.start()]) and not re.match(r"\s+(?:always|never|not|only|ever)\b",
                                           m[mark.end():]))
                 for mark in _STANDING_MARK.finditer(m))
    if not (marked or changed or c.change or c.standing
            or _DIRECTIVE_SUBJECT.match(m)
            or (directive and (_WEAK_MARK.search(m) or _CONTRAST.search(m)))):
        return None
    if len(_words(m)) < 3:
        return None
    need = _WE_NEED.match(m)
    if need and not (c.change or c.standing or _WEAK_MARK.search(m)
                     or _STANDING_MARK.search(m[need.end():])):
        return None  # "we need DELETE /items/{id}", "we need a `tidepool export` command": work
    hit = _Hit(c.raw, "decision" if _decision_like(m, c.raw) else "convention", 0.6)
    return _make_rule(hit, c, c.raw, "user")


_CAPABILITY = re.compile(r"\b(?:should|must|needs? to|has to|have to|want to|wants to|"
                         r"'d like to|would like to)\s+be\s+able\s+to\b|"
                         # "we need to see afterwards who shipped what": what to find out
                         r"\b(?:we|they|people|users|ops)\s+(?:need|want|have)\s+to\s+(?:see|know|"
                         r"find out|tell|track|look up|check)\s+(?:afterwards\s+|later\s+|"
                         r"again\s+)?(?:who|what|when|which|where|how|whether|if)\b|"
                         # "we want tidepool to pick up its config from TIDEPOOL_* env vars"
                         r"^(?:(?:so|ok|and|also|next thing:?)\s+)?(?:we|i)\s+(?:want|'d like|"
                         r"would like)\s+(?!you\b|everyone\b|everybody\b|people\b|us\b|them\b)"
                         r"[\w.-]+\s+to\s+(?:pick up|read|load|accept|support|handle|show|"
                         r"send|take|get|have|offer|expose|print|write)\b", re.I)


_ASIDE = re.compile(r"^(?:and\s+|also\s+|oh\s+and\s+)?while you(?:'re| are) (?:on|at) it\b",
                    re.I)


# A sentence that opens with what someone wants built ("finance wants percentage discounts at
# order creation, and we store the discounted total"), or that tells them something ("we can't
# tell support ..."): the request, in all its clauses, unless it also says how to work for good.
_REQUESTED = re.compile(r"^(?:(?:hey|hi|hiya|ok|okay|so|and|also|oh)\W*\s+)*(?:the\s+)?"
                        r"(?:\w+\s+)?" + _WANTERS + r"\s+(?:team\s+|folks\s+|people\s+)?"
                        r"(?:wants?|needs?|asks?|asked|would like|'d like)\b|"
                        r"^(?:\w+\s+){0,3}?(?:can'?t|cannot|shouldn'?t|won'?t)\s+(?:tell|promise|"
                        r"give|sell|show|send)\s+(?:the\s+)?" + _WANTERS)
_FOR_GOOD = re.compile(r"\b(?:always|never|from now on|going forward|moving forward|as a rule|"
                       r"every time|each time|whenever|by default|in new \w+|don'?t ever|"
                       r"do not ever)\b", re.I)
# Work asked for later: "next week I'd like a `--count` mode", "tomorrow can you ...".
_LATER_WORK = re.compile(r"^(?:(?:so|ok|okay|and|also|oh)\s*,?\s+)?(?:next (?:week|month|"
                         r"sprint|time)|tomorrow|later (?:today|this week|on)|at some point|"
                         r"some ?day|eventually)\b[^.?!]{0,40}?\b(?:i'?d like|i want|we want|"
                         r"we need|we'?ll need|can you|could you|let'?s|please)\b", re.I)
# The words a piece of text should have, given for this once: "the INPUT help should say
# 'JSON-lines log file to read'".
_WORDING = re.compile(r"\b(?:help|text|message|title|label|heading|description|docstring|copy|"
                      r"tooltip|button|banner|placeholder|caption|prompt)\s+should (?:say|read|"
                      r"be worded|show)\s*:?\s*['\"`‘“]", re.I)
# A sentence that opens as the next piece of work: "next up: GET /items should take ?limit=".
_NEXT_TASK = re.compile(r"^(?:(?:so|ok|okay|and|now)\s*,?\s+)?(?:next up|up next|first up)\s*,|"
                        r"^(?:(?:so|ok|okay|and|now)\s*,?\s+)?(?:next up|up next|next|first up|"
                        r"(?:a\s+)?(?:small|quick|tiny|another|last) one|one more thing|"
                        r"today'?s (?:task|thing|job)|new (?:task|ticket)|todo|to-do|"
                        r"(?:first|new|another|next|one more)\s+(?:[\w-]+\s+)?(?:ticket|task|"
                        r"story|issue)(?:\s+for\s+(?:you|us))?|"
                        r"(?:(?:a|one|another|small|new)\s+)?(?:feature|feature request|bug|"
                        r"bug report|request)(?:\s+for\s+[\w.@/-]+)?)\s*[:—–-]", re.I)
# What turns a polite question into a standing rule: "could you always run the linter?"
_QUANTIFIED = re.compile(r"\b(?:always|never|every|each|all|any new|whenever|every time|"
                         r"each time|from now on|going forward|as a rule)\b")


def _read(raw: str, header: str | None, speaker: str, piece_change: bool) -> list[Rule]:
    """The rules in one sentence: one, or several when independent clauses each state one;
    a sentence no shape reads falls back to ``_standing_sentence``."""
    if speaker == "user" and _ATTRIBUTED.search(_mask(raw)):
        return []  # someone else's view, a report or a story, not the user's rule
    if _NEXT_TASK.match(raw.strip()):
        return []  # the task at hand, however it is worded
    if _CAPABILITY.search(_mask(raw)):
        return []  # what the product should let someone do: a feature asked for, not a rule
    if _ASIDE.match(raw):
        return []  # "while you're on it, run that one file ...": for the task at hand
    if _LATER_WORK.match(raw) or _WORDING.search(raw):
        return []  # "next week I'd like a --count mode", "the help should say '...'": work
    if speaker == "user" and _REQUESTED.match(_mask(raw).strip()) and not _FOR_GOOD.search(
            _mask(raw)):
        return []  # "finance wants percentage discounts, and we store the discounted total"
    found = _read_shapes(raw, header, speaker, piece_change)
    if found or speaker != "user":
        return found
    fallback = _Clause(raw)
    fallback.change = piece_change
    rule = _standing_sentence(fallback)
    if rule is not None:
        return [rule]
    why, so, tail = _outside_brackets(raw, ", so ")
    if so and len(why.split()) >= 3 and not why.rstrip().endswith("?") and not re.match(
            r"(?:we|i|it|they|you|he|she|that|this|there|the|our)\b", tail, re.I):
        # "I want to see the SQL before anything touches my database, so create them with
        # --create-only and wait for my ok": the rule is what follows "so", the why before it
        return [Rule(r.kind, r.text, _clip(raw, MAX_SAID), r.subject, r.terms, r.change,
                     r.replaces, r.confidence)
                for r in _read(tail, header, speaker, piece_change)]
    return []


# "... and it has to stay that way", "keep it that way": what the sentence describes is a rule.
_STAY = re.compile(r"(?:,|\band)\s+(?:it|this|that|they)\s+(?:has to|have to|must|should|needs? "
                   r"to)\s+(?:stay|remain)\s+(?:that way|like that|so)\b|[,;]\s*(?:and\s+)?"
                   r"(?:let'?s\s+|please\s+)?keep (?:it|them) that way\b")


def _list_items(raw: str) -> list[str]:
    """The items of a comma list ("a, b, and c"), cut at commas outside brackets and code."""
    items: list[str] = []
    depth, code, start = 0, False, 0
    for i, ch in enumerate(raw):
        if ch == "`":
            code = not code
        elif not code and ch in "([{":
            depth += 1
        elif not code and ch in ")]}":
            depth = max(0, depth - 1)
        elif not code and depth == 0 and ch in ",;":
            items.append(raw[start:i])
            start = i + 1
    items.append(raw[start:])
    return [re.sub(r"^(?:and|or|plus)\s+", "", item.strip(), flags=re.I) for item in items
            if item.strip()]


def _kept_as_is(raw: str) -> Rule | None:
    """A description the user says must stay true ("it has zero runtime dependencies and it
    has to stay that way"): the whole sentence is the rule."""
    c = _Clause(raw)
    _strip_leads(c)
    m = c.mask
    stay = _STAY.search(m)
    if stay is None or stay.start() < 12 or m.endswith("?") or _HYPOTHETICAL.search(m):
        return None
    return _make_rule(_Hit(c.raw, "convention", 0.7), c, raw, "user")


def _read_shapes(raw: str, header: str | None, speaker: str, piece_change: bool) -> list[Rule]:
    """The rules the sentence shapes above read in one sentence."""
    clause = _Clause(raw)
    if speaker == "user":
        kept = _kept_as_is(raw)
        if kept is not None:
            return [kept]
        rule = _read_clause(clause, header, speaker, raw, piece_change)
        mask = clause.mask
        parts = [p for p in _SPLIT_CLAUSES.split(mask)]
        if len(parts) > 1 and (rule is None or not re.search(
                r"\binstead\b(?! of)|\b(?:it|them|that)\s*$", mask)):
            subs: list[Rule] = []
            cut = 0
            for m in [*_SPLIT_CLAUSES.finditer(mask), None]:
                end = m.start() if m is not None else len(mask)
                piece = clause.raw[cut:end]
                cut = m.end() if m is not None else len(mask)
                sub = _Clause(piece)
                sub.standing, sub.change = clause.standing, clause.change
                found = _read_clause(sub, header, speaker, raw, piece_change)
                if found is None and _CHANGE_HEADER.search(_mask(piece)):
                    # "from now on it's pnpm install / pnpm test, and ...": a clause that
                    # states a change reads as a whole sentence would
                    fallback = _Clause(piece)
                    fallback.change = True
                    found = _standing_sentence(fallback)
                if found is not None:
                    subs.append(found)
            if rule is not None and len(subs) > 1 and ";" in mask and (
                    (not _facts(subs[0].text).positive and re.match(
                        r"(?:just |instead |then )?(?:use|prefer|go with|switch|rely|stick|"
                        r"try|let|do)\b", subs[1].text.lower()))
                    or min(len(s.text.split()) for s in subs) < 5):
                # "don't X; use Y" and "X; Y is enough" say one thing: keep it whole
                return [rule]
            if len(subs) > 1 or (subs and rule is None):
                return subs
        if rule is None and header == "topic":
            # a list under a topic, its items apart ("versioning: semver, tags look like
            # `vX.Y.Z`, and releases are cut from main only"); a why among them is not one
            items = [item for item in _list_items(clause.raw) if item != clause.raw
                     and not re.match(r"(?:that'?s|which|since|because|so|as)\b", item, re.I)]
            listed = [r for item in items
                      if (r := _read_clause(_Clause(item), header, speaker, raw, piece_change))]
            if listed:
                return listed
        return [rule] if rule is not None else []
    clause_a = _Clause(raw)
    _strip_leads(clause_a)
    if re.match(r"^\s*so\s*:", raw, re.I) and re.match(
            r"(?:remove|drop|rip out|ditch|revert|replace|switch|move|use)\b", clause_a.mask):
        clause_a = _Clause("I'll " + clause_a.raw)  # "So: remove the moka cache entirely, ..."
        _strip_leads(clause_a)
    if not clause_a.raw or _HYPOTHETICAL.search(clause_a.mask) or clause_a.mask.endswith("?"):
        return []
    hit = _assistant_frame(clause_a)
    if hit is None:
        return []
    rule = _make_rule(hit, clause_a, raw, speaker)
    return [rule] if rule is not None else []


def _read_clause(c: _Clause, header: str | None, speaker: str, said: str,
                 piece_change: bool) -> Rule | None:
    """The rule one clause states, or None: lead-ins stripped, questions, hypotheticals
    and pleasantries dropped, a leading condition ("if you add a dependency, ...") kept."""
    original_question = c.raw.rstrip().endswith("?")
    _strip_leads(c)
    if piece_change:
        c.change = True
    if not c.raw:
        return None
    m = c.mask
    if _PLEASANTRY.match(m) and not re.match(r"no more\b", m):
        return None
    if (original_question or m.endswith("?")) and not (c.polite and (
            c.standing or c.change or _QUANTIFIED.search(m))):
        return None  # "could you write tests for the queries?": asked once, not a rule
    if _QUESTION_START.match(m) and not re.match(r"(?:don'?t|do not)\s+(?!we\b|you\b)", m):
        return None
    if _HYPOTHETICAL.search(m):
        return None
    conditional = re.match(r"^(?:(?P<cond>if|when|whenever|before|after|once|while|unless)|"
                           r"(?:for|in|on|inside|within|across|with|outside (?:of )?)(?=\s))"
                           r"\s+[^,]{2,80},\s*", m)
    if conditional:
        main = m[conditional.end():]
        prefix = m[: conditional.end()]
        # "the way a user would" compares; it does not make the rule hypothetical
        main = re.sub(r"\b(?:the way|like|as)\s+(?:a|an|the|any|real)\s+\w+\s+would\b", "",
                      main)
        if re.search(r"\b(?:would|could|might|'d)\b", main) or re.search(
                r"\b(?:would|could|might|'d|had|were|did)\b", prefix):
            return None
        if conditional.group("cond"):
            c.trigger = True
        elif _DEICTIC.search(prefix):
            return None
        elif _STANDING_WORDS.search(prefix) or _PLURAL_SCOPE.search(prefix) or re.search(
                r"\b(?:anything|everything|tests?|python|typescript|js|go|rust|sql|production|"
                r"prod|ci|frontend|"
                r"backend|docs|libraries|library code|scripts)\b", prefix):
            c.standing = True
        cond_raw = c.raw[: conditional.end()]
        c.cut(0, conditional.end())
        _strip_leads(c)
        hit = _frames(c, header)
        if hit is None:
            return None
        hit.body = cond_raw.rstrip() + " " + hit.body
        return _make_rule(hit, c, said, speaker)
    if header in ("always", "never", "avoid"):
        prefix = {"always": "always ", "never": "never ", "avoid": "avoid "}[header]
        if not re.match(r"(?:always|never|don'?t|do not|avoid|no)\b", m):
            c.cut(0, 0, prefix)
    hit = _frames(c, header)
    if hit is None:
        return None
    return _make_rule(hit, c, said, speaker)


_ONE_OFF = re.compile(r"\b(?:today|tonight|tomorrow|right now|this time|this week|for now in|"
                      r"yet|at the moment|for the moment|this afternoon|this morning|asap)\b")


_PERMISSION = re.compile(
    r"^(?:you|we|everyone)\s+(?:can|may|are allowed to|are free to)\s+(?:now\s+)?(?:go back to\s+)?"
    r"|^(?:it'?s|it is)\s+(?:fine|ok|okay|allowed)\s+(?:again\s+)?to\s+|^feel free to\s+")


def _permission_frame(c: _Clause) -> _Hit | None:
    """"you can use default exports again": an earlier prohibition lifted."""
    m = c.mask
    p = _PERMISSION.match(m)
    if not p:
        return None
    rest_mask = m[p.end():]
    if not re.search(r"\b(?:again|now|any ?more)\b", rest_mask + " " + m[: p.end()]) and not (
            c.standing or _STANDING_WORDS.search(rest_mask)):
        return None
    if _DEICTIC.search(rest_mask) or not rest_mask.split() or rest_mask.split()[0] not in _VERBS:
        return None
    return _Hit(c.raw[p.end():], "convention", 0.7)


_TOOL_CONTRAST = re.compile(r"^(?P<new>[\w.@/:+-]+|`x+`),?\s+(?:not|instead of|rather than|over|"
                            r"never)\s+(?P<old>[\w.@/:+-]+|`x+`)$")


def _tool_contrast_frame(c: _Clause) -> _Hit | None:
    """"pnpm, not npm": two tools of one family, the first preferred."""
    t = _TOOL_CONTRAST.match(c.mask)
    if not t:
        return None
    tools = [tool for _, tool in _tool_mentions(c.raw)]
    if len(tools) != 2 or not set(_ALL_TOOLS[tools[0]]) & set(_ALL_TOOLS[tools[1]]):
        return None
    return _Hit(c.raw, "convention", 0.7)


def _frames(c: _Clause, header: str | None) -> _Hit | None:
    """The first sentence shape that states a rule, tried from the most to the least
    specific; None when none does."""
    m = c.mask
    hit = _tool_contrast_frame(c)
    if hit is not None:
        return hit
    hit = _permission_frame(c)
    if hit is not None:
        return hit
    if re.match(r"^(?:we|we'?re|we'?ve|we'?ll|we'?d|i|i'?ve|i'?ll|i'?d|the team|everyone|"
                r"everybody)\b", m):
        hit = _we_frame(c)
        if hit is not None:
            return hit
        if re.match(r"^(?:i|we)\s+(?:decided|agreed)", m):
            return None
        if not re.match(r"^(?:i'?d|we'?d)\s+(?:rather|prefer)", m):
            return None
    for frame in (_policy_frame, _lets_frame):
        hit = frame(c)
        if hit is not None:
            return hit
    if re.match(r"^(?:let'?s|lets|let us)\b", m):
        return None
    hit = _no_frame(c, header)
    if hit is not None:
        return hit
    if re.match(r"^no\b", m):
        return None
    hit = _imperative(c, header)
    if hit is not None:
        return hit
    hit = _modal_frame(c)
    if hit is not None:
        return hit
    hit = _what_we_make_frame(c)
    if hit is not None:
        return hit
    back = _BACK_TO.match(m)
    if (back and not _DEICTIC.search(m) and (_TECH.search(c.raw) or _tool_mentions(c.raw))
            and not re.search(r"\b(?:bug|issue|ticket|task|pr|feature|question|problem|page|"
                              r"screen|thing|list|plan)s?\b",
                              " ".join(m[m.index("back to") + 7:].split()[:4]))):
        c.change = True  # "back to plain def handlers": an earlier way, chosen again
        return _Hit(c.raw, "decision", 0.7)
    hit = _everywhere_frame(c)
    if hit is not None:
        return hit
    hit = _np_bullet(c, header)
    return hit


# "the v2 API everywhere", "async all the way down in the new ingest service": a way of working
# named without a verb, with the reach it has; short names may lead it ("field_validator,
# ConfigDict, model_dump, the v2 API everywhere") and a bare "no X" may close it.
_REACH = (r"(?:everywhere|all the way down|throughout|across the (?:board|codebase|code base|"
          r"repo|project))")
_EVERYWHERE = re.compile(
    r"^(?:(?:and|so|also|then)\s+)?(?P<lead>(?:[\w.@/()+-]+(?:\s+[\w.@/()+-]+)?,\s+){0,6})"
    r"(?P<what>[\w.@/+-]+(?:\s+[\w.@/+-]+){0,4}?)(?:\s+please)?,?\s+" + _REACH +
    r"(?:\s+(?:in|for|across)\s+[^,;]{2,60}?)?(?:\s*\([^()]{1,80}\)?)?"
    r"(?:\s*(?:,|;|—|-)\s*no\s+[^,;]{2,60})?$")
_NOT_A_WAY = re.compile(r"^(?:it|this|that|these|those|they|there|here|things?|stuff|errors?|"
                        r"bugs?|typos?|problems?|issues?|warnings?|failures?|mess|crashes|logs?|"
                        r"spam|noise|junk)\b")


def _everywhere_frame(c: _Clause) -> _Hit | None:
    """A way of working named without a verb, with its reach ("the v2 API everywhere, no v1
    leftovers"): the rule is to use it. Not a complaint ("typos everywhere") or a report (a
    verb in it), and it must name something of the craft."""
    found = _EVERYWHERE.match(c.mask)
    if found is None:
        return None
    what = found.group("what")
    if (_NOT_A_WAY.match(what) or what.split()[0] in _PRONOUNS or _DEICTIC.search(c.mask)
            or _REPORT.search(c.mask)
            or re.search(r"\b(?:is|are|was|were|has|have|had|will|would|can|could|might|"
                         r"get|gets|got|keep|keeps|show|shows|pop|pops|appear|appears)\b",
                         c.mask)
            or not names_something_technical(what)):
        return None
    body = re.sub(r"\s+please,?(?=\s)", "", c.raw[found.start("lead"):].strip(), flags=re.I)
    return _Hit(f"use {body}", "convention", 0.7)


_BACK_TO = re.compile(r"^(?:(?:so|ok|okay|then)\s+)?(?:we'?re\s+|we\s+go\s+|let'?s\s+go\s+|"
                      r"going\s+)?back\s+to\s+(?!(?:work|it|you|me|us|that|this|the\s+"
                      r"(?:drawing board|task|issue|question|topic|point))\b)\S+")


# "everything we throw extends RetrywellError", "every handler we add returns a Result": what
# the project makes, described once for every instance.
_WHAT_WE_MAKE = re.compile(
    r"^(?:every|each|all|everything|anything)(?:\s+[a-z_]+){0,2}?\s+(?:that\s+)?(?:we|you)\s+"
    r"(?:throw|raise|return|write|add|create|export|expose|emit|log|store|publish|ship|build|"
    r"define|register|send)\s+(?:(?:always|must|should|has to|have to)\s+)?"
    r"(?P<verb>extends?|implements?|inherits?|derives?|carries|carry|returns?|uses?|has|have|"
    r"goes|go|lives?|includes?|gets?|takes?|wraps?|follows?|starts?|ends?|needs?|is|are)\b"
    r"\s+\S")


# "this repo is pnpm only", "the app is ESM-only": the one tool or form the project allows.
_ONLY_HERE = re.compile(r"^(?:this|our|the)\s+(?:repo|repository|project|codebase|code base|"
                        r"monorepo|package|app|library|lib|service)\s+is\s+(?:an?\s+)?"
                        r"[\w.@/+-]+[- ]only\b")


# "weeks start on Monday here", "tests run in parallel here": how things of a kind are, said
# as the way this project does them (a bare plural subject, a present verb, "here").
_HOUSE_WAY = re.compile(
    r"^(?!(?:things|we|you|they|people|users|customers|folks)\b)[a-z][\w-]*s\s+(?:always\s+)?"
    r"(?:start|begin|end|run|go|live|count|close|open|default|follow|stay|use|get|round|"
    r"sort|wrap)\s+(?!(?:up|out|down|away|wrong|bad)\b)[^,;]{2,60}?\s+here\s*(?=$|[,;:—-])")


def _what_we_make_frame(c: _Clause) -> _Hit | None:
    """A property of everything of a kind the project makes, stated as a description, or the
    one tool the project allows ("this repo is pnpm only")."""
    house = _HOUSE_WAY.match(c.mask)
    if _ONLY_HERE.match(c.mask) or (house and not _REPORT.search(house.group(0))):
        return _Hit(c.raw, "convention", 0.7)
    if not _WHAT_WE_MAKE.match(c.mask) or _REPORT_TAIL.search(c.mask):
        return None
    return _Hit(c.raw, "convention", 0.7)


def find_rules(text: str, *, speaker: Literal["user", "assistant"] = "user") -> list[Rule]:
    """The standing conventions and decisions stated in one message, in order; chatter,
    questions, hypotheticals, reports and one-off requests are left out. An assistant's
    message yields only decisions it commits to, at lower confidence."""
    text = _unlisted(text)
    out: list[Rule] = []
    seen: set[str] = set()
    dropped = ""  # a sentence that only drops something ("so scratch the skip(st) rule.")
    previous = ""
    prev_found: list[Rule] = []  # the rules the sentence before this one stated
    named = ""  # the flag or code the message named last, before this sentence
    requested = False  # the message opened with what someone wants built
    for piece in _pieces(text, topics=speaker == "user"):
        if _NEXT_TASK.match(piece.raw.strip()):
            named = _last_named(piece.raw) or named
            continue  # "feature for shipctl: deploys should get a wait timeout": the work
        if speaker == "user" and _REQUESTED.match(_mask(piece.raw).strip()):
            requested = True
        said = piece.raw
        if piece.context:  # the header it sits under, once (the header's own rest is in it)
            said = piece.context if piece.raw in piece.context else f"{piece.context} {piece.raw}"
        found = _read(piece.raw, piece.header, speaker, piece.change)
        head, colon, rest = piece.raw.partition(": ")
        if colon and rest.strip() and "`" not in head:
            # a lead-in before a colon ("one thing that bugs me: please never log from library
            # code") can hide what follows it from the sentence shapes, and an explanation after
            # it ("...: it's how we found out today") the rule before it: each is read alone too
            for part in ([rest] if len(head.split()) <= 8 else []) + [head]:
                if part.count("(") != part.count(")"):
                    continue  # a colon inside brackets ("(feat:, fix: ...)") is not a lead-in
                alone = _read(part, piece.header, speaker, piece.change)
                topic = _TOPIC_LEAD.search(head) if part is rest else None
                if len(alone) > len(found) or (alone and len(alone) == len(found) and (
                        topic or (part is rest and not names_something_technical(head)
                                  and not _tool_mentions(head)
                                  and not _CHANGE_HEADER.search(head)))):
                    # the same rules without a lead-in that says nothing technical ("a process
                    # change to pass on: we no longer keep CHANGELOG.md by hand")
                    found = alone
                    if topic:  # "about commits: I prefer messages like ...": what it is about
                        found = [_about(r, topic.group("topic")) for r in found]
        peeve = _PEEVE.search(head) if colon and rest.strip() else None
        if (peeve and _TECH.search(rest) and not rest.rstrip().endswith("?")
                and len(_words(_mask(rest))) <= 25):
            # "one thing that bugs me is CLIs that print warnings into stdout: stdout is data
            # only, anything chatty goes to stderr": the rule is after the colon, the complaint
            # before it is why
            rule = _make_rule(_Hit(f"{rest.strip().rstrip('.')}. Not: {peeve.group('what')}.",
                                   "convention", 0.7), _Clause(rest), piece.raw, speaker)
            found = [rule] if rule is not None else found
        lead, colon, _ = piece.context.partition(": ")
        topic = _TOPIC_LEAD.search(lead) if colon and found and piece.raw not in lead else None
        if topic:  # the header this sentence sits under names its topic ("about migrations:")
            found = [_about(r, topic.group("topic")) for r in found]
        why, so, tail = piece.raw.partition(", so ")
        if so and len(why.split()) >= 3 and _SO_STANDING.match(tail):
            # "I got nextest set up and CI runs it, so going forward please run the suite
            # with ...": the rule is what follows "so"; what comes before is why
            alone = _read(tail, piece.header, speaker, piece.change)
            if alone:
                found = [Rule(r.kind, r.text, _clip(piece.raw, MAX_SAID), r.subject, r.terms,
                              r.change, r.replaces, r.confidence) for r in alone]
        first, comma, after = _outside_brackets(piece.raw, ", ")
        if (not found and comma and len(first.split()) >= 4
                and re.match(r"(?:the|it|this|that|which|so|because|since|they|people)\b",
                             after.lower())):
            # a rule, then why after a comma ("we do conventional commits here, the changelog
            # gets generated from them"): the why can hide the rule from the shapes
            found = _read(first, piece.header, speaker, piece.change)
        if dropped and found and all(r.change for r in found):
            said = f"{dropped} {said}"  # the change says what it drops, in the user's words
        elif (previous and found and _SO.match(piece.raw)
              and all(len(_words(_mask(r.text))) <= 4 for r in found)):
            said = f"{previous} {said}"  # "... so please never print.": the why is before it
        if (found and prev_found and out and out[-1] is prev_found[-1] and speaker == "user"
                and len(_words(_mask(out[-1].text))) <= 8
                and re.match(r"(?:they|these|those)\s+(?:all\s+)?[a-z]+", _mask(piece.raw))):
            found = []  # "don't ever unwrap in a handler. they all return Result<_, AppError>
            # and use ?, because ...": what "they" do belongs with the rule before, whole
        if (len(found) == 1 and prev_found and out and out[-1] is prev_found[-1]
                and speaker == "user" and _bare_no(found[0], out[-1])):
            # "find things the way a user would, getByRole, getByLabel. no CSS selectors": what
            # not to do, said right after what to do, belongs with it
            no = found[0]
            out[-1] = _extended(out[-1], f"; {_lower_first(no.text)}", piece.raw,
                                no.terms, no.confidence)
            seen.add(out[-1].text.lower())
            found = []
        if (not found and prev_found and out and out[-1] is prev_found[-1] and speaker == "user"
                and out[-1].change and not _facts(out[-1].text).positive
                and _what_now(piece.raw)):
            # "we no longer keep CHANGELOG.md by hand. goreleaser builds the release notes from
            # the commit subjects now": what replaced the old way, kept with it
            now = _outside_brackets(piece.raw.strip(), ", which ")[0].rstrip(".")
            out[-1] = _extended(out[-1], f": {now}.", piece.raw, frozenset(_term_list(now)))
            seen.add(out[-1].text.lower())
            found = [out[-1]]
        if (not found and prev_found and out and out[-1] is prev_found[-1] and speaker == "user"
                and len(_words(_mask(out[-1].text))) <= 8 and _why_after(piece.raw)):
            # "please never log from library code. a console.warn inside someone's lambda ends
            # up in their logs forever": a short rule and the why right after it, as one rule
            out[-1] = _extended(out[-1], f": {_clip(piece.raw.strip(), 240)}", piece.raw,
                                frozenset(_term_list(piece.raw)))
            seen.add(out[-1].text.lower())
        if requested:  # "wholesale customers want bulk upload. every new order should still
            # get its confirmation email": how the thing asked for behaves
            found = [r for r in found if not _spec_of_request(r)]
        if named:
            found = [_with_referent(r, named) for r in found]
        named = _last_named(piece.raw) or named
        previous = piece.raw.strip()
        dropped = "" if found or not _DROP_ONLY.match(_mask(piece.raw)) else piece.raw.strip()
        prev_found = []
        for rule in found:
            if said != piece.raw:
                rule = Rule(rule.kind, rule.text, _clip(said, MAX_SAID), rule.subject,
                            rule.terms, rule.change, rule.replaces, rule.confidence)
            key = rule.text.lower()
            if key not in seen:
                seen.add(key)
                out.append(rule)
                prev_found.append(rule)
    return [r for r in _joined_same_sentence(_joined_references(_joined_changes(out)))
            if not _feature_spec(r)]


# How one thing the product makes should behave: "the FastAPI title should be 'orderdesk
# API'", "deploy should refuse to start without a token", "when it aborts, retry should stop
# right away". The work asked for, not a way of working.
_ONE_THING_SHOULD = re.compile(
    r"^(?:when [^,]{1,60},\s*)?(?P<subj>the\s+(?:[\w'.-]+\s+){0,3}?[\w'.-]+|`[^`]+`|"
    r"[a-z][\w-]*)\s+(?:should|must|needs? to|has to)\s+(?P<rest>.+)$", re.I)
# A should that keeps something as it is ("the app must stay ESM-only") holds for good.
_HOLDS_ON = re.compile(r"^(?:only|stay|stays|remain|keep|be kept|follow|use|not)\b", re.I)
_WHOLE_PROJECT = re.compile(r"\b(?:api|apis|code|codebase|repo|project|app|library|lib|package|"
                            r"cli|service|style|formatting|config|build|ci|pipeline|"
                            r"changelog|docs|readme|team)$", re.I)


def _feature_spec(rule: Rule) -> bool:
    """Whether ``rule`` only says how one thing of the product should behave, with nothing
    that makes it hold beyond that thing: no "always" or "from now on", no tool named, and its
    subject one thing, not a kind of thing or the whole project."""
    found = _ONE_THING_SHOULD.match(rule.text)
    if found is None:
        return False
    subj = found.group("subj")
    last = subj.split()[-1].strip("`'")
    rest = found.group("rest")
    if any(at >= found.end("subj") for at, _ in _tool_mentions(rule.text)):
        return False  # "the linter should be ruff instead of flake8" is how the team works;
        # a tool in the subject only says whose it is ("the FastAPI title should be ...")
    return not (_is_plural(last) or _WHOLE_PROJECT.search(subj) or _HOLDS_ON.match(rest)
                or _FOR_GOOD.search(rest) or _STANDING_WORDS.search(subj)
                or subj.lower() in _PRONOUNS)


# How the things a product handles should behave ("every new order should still get its
# confirmation email", "refunds must not exceed the order total"), said right after someone
# asked for a feature: its spec. A subject that is code ("every endpoint", "API errors") is
# how the team builds, and stays a rule.
_THING_SHOULD = re.compile(
    r"^(?:(?:every|each|all|any|the|a|an)\s+)?(?:new\s+)?(?P<subj>(?:[\w'-]+\s+){0,2}?[\w'-]+)\s+"
    r"(?:should|must|shouldn'?t|mustn'?t|needs? to|has to|have to|can'?t|cannot)\b", re.I)
_CODE_NOUN = re.compile(
    r"\b(?:endpoints?|routes?|handlers?|tests?|modules?|files?|functions?|class(?:es)?|methods?|"
    r"migrations?|commits?|apis?|components?|columns?|tables?|quer(?:y|ies)|logs?|errors?|"
    r"responses?|requests?|types?|variables?|scripts?|jobs?|tasks?|workers?|packages?|"
    r"dependenc(?:y|ies)|imports?|configs?|flags?|options?|commands?|code|prs?|branch(?:es)?)$",
    re.I)


def _spec_of_request(rule: Rule) -> bool:
    """Whether ``rule`` only says how something the product handles should behave, with
    nothing that makes it hold beyond the feature asked for (no "always", no tool, its subject
    not code)."""
    found = _THING_SHOULD.match(rule.text)
    return bool(found and not _CODE_NOUN.search(found.group("subj"))
                and not _FOR_GOOD.search(rule.text) and not _tool_mentions(rule.text))


# A rule whose object is a bare "one" or "it" ("every command that writes files should have
# one"), and the names a message gives before it (a flag, or code in backticks).
_BARE_OBJECT = re.compile(r"\b(?:have|has|get|gets|add|adds|use|uses|need|needs|support|"
                          r"supports|take|takes|keep|keeps|ship|ships|expose|exposes|run|"
                          r"runs)\s+"
                          r"(?P<it>one|it)\b(?!\s+(?:of|more|that|which|who|is|was)\b)", re.I)
_NAMED_THING = re.compile(r"(?<![\w-])--[a-z][\w-]+|`[^`\n]{2,40}`")


# A tool made part of how the team works: "can we make attw part of the routine?", "add
# shellcheck to CI".
_MADE_ROUTINE = re.compile(
    r"\bmak(?:e|es|ing)\s+(?P<made>[\w@./-]{2,40})\s+(?:a\s+)?part of\b|\badd(?:s|ing)?\s+"
    r"(?P<added>[\w@./-]{2,40})\s+to\s+(?:the\s+|our\s+)?(?:routine|ci|checks|pipeline|"
    r"workflow|release|checklist|pre-commit)\b", re.I)


def _last_named(sentence: str) -> str | None:
    """The flag or code a sentence names last ("ingest needs a --dry-run" -> ``--dry-run``),
    or else the tool it makes part of the routine ("can we make attw part of the routine?" ->
    ``attw``)."""
    found: list[str] = _NAMED_THING.findall(sentence)
    if found:
        return found[-1]
    made = _MADE_ROUTINE.search(sentence)
    return (made.group("made") or made.group("added")) if made else None


def _with_referent(rule: Rule, named: str) -> Rule:
    """``rule`` with what its bare "one" or "it" stands for, when it names nothing itself:
    "every command that writes files should have one" after "ingest needs a --dry-run"
    becomes "... should have one (--dry-run)"."""
    bare = _BARE_OBJECT.search(rule.text)
    if bare is None or _NAMED_THING.search(rule.text[: bare.start()]):
        return rule
    at = bare.end("it")
    return Rule(rule.kind, f"{rule.text[:at]} ({named}){rule.text[at:]}", rule.said,
                rule.subject, rule.terms | frozenset(_term_list(named.strip("`"))), rule.change,
                rule.replaces, rule.confidence)


def _unlisted(text: str) -> str:
    """A list lettered or numbered inside a sentence as clauses: "I'd like you to (a) keep PRs
    small and (b) add screenshots" -> "I'd like you to keep PRs small; add screenshots"."""
    if not (re.search(r"\((?:a|1|i)\)\s", text) and re.search(r"\((?:b|2|ii)\)\s", text)):
        return text
    text = re.sub(r"\s*\((?:a|1|i)\)\s+", " ", text)
    return re.sub(r"\s*,?\s*(?:and\s+|or\s+)?\((?:[b-h]|[2-8]|ii|iii|iv|v)\)\s+", "; ", text)


def _lower_first(text: str) -> str:
    """``text`` to follow a semicolon: its first letter lower case, unless it starts a word
    that keeps its capital ("I", "CI", "TSDoc")."""
    first = re.match(r"[\w']+", text)
    if first and (re.fullmatch(r"I(?:'\w+)?", first.group()) or re.search(
            r"[A-Z]", first.group()[1:])):
        return text
    return text[:1].lower() + text[1:]


def _joined_same_sentence(rules: list[Rule]) -> list[Rule]:
    """Two rules read from one sentence about one subject ("this repo is pnpm only, please
    don't ever run npm or yarn in here") joined: one rule said two ways, kept whole. So are
    what to do and, right after it, what not to do on the same subject ("any logging goes
    through zerolog ... I don't want to see log.Printf in new code"), and a default and the
    option that leaves it ("CSV is the default output; keep parquet behind `--format
    parquet`"): apart, neither says what the other one means."""
    out: list[Rule] = []
    for rule in rules:
        prev = out[-1] if out else None
        if prev is not None and _default_and_option(prev, rule):
            out[-1] = Rule(prev.kind, prev.text.rstrip(".") + "; " + _lower_first(rule.text),
                           rule.said, prev.subject, prev.terms | rule.terms,
                           prev.change or rule.change, prev.replaces or rule.replaces,
                           max(prev.confidence, rule.confidence))
            continue
        if (prev is not None and prev.subject and prev.subject == rule.subject and (
                ((prev.said in rule.said or rule.said in prev.said)
                 and not (prev.change and rule.change))
                or (not (prev.change or rule.change) and _facts(prev.text).positive
                    and not _facts(rule.text).positive))):
            kind: Literal["convention", "decision"] = (
                "decision" if "decision" in (prev.kind, rule.kind) else "convention")
            out[-1] = Rule(kind, prev.text.rstrip(".") + "; " + _lower_first(rule.text), prev.said,
                           prev.subject, prev.terms | rule.terms,
                           prev.change or rule.change, prev.replaces or rule.replaces,
                           max(prev.confidence, rule.confidence))
            continue
        out.append(rule)
    return out


def _default_and_option(prev: Rule, rule: Rule) -> bool:
    """Whether ``rule``, read from the same sentence right after ``prev``, names the option
    that leaves the default ``prev`` sets."""
    return (prev.said != rule.said and prev.said in rule.said
            and re.search(r"\bdefaults?\b", prev.text, re.I) is not None
            and re.search(r"(?<![\w-])--[a-z]", rule.text) is not None
            and re.search(r"(?<![\w-])--[a-z]", prev.text) is None)


def _extended(rule: Rule, more: str, sentence: str, terms: frozenset[str],
              confidence: float = 0.0) -> Rule:
    """``rule`` with ``more`` added to its text (its final full stop dropped first) and
    ``sentence``, the next one the user said, to what it quotes: one rule said over two."""
    return Rule(rule.kind, f"{rule.text.rstrip('.')}{more}",
                _clip(f"{rule.said} {sentence.strip()}", MAX_SAID), rule.subject,
                rule.terms | terms, rule.change, rule.replaces,
                max(rule.confidence, confidence))


def _bare_no(rule: Rule, before: Rule) -> bool:
    """Whether ``rule`` is a short "no X" ("No CSS selectors or nth-child stuff.") that only
    says what to avoid instead of the positive rule ``before`` it, or the places a negative
    rule before it holds ("not in errors, not in debug output, nowhere")."""
    m = _mask(rule.text)
    if rule.change or before.change or len(_words(m)) > 10:
        return False
    if re.match(r"not\s+(?:in|on|at|from|for|even)\s|nowhere\b|never\s+(?:in|on)\s", m):
        # "don't ever print the token. not in errors, not in debug output, nowhere.": where
        # the rule before it holds
        return not _facts(before.text).positive
    return (bool(re.match(r"no\s+(?!more\b|longer\b)", m)) and len(_words(m)) <= 8
            and _facts(before.text).positive)


# A complaint that leads in to a rule: "one thing that bugs me in general is CLIs that ...".
_PEEVE = re.compile(r"\b(?:one thing that|something that|what(?: really)?)\s+(?:bugs|annoys|"
                    r"irritates|bothers|drives me (?:nuts|crazy) about)\s+(?:me\s+)?"
                    r"(?:in general\s+|the most\s+|most\s+)?(?:is|are)\s+(?P<what>.{8,160})$",
                    re.I)


def _what_now(sentence: str) -> bool:
    """Whether a sentence after a rule that stops something says what is done now instead: a
    statement in the present about something technical, marked by "now" ("goreleaser builds
    the release notes from the commit subjects now")."""
    m = _mask(sentence.strip())
    return (bool(re.search(r"\bnow\b", m)) and bool(_TECH.search(sentence) or _tool_mentions(
        sentence)) and not m.endswith("?") and not _QUESTION_START.match(m)
        and not re.match(r"(?:i|i'?ll|i'?m|we'?ll|you|can|could|please|let'?s|so|and|but)\b", m)
        and not re.search(r"\b(?:can you|could you|would you|please|i'?ll|we'?ll)\b", m))


def _why_after(sentence: str) -> bool:
    """Whether a sentence that follows a short rule explains it: a statement about something
    technical (not a question, a request, the next task or chatter)."""
    m = _mask(sentence.strip())
    return len(_words(m)) >= 4 and not m.endswith("?") and bool(_TECH.search(sentence)) and not (
        _QUESTION_START.match(m) or _PLEASANTRY.match(m) or _NEXT_TASK.match(sentence.strip())
        or re.match(r"(?:and|also|plus|but|or|so|i|i'?ve|i'?m|we|we'?ve|we'?re|you)\b", m)
        or re.search(r"\b(?:can you|could you|would you|please|let'?s|anyway|today|now|next|"
                     r"i'?ll|we'?ll|i want|i need|i'?d like)\b", m))


# A lead-in naming what the rule after its colon is about: "oh and about commits: ...".
_TOPIC_LEAD = re.compile(r"(?:^|(?<![\w'’]))(?:(?:about|regarding|re|as for|on the subject of|"
                         r"when it comes to)\s+|"
                         # "for commit messages here:", only with where it holds after it
                         r"for\s+(?=(?:the\s+|our\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:here|"
                         r"in\s+(?:this|the|our)\s+\w+)\s*$))(?:the\s+|our\s+)?"
                         r"(?P<topic>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
                         r"(?:\s+(?:in|for|on)\s+(?:this|the|our)\s+(?:repo|repository|project|"
                         r"codebase|code base|team|app)|\s+here)?\s*$",
                         re.I)


def _about(rule: Rule, topic: str) -> Rule:
    """``rule`` led by the topic it was said about, unless its text names it already."""
    if _stem(topic.split()[-1].lower()) in {_stem(w) for w in _term_list(rule.text)}:
        return rule
    text = f"{topic[:1].upper()}{topic[1:]}: {_lower_first(rule.text)}"
    return Rule(rule.kind, text, rule.said, rule.subject, rule.terms | frozenset(
        _term_list(topic)), rule.change, rule.replaces, rule.confidence)


# What opens a rule drawn from the clause before it: ", so going forward please run ...".
_SO_STANDING = re.compile(r"(?:from now on|going forward|moving forward|from here on|please)\b",
                          re.I)
# A short rule drawn as a conclusion from the sentence before it: "so please never print."
_SO = re.compile(r"^\s*(?:so|thus|hence|which means|that'?s why)\b", re.I)
# A rule that points back at the one before it ("... without one;", "... with it.").
_POINTS_BACK = re.compile(r"\b(?:without|with|for|in|from|like|using|of)\s+(?:one|it|them|"
                          r"that one|those)\s*(?:[;,.!)]|$)")


def _outside_brackets(text: str, sep: str) -> tuple[str, str, str]:
    """``str.partition`` at the first ``sep`` that is not inside brackets."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(sep, i):
            return text[:i], sep, text[i + len(sep):]
    return text, "", ""


def _joined_references(rules: list[Rule]) -> list[Rule]:
    """A rule that only makes sense with the one before it ("every route declares a
    response_model. we don't return bare dicts or ORM rows without one"; "we log through
    structlog. so please never print.") joined to it: one rule, so the second is never shown
    without what "one" is or why."""
    out: list[Rule] = []
    for rule in rules:
        prev = out[-1] if out else None
        if prev is not None and (_POINTS_BACK.search(_mask(rule.text)) or (
                rule.said.startswith(prev.said) and _SO.match(rule.said[len(prev.said):]))):
            said = (rule.said if rule.said.startswith(prev.said) else prev.said
                    if rule.said in prev.said else f"{prev.said} {rule.said}")
            kind: Literal["convention", "decision"] = (
                "decision" if "decision" in (prev.kind, rule.kind) else "convention")
            out[-1] = Rule(kind, prev.text.rstrip(".") + "; " + _lower_first(rule.text),
                           _clip(said, MAX_SAID), prev.subject,
                           prev.terms | rule.terms, prev.change or rule.change,
                           prev.replaces or rule.replaces, max(prev.confidence, rule.confidence))
            continue
        out.append(rule)
    return out


_DROP_ONLY = re.compile(r"(?:so|and|ok|okay|right|also)?[\s,]*(?:scratch|drop|ditch|forget|"
                        r"no more|get rid of|rip out)\b")


def _joined_changes(rules: list[Rule]) -> list[Rule]:
    """A rule that only stops something ("we no longer do stdlib plus go-cmp") joined with the
    rule right after it on the same subject that says what is done now ("new tests use
    testify"): one change, what is done now first, so the old way is never shown without what
    replaced it."""
    out: list[Rule] = []
    i = 0
    while i < len(rules):
        stop = rules[i]
        nxt = rules[i + 1] if i + 1 < len(rules) else None
        if (nxt is not None and stop.change and stop.replaces and stop.subject
                and (stop.subject == nxt.subject or (nxt.change and _stems(stop.terms)
                                                     & _stems(nxt.terms)))
                and not _facts(stop.text).positive
                and _facts(nxt.text).positive and not nxt.replaces):
            # what holds now first: a line cut short for an index still says it
            dropped = re.sub(r"^[^:;]{1,60}:\s+(?=(?:scratch|drop|ditch|rip out|get rid of|"
                             r"no more|stop|(?:we )?no longer|we stop|we don'?t)\b)", "",
                             stop.text, flags=re.I)
            text = nxt.text.rstrip(".") + "; " + _lower_first(dropped)
            said = stop.said if nxt.said in stop.said else f"{stop.said} {nxt.said}"
            kind: Literal["convention", "decision"] = (
                "decision" if "decision" in (stop.kind, nxt.kind) else "convention")
            out.append(Rule(kind, text, _clip(said, MAX_SAID), stop.subject,
                            stop.terms | nxt.terms, True, stop.replaces,
                            max(stop.confidence, nxt.confidence)))
            i += 2
            continue
        out.append(stop)
        i += 1
    return out


_OFFER_VERB = re.compile(r"^(?:drop|remove|replace|switch|move|migrate|use|adopt|revert|"
                         r"go back to|rip out|ditch|pin)\b")


def offered_decision(text: str) -> Rule | None:
    """The decision an assistant's message opens with as a bare imperative, when it names
    something technical ("Drop task_always_eager and run task tests through a real worker:
    ..."): an offer, which becomes a decision only when the user approves it (the caller
    checks that)."""
    pieces = _pieces(text)
    if not pieces:
        return None
    c = _Clause(pieces[0].raw)
    _strip_leads(c)
    if (not c.raw or c.mask.endswith("?") or _HYPOTHETICAL.search(c.mask)
            or not _OFFER_VERB.match(c.mask) or not names_something_technical(c.raw)):
        return None
    return _make_rule(_Hit(c.raw, "decision", 0.55), c, pieces[0].raw, "assistant")


def as_rule(text: str, kind: Literal["convention", "decision"] = "convention") -> Rule:
    """``text`` read as a rule without detecting one: the first rule ``find_rules`` reads in
    it, else the whole first line with its subject and terms (so a memory someone recorded in
    their own words, "The user prefers pnpm over npm", can still be compared with rules)."""
    found = find_rules(text)
    if found:
        return found[0]
    line = " ".join(text.strip().splitlines()[0].split()) if text.strip() else ""
    facts = _facts(line)
    return Rule(kind, line, _clip(line, MAX_SAID), _subject(line, facts),
                frozenset(_term_list(line)), bool(_CHANGE_STATEMENT.search(_mask(line))),
                _replaces(line), MIN_CONFIDENCE)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def _stems(terms: frozenset[str]) -> frozenset[str]:
    return frozenset(_stem(t) for t in terms)


SIMILARITY_THRESHOLD = 0.88
# With an explicit change cue, a closeness in meaning this high is enough to read two rules that
# share a content word as one subject.
CHANGE_SIMILARITY = 0.45


def same_subject(a: Rule, b: Rule, similarity: float | None = None) -> bool:
    """Whether two rules are about the same thing: one tool family or subject phrase, a tool
    both name, enough shared terms, or (when given) a high embedding similarity of their
    texts backed by at least one shared term."""
    if a.subject and a.subject == b.subject:
        return True
    for x, y in ((a, b), (b, a)):
        if x.replaces:
            gone = {_stem(w) for w in _term_list(x.replaces)}
            if gone and gone <= _stems(y.terms):
                return True
    fa, fb = _facts(a.text), _facts(b.text)
    if {t.split()[0] for t in fa.tools} & {t.split()[0] for t in fb.tools}:
        return True
    sa, sb = _stems(a.terms), _stems(b.terms)
    shared = sa & sb
    if len(shared) >= 2 and _jaccard(sa, sb) >= 0.5:
        return True
    return similarity is not None and similarity >= SIMILARITY_THRESHOLD and bool(shared)


def supersedes(new: Rule, old: Rule, similarity: float | None = None) -> bool:
    """Whether ``new`` replaces ``old``: same subject and a contradiction (another tool of the
    same family, the thing ``new`` says it replaces, a reversal, or the same setting with a
    different value). Compatible refinements on one subject do not replace each other."""
    if new.text.lower() == old.text.lower():
        return False
    if _setting_changed(new, old) or _quantity_changed(new, old.text):
        return True
    if not same_subject(new, old, similarity):
        return False
    fn, fo = _facts(new.text), _facts(old.text)
    # 1. new names what it replaces, and old prescribed that
    if new.replaces and fo.positive:
        gone = {_stem(w) for w in _term_list(new.replaces)}
        gone_tools = _tools_in(new.replaces)
        old_prescribed = fo.core | {_stem(t) for t in fo.tools} | {
            _stem(w) for v in fo.values for w in _term_list(v)}  # and its code
        kept = fn.tools - gone_tools
        already = bool(kept) and kept <= fo.tools  # old prescribed what new prescribes too
        if gone and (gone <= old_prescribed or (gone_tools and gone_tools <= fo.tools)) and not (
                fn.tools and fn.tools <= fo.tools and not fn.stop and not gone_tools
        ) and not already:
            return True
    if fn.additive and not new.change:
        return False
    narrower = _narrower(fn, fo, new.subject)
    # 2. another member of the same tool family or style choice
    if (fn.family and fn.family == fo.family and fn.tool and fo.tool and fn.tool != fo.tool
            and fn.positive and fo.positive and fo.tool not in fn.tools and not narrower
            and (fn.ecosystem is None or fo.ecosystem is None or fn.ecosystem == fo.ecosystem)):
        return True
    if (fn.style and fo.style and fn.style[0] == fo.style[0] and fn.style[1] != fo.style[1]
            and fn.positive and fo.positive and not narrower):
        return True
    # 3. a reversal: the same rule, negated or allowed again
    overlap = _jaccard(fn.core, fo.core)
    if fn.positive != fo.positive and fn.core and fo.core and not narrower:
        marked = new.change or fn.permission or fn.stop
        if (marked and overlap >= 0.5) or overlap >= 0.6:
            return True
    # 4. the same setting with another value
    if (fn.values and fo.values and not (fn.values & fo.values) and fn.positive == fo.positive
            and new.subject == old.subject and not narrower):
        qn, qo = fn.core, fo.core
        if (not qn and not qo) or _jaccard(qn, qo) >= 0.6:
            return True
        numbers_n = {v for v in fn.values if re.fullmatch(r"[\d.]+\+?", v)}
        numbers_o = {v for v in fo.values if re.fullmatch(r"[\d.]+\+?", v)}
        if (new.subject in _SETTING_SUBJECTS or new.subject.endswith(" version")) and \
                numbers_n and numbers_o and not (numbers_n & numbers_o):
            return True
    # 5. an explicit change ("now", "instead of", "no longer", "move to") about what reads as
    # the same thing: close in meaning and sharing a content word
    return (new.change and similarity is not None and similarity >= CHANGE_SIMILARITY
            and not fn.additive and bool(_stems(new.terms) & _stems(old.terms)))


_SETTING_NAME = re.compile(r"(?<![\w.-])(msrv|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)(?![\w-])")
_VERSION = re.compile(r"(?<![\w.])(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d)")
_CHANGE_VERB = re.compile(r"\b(?:raise|raised|raising|bump|bumped|bumping|lower|lowered|upgrade|"
                          r"upgraded|downgrade|move|moved|moving|switch|switched|now)\b")


def _setting_changed(new: Rule, old: Rule) -> bool:
    """The same named setting given another version: both name a setting (``rust-version``,
    ``python_requires``, ``MSRV``...) beside version numbers that differ, and ``new`` says so
    with a change ("raise our MSRV to 1.80" after "we keep rust-version = 1.74"), whatever
    subject each rule was filed under."""
    tn, to = new.text.lower(), old.text.lower()
    names = set(_SETTING_NAME.findall(tn)) & set(_SETTING_NAME.findall(to))
    if not names or not (new.change or _CHANGE_VERB.search(tn)):
        return False
    vn, vo = set(_VERSION.findall(tn)), set(_VERSION.findall(to))
    return bool(vn) and bool(vo) and not (vn & vo)


# A quantity with its unit ("2.5 kB", "200 ms", "80 %"), and a change that moves something to
# one ("raise the budget to 2.5 kB", "lower the timeout to 5 s").
_UNITS = (r"(?:[kmgt]i?b|bytes?|b|ms|s|sec(?:onds?)?|min(?:utes?)?|h|hours?|days?|%|percent|"
          r"lines?|chars?|characters?|px|rem|mb/s|rps|qps)")
_QUANTITY = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(" + _UNITS + r")(?![\w/])", re.I)
_MOVED_TO = re.compile(r"\b(?:raise|raised|raising|bump|bumped|lower|lowered|increase|increased|"
                       r"decrease|decreased|reduce|reduced|cut|set|change|changed|move|moved)\b"
                       r"[^.;]{0,60}?\bto\s+(\d+(?:\.\d+)?)\s?(" + _UNITS + r")(?![\w/])",
                       re.I)


def _quantity_changed(new: Rule, old: str) -> bool:
    """A limit moved to another value: ``new`` moves something to a quantity ("raise the budget
    to 2.5 kB") that ``old`` stated otherwise in the same unit ("the README promises 'under
    2 kB'"), and the two share a word besides the numbers and the unit."""
    moved = _MOVED_TO.search(new.text)
    if moved is None:
        return False
    value, unit = float(moved.group(1)), _unit(moved.group(2))
    before = [(float(q), _unit(u)) for q, u in _QUANTITY.findall(old)]
    if not any(u == unit for _, u in before) or any(
            u == unit and q == value for q, u in before):
        return False
    words = {_stem(w) for w in _term_list(new.text) if not re.match(r"[\d.]+$", w)}
    other = {_stem(w) for w in _term_list(old) if not re.match(r"[\d.]+$", w)}
    return len((words & other) - {unit, _stem(unit)}) >= 1


def moves_limit(new: Rule, old: str | None = None) -> bool:
    """Whether ``new`` moves a limit to another value, and (given ``old``, a memory's text) one
    that ``old`` states otherwise: a rule or a gotcha about the old limit no longer holds."""
    if old is None:
        return _MOVED_TO.search(new.text) is not None
    return _quantity_changed(new, old)


def _unit(text: str) -> str:
    low = text.lower()
    return {"byte": "b", "bytes": "b", "sec": "s", "second": "s", "seconds": "s",
            "min": "min", "minute": "min", "minutes": "min", "hours": "h", "hour": "h",
            "percent": "%", "line": "lines", "char": "chars", "character": "chars",
            "characters": "chars", "day": "days"}.get(low, low)


_SETTING_SUBJECTS = frozenset({"line length", "indentation", "coverage", "test timeout",
                               "python", "node", "python version", "node version",
                               # the head nouns of settings moved to a value (_SETTING_MOVED)
                               "budget", "limit", "timeout", "threshold", "cap", "ttl",
                               "quota", "retries", "concurrency", "workers", "size"})


_GENERAL_SCOPE = frozenset({"manag", "management", "handl", "work", "everyth", "everything",
                            "code", "all", "project", "thing", "stuff", "general", "usag",
                            "usage", "purpos"})


def _specific_scopes(fn: _Facts, fo: _Facts, subject: str) -> tuple[set[str], set[str]]:
    """The scope words of two rules that narrow them, leaving out the words that only say
    what the subject is for ("for tests" on a test runner rule, "for HTTP" on a client)."""
    family = fn.family or fo.family or (fn.style[0] if fn.style else "")
    purpose = (_FAMILY_PURPOSE.get(family, frozenset()) | _GENERAL_SCOPE
               | {_stem(w) for w in subject.split()})

    def specific(scope: frozenset[str]) -> set[str]:
        return {w for w in scope if not any(w.startswith(p) or p.startswith(w)
                                            for p in purpose if len(p) >= 2)}

    return specific(fn.scope), specific(fo.scope)


def _overlap(a: set[str], b: set[str]) -> bool:
    return any(x.startswith(y) or y.startswith(x) for x in a for y in b)


def _narrower(fn: _Facts, fo: _Facts, subject: str) -> bool:
    """Whether ``new`` applies only to a part of what ``old`` covered ("for the frontend"), or
    the two cover different parts."""
    extra_new, extra_old = _specific_scopes(fn, fo, subject)
    if extra_new and extra_old:
        return not _overlap(extra_new, extra_old)
    if extra_new:
        return True
    return bool(extra_old and fn.scope and not _overlap(set(fn.scope), set(fo.scope)))


def rule_as_said(sentence: str, kind: Literal["convention", "decision"], *, change: bool,
                 confidence: float) -> Rule:
    """The Rule of a statement the learned sentence detector judged a standing rule: its text is
    the statement whole, as said (no frame above cut it down), with the subject and terms that
    let a later rule about the same thing replace it."""
    text = _clip(sentence, 400)
    return Rule(kind, text, _clip(sentence, MAX_SAID), _subject(text, _facts(text)),
                frozenset(_term_list(text)), change, _replaces(text), confidence)
