"""Dev stories built from real public Python material: instruction files (CLAUDE.md, AGENTS.md,
Cursor rules, CONTRIBUTING.md) and their git history, issue threads, PR reviews and CI logs of
pydantic/logfire, 567-labs/instructor, huggingface/smolagents, huggingface/lerobot and
OpenHands/OpenHands. People's names are replaced by placeholders; the rules keep the authors'
words."""

from __future__ import annotations

from replaykit.story import (
    Bash,
    Commit,
    Edit,
    Probe,
    Project,
    Read,
    Say,
    Session,
    Story,
    User,
    Write,
    lesson,
)

# ---------------------------------------------------------------------------------------------
# 1. pydantic/logfire: the Python SDK of an observability platform (uv, pytest, inline-snapshot)
# ---------------------------------------------------------------------------------------------

LOGFIRE = Project("logfire", "python", {
    "pyproject.toml": (
        '[project]\nname = "logfire"\nversion = "4.3.0"\nrequires-python = ">=3.9"\n'
        'dependencies = ["opentelemetry-sdk>=1.35", "protobuf>=4.23", "rich>=13.4.2"]\n\n'
        '[dependency-groups]\ndev = ["pytest>=8", "inline-snapshot>=0.19", "dirty-equals",'
        ' "anyio", "coverage[toml]", "pyright", "ruff"]\n\n'
        '[tool.ruff.lint]\nselect = ["E4", "E7", "E9", "F"]\n'
        'extend-select = ["Q", "RUF100", "C90", "UP", "I", "D", "TID251"]\n\n'
        '[tool.coverage.report]\nskip_covered = true\nshow_missing = true\n'
    ),
    "Makefile": (
        ".PHONY: format lint typecheck docs\n\nformat:\n\tuv run ruff format\n"
        "\tuv run ruff check --fix\n\nlint:\n\tuv run ruff format --check\n"
        "\tuv run ruff check\n\ntypecheck:\n\tuv run pyright\n\ndocs:\n"
        "\tuv run mkdocs build\n"
    ),
    "logfire/__init__.py": (
        '"""Logfire is the observability tool focused on developer experience."""\n\n'
        "from ._internal.main import Logfire\n\nDEFAULT_LOGFIRE_INSTANCE = Logfire()\n"
        "span = DEFAULT_LOGFIRE_INSTANCE.span\ninfo = DEFAULT_LOGFIRE_INSTANCE.info\n"
        "warn = DEFAULT_LOGFIRE_INSTANCE.warn\n\n__all__ = ['Logfire', 'span', 'info', 'warn']\n"
    ),
    "logfire/_internal/main.py": (
        "class Logfire:\n    def span(self, msg_template, /, **attributes):\n"
        "        return self._span(msg_template, attributes)\n\n"
        "    def info(self, msg_template, /, **attributes):\n"
        "        self.log('info', msg_template, attributes)\n\n"
        "    def warn(self, msg_template, /, **attributes):\n"
        "        self.log('warn', msg_template, attributes)\n"
    ),
    "logfire-api/logfire_api/__init__.py": (
        "# No-op shim: keep in sync with the public API of `logfire`.\n\n"
        "def span(*args, **kwargs):\n    return _NoopSpan()\n\n"
        "def info(*args, **kwargs): ...\n\ndef warn(*args, **kwargs): ...\n"
    ),
    "tests/test_logfire.py": (
        "from inline_snapshot import snapshot\n\nimport logfire\n"
        "from logfire.testing import TestExporter\n\n\n"
        "def test_info(exporter: TestExporter):\n    logfire.info('hi {x}', x=1)\n"
        "    assert exporter.exported_spans_as_dict(parse_json_attributes=True) == snapshot()\n"
    ),
    "tests/test_logfire_api.py": (
        "import logfire\nimport logfire_api\n\n\ndef test_public_api_matches():\n"
        "    missing = set(logfire.__all__) - set(dir(logfire_api))\n"
        "    assert not missing, missing\n"
    ),
    ".github/workflows/main.yml": (
        "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        "    strategy:\n      matrix:\n        python-version: ['3.9', '3.10', '3.11', '3.12', "
        "'3.13']\n        pydantic-version: ['latest', '2.4']\n"
        "  coverage:\n    needs: [test]\n    steps:\n      - run: uv run coverage combine\n"
        "      - run: uv run coverage report --fail-under 100\n"
        "  check:\n    needs: [test, coverage]\n    steps:\n"
        "      - uses: re-actors/alls-green@release/v1\n"
    ),
    "docs/guides/advanced/sampling.md": (
        "# Sampling\n\nSampling keeps a fraction of traces.\n\n"
        "Configure head sampling with `SamplingOptions(head=0.3)`.\n"
    ),
})

LOGFIRE_SNAPSHOT_FIX = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.12.8, pytest-8.3.4, pluggy-1.5.0\n"
    "rootdir: /home/dev/logfire\nconfigfile: pyproject.toml\n"
    "plugins: inline-snapshot-0.19.3, anyio-4.8.0, recording-0.13.2\n"
    "collected 1412 items / 1410 deselected / 2 selected\n\n"
    "tests/test_logfire.py ..                                                 [100%]\n\n"
    "═════════════════════════════════ inline-snapshot ══════════════════════════════════\n"
    "╭───────────────────────────── tests/test_logfire.py ─────────────────────────────╮\n"
    "│ @@ -12,7 +12,21 @@                                                                │\n"
    "│ -    assert exporter.exported_spans_as_dict(parse_json_attributes=True) ==      │\n"
    "│ snapshot()                                                                      │\n"
    "│ +    assert exporter.exported_spans_as_dict(parse_json_attributes=True) ==      │\n"
    "│ snapshot(                                                                       │\n"
    "│ +        [{'name': 'hi {x}', 'context': {'trace_id': 1, 'span_id': 1, ...}}]    │\n"
    "╰─────────────────────────────────────────────────────────────────────────────────╯\n"
    "These changes will be applied, because you used --inline-snapshot=fix\n"
    "====================== 2 passed, 1410 deselected in 1.21s ======================="
)

LOGFIRE_API_FAIL = (
    "============================= test session starts ==============================\n"
    "collected 3 items\n\n"
    "tests/test_logfire_api.py F..                                            [100%]\n\n"
    "=================================== FAILURES ===================================\n"
    "___________________________ test_public_api_matches ____________________________\n\n"
    "    def test_public_api_matches():\n"
    "        missing = set(logfire.__all__) - set(dir(logfire_api))\n"
    ">       assert not missing, missing\n"
    "E       AssertionError: {'notice'}\n"
    "E       assert not {'notice'}\n\n"
    "tests/test_logfire_api.py:7: AssertionError\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_logfire_api.py::test_public_api_matches - AssertionError: {'notice'}\n"
    "========================= 1 failed, 2 passed in 0.88s =========================="
)

MKDOCS_OK = (
    "INFO    -  Cleaning site directory\n"
    "INFO    -  Building documentation to directory: /home/dev/logfire/site\n"
    "WARNING -  griffe: logfire/_internal/main.py:1204: No type or annotation for parameter "
    "'**attributes'\n"
    "WARNING -  Doc file 'guides/advanced/sampling.md' contains a link "
    "'../../reference/api/sampling.md#logfire.sampling.SamplingOptions', but the doc "
    "'reference/api/sampling.md' does not contain an anchor "
    "'#logfire.sampling.SamplingOptions'.\n"
    "WARNING -  Excluding 'README.md' from the site because it conflicts with 'index.md'.\n"
    "INFO    -  Documentation built in 48.37 seconds"
)

PYDANTIC_24_FAIL = (
    "X test (3.12, 2.4) in 3m41s (ID 41822619377)\n"
    "  ✓ Set up job\n  ✓ uv sync --python 3.12\n  ✓ uv pip install pydantic==2.4\n"
    "  X uv run pytest\n"
    "FAILED tests/test_notice.py::test_notice_with_model - TypeError: "
    "BaseModel.model_dump() got an unexpected keyword argument 'serialize_as_any'\n"
    "==== 1 failed, 1409 passed, 26 skipped, 2 xfailed in 94.12s (0:01:34) ====\n"
    "##[error]Process completed with exit code 1.\n"
    "✓ test (3.12, latest) in 3m12s\n✓ test (3.9, latest) in 3m55s\n"
    "X check in 4s\n  X Decide whether the needed jobs succeeded or failed\n"
    "##[error]Some of the required to succeed jobs failed: test"
)

COVERAGE_FAIL = (
    "X coverage in 1m02s (ID 43190077214)\n"
    "  ✓ uv run coverage combine coverage\n"
    "  X uv run coverage report --fail-under 100\n"
    "Name                                   Stmts   Miss Branch BrPart  Cover   Missing\n"
    "----------------------------------------------------------------------------------\n"
    "logfire/_internal/main.py                412      2    114      1    99%   237-238, "
    "252->exit\n"
    "----------------------------------------------------------------------------------\n"
    "TOTAL                                  16604      2   4588      1    99%\n\n"
    "268 files skipped due to complete coverage.\n"
    "Coverage failure: total of 99.99 is less than fail-under=100.00\n"
    "##[error]Process completed with exit code 2."
)

