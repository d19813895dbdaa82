"""Stories in two Rust projects: ``logsift``, a CLI that filters JSON-lines logs (clap, serde,
anyhow, chrono), and ``stockroom``, an inventory service (tokio, axum, sqlx on PostgreSQL).

Runners and tools: cargo build/test/clippy/fmt, cargo nextest, cargo +toolchain, cargo insta,
cargo release, sqlx-cli, make, plus the odd unrelated failing command."""

from __future__ import annotations

import hashlib

from replaykit.story import (
    Bash,
    Commit,
    Compact,
    Edit,
    Note,
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

# --------------------------------------------------------------------------------------------
# Output helpers for the routine, passing runs (failures are written out in full below).

LS_ROOT = "/home/maya/src/logsift"
LS_CRATE = f"logsift v0.4.2 ({LS_ROOT})"
LS_UNIT = "unittests src/main.rs (target/debug/deps/logsift-5c1e0f7a9b3d2e84)"
LS_CLI = "tests/cli.rs (target/debug/deps/cli-0b7d4f2c8a61e953)"

SR_ROOT = "/home/jonas/work/stockroom"
SR_CRATE = f"stockroom v0.2.0 ({SR_ROOT})"
SR_LIB = "unittests src/lib.rs (target/debug/deps/stockroom-9d3f61c0a2b7e418)"
SR_MAIN = "unittests src/main.rs (target/debug/deps/stockroom-e07a5b2c91d4f6a3)"
SR_API = "tests/api.rs (target/debug/deps/api-6c2a9e01f4b7d358)"
SR_DOC = "Doc-tests stockroom"


def _finished(profile: str, secs: str) -> str:
    kind = "optimized" if profile == "release" else "unoptimized + debuginfo"
    return f"    Finished `{profile}` profile [{kind}] target(s) in {secs}"


def build_ok(crate: str, secs: str, *, verb: str = "Compiling", profile: str = "dev") -> str:
    """`cargo build` / `cargo check` / `cargo clippy` with nothing to report."""
    return f"   {verb:>9} {crate}\n{_finished(profile, secs)}"


def cargo_test_ok(secs: str, *suites: tuple[str, list[str], str], crate: str = "") -> str:
    """A green `cargo test`: each suite is (header, test names, run time)."""
    out = [f"   Compiling {crate}"] if crate else []
    out.append(_finished("test", secs))
    for header, names, took in suites:
        lead = "   " if header.startswith("Doc-tests") else "     Running "
        out += [f"{lead}{header}", "", f"running {len(names)} test{'' if len(names) == 1 else 's'}"]
        out += [f"test {n} ... ok" for n in names]
        out += ["", f"test result: ok. {len(names)} passed; 0 failed; 0 ignored; 0 measured; "
                f"0 filtered out; finished in {took}s", ""]
    return "\n".join(out).rstrip("\n")


def nextest_ok(secs: str, tests: list[tuple[str, str]], *, binaries: int = 2,
               crate: str = "") -> str:
    """A green `cargo nextest run`: tests are (binary id, test name)."""
    seed = hashlib.sha1("|".join(n for _, n in tests).encode()).hexdigest()
    run_id = f"{seed[:8]}-{seed[8:12]}-4{seed[13:16]}-a{seed[17:20]}-{seed[20:32]}"
    out = [f"   Compiling {crate}"] if crate else []
    out += [_finished("test", secs), "────────────",
            f" Nextest run ID {run_id} with nextest profile: default",
            f"    Starting {len(tests)} tests across {binaries} binaries"]
    slowest = 0
    for i, (binary, name) in enumerate(tests):
        ms = 3 + (int(seed[i % 32], 16) % 5) if "::" in binary and "/" in binary else 38 + i * 3
        slowest = max(slowest, ms)
        out.append(f"        PASS [{ms / 1000:>8.3f}s] {binary} {name}")
    out += ["────────────", f"     Summary [{(slowest + 6) / 1000:>8.3f}s] {len(tests)} tests run: "
            f"{len(tests)} passed, 0 skipped"]
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Project 1: logsift, a command-line log filter.

LOGSIFT = Project("logsift", "rust", {
    "Cargo.toml": """\
[package]
name = "logsift"
version = "0.4.2"
edition = "2021"
rust-version = "1.74"
description = "Filter and reformat JSON-lines logs"
license = "MIT"

[dependencies]
anyhow = "1"
chrono = { version = "0.4", default-features = false, features = ["std", "serde"] }
clap = { version = "4.5", features = ["derive"] }
serde = { version = "1", features = ["derive"] }
serde_json = "1"

[dev-dependencies]
assert_cmd = "2"
predicates = "3"
""",
    "rustfmt.toml": "max_width = 100\n",
    "CHANGELOG.md": """\
# Changelog

## Unreleased

## 0.4.2 - 2024-04-22

- `--level` is no longer case-sensitive.

## 0.4.1 - 2024-04-09

- Blank lines in the input are skipped instead of failing the run.
""",
    ".github/workflows/ci.yml": """\
name: ci
on: [push, pull_request]

jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: dtolnay/rust-toolchain@stable
        with:
          components: clippy, rustfmt
      - run: cargo fmt --check
      - run: cargo clippy --all-targets -- -D warnings
      - run: cargo test
  msrv:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: dtolnay/rust-toolchain@1.74
      - run: cargo check --all-targets
""",
    "src/main.rs": """\
use anyhow::Result;
use clap::Parser;

mod cli;
mod filter;
mod output;
mod record;

fn main() -> Result<()> {
    let args = cli::Args::parse();
    let records = record::read_all(&args.input)?;
    let kept = filter::apply(&records, &args);
    output::render(&kept, args.format)?;
    Ok(())
}
""",
    "src/cli.rs": """\
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

/// Filter and reformat JSON-lines logs.
#[derive(Debug, Parser)]
#[command(name = "logsift", version, about)]
pub struct Args {
    /// Log file to read (JSON lines)
    pub input: PathBuf,

    /// Minimum level to keep (trace, debug, info, warn, error)
    #[arg(short, long, default_value = "info")]
    pub level: String,

    /// Only keep records at or after this RFC 3339 timestamp
    #[arg(long)]
    pub since: Option<String>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
}
""",
    "src/record.rs": """\
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Record {
    pub ts: String,
    pub level: String,
    pub target: String,
    pub msg: String,
}

pub fn read_all(path: &Path) -> Result<Vec<Record>> {
    let reader = BufReader::new(File::open(path)?);
    let mut out = Vec::new();
    for line in reader.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(serde_json::from_str(&line)?);
    }
    Ok(out)
}
""",
    "src/filter.rs": """\
use crate::cli::Args;
use crate::record::Record;

const LEVELS: [&str; 5] = ["trace", "debug", "info", "warn", "error"];

fn rank(level: &str) -> usize {
    LEVELS.iter().position(|l| l.eq_ignore_ascii_case(level)).unwrap_or(0)
}

pub fn apply<'a>(records: &'a [Record], args: &Args) -> Vec<&'a Record> {
    let min = rank(&args.level);
    records
        .iter()
        .filter(|r| rank(&r.level) >= min)
        .filter(|r| match &args.since {
            Some(since) => r.ts.as_str() >= since.as_str(),
            None => true,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    fn rec(ts: &str, level: &str) -> Record {
        Record { ts: ts.into(), level: level.into(), target: "app".into(), msg: "m".into() }
    }

    fn args(extra: &[&str]) -> Args {
        let mut argv = vec!["logsift", "x.log"];
        argv.extend_from_slice(extra);
        Args::parse_from(argv)
    }

    #[test]
    fn level_filter_keeps_warn_and_above() {
        let recs = [rec("2024-05-01T10:00:00Z", "info"), rec("2024-05-01T10:00:01Z", "warn")];
        let kept = apply(&recs, &args(&["--level", "warn"]));
        assert_eq!(kept.len(), 1);
    }
}
""",
    "src/output.rs": """\
use anyhow::Result;

use crate::cli::Format;
use crate::record::Record;

pub fn render(records: &[&Record], format: Format) -> Result<()> {
    match format {
        Format::Table => {
            for r in records {
                println!("{:<25} {:<5} {:<12} {}", r.ts, r.level.to_uppercase(), r.target, r.msg);
            }
        }
        Format::Json => {
            println!("{}", serde_json::to_string_pretty(&records)?);
        }
    }
    Ok(())
}
""",
    "tests/cli.rs": """\
use assert_cmd::Command;
use predicates::prelude::*;

#[test]
fn filters_by_level() {
    Command::cargo_bin("logsift")
        .unwrap()
        .args(["tests/fixtures/app.log", "--level", "warn"])
        .assert()
        .success()
        .stdout(predicate::str::contains("disk almost full"))
        .stdout(predicate::str::contains("cache warmed").not());
}

#[test]
fn missing_file_is_an_error() {
    Command::cargo_bin("logsift")
        .unwrap()
        .arg("does/not/exist.log")
        .assert()
        .failure();
}
""",
    "tests/fixtures/app.log": """\
{"ts":"2024-05-01T09:58:12Z","level":"info","target":"app::cache","msg":"cache warmed"}
{"ts":"2024-05-01T10:02:40Z","level":"warn","target":"app::disk","msg":"disk almost full"}
{"ts":"2024-05-01T10:03:05Z","level":"error","target":"app::http","msg":"upstream timed out"}
""",
})

# --------------------------------------------------------------------------------------------
# Project 2: stockroom, an inventory HTTP service.

STOCKROOM = Project("stockroom", "rust", {
    "Cargo.toml": """\
[package]
name = "stockroom"
version = "0.2.0"
edition = "2021"
publish = false

[dependencies]
anyhow = "1"
axum = "0.7"
serde = { version = "1", features = ["derive"] }
serde_json = "1"
thiserror = "1"
tokio = { version = "1", features = ["macros", "rt-multi-thread", "signal"] }
tower-http = { version = "0.5", features = ["trace"] }
tracing = "0.1"
tracing-subscriber = { version = "0.3", features = ["env-filter"] }
uuid = { version = "1", features = ["v4", "serde"] }

[dependencies.sqlx]
version = "0.7"
features = ["runtime-tokio", "tls-rustls", "postgres", "uuid", "chrono", "macros", "migrate"]

[dev-dependencies]
http-body-util = "0.1"
tower = { version = "0.4", features = ["util"] }
""",
    ".env": "DATABASE_URL=postgres://stockroom:stockroom@localhost:5433/stockroom\n",
    "docker-compose.yml": """\
services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: stockroom
      POSTGRES_PASSWORD: stockroom
      POSTGRES_DB: stockroom
    ports:
      - "5433:5432"
""",
    ".github/workflows/ci.yml": """\
name: ci
on: [push, pull_request]

jobs:
  test:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
        env:
          POSTGRES_USER: stockroom
          POSTGRES_PASSWORD: stockroom
        ports: ["5432:5432"]
    env:
      DATABASE_URL: postgres://stockroom:stockroom@localhost:5432/stockroom
      SQLX_OFFLINE: "true"
    steps:
      - uses: actions/checkout@v4
      - uses: dtolnay/rust-toolchain@stable
        with:
          components: clippy, rustfmt
      - uses: Swatinem/rust-cache@v2
      - uses: taiki-e/install-action@nextest
      - run: cargo fmt --check
      - run: cargo clippy --all-targets -- -D warnings
      - run: cargo nextest run
""",
    "migrations/20240311093000_create_items.sql": """\
CREATE TABLE items (
    id UUID PRIMARY KEY,
    name TEXT NOT NULL,
    quantity INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
""",
    "src/lib.rs": """\
pub mod db;
pub mod error;
pub mod routes;

#[derive(Clone)]
pub struct AppState {
    pub pool: sqlx::PgPool,
}
""",
    "src/main.rs": """\
use std::net::SocketAddr;

use anyhow::Context;
use sqlx::postgres::PgPoolOptions;
use stockroom::{routes, AppState};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_env_filter(EnvFilter::from_default_env()).init();

    let url = std::env::var("DATABASE_URL").context("DATABASE_URL must be set")?;
    let pool = PgPoolOptions::new().max_connections(10).connect(&url).await?;
    sqlx::migrate!().run(&pool).await?;

    let app = routes::router(AppState { pool });
    let addr = SocketAddr::from(([0, 0, 0, 0], 8080));
    let listener = tokio::net::TcpListener::bind(addr).await?;
    tracing::info!(%addr, "listening");
    axum::serve(listener, app).await?;
    Ok(())
}
""",
    "src/routes.rs": """\
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use uuid::Uuid;

use crate::db::{self, Item, NewItem};
use crate::error::AppError;
use crate::AppState;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/items", get(list_items).post(create_item))
        .route("/items/:id", get(get_item))
        .with_state(state)
}

async fn list_items(State(st): State<AppState>) -> Result<Json<Vec<Item>>, AppError> {
    Ok(Json(db::list_items(&st.pool).await?))
}

async fn get_item(
    State(st): State<AppState>,
    Path(id): Path<Uuid>,
) -> Result<Json<Item>, AppError> {
    let item = db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;
    Ok(Json(item))
}

async fn create_item(
    State(st): State<AppState>,
    Json(new): Json<NewItem>,
) -> Result<Json<Item>, AppError> {
    Ok(Json(db::insert_item(&st.pool, &new).await?))
}
""",
    "src/db.rs": """\
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use uuid::Uuid;

#[derive(Debug, Serialize, sqlx::FromRow)]
pub struct Item {
    pub id: Uuid,
    pub name: String,
    pub quantity: i32,
}

#[derive(Debug, Deserialize)]
pub struct NewItem {
    pub name: String,
    pub quantity: i32,
}

pub async fn list_items(pool: &PgPool) -> sqlx::Result<Vec<Item>> {
    sqlx::query_as!(Item, "SELECT id, name, quantity FROM items ORDER BY name")
        .fetch_all(pool)
        .await
}

pub async fn get_item(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<Item>> {
    sqlx::query_as!(Item, "SELECT id, name, quantity FROM items WHERE id = $1", id)
        .fetch_optional(pool)
        .await
}

pub async fn insert_item(pool: &PgPool, new: &NewItem) -> sqlx::Result<Item> {
    sqlx::query_as!(
        Item,
        "INSERT INTO items (id, name, quantity) VALUES ($1, $2, $3) RETURNING id, name, quantity",
        Uuid::new_v4(),
        new.name,
        new.quantity
    )
    .fetch_one(pool)
    .await
}
""",
    "src/error.rs": """\
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("not found")]
    NotFound,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = match self {
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::Db(ref e) => {
                tracing::error!(error = %e, "database error");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        (status, self.to_string()).into_response()
    }
}
""",
    "tests/api.rs": """\
use axum::body::Body;
use axum::http::{Request, StatusCode};
use sqlx::PgPool;
use stockroom::{routes, AppState};
use tower::ServiceExt;

#[sqlx::test]
async fn health_is_ok(pool: PgPool) {
    let app = routes::router(AppState { pool });
    let res = app.oneshot(Request::get("/health").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

#[sqlx::test]
async fn unknown_item_is_404(pool: PgPool) {
    let app = routes::router(AppState { pool });
    let uri = format!("/items/{}", uuid::Uuid::new_v4());
    let res = app.oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
""",
})

CLIPPY_URL = "https://rust-lang.github.io/rust-clippy/master/index.html"

# The end of tests/cli.rs as the project starts, where new CLI tests get appended.
MISSING_FILE_TEST_END = (
    '        .arg("does/not/exist.log")\n        .assert()\n        .failure();\n}\n'
)

# ============================================================================================
# Story 1: --since compared strings; nextest is the runner; where filtering lives.

S1_NEXTEST_FAIL = """\
   Compiling logsift v0.4.2 (/home/maya/src/logsift)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 2.87s
────────────
 Nextest run ID 6a0f3e1c-52b8-4c7d-9e2a-1b84d07f93c5 with nextest profile: default
    Starting 4 tests across 2 binaries
        PASS [   0.004s] logsift::bin/logsift filter::tests::level_filter_keeps_warn_and_above
        FAIL [   0.005s] logsift::bin/logsift filter::tests::since_respects_offsets
──── STDOUT:             logsift::bin/logsift filter::tests::since_respects_offsets

running 1 test
test filter::tests::since_respects_offsets ... FAILED

failures:

failures:
    filter::tests::since_respects_offsets

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 1 filtered out; finished in 0.00s

──── STDERR:             logsift::bin/logsift filter::tests::since_respects_offsets
thread 'filter::tests::since_respects_offsets' panicked at src/filter.rs:49:9:
assertion `left == right` failed
  left: 0
 right: 1
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

  Cancelling due to test failure: 2 tests still running
        PASS [   0.049s] logsift::cli missing_file_is_an_error
        PASS [   0.052s] logsift::cli filters_by_level
────────────
     Summary [   0.058s] 4 tests run: 3 passed, 1 failed, 0 skipped
        FAIL [   0.005s] logsift::bin/logsift filter::tests::since_respects_offsets
error: test run failed"""

S1_NEXTEST_E0433 = """\
   Compiling logsift v0.4.2 (/home/maya/src/logsift)
error[E0433]: failed to resolve: use of undeclared type `DateTime`
  --> src/filter.rs:12:52
   |
12 |     let since = args.since.as_deref().and_then(|s| DateTime::parse_from_rfc3339(s).ok());
   |                                                    ^^^^^^^^ use of undeclared type `DateTime`
   |
help: consider importing this struct
   |
1  + use chrono::DateTime;
   |

error[E0433]: failed to resolve: use of undeclared type `DateTime`
  --> src/filter.rs:17:28
   |
17 |             Some(since) => DateTime::parse_from_rfc3339(&r.ts).is_ok_and(|ts| ts >= since),
   |                            ^^^^^^^^ use of undeclared type `DateTime`
   |
help: consider importing this struct
   |
1  + use chrono::DateTime;
   |

For more information about this error, try `rustc --explain E0433`.
error: could not compile `logsift` (bin "logsift" test) due to 2 previous errors
error: command `cargo test --no-run --message-format json-render-diagnostics` exited with \
code 101"""

S1_UNIT = "logsift::bin/logsift"
S1_PASS_4 = nextest_ok("2.41s", [
    (S1_UNIT, "filter::tests::level_filter_keeps_warn_and_above"),
    (S1_UNIT, "filter::tests::since_respects_offsets"),
    ("logsift::cli", "missing_file_is_an_error"),
    ("logsift::cli", "filters_by_level"),
], crate=LS_CRATE)
S1_PASS_5 = nextest_ok("2.66s", [
    (S1_UNIT, "filter::tests::level_filter_keeps_warn_and_above"),
    (S1_UNIT, "filter::tests::since_and_until_cut_a_window"),
    (S1_UNIT, "filter::tests::since_respects_offsets"),
    ("logsift::cli", "missing_file_is_an_error"),
    ("logsift::cli", "filters_by_level"),
], crate=LS_CRATE)
S1_PASS_6 = nextest_ok("2.38s", [
    (S1_UNIT, "filter::tests::level_filter_keeps_warn_and_above"),
    (S1_UNIT, "filter::tests::since_and_until_cut_a_window"),
    (S1_UNIT, "filter::tests::since_respects_offsets"),
    ("logsift::cli", "filters_by_target"),
    ("logsift::cli", "missing_file_is_an_error"),
    ("logsift::cli", "filters_by_level"),
], crate=LS_CRATE)
S1_PASS_7 = nextest_ok("2.52s", [
    (S1_UNIT, "filter::tests::last_keeps_the_tail"),
    (S1_UNIT, "filter::tests::level_filter_keeps_warn_and_above"),
    (S1_UNIT, "filter::tests::since_and_until_cut_a_window"),
    (S1_UNIT, "filter::tests::since_respects_offsets"),
    ("logsift::cli", "filters_by_target"),
    ("logsift::cli", "missing_file_is_an_error"),
    ("logsift::cli", "filters_by_level"),
], crate=LS_CRATE)

S1_NEXTEST_LAST_FAIL = """\
   Compiling logsift v0.4.2 (/home/maya/src/logsift)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 2.49s
────────────
 Nextest run ID 0c93b7e2-6d1f-4a85-b3e0-7f21c94d5a68 with nextest profile: default
    Starting 7 tests across 2 binaries
        FAIL [   0.004s] logsift::bin/logsift filter::tests::last_keeps_the_tail
──── STDOUT:             logsift::bin/logsift filter::tests::last_keeps_the_tail

running 1 test
test filter::tests::last_keeps_the_tail ... FAILED

failures:

failures:
    filter::tests::last_keeps_the_tail

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.00s

──── STDERR:             logsift::bin/logsift filter::tests::last_keeps_the_tail
thread 'filter::tests::last_keeps_the_tail' panicked at src/filter.rs:88:9:
assertion `left == right` failed
  left: 0
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

  Cancelling due to test failure: 6 tests still running
        PASS [   0.004s] logsift::bin/logsift filter::tests::level_filter_keeps_warn_and_above
        PASS [   0.004s] logsift::bin/logsift filter::tests::since_and_until_cut_a_window
        PASS [   0.005s] logsift::bin/logsift filter::tests::since_respects_offsets
        PASS [   0.046s] logsift::cli filters_by_target
        PASS [   0.048s] logsift::cli missing_file_is_an_error
        PASS [   0.051s] logsift::cli filters_by_level
────────────
     Summary [   0.057s] 7 tests run: 6 passed, 1 failed, 0 skipped
        FAIL [   0.004s] logsift::bin/logsift filter::tests::last_keeps_the_tail
error: test run failed"""

S1_CLIPPY_OUTPUT_RS = f"""\
    Checking logsift v0.4.2 (/home/maya/src/logsift)
error: the borrowed expression implements the required traits
  --> src/output.rs:14:57
   |
14 |             println!("{{}}", serde_json::to_string_pretty(&records)?);
   |                                                         ^^^^^^^^ help: change this to: \
`records`
   |
   = help: for further information visit {CLIPPY_URL}\
#needless_borrows_for_generic_args
   = note: `-D clippy::needless-borrows-for-generic-args` implied by `-D warnings`
   = help: to override `-D warnings` add `#[allow(clippy::needless_borrows_for_generic_args)]`

error: could not compile `logsift` (bin "logsift") due to 1 previous error
warning: build failed, waiting for other jobs to finish...
error: could not compile `logsift` (bin "logsift" test) due to 1 previous error"""

SINCE_OFFSETS = Story(
    id="rs-logsift-since-offsets",
    title="--since compared timestamps as strings across UTC offsets; nextest as the runner; "
          "where filtering and parsing live",
    project=LOGSIFT,
    lessons=(
        lesson("since-instants", "gotcha",
               "Log timestamps and --since/--until can carry different UTC offsets (Z vs "
               "+02:00), so comparing the ts strings lexicographically is wrong; parse both "
               "with chrono DateTime::parse_from_rfc3339 and compare instants",
               "since|until|timestamp", "offset|utc|timezone|time zone",
               "parse_from_rfc3339|DateTime|chrono|lexicograph|as strings|string compar"),
        lesson("nextest", "command",
               "Run the test suite with `cargo nextest run` (what CI uses), not plain cargo test",
               "nextest"),
        lesson("filter-home", "fact",
               "Level/time filtering is filter::apply in src/filter.rs; log lines are parsed "
               "into Record in src/record.rs",
               "filter.rs|filter::apply", "record.rs|record::"),
    ),
    also=(
        # session 0, User: "the prod boxes log in UTC with a Z suffix"
        lesson("also-prod-utc", "fact",
               "The prod boxes write log timestamps in UTC with a Z suffix (users pass --since in "
               "local offsets such as +02:00)",
               "prod|production", "UTC|Z suffix"),
        # session 0, Say: "With --since set, lines whose ts doesn't parse are dropped."
        lesson("also-unparsable-ts-dropped", "decision",
               "When a time bound (--since/--until) is set, records whose ts doesn't parse as "
               "RFC 3339 are dropped rather than kept",
               "ts|timestamp", "parse|unparsable|unparseable|invalid|malformed",
               "drop|exclud|discard|filtered out|skipp"),
        # session 1, Edit src/cli.rs: "Only keep records strictly before this RFC 3339 timestamp"
        lesson("also-until-exclusive", "fact",
               "The time window is half-open: --since is inclusive (ts >= since) but --until is "
               "exclusive, keeping only records strictly before it (ts < until)",
               "until", "strictly before|exclusive|half-open|re:ts\\s*<\\s*u"),
        # session 2, Bash: "cargo clippy --all-targets -- -D warnings"
        lesson("also-clippy", "command",
               "Lint with `cargo clippy --all-targets -- -D warnings` (as CI does); any warning "
               "fails it",
               "clippy", "-D warnings|--all-targets"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! hope your weekend was less soggy than mine. so #41 came in "
                 "overnight: `logsift prod.log --since 2024-05-01T10:00:00+02:00` silently drops "
                 "a chunk of lines that are clearly after 10:00 Berlin time. the prod boxes log "
                 "in UTC with a Z suffix, if that matters. could you dig in? oh and while I think "
                 "of it: I got nextest set up and CI runs it now too, so going forward please run "
                 "the suite with `cargo nextest run` instead of plain cargo test.",
                 states="nextest"),
            Read("src/filter.rs"),
            Read("src/record.rs"),
            Say("Found it. `filter::apply` in src/filter.rs compares `r.ts` and `--since` as "
                "`&str`, and `Record` in src/record.rs keeps `ts` as a plain String. Text order "
                "only matches time order when both sides use the same offset: "
                "`2024-05-01T09:58:12Z` is 11:58 in Berlin, but \"09:58\" sorts before \"10:00\", "
                "so the line is dropped. I'll pin it with a failing test first.",
                states="filter-home"),
            Edit("src/filter.rs",
                 "        assert_eq!(kept.len(), 1);\n    }\n}\n",
                 "        assert_eq!(kept.len(), 1);\n    }\n\n"
                 "    #[test]\n    fn since_respects_offsets() {\n"
                 "        let recs = [rec(\"2024-05-01T07:30:00Z\", \"info\"), "
                 "rec(\"2024-05-01T09:58:12Z\", \"info\")];\n"
                 "        let kept = apply(&recs, &args(&[\"--since\", "
                 "\"2024-05-01T10:00:00+02:00\"]));\n"
                 "        assert_eq!(kept.len(), 1);\n"
                 "        assert_eq!(kept[0].ts, \"2024-05-01T09:58:12Z\");\n    }\n}\n"),
            Bash("cargo nextest run", out=S1_NEXTEST_FAIL, ok=False, exit=100),
            Edit("src/filter.rs",
                 "    let min = rank(&args.level);\n    records\n        .iter()\n"
                 "        .filter(|r| rank(&r.level) >= min)\n"
                 "        .filter(|r| match &args.since {\n"
                 "            Some(since) => r.ts.as_str() >= since.as_str(),\n",
                 "    let min = rank(&args.level);\n"
                 "    let since = args.since.as_deref().and_then(|s| "
                 "DateTime::parse_from_rfc3339(s).ok());\n"
                 "    records\n        .iter()\n"
                 "        .filter(|r| rank(&r.level) >= min)\n"
                 "        .filter(|r| match since {\n"
                 "            Some(since) => DateTime::parse_from_rfc3339(&r.ts).is_ok_and(|ts| "
                 "ts >= since),\n"),
            Bash("cargo nextest run", out=S1_NEXTEST_E0433, ok=False, exit=101),
            Edit("src/filter.rs", "use crate::cli::Args;\n",
                 "use chrono::DateTime;\n\nuse crate::cli::Args;\n"),
            Bash("cargo nextest run", out=S1_PASS_4),
            Say("Green. The gotcha for the record: a log line's `ts` and the `--since` argument "
                "can carry different UTC offsets (`Z` vs `+02:00`), so comparing them as strings "
                "is wrong. Both are now parsed with `DateTime::parse_from_rfc3339` and compared "
                "as instants; chrono orders `DateTime<FixedOffset>` by the underlying UTC time. "
                "With --since set, lines whose ts doesn't parse are dropped.",
                states="since-instants"),
            Bash("git stauts", out="git: 'stauts' is not a git command. See 'git --help'.\n\n"
                 "The most similar command is\n\tstatus", ok=False, exit=1),
            Bash("git status --short", out=" M src/filter.rs"),
            Commit("Compare --since as instants instead of strings (#41)"),
            User("nice one, thanks!"),
        )),
        Session(day=2, events=(
            Probe("next on the list: people keep asking for an --until flag so they can cut "
                  "out a window around an outage, e.g. 14:00 to 14:20 during last tuesday's "
                  "incident. they paste times straight from grafana, which shows local time. can "
                  "you add it?", needs=("since-instants", "filter-home")),
            Read("src/cli.rs"),
            Edit("src/cli.rs", "    pub since: Option<String>,\n",
                 "    pub since: Option<String>,\n\n"
                 "    /// Only keep records strictly before this RFC 3339 timestamp\n"
                 "    #[arg(long)]\n    pub until: Option<String>,\n"),
            Edit("src/filter.rs",
                 "    let since = args.since.as_deref().and_then(|s| "
                 "DateTime::parse_from_rfc3339(s).ok());\n"
                 "    records\n        .iter()\n"
                 "        .filter(|r| rank(&r.level) >= min)\n"
                 "        .filter(|r| match since {\n"
                 "            Some(since) => DateTime::parse_from_rfc3339(&r.ts).is_ok_and(|ts| "
                 "ts >= since),\n            None => true,\n        })\n",
                 "    let since = args.since.as_deref().and_then(|s| "
                 "DateTime::parse_from_rfc3339(s).ok());\n"
                 "    let until = args.until.as_deref().and_then(|s| "
                 "DateTime::parse_from_rfc3339(s).ok());\n"
                 "    records\n        .iter()\n"
                 "        .filter(|r| rank(&r.level) >= min)\n"
                 "        .filter(|r| {\n"
                 "            if since.is_none() && until.is_none() {\n"
                 "                return true;\n            }\n"
                 "            let Ok(ts) = DateTime::parse_from_rfc3339(&r.ts) else {\n"
                 "                return false;\n            };\n"
                 "            since.map_or(true, |s| ts >= s) && until.map_or(true, |u| ts < u)\n"
                 "        })\n"),
            Edit("src/filter.rs",
                 "        assert_eq!(kept[0].ts, \"2024-05-01T09:58:12Z\");\n    }\n",
                 "        assert_eq!(kept[0].ts, \"2024-05-01T09:58:12Z\");\n    }\n\n"
                 "    #[test]\n    fn since_and_until_cut_a_window() {\n"
                 "        let recs = [\n"
                 "            rec(\"2024-05-01T07:59:00Z\", \"info\"),\n"
                 "            rec(\"2024-05-01T10:05:00+02:00\", \"info\"),\n"
                 "            rec(\"2024-05-01T08:20:00Z\", \"info\"),\n        ];\n"
                 "        let window = [\"--since\", \"2024-05-01T10:00:00+02:00\", "
                 "\"--until\", \"2024-05-01T08:20:00Z\"];\n"
                 "        let kept = apply(&recs, &args(&window));\n"
                 "        assert_eq!(kept.len(), 1);\n"
                 "        assert_eq!(kept[0].ts, \"2024-05-01T10:05:00+02:00\");\n    }\n"),
            Probe("looks good. run everything and commit if it's green", needs=("nextest",)),
            Bash("cargo nextest run", out=S1_PASS_5),
            Commit("Add --until to cut a time window; compare both bounds as instants"),
            User("👍"),
        ), judge={"nextest": "up"}),
        Session(day=7, events=(
            User("hiya. 0.5.0 goes out next week, so: could you add a `--target` filter? "
                 "prefix match, so `--target app::http` also catches app::http::client. then give "
                 "clippy a spin, I haven't run it in a while"),
            Edit("src/cli.rs", "    pub until: Option<String>,\n",
                 "    pub until: Option<String>,\n\n"
                 "    /// Only keep records whose target starts with this prefix (e.g. app::http)\n"
                 "    #[arg(short, long)]\n    pub target: Option<String>,\n"),
            Edit("src/filter.rs", "        .filter(|r| rank(&r.level) >= min)\n",
                 "        .filter(|r| rank(&r.level) >= min)\n"
                 "        .filter(|r| args.target.as_deref().map_or(true, |t| "
                 "r.target.starts_with(t)))\n"),
            Bash("ls tests/fixtures/multi",
                 out="ls: cannot access 'tests/fixtures/multi': No such file or directory",
                 ok=False, exit=2),
            Read("tests/cli.rs"),
            Edit("tests/cli.rs",
                 MISSING_FILE_TEST_END,
                 MISSING_FILE_TEST_END + "\n"
                 "#[test]\nfn filters_by_target() {\n    Command::cargo_bin(\"logsift\")\n"
                 "        .unwrap()\n"
                 "        .args([\"tests/fixtures/app.log\", \"--target\", \"app::http\"])\n"
                 "        .assert()\n        .success()\n"
                 "        .stdout(predicate::str::contains(\"upstream timed out\"))\n"
                 "        .stdout(predicate::str::contains(\"disk almost full\").not());\n}\n"),
            Bash("cargo clippy --all-targets -- -D warnings", out=S1_CLIPPY_OUTPUT_RS,
                 ok=False, exit=101),
            Say("Clippy's complaint is in src/output.rs, which this change doesn't touch: a newer "
                "clippy flags the extra `&` in `to_string_pretty(&records)`. One-character fix."),
            Edit("src/output.rs", "serde_json::to_string_pretty(&records)?",
                 "serde_json::to_string_pretty(records)?"),
            Bash("cargo clippy --all-targets -- -D warnings", out=build_ok(LS_CRATE, "0.94s",
                                                                          verb="Checking")),
            Bash("cargo nextest run", out=S1_PASS_6),
            Commit("Add --target prefix filter; drop a needless borrow clippy flagged"),
            User("ta"),
        )),
        Session(day=15, events=(
            Probe("feature request from ops: `--last 15m` to keep only the final 15 minutes "
                  "before the newest line in the file. they'd point it at the rotated files from "
                  "every region, so Sydney, Frankfurt and the AWS boxes all mixed in one dir",
                  needs=("since-instants", "filter-home")),
            Read("src/filter.rs"),
            Edit("src/cli.rs", "    pub target: Option<String>,\n",
                 "    pub target: Option<String>,\n\n"
                 "    /// Keep only this span before the newest record, e.g. 15m, 2h, 90s\n"
                 "    #[arg(long, value_parser = parse_span)]\n"
                 "    pub last: Option<chrono::Duration>,\n"),
            Edit("src/cli.rs", "    Json,\n}\n",
                 "    Json,\n}\n\n"
                 "fn parse_span(s: &str) -> Result<chrono::Duration, String> {\n"
                 "    let (num, unit) = s.split_at(s.len().saturating_sub(1));\n"
                 "    let n: i64 = num.parse().map_err(|_| format!(\"invalid span `{s}`, "
                 "expected e.g. 15m\"))?;\n"
                 "    match unit {\n"
                 "        \"s\" => Ok(chrono::Duration::seconds(n)),\n"
                 "        \"m\" => Ok(chrono::Duration::minutes(n)),\n"
                 "        \"h\" => Ok(chrono::Duration::hours(n)),\n"
                 "        _ => Err(format!(\"invalid span `{s}`, expected a unit of s, m or "
                 "h\")),\n"
                 "    }\n}\n"),
            Edit("src/filter.rs",
                 "    let since = args.since.as_deref().and_then(|s| "
                 "DateTime::parse_from_rfc3339(s).ok());\n",
                 "    let newest = records.iter().filter_map(|r| "
                 "DateTime::parse_from_rfc3339(&r.ts).ok()).max();\n"
                 "    let since = match (args.last, newest) {\n"
                 "        (Some(span), Some(newest)) => Some(newest + span),\n"
                 "        _ => args.since.as_deref().and_then(|s| "
                 "DateTime::parse_from_rfc3339(s).ok()),\n    };\n"),
            Edit("src/filter.rs",
                 "        assert_eq!(kept[0].ts, \"2024-05-01T10:05:00+02:00\");\n    }\n",
                 "        assert_eq!(kept[0].ts, \"2024-05-01T10:05:00+02:00\");\n    }\n\n"
                 "    #[test]\n    fn last_keeps_the_tail() {\n        let recs = [\n"
                 "            rec(\"2024-05-01T09:00:00Z\", \"info\"),\n"
                 "            rec(\"2024-05-01T11:50:00+02:00\", \"info\"),\n"
                 "            rec(\"2024-05-01T10:00:00Z\", \"info\"),\n        ];\n"
                 "        let kept = apply(&recs, &args(&[\"--last\", \"15m\"]));\n"
                 "        assert_eq!(kept.len(), 2);\n    }\n"),
            Probe("run the whole suite before I review please", needs=("nextest",)),
            Bash("cargo nextest run", out=S1_NEXTEST_LAST_FAIL, ok=False, exit=100),
            Say("My bug: the window start is `newest - span`, I added the span instead, so the "
                "cutoff was in the future and nothing survived."),
            Edit("src/filter.rs", "Some(newest + span)", "Some(newest - span)"),
            Bash("cargo nextest run", out=S1_PASS_7),
            Commit("Add --last SPAN: keep records within SPAN of the newest one"),
        ), judge={"since-instants": "up"}),
    ),
)

