"""Optional LLM refinement of extracted candidates (Anthropic SDK, extra ``kenning[llm]``).
Runs only with an API key AND an explicit opt-in, within a token budget; any failure keeps the
rule-based candidates unchanged."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any

from kenning.errors import ValidationError
from kenning.extract.candidates import Candidate

DEFAULT_BUDGET = 4000  # tokens, prompt and answer together
DEFAULT_MODEL = "claude-haiku-4-5"
CHARS_PER_TOKEN = 3  # conservative: real text averages nearer 4
SYSTEM = (
    "You review memory candidates mined from a coding session by simple rules. Keep only "
    "facts worth remembering in later sessions (gotchas, fixes, project commands, user "
    "preferences, decisions). Drop chatter and noise. Rewrite kept items as one clear, "
    "self-contained sentence. Answer with JSON only: "
    '{"keep": [{"i": <index>, "text": "<sentence>", "confidence": <0..1>}]}'
)


def opted_in(flag: bool | None) -> bool:
    """An explicit ``llm=True`` or ``KENNING_LLM_EXTRACT=1``, and an API key in the env."""
    env = os.environ.get("KENNING_LLM_EXTRACT", "").strip().lower() in ("1", "true", "yes", "on")
    wanted = env if flag is None else flag
    return bool(wanted and os.environ.get("ANTHROPIC_API_KEY"))


def budget_from_env() -> int:
    raw = os.environ.get("KENNING_LLM_BUDGET", "")
    try:
        return max(200, int(raw)) if raw else DEFAULT_BUDGET
    except ValueError as exc:
        raise ValidationError(f"KENNING_LLM_BUDGET must be a number of tokens, not {raw!r}"
                              ) from exc


def _prompt(items: list[tuple[int, Candidate]]) -> str:
    rows = [{"i": i, "kind": c.kind, "text": c.text, "confidence": round(c.confidence, 2)}
            for i, c in items]
    return "Candidates:\n" + json.dumps(rows, ensure_ascii=False)


def refine(candidates: list[Candidate], *, budget: int = DEFAULT_BUDGET,
           model: str | None = None) -> tuple[list[Candidate], dict[str, Any]]:
    """Ask the model which candidates to keep and how to word them, sending only as many
    candidates as fit in ``budget`` tokens (the rest pass through unrefined)."""
    report: dict[str, Any] = {"budget_tokens": budget, "sent": 0}
    if not candidates:
        return candidates, report
    try:
        import anthropic
    except ImportError:
        report["error"] = "the anthropic package is not installed: pip install 'kenning[llm]'"
        return candidates, report
    max_out = max(100, min(1024, budget // 4))
    room = budget - max_out - len(SYSTEM) // CHARS_PER_TOKEN
    sent: list[tuple[int, Candidate]] = []
    for i, c in enumerate(candidates):
        if len(_prompt([*sent, (i, c)])) // CHARS_PER_TOKEN > room:
            break
        sent.append((i, c))
    if not sent:
        report["error"] = "budget too small for any candidate"
        return candidates, report
    model = model or os.environ.get("KENNING_LLM_MODEL", DEFAULT_MODEL)
    report.update(sent=len(sent), model=model)
    try:
        client = anthropic.Anthropic(timeout=30.0, max_retries=1)
        resp = client.messages.create(
            model=model, max_tokens=max_out, system=SYSTEM,
            messages=[{"role": "user", "content": _prompt(sent)}],
        )
    except Exception as exc:  # network, auth, server: fall back to the rules' output
        report["error"] = f"{type(exc).__name__}: {exc}"[:300]
        return candidates, report
    usage = getattr(resp, "usage", None)
    report["input_tokens"] = getattr(usage, "input_tokens", None)
    report["output_tokens"] = getattr(usage, "output_tokens", None)
    text = "".join(getattr(b, "text", "") for b in resp.content)
    try:
        data = json.loads(text[text.index("{"): text.rindex("}") + 1])
        keep = {int(k["i"]): k for k in data["keep"] if isinstance(k, dict)}
    except (ValueError, KeyError, TypeError) as exc:
        report["error"] = f"unreadable answer: {exc}"[:300]
        return candidates, report
    sent_ids = {i for i, _ in sent}
    out = []
    for i, c in enumerate(candidates):
        if i not in sent_ids:
            out.append(c)
        elif i in keep:
            k = keep[i]
            new_text = k.get("text")
            if not isinstance(new_text, str):
                new_text = c.text
            raw = k.get("confidence")
            conf = min(1.0, max(0.0, float(raw))) if isinstance(raw, int | float) else c.confidence
            out.append(replace(c, text=" ".join(new_text.split())[:400] or c.text,
                               confidence=conf, refined=True))
    report["dropped"] = len(sent_ids) - len(sent_ids & keep.keys())
    return out, report
