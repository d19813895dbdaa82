"""Core performance benchmark for Kenning: remember throughput, recall latency, cold start and
concurrent writers.

Run ``python benchmarks/bench_core.py [--sizes 1000,10000,100000] [--quick] [--out PATH]``.
Every figure is a median (with p95 where it is a latency) over repeated measurements; the JSON
output keeps every raw measurement. See benchmarks/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import multiprocessing as mp
import os
import queue
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import benchkit
from benchkit import cell, load_average, log, render, rounded, scratch_dir, summarize, working_copy

import kenning
from kenning import Kenning
from kenning.embed import MiniLMEmbedder
from kenning.store.base import SCHEMA_VERSION
from kenning.text import embedding_text, make_summary

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "core.json"
DATA_VERSION = "notes-v1"  # bump when the generators change: cached stores are rebuilt
PROJECT = "bench"
SEED = 20_240_611
NOW_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z: a fixed clock keeps stores identical
DAY_MS = 86_400_000

DEFAULT_SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000, 10_000)
COLD_SIZE = 10_000

BULK_N = 1_000
BULK_BATCH = 250
BULK_REPS = 3
SINGLE_CALLS = 300
SINGLE_REPS = 3
BUILD_BATCH = 512
WARMUP_QUERIES = 20
RECALL_QUERIES = 200
COLD_RUNS = 7
WRITERS = 8
WRITES_EACH = 500

TARGET_RECALL_P50_MS = {1_000: 3.5, 10_000: 5.0, 100_000: 12.0}  # hybrid, warm, 2 cores
TARGET_BULK_RATIO = 1.25
TARGET_SINGLE_P50_MS = 2.0  # one remember() that does not wait for the model
TARGET_EMBED_PER_S = 250.0  # batched embedding of ~30-word notes on 2 cores
REFERENCE_BATCH = 32

# (series name, mode, track) measured round-robin at every size.
SERIES: tuple[tuple[str, str, bool], ...] = (
    ("hybrid", "hybrid", False),
    ("hybrid_tracked", "hybrid", True),
    ("keyword", "keyword", False),
    ("vector", "vector", False),
)
MODEL_SERIES = "model"  # the query's embedding alone, timed in the same rounds


# -- generated notes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Area:
    """Vocabulary of one part of a code base."""

    name: str
    components: tuple[str, ...]
    techs: tuple[str, ...]
    problems: tuple[str, ...]
    fixes: tuple[str, ...]
    files: tuple[str, ...]


AREAS: tuple[Area, ...] = (
    Area(
        "auth",
        ("login flow", "session tokens", "OAuth callback", "refresh token rotation",
         "password reset emails", "SSO integration", "API key checks", "role permissions"),
        ("JWT", "opaque session ids", "Auth0", "Keycloak", "argon2", "PASETO", "OIDC",
         "signed cookies"),
        ("tokens expiring early because of clock skew", "a refresh race between two tabs",
         "a callback URL mismatch on preview deploys", "the CSRF check failing behind the proxy",
         "logout not revoking the refresh token", "case-sensitive email lookups creating "
         "duplicate users"),
        ("allowed 30 seconds of leeway in the expiry check", "serialised refreshes with a "
         "per-user lock", "read the allowed redirect hosts from config",
         "trusted the X-Forwarded-Proto header from the load balancer",
         "stored refresh token families and revoked the whole family",
         "lower-cased emails before every lookup"),
        ("src/auth/session.ts", "api/auth/middleware.py", "services/identity/tokens.go",
         "src/auth/oauth_callback.py", "web/lib/auth.ts"),
    ),
    Area(
        "caching",
        ("product page cache", "Redis session store", "CDN edge cache", "query result cache",
         "feature flag cache", "image thumbnail cache", "HTTP client cache", "rate limit counters"),
        ("Redis", "Memcached", "an in-process LRU", "Cloudflare", "Varnish", "stale-while-"
         "revalidate headers", "Redis Cluster", "a write-through cache"),
        ("a thundering herd when hot keys expire together", "stale prices after a deploy",
         "the cache key missing the locale", "memory eviction under the nightly batch",
         "serialisation of datetimes losing the timezone", "cache stampede on cold start"),
        ("added jitter to every TTL", "versioned the cache keys with the build id",
         "put the locale and currency into the key", "moved the batch job to its own Redis "
         "database", "switched the serializer to ISO 8601 strings",
         "warmed the top thousand keys before taking traffic"),
        ("src/cache/redis_client.py", "lib/cache/keys.ts", "services/catalog/cache.go",
         "config/cdn.yaml", "app/caching/decorators.py"),
    ),
    Area(
        "database",
        ("orders table", "user migrations", "read replicas", "connection pool",
         "full-text index", "audit log table", "tenant sharding", "nightly backups"),
        ("Postgres", "SQLite", "MySQL", "PgBouncer", "Alembic", "Prisma", "logical replication",
         "partitioned tables"),
        ("replica lag breaking read-after-write", "a migration locking the orders table",
         "the pool running out of connections under load", "N+1 queries on the dashboard",
         "a missing index on tenant_id", "deadlocks between the two invoice jobs"),
        ("routed reads after writes to the primary for five seconds",
         "split the migration into add column, backfill, then constraint",
         "put PgBouncer in transaction mode", "preloaded relations with a single join",
         "added a composite index on tenant_id and created_at",
         "took the locks in a fixed order"),
        ("db/migrations/0042_orders.py", "src/db/pool.py", "prisma/schema.prisma",
         "internal/store/postgres.go", "app/models/order.rb"),
    ),
    Area(
        "ci",
        ("test pipeline", "docker build step", "release workflow", "lint job",
         "integration test stage", "dependency cache", "nightly e2e run", "artifact upload"),
        ("GitHub Actions", "GitLab CI", "Buildkite", "docker buildx", "a matrix build",
         "self-hosted runners", "Bazel remote cache", "pre-commit hooks"),
        ("flaky tests that depend on wall-clock time", "the cache key ignoring the lockfile",
         "builds timing out on the ARM runners", "secrets not available on forks",
         "the docker layer cache never hitting", "tests leaking state through a shared database"),
        ("froze time in the tests with an injected clock", "hashed the lockfile into the cache "
         "key", "raised the timeout and split the job in two", "ran fork builds without "
         "deploy steps", "ordered the Dockerfile so dependencies install before the source "
         "copy", "gave every test worker its own schema"),
        (".github/workflows/ci.yml", ".gitlab-ci.yml", "Dockerfile", "scripts/ci/test.sh",
         "buildkite/pipeline.yml"),
    ),
    Area(
        "frontend",
        ("checkout form", "dashboard charts", "design system buttons", "routing layer",
         "state management", "image lazy loading", "i18n strings", "server-side rendering"),
        ("React", "Svelte", "Vue", "Zustand", "React Query", "Tailwind", "Next.js", "Vite"),
        ("hydration mismatches from dates rendered on the server", "the bundle growing past "
         "500 kB", "layout shift when fonts load", "double submits on slow networks",
         "stale data after navigating back", "a memory leak in the chart tooltip"),
        ("rendered dates only on the client", "split the charts into a lazy chunk",
         "preloaded the font and set size-adjust", "disabled the button while the request "
         "is pending", "invalidated the query on focus", "removed the resize listener on "
         "unmount"),
        ("web/src/components/Checkout.tsx", "web/src/routes/index.svelte",
         "frontend/src/store/cart.ts", "web/vite.config.ts", "ui/src/charts/LineChart.vue"),
    ),
    Area(
        "deploy",
        ("blue-green rollout", "Kubernetes manifests", "Terraform state", "canary release",
         "database migration step", "feature flags", "TLS certificates", "autoscaling policy"),
        ("Kubernetes", "Helm", "Terraform", "Argo CD", "Fly.io", "ECS", "Nomad",
         "LaunchDarkly"),
        ("pods restarting because the readiness probe is too strict", "Terraform state lock "
         "left behind by a cancelled job", "the canary receiving no traffic",
         "migrations running twice when two replicas start", "certificates expiring "
         "without an alert", "the autoscaler flapping every few minutes"),
        ("gave the readiness probe a 20 second initial delay", "added a force-unlock step "
         "to the runbook", "fixed the service selector labels", "ran migrations in a "
         "pre-deploy job with a lock", "added an expiry alert 14 days ahead",
         "set a five minute stabilisation window"),
        ("deploy/k8s/api-deployment.yaml", "infra/terraform/main.tf", "charts/api/values.yaml",
         "deploy/argocd/app.yaml", "fly.toml"),
    ),
    Area(
        "testing",
        ("unit test fixtures", "snapshot tests", "contract tests", "load tests",
         "property-based tests", "test data factories", "mock servers", "coverage reports"),
        ("pytest", "Jest", "Vitest", "Playwright", "Hypothesis", "k6", "testcontainers",
         "WireMock"),
        ("fixtures sharing mutable state", "snapshots churning on every dependency bump",
         "mocks drifting from the real API", "tests passing alone and failing in parallel",
         "slow suites because every test builds the app", "random seeds making failures "
         "unreproducible"),
        ("made every fixture function-scoped", "snapshotted only the stable fields",
         "generated the mocks from the OpenAPI spec", "isolated the temp directories per "
         "worker", "built the app once per session", "printed and pinned the seed"),
        ("tests/conftest.py", "src/__tests__/checkout.test.ts", "e2e/checkout.spec.ts",
         "tests/factories.py", "load/k6/checkout.js"),
    ),
    Area(
        "observability",
        ("request tracing", "error reporting", "structured logging", "latency dashboards",
         "alert rules", "log retention", "metrics cardinality", "on-call runbooks"),
        ("OpenTelemetry", "Sentry", "Prometheus", "Grafana", "Datadog", "Loki", "Honeycomb",
         "PagerDuty"),
        ("traces broken across the queue boundary", "alerts firing on every deploy",
         "log volume doubling the bill", "a metric label exploding cardinality",
         "errors grouped under one generic issue", "dashboards showing averages that hide "
         "the tail"),
        ("propagated the trace context in message headers", "muted alerts for ten minutes "
         "after a deploy", "sampled debug logs at one percent", "dropped the user id label",
         "added fingerprints per error class", "switched the panels to p95 and p99"),
        ("src/telemetry/tracing.py", "ops/alerts/api.rules.yml", "grafana/dashboards/api.json",
         "lib/logging.ts", "runbooks/api-latency.md"),
    ),
    Area(
        "api",
        ("REST pagination", "GraphQL resolvers", "webhook delivery", "rate limiting",
         "API versioning", "input validation", "error responses", "OpenAPI spec"),
        ("FastAPI", "Express", "gRPC", "GraphQL", "Pydantic", "Zod", "OpenAPI generators",
         "cursor pagination"),
        ("offset pagination skipping rows during inserts", "resolvers issuing one query per "
         "item", "webhooks retried forever on 410", "clients breaking on a renamed field",
         "validation errors returned as 500", "inconsistent error shapes between services"),
        ("switched to cursor pagination on created_at and id", "batched the resolvers with a "
         "dataloader", "stopped retrying on 4xx except 429", "kept the old field as a "
         "deprecated alias", "mapped validation errors to 422", "agreed on RFC 7807 problem "
         "details"),
        ("api/routes/orders.py", "src/graphql/resolvers.ts", "services/webhooks/deliver.go",
         "openapi.yaml", "app/api/errors.py"),
    ),
    Area(
        "queues",
        ("email worker", "background jobs", "event bus", "retry policy", "dead letter queue",
         "job scheduler", "outbox table", "stream consumers"),
        ("Celery", "Sidekiq", "RabbitMQ", "Kafka", "SQS", "BullMQ", "the transactional "
         "outbox", "Temporal"),
        ("jobs running twice after a worker crash", "the dead letter queue filling silently",
         "consumers falling behind at peak", "poison messages blocking the partition",
         "scheduled jobs drifting by minutes", "events published before the transaction "
         "commits"),
        ("made the handlers idempotent with a dedupe key", "alerted on dead letter depth",
         "scaled consumers on lag instead of CPU", "moved poison messages aside after "
         "three tries", "scheduled from a single leader", "wrote events to an outbox table "
         "in the same transaction"),
        ("workers/email.py", "app/jobs/retry.rb", "services/events/consumer.go",
         "src/queue/outbox.ts", "config/celery.py"),
    ),
    Area(
        "search",
        ("product search", "autocomplete", "search indexing job", "ranking function",
         "typo tolerance", "faceted filters", "synonyms list", "vector search"),
        ("Elasticsearch", "OpenSearch", "Meilisearch", "Typesense", "SQLite FTS5", "pgvector",
         "BM25", "reciprocal rank fusion"),
        ("the index falling out of sync with the database", "autocomplete slow on one-letter "
         "prefixes", "stemming merging unrelated words", "facet counts wrong after deletes",
         "reindexing taking the cluster down", "exact SKU matches ranking below fuzzy ones"),
        ("indexed from the change stream", "required two characters before querying",
         "switched the analyzer to light stemming", "refreshed counts after the delete "
         "batch", "reindexed into a new index and swapped the alias",
         "boosted exact keyword matches"),
        ("search/indexer.py", "src/search/query.ts", "services/search/ranking.go",
         "config/synonyms.txt", "search/mappings/products.json"),
    ),
    Area(
        "payments",
        ("checkout charges", "refund flow", "subscription renewals", "invoice PDFs",
         "currency conversion", "payment webhooks", "tax calculation", "fraud checks"),
        ("Stripe", "Adyen", "PayPal", "idempotency keys", "decimal amounts", "the billing "
         "portal", "webhook signatures", "a ledger table"),
        ("double charges when the client retries", "refunds failing for partial captures",
         "renewals failing on expired cards without notice", "rounding errors in converted "
         "totals", "webhooks arriving out of order", "tax missing for EU customers"),
        ("sent an idempotency key with every charge", "refunded against each capture "
         "separately", "emailed the customer three days before renewal",
         "stored amounts as integer cents", "ignored events older than the stored state",
         "looked up VAT rates by billing country"),
        ("billing/charges.py", "src/payments/stripe.ts", "services/billing/ledger.go",
         "app/models/invoice.rb", "billing/webhooks.py"),
    ),
)

ENVS = ("staging", "production", "the preview deploys", "local docker compose", "CI",
        "the EU region", "the load test environment", "the mobile beta")
REASONS = (
    "it keeps p95 under 50 ms", "the team already runs it in production",
    "it avoids a second network hop", "it is what the vendor supports",
    "it halves the infrastructure bill", "it is easier to test locally",
    "it removes a moving part", "the old approach could not scale past one region",
)
NEXT_STEPS = (
    "write the migration", "add integration tests", "wire up the feature flag",
    "update the runbook", "benchmark against the old path",
    "get a review from the platform team", "remove the dead code path",
    "document the rollout plan",
)
TEAMS = ("platform", "growth", "payments", "core API", "web", "infrastructure", "data")
RESULTS = (
    "it worked and errors fell by {pct}%", "partial success: {problem} still shows up",
    "we rolled back because of {problem}", "it held up and p95 dropped to {ms_b} ms",
)

NOTE_TEMPLATES: dict[str, tuple[str, ...]] = {
    "decision": (
        "Decided to use {tech} for the {component} instead of {alt}: {reason}.",
        "{Component}: we chose {tech} over {alt} because {reason}. Revisit if we see "
        "{problem} again.",
        "Use {tech} for the {component}\nAgreed in PR #{pr}: {reason}. {Alt} was considered "
        "and dropped after a spike.",
    ),
    "gotcha": (
        "Gotcha: {problem} hits the {component} in {env}. Workaround: we {fix} "
        "(see {file}:{line}).",
        "Watch out for {problem} when touching the {component} with {tech}; we {fix} in "
        "PR #{pr}.",
        "{Component} flaky in {env}\nRoot cause was {problem}. We {fix}; details in {file}.",
    ),
    "checkpoint": (
        "Checkpoint: moving the {component} to {tech} is {pct}% done; next step is to {next}.",
        "Stopped at {file}:{line} while moving the {component} to {tech}. Next: {next}. "
        "Still open: {problem}.",
        "WIP on the {component} ({area})\nBranch has the {tech} client wired in; {next} "
        "before merging PR #{pr}.",
    ),
    "insight": (
        "The {component} p95 went from {ms_a} ms to {ms_b} ms in {env} after we {fix}.",
        "Learned that {tech} is prone to {problem}; once we {fix}, the {component} stayed "
        "stable.",
    ),
    "pattern": (
        "Pattern: every change to the {component} goes through {file} and needs a test "
        "next to it; we {fix} the same way everywhere.",
        "Convention for the {component}: wrap {tech} calls in one helper so retries and "
        "timeouts live in {file}.",
    ),
    "outcome": (
        "Outcome of the {tech} rollout for the {component}: {result} after {days} days in "
        "{env}.",
    ),
    "discovery": (
        "Found that {file} already handles the {component}; no need to add {alt}.",
        "Discovered that {problem} comes from {tech} defaults, not from our {component} code.",
    ),
    "context": (
        "The {component} lives in {file}; it talks to {tech} and the {team} team owns it.",
    ),
    "preference": (
        "Prefer {tech} over {alt} for the {component} in new code; {reason}.",
    ),
    "session": (
        "Session summary: worked on the {component} ({area}); we {fix} and opened PR #{pr}. "
        "Left to do: {next}.",
    ),
}
TYPE_WEIGHTS = {
    "decision": 18, "gotcha": 16, "checkpoint": 12, "insight": 12, "pattern": 8,
    "outcome": 8, "discovery": 8, "context": 7, "preference": 5, "session": 6,
}

QUERY_TEMPLATES: tuple[str, ...] = (
    "why did we pick {tech} for the {component}?",
    "what was the reason we didn't go with {alt} for {component}?",
    "any known issues with the {component} in {env}?",
    "where did I leave off with the {component} work?",
    "how did the {tech} rollout go in {env}?",
    "is the {component} flaky in {env} and what's the workaround?",
    "which file handles the {component} with {tech}?",
    "how fast is the {component} since the {tech} change?",
    "what conventions apply to {component} code using {tech}?",
    "did replacing {alt} with {tech} in the {component} work out?",
    "what did we do about {problem}?",
    "{area} gotchas around {tech} in {env}?",
    "who owns the {component} and what does it depend on besides {tech}?",
    "remind me how we fixed {problem} in {env}",
)


def _capital(text: str) -> str:
    """Upper-case the first character only."""
    return text[:1].upper() + text[1:]


def _slots(rng: random.Random, area: Area) -> dict[str, str]:
    """Random values for every template placeholder, drawn from one area."""
    tech, alt = rng.sample(area.techs, 2)
    component = rng.choice(area.components)
    problem = rng.choice(area.problems)
    ms_a = rng.randint(80, 2400)
    slots = {
        "area": area.name, "component": component, "Component": _capital(component),
        "tech": tech, "alt": alt, "Alt": _capital(alt), "problem": problem,
        "fix": rng.choice(area.fixes), "file": rng.choice(area.files),
        "line": str(rng.randint(12, 900)), "pr": str(rng.randint(100, 9999)),
        "pct": str(rng.randint(10, 95)), "ms_a": str(ms_a),
        "ms_b": str(rng.randint(5, max(6, ms_a // 3))), "days": str(rng.randint(2, 60)),
        "env": rng.choice(ENVS), "reason": rng.choice(REASONS), "next": rng.choice(NEXT_STEPS),
        "team": rng.choice(TEAMS),
    }
    slots["result"] = rng.choice(RESULTS).format(**slots)
    return slots


def _topic(area: Area, component: str) -> str:
    """Topic key such as ``auth_session_tokens``."""
    words = "".join(c if c.isalnum() else " " for c in component.lower()).split()
    return "_".join([area.name, *words])


def generate_notes(n: int, seed: str) -> list[dict[str, Any]]:
    """``n`` distinct, realistic coding-agent memories; identical for the same seed."""
    rng = random.Random(f"{SEED}:{seed}")
    types, weights = list(TYPE_WEIGHTS), list(TYPE_WEIGHTS.values())
    seen: set[str] = set()
    notes: list[dict[str, Any]] = []
    while len(notes) < n:
        area = rng.choice(AREAS)
        mtype = rng.choices(types, weights)[0]
        slots = _slots(rng, area)
        text = rng.choice(NOTE_TEMPLATES[mtype]).format(**slots)
        if text in seen:
            continue
        seen.add(text)
        age_ms = rng.randint(0, 180 * DAY_MS)
        notes.append({"text": text, "type": mtype, "topic": _topic(area, slots["component"]),
                      "created_at": NOW_MS - age_ms})
    return notes


def generate_queries(n: int, seed: str) -> list[str]:
    """``n`` distinct paraphrase-like questions over the same vocabularies."""
    rng = random.Random(f"{SEED}:{seed}")
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        slots = _slots(rng, rng.choice(AREAS))
        query = rng.choice(QUERY_TEMPLATES).format(**slots)
        if query not in seen:
            seen.add(query)
            out.append(query)
    return out


def kenning_embedding_texts(notes: Sequence[dict[str, Any]]) -> list[str]:
    """The exact strings Kenning hands the embedder for these notes."""
    out = []
    for note in notes:
        content = note["text"].strip()
        out.append(embedding_text(note.get("topic"), make_summary(content), content))
    return out


# -- statistics and output ---------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    """Where and with what the benchmark ran."""
    return benchkit.machine_info(data_version=DATA_VERSION)


# -- stores ------------------------------------------------------------------------------------


def fixed_clock() -> int:
    """The benchmark's clock: a fixed instant so every build is identical."""
    return NOW_MS