# ============================================================================================
# Story 2: JSON output conventions, a key-order gotcha, and a switch of color crates.

S2_BUILD_E0599 = """\
   Compiling logsift v0.4.2 (/home/maya/src/logsift)
error[E0599]: no method named `write_all` found for struct `BufWriter` in the current scope
  --> src/output.rs:19:21
   |
19 |                 out.write_all(b"\\n")?;
   |                     ^^^^^^^^^ method not found in `BufWriter<StdoutLock<'_>>`
   |
   = help: items from traits can only be used if the trait is in scope
help: trait `Write` which provides `write_all` is implemented but not in scope; perhaps you want \
to import it
   |
1  + use std::io::Write;
   |

error[E0599]: no method named `flush` found for struct `BufWriter` in the current scope
  --> src/output.rs:21:17
   |
21 |             out.flush()?;
   |                 ^^^^^ method not found in `BufWriter<StdoutLock<'_>>`
   |
   = help: items from traits can only be used if the trait is in scope
help: trait `Write` which provides `flush` is implemented but not in scope; perhaps you want to \
import it
   |
1  + use std::io::Write;
   |

For more information about this error, try `rustc --explain E0599`.
error: could not compile `logsift` (bin "logsift") due to 2 previous errors"""

S2_RUN_JSON = """\
{"ts":"2024-05-01T09:58:12Z","level":"info","target":"app::cache","msg":"cache warmed"}
{"ts":"2024-05-01T10:02:40Z","level":"warn","target":"app::disk","msg":"disk almost full"}
{"ts":"2024-05-01T10:03:05Z","level":"error","target":"app::http","msg":"upstream timed out"}"""

S2_TEST_3 = cargo_test_ok(
    "3.12s",
    (LS_UNIT, ["filter::tests::level_filter_keeps_warn_and_above"], "0.00"),
    (LS_CLI, ["missing_file_is_an_error", "json_is_one_object_per_line", "filters_by_level"],
     "0.06"),
    crate=LS_CRATE)
S2_TEST_4 = cargo_test_ok(
    "3.40s",
    (LS_UNIT, ["filter::tests::level_filter_keeps_warn_and_above"], "0.00"),
    (LS_CLI, ["missing_file_is_an_error", "fields_keeps_requested_keys_in_order",
              "json_is_one_object_per_line", "filters_by_level"], "0.07"),
    crate=LS_CRATE)

S2_TREE_DUPES = """\
warning: nothing to print.

To find dependencies that require specific target platforms, try to use option `--target all` \
first, and then narrow your search scope accordingly."""

S2_CLIPPY_BOOL = f"""\
    Checking owo-colors v4.0.0
    Checking logsift v0.4.3 (/home/maya/src/logsift)
error: equality checks against true are unnecessary
  --> src/output.rs:19:32
   |
19 |                 let level = if colored == true {{ paint(&level) }} else {{ level }};
   |                                ^^^^^^^^^^^^^^^ help: try simplifying it as shown: `colored`
   |
   = help: for further information visit {CLIPPY_URL}#bool_comparison
   = note: `-D clippy::bool-comparison` implied by `-D warnings`
   = help: to override `-D warnings` add `#[allow(clippy::bool_comparison)]`

error: could not compile `logsift` (bin "logsift") due to 1 previous error
warning: build failed, waiting for other jobs to finish...
error: could not compile `logsift` (bin "logsift" test) due to 1 previous error"""

S2_TEST_FIELDS_FAIL = """\
   Compiling logsift v0.4.3 (/home/maya/src/logsift)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 3.37s
     Running unittests src/main.rs (target/debug/deps/logsift-5c1e0f7a9b3d2e84)

running 1 test
test filter::tests::level_filter_keeps_warn_and_above ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/cli.rs (target/debug/deps/cli-0b7d4f2c8a61e953)

running 4 tests
test missing_file_is_an_error ... ok
test json_is_one_object_per_line ... ok
test filters_by_level ... ok
test fields_keeps_requested_keys_in_order ... FAILED

failures:

---- fields_keeps_requested_keys_in_order stdout ----
thread 'fields_keeps_requested_keys_in_order' panicked at tests/cli.rs:45:10:
Unexpected stdout, failed diff original var
├── original: {"ts":"2024-05-01T10:03:05Z","msg":"upstream timed out"}
├── diff:
│   --- \torig
│   +++ \tvar
│   @@ -1 +1 @@
│   -{"ts":"2024-05-01T10:03:05Z","msg":"upstream timed out"}
│   +{"msg":"upstream timed out","ts":"2024-05-01T10:03:05Z"}
└── var as str: {"msg":"upstream timed out","ts":"2024-05-01T10:03:05Z"}

command=`"/home/maya/src/logsift/target/debug/logsift" "tests/fixtures/app.log" "-l" "error" \
"-f" "json" "--fields" "ts,msg"`
code=0
stdout=```{"msg":"upstream timed out","ts":"2024-05-01T10:03:05Z"}
```

stderr=``````

note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    fields_keeps_requested_keys_in_order

test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.08s

error: test failed, to rerun pass `--test cli`"""

S2_BUILD_E0609 = """\
   Compiling logsift v0.4.3 (/home/maya/src/logsift)
error[E0609]: no field `color` on type `Args`
  --> src/main.rs:13:45
   |
13 |     output::render(&kept, args.format, args.color, args.fields.as_deref())?;
   |                                             ^^^^^ unknown field
   |
   = note: available fields are: `input`, `level`, `since`, `format`, `fields`

error[E0061]: this function takes 3 arguments but 4 arguments were supplied
  --> src/main.rs:13:5
   |
13 |     output::render(&kept, args.format, args.color, args.fields.as_deref())?;
   |     ^^^^^^^^^^^^^^                     ---------- unexpected argument
   |
note: function defined here
  --> src/output.rs:13:8
   |
13 | pub fn render(records: &[&Record], format: Format, fields: Option<&[String]>) -> Result<()> {
   |        ^^^^^^
help: remove the extra argument
   |
13 -     output::render(&kept, args.format, args.color, args.fields.as_deref())?;
13 +     output::render(&kept, args.format, args.fields.as_deref())?;
   |

Some errors have detailed explanations: E0061, E0609.
For more information about an error, try `rustc --explain E0061`.
error: could not compile `logsift` (bin "logsift") due to 2 previous errors"""

S2_OUTPUT_OWO = """\
use std::io::{self, BufWriter, IsTerminal, Write};

use anyhow::Result;
use owo_colors::OwoColorize;

use crate::cli::{ColorWhen, Format};
use crate::record::Record;

pub fn render(records: &[&Record], format: Format, color: ColorWhen) -> Result<()> {
    let colored = match color {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => io::stdout().is_terminal(),
    };
    match format {
        Format::Table => {
            for r in records {
                let level = format!("{:<5}", r.level.to_uppercase());
                let level = if colored == true { paint(&level) } else { level };
                println!("{:<25} {level} {:<12} {}", r.ts, r.target, r.msg);
            }
        }
        Format::Json => {
            let mut out = BufWriter::new(io::stdout().lock());
            for r in records {
                serde_json::to_writer(&mut out, r)?;
                out.write_all(b"\\n")?;
            }
            out.flush()?;
        }
    }
    Ok(())
}

fn paint(level: &str) -> String {
    match level.trim_end() {
        "ERROR" => level.red().bold().to_string(),
        "WARN" => level.yellow().to_string(),
        _ => level.dimmed().to_string(),
    }
}
"""

S2_OUTPUT_ANSTREAM = """\
use std::io::{self, BufWriter, Write};

use anstyle::{AnsiColor, Style};
use anyhow::Result;

use crate::cli::Format;
use crate::record::Record;

const ERROR: Style = AnsiColor::Red.on_default().bold();
const WARN: Style = AnsiColor::Yellow.on_default();
const DIM: Style = Style::new().dimmed();

pub fn render(records: &[&Record], format: Format, fields: Option<&[String]>) -> Result<()> {
    match format {
        Format::Table => {
            for r in records {
                let level = format!("{:<5}", r.level.to_uppercase());
                let style = match level.trim_end() {
                    "ERROR" => ERROR,
                    "WARN" => WARN,
                    _ => DIM,
                };
                anstream::println!(
                    "{:<25} {style}{level}{style:#} {:<12} {}",
                    r.ts,
                    r.target,
                    r.msg
                );
            }
        }
        Format::Json => {
            let mut out = BufWriter::new(io::stdout().lock());
            for r in records {
                match fields {
                    Some(keys) => serde_json::to_writer(&mut out, &pick(r, keys)?)?,
                    None => serde_json::to_writer(&mut out, r)?,
                }
                out.write_all(b"\\n")?;
            }
            out.flush()?;
        }
    }
    Ok(())
}

fn pick(r: &Record, keys: &[String]) -> Result<serde_json::Map<String, serde_json::Value>> {
    let serde_json::Value::Object(mut full) = serde_json::to_value(r)? else {
        unreachable!("a Record serializes to an object");
    };
    Ok(keys.iter().filter_map(|k| full.remove_entry(k)).collect())
}
"""

S2_TABLE_PLAIN = """\
2024-05-01T09:58:12Z      INFO  app::cache   cache warmed
2024-05-01T10:02:40Z      WARN  app::disk    disk almost full
2024-05-01T10:03:05Z      ERROR app::http    upstream timed out"""

S2_TABLE_FORCED = """\
2024-05-01T09:58:12Z      ^[[2mINFO ^[[0m app::cache   cache warmed
2024-05-01T10:02:40Z      ^[[33mWARN ^[[0m app::disk    disk almost full
2024-05-01T10:03:05Z      ^[[1m^[[31mERROR^[[0m app::http    upstream timed out"""

JSON_OUTPUT = Story(
    id="rs-logsift-json-output",
    title="Output conventions (NDJSON, stdout only for data), serde_json key order, and "
          "owo-colors replaced by anstream",
    project=LOGSIFT,
    lessons=(
        lesson("ndjson", "convention",
               "--format json prints NDJSON: one compact JSON object per line so it streams "
               "into jq/awk, never a single pretty-printed array",
               "ndjson|json lines|json-lines|jsonl|newline-delimited|object per line",
               "--format|format|output|emit|print"),
        lesson("stderr-diag", "convention",
               "stdout carries only records; warnings and diagnostics (e.g. skipped lines) go "
               "to stderr via eprintln!",
               "stderr|eprintln", "stdout"),
        lesson("color-owo", "decision",
               "Table colors use the owo-colors crate behind our own --color auto|always|never "
               "flag (auto = stdout is a terminal)",
               "owo-colors|owo_colors|owo"),
        lesson("preserve-order", "gotcha",
               "serde_json::Map sorts keys (BTreeMap) unless serde_json's `preserve_order` "
               "feature is enabled; --fields output relies on it to keep the requested order",
               "preserve_order|preserve-order", "serde_json|map|order|key"),
        lesson("color-anstream", "convention",
               "Color goes through anstream/anstyle (anstream::println!): it strips ANSI when "
               "stdout isn't a terminal and honours NO_COLOR/CLICOLOR_FORCE; no hand-rolled "
               "color detection or --color flag",
               "anstream|anstyle"),
    ),
    also=(
        # session 1, Say: "anything it doesn't know ranks 0, same as trace. So `--level warning`
        # ..."
        lesson("also-unknown-level-trace", "gotcha",
               "rank() in src/filter.rs ranks any level name it doesn't know as 0, the same as "
               "trace, so `--level warning` silently keeps everything and WARNING records rank as "
               "trace",
               "rank", "trace", "warning|unknown|doesn't know|does not know|unrecogni"),
        # session 2, Commit: "Skip unparsable lines with a note on stderr instead of aborting"
        lesson("also-skip-corrupt-lines", "decision",
               "A corrupt or unparsable input line no longer aborts the run: record::read_all "
               "skips it with a `logsift: skipping line N: ...` note on stderr and carries on",
               "skip", "unparsable|unparseable|corrupt|junk|invalid|malformed",
               "abort|carry on|carries on|continu|kill|fatal"),
        # session 2, Bash: "cargo clippy --all-targets -- -D warnings"
        lesson("also-clippy", "command",
               "Lint with `cargo clippy --all-targets -- -D warnings` (as CI does); any warning "
               "fails it",
               "clippy", "-D warnings|--all-targets"),
        # session 3, Compact: "projection via pick() in src/output.rs"
        lesson("also-fields-pick", "fact",
               "--fields (comma-separated keys) is implemented by pick() in src/output.rs, which "
               "serializes the Record to a serde_json Map and keeps only the requested keys",
               "pick()|fn pick|pick(r", "fields|output.rs"),
        # session 5, Say: "JSON: a single compact line such as {\"total\":3,\"by_level\":...}"
        lesson("also-count-shape", "decision",
               "Agreed shape for --count: the table prints one `LEVEL  COUNT` line per level plus "
               "a total; JSON prints one compact object like {\"total\":3,\"by_level\":{...}}; the "
               "count goes to stdout",
               "count", "by_level|total"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning. the coffee machine on 3 is broken again so forgive the typos. so, "
                 "Priya's team wants to pipe logsift into jq and a couple of awk scripts, and "
                 "--format json is one giant pretty array right now: nothing comes out until "
                 "the whole file is read, and awk can't do anything with it. the standard for "
                 "anything we emit as json should be one compact object per line, i.e. ndjson, "
                 "so it streams. and while we're on pipes, one thing that bugs me in general is "
                 "CLIs that print warnings into stdout, it wrecks every pipeline: stdout is "
                 "data only, anything chatty goes to stderr. anyway, can you fix the json "
                 "output?", states=("ndjson", "stderr-diag")),
            Read("src/output.rs"),
            Edit("src/output.rs", "use anyhow::Result;\n",
                 "use std::io::{self, BufWriter};\n\nuse anyhow::Result;\n"),
            Edit("src/output.rs",
                 "            println!(\"{}\", serde_json::to_string_pretty(&records)?);\n",
                 "            let mut out = BufWriter::new(io::stdout().lock());\n"
                 "            for r in records {\n"
                 "                serde_json::to_writer(&mut out, r)?;\n"
                 "                out.write_all(b\"\\n\")?;\n            }\n"
                 "            out.flush()?;\n"),
            Bash("cargo build", out=S2_BUILD_E0599, ok=False, exit=101),
            Edit("src/output.rs", "use std::io::{self, BufWriter};\n",
                 "use std::io::{self, BufWriter, Write};\n"),
            Bash("cargo build", out=build_ok(LS_CRATE, "1.63s")),
            Bash("cargo run -q -- tests/fixtures/app.log -f json", out=S2_RUN_JSON),
            Edit("tests/cli.rs",
                 MISSING_FILE_TEST_END,
                 MISSING_FILE_TEST_END + "\n"
                 "#[test]\nfn json_is_one_object_per_line() {\n"
                 "    let out = Command::cargo_bin(\"logsift\")\n        .unwrap()\n"
                 "        .args([\"tests/fixtures/app.log\", \"-f\", \"json\"])\n"
                 "        .output()\n        .unwrap();\n"
                 "    let text = String::from_utf8(out.stdout).unwrap();\n"
                 "    assert_eq!(text.lines().count(), 3);\n"
                 "    for line in text.lines() {\n"
                 "        serde_json::from_str::<serde_json::Value>(line).unwrap();\n    }\n}\n"),
            Bash("cargo test", out=S2_TEST_3),
            Commit("--format json: stream one compact object per line"),
            User("sweet, Priya says jq is happy. thanks"),
        )),
        Session(day=3, noise=True, events=(
            User("hey! quiet friday. remind me how --level decides what to keep? someone asked "
                 "whether `--level warning` works"),
            Read("src/filter.rs"),
            Say("`rank()` looks the name up in LEVELS case-insensitively, and anything it "
                "doesn't know ranks 0, same as trace. So `--level warning` behaves like "
                "`--level trace` and keeps everything, and records with a level of WARNING are "
                "ranked as trace too."),
            User("huh. ok, not today's problem, I'll file an issue"),
            User("can you check whether we're pulling in duplicate crates?"),
            Bash("cargo tree -d", out=S2_TREE_DUPES),
            Say("No duplicates for this platform."),
            User("cool. bump the version to 0.4.3 please, Priya wants a build with the json "
                 "change"),
            Edit("Cargo.toml", 'version = "0.4.2"', 'version = "0.4.3"'),
            Bash("cargo build", out=build_ok("logsift v0.4.3 (/home/maya/src/logsift)", "1.58s")),
            Bash("cargo test", out=S2_TEST_3.replace("v0.4.2", "v0.4.3")),
            Commit("Bump version to 0.4.3"),
            User("thanks, have a good weekend!"),
            Say("You too!"),
        )),
        Session(day=8, events=(
            User("so. the table is a wall of grey and people keep asking for colors on the "
                 "level column. I'd like you to use owo-colors for it, it's tiny and has no "
                 "deps, with a `--color auto|always|never` flag where auto means only when "
                 "stdout is a terminal.", states="color-owo"),
            Edit("Cargo.toml", 'serde = { version = "1", features = ["derive"] }\n',
                 'owo-colors = "4"\nserde = { version = "1", features = ["derive"] }\n'),
            Edit("src/cli.rs", "    pub format: Format,\n",
                 "    pub format: Format,\n\n"
                 "    /// When to color the table: auto, always, never\n"
                 "    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]\n"
                 "    pub color: ColorWhen,\n"),
            Edit("src/cli.rs", "    Json,\n}\n",
                 "    Json,\n}\n\n#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]\n"
                 "pub enum ColorWhen {\n    Auto,\n    Always,\n    Never,\n}\n"),
            Write("src/output.rs", S2_OUTPUT_OWO),
            Edit("src/main.rs", "    output::render(&kept, args.format)?;\n",
                 "    output::render(&kept, args.format, args.color)?;\n"),
            Bash("cargo clippy --all-targets -- -D warnings", out=S2_CLIPPY_BOOL, ok=False,
                 exit=101),
            Edit("src/output.rs", "if colored == true {", "if colored {"),
            Bash("cargo clippy --all-targets -- -D warnings",
                 out=build_ok("logsift v0.4.3 (/home/maya/src/logsift)", "0.71s",
                              verb="Checking")),
            Bash("cargo test", out=S2_TEST_3.replace("v0.4.2", "v0.4.3")),
            Commit("Color the level column (owo-colors) with --color auto|always|never"),
            Probe("another one from Priya: a single corrupt line in a 2 GB file kills the whole "
                  "run with `Error: expected value at line 1 column 1`. can it skip junk lines "
                  "and carry on?", needs=("stderr-diag",)),
            Edit("src/record.rs",
                 "    for line in reader.lines() {\n        let line = line?;\n"
                 "        if line.trim().is_empty() {\n            continue;\n        }\n"
                 "        out.push(serde_json::from_str(&line)?);\n",
                 "    for (n, line) in reader.lines().enumerate() {\n        let line = line?;\n"
                 "        if line.trim().is_empty() {\n            continue;\n        }\n"
                 "        match serde_json::from_str(&line) {\n"
                 "            Ok(rec) => out.push(rec),\n"
                 "            Err(e) => eprintln!(\"logsift: skipping line {}: {e}\", n + 1),\n"
                 "        }\n"),
            Bash("cargo run -q -- /tmp/corrupt.log -f json > /tmp/out.ndjson; echo \"exit=$?\"; "
                 "wc -l < /tmp/out.ndjson",
                 out="logsift: skipping line 2: expected value at line 1 column 1\nexit=0\n2"),
            Commit("Skip unparsable lines with a note on stderr instead of aborting"),
        )),
        Session(day=12, events=(
            Probe("could we get a `--fields ts,msg` option so people can pick which keys end up "
                  "in the json? the jq one-liners in the runbook all start by throwing most of "
                  "the keys away", needs=("ndjson",)),
            Read("src/output.rs"),
            Edit("src/cli.rs", "    pub color: ColorWhen,\n",
                 "    pub color: ColorWhen,\n\n"
                 "    /// Comma-separated keys to keep in JSON output, e.g. ts,msg\n"
                 "    #[arg(long, value_delimiter = ',')]\n"
                 "    pub fields: Option<Vec<String>>,\n"),
            Edit("src/output.rs",
                 "pub fn render(records: &[&Record], format: Format, color: ColorWhen) -> "
                 "Result<()> {\n",
                 "pub fn render(\n    records: &[&Record],\n    format: Format,\n"
                 "    color: ColorWhen,\n    fields: Option<&[String]>,\n) -> Result<()> {\n"),
            Edit("src/output.rs", "                serde_json::to_writer(&mut out, r)?;\n",
                 "                match fields {\n"
                 "                    Some(keys) => serde_json::to_writer(&mut out, "
                 "&pick(r, keys)?)?,\n"
                 "                    None => serde_json::to_writer(&mut out, r)?,\n"
                 "                }\n"),
            Edit("src/output.rs", "        _ => level.dimmed().to_string(),\n    }\n}\n",
                 "        _ => level.dimmed().to_string(),\n    }\n}\n\n"
                 "fn pick(r: &Record, keys: &[String]) -> "
                 "Result<serde_json::Map<String, serde_json::Value>> {\n"
                 "    let serde_json::Value::Object(mut full) = serde_json::to_value(r)? else {\n"
                 "        unreachable!(\"a Record serializes to an object\");\n    };\n"
                 "    Ok(keys.iter().filter_map(|k| full.remove_entry(k)).collect())\n}\n"),
            Edit("src/main.rs", "    output::render(&kept, args.format, args.color)?;\n",
                 "    output::render(&kept, args.format, args.color, args.fields.as_deref())?;\n"),
            Edit("tests/cli.rs",
                 "        serde_json::from_str::<serde_json::Value>(line).unwrap();\n    }\n}\n",
                 "        serde_json::from_str::<serde_json::Value>(line).unwrap();\n    }\n}\n\n"
                 "#[test]\nfn fields_keeps_requested_keys_in_order() {\n"
                 "    Command::cargo_bin(\"logsift\")\n        .unwrap()\n"
                 "        .args([\"tests/fixtures/app.log\", \"-l\", \"error\", \"-f\", \"json\", "
                 "\"--fields\", \"ts,msg\"])\n"
                 "        .assert()\n        .success()\n"
                 "        .stdout(concat!(r#\"{\"ts\":\"2024-05-01T10:03:05Z\","
                 "\"msg\":\"upstream timed out\"}\"#, \"\\n\"));\n}\n"),
            Bash("cargo test", out=S2_TEST_FIELDS_FAIL, ok=False, exit=101),
            Say("The keys come out sorted (`msg` before `ts`): serde_json::Map is a BTreeMap "
                "unless serde_json's `preserve_order` feature is on, in which case it's an "
                "IndexMap that keeps insertion order. --fields needs the requested order, so "
                "I'll enable the feature rather than sort in the test.",
                states="preserve-order"),
            Edit("Cargo.toml", 'serde_json = "1"\n',
                 'serde_json = { version = "1", features = ["preserve_order"] }\n'),
            Compact(instructions="Keep the --fields work: projection via pick() in "
                                 "src/output.rs, serde_json preserve_order enabled in "
                                 "Cargo.toml, test fields_keeps_requested_keys_in_order in "
                                 "tests/cli.rs; next step is a green cargo test and a commit."),
            Bash("cargo test", out=S2_TEST_4.replace("v0.4.2", "v0.4.3")),
            Commit("Add --fields to pick JSON keys, in the order given"),
        )),
        Session(day=18, events=(
            User("morning! follow-up on colors. Ed pointed out clap already pulls in anstream, "
                 "which strips the escape codes by itself when stdout isn't a terminal and "
                 "honours NO_COLOR and CLICOLOR_FORCE, which our flag doesn't. so we no longer "
                 "want owo-colors plus our own detection: scratch the --color flag, from now on "
                 "color goes through anstream's println! with anstyle styles.",
                 replaces="color-owo", states="color-anstream"),
            Edit("Cargo.toml", 'anyhow = "1"\n', 'anstream = "0.6"\nanstyle = "1"\nanyhow = "1"\n'),
            Edit("Cargo.toml", 'owo-colors = "4"\n', ""),
            Write("src/output.rs", S2_OUTPUT_ANSTREAM),
            Edit("src/cli.rs",
                 "\n    /// When to color the table: auto, always, never\n"
                 "    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]\n"
                 "    pub color: ColorWhen,\n", ""),
            Edit("src/cli.rs",
                 "\n#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]\n"
                 "pub enum ColorWhen {\n    Auto,\n    Always,\n    Never,\n}\n", ""),
            Bash("cargo build", out=S2_BUILD_E0609, ok=False, exit=101),
            Edit("src/main.rs", "args.format, args.color, args.fields", "args.format, args.fields"),
            Bash("cargo build", out=build_ok("logsift v0.4.3 (/home/maya/src/logsift)", "1.22s")),
            Bash("cargo run -q -- tests/fixtures/app.log | cat -v", out=S2_TABLE_PLAIN),
            Bash("CLICOLOR_FORCE=1 cargo run -q -- tests/fixtures/app.log | cat -v",
                 out=S2_TABLE_FORCED),
            Bash("cargo test", out=S2_TEST_4.replace("v0.4.2", "v0.4.3")),
            Commit("Color through anstream/anstyle; drop owo-colors and the --color flag"),
        )),
        Session(day=24, events=(
            Probe("small one: could the target column be dimmed too? the level and message "
                  "should be what pops", needs=("color-anstream",)),
            Edit("src/output.rs",
                 "                    \"{:<25} {style}{level}{style:#} {:<12} {}\",\n",
                 "                    \"{:<25} {style}{level}{style:#} {DIM}{:<12}{DIM:#} {}\",\n"),
            Bash("cargo test", out=S2_TEST_4.replace("v0.4.2", "v0.4.3")),
            Commit("Dim the target column"),
            Probe("next week I'd like a `--count` mode: just how many records matched, plus a "
                  "breakdown per level. how would you shape it, for the table and for json?",
                  needs=("ndjson", "stderr-diag")),
            Say("Table: one `LEVEL  COUNT` line per level and a total. JSON: a single compact "
                "line such as `{\"total\":3,\"by_level\":{\"info\":1,\"warn\":1,\"error\":1}}`, "
                "so it still reads as one object per line in a pipe. The count goes to stdout "
                "because it is the result; the skipped-line notes stay on stderr."),
            User("sounds right, let's do it monday"),
        )),
    ),
)

