"""Reading a Claude Code session transcript (``<sid>.jsonl``): the user's own words, the
assistant's text (its explanations, where the cause of a failure is usually stated), the tool
calls with their results, and which of them failed. Bad lines are skipped, never fatal."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kenning.errors import ValidationError

MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
_EXIT_CODE = re.compile(r"exit code (\d+)", re.I)
# User "messages" the CLI writes itself: slash commands, hook output, interrupts, reminders.
_SYNTHETIC = ("<command-", "<local-command-", "<system-reminder>", "[Request interrupted",
              "Caveat:", "This session is being continued")


@dataclass
class ToolCall:
    """One tool use and (once its result line is read) how it went."""

    id: str
    name: str
    input: dict[str, Any]
    line: int
    timestamp: str | None = None
    ok: bool | None = None
    output: str = ""
    exit_code: int | None = None

    @property
    def command(self) -> str:
        value = self.input.get("command")
        return value.strip() if isinstance(value, str) else ""

    @property
    def file_path(self) -> str | None:
        value = self.input.get("file_path") or self.input.get("notebook_path")
        return value if isinstance(value, str) and value else None


@dataclass
class UserText:
    """Something the user typed (not a tool result, not CLI-generated text)."""

    text: str
    line: int
    timestamp: str | None = None


@dataclass
class AssistantText:
    """A text block the assistant wrote (not a tool call, not its hidden reasoning)."""

    text: str
    line: int
    timestamp: str | None = None


Event = ToolCall | UserText | AssistantText


@dataclass
class Transcript:
    """A session as an ordered list of user texts, assistant texts and tool calls."""

    path: str
    session_id: str | None = None
    cwd: str | None = None
    events: list[Event] = field(default_factory=list)
    first_timestamp: str | None = None
    last_timestamp: str | None = None
    skipped_lines: int = 0

    @property
    def calls(self) -> list[ToolCall]:
        return [e for e in self.events if isinstance(e, ToolCall)]

    @property
    def user_texts(self) -> list[UserText]:
        return [e for e in self.events if isinstance(e, UserText)]

    @property
    def assistant_texts(self) -> list[AssistantText]:
        return [e for e in self.events if isinstance(e, AssistantText)]


def _text_of(content: Any) -> str:
    """The text in a message or tool_result ``content`` (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", "")) for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def _result_text(block: dict[str, Any], extra: Any) -> str:
    """A tool result's output: the structured ``toolUseResult`` when present, else the block."""
    if isinstance(extra, dict) and ("stdout" in extra or "stderr" in extra):
        return "\n".join(str(extra.get(k) or "") for k in ("stdout", "stderr")).strip()
    if isinstance(extra, str) and extra.strip():
        return extra.removeprefix("Error: ")  # the CLI's wrapper around a failed tool's output
    return _text_of(block.get("content"))


def parse_lines(lines: list[str], path: str = "<memory>") -> Transcript:
    """Parse transcript JSONL lines (pure: no file access)."""
    t = Transcript(path=path)
    pending: dict[str, ToolCall] = {}
    for n, raw in enumerate(lines, start=1):
        raw = raw.strip()
        if not raw:
            continue
        try:
            rec = json.loads(raw)
        except ValueError:
            t.skipped_lines += 1
            continue
        if not isinstance(rec, dict):
            t.skipped_lines += 1
            continue
        kind = rec.get("type")
        if kind not in ("user", "assistant"):
            continue
        ts = rec.get("timestamp") if isinstance(rec.get("timestamp"), str) else None
        t.session_id = t.session_id or rec.get("sessionId")
        t.cwd = t.cwd or rec.get("cwd")
        if ts:
            t.first_timestamp = t.first_timestamp or ts
            t.last_timestamp = ts
        msg = rec.get("message")
        if not isinstance(msg, dict):
            continue
        content = msg.get("content")
        if kind == "assistant":
            if isinstance(content, str) and content.strip() and not rec.get("isSidechain"):
                t.events.append(AssistantText(content.strip(), n, ts))
            for block in content if isinstance(content, list) else []:
                if (isinstance(block, dict) and block.get("type") == "text"
                        and not rec.get("isSidechain")):
                    said = str(block.get("text") or "").strip()
                    if said:
                        t.events.append(AssistantText(said, n, ts))
                elif isinstance(block, dict) and block.get("type") == "tool_use":
                    args = block.get("input")
                    if not isinstance(args, dict):
                        args = {}
                    tool_call = ToolCall(str(block.get("id", "")), str(block.get("name", "")),
                                         args, n, ts)
                    pending[tool_call.id] = tool_call
                    t.events.append(tool_call)
            continue
        blocks = content if isinstance(content, list) else []
        results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
        for block in results:
            call = pending.pop(str(block.get("tool_use_id", "")), None)
            if call is None:
                continue
            call.output = _result_text(block, rec.get("toolUseResult"))
            call.ok = not bool(block.get("is_error"))
            code = _EXIT_CODE.search(call.output[:200])
            call.exit_code = int(code.group(1)) if code else (0 if call.ok else None)
        if results or rec.get("isMeta") or rec.get("isSidechain"):
            continue
        text = _text_of(content).strip()
        if text and not text.startswith(_SYNTHETIC):
            t.events.append(UserText(text, n, ts))
    return t


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read a transcript file; a missing, unreadable or oversized file is a ValidationError."""
    p = Path(path).expanduser()
    try:
        if not p.is_file():
            raise ValidationError(f"transcript {str(p)!r} is not a file")
        if p.stat().st_size > MAX_TRANSCRIPT_BYTES:
            raise ValidationError(f"transcript {str(p)!r} is larger than 64 MiB")
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ValidationError(f"cannot read transcript {str(p)!r}: {exc.strerror}") from exc
    return parse_lines(text.splitlines(), str(p))
