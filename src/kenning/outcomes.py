"""Checks: which shell commands verify the work (tests, builds, linters, type checkers,
formatters) and what their runs said.

``check_of`` names the check a command runs, whatever the spelling (``python -m pytest``,
``uv run pytest``, ``cd app && FOO=1 pytest | tail``, ``pnpm test:unit``, ``cargo nextest run``),
with a stable key per suite; ``read_result`` reads the runner's own summary from the end of the
output and settles pass or fail with the exit status. Learning takes its evidence from these
runs alone: a failing ``grep`` says nothing about a memory, a test run that ends green does.

Both are pure. The per-tool hook imports this module for every Bash call, so command parsing uses
plain string operations (``re`` costs a hook process about 5 ms); the regular expressions that
read output are loaded only once a command is known to be a check.
"""

import os

TEST = "test"
TYPECHECK = "typecheck"
LINT = "lint"
BUILD = "build"
FORMAT = "format"
# In a chain of commands the strongest check names the run: a test beats a type check, which
# beats a linter, a build and a formatter.
STRENGTH = {TEST: 5, TYPECHECK: 4, LINT: 3, BUILD: 2, FORMAT: 1}

TAIL = 4096  # how much of the end of a run's output is read


class Check:
    """A command that verifies the work: ``kind`` (test, build, lint, typecheck, format) and
    ``suite``, a key naming the runner and, for scripts and make targets, the target (never
    paths or arguments: it is journalled and compared across runs)."""

    __slots__ = ("kind", "suite")

    def __init__(self, kind: str, suite: str) -> None:
        self.kind = kind
        self.suite = suite

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Check) and (self.kind, self.suite) == (other.kind, other.suite)

    def __hash__(self) -> int:
        return hash((self.kind, self.suite))

    def __repr__(self) -> str:
        return f"Check({self.kind!r}, {self.suite!r})"


class Result:
    """What a check's run said: ``ok`` True (passed), False (failed) or None (no verdict: no
    tests ran, interrupted, nothing to go on), and ``summary``, the runner's counts and words
    (``1 failed, 13 passed``, ``3 errors``, ``ok``), never text copied from the output."""

    __slots__ = ("ok", "summary")

    def __init__(self, ok: bool | None, summary: str) -> None:
        self.ok = ok
        self.summary = summary

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Result) and (self.ok, self.summary) == (other.ok, other.summary)

    def __hash__(self) -> int:
        return hash((self.ok, self.summary))

    def __repr__(self) -> str:
        return f"Result({self.ok!r}, {self.summary!r})"


# --- Reading a command line -------------------------------------------------------------------

_OPERATORS = ("&&", "||", "|&", "|", ";", "&", "\n", "(", ")", "`")


def segments(command: str) -> list[list[str]]:
    """The simple commands of a shell line, each as its words with quotes removed: split at
    ``&&``, ``||``, ``|``, ``;``, ``&``, newlines and parentheses; ``2>&1`` and ``&>`` stay
    words; a ``#`` comment ends the line. Good enough for naming a check, not a shell."""
    out: list[list[str]] = []
    words: list[str] = []
    word: list[str] = []
    started = False  # the current word has begun (it may be an empty quoted string)
    i, n = 0, len(command)

    def end_word() -> None:
        nonlocal started
        if started:
            words.append("".join(word))
            word.clear()
            started = False

    def end_segment() -> None:
        end_word()
        if words:
            out.append(words.copy())
            words.clear()

    while i < n:
        c = command[i]
        if c == "\\" and i + 1 < n:
            if command[i + 1] != "\n":
                word.append(command[i + 1])
                started = True
            i += 2
            continue
        if c == "'":
            j = command.find("'", i + 1)
            j = n if j < 0 else j
            word.append(command[i + 1:j])
            started = True
            i = j + 1
            continue
        if c == '"':
            j = i + 1
            while j < n and command[j] != '"':
                if command[j] == "\\" and j + 1 < n:
                    j += 1
                word.append(command[j])
                j += 1
            started = True
            i = j + 1
            continue
        if c == "#" and not started:
            j = command.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in " \t\r":
            end_word()
            i += 1
            continue
        if c == "&" and (command.startswith(">", i + 1) or (word and word[-1] in "<>")):
            word.append(c)  # 2>&1, &>file: a redirection, not a separator
            started = True
            i += 1
            continue
        op = next((o for o in _OPERATORS if command.startswith(o, i)), None)
        if op is not None:
            end_segment()
            i += len(op)
            continue
        word.append(c)
        started = True
        i += 1
    end_segment()
    return out


def is_assignment(word: str) -> bool:
    """``NAME=value``: an environment assignment before a command (its value may be a secret)."""
    name, eq, _ = word.partition("=")
    return bool(eq) and bool(name) and (name[0].isalpha() or name[0] == "_") and all(
        ch.isalnum() or ch == "_" for ch in name)


def _program(word: str) -> str:
    """``.venv/bin/pytest`` -> ``pytest``; ``vitest@1.6`` -> ``vitest``; ``python3.12`` kept."""
    name = os.path.basename(word) if "/" in word and not word.startswith("@") else word
    if "@" in name[1:]:
        name = name[0] + name[1:].split("@", 1)[0]
    return name


def is_python(program: str) -> bool:
    """``python``, ``python3``, ``python3.12``, ``py``, ``pypy3``: an interpreter."""
    for name in _PYTHONS:
        if program.startswith(name):
            version = program[len(name):]
            if all(c.isdigit() or c == "." for c in version):
                return True
    return False


def _skip_options(words: list[str], i: int, with_value: frozenset[str]) -> int:
    """Index of the first word from ``i`` that is not an option (``with_value`` options take the
    next word as their value; ``--opt=value`` and ``--`` are handled)."""
    while i < len(words):
        w = words[i]
        if w == "--":
            return i + 1
        if not w.startswith("-") or w == "-":
            return i
        i += 2 if w in with_value else 1
    return i


