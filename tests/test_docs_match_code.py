"""Docs that cannot drift: README.md and docs/*.md against the real objects they describe.

- CLI: every command and subcommand of the Typer app is shown as ``kenning <command ...>`` in a
  code block or inline code span, and every ``kenning <word>`` shown there is a real command.
- MCP: the tools the server registers are exactly the tools in docs/mcp.md's tool table.
- Configuration: every ``config.DEFAULTS`` key is in the documented ``[section] key`` table with
  its default, every documented ``[section] key`` exists, and every ``toml`` example loads.

Adding a command, a tool or a setting means documenting it; renaming one means fixing the docs.
"""

from __future__ import annotations

import asyncio
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import typer

from kenning import Kenning, config
from kenning.cli import app
from kenning.mcpserver import build_server

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# Code blocks whose "kenning <word>" is not a command line: Python (`from kenning import ...`),
# JSON and TOML. Every other block (bash, console, plain) is read as commands.
NOT_COMMAND_LANGUAGES = {"python", "py", "json", "toml"}

# "kenning <words>" in a doc that is not a command, each with the reason. Keep it short.
NOT_COMMANDS = {
    # README.md's Layout block: "cli.py  the kenning command (typer)" names the module's job.
    "kenning command": "prose in README.md's layout block, describing cli.py",
}

WORD = re.compile(r"[a-z][a-z0-9-]*\Z")
MENTION = re.compile(r"(?<![\w-])kenning[ \t]+(.*)")
FENCE = re.compile(r"^```([\w+-]*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`\n]+)`")


def doc_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def code_samples(text: str) -> list[tuple[str, str]]:
    """``(language, text)`` of every fenced block, then ``("inline", span)`` of every inline
    code span outside the blocks."""
    samples = [(m.group(1).lower(), m.group(2)) for m in FENCE.finditer(text)]
    prose = FENCE.sub("", text)
    samples += [("inline", m.group(1)) for m in INLINE.finditer(prose)]
    return samples


def command_tree() -> dict[tuple[str, ...], Any]:
    """Every visible command path of the real Typer app, e.g. ``("graph", "stats")``."""
    tree: dict[tuple[str, ...], Any] = {}

    def walk(cmd: Any, prefix: tuple[str, ...]) -> None:
        for name, sub in getattr(cmd, "commands", {}).items():
            if getattr(sub, "hidden", False):
                continue
            tree[(*prefix, name)] = sub
            walk(sub, (*prefix, name))

    walk(typer.main.get_command(app), ())
    return tree


def is_group(tree: dict[tuple[str, ...], Any], path: tuple[str, ...]) -> bool:
    return any(len(p) > len(path) and p[: len(path)] == path for p in tree)


def mentions(line: str, tree: dict[tuple[str, ...], Any]) -> list[tuple[tuple[str, ...], str]]:
    """The command paths a line names, each with the text that named it.

    ``kenning graph stats --json`` names ``graph stats``; the word after a group is its
    subcommand. ``a | b | c`` straight after a command is the docs' shorthand for sibling
    commands: ``kenning graph stats | top`` names ``graph stats`` and ``graph top``, and
    ``kenning import-auto | curate`` names ``import-auto`` and ``curate``. A ``|`` after an
    argument or option is a shell pipe and ends the command. ``kenning <command>`` (a
    placeholder) names nothing."""
    found: list[tuple[tuple[str, ...], str]] = []
    for m in MENTION.finditer(line):
        words = m.group(1).split()
        if not words or not WORD.match(words[0]):
            continue
        path: tuple[str, ...] = (words[0],)
        i = 1
        if is_group(tree, path) and i < len(words) and WORD.match(words[i]):
            path = (*path, words[i])
            i += 1
        found.append((path, "kenning " + " ".join(path)))
        while i + 1 < len(words) and words[i] == "|" and WORD.match(words[i + 1]):
            path = (*path[:-1], words[i + 1])
            found.append((path, "kenning " + " ".join(path)))
            i += 2
    return found


def documented_commands(tree: dict[tuple[str, ...], Any]
                        ) -> list[tuple[tuple[str, ...], str, str]]:
    """``(path, text, doc name)`` for every ``kenning ...`` command line in the docs' code."""
    out = []
    for path in DOCS:
        for lang, sample in code_samples(doc_text(path)):
            if lang in NOT_COMMAND_LANGUAGES:
                continue
            for line in sample.splitlines():
                out += [(p, said, path.name) for p, said in mentions(line, tree)]
    return out


def test_the_mention_parser() -> None:
    tree = command_tree()
    assert [p for p, _ in mentions("$ kenning graph stats | top | health   # x", tree)] == [
        ("graph", "stats"), ("graph", "top"), ("graph", "health")]
    assert [p for p, _ in mentions("kenning scope list | transfer --from a --to b", tree)] == [
        ("scope", "list"), ("scope", "transfer")]
    assert [p for p, _ in mentions("kenning recall x --json | jq .", tree)] == [("recall",)]
    assert [p for p, _ in mentions(".venv/bin/kenning demo", tree)] == [("demo",)]
    assert mentions("kenning-hook SessionStart; kenning <command>; kenning.toml", tree) == []


