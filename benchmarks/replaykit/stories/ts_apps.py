"""Stories in two TypeScript projects.

``crewboard`` is a Next.js 14 app (App Router, Prisma on PostgreSQL, pnpm, vitest, Playwright)
that lists volunteer shifts and takes signups. ``retrywell`` is a small retry/backoff library
published to npm (tsup, jest, npm, changesets, size-limit).
"""

from __future__ import annotations

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

# == crewboard: files of the first commit =======================================================

CB_PACKAGE_JSON = """\
{
  "name": "crewboard",
  "version": "0.1.0",
  "private": true,
  "packageManager": "pnpm@9.4.0",
  "scripts": {
    "dev": "next dev",
    "build": "next build",
    "start": "next start",
    "lint": "next lint --dir src --dir scripts",
    "typecheck": "tsc --noEmit",
    "test": "vitest run",
    "test:int": "dotenv -e .env.test -- vitest run --config vitest.int.config.ts",
    "test:e2e": "playwright test",
    "db:migrate": "prisma migrate dev",
    "db:test:migrate": "dotenv -e .env.test -- prisma migrate deploy"
  },
  "dependencies": {
    "@prisma/client": "^5.15.0",
    "next": "14.2.4",
    "react": "^18.3.1",
    "react-dom": "^18.3.1"
  },
  "devDependencies": {
    "@playwright/test": "^1.44.1",
    "@types/node": "^20.14.2",
    "@types/react": "^18.3.3",
    "dotenv-cli": "^7.4.2",
    "eslint": "^8.57.0",
    "eslint-config-next": "14.2.4",
    "prisma": "^5.15.0",
    "tsx": "^4.15.6",
    "typescript": "^5.4.5",
    "vitest": "^1.6.0"
  }
}
"""

CB_TSCONFIG = """\
{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["dom", "dom.iterable", "ES2022"],
    "module": "esnext",
    "moduleResolution": "bundler",
    "jsx": "preserve",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
    "incremental": true,
    "plugins": [{ "name": "next" }],
    "paths": { "@/*": ["./src/*"] }
  },
  "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts"],
  "exclude": ["node_modules"]
}
"""

CB_DOCKER_COMPOSE = """\
services:
  db:
    image: postgres:16
    ports: ["5432:5432"]
    environment:
      POSTGRES_PASSWORD: postgres
      POSTGRES_DB: crewboard
  db-test:
    image: postgres:16
    ports: ["5433:5432"]
    environment:
      POSTGRES_PASSWORD: postgres
      POSTGRES_DB: crewboard_test
"""

CB_VITEST_CONFIG = """\
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname, "src") } },
  test: { include: ["tests/unit/**/*.test.ts"] },
});
"""

CB_VITEST_INT_CONFIG = """\
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname, "src") } },
  test: { include: ["tests/integration/**/*.test.ts"], fileParallelism: false },
});
"""

CB_SCHEMA = """\
generator client {
  provider = "prisma-client-js"
}

datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model Volunteer {
  id        String   @id @default(cuid())
  email     String   @unique
  name      String
  signups   Signup[]
  createdAt DateTime @default(now())
}

model Shift {
  id       String   @id @default(cuid())
  title    String
  startsAt DateTime
  endsAt   DateTime
  capacity Int
  signups  Signup[]
}

model Signup {
  id          String    @id @default(cuid())
  shiftId     String
  volunteerId String
  shift       Shift     @relation(fields: [shiftId], references: [id])
  volunteer   Volunteer @relation(fields: [volunteerId], references: [id])
  createdAt   DateTime  @default(now())

  @@unique([shiftId, volunteerId])
}
"""

CB_INIT_MIGRATION = """\
-- CreateTable
CREATE TABLE "Volunteer" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Volunteer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shift" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "capacity" INTEGER NOT NULL,
    CONSTRAINT "Shift_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Signup" (
    "id" TEXT NOT NULL,
    "shiftId" TEXT NOT NULL,
    "volunteerId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Signup_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Volunteer_email_key" ON "Volunteer"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Signup_shiftId_volunteerId_key" ON "Signup"("shiftId", "volunteerId");
"""

CB_LAYOUT = """\
import type { ReactNode } from "react";

export const metadata = { title: "crewboard" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
"""

CB_PAGE = """\
import { listOpenShifts } from "@/lib/shifts";

export const dynamic = "force-dynamic";

const time = (d: Date) =>
  d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });

export default async function ShiftsPage() {
  const shifts = await listOpenShifts();
  return (
    <main>
      <h1>Open shifts</h1>
      <ul>
        {shifts.map((s) => (
          <li key={s.id}>
            {s.title}: {time(s.startsAt)}–{time(s.endsAt)}
            <span> ({s._count.signups}/{s.capacity})</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
"""

CB_SIGNUPS_ROUTE = """\
import { NextResponse } from "next/server";
import { signUp } from "@/lib/shifts";

export async function POST(req: Request) {
  const { shiftId, volunteerId } = await req.json();
  const signup = await signUp(shiftId, volunteerId);
  return NextResponse.json(signup, { status: 201 });
}
"""

CB_DB = """\
import { PrismaClient } from "@prisma/client";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

// One client per process: Next's dev server re-evaluates modules on every change.
export const db = globalForPrisma.prisma ?? new PrismaClient();

if (process.env.NODE_ENV !== "production") globalForPrisma.prisma = db;
"""

CB_SHIFTS = """\
import { db } from "./db";

export async function listOpenShifts(now = new Date()) {
  const shifts = await db.shift.findMany({
    where: { startsAt: { gt: now } },
    include: { _count: { select: { signups: true } } },
    orderBy: { startsAt: "asc" },
  });
  return shifts.filter((s) => s._count.signups < s.capacity);
}

export async function signUp(shiftId: string, volunteerId: string) {
  return db.signup.create({ data: { shiftId, volunteerId } });
}
"""

CB_FLAGS = """\
/** Feature flags, read once at build time. */
export const flags = {
  venueFilter: process.env.NEXT_PUBLIC_FLAG_VENUE_FILTER === "1",
} as const;
"""

CB_IMPORT_SHIFTS = """\
// Weekly import of the coordinators' CSV: pnpm tsx scripts/import-shifts.ts shifts.csv
import { readFileSync } from "node:fs";
import { PrismaClient } from "@prisma/client";

const db = new PrismaClient();

async function main(file: string) {
  const [header, ...rows] = readFileSync(file, "utf8").trim().split("\\n");
  for (const row of rows) {
    const [title, startsAt, endsAt, capacity] = row.split(",");
    await db.shift.create({
      data: {
        title,
        startsAt: new Date(startsAt),
        endsAt: new Date(endsAt),
        capacity: Number(capacity),
      },
    });
  }
  console.log(`imported ${rows.length} shifts`);
}

main(process.argv[2]).finally(() => db.$disconnect());
"""

CB_UNIT_TEST = """\
import { describe, expect, it, vi } from "vitest";

vi.mock("@/lib/db", () => ({
  db: {
    shift: {
      findMany: vi.fn(async () => [
        { id: "a", title: "Pantry sorting", capacity: 4, _count: { signups: 4 } },
        { id: "b", title: "Front desk", capacity: 2, _count: { signups: 1 } },
      ]),
    },
  },
}));

import { listOpenShifts } from "@/lib/shifts";

describe("listOpenShifts", () => {
  it("leaves out full shifts", async () => {
    const shifts = await listOpenShifts();
    expect(shifts.map((s) => s.id)).toEqual(["b"]);
  });
});
"""

CB_E2E_STUB = """\
import { expect, test } from "@playwright/test";

test("shifts page loads", async ({ page }) => {
  await page.goto("/shifts");
  await expect(page.getByRole("heading", { name: "Open shifts" })).toBeVisible();
});
"""

CREWBOARD = Project("crewboard", "typescript", {
    "package.json": CB_PACKAGE_JSON,
    "tsconfig.json": CB_TSCONFIG,
    ".eslintrc.json": '{\n  "extends": "next/core-web-vitals"\n}\n',
    ".env.test": 'DATABASE_URL="postgresql://postgres:postgres@localhost:5433/crewboard_test"\n',
    "docker-compose.yml": CB_DOCKER_COMPOSE,
    "vitest.config.ts": CB_VITEST_CONFIG,
    "vitest.int.config.ts": CB_VITEST_INT_CONFIG,
    "prisma/schema.prisma": CB_SCHEMA,
    "prisma/migrations/20240601120000_init/migration.sql": CB_INIT_MIGRATION,
    "src/app/layout.tsx": CB_LAYOUT,
    "src/app/shifts/page.tsx": CB_PAGE,
    "src/app/api/signups/route.ts": CB_SIGNUPS_ROUTE,
    "src/lib/db.ts": CB_DB,
    "src/lib/shifts.ts": CB_SHIFTS,
    "src/lib/flags.ts": CB_FLAGS,
    "scripts/import-shifts.ts": CB_IMPORT_SHIFTS,
    "tests/unit/shifts.test.ts": CB_UNIT_TEST,
    "e2e/signup.spec.ts": CB_E2E_STUB,
})

# == retrywell: files of the first commit =======================================================

RW_PACKAGE_JSON = """\
{
  "name": "retrywell",
  "version": "0.4.2",
  "description": "Retry promises with exponential backoff and jitter. Zero dependencies.",
  "license": "MIT",
  "main": "./dist/index.js",
  "module": "./dist/index.mjs",
  "types": "./dist/index.d.ts",
  "exports": {
    ".": {
      "types": "./dist/index.d.ts",
      "import": "./dist/index.mjs",
      "require": "./dist/index.js"
    }
  },
  "files": ["dist"],
  "engines": { "node": ">=18" },
  "scripts": {
    "build": "tsup",
    "test": "jest",
    "lint": "eslint .",
    "typecheck": "tsc --noEmit",
    "size": "size-limit",
    "release": "npm run build && changeset publish"
  },
  "devDependencies": {
    "@changesets/cli": "^2.27.5",
    "@size-limit/preset-small-lib": "^11.1.4",
    "@types/jest": "^29.5.12",
    "@types/node": "^20.14.2",
    "eslint": "^9.5.0",
    "jest": "^29.7.0",
    "size-limit": "^11.1.4",
    "ts-jest": "^29.1.5",
    "tsup": "^8.1.0",
    "typescript": "^5.4.5",
    "typescript-eslint": "^7.13.0"
  }
}
"""

RW_README = """\
# retrywell

[![npm](https://img.shields.io/npm/v/retyrwell.svg)](https://www.npmjs.com/package/retrywell)

Retry promises with exponential backoff and jitter. Zero dependencies, under 2 kB.

```ts
import { retry } from "retrywell";

const user = await retry(() => fetchUser(id), { retries: 5, baseMs: 200 });
```

Install with `npm i retrywell`. Works in Node 18+, Deno, Bun and edge runtimes.
"""

RW_TSCONFIG = """\
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "lib": ["ESNext"],
    "types": ["node", "jest"],
    "strict": true,
    "declaration": true,
    "skipLibCheck": true,
    "noEmit": true
  },
  "include": ["src", "test"]
}
"""

RW_TSUP = """\
import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["cjs", "esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
});
"""

RW_JEST_CONFIG = """\
/** @type {import('jest').Config} */
module.exports = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
};
"""

RW_ESLINT = """\
import tseslint from "typescript-eslint";

export default tseslint.config(...tseslint.configs.recommended, {
  ignores: ["dist/", "coverage/"],
});
"""

RW_INDEX = """\
export { retry } from "./retry";
export type { RetryOptions } from "./retry";
export { computeDelay } from "./backoff";
"""

RW_BACKOFF = """\
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  factor: number;
}

export function computeDelay(attempt: number, opts: BackoffOptions): number {
  if (attempt < 0) throw new RangeError("attempt must be >= 0");
  const raw = opts.baseMs * opts.factor ** attempt;
  return Math.min(raw, opts.maxMs);
}
"""

RW_RETRY = """\
import { computeDelay, type BackoffOptions } from "./backoff";

export interface RetryOptions extends Partial<BackoffOptions> {
  /** How many times to retry after the first attempt. Default 3. */
  retries?: number;
  shouldRetry?: (err: unknown) => boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function retry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const { retries = 3, baseMs = 100, maxMs = 10_000, factor = 2 } = opts;
  let lastErr: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      return await fn();
    } catch (err) {
      lastErr = err;
      if (opts.shouldRetry && !opts.shouldRetry(err)) throw err;
      if (attempt < retries) await sleep(computeDelay(attempt, { baseMs, maxMs, factor }));
    }
  }
  throw lastErr;
}
"""

RW_TEST_BACKOFF = """\
import { computeDelay, type BackoffOptions } from "../src/backoff";

const opts = { baseMs: 100, maxMs: 1000, factor: 2 };

describe("computeDelay", () => {
  it("grows exponentially", () => {
    expect([0, 1, 2].map((a) => computeDelay(a, opts))).toEqual([100, 200, 400]);
  });

  it("is capped at maxMs", () => {
    expect(computeDelay(10, opts)).toBe(1000);
  });
});
"""

RW_TEST_RETRY = """\
import { retry } from "../src/retry";

describe("retry", () => {
  it("returns the first successful result", async () => {
    await expect(retry(async () => 42)).resolves.toBe(42);
  });

  it("retries until fn succeeds", async () => {
    let calls = 0;
    const fn = async () => {
      calls += 1;
      if (calls < 3) throw new Error("flaky");
      return "ok";
    };
    await expect(retry(fn, { baseMs: 500 })).resolves.toBe("ok");
    expect(calls).toBe(3);
  });

  it("gives up after `retries` attempts", async () => {
    const fn = jest.fn(async () => {
      throw new Error("boom");
    });
    await expect(retry(fn, { retries: 2, baseMs: 1000 })).rejects.toThrow("boom");
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it("stops when shouldRetry returns false", async () => {
    const fn = jest.fn(async () => {
      throw new Error("fatal");
    });
    await expect(retry(fn, { shouldRetry: () => false })).rejects.toThrow("fatal");
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
"""

RW_BOOM_LINE = ('    await expect(retry(fn, { retries: 2, baseMs: 1000 }))'
                '.rejects.toThrow("boom");\n')

RETRYWELL = Project("retrywell", "typescript", {
    "package.json": RW_PACKAGE_JSON,
    "README.md": RW_README,
    "tsconfig.json": RW_TSCONFIG,
    "tsup.config.ts": RW_TSUP,
    "jest.config.js": RW_JEST_CONFIG,
    "eslint.config.mjs": RW_ESLINT,
    ".size-limit.json": '[\n  { "path": "dist/index.mjs", "limit": "2 kB" }\n]\n',
    "src/index.ts": RW_INDEX,
    "src/backoff.ts": RW_BACKOFF,
    "src/retry.ts": RW_RETRY,
    "test/backoff.test.ts": RW_TEST_BACKOFF,
    "test/retry.test.ts": RW_TEST_RETRY,
})

# == shared tool output =========================================================================

CB = "/Users/sam/code/crewboard"
RW = "/home/mara/src/retrywell"


def pnpm_run(script: str, cmd: str) -> str:
    """The banner pnpm prints before running a package.json script."""
    return f"\n> crewboard@0.1.0 {script} {CB}\n> {cmd}\n\n"


def vitest_ok(files: list[tuple[str, int]], start: str, duration: str, root: str = CB) -> str:
    """A passing ``vitest run`` (vitest 1.6)."""
    tests = sum(n for _, n in files)
    lines = "".join(
        f" ✓ {path}  ({n} test{'s' if n > 1 else ''}) {3 + 2 * i}ms\n"
        for i, (path, n) in enumerate(files))
    return (f"\n RUN  v1.6.0 {root}\n\n{lines}\n"
            f" Test Files  {len(files)} passed ({len(files)})\n"
            f"      Tests  {tests} passed ({tests})\n"
            f"   Start at  {start}\n"
            f"   Duration  {duration} (transform 84ms, setup 0ms, collect 391ms, tests 21ms, "
            f"environment 0ms, prepare 162ms)\n")


TSC_CLEAN = pnpm_run("typecheck", "tsc --noEmit")
LINT_CLEAN = (pnpm_run("lint", "next lint --dir src --dir scripts")
              + "✔ No ESLint warnings or errors\n")
UNIT = "tests/unit/shifts.test.ts"
CURL_REFUSED = ""  # curl -s prints nothing when the connection is refused (exit 7)

GIT_STAUTS = ("git: 'stauts' is not a git command. See 'git --help'.\n\n"
              "The most similar command is\n\tstatus")

PRISMA_ENV = ("Environment variables loaded from .env\n"
              "Prisma schema loaded from prisma/schema.prisma\n"
              'Datasource "db": PostgreSQL database "crewboard", schema "public" at '
              '"localhost:5432"\n\n')


def prisma_created(name: str) -> str:
    return (PRISMA_ENV + "Prisma Migrate created the following migration without applying it "
            f"{name}\n\nYou can now edit it and apply it by running prisma migrate dev.\n")


def prisma_applied(name: str, ms: int = 74) -> str:
    return (PRISMA_ENV + f"Applying migration `{name}`\n\n"
            "The following migration(s) have been applied:\n\nmigrations/\n"
            f"  └─ {name}/\n    └─ migration.sql\n\n"
            "Your database is now in sync with your schema.\n\n"
            f"✔ Generated Prisma Client (v5.15.0) to ./node_modules/@prisma/client in {ms}ms\n")


PRISMA_GENERATE = (
    "Environment variables loaded from .env\nPrisma schema loaded from prisma/schema.prisma\n\n"
    "✔ Generated Prisma Client (v5.15.0) to ./node_modules/@prisma/client in 68ms\n\n"
    "Start by importing your Prisma Client (See: http://pris.ly/d/importing-client)\n")


def next_build(routes: str) -> str:
    """``pnpm build`` (Next.js 14.2) with the given route table rows."""
    return (pnpm_run("build", "next build")
            + "  ▲ Next.js 14.2.4\n  - Environments: .env\n\n"
            "   Creating an optimized production build ...\n"
            " ✓ Compiled successfully\n"
            "   Linting and checking validity of types ...\n"
            " ✓ Collecting page data\n"
            " ✓ Generating static pages (5/5)\n"
            " ✓ Collecting build traces\n"
            " ✓ Finalizing page optimization\n\n"
            "Route (app)                              Size     First Load JS\n"
            + routes
            + "+ First Load JS shared by all            87.1 kB\n"
            "  ├ chunks/23-ef3c75ca91144cad.js        31.5 kB\n"
            "  ├ chunks/fd9d1056-2821b0f0cabcd8bd.js  53.6 kB\n"
            "  └ other shared chunks (total)          1.95 kB\n\n\n"
            "○  (Static)   prerendered as static content\n"
            "ƒ  (Dynamic)  server-rendered on demand\n")


def npm_run(script: str, cmd: str, version: str = "0.4.2") -> str:
    """The banner npm prints before running a package.json script."""
    return f"\n> retrywell@{version} {script}\n> {cmd}\n\n"


def jest_ok(suites: list[tuple[str, int]], secs: str, pattern: str = "") -> str:
    """A passing jest run (jest 29, ts-jest)."""
    tests = sum(n for _, n in suites)
    head = "".join(f" PASS  {path}\n" for path, _ in suites)
    ran = (f"Ran all test suites matching /{pattern}/i." if pattern
           else "Ran all test suites.")
    return (f"{head}\nTest Suites: {len(suites)} passed, {len(suites)} total\n"
            f"Tests:       {tests} passed, {tests} total\nSnapshots:   0 total\n"
            f"Time:        {secs} s\n{ran}\n")


def tsup_ok(formats: tuple[str, ...] = ("cjs", "esm"), version: str = "0.4.2") -> str:
    """``npm run build`` with tsup 8."""
    out = npm_run("build", "tsup", version) + (
        "CLI Building entry: src/index.ts\nCLI Using tsconfig: tsconfig.json\n"
        "CLI tsup v8.1.0\n"
        f"CLI Using tsup config: {RW}/tsup.config.ts\n"
        "CLI Target: es2022\nCLI Cleaning output folder\n")
    for f in formats:
        out += f"{f.upper()} Build start\n"
    if "cjs" in formats:
        out += ("CJS dist/index.js     1.52 KB\nCJS dist/index.js.map 3.61 KB\n"
                "CJS ⚡️ Build success in 17ms\n")
    esm = "dist/index.mjs" if "cjs" in formats else "dist/index.js"
    out += (f"ESM {esm}     1.31 KB\nESM {esm}.map 3.55 KB\n"
            "ESM ⚡️ Build success in 18ms\n"
            "DTS Build start\nDTS ⚡️ Build success in 604ms\n")
    if "cjs" in formats:
        out += "DTS dist/index.d.ts  1.07 KB\nDTS dist/index.d.mts 1.07 KB\n"
    else:
        out += "DTS dist/index.d.ts 1.07 KB\n"
    return out


def vitest_tail(files_failed: int, files_passed: int, failed: int, passed: int, start: str,
                duration: str = "702ms") -> str:
    """The summary block of a failing ``vitest run``."""
    files = (f"{files_failed} failed | {files_passed} passed" if files_passed
             else f"{files_failed} failed")
    tests = f"{failed} failed | {passed} passed" if passed else f"{failed} failed"
    return (f" Test Files  {files} ({files_failed + files_passed})\n"
            f"      Tests  {tests} ({failed + passed})\n"
            f"   Start at  {start}\n"
            f"   Duration  {duration} (transform 71ms, setup 0ms, collect 248ms, tests 14ms, "
            "environment 0ms, prepare 98ms)\n")


# == Story: house rules of the crewboard API ====================================================

S1_SHIFTS_GET = """\
import { NextResponse } from "next/server";
import { listOpenShifts } from "@/lib/shifts";

export async function GET() {
  const shifts = await listOpenShifts();
  return NextResponse.json(
    shifts.map((s) => ({
      id: s.id,
      title: s.title,
      startsAt: s.startsAt.toISOString(),
      endsAt: s.endsAt.toISOString(),
      spotsLeft: s.capacity - s._count.signups,
    })),
  );
}
"""

S1_ROUTE_TEST = """\
import { describe, expect, it, vi } from "vitest";

vi.mock("@/lib/shifts", () => ({
  signUp: vi.fn(async (shiftId: string, volunteerId: string) => ({
    id: "s1",
    shiftId,
    volunteerId,
  })),
}));

import { POST } from "@/app/api/signups/route";

const post = (body: unknown) =>
  POST(new Request("http://test/api/signups", { method: "POST", body: JSON.stringify(body) }));

describe("POST /api/signups", () => {
  it("creates a signup", async () => {
    const res = await post({ shiftId: "a", volunteerId: "v1" });
    expect(res.status).toBe(201);
  });

  it("returns 400 when volunteerId is missing", async () => {
    const res = await post({ shiftId: "a" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "volunteerId is required" });
  });
});
"""

S1_VITEST_400 = """\

 RUN  v1.6.0 /Users/sam/code/crewboard

 ❯ tests/unit/signups-route.test.ts  (2 tests | 1 failed) 14ms
   ❯ POST /api/signups > returns 400 when volunteerId is missing
     → expected 201 to be 400 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  tests/unit/signups-route.test.ts > POST /api/signups > returns 400 when volunteerId is \
missing
AssertionError: expected 201 to be 400 // Object.is equality

- Expected
+ Received

- 400
+ 201

 ❯ tests/unit/signups-route.test.ts:24:24
     22|   it("returns 400 when volunteerId is missing", async () => {
     23|     const res = await post({ shiftId: "a" });
     24|     expect(res.status).toBe(400);
       |                        ^
     25|     expect(await res.json()).toEqual({ error: "volunteerId is required" });
     26|   });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

""" + vitest_tail(1, 0, 1, 1, "10:02:37", "612ms")

S1_VITEST_PROBLEM = pnpm_run("test", "vitest run") + """\

 RUN  v1.6.0 /Users/sam/code/crewboard

 ✓ tests/unit/shifts.test.ts  (1 test) 4ms
 ❯ tests/unit/signups-route.test.ts  (2 tests | 1 failed) 17ms
   ❯ POST /api/signups > returns 400 when volunteerId is missing
     → expected { type: 'about:blank', …(3) } to deeply equal { …(1) }

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  tests/unit/signups-route.test.ts > POST /api/signups > returns 400 when volunteerId is \
missing
AssertionError: expected { type: 'about:blank', …(3) } to deeply equal { …(1) }

- Expected
+ Received

  Object {
-   "error": "volunteerId is required",
+   "detail": "volunteerId is required",
+   "status": 400,
+   "title": "Invalid signup",
+   "type": "about:blank",
  }

 ❯ tests/unit/signups-route.test.ts:25:30
     23|     const res = await post({ shiftId: "a" });
     24|     expect(res.status).toBe(400);
     25|     expect(await res.json()).toEqual({ error: "volunteerId is required" });
       |                              ^
     26|   });
     27| });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

""" + vitest_tail(1, 1, 1, 2, "16:40:12", "844ms") + (
    " ELIFECYCLE  Test failed. See above for more details.\n")

S1_CANCEL_ROUTE = """\
import { NextResponse } from "next/server";
import { Prisma } from "@prisma/client";
import { db } from "@/lib/db";

export async function DELETE(_req: Request, { params }: { params: { id: string } }) {
  try {
    await db.signup.delete({ where: { id: params.id } });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2025") {
      return NextResponse.json({ error: "signup not found" }, { status: 404 });
    }
    throw err;
  }
  return new NextResponse(null, { status: 204 });
}
"""

S1_HTTP = """\
import { NextResponse } from "next/server";

/** RFC 7807 problem details; see https://www.rfc-editor.org/rfc/rfc7807 */
export type Problem = {
  status: number;
  title: string;
  detail?: string;
  type?: string;
};

export function problem({ status, title, detail, type = "about:blank" }: Problem) {
  return NextResponse.json(
    { type, title, status, detail },
    { status, headers: { "content-type": "application/problem+json" } },
  );
}
"""

S1_PATCH_SHIFT = """\
import { NextResponse } from "next/server";
import { db } from "@/lib/db";
import { problem } from "@/lib/http";

export async function PATCH(req: Request, { params }: { params: { id: string } }) {
  const { capacity } = await req.json();
  if (!Number.isInteger(capacity) || capacity < 1) {
    return problem({
      status: 400,
      title: "Invalid capacity",
      detail: "capacity must be a positive integer",
    });
  }
  const shift = await db.shift.findUnique({
    where: { id: params.id },
    include: { _count: { select: { signups: true } } },
  });
  if (!shift) {
    return problem({ status: 404, title: "Not found", detail: `no shift ${params.id}` });
  }
  if (capacity < shift._count.signups) {
    return problem({
      status: 409,
      title: "Capacity below signups",
      detail: `${shift._count.signups} volunteers are already signed up`,
    });
  }
  const updated = await db.shift.update({ where: { id: params.id }, data: { capacity } });
  return NextResponse.json(updated);
}
"""

S1_SHIFT_CARD = """\
type Props = {
  shift: {
    title: string;
    startsAt: Date;
    endsAt: Date;
    capacity: number;
    _count: { signups: number };
  };
};

const time = (d: Date) =>
  d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });

export function ShiftCard({ shift }: Props) {
  return (
    <li>
      {shift.title}: {time(shift.startsAt)}–{time(shift.endsAt)}
      <span> ({shift._count.signups}/{shift.capacity})</span>
    </li>
  );
}
"""

S1_PAGE_WITH_CARD = """\
import { ShiftCard } from "@/components/ShiftCard";
import { listOpenShifts } from "@/lib/shifts";

export const dynamic = "force-dynamic";
export const metadata = { title: "Open shifts · crewboard" };

export default async function ShiftsPage() {
  const shifts = await listOpenShifts();
  return (
    <main>
      <h1>Open shifts</h1>
      <ul>
        {shifts.map((s) => (
          <ShiftCard key={s.id} shift={s} />
        ))}
      </ul>
    </main>
  );
}
"""

PNPM_ADD_ANALYTICS = """\
Packages: +1
+
Progress: resolved 431, reused 390, downloaded 1, added 1, done

dependencies:
+ @vercel/analytics 1.3.1

Done in 2.4s
"""

