"""Check the hand-labelled sets in this folder and print their counts.

Run it after editing either file: every key word must occur in its message (otherwise no
extraction could ever match it), ids must be unique, fields and labels must have the documented
shape, and the counts must stay at the sizes the README promises. Exits 1 on any problem.

    python benchmarks/data/check_labelled.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
KINDS = {"convention", "decision"}
LABELS = {"supersedes", "compatible", "unrelated"}
LATE = 400  # a rule "sits late" when all its key words occur after this many characters


def _load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def check_rules(rows: list[dict[str, Any]]) -> tuple[dict[str, int], list[str]]:
    """Return the counts of the rules set and the problems found in it."""
    errors: list[str] = []
    ids = Counter(r["id"] for r in rows)
    errors += [f"duplicate id {i}" for i, n in ids.items() if n > 1]
    texts = Counter(r["text"] for r in rows)
    errors += [f"duplicate text {t[:50]!r}" for t, n in texts.items() if n > 1]
    counts: Counter[str] = Counter(messages=len(rows))
    for row in rows:
        if set(row) != {"id", "text", "rules"}:
            errors.append(f"{row.get('id')}: fields {sorted(row)}")
            continue
        text = row["text"].lower()
        for rule in row["rules"]:
            if set(rule) != {"kind", "rule", "key", "subject"} or rule["kind"] not in KINDS:
                errors.append(f"{row['id']}: malformed rule {rule}")
                continue
            counts[rule["kind"]] += 1
            if not rule["rule"].strip() or not rule["subject"].strip():
                errors.append(f"{row['id']}: empty rule or subject")
            if not 1 <= len(rule["key"]) <= 3:
                errors.append(f"{row['id']}: {len(rule['key'])} key words")
            for key in rule["key"]:
                if key != key.lower() or key not in text:
                    errors.append(f"{row['id']}: key {key!r} is not lower-case text of the message")
        if row["rules"]:
            counts["with_rules"] += 1
            counts["multi"] += len(row["rules"]) >= 2
            counts["late"] += any(
                all(k in text[LATE:] for k in rule["key"]) for rule in row["rules"]
            )
        else:
            counts["without_rules"] += 1
    return dict(counts), errors


def check_pairs(rows: list[dict[str, Any]]) -> tuple[dict[str, int], list[str]]:
    """Return the label counts of the pairs set and the problems found in it."""
    errors: list[str] = []
    ids = Counter(r["id"] for r in rows)
    errors += [f"duplicate id {i}" for i, n in ids.items() if n > 1]
    for row in rows:
        if set(row) != {"id", "old", "new", "label"} or row["label"] not in LABELS:
            errors.append(f"{row.get('id')}: malformed pair")
        elif row["old"].strip() == row["new"].strip():
            errors.append(f"{row['id']}: old and new are the same")
    counts = Counter(r.get("label", "?") for r in rows)
    counts["pairs"] = len(rows)
    return dict(counts), errors


def main() -> int:
    rules, rule_errors = check_rules(_load(HERE / "rules_labelled.jsonl"))
    pairs, pair_errors = check_pairs(_load(HERE / "supersession_pairs.jsonl"))
    print("rules_labelled.jsonl:", json.dumps(rules, sort_keys=True))
    print("supersession_pairs.jsonl:", json.dumps(pairs, sort_keys=True))
    floors = {
        "messages": (rules, 320),
        "with_rules": (rules, 190),
        "multi": (rules, 40),
        "late": (rules, 40),
        "without_rules": (rules, 130),
        "pairs": (pairs, 140),
        "supersedes": (pairs, 50),
        "compatible": (pairs, 45),
        "unrelated": (pairs, 45),
    }
    short = [
        f"{name} below {floor}" for name, (c, floor) in floors.items() if c.get(name, 0) < floor
    ]
    for problem in rule_errors + pair_errors + short:
        print("ERROR", problem)
    return 1 if rule_errors or pair_errors or short else 0


if __name__ == "__main__":
    sys.exit(main())
