"""Held-out stories in TypeScript and JavaScript projects (Next.js + Prisma in Docker Compose, an
MCP command-line tool, a SvelteKit + Drizzle CMS on bun, a schema validation library in a pnpm
workspace, a browser emulator in plain JavaScript).

Every user turn that states a rule, a change or a fact is taken from public material (instruction
files and their git history, commit messages, issue threads) named in the story's ``sources``
and in a ``# source:`` comment above the turn; names are replaced by placeholders.
"""

from __future__ import annotations

from replaykit.story import (
    Bash,
    Commit,
    Edit,
    Probe,
    Project,
    Read,
    Say,
    Session,
    Story,
    User,
    Write,
    lesson,
)

# ---------------------------------------------------------------------------------------------
# 1. airbroke: Next.js 16 + Prisma error collector, developed through Docker Compose
# ---------------------------------------------------------------------------------------------

AIRBROKE = Project("airbroke", "typescript", {
    "package.json": (
        '{\n  "name": "airbroke",\n  "private": true,\n  "packageManager": "yarn@4.5.3",\n'
        '  "scripts": {\n    "dev": "next dev",\n    "build": "next build",\n'
        '    "start": "next start",\n    "test": "vitest",\n    "typecheck": "tsc --noEmit",\n'
        '    "biome:lint": "biome lint --write .",\n    "biome:ci": "biome ci .",\n'
        '    "format": "biome format --write .",\n    "db:migrate": "prisma migrate deploy",\n'
        '    "db:generate": "prisma generate",\n    "db:seed": "tsx prisma/seed.ts"\n  },\n'
        '  "dependencies": {\n    "next": "16.0.10",\n    "react": "19.2.1",\n'
        '    "@prisma/client": "7.1.0"\n  },\n'
        '  "devDependencies": {\n    "vitest": "4.0.15",\n    "@biomejs/biome": "2.3.8",\n'
        '    "prisma": "7.1.0",\n    "typescript": "5.9.3"\n  }\n}\n'
    ),
    "docker-compose.yml": (
        "services:\n  web:\n    build: .\n    command: yarn dev\n    environment:\n"
        "      DATABASE_URL: postgresql://airbroke:airbroke@db:5432/airbroke\n"
        "    ports: ['3000:3000']\n    depends_on: [db]\n"
        "  test:\n    build: .\n    command: yarn test\n    environment:\n"
        "      DATABASE_URL: postgresql://airbroke:airbroke@testdb:5432/airbroke_test\n"
        "    depends_on: [testdb]\n"
        "  db:\n    image: postgres:18\n    volumes: ['pgdata:/var/lib/postgresql']\n"
        "  testdb:\n    image: postgres:18\n\nvolumes:\n  pgdata:\n"
    ),
    "lib/db.ts": (
        'import { PrismaClient } from "@/prisma/generated/client";\n\n'
        "const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };\n\n"
        "export const db = globalForPrisma.prisma ?? new PrismaClient();\n"
    ),
    "lib/actions/projectActions.ts": (
        '"use server";\n\nimport { revalidatePath } from "next/cache";\n'
        'import { redirect } from "next/navigation";\nimport { db } from "@/lib/db";\n\n'
        "export async function archiveProject(projectId: string) {\n  try {\n"
        "    await db.project.update({ where: { id: projectId }, data: { archived: true } });\n"
        '    revalidatePath("/projects");\n    redirect("/projects");\n  } catch (error) {\n'
        '    console.error("archiveProject failed", error);\n'
        '    return { error: "Could not archive project" };\n  }\n}\n'
    ),
    "components/ProjectNav.tsx": (
        'import Link from "next/link";\n\n'
        "export function ProjectNav({ projectId }: { projectId: string }) {\n  return (\n"
        '    <nav className="flex gap-4">\n'
        "      <Link href={`/projects/${projectId}`}>Overview</Link>\n"
        "    </nav>\n  );\n}\n"
    ),
    "proxy.ts": (
        'import { type NextRequest, NextResponse } from "next/server";\n\n'
        "export function proxy(request: NextRequest) {\n  return NextResponse.next();\n}\n\n"
        'export const config = { matcher: ["/api/v3/:path*"] };\n'
    ),
    "prisma/schema.prisma": (
        'generator client {\n  provider = "prisma-client"\n  output   = "./generated"\n}\n\n'
        'datasource db {\n  provider = "postgresql"\n}\n\n'
        "model Project {\n  id       String   @id @default(uuid())\n  name     String\n"
        "  api_key  String   @unique\n  archived Boolean  @default(false)\n"
        "  notices  Notice[]\n}\n\n"
        "model Notice {\n  id         String  @id @default(uuid())\n  project_id String\n"
        "  kind       String\n  project    Project @relation(fields: [project_id], "
        "references: [id])\n}\n"
    ),
    "prisma/migrations/20251201120000_init/migration.sql": (
        'CREATE TABLE "Project" (\n  "id" TEXT NOT NULL,\n  "name" TEXT NOT NULL,\n'
        '  "api_key" TEXT NOT NULL,\n  "archived" BOOLEAN NOT NULL DEFAULT false,\n'
        '  CONSTRAINT "Project_pkey" PRIMARY KEY ("id")\n);\n\n'
        'CREATE TABLE "Notice" (\n  "id" TEXT NOT NULL,\n  "project_id" TEXT NOT NULL,\n'
        '  "kind" TEXT NOT NULL,\n  CONSTRAINT "Notice_pkey" PRIMARY KEY ("id")\n);\n'
    ),
    "__tests__/lib/projectActions.test.ts": (
        "// @vitest-environment node\n"
        'import { describe, expect, it } from "vitest";\n'
        'import { archiveProject } from "@/lib/actions/projectActions";\n'
        'import { createProject } from "../factories/prismaFactories";\n\n'
        'describe("archiveProject", () => {\n'
        '  it("redirects to /projects after archiving", async () => {\n'
        "    const project = await createProject();\n"
        '    await expect(archiveProject(project.id)).rejects.toThrow("NEXT_REDIRECT");\n'
        "  });\n});\n"
    ),
})

VITEST_REDIRECT_FAIL = (
    " RUN  v4.0.15 /app\n\n"
    "stderr | __tests__/lib/projectActions.test.ts > archiveProject > redirects to /projects "
    "after archiving\n"
    "archiveProject failed Error: NEXT_REDIRECT\n"
    "    at getRedirectError (node_modules/next/dist/client/components/redirect.js:21:19)\n"
    "    at redirect (node_modules/next/dist/client/components/redirect.js:47:11)\n"
    "    at archiveProject (lib/actions/projectActions.ts:11:5)\n\n"
    " ❯ __tests__/lib/projectActions.test.ts (3 tests | 1 failed) 48ms\n"
    "   ✓ archiveProject > marks the project archived 14ms\n"
    "   × archiveProject > redirects to /projects after archiving 11ms\n"
    "     → promise resolved \"{ error: 'Could not archive project' }\" instead of rejecting\n"
    "   ✓ archiveProject > returns an error when the update fails 7ms\n\n"
    "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
    " FAIL  __tests__/lib/projectActions.test.ts > archiveProject > redirects to /projects "
    "after archiving\n"
    "AssertionError: promise resolved \"{ error: 'Could not archive project' }\" instead of "
    "rejecting\n\n"
    " ❯ __tests__/lib/projectActions.test.ts:11:5\n\n"
    " Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)\n"
    "   Duration  1.92s"
)
VITEST_PASS_SMALL = (
    " RUN  v4.0.15 /app\n\n"
    " ✓ __tests__/lib/projectActions.test.ts (3 tests) 39ms\n\n"
    " Test Files  1 passed (1)\n      Tests  3 passed (3)\n   Duration  1.71s"
)
VITEST_WEB_DEVDB_FAIL = (
    " RUN  v4.0.15 /app\n\n"
    " ❯ __tests__/lib/projectActions.test.ts (3 tests | 2 failed) 212ms\n"
    "   × archiveProject > marks the project archived 95ms\n"
    "     → \nInvalid `prisma.project.create()` invocation:\n\n"
    "Unique constraint failed on the fields: (`api_key`)\n"
    "   × archiveProject > redirects to /projects after archiving 61ms\n"
    "     → \nInvalid `prisma.project.create()` invocation:\n\n"
    "Unique constraint failed on the fields: (`api_key`)\n"
    "   ✓ archiveProject > returns an error when the update fails 9ms\n\n"
    "PrismaClientKnownRequestError: Unique constraint failed on the fields: (`api_key`)\n"
    "  code: 'P2002', clientVersion: '7.1.0', meta: { modelName: 'Project' }\n\n"
    " Test Files  4 failed | 19 passed (23)\n      Tests  9 failed | 141 passed (150)\n"
    "   Duration  14.08s"
)
VITEST_PASS_FULL = (
    " RUN  v4.0.15 /app\n\n"
    " ✓ __tests__/lib/projectActions.test.ts (3 tests) 44ms\n"
    " ✓ __tests__/lib/noticeActions.test.ts (4 tests) 51ms\n"
    " ✓ __tests__/api/v3/notices.test.ts (12 tests) 310ms\n"
    " ✓ __tests__/proxy.test.ts (6 tests) 22ms\n\n"
    " Test Files  23 passed (23)\n      Tests  150 passed (150)\n   Duration  12.64s"
)

