"""The prompt index package: its ``__init__`` re-exports the writer's names, yet importing it
(as the prompt hook does on its way to ``kenning.promptindex.format``) loads nothing else."""

from __future__ import annotations

import subprocess
import sys

import kenning.promptindex as promptindex
from kenning.promptindex import format as F
from kenning.promptindex import writer


def test_package_re_exports_the_writer() -> None:
    assert promptindex.build is writer.build
    assert promptindex.Entry is writer.Entry
    assert writer.F is F


def test_format_import_loads_no_writer_and_no_typing() -> None:
    code = ("import sys; before = set(sys.modules); import kenning.promptindex.format; "
            "print(sorted(set(sys.modules) - before))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == str(sorted(["kenning", "kenning.promptindex",
                                      "kenning.promptindex.format", "kenning.words"]))
