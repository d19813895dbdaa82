"""Graph benchmark for Kenning: automatic-link quality against ground truth, "why did we decide
X?" chain completeness (with a held-out story), and graph timings at scale.

Run ``python benchmarks/bench_graph.py [--sizes 1000,10000,100000] [--quick] [--out PATH]``.
Part 1 writes seeded streams of memory "stories" (``remember()`` one at a time, then
``remember_many()`` in batches), classifies every automatic link as signal (both ends in one
story), noise (two stories on one topic) or false positive (two stories, two topics), and checks
that ``why(topic)`` gives every story's complete evolution chain, a hand-written held-out story
included. Part 2 builds (or reuses) a store per size and times consolidation, link creation and
traversal. Every timing is a median over repetitions; the JSON output keeps every raw value.
Writes here wait for the model (``defer_vectors=False``): link creation is what is timed and
graded; ``bench_core.py`` times the write that returns before its links exist.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import benchkit
from benchkit import load_average, log, render, rounded, scratch_dir, summarize, working_copy

import kenning
from kenning import Kenning
from kenning.embed import MiniLMEmbedder
from kenning.graph.linking import EXPLICIT_CONFIDENCE, make_link
from kenning.models import CreatedBy, Filters, Link
from kenning.store.base import SCHEMA_VERSION

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "graph.json"
GEN_VERSION = "stories-v3"  # bump when the generator changes: cached stores are rebuilt
PROJECT = "bench"
SEED = 20_251_122
NOW_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z: streams end shortly before this instant
MINUTE_MS = 60_000
HOUR_MS = 3_600_000
DAY_MS = 86_400_000

DEFAULT_SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000, 10_000)
QUALITY_N = 1_000
QUALITY_BATCH = 100
BUILD_BATCH = 100
CONSOLIDATE_RUNS = 5  # repeated runs after the first one (which also prunes)
LINK_RUNS = 5
LINK_CALLS = 50
TRAVERSAL_STARTS = 50
WORST_CASE_STARTS = 10  # depth 5 with min_confidence=0 can walk a whole component
RECENT_MIN = 200  # the "recent" traversal pool: newest 5 % of memories, at least this many
TWIN_SHARE = 0.3  # share of stories that get a near-miss twin on another topic
TOPICLESS_SHARE = 0.25  # checkpoints, gotchas and insights written without a topic

# The bars.
BAR_SIGNAL = 0.80
BAR_FALSE_POSITIVE = 0.10
BAR_LINKS_PER_MEMORY = 10.0
BAR_RANK_MS_10K = 100.0
BAR_DEPTH5_MS_10K = 30.0
BAR_LINK_MS_10K = 5.0
BAR_CONSOLIDATE_S_100K = 10.0

# -- vocabulary --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Topic:
    """One topic key with the words its stories are written in."""

    key: str
    subject: str
    options: tuple[str, ...]
    problems: tuple[str, ...]
    wins: tuple[str, ...]
    files: tuple[str, ...]


def _t(key: str, subject: str, options: str, problems: str, wins: str, files: str) -> Topic:
    """A topic from ``|``-separated word lists."""
    return Topic(key, subject, *(tuple(s.split("|")) for s in (options, problems, wins, files)))


TOPICS: tuple[Topic, ...] = (
    _t("auth_strategy", "auth", "JWT access tokens|server-side sessions|OAuth2 with Auth0|"
       "PASETO tokens|Keycloak SSO", "token refresh races between tabs|revocation lag after "
       "logout|clock skew rejecting fresh tokens", "stateless checks in every service|instant "
       "revocation on logout", "src/auth/session.ts|api/auth/middleware.py"),
    _t("frontend_framework", "the frontend", "React hooks for state|Svelte|Vue 3|SolidJS|"
       "Angular", "hydration mismatches on the product page|a bundle over 600 kB|slow "
       "re-renders in the data grid", "a fast first render|components the designers can read",
       "web/src/App.tsx|web/src/routes/+page.svelte"),
    _t("db_migrations", "database migrations", "Alembic|Flyway|Prisma Migrate|plain SQL files|"
       "Atlas", "migrations locking the orders table|schema drift between staging and "
       "production|down-migrations silently skipped", "reviewable migration diffs|safe "
       "online schema changes", "db/migrations/env.py|db/migrations/0042_orders.sql"),
    _t("ci_pipeline", "CI", "GitHub Actions|GitLab CI|Buildkite|CircleCI|Jenkins",
       "queue times over 20 minutes|flaky ARM runners|cache misses on every lockfile change",
       "ten minute pipelines|cheap parallel test shards", ".github/workflows/ci.yml|"
       "ci/pipeline.yml"),
    _t("caching", "the product cache", "Redis|Memcached|an in-process LRU|Varnish|CDN edge "
       "caching", "a thundering herd on hot keys|stale prices after deploys|eviction storms "
       "during the nightly batch", "sub-millisecond reads|a 90 percent hit rate",
       "src/cache/client.py|services/catalog/cache.go"),
    _t("state_management", "client state", "Redux Toolkit|Zustand|React Query|MobX|XState",
       "boilerplate slowing every feature|stale server data after navigation|re-render "
       "storms on every keystroke", "predictable updates|server data cached per screen",
       "web/src/store/index.ts|web/src/hooks/useCart.ts"),
    _t("api_versioning", "public API versioning", "URL path versions|Accept header versions|"
       "date-based versions|GraphQL schema evolution", "clients pinned to v1 forever|caches "
       "ignoring the Accept header|breaking changes slipping into minor releases",
       "old clients keep working|clear deprecation dates", "api/routes/v2/__init__.py|"
       "openapi.yaml"),
    _t("logging", "application logging", "structlog JSON logs|Loki|the ELK stack|CloudWatch "
       "Logs|Vector pipelines", "log volume doubling the bill|multi-line stack traces split "
       "apart|missing request ids", "searchable logs per request|one log format everywhere",
       "src/telemetry/logging.py|deploy/vector.toml"),
    _t("error_tracking", "error tracking", "Sentry|Rollbar|Bugsnag|Honeybadger|Airbrake",
       "errors grouped under one generic issue|events dropped by rate limits during "
       "incidents|source maps never uploaded", "alerts with a stack trace|release health "
       "per deploy", "src/telemetry/errors.ts|config/sentry.py"),
    _t("deployment", "deployments", "blue-green deploys|canary releases with Argo Rollouts|"
       "rolling updates|Fly.io machines|Heroku pipelines", "canaries receiving no traffic|"
       "migrations running twice when two replicas start|rollbacks taking 15 minutes",
       "zero-downtime releases|one-click rollbacks", "deploy/rollout.yaml|fly.toml"),
    _t("container_orchestration", "container orchestration", "Kubernetes|Nomad|ECS Fargate|"
       "Docker Swarm|plain systemd units", "pods restarting on strict readiness probes|the "
       "autoscaler flapping|noisy neighbours on shared nodes", "self-healing services|"
       "predictable capacity", "deploy/k8s/api.yaml|infra/nomad/api.hcl"),
    _t("message_queue", "background messaging", "RabbitMQ|Kafka|SQS|NATS JetStream|Redis "
       "Streams", "poison messages blocking a partition|consumers falling behind at peak|"
       "duplicate deliveries after crashes", "ordered events per customer|replayable "
       "history", "services/events/consumer.go|src/queue/publisher.py"),
    _t("search_engine", "product search", "Elasticsearch|Meilisearch|Typesense|Postgres "
       "full-text search|OpenSearch", "the index drifting from the database|slow one-letter "
       "autocomplete|reindexing taking hours", "typo tolerance out of the box|relevant "
       "results in 30 ms", "search/indexer.py|search/schema.json"),
    _t("feature_flags", "feature flags", "LaunchDarkly|Unleash|a flags table in Postgres|"
       "environment variables|GrowthBook", "flags evaluated differently on server and "
       "client|stale flags nobody removes|flag checks adding 40 ms", "per-tenant rollouts|"
       "instant kill switches", "src/flags/client.ts|app/flags.py"),
    _t("secrets_management", "secrets", "HashiCorp Vault|AWS Secrets Manager|SOPS-encrypted "
       "files|Doppler|1Password Connect", "secrets leaking into CI logs|rotation breaking "
       "long-running workers|local setup taking a day", "audited access|rotation without "
       "redeploys", "infra/vault/policy.hcl|scripts/load_secrets.sh"),
    _t("test_framework", "unit tests", "pytest|Jest|Vitest|unittest|Mocha", "fixtures "
       "sharing mutable state|slow suite startup|snapshot churn on every bump", "fast "
       "feedback in watch mode|readable fixtures", "tests/conftest.py|vitest.config.ts"),
    _t("e2e_testing", "end-to-end tests", "Playwright|Cypress|Selenium Grid|WebdriverIO|"
       "TestCafe", "flaky login steps|tests passing alone and failing in parallel|videos "
       "filling the runner disk", "trace viewer for every failure|parallel browsers",
       "e2e/checkout.spec.ts|e2e/playwright.config.ts"),
    _t("orm_choice", "data access", "SQLAlchemy|Prisma|Django ORM|raw SQL with sqlc|"
       "TypeORM", "N+1 queries on the dashboard|lazy loading outside a session|migrations "
       "fighting the ORM", "typed queries|explicit transactions", "app/db/models.py|"
       "prisma/schema.prisma"),
    _t("rate_limiting", "API rate limiting", "token buckets in Redis|NGINX limit_req|Envoy "
       "global rate limits|per-tenant quotas in Postgres|Cloudflare rate rules", "limits "
       "resetting on every deploy|one tenant starving the others|429s during client "
       "retries", "fair limits per tenant|limits enforced at the edge",
       "gateway/ratelimit.lua|api/middleware/quota.py"),
    _t("css_strategy", "styling", "Tailwind CSS|CSS Modules|styled-components|"
       "vanilla-extract|Sass", "class lists unreadable in reviews|runtime style injection "
       "slowing renders|specificity wars", "consistent spacing|zero-runtime styles",
       "web/tailwind.config.js|web/src/styles/theme.css.ts"),
    _t("bundler", "the frontend build", "Vite|webpack|esbuild|Rollup|Turbopack", "cold "
       "builds over three minutes|HMR losing component state|broken source maps",
       "instant dev server start|small production chunks", "web/vite.config.ts|"
       "web/webpack.config.js"),
    _t("monorepo_tooling", "the monorepo", "Nx|Turborepo|Bazel|pnpm workspaces|Lerna",
       "every change rebuilding everything|cache keys missing env vars|slow installs on "
       "CI", "affected-only builds|remote caching", "nx.json|turbo.json"),
    _t("background_jobs", "background jobs", "Celery|Sidekiq|BullMQ|Temporal|RQ", "jobs "
       "running twice after a worker crash|scheduled jobs drifting by minutes|the dead "
       "letter queue filling silently", "retries with backoff|visible job history",
       "workers/tasks.py|app/jobs/schedule.rb"),
    _t("pagination", "list endpoint pagination", "cursor pagination|offset pagination|"
       "keyset pagination on created_at|opaque page tokens", "rows skipped during inserts|"
       "deep pages timing out|cursors breaking when the sort order changes", "stable pages "
       "under writes|constant-time deep pages", "api/pagination.py|src/api/list.ts"),
    _t("observability_tracing", "request tracing", "OpenTelemetry|Jaeger|Honeycomb|Datadog "
       "APM|Zipkin", "traces broken across the queue boundary|sampling hiding rare errors|"
       "span cardinality blowing up costs", "one trace per request end to end|fast "
       "root-cause queries", "src/telemetry/tracing.py|deploy/otel-collector.yaml"),
    _t("email_delivery", "transactional email", "SendGrid|Amazon SES|Postmark|Mailgun|"
       "self-hosted Postfix", "password reset emails landing in spam|bounces never "
       "processed|rate limits during campaigns", "high inbox placement|delivery webhooks",
       "services/mailer/send.py|templates/email/reset.mjml"),
    _t("file_storage", "file uploads", "S3 presigned uploads|Google Cloud Storage|MinIO|"
       "local disk with a nightly sync|Cloudflare R2", "large uploads timing out|orphaned "
       "files after deletes|egress costs", "direct browser uploads|cheap storage per TB",
       "src/uploads/presign.ts|app/storage.py"),
    _t("i18n", "translations", "i18next|FormatJS|Lingui|gettext catalogs|Fluent", "missing "
       "keys shipping to production|plural rules wrong in Polish|bundles carrying every "
       "locale", "type-checked message keys|lazy-loaded locales", "web/src/i18n/index.ts|"
       "locale/messages.po"),
    _t("payments_provider", "payments", "Stripe|Adyen|Braintree|Paddle|Mollie", "webhooks "
       "arriving out of order|3-D Secure failures on mobile|payout reconciliation gaps",
       "hosted checkout|clean reconciliation reports", "billing/stripe_client.py|"
       "billing/webhooks.py"),
    _t("schema_validation", "input validation", "Pydantic|Zod|JSON Schema with ajv|"
       "marshmallow|io-ts", "validation errors returned as 500s|schemas drifting from the "
       "OpenAPI spec|slow validation of large payloads", "one schema for docs and checks|"
       "typed request bodies", "api/schemas.py|src/validation/order.ts"),
)
SERVICES = (
    "billing search mobile admin partner ledger growth platform checkout catalog inventory "
    "shipping support analytics identity notifications onboarding reporting pricing marketing "
    "fraud risk payroll scheduling messaging media maps recommendations reviews loyalty "
    "warehouse returns tax compliance audit gateway storefront backoffice devportal "
    "integrations"
).split()
TWEAKS = (
    "add a kill switch in {file}", "limit it to the EU region first", "add a dashboard "
    "before widening the rollout", "document the escape hatch in {file}", "pin the version "
    "in {file}", "run it for internal users for a week first",
)

# Decision templates: (content, reasoning). Evolution "how": explicit supersedes or refines,
# inferred from a cue in the reasoning, or a cue only in the decision text itself.
INITIAL: tuple[tuple[str, str], ...] = (
    ("Use {opt} for {subject} (PR #{n}).", "{Win}; the team already knows it."),
    ("Decision: go with {opt} for {subject}, tracked in PR #{n}.", "{Win}."),
    ("Standardise {subject} on {opt} (ticket {n}).", "A spike in {file} showed {win}."),
    ("Use {opt} for {subject} (ADR {n}).", "{Opt} is simpler than {alt} for a team our size."),
)
INITIAL_WEIGHTS = (3, 3, 3, 1)  # the last one is comparative: Kenning may read it as evolution
EVOLVE: dict[str, tuple[tuple[str, str], ...]] = {
    "supersedes": (
        ("Move {subject} from {prev} to {opt} (PR #{n}).", "{Prev} kept running into {problem}."),
        ("Switch {subject} to {opt}; see {file}:{line} and PR #{n}.", "{Problem} with {prev} "
         "cost us two days."),
    ),
    "refines": (
        ("Keep {prev} for {subject} but {tweak} (PR #{n}).", "Follow-up after {problem}."),
    ),
    "inferred-reason": (
        ("Use {opt} for {subject} from now on (PR #{n}).", "Switching to {opt} instead of "
         "{prev}: {problem}."),
        ("Adopt {opt} for {subject}; rollout in {file} (ticket {n}).", "We are migrating away "
         "from {prev} after {problem}."),
        ("{Opt} for {subject}, ticket {n}.", "Replacing {prev}, which gave us {problem}."),
    ),
    "inferred-content": (
        ("Use {opt} for {subject} instead of {prev} (PR #{n}).", "{Problem} with {prev}."),
    ),
}
EVOLVE_WEIGHTS = {"supersedes": 35, "refines": 15, "inferred-reason": 38, "inferred-content": 12}
OTHER: dict[str, tuple[str, ...]] = {
    "checkpoint": (
        "Implemented {opt} for {subject} in {file}:{line}; next is the rollout (PR #{n}).",
        "Checkpoint: {opt} wired into {file} behind a flag, {pct}% of traffic so far (PR #{n}).",
        "Finished moving {subject} onto {opt}; the old code path in {file} is gone (PR #{n}).",
    ),
    "gotcha": (
        "Gotcha: with {opt}, {problem} shows up in {file}:{line} (ticket {n}).",
        "Watch out for {problem} with {opt}; the workaround lives in {file} (PR #{n}).",
    ),
    "insight": (
        "Insight: {opt} gave us {win} once {file} was cleaned up (PR #{n}).",
        "Measured {subject} on {opt}: p95 went from {a} ms to {b} ms (run {n}).",
    ),
    "failed": ("Outcome: {opt} for {subject} failed after {days} days; {problem} (ticket {n}).",),
    "partial": ("Outcome: {opt} for {subject} only partly worked; {problem} still shows up in "
                "{file} (ticket {n}).",),
    "success": ("Outcome: {opt} for {subject} is a success after {days} days in production; "
                "{win} (ticket {n}).",),
}

# -- stories -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Planned:
    """One memory of the stream, with its ground truth and its references by key."""

    key: str
    story: str
    topic: str
    at: int
    type: str
    text: str
    stored_topic: str | None
    reason: str | None
    refs: tuple[tuple[str, str], ...] = ()  # (remember() parameter, target key)
    outcome: tuple[str, str, str] | None = None  # (decision key, status, reason)

    def fields(self, ids: dict[str, str], skip: Sequence[str] = ()) -> dict[str, Any]:
        """remember() keyword arguments, references resolved to ids (``skip``: left out)."""
        out: dict[str, Any] = {"text": self.text, "type": self.type, "topic": self.stored_topic,
                               "created_at": self.at}
        if self.reason:
            out["reason"] = self.reason
        for param, target in self.refs:
            if target not in skip:
                out[param] = ids[target]
        return out


@dataclass
class StoryTruth:
    """What a complete "why" chain of one story must show."""

    story: str
    topic: str
    twin_of: str | None = None
    heldout: bool = False
    decisions: list[str] = field(default_factory=list)
    steps: list[tuple[str, str, str]] = field(default_factory=list)  # (new, old, how)
    outcomes: dict[str, list[str]] = field(default_factory=dict)
    statuses: dict[str, str] = field(default_factory=dict)
    options: list[str] = field(default_factory=list)  # the technology of each decision


@dataclass(frozen=True)
class Beat:
    """One memory in a story skeleton, before words and topic are chosen."""

    kind: str
    decision: int
    session: int
    gap_min: int
    template: int
    topicless: bool
    how: str = ""
    status: str = ""


@dataclass(frozen=True)
class Skeleton:
    """A story's shape: beats and session times, shared by a story and its near-miss twin."""

    beats: tuple[Beat, ...]
    sessions: tuple[tuple[int, int], ...]  # (day offset, minute of the day)


