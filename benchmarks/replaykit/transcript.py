"""What the Claude Code client writes and sends for each story event: transcript records (the
``<session>.jsonl`` lines: user, assistant with tool_use, user with tool_result) and hook
payloads, in the shapes the real client 2.1.330 produced in captured sessions. Pure: ids and
times come from the caller."""

from __future__ import annotations

import difflib
import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

CLIENT_VERSION = "2.1.330"
MODEL = "claude-opus-5-5"
COMPACT_PREAMBLE = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:\n"
)


def iso(ms: int) -> str:
    """Unix milliseconds as the client's timestamp text (``2026-11-23T21:48:15.191Z``)."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.") + \
        f"{ms % 1000:03d}Z"


def stable_uuid(*parts: object) -> str:
    """A UUID derived from ``parts``, so every replay writes the same ids."""
    return str(uuid.UUID(bytes=hashlib.sha256(repr(parts).encode()).digest()[:16], version=4))


@dataclass
class SessionWriter:
    """Builds one session's transcript records and hook payloads, event by event."""

    session_id: str
    transcript_path: str
    cwd: str
    git_branch: str = "main"
    records: list[dict[str, Any]] = field(default_factory=list)
    prompt_id: str | None = None
    last_uuid: str | None = None
    last_assistant_text: str = ""
    _n: int = 0

    # -- ids and the shared record envelope -------------------------------------------------

    def _uuid(self) -> str:
        self._n += 1
        return stable_uuid(self.session_id, self._n)

    def _envelope(self, kind: str, at_ms: int) -> dict[str, Any]:
        rec: dict[str, Any] = {
            "parentUuid": self.last_uuid, "isSidechain": False, "type": kind,
            "uuid": self._uuid(), "timestamp": iso(at_ms), "userType": "external",
            "entrypoint": "cli", "cwd": self.cwd, "sessionId": self.session_id,
            "version": CLIENT_VERSION, "gitBranch": self.git_branch,
        }
        self.last_uuid = rec["uuid"]
        return rec

    def base_payload(self, event: str) -> dict[str, Any]:
        out: dict[str, Any] = {"session_id": self.session_id,
                               "transcript_path": self.transcript_path, "cwd": self.cwd}
        if self.prompt_id and event not in ("SessionStart",):
            out["prompt_id"] = self.prompt_id
        if event not in ("SessionStart", "SessionEnd", "PreCompact"):
            out["permission_mode"] = "default"
        out["hook_event_name"] = event
        return out

    # -- events -------------------------------------------------------------------------------

    def session_start(self, source: str = "startup") -> dict[str, Any]:
        return {**self.base_payload("SessionStart"), "source": source}

    def user(self, text: str, at_ms: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """A typed prompt: its record and the UserPromptSubmit payload."""
        self.prompt_id = stable_uuid(self.session_id, "prompt", self._n)
        rec = self._envelope("user", at_ms)
        rec.update({"promptId": self.prompt_id, "message": {"role": "user", "content": text},
                    "permissionMode": "default"})
        return [rec], {**self.base_payload("UserPromptSubmit"), "prompt": text}

    def say(self, text: str, at_ms: int) -> list[dict[str, Any]]:
        """The assistant's text reply."""
        rec = self._envelope("assistant", at_ms)
        rec["message"] = self._message([{"type": "text", "text": text}], "end_turn")
        self.last_assistant_text = text
        return [rec]

    def _message(self, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
        return {"id": "msg_" + stable_uuid(self.session_id, "msg", self._n).replace("-", "")[:24],
                "type": "message", "role": "assistant", "model": MODEL, "content": content,
                "stop_reason": stop, "stop_sequence": None,
                "usage": {"input_tokens": 0, "output_tokens": 0}}

    def tool(self, name: str, tool_input: dict[str, Any], at_ms: int, *, result_text: str,
             result_extra: Any, response: Any, ok: bool, error: str = "",
             duration_ms: int = 0) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                            tuple[str, dict[str, Any]]]:
        """A tool call: the assistant's tool_use record, then (after the tool ran and its hook
        fired) the tool_result record; and the PostToolUse / PostToolUseFailure payload."""
        tool_use_id = "toolu_" + stable_uuid(self.session_id, "tool", self._n).replace("-", "")[:24]
        call = self._envelope("assistant", at_ms)
        call["message"] = self._message(
            [{"type": "tool_use", "id": tool_use_id, "name": name, "input": tool_input}],
            "tool_use")
        result = self._envelope("user", at_ms + max(duration_ms, 1))
        block: dict[str, Any] = {"tool_use_id": tool_use_id, "type": "tool_result",
                                 "content": result_text}
        if not ok:
            block["is_error"] = True
        result.update({"promptId": self.prompt_id,
                       "message": {"role": "user", "content": [block]},
                       "toolUseResult": result_extra, "sourceToolAssistantUUID": call["uuid"]})
        payload = {**self.base_payload("PostToolUse" if ok else "PostToolUseFailure"),
                   "tool_name": name, "tool_input": tool_input, "tool_use_id": tool_use_id}
        if ok:
            payload["tool_response"] = response
        else:
            payload.update({"error": error, "is_interrupt": False})
        payload["duration_ms"] = duration_ms
        event = "PostToolUse" if ok else "PostToolUseFailure"
        return [call], [result], (event, payload)

    def bash(self, command: str, out: str, ok: bool, exit_code: int, description: str,
             at_ms: int, duration_ms: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                    tuple[str, dict[str, Any]]]:
        tool_input = {"command": command, "description": description or "Run a command"}
        if ok:
            response = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False,
                        "noOutputExpected": False}
            return self.tool("Bash", tool_input, at_ms, result_text=out, result_extra=response,
                             response=response, ok=True, duration_ms=duration_ms)
        error = f"Exit code {exit_code}\n{out}"
        return self.tool("Bash", tool_input, at_ms, result_text=error,
                         result_extra=f"Error: {error}", response=None, ok=False, error=error,
                         duration_ms=duration_ms)

    def edit(self, abs_path: str, old: str, new: str, original: str, at_ms: int
             ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], tuple[str, dict[str, Any]]]:
        tool_input = {"file_path": abs_path, "old_string": old, "new_string": new,
                      "replace_all": False}
        updated = original.replace(old, new, 1)
        response = {"filePath": abs_path, "oldString": old, "newString": new,
                    "originalFile": original, "structuredPatch": structured_patch(original,
                                                                                  updated),
                    "userModified": False, "replaceAll": False}
        return self.tool("Edit", tool_input, at_ms,
                         result_text=f"The file {abs_path} has been updated successfully.",
                         result_extra=response, response=response, ok=True, duration_ms=12)

    def write(self, abs_path: str, content: str, original: str | None, at_ms: int
              ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], tuple[str, dict[str, Any]]]:
        tool_input = {"file_path": abs_path, "content": content}
        response = {"type": "create" if original is None else "update", "filePath": abs_path,
                    "content": content,
                    "structuredPatch": [] if original is None else structured_patch(original,
                                                                                    content),
                    "originalFile": original}
        text = (f"File created successfully at: {abs_path}" if original is None
                else f"The file {abs_path} has been updated successfully.")
        return self.tool("Write", tool_input, at_ms, result_text=text, result_extra=response,
                         response=response, ok=True, duration_ms=9)

    def read(self, abs_path: str, content: str, at_ms: int
             ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], tuple[str, dict[str, Any]]]:
        lines = content.split("\n")
        numbered = "\n".join(f"{i}\t{line}" for i, line in enumerate(lines, start=1))
        response = {"type": "text", "file": {"filePath": abs_path, "content": content,
                                             "numLines": len(lines), "startLine": 1,
                                             "totalLines": len(lines)}}
        return self.tool("Read", {"file_path": abs_path}, at_ms, result_text=numbered,
                         result_extra=response, response=response, ok=True, duration_ms=4)

    def task(self, agent_type: str, report: str, at_ms: int
             ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
        """A subagent run through the Agent tool: its tool_use, its result, and SubagentStop."""
        agent_id = stable_uuid(self.session_id, "agent", self._n).replace("-", "")[:17]
        tool_input = {"description": "Investigate", "prompt": "Look into it and report back.",
                      "subagent_type": agent_type}
        calls, results, _ = self.tool(
            "Agent", tool_input, at_ms, result_text=report,
            result_extra={"status": "completed", "content": [{"type": "text", "text": report}]},
            response=None, ok=True, duration_ms=30_000)
        stop = {**self.base_payload("SubagentStop"), "stop_hook_active": False,
                "agent_id": agent_id, "agent_type": agent_type,
                "agent_transcript_path": self.transcript_path.removesuffix(".jsonl")
                + f"/subagents/agent-{agent_id}.jsonl",
                "last_assistant_message": report}
        return calls, results, stop

    def stop(self) -> dict[str, Any]:
        return {**self.base_payload("Stop"), "stop_hook_active": False,
                "last_assistant_message": self.last_assistant_text}

    def pre_compact(self, instructions: str) -> dict[str, Any]:
        return {**self.base_payload("PreCompact"), "trigger": "manual",
                "custom_instructions": instructions}

    def compact_stop(self, summary: str) -> dict[str, Any]:
        """The compaction agent's SubagentStop (``agent_type`` empty, as the client sends)."""
        agent_id = stable_uuid(self.session_id, "compact", self._n).replace("-", "")[:17]
        return {**self.base_payload("SubagentStop"), "stop_hook_active": False,
                "agent_id": agent_id, "agent_type": "",
                "agent_transcript_path": self.transcript_path.removesuffix(".jsonl")
                + f"/subagents/agent-{agent_id}.jsonl", "last_assistant_message": summary}

    def compact_summary(self, summary: str, at_ms: int) -> list[dict[str, Any]]:
        """The user record the client starts a compacted conversation with."""
        rec = self._envelope("user", at_ms)
        rec.update({"isCompactSummary": True,
                    "message": {"role": "user", "content": COMPACT_PREAMBLE + summary}})
        return [rec]

    def session_end(self, reason: str) -> dict[str, Any]:
        return {**self.base_payload("SessionEnd"), "reason": reason}


def structured_patch(before: str, after: str) -> list[dict[str, Any]]:
    """The Edit tool's ``structuredPatch``: unified-diff hunks as line lists."""
    a, b = before.split("\n"), after.split("\n")
    hunks = []
    for group in difflib.SequenceMatcher(None, a, b).get_grouped_opcodes(3):
        first, last = group[0], group[-1]
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + x for x in a[i1:i2]]
                continue
            lines += ["-" + x for x in a[i1:i2]]
            lines += ["+" + x for x in b[j1:j2]]
        hunks.append({"oldStart": first[1] + 1, "oldLines": last[2] - first[1],
                      "newStart": first[3] + 1, "newLines": last[4] - first[3], "lines": lines})
    return hunks
