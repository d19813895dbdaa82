"""Held-out stories in Python projects (Django, an async SDK, an agents SDK, a tool-server
framework and a CLI), written from public instruction files, commit histories and issue threads.
"""

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
# Story 1: wirecall, an async JSON-RPC client/server SDK (anyio, pydantic, uv, ruff, pyright).
# ---------------------------------------------------------------------------------------------

WIRECALL = Project("wirecall", "python", {
    "pyproject.toml": (
        '[project]\nname = "wirecall"\nversion = "1.6.0"\nrequires-python = ">=3.10"\n'
        'dependencies = ["anyio>=4.5", "httpx>=0.27", "pydantic>=2.7"]\n\n'
        '[dependency-groups]\ndev = [\n    "pytest>=8.3",\n    "pytest-xdist>=3.6",\n'
        '    "pyright>=1.1.391",\n    "ruff>=0.8",\n    "coverage[toml]>=7.6",\n'
        '    "strict-no-cover>=0.1",\n]\n\n'
        '[tool.ruff]\nline-length = 88\n\n'
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\nfilterwarnings = ["error"]\n\n'
        '[tool.coverage.run]\nbranch = true\nsource = ["src/wirecall", "tests"]\n\n'
        '[tool.coverage.report]\nfail_under = 100\n'
    ),
    "src/wirecall/__init__.py": '"""Async JSON-RPC sessions over pluggable transports."""\n',
    "src/wirecall/shared/messages.py": (
        "from typing import Any\n\nfrom pydantic import BaseModel\n\n\n"
        "class Request(BaseModel):\n    id: int\n    method: str\n"
        "    params: dict[str, Any] | None = None\n\n\n"
        "class Response(BaseModel):\n    id: int\n    result: Any = None\n"
        "    error: dict[str, Any] | None = None\n"
    ),
    "src/wirecall/shared/config.py": (
        "import json\nfrom pathlib import Path\nfrom typing import Any\n\n\n"
        "def load_server_config(path: Path) -> dict[str, Any]:\n"
        "    return json.loads(path.read_text())\n"
    ),
    "src/wirecall/client/session.py": (
        "import logging\nfrom itertools import count\n\nimport anyio\n\n"
        "from wirecall.shared.messages import Request, Response\n\n"
        "logger = logging.getLogger(__name__)\n\n\n"
        "class ClientSession:\n"
        "    def __init__(self, transport, read_timeout: float | None = None) -> None:\n"
        "        self._transport = transport\n        self._read_timeout = read_timeout\n"
        "        self._ids = count(1)\n\n"
        "    async def send_request(self, method: str, params: dict | None = None) -> Response:\n"
        "        request = Request(id=next(self._ids), method=method, params=params)\n"
        "        with anyio.fail_after(self._read_timeout):\n"
        "            await self._transport.send(request.model_dump_json())\n"
        "            raw = await self._transport.receive()\n"
        "        return Response.model_validate_json(raw)\n"
    ),
    "tests/client/test_session.py": (
        "import pytest\n\nfrom tests.fakes import EchoTransport\n"
        "from wirecall.client.session import ClientSession\n\n\n"
        "@pytest.mark.anyio\nasync def test_send_request_round_trip():\n"
        "    session = ClientSession(EchoTransport())\n"
        "    response = await session.send_request(\"echo\", {\"x\": 1})\n"
        "    assert response.result == {\"x\": 1}\n"
    ),
    "scripts/test": (
        "#!/bin/sh\n\nset -ex\n\nuv run --frozen coverage erase\n"
        "uv run --frozen coverage run -m pytest -n auto \"$@\"\n"
        "uv run --frozen coverage combine\nuv run --frozen coverage report\n"
        "UV_FROZEN=1 uv run --frozen strict-no-cover\n"
    ),
    "docs/migration.md": (
        "# Migration guide: v1 to v2\n\n## Sessions\n\n"
        "`ClientSession` no longer starts its own task group; use it as an async context "
        "manager.\n"
    ),
})

WC_PYTEST_PASS = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.12.8, pytest-8.3.4, pluggy-1.5.0\n"
    "rootdir: /home/dev/wirecall\nconfigfile: pyproject.toml\nplugins: anyio-4.8.0, "
    "xdist-3.6.1\ncollected 212 items\n\n"
    "tests/client/test_session.py ........                                    [  3%]\n"
    "tests/server/test_lowlevel.py ..........................................  [ 23%]\n"
    "tests/shared/test_messages.py ...........................................  [ 43%]\n"
    "tests/transports/test_stdio.py ........................................... [ 64%]\n"
    "tests/transports/test_http.py ............................................ [ 85%]\n"
    "tests/test_examples.py ...............................                     [100%]\n\n"
    "============================= 212 passed in 9.84s =============================="
)

WC_RUFF_E501 = (
    "src/wirecall/client/session.py:27:89: E501 Line too long (97 > 88)\n"
    "   |\n26 |     async def send_ping(self) -> None:\n"
    "27 |         \"\"\"Send a ping and wait for the empty result, honouring the read "
    "timeout.\"\"\"\n"
    "   |                                                                                  "
    "       ^^^^^^^^^ E501\n   |\n\nFound 1 error."
)

WC_COV_MISS = (
    "+ uv run --frozen coverage erase\n"
    "+ uv run --frozen coverage run -m pytest -n auto\n"
    "bringing up nodes...\n........................................................... "
    "[ 27%]\n.................................................................... [100%]\n"
    "215 passed in 7.12s\n+ uv run --frozen coverage combine\n"
    "Combined data file .coverage.runner.12977.XyZbQp\n"
    "+ uv run --frozen coverage report\n"
    "Name                                   Stmts   Miss Branch BrPart  Cover   Missing\n"
    "----------------------------------------------------------------------------------\n"
    "src/wirecall/client/session.py            31      2      8      1    92%   40-41\n"
    "----------------------------------------------------------------------------------\n"
    "TOTAL                                   1874      2    412      1    99%\n\n"
    "61 files skipped due to complete coverage.\n"
    "Coverage failure: total of 99 is less than fail-under=100"
)

WC_COV_OK = (
    "+ uv run --frozen coverage erase\n"
    "+ uv run --frozen coverage run -m pytest -n auto\n"
    "216 passed in 7.31s\n+ uv run --frozen coverage combine\n"
    "+ uv run --frozen coverage report\n"
    "Name    Stmts   Miss Branch BrPart  Cover   Missing\n"
    "---------------------------------------------------\n"
    "TOTAL    1876      0    414      0   100%\n\n62 files skipped due to complete coverage.\n"
    "+ UV_FROZEN=1 uv run --frozen strict-no-cover\n"
    "strict-no-cover: no executed 'pragma: no cover' lines found"
)

WC_ENCODING_FAIL = (
    "+ PYTHONWARNDEFAULTENCODING=1 uv run --frozen coverage run -m pytest -n auto\n"
    "bringing up nodes...\n"
    "..................................F................................... [ 33%]\n"
    "...................................................................... [100%]\n"
    "=================================== FAILURES ===================================\n"
    "__________________________ test_load_server_config ___________________________\n"
    "[gw1] linux -- Python 3.12.8 /home/dev/wirecall/.venv/bin/python\n\n"
    "tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-41/test_load_server_config0')\n\n"
    "    def test_load_server_config(tmp_path):\n"
    "        cfg = tmp_path / \"servers.json\"\n"
    "        cfg.write_text('{\"weather\": {\"command\": \"uvx\"}}', encoding=\"utf-8\")\n"
    ">       assert load_server_config(cfg) == {\"weather\": {\"command\": \"uvx\"}}\n\n"
    "tests/shared/test_config.py:11:\n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
    "src/wirecall/shared/config.py:7: in load_server_config\n"
    "    return json.loads(path.read_text())\n"
    "E   EncodingWarning: 'encoding' argument not specified\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/shared/test_config.py::test_load_server_config - EncodingWarning: "
    "'encoding' argument not specified\n"
    "======================== 1 failed, 215 passed in 7.40s ========================="
)