_PYTHONS = ("python", "python3", "py", "pypy", "pypy3")
_NO_VALUE: frozenset[str] = frozenset()
_TIMEOUT_OPTS = frozenset({"-s", "--signal", "-k", "--kill-after"})
_ENV_OPTS = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})
_SUDO_OPTS = frozenset({"-u", "--user", "-g", "--group", "-C", "-D", "-h", "-p", "-r", "-t"})
_NICE_OPTS = frozenset({"-n", "--adjustment"})
_UV_RUN_OPTS = frozenset({
    "--with", "--with-editable", "--with-requirements", "--extra", "--group", "--only-group",
    "--no-group", "--package", "-p", "--python", "--directory", "--project", "--env-file",
    "--index", "--default-index", "--index-url", "--extra-index-url", "-C", "--config-setting",
    "--script", "--cache-dir", "--config-file",
})
_NPX_OPTS = frozenset({"-p", "--package", "-c", "--call", "-w", "--workspace"})
_PNPM_OPTS = frozenset({"--filter", "-F", "-C", "--dir", "--workspace-concurrency",
                        "--reporter", "--loglevel", "--filter-prod", "--prefix", "--cwd"})
_MAKE_OPTS = frozenset({"-C", "--directory", "-f", "--file", "--makefile", "-o", "-W", "-I",
                        "--justfile", "--working-directory", "--dir", "--taskfile"})
_CONDA_RUN_OPTS = frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})
_COVERAGE_RUN_OPTS = frozenset({"--source", "--rcfile", "--include", "--omit", "--context",
                                "--concurrency", "--data-file"})
_TOX_VALUE_OPTS = frozenset({"-c", "--conf", "--root", "--workdir", "-x", "--override",
                             "-f", "--factor", "-m", "--labels", "--installpkg", "-n",
                             "--parallel", "-p", "--hashseed"})
_DOTNET_OPTS = frozenset({"-c", "--configuration", "-f", "--framework", "--filter", "-v",
                          "--verbosity", "-r", "--runtime", "-o", "--output", "-s",
                          "--settings", "-l", "--logger"})

# Runners and tools named by their program, with what they check and the suite they make.
_PROGRAMS: dict[str, tuple[str, str]] = {
    **{p: (TEST, "pytest") for p in ("pytest", "py.test")},
    **{p: (TEST, p) for p in (
        "unittest", "nose2", "nosetests", "ward", "jest", "vitest", "mocha", "ava", "jasmine",
        "karma", "tap", "uvu", "rspec", "phpunit", "pest", "ctest", "cucumber", "behave",
        "tape", "wdio")},
    **{p: (TYPECHECK, p) for p in (
        "mypy", "dmypy", "pyright", "basedpyright", "pytype", "pyre", "tsc", "vue-tsc",
        "svelte-check", "flow")},
    **{p: (LINT, p) for p in (
        "flake8", "pylint", "pyflakes", "pycodestyle", "pydocstyle", "bandit", "eslint",
        "oxlint", "stylelint", "markdownlint", "shellcheck", "hadolint", "staticcheck",
        "revive", "rubocop", "swiftlint", "ktlint", "detekt", "standard", "xo", "vulture",
        "codespell", "yamllint", "actionlint")},
    **{p: (FORMAT, p) for p in (
        "black", "isort", "prettier", "gofmt", "goimports", "gofumpt", "rustfmt",
        "clang-format", "autopep8", "yapf", "blue", "shfmt")},
    **{p: (BUILD, p) for p in ("webpack", "rollup", "tsup", "esbuild", "parcel")},
}
# Programs whose first argument is a subcommand that says what they check.
_SUBCOMMANDS: dict[str, dict[str, tuple[str, str]]] = {
    "go": {"test": (TEST, "go test"), "vet": (LINT, "go vet"), "build": (BUILD, "go build")},
    "cargo": {"test": (TEST, "cargo test"), "t": (TEST, "cargo test"),
              "nextest": (TEST, "cargo nextest"), "clippy": (LINT, "cargo clippy"),
              "build": (BUILD, "cargo build"), "b": (BUILD, "cargo build"),
              "check": (TYPECHECK, "cargo check"), "c": (TYPECHECK, "cargo check"),
              "fmt": (FORMAT, "cargo fmt"), "miri": (TEST, "cargo miri")},
    "ruff": {"check": (LINT, "ruff check"), "format": (FORMAT, "ruff format")},
    "golangci-lint": {"run": (LINT, "golangci-lint")},
    "biome": {"check": (LINT, "biome check"), "lint": (LINT, "biome check"),
              "ci": (LINT, "biome check"), "format": (FORMAT, "biome format")},
    "playwright": {"test": (TEST, "playwright test")},
    "cypress": {"run": (TEST, "cypress run")},
    "deno": {"test": (TEST, "deno test"), "lint": (LINT, "deno lint"),
             "check": (TYPECHECK, "deno check"), "fmt": (FORMAT, "deno fmt")},
    "dotnet": {"test": (TEST, "dotnet test"), "build": (BUILD, "dotnet build"),
               "format": (FORMAT, "dotnet format")},
    "swift": {"test": (TEST, "swift test"), "build": (BUILD, "swift build")},
    "mix": {"test": (TEST, "mix test"), "compile": (BUILD, "mix compile"),
            "format": (FORMAT, "mix format"), "credo": (LINT, "mix credo")},
    "rake": {"test": (TEST, "rake test"), "spec": (TEST, "rake spec")},
    "rails": {"test": (TEST, "rails test")},
    "next": {"build": (BUILD, "next build"), "lint": (LINT, "next lint")},
    "vite": {"build": (BUILD, "vite build")},
    "nuxt": {"build": (BUILD, "nuxt build")},
    "astro": {"build": (BUILD, "astro build"), "check": (TYPECHECK, "astro check")},
    "pre-commit": {"run": (LINT, "pre-commit")},
    "dprint": {"check": (FORMAT, "dprint check")},
    "buf": {"lint": (LINT, "buf lint"), "build": (BUILD, "buf build")},
    "bazel": {"test": (TEST, "bazel test"), "build": (BUILD, "bazel build")},
    "zig": {"build": (BUILD, "zig build")},
}
_NODE_MANAGERS = ("npm", "yarn", "pnpm", "bun")
# Package-manager subcommands that are not scripts.
_PM_BUILTINS = frozenset({
    "install", "i", "ci", "add", "remove", "rm", "uninstall", "update", "up", "upgrade", "init",
    "create", "publish", "pack", "link", "unlink", "outdated", "audit", "info", "view", "why",
    "list", "ls", "config", "set", "cache", "login", "logout", "version", "dedupe", "prune",
    "rebuild", "store", "import", "patch", "start", "dev", "serve", "preview", "help", "env",
    "setup", "fetch", "licenses", "bin", "root", "prefix", "whoami", "doctor", "install-test",
})
_TEST_WORDS = frozenset({"test", "tests", "spec", "specs", "e2e", "unit", "integration",
                         "int", "unittest", "unittests", "pytest", "jest", "vitest"})
