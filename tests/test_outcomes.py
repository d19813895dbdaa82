"""Checks from real signals: which commands verify the work, and what their runs said."""

from __future__ import annotations

import pytest

from kenning.outcomes import Check, Result, check_of, read_result, segments

T, TC, L, B, F = "test", "typecheck", "lint", "build", "format"


@pytest.mark.parametrize(("command", "kind", "suite"), [
    # pytest, every spelling
    ("pytest", T, "pytest"),
    ("pytest tests/api -q", T, "pytest"),
    ("py.test -x", T, "pytest"),
    ("python -m pytest", T, "pytest"),
    ("python3 -m pytest -q", T, "pytest"),
    ("python3.12 -X dev -m pytest -x", T, "pytest"),
    (".venv/bin/pytest -q", T, "pytest"),
    ("uv run pytest -q", T, "pytest"),
    ("uv run --frozen --extra dev pytest tests", T, "pytest"),
    ("poetry run pytest", T, "pytest"),
    ("pipenv run pytest", T, "pytest"),
    ("pdm run pytest", T, "pytest"),
    ("coverage run -m pytest", T, "pytest"),
    ("cd app && pytest", T, "pytest"),
    ("cd app; python -m pytest -q", T, "pytest"),
    ("FOO=1 CI=true pytest", T, "pytest"),
    ("time pytest", T, "pytest"),
    ("timeout 60 pytest -q", T, "pytest"),
    ("env CI=1 pytest", T, "pytest"),
    ("pytest | tail -20", T, "pytest"),
    ("python -m pytest -q 2>&1 | tail -5", T, "pytest"),
    ('bash -c "cd api && pytest"', T, "pytest"),
    ("python -m unittest discover", T, "unittest"),
    ("python manage.py test", T, "manage.py test"),
    # project scripts and make-like runners
    ("hatch run test", T, "hatch run test"),
    ("hatch run test:cov", T, "hatch run test:cov"),
    ("npm test", T, "npm test"),
    ("npm t", T, "npm test"),
    ("npm run test", T, "npm test"),
    ("npm run test:unit", T, "npm run test:unit"),
    ("npm run build", B, "npm run build"),
    ("npm run lint", L, "npm run lint"),
    ("yarn test", T, "yarn test"),
    ("yarn lint", L, "yarn lint"),
    ("pnpm test", T, "pnpm test"),
    ("pnpm -r test", T, "pnpm test"),
    ("pnpm --filter api test", T, "pnpm test"),
    ("pnpm typecheck", TC, "pnpm typecheck"),
    ("pnpm test:e2e e2e/full-shifts.spec.ts", T, "pnpm test:e2e"),
    ("bun test", T, "bun test"),
    ("bun run build", B, "bun run build"),
    ("make test", T, "make test"),
    ("make check", T, "make check"),
    ("make lint", L, "make lint"),
    ("make -C backend test", T, "make test"),
    ("make -j4 lint test", T, "make test"),
    ("just test", T, "just test"),
    ("tox", T, "tox"),
    ("tox -e lint", L, "tox -e lint"),
    ("tox -r -e py312", T, "tox -e py312"),
    ("nox -s tests", T, "nox -s tests"),
    ("./gradlew test", T, "gradle test"),
    ("mvn -q verify", T, "mvn verify"),
    # JavaScript runners and their launchers
    ("npx jest", T, "jest"),
    ("npx vitest run", T, "vitest"),
    ("pnpm exec jest test/all.test.ts", T, "jest"),
    ("pnpm vitest run tests/unit/time.test.ts", T, "vitest"),
    ("TZ=UTC pnpm vitest run tests/unit/time.test.ts", T, "vitest"),
    ("bunx vitest", T, "vitest"),
    ("npx playwright test", T, "playwright test"),
    # Go and Rust
    ("go test ./...", T, "go test"),
    ("go test -count=1 ./... && go vet ./...", T, "go test"),
    ("go vet ./...", L, "go vet"),
    ("go build ./cmd/x", B, "go build"),
    ("go build ./... && make test", T, "make test"),
    ("timeout -s KILL 5m go test ./...", T, "go test"),
    ("cargo test", T, "cargo test"),
    ("cargo nextest run", T, "cargo nextest"),
    ("cargo clippy --all-targets -- -D warnings", L, "cargo clippy"),
    ("cargo build --release", B, "cargo build"),
    ("SQLX_OFFLINE=true cargo build", B, "cargo build"),
    ("cargo +1.80 check --all-targets", TC, "cargo check"),
    ("golangci-lint run ./...", L, "golangci-lint"),
    ("go vet ./cmd/export && golangci-lint run ./cmd/export/...", L, "golangci-lint"),
    # linters, type checkers, formatters
    ("ruff check src tests", L, "ruff check"),
    ("uv run ruff check .", L, "ruff check"),
    ("uv run ruff format --check .", F, "ruff format"),
    ("uv run ruff format --check . && uv run mypy && uv run pytest -q", T, "pytest"),
    ("mypy src", TC, "mypy"),
    ("uv sync && uv run mypy", TC, "mypy"),
    ("tsc --noEmit", TC, "tsc"),
    ("npx tsc --noEmit", TC, "tsc"),
    ("pnpm exec tsc --noEmit", TC, "tsc"),
    ("npx tsc --noEmit && npx jest", T, "jest"),
    ("pnpm prisma generate && pnpm typecheck", TC, "pnpm typecheck"),
    ("eslint .", L, "eslint"),
    ("black --check .", F, "black"),
    ("npx prettier --check .", F, "prettier"),
])
def test_checks_are_recognised_in_every_spelling(command: str, kind: str, suite: str) -> None:
    assert check_of(command) == Check(kind, suite)