WIRECALL_STORY = Story(
    id="ho-py-wirecall-1",
    title="An async RPC SDK: uv-only tooling, a line-length raise, a new upgrade command, "
          "coverage, a text-encoding gotcha and a closed migration guide",
    project=WIRECALL,
    sources=("modelcontextprotocol/python-sdk",),
    lessons=(
        lesson("uv-only", "convention",
               "Only use uv, never pip: `uv pip install` and the `@latest` syntax are forbidden",
               "pip", "uv"),
        lesson("test-cmd", "command",
               "Run the tests with `uv run --frozen pytest`; always pass --frozen so uv does "
               "not rewrite uv.lock as a side effect",
               "frozen", "pytest"),
        lesson("line-88", "convention", "Line length: 88 characters maximum (ruff E501)",
               "88", "line too long|line length|line-length|chars|characters"),
        lesson("line-120", "convention",
               "Line length is 120 characters now (ruff line-length = 120), not 88",
               "120", "line length|line-length|chars|characters|columns"),
        lesson("upgrade-add", "command",
               "Upgrade a package with `uv add --dev <package> --upgrade-package <package>`",
               "uv add", "upgrade-package"),
        lesson("upgrade-lock", "command",
               "Upgrade a package with `uv lock --upgrade-package <package>`",
               "uv lock", "upgrade-package"),
        lesson("coverage", "command",
               "CI requires 100% branch coverage (fail_under = 100, branch = true); the full "
               "check that matches CI is `./scripts/test`",
               "scripts/test", "coverage|100%|fail_under|fail-under"),
        lesson("encoding", "gotcha",
               "Always pass encoding= (normally \"utf-8\") to text-mode open(), "
               "Path.read_text()/write_text(); scripts/test and CI set "
               "PYTHONWARNDEFAULTENCODING=1 so an omission fails as an EncodingWarning",
               "encoding", "utf-8|utf8|EncodingWarning|PYTHONWARNDEFAULTENCODING"),
        lesson("migration-doc", "convention",
               "Document breaking changes in docs/migration.md: what changed, why, and how to "
               "migrate existing code",
               "migration.md|migration guide", "breaking"),
        lesson("migration-closed", "decision",
               "v2 is released: docs/migration.md is the v1 to v2 record and is closed to new "
               "entries; changing the 2.x public API is a maintainer decision, generally avoided",
               "migration.md|migration guide", "closed|no new entries|no longer"),
    ),
    also=(
        lesson("also-anyio", "convention", "Async tests use anyio, not asyncio",
               "anyio", "asyncio"),
        lesson("also-logger-exception", "convention",
               "Use logger.exception() instead of logger.error() when catching exceptions, "
               "without the exception in the message",
               "logger.exception"),
        lesson("also-test-functions", "convention",
               "Do not use Test-prefixed classes in tests; use functions",
               "Test", "class|functions"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: modelcontextprotocol/python-sdk CLAUDE.md (57c3aa2f0, c06362126)
            User("hey, before you start: ONLY use uv, NEVER pip. Forbidden here: `uv pip "
                 "install`, `@latest` syntax. Running tools: `uv run --frozen <tool>`, always "
                 "pass --frozen so uv doesn't rewrite uv.lock as a side effect; for the tests "
                 "that's `uv run --frozen pytest`. Today I'd like ClientSession to grow a "
                 "send_ping() that honours the read timeout.",
                 states=("uv-only", "test-cmd")),
            Read("src/wirecall/client/session.py"),
            Edit("src/wirecall/client/session.py",
                 "        return Response.model_validate_json(raw)\n",
                 "        return Response.model_validate_json(raw)\n\n"
                 "    async def send_ping(self) -> None:\n"
                 "        \"\"\"Send a ping and wait for the empty result, honouring the read "
                 "timeout.\"\"\"\n"
                 "        await self.send_request(\"ping\")\n"),
            # source: modelcontextprotocol/python-sdk CLAUDE.md (57c3aa2f0): "Async testing:
            # use anyio, not asyncio"
            User("for the test: async testing uses anyio, not asyncio."),
            Edit("tests/client/test_session.py",
                 "    assert response.result == {\"x\": 1}\n",
                 "    assert response.result == {\"x\": 1}\n\n\n"
                 "@pytest.mark.anyio\nasync def test_send_ping():\n"
                 "    session = ClientSession(EchoTransport(), read_timeout=1)\n"
                 "    await session.send_ping()\n"),
            Bash("uv run --frozen pytest tests/client -q",
                 out="..........                                                 [100%]\n"
                     "10 passed in 0.41s"),
            Bash("uv run --frozen ruff check .", out=WC_RUFF_E501, ok=False, exit=1,
                 states="line-88"),
            Say("Ruff flags the docstring: line length is capped at 88 characters here. I'll "
                "shorten it rather than wrap it."),
            Edit("src/wirecall/client/session.py",
                 "        \"\"\"Send a ping and wait for the empty result, honouring the read "
                 "timeout.\"\"\"\n",
                 "        \"\"\"Ping the peer, honouring the read timeout.\"\"\"\n"),
            Bash("uv run --frozen ruff check . && uv run --frozen pyright",
                 out="All checks passed!\n0 errors, 0 warnings, 0 informations"),
            Bash("uv run --frozen pytest", out=WC_PYTEST_PASS),
            Commit("feat: add ClientSession.send_ping"),
        ), judge={"test-cmd": "not_down"}),
        Session(day=4, events=(
            # source: modelcontextprotocol/python-sdk CLAUDE.md (1bbd27d4a, 57c3aa2f0)
            User("pytest-xdist 3.8 fixes the worker crash we keep seeing in CI, can you bump "
                 "it? Upgrading here is `uv add --dev package --upgrade-package package`. "
                 "Don't use `@latest`, it doesn't work.", states="upgrade-add"),
            Bash("uv add --dev pytest-xdist --upgrade-package pytest-xdist",
                 out="Resolved 52 packages in 388ms\nPrepared 1 package in 91ms\n"
                     "Uninstalled 1 package in 2ms\nInstalled 1 package in 5ms\n"
                     " - pytest-xdist==3.6.1\n + pytest-xdist==3.8.0"),
            Edit("pyproject.toml", '    "pytest-xdist>=3.6",\n', '    "pytest-xdist>=3.8",\n'),
            # source: modelcontextprotocol/python-sdk CLAUDE.md (a287a4018, 7ba41dcfa)
            User("also, before you push anything: CI requires 100% (`fail_under = 100`, "
                 "`branch = true`). Full check is `./scripts/test` (~20s, matches CI exactly). "
                 "Partial runs can't hit 100%.", states="coverage"),
            Bash("./scripts/test", out=WC_COV_MISS, ok=False, exit=2),
            Read("src/wirecall/client/session.py"),
            Say("send_request has an error branch (the peer answering with an `error` object) "
                "that no test reaches. I'll add a test for it."),
            # source: modelcontextprotocol/python-sdk CLAUDE.md (4fee123e7)
            User("while you're in there: always use logger.exception() instead of "
                 "logger.error() when catching exceptions, and don't include the exception in "
                 "the message."),
            Edit("tests/client/test_session.py",
                 "    await session.send_ping()\n",
                 "    await session.send_ping()\n\n\n"
                 "@pytest.mark.anyio\nasync def test_send_request_error_response():\n"
                 "    session = ClientSession(EchoTransport(fail_with={\"code\": -32601}))\n"
                 "    response = await session.send_request(\"nope\")\n"
                 "    assert response.error == {\"code\": -32601}\n"),
            Bash("./scripts/test", out=WC_COV_OK),
            # just for this PR: a one-off, not a rule
            User("great. just for this PR skip the docs build, nothing user-facing changed."),
            Commit("chore: bump pytest-xdist to 3.8 and cover the error response branch"),
        ), judge={"coverage": "not_down"}),
        Session(day=10, events=(
            # source: modelcontextprotocol/python-sdk PR #856 "Use 120 characters instead of
            # 88" and CLAUDE.md (4fee123e7)
            User("FYI we merged 'Use 120 characters instead of 88' upstream: line length is "
                 "120 chars maximum now. Can you update the ruff config to match?",
                 replaces="line-88", states="line-120"),
            Edit("pyproject.toml", "[tool.ruff]\nline-length = 88\n",
                 "[tool.ruff]\nline-length = 120\n"),
            Bash("uv run --frozen ruff format . && uv run --frozen ruff check .",
                 out="14 files reformatted, 49 files left unchanged\nAll checks passed!"),
            Commit("chore: raise the line length to 120"),
            Probe("the reformat touched a lot of files, make sure nothing broke",
                  needs="test-cmd"),
            Bash("uv run --frozen pytest", out=WC_PYTEST_PASS),
            Probe("anyio 4.9 is out with the cancel-scope fix, pull it in please",
                  needs=("upgrade-add", "uv-only")),
            Bash("uv add anyio --upgrade-package anyio",
                 out="Resolved 52 packages in 402ms\nUninstalled 1 package in 3ms\n"
                     "Installed 1 package in 6ms\n - anyio==4.8.0\n + anyio==4.9.0"),
            Edit("pyproject.toml", '"anyio>=4.5"', '"anyio>=4.9"'),
            Commit("chore: bump anyio to 4.9"),
        )),
        Session(day=17, events=(
            # source: modelcontextprotocol/python-sdk CLAUDE.md (c06362126 "chore: add more
            # opinions to CLAUDE.md")
            User("couple of updates to the guidelines from the maintainers sync: upgrading is "
                 "now `uv lock --upgrade-package <package>`. And do not use `Test` prefixed "
                 "classes, use functions.", replaces="upgrade-add", states="upgrade-lock"),
            # source: modelcontextprotocol/python-sdk CLAUDE.md (d5edcb3e9)
            User("then the real task: rename read_timeout to request_timeout on ClientSession, "
                 "it's a breaking change. When making breaking changes, document them in "
                 "`docs/migration.md`. Include what changed, why it changed, and how to migrate "
                 "existing code. Group it with related sections rather than adding a new "
                 "standalone one.", states="migration-doc"),
            Edit("src/wirecall/client/session.py",
                 "    def __init__(self, transport, read_timeout: float | None = None) -> None:\n"
                 "        self._transport = transport\n        self._read_timeout = read_timeout\n",
                 "    def __init__(\n"
                 "        self, transport, request_timeout: float | None = None\n    ) -> None:\n"
                 "        self._transport = transport\n"
                 "        self._read_timeout = request_timeout\n"),
            Edit("tests/client/test_session.py", "ClientSession(EchoTransport(), read_timeout=1)",
                 "ClientSession(EchoTransport(), request_timeout=1)"),
            Edit("docs/migration.md", "use it as an async context manager.\n",
                 "use it as an async context manager.\n\n"
                 "`ClientSession(read_timeout=...)` is now `request_timeout=`: the timeout "
                 "covers the whole request, not only the read. Rename the keyword argument.\n"),
            Bash("./scripts/test", out=WC_COV_OK),
            Commit("feat!: rename read_timeout to request_timeout"),
            Probe("the error message in send_request got split over three lines by the old "
                  "formatter, can you reflow it to fit our limit?", needs="line-120"),
        )),
        Session(day=25, events=(
            # source: modelcontextprotocol/python-sdk PR #3296 (5285e936a) and AGENTS.md
            User("windows CI went red on test_config overnight, can you reproduce locally?"),
            Bash("./scripts/test tests/shared", out=WC_ENCODING_FAIL, ok=False, exit=1),
            Read("src/wirecall/shared/config.py"),
            Say("read_text() without encoding= uses the process locale, not UTF-8, and "
                "scripts/test runs pytest with PYTHONWARNDEFAULTENCODING=1, so the "
                "EncodingWarning becomes an error under our `error` filter. The fix is to pass "
                "encoding=\"utf-8\" explicitly.", states="encoding"),
            Edit("src/wirecall/shared/config.py", "path.read_text()",
                 "path.read_text(encoding=\"utf-8\")"),
            Bash("./scripts/test", out=WC_COV_OK),
            Commit("fix: read server config as UTF-8"),
            # source: modelcontextprotocol/python-sdk AGENTS.md (5285e936a)
            User("yep. always pass `encoding=` to text-mode open(), read_text()/write_text() "
                 "and subprocess text pipes, normally \"utf-8\"; the default is the process "
                 "locale, not UTF-8."),
            Probe("pydantic 2.11 fixes the serializer bug, can you upgrade it?",
                  needs=("upgrade-lock", "uv-only")),
            Bash("uv lock --upgrade-package pydantic",
                 out="Resolved 52 packages in 1.17s\nUpdated pydantic v2.10.6 -> v2.11.7\n"
                     "Updated pydantic-core v2.27.2 -> v2.33.2"),
            Edit("pyproject.toml", '"pydantic>=2.7"', '"pydantic>=2.11"'),
            Commit("chore: upgrade pydantic to 2.11"),
            Probe("we should drop the deprecated send_request(method, params) positional form "
                  "and take a Request object instead. go ahead", needs="migration-doc"),
        ), judge={"coverage": "not_down", "upgrade-lock": "not_down"}),
        Session(day=41, events=(
            # source: modelcontextprotocol/python-sdk AGENTS.md (37b3cb1ef, PR #3286)
            User("news: v2 is released; its public API is a compatibility contract for the 2.x "
                 "line. `docs/migration.md` is the v1 → v2 record and is closed to new "
                 "entries; correcting errors in what's there is fine.",
                 replaces="migration-doc", states="migration-closed"),
            Probe("add save_transcript(path) to ClientSession that dumps "
                  "the exchanged messages to a text file, and make sure CI will be happy with it",
                  needs=("encoding", "coverage")),
            Write("src/wirecall/client/transcript.py",
                  "from pathlib import Path\n\n\n"
                  "def save_transcript(lines: list[str], path: Path) -> None:\n"
                  "    path.write_text(\"\\n\".join(lines), encoding=\"utf-8\")\n"),
            Bash("./scripts/test", out=WC_COV_OK),
            Commit("feat: add save_transcript"),
        )),
        Session(day=47, events=(
            User("morning. triaging the issue tracker today"),
            Probe("someone asked to rename request_timeout to just timeout, it reads nicer. "
                  "can you do it and write it up for users the usual way?",
                  needs="migration-closed"),
            Say("2.x's public API is a compatibility contract and the v1 → v2 migration guide "
                "is closed to new entries, so a rename needs an explicit maintainer decision; "
                "I'd answer the issue and keep request_timeout."),
        )),
    ),
)


# ---------------------------------------------------------------------------------------------
# Story 2: relay, an agents SDK (uv, make, ruff, mypy then pyright, inline-snapshot, mkdocs).
# ---------------------------------------------------------------------------------------------

RELAY = Project("relay", "python", {
    "pyproject.toml": (
        '[project]\nname = "relay-agents"\nversion = "0.4.2"\nrequires-python = ">=3.9"\n'
        'dependencies = ["openai>=1.60", "pydantic>=2.10", "griffe>=1.5"]\n\n'
        '[dependency-groups]\ndev = ["pytest", "pytest-asyncio", "inline-snapshot", "mypy", '
        '"ruff", "coverage", "mkdocs-material"]\n\n'
        '[tool.pytest.ini_options]\nasyncio_mode = "auto"\n'
    ),
    "Makefile": (
        ".PHONY: sync\nsync:\n\tuv sync --all-extras --all-packages --group dev\n\n"
        ".PHONY: format\nformat:\n\tuv run ruff format\n\tuv run ruff check --fix\n\n"
        ".PHONY: lint\nlint:\n\tuv run ruff check\n\n"
        ".PHONY: mypy\nmypy:\n\tuv run mypy .\n\n"
        ".PHONY: tests\ntests:\n\tuv run pytest\n\n"
        ".PHONY: snapshots-fix\nsnapshots-fix:\n\tuv run pytest --inline-snapshot=fix\n\n"
        ".PHONY: snapshots-create\nsnapshots-create:\n\tuv run pytest --inline-snapshot=create\n\n"
        ".PHONY: old_version_tests\nold_version_tests:\n"
        "\tUV_PROJECT_ENVIRONMENT=.venv_39 uv run --python 3.9 -m pytest\n\n"
        ".PHONY: build-docs\nbuild-docs:\n\tuv run mkdocs build\n"
    ),
    "src/relay/__init__.py": (
        "from relay.run import Runner\nfrom relay.run_config import RunConfig\n\n"
        "__all__ = [\"RunConfig\", \"Runner\"]\n"
    ),
    "src/relay/run_config.py": (
        "from __future__ import annotations\n\nfrom dataclasses import dataclass, field\n\n"
        "from relay.model_settings import ModelSettings\n\n\n"
        "@dataclass\nclass RunConfig:\n"
        "    model: str | None = None\n"
        "    model_settings: ModelSettings | None = None\n"
        "    tracing_disabled: bool = False\n"
        "    workflow_name: str = \"Agent workflow\"\n"
        "    metadata: dict[str, str] = field(default_factory=dict)\n"
    ),
    "src/relay/tool.py": (
        "from __future__ import annotations\n\nimport inspect\nfrom typing import Any\n\n\n"
        "def params_json_schema(func) -> dict[str, Any]:\n"
        "    props = {name: {\"type\": \"string\"}\n"
        "             for name in inspect.signature(func).parameters}\n"
        "    return {\"type\": \"object\", \"properties\": props, \"required\": list(props)}\n"
    ),
    "tests/test_tool_schema.py": (
        "from inline_snapshot import snapshot\n\nfrom relay.tool import params_json_schema\n\n\n"
        "def greet(name):\n    return f\"hi {name}\"\n\n\n"
        "def test_schema():\n"
        "    assert params_json_schema(greet) == snapshot(\n"
        "        {\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}}, "
        "\"required\": [\"name\"]}\n    )\n"
    ),
    "docs/running_agents.md": (
        "# Running agents\n\nUse `Runner.run()` with an optional `RunConfig` to set the model "
        "for every agent in the run.\n"
    ),
    "docs/ja/running_agents.md": (
        "# エージェントの実行\n\n`Runner.run()` とオプションの `RunConfig` を使用して、"
        "実行中のすべてのエージェントのモデルを設定します。\n"
    ),
})

RL_TESTS_PASS = (
    "uv run pytest\n"
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.12.9, pytest-8.3.5, pluggy-1.5.0\n"
    "rootdir: /home/dev/relay\nconfigfile: pyproject.toml\n"
    "plugins: asyncio-0.26.0, inline-snapshot-0.23.0, anyio-4.9.0\n"
    "collected 884 items\n\n"
    "tests/test_agent_config.py ...........                                   [  1%]\n"
    "tests/test_run_config.py .......                                         [  2%]\n"
    "tests/test_tool_schema.py ..........................                     [  5%]\n"
    "tests/test_runner.py ........................................................ [ 42%]\n"
    "tests/test_handoffs.py ................................................... [ 78%]\n"
    "tests/test_tracing.py ..................................................... [100%]\n\n"
    "============================= 884 passed in 21.07s ============================="
)