AIRBROKE_STORY = Story(
    id="ho-ts-airbroke-compose",
    title="Next.js + Prisma app run through Docker Compose: the test command moves from docker "
          "exec to compose exec to a one-shot profile; redirect, migration and proxy rules",
    project=AIRBROKE,
    sources=("icoretech/airbroke",),
    lessons=(
        lesson("test-exec", "command",
               "Tests run inside the running container: `docker exec airbroke-test-1 yarn test` "
               "(app commands: `docker exec airbroke-web-1 yarn ...`)",
               "docker exec", "airbroke-test-1"),
        lesson("test-compose", "command",
               "Compose-first workflow: `docker compose up -d web test db testdb`, then tests with "
               "`docker compose exec test yarn test --run` (never plain `docker exec` or the host)",
               "docker compose exec", "test yarn"),
        lesson("test-profile", "command",
               "Vitest runs through a one-shot Compose profile: "
               "`docker compose -f docker-compose.yml --profile test run --rm test yarn test "
               "--run`; only `web` and `db` stay up",
               "--profile test", "run --rm"),
        lesson("redirect-rethrow", "gotcha",
               "redirect() in a server action throws NEXT_REDIRECT; a broad try/catch swallows it "
               "and navigation never happens. Call unstable_rethrow(error) in the catch or keep "
               "redirect outside the try",
               "NEXT_REDIRECT|unstable_rethrow", "redirect"),
        lesson("no-any", "convention",
               "No `any`: use precise types; for internal hrefs with typed routes cast to `Route` "
               "from `next` rather than `any`",
               "`Route`|Route type|typedRoutes|typed routes", "any"),
        lesson("web-devdb", "gotcha",
               "Never run tests through the `web` service: its DATABASE_URL is the development "
               "database; the `test` service owns `testdb`",
               "testdb", "DATABASE_URL|development database|dev database"),
        lesson("migrations-forward", "convention",
               "Applied Prisma migrations are immutable history: change schema.prisma, add a new "
               "timestamped migration, regenerate; never rewrite an existing migration",
               "migration", "immutable|new timestamped|never rewrite"),
        lesson("proxy-ts", "decision",
               "Request interception lives in proxy.ts (Next 16); do not replace it with "
               "middleware.ts",
               "proxy.ts", "middleware"),
        lesson("react-doctor", "command",
               "React Doctor is a CI quality gate: run `docker compose exec web yarn react-doctor` "
               "with typecheck and biome",
               "react-doctor"),
        lesson("prod-build", "command",
               "Verify the production build with NODE_ENV=production set explicitly: "
               "`docker compose exec web env NODE_ENV=production yarn build`",
               "NODE_ENV=production", "build"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: icoretech/airbroke AGENTS.md (commit 38b64d97, "Docker (local dev)")
            User("hey, before you start: running Yarn commands requires a running docker "
                 "container:\n  - Web: `docker exec airbroke-web-1 yarn …`\n"
                 "  - Tests: `docker exec airbroke-test-1 yarn …`\n\n"
                 "the archive button on a project does archive it, but the page never goes back "
                 "to /projects. can you look?", states="test-exec"),
            Read("lib/actions/projectActions.ts"),
            Bash("docker exec airbroke-test-1 yarn test --run "
                 "__tests__/lib/projectActions.test.ts", out=VITEST_REDIRECT_FAIL, ok=False),
            # source: icoretech/airbroke AGENTS.md (commit 831f715f, "Next.js 16 Guidelines")
            Say("Found it. `redirect()` throws a special NEXT_REDIRECT error, and the broad "
                "`catch` in archiveProject swallows it, so navigation never happens. I'll call "
                "`unstable_rethrow(error)` first thing in the catch so Next's control flow "
                "passes through, and only the DB failure turns into an error result.",
                states="redirect-rethrow"),
            Edit("lib/actions/projectActions.ts",
                 'import { redirect } from "next/navigation";\n',
                 'import { redirect, unstable_rethrow } from "next/navigation";\n'),
            Edit("lib/actions/projectActions.ts",
                 "  } catch (error) {\n    console.error",
                 "  } catch (error) {\n    unstable_rethrow(error);\n    console.error"),
            Bash("docker exec airbroke-test-1 yarn test --run "
                 "__tests__/lib/projectActions.test.ts", out=VITEST_PASS_SMALL),
            User("nice. commit it"),
            Commit("fix(projects): rethrow redirect control flow in archiveProject"),
        ), judge={"test-exec": "not_down"}),
        Session(day=3, events=(
            # source: icoretech/airbroke AGENTS.md (commit 831f715f, "TypeScript Strictness")
            User("next one: the project nav needs a link to the notices page of the project. "
                 "TypeScript strictness matters here: do not use `any`. Prefer precise types and "
                 "inference. If a cast is unavoidable, target the most specific type; for Next "
                 "typed routes cast internal hrefs to `Route` from `next` instead of using `any`.",
                 states="no-any"),
            Read("components/ProjectNav.tsx"),
            Edit("components/ProjectNav.tsx", 'import Link from "next/link";\n',
                 'import type { Route } from "next";\nimport Link from "next/link";\n'),
            Edit("components/ProjectNav.tsx",
                 "      <Link href={`/projects/${projectId}`}>Overview</Link>\n",
                 "      <Link href={`/projects/${projectId}`}>Overview</Link>\n"
                 "      <Link href={`/projects/${projectId}/notices` as Route}>Notices</Link>\n"),
            Bash("docker exec airbroke-web-1 yarn test --run", out=VITEST_WEB_DEVDB_FAIL,
                 ok=False),
            # source: icoretech/airbroke __tests__/AGENTS.md and docs/agents/development-workflow.md
            User("whoa, stop, don't execute tests through `web`; its `DATABASE_URL` targets "
                 "development. The `test` service owns `testdb`. Keep app commands on web and "
                 "test commands on test so development data and test data stay separate.",
                 states="web-devdb"),
            Say("Sorry about that; the unique-constraint failures were my test factories running "
                "into your development data. Re-running in the test container."),
            Bash("docker exec airbroke-test-1 yarn test --run", out=VITEST_PASS_FULL),
            User("ok. and just for this PR skip the screenshots in the description, it's a "
                 "one-line nav change. commit it"),
            Commit("feat(projects): link notices from the project nav"),
        ), judge={"test-exec": "not_down"}),
        Session(day=12, events=(
            # source: icoretech/airbroke AGENTS.md (commits 1a3ecff7 and cf81eaab)
            User("fyi I refactored the agent guide with a docker-compose-first workflow. This is "
                 "a Docker Compose project: start required services before running commands, "
                 "`docker compose up -d web test db testdb`. Use `docker compose exec` for "
                 "repository commands (not host execution, not `docker exec`). App commands: "
                 "`docker compose exec web yarn <script>`; test commands: "
                 "`docker compose exec test yarn <script>`.",
                 states="test-compose", replaces="test-exec"),
            Probe("there's a delete-notice server action too; after deleting it should send "
                  "you back to the project's notices list. can you add that?",
                  needs="redirect-rethrow"),
            Write("lib/actions/noticeActions.ts",
                  '"use server";\n\nimport { revalidatePath } from "next/cache";\n'
                  'import { redirect, unstable_rethrow } from "next/navigation";\n'
                  'import { db } from "@/lib/db";\n\n'
                  "export async function deleteNotice(projectId: string, noticeId: string) {\n"
                  "  try {\n    await db.notice.delete({ where: { id: noticeId } });\n"
                  "    revalidatePath(`/projects/${projectId}/notices`);\n"
                  "    redirect(`/projects/${projectId}/notices`);\n  } catch (error) {\n"
                  "    unstable_rethrow(error);\n"
                  '    return { error: "Could not delete notice" };\n  }\n}\n'),
            Bash("docker compose exec test yarn test --run", out=VITEST_PASS_FULL),
            User("good, commit"),
            Commit("feat(notices): return to the notices list after deleting a notice"),
        ), judge={"test-compose": "not_down", "redirect-rethrow": "not_down"}),
        Session(day=20, events=(
            User("unauthenticated visitors hitting /projects should get bounced to /signin. "
                 "how would you do it?"),
            Say("I'd add a `middleware.ts` at the repo root with a matcher on `/projects/:path*` "
                "that checks the session cookie and redirects to /signin."),
            # source: icoretech/airbroke AGENTS.md (HEAD, "ANTI-PATTERNS" and "WHERE TO LOOK")
            User("no. do not replace `proxy.ts` with `middleware.ts`; on Next 16 the "
                 "interception lives in proxy.ts. put the check there, and remember server "
                 "checks are authoritative anyway.", states="proxy-ts"),
            Edit("proxy.ts",
                 "export function proxy(request: NextRequest) {\n  return NextResponse.next();\n}",
                 "export function proxy(request: NextRequest) {\n"
                 '  if (request.nextUrl.pathname.startsWith("/projects") &&\n'
                 '      !request.cookies.has("better-auth.session_token")) {\n'
                 '    return NextResponse.redirect(new URL("/signin", request.url));\n  }\n'
                 "  return NextResponse.next();\n}"),
            Edit("proxy.ts", 'matcher: ["/api/v3/:path*"]',
                 'matcher: ["/api/v3/:path*", "/projects/:path*"]'),
            User("also I need a `resolved_at` timestamp on notices"),
            Say("Easiest is to add the column to the CREATE TABLE in "
                "prisma/migrations/20251201120000_init/migration.sql and reset the dev database."),
            # source: icoretech/airbroke prisma/AGENTS.md ("CONVENTIONS", "ANTI-PATTERNS")
            User("don't touch that file. Treat existing migrations as immutable production "
                 "history. Never rewrite an applied migration to match a newer desired schema: "
                 "change models in `schema.prisma`, add a new timestamped migration for deployed "
                 "schema changes, then regenerate the client.", states="migrations-forward"),
            Edit("prisma/schema.prisma", "  kind       String\n",
                 "  kind       String\n  resolved_at DateTime?\n"),
            Write("prisma/migrations/20260310093000_notice_resolved_at/migration.sql",
                  'ALTER TABLE "Notice" ADD COLUMN "resolved_at" TIMESTAMP(3);\n'),
            Bash("docker compose exec web yarn db:generate",
                 out="Prisma schema loaded from prisma/schema.prisma\n\n"
                     "✔ Generated Prisma Client (7.1.0) to ./prisma/generated in 142ms"),
            Probe("run the suite before I push", needs="test-compose"),
            Bash("docker compose exec test yarn test --run", out=VITEST_PASS_FULL),
            Commit("feat(notices): add resolved_at and gate /projects in proxy"),
        ), judge={"test-compose": "not_down"}),
        Session(day=35, events=(
            # source: icoretech/airbroke commit 91f2d63b "chore: add react doctor quality gate"
            # and docs/agents/development-workflow.md
            User("I added a react doctor quality gate to CI (.drone.jsonnet). locally it's "
                 "`docker compose exec web yarn react-doctor`; run it along with typecheck and "
                 "biome before handing things back.", states="react-doctor"),
            Probe("noisy projects keep paging people. add a `muted` flag on projects so we can "
                  "silence them", needs="migrations-forward"),
            Edit("prisma/schema.prisma", "  archived Boolean  @default(false)\n",
                 "  archived Boolean  @default(false)\n  muted    Boolean  @default(false)\n"),
            Write("prisma/migrations/20260405101500_project_muted/migration.sql",
                  'ALTER TABLE "Project" ADD COLUMN "muted" BOOLEAN NOT NULL DEFAULT false;\n'),
            Probe("and the project settings page must only be reachable with a session, same "
                  "as the rest", needs="proxy-ts"),
            Bash("docker compose exec web yarn react-doctor",
                 out="react-doctor v0.4.2\nScanning 214 files in app/, components/\n\n"
                     "✓ No issues found (0 errors, 0 warnings) in 3.1s"),
            # source: icoretech/airbroke docs/agents/nextjs-16.md ("Build Rules")
            User("before I cut the image, verify the production build. Always set "
                 "`NODE_ENV=production` explicitly for production build verification: "
                 "`docker compose exec web env NODE_ENV=production yarn build`.",
                 states="prod-build"),
            Bash("docker compose exec web env NODE_ENV=production yarn build",
                 out="   ▲ Next.js 16.0.10\n\n   Creating an optimized production build ...\n"
                     " ✓ Compiled successfully in 21.4s\n ✓ Generating static pages (14/14)\n"
                     "   Finalizing page optimization ...\n\nRoute (app)\n"
                     "┌ ƒ /projects/[project_id]\n└ ƒ /projects/[project_id]/notices\n\n"
                     "ƒ Proxy\n"),
            Commit("feat(projects): add muted flag"),
        ), judge={"react-doctor": "not_down", "prod-build": "not_down"}),
        Session(day=50, events=(
            # source: icoretech/airbroke commits 6a1563f0 and 3dcc2271
            # ("run Vitest through a one-shot Compose profile")
            User("heads up: Vitest now runs through a one-shot Compose profile, there's no "
                 "persistent test watcher anymore. Bring up only "
                 "`docker compose -f docker-compose.yml up -d web db`; tests are "
                 "`docker compose -f docker-compose.yml --profile test run --rm test yarn test "
                 "--run`. The profile starts testdb for you.",
                 states="test-profile", replaces="test-compose"),
            Bash("docker compose -f docker-compose.yml --profile test run --rm test "
                 "yarn test --run", out=" ✔ Container airbroke-testdb-1  Started\n"
                 + VITEST_PASS_FULL),
            User("cool, that's it for today"),
        ), judge={"test-profile": "not_down"}),
        Session(day=53, events=(
            Probe("I'm about to tag a release. can you run the whole verification pass first?",
                  needs=("test-profile", "react-doctor", "prod-build")),
            Bash("docker compose -f docker-compose.yml --profile test run --rm test "
                 "yarn test --run", out=VITEST_PASS_FULL),
            Probe("write a test for the muted flag in the project settings action; where and "
                  "how do you run it?", needs=("web-devdb", "test-profile")),
            Probe("the notice link in the occurrences table gives a type error on its href, "
                  "can you fix it?", needs="no-any"),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# 2. slack-tools: a TypeScript CLI and MCP server (vitest, eslint, prettier)
# ---------------------------------------------------------------------------------------------

SLACK = Project("slack-tools", "typescript", {
    "package.json": (
        '{\n  "name": "slack-tools",\n  "version": "1.0.2",\n  "type": "module",\n'
        '  "bin": { "slack-tools": "dist/cli.js" },\n  "scripts": {\n'
        '    "cli": "tsx src/cli.ts",\n    "build": "tsc --noEmit --skipLibCheck && tsup",\n'
        '    "lint": "eslint \\"src/**/*.ts\\" \\"test/**/*.ts\\"",\n'
        '    "lint:fix": "eslint \\"src/**/*.ts\\" \\"test/**/*.ts\\" --fix",\n'
        '    "format": "prettier --write \\"src/**/*.ts\\" \\"test/**/*.ts\\"",\n'
        '    "format:check": "prettier --check \\"src/**/*.ts\\" \\"test/**/*.ts\\"",\n'
        '    "test": "vitest run"\n  },\n'
        '  "dependencies": {\n    "@slack/web-api": "^7.0.1",\n    "commander": "^13.1.0",\n'
        '    "fastmcp": "^1.23.1",\n    "keytar": "^7.9.0"\n  }\n}\n'
    ),
    "src/cli.ts": (
        "#!/usr/bin/env node\nimport { Command } from 'commander';\n"
        "import { registerCommands } from './commands/index.js';\n"
        "import { CommandContext } from './context.js';\n\n"
        "const program = new Command('slack-tools');\nconst context = new CommandContext();\n"
        "registerCommands(program, context);\nprogram.parseAsync(process.argv);\n"
    ),
    "src/context.ts": (
        "export class CommandContext {\n  private _debug = false;\n\n"
        "  set debug(value: boolean) {\n    this._debug = value;\n  }\n\n"
        "  debugLog(message: string, ...args: unknown[]): void {\n    if (this._debug) {\n"
        "      console.log('[DEBUG]', message, ...args);\n    }\n  }\n}\n"
    ),
    "src/commands/index.ts": (
        "import type { Command } from 'commander';\nimport type { CommandContext } from "
        "'../context.js';\nimport { registerSearchCommand } from './search.js';\n"
        "import { registerMcpCommand } from './mcp.js';\n\n"
        "export function registerCommands(program: Command, context: CommandContext): void {\n"
        "  registerSearchCommand(program, context);\n  registerMcpCommand(program, context);\n}\n"
    ),
    "src/slack-api.ts": (
        "import { WebClient } from '@slack/web-api';\n"
        "import type { CommandContext } from './context.js';\n\n"
        "export async function searchMessages(\n  client: WebClient,\n  query: string,\n"
        "  context: CommandContext,\n): Promise<unknown[]> {\n"
        "  const result = await client.search.messages({ query, count: 100 });\n"
        "  return result.messages?.matches ?? [];\n}\n"
    ),
    "src/commands/my-messages/formatters.ts": (
        "export function dateHeading(ts: string): string {\n"
        "  return `# ${new Date(Number(ts) * 1000).toDateString()}`;\n}\n"
    ),
    "test/unit/commands/my_messages/formatters.test.ts": (
        "import { describe, expect, it } from 'vitest';\n"
        "import { dateHeading } from '../../../../src/commands/my-messages/formatters.js';\n\n"
        "describe('My Messages Formatters', () => {\n"
        "  it('formats a date heading', () => {\n"
        "    expect(dateHeading('1609459200')).toContain('# Thu Dec 31 2020');\n  });\n});\n"
    ),
    "vitest.config.ts": (
        "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n"
        "  test: {\n    include: ['test/**/*.test.ts'],\n  },\n});\n"
    ),
    ".github/workflows/ci.yml": (
        "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n"
        "        with:\n          node-version: 22\n          cache: npm\n"
        "      - run: npm ci\n      - run: npm run lint\n      - run: npm test\n"
    ),
})

ESLINT_OK = "> slack-tools@1.0.2 lint\n> eslint \"src/**/*.ts\" \"test/**/*.ts\"\n"
BUILD_OK = (
    "> slack-tools@1.0.2 build\n> tsc --noEmit --skipLibCheck && tsup\n\n"
    "CLI Building entry: src/cli.ts\nCLI Using tsconfig: tsconfig.json\nCLI tsup v8.4.0\n"
    "ESM Build start\nESM dist/cli.js 61.24 KB\nESM ⚡️ Build success in 48ms"
)
MCP_STDOUT_FAIL = (
    "Starting MCP inspector...\n⚙️ Proxy server listening on 127.0.0.1:6277\n"
    "New STDIO connection request\nSTDIO transport: command=node, args=dist/cli.js,mcp,--debug\n"
    "Error from MCP server: SyntaxError: Unexpected token 'D', \"[DEBUG] Usi\"... is not valid "
    "JSON\n    at JSON.parse (<anonymous>)\n"
    "    at deserializeMessage (@modelcontextprotocol/sdk/dist/esm/shared/stdio.js:26:44)\n"
    "Error in /stdio route: Error: Connection closed"
)
CI_TZ_FAIL = (
    "test\tRun npm test\t> vitest run\n"
    "test\tRun npm test\t ❯ test/unit/commands/my_messages/formatters.test.ts "
    "(4 tests | 2 failed)\n"
    "test\tRun npm test\t   × My Messages Formatters > formats a date heading\n"
    "test\tRun npm test\t     → expected '# Fri Jan 01 2021' to contain '# Thu Dec 31 2020'\n"
    "test\tRun npm test\t   × My Messages Formatters > groups messages by date\n"
    "test\tRun npm test\t     → expected -1 to be greater than -1\n"
    "test\tRun npm test\t Test Files  1 failed | 11 passed (12)\n"
    "test\tRun npm test\t      Tests  2 failed | 87 passed (89)\n"
    "test\tRun npm test\t##[error]Process completed with exit code 1."
)
NPM_CHECK_OK = (
    "> slack-tools@1.2.0 check\n"
    "> npm-run-all --parallel lint format:check typecheck audit --serial test build\n\n"
    "> slack-tools@1.2.0 audit\n> npm audit --production\nfound 0 vulnerabilities\n\n"
    "> slack-tools@1.2.0 format:check\nChecking formatting...\n"
    "All matched files use Prettier code style!\n\n"
    "> slack-tools@1.2.0 test\n> vitest run\n\n Test Files  13 passed (13)\n"
    "      Tests  94 passed (94)\n\n> slack-tools@1.2.0 build\nESM ⚡️ Build success in 51ms"
)

SLACK_STORY = Story(
    id="ho-ts-slack-tools-mcp",
    title="TypeScript CLI/MCP server: pnpm then back to npm, lint+build replaced by npm run "
          "check, renamed registration file, stdout and timezone gotchas",
    project=SLACK,
    sources=("rygwdn/slack-tools",),
    lessons=(
        lesson("quality-v1", "command",
               "Before a task is complete, run the quality checks: `run lint` and `run build`",
               "run lint", "run build"),
        lesson("quality-v2", "command",
               "Before a task is complete, run `npm run check` (lint, format check, typecheck, "
               "audit, tests and build)",
               "npm run check"),
        lesson("pm-pnpm", "decision", "The project switched to pnpm (pnpm install / pnpm run)",
               "pnpm"),
        lesson("pm-npm", "decision",
               "Back to npm: package-lock.json, `npm install` / `npm run`, CI uses npm; pnpm is "
               "gone",
               "npm", "package-lock|back to npm|instead of pnpm"),
        lesson("no-mutate", "convention",
               "Never run commands that modify Slack data (post, update, delete, status...) "
               "without the user's approval; read-only commands are fine",
               "permission|approval", "modify|mutat|unsafe"),
        lesson("register-index", "convention",
               "Register new commands in src/commands/index.ts", "index.ts", "register"),
        lesson("register-named", "convention",
               "No index.ts files: commands are registered in "
               "src/commands/register-commands.ts (MCP tools in mcp-tools/register-tools.ts)",
               "register-commands"),
        lesson("stderr-logging", "gotcha",
               "The MCP server talks JSON over stdio: anything on stdout breaks the protocol, so "
               "all logging goes to stderr (console.error), never console.log",
               "stderr|console.error", "MCP|stdout"),
        lesson("tz-tests", "gotcha",
               "Date-heading tests failed in CI because of timezone differences: match the "
               "heading format with a regex, not an exact date string",
               "timezone", "regex|toMatch"),
        lesson("no-comments", "preference",
               "Do not add comments to code unless absolutely necessary for clarity",
               "comment", "absolutely necessary"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: rygwdn/slack-tools CLAUDE.md (commit f1adb9f)
            User("hi! quick orientation: build with `npm run build`, tests with `npm run test`, "
                 "a single file with `npx vitest run test/unit/path/to/file.test.ts`. Always run "
                 "quality checks (`npm run lint`, `npm run build`) before considering a task "
                 "complete.", states="quality-v1"),
            # source: rygwdn/slack-tools .cursor/rules/slack-tools.mdc (commit 2931ee3)
            User("and about commands: classify them as safe or unsafe. Safe (read-only): print, "
                 "test, today, search, list, help. Unsafe (modify data): post, update, delete, "
                 "create, modify, send, status. Never automatically run commands that modify "
                 "Slack data without permission; wait for my approval first.",
                 states="no-mutate"),
            # source: rygwdn/slack-tools .cursor/rules/slack-tools.mdc ("Command Execution")
            User("today's job: a `today` command that prints today's messages. when adding new "
                 "commands, follow the structure in src/commands/ and register all new commands "
                 "in src/commands/index.ts.", states="register-index"),
            Write("src/commands/today.ts",
                  "import type { Command } from 'commander';\n"
                  "import type { CommandContext } from '../context.js';\n\n"
                  "export function registerTodayCommand(program: Command, context: "
                  "CommandContext): void {\n"
                  "  program.command('today').description(\"Print today's messages\")"
                  ".action(async () => {\n"
                  "    context.debugLog('Fetching today');\n  });\n}\n"),
            Edit("src/commands/index.ts", "import { registerMcpCommand } from './mcp.js';\n",
                 "import { registerMcpCommand } from './mcp.js';\n"
                 "import { registerTodayCommand } from './today.js';\n"),
            Edit("src/commands/index.ts", "  registerMcpCommand(program, context);\n",
                 "  registerMcpCommand(program, context);\n"
                 "  registerTodayCommand(program, context);\n"),
            Bash("npm run lint && npm run build", out=ESLINT_OK + "\n" + BUILD_OK),
            User("commit please"),
            Commit("add today command"),
        ), judge={"quality-v1": "not_down"}),
        Session(day=4, events=(
            # source: rygwdn/slack-tools commits c219665 "switch to pnpm" and b1c1c4a
            User("housekeeping landed over the weekend: switch to pnpm. pnpm-lock.yaml is in, so "
                 "it's `pnpm install` and `pnpm run …` from now on. can you update CI for that?",
                 states="pm-pnpm"),
            Edit(".github/workflows/ci.yml",
                 "          cache: npm\n      - run: npm ci\n      - run: npm run lint\n"
                 "      - run: npm test\n",
                 "          cache: pnpm\n      - uses: pnpm/action-setup@v4\n"
                 "      - run: pnpm install --frozen-lockfile\n      - run: pnpm run lint\n"
                 "      - run: pnpm test\n"),
            # source: rygwdn/slack-tools commit 7995cd4 "Replace index.ts files with named files"
            User("second: replace the index.ts files with named files. src/commands/index.ts "
                 "becomes src/commands/register-commands.ts (and mcp-tools/index.ts becomes "
                 "mcp-tools/register-tools.ts); update the imports in cli.ts.",
                 states="register-named", replaces="register-index"),
            Write("src/commands/register-commands.ts",
                  "import type { Command } from 'commander';\nimport type { CommandContext } "
                  "from '../context.js';\nimport { registerSearchCommand } from './search.js';\n"
                  "import { registerMcpCommand } from './mcp.js';\n"
                  "import { registerTodayCommand } from './today.js';\n\n"
                  "export function registerCommands(program: Command, context: CommandContext)"
                  ": void {\n  registerSearchCommand(program, context);\n"
                  "  registerMcpCommand(program, context);\n"
                  "  registerTodayCommand(program, context);\n}\n"),
            Bash("git rm -q src/commands/index.ts", out=""),
            Edit("src/cli.ts", "from './commands/index.js';",
                 "from './commands/register-commands.js';"),
            Probe("make sure it's all clean before I review", needs="quality-v1"),
            Bash("pnpm run lint && pnpm run build", out=ESLINT_OK + "\n" + BUILD_OK),
            Commit("Replace index.ts files with named files and update imports"),
        )),
        Session(day=5, events=(
            User("the MCP server falls over in Claude Desktop as soon as I pass --debug. can "
                 "you check?"),
            Bash("npx @modelcontextprotocol/inspector node dist/cli.js mcp --debug",
                 out=MCP_STDOUT_FAIL, ok=False),
            Read("src/context.ts"),
            # source: rygwdn/slack-tools commit 3a3b663 "Fix stdout logging to ensure MCP
            # compatibility"
            Say("The MCP server speaks JSON-RPC over stdio, so anything printed to stdout is "
                "parsed as a protocol message; debugLog uses console.log, which is stdout. "
                "I'll redirect all logging from stdout to stderr (console.error) so MCP "
                "clients only ever see protocol output.", states="stderr-logging"),
            Edit("src/context.ts", "      console.log('[DEBUG]', message, ...args);",
                 "      console.error('[DEBUG]', message, ...args);"),
            Bash("npx @modelcontextprotocol/inspector node dist/cli.js mcp --debug",
                 out="Starting MCP inspector...\nNew STDIO connection request\n"
                     "Connected MCP client to backing server transport\n"
                     "[DEBUG] Using last workspace: <workspace>"),
            User("works. CI is red too though"),
            Bash("gh run view --log-failed", out=CI_TZ_FAIL, ok=False),
            # source: rygwdn/slack-tools commit 00928df "Fix date formatting tests to be
            # timezone-independent"
            Say("The formatters tests are failing in CI due to timezone differences: the runner "
                "is UTC, so the same timestamp lands on Jan 1 instead of Dec 31. I'll make the "
                "test use regex pattern matching for the heading format instead of exact date "
                "strings.", states="tz-tests"),
            Edit("test/unit/commands/my_messages/formatters.test.ts",
                 "    expect(dateHeading('1609459200')).toContain('# Thu Dec 31 2020');\n",
                 "    expect(dateHeading('1609459200')).toMatch("
                 "/^# [A-Z][a-z]{2} [A-Z][a-z]{2} \\d{1,2} \\d{4}/);\n"),
            # source: rygwdn/slack-tools commits be78137 and b8e6137 "Add keytar mock for CI"
            User("once that's green you'll hit keytar next: the runner has no libsecret. add a "
                 "keytar mock for the CI environment in test/mocks/keytar.ts and alias it in "
                 "vitest.config.ts."),
            Write("test/mocks/keytar.ts",
                  "const store = new Map<string, string>();\n\nexport default {\n"
                  "  getPassword: async (service: string, account: string) =>\n"
                  "    store.get(`${service}:${account}`) ?? null,\n"
                  "  setPassword: async (service: string, account: string, password: string) "
                  "=> {\n    store.set(`${service}:${account}`, password);\n  },\n};\n"),
            Edit("vitest.config.ts", "    include: ['test/**/*.test.ts'],\n",
                 "    include: ['test/**/*.test.ts'],\n"
                 "    alias: { keytar: new URL('./test/mocks/keytar.ts', import.meta.url)"
                 ".pathname },\n"),
            Probe("next: a `reminders` command that lists my open reminders",
                  needs="register-named"),
            Write("src/commands/reminders.ts",
                  "import type { Command } from 'commander';\n"
                  "import type { CommandContext } from '../context.js';\n\n"
                  "export function registerRemindersCommand(program: Command, context: "
                  "CommandContext): void {\n"
                  "  program.command('reminders').description('List open reminders')"
                  ".action(async () => {\n    context.debugLog('Listing reminders');\n  });\n}\n"),
            Edit("src/commands/register-commands.ts",
                 "  registerTodayCommand(program, context);\n",
                 "  registerTodayCommand(program, context);\n"
                 "  registerRemindersCommand(program, context);\n"),
            Edit("src/commands/register-commands.ts",
                 "import { registerTodayCommand } from './today.js';\n",
                 "import { registerTodayCommand } from './today.js';\n"
                 "import { registerRemindersCommand } from './reminders.js';\n"),
            Commit("Fix stdout logging for MCP, timezone-independent tests, add reminders"),
        )),
        Session(day=12, events=(
            # source: rygwdn/slack-tools commits c1fd1eb "switch back to npm" and 9aa690e
            # "Refactor CI workflow to use npm instead of pnpm"
            User("ok, the pnpm experiment is over: switch back to npm. package-lock.json is "
                 "back, pnpm-lock.yaml is gone. CI should use npm instead of pnpm, with the npm "
                 "cache.", states="pm-npm", replaces="pm-pnpm"),
            Edit(".github/workflows/ci.yml",
                 "          cache: pnpm\n      - uses: pnpm/action-setup@v4\n"
                 "      - run: pnpm install --frozen-lockfile\n      - run: pnpm run lint\n"
                 "      - run: pnpm test\n",
                 "          cache: npm\n      - run: npm ci\n      - run: npm run lint\n"
                 "      - run: npm test\n"),
            Probe("the search tool needs some debug output around the rate-limit retries, I "
                  "can't tell what it's doing", needs="stderr-logging"),
            Edit("src/slack-api.ts",
                 "  const result = await client.search.messages({ query, count: 100 });\n",
                 "  context.debugLog('Searching messages', query);\n"
                 "  const result = await client.search.messages({ query, count: 100 });\n"),
            Commit("Refactor CI workflow to use npm instead of pnpm"),
        )),
        Session(day=16, events=(
            # source: rygwdn/slack-tools CLAUDE.md (commits 40a98a5 and 70562e7)
            User("I added a parallel check command: `npm run check` runs lint, format check, "
                 "typecheck, audit, tests, and build. Always run quality checks (`npm run "
                 "check`) before considering a task complete.",
                 states="quality-v2", replaces="quality-v1"),
            Edit("package.json", '    "test": "vitest run"\n',
                 '    "test": "vitest run",\n    "typecheck": "tsc --noEmit --skipLibCheck",\n'
                 '    "audit": "npm audit --production",\n'
                 '    "check": "npm-run-all --parallel lint format:check typecheck audit '
                 '--serial test build"\n'),
            # source: rygwdn/slack-tools CLAUDE.md (commit 73ef619 "specify comment policy")
            User("also, comments: do not add comments to code unless absolutely necessary for "
                 "clarity.", states="no-comments"),
            User("and for this release only skip the CHANGELOG entry, I'll write that one "
                 "myself."),
            Probe("add a test that messages just before and after midnight end up under two "
                  "separate date headings", needs="tz-tests"),
            Edit("test/unit/commands/my_messages/formatters.test.ts",
                 "describe('My Messages Formatters', () => {\n",
                 "describe('My Messages Formatters', () => {\n"
                 "  it('splits messages across midnight into two headings', () => {\n"
                 "    const headings = [dateHeading('1609459100'), dateHeading('1609545700')];\n"
                 "    for (const h of headings) expect(h).toMatch(/^# [A-Z][a-z]{2} /);\n"
                 "    expect(headings[0]).not.toBe(headings[1]);\n  });\n\n"),
            Bash("npm run check", out=NPM_CHECK_OK),
            Commit("Improve documentation and add parallel check command"),
        ), judge={"quality-v2": "not_down"}),
        Session(day=19, events=(
            Probe("I added zod as a dependency on my branch, install it and make sure "
                  "everything still passes", needs=("pm-npm", "quality-v2")),
            Bash("npm install && npm run check",
                 out="added 1 package, and audited 412 packages in 3s\n\n" + NPM_CHECK_OK),
            Probe("can you try setting my status to 'lunch' to see that the status command "
                  "works end to end?", needs="no-mutate"),
            Say("That one changes your Slack status, so I won't run it on my own. Shall I run "
                "`slack-tools status \"lunch\"` now?"),
            Probe("one more: an `unread` command that lists channels with unread messages",
                  needs=("register-named", "no-comments")),
        ), judge={"quality-v2": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 3. club-cms: SvelteKit 2 + Svelte 5 + Drizzle on bun, run under devenv
# ---------------------------------------------------------------------------------------------

CMS = Project("club-cms", "typescript", {
    "package.json": (
        '{\n  "name": "club-cms",\n  "private": true,\n  "type": "module",\n'
        '  "scripts": {\n    "dev": "bun --env-file=.env vite dev",\n'
        '    "build": "bun --env-file=.env vite build",\n    "test-check": "bun test",\n'
        '    "type-check": "svelte-kit sync && svelte-check --tsconfig ./tsconfig.json",\n'
        '    "lint-check": "eslint .",\n    "format-check": "prettier --check .",\n'
        '    "check": "bun type-check && bun test-check && bun lint-check && bun format-check",\n'
        '    "fix": "eslint . --fix && prettier --write .",\n'
        '    "tidy": "bun type-check && bun test-check && eslint . --fix --quiet && '
        'prettier --write . --log-level silent",\n'
        '    "up": "devenv processes up -d",\n    "down": "devenv processes down",\n'
        '    "logs": "tail -f ./.devenv/processes.log"\n  },\n'
        '  "devDependencies": {\n    "@sveltejs/kit": "^2.49.1",\n    "svelte": "^5.45.0",\n'
        '    "drizzle-orm": "^0.45.0",\n    "drizzle-kit": "^0.31.8",\n'
        '    "chart.js": "^4.5.1"\n  }\n}\n'
    ),
    "src/lib/shared/db/db.server.ts": (
        'import { createClient } from "@libsql/client";\n'
        'import { drizzle } from "drizzle-orm/libsql";\nimport * as schema from "./schema";\n\n'
        "export const db = drizzle(createClient({ url: process.env.DATABASE_URL ?? "
        '"file:local.db" }), { schema });\n'
    ),
    "src/lib/shared/db/schema.ts": (
        'import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";\n\n'
        'export const members = sqliteTable("members", {\n  id: text("id").primaryKey(),\n'
        '  name: text("name").notNull(),\n  role: text("role").notNull(),\n});\n\n'
        'export const articles = sqliteTable("articles", {\n  id: text("id").primaryKey(),\n'
        '  slug: text("slug").notNull().unique(),\n  title: text("title").notNull(),\n'
        '  views: integer("views").notNull().default(0),\n});\n'
    ),
    "src/lib/server/data/members.ts": (
        'import { db } from "$lib/shared/db/db.server";\n'
        'import { members } from "$lib/shared/db/schema";\n\n'
        "export async function listMembers() {\n"
        "  return db.select().from(members).orderBy(members.name);\n}\n"
    ),
    "src/lib/shared/logic/slug.ts": (
        "export function slugify(title: string): string {\n  return title\n    .toLowerCase()\n"
        '    .replace(/[^a-z0-9]+/g, "-")\n    .replace(/^-|-$/g, "");\n}\n'
    ),
    "src/lib/shared/logic/slug.test.ts": (
        'import { expect, test } from "bun:test";\nimport { slugify } from "./slug";\n\n'
        'test("slugify", () => {\n  expect(slugify("Hello, World!")).toBe("hello-world");\n'
        "});\n"
    ),
    "src/routes/articles/[slug]/+page.server.ts": (
        'import { getArticle, recordView } from "$lib/data/articles.server";\n\n'
        "export async function load({ params }) {\n"
        "  const article = await getArticle(params.slug);\n  recordView(article.id);\n"
        "  return { article };\n}\n"
    ),
    "src/routes/articles/[slug]/+page.svelte": (
        '<script lang="ts">\n  import { getRelated } from "$lib/data/articles.remote";\n\n'
        "  let { data } = $props();\n"
        "  const related = $derived(await getRelated(data.article.id));\n</script>\n\n"
        "<h1>{data.article.title}</h1>\n{#each related as item}<a href={item.slug}>"
        "{item.title}</a>{/each}\n"
    ),
    "src/lib/components/analytics/ViewTrendChart.svelte": (
        '<script lang="ts">\n  import { onMount } from "svelte";\n'
        '  import { Chart, LineController, LineElement, PointElement, LinearScale,\n'
        '    CategoryScale } from "chart.js";\n\n'
        "  let { points }: { points: { day: string; views: number }[] } = $props();\n"
        "  let canvas: HTMLCanvasElement;\n\n"
        "  Chart.register(LineController, LineElement, PointElement, LinearScale, "
        "CategoryScale);\n\n  onMount(() => {\n"
        '    new Chart(canvas, { type: "line", data: { labels: points.map((p) => p.day),\n'
        "      datasets: [{ data: points.map((p) => p.views) }] } });\n  });\n</script>\n\n"
        "<canvas bind:this={canvas}></canvas>\n"
    ),
})

SVELTE_CHECK_OK = (
    "$ bun type-check && bun test-check && eslint . --fix --quiet && prettier --write . "
    "--log-level silent\n$ svelte-kit sync && svelte-check --tsconfig ./tsconfig.json\n"
    "Loading svelte-check in workspace: /home/dev/club-cms\nGetting Svelte diagnostics...\n\n"
    "svelte-check found 0 errors and 0 warnings\n$ bun test\nbun test v1.2.21\n\n"
    "src/lib/shared/logic/slug.test.ts:\n(pass) slugify [0.31ms]\n\n 1 pass\n 0 fail\n"
    " 1 expect() calls\nRan 1 test across 1 file. [41.00ms]"
)
BUN_BUILD_FAIL = (
    "error: Missing entrypoints. What would you like to bundle?\n\nUsage:\n"
    "  $ bun build <entrypoint> [...<entrypoints>] [...flags]\n\n"
    "To see full documentation:\n  $ bun build --help"
)
VITE_BUILD_OK = (
    "$ bun --env-file=.env vite build\nvite v7.2.4 building SSR bundle for production...\n"
    "✓ 412 modules transformed.\n.svelte-kit/output/server/index.js  118.42 kB\n"
    "✓ built in 6.81s\n\nRun npm run preview to preview your production build locally.\n\n"
    "> Using @sveltejs/adapter-auto\n  ✔ done"
)

CMS_STORY = Story(
    id="ho-ts-svelte-cms",
    title="SvelteKit + Drizzle CMS on bun: data layer reorganised around remote functions, "
          "bun run vs bun <builtin>, fire-and-forget and $derived(await) gotchas, logs script "
          "renamed",
    project=CMS,
    sources=("ut-code/cms.utcode.net",),
    lessons=(
        lesson("tidy", "command",
               "When done (before commit) run `bun tidy`; it must return 0 warnings and errors",
               "bun tidy"),
        lesson("dal-v1", "convention",
               "Always import data access from `$lib/server/data/*`, never use the db/drizzle "
               "client directly",
               "$lib/server/data"),
        lesson("dal-v2", "convention",
               "Data layer: Component → *.remote.ts (DAL: auth guard via getRequestEvent(), "
               "exports query/command/form) → *.server.ts (pure DB queries, no auth)",
               "remote.ts", "server.ts"),
        lesson("bun-run", "gotcha",
               "`bun <script>` is not always `bun run <script>`: `bun test` / `bun build` run "
               "bun's built-ins. Always use `bun run build` / `bun run test` for package scripts",
               "bun run", "bun test|bun build"),
        lesson("no-fire-forget", "gotcha",
               "Never fire and forget a promise: an unhandled rejection crashes the whole "
               "server; attach `.catch(console.error)` when dispatching background work",
               "fire and forget|fire-and-forget", "catch"),
        lesson("derived-await", "gotcha",
               "Never use `$derived(await ...)` in Svelte 5 (infinite loops, memory leaks): use "
               "top-level await, and $derived without await for reactive values",
               "$derived", "await"),
        lesson("logs-v1", "command",
               "Local dev server logs (devenv process compose): `bun logs` tails "
               ".devenv/processes.log",
               "bun logs"),
        lesson("logs-v2", "command",
               "Local devenv logs: `bun tail` (renamed from bun logs) tails "
               ".devenv/processes.log",
               "bun tail"),
        lesson("no-prod-logs", "fact",
               "There is no access to production logs from here (bun tail is local only); ask "
               "the user to check prod logs and paste the output",
               "production|prod", "logs"),
        lesson("chartjs-ssr", "gotcha",
               "Chart.js needs browser APIs and breaks SSR (blank page) when imported at module "
               "level: import it dynamically inside onMount",
               "chart.js|chartjs", "onMount|dynamic"),
    ),
    also=(
        # session 4, user: "log the issue to .claude/troubleshooting/ ... Keywords, Symptom ..."
        lesson("also-troubleshooting", "convention",
               "After fixing a non-obvious bug, write it up in .claude/troubleshooting/ with "
               "Keywords, Symptom, Cause, Solution",
               "troubleshooting", "Symptom|Keywords"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: ut-code/cms.utcode.net CLAUDE.md (commits f7f725e, 7461f93, 5d1494c)
            User("hey! two rules for this repo. data: always import from `$lib/server/data/*` "
                 "instead of using bare db/drizzle logic, don't use db directly. and run "
                 "`bun tidy` after you finish your work, i.e. before commit; it must return 0 "
                 "warnings and errors.", states=("dal-v1", "tidy")),
            User("first task: an admin page listing members with their role"),
            Read("src/lib/server/data/members.ts"),
            Write("src/routes/admin/members/+page.server.ts",
                  'import { listMembers } from "$lib/server/data/members";\n\n'
                  "export async function load() {\n  return { members: await listMembers() };\n"
                  "}\n"),
            Write("src/routes/admin/members/+page.svelte",
                  '<script lang="ts">\n  let { data } = $props();\n</script>\n\n'
                  "<ul>\n  {#each data.members as m}<li>{m.name} ({m.role})</li>{/each}\n"
                  "</ul>\n"),
            Bash("bun tidy", out=SVELTE_CHECK_OK),
            Commit("admin: add members list page"),
        ), judge={"tidy": "not_down"}),
        Session(day=1, events=(
            # source: ut-code/cms.utcode.net CLAUDE.md (commit 6622cff "add remote functions and
            # DAL documentation")
            User("I'm reorganising the data layer around remote functions. It's now: "
                 "Component → *.remote.ts (DAL) → *.server.ts (DB). The DAL (`*.remote.ts`) "
                 "does the auth guard via `getRequestEvent()` and exports `query`/`command`/"
                 "`form`; the DB files (`*.server.ts`) are pure DB queries, no auth. can you "
                 "move members over?", states="dal-v2", replaces="dal-v1"),
            Write("src/lib/data/members.server.ts",
                  'import { db } from "$lib/shared/db/db.server";\n'
                  'import { members } from "$lib/shared/db/schema";\n\n'
                  "export async function listMembers() {\n"
                  "  return db.select().from(members).orderBy(members.name);\n}\n"),
            Write("src/lib/data/members.remote.ts",
                  'import { query } from "$app/server";\n'
                  'import { requireAuth } from "$lib/server/auth";\n'
                  'import { listMembers } from "./members.server";\n\n'
                  "export const getMembers = query(async () => {\n  await requireAuth();\n"
                  "  return listMembers();\n});\n"),
            Write("src/routes/admin/members/+page.svelte",
                  '<script lang="ts">\n'
                  '  import { getMembers } from "$lib/data/members.remote";\n'
                  "  const members = await getMembers();\n</script>\n\n"
                  "<ul>\n  {#each members as m}<li>{m.name} ({m.role})</li>{/each}\n</ul>\n"),
            Bash("bun build", out=BUN_BUILD_FAIL, ok=False),
            Say("`bun build` ran bun's own bundler instead of our package.json `build` script "
                "(vite build). Running the script explicitly."),
            Bash("bun run build", out=VITE_BUILD_OK),
            # source: ut-code/cms.utcode.net CLAUDE.md (commit 2aee7dc "Bun Commands")
            User("yep, that one bites. IMPORTANT: `bun <script>` and `bun run <script>` are "
                 "sometimes different. `bun test` runs bun's built-in test runner directly, "
                 "`bun run test` runs the `test` script from package.json. Always use "
                 "`bun run <script>` to run `build` or `test`.", states="bun-run"),
            Commit("treewide: move members to remote functions"),
        )),
        Session(day=9, events=(
            # source: ut-code/cms.utcode.net CLAUDE.md (commit 7461f93 "Devenv")
            User("the dev server died while I was clicking around articles. I use devenv's "
                 "process compose to manage processes; `bun logs` tails .devenv/processes.log.",
                 states="logs-v1"),
            Bash("timeout 5 bun logs",
                 out="[dev] GET /articles/welcome 200 in 41ms\n"
                     "[dev] error: Unhandled promise rejection: LibsqlError: SQLITE_BUSY: "
                     "database is locked\n"
                     "[dev]     at recordView (src/lib/data/articles.server.ts:41:9)\n"
                     "[dev] process exited with code 1", ok=False, exit=124),
            Read("src/routes/articles/[slug]/+page.server.ts"),
            Say("`recordView(article.id)` is called without await or catch; when the write "
                "fails the rejection is unhandled and takes the whole process down."),
            # source: ut-code/cms.utcode.net CLAUDE.md (commit 7461f93 "Coding Rules")
            User("right. never just \"fire and forget\", it crashes the entire server. instead, "
                 "catch `.catch(console.error)` then forget, if you want to dispatch the job.",
                 states="no-fire-forget"),
            Edit("src/routes/articles/[slug]/+page.server.ts", "  recordView(article.id);\n",
                 "  recordView(article.id).catch(console.error);\n"),
            Probe("while you're at it: admins need a delete button on the members page",
                  needs="dal-v2"),
            Edit("src/lib/data/members.remote.ts",
                 'import { query } from "$app/server";\n',
                 'import { command, query } from "$app/server";\nimport * as v from "valibot";\n'),
            Edit("src/lib/data/members.remote.ts",
                 "  return listMembers();\n});\n",
                 "  return listMembers();\n});\n\n"
                 "export const deleteMember = command(v.string(), async (id) => {\n"
                 "  await requireAuth();\n  return removeMember(id);\n});\n"),
            Bash("bun tidy", out=SVELTE_CHECK_OK),
            Commit("articles: catch view tracking errors; admin: delete members"),
        ), judge={"logs-v1": "not_down", "tidy": "not_down"}),
        Session(day=12, events=(
            User("the article page gets slower the longer it stays open and the tab's memory "
                 "keeps climbing"),
            Read("src/routes/articles/[slug]/+page.svelte"),
            # source: ut-code/cms.utcode.net CLAUDE.md (commit e2ca21d "Coding Rules")
            User("I bet it's the related-articles line. NEVER use `$derived(await ...)` in "
                 "Svelte 5. This causes infinite loops and memory leaks. Use top-level `await` "
                 "instead; for reactive dependencies, use `$derived` without await.",
                 states="derived-await"),
            Edit("src/routes/articles/[slug]/+page.svelte",
                 "  const related = $derived(await getRelated(data.article.id));\n",
                 "  const related = await getRelated(data.article.id);\n"),
            Probe("build it to be sure the SSR bundle is still fine", needs="bun-run"),
            Bash("bun run build", out=VITE_BUILD_OK),
            Commit("articles: load related articles with top-level await"),
        ), judge={"bun-run": "not_down"}),
        Session(day=31, events=(
            User("the new views trend chart on the dashboard just renders a blank page"),
            Bash("timeout 5 bun logs",
                 out="[dev] Error when evaluating SSR module "
                     "/src/lib/components/analytics/ViewTrendChart.svelte:\n"
                     "[dev] ReferenceError: window is not defined\n"
                     "[dev]     at node_modules/chart.js/dist/chart.js:2419:19\n"
                     "[dev] GET /admin 500 in 12ms", ok=False, exit=124),
            # source: ut-code/cms.utcode.net commit b3713df "dynamically import chart.js to avoid
            # SSR failure" and .claude/troubleshooting/chartjs-ssr-failure.md
            Say("Chart.js requires browser APIs (`window`, `canvas`) and fails when it is "
                "imported at module level during SSR, so the page renders nothing. I'll import "
                "it dynamically inside `onMount`.", states="chartjs-ssr"),
            Edit("src/lib/components/analytics/ViewTrendChart.svelte",
                 '  import { Chart, LineController, LineElement, PointElement, LinearScale,\n'
                 '    CategoryScale } from "chart.js";\n',
                 '  import type { Chart as ChartType } from "chart.js";\n'),
            Edit("src/lib/components/analytics/ViewTrendChart.svelte",
                 "  Chart.register(LineController, LineElement, PointElement, LinearScale, "
                 "CategoryScale);\n\n  onMount(() => {\n",
                 "  let chart: ChartType | null = null;\n\n  onMount(async () => {\n"
                 "    const { Chart, LineController, LineElement, PointElement, LinearScale,\n"
                 '      CategoryScale } = await import("chart.js");\n'
                 "    Chart.register(LineController, LineElement, PointElement, LinearScale,\n"
                 "      CategoryScale);\n"),
            Edit("src/lib/components/analytics/ViewTrendChart.svelte",
                 "    new Chart(canvas,", "    chart = new Chart(canvas,"),
            # source: ut-code/cms.utcode.net CLAUDE.md (commit b3713df "Troubleshooting")
            User("good. when fixing non-obvious bugs like this, log the issue to "
                 ".claude/troubleshooting/ for future reference: Keywords (symptom-focused), "
                 "Symptom, Cause, Solution."),
            Write(".claude/troubleshooting/chartjs-ssr-failure.md",
                  "# Chart.js SSR Failure\n\n**Keywords**: chart.js, blank page, white screen\n\n"
                  "**Symptom**: Page using Chart.js renders blank.\n\n**Cause**: Chart.js needs "
                  "browser APIs and fails when imported at module level during SSR.\n\n"
                  "**Solution**: import chart.js dynamically inside onMount.\n"),
            Probe("when an article is opened, also ping the search indexer to refresh it; the "
                  "page shouldn't wait for that", needs="no-fire-forget"),
            Edit("src/routes/articles/[slug]/+page.server.ts",
                 "  recordView(article.id).catch(console.error);\n",
                 "  recordView(article.id).catch(console.error);\n"
                 "  refreshSearchIndex(article.id).catch(console.error);\n"),
            Probe("the dashboard should show the member count next to the chart; load it in "
                  "the component itself", needs="derived-await"),
            Commit("fix: dynamically import chart.js to avoid SSR failure"),
        )),
        Session(day=63, events=(
            # source: ut-code/cms.utcode.net commit b639270 "scripts: rename bun logs -> bun tail"
            User("scripts: rename bun logs -> bun tail. can you do it in package.json?",
                 states="logs-v2", replaces="logs-v1"),
            Edit("package.json", '    "logs": "tail -f ./.devenv/processes.log"\n',
                 '    "tail": "tail -f ./.devenv/processes.log"\n'),
            # source: ut-code/cms.utcode.net CLAUDE.md (commit c67d129 "clarify local vs
            # production log access")
            User("and to be clear: `bun tail` tails LOCAL devenv logs only, not production. "
                 "You have NO access to production logs. When you need to check prod logs, ask "
                 "me to check and copy-paste the relevant output.", states="no-prod-logs"),
            Commit("scripts: rename bun logs -> bun tail"),
        )),
        Session(day=66, events=(
            Probe("the dev server is throwing 500s on /articles/hello-world, what's going on?",
                  needs="logs-v2"),
            Bash("timeout 5 bun tail",
                 out="[dev] GET /articles/hello-world 500 in 18ms\n"
                     "[dev] Error: article not found: hello-world\n"
                     "[dev]     at getArticle (src/lib/data/articles.server.ts:12:11)",
                 ok=False, exit=124),
            Probe("prod shows the same 500 on that page, can you confirm what the prod logs "
                  "say?", needs="no-prod-logs"),
            Say("I can't see production logs from here. Could you check them and paste the "
                "lines around the 500 for /articles/hello-world?"),
            Probe("add a small chart of weekly signups to the members admin page",
                  needs="chartjs-ssr"),
            Probe("ok, wrap it up so I can commit", needs="tidy"),
            Bash("bun tidy", out=SVELTE_CHECK_OK),
        ), judge={"logs-v2": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 4. schema-kit: a TypeScript schema validation library in a pnpm workspace (vitest, biome)
# ---------------------------------------------------------------------------------------------

SCHEMA = Project("schema-kit", "typescript", {
    "package.json": (
        '{\n  "name": "schema-kit-monorepo",\n  "private": true,\n  "type": "module",\n'
        '  "packageManager": "pnpm@10.12.1",\n  "scripts": {\n'
        '    "build": "pnpm -r build",\n    "test": "vitest run",\n'
        '    "test:watch": "vitest",\n    "dev": "tsx --conditions @schema-kit/source",\n'
        '    "lint": "biome lint --write .",\n    "format": "biome format --write .",\n'
        '    "fix": "pnpm format && pnpm lint"\n  }\n}\n'
    ),
    "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
    "packages/core/package.json": (
        '{\n  "name": "schema-kit",\n  "version": "4.1.3",\n  "type": "module",\n'
        '  "exports": { ".": "./src/index.ts" }\n}\n'
    ),
    "packages/core/src/regexes.ts": (
        "export const date = /^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$/;\n"
        "export const datetime =\n"
        "  /^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$/;\n"
    ),
    "packages/core/src/record.ts": (
        'import type { $ZodType, ParsePayload } from "./core.js";\n\n'
        "export function parseRecord(payload: ParsePayload, keyType: $ZodType, "
        "valueType: $ZodType) {\n"
        "  // walk the enum keys first so that missing keys\n"
        "  // are reported before any value issues\n"
        "  for (const key of keyType._zod.values ?? []) {\n"
        "    if (!(key in payload.value)) {\n"
        '      payload.issues.push({ code: "invalid_key", path: [], input: key });\n'
        "    }\n  }\n  return payload;\n}\n"
    ),
    "packages/core/src/map.ts": (
        'import type { $ZodType, ParsePayload } from "./core.js";\n\n'
        "export function parseMap(payload: ParsePayload, keyType: $ZodType, "
        "valueType: $ZodType) {\n"
        "  for (const [key, value] of payload.value as Map<unknown, unknown>) {\n"
        "    valueType._zod.run({ value, issues: payload.issues }, { key });\n  }\n"
        "  return payload;\n}\n"
    ),
    "packages/core/src/tests/record.test.ts": (
        'import { expect, test } from "vitest";\nimport * as z from "../index.js";\n\n'
        'test("missing enum key is reported at its path", () => {\n'
        '  const schema = z.record(z.enum(["a", "b"]), z.string());\n'
        '  const result = schema.safeParse({ a: "x" });\n'
        '  expect(result.error?.issues[0]?.path).toEqual(["b"]);\n});\n'
    ),
    "packages/core/README.md": "# schema-kit\n\nTypeScript-first schema validation.\n",
    "biome.json": (
        '{\n  "formatter": { "lineWidth": 120 },\n  "linter": {\n    "rules": {\n'
        '      "suspicious": { "noExplicitAny": "off" },\n'
        '      "style": { "noParameterAssign": "off", "noNonNullAssertion": "off" }\n'
        "    }\n  }\n}\n"
    ),
})

VITEST_RECORD_FAIL = (
    " RUN  v3.2.4 /repo\n\n"
    "stdout | packages/core/src/tests/record.test.ts > missing enum key is reported at its path\n"
    "record key b missing { a: 'x' }\n\n"
    " ❯ packages/core/src/tests/record.test.ts (1 test | 1 failed) 9ms\n"
    "   × missing enum key is reported at its path 7ms\n"
    "     → expected [] to deeply equal [ 'b' ]\n\n"
    " Test Files  1 failed | 211 passed (212)\n      Tests  1 failed | 3482 passed (3483)\n"
    "   Duration  21.37s"
)
VITEST_LIB_PASS = (
    " RUN  v3.2.4 /repo\n\n Test Files  212 passed (212)\n"
    "      Tests  3483 passed (3483)\n Type Errors  no errors\n   Duration  20.94s"
)

SCHEMA_STORY = Story(
    id="ho-ts-schema-lib-maintainer",
    title="Maintaining a schema validation library: test command moves to pnpm vitest run, "
          "comment tone reversed on exclamation points, no schema-type branching, push and "
          "release footguns",
    project=SCHEMA,
    sources=("colinhacks/zod",),
    lessons=(
        lesson("test-v1", "command", "Run all tests with `pnpm test` (Vitest)", "pnpm test"),
        lesson("test-v2", "command",
               "Tests: `pnpm vitest run` (all), `pnpm vitest run <path>` (one file), "
               "`pnpm vitest run <path> -t \"<pattern>\"` (some tests), `--update` for snapshots",
               "pnpm vitest run"),
        lesson("no-console", "convention",
               "No log statements (console.log, debugger) in tests or production code",
               "console.log|debugger"),
        lesson("no-type-branch", "convention",
               "Never branch on specific schema types in shared code (no def.type === "
               "\"optional\"): express it as a structural property on the internals "
               "(optin/optout, values, pattern) that each type declares",
               "def.type|schema types", "optin|optout|structural"),
        lesson("tone-v1", "preference",
               "Comments posted via gh on the maintainer's behalf: direct and terse; no "
               "exclamation points (they read as bubbly), no filler praise",
               "exclamation", "No exclamation|bubbly"),
        lesson("tone-v2", "preference",
               "Comments via gh: exclamation points are fine in moderation, e.g. to soften a "
               "decline or close a thread; don't stack them or use them in technical writeups",
               "exclamation", "moderation"),
        lesson("push-refspec", "gotcha",
               "A branch made with `-b <branch> origin/main` tracks main, so `git push -u origin "
               "<branch>` pushes to main. First push with an explicit refspec "
               "`git push -u origin <branch>:refs/heads/<branch>` and check for [new branch]",
               "refs/heads", "push"),
        lesson("no-bump", "convention",
               "Never bump the version in a package.json: a version bump is what triggers a "
               "release; ask first",
               "version", "bump"),
        lesson("narrow-formats", "decision",
               "Format validators are deliberately narrower than their specs: \"the spec allows "
               "X\" is not a reason to widen a regex (expanded ISO years declined); point users "
               "at .regex() / .refine()",
               "spec", "regex|refine|narrower"),
        lesson("stacked-comments", "command",
               "Never stack prose over consecutive // lines; write one long //. "
               "`pnpm check:comments` enforces it (`--fix` joins them)",
               "check:comments"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: colinhacks/zod CLAUDE.md (commit 019c370f7, "Development Commands")
            User("context first: the project uses pnpm workspaces. `pnpm build` builds all "
                 "packages, `pnpm test` runs all tests with Vitest, `pnpm fix` runs format and "
                 "lint. Today: records with an enum key schema report the wrong path for a "
                 "missing key, can you fix it?", states="test-v1"),
            Read("packages/core/src/record.ts"),
            Edit("packages/core/src/record.ts", "    if (!(key in payload.value)) {\n",
                 "    if (!(key in payload.value)) {\n"
                 "      console.log(\"record key\", key, \"missing\", payload.value);\n"),
            Bash("pnpm test", out=VITEST_RECORD_FAIL, ok=False),
            Say("The issue is pushed with `path: []`; it should carry the key."),
            # source: colinhacks/zod AGENTS.md (commit 3d93a7d59, "Rules")
            User("fine, but pull that console.log out before anything else. no log statements "
                 "(`console.log`, `debugger`) in tests or production code.",
                 states="no-console"),
            Edit("packages/core/src/record.ts",
                 "      console.log(\"record key\", key, \"missing\", payload.value);\n", ""),
            Edit("packages/core/src/record.ts", "path: [], input: key", "path: [key], input: key"),
            Bash("pnpm test", out=VITEST_LIB_PASS),
            User("commit it"),
            Commit("fix(v4): report missing record keys at their path"),
        ), judge={"test-v1": "not_down"}),
        Session(day=5, events=(
            User("next: `z.record(z.string(), z.string().optional())` should let a key be "
                 "omitted when its value is undefined"),
            Edit("packages/core/src/record.ts", "  return payload;\n}\n",
                 '  if (valueType._zod.def.type === "optional") {\n'
                 "    payload.value = Object.fromEntries(\n"
                 "      Object.entries(payload.value).filter(([, v]) => v !== undefined));\n"
                 "  }\n  return payload;\n}\n"),
            # source: colinhacks/zod AGENTS.md (commit 92f47984b, "Never branch on specific
            # schema types")
            User("no. never branch on specific schema types in shared code. no `def.type === "
                 "\"optional\"` conditionals, no hardcoded lists of wrapper type names; every "
                 "schema type added later silently falls through such a check. when a shared "
                 "path needs to know something about a schema, express it as a structural "
                 "property on the internals (`optin`/`optout`, `values`, `pattern`) and let each "
                 "type declare its own answer.", states="no-type-branch"),
            Edit("packages/core/src/record.ts", 'valueType._zod.def.type === "optional"',
                 'valueType._zod.optout === "optional"'),
            Bash("pnpm test", out=VITEST_LIB_PASS),
            User("better. commit"),
            Commit("fix(v4): allow omitted keys for optional record values"),
        )),
        Session(day=30, events=(
            # source: colinhacks/zod AGENTS.md (commit 3d93a7d59, "Development Commands")
            User("fyi the test commands changed when I moved the guide to AGENTS.md: "
                 "`pnpm vitest run` runs all tests, `pnpm vitest run <path>` a specific file, "
                 "`pnpm vitest run <path> -t \"<pattern>\"` specific tests within a file, and "
                 "`pnpm vitest run --update` updates snapshots.",
                 states="test-v2", replaces="test-v1"),
            Probe("maps with optional values have the same omitted-key problem; make them "
                  "behave like records", needs="no-type-branch"),
            Edit("packages/core/src/map.ts",
                 "  for (const [key, value] of payload.value as Map<unknown, unknown>) {\n",
                 "  for (const [key, value] of payload.value as Map<unknown, unknown>) {\n"
                 '    if (value === undefined && valueType._zod.optout === "optional") '
                 "continue;\n"),
            User("run just the map tests"),
            Bash("pnpm vitest run packages/core/src/tests/map.test.ts",
                 out=" RUN  v3.2.4 /repo\n\n ✓ packages/core/src/tests/map.test.ts (14 tests) "
                     "18ms\n\n Test Files  1 passed (1)\n      Tests  14 passed (14)"),
            Commit("fix(v4): skip undefined optional map values"),
        ), judge={"test-v2": "not_down"}),
        Session(day=40, events=(
            # source: colinhacks/zod AGENTS.md (commit 45dd421e7, "Commenting on issues and PRs")
            User("can you post a reply on the contributor PR for the record fix via gh? say "
                 "we're merging with a follow-up that renames the option. when posting on my "
                 "behalf via `gh`, match the house tone: direct and a little terse, not "
                 "enthusiastic. No exclamation points. They read as bubbly. No filler praise: "
                 "skip \"Great work\", \"Awesome\", \"Nice catch\".", states="tone-v1"),
            Bash("gh pr comment 5901 --body-file .triage/prs/5901/comment.md",
                 out="https://github.com/<org>/schema-kit/pull/5901#issuecomment-2811430977"),
            Say("Posted: \"Thanks for the PR. I pushed a follow-up renaming `skipUndefined` to "
                "match the other options; merging.\""),
        )),
        Session(day=41, events=(
            User("new PR please, on a new branch off main: the README should mention optional "
                 "record values"),
            Edit("packages/core/README.md", "TypeScript-first schema validation.\n",
                 "TypeScript-first schema validation.\n\nOptional record values may be "
                 "omitted.\n"),
            Commit("docs: mention optional record values"),
            Bash("git worktree add ../wt/record-docs -b record-docs origin/main && "
                 "git push -u origin record-docs",
                 out="branch 'record-docs' set up to track 'origin/main'.\n"
                     "Preparing worktree (new branch 'record-docs')\n"
                     "To github.com:<org>/schema-kit.git\n"
                     "   3f2a1c9..8b7d0e4  record-docs -> main\n"),
            Say("That push went to `main`, not to a new branch: the right-hand side says "
                "`main`. I'll revert it on main right away."),
            # source: colinhacks/zod AGENTS.md (commit 6217527e4, "Pushing to a new branch")
            User("ugh, two of these in a row have happened. the footgun: `git worktree add "
                 "<path> -b <branch> origin/main` silently sets the new branch's upstream to "
                 "`refs/heads/main` because the start point is a remote-tracking ref. always "
                 "use a refspec on the initial push, `git push -u origin "
                 "<branch>:refs/heads/<branch>`, then verify you see `* [new branch]`.",
                 states="push-refspec"),
            Bash("git push -u origin record-docs:refs/heads/record-docs",
                 out="To github.com:<org>/schema-kit.git\n"
                     " * [new branch]      record-docs -> record-docs\n"
                     "branch 'record-docs' set up to track 'origin/record-docs'."),
            # source: colinhacks/zod AGENTS.md (commit 6217527e4, version-bump rule)
            User("and while we're on footguns: NEVER bump the version in "
                 "`packages/core/package.json` (or any package's `package.json`). A version "
                 "bump is the only thing that triggers a release; everything else, including "
                 "direct pushes to main, is recoverable until that happens. If a version bump "
                 "is genuinely needed, ask first.", states="no-bump"),
            Probe("post on the contributor's PR that it's merged with my tweak and thank them",
                  needs="tone-v1"),
        ), judge={"push-refspec": "not_down"}),
        Session(day=42, events=(
            # source: colinhacks/zod AGENTS.md (commit 41b25af98 "refine PR comment tone")
            User("I refined the comment tone guidance: the register is authoritative and "
                 "friendly. Exclamation points are fine in moderation, especially to soften a "
                 "decline or close out a thread (\"Thanks for looking into this!\"). Don't "
                 "stack them and don't sprinkle them through technical writeups.",
                 states="tone-v2", replaces="tone-v1"),
            # source: colinhacks/zod issue #6154
            User("new issue came in: \"`z.iso.datetime()` rejects extended-year ISO strings "
                 "produced by `Date#toISOString()` (e.g. year 10000+). "
                 "`+010000-01-01T00:00:00.000Z` fails with Invalid ISO datetime. ISO 8601 "
                 "permits an expanded year representation.\" what do you think?"),
            Say("They're right that ISO 8601 allows it. I could add a `[+-]\\d{6}` alternative "
                "to the year in `date` and `datetime` in regexes.ts."),
            # source: colinhacks/zod AGENTS.md (commit 17d1227ff "Format validators: spec
            # compliance is not the bar")
            User("no, we're declining it. our format validators are deliberately narrower than "
                 "the specs they're named after; \"the spec allows X, therefore we must accept "
                 "X\" is not an argument. expanded years are permitted only by mutual agreement "
                 "of the two parties, and widening breaks the JSON Schema output: "
                 "`format: \"date-time\"` means RFC 3339, four-digit years. point anyone who "
                 "genuinely needs a wider format at `z.string().regex()` or "
                 "`z.string().refine()`.", states="narrow-formats"),
            User("ok, reply on the issue and close it"),
            Bash("gh issue close 6154 --comment-file .triage/issues/6154/reply.md",
                 out="✓ Closed issue <org>/schema-kit#6154"),
        )),
        Session(day=110, events=(
            # source: colinhacks/zod AGENTS.md (commit 92f47984b "fail on stacked line comments")
            User("I added `pnpm check:comments`: it fails on stacked `//` comment lines and "
                 "`--fix` joins them. never stack prose across consecutive `//` lines; lines "
                 "have no maximum width here, so write one long `//` instead. it runs in "
                 "pre-commit and CI.", states="stacked-comments"),
            Bash("pnpm check:comments",
                 out="packages/core/src/record.ts:5 stacked // comment (2 lines)\n"
                     "1 offender. Run with --fix to join.", ok=False),
            Edit("packages/core/src/record.ts",
                 "  // walk the enum keys first so that missing keys\n"
                 "  // are reported before any value issues\n",
                 "  // walk the enum keys first so that missing keys are reported before any "
                 "value issues\n"),
            Probe("another one: someone wants week dates like 2020-W01-1 accepted by "
                  "z.iso.date(). reply and close it", needs=("narrow-formats", "tone-v2")),
            Probe("check the datetime tests still pass after the comment cleanup",
                  needs="test-v2"),
            Bash("pnpm vitest run packages/core/src/tests/datetime.test.ts",
                 out=" RUN  v3.2.4 /repo\n\n ✓ packages/core/src/tests/datetime.test.ts "
                     "(41 tests) 23ms\n\n Test Files  1 passed (1)\n      Tests  41 passed (41)"),
            Commit("chore: join stacked comments in record.ts"),
            Probe("push this as a new branch for a PR", needs="push-refspec"),
            Probe("we're ready for 4.2, get the release going", needs="no-bump"),
        ), judge={"stacked-comments": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 5. beeb-emu: a BBC Micro emulator in plain JavaScript (vitest, eslint, prettier, lint-staged)
# ---------------------------------------------------------------------------------------------

BEEB = Project("beeb-emu", "javascript", {
    "package.json": (
        '{\n  "name": "beeb-emu",\n  "type": "module",\n  "scripts": {\n'
        '    "start": "vite",\n    "build": "vite build",\n    "lint": "eslint .",\n'
        '    "lint-fix": "eslint . --fix",\n    "format": "prettier --write .",\n'
        '    "test": "npm run test:unit && npm run test:integration",\n'
        '    "test:unit": "vitest run tests/unit",\n'
        '    "test:integration": "vitest run tests/integration",\n'
        '    "test:coverage": "vitest run tests/unit --coverage",\n'
        '    "test:coverage:all": "vitest run --coverage"\n  },\n'
        '  "lint-staged": {\n    "*.js": ["eslint --cache --fix", "prettier --write"]\n  }\n}\n'
    ),
    "src/disc.js": (
        "export function loadHfe(data) {\n  const tracks = [];\n"
        "  for (let track = 0; track < data.trackCount; ++track) {\n"
        "    const pulses = data.readTrack(track);\n"
        "    if (pulses.length > 3132) throw new Error(\"Overflow in disc building\");\n"
        "    tracks.push(pulses);\n  }\n  return tracks;\n}\n"
    ),
    "src/video.js": (
        "export class Video {\n  constructor(fb) {\n    this.fb = fb;\n    this.charCount = 0;\n"
        "  }\n\n  blitFb(x, y, glyph) {\n    this.fb.draw(x, y, glyph);\n    this.charCount++;\n"
        "  }\n\n  endOfScanline() {\n    this.charCount = 0;\n  }\n\n"
        "  teletextRow(row) {\n    for (let col = 0; col < 40; ++col) this.blitFb(col, row, 0);\n"
        "    return row < 25;\n  }\n}\n"
    ),
    "src/acia.js": (
        "export class Acia {\n  constructor(scheduler) {\n    this.scheduler = scheduler;\n"
        "    this.status = 0;\n  }\n\n  snapshotState() {\n    return { status: this.status };\n"
        "  }\n\n  restoreState(state) {\n    this.status = state.status;\n  }\n}\n"
    ),
    "tests/unit/test-disc.js": (
        'import assert from "assert";\nimport { describe, it } from "vitest";\n'
        'import { loadHfe } from "../../src/disc.js";\n\n'
        'describe("loadHfe", () => {\n  it("loads every track", () => {\n'
        "    const data = { trackCount: 2, readTrack: () => [1, 2, 3] };\n"
        "    assert.equal(loadHfe(data).length, 2);\n  });\n});\n"
    ),
    "docs/snapshot-format.md": (
        "# Snapshot format (version 1)\n\n| component | fields |\n| --- | --- |\n"
        "| cpu | a, x, y, s, pc, p |\n| acia | status |\n"
    ),
    ".github/workflows/release-please.yml": (
        "name: release-please\non:\n  push:\n    branches: [main]\njobs:\n  release:\n"
        "    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: googleapis/release-please-action@v4\n        with:\n"
        "          token: ${{ secrets.GITHUB_TOKN }}\n"
    ),
    "eslint.config.js": (
        'import js from "@eslint/js";\nimport prettier from "eslint-config-prettier";\n\n'
        "export default [js.configs.recommended, prettier];\n"
    ),
})

VITEST_UNIT_PASS = (
    "> beeb-emu@1.0.0 test:unit\n> vitest run tests/unit\n\n RUN  v3.1.2 /home/dev/beeb-emu\n\n"
    " ✓ tests/unit/test-disc.js (6 tests) 14ms\n ✓ tests/unit/test-video.js (4 tests) 9ms\n"
    " ✓ tests/unit/test-6502.js (212 tests) 402ms\n\n Test Files  31 passed (31)\n"
    "      Tests  688 passed (688)\n   Duration  4.12s"
)
VITEST_MOCK_FAIL = (
    " RUN  v3.1.2 /home/dev/beeb-emu\n\n"
    " ❯ tests/unit/test-video.js (3 tests | 2 failed) 11ms\n"
    "   ✓ Video > blitFb draws once per character 3ms\n"
    "   × Video > endOfScanline resets the character counter 2ms\n"
    "     → expected undefined to be +0 // Object.is equality\n"
    "   × Video > teletextRow stops after the last row 1ms\n"
    "     → video.teletextRow is not a function\n\n"
    " Test Files  1 failed | 30 passed (31)\n      Tests  2 failed | 687 passed (689)"
)
COVERAGE_V1 = (
    "> beeb-emu@1.0.0 test:coverage\n> vitest run tests/unit --coverage\n\n"
    " Test Files  31 passed (31)\n      Tests  692 passed (692)\n\n"
    " % Coverage report from v8\n"
    "-----------|---------|----------|---------|---------|-------------------\n"
    "File       | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s\n"
    "-----------|---------|----------|---------|---------|-------------------\n"
    " video.js  |   71.42 |    66.66 |   80.00 |   71.42 | 19-21\n"
    " disc.js   |   92.30 |    87.50 |  100.00 |   92.30 | 7\n"
    "-----------|---------|----------|---------|---------|-------------------"
)
LINT_STAGED_FAIL = (
    "✔ Preparing lint-staged...\n❯ Running tasks for staged files...\n"
    "  ❯ package.json — 1 file\n    ❯ *.js — 1 file\n"
    "      ✖ eslint --cache --fix [FAILED]\n      ◼ prettier --write\n"
    "✖ eslint --cache --fix:\n\n/home/dev/beeb-emu/src/disc.js\n"
    "  4:9  error  'trackLength' is assigned a value but never used  no-unused-vars\n\n"
    "✖ 1 problem (1 error, 0 warnings)\n\nhusky - pre-commit script failed (code 1)"
)

BEEB_STORY = Story(
    id="ho-js-beeb-emulator",
    title="Plain-JavaScript emulator: coverage scripts renamed, comment guidance reversed to "
          "default-no-comment, test mocking, hooks and commit-type rules",
    project=BEEB,
    sources=("mattgodbolt/jsbeeb",),
    lessons=(
        lesson("no-npm-start", "convention",
               "Never run `npm start` (the dev server) yourself; ask the user to start it",
               "npm start"),
        lesson("no-commit-unasked", "preference",
               "Never commit unless asked: iterate, then let the user check before committing",
               "commit", "unless asked|before you commit"),
        lesson("coverage-v1", "command",
               "Unit-test coverage: `npm run test:coverage` (all tests: test:coverage:all); "
               "reports go to coverage/",
               "test:coverage"),
        lesson("coverage-v2", "command",
               "Coverage scripts are now `npm run coverage:unit` and "
               "`npm run coverage:all-tests`; `npm run ci-checks` runs CI's lint checks",
               "coverage:unit"),
        lesson("spyon", "convention",
               "In tests use vi.spyOn() with vi.restoreAllMocks() in afterEach instead of a "
               "global vi.mock(), and mock as little as possible",
               "spyOn", "restoreAllMocks|vi.mock"),
        lesson("constants", "convention",
               "Named constants instead of magic numbers; module-level constants in PascalCase "
               "(e.g. MaxHfeTrackPulses = 3132)",
               "PascalCase|MaxHfeTrackPulses", "constant"),
        lesson("comments-v1", "convention",
               "Add comments explaining what each constant represents and for non-obvious code; "
               "JSDoc for public APIs",
               "comment", "non-obvious|explaining what the constant"),
        lesson("comments-v2", "convention",
               "Default to no comment: rename first, let the name do the explaining, never "
               "restate the next line or the PR; no em dashes",
               "comment", "Default to no comment|earn its place|name do the explaining"),
        lesson("no-verify", "convention",
               "Never bypass the git commit hooks (no --no-verify); fix what lint-staged reports",
               "--no-verify|commit hooks|git hooks"),
        lesson("conv-commits", "convention",
               "Conventional Commits for release-please: fix:/feat: only for user-facing "
               "changes; chore:/ci:/build:/refactor: etc. for internal ones",
               "fix:|feat:", "chore:|ci:"),
    ),
    also=(
        # session 5, user: "keep docs/snapshot-format.md up to date if you add new fields to
        # any component's snapshotState()"
        lesson("also-snapshot-doc", "convention",
               "Adding a field to a component's snapshotState() means updating "
               "docs/snapshot-format.md",
               "snapshot-format.md|snapshot-format", "snapshotState"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit a000af9)
            User("morning. two things about how I work. `npm start` starts the development "
                 "server. IMPORTANT: never run this command directly; ask me to start the "
                 "server as needed. and never commit code unless asked: very often we'll work "
                 "on code and iterate. after you think it's complete, let me check it before you "
                 "commit.", states=("no-npm-start", "no-commit-unasked")),
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit dd71eea "Code Coverage")
            User("also handy: `npm run test:coverage` runs the unit tests with coverage, "
                 "`npm run test:coverage:all` runs all tests with coverage; reports are "
                 "generated in the `coverage` directory.", states="coverage-v1"),
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit 46ab1cc, "Error Messages")
            User("task: the HFE loader throws \"Overflow in disc building\" on some images. use "
                 "a specific error message instead, e.g. \"Track buffer overflow\", with context "
                 "about what failed."),
            Read("src/disc.js"),
            Edit("src/disc.js", 'throw new Error("Overflow in disc building");',
                 "throw new Error(`Track buffer overflow on track ${track}: "
                 "${pulses.length} pulses`);"),
            Bash("npm run test:unit", out=VITEST_UNIT_PASS),
            Say("Done and tests pass. I haven't committed; have a look when you're ready."),
        )),
        Session(day=3, events=(
            User("looks good, commit it"),
            Commit("Make the HFE track overflow error say which track overflowed"),
            User("now some tests for Video: blitFb should count characters and endOfScanline "
                 "should reset the count"),
            Write("tests/unit/test-video.js",
                  'import { describe, expect, it, vi } from "vitest";\n'
                  'vi.mock("../../src/video.js");\n'
                  'import { Video } from "../../src/video.js";\n\n'
                  'describe("Video", () => {\n'
                  '  it("blitFb draws once per character", () => {\n'
                  "    const fb = { draw: vi.fn() };\n    new Video(fb).blitFb(0, 0, 65);\n"
                  "  });\n"
                  '  it("endOfScanline resets the character counter", () => {\n'
                  "    const video = new Video({ draw() {} });\n    video.endOfScanline();\n"
                  "    expect(video.charCount).toBe(0);\n  });\n});\n"),
            Bash("npm run test:unit", out=VITEST_MOCK_FAIL, ok=False),
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit 44f7882 "Test Organization")
            User("that global mock is the problem. when mocking components in tests, use "
                 "`vi.spyOn()` with `vi.restoreAllMocks()` in `afterEach` hooks rather than "
                 "global `vi.mock()` to prevent memory leaks and test pollution. and mock as "
                 "little as possible: try and rephrase code not to require it.",
                 states="spyon"),
            Write("tests/unit/test-video.js",
                  'import { afterEach, describe, expect, it, vi } from "vitest";\n'
                  'import { Video } from "../../src/video.js";\n\n'
                  'describe("Video", () => {\n  afterEach(() => vi.restoreAllMocks());\n\n'
                  '  it("blitFb draws once per character", () => {\n'
                  "    const fb = { draw() {} };\n    const draw = vi.spyOn(fb, \"draw\");\n"
                  "    new Video(fb).blitFb(0, 0, 65);\n"
                  "    expect(draw).toHaveBeenCalledTimes(1);\n  });\n\n"
                  '  it("endOfScanline resets the character counter", () => {\n'
                  "    const video = new Video({ draw() {} });\n    video.blitFb(0, 0, 65);\n"
                  "    video.endOfScanline();\n    expect(video.charCount).toBe(0);\n  });\n"
                  "});\n"),
            Bash("npm run test:unit", out=VITEST_UNIT_PASS),
            Probe("how much of video.js do the tests cover now?", needs="coverage-v1"),
            Bash("npm run test:coverage", out=COVERAGE_V1),
        ), judge={"coverage-v1": "not_down", "spyon": "not_down"}),
        Session(day=14, events=(
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit 46ab1cc "Constants and Magic Numbers")
            User("review notes on the HFE code: always use named constants instead of magic "
                 "numbers in code. Use PascalCase for module-level constants (e.g. "
                 "`const MaxHfeTrackPulses = 3132;`), and prefer module-level constants over "
                 "function-local ones for shared values.", states="constants"),
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit 46ab1cc "Documentation" and
            # "Constants")
            User("and add comments explaining what the constant represents, especially for "
                 "non-obvious values. JSDoc for public APIs and complex functions, comments for "
                 "non-obvious code.", states="comments-v1"),
            Edit("src/disc.js", "export function loadHfe(data) {\n",
                 "// Longest HFE track we accept, in flux pulses (one revolution at 250kbit/s).\n"
                 "const MaxHfeTrackPulses = 3132;\n\nexport function loadHfe(data) {\n"
                 "  const trackLength = data.trackLength;\n"),
            Edit("src/disc.js", "if (pulses.length > 3132)",
                 "if (pulses.length > MaxHfeTrackPulses)"),
            User("ok commit that"),
            Bash("git commit -am 'Use a named constant for the HFE track pulse limit'",
                 out=LINT_STAGED_FAIL, ok=False),
            Say("The pre-commit hook (lint-staged) rejects an unused `trackLength`. I could "
                "commit with `--no-verify` and clean it up after."),
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit 16ae77a)
            User("no. YOU MUST NEVER bypass git commit hooks on checkins. This leads to "
                 "failures in CI later on. fix the lint error.", states="no-verify"),
            Edit("src/disc.js", "  const trackLength = data.trackLength;\n", ""),
            Commit("Use a named constant for the HFE track pulse limit"),
        ), judge={"no-verify": "not_down"}),
        Session(day=16, events=(
            # source: mattgodbolt/jsbeeb commit 27f0cc4 "Fix up some older nonsense in CI/node"
            # (CLAUDE.md and package.json)
            User("fixing up some older nonsense in CI/node: the coverage scripts become "
                 "`npm run coverage:unit` (unit tests with coverage) and "
                 "`npm run coverage:all-tests` (all tests with coverage), plus "
                 "`npm run ci-checks` to run the linting checks CI runs. can you make the "
                 "package.json change?", states="coverage-v2", replaces="coverage-v1"),
            Edit("package.json",
                 '    "test:coverage": "vitest run tests/unit --coverage",\n'
                 '    "test:coverage:all": "vitest run --coverage"\n',
                 '    "coverage:unit": "vitest run tests/unit --coverage",\n'
                 '    "coverage:all-tests": "vitest run --coverage",\n'
                 '    "ci-checks": "eslint . && prettier --check ."\n'),
            Probe("I want to eyeball the teletext output in the browser after all this; can "
                  "you get it up?", needs="no-npm-start"),
            Say("I won't start the dev server myself; could you run `npm start` and tell me "
                "what you see on the teletext screen?"),
            User("running. looks fine. commit the script rename"),
            Commit("Rename coverage scripts and add ci-checks"),
        )),
        Session(day=60, events=(
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit 617ef07 "Conventional Commits")
            User("we're on release-please now, so this project uses Conventional Commits for "
                 "automated versioning and changelog generation. Use `fix:` and `feat:` ONLY for "
                 "changes that affect end users; use `chore:`, `ci:` or `build:` for internal "
                 "tooling/infrastructure changes. Example: a release-please workflow fix should "
                 "be `ci:` or `chore:`, not `fix:`.", states="conv-commits"),
            User("speaking of which, the release-please workflow never runs, something with the "
                 "token. fix it and commit"),
            Read(".github/workflows/release-please.yml"),
            Edit(".github/workflows/release-please.yml", "secrets.GITHUB_TOKN",
                 "secrets.GITHUB_TOKEN"),
            Commit("ci: fix release-please token name"),
            Probe("how well covered is the ACIA code?", needs="coverage-v2"),
            Bash("npm run coverage:unit",
                 out="> beeb-emu@1.0.0 coverage:unit\n> vitest run tests/unit --coverage\n\n"
                     " acia.js   |   58.33 |    50.00 |   66.66 |   58.33 | 11-13"),
        ), judge={"coverage-v2": "not_down"}),
        Session(day=120, events=(
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit 88273b6 "say when not to write a
            # comment")
            User("I rewrote the comment guidance. Default to no comment. A comment must earn "
                 "its place, and most do not. Can the name carry it? Rename first. Never write "
                 "anything restating what the next line does, or the PR description. For "
                 "constants: let the name do the explaining. Also em dashes are not used in this "
                 "codebase, in comments or prose.", states="comments-v2", replaces="comments-v1"),
            # source: mattgodbolt/jsbeeb CLAUDE.md (commit eb53fc1 "Save State / Snapshots")
            User("task: save the ACIA's pending interrupt timer in snapshots. the snapshot JSON "
                 "format is documented in `docs/snapshot-format.md`; keep it up to date if you "
                 "add new fields to any component's `snapshotState()`.",
                 ),
            Edit("src/acia.js", "    return { status: this.status };\n",
                 "    return { status: this.status, timerOffset: this.timerOffset };\n"),
            Edit("src/acia.js", "    this.status = state.status;\n",
                 "    this.status = state.status;\n    this.timerOffset = state.timerOffset;\n"),
            Edit("docs/snapshot-format.md", "| acia | status |\n",
                 "| acia | status, timerOffset |\n"),
            User("commit"),
            Commit("feat: save the ACIA timer in snapshots"),
        )),
        Session(day=122, events=(
            Probe("the teletext code has 25 and 40 hard-coded in it; clean that up",
                  needs=("constants", "comments-v2")),
            Edit("src/video.js", "export class Video {\n",
                 "const TeletextRows = 25;\nconst TeletextColumns = 40;\n\nexport class Video {\n"),
            Edit("src/video.js", "col < 40;", "col < TeletextColumns;"),
            Edit("src/video.js", "row < 25;", "row < TeletextRows;"),
            Probe("good, commit it", needs="conv-commits"),
            Commit("refactor: name the teletext row and column counts"),
            Probe("add a test that restoreState on the ACIA hands its timer back to the "
                  "scheduler", needs="spyon"),
        )),
    ),
)

STORIES = [AIRBROKE_STORY, SLACK_STORY, CMS_STORY, SCHEMA_STORY, BEEB_STORY]
