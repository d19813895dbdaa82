"""What each Claude Code event does. Prompt and tool events stay on the standard library's C
modules (they run on every prompt and every tool call); session events load the facade."""

import os

from kenning import config, journal
from kenning.hooks import budget
from kenning.journal import fastjson
from kenning.places import lean

Settings = dict[str, object]


def settings_for(cwd: str | None) -> Settings:
    """The ``[hooks]`` settings for a project (user level when ``cwd`` is None), plus the store."""
    root = None
    if cwd:
        root = lean.git_root(cwd) or os.path.realpath(cwd)
    cfg = config.load(root)
    out = cfg.section("hooks")
    out["auto_memory"] = cfg.section("auto_memory")
    out["episodes"] = cfg.section("episodes")
    out["db"] = cfg.get("store", "db")
    out["project"] = cfg.section("project")
    return out


def store_location(settings: Settings) -> str:
    if os.environ.get("KENNING_DB"):
        return lean.store_location()
    return str(settings.get("db") or "") or lean.store_location()


def _event(payload: dict[str, object], project: str, now_ms: int, kind: str,
           data: dict[str, object]) -> dict[str, object]:
    return {
        "id": journal.new_event_id(now_ms), "session_id": str(payload.get("session_id") or ""),
        "project": project, "at_ms": now_ms, "kind": kind, "data": data,
    }


def handle(event: str, payload: dict[str, object], settings: Settings, now_ms: int) -> str:
    """Run the handler for ``event``; returns what to print on stdout (often nothing)."""
    cwd = payload.get("cwd")
    if not isinstance(cwd, str):
        cwd = None
    location = store_location(settings)
    if event in ("PostToolUse", "PostToolUseFailure"):
        # The per-tool path leaves the project to ingestion (cwd is journalled): no git walk.
        if settings["record_tools"]:
            record_tool(payload, cwd, location, now_ms, failed=event == "PostToolUseFailure",
                        settings=settings)
        return ""
    project = lean.project_for(cwd, location, config.table(settings, "project"))
    if event == "UserPromptSubmit":
        return prompt_submit(payload, settings, project, location, now_ms)
    if event == "Stop":
        journal.append(lean.journal_dir(location),
                       [_event(payload, project, now_ms, "stop", {})])
        budget.journalled()
        return ""
    if event == "SubagentStop":
        data = {k: payload[k] for k in ("agent_id", "agent_type", "agent_transcript_path")
                if isinstance(payload.get(k), str)}
        report = payload.get("last_assistant_message")
        if isinstance(report, str) and report.strip() and data.get("agent_type"):
            from kenning.redact import redact  # not a per-prompt path: the full redactor

            # redacted before it is cut: a secret across the cut leaves no fragment (the
            # margin holds a whole private key block)
            data["report"] = redact(report[:28_000]).text[:20_000]
        journal.append(lean.journal_dir(location),
                       [_event(payload, project, now_ms, "subagent", data)])
        budget.journalled()
        return ""
    from kenning.hooks import session

    if event == "SessionStart":
        return session.start(payload, settings, project, location, now_ms)
    if event == "PreCompact":
        session.pre_compact(payload, settings, project, location, now_ms)
        return ""
    if event == "SessionEnd":
        session.end(payload, settings, project, location, now_ms)
        return ""
    return ""


def prompt_submit(payload: dict[str, object], settings: Settings, project: str, location: str,
                  now_ms: int) -> str:
    """Inject the top few memories for the prompt as ``additionalContext``; journal what was
    injected (ids and score parts) so learning and the dashboard can see it."""
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return ""
    from kenning.journal import seen
    from kenning.promptindex import inject
    from kenning.promptindex import reader as pindex

    if "://" not in location and not os.path.exists(location):
        return ""  # no store yet

    top_k = config.integer(settings, "top_k")
    floor = config.number(settings, "min_confidence")
    directory = lean.journal_dir(location)
    seen_file = seen.path(directory, str(payload.get("session_id") or ""))
    already = seen.load(seen_file)  # what this conversation was shown: not shown again
    update = None  # what an ended session taught after the briefing, once it has been learned
    if seen.UPDATE_DUE in already and seen.UPDATE_SHOWN not in already:
        update = seen.take_update(seen_file)
        if update is not None:
            seen.write(seen_file, [seen.UPDATE_SHOWN, *update[1]], append=True)
            already.update(update[1])
    # A server store has other writers: its index is trusted for shared_refresh_s at most.
    refresh_s = config.integer(settings, "shared_refresh_s")
    shared = refresh_s * 1000 if "://" in location else None
    index = pindex.load(pindex.index_path(directory), location, shared, now_ms)
    if index is not None:
        hits = pindex.rank(index, prompt, project, now_ms, k=top_k, min_confidence=floor,
                           seen=already)
    elif "://" in location:  # a server store this machine wrote to since the index was built
        from kenning.hooks import pgcontext

        hits = pgcontext.rank(location, prompt, project, now_ms, k=top_k, min_confidence=floor,
                              seen=already)
    else:  # no index yet, or the store changed since it was built: ask the store itself
        from kenning.hooks import context

        conn = context.connect(location)
        try:
            hits = context.rank(conn, prompt, project, now_ms, k=top_k, min_confidence=floor,
                                seen=already)
        finally:
            conn.close()
    text, shown = inject.render(hits, config.integer(settings, "max_chars"),
                                first=seen.HEADER not in already)
    # what bears on the prompt, shown now or earlier in the conversation (learning judges both)
    had = [h for h in hits if (h.get("seen") or h.get("known_line"))
           and not any(h is s for s in shown)]
    relevant = shown + had
    if relevant:
        seen.write(seen_file, [str(h["id"]) for h in shown]
                   + ([seen.HEADER] if shown and seen.HEADER not in already else []),
                   append=True)
        journal.append(directory, [_event(payload, project, now_ms, "injected", {
            "prompt_id": payload.get("prompt_id") if isinstance(payload.get("prompt_id"), str)
            else None,
            "matched": inject.matched_terms(prompt, relevant),
            "memories": [{"id": h["id"], "score": h["score"], "parts": h["parts"]}
                         for h in shown]
            + [{"id": h["id"], "score": h["score"], "parts": h["parts"], "seen": True}
               for h in had],
        })])
    if update and update[0]:  # like the briefing it completes: learning judges what follows
        journal.append(directory, [_event(payload, project, now_ms, "injected", {
            "memories": [{"id": mid} for mid in update[1]], "matched": [],
            "channel": "update"})])
        text = update[0] + (f"\n{text}" if shown else "")
    elif not shown:
        return ""
    return fastjson.dumps({"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit", "additionalContext": text,
    }})