def open_store(path: Path, embedder: MiniLMEmbedder | None) -> Kenning:
    """A Kenning over ``path`` in the benchmark project with the fixed clock."""
    return Kenning(path, project=PROJECT, embedder=embedder, clock=fixed_clock)


def cache_key(embedder_id: str) -> str:
    """Short hash of everything that changes a built store."""
    raw = f"{DATA_VERSION}|{kenning.__version__}|{SCHEMA_VERSION}|{embedder_id}"
    return hashlib.sha1(raw.encode()).hexdigest()[:10]


def checkpoint(path: Path) -> None:
    """Fold the WAL into the main file so a plain file copy is a complete store."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def build_store(path: Path, n: int, embedder: MiniLMEmbedder) -> dict[str, Any]:
    """Fill a fresh store with ``n`` notes via ``remember_many`` in batches; returns timings."""
    notes = generate_notes(n, f"store-{n}")
    k = open_store(path, embedder)
    batch_s: list[float] = []
    step = max(1, (n // BUILD_BATCH) // 10)
    try:
        for i, start in enumerate(range(0, n, BUILD_BATCH)):
            t0 = time.perf_counter()
            k.remember_many(notes[start : start + BUILD_BATCH])
            batch_s.append(time.perf_counter() - t0)
            if i % step == 0:
                done = min(n, start + BUILD_BATCH)
                log(f"  build {n:,}: {done:,}/{n:,} ({done / sum(batch_s):,.0f} notes/s)")
        t0 = time.perf_counter()
        k.settle()  # every vector and link in place before the store is cached
        batch_s.append(time.perf_counter() - t0)
        rows = k.count()
    finally:
        k.close()
    checkpoint(path)
    seconds = sum(batch_s)
    return {"n": n, "rows": rows, "seconds": seconds, "notes_per_s": n / seconds,
            "batch": BUILD_BATCH, "batch_seconds": rounded(batch_s),
            "batch_median_s": statistics.median(batch_s), "size_bytes": path.stat().st_size}


def cached_store(n: int, embedder: MiniLMEmbedder, rebuild: bool) -> tuple[Path, dict[str, Any]]:
    """The built store of ``n`` notes from the cache, building it on a miss."""
    return benchkit.cached_store("store", n, cache_key(embedder.id),
                                 lambda path: build_store(path, n, embedder), rebuild)


# -- 1. remember throughput --------------------------------------------------------------------


def time_bulk(
    notes: list[dict[str, Any]], embedder: MiniLMEmbedder | None, where: Path
) -> tuple[float, float]:
    """Seconds for ``remember_many`` of ``notes`` in batches into a fresh store: until the
    calls return, and until every vector and automatic link is in place (``settle``)."""
    k = open_store(where, embedder)
    try:
        t0 = time.perf_counter()
        for start in range(0, len(notes), BULK_BATCH):
            k.remember_many(notes[start : start + BULK_BATCH])
        written = time.perf_counter() - t0
        k.settle()
        settled = time.perf_counter() - t0
        assert k.count() == len(notes), "bulk remember lost notes"
        if embedder is not None:
            assert not k.store.count_missing_vectors(embedder.id), "vectors left unsettled"
    finally:
        k.close()
    return written, settled


def time_embed(texts: list[str], embedder: MiniLMEmbedder) -> float:
    """Seconds for embedding ``texts`` alone in the same batches."""
    t0 = time.perf_counter()
    for start in range(0, len(texts), BULK_BATCH):
        embedder.embed(texts[start : start + BULK_BATCH])
    return time.perf_counter() - t0


class ReferenceEmbedder:
    """The same model through the plain path its model card describes: ONNX Runtime with its
    default session options, the tokenizer padding each batch of 32 texts (in the order given)
    to its longest, mean pooling over the attention mask, L2 normalisation."""

    def __init__(self) -> None:
        import onnxruntime as ort

        from kenning.embed import find_minilm, minilm_tokenizer

        files = find_minilm()
        self.tokenizer = minilm_tokenizer(files.vocab)
        self.session = ort.InferenceSession(str(files.model), providers=["CPUExecutionProvider"])

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        out = []
        for start in range(0, len(texts), REFERENCE_BATCH):
            enc = self.tokenizer.encode_batch(list(texts[start : start + REFERENCE_BATCH]))
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                             "token_type_ids": np.zeros_like(ids)})[0]
            w = mask[..., None].astype(np.float32)
            pooled = (hidden * w).sum(axis=1) / np.maximum(w.sum(axis=1), 1e-9)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.concatenate(out)


def time_single(notes: list[dict[str, Any]], embedder: MiniLMEmbedder, where: Path
                ) -> tuple[list[float], float]:
    """Per-call seconds of ``remember()`` for each note into a fresh store, and the seconds
    ``settle`` then takes to put the vectors and links still pending in place."""
    k = open_store(where, embedder)
    out: list[float] = []
    try:
        for note in notes:
            fields = {key: v for key, v in note.items() if key != "text"}
            t0 = time.perf_counter()
            k.remember(note["text"], **fields)
            out.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        k.settle()
        settle_s = time.perf_counter() - t0
    finally:
        k.close()
    return out, settle_s


def bench_remember(embedder: MiniLMEmbedder) -> dict[str, Any]:
    """Bulk vs embedding alone vs the model's plain reference path (interleaved repetitions)
    and single-call latency."""
    notes = generate_notes(BULK_N, "bulk")
    texts = kenning_embedding_texts(notes)
    reference = ReferenceEmbedder()
    reference.embed(texts[:64])
    written_s: list[float] = []
    bulk_s: list[float] = []
    embed_s: list[float] = []
    reference_s: list[float] = []
    store_s: list[float] = []
    with scratch_dir() as tmp:
        time_bulk(generate_notes(BULK_BATCH, "bulk-warmup"), embedder, tmp / "warm.db")
        for rep in range(BULK_REPS):
            order = ["bulk", "embed", "reference"]
            order = order[rep % 3:] + order[: rep % 3]
            for what in order:
                if what == "bulk":
                    written, settled = time_bulk(notes, embedder, tmp / f"bulk-{rep}.db")
                    written_s.append(written)
                    bulk_s.append(settled)
                elif what == "embed":
                    embed_s.append(time_embed(texts, embedder))
                else:
                    t0 = time.perf_counter()
                    reference.embed(texts)
                    reference_s.append(time.perf_counter() - t0)
            store_s.append(time_bulk(notes, None, tmp / f"store-{rep}.db")[0])
            log(f"  remember rep {rep + 1}/{BULK_REPS}: bulk {bulk_s[-1]:.2f}s (calls "
                f"{written_s[-1]:.2f}s), embed-only {embed_s[-1]:.2f}s, reference path "
                f"{reference_s[-1]:.2f}s, without embedder {store_s[-1]:.3f}s")
        singles = generate_notes(SINGLE_CALLS * SINGLE_REPS, "single")
        single_reps = [
            time_single(singles[r * SINGLE_CALLS : (r + 1) * SINGLE_CALLS], embedder,
                        tmp / f"single-{r}.db")
            for r in range(SINGLE_REPS)
        ]
    rates = [len(rep) / sum(rep) for rep, _ in single_reps]
    settled_rates = [len(rep) / (sum(rep) + settle) for rep, settle in single_reps]
    calls_ms = [s * 1000 for rep, _ in single_reps for s in rep]
    return {
        "bulk": {"n": BULK_N, "batch": BULK_BATCH, "seconds": rounded(bulk_s),
                 "median_s": statistics.median(bulk_s),
                 "notes_per_s": BULK_N / statistics.median(bulk_s),
                 "calls_seconds": rounded(written_s),
                 "calls_median_s": statistics.median(written_s)},
        "embed_only": {"n": BULK_N, "batch": BULK_BATCH, "seconds": rounded(embed_s),
                       "median_s": statistics.median(embed_s),
                       "texts_per_s": BULK_N / statistics.median(embed_s)},
        "reference_path": {"n": BULK_N, "batch": REFERENCE_BATCH,
                           "seconds": rounded(reference_s),
                           "median_s": statistics.median(reference_s),
                           "texts_per_s": BULK_N / statistics.median(reference_s)},
        "embed_over_reference": rounded([r / e for e, r in
                                         zip(embed_s, reference_s, strict=True)]),
        "without_embedder": {"n": BULK_N, "batch": BULK_BATCH, "seconds": rounded(store_s),
                             "median_s": statistics.median(store_s),
                             "notes_per_s": BULK_N / statistics.median(store_s)},
        "ratio_bulk_over_embed": statistics.median(bulk_s) / statistics.median(embed_s),
        "ratio_non_model": (statistics.median(embed_s) + statistics.median(store_s))
        / statistics.median(embed_s),
        "ratio_per_rep": rounded([b / e for b, e in zip(bulk_s, embed_s, strict=True)]),
        "single": {"calls": SINGLE_CALLS, "reps": SINGLE_REPS, "adds_per_s": rounded(rates, 2),
                   "median_adds_per_s": statistics.median(rates),
                   "settled_adds_per_s": rounded(settled_rates, 2),
                   "median_settled_adds_per_s": statistics.median(settled_rates),
                   "settle_s": rounded([s for _, s in single_reps]),
                   "call_ms": summarize(calls_ms), "call_ms_raw": rounded(calls_ms)},
    }


# -- 2. recall latency -------------------------------------------------------------------------


def run_series(k: Kenning, queries: dict[str, list[str]]) -> dict[str, dict[str, Any]]:
    """Time every series round-robin, one query each per round, so they share the noise; the
    ``model`` series is the query's embedding alone (a query of its own, never cached), the
    part of hybrid recall no store or ranking change can remove."""
    times: dict[str, list[float]] = {name: [] for name in queries}
    empty: dict[str, int] = {name: 0 for name, _, _ in SERIES}
    assert k.embedder is not None
    for i in range(len(queries[SERIES[0][0]])):
        for name, mode, track in SERIES:
            t0 = time.perf_counter()
            hits = k.recall(queries[name][i], k=10, mode=mode, track=track)  # type: ignore[arg-type]
            times[name].append((time.perf_counter() - t0) * 1000)
            empty[name] += not hits
        t0 = time.perf_counter()
        k.embedder.embed([queries[MODEL_SERIES][i]])
        times[MODEL_SERIES].append((time.perf_counter() - t0) * 1000)
    out: dict[str, dict[str, Any]] = {
        name: {"mode": mode, "track": track, "ms": summarize(times[name]),
               "empty_results": empty[name], "raw_ms": rounded(times[name])}
        for name, mode, track in SERIES
    }
    out[MODEL_SERIES] = {"ms": summarize(times[MODEL_SERIES]),
                         "raw_ms": rounded(times[MODEL_SERIES])}
    return out


def bench_recall_size(
    n: int, embedder: MiniLMEmbedder, queries: Iterator[str], rebuild: bool, count: int
) -> dict[str, Any]:
    """Build (or reuse) a store of ``n`` notes and time warm in-process recall on it."""
    path, build = cached_store(n, embedder, rebuild)
    with working_copy(path) as copy:
        k = open_store(copy, embedder)
        try:
            warm_ms = []
            for _ in range(WARMUP_QUERIES):
                t0 = time.perf_counter()
                k.recall(next(queries), k=10, track=False)
                warm_ms.append((time.perf_counter() - t0) * 1000)
            series_queries = {name: [next(queries) for _ in range(count)]
                              for name in (*(name for name, _, _ in SERIES), MODEL_SERIES)}
            log(f"recall {n:,}: timing {count} queries x {len(series_queries)} series")
            series = run_series(k, series_queries)
        finally:
            k.close()
    return {"n": n, "build": build, "first_query_ms": warm_ms[0], "warmup_ms": rounded(warm_ms),
            "series": series}


def bench_recall(
    sizes: Sequence[int], embedder: MiniLMEmbedder, rebuild: bool, count: int
) -> dict[str, Any]:
    """Recall latency at every size, each query string used once in the whole run."""
    per_size = WARMUP_QUERIES + count * (len(SERIES) + 1)
    queries = iter(generate_queries(per_size * len(sizes), "recall"))
    return {str(n): bench_recall_size(n, embedder, queries, rebuild, count) for n in sizes}


# -- 3. cold process ---------------------------------------------------------------------------


def kenning_command() -> list[str]:
    """The ``kenning`` console script next to this interpreter (or on PATH)."""
    local = Path(sys.executable).parent / "kenning"
    if local.exists():
        return [str(local)]
    found = shutil.which("kenning")
    return [found] if found else [sys.executable, "-m", "kenning.cli"]


def time_process(cmd: Sequence[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall seconds of one process run to completion, and its stdout."""
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}… exited {proc.returncode}: {proc.stderr[-300:]}")
    return seconds, proc.stdout