LOGFIRE_STORY = Story(
    id="dv-py-logfire-sdk",
    title="Logfire SDK: snapshot tests, the logfire-api shim, a docs check that changes twice, "
          "the pydantic version matrix moving to a twice-monthly job, and the docs standard",
    project=LOGFIRE,
    sources=("pydantic/logfire",),
    lessons=(
        lesson("docs-make", "command",
               "Build the docs with `make docs`, just to check for errors",
               "make docs"),
        lesson("docs-mkdocs", "command",
               "Check the docs with `uv run mkdocs build --no-strict`; expect lots of warnings, "
               "only a non-zero exit code matters",
               "mkdocs build", "no-strict"),
        lesson("docs-unified", "decision",
               "Docs are rendered and deployed through the pydantic/unified-docs pipeline; do not "
               "use MkDocs checks in this repository",
               "unified-docs"),
        lesson("snapshot-fix", "command",
               "Tests that create spans assert `exporter.exported_spans_as_dict(...) == "
               "snapshot()` and are filled in with `uv run pytest -k <test> "
               "--inline-snapshot=fix`; dirty_equals matchers for IDs/timestamps",
               "inline-snapshot=fix|inline_snapshot"),
        lesson("api-shim", "gotcha",
               "logfire-api/logfire_api/__init__.py is a no-op shim that must be kept up to date "
               "with the public API of logfire, especially when test_logfire_api.py fails; the "
               ".pyi stubs are autogenerated at release",
               "logfire_api|logfire-api", "public API|test_logfire_api"),
        lesson("pyd-weekly", "fact",
               "PR CI only tests pydantic latest plus 2.4; the full set of supported minor "
               "versions runs in the weekly job in .github/workflows/weekly_deps_test.yml, the "
               "contract; a 2.4 failure is likely to affect other versions too",
               "weekly_deps_test|weekly job"),
        lesson("pyd-twice", "fact",
               "The full set of supported pydantic minor versions now runs in the twice-monthly "
               "job in .github/workflows/deps_test.yml (1st and 15th), the contract; investigate "
               "and fix the whole affected range, not just 2.4",
               "deps_test.yml|twice-monthly"),
        lesson("coverage", "fact",
               "Coverage must be 100%: the bar is `uv run coverage report --fail-under 100` in the "
               "coverage job of main.yml, not pyproject.toml; let CI measure it, locally only "
               "check one file with `coverage report --include`",
               "coverage", "fail-under 100|100%"),
        lesson("docs-acronyms", "convention",
               "In public docs pages, spell out acronyms at first use on each page (e.g. "
               "OpenTelemetry Protocol (OTLP)); no acronym is already established by another "
               "page",
               "acronym", "first use"),
        lesson("docs-acronyms-common", "convention",
               "Only field-specific acronyms are expanded: AI, LLM, SDK, API, HTTP, JSON, URL, "
               "CLI are left alone",
               "AI, LLM, SDK|LLM|left alone"),
    ),
    also=(
        lesson("also-push", "command",
               "Push with `git push origin HEAD`, not just `git push`",
               "git push origin HEAD"),
        lesson("also-reviewer-config", "gotcha",
               "AI reviewers' Ruff findings like S106 do not apply: [tool.ruff.lint] does not "
               "select S; check the configuration that governs a finding before accepting it",
               "S106", "not enabled|extend-select|select"),
        lesson("also-anyio", "convention", "Use @pytest.mark.anyio for async tests",
               "pytest.mark.anyio"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: pydantic/logfire CLAUDE.md (#1642)
            User("hey, before you start on the notice() helper, a bit of orientation. Pre-commit "
                 "automatically runs ruff and pyright, but you can also run `make "
                 "format/lint/typecheck` to run them explicitly. And `make docs` to build docs, "
                 "just to check for errors.", states="docs-make"),
            Say("Got it: `make format/lint/typecheck` for ruff and pyright, and the docs build as "
                "an error check."),
            # source: pydantic/logfire CLAUDE.md (#1642), Testing section
            User("for the test: tests that create spans should use the `exporter: TestExporter` "
                 "fixture and assert `exporter.exported_spans_as_dict(parse_json_attributes=True) "
                 "== snapshot()`. Then run `uv run pytest -k test_my_thing --inline-snapshot=fix` "
                 "to automatically fill in `snapshot()` and check that the results are sane. If "
                 "some remaining fields are non-deterministic (e.g., IDs, timestamps), use "
                 "`dirty_equals` matchers. Use `@pytest.mark.anyio` for async tests.",
                 states="snapshot-fix"),
            Read("logfire/_internal/main.py"),
            Edit("logfire/_internal/main.py",
                 "    def warn(self, msg_template, /, **attributes):\n",
                 "    def notice(self, msg_template, /, **attributes):\n"
                 "        self.log('notice', msg_template, attributes)\n\n"
                 "    def warn(self, msg_template, /, **attributes):\n"),
            Edit("logfire/__init__.py", "warn = DEFAULT_LOGFIRE_INSTANCE.warn\n",
                 "warn = DEFAULT_LOGFIRE_INSTANCE.warn\n"
                 "notice = DEFAULT_LOGFIRE_INSTANCE.notice\n"),
            Edit("logfire/__init__.py", "'info', 'warn']", "'info', 'notice', 'warn']"),
            Write("tests/test_notice.py",
                  "from inline_snapshot import snapshot\n\nimport logfire\n"
                  "from logfire.testing import TestExporter\n\n\n"
                  "def test_notice(exporter: TestExporter):\n"
                  "    logfire.notice('hi {x}', x=1)\n"
                  "    assert exporter.exported_spans_as_dict(parse_json_attributes=True) == "
                  "snapshot()\n"),
            Bash("uv run pytest -k test_notice --inline-snapshot=fix", out=LOGFIRE_SNAPSHOT_FIX),
            Say("The snapshot was filled in: level 'notice', the message and the attribute `x`, "
                "with the trace and span IDs normalised by TestExporter. Looks sane."),
            Commit("Add logfire.notice()"),
        )),
        Session(day=2, events=(
            User("morning. CI went red on the notice PR overnight, can you look?"),
            Bash("uv run pytest tests/test_logfire_api.py", out=LOGFIRE_API_FAIL, ok=False),
            # source: pydantic/logfire CLAUDE.md, logfire-api section
            User("ah right. The `logfire-api` package is a no-op shim that libraries can depend "
                 "on to avoid hard dependencies on Logfire itself. It provides minimal "
                 "'implementations' in `logfire-api/logfire_api/__init__.py`, which needs to be "
                 "kept up to date with the public API of the `logfire` module, especially if "
                 "`test_logfire_api.py` starts failing. The rest is just `.pyi` stubs which "
                 "should be ignored, they're autogenerated when needed during release.",
                 states="api-shim"),
            Edit("logfire-api/logfire_api/__init__.py", "def warn(*args, **kwargs): ...\n",
                 "def notice(*args, **kwargs): ...\n\ndef warn(*args, **kwargs): ...\n"),
            Bash("uv run pytest tests/test_logfire_api.py", out="...   [100%]\n3 passed in 0.61s"),
            # source: pydantic/logfire CLAUDE.md, commit 6644a169 (#1643)
            User("also `make docs` isn't what we use any more: `uv run mkdocs build --no-strict` "
                 "to build docs, just to check for errors. Expect lots of warnings, only worry "
                 "about a non-zero exit code.", states="docs-mkdocs", replaces="docs-make"),
            Bash("uv run mkdocs build --no-strict; echo exit=$?", out=MKDOCS_OK + "\nexit=0"),
            Say("Docs build with the usual warnings and exit code 0."),
            # source: pydantic/logfire CLAUDE.md, commit d023b3e7 (#1663), Misc
            User("cool. Use `git push origin HEAD` to push, not just `git push`, so that it "
                 "pushes to the current branch without needing to set upstream explicitly."),
            Commit("Add notice to the logfire-api shim"),
            Bash("git push origin HEAD",
                 out="To github.com:example-org/logfire.git\n   4be1c0a..9d02e7f  HEAD -> "
                     "add-notice"),
        )),
        Session(day=6, events=(
            User("next bit of the notice work: it needs to work inside coroutines too."),
            Probe("can you add a test that calls notice() from an async function?",
                  needs=("snapshot-fix",)),
            Edit("tests/test_notice.py", "def test_notice(exporter: TestExporter):\n",
                 "@pytest.mark.anyio\nasync def test_notice_async("
                 "exporter: TestExporter):\n    logfire.notice('async {x}', x=2)\n"
                 "    assert exporter.exported_spans_as_dict(parse_json_attributes=True) == "
                 "snapshot()\n\n\ndef test_notice(exporter: TestExporter):\n"),
            Edit("tests/test_notice.py", "from inline_snapshot import snapshot\n",
                 "import pytest\nfrom inline_snapshot import snapshot\n"),
            Bash("uv run pytest -k test_notice --inline-snapshot=fix",
                 out="tests/test_notice.py ...   [100%]\nThese changes will be applied, because "
                     "you used --inline-snapshot=fix\n3 passed, 1410 deselected in 1.34s"),
            Edit("docs/guides/advanced/sampling.md", "Sampling keeps a fraction of traces.\n",
                 "Sampling keeps a fraction of traces. Logs at level `notice` are kept like "
                 "`info`.\n"),
            Probe("I mentioned notice on the sampling page, make sure the docs still build",
                  needs=("docs-mkdocs",)),
            Bash("uv run mkdocs build --no-strict; echo exit=$?", out=MKDOCS_OK + "\nexit=0"),
            Commit("Test notice() in async code and mention it in the sampling docs"),
            Bash("gh pr checks --watch", out=PYDANTIC_24_FAIL, ok=False),
            Say("Only the pydantic 2.4 job fails: `serialize_as_any` does not exist in "
                "pydantic 2.4's model_dump. I can guard it for 2.4."),
            # source: pydantic/logfire CLAUDE.md, commit e172ad4c (#1887)
            User("careful. PR CI only tests pydantic latest plus one extra job at pydantic 2.4. "
                 "The full set of supported minor versions (2.4, 2.5, 2.6, ... up through main) is "
                 "exercised by the weekly job in `.github/workflows/weekly_deps_test.yml`, which "
                 "is the contract: every minor version listed there is meant to keep working. "
                 "When something fails on pydantic 2.4, do not assume it is a 2.4-only quirk, the "
                 "same problem is likely to affect some of 2.5-2.11 as well. Investigate which "
                 "versions are actually affected and fix for the whole affected range.",
                 states="pyd-weekly"),
            Bash("uv run --with 'pydantic==2.6.*' pytest tests/test_notice.py -q",
                 out="F..\nFAILED tests/test_notice.py::test_notice_with_model - TypeError: "
                     "BaseModel.model_dump() got an unexpected keyword argument "
                     "'serialize_as_any'\n1 failed, 2 passed in 0.92s", ok=False),
            Say("2.6 fails too; `serialize_as_any` arrived in pydantic 2.7, so the guard checks "
                "for < 2.7 rather than == 2.4."),
            Edit("logfire/_internal/main.py",
                 "        self.log('notice', msg_template, attributes)\n",
                 "        # model_dump(serialize_as_any=...) needs pydantic >= 2.7\n"
                 "        self.log('notice', msg_template, attributes)\n"),
            Commit("Support pydantic < 2.7 in notice()"),
        ), judge={"docs-mkdocs": "not_down", "snapshot-fix": "not_down"}),
        Session(day=12, events=(
            User("two bots reviewed the notice PR. One says: 'Ruff S106: hardcoded password "
                 "passed as argument in tests/test_notice.py', should we fix that?"),
            Bash("grep -n -A3 'tool.ruff.lint' pyproject.toml; uv run ruff check --select S106 "
                 "| tail -1",
                 out='[tool.ruff.lint]\nselect = ["E4", "E7", "E9", "F"]\nextend-select = ["Q", '
                     '"RUF100", "C90", "UP", "I", "D", "TID251"]\nFound 37 errors.'),
            # source: pydantic/logfire CLAUDE.md, commit ec1b4c35 (#2240)
            User("right, a reviewer can be right about Python in general and wrong about this "
                 "repository. `[tool.ruff.lint]` selects E4, E7, E9 and F plus an extend-select "
                 "list that does not contain S, and `ruff check --select S106` reports many "
                 "pre-existing hits. The rule is not enabled, so there is nothing to fix. Check "
                 "the configuration that governs a finding before you accept it, reply on the "
                 "thread with the evidence and resolve it."),
            Bash("gh pr comment --body 'S106 is not enabled here: [tool.ruff.lint] selects E4, "
                 "E7, E9, F and the extend-select list has no S rules.'",
                 out="https://github.com/example-org/logfire/pull/1711#issuecomment-2411"),
            # source: pydantic/logfire CLAUDE.md, commit 403b27f4 (#1971)
            User("oh and news on docs: docs are now rendered and deployed through the "
                 "`pydantic/unified-docs` pipeline. Do not use MkDocs checks in this repository.",
                 states="docs-unified", replaces="docs-mkdocs"),
            Say("Noted: the docs are built by the pydantic/unified-docs pipeline, so I won't run "
                "MkDocs here."),
            Edit("docs/guides/advanced/sampling.md", "Configure head sampling with",
                 "See [the API reference](../../reference/api/sampling.md).\n\n"
                 "Configure head sampling with"),
            Commit("Link the sampling guide to the API reference"),
            Bash("git push origin HEAD",
                 out="To github.com:example-org/logfire.git\n   9d02e7f..c31aa08  HEAD -> "
                     "add-notice"),
        )),
        Session(day=20, events=(
            # source: pydantic/logfire CLAUDE.md, commit 65946c8d (#2052)
            User("we're adding a docs writing standard. Every page in the public docs (`docs/`) "
                 "is held to one standard: if an expert in some other field who has just started "
                 "building with AI tools wouldn't know what it means, we spell out the acronym, "
                 "explain the term in place, or rewrite the sentence. Acronyms are spelled out at "
                 "first use on each page, 'OpenTelemetry Protocol (OTLP)', 'personally "
                 "identifiable information (PII)'. Assume the reader opens the page directly "
                 "from a search; no acronym is 'already established' by another page. Docstrings "
                 "are out of scope.", states="docs-acronyms"),
            User("can you write a short page for notice() under docs/guides?"),
            Write("docs/guides/notice.md",
                  "# Notice-level logs\n\nUse `logfire.notice()` for events that are more "
                  "important than `info` but are not warnings.\n\n"
                  "```python\nimport logfire\n\nlogfire.configure()\n"
                  "logfire.notice('Deploy {version} started', version='1.2.3')\n```\n\n"
                  "Notice logs are exported over the OpenTelemetry Protocol (OTLP) like "
                  "every other log.\n"),
            Say("Wrote docs/guides/notice.md, with OTLP spelled out at first use."),
            Commit("Add a docs page for notice()"),
        )),
        Session(day=24, events=(
            # source: pydantic/logfire CLAUDE.md, commit 6c27a8e5 (#2061)
            User("a refinement of the acronym rule after some review back-and-forth: it's "
                 "field-specific acronyms that are spelled out at first use on each page. Don't "
                 "take this too far, though: acronyms the whole space already reads as words — "
                 "AI, LLM, SDK, API, HTTP, JSON, URL, CLI — are left alone. Expand the terms "
                 "that are specific to observability or to Logfire, not the ones every "
                 "developer uses daily.", states="docs-acronyms-common"),
            User("can you apply that to the notice page?"),
            Edit("docs/guides/notice.md", "Notice logs are exported over",
                 "Notice logs, like all logs the SDK sends, are exported over"),
            Commit("Tighten the notice docs wording"),
            Bash("gh pr checks", out=COVERAGE_FAIL, ok=False),
            # source: pydantic/logfire CLAUDE.md, commit ec1b4c35 (#2240), Coverage section
            User("coverage must be 100%. The bar is the `uv run coverage report --fail-under "
                 "100` step of the `coverage` job in `.github/workflows/main.yml`, not "
                 "`pyproject.toml`, `[tool.coverage.report]` sets no `fail_under`. Let CI measure "
                 "it rather than running the suite under coverage locally: CI combines coverage "
                 "across the whole test matrix. Cover the lines the job names; locally only "
                 "check a specific file with `uv run coverage run -m pytest <tests>` then `uv run "
                 "coverage report --include='*/<file>.py'`.", states="coverage"),
            Edit("tests/test_notice.py", "def test_notice(exporter: TestExporter):\n",
                 "def test_notice_without_attributes(exporter: TestExporter):\n"
                 "    logfire.notice('plain')\n"
                 "    assert len(exporter.exported_spans_as_dict()) == 1\n\n\n"
                 "def test_notice(exporter: TestExporter):\n"),
            Bash("uv run coverage run -m pytest tests/test_notice.py -q && uv run coverage "
                 "report --include='*/main.py'",
                 out="....\n4 passed in 1.02s\nName                          Stmts   Miss "
                     "Branch BrPart  Cover\n---\nlogfire/_internal/main.py       412      0"
                     "    114      0   100%"),
            Commit("Cover the attribute-less notice path"),
        )),
        Session(day=40, events=(
            # source: pydantic/logfire CLAUDE.md, commit bfc3ac81 (#2267)
            User("FYI from the dependency update PR: the full set of supported pydantic minor "
                 "versions is now exercised by the twice-monthly job in "
                 "`.github/workflows/deps_test.yml`, scheduled for the 1st and 15th. This "
                 "workflow is the contract. If you only verify against 2.4 and latest, the "
                 "twice-monthly job will fail later even though the PR merged cleanly.",
                 states="pyd-twice", replaces="pyd-weekly"),
            Say("Understood, deps_test.yml on the 1st and 15th is now the version contract."),
        )),
        Session(day=47, events=(
            User("back on the notice PR follow-ups"),
            Probe("the pydantic 2.4 job on my branch fails on a model_validate call. Is it fine "
                  "to just skip that test on 2.4?", needs=("pyd-twice",)),
            Bash("uv run --with 'pydantic==2.5.*' pytest tests/test_notice.py -q",
                 out="....\n4 passed in 0.97s"),
            Probe("coverage is red again on the notice code. Should I just run the whole suite "
                  "under coverage locally to see the number?", needs=("coverage",)),
            Probe("I drafted docs/guides/notice.md further with a section on exporting to the "
                  "collector and on the SDK setup. Can you review it and check the docs before I "
                  "merge?", needs=("docs-acronyms", "docs-acronyms-common", "docs-unified")),
        )),
    ),
)