_EDIT_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")


def _command_head(command: str) -> list[str]:
    """The program and up to two plain subcommand words (``npm run test``), never arguments that
    could carry a secret: only short lower-case words made of letters, digits, ``._-``. A
    leading ``cd x &&``, environment assignments (``CI=1``) and ``python -m`` are skipped, so
    ``cd app && python -m pytest -q`` is ``pytest``."""
    from kenning import outcomes

    parts = outcomes.segments(command[:4000])
    words = next((p for p in parts if p[0] not in ("cd", "pushd")), [])
    while words and outcomes.is_assignment(words[0]):
        words = words[1:]
    if len(words) > 2 and words[1] == "-m" and outcomes.is_python(os.path.basename(words[0])):
        words = words[2:]
    out: list[str] = []
    for word in words[:3]:
        if not word or len(word) > 24 or not all(c.isalnum() or c in "._-/" for c in word):
            break
        if any(c.isupper() for c in word) or (word.startswith("-") and out):
            break
        out.append(os.path.basename(word) if "/" in word else word)
    return out


_OUTPUT_TAIL = 4096  # of a check's output, only the end is read (where runners summarise)


def _bash_outcome(payload: dict[str, object], command: str, failed: bool
                  ) -> dict[str, object]:
    """For a command that runs a check (tests, a build, a linter...): its kind, its suite, the
    runner's summary (counts and words only) and whether it passed (left out when the run gave
    no verdict: no tests ran, interrupted). Empty for any other command."""
    from kenning import outcomes

    check = outcomes.check_of(command)
    if check is None:
        return {}
    found: dict[str, object] = {"check": check.kind, "suite": check.suite}
    response = payload.get("tool_response")
    if isinstance(response, dict) and response.get("interrupted"):
        found["summary"] = "interrupted"
        return found
    exit_code: int | None = None
    if failed:  # PostToolUseFailure: "Exit code N" and the output, in one string
        error = payload.get("error")
        error = error if isinstance(error, str) else ""
        first, _, rest = error.partition("\n")
        if first.lower().startswith("exit code "):
            code = first[len("exit code "):].strip()
            exit_code = int(code) if code.isdigit() else None
            error = rest
        output = error[-_OUTPUT_TAIL:]
    else:
        out = response.get("stdout") if isinstance(response, dict) else None
        err = response.get("stderr") if isinstance(response, dict) else None
        err = err[-_OUTPUT_TAIL // 2:] if isinstance(err, str) else ""
        out = out[-(_OUTPUT_TAIL - len(err)):] if isinstance(out, str) else ""
        output = out + "\n" + err if err else out
    result = outcomes.read_result(check, output, failed=failed, exit_code=exit_code)
    found["summary"] = result.summary
    if result.ok is not None:
        found["ok"] = result.ok
    if result.ok:  # a passing && chain passed its other checks too (the journal keeps no chain)
        also = [c.suite for c in outcomes.checks_passed(command) if c.suite != check.suite]
        if also:
            found["also"] = also
    return found


def record_tool(payload: dict[str, object], cwd: str | None, location: str, now_ms: int,
                failed: bool = False, settings: Settings | None = None) -> None:
    """Append the tool call's outcome to the journal: which tool, which file, which command,
    whether it worked; for a check (tests, a build, a linter), its kind, suite and the runner's
    summary, and whether it passed by that summary. No command arguments or output are kept
    here (they may hold secrets): consolidation reads those from the transcript, through the
    redactor."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str):
        return
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        tool_input = {}
    response = payload.get("tool_response")
    data: dict[str, object] = {"tool": tool[:80], "ok": not failed}
    if isinstance(payload.get("tool_use_id"), str):
        data["tool_use_id"] = payload["tool_use_id"]
    if tool in _EDIT_TOOLS:
        path = tool_input.get("file_path") or tool_input.get("notebook_path")
        if isinstance(path, str):
            data["file"] = path[:400]
    elif tool == "Bash":
        command = tool_input.get("command")
        if isinstance(response, dict) and response.get("interrupted"):
            data["ok"] = False
        if isinstance(command, str):
            data["cmd"] = " ".join(_command_head(command))
            outcome = _bash_outcome(payload, command, failed)
            if outcome:
                data.pop("ok")  # a check's verdict is its runner's, not the shell's
                data.update(outcome)
    event = _event(payload, "", now_ms, "tool", data)
    if cwd:
        event["cwd"] = cwd[:1000]
    journal.append(lean.journal_dir(location), [event])
    budget.journalled()  # past the budget, the drift check below is what gives way
    if isinstance(data.get("file"), str) and not failed:  # anchored code may have changed
        from kenning.drift import hook

        hook.after_edit(location, cwd, str(data["file"]), settings or {})