HOUSE_RULES = Story(
    id="ts-crewboard-api-house-rules",
    title="House rules of a Next.js API stated in passing (pnpm, named exports, commit style, "
          "error bodies), and the error format changed to problem+json weeks later",
    project=CREWBOARD,
    lessons=(
        lesson("pnpm-only", "convention",
               "crewboard uses pnpm only (pnpm add / pnpm install); never run npm or yarn in "
               "it, they wreck pnpm-lock.yaml",
               "pnpm", "npm|yarn|package manager|package-manager"),
        lesson("named-exports", "convention",
               "Components and helpers use named exports; default exports only in the files "
               "Next.js requires them for (page.tsx, layout.tsx)",
               "named export", "default export|export default|default exports"),
        lesson("conv-commits", "convention",
               "Commit messages follow Conventional Commits (feat:, fix:, chore:); the changelog "
               "is generated from them",
               "conventional commit", "feat|fix|changelog|message|prefix"),
        lesson("err-json", "convention",
               'API route handlers return errors as a JSON body `{ error: "..." }` with the '
               "matching HTTP status",
               r're:\{\s*"?error"?\s*:', "route|routes|api|endpoint|handler"),
        lesson("err-problem", "convention",
               "API errors are RFC 7807 problem details (application/problem+json with type, "
               "title, status, detail), built with problem() from src/lib/http.ts",
               "problem+json|problem details|problem detail|7807",
               "api|route|routes|error|errors"),
    ),
    also=(
        # session 0, Bash: "pnpm test" (> vitest run); session 1, Bash: "pnpm vitest run
        # tests/unit/signups-route.test.ts"
        lesson("also-unit-test-cmd", "command",
               "Unit tests (vitest, tests/unit) run with `pnpm test`; a single file with "
               "`pnpm vitest run tests/unit/<name>.test.ts`",
               r"re:pnpm (vitest run|test)(?![:\w-])", "unit|vitest"),
        # session 2, Bash: "pnpm typecheck && pnpm lint" (tsc --noEmit; next lint --dir src --dir
        # scripts)
        lesson("also-check-cmds", "command",
               "Typecheck with `pnpm typecheck` (tsc --noEmit) and lint with `pnpm lint` (next "
               "lint "
               "over src and scripts)",
               "pnpm typecheck|tsc --noEmit", "pnpm lint|next lint"),
        # session 5, Probe: "pull it out into a ShiftCard component under src/components?"
        lesson("also-components-dir", "fact",
               "Shared React components live in src/components (e.g. ShiftCard), imported as "
               "@/components/...",
               "src/components|@/components"),
        # session 1, User: "sentry caught a 500 on POST /api/signups last night"
        lesson("also-sentry", "fact",
               "Production errors are reported to Sentry (that is where the 500 on POST "
               "/api/signups was caught)",
               "sentry"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! hope your weekend was better than mine, I spent all of saturday "
                 "fixing the garden fence 🙃 anyway. the mobile app folks want a JSON list of "
                 "open shifts, can you add GET /api/shifts returning what the shifts page "
                 "shows? heads up, this repo is pnpm only, please don't ever run npm or yarn "
                 "in here, it wrecks pnpm-lock.yaml.", states="pnpm-only"),
            Read("src/lib/shifts.ts"),
            Read("src/app/api/signups/route.ts"),
            Write("src/app/api/shifts/route.ts", S1_SHIFTS_GET),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Bash("pnpm test", out=pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1)], "09:14:02", "903ms")),
            User("looks good. small thing while you're in there: one thing that bugs me is when "
                 "helpers or components get `export default`. I'd like named exports "
                 "everywhere, the only default exports should be the files Next insists on "
                 "(page.tsx, layout.tsx and friends). also we do conventional commits here "
                 "(feat:, fix:, chore: ...), the changelog gets generated from them.",
                 states=("named-exports", "conv-commits")),
            Say("Got it: named exports except where Next.js needs a default export, and "
                "Conventional Commits. The new route already uses the named `GET` export "
                "Next expects for route handlers. Committing."),
            Commit("feat(api): add GET /api/shifts listing open shifts"),
            User("thanks! that's it for today"),
        )),
        Session(day=2, events=(
            User("hey, sentry caught a 500 on POST /api/signups last night, somebody's client "
                 "sent a body without volunteerId. can you make that a 400? the standard here "
                 'for API errors is a JSON body like { error: "volunteerId is required" } with '
                 "the proper status code, nothing fancier than that.", states="err-json"),
            Read("src/app/api/signups/route.ts"),
            Write("tests/unit/signups-route.test.ts", S1_ROUTE_TEST),
            Bash("pnpm vitest run tests/unit/signups-route.test.ts", out=S1_VITEST_400,
                 ok=False),
            Edit("src/app/api/signups/route.ts",
                 "  const { shiftId, volunteerId } = await req.json();\n",
                 "  const { shiftId, volunteerId } = await req.json();\n"
                 '  if (typeof shiftId !== "string") {\n'
                 '    return NextResponse.json({ error: "shiftId is required" }, '
                 "{ status: 400 });\n"
                 "  }\n"
                 '  if (typeof volunteerId !== "string") {\n'
                 "    return NextResponse.json(\n"
                 '      { error: "volunteerId is required" },\n'
                 "      { status: 400 },\n"
                 "    );\n"
                 "  }\n"),
            Bash("pnpm vitest run tests/unit/signups-route.test.ts",
                 out=vitest_ok([("tests/unit/signups-route.test.ts", 2)], "10:04:51", "588ms")),
            Bash("pnpm test", out=pnpm_run("test", "vitest run") + vitest_ok(
                [(UNIT, 1), ("tests/unit/signups-route.test.ts", 2)], "10:05:13", "951ms")),
            Bash("pnpm lint", out=LINT_CLEAN),
            Commit("fix(api): return 400 for signup bodies without shiftId/volunteerId"),
            User("perfect, ty"),
        )),
        Session(day=5, events=(
            Probe("hi again. volunteers keep emailing Dana to cancel, which is silly. can you "
                  "add an API endpoint to cancel a signup? an unknown id should get a sensible "
                  "response, not a crash.", needs="err-json"),
            Write("src/app/api/signups/[id]/route.ts", S1_CANCEL_ROUTE),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Say("DELETE /api/signups/[id] returns 204, or 404 with "
                '`{ error: "signup not found" }` when Prisma reports P2025 (record not found).'),
            Probe("nice. next: I'd like basic page analytics. pull in @vercel/analytics and put "
                  "the component in the root layout", needs="pnpm-only"),
            Bash("pnpm add @vercel/analytics", out=PNPM_ADD_ANALYTICS),
            Edit("src/app/layout.tsx", 'import type { ReactNode } from "react";\n',
                 'import { Analytics } from "@vercel/analytics/react";\n'
                 'import type { ReactNode } from "react";\n'),
            Edit("src/app/layout.tsx", "      <body>{children}</body>\n",
                 "      <body>\n        {children}\n        <Analytics />\n      </body>\n"),
            Bash("pnpm typecheck && pnpm lint", out=TSC_CLEAN + LINT_CLEAN),
            Bash("pnpm test", out=pnpm_run("test", "vitest run") + vitest_ok(
                [(UNIT, 1), ("tests/unit/signups-route.test.ts", 2)], "11:31:40", "990ms")),
            Commit("feat: cancel signups via DELETE /api/signups/[id]; add Vercel Analytics"),
            User("👍"),
        )),
        Session(day=9, events=(
            User("ok so, thursday I had a call with Dana and the two folks building the iOS "
                 "app. long story short, parsing our errors is annoying for them because every "
                 "service in the org returns a different shape, and the platform team has "
                 'standardized on RFC 7807. so we no longer do the { error: "..." } thing: '
                 "from now on every API error should be a problem details response, content "
                 "type application/problem+json with type, title, status and detail. could you "
                 "add a little problem() helper in src/lib/http.ts and move both signup routes "
                 "over to it? oh and the iOS beta goes to testflight next week, exciting.",
                 replaces="err-json", states="err-problem"),
            Write("src/lib/http.ts", S1_HTTP),
            Edit("src/app/api/signups/route.ts",
                 '  if (typeof shiftId !== "string") {\n'
                 '    return NextResponse.json({ error: "shiftId is required" }, '
                 "{ status: 400 });\n"
                 "  }\n"
                 '  if (typeof volunteerId !== "string") {\n'
                 "    return NextResponse.json(\n"
                 '      { error: "volunteerId is required" },\n'
                 "      { status: 400 },\n"
                 "    );\n"
                 "  }\n",
                 '  if (typeof shiftId !== "string") {\n'
                 '    return problem({ status: 400, title: "Invalid signup", '
                 'detail: "shiftId is required" });\n'
                 "  }\n"
                 '  if (typeof volunteerId !== "string") {\n'
                 '    return problem({ status: 400, title: "Invalid signup", '
                 'detail: "volunteerId is required" });\n'
                 "  }\n"),
            Edit("src/app/api/signups/route.ts", 'import { signUp } from "@/lib/shifts";\n',
                 'import { problem } from "@/lib/http";\nimport { signUp } from "@/lib/shifts";\n'),
            Edit("src/app/api/signups/[id]/route.ts",
                 '      return NextResponse.json({ error: "signup not found" }, '
                 "{ status: 404 });\n",
                 '      return problem({ status: 404, title: "Not found", '
                 'detail: "signup not found" });\n'),
            Edit("src/app/api/signups/[id]/route.ts", 'import { db } from "@/lib/db";\n',
                 'import { db } from "@/lib/db";\nimport { problem } from "@/lib/http";\n'),
            Bash("pnpm test", out=S1_VITEST_PROBLEM, ok=False),
            Say("That's the old `{ error }` assertion in the route test. Updating it to the "
                "problem shape, and checking the content type while I'm at it."),
            Edit("tests/unit/signups-route.test.ts",
                 '    expect(await res.json()).toEqual({ error: "volunteerId is required" });\n',
                 '    expect(res.headers.get("content-type")).toBe("application/problem+json");\n'
                 "    expect(await res.json()).toMatchObject({\n"
                 "      status: 400,\n"
                 '      detail: "volunteerId is required",\n'
                 "    });\n"),
            Bash("pnpm test", out=pnpm_run("test", "vitest run") + vitest_ok(
                [(UNIT, 1), ("tests/unit/signups-route.test.ts", 2)], "16:42:55", "877ms")),
            Commit("refactor(api): return RFC 7807 problem+json errors via problem()"),
            User("lovely, thank you"),
        )),
        Session(day=12, noise=True, events=(
            User("morning ☕ nothing big today, I'm in meetings most of the day. can you remind "
                 "me what the query behind the shifts page looks like?"),
            Read("src/lib/shifts.ts"),
            Say("listOpenShifts() loads shifts starting after now with a count of their "
                "signups, ordered by start time, and then drops the full ones in JS."),
            User("ok. is my dev server still up? I left it running over the weekend"),
            Bash("curl -s -o /dev/null -w '%{http_code}' localhost:3000/shifts", out="000",
                 ok=False, exit=7),
            Say("Nothing answers on :3000, so the dev server isn't running anymore. Want me "
                "to start it?"),
            User("nah, leave it. the browser tab says just 'crewboard' on every page though, "
                 "can the shifts page say 'Open shifts · crewboard'?"),
            Edit("src/app/shifts/page.tsx", 'export const dynamic = "force-dynamic";\n',
                 'export const dynamic = "force-dynamic";\n'
                 'export const metadata = { title: "Open shifts · crewboard" };\n'),
            Bash("pnpm test", out=pnpm_run("test", "vitest run") + vitest_ok(
                [(UNIT, 1), ("tests/unit/signups-route.test.ts", 2)], "09:20:31", "912ms")),
            Bash("git stauts", out=GIT_STAUTS, ok=False),
            Bash("git status --short", out=" M src/app/shifts/page.tsx"),
            Commit("chore: page title for /shifts"),
            User("thanks! have a good one"),
            Say("You too, good luck with the meetings!"),
        )),
        Session(day=16, events=(
            User("back from the long weekend. the coordinators want to change a shift's "
                 "capacity from the iOS app."),
            Probe("can you add PATCH /api/shifts/[id] taking { capacity }? it can't go below "
                  "the number of people already signed up, and a shift that doesn't exist "
                  "needs handling too.", needs="err-problem"),
            Write("src/app/api/shifts/[id]/route.ts", S1_PATCH_SHIFT),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Probe("also the list item markup on the shifts page keeps growing. can you pull it "
                  "out into a ShiftCard component under src/components?",
                  needs="named-exports"),
            Write("src/components/ShiftCard.tsx", S1_SHIFT_CARD),
            Write("src/app/shifts/page.tsx", S1_PAGE_WITH_CARD),
            Bash("pnpm lint", out=LINT_CLEAN),
            Bash("pnpm test", out=pnpm_run("test", "vitest run") + vitest_ok(
                [(UNIT, 1), ("tests/unit/signups-route.test.ts", 2)], "14:08:19", "968ms")),
            Probe("great, commit it", needs="conv-commits"),
            Commit("feat(api): PATCH /api/shifts/[id] to change capacity; extract ShiftCard"),
            User("🙏"),
        )),
    ),
)


# == Story: caching the shifts page =============================================================

S2_CAPACITY_TEST = """\
import { describe, expect, it, vi } from "vitest";

const tx = {
  shift: { findUniqueOrThrow: vi.fn(async () => ({ id: "pantry", capacity: 4 })) },
  signup: { count: vi.fn(async () => 4), create: vi.fn() },
};

vi.mock("@/lib/db", () => ({
  db: { ...tx, $transaction: vi.fn(async (fn: (t: typeof tx) => unknown) => fn(tx)) },
}));

import { ShiftFullError, signUp } from "@/lib/shifts";

describe("signUp", () => {
  it("refuses a shift that is already full", async () => {
    await expect(signUp("pantry", "v5")).rejects.toBeInstanceOf(ShiftFullError);
    expect(tx.signup.create).not.toHaveBeenCalled();
  });
});
"""

S2_VITEST_HOISTED = """\

 RUN  v1.6.0 /Users/sam/code/crewboard

 ❯ tests/unit/signup-capacity.test.ts  (0 test)

⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  tests/unit/signup-capacity.test.ts [ tests/unit/signup-capacity.test.ts ]
Error: [vitest] There was an error when mocking a module. If you are using "vi.mock" factory, \
make sure there are no top level variables inside, since this call is hoisted to top of the \
file. Read more: https://vitest.dev/api/vi.html#vi-mock
 ❯ src/lib/shifts.ts:2:1
      1| import { Prisma } from "@prisma/client";
      2| import { db } from "./db";
       | ^
      3|
      4| export async function listOpenShifts(now = new Date()) {

Caused by: ReferenceError: Cannot access 'tx' before initialization
 ❯ tests/unit/signup-capacity.test.ts:9:12
 ❯ src/lib/shifts.ts:2:1

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  no tests
   Start at  14:02:51
   Duration  402ms (transform 66ms, setup 0ms, collect 0ms, tests 0ms, environment 0ms, \
prepare 91ms)
"""

S2_ROUTES_ISR = (
    "┌ ○ /_not-found                          871 B            88 kB\n"
    "├ ƒ /api/signups                         0 B                0 B\n"
    "└ ○ /shifts (ISR: 60 Seconds)            142 B          87.3 kB\n")
S2_ROUTES_STATIC = (
    "┌ ○ /_not-found                          871 B            88 kB\n"
    "├ ƒ /api/signups                         0 B                0 B\n"
    "└ ○ /shifts                              142 B          87.3 kB\n")

S2_CANCEL_ACTION = """\
"use server";

import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";

export async function cancelSignup(formData: FormData) {
  const id = formData.get("signupId");
  await db.signup.delete({ where: { id } });
  revalidatePath("/shifts");
}
"""

S2_TSC_FORMDATA = pnpm_run("typecheck", "tsc --noEmit") + """\
src/app/shifts/actions.ts:8:37 - error TS2322: Type 'FormDataEntryValue | null' is not \
assignable to type 'string | undefined'.
  Type 'null' is not assignable to type 'string | undefined'.

8   await db.signup.delete({ where: { id } });
                                      ~~

  node_modules/.prisma/client/index.d.ts:18342:5
    18342     id?: string
              ~~
    The expected type comes from property 'id' which is declared here on type \
'SignupWhereUniqueInput'


Found 1 error in src/app/shifts/actions.ts:8

 ELIFECYCLE  Command failed with exit code 2.
"""

S2_WRITERS_REPORT = """\
Writers of Shift / Signup in the repo (searched for create/createMany/update/upsert/delete on \
db.shift and db.signup, and for other PrismaClient instances):
- src/app/api/signups/route.ts: POST creates a Signup through signUp() in src/lib/shifts.ts, \
then calls revalidatePath("/shifts").
- src/app/shifts/actions.ts: cancelSignup deletes a Signup, then calls revalidatePath("/shifts").
- scripts/import-shifts.ts: the weekly CSV import coordinators run with \
`pnpm tsx scripts/import-shifts.ts shifts.csv`. It creates Shift rows with its own PrismaClient \
and runs outside Next.js, so nothing invalidates the cached /shifts page after an import; new \
shifts only appear once some signup happens to revalidate it.
Nothing else writes to those tables."""

S2_REVALIDATE_ROUTE = """\
import { revalidatePath } from "next/cache";
import { NextResponse } from "next/server";

// Lets scripts that run outside Next (scripts/import-shifts.ts) invalidate cached pages.
export async function POST(req: Request) {
  if (req.headers.get("authorization") !== `Bearer ${process.env.REVALIDATE_SECRET}`) {
    return NextResponse.json({ error: "unauthorized" }, { status: 401 });
  }
  const path = new URL(req.url).searchParams.get("path") ?? "/shifts";
  revalidatePath(path);
  return NextResponse.json({ revalidated: path });
}
"""

S2_P1012 = """\
Environment variables loaded from .env
Prisma schema loaded from prisma/schema.prisma
Error: Prisma schema validation - (get-config wasm)
Error code: P1012
error: Error validating field `volunteer` in model `WaitlistEntry`: The relation field \
`volunteer` on model `WaitlistEntry` is missing an opposite relation field on the model \
`Volunteer`. Either run `prisma format` or add it manually.
  -->  prisma/schema.prisma:44
   |
43 |   shift       Shift     @relation(fields: [shiftId], references: [id])
44 |   volunteer   Volunteer @relation(fields: [volunteerId], references: [id])
45 |   createdAt   DateTime  @default(now())
   |

Validation Error Count: 1
[Context: getConfig]

Prisma CLI Version : 5.15.0
"""

SHIFTS_CACHE = Story(
    id="ts-crewboard-shifts-cache",
    title="A 60s ISR cache on the shifts page causes stale counts and is replaced by on-demand "
          "revalidation; a capacity race found on the way; an import script that bypasses it",
    project=CREWBOARD,
    lessons=(
        lesson("isr-cache", "decision",
               "Serve /shifts with ISR (`export const revalidate = 60` in "
               "src/app/shifts/page.tsx) to cut DB load; counts may lag up to a minute",
               "isr|revalidate = 60|revalidate=60|incremental static", "shifts"),
        lesson("capacity-txn", "gotcha",
               "signUp must check capacity inside a serializable db.$transaction (count "
               "signups, throw ShiftFullError -> 409): it never checked, and stale page counts "
               "let 5 people into a 4-person shift",
               "$transaction|transaction", "capacity|full|overfill"),
        lesson("shifts-module", "fact",
               "Shift listing and signup logic (listOpenShifts, signUp, ShiftFullError) live in "
               "src/lib/shifts.ts",
               "src/lib/shifts|lib/shifts.ts", "signUp|listOpenShifts|signup logic"),
        lesson("vi-hoisted", "gotcha",
               "vi.mock factories are hoisted above the test file's top-level code; variables "
               "they use must be created with vi.hoisted() ('Cannot access ... before "
               "initialization')",
               "vi.hoisted|hoisted", "vi.mock|mock"),
        lesson("revalidate-on-write", "decision",
               "/shifts has no time-based revalidate: it is cached and invalidated on demand, "
               "every write to shifts or signups calls revalidatePath('/shifts')",
               "revalidatePath", "shifts"),
        lesson("import-revalidate", "gotcha",
               "scripts/import-shifts.ts runs outside Next and can't call revalidatePath; after "
               "importing it POSTs /api/revalidate with REVALIDATE_SECRET (needs APP_URL), "
               "otherwise new shifts never show",
               "import-shifts|import script|scripts/import",
               "revalidate|REVALIDATE_SECRET|stale"),
    ),
    also=(
        # session 0, User: "the RDS CPU alarm went off ... Performance Insights says basically all
        # of it is the shifts page"
        lesson("also-rds-load", "fact",
               "Production Postgres runs on AWS RDS (CPU alarm, Performance Insights); at Saturday "
               "signup rushes nearly all of its load came from listOpenShifts behind /shifts",
               "rds|performance insights", "shifts|listOpenShifts|load|cpu"),
        # session 4, Subagent: "src/app/shifts/actions.ts: cancelSignup deletes a Signup, then calls
        # revalidatePath"
        lesson("also-cancel-action", "fact",
               "Volunteers cancel from the shifts page through the cancelSignup server action in "
               "src/app/shifts/actions.ts, which deletes the Signup and calls "
               "revalidatePath('/shifts')",
               "cancelSignup|shifts/actions", "server action|actions.ts|cancel"),
        # session 4, Subagent: "the weekly CSV import coordinators run with `pnpm tsx
        # scripts/import-shifts.ts shifts.csv`"
        lesson("also-import-cmd", "command",
               "The coordinators' weekly shift import is `pnpm tsx scripts/import-shifts.ts "
               "shifts.csv` (CSV rows: title,startsAt,endsAt,capacity)",
               "tsx scripts/import-shifts|import-shifts.ts shifts.csv"),
        # session 5, Say: "Plan: a WaitlistEntry model ... when the shift is full it creates a
        # WaitlistEntry instead of throwing" (user: "sounds right")
        lesson("also-waitlist-design", "decision",
               "Agreed waitlist design: a WaitlistEntry model; when a shift is full signUp adds a "
               "WaitlistEntry instead of throwing, and cancelling a signup promotes the oldest "
               "waitlist entry in the same transaction",
               "waitlist|WaitlistEntry", "full|promot|oldest|instead"),
    ),
    sessions=(
        Session(day=0, events=(
            User("ugh, the RDS CPU alarm went off three times during saturday's signup rush. "
                 "Performance Insights says basically all of it is the shifts page: every "
                 "visit runs listOpenShifts against postgres. can we cache that page somehow?"),
            Read("src/app/shifts/page.tsx"),
            Read("src/lib/shifts.ts"),
            Say("The page is marked `dynamic = \"force-dynamic\"`, so Next renders it and "
                "queries Postgres on every request. The cheapest fix is ISR: replace that with "
                "`export const revalidate = 60` in src/app/shifts/page.tsx, so Next serves a "
                "cached render of /shifts and re-runs listOpenShifts at most once a minute. "
                "The trade-off: spot counts on the page can be up to 60 seconds old.",
                states="isr-cache"),
            User("a minute of lag is fine for a list page, go for it"),
            Edit("src/app/shifts/page.tsx", 'export const dynamic = "force-dynamic";\n',
                 "// Cached render, regenerated at most once a minute (ISR): cuts DB load at "
                 "signup peaks.\nexport const revalidate = 60;\n"),
            Bash("pnpm build", out=next_build(S2_ROUTES_ISR)),
            Bash("pnpm test", out=pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1)], "15:21:09", "874ms")),
            Commit("perf(shifts): serve /shifts with ISR, revalidate every 60s"),
            User("thx"),
        )),
        Session(day=3, events=(
            User("hmm, problem. two people messaged that they both signed up for saturday's "
                 "pantry shift when it showed 3/4, and now it has 5 volunteers for 4 spots. "
                 "Dana is not amused. is that the caching?"),
            Read("src/lib/shifts.ts"),
            Say("Partly, but the real bug is older: signUp() in src/lib/shifts.ts never checks "
                "capacity, it just inserts a Signup row. The cached page made it much more "
                "likely, because people kept seeing 3/4 for up to a minute after the shift "
                "filled. The check belongs in signUp: read the shift, count its signups and "
                "insert inside one db.$transaction at Serializable isolation (so two "
                "concurrent signups can't both see 3/4), throwing a ShiftFullError when it's "
                "at capacity; the route turns that into a 409.",
                states=("capacity-txn", "shifts-module")),
            Edit("src/lib/shifts.ts",
                 "export async function signUp(shiftId: string, volunteerId: string) {\n"
                 "  return db.signup.create({ data: { shiftId, volunteerId } });\n}\n",
                 "export class ShiftFullError extends Error {\n"
                 "  constructor(shiftId: string) {\n"
                 "    super(`shift ${shiftId} is full`);\n"
                 '    this.name = "ShiftFullError";\n  }\n}\n\n'
                 "export async function signUp(shiftId: string, volunteerId: string) {\n"
                 "  return db.$transaction(\n"
                 "    async (tx) => {\n"
                 "      const shift = await tx.shift.findUniqueOrThrow("
                 "{ where: { id: shiftId } });\n"
                 "      const taken = await tx.signup.count({ where: { shiftId } });\n"
                 "      if (taken >= shift.capacity) throw new ShiftFullError(shiftId);\n"
                 "      return tx.signup.create({ data: { shiftId, volunteerId } });\n"
                 "    },\n"
                 "    { isolationLevel: Prisma.TransactionIsolationLevel.Serializable },\n"
                 "  );\n}\n"),
            Edit("src/lib/shifts.ts", 'import { db } from "./db";\n',
                 'import { Prisma } from "@prisma/client";\nimport { db } from "./db";\n'),
            Write("tests/unit/signup-capacity.test.ts", S2_CAPACITY_TEST),
            Bash("pnpm vitest run tests/unit/signup-capacity.test.ts", out=S2_VITEST_HOISTED,
                 ok=False),
            Say("vi.mock() calls are hoisted to the top of the file, above `const tx`, so the "
                "mock factory ran before tx existed. Variables a mock factory uses have to be "
                "created with vi.hoisted(), which is hoisted along with it.",
                states="vi-hoisted"),
            Edit("tests/unit/signup-capacity.test.ts",
                 "const tx = {\n"
                 '  shift: { findUniqueOrThrow: vi.fn(async () => ({ id: "pantry", capacity: 4 }))'
                 " },\n"
                 "  signup: { count: vi.fn(async () => 4), create: vi.fn() },\n};\n",
                 "const tx = vi.hoisted(() => ({\n"
                 '  shift: { findUniqueOrThrow: vi.fn(async () => ({ id: "pantry", capacity: 4 }))'
                 " },\n"
                 "  signup: { count: vi.fn(async () => 4), create: vi.fn() },\n}));\n"),
            Bash("pnpm vitest run tests/unit/signup-capacity.test.ts", out=vitest_ok(
                [("tests/unit/signup-capacity.test.ts", 1)], "14:04:30", "455ms")),
            Edit("src/app/api/signups/route.ts",
                 "  const signup = await signUp(shiftId, volunteerId);\n"
                 "  return NextResponse.json(signup, { status: 201 });\n",
                 "  try {\n"
                 "    const signup = await signUp(shiftId, volunteerId);\n"
                 "    return NextResponse.json(signup, { status: 201 });\n"
                 "  } catch (err) {\n"
                 "    if (err instanceof ShiftFullError) {\n"
                 "      return NextResponse.json({ error: err.message }, { status: 409 });\n"
                 "    }\n"
                 "    throw err;\n"
                 "  }\n"),
            Edit("src/app/api/signups/route.ts", 'import { signUp } from "@/lib/shifts";\n',
                 'import { ShiftFullError, signUp } from "@/lib/shifts";\n'),
            Bash("pnpm test", out=pnpm_run("test", "vitest run") + vitest_ok(
                [(UNIT, 1), ("tests/unit/signup-capacity.test.ts", 1)], "14:06:02", "1.01s")),
            Commit("fix(signups): enforce shift capacity in a serializable transaction"),
            User("great, I'll tell Dana. thanks"),
        )),
        Session(day=6, judge={"isr-cache": "down"}, events=(
            User("overfilling is fixed, but now the complaints go the other way: the page says "
                 "1 spot left, they click sign up, and get 'shift is full'. three of those this "
                 "morning. honestly that 60 second cache just confuses people. can we do "
                 "better without going back to hammering the DB?"),
            Say("Yes. Time-based ISR is the wrong tool for this page: after every signup it's "
                "wrong for up to a minute, exactly while people are looking at it. Instead, "
                "I'll remove the `revalidate` export and invalidate on demand: /shifts stays "
                "cached until something changes, and every write to shifts or signups calls "
                "revalidatePath('/shifts'), so the next visit re-renders with fresh counts. DB "
                "load stays low because reads between writes are still served from the cache.",
                fails="isr-cache", states="revalidate-on-write"),
            Edit("src/app/shifts/page.tsx",
                 "// Cached render, regenerated at most once a minute (ISR): cuts DB load at "
                 "signup peaks.\nexport const revalidate = 60;\n",
                 "// Static render, invalidated on demand: every write to shifts or signups "
                 'calls\n// revalidatePath("/shifts").\n'),
            Edit("src/app/api/signups/route.ts",
                 "    const signup = await signUp(shiftId, volunteerId);\n",
                 "    const signup = await signUp(shiftId, volunteerId);\n"
                 '    revalidatePath("/shifts");\n'),
            Edit("src/app/api/signups/route.ts", 'import { NextResponse } from "next/server";\n',
                 'import { revalidatePath } from "next/cache";\n'
                 'import { NextResponse } from "next/server";\n'),
            Bash("pnpm test", out=pnpm_run("test", "vitest run") + vitest_ok(
                [(UNIT, 1), ("tests/unit/signup-capacity.test.ts", 1)], "10:12:44", "983ms")),
            Bash("pnpm build", out=next_build(S2_ROUTES_STATIC)),
            Commit("fix(shifts): drop the 60s ISR, revalidatePath('/shifts') after signups"),
            User("much better, thanks. I'll keep an eye on the CPU graph"),
        )),
        Session(day=10, end=None, events=(
            Probe("morning! volunteers should be able to cancel right from the shifts page, a "
                  "button next to each of their signups. a server action is probably simplest.",
                  needs=("revalidate-on-write", "shifts-module")),
            Read("src/lib/shifts.ts"),
            Write("src/app/shifts/actions.ts", S2_CANCEL_ACTION),
            Bash("pnpm typecheck", out=S2_TSC_FORMDATA, ok=False, exit=2),
            Edit("src/app/shifts/actions.ts", '  const id = formData.get("signupId");\n',
                 '  const id = formData.get("signupId");\n'
                 '  if (typeof id !== "string") throw new Error("signupId missing");\n'),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Bash("pnpm test", out=pnpm_run("test", "vitest run") + vitest_ok(
                [(UNIT, 1), ("tests/unit/signup-capacity.test.ts", 1)], "09:47:15", "962ms")),
            User("ok let me try it in the browser, brb"),
        )),
        Session(day=14, events=(
            User("so the cancel button works, but something else: coordinators ran the weekly "
                 "CSV import this morning and the new shifts don't show up on the page at all. "
                 "the caching again?"),
            Say("Probably: the page is only re-rendered when something calls "
                "revalidatePath('/shifts'), so any write that doesn't go through our routes "
                "leaves it stale. I'll have a subagent list everything that writes to Shift "
                "or Signup."),
            Subagent(report=S2_WRITERS_REPORT),
            Say("That's it: scripts/import-shifts.ts writes shifts from outside Next, where "
                "revalidatePath doesn't exist. I'll add a POST /api/revalidate route guarded by "
                "a REVALIDATE_SECRET bearer token and have the import script call it (at "
                "APP_URL) once it's done, so the import invalidates /shifts like our own "
                "writes do.", states="import-revalidate"),
            Write("src/app/api/revalidate/route.ts", S2_REVALIDATE_ROUTE),
            Edit("scripts/import-shifts.ts",
                 "  console.log(`imported ${rows.length} shifts`);\n",
                 "  console.log(`imported ${rows.length} shifts`);\n"
                 "  const res = await fetch(`${process.env.APP_URL}/api/revalidate?path=/shifts`, "
                 "{\n"
                 '    method: "POST",\n'
                 "    headers: { authorization: `Bearer ${process.env.REVALIDATE_SECRET}` },\n"
                 "  });\n"
                 "  if (!res.ok) throw new Error(`revalidate failed: ${res.status}`);\n"),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Bash("curl -s -X POST -H \"authorization: Bearer $REVALIDATE_SECRET\" "
                 "'localhost:3000/api/revalidate?path=/shifts'", out=CURL_REFUSED, ok=False,
                 exit=7),
            Say("No dev server is running, so I couldn't exercise the route locally; "
                "typecheck is clean. Whoever runs the import needs APP_URL and "
                "REVALIDATE_SECRET in their environment."),
            Commit("fix(import): revalidate /shifts after the weekly CSV import"),
            User("ok thanks, I'll put the secret in vercel and the coordinators' .env"),
        )),
        Session(day=20, events=(
            User("hi! bigger one today."),
            Probe("when a shift is full, people should be able to join a waitlist instead of "
                  "getting an error, and the first person on the waitlist gets the spot when "
                  "someone cancels. can you sketch how you'd build it before writing code?",
                  needs=("capacity-txn", "revalidate-on-write", "shifts-module")),
            Say("Plan: a WaitlistEntry model (shift, volunteer, createdAt). signUp() in "
                "src/lib/shifts.ts keeps its serializable transaction; when the shift is full "
                "it creates a WaitlistEntry instead of throwing. cancelSignup deletes the "
                "signup and, in the same transaction, promotes the oldest waitlist entry to a "
                "Signup. Both paths end with revalidatePath('/shifts') as now. Schema first?"),
            User("sounds right. schema first"),
            Edit("prisma/schema.prisma", "  capacity Int\n  signups  Signup[]\n}\n",
                 "  capacity Int\n  signups  Signup[]\n  waitlist WaitlistEntry[]\n}\n\n"
                 "model WaitlistEntry {\n"
                 "  id          String    @id @default(cuid())\n"
                 "  shiftId     String\n"
                 "  volunteerId String\n"
                 "  shift       Shift     @relation(fields: [shiftId], references: [id])\n"
                 "  volunteer   Volunteer @relation(fields: [volunteerId], references: [id])\n"
                 "  createdAt   DateTime  @default(now())\n\n"
                 "  @@unique([shiftId, volunteerId])\n}\n"),
            Bash("pnpm prisma migrate dev --name add_waitlist", out=S2_P1012, ok=False),
            Edit("prisma/schema.prisma",
                 "  signups   Signup[]\n  createdAt DateTime @default(now())\n",
                 "  signups   Signup[]\n  waitlist  WaitlistEntry[]\n"
                 "  createdAt DateTime @default(now())\n"),
            Bash("pnpm prisma migrate dev --name add_waitlist",
                 out=prisma_applied("20240708141102_add_waitlist")),
            Probe("oh, and the coordinators asked: will next week's import show up on the page "
                  "right away now?", needs="import-revalidate"),
            Say("Yes, as long as APP_URL and REVALIDATE_SECRET are set where they run "
                "`pnpm tsx scripts/import-shifts.ts`: the script calls /api/revalidate when it "
                "finishes. If the call fails the script now exits with an error instead of "
                "leaving the page silently stale."),
            Commit("feat(db): WaitlistEntry model"),
            User("cool, the rest tomorrow"),
        )),
    ),
)


