"""Check the labelled sets (the dev sets in this folder, the held-out sets in ``heldout/``) and
print their counts.

Run it after editing a dev file: every key word must occur in its message (otherwise no
extraction could ever match it), ids must be unique, fields and labels must have the documented
shape, and the counts must stay at the sizes the READMEs promise. The held-out items also name
their source and language, and may label a fact about the project. Exits 1 on any problem.

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
HELDOUT_KINDS = KINDS | {"fact"}  # the held-out set also marks what a memory keeps as a fact
LABELS = {"supersedes", "compatible", "unrelated"}
LATE = 400  # a rule "sits late" when all its key words occur after this many characters


def _load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def check_rules(rows: list[dict[str, Any]], heldout: bool = False
                ) -> tuple[dict[str, int], list[str]]:
    """Return the counts of a rules set and the problems found in it."""
    fields = {"id", "text", "rules"} | ({"source", "lang"} if heldout else set())
    kinds = HELDOUT_KINDS if heldout else KINDS
    errors: list[str] = []
    ids = Counter(r["id"] for r in rows)
    errors += [f"duplicate id {i}" for i, n in ids.items() if n > 1]
    texts = Counter(r["text"] for r in rows)
    errors += [f"duplicate text {t[:50]!r}" for t, n in texts.items() if n > 1]
    counts: Counter[str] = Counter(messages=len(rows))
    for row in rows:
        if set(row) != fields:
            errors.append(f"{row.get('id')}: fields {sorted(row)}")
            continue
        text = row["text"].lower()
        for rule in row["rules"]:
            if set(rule) != {"kind", "rule", "key", "subject"} or rule["kind"] not in kinds:
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


def check_pairs(rows: list[dict[str, Any]], heldout: bool = False
                ) -> tuple[dict[str, int], list[str]]:
    """Return the label counts of a pairs set and the problems found in it."""
    errors: list[str] = []
    fields = {"id", "old", "new", "label"}
    optional = {"source", "lang", "source_old"} if heldout else set()
    ids = Counter(r["id"] for r in rows)
    errors += [f"duplicate id {i}" for i, n in ids.items() if n > 1]
    for row in rows:
        extra = set(row) - fields
        if not fields <= set(row) or not extra <= optional or row["label"] not in LABELS or (
                heldout and not {"source", "lang"} <= extra):
            errors.append(f"{row.get('id')}: malformed pair")
        elif row["old"].strip() == row["new"].strip():
            errors.append(f"{row['id']}: old and new are the same")
    counts = Counter(r.get("label", "?") for r in rows)
    counts["pairs"] = len(rows)
    return dict(counts), errors


def main() -> int:
    problems: list[str] = []
    for name, heldout, floors in SETS:
        rules_path, pairs_path = (HERE / f for f in name)
        rules, rule_errors = check_rules(_load(rules_path), heldout)
        pairs, pair_errors = check_pairs(_load(pairs_path), heldout)
        print(f"{rules_path.relative_to(HERE)}:", json.dumps(rules, sort_keys=True))
        print(f"{pairs_path.relative_to(HERE)}:", json.dumps(pairs, sort_keys=True))
        counts = {**rules, **pairs}
        problems += [f"{rules_path.relative_to(HERE)}: {e}" for e in rule_errors]
        problems += [f"{pairs_path.relative_to(HERE)}: {e}" for e in pair_errors]
        problems += [f"{name[0]}: {key} below {floor}" for key, floor in floors.items()
                     if counts.get(key, 0) < floor]
    for problem in problems:
        print("ERROR", problem)
    return 1 if problems else 0


# (rules file, pairs file), held-out?, and the least counts each README promises.
SETS = (
    (("rules_labelled.jsonl", "supersession_pairs.jsonl"), False,
     {"messages": 320, "with_rules": 190, "multi": 40, "late": 40, "without_rules": 130,
      "pairs": 140, "supersedes": 50, "compatible": 45, "unrelated": 45}),
    (("heldout/rules.jsonl", "heldout/supersession_pairs.jsonl"), True,
     {"messages": 200, "with_rules": 130, "multi": 40, "without_rules": 60,
      "pairs": 90, "supersedes": 30, "compatible": 30, "unrelated": 30}),
)


if __name__ == "__main__":
    sys.exit(main())
