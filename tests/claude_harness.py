"""Drive the real Claude Code CLI against the scripted fake Messages API server
(``tests/fake_anthropic.py``, from ``shared/claude-code``), with a throwaway HOME."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
FAKE_SERVER = HERE / "fake_anthropic.py"
KNOWN_LOCATIONS = (
    Path(__file__).resolve().parents[1] / ".ci-cache" / "claude-code" / "node_modules" / ".bin"
    / "claude",
    Path("/tmp/cc/node_modules/.bin/claude"),
)


def find_claude() -> str | None:
    """``$KENNING_CLAUDE_BIN``, the CI install, a local harness install, or ``claude``."""
    env = os.environ.get("KENNING_CLAUDE_BIN")
    if env and Path(env).exists():
        return env
    for p in KNOWN_LOCATIONS:
        if p.exists():
            return str(p)
        # npm ran without its postinstall: the platform package's binary works directly
        for native in sorted(p.parents[1].glob("@anthropic-ai/claude-code-*/claude")):
            return str(native)
    return shutil.which("claude")


class FakeModel:
    """The fake server: a script per conversation, and the log of every request."""

    def __init__(self, work: Path, scripts: dict[str, list[dict[str, Any]]]) -> None:
        self.work = work
        self.log = work / "requests.jsonl"
        self.script = work / "script.json"
        self.script.write_text(json.dumps(scripts))
        port_file = work / "port.txt"
        self.proc = subprocess.Popen(
            [sys.executable, str(FAKE_SERVER), "--port", "0", "--log", str(self.log),
             "--script", str(self.script), "--port-file", str(port_file)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            if port_file.exists() and port_file.read_text().strip():
                break
            time.sleep(0.05)
        self.port = int(port_file.read_text().strip())

    def requests(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        out = []
        for line in self.log.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("path", "").startswith("/v1/messages") and isinstance(rec.get("body"), dict):
                out.append(rec)
        return out

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@contextmanager
def fake_model(work: Path, scripts: dict[str, list[dict[str, Any]]]) -> Iterator[FakeModel]:
    server = FakeModel(work, scripts)
    try:
        yield server
    finally:
        server.close()


def run_claude(claude: str, project: Path, home: Path, port: int, prompt: str, *,
               session_id: str, env: dict[str, str], extra: list[str] = (),  # type: ignore[assignment]
               timeout: int = 240) -> subprocess.CompletedProcess[str]:
    """One non-interactive session, as ``claude -p`` with the offline environment."""
    full_env = {
        **os.environ, **env, "HOME": str(home),
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
    }
    return subprocess.run(
        [claude, "-p", prompt, "--output-format", "json", "--session-id", session_id,
         "--permission-mode", "acceptEdits", *extra],
        cwd=project, env=full_env, capture_output=True, text=True, timeout=timeout,
    )


def texts(value: Any) -> list[str]:
    """Every string inside a request's messages (content blocks nest)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for v in value for t in texts(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts(v)]
    return []


def session_requests(server: FakeModel, session_id: str) -> list[dict[str, Any]]:
    return [r for r in server.requests()
            if (r.get("headers") or {}).get("x-claude-code-session-id") == session_id
            and r["body"].get("tools")]