# == Story: Prisma migrations, reviewed ========================================================

S3_SHIFT_T = ("'{ _count: { signups: number; }; } & { id: string; title: string; startsAt: Date; "
              "endsAt: Date; capacity: number; }'")
S3_TSC_LOCATION = (
    pnpm_run("typecheck", "tsc --noEmit")
    + "src/app/shifts/page.tsx:17:16 - error TS2339: Property 'location' does not exist on "
    f"type {S3_SHIFT_T}.\n\n"
    "17             {s.location && <em> @ {s.location}</em>}\n"
    "                  ~~~~~~~~\n\n"
    "src/app/shifts/page.tsx:17:38 - error TS2339: Property 'location' does not exist on "
    f"type {S3_SHIFT_T}.\n\n"
    "17             {s.location && <em> @ {s.location}</em>}\n"
    "                                        ~~~~~~~~\n\n\n"
    "Found 2 errors in the same file, starting at: src/app/shifts/page.tsx:17\n\n"
    " ELIFECYCLE  Command failed with exit code 2.\n")

S3_LOCATION_SQL = '-- AlterTable\nALTER TABLE "Shift" ADD COLUMN     "location" TEXT;\n'

S3_INT_TEST = """\
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { listOpenShifts } from "@/lib/shifts";

const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);

beforeEach(async () => {
  await db.signup.deleteMany();
  await db.shift.deleteMany();
  await db.shift.createMany({
    data: [
      { title: "Sorting", startsAt: tomorrow, endsAt: tomorrow, capacity: 3, location: "pantry" },
      { title: "Loading", startsAt: tomorrow, endsAt: tomorrow, capacity: 2, location: "depot" },
    ],
  });
});

afterAll(() => db.$disconnect());

describe("listOpenShifts", () => {
  it("filters by location", async () => {
    const shifts = await listOpenShifts(new Date(), "pantry");
    expect(shifts.map((s) => s.title)).toEqual(["Sorting"]);
  });
});
"""

S3_INT_FAIL = pnpm_run(
    "test:int", "dotenv -e .env.test -- vitest run --config vitest.int.config.ts") + """\

 RUN  v1.6.0 /Users/sam/code/crewboard

 ❯ tests/integration/shifts-location.test.ts  (1 test | 1 failed) 96ms
   ❯ listOpenShifts > filters by location
     → \nInvalid `prisma.shift.createMany()` invocation in

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  tests/integration/shifts-location.test.ts > listOpenShifts > filters by location
PrismaClientKnownRequestError:
Invalid `prisma.shift.createMany()` invocation in
/Users/sam/code/crewboard/tests/integration/shifts-location.test.ts:10:23

   7 beforeEach(async () => {
   8   await db.signup.deleteMany();
   9   await db.shift.deleteMany();
→ 10   await db.shift.createMany(
The column `location` does not exist in the current database.
 ❯ $n.handleRequestError node_modules/.pnpm/@prisma+client@5.15.0_prisma@5.15.0/node_modules/\
@prisma/client/runtime/library.js:121:7749
 ❯ tests/integration/shifts-location.test.ts:10:3

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

""" + vitest_tail(1, 0, 1, 0, "09:33:18", "1.24s") + (
    " ELIFECYCLE  Test failed. See above for more details.\n")

S3_TEST_DB_MIGRATE = pnpm_run(
    "db:test:migrate", "dotenv -e .env.test -- prisma migrate deploy") + """\
Environment variables loaded from .env.test
Prisma schema loaded from prisma/schema.prisma
Datasource "db": PostgreSQL database "crewboard_test", schema "public" at "localhost:5433"

2 migrations found in prisma/migrations

Applying migration `20240618091244_add_shift_location`

The following migration(s) have been applied:

migrations/
  └─ 20240618091244_add_shift_location/
    └─ migration.sql

All migrations have been successfully applied.
"""


def int_ok(start: str, name: str = "tests/integration/shifts-location.test.ts") -> str:
    return pnpm_run("test:int", "dotenv -e .env.test -- vitest run --config "
                    "vitest.int.config.ts") + vitest_ok([(name, 1)], start, "1.31s")


S3_RENAME_SQL = """\
/*
  Warnings:

  - You are about to drop the column `location` on the `Shift` table. All the data in the \
column will be lost.

*/
-- AlterTable
ALTER TABLE "Shift" DROP COLUMN "location",
ADD COLUMN     "venue" TEXT;
"""

S3_PAGE_VENUE = """\
import { listOpenShifts } from "@/lib/shifts";

export const dynamic = "force-dynamic";

const time = (d: Date) =>
  d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });

export default async function ShiftsPage({
  searchParams,
}: {
  searchParams: { venue?: string };
}) {
  const shifts = await listOpenShifts(new Date(), searchParams.venue);
  return (
    <main>
      <h1>Open shifts</h1>
      <ul>
        {shifts.map((s) => (
          <li key={s.id}>
            {s.title}: {time(s.startsAt)}–{time(s.endsAt)}
            {s.venue && <em> @ {s.venue}</em>}
            <span> ({s._count.signups}/{s.capacity})</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
"""

S3_VENUE_FILTER = """\
"use client";

import { useRouter } from "next/navigation";

export function VenueFilter({ venues }: { venues: string[] }) {
  const router = useRouter();
  return (
    <label>
      Venue{" "}
      <select
        onChange={(e) => {
          const v = e.target.value;
          router.push(v ? `/shifts?venue=${encodeURIComponent(v)}` : "/shifts");
        }}
      >
        <option value="">All venues</option>
        {venues.map((v) => (
          <option key={v}>{v}</option>
        ))}
      </select>
    </label>
  );
}
"""

S3_VENUE_FILTER_2 = """\
"use client";

import { useRouter, useSearchParams } from "next/navigation";

export function VenueFilter({ venues }: { venues: string[] }) {
  const router = useRouter();
  const current = useSearchParams().get("venue") ?? "";
  return (
    <label>
      Venue{" "}
      <select
        value={current}
        onChange={(e) => {
          const v = e.target.value;
          router.push(v ? `/shifts?venue=${encodeURIComponent(v)}` : "/shifts");
        }}
      >
        <option value="">All venues</option>
        {venues.map((v) => (
          <option key={v}>{v}</option>
        ))}
      </select>
    </label>
  );
}
"""

S3_CANCELLED_SQL = '-- AlterTable\nALTER TABLE "Shift" ADD COLUMN     "cancelledAt" TIMESTAMP(3);\n'
S3_CANCELLED_ON_SQL = """\
-- AlterTable
ALTER TABLE "Shift" DROP COLUMN "cancelledAt",
ADD COLUMN     "cancelledOn" TIMESTAMP(3);
"""

S3_TSC_CANCELLED = pnpm_run("typecheck", "tsc --noEmit") + """\
src/lib/shifts.ts:5:37 - error TS2353: Object literal may only specify known properties, and \
'cancelledAt' does not exist in type 'ShiftWhereInput'.

5     where: { startsAt: { gt: now }, cancelledAt: null, ...(venue ? { venue } : {}) },
                                      ~~~~~~~~~~~


Found 1 error in src/lib/shifts.ts:5

 ELIFECYCLE  Command failed with exit code 2.
"""

MIGRATIONS = Story(
    id="ts-crewboard-prisma-migrations",
    title="Prisma migrations reviewed before applying: a stale client after --create-only, the "
          "test database left behind, a rename that would drop data, and applied migrations "
          "that must not be edited",
    project=CREWBOARD,
    lessons=(
        lesson("review-sql", "convention",
               "Create Prisma migrations with `prisma migrate dev --create-only` and show the "
               "SQL for the user's OK before applying",
               "create-only", "migrat"),
        lesson("prisma-generate", "gotcha",
               "`migrate dev --create-only` doesn't regenerate the Prisma client: run "
               "`pnpm prisma generate` after a schema change, or tsc reports the new fields as "
               "missing (TS2339)",
               "prisma generate", "create-only|stale|types|client|tsc"),
        lesson("test-db", "fact",
               "Integration tests live in tests/integration and run with `pnpm test:int` "
               "against the crewboard_test database (db-test container, port 5433, .env.test)",
               "crewboard_test|5433|db-test", "integration|test:int"),
        lesson("test-db-migrate", "gotcha",
               "After adding a migration, apply it to the test database too with "
               "`pnpm db:test:migrate`; otherwise integration tests fail with 'column ... does "
               "not exist'",
               "db:test:migrate|test database|test db|crewboard_test", "migrat"),
        lesson("no-edit-migrations", "convention",
               "Never edit a migration that has already been applied (staging has it, Prisma "
               "checks checksums); make a new migration instead",
               "migration", "edit|modify|touch|change", "applied|staging|already"),
        lesson("rename-drops", "gotcha",
               "Prisma generates a field rename as DROP COLUMN + ADD COLUMN (data loss); "
               "replace the --create-only migration's SQL with ALTER TABLE ... RENAME COLUMN "
               "before applying",
               "rename", "drop|drops|data loss"),
    ),
    also=(
        # session 0, Bash output: 'Datasource "db": PostgreSQL database "crewboard", schema "public"
        # at "localhost:5432"'
        lesson("also-dev-db", "fact",
               "The dev database is `crewboard` on localhost:5432 (docker-compose `db` service, "
               "DATABASE_URL in .env); `prisma migrate dev` works against it",
               "5432",
               r're:\bdev (database|db)\b|"crewboard"|\bcrewboard\s+(database|db)\b'),
        # session 2, User: "the iOS app calls it `venue`, not location, and Dana would rather we
        # match them"; session 5, Probe: "called `cancelledOn` to match the iOS model"
        lesson("also-ios-names", "convention",
               "Model field names follow the iOS app's model (Shift.venue not location, "
               "cancelledOn "
               "not cancelledAt); Dana wants them to match",
               "ios", "venue|cancelledOn|name|naming|match|called"),
        # session 4, Probe: "a cancelled shift stays in the db but drops out of the open list"
        lesson("also-cancelled-on", "fact",
               "Shifts are cancelled softly: Shift.cancelledOn (nullable timestamp, formerly "
               "cancelledAt) is set and the row kept; listOpenShifts filters cancelledOn: null",
               "cancelledOn|cancelled shift",
               "null|stay|kept|keep|soft|open list|listOpenShifts|drops out"),
        # session 3, Edit/Write: "export async function listVenues()" and
        # src/components/VenueFilter.tsx
        lesson("also-venue-filter", "fact",
               "/shifts filters by ?venue= (listOpenShifts(now, venue)); the dropdown is the "
               "client "
               "component src/components/VenueFilter.tsx, fed by listVenues() in src/lib/shifts.ts",
               "VenueFilter|listVenues|?venue=|venue filter|venue dropdown"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hi! coordinators want to record where a shift happens (the pantry, the "
                 "depot, the church hall...). can you add an optional location to Shift and "
                 "show it on the shifts page? and one thing about migrations in this repo: I "
                 "want to see the SQL before anything touches my database, so create them with "
                 "--create-only and wait for my ok before applying.", states="review-sql"),
            Edit("prisma/schema.prisma", "  capacity Int\n  signups  Signup[]\n}\n",
                 "  capacity Int\n  location String?\n  signups  Signup[]\n}\n"),
            Bash("pnpm prisma migrate dev --create-only --name add_shift_location",
                 out=prisma_created("20240618091244_add_shift_location")),
            Bash("cat prisma/migrations/20240618091244_add_shift_location/migration.sql",
                 out=S3_LOCATION_SQL),
            Edit("src/app/shifts/page.tsx",
                 "            {s.title}: {time(s.startsAt)}–{time(s.endsAt)}\n",
                 "            {s.title}: {time(s.startsAt)}–{time(s.endsAt)}\n"
                 "            {s.location && <em> @ {s.location}</em>}\n"),
            Bash("pnpm typecheck", out=S3_TSC_LOCATION, ok=False, exit=2),
            Say("Expected, given the order: `--create-only` writes the migration but skips "
                "client generation, so @prisma/client still has the old Shift type without "
                "location. `pnpm prisma generate` rebuilds the client types from schema.prisma "
                "without touching the database; it's needed after every schema change that "
                "doesn't go through a full `migrate dev`.", states="prisma-generate"),
            Bash("pnpm prisma generate", out=PRISMA_GENERATE),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Say("Here's the migration for review, "
                "prisma/migrations/20240618091244_add_shift_location/migration.sql:\n\n"
                f"```sql\n{S3_LOCATION_SQL}```\n\nA nullable column, so no table rewrite and "
                "no backfill. OK to apply?"),
            User("looks fine, go ahead"),
            Bash("pnpm prisma migrate dev",
                 out=prisma_applied("20240618091244_add_shift_location")),
            Commit("feat: optional Shift.location, shown on the shifts page"),
        )),
        Session(day=2, events=(
            User("morning! next bit: coordinators want to filter the list by location "
                 "(/shifts?location=pantry). can you add that, with an integration test "
                 "against a real database? those live in tests/integration and run with "
                 "pnpm test:int against the crewboard_test db (the db-test container on "
                 "port 5433, url in .env.test).", states="test-db"),
            Edit("src/lib/shifts.ts",
                 "export async function listOpenShifts(now = new Date()) {\n"
                 "  const shifts = await db.shift.findMany({\n"
                 "    where: { startsAt: { gt: now } },\n",
                 "export async function listOpenShifts(now = new Date(), location?: string) {\n"
                 "  const shifts = await db.shift.findMany({\n"
                 "    where: { startsAt: { gt: now }, ...(location ? { location } : {}) },\n"),
            Edit("src/app/shifts/page.tsx",
                 "export default async function ShiftsPage() {\n"
                 "  const shifts = await listOpenShifts();\n",
                 "export default async function ShiftsPage({\n  searchParams,\n}: {\n"
                 "  searchParams: { location?: string };\n}) {\n"
                 "  const shifts = await listOpenShifts(new Date(), searchParams.location);\n"),
            Write("tests/integration/shifts-location.test.ts", S3_INT_TEST),
            Bash("pnpm test:int", out=S3_INT_FAIL, ok=False),
            Say("crewboard_test is behind: the add_shift_location migration from the other day "
                "was only applied to the dev database. `pnpm db:test:migrate` runs `prisma "
                "migrate deploy` with .env.test, applying pending migrations to the test "
                "database. It has to be run after every new migration, or the integration "
                "tests hit a schema that doesn't match the client.", states="test-db-migrate"),
            Bash("pnpm db:test:migrate", out=S3_TEST_DB_MIGRATE),
            Bash("pnpm test:int", out=int_ok("09:35:02")),
            Bash("pnpm test", out=pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1)], "09:35:20", "861ms")),
            Commit("feat(shifts): filter the list by ?location="),
            User("nice one"),
        )),
        Session(day=6, events=(
            User("ugh, small mess. the iOS app calls it `venue`, not location, and Dana would "
                 "rather we match them. can you rename Shift.location to venue? it's only been "
                 "there since tuesday."),
            Say("Since add_shift_location is only a few days old, the simplest route is to "
                "change that migration to create `venue` directly, update the schema, and "
                "reset the dev database."),
            User("no no, please don't ever edit a migration that's already been applied. that "
                 "one is on staging already, and prisma checks the checksums of applied "
                 "migrations. always add a new migration for changes like this.",
                 states="no-edit-migrations"),
            Edit("prisma/schema.prisma", "  location String?\n", "  venue    String?\n"),
            Bash("pnpm prisma migrate dev --create-only --name rename_location_to_venue && "
                 "cat prisma/migrations/*_rename_location_to_venue/migration.sql",
                 out=prisma_created("20240624104512_rename_location_to_venue") + S3_RENAME_SQL),
            Say("Careful: Prisma can't tell a rename from a drop plus an add, so the generated "
                "SQL drops `location` and adds an empty `venue`, which would throw away every "
                "location coordinators have entered. This migration hasn't been applied "
                "anywhere yet, so I'll replace its SQL with a real RENAME COLUMN.",
                states="rename-drops"),
            Write("prisma/migrations/20240624104512_rename_location_to_venue/migration.sql",
                  "-- Rename instead of Prisma's generated DROP COLUMN + ADD COLUMN (keeps "
                  'data)\nALTER TABLE "Shift" RENAME COLUMN "location" TO "venue";\n'),
            Edit("src/lib/shifts.ts",
                 "export async function listOpenShifts(now = new Date(), location?: string) {\n"
                 "  const shifts = await db.shift.findMany({\n"
                 "    where: { startsAt: { gt: now }, ...(location ? { location } : {}) },\n",
                 "export async function listOpenShifts(now = new Date(), venue?: string) {\n"
                 "  const shifts = await db.shift.findMany({\n"
                 "    where: { startsAt: { gt: now }, ...(venue ? { venue } : {}) },\n"),
            Write("src/app/shifts/page.tsx", S3_PAGE_VENUE),
            Write("tests/integration/shifts-location.test.ts",
                  S3_INT_TEST.replace("location: ", "venue: ").replace("by location",
                                                                        "by venue")),
            Bash("pnpm prisma generate && pnpm typecheck", out=PRISMA_GENERATE + TSC_CLEAN),
            Say("Migration for review:\n\n```sql\nALTER TABLE \"Shift\" RENAME COLUMN "
                "\"location\" TO \"venue\";\n```\n\nA metadata-only change in Postgres, data "
                "stays. Apply to dev and the test database?"),
            User("yep, apply. and good catch on the drop"),
            Bash("pnpm prisma migrate dev && pnpm db:test:migrate && pnpm test:int",
                 out=prisma_applied("20240624104512_rename_location_to_venue")
                 + S3_TEST_DB_MIGRATE.replace("2 migrations", "3 migrations").replace(
                     "20240618091244_add_shift_location", "20240624104512_rename_location_to_venue")
                 + int_ok("11:02:47")),
            Commit("refactor(db): rename Shift.location to venue with RENAME COLUMN"),
        )),
        Session(day=9, events=(
            User("today: a venue dropdown on the shifts page instead of typing ?venue= into "
                 "the url. the list of venues should come from the data, not be hardcoded."),
            Edit("src/lib/shifts.ts",
                 "  return shifts.filter((s) => s._count.signups < s.capacity);\n}\n",
                 "  return shifts.filter((s) => s._count.signups < s.capacity);\n}\n\n"
                 "export async function listVenues() {\n"
                 "  const rows = await db.shift.findMany({\n"
                 "    where: { venue: { not: null } },\n"
                 '    distinct: ["venue"],\n'
                 "    select: { venue: true },\n"
                 '    orderBy: { venue: "asc" },\n'
                 "  });\n"
                 "  return rows.map((r) => r.venue as string);\n}\n"),
            Write("src/components/VenueFilter.tsx", S3_VENUE_FILTER),
            Edit("src/app/shifts/page.tsx", 'import { listOpenShifts } from "@/lib/shifts";\n',
                 'import { VenueFilter } from "@/components/VenueFilter";\n'
                 'import { listOpenShifts, listVenues } from "@/lib/shifts";\n'),
            Edit("src/app/shifts/page.tsx", "      <h1>Open shifts</h1>\n",
                 "      <h1>Open shifts</h1>\n      <VenueFilter venues={await listVenues()} />\n"),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Bash("pnpm test", out=pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1)], "15:10:09", "845ms")),
            Compact(instructions="Keep the venue dropdown work (src/components/VenueFilter.tsx, "
                                 "listVenues in src/lib/shifts.ts). Drop the file listings and "
                                 "command output."),
            User("ok, where were we. can the dropdown keep showing the selected venue after "
                 "the page navigates? right now it jumps back to 'All venues'"),
            Write("src/components/VenueFilter.tsx", S3_VENUE_FILTER_2),
            Bash("pnpm typecheck && pnpm lint", out=TSC_CLEAN + LINT_CLEAN),
            Commit("feat(shifts): venue dropdown filter"),
            User("thanks"),
        )),
        Session(day=13, events=(
            User("hi! coordinators sometimes need to cancel a shift (weather, nobody has the "
                 "keys, etc.) without deleting it, so volunteers can still see it was "
                 "cancelled."),
            Probe("can you add that to the data model? a cancelled shift stays in the db but "
                  "drops out of the open list.", needs=("review-sql", "prisma-generate")),
            Edit("prisma/schema.prisma", "  venue    String?\n",
                 "  venue    String?\n  cancelledAt DateTime?\n"),
            Bash("pnpm prisma migrate dev --create-only --name add_shift_cancelled_at",
                 out=prisma_created("20240701093320_add_shift_cancelled_at")),
            Bash("pnpm prisma generate", out=PRISMA_GENERATE),
            Edit("src/lib/shifts.ts",
                 "    where: { startsAt: { gt: now }, ...(venue ? { venue } : {}) },\n",
                 "    where: { startsAt: { gt: now }, cancelledAt: null, "
                 "...(venue ? { venue } : {}) },\n"),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Say("Migration for review (not applied yet):\n\n"
                f"```sql\n{S3_CANCELLED_SQL}```\n\nNullable, so existing shifts count as not "
                "cancelled. Apply?"),
            User("go"),
            Bash("pnpm prisma migrate dev",
                 out=prisma_applied("20240701093320_add_shift_cancelled_at")),
            Probe("and run the integration tests so we know the venue filter still behaves",
                  needs=("test-db", "test-db-migrate")),
            Bash("pnpm db:test:migrate && pnpm test:int", out=S3_TEST_DB_MIGRATE.replace(
                "2 migrations", "4 migrations").replace(
                "20240618091244_add_shift_location", "20240701093320_add_shift_cancelled_at")
                + int_ok("10:41:26")),
            Commit("feat(db): Shift.cancelledAt; cancelled shifts leave the open list"),
        )),
        Session(day=17, events=(
            Probe("Dana wants `cancelledAt` called `cancelledOn` to match the iOS model. the "
                  "cancelledAt migration went to staging on friday. can you sort it out?",
                  needs=("no-edit-migrations", "rename-drops", "review-sql")),
            Edit("prisma/schema.prisma", "  cancelledAt DateTime?\n", "  cancelledOn DateTime?\n"),
            Bash("pnpm prisma migrate dev --create-only --name rename_cancelled_at_to_cancelled_on",
                 out=prisma_created("20240705151907_rename_cancelled_at_to_cancelled_on")),
            Bash("cat prisma/migrations/20240705151907_rename_cancelled_at_to_cancelled_on/"
                 "migration.sql", out=S3_CANCELLED_ON_SQL),
            Write("prisma/migrations/20240705151907_rename_cancelled_at_to_cancelled_on/"
                  "migration.sql",
                  '-- Rename, not DROP + ADD: keeps existing cancellations\nALTER TABLE "Shift" '
                  'RENAME COLUMN "cancelledAt" TO "cancelledOn";\n'),
            Bash("pnpm prisma generate && pnpm typecheck", out=PRISMA_GENERATE + S3_TSC_CANCELLED,
                 ok=False, exit=2),
            Edit("src/lib/shifts.ts", "cancelledAt: null", "cancelledOn: null"),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Say("New migration (the applied add_shift_cancelled_at stays untouched); Prisma "
                "generated a DROP + ADD again, which I replaced with:\n\n```sql\nALTER TABLE "
                "\"Shift\" RENAME COLUMN \"cancelledAt\" TO \"cancelledOn\";\n```\n\nOK to "
                "apply?"),
            User("ship it"),
            Bash("pnpm prisma migrate dev && pnpm db:test:migrate",
                 out=prisma_applied("20240705151907_rename_cancelled_at_to_cancelled_on")
                 + S3_TEST_DB_MIGRATE.replace("2 migrations", "5 migrations").replace(
                     "20240618091244_add_shift_location",
                     "20240705151907_rename_cancelled_at_to_cancelled_on")),
            Commit("refactor(db): rename Shift.cancelledAt to cancelledOn"),
        )),
    ),
)


