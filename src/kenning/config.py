"""Configuration: defaults, then the user's ``kenning.toml``, then the project's, then
``KENNING_<SECTION>_<KEY>`` environment variables; every value remembers where it came from.

Importable by hooks: ``tomllib`` loads only when a config file exists.
"""

import os

# section -> key -> default. Types are taken from the defaults.
DEFAULTS: dict[str, dict[str, object]] = {
    "store": {
        "db": "",  # a file or postgresql:// DSN; $KENNING_DB wins; empty: <data dir>/kenning.db
    },
    "hooks": {
        "enabled": True,
        "top_k": 5,  # memories injected per prompt
        "max_chars": 1500,  # about 375 tokens of injected context per prompt, at most
        "briefing_max_chars": 2400,  # the session-start briefing, at most
        "min_confidence": 0.0,  # memories below this are never injected
        "record_tools": True,  # journal edits, commands and their outcomes
        "briefing_k": 5,  # memories in the session-start briefing
        "prompt_budget_ms": 1500,  # past these a hook exits 0 with no output
        "tool_budget_ms": 1000,
        "session_start_budget_ms": 8000,
        "session_end_budget_ms": 55000,
        "detach_session_end": True,  # session-end work runs in a background worker
        # a start waits this long for a running session end (0: it reads what is there)
        "session_start_wait_ms": 0,
        "compact_budget_ms": 8000,
        # On a server store the prompt index (built by this machine) is trusted this long;
        # after that prompts ask the server, so others' new memories arrive within it.
        "shared_refresh_s": 30,
    },
    "auto_memory": {
        "enabled": True,  # import at session start, sync and curate at session end
        "sync_mode": "on-session-end",  # or "on-write", "periodic"
        "sync_interval_ms": 300000,  # "periodic": at most this long between syncs
        "layout": "per-fact",  # or "topic-files": one file per category
        "max_index_lines": 180,  # headroom under the 200 lines Claude Code loads
        "max_index_bytes": 25000,
        "min_confidence": 0.7,
        "prune_strategy": "confidence-weighted",  # or "confidence", "recency"
        "max_topic_file_lines": 500,
        "topic_mapping": {},
    },
    "project": {
        "identity": "auto",  # "auto": the git remote on a server store, the path on SQLite
        "id": "",  # the project's key outright (what KENNING_PROJECT says for one process)
    },
    "graph": {
        "auto_link": True,  # link new memories automatically (temporal, same topic, similar)
    },
    "capture": {
        "extract": True,  # mine the transcript and git log for memories at session end
    },
    "episodes": {
        "keep": True,  # keep what the user said (redacted) as low-weight, searchable episodes
        "keep_days": 90,  # episodes older than this are pruned at session end
        "max_per_project": 2000,  # and the oldest beyond this many
    },
}

# Keys whose value is one of a few words, and whole numbers with a floor above 0.
SYNC_MODES = ("on-write", "on-session-end", "periodic")
PRUNE_STRATEGIES = ("confidence-weighted", "confidence", "recency")
LAYOUTS = ("per-fact", "topic-files")
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("auto_memory", "sync_mode"): SYNC_MODES,
    ("auto_memory", "prune_strategy"): PRUNE_STRATEGIES,
    ("auto_memory", "layout"): LAYOUTS,
    ("project", "identity"): ("auto", "path", "remote"),
}
MINIMUM: dict[tuple[str, str], int] = {
    ("hooks", "top_k"): 1,
    ("auto_memory", "sync_interval_ms"): 1000,
    ("auto_memory", "max_index_lines"): 1,
    ("auto_memory", "max_index_bytes"): 64,
    ("auto_memory", "max_topic_file_lines"): 1,
}

USER = "user"
PROJECT = "project"
ENV = "env"
DEFAULT = "default"


class ConfigError(ValueError):
    """A config file or environment value that cannot be used; names the file and key."""


def user_config_path() -> str:
    """``$KENNING_CONFIG``, else ``$KENNING_HOME/kenning.toml``, else the XDG config dir."""
    if env := os.environ.get("KENNING_CONFIG"):
        return os.path.expanduser(env)
    if home := os.environ.get("KENNING_HOME"):
        return os.path.join(os.path.expanduser(home), "kenning.toml")
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "kenning", "kenning.toml")


def project_config_path(project_root: str) -> str:
    return os.path.join(project_root, "kenning.toml")