# ============================================================================================
# Story 3: a memmap2 reader that failed in production; error-context and exit-code conventions.

S3_RECORD_MMAP = """\
use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use memmap2::Mmap;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Record {
    pub ts: String,
    pub level: String,
    pub target: String,
    pub msg: String,
}

pub fn read_all(path: &Path) -> Result<Vec<Record>> {
    let file = File::open(path).with_context(|| format!("failed to open {}", path.display()))?;
    // SAFETY: read-only mapping of a file we don't write; assumes nobody truncates it meanwhile.
    let map = unsafe { Mmap::map(&file) }
        .with_context(|| format!("failed to map {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in map.split(|&b| b == b'\\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let rec = serde_json::from_slice(line)
            .with_context(|| format!("{}:{}: invalid record", path.display(), n + 1))?;
        out.push(rec);
    }
    Ok(out)
}
"""

S3_RECORD_STREAM = """\
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Record {
    pub ts: String,
    pub level: String,
    pub target: String,
    pub msg: String,
}

/// Opens `path` for streaming with a 64 KiB buffer; `-` reads stdin.
pub fn open_input(path: &Path) -> Result<Box<dyn BufRead>> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(BufReader::with_capacity(64 * 1024, io::stdin())));
    }
    let file = File::open(path).with_context(|| format!("failed to open {}", path.display()))?;
    Ok(Box::new(BufReader::with_capacity(64 * 1024, file)))
}

pub fn read_all(path: &Path) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for (n, line) in open_input(path)?.lines().enumerate() {
        let line = line.with_context(|| format!("failed to read {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let rec = serde_json::from_str(&line)
            .with_context(|| format!("{}:{}: invalid record", path.display(), n + 1))?;
        out.push(rec);
    }
    Ok(out)
}
"""

S3_MAIN_EXIT = """\
use std::process::ExitCode;

use clap::Parser;

mod cli;
mod filter;
mod output;
mod record;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match run(&args) {
        Ok(0) => ExitCode::from(1),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("logsift: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Returns how many records were printed.
fn run(args: &cli::Args) -> anyhow::Result<usize> {
    let records = record::read_all(&args.input)?;
    let kept = filter::apply(&records, args);
    output::render(&kept, args.format)?;
    Ok(kept.len())
}
"""

S3_FOLLOW = """\
use std::io::BufRead;
use std::path::Path;
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::record::{self, Record};

/// Calls `emit` for every record appended to `path`, like `tail -f`. Never returns Ok.
pub fn follow(path: &Path, mut emit: impl FnMut(&Record) -> Result<()>) -> Result<()> {
    let mut input = record::open_input(path)?;
    let mut line = String::new();
    loop {
        line.clear();
        let n = input
            .read_line(&mut line)
            .with_context(|| format!("failed to read {}", path.display()))?;
        if n == 0 {
            thread::sleep(Duration::from_millis(250));
            continue;
        }
        if let Ok(rec) = serde_json::from_str::<Record>(&line) {
            emit(&rec)?;
        }
    }
}
"""

S3_HYPERFINE_MMAP = """\
Benchmark 1: logsift-0.4.2 /var/tmp/big.log -l warn -f json
  Time (mean ± σ):      9.812 s ±  0.141 s    [User: 8.903 s, System: 0.897 s]
  Range (min … max):    9.640 s … 10.071 s    10 runs

Benchmark 2: target/release/logsift /var/tmp/big.log -l warn -f json
  Time (mean ± σ):      6.204 s ±  0.088 s    [User: 5.877 s, System: 0.318 s]
  Range (min … max):    6.101 s …  6.359 s    10 runs

Summary
  target/release/logsift /var/tmp/big.log -l warn -f json ran
    1.58 ± 0.03 times faster than logsift-0.4.2 /var/tmp/big.log -l warn -f json"""

S3_HYPERFINE_STREAM = """\
Benchmark 1: target/release/logsift /var/tmp/big.log -l warn -f json
  Time (mean ± σ):      6.731 s ±  0.102 s    [User: 6.012 s, System: 0.702 s]
  Range (min … max):    6.588 s …  6.912 s    10 runs"""

S3_TEST_2 = cargo_test_ok(
    "3.05s",
    (LS_UNIT, ["filter::tests::level_filter_keeps_warn_and_above"], "0.00"),
    (LS_CLI, ["missing_file_is_an_error", "filters_by_level"], "0.05"),
    crate=LS_CRATE)
S3_TEST_3 = cargo_test_ok(
    "2.98s",
    (LS_UNIT, ["filter::tests::level_filter_keeps_warn_and_above"], "0.00"),
    (LS_CLI, ["no_match_exits_1", "missing_file_is_an_error", "filters_by_level"], "0.06"),
    crate=LS_CRATE)

MMAP_READER = Story(
    id="rs-logsift-mmap-reader",
    title="A memmap2 reader chosen for speed SIGBUSes on logrotate and can't read stdin, so it "
          "is reverted; error-context and grep-like exit-code conventions",
    project=LOGSIFT,
    lessons=(
        lesson("mmap-reader", "decision",
               "Input files are memory-mapped with memmap2 and parsed with "
               "serde_json::from_slice, for speed on multi-GB logs",
               "memmap2|mmap|memory-map|memory map"),
        lesson("bufreader", "decision",
               "Input is streamed through BufReader::with_capacity(64 KiB) (file, or stdin via "
               "`-`); memmap2 was reverted because a mapped file SIGBUSes when logrotate's "
               "copytruncate shrinks it, and pipes can't be mapped",
               "BufReader|buffered reader|with_capacity|stream",
               "SIGBUS|bus error|copytruncate|truncat|stdin|pipe"),
        lesson("err-context", "convention",
               "Every fallible file operation gets anyhow context naming the path "
               "(.with_context(|| format!(\"failed to open {}\", path.display())))",
               "with_context|.context(|anyhow context|anyhow::Context", "path|file name"),
        lesson("exit-codes", "convention",
               "logsift exits like grep: 0 when records matched, 1 when nothing matched, 2 on "
               "errors",
               "exit", "grep|nothing matched|no match|2 on error|2 for error|2 for actual"),
    ),
    also=(
        # session 3, Say: "--follow can reuse `record::open_input` and keep reading lines"
        lesson("also-open-input", "fact",
               "record::open_input in src/record.rs is the one place input is opened (a file, or "
               "stdin for `-`, behind a 64 KiB BufReader); --follow in src/follow.rs reuses it and "
               "polls every 250 ms at EOF",
               "open_input", "record|follow|stdin|reuse"),
        # session 1, Write src/main.rs: "eprintln!(\"logsift: {e:#}\"); ExitCode::from(2)"
        lesson("also-error-print", "fact",
               "main() prints any error once as `logsift: {e:#}` on stderr, so the whole anyhow "
               "context chain shows (e.g. `logsift: failed to open does/not/exist.log: No such "
               "file "
               "or directory`)",
               "logsift:", "{e:#}|e:#|context chain|failed to open"),
        # session 0, Bash: "hyperfine -w 1 '... target/release/logsift /var/tmp/big.log -l warn -f
        # json'"
        lesson("also-hyperfine", "command",
               "Benchmark reading speed on a release build with `hyperfine -w 1 "
               "'target/release/logsift /var/tmp/big.log -l warn -f json'` (after cargo build "
               "--release)",
               "hyperfine", "big.log|target/release|release"),
        # session 3, Say: "With -F logsift only stops on an error (2) or a signal, so it doesn't
        # belong in that script."
        lesson("also-follow-exit", "gotcha",
               "With --follow (-F) logsift never exits 0 or 1: it only stops on an error (exit 2) "
               "or a signal, so it doesn't belong in scripts that branch on the exit status",
               "follow|-F",
               "only stops|never exits|never returns|signal|doesn't belong|does not belong"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! the SRE folks have started running logsift over 6 to 8 GB files "
                 "from the edge boxes and it takes forever. any quick wins on the reading side?"),
            Read("src/record.rs"),
            Say("Reading dominates: `BufReader::lines` allocates a String per line and "
                "validates UTF-8 before serde even looks at it. Quick win: memory-map the file "
                "with memmap2 and let serde_json parse straight from the mapped bytes "
                "(`from_slice`), splitting on newlines. No per-line allocation or copy, and the "
                "kernel does the read-ahead. The mapping assumes the file isn't truncated while "
                "we read it, which should hold for the archived files they're crunching.",
                states="mmap-reader"),
            User("sounds good, go for it. oh, and since you're in record.rs anyway: make sure "
                 "every file operation gets a `.with_context()` naming the path. a bare `No "
                 "such file or directory (os error 2)` with no file name drives me up the wall "
                 "when a cron job dies at 4am.", states="err-context"),
            Edit("Cargo.toml", 'clap = { version = "4.5", features = ["derive"] }\n',
                 'clap = { version = "4.5", features = ["derive"] }\nmemmap2 = "0.9"\n'),
            Write("src/record.rs", S3_RECORD_MMAP),
            Bash("cargo build --release",
                 out="   Compiling memmap2 v0.9.4\n" + build_ok(LS_CRATE, "14.87s",
                                                            profile="release")),
            Bash("hyperfine -w 1 'logsift-0.4.2 /var/tmp/big.log -l warn -f json' "
                 "'target/release/logsift /var/tmp/big.log -l warn -f json'",
                 out=S3_HYPERFINE_MMAP),
            Bash("cargo test", out=S3_TEST_2),
            Commit("Read input through memmap2; name the path in file errors"),
            User("1.6x, I'll take it. thanks!"),
        )),
        Session(day=4, events=(
            User("hey. Tomás is wiring logsift into the nightly alert script and asked what "
                 "exit status he gets when nothing matches. right now it's always 0, isn't it? "
                 "the standard here is to behave like grep: exit 0 when something matched, 1 "
                 "when nothing did, 2 for actual errors like a missing file or bad arguments. "
                 "can you make it so?", states="exit-codes"),
            Read("src/main.rs"),
            Write("src/main.rs", S3_MAIN_EXIT),
            Edit("tests/cli.rs",
                 MISSING_FILE_TEST_END,
                 "        .arg(\"does/not/exist.log\")\n        .assert()\n        .code(2)\n"
                 "        .stderr(predicate::str::contains(\"does/not/exist.log\"));\n}\n\n"
                 "#[test]\nfn no_match_exits_1() {\n    Command::cargo_bin(\"logsift\")\n"
                 "        .unwrap()\n"
                 "        .args([\"tests/fixtures/app.log\", \"--since\", "
                 "\"2030-01-01T00:00:00Z\"])\n"
                 "        .assert()\n        .code(1)\n        .stdout(\"\");\n}\n"),
            Bash("cargo test", out=S3_TEST_3),
            Bash("cargo clippy --all-targets -- -D warnings", out=S1_CLIPPY_OUTPUT_RS, ok=False,
                 exit=101),
            Say("Clippy trips over src/output.rs, which this change doesn't touch: a needless "
                "`&` in `to_string_pretty(&records)` that the newer clippy flags. Want me to fix "
                "it here?"),
            User("leave it, Ana's PR rewrites output.rs this week anyway"),
            Bash("./target/debug/logsift does/not/exist.log; echo \"exit=$?\"",
                 out="logsift: failed to open does/not/exist.log: No such file or directory "
                     "(os error 2)\nexit=2"),
            Commit("Exit like grep: 0 matched, 1 nothing matched, 2 on error"),
        )),
        Session(day=9, events=(
            User("bad news: Tomás's nightly job died twice this week with `Bus error (core "
                 "dumped)`, exit 135, both times right around midnight when logrotate runs "
                 "copytruncate on the app logs. also people keep asking for `zcat old.log.gz | "
                 "logsift -`, which doesn't work at all. is the mmap change to blame?"),
            Bash("cp /var/log/app/app.log /var/tmp/rotate-test.log && "
                 "(target/release/logsift /var/tmp/rotate-test.log -f json > /dev/null & "
                 "pid=$!; sleep 0.5; truncate -s 0 /var/tmp/rotate-test.log; wait $pid)",
                 out="bash: line 1: 48211 Bus error               (core dumped) "
                     "target/release/logsift /var/tmp/rotate-test.log -f json > /dev/null",
                 ok=False, exit=135),
            Say("Reproduced, and yes, it's the mmap. copytruncate shrinks the file while we "
                "have it mapped; touching a mapped page past the new end raises SIGBUS, which "
                "kills the process outright (135 = 128 + 7), with no error for anyhow to "
                "catch. And a pipe can't be mapped at all, so `-` for stdin is impossible with "
                "mmap. I'd revert memmap2 and go back to streaming: "
                "`BufReader::with_capacity(64 * 1024)` over the file or stdin, one line at a "
                "time. A truncated file then simply reads as EOF, and the bigger buffer keeps "
                "most of the speed-up.", fails="mmap-reader", states="bufreader"),
            Probe("ok, revert it. and make `-` mean stdin while you're in there",
                  needs=("err-context",)),
            Write("src/record.rs", S3_RECORD_STREAM),
            Edit("Cargo.toml", 'memmap2 = "0.9"\n', ""),
            Bash("cargo build --release", out=build_ok(LS_CRATE, "12.40s", profile="release")),
            Bash("cp /var/log/app/app.log /var/tmp/rotate-test.log && "
                 "(target/release/logsift /var/tmp/rotate-test.log -f json > /dev/null & "
                 "pid=$!; sleep 0.5; truncate -s 0 /var/tmp/rotate-test.log; wait $pid); "
                 "echo \"exit=$?\"", out="exit=0"),
            Bash("zcat /var/log/app/app.log.2.gz | target/release/logsift - -l error | head -3",
                 out="2024-05-06T23:41:07Z      ERROR app::http    upstream timed out\n"
                     "2024-05-06T23:41:09Z      ERROR app::http    upstream timed out\n"
                     "2024-05-06T23:58:30Z      ERROR app::db      pool exhausted"),
            Bash("hyperfine -w 1 'target/release/logsift /var/tmp/big.log -l warn -f json'",
                 out=S3_HYPERFINE_STREAM),
            Bash("cargo test", out=S3_TEST_3),
            Commit("Stream input with a 64 KiB BufReader again (mmap SIGBUSed on "
                   "copytruncate); `-` reads stdin"),
            User("cheers. 6.7 s against 6.2 is fine, and it doesn't crash, which is rather the "
                 "main thing"),
        ), judge={"mmap-reader": "down"}),
        Session(day=13, events=(
            Probe("ops would love a `--follow` mode, like tail -f, for watching a live log "
                  "during deploys", needs=("bufreader", "err-context")),
            Read("src/record.rs"),
            Say("--follow can reuse `record::open_input` and keep reading lines from the same "
                "reader; at EOF it sleeps 250 ms and tries again. Read errors carry the path "
                "like everything else, and each new record goes through the normal filter and "
                "output path."),
            Edit("src/cli.rs", "    pub since: Option<String>,\n",
                 "    pub since: Option<String>,\n\n"
                 "    /// Keep reading as the file grows, like `tail -f`\n"
                 "    #[arg(short = 'F', long)]\n    pub follow: bool,\n"),
            Write("src/follow.rs", S3_FOLLOW),
            Edit("src/main.rs", "mod filter;\n", "mod filter;\nmod follow;\n"),
            Edit("src/main.rs", "fn run(args: &cli::Args) -> anyhow::Result<usize> {\n",
                 "fn run(args: &cli::Args) -> anyhow::Result<usize> {\n"
                 "    if args.follow {\n"
                 "        follow::follow(&args.input, |r| {\n"
                 "            let kept = filter::apply(std::slice::from_ref(r), args);\n"
                 "            output::render(&kept, args.format)\n        })?;\n"
                 "        return Ok(1);\n    }\n"),
            Bash("cargo build", out=build_ok(LS_CRATE, "1.71s")),
            Bash("(sleep 1; echo '{\"ts\":\"2024-06-03T09:00:00Z\",\"level\":\"error\","
                 "\"target\":\"app::db\",\"msg\":\"pool exhausted\"}' >> /tmp/f.log) & "
                 "timeout 3 target/debug/logsift /tmp/f.log -F -l error; echo \"exit=$?\"",
                 out="2024-06-03T09:00:00Z      ERROR app::db      pool exhausted\nexit=124"),
            Bash("cargo test", out=S3_TEST_3),
            Probe("Tomás's alert wrapper does `if logsift nightly.log -l error --since ...; then "
                  "page; fi`. does anything in today's change affect what his script sees?",
                  needs=("exit-codes",)),
            Say("No. Without -F the exit status is unchanged: 0 when at least one record "
                "matched, 1 when none did, 2 when something went wrong (missing file, bad "
                "arguments). With -F logsift only stops on an error (2) or a signal, so it "
                "doesn't belong in that script."),
            Commit("Add --follow (-F): keep reading appended lines like tail -f"),
        ), judge={"bufreader": "up"}),
    ),
)

# ============================================================================================
# Story 4: MSRV 1.74 (LazyLock gotcha), the release routine, then MSRV raised to 1.80.

S4_ALIASES_STATIC = """\
static ALIASES: LazyLock<HashMap<&'static str, &'static str>> = LazyLock::new(|| {
    HashMap::from([
        ("warning", "warn"),
        ("severe", "error"),
        ("err", "error"),
        ("critical", "error"),
        ("fatal", "error"),
    ])
});

fn rank(level: &str) -> usize {
    let level = level.to_ascii_lowercase();
    let level = ALIASES.get(level.as_str()).copied().unwrap_or(level.as_str());
    LEVELS.iter().position(|l| *l == level).unwrap_or(0)
}
"""
S4_ALIASES_LAZYLOCK = (
    "use std::collections::HashMap;\nuse std::sync::LazyLock;\n\n"
    "use crate::cli::Args;\nuse crate::record::Record;\n\n"
    'const LEVELS: [&str; 5] = ["trace", "debug", "info", "warn", "error"];\n\n'
    + S4_ALIASES_STATIC
)

S4_ALIASES_ENV = """\
static ALIASES: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    let mut map: HashMap<String, String> = [
        ("warning", "warn"),
        ("severe", "error"),
        ("err", "error"),
        ("critical", "error"),
        ("fatal", "error"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    if let Ok(extra) = std::env::var("LOGSIFT_LEVEL_ALIASES") {
        for pair in extra.split(',') {
            if let Some((k, v)) = pair.split_once('=') {
                map.insert(k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase());
            }
        }
    }
    map
});

fn rank(level: &str) -> usize {
    let level = level.to_ascii_lowercase();
    let level = ALIASES.get(&level).map_or(level.as_str(), String::as_str);
    LEVELS.iter().position(|l| *l == level).unwrap_or(0)
}
"""

S4_MSRV_E0658 = """\
    Checking logsift v0.4.2 (/home/maya/src/logsift)
error[E0658]: use of unstable library feature 'lazy_cell'
 --> src/filter.rs:2:5
  |
2 | use std::sync::LazyLock;
  |     ^^^^^^^^^^^^^^^^^^^
  |
  = note: see issue #109736 <https://github.com/rust-lang/rust/issues/109736> for more information

error[E0658]: use of unstable library feature 'lazy_cell'
 --> src/filter.rs:9:17
  |
9 | static ALIASES: LazyLock<HashMap<&'static str, &'static str>> = LazyLock::new(|| {
  |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  |
  = note: see issue #109736 <https://github.com/rust-lang/rust/issues/109736> for more information

error[E0658]: use of unstable library feature 'lazy_cell'
 --> src/filter.rs:9:65
  |
9 | static ALIASES: LazyLock<HashMap<&'static str, &'static str>> = LazyLock::new(|| {
  |                                                                 ^^^^^^^^^^^^^
  |
  = note: see issue #109736 <https://github.com/rust-lang/rust/issues/109736> for more information

For more information about this error, try `rustc --explain E0658`.
error: could not compile `logsift` (bin "logsift") due to 3 previous errors
warning: build failed, waiting for other jobs to finish...
error: could not compile `logsift` (bin "logsift" test) due to 3 previous errors"""

S4_TEST_2 = cargo_test_ok(
    "3.21s",
    (LS_UNIT, ["filter::tests::aliases_map_onto_levels",
               "filter::tests::level_filter_keeps_warn_and_above"], "0.00"),
    (LS_CLI, ["missing_file_is_an_error", "filters_by_level"], "0.05"),
    crate=LS_CRATE)