def make_skeleton(rng: random.Random) -> Skeleton:
    """Decisions across sessions days apart, each with work, gotchas and outcomes."""
    beats: list[Beat] = []
    sessions: list[tuple[int, int]] = []
    day = 0
    n_dec = rng.choice((1, 2, 2, 3, 3, 4))

    def add(kind: str, d: int, **kw: Any) -> None:
        """Append one beat to the current session."""
        topicless = kind in ("checkpoint", "gotcha", "insight") and rng.random() < TOPICLESS_SHARE
        beats.append(Beat(kind, d, len(sessions) - 1, rng.randint(2, 9),
                          rng.randrange(8), topicless, **kw))

    for d in range(n_dec):
        sessions.append((day, rng.choice((9, 10, 11, 14, 15, 16)) * 60 + rng.randint(0, 40)))
        if d == 0:
            add("decision", d, how=f"initial-{rng.choices(range(4), INITIAL_WEIGHTS)[0]}")
        else:
            if rng.random() < 0.85:
                add("outcome", d - 1, status="failed" if rng.random() < 0.7 else "partial")
            how = rng.choices(list(EVOLVE_WEIGHTS), list(EVOLVE_WEIGHTS.values()))[0]
            add("decision", d, how=how)
        if rng.random() < 0.9:
            add("checkpoint", d)
        for _ in range(rng.choice((0, 1, 1, 2))):
            add(rng.choice(("gotcha", "insight")), d)
        day += rng.randint(1, 6)
    if rng.random() < 0.5:
        sessions.append((day, rng.choice((9, 10, 14, 15)) * 60 + rng.randint(0, 40)))
        add("outcome", n_dec - 1, status="success")
    return Skeleton(tuple(beats), tuple(sessions))


