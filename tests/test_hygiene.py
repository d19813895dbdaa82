"""Writes stay in their place, names and ids are one printable line, and what Kenning prints
cannot steer the terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kenning import Kenning
from kenning.errors import ValidationError
from kenning.terminal import SafeStream, safe

KENNING = Path(sys.executable).with_name("kenning")


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "project"
    p.mkdir()
    subprocess.run(["git", "init", "-q", str(p)], check=True)
    return p


@pytest.fixture
def claude_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "claude-config"
    config.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    return config


# -- path confinement --------------------------------------------------------------------------

def test_a_symlinked_agent_memory_dir_is_refused_and_nothing_is_written_outside(
        make_kenning: Any, project: Path, claude_home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / ".claude").mkdir()
    (project / ".claude" / "agent-memory").symlink_to(outside, target_is_directory=True)
    k: Kenning = make_kenning()
    for n in range(6):
        k.remember(f"The reviewer checks migration {n} for a missing index", type="pattern",
                   scope="project", agent="reviewer", confidence=0.9)
    with pytest.raises(ValidationError) as err:
        k.auto_sync(project, scope="project:reviewer")
    message = str(err.value)
    assert "symbolic link" in message and str(outside.resolve()) in message
    assert _files(outside) == []
    with pytest.raises(ValidationError):
        k.agent_memory_dir("local:reviewer", project)  # .claude/agent-memory-local is fine...
        raise ValidationError("unreachable")  # ...so this line is what raises
    assert k.agent_memory_dir("local:reviewer", project).parent.name == "agent-memory-local"


def test_a_symlinked_agent_dir_inside_the_project_is_allowed(
        make_kenning: Any, project: Path, claude_home: Path) -> None:
    real = project / "shared-memory"
    real.mkdir()
    (project / ".claude" / "agent-memory").mkdir(parents=True)
    (project / ".claude" / "agent-memory" / "reviewer").symlink_to(real, target_is_directory=True)
    k: Kenning = make_kenning()
    k.remember("The reviewer insists on one assertion per test", type="preference",
               scope="project", agent="reviewer", confidence=0.9)
    k.auto_sync(project, scope="project:reviewer")
    assert (real / "MEMORY.md").exists()


def test_an_auto_memory_dir_leading_out_of_the_config_dir_is_refused(
        make_kenning: Any, project: Path, claude_home: Path, tmp_path: Path) -> None:
    k: Kenning = make_kenning()
    k.remember("Deploys go out on Tuesdays only", type="decision", confidence=0.9)
    target = k.auto_memory_dir(project)
    target.parent.mkdir(parents=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    target.symlink_to(outside, target_is_directory=True)
    with pytest.raises(ValidationError, match="symbolic link"):
        k.auto_sync(project)
    assert _files(outside) == []


def test_kenning_init_refuses_a_claude_dir_that_leaves_the_project(
        project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "dotfiles"
    outside.mkdir()
    (project / ".claude").symlink_to(outside, target_is_directory=True)
    env = {**os.environ, "HOME": str(tmp_path / "home"), "KENNING_HOME": str(tmp_path / "kh")}
    proc = subprocess.run([str(KENNING), "init"], cwd=project, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode != 0
    assert "symbolic link" in proc.stderr and "settings" in proc.stderr
    assert _files(outside) == [] and not (project / ".mcp.json").exists()


# -- names and ids ----------------------------------------------------------------------------

@pytest.mark.parametrize(("field", "value", "said"), [
    ("agent", "reviewer\n", "a newline"),
    ("agent", "revi\x00ewer", "a NUL character"),
    ("topic", "auth\nstrategy", "a newline"),
    ("topic", "auth\x00", "a NUL character"),
    ("topic", "auth\x1b[2J", "an escape character"),
    ("tags", ["ok", "bad\ttag"], "a tab"),
    ("tags", ["bad\x00"], "a NUL character"),
    ("summary", "one\x00line", "a NUL character"),
    ("source", "agent:x\x00", "a NUL character"),
    ("metadata", {"note": "a\x00b"}, "a NUL character"),
    ("metadata", {"a\x00": 1}, "a NUL character"),
])  # fmt: skip
def test_nul_and_line_breaks_in_names_are_refused_and_nothing_is_stored(
        k: Kenning, field: str, value: Any, said: str) -> None:
    with pytest.raises(ValidationError, match=said):
        k.remember("Something worth keeping about the build", **{field: value})
    assert k.count() == 0


def test_ids_with_control_characters_get_a_clear_error(k: Kenning) -> None:
    m = k.remember("The cache is warmed at start-up")
    for bad in (m.id + "\n", m.id[:10] + "\x00", "\x1b[31m" + m.id):
        with pytest.raises(ValidationError, match="memory id contains"):
            k.get(bad)
    with pytest.raises(ValidationError, match="link id contains"):
        k.unlink("01ABC\n")
    with pytest.raises(ValidationError, match="relationship contains a newline"):
        k.link(m.id, k.remember("The cache lives in redis").id, "depends\non")


def test_multi_line_text_and_reasons_are_still_fine(k: Kenning) -> None:
    m = k.remember("Line one\nline two\n\tindented", type="decision")
    assert m.content == "Line one\nline two\n\tindented"
    assert k.outcome(m.id, "failed", "it broke:\nthe pool ran dry").outcome_reason == (
        "it broke:\nthe pool ran dry")


def test_an_agent_name_that_is_a_token_is_refused(k: Kenning) -> None:
    token = "ghp_" + "FAKEa1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"
    with pytest.raises(ValidationError, match="looks like a secret") as err:
        k.remember("x", agent=token)
    assert token not in str(err.value)


# -- terminal output --------------------------------------------------------------------------

HOSTILE = ("Run the tests\x1b[2J\x1b[1;1H\x1b]0;pwned\x07 then \u202egnp.exe\u202c, "
           "\x9b31m and a bell\x07\rOVERWRITTEN")


def test_safe_escapes_what_steers_a_terminal_and_keeps_lines() -> None:
    out = safe(HOSTILE + "\nnext line\tand a tab\r\nwindows line")
    for ch in ("\x1b", "\x07", "\u202e", "\u202c", "\x9b", "\r"):
        assert ch not in out
    assert "\\u001b[2J" in out and "\\u202e" in out and "\\u009b" in out
    assert "\nnext line\tand a tab\nwindows line" in out
    assert safe("plain text, ünïcödé and emoji 🎉") == "plain text, ünïcödé and emoji 🎉"


def test_safe_stream_keeps_json_valid() -> None:
    import io

    buf = io.StringIO()
    stream = SafeStream(buf)  # type: ignore[arg-type]
    stream.write(json.dumps({"text": "a\u009bb\u202ec"}, ensure_ascii=False))
    assert json.loads(buf.getvalue()) == {"text": "a\u009bb\u202ec"}
    assert "\u009b" not in buf.getvalue()


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(KENNING), *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_show_list_and_recall_print_no_control_characters(cli_env: dict[str, str]) -> None:
    made = json.loads(_cli(cli_env, "remember", HOSTILE, "--json").stdout)
    assert made["content"] == HOSTILE.strip(), "stored as given; only printing escapes it"
    for args in (["show", made["id"]], ["list"], ["recall", "tests"], ["show", made["id"],
                                                                         "--json"]):
        out = _cli(cli_env, *args)
        assert out.returncode == 0, out.stderr
        assert not any(ch in out.stdout for ch in ("\x1b", "\x07", "\u202e", "\x9b", "\r")), args
    shown = json.loads(_cli(cli_env, "show", made["id"], "--json").stdout)
    assert shown["content"] == HOSTILE.strip()
    # Shown, not obeyed (click drops colour sequences itself when output is not a terminal).
    assert "\\u001b]0;pwned\\u0007" in _cli(cli_env, "show", made["id"]).stdout


def test_errors_quoting_input_are_escaped_and_redacted(cli_env: dict[str, str]) -> None:
    token = "ghp_" + "FAKEa1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"
    for args in (["show", f"\x1b[2J{token}"], ["remember", "x", "--type", f"\x1b]0;t\x07{token}"]):
        out = _cli(cli_env, *args)
        assert out.returncode != 0
        assert token not in out.stderr and "\x1b" not in out.stderr and "\x07" not in out.stderr
        assert out.stderr.startswith("error: ")