@pytest.mark.parametrize("command", [
    "git status --short", "git commit -m 'run pytest later'", "git push", "ls -la",
    "ls build/", "grep -rn pytest src", "rg 'make test'", "cat README.md", "echo pytest",
    "curl -s localhost:8000/health", "npm install", "npm ci", "pnpm install", "yarn add jest",
    "uv sync", "pip install -e .", "python -m pip install pytest", "npm run dev", "npm start",
    "uvicorn app:main --port 8000", "python script.py", "python -c 'import pytest'",
    "docker compose up -d db", "make", "make generate", "make migrate", "cargo sqlx prepare",
    "cargo run -- --help", "go run ./cmd/server", "go mod tidy", "pnpm prisma generate",
    "npx --yes @arethetypeswrong/cli --pack .", "cd /tmp/x && yarn add retrywell", "",
    "sqlx migrate run", "alembic upgrade head", "gti status", "cd app",
])
def test_other_commands_are_no_check(command: str) -> None:
    assert check_of(command) is None


def test_suites_hold_no_arguments_or_values() -> None:
    secret = "sk-ant-api03-" + "A" * 40
    for command in (f"API_KEY={secret} pytest tests/test_{secret[:8]}.py",
                    f"make test TOKEN={secret}", f"tox -e py312 -- --token {secret}",
                    f"npm run test -- --token={secret}"):
        check = check_of(command)
        assert check is not None and secret[:8] not in check.suite and "=" not in check.suite


def test_segments_split_chains_and_pipes_but_keep_redirections_and_quotes() -> None:
    assert segments("cd app && FOO='a b' pytest -q 2>&1 | tail -5; echo \"x|y\"") == [
        ["cd", "app"], ["FOO=a b", "pytest", "-q", "2>&1"], ["tail", "-5"], ["echo", "x|y"]]
    assert segments("pytest &> log.txt # run them") == [["pytest", "&>", "log.txt"]]


