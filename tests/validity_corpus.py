"""A generated corpus of typed decisions for measuring inferred supersession: 50 topics (two
service areas x 25 kinds of tooling), 20 decisions each, in time order. Most reasoning says
"<tool> instead of <alternative>" about an alternative nobody recorded, some gives a generic
"instead of doing it by hand", some gives no cue at all, and about one decision in ten really
replaces the tool its topic uses ("move <purpose> from <old> to <new>"); the decisions after
it use the new tool."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

# kind of tooling: (what it is for, tools the project chooses, alternatives it never records)
DOMAINS: dict[str, tuple[str, list[str], list[str]]] = {
    "package_manager": ("package installs", ["pnpm", "bun"], ["yarn", "npm"]),
    "ci_runner": ("continuous integration", ["Jenkins", "Buildkite"], ["CircleCI", "Drone"]),
    "database": ("the primary datastore", ["PostgreSQL", "CockroachDB"], ["MySQL", "MongoDB"]),
    "cache": ("response caching", ["Redis", "Memcached"], ["Varnish", "Hazelcast"]),
    "queue": ("background jobs", ["RabbitMQ", "SQS"], ["Kafka", "Beanstalkd"]),
    "orm": ("database access", ["SQLAlchemy", "Prisma"], ["Peewee", "TypeORM"]),
    "test_runner": ("unit tests", ["pytest", "Vitest"], ["nose", "Mocha"]),
    "linter": ("static checks", ["Ruff", "ESLint"], ["Pylint", "JSHint"]),
    "formatter": ("code formatting", ["Black", "Prettier"], ["YAPF", "autopep8"]),
    "bundler": ("frontend bundles", ["Vite", "esbuild"], ["Webpack", "Parcel"]),
    "auth": ("user sign-in", ["Keycloak", "Auth0"], ["Okta", "Cognito"]),
    "logging": ("structured logs", ["Loki", "Elasticsearch"], ["Splunk", "Graylog"]),
    "metrics": ("service metrics", ["Prometheus", "Datadog"], ["Graphite", "InfluxDB"]),
    "tracing": ("request tracing", ["Jaeger", "Tempo"], ["Zipkin", "Honeycomb"]),
    "http_client": ("outbound HTTP calls", ["httpx", "aiohttp"], ["requests", "urllib3"]),
    "web_framework": ("the HTTP API", ["FastAPI", "Django"], ["Flask", "Bottle"]),
    "container": ("local containers", ["Docker", "Podman"], ["LXC", "rkt"]),
    "orchestrator": ("deployments", ["Kubernetes", "Nomad"], ["Swarm", "Mesos"]),
    "iac": ("infrastructure changes", ["Terraform", "Pulumi"], ["CloudFormation", "Ansible"]),
    "secrets": ("secret storage", ["Vault", "Doppler"], ["Keywhiz", "Confidant"]),
    "search": ("full-text search", ["OpenSearch", "Meilisearch"], ["Solr", "Sphinx"]),
    "feature_flags": ("feature flags", ["Unleash", "LaunchDarkly"], ["Flagsmith", "Flipt"]),
    "email": ("transactional email", ["Postmark", "SES"], ["Mailgun", "SendGrid"]),
    "storage": ("file uploads", ["S3", "MinIO"], ["GlusterFS", "Ceph"]),
    "scheduler": ("cron jobs", ["Airflow", "Temporal"], ["Luigi", "Rundeck"]),
}
AREAS = ("billing", "search")
WHY = ["it was faster in our benchmark", "the team already knows it", "it needs less upkeep",
       "its docs are clearer", "it halves the CI time", "support contracts are cheaper",
       "it integrates with our SSO", "upgrades broke less often"]
GENERIC = ["doing it by hand", "a custom wrapper", "hand-rolled scripts", "ad hoc tooling"]
TEXTS = ["Use {tool} for {purpose} in the {area} service",
         "{tool} handles {purpose} for {area}; its config lives in deploy/{area}",
         "Pin {tool} for {purpose} in {area} to the current LTS release",
         "Run {tool} with verbose output for {purpose} in {area}"]


@dataclass(frozen=True)
class Item:
    """One decision to remember: the tool it chooses and the tool it really replaces, if any."""

    fields: dict[str, Any]
    chose: str
    replaces: str | None


def corpus(seed: int = 7, per_topic: int = 20) -> list[Item]:
    """``per_topic`` decisions for each of the 50 topics, interleaved in time order."""
    rng = random.Random(seed)
    streams: list[list[Item]] = []
    for area in AREAS:
        for domain, (purpose, chosen, alternatives) in DOMAINS.items():
            topic = f"{area}_{domain}"
            items: list[Item] = []
            current = rng.choice(chosen)
            for _ in range(per_topic):
                roll = rng.random()
                if roll < 0.1 and items:
                    old, tool = current, next(t for t in chosen if t != current)
                    current = tool
                    text = f"Move {purpose} in {area} from {old} to {tool}"
                    reason = f"{tool} instead of {old}: {rng.choice(WHY)}"
                    items.append(Item({"text": text, "reason": reason}, tool, old))
                else:
                    tool = current
                    text = rng.choice(TEXTS).format(tool=tool, purpose=purpose, area=area)
                    if roll < 0.7:
                        reason = f"{tool} instead of {rng.choice(alternatives)} because " \
                                 f"{rng.choice(WHY)}"
                    elif roll < 0.85:
                        reason = f"{tool} instead of {rng.choice(GENERIC)}: {rng.choice(WHY)}"
                    else:
                        reason = rng.choice(WHY).capitalize()
                    items.append(Item({"text": text, "reason": reason}, tool, None))
                # A ticket makes every text distinct (equal texts would be stored once).
                items[-1].fields.update(type="decision", topic=topic,
                                        text=f"{items[-1].fields['text']} ({area}-{len(items)})")
            streams.append(items)
    out: list[Item] = []
    for i in range(per_topic):
        out += [s[i] for s in streams]
    return out


def inferred_links(k: Any, items: list[Item], batch: int = 25, step_ms: int = 3_600_000
                   ) -> tuple[list[str], list[tuple[int, int]]]:
    """Remember ``items`` in time order, ``batch`` at a time (one per ``step_ms``), on ``k``
    (whose clock must be a ``tests.conftest.Clock``); the stored ids and the (from, to) item
    numbers of every supersedes link evolution inference made."""
    ids: list[str] = []
    for start in range(0, len(items), batch):
        chunk = items[start:start + batch]
        rows = []
        for n, item in enumerate(chunk):
            rows.append({**item.fields, "created_at": k.clock() + n * step_ms})
        k.clock.advance(len(chunk) * step_ms)
        ids += [m.id for m in k.remember_many(rows)]
    k.settle()  # the automatic links of writes that did not wait for the model
    number = {mid: n for n, mid in enumerate(ids)}
    pairs = []
    for ln in k.store.links_for(ids, direction="out"):
        if ln.metadata.get("inferred_from") == "reasoning" and ln.to_id in number:
            pairs.append((number[ln.from_id], number[ln.to_id]))
    return ids, sorted(pairs)