def cold_cases(db: Path, home: Path) -> dict[str, Callable[[str], tuple[list[str], dict]]]:
    """Each cold case: query -> (command, environment)."""
    base = {**os.environ, "KENNING_PROJECT": PROJECT, "KENNING_HOME": str(home)}
    base.pop("KENNING_EMBEDDER", None)
    keyword_env = {**base, "KENNING_EMBEDDER": "none"}
    ken = kenning_command()
    return {
        "python_pass": lambda q: ([sys.executable, "-c", "pass"], base),
        "recall_hybrid": lambda q: ([*ken, "recall", q, "--db", str(db), "--json"], base),
        "recall_keyword": lambda q: (
            [*ken, "recall", q, "--db", str(db), "--json", "--mode", "keyword"], keyword_env),
        "help": lambda q: ([*ken, "--help"], base),
    }


def bench_cold(embedder: MiniLMEmbedder, rebuild: bool) -> dict[str, Any]:
    """Cold-process wall times, cases interleaved per round after one warm-up round."""
    path, _ = cached_store(COLD_SIZE, embedder, rebuild)
    queries = iter(generate_queries(8 * (COLD_RUNS + 1), "cold"))
    with working_copy(path) as db, scratch_dir() as home:
        cases = cold_cases(db, home)
        times: dict[str, list[float]] = {name: [] for name in cases}
        hits: dict[str, list[int]] = {name: [] for name in cases}
        for rnd in range(COLD_RUNS + 1):
            for name, make in cases.items():
                seconds, out = time_process(*make(next(queries)))
                if rnd == 0:
                    continue  # warm-up round: page cache and bytecode
                times[name].append(seconds * 1000)
                if name.startswith("recall"):
                    hits[name].append(int(json.loads(out)["count"]))
            log(f"  cold round {rnd}/{COLD_RUNS}")
    base = statistics.median(times["python_pass"])
    return {
        "store_n": COLD_SIZE, "runs": COLD_RUNS, "command": kenning_command(),
        "cases": {
            name: {"ms": summarize(ms), "raw_ms": rounded(ms),
                   "ratio_to_python": statistics.median(ms) / base,
                   **({"hits": hits[name]} if hits[name] else {})}
            for name, ms in times.items()
        },
    }