# == Story: Playwright end-to-end tests ========================================================

S4_PW_CONFIG = """\
import { defineConfig, devices } from "@playwright/test";

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: true,
  retries: process.env.CI ? 2 : 0,
  use: { baseURL: "http://localhost:3000", trace: "on-first-retry" },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "pnpm dev",
    url: "http://localhost:3000",
    reuseExistingServer: !process.env.CI,
  },
});
"""

S4_SPEC = """\
import { expect, test } from "@playwright/test";

test("lists open shifts with their spots", async ({ page }) => {
  await page.goto("/shifts");
  await expect(page.getByRole("heading", { name: "Open shifts" })).toBeVisible();
  const pantry = page.getByRole("listitem").filter({ hasText: "Pantry sorting" });
  await expect(pantry).toContainText("1/4");
});
"""

S4_GLOBAL_SETUP = """\
import { execSync } from "node:child_process";
import { PrismaClient } from "@prisma/client";

export const E2E_DATABASE_URL = "postgresql://postgres:postgres@localhost:5432/crewboard_e2e";

// Every run starts from the same data: reset the e2e database, then seed it.
export default async function globalSetup() {
  execSync("pnpm prisma migrate reset --force --skip-seed --skip-generate", {
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    stdio: "inherit",
  });
  const db = new PrismaClient({ datasourceUrl: E2E_DATABASE_URL });
  const start = new Date(Date.now() + 2 * 24 * 3600 * 1000);
  const end = new Date(start.getTime() + 4 * 3600 * 1000);
  const ana = await db.volunteer.create({ data: { email: "ana@example.org", name: "Ana" } });
  const pantry = await db.shift.create({
    data: { title: "Pantry sorting", startsAt: start, endsAt: end, capacity: 4 },
  });
  await db.signup.create({ data: { shiftId: pantry.id, volunteerId: ana.id } });
  await db.$disconnect();
}
"""

S4_ANA_PANTRY = "  await db.signup.create({ data: { shiftId: pantry.id, volunteerId: ana.id } });\n"

S4_PW_MISSING = pnpm_run("test:e2e", "playwright test") + """\

Running 1 test using 1 worker

  ✘  1 [chromium] › signup.spec.ts:3:5 › lists open shifts with their spots (6.3s)


  1) [chromium] › signup.spec.ts:3:5 › lists open shifts with their spots ─────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toContainText(expected)

    Locator: getByRole('listitem').filter({ hasText: 'Pantry sorting' })
    Expected string: "1/4"
    Received: <element(s) not found>
    Call log:
      - expect.toContainText with timeout 5000ms
      - waiting for getByRole('listitem').filter({ hasText: 'Pantry sorting' })


      5 |   await expect(page.getByRole("heading", { name: "Open shifts" })).toBeVisible();
      6 |   const pantry = page.getByRole("listitem").filter({ hasText: "Pantry sorting" });
    > 7 |   await expect(pantry).toContainText("1/4");
        |                        ^
      8 | });
      9 |

        at /Users/sam/code/crewboard/e2e/signup.spec.ts:7:24

  1 failed
    [chromium] › signup.spec.ts:3:5 › lists open shifts with their spots ──────────────────────
 ELIFECYCLE  Command failed with exit code 1.
"""

S4_RESET = """\
Environment variables loaded from .env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": PostgreSQL database "crewboard_e2e", schema "public" at "localhost:5432"

Applying migration `20240601120000_init`

Database reset successful

The following migration(s) have been applied:

migrations/
  └─ 20240601120000_init/
    └─ migration.sql

"""


def pw_ok(tests: list[tuple[str, str]], total: str, args: str = "") -> str:
    """A passing ``pnpm test:e2e`` run: global setup's reset, then Playwright's list report."""
    cmd = f'playwright test "{args}"' if args else "playwright test"
    n = len(tests)
    lines = "".join(f"  ✓  {i} [chromium] › {t} ({d})\n" for i, (t, d) in enumerate(tests, 1))
    return (pnpm_run("test:e2e", cmd) + S4_RESET
            + f"Running {n} test{'s' if n > 1 else ''} using {min(n, 4)} "
            f"worker{'s' if n > 1 else ''}\n\n{lines}\n  {n} passed ({total})\n")


S4_GH_LOG = """\
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z   1) [chromium] › signup.spec.ts:3:5 › lists \
open shifts with their spots
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z     Test timeout of 30000ms exceeded.
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z     Error: page.goto: Test timeout of 30000ms \
exceeded.
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z     Call log:
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z       - navigating to \
"http://localhost:3000/shifts", waiting until "load"
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z       3 | test("lists open shifts with their \
spots", async ({ page }) => {
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z     > 4 |   await page.goto("/shifts");
e2e	Run pnpm test:e2e	2024-06-20T02:14:50.9Z         |              ^
e2e	Run pnpm test:e2e	2024-06-20T02:14:51.0Z
e2e	Run pnpm test:e2e	2024-06-20T02:14:51.0Z   Retry #1 ───────────────────────────────────
e2e	Run pnpm test:e2e	2024-06-20T02:14:53.2Z   ✓  1 [chromium] › signup.spec.ts:3:5 › lists \
open shifts with their spots (1.8s)
e2e	Run pnpm test:e2e	2024-06-20T02:14:53.3Z   1 flaky
e2e	Run pnpm test:e2e	2024-06-20T02:14:53.3Z   ##[error]Process completed with exit code 1.
"""

S4_CI_REPORT = """\
Looked at the last 12 runs of the e2e workflow (gh run list --workflow e2e.yml, then the logs \
of each). All 4 failures are the first test of the run timing out in page.goto('/shifts') at \
the 30s test timeout. The webServer output in those runs shows `next dev` logging \
'○ Compiling /shifts ...' and then '✓ Compiled /shifts in 31.8s (812 modules)'; in the \
passing runs that compile took 22-28s. So on the 2-core CI runner, next dev's on-demand \
compilation of the first route eats almost all of the test timeout; every later test takes \
under 2s. Locally the same compile takes ~3s, which is why it never fails on a laptop. A \
production build (next build, then next start) compiles everything up front and has no \
on-demand compilation at request time."""

S4_FULL_SPEC = """\
import { expect, test } from "@playwright/test";

test("full shifts are not listed", async ({ page }) => {
  await page.goto("/shifts");
  await expect(page.getByRole("listitem").filter({ hasText: "Pantry sorting" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Front desk" })).toHaveCount(0);
});
"""

S4_PORT_BUSY = pnpm_run("test:e2e", 'playwright test "e2e/full-shifts.spec.ts"') + (
    "Error: http://localhost:3100 is already used, make sure that nothing is running on the "
    "port/url or set reuseExistingServer:true in config.webServer.\n\n"
    "\n ELIFECYCLE  Command failed with exit code 1.\n")

S4_LSOF = (
    "COMMAND   PID USER   FD   TYPE             DEVICE SIZE/OFF NODE NAME\n"
    "node    48213  sam   23u  IPv6 0x8f2c1a7d3e0b9c41      0t0  TCP *:3100 (LISTEN)\n")

S4_E2E_WORKFLOW = """\
name: e2e
on: [pull_request]

jobs:
  e2e:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
        env:
          POSTGRES_PASSWORD: postgres
        ports: ["5432:5432"]
    steps:
      - uses: actions/checkout@v4
      - uses: pnpm/action-setup@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: pnpm
      - run: pnpm install --frozen-lockfile
      # next build reuses its compilation cache between runs
      - uses: actions/cache@v4
        with:
          path: .next/cache
          key: next-${{ hashFiles('pnpm-lock.yaml') }}-${{ hashFiles('src/**') }}
          restore-keys: next-${{ hashFiles('pnpm-lock.yaml') }}-
      - run: pnpm exec playwright install --with-deps chromium
      - run: pnpm test:e2e
      - uses: actions/upload-artifact@v4
        if: failure()
        with:
          name: playwright-report
          path: playwright-report/
"""

S4_E2E_README = """\
# End-to-end tests

Run them with `pnpm test:e2e` (one file: `pnpm test:e2e e2e/full-shifts.spec.ts`).

- Playwright starts the app itself: a production build, `pnpm build && pnpm start -p 3100`.
  Not `next dev`: its on-demand compilation made the first test time out in CI.
- Data: `e2e/global-setup.ts` resets the `crewboard_e2e` database (`prisma migrate reset`)
  and seeds it before every run. Add the rows your test needs there; never rely on what
  happens to be in your dev database.
- Find elements the way a user would: `getByRole`, `getByLabel`, `getByText`. No CSS
  selectors.
- A stale `next start` from an interrupted run keeps port 3100 busy:
  `lsof -nP -iTCP:3100 -sTCP:LISTEN`, then kill it.
"""

E2E = Story(
    id="ts-crewboard-playwright-e2e",
    title="Playwright e2e set up against a seeded database; running it against next dev times "
          "out in CI and is replaced by a production build",
    project=CREWBOARD,
    lessons=(
        lesson("e2e-locators", "convention",
               "Playwright tests find elements the way a user would (getByRole, getByLabel, "
               "getByText); no CSS selectors",
               "getByRole|getByLabel|role locator|role-based|by role", "css|selector|locator"),
        lesson("e2e-cmd", "command",
               "Run the e2e suite with `pnpm test:e2e` (one file: `pnpm test:e2e e2e/x.spec.ts`); "
               "Playwright starts the server itself",
               "test:e2e", "pnpm"),
        lesson("e2e-seed", "gotcha",
               "E2E runs against its own crewboard_e2e database, which e2e/global-setup.ts "
               "resets (prisma migrate reset --force) and seeds before every run; tests needing "
               "data add it to the seed",
               "crewboard_e2e|global-setup|globalSetup", "seed|reset"),
        lesson("e2e-dev-server", "decision",
               "Playwright's webServer runs `pnpm dev`: no build step, so e2e runs start fast",
               "webServer|web server", "pnpm dev|next dev|dev server",
               "fast|no build|without a build|skips the build|quick"),
        lesson("e2e-prod-server", "decision",
               "Playwright's webServer runs a production build (`pnpm build && pnpm start -p "
               "3100`): next dev compiled /shifts on the first request and CI timed out",
               "webServer|web server|playwright|e2e",
               "pnpm build|next build|production build|prod build", "start|3100"),
    ),
    also=(
        # session 3, Say: "A `next start` from an earlier, interrupted e2e run (PID 48213) is still
        # holding :3100"; session 4, README: "A stale `next start` from an interrupted run keeps
        # port 3100 busy"
        lesson("also-port-3100", "gotcha",
               "An interrupted e2e run can leave its `next start` holding port 3100 "
               "('localhost:3100 "
               "is already used'); find it with `lsof -nP -iTCP:3100 -sTCP:LISTEN` and kill it",
               "3100", "already used|busy|stale|lsof|kill|leftover|holding"),
        # session 0, Bash: "pnpm exec playwright install chromium"
        lesson("also-pw-install", "command",
               "Install the Playwright browser with `pnpm exec playwright install chromium` (CI "
               "adds "
               "--with-deps); the suite runs chromium only",
               "playwright install"),
        # session 4, Say: "cache .next/cache between CI runs so next build only recompiles what
        # changed, and cache the pnpm store"
        lesson("also-ci-next-cache", "decision",
               "The e2e CI workflow (.github/workflows/e2e.yml) caches .next/cache (and the pnpm "
               "store) so the production build before the tests only recompiles what changed",
               ".next/cache|next cache|build cache", "ci|workflow|e2e|actions"),
        # session 4, Write: e2e/README.md ("how to run them, where the data comes from, and whatever
        # bit us so far")
        lesson("also-e2e-readme", "fact",
               "e2e/README.md is the guide to the e2e tests: how to run them, the seeded data, the "
               "locator rule and the pitfalls so far",
               "e2e/README"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hey! I finally want some e2e coverage. there's a stub in e2e/signup.spec.ts "
                 "but playwright isn't really set up. can you get it going against the shifts "
                 "page? and when you write tests, please find things the way a user would, "
                 "getByRole, getByLabel and so on. no CSS selectors or nth-child stuff, they rot "
                 "the moment someone touches the markup.", states="e2e-locators"),
            Read("e2e/signup.spec.ts"),
            Write("playwright.config.ts", S4_PW_CONFIG),
            Say("Config: Playwright's webServer starts `pnpm dev` before the run, so there's "
                "no build step and a run starts in a few seconds; tests live in e2e/, "
                "chromium only for now.", states="e2e-dev-server"),
            Write("e2e/signup.spec.ts", S4_SPEC),
            Bash("pnpm exec playwright install chromium",
                 out="Downloading Chromium 125.0.6422.26 (playwright build v1117) from "
                     "https://playwright.azureedge.net/builds/chromium/1117/chromium-mac-arm64.zip"
                     "\n133.4 MiB [====================] 100% 0.0s\nChromium 125.0.6422.26 "
                     "(playwright build v1117) downloaded to "
                     "/Users/sam/Library/Caches/ms-playwright/chromium-1117\n"),
            Bash("pnpm test:e2e", out=S4_PW_MISSING, ok=False),
            Say("The page rendered, it just has no 'Pantry sorting' shift: the dev server reads "
                "your dev database, which holds whatever was last clicked together. E2E needs "
                "known data, so I'll give it its own database, crewboard_e2e (same Postgres "
                "container), and a Playwright globalSetup in e2e/global-setup.ts that runs "
                "`prisma migrate reset --force` against it and seeds a fixed set of rows before "
                "every run. The webServer gets that DATABASE_URL and never reuses a running dev "
                "server, which would be talking to the dev database.", states="e2e-seed"),
            Write("e2e/global-setup.ts", S4_GLOBAL_SETUP),
            Edit("playwright.config.ts",
                 "  webServer: {\n    command: \"pnpm dev\",\n"
                 "    url: \"http://localhost:3000\",\n"
                 "    reuseExistingServer: !process.env.CI,\n  },\n",
                 "  globalSetup: \"./e2e/global-setup.ts\",\n"
                 "  webServer: {\n    command: \"pnpm dev\",\n"
                 "    env: { DATABASE_URL: E2E_DATABASE_URL },\n"
                 "    url: \"http://localhost:3000\",\n"
                 "    reuseExistingServer: false,\n  },\n"),
            Edit("playwright.config.ts",
                 'import { defineConfig, devices } from "@playwright/test";\n',
                 'import { defineConfig, devices } from "@playwright/test";\n'
                 'import { E2E_DATABASE_URL } from "./e2e/global-setup";\n'),
            Bash("pnpm test:e2e", out=pw_ok(
                [("signup.spec.ts:3:5 › lists open shifts with their spots", "1.9s")], "14.8s"),
                states="e2e-cmd"),
            Commit("test(e2e): playwright against a seeded crewboard_e2e database"),
            User("sweet, thank you!"),
        )),
        Session(day=3, events=(
            User("the e2e job failed twice in CI overnight, both times a timeout on the very "
                 "first test. passes fine on my machine. can you dig in?"),
            Bash("gh run view 9412337 --log-failed | tail -n 20", out=S4_GH_LOG),
            Subagent(report=S4_CI_REPORT),
            Say("So running e2e against `pnpm dev` was the wrong call for CI: next dev compiles "
                "each route on its first request, and on the CI runner that alone takes ~30s. "
                "I'll switch Playwright's webServer to a production build, `pnpm build && pnpm "
                "start -p 3100`, on its own port so it never collides with a dev server on "
                "3000. Every run now pays for a build up front, but page loads during the tests "
                "are immediate and deterministic.",
                fails="e2e-dev-server", states="e2e-prod-server"),
            Edit("playwright.config.ts",
                 '  use: { baseURL: "http://localhost:3000", trace: "on-first-retry" },\n',
                 '  use: { baseURL: "http://localhost:3100", trace: "on-first-retry" },\n'),
            Edit("playwright.config.ts",
                 '    command: "pnpm dev",\n'
                 "    env: { DATABASE_URL: E2E_DATABASE_URL },\n"
                 '    url: "http://localhost:3000",\n',
                 '    command: "pnpm build && pnpm start -p 3100",\n'
                 "    env: { DATABASE_URL: E2E_DATABASE_URL },\n"
                 '    url: "http://localhost:3100",\n'
                 "    timeout: 180_000,\n"),
            Bash("pnpm test:e2e", out=pw_ok(
                [("signup.spec.ts:3:5 › lists open shifts with their spots", "612ms")], "58.1s")),
            User("cool. is my dev server still alive btw? I think it crashed earlier"),
            Bash("curl -s localhost:3000/api/health", out=CURL_REFUSED, ok=False, exit=7),
            Say("Nothing is listening on :3000, so it's down. The e2e server runs on 3100 now, "
                "so restarting yours won't interfere with test runs."),
            Commit("ci(e2e): run playwright against next build + next start on :3100"),
            User("👌"),
        )),
        Session(day=5, noise=True, events=(
            User("morning! quiet day. how do I open a playwright trace again? CI uploaded one "
                 "from yesterday's retry"),
            Say("`pnpm exec playwright show-trace path/to/trace.zip` opens the trace viewer "
                "locally; dropping the zip on trace.playwright.dev works too."),
            User("ah right. can you show me the current spec?"),
            Read("e2e/signup.spec.ts"),
            User("the test name is a bit meh. call it 'shows open shifts with spot counts'"),
            Edit("e2e/signup.spec.ts", 'test("lists open shifts with their spots",',
                 'test("shows open shifts with spot counts",'),
            Bash("git stauts", out=GIT_STAUTS, ok=False),
            Bash("git status --short", out=" M e2e/signup.spec.ts"),
            Bash("pnpm test", out=pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1)], "10:03:44", "851ms")),
            User("cool. unrelated, what node version am I on?"),
            Bash("node --version", out="v20.14.0"),
            Say("Node 20.14.0. package.json doesn't pin an engines field, for what it's worth."),
            Commit("test(e2e): clearer test name"),
            User("thanks, that's all"),
            Say("👋"),
        )),
        Session(day=8, end=None, events=(
            Probe("full shifts shouldn't be listed at all. can you add an e2e test for that?",
                  needs=("e2e-locators", "e2e-seed")),
            Read("e2e/global-setup.ts"),
            Edit("e2e/global-setup.ts", S4_ANA_PANTRY, S4_ANA_PANTRY
                 + "  // full: one spot, taken by Ana\n"
                 "  const desk = await db.shift.create({\n"
                 '    data: { title: "Front desk", startsAt: start, endsAt: end, capacity: 1 },\n'
                 "  });\n"
                 + S4_ANA_PANTRY.replace("pantry.id", "desk.id")),
            Write("e2e/full-shifts.spec.ts", S4_FULL_SPEC),
            Probe("run just that one", needs="e2e-cmd"),
            Bash("pnpm test:e2e e2e/full-shifts.spec.ts", out=S4_PORT_BUSY, ok=False),
            Bash("lsof -nP -iTCP:3100 -sTCP:LISTEN", out=S4_LSOF),
            Say("A `next start` from an earlier, interrupted e2e run (PID 48213) is still "
                "holding :3100. It's a leftover of ours; OK to kill it?"),
            User("yes kill it"),
            Bash("kill 48213"),
            Bash("pnpm test:e2e e2e/full-shifts.spec.ts", out=pw_ok(
                [("full-shifts.spec.ts:3:5 › full shifts are not listed", "702ms")], "55.2s",
                "e2e/full-shifts.spec.ts")),
            User("great, I need to run to a meeting, let me"),
        )),
        Session(day=12, judge={"e2e-prod-server": "up"}, events=(
            Probe("the e2e job now takes ~6 minutes in CI and about half of that is the build. "
                  "any way to speed it up without the flaky first-test timeouts coming back?",
                  needs="e2e-prod-server"),
            Say("Keep the production build (that's what fixed the timeouts) and make it "
                "cheaper: cache .next/cache between CI runs so next build only recompiles what "
                "changed, and cache the pnpm store. If that's not enough, shard the tests "
                "across two jobs."),
            User("let's do the cache. the workflow is .github/workflows/e2e.yml"),
            Write(".github/workflows/e2e.yml", S4_E2E_WORKFLOW),
            Probe("also, Lena starts on the e2e tests next week. can you write her a short "
                  "e2e/README.md: how to run them, where the data comes from, and whatever bit "
                  "us so far?", needs=("e2e-cmd", "e2e-seed", "e2e-prod-server", "e2e-locators")),
            Write("e2e/README.md", S4_E2E_README),
            Bash("pnpm test:e2e", out=pw_ok(
                [("full-shifts.spec.ts:3:5 › full shifts are not listed", "688ms"),
                 ("signup.spec.ts:3:5 › shows open shifts with spot counts", "701ms")], "57.6s")),
            Commit("ci(e2e): cache .next/cache; e2e README"),
            User("thanks!"),
        )),
    ),
)


# == Story: shift times in Berlin ==============================================================

S5_GIT_LOG = """\
4d2e9a1 feat: feature flags module
b71c0f3 feat: weekly CSV import script
0a9e5d2 chore(deps): bump prisma to 5.15.0
e3f18c7 test: unit test for listOpenShifts
9c44b20 chore: docker compose with a test database
51d7e08 feat(api): POST /api/signups
c2a6f91 feat: shifts page
1f0e3b5 Initial commit from Create Next App
"""

S5_TIME = """\
import { formatInTimeZone } from "date-fns-tz";

/** Every shift happens in Berlin; the server (Vercel) runs in UTC. */
export const ORG_TIMEZONE = "Europe/Berlin";

export function formatShiftTime(d: Date, pattern = "HH:mm") {
  return formatInTimeZone(d, ORG_TIMEZONE, pattern);
}

export function formatShiftRange(start: Date, end: Date) {
  return `${formatShiftTime(start, "EEE d MMM, H:mm")}–${formatShiftTime(end)}`;
}
"""

S5_TIME_TEST = """\
import { describe, expect, it } from "vitest";
import { formatShiftRange } from "@/lib/time";

describe("formatShiftRange", () => {
  it("shows Berlin wall-clock time whatever the server timezone", () => {
    // 07:00Z on a summer Saturday is 09:00 in Berlin (CEST, UTC+2)
    const start = new Date("2024-06-22T07:00:00Z");
    const end = new Date("2024-06-22T11:00:00Z");
    expect(formatShiftRange(start, end)).toBe("Sat 22 Jun, 09:00–13:00");
  });
});
"""

S5_TIME_FAIL = """\

 RUN  v1.6.0 /Users/sam/code/crewboard

 ❯ tests/unit/time.test.ts  (1 test | 1 failed) 9ms
   ❯ formatShiftRange > shows Berlin wall-clock time whatever the server timezone
     → expected 'Sat 22 Jun, 9:00–13:00' to be 'Sat 22 Jun, 09:00–13:00' // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  tests/unit/time.test.ts > formatShiftRange > shows Berlin wall-clock time whatever the \
server timezone
AssertionError: expected 'Sat 22 Jun, 9:00–13:00' to be 'Sat 22 Jun, 09:00–13:00' // Object.is \
equality

- Expected
+ Received

- Sat 22 Jun, 09:00–13:00
+ Sat 22 Jun, 9:00–13:00

 ❯ tests/unit/time.test.ts:9:42
      7|     const start = new Date("2024-06-22T07:00:00Z");
      8|     const end = new Date("2024-06-22T11:00:00Z");
      9|     expect(formatShiftRange(start, end)).toBe("Sat 22 Jun, 09:00–13:00");
       |                                          ^
     10|   });
     11| });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

""" + vitest_tail(1, 0, 1, 0, "11:26:05", "498ms")

S5_PNPM_ADD_DATES = """\
Packages: +2
++
Progress: resolved 433, reused 391, downloaded 2, added 2, done

dependencies:
+ date-fns 3.6.0
+ date-fns-tz 3.1.3

Done in 2.8s
"""

S5_PULL = """\
Updating 4d2e9a1..8be31c4
Fast-forward
 src/app/admin/page.tsx   | 48 ++++++++++++++++++++++++++++++++++++++++++++++++
 src/app/admin/actions.ts | 31 +++++++++++++++++++++++++++++++
 2 files changed, 79 insertions(+)
 create mode 100644 src/app/admin/actions.ts
 create mode 100644 src/app/admin/page.tsx
"""

S5_PNPM_INSTALL_NEXT = """\
Packages: +2 -2
++--
Progress: resolved 433, reused 391, downloaded 2, added 2, done

dependencies:
- next 14.2.4
+ next 14.2.5

devDependencies:
- eslint-config-next 14.2.4
+ eslint-config-next 14.2.5

Done in 5.2s
"""

S5_LINT_ADMIN = pnpm_run("lint", "next lint --dir src --dir scripts") + """\

./src/app/admin/page.tsx
14:25  Error: React Hook "useState" is called conditionally. React Hooks must be called in the \
exact same order in every component render.  react-hooks/rules-of-hooks

info  - Need to disable some ESLint rules? Learn more here: \
https://nextjs.org/docs/basic-features/eslint#disabling-rules
 ELIFECYCLE  Command failed with exit code 1.
"""

S5_WEEK_PAGE = """\
import { addDays, startOfWeek } from "date-fns";
import { notFound } from "next/navigation";
import { flags } from "@/lib/flags";
import { listOpenShifts } from "@/lib/shifts";
import { formatShiftRange, formatShiftTime, shiftDay } from "@/lib/time";

export const dynamic = "force-dynamic";

export default async function WeekPage() {
  if (!flags.weekView) notFound();
  const monday = startOfWeek(new Date(), { weekStartsOn: 1 });
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const shifts = await listOpenShifts();
  return (
    <main>
      <h1>Shifts this week</h1>
      <div className="week">
        {days.map((day) => (
          <section key={shiftDay(day)}>
            <h2>{formatShiftTime(day, "EEE d MMM")}</h2>
            {shifts
              .filter((s) => shiftDay(s.startsAt) === shiftDay(day))
              .map((s) => (
                <p key={s.id}>
                  {s.title}: {formatShiftRange(s.startsAt, s.endsAt)}
                </p>
              ))}
          </section>
        ))}
      </div>
    </main>
  );
}
"""

S5_REMINDERS = """\
import { formatShiftRange } from "./time";

type ReminderShift = { title: string; startsAt: Date; endsAt: Date };

/** Subject and plain-text body of the day-before reminder (sending happens elsewhere). */
export function buildReminder(shift: ReminderShift, name: string) {
  const when = formatShiftRange(shift.startsAt, shift.endsAt);
  return {
    subject: `Reminder: ${shift.title} tomorrow`,
    text:
      `Hi ${name},\\n\\nthis is a reminder that you're signed up for ${shift.title}, ` +
      `${when}.\\n\\nThanks for helping out!\\n`,
  };
}
"""

S5_REMINDERS_TEST = """\
import { describe, expect, it } from "vitest";
import { buildReminder } from "@/lib/reminders";

describe("buildReminder", () => {
  it("gives the shift time in Berlin time", () => {
    const shift = {
      title: "Pantry sorting",
      startsAt: new Date("2024-07-13T07:00:00Z"),
      endsAt: new Date("2024-07-13T11:00:00Z"),
    };
    const { subject, text } = buildReminder(shift, "Ana");
    expect(subject).toBe("Reminder: Pantry sorting tomorrow");
    expect(text).toContain("Sat 13 Jul, 09:00–13:00");
  });
});
"""

