"""Held-out stories in Rust projects (cargo workspaces, clippy, nextest, insta, tokio, sqlx).

Every rule, change and gotcha the users state below is taken from public material written by
other people: instruction files (AGENTS.md, CLAUDE.md, .rules, CONTRIBUTING.md) and their git
history, pull-request descriptions and review comments, changelogs and issue threads. Each
story names its sources; a ``# source:`` comment sits above each user turn taken from them.
People's names are left out.
"""

from __future__ import annotations

from replaykit.story import (
    Bash,
    Commit,
    Compact,
    Edit,
    Probe,
    Project,
    Read,
    Say,
    Session,
    Story,
    Subagent,
    User,
    Write,
    lesson,
)

# ---------------------------------------------------------------------------------------------
# 1. codex-rs: a cargo workspace CLI/TUI (openai/codex AGENTS.md and its history)
# ---------------------------------------------------------------------------------------------

CODEX = Project("codex-rs", "rust", {
    "codex-rs/Cargo.toml": (
        '[workspace]\nresolver = "2"\nmembers = ["common", "core", "protocol", "tui"]\n\n'
        '[workspace.package]\nversion = "0.0.0"\nedition = "2024"\n\n'
        '[workspace.dependencies]\nanyhow = "1"\nratatui = "0.29.0"\nserde = { version = "1", '
        'features = ["derive"] }\ntoml = "0.9"\ninsta = "1.43"\npretty_assertions = "1.4"\n'
    ),
    "codex-rs/justfile": (
        "set working-directory := \"codex-rs\"\n\n"
        "fmt:\n    cargo fmt -- --config imports_granularity=Item\n\n"
        "fix *args:\n    cargo clippy --fix --all-features --tests --allow-dirty \"$@\"\n\n"
        "test:\n    cargo nextest run --no-fail-fast\n"
    ),
    "codex-rs/core/Cargo.toml": (
        '[package]\nname = "codex-core"\nversion.workspace = true\nedition.workspace = true\n\n'
        '[dependencies]\nanyhow = { workspace = true }\nserde = { workspace = true }\n'
        'toml = { workspace = true }\ncodex-protocol = { path = "../protocol" }\n'
    ),
    "codex-rs/core/src/lib.rs": "pub mod config;\npub mod exec;\n",
    "codex-rs/core/src/config.rs": (
        "use serde::Deserialize;\n\n"
        "#[derive(Debug, Default, Deserialize)]\npub struct ConfigToml {\n"
        "    pub model: Option<String>,\n    pub approval_policy: Option<String>,\n}\n"
    ),
    "codex-rs/core/src/exec.rs": (
        "use std::process::Command;\n\n"
        "pub fn run(argv: &[String]) -> anyhow::Result<String> {\n"
        "    let out = Command::new(&argv[0]).args(&argv[1..]).output()?;\n"
        "    Ok(String::from_utf8_lossy(&out.stdout).into_owned())\n}\n"
    ),
    "codex-rs/core/tests/exec.rs": (
        "use codex_core::exec::run;\n\n"
        "#[test]\nfn echo_round_trips() {\n"
        "    if std::env::var(\"CODEX_SANDBOX_NETWORK_DISABLED\").is_ok() {\n"
        "        println!(\"Skipping test because network is disabled in the sandbox.\");\n"
        "        return;\n    }\n"
        "    let out = run(&[\"echo\".to_string(), \"hi\".to_string()]).unwrap();\n"
        "    assert_eq!(out, \"hi\\n\");\n}\n"
    ),
    "codex-rs/tui/Cargo.toml": (
        '[package]\nname = "codex-tui"\nversion.workspace = true\nedition.workspace = true\n\n'
        '[dependencies]\nratatui = { workspace = true }\ncodex-core = { path = "../core" }\n\n'
        '[dev-dependencies]\ninsta = { workspace = true }\n'
        'pretty_assertions = { workspace = true }\n'
    ),
    "codex-rs/tui/src/lib.rs": "pub mod status_line;\n",
    "codex-rs/tui/src/status_line.rs": (
        "use ratatui::text::Line;\n\n"
        "pub fn status_line(model: &str) -> Line<'static> {\n"
        "    Line::from(format!(\"model: {}\", model))\n}\n"
    ),
})

CODEX_TUI_SNAPSHOT_FAIL = (
    "   Compiling codex-tui v0.0.0 (/work/codex-rs/tui)\n"
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 41.87s\n"
    "     Running unittests src/lib.rs (target/debug/deps/codex_tui-3f1c0e8a9b7d2c41)\n\n"
    "running 3 tests\n"
    "test status_line::tests::empty_model_falls_back ... ok\n"
    "test status_line::tests::renders_model ... ok\n"
    "test status_line::tests::renders_model_and_cwd ... FAILED\n\n"
    "failures:\n\n---- status_line::tests::renders_model_and_cwd stdout ----\n"
    "Snapshot Summary\n"
    "Snapshot: renders_model_and_cwd\n"
    "Source: tui/src/status_line.rs:31\n"
    "Expression: terminal.backend()\n"
    "+new results\n"
    "    0       │+\"model: gpt-5 · ~/src/codex                      \"\n"
    "stored new snapshot /work/codex-rs/tui/src/snapshots/"
    "codex_tui__status_line__tests__renders_model_and_cwd.snap.new\n"
    "thread 'status_line::tests::renders_model_and_cwd' panicked at "
    "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/insta-1.43.1/src/runtime.rs:679:13:\n"
    "snapshot assertion for 'renders_model_and_cwd' failed in line 31\n\n"
    "failures:\n    status_line::tests::renders_model_and_cwd\n\n"
    "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; "
    "finished in 0.02s\n\nerror: test failed, to rerun pass `-p codex-tui --lib`"
)
CODEX_TUI_PASS = (
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 3.12s\n"
    "     Running unittests src/lib.rs (target/debug/deps/codex_tui-3f1c0e8a9b7d2c41)\n\n"
    "running 3 tests\n...\n"
    "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
    "finished in 0.02s"
)
CODEX_CORE_PASS = (
    "   Compiling codex-core v0.0.0 (/work/codex-rs/core)\n"
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 58.40s\n"
    "     Running unittests src/lib.rs (target/debug/deps/codex_core-a01b9c77e3d5f210)\n\n"
    "running 41 tests\n.........................................\n"
    "test result: ok. 41 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
    "finished in 1.84s\n\n"
    "     Running tests/exec.rs (target/debug/deps/exec-5d3e2a1f0b9c8d7e)\n\n"
    "running 1 test\n---- echo_round_trips stdout ----\n"
    "Skipping test because network is disabled in the sandbox.\n"
    "test echo_round_trips ... ok\n\n"
    "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
    "finished in 0.00s"
)
CODEX_BAZEL_FAIL = (
    "Run just bazel-lock-check\n"
    "bazel mod deps --lockfile_mode=error\n"
    "ERROR: MODULE.bazel.lock is no longer up-to-date because: The module extension "
    "'crate' defined in '@@rules_rust+//crate_universe:extensions.bzl' has changed its inputs "
    "(Cargo.lock). Please run `bazel mod deps --lockfile_mode=update` to update your lockfile.\n"
    "error: Recipe `bazel-lock-check` failed on line 58 with exit code 1\n"
    "Error: Process completed with exit code 1."
)
CODEX_NEXTEST_PASS = (
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 1m 52s\n"
    "────────────\n Nextest run ID 6b0f2c1e-9d4a-4c51-8f0e-2a7c3b9d1e55 with nextest profile: "
    "default\n    Starting 612 tests across 48 binaries (3 tests skipped)\n"
    "        PASS [   0.011s] codex-common config_override::parses_dotted_keys\n"
    "        PASS [   0.214s] codex-core::exec echo_round_trips\n"
    "        ...\n────────────\n"
    "     Summary [  38.771s] 612 tests run: 612 passed, 3 skipped"
)

