"""Zero-LLM capture: read a Claude Code transcript and git history, propose memories by
pure rules, optionally refine them with a budget-capped LLM call."""