# ---------------------------------------------------------------------------------------------
# 2. 567-labs/instructor: structured LLM outputs with Pydantic across providers
# ---------------------------------------------------------------------------------------------

INSTRUCTOR = Project("instructor", "python", {
    "pyproject.toml": (
        '[tool.poetry]\nname = "instructor"\nversion = "1.7.2"\n'
        'description = "structured outputs for llm"\n\n[tool.poetry.dependencies]\n'
        'python = "^3.9"\nopenai = "^1.52.0"\npydantic = "^2.8.0"\ntenacity = ">=9.0.0"\n'
        'anthropic = { version = "0.42.0", optional = true }\n\n'
        '[tool.poetry.group.dev.dependencies]\npytest = "^8.3.3"\npytest-asyncio = "^0.24.0"\n'
        'black = "^24.8.0"\npyright = "<1.1.392"\ncoverage = "^7.3.2"\n'
    ),
    "instructor/__init__.py": (
        "from .client import Instructor, AsyncInstructor, from_openai\n"
        "from .mode import Mode\n\n__all__ = ['Instructor', 'AsyncInstructor', 'from_openai', "
        "'Mode']\n"
    ),
    "instructor/exceptions.py": (
        "class InstructorError(Exception):\n    pass\n\n\n"
        "class IncompleteOutputException(InstructorError):\n"
        "    def __init__(self, *args, last_completion=None, **kwargs):\n"
        "        self.last_completion = last_completion\n"
        "        super().__init__(*args, **kwargs)\n\n\n"
        "class InstructorRetryException(InstructorError):\n"
        "    def __init__(self, *args, n_attempts: int, total_usage: int, **kwargs):\n"
        "        self.n_attempts = n_attempts\n        self.total_usage = total_usage\n"
        "        super().__init__(*args, **kwargs)\n"
    ),
    "instructor/retry.py": (
        "from tenacity import RetryError, Retrying, stop_after_attempt\n\n\n"
        "def retry_sync(func, response_model, args, kwargs, max_retries=1):\n"
        "    retrying = Retrying(stop=stop_after_attempt(max_retries), reraise=True)\n"
        "    try:\n        for attempt in retrying:\n            with attempt:\n"
        "                return process(func(*args, **kwargs), response_model)\n"
        "    except RetryError as e:\n        raise e\n"
    ),
    "instructor/mode.py": (
        "import enum\n\n\nclass Mode(enum.Enum):\n    TOOLS = 'tool_call'\n"
        "    JSON = 'json_mode'\n    ANTHROPIC_TOOLS = 'anthropic_tools'\n"
        "    GEMINI_JSON = 'gemini_json'\n"
    ),
    "tests/test_retry.py": (
        "import pytest\n\nfrom instructor.retry import retry_sync\n\n\n"
        "def test_retry_gives_up():\n    with pytest.raises(Exception):\n"
        "        retry_sync(lambda: 1 / 0, None, (), {}, max_retries=2)\n"
    ),
    "tests/llm/test_openai/test_basics.py": (
        "import instructor\nfrom openai import OpenAI\nfrom pydantic import BaseModel\n\n\n"
        "class User(BaseModel):\n    name: str\n    age: int\n\n\n"
        "def test_extract():\n    client = instructor.from_openai(OpenAI())\n"
        "    user = client.chat.completions.create(model='gpt-4o-mini', response_model=User,\n"
        "        messages=[{'role': 'user', 'content': 'Jason is 25'}])\n"
        "    assert user.age == 25\n"
    ),
    "mkdocs.yml": (
        "site_name: Instructor\nnav:\n  - Introduction: index.md\n  - Integrations:\n"
        "      - OpenAI: integrations/openai.md\n      - Anthropic: integrations/anthropic.md\n"
        "plugins:\n  - redirects:\n      redirect_maps:\n"
        "        hub/anthropic.md: integrations/anthropic.md\n"
    ),
    "docs/integrations/anthropic.md": (
        "# Structured outputs with Anthropic\n\n## Installation\n\n"
        "```bash\npip install \"instructor[anthropic]\"\n```\n"
    ),
})

PYTEST_LLM_FAIL = (
    "============================= test session starts ==============================\n"
    "platform darwin -- Python 3.11.9, pytest-8.3.3, pluggy-1.5.0\n"
    "rootdir: /Users/dev/instructor\nconfigfile: pyproject.toml\n"
    "plugins: anyio-4.6.2, asyncio-0.24.0, examples-0.0.13\ncollected 612 items\n\n"
    "tests/dsl/test_partial.py ........                                       [  1%]\n"
    "tests/llm/test_openai/test_basics.py EEEEEEEE                            [  2%]\n"
    "tests/llm/test_anthropic/test_stream.py EEEE                             [  3%]\n"
    "tests/test_retry.py ...                                                  [  3%]\n"
    "...\n"
    "==================================== ERRORS ====================================\n"
    "______________________ ERROR at setup of test_extract[gpt-4o-mini] ______________________\n"
    "openai.OpenAIError: The api_key client option must be set either by passing api_key to "
    "the client or by setting the OPENAI_API_KEY environment variable\n"
    "=========================== short test summary info ============================\n"
    "ERROR tests/llm/test_openai/test_basics.py::test_extract[gpt-4o-mini] - "
    "openai.OpenAIError: The api_key client option must be set...\n"
    "ERROR tests/llm/test_anthropic/test_stream.py::test_stream[claude-3-5-haiku] - "
    "anthropic.AuthenticationError: Error code: 401\n"
    "============ 171 passed, 12 skipped, 429 errors in 38.77s ============"
)

PYTEST_NO_LLM = (
    "============================= test session starts ==============================\n"
    "collected 612 items / 429 deselected / 183 selected\n\n"
    "tests/dsl/test_partial.py ........                                       [  4%]\n"
    "tests/test_function_calls.py ...............................             [ 21%]\n"
    "tests/test_retry.py ...                                                  [ 23%]\n"
    "tests/test_utils.py ................................................... [ 100%]\n\n"
    "================ 171 passed, 12 skipped, 429 deselected in 6.02s ================"
)

