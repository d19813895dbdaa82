"""A team project's identity: two clones of one repository at different paths are one project
on a team database (the normalised git remote, or ``[project]`` settings), and a teammate's new
memory reaches the prompt hook within ``[hooks] shared_refresh_s``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.places.identity import normalise_remote, project_id, remote_url
from kenning.places.keys import project_key
from tests import pg_fixtures
from tests.test_hooks import context_of, hook, payload

pg_server, pg_dsn = pg_fixtures.pg_server, pg_fixtures.pg_dsn
KENNING = str(Path(sys.executable).with_name("kenning"))


def clone(where: Path, url: str) -> Path:
    subprocess.run(["git", "init", "-q", str(where)], check=True)
    subprocess.run(["git", "-C", str(where), "remote", "add", "origin", url], check=True)
    return where


@pytest.mark.parametrize("url", [
    "git@github.com:Acme/Shop.git", "https://github.com/acme/shop",
    "https://github.com/acme/shop/",
    "ssh://git@github.com:22/acme/shop.git", "https://ci:s3cr3t@GitHub.com/Acme/shop.git",
    "git+ssh://git@github.com/acme/shop",
])
def test_every_spelling_of_one_remote_is_one_project(url: str) -> None:
    assert normalise_remote(url) == "github.com/acme/shop"


def test_local_remotes_give_no_shared_identity() -> None:
    for url in ("/srv/git/shop.git", "file:///srv/git/shop.git", "../shop", ""):
        assert normalise_remote(url) is None


def test_the_remote_is_read_from_git_config_also_in_a_linked_worktree(tmp_path: Path) -> None:
    main = clone(tmp_path / "main", "git@gitlab.example.com:team/api.git")
    subprocess.run(["git", "-C", str(main), "remote", "add", "backup", "https://x.org/y/z"],
                   check=True)
    assert remote_url(str(main)) == "git@gitlab.example.com:team/api.git"  # origin first
    subprocess.run(["git", "-C", str(main), "-c", "user.email=a@b", "-c", "user.name=a",
                    "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    linked = tmp_path / "linked"
    subprocess.run(["git", "-C", str(main), "worktree", "add", "-q", str(linked)], check=True)
    assert (linked / ".git").is_file()
    assert project_id(str(linked), "postgresql://db/k") == "gitlab.example.com/team/api"
    assert project_id(str(linked), str(tmp_path / "k.db")) == project_key(str(linked))
    assert project_id(str(linked), None, "path") == project_key(str(linked))
    assert project_id(str(linked), None, "remote") == "gitlab.example.com/team/api"
    assert project_id(str(linked), None, "auto", "acme-api") == "acme-api"


def cli_env(tmp_path: Path, db: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    env.update(KENNING_HOME=str(tmp_path / "kh"), KENNING_DB=db, KENNING_EMBEDDER="none",
               HOME=str(tmp_path / "home"))
    return env


def recall(env: dict[str, str], where: Path, query: str) -> list[str]:
    out = subprocess.run([KENNING, "recall", query, "--json"], cwd=where, env=env,
                         capture_output=True, text=True, check=True)
    return [h["memory"]["content"] for h in json.loads(out.stdout)["hits"]]


def test_two_clones_share_a_project_when_the_identity_is_the_remote(tmp_path: Path) -> None:
    a = clone(tmp_path / "alice" / "shop", "git@github.com:acme/shop.git")
    b = clone(tmp_path / "bob" / "work" / "shop-copy", "https://github.com/Acme/shop")
    env = cli_env(tmp_path, str(tmp_path / "team.db"))
    subprocess.run([KENNING, "remember", "Money is rounded half-even with Decimal",
                    "--type", "decision"], cwd=a, env=env, check=True, capture_output=True)
    assert recall(env, b, "how is money rounded?") == []  # SQLite: keyed by path
    for clone_dir in (a, b):
        (clone_dir / "kenning.toml").write_text('[project]\nidentity = "remote"\n')
    subprocess.run([KENNING, "remember", "Invoices are immutable once sent",
                    "--type", "decision"], cwd=a, env=env, check=True, capture_output=True)
    assert recall(env, b, "can an invoice change after sending?") == [
        "Invoices are immutable once sent"]


def test_on_a_team_database_a_teammates_memory_reaches_the_prompt_hook(
        pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = clone(tmp_path / "alice" / "ledger", "git@github.com:acme/ledger.git")
    b = clone(tmp_path / "bob" / "src" / "ledger", "https://github.com/acme/ledger.git")
    env = cli_env(tmp_path, pg_dsn)  # Bob's machine
    alice = {**env, "KENNING_HOME": str(tmp_path / "alice-kh"), "HOME": str(tmp_path / "ah")}
    monkeypatch.setenv("KENNING_HOME", env["KENNING_HOME"])
    question = payload("UserPromptSubmit", b,
                       prompt="which isolation level does the ledger use?")
    with Kenning(pg_dsn, project="github.com/acme/ledger", embedder=None) as k:
        k.build_prompt_index()  # Bob's session starts: his index is built now
    subprocess.run([KENNING, "remember", "The ledger runs at SERIALIZABLE isolation level",
                    "--type", "decision"], cwd=a, env=alice, check=True, capture_output=True)
    trusting = {**env, "KENNING_HOOKS_SHARED_REFRESH_S": "3600"}
    assert "SERIALIZABLE" not in context_of(hook("UserPromptSubmit", question, trusting))
    fresh = {**env, "KENNING_HOOKS_SHARED_REFRESH_S": "0"}  # past the bound: ask the server
    assert "SERIALIZABLE" in context_of(hook("UserPromptSubmit", question, fresh))