# -- 4. concurrent writers ---------------------------------------------------------------------


def writer(path: str, texts: list[str], embedder_env: str, barrier: Any, results: Any,
           worker: int) -> None:
    """One writer process: open the store, wait for the others, then remember every text."""
    os.environ["KENNING_EMBEDDER"] = embedder_env
    errors: list[str] = []
    lat: list[float] = []
    started = finished = 0.0
    try:
        k = Kenning(path, project=PROJECT)
        if k.embedder is not None:
            k.embedder.embed(["warm-up so the model load is not timed", "second text"])
    except Exception as exc:  # report, never hang the barrier
        barrier.abort()
        results.put({"worker": worker, "errors": len(texts), "messages": [repr(exc)],
                     "lat_ms": [], "start": 0.0, "end": 0.0})
        return
    with contextlib.suppress(Exception):  # a broken barrier (a sibling failed) still writes
        barrier.wait(timeout=300)
    started = time.time()
    for text in texts:
        t0 = time.perf_counter()
        try:
            k.remember(text, type="checkpoint", topic=f"writer_{worker}")
        except Exception as exc:
            errors.append(repr(exc))
        lat.append((time.perf_counter() - t0) * 1000)
    finished = time.time()
    k.close()
    results.put({"worker": worker, "errors": len(errors), "messages": errors[:5],
                 "lat_ms": lat, "start": started, "end": finished})