INSTRUCTOR_STORY = Story(
    id="dv-py-instructor-providers",
    title="Instructor: skipping paid LLM tests, poetry to uv, black to ruff format, "
          "conventional commits, stacked PRs and provider docs",
    project=INSTRUCTOR,
    sources=("567-labs/instructor",),
    lessons=(
        lesson("install-poetry", "command",
               "Install dev deps with `poetry install --with dev,anthropic` and run tools through "
               "`poetry run` (pytest, pyright, coverage)",
               "poetry install|poetry run"),
        lesson("install-uv", "command",
               "Install dev deps with uv: `uv pip install -e \".[dev,anthropic]\"`, then run "
               "pytest/pyright directly in the venv",
               "uv pip install"),
        lesson("format-black", "command", "Format with `black instructor examples tests`",
               "black instructor"),
        lesson("format-ruff", "command",
               "Format with `ruff format instructor examples tests` (Black's conventions, "
               "enforced by Ruff); lint with `ruff check instructor examples tests`",
               "ruff format"),
        lesson("skip-llm", "command",
               "Skip the LLM tests (real API calls, need keys and cost money) with "
               "`pytest tests/ -k 'not llm and not openai'`",
               "not llm and not openai"),
        lesson("conv-commits", "convention",
               "Commit messages follow conventional commits: `type(scope): description` (feat, "
               "fix, docs, style, refactor, perf, test, chore), imperative mood, one change",
               "conventional commit|type(scope)"),
        lesson("exceptions", "convention",
               "Error handling uses the custom exceptions from instructor/exceptions.py, not bare "
               "ValueError",
               "exceptions.py"),
        lesson("provider-docs", "convention",
               "Every provider needs a page in docs/integrations/ (installation, basic example, "
               "modes supported, special features), and a new provider updates mkdocs.yml "
               "navigation and redirects",
               "docs/integrations", "mkdocs.yml"),
        lesson("doc-code-blocks", "convention",
               "Docs are written at a grade 10 reading level and every code block has complete "
               "imports and is self-contained, with no references to previous code blocks",
               "self contained|self-contained|complete imports"),
        lesson("stacked-pr", "decision",
               "Do not commit directly to an existing PR branch for review updates: create a new "
               "PR that builds on top of the original PR's branch (stacked PR)",
               "stacked|builds on top", "PR"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: 567-labs/instructor CLAUDE.md (cf01774c, #1369), Commands
            User("hi! first time in this repo for you. Install deps: `poetry install --with "
                 "dev,anthropic`. Run tests: `poetry run pytest tests/`, type check: `poetry run "
                 "pyright`. Lint: `ruff check instructor examples tests`. Format: `black "
                 "instructor examples tests`.", states=("install-poetry", "format-black")),
            User("task for today: when retries are exhausted, raise something that tells the "
                 "caller how many attempts were made."),
            Bash("poetry install --with dev,anthropic",
                 out="Installing dependencies from lock file\n\nPackage operations: 96 installs, "
                     "0 updates, 0 removals\n...\nInstalling the current project: instructor "
                     "(1.7.2)"),
            Bash("poetry run pytest tests/", out=PYTEST_LLM_FAIL, ok=False),
            Say("The 429 errors are all in tests/llm: they call OpenAI and Anthropic for real "
                "and there's no API key here. The rest passes."),
            # source: 567-labs/instructor CLAUDE.md (cf01774c), Commands + Testing Guidelines
            User("yeah don't run those, they hit the real APIs and cost money. Skip LLM tests: "
                 "`poetry run pytest tests/ -k 'not llm and not openai'`. Mock API calls when "
                 "possible to reduce costs during development.", states="skip-llm"),
            Bash("poetry run pytest tests/ -k 'not llm and not openai'", out=PYTEST_NO_LLM),
            Edit("instructor/retry.py", "    except RetryError as e:\n        raise e\n",
                 "    except RetryError as e:\n"
                 "        raise ValueError(f'gave up after {max_retries} attempts') from e\n"),
            Say("Retries now end with a ValueError that says how many attempts were made."),
            # source: 567-labs/instructor CLAUDE.md, Code Style Guidelines
            User("hmm. Error Handling: use the custom exceptions from exceptions.py, validate "
                 "with Pydantic. There's already InstructorRetryException with n_attempts.",
                 states="exceptions"),
            Edit("instructor/retry.py",
                 "        raise ValueError(f'gave up after {max_retries} attempts') from e\n",
                 "        raise InstructorRetryException(\n"
                 "            str(e), n_attempts=max_retries, total_usage=0\n        ) from e\n"),
            Edit("instructor/retry.py", "from tenacity import",
                 "from instructor.exceptions import InstructorRetryException\n"
                 "from tenacity import"),
            Bash("black instructor examples tests",
                 out="reformatted /Users/dev/instructor/instructor/retry.py\n\nAll done! ✨ 🍰 ✨\n"
                     "1 file reformatted, 187 files left unchanged."),
            Bash("poetry run pytest tests/ -k 'not llm and not openai'", out=PYTEST_NO_LLM),
        )),
        Session(day=3, events=(
            User("let's get the retry change committed"),
            # source: 567-labs/instructor .cursor/rules/new-features-planning.mdc (8edae175)
            User("when you commit: use conventional commit format: `<type>(<scope>): "
                 "<description>`. Types: feat, fix, docs, style, refactor, perf, test, chore. "
                 "Example: `feat(validation): add email validation function`. Keep commits "
                 "focused on a single change and write them in imperative mood.",
                 states="conv-commits"),
            Commit("feat(retry): raise InstructorRetryException with the attempt count"),
            # source: 567-labs/instructor .cursor/rules/followups.mdc (8edae175)
            User("btw you'll see a `.cursor/rules/followups.mdc` in the repo that asks for "
                 "follow-up hot keys [J], [K], [L]. That's for Cursor, ignore it here."),
            Say("Okay, I'll ignore the Cursor hot-key rule."),
            Edit("tests/test_retry.py",
                 "def test_retry_gives_up():\n    with pytest.raises(Exception):\n",
                 "def test_retry_gives_up():\n    with pytest.raises(InstructorRetryException):\n"),
            Edit("tests/test_retry.py", "from instructor.retry import retry_sync\n",
                 "from instructor.exceptions import InstructorRetryException\n"
                 "from instructor.retry import retry_sync\n"),
            Bash("poetry run pytest tests/test_retry.py -q", out="...\n3 passed in 0.19s"),
            Commit("test(retry): expect InstructorRetryException when retries run out"),
        ), judge={"skip-llm": "not_down"}),
        Session(day=9, events=(
            # source: 567-labs/instructor docs/contributing.md (29686a44, #1424)
            User("news: we're moving day-to-day development to UV, it's a fast Python package "
                 "installer and resolver and it's the recommended way now. `uv pip install -e "
                 "\".[dev,anthropic]\"` in a venv, then just `pytest tests/` and `pyright`, no "
                 "`poetry run` prefix.", states="install-uv", replaces="install-poetry"),
            Bash("uv venv && source .venv/bin/activate && uv pip install -e \".[dev,anthropic]\"",
                 out="Using CPython 3.11.9\nCreating virtual environment at: .venv\nResolved 84 "
                     "packages in 1.12s\nInstalled 84 packages in 402ms\n + instructor==1.7.2 "
                     "(from file:///Users/dev/instructor)"),
            Probe("run the tests quickly before I go, nothing that calls the APIs",
                  needs=("skip-llm",)),
            Bash("pytest tests/ -k 'not llm and not openai'", out=PYTEST_NO_LLM),
            # source: 567-labs/instructor CLAUDE.md, Documentation Guidelines
            User("next up is the xAI provider. Every provider needs documentation in "
                 "`docs/integrations/` following standard format: installation, basic example, "
                 "modes supported, special features. When adding a new provider, update "
                 "`mkdocs.yml` navigation and redirects. Just the client first though.",
                 states="provider-docs"),
            Write("instructor/client_xai.py",
                  "from __future__ import annotations\n\nimport instructor\n\n\n"
                  "def from_xai(client, mode: instructor.Mode = instructor.Mode.TOOLS, **kwargs):\n"
                  "    return instructor.Instructor(client=client, create=client.chat.create,\n"
                  "                                 provider='xai', mode=mode, **kwargs)\n"),
            Commit("feat(xai): add from_xai client factory"),
        )),
        Session(day=15, events=(
            # source: 567-labs/instructor CLAUDE.md (5d9de64f, #1525) and docs/contributing.md
            User("heads up, formatting is `ruff format instructor examples tests` now: Black's "
                 "formatting conventions, enforced by Ruff. Lint is still `ruff check "
                 "instructor examples tests`.", states="format-ruff", replaces="format-black"),
            Bash("ruff format instructor examples tests",
                 out="1 file reformatted, 203 files left unchanged"),
            Edit("instructor/client_xai.py",
                 "    return instructor.Instructor(client=client, create=client.chat.create,\n"
                 "                                 provider='xai', mode=mode, **kwargs)\n",
                 "    return instructor.Instructor(\n"
                 "        client=client, create=client.chat.create, provider='xai', mode=mode, "
                 "**kwargs\n    )\n"),
            Commit("style: format with ruff format"),
            # source: 567-labs/instructor .cursor/rules/new-features-planning.mdc
            User("and one process thing, from our rules: for PR updates, do not directly commit "
                 "to an existing PR branch. Instead, create a new PR that builds on top of the "
                 "original PR's branch. The original PR (base) has the initial changes, the new "
                 "PR (stack) only the review-related updates, and once the base is merged the "
                 "stack gets rebased onto main.", states="stacked-pr"),
            Say("Understood: review updates go in a stacked PR on top of the original branch."),
            User("just for the xAI branch today I'll push the small typo fix myself, don't worry "
                 "about it."),
        )),
        Session(day=20, events=(
            # source: 567-labs/instructor .cursor/rules/simple-language.mdc
            User("for docs pages: write at a grade 10 reading level, and make sure every code "
                 "block has complete imports and makes no references to previous code blocks, "
                 "each one needs to be self contained.", states="doc-code-blocks"),
            Edit("docs/integrations/anthropic.md", "pip install \"instructor[anthropic]\"\n```\n",
                 "pip install \"instructor[anthropic]\"\n```\n\n## Basic example\n\n"
                 "```python\nimport instructor\nfrom anthropic import Anthropic\n"
                 "from pydantic import BaseModel\n\n\nclass User(BaseModel):\n    name: str\n\n\n"
                 "client = instructor.from_anthropic(Anthropic())\n```\n"),
            Probe("tidy up the formatting on the files you touched", needs=("format-ruff",)),
            Bash("ruff format instructor examples tests",
                 out="204 files left unchanged"),
            Probe("ok, commit that", needs=("conv-commits",)),
            Commit("docs(anthropic): add a self-contained basic example"),
        ), judge={"format-ruff": "not_down"}),
        Session(day=28, events=(
            User("the xAI PR got reviews."),
            Probe("the reviewer wants the mode default changed and a docstring on from_xai. Can "
                  "you address the review?", needs=("stacked-pr",)),
            Bash("git checkout -b xai-review-fixes feat/xai-client",
                 out="Switched to a new branch 'xai-review-fixes'"),
            Edit("instructor/client_xai.py",
                 "def from_xai(client, mode: instructor.Mode = instructor.Mode.TOOLS, **kwargs):\n",
                 "def from_xai(client, mode: instructor.Mode = instructor.Mode.JSON, **kwargs):\n"
                 "    \"\"\"Patch an xAI client so `create` returns validated Pydantic "
                 "models.\"\"\"\n"),
            Commit("fix(xai): default to JSON mode and document from_xai"),
            Probe("now the docs page for the xAI provider please",
                  needs=("provider-docs", "doc-code-blocks")),
            Probe("I'm on a new laptop, how do I set up the dev environment?",
                  needs=("install-uv",)),
        )),
    ),
)


# ---------------------------------------------------------------------------------------------
# 3. huggingface/smolagents: an agents library (make quality/style/test, CI hotfix pins)
# ---------------------------------------------------------------------------------------------

SMOLAGENTS = Project("smolagents", "python", {
    "pyproject.toml": (
        '[project]\nname = "smolagents"\nversion = "1.21.0.dev0"\nrequires-python = ">=3.10"\n'
        'dependencies = [\n  "huggingface-hub>=0.31.2",\n  "requests>=2.32.3",\n'
        '  "rich>=13.9.4",\n  "jinja2>=3.1.4",\n  "pillow>=10.0.1",\n'
        '  "duckduckgo-search>=6.3.7",  # DuckDuckGoSearchTool\n]\n\n'
        '[project.optional-dependencies]\ntransformers = [\n  "accelerate",\n'
        '  "transformers>=4.0.0",\n]\ne2b = [\n  "e2b-code-interpreter>=1.0.3",\n'
        '  "python-dotenv>=1.0.1",\n]\ndev = ["smolagents[quality,test]"]\n'
        'quality = ["ruff>=0.9.0"]\ntest = ["pytest>=8.1.0", "pytest-datadir"]\n\n'
        '[tool.ruff]\nline-length = 119\n'
    ),
    "Makefile": (
        ".PHONY: quality style test docs\n\ncheck_dirs := examples src tests\n\n"
        "# Check code quality of the source code\nquality:\n\truff check $(check_dirs)\n"
        "\truff format --check $(check_dirs)\n\n# Format source code automatically\nstyle:\n"
        "\truff check $(check_dirs) --fix\n\truff format $(check_dirs)\n\n"
        "# Run smolagents tests\ntest:\n\tpytest ./tests/\n"
    ),
    "src/smolagents/__init__.py": (
        '__version__ = "1.21.0.dev0"\n\nfrom .agents import *  # noqa: F403\n'
        "from .default_tools import *  # noqa: F403\n"
    ),
    "src/smolagents/default_tools.py": (
        "import time\n\nfrom .tools import Tool\n\n\n"
        "class DuckDuckGoSearchTool(Tool):\n    name = \"web_search\"\n"
        "    description = \"Performs a duckduckgo web search based on your query.\"\n"
        "    inputs = {\"query\": {\"type\": \"string\", \"description\": \"The search query.\"}}\n"
        "    output_type = \"string\"\n\n"
        "    def __init__(self, max_results: int = 10, rate_limit: float | None = 1.0, "
        "**kwargs):\n        super().__init__()\n        self.max_results = max_results\n"
        "        self.rate_limit = rate_limit\n        try:\n"
        "            from duckduckgo_search import DDGS\n        except ImportError as e:\n"
        "            raise ImportError(\n                \"You must install package "
        "`duckduckgo_search` to run this tool: for instance run `pip install "
        "duckduckgo-search`.\"\n            ) from e\n        self.ddgs = DDGS(**kwargs)\n\n"
        "    def forward(self, query: str) -> str:\n"
        "        results = self.ddgs.text(query, max_results=self.max_results)\n"
        "        if len(results) == 0:\n            raise Exception(\"No results found!\")\n"
        "        return \"## Search Results\\n\\n\" + \"\\n\\n\".join(\n"
        "            f\"[{r['title']}]({r['href']})\\n{r['body']}\" for r in results\n        )\n"
    ),
    "src/smolagents/remote_executors.py": (
        "class E2BExecutor:\n    def __init__(self, additional_imports, logger, **kwargs):\n"
        "        from e2b_code_interpreter import Sandbox\n\n"
        "        self.sandbox = Sandbox(**kwargs)\n"
    ),
    "tests/test_types.py": (
        "import pytest\nfrom transformers.testing_utils import require_soundfile, "
        "require_torch\n\nfrom smolagents.agent_types import AgentAudio\n\n\n"
        "@require_soundfile\n@require_torch\nclass TestAgentAudio:\n"
        "    def test_from_tensor(self):\n        ...\n"
    ),
    "tests/utils/markers.py": (
        "import pytest\n\nfrom smolagents.utils import is_package_available\n\n\n"
        "require_torch = pytest.mark.skipif(not is_package_available(\"torch\"), "
        "reason=\"requires torch\")\n"
    ),
    "tests/test_default_tools.py": (
        "from smolagents.default_tools import DuckDuckGoSearchTool\n\n\n"
        "def test_ddgs_tool_name():\n    assert DuckDuckGoSearchTool().name == \"web_search\"\n"
    ),
})