S4_PUSH = """\
Enumerating objects: 11, done.
Counting objects: 100% (11/11), done.
Delta compression using up to 8 threads
Compressing objects: 100% (6/6), done.
Writing objects: 100% (6/6), 1.02 KiB | 1.02 MiB/s, done.
Total 6 (delta 4), reused 0 (delta 0), pack-reused 0
To git.internal:tools/logsift.git
   4be1c2a..9f03d7e  main -> main"""

S4_RELEASE_DRY = """\
   Upgrading logsift from 0.4.2 to 0.4.3
  Committing chore: Release logsift version 0.4.3
  Publishing logsift
   Packaging logsift v0.4.3 (/home/maya/src/logsift)
    Packaged 12 files, 40.8KiB (11.7KiB compressed)
   Verifying logsift v0.4.3 (/home/maya/src/logsift)
   Compiling logsift v0.4.3 (/home/maya/src/logsift/target/package/logsift-0.4.3)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 9.12s
warning: aborting upload due to dry run
     Tagging logsift v0.4.3
     Pushing Pushing main, v0.4.3 to origin
warning: aborting release due to dry run; re-run with `--execute`"""

S4_RELEASE_RESUME = """\
  Publishing logsift
    Updating crates.io index
   Packaging logsift v0.4.3 (/home/maya/src/logsift)
    Packaged 12 files, 40.8KiB (11.7KiB compressed)
   Verifying logsift v0.4.3 (/home/maya/src/logsift)
   Compiling logsift v0.4.3 (/home/maya/src/logsift/target/package/logsift-0.4.3)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 9.40s
   Uploading logsift v0.4.3 (/home/maya/src/logsift)
    Uploaded logsift v0.4.3 to registry `crates-io`
note: waiting for `logsift v0.4.3` to be available at registry `crates-io`.
You may press ctrl-c to skip waiting; the crate should be available shortly.
   Published logsift v0.4.3 at registry `crates-io`"""

S4_RELEASE_MINOR = """\
   Upgrading logsift from 0.4.3 to 0.5.0
  Committing chore: Release logsift version 0.5.0
  Publishing logsift
    Updating crates.io index
   Packaging logsift v0.5.0 (/home/maya/src/logsift)
    Packaged 12 files, 41.3KiB (11.9KiB compressed)
   Verifying logsift v0.5.0 (/home/maya/src/logsift)
   Compiling logsift v0.5.0 (/home/maya/src/logsift/target/package/logsift-0.5.0)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 9.03s
   Uploading logsift v0.5.0 (/home/maya/src/logsift)
    Uploaded logsift v0.5.0 to registry `crates-io`
note: waiting for `logsift v0.5.0` to be available at registry `crates-io`.
You may press ctrl-c to skip waiting; the crate should be available shortly.
   Published logsift v0.5.0 at registry `crates-io`
     Tagging logsift v0.5.0
     Pushing Pushing main, v0.5.0 to origin"""

S4_RUSTUP_MISSING = """\
error: toolchain '1.80-x86_64-unknown-linux-gnu' is not installed
help: run `rustup toolchain install 1.80-x86_64-unknown-linux-gnu` to install it"""

S4_RUSTUP_INSTALL = """\
info: syncing channel updates for '1.80-x86_64-unknown-linux-gnu'
info: latest update on 2024-08-08, rust version 1.80.1 (3f5fd8dd4 2024-08-06)
info: downloading component 'cargo'
info: downloading component 'rust-std'
info: downloading component 'rustc'
info: installing component 'cargo'
info: installing component 'rust-std'
info: installing component 'rustc'

  1.80-x86_64-unknown-linux-gnu installed - rustc 1.80.1 (3f5fd8dd4 2024-08-06)

info: checking for self-update"""

MSRV = Story(
    id="rs-logsift-msrv",
    title="MSRV 1.74 breaks on std LazyLock (use once_cell), the cargo-release routine from "
          "MEMORY.md, a release interrupted by a dead laptop, then MSRV raised to 1.80",
    project=LOGSIFT,
    lessons=(
        lesson("release-cmd", "command",
               "Releases are cut with `cargo release <level> --execute` from an up-to-date main; "
               "never bump the version in Cargo.toml by hand",
               "cargo release|cargo-release"),
        lesson("changelog", "convention",
               "Every user-visible change gets a line under `## Unreleased` in CHANGELOG.md; "
               "release notes are generated from it",
               "changelog", "unreleased"),
        lesson("msrv-174", "convention",
               "MSRV is Rust 1.74 (rust-version in Cargo.toml, checked by CI's msrv job with "
               "the 1.74 toolchain) because the Debian bookworm-backports build uses it",
               "1.74", "msrv|rust-version|rust version|minimum supported|toolchain"),
        lesson("lazylock-gotcha", "gotcha",
               "std::sync::LazyLock is only stable since Rust 1.80; on the 1.74 MSRV toolchain "
               "it fails with E0658 (unstable `lazy_cell`), so use once_cell::sync::Lazy",
               "once_cell", "1.74|E0658|lazy_cell|unstable"),
        lesson("msrv-180", "convention",
               "MSRV is now Rust 1.80 (rust-version = \"1.80\", CI msrv job on 1.80); std "
               "LazyLock is allowed and once_cell is gone",
               "1.80", "msrv|rust-version|rust version|minimum supported|toolchain"),
    ),
    also=(
        # session 1, Bash: "cargo +1.74 check --all-targets"
        lesson("also-msrv-check", "command",
               "Check the MSRV locally with `cargo +1.74 check --all-targets` (what CI's msrv job "
               "runs; `cargo +1.80 check --all-targets` after the raise)",
               "re:cargo \\+\\S+ check"),
        # session 1, Say: "My local stable is 1.82, which is why it compiled here."
        lesson("also-local-stable-newer", "gotcha",
               "The local stable toolchain (1.82) is newer than the MSRV, so code that needs a "
               "newer Rust compiles and tests fine locally and only fails in CI's msrv job",
               "1.82|local stable|local toolchain|newer toolchain",
               "msrv|1.74|1.80|rust-version|compiled here"),
        # session 3, Say: "cargo-release can pick up from that step: publish, then tag, then push."
        lesson("also-release-resume", "command",
               "If a cargo release dies midway (release commit made, but no tag, nothing pushed, "
               "crates.io still on the old version per `cargo search logsift`), finish it step by "
               "step with `cargo release publish`, then `tag`, then `push`, each with --execute "
               "--no-confirm",
               "cargo release|cargo-release",
               "re:\\b(release (publish|tag|push)|pick(ed)? up|resum\\w*|interrupt\\w*|"
               "died|dies|step by step)\\b"),
        # session 2, Edit CHANGELOG.md: "## Unreleased\n\n## 0.4.3 - 2024-05-14"
        lesson("also-changelog-release-heading", "convention",
               "Before running cargo release, put the Unreleased entries under a new `## <version> "
               "- <date>` heading in CHANGELOG.md (e.g. `## 0.4.3 - 2024-05-14`) and commit it",
               "changelog",
               "re:##\\s*(\\d+\\.\\d+\\.\\d+|<version>|x\\.y\\.z)"),
        # session 4, Edit CHANGELOG.md: "Extra level aliases can be set in LOGSIFT_LEVEL_ALIASES,
        # e.g. `NOTICE=info,ALERT=error`"
        lesson("also-level-aliases-env", "fact",
               "Extra level aliases come from the LOGSIFT_LEVEL_ALIASES env var (e.g. "
               "NOTICE=info,ALERT=error), read once on first use and merged over the built-in "
               "ALIASES table (WARNING, SEVERE, ERR, CRITICAL, FATAL) in src/filter.rs",
               "LOGSIFT_LEVEL_ALIASES"),
    ),
    sessions=(
        Session(day=0, notes=(
            Note("- Releases: `cargo release <patch|minor> --execute` from an up-to-date main; "
                 "never bump the version in Cargo.toml by hand", states="release-cmd"),
        ), events=(
            User("morning ☕ could you teach the level filter about the names other stacks "
                 "use? the Java services log WARNING and SEVERE, the Go ones ERR, python "
                 "CRITICAL and FATAL. map them onto our five. and we always add a line under "
                 "## Unreleased in CHANGELOG.md for anything user-facing, the release notes "
                 "get generated from it.", states="changelog"),
            Read("src/filter.rs"),
            Edit("src/filter.rs",
                 "use crate::cli::Args;\nuse crate::record::Record;\n\n"
                 "const LEVELS: [&str; 5] = [\"trace\", \"debug\", \"info\", \"warn\", "
                 "\"error\"];\n"
                 "\nfn rank(level: &str) -> usize {\n"
                 "    LEVELS.iter().position(|l| l.eq_ignore_ascii_case(level)).unwrap_or(0)\n"
                 "}\n",
                 S4_ALIASES_LAZYLOCK),
            Edit("src/filter.rs", "        assert_eq!(kept.len(), 1);\n    }\n}\n",
                 "        assert_eq!(kept.len(), 1);\n    }\n\n"
                 "    #[test]\n    fn aliases_map_onto_levels() {\n"
                 "        assert_eq!(rank(\"WARNING\"), rank(\"warn\"));\n"
                 "        assert_eq!(rank(\"Severe\"), rank(\"error\"));\n"
                 "        assert_eq!(rank(\"CRITICAL\"), rank(\"error\"));\n    }\n}\n"),
            Edit("CHANGELOG.md", "## Unreleased\n",
                 "## Unreleased\n\n"
                 "- `--level` and record levels understand WARNING, SEVERE, ERR, CRITICAL and "
                 "FATAL.\n"),
            Bash("cargo test", out=S4_TEST_2),
            Commit("Map WARNING/SEVERE/ERR/CRITICAL/FATAL onto our log levels"),
            Bash("git push", out=S4_PUSH),
            User("ta!"),
        )),
        Session(day=1, events=(
            User("CI went red on the msrv job after yesterday's push. fyi that job exists "
                 "because we keep rust-version = 1.74 in Cargo.toml: the Debian "
                 "bookworm-backports build for the ops boxes uses that toolchain, so anything "
                 "we write has to compile on 1.74.", states="msrv-174"),
            Bash("cargo +1.74 check --all-targets", out=S4_MSRV_E0658, ok=False, exit=101),
            Say("That's std::sync::LazyLock: it was only stabilised in Rust 1.80, so on the "
                "1.74 toolchain it's still the unstable `lazy_cell` feature (E0658). My local "
                "stable is 1.82, which is why it compiled here. once_cell::sync::Lazy is the "
                "same API and works on 1.74, so I'll use that.", states="lazylock-gotcha"),
            Edit("Cargo.toml", 'clap = { version = "4.5", features = ["derive"] }\n',
                 'clap = { version = "4.5", features = ["derive"] }\nonce_cell = "1.19"\n'),
            Edit("src/filter.rs",
                 "use std::collections::HashMap;\nuse std::sync::LazyLock;\n\n",
                 "use std::collections::HashMap;\n\nuse once_cell::sync::Lazy;\n\n"),
            Edit("src/filter.rs",
                 "static ALIASES: LazyLock<HashMap<&'static str, &'static str>> = "
                 "LazyLock::new(|| {\n",
                 "static ALIASES: Lazy<HashMap<&'static str, &'static str>> = Lazy::new(|| {\n"),
            Bash("cargo +1.74 check --all-targets",
                 out="    Checking once_cell v1.19.0\n"
                     "    Checking logsift v0.4.2 (/home/maya/src/logsift)\n"
                     "    Finished dev [unoptimized + debuginfo] target(s) in 2.08s"),
            Bash("cargo test", out=S4_TEST_2),
            Commit("Use once_cell::sync::Lazy: std LazyLock needs Rust 1.80, MSRV is 1.74"),
            User("green again, thanks"),
        )),
        Session(day=5, end=None, events=(
            Probe("I think the alias change is ready to go out as 0.4.3. can you do the "
                  "honours?", needs=("release-cmd", "changelog")),
            Read("CHANGELOG.md"),
            Edit("CHANGELOG.md", "## Unreleased\n\n- `--level`",
                 "## Unreleased\n\n## 0.4.3 - 2024-05-14\n\n- `--level`"),
            Commit("Changelog for 0.4.3"),
            Bash("cargo release patch", out=S4_RELEASE_DRY),
            Say("Dry run looks right: 0.4.2 to 0.4.3, publish, tag v0.4.3, push. Running it "
                "with --execute now."),
        )),
        Session(day=6, events=(
            User("ugh, my laptop froze in the middle of the release yesterday and I had to "
                 "hard-reset it. where did we end up?"),
            Bash("git log --oneline -3",
                 out="9c41d7e (HEAD -> main) chore: Release logsift version 0.4.3\n"
                     "5b0e2aa Changelog for 0.4.3\n"
                     "1f7c9d3 Use once_cell::sync::Lazy: std LazyLock needs Rust 1.80, MSRV is "
                     "1.74"),
            Bash("git tag --points-at HEAD; git status -sb | head -1",
                 out="## main...origin/main [ahead 2]"),
            Bash("cargo search logsift --limit 1",
                 out='logsift = "0.4.2"    # Filter and reformat JSON-lines logs\n'
                     "... and 2 crates more (use --limit N to see more)"),
            Say("The release commit (version bump to 0.4.3) is there, but there's no tag, "
                "nothing was pushed and crates.io still serves 0.4.2, so it died during "
                "publish. cargo-release can pick up from that step: publish, then tag, then "
                "push."),
            Bash("cargo release publish --execute --no-confirm", out=S4_RELEASE_RESUME),
            Bash("cargo release tag --execute --no-confirm", out="     Tagging logsift v0.4.3"),
            Bash("cargo release push --execute --no-confirm",
                 out="     Pushing Pushing main, v0.4.3 to origin"),
            User("phew. thank you"),
        )),
        Session(day=14, events=(
            User("hiya, news from packaging: bookworm-backports ships rustc 1.80 now, so we're "
                 "raising our MSRV to 1.80: rust-version in Cargo.toml and the msrv CI job. "
                 "which also means LazyLock from std is fine and the once_cell dep can go.",
                 replaces=("msrv-174", "lazylock-gotcha"), states="msrv-180"),
            Edit("Cargo.toml", 'rust-version = "1.74"', 'rust-version = "1.80"'),
            Edit("Cargo.toml", 'once_cell = "1.19"\n', ""),
            Edit(".github/workflows/ci.yml", "dtolnay/rust-toolchain@1.74",
                 "dtolnay/rust-toolchain@1.80"),
            Edit("src/filter.rs",
                 "use std::collections::HashMap;\n\nuse once_cell::sync::Lazy;\n\n",
                 "use std::collections::HashMap;\nuse std::sync::LazyLock;\n\n"),
            Edit("src/filter.rs",
                 "static ALIASES: Lazy<HashMap<&'static str, &'static str>> = Lazy::new(|| {\n",
                 "static ALIASES: LazyLock<HashMap<&'static str, &'static str>> = "
                 "LazyLock::new(|| {\n"),
            Bash("cargo +1.80 check --all-targets", out=S4_RUSTUP_MISSING, ok=False, exit=1),
            Bash("rustup toolchain install 1.80 --profile minimal", out=S4_RUSTUP_INSTALL),
            Bash("cargo +1.80 check --all-targets",
                 out=build_ok("logsift v0.4.3 (/home/maya/src/logsift)", "6.93s",
                              verb="Checking")),
            Edit("CHANGELOG.md", "## Unreleased\n", "## Unreleased\n\n- MSRV is now Rust 1.80.\n"),
            Bash("cargo test", out=S4_TEST_2.replace("v0.4.2", "v0.4.3")),
            Commit("Raise MSRV to 1.80; use std LazyLock instead of once_cell"),
        )),
        Session(day=20, events=(
            Probe("the ops folks want to add their own level names without waiting for a "
                  "release, via an env var like LOGSIFT_LEVEL_ALIASES=\"NOTICE=info,"
                  "ALERT=error\". read it once on first use and merge it over the built-in "
                  "table", needs=("msrv-180", "changelog")),
            Read("src/filter.rs"),
            Edit("src/filter.rs", S4_ALIASES_STATIC, S4_ALIASES_ENV),
            Edit("CHANGELOG.md", "## Unreleased\n",
                 "## Unreleased\n\n- Extra level aliases can be set in LOGSIFT_LEVEL_ALIASES, "
                 "e.g. `NOTICE=info,ALERT=error`.\n"),
            Bash("cargo +1.80 check --all-targets",
                 out=build_ok("logsift v0.4.3 (/home/maya/src/logsift)", "1.12s",
                              verb="Checking")),
            Bash("cargo test", out=S4_TEST_2.replace("v0.4.2", "v0.4.3")),
            Commit("Read extra level aliases from LOGSIFT_LEVEL_ALIASES"),
            Probe("lovely. let's get that out as 0.5.0 today", needs=("release-cmd",)),
            Bash("cargo release minor --execute --no-confirm", out=S4_RELEASE_MINOR),
            User("🎉 thanks!"),
        )),
    ),
)

# ============================================================================================
# Story 5: local-time table output, the TZ gotcha in CI, and a move to insta snapshots.

S5_BUILD_E0432 = """\
   Compiling logsift v0.4.2 (/home/maya/src/logsift)
error[E0432]: unresolved import `chrono::Local`
 --> src/output.rs:2:24
  |
2 | use chrono::{DateTime, Local};
  |                        ^^^^^ no `Local` in the root
  |
note: found an item that was configured out
   --> /home/maya/.cargo/registry/src/index.crates.io-6f17d22bba15001f/chrono-0.4.38/src/lib.rs:\
532:17
    |
532 | pub use offset::Local;
    |                 ^^^^^
    = note: the item is gated behind the `clock` feature

For more information about this error, try `rustc --explain E0432`.
error: could not compile `logsift` (bin "logsift") due to 1 previous error"""

S5_TABLE_BERLIN = """\
11:58:12 INFO  app::cache   cache warmed
12:02:40 WARN  app::disk    disk almost full
12:03:05 ERROR app::http    upstream timed out"""

S5_CARGO_TYPO = """\
error: no such command: `tset`

\tDid you mean `test`?

\tView all installed commands with `cargo --list`
\tFind a package to install `tset` with `cargo install tset`"""

S5_TEST_3 = cargo_test_ok(
    "3.33s",
    (LS_UNIT, ["filter::tests::level_filter_keeps_warn_and_above"], "0.00"),
    (LS_CLI, ["missing_file_is_an_error", "table_shows_local_time", "filters_by_level"], "0.06"),
    crate=LS_CRATE)
S5_CLI_ONLY = cargo_test_ok(
    "2.87s",
    (LS_CLI, ["missing_file_is_an_error", "table_shows_local_time", "filters_by_level"], "0.06"),
    crate=LS_CRATE)
S5_TEST_4 = cargo_test_ok(
    "0.41s",
    (LS_UNIT, ["filter::tests::warning_is_warn",
               "filter::tests::level_filter_keeps_warn_and_above"], "0.00"),
    (LS_CLI, ["missing_file_is_an_error", "table_shows_local_time", "filters_by_level"], "0.06"),
    crate=LS_CRATE)
S5_INSTA_CLI = "tests/cli.rs (target/debug/deps/cli-1f9e3a7c5b2d8064)"
S5_TEST_INSTA = cargo_test_ok(
    "3.02s",
    (LS_UNIT, ["filter::tests::warning_is_warn",
               "filter::tests::level_filter_keeps_warn_and_above"], "0.00"),
    (S5_INSTA_CLI, ["missing_file_is_an_error", "table_shows_local_time", "filters_by_level"],
     "0.05"),
    crate=LS_CRATE)

S5_HELP = """\
Filter and reformat JSON-lines logs.

Usage: logsift [OPTIONS] <INPUT>

Arguments:
  <INPUT>  Log file to read (JSON lines)

Options:
  -l, --level <LEVEL>    Minimum level to keep (trace, debug, info, warn, error) [default: info]
      --since <SINCE>    Only keep records at or after this RFC 3339 timestamp
  -f, --format <FORMAT>  Output format [default: table] [possible values: table, json]
  -h, --help             Print help
  -V, --version          Print version"""

S5_CLI_INSTA = """\
use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

/// logsift with TZ pinned to UTC, so table times don't depend on the machine running the test.
fn logsift() -> Command {
    let mut cmd = Command::new(get_cargo_bin("logsift"));
    cmd.env("TZ", "UTC");
    cmd
}

#[test]
fn filters_by_level() {
    assert_cmd_snapshot!(logsift().args(["tests/fixtures/app.log", "--level", "warn"]));
}

#[test]
fn table_shows_local_time() {
    assert_cmd_snapshot!(logsift().arg("tests/fixtures/app.log"));
}

#[test]
fn missing_file_is_an_error() {
    assert_cmd_snapshot!(logsift().arg("does/not/exist.log"));
}
"""

S5_INSTA_PENDING = """\
   Compiling insta v1.39.0
   Compiling insta-cmd v0.6.0
   Compiling logsift v0.4.2 (/home/maya/src/logsift)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 6.02s
     Running unittests src/main.rs (target/debug/deps/logsift-5c1e0f7a9b3d2e84)

running 2 tests
test filter::tests::warning_is_warn ... ok
test filter::tests::level_filter_keeps_warn_and_above ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/cli.rs (target/debug/deps/cli-1f9e3a7c5b2d8064)

running 3 tests
stored new snapshot /home/maya/src/logsift/tests/snapshots/cli__missing_file_is_an_error.snap.new
stored new snapshot /home/maya/src/logsift/tests/snapshots/cli__filters_by_level.snap.new
stored new snapshot /home/maya/src/logsift/tests/snapshots/cli__table_shows_local_time.snap.new
test missing_file_is_an_error ... ok
test filters_by_level ... ok
test table_shows_local_time ... ok

test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.05s

info: 3 snapshots to review
use `cargo insta review` to review snapshots"""

S5_SNAP = """\
---
source: tests/cli.rs
info:
  program: logsift
  args:
    - tests/fixtures/app.log
    - "--level"
    - warn
  env:
    TZ: UTC
---
success: true
exit_code: 0
----- stdout -----
10:02:40 WARN  app::disk    disk almost full
10:03:05 ERROR app::http    upstream timed out

----- stderr -----"""

S5_INSTA_DIFF = """\
   Compiling logsift v0.4.2 (/home/maya/src/logsift)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 2.71s
     Running unittests src/main.rs (target/debug/deps/logsift-5c1e0f7a9b3d2e84)

running 2 tests
test filter::tests::warning_is_warn ... ok
test filter::tests::level_filter_keeps_warn_and_above ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/cli.rs (target/debug/deps/cli-1f9e3a7c5b2d8064)

running 3 tests
test missing_file_is_an_error ... ok
test filters_by_level ... FAILED
test table_shows_local_time ... FAILED

failures:

---- filters_by_level stdout ----
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
Snapshot: filters_by_level
Source: tests/cli.rs:14
───────────────────────────────────────────────────────────────────────────────
Info: program: logsift
───────────────────────────────────────────────────────────────────────────────
-old snapshot
+new results
────────────┬──────────────────────────────────────────────────────────────────
    0     0 │ success: true
    1     1 │ exit_code: 0
    2     2 │ ----- stdout -----
          3 │+TIME     LEVEL TARGET       MESSAGE
    3     4 │ 10:02:40 WARN  app::disk    disk almost full
    4     5 │ 10:03:05 ERROR app::http    upstream timed out
    5     6 │
    6     7 │ ----- stderr -----
────────────┴──────────────────────────────────────────────────────────────────
To update snapshots run `cargo insta review`
Stopped on the first failure. Run `cargo insta test` to run all snapshots.
thread 'filters_by_level' panicked at /home/maya/.cargo/registry/src/\
index.crates.io-6f17d22bba15001f/insta-1.39.0/src/runtime.rs:563:9:
snapshot assertion for 'filters_by_level' failed in line 14
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

---- table_shows_local_time stdout ----
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
Snapshot: table_shows_local_time
Source: tests/cli.rs:19
───────────────────────────────────────────────────────────────────────────────
Info: program: logsift
───────────────────────────────────────────────────────────────────────────────
-old snapshot
+new results
────────────┬──────────────────────────────────────────────────────────────────
    0     0 │ success: true
    1     1 │ exit_code: 0
    2     2 │ ----- stdout -----
          3 │+TIME     LEVEL TARGET       MESSAGE
    3     4 │ 09:58:12 INFO  app::cache   cache warmed
    4     5 │ 10:02:40 WARN  app::disk    disk almost full
    5     6 │ 10:03:05 ERROR app::http    upstream timed out
────────────┴──────────────────────────────────────────────────────────────────
To update snapshots run `cargo insta review`
thread 'table_shows_local_time' panicked at /home/maya/.cargo/registry/src/\
index.crates.io-6f17d22bba15001f/insta-1.39.0/src/runtime.rs:563:9:
snapshot assertion for 'table_shows_local_time' failed in line 19


failures:
    filters_by_level
    table_shows_local_time

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.06s

error: test failed, to rerun pass `--test cli`"""

