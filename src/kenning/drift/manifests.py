"""Dependency manifests as places a memory can describe: each dependency a manifest declares
(and the language version it requires) is a "symbol" whose fingerprint is its requirement, so
"pin pydantic below 2 for now" is anchored to pyproject.toml's pydantic line and flagged as
possibly outdated once that line says ``pydantic>=2.7``.

Pure functions over the manifest's text: ``declared`` parses it (None when it does not parse, so
no verdict is given), ``named`` finds the dependencies a memory speaks of with a version in
view (a name alone, "next week", is not about its requirement)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

# Manifest file names (the last path part) and how each is read.
PYPROJECT = "pyproject.toml"
PACKAGE_JSON = "package.json"
CARGO = "Cargo.toml"
GO_MOD = "go.mod"
NAMES = frozenset({PYPROJECT, PACKAGE_JSON, CARGO, GO_MOD})

# Words that put a dependency's requirement in view when they come right before its name.
_ASKS_VERSION = r"(?:pin|pinned|pins|cap|capped|caps|upgrade|upgraded|downgrade|downgraded|bump|" \
    r"bumped|require|requires|required|keep|kept|hold|held)"
_PEP508_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def is_manifest(path: str) -> bool:
    """Whether ``path`` (repo-relative) is a dependency manifest this module reads: one of
    ``NAMES``, or a pip requirements file (``requirements.txt``, ``requirements-dev.txt``, a
    ``.txt`` file in a ``requirements/`` folder)."""
    return path.rsplit("/", 1)[-1] in NAMES or _is_requirements(path)


def _is_requirements(path: str) -> bool:
    parts = path.split("/")
    return parts[-1].endswith(".txt") and (
        parts[-1].startswith("requirements") or "requirements" in parts[:-1])


def normal(name: str) -> str:
    """A dependency name as compared: lower case, ``_`` and ``.`` read as ``-`` (the way
    Python package names are compared; harmless for the other ecosystems)."""
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def declared(path: str, text: str) -> dict[str, str] | None:
    """``dependency name -> its requirement as written`` for a manifest (the language version
    it requires under ``python``, ``node``, ``rust`` or ``go``); None when it does not parse or
    is not a manifest."""
    name = path.rsplit("/", 1)[-1]
    # imported here: tomllib costs a process about 4 ms, and a session start that checks drift
    # imports this module whether or not any memory is anchored to a manifest
    import tomllib

    try:
        if name == PYPROJECT:
            return _pyproject(tomllib.loads(text))
        if name == CARGO:
            return _cargo(tomllib.loads(text))
        if name == PACKAGE_JSON:
            data = json.loads(text)
            return _package_json(data) if isinstance(data, dict) else None
        if name == GO_MOD:
            return _go_mod(text)
        if _is_requirements(path):
            return _requirements(text)
    except (ValueError, TypeError, tomllib.TOMLDecodeError):
        return None
    return None


def named(text: str, names: Iterable[str]) -> list[str]:
    """The dependencies of ``names`` that ``text`` speaks of with its version in view: the name
    followed by a version ("pydantic<2", "next 14.2.5", "pydantic below 2", "next@14") or right
    after a word such as pin, cap or upgrade ("pin pydantic"). A name alone is not enough: many
    are everyday words ("next week", "click the button")."""
    out: list[str] = []
    for dep in names:
        name = re.escape(dep).replace(r"\-", "[-_. ]")
        pattern = (rf"(?<![\w@.-]){name}(?![\w-])[`'\"]?\s*(?:(?:[<>=!~^]=?|@|\s)\s*v?\d|"
                   # a dotted version a few words on: "ms, to exactly 2.1.2", "getrandom
                   # only from the 0.3 series"
                   rf"(?:[\s,:]+[A-Za-z]+){{0,3}}[\s,:]+[<>=~^]*v?\d+\.\d|"
                   rf"(?:below|above|under|over|to|at|from|on)\s+v?\d)"
                   rf"|\b{_ASKS_VERSION}\s+(?:\w+\s+){{0,2}}?{name}(?![\w-])")
        if re.search(pattern, text, re.I):
            out.append(dep)
    return out


LANGUAGE_KEYS = frozenset({"python", "node", "rust", "go"})  # ``declared``'s language entries


def mentioned(text: str, names: Iterable[str]) -> list[str]:
    """The dependencies of ``names`` that ``text`` names at all, for a text that names their
    manifest too ("pyproject.toml: tomli only below Python 3.11"): there a name is the
    dependency's even without its version. The language entries still need ``named``."""
    out: list[str] = []
    for dep in names:
        if dep in LANGUAGE_KEYS or len(dep) < 2:
            continue
        name = re.escape(dep).replace(r"\-", "[-_. ]")
        if re.search(rf"(?<![\w@.-]){name}(?![\w-])", text, re.I):
            out.append(dep)
    return out