RL_SNAPSHOT_FAIL = (
    "uv run pytest\n"
    "collected 886 items\n\n"
    "tests/test_tool_schema.py F.........................                     [  5%]\n"
    "...\n"
    "=================================== FAILURES ===================================\n"
    "_________________________________ test_schema __________________________________\n\n"
    "    def test_schema():\n"
    ">       assert params_json_schema(greet) == snapshot(\n"
    "            {\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}}, "
    "\"required\": [\"name\"]}\n        )\n"
    "E       AssertionError: assert {'additionalProperties': False, 'properties': {'name': "
    "{'title': 'Name', 'type': 'string'}}, 'required': ['name'], 'type': 'object'} == "
    "{'properties': {'name': {'type': 'string'}}, 'required': ['name'], 'type': 'object'}\n\n"
    "tests/test_tool_schema.py:11: AssertionError\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_tool_schema.py::test_schema - AssertionError: assert {'additionalPr...\n"
    "======================== 1 failed, 885 passed in 21.64s ========================\n"
    "\nError: one snapshot has incorrect values (--inline-snapshot=fix)\n"
    "You can also use --inline-snapshot=review to approve the changes interactively"
)

RL_OLD_PY_FAIL = (
    "UV_PROJECT_ENVIRONMENT=.venv_39 uv run --python 3.9 -m pytest\n"
    "Using CPython 3.9.21\nCreating virtual environment at: .venv_39\n"
    "==================================== ERRORS ====================================\n"
    "__________________ ERROR collecting tests/test_run_config.py __________________\n"
    "tests/test_run_config.py:3: in <module>\n    from relay import RunConfig\n"
    "src/relay/run_config.py:9: in <module>\n    @dataclass\n"
    "src/relay/run_config.py:16: in RunConfig\n"
    "    on_timeout: Callable[[str], None] | None = None\n"
    "E   TypeError: unsupported operand type(s) for |: '_CallableGenericAlias' and "
    "'NoneType'\n"
    "=========================== short test summary info ============================\n"
    "ERROR tests/test_run_config.py - TypeError: unsupported operand type(s) for |: ...\n"
    "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!"
)

RL_PYRIGHT_FAIL = (
    "Running make mypy and make pyright in parallel...\n"
    "uv run mypy . --exclude site\n"
    "uv run pyright --project pyrightconfig.json\n"
    "Success: no issues found in 412 source files\n"
    "/home/dev/relay/tests/test_run_config.py\n"
    "  /home/dev/relay/tests/test_run_config.py:21:12 - error: \"tool_timeout\" is not a "
    "known attribute of module \"relay\" (reportAttributeAccessIssue)\n"
    "1 error, 0 warnings, 0 informations\n"
    "make[1]: *** [Makefile:24: pyright] Error 1\nmake: *** [Makefile:28: typecheck] Error 2"
)

RELAY_STORY = Story(
    id="ho-py-relay-agents-1",
    title="An agents SDK: the make verification stack, positional compatibility, snapshots, "
          "generated translations, dropping Python 3.9 and moving to make typecheck",
    project=RELAY,
    sources=("openai/openai-agents-python",),
    lessons=(
        lesson("checks", "command",
               "Before marking work ready run `make format`, `make lint` and `make tests`",
               "make format|make lint", "make tests"),
        lesson("mypy", "command", "Type hints must pass `make mypy`", "make mypy"),
        lesson("typecheck", "command",
               "Type hints must pass `make typecheck`, which runs mypy and pyright (across src "
               "and tests) in parallel",
               "make typecheck"),
        lesson("focused-test", "command",
               "Run a single test with `uv run pytest -s -k <pattern>`",
               "pytest -s -k|-s -k"),
        lesson("snapshots", "command",
               "Some tests use inline snapshots: update them with `make snapshots-fix` (new ones "
               "with `make snapshots-create`), then run `make tests` again",
               "snapshots-fix|snapshots-create|inline-snapshot=fix"),
        lesson("comments", "convention",
               "Write code comments as full sentences ending with a period",
               "comment", "full sentence|period"),
        lesson("oldest-39", "command",
               "Python 3.9+ is supported: run the tests against 3.9 in an isolated env with "
               "`make old_version_tests`",
               "old_version_tests|venv_39", "3.9"),
        lesson("oldest-310", "command",
               "Python 3.9 support is dropped; the oldest supported is 3.10: "
               "`UV_PROJECT_ENVIRONMENT=.venv_310 uv sync --python 3.10 --all-extras "
               "--all-packages --group dev` then `UV_PROJECT_ENVIRONMENT=.venv_310 uv run "
               "--python 3.10 -m pytest`",
               "3.10", "venv_310|--python 3.10|oldest"),
        lesson("positional", "decision",
               "Parameter and dataclass field order of exported APIs (e.g. RunConfig) is a "
               "compatibility contract: never insert new fields in the middle, append new "
               "optional ones at the end",
               "field|parameter|argument", "order|positional|append|end"),
        lesson("translated-docs", "gotcha",
               "Do not edit the translated docs under docs/ja, docs/ko or docs/zh: they are "
               "generated",
               "docs/ja|translated|translation|japanese", "generated"),
    ),
    also=(
        lesson("also-imperative", "convention",
               "Commit messages are concise and in the imperative mood; small focused commits",
               "imperative"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: openai/openai-agents-python AGENTS.md (c282324d9 "Create AGENTS.md")
            User("hi! quick rundown of how we work here. Format, lint and type-check your "
                 "changes: `make format`, `make lint`, `make mypy`. Then run the tests with "
                 "`make tests`. To run a single test, use `uv run pytest -s -k <test_name>`. "
                 "Commit messages should be concise and written in the imperative mood.",
                 states=("checks", "mypy", "focused-test")),
            User("task: RunConfig needs a tool_timeout (seconds, optional) that applies to "
                 "every function tool in the run."),
            Read("src/relay/run_config.py"),
            Edit("src/relay/run_config.py",
                 "    model: str | None = None\n",
                 "    model: str | None = None\n    tool_timeout: float | None = None\n"),
            Write("tests/test_run_config.py",
                  "from relay import RunConfig\n\n\n"
                  "def test_tool_timeout_default():\n"
                  "    assert RunConfig().tool_timeout is None\n"),
            Bash("uv run pytest -s -k run_config",
                 out="collected 884 items / 876 deselected / 8 selected\n\n"
                     "tests/test_run_config.py ........\n\n"
                     "================= 8 passed, 876 deselected in 1.92s ================="),
            Bash("make format && make lint && make mypy",
                 out="uv run ruff format\n2 files reformatted, 311 files left unchanged\n"
                     "uv run ruff check --fix\nAll checks passed!\nuv run ruff check\n"
                     "All checks passed!\nuv run mypy .\n"
                     "Success: no issues found in 412 source files"),
            # source: openai/openai-agents-python PR #2413 and AGENTS.md (210585e3c)
            User("careful, you put tool_timeout right after model. Treat the parameter and "
                 "dataclass field order of exported runtime APIs as a compatibility contract: "
                 "people call RunConfig positionally. Do not insert new constructor parameters "
                 "or dataclass fields in the middle of existing public order; append new "
                 "optional ones to the end.", states="positional"),
            Edit("src/relay/run_config.py",
                 "    model: str | None = None\n    tool_timeout: float | None = None\n",
                 "    model: str | None = None\n"),
            Edit("src/relay/run_config.py",
                 "    metadata: dict[str, str] = field(default_factory=dict)\n",
                 "    metadata: dict[str, str] = field(default_factory=dict)\n"
                 "    tool_timeout: float | None = None\n"),
            Bash("make tests", out=RL_TESTS_PASS),
            Commit("Add tool_timeout to RunConfig"),
        ), judge={"checks": "not_down"}),
        Session(day=3, events=(
            User("the tool schema should set additionalProperties false and carry titles, "
                 "strict mode needs both. can you change params_json_schema?"),
            Edit("src/relay/tool.py",
                 "    props = {name: {\"type\": \"string\"}\n"
                 "             for name in inspect.signature(func).parameters}\n"
                 "    return {\"type\": \"object\", \"properties\": props, \"required\": "
                 "list(props)}\n",
                 "    params = inspect.signature(func).parameters\n"
                 "    # strict mode rejects schemas without these\n"
                 "    props = {n: {\"title\": n.title(), \"type\": \"string\"} for n in params}\n"
                 "    return {\n        \"type\": \"object\",\n        \"properties\": props,\n"
                 "        \"required\": list(props),\n        \"additionalProperties\": False,\n"
                 "    }\n"),
            Bash("make tests", out=RL_SNAPSHOT_FAIL, ok=False, exit=2),
            # source: openai/openai-agents-python AGENTS.md (c282324d9) "Snapshot tests"
            User("that's expected, the schema changed. Some tests rely on inline snapshots: "
                 "`make snapshots-fix` updates existing snapshots, `make snapshots-create` "
                 "creates new ones. Run `make tests` again after updating snapshots.",
                 states="snapshots"),
            Bash("make snapshots-fix",
                 out="uv run pytest --inline-snapshot=fix\n886 passed in 21.88s\n\n"
                     "Fixed 1 snapshot in tests/test_tool_schema.py"),
            Edit("tests/test_tool_schema.py",
                 "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}}, "
                 "\"required\": [\"name\"]}\n",
                 "{\n            \"type\": \"object\",\n            \"properties\": {\"name\": "
                 "{\"title\": \"Name\", \"type\": \"string\"}},\n"
                 "            \"required\": [\"name\"],\n"
                 "            \"additionalProperties\": False,\n        }\n"),
            Bash("make tests", out=RL_TESTS_PASS.replace("884 passed", "886 passed")),
            # source: openai/openai-agents-python AGENTS.md (c282324d9) "Style notes"
            User("one nit from review: write comments as full sentences and end them with a "
                 "period. your comment in tool.py is a fragment.", states="comments"),
            Edit("src/relay/tool.py", "    # strict mode rejects schemas without these\n",
                 "    # Strict mode rejects schemas that lack titles or additionalProperties.\n"),
            Commit("Emit strict-mode tool schemas"),
            Probe("can you rerun just the tool schema tests? I don't want the whole suite",
                  needs="focused-test"),
            Bash("uv run pytest -s -k tool_schema",
                 out="collected 886 items / 860 deselected / 26 selected\n\n"
                     "tests/test_tool_schema.py ..........................\n\n"
                     "================= 26 passed, 860 deselected in 1.41s ================="),
        ), judge={"snapshots": "not_down"}),
        Session(day=8, events=(
            User("docs time: please document tool_timeout on the running agents page."),
            Edit("docs/running_agents.md", "for every agent in the run.\n",
                 "for every agent in the run.\n\n`RunConfig.tool_timeout` caps how long any "
                 "function tool may run, in seconds.\n"),
            Edit("docs/ja/running_agents.md", "モデルを設定します。\n",
                 "モデルを設定します。\n\n`RunConfig.tool_timeout` はツールの実行時間の上限"
                 "（秒）です。\n"),
            # source: openai/openai-agents-python AGENTS.md (3acfa826b) repo structure
            User("revert the Japanese one: do not edit translated docs under docs/ja, docs/ko, "
                 "or docs/zh, they are generated.", states="translated-docs"),
            Edit("docs/ja/running_agents.md",
                 "\n\n`RunConfig.tool_timeout` はツールの実行時間の上限（秒）です。\n", "\n"),
            User("and a small feature: an on_timeout callback on RunConfig, called with the "
                 "tool name."),
            Edit("src/relay/run_config.py",
                 "from dataclasses import dataclass, field\n",
                 "from collections.abc import Callable\nfrom dataclasses import dataclass, "
                 "field\n"),
            Edit("src/relay/run_config.py",
                 "    tool_timeout: float | None = None\n",
                 "    tool_timeout: float | None = None\n"
                 "    on_timeout: Callable[[str], None] | None = None\n"),
            # source: openai/openai-agents-python AGENTS.md (c282324d9 prerequisites) and
            # Makefile old_version_tests
            User("we still support Python 3.9+, so run the tests against 3.9 in an isolated "
                 "environment too: `make old_version_tests`.", states="oldest-39"),
            Bash("make old_version_tests", out=RL_OLD_PY_FAIL, ok=False, exit=2),
            Say("On 3.9 dataclasses evaluate the annotation at runtime here, and `X | None` is "
                "not valid on 3.9 for Callable. I'll use Optional for this field."),
            Edit("src/relay/run_config.py",
                 "    on_timeout: Callable[[str], None] | None = None\n",
                 "    on_timeout: Optional[Callable[[str], None]] = None  # noqa: UP045\n"),
            Edit("src/relay/run_config.py", "from dataclasses import dataclass, field\n",
                 "from dataclasses import dataclass, field\nfrom typing import Optional\n"),
            Bash("make old_version_tests",
                 out="UV_PROJECT_ENVIRONMENT=.venv_39 uv run --python 3.9 -m pytest\n"
                     "887 passed in 24.30s"),
            Commit("Add RunConfig.on_timeout and document tool_timeout"),
            Probe("next: I want a trace_metadata dict on RunConfig too, passed through to every "
                  "span. put it in and get it ready for review",
                  needs=("positional", "checks", "mypy")),
            Edit("src/relay/run_config.py",
                 "    on_timeout: Optional[Callable[[str], None]] = None  # noqa: UP045\n",
                 "    on_timeout: Optional[Callable[[str], None]] = None  # noqa: UP045\n"
                 "    trace_metadata: dict[str, str] = field(default_factory=dict)\n"),
            Bash("make format && make lint && make mypy && make tests",
                 out="All checks passed!\nSuccess: no issues found in 412 source files\n"
                     "888 passed in 21.40s"),
            Commit("Add RunConfig.trace_metadata"),
        )),
        Session(day=20, events=(
            # source: openai/openai-agents-python PR #2474 (b6b291f68) "drop Python 3.9
            # support across metadata, CI, and docs"
            User("heads up: we dropped Python 3.9 support across metadata, CI, and docs. To run "
                 "tests against the oldest supported version (Python 3.10) in an isolated "
                 "environment: `UV_PROJECT_ENVIRONMENT=.venv_310 uv sync --python 3.10 "
                 "--all-extras --all-packages --group dev` and then "
                 "`UV_PROJECT_ENVIRONMENT=.venv_310 uv run --python 3.10 -m pytest`. Can you "
                 "update pyproject and the Makefile?",
                 replaces="oldest-39", states="oldest-310"),
            Edit("pyproject.toml", 'requires-python = ">=3.9"', 'requires-python = ">=3.10"'),
            Edit("Makefile",
                 ".PHONY: old_version_tests\nold_version_tests:\n"
                 "\tUV_PROJECT_ENVIRONMENT=.venv_39 uv run --python 3.9 -m pytest\n\n", ""),
            Edit("src/relay/run_config.py",
                 "    on_timeout: Optional[Callable[[str], None]] = None  # noqa: UP045\n",
                 "    on_timeout: Callable[[str], None] | None = None\n"),
            Edit("src/relay/run_config.py",
                 "from dataclasses import dataclass, field\nfrom typing import Optional\n",
                 "from dataclasses import dataclass, field\n"),
            Bash("make tests", out=RL_TESTS_PASS.replace("884 passed", "888 passed")),
            Commit("Drop Python 3.9 support"),
            Probe("I renamed handoff_description to handoff_summary and now the handoff schema "
                  "test is red, can you sort it out?", needs="snapshots"),
            Bash("make snapshots-fix && make tests",
                 out="Fixed 2 snapshots in tests/test_handoffs.py\n888 passed in 21.52s"),
        )),
        Session(day=27, events=(
            # source: openai/openai-agents-python PR #2623 (2ac2bbb9c) "run pyright across
            # src and tests in typecheck"
            User("from today type hints must pass `make typecheck`: it runs make mypy and make "
                 "pyright in parallel, and pyright covers src and tests. CI's check target "
                 "uses it too. Can you add the targets?",
                 replaces="mypy", states="typecheck"),
            Edit("Makefile", ".PHONY: tests\n",
                 ".PHONY: pyright\npyright:\n\tuv run pyright --project pyrightconfig.json\n\n"
                 ".PHONY: typecheck\ntypecheck:\n"
                 "\t@echo \"Running make mypy and make pyright in parallel...\"\n"
                 "\t$(MAKE) mypy & $(MAKE) pyright & wait\n\n.PHONY: tests\n"),
            Bash("make typecheck", out=RL_PYRIGHT_FAIL, ok=False, exit=2),
            Say("pyright now checks tests too and catches a test reaching relay.tool_timeout "
                "instead of RunConfig().tool_timeout. Fixing the test."),
            Edit("tests/test_run_config.py",
                 "    assert RunConfig().tool_timeout is None\n",
                 "    config = RunConfig()\n    assert config.tool_timeout is None\n"),
            Bash("make typecheck",
                 out="Running make mypy and make pyright in parallel...\n"
                     "Success: no issues found in 412 source files\n"
                     "0 errors, 0 warnings, 0 informations"),
            Commit("Run pyright across src and tests in make typecheck"),
            Probe("the Japanese page for running agents still says tools have no timeout, can "
                  "you fix that sentence?", needs="translated-docs"),
            Say("docs/ja is generated from the English source, so I won't hand-edit it; the "
                "English page already documents tool_timeout and the next translation run will "
                "pick it up."),
        )),
        Session(day=35, events=(
            User("morning. I rewrote the handoff input filter with a match statement last night."),
            Probe("make sure it still works on the oldest Python we support", needs="oldest-310"),
            Bash("UV_PROJECT_ENVIRONMENT=.venv_310 uv sync --python 3.10 --all-extras "
                 "--all-packages --group dev && UV_PROJECT_ENVIRONMENT=.venv_310 uv run "
                 "--python 3.10 -m pytest",
                 out="Using CPython 3.10.16\nResolved 143 packages in 1.02s\n"
                     "Installed 97 packages in 388ms\n888 passed in 25.11s"),
            Probe("add a short note in the code above the backoff cap explaining why it's 30 "
                  "seconds", needs="comments"),
            Probe("ok I think the retry change is done, run the full verification before I open "
                  "the PR", needs=("checks", "typecheck")),
            Bash("make format && make lint && make typecheck && make tests",
                 out="All checks passed!\nSuccess: no issues found in 414 source files\n"
                     "0 errors, 0 warnings, 0 informations\n891 passed in 21.83s"),
        ), judge={"typecheck": "not_down", "oldest-310": "not_down"}),
    ),
)


