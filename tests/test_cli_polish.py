"""The CLI as a demanding user meets it: a version, reading never creates a store, tables that
show what failed or was replaced, ids that can be typed back, errors quoted whole, the graph
merge people type from health's advice, --explain whose numbers multiply out, and a word when
project scoping hides memories."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kenning import Kenning, __version__
from kenning.memtable import MIN_ID, render

KENNING = shutil.which("kenning") or str(Path(sys.executable).with_name("kenning"))


def run(env: dict[str, str], *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([KENNING, *args], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == code, (proc.stdout, proc.stderr)
    return proc


def test_version(cli_env: dict[str, str]) -> None:
    assert run(cli_env, "--version").stdout == f"kenning {__version__}\n"
    assert "--version" in run(cli_env, "--help").stdout


@pytest.mark.parametrize("args", [("list",), ("show", "01ABCDEFGH"), ("recall", "anything"),
                                  ("doctor",), ("why", "auth"), ("graph", "stats"),
                                  ("related", "01ABCDEFGH")])
def test_reading_never_creates_a_store(cli_env: dict[str, str], tmp_path: Path,
                                       args: tuple[str, ...]) -> None:
    db = tmp_path / "not" / "there" / "k.db"
    (tmp_path / "cwd").mkdir()
    proc = subprocess.run([KENNING, *args, "--db", str(db)], env=cli_env, capture_output=True,
                          text=True, timeout=120, check=False, cwd=tmp_path / "cwd")
    assert proc.returncode in (0, 3), proc.stderr
    assert not (tmp_path / "not").exists()
    assert list((tmp_path / "cwd").iterdir()) == []  # nothing made beside it either
    if args[0] in ("list", "recall"):
        assert f"no store at {db} yet" in proc.stdout
    if args[0] == "doctor":
        assert "not created yet" in proc.stdout


def test_not_found_message_is_quoted_whole(cli_env: dict[str, str]) -> None:
    run(cli_env, "remember", "anything at all")
    err = run(cli_env, "show", "01ZZZZZZZZ", code=3).stderr
    assert err == "error: no memory with id '01ZZZZZZZZ'\n"


def test_failed_and_superseded_show_in_tables(cli_env: dict[str, str]) -> None:
    old = json.loads(run(cli_env, "remember", "Use JWT for auth tokens", "--type", "decision",
                         "--topic", "auth", "--json").stdout)["id"]
    new = json.loads(run(cli_env, "remember", "Use server sessions for auth", "--type",
                         "decision", "--topic", "auth", "--json").stdout)["id"]
    run(cli_env, "outcome", old, "failed", "--reason", "refresh too slow")
    run(cli_env, "supersede", new, old)
    for out in (run(cli_env, "list").stdout, run(cli_env, "recall", "auth JWT tokens").stdout):
        row = next(line for line in out.splitlines() if "Use JWT" in line)
        assert "[failed]" in row and f"[superseded by {new[:MIN_ID]}" in row


def test_state_survives_a_narrow_terminal() -> None:
    row = {"id": "01ABCDEFGHJKMNPQRSTVWXYZ01", "type": "decision", "topic": "auth",
           "summary": "A very long summary " * 10, "confidence": 0.5, "created_at": 0,
           "outcome": "failed", "superseded_by": "01ABCDEFGHJKMNPQRSTVWXYZ02"}
    ids = {row["id"]: row["id"][:MIN_ID], row["superseded_by"]: row["superseded_by"][:9]}
    wide = render([row], ids, width=160).splitlines()[1]
    assert len(wide) <= 160 and "[failed] [superseded by 01ABCDEFG] A very long" in wide
    narrow = render([row], ids, width=70).splitlines()[1]  # too narrow: the line wraps
    assert "[failed] [superseded by 01ABCDEFG] A very" in narrow


def test_short_ids_are_unambiguous_and_work(cli_env: dict[str, str], tmp_path: Path) -> None:
    """Memories stored together share their time prefix: the table shows each id as far as
    it takes to tell it apart (like git), and every shown id works as given."""
    at = 1_790_000_000_000
    with Kenning(cli_env["KENNING_DB"], project=cli_env["KENNING_PROJECT"], embedder=None,
                 clock=lambda: at) as k:
        made = k.remember_many([{"text": f"batch note number {i}"} for i in range(6)])
    assert len({m.id[:10] for m in made}) == 1  # one millisecond: the same time prefix
    shown = [line.split()[0] for line in run(cli_env, "list").stdout.splitlines()[2:]]
    assert len(shown) == 6 and all(len(s) >= MIN_ID for s in shown)
    for short_id in shown:
        full = json.loads(run(cli_env, "show", short_id, "--json").stdout)["id"]
        assert full.startswith(short_id)
    assert len({json.loads(run(cli_env, "show", s, "--json").stdout)["id"] for s in shown}) == 6


def test_graph_merge_accepts_into(cli_env: dict[str, str]) -> None:
    a = json.loads(run(cli_env, "remember", "first idea", "--json").stdout)["id"]
    b = json.loads(run(cli_env, "remember", "second idea", "--json").stdout)["id"]
    run(cli_env, "link", a, b, "--rel", "echoes")
    out = run(cli_env, "graph", "merge", "echoes", "into", "relates_to").stdout
    assert out == "moved 1 links from 'echoes' to 'relates_to'\n"
    assert run(cli_env, "graph", "merge", "relates_to", "echoes").returncode == 0
    bad = run(cli_env, "graph", "merge", "echoes", "onto", "x", code=2)
    assert "WORD [into] TARGET" in bad.stderr


def test_explain_multiplies_out(cli_env: dict[str, str]) -> None:
    run(cli_env, "remember", "Use JWT for auth: stateless, scales", "--type", "decision",
        "--topic", "auth", "--confidence", "0.6")
    run(cli_env, "remember", "JWT refresh tokens rotate daily", "--topic", "auth")
    run(cli_env, "graph", "consolidate")  # PageRank joins the score
    out = run(cli_env, "recall", "why JWT for auth?", "--explain").stdout
    lines = [ln for ln in out.splitlines() if ": relevance " in ln]
    assert lines
    for line in lines:
        num = r"([0-9.]+)"
        rel = float(re.search(rf"relevance {num}", line).group(1))
        factors = [float(x) for x in re.findall(
            rf"x (?:confidence|recency|intent|context|kept user turn) {num}", line)]
        base = float(re.search(rf"\) x .*? = {num}", line).group(1))
        product = rel
        for f in factors:
            product *= f
        assert product == pytest.approx(base, abs=2e-3)
        blend = re.search(rf"with PageRank {num} x that \+ {num} x {num} = {num}", line)
        if blend:
            alpha, rest, pr, blended = map(float, blend.groups())
            assert alpha * base + rest * pr == pytest.approx(blended, abs=2e-3)
            base = blended
        outcome, superseded, final = map(float, re.search(
            rf"x outcome {num} x superseded {num} = {num}$", line).groups())
        assert base * outcome * superseded == pytest.approx(final, abs=2e-3)
        assert "(conf 0.6" in line or "(conf 0." in line


def test_project_scoping_is_explained(cli_env: dict[str, str]) -> None:
    run(cli_env, "remember", "Use JWT for auth")
    other = {**cli_env, "KENNING_PROJECT": "someone-else"}
    out = run(other, "list").stdout
    assert out.startswith("no memories in this project (someone-else); the store holds 1 in "
                          "other projects (cli-proj)")
    assert "KENNING_PROJECT=cli-proj kenning list" in out
    assert "in other projects" in run(other, "recall", "JWT auth").stdout


def test_short_ids_from_a_range_match_the_lookup_per_id() -> None:
    """The fast list reads the ids around a page once; its short ids are the ones a lookup per
    id gives, including ids that share more than the minimum."""
    import random

    from kenning.memtable import short_ids, short_ids_among

    rng = random.Random(7)
    store = sorted({"01KJ" + "".join(rng.choice("0123") for _ in range(8)) + "ZZ"
                    for _ in range(300)})

    def resolve(prefix: str, limit: int) -> list[str]:
        return [i for i in store if i.startswith(prefix)][:limit]

    for _ in range(20):
        page = rng.sample(store, 12)
        lo, hi = store.index(min(page)), store.index(max(page))
        around = store[max(0, lo - 1): hi + 2]
        assert short_ids_among(page, around) == short_ids(page, resolve)
    assert short_ids_among(["01NOTSTORED000"], store) is None


def test_an_argument_that_is_not_utf8_is_one_line_of_error(cli_env: dict[str, str]) -> None:
    proc = subprocess.run([KENNING.encode(), b"recall", b"caf\xe9"], env=cli_env,
                          capture_output=True, timeout=120, check=False)
    assert proc.returncode == 1
    assert proc.stderr.decode() == "error: argument 2 is not valid UTF-8 text\n"


def test_a_negative_offset_is_refused(cli_env: dict[str, str]) -> None:
    proc = run(cli_env, "list", "--offset", "-5", code=2)
    assert "--offset" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("args", "code", "says"), [
    (("show", "nope", "--json"), 3, "no memory with id 'nope'"),  # the fast read path
    (("list", "--offset", "-5", "--json"), 2, "--offset"),  # a usage error
    (("recall", "x", "--since", "1e30d", "--json"), 1, "cannot read '1e30d' as a time"),
    (("remember", "", "--json"), 1, "text is empty"),  # the full command line
    # an error quoting a secret from the command line: redacted before it becomes JSON
    (("recall", "x", "--since", "sk-ant-api03-" + "q" * 40, "--json"), 1,
     "cannot read '[REDACTED:anthropic_key]' as a time"),
])
def test_errors_are_one_line_of_json_with_json(cli_env: dict[str, str], args: tuple[str, ...],
                                               code: int, says: str) -> None:
    proc = subprocess.run([KENNING, *args], env=cli_env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == code and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    error = json.loads(lines[0])["error"]
    assert says in error and not error.startswith("error:")
    plain = run(cli_env, *[a for a in args if a != "--json"], code=code)
    assert plain.stderr.startswith("error: ") and says in plain.stderr


def test_a_non_utf8_argument_is_a_json_error_with_json(cli_env: dict[str, str]) -> None:
    proc = subprocess.run([KENNING.encode(), b"recall", b"caf\xe9", b"--json"], env=cli_env,
                          capture_output=True, timeout=120, check=False)
    assert proc.returncode == 1
    assert json.loads(proc.stderr) == {"error": "argument 2 is not valid UTF-8 text"}


def test_migrate_into_a_missing_folder_is_refused_not_created(cli_env: dict[str, str],
                                                              tmp_path: Path) -> None:
    run(cli_env, "remember", "we ship on Fridays")
    target = tmp_path / "no" / "such" / "folder" / "copy.db"
    proc = run(cli_env, "migrate", "--to", str(target), code=1)
    assert proc.stderr == f"error: no folder {target.parent} for the target store (create it " \
                          "first)\n"
    assert not (tmp_path / "no").exists()
    (tmp_path / "there").mkdir()
    run(cli_env, "migrate", "--to", str(tmp_path / "there" / "copy.db"))
    assert (tmp_path / "there" / "copy.db").exists()


def test_long_work_tells_its_progress_in_lines_on_a_pipe(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Where no bar can be drawn (a log, a pipe), long work says when it starts, how far it is
    at most every ``PROGRESS_EVERY_S`` with the time left, and when it ends."""
    from kenning.cliutil import PROGRESS_EVERY_S, ProgressLines

    now = [0.0]
    lines = ProgressLines("re-indexing memories", clock=lambda: now[0])
    lines(0, 1000)
    for done, at in ((100, 2.0), (250, PROGRESS_EVERY_S + 1), (300, PROGRESS_EVERY_S + 2),
                     (500, 2 * PROGRESS_EVERY_S + 2), (1000, 45.0)):
        now[0] = at
        lines(done, 1000)
    assert capsys.readouterr().err.splitlines() == [
        "re-indexing memories: 1,000 to do…",
        "re-indexing memories: 250 of 1,000 (25%), about 33 s left",
        "re-indexing memories: 500 of 1,000 (50%), about 22 s left",
        "re-indexing memories: 1,000 of 1,000 done in 45 s",
    ]


def test_reindex_on_a_pipe_says_when_it_starts_and_ends(cli_env: dict[str, str],
                                                        tmp_path: Path) -> None:
    with Kenning(tmp_path / "cli.db", project="cli-proj", defer_vectors=True) as k:
        k.remember_many([{"text": f"shard {i} is warmed before the nightly job"}
                         for i in range(120)])
    err = run(cli_env, "reindex").stderr.splitlines()
    assert err[0].startswith("re-indexing memories: ") and err[0].endswith(" to do…")
    assert re.fullmatch(r"re-indexing memories: ([\d,]+) of \1 done in \d+ s", err[-1])