SNAPSHOTS = Story(
    id="rs-logsift-snapshots",
    title="Local-time table output passes on a Berlin laptop and fails in UTC CI (TZ gotcha, "
          "found by a subagent); CLI tests move from assert_cmd predicates to insta snapshots",
    project=LOGSIFT,
    lessons=(
        lesson("assert-cmd-tests", "convention",
               "CLI behaviour is tested end-to-end through the binary in tests/cli.rs with "
               "assert_cmd + predicates, not with unit tests on render()",
               "assert_cmd|assert-cmd", "predicates|tests/cli.rs|cli.rs"),
        lesson("chrono-clock", "gotcha",
               "chrono is built with default-features = false, so chrono::Local needs the "
               "`clock` feature enabled in Cargo.toml",
               "clock", "feature", "chrono|Local"),
        lesson("tz-gotcha", "gotcha",
               "The table renders times with chrono::Local, so its output depends on the "
               "machine's TZ (laptops Europe/Berlin, CI UTC); tests that check table times must "
               "set TZ=UTC on the child process",
               "TZ", "UTC", "test|tests|snapshot|CI"),
        lesson("insta-tests", "convention",
               "CLI output tests are insta snapshots (insta-cmd assert_cmd_snapshot! in "
               "tests/cli.rs); snapshot changes are reviewed with `cargo insta review`, never "
               "by hand-editing .snap files",
               "re:\\binsta(-cmd|_cmd)?\\b", "snap|snapshot|review"),
    ),
    also=(
        # session 3, Write tests/cli.rs: "/// logsift with TZ pinned to UTC ... fn logsift() ->
        # Command"
        lesson("also-logsift-helper", "convention",
               "Every CLI test builds its command through the logsift() helper in tests/cli.rs, "
               "which sets TZ=UTC on the child; new output tests should go through it",
               "re:logsift\\(\\)", "helper|TZ|tests/cli.rs"),
        # session 3, Bash: "stored new snapshot .../tests/snapshots/cli__filters_by_level.snap.new"
        lesson("also-snapshot-files", "fact",
               "Snapshots live in tests/snapshots/ as cli__<test>.snap; `cargo insta test` leaves "
               "new or changed ones beside them as .snap.new until reviewed",
               "tests/snapshots|snap.new|cli__"),
        # session 1, Bash: "TZ=America/New_York cargo test --test cli"
        lesson("also-tz-check", "command",
               "Check that the CLI tests don't depend on the machine's timezone by running them "
               "under another zone: `TZ=America/New_York cargo test --test cli`",
               "--test cli", "TZ"),
        # session 4, Probe: "platform is moving CI into a container image that has TZ=Asia/Tokyo
        # baked in"
        lesson("also-ci-tokyo", "fact",
               "CI is moving into a container image with TZ=Asia/Tokyo baked in, so CI is no "
               "longer "
               "UTC; only the TZ=UTC pin keeps table times stable, and any CI step running the "
               "binary outside the tests would see Tokyo time",
               "Tokyo", "CI|container"),
    ),
    sessions=(
        Session(day=0, events=(
            User("yo! the 3am crowd has a request: can the table show just the local "
                 "wall-clock time, HH:MM:SS, instead of the whole RFC 3339 string? nobody "
                 "reads `2024-05-01T09:58:12Z` at that hour. and re tests: the way we do things "
                 "here is end-to-end through the binary in tests/cli.rs, assert_cmd plus "
                 "predicates, rather than unit tests poking at render(). keeps us honest about "
                 "what people actually see.", states="assert-cmd-tests"),
            Read("src/output.rs"),
            Edit("src/output.rs", "use anyhow::Result;\n",
                 "use anyhow::Result;\nuse chrono::{DateTime, Local};\n"),
            Edit("src/output.rs",
                 "                println!(\"{:<25} {:<5} {:<12} {}\", r.ts, "
                 "r.level.to_uppercase(), r.target, r.msg);\n",
                 "                let time = DateTime::parse_from_rfc3339(&r.ts)\n"
                 "                    .map(|t| t.with_timezone(&Local).format(\"%H:%M:%S\")"
                 ".to_string())\n"
                 "                    .unwrap_or_else(|_| r.ts.clone());\n"
                 "                println!(\"{time:<8} {:<5} {:<12} {}\", "
                 "r.level.to_uppercase(), r.target, r.msg);\n"),
            Bash("cargo build", out=S5_BUILD_E0432, ok=False, exit=101),
            Say("chrono is pulled in with `default-features = false`, and `Local` (anything "
                "that reads the system clock or timezone) sits behind its `clock` feature. "
                "Enabling it.", states="chrono-clock"),
            Edit("Cargo.toml", 'features = ["std", "serde"]',
                 'features = ["clock", "std", "serde"]'),
            Bash("cargo build", out="   Compiling iana-time-zone v0.1.60\n"
                                    + build_ok(LS_CRATE, "2.04s")),
            Bash("cargo run -q -- tests/fixtures/app.log", out=S5_TABLE_BERLIN),
            Edit("tests/cli.rs",
                 MISSING_FILE_TEST_END,
                 MISSING_FILE_TEST_END + "\n"
                 "#[test]\nfn table_shows_local_time() {\n    Command::cargo_bin(\"logsift\")\n"
                 "        .unwrap()\n"
                 "        .args([\"tests/fixtures/app.log\", \"--level\", \"warn\"])\n"
                 "        .assert()\n        .success()\n"
                 "        .stdout(predicate::str::contains(\"12:02:40 WARN\"));\n}\n"),
            Bash("cargo tset", out=S5_CARGO_TYPO, ok=False, exit=101),
            Bash("cargo test", out=S5_TEST_3),
            Commit("Table shows local HH:MM:SS instead of the raw timestamp"),
            User("chef's kiss, thanks"),
        )),
        Session(day=1.5, events=(
            User("morning. CI went red on main overnight: table_shows_local_time. passes on my "
                 "laptop though?? could you send a subagent to dig through it while you do the "
                 "other thing: `--level warning` should work as an alias for warn, someone "
                 "tripped over it."),
            Subagent(report="CI failure in tests/cli.rs::table_shows_local_time: the test "
                            "expects `12:02:40 WARN`, the runner printed `10:02:40 WARN`. "
                            "Cause: output::render formats ts with chrono::Local, i.e. the "
                            "child process's TZ. Maya's laptop is Europe/Berlin (UTC+2 in "
                            "May); the GitHub runner has no TZ set, so Local is UTC there. The "
                            "test only passed locally because its expectation was copied from "
                            "Berlin output. Fix: set TZ=UTC on the child in the test "
                            "(`.env(\"TZ\", \"UTC\")`) and expect 10:02:40. Any test asserting "
                            "table times needs the same pin.",
                     states="tz-gotcha"),
            Say("The subagent nailed it: the expectation was Berlin time. Pinning TZ=UTC on the "
                "child process so the test means the same thing everywhere."),
            Edit("tests/cli.rs",
                 "        .args([\"tests/fixtures/app.log\", \"--level\", \"warn\"])\n"
                 "        .assert()\n        .success()\n"
                 "        .stdout(predicate::str::contains(\"12:02:40 WARN\"));\n",
                 "        .env(\"TZ\", \"UTC\")\n"
                 "        .args([\"tests/fixtures/app.log\", \"--level\", \"warn\"])\n"
                 "        .assert()\n        .success()\n"
                 "        .stdout(predicate::str::contains(\"10:02:40 WARN\"));\n"),
            Bash("TZ=America/New_York cargo test --test cli", out=S5_CLI_ONLY),
            Edit("src/filter.rs",
                 "    LEVELS.iter().position(|l| l.eq_ignore_ascii_case(level)).unwrap_or(0)\n",
                 "    let level = if level.eq_ignore_ascii_case(\"warning\") { \"warn\" } "
                 "else { level };\n"
                 "    LEVELS.iter().position(|l| l.eq_ignore_ascii_case(level)).unwrap_or(0)\n"),
            Edit("src/filter.rs", "        assert_eq!(kept.len(), 1);\n    }\n}\n",
                 "        assert_eq!(kept.len(), 1);\n    }\n\n"
                 "    #[test]\n    fn warning_is_warn() {\n"
                 "        assert_eq!(rank(\"WARNING\"), rank(\"warn\"));\n    }\n}\n"),
            Bash("cargo test", out=S5_TEST_4),
            Commit("Pin TZ=UTC in the local-time test; accept `warning` as a level"),
            User("thanks!"),
        )),
        Session(day=4, noise=True, events=(
            User("hey hey. nothing urgent today, just tidying. what does `logsift --help` look "
                 "like right now?"),
            Bash("cargo run -q -- --help", out=S5_HELP),
            User("the --level help could mention warning... eh, actually leave it, it's fine"),
            User("what's in tests/fixtures these days?"),
            Bash("ls tests/fixtures", out="app.log"),
            Read("tests/fixtures/app.log"),
            Say("Just app.log: three records, an info from app::cache, a warn from app::disk and "
                "an error from app::http."),
            User("ok. tiny thing: the INPUT help should say 'JSON-lines log file to read', it "
                 "reads a bit odd now"),
            Edit("src/cli.rs", "    /// Log file to read (JSON lines)\n",
                 "    /// JSON-lines log file to read\n"),
            Bash("cargo test", out=S5_TEST_4.replace("0.41s", "2.95s")),
            Commit("Reword the INPUT help text"),
            User("thanks, that's all for today 👋"),
            Say("👋"),
        )),
        Session(day=11, events=(
            User("back from PTO, brain mostly rebooted. while I was out a layout regression "
                 "slipped through: the level column lost its padding and every contains() check "
                 "in tests/cli.rs still passed. so I'd like to change how we test output: "
                 "scratch the assert_cmd + predicates checks for anything that prints. from now "
                 "on CLI output tests are insta snapshots (insta-cmd), and snapshot changes get "
                 "reviewed with `cargo insta review`; nobody hand-edits .snap files.",
                 replaces="assert-cmd-tests", states="insta-tests"),
            Edit("Cargo.toml", 'assert_cmd = "2"\npredicates = "3"\n',
                 'insta = "1.39"\ninsta-cmd = "0.6"\n'),
            Write("tests/cli.rs", S5_CLI_INSTA),
            Bash("cargo insta test", out=S5_INSTA_PENDING, ok=False, exit=1),
            Say("Three new snapshots are pending as .snap.new files. They need your eyes: "
                "`cargo insta review` walks through them. The helper keeps TZ=UTC on every "
                "invocation."),
            User("reviewed, accepted all three, they look right"),
            Bash("cat tests/snapshots/cli__filters_by_level.snap", out=S5_SNAP),
            Bash("cargo test", out=S5_TEST_INSTA),
            Commit("Snapshot CLI output with insta-cmd instead of contains() checks"),
            User("much better, thanks"),
        )),
        Session(day=16, events=(
            Probe("ops would like a header row on the table (TIME, LEVEL, TARGET, MESSAGE) so "
                  "screenshots pasted into incident docs make sense on their own",
                  needs=("insta-tests", "tz-gotcha")),
            Read("src/output.rs"),
            Edit("src/output.rs", "        Format::Table => {\n            for r in records {\n",
                 "        Format::Table => {\n"
                 "            println!(\"{:<8} {:<5} {:<12} MESSAGE\", \"TIME\", \"LEVEL\", "
                 "\"TARGET\");\n            for r in records {\n"),
            Bash("cargo test", out=S5_INSTA_DIFF, ok=False, exit=101),
            Say("Both table snapshots differ by exactly the new header line, which is the "
                "intended change, and the times still read 09:58/10:02 thanks to the TZ pin. "
                "They're waiting as .snap.new; could you `cargo insta review` and accept them?"),
            User("accepted both"),
            Bash("cargo test", out=S5_TEST_INSTA.replace("3.02s", "2.66s")),
            Commit("Add a header row to the table"),
            Probe("unrelated heads-up: platform is moving CI into a container image that has "
                  "TZ=Asia/Tokyo baked in, for reasons. will that bite us anywhere?",
                  needs=("tz-gotcha",)),
            Say("Not in the tests: every snapshot goes through the `logsift()` helper, which "
                "sets TZ=UTC on the child, so Tokyo never reaches the table. What would change "
                "is anything that runs the binary outside the tests in CI, e.g. a smoke step "
                "that greps times; none of those exist today."),
        )),
    ),
)


# --------------------------------------------------------------------------------------------
# stockroom helpers

def sr_test(secs: str, api: list[str], took: str = "0.31", *, compiled: bool = True) -> str:
    """A green `cargo test` in stockroom: lib and bin have no unit tests, tests/api.rs has."""
    return cargo_test_ok(secs, (SR_LIB, [], "0.00"), (SR_MAIN, [], "0.00"), (SR_API, api, took),
                         (SR_DOC, [], "0.00"), crate=SR_CRATE if compiled else "")


def sr_nextest(secs: str, api: list[str], *, compiled: bool = True) -> str:
    return nextest_ok(secs, [("stockroom::api", n) for n in api], binaries=3,
                      crate=SR_CRATE if compiled else "")


SR_API_2 = ["health_is_ok", "unknown_item_is_404"]
SR_MACRO_NOTE = ("   = note: this error originates in the macro "
                 "`$crate::sqlx_macros::expand_query` which comes from the expansion of the "
                 "macro `sqlx::query_as` (in Nightly builds, run with -Z macro-backtrace for more "
                 "info)")

# ============================================================================================
# Story 6: sqlx's compile-time checked queries, migrations and the offline query cache.

S6_DB_SKU = """\
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use uuid::Uuid;

#[derive(Debug, Serialize, sqlx::FromRow)]
pub struct Item {
    pub id: Uuid,
    pub sku: String,
    pub name: String,
    pub quantity: i32,
}

#[derive(Debug, Deserialize)]
pub struct NewItem {
    pub sku: String,
    pub name: String,
    pub quantity: i32,
}

pub async fn list_items(pool: &PgPool) -> sqlx::Result<Vec<Item>> {
    sqlx::query_as!(Item, "SELECT id, sku, name, quantity FROM items ORDER BY name")
        .fetch_all(pool)
        .await
}

pub async fn get_item(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<Item>> {
    sqlx::query_as!(Item, "SELECT id, sku, name, quantity FROM items WHERE id = $1", id)
        .fetch_optional(pool)
        .await
}

pub async fn insert_item(pool: &PgPool, new: &NewItem) -> sqlx::Result<Item> {
    sqlx::query_as!(
        Item,
        "INSERT INTO items (id, sku, name, quantity) VALUES ($1, $2, $3, $4) \\
         RETURNING id, sku, name, quantity",
        Uuid::new_v4(),
        new.sku,
        new.name,
        new.quantity
    )
    .fetch_one(pool)
    .await
}
"""

S6_DB_LOCATION = (S6_DB_SKU
                  .replace("    pub quantity: i32,\n}\n\n#[derive(Debug, Deserialize)]",
                           "    pub quantity: i32,\n    pub location: Option<String>,\n}\n\n"
                           "#[derive(Debug, Deserialize)]")
                  .replace("    pub quantity: i32,\n}\n\npub async",
                           "    pub quantity: i32,\n    pub location: Option<String>,\n}\n\n"
                           "pub async")
                  .replace("sku, name, quantity FROM", "sku, name, quantity, location FROM")
                  .replace("(id, sku, name, quantity) VALUES ($1, $2, $3, $4)",
                           "(id, sku, name, quantity, location) VALUES ($1, $2, $3, $4, $5)")
                  .replace("RETURNING id, sku, name, quantity\"",
                           "RETURNING id, sku, name, quantity, location\"")
                  .replace("        new.quantity\n",
                           "        new.quantity,\n        new.location\n")
                  .replace('    sqlx::query_as!(Item, "SELECT id, sku, name, quantity, location '
                           'FROM items WHERE id = $1", id)\n        .fetch_optional(pool)\n'
                           '        .await\n',
                           '    sqlx::query_as!(\n        Item,\n        "SELECT id, sku, name, '
                           'quantity, location FROM items WHERE id = $1",\n        id\n    )\n'
                           '    .fetch_optional(pool)\n    .await\n'))

S6_DB_ON_HAND = S6_DB_LOCATION.replace("quantity", "on_hand")

S6_BUILD_NO_COLUMN = f"""\
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
error: error returned from database: column "sku" does not exist
  --> src/db.rs:21:5
   |
21 |     sqlx::query_as!(Item, "SELECT id, sku, name, quantity FROM items ORDER BY name")
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   |
{SR_MACRO_NOTE}

error: error returned from database: column "sku" does not exist
  --> src/db.rs:27:5
   |
27 |     sqlx::query_as!(Item, "SELECT id, sku, name, quantity FROM items WHERE id = $1", id)
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   |
{SR_MACRO_NOTE}

error: error returned from database: column "sku" of relation "items" does not exist
  --> src/db.rs:33:5
   |
33 | /     sqlx::query_as!(
34 | |         Item,
35 | |         "INSERT INTO items (id, sku, name, quantity) VALUES ($1, $2, $3, $4) \\
36 | |          RETURNING id, sku, name, quantity",
...  |
40 | |         new.quantity
41 | |     )
   | |_____^
   |
{SR_MACRO_NOTE}

error: could not compile `stockroom` (lib) due to 3 previous errors"""

S6_BUILD_OFFLINE = f"""\
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
error: `SQLX_OFFLINE=true` but there is no cached data for this query, run `cargo sqlx prepare` \
to update the query cache or unset `SQLX_OFFLINE`
  --> src/db.rs:21:5
   |
21 |     sqlx::query_as!(Item, "SELECT id, sku, name, quantity FROM items ORDER BY name")
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   |
{SR_MACRO_NOTE}

error: `SQLX_OFFLINE=true` but there is no cached data for this query, run `cargo sqlx prepare` \
to update the query cache or unset `SQLX_OFFLINE`
  --> src/db.rs:27:5
   |
27 |     sqlx::query_as!(Item, "SELECT id, sku, name, quantity FROM items WHERE id = $1", id)
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   |
{SR_MACRO_NOTE}

error: `SQLX_OFFLINE=true` but there is no cached data for this query, run `cargo sqlx prepare` \
to update the query cache or unset `SQLX_OFFLINE`
  --> src/db.rs:33:5
   |
33 | /     sqlx::query_as!(
34 | |         Item,
...  |
41 | |     )
   | |_____^
   |
{SR_MACRO_NOTE}

error: could not compile `stockroom` (lib) due to 3 previous errors"""

S6_PREPARE = f"""\
    Checking stockroom v0.2.0 ({SR_ROOT})
{_finished("dev", "4.21s")}
query data written to .sqlx in the current directory; please check this into version control"""

S6_STATUS_SQLX = """\
 D .sqlx/query-1c5a0e3b9f27d48e6a1b0c9d3e7f2a5b8c4d1e6f0a3b7c2d9e5f1a4b8c0d3e6f.json
 D .sqlx/query-7e2b9d4c1a6f3e8b0d5c2a7f4e1b9d6c3a8f5e2b7d4c1a9f6e3b0d8c5a2f7e4b.json
 D .sqlx/query-b04f7c2e9a5d1b8f3c6e0a4d7b2f9c5e1a8d3b6f0c4e7a2d9b5f1c8e3a6d0b4f.json
?? .sqlx/query-3f9a6d2c8e1b5f0a7d4c9e2b6f3a8d1c5e0b7f4a9d2c6e3b8f1a5d0c7e4b9f2a.json
?? .sqlx/query-8c1e5b9f2a6d0c4e7b3f8a1d5c9e2b6f0a4d7c3e8b1f5a9d2c6e0b4f7a3d8c1e.json
?? .sqlx/query-d7b3f0a5c9e2d6b1f4a8c3e7d0b5f9a2c6e1d4b8f3a7c0e5d9b2f6a1c4e8d3b7.json"""

S6_API_3 = ["create_requires_sku", "health_is_ok", "unknown_item_is_404"]

SQLX_OFFLINE = Story(
    id="rs-stockroom-sqlx-offline",
    title="sqlx query! macros check SQL at compile time: migrations first, then "
          "`cargo sqlx prepare` for CI's offline build; the dev database's port",
    project=STOCKROOM,
    lessons=(
        lesson("db-port", "fact",
               "The dev database is Postgres 16 from `docker compose up -d db`, on "
               "localhost:5433 (DATABASE_URL in .env)",
               "5433"),
        lesson("migrations-fact", "convention",
               "Schema changes are new files from `sqlx migrate add <name>` in migrations/; a "
               "merged migration is never edited (prod applies them at startup via "
               "sqlx::migrate!() and checks their checksums)",
               "migration|migrations",
               "sqlx migrate add|migrate add|migrate!|never edit|never be edited|new file"),
        lesson("sqlx-prepare", "gotcha",
               "CI builds with SQLX_OFFLINE=true, so query!/query_as! read the committed .sqlx/ "
               "query data; after changing any query run `cargo sqlx prepare` against the dev "
               "DB and commit .sqlx/, or CI fails with 'no cached data for this query'",
               "sqlx", "prepare|offline|.sqlx/|query cache|query data"),
    ),
    also=(
        # session 0, Say: "The query macros check every statement against the database in .env while
        # compiling, and the new migration hasn't been applied to it yet. Running it."
        lesson("also-migrate-run-before-build", "gotcha",
               "The sqlx query macros check every statement against the dev database from .env "
               "while compiling, so after adding a migration run `sqlx migrate run` before "
               "`cargo build`, or the build fails with 'column ... does not exist'",
               "migrate run|applied|apply the migration|unapplied",
               "compiling|compile time|compile-time|cargo build|build",
               "macro|macros|query!|query_as!|sqlx|database|DB"),
        # session 0, Write migrations/20240402141233_add_item_sku.sql: "UPDATE items SET sku =
        # 'LEGACY-' || substr(id::text, 1, 8) WHERE sku IS NULL;"
        lesson("also-legacy-sku-backfill", "fact",
               "Items that existed before the sku column was added were backfilled with sku "
               "'LEGACY-' plus the first 8 characters of their id",
               "legacy", "sku"),
        # session 1, Read .github/workflows/ci.yml ("cargo clippy --all-targets -- -D warnings");
        # session 3, Bash: "cargo clippy --all-targets -- -D warnings"
        lesson("also-clippy-deny-warnings", "command",
               "Lint the way CI does: `cargo clippy --all-targets -- -D warnings` (CI also runs "
               "`cargo fmt --check` and `cargo nextest run`)",
               "clippy", "-D warnings|deny warnings|warnings as errors"),
    ),
    sessions=(
        Session(day=0, notes=(
            Note("- Dev DB: `docker compose up -d db` (Postgres 16 on localhost:5433, creds in "
                 ".env)", states="db-port"),
        ), events=(
            User("hey! first stockroom ticket for you: items need a `sku`. text, unique, "
                 "required when creating an item; the scanner app starts sending it next "
                 "sprint. can you add it end to end, column, model and POST body?"),
            Bash("sqlx migrate add add_item_sku",
                 out="Creating migrations/20240402141233_add_item_sku.sql"),
            Write("migrations/20240402141233_add_item_sku.sql",
                  "ALTER TABLE items ADD COLUMN sku TEXT;\n"
                  "UPDATE items SET sku = 'LEGACY-' || substr(id::text, 1, 8) WHERE sku IS NULL;\n"
                  "ALTER TABLE items ALTER COLUMN sku SET NOT NULL;\n"
                  "CREATE UNIQUE INDEX items_sku_key ON items (sku);\n"),
            Write("src/db.rs", S6_DB_SKU),
            Bash("cargo build", out=S6_BUILD_NO_COLUMN, ok=False, exit=101),
            Say("The query macros check every statement against the database in .env while "
                "compiling, and the new migration hasn't been applied to it yet. Running it."),
            Bash("sqlx migrate run", out="Applied 20240402141233/migrate add item sku (14.208ms)"),
            Bash("cargo build", out=build_ok(SR_CRATE, "7.86s")),
            Edit("tests/api.rs",
                 "    let res = app.oneshot(Request::get(uri).body(Body::empty()).unwrap())"
                 ".await.unwrap();\n    assert_eq!(res.status(), StatusCode::NOT_FOUND);\n}\n",
                 "    let res = app.oneshot(Request::get(uri).body(Body::empty()).unwrap())"
                 ".await.unwrap();\n    assert_eq!(res.status(), StatusCode::NOT_FOUND);\n}\n\n"
                 "#[sqlx::test]\nasync fn create_requires_sku(pool: PgPool) {\n"
                 "    let app = routes::router(AppState { pool });\n"
                 "    let req = Request::post(\"/items\")\n"
                 "        .header(\"content-type\", \"application/json\")\n"
                 "        .body(Body::from(r#\"{\"name\":\"M8 bolt\",\"quantity\":40}\"#))\n"
                 "        .unwrap();\n"
                 "    let res = app.oneshot(req).await.unwrap();\n"
                 "    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);\n}\n"),
            Bash("cargo test", out=sr_test("9.12s", S6_API_3)),
            User("🙌 one thing for next time: the standard here is that a migration, once it's "
                 "merged, is never edited. always a new file from `sqlx migrate add`; prod "
                 "applies them at startup through sqlx::migrate!() and checks their checksums.",
                 states="migrations-fact"),
            Bash("git add migrations/20240402141233_add_item_sku.sql"),
            Commit("Add a required, unique sku to items"),
        )),
        Session(day=1, events=(
            User("CI failed on the sku branch, in the build step, something about "
                 "SQLX_OFFLINE? I'm in meetings till 2, can you sort it out?"),
            Read(".github/workflows/ci.yml"),
            Bash("SQLX_OFFLINE=true cargo build", out=S6_BUILD_OFFLINE, ok=False, exit=101),
            Say("CI builds with SQLX_OFFLINE=true (no database in the build step), so the "
                "query!/query_as! macros read their metadata from the committed .sqlx/ "
                "directory instead of asking Postgres. I changed all three item queries "
                "without regenerating it. Fix: run `cargo sqlx prepare` against the dev DB and "
                "commit .sqlx/. Any change to a query needs that step, or CI fails exactly "
                "like this.", states="sqlx-prepare"),
            Bash("cargo sqlx prepare", out=S6_PREPARE),
            Bash("git status --short", out=S6_STATUS_SQLX),
            Bash("git add -A .sqlx && git commit -m 'Update sqlx offline query data for sku'",
                 out="[sku 4e1b2c9] Update sqlx offline query data for sku\n"
                     " 6 files changed, 118 insertions(+), 97 deletions(-)"),
            Bash("SQLX_OFFLINE=true cargo build", out=build_ok(SR_CRATE, "6.54s")),
            Bash("git push", out="To git.internal:platform/stockroom.git\n"
                                 "   77ad0f1..4e1b2c9  sku -> sku"),
            User("legend, CI's green. thanks"),
        )),
        Session(day=5, events=(
            Probe("the warehouse team wants an optional `location` on items, free text like "
                  "'B-12-3'. returned by GET and settable on POST",
                  needs=("migrations-fact", "sqlx-prepare")),
            Bash("sqlx migrate add add_item_location",
                 out="Creating migrations/20240408101502_add_item_location.sql"),
            Write("migrations/20240408101502_add_item_location.sql",
                  "ALTER TABLE items ADD COLUMN location TEXT;\n"),
            Write("src/db.rs", S6_DB_LOCATION),
            Bash("sqlx migrate run",
                 out="error: error communicating with database: Connection refused (os error 111)",
                 ok=False, exit=1),
            User("oh, the db's probably down, I rebooted this morning"),
            Bash("docker compose up -d db",
                 out="[+] Running 1/1\n ✔ Container stockroom-db-1  Started                0.4s"),
            Bash("sqlx migrate run",
                 out="Applied 20240408101502/migrate add item location (6.771ms)"),
            Bash("cargo sqlx prepare", out=S6_PREPARE.replace("4.21s", "5.02s")),
            Bash("cargo test", out=sr_test("8.77s", S6_API_3)),
            Bash("curl -sS localhost:8080/items",
                 out="curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't "
                     "connect to server", ok=False, exit=7),
            Say("Nothing is listening on :8080 (no server running locally); the API tests cover "
                "the round trip, so I'll leave it. Committing with the regenerated .sqlx/."),
            Bash("git add migrations/20240408101502_add_item_location.sql .sqlx"),
            Commit("Add optional location to items"),
        )),
        Session(day=9, events=(
            Probe("Ana just cloned stockroom and `cargo build` dies for her with 'error "
                  "communicating with database: Connection refused'. what does she need?",
                  needs=("db-port", "sqlx-prepare")),
            Say("The query macros try the DATABASE_URL from .env at compile time, which is "
                "Postgres on localhost:5433, and she has none running. Either `docker compose up "
                "-d db` and `sqlx migrate run` (she needs that for the tests anyway), or build "
                "with SQLX_OFFLINE=true, which uses the committed .sqlx/ data."),
            User("forwarded, thanks"),
            Probe("while I have you: the scanner team is ready for `quantity` to become "
                  "`on_hand` everywhere, API included. can you do the rename?",
                  needs=("migrations-fact", "sqlx-prepare")),
            Bash("sqlx migrate add rename_quantity_to_on_hand",
                 out="Creating migrations/20240411154420_rename_quantity_to_on_hand.sql"),
            Write("migrations/20240411154420_rename_quantity_to_on_hand.sql",
                  "ALTER TABLE items RENAME COLUMN quantity TO on_hand;\n"),
            Write("src/db.rs", S6_DB_ON_HAND),
            Bash("sqlx migrate run",
                 out="Applied 20240411154420/migrate rename quantity to on hand (5.106ms)"),
            Bash("cargo sqlx prepare", out=S6_PREPARE.replace("4.21s", "4.87s")),
            Bash("cargo clippy --all-targets -- -D warnings",
                 out=build_ok(SR_CRATE, "3.95s", verb="Checking")),
            Bash("cargo test", out=sr_test("8.41s", S6_API_3)),
            Bash("git add migrations/20240411154420_rename_quantity_to_on_hand.sql .sqlx"),
            Commit("Rename items.quantity to on_hand (API field too)"),
        )),
    ),
)

# ============================================================================================
# Story 7: an in-process moka cache that served stale stock across replicas; keyset
# pagination and an index instead; handlers never unwrap.

S7_LIB_CACHE = """\
use std::time::Duration;

use moka::future::Cache;
use uuid::Uuid;

pub mod db;
pub mod error;
pub mod routes;

#[derive(Clone)]
pub struct AppState {
    pub pool: sqlx::PgPool,
    /// Hot item reads, kept for 60 s.
    pub items: Cache<Uuid, db::Item>,
}

impl AppState {
    pub fn new(pool: sqlx::PgPool) -> Self {
        let items = Cache::builder()
            .max_capacity(10_000)
            .time_to_live(Duration::from_secs(60))
            .build();
        Self { pool, items }
    }
}
"""