_TYPECHECK_WORDS = frozenset({"typecheck", "types", "type", "typing", "tsc", "mypy",
                              "pyright"})
_LINT_WORDS = frozenset({"lint", "linter", "eslint", "stylelint", "clippy", "vet", "ruff",
                         "flake8", "pylint", "staticcheck", "golangci"})
_FORMAT_WORDS = frozenset({"format", "fmt", "prettier", "black", "formatting"})
_BUILD_WORDS = frozenset({"build", "compile", "bundle", "dist"})
_CHECK_WORDS = frozenset({"check", "checks", "verify", "ci", "validate", "precommit",
                          "all"})


def _script_kind(name: str) -> str | None:
    """What a script, make target or task named ``name`` checks (``test:unit`` is a test,
    ``check-types`` a type check, ``format:check`` a formatter, ``make check`` a test run)."""
    parts = [p for p in name.lower().replace(":", " ").replace("-", " ").replace("_", " ")
             .replace(".", " ").replace("/", " ").split()]
    if not parts or len(name) > 40:
        return None
    found = set(parts)
    if found & _TEST_WORDS:
        return TEST
    if found & _TYPECHECK_WORDS or "typecheck" in name.lower().replace("-", ""):
        return TYPECHECK
    if found & _LINT_WORDS:
        return LINT
    if found & _FORMAT_WORDS:
        return FORMAT
    if found & _BUILD_WORDS:
        return BUILD
    if found & _CHECK_WORDS and parts[0] != "all":
        return TEST
    return None


def _safe_name(name: str) -> bool:
    """A script or target name fit for a suite key: short, plain characters, no value."""
    return 0 < len(name) <= 40 and "=" not in name and all(
        c.isalnum() or c in ":_-./" for c in name)


def _script(runner: str, name: str) -> Check | None:
    kind = _script_kind(name) if _safe_name(name) else None
    return Check(kind, f"{runner} {name}") if kind else None


def _targets(runner: str, words: list[str], i: int) -> Check | None:
    """The strongest check among the targets of ``make``-like runners (``make lint test``);
    variable assignments and options are skipped."""
    best: Check | None = None
    while i < len(words):
        w = words[i]
        numeric = words[i + 1].isdigit() if i + 1 < len(words) else False
        if w in _MAKE_OPTS or (w in ("-j", "--jobs", "-l") and numeric):
            i += 2
            continue
        i += 1
        if w.startswith("-") or is_assignment(w):
            continue
        found = _script(runner, w)
        if found and (best is None or STRENGTH[found.kind] > STRENGTH[best.kind]):
            best = found
    return best


def _tox(runner: str, words: list[str], i: int, flag: str, long_flags: tuple[str, ...]
         ) -> Check:
    """``tox`` / ``nox``: a test run unless every named environment or session says otherwise
    (``tox -e lint`` is a linter); the names are part of the suite."""
    names: list[str] = []
    while i < len(words):
        w = words[i]
        i += 1
        if (w == flag or w in long_flags) and i < len(words):
            names += words[i].split(",")
            i += 1
        elif w.startswith(flag) and len(w) > 2 and not w.startswith("--"):
            names += w[2:].split(",")
        elif w.partition("=")[0] in long_flags:
            names += w.partition("=")[2].split(",")
        elif w in _TOX_VALUE_OPTS:
            i += 1
    names = [x for x in names if _safe_name(x)]
    if not names:
        return Check(TEST, runner)
    kinds = [_script_kind(x) or TEST for x in names]
    kind = max(kinds, key=lambda k: STRENGTH[k])
    return Check(kind, f"{runner} {flag} {','.join(names)}")