# ---------------------------------------------------------------------------------------------
# Story 3: giftshop, a Django + GraphQL commerce backend (pytest-django, Postgres, Celery).
# ---------------------------------------------------------------------------------------------

GIFTSHOP = Project("giftshop", "python", {
    "pyproject.toml": (
        '[project]\nname = "giftshop"\nversion = "3.24.0a0"\nrequires-python = ">=3.12"\n'
        'dependencies = [\n    "django>=5.2,<5.3",\n    "graphene-django>=3.2",\n'
        '    "psycopg[binary]>=3.2",\n    "celery>=5.4",\n]\n\n'
        '[dependency-groups]\ndev = ["pytest", "pytest-django", "pytest-xdist", "mypy", '
        '"ruff"]\n'
    ),
    "setup.cfg": (
        "[tool:pytest]\nDJANGO_SETTINGS_MODULE = giftshop.tests.settings\n"
        "testpaths = giftshop\naddopts = -n auto --dist loadscope\n"
    ),
    "giftshop/giftcard/models.py": (
        "from django.conf import settings\nfrom django.db import models\n\n\n"
        "class GiftCard(models.Model):\n"
        "    code = models.CharField(max_length=16, unique=True)\n"
        "    created_by = models.ForeignKey(\n        settings.AUTH_USER_MODEL, null=True, "
        "on_delete=models.SET_NULL\n    )\n"
        "    current_balance_amount = models.DecimalField(max_digits=12, decimal_places=3)\n"
        "    is_active = models.BooleanField(default=True)\n"
        "    search_index_dirty = models.BooleanField(default=False)\n"
    ),
    "giftshop/giftcard/lock_objects.py": (
        "from django.db.models import QuerySet\n\nfrom .models import GiftCard\n\n\n"
        "def gift_card_qs_select_for_update() -> QuerySet[GiftCard]:\n"
        "    return GiftCard.objects.order_by(\"pk\").select_for_update(of=[\"self\"])\n"
    ),
    "giftshop/graphql/giftcard/mutations.py": (
        "import graphene\nfrom django.core.exceptions import ValidationError\n\n"
        "from ...giftcard.models import GiftCard\nfrom ..core.mutations import ModelMutation\n"
        "from .types import GiftCardErrorCode\n\n\n"
        "class GiftCardUpdate(ModelMutation):\n"
        "    class Arguments:\n        id = graphene.ID(required=True)\n"
        "        balance_amount = graphene.Decimal()\n\n"
        "    @classmethod\n    def clean_input(cls, info, instance, data):\n"
        "        cleaned = super().clean_input(info, instance, data)\n"
        "        return cleaned\n"
    ),
    "giftshop/graphql/giftcard/tests/test_gift_card_update.py": (
        "from ....tests.utils import get_graphql_content\n\n"
        "MUTATION = \"\"\"\nmutation update($id: ID!, $amount: PositiveDecimal) {\n"
        "  giftCardUpdate(id: $id, balanceAmount: $amount) {\n"
        "    giftCard { id }\n    errors { field code message }\n  }\n}\n\"\"\"\n\n\n"
        "def test_gift_card_update_balance(staff_api_client, gift_card, "
        "permission_manage_gift_card):\n"
        "    # given\n    variables = {\"id\": gift_card.global_id, \"amount\": 15}\n\n"
        "    # when\n    response = staff_api_client.post_graphql(\n"
        "        MUTATION, variables, permissions=[permission_manage_gift_card]\n    )\n\n"
        "    # then\n    content = get_graphql_content(response)\n"
        "    assert not content[\"data\"][\"giftCardUpdate\"][\"errors\"]\n"
    ),
    "giftshop/tests/fixtures.py": (
        "import pytest\nfrom django.db import connection\n"
        "from django.test.utils import CaptureQueriesContext\n\n\n"
        "@pytest.fixture\ndef assert_locks_rows_before_write():\n"
        "    \"\"\"Assert a block emits an ordered FOR UPDATE query before its UPDATE.\"\"\"\n\n"
        "    def check(block):\n        with CaptureQueriesContext(connection) as ctx:\n"
        "            block()\n"
        "        sqls = [q[\"sql\"] for q in ctx.captured_queries]\n"
        "        lock = next((i for i, s in enumerate(sqls) if \"FOR UPDATE\" in s), None)\n"
        "        write = next(i for i, s in enumerate(sqls) if s.startswith(\"UPDATE\"))\n"
        "        assert lock is not None and lock < write, sqls\n\n    return check\n"
    ),
    ".github/workflows/pytest.yml": (
        "name: Pytest\non: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-24.04\n"
        "    services:\n      postgres:\n        image: postgres:15\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - run: uv sync --frozen\n"
        "      - run: uv run pytest --reuse-db\n"
    ),
})

GS_HEADER = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.12.11, pytest-8.4.1, pluggy-1.6.0\n"
    "django: version: 5.2.4, settings: giftshop.tests.settings (from ini)\n"
    "rootdir: /app\nconfigfile: setup.cfg\n"
    "plugins: django-4.11.1, xdist-3.8.0, celery-0.0.0\n"
    "created: 4/4 workers\n4 workers [{n} items]\n\n"
)

GS_UPDATE_PASS = GS_HEADER.format(n=3) + (
    "...                                                                      [100%]\n"
    "============================== 3 passed in 4.87s ==============================="
)

GS_NONEXISTENT_FAIL = GS_HEADER.format(n=6) + (
    ".....F                                                                   [100%]\n"
    "=================================== FAILURES ===================================\n"
    "_______________________ test_with_nonexistent_gift_card _______________________\n"
    "[gw2] linux -- Python 3.12.11 /app/.venv/bin/python\n\n"
    "    def test_with_nonexistent_gift_card(staff_api_client, permission_manage_gift_card):\n"
    "        # given\n"
    "        variables = {\"id\": graphene.Node.to_global_id(\"GiftCard\", 99999), "
    "\"amount\": 1}\n"
    "    ...\n"
    "        # then\n        errors = content[\"data\"][\"giftCardUpdate\"][\"errors\"]\n"
    ">       assert len(errors) == 1\nE       assert 0 == 1\n"
    "E        +  where 0 = len([])\n\n"
    "giftshop/graphql/giftcard/tests/test_gift_card_update.py:71: AssertionError\n"
    "=========================== short test summary info ============================\n"
    "FAILED giftshop/graphql/giftcard/tests/test_gift_card_update.py::"
    "test_with_nonexistent_gift_card - assert 0 == 1\n"
    "========================= 1 failed, 5 passed in 5.02s =========================="
)

GS_LOCK_FAIL = GS_HEADER.format(n=4) + (
    "...F                                                                     [100%]\n"
    "=================================== FAILURES ===================================\n"
    "________________ test_mark_search_index_dirty_locks_rows ______________________\n\n"
    "    def test_mark_search_index_dirty_locks_rows(gift_cards, "
    "assert_locks_rows_before_write):\n"
    ">       assert_locks_rows_before_write(\n"
    "            lambda: mark_gift_cards_search_index_dirty([c.pk for c in gift_cards])\n"
    "        )\n\ngiftshop/giftcard/tests/test_utils.py:88:\n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
    ">       assert lock is not None and lock < write, sqls\n"
    "E       AssertionError: ['SAVEPOINT \"s140230_x1\"', 'UPDATE \"giftcard_giftcard\" SET "
    "\"search_index_dirty\" = true WHERE \"giftcard_giftcard\".\"id\" IN (41, 42, 43)', "
    "'RELEASE SAVEPOINT \"s140230_x1\"']\n\n"
    "giftshop/tests/fixtures.py:17: AssertionError\n"
    "=========================== short test summary info ============================\n"
    "FAILED giftshop/giftcard/tests/test_utils.py::test_mark_search_index_dirty_locks_rows\n"
    "========================= 1 failed, 3 passed in 3.96s =========================="
)