S7_LIB_PLAIN = """\
pub mod db;
pub mod error;
pub mod routes;

#[derive(Clone)]
pub struct AppState {
    pub pool: sqlx::PgPool,
}

impl AppState {
    pub fn new(pool: sqlx::PgPool) -> Self {
        Self { pool }
    }
}
"""

S7_ROUTES_PAGED = """\
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use uuid::Uuid;

use crate::db::{self, Item, NewItem};
use crate::error::AppError;
use crate::AppState;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/version", get(|| async { env!("CARGO_PKG_VERSION") }))
        .route("/items", get(list_items).post(create_item))
        .route("/items/:id", get(get_item))
        .with_state(state)
}

/// Keyset pagination: `?after_name=..&after_id=..&limit=..` (default 50, max 100).
#[derive(Debug, Deserialize)]
struct Page {
    after_name: Option<String>,
    after_id: Option<Uuid>,
    limit: Option<i64>,
}

async fn list_items(
    State(st): State<AppState>,
    Query(page): Query<Page>,
) -> Result<Json<Vec<Item>>, AppError> {
    let limit = page.limit.unwrap_or(50).clamp(1, 100);
    let after = page.after_name.zip(page.after_id);
    Ok(Json(db::list_items(&st.pool, after, limit).await?))
}

async fn get_item(
    State(st): State<AppState>,
    Path(id): Path<Uuid>,
) -> Result<Json<Item>, AppError> {
    let item = db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;
    Ok(Json(item))
}

async fn create_item(
    State(st): State<AppState>,
    Json(new): Json<NewItem>,
) -> Result<Json<Item>, AppError> {
    Ok(Json(db::insert_item(&st.pool, &new).await?))
}
"""

S7_TEST_E0063 = """\
   Compiling moka v0.12.7
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
error[E0063]: missing field `items` in initializer of `AppState`
 --> tests/api.rs:9:30
  |
9 |     let app = routes::router(AppState { pool });
  |                              ^^^^^^^^ missing `items`

error[E0063]: missing field `items` in initializer of `AppState`
  --> tests/api.rs:16:30
   |
16 |     let app = routes::router(AppState { pool });
   |                              ^^^^^^^^ missing `items`

For more information about this error, try `rustc --explain E0063`.
error: could not compile `stockroom` (test "api") due to 2 previous errors
warning: build failed, waiting for other jobs to finish..."""

S7_PG_STAT = """\
 calls  | mean_ms |                            query
--------+---------+--------------------------------------------------------------
  41822 |   248.6 | SELECT id, name, quantity FROM items ORDER BY name
 903114 |     0.1 | SELECT id, name, quantity FROM items WHERE id = $1
   2210 |     0.9 | INSERT INTO items (id, name, quantity) VALUES ($1, $2, $3) R
(3 rows)"""

S7_EXPLAIN_SORT = """\
                                   QUERY PLAN
---------------------------------------------------------------------------------
 Sort  (cost=24823.43..25273.43 rows=180000 width=41) \
(actual time=212.771..241.905 rows=180000 loops=1)
   Sort Key: name
   Sort Method: external merge  Disk: 8872kB
   ->  Seq Scan on items  (cost=0.00..3305.00 rows=180000 width=41) \
(actual time=0.011..18.402 rows=180000 loops=1)
 Planning Time: 0.094 ms
 Execution Time: 252.318 ms
(6 rows)"""

S7_EXPLAIN_INDEX = """\
                                   QUERY PLAN
---------------------------------------------------------------------------------
 Limit  (cost=0.42..5.61 rows=50 width=41) (actual time=0.031..0.187 rows=50 loops=1)
   ->  Index Scan using items_name_idx on items  (cost=0.42..18652.42 rows=180000 width=41) \
(actual time=0.030..0.179 rows=50 loops=1)
 Planning Time: 0.121 ms
 Execution Time: 0.209 ms
(4 rows)"""

S7_CLIPPY_CLOSURE = f"""\
    Checking stockroom v0.2.0 (/home/jonas/work/stockroom)
error: redundant closure
  --> src/routes.rs:66:18
   |
66 |         .map_err(|e| AppError::Db(e))?
   |                  ^^^^^^^^^^^^^^^^^^^ help: replace the closure with the function itself: \
`AppError::Db`
   |
   = help: for further information visit {CLIPPY_URL}#redundant_closure
   = note: `-D clippy::redundant-closure` implied by `-D warnings`
   = help: to override `-D warnings` add `#[allow(clippy::redundant_closure)]`

error: could not compile `stockroom` (lib) due to 1 previous error
warning: build failed, waiting for other jobs to finish...
error: could not compile `stockroom` (lib test) due to 1 previous error"""

S7_API_3 = ["health_is_ok", "unknown_item_is_404", "version_is_reported"]

ITEM_CACHE = Story(
    id="rs-stockroom-item-cache",
    title="A per-process moka cache for item reads serves stale stock across three replicas and "
          "is removed for keyset pagination plus an index; handlers never unwrap",
    project=STOCKROOM,
    lessons=(
        lesson("moka-cache", "decision",
               "GET /items/:id is served from an in-process moka cache (60 s TTL, 10k entries) "
               "to cut database load",
               "moka|in-process cache|in-memory cache"),
        lesson("apperror", "convention",
               "Handlers return Result<_, AppError> (src/error.rs) and propagate with ?; never "
               "unwrap()/expect() in a request path",
               "AppError|error.rs", "unwrap|expect|panic"),
        lesson("replicas-fact", "fact",
               "Production runs three replicas of stockroom behind the load balancer, and the "
               "sync worker writes stock adjustments straight into Postgres",
               "replica|replicas|pods|instances", "3|three"),
        lesson("paginate-index", "decision",
               "No per-process caching of items; the DB load was the unpaginated GET /items "
               "sort, fixed with keyset pagination (after_name/after_id, max 100) backed by "
               "the items_name_idx index on items (name, id)",
               "items|GET /items|list", "keyset|items_name_idx|paginat"),
    ),
    also=(
        # session 3, Say: "it starts empty, so the morning's first requests each pay a fresh TLS
        # connection to Postgres. Keeping two connections open per replica fixes that"
        lesson("also-warm-pool-connections", "decision",
               "The PgPool keeps min_connections(2) warm per replica (max 10): the slow first "
               "load each morning was an empty pool paying fresh TLS connects to Postgres, not "
               "something to cache",
               "min_connections|warm|min connections|connections open",
               "connection|connections|pool"),
        # session 2, Bash: psql "$STAGING_RO_URL" -c "SELECT calls, ... FROM pg_stat_statements ..."
        lesson("also-staging-ro-url", "command",
               "Profile queries against staging read-only with `psql \"$STAGING_RO_URL\"` "
               "(pg_stat_statements and EXPLAIN ANALYZE work there)",
               "STAGING_RO_URL"),
        # session 4, Bash: "cargo clippy --all-targets -- -D warnings" ("`-D
        # clippy::redundant-closure` implied by `-D warnings`")
        lesson("also-clippy-deny-warnings", "command",
               "Lint with `cargo clippy --all-targets -- -D warnings`; any clippy warning (e.g. a "
               "redundant map_err closure) fails it",
               "clippy", "-D warnings|deny warnings|warnings as errors"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! the dashboards show GET /items/{id} at ~40 ms p99 and the DB's CPU "
                 "sits at 70% during the morning stock count. any ideas?"),
            Read("src/routes.rs"),
            Say("Item reads are hot and change rarely, so the cheapest lever is an in-process "
                "cache: a moka future::Cache in AppState (10k entries, 60 s TTL) in front of "
                "db::get_item. No new infrastructure, and a hit never touches Postgres.",
                states="moka-cache"),
            User("ok, let's try it. one thing: please don't ever unwrap in a handler. they all "
                 "return Result<_, AppError> from src/error.rs and use ?, because a panic in a "
                 "handler took down a pod back in March.", states="apperror"),
            Edit("Cargo.toml", 'axum = "0.7"\n',
                 'axum = "0.7"\nmoka = { version = "0.12", features = ["future"] }\n'),
            Edit("src/db.rs", "#[derive(Debug, Serialize, sqlx::FromRow)]",
                 "#[derive(Debug, Clone, Serialize, sqlx::FromRow)]"),
            Write("src/lib.rs", S7_LIB_CACHE),
            Edit("src/routes.rs",
                 "    let item = db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;\n"
                 "    Ok(Json(item))\n",
                 "    if let Some(item) = st.items.get(&id).await {\n"
                 "        return Ok(Json(item));\n    }\n"
                 "    let item = db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;\n"
                 "    st.items.insert(id, item.clone()).await;\n    Ok(Json(item))\n"),
            Edit("src/main.rs", "routes::router(AppState { pool })",
                 "routes::router(AppState::new(pool))"),
            Bash("cargo test", out=S7_TEST_E0063, ok=False, exit=101),
            Write("tests/api.rs", STOCKROOM.files["tests/api.rs"].replace(
                "AppState { pool }", "AppState::new(pool)")),
            Bash("cargo test", out=sr_test("11.34s", SR_API_2)),
            Commit("Cache item reads in-process with moka (60 s TTL)"),
        )),
        Session(day=3, noise=True, events=(
            User("hey, happy friday. nothing big today, just housekeeping"),
            User("what axum version are we on?"),
            Bash("cargo tree -i axum --depth 0", out="axum v0.7.5"),
            Say("axum 0.7.5."),
            User("k. can you add a GET /version that returns the crate version? handy when a "
                 "deploy is half rolled out"),
            Edit("src/routes.rs", "        .route(\"/health\", get(|| async { \"ok\" }))\n",
                 "        .route(\"/health\", get(|| async { \"ok\" }))\n"
                 "        .route(\"/version\", get(|| async { env!(\"CARGO_PKG_VERSION\") }))\n"),
            Bash("cargo build", out=build_ok(SR_CRATE, "4.48s")),
            Bash("curl -sS localhost:8080/version",
                 out="curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't "
                     "connect to server", ok=False, exit=7),
            Say("Nothing is listening on :8080 here, so I'll cover it with a test instead."),
            Edit("tests/api.rs", "async fn unknown_item_is_404(pool: PgPool) {\n",
                 "async fn version_is_reported(pool: PgPool) {\n"
                 "    let app = routes::router(AppState::new(pool));\n"
                 "    let res = app.oneshot(Request::get(\"/version\").body(Body::empty())"
                 ".unwrap()).await.unwrap();\n"
                 "    assert_eq!(res.status(), StatusCode::OK);\n}\n\n"
                 "#[sqlx::test]\nasync fn unknown_item_is_404(pool: PgPool) {\n"),
            Bash("cargo test", out=sr_test("6.02s", S7_API_3)),
            Commit("Add GET /version"),
            User("thanks!"),
            Say("Have a good weekend!"),
        )),
        Session(day=8, events=(
            User("we've got a problem. support says the stock-count screen sometimes shows "
                 "quantities that are a minute old: a picker was sent for 12 units that were "
                 "already gone. adjustments are written by the sync worker straight into "
                 "postgres, and the API runs as three replicas behind the LB. is that the "
                 "cache?", states="replicas-fact"),
            Say("Almost certainly. moka lives inside each process: each of the three replicas "
                "keeps its own copy of an item for up to 60 s, and nothing tells them when the "
                "sync worker (or another replica) changes the row. There's no cheap way to "
                "invalidate across pods. Before deciding what replaces it, let me look at where "
                "the DB time actually goes."),
            Bash("psql \"$STAGING_RO_URL\" -c \"SELECT calls, round(mean_exec_time::numeric, 1) "
                 "AS mean_ms, left(query, 60) AS query FROM pg_stat_statements ORDER BY "
                 "total_exec_time DESC LIMIT 3\"", out=S7_PG_STAT),
            Bash("psql \"$STAGING_RO_URL\" -c \"EXPLAIN ANALYZE SELECT id, name, quantity FROM "
                 "items ORDER BY name\"", out=S7_EXPLAIN_SORT),
            Say("The by-id lookups are 0.1 ms primary-key hits, so the cache was saving almost "
                "nothing. The DB time is the dashboard polling GET /items, which sorts all 180k "
                "rows on every call (250 ms, spilling to disk). So: remove the moka cache "
                "entirely, paginate GET /items with keyset pagination (`after_name`/`after_id`, "
                "default 50, max 100) and add an index items_name_idx on items (name, id), so "
                "each page is an index range scan. Every replica reads straight from Postgres "
                "and nothing can go stale.", fails="moka-cache", states="paginate-index"),
            User("makes sense, go"),
            Bash("sqlx migrate add items_name_idx",
                 out="Creating migrations/20240415083012_items_name_idx.sql"),
            Write("migrations/20240415083012_items_name_idx.sql",
                  "CREATE INDEX items_name_idx ON items (name, id);\n"),
            Write("src/routes.rs", S7_ROUTES_PAGED),
            Edit("src/db.rs",
                 "pub async fn list_items(pool: &PgPool) -> sqlx::Result<Vec<Item>> {\n"
                 "    sqlx::query_as!(Item, \"SELECT id, name, quantity FROM items ORDER BY "
                 "name\")\n        .fetch_all(pool)\n        .await\n}\n",
                 "pub async fn list_items(\n    pool: &PgPool,\n"
                 "    after: Option<(String, Uuid)>,\n    limit: i64,\n"
                 ") -> sqlx::Result<Vec<Item>> {\n"
                 "    let (name, id) = after.unzip();\n    sqlx::query_as!(\n        Item,\n"
                 "        \"SELECT id, name, quantity FROM items \\\n"
                 "         WHERE $1::text IS NULL OR (name, id) > ($1, $2) \\\n"
                 "         ORDER BY name, id LIMIT $3\",\n"
                 "        name,\n        id,\n        limit\n    )\n"
                 "    .fetch_all(pool)\n    .await\n}\n"),
            Write("src/lib.rs", S7_LIB_PLAIN),
            Edit("Cargo.toml", 'moka = { version = "0.12", features = ["future"] }\n', ""),
            Bash("cargo test", out=sr_test("10.87s", S7_API_3)),
            Commit("Drop the moka item cache (stale across replicas); keyset-paginate GET /items "
                   "over a new items_name_idx"),
        ), judge={"moka-cache": "down"}),
        Session(day=12, events=(
            Probe("the stock-count screen still takes a second on the very first load every "
                  "morning. could we warm something up at startup, or keep the hot items around "
                  "between requests?", needs=("paginate-index", "replicas-fact")),
            Bash("psql \"$STAGING_RO_URL\" -c \"EXPLAIN ANALYZE SELECT id, name, quantity FROM "
                 "items ORDER BY name, id LIMIT 50\"", out=S7_EXPLAIN_INDEX),
            Bash("grep -n PgPoolOptions src/main.rs",
                 out="4:use sqlx::postgres::PgPoolOptions;\n"
                     "13:    let pool = PgPoolOptions::new().max_connections(10).connect(&url)"
                     ".await?;"),
            Say("The page query itself is 0.2 ms on the index, so there's nothing worth "
                "caching, and keeping items around between requests would bring back the "
                "stale-stock problem on three replicas. The first-load second is the pool: it "
                "starts empty, so the morning's first requests each pay a fresh TLS connection "
                "to Postgres. Keeping two connections open per replica fixes that without "
                "caching any data."),
            Edit("src/main.rs", "PgPoolOptions::new().max_connections(10)",
                 "PgPoolOptions::new().min_connections(2).max_connections(10)"),
            Bash("cargo build", out=build_ok(SR_CRATE, "4.12s")),
            Commit("Keep two warm database connections per replica"),
        )),
        Session(day=18, events=(
            Probe("we need POST /items/{id}/adjust taking a signed delta, rejecting anything "
                  "that would take the stock below zero", needs=("apperror",)),
            Edit("src/error.rs", "    #[error(\"not found\")]\n    NotFound,\n",
                 "    #[error(\"not found\")]\n    NotFound,\n"
                 "    #[error(\"not enough stock\")]\n    InsufficientStock,\n"),
            Edit("src/error.rs", "            AppError::NotFound => StatusCode::NOT_FOUND,\n",
                 "            AppError::NotFound => StatusCode::NOT_FOUND,\n"
                 "            AppError::InsufficientStock => StatusCode::CONFLICT,\n"),
            Edit("src/db.rs", "    .fetch_one(pool)\n    .await\n}\n",
                 "    .fetch_one(pool)\n    .await\n}\n\n"
                 "pub async fn adjust_quantity(pool: &PgPool, id: Uuid, delta: i32) -> "
                 "sqlx::Result<Option<Item>> {\n"
                 "    sqlx::query_as!(\n        Item,\n"
                 "        \"UPDATE items SET quantity = quantity + $2 \\\n"
                 "         WHERE id = $1 AND quantity + $2 >= 0 RETURNING id, name, quantity\",\n"
                 "        id,\n        delta\n    )\n    .fetch_optional(pool)\n    .await\n}\n"),
            Edit("src/routes.rs", "use axum::routing::get;\n",
                 "use axum::routing::{get, post};\n"),
            Edit("src/routes.rs", "        .route(\"/items/:id\", get(get_item))\n",
                 "        .route(\"/items/:id\", get(get_item))\n"
                 "        .route(\"/items/:id/adjust\", post(adjust_item))\n"),
            Edit("src/routes.rs",
                 "    Ok(Json(db::insert_item(&st.pool, &new).await?))\n}\n",
                 "    Ok(Json(db::insert_item(&st.pool, &new).await?))\n}\n\n"
                 "#[derive(Debug, Deserialize)]\nstruct Adjust {\n    delta: i32,\n}\n\n"
                 "async fn adjust_item(\n    State(st): State<AppState>,\n"
                 "    Path(id): Path<Uuid>,\n    Json(body): Json<Adjust>,\n"
                 ") -> Result<Json<Item>, AppError> {\n"
                 "    db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;\n"
                 "    let item = db::adjust_quantity(&st.pool, id, body.delta)\n"
                 "        .await\n        .map_err(|e| AppError::Db(e))?\n"
                 "        .ok_or(AppError::InsufficientStock)?;\n    Ok(Json(item))\n}\n"),
            Bash("cargo clippy --all-targets -- -D warnings", out=S7_CLIPPY_CLOSURE, ok=False,
                 exit=101),
            Edit("src/routes.rs", "        .await\n        .map_err(|e| AppError::Db(e))?\n",
                 "        .await?\n"),
            Bash("cargo clippy --all-targets -- -D warnings",
                 out=build_ok(SR_CRATE, "3.37s", verb="Checking")),
            Bash("cargo test", out=sr_test("9.95s", S7_API_3)),
            Commit("Add POST /items/{id}/adjust (409 when stock would go negative)"),
            Probe("ops is asking whether we could put a simple per-API-key rate limit inside "
                  "stockroom itself, say 100 requests a minute. thoughts?",
                  needs=("replicas-fact",)),
            Say("I'd keep it out of the process. With three replicas behind the LB, an "
                "in-process limiter (tower_governor or similar) at 100/min really allows up to "
                "300/min per key, and what a client sees depends on which pod it hits. It "
                "belongs where all traffic passes, the LB or gateway, or it needs a shared "
                "counter (a per-minute bucket row in Postgres, or Redis). Worth asking platform "
                "whether the LB can do it first."),
        ), judge={"apperror": "up"}),
    ),
)

# ============================================================================================
# Story 8: test infrastructure: sqlx::test needs CREATEDB, nextest plus doctests, a flaky CI
# database, then one `make check` for everything.

SQLX_TESTING_RS = ("/home/jonas/.cargo/registry/src/index.crates.io-6f17d22bba15001f/"
                   "sqlx-core-0.7.4/src/testing/mod.rs:248:14")

S8_NEXTEST_PERM = f"""\
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 48.19s
────────────
 Nextest run ID 2d8f6b1a-0c47-4e93-a5d2-91b7e3c0f468 with nextest profile: default
    Starting 2 tests across 3 binaries
        FAIL [   0.041s] stockroom::api health_is_ok
──── STDOUT:             stockroom::api health_is_ok

running 1 test
test health_is_ok ... FAILED

failures:

failures:
    health_is_ok

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 1 filtered out; finished in 0.03s

──── STDERR:             stockroom::api health_is_ok
thread 'health_is_ok' panicked at {SQLX_TESTING_RS}:
failed to connect to setup test database: Database(PgDatabaseError {{ severity: Error, code: \
"42501", message: "permission denied to create database", detail: None, hint: None, position: \
None, where_: None, schema: None, table: None, column: None, data_type: None, constraint: None, \
file: Some("dbcommands.c"), line: Some(332), routine: Some("createdb") }})
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

  Cancelling due to test failure: 1 test still running
        FAIL [   0.038s] stockroom::api unknown_item_is_404
──── STDOUT:             stockroom::api unknown_item_is_404

running 1 test
test unknown_item_is_404 ... FAILED

failures:

failures:
    unknown_item_is_404

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 1 filtered out; finished in 0.03s

──── STDERR:             stockroom::api unknown_item_is_404
thread 'unknown_item_is_404' panicked at {SQLX_TESTING_RS}:
failed to connect to setup test database: Database(PgDatabaseError {{ severity: Error, code: \
"42501", message: "permission denied to create database", detail: None, hint: None, position: \
None, where_: None, schema: None, table: None, column: None, data_type: None, constraint: None, \
file: Some("dbcommands.c"), line: Some(332), routine: Some("createdb") }})
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

────────────
     Summary [   0.047s] 2 tests run: 0 passed, 2 failed, 0 skipped
        FAIL [   0.041s] stockroom::api health_is_ok
        FAIL [   0.038s] stockroom::api unknown_item_is_404
error: test run failed"""

S8_DOCTEST = f"""\
{_finished("test", "0.24s")}
   Doc-tests stockroom

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"""

S8_API_3 = ["delete_unknown_item_is_404", "health_is_ok", "unknown_item_is_404"]

S8_NEXTEST_E0412 = """\
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
error[E0412]: cannot find type `StatusCode` in this scope
  --> src/routes.rs:40:13
   |
40 | ) -> Result<StatusCode, AppError> {
   |             ^^^^^^^^^^ not found in this scope
   |
help: consider importing one of these items
   |
1  + use axum::http::StatusCode;
   |
1  + use http::StatusCode;
   |

error[E0433]: failed to resolve: use of undeclared type `StatusCode`
  --> src/routes.rs:42:12
   |
42 |         Ok(StatusCode::NO_CONTENT)
   |            ^^^^^^^^^^ use of undeclared type `StatusCode`
   |
help: consider importing one of these items
   |
1  + use axum::http::StatusCode;
   |
1  + use http::StatusCode;
   |

Some errors have detailed explanations: E0412, E0433.
For more information about an error, try `rustc --explain E0412`.
error: could not compile `stockroom` (lib) due to 2 previous errors
error: command `cargo test --no-run --message-format json-render-diagnostics` exited with \
code 101"""

S8_NEXTEST_REFUSED = f"""\
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 5.82s
────────────
 Nextest run ID 5e0a9c37-b218-4f6d-8c41-d7a3f2e9b065 with nextest profile: default
    Starting 3 tests across 3 binaries
        FAIL [   0.008s] stockroom::api delete_unknown_item_is_404
──── STDOUT:             stockroom::api delete_unknown_item_is_404

running 1 test
test delete_unknown_item_is_404 ... FAILED

failures:

failures:
    delete_unknown_item_is_404

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 2 filtered out; finished in 0.00s

──── STDERR:             stockroom::api delete_unknown_item_is_404
thread 'delete_unknown_item_is_404' panicked at {SQLX_TESTING_RS}:
failed to connect to setup test database: Io(Os {{ code: 111, kind: ConnectionRefused, message: \
"Connection refused" }})
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

  Cancelling due to test failure: 2 tests still running
        FAIL [   0.009s] stockroom::api health_is_ok
        FAIL [   0.009s] stockroom::api unknown_item_is_404
────────────
     Summary [   0.014s] 3 tests run: 0 passed, 3 failed, 0 skipped
        FAIL [   0.008s] stockroom::api delete_unknown_item_is_404
        FAIL [   0.009s] stockroom::api health_is_ok
        FAIL [   0.009s] stockroom::api unknown_item_is_404
error: test run failed"""

S8_MAKEFILE = """\
.PHONY: check fmt

# Everything CI checks, in CI's order. Run it before pushing.
check:
\tcargo fmt --check
\tcargo clippy --all-targets -- -D warnings
\tcargo nextest run
\tcargo test --doc

fmt:
\tcargo fmt
"""

S8_MAKE_FMT_FAIL = """\
cargo fmt --check
Diff in /home/jonas/work/stockroom/src/error.rs at line 21:
             }
         };
         let body = Json(json!({ "error": self.to_string() }));
-        (status, body)
-            .into_response()
+        (status, body).into_response()
     }
 }
make: *** [Makefile:5: check] Error 1"""


def make_check_ok(nextest: str) -> str:
    """`make check` with every step green (make echoes each recipe line)."""
    return "\n".join([
        "cargo fmt --check",
        "cargo clippy --all-targets -- -D warnings",
        build_ok(SR_CRATE, "3.91s", verb="Checking"),
        "cargo nextest run",
        nextest,
        "cargo test --doc",
        S8_DOCTEST,
    ])


S8_PREPARE = S6_PREPARE.replace("4.21s", "3.88s")

