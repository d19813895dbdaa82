"""Fixtures for the MCP / insights / extract tests: a recorded Claude Code transcript in the real
JSONL format (assistant tool_use blocks, user tool_result blocks with ``toolUseResult``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SESSION = "5764c944-1b2f-4c1e-9d55-0f6a1c2b3d4e"
CWD = "/tmp/proj-shop"


class TranscriptWriter:
    """Builds transcript lines the way Claude Code 2.1.x writes them."""

    def __init__(self, cwd: str = CWD, session: str = SESSION) -> None:
        self.cwd, self.session = cwd, session
        self.lines: list[dict[str, Any]] = []
        self.n = 0
        self.parent: str | None = None

    def _base(self, kind: str) -> dict[str, Any]:
        self.n += 1
        uid = f"00000000-0000-4000-8000-{self.n:012d}"
        rec = {"parentUuid": self.parent, "isSidechain": False, "userType": "external",
               "cwd": self.cwd, "sessionId": self.session, "version": "2.1.330",
               "gitBranch": "main", "type": kind, "uuid": uid,
               "timestamp": f"2026-11-22T10:{self.n // 60:02d}:{self.n % 60:02d}.000Z"}
        self.parent = uid
        return rec

    def user(self, text: str) -> None:
        rec = self._base("user")
        rec["message"] = {"role": "user", "content": text}
        self.lines.append(rec)

    def say(self, text: str) -> None:
        rec = self._base("assistant")
        rec["message"] = {"id": f"msg_{self.n}", "type": "message", "role": "assistant",
                          "model": "claude-opus-5-5", "content": [{"type": "text", "text": text}],
                          "stop_reason": "end_turn", "usage": {"input_tokens": 10,
                                                               "output_tokens": 5}}
        self.lines.append(rec)

    def tool(self, name: str, args: dict[str, Any], output: str, *, ok: bool = True,
             extra: Any = None) -> None:
        tid = f"toolu_{self.n:024d}"
        rec = self._base("assistant")
        rec["message"] = {"id": f"msg_{self.n}", "type": "message", "role": "assistant",
                          "model": "claude-opus-5-5",
                          "content": [{"type": "tool_use", "id": tid, "name": name,
                                       "input": args}],
                          "stop_reason": "tool_use", "usage": {"input_tokens": 10,
                                                               "output_tokens": 5}}
        self.lines.append(rec)
        res = self._base("user")
        res["message"] = {"role": "user", "content": [
            {"tool_use_id": tid, "type": "tool_result", "content": output, "is_error": not ok}]}
        res["toolUseResult"] = extra if extra is not None else (
            {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}
            if ok else f"Error: {output}")
        self.lines.append(res)

    def bash(self, command: str, output: str, *, ok: bool = True) -> None:
        self.tool("Bash", {"command": command, "description": "run"}, output, ok=ok)

    def edit(self, path: str, old: str, new: str) -> None:
        self.tool("Edit", {"file_path": path, "old_string": old, "new_string": new,
                           "replace_all": False},
                  f"The file {path} has been updated.",
                  extra={"filePath": path, "oldString": old, "newString": new,
                         "structuredPatch": [], "userModified": False})

    def write(self, path: Path) -> Path:
        with path.open("w", encoding="utf-8") as f:
            f.write(json.dumps({"type": "summary", "summary": "Fix user tests",
                                "leafUuid": "x"}) + "\n")
            for rec in self.lines:
                f.write(json.dumps(rec) + "\n")
            f.write("{not json\n")
        return path


NPM_FAIL = (
    "Exit code 1\n> shop@1.0.0 test\n> jest\n\nFAIL src/user.test.js\n"
    "  ● getUser › returns the profile\n\n"
    "    TypeError: Cannot read properties of undefined (reading 'id')\n\n"
    "      at getUser (src/user.js:12:20)\n\nTests: 1 failed, 3 passed, 4 total"
)


def recorded_session(path: Path) -> Path:
    """A failed ``npm test``, an edit that fixes it, a passing run, a user correction
    ("no, use pnpm"), a passing ``pnpm test`` and some chatter."""
    t = TranscriptWriter()
    t.user("hey! can you run the tests and fix whatever is broken?")
    t.say("Sure, let me run the test suite first.")
    t.bash("npm test", NPM_FAIL, ok=False)
    t.tool("Read", {"file_path": f"{CWD}/src/user.js"},
           "12  return db.users[id].profile.id", extra={"type": "text"})
    t.say("getUser dereferences a missing user; I'll guard it.")
    t.edit(f"{CWD}/src/user.js", "return db.users[id].profile.id",
           "return db.users[id]?.profile?.id ?? null")
    t.bash("npm test", "PASS src/user.test.js\nTests: 4 passed, 4 total")
    t.user("no, use pnpm")
    t.say("Got it, switching to pnpm.")
    t.bash("pnpm test", "PASS src/user.test.js\nTests: 4 passed, 4 total")
    t.user("thanks, looks great! how's the weather where you are, by the way?")
    t.say("I don't have weather, but glad the tests pass!")
    t.user("lol ok. nice work, that's all for today")
    return t.write(path)


def kenning_command() -> list[str]:
    """The real ``kenning`` console script of this interpreter's environment (or the module)."""
    import shutil
    import sys

    script = Path(sys.executable).with_name("kenning")
    if script.exists():
        return [str(script)]
    found = shutil.which("kenning")
    return [found] if found else [sys.executable, "-m", "kenning.entry"]


def server_env(tmp: Path, db: Path) -> dict[str, str]:
    """Environment for a spawned ``kenning mcp``: its own store, data dir and Claude config."""
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(("KENNING_", "ANTHROPIC_"))}
    env.update({"KENNING_DB": str(db), "KENNING_HOME": str(tmp / "home"),
                "KENNING_PROJECT": "mcp-proj", "CLAUDE_CONFIG_DIR": str(tmp / "claude"),
                "HOME": str(tmp / "userhome")})
    return env


def store_digest(db: Path) -> str:
    """A hash of every row of every table (a logical dump, so WAL checkpoints don't matter)."""
    import hashlib
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        h = hashlib.sha256()
        for line in conn.iterdump():
            h.update(line.encode())
        return h.hexdigest()
    finally:
        conn.close()


def stdio_params(tmp: Path, db: Path, *extra: str) -> Any:
    """How the official client spawns ``kenning mcp`` on ``db`` (cwd: a fresh project dir)."""
    from mcp import StdioServerParameters

    cmd = kenning_command()
    project = tmp / "project"
    project.mkdir(exist_ok=True)
    return StdioServerParameters(command=cmd[0], args=[*cmd[1:], "mcp", *extra],
                                 env=server_env(tmp, db), cwd=str(project))