BERLIN_TIME = Story(
    id="ts-crewboard-berlin-time",
    title="Shift times shown in server UTC instead of Berlin time; the time helpers module; a "
          "feature-flag rule from MEMORY.md; later features that need all three",
    project=CREWBOARD,
    lessons=(
        lesson("org-tz", "gotcha",
               "Prisma returns DateTime as UTC and the server (Vercel) runs in UTC: shift times "
               "must be formatted in Europe/Berlin (formatInTimeZone), toLocaleTimeString "
               "showed 07:00 for a 09:00 shift",
               "Europe/Berlin|berlin", "utc|timezone|time zone|formatInTimeZone"),
        lesson("time-helpers", "fact",
               "Shift time formatting lives in src/lib/time.ts (formatShiftTime, "
               "formatShiftRange, pinned to ORG_TIMEZONE); components use those, not "
               "toLocale*/date-fns directly",
               "src/lib/time|lib/time.ts|time.ts", "format"),
        lesson("flags", "convention",
               "New UI goes behind a feature flag in src/lib/flags.ts until Dana signs off",
               "flag", "flags.ts|src/lib/flags|dana|sign off|signs off"),
        lesson("week-monday", "preference",
               "Calendar weeks start on Monday (date-fns weekStartsOn: 1)",
               "monday|weekStartsOn", "week"),
    ),
    also=(
        # session 1, Bash: "TZ=UTC pnpm vitest run tests/unit/time.test.ts"
        lesson("also-tz-utc-tests", "command",
               "Run time-formatting unit tests as `TZ=UTC pnpm vitest run "
               "tests/unit/<file>.test.ts` "
               "so they see the server's UTC",
               "TZ=UTC"),
        # session 1, Bash output: "expected 'Sat 22 Jun, 9:00–13:00' to be 'Sat 22 Jun,
        # 09:00–13:00'", fixed by Edit '"EEE d MMM, H:mm"' -> '"EEE d MMM, HH:mm"'
        lesson("also-hh-mm", "gotcha",
               "date-fns pattern `H` isn't zero-padded ('9:00'); shift times use `HH:mm`, so "
               "formatShiftRange gives 'Sat 22 Jun, 09:00–13:00'",
               "HH:mm|HH", "H:mm|pad|09:00|zero"),
        # session 3, Say: "grouped by their Berlin date via the new shiftDay() in src/lib/time.ts"
        lesson("also-shift-day", "fact",
               "Group shifts by day with shiftDay() from src/lib/time.ts (the Berlin calendar "
               "date, "
               "yyyy-MM-dd), not by the UTC date",
               "shiftDay", "berlin|group|calendar date|calendar day"),
        # session 3, Say: "/shifts/week is behind `flags.weekView` (NEXT_PUBLIC_FLAG_WEEK_VIEW=1)";
        # src/lib/flags.ts: "Feature flags, read once at build time."
        lesson("also-flag-env", "fact",
               'Each flag in src/lib/flags.ts is a NEXT_PUBLIC_FLAG_<NAME> env var, on when "1" '
               'and '
               "read at build time (weekView = NEXT_PUBLIC_FLAG_WEEK_VIEW=1); a flagged page calls "
               "notFound() when it is off",
               "NEXT_PUBLIC_FLAG"),
        # session 4, Write src/lib/reminders.ts: "Subject and plain-text body of the day-before
        # reminder (sending happens elsewhere)."
        lesson("also-reminders", "fact",
               "The day-before reminder email's subject and body are built by buildReminder() in "
               "src/lib/reminders.ts (times via formatShiftRange); sending happens elsewhere",
               "buildReminder|src/lib/reminders|reminders.ts"),
    ),
    sessions=(
        Session(day=0, noise=True, events=(
            User("good morning! how's it going. I'm just getting back into things after two "
                 "weeks off, what's changed in the repo?"),
            Bash("git log --oneline -8", out=S5_GIT_LOG),
            Say("The last two weeks: a small feature-flags module, the weekly CSV import "
                "script, a Prisma bump to 5.15, a unit test for listOpenShifts and a docker "
                "compose file with a separate test database. Before that the signup API and "
                "the shifts page."),
            User("ok. and the shifts page is still the one thing that lists everything?"),
            Read("src/app/shifts/page.tsx"),
            Say("Yes: /shifts renders listOpenShifts() as a plain list, title, times and "
                "signups/capacity per shift."),
            User("can you add a little line under the heading, like 'Pick a shift that works "
                 "for you.'?"),
            Edit("src/app/shifts/page.tsx", "      <h1>Open shifts</h1>\n",
                 "      <h1>Open shifts</h1>\n      <p>Pick a shift that works for you.</p>\n"),
            Bash("pnpm test", out=pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1)], "10:12:40", "833ms")),
            User("do we have shared components somewhere yet?"),
            Bash("ls src/components", out="ls: src/components: No such file or directory",
                 ok=False),
            Say("Not yet; everything is still inline in the pages."),
            Commit("chore: subtitle on the shifts page"),
            User("great, thanks. ttyl"),
        )),
        Session(day=1.5, events=(
            User("bug report from the Berlin chapter: saturday's pantry shift shows as "
                 "07:00–11:00 on the site, but it's 09:00–13:00. the coordinators entered it "
                 "right, I checked the CSV."),
            Read("src/app/shifts/page.tsx"),
            Say("The data is fine: Prisma returns DateTime values as UTC instants. The page "
                "formats them with toLocaleTimeString, which uses the server's timezone, and "
                "on Vercel that's UTC, so 07:00Z shows as 07:00 although it's 09:00 in Berlin "
                "(CEST, UTC+2). Formatting has to pin the zone explicitly: formatInTimeZone(d, "
                "\"Europe/Berlin\", ...) from date-fns-tz.", states="org-tz"),
            Bash("pnpm add date-fns date-fns-tz", out=S5_PNPM_ADD_DATES),
            Write("src/lib/time.ts", S5_TIME),
            Write("tests/unit/time.test.ts", S5_TIME_TEST),
            Bash("TZ=UTC pnpm vitest run tests/unit/time.test.ts", out=S5_TIME_FAIL, ok=False),
            Edit("src/lib/time.ts", '"EEE d MMM, H:mm"', '"EEE d MMM, HH:mm"'),
            Bash("TZ=UTC pnpm vitest run tests/unit/time.test.ts",
                 out=vitest_ok([("tests/unit/time.test.ts", 1)], "11:26:41", "471ms")),
            Edit("src/app/shifts/page.tsx",
                 'import { listOpenShifts } from "@/lib/shifts";\n\n'
                 'export const dynamic = "force-dynamic";\n\n'
                 "const time = (d: Date) =>\n"
                 '  d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });\n',
                 'import { listOpenShifts } from "@/lib/shifts";\n'
                 'import { formatShiftRange } from "@/lib/time";\n\n'
                 'export const dynamic = "force-dynamic";\n'),
            Edit("src/app/shifts/page.tsx",
                 "            {s.title}: {time(s.startsAt)}–{time(s.endsAt)}\n",
                 "            {s.title}: {formatShiftRange(s.startsAt, s.endsAt)}\n"),
            Say("All shift time formatting now goes through src/lib/time.ts: formatShiftTime "
                "and formatShiftRange, pinned to ORG_TIMEZONE. Components should call those "
                "rather than toLocale*/date-fns directly, or the server's UTC leaks back in.",
                states="time-helpers"),
            Bash("pnpm typecheck && pnpm test", out=TSC_CLEAN + pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1), ("tests/unit/time.test.ts", 1)], "11:29:13", "912ms")),
            Commit("fix(shifts): show shift times in Europe/Berlin, not server UTC"),
            User("great, thank you! I'll let them know"),
        )),
        Session(day=4, notes=(
            Note("- New UI goes behind a feature flag in src/lib/flags.ts until Dana signs off "
                 "on it", states="flags"),
        ), events=(
            User("morning. there's a security advisory for next 14.2.4, can you bump us to "
                 "14.2.5? I pulled main just now, Lena merged her admin page yesterday."),
            Bash("git pull --ff-only", out=S5_PULL),
            Edit("package.json", '"next": "14.2.4",', '"next": "14.2.5",'),
            Edit("package.json", '"eslint-config-next": "14.2.4",',
                 '"eslint-config-next": "14.2.5",'),
            Bash("pnpm install", out=S5_PNPM_INSTALL_NEXT),
            Bash("pnpm build", out=next_build(
                "┌ ○ /_not-found                          871 B            88 kB\n"
                "├ ƒ /admin                               2.9 kB         90.1 kB\n"
                "├ ƒ /api/signups                         0 B                0 B\n"
                "└ ƒ /shifts                              142 B          87.3 kB\n").replace(
                    "Next.js 14.2.4", "Next.js 14.2.5")),
            Bash("pnpm lint", out=S5_LINT_ADMIN, ok=False),
            Say("The lint error is in src/app/admin/page.tsx from Lena's merge (a useState "
                "after an early return), not in anything this bump touches. The build and "
                "tests are fine, so I'll leave her file alone; worth a heads-up to her."),
            Bash("pnpm test", out=pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1), ("tests/unit/time.test.ts", 1)], "09:18:50", "901ms")),
            Commit("chore(deps): bump next and eslint-config-next to 14.2.5"),
            User("ty, I'll ping Lena"),
        )),
        Session(day=9, events=(
            Probe("Dana wants a week view of the shifts at /shifts/week: seven columns, one per "
                  "day, each shift under its day.",
                  needs=("flags", "time-helpers", "org-tz")),
            User("oh and weeks start on Monday here, people get confused by sunday-first "
                 "calendars", states="week-monday"),
            Read("src/lib/flags.ts"),
            Read("src/lib/time.ts"),
            Edit("src/lib/flags.ts",
                 '  venueFilter: process.env.NEXT_PUBLIC_FLAG_VENUE_FILTER === "1",\n',
                 '  venueFilter: process.env.NEXT_PUBLIC_FLAG_VENUE_FILTER === "1",\n'
                 '  weekView: process.env.NEXT_PUBLIC_FLAG_WEEK_VIEW === "1",\n'),
            Edit("src/lib/time.ts", "export function formatShiftRange(start: Date, end: Date) {\n",
                 "/** The Berlin calendar day of `d`, e.g. 2024-06-22 (for grouping). */\n"
                 "export function shiftDay(d: Date) {\n"
                 '  return formatInTimeZone(d, ORG_TIMEZONE, "yyyy-MM-dd");\n}\n\n'
                 "export function formatShiftRange(start: Date, end: Date) {\n"),
            Write("src/app/shifts/week/page.tsx", S5_WEEK_PAGE),
            Bash("pnpm typecheck", out=TSC_CLEAN),
            Say("/shifts/week is behind `flags.weekView` (NEXT_PUBLIC_FLAG_WEEK_VIEW=1) until "
                "Dana has signed off. Days run Monday to Sunday, grouped by their Berlin date "
                "via the new shiftDay() in src/lib/time.ts, and times use formatShiftRange."),
            Commit("feat(shifts): week view behind the weekView flag"),
            User("nice, I'll show Dana tomorrow"),
        )),
        Session(day=13, events=(
            User("Dana loved the week view, thanks!"),
            Probe("next on her list: the reminder email. the day before a shift we send "
                  "'Reminder: Pantry sorting tomorrow' and the body says when it is. can you "
                  "write the function that builds subject and body? sending is handled "
                  "elsewhere.", needs=("time-helpers", "org-tz")),
            Write("src/lib/reminders.ts", S5_REMINDERS),
            Write("tests/unit/reminders.test.ts", S5_REMINDERS_TEST),
            Bash("TZ=UTC pnpm vitest run tests/unit/reminders.test.ts",
                 out=vitest_ok([("tests/unit/reminders.test.ts", 1)], "14:51:22", "463ms")),
            Probe("and the week view should let you go to the next week, with a 'next week →' "
                  "link", needs=("week-monday",)),
            Edit("src/app/shifts/week/page.tsx",
                 'import { addDays, startOfWeek } from "date-fns";\n',
                 'import { addDays, addWeeks, startOfWeek } from "date-fns";\n'
                 'import Link from "next/link";\n'),
            Edit("src/app/shifts/week/page.tsx",
                 "export default async function WeekPage() {\n"
                 "  if (!flags.weekView) notFound();\n"
                 "  const monday = startOfWeek(new Date(), { weekStartsOn: 1 });\n",
                 "export default async function WeekPage({\n  searchParams,\n}: {\n"
                 "  searchParams: { week?: string };\n}) {\n"
                 "  if (!flags.weekView) notFound();\n"
                 "  const offset = Number(searchParams.week ?? 0);\n"
                 "  const monday = addWeeks(startOfWeek(new Date(), { weekStartsOn: 1 }), "
                 "offset);\n"),
            Edit("src/app/shifts/week/page.tsx", "      <h1>Shifts this week</h1>\n",
                 '      <h1>Week of {formatShiftTime(monday, "d MMM")}</h1>\n'
                 "      <Link href={`/shifts/week?week=${offset + 1}`}>next week →</Link>\n"),
            Bash("pnpm typecheck && pnpm test", out=TSC_CLEAN + pnpm_run("test", "vitest run")
                 + vitest_ok([(UNIT, 1), ("tests/unit/time.test.ts", 1),
                              ("tests/unit/reminders.test.ts", 1)], "14:58:03", "1.02s")),
            Commit("feat: reminder email builder; week view navigation"),
            User("thanks!"),
        )),
    ),
)


# == Story: retrywell's house style, and the move to pnpm ======================================

S6_NPM_CI = """\

added 412 packages, and audited 413 packages in 6s

68 packages are looking for funding
  run `npm fund` for details

found 0 vulnerabilities
"""

S6_ONRETRY_LINE = ("    await expect(retry(fn, { retries: 2, baseMs: 1, onRetry }))"
                   '.rejects.toThrow("nope");')
S6_JEST_TS2353 = (
    " FAIL  test/retry.test.ts\n  ● Test suite failed to run\n\n"
    "    test/retry.test.ts:40:53 - error TS2353: Object literal may only specify known "
    "properties, and 'onRetry' does not exist in type 'RetryOptions'.\n\n"
    f"    40 {S6_ONRETRY_LINE}\n"
    + " " * 59 + "~~~~~~~\n\n"
    " PASS  test/backoff.test.ts\n\n"
    "Test Suites: 1 failed, 1 passed, 2 total\nTests:       2 passed, 2 total\n"
    "Snapshots:   0 total\nTime:        2.914 s\nRan all test suites.\n")

S6_JEST_PASS = (" PASS  test/backoff.test.ts\n PASS  test/retry.test.ts (4.803 s)\n\n"
                "Test Suites: 2 passed, 2 total\nTests:       7 passed, 7 total\n"
                "Snapshots:   0 total\nTime:        5.391 s\nRan all test suites.\n")

S6_PNPM_INSTALL = """\
Lockfile is up to date, resolution step is skipped
Packages: +409
++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++
Progress: resolved 409, reused 402, downloaded 7, added 409, done

devDependencies:
+ @changesets/cli 2.27.5
+ @size-limit/preset-small-lib 11.1.4
+ @types/jest 29.5.12
+ @types/node 20.14.2
+ eslint 9.5.0
+ jest 29.7.0
+ size-limit 11.1.4
+ ts-jest 29.1.5
+ tsup 8.1.0
+ typescript 5.4.5
+ typescript-eslint 7.13.0

Done in 4.9s
"""


def pnpm_jest(body: str, version: str = "0.4.2") -> str:
    return f"\n> retrywell@{version} test {RW}\n> jest\n\n" + body


S6_ALL = """\
import { retry, type RetryOptions } from "./retry";

export interface RetryAllOptions extends RetryOptions {
  /** Maximum number of tasks running at once. Default `Infinity`. */
  concurrency?: number;
}

/**
 * Runs every task with {@link retry}, at most `concurrency` at a time, and resolves with
 * their results in order. Rejects as soon as one task gives up.
 *
 * @example
 * const pages = await retryAll(urls.map((u) => () => fetchPage(u)), { concurrency: 4 });
 */
export async function retryAll<T>(
  tasks: Array<() => Promise<T>>,
  { concurrency = Infinity, ...opts }: RetryAllOptions = {},
): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  // A tiny worker pool instead of a dependency: retrywell has none at runtime.
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await retry(tasks[i], opts);
    }
  };
  const n = Math.min(concurrency, tasks.length);
  await Promise.all(Array.from({ length: n + 1 }, worker));
  return results;
}
"""

S6_ALL_TEST = """\
import { retryAll } from "../src/all";

it("never runs more than `concurrency` tasks at once", async () => {
  let active = 0;
  let peak = 0;
  const task = (v: number) => async () => {
    active++;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, 5));
    active--;
    return v;
  };
  const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const out = await retryAll(values.map(task), { concurrency: 4 });
  expect(out).toEqual(values);
  expect(peak).toBe(4);
});
"""

S6_JEST_PEAK = """\
 FAIL  test/all.test.ts
  ✕ never runs more than `concurrency` tasks at once (34 ms)

  ● never runs more than `concurrency` tasks at once

    expect(received).toBe(expected) // Object.is equality

    Expected: 4
    Received: 5

      14 |   const out = await retryAll(values.map(task), { concurrency: 4 });
      15 |   expect(out).toEqual(values);
    > 16 |   expect(peak).toBe(4);
         |                ^
      17 | });
      18 |

      at Object.<anonymous> (test/all.test.ts:16:16)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
Snapshots:   0 total
Time:        1.418 s
Ran all test suites matching /test\\/all.test.ts/i.
"""

S6_CI = """\
name: CI
on:
  push:
    branches: [main]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node: [18, 20, 22]
    steps:
      - uses: actions/checkout@v4
      - uses: pnpm/action-setup@v4 # version comes from packageManager in package.json
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node }}
          cache: pnpm
      - run: pnpm install --frozen-lockfile
      - run: pnpm typecheck
      - run: pnpm test
      - run: pnpm build
"""

HOUSE_STYLE = Story(
    id="ts-retrywell-house-style",
    title="A library maintainer's rules given on the first day (zero runtime deps, TSDoc with "
          "@example, changesets, npm ci), then the repo moves from npm to pnpm",
    project=RETRYWELL,
    lessons=(
        lesson("zero-deps", "convention",
               "retrywell has zero runtime dependencies and must keep it that way (used in "
               "Cloudflare Workers and edge runtimes): write small helpers inline instead of "
               "adding packages",
               "runtime dependenc|zero dependenc|zero-dependenc|no dependencies|dependency-free",
               "zero|no|never|don't|free|keep"),
        lesson("npm-ci", "command",
               "Install retrywell's dependencies with `npm ci` (package-lock.json is committed)",
               "npm ci"),
        lesson("tsdoc", "convention",
               "Every exported function and option gets a TSDoc comment with an @example (it's "
               "what users see on hover)",
               "tsdoc|jsdoc|doc comment", "@example|example"),
        lesson("changeset", "convention",
               "Every user-facing change gets a changeset (.changeset/*.md); never bump the "
               "version in package.json by hand",
               "changeset", "version|bump|user-facing|release"),
        lesson("pnpm-switch", "convention",
               "retrywell moved to pnpm (pnpm-lock.yaml, packageManager field): use pnpm "
               "install / pnpm test; package-lock.json must not come back",
               "pnpm", "npm|package-lock|package manager|packageManager|lockfile"),
    ),
    also=(
        # session 0, Edit: "Called before each retry with the error that caused it and the retry
        # number (1-based)."
        lesson("also-onretry-semantics", "fact",
               "The onRetry option is called with (err, attempt) before each retry's delay; the "
               "attempt number is the 1-based retry number",
               "onRetry", "before|1-based|retry number|attempt number"),
        # session 0, Bash: "npx tsc --noEmit && npx eslint src"
        lesson("also-typecheck", "command",
               "Typecheck retrywell with `tsc --noEmit` (the `typecheck` script; CI runs "
               "`pnpm typecheck`) and lint with eslint",
               "tsc --noEmit|pnpm typecheck|npm run typecheck"),
        # session 2, Say: "the only npm mention is the README's install line for users, which should
        # stay"
        lesson("also-readme-npm-install", "decision",
               "The README's `npm i retrywell` install line is for consumers and stays after the "
               "pnpm switch (users can use any package manager); there is no docs/ folder",
               "README", "npm i|install", "user|consumer|stay|keep"),
        # session 4, Write: ".github/workflows/ci.yml ... node: [18, 20, 22] ... pnpm install
        # --frozen-lockfile"
        lesson("also-ci-workflow", "fact",
               "CI (.github/workflows/ci.yml) runs on Node 18, 20 and 22: pnpm install "
               "--frozen-lockfile, then pnpm typecheck, pnpm test and pnpm build; pnpm's version "
               "comes from packageManager",
               "ci.yml|CI|workflow|github actions",
               r"re:frozen-lockfile|18\D{1,8}20\D{1,8}22"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hi there! first time using claude code on retrywell, so some context: it's "
                 "a tiny retry/backoff library on npm. it has zero runtime dependencies and it "
                 "has to stay that way, people run it in cloudflare workers and other edge "
                 "runtimes where every kB counts. we use npm; install with npm ci, "
                 "package-lock.json is committed. today's task: an `onRetry` option, called "
                 "with the error and the attempt number before each retry's delay.",
                 states=("zero-deps", "npm-ci")),
            Bash("npm ci", out=S6_NPM_CI),
            Read("src/retry.ts"),
            Edit("test/retry.test.ts", "    expect(fn).toHaveBeenCalledTimes(1);\n  });\n});\n",
                 "    expect(fn).toHaveBeenCalledTimes(1);\n  });\n\n"
                 '  it("calls onRetry before each retry", async () => {\n'
                 "    const onRetry = jest.fn();\n"
                 "    const fn = jest.fn(async () => {\n"
                 '      throw new Error("nope");\n'
                 "    });\n"
                 f"{S6_ONRETRY_LINE}\n"
                 "    expect(onRetry.mock.calls.map(([, n]) => n)).toEqual([1, 2]);\n"
                 "  });\n});\n"),
            Bash("npx jest", out=S6_JEST_TS2353, ok=False),
            Edit("src/retry.ts", "  shouldRetry?: (err: unknown) => boolean;\n}\n",
                 "  shouldRetry?: (err: unknown) => boolean;\n"
                 "  onRetry?: (err: unknown, attempt: number) => void;\n}\n"),
            Edit("src/retry.ts",
                 "      if (attempt < retries) await sleep(computeDelay(attempt, "
                 "{ baseMs, maxMs, factor }));\n",
                 "      if (attempt < retries) {\n"
                 "        opts.onRetry?.(err, attempt + 1);\n"
                 "        await sleep(computeDelay(attempt, { baseMs, maxMs, factor }));\n"
                 "      }\n"),
            Bash("npx jest", out=S6_JEST_PASS),
            User("nice. couple of house rules for anything public: I'd like a TSDoc comment "
                 "with an @example on every exported function and option, that's what people "
                 "see when they hover in their editor. and please add a changeset for the "
                 "change. we never bump the version in package.json by hand, changesets does "
                 "that when we release.", states=("tsdoc", "changeset")),
            Edit("src/retry.ts", "  onRetry?: (err: unknown, attempt: number) => void;\n",
                 "  /**\n"
                 "   * Called before each retry with the error that caused it and the retry "
                 "number (1-based).\n"
                 "   *\n   * @example\n"
                 '   * retry(fetchUser, { onRetry: (err, n) => metrics.increment("user.retry", '
                 "{ n }) });\n"
                 "   */\n"
                 "  onRetry?: (err: unknown, attempt: number) => void;\n"),
            Edit("src/retry.ts", "export async function retry<T>(",
                 "/**\n * Calls `fn` until it resolves, retrying rejections with exponential "
                 "backoff.\n *\n * @example\n"
                 " * const user = await retry(() => fetchUser(id), { retries: 5 });\n */\n"
                 "export async function retry<T>("),
            Write(".changeset/quiet-owls-wave.md",
                  '---\n"retrywell": minor\n---\n\nAdd `onRetry` option: called with the error '
                  "and the retry number before each retry.\n"),
            Bash("npx tsc --noEmit && npx eslint src", out=""),
            Commit("Add onRetry option"),
        )),
        Session(day=3, events=(
            User("morning! good weekend, went climbing in the frankenjura, my forearms are "
                 "still dead. ok:"),
            Probe("people keep asking for jitter so a fleet of clients doesn't retry in "
                  "lockstep. can you add `jitter: \"full\"` (the AWS 'full jitter' thing: a "
                  "random delay between 0 and the computed one)?",
                  needs=("tsdoc", "changeset")),
            Read("src/backoff.ts"),
            Edit("src/backoff.ts", "  factor: number;\n}\n",
                 "  factor: number;\n"
                 "  /**\n"
                 '   * `"full"` waits a random time between 0 and the computed backoff (AWS '
                 '"full jitter"),\n'
                 "   * so many clients don't retry in lockstep. Default `\"none\"`.\n"
                 "   *\n   * @example\n"
                 '   * retry(sendMetrics, { jitter: "full" });\n'
                 "   */\n"
                 '  jitter?: "none" | "full";\n}\n'),
            Edit("src/backoff.ts", "  return Math.min(raw, opts.maxMs);\n",
                 "  const capped = Math.min(raw, opts.maxMs);\n"
                 '  return opts.jitter === "full" ? Math.random() * capped : capped;\n'),
            Edit("src/retry.ts",
                 "  const { retries = 3, baseMs = 100, maxMs = 10_000, factor = 2 } = opts;\n",
                 "  const { retries = 3, baseMs = 100, maxMs = 10_000, factor = 2, "
                 'jitter = "none" } = opts;\n'),
            Edit("src/retry.ts", "{ baseMs, maxMs, factor })",
                 "{ baseMs, maxMs, factor, jitter })"),
            Edit("test/backoff.test.ts", '  it("is capped at maxMs", () => {\n',
                 '  it("full jitter waits between 0 and the backoff", () => {\n'
                 '    jest.spyOn(Math, "random").mockReturnValue(0.5);\n'
                 '    expect(computeDelay(2, { ...opts, jitter: "full" })).toBe(200);\n'
                 "  });\n\n"
                 '  it("is capped at maxMs", () => {\n'),
            Bash("npm test", out=npm_run("test", "jest") + S6_JEST_PASS.replace(
                "7 passed, 7", "8 passed, 8")),
            Write(".changeset/lucky-pans-jump.md",
                  '---\n"retrywell": minor\n---\n\nAdd `jitter: "full"`: wait a random time '
                  "between 0 and the computed backoff.\n"),
            Commit("Add full jitter option"),
            User("👍"),
        )),
        Session(day=8, events=(
            User("heads up: we moved retrywell to pnpm over the weekend, same as all our other "
                 "repos now. there's a pnpm-lock.yaml and package-lock.json is gone. so from "
                 "now on it's pnpm install / pnpm test etc, and please make sure npm never "
                 "recreates package-lock.json; if one shows up, something ran npm.",
                 replaces="npm-ci", states="pnpm-switch"),
            Bash("pnpm install", out=S6_PNPM_INSTALL),
            Bash("pnpm test", out=pnpm_jest(S6_JEST_PASS.replace("7 passed, 7", "8 passed, 8"))),
            User("and add the packageManager field so corepack picks the right pnpm"),
            Edit("package.json", '  "license": "MIT",\n',
                 '  "license": "MIT",\n  "packageManager": "pnpm@9.4.0",\n'),
            User("is there anything in docs/ that still tells contributors to use npm?"),
            Bash("ls docs", out="ls: cannot access 'docs': No such file or directory", ok=False,
                 exit=2),
            Bash("grep -rn 'npm ' README.md", out="README.md:13:Install with `npm i retrywell`. "
                 "Works in Node 18+, Deno, Bun and edge runtimes."),
            Say("There's no docs/ folder; the only npm mention is the README's install line "
                "for users, which should stay (consumers can use any package manager)."),
            Commit("Use pnpm: add packageManager field"),
            User("perfect"),
        )),
        Session(day=11, noise=True, events=(
            User("hey 👋 slow friday. can you remind me what computeDelay does for attempt 0?"),
            Read("src/backoff.ts"),
            Say("Attempt 0 waits baseMs (factor ** 0 is 1), capped at maxMs; with "
                'jitter: "full" it is a random value between 0 and that.'),
            User("right. tests still green on main?"),
            Bash("pnpm test", out=pnpm_jest(S6_JEST_PASS.replace("7 passed, 7", "8 passed, 8"))),
            User("cool. what's waiting in .changeset right now?"),
            Bash("ls .changeset", out="README.md\nconfig.json\nlucky-pans-jump.md\n"
                                      "quiet-owls-wave.md"),
            Say("Two pending changesets, onRetry and full jitter, both minor, so the next "
                "release will be 0.5.0."),
            User("ok good. oh, can you bump @types/node to ^20.14.9 while we're at it?"),
            Edit("package.json", '"@types/node": "^20.14.2",', '"@types/node": "^20.14.9",'),
            Bash("pnpm install", out="Packages: +1 -1\n+-\nProgress: resolved 409, reused 408, "
                 "downloaded 1, added 1, done\n\ndevDependencies:\n- @types/node 20.14.2\n"
                 "+ @types/node 20.14.9\n\nDone in 2.2s\n"),
            Bash("git diff --stat", out=" package.json   |  2 +-\n pnpm-lock.yaml | 10 +++++-----\n"
                 " 2 files changed, 6 insertions(+), 6 deletions(-)"),
            Commit("Bump @types/node"),
            User("thanks, have a nice weekend"),
            Say("You too, and good luck with the forearms."),
        )),
        Session(day=15, events=(
            Probe("morning! someone wants to retry a batch of calls with a concurrency cap, "
                  "`retryAll(tasks, { concurrency: 4 })`. p-limit does the limiting part, feel "
                  "free to pull it in if that's easiest.", needs="zero-deps"),
            Say("I'd rather not add p-limit: retrywell has no runtime dependencies, and a "
                "worker pool for this is a dozen lines. I'll write it inline in src/all.ts."),
            Write("src/all.ts", S6_ALL),
            Edit("src/index.ts", 'export { computeDelay } from "./backoff";\n',
                 'export { computeDelay } from "./backoff";\n'
                 'export { retryAll } from "./all";\n'
                 'export type { RetryAllOptions } from "./all";\n'),
            Write("test/all.test.ts", S6_ALL_TEST),
            Bash("pnpm exec jest test/all.test.ts", out=S6_JEST_PEAK, ok=False),
            Edit("src/all.ts", "Array.from({ length: n + 1 }, worker)",
                 "Array.from({ length: n }, worker)"),
            Bash("pnpm exec jest test/all.test.ts",
                 out=jest_ok([("test/all.test.ts", 1)], "1.227", "test\\/all.test.ts")),
            Probe("CI is red on this branch, the install step fails because it can't find a "
                  "package-lock. can you fix .github/workflows/ci.yml?", needs="pnpm-switch"),
            Write(".github/workflows/ci.yml", S6_CI),
            Probe("ok, that's everything for this one. get it ready for review", needs=(
                "changeset", "tsdoc")),
            Write(".changeset/brave-foxes-sing.md",
                  '---\n"retrywell": minor\n---\n\nAdd `retryAll(tasks, { concurrency })`: '
                  "retry many tasks with at most `concurrency` running at once.\n"),
            Commit("Add retryAll with a concurrency limit; CI installs with pnpm"),
            User("thank you!"),
        )),
    ),
)