TEST_INFRA = Story(
    id="rs-stockroom-test-infra",
    title="#[sqlx::test] needs a role that can create databases; nextest plus doctests; a "
          "subagent traces flaky CI to a missing Postgres health check; `make check` replaces "
          "the hand-run steps",
    project=STOCKROOM,
    lessons=(
        lesson("nextest-doc", "command",
               "Run the suite with `cargo nextest run`, then `cargo test --doc`, since nextest "
               "doesn't run doctests",
               "nextest", "--doc|doctest|doc tests|doc-tests"),
        lesson("test-db", "gotcha",
               "#[sqlx::test] creates a throwaway database per test, so DATABASE_URL must be a "
               "role with CREATEDB (the compose `stockroom` superuser from .env), not the "
               "restricted stockroom_app role; otherwise 'permission denied to create database'",
               "sqlx::test|sqlx test", "createdb|create database|superuser"),
        lesson("ci-healthcheck", "fact",
               "CI's postgres service has a pg_isready health check (options: --health-cmd "
               "pg_isready ...); without it the first #[sqlx::test] raced Postgres startup and "
               "failed with 'Connection refused'",
               "health-cmd|healthcheck|health check|pg_isready", "postgres|service|CI"),
        lesson("make-check", "command",
               "Before saying something is done or pushing, run `make check` (fmt --check, "
               "clippy -D warnings, nextest, doctests: the same as CI)",
               "make check"),
    ),
    also=(
        # session 1, Say: "nextest and the doctests pass, and .sqlx/ is regenerated for the new
        # query" (after Bash "cargo sqlx prepare"; again in session 4)
        lesson("also-sqlx-prepare-after-query", "convention",
               "After adding or changing a sqlx query, regenerate the offline query data with "
               "`cargo sqlx prepare` and commit .sqlx/ with the change",
               "sqlx prepare|.sqlx", "query|queries"),
        # session 2, Say: "Docker isn't running on this laptop, so there's no Postgres for the
        # tests"; session 3, Bash: "docker compose up -d db" before "make check"
        lesson("also-tests-need-compose-db", "fact",
               "The #[sqlx::test] suite needs the local compose Postgres (`docker compose up -d "
               "db`, "
               "Docker running); without it every test fails with 'failed to connect to setup "
               "test database: Connection refused'",
               "docker compose|docker|compose",
               "test|tests|nextest|make check",
               "docker compose up|running|start|down|refused|no Postgres"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hi! setting up stockroom on my new laptop and `cargo nextest run` gives me a "
                 "wall of failures about not being allowed to create a database?? also, while I "
                 "remember: I'd like you to use `cargo nextest run` for the suite going "
                 "forward, and since nextest skips doctests, follow it with `cargo test --doc`.",
                 states="nextest-doc"),
            Bash("cargo nextest run", out=S8_NEXTEST_PERM, ok=False, exit=100),
            Bash("echo $DATABASE_URL",
                 out="postgres://stockroom_app:devpass@localhost:5433/stockroom"),
            Read(".env"),
            Say("#[sqlx::test] creates a fresh database for every test (and runs the migrations "
                "in it), so the role it connects as needs CREATEDB. Your shell exports "
                "DATABASE_URL for the restricted `stockroom_app` role, and an exported variable "
                "wins over .env, which points at the compose superuser `stockroom` that can "
                "create databases. Unset the export, or point it at the superuser, for tests.",
                states="test-db"),
            Bash("env -u DATABASE_URL cargo nextest run", out=sr_nextest("0.29s", SR_API_2,
                                                                         compiled=False)),
            Bash("env -u DATABASE_URL cargo test --doc", out=S8_DOCTEST),
            User("ahh, that export came from the ops onboarding script. dropped it from my "
                 "zshrc, thanks!"),
        )),
        Session(day=4, events=(
            User("two things. 1) we need DELETE /items/{id}: 204 when it existed, 404 "
                 "otherwise. 2) CI is flaky: every few runs the test step dies with connection "
                 "refused and a rerun fixes it. could you send a subagent through the CI history "
                 "while you do the endpoint?"),
            Subagent(report="Looked at the 6 failed runs on main in the last two weeks: all "
                            "died in `cargo nextest run` on the first test with `failed to "
                            "connect to setup test database: Io(Os { code: 111, kind: "
                            "ConnectionRefused })`, and all passed on rerun. The postgres "
                            "service in .github/workflows/ci.yml has no health check, so "
                            "Actions starts the steps as soon as the container exists, not when "
                            "Postgres accepts connections. With Swatinem/rust-cache warm the "
                            "build takes ~20 s and the first #[sqlx::test] can beat Postgres' "
                            "startup. Fix: give the service `options: --health-cmd pg_isready "
                            "--health-interval 2s --health-timeout 5s --health-retries 15`; "
                            "Actions then waits for healthy before the first step.",
                     states="ci-healthcheck"),
            Edit("src/db.rs", "    .fetch_one(pool)\n    .await\n}\n",
                 "    .fetch_one(pool)\n    .await\n}\n\n"
                 "pub async fn delete_item(pool: &PgPool, id: Uuid) -> sqlx::Result<bool> {\n"
                 "    let res = sqlx::query!(\"DELETE FROM items WHERE id = $1\", id)"
                 ".execute(pool).await?;\n"
                 "    Ok(res.rows_affected() == 1)\n}\n"),
            Edit("src/routes.rs", "        .route(\"/items/:id\", get(get_item))\n",
                 "        .route(\"/items/:id\", get(get_item).delete(delete_item))\n"),
            Edit("src/routes.rs",
                 "    Ok(Json(db::insert_item(&st.pool, &new).await?))\n}\n",
                 "    Ok(Json(db::insert_item(&st.pool, &new).await?))\n}\n\n"
                 "async fn delete_item(\n    State(st): State<AppState>,\n"
                 "    Path(id): Path<Uuid>,\n) -> Result<StatusCode, AppError> {\n"
                 "    if db::delete_item(&st.pool, id).await? {\n"
                 "        Ok(StatusCode::NO_CONTENT)\n    } else {\n"
                 "        Err(AppError::NotFound)\n    }\n}\n"),
            Edit("tests/api.rs",
                 "    let res = app.oneshot(Request::get(uri).body(Body::empty()).unwrap())"
                 ".await.unwrap();\n    assert_eq!(res.status(), StatusCode::NOT_FOUND);\n}\n",
                 "    let res = app.oneshot(Request::get(uri).body(Body::empty()).unwrap())"
                 ".await.unwrap();\n    assert_eq!(res.status(), StatusCode::NOT_FOUND);\n}\n\n"
                 "#[sqlx::test]\nasync fn delete_unknown_item_is_404(pool: PgPool) {\n"
                 "    let app = routes::router(AppState { pool });\n"
                 "    let uri = format!(\"/items/{}\", uuid::Uuid::new_v4());\n"
                 "    let res = app.oneshot(Request::delete(uri).body(Body::empty()).unwrap())"
                 ".await.unwrap();\n"
                 "    assert_eq!(res.status(), StatusCode::NOT_FOUND);\n}\n"),
            Bash("cargo nextest run", out=S8_NEXTEST_E0412, ok=False, exit=101),
            Edit("src/routes.rs", "use axum::extract::{Path, State};\n",
                 "use axum::extract::{Path, State};\nuse axum::http::StatusCode;\n"),
            Bash("cargo nextest run", out=sr_nextest("6.74s", S8_API_3)),
            Bash("cargo test --doc", out=S8_DOCTEST),
            Bash("cargo sqlx prepare", out=S8_PREPARE),
            Edit(".github/workflows/ci.yml", "        ports: [\"5432:5432\"]\n",
                 "        ports: [\"5432:5432\"]\n        options: >-\n"
                 "          --health-cmd pg_isready\n          --health-interval 2s\n"
                 "          --health-timeout 5s\n          --health-retries 15\n"),
            Commit("Add DELETE /items/{id}; wait for a healthy Postgres in CI"),
            Say("DELETE is in (204, or 404 for an unknown id, with a test), nextest and the "
                "doctests pass, and .sqlx/ is regenerated for the new query. For CI the "
                "subagent found the race: the postgres service had no health check, so the "
                "first test sometimes ran before Postgres accepted connections. It now waits "
                "on pg_isready."),
        ), judge={"nextest-doc": "up"}),
        Session(day=7, end=None, events=(
            User("morning from the train 🚆 wifi's flaky so this may be short. the scanner app "
                 "wants error bodies as JSON, `{\"error\": \"not found\"}`, instead of plain "
                 "text. can you change AppError's response?"),
            Read("src/error.rs"),
            Edit("src/error.rs", "use axum::response::{IntoResponse, Response};\n",
                 "use axum::response::{IntoResponse, Response};\nuse axum::Json;\n"
                 "use serde_json::json;\n"),
            Edit("src/error.rs", "        (status, self.to_string()).into_response()\n",
                 "        let body = Json(json!({ \"error\": self.to_string() }));\n"
                 "        (status, body)\n            .into_response()\n"),
            Probe("run the tests when you're done", needs=("nextest-doc",)),
            Bash("cargo nextest run", out=S8_NEXTEST_REFUSED, ok=False, exit=100),
            Bash("docker compose up -d db",
                 out="Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the "
                     "docker daemon running?", ok=False, exit=1),
            Say("Docker isn't running on this laptop, so there's no Postgres for the tests. "
                "Could you start Docker Desktop? Then I'll rerun."),
        )),
        Session(day=8, events=(
            User("sorry, the laptop battery died on the train yesterday. the JSON error change "
                 "is still sitting there uncommitted. before you pick it up: Ed and I agreed we "
                 "want one entry point for checks. could you add a Makefile with a `check` "
                 "target that runs cargo fmt --check, clippy with -D warnings, nextest and the "
                 "doctests? from now on `make check` is what you run before calling something "
                 "done; we no longer run nextest and the doc tests by hand.",
                 replaces="nextest-doc", states="make-check"),
            Write("Makefile", S8_MAKEFILE),
            Bash("docker compose up -d db",
                 out="[+] Running 1/1\n ✔ Container stockroom-db-1  Started                0.5s"),
            Bash("make check", out=S8_MAKE_FMT_FAIL, ok=False, exit=2),
            Bash("cargo fmt"),
            Bash("make check", out=make_check_ok(sr_nextest("6.12s", S8_API_3))),
            Commit("Makefile with a check target (fmt, clippy, nextest, doctests); JSON error "
                   "bodies"),
            User("nice, that's much easier to remember"),
        )),
        Session(day=13, events=(
            User("next up: GET /items should take ?limit= and ?offset=, default 50, max 200. "
                 "the scanner app's item picker is choking on the full list"),
            Read("src/routes.rs"),
            Edit("src/routes.rs", "use axum::extract::{Path, State};\n",
                 "use axum::extract::{Path, Query, State};\n"),
            Edit("src/routes.rs", "use axum::{Json, Router};\nuse uuid::Uuid;\n",
                 "use axum::{Json, Router};\nuse serde::Deserialize;\nuse uuid::Uuid;\n"),
            Edit("src/routes.rs",
                 "async fn list_items(State(st): State<AppState>) -> Result<Json<Vec<Item>>, "
                 "AppError> {\n    Ok(Json(db::list_items(&st.pool).await?))\n}\n",
                 "#[derive(Debug, Deserialize)]\nstruct Page {\n    limit: Option<i64>,\n"
                 "    offset: Option<i64>,\n}\n\n"
                 "async fn list_items(\n    State(st): State<AppState>,\n"
                 "    Query(page): Query<Page>,\n) -> Result<Json<Vec<Item>>, AppError> {\n"
                 "    let limit = page.limit.unwrap_or(50).clamp(1, 200);\n"
                 "    let offset = page.offset.unwrap_or(0).max(0);\n"
                 "    Ok(Json(db::list_items(&st.pool, limit, offset).await?))\n}\n"),
            Edit("src/db.rs",
                 "pub async fn list_items(pool: &PgPool) -> sqlx::Result<Vec<Item>> {\n"
                 "    sqlx::query_as!(Item, \"SELECT id, name, quantity FROM items ORDER BY "
                 "name\")\n        .fetch_all(pool)\n        .await\n}\n",
                 "pub async fn list_items(pool: &PgPool, limit: i64, offset: i64) -> "
                 "sqlx::Result<Vec<Item>> {\n    sqlx::query_as!(\n        Item,\n"
                 "        \"SELECT id, name, quantity FROM items ORDER BY name, id LIMIT $1 "
                 "OFFSET $2\",\n        limit,\n        offset\n    )\n"
                 "    .fetch_all(pool)\n    .await\n}\n"),
            Bash("cargo sqlx prepare", out=S8_PREPARE),
            Probe("ok, is it ready to go up for review?", needs=("make-check",)),
            Bash("make check", out=make_check_ok(sr_nextest("5.97s", S8_API_3))),
            Commit("Page GET /items with limit/offset (default 50, max 200)"),
            Probe("Ana just joined and every db test dies for her with 'permission denied to "
                  "create database'. what's she missing?", needs=("test-db",)),
            Say("Her DATABASE_URL points at a role that can't create databases, most likely "
                "the restricted stockroom_app one from the ops onboarding script. "
                "#[sqlx::test] makes a fresh database per test, so tests need the compose "
                "superuser `stockroom` from .env: dropping that export (or pointing it at the "
                "superuser) fixes it."),
            Probe("platform is moving us to self-hosted runners next month. anything about our "
                  "test database setup in CI I should warn them about?",
                  needs=("ci-healthcheck",)),
            Say("Two things. The postgres service must keep its pg_isready health check "
                "(`--health-cmd pg_isready` with retries): without it the first #[sqlx::test] "
                "can race Postgres' startup and fail with 'Connection refused', which is the "
                "flake we had. And the role needs CREATEDB, because every test creates its own "
                "database."),
        ), judge={"make-check": "up"}),
    ),
)

# ============================================================================================
# Story 9: tracing conventions (one of them changed after a security review) and the axum 0.8
# path-syntax panic.

S9_ROUTES_TRACED = """\
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use tracing::{info, instrument};
use uuid::Uuid;

use crate::db::{self, Item, NewItem};
use crate::error::AppError;
use crate::AppState;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/items", get(list_items).post(create_item))
        .route("/items/:id", get(get_item))
        .with_state(state)
}

#[instrument(skip(state))]
async fn list_items(State(st): State<AppState>) -> Result<Json<Vec<Item>>, AppError> {
    let items = db::list_items(&st.pool).await?;
    info!(count = items.len(), "listed items");
    Ok(Json(items))
}

#[instrument(skip(state))]
async fn get_item(
    State(st): State<AppState>,
    Path(id): Path<Uuid>,
) -> Result<Json<Item>, AppError> {
    let item = db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;
    Ok(Json(item))
}

#[instrument(skip(state))]
async fn create_item(
    State(st): State<AppState>,
    Json(new): Json<NewItem>,
) -> Result<Json<Item>, AppError> {
    let item = db::insert_item(&st.pool, &new).await?;
    info!(item_id = %item.id, name = %item.name, "item created");
    Ok(Json(item))
}
"""

S9_BUILD_SKIP = """\
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
error: attempting to skip non-existent parameter
  --> src/routes.rs:19:19
   |
19 | #[instrument(skip(state))]
   |                   ^^^^^

error: attempting to skip non-existent parameter
  --> src/routes.rs:26:19
   |
26 | #[instrument(skip(state))]
   |                   ^^^^^

error: attempting to skip non-existent parameter
  --> src/routes.rs:35:19
   |
35 | #[instrument(skip(state))]
   |                   ^^^^^

error: could not compile `stockroom` (lib) due to 3 previous errors"""

S9_RUN_IN_USE = f"""\
{_finished("dev", "0.21s")}
     Running `target/debug/stockroom`
Error: Address already in use (os error 98)"""

AXUM_08_PANIC = ("Path segments must not start with `:`. For capture groups, use `{capture}`. If "
                 "you meant to literally match a segment starting with a colon, call "
                 "`without_v07_checks` on the router.")

S9_TEST_AXUM08 = f"""\
   Compiling axum v0.8.1
   Compiling tower-http v0.6.1
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 24.66s
     Running {SR_LIB}

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running {SR_MAIN}

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running {SR_API}

running 2 tests
test health_is_ok ... FAILED
test unknown_item_is_404 ... FAILED

failures:

---- health_is_ok stdout ----
thread 'health_is_ok' panicked at src/routes.rs:15:10:
{AXUM_08_PANIC}
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

---- unknown_item_is_404 stdout ----
thread 'unknown_item_is_404' panicked at src/routes.rs:15:10:
{AXUM_08_PANIC}


failures:
    health_is_ok
    unknown_item_is_404

test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.19s

error: test failed, to rerun pass `--test api`"""

S9_RUN_LOGS = """\
2024-06-11T09:14:02.118204Z  INFO stockroom: listening addr=0.0.0.0:8080
2024-06-11T09:14:03.904551Z  INFO create_item: stockroom::routes: item created \
item_id=0b3e5f2c-8d41-4a7e-9c16-52f0a7d3e981
{"id":"0b3e5f2c-8d41-4a7e-9c16-52f0a7d3e981","name":"hex key 4mm","quantity":12}"""

TRACING = Story(
    id="rs-stockroom-tracing",
    title="Structured tracing conventions, #[instrument] skip rules changed after a security "
          "review, and axum 0.8's panic on /:id routes",
    project=STOCKROOM,
    lessons=(
        lesson("tracing-fields", "convention",
               "Log through tracing macros with structured fields (info!(item_id = %id, "
               "\"item created\")); never format values into the message string, Loki indexes "
               "only the fields",
               "structured|fields|field", "tracing|info!"),
        lesson("instrument-skip", "convention",
               "Handlers get #[instrument(skip(st))], skipping the State extractor (named `st` "
               "in our patterns), so spans carry the request arguments but not the pool",
               "instrument", "skip(state)|skip(st)"),
        lesson("instrument-skip-all", "convention",
               "Handlers get #[instrument(skip_all, fields(...))] with the wanted fields listed "
               "explicitly (e.g. item_id = %id); skip(st) logged whole request bodies",
               "skip_all"),
        lesson("axum08-paths", "gotcha",
               "Since axum 0.8 path captures are written /{id}; the old /:id syntax compiles "
               "but panics when the router is built ('Path segments must not start with `:`')",
               "axum|0.8", "{id}|{capture}|:id|colon"),
    ),
    also=(
        # session 3, Say: "I also dropped the item name from the \"item created\" event, since names
        # are where the tokens end up." (user: "people paste supplier-portal links with tokens into
        # item names")
        lesson("also-no-item-names-in-logs", "convention",
               "Never put item names in logs or span fields: people paste supplier-portal links "
               "with tokens into names; log item_id instead",
               "name|names", "token|tokens|no names|secret",
               "log|logs|logged|logging|event|span|info!|tracing"),
        # session 3, Bash: "RUST_LOG=stockroom=info cargo run -q & sleep 3; curl ..." (session 0:
        # "RUST_LOG=stockroom=debug cargo run")
        lesson("also-run-with-rust-log", "command",
               "Run the service locally with logs via `RUST_LOG=stockroom=info cargo run` "
               "(EnvFilter reads RUST_LOG; it listens on :8080)",
               "RUST_LOG", "cargo run|re:stockroom=\\w+"),
        # session 2, Bash: "cargo clippy --all-targets -- -D warnings" (again in session 4)
        lesson("also-clippy-deny-warnings", "command",
               "Lint with `cargo clippy --all-targets -- -D warnings`",
               "clippy", "-D warnings|deny warnings|warnings as errors"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hey! catching up after the long weekend, slack is a disaster. the on-call "
                 "doc finally got merged btw, thanks for the review comments. anyway, today: "
                 "when the scanner app misbehaves we're blind, the item handlers log nothing. "
                 "can you add tracing to them? a couple of house rules while you're at it: we "
                 "always log through tracing with structured fields, like "
                 "`info!(item_id = %id, \"item created\")`, never values formatted into the "
                 "message string, because Loki indexes the fields and nothing else. and put "
                 "#[instrument(skip(state))] on each handler so the span carries the request "
                 "args but not the pool. oh, and Leo says hi, he's back from paternity leave.",
                 states=("tracing-fields", "instrument-skip")),
            Read("src/routes.rs"),
            Write("src/routes.rs", S9_ROUTES_TRACED),
            Bash("cargo build", out=S9_BUILD_SKIP, ok=False, exit=101),
            Say("#[instrument] names arguments by the identifiers inside their patterns. Our "
                "handlers destructure `State(st)`, so the argument it knows is `st`, not "
                "`state`. Same rule, spelled skip(st)."),
            Edit("src/routes.rs", "#[instrument(skip(state))]\nasync fn list_items(",
                 "#[instrument(skip(st))]\nasync fn list_items("),
            Edit("src/routes.rs", "#[instrument(skip(state))]\nasync fn get_item(",
                 "#[instrument(skip(st))]\nasync fn get_item("),
            Edit("src/routes.rs", "#[instrument(skip(state))]\nasync fn create_item(",
                 "#[instrument(skip(st))]\nasync fn create_item("),
            Bash("cargo build", out=build_ok(SR_CRATE, "5.37s")),
            Bash("cargo test", out=sr_test("7.80s", SR_API_2)),
            Bash("RUST_LOG=stockroom=debug cargo run", out=S9_RUN_IN_USE, ok=False, exit=1),
            Say("Port 8080 is already taken, probably a stockroom left running in another "
                "terminal; nothing to do with this change. Tests are green, committing."),
            Commit("Trace item handlers: #[instrument] spans and structured info! events"),
            User("say hi back to Leo 😄 thanks"),
        )),
        Session(day=3, noise=True, events=(
            User("morning! quiet one today. how many routes do we have now?"),
            Read("src/routes.rs"),
            Say("Four: GET /health, GET and POST /items, GET /items/:id."),
            User("ok. can you run the tests, just to see everything's fine after Ed's "
                 "dependency bumps?"),
            Bash("cargo test", out=sr_test("38.12s", SR_API_2)),
            Say("All green."),
            User("cool. how long does a clean release build take these days?"),
            Bash("cargo clean && cargo build --release 2>&1 | tail -1",
                 out="     Removed 3154 files, 1.9GiB total\n"
                     + _finished("release", "1m 12s")),
            Say("About 1m12s for a clean release build on this machine."),
            User("meh, fine. tiny thing: could /health answer `ok` with a trailing newline? "
                 "curl output in the terminal looks nicer"),
            Edit("src/routes.rs", 'get(|| async { "ok" })', 'get(|| async { "ok\\n" })'),
            Bash("cargo build", out=build_ok(SR_CRATE, "4.02s")),
            Commit("Health endpoint answers with a trailing newline"),
            User("ty!"),
        )),
        Session(day=10, events=(
            User("dependabot keeps nagging about axum 0.8, can you do the bump? should be "
                 "painless, the changelog is mostly about dropping async_trait"),
            Edit("Cargo.toml", 'axum = "0.7"', 'axum = "0.8"'),
            Edit("Cargo.toml", 'tower-http = { version = "0.5"', 'tower-http = { version = "0.6"'),
            Bash("cargo build", out="   Compiling matchit v0.8.4\n   Compiling axum-core v0.5.0\n"
                                    "   Compiling axum v0.8.1\n   Compiling tower-http v0.6.1\n"
                                    + build_ok(SR_CRATE, "21.08s")),
            Bash("cargo test", out=S9_TEST_AXUM08, ok=False, exit=101),
            Say("axum 0.8 changed the path syntax: captures are `/{id}` now, and the old `/:id` "
                "isn't a compile error. Router::route panics when the router is built, so "
                "`cargo build` was green and every test died as soon as it constructed the "
                "router. Our only capture is /items/:id.", states="axum08-paths"),
            Edit("src/routes.rs", '.route("/items/:id", get(get_item))',
                 '.route("/items/{id}", get(get_item))'),
            Bash("cargo test", out=sr_test("6.91s", SR_API_2)),
            Bash("cargo clippy --all-targets -- -D warnings",
                 out=build_ok(SR_CRATE, "3.44s", verb="Checking")),
            Commit("Bump axum to 0.8 and tower-http to 0.6; path captures use {id}"),
            User("nice catch, thanks"),
        )),
        Session(day=13, events=(
            User("hey. security review flagged something: the create_item span logs the whole "
                 "NewItem, and people paste supplier-portal links with tokens into item names. "
                 "so scratch the skip(st) rule. from now on handlers get "
                 "#[instrument(skip_all, fields(...))] and you list the fields you want "
                 "explicitly: opt-in, not opt-out.",
                 replaces="instrument-skip", states="instrument-skip-all"),
            Edit("src/routes.rs", "#[instrument(skip(st))]\nasync fn list_items(",
                 "#[instrument(skip_all)]\nasync fn list_items("),
            Edit("src/routes.rs", "#[instrument(skip(st))]\nasync fn get_item(",
                 "#[instrument(skip_all, fields(item_id = %id))]\nasync fn get_item("),
            Edit("src/routes.rs", "#[instrument(skip(st))]\nasync fn create_item(",
                 "#[instrument(skip_all)]\nasync fn create_item("),
            Edit("src/routes.rs",
                 '    info!(item_id = %item.id, name = %item.name, "item created");\n',
                 '    info!(item_id = %item.id, "item created");\n'),
            Bash("cargo build", out=build_ok(SR_CRATE, "4.66s")),
            Bash("RUST_LOG=stockroom=info cargo run -q & sleep 3; curl -s -XPOST "
                 "localhost:8080/items -H 'content-type: application/json' "
                 "-d '{\"name\":\"hex key 4mm\",\"quantity\":12}'; kill %1", out=S9_RUN_LOGS),
            Say("The create_item span no longer records the request body; the event carries "
                "only item_id. I also dropped the item name from the \"item created\" event, "
                "since names are where the tokens end up."),
            Commit("Handlers: #[instrument(skip_all)] with explicit fields; no names in logs"),
            User("perfect, I'll tell the reviewers"),
        )),
        Session(day=19, events=(
            Probe("the scanner team wants DELETE /items/:id this sprint: 204 if it existed, 404 "
                  "otherwise", needs=("axum08-paths", "instrument-skip-all", "tracing-fields")),
            Edit("src/db.rs", "    .fetch_one(pool)\n    .await\n}\n",
                 "    .fetch_one(pool)\n    .await\n}\n\n"
                 "pub async fn delete_item(pool: &PgPool, id: Uuid) -> sqlx::Result<bool> {\n"
                 "    let res = sqlx::query!(\"DELETE FROM items WHERE id = $1\", id)"
                 ".execute(pool).await?;\n"
                 "    Ok(res.rows_affected() == 1)\n}\n"),
            Edit("src/routes.rs", "use axum::extract::{Path, State};\n",
                 "use axum::extract::{Path, State};\nuse axum::http::StatusCode;\n"),
            Edit("src/routes.rs", '.route("/items/{id}", get(get_item))',
                 '.route("/items/{id}", get(get_item).delete(delete_item))'),
            Edit("src/routes.rs",
                 '    info!(item_id = %item.id, "item created");\n    Ok(Json(item))\n}\n',
                 '    info!(item_id = %item.id, "item created");\n    Ok(Json(item))\n}\n\n'
                 "#[instrument(skip_all, fields(item_id = %id))]\n"
                 "async fn delete_item(\n    State(st): State<AppState>,\n"
                 "    Path(id): Path<Uuid>,\n) -> Result<StatusCode, AppError> {\n"
                 "    if db::delete_item(&st.pool, id).await? {\n"
                 '        info!(item_id = %id, "item deleted");\n'
                 "        Ok(StatusCode::NO_CONTENT)\n    } else {\n"
                 "        Err(AppError::NotFound)\n    }\n}\n"),
            Bash("cargo test", out=sr_test("7.14s", SR_API_2)),
            Commit("Add DELETE /items/{id}"),
            Probe("and could it log something when a delete hits an id that doesn't exist? we "
                  "suspect the scanner retries deletes", needs=("tracing-fields",)),
            Edit("src/routes.rs", "use tracing::{info, instrument};\n",
                 "use tracing::{info, instrument, warn};\n"),
            Edit("src/routes.rs", "    } else {\n        Err(AppError::NotFound)\n    }\n",
                 "    } else {\n"
                 '        warn!(item_id = %id, "delete of unknown item");\n'
                 "        Err(AppError::NotFound)\n    }\n"),
            Bash("cargo clippy --all-targets -- -D warnings",
                 out=build_ok(SR_CRATE, "3.18s", verb="Checking")),
            Commit("Warn when a delete targets an unknown item"),
        )),
    ),
)

# ============================================================================================
# Story 10: money in integer cents, a transaction held across a webhook call exhausting the
# pool, and scattered env reads replaced by one Config.

S10_DB_PRICE = """\
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use uuid::Uuid;

#[derive(Debug, Serialize, sqlx::FromRow)]
pub struct Item {
    pub id: Uuid,
    pub name: String,
    pub quantity: i32,
    /// Unit price in integer cents.
    pub price_cents: i64,
}

#[derive(Debug, Deserialize)]
pub struct NewItem {
    pub name: String,
    pub quantity: i32,
    pub price_cents: i64,
}

pub async fn list_items(pool: &PgPool) -> sqlx::Result<Vec<Item>> {
    sqlx::query_as!(Item, "SELECT id, name, quantity, price_cents FROM items ORDER BY name")
        .fetch_all(pool)
        .await
}

pub async fn get_item(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<Item>> {
    sqlx::query_as!(
        Item,
        "SELECT id, name, quantity, price_cents FROM items WHERE id = $1",
        id
    )
    .fetch_optional(pool)
    .await
}

pub async fn insert_item(pool: &PgPool, new: &NewItem) -> sqlx::Result<Item> {
    sqlx::query_as!(
        Item,
        "INSERT INTO items (id, name, quantity, price_cents) VALUES ($1, $2, $3, $4) \\
         RETURNING id, name, quantity, price_cents",
        Uuid::new_v4(),
        new.name,
        new.quantity,
        new.price_cents
    )
    .fetch_one(pool)
    .await
}
"""