MAKE_QUALITY_FAIL = (
    "ruff check examples src tests\nAll checks passed!\n"
    "ruff format --check examples src tests\nWould reformat: src/smolagents/default_tools.py\n"
    "1 file would be reformatted, 97 files already formatted\n"
    "make: *** [Makefile:7: quality] Error 1"
)
MAKE_QUALITY_OK = (
    "ruff check examples src tests\nAll checks passed!\n"
    "ruff format --check examples src tests\n98 files already formatted"
)
MAKE_TEST_OK = (
    "pytest ./tests/\n============================= test session starts "
    "==============================\nplatform linux -- Python 3.10.18, pytest-8.4.1, "
    "pluggy-1.6.0\nrootdir: /home/dev/smolagents\nconfigfile: pyproject.toml\n"
    "plugins: datadir-1.7.2, anyio-4.9.0\ncollected 1489 items\n\n...\n"
    "========== 1398 passed, 91 skipped, 27 warnings in 112.40s (0:01:52) =========="
)
CI_SOUNDFILE_FAIL = (
    "_____________________ ERROR collecting tests/test_types.py _____________________\n"
    "ImportError while importing test module "
    "'/home/runner/work/smolagents/smolagents/tests/test_types.py'.\n"
    "Hint: make sure your test modules/packages have valid Python names.\nTraceback:\n"
    "/opt/hostedtoolcache/Python/3.10.18/x64/lib/python3.10/importlib/__init__.py:126: in "
    "import_module\n    return _bootstrap._gcd_import(name[level:], package, level)\n"
    "tests/test_types.py:21: in <module>\n    from transformers.testing_utils import (\n"
    "E   ImportError: cannot import name 'require_soundfile' from 'transformers.testing_utils' "
    "(/opt/hostedtoolcache/Python/3.10.18/x64/lib/python3.10/site-packages/transformers/"
    "testing_utils.py)\n"
    "=========================== short test summary info ============================\n"
    "ERROR tests/test_types.py\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection "
    "!!!!!!!!!!!!!!!!!!!!"
)
CI_E2B_FAIL = (
    "FAILED tests/test_remote_executors.py::TestE2BExecutorIntegration::test_run_code - "
    "TypeError: SandboxBase.__init__() missing 5 required positional arguments: 'sandbox_id', "
    "'envd_version', 'envd_access_token', 'sandbox_domain', and 'connection_config'\n"
    "===== 1 failed, 1397 passed, 91 skipped in 118.02s (0:01:58) ====="
)
CI_TOKENIZERS_FAIL = (
    "Run uv pip install --system \"smolagents[all,test] @ .\"\n"
    "Resolved 231 packages in 2.31s\n"
    "  × Failed to build `tokenizers==0.10.3`\n"
    "  ├─▶ The build backend returned an error\n"
    "  ╰─▶ Call to `setuptools.build_meta.build_wheel` failed (exit status: 1)\n"
    "      error: can't find Rust compiler\n"
    "      hint: This usually indicates a problem with the package or the build environment.\n"
    "  help: `tokenizers` (v0.10.3) was included because `smolagents[all]` depends on "
    "`transformers` (v4.9.2) which depends on `tokenizers>=0.10.1, <0.11`\n"
    "Error: Process completed with exit code 1."
)

SMOLAGENTS_STORY = Story(
    id="dv-py-smolagents-pins",
    title="smolagents: make quality/style/test, CI hotfix pins and their reverts, the "
          "duckduckgo_search to ddgs rename, and the huggingface-hub cap",
    project=SMOLAGENTS,
    sources=("huggingface/smolagents",),
    lessons=(
        lesson("quality-cmd", "command",
               "Check code quality with `make quality` (ruff check + ruff format --check); if it "
               "fails run `make style` and commit the changes",
               "make quality|make style"),
        lesson("test-cmd", "command", "Run the tests with `make test` (pytest ./tests/)",
               "make test"),
        lesson("guidelines", "convention",
               "Contributor guidelines: follow OOP principles, be Pythonic, write unit tests for "
               "new functionality",
               "OOP|Pythonic"),
        lesson("pin-transformers", "decision",
               "transformers is pinned `<4.54.0` in the transformers extra as a CI hotfix for "
               "GH-1619 (require_soundfile gone from transformers.testing_utils)",
               "4.54", "pin|<4.54.0"),
        lesson("unpin-transformers", "decision",
               "transformers 4.54 is supported: the <4.54.0 pin is reverted (transformers>=4.0.0) "
               "and tests use smolagents' own markers instead of "
               "transformers.testing_utils.require_soundfile",
               "require_soundfile|markers", "transformers>=4.0.0|revert"),
        lesson("hotfix-followup", "convention",
               "Every CI hotfix pin gets a follow-up issue ('Support X') saying we pinned it to "
               "fix the CI and should revert the pin and fix the underlying issue",
               "follow-up|follow up", "revert"),
        lesson("ddgs", "fact",
               "duckduckgo_search was renamed to ddgs: import DDGS from ddgs and depend on "
               "`ddgs>=9.0.0` in the required dependencies list",
               "ddgs", "duckduckgo"),
        lesson("ddgs-args", "gotcha",
               "DDGS.text takes max_results (not num_results), and the backend should be left "
               "automatic (no backend='duckduckgo')",
               "max_results", "backend"),
        lesson("hub-pin", "decision",
               "huggingface-hub is capped `<1.0.0`: with hub 1.x, CI on Python 3.12 fails to "
               "build tokenizers==0.10.3 (transformers and huggingface_hub need different "
               "tokenizers)",
               "huggingface-hub|huggingface_hub", "1.0.0|tokenizers"),
        lesson("uv-install", "command",
               "With uv, install dev deps with `uv pip install -e \"smolagents[dev] @ .\"` "
               "(pip: `pip install -e \".[dev]\"`)",
               "smolagents[dev] @ ."),
    ),
    sessions=(
        Session(day=0, events=(
            # source: huggingface/smolagents CONTRIBUTING.md ("Making code changes")
            User("hey! to install dev dependencies, run `pip install -e \".[dev]\"`. When making "
                 "changes to the codebase, please check that it follows the repo's code quality "
                 "requirements by running `make quality`. If the checks fail, you can run the "
                 "formatter with `make style`, and commit the changes. To run tests locally: "
                 "`make test`.", states=("quality-cmd", "test-cmd")),
            # source: huggingface/smolagents AGENTS.md
            User("our contributor guidelines are short: follow OOP principles, be Pythonic "
                 "(follow Python best practices and idiomatic patterns), and write unit tests "
                 "for new functionality. Today: the search tool should sleep between calls "
                 "when rate_limit is set.", states="guidelines"),
            Edit("src/smolagents/default_tools.py",
                 "    def forward(self, query: str) -> str:\n"
                 "        results = self.ddgs.text(query, max_results=self.max_results)\n",
                 "    def _enforce_rate_limit(self) -> None:\n"
                 "        if not self.rate_limit: return\n"
                 "        time.sleep(1.0 / self.rate_limit)\n\n"
                 "    def forward(self, query: str) -> str:\n        self._enforce_rate_limit()\n"
                 "        results = self.ddgs.text(query, max_results=self.max_results)\n"),
            Edit("tests/test_default_tools.py", "def test_ddgs_tool_name():\n",
                 "def test_rate_limit_sleeps(monkeypatch):\n    calls = []\n"
                 "    monkeypatch.setattr('time.sleep', calls.append)\n"
                 "    DuckDuckGoSearchTool(rate_limit=2.0)._enforce_rate_limit()\n"
                 "    assert calls == [0.5]\n\n\ndef test_ddgs_tool_name():\n"),
            Bash("make quality", out=MAKE_QUALITY_FAIL, ok=False, exit=2),
            Bash("make style",
                 out="ruff check examples src tests --fix\nAll checks passed!\n"
                     "ruff format examples src tests\n1 file reformatted, 97 files left "
                     "unchanged"),
            Edit("src/smolagents/default_tools.py", "        if not self.rate_limit: return\n",
                 "        if not self.rate_limit:\n            return\n"),
            Bash("make quality", out=MAKE_QUALITY_OK),
            Bash("make test", out=MAKE_TEST_OK),
            Commit("Add rate limiting to DuckDuckGoSearchTool"),
        )),
        Session(day=4, events=(
            User("CI is red on every PR since this morning"),
            Bash("gh run view 16538930362 --log-failed | tail -20", out=CI_SOUNDFILE_FAIL,
                 ok=False),
            Say("transformers 4.54.0 came out yesterday and no longer has "
                "`require_soundfile` in `transformers.testing_utils`; tests/test_types.py "
                "imports it."),
            # source: huggingface/smolagents PR #1620 / issue #1619
            User("ok, CI hotfix: pin transformers < 4.54.0 in the transformers extra, "
                 "`transformers>=4.0.0,<4.54.0`  # Hotfix for GH-1619.",
                 states="pin-transformers"),
            Edit("pyproject.toml", '  "transformers>=4.0.0",\n',
                 '  "transformers>=4.0.0,<4.54.0",  # Hotfix for GH-1619\n'),
            Commit("CI hotfix: Pin transformers < 4.54.0"),
            # source: huggingface/smolagents issue #1624
            User("and open the follow-up right away, like we always do after a hotfix: 'Support "
                 "transformers 4.54.0. We pinned `transformers<4.54.0` to fix the CI (#1619). We "
                 "should revert the pin and fix the underlying issue.'",
                 states="hotfix-followup"),
            Bash("gh issue create --title 'Support transformers 4.54.0' --body 'Add support for "
                 "transformers 4.54.0 after the merge of #1620. We pinned transformers<4.54.0 to "
                 "fix the CI: #1619. We should revert the pin and fix the underlying issue.'",
                 out="https://github.com/example-org/smolagents/issues/1624"),
        )),
        Session(day=5, events=(
            User("let's fix #1624 properly now"),
            Edit("tests/test_types.py",
                 "from transformers.testing_utils import require_soundfile, require_torch\n",
                 "from .utils.markers import require_soundfile, require_torch\n"),
            Edit("tests/utils/markers.py", 'reason="requires torch")\n',
                 'reason="requires torch")\nrequire_soundfile = pytest.mark.skipif(not '
                 'is_package_available("soundfile"), reason="requires soundfile")\n'),
            Edit("pyproject.toml", '  "transformers>=4.0.0,<4.54.0",  # Hotfix for GH-1619\n',
                 '  "transformers>=4.0.0",\n'),
            Bash("make test", out=MAKE_TEST_OK),
            # source: huggingface/smolagents PR #1625 (d6b71915)
            Commit("Support transformers 4.54.0: revert the <4.54.0 pin (transformers>=4.0.0) "
                   "and use our own require_soundfile marker in tests/utils/markers.py",
                   states="unpin-transformers", replaces="pin-transformers"),
        ), judge={"test-cmd": "not_down"}),
        Session(day=9, events=(
            # source: huggingface/smolagents PR #1593
            User("users get this on every search: RuntimeWarning: This package "
                 "(`duckduckgo_search`) has been renamed to `ddgs`! Use `pip install ddgs` "
                 "instead. Just change duckduckgo_search with ddgs."),
            Edit("src/smolagents/default_tools.py",
                 "            from duckduckgo_search import DDGS\n",
                 "            from ddgs import DDGS\n"),
            # source: huggingface/smolagents PR #1593 review
            User("thanks. I guess it should also be updated in the required dependencies list: "
                 "`ddgs>=9.0.0` instead of duckduckgo-search.", states="ddgs"),
            Edit("pyproject.toml", '  "duckduckgo-search>=6.3.7",  # DuckDuckGoSearchTool\n',
                 '  "ddgs>=9.0.0",  # DuckDuckGoSearchTool\n'),
            Say("While I'm here, ddgs can search several engines; I'll pass "
                "num_results=self.max_results and backend='duckduckgo' to keep the old "
                "behaviour."),
            Edit("src/smolagents/default_tools.py",
                 "        results = self.ddgs.text(query, max_results=self.max_results)\n",
                 "        results = self.ddgs.text(query, num_results=self.max_results, "
                 "backend='duckduckgo')\n"),
            # source: huggingface/smolagents PR #1548 review thread (default_tools.py:139)
            User("no: the correct argument should be max_results, see ddgs.py in the ddgs repo. "
                 "And backend would better be let automatic.", states="ddgs-args"),
            Edit("src/smolagents/default_tools.py",
                 "        results = self.ddgs.text(query, num_results=self.max_results, "
                 "backend='duckduckgo')\n",
                 "        results = self.ddgs.text(query, max_results=self.max_results)\n"),
            Probe("make sure it's all clean before I push", needs=("quality-cmd",)),
            Bash("make quality", out=MAKE_QUALITY_OK),
            Commit("Replace duckduckgo_search with ddgs to address package rename warning"),
        ), judge={"quality-cmd": "not_down"}),
        Session(day=20, events=(
            User("bad news from CI again"),
            Bash("gh run view --log-failed | tail -3", out=CI_E2B_FAIL, ok=False),
            Say("e2b-code-interpreter 2.0 changed the Sandbox constructor; E2BExecutor calls "
                "Sandbox(**kwargs) which now fails."),
            Probe("patch CI for now please, and do the usual housekeeping that goes with it",
                  needs=("hotfix-followup",)),
            Edit("pyproject.toml", '  "e2b-code-interpreter>=1.0.3",\n',
                 '  "e2b-code-interpreter>=1.0.3, < 2",\n'),
            Commit("Fix E2BExecutor by pinning e2b-code-interpreter to < 2"),
            Bash("gh issue create --title 'Support e2b-code-interpreter v2' --body 'We pinned "
                 "e2b-code-interpreter<2 to fix the CI. We should revert the pin and fix the "
                 "underlying issue.'", out="https://github.com/example-org/smolagents/issues/1734"),
            User("I'll take the e2b v2 support myself next week."),
        )),
        Session(day=34, events=(
            Bash("gh run view --log-failed | tail -12", out=CI_TOKENIZERS_FAIL, ok=False),
            # source: huggingface/smolagents issue #1843 and PR #1844
            User("CI tests fail for Python 3.12: Failed to build `tokenizers==0.10.3`. This seems "
                 "to be a conflict between transformers and huggingface_hub, each requiring "
                 "different versions of tokenizers. Pin huggingface-hub <1.0.0 to fix failed to "
                 "build tokenizers, `huggingface-hub>=0.31.2,<1.0.0`.", states="hub-pin"),
            Edit("pyproject.toml", '  "huggingface-hub>=0.31.2",\n',
                 '  "huggingface-hub>=0.31.2,<1.0.0",\n'),
            Commit("Pin huggingface-hub <1.0.0 to fix failed to build tokenizers"),
            # source: huggingface/smolagents CONTRIBUTING.md, commit 22591c73 (#1561)
            User("also, we added the uv option to CONTRIBUTING. Using uv: `uv pip install -e "
                 "\"smolagents[dev] @ .\"`. pip still works too.", states="uv-install"),
        )),
        Session(day=41, events=(
            User("catching up on the issue tracker"),
            Probe("someone asks if they can use smolagents with huggingface_hub 1.x. What's the "
                  "story there?", needs=("hub-pin",)),
            Probe("add a news search tool next to the web search one, same engine",
                  needs=("ddgs", "ddgs-args", "guidelines")),
            Probe("the audio agent type test fails on my machine with transformers 4.55, do we "
                  "cap transformers somewhere?", needs=("unpin-transformers",)),
            Probe("I'm setting up a fresh venv with uv, what do I install?",
                  needs=("uv-install",)),
        )),
    ),
)