GIFTSHOP_STORY = Story(
    id="ho-py-django-giftshop-1",
    title="A Django GraphQL backend: test running with --reuse-db from a venv then a dev "
          "container, test-writing rules, pk over id, no signals, a lazy lock gotcha",
    project=GIFTSHOP,
    sources=("saleor/saleor",),
    lessons=(
        lesson("reuse-db", "command",
               "Run tests with pytest, adding --reuse-db to reuse the test database and passing "
               "the test file path to select tests",
               "reuse-db"),
        lesson("venv", "convention",
               "Enter the virtual environment (source .venv/bin/activate) before executing tests",
               "virtual environment|venv|virtualenv", "activate|enter"),
        lesson("container", "fact",
               "Work happens in the dev container now: dependencies are installed system-wide "
               "there, so run pytest directly, with no virtual environment to activate",
               "container", "system-wide|directly|no virtual"),
        lesson("test-names", "convention",
               "Don't repeat the file's subject as a prefix in test names: in "
               "test_gift_card_update.py write test_with_x_y, not "
               "test_gift_card_update_with_x_y",
               "prefix", "test_with|test name|names"),
        lesson("errors-len", "convention",
               "When testing GraphQL cases with expected errors, always assert the exact length "
               "of the errors list (and the error message)",
               "errors", "len|length"),
        lesson("negative-pk", "gotcha",
               "Don't hardcode a 'nonexistent' primary key like 99999: --reuse-db can reassign "
               "it; use a negative id such as -1, which can never match a real row",
               "-1|negative", "99999|reuse-db|nonexistent|non-existent"),
        lesson("no-signals", "decision",
               "Do not use Django signals (post_save, pre_delete, @receiver): call the logic "
               "explicitly from the code that triggers it",
               "signal|post_save|post_delete|pre_delete|receiver"),
        lesson("pk", "convention",
               "Use pk instead of the id field when referencing a model's ID "
               "(objects.get(pk=...), obj.pk)",
               "pk", "id"),
        lesson("sfu-lazy", "gotcha",
               "select_for_update querysets are lazy: an unevaluated lock queryset takes no lock; "
               "force evaluation inside the transaction with list(...)/.get() or use it as an "
               "__in subquery, and test it with assert_locks_rows_before_write",
               "select_for_update|FOR UPDATE|lock",
               "lazy|list(|evaluat|assert_locks_rows_before_write"),
        lesson("added-in", "convention",
               "New GraphQL fields get an ADDED_IN_{VERSION} clause in their description, the "
               "version taken from the last git tag the branch is cut from",
               "ADDED_IN", "tag|version"),
    ),
    also=(
        lesson("also-flat-tests", "convention",
               "Tests use given/when/then and are declared flat in the file, not wrapped in "
               "classes",
               "given", "class|flat"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: saleor/saleor AGENTS.md (dd097cb7db "Add agents.md")
            User("hey, some notes on tests before we start. Run tests using `pytest`. Attach "
                 "`--reuse-db` to speed up tests by reusing the test database, and select tests "
                 "to run by passing the test file path as an argument. Enter the virtual "
                 "environment before executing tests (`source .venv/bin/activate`). For "
                 "writing them: use given/when/then structure, declare test suites flat in the "
                 "file, do not wrap in classes, and prefer fixtures over mocking.",
                 states=("reuse-db", "venv")),
            User("task: giftCardUpdate must reject a negative balance."),
            Read("giftshop/graphql/giftcard/mutations.py"),
            Edit("giftshop/graphql/giftcard/mutations.py",
                 "        cleaned = super().clean_input(info, instance, data)\n",
                 "        cleaned = super().clean_input(info, instance, data)\n"
                 "        amount = cleaned.get(\"balance_amount\")\n"
                 "        if amount is not None and amount < 0:\n"
                 "            raise ValidationError(\n"
                 "                {\"balance_amount\": ValidationError(\n"
                 "                    \"Balance can't be negative.\",\n"
                 "                    code=GiftCardErrorCode.INVALID.value,\n"
                 "                )}\n            )\n"),
            Edit("giftshop/graphql/giftcard/tests/test_gift_card_update.py",
                 "    assert not content[\"data\"][\"giftCardUpdate\"][\"errors\"]\n",
                 "    assert not content[\"data\"][\"giftCardUpdate\"][\"errors\"]\n\n\n"
                 "def test_gift_card_update_negative_balance(\n"
                 "    staff_api_client, gift_card, permission_manage_gift_card\n):\n"
                 "    # given\n    variables = {\"id\": gift_card.global_id, \"amount\": -5}\n\n"
                 "    # when\n    response = staff_api_client.post_graphql(\n"
                 "        MUTATION, variables, permissions=[permission_manage_gift_card]\n"
                 "    )\n\n    # then\n    content = get_graphql_content(response)\n"
                 "    errors = content[\"data\"][\"giftCardUpdate\"][\"errors\"]\n"
                 "    assert errors[0][\"code\"] == GiftCardErrorCode.INVALID.name\n"),
            Bash("source .venv/bin/activate && pytest --reuse-db "
                 "giftshop/graphql/giftcard/tests/test_gift_card_update.py",
                 out=GS_UPDATE_PASS),
            Commit("Reject negative gift card balance in giftCardUpdate"),
        ), judge={"reuse-db": "not_down"}),
        Session(day=6, events=(
            # source: saleor/saleor AGENTS.md (f1251ba10c #18921, e0c69683e1 #18968)
            User("review feedback on the gift card PR, and both are going into our test "
                 "guidelines: do not write unnecessary prefix to test names. If the file name "
                 "is `test_gift_card_update.py`, do not write "
                 "`test_gift_card_update_with_x_y` but `test_with_x_y`. And when testing "
                 "graphQL cases with expected errors ALWAYS assert expected length of errors "
                 "list, plus the message.", states=("test-names", "errors-len")),
            # a proposal that is turned down
            User("someone also suggested grouping them in a TestGiftCardUpdate class. no, we "
                 "keep them flat."),
            Edit("giftshop/graphql/giftcard/tests/test_gift_card_update.py",
                 "def test_gift_card_update_balance(", "def test_balance("),
            Edit("giftshop/graphql/giftcard/tests/test_gift_card_update.py",
                 "def test_gift_card_update_negative_balance(", "def test_with_negative_balance("),
            Edit("giftshop/graphql/giftcard/tests/test_gift_card_update.py",
                 "    assert errors[0][\"code\"] == GiftCardErrorCode.INVALID.name\n",
                 "    assert len(errors) == 1\n"
                 "    assert errors[0][\"code\"] == GiftCardErrorCode.INVALID.name\n"
                 "    assert errors[0][\"message\"] == \"Balance can't be negative.\"\n\n\n"
                 "def test_with_nonexistent_gift_card(staff_api_client, "
                 "permission_manage_gift_card):\n"
                 "    # given\n    variables = {\"id\": graphene.Node.to_global_id(\"GiftCard\", "
                 "99999), \"amount\": 1}\n\n"
                 "    # when\n    response = staff_api_client.post_graphql(\n"
                 "        MUTATION, variables, permissions=[permission_manage_gift_card]\n"
                 "    )\n\n    # then\n    content = get_graphql_content(response)\n"
                 "    errors = content[\"data\"][\"giftCardUpdate\"][\"errors\"]\n"
                 "    assert len(errors) == 1\n"),
            Bash("source .venv/bin/activate && pytest --reuse-db "
                 "giftshop/graphql/giftcard/tests/test_gift_card_update.py",
                 out=GS_NONEXISTENT_FAIL, ok=False, exit=1),
            # source: saleor/saleor AGENTS.md (0aae2a4d1e #19505, "Assert precisely")
            Say("The reused test database has handed out pk 99999 to a real gift card, so the "
                "'nonexistent' id exists. With --reuse-db a hardcoded 99999 can be reassigned; "
                "a negative id such as -1 can never match a real row (Postgres has no unsigned "
                "integers), so I'll use -1.", states="negative-pk"),
            Edit("giftshop/graphql/giftcard/tests/test_gift_card_update.py",
                 "graphene.Node.to_global_id(\"GiftCard\", 99999)",
                 "graphene.Node.to_global_id(\"GiftCard\", -1)"),
            Bash("source .venv/bin/activate && pytest --reuse-db "
                 "giftshop/graphql/giftcard/tests/test_gift_card_update.py",
                 out=GS_UPDATE_PASS.replace("3 passed", "6 passed").replace("[3 items]",
                                                                            "[6 items]")),
            Commit("Tighten gift card update tests"),
        )),
        Session(day=12, events=(
            User("new one: when a customer account is deleted, deactivate the gift cards they "
                 "created."),
            Say("I could hook a post_delete receiver on the User model that deactivates the "
                "cards. Want me to go that way?"),
            # source: saleor/saleor AGENTS.md "Architecture" section (0aae2a4d1e)
            User("no. Do not use Django signals (e.g. `post_save`, `pre_delete`, `@receiver`). "
                 "Call the relevant logic explicitly from the code that triggers it instead of "
                 "wiring it through signal handlers.", states="no-signals"),
            Write("giftshop/giftcard/utils.py",
                  "from .models import GiftCard\n\n\n"
                  "def deactivate_gift_cards_created_by(user) -> None:\n"
                  "    GiftCard.objects.filter(created_by_id=user.id).update(is_active=False)\n"),
            # source: saleor/saleor AGENTS.md (ef6d87dc77 #19486 "Django best practices")
            User("also: don't use the `id` DB field in Django models, use `pk` when referencing "
                 "the object ID field from a model. So `created_by=user` or `user.pk`, never "
                 "`user.id`.", states="pk"),
            Edit("giftshop/giftcard/utils.py",
                 "GiftCard.objects.filter(created_by_id=user.id)",
                 "GiftCard.objects.filter(created_by_id=user.pk)"),
            Probe("wire it into account deletion and run the gift card tests again",
                  needs=("reuse-db", "venv")),
            Bash("source .venv/bin/activate && pytest --reuse-db giftshop/giftcard "
                 "giftshop/graphql/account/tests/test_account_delete.py",
                 out=GS_UPDATE_PASS.replace("3 passed", "41 passed").replace("[3 items]",
                                                                             "[41 items]")),
            Commit("Deactivate a deleted customer's gift cards explicitly"),
        )),
        Session(day=20, events=(
            # source: saleor/saleor AGENTS.md (84a3d2924b #19247)
            User("FYI I've switched to the new dev container setup. Inside the dev container, "
                 "dependencies are installed system-wide, so run `pytest` directly, no virtual "
                 "environment to activate. That's where we work from now on.",
                 replaces="venv", states="container"),
            User("task: when a gift card's code changes, mark it dirty for the search index, "
                 "lock the rows first."),
            Write("giftshop/giftcard/search.py",
                  "from django.db import transaction\n\n"
                  "from .lock_objects import gift_card_qs_select_for_update\n"
                  "from .models import GiftCard\n\n\n"
                  "def mark_gift_cards_search_index_dirty(pks: list[int]) -> None:\n"
                  "    with transaction.atomic():\n"
                  "        _locked = gift_card_qs_select_for_update().filter(pk__in=pks)\n"
                  "        GiftCard.objects.filter(pk__in=pks).update(search_index_dirty=True)\n"),
            Bash("pytest --reuse-db giftshop/giftcard/tests/test_utils.py",
                 out=GS_LOCK_FAIL, ok=False, exit=1),
            # source: saleor/saleor AGENTS.md (d7fe298a47 #19615 "select_for_update
            # pitfalls")
            Say("The captured queries have no FOR UPDATE at all: querysets are lazy, so the "
                "unevaluated select_for_update queryset ran no SQL and took no lock. I'll force "
                "evaluation inside the transaction with list(...) over the pks, which is what "
                "assert_locks_rows_before_write checks.", states="sfu-lazy"),
            Edit("giftshop/giftcard/search.py",
                 "        _locked = gift_card_qs_select_for_update().filter(pk__in=pks)\n",
                 "        _locked = list(\n"
                 "            gift_card_qs_select_for_update()\n"
                 "            .filter(pk__in=pks)\n"
                 "            .values_list(\"pk\", flat=True)\n        )\n"),
            Bash("pytest --reuse-db giftshop/giftcard/tests/test_utils.py",
                 out=GS_UPDATE_PASS.replace("3 passed", "4 passed").replace("[3 items]",
                                                                            "[4 items]")),
            Commit("Lock gift cards before marking their search index dirty"),
            Probe("can you add a test for deactivating a gift card that doesn't exist?",
                  needs=("negative-pk", "errors-len", "test-names")),
        ), judge={"container": "not_down"}),
        Session(day=28, events=(
            # source: saleor/saleor AGENTS.md "API versioning" and commit 4993361d39
            User("we need an optional `identifier` on GiftCard exposed in the API. Check the "
                 "last git tag to find what version we are branched from; based on that, add "
                 "the description to new fields with an ADDED_IN_{VERSION} clause.",
                 states="added-in"),
            Bash("git describe --tags --abbrev=0", out="3.23.4"),
            Edit("giftshop/giftcard/models.py",
                 "    search_index_dirty = models.BooleanField(default=False)\n",
                 "    search_index_dirty = models.BooleanField(default=False)\n"
                 "    identifier = models.CharField(max_length=256, null=True, blank=True)\n"),
            Say("Last tag is 3.23.4, so main is 3.24: the field description gets ADDED_IN_324."),
            Bash("python manage.py makemigrations giftcard",
                 out="Migrations for 'giftcard':\n"
                     "  giftshop/giftcard/migrations/0031_giftcard_identifier.py\n"
                     "    + Add field identifier to giftcard"),
            # a one-off for this field, not a rule
            User("actually this one is being ported to the 3.23 release, so tag it "
                 "ADDED_IN_323 just for this field."),
            Probe("run the gift card API tests before I push", needs=("container", "reuse-db")),
            Bash("pytest --reuse-db giftshop/graphql/giftcard",
                 out=GS_UPDATE_PASS.replace("3 passed", "118 passed").replace("[3 items]",
                                                                              "[118 items]")),
            Commit("Add GiftCard.identifier"),
        )),
        Session(day=36, events=(
            Probe("next: expose lastUsedOn on GiftCard in the API, and when an order is refunded "
                  "deactivate the gift cards bought in it", needs=("added-in", "no-signals")),
            Probe("the refund path bulk-updates the cards, make sure they're locked first",
                  needs="sfu-lazy"),
            Probe("and the refund email needs the staff user who created the card, fetch it",
                  needs="pk"),
        )),
    ),
)