S10_BUILD_NULLABLE = f"""\
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
error[E0308]: mismatched types
  --> src/db.rs:22:5
   |
22 |     sqlx::query_as!(Item, "SELECT id, name, quantity, price_cents FROM items ORDER BY name")
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   |     |
   |     expected `i64`, found `Option<i64>`
   |     arguments to this function are incorrect
   |
   = note: expected type `i64`
              found enum `Option<i64>`
{SR_MACRO_NOTE}

error[E0308]: mismatched types
  --> src/db.rs:28:5
   |
28 | /     sqlx::query_as!(
29 | |         Item,
30 | |         "SELECT id, name, quantity, price_cents FROM items WHERE id = $1",
31 | |         id
32 | |     )
   | |     ^
   | |     |
   | |_____expected `i64`, found `Option<i64>`
   |       arguments to this function are incorrect
   |
   = note: expected type `i64`
              found enum `Option<i64>`
{SR_MACRO_NOTE}

error[E0308]: mismatched types
  --> src/db.rs:38:5
   |
38 | /     sqlx::query_as!(
39 | |         Item,
40 | |         "INSERT INTO items (id, name, quantity, price_cents) VALUES ($1, $2, $3, $4) \\
41 | |          RETURNING id, name, quantity, price_cents",
...  |
45 | |         new.price_cents
46 | |     )
   | |_____^ expected `i64`, found `Option<i64>`
   |
{SR_MACRO_NOTE}

For more information about this error, try `rustc --explain E0308`.
error: could not compile `stockroom` (lib) due to 3 previous errors"""

S10_WEBHOOK_ENV = """\
use serde_json::json;
use uuid::Uuid;

/// Tells the supplier an item fell below its reorder level.
pub async fn notify_low_stock(item_id: Uuid, on_hand: i32) -> anyhow::Result<()> {
    let url = std::env::var("SUPPLIER_WEBHOOK_URL")?;
    reqwest::Client::new()
        .post(url)
        .json(&json!({ "item_id": item_id, "on_hand": on_hand }))
        .send()
        .await?
        .error_for_status()?;
    Ok(())
}
"""

S10_WEBHOOK_URL = """\
use serde_json::json;
use uuid::Uuid;

/// Tells the supplier an item fell below its reorder level.
pub async fn notify_low_stock(url: &str, item_id: Uuid, on_hand: i32) -> anyhow::Result<()> {
    reqwest::Client::new()
        .post(url)
        .json(&json!({ "item_id": item_id, "on_hand": on_hand }))
        .send()
        .await?
        .error_for_status()?;
    Ok(())
}
"""

S10_ROUTES_ADJUST = """\
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use uuid::Uuid;

use crate::db::{self, Item, NewItem};
use crate::error::AppError;
use crate::{webhook, AppState};

/// Below this many units an adjustment notifies the supplier.
const REORDER_LEVEL: i32 = 10;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/items", get(list_items).post(create_item))
        .route("/items/:id", get(get_item))
        .route("/items/:id/adjust", post(adjust_item))
        .with_state(state)
}

async fn list_items(State(st): State<AppState>) -> Result<Json<Vec<Item>>, AppError> {
    Ok(Json(db::list_items(&st.pool).await?))
}

async fn get_item(
    State(st): State<AppState>,
    Path(id): Path<Uuid>,
) -> Result<Json<Item>, AppError> {
    let item = db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;
    Ok(Json(item))
}

async fn create_item(
    State(st): State<AppState>,
    Json(new): Json<NewItem>,
) -> Result<Json<Item>, AppError> {
    Ok(Json(db::insert_item(&st.pool, &new).await?))
}

#[derive(Debug, Deserialize)]
struct Adjust {
    delta: i32,
}

/// Applies a stock delta and tells the supplier when the item drops below the reorder level.
async fn adjust_item(
    State(st): State<AppState>,
    Path(id): Path<Uuid>,
    Json(body): Json<Adjust>,
) -> Result<Json<Item>, AppError> {
    let mut tx = st.pool.begin().await?;
    let item = db::adjust_quantity(&mut tx, id, body.delta)
        .await?
        .ok_or(AppError::NotFound)?;
    if item.quantity < REORDER_LEVEL {
        if let Err(e) = webhook::notify_low_stock(item.id, item.quantity).await {
            tracing::warn!(error = %e, item_id = %item.id, "supplier webhook failed");
        }
    }
    tx.commit().await?;
    Ok(Json(item))
}
"""

S10_CONFIG = """\
use anyhow::Context;
use serde::Deserialize;

/// Every setting the service reads, loaded once at startup from `STOCKROOM_*` variables.
#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    pub database_url: String,
    pub supplier_webhook_url: String,
    #[serde(default = "default_port")]
    pub port: u16,
    #[serde(default = "default_max_connections")]
    pub max_connections: u32,
    #[serde(default = "default_reorder_level")]
    pub reorder_level: i32,
}

fn default_port() -> u16 {
    8080
}

fn default_max_connections() -> u32 {
    10
}

fn default_reorder_level() -> i32 {
    10
}

impl Config {
    /// Fails at startup, naming the variable, when a setting is missing or malformed.
    pub fn from_env() -> anyhow::Result<Self> {
        envy::prefixed("STOCKROOM_").from_env().context("invalid STOCKROOM_* environment")
    }
}
"""

S10_LIB_CONFIG = """\
use std::sync::Arc;

pub mod config;
pub mod db;
pub mod error;
pub mod routes;
pub mod webhook;

#[derive(Clone)]
pub struct AppState {
    pub pool: sqlx::PgPool,
    pub config: Arc<config::Config>,
}
"""

S10_MAIN_CONFIG = """\
use std::net::SocketAddr;
use std::sync::Arc;

use sqlx::postgres::PgPoolOptions;
use stockroom::config::Config;
use stockroom::{routes, AppState};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_env_filter(EnvFilter::from_default_env()).init();

    let config = Arc::new(Config::from_env()?);
    let pool = PgPoolOptions::new()
        .max_connections(config.max_connections)
        .connect(&config.database_url)
        .await?;
    sqlx::migrate!().run(&pool).await?;

    let addr = SocketAddr::from(([0, 0, 0, 0], config.port));
    let app = routes::router(AppState { pool, config });
    let listener = tokio::net::TcpListener::bind(addr).await?;
    tracing::info!(%addr, "listening");
    axum::serve(listener, app).await?;
    Ok(())
}
"""

S10_TESTS_CONFIG = """\
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use sqlx::PgPool;
use stockroom::config::Config;
use stockroom::{routes, AppState};
use tower::ServiceExt;

fn app(pool: PgPool) -> axum::Router {
    let config = Config {
        database_url: String::new(),
        supplier_webhook_url: "http://127.0.0.1:9/unused".into(),
        port: 0,
        max_connections: 1,
        reorder_level: 10,
    };
    routes::router(AppState { pool, config: Arc::new(config) })
}

#[sqlx::test]
async fn health_is_ok(pool: PgPool) {
    let req = Request::get("/health").body(Body::empty()).unwrap();
    let res = app(pool).oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

#[sqlx::test]
async fn unknown_item_is_404(pool: PgPool) {
    let req = Request::get(format!("/items/{}", uuid::Uuid::new_v4())).body(Body::empty());
    let res = app(pool).oneshot(req.unwrap()).await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

#[sqlx::test]
async fn adjusting_unknown_item_is_404(pool: PgPool) {
    let req = Request::post(format!("/items/{}/adjust", uuid::Uuid::new_v4()))
        .header("content-type", "application/json")
        .body(Body::from(r#"{"delta":-1}"#))
        .unwrap();
    let res = app(pool).oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
"""

S10_TEST_E0063 = """\
   Compiling stockroom v0.2.0 (/home/jonas/work/stockroom)
error[E0063]: missing field `config` in initializer of `AppState`
 --> tests/api.rs:9:30
  |
9 |     let app = routes::router(AppState { pool });
  |                              ^^^^^^^^ missing `config`

error[E0063]: missing field `config` in initializer of `AppState`
  --> tests/api.rs:16:30
   |
16 |     let app = routes::router(AppState { pool });
   |                              ^^^^^^^^ missing `config`

error[E0063]: missing field `config` in initializer of `AppState`
  --> tests/api.rs:24:30
   |
24 |     let app = routes::router(AppState { pool });
   |                              ^^^^^^^^ missing `config`

For more information about this error, try `rustc --explain E0063`.
error: could not compile `stockroom` (test "api") due to 3 previous errors"""

S10_GREP_TX = """\
53:    let mut tx = st.pool.begin().await?;
58:        if let Err(e) = webhook::notify_low_stock(item.id, item.quantity).await {
62:    tx.commit().await?;"""

S10_K6 = """\
     scenarios: (100.00%) 1 scenario, 400 max VUs, 2m30s max duration (incl. graceful stop):
              * adjust: 200.00 iterations/s for 2m0s (maxVUs: 50-400, gracefulStop: 30s)

     ✓ status is 200

     checks.........................: 100.00% ✓ 23996      ✗ 0
     data_received..................: 5.1 MB  42 kB/s
     data_sent......................: 4.6 MB  38 kB/s
     http_req_duration..............: avg=71.4ms  min=1.87ms med=3.02ms max=2.11s p(90)=4.9ms \
p(95)=6.37ms
     http_req_failed................: 0.00%   ✓ 0          ✗ 23996
     http_reqs......................: 23996   199.95/s
     iteration_duration.............: avg=71.6ms  min=1.95ms med=3.11ms max=2.11s p(90)=5.02ms \
p(95)=6.5ms
     iterations.....................: 23996   199.95/s
     vus............................: 7       min=3        max=412
     vus_max........................: 412     min=50       max=412"""

S10_DEPLOY = """\
cargo build --release --locked
    Finished `release` profile [optimized] target(s) in 1m 04s
docker build -t registry.internal/stockroom:3f7a9c2 .
[+] Building 38.2s (12/12) FINISHED
 => exporting to image                                                     1.1s
 => => naming to registry.internal/stockroom:3f7a9c2                       0.0s
docker push registry.internal/stockroom:3f7a9c2
3f7a9c2: digest: sha256:9b1e60d4c7a2f83e5d01b9c6a4f7e2d8b3c5a1f09e6d4b7c2a8f5e3d1b0c9a47 size: 1784
kubectl --context staging -n stockroom set image deploy/stockroom \
app=registry.internal/stockroom:3f7a9c2
deployment.apps/stockroom image updated
kubectl --context staging -n stockroom rollout status deploy/stockroom --timeout=180s
Waiting for deployment "stockroom" rollout to finish: 1 of 3 updated replicas are available...
Waiting for deployment "stockroom" rollout to finish: 2 of 3 updated replicas are available...
deployment "stockroom" successfully rolled out"""

S10_API_3 = ["adjusting_unknown_item_is_404", "health_is_ok", "unknown_item_is_404"]

CONFIG_POOL = Story(
    id="rs-stockroom-config-pool",
    title="Money as integer cents, a sqlx transaction held across a webhook call exhausting the "
          "pool, and ad-hoc env reads replaced by one Config loaded at startup",
    project=STOCKROOM,
    lessons=(
        lesson("deploy-staging", "command",
               "Deploy to staging with `make deploy-staging` from a clean main (after `aws sso "
               "login --profile staging`)",
               "deploy-staging"),
        lesson("cents", "convention",
               "Money is integer cents everywhere: i64 in Rust, BIGINT *_cents columns in "
               "Postgres; never floats",
               "cents", "i64|integer|bigint|f64|float"),
        lesson("env-scattered", "decision",
               "Settings such as SUPPLIER_WEBHOOK_URL are read with std::env::var where they are "
               "used; no config layer while there are only two settings",
               "std::env::var|env::var"),
        lesson("tx-await", "gotcha",
               "Never hold a sqlx transaction (a pool connection) across an outbound HTTP call: "
               "the supplier webhook inside the adjust transaction exhausted the pool ('pool "
               "timed out while waiting for an open connection'); commit first, then call out",
               "transaction|tx", "await|http call|webhook|outbound|external call",
               "pool timed out|pool|connection"),
        lesson("config-struct", "convention",
               "All settings live in one Config struct (src/config.rs), loaded once at startup "
               "with envy from STOCKROOM_* variables and passed in AppState; no "
               "std::env::var elsewhere",
               "config.rs|Config struct|struct Config", "envy|STOCKROOM_|at startup|at boot"),
    ),
    also=(
        # session 0, Say: "The migration only exists on my machine, so I'll fix the file and rebuild
        # the dev database rather than stack a second migration on top." then Bash "sqlx database
        # reset -y"
        lesson("also-sqlx-database-reset", "command",
               "A migration that exists only locally (not merged) may be fixed in place; then "
               "rebuild the dev DB with `sqlx database reset -y`, which recreates it and reapplies "
               "every migration",
               "sqlx database reset|database reset"),
        # session 2, Bash: "k6 run load/adjust.js" (200 rps for 2 min, 0% failures after the fix)
        lesson("also-k6-load-test", "command",
               "Load-test the adjust endpoint with `k6 run load/adjust.js` (200 requests/s for "
               "2 minutes)",
               "load/adjust.js|k6 run"),
        # session 4, Bash "make deploy-staging": "docker push registry.internal/stockroom:3f7a9c2
        # ... kubectl --context staging -n stockroom set image deploy/stockroom"
        lesson("also-deploy-staging-steps", "fact",
               "`make deploy-staging` builds with --locked, pushes the image "
               "registry.internal/stockroom:<short sha> and sets it on deploy/stockroom in "
               "namespace "
               "stockroom (kubectl --context staging), then waits for the 3-replica rollout",
               "registry.internal|kubectl|deploy/stockroom|rollout", "staging"),
        # session 1, User: "when an item drops below its reorder level (10 for now) we POST to the
        # supplier's webhook"; session 3, Write src/config.rs: "pub reorder_level: i32" (default 10)
        lesson("also-reorder-level", "fact",
               "An adjustment that leaves an item below the reorder level (Config.reorder_level, "
               "STOCKROOM_REORDER_LEVEL, default 10) POSTs to the supplier webhook, after the "
               "transaction commits",
               "reorder", "supplier|webhook|notif"),
        # session 1, Bash: "cargo clippy --all-targets -- -D warnings"
        lesson("also-clippy-deny-warnings", "command",
               "Lint with `cargo clippy --all-targets -- -D warnings`",
               "clippy", "-D warnings|deny warnings|warnings as errors"),
    ),
    sessions=(
        Session(day=0, notes=(
            Note("- Staging deploys: `make deploy-staging` from a clean main (run `aws sso login "
                 "--profile staging` first)", states="deploy-staging"),
        ), events=(
            User("hi! we need prices on items: a unit price, shown on GET and settable on POST. "
                 "and the standard here for money is integer cents: i64 in Rust, a BIGINT "
                 "`*_cents` column in Postgres, never floats. we got burned by 0.1 + 0.2 in the "
                 "old PHP app and I'm not doing that again.", states="cents"),
            Bash("sqlx migrate add add_item_price",
                 out="Creating migrations/20240506110204_add_item_price.sql"),
            Write("migrations/20240506110204_add_item_price.sql",
                  "ALTER TABLE items ADD COLUMN price_cents BIGINT;\n"),
            Write("src/db.rs", S10_DB_PRICE),
            Bash("sqlx migrate run", out="Applied 20240506110204/migrate add item price (4.930ms)"),
            Bash("cargo build", out=S10_BUILD_NULLABLE, ok=False, exit=101),
            Say("The new column is nullable, so sqlx's macros type it as Option<i64>. Existing "
                "rows have no price yet, so it should be NOT NULL DEFAULT 0. The migration only "
                "exists on my machine, so I'll fix the file and rebuild the dev database rather "
                "than stack a second migration on top."),
            Write("migrations/20240506110204_add_item_price.sql",
                  "ALTER TABLE items ADD COLUMN price_cents BIGINT NOT NULL DEFAULT 0\n"
                  "    CHECK (price_cents >= 0);\n"),
            Bash("sqlx database reset -y",
                 out="Applied 20240311093000/migrate create items (9.412ms)\n"
                     "Applied 20240506110204/migrate add item price (3.187ms)"),
            Bash("cargo build", out=build_ok(SR_CRATE, "8.02s")),
            Bash("cargo test", out=sr_test("9.31s", SR_API_2)),
            Bash("git add migrations/20240506110204_add_item_price.sql"),
            Commit("Add price_cents (BIGINT, integer cents) to items"),
        )),
        Session(day=3, events=(
            User("next: stock adjustments. POST /items/{id}/adjust with a signed delta, and "
                 "when an item drops below its reorder level (10 for now) we POST to the "
                 "supplier's webhook. the URL differs per environment."),
            Say("For the webhook URL I'll read SUPPLIER_WEBHOOK_URL with std::env::var inside "
                "the notifier, at call time: with DATABASE_URL it's our only setting, so a "
                "config layer would be overkill for now. The notification happens inside the "
                "adjustment's transaction, committing afterwards, so the change and the "
                "notification go together.", states="env-scattered"),
            Edit("Cargo.toml", 'anyhow = "1"\n',
                 'anyhow = "1"\nreqwest = { version = "0.12", default-features = false, '
                 'features = ["json", "rustls-tls"] }\n'),
            Write("src/webhook.rs", S10_WEBHOOK_ENV),
            Edit("src/lib.rs", "pub mod routes;\n", "pub mod routes;\npub mod webhook;\n"),
            Edit("src/db.rs", "use sqlx::PgPool;\n", "use sqlx::{PgConnection, PgPool};\n"),
            Edit("src/db.rs", "    .fetch_one(pool)\n    .await\n}\n",
                 "    .fetch_one(pool)\n    .await\n}\n\n"
                 "pub async fn adjust_quantity(\n    conn: &mut PgConnection,\n    id: Uuid,\n"
                 "    delta: i32,\n) -> sqlx::Result<Option<Item>> {\n"
                 "    sqlx::query_as!(\n        Item,\n"
                 "        \"UPDATE items SET quantity = quantity + $2 WHERE id = $1 \\\n"
                 "         RETURNING id, name, quantity, price_cents\",\n"
                 "        id,\n        delta\n    )\n    .fetch_optional(conn)\n    .await\n}\n"),
            Write("src/routes.rs", S10_ROUTES_ADJUST),
            Bash("cargo clippy --all-targets -- -D warnings",
                 out="   Compiling reqwest v0.12.5\n"
                     + build_ok(SR_CRATE, "19.63s", verb="Checking")),
            Bash("cargo test", out=sr_test("14.88s", SR_API_2)),
            Commit("Add POST /items/{id}/adjust; notify the supplier below the reorder level"),
            User("great, QA will hammer it this week"),
        )),
        Session(day=9, events=(
            User("load test results from last night are in 😬 after ~2 minutes at 200 rps, "
                 "/adjust starts returning 500s and the logs are full of `pool timed out while "
                 "waiting for an open connection`. the supplier mock sleeps 2 s per call on "
                 "purpose. related?"),
            Bash("grep -n 'begin\\|commit\\|notify_low_stock' src/routes.rs", out=S10_GREP_TX),
            Say("Yes, and it's my doing. adjust_item opens a transaction, which holds one of the "
                "pool's 10 connections, and then awaits the supplier webhook before committing. "
                "With a 2 s webhook, ten concurrent low-stock adjustments pin every connection, "
                "and everything else waits for the 30 s acquire timeout and fails with 'pool "
                "timed out'. Rule: never hold a transaction across an outbound HTTP call. "
                "Commit first, then notify; if the notification ever has to be guaranteed, "
                "write an outbox row inside the transaction and send it from a worker.",
                states="tx-await"),
            Edit("src/routes.rs",
                 "    if item.quantity < REORDER_LEVEL {\n"
                 "        if let Err(e) = webhook::notify_low_stock(item.id, item.quantity)"
                 ".await {\n"
                 "            tracing::warn!(error = %e, item_id = %item.id, \"supplier webhook "
                 "failed\");\n        }\n    }\n    tx.commit().await?;\n",
                 "    // Commit before calling out: an open transaction holds a pool connection.\n"
                 "    tx.commit().await?;\n"
                 "    if item.quantity < REORDER_LEVEL {\n"
                 "        if let Err(e) = webhook::notify_low_stock(item.id, item.quantity)"
                 ".await {\n"
                 "            tracing::warn!(error = %e, item_id = %item.id, \"supplier webhook "
                 "failed\");\n        }\n    }\n"),
            Bash("cargo test", out=sr_test("6.47s", SR_API_2)),
            Bash("k6 run load/adjust.js", out=S10_K6),
            Compact(instructions="Keep the pool-exhaustion finding and fix (the adjust "
                                 "transaction was held open across the 2 s supplier webhook; "
                                 "it now commits first) and the k6 result: 0% failures at "
                                 "200 rps."),
            User("nice, 0 failures. while you're in there, can you add a test that adjusting an "
                 "unknown id gives a 404?"),
            Edit("tests/api.rs",
                 "    let res = app.oneshot(Request::get(uri).body(Body::empty()).unwrap())"
                 ".await.unwrap();\n    assert_eq!(res.status(), StatusCode::NOT_FOUND);\n}\n",
                 "    let res = app.oneshot(Request::get(uri).body(Body::empty()).unwrap())"
                 ".await.unwrap();\n    assert_eq!(res.status(), StatusCode::NOT_FOUND);\n}\n\n"
                 "#[sqlx::test]\nasync fn adjusting_unknown_item_is_404(pool: PgPool) {\n"
                 "    let app = routes::router(AppState { pool });\n"
                 "    let req = Request::post(format!(\"/items/{}/adjust\", "
                 "uuid::Uuid::new_v4()))\n"
                 "        .header(\"content-type\", \"application/json\")\n"
                 "        .body(Body::from(r#\"{\"delta\":-1}\"#))\n        .unwrap();\n"
                 "    let res = app.oneshot(req).await.unwrap();\n"
                 "    assert_eq!(res.status(), StatusCode::NOT_FOUND);\n}\n"),
            Bash("cargo test", out=sr_test("6.88s", S10_API_3)),
            Commit("Commit the adjustment before calling the supplier webhook; test 404 on "
                   "adjust"),
        )),
        Session(day=11, events=(
            User("morning. config time: we're at seven env vars now, read with std::env::var "
                 "all over the place, and Tuesday's staging outage was SUPPLIER_WEBHOOK_URl "
                 "with a lowercase L that nobody noticed until the first low-stock event. so we "
                 "no longer read env vars ad hoc: from now on every setting lives in one Config "
                 "struct in src/config.rs, loaded once at startup with envy from STOCKROOM_* "
                 "vars so a typo fails at boot, and handlers get it through AppState.",
                 replaces="env-scattered", states="config-struct"),
            Edit("Cargo.toml", 'axum = "0.7"\n', 'axum = "0.7"\nenvy = "0.4"\n'),
            Write("src/config.rs", S10_CONFIG),
            Write("src/lib.rs", S10_LIB_CONFIG),
            Write("src/main.rs", S10_MAIN_CONFIG),
            Write("src/webhook.rs", S10_WEBHOOK_URL),
            Edit("src/routes.rs",
                 "/// Below this many units an adjustment notifies the supplier.\n"
                 "const REORDER_LEVEL: i32 = 10;\n\n", ""),
            Edit("src/routes.rs",
                 "    if item.quantity < REORDER_LEVEL {\n"
                 "        if let Err(e) = webhook::notify_low_stock(item.id, item.quantity)"
                 ".await {\n",
                 "    if item.quantity < st.config.reorder_level {\n"
                 "        let url = &st.config.supplier_webhook_url;\n"
                 "        if let Err(e) = webhook::notify_low_stock(url, item.id, item.quantity)"
                 ".await {\n"),
            Bash("cargo build", out="   Compiling envy v0.4.2\n" + build_ok(SR_CRATE, "6.90s")),
            Bash("cargo test", out=S10_TEST_E0063, ok=False, exit=101),
            Write("tests/api.rs", S10_TESTS_CONFIG),
            Bash("cargo test", out=sr_test("3.02s", S10_API_3)),
            Commit("Load all settings once into Config (envy, STOCKROOM_*); no ad-hoc env reads"),
        )),
        Session(day=17, events=(
            Probe("finance wants GET /items/{id} to include the stock value, quantity times "
                  "unit price, so they can stop exporting to excel", needs=("cents",)),
            Edit("src/routes.rs",
                 "async fn get_item(\n    State(st): State<AppState>,\n"
                 "    Path(id): Path<Uuid>,\n) -> Result<Json<Item>, AppError> {\n"
                 "    let item = db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;\n"
                 "    Ok(Json(item))\n}\n",
                 "/// An item plus the value of its stock, in integer cents like every amount.\n"
                 "#[derive(Debug, serde::Serialize)]\nstruct ItemView {\n"
                 "    #[serde(flatten)]\n    item: Item,\n    stock_value_cents: i64,\n}\n\n"
                 "async fn get_item(\n    State(st): State<AppState>,\n"
                 "    Path(id): Path<Uuid>,\n) -> Result<Json<ItemView>, AppError> {\n"
                 "    let item = db::get_item(&st.pool, id).await?.ok_or(AppError::NotFound)?;\n"
                 "    let stock_value_cents = i64::from(item.quantity) * item.price_cents;\n"
                 "    Ok(Json(ItemView { item, stock_value_cents }))\n}\n"),
            Bash("cargo test", out=sr_test("5.63s", S10_API_3)),
            Commit("GET /items/{id} includes stock_value_cents"),
            Probe("QA wants to poke at the reorder webhook on staging today. can you get this "
                  "build out there?", needs=("deploy-staging",)),
            Bash("make deploy-staging", out=S10_DEPLOY),
            Probe("last one for the week: when stock runs low, also email the buyer through the "
                  "notifier service. it's another HTTP POST, and its URL differs per "
                  "environment as well", needs=("tx-await", "config-struct")),
            Say("Same shape as the supplier call: a new STOCKROOM_NOTIFIER_URL setting in "
                "Config, and the call goes after tx.commit(), never inside the transaction, so "
                "a slow notifier can't pin pool connections. The two calls are independent, so "
                "I'll run them concurrently with tokio::join! and log each failure on its own."),
            Edit("src/config.rs", "    pub supplier_webhook_url: String,\n",
                 "    pub supplier_webhook_url: String,\n    pub notifier_url: String,\n"),
            Edit("tests/api.rs", "        supplier_webhook_url: \"http://127.0.0.1:9/unused\".into(),\n",
                 "        supplier_webhook_url: \"http://127.0.0.1:9/unused\".into(),\n"
                 "        notifier_url: \"http://127.0.0.1:9/unused\".into(),\n"),
            Edit("src/webhook.rs", "    Ok(())\n}\n",
                 "    Ok(())\n}\n\n"
                 "/// Emails the buyer, through the notifier service, that an item is "
                 "running low.\n"
                 "pub async fn notify_buyer(url: &str, item_id: Uuid, on_hand: i32) -> "
                 "anyhow::Result<()> {\n"
                 "    reqwest::Client::new()\n        .post(url)\n"
                 "        .json(&json!({ \"template\": \"low_stock\", \"item_id\": item_id, "
                 "\"on_hand\": on_hand }))\n"
                 "        .send()\n        .await?\n        .error_for_status()?;\n"
                 "    Ok(())\n}\n"),
            Edit("src/routes.rs",
                 "        let url = &st.config.supplier_webhook_url;\n"
                 "        if let Err(e) = webhook::notify_low_stock(url, item.id, item.quantity)"
                 ".await {\n"
                 "            tracing::warn!(error = %e, item_id = %item.id, \"supplier webhook "
                 "failed\");\n        }\n",
                 "        let (supplier, buyer) = tokio::join!(\n"
                 "            webhook::notify_low_stock(&st.config.supplier_webhook_url, item.id, "
                 "item.quantity),\n"
                 "            webhook::notify_buyer(&st.config.notifier_url, item.id, "
                 "item.quantity),\n        );\n"
                 "        if let Err(e) = supplier {\n"
                 "            tracing::warn!(error = %e, item_id = %item.id, \"supplier webhook "
                 "failed\");\n        }\n"
                 "        if let Err(e) = buyer {\n"
                 "            tracing::warn!(error = %e, item_id = %item.id, \"buyer "
                 "notification failed\");\n        }\n"),
            Bash("cargo test", out=sr_test("6.12s", S10_API_3)),
            Commit("Email the buyer via the notifier when stock runs low (after commit)"),
        )),
    ),
)

STORIES = [SINCE_OFFSETS, JSON_OUTPUT, MMAP_READER, MSRV, SNAPSHOTS, SQLX_OFFLINE, ITEM_CACHE,
           TEST_INFRA, TRACING, CONFIG_POOL]
