"""``kenning.toml`` at user and project level, environment overrides, ``kenning config show``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kenning import config


@pytest.fixture
def layers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    user = tmp_path / "user.toml"
    monkeypatch.setenv("KENNING_CONFIG", str(user))
    project = tmp_path / "proj"
    project.mkdir()
    return user, project


def test_defaults_without_files(layers) -> None:
    _, project = layers
    cfg = config.load(str(project), environ={})
    assert cfg.get("hooks", "top_k") == 5 and cfg.get("auto_memory", "max_index_lines") == 180
    assert {s for _, _, s in cfg.table()} == {"default"} and cfg.files == []


def test_project_overrides_user_and_env_overrides_both(layers) -> None:
    user, project = layers
    user.write_text('[hooks]\ntop_k = 3\nmax_chars = 1000\n[auto_memory]\nmin_confidence = 0.9\n')
    (project / "kenning.toml").write_text("[hooks]\ntop_k = 7\n")
    cfg = config.load(str(project), environ={"KENNING_HOOKS_MAX_CHARS": "800",
                                             "KENNING_AUTO_MEMORY_TOPIC_MAPPING": "auth=a.md"})
    assert cfg.get("hooks", "top_k") == 7 and cfg.sources["hooks"]["top_k"].startswith("project")
    assert cfg.get("hooks", "max_chars") == 800 and "KENNING_HOOKS_MAX_CHARS" in cfg.sources[
        "hooks"]["max_chars"]
    assert cfg.get("auto_memory", "min_confidence") == 0.9
    assert cfg.get("auto_memory", "topic_mapping") == {"auth": "a.md"}


@pytest.mark.parametrize(("text", "message"), [
    ("[hooks]\ntop_k = 'many'\n", "hooks.top_k must be a whole number"),
    ("[hooks]\nmin_confidence = 2\n", "between 0 and 1"),
    ("[hookz]\n", "unknown section [hookz]"),
    ("[hooks]\ntopk = 1\n", "unknown key hooks.topk"),
    ("not toml at all = = =", "not valid TOML"),
])
def test_bad_files_name_the_file_and_key(layers, text: str, message: str) -> None:
    _, project = layers
    (project / "kenning.toml").write_text(text)
    with pytest.raises(config.ConfigError, match=r"kenning\.toml") as err:
        config.load(str(project), environ={})
    assert message in str(err.value)


def test_auto_memory_options_come_from_config(layers) -> None:
    _, project = layers
    (project / "kenning.toml").write_text('[auto_memory]\nmax_index_lines = 120\n'
                                          'prune_strategy = "recency"\n')
    from kenning.automemory.options import AutoMemoryOptions

    opts = AutoMemoryOptions.from_config(
        config.load(str(project), environ={}).section("auto_memory"))
    assert opts.max_index_lines == 120 and opts.prune_strategy == "recency"


def test_config_show_cli(layers, tmp_path: Path) -> None:
    user, project = layers
    user.write_text("[hooks]\ntop_k = 2\n")
    env = {**os.environ, "KENNING_CONFIG": str(user), "KENNING_HOOKS_ENABLED": "false"}
    kenning = Path(sys.executable).parent / "kenning"
    out = subprocess.run([str(kenning), "config", "show", "--json", "--project-root",
                          str(project)], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    values = json.loads(out.stdout)["values"]
    assert values["hooks.top_k"] == {"value": 2, "source": f"user ({user})"}
    assert values["hooks.enabled"]["value"] is False
    (project / "kenning.toml").write_text("[hooks]\ntop_k = -1\n")
    bad = subprocess.run([str(kenning), "config", "show", "--project-root", str(project)],
                         env=env, capture_output=True, text=True)
    assert bad.returncode == 1 and "hooks.top_k" in bad.stderr


def test_store_location_from_kenning_toml_is_used_by_cli_and_hooks(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    db = tmp_path / "elsewhere" / "team.db"
    (project / "kenning.toml").write_text(f'[store]\ndb = "{db}"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    env.update(KENNING_HOME=str(tmp_path / "kdata"), KENNING_EMBEDDER="none",
               HOME=str(tmp_path))
    bindir = Path(sys.executable).parent
    out = subprocess.run([str(bindir / "kenning"), "remember", "Deploy on Tuesdays only",
                          "--type", "decision"], cwd=project, env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert db.exists()
    hook = subprocess.run([str(bindir / "kenning-hook"), "UserPromptSubmit"], env=env,
                          input=json.dumps({"session_id": "s", "cwd": str(project),
                                            "prompt": "when do we deploy?"}),
                          capture_output=True, text=True)
    assert "Deploy on Tuesdays" in hook.stdout
    (project / "kenning.toml").write_text("[store]\nbd = 1\n")
    bad = subprocess.run([str(bindir / "kenning"), "list"], cwd=project, env=env,
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "unknown key store.bd" in bad.stderr


def test_typed_reads_of_a_section() -> None:
    hooks = config.load(None, environ={"KENNING_HOOKS_TOP_K": "9"}).section("hooks")
    assert config.integer(hooks, "top_k") == 9 and config.number(hooks, "min_confidence") == 0.0
    for bad in ({"top_k": "9"}, {"top_k": True}, {"top_k": None}):
        with pytest.raises(config.ConfigError, match="'top_k' is not a number"):
            config.integer(bad, "top_k")
    assert config.table({"project": {"identity": "remote"}}, "project") == {"identity": "remote"}
    assert config.table({"project": "x"}, "project") is None and config.table({}, "x") is None
