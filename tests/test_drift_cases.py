"""The held-out code-drift harness (``benchmarks/drift_cases.py``) replays a case as a user's
project would live it: the file committed, a memory remembered and anchored, the real commit,
a drift check. Made-up cases here; the held-out cases are only ever scored."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import drift_cases

BEFORE = ("def compute_vat(amount):\n    return amount * 0.20\n\n\n"
          "def shipping(weight):\n    return 5 + weight\n")
MEMORY = "src/billing.py: compute_vat() applies a fixed 20 % rate"


def case(**kw: object) -> dict[str, object]:
    return {"id": "t", "lang": "python", "source": "example/shop@0", "path": "src/billing.py",
            "path_after": "src/billing.py", "before": BEFORE, "memory": MEMORY,
            "symbol": "compute_vat", **kw}


@pytest.mark.parametrize(("after", "path_after", "flagged"), [
    (BEFORE.replace("0.20", "0.21"), "src/billing.py", True),        # the named function
    (BEFORE.replace("5 + weight", "6 + weight"), "src/billing.py", False),  # another one
    (None, None, True),                                              # the file deleted
])
def test_a_case_flags_its_memory_only_when_the_commit_changed_what_it_describes(
        tmp_path: Path, after: str | None, path_after: str | None, flagged: bool) -> None:
    anchored, got = drift_cases.run_case(case(after=after, path_after=path_after), tmp_path)
    assert anchored
    assert got is flagged


def test_scores_count_flags_against_the_truth() -> None:
    s = drift_cases.scores([(True, True, True), (True, True, False), (False, True, True),
                            (False, False, False)])
    assert (s["precision"], s["recall"], s["false_pos"], s["false_neg"]) == (0.5, 0.5, 1, 1)
    assert s["anchored_share"] == 0.75