# == Story: dual ESM/CJS packaging ==============================================================

ATTW_TABLE = """\
┌───────────────────┬──────────────────────────────┐
│                   │ "retrywell"                  │
├───────────────────┼──────────────────────────────┤
│ node10            │ 🟢                           │
├───────────────────┼──────────────────────────────┤
│ node16 (from CJS) │ {cjs}│
├───────────────────┼──────────────────────────────┤
│ node16 (from ESM) │ {esm}│
├───────────────────┼──────────────────────────────┤
│ bundler           │ 🟢                           │
└───────────────────┴──────────────────────────────┘
"""


def attw(summary: str, cjs: str, esm: str) -> str:
    """``npx --yes @arethetypeswrong/cli --pack .`` (0.15) on retrywell."""
    return ("\nretrywell v0.4.2\n\nBuild tools:\n- typescript@^5.4.5\n- tsup@^8.1.0\n\n"
            f"{summary}\n\n" + ATTW_TABLE.format(cjs=cjs.ljust(27) + " ", esm=esm.ljust(27) + " "))


S7_ATTW_FALSE_CJS = attw(
    "👺 Import resolved to a CommonJS type declaration file, but an ESM JavaScript file.\n"
    "https://github.com/arethetypeswrong/arethetypeswrong.github.io/blob/main/docs/problems/"
    "FalseCJS.md", "🟢 (CJS)", "👺 Masquerading as CJS")
S7_ATTW_OK = attw(" No problems found 🌟", "🟢 (CJS)", "🟢 (ESM)")
S7_ATTW_ESM_ONLY = attw(
    " No problems found 🌟 (ignoring rules: 'cjs-resolves-to-esm')",
    "⚠️ ESM (dynamic import only)", "🟢 (ESM)")

S7_EXPORTS_FLAT = """\
    ".": {
      "types": "./dist/index.d.ts",
      "import": "./dist/index.mjs",
      "require": "./dist/index.js"
    }
"""
S7_EXPORTS_NESTED = """\
    ".": {
      "import": {
        "types": "./dist/index.d.mts",
        "default": "./dist/index.mjs"
      },
      "require": {
        "types": "./dist/index.d.ts",
        "default": "./dist/index.js"
      }
    }
"""
S7_ENTRY_DUAL = """\
  "main": "./dist/index.js",
  "module": "./dist/index.mjs",
  "types": "./dist/index.d.ts",
  "exports": {
""" + S7_EXPORTS_NESTED + "  },\n"
S7_ENTRY_ESM = """\
  "type": "module",
  "main": "./dist/index.js",
  "types": "./dist/index.d.ts",
  "exports": {
    ".": {
      "types": "./dist/index.d.ts",
      "default": "./dist/index.js"
    }
  },
"""

S7_JEST_ESM_CONFIG = f"""\
Error: Jest: Failed to load ESM at {RW}/jest.config.js - did you use a default export?
ReferenceError: module is not defined in ES module scope
This file is being treated as an ES module because it has a '.js' file extension and \
'{RW}/package.json' contains "type": "module". To treat it as a CommonJS script, rename it to \
use the '.cjs' file extension.
    at file://{RW}/jest.config.js:2:1
    at ModuleJob.run (node:internal/modules/esm/module_job:222:25)
"""

S7_JEST_PASS = (" PASS  test/backoff.test.ts\n PASS  test/retry.test.ts (4.772 s)\n\n"
                "Test Suites: 2 passed, 2 total\nTests:       6 passed, 6 total\n"
                "Snapshots:   0 total\nTime:        5.306 s\nRan all test suites.\n")

S7_YARN_REQUIRE = """\
yarn add v1.22.22
info No lockfile found.
[1/4] Resolving packages...
[2/4] Fetching packages...
[3/4] Linking dependencies...
[4/4] Building fresh packages...
success Saved lockfile.
success Saved 1 new dependency.
info Direct dependencies
└─ retrywell@1.0.0-beta.1
info All dependencies
└─ retrywell@1.0.0-beta.1
Done in 1.12s.
node:internal/modules/cjs/loader:1146
      throw new ERR_REQUIRE_ESM(filename, true);
      ^

Error [ERR_REQUIRE_ESM]: require() of ES Module \
/tmp/cjs-consumer/node_modules/retrywell/dist/index.js from /tmp/cjs-consumer/[eval] not \
supported.
Instead change the require of index.js in /tmp/cjs-consumer/[eval] to a dynamic import() which \
is available in all CommonJS modules.
    at [eval]:1:1 {
  code: 'ERR_REQUIRE_ESM'
}

Node.js v20.14.0
"""

S7_RETRY_ABORT = """\
import { computeDelay, type BackoffOptions } from "./backoff";

export interface RetryOptions extends Partial<BackoffOptions> {
  /** How many times to retry after the first attempt. Default 3. */
  retries?: number;
  shouldRetry?: (err: unknown) => boolean;
  /** Stops retrying when aborted; retry() then rejects with a RetryAbortedError. */
  signal?: AbortSignal;
}

export class RetryAbortedError extends Error {
  constructor(reason: unknown) {
    super("retry aborted", { cause: reason });
    this.name = "RetryAbortedError";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function retry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const { retries = 3, baseMs = 100, maxMs = 10_000, factor = 2, signal } = opts;
  let lastErr: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (signal?.aborted) throw new RetryAbortedError(signal.reason);
    try {
      return await fn();
    } catch (err) {
      lastErr = err;
      if (opts.shouldRetry && !opts.shouldRetry(err)) throw err;
      if (attempt < retries) await sleep(computeDelay(attempt, { baseMs, maxMs, factor }));
    }
  }
  throw lastErr;
}
"""

S7_ABORT_TEST = """\
import { retry, RetryAbortedError } from "../src/retry";

it("stops waiting as soon as the signal aborts", async () => {
  const ac = new AbortController();
  const fn = jest.fn(async () => {
    throw new Error("down");
  });
  const p = retry(fn, { baseMs: 60_000, signal: ac.signal });
  setTimeout(() => ac.abort(), 10);
  await expect(p).rejects.toBeInstanceOf(RetryAbortedError);
  expect(fn).toHaveBeenCalledTimes(1);
});
"""

S7_JEST_ABORT_TIMEOUT = """\
 FAIL  test/abort.test.ts (5.412 s)
  ✕ stops waiting as soon as the signal aborts (5003 ms)

  ● stops waiting as soon as the signal aborts

    thrown: "Exceeded timeout of 5000 ms for a test.
    Add a timeout value to this test to increase the timeout, if this is a long-running test. \
See https://jestjs.io/docs/api#testname-fn-timeout."

      1 | import { retry, RetryAbortedError } from "../src/retry";
      2 |
    > 3 | it("stops waiting as soon as the signal aborts", async () => {
        | ^
      4 |   const ac = new AbortController();
      5 |   const fn = jest.fn(async () => {
      6 |     throw new Error("down");

      at Object.<anonymous> (test/abort.test.ts:3:1)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
Snapshots:   0 total
Time:        5.633 s
Ran all test suites matching /test\\/abort.test.ts/i.
Jest did not exit one second after the test run has completed.

This usually means that there are asynchronous operations that weren't stopped in your tests. \
Consider running Jest with `--detectOpenHandles` to troubleshoot this issue.
"""

S7_PACK = """\
npm notice
npm notice 📦  retrywell@0.4.2
npm notice === Tarball Contents ===
npm notice 1.0kB README.md
npm notice 2.6kB dist/index.d.mts
npm notice 2.6kB dist/index.d.ts
npm notice 3.1kB dist/index.js
npm notice 7.4kB dist/index.js.map
npm notice 2.8kB dist/index.mjs
npm notice 7.3kB dist/index.mjs.map
npm notice 1.3kB package.json
npm notice === Tarball Details ===
npm notice name:          retrywell
npm notice version:       0.4.2
npm notice filename:      retrywell-0.4.2.tgz
npm notice package size:  8.9 kB
npm notice unpacked size: 28.1 kB
npm notice shasum:        3b0f6c1e9d2a47e5c8b1f0d6a9e4c27b5d813f0a
npm notice integrity:     sha512-q8Vt3n1kXo2m[...]Yc0pW4hJr9sA==
npm notice total files:   8
npm notice
retrywell-0.4.2.tgz
"""

DUAL_PACKAGE = Story(
    id="ts-retrywell-dual-package",
    title="Wrong types for ESM consumers found with attw and fixed with per-condition exports; "
          "an ESM-only 1.0 beta that breaks require() users and is reverted",
    project=RETRYWELL,
    lessons=(
        lesson("exports-types", "gotcha",
               "package.json exports needs types per condition: import -> ./dist/index.d.mts, "
               "require -> ./dist/index.d.ts; a single top-level \"types\" made attw report "
               "'Masquerading as CJS' for ESM consumers",
               "d.mts|d.cts|masquerading|per-condition|per condition|nested", "types|exports"),
        lesson("attw-check", "command",
               "Before every publish, run `npx --yes @arethetypeswrong/cli --pack .` (attw) on "
               "the packed tarball",
               "arethetypeswrong|attw", "pack|publish|release|before"),
        lesson("tsup-config", "fact",
               "The build is tsup.config.ts: entry src/index.ts, formats cjs + esm "
               "(dist/index.js, dist/index.mjs), dts",
               "tsup.config|tsup", "cjs|esm|format|dts|index.mjs"),
        lesson("esm-only", "decision",
               "retrywell 1.0 goes ESM-only (\"type\": \"module\", tsup format esm, exports "
               "without require)",
               "esm-only|esm only|pure esm", "1.0|go|ship|switch|move"),
        lesson("jest-cjs-config", "gotcha",
               "With \"type\": \"module\" in package.json, jest.config.js (module.exports) fails "
               "to load ('module is not defined in ES module scope'); it must be jest.config.cjs",
               "jest.config.cjs|.cjs", "type|module"),
        lesson("keep-dual", "decision",
               "retrywell keeps shipping both CJS and ESM builds: dropping CJS in the first "
               "1.x beta broke require() users (ERR_REQUIRE_ESM from Jest, NestJS)",
               "cjs|commonjs|require", "esm", "both|dual|keep"),
        lesson("public-api", "fact",
               "The public API is exactly what src/index.ts re-exports; everything else in src/ "
               "is internal (deep imports aren't supported) and can change freely",
               "src/index.ts|index.ts", "public|internal"),
    ),
    also=(
        # session 0, Edit: '"release": "npm run build && npm run check:exports && changeset
        # publish"'
        lesson("also-check-exports-script", "fact",
               "package.json has a `check:exports` script (attw on the packed tarball), and "
               "`npm run release` runs build, then check:exports, then changeset publish",
               "check:exports|exports check", "release|publish"),
        # session 1, User: "node 18 is our floor anyway"
        lesson("also-node18-floor", "fact",
               "Node 18 is retrywell's minimum supported Node version (engines >=18)",
               "18", "floor|engines|minimum|support"),
        # session 3, Say: "the 60s delay itself doesn't listen to it ... sleep() has to reject on
        # 'abort' and clear its timer"
        lesson("also-abortable-sleep", "fact",
               "retry()'s `signal` is honoured mid-delay: sleep() listens for 'abort', clears its "
               "timer and rejects with RetryAbortedError (checking only before each attempt makes "
               "an abort wait out the backoff)",
               "signal|abort", "sleep|delay|backoff", "reject|RetryAbortedError|clear"),
        # session 4, Say: "`npx changeset version` to turn the pending changesets into 1.0.0 and its
        # changelog, commit, then `npm run release`"
        lesson("also-release-steps", "command",
               "To release: `npx changeset version` (turns pending changesets into the new version "
               "and changelog), commit, then `npm run release`",
               "changeset version"),
        # session 4, Say: "the tarball holds only dist/, README and package.json"
        lesson("also-tarball-contents", "fact",
               "The published tarball holds only dist/, README.md and package.json (\"files\": "
               "[\"dist\"]); check with `npm pack --dry-run`",
               "npm pack|pack --dry-run|tarball", "dist"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! got an issue on github (#41): someone on TypeScript with "
                 "moduleResolution node16 says attw flags retrywell and their ESM build gets "
                 "confused about our types. can you take a look? I've never used attw myself."),
            Bash("npm run build", out=tsup_ok()),
            Bash("npx --yes @arethetypeswrong/cli --pack .", out=S7_ATTW_FALSE_CJS, ok=False),
            Read("package.json"),
            Read("tsup.config.ts"),
            Say("The build is fine: tsup.config.ts builds src/index.ts as cjs and esm, giving "
                "dist/index.js (CJS) and dist/index.mjs (ESM), each with its own declarations "
                "(index.d.ts and index.d.mts). The problem is the exports map: its single "
                "top-level \"types\" condition sends every TypeScript consumer to index.d.ts, "
                "and because the package has no \"type\": \"module\", TS treats that file as "
                "CJS even when the import actually resolves to index.mjs. That's attw's "
                "'Masquerading as CJS'. The fix is types per condition: import gets "
                "./dist/index.d.mts, require gets ./dist/index.d.ts.",
                states=("exports-types", "tsup-config")),
            Edit("package.json", S7_EXPORTS_FLAT, S7_EXPORTS_NESTED),
            Bash("npm run build && npx --yes @arethetypeswrong/cli --pack .",
                 out=tsup_ok() + S7_ATTW_OK),
            Bash("npx jest", out=S7_JEST_PASS),
            User("love it. can we make attw part of the routine? run it on the packed tarball "
                 "before every publish from now on, so this never comes back.",
                 states="attw-check"),
            Edit("package.json", '    "release": "npm run build && changeset publish"\n',
                 '    "check:exports": "npx --yes @arethetypeswrong/cli --pack .",\n'
                 '    "release": "npm run build && npm run check:exports && changeset publish"\n'),
            Write(".changeset/tidy-ducks-smile.md",
                  '---\n"retrywell": patch\n---\n\nFix types for ESM consumers under '
                  "moduleResolution node16/nodenext (#41).\n"),
            Commit("Fix exports: per-condition types for import and require (#41)"),
        )),
        Session(day=4, events=(
            User("been thinking about 1.0. dual packages keep biting us (see #41), node 18 is "
                 "our floor anyway and everyone's on ESM these days. I'd like 1.0 to go "
                 "ESM-only. can you make the change? we'd put it out as 1.0.0-beta.1 first.",
                 states="esm-only"),
            Read("tsup.config.ts"),
            Edit("tsup.config.ts", '  format: ["cjs", "esm"],\n', '  format: ["esm"],\n'),
            Edit("package.json", S7_ENTRY_DUAL, S7_ENTRY_ESM),
            Bash("npm run build", out=tsup_ok(("esm",))),
            Bash("npx jest", out=S7_JEST_ESM_CONFIG, ok=False),
            Say("\"type\": \"module\" makes every .js file in the package ESM, including "
                "jest.config.js, which uses module.exports. Renaming it to jest.config.cjs "
                "keeps it CommonJS; the tests themselves are compiled by ts-jest and don't "
                "care.", states="jest-cjs-config"),
            Bash("git mv jest.config.js jest.config.cjs"),
            Bash("npx jest", out=S7_JEST_PASS),
            Bash("npx --yes @arethetypeswrong/cli --pack . --profile esm-only",
                 out=S7_ATTW_ESM_ONLY),
            Say("Built and checked. One consequence to flag: CommonJS consumers can no longer "
                "require() retrywell on Node before 22; they'd need a dynamic import()."),
            Write(".changeset/proud-lions-run.md",
                  '---\n"retrywell": major\n---\n\nretrywell is now ESM-only. CommonJS users '
                  "need a dynamic `import()`.\n"),
            Commit("1.0: ship ESM only"),
            User("🚀 let's see how the beta goes"),
        )),
        Session(day=9, judge={"esm-only": "down"}, events=(
            User("well. the beta did not go well: three issues in two days. people on Jest "
                 "(CommonJS) get `Error [ERR_REQUIRE_ESM]: require() of ES Module ... not "
                 "supported`, and a NestJS user can't upgrade at all. I was too optimistic. "
                 "let's go back to shipping both CJS and ESM for 1.0; ESM-only can wait until "
                 "require(esm) is everywhere.", fails="esm-only", states="keep-dual"),
            Bash("cd /tmp/cjs-consumer && yarn add retrywell@1.0.0-beta.1 && node -e "
                 "\"require('retrywell')\"", out=S7_YARN_REQUIRE, ok=False),
            Probe("yep, that's the one everyone hits. go ahead and bring the CJS build back",
                  needs=("exports-types", "tsup-config")),
            Edit("tsup.config.ts", '  format: ["esm"],\n', '  format: ["cjs", "esm"],\n'),
            Edit("package.json", S7_ENTRY_ESM, S7_ENTRY_DUAL),
            Bash("npm run build && npx --yes @arethetypeswrong/cli --pack .",
                 out=tsup_ok() + S7_ATTW_OK),
            Bash("npx jest", out=S7_JEST_PASS),
            Write(".changeset/proud-lions-run.md",
                  '---\n"retrywell": major\n---\n\n1.0 keeps shipping both CommonJS and ESM '
                  "(1.0.0-beta.1 was ESM-only and broke require() users).\n"),
            Commit("Restore the dual CJS+ESM build (beta.1 broke require() users)"),
            User("thanks. lesson learned"),
        )),
        Session(day=12, events=(
            User("today: AbortSignal support. `retry(fn, { signal })` should stop retrying as "
                 "soon as the signal aborts, also in the middle of a delay, and reject with an "
                 "error that says it was aborted."),
            Read("src/retry.ts"),
            Write("src/retry.ts", S7_RETRY_ABORT),
            Write("test/abort.test.ts", S7_ABORT_TEST),
            Bash("npx jest test/abort.test.ts", out=S7_JEST_ABORT_TIMEOUT, ok=False),
            Say("The signal is only checked before each attempt; the 60s delay itself doesn't "
                "listen to it, so the test waits out the backoff. sleep() has to reject on "
                "'abort' and clear its timer."),
            Edit("src/retry.ts",
                 "const sleep = (ms: number) => "
                 "new Promise((resolve) => setTimeout(resolve, ms));\n",
                 "const sleep = (ms: number, signal?: AbortSignal) =>\n"
                 "  new Promise<void>((resolve, reject) => {\n"
                 "    const onAbort = () => {\n"
                 "      clearTimeout(timer);\n"
                 "      reject(new RetryAbortedError(signal?.reason));\n"
                 "    };\n"
                 "    const timer = setTimeout(() => {\n"
                 '      signal?.removeEventListener("abort", onAbort);\n'
                 "      resolve();\n"
                 "    }, ms);\n"
                 '    signal?.addEventListener("abort", onAbort, { once: true });\n'
                 "  });\n"),
            Edit("src/retry.ts", "await sleep(computeDelay(attempt, { baseMs, maxMs, factor }));",
                 "await sleep(computeDelay(attempt, { baseMs, maxMs, factor }), signal);"),
            Bash("npx jest", out=S7_JEST_PASS.replace(" PASS  test/backoff", " PASS  "
                 "test/abort.test.ts\n PASS  test/backoff").replace("2 passed, 2", "3 passed, 3")
                 .replace("6 passed, 6", "7 passed, 7")),
            Compact(instructions="Keep the AbortSignal work (src/retry.ts, test/abort.test.ts) "
                                 "and what's left to do for it; drop the jest timeout "
                                 "debugging."),
            User("ok. RetryAbortedError needs to be importable by users, right now it only "
                 "lives in retry.ts"),
            Say("Right: src/index.ts is the package's public surface. Only what it re-exports "
                "ends up in the public entry and its types; everything else under src/ is "
                "internal. I'll re-export RetryAbortedError there.", states="public-api"),
            Edit("src/index.ts", 'export { retry } from "./retry";\n',
                 'export { retry, RetryAbortedError } from "./retry";\n'),
            Write(".changeset/calm-seals-wait.md",
                  '---\n"retrywell": minor\n---\n\nAdd a `signal` option: aborting it stops '
                  "retrying, even mid-delay, and rejects with `RetryAbortedError`.\n"),
            Commit("Add signal option to abort retries"),
        )),
        Session(day=16, judge={"attw-check": "up"}, events=(
            Probe("alright, I think we're ready for 1.0.0 proper. what needs to happen before I "
                  "hit publish?", needs=("attw-check", "keep-dual")),
            Bash("npm run build", out=tsup_ok()),
            Bash("npx --yes @arethetypeswrong/cli --pack .", out=S7_ATTW_OK),
            Bash("npm pack --dry-run", out=S7_PACK),
            Say("Checked: the build produces both CJS and ESM, attw is clean for require and "
                "import under node10, node16 and bundler resolution, and the tarball holds "
                "only dist/, README and package.json. What's left: `npx changeset pre exit`, "
                "`npx changeset version` to turn the pending changesets into 1.0.0 and its "
                "changelog, commit, then `npm run release` (which builds and runs the exports "
                "check again before publishing)."),
            Probe("one more question from the #41 thread: someone imports `sleep` from "
                  "'retrywell/dist/retry' to reuse our abortable sleep. if I rename it in 1.1, "
                  "is that a breaking change?", needs="public-api"),
            Say("No. Only what src/index.ts re-exports is public, and sleep isn't exported. "
                "With an exports map, 'retrywell/dist/retry' doesn't even resolve in Node "
                "(ERR_PACKAGE_PATH_NOT_EXPORTED); it only works through bundlers that ignore "
                "exports. If people want it, we can export it properly in 1.1."),
            User("perfect, thanks. publishing after lunch"),
        )),
    ),
)


# == Story: fake timers, and the move from jest to vitest =======================================

S8_JEST_TIMEOUTS = """\
 FAIL  test/retry.test.ts (10.271 s)
  retry
    ✓ returns the first successful result (2 ms)
    ✕ retries until fn succeeds (5003 ms)
    ✕ gives up after `retries` attempts (5001 ms)
    ✓ stops when shouldRetry returns false (1 ms)

  ● retry › retries until fn succeeds

    thrown: "Exceeded timeout of 5000 ms for a test.
    Add a timeout value to this test to increase the timeout, if this is a long-running test. \
See https://jestjs.io/docs/api#testname-fn-timeout."

      10 |   });
      11 |
    > 12 |   it("retries until fn succeeds", async () => {
         |   ^
      13 |     let calls = 0;
      14 |     const fn = async () => {
      15 |       calls += 1;

      at it (test/retry.test.ts:12:3)
      at Object.<anonymous> (test/retry.test.ts:3:1)

  ● retry › gives up after `retries` attempts

    thrown: "Exceeded timeout of 5000 ms for a test.
    Add a timeout value to this test to increase the timeout, if this is a long-running test. \
See https://jestjs.io/docs/api#testname-fn-timeout."

      23 |   });
      24 |
    > 25 |   it("gives up after `retries` attempts", async () => {
         |   ^
      26 |     const fn = jest.fn(async () => {
      27 |       throw new Error("boom");
      28 |     });

      at it (test/retry.test.ts:25:3)
      at Object.<anonymous> (test/retry.test.ts:3:1)

Test Suites: 1 failed, 1 total
Tests:       2 failed, 2 passed, 4 total
Snapshots:   0 total
Time:        10.318 s
Ran all test suites matching /test\\/retry.test.ts/i.
"""

S8_JEST_FAST = """\
(node:48211) PromiseRejectionHandledWarning: Promise rejection was handled asynchronously \
(rejection id: 3)
(Use `node --trace-warnings ...` to show where the warning was created)
 PASS  test/retry.test.ts
  retry
    ✓ returns the first successful result (2 ms)
    ✓ retries until fn succeeds (3 ms)
    ✓ gives up after `retries` attempts (2 ms)
    ✓ stops when shouldRetry returns false (1 ms)

Test Suites: 1 passed, 1 total
Tests:       4 passed, 4 total
Snapshots:   0 total
Time:        0.874 s, estimated 11 s
Ran all test suites matching /test\\/retry.test.ts/i.
"""

S8_COVERAGE = """\
 PASS  test/backoff.test.ts
 PASS  test/retry.test.ts
------------|---------|----------|---------|---------|-------------------
File        | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s
------------|---------|----------|---------|---------|-------------------
All files   |   95.65 |    91.66 |     100 |   95.23 |
 backoff.ts |    87.5 |       75 |     100 |   85.71 | 8
 retry.ts   |     100 |      100 |     100 |     100 |
------------|---------|----------|---------|---------|-------------------

Test Suites: 2 passed, 2 total
Tests:       6 passed, 6 total
Snapshots:   0 total
Time:        1.902 s
Ran all test suites.
"""

S8_LINT_BACKOFF = npm_run("lint", "eslint .") + f"""\

{RW}/test/backoff.test.ts
  1:29  error  'BackoffOptions' is defined but never used  @typescript-eslint/no-unused-vars

✖ 1 problem (1 error, 0 warnings)

"""

S8_NPM_SWAP = """\

removed 263 packages, and audited 150 packages in 2s

found 0 vulnerabilities

added 38 packages, and audited 188 packages in 4s

35 packages are looking for funding
  run `npm fund` for details

found 0 vulnerabilities
"""

S8_VITEST_RETRY = """\
import { beforeEach, describe, expect, it, vi } from "vitest";
import { retry } from "../src/retry";

describe("retry", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it("returns the first successful result", async () => {
    await expect(retry(async () => 42)).resolves.toBe(42);
  });

  it("retries until fn succeeds", async () => {
    let calls = 0;
    const fn = async () => {
      calls += 1;
      if (calls < 3) throw new Error("flaky");
      return "ok";
    };
    const p = retry(fn, { baseMs: 500 });
    await vi.advanceTimersByTimeAsync(500 + 1000);
    await expect(p).resolves.toBe("ok");
    expect(calls).toBe(3);
  });

  it("gives up after `retries` attempts", async () => {
    const fn = vi.fn(async () => {
      throw new Error("boom");
    });
    const p = retry(fn, { retries: 2, baseMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000 + 2000);
    await expect(p).rejects.toThrow("boom");
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it("stops when shouldRetry returns false", async () => {
    const fn = vi.fn(async () => {
      throw new Error("fatal");
    });
    await expect(retry(fn, { shouldRetry: () => false })).rejects.toThrow("fatal");
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
"""

