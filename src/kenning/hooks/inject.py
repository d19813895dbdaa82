"""What the prompt hook injects: compact markdown, one line per memory with its id, and the
prompt words that explain the match."""

from kenning.words import query_terms

PROMPT_CHARS = 4000
MAX_TERMS = 16


def matched_terms(prompt: str, hits: list[dict[str, object]]) -> list[str]:
    """Prompt words found in the injected summaries: why they matched, without storing any of
    the prompt that is not already in the store."""
    text = " ".join(f"{h['topic'] or ''} {h['summary']}" for h in hits).lower()
    return [t for t in query_terms(prompt[:PROMPT_CHARS], MAX_TERMS) if t in text][:8]


def render(hits: list[dict[str, object]], max_chars: int) -> tuple[str, int]:
    """Compact markdown, one line per memory with its id, cut to ``max_chars`` in whole lines;
    and how many memories it shows."""
    if not hits:
        return "", 0
    head = ("Kenning memory: what this project learned that bears on this prompt "
            "(ids work with the kenning MCP tools `get` and `why`):")
    lines = [head]
    size = len(head)
    for h in hits:
        label = str(h["type"]) + (f" · {h['topic']}" if h["topic"] else "")
        extra = f"; outcome {h['outcome']}" if h["outcome"] else ""
        line = f"- [{label}] {h['summary']} (id {h['id']}{extra})"
        if size + 1 + len(line) > max_chars:
            break
        lines.append(line)
        size += 1 + len(line)
    return ("\n".join(lines), len(lines) - 1) if len(lines) > 1 else ("", 0)