PYTEST_FAIL = """\
tests/test_ledger.py ..F.........                                  [100%]
=================================== FAILURES ===================================
____________________________ test_isolation_level ______________________________
    def test_isolation_level():
>       assert level == "SERIALIZABLE"
E       AssertionError: assert 'READ COMMITTED' == 'SERIALIZABLE'
=========================== short test summary info ============================
FAILED tests/test_ledger.py::test_isolation_level - AssertionError: assert 'READ...
========================= 1 failed, 13 passed in 0.52s =========================
"""
JEST_FAIL = """\
FAIL test/retry.test.ts
  ● retry › gives up after three attempts
Test Suites: 1 failed, 2 passed, 3 total
Tests:       1 failed, 12 passed, 13 total
Snapshots:   0 total
Time:        1.234 s
Ran all test suites.
"""
JEST_PASS = """\
PASS test/retry.test.ts
Test Suites: 3 passed, 3 total
Tests:       13 passed, 13 total
Snapshots:   0 total
Time:        1.1 s
"""
VITEST_FAIL = """\
 FAIL  tests/unit/time.test.ts > formats dates in UTC
 Test Files  1 failed | 3 passed (4)
      Tests  1 failed | 12 passed (13)
   Start at  10:00:00
   Duration  1.20s
"""
VITEST_PASS = """\
 ✓ tests/unit/time.test.ts (3 tests) 4ms
 Test Files  4 passed (4)
      Tests  13 passed (13)
   Start at  10:00:00
   Duration  1.10s
"""
VITEST_BROKEN_FILE = """\
 FAIL  tests/unit/signup.test.ts [ tests/unit/signup.test.ts ]
Error: Cannot find module './capacity'
 Test Files  1 failed | 2 passed (3)
      Tests  9 passed (9)
"""
GO_FAIL = """\
--- FAIL: TestApplyDiscount (0.00s)
    discount_test.go:21: got 90, want 85
FAIL
FAIL\texample.com/orders/internal/orders\t0.012s
ok  \texample.com/orders/internal/api\t0.031s
FAIL
"""
GO_PASS = """\
ok  \texample.com/orders/internal/api\t0.031s
ok  \texample.com/orders/internal/orders\t(cached)
?   \texample.com/orders/cmd/server\t[no test files]
"""
GO_BUILD_FAIL = """\
# example.com/orders/internal/api
internal/api/list.go:41:9: undefined: keysetCursor
internal/api/list.go:52:2: declared and not used: next
"""
CARGO_PASS = """\
   Compiling logsift v0.3.0 (/work/logsift)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 2.31s
     Running unittests src/lib.rs (target/debug/deps/logsift-1a2b3c)
running 12 tests
test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s
   Doc-tests logsift
running 1 test
test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s
"""
CARGO_FAIL = """\
running 3 tests
test reader::tests::follows_rotation ... FAILED
failures:
    reader::tests::follows_rotation
test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
error: test failed, to rerun pass `--lib`
"""
CARGO_COMPILE_FAIL = """\
   Compiling logsift v0.3.0 (/work/logsift)
error[E0308]: mismatched types
 --> src/reader.rs:40:17
error[E0425]: cannot find value `buf` in this scope
error: could not compile `logsift` (lib) due to 2 previous errors
"""
NEXTEST_FAIL = """\
        FAIL [   0.004s] logsift reader::tests::follows_rotation
     Summary [   0.010s] 13 tests run: 12 passed, 1 failed, 0 skipped
error: test run failed
"""
NEXTEST_PASS = "     Summary [   0.010s] 13 tests run: 13 passed, 0 skipped\n"
CLIPPY_PASS = ("    Checking logsift v0.3.0 (/work/logsift)\n"
               "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.91s\n")
MYPY_FAIL = ("src/ledger/db.py:12: error: Incompatible return value type  [return-value]\n"
             "Found 3 errors in 2 files (checked 18 source files)\n")
RUFF_FAIL = ("src/orderdesk/cache.py:3:8: F401 [*] `redis` imported but unused\n"
             "Found 3 errors.\n[*] 2 fixable with the `--fix` option.\n")
TSC_FAIL = ("src/app/signup/route.ts(14,7): error TS2322: Type 'string' is not assignable to "
            "type 'number'.\nsrc/app/x.ts(3,1): error TS2304: Cannot find name 'y'.\n")
ESLINT_FAIL = ("/work/app/src/a.ts\n  3:10  error  'x' is defined but never used  "
               "no-unused-vars\n\n✖ 5 problems (3 errors, 2 warnings)\n")
MAKE_GO_FAIL = ("go test ./...\n" + GO_FAIL
                + "make: *** [Makefile:12: test] Error 1\n")