def run_writers(path: Path, texts: list[str], embedder_env: str) -> dict[str, Any]:
    """Run the writer processes at once on one file; wall time from release to last commit."""
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(WRITERS + 1)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=writer, args=(str(path), texts[w::WRITERS], embedder_env, barrier,
                                         results, w))
        for w in range(WRITERS)
    ]
    t_spawn = time.perf_counter()
    for p in procs:
        p.start()
    with contextlib.suppress(Exception):
        barrier.wait(timeout=300)
    t0 = time.perf_counter()
    reports = []
    for _ in procs:
        try:
            reports.append(results.get(timeout=900))
        except queue.Empty:
            break
    wall = time.perf_counter() - t0
    lost = {w for w in range(WRITERS)} - {r["worker"] for r in reports}
    reports += [{"worker": w, "errors": WRITES_EACH, "messages": ["worker sent no report"],
                 "lat_ms": [], "start": 0.0, "end": 0.0} for w in sorted(lost)]
    for p in procs:
        p.join(timeout=60)
    return {"wall_s": wall, "wall_with_startup_s": time.perf_counter() - t_spawn,
            "reports": reports}


def bench_concurrent(mode: str) -> dict[str, Any]:
    """8 processes x 500 remember() calls on one fresh store; rows and errors counted after."""
    texts = [n["text"] for n in generate_notes(WRITERS * WRITES_EACH, "concurrent")]
    with scratch_dir() as tmp:
        path = tmp / "shared.db"
        Kenning(path, project=PROJECT, embedder=None).close()  # the schema exists before the race
        run = run_writers(path, texts, "minilm" if mode == "minilm" else "none")
        k = Kenning(path, project=PROJECT, embedder=None)
        try:
            rows = k.count()
            vectors = k.store.vector_counts()
        finally:
            k.close()
    reports = sorted(run["reports"], key=lambda r: r["worker"])
    lat = [x for r in reports for x in r["lat_ms"]]
    spans = [r["end"] - r["start"] for r in reports if r["end"]]
    return {
        "embedder": mode, "processes": WRITERS, "writes_each": WRITES_EACH,
        "wall_s": run["wall_s"], "wall_with_startup_s": run["wall_with_startup_s"],
        "rows": rows, "expected_rows": WRITERS * WRITES_EACH, "vectors": vectors,
        "errors": sum(r["errors"] for r in reports),
        "error_messages": [m for r in reports for m in r["messages"]][:10],
        "adds_per_s": rows / run["wall_s"] if run["wall_s"] else float("nan"),
        "call_ms": summarize(lat) if lat else {}, "worker_span_s": rounded(spans),
    }