# ---------------------------------------------------------------------------------------------
# Story 4: servekit, a framework for tool servers (uv, pre-commit then prek, pyright then ty).
# ---------------------------------------------------------------------------------------------

SERVEKIT = Project("servekit", "python", {
    "pyproject.toml": (
        '[project]\nname = "servekit"\nversion = "2.11.0"\nrequires-python = ">=3.10"\n'
        'dependencies = ["pydantic>=2.10", "httpx>=0.28", "starlette>=0.46", '
        '"uvicorn>=0.34"]\n\n'
        '[dependency-groups]\ndev = ["pytest", "pytest-asyncio", "pytest-timeout", '
        '"pre-commit", "pyright", "ruff"]\n\n'
        '[tool.pytest.ini_options]\nasyncio_mode = "auto"\ntimeout = 3\n'
        'markers = ["integration: slow tests that need real network or subprocesses"]\n'
    ),
    ".pre-commit-config.yaml": (
        "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.12.8\n"
        "    hooks:\n      - id: ruff\n        args: [--fix]\n      - id: ruff-format\n"
        "  - repo: https://github.com/pre-commit/mirrors-prettier\n    rev: v3.1.0\n"
        "    hooks:\n      - id: prettier\n        types_or: [yaml, json5]\n"
        "  - repo: local\n    hooks:\n      - id: pyright\n        name: pyright\n"
        "        entry: uv run pyright\n        language: system\n        types: [python]\n"
        "        pass_filenames: false\n"
    ),
    ".github/workflows/run-static.yml": (
        "name: Run static analysis\non: [pull_request]\njobs:\n  static:\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - uses: astral-sh/setup-uv@v6\n      - run: uv sync\n"
        "      - run: uv run pre-commit run --all-files\n"
    ),
    "src/servekit/__init__.py": (
        "from servekit.client import Client\nfrom servekit.server import Server\n\n"
        "__all__ = [\"Client\", \"Server\"]\n"
    ),
    "src/servekit/tools/tool.py": (
        "from __future__ import annotations\n\nfrom collections.abc import Callable\n"
        "from typing import Any\n\nfrom pydantic import BaseModel\n\n\n"
        "class Tool(BaseModel):\n    name: str\n    description: str | None = None\n"
        "    fn: Callable[..., Any]\n\n    @classmethod\n"
        "    def from_function(cls, fn: Callable[..., Any], name: str | None = None) -> Tool:\n"
        "        return cls(name=name or fn.__name__, description=fn.__doc__, fn=fn)\n"
    ),
    "tests/tools/test_tool.py": (
        "from servekit import Client, Server\n\n\n"
        "async def test_call_tool():\n    server = Server(\"test\")\n\n    @server.tool\n"
        "    def add(a: int, b: int) -> int:\n        return a + b\n\n"
        "    async with Client(server) as client:\n"
        "        result = await client.call_tool(\"add\", {\"a\": 1, \"b\": 2})\n"
        "    assert result.data == 3\n"
    ),
    "docs/python-sdk/servekit-tools-tool.mdx": (
        "---\ntitle: tool\nsidebarTitle: tool\n---\n\n# `servekit.tools.tool`\n\n"
        "## Classes\n\n### `Tool`\n\n**Methods:**\n\n#### `from_function`\n\n"
        "```python\nfrom_function(cls, fn: Callable[..., Any], name: str | None = None) -> Tool\n"
        "```\n"
    ),
    "src/servekit/server.py": (
        "from collections.abc import Callable\nfrom typing import Any\n\n"
        "from servekit.tools.tool import Tool\n\n\n"
        "class Server:\n    def __init__(self, name: str) -> None:\n        self.name = name\n"
        "        self._tools: dict[str, Tool] = {}\n\n"
        "    def add_tools(self, functions: list, prefix: str = \"\") -> None:\n"
        "        for fn in functions:\n"
        "            tool = Tool.from_function(fn, name=prefix + fn.__name__)\n"
        "            self._tools[tool.name] = tool\n"
    ),
    "docs/servers/tools.mdx": (
        "---\ntitle: Tools\n---\n\nDecorate a function with `@server.tool` to expose it.\n"
    ),
})

SK_PRECOMMIT_PASS = (
    "ruff.....................................................................Passed\n"
    "ruff-format..............................................................Passed\n"
    "prettier.................................................................Passed\n"
    "pyright..................................................................Passed"
)

SK_PYTEST_TIMEOUT = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.12.10, pytest-8.4.1, pluggy-1.6.0\n"
    "timeout: 3.0s\ntimeout method: signal\ntimeout func_only: False\n"
    "collected 2417 items\n\n"
    "...\n"
    "tests/tools/test_tool.py .......F                                       [ 41%]\n"
    "...\n"
    "=================================== FAILURES ===================================\n"
    "_________________________ test_tool_tags_over_http ____________________________\n\n"
    "    async def test_tool_tags_over_http():\n"
    "        server = Server(\"test\")\n"
    "    ...\n"
    ">       async with run_server_in_process(server, transport=\"http\") as url:\n\n"
    "tests/tools/test_tool.py:61:\n"
    "...\n"
    "E   Failed: Timeout (>3.0s) from pytest-timeout.\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/tools/test_tool.py::test_tool_tags_over_http - Failed: Timeout (>3.0s) "
    "from pytest-timeout.\n"
    "================= 1 failed, 2409 passed, 7 skipped in 48.13s ==================="
)

SK_TY_FAIL = (
    "error[invalid-argument-type]: Argument to bound method `from_function` is incorrect\n"
    "  --> src/servekit/server.py:13:40\n"
    "    |\n"
    "12 |         for fn in functions:\n"
    "13 |             tool = Tool.from_function(fn, name=prefix + fn.__name__)\n"
    "    |                                        ^^ Expected `(...) -> Any`, found "
    "`object`\n"
    "    |\n"
    "info: rule `invalid-argument-type` is enabled by default\n\n"
    "Found 1 diagnostic"
)

SERVEKIT_STORY = Story(
    id="ho-py-servekit-1",
    title="A tool-server framework: pre-commit to prek, pyright to ty, type: ignore to "
          "isinstance in tests, a raised test timeout, generated API docs, no amending",
    project=SERVEKIT,
    sources=("PrefectHQ/fastmcp",),
    lessons=(
        lesson("precommit", "command",
               "Required before committing: `uv sync`, `uv run pre-commit run --all-files` "
               "(Ruff + Prettier + type checker) and `uv run pytest`",
               "pre-commit run", "all-files"),
        lesson("prek", "command",
               "The hooks run with prek now: `uv run prek run --all-files` (replaces "
               "pre-commit), required before PRs",
               "prek"),
        lesson("pyright", "command", "Type checking: `uv run pyright`", "pyright"),
        lesson("ty", "command",
               "Type checking is `uv run ty check` (the project switched from pyright to ty)",
               "ty check"),
        lesson("no-amend", "convention",
               "Never amend commits to fix pre-commit/prek hook failures; make a new commit",
               "amend"),
        lesson("docs-autogen", "gotcha",
               "Never modify files in docs/python-sdk/**: they are auto-generated",
               "python-sdk", "generated|never modify|don't edit|do not edit"),
        lesson("type-ignore", "convention",
               "In tests, use `# type: ignore[attr-defined]` on results instead of type "
               "assertions",
               "type: ignore|attr-defined"),
        lesson("isinstance", "convention",
               "In tests, narrow result types with isinstance assertions instead of "
               "`# type: ignore[attr-defined]`",
               "isinstance"),
        lesson("timeout-3", "fact",
               "Tests time out after 3s by default (pytest-timeout): optimize them or mark them "
               "as integration tests",
               "3s|3 seconds|timeout = 3|3.0s", "timeout|time out"),
        lesson("timeout-5", "fact",
               "The default test timeout is 5s now: optimize slow tests or mark them as "
               "integration tests",
               "5s|5 seconds|timeout = 5|5.0s", "timeout|time out"),
    ),
    also=(
        lesson("also-no-attribution", "convention",
               "No agent attribution in commit messages or PR titles/descriptions; keep commit "
               "messages brief",
               "attribution"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: PrefectHQ/fastmcp AGENTS.md (bfc8efdf3 "Consolidate agent instructions")
            User("welcome aboard. Required development workflow: `uv sync` to install "
                 "dependencies, `uv run pre-commit run --all-files` (Ruff + Prettier + Pyright) "
                 "and `uv run pytest` for the full suite. Tests must pass and lint/typing must "
                 "be clean before committing. For type errors alone you can use `uv run "
                 "pyright` directly.", states=("precommit", "pyright")),
            User("first task: tools should accept `tags`, a set of strings, so clients can "
                 "filter them."),
            Edit("src/servekit/tools/tool.py",
                 "    fn: Callable[..., Any]\n\n",
                 "    fn: Callable[..., Any]\n    tags: set[str] = set()\n\n"),
            Edit("src/servekit/tools/tool.py",
                 "    def from_function(cls, fn: Callable[..., Any], name: str | None = None) -> "
                 "Tool:\n"
                 "        return cls(name=name or fn.__name__, description=fn.__doc__, fn=fn)\n",
                 "    def from_function(\n        cls,\n        fn: Callable[..., Any],\n"
                 "        name: str | None = None,\n        tags: set[str] | None = None,\n"
                 "    ) -> Tool:\n"
                 "        return cls(\n            name=name or fn.__name__,\n"
                 "            description=fn.__doc__,\n            fn=fn,\n"
                 "            tags=tags or set(),\n        )\n"),
            Bash("uv sync && uv run pre-commit run --all-files", out=SK_PRECOMMIT_PASS),
            Bash("uv run pytest -q",
                 out="2409 passed, 7 skipped in 44.90s"),
            Commit("Add tags to tools"),
            User("CI's static job went red on your PR."),
            Bash("uv run pre-commit run --all-files",
                 out="ruff.....................................................................Passed\n"
                     "ruff-format..............................................................Failed\n"
                     "- hook id: ruff-format\n- files were modified by this hook\n\n"
                     "1 file reformatted, 212 files left unchanged\n\n"
                     "prettier.................................................................Passed\n"
                     "pyright..................................................................Passed",
                 ok=False, exit=1),
            Say("ruff-format rewrapped tool.py. I'll amend the commit with the formatted file "
                "and force-push."),
            # source: PrefectHQ/fastmcp AGENTS.md (bfc8efdf3) "Git & CI"
            User("no: never amend commits to fix pre-commit failures. Just add a new commit. "
                 "And never force-push on a collaborative repo.", states="no-amend"),
            Edit("src/servekit/tools/tool.py", "            tags=tags or set(),\n",
                 "            tags=tags if tags is not None else set(),\n"),
            Commit("Format tool.py"),
        ), judge={"precommit": "not_down"}),
        Session(day=5, events=(
            User("can you add a test that tags survive the round trip over HTTP?"),
            Edit("tests/tools/test_tool.py", "    assert result.data == 3\n",
                 "    assert result.data == 3\n\n\n"
                 "async def test_tool_tags_over_http():\n    server = Server(\"test\")\n\n"
                 "    @server.tool(tags={\"math\"})\n    def add(a: int, b: int) -> int:\n"
                 "        return a + b\n\n"
                 "    async with run_server_in_process(server, transport=\"http\") as url:\n"
                 "        async with Client(url) as client:\n"
                 "            tools = await client.list_tools()\n"
                 "    assert tools[0].meta[\"tags\"] == [\"math\"]  # type: ignore[index]\n"),
            Bash("uv run pytest", out=SK_PYTEST_TIMEOUT, ok=False, exit=1),
            # source: PrefectHQ/fastmcp AGENTS.md (3730b7e10) "Test timeouts: Default 3s -
            # optimize or mark as integration tests"
            User("right, test timeouts: default 3s. Optimize or mark as integration tests. A "
                 "real HTTP server in a subprocess is an integration test.",
                 states="timeout-3"),
            Edit("tests/tools/test_tool.py", "async def test_tool_tags_over_http():\n",
                 "@pytest.mark.integration\nasync def test_tool_tags_over_http():\n"),
            Edit("tests/tools/test_tool.py", "from servekit import Client, Server\n",
                 "import pytest\n\nfrom servekit import Client, Server\n"),
            # source: PrefectHQ/fastmcp AGENTS.md (bfc8efdf3) "Code Standards"
            User("and for the index access on the result: use `# type: ignore[attr-defined]` "
                 "in tests for results instead of type assertions, that's our convention.",
                 states="type-ignore"),
            Edit("tests/tools/test_tool.py",
                 "    assert tools[0].meta[\"tags\"] == [\"math\"]  # type: ignore[index]\n",
                 "    assert tools[0].meta.tags == [\"math\"]  # type: ignore[attr-defined]\n"),
            # source: PrefectHQ/fastmcp AGENTS.md (bfc8efdf3) "Commit Messages and Agent
            # Attribution"
            User("when you commit: NEVER include agent attribution in commit messages or PR "
                 "titles/descriptions, and keep commit messages brief, ideally just headlines."),
            Bash("uv run pytest -m 'not integration' -q",
                 out="2409 passed, 8 deselected in 41.22s"),
            Bash("uv run pytest -m integration -q", out="8 passed, 2409 deselected in 18.04s"),
            Commit("Test tool tags over HTTP"),
        )),
        Session(day=12, events=(
            # source: PrefectHQ/fastmcp PR #1545 (77b425c47) "switch from `pyright` to `ty`"
            User("we switched from `pyright` to `ty`. Type checking is `uv run ty check` now, "
                 "and the pre-commit hook runs Ruff + Prettier + ty. Can you swap the hook?",
                 replaces="pyright", states="ty"),
            Edit(".pre-commit-config.yaml",
                 "      - id: pyright\n        name: pyright\n        entry: uv run pyright\n",
                 "      - id: ty\n        name: ty\n        entry: uv run ty check\n"),
            Edit("pyproject.toml", '"pre-commit", "pyright", "ruff"]', '"pre-commit", "ty", '
                 '"ruff"]'),
            Bash("uv run ty check", out=SK_TY_FAIL, ok=False, exit=1),
            Say("ty infers `object` for the loop variable because `functions` is an untyped "
                "list. I'll annotate it as list[Callable[..., Any]]."),
            Edit("src/servekit/server.py", "functions: list,",
                 "functions: list[Callable[..., Any]],"),
            Bash("uv run ty check", out="All checks passed!"),
            User("and the docs: mention tags on the tools page and in the API reference for "
                 "Tool.from_function."),
            Edit("docs/python-sdk/servekit-tools-tool.mdx",
                 "from_function(cls, fn: Callable[..., Any], name: str | None = None) -> Tool\n",
                 "from_function(cls, fn: Callable[..., Any], name: str | None = None, tags: "
                 "set[str] | None = None) -> Tool\n"),
            # source: PrefectHQ/fastmcp CLAUDE.md (84ca1b0f0)
            User("undo that one: NEVER modify files in docs/python-sdk/**, as they are "
                 "auto-generated. Only the hand-written pages.", states="docs-autogen"),
            Edit("docs/python-sdk/servekit-tools-tool.mdx",
                 "from_function(cls, fn: Callable[..., Any], name: str | None = None, tags: "
                 "set[str] | None = None) -> Tool\n",
                 "from_function(cls, fn: Callable[..., Any], name: str | None = None) -> Tool\n"),
            Edit("docs/servers/tools.mdx", "to expose it.\n",
                 "to expose it. Pass `tags={...}` to let clients filter tools.\n"),
            Probe("before I merge this, run everything CI's static job runs", needs="precommit"),
            Bash("uv run pre-commit run --all-files",
                 out=SK_PRECOMMIT_PASS.replace("pyright.....", "ty..........")),
            Commit("Switch type checking to ty and document tool tags"),
        )),
        Session(day=30, events=(
            # source: PrefectHQ/fastmcp PR #2665 (049bd2282) "Replace type: ignore[attr-defined]
            # with isinstance assertions in tests"
            User("update from upstream review: we're replacing type: ignore[attr-defined] in "
                 "tests with isinstance assertions. Fix type errors without type: ignore.",
                 replaces="type-ignore", states="isinstance"),
            # source: PrefectHQ/fastmcp AGENTS.md (c002bc389) "Test timeouts: Default 5s"
            User("also the default test timeout went to 5s (`timeout = 5`), still: optimize or "
                 "mark as integration tests.", replaces="timeout-3", states="timeout-5"),
            Edit("pyproject.toml", "timeout = 3\n", "timeout = 5\n"),
            Edit("tests/tools/test_tool.py",
                 "    assert tools[0].meta.tags == [\"math\"]  # type: ignore[attr-defined]\n",
                 "    assert isinstance(tools[0].meta, ToolMeta)\n"
                 "    assert tools[0].meta.tags == [\"math\"]\n"),
            Commit("Use isinstance narrowing in tool tests; raise the test timeout to 5s"),
            Probe("I refactored the transforms module, can you type-check it?", needs="ty"),
            Bash("uv run ty check src/servekit/transforms", out="All checks passed!"),
        )),
        Session(day=45, events=(
            # source: PrefectHQ/fastmcp PR #2309 (aba7d762d) "switch from pre-commit to prek"
            User("news: we switched from pre-commit to prek. `uv run prek run --all-files` runs "
                 "the same Ruff + Prettier + ty hooks, prek hooks are required and run on "
                 "commit, and ALWAYS run prek before PRs. Please update the CI workflow and dev "
                 "deps.", replaces="precommit", states="prek"),
            Edit(".github/workflows/run-static.yml",
                 "      - run: uv run pre-commit run --all-files\n",
                 "      - uses: j178/prek-action@v1\n"),
            Edit("pyproject.toml", '"pre-commit", "ty", "ruff"]', '"prek", "ty", "ruff"]'),
            Bash("uv sync && uv run prek run --all-files",
                 out="ruff.....................................................................Passed\n"
                     "ruff-format..............................................................Passed\n"
                     "prettier.................................................................Passed\n"
                     "ty.......................................................................Passed"),
            Commit("Switch from pre-commit to prek"),
            Probe("add a test that a resource template returns its rendered text",
                  needs="isinstance"),
            Write("tests/resources/test_template.py",
                  "from servekit import Client, Server\nfrom servekit.types import "
                  "TextResourceContents\n\n\n"
                  "async def test_template_renders():\n    server = Server(\"test\")\n\n"
                  "    @server.resource(\"greeting://{name}\")\n"
                  "    def greet(name: str) -> str:\n        return f\"hi {name}\"\n\n"
                  "    async with Client(server) as client:\n"
                  "        result = await client.read_resource(\"greeting://ann\")\n"
                  "    assert isinstance(result[0], TextResourceContents)\n"
                  "    assert result[0].text == \"hi ann\"\n"),
            Probe("the search transform test takes about 4 seconds locally. is that going to be "
                  "a problem in CI?", needs="timeout-5"),
            Commit("Test resource template rendering"),
        )),
        Session(day=52, events=(
            User("last push before the release cut."),
            Probe("get the branch ready to merge: run the whole pre-merge routine",
                  needs=("prek", "ty")),
            Bash("uv run prek run --all-files",
                 out="ruff.....................................................................Passed\n"
                     "ruff-format..............................................................Failed\n"
                     "- hook id: ruff-format\n- files were modified by this hook\n\n"
                     "1 file reformatted, 231 files left unchanged",
                 ok=False, exit=1),
            Probe("ugh, the formatter changed a file from my last commit. tidy it up",
                  needs="no-amend"),
            Probe("and update the API reference for Server.add_tool, the signature changed",
                  needs="docs-autogen"),
        ), judge={"prek": "not_down"}),
    ),
)