# ---------------------------------------------------------------------------------------------
# 4. huggingface/lerobot: a PyTorch robotics library (uv, pre-commit, git-lfs test artifacts)
# ---------------------------------------------------------------------------------------------

LEROBOT = Project("lerobot", "python", {
    "pyproject.toml": (
        '[project]\nname = "lerobot"\nversion = "0.3.4"\nrequires-python = ">=3.10"\n'
        'dependencies = [\n  "torch>=2.2.1",\n  "datasets>=2.19.0",\n  "draccus==0.10.0",\n'
        '  "opencv-python-headless>=4.9.0",\n  "av>=14.2.0",\n]\n\n'
        '[project.optional-dependencies]\ndev = ["pre-commit>=3.7.0", "debugpy>=1.8.1"]\n'
        'test = ["pytest>=8.1.0", "pytest-timeout>=2.4.0", "pytest-cov>=5.0.0", "mock-serial"]\n'
        'feetech = ["feetech-servo-sdk>=1.0.0", "pyserial>=3.5"]\n'
        'pi0 = ["transformers>=4.48.0"]\n\n'
        '[tool.mypy]\npython_version = "3.10"\nignore_missing_imports = true\n\n'
        '[[tool.mypy.overrides]]\nmodule = "lerobot.cameras.*"\nstrict = true\n'
    ),
    ".gitignore": (
        "# Logging\nlogs\ntmp\nwandb\n\n# Data\ndata\noutputs\n\n"
        "# uv/poetry lock files\npoetry.lock\nuv.lock\n\n__pycache__/\n.venv\n"
    ),
    ".pre-commit-config.yaml": (
        "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.9.6\n"
        "    hooks:\n      - id: ruff\n        args: [--fix]\n      - id: ruff-format\n"
        "  - repo: https://github.com/crate-ci/typos\n    rev: v1.29.10\n    hooks:\n"
        "      - id: typos\n  - repo: https://github.com/PyCQA/bandit\n    rev: 1.8.3\n"
        "    hooks:\n      - id: bandit\n"
    ),
    "src/lerobot/cameras/opencv/camera_opencv.py": (
        "import cv2\n\nfrom ..camera import Camera\nfrom .configuration_opencv import "
        "OpenCVCameraConfig\n\n\nclass OpenCVCamera(Camera):\n"
        "    def __init__(self, config: OpenCVCameraConfig):\n        super().__init__(config)\n"
        "        self.config = config\n        self.videocapture = None\n\n"
        "    def connect(self, warmup: bool = True) -> None:\n"
        "        self.videocapture = cv2.VideoCapture(self.config.index_or_path)\n"
    ),
    "src/lerobot/utils/import_utils.py": (
        "import importlib.util\n\n\ndef is_package_available(pkg_name: str) -> bool:\n"
        "    return importlib.util.find_spec(pkg_name) is not None\n\n\n"
        "_transformers_available = is_package_available(\"transformers\")\n"
        "_feetech_available = is_package_available(\"scservo_sdk\")\n\n\n"
        "def require_package(pkg_name: str, extra: str) -> None:\n"
        "    if not is_package_available(pkg_name):\n"
        "        raise ImportError(f\"'{pkg_name}' is required: pip install 'lerobot[{extra}]'\")\n"
    ),
    "src/lerobot/policies/factory.py": (
        "def get_policy_class(name: str):\n    if name == \"act\":\n"
        "        from lerobot.policies.act.modeling_act import ACTPolicy\n\n"
        "        return ACTPolicy\n    raise NotImplementedError(f\"Policy '{name}' is not "
        "available.\")\n"
    ),
    "tests/datasets/test_datasets.py": (
        "from lerobot.datasets.lerobot_dataset import LeRobotDataset\n\n\n"
        "def test_load_local_artifact(lerobot_dataset_factory):\n"
        "    dataset = lerobot_dataset_factory(root='tests/artifacts/datasets/pusht')\n"
        "    assert len(dataset) > 0\n"
    ),
    "tests/cameras/test_opencv.py": (
        "from lerobot.cameras.opencv import OpenCVCamera, OpenCVCameraConfig\n\n\n"
        "def test_connect_image_file():\n"
        "    camera = OpenCVCamera(OpenCVCameraConfig(index_or_path='tests/artifacts/cameras/"
        "image_160x120.png'))\n    camera.connect(warmup=False)\n"
    ),
})

LEROBOT_LFS_FAIL = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.10.16, pytest-8.3.5, pluggy-1.5.0\n"
    "collected 2387 items\n...\n"
    "tests/datasets/test_datasets.py::test_load_local_artifact FAILED\n"
    "tests/policies/test_policies.py::test_backward_compatibility[pusht-diffusion] FAILED\n"
    "=================================== FAILURES ===================================\n"
    "E       safetensors_rust.SafetensorError: Error while deserializing header: "
    "HeaderTooLarge\n"
    "E       pyarrow.lib.ArrowInvalid: Could not open Parquet input source "
    "'tests/artifacts/datasets/pusht/data/chunk-000/episode_000000.parquet': Parquet magic "
    "bytes not found in footer. Either the file is corrupted or this is not a parquet file.\n"
    "$ head -c 120 tests/artifacts/datasets/pusht/data/chunk-000/episode_000000.parquet\n"
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:5d1f3b0a3c...\nsize 48211\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/datasets/test_datasets.py::test_load_local_artifact - "
    "pyarrow.lib.ArrowInvalid: Could not open Parquet input source\n"
    "FAILED tests/policies/test_policies.py::test_backward_compatibility[pusht-diffusion] - "
    "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge\n"
    "!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 10 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
    "============ 10 failed, 318 passed, 41 skipped in 74.90s (0:01:14) ============="
)
LEROBOT_TESTS_OK = (
    "============================= test session starts ==============================\n"
    "collected 2387 items\n...\n"
    "========= 2231 passed, 156 skipped, 12 warnings in 402.77s (0:06:42) =========="
)
LEROBOT_PRECOMMIT_FAIL = (
    "ruff.....................................................................Passed\n"
    "ruff-format..............................................................Passed\n"
    "typos....................................................................Failed\n"
    "- hook id: typos\n- exit code: 2\n\n"
    "error: `recieve` should be `receive`\n"
    "  --> src/lerobot/cameras/opencv/camera_opencv.py:31:25\n   |\n"
    "31 |         # wait to recieve the first frame\n   |                   ^^^^^^^\n   |\n"
    "bandit...................................................................Passed"
)
LEROBOT_MYPY_FAIL = (
    "mypy.....................................................................Failed\n"
    "- hook id: mypy\n- exit code: 1\n\n"
    "src/lerobot/cameras/opencv/camera_opencv.py:40: error: Function is missing a return type "
    "annotation  [no-untyped-def]\n"
    "src/lerobot/cameras/opencv/camera_opencv.py:40: note: Use \"-> None\" if function does not "
    "return a value\n"
    "Found 1 error in 1 file (checked 12 source files)"
)