class Config:
    """Effective settings: ``config.get("hooks", "top_k")``; ``sources`` says where each came
    from (``default``, ``user``, ``project`` or ``env``) and ``files`` which files were read."""

    def __init__(self, values: dict[str, dict[str, object]],
                 sources: dict[str, dict[str, str]], files: list[str]) -> None:
        self.values = values
        self.sources = sources
        self.files = files

    def get(self, section: str, key: str) -> object:
        return self.values[section][key]

    def section(self, section: str) -> dict[str, object]:
        return dict(self.values[section])

    def table(self) -> list[tuple[str, object, str]]:
        """``(section.key, value, source)`` rows, for ``kenning config show``."""
        return [(f"{s}.{k}", v, self.sources[s][k])
                for s, keys in self.values.items() for k, v in keys.items()]


def integer(values: dict[str, object], key: str) -> int:
    """The whole-number setting ``key`` of a section's values (``load`` checked its type
    against the default's; a bad value here is a bug, and says so)."""
    value = values[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"setting {key!r} is not a number: {value!r}")
    return int(value)


def number(values: dict[str, object], key: str) -> float:
    """The numeric setting ``key`` of a section's values, as ``integer`` does for whole
    numbers."""
    value = values[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"setting {key!r} is not a number: {value!r}")
    return float(value)


def table(values: dict[str, object], key: str) -> dict[str, object] | None:
    """The nested section ``key`` of a section's values (the hooks' settings carry
    ``[project]`` and ``[auto_memory]`` this way), or None when it is not there."""
    value = values.get(key)
    return value if isinstance(value, dict) else None


def _coerce(section: str, key: str, value: object, where: str) -> object:
    default = DEFAULTS[section][key]
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("1", "true", "yes", "on", "0", "false",
                                                        "no", "off"):
            return value.lower() in ("1", "true", "yes", "on")
    elif isinstance(default, int):
        low = MINIMUM.get((section, key), 0)
        try:
            if (isinstance(value, int | float | str) and not isinstance(value, bool)
                    and int(value) == float(value)):
                out = int(value)
                if out >= low:
                    return out
        except (TypeError, ValueError):
            pass
        raise ConfigError(f"{where}: {section}.{key} must be a whole number >= {low}, "
                          f"not {value!r}")
    elif isinstance(default, float):
        try:
            if isinstance(value, int | float | str) and not isinstance(value, bool):
                out_f = float(value)
                if 0.0 <= out_f <= 1.0:
                    return out_f
        except (TypeError, ValueError):
            pass
    elif isinstance(default, str):
        choices = CHOICES.get((section, key))
        if isinstance(value, str) and (choices is None or value in choices):
            return value
        if choices is not None:
            raise ConfigError(f"{where}: {section}.{key} must be one of "
                              f"{', '.join(choices)}, not {value!r}")
    elif isinstance(default, dict):
        if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            return dict(value)
        if isinstance(value, str):
            pairs = [p.split("=", 1) for p in value.split(",") if "=" in p]
            return {a.strip(): b.strip() for a, b in pairs}
    kind = ("true or false" if isinstance(default, bool) else
            "a whole number >= 0" if isinstance(default, int) else
            "a number between 0 and 1" if isinstance(default, float) else
            "a string" if isinstance(default, str) else "a table of strings")
    raise ConfigError(f"{where}: {section}.{key} must be {kind}, not {value!r}")


def _read_toml(path: str) -> dict[str, object]:
    import tomllib

    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None


def load(project_root: str | None = None, environ: dict[str, str] | None = None) -> Config:
    """The effective configuration for a project (``None``: user level only)."""
    env = os.environ if environ is None else environ
    values = {s: dict(keys) for s, keys in DEFAULTS.items()}
    sources = {s: dict.fromkeys(keys, DEFAULT) for s, keys in DEFAULTS.items()}
    files: list[str] = []
    layers = [(USER, user_config_path())]
    if project_root:
        layers.append((PROJECT, project_config_path(project_root)))
    for label, path in layers:
        if not os.path.isfile(path):
            continue
        files.append(path)
        data = _read_toml(path)
        for section, keys in data.items():
            if section not in DEFAULTS:
                raise ConfigError(f"{path}: unknown section [{section}]; known: "
                                  f"{', '.join(DEFAULTS)}")
            if not isinstance(keys, dict):
                raise ConfigError(f"{path}: [{section}] must be a table")
            for key, value in keys.items():
                if key not in DEFAULTS[section]:
                    raise ConfigError(f"{path}: unknown key {section}.{key}; known: "
                                      f"{', '.join(DEFAULTS[section])}")
                values[section][key] = _coerce(section, key, value, path)
                sources[section][key] = f"{label} ({path})"
    for section, keys in DEFAULTS.items():
        for key in keys:
            name = f"KENNING_{section.upper()}_{key.upper()}"
            if name in env:
                values[section][key] = _coerce(section, key, env[name], name)
                sources[section][key] = f"{ENV} ({name})"
    return Config(values, sources, files)