def _node_manager(pm: str, words: list[str], i: int) -> Check | None:
    """``npm test``, ``npm t``, ``npm run test:unit``, ``yarn test``, ``pnpm lint``, ``pnpm -r
    test``, ``bun run build``, ``pnpm vitest run``, ``yarn workspace api test``..."""
    i = _skip_options(words, i, _PNPM_OPTS | _NPX_OPTS)
    if i >= len(words):
        return None
    sub = words[i]
    if sub in ("exec", "dlx", "x"):  # pnpm exec jest, npm exec -- tsc, bun x vitest
        return _classify(words, _skip_options(words, i + 1, _NPX_OPTS))
    if pm == "yarn" and sub == "workspace":
        return _node_manager(pm, words, i + 2)
    if pm == "yarn" and sub == "workspaces":
        while i < len(words) and words[i] != "run":
            i += 1
        return _node_manager(pm, words, i)
    if pm == "bun" and sub == "test":
        return Check(TEST, "bun test")
    if sub in ("test", "t", "tst") and pm in ("npm", "yarn", "pnpm"):
        return Check(TEST, f"{pm} test")
    if sub in ("run", "run-script", "rum", "urn"):
        i = _skip_options(words, i + 1, _PNPM_OPTS)
        if i >= len(words):
            return None
        sub = words[i]
        if sub == "test" and pm != "bun":
            return Check(TEST, f"{pm} test")
    elif pm == "npm" or sub in _PM_BUILTINS:
        return None
    program = _program(sub)
    if program in _PROGRAMS or program in _SUBCOMMANDS:
        return _classify(words, i)  # pnpm vitest run, yarn tsc, bun run eslint
    return _script(f"{pm} run" if pm in ("npm", "bun") else pm, sub)


def _classify(words: list[str], i: int = 0) -> Check | None:
    """The check one simple command runs, seen through its prefixes and wrappers."""
    while i < len(words):
        w = words[i]
        if is_assignment(w):
            i += 1
            continue
        program = _program(w)
        rest = i + 1
        if program in ("time", "command", "exec", "nohup", "builtin", "caffeinate", "xvfb-run",
                       "chronic", "unbuffer"):
            i = _skip_options(words, rest, _NO_VALUE)
        elif program in ("timeout", "gtimeout"):
            i = _skip_options(words, rest, _TIMEOUT_OPTS) + 1  # and the duration
        elif program in ("nice", "ionice", "stdbuf"):
            i = _skip_options(words, rest, _NICE_OPTS)
        elif program == "env":
            i = _skip_options(words, rest, _ENV_OPTS)
        elif program in ("sudo", "doas"):
            i = _skip_options(words, rest, _SUDO_OPTS)
        elif program == "dotenv":
            i = _skip_options(words, rest, frozenset({"-e", "-f", "-c", "-v"}))
        elif program in ("uv", "poetry", "pipenv", "pdm", "rye", "pixi", "hatch", "pipx",
                         "conda", "mamba", "micromamba") and words[rest:rest + 1] == ["run"]:
            opts = _CONDA_RUN_OPTS if program in ("conda", "mamba", "micromamba") else (
                _UV_RUN_OPTS)
            i = _skip_options(words, rest + 1, opts)
            if program in ("hatch", "pdm", "rye", "pixi", "poetry") and i < len(words):
                name = _program(words[i].split(":")[-1] if program == "hatch" else words[i])
                if name not in _PROGRAMS and name not in _SUBCOMMANDS and not is_python(name) \
                        and name not in ("task", "make", "coverage"):
                    return _script(f"{program} run", words[i])  # a script of the project
        elif program in ("bash", "sh", "zsh", "dash") and words[rest:rest + 1] in (
                ["-c"], ["-lc"], ["-ec"], ["-euc"]) and rest + 1 < len(words):
            return check_of(words[rest + 1])  # sh -c "cd app && pytest"
        elif program in ("uvx", "npx", "bunx", "pnpx"):
            i = _skip_options(words, rest, _NPX_OPTS | frozenset({"--from", "--with"}))
        elif program == "bundle" and words[rest:rest + 1] == ["exec"]:
            i = rest + 1
        elif program == "coverage" and words[rest:rest + 1] == ["run"]:
            i = _skip_options(words, rest + 1, _COVERAGE_RUN_OPTS)  # -m is skipped: its module
        elif is_python(program):
            j = rest
            while j < len(words) and words[j].startswith("-") and words[j] != "-m":
                j += 2 if words[j] in ("-X", "-W") else 1
            if j + 1 < len(words) and words[j] == "-m":
                module = words[j + 1]
                if module == "build":
                    return Check(BUILD, "python -m build")
                if module in ("pip", "venv", "http.server", "json.tool", "pdb"):
                    return None
                words = [module, *words[j + 2:]]
                i = 0
            elif j < len(words) and _program(words[j]) == "manage.py" and \
                    words[j + 1:j + 2] == ["test"]:
                return Check(TEST, "manage.py test")
            else:
                return None
        elif program in ("task", "go-task", "mise", "just", "make", "gmake", "mage"):
            start = rest + 1 if program == "mise" and words[rest:rest + 1] == ["run"] else rest
            runner = {"gmake": "make", "go-task": "task"}.get(program, program)
            return _targets(runner, words, start)
        elif program in ("turbo", "nx", "lerna"):
            j = rest + 1 if words[rest:rest + 1] in (["run"], ["run-many"]) else rest
            names = [words[k + 1] for k in range(j, len(words) - 1)
                     if words[k] in ("-t", "--target", "--targets")]
            if program == "nx" and j < len(words) and ":" in words[j]:
                names.append(words[j].split(":")[1])
            elif j < len(words) and not words[j].startswith("-"):
                names.append(words[j])
            checks = [c for c in (_script(program, x.split(",")[0]) for x in names) if c]
            return max(checks, key=lambda c: STRENGTH[c.kind]) if checks else None
        elif program in ("mvn", "mvnw", "gradle", "gradlew"):
            runner = "mvn" if program.startswith("mvn") else "gradle"
            goals = [x.split(":")[-1] for x in words[rest:] if not x.startswith("-")]
            checks = [c for c in (_script(runner, g) for g in goals) if c]
            return max(checks, key=lambda c: STRENGTH[c.kind]) if checks else None
        elif program in _NODE_MANAGERS:
            return _node_manager(program, words, rest)
        elif program == "tox":
            sub = words[rest:rest + 1]
            start = rest + 1 if sub and sub[0] in ("run", "r", "run-parallel", "p") else rest
            if sub and sub[0] in ("list", "l", "config", "c", "devenv", "d", "quickstart",
                                  "legacy", "le", "depends", "de", "exec", "e"):
                return None
            return _tox("tox", words, start, "-e", ("--env", "--envlist"))
        elif program == "nox":
            return _tox("nox", words, rest, "-s", ("--session", "--sessions"))
        elif program in _SUBCOMMANDS:
            j = rest
            while j < len(words) and (words[j].startswith("+") or words[j] in (
                    "-q", "--quiet", "-v", "--verbose", "--offline", "--locked", "--frozen")):
                j += 1  # cargo +nightly, cargo -q
            table = _SUBCOMMANDS[program]
            if j < len(words) and words[j] in table:
                return Check(*table[words[j]])
            if program == "ruff" and (j >= len(words) or words[j].startswith("-")
                                      or "/" in words[j] or words[j] == "."):
                return Check(LINT, "ruff check")  # before ruff had subcommands
            return None
        elif program in _PROGRAMS:
            kind, suite = _PROGRAMS[program]
            return Check(kind, suite)
        else:
            return None
    return None