CODEX_STORY = Story(
    id="ho-rs-codex-workspace-1",
    title="A cargo workspace agent CLI: crate naming, fmt/fix/test workflow that changed twice, "
          "insta snapshots, the sandbox env var and the Bazel lockfile",
    sources=("openai/codex",),
    project=CODEX,
    lessons=(
        lesson("crate-prefix", "convention",
               "Crate names in codex-rs are prefixed with `codex-` (the `core` folder's crate is "
               "`codex-core`)",
               "crate", "prefix", "codex-"),
        lesson("fmt-ask", "command",
               "Before finalizing a change run `just fmt` and `just fix -p <project>` in codex-rs, "
               "but ask the user before running them when working interactively",
               "just fmt", "ask|approval"),
        lesson("fmt-auto", "command",
               "Run `just fmt` in codex-rs automatically after finishing Rust changes, without "
               "asking for approval",
               "just fmt", "automatically|without asking|no approval|not ask"),
        lesson("fix-scoped", "command",
               "Lint-fix with `just fix -p <project>` scoped to the changed crate; only run "
               "`just fix` without -p if shared crates changed",
               "just fix", "-p|scop"),
        lesson("test-crate", "command",
               "First run the tests of the crate that changed, e.g. `cargo test -p codex-tui`",
               "cargo test -p", "specific|changed|project"),
        lesson("suite-all-features", "command",
               "If common, core or protocol changed, run the complete suite with "
               "`cargo test --all-features`",
               "--all-features", "common|core|protocol|complete"),
        lesson("suite-nextest", "command",
               "If common, core or protocol changed, run the complete suite with `cargo test` "
               "(or `just test` with cargo-nextest), without --all-features for routine runs, "
               "and ask the user before running the complete suite",
               "just test|nextest", "complete|full|whole|entire"),
        lesson("insta-snapshots", "command",
               "UI changes need insta snapshot coverage: run `cargo test -p codex-tui`, check "
               "`cargo insta pending-snapshots -p codex-tui`, review the .snap.new files, then "
               "`cargo insta accept -p codex-tui`",
               "insta", "pending|accept|review"),
        lesson("sandbox-env", "gotcha",
               "Never add or modify code related to CODEX_SANDBOX_NETWORK_DISABLED_ENV_VAR: the "
               "agent's shell sets CODEX_SANDBOX_NETWORK_DISABLED=1 and tests early-exit on it",
               "CODEX_SANDBOX_NETWORK_DISABLED", "never|don't|do not|early exit|early-exit"),
        lesson("bazel-lock", "command",
               "After changing Rust dependencies (Cargo.toml/Cargo.lock) run "
               "`just bazel-lock-update` from the repo root and commit MODULE.bazel.lock in the "
               "same change; `just bazel-lock-check` catches drift",
               "bazel-lock|MODULE.bazel.lock", "depend|Cargo.toml|Cargo.lock"),
    ),
    also=(
        # session 1: "When using format! and you can inline variables into {}, always do that."
        lesson("also-format-inline", "convention",
               "Inline variables into format! braces (clippy uninlined_format_args)",
               "format!", "inline"),
        # session 3: "Do not re-run tests after running `fix` or `fmt`."
        lesson("also-no-rerun", "preference",
               "Do not re-run the tests after running just fix or just fmt",
               "re-run|rerun", "fix|fmt"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: openai/codex AGENTS.md (first version, Aug 2025)
            User("hey, can you add the cwd to the status line in the tui? show it after the "
                 "model, like `model: gpt-5 · ~/src/codex`. some house rules before you start, "
                 "this is how we work in codex-rs: Crate names are prefixed with `codex-`. For "
                 "example, the `core` folder's crate is named `codex-core`. Before finalizing a "
                 "change to `codex-rs`, run `just fmt` (in `codex-rs` directory) to format the "
                 "code and `just fix -p <project>` (in `codex-rs` directory) to fix any linter "
                 "issues in the code. When running interactively, ask the user before running "
                 "these commands to finalize.",
                 states=("crate-prefix", "fmt-ask")),
            Read("codex-rs/tui/src/status_line.rs"),
            Edit("codex-rs/tui/src/status_line.rs",
                 "pub fn status_line(model: &str) -> Line<'static> {\n"
                 "    Line::from(format!(\"model: {}\", model))\n}\n",
                 "pub fn status_line(model: &str, cwd: &str) -> Line<'static> {\n"
                 "    Line::from(format!(\"model: {} · {}\", model, cwd))\n}\n"),
            # source: openai/codex AGENTS.md (test section)
            User("also for tests: Run the test for the specific project that was changed. For "
                 "example, if changes were made in `codex-rs/tui`, run `cargo test -p "
                 "codex-tui`.", states="test-crate"),
            Bash("cd codex-rs && cargo test -p codex-tui", out=CODEX_TUI_SNAPSHOT_FAIL, ok=False,
                 exit=101),
            Say("The status line test is an insta snapshot: the rendered line changed, so insta "
                "stored a `.snap.new` next to the old snapshot and failed the test. Want me to "
                "accept it?"),
            # source: openai/codex AGENTS.md (Snapshot tests section)
            User("yes, that's expected. This repo uses snapshot tests (via `insta`), especially "
                 "in `codex-rs/tui`, to validate rendered output. When UI or text output changes "
                 "intentionally: run `cargo test -p codex-tui` to generate the updated "
                 "snapshots, check what's pending with `cargo insta pending-snapshots -p "
                 "codex-tui`, review the generated `*.snap.new` files, and only if you intend to "
                 "accept all new snapshots in this crate, run `cargo insta accept -p codex-tui`.",
                 states="insta-snapshots"),
            Bash("cd codex-rs && cargo insta pending-snapshots -p codex-tui",
                 out="tui/src/snapshots/codex_tui__status_line__tests__renders_model_and_cwd"
                     ".snap.new"),
            Bash("cd codex-rs && cargo insta accept -p codex-tui",
                 out="insta review finished\naccepted:\n  tui/src/status_line.rs "
                     "(renders_model_and_cwd)"),
            Bash("cd codex-rs && cargo test -p codex-tui", out=CODEX_TUI_PASS),
            Say("Snapshots accepted and codex-tui is green. Can I run `just fmt` and "
                "`just fix -p codex-tui` to finalize?"),
            User("go ahead"),
            Bash("cd codex-rs && just fmt && just fix -p codex-tui",
                 out="cargo fmt -- --config imports_granularity=Item\n"
                     "cargo clippy --fix --all-features --tests --allow-dirty -p codex-tui\n"
                     "    Checking codex-tui v0.0.0 (/work/codex-rs/tui)\n"
                     "       Fixed tui/src/status_line.rs (1 fix)\n"
                     "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 9.84s"),
            Edit("codex-rs/tui/src/status_line.rs",
                 "    Line::from(format!(\"model: {} · {}\", model, cwd))\n",
                 "    Line::from(format!(\"model: {model} · {cwd}\"))\n"),
            Commit("tui: show cwd in the status line"),
        )),
        Session(day=3, events=(
            User("morning. next thing: I want a `reasoning_effort` key in config.toml. and we'll "
                 "need a new crate for the login flow eventually, but not today."),
            # source: openai/codex AGENTS.md (format! rule)
            User("oh and one thing from the review on your last PR: When using format! and you "
                 "can inline variables into {}, always do that. clippy's uninlined_format_args, "
                 "fix already did it for you last time."),
            Probe("let's stub the login crate now after all, just the Cargo.toml under "
                  "codex-rs/login with anyhow as a dependency", needs="crate-prefix"),
            Write("codex-rs/login/Cargo.toml",
                  '[package]\nname = "codex-login"\nversion.workspace = true\n'
                  'edition.workspace = true\n\n[dependencies]\nanyhow = { workspace = true }\n'),
            Edit("codex-rs/core/src/config.rs",
                 "    pub approval_policy: Option<String>,\n",
                 "    pub approval_policy: Option<String>,\n"
                 "    pub reasoning_effort: Option<String>,\n"),
            # source: openai/codex AGENTS.md (first version: complete suite rule)
            User("since that touches core: Once those pass, if any changes were made in common, "
                 "core, or protocol, run the complete test suite with `cargo test "
                 "--all-features`.", states="suite-all-features"),
            Bash("cd codex-rs && cargo test -p codex-core", out=CODEX_CORE_PASS),
            Say("codex-core passes, but `echo_round_trips` printed \"Skipping test because "
                "network is disabled in the sandbox\" - CODEX_SANDBOX_NETWORK_DISABLED is set in "
                "my shell. I could drop that early return so the test really runs here?"),
            # source: openai/codex AGENTS.md (sandbox env var rule)
            User("no, leave it. Never add or modify any code related to "
                 "`CODEX_SANDBOX_NETWORK_DISABLED_ENV_VAR` or `CODEX_SANDBOX_ENV_VAR`. You "
                 "operate in a sandbox where `CODEX_SANDBOX_NETWORK_DISABLED=1` will be set "
                 "whenever you use the `shell` tool. Any existing code that uses it was authored "
                 "with this fact in mind. It is often used to early exit out of tests that the "
                 "author knew you would not be able to run given your sandbox limitations.",
                 states="sandbox-env"),
            Bash("cd codex-rs && cargo test --all-features",
                 out="    Finished `test` profile [unoptimized + debuginfo] target(s) in 4m 07s\n"
                     "test result: ok. 598 passed; 0 failed; 3 ignored; 0 measured; "
                     "0 filtered out; finished in 44.12s"),
            Commit("core: add reasoning_effort to ConfigToml; stub codex-login"),
        ), judge={"test-crate": "not_down"}),
        Session(day=9, events=(
            # source: openai/codex AGENTS.md (later version: fmt without approval)
            User("quick process update from the AGENTS.md PR that just merged: Run `just fmt` (in "
                 "`codex-rs` directory) automatically after you have finished making Rust code "
                 "changes; do not ask for approval to run it. And for the linter: prefer scoping "
                 "`just fix` with `-p` to avoid slow workspace-wide Clippy builds; only run "
                 "`just fix` without `-p` if you changed shared crates.",
                 states=("fmt-auto", "fix-scoped"), replaces="fmt-ask"),
            Say("Got it: `just fmt` runs on its own when I finish Rust changes, and `just fix` "
                "stays scoped with `-p <crate>` unless shared crates change."),
            User("cool. today: the approval prompt in the tui wraps weirdly on narrow terminals, "
                 "can you look? it's probably the hardcoded width."),
            Edit("codex-rs/tui/src/status_line.rs",
                 "use ratatui::text::Line;\n",
                 "use ratatui::text::Line;\n\npub const MIN_WIDTH: u16 = 20;\n"),
            Bash("cd codex-rs && just fmt",
                 out="cargo fmt -- --config imports_granularity=Item"),
            User("nah let's leave the wrapping for next week, I'd rather see the design first. "
                 "commit what you have and we'll pick it up then"),
            Commit("tui: add MIN_WIDTH for the approval prompt"),
        )),
        Session(day=16, events=(
            # source: openai/codex AGENTS.md (later version: complete suite without all-features)
            User("ugh, my disk filled up: target/ is at 70GB after a few full runs. we changed the "
                 "rule: if any changes were made in common, core, or protocol, run the complete "
                 "test suite with `cargo test` (or `just test` if `cargo-nextest` is installed). "
                 "Avoid `--all-features` for routine local runs because it expands the build "
                 "matrix and can significantly increase `target/` disk usage; use it only when "
                 "you specifically need full feature coverage. project-specific or individual "
                 "tests can be run without asking the user, but do ask the user before running "
                 "the complete test suite.",
                 states="suite-nextest", replaces="suite-all-features"),
            User("now, can you add textwrap to codex-tui? we'll need it for the prompt wrapping."),
            Edit("codex-rs/tui/Cargo.toml",
                 "ratatui = { workspace = true }\n",
                 "ratatui = { workspace = true }\ntextwrap = \"0.16\"\n"),
            Bash("cd codex-rs && cargo test -p codex-tui", out=CODEX_TUI_PASS),
            Commit("tui: depend on textwrap"),
            Bash("gh run view --log-failed | tail -6", out=CODEX_BAZEL_FAIL, ok=False),
            Say("CI's `bazel-lock-check` job failed: the Cargo.lock change made MODULE.bazel.lock "
                "stale."),
            # source: openai/codex AGENTS.md (later version: Bazel lockfile rules)
            User("right, forgot to tell you. If you change Rust dependencies (`Cargo.toml` or "
                 "`Cargo.lock`), run `just bazel-lock-update` from the repo root to refresh "
                 "`MODULE.bazel.lock`, and include that lockfile update in the same change. "
                 "After dependency changes, run `just bazel-lock-check` from the repo root so "
                 "lockfile drift is caught locally before CI.", states="bazel-lock"),
            Bash("just bazel-lock-update && just bazel-lock-check",
                 out="bazel mod deps --lockfile_mode=update\nbazel mod deps --lockfile_mode=error\n"
                     "OK: MODULE.bazel.lock is up to date"),
            Write("MODULE.bazel.lock",
                  '{\n  "lockFileVersion": 18,\n  "moduleExtensions": {}\n}\n'),
            Commit("bazel: refresh MODULE.bazel.lock for textwrap"),
            # source: openai/codex AGENTS.md (later version)
            User("and one more from that PR: Do not re-run tests after running `fix` or `fmt`. "
                 "it just burns time."),
        )),
        Session(day=23, events=(
            User("ok let's do the wrapping now. use textwrap::wrap for the approval prompt body."),
            Edit("codex-rs/tui/src/status_line.rs",
                 "pub const MIN_WIDTH: u16 = 20;\n",
                 "pub const MIN_WIDTH: u16 = 20;\n\n"
                 "pub fn wrap_prompt(body: &str, width: u16) -> Vec<String> {\n"
                 "    textwrap::wrap(body, usize::from(width.max(MIN_WIDTH)))\n"
                 "        .into_iter()\n        .map(|line| line.into_owned())\n"
                 "        .collect()\n}\n"),
            Compact("keep the wrapping task and the test/fmt workflow"),
            Probe("done with the code I think. finish it up the way we normally do before I "
                  "look at the diff", needs=("fmt-auto", "fix-scoped")),
            Bash("cd codex-rs && just fmt && just fix -p codex-tui",
                 out="cargo fmt -- --config imports_granularity=Item\n"
                     "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 7.02s"),
            Probe("the prompt renders differently now on narrow widths. what do I need to "
                  "include in the PR for that?", needs="insta-snapshots"),
            Bash("cd codex-rs && cargo test -p codex-tui && cargo insta pending-snapshots "
                 "-p codex-tui",
                 out="test result: ok. 4 passed; 0 failed\n"
                     "tui/src/snapshots/codex_tui__status_line__tests__wraps_narrow.snap.new"),
            Commit("tui: wrap the approval prompt with textwrap"),
        ), judge={"fmt-auto": "not_down"}),
        Session(day=30, events=(
            User("I had to touch protocol for the new approval event type, it's in my branch. "
                 "pull it and have a look."),
            Edit("codex-rs/core/src/exec.rs",
                 "pub fn run(argv: &[String]) -> anyhow::Result<String> {\n",
                 "/// Runs `argv` and returns its stdout.\n"
                 "pub fn run(argv: &[String]) -> anyhow::Result<String> {\n"),
            Probe("make sure nothing broke with the protocol change before I merge",
                  needs=("test-crate", "suite-nextest")),
            Say("I'll run `cargo test -p codex-protocol` first; since protocol changed, the "
                "complete suite is next - OK to run `just test`?"),
            User("yes run it"),
            Bash("cd codex-rs && just test", out=CODEX_NEXTEST_PASS),
            Probe("also bump serde to 1.0.228 in the workspace while you're at it",
                  needs="bazel-lock"),
            Edit("codex-rs/Cargo.toml", 'serde = { version = "1", ',
                 'serde = { version = "1.0.228", '),
            Probe("the exec test keeps printing that it skipped in your shell, can you make it "
                  "run for real?", needs="sandbox-env"),
            Commit("core: document exec::run; bump serde"),
        ), judge={"suite-nextest": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 2. ruff/ty: a linter + type checker workspace (astral-sh/ruff CLAUDE.md, PR #22370 review,
#    later AGENTS.md)
# ---------------------------------------------------------------------------------------------

RUFF = Project("ruff", "rust", {
    "Cargo.toml": (
        '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n\n[workspace.package]\n'
        'edition = "2024"\nrust-version = "1.88"\n\n[profile.fast-test]\ninherits = "dev"\n'
        'opt-level = 1\ndebug = "line-tables-only"\n'
    ),
    "pyproject.toml": (
        '[project]\nname = "ruff"\nversion = "0.14.10"\nrequires-python = ">=3.7"\n\n'
        '[build-system]\nrequires = ["maturin>=1.0,<2.0"]\nbuild-backend = "maturin"\n'
    ),
    ".pre-commit-config.yaml": (
        "repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v6.0.0\n"
        "    hooks:\n      - id: check-merge-conflict\n  - repo: local\n    hooks:\n"
        "      - id: cargo-fmt\n        name: cargo fmt\n        entry: cargo fmt --\n"
        "        language: system\n        types: [rust]\n"
    ),
    "crates/ty_python_semantic/Cargo.toml": (
        '[package]\nname = "ty_python_semantic"\nversion = "0.0.0"\nedition.workspace = true\n\n'
        '[dev-dependencies]\ninsta = "1.43"\n'
    ),
    "crates/ty_python_semantic/src/lib.rs": "pub mod lint;\npub mod narrow;\n",
    "crates/ty_python_semantic/src/narrow.rs": (
        "use crate::types::Type;\n\n"
        "pub(crate) fn narrow_on_value_pattern(subject: Type, value: Type) -> Type {\n"
        "    if value.is_literal() {\n        return subject;\n    }\n    subject\n}\n"
    ),
    "crates/ty_python_semantic/src/lint.rs": (
        "pub struct LintStatus;\n\nimpl LintStatus {\n"
        "    pub const fn stable(_since: &'static str) -> Self {\n        LintStatus\n    }\n}\n"
    ),
    "crates/ty_python_semantic/resources/mdtest/narrow/match.md": (
        "# Narrowing for `match` statements\n\n## Value patterns\n\n```py\n"
        "def _(x: int):\n    match x:\n        case 1:\n"
        "            reveal_type(x)  # revealed: Literal[1]\n```\n"
    ),
})

RUFF_MDTEST_FAIL = (
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 1m 14s\n"
    "────────────\n    Starting 1874 tests across 6 binaries (22 tests skipped)\n"
    "        FAIL [   0.812s] ty_python_semantic::mdtest mdtest__narrow_match\n"
    "──── STDOUT:             ty_python_semantic::mdtest mdtest__narrow_match\n\n"
    "narrow/match.md - Narrowing for `match` statements - Value patterns\n\n"
    "  crates/ty_python_semantic/resources/mdtest/narrow/match.md:9 unmatched assertion: "
    "revealed: Literal[1]\n"
    "  crates/ty_python_semantic/resources/mdtest/narrow/match.md:9 unexpected error: 1 "
    "[revealed-type] \"Revealed type: `int`\"\n\n"
    "To rerun this specific test, set the environment variable: "
    "MDTEST_TEST_FILTER='match.md - Narrowing for `match` statements - Value patterns'\n"
    "MDTEST_TEST_FILTER='match.md - Narrowing for `match` statements - Value patterns' "
    "cargo test -p ty_python_semantic --test mdtest -- mdtest__narrow_match\n\n"
    "────────────\n     Summary [  41.208s] 1874 tests run: 1873 passed, 1 failed, 22 skipped\n"
    "        FAIL [   0.812s] ty_python_semantic::mdtest mdtest__narrow_match\n"
    "error: test run failed"
)
RUFF_NEXTEST_PASS = (
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 38.02s\n"
    "────────────\n    Starting 1874 tests across 6 binaries (22 tests skipped)\n"
    "────────────\n     Summary [  40.377s] 1874 tests run: 1874 passed, 22 skipped"
)
RUFF_PRECOMMIT = (
    "check for merge conflicts................................................Passed\n"
    "mdformat.................................................................Passed\n"
    "typos....................................................................Passed\n"
    "cargo fmt................................................................Failed\n"
    "- hook id: cargo-fmt\n- files were modified by this hook\n"
    "ruff.....................................................................Passed\n"
    "ruff-format..............................................................Passed"
)

RUFF_STORY = Story(
    id="ho-rs-ruff-ty-1",
    title="A linter/type-checker workspace: nextest and snapshots, a hook runner that moved "
          "from pre-commit to prek and then to per-file runs, ty rule and PR conventions",
    sources=("astral-sh/ruff",),
    project=RUFF,
    lessons=(
        lesson("nextest", "command",
               "Run tests with nextest: `cargo nextest run`, or `cargo nextest run -p "
               "ty_python_semantic` for one crate",
               "cargo nextest run"),
        lesson("insta-accept", "command",
               "Update snapshots after running tests with `cargo insta accept` (the agent "
               "cannot drive the interactive `cargo insta review`)",
               "cargo insta accept"),
        lesson("precommit", "command",
               "Always run `uvx pre-commit run -a` at the end of a task",
               "pre-commit run"),
        lesson("prek", "command",
               "Always run `uvx prek run -a` at the end of a task, after every rebase, after "
               "addressing any review comment, and before pushing",
               "prek run -a"),
        lesson("prek-files", "command",
               "Run `uv run --only-dev --locked prek run --files <paths>` passing every changed "
               "file (independent of staged state); `--all-files` only when a full sweep is "
               "needed",
               "prek", "--files"),
        lesson("snapshot-env", "command",
               "Run tests with INSTA_FORCE_PASS=1 INSTA_UPDATE=always MDTEST_UPDATE_SNAPSHOTS=1 "
               "so snapshots are regenerated, then review them; never edit snapshot files by "
               "hand",
               "INSTA_FORCE_PASS|MDTEST_UPDATE_SNAPSHOTS|INSTA_UPDATE"),
        lesson("ty-pr", "convention",
               "PRs that work on ty have titles starting with `[ty]` and the `ty` label",
               "[ty]", "title"),
        lesson("ty-next-version", "convention",
               "A new ty lint rule's status uses the next ty version (latest on PyPI plus one, "
               "e.g. 0.0.12 -> LintStatus::stable(\"0.0.13\"))",
               "LintStatus::stable|next ty version|next version", "rule"),
        lesson("tmp-repro", "gotcha",
               "Create ad hoc Python repro files outside the checkout (e.g. /tmp): inside it, ty "
               "picks up the root pyproject.toml's requires-python >=3.7 and infers Python 3.7",
               "/tmp|outside", "3.7|requires-python"),
        lesson("imports-top", "convention",
               "Rust imports always go at the top of the file, never locally in functions",
               "import", "top of the file|locally|inside functions|in functions"),
    ),
    also=(
        # session 1: "If you *have* to suppress a Clippy lint, prefer to use #[expect()] ..."
        lesson("also-expect", "convention",
               "When a Clippy lint must be suppressed, use #[expect()] rather than #[allow()]",
               "expect", "allow"),
        # session 1: "cargo clippy --workspace --all-targets --all-features -- -D warnings"
        lesson("also-clippy-cmd", "command",
               "Clippy runs as cargo clippy --workspace --all-targets --all-features -- -D "
               "warnings",
               "cargo clippy --workspace", "-D warnings"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: astral-sh/ruff PR #22370 (CLAUDE.md and its review comments)
            User("hi! there's a ty false positive with `match` value patterns, x should narrow to "
                 "Literal[1] in the case arm. can you fix it? for running tests: run all tests "
                 "using `nextest` for faster execution, `cargo nextest run`, or for one crate "
                 "`cargo nextest run -p ty_python_semantic`. it's the same as cargo test, the "
                 "only difference is the `run` subcommand.", states="nextest"),
            Bash("cargo nextest run -p ty_python_semantic", out=RUFF_MDTEST_FAIL, ok=False,
                 exit=100),
            Read("crates/ty_python_semantic/src/narrow.rs"),
            Say("The value-pattern narrowing returns the subject unchanged even for a literal "
                "value, so `x` stays `int`. It should intersect with the literal."),
            Edit("crates/ty_python_semantic/src/narrow.rs",
                 "    if value.is_literal() {\n        return subject;\n    }\n",
                 "    if value.is_literal() {\n        return subject.intersect(value);\n    }\n"),
            Bash("cargo nextest run -p ty_python_semantic", out=RUFF_NEXTEST_PASS),
            Say("Green. A few diagnostic snapshots changed too; should I open `cargo insta "
                "review`?"),
            # source: astral-sh/ruff PR #22370 review comments on CLAUDE.md
            User("you'll often need to update snapshots after running the tests, but I can't "
                 "remember if you can actually run `cargo insta review`, it's interactive. use "
                 "`cargo insta accept` instead. also: Always run `uvx pre-commit run -a` at the "
                 "end of a task. I don't have pre-commit installed globally anymore, I just "
                 "always run it that way.", states=("insta-accept", "precommit")),
            Bash("cargo insta accept",
                 out="insta review finished\naccepted:\n  crates/ty_python_semantic/src/types/"
                     "snapshots/ty_python_semantic__narrow__match_value.snap"),
            Bash("uvx pre-commit run -a", out=RUFF_PRECOMMIT, ok=False),
            Bash("uvx pre-commit run -a",
                 out=RUFF_PRECOMMIT.replace(
                     "Failed\n- hook id: cargo-fmt\n- files were modified by this hook",
                     "Passed")),
            Commit("[ty] Narrow `match` value patterns to the literal type"),
        )),
        Session(day=4, events=(
            # source: astral-sh/ruff CLAUDE.md ("Adding New ty Rules", "Pull Requests")
            User("next up: a new ty lint, `unsupported-dynamic-base`. When adding new ty lint "
                 "rules, the rule status should specify the next ty version (the version that "
                 "will be released after the current one). Check https://pypi.org/project/ty/ "
                 "to find the latest released version, then use the next version number. For "
                 "example, if the latest version is `0.0.12`, new rules should use "
                 "`status: LintStatus::stable(\"0.0.13\")`.", states="ty-next-version"),
            Bash("curl -s https://pypi.org/pypi/ty/json | jq -r .info.version", out="0.0.12"),
            Write("crates/ty_python_semantic/src/lint/unsupported_dynamic_base.rs",
                  "use crate::lint::LintStatus;\n\n"
                  "pub(crate) const STATUS: LintStatus = LintStatus::stable(\"0.0.13\");\n"),
            Bash("cargo clippy --workspace --all-targets --all-features -- -D warnings",
                 out="error: this function has too many arguments (8/7)\n"
                     "  --> crates/ty_python_semantic/src/lint/unsupported_dynamic_base.rs:12:1\n"
                     "   = help: for further information visit https://rust-lang.github.io/"
                     "rust-clippy/master/index.html#too_many_arguments\n"
                     "   = note: `-D clippy::too-many-arguments` implied by `-D warnings`\n"
                     "error: could not compile `ty_python_semantic` (lib) due to 1 previous "
                     "error", ok=False, exit=101),
            Say("Clippy flags `too_many_arguments` on the report helper. I can add "
                "`#[allow(clippy::too_many_arguments)]` or bundle the arguments into a struct."),
            # source: astral-sh/ruff CLAUDE.md (Development Guidelines)
            User("bundling is nicer, but if you *have* to suppress a Clippy lint, prefer to use "
                 "`#[expect()]` over `[allow()]`, where possible."),
            Bash("cargo nextest run -p ty_python_semantic", out=RUFF_NEXTEST_PASS),
            # source: astral-sh/ruff CLAUDE.md ("Pull Requests")
            User("great. push it as a draft, I'll write the description. When working on ty, PR "
                 "titles should start with `[ty]` and be tagged with the `ty` GitHub label.",
                 states="ty-pr"),
            Commit("[ty] Add unsupported-dynamic-base lint"),
        ), judge={"nextest": "not_down"}),
        Session(day=10, events=(
            # source: astral-sh/ruff CLAUDE.md (later version, after the prek switch)
            User("heads up, the hooks changed: Always run `uvx prek run -a` at the end of a "
                 "task, after every rebase, after addressing any review comment, and before "
                 "pushing any code.", states="prek", replaces="precommit"),
            User("can you check what ty says about this snippet from the issue? save it and run "
                 "ty on it:\n```py\ndef f(x: int | str):\n    match x:\n        case int():\n"
                 "            reveal_type(x)\n```"),
            Write("repro.py", "def f(x: int | str):\n    match x:\n        case int():\n"
                              "            reveal_type(x)\n"),
            Bash("cargo run --bin ty -- check repro.py",
                 out="error[invalid-syntax]: Cannot use `match` statement on Python 3.7 (syntax "
                     "was added in Python 3.10)\n --> repro.py:2:5\n"
                     "info: Python 3.7 was assumed when parsing syntax\n"
                     " --> pyproject.toml:4:19\n  |\n4 | requires-python = \">=3.7\"\n"
                     "  |                   ^^^^^^^ Python version inferred from the "
                     "`requires-python` field\nFound 1 diagnostic", ok=False),
            Say("ty parsed the file as Python 3.7: it found the repo's pyproject.toml."),
            # source: astral-sh/ruff AGENTS.md ("Ad hoc reproductions")
            User("yeah. When running ty against a temporary Python reproduction file, create it "
                 "outside the Ruff checkout (for example, under `/tmp`). A file inside the "
                 "checkout discovers Ruff's root `pyproject.toml`, whose `requires-python = "
                 "\">=3.7\"` causes ty to infer Python 3.7 as the default Python version.",
                 states="tmp-repro"),
            Bash("mkdir -p /tmp/ty-repro && mv repro.py /tmp/ty-repro/ && "
                 "cargo run --bin ty -- check /tmp/ty-repro/repro.py",
                 out="info[revealed-type]: Revealed type\n --> /tmp/ty-repro/repro.py:4:25\n"
                     "  |\n4 |             reveal_type(x)\n  |                         ^ `int`\n"
                     "Found 1 diagnostic"),
            User("matches what I see. ok that's all for today, thanks"),
        )),
        Session(day=17, events=(
            User("follow-up to the lint: make it fire on `type(name, bases, ns)` calls where "
                 "bases isn't a tuple literal."),
            Edit("crates/ty_python_semantic/src/narrow.rs",
                 "pub(crate) fn narrow_on_value_pattern",
                 "#[expect(clippy::needless_pass_by_value)]\n"
                 "pub(crate) fn narrow_on_value_pattern"),
            Probe("tests first - the narrowing crate only, don't build the whole world",
                  needs="nextest"),
            Bash("cargo nextest run -p ty_python_semantic", out=RUFF_NEXTEST_PASS),
            Probe("couple of snapshot diffs are expected from this, sort them out",
                  needs="insta-accept"),
            Bash("cargo insta accept", out="insta review finished\naccepted: 2 snapshots"),
            Probe("and now a second lint, `invalid-metaclass-keyword`. set up the rule "
                  "declaration like the last one", needs="ty-next-version"),
            Probe("I'm done reviewing - finish the task off properly and open the PR",
                  needs=("prek", "ty-pr")),
            Bash("uvx prek run -a", out=RUFF_PRECOMMIT.replace(
                "Failed\n- hook id: cargo-fmt\n- files were modified by this hook", "Passed")),
            Commit("[ty] Fire unsupported-dynamic-base on non-tuple bases"),
        ), judge={"prek": "not_down"}),
        Session(day=26, events=(
            # source: astral-sh/ruff AGENTS.md (later "Running Tests" and "Snapshot updates")
            User("new test workflow, the accept step kept hiding diffs nobody looked at. Run "
                 "all tests with `INSTA_FORCE_PASS=1 INSTA_UPDATE=always "
                 "MDTEST_UPDATE_SNAPSHOTS=1 cargo nextest run` to ensure all snapshots are "
                 "updated. After running the tests, always review the contents of any snapshots "
                 "that have been added or updated. Never edit snapshot files or inline snapshot "
                 "bodies manually.", states="snapshot-env", replaces="insta-accept"),
            Bash("INSTA_FORCE_PASS=1 INSTA_UPDATE=always MDTEST_UPDATE_SNAPSHOTS=1 "
                 "cargo nextest run -p ty_python_semantic", out=RUFF_NEXTEST_PASS),
            Bash("git status --short",
                 out=" M crates/ty_python_semantic/resources/mdtest/snapshots/"
                     "metaclass.md_-_Metaclass_keyword.snap"),
            Say("One snapshot regenerated: the new diagnostic's message. It reads correctly."),
            Edit("crates/ty_python_semantic/src/lint.rs",
                 "pub struct LintStatus;\n",
                 "pub struct LintStatus;\n\npub fn is_stable(status: &LintStatus) -> bool {\n"
                 "    use std::mem::size_of_val;\n    size_of_val(status) == 0\n}\n"),
            # source: astral-sh/ruff CLAUDE.md (later version, Development Guidelines)
            User("please hoist that `use`: Rust imports should always go at the top of the "
                 "file, never locally in functions.", states="imports-top"),
            Edit("crates/ty_python_semantic/src/lint.rs",
                 "pub struct LintStatus;\n\npub fn is_stable(status: &LintStatus) -> bool {\n"
                 "    use std::mem::size_of_val;\n",
                 "use std::mem::size_of_val;\n\npub struct LintStatus;\n\n"
                 "pub fn is_stable(status: &LintStatus) -> bool {\n"),
            Commit("[ty] Add invalid-metaclass-keyword lint"),
        )),
        Session(day=29, events=(
            User("can you rebase the metaclass branch on main? there were conflicts in "
                 "lint.rs last time I tried."),
            Bash("git rebase origin/main",
                 out="Successfully rebased and updated refs/heads/metaclass-keyword."),
            # source: astral-sh/ruff AGENTS.md (later version, Development Guidelines)
            User("thanks. last process change for a while, promise: Run `uv run --only-dev "
                 "--locked prek` at the end of a task if you changed files in the repo. This "
                 "includes changes such as rebases or addressing review comments. Use `uv run "
                 "--only-dev --locked prek run --files <path1> <path2>` and pass every file you "
                 "changed. This keeps the hook run independent of staged state and avoids "
                 "sweeping unrelated changes. Use `prek run --all-files` only when a "
                 "full-repository hook sweep is specifically needed.",
                 states="prek-files", replaces="prek"),
            Bash("uv run --only-dev --locked prek run --files "
                 "crates/ty_python_semantic/src/lint.rs",
                 out="cargo fmt................................................................"
                     "Passed\ntypos...................................................."
                     "................Passed"),
        )),
        Session(day=33, events=(
            User("today: the metaclass lint misses `class C(metaclass=M, **kw)`. fix that."),
            Edit("crates/ty_python_semantic/src/narrow.rs",
                 "    subject\n}\n",
                 "    subject\n}\n\npub(crate) fn has_metaclass_keyword(keywords: &[&str]) -> "
                 "bool {\n    keywords.iter().any(|keyword| *keyword == \"metaclass\")\n}\n"),
            Probe("the helper needs a HashSet now for the keyword lookup, add it",
                  needs="imports-top"),
            Probe("run the ty tests and regenerate whatever snapshots this touches",
                  needs=("snapshot-env", "nextest")),
            Probe("then run the hooks before you push", needs="prek-files"),
            Bash("uv run --only-dev --locked prek run --files "
                 "crates/ty_python_semantic/src/narrow.rs",
                 out="cargo fmt................................................................"
                     "Passed\ntypos...................................................."
                     "................Passed"),
            Probe("I also want to poke at a snippet from the bug report myself, where should I "
                  "put it so ty behaves like for a user?", needs="tmp-repro"),
            Commit("[ty] Detect metaclass keyword alongside **kwargs"),
        ), judge={"prek-files": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 3. A GPUI panel crate in an editor workspace (zed-industries/zed .rules / CLAUDE.md history,
#    PR #22158 and #24198)
# ---------------------------------------------------------------------------------------------

ZED = Project("zed", "rust", {
    "Cargo.toml": (
        '[workspace]\nresolver = "2"\nmembers = ["crates/gpui", "crates/todo_panel", '
        '"crates/util"]\n\n[workspace.dependencies]\nanyhow = "1.0.86"\nserde = { version = '
        '"1.0", features = ["derive"] }\nschemars = "0.8"\n'
    ),
    "script/clippy": (
        "#!/usr/bin/env bash\n\nset -euo pipefail\n\n"
        "if [[ ! \" $* \" == *\" -p \"* && ! \" $* \" == *\" --package \"* ]]; then\n"
        "    set -- \"$@\" --workspace\nfi\n\n"
        "cargo clippy \"$@\" --release --all-targets --all-features -- --deny warnings\n"
    ),
    "crates/todo_panel/Cargo.toml": (
        '[package]\nname = "todo_panel"\nversion = "0.1.0"\nedition = "2021"\npublish = false\n\n'
        '[lib]\npath = "src/todo_panel.rs"\n\n[dependencies]\nanyhow.workspace = true\n'
        'gpui = { path = "../gpui" }\nserde.workspace = true\nschemars.workspace = true\n'
        'util = { path = "../util" }\n'
    ),
    "crates/todo_panel/src/todo_panel.rs": (
        "use gpui::{div, AppContext, IntoElement, Model, ParentElement, Render, View, "
        "ViewContext};\n\n"
        "pub struct TodoStore {\n    pub items: Vec<String>,\n}\n\n"
        "pub struct TodoPanel {\n    store: Model<TodoStore>,\n}\n\n"
        "impl TodoPanel {\n"
        "    pub fn new(cx: &mut ViewContext<Self>) -> Self {\n"
        "        let store = cx.new_model(|_| TodoStore { items: Vec::new() });\n"
        "        Self { store }\n    }\n}\n\n"
        "impl Render for TodoPanel {\n"
        "    fn render(&mut self, cx: &mut ViewContext<Self>) -> impl IntoElement {\n"
        "        let count = self.store.read(cx).items.len();\n"
        "        div().child(format!(\"{count} todos\"))\n    }\n}\n\n"
        "pub fn init(cx: &mut AppContext) -> View<TodoPanel> {\n"
        "    cx.new_view(TodoPanel::new)\n}\n"
    ),
    "crates/todo_panel/src/persistence.rs": (
        "use std::path::PathBuf;\n\n"
        "pub async fn save_items(path: PathBuf, items: Vec<String>) -> anyhow::Result<()> {\n"
        "    smol::fs::write(path, items.join(\"\\n\")).await?;\n    Ok(())\n}\n"
    ),
    "crates/todo_panel/src/todo_panel_tests.rs": (
        "use super::*;\nuse gpui::TestAppContext;\n\n"
        "#[gpui::test]\nfn test_empty_panel(cx: &mut TestAppContext) {\n"
        "    let panel = cx.update(init);\n"
        "    panel.read_with(cx, |panel, cx| assert!(panel.store.read(cx).items.is_empty()));\n}\n"
    ),
})

ZED_CHECK_GPUI3 = (
    "    Checking todo_panel v0.1.0 (/work/zed/crates/todo_panel)\n"
    "error[E0432]: unresolved imports `gpui::AppContext`, `gpui::Model`, `gpui::View`, "
    "`gpui::ViewContext`\n"
    " --> crates/todo_panel/src/todo_panel.rs:1:18\n  |\n"
    "1 | use gpui::{div, AppContext, IntoElement, Model, ParentElement, Render, View, "
    "ViewContext};\n"
    "  |                 ^^^^^^^^^^               ^^^^^ no `Model` in the root\n"
    "error[E0599]: no method named `new_model` found for mutable reference "
    "`&mut Context<'_, TodoPanel>` in the current scope\n"
    "  --> crates/todo_panel/src/todo_panel.rs:13:24\n"
    "error: could not compile `todo_panel` (lib) due to 6 previous errors"
)

ZED_STORY = Story(
    id="ho-rs-zed-gpui-1",
    title="A GPUI panel crate in an editor workspace: the Model/View API replaced by Entity, "
          "actions moving to a derive, task cancellation, error-discarding and file layout "
          "rules",
    sources=("zed-industries/zed",),
    project=ZED,
    lessons=(
        lesson("script-clippy", "command",
               "Lint with `./script/clippy` instead of `cargo clippy`",
               "script/clippy"),
        lesson("no-modrs", "convention",
               "Never create files with mod.rs paths: use src/some_module.rs, not "
               "src/some_module/mod.rs",
               "mod.rs"),
        lesson("model-view", "convention",
               "GPUI state lives in a Model<T> made with cx.new_model; views are View<T> made "
               "with cx.new_view and their methods take cx: &mut ViewContext<Self>",
               "Model<T>|new_model", "ViewContext|View<T>"),
        lesson("entity-api", "decision",
               "GPUI 3 API: use Entity<T> (replaces Model<T> and View<T>), App (replaces "
               "AppContext), Context<T> (replaces ModelContext<T>), pass Window explicitly "
               "(WindowContext/ViewContext are gone), and cx.spawn takes async closures",
               "Entity<T>", "Window|App|Context<T>"),
        lesson("task-drop", "gotcha",
               "A dropped gpui Task cancels its work: await it, call .detach() / "
               ".detach_and_log_err(cx), or store it in a field",
               "Task|task", "detach|dropped|cancel"),
        lesson("impl-actions", "convention",
               "Actions with data implement Clone, Default, PartialEq, Deserialize, JsonSchema "
               "and are registered with impl_actions!",
               "impl_actions"),
        lesson("action-derive", "convention",
               "Actions with data use the `Action` derive macro (impl_actions! is gone); "
               "data-less actions still use actions!; doc comments on actions are shown to "
               "users",
               "derive macro|Action derive|derive(Action|, Action)", "Action"),
        lesson("let-underscore", "convention",
               "Never silently discard errors with `let _ =` on fallible operations: propagate "
               "with ?, use .log_err() to ignore visibly, or match explicitly",
               "let _ =", "log_err|propagate|discard"),
        lesson("lib-path", "convention",
               "New crates set the library root in Cargo.toml with [lib] path = \"<crate>.rs\" "
               "instead of the default lib.rs",
               "[lib]|lib.rs", "path"),
    ),
    also=(
        # session 3: "Use full words for variable names (no abbreviations like "q" for "queue")"
        lesson("also-full-words", "convention",
               "Use full words for variable names, no abbreviations like q for queue",
               "full words", "abbreviation"),
        # session 0: "Within the closures, the inner `cx` provided to the closure must be used"
        lesson("also-inner-cx", "gotcha",
               "Inside update/read_with closures use the inner cx, not the outer one, to avoid "
               "multiple borrows",
               "inner", "cx"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hey, I started a todo panel crate in crates/todo_panel. can you add a "
                 "`toggle_done` method and split persistence into its own module folder like "
                 "src/store/mod.rs?"),
            Read("crates/todo_panel/src/todo_panel.rs"),
            # source: zed-industries/zed crates code before PR #22632 (Model<T>, new_model,
            # View<T>, ViewContext) and PR #22158
            User("before you touch it, how the gpui code in this tree works: state is a "
                 "`Model<T>`, you create it with `cx.new_model(|cx| ...)`; views are `View<T>` "
                 "made with `cx.new_view`, and their methods take `cx: &mut ViewContext<Self>`. "
                 "follow that. also, the folder idea: Never create files with `mod.rs` paths - "
                 "prefer `src/some_module.rs` instead of `src/some_module/mod.rs`.",
                 states=("model-view", "no-modrs")),
            Say("OK - no `store/mod.rs`; persistence stays in `src/persistence.rs`. I'll add "
                "`toggle_done` on the view with a `ViewContext<Self>`."),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "impl TodoPanel {\n",
                 "impl TodoPanel {\n"
                 "    pub fn toggle_done(&mut self, index: usize, cx: &mut ViewContext<Self>) {\n"
                 "        self.store.update(cx, |store, cx| {\n"
                 "            if let Some(item) = store.items.get_mut(index) {\n"
                 "                item.insert_str(0, \"[x] \");\n            }\n"
                 "            cx.notify();\n        });\n    }\n\n"),
            # source: zed-industries/zed .rules ("Entities")
            User("looks fine. note for later: Within the closures, the inner `cx` provided to "
                 "the closure must be used instead of the outer `cx` to avoid issues with "
                 "multiple borrows. you did that right."),
            Bash("cargo clippy -p todo_panel",
                 out="    Checking todo_panel v0.1.0 (/work/zed/crates/todo_panel)\n"
                     "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 6.11s"),
            # source: zed-industries/zed .rules ("General guidelines") and CLAUDE.md
            User("Use `./script/clippy` instead of `cargo clippy`, please. CI runs that one with "
                 "deny warnings, plain cargo clippy won't catch what it catches.",
                 states="script-clippy"),
            Bash("./script/clippy -p todo_panel",
                 out="    Checking todo_panel v0.1.0 (/work/zed/crates/todo_panel)\n"
                     "    Finished `release` profile [optimized] target(s) in 1m 02s"),
            Commit("todo_panel: Add toggle_done"),
        )),
        Session(day=5, events=(
            User("saving is broken: I toggle an item, and the file on disk never changes. the "
                 "save is kicked off in toggle_done"),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "            cx.notify();\n        });\n    }\n",
                 "            cx.notify();\n        });\n"
                 "        let items = self.store.read(cx).items.clone();\n"
                 "        let _save = cx.background_executor().spawn(\n"
                 "            persistence::save_items(\"todos.txt\".into(), items));\n    }\n"),
            Bash("cargo test -p todo_panel test_toggle_persists",
                 out="running 1 test\ntest todo_panel_tests::test_toggle_persists ... FAILED\n\n"
                     "---- todo_panel_tests::test_toggle_persists stdout ----\n"
                     "thread 'todo_panel_tests::test_toggle_persists' panicked at "
                     "crates/todo_panel/src/todo_panel_tests.rs:21:5:\n"
                     "assertion `left == right` failed\n  left: \"\"\n right: \"[x] buy milk\"\n"
                     "test result: FAILED. 0 passed; 1 failed", ok=False, exit=101),
            Say("The save task is bound to `_save` and dropped at the end of `toggle_done`, so "
                "its work never runs."),
            # source: zed-industries/zed .rules ("Concurrency")
            User("right. Both `cx.spawn` and `cx.background_spawn` return a `Task<R>`, which is "
                 "a future that can be awaited upon. If this task is dropped, then its work is "
                 "cancelled. To prevent this one of the following must be done: awaiting the "
                 "task in some other async context, detaching the task via `task.detach()` or "
                 "`task.detach_and_log_err(cx)`, allowing it to run indefinitely, or storing "
                 "the task in a field, if the work should be halted when the struct is "
                 "dropped.", states="task-drop"),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "        let _save = cx.background_executor().spawn(\n"
                 "            persistence::save_items(\"todos.txt\".into(), items));\n",
                 "        cx.background_executor()\n"
                 "            .spawn(persistence::save_items(\"todos.txt\".into(), items))\n"
                 "            .detach_and_log_err(cx);\n"),
            Bash("cargo test -p todo_panel test_toggle_persists",
                 out="running 1 test\ntest todo_panel_tests::test_toggle_persists ... ok\n"
                     "test result: ok. 1 passed; 0 failed"),
            User("nice. one more: a `MoveItem { from: usize, to: usize }` action for drag "
                 "reordering."),
            # source: zed-industries/zed .rules (first version, "Actions")
            User("Actions which have no data inside are created and registered with the "
                 "`actions!(some_namespace, [SomeAction, AnotherAction])` macro call. Actions "
                 "that do have data must implement `Clone, Default, PartialEq, Deserialize, "
                 "JsonSchema` and can be registered with an `impl_actions!(some_namespace, "
                 "[SomeActionWithData])` macro call.", states="impl-actions"),
            Write("crates/todo_panel/src/actions.rs",
                  "use gpui::impl_actions;\nuse schemars::JsonSchema;\nuse serde::Deserialize;\n\n"
                  "#[derive(Clone, Default, PartialEq, Deserialize, JsonSchema)]\n"
                  "pub struct MoveItem {\n    pub from: usize,\n    pub to: usize,\n}\n\n"
                  "impl_actions!(todo_panel, [MoveItem]);\n"),
            Commit("todo_panel: Persist toggles and add MoveItem"),
        ), judge={"script-clippy": "not_down"}),
        Session(day=12, events=(
            User("I rebased on main and the gpui3 refactor landed, todo_panel doesn't compile "
                 "anymore."),
            Bash("./script/clippy -p todo_panel", out=ZED_CHECK_GPUI3, ok=False, exit=101),
            # source: zed-industries/zed .rules ("Recent API changes")
            User("yep, expected. GPUI has had some changes to its APIs. Always write code using "
                 "the new APIs: `spawn` methods now take async closures (`AsyncFn`), and so "
                 "should be called like `cx.spawn(async move |cx| ...)`. Use `Entity<T>`. This "
                 "replaces `Model<T>` and `View<T>` which no longer exist and should NEVER be "
                 "used. Use `App` references. This replaces `AppContext`. Use `Context<T>` "
                 "references. This replaces `ModelContext<T>`. `Window` is now passed around "
                 "explicitly. The old types `WindowContext` and `ViewContext<T>` should NEVER be "
                 "used.", states="entity-api", replaces="model-view"),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "use gpui::{div, AppContext, IntoElement, Model, ParentElement, Render, View, "
                 "ViewContext};\n",
                 "use gpui::{div, App, AppContext as _, Context, Entity, IntoElement, "
                 "ParentElement, Render, Window};\n"),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "    store: Model<TodoStore>,\n", "    store: Entity<TodoStore>,\n"),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "    pub fn new(cx: &mut ViewContext<Self>) -> Self {\n"
                 "        let store = cx.new_model(|_| TodoStore { items: Vec::new() });\n",
                 "    pub fn new(_window: &mut Window, cx: &mut Context<Self>) -> Self {\n"
                 "        let store = cx.new(|_| TodoStore { items: Vec::new() });\n"),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "    fn render(&mut self, cx: &mut ViewContext<Self>) -> impl IntoElement {\n",
                 "    fn render(&mut self, _window: &mut Window, cx: &mut Context<Self>) -> "
                 "impl IntoElement {\n"),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "    pub fn toggle_done(&mut self, index: usize, cx: &mut ViewContext<Self>) {\n",
                 "    pub fn toggle_done(&mut self, index: usize, cx: &mut Context<Self>) {\n"),
            Edit("crates/todo_panel/src/todo_panel.rs",
                 "pub fn init(cx: &mut AppContext) -> View<TodoPanel> {\n"
                 "    cx.new_view(TodoPanel::new)\n}\n",
                 "pub fn init(window: &mut Window, cx: &mut App) -> Entity<TodoPanel> {\n"
                 "    cx.new(|cx| TodoPanel::new(window, cx))\n}\n"),
            Bash("./script/clippy -p todo_panel",
                 out="    Checking todo_panel v0.1.0 (/work/zed/crates/todo_panel)\n"
                     "    Finished `release` profile [optimized] target(s) in 58.30s"),
            # source: zed-industries/zed PR #24198 description
            User("also rename the leftover `model` variables to `entity`, some of the old "
                 "functions and variables were still using the gpui::model name that was "
                 "deprecated during the gpui3 transition."),
            Commit("todo_panel: Port to gpui3 Entity/Context/Window APIs"),
        )),
        Session(day=18, events=(
            User("reviewer left a comment on the sync PR, have a look at `push_remote`."),
            Edit("crates/todo_panel/src/persistence.rs",
                 "pub async fn save_items",
                 "pub async fn push_remote(client: &util::Client, items: &[String]) {\n"
                 "    let _ = client.request(\"todos/push\", items).await;\n}\n\n"
                 "pub async fn save_items"),
            # source: zed-industries/zed .rules / CLAUDE.md (later "Rust coding guidelines")
            User("this is what they flagged. Never silently discard errors with `let _ =` on "
                 "fallible operations. Always handle errors appropriately: propagate errors "
                 "with `?` when the calling function should handle them, use `.log_err()` or "
                 "similar when you need to ignore errors but want visibility, use explicit "
                 "error handling with `match` or `if let Err(...)` when you need custom logic.",
                 states="let-underscore"),
            Edit("crates/todo_panel/src/persistence.rs",
                 "pub async fn push_remote(client: &util::Client, items: &[String]) {\n"
                 "    let _ = client.request(\"todos/push\", items).await;\n}\n",
                 "pub async fn push_remote(client: &util::Client, items: &[String]) -> "
                 "anyhow::Result<()> {\n    client.request(\"todos/push\", items).await?;\n"
                 "    Ok(())\n}\n"),
            User("and the sync code should live in its own crate, `todo_sync`, so the panel "
                 "doesn't pull in the http stack. scaffold it?"),
            # source: zed-industries/zed CLAUDE.md (later "Rust Coding Guidelines")
            User("When creating new crates, prefer specifying the library root path in "
                 "`Cargo.toml` using `[lib] path = \"...rs\"` instead of the default `lib.rs`, "
                 "to maintain consistent and descriptive naming. oh and Use full words for "
                 "variable names (no abbreviations like \"q\" for \"queue\"), I saw a `q` in "
                 "there.", states="lib-path"),
            Write("crates/todo_sync/Cargo.toml",
                  '[package]\nname = "todo_sync"\nversion = "0.1.0"\nedition = "2021"\n'
                  'publish = false\n\n[lib]\npath = "src/todo_sync.rs"\n\n[dependencies]\n'
                  'anyhow.workspace = true\nutil = { path = "../util" }\n'),
            Write("crates/todo_sync/src/todo_sync.rs",
                  "pub async fn push_all(queue: Vec<String>) -> anyhow::Result<()> {\n"
                  "    for item in queue {\n        log::info!(\"pushing {item}\");\n    }\n"
                  "    Ok(())\n}\n"),
            Commit("Add todo_sync crate; stop discarding push errors"),
        )),
        Session(day=25, events=(
            User("main moved again, actions.rs broke."),
            Bash("./script/clippy -p todo_panel",
                 out="error: cannot find macro `impl_actions` in this scope\n"
                     " --> crates/todo_panel/src/actions.rs:11:1\n   |\n"
                     "11 | impl_actions!(todo_panel, [MoveItem]);\n   | ^^^^^^^^^^^^\n"
                     "error[E0432]: unresolved import `gpui::impl_actions`\n"
                     "error: could not compile `todo_panel` (lib) due to 2 previous errors",
                 ok=False, exit=101),
            # source: zed-industries/zed CLAUDE.md (later "Actions")
            User("impl_actions! is gone. Actions with no data defined with the "
                 "`actions!(some_namespace, [SomeAction, AnotherAction])` macro call. Otherwise "
                 "the `Action` derive macro is used. Doc comments on actions are displayed to "
                 "the user.", states="action-derive", replaces="impl-actions"),
            Write("crates/todo_panel/src/actions.rs",
                  "use gpui::Action;\nuse schemars::JsonSchema;\nuse serde::Deserialize;\n\n"
                  "/// Moves a todo from one position to another.\n"
                  "#[derive(Clone, Default, PartialEq, Deserialize, JsonSchema, Action)]\n"
                  "#[action(namespace = todo_panel)]\n"
                  "pub struct MoveItem {\n    pub from: usize,\n    pub to: usize,\n}\n"),
            Bash("./script/clippy -p todo_panel",
                 out="    Finished `release` profile [optimized] target(s) in 49.77s"),
            Commit("todo_panel: Use the Action derive for MoveItem"),
        )),
        Session(day=32, events=(
            User("planning the next bits: a details pane for a selected todo, an `Archive` "
                 "action that carries the todo id, a periodic remote sync, and tests."),
            Probe("start with the details pane: a new view that holds the selected todo and "
                  "renders its text", needs="entity-api"),
            Write("crates/todo_panel/src/details_pane.rs",
                  "use gpui::{div, Context, IntoElement, ParentElement, Render, Window};\n\n"
                  "pub struct DetailsPane {\n    pub text: String,\n}\n\n"
                  "impl Render for DetailsPane {\n"
                  "    fn render(&mut self, _window: &mut Window, _cx: &mut Context<Self>) -> "
                  "impl IntoElement {\n        div().child(self.text.clone())\n    }\n}\n"),
            Probe("now the Archive action with the todo id in it", needs="action-derive"),
            Probe("the periodic sync: kick it off from TodoPanel::new and have it push every 5 "
                  "minutes", needs="task-drop"),
            Probe("sync failures shouldn't crash anything, but I don't want them swallowed "
                  "either", needs="let-underscore"),
            Probe("the details pane is getting big, split its layout helpers into a "
                  "submodule", needs="no-modrs"),
            Probe("lint it the way CI will before I push", needs="script-clippy"),
            Bash("./script/clippy -p todo_panel",
                 out="    Finished `release` profile [optimized] target(s) in 51.02s"),
            Commit("todo_panel: Add details pane"),
        ), judge={"entity-api": "not_down", "script-clippy": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 4. A terminal UI widget library (ratatui/ratatui CONTRIBUTING.md history: squash rule dropped,
#    pre-push hooks removed, cargo-make replaced by cargo-xtask, nightly rustfmt note)
# ---------------------------------------------------------------------------------------------

RATATUI = Project("ratatui", "rust", {
    "Cargo.toml": (
        '[package]\nname = "ratatui"\nversion = "0.26.2"\nedition = "2021"\n'
        'rust-version = "1.74.0"\n\n[dependencies]\nunicode-width = "0.1"\n\n'
        '[dev-dependencies]\ncargo-husky = { version = "1.5.0", default-features = false, '
        'features = ["user-hooks"] }\npretty_assertions = "1.4.0"\n'
    ),
    "Makefile.toml": (
        "# configuration for https://github.com/sagiegurari/cargo-make\n\n[config]\n"
        "skip_core_tasks = true\n\n[tasks.ci]\ndescription = \"Run continuous integration "
        "tasks\"\ndependencies = [\"lint\", \"clippy\", \"check\", \"test\"]\n\n"
        "[tasks.format]\ndescription = \"Fix code formatting\"\ntoolchain = \"nightly\"\n"
        "command = \"cargo\"\nargs = [\"fmt\", \"--all\"]\n"
    ),
    "rustfmt.toml": (
        "# configuration for https://rust-lang.github.io/rustfmt/\n\n"
        "use_field_init_shorthand = true\n\n# unstable options\ncomment_width = 100\n"
        "format_code_in_doc_comments = true\ngroup_imports = \"StdExternalCrate\"\n"
        "imports_granularity = \"Module\"\nwrap_comments = true\n"
    ),
    ".cargo-husky/hooks/pre-push": (
        "#!/usr/bin/env bash\n\n"
        "if !(command cargo-make >/dev/null 2>&1); then # Check if cargo-make is installed\n"
        "    echo Attempting to run cargo-make as part of the pre-push hook but it\\'s not "
        "installed.\n    exit 1\nfi\n\ncargo make ci\n"
    ),
    "src/lib.rs": "pub mod buffer;\npub mod widgets;\n",
    "src/widgets.rs": "mod gauge;\n\npub use gauge::Gauge;\n",
    "src/widgets/gauge.rs": (
        "use crate::buffer::Buffer;\nuse crate::layout::Rect;\n\n"
        "/// A widget to display a task progress.\n#[derive(Debug, Default, Clone)]\n"
        "pub struct Gauge {\n    ratio: f64,\n}\n\nimpl Gauge {\n"
        "    pub fn ratio(mut self, ratio: f64) -> Self {\n        self.ratio = ratio;\n"
        "        self\n    }\n}\n"
    ),
})

RATATUI_STABLE_FMT = (
    "Warning: can't set `comment_width = 100`, unstable features are only available in nightly "
    "channel.\nWarning: can't set `format_code_in_doc_comments = true`, unstable features are "
    "only available in nightly channel.\nWarning: can't set `group_imports = StdExternalCrate`, "
    "unstable features are only available in nightly channel.\nWarning: can't set "
    "`imports_granularity = Module`, unstable features are only available in nightly channel.\n"
    "Warning: can't set `wrap_comments = true`, unstable features are only available in "
    "nightly channel.\nDiff in /work/ratatui/src/widgets/meter.rs:1:\n"
    "-use crate::{buffer::Buffer, layout::Rect};\n+use crate::buffer::Buffer;\n"
    "+use crate::layout::Rect;\nError: cargo fmt --all --check failed"
)
RATATUI_CI_PASS = (
    "running cargo fmt --all --check\nrunning typos\nrunning cargo clippy --all-targets "
    "--all-features -- -D warnings\n    Finished `dev` profile [unoptimized + debuginfo] "
    "target(s) in 21.30s\nrunning cargo test --all-features\n"
    "test result: ok. 1148 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
    "finished in 0.91s\n   Doc-tests ratatui\n"
    "test result: ok. 512 passed; 0 failed; 3 ignored; 0 measured; 0 filtered out; "
    "finished in 14.07s"
)

RATATUI_STORY = Story(
    id="ho-rs-ratatui-widgets-1",
    title="A TUI widget library: conventional commits and TestBackend tests, the squash rule "
          "and pre-push hooks dropped, cargo-make replaced by cargo xtask, nightly rustfmt",
    sources=("ratatui/ratatui",),
    project=RATATUI,
    lessons=(
        lesson("conv-commits", "convention",
               "Commits follow conventional commits (checked as a lint build step; Commitizen "
               "with .cz.toml helps), with a title that explains the change for the CHANGELOG",
               "conventional commit"),
        lesson("squash", "convention",
               "Squash formatting-only and review-fix commits before merge; aim for a single "
               "commit per PR",
               "squash", "single commit|one commit|commits"),
        lesson("no-squash", "decision",
               "Squashing PR commits is no longer required: GitHub squashes commits when merging",
               "squash", "no longer|not required|don't need|github squashes|when merging"),
        lesson("prepush-hook", "fact",
               "A cargo-husky pre-push hook runs `cargo make ci` before each push (skip with "
               "`git push --no-verify`)",
               "cargo-husky|pre-push|--no-verify"),
        lesson("make-ci", "command",
               "Run `cargo make ci` before pushing to get the same checks as CI (not mandatory)",
               "cargo make ci"),
        lesson("make-format", "command",
               "Run `cargo make format` before committing (rustfmt with rustfmt.toml)",
               "cargo make format"),
        lesson("xtask-ci", "command",
               "Run `cargo xtask ci` before pushing to get the same checks as CI",
               "cargo xtask ci"),
        lesson("xtask-format", "command",
               "Run `cargo xtask format` before committing",
               "cargo xtask format"),
        lesson("nightly-fmt", "gotcha",
               "rustfmt.toml uses unstable options, so formatting needs a nightly toolchain "
               "(`rustup install nightly`); on stable rustfmt warns and the format check fails",
               "nightly", "unstable|rustfmt"),
        lesson("testbackend", "convention",
               "Test widgets against TestBackend / the rendered buffer, and prefer unit and doc "
               "tests in the widget's own file over integration tests in tests/",
               "TestBackend", "unit test|in the code file|same file|tests/"),
    ),
    also=(
        # session 4: "We generally want to wait at least two versions before removing
        # deprecated items"
        lesson("also-deprecation", "decision",
               "Deprecated items stay for at least two versions before removal",
               "deprecat", "two versions"),
        # session 0: "Every public API **must** be documented."
        lesson("also-doc-public", "convention",
               "Every public API must be documented",
               "public API", "document"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hi, I'd like a small `Meter` widget: a label plus a bar, like gauge but one "
                 "line. put it in src/widgets/meter.rs. Every public API **must** be "
                 "documented, btw."),
            # source: ratatui/ratatui CONTRIBUTING.md (Tests section, 2024)
            User("for tests: one of the most valuable test you can write for Ratatui is a test "
                 "against the `TestBackend`. It allows you to assert the content of the output "
                 "buffer that would have been flushed to the terminal after a given draw call. "
                 "When writing tests, generally prefer to write unit tests and doc tests "
                 "directly in the code file being tested rather than integration tests in the "
                 "`tests/` folder.", states="testbackend"),
            Write("src/widgets/meter.rs",
                  "use crate::buffer::Buffer;\nuse crate::layout::Rect;\n\n"
                  "/// A one-line widget showing a label and a filled bar.\n"
                  "#[derive(Debug, Default, Clone)]\npub struct Meter<'a> {\n"
                  "    label: &'a str,\n    ratio: f64,\n}\n\n"
                  "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n"
                  "    fn renders_label_and_bar() {\n"
                  "        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));\n"
                  "        Meter { label: \"cpu\", ratio: 0.5 }.render(buf.area, &mut buf);\n"
                  "        assert_eq!(buf, Buffer::with_lines([\"cpu ███   \"]));\n    }\n}\n"),
            Edit("src/widgets.rs", "mod gauge;\n", "mod gauge;\nmod meter;\n"),
            # source: ratatui/ratatui CONTRIBUTING.md (Code formatting; Run CI tests before
            # pushing a PR, cargo-husky era)
            User("good. Run `cargo make format` before committing to ensure that code is "
                 "consistently formatted with rustfmt. Configuration is in `rustfmt.toml`. and "
                 "heads-up: we're using cargo-husky to automatically run git hooks, which will "
                 "run `cargo make ci` before each push. If you need to skip this check, you can "
                 "use `git push --no-verify`.", states=("make-format", "prepush-hook")),
            Bash("cargo make format",
                 out="[cargo-make] INFO - cargo make 0.37.9\n[cargo-make] INFO - Task: format\n"
                     "[cargo-make] INFO - Execute Command: \"rustup\" \"run\" \"nightly\" "
                     "\"cargo\" \"fmt\" \"--all\"\n[cargo-make] INFO - Build Done in 1.82 "
                     "seconds."),
            # source: ratatui/ratatui CONTRIBUTING.md (Use conventional commits; Clean up your
            # commits)
            User("and commits: we use conventional commits and check for them as a lint build "
                 "step. Your commit messages should have enough information to help someone "
                 "reading the CHANGELOG understand what is new just from the title. Every "
                 "commit will end up as a line in the changelog, so please squash commits that "
                 "are only formatting or incremental fixes to things brought up as part of the "
                 "PR review. Aim for a single commit.", states=("conv-commits", "squash")),
            Commit("feat(widgets): add Meter widget for one-line labelled bars"),
        )),
        Session(day=6, events=(
            User("review came back on the meter PR: the bar should use the `█` block only when "
                 "ratio > 0, and clamp ratio to 0..=1."),
            Edit("src/widgets/meter.rs",
                 "/// A one-line widget showing a label and a filled bar.\n",
                 "/// A one-line widget showing a label and a filled bar.\n///\n"
                 "/// The ratio is clamped to `0.0..=1.0`.\n"),
            Bash("cargo test --lib widgets::meter",
                 out="running 1 test\ntest widgets::meter::tests::renders_label_and_bar ... ok\n"
                     "test result: ok. 1 passed; 0 failed"),
            Commit("fix(meter): clamp ratio to 0..=1"),
            # source: ratatui/ratatui PR #874 ("remove part about squashing commits")
            User("oh, don't bother squashing that into the first commit. we removed the part "
                 "about squashing commits from the CONTRIBUTING file. We no longer require that "
                 "because github squashes commits when merging.",
                 states="no-squash", replaces="squash"),
            User("also, just for this PR, skip the termion feature check locally, my machine "
                 "doesn't have it set up. normal rules next time."),
        )),
        Session(day=13, events=(
            # source: ratatui/ratatui PR #1115 ("build: remove pre-push hooks")
            User("fyi we removed the pre-push hooks (cargo-husky is out of the dev-deps). "
                 "Running `cargo make ci` before pushing will perform the same checks that we "
                 "do in the CI process. It's not mandatory to do this before pushing, however "
                 "it may save you time to do so instead of waiting for GitHub to run the "
                 "checks.", states="make-ci", replaces="prepush-hook"),
            Edit("Cargo.toml",
                 'cargo-husky = { version = "1.5.0", default-features = false, '
                 'features = ["user-hooks"] }\n', ""),
            Commit("build: remove pre-push hooks"),
            User("next: the meter needs an optional style for the filled part."),
            Edit("src/widgets/meter.rs",
                 "    label: &'a str,\n    ratio: f64,\n",
                 "    label: &'a str,\n    ratio: f64,\n    filled_style: Style,\n"),
            Probe("tidy the formatting before you commit", needs="make-format"),
            Bash("cargo make format",
                 out="[cargo-make] INFO - Task: format\n[cargo-make] INFO - Build Done in 1.64 "
                     "seconds."),
            Probe("there are three fixup commits on the branch now, do I need to clean them up "
                  "before pushing?", needs="no-squash"),
            Probe("commit it", needs="conv-commits"),
            Commit("feat(meter): add filled_style"),
        ), judge={"make-format": "not_down"}),
        Session(day=21, events=(
            # source: ratatui/ratatui PR #1509 ("docs(contributing): use cargo-xtask for
            # instructions", removes Makefile.toml)
            User("big one: Makefile.toml is gone, common tasks are managed with cargo-xtask "
                 "now. Run `cargo xtask format` before committing to ensure that code is "
                 "consistently formatted, and running `cargo xtask ci` before pushing will "
                 "perform the same checks that we do in the CI process. Building is just "
                 "`cargo xtask build`.",
                 states=("xtask-format", "xtask-ci"), replaces=("make-format", "make-ci")),
            Edit("Makefile.toml",
                 "# configuration for https://github.com/sagiegurari/cargo-make\n",
                 "# deprecated: tasks moved to xtask/ (cargo xtask --help)\n"),
            Bash("cargo xtask --help",
                 out="Usage: xtask <COMMAND>\n\nCommands:\n  build     Build the project\n"
                     "  ci        Run CI checks (lint, build, test)\n"
                     "  format    Format the code\n  lint      Run lints\n"
                     "  test      Run tests\n  help      Print this message"),
            User("cool. can you add a `Meter::percent_label` that shows `50%` instead of the "
                 "label?"),
            Edit("src/widgets/meter.rs",
                 "#[cfg(test)]\n",
                 "impl<'a> Meter<'a> {\n    /// Shows the ratio as a percentage instead of the "
                 "label.\n    pub fn percent_label(mut self) -> Self {\n"
                 "        self.label = \"\";\n        self\n    }\n}\n\n#[cfg(test)]\n"),
            Commit("feat(meter): add percent_label"),
        )),
        Session(day=28, events=(
            User("the format job failed on my PR even though I ran the formatter. can you "
                 "check with the format check?"),
            Bash("cargo xtask format --check", out=RATATUI_STABLE_FMT, ok=False),
            Say("rustfmt ran on the stable toolchain and ignored the unstable options in "
                "rustfmt.toml, so the import grouping differs from CI."),
            # source: ratatui/ratatui PR #1816 ("add note about using nightly for formatting")
            User("yeah. We use some unstable formatting options as they lead to subjectively "
                 "better formatting. These require a nightly version of Rust to be installed "
                 "when running rustfmt. You can install the nightly version of Rust using "
                 "rustup: `rustup install nightly`.", states="nightly-fmt"),
            Bash("rustup install nightly && cargo xtask format",
                 out="info: syncing channel updates for 'nightly-x86_64-unknown-linux-gnu'\n"
                     "  nightly-x86_64-unknown-linux-gnu installed - rustc 1.90.0-nightly\n"
                     "running cargo +nightly fmt --all"),
            Bash("cargo xtask format --check", out="running cargo +nightly fmt --all --check"),
            User("next, percent_label was a bad name, I want `show_percent`. remove the old "
                 "one?"),
            # source: ratatui/ratatui CONTRIBUTING.md (Deprecation notice)
            User("actually no, don't remove it. We generally want to wait at least two versions "
                 "before removing deprecated items, so users have time to update. mark it "
                 "#[deprecated] pointing at show_percent."),
            Edit("src/widgets/meter.rs",
                 "    /// Shows the ratio as a percentage instead of the label.\n",
                 "    /// Shows the ratio as a percentage instead of the label.\n"
                 "    #[deprecated(since = \"0.28.0\", note = \"use show_percent instead\")]\n"),
            Commit("refactor(meter): deprecate percent_label in favour of show_percent"),
        )),
        Session(day=35, events=(
            User("last bits before the release: the meter should render nothing when the area "
                 "is zero height."),
            Edit("src/widgets/meter.rs",
                 "    fn renders_label_and_bar() {\n",
                 "    fn renders_nothing_in_empty_area() {\n"
                 "        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 0));\n"
                 "        Meter::default().render(buf.area, &mut buf);\n"
                 "        assert_eq!(buf, Buffer::empty(Rect::new(0, 0, 10, 0)));\n    }\n\n"
                 "    #[test]\n    fn renders_label_and_bar() {\n"),
            Probe("add a test that the bar is fully filled at ratio 1.0 too, wherever it fits "
                  "best", needs="testbackend"),
            Probe("format everything, the CI format job is picky", needs=("xtask-format",
                                                                          "nightly-fmt")),
            Bash("cargo xtask format", out="running cargo +nightly fmt --all"),
            Probe("and run the same checks CI will before I push", needs="xtask-ci"),
            Bash("cargo xtask ci", out=RATATUI_CI_PASS),
            Commit("fix(meter): render nothing in a zero-height area"),
        ), judge={"xtask-ci": "not_down", "nightly-fmt": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 5. An axum + sqlx Postgres service (launchbadge/sqlx sqlx-cli README, FAQ and CHANGELOG 0.7,
#    issue #1813, PR #249 / #2363; sukjaelee/clean_axum_demo issue #10)
# ---------------------------------------------------------------------------------------------

ORDERS = Project("orders-api", "rust", {
    "Cargo.toml": (
        '[package]\nname = "orders-api"\nversion = "0.4.1"\nedition = "2021"\n\n'
        '[dependencies]\naxum = "0.6"\nanyhow = "1"\nserde = { version = "1", features = '
        '["derive"] }\ntokio = { version = "1", features = ["full"] }\n'
        'sqlx = { version = "0.6", features = ["runtime-tokio-rustls", "postgres", "uuid", '
        '"time"] }\nuuid = { version = "1", features = ["serde"] }\n'
    ),
    ".env": "DATABASE_URL=postgres://app:app@localhost:5432/orders\n",
    "migrations/20240101000000_init.sql": (
        "CREATE TABLE orders (\n    id UUID PRIMARY KEY,\n    customer TEXT NOT NULL,\n"
        "    total_cents BIGINT NOT NULL,\n    created_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n"
    ),
    "src/main.rs": (
        "mod db;\n\n#[tokio::main]\nasync fn main() -> anyhow::Result<()> {\n"
        "    let pool = sqlx::PgPool::connect(&std::env::var(\"DATABASE_URL\")?).await?;\n"
        "    let app = axum::Router::new().with_state(pool);\n"
        "    axum::Server::bind(&\"0.0.0.0:8080\".parse()?)\n"
        "        .serve(app.into_make_service())\n        .await?;\n    Ok(())\n}\n"
    ),
    "src/db.rs": (
        "use sqlx::PgPool;\nuse uuid::Uuid;\n\n"
        "pub struct Order {\n    pub id: Uuid,\n    pub customer: String,\n"
        "    pub total_cents: i64,\n}\n\n"
        "pub async fn get_order(pool: &PgPool, id: Uuid) -> sqlx::Result<Order> {\n"
        "    sqlx::query_as!(Order, \"SELECT id, customer, total_cents FROM orders WHERE id = $1\","
        " id)\n        .fetch_one(pool)\n        .await\n}\n"
    ),
    "tests/orders.rs": (
        "#[sqlx::test]\nasync fn inserts_order(pool: sqlx::PgPool) -> sqlx::Result<()> {\n"
        "    sqlx::query!(\"INSERT INTO orders (id, customer, total_cents) VALUES "
        "(gen_random_uuid(), 'a', 100)\")\n        .execute(&pool)\n        .await?;\n"
        "    Ok(())\n}\n"
    ),
    "Dockerfile": (
        "FROM rust:1.72 AS build\nWORKDIR /app\nENV SQLX_OFFLINE=true\n"
        "COPY Cargo.toml Cargo.lock ./\nCOPY src src\nCOPY migrations migrations\n"
        "RUN cargo build --release\n\nFROM debian:bookworm-slim\n"
        "COPY --from=build /app/target/release/orders-api /usr/local/bin/\n"
        "CMD [\"orders-api\"]\n"
    ),
    ".github/workflows/ci.yml": (
        "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v4\n"
        "      - uses: dtolnay/rust-toolchain@stable\n      - run: cargo build --locked\n"
        "      - run: cargo test --locked\n"
    ),
})

ORDERS_PREPARE_EMPTY = (
    "   Compiling orders-api v0.4.1 (/work/orders-api)\n"
    "    Finished dev [unoptimized + debuginfo] target(s) in 9.55s\n"
    "warning: no queries found; please ensure that the `offline` feature is enabled in sqlx\n"
    "query data written to `sqlx-data.json` in the current directory; please check this into "
    "version control"
)
ORDERS_CI_DB_FAIL = (
    "Run cargo build --locked\n   Compiling orders-api v0.4.1 (/home/runner/work/orders-api)\n"
    "error: error communicating with database: Connection refused (os error 111)\n"
    "  --> src/db.rs:14:5\n   |\n"
    "14 |     sqlx::query_as!(Order, \"SELECT id, customer, total_cents FROM orders WHERE "
    "id = $1\", id)\n"
    "   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "   = note: this error originates in the macro `$crate::sqlx_macros::expand_query`\n"
    "error: could not compile `orders-api` due to previous error\n"
    "Error: Process completed with exit code 101."
)
ORDERS_CI_TEST_FAIL = (
    "Run cargo test --locked\n   Compiling orders-api v0.4.1 (/home/runner/work/orders-api)\n"
    "error: failed to find data for query INSERT INTO orders (id, customer, total_cents) VALUES "
    "(gen_random_uuid(), 'a', 100)\n --> tests/orders.rs:3:5\n"
    "error: could not compile `orders-api` (test \"orders\") due to previous error\n"
    "Error: Process completed with exit code 101."
)
ORDERS_TX_ERROR = (
    "error[E0277]: the trait bound `&mut Transaction<'_, Postgres>: Executor<'_>` is not "
    "satisfied\n  --> src/db.rs:29:18\n   |\n29 |         .execute(&mut tx)\n"
    "   |          ------- ^^^^^^^ the trait `Executor<'_>` is not implemented for "
    "`&mut Transaction<'_, Postgres>`\n   |          |\n"
    "   |          required by a bound introduced by this call\n"
    "   = help: the following other types implement trait `Executor<'c>`:\n"
    "             &'c mut PgConnection\n             &'c mut PgListener\n"
    "             &Pool<DB>\n"
    "error: could not compile `orders-api` (bin \"orders-api\") due to 2 previous errors"
)
ORDERS_DOCKER_FAIL = (
    "#12 [build 6/6] RUN cargo build --release\n"
    "#12 41.20    Compiling orders-api v0.5.0 (/app)\n"
    "#12 44.87 error: `SQLX_OFFLINE=true` but there is no cached data for this query, run "
    "`cargo sqlx prepare` to update the query cache or unset `SQLX_OFFLINE`\n"
    "#12 44.87   --> src/db.rs:14:5\n"
    "#12 45.02 error: could not compile `orders-api` (bin \"orders-api\") due to 3 previous "
    "errors\n#12 ERROR: process \"/bin/sh -c cargo build --release\" did not complete "
    "successfully: exit code: 101"
)

SQLX_STORY = Story(
    id="ho-rs-sqlx-service-1",
    title="An axum + sqlx service built offline: sqlx-data.json and the offline feature, "
          "replaced in 0.7 by the .sqlx directory; SQLX_OFFLINE in CI and Docker, test queries, "
          "transaction executors",
    sources=("launchbadge/sqlx", "sukjaelee/clean_axum_demo"),
    project=ORDERS,
    lessons=(
        lesson("prepare-json", "command",
               "`cargo sqlx prepare` saves query metadata to sqlx-data.json; commit it so builds "
               "need no database",
               "sqlx-data.json", "prepare|version control|commit"),
        lesson("offline-feature", "gotcha",
               "`cargo sqlx prepare` does nothing unless sqlx's `offline` Cargo feature is "
               "enabled (\"no queries found\", sqlx-data.json with only the db name)",
               "offline", "feature", "no queries found|enable|has no effect"),
        lesson("prepare-dir", "command",
               "Since sqlx 0.7 `cargo sqlx prepare` writes one file per query into the `.sqlx` "
               "directory (commit it); `--merged` is gone (use `--workspace`), and sqlx-cli must "
               "match the sqlx version",
               ".sqlx", "prepare"),
        lesson("offline-always", "fact",
               "sqlx 0.7 removed the `offline` feature: offline support is always enabled",
               "offline", "feature", "removed|unconditional|always"),
        lesson("offline-env", "gotcha",
               "DATABASE_URL (env or .env) takes precedence over the saved query data, so CI "
               "builds try to reach the database; set SQLX_OFFLINE=true",
               "SQLX_OFFLINE", "DATABASE_URL"),
        lesson("prepare-check", "command",
               "CI runs `cargo sqlx prepare --check`, which fails when the saved query data is "
               "out of date",
               "prepare --check"),
        lesson("prepare-all-targets", "gotcha",
               "Queries in tests (or behind features) are only saved with `cargo sqlx prepare "
               "-- --all-targets --all-features`; otherwise tests fail with \"failed to find "
               "data for query\"",
               "--all-targets", "prepare"),
        lesson("tx-deref", "gotcha",
               "In sqlx 0.7 Transaction and PoolConnection no longer implement Executor: pass "
               "`&mut *tx` instead of `&mut tx`",
               "&mut *", "transaction|tx|Executor"),
        lesson("docker-sqlx", "gotcha",
               "The Docker build sets SQLX_OFFLINE=true, so the Dockerfile must `COPY .sqlx "
               ".sqlx` or the build fails with \"no cached data for this query\"",
               "Docker", ".sqlx"),
    ),
    also=(
        # session 2: FAQ's pre-commit hook for `cargo sqlx prepare`, proposed and rejected
        lesson("also-no-prepare-hook", "decision",
               "No git pre-commit hook running cargo sqlx prepare: it recompiles on every "
               "commit and does not block on failure; CI's prepare --check is the gate",
               "hook", "prepare"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: launchbadge/sqlx sqlx-cli/README.md (0.6, "Enable building in offline
            # mode")
            User("our CI runners have no postgres, so the query! macros can't check anything "
                 "there. let's build in offline mode: run `cargo sqlx prepare` - invoking "
                 "`prepare` saves query metadata to `sqlx-data.json` in the current directory; "
                 "check this file into version control and an active database connection will "
                 "no longer be needed to build your project.", states="prepare-json"),
            Bash("cargo sqlx prepare", out=ORDERS_PREPARE_EMPTY),
            Bash("cat sqlx-data.json", out='{\n  "db": "PostgreSQL"\n}'),
            # source: launchbadge/sqlx issue #1813 and sqlx-cli/README.md (0.6)
            Say("It found no queries and wrote a sqlx-data.json with only the db name. The "
                "README says prepare has no effect unless the `offline` Cargo feature of sqlx "
                "is enabled in the project; omitting that feature is the most likely cause of "
                "this file. I'll enable the feature and rerun.", states="offline-feature"),
            Edit("Cargo.toml", '"uuid", "time"] }', '"uuid", "time", "offline"] }'),
            Bash("cargo sqlx prepare",
                 out="    Finished dev [unoptimized + debuginfo] target(s) in 12.02s\n"
                     "query data written to `sqlx-data.json` in the current directory; please "
                     "check this into version control"),
            Write("sqlx-data.json",
                  '{\n  "db": "PostgreSQL",\n  "5c1a0f...": {\n    "query": "SELECT id, '
                  'customer, total_cents FROM orders WHERE id = $1",\n    "describe": {}\n'
                  '  }\n}\n'),
            Commit("Enable sqlx offline mode and commit sqlx-data.json"),
        )),
        Session(day=3, events=(
            User("CI is red on the offline PR, can you look?"),
            Bash("gh run view --log-failed | tail -12", out=ORDERS_CI_DB_FAIL, ok=False),
            Say("The build still tried to reach Postgres: the committed `.env` sets DATABASE_URL, "
                "and the macros prefer a live database over sqlx-data.json."),
            # source: launchbadge/sqlx sqlx-cli/README.md ("Force building in offline mode")
            User("right, that's in the docs: The presence of a `DATABASE_URL` environment "
                 "variable will take precedence over the presence of `sqlx-data.json`, meaning "
                 "SQLx will default to building against a database if it can. To make sure an "
                 "accidentally-present `DATABASE_URL` or `.env` file does not result in `cargo "
                 "build` (trying to) access the database, set the `SQLX_OFFLINE` environment "
                 "variable to `true`.", states="offline-env"),
            # source: launchbadge/sqlx sqlx-cli/README.md (`cargo sqlx prepare --check`)
            User("and add a check job: `cargo sqlx prepare --check` exits with a nonzero exit "
                 "status if the data in `sqlx-data.json` is out of date with the current "
                 "database schema and queries in the project. It's intended for use in CI; that "
                 "job gets a postgres service.", states="prepare-check"),
            Edit(".github/workflows/ci.yml",
                 "      - run: cargo build --locked\n",
                 "      - run: cargo build --locked\n        env:\n          SQLX_OFFLINE: true\n"),
            Edit(".github/workflows/ci.yml",
                 "      - run: cargo test --locked\n",
                 "      - run: cargo test --locked\n        env:\n          SQLX_OFFLINE: true\n"
                 "  sqlx-check:\n    runs-on: ubuntu-latest\n    services:\n      postgres:\n"
                 "        image: postgres:16\n    steps:\n      - uses: actions/checkout@v4\n"
                 "      - run: cargo install sqlx-cli --version 0.6.3 --no-default-features "
                 "--features rustls,postgres\n      - run: cargo sqlx prepare --check\n"),
            Commit("ci: build with SQLX_OFFLINE and check sqlx-data.json"),
            Bash("gh run view --log-failed | tail -6", out=ORDERS_CI_TEST_FAIL, ok=False),
            Say("Build passes now, but `cargo test` fails: the query in tests/orders.rs was never "
                "saved, since prepare only checked the library and binary."),
            # source: launchbadge/sqlx sqlx-cli/README.md ("Include queries behind feature
            # flags (such as queries inside of tests)") and PR #249 comments
            User("yep, same thing happened to people on the original offline PR: cargo test "
                 "gives `failed to find data for query`. In order for sqlx to be able to find "
                 "queries behind certain feature flags or in tests, you need to turn them on by "
                 "passing arguments to cargo: `cargo sqlx prepare -- --all-targets "
                 "--all-features`.", states="prepare-all-targets"),
            Bash("cargo sqlx prepare -- --all-targets --all-features",
                 out="    Finished dev [unoptimized + debuginfo] target(s) in 14.80s\n"
                     "query data written to `sqlx-data.json` in the current directory; please "
                     "check this into version control"),
            Edit("sqlx-data.json", '    "describe": {}\n  }\n}\n',
                 '    "describe": {}\n  },\n  "9e7b21...": {\n    "query": "INSERT INTO orders '
                 '(id, customer, total_cents) VALUES (gen_random_uuid(), \'a\', 100)",\n'
                 '    "describe": {}\n  }\n}\n'),
            Commit("Save test queries to sqlx-data.json"),
        ), judge={"prepare-json": "not_down"}),
        Session(day=9, events=(
            User("we need refunds: a `refunds` table and `db::refund_order(pool, id, cents)`."),
            Write("migrations/20240215000000_refunds.sql",
                  "CREATE TABLE refunds (\n    id UUID PRIMARY KEY DEFAULT gen_random_uuid(),\n"
                  "    order_id UUID NOT NULL REFERENCES orders (id),\n"
                  "    cents BIGINT NOT NULL\n);\n"),
            Edit("src/db.rs", "pub async fn get_order",
                 "pub async fn refund_order(pool: &PgPool, id: Uuid, cents: i64) -> "
                 "sqlx::Result<()> {\n    sqlx::query!(\"INSERT INTO refunds (order_id, cents) "
                 "VALUES ($1, $2)\", id, cents)\n        .execute(pool)\n        .await?;\n"
                 "    Ok(())\n}\n\npub async fn get_order"),
            Probe("there's a test for refunds in tests/ too now. get the branch ready so CI "
                  "can build it without a database", needs=("prepare-json",
                                                             "prepare-all-targets")),
            Bash("cargo sqlx prepare -- --all-targets --all-features",
                 out="query data written to `sqlx-data.json` in the current directory; please "
                     "check this into version control"),
            Edit("sqlx-data.json", '  "db": "PostgreSQL",\n',
                 '  "db": "PostgreSQL",\n  "31d4c9...": {\n    "query": "INSERT INTO refunds '
                 '(order_id, cents) VALUES ($1, $2)",\n    "describe": {}\n  },\n'),
            # source: launchbadge/sqlx FAQ.md (pre-commit hook for `cargo sqlx prepare`)
            User("a teammate suggested the FAQ trick, a git pre-commit hook that runs cargo "
                 "sqlx prepare and stages sqlx-data.json. the FAQ itself says it may make "
                 "committing take some time as it recompiles the project, and it does _not_ "
                 "block committing if prepare fails. so no hook; the CI check catches stale "
                 "data anyway."),
            Commit("Add refunds table and refund_order"),
        )),
        Session(day=16, events=(
            # source: launchbadge/sqlx CHANGELOG.md (0.7.0 "Breaking"; #2039; #2363)
            User("upgrading to sqlx 0.7. from the changelog: The offline mode for the queries "
                 "has been changed to use a separate file per `query!()` invocation, in a "
                 "`.sqlx` directory, which is intended to reduce the number of conflicts when "
                 "merging branches. The CLI flag `--merged` is no longer supported (it's "
                 "`--workspace` now), and make sure that your `sqlx-cli` version is in sync "
                 "with the `sqlx` version in the project. Developers need to re-run `cargo sqlx "
                 "prepare`. Also the `offline` feature has been removed from the `sqlx` facade "
                 "crate and is enabled unconditionally.",
                 states=("prepare-dir", "offline-always"),
                 replaces=("prepare-json", "offline-feature")),
            Edit("Cargo.toml", 'axum = "0.6"\n', 'axum = "0.7"\n'),
            Edit("Cargo.toml",
                 'sqlx = { version = "0.6", features = ["runtime-tokio-rustls", "postgres", '
                 '"uuid", "time", "offline"] }\n',
                 'sqlx = { version = "0.7", features = ["runtime-tokio-rustls", "postgres", '
                 '"uuid", "time"] }\n'),
            Edit("src/db.rs", "pub async fn get_order",
                 "pub async fn close_order(pool: &PgPool, id: Uuid) -> sqlx::Result<()> {\n"
                 "    let mut tx = pool.begin().await?;\n"
                 "    sqlx::query!(\"DELETE FROM refunds WHERE order_id = $1\", id)\n"
                 "        .execute(&mut tx)\n        .await?;\n    tx.commit().await\n}\n\n"
                 "pub async fn get_order"),
            Bash("cargo build", out=ORDERS_TX_ERROR, ok=False, exit=101),
            # source: launchbadge/sqlx CHANGELOG.md (0.7.0, #2039 Executor impls removed)
            Say("0.7 deleted the `Executor` impls for `Transaction` and `PoolConnection`. Per "
                "the changelog, add a dereference where an `impl Executor` is expected: "
                "`&mut transaction` -> `&mut *transaction`.", states="tx-deref"),
            Edit("src/db.rs", "        .execute(&mut tx)\n", "        .execute(&mut *tx)\n"),
            Bash("cargo install sqlx-cli --version 0.7.4 --no-default-features "
                 "--features rustls,postgres && cargo sqlx prepare -- --all-targets "
                 "--all-features",
                 out="  Installed package `sqlx-cli v0.7.4` (executables `cargo-sqlx`, `sqlx`)\n"
                     "    Finished dev [unoptimized + debuginfo] target(s) in 31.44s\n"
                     "query data written to .sqlx in the current directory; please check this "
                     "into version control"),
            Write(".sqlx/query-2b192bf413d46a28226de2ad754a382043c483cf55c04d19bdfa916dcbf0e7ae"
                  ".json",
                  '{\n  "db_name": "PostgreSQL",\n  "query": "SELECT id, customer, total_cents '
                  'FROM orders WHERE id = $1",\n  "describe": {}\n}\n'),
            Edit(".github/workflows/ci.yml", "--version 0.6.3", "--version 0.7.4"),
            Commit("Upgrade to sqlx 0.7: .sqlx query cache, &mut *tx"),
        )),
        Session(day=23, events=(
            User("the docker image build broke after the upgrade, can you reproduce it?"),
            Bash("docker build -t orders-api .", out=ORDERS_DOCKER_FAIL, ok=False),
            # source: sukjaelee/clean_axum_demo issue #10 (maintainer's fix)
            Say("The Dockerfile builds with SQLX_OFFLINE=true but never copies the query "
                "metadata into the image. The Dockerfile has to include the .sqlx directory, "
                "which is required for SQLx offline mode to work inside Docker: "
                "`COPY .sqlx .sqlx`.", states="docker-sqlx"),
            Edit("Dockerfile", "COPY migrations migrations\n",
                 "COPY migrations migrations\n# Copy SQLx query metadata for offline mode\n"
                 "COPY .sqlx .sqlx\n"),
            Bash("docker build -t orders-api .",
                 out="#12 [build 7/7] RUN cargo build --release\n#12 92.41     Finished release "
                     "[optimized] target(s) in 1m 31s\n#14 naming to docker.io/library/"
                     "orders-api done"),
            Commit("docker: copy .sqlx into the build stage"),
        )),
        Session(day=31, events=(
            User("this sprint: order history endpoint, partial refunds inside a transaction, "
                 "and we're splitting the repo into a workspace with a separate `billing` "
                 "crate."),
            Edit("src/db.rs", "pub async fn get_order",
                 "pub async fn order_history(pool: &PgPool, customer: &str) -> "
                 "sqlx::Result<Vec<Order>> {\n    sqlx::query_as!(Order, \"SELECT id, customer, "
                 "total_cents FROM orders WHERE customer = $1\", customer)\n"
                 "        .fetch_all(pool)\n        .await\n}\n\npub async fn get_order"),
            Subagent("Found 6 query!/query_as! invocations: 4 in src/db.rs (get_order, "
                     "refund_order, close_order, order_history) and 2 in tests/orders.rs. "
                     "None of them are behind a cargo feature."),
            Probe("history query is in, there's a test for it as well. regenerate whatever the "
                  "offline build needs", needs=("prepare-dir", "prepare-all-targets")),
            Probe("now partial refunds: insert the refund and update the order total, both in "
                  "one transaction", needs="tx-deref"),
            Probe("billing crate's Cargo.toml: which sqlx features does it need so it builds "
                  "offline like the main crate?", needs="offline-always"),
            Probe("someone's local build hangs trying to connect to postgres even though the "
                  "query cache is committed. what's going on?", needs="offline-env"),
            Probe("once billing has queries, the docker build needs to keep working. anything "
                  "to change there?", needs="docker-sqlx"),
            Probe("make sure the CI check job still covers both crates after the split",
                  needs="prepare-check"),
            Edit(".github/workflows/ci.yml", "      - run: cargo sqlx prepare --check\n",
                 "      - run: cargo sqlx prepare --check --workspace\n"),
            Commit("Add order history; check the .sqlx cache for the whole workspace"),
        ), judge={"prepare-dir": "not_down"}),
    ),
)

STORIES = [CODEX_STORY, RUFF_STORY, ZED_STORY, RATATUI_STORY, SQLX_STORY]