def test_every_cli_command_is_documented() -> None:
    tree = command_tree()
    assert ("remember",) in tree and ("graph", "stats") in tree  # the walk sees the real app
    # A group is shown by any of its subcommands: `kenning graph stats` shows `kenning graph`.
    shown = {p[:n] for p, _, _ in documented_commands(tree) for n in range(1, len(p) + 1)}
    missing = sorted(" ".join(p) for p in tree if p not in shown)
    assert not missing, (f"commands no doc shows as `kenning <command>` "
                         f"(README.md or docs/*.md): {missing}")


def test_every_documented_command_exists() -> None:
    tree = command_tree()
    wrong = sorted({f"{said} ({doc})" for p, said, doc in documented_commands(tree)
                    if p not in tree and said not in NOT_COMMANDS})
    assert not wrong, f"docs name commands the CLI does not have: {wrong}"


def test_the_allow_list_is_still_needed() -> None:
    tree = command_tree()
    said = {s for _, s, _ in documented_commands(tree)}
    assert set(NOT_COMMANDS) <= said, f"stale NOT_COMMANDS: {set(NOT_COMMANDS) - said}"


# MCP -----------------------------------------------------------------------------------------


def registered_tools(k: Kenning, root: Path) -> set[str]:
    server = build_server(k, project_root=root)
    return {t.name for t in asyncio.run(server.list_tools())}


def mcp_doc_tools() -> set[str]:
    """The tool names in the first column of docs/mcp.md's "## Tools" table."""
    text = doc_text(ROOT / "docs" / "mcp.md")
    section = re.search(r"^## Tools\n(.*?)(?=^## )", text, re.MULTILINE | re.DOTALL)
    assert section, "docs/mcp.md has no '## Tools' section"
    return set(re.findall(r"^\| `(\w+)` \|", section.group(1), re.MULTILINE))


def test_mcp_tools_match_docs(k: Kenning, tmp_path: Path) -> None:
    tools = registered_tools(k, tmp_path)
    assert "recall" in tools  # the server really registered its tools
    documented = mcp_doc_tools()
    assert not tools - documented, f"tools missing from docs/mcp.md: {sorted(tools - documented)}"
    assert not documented - tools, (f"docs/mcp.md lists tools the server does not have: "
                                    f"{sorted(documented - tools)}")


# Configuration -------------------------------------------------------------------------------

KEY = re.compile(r"`\[(\w+)\] (\w+)`")
KEY_ROW = re.compile(r"^\| `\[(\w+)\] (\w+)` \| `([^`]*)` \|", re.MULTILINE)


def documented_keys() -> dict[tuple[str, str], list[str]]:
    """``(section, key)`` -> the docs that name it as `` `[section] key` ``."""
    out: dict[tuple[str, str], list[str]] = {}
    for path in DOCS:
        for m in KEY.finditer(doc_text(path)):
            out.setdefault((m.group(1), m.group(2)), []).append(path.name)
    return out


def default_rows() -> dict[tuple[str, str], str]:
    """``(section, key)`` -> the default cell (TOML) of each configuration table row."""
    return {(m.group(1), m.group(2)): m.group(3)
            for path in DOCS for m in KEY_ROW.finditer(doc_text(path))}


def test_every_config_key_is_documented() -> None:
    keys = {(s, key) for s, section in config.DEFAULTS.items() for key in section}
    rows = default_rows()
    missing = sorted(f"[{s}] {key}" for s, key in keys - set(rows))
    assert not missing, f"settings without a `[section] key` | `default` | row: {missing}"


def test_every_documented_config_key_exists() -> None:
    unknown = sorted(f"[{s}] {key} ({', '.join(docs)})" for (s, key), docs
                     in documented_keys().items() if key not in config.DEFAULTS.get(s, {}))
    assert not unknown, f"docs name settings config.DEFAULTS does not have: {unknown}"


def test_documented_defaults_are_the_defaults() -> None:
    wrong = []
    for (s, key), cell in default_rows().items():
        if key not in config.DEFAULTS.get(s, {}):
            continue  # reported by test_every_documented_config_key_exists
        value = tomllib.loads(f"v = {cell}")["v"]
        if value != config.DEFAULTS[s][key] or type(value) is not type(config.DEFAULTS[s][key]):
            wrong.append(f"[{s}] {key}: docs say {cell}, DEFAULTS has "
                         f"{config.DEFAULTS[s][key]!r}")
    assert not wrong, wrong


def test_toml_examples_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ```toml block in the docs is a kenning.toml the real loader accepts."""
    monkeypatch.delenv("KENNING_CONFIG", raising=False)
    blocks = [(path.name, body) for path in DOCS
              for lang, body in code_samples(doc_text(path)) if lang == "toml"]
    assert blocks, "no kenning.toml example in the docs"
    for n, (name, body) in enumerate(blocks):
        project = tmp_path / f"p{n}"
        project.mkdir()
        (project / "kenning.toml").write_text(body, encoding="utf-8")
        try:
            cfg = config.load(str(project), environ={})
        except config.ConfigError as exc:
            pytest.fail(f"the kenning.toml example in {name} does not load: {exc}")
        assert cfg.files == [str(project / "kenning.toml")], name