def check_of(command: str) -> Check | None:
    """The check ``command`` runs, or None when it runs none (git, ls, grep, installs,
    servers...). In a chain the strongest check names the run (``go build ./... && make test``
    is ``make test``); between checks of one kind, the last."""
    if not command or len(command) > 20_000:
        return None
    best: Check | None = None
    for words in segments(command):
        found = _classify(words)
        if found and (best is None or STRENGTH[found.kind] >= STRENGTH[best.kind]):
            best = found
    return best


def _all_steps_run(command: str) -> bool:
    """Whether every step of a shell line runs when it exits 0: its steps are joined only by
    ``&&`` (pipes within a step), with no ``;``, ``||``, newline or background ``&`` outside
    quotes (``2>&1`` and ``&>`` are redirections)."""
    plain: list[str] = []
    quote = ""
    for c in command:
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        else:
            plain.append(c)
    line = "".join(plain).replace("&&", "  ").replace("2>&1", "    ").replace("&>", "  ")
    return not any(op in line for op in ("||", ";", "\n", "&"))


def checks_passed(command: str) -> list[Check]:
    """The checks a command that exited 0 ran and passed: every check of a chain joined only
    by ``&&`` (and pipes within a step), so ``uv run ruff format --check . && uv run mypy &&
    uv run pytest`` passes the format check and the type check as well as the tests; after
    ``;``, ``||`` or ``&`` only the check that names the run (the others may not have run, or
    have failed)."""
    named = check_of(command)
    if named is None or not _all_steps_run(command):
        return [named] if named is not None else []
    out: list[Check] = []
    for words in segments(command):
        found = _classify(words)
        if found is not None and found not in out:
            out.append(found)
    return out


# --- Reading a run's output -------------------------------------------------------------------

# Which runners' summaries to look for, by the suite (or its first word); any other suite (make,
# npm scripts, tox, just...) runs something unknown and is read with all of them.
_FAMILIES: dict[str, tuple[str, ...]] = {
    "pytest": ("pytest",), "unittest": ("unittest",), "manage.py": ("unittest",),
    "nose2": ("unittest",), "nosetests": ("unittest",),
    **{p: ("js",) for p in ("jest", "vitest", "mocha", "ava", "jasmine", "karma", "tap", "uvu",
                            "playwright", "cypress", "tape", "wdio")},
    "bun test": ("js",), "deno": ("js", "eslint", "tsc"),
    "go": ("go",), "golangci-lint": ("golint", "go"), "staticcheck": ("go",),
    "revive": ("go",),
    "cargo": ("cargo",),
    "mypy": ("mypy",), "dmypy": ("mypy",), "pyright": ("pyright",),
    "basedpyright": ("pyright",), "ruff": ("ruff", "format"), "black": ("format",),
    "isort": ("format",), "prettier": ("prettier",), "flake8": ("flake8",),
    "pyflakes": ("flake8",), "pycodestyle": ("flake8",),
    "tsc": ("tsc",), "vue-tsc": ("tsc",), "svelte-check": ("tsc",),
    "eslint": ("eslint",), "oxlint": ("eslint",), "biome": ("eslint",), "next": ("jsbuild",),
    "vite": ("jsbuild",), "webpack": ("jsbuild",), "tsup": ("jsbuild",),
    "rollup": ("jsbuild",), "rspec": ("rspec",), "phpunit": ("phpunit",), "pest": ("phpunit",),
    "ctest": ("ctest",), "dotnet": ("dotnet",), "mvn": ("jvm",), "gradle": ("jvm",),
}

_WORD = r"(failed|passed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)"


def _pairs(text: str, words: str) -> list[tuple[int, str]]:
    import re

    return [(int(n), w) for n, w in re.findall(r"(\d+) " + words + r"\b", text)]