@pytest.mark.parametrize(("command", "output", "failed", "code", "ok", "summary"), [
    # pytest
    ("pytest", PYTEST_FAIL, True, 1, False, "1 failed, 13 passed"),
    ("python -m pytest -q", "..............\n14 passed in 0.21s\n", False, None, True,
     "14 passed"),
    ("pytest", "====== 13 passed, 2 warnings in 1.02s (0:00:01) ======\n", False, 0, True,
     "13 passed"),
    ("pytest | tail -3", PYTEST_FAIL, False, None, False, "1 failed, 13 passed"),  # piped
    ("pytest -k nothing", "\n14 deselected in 0.02s\nno tests ran in 0.02s\n", True, 5, None,
     "no tests ran"),
    ("pytest", "ERROR tests/test_a.py - ImportError\n!!!!!!!!!!!!!!!!!!!! Interrupted: 2 errors "
               "during collection !!!!!!!!!!!!!!!!!!!!\n=========== 2 errors in 0.31s =========\n",
     True, 2, False, "2 errors"),
    ("pytest --cov", "14 passed in 0.4s\nFAIL Required test coverage of 90% not reached. "
                     "Total coverage: 85.00%\n", True, 1, False, "coverage below the minimum"),
    ("pytest", "\x1b[32m============ \x1b[32m\x1b[1m14 passed\x1b[0m\x1b[32m in 0.20s\x1b[0m "
               "\x1b[32m============\x1b[0m\n", False, None, True, "14 passed"),
    ("python -m unittest", "....F\n======\nFAIL: test_x\n------\nRan 5 tests in 0.002s\n\n"
                           "FAILED (failures=1)\n", True, 1, False, "5 tests, FAILED (failures=1)"),
    ("python -m unittest", "Ran 5 tests in 0.002s\n\nOK\n", False, None, True, "5 tests, OK"),
    # JavaScript
    ("npx jest", JEST_FAIL, True, 1, False, "1 failed, 12 passed"),
    ("npx jest", JEST_PASS, False, None, True, "13 passed"),
    ("npx vitest run", VITEST_FAIL, True, 1, False, "1 failed, 12 passed"),
    ("npx vitest run", VITEST_PASS, False, None, True, "13 passed"),
    ("npx vitest run", VITEST_BROKEN_FILE, True, 1, False, "1 test files failed"),
    ("npx jest test/none", "No tests found, exiting with code 1\nRun with `--passWithNoTests` "
                           "to exit with code 0\n", True, 1, None, "no tests ran"),
    ("npx mocha", "  12 passing (30ms)\n  1 failing\n\n  1) retry gives up:\n", True, 1, False,
     "1 failed, 12 passed"),
    ("bun test", " 12 pass\n 1 fail\n 30 expect() calls\nRan 13 tests across 2 files. [55ms]\n",
     True, 1, False, "1 failed, 12 passed"),
    ("npx playwright test", "  1 failed\n    [chromium] › e2e/shifts.spec.ts:3:1 › signs up\n"
                            "  12 passed (8.1s)\n", True, 1, False, "1 failed, 12 passed"),
    # Go
    ("go test ./...", GO_FAIL, True, 1, False, "1 failed, 1 ok"),
    ("go test ./...", GO_PASS, False, None, True, "2 ok"),
    ("go test ./cmd/...", "?   \texample.com/orders/cmd/server\t[no test files]\n", False, None,
     None, "no tests ran"),
    ("go build ./...", GO_BUILD_FAIL, True, 1, False, "2 errors"),
    ("go vet ./...", "", False, None, True, "ok"),
    # Rust
    ("cargo test", CARGO_PASS, False, None, True, "13 passed"),
    ("cargo test", CARGO_FAIL, True, 101, False, "1 failed, 2 passed"),
    ("cargo build", CARGO_COMPILE_FAIL, True, 101, False, "2 errors"),
    ("cargo nextest run", NEXTEST_FAIL, True, 100, False, "1 failed, 12 passed"),
    ("cargo nextest run", NEXTEST_PASS, False, None, True, "13 passed"),
    ("cargo clippy --all-targets -- -D warnings", CLIPPY_PASS, False, None, True, "ok"),
    # type checkers, linters, formatters
    ("mypy src", MYPY_FAIL, True, 1, False, "3 errors"),
    ("mypy src", "Success: no issues found in 18 source files\n", False, None, True,
     "no issues"),
    ("ruff check .", RUFF_FAIL, True, 1, False, "3 errors"),
    ("ruff check .", "All checks passed!\n", False, None, True, "all checks passed"),
    ("ruff format --check .", "Would reformat: src/a.py\n1 file would be reformatted, "
                              "17 files already formatted\n", True, 1, False,
     "1 would be reformatted"),
    ("black --check .", "All done! ✨ 🍰 ✨\n18 files would be left unchanged.\n", False, None,
     True, "unchanged"),
    ("pyright", "/work/src/a.py:3:5 - error: x is not defined\n1 error, 0 warnings, "
                "0 informations \n", True, 1, False, "1 error"),
    ("tsc --noEmit", TSC_FAIL, True, 2, False, "2 errors"),
    ("tsc --noEmit", "", False, None, True, "ok"),
    ("eslint .", ESLINT_FAIL, True, 1, False, "3 errors, 2 warnings"),
    ("golangci-lint run", "internal/a.go:3:2: Error return value is not checked (errcheck)\n"
                          "1 issues:\n* errcheck: 1\n", True, 1, False, "1 issue"),
    ("npx prettier --check .", "[warn] src/a.ts\n[warn] Code style issues found in 2 files. "
                               "Run Prettier with --write to fix.\n", True, 1, False,
     "2 files need formatting"),
    # wrappers run something unknown: every runner's summary is looked for
    ("make test", MAKE_GO_FAIL, True, 2, False, "1 failed, 1 ok"),
    ("make test", "cargo test\n" + CARGO_PASS, False, None, True, "13 passed"),
    ("pnpm test", "> app@1.0.0 test /work/app\n> vitest run\n\n" + VITEST_PASS, False, None,
     True, "13 passed"),
    ("npm test", "> jest\n\n" + JEST_FAIL + "npm ERR! Test failed.  See above for more details.\n",
     True, 1, False, "1 failed, 12 passed"),
    ("make lint", "golangci-lint run ./...\nmake: *** [Makefile:20: lint] Error 1\n", True, 2,
     False, "Error 1"),
    ("tox -e py312", "py312: commands[0]> pytest\n" + PYTEST_FAIL
                     + "  py312: FAIL code 1 (3.21=setup[1.10]+cmd[2.11] seconds)\n"
                       "  evaluation failed :( (3.30 seconds)\n", True, 1, False,
     "1 failed, 13 passed"),
    ("mvn test", "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0\n"
                 "[INFO] BUILD FAILURE\n", True, 1, False, "1 failed, 11 passed"),
    # no summary: the exit status decides; no exit status and no summary: no verdict
    ("make check", "", True, 2, False, "exit 2"),
    ("make check", "all good\n", False, None, True, "ok"),
    ("pytest", "", None, None, None, ""),
    # a summary of passes with a failing exit (a later command in the chain failed)
    ("pytest && ./deploy.sh", "14 passed in 0.2s\n", True, 1, False, "14 passed, exit 1"),
])
def test_results_are_read_from_the_runners_own_summary(command: str, output: str,
                                                       failed: bool | None, code: int | None,
                                                       ok: bool | None, summary: str) -> None:
    check = check_of(command)
    assert check is not None
    assert read_result(check, output, failed=failed, exit_code=code) == Result(ok, summary)