# -- report ------------------------------------------------------------------------------------


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's bars, each with the measured value and whether it passes."""
    checks: list[dict[str, Any]] = []

    def add(name: str, value: float, bar: str, ok: bool) -> None:
        checks.append({"target": name, "value": value, "bar": bar, "pass": ok})

    recall = result.get("recall", {})
    for size, bar in TARGET_RECALL_P50_MS.items():
        if str(size) in recall:
            p50 = recall[str(size)]["series"]["hybrid"]["ms"]["median"]
            add(f"recall p50 ms, {size:,}, warm, hybrid", p50, f"<= {bar:g}", p50 <= bar)
    if "remember" in result:
        r = result["remember"]
        ratio = r["ratio_bulk_over_embed"]
        add("bulk remember until settled / embed alone", ratio, f"<= {TARGET_BULK_RATIO}",
            ratio <= TARGET_BULK_RATIO)
        p50 = r["single"]["call_ms"]["median"]
        add("single remember() p50 ms", p50, f"<= {TARGET_SINGLE_P50_MS:g}",
            p50 <= TARGET_SINGLE_P50_MS)
        rate = r["embed_only"]["texts_per_s"]
        add("batched embedding, texts/s", rate, f">= {TARGET_EMBED_PER_S:g}",
            rate >= TARGET_EMBED_PER_S)
    for mode, run in result.get("concurrent", {}).items():
        ok = run["rows"] == run["expected_rows"] and run["errors"] == 0
        add(f"8x500 writers ({mode}): rows / errors", run["rows"],
            f"= {run['expected_rows']}, 0 errors (got {run['errors']})", ok)
    return checks


