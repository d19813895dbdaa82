"""Pure cores: ids, ranking, text helpers, time parsing, paths and project keys."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kenning.errors import ValidationError
from kenning.ids import looks_like_id, new_id
from kenning.models import MemoryType
from kenning.places.paths import data_dir, default_db_path, git_root, project_key, project_root
from kenning.ranking import (
    RankWeights,
    contenders,
    final_scores,
    fuse,
    intent_types,
    recency,
)
from kenning.text import content_hash, keyword_terms, make_summary
from kenning.times import to_ms
from tests.test_store_contract import mem

NOW = 1_780_000_000_000
DAY = 86_400_000


def test_ids_encode_time_and_sort() -> None:
    a, b = new_id(NOW), new_id(NOW + 1)
    assert looks_like_id(a) and a < b
    assert new_id(NOW)[:10] == a[:10] and new_id(NOW + DAY)[:10] > a[:10]  # time is the prefix
    assert len({new_id(NOW) for _ in range(1000)}) == 1000
    with pytest.raises(ValueError):
        new_id(-1)


def test_fuse_keeps_score_gaps_and_normalises() -> None:
    w = RankWeights()
    fused = fuse([("a", 9.0), ("b", 5.0), ("d", 1.0)], [("a", 0.9), ("c", 0.8), ("b", 0.4)], w)
    assert fused["a"]["relevance"] == pytest.approx(1.0)  # best on both sides
    assert fused["a"]["keyword_rank"] == 1 and fused["c"]["keyword_rank"] == 0
    assert fused["b"]["relevance"] == pytest.approx((5 / 9 + 0.0) / 2)  # keyword over the best
    assert fused["c"]["relevance"] == pytest.approx(0.8 / 2)  # (0.8 - 0.4) / (0.9 - 0.4)
    assert fused["d"]["relevance"] == pytest.approx(1 / 9 / 2)
    only_kw = fuse([("a", 3.0), ("b", 1.5)], [], w)
    assert only_kw["a"]["relevance"] == 1.0 and only_kw["b"]["relevance"] == pytest.approx(0.5)
    assert fuse([], [], w) == {}


def test_contenders_keep_everything_that_could_still_win() -> None:
    w = RankWeights()
    fused = {str(i): {"relevance": 1.0 - i / 100} for i in range(100)}
    head = contenders(fused, 5, w)
    # confidence, recency, intent, failed, superseded, a kept user turn, obsolete code
    floor = 0.85 * 0.9 * 0.9 * 0.85 * 0.3 * 0.5 * 0.3
    assert head[:5] == ["0", "1", "2", "3", "4"]
    assert all(fused[m]["relevance"] >= 0.96 * floor for m in head)
    assert len(head) == sum(1 for v in fused.values() if v["relevance"] >= 0.96 * floor)
    assert contenders({"a": {"relevance": 0.1}}, 5, w) == ["a"]


def test_recency_halves_per_half_life() -> None:
    assert recency(NOW, NOW, 30) == 1.0
    assert recency(NOW - 30 * DAY, NOW, 30) == pytest.approx(0.5)
    assert recency(NOW + DAY, NOW, 30) == 1.0  # clock skew never boosts above 1


def test_final_scores_lift_confident_and_recent_only_among_relevant() -> None:
    w = RankWeights()
    mems = {
        "old": mem("old", confidence=0.9, at=NOW - 365 * DAY),
        "new": mem("new", confidence=0.9, at=NOW),
        "weak": mem("weak", confidence=0.1, at=NOW),
    }
    fused = {k: {"relevance": 0.5, "keyword_rank": 1, "keyword_score": 1, "vector_rank": 0,
                 "vector_similarity": 0} for k in mems}
    order = [mid for mid, _, _ in final_scores(fused, mems, NOW, w)]
    assert order == ["new", "old", "weak"]
    fused["weak"]["relevance"] = 1.0
    assert final_scores(fused, mems, NOW, w)[0][0] == "weak"


def test_intent_favours_the_asked_for_type() -> None:
    w = RankWeights()
    assert intent_types("Why did we pick JWT?") == {"decision"}
    assert intent_types("what broke the deploy") == {"gotcha", "outcome"}
    assert intent_types("list the memories") == frozenset()
    mems = {"d": mem("d", type=MemoryType.DECISION), "c": mem("c", type=MemoryType.CHECKPOINT)}
    fused = {k: {"relevance": 0.9} for k in mems}
    assert final_scores(fused, mems, NOW, w, intent_types("why JWT"))[0][0] == "d"
    scored = final_scores(fused, mems, NOW, w, intent_types("why JWT"))
    assert scored[1][2]["intent"] == pytest.approx(0.9)


def test_keyword_terms_and_summary_and_hash() -> None:
    assert keyword_terms("Why did we pick JWT?") == ["pick", "jwt"]
    assert keyword_terms("what is it") == ["what", "is", "it"]
    assert make_summary("\n\n  first line  \nsecond") == "first line"
    long = "word " * 100
    s = make_summary(long)
    assert len(s) <= 200 and s.endswith("…")
    assert content_hash("a  b\n") == content_hash(" a b")


def test_a_summary_that_only_introduces_a_list_goes_on_into_it() -> None:
    """"Writers of Shift / Signup (searched for ...):" alone is the line an index or a briefing
    would show, and it says nothing; its items do."""
    report = ("Writers of Shift / Signup in the repo (searched for create/update/delete):\n"
              "- src/app/api/signups/route.ts: POST creates a Signup through signUp().\n"
              "- scripts/import-shifts.ts: the weekly CSV import runs outside Next.js.")
    assert make_summary(report) == (
        "Writers of Shift / Signup in the repo: src/app/api/signups/route.ts: POST creates a "
        "Signup through signUp(); scripts/import-shifts.ts: the weekly CSV import runs outside "
        "Next.js")
    assert make_summary("Fixed it:\n") == "Fixed it:"
    assert make_summary("The fix:\nreturn t - (t*bps+5000)/10000") == "The fix:"


def test_to_ms_accepts_the_usual_forms() -> None:
    assert to_ms("7d", NOW) == NOW - 7 * DAY
    assert to_ms("1.5h", NOW) == NOW - 5_400_000
    assert to_ms("2026-01-02", NOW) == int(datetime(2026, 1, 2, tzinfo=UTC).timestamp() * 1000)
    assert to_ms("2026-01-02T03:04:05Z", NOW) == to_ms(
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), NOW)
    assert to_ms(1_700_000_000, NOW) == 1_700_000_000_000
    assert to_ms(1_700_000_000_000, NOW) == 1_700_000_000_000
    for bad in ("soon", True, None, [1]):
        with pytest.raises(ValidationError):
            to_ms(bad, NOW)


def test_project_key_matches_claude_code() -> None:
    assert project_key("/tmp/p_m2.dir") == "-tmp-p-m2-dir"
    assert project_key("/home/me/My Project/é") == "-home-me-My-Project--"
    long = "/" + "a" * 250
    key = project_key(long)
    assert key.startswith("-" + "a" * 199 + "-") and len(key) > 201


def test_git_root_is_the_real_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "p_m2.dir"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    link = tmp_path / "link-m2"
    link.symlink_to(repo)
    assert git_root(link / "sub") == repo.resolve()
    assert project_root(tmp_path) == tmp_path.resolve()
    monkeypatch.chdir(link / "sub")
    from kenning.places.paths import current_project

    monkeypatch.delenv("KENNING_PROJECT", raising=False)
    assert current_project() == project_key(repo.resolve())


def test_data_dir_follows_xdg_and_overrides(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    monkeypatch.delenv("KENNING_HOME", raising=False)
    monkeypatch.delenv("KENNING_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert data_dir() == tmp_path / "xdg" / "kenning"
        assert default_db_path() == tmp_path / "xdg" / "kenning" / "kenning.db"
    monkeypatch.setenv("KENNING_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"


def test_keyword_only_path_never_imports_numpy(tmp_path: Path) -> None:
    """Hooks run keyword-only in fresh processes: numpy and the model must stay unloaded."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from kenning import Kenning\n"
        f"k = Kenning({str(tmp_path / 'np.db')!r}, project='p', embedder=None)\n"
        "k.remember('pnpm is the package manager', type='preference', topic='tools')\n"
        "k.remember('use pnpm workspaces', type='decision', topic='tools')\n"
        "assert k.recall('pnpm')\n"
        "k.why('tools'); k.related(k.list()[0].id)\n"
        "print(sorted(m for m in ('numpy', 'onnxruntime', 'tokenizers') if m in sys.modules))\n"
    )
    env = dict(os.environ, KENNING_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, timeout=60)
    assert out.stdout.strip() == "[]"