def _counts(pairs: list[tuple[int, str]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for n, w in pairs:
        w = {"error": "errors", "warning": "warnings", "failures": "failed", "failing": "failed",
             "fail": "failed", "passing": "passed", "pass": "passed"}.get(w, w)
        out[w] = out.get(w, 0) + n
    return out


def _say(counts: dict[str, int], order: tuple[str, ...] = ("failed", "errors", "passed",
                                                             "skipped")) -> str:
    parts = []
    for w in order:
        n = counts.get(w, 0)
        if n:
            parts.append(f"{n} {w[:-1] if w == 'errors' and n == 1 else w}")
    return ", ".join(parts)


# A finding: (where in the output, verdict or None for "no tests ran", summary).
Finding = tuple[int, bool | None, str]


def _read_pytest(text: str) -> list[Finding]:
    import re

    out: list[Finding] = []
    for m in re.finditer(r"^[= ]*((?:\d+ \w+(?:, )?)+) in [\d.]+s\b", text, re.M):
        counts = _counts(_pairs(m.group(1), _WORD))
        if counts.get("failed") or counts.get("errors"):
            out.append((m.start(), False, _say(counts)))
        elif counts.get("passed") or counts.get("xfailed") or counts.get("xpassed"):
            out.append((m.start(), True, _say(counts)))
    for m in re.finditer(r"^[= ]*no tests ran\b", text, re.M):
        out.append((m.start(), None, "no tests ran"))
    for m in re.finditer(r"^[!= ]*Interrupted: (\d+) errors? during collection", text, re.M):
        n = int(m.group(1))
        out.append((m.start(), False, f"{n} error{'s' if n > 1 else ''}"))
    for m in re.finditer(r"^FAIL Required test coverage of [\d.]+% not reached", text, re.M):
        out.append((m.start(), False, "coverage below the minimum"))
    return out


def _read_unittest(text: str) -> list[Finding]:
    import re

    out: list[Finding] = []
    ran = re.search(r"^Ran (\d+) tests? in", text, re.M)
    if not ran:  # a bare OK or FAILED line says nothing without unittest's count above it
        return []
    total = f"{ran.group(1)} tests, "
    for m in re.finditer(r"^(OK|FAILED)\b(?: \(((?:[a-z ]+=\d+(?:, )?)+)\))?\s*$", text, re.M):
        detail = f" ({m.group(2)})" if m.group(2) else ""
        if ran.group(1) == "0" and m.group(1) == "OK":
            out.append((m.start(), None, "no tests ran"))
        else:
            out.append((m.start(), m.group(1) == "OK", f"{total}{m.group(1)}{detail}"))
    for m in re.finditer(r"^NO TESTS RAN\b", text, re.M):
        out.append((m.start(), None, "no tests ran"))
    return out


def _read_js(text: str) -> list[Finding]:
    import re

    out: list[Finding] = []
    tests: list[Finding] = []  # jest's "Tests:" line, vitest's "Tests" line
    for m in re.finditer(r"^\s*Tests:?\s+((?:\d+ \w+\s*[,|]?\s*)+)(?:\(\d+\))?\s*$", text,
                         re.M):
        counts = _counts(_pairs(m.group(1), r"(failed|passed|skipped|todo)"))
        if counts.get("failed"):
            tests.append((m.start(), False, _say(counts)))
        elif counts.get("passed"):
            tests.append((m.start(), True, _say(counts)))
    out += tests
    for m in re.finditer(r"^\s*(?:Test Suites:|Test Files)\s+(.*)$", text, re.M):
        files_failed = _counts(_pairs(m.group(1), r"(failed|passed)")).get("failed", 0)
        if files_failed and not any(v is False for _, v, _ in tests):
            # a suite that failed to load: its tests never ran, the Tests line shows no failure
            out.append((len(text), False, f"{files_failed} test files failed"))
    for pattern in (r"^\s*(\d+) (passing|failing)\b",  # mocha
                    r"^ {2}(\d+) (failed|passed|flaky)(?: \([\d.]+m?s\))?$"):  # playwright
        lines = list(re.finditer(pattern, text, re.M))
        counts = _counts([(int(m.group(1)), m.group(2)) for m in lines])
        if counts.get("failed"):
            out.append((lines[-1].start(), False, _say(counts)))
        elif counts.get("passed") or counts.get("flaky"):
            out.append((lines[-1].start(), True, _say(counts, ("passed", "flaky"))))
    bun = _counts(_pairs("\n".join(re.findall(r"^ *(\d+ (?:pass|fail))$", text, re.M)),
                         r"(pass|fail)"))
    if re.search(r"^Ran \d+ tests? across", text, re.M) and bun:
        at = text.rfind("Ran ")
        out.append((at, not bun.get("failed"), _say(bun)))
    for m in re.finditer(r"^(ok|FAILED) \| (\d+) passed[^|\n]*\| (\d+) failed", text, re.M):
        counts = {"passed": int(m.group(2)), "failed": int(m.group(3))}  # deno
        out.append((m.start(), m.group(1) == "ok", _say(counts)))
    for m in re.finditer(r"^\s*(\d+) tests? (passed|failed)\s*$", text, re.M):  # ava
        out.append((m.start(), m.group(2) == "passed", f"{m.group(1)} {m.group(2)}"))
    for m in re.finditer(r"^No tests? (?:files )?found", text, re.M):
        out.append((m.start(), None, "no tests ran"))
    return out


def _read_go(text: str) -> list[Finding]:
    import re

    def last(pattern: str) -> tuple[int, int]:
        """How many lines match, and where the last one starts (-1 when none)."""
        found = [m.start() for m in re.finditer(pattern, text, re.M)]
        return len(found), (found[-1] if found else -1)

    failed_tests, at_test = last(r"^\s*--- FAIL: ")
    failed_pkgs, at_pkg = last(r"^FAIL\t\S+")  # go separates its columns with tabs
    bare_fail, at_bare = last(r"^FAIL\s*$")
    panics, at_panic = last(r"^panic: ")
    ran, at_ok = last(r"^ok\s+\S+\t(?!.*\[no tests to run\]).*$")
    empty, at_empty = last(r"^(?:ok|\?)\s+\S+\t.*\[no test(?:s to run| files)\]")
    compile_errors, at_error = last(r"^(?:vet: )?\S+\.go:\d+:\d+: ")
    if failed_tests or failed_pkgs or bare_fail or panics:
        fails = failed_tests or failed_pkgs or 1
        summary = f"{fails} failed" + (f", {ran} ok" if ran else "")
        return [(max(at_test, at_pkg, at_bare, at_panic), False, summary)]
    if compile_errors:
        return [(at_error, False, f"{compile_errors} error{'s' if compile_errors > 1 else ''}")]
    if ran:
        return [(at_ok, True, f"{ran} ok")]
    if empty:
        return [(at_empty, None, "no tests ran")]
    return []


def _read_cargo(text: str) -> list[Finding]:
    import re

    out: list[Finding] = []
    results = re.findall(r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed", text, re.M)
    if results:
        passed = sum(int(p) for _, p, _ in results)
        failed = sum(int(f) for _, _, f in results)
        bad = any(r == "FAILED" for r, _, _ in results)
        counts = {"failed": failed, "passed": passed}
        if bad or failed:
            out.append((text.rfind("test result:"), False, _say(counts) or "FAILED"))
        elif passed:
            out.append((text.rfind("test result:"), True, _say(counts)))
        else:
            out.append((text.rfind("test result:"), None, "no tests ran"))
    for m in re.finditer(r"^\s*Summary \[[^\]]*\]\s+(\d+) tests? run: (.*)$", text, re.M):
        counts = _counts(_pairs(m.group(2), r"(passed|failed|skipped|timed out)"))
        if counts.get("failed") or counts.get("timed out"):
            counts["failed"] = counts.get("failed", 0) + counts.pop("timed out", 0)
            out.append((m.start(), False, _say(counts)))
        elif counts.get("passed"):
            out.append((m.start(), True, _say(counts)))
        else:
            out.append((m.start(), None, "no tests ran"))
    could_not = re.search(r"^error: could not compile .*?(?:due to (\d+) previous errors?)?"
                          r"(?:;.*)?$", text, re.M)
    codes = len(re.findall(r"^error\[E\d{4}\]: ", text, re.M))
    if could_not:
        n = int(could_not.group(1)) if could_not.group(1) else codes
        out.append((could_not.start(), False,
                    f"{n} error{'s' if n > 1 else ''}" if n else "could not compile"))
    elif codes:
        out.append((text.find("error["), False, f"{codes} error{'s' if codes > 1 else ''}"))
    elif re.search(r"^error: test run failed", text, re.M) and not out:
        out.append((text.rfind("error: test run failed"), False, "FAILED"))
    if not out:
        done = re.search(r"^\s*Finished\b.*\btargets?\b", text, re.M)
        if done:
            out.append((done.start(), True, "ok"))
    return out


def _read_static(text: str, families: tuple[str, ...]) -> list[Finding]:
    """Type checkers, linters, formatters and builders."""
    import re

    out: list[Finding] = []

    def add(pattern: str, verdict: bool | None, summary: str, *, weak: bool = False) -> None:
        """Each match of ``pattern`` as a finding; a ``weak`` one (a wrapper's word, with no
        counts) ranks below every other finding, whatever its place in the output."""
        for m in re.finditer(pattern, text, re.M):
            at = m.start() - len(text) - 1 if weak else m.start()
            out.append((at, verdict, summary.format(*m.groups())))

    def errors(n: int, word: str = "error") -> str:
        return f"{n} {word}{'s' if n != 1 else ''}"

    if "mypy" in families or "ruff" in families or "tsc" in families or "eslint" in families:
        for m in re.finditer(r"^Found (\d+) errors?\b(?: in \d+ files?)?(?: \((\d+) fixed, "
                             r"(\d+) remaining\))?", text, re.M):
            left = int(m.group(3)) if m.group(3) is not None else int(m.group(1))
            out.append((m.start(), left == 0, errors(left)))
    if "mypy" in families:
        add(r"^Success: no issues found", True, "no issues")
    if "pyright" in families:
        for m in re.finditer(r"^(\d+) errors?, (\d+) warnings?, (\d+) (?:informations?|notes?)",
                             text, re.M):
            n = int(m.group(1))
            out.append((m.start(), n == 0, errors(n)))
    if "ruff" in families:
        add(r"^All checks passed!", True, "all checks passed")
    if "format" in families or "ruff" in families:
        for m in re.finditer(r"^(?:Oh no! .*\n)?(\d+) files? would be reformatted", text, re.M):
            out.append((m.start(), False, f"{m.group(1)} would be reformatted"))
        for m in re.finditer(r"^(\d+) files? failed to reformat", text, re.M):
            out.append((m.start(), False, f"{m.group(1)} failed to reformat"))
        if not out:
            add(r"^(?:All done! .*\n)?(?:\d+ files? reformatted, )?(\d+) files? "
                r"(?:would be left unchanged|left unchanged|already formatted)", True,
                "unchanged")
    if "prettier" in families:
        add(r"Code style issues found in (\d+) files?", False, "{0} files need formatting")
        add(r"All matched files use Prettier code style", True, "formatted")
    if "flake8" in families:
        n = len(re.findall(r"^\S+:\d+:\d+: [A-Z]+\d+ ", text, re.M))
        if n:
            out.append((len(text), False, errors(n)))
    if "tsc" in families:
        n = len(re.findall(r"error TS\d+:", text))
        if n and not any(v is False for _, v, _ in out):
            out.append((len(text), False, errors(n)))
    if "eslint" in families:
        for m in re.finditer(r"(\d+) problems? \((\d+) errors?, (\d+) warnings?\)", text):
            n, w = int(m.group(2)), int(m.group(3))
            out.append((m.start(), n == 0, errors(n) + (f", {errors(w, 'warning')}" if w
                                                          else "")))
    if "golint" in families:
        for m in re.finditer(r"^(\d+) issues?[.:]?\s*$", text, re.M):
            n = int(m.group(1))
            out.append((m.start(), n == 0, errors(n, "issue")))
    if "jsbuild" in families:
        add(r"Failed to compile|^error during build|^Build failed|compiled with \d+ errors?",
            False, "FAILED")
        add(r"Compiled successfully|^✓ built in|Build success in|compiled successfully",
            True, "ok")
    if "rspec" in families:
        for m in re.finditer(r"^(\d+) examples?, (\d+) failures?", text, re.M):
            n, f = int(m.group(1)), int(m.group(2))
            out.append((m.start(), f == 0, _say({"failed": f, "passed": n - f})))
    if "phpunit" in families:
        add(r"^OK \((\d+) tests?, \d+ assertions?\)", True, "{0} passed")
        for m in re.finditer(r"^Tests: (\d+), Assertions: \d+(?:, Errors: (\d+))?, "
                             r"Failures: (\d+)", text, re.M):
            out.append((m.start(), False, _say({"failed": int(m.group(3)),
                                                "errors": int(m.group(2) or 0)})))
    if "ctest" in families:
        for m in re.finditer(r"(\d+)% tests passed, (\d+) tests? failed out of (\d+)", text):
            f, t = int(m.group(2)), int(m.group(3))
            out.append((m.start(), f == 0, _say({"failed": f, "passed": t - f})))
    if "dotnet" in families:
        for m in re.finditer(r"^\s*(Passed|Failed)!\s+- Failed:\s+(\d+), Passed:\s+(\d+)", text,
                             re.M):
            out.append((m.start(), m.group(1) == "Passed",
                        _say({"failed": int(m.group(2)), "passed": int(m.group(3))})))
        add(r"^Build FAILED\.", False, "FAILED", weak=True)
        add(r"^Build succeeded\.", True, "ok", weak=True)
    if "jvm" in families:
        for m in re.finditer(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+)", text):
            t, f, e = (int(x) for x in m.groups())
            out.append((m.start(), f + e == 0, _say({"failed": f, "errors": e,
                                                     "passed": t - f - e})))
        add(r"BUILD (?:FAILED|FAILURE)", False, "FAILED", weak=True)
        add(r"BUILD SUCCESS(?:FUL)?", True, "ok", weak=True)
    if "npm" in families:  # what wrappers say when the script they ran failed
        add(r"^(?:npm ERR!|npm error) (?:Test failed|code ELIFECYCLE|Lifecycle script)|"
            r"ERR_PNPM_\w+|^error Command failed with exit code \d+|ELIFECYCLE", False,
            "FAILED", weak=True)
        add(r"^(?:g?make)(?:\[\d+\])?: \*\*\* .*?Error (\d+)", False, "Error {0}", weak=True)
        add(r"^error: Recipe `[^`]*` failed .*?exit code (\d+)", False, "Error {0}", weak=True)
        add(r"^\s*\S+: OK \([\d.]+=", True, "OK", weak=True)  # tox 4, per environment
        add(r"^\s*\S+: FAIL code \d+ \([\d.]+=", False, "FAIL", weak=True)
        add(r"^\s*congratulations :\)", True, "ok", weak=True)
        add(r"^\s*evaluation failed :\(|^ERROR:\s+\S+: commands failed", False, "FAILED",
            weak=True)
        add(r"^nox > Session \S+ was successful", True, "ok", weak=True)
        add(r"^nox > Session \S+ failed", False, "FAILED", weak=True)
    return out


_READERS = {"pytest": _read_pytest, "unittest": _read_unittest, "js": _read_js, "go": _read_go,
            "cargo": _read_cargo}
_ALL = ("pytest", "unittest", "js", "go", "cargo", "mypy", "pyright", "ruff", "format",
        "prettier", "tsc", "eslint", "golint", "jsbuild", "rspec", "phpunit", "ctest", "dotnet",
        "jvm", "npm")


def _findings(text: str, families: tuple[str, ...]) -> list[Finding]:
    out: list[Finding] = []
    for family in families:
        reader = _READERS.get(family)
        if reader:
            out += reader(text)
    out += _read_static(text, families)
    return out


def _tail(output: str) -> str:
    text = output[-TAIL:]
    if "\x1b" in text or "\r" in text:
        import re

        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
        text = "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))
    return text


def read_result(check: Check | None, output: str, *, failed: bool | None,
                exit_code: int | None) -> Result:
    """What a run of ``check`` said, from the runner's summary in the last 4 KB of ``output``
    and the exit status (``failed``, or ``exit_code`` when known).

    A summary that reports failures wins over a zero exit (``pytest | tail`` exits with tail's
    status); otherwise the exit status decides when there is one, and the summary when there
    is not. "No tests ran" (pytest's exit 5, an empty ``go test``) is no verdict."""
    bad = (exit_code != 0) if exit_code is not None else failed
    exit_words = f"exit {exit_code}" if exit_code is not None else "FAILED"
    if check is None:
        return Result(None if bad is None else not bad, "" if not bad else exit_words)
    if check.suite == "pytest" and exit_code == 5:
        return Result(None, "no tests ran")
    family = _FAMILIES.get(check.suite) or _FAMILIES.get(check.suite.split()[0], _ALL)
    findings = _findings(_tail(output), family) if output else []
    failures = [f for f in findings if f[1] is False]
    if failures:
        return Result(False, max(failures)[2])
    passes = [f for f in findings if f[1] is True]
    empty = [f for f in findings if f[1] is None]
    if empty and not passes:
        return Result(None, max(empty)[2])
    if bad is None:
        return Result(True, max(passes)[2]) if passes else Result(None, "")
    if passes:
        said = max(passes)[2]
        return Result(not bad, f"{said}, {exit_words}" if bad else said)
    return Result(not bad, exit_words if bad else "ok")