S8_VITEST_UNHANDLED = npm_run("test", "vitest run") + f"""\

 RUN  v1.6.0 {RW}

 ✓ test/backoff.test.ts  (2 tests) 2ms
 ✓ test/retry.test.ts  (4 tests) 9ms

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯
Error: boom
 ❯ test/retry.test.ts:28:13
     26|   it("gives up after `retries` attempts", async () => {{
     27|     const fn = vi.fn(async () => {{
     28|       throw new Error("boom");
       |             ^
     29|     }});
     30|     const p = retry(fn, {{ retries: 2, baseMs: 1000 }});

This error originated in "test/retry.test.ts" test file. It doesn't mean the error was thrown \
inside the file itself, but while it was running.
The latest test that might've caused the error is "gives up after `retries` attempts". It \
might mean one of the following:
- The error was thrown, while Vitest was running this test.
- If the error occurred after the test had been completed, this was the last documented test \
before it was thrown.
⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 Test Files  2 passed (2)
      Tests  6 passed (6)
     Errors  1 error
   Start at  11:20:44
   Duration  388ms (transform 61ms, setup 0ms, collect 74ms, tests 11ms, environment 0ms, \
prepare 141ms)

"""

S8_TYPES_LINE = '    "types": ["node", "jest"],'
S8_TSC_TYPES = (
    "error TS2688: Cannot find type definition file for 'jest'.\n"
    "  The file is in the program because:\n"
    "    Entry point of type library 'jest' specified in compilerOptions\n\n"
    "  tsconfig.json:7:23\n"
    f"    7 {S8_TYPES_LINE}\n"
    + " " * 28 + "~~~~~~\n"
    "    File is entry point of type library specified here.\n\n\n"
    "Found 1 error in tsconfig.json:7\n\n")

S8_MAXMS_TEST = """\

  it("never waits longer than maxMs between attempts", async () => {
    const fn = vi.fn(async () => {
      throw new Error("down");
    });
    const opts = { retries: 5, baseMs: 100, maxMs: 300 };
    const assertion = expect(retry(fn, opts)).rejects.toThrow("down");
    // delays: 100, 200, 300 (capped), 300, 300
    await vi.advanceTimersByTimeAsync(1199);
    expect(fn).toHaveBeenCalledTimes(5);
    await vi.advanceTimersByTimeAsync(1);
    await assertion;
    expect(fn).toHaveBeenCalledTimes(6);
  });
"""

S8_TIMERS_REPORT = """\
vitest runs every test file in its own worker (pool: threads, isolate: true), so nothing leaks \
between files. Inside test/retry.test.ts, the describe block's beforeEach calls \
vi.useFakeTimers() and nothing ever restores real timers. Your race test sits after the \
describe block, so that beforeEach doesn't apply to it, but the fake timers installed for the \
last test in the block are still active when it runs: its setTimeout is a fake one that nothing \
advances, so it hangs. Run alone (with -t), the describe tests are skipped, fake timers are \
never installed, and it passes. Fix: add afterEach(() => vi.useRealTimers()) next to the \
beforeEach, so fake timers never outlive the test that turned them on."""

FAKE_TIMERS = Story(
    id="ts-retrywell-fake-timers",
    title="Fake timers hang a promise-based retry until the async variant is used; the switch "
          "from jest to vitest turns a handled-late rejection into a failure",
    project=RETRYWELL,
    lessons=(
        lesson("jest-cmd", "command",
               "While working on one test file, run just it with `npx jest test/<file>.test.ts`",
               "npx jest", "test"),
        lesson("fake-timers-async", "gotcha",
               "With fake timers, retry()'s awaited sleeps only advance with the async API "
               "(await advanceTimersByTimeAsync); the sync advanceTimersByTime leaves the next "
               "timer unscheduled and the test times out",
               "advanceTimersByTimeAsync|runAllTimersAsync|async timer|async variant",
               "fake|timer"),
        lesson("vitest-switch", "decision",
               "retrywell's tests moved from jest/ts-jest to vitest (ts-jest was slow and "
               "fragile with ESM): `npm test` runs `vitest run`, one file with `npx vitest run "
               "<file>`",
               "vitest", "jest|run|npm test"),
        lesson("unhandled-rejection", "gotcha",
               "In fake-timer tests, attach `expect(p).rejects` before advancing the timers "
               "and await it afterwards; otherwise the rejection is briefly unhandled and "
               "vitest fails the run with 'Unhandled Rejection'",
               "rejects|unhandled", "before|first|attach"),
        lesson("restore-timers", "gotcha",
               "test/retry.test.ts turns on fake timers in beforeEach; afterEach must call "
               "vi.useRealTimers() or tests relying on real time hang",
               "useRealTimers|real timers", "afterEach|restore|leak"),
    ),
    also=(
        # session 1, Bash/Say: "'BackoffOptions' is defined but never used" / "that's been there on
        # main ... Leaving it."
        lesson("also-lint-unused-import", "gotcha",
               "`npm run lint` fails on main because of a pre-existing unused `BackoffOptions` "
               "type "
               "import in test/backoff.test.ts; it is unrelated to other changes and was left "
               "alone",
               "backoff.test.ts|BackoffOptions", "lint|unused|no-unused-vars"),
        # session 2, Edit: 'import { describe, expect, it } from "vitest";' and tsconfig types ->
        # ["node"]
        lesson("also-vitest-imports", "convention",
               "Since the vitest switch, test files import describe/it/expect/vi from \"vitest\" "
               "explicitly (no globals) and tsconfig's types is just [\"node\"] (listing \"jest\" "
               "breaks tsc with TS2688)",
               "vitest|TS2688", r"re:\bimport|\bglobals?\b|TS2688|tsconfig"),
        # session 2, Bash: "npm test && npx tsc --noEmit"
        lesson("also-typecheck", "command",
               "Typecheck separately from the tests with `npx tsc --noEmit`",
               "tsc --noEmit|npm run typecheck"),
        # session 3, Say: "There's no docs script in package.json, and no typedoc ... The TSDoc
        # comments are what users see."
        lesson("also-no-api-docs", "fact",
               "retrywell has no generated API docs (no `docs` script, no typedoc); the TSDoc "
               "comments are the documentation users see",
               "docs script|npm run docs|typedoc|api docs|generated docs",
               "no|none|isn't|there's no|missing|tsdoc"),
        # session 4, Subagent: "vitest runs every test file in its own worker (pool: threads,
        # isolate: true), so nothing leaks between files"
        lesson("also-vitest-isolation", "fact",
               "vitest runs each test file in its own worker (pool: threads, isolate: true), so "
               "state only leaks between tests in the same file, never across files",
               "isolate|own worker|pool", "vitest|file"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! the retry tests take ~5 seconds because they actually sleep through "
                 "the backoff. can you switch them to fake timers? while you're on it, just "
                 "run that one file with npx jest test/retry.test.ts, no need for the whole "
                 "suite every time.", states="jest-cmd"),
            Read("test/retry.test.ts"),
            Edit("test/retry.test.ts", 'describe("retry", () => {\n',
                 'describe("retry", () => {\n  beforeEach(() => {\n    jest.useFakeTimers();\n'
                 "  });\n\n"),
            Edit("test/retry.test.ts",
                 '    await expect(retry(fn, { baseMs: 500 })).resolves.toBe("ok");\n',
                 "    const p = retry(fn, { baseMs: 500 });\n"
                 "    jest.advanceTimersByTime(500 + 1000);\n"
                 '    await expect(p).resolves.toBe("ok");\n'),
            Edit("test/retry.test.ts",
                 RW_BOOM_LINE,
                 "    const p = retry(fn, { retries: 2, baseMs: 1000 });\n"
                 "    jest.advanceTimersByTime(1000 + 2000);\n"
                 '    await expect(p).rejects.toThrow("boom");\n'),
            Bash("npx jest test/retry.test.ts", out=S8_JEST_TIMEOUTS, ok=False),
            Say("jest.advanceTimersByTime is synchronous. When it runs, retry() hasn't "
                "scheduled its sleep yet: that happens in the catch after `await fn()`, a "
                "promise continuation that only runs once advanceTimersByTime has returned. So "
                "the backoff timer is created after the clock was advanced, nothing advances "
                "it again, and the test hangs until jest's 5s timeout. "
                "jest.advanceTimersByTimeAsync (Jest 29.5+) flushes pending promises between "
                "timers; it has to be awaited.", states="fake-timers-async"),
            Edit("test/retry.test.ts", "    jest.advanceTimersByTime(500 + 1000);\n",
                 "    await jest.advanceTimersByTimeAsync(500 + 1000);\n"),
            Edit("test/retry.test.ts", "    jest.advanceTimersByTime(1000 + 2000);\n",
                 "    await jest.advanceTimersByTimeAsync(1000 + 2000);\n"),
            Bash("npx jest test/retry.test.ts", out=S8_JEST_FAST),
            Bash("npm test", out=npm_run("test", "jest") + jest_ok(
                [("test/backoff.test.ts", 2), ("test/retry.test.ts", 4)], "1.214")),
            Commit("Use fake timers in the retry tests (5s -> under 1s)"),
            User("🔥 thanks"),
        )),
        Session(day=2, noise=True, events=(
            User("hi! slow day, mostly reviewing PRs. what does coverage look like these days?"),
            Bash("npx jest --coverage", out=S8_COVERAGE),
            Say("95% of statements; the only uncovered line is the RangeError for a negative "
                "attempt in src/backoff.ts."),
            User("fine by me. is the README example still accurate?"),
            Read("README.md"),
            Say("Yes, `retry(() => fetchUser(id), { retries: 5, baseMs: 200 })` matches the "
                "current options. The npm badge has a typo in the package name, though "
                "(retyrwell)."),
            User("ha, fix that please"),
            Edit("README.md", "img.shields.io/npm/v/retyrwell.svg",
                 "img.shields.io/npm/v/retrywell.svg"),
            Bash("git diff --stat", out=" README.md | 2 +-\n 1 file changed, 1 insertion(+), "
                 "1 deletion(-)"),
            Bash("npm run lint", out=S8_LINT_BACKOFF, ok=False),
            Say("Lint complains about an unused type import in test/backoff.test.ts; that's "
                "been there on main and has nothing to do with the README. Leaving it."),
            Commit("Fix package name in the README badge"),
            User("thx 🙏"),
        )),
        Session(day=6, events=(
            User("ok, I've had it with ts-jest. a full run is ~9s for a handful of tests, "
                 "most of it ts-jest compiling, and every ESM question turns into a config "
                 "rabbit hole. let's move to vitest: `npm test` should just be `vitest run`, "
                 "and drop jest, ts-jest and @types/jest.",
                 replaces="jest-cmd", states="vitest-switch"),
            Bash("npm rm jest ts-jest @types/jest && npm i -D vitest@^1.6.0", out=S8_NPM_SWAP),
            Edit("package.json", '    "test": "jest",\n', '    "test": "vitest run",\n'),
            Write("test/retry.test.ts", S8_VITEST_RETRY),
            Edit("test/backoff.test.ts",
                 'import { computeDelay, type BackoffOptions } from "../src/backoff";\n',
                 'import { describe, expect, it } from "vitest";\n'
                 'import { computeDelay, type BackoffOptions } from "../src/backoff";\n'),
            Bash("npm test", out=S8_VITEST_UNHANDLED, ok=False),
            Say("Every test passes, but vitest fails the run on an unhandled rejection. In "
                "'gives up after retries', retry() rejects *during* `await "
                "vi.advanceTimersByTimeAsync(...)`, before `expect(p).rejects` is attached, so "
                "for a moment nobody handles it. Jest only printed a "
                "PromiseRejectionHandledWarning for the same thing; vitest counts it as an "
                "error. The fix: attach the rejects assertion first, advance the timers, then "
                "await the assertion.", states="unhandled-rejection"),
            Edit("test/retry.test.ts",
                 "    const p = retry(fn, { retries: 2, baseMs: 1000 });\n"
                 "    await vi.advanceTimersByTimeAsync(1000 + 2000);\n"
                 '    await expect(p).rejects.toThrow("boom");\n',
                 "    const opts = { retries: 2, baseMs: 1000 };\n"
                 '    const assertion = expect(retry(fn, opts)).rejects.toThrow("boom");\n'
                 "    await vi.advanceTimersByTimeAsync(1000 + 2000);\n"
                 "    await assertion;\n"),
            Bash("npx tsc --noEmit", out=S8_TSC_TYPES, ok=False, exit=2),
            Edit("tsconfig.json", S8_TYPES_LINE + "\n", '    "types": ["node"],\n'),
            Bash("npm test && npx tsc --noEmit", out=npm_run("test", "vitest run") + vitest_ok(
                [("test/backoff.test.ts", 2), ("test/retry.test.ts", 4)], "11:24:03", "361ms",
                root=RW)),
            Bash("git rm -q jest.config.js"),
            Commit("Switch tests from jest to vitest"),
            User("so much faster. thank you!"),
        )),
        Session(day=9, judge={"fake-timers-async": "up", "unhandled-rejection": "up"}, events=(
            Probe("morning! can you add a test that retry() never waits longer than maxMs, "
                  "even after lots of attempts? computeDelay has one, but I want it end to "
                  "end through retry().", needs=("fake-timers-async", "unhandled-rejection",
                                                  "vitest-switch")),
            Read("test/retry.test.ts"),
            Edit("test/retry.test.ts", "    expect(fn).toHaveBeenCalledTimes(1);\n  });\n});\n",
                 "    expect(fn).toHaveBeenCalledTimes(1);\n  });\n" + S8_MAXMS_TEST + "});\n"),
            Bash("npx vitest run test/retry.test.ts", out=vitest_ok(
                [("test/retry.test.ts", 5)], "09:41:10", "342ms", root=RW)),
            User("nice. can you regenerate the API docs too?"),
            Bash("npm run docs", out='npm ERR! Missing script: "docs"\nnpm ERR!\n'
                 "npm ERR! To see a list of scripts, run:\nnpm ERR!   npm run\n\n"
                 "npm ERR! A complete log of this run can be found in: "
                 "/home/mara/.npm/_logs/2024-06-24T09_42_31_117Z-debug-0.log", ok=False),
            Say("There's no docs script in package.json, and no typedoc or similar in the "
                "devDependencies, so there are no generated API docs to regenerate. The TSDoc "
                "comments are what users see."),
            Probe("ah right, never mind. run the whole suite once more before I push",
                  needs="vitest-switch"),
            Bash("npm test", out=npm_run("test", "vitest run") + vitest_ok(
                [("test/backoff.test.ts", 2), ("test/retry.test.ts", 5)], "09:43:52", "377ms",
                root=RW)),
            Commit("Test that retry() caps its delays at maxMs"),
        )),
        Session(day=13, events=(
            User("weird one: I'm writing a test locally that races retry() against a real "
                 "setTimeout, and it hangs, but only when it runs with the rest of the file. "
                 "can you get a subagent to figure out what leaks between tests?"),
            Subagent(report=S8_TIMERS_REPORT, states="restore-timers"),
            Edit("test/retry.test.ts",
                 'import { beforeEach, describe, expect, it, vi } from "vitest";\n',
                 'import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";\n'),
            Edit("test/retry.test.ts", "  beforeEach(() => {\n    vi.useFakeTimers();\n  });\n",
                 "  beforeEach(() => {\n    vi.useFakeTimers();\n  });\n\n"
                 "  afterEach(() => {\n    vi.useRealTimers();\n  });\n"),
            Bash("npx vitest run", out=vitest_ok(
                [("test/backoff.test.ts", 2), ("test/retry.test.ts", 5)], "15:02:18", "369ms",
                root=RW)),
            Commit("Restore real timers after each retry test"),
            Probe("thanks! last thing: shouldRetry is only tested with an immediate stop. add "
                  "one where the first error is retryable and the second isn't",
                  needs=("fake-timers-async", "unhandled-rejection")),
            Edit("test/retry.test.ts", "    expect(fn).toHaveBeenCalledTimes(6);\n  });\n});\n",
                 "    expect(fn).toHaveBeenCalledTimes(6);\n  });\n\n"
                 '  it("retries only while shouldRetry says so", async () => {\n'
                 '    const errors = [new Error("503"), new Error("400")];\n'
                 "    const fn = vi.fn(async () => {\n"
                 "      throw errors[fn.mock.calls.length - 1];\n"
                 "    });\n"
                 '    const shouldRetry = (err: unknown) => (err as Error).message === "503";\n'
                 "    const assertion = expect(retry(fn, { baseMs: 100, shouldRetry }))"
                 '.rejects.toThrow("400");\n'
                 "    await vi.advanceTimersByTimeAsync(100);\n"
                 "    await assertion;\n"
                 "    expect(fn).toHaveBeenCalledTimes(2);\n"
                 "  });\n});\n"),
            Bash("npm test", out=npm_run("test", "vitest run") + vitest_ok(
                [("test/backoff.test.ts", 2), ("test/retry.test.ts", 6)], "15:06:40", "380ms",
                root=RW)),
            Commit("Test shouldRetry across a retry"),
            User("👍"),
        )),
    ),
)


# == Story: Node 18 support and how releases are published ======================================

S9_LS_DIST = """\
total 64
drwxr-xr-x  2 mara mara 4096 Jul  1 09:12 .
drwxr-xr-x 10 mara mara 4096 Jul  1 09:12 ..
-rw-r--r--  1 mara mara 1096 Jul  1 09:12 index.d.mts
-rw-r--r--  1 mara mara 1096 Jul  1 09:12 index.d.ts
-rw-r--r--  1 mara mara 1556 Jul  1 09:12 index.js
-rw-r--r--  1 mara mara 3697 Jul  1 09:12 index.js.map
-rw-r--r--  1 mara mara 1341 Jul  1 09:12 index.mjs
-rw-r--r--  1 mara mara 3635 Jul  1 09:12 index.mjs.map
"""

S9_JEST_PASS = (" PASS  test/backoff.test.ts\n PASS  test/retry.test.ts (4.791 s)\n\n"
                "Test Suites: 2 passed, 2 total\nTests:       6 passed, 6 total\n"
                "Snapshots:   0 total\nTime:        5.322 s\nRan all test suites.\n")

S9_TIMEOUT = """\
export class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms}ms`);
    this.name = "TimeoutError";
  }
}

/**
 * Rejects with a TimeoutError if the promise returned by `fn` hasn't settled after `ms`.
 *
 * @example
 * await retry(() => withTimeout(() => fetch(url), 2_000));
 */
export function withTimeout<T>(fn: () => Promise<T>, ms: number): Promise<T> {
  const { promise, resolve, reject } = Promise.withResolvers<T>();
  const timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  fn().then(resolve, reject).finally(() => clearTimeout(timer));
  return promise;
}
"""

S9_TIMEOUT_TEST = """\
import { TimeoutError, withTimeout } from "../src/timeout";

describe("withTimeout", () => {
  it("resolves when fn is fast enough", async () => {
    await expect(withTimeout(async () => "ok", 50)).resolves.toBe("ok");
  });

  it("rejects when fn is too slow", async () => {
    const slow = () => new Promise((r) => setTimeout(r, 200));
    await expect(withTimeout(slow, 20)).rejects.toBeInstanceOf(TimeoutError);
  });
});
"""

S9_GH_FAIL = """\
test (18)	Run npx jest	2024-07-04T08:41:10.3Z  FAIL test/timeout.test.ts
test (18)	Run npx jest	2024-07-04T08:41:10.3Z   ● withTimeout › resolves when fn is fast enough
test (18)	Run npx jest	2024-07-04T08:41:10.3Z
test (18)	Run npx jest	2024-07-04T08:41:10.3Z     TypeError: Promise.withResolvers is not a \
function
test (18)	Run npx jest	2024-07-04T08:41:10.3Z
test (18)	Run npx jest	2024-07-04T08:41:10.3Z       at withTimeout (src/timeout.ts:15:48)
test (18)	Run npx jest	2024-07-04T08:41:10.3Z       at Object.<anonymous> \
(test/timeout.test.ts:5:18)
test (20)	Run npx jest	2024-07-04T08:41:12.9Z  FAIL test/timeout.test.ts
test (20)	Run npx jest	2024-07-04T08:41:12.9Z   ● withTimeout › resolves when fn is fast enough
test (20)	Run npx jest	2024-07-04T08:41:12.9Z
test (20)	Run npx jest	2024-07-04T08:41:12.9Z     TypeError: Promise.withResolvers is not a \
function
"""

S9_RELEASE_EOTP = npm_run("release", "npm run build && changeset publish", "0.5.0") + (
    tsup_ok(version="0.5.0")
    + "🦋  info npm info retrywell\n"
    "🦋  info retrywell is being published because our local version (0.5.0) has not been "
    "published on npm\n"
    '🦋  info Publishing "retrywell" at "0.5.0"\n'
    "🦋  error an error occurred while publishing retrywell: EOTP This operation requires a "
    "one-time password from your authenticator.\n"
    "🦋  error You can provide a one-time password by passing --otp=<code> to the command you "
    "ran.\n"
    "🦋  error If you already provided a one-time password then it is likely that you either "
    "typoed\n"
    "🦋  error it, or it timed out. Please try again.\n"
    "🦋  error packages failed to publish:\n"
    "🦋  retrywell@0.5.0\n")

S9_RELEASE_YML = """\
name: Release
on:
  push:
    branches: [main]

concurrency: ${{ github.workflow }}-${{ github.ref }}

permissions:
  contents: write
  pull-requests: write
  id-token: write # npm provenance

jobs:
  release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          registry-url: https://registry.npmjs.org
      - run: npm ci
      - run: npx jest
      # Opens/updates the "Version Packages" PR; merging it publishes.
      - uses: changesets/action@v1
        with:
          publish: npm run release
        env:
          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}
          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}
          NPM_CONFIG_PROVENANCE: true
"""

S9_INDEX_SORTED = """\
export { computeDelay } from "./backoff";
export { retry } from "./retry";
export type { RetryOptions } from "./retry";
export { TimeoutError, withTimeout } from "./timeout";
"""

S9_TIMEOUT_SIGNAL = """\
export class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms}ms`);
    this.name = "TimeoutError";
  }
}

export interface TimeoutOptions {
  /** Also abort the attempt when this signal aborts; withTimeout rejects with its reason. */
  signal?: AbortSignal;
}

/**
 * Rejects with a TimeoutError if the promise returned by `fn` hasn't settled after `ms`.
 * `fn` gets a signal that aborts on the timeout or when `options.signal` aborts.
 *
 * @example
 * await retry(() => withTimeout((signal) => fetch(url, { signal }), 2_000, { signal }));
 */
export function withTimeout<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  ms: number,
  { signal }: TimeoutOptions = {},
): Promise<T> {
  // Combined by hand: AbortSignal.any() needs Node 20.3+, and we support Node 18.
  const ac = new AbortController();
  const forward = () => ac.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener("abort", forward, { once: true });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => ac.abort(new TimeoutError(ms)), ms);
    if (ac.signal.aborted) reject(ac.signal.reason);
    ac.signal.addEventListener("abort", () => reject(ac.signal.reason), { once: true });
    fn(ac.signal)
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", forward);
      });
  });
}
"""