# ---------------------------------------------------------------------------------------------
# Story 5: quill, a CLI for prompting models and logging to SQLite (click, sqlite-utils, cog).
# ---------------------------------------------------------------------------------------------

QUILL_JUSTFILE_PIPENV = (
    "# Run tests and linters\n@default: test lint\n\n"
    "# Install dependencies and test dependencies\n@init:\n"
    "  pipenv run pip install -e '.[test]'\n\n"
    "# Run pytest with supplied options\n@test *options:\n  pipenv run pytest {{options}}\n\n"
    "# Run linters\n@lint:\n  echo \"Linters...\"\n  echo \"  Black\"\n"
    "  pipenv run black . --check\n  echo \"  cog\"\n"
    "  pipenv run cog --check -p \"import sys; sys._called_from_test=True\" README.md "
    "docs/*.md\n"
    "  echo \"  mypy\"\n  pipenv run mypy quill\n  echo \"  ruff\"\n  pipenv run ruff check .\n\n"
    "# Rebuild docs with cog\n@cog:\n"
    "  pipenv run cog -r -p \"import sys; sys._called_from_test=True\" docs/*.md README.md\n"
)

QUILL = Project("quill", "python", {
    "pyproject.toml": (
        '[project]\nname = "quill"\nversion = "0.27.1"\nrequires-python = ">=3.9"\n'
        'dependencies = [\n    "click",\n    "sqlite-utils>=3.37",\n    "openai>=1.55",\n'
        '    "pluggy",\n    "pydantic>=2",\n]\n\n'
        '[project.optional-dependencies]\ntest = [\n    "pytest",\n    "pytest-recording",\n'
        '    "syrupy",\n    "black>=25.1",\n    "cogapp",\n    "mypy",\n    "ruff",\n]\n\n'
        '[project.scripts]\nquill = "quill.cli:cli"\n'
    ),
    "Justfile": QUILL_JUSTFILE_PIPENV,
    ".gitignore": ".venv\n__pycache__/\n*.py[cod]\nvenv\n.pytest_cache\n*.egg-info\n"
                  "build/\n*.db\n",
    "quill/cli.py": (
        "import click\n\nfrom quill.models import get_model\n"
        "from quill.store import log_response\n\n\n"
        "@click.group()\n@click.version_option()\ndef cli():\n"
        "    \"Access large language models from the command-line\"\n\n\n"
        "@cli.command(name=\"prompt\")\n@click.argument(\"prompt\")\n"
        "@click.option(\"-m\", \"--model\", help=\"Model to use\")\n"
        "def prompt(prompt, model):\n    \"Execute a prompt\"\n"
        "    response = get_model(model).prompt(prompt)\n    click.echo(response.text())\n"
        "    log_response(response)\n"
    ),
    "quill/store.py": (
        "import sqlite_utils\n\nfrom quill.paths import logs_db_path\n\n\n"
        "def log_response(response) -> None:\n"
        "    db = sqlite_utils.Database(logs_db_path())\n"
        "    db[\"responses\"].insert(response.log_row(), alter=True)\n\n\n"
        "def delete_conversation(db, conversation_id: str) -> None:\n"
        "    with db.conn:\n"
        "        db[\"responses\"].delete_where(\"conversation_id = ?\", [conversation_id])\n"
        "        db[\"conversations\"].delete(conversation_id)\n"
    ),
    "tests/test_cli.py": (
        "from click.testing import CliRunner\n\nfrom quill.cli import cli\n\n\n"
        "def test_prompt_logs(mock_model, logs_db):\n"
        "    runner = CliRunner(mix_stderr=False)\n"
        "    result = runner.invoke(cli, [\"prompt\", \"hi\", \"-m\", \"mock\"])\n"
        "    assert result.exit_code == 0\n    assert logs_db[\"responses\"].count == 1\n"
    ),
    "docs/usage.md": (
        "# Usage\n\n## quill prompt --help\n\n<!-- [[[cog\nimport cog\n"
        "from quill import cli\nfrom click.testing import CliRunner\n"
        "result = CliRunner().invoke(cli.cli, [\"prompt\", \"--help\"])\n"
        "cog.out(\"```\\n\" + result.output + \"```\")\n]]] -->\n```\n"
        "Usage: cli prompt [OPTIONS] PROMPT\n\n  Execute a prompt\n\nOptions:\n"
        "  -m, --model TEXT  Model to use\n  --help            Show this message and exit.\n"
        "```\n<!-- [[[end]]] -->\n"
    ),
    "docs/changelog.md": "# Changelog\n\n(v0_27_1)=\n## 0.27.1 (2025-08-02)\n\n- Bug fixes.\n",
})

QL_PYTEST_PASS = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.13.3, pytest-8.3.5, pluggy-1.5.0\n"
    "rootdir: /home/dev/quill\nconfigfile: pytest.ini\n"
    "plugins: recording-0.13.4, syrupy-4.9.1, anyio-4.9.0, httpx-0.35.0\n"
    "collected {n} items\n\n"
    "tests/test_aliases.py ..........                                         [  2%]\n"
    "tests/test_cli.py .......................................................  [ 40%]\n"
    "tests/test_keys.py ...........                                           [ 43%]\n"
    "tests/test_migrate.py ..................                                 [ 48%]\n"
    "tests/test_templates.py ...............................................  [ 87%]\n"
    "tests/test_tools.py .............................................        [100%]\n\n"
    "============================= {n} passed in 18.40s =============================="
)

QL_COG_FAIL = (
    "Linters...\n  Black\nAll done! ✨ 🍰 ✨\n96 files would be left unchanged.\n  cog\n"
    "Checking README.md\nChecking docs/usage.md  (changed)\nChecking docs/logging.md\n"
    "Check failed\nerror: Recipe `lint` failed on line 14 with exit code 5"
)

QL_CLICK_FAIL = (
    "pipenv run pytest\n"
    "collected 912 items\n\n"
    "tests/test_cli.py EEEEEEEEEEEEEEEEEEEEEEEEEEE                            [  3%]\n"
    "...\n"
    "==================================== ERRORS ====================================\n"
    "______________________ ERROR at setup of test_prompt_logs ______________________\n\n"
    "    def test_prompt_logs(mock_model, logs_db):\n"
    ">       runner = CliRunner(mix_stderr=False)\n"
    "E       TypeError: CliRunner.__init__() got an unexpected keyword argument "
    "'mix_stderr'\n\ntests/test_cli.py:7: TypeError\n"
    "=========================== short test summary info ============================\n"
    "ERROR tests/test_cli.py::test_prompt_logs - TypeError: CliRunner.__init__() got an "
    "unexpected keyword argument 'mix_stderr'\n"
    "...\n"
    "================== 851 passed, 61 errors in 17.92s ============================\n"
    "$ pipenv run pip show click | head -2\nName: click\nVersion: 8.2.0"
)