LEROBOT_STORY = Story(
    id="dv-py-lerobot-uv",
    title="LeRobot: git-lfs test artifacts, pre-commit and uv run, guarded optional imports, "
          "gradual mypy, the AI policy, and the move from ignored lock files to a committed "
          "uv.lock",
    project=LEROBOT,
    sources=("huggingface/lerobot",),
    lessons=(
        lesson("no-lockfile", "decision",
               "No lock file is committed: poetry.lock and uv.lock are in .gitignore; set up with "
               "`uv sync --extra dev --extra test` (or poetry)",
               "lock", "gitignore"),
        lesson("uv-locked", "decision",
               "uv.lock is committed and CI uses it: set up with `uv sync --locked` (plus "
               "`--extra test --extra dev`); latest_deps_tests.yml upgrades it automatically",
               "uv sync --locked|--locked"),
        lesson("test-cmd", "command", "Run all tests with `uv run pytest tests -svv --maxfail=10`",
               "pytest tests", "maxfail"),
        lesson("lfs", "gotcha",
               "Test artifacts are in git LFS: run `git lfs install && git lfs pull` or the "
               "dataset/policy tests fail on pointer files (HeaderTooLarge, Parquet magic bytes)",
               "git lfs pull|lfs"),
        lesson("uv-run", "preference",
               "Use `uv run` to execute Python commands, not raw python or pip",
               "uv run", "python|pip"),
        lesson("precommit", "command",
               "Lint and format with `pre-commit run --all-files` (ruff, typos, bandit, ...)",
               "pre-commit run --all-files"),
        lesson("optional-guard", "convention",
               "Many policies, envs and robots are behind extras (e.g. lerobot[aloha]); new "
               "imports for optional packages must be guarded or lazy",
               "optional", "guarded|lazy"),
        lesson("optional-flags", "convention",
               "Guard optional imports with `TYPE_CHECKING or _foo_available` at module top plus "
               "a `require_package(...)` check at use time; reuse the _foo_available flags in "
               "utils/import_utils.py, don't call is_package_available",
               "require_package|_foo_available|import_utils"),
        lesson("mypy-gradual", "fact",
               "Mypy is gradual: strict only for lerobot.envs, configs, optim, model, cameras, "
               "motors, transport; add type annotations when modifying these modules",
               "mypy", "strict"),
        lesson("ai-policy", "convention",
               "Disclose significant AI assistance in the PR description (AI policy); the "
               "contributor must fully understand the changes",
               "disclose|AI policy|AI_POLICY"),
    ),
    also=(
        lesson("also-imports", "convention",
               "Prefer top-level imports; relative imports across sibling files within a "
               "module, absolute (from lerobot.module import X) across modules",
               "relative", "absolute"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: huggingface/lerobot CONTRIBUTING.md and .gitignore, commit fe483b1d0 (#737)
            User("welcome aboard. We just removed `poetry.lock`: for development we advise to "
                 "use a tool like poetry or uv instead of just pip. With uv: `uv venv --python "
                 "3.10 && source .venv/bin/activate` then `uv sync --extra dev --extra test`. "
                 "Lock files (poetry.lock, uv.lock) are in .gitignore, so don't commit one.",
                 states="no-lockfile"),
            Bash("uv venv --python 3.10 && source .venv/bin/activate && uv sync --extra dev "
                 "--extra test",
                 out="Using CPython 3.10.16\nCreating virtual environment at: .venv\nResolved "
                     "212 packages in 3.84s\nInstalled 198 packages in 9.21s"),
            # source: huggingface/lerobot AGENTS.md (8645d71e5, #3332), Key Commands
            User("the test suite: `uv run pytest tests -svv --maxfail=10`. Then have a look at "
                 "why the camera warmup sometimes returns a black frame.", states="test-cmd"),
            Bash("uv run pytest tests -svv --maxfail=10", out=LEROBOT_LFS_FAIL, ok=False),
            Say("The failures aren't about code: the artifacts under tests/artifacts are git LFS "
                "pointer files, not the real parquet/safetensors data. They need `git lfs "
                "install && git lfs pull` first.", states="lfs"),
            Bash("git lfs install && git lfs pull",
                 out="Updated Git hooks.\nGit LFS initialized.\nDownloading LFS objects: 100% "
                     "(1184/1184), 212 MB | 18 MB/s"),
            Bash("uv run pytest tests -svv --maxfail=10", out=LEROBOT_TESTS_OK),
            Edit("src/lerobot/cameras/opencv/camera_opencv.py",
                 "        self.videocapture = cv2.VideoCapture(self.config.index_or_path)\n",
                 "        self.videocapture = cv2.VideoCapture(self.config.index_or_path)\n"
                 "        if warmup:\n            # wait to recieve the first frame\n"
                 "            for _ in range(self.config.warmup_frames):\n"
                 "                self.videocapture.read()\n"),
        )),
        Session(day=3, events=(
            User("let's finish the warmup fix"),
            Bash("python -m pytest tests/cameras -q", out="...........\n11 passed in 3.02s"),
            # source: huggingface/lerobot AGENTS.md, Notes
            User("small thing: prioritize use of `uv run` to execute Python commands, not raw "
                 "`python` or `pip`.", states="uv-run"),
            Bash("uv run pytest tests/cameras -q", out="...........\n11 passed in 3.11s"),
            # source: huggingface/lerobot AGENTS.md, Key Commands
            User("and before committing, `pre-commit run --all-files`, that's lint + format "
                 "(ruff, typos, bandit, etc.).", states="precommit"),
            Bash("pre-commit run --all-files", out=LEROBOT_PRECOMMIT_FAIL, ok=False),
            Edit("src/lerobot/cameras/opencv/camera_opencv.py", "# wait to recieve the first",
                 "# wait to receive the first"),
            Bash("pre-commit run --all-files",
                 out="ruff.....Passed\nruff-format.....Passed\ntypos.....Passed\n"
                     "bandit.....Passed"),
            Commit("fix(cameras): drop warmup frames before the first read"),
        ), judge={"lfs": "not_down"}),
        Session(day=10, events=(
            User("new feature: a `pi0` policy entry in the factory. It needs transformers."),
            # source: huggingface/lerobot AGENTS.md (8645d71e5), Notes
            User("remember many policies, envs, and robots are behind extras (e.g., "
                 "`lerobot[aloha]`). New imports for optional packages must be guarded or lazy. "
                 "See `pyproject.toml [project.optional-dependencies]`.",
                 states="optional-guard"),
            Edit("src/lerobot/policies/factory.py", "    raise NotImplementedError",
                 "    if name == \"pi0\":\n"
                 "        from lerobot.policies.pi0.modeling_pi0 import PI0Policy\n\n"
                 "        return PI0Policy\n    raise NotImplementedError"),
            Edit("src/lerobot/cameras/opencv/camera_opencv.py",
                 "    def connect(self, warmup: bool = True) -> None:\n",
                 "    def read_rgb(self):\n        ok, frame = self.videocapture.read()\n"
                 "        return cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)\n\n"
                 "    def connect(self, warmup: bool = True) -> None:\n"),
            Bash("pre-commit run --all-files", out=LEROBOT_MYPY_FAIL, ok=False),
            Say("mypy only complains about the camera module: lerobot.cameras is checked "
                "strictly."),
            # source: huggingface/lerobot AGENTS.md, Notes
            User("yes. Mypy is gradual: strict only for `lerobot.envs`, `lerobot.configs`, "
                 "`lerobot.optim`, `lerobot.model`, `lerobot.cameras`, `lerobot.motors`, "
                 "`lerobot.transport`. Add type annotations when modifying these modules.",
                 states="mypy-gradual"),
            Edit("src/lerobot/cameras/opencv/camera_opencv.py", "    def read_rgb(self):\n",
                 "    def read_rgb(self) -> np.ndarray:\n"),
            Edit("src/lerobot/cameras/opencv/camera_opencv.py", "import cv2\n",
                 "import cv2\nimport numpy as np\n"),
            Probe("run the lint hooks again", needs=("precommit",)),
            Bash("pre-commit run --all-files",
                 out="ruff.....Passed\nruff-format.....Passed\ntypos.....Passed\n"
                     "bandit.....Passed\nmypy.....Passed"),
            Commit("feat(policies): register pi0 lazily; type read_rgb"),
        ), judge={"precommit": "not_down"}),
        Session(day=18, events=(
            # source: huggingface/lerobot AI_POLICY.md (095856b06, #3055)
            User("before you open PRs for me, read our new AI policy. Please disclose "
                 "significant AI assistance: if you used AI tools to generate a substantial "
                 "portion of your code or text, let us know in your PR description. Own your "
                 "code: you must fully understand all the changes you are proposing.",
                 states="ai-policy"),
            Say("Understood: PR descriptions will say that the change was written with an AI "
                "assistant, and I'll explain what each change does."),
            Probe("can you check the camera tests still pass after the pi0 merge?",
                  needs=("test-cmd", "uv-run")),
            Bash("uv run pytest tests/cameras -svv --maxfail=10",
                 out="...........\n11 passed in 3.40s"),
        )),
        Session(day=60, events=(
            # source: huggingface/lerobot commit 50a1e67e9 (#3292) and AGENTS.md Development Setup
            User("big change merged today: we now have a `uv.lock` in the repo and CI PR "
                 "testing uses it. Setup is `uv sync --locked` for base dependencies, `uv sync "
                 "--locked --extra test --extra dev` for test + dev tools. The latest deps "
                 "workflow (latest_deps_tests.yml) upgrades the lock file daily and opens a "
                 "'chore(dependencies): update uv.lock' PR after the CPU + GPU tests pass.",
                 states="uv-locked", replaces="no-lockfile"),
            Bash("git pull && uv sync --locked --extra test --extra dev",
                 out="Updating 9c1e2aa..50a1e67\n .gitignore | 1 -\n uv.lock | 6050 "
                     "+++++\nResolved 231 packages in 12ms\nAudited 219 packages in 4ms"),
            Edit(".gitignore", "poetry.lock\nuv.lock\n", "poetry.lock\n"),
            Commit("chore: stop ignoring uv.lock locally"),
        )),
        Session(day=75, events=(
            # source: huggingface/lerobot AGENTS.md, commit d3bed0fee (#3904)
            User("the optional-deps note in AGENTS.md got more precise: guard optional imports "
                 "with `TYPE_CHECKING or _foo_available` at module top + a "
                 "`require_package(...)` check at use time. Reuse the `_foo_available` flags in "
                 "`utils/import_utils.py`; don't call `is_package_available`. Imports: prefer "
                 "top-level imports; relative (`from .sibling import X`) across sibling files "
                 "within a module, absolute (`from lerobot.module import X`) across modules.",
                 states="optional-flags"),
            Say("Got it, the module-level flags from utils/import_utils.py plus require_package "
                "at use time."),
        )),
        Session(day=82, events=(
            User("I'm starting on SO-101 support this week"),
            Probe("add a Feetech motors bus module that uses the feetech SDK",
                  needs=("optional-guard", "optional-flags", "mypy-gradual")),
            Probe("I have a fresh workstation, get the repo ready so I can run tests",
                  needs=("uv-locked", "lfs")),
            Probe("open a PR for the Feetech bus when it's done",
                  needs=("ai-policy",)),
        )),
    ),
)


# ---------------------------------------------------------------------------------------------
# 5. OpenHands/OpenHands: the Python backend of an AI software engineer (poetry, pre-commit)
# ---------------------------------------------------------------------------------------------

OPENHANDS = Project("openhands", "python", {
    "pyproject.toml": (
        '[tool.poetry]\nname = "openhands-ai"\nversion = "0.30.0"\n'
        'description = "OpenHands: Code Less, Make More"\n'
        'packages = [{ include = "openhands" }]\n\n'
        '[tool.poetry.dependencies]\npython = "^3.12"\nlitellm = "^1.60.0"\n'
        'fastapi = "*"\npydantic = "^2.10"\n\n[tool.poetry.group.test.dependencies]\n'
        'pytest = "*"\npytest-asyncio = "*"\n'
    ),
    "Makefile": (
        "PRE_COMMIT_CONFIG_PATH = \"./dev_config/python/.pre-commit-config.yaml\"\n\n"
        "install-pre-commit-hooks: check-python check-poetry install-python-dependencies\n"
        "\t@echo \"Installing pre-commit hooks...\"\n"
        "\t@git config --unset-all core.hooksPath || true\n"
        "\t@poetry run pre-commit install --config $(PRE_COMMIT_CONFIG_PATH)\n"
        "\t@echo \"Pre-commit hooks installed successfully.\"\n\n"
        "lint-backend: install-pre-commit-hooks\n"
        "\t@poetry run pre-commit run --all-files --show-diff-on-failure --config "
        "$(PRE_COMMIT_CONFIG_PATH)\n"
    ),
    "dev_config/python/.pre-commit-config.yaml": (
        "repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v5.0.0\n"
        "    hooks:\n      - id: trailing-whitespace\n      - id: end-of-file-fixer\n"
        "      - id: check-yaml\n      - id: debug-statements\n"
        "  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.11.8\n"
        "    hooks:\n      - id: ruff\n        entry: ruff check --config "
        "dev_config/python/ruff.toml\n        args: [--fix, --unsafe-fixes]\n"
        "      - id: ruff-format\n  - repo: https://github.com/pre-commit/mirrors-mypy\n"
        "    rev: v1.15.0\n    hooks:\n      - id: mypy\n"
    ),
    "openhands/utils/conversation_summary.py": (
        "from openhands.core.config import LLMConfig\nfrom openhands.llm.llm import LLM\n\n\n"
        "async def generate_conversation_title(message: str, llm_config: LLMConfig, "
        "max_length: int = 50) -> str | None:\n"
        "    if not message or message.strip() == '':\n        return None\n"
        "    llm = LLM(llm_config)\n    response = llm.completion(messages=[\n"
        "        {'role': 'system', 'content': 'Generate a concise title (max 50 characters).'},\n"
        "        {'role': 'user', 'content': message},\n    ])\n"
        "    title = response.choices[0].message.content.strip()\n"
        "    return title\n"
    ),
    "openhands/storage/settings/file_settings_store.py": (
        "import json\nfrom dataclasses import dataclass\n\n"
        "from openhands.storage.data_models.settings import Settings\n"
        "from openhands.storage.files import FileStore\n\n\n@dataclass\n"
        "class FileSettingsStore:\n    file_store: FileStore\n"
        "    path: str = 'settings.json'\n\n"
        "    async def load(self) -> Settings | None:\n        try:\n"
        "            json_str = self.file_store.read(self.path)\n"
        "            return Settings(**json.loads(json_str))\n"
        "        except FileNotFoundError:\n            return None\n"
    ),
    "tests/unit/test_conversation_summary.py": (
        "from unittest.mock import MagicMock, patch\n\nimport pytest\n\n"
        "from openhands.utils.conversation_summary import generate_conversation_title\n\n\n"
        "@pytest.mark.asyncio\nasync def test_empty_message_returns_none():\n"
        "    assert await generate_conversation_title('', MagicMock()) is None\n"
    ),
    ".github/pull_request_template.md": (
        "## Summary of PR\n\n<!-- Summarize what the PR does, explaining any non-trivial design "
        "decisions. -->\n\n## Change Type\n\n- [ ] Bug fix\n- [ ] New feature\n"
        "- [ ] Breaking change\n- [ ] Refactor\n- [ ] Other\n\n## Checklist\n"
        "<!-- AI/LLM AGENTS: This checklist is for a human author to complete. Do NOT check "
        "either of the two boxes below. Leave them unchecked until a human has personally "
        "reviewed and tested the changes. -->\n\n"
        "- [ ] I have read and reviewed the code and I understand what the code is doing.\n"
        "- [ ] I have tested the code to the best of my ability and ensured it works as "
        "expected.\n\n## Fixes\n\nResolves #(issue)\n\n## Release Notes\n\n"
        "- [ ] Include this change in the Release Notes.\n"
    ),
})