def fingerprint(path: str, text: str) -> str | None:
    """What a manifest declares, in one line (its comments and layout left out), or None when
    it does not parse."""
    table = declared(path, text)
    if table is None:
        return None
    return json.dumps(sorted(table.items()))


def _requirement(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _table(table: Any, out: dict[str, str]) -> None:
    """A ``name = requirement`` table (Cargo, npm, Poetry) into ``out``; anything else, nothing."""
    for dep, spec in table.items() if isinstance(table, dict) else ():
        out[normal(dep)] = _requirement(spec)


def _pep508(items: Any, out: dict[str, str]) -> None:
    for item in items if isinstance(items, list) else []:
        if isinstance(item, str) and (m := _PEP508_NAME.match(item)):
            out[normal(m.group(1))] = item[m.end():].strip()


def _pyproject(data: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    project = data.get("project") or {}
    if isinstance(project, dict):
        if isinstance(project.get("requires-python"), str):
            out["python"] = project["requires-python"]
        _pep508(project.get("dependencies"), out)
        for group in (project.get("optional-dependencies") or {}).values():
            _pep508(group, out)
    for group in (data.get("dependency-groups") or {}).values():
        _pep508(group, out)
    tool = data.get("tool") or {}
    uv = tool.get("uv") or {} if isinstance(tool, dict) else {}
    if isinstance(uv, dict):
        _pep508(uv.get("dev-dependencies"), out)
    poetry = tool.get("poetry") or {} if isinstance(tool, dict) else {}
    if isinstance(poetry, dict):
        tables = [poetry.get("dependencies"), poetry.get("dev-dependencies"),
                  *((g or {}).get("dependencies") for g in (poetry.get("group") or {}).values()
                    if isinstance(g, dict))]
        for table in tables:
            _table(table, out)
    return out


def _cargo(data: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    package = data.get("package") or {}
    if isinstance(package, dict) and isinstance(package.get("rust-version"), str):
        out["rust"] = package["rust-version"]
    tables = [data, *((data.get("target") or {}).values() if isinstance(
        data.get("target"), dict) else [])]  # [target.'cfg(unix)'.dependencies] too
    for table in tables:
        for key in ("dependencies", "dev-dependencies", "build-dependencies"):
            _table(table.get(key) if isinstance(table, dict) else None, out)
    return out


def _package_json(data: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    engines = data.get("engines") or {}
    if isinstance(engines, dict) and isinstance(engines.get("node"), str):
        out["node"] = engines["node"]
    for key in ("dependencies", "devDependencies", "peerDependencies",
                "optionalDependencies"):
        _table(data.get(key), out)
    return out


def _requirements(text: str) -> dict[str, str]:
    """A pip requirements file: one PEP 508 requirement a line; options (``-r``, ``-e``,
    ``--index-url``), comments and blank lines carry no dependency."""
    lines = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith(("#", "-")):
            lines.append(line)
    out: dict[str, str] = {}
    _pep508(lines, out)
    return out


_GO_REQUIRE = re.compile(r"^\s*(?:require\s+)?([\w.~-]+(?:/[\w.~-]+)+)\s+(v[^\s/]+)", re.M)
_GO_VERSION = re.compile(r"^go\s+(\d[\w.]*)\s*$", re.M)


def _go_mod(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    if m := _GO_VERSION.search(text):
        out["go"] = m.group(1)
    for m in _GO_REQUIRE.finditer(text):
        # a Go module by its last path part, as people name it ("pgx", not
        # "github.com/jackc/pgx/v5")
        parts = [p for p in m.group(1).split("/") if not re.fullmatch(r"v\d+", p)]
        out[normal(parts[-1])] = m.group(2)
    return out