QUILL_STORY = Story(
    id="ho-py-cli-quill-1",
    title="A CLI for models: pipenv to uv with dependency-groups, cog-managed --help docs, "
          "recorded API tests, a Click 8.2 pin, sqlite-utils 4 and db.atomic()",
    project=QUILL,
    sources=("simonw/llm",),
    lessons=(
        lesson("pipenv", "command",
               "The dev environment is pipenv: `just test` runs `pipenv run pytest`, "
               "`just init` installs with `pipenv run pip install -e '.[test]'`",
               "pipenv", "pytest|just test"),
        lesson("uv", "command",
               "The dev environment is uv with dependency-groups: run the tests with "
               "`uv run pytest` and the dev copy with `uv run quill`; no venv or pipenv",
               "uv run"),
        lesson("lint", "command",
               "`just lint` runs black --check, cog --check, mypy and ruff check",
               "just lint"),
        lesson("cog", "gotcha",
               "The CLI --help examples in the docs are generated by cog: after changing "
               "options run `just cog`, or cog --check fails in lint and CI",
               "cog", "--help|help|just cog|cog -r"),
        lesson("record", "command",
               "API-calling tests are recorded with pytest-recording and syrupy: "
               "`PYTEST_OPENAI_API_KEY=... pytest --record-mode once --snapshot-update`, then "
               "review the new snapshots in tests/__snapshots__/",
               "record-mode", "snapshot-update|__snapshots__"),
        lesson("click-pin", "gotcha",
               "Click 8.2.0 removed CliRunner's mix_stderr and broke the tests; the test "
               "dependencies pin click<8.2.0 until the tests are upgraded (issue #1024)",
               "click", "8.2|mix_stderr"),
        lesson("eol", "preference",
               "Support each Python version until its EOL date",
               "EOL|end of life|end-of-life"),
        lesson("uvlock", "fact", "uv.lock is gitignored: it is not committed",
               "uv.lock", "gitignore|ignored|commit"),
        lesson("release", "convention",
               "Release: update docs/changelog.md, bump the version in pyproject.toml, run "
               "`just cog`, then create the GitHub release",
               "changelog", "version|release"),
        lesson("atomic", "decision",
               "sqlite-utils 4.0 or higher is required: wrap writes in db.atomic(), not "
               "`with db.conn:` blocks",
               "atomic", "sqlite-utils|db.conn|savepoint"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: simonw/llm docs/contributing.md and Justfile before 1e3c7f0
            User("hi! to get going: `pipenv shell`, then install the dependencies and test "
                 "dependencies with `pip install -e '.[test]'` (`just init` does it). Run the "
                 "tests with `just test`, which is `pipenv run pytest`. `just lint` runs Black, "
                 "cog, mypy and ruff.", states=("pipenv", "lint")),
            User("task: `quill prompt` should get a `--no-log` flag to skip logging the "
                 "response."),
            Edit("quill/cli.py",
                 "@click.option(\"-m\", \"--model\", help=\"Model to use\")\n"
                 "def prompt(prompt, model):\n",
                 "@click.option(\"-m\", \"--model\", help=\"Model to use\")\n"
                 "@click.option(\"-n\", \"--no-log\", is_flag=True, help=\"Don't log to "
                 "database\")\n"
                 "def prompt(prompt, model, no_log):\n"),
            Edit("quill/cli.py", "    log_response(response)\n",
                 "    if not no_log:\n        log_response(response)\n"),
            Bash("just test", out=QL_PYTEST_PASS.format(n=911)),
            Bash("just lint", out=QL_COG_FAIL, ok=False, exit=1),
            # source: simonw/llm docs/contributing.md "Documentation"
            User("the CLI `--help` examples in the documentation are managed using Cog. Update "
                 "those files with `just cog`.", states="cog"),
            Bash("just cog", out="Cogging README.md\nCogging docs/usage.md  (changed)\n"
                                 "Cogging docs/logging.md"),
            Edit("docs/usage.md",
                 "  -m, --model TEXT  Model to use\n  --help            Show this message and "
                 "exit.\n",
                 "  -m, --model TEXT  Model to use\n  -n, --no-log      Don't log to database\n"
                 "  --help            Show this message and exit.\n"),
            Bash("just lint",
                 out="Linters...\n  Black\n96 files would be left unchanged.\n  cog\n"
                     "Checking README.md\nChecking docs/usage.md\nChecking docs/logging.md\n"
                     "  mypy\nSuccess: no issues found in 41 source files\n  ruff\n"
                     "All checks passed!"),
            Commit("quill prompt --no-log option"),
        ), judge={"lint": "not_down"}),
        Session(day=7, events=(
            User("CI is red on main since this morning and nothing changed on our side. can "
                 "you look?"),
            Bash("just test", out=QL_CLICK_FAIL, ok=False, exit=1),
            # source: simonw/llm issue #1024 "Upgrade tests for compatibility with Click 8.2.0"
            Say("Click 8.2.0 was released and it removes the mix_stderr parameter in "
                "CliRunner, so every test that builds CliRunner(mix_stderr=False) errors. The "
                "quick fix is to pin click<8.2.0 in the test dependencies.",
                states="click-pin"),
            # source: simonw/llm issue #1024 comments
            User("yes, pin to Click earlier than that just in our tests, for the sake of "
                 "shipping the new alpha, then revisit later. Click also dropped support for "
                 "Python 3.9 early; my policy is to support until the EOL date, that's fine as "
                 "long as Click still works, CI will catch it.", states="eol"),
            Edit("pyproject.toml", '    "pytest",\n    "pytest-recording",\n',
                 '    "click<8.2.0",  # https://github.com/example/quill/issues/1024\n'
                 '    "pytest",\n    "pytest-recording",\n'),
            Bash("pipenv run pip install -e '.[test]' && just test",
                 out="Successfully installed click-8.1.8 quill-0.27.1\n"
                     + QL_PYTEST_PASS.format(n=912)),
            Commit("Pin click<8.2.0 in tests, refs #1024"),
        )),
        Session(day=14, events=(
            User("I want a `--schema` option on prompt that asks the model for JSON matching "
                 "a schema. it needs a test that really hits the API."),
            # source: simonw/llm docs/contributing.md "Updating recorded HTTP API interactions"
            # (5162cab)
            User("this project uses pytest-recording to record OpenAI API responses for some "
                 "of the tests, and syrupy to capture snapshots of their results. If you add a "
                 "new test that calls the API, capture the response and snapshot like this: "
                 "`PYTEST_OPENAI_API_KEY=\"$(quill keys get openai)\" pytest --record-mode once "
                 "--snapshot-update`. Then review the new snapshots in `tests/__snapshots__/`.",
                 states="record"),
            Edit("quill/cli.py",
                 "@click.option(\"-m\", \"--model\", help=\"Model to use\")\n",
                 "@click.option(\"-m\", \"--model\", help=\"Model to use\")\n"
                 "@click.option(\"--schema\", help=\"JSON schema the response must match\")\n"),
            Write("tests/test_schema.py",
                  "import pytest\nfrom click.testing import CliRunner\n\nfrom quill.cli import "
                  "cli\n\n\n@pytest.mark.vcr\ndef test_prompt_schema(snapshot, logs_db):\n"
                  "    result = CliRunner().invoke(\n"
                  "        cli, [\"prompt\", \"invent a dog\", \"--schema\", \"name, age int\"]\n"
                  "    )\n    assert result.exit_code == 0\n"
                  "    assert result.output == snapshot\n"),
            Bash("PYTEST_OPENAI_API_KEY=\"$(quill keys get openai)\" pipenv run pytest "
                 "tests/test_schema.py --record-mode once --snapshot-update",
                 out="collected 1 item\n\ntests/test_schema.py .                      [100%]\n"
                     "----------------------------- snapshot report summary "
                     "------------------------------\n1 snapshot generated.\n"
                     "========================= 1 passed in 2.31s =========================="),
            Bash("cat tests/__snapshots__/test_schema.ambr",
                 out="# serializer version: 1\n# name: test_prompt_schema\n"
                     "  '''\n  {\"name\": \"Biscuit\", \"age\": 4}\n\n  '''\n# ---"),
            Bash("just cog", out="Cogging README.md\nCogging docs/usage.md  (changed)"),
            Edit("docs/usage.md", "  -n, --no-log      Don't log to database\n",
                 "  -n, --no-log      Don't log to database\n"
                 "  --schema TEXT     JSON schema the response must match\n"),
            Probe("did that break anything else? run everything", needs=("pipenv", "lint")),
            Bash("just test && just lint",
                 out=QL_PYTEST_PASS.format(n=913) + "\nLinters...\n  Black\n  cog\n  mypy\n"
                     "Success: no issues found in 41 source files\n  ruff\nAll checks passed!"),
            Commit("quill prompt --schema option"),
        )),
        Session(day=30, events=(
            # source: simonw/llm issue #1318, commit 1e3c7f0 "uv and dependency-groups" and
            # its .gitignore (uv.lock)
            User("switching the development environment to uv, using the patterns from my "
                 "other projects: replace [project.optional-dependencies] test with "
                 "[dependency-groups] dev, run the tests with `uv run pytest`, and run the "
                 "development copy with `uv run quill --help`. Add uv.lock to .gitignore, we "
                 "don't commit it. Can you do the Justfile too?",
                 replaces="pipenv", states=("uv", "uvlock")),
            Edit("pyproject.toml", "[project.optional-dependencies]\ntest = [\n",
                 "[dependency-groups]\ndev = [\n"),
            Write("Justfile", QUILL_JUSTFILE_PIPENV
                  .replace("# Install dependencies and test dependencies\n@init:\n"
                           "  pipenv run pip install -e '.[test]'\n\n", "")
                  .replace("pipenv run", "uv run")),
            Edit(".gitignore", "*.db\n", "*.db\nuv.lock\n"),
            Bash("uv run pytest -q", out="913 passed in 18.77s"),
            Commit("uv and dependency-groups, refs #1318"),
            # source: simonw/llm docs/contributing.md "Release process" (4766f47)
            User("I'll cut 0.28 after this. To release a new version: update "
                 "`docs/changelog.md` with the new changes, update the version number in "
                 "`pyproject.toml`, run `just cog` to update the docs with the new version "
                 "number, then create a GitHub release for it.", states="release"),
            Edit("docs/changelog.md", "# Changelog\n\n",
                 "# Changelog\n\n(v0_28)=\n## 0.28 (2025-12-12)\n\n"
                 "- New `--no-log` and `--schema` options for `quill prompt`.\n\n"),
            Edit("pyproject.toml", 'version = "0.27.1"', 'version = "0.28"'),
            Bash("just cog", out="Cogging README.md\nCogging docs/usage.md\n"
                                 "Cogging docs/fragments.md  (changed)"),
            Commit("Release 0.28"),
            Probe("the --help text for `quill prompt --schema` is confusing, reword it to say "
                  "it takes a concise schema like 'name, age int'", needs="cog"),
        )),
        Session(day=44, events=(
            # source: simonw/llm commit 774e62b "Drop sqlite-utils 3.x support, require 4.0
            # or higher" (PR #1562)
            User("news: we now require sqlite-utils 4.0 or higher. sqlite-utils 4's "
                 "Database.atomic() suspends per-call commits inside the block, which is what "
                 "our write paths need, so call db.atomic() directly. The `with db.conn:` "
                 "blocks are placebos, a no-op under 3.x autocommit, and under 4 the sqlite3 "
                 "exit commit could commit a caller's open transaction. Can you fix "
                 "delete_conversation?", states="atomic"),
            Edit("pyproject.toml", '"sqlite-utils>=3.37"', '"sqlite-utils>=4.0"'),
            Edit("quill/store.py", "    with db.conn:\n", "    with db.atomic():\n"),
            Bash("uv run pytest -q", out="942 passed in 19.05s"),
            Commit("Require sqlite-utils>=4.0, use db.atomic()"),
            Probe("let's ship 0.29 with that, prep the release", needs="release"),
            Edit("docs/changelog.md", "# Changelog\n\n",
                 "# Changelog\n\n(v0_29)=\n## 0.29 (2026-01-28)\n\n"
                 "- Requires sqlite-utils 4.0 or higher.\n\n"),
            Edit("pyproject.toml", 'version = "0.28"', 'version = "0.29"'),
            Bash("just cog", out="Cogging README.md\nCogging docs/usage.md\n"
                                 "Cogging docs/fragments.md  (changed)"),
            Commit("Release 0.29"),
        ), judge={"uv": "not_down"}),
        Session(day=52, events=(
            Probe("add a `quill logs import` command that loads a JSONL export back into the "
                  "logs database, all or nothing", needs=("atomic", "cog")),
            Probe("before I push: run the tests and the linters", needs=("uv", "lint")),
            Probe("git status shows uv.lock as untracked after my sync, should it go into this "
                  "commit?", needs="uvlock"),
            Probe("a user asks if we could drop Python 3.10 already to use newer typing "
                  "features. what's our stance?", needs="eol"),
            Probe("Click 8.3 is out, can we upgrade?", needs="click-pin"),
        )),
    ),
)

STORIES = [WIRECALL_STORY, RELAY_STORY, GIFTSHOP_STORY, SERVEKIT_STORY, QUILL_STORY]