def test_only_the_last_four_kilobytes_are_read() -> None:
    noise = "PASSED\n" * 2000  # 14 KB of a verbose run before its summary
    out = "1 failed, 3 passed in 0.1s\n" + noise + "5 passed in 0.3s\n"
    assert read_result(Check(T, "pytest"), out, failed=False, exit_code=None) == Result(
        True, "5 passed")


def test_summaries_never_copy_output_text() -> None:
    secret = "ghp_" + "x" * 36
    out = (f"FAILED tests/test_{secret}.py::test_token - AssertionError: {secret}\n"
           f"======== 1 failed, 2 passed in 0.1s ========\nmake: *** [{secret}] Error 2\n")
    for command in ("pytest", "make test", "npm test", "tox"):
        got = read_result(check_of(command), out, failed=True, exit_code=2)
        assert got.ok is False and secret not in got.summary and "test_" not in got.summary


def test_a_command_that_is_no_check_says_only_its_exit_status() -> None:
    assert read_result(None, "grep: no match", failed=True, exit_code=1) == Result(
        False, "exit 1")
    assert read_result(None, "", failed=False, exit_code=None) == Result(True, "")


def test_a_passing_and_chain_passed_every_check_in_it() -> None:
    """Exit 0 after `a && b && c` means each ran and passed; after `;`, `||` or `&` only the
    check that names the run is known to have passed."""
    from kenning.outcomes import checks_passed

    chain = "uv run ruff format --check . && uv run mypy && uv run pytest -q"
    assert [c.suite for c in checks_passed(chain)] == ["ruff format", "mypy", "pytest"]
    assert [c.suite for c in checks_passed("pytest -q; ruff check .")] == ["pytest"]
    assert [c.suite for c in checks_passed("make lint || true")] == ["make lint"]
    assert [c.suite for c in checks_passed("pytest 2>&1 | tail -5")] == ["pytest"]
    assert [c.suite for c in checks_passed('echo "a; b" && ruff check . && pytest')] == [
        "ruff check", "pytest"]
    assert checks_passed("git status") == []