class Namer:
    """Unique numbers for PR, ticket and line references, so no two texts are identical."""

    def __init__(self, start: int) -> None:
        self.n = start

    def __call__(self) -> int:
        self.n += 1
        return self.n


def _cap(text: str) -> str:
    """Upper-case the first character only."""
    return text[:1].upper() + text[1:]


def _fill(template: str, rng: random.Random, topic: Topic, number: Namer, **slots: str) -> str:
    """Fill one template from the topic's words and the given slots."""
    a = rng.randint(120, 2400)
    values = {"subject": topic.subject, "problem": rng.choice(topic.problems),
              "win": rng.choice(topic.wins), "file": rng.choice(topic.files),
              "line": str(rng.randint(12, 900)), "n": str(number()), "pct": str(rng.randint(5, 90)),
              "days": str(rng.randint(2, 30)), "a": str(a), "b": str(rng.randint(8, a // 3)),
              **slots}
    values["tweak"] = rng.choice(TWEAKS).format(file=values["file"])
    for name in ("opt", "prev", "win", "problem"):
        if name in values:
            values[_cap(name)] = _cap(values[name])
    return template.format(**values)


def render_story(sk: Skeleton, sid: str, topic: Topic, start_ms: int, rng: random.Random,
                 number: Namer, twin: StoryTruth | None = None
                 ) -> tuple[list[Planned], StoryTruth]:
    """Words, times and references for one story on ``topic``. A near-miss ``twin`` of another
    story reuses its technologies (and skeleton) on this other topic."""
    truth = StoryTruth(sid, topic.key, twin_of=twin.story if twin else None)
    opts = truth.options
    spare = rng.sample(topic.options, len(topic.options))
    if twin:
        reused = list(dict.fromkeys(twin.options))
        spare = [o for o in spare if o not in reused] + reused[::-1]
    clock = {s: start_ms + day * DAY_MS + minute * MINUTE_MS for s, (day, minute) in
             enumerate(sk.sessions)}
    out: list[Planned] = []
    for i, b in enumerate(sk.beats):
        clock[b.session] += b.gap_min * MINUTE_MS
        key = f"{sid}.{i}"
        stored = None if b.topicless else topic.key
        if b.kind == "decision":
            prev = opts[-1] if opts else ""
            opts.append(prev if b.how == "refines" else spare.pop())
            text, reason, refs = _decision_words(b, rng, topic, number, opts[-1], prev, spare)
            refs = tuple((p, truth.decisions[-1]) for p in refs)
            if truth.decisions and b.how in EVOLVE:
                truth.steps.append((key, truth.decisions[-1], b.how))
            truth.decisions.append(key)
            out.append(Planned(key, sid, topic.key, clock[b.session], "decision", text,
                               topic.key, reason, refs))
            continue
        opt = opts[b.decision]
        if b.kind == "outcome":
            target = truth.decisions[b.decision]
            tmpl = OTHER[b.status][0]
            text = _fill(tmpl, rng, topic, number, opt=opt)
            why = text.split("; ", 1)[-1].split(" (ticket")[0]
            truth.outcomes.setdefault(target, []).append(key)
            truth.statuses[target] = b.status
            out.append(Planned(key, sid, topic.key, clock[b.session], "outcome", text, topic.key,
                               None, (("outcome_of", target),), (target, b.status, why)))
            continue
        tmpl = OTHER[b.kind][b.template % len(OTHER[b.kind])]
        refs = (("implements", truth.decisions[b.decision]),) if b.kind == "checkpoint" else ()
        out.append(Planned(key, sid, topic.key, clock[b.session], b.kind,
                           _fill(tmpl, rng, topic, number, opt=opt), stored, None, refs))
    return out, truth


def _decision_words(b: Beat, rng: random.Random, topic: Topic, number: Namer, opt: str,
                    prev: str, spare: list[str]) -> tuple[str, str, tuple[str, ...]]:
    """Content, reasoning and explicit reference parameters of one decision."""
    if b.how.startswith("initial"):
        content, reason = INITIAL[int(b.how.split("-")[1])]
        alt = spare[0] if spare else prev or opt
        return (_fill(content, rng, topic, number, opt=opt, alt=alt),
                _fill(reason, rng, topic, number, opt=opt, alt=alt), ())
    choices = EVOLVE[b.how]
    content, reason = choices[b.template % len(choices)]
    refs = (b.how,) if b.how in ("supersedes", "refines") else ()
    return (_fill(content, rng, topic, number, opt=opt, prev=prev),
            _fill(reason, rng, topic, number, opt=opt, prev=prev), refs)


def heldout_story(start_ms: int) -> tuple[list[Planned], StoryTruth]:
    """A story written by hand, in other words and on a topic the generator never uses."""
    sid, topic = "heldout", "webhook_delivery"
    truth = StoryTruth(sid, topic, heldout=True)
    at = start_ms + 10 * HOUR_MS + 5 * MINUTE_MS
    rows: list[tuple[int, str, str, str | None, str | None, tuple[tuple[str, str], ...],
                     tuple[str, str, str] | None]] = [
        (0, "decision", "Webhook delivery: send each event straight from the request handler "
         "and retry up to 5 times with exponential backoff.", topic, "Simplest thing that "
         "works for launch; partners asked for events within a second.", (), None),
        (14, "checkpoint", "Wired the retry loop into billing/webhooks/sender.py and added a "
         "delivery_attempts column to the events table.", topic, None, (("implements", "h0"),),
         None),
        (26, "gotcha", "Partner endpoints behind Cloudflare answer 520 on slow responses and "
         "our sender treated that as permanent, so those events were never retried.", None,
         None, (), None),
        (3 * 1440 + 40, "outcome", "Lost 212 webhook events during the Tuesday deploy: the "
         "retries lived in process memory and died with the pods.", topic, None,
         (("outcome_of", "h0"),), ("h0", "failed", "retries lost on every deploy")),
        (3 * 1440 + 52, "decision", "Persist outgoing webhooks in an outbox table and deliver "
         "them from a separate worker, so a deploy can no longer drop them.", topic,
         "In-memory retries lost events on every deploy.", (("supersedes", "h0"),), None),
        (3 * 1440 + 75, "checkpoint", "Outbox worker is live in billing/webhooks/outbox_worker."
         "py; the handler now only inserts a row.", topic, None, (("implements", "h4"),), None),
        (8 * 1440 + 30, "outcome", "No more lost events, but partners now receive duplicates "
         "when the worker crashes between sending and marking the row done.", topic, None,
         (("outcome_of", "h4"),), ("h4", "partial", "duplicates after worker crashes")),
        (8 * 1440 + 44, "decision", "Send an Idempotency-Key header with every webhook so "
         "partners can drop the duplicates themselves.", topic, "Switching from best-effort "
         "delivery to at-least-once with idempotency keys; duplicates after worker crashes were "
         "confusing partners.", (), None),
        (8 * 1440 + 61, "checkpoint", "The Idempotency-Key is derived from the outbox row id; "
         "documented it on the partner portal.", None, None, (("implements", "h7"),), None),
        (15 * 1440 + 20, "outcome", "A week with zero lost and zero complained-about duplicate "
         "webhooks; closing the delivery epic.", topic, None, (("outcome_of", "h7"),),
         ("h7", "success", "no losses and no duplicate complaints")),
    ]
    out = []
    for i, (minute, mtype, text, stored, reason, refs, outcome) in enumerate(rows):
        key = f"h{i}"
        out.append(Planned(key, sid, topic, at + minute * MINUTE_MS, mtype, text, stored, reason,
                           refs, outcome))
        if mtype == "decision":
            if truth.decisions:
                how = "supersedes" if refs else "inferred-reason"
                truth.steps.append((key, truth.decisions[-1], how))
            truth.decisions.append(key)
        if outcome:
            truth.outcomes.setdefault(outcome[0], []).append(key)
            truth.statuses[outcome[0]] = outcome[1]
    return out, truth


def topics_for(want: int) -> list[Topic]:
    """The base topics, plus per-service variants (same words) when more are wanted."""
    out = list(TOPICS)
    for svc in SERVICES:
        for t in TOPICS:
            if len(out) >= want:
                return out
            out.append(Topic(f"{svc}_{t.key}", f"{t.subject} in the {svc} service", t.options,
                             t.problems, t.wins, t.files))
    return out


@dataclass
class Stream:
    """Memories in time order with the truth of every story."""

    plan: list[Planned]
    truths: dict[str, StoryTruth]

    @property
    def end_ms(self) -> int:
        """Creation time of the last memory."""
        return self.plan[-1].at


def pick_topic(rng: random.Random, topics: Sequence[Topic], busy: dict[str, int] | None,
               start: int, end: int, exclude: str = "") -> Topic:
    """A random topic; with ``busy`` (one thread per topic) one whose last story ended at
    least two days before ``start`` (else the longest idle), and mark it busy until ``end``."""
    choices = [t for t in topics if t.key != exclude]
    if busy is None:
        return rng.choice(choices)
    free = [t for t in choices if busy.get(t.key, 0) < start - 2 * DAY_MS]
    topic = rng.choice(free) if free else min(choices, key=lambda t: busy.get(t.key, 0))
    busy[topic.key] = max(busy.get(topic.key, 0), end)
    return topic


def generate_stream(n: int, seed: str, *, heldout: bool = False, exact: bool = False,
                    first_number: int = 100, overlap: bool = True, n_topics: int = 0) -> Stream:
    """At least ``n`` memories made of interleaved stories (exactly ``n`` with ``exact``) on
    ``n_topics`` topics (default: 30, or one per 100 memories in large streams).
    ``overlap=False``: a topic's stories do not run at the same time while a topic is free."""
    rng = random.Random(f"{SEED}:{seed}")
    topics = topics_for(n_topics or max(len(TOPICS), n // 100))
    span_days = max(60, n // 150)
    t0 = NOW_MS - span_days * DAY_MS
    number = Namer(first_number)
    plan: list[Planned] = []
    truths: dict[str, StoryTruth] = {}
    if heldout:
        items, truth = heldout_story(t0 + (span_days // 2) * DAY_MS)
        plan += items
        truths[truth.story] = truth
    busy: dict[str, int] | None = None if overlap else {}
    s = 0
    while len(plan) < n:
        sk = make_skeleton(rng)
        start = t0 + rng.randint(0, span_days - 25) * DAY_MS
        end = start + (sk.sessions[-1][0] + 1) * DAY_MS
        topic = pick_topic(rng, topics, busy, start, end)
        sid = f"s{s}"
        items, truth = render_story(sk, sid, topic, start, rng, number)
        plan += items
        truths[sid] = truth
        if rng.random() < TWIN_SHARE:
            other = pick_topic(rng, topics, busy, start, end, exclude=topic.key)
            shift = start + rng.randint(1, 6) * MINUTE_MS
            items, truth = render_story(sk, f"{sid}t", other, shift, rng, number, truth)
            plan += items
            truths[truth.story] = truth
        s += 1
    plan.sort(key=lambda p: (p.at, p.key))
    if exact:
        plan = plan[:n]
    return Stream(plan, truths)


# -- writing a stream --------------------------------------------------------------------------


class Clock:
    """A settable clock handed to Kenning: the benchmark moves time along the stream."""

    def __init__(self, start: int) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now


@dataclass
class WriteStats:
    """How a stream went in."""

    mode: str
    seconds: float = 0.0
    batches: list[int] = field(default_factory=list)
    deferred_links: int = 0
    early_flushes: int = 0
    duplicates: int = 0

    def to_dict(self, n: int) -> dict[str, Any]:
        """JSON form, with rates for ``n`` memories."""
        return {"mode": self.mode, "seconds": self.seconds, "memories_per_s": n / self.seconds,
                "batches": len(self.batches),
                "mean_batch": statistics.fmean(self.batches) if self.batches else 0.0,
                "deferred_links": self.deferred_links, "early_flushes": self.early_flushes,
                "duplicates": self.duplicates}


def write_single(k: Kenning, clock: Clock, plan: Sequence[Planned]) -> tuple[dict[str, str],
                                                                           WriteStats]:
    """remember() one memory at a time, with the clock at each memory's time."""
    ids: dict[str, str] = {}
    stats = WriteStats("single")
    t0 = time.perf_counter()
    for p in plan:
        clock.now = p.at
        m = k.remember(**p.fields(ids))
        stats.duplicates += not m.is_new
        ids[p.key] = m.id
        if p.outcome:
            k.outcome(ids[p.outcome[0]], p.outcome[1], p.outcome[2])
    stats.seconds = time.perf_counter() - t0
    stats.batches = [1] * len(plan)
    return ids, stats


Linker = Callable[[Kenning, Sequence[tuple[str, str, str]]], None]


def link_each(k: Kenning, links: Sequence[tuple[str, str, str]]) -> None:
    """Add (from id, to id, relationship) links with k.link(), one call each."""
    for a, b, word in links:
        k.link(a, b, word)


def link_at_once(k: Kenning, links: Sequence[tuple[str, str, str]]) -> None:
    """The same links k.link() would add, in one store write. Only for building the timing
    stores: k.link() re-reads the relationship statistics of every link on each call, which
    makes tens of thousands of calls on a 100k store take most of an hour."""
    if not links:
        return
    rels = {w: k.relations.resolve(w, {}) for w in {w for _, _, w in links}}
    k.store.add_links([make_link(a, b, rels[w], confidence=EXPLICIT_CONFIDENCE,
                                 created_by=CreatedBy.USER, now_ms=k.clock())
                       for a, b, w in links])


def write_batched(k: Kenning, clock: Clock, plan: Sequence[Planned], batch: int,
                  progress: Callable[[int], None] | None = None, linker: Linker = link_each
                  ) -> tuple[dict[str, str], WriteStats]:
    """remember_many() in batches. A reference to a memory of the same pending batch cannot be
    given by id yet: a decision's supersedes/refines flushes the batch first; other references
    (implements, outcome_of) are added right after the batch with the same words."""
    ids: dict[str, str] = {}
    stats = WriteStats(f"batch-{batch}")
    pending: list[Planned] = []
    waiting: set[str] = set()  # keys of the pending memories
    deferred: list[tuple[str, str, str]] = []

    def flush() -> None:
        """Write the pending batch, then its deferred links and outcomes."""
        if not pending:
            return
        clock.now = pending[-1].at
        skip = {p.key: [t for _, t in p.refs if t not in ids] for p in pending}
        stored = k.remember_many([p.fields(ids, skip[p.key]) for p in pending])
        for p, m in zip(pending, stored, strict=True):
            stats.duplicates += not m.is_new
            ids[p.key] = m.id
        linker(k, [(ids[new], ids[target], param) for new, param, target in deferred])
        for p in pending:
            if p.outcome:
                k.outcome(ids[p.outcome[0]], p.outcome[1], p.outcome[2])
        stats.batches.append(len(pending))
        stats.deferred_links += len(deferred)
        pending.clear()
        waiting.clear()
        deferred.clear()
        if progress:
            progress(len(ids))

    t0 = time.perf_counter()
    for p in plan:
        local = [(param, t) for param, t in p.refs if t in waiting]
        if local and p.type == "decision":
            stats.early_flushes += 1
            flush()
            local = []
        deferred += [(p.key, param, t) for param, t in local]
        pending.append(p)
        waiting.add(p.key)
        if len(pending) >= batch:
            flush()
    flush()
    stats.seconds = time.perf_counter() - t0
    return ids, stats


# -- 1. link quality ---------------------------------------------------------------------------


def all_links(k: Kenning) -> list[Link]:
    """Every link of the store once, with its metadata."""
    ids = [row[0] for row in k.store.node_rows(Filters(project=PROJECT))]
    return list({ln.id: ln for ln in k.store.links_for(ids)}.values())


def rule_of(ln: Link) -> str:
    """Which automatic rule made a link (its metadata reason; inferred evolution by its flag)."""
    if ln.metadata.get("inferred_from") == "reasoning":
        return "inferred_evolution"
    return str(ln.metadata.get("reason") or ln.relationship)


def classify(ln: Link, where: dict[str, Planned], twins: set[frozenset[str]]) -> str:
    """signal (one story), noise (two stories, one topic) or false_positive (two topics)."""
    a, b = where[ln.from_id], where[ln.to_id]
    if a.story == b.story:
        return "signal"
    if a.topic == b.topic:
        return "noise"
    return "near_miss" if frozenset((a.story, b.story)) in twins else "false_positive"


def link_report(links: Sequence[Link], where: dict[str, Planned], twins: set[frozenset[str]],
                n_memories: int) -> dict[str, Any]:
    """Signal, noise and false-positive shares of the automatic links, overall and per rule."""
    auto = [ln for ln in links if ln.created_by.value == "system"]
    rules: dict[str, dict[str, int]] = {}
    for ln in auto:
        row = rules.setdefault(rule_of(ln), {"links": 0, "signal": 0, "noise": 0,
                                             "false_positive": 0, "near_miss": 0})
        row["links"] += 1
        row[classify(ln, where, twins)] += 1
    total = {key: sum(r[key] for r in rules.values())
             for key in ("links", "signal", "noise", "false_positive", "near_miss")}
    fp = total["false_positive"] + total["near_miss"]
    by_creator: dict[str, int] = {}
    for ln in links:
        by_creator[ln.created_by.value] = by_creator.get(ln.created_by.value, 0) + 1
    return {
        "memories": n_memories, "links": len(links), "automatic": len(auto),
        "by_creator": by_creator, "counts": total,
        "signal_ratio": _share(total["signal"], len(auto)),
        "false_positive_rate": _share(fp, len(auto)),
        "near_miss_rate": _share(total["near_miss"], len(auto)),
        "noise_rate": _share(total["noise"], len(auto)),
        "links_per_memory": len(links) / n_memories,
        "link_ends_per_memory": 2 * len(links) / n_memories,
        "auto_links_per_memory": len(auto) / n_memories,
        "auto_link_ends_per_memory": 2 * len(auto) / n_memories,
        "by_rule": {name: {**r, "signal_ratio": _share(r["signal"], r["links"])}
                    for name, r in sorted(rules.items())},
    }


def _share(part: int, whole: int) -> float:
    """part / whole, NaN when whole is zero."""
    return part / whole if whole else float("nan")


def check_chain(k: Kenning, truth: StoryTruth, ids: dict[str, str]) -> dict[str, Any]:
    """Does k.why(topic) hold every decision of the story, newest first, with its outcomes and
    an evolution link from each decision to the one it replaced?"""
    chain = k.why(truth.topic)
    pos = {e.memory.id: i for i, e in enumerate(chain)}
    entry = {e.memory.id: e for e in chain}
    decisions = [ids[key] for key in truth.decisions]
    missing = [d for d in decisions if d not in pos]
    seen = [pos[d] for d in reversed(decisions) if d in pos]
    outcome_gaps = 0
    for key, outs in truth.outcomes.items():
        e = entry.get(ids[key])
        got = {m.id for m in e.outcomes} if e else set()
        status = e.memory.outcome if e else None
        if not {ids[o] for o in outs} <= got or status != truth.statuses[key]:
            outcome_gaps += 1
    steps = {}
    for new, old, how in truth.steps:
        e = entry.get(ids[new])
        steps[new] = (how, bool(e and any(t == ids[old] for _, t, _ in e.evolves)))
    mine = set(decisions)
    stray = sum(1 for d in decisions if d in entry for _, t, _ in entry[d].evolves
                if t not in mine)
    complete = (not missing and seen == sorted(seen) and not outcome_gaps
                and all(ok for _, ok in steps.values()))
    return {"story": truth.story, "topic": truth.topic, "complete": complete,
            "decisions": len(decisions), "missing": len(missing), "ordered": seen == sorted(seen),
            "outcome_gaps": outcome_gaps, "step_detail": [[how, ok] for how, ok in steps.values()],
            "stray_evolution": stray}


def chain_report(k: Kenning, truths: dict[str, StoryTruth], ids: dict[str, str]
                 ) -> dict[str, Any]:
    """Share of complete chains over the generated stories, and the held-out story apart."""
    checks = [check_chain(k, t, ids) for t in truths.values() if not t.heldout]
    held = [check_chain(k, t, ids) for t in truths.values() if t.heldout]
    by_how: dict[str, list[int]] = {}
    for c in checks:
        for how, ok in c["step_detail"]:
            by_how.setdefault(how, [0, 0])
            by_how[how][0] += ok
            by_how[how][1] += 1
    return {
        "stories": len(checks),
        "complete": sum(c["complete"] for c in checks),
        "complete_share": _share(sum(c["complete"] for c in checks), len(checks)),
        "stories_missing_decisions": sum(c["missing"] > 0 for c in checks),
        "stories_out_of_order": sum(not c["ordered"] for c in checks),
        "decisions_missing_outcomes": sum(c["outcome_gaps"] for c in checks),
        "evolution_steps_found": {how: {"found": f, "of": n, "share": _share(f, n)}
                                  for how, (f, n) in sorted(by_how.items())},
        "stray_evolution_links": sum(c["stray_evolution"] for c in checks),
        "incomplete": [c for c in checks if not c["complete"]],
        "heldout": held[0] if held else None,
    }


def quality_run(mode: str, stream: Stream, embedder: MiniLMEmbedder, where: Path
                ) -> dict[str, Any]:
    """Write the stream one way, then grade links and chains, before and after consolidate."""
    clock = Clock(stream.plan[0].at)
    k = Kenning(where / f"quality-{mode}.db", project=PROJECT, embedder=embedder, clock=clock,
                defer_vectors=False)
    try:
        if mode.endswith("single"):
            ids, stats = write_single(k, clock, stream.plan)
        else:
            ids, stats = write_batched(k, clock, stream.plan, QUALITY_BATCH)
        clock.now = stream.end_ms
        by_id = {ids[p.key]: p for p in stream.plan}
        twins = {frozenset((t.story, t.twin_of)) for t in stream.truths.values() if t.twin_of}
        before = link_report(all_links(k), by_id, twins, len(stream.plan))
        chains = chain_report(k, stream.truths, ids)
        stats_before = k.graph_stats()
        cons = k.consolidate()
        after = link_report(all_links(k), by_id, twins, len(stream.plan))
        chains_after = chain_report(k, stream.truths, ids)
    finally:
        k.close()
    return {"write": stats.to_dict(len(stream.plan)), "links": before, "chains": chains,
            "graph_stats": stats_before, "consolidate": cons, "links_after_consolidate": after,
            "chains_after_consolidate": {key: chains_after[key] for key in
                                         ("complete", "complete_share", "heldout")}}


# name -> (same-topic stories may overlap in time, topics). The second is a sensitivity check:
# four times the topics (per-service variants with the same words) and one story at a time
# per topic, so cross-story links on one topic become rare.
STREAMS = {"interleaved": (True, len(TOPICS)), "one_thread_per_topic": (False, 4 * len(TOPICS))}


def stream_info(stream: Stream) -> dict[str, Any]:
    """What the stream holds, and how often a topic's previous decision is another story's."""
    truths = stream.truths.values()
    steps = {new for t in truths for new, _, _ in t.steps}
    last: dict[str, str] = {}
    foreign = 0
    for p in stream.plan:
        if p.type == "decision":
            foreign += p.key in steps and last.get(p.topic) != p.story
            last[p.topic] = p.story
    return {
        "memories": len(stream.plan), "stories": sum(not t.heldout for t in truths),
        "twin_stories": sum(t.twin_of is not None for t in truths),
        "topics": len({t.topic for t in truths}),
        "decisions": sum(len(t.decisions) for t in truths),
        "evolution_steps": sum(len(t.steps) for t in truths),
        "steps_after_other_story_on_topic": foreign,
        "by_type": _count(p.type for p in stream.plan),
        "topicless": sum(p.stored_topic is None for p in stream.plan),
        "days": (stream.end_ms - stream.plan[0].at) / DAY_MS,
    }


def bench_quality(embedder: MiniLMEmbedder) -> dict[str, Any]:
    """Part 1: each stream written one at a time and in batches."""
    out: dict[str, Any] = {}
    with scratch_dir() as tmp:
        for name, (overlap, n_topics) in STREAMS.items():
            stream = generate_stream(QUALITY_N, "quality", heldout=True, overlap=overlap,
                                     n_topics=n_topics)
            out[name] = {"stream": stream_info(stream)}
            for mode in ("single", "batch"):
                log(f"1. link quality, {name}: {len(stream.plan):,} memories ({mode})")
                out[name][mode] = quality_run(f"{name}-{mode}", stream, embedder, tmp)
    return out


def _count(values: Iterator[str] | Sequence[str]) -> dict[str, int]:
    """How often each value occurs."""
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))


# -- 2. timings --------------------------------------------------------------------------------


def cache_key(embedder_id: str) -> str:
    """Short hash of everything that changes a built store."""
    raw = f"{GEN_VERSION}|{kenning.__version__}|{SCHEMA_VERSION}|{embedder_id}|{BUILD_BATCH}"
    return hashlib.sha1(raw.encode()).hexdigest()[:10]


def checkpoint_wal(path: Path) -> None:
    """Fold the WAL into the main file so a plain file copy is a complete store."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def build_store(path: Path, n: int, embedder: MiniLMEmbedder) -> dict[str, Any]:
    """Write a stream of exactly ``n`` memories with remember_many batches; returns timings."""
    stream = generate_stream(n, f"store-{n}", exact=True)
    clock = Clock(stream.plan[0].at)
    k = Kenning(path, project=PROJECT, embedder=embedder, clock=clock, defer_vectors=False)
    t0 = time.perf_counter()
    step = max(BUILD_BATCH, n // 10)
    marks = iter(range(step, n + step, step))
    nxt = [next(marks)]

    def progress(done: int) -> None:
        """Log about every tenth of the build."""
        if done >= nxt[0]:
            log(f"  build {n:,}: {done:,}/{n:,} ({done / (time.perf_counter() - t0):,.0f}/s)")
            nxt[0] = next(marks, n + 1)

    try:
        _, stats = write_batched(k, clock, stream.plan, BUILD_BATCH, progress, link_at_once)
        links = k.store.stats()["links"]
        rows = k.count()
    finally:
        k.close()
    checkpoint_wal(path)
    return {"n": n, "rows": rows, "links": links, "end_ms": stream.end_ms,
            "topics": len({p.topic for p in stream.plan}), **stats.to_dict(n),
            "size_bytes": path.stat().st_size}


def cached_store(n: int, embedder: MiniLMEmbedder, rebuild: bool) -> tuple[Path, dict[str, Any]]:
    """The built store of ``n`` memories from the cache, building it on a miss."""
    return benchkit.cached_store("graph", n, cache_key(embedder.id),
                                 lambda path: build_store(path, n, embedder), rebuild)


def bench_consolidate(k: Kenning) -> dict[str, Any]:
    """The first consolidate() (it prunes decayed links) and repeated ones after it."""
    runs = []
    for _ in range(CONSOLIDATE_RUNS + 1):
        t0 = time.perf_counter()
        res = k.consolidate()
        runs.append({"total_ms": (time.perf_counter() - t0) * 1000, **res["timings_ms"],
                     "links": res["links"], "pruned": res["pruned_links"],
                     "communities": res["communities"]})
    later = runs[1:]
    parts = [p for p in runs[0] if p.endswith("_ms")]
    return {"first": runs[0], "runs": runs,
            "median": {p: statistics.median(r[p] for r in later) for p in parts},
            "median_all": {p: statistics.median(r[p] for r in runs) for p in parts}}


def forget_traversals(k: Kenning) -> None:
    """Empty the facade's traversal cache (no public call does), so the next call is cold."""
    k._traversals.clear()


def time_case(calls: Sequence[Callable[[], Sequence[Any]]], k: Kenning) -> dict[str, Any]:
    """Cold (cache emptied, distinct start) then warm (same call again) times of each call."""
    cold, warm, sizes = [], [], []
    for call in calls:
        forget_traversals(k)
        t0 = time.perf_counter()
        found = call()
        cold.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        call()
        warm.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(found))
    return {"cold_ms": summarize(cold), "warm_ms": summarize(warm),
            "reached": summarize([float(s) for s in sizes]), "raw_cold_ms": rounded(cold),
            "raw_warm_ms": rounded(warm)}


def traversal_calls(k: Kenning, picks: Sequence[str], decisions: Sequence[str],
                    topics: Sequence[str]) -> dict[str, list[Callable[[], Sequence[Any]]]]:
    """Each traversal case with its own slice of the start ids (impact: decisions; why: topics)."""
    m, w = TRAVERSAL_STARTS, WORST_CASE_STARTS
    d2, d5, worst = picks[:m], picks[m : 2 * m], picks[2 * m : 2 * m + w]
    cases: dict[str, list[Callable[[], Sequence[Any]]]] = {
        "related depth 2": [lambda i=i: k.related(i, depth=2) for i in d2],
        "related depth 5": [lambda i=i: k.related(i, depth=5) for i in d5],
        "impact (from a decision)": [lambda i=i: k.impact(i) for i in decisions],
        "related depth 5, min_confidence 0": [
            lambda i=i: k.related(i, depth=5, min_confidence=0.0) for i in worst],
    }
    if topics:
        cases["why(topic)"] = [lambda t=t: k.why(t) for t in topics]
    return cases


def bench_traversal(k: Kenning, nodes: Sequence[tuple[Any, ...]], rng: random.Random
                    ) -> dict[str, Any]:
    """Traversal timings from random start memories: any memory, and the newest ones (whose
    automatic links have not decayed yet)."""
    newest = sorted(nodes, key=lambda r: -r[3])[: max(RECENT_MIN, len(nodes) // 20)]
    pools = {"any": list(nodes), "recent": newest}
    all_topics = sorted({r[2] for r in nodes if r[2]})
    out: dict[str, Any] = {}
    for name, rows in pools.items():
        pool = [r[0] for r in rows]
        decisions = [r[0] for r in rows if r[1] == "decision"]
        picks = _draw(rng, pool, 2 * TRAVERSAL_STARTS + WORST_CASE_STARTS)
        topics = [rng.choice(all_topics) for _ in range(TRAVERSAL_STARTS)] if name == "any" else []
        cases = traversal_calls(k, picks, _draw(rng, decisions, TRAVERSAL_STARTS), topics)
        out[name] = {case: time_case(calls, k) for case, calls in cases.items()}
        out[name]["pool"] = len(pool)
        log(f"  traversal ({name}): done")
    return out


def _draw(rng: random.Random, pool: Sequence[str], count: int) -> list[str]:
    """``count`` distinct picks from ``pool`` (with repeats only when the pool is smaller)."""
    return rng.sample(list(pool), count) if len(pool) >= count else rng.choices(pool, k=count)


def probe_items(stream_seed: str, count: int, start_ms: int, first_number: int
                ) -> list[Planned]:
    """New memories for the link-cost runs: a fresh stream (its own texts: the embedder caches
    single texts), references dropped, moved to just after the built store ends."""
    plan = generate_stream(count * 3, stream_seed, first_number=first_number).plan[:count]
    base = plan[0].at
    return [Planned(p.key, p.story, p.topic, start_ms + MINUTE_MS + (p.at - base) // 50,
                    p.type, p.text, p.stored_topic, p.reason) for p in plan]


LINK_SERIES = ("auto_link", "no_auto_link", "auto_link_with_ref")


def bench_link_cost(path: Path, embedder: MiniLMEmbedder, n: int, end_ms: int
                    ) -> dict[str, Any]:
    """Per-call remember() time with auto-linking, without it, and with auto-linking plus an
    explicit implements= reference; the series take turns, in a rotating order."""
    count = len(LINK_SERIES) * LINK_RUNS * LINK_CALLS + 10
    items = probe_items(f"probe-{n}", count, end_ms, 10_000_000 * len(str(n)))
    clock = Clock(end_ms)
    on = Kenning(path, project=PROJECT, embedder=embedder, clock=clock, defer_vectors=False)
    off = Kenning(path, project=PROJECT, embedder=embedder, clock=clock, auto_link=False,
                  defer_vectors=False)
    targets = [r[0] for r in on.store.node_rows(Filters(project=PROJECT)) if r[1] == "decision"]
    rng = random.Random(f"{SEED}:refs-{n}")
    feed = iter(items)
    try:
        for k in (on, off):  # load the vector cache and the model outside the timed calls
            for p in (next(feed) for _ in range(5)):
                clock.now = p.at
                k.remember(**p.fields({}))
        times: dict[str, list[list[float]]] = {name: [] for name in LINK_SERIES}
        for run in range(LINK_RUNS):
            for j in range(len(LINK_SERIES)):
                name = LINK_SERIES[(run + j) % len(LINK_SERIES)]
                k = off if name == "no_auto_link" else on
                per_call = []
                for p in (next(feed) for _ in range(LINK_CALLS)):
                    clock.now = p.at
                    fields = p.fields({})
                    if name == "auto_link_with_ref":
                        fields["implements"] = rng.choice(targets)
                    t0 = time.perf_counter()
                    k.remember(**fields)
                    per_call.append((time.perf_counter() - t0) * 1000)
                times[name].append(per_call)
    finally:
        on.close()
        off.close()
    med = {name: [statistics.median(run) for run in runs] for name, runs in times.items()}
    diffs = [a - b for a, b in zip(med["auto_link"], med["no_auto_link"], strict=True)]
    ref = [a - b for a, b in zip(med["auto_link_with_ref"], med["auto_link"], strict=True)]
    return {"calls": LINK_CALLS, "runs": LINK_RUNS,
            **{f"{name}_ms": statistics.median(med[name]) for name in LINK_SERIES},
            "link_cost_ms": statistics.median(diffs),
            "explicit_ref_cost_ms": statistics.median(ref),
            "per_run_median_ms": med, "per_run_cost_ms": rounded(diffs),
            "raw_ms": {name: [rounded(r) for r in runs] for name, runs in times.items()}}


def time_reports(k: Kenning) -> dict[str, Any]:
    """graph_stats() and health() times (median of 5)."""
    out = {}
    for name, call in (("graph_stats", k.graph_stats), ("health", k.health)):
        ms = []
        for _ in range(5):
            t0 = time.perf_counter()
            call()
            ms.append((time.perf_counter() - t0) * 1000)
        out[name] = {"median_ms": statistics.median(ms), "raw_ms": rounded(ms)}
    return out


def bench_size(n: int, embedder: MiniLMEmbedder, rebuild: bool) -> dict[str, Any]:
    """Build (or reuse) a store of ``n`` and time traversal, consolidation and link cost."""
    path, build = cached_store(n, embedder, rebuild)
    end = int(build["end_ms"])
    rng = random.Random(f"{SEED}:traversal-{n}")
    with working_copy(path) as copy:
        k = Kenning(copy, project=PROJECT, embedder=None, clock=lambda: end)
        try:
            nodes = k.store.node_rows(Filters(project=PROJECT))
            stats = k.graph_stats()
            log(f"size {n:,}: traversal")
            traversal = bench_traversal(k, nodes, rng)
            reports = time_reports(k)
            log(f"size {n:,}: consolidate x {CONSOLIDATE_RUNS + 1}")
            consolidate = bench_consolidate(k)
        finally:
            k.close()
    with working_copy(path) as copy:
        log(f"size {n:,}: link creation cost")
        link_cost = bench_link_cost(copy, embedder, n, end)
    return {"n": n, "build": build, "graph_stats": stats, "consolidate": consolidate,
            "link_cost": link_cost, "traversal": traversal, "reports": reports}


# -- statistics and output ---------------------------------------------------------------------


def _pct(value: float) -> str:
    """A share as a percentage."""
    return "-" if value != value else f"{100 * value:.1f}%"


def machine_info() -> dict[str, Any]:
    """Where and with what the benchmark ran."""
    return benchkit.machine_info(generator=GEN_VERSION)


# -- report ------------------------------------------------------------------------------------


def quality_tables(q: dict[str, Any]) -> str:
    """Tables for part 1."""
    out = []
    for name, r in q.items():
        s = r["stream"]
        out.append(f"stream {name}: {s['memories']:,} memories, {s['stories']} stories "
                   f"({s['twin_stories']} near-miss twins) + 1 held-out, {s['topics']} topics, "
                   f"{s['decisions']} decisions, {s['evolution_steps']} evolution steps "
                   f"({s['steps_after_other_story_on_topic']} right after another story's "
                   f"decision on the topic), {s['topicless']} memories without topic, "
                   f"{s['days']:.0f} days")
    out.append("")
    runs = [(f"{name}/{mode}", r[mode]) for name, r in q.items() for mode in ("single", "batch")]
    rows = []
    for label, r in runs:
        for when, key in (("write", "links"), ("consolidated", "links_after_consolidate")):
            x = r[key]
            rows.append((f"{label}, {when}", x["links"], x["automatic"], _pct(x["signal_ratio"]),
                         _pct(x["false_positive_rate"]), _pct(x["near_miss_rate"]),
                         _pct(x["noise_rate"]), x["links_per_memory"], x["link_ends_per_memory"],
                         x["auto_links_per_memory"], x["auto_link_ends_per_memory"]))
    out.append(render(
        "1a. Automatic link quality (signal: same story; FP: other story, other topic, "
        "near-miss twins included; noise: other story, same topic)",
        ("stream/mode, when", "links", "auto", "signal", "FP", "twin FP", "noise",
         "links/mem", "ends/mem", "auto/mem", "auto ends/mem"), rows))
    rule_rows = []
    for label, r in runs:
        for rule, x in r["links"]["by_rule"].items():
            after = r["links_after_consolidate"]["by_rule"].get(rule, {"links": 0})
            rule_rows.append((f"{label}: {rule}", x["links"], x["signal"], x["noise"],
                              x["false_positive"], x["near_miss"], _pct(x["signal_ratio"]),
                              after["links"]))
    out.append(render("1b. Automatic links per rule (at write; last column: left after "
                      "consolidate)",
                      ("stream/mode: rule", "links", "signal", "noise", "FP", "twin FP",
                       "signal %", "kept"), rule_rows))
    chain_rows = []
    for label, r in runs:
        c = r["chains"]
        steps = c["evolution_steps_found"]
        held = c["heldout"]
        chain_rows.append((
            label, f"{c['complete']}/{c['stories']}", _pct(c["complete_share"]),
            c["stories_missing_decisions"], c["decisions_missing_outcomes"],
            *(f"{steps[h]['found']}/{steps[h]['of']}" if h in steps else "-"
              for h in ("supersedes", "refines", "inferred-reason", "inferred-content")),
            c["stray_evolution_links"], "complete" if held and held["complete"] else "INCOMPLETE",
        ))
    out.append(render(
        "1c. why(topic) chains: every story decision, newest first, outcomes attached, each "
        "evolution step linked",
        ("stream/mode", "complete", "share", "miss dec.", "miss outc.", "supersedes", "refines",
         "cue in reason", "cue in text", "stray evo", "held-out"), chain_rows))
    write_rows = [(label, r["write"]["seconds"], r["write"]["memories_per_s"],
                   r["write"]["batches"], r["write"]["mean_batch"], r["write"]["early_flushes"],
                   r["write"]["deferred_links"], r["write"]["duplicates"]) for label, r in runs]
    out.append(render("1d. Writing the streams",
                      ("stream/mode", "seconds", "mem/s", "batches", "mean batch",
                       "early flushes", "links via k.link", "duplicates"), write_rows))
    return "\n".join(out)


def timing_tables(t: dict[str, Any]) -> str:
    """Tables for part 2."""
    rows = []
    for size, r in t.items():
        b, c, lc = r["build"], r["consolidate"], r["link_cost"]
        rows.append((f"{int(size):,}", b["seconds"], b["memories_per_s"], b["links"],
                     "cache" if b["cached"] else "new", c["first"]["total_ms"],
                     c["median"]["total_ms"], c["median"]["build_ms"], c["median"]["rank_ms"],
                     c["first"]["pruned"], lc["auto_link_ms"], lc["no_auto_link_ms"],
                     lc["link_cost_ms"], lc["auto_link_with_ref_ms"], lc["explicit_ref_cost_ms"]))
    out = [render(
        "2a. Build, consolidate (ms; median of the runs after the first) and link creation "
        "(ms per remember(), median of run medians)",
        ("memories", "build s", "mem/s", "links", "store", "1st consol.", "consol.", "build",
         "rank", "pruned", "remember", "no autolink", "link cost", "+implements=",
         "ref cost"), rows)]
    trows = []
    for size, r in t.items():
        for pool, cases in r["traversal"].items():
            for case, v in cases.items():
                if case == "pool":
                    continue
                trows.append((f"{int(size):,} {pool} ({cases['pool']:,})", case,
                              v["cold_ms"]["median"], v["cold_ms"]["p95"],
                              v["warm_ms"]["median"], v["reached"]["median"],
                              v["cold_ms"]["n"]))
    out.append(render("2b. Traversal (ms; cold = facade cache emptied, distinct starts; warm = "
                      "same call again)",
                      ("size pool (pool size)", "call", "cold p50", "cold p95", "warm p50",
                       "results p50", "n"), trows))
    rrows = [(f"{int(size):,}", r["reports"]["graph_stats"]["median_ms"],
              r["reports"]["health"]["median_ms"]) for size, r in t.items()]
    out.append(render("2c. Reports (ms, median of 5)", ("memories", "graph_stats", "health"),
                      rrows))
    return "\n".join(out)


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's bars, each with the measured value and whether it passes."""
    checks: list[dict[str, Any]] = []

    def add(name: str, value: float, bar: str, ok: bool) -> None:
        """Record one check."""
        checks.append({"target": name, "value": value, "bar": bar, "pass": bool(ok)})

    q = result.get("quality", {})
    for mode, r, c in ((f"{name}/{m}", q[name][m]["links"], q[name][m]["chains"])
                       for name in q for m in ("single", "batch")):
        add(f"{mode}: automatic-link signal ratio", r["signal_ratio"], f">= {BAR_SIGNAL:.0%}",
            r["signal_ratio"] >= BAR_SIGNAL)
        add(f"{mode}: false-positive rate", r["false_positive_rate"],
            f"< {BAR_FALSE_POSITIVE:.0%}", r["false_positive_rate"] < BAR_FALSE_POSITIVE)
        add(f"{mode}: link ends per memory (2 x links / memories)", r["link_ends_per_memory"],
            f"< {BAR_LINKS_PER_MEMORY:g}", r["link_ends_per_memory"] < BAR_LINKS_PER_MEMORY)
        add(f"{mode}: complete why() chains", c["complete_share"], "= 100%",
            c["complete_share"] == 1.0)
        held = c["heldout"]
        add(f"{mode}: held-out story chain complete", float(bool(held and held["complete"])),
            "complete", bool(held and held["complete"]))
    t = result.get("timings", {})
    if "10000" in t:
        r = t["10000"]
        rank = max(r["consolidate"]["first"]["rank_ms"], r["consolidate"]["median"]["rank_ms"])
        add("10k: PageRank + communities ms (worse of 1st run, median)", rank,
            f"< {BAR_RANK_MS_10K:g}", rank < BAR_RANK_MS_10K)
        for pool in ("any", "recent"):
            d5 = r["traversal"][pool]["related depth 5"]["cold_ms"]["median"]
            add(f"10k: depth-5 related() cold p50 ms ({pool} starts)", d5,
                f"< {BAR_DEPTH5_MS_10K:g}", d5 < BAR_DEPTH5_MS_10K)
        cost = r["link_cost"]["link_cost_ms"]
        add("10k: link creation ms per memory", cost, f"< {BAR_LINK_MS_10K:g}",
            cost < BAR_LINK_MS_10K)
    if "100000" in t:
        c = t["100000"]["consolidate"]
        total = max(c["first"]["total_ms"], c["median"]["total_ms"]) / 1000
        add("100k: full consolidate() s (worse of 1st run, median)", total,
            f"< {BAR_CONSOLIDATE_S_100K:g}", total < BAR_CONSOLIDATE_S_100K)
    return checks


def print_report(result: dict[str, Any]) -> None:
    """The human-readable tables."""
    info = result["machine"]
    print(f"Kenning graph benchmark  {info['date']}  {info['platform']}  "
          f"{info['cpu_count']} CPUs  Python {info['python']}  "
          f"load {result['load_start']} -> {result['load_end']}\n")
    if "quality" in result:
        print(quality_tables(result["quality"]))
    if result.get("timings"):
        print(timing_tables(result["timings"]))
    print(render("Targets", ("target", "value", "bar", "result"),
                 [(t["target"], t["value"], t["bar"], "PASS" if t["pass"] else "FAIL")
                  for t in result["targets"]]))
    print(f"total benchmark time: {result['elapsed_s']:.0f} s")


# -- main --------------------------------------------------------------------------------------

PARTS = ("quality", "timings")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--sizes", help="store sizes for the timings, comma-separated "
                   f"(default {','.join(map(str, DEFAULT_SIZES))})")
    p.add_argument("--quick", action="store_true",
                   help=f"sizes {','.join(map(str, QUICK_SIZES))} unless --sizes is given")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    p.add_argument("--only", default=",".join(PARTS),
                   help=f"comma-separated parts to run: {', '.join(PARTS)}")
    p.add_argument("--rebuild", action="store_true", help="rebuild cached stores")
    args = p.parse_args(argv)
    sizes = args.sizes or ",".join(map(str, QUICK_SIZES if args.quick else DEFAULT_SIZES))
    args.sizes = [int(s.replace("_", "")) for s in sizes.split(",") if s.strip()]
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(args.only) - set(PARTS)
    if unknown:
        p.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    return args


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run the selected parts and collect every figure."""
    t_start = time.perf_counter()
    result: dict[str, Any] = {"machine": machine_info(), "load_start": load_average(),
                              "args": {"sizes": args.sizes, "only": args.only}}
    embedder = MiniLMEmbedder()
    embedder.embed(["warm-up so the model load is not timed", "a second text"])
    if "quality" in args.only:
        result["quality"] = bench_quality(embedder)
    if "timings" in args.only:
        result["timings"] = {}
        for n in args.sizes:
            log(f"2. timings at {n:,}")
            result["timings"][str(n)] = bench_size(n, embedder, args.rebuild)
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