NODE18_RELEASE = Story(
    id="ts-retrywell-node18-release",
    title="A Node 22-only API passes locally and breaks CI on Node 18/20; releases move from a "
          "laptop (MEMORY.md note) to a GitHub Actions workflow with provenance",
    project=RETRYWELL,
    lessons=(
        lesson("release-cmd", "command",
               "Releases: `npm run release` from an up-to-date main once CI is green "
               "(changesets bumps the version)",
               "npm run release", "main|ci|green|publish"),
        lesson("gha-release", "decision",
               "Releases are published only by the GitHub Actions release workflow "
               "(.github/workflows/release.yml, changesets/action, npm provenance); nobody "
               "publishes from a laptop",
               "release.yml|release workflow|github actions|changesets/action",
               "provenance|publish|laptop"),
        lesson("lib-es2022", "gotcha",
               "Promise.withResolvers doesn't exist before Node 22 (CI on 18/20 failed with "
               "'not a function'); tsconfig lib is pinned to ES2022 so tsc rejects newer "
               "built-ins",
               "withResolvers|es2022", "node 18|node18|node 20|lib"),
        lesson("node18-support", "fact",
               "retrywell supports Node 18 and up (engines >=18; CI matrix runs 18, 20, 22): "
               "no APIs newer than Node 18",
               "18", "engines|matrix|support"),
    ),
    also=(
        # session 0, Say: "One entry (src/index.ts), cjs and esm, declarations, sourcemaps, target
        # es2022"
        lesson("also-tsup-config", "fact",
               "tsup.config.ts builds one entry (src/index.ts) as cjs and esm with declarations "
               "and "
               "sourcemaps, target es2022, cleaning dist/ first",
               "tsup|src/index.ts", "cjs", "esm|es2022|sourcemap"),
        # session 3, Say: "Provenance needs the repository field in package.json ... and `id-token:
        # write`"
        lesson("also-provenance-prereqs", "gotcha",
               "npm provenance needs package.json's `repository` field (checked against the "
               "workflow's repo) and `id-token: write` in the release workflow",
               "provenance", "repository|id-token"),
        # session 4, Say: "That's the changesets PR; it stays open and collects changesets until you
        # merge it to release."
        lesson("also-version-packages-pr", "fact",
               "The changesets action keeps a 'Version Packages' PR (branch "
               "changeset-release/main) "
               "open that collects pending changesets; merging it publishes the release",
               "version packages|changeset-release|changesets PR", "merg|collect"),
        # session 4, User: "can you sort the exports in src/index.ts? the order bugs me"
        lesson("also-sorted-exports", "preference",
               "Keep the exports in src/index.ts sorted (the maintainer dislikes unsorted ones)",
               "index.ts|exports", "sort|alphabetic"),
        # session 5, Say: "AbortSignal.any only exists from Node 20.3 ... tsc won't catch this one
        # (it's typed by @types/node 20, not by the ES lib)"
        lesson("also-abortsignal-any", "gotcha",
               "AbortSignal.any needs Node 20.3+ and tsc won't flag it (typed by @types/node 20, "
               "not the ES lib), so signals are combined by hand with an AbortController",
               "AbortSignal.any", "20.3|18|@types/node|by hand|AbortController"),
    ),
    sessions=(
        Session(day=0, noise=True, events=(
            User("hey! just poking around today, no real plan. how big is the bundle these "
                 "days?"),
            Bash("npm run build", out=tsup_ok()),
            Bash("ls -la dist", out=S9_LS_DIST),
            Say("About 1.3 KB for the ESM build and 1.5 KB for CJS before compression, plus "
                "sourcemaps and the two declaration files."),
            User("ok. remind me what the tsup config looks like?"),
            Read("tsup.config.ts"),
            Say("One entry (src/index.ts), cjs and esm, declarations, sourcemaps, target "
                "es2022, and the output folder is cleaned before each build."),
            User("do we even need sourcemaps in the published package? eh, leave them"),
            Bash("npx jest", out=S9_JEST_PASS),
            User("what was the last release?"),
            Bash("git tag --sort=-creatordate | head -3", out="v0.4.2\nv0.4.1\nv0.4.0"),
            Bash("git log v0.4.2..HEAD --oneline", out="e41c0a2 Tidy README example\n"
                 "7fd3b19 Bump typescript-eslint to 7.13"),
            Say("v0.4.2; since then only a README tweak and a typescript-eslint bump, nothing "
                "user-facing."),
            User("cool, that's all I needed, thanks"),
        )),
        Session(day=3, notes=(
            Note("- Releases: `npm run release` from an up-to-date main once CI is green "
                 "(changesets bumps the version and writes the changelog)",
                 states="release-cmd"),
        ), events=(
            User("morning! feature request from #52: a `withTimeout(fn, ms)` helper that "
                 "rejects if a single attempt takes too long, so it can be combined with "
                 "retry. can you add it?"),
            Write("src/timeout.ts", S9_TIMEOUT),
            Edit("src/index.ts", 'export { computeDelay } from "./backoff";\n',
                 'export { computeDelay } from "./backoff";\n'
                 'export { TimeoutError, withTimeout } from "./timeout";\n'),
            Write("test/timeout.test.ts", S9_TIMEOUT_TEST),
            Bash("npx jest", out=S9_JEST_PASS.replace(" PASS  test/retry", " PASS  "
                 "test/timeout.test.ts\n PASS  test/retry").replace("2 passed, 2", "3 passed, 3")
                 .replace("6 passed, 6", "8 passed, 8")),
            Commit("Add withTimeout helper (#52)"),
            User("pushed it, and CI is red, but only on node 18 and 20 🤔"),
            Bash("gh run view --log-failed | grep -A8 FAIL", out=S9_GH_FAIL),
            Say("Promise.withResolvers only exists since Node 22. You're on 22 locally, which "
                "is why it passed here, and tsc didn't object because tsconfig has lib "
                "[\"ESNext\"], which declares it. I'll build the promise by hand and pin "
                "tsconfig's lib to ES2022, which Node 18 fully supports, so tsc rejects "
                "newer built-ins like withResolvers from now on.", states="lib-es2022"),
            User("yeah, we support node 18 and up: engines says >=18 and the CI matrix runs 18, "
                 "20 and 22. good call on the tsconfig.", states="node18-support"),
            Edit("src/timeout.ts",
                 "  const { promise, resolve, reject } = Promise.withResolvers<T>();\n"
                 "  const timer = setTimeout(() => reject(new TimeoutError(ms)), ms);\n"
                 "  fn().then(resolve, reject).finally(() => clearTimeout(timer));\n"
                 "  return promise;\n",
                 "  return new Promise<T>((resolve, reject) => {\n"
                 "    const timer = setTimeout(() => reject(new TimeoutError(ms)), ms);\n"
                 "    fn().then(resolve, reject).finally(() => clearTimeout(timer));\n"
                 "  });\n"),
            Edit("tsconfig.json", '    "lib": ["ESNext"],\n', '    "lib": ["ES2022"],\n'),
            Bash("npx tsc --noEmit && npx jest", out=S9_JEST_PASS.replace(
                " PASS  test/retry", " PASS  test/timeout.test.ts\n PASS  test/retry").replace(
                "2 passed, 2", "3 passed, 3").replace("6 passed, 6", "8 passed, 8")),
            Commit("withTimeout: no Promise.withResolvers (Node 18); pin tsconfig lib to ES2022"),
        )),
        Session(day=7, events=(
            Probe("the withTimeout PR is merged and CI is green on main. let's get 0.5.0 out "
                  "the door", needs="release-cmd"),
            Bash("git checkout main && git pull --ff-only",
                 out="Switched to branch 'main'\nUpdating 7fd3b19..4e1c2d9\nFast-forward\n"
                     " src/index.ts         |  1 +\n src/timeout.ts       | 21 +++++++++++++++++\n"
                     " test/timeout.test.ts | 13 +++++++++++\n tsconfig.json        |  2 +-\n"
                     " 4 files changed, 36 insertions(+), 1 deletion(-)"),
            Bash("gh run list --branch main -L 1",
                 out="STATUS  TITLE                                       WORKFLOW  BRANCH  "
                     "EVENT  ID          ELAPSED  AGE\n"
                     "✓       Merge pull request #53 from mara/with-ti...  CI        main    "
                     "push   9731120044  1m12s    about 5 minutes ago"),
            Bash("npx changeset version && git commit -qam 'Version Packages'",
                 out="🦋  All files have been updated. Review them and commit at your leisure"),
            Bash("npm run release", out=S9_RELEASE_EOTP, ok=False),
            Say("npm wants a one-time password for the publish, and I can't answer that. You "
                "can run it yourself with `! npm run release -- --otp=<code>`."),
            User("done, with my otp. 0.5.0 is out"),
            Bash("npm view retrywell version && git push --follow-tags",
                 out="0.5.0\nTo github.com:mara-dev/retrywell.git\n"
                     "   4e1c2d9..b3a07f1  main -> main\n * [new tag]         v0.5.0 -> v0.5.0"),
            User("🎉 thanks"),
        )),
        Session(day=10, events=(
            User("so, that OTP dance every single release is exactly why I've wanted to move "
                 "publishing into CI for ages. let's do it now: releases go through a GitHub "
                 "Actions release workflow with npm provenance, and nobody publishes from a "
                 "laptop anymore, me included. can you set up .github/workflows/release.yml "
                 "with the changesets action?", replaces="release-cmd", states="gha-release"),
            Write(".github/workflows/release.yml", S9_RELEASE_YML),
            Say("Provenance needs the repository field in package.json (npm checks it against "
                "the workflow's repo) and `id-token: write`, which the workflow has. Adding "
                "repository and publishConfig."),
            Edit("package.json", '  "license": "MIT",\n',
                 '  "license": "MIT",\n'
                 '  "repository": {\n    "type": "git",\n'
                 '    "url": "git+https://github.com/mara-dev/retrywell.git"\n  },\n'
                 '  "publishConfig": {\n    "access": "public",\n    "provenance": true\n  },\n'),
            Commit("Publish from GitHub Actions with npm provenance"),
            User("I'll add the NPM_TOKEN secret. thanks!"),
        )),
        Session(day=13, noise=True, events=(
            User("morning. NPM_TOKEN is in, and the workflow opened an empty Version Packages "
                 "PR already 🎉 nothing else today really, just tidying."),
            Bash("gh pr list", out="#54  Version Packages  changeset-release/main  OPEN"),
            Say("That's the changesets PR; it stays open and collects changesets until you "
                "merge it to release."),
            User("can you sort the exports in src/index.ts? the order bugs me"),
            Read("src/index.ts"),
            Write("src/index.ts", S9_INDEX_SORTED),
            Bash("npx tsc --noEmit", out=""),
            Bash("npx jest", out=S9_JEST_PASS.replace(" PASS  test/retry", " PASS  "
                 "test/timeout.test.ts\n PASS  test/retry").replace("2 passed, 2", "3 passed, 3")
                 .replace("6 passed, 6", "8 passed, 8")),
            Bash("git comit -m 'Sort exports'", out="git: 'comit' is not a git command. See "
                 "'git --help'.\n\nThe most similar command is\n\tcommit", ok=False),
            Commit("Sort exports in index.ts"),
            User("lol. thanks"),
            User("is the weather nice where you are? jk"),
            Say("No weather in here, sadly. Hope it's nice where you are!"),
            User("bye!"),
        )),
        Session(day=17, events=(
            Probe("#58 asks to pass their own AbortSignal to withTimeout, so either their "
                  "signal or the timeout cancels the attempt. AbortSignal.any looks perfect for "
                  "combining them. can you add a `signal` option?",
                  needs=("node18-support", "lib-es2022")),
            Say("AbortSignal.any only exists from Node 20.3, and we support 18. tsc won't catch "
                "this one (it's typed by @types/node 20, not by the ES lib), so I'll combine "
                "the two signals by hand with an AbortController."),
            Write("src/timeout.ts", S9_TIMEOUT_SIGNAL),
            Edit("test/timeout.test.ts", "  });\n});\n",
                 "  });\n\n"
                 '  it("rejects with the reason when the caller aborts", async () => {\n'
                 "    const ac = new AbortController();\n"
                 "    const slow = () => new Promise((r) => setTimeout(r, 200));\n"
                 '    setTimeout(() => ac.abort(new Error("cancelled")), 10);\n'
                 "    await expect(withTimeout(slow, 1_000, { signal: ac.signal }))"
                 '.rejects.toThrow("cancelled");\n'
                 "  });\n});\n"),
            Bash("npx tsc --noEmit && npx jest", out=S9_JEST_PASS.replace(
                " PASS  test/retry", " PASS  test/timeout.test.ts\n PASS  test/retry").replace(
                "2 passed, 2", "3 passed, 3").replace("6 passed, 6", "9 passed, 9")),
            Write(".changeset/shy-pumas-hide.md",
                  '---\n"retrywell": minor\n---\n\nwithTimeout accepts `{ signal }`; `fn` '
                  "receives a signal that aborts on timeout or when yours aborts.\n"),
            Commit("withTimeout: signal option (#58)"),
            Probe("nice. can you get this released today?", needs="gha-release"),
            Say("Releases go through the release workflow now: once this branch is merged to "
                "main with its changeset, the changesets action updates the 'Version Packages' "
                "PR, and merging that PR publishes 0.6.0 with provenance. I'll push and open "
                "the PR."),
            Bash("git push -u origin timeout-signal && gh pr create --fill",
                 out="branch 'timeout-signal' set up to track 'origin/timeout-signal'.\n"
                     "https://github.com/mara-dev/retrywell/pull/59"),
            User("👍"),
        )),
    ),
)


# == Story: errors, logging and the size budget =================================================

S10_ERRORS = """\
/** Base class of every error retrywell throws. `code` is stable across versions. */
export class RetrywellError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Thrown when every attempt failed; the last attempt's error is `cause`.
 *
 * @example
 * const err = await retry(send).catch((e) => e);
 * if (err.code === "RETRY_EXHAUSTED") console.error(err.attempts, err.cause);
 */
export class RetryExhaustedError extends RetrywellError {
  constructor(
    readonly attempts: number,
    cause: unknown,
  ) {
    super("RETRY_EXHAUSTED", `gave up after ${attempts} attempts`, { cause });
  }
}
"""

S10_JEST_EXHAUSTED = """\
 PASS  test/backoff.test.ts
 FAIL  test/retry.test.ts (4.802 s)
  retry
    ✓ returns the first successful result (2 ms)
    ✓ retries until fn succeeds (1504 ms)
    ✕ gives up after `retries` attempts (3007 ms)
    ✓ stops when shouldRetry returns false (1 ms)

  ● retry › gives up after `retries` attempts

    expect(received).rejects.toThrow(expected)

    Expected substring: "boom"
    Received message:   "gave up after 3 attempts"

      21 |       throw new Error("boom");
      22 |     });
    > 23 |     await expect(retry(fn, { retries: 2, baseMs: 1000 })).rejects.toThrow("boom");
         |                                                                  ^
      24 |     expect(fn).toHaveBeenCalledTimes(3);
      25 |   });
      26 |

      at Object.toThrow (node_modules/expect/build/index.js:218:22)
      at Object.<anonymous> (test/retry.test.ts:23:66)

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 5 passed, 6 total
Snapshots:   0 total
Time:        5.377 s
Ran all test suites.
"""

S10_JEST_PASS = (" PASS  test/backoff.test.ts\n PASS  test/retry.test.ts (4.815 s)\n\n"
                 "Test Suites: 2 passed, 2 total\nTests:       6 passed, 6 total\n"
                 "Snapshots:   0 total\nTime:        5.349 s\nRan all test suites.\n")


def size(actual: str, limit: str = "2 kB", over: str = "") -> str:
    """``npm run size`` (size-limit 11)."""
    out = npm_run("size", "size-limit")
    if over:
        out += f"  Package size limit has exceeded by {over}\n"
    out += (f"  Size limit: {limit}\n"
            f"  Size:       {actual} with all dependencies, minified and brotlied\n")
    if over:
        out += '\n  Try to reduce size or increase limit in ".size-limit.json"\n'
    return out


S10_LINT = npm_run("lint", "eslint .") + f"""\

{RW}/test/backoff.test.ts
  1:29  error  'BackoffOptions' is defined but never used  @typescript-eslint/no-unused-vars

✖ 1 problem (1 error, 0 warnings)

"""

S10_RETRY_ABORT = """\
import { computeDelay, type BackoffOptions } from "./backoff";
import { RetryAbortedError, RetryExhaustedError } from "./errors";

export interface RetryOptions extends Partial<BackoffOptions> {
  /** How many times to retry after the first attempt. Default 3. */
  maxRetries?: number;
  /** @deprecated Renamed to `maxRetries`; still works, and will be removed in 2.0. */
  retries?: number;
  shouldRetry?: (err: unknown) => boolean;
  /** Aborting stops retrying at once, even mid-delay (rejects with RetryAbortedError). */
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RetryAbortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export async function retry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const { baseMs = 100, maxMs = 10_000, factor = 2, signal } = opts;
  const retries = opts.maxRetries ?? opts.retries ?? 3;
  let lastErr: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (signal?.aborted) throw new RetryAbortedError(signal.reason);
    try {
      return await fn();
    } catch (err) {
      lastErr = err;
      if (opts.shouldRetry && !opts.shouldRetry(err)) throw err;
      if (attempt < retries) {
        await sleep(computeDelay(attempt, { baseMs, maxMs, factor }), signal);
      }
    }
  }
  throw new RetryExhaustedError(retries + 1, lastErr);
}
"""

S10_ABORT_TEST = """\
import { RetryAbortedError } from "../src/errors";
import { retry } from "../src/retry";

it("stops mid-delay when the signal aborts", async () => {
  const ac = new AbortController();
  const fn = jest.fn(async () => {
    throw new Error("down");
  });
  setTimeout(() => ac.abort(), 10);
  const err = await retry(fn, { baseMs: 60_000, signal: ac.signal }).catch((e) => e);
  expect(err).toBeInstanceOf(RetryAbortedError);
  expect(err.code).toBe("RETRY_ABORTED");
  expect(fn).toHaveBeenCalledTimes(1);
});
"""

S10_THROW_REPORT = """\
Every throw in src/:
- src/retry.ts:18 (in sleep): RetryAbortedError (code RETRY_ABORTED) when the signal aborts \
mid-delay
- src/retry.ts:31 RetrywellError("INVALID_OPTIONS") for maxMs < baseMs
- src/retry.ts:38 RetryAbortedError when the signal is already aborted before an attempt
- src/retry.ts:43 rethrows the caller's own error when shouldRetry returns false (their error, \
not ours, which seems right)
- src/retry.ts:49 RetryExhaustedError (code RETRY_EXHAUSTED)
- src/backoff.ts:8 `throw new RangeError("attempt must be >= 0")` in computeDelay: the only \
error retrywell itself throws that is not a RetrywellError and has no code. computeDelay is \
public (re-exported from src/index.ts).
No console.* calls anywhere in src/."""

ERRORS_AND_SIZE = Story(
    id="ts-retrywell-errors-and-size",
    title="Library rules stated in passing (error classes with codes, no logging, commit style, "
          "a 2 kB size budget) and the budget raised to 2.5 kB for abort support",
    project=RETRYWELL,
    lessons=(
        lesson("error-classes", "convention",
               "Everything retrywell throws extends RetrywellError and carries a stable string "
               "`code` (e.g. RETRY_EXHAUSTED) so users can switch on err.code; never throw a "
               "plain Error",
               "RetrywellError", "code|extend|subclass"),
        lesson("size-2kb", "convention",
               "The ESM bundle must stay within the 2 kB size-limit budget (`npm run size`; "
               "the README promises under 2 kB)",
               "size-limit|size limit|npm run size|budget|bundle size",
               r"re:(?<![\d.])2\s?kB\b"),
        lesson("imperative-commits", "preference",
               "Commit messages: a short imperative summary, no feat:/fix: prefixes "
               "(changesets write the changelog)",
               "imperative|prefix|prefixes|feat:", "commit"),
        lesson("no-console", "preference",
               "Library code never logs (no console.warn/console.log): report through "
               "callbacks, thrown errors or a @deprecated TSDoc tag",
               "console", "library|never|no|don't"),
        lesson("size-25kb", "convention",
               "The size-limit budget is 2.5 kB (raised to make room for abort support); "
               "`npm run size` checks it",
               "size-limit|size limit|npm run size|budget|bundle size", r"re:2\.5\s?kB\b"),
    ),
    also=(
        # session 0, Write .changeset: "Throw `RetryExhaustedError` (code `RETRY_EXHAUSTED`,
        # original error as `cause`) when all attempts fail."
        lesson("also-exhausted-error", "fact",
               "When every attempt fails, retry() rejects with RetryExhaustedError (code "
               "RETRY_EXHAUSTED, `attempts`, the last error as `cause`) instead of rethrowing the "
               "last error",
               "RetryExhaustedError|RETRY_EXHAUSTED",
               "cause|attempts|all attempts|gives up|gave up|last error"),
        # session 0, Bash: "npm run build && npm run size"
        lesson("also-build-before-size", "command",
               "Check the size budget with `npm run build && npm run size`: size-limit measures "
               "the "
               "built dist/index.mjs",
               "npm run build|build first|dist/index.mjs", "npm run size|size-limit"),
        # session 1, Edit: "@deprecated Renamed to `maxRetries`; still works, and will be removed in
        # 2.0."
        lesson("also-maxretries-alias", "decision",
               "`retries` was renamed `maxRetries`; `retries` still works as a @deprecated alias "
               "until 2.0",
               "maxRetries", "deprecat|alias|renam"),
        # session 1, Say/User: "Lint fails on an unused type import in test/backoff.test.ts, which
        # predates this change" / "nah, leave it, Jonas has a PR open"
        lesson("also-lint-unused-import", "gotcha",
               "`npm run lint` fails on a pre-existing unused `BackoffOptions` import in "
               "test/backoff.test.ts; leave it, Jonas has a PR open touching that file",
               "backoff.test.ts|BackoffOptions", "lint|unused|no-unused-vars"),
        # session 2, Write .changeset: "aborting it stops retrying at once and rejects with
        # `RetryAbortedError` (`RETRY_ABORTED`)"
        lesson("also-abort-error", "fact",
               "retry()'s `signal` option stops retrying at once, even mid-delay, and rejects with "
               "RetryAbortedError (code RETRY_ABORTED, abort reason as `cause`)",
               "RetryAbortedError|RETRY_ABORTED", "signal",
               "mid-delay|at once|right away|immediately|delay|cause"),
        # session 3, Edit: 'throw new RetrywellError("INVALID_OPTIONS", `maxMs (${maxMs}) is smaller
        # than baseMs (${baseMs})`)'
        lesson("also-invalid-options", "decision",
               "Misconfigured backoff (maxMs smaller than baseMs) makes retry() reject with "
               "RetrywellError code INVALID_OPTIONS instead of warning",
               "INVALID_OPTIONS", "maxMs|baseMs"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hey! back from JSConf since friday, lots of people stopped by asking about "
                 "retrywell, which was fun. one person made a good point: when retry() gives "
                 "up it rethrows the last error, so you can't tell 'the call failed' from 'we "
                 "retried 3 times and gave up'. could you add a dedicated error for that? the "
                 "way errors work in this lib: everything we throw extends RetrywellError and "
                 "carries a string `code` (like 'RETRY_EXHAUSTED'), so people can switch on "
                 "err.code even when instanceof breaks across bundles. anyway, also saw the new "
                 "biome release at the conf, might try it on another project.",
                 states="error-classes"),
            Read("src/retry.ts"),
            Write("src/errors.ts", S10_ERRORS),
            Edit("src/retry.ts", 'import { computeDelay, type BackoffOptions } from "./backoff";\n',
                 'import { computeDelay, type BackoffOptions } from "./backoff";\n'
                 'import { RetryExhaustedError } from "./errors";\n'),
            Edit("src/retry.ts", "  throw lastErr;\n",
                 "  throw new RetryExhaustedError(retries + 1, lastErr);\n"),
            Edit("src/index.ts", 'export { computeDelay } from "./backoff";\n',
                 'export { computeDelay } from "./backoff";\n'
                 'export { RetryExhaustedError, RetrywellError } from "./errors";\n'),
            Bash("npx jest", out=S10_JEST_EXHAUSTED, ok=False),
            Edit("test/retry.test.ts",
                 RW_BOOM_LINE,
                 "    const err = await retry(fn, { retries: 2, baseMs: 1000 }).catch((e) => e);\n"
                 "    expect(err).toBeInstanceOf(RetryExhaustedError);\n"
                 '    expect(err).toMatchObject({ code: "RETRY_EXHAUSTED", attempts: 3 });\n'
                 '    expect(err.cause).toEqual(new Error("boom"));\n'),
            Edit("test/retry.test.ts", 'import { retry } from "../src/retry";\n',
                 'import { RetryExhaustedError } from "../src/errors";\n'
                 'import { retry } from "../src/retry";\n'),
            Bash("npx jest", out=S10_JEST_PASS),
            User("nice. oh, keep an eye on size while you're adding classes: the README "
                 "promises 'under 2 kB' and `npm run size` (size-limit) checks it, CI fails if "
                 "we go over.", states="size-2kb"),
            Bash("npm run build && npm run size", out=tsup_ok() + size("1.56 kB")),
            Write(".changeset/gentle-moles-agree.md",
                  '---\n"retrywell": minor\n---\n\nThrow `RetryExhaustedError` (code '
                  "`RETRY_EXHAUSTED`, original error as `cause`) when all attempts fail.\n"),
            User("1.56, fine. commit it. and for commit messages here: a short imperative "
                 "summary, no feat:/fix: prefixes, changesets already write the changelog.",
                 states="imperative-commits"),
            Commit("Throw RetryExhaustedError when all attempts fail"),
        )),
        Session(day=2, events=(
            User("small one: `retries` is a confusing name, people think it's the total number "
                 "of attempts. can you add `maxRetries` as the new name and keep `retries` "
                 "working as a deprecated alias?"),
            Edit("src/retry.ts",
                 "  /** How many times to retry after the first attempt. Default 3. */\n"
                 "  retries?: number;\n",
                 "  /** How many times to retry after the first attempt. Default 3. */\n"
                 "  maxRetries?: number;\n"
                 "  /** Old name of `maxRetries`. */\n"
                 "  retries?: number;\n"),
            Edit("src/retry.ts",
                 "  const { retries = 3, baseMs = 100, maxMs = 10_000, factor = 2 } = opts;\n",
                 "  if (opts.retries !== undefined) {\n"
                 '    console.warn("retrywell: `retries` is deprecated, use `maxRetries`");\n'
                 "  }\n"
                 "  const { baseMs = 100, maxMs = 10_000, factor = 2 } = opts;\n"
                 "  const retries = opts.maxRetries ?? opts.retries ?? 3;\n"),
            Bash("npx jest", out=S10_JEST_PASS),
            User("hmm, one thing that bugs me: please never log from library code. a "
                 "console.warn inside someone's lambda ends up in their logs forever and they "
                 "can't turn it off. if something is worth knowing, it goes through a callback "
                 "or an error. for the deprecation a @deprecated tag in the TSDoc is enough, "
                 "editors strike it through.", states="no-console"),
            Edit("src/retry.ts",
                 "  if (opts.retries !== undefined) {\n"
                 '    console.warn("retrywell: `retries` is deprecated, use `maxRetries`");\n'
                 "  }\n", ""),
            Edit("src/retry.ts", "  /** Old name of `maxRetries`. */\n",
                 "  /** @deprecated Renamed to `maxRetries`; still works, and will be removed "
                 "in 2.0. */\n"),
            Bash("npx jest", out=S10_JEST_PASS),
            Bash("npm run lint", out=S10_LINT, ok=False),
            Say("Lint fails on an unused type import in test/backoff.test.ts, which predates "
                "this change; src/retry.ts is clean. Want me to fix that separately?"),
            User("nah, leave it, Jonas has a PR open that touches that file"),
            Write(".changeset/odd-geese-wink.md",
                  '---\n"retrywell": minor\n---\n\nAdd `maxRetries`; `retries` still works but '
                  "is deprecated.\n"),
            Commit("Add maxRetries and deprecate retries"),
        )),
        Session(day=5, events=(
            Probe("#61 is the most upvoted issue: people want to cancel a retry loop with an "
                  "AbortSignal. can you add a `signal` option? when it aborts, retry should "
                  "stop right away, even in the middle of a delay.", needs="error-classes"),
            Edit("src/errors.ts",
                 '    super("RETRY_EXHAUSTED", `gave up after ${attempts} attempts`, { cause });\n'
                 "  }\n}\n",
                 '    super("RETRY_EXHAUSTED", `gave up after ${attempts} attempts`, { cause });\n'
                 "  }\n}\n\n"
                 "/** Thrown when retry()'s `signal` aborts; the abort reason is `cause`. */\n"
                 "export class RetryAbortedError extends RetrywellError {\n"
                 "  constructor(reason: unknown) {\n"
                 '    super("RETRY_ABORTED", "retry aborted", { cause: reason });\n'
                 "  }\n}\n"),
            Write("src/retry.ts", S10_RETRY_ABORT),
            Edit("src/index.ts",
                 'export { RetryExhaustedError, RetrywellError } from "./errors";\n',
                 'export { RetryAbortedError, RetryExhaustedError, RetrywellError } from '
                 '"./errors";\n'),
            Write("test/abort.test.ts", S10_ABORT_TEST),
            Bash("npx jest", out=S10_JEST_PASS.replace(" PASS  test/backoff", " PASS  "
                 "test/abort.test.ts\n PASS  test/backoff").replace("2 passed, 2", "3 passed, 3")
                 .replace("6 passed, 6", "7 passed, 7")),
            Bash("npm run build && npm run size", out=tsup_ok() + size("2.14 kB", over="143 B"),
                 ok=False),
            Say("Abort support takes the bundle to 2.14 kB, 143 B over the 2 kB budget. I can "
                "try to claw it back (the abort listener plumbing is most of it), or the "
                "budget goes up."),
            User("ah. Jonas and I talked about exactly this last week: abort support is worth "
                 "a few bytes. let's raise the budget to 2.5 kB, and update the README line "
                 "too.", replaces="size-2kb", states="size-25kb"),
            Edit(".size-limit.json", '"limit": "2 kB"', '"limit": "2.5 kB"'),
            Edit("README.md", "Zero dependencies, under 2 kB.", "Zero dependencies, under 2.5 kB."),
            Bash("npm run size", out=size("2.14 kB", "2.5 kB")),
            Write(".changeset/kind-bats-cheer.md",
                  '---\n"retrywell": minor\n---\n\nAdd a `signal` option: aborting it stops '
                  "retrying at once and rejects with `RetryAbortedError` (`RETRY_ABORTED`).\n"),
            Commit("Add a signal option to abort retries (#61)"),
        )),
        Session(day=9, events=(
            User("morning! how's it going"),
            Probe("people misconfigure the backoff all the time, e.g. maxMs smaller than "
                  "baseMs, and then wonder why the delays look weird. can we tell them "
                  "somehow when they do that?", needs=("no-console", "error-classes")),
            Edit("src/retry.ts", "  const retries = opts.maxRetries ?? opts.retries ?? 3;\n",
                 "  const retries = opts.maxRetries ?? opts.retries ?? 3;\n"
                 "  if (maxMs < baseMs) {\n"
                 "    throw new RetrywellError(\n"
                 '      "INVALID_OPTIONS",\n'
                 "      `maxMs (${maxMs}) is smaller than baseMs (${baseMs})`,\n"
                 "    );\n"
                 "  }\n"),
            Edit("src/retry.ts",
                 'import { RetryAbortedError, RetryExhaustedError } from "./errors";\n',
                 'import { RetryAbortedError, RetryExhaustedError, RetrywellError } from '
                 '"./errors";\n'),
            Edit("test/retry.test.ts", "    expect(fn).toHaveBeenCalledTimes(1);\n  });\n});\n",
                 "    expect(fn).toHaveBeenCalledTimes(1);\n  });\n\n"
                 '  it("rejects maxMs smaller than baseMs", async () => {\n'
                 "    const p = retry(async () => 1, { baseMs: 500, maxMs: 100 });\n"
                 '    await expect(p).rejects.toMatchObject({ code: "INVALID_OPTIONS" });\n'
                 "  });\n});\n"),
            Bash("npx jest", out=S10_JEST_PASS.replace(" PASS  test/backoff", " PASS  "
                 "test/abort.test.ts\n PASS  test/backoff").replace("2 passed, 2", "3 passed, 3")
                 .replace("6 passed, 6", "8 passed, 8")),
            Probe("is there still room for a per-attempt `timeout` option after this, or would "
                  "that blow it?", needs="size-25kb"),
            Bash("npm run build && npm run size", out=tsup_ok() + size("2.21 kB", "2.5 kB")),
            Say("2.21 kB of the 2.5 kB budget, so about 290 B of headroom. A per-attempt "
                "timeout is a timer plus one more abort path, roughly 100-150 B brotlied; it "
                "fits, though not much more after it."),
            Probe("ok, commit what we have", needs="imperative-commits"),
            Commit("Reject maxMs < baseMs with an INVALID_OPTIONS error"),
        )),
        Session(day=14, events=(
            User("before 1.0 I want to be sure we're consistent. can you have a subagent go "
                 "through src/ and check every place we throw?"),
            Subagent(report=S10_THROW_REPORT),
            Probe("ok, fix the odd one out", needs="error-classes"),
            Edit("src/backoff.ts", "export interface BackoffOptions {\n",
                 'import { RetrywellError } from "./errors";\n\n'
                 "export interface BackoffOptions {\n"),
            Edit("src/backoff.ts",
                 '  if (attempt < 0) throw new RangeError("attempt must be >= 0");\n',
                 "  if (attempt < 0) {\n"
                 '    throw new RetrywellError("INVALID_ATTEMPT", "attempt must be >= 0");\n'
                 "  }\n"),
            Bash("npx jest && npm run build && npm run size", out=S10_JEST_PASS.replace(
                " PASS  test/backoff", " PASS  test/abort.test.ts\n PASS  test/backoff").replace(
                "2 passed, 2", "3 passed, 3").replace("6 passed, 6", "8 passed, 8")
                + tsup_ok() + size("2.23 kB", "2.5 kB")),
            Commit("Throw RetrywellError from computeDelay for negative attempts"),
            User("thanks! 1.0 here we come"),
        )),
    ),
)

STORIES = [
    HOUSE_RULES,
    SHIFTS_CACHE,
    MIGRATIONS,
    E2E,
    BERLIN_TIME,
    HOUSE_STYLE,
    DUAL_PACKAGE,
    FAKE_TIMERS,
    NODE18_RELEASE,
    ERRORS_AND_SIZE,
]