def print_report(result: dict[str, Any]) -> None:
    """The human-readable tables."""
    info = result["machine"]
    print(f"Kenning core benchmark  {info['date']}  {info['platform']}  "
          f"{info['cpu_count']} CPUs  Python {info['python']}  "
          f"load {result['load_start']} -> {result['load_end']}\n")
    if "remember" in result:
        print(remember_table(result["remember"]))
    if result.get("recall"):
        print(recall_table(result["recall"]))
    if "cold" in result:
        print(cold_table(result["cold"]))
    if result.get("concurrent"):
        print(concurrent_table(result["concurrent"]))
    print(render("Targets", ("target", "value", "bar", "result"),
                 [(t["target"], t["value"], t["bar"], "PASS" if t["pass"] else "FAIL")
                  for t in result["targets"]]))
    print(f"total benchmark time: {result['elapsed_s']:.0f} s")


def _runs(values: Sequence[float]) -> str:
    """The individual repetitions, for the last column."""
    return " ".join(cell(float(v)) for v in values)


def remember_table(r: dict[str, Any]) -> str:
    """Table for part 1."""
    bulk, embed, bare, single = r["bulk"], r["embed_only"], r["without_embedder"], r["single"]
    ref = r["reference_path"]
    call = single["call_ms"]
    rows = [
        (f"bulk remember_many ({bulk['n']}, batches of {bulk['batch']}) until settled",
         bulk["median_s"], bulk["notes_per_s"], _runs(bulk["seconds"])),
        ("  of which the remember_many calls", bulk["calls_median_s"],
         bulk["n"] / bulk["calls_median_s"], _runs(bulk["calls_seconds"])),
        (f"embed alone (same {embed['n']} texts)", embed["median_s"], embed["texts_per_s"],
         _runs(embed["seconds"])),
        (f"the model's plain reference path (batches of {ref['batch']}, padded to the longest)",
         ref["median_s"], ref["texts_per_s"], _runs(ref["seconds"])),
        ("embed alone speed / reference path speed (per repetition)",
         ref["median_s"] / embed["median_s"], "-", _runs(r["embed_over_reference"])),
        ("ratio bulk / embed alone", r["ratio_bulk_over_embed"], "-", _runs(r["ratio_per_rep"])),
        ("remember_many without embedder (non-model cost)", bare["median_s"],
         bare["notes_per_s"], _runs(bare["seconds"])),
        ("(embed alone + non-model cost) / embed alone", r["ratio_non_model"], "-", ""),
        (f"single remember() x {single['calls']} (ms per call p50 {call['median']:.2f}, "
         f"p95 {call['p95']:.2f})", single["calls"] / single["median_adds_per_s"],
         single["median_adds_per_s"], _runs(single["adds_per_s"])),
        ("  the same until settled (calls + settle)",
         single["calls"] / single["median_settled_adds_per_s"],
         single["median_settled_adds_per_s"], _runs(single["settled_adds_per_s"])),
    ]
    return render("1. Remember throughput (medians of repetitions)",
                  ("measure", "median s", "per s", "runs"), rows)