OH_PRECOMMIT_FAIL = (
    "trim trailing whitespace.................................................Failed\n"
    "- hook id: trailing-whitespace\n- exit code: 1\n- files were modified by this hook\n\n"
    "Fixing openhands/utils/conversation_summary.py\n\n"
    "fix end of files.........................................................Failed\n"
    "- hook id: end-of-file-fixer\n- exit code: 1\n- files were modified by this hook\n\n"
    "Fixing tests/unit/test_conversation_summary.py\n\n"
    "check yaml...........................................(no files to check)Skipped\n"
    "debug statements (python)................................................Passed\n"
    "ruff.....................................................................Passed\n"
    "ruff-format..............................................................Failed\n"
    "- hook id: ruff-format\n- files were modified by this hook\n\n1 file reformatted\n\n"
    "mypy.....................................................................Failed\n"
    "- hook id: mypy\n- exit code: 1\n\n"
    "openhands/utils/conversation_summary.py:19: error: Item \"None\" of \"str | None\" has no "
    "attribute \"strip\"  [union-attr]\nFound 1 error in 1 file (checked 1 source file)"
)
OH_PRECOMMIT_OK = (
    "trim trailing whitespace.................................................Passed\n"
    "fix end of files.........................................................Passed\n"
    "check yaml...........................................(no files to check)Skipped\n"
    "debug statements (python)................................................Passed\n"
    "ruff.....................................................................Passed\n"
    "ruff-format..............................................................Passed\n"
    "mypy.....................................................................Passed"
)
OH_PYTEST_OK = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.12.9, pytest-8.3.5, pluggy-1.5.0\n"
    "rootdir: /workspace/OpenHands\nconfigfile: pytest.ini\n"
    "plugins: asyncio-0.25.3, anyio-4.8.0, forked-1.6.0, xdist-3.6.1\n"
    "collected 4 items\n\ntests/unit/test_conversation_summary.py ....          [100%]\n\n"
    "============================== 4 passed in 0.83s ==============================="
)

OPENHANDS_STORY = Story(
    id="dv-py-openhands-backend",
    title="OpenHands backend: pre-commit hooks first, the backend lint switching from all files "
          "to staged files, unit tests, the PR template's human-only checklist, git habits",
    project=OPENHANDS,
    sources=("OpenHands/OpenHands",),
    lessons=(
        lesson("hooks-install", "command",
               "Before making any changes, always run `make install-pre-commit-hooks`",
               "install-pre-commit-hooks"),
        lesson("lint-all", "command",
               "After backend changes run `pre-commit run --all-files --config "
               "./dev_config/python/.pre-commit-config.yaml`; hooks must pass before pushing",
               "--all-files", "dev_config/python"),
        lesson("lint-staged", "command",
               "After backend changes run `pre-commit run --config "
               "./dev_config/python/.pre-commit-config.yaml`, which runs on staged files",
               "staged", "pre-commit"),
        lesson("lint-rerun", "gotcha",
               "When pre-commit fails it may have fixed some issues itself: fix the rest (mypy "
               "errors, ruff formatting, trailing whitespace, missing newline at end of file) "
               "and re-run until it passes",
               "re-run|rerun", "mypy|trailing whitespace|automatically fixed"),
        lesson("unit-tests", "command",
               "Backend tests live in tests/unit/test_*.py and are written with pytest; run "
               "`poetry run pytest tests/unit/test_xxx.py` for the file of the feature",
               "poetry run pytest", "tests/unit"),
        lesson("pr-template", "convention",
               "Pull requests follow the template in .github/pull_request_template.md",
               "pull_request_template"),
        lesson("checklist-human", "convention",
               "AI agents must NOT check the two checklist boxes of the PR template; they stay "
               "unchecked until a human has personally reviewed and tested the changes",
               "checklist|check either|boxes", "human"),
        lesson("git-add", "convention",
               "Prefer `git add <filename>` over `git add .` so nothing unintended is staged; be "
               "careful with `git reset --hard` after staging",
               "git add"),
        lesson("rebase-upstream", "command",
               "When the remote has new changes: `git fetch upstream && git rebase "
               "upstream/<branch>` on the same branch",
               "rebase upstream|git rebase"),
        lesson("labels", "convention",
               "When adding labels to a PR, pick from the labels that already exist on the "
               "repository; do not invent new ones",
               "label", "existing|invent"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: OpenHands/OpenHands .openhands/microagents/repo.md (b6321488bc, #7595)
            User("hi! before we start. IMPORTANT: before making any changes to the codebase, "
                 "ALWAYS run `make install-pre-commit-hooks` to ensure pre-commit hooks are "
                 "properly installed.", states="hooks-install"),
            Bash("make install-pre-commit-hooks",
                 out="Installing pre-commit hooks...\npre-commit installed at .git/hooks/"
                     "pre-commit\nPre-commit hooks installed successfully."),
            # source: OpenHands/OpenHands repo.md (c1b514e9d3 .. 4de8c4d6b1)
            User("task: conversation titles generated by the LLM are sometimes longer than "
                 "max_length, truncate them. Before pushing any changes, you MUST ensure that any "
                 "lint errors or simple test errors have been fixed. If you've made changes to "
                 "the backend, you should run `pre-commit run --all-files --config "
                 "./dev_config/python/.pre-commit-config.yaml`.", states="lint-all"),
            Edit("openhands/utils/conversation_summary.py",
                 "    title = response.choices[0].message.content.strip()\n    return title\n",
                 "    title = response.choices[0].message.content.strip()   \n"
                 "    if len(title) > max_length:\n"
                 "        title = title[: max_length - 3] + '...'\n    return title\n"),
            Edit("tests/unit/test_conversation_summary.py",
                 "    assert await generate_conversation_title('', MagicMock()) is None\n",
                 "    assert await generate_conversation_title('', MagicMock()) is None\n\n\n"
                 "@pytest.mark.asyncio\nasync def test_long_title_is_truncated():\n"
                 "    with patch('openhands.utils.conversation_summary.LLM') as llm:\n"
                 "        llm.return_value.completion.return_value.choices = "
                 "[MagicMock(message=MagicMock(content='x' * 80))]\n"
                 "        title = await generate_conversation_title('hi', MagicMock(), 50)\n"
                 "    assert len(title) == 50"),
            Bash("pre-commit run --all-files --config ./dev_config/python/.pre-commit-config.yaml",
                 out=OH_PRECOMMIT_FAIL, ok=False),
            # source: OpenHands/OpenHands repo.md, pre-commit section
            User("if the command fails, it may have automatically fixed some issues. You should "
                 "fix any issues that weren't automatically fixed, then re-run the command to "
                 "ensure it passes. Common issues include mypy type errors, ruff formatting "
                 "issues, trailing whitespace and missing newlines at end of files.",
                 states="lint-rerun"),
            Edit("openhands/utils/conversation_summary.py",
                 "    title = response.choices[0].message.content.strip()   \n",
                 "    content = response.choices[0].message.content\n"
                 "    if content is None:\n        return None\n    title = content.strip()\n"),
            Bash("pre-commit run --all-files --config ./dev_config/python/.pre-commit-config.yaml",
                 out=OH_PRECOMMIT_OK),
            # source: OpenHands/OpenHands repo.md, Repository Structure > Backend > Testing
            User("good. All tests are in `tests/unit/test_*.py`. To test new code, run `poetry "
                 "run pytest tests/unit/test_xxx.py` where xxx is the appropriate file for the "
                 "current functionality. Write all tests with pytest.", states="unit-tests"),
            Bash("poetry run pytest tests/unit/test_conversation_summary.py", out=OH_PYTEST_OK),
            Commit("Truncate LLM-generated conversation titles to max_length"),
        )),
        Session(day=3, events=(
            # source: OpenHands/OpenHands repo.md (e2a0884ecd, #7456)
            User("let's open the PR for the title fix. If you are starting a pull request, "
                 "please follow the template in `.github/pull_request_template.md`.",
                 states="pr-template"),
            Read(".github/pull_request_template.md"),
            # source: OpenHands/OpenHands .github/pull_request_template.md
            Say("The template's checklist says: 'AI/LLM AGENTS: This checklist is for a human "
                "author to complete. Do NOT check either of the two boxes below. Leave them "
                "unchecked until a human has personally reviewed and tested the changes.' I'll "
                "fill in the summary, change type and the issue, and leave both boxes for you.",
                states="checklist-human"),
            Bash("gh pr create --title 'Truncate LLM-generated conversation titles' --body-file "
                 "/tmp/pr_body.md",
                 out="https://github.com/example-org/OpenHands/pull/7511"),
            User("perfect, I'll tick them after I've tried it locally."),
        )),
        Session(day=10, events=(
            User("the settings store crashes on a corrupt settings.json, can you make load() "
                 "return None in that case too?"),
            Edit("openhands/storage/settings/file_settings_store.py",
                 "        except FileNotFoundError:\n            return None\n",
                 "        except (FileNotFoundError, json.JSONDecodeError):\n"
                 "            return None\n"),
            Write("tests/unit/test_file_settings_store.py",
                  "import pytest\n\nfrom openhands.storage.memory import InMemoryFileStore\n"
                  "from openhands.storage.settings.file_settings_store import "
                  "FileSettingsStore\n\n\n@pytest.mark.asyncio\n"
                  "async def test_corrupt_settings_returns_none():\n"
                  "    store = FileSettingsStore(InMemoryFileStore({'settings.json': '{'}))\n"
                  "    assert await store.load() is None\n"),
            Probe("run the test you just wrote", needs=("unit-tests",)),
            Bash("poetry run pytest tests/unit/test_file_settings_store.py",
                 out="tests/unit/test_file_settings_store.py .   [100%]\n1 passed in 0.41s"),
            Probe("lint it before I push", needs=("lint-all",)),
            Bash("pre-commit run --all-files --config ./dev_config/python/.pre-commit-config.yaml",
                 out=OH_PRECOMMIT_OK),
            Commit("Return None from FileSettingsStore.load on corrupt JSON"),
        ), judge={"unit-tests": "not_down", "lint-all": "not_down"}),
        Session(day=45, events=(
            # source: OpenHands/OpenHands repo.md (10c56932af, #8433 "Fix: update pre-commit docs")
            User("heads up, we fixed the pre-commit docs. If you've made changes to the "
                 "backend, you should run `pre-commit run --config "
                 "./dev_config/python/.pre-commit-config.yaml` (this will run on staged files). "
                 "The whole-repo run was flagging files nobody touched.",
                 states="lint-staged", replaces="lint-all"),
            Say("Okay: pre-commit on the staged files only, with the dev_config/python config."),
            User("also just for today, don't bother building the frontend, I only need the "
                 "backend running."),
            Bash("poetry run uvicorn openhands.server.listen:app --port 3000 &> "
                 "/tmp/openhands-log.txt &", out="[1] 48211"),
        )),
        Session(day=70, events=(
            # source: OpenHands/OpenHands repo.md (fcb190281c, #9335), Git Best Practices
            User("a few git habits we wrote down after an accident last week: prefer specific "
                 "`git add <filename>` instead of `git add .` to avoid accidentally staging "
                 "unintended files. Be especially careful with `git reset --hard` after staging "
                 "files, as it will remove accidentally staged files. When remote has new "
                 "changes, use `git fetch upstream && git rebase upstream/<branch>` on the same "
                 "branch.", states=("git-add", "rebase-upstream")),
            Say("Noted, I'll stage files by name and rebase on upstream when main moves."),
        )),
        Session(day=95, events=(
            # source: OpenHands/OpenHands repo.md (97bcb2162d, #10446)
            User("one more for PRs: if you need to add labels when opening a PR, check the "
                 "existing labels defined on that repository and select from existing ones. Do "
                 "not invent your own labels.", states="labels"),
            User("now, the MCP settings endpoint: deleting a server should also drop its "
                 "stored env vars."),
            Probe("before you touch the code, anything to set up first?",
                  needs=("hooks-install",)),
            Bash("make install-pre-commit-hooks",
                 out="Installing pre-commit hooks...\nPre-commit hooks installed successfully."),
            Edit("openhands/storage/settings/file_settings_store.py",
                 "    async def load(self) -> Settings | None:\n",
                 "    async def delete_mcp_server(self, name: str) -> None:\n"
                 "        settings = await self.load()\n        if settings is None:\n"
                 "            return\n        settings.mcp_config.pop(name, None)\n"
                 "        settings.mcp_env.pop(name, None)\n"
                 "        self.file_store.write(self.path, settings.model_dump_json())\n\n"
                 "    async def load(self) -> Settings | None:\n"),
        )),
        Session(day=96, events=(
            Probe("stage and commit the MCP change, and make sure lint is happy",
                  needs=("git-add", "lint-staged")),
            Bash("git add openhands/storage/settings/file_settings_store.py && pre-commit run "
                 "--config ./dev_config/python/.pre-commit-config.yaml", out=OH_PRECOMMIT_OK),
            Commit("Drop stored env vars when an MCP server is deleted"),
            Probe("main moved on since yesterday, bring my branch up to date",
                  needs=("rebase-upstream",)),
            Bash("git fetch upstream && git rebase upstream/main",
                 out="Successfully rebased and updated refs/heads/mcp-delete-env."),
            Probe("open the PR and label it", needs=("pr-template", "checklist-human", "labels")),
        ), judge={"lint-staged": "not_down"}),
    ),
)

STORIES = [LOGFIRE_STORY, INSTRUCTOR_STORY, SMOLAGENTS_STORY, LEROBOT_STORY, OPENHANDS_STORY]
