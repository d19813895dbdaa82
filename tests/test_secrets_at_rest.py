"""No secret of the corpus is stored or printed, whichever way it comes in.

Each write path of ``tests/secret_paths.py`` runs in a fresh sandbox; afterwards the raw bytes of
every file Kenning wrote there (the SQLite database and its WAL, the hook journal and its
quarantine, the prompt index, Claude Code's memory files, the error log) and everything the
commands printed must hold none of the secrets, in any letter case, whole or in part. The paths
inside this process take every kind of the corpus; the paths that start a process per sample
(the CLI, the hooks) take a spread of kinds. ``benchmarks/bench_security.py`` runs them all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.secret_corpus import CORPUS, SecretSample
from tests.secret_paths import PATHS, run_path

SLOW = {"cli.remember", "cli.errors", "hooks.session"}
# One of each family for the paths that start a process per sample: provider tokens, a PEM
# block (whole, and cut inside JSON), a URL password, a capitalised key: Value, a cookie, a
# .netrc entry, a connection string, a JSON-escaped private key; and of issue 37's: a password
# said in English and in Chinese, a value called secret, a command's argument, a PuTTY key.
SPREAD = ("github-classic-in-url", "pem-openssh", "postgres-url-password",
          "yaml-password-capitalised", "cookie-session-header", "netrc-password",
          "azure-storage-connection-string", "pem-json-escaped-cut", "telegram-bot-token-code",
          "header-api-key-capitalised", "prose-staging-password-is-now", "prose-zh-shi-joined",
          "marked-use-this-instead", "htpasswd-bc-quoted", "putty-ppk-v3")


def samples_for(path: str) -> list[SecretSample]:
    if path not in SLOW:
        return CORPUS
    return [s for s in CORPUS if s.name in SPREAD]


def test_the_spread_names_exist() -> None:
    assert len(samples_for("cli.remember")) == len(SPREAD)


@pytest.mark.parametrize("path", list(PATHS))
def test_no_secret_reaches_what_kenning_writes_or_prints(path: str, tmp_path: Path) -> None:
    samples = samples_for(path)
    result = run_path(path, tmp_path, samples)
    assert result["attempts"] >= len(samples) // 2, "the path must really have been exercised"
    assert result["leaked"] == []