def recall_table(recall: dict[str, Any]) -> str:
    """Table for part 2."""
    rows = []
    for size, r in recall.items():
        s = r["series"]
        b = r["build"]
        rows.append((
            f"{int(size):,}", s["hybrid"]["ms"]["median"], s["hybrid"]["ms"]["p95"],
            s["hybrid_tracked"]["ms"]["median"], s["hybrid_tracked"]["ms"]["p95"],
            s["keyword"]["ms"]["median"], s["vector"]["ms"]["median"],
            s[MODEL_SERIES]["ms"]["median"] if MODEL_SERIES in s else "-", r["first_query_ms"],
            b["seconds"], b["notes_per_s"], "cache" if b["cached"] else "new",
        ))
    count = next(iter(recall.values()))["series"]["hybrid"]["ms"]["n"]
    return render(
        f"2. Recall latency, warm, in-process, k=10 ({count} distinct queries per series, ms)",
        ("memories", "hybrid p50", "p95", "tracked p50", "p95", "keyword p50", "vector p50",
         "query embedding p50", "1st query", "build s", "build/s", "store"),
        rows,
    )


def cold_table(cold: dict[str, Any]) -> str:
    """Table for part 3."""
    labels = {
        "python_pass": "python -c pass",
        "recall_hybrid": f"kenning recall --json ({cold['store_n']:,} store)",
        "recall_keyword": "kenning recall --mode keyword (KENNING_EMBEDDER=none)",
        "help": "kenning --help",
    }
    rows = [(labels[name], c["ms"]["median"], c["ms"]["p95"], c["ratio_to_python"])
            for name, c in cold["cases"].items()]
    return render(f"3. Cold process wall time (median of {cold['runs']}, after 1 warm-up)",
                  ("command", "p50 ms", "p95 ms", "x python"), rows)


def concurrent_table(conc: dict[str, Any]) -> str:
    """Table for part 4."""
    rows = [
        (mode, r["wall_s"], r["rows"], r["errors"], r["adds_per_s"],
         r["call_ms"].get("median", float("nan")), r["call_ms"].get("p95", float("nan")),
         r["wall_with_startup_s"])
        for mode, r in conc.items()
    ]
    title = f"4. Concurrent writers: {WRITERS} processes x {WRITES_EACH} remember() on one file"
    headers = ("embedder", "wall s", "rows", "errors", "adds/s", "call p50 ms", "call p95 ms",
               "incl. startup s")
    return render(title, headers, rows)


# -- main --------------------------------------------------------------------------------------


PARTS = ("remember", "recall", "cold", "concurrent")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", help="store sizes for recall, comma-separated "
                   f"(default {','.join(map(str, DEFAULT_SIZES))})")
    p.add_argument("--quick", action="store_true",
                   help=f"sizes {','.join(map(str, QUICK_SIZES))} unless --sizes is given")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    p.add_argument("--only", default=",".join(PARTS),
                   help=f"comma-separated parts to run: {', '.join(PARTS)}")
    p.add_argument("--queries", type=int, default=RECALL_QUERIES,
                   help="distinct queries per recall series (at least 200 for reported figures)")
    p.add_argument("--rebuild", action="store_true", help="rebuild cached stores")
    args = p.parse_args(argv)
    sizes = args.sizes or ",".join(map(str, QUICK_SIZES if args.quick else DEFAULT_SIZES))
    args.sizes = [int(s.replace("_", "")) for s in sizes.split(",") if s.strip()]
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
    if args.queries < RECALL_QUERIES:
        log(f"warning: {args.queries} queries per series is below the {RECALL_QUERIES} the "
            "reported figures need")
    unknown = set(args.only) - set(PARTS)
    if unknown:
        p.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    return args


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run the selected parts and collect every figure."""
    t_start = time.perf_counter()
    result: dict[str, Any] = {"machine": machine_info(), "load_start": load_average(),
                              "args": {"sizes": args.sizes, "only": args.only,
                                       "queries": args.queries}}
    embedder = MiniLMEmbedder()
    embedder.embed(kenning_embedding_texts(generate_notes(64, "warmup")))  # load the model
    if "remember" in args.only:
        log("1. remember throughput")
        result["remember"] = bench_remember(embedder)
    if "recall" in args.only:
        log("2. recall latency")
        result["recall"] = bench_recall(args.sizes, embedder, args.rebuild, args.queries)
    if "cold" in args.only:
        log("3. cold process")
        result["cold"] = bench_cold(embedder, args.rebuild)
    if "concurrent" in args.only:
        result["concurrent"] = {}
        for mode in ("minilm", "none"):
            log(f"4. concurrent writers, embedder={mode}")
            result["concurrent"][mode] = bench_concurrent(mode)
    result["targets"] = targets(result)
    result["load_end"] = load_average()
    result["elapsed_s"] = time.perf_counter() - t_start
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run, print the tables, write the JSON."""
    args = parse_args(argv)
    result = run(args)
    print_report(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
