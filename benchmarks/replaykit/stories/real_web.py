"""Dev stories built from real public material of TypeScript / JavaScript projects.

Each story's user turns reuse the words of a public repository's instruction files
(CLAUDE.md / AGENTS.md / copilot-instructions.md), contributor guides, their git history,
issue threads and CI output; names are replaced by neutral placeholders.
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
# 1. better-auth: an auth library monorepo (TypeScript, pnpm, Vitest, Biome)
# ---------------------------------------------------------------------------------------------

AUTH = Project("better-auth", "typescript", {
    "package.json": (
        '{\n  "name": "better-auth-monorepo",\n  "private": true,\n'
        '  "packageManager": "pnpm@10.6.2",\n  "scripts": {\n'
        '    "build": "turbo build --filter=./packages/*",\n'
        '    "test": "turbo test --continue --filter=./packages/*",\n'
        '    "lint": "biome check . --error-on-warnings",\n'
        '    "lint:fix": "biome check . --fix --unsafe",\n'
        '    "format": "biome format . --write",\n'
        '    "typecheck": "tsc --build"\n  },\n'
        '  "devDependencies": {\n    "@biomejs/biome": "2.0.6",\n    "turbo": "^2.5.0",\n'
        '    "typescript": "^5.8.3",\n    "vitest": "^3.2.4"\n  }\n}\n'
    ),
    "biome.json": (
        '{\n  "formatter": { "indentStyle": "tab" },\n'
        '  "json": { "formatter": { "indentStyle": "space", "indentWidth": 2 } }\n}\n'
    ),
    "packages/better-auth/package.json": (
        '{\n  "name": "better-auth",\n  "version": "1.3.4",\n  "type": "module",\n'
        '  "scripts": { "test": "vitest", "build": "tsdown" },\n'
        '  "dependencies": { "@better-auth/utils": "0.2.6", "zod": "^4.0.0" }\n}\n'
    ),
    "packages/better-auth/src/plugins/magic-code/index.ts": (
        'import { z } from "zod";\n'
        'import { createAuthEndpoint } from "../../api/call";\n'
        'import type { BetterAuthPlugin } from "../../types";\n\n'
        "export interface MagicCodeOptions {\n"
        "\t/** seconds a code stays valid (default 300) */\n\texpiresIn?: number;\n"
        "\tsendCode: (data: { email: string; code: string }) => Promise<void>;\n}\n\n"
        "const generateCode = () =>\n"
        '\tString(Math.floor(Math.random() * 1_000_000)).padStart(6, "0");\n\n'
        "export const magicCode = (options: MagicCodeOptions) => {\n"
        "\treturn {\n"
        '\t\tid: "magic-code",\n'
        "\t\tendpoints: {},\n"
        "\t} satisfies BetterAuthPlugin;\n};\n"
    ),
    "packages/better-auth/src/plugins/magic-code/magic-code.test.ts": (
        'import { describe, expect, it } from "vitest";\n'
        'import { getTestInstance } from "../../test-utils/test-instance";\n'
        'import { magicCode } from ".";\n\n'
        'describe("magic-code", async () => {\n'
        '\tlet lastCode = "";\n'
        "\tconst { client } = await getTestInstance({\n"
        "\t\tplugins: [\n"
        "\t\t\tmagicCode({\n"
        "\t\t\t\tasync sendCode({ code }) {\n\t\t\t\t\tlastCode = code;\n\t\t\t\t},\n"
        "\t\t\t}),\n\t\t],\n\t});\n\n"
        '\tit("sends a code", async () => {\n'
        '\t\tawait client.$fetch("/magic-code/send", {\n'
        '\t\t\tmethod: "POST",\n\t\t\tbody: { email: "test@test.com" },\n\t\t});\n'
        "\t\texpect(lastCode).toHaveLength(6);\n\t});\n});\n"
    ),
})

VITEST_MC_PASS = (
    " RUN  v3.2.4 /work/better-auth/packages/better-auth\n\n"
    " ✓ src/plugins/magic-code/magic-code.test.ts (1 test) 41ms\n\n"
    " Test Files  1 passed (1)\n      Tests  1 passed (1)\n"
    "   Start at  10:12:03\n   Duration  1.18s (transform 312ms, setup 0ms, collect 701ms, "
    "tests 41ms)\n"
)
VITEST_VERIFY_FAIL = (
    " RUN  v3.2.4 /work/better-auth/packages/better-auth\n\n"
    " ❯ src/plugins/magic-code/magic-code.test.ts (3 tests | 1 failed | 2 skipped) 58ms\n"
    "   × magic-code > verify > locks the code after 3 wrong attempts 31ms\n"
    "     → expected 401 to be 429 // Object.is equality\n\n"
    "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
    " FAIL  src/plugins/magic-code/magic-code.test.ts > magic-code > verify > locks the code "
    "after 3 wrong attempts\nAssertionError: expected 401 to be 429 // Object.is equality\n\n"
    "- Expected\n+ Received\n\n- 429\n+ 401\n\n"
    " ❯ src/plugins/magic-code/magic-code.test.ts:52:31\n\n"
    " Test Files  1 failed (1)\n      Tests  1 failed | 2 skipped (3)\n"
)
VITEST_VERIFY_PASS = (
    " RUN  v3.2.4 /work/better-auth/packages/better-auth\n\n"
    " ✓ src/plugins/magic-code/magic-code.test.ts (3 tests | 2 skipped) 49ms\n\n"
    " Test Files  1 passed (1)\n      Tests  1 passed | 2 skipped (3)\n"
)
VITEST_MC_ALL = (
    " RUN  v3.2.4 /work/better-auth/packages/better-auth\n\n"
    " ✓ src/plugins/magic-code/magic-code.test.ts (5 tests) 77ms\n\n"
    " Test Files  1 passed (1)\n      Tests  5 passed (5)\n"
)

AUTH_STORY = Story(
    id="dv-ts-better-auth-1",
    title="An auth plugin: per-test vitest runs, no Buffer, PR branch and checks that changed",
    sources=("better-auth/better-auth",),
    project=AUTH,
    lessons=(
        lesson("single-test", "command",
               "Don't run `pnpm test` (it runs every package, slow); run one file with "
               "`vitest path/to/test -t <pattern>`",
               "vitest", "pnpm test"),
        lesson("pr-canary", "decision", "PRs target the `canary` branch", "canary"),
        lesson("pr-main", "decision", "PRs target the `main` branch (canary is gone)",
               "PR|PRs|pull request", "main"),
        lesson("no-buffer", "convention",
               "No runtime-specific APIs like `Buffer` outside tests (breaks Cloudflare Workers "
               "without nodejs_compat); use `Uint8Array` / the base64 helper",
               "Buffer", "Uint8Array"),
        lesson("no-commit", "preference",
               "Do not commit unless the user explicitly asks for it",
               "commit", "unless|explicitly|asked"),
        lesson("manual-checks", "convention",
               "Before handing back, run `pnpm format` and `pnpm lint` by hand and make sure "
               "they pass",
               "pnpm format|pnpm lint"),
        lesson("lefthook-auto", "fact",
               "Formatting and linting run automatically on commit (Lefthook + Biome); no need "
               "to run them by hand",
               "Lefthook"),
        lesson("typecheck-finish", "convention",
               "Ensure `pnpm typecheck` passes before finishing",
               "pnpm typecheck"),
        lesson("regression-see", "convention",
               "A regression test for a numbered GitHub issue gets a JSDoc `@see <issue URL>` "
               "comment above its it()/describe()",
               "@see", "issue|issues"),
        lesson("zod-import", "convention", 'Import zod as `import * as z from "zod"`',
               "* as z", "zod"),
    ),
    also=(
        lesson("also-no-classes", "convention",
               "Avoid classes, use functions and objects; no `any` or unsafe casts",
               r"re:\bclass(es)?\b", "function|functions"),
        lesson("also-node-protocol", "convention",
               "Use the `node:` protocol for Node.js built-ins (e.g. `node:crypto`)",
               "node:crypto|node: protocol|`node:`"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: better-auth/better-auth CLAUDE.md (#7368)
            User("hey, I want to get the magic-code plugin (email one-time codes) working "
                 "today, send endpoint first. couple of things before you start: do not run "
                 "`pnpm test` directly because it runs tests in all packages, which takes a long "
                 "time, use `vitest /path/to/<test-file> -t <pattern>` to run specific tests. "
                 "and PRs should target the `canary` branch.",
                 states=("single-test", "pr-canary")),
            Read("packages/better-auth/src/plugins/magic-code/index.ts"),
            Edit("packages/better-auth/src/plugins/magic-code/index.ts",
                 "\t\tendpoints: {},\n",
                 "\t\tendpoints: {\n"
                 "\t\t\tsendMagicCode: createAuthEndpoint(\n"
                 '\t\t\t\t"/magic-code/send",\n'
                 '\t\t\t\t{ method: "POST", body: z.object({ email: z.email() }) },\n'
                 "\t\t\t\tasync (ctx) => {\n"
                 "\t\t\t\t\tconst code = generateCode();\n"
                 "\t\t\t\t\tconst identifier = Buffer.from(ctx.body.email).toString"
                 '("base64url");\n'
                 "\t\t\t\t\tawait ctx.context.internalAdapter.createVerificationValue({\n"
                 "\t\t\t\t\t\tidentifier: `magic-code:${identifier}`,\n"
                 "\t\t\t\t\t\tvalue: code,\n"
                 "\t\t\t\t\t\texpiresAt: new Date(Date.now() + (options.expiresIn ?? 300) "
                 "* 1000),\n"
                 "\t\t\t\t\t});\n"
                 "\t\t\t\t\tawait options.sendCode({ email: ctx.body.email, code });\n"
                 "\t\t\t\t\treturn ctx.json({ status: true });\n"
                 "\t\t\t\t},\n\t\t\t),\n\t\t},\n"),
            Bash("cd packages/better-auth && npx vitest run "
                 "src/plugins/magic-code/magic-code.test.ts -t \"sends a code\"",
                 out=VITEST_MC_PASS),
            Say("The send endpoint stores the code under a `magic-code:<email>` identifier and "
                "calls `sendCode`; the test passes."),
            # source: better-auth/better-auth PR #1523 description + CLAUDE.md (#7368)
            User("hmm, please don't use Buffer for the identifier. BetterAuth doesn't work on "
                 "cloudflare workers without `nodejs_compat` flags due to usage of `Buffer` to "
                 "do base64 encoding/decoding. Do not use runtime-specific feature like `Buffer` "
                 "in codebase except test, use `Uint8Array` instead. there's `base64` in "
                 "`@better-auth/utils/base64`.", states="no-buffer"),
            Edit("packages/better-auth/src/plugins/magic-code/index.ts",
                 'import { z } from "zod";\n',
                 'import { base64Url } from "@better-auth/utils/base64";\n'
                 'import { z } from "zod";\n'),
            Edit("packages/better-auth/src/plugins/magic-code/index.ts",
                 "\t\t\t\t\tconst identifier = Buffer.from(ctx.body.email).toString"
                 '("base64url");\n',
                 "\t\t\t\t\tconst identifier = base64Url.encode(\n"
                 "\t\t\t\t\t\tnew TextEncoder().encode(ctx.body.email),\n"
                 "\t\t\t\t\t\t{ padding: false },\n\t\t\t\t\t);\n"),
            Bash("cd packages/better-auth && npx vitest run "
                 "src/plugins/magic-code/magic-code.test.ts -t \"sends a code\"",
                 out=VITEST_MC_PASS),
            Say("Switched to `base64Url.encode(new TextEncoder().encode(email))`, so no Buffer; "
                "still green. Want me to commit?"),
            # source: better-auth/better-auth CLAUDE.md (#7368) "After Everything is done"
            User("no, leave it. Unless the user asked for it or you are working on CI, DO NOT "
                 "COMMIT. I'll review and commit myself.", states="no-commit"),
        )),
        Session(day=3, events=(
            User("next up: rate limiting on verify. a code should be dead after 3 wrong "
                 "attempts, return 429 then."),
            Say("I'd add a small `AttemptTracker` class wrapping a Map of attempts per "
                "identifier, with `hit()` and `reset()` methods."),
            # source: better-auth/better-auth CLAUDE.md (#7374)
            User("Avoid classes, use functions and objects. also avoid unsafe typecasts or "
                 "types like `any`. just keep the attempt count on the verification value."),
            Edit("packages/better-auth/src/plugins/magic-code/index.ts",
                 "\t\t\t\t\treturn ctx.json({ status: true });\n\t\t\t\t},\n\t\t\t),\n",
                 "\t\t\t\t\treturn ctx.json({ status: true });\n\t\t\t\t},\n\t\t\t),\n"
                 "\t\t\tverifyMagicCode: createAuthEndpoint(\n"
                 '\t\t\t\t"/magic-code/verify",\n'
                 "\t\t\t\t{\n"
                 '\t\t\t\t\tmethod: "POST",\n'
                 "\t\t\t\t\tbody: z.object({ email: z.email(), code: z.string() }),\n"
                 "\t\t\t\t},\n"
                 "\t\t\t\tasync (ctx) => verifyCode(ctx, options),\n"
                 "\t\t\t),\n"),
            Write("packages/better-auth/src/plugins/magic-code/verify.ts",
                  'import { APIError } from "better-call";\n'
                  'import type { MagicCodeOptions } from ".";\n\n'
                  "export const MAX_ATTEMPTS = 3;\n\n"
                  "export async function verifyCode(ctx: VerifyContext, "
                  "options: MagicCodeOptions) {\n"
                  "\tconst stored = await findCode(ctx, ctx.body.email);\n"
                  "\tif (!stored) throw new APIError(\"UNAUTHORIZED\");\n"
                  "\tif (stored.attempts >= MAX_ATTEMPTS) {\n"
                  '\t\tthrow new APIError("TOO_MANY_REQUESTS");\n\t}\n'
                  "\tif (stored.code !== ctx.body.code) {\n"
                  "\t\tawait bumpAttempts(ctx, stored);\n"
                  '\t\tthrow new APIError("UNAUTHORIZED");\n\t}\n'
                  "\treturn ctx.json({ status: true });\n}\n"),
            Edit("packages/better-auth/src/plugins/magic-code/magic-code.test.ts",
                 "\t\texpect(lastCode).toHaveLength(6);\n\t});\n",
                 "\t\texpect(lastCode).toHaveLength(6);\n\t});\n\n"
                 '\tdescribe("verify", () => {\n'
                 '\t\tit("locks the code after 3 wrong attempts", async () => {\n'
                 "\t\t\tfor (let i = 0; i < 3; i++) {\n"
                 '\t\t\t\tawait client.$fetch("/magic-code/verify", {\n'
                 '\t\t\t\t\tmethod: "POST",\n'
                 '\t\t\t\t\tbody: { email: "test@test.com", code: "000000" },\n'
                 "\t\t\t\t});\n\t\t\t}\n"
                 '\t\t\tconst res = await client.$fetch("/magic-code/verify", {\n'
                 '\t\t\t\tmethod: "POST",\n'
                 '\t\t\t\tbody: { email: "test@test.com", code: lastCode },\n'
                 "\t\t\t});\n"
                 "\t\t\texpect(res.error?.status).toBe(429);\n\t\t});\n\t});\n"),
            Probe("looks reasonable. can you check the verify flow actually works?",
                  needs="single-test"),
            Bash("cd packages/better-auth && npx vitest run "
                 "src/plugins/magic-code/magic-code.test.ts -t \"verify\"",
                 out=VITEST_VERIFY_FAIL, ok=False),
            Say("The attempt counter is bumped after the comparison but the lockout check reads "
                "the value fetched before the bump; the fourth call still sees 2 attempts. I'll "
                "count the failed attempt before comparing."),
            Edit("packages/better-auth/src/plugins/magic-code/verify.ts",
                 "\tif (stored.attempts >= MAX_ATTEMPTS) {\n",
                 "\tif (stored.attempts + 1 > MAX_ATTEMPTS) {\n"),
            Bash("cd packages/better-auth && npx vitest run "
                 "src/plugins/magic-code/magic-code.test.ts -t \"verify\"",
                 out=VITEST_VERIFY_PASS),
            # source: better-auth/better-auth CLAUDE.md (#7368) "After Everything is done"
            User("good. before you hand it back make sure `pnpm format`, `pnpm lint` and "
                 "`pnpm typecheck` pass. oh and just for this one, skip the docs page, I'll write "
                 "it once the API settles.", states=("manual-checks", "typecheck-finish")),
            Bash("pnpm format && pnpm lint && pnpm typecheck",
                 out="Formatted 214 files in 96ms. Fixed 1 file.\n"
                     "Checked 214 files in 188ms. No fixes applied.\n"
                     "> better-auth-monorepo@ typecheck /work/better-auth\n> tsc --build\n"),
            Say("Format fixed one file (tabs in verify.ts), lint and typecheck are clean."),
        ), judge={"manual-checks": "not_down"}),
        Session(day=11, events=(
            # source: better-auth/better-auth CLAUDE.md (#7809)
            User("bug report: verify accepts a code after it expired when it's the last "
                 "attempt (it's issue 4821 on our tracker). please write the failing test first. "
                 "If a test is to prevent regression of a specific numbered GitHub issue, add a "
                 "JSDoc `@see` comment with the issue URL above the `it()` or `describe()`.",
                 states="regression-see"),
            Edit("packages/better-auth/src/plugins/magic-code/magic-code.test.ts",
                 '\tdescribe("verify", () => {\n',
                 '\tdescribe("verify", () => {\n'
                 "\t\t/**\n"
                 "\t\t * @see https://github.com/better-auth/better-auth/issues/4821\n"
                 "\t\t */\n"
                 '\t\tit("rejects an expired code", async () => {\n'
                 "\t\t\tvi.useFakeTimers();\n"
                 '\t\t\tawait client.$fetch("/magic-code/send", {\n'
                 '\t\t\t\tmethod: "POST",\n\t\t\t\tbody: { email: "test@test.com" },\n'
                 "\t\t\t});\n"
                 "\t\t\tvi.advanceTimersByTime(301_000);\n"
                 '\t\t\tconst res = await client.$fetch("/magic-code/verify", {\n'
                 '\t\t\t\tmethod: "POST",\n'
                 '\t\t\t\tbody: { email: "test@test.com", code: lastCode },\n'
                 "\t\t\t});\n"
                 "\t\t\texpect(res.error?.status).toBe(401);\n"
                 "\t\t\tvi.useRealTimers();\n\t\t});\n\n"),
            Bash("cd packages/better-auth && npx vitest run "
                 "src/plugins/magic-code/magic-code.test.ts -t \"expired\"",
                 out=" FAIL  src/plugins/magic-code/magic-code.test.ts > magic-code > verify > "
                     "rejects an expired code\nAssertionError: expected undefined to be 401\n\n"
                     " Test Files  1 failed (1)\n      Tests  1 failed | 3 skipped (4)\n",
                 ok=False),
            Edit("packages/better-auth/src/plugins/magic-code/verify.ts",
                 "\tif (!stored) throw new APIError(\"UNAUTHORIZED\");\n",
                 "\tif (!stored || stored.expiresAt < new Date()) {\n"
                 '\t\tthrow new APIError("UNAUTHORIZED");\n\t}\n'),
            Bash("cd packages/better-auth && npx vitest run "
                 "src/plugins/magic-code/magic-code.test.ts",
                 out=VITEST_MC_ALL.replace("5 tests", "4 tests").replace("5 passed (5)",
                                                                          "4 passed (4)")),
            Probe("one more thing on this plugin: the code sits in plain text in the "
                  "verification table. can you store a hash of it instead and compare hashes?",
                  needs="no-buffer"),
            Edit("packages/better-auth/src/plugins/magic-code/verify.ts",
                 'import { APIError } from "better-call";\n',
                 'import { createHash } from "@better-auth/utils/hash";\n'
                 'import { APIError } from "better-call";\n\n'
                 "export const hashCode = (code: string) =>\n"
                 '\tcreateHash("SHA-256", "base64urlnopad").digest(code);\n'),
            Bash("cd packages/better-auth && npx vitest run "
                 "src/plugins/magic-code/magic-code.test.ts",
                 out=VITEST_MC_ALL.replace("5 tests", "4 tests").replace("5 passed (5)",
                                                                          "4 passed (4)")),
            User("nice. ok, this one you can commit: fix(magic-code): reject expired codes"),
            Commit("fix(magic-code): reject expired codes"),
        )),
        Session(day=24, events=(
            # source: better-auth/better-auth CLAUDE.md (#8773) and CONTRIBUTING.md / CLAUDE.md
            # (#9044, #8890)
            User("heads up from the weekly sync: PRs should target the `main` branch now. also "
                 "the pre-commit hooks got reworked: formatting/linting runs automatically on "
                 "commit (Lefthook + Biome). No need to run manually. Ensure `pnpm typecheck` "
                 "passes before finishing.",
                 states=("pr-main", "lefthook-auto"),
                 replaces=("pr-canary", "manual-checks")),
            Write("lefthook.yml",
                  "pre-commit:\n  parallel: true\n  commands:\n    biome:\n"
                  "      run: pnpm biome check --write --error-on-warnings "
                  "--no-errors-on-unmatched --files-ignore-unknown=true --colors=off "
                  "{staged_files}\n      stage_fixed: true\n    spell:\n"
                  "      run: pnpm cspell --cache --no-progress --no-summary "
                  "--no-must-find-files {staged_files}\n"),
            Bash("pnpm lefthook install", out="sync hooks: ✔️ (pre-commit)\n"),
            # source: better-auth/better-auth CLAUDE.md (#8890)
            User("and from the new dev guide: Import zod as `import * as z from \"zod\"`, "
                 "and use `node:` protocol for Node.js built-ins (e.g. `node:crypto`). can you "
                 "fix the zod import in the plugin and commit it as a chore?",
                 states="zod-import"),
            Edit("packages/better-auth/src/plugins/magic-code/index.ts",
                 'import { z } from "zod";\n', 'import * as z from "zod";\n'),
            Commit("chore(magic-code): import zod as a namespace"),
            Say("Done; Lefthook ran Biome and cspell on the staged file during the commit."),
        )),
        Session(day=31, events=(
            User("morning. verify should also accept an optional `callbackURL` so the client "
                 "can redirect after login."),
            Probe("please add that field to the verify body, validated like the other fields",
                  needs="zod-import"),
            Edit("packages/better-auth/src/plugins/magic-code/index.ts",
                 "\t\t\t\t\tbody: z.object({ email: z.email(), code: z.string() }),\n",
                 "\t\t\t\t\tbody: z.object({\n\t\t\t\t\t\temail: z.email(),\n"
                 "\t\t\t\t\t\tcode: z.string(),\n"
                 "\t\t\t\t\t\tcallbackURL: z.string().optional(),\n\t\t\t\t\t}),\n"),
            Probe("there's also issue 4950: codes pasted with a trailing space fail verify. "
                  "pin that down with a test and fix it",
                  needs=("regression-see", "single-test")),
            Edit("packages/better-auth/src/plugins/magic-code/magic-code.test.ts",
                 '\t\tit("locks the code after 3 wrong attempts", async () => {\n',
                 "\t\t/**\n"
                 "\t\t * @see https://github.com/better-auth/better-auth/issues/4950\n"
                 "\t\t */\n"
                 '\t\tit("trims whitespace around the code", async () => {\n'
                 '\t\t\tawait client.$fetch("/magic-code/send", {\n'
                 '\t\t\t\tmethod: "POST",\n\t\t\t\tbody: { email: "test@test.com" },\n'
                 "\t\t\t});\n"
                 '\t\t\tconst res = await client.$fetch("/magic-code/verify", {\n'
                 '\t\t\t\tmethod: "POST",\n'
                 '\t\t\t\tbody: { email: "test@test.com", code: ` ${lastCode} ` },\n'
                 "\t\t\t});\n"
                 "\t\t\texpect(res.error).toBeNull();\n\t\t});\n\n"
                 '\t\tit("locks the code after 3 wrong attempts", async () => {\n'),
            Edit("packages/better-auth/src/plugins/magic-code/verify.ts",
                 "\tif (stored.code !== ctx.body.code) {\n",
                 "\tif (stored.code !== (await hashCode(ctx.body.code.trim()))) {\n"),
            Bash("cd packages/better-auth && npx vitest run "
                 "src/plugins/magic-code/magic-code.test.ts",
                 out=VITEST_MC_ALL),
            Probe("I think we're done here. do whatever's left before I review it",
                  needs=("typecheck-finish", "lefthook-auto", "no-commit")),
            Bash("pnpm typecheck", out="> better-auth-monorepo@ typecheck /work/better-auth\n"
                                       "> tsc --build\n"),
            Say("Typecheck is clean and the plugin tests pass. I left the changes uncommitted "
                "for your review."),
            Probe("reviewed, looks good. commit it, push a branch and open the PR",
                  needs="pr-main"),
            Commit("feat(magic-code): accept callbackURL and trim pasted codes"),
            Bash("git push -u origin feat/magic-code-callback && gh pr create --base main "
                 "--fill",
                 out="branch 'feat/magic-code-callback' set up to track "
                     "'origin/feat/magic-code-callback'.\n"
                     "https://github.com/example-org/better-auth/pull/5012\n"),
        ), judge={"typecheck-finish": "not_down", "pr-main": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 2. svelte: the compiler monorepo (JavaScript with JSDoc, pnpm, vitest, playwright)
# ---------------------------------------------------------------------------------------------

SVELTE = Project("svelte", "javascript", {
    "package.json": (
        '{\n  "name": "svelte-monorepo",\n  "private": true,\n  "type": "module",\n'
        '  "packageManager": "pnpm@8.6.12",\n  "scripts": {\n'
        '    "build": "pnpm -r --filter=./packages/* build",\n'
        '    "format": "prettier --write --plugin prettier-plugin-svelte .",\n'
        '    "lint": "prettier --check --plugin prettier-plugin-svelte . && eslint ./",\n'
        '    "test": "vitest run --coverage"\n  }\n}\n'
    ),
    "packages/svelte/package.json": (
        '{\n  "name": "svelte",\n  "version": "5.0.0-next.26",\n  "type": "module",\n'
        '  "scripts": {\n    "build": "rollup -c && node scripts/check-treeshakeability.js",\n'
        '    "dev": "rollup -cw",\n    "check": "tsc && cd ./tests/types && tsc",\n'
        '    "check:watch": "tsc --watch",\n'
        '    "generate:types": "node ./scripts/generate-types.js"\n  }\n}\n'
    ),
    "packages/svelte/src/compiler/phases/2-analyze/a11y.js": (
        "/** @type {Record<string, string[]>} */\n"
        "const a11y_required_attributes = {\n"
        "\ta: ['href'],\n\tarea: ['alt', 'aria-label', 'aria-labelledby'],\n"
        "\timg: ['alt'],\n\tobject: ['title', 'aria-label', 'aria-labelledby']\n};\n\n"
        "/**\n * @param {import('#compiler').RegularElement} node\n"
        " * @param {import('./types.js').AnalysisState} state\n */\n"
        "export function check_element(node, state) {\n"
        "\tconst required = a11y_required_attributes[node.name];\n"
        "\tif (!required) return;\n"
        "\tconst has = node.attributes.some((a) => a.type === 'Attribute' && "
        "required.includes(a.name));\n"
        "\tif (!has) state.analysis.warnings.push(missing_attribute(node, required));\n}\n"
    ),
    "packages/svelte/src/main/public.d.ts": (
        "export interface ComponentConstructorOptions<Props extends Record<string, any> = "
        "Record<string, any>> {\n"
        "\ttarget: Element | Document | ShadowRoot;\n\tanchor?: Element;\n\tprops?: Props;\n"
        "\tcontext?: Map<any, any>;\n\thydrate?: boolean;\n\tintro?: boolean;\n}\n"
    ),
    "packages/svelte/tests/validator/samples/a11y-alt-text/input.svelte": (
        "<img src=\"foo\" />\n\n<map name=\"foo\">\n\t<area href=\"#\" />\n</map>\n"
    ),
    "packages/svelte/tests/validator/samples/a11y-alt-text/warnings.json": (
        '[\n\t{\n\t\t"code": "a11y-missing-attribute",\n'
        '\t\t"message": "A11y: <img> element should have an alt attribute",\n'
        '\t\t"start": { "line": 1, "column": 0 },\n\t\t"end": { "line": 1, "column": 19 }\n'
        "\t}\n]\n"
    ),
    "packages/svelte/tests/validator/test.ts": (
        "import { suite } from '../suite.js';\n"
        "import { compile } from 'svelte/compiler';\n\n"
        "const { test, run } = suite(async (config, cwd) => {\n"
        "\tconst { warnings } = compile(read(`${cwd}/input.svelte`), config.compileOptions);\n"
        "\tassert.deepEqual(warnings.map(simplify), read_json(`${cwd}/warnings.json`));\n"
        "});\n\nexport { test };\n\nawait run(__dirname);\n"
    ),
})

SV_VALIDATOR_FAIL = (
    " RUN  v0.34.6 /work/svelte\n\n"
    " ❯ packages/svelte/tests/validator/test.ts  (412 tests | 1 failed | 411 skipped) 96ms\n"
    "   ❯ packages/svelte/tests/validator/test.ts > a11y-alt-text\n"
    "     → expected [ { code: 'a11y-missing-attribute', …(3) } ] to deeply equal [ { code: "
    "'a11y-missing-attribute', …(3) }, …(1) ]\n\n"
    " Test Files  1 failed (1)\n      Tests  1 failed | 411 skipped (412)\n"
)
SV_VALIDATOR_PASS = (
    " RUN  v0.34.6 /work/svelte\n\n"
    " ✓ packages/svelte/tests/validator/test.ts  (412 tests | 411 skipped) 88ms\n\n"
    " Test Files  1 passed (1)\n      Tests  1 passed | 411 skipped (412)\n"
)
SV_FULL_BROWSER_FAIL = (
    " RUN  v0.34.6 /work/svelte\n\n"
    " ✓ packages/svelte/tests/validator/test.ts  (412 tests) 640ms\n"
    " ✓ packages/svelte/tests/parser-modern/test.ts  (38 tests) 91ms\n"
    " ✓ packages/svelte/tests/snapshot/test.ts  (21 tests) 402ms\n"
    " ❯ packages/svelte/tests/runtime-browser/test.ts  (63 tests | 63 failed) 12ms\n\n"
    "⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
    " FAIL  packages/svelte/tests/runtime-browser/test.ts [ "
    "packages/svelte/tests/runtime-browser/test.ts ]\n"
    "browserType.launch: Executable doesn't exist at "
    "/home/dev/.cache/ms-playwright/chromium-1067/chrome-linux/chrome\n"
    "╔═════════════════════════════════════════════════════════════════════════╗\n"
    "║ Looks like Playwright Test or Playwright was just installed or updated. ║\n"
    "║ Please run the following command to download new browsers:              ║\n"
    "║                                                                         ║\n"
    "║     npx playwright install                                              ║\n"
    "╚═════════════════════════════════════════════════════════════════════════╝\n"
    " ❯ packages/svelte/tests/runtime-browser/test.ts:24:29\n\n"
    " Test Files  1 failed | 11 passed (12)\n      Tests  63 failed | 3254 passed (3317)\n"
)
SV_FULL_PASS = (
    " RUN  v0.34.6 /work/svelte\n\n"
    " ✓ packages/svelte/tests/runtime-browser/test.ts  (63 tests) 8412ms\n"
    " ✓ packages/svelte/tests/runtime-runes/test.ts  (611 tests) 5230ms\n\n"
    " Test Files  12 passed (12)\n      Tests  3317 passed (3317)\n   Duration  41.07s\n"
)

SVELTE_STORY = Story(
    id="dv-js-svelte-1",
    title="Compiler contributions: test filters, snapshots, checked-in types and PR hygiene",
    sources=("sveltejs/svelte",),
    project=SVELTE,
    lessons=(
        lesson("test-filter-old", "command",
               "Filter tests within a suite with `pnpm test <suite> -- -t <test>` "
               "(e.g. `pnpm test validator -- -t a11y-alt-text`)",
               r"re:pnpm test \S+ -- -t"),
        lesson("test-filter-new", "command",
               "Filter tests within a suite with `pnpm test <suite> -t <test>` "
               "(e.g. `pnpm test validator -t a11y-alt-text`)",
               r"re:pnpm test \S+ -t\b"),
        lesson("playwright-chromium", "gotcha",
               "The full suite's runtime-browser tests need Playwright's chromium: run "
               "`pnpm playwright install chromium` first (else 'Executable doesn't exist')",
               "playwright install", "chromium"),
        lesson("update-snapshots", "command",
               "Update snapshot/parser expected outputs with `UPDATE_SNAPSHOTS=true pnpm test`",
               "UPDATE_SNAPSHOTS"),
        lesson("check-cmd", "command", "Typecheck with `pnpm check` inside `packages/svelte`",
               "pnpm check"),
        lesson("types-checked-in", "decision",
               "Generated types are checked in: regenerate with `pnpm generate:types` and commit "
               "them as-is (not prettier-formatted); CI fails if they changed",
               "generate:types", "checked in|commit"),
        lesson("changeset", "convention",
               "If a change should contribute to a version bump, run `npx changeset` at the "
               "repository root and select the packages",
               "changeset"),
        lesson("full-suite-pr", "convention",
               "Never submit a PR without running the full test suite, and fill out "
               "PULL_REQUEST_TEMPLATE.md",
               "full test suite", "PULL_REQUEST_TEMPLATE|template"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: sveltejs/svelte CONTRIBUTING.md (dd4061bc38)
            User("let's make a11y-alt-text also flag `<input type=\"image\">` without alt. to "
                 "run a particular test suite, use `pnpm test <suite-name>`, and to filter tests "
                 "_within_ a test suite, use `pnpm test <suite-name> -- -t <test-name>`, e.g. "
                 "`pnpm test validator -- -t a11y-alt-text`. (You can also do "
                 "`FILTER=<test-name> pnpm test <suite-name>` which removes other tests rather "
                 "than simply skipping them, but it's non-idiomatic. Choose your fighter.)",
                 states="test-filter-old"),
            Edit("packages/svelte/tests/validator/samples/a11y-alt-text/input.svelte",
                 "</map>\n", "</map>\n\n<input type=\"image\" src=\"foo\" />\n"),
            Edit("packages/svelte/tests/validator/samples/a11y-alt-text/warnings.json",
                 '\t\t"end": { "line": 1, "column": 19 }\n\t}\n]\n',
                 '\t\t"end": { "line": 1, "column": 19 }\n\t},\n\t{\n'
                 '\t\t"code": "a11y-missing-attribute",\n'
                 '\t\t"message": "A11y: <input type=\\"image\\"> element should have an alt, '
                 'aria-label or aria-labelledby attribute",\n'
                 '\t\t"start": { "line": 7, "column": 0 },\n'
                 '\t\t"end": { "line": 7, "column": 35 }\n\t}\n]\n'),
            Bash("pnpm test validator -- -t a11y-alt-text", out=SV_VALIDATOR_FAIL, ok=False),
            Edit("packages/svelte/src/compiler/phases/2-analyze/a11y.js",
                 "\tconst required = a11y_required_attributes[node.name];\n",
                 "\tconst required =\n\t\tnode.name === 'input' && get_static_value(node, "
                 "'type') === 'image'\n"
                 "\t\t\t? ['alt', 'aria-label', 'aria-labelledby']\n"
                 "\t\t\t: a11y_required_attributes[node.name];\n"),
            Bash("pnpm test validator -- -t a11y-alt-text", out=SV_VALIDATOR_PASS),
            Bash("pnpm test", out=SV_FULL_BROWSER_FAIL, ok=False),
            Say("Everything compiles; only the runtime-browser suite fails because Playwright's "
                "chromium isn't downloaded on this machine. Installing it."),
            Bash("pnpm playwright install chromium",
                 out="Downloading Chromium 119.0.6045.9 (playwright build v1067) from "
                     "https://playwright.azureedge.net/builds/chromium/1067/chromium-linux.zip\n"
                     "153.1 Mb [====================] 100% 0.0s\n"
                     "Chromium 119.0.6045.9 (playwright build v1067) downloaded to "
                     "/home/dev/.cache/ms-playwright/chromium-1067\n"),
            Bash("pnpm test", out=SV_FULL_PASS),
            Say("All 3317 tests pass. Note for next time: the full suite needs Playwright's "
                "browser; run `pnpm playwright install chromium` once after `pnpm install`, "
                "otherwise runtime-browser fails with \"Executable doesn't exist\".",
                states="playwright-chromium"),
            User("nice, commit it"),
            Commit("fix: warn on <input type=\"image\"> without alt text"),
        )),
        Session(day=5, events=(
            User("I want JSDoc types on the a11y helpers tightened, `node.name` lookups should "
                 "be typed. "
                 # source: sveltejs/svelte CONTRIBUTING.md (dd4061bc38)
                 "To typecheck the codebase, run `pnpm check` inside `packages/svelte`.",
                 states="check-cmd"),
            Edit("packages/svelte/src/compiler/phases/2-analyze/a11y.js",
                 "/** @type {Record<string, string[]>} */\n",
                 "/** @type {Record<string, string[] | undefined>} */\n"),
            Bash("cd packages/svelte && pnpm check",
                 out="src/compiler/phases/2-analyze/a11y.js:18:53 - error TS18048: 'required' is "
                     "possibly 'undefined'.\n\n18 \tconst has = node.attributes.some((a) => "
                     "a.type === 'Attribute' && required.includes(a.name));\n"
                     "                                                       ~~~~~~~~\n\n"
                     "Found 1 error in src/compiler/phases/2-analyze/a11y.js:18\n",
                 ok=False, exit=2),
            Say("The early `return` is above, but TS loses the narrowing inside the callback; "
                "I'll bind it to a const after the guard."),
            Edit("packages/svelte/src/compiler/phases/2-analyze/a11y.js",
                 "\tif (!required) return;\n",
                 "\tif (!required) return;\n\tconst names = required;\n"),
            Edit("packages/svelte/src/compiler/phases/2-analyze/a11y.js",
                 "required.includes(a.name));\n", "names.includes(a.name));\n"),
            Bash("cd packages/svelte && pnpm check", out="> svelte@5.0.0-next.26 check\n"
                                                       "> tsc && cd ./tests/types && tsc\n"),
            # source: sveltejs/svelte CONTRIBUTING.md (dd4061bc38)
            User("cool. fyi for later, tests suites like `snapshot` and `parser` assert that the "
                 "generated output matches the existing snapshot. To update these snapshots, run "
                 "`UPDATE_SNAPSHOTS=true pnpm test`. don't do it now though, the hoisting PR "
                 "isn't merged yet.", states="update-snapshots"),
            Commit("chore: tighten a11y helper types"),
        ), judge={"check-cmd": "not_down"}),
        Session(day=40, events=(
            User("small one: add JSDoc to the `intro` option of ComponentConstructorOptions, "
                 "people keep asking what it does."),
            Edit("packages/svelte/src/main/public.d.ts",
                 "\tintro?: boolean;\n",
                 "\t/** If true, will play transitions on initial render */\n"
                 "\tintro?: boolean;\n"),
            Commit("docs: document the intro option"),
            Bash("git push && gh run watch",
                 out="✓ install\n✓ type check\n✓ lint\nX build and check generated types\n"
                     "Generated types have changed — please regenerate types locally and commit "
                     "the changes after you have reviewed them\n"
                     "diff --git a/packages/svelte/types/index.d.ts "
                     "b/packages/svelte/types/index.d.ts\n"
                     "+\t\t/** If true, will play transitions on initial render */\n"
                     "X Process completed with exit code 1.\n",
                 ok=False),
            # source: sveltejs/svelte PR #9863 description + CONTRIBUTING.md (98a72f5068)
            User("ah right, that landed yesterday. we're checking in the generated types now: "
                 "types are auto-generated from the source, but the result is checked in to "
                 "ensure no accidental changes slip through. Run `pnpm generate:types` to "
                 "regenerate the types. Types should be committed as-is (don't format it with "
                 "prettier!). CI checks that git sees no changed files after generating them.",
                 states="types-checked-in"),
            Bash("cd packages/svelte && pnpm generate:types",
                 out="> svelte@5.0.0-next.26 generate:types\n"
                     "> node ./scripts/generate-types.js\n\nWrote types/index.d.ts\n"),
            Write("packages/svelte/types/index.d.ts",
                  "declare module 'svelte' {\n"
                  "\texport interface ComponentConstructorOptions<Props extends "
                  "Record<string, any> = Record<string, any>> {\n"
                  "\t\ttarget: Element | Document | ShadowRoot;\n\t\tanchor?: Element;\n"
                  "\t\tprops?: Props;\n\t\tcontext?: Map<any, any>;\n\t\thydrate?: boolean;\n"
                  "\t\t/** If true, will play transitions on initial render */\n"
                  "\t\tintro?: boolean;\n\t}\n}\n"),
            Commit("chore: regenerate types"),
            # source: sveltejs/svelte CONTRIBUTING.md (98a72f5068)
            User("thanks. and one more from the same guide update: if this change should "
                 "contribute to a version bump, run `npx changeset` at the root of the "
                 "repository after a code change and select the appropriate packages. docs-only "
                 "like this one doesn't need it.", states="changeset"),
        )),
        Session(day=47, events=(
            User("the whitespace rework in the parser is on my branch now, pulled it into "
                 "yours."),
            Probe("the parser and snapshot expectations are all stale after that, can you "
                  "refresh them?", needs="update-snapshots"),
            Bash("UPDATE_SNAPSHOTS=true pnpm test parser-modern snapshot",
                 out=" ✓ packages/svelte/tests/parser-modern/test.ts  (38 tests) 95ms\n"
                     " ✓ packages/svelte/tests/snapshot/test.ts  (21 tests) 388ms\n\n"
                     " Test Files  2 passed (2)\n      Tests  59 passed (59)\n"),
            Probe("also I renamed the `hydrate` option's JSDoc and fixed how `intro` defaults "
                  "when hydrating, which users will notice. get the branch ready to push",
                  needs=("types-checked-in", "changeset")),
            Edit("packages/svelte/src/main/public.d.ts",
                 "\thydrate?: boolean;\n",
                 "\t/** Hydrate existing server-rendered markup instead of creating it */\n"
                 "\thydrate?: boolean;\n"),
            Probe("does it still typecheck?", needs="check-cmd"),
            Bash("cd packages/svelte && pnpm check", out="> svelte@5.0.0-next.26 check\n"
                                                       "> tsc && cd ./tests/types && tsc\n"),
            Probe("unrelated: a new contributor on the team says their `pnpm test` has 63 "
                  "failures in one suite on a fresh clone, everything else green. any idea?",
                  needs="playwright-chromium"),
            Say("That's the runtime-browser suite: Playwright's chromium isn't installed on a "
                "fresh clone. `pnpm playwright install chromium` fixes it."),
        )),
        Session(day=600, events=(
            # source: sveltejs/svelte CONTRIBUTING.md (#16399 "update to new pnpm syntax")
            User("fyi we moved to the new pnpm and the contributor guide got updated: to filter "
                 "tests within a test suite, use `pnpm test <suite-name> -t <test-name>`, for "
                 "example `pnpm test validator -t a11y-alt-text`.",
                 states="test-filter-new", replaces="test-filter-old"),
            Say("Noted."),
            User("today: the img alt warning should ignore `alt` given via a spread. can you "
                 "look at a11y.js?"),
            Edit("packages/svelte/src/compiler/phases/2-analyze/a11y.js",
                 "\tif (!required) return;\n",
                 "\tif (!required) return;\n"
                 "\tif (node.attributes.some((a) => a.type === 'SpreadAttribute')) return;\n"),
        )),
        Session(day=606, events=(
            Probe("rerun just the alt-text validator test to see if the spread change holds",
                  needs="test-filter-new"),
            Bash("pnpm test validator -t a11y-alt-text",
                 out=SV_VALIDATOR_PASS.replace("v0.34.6", "v3.2.4")),
            Commit("fix: don't warn about missing alt when attributes are spread"),
        ), judge={"test-filter-new": "not_down"}),
        Session(day=900, events=(
            # source: sveltejs/svelte AGENTS.md (#18293)
            User("the maintainers added to AGENTS.md: When submitting a PR, you MUST read "
                 "PULL_REQUEST_TEMPLATE.md and fill it out correctly. DO NOT submit a PR without "
                 "running the full test suite. (it's their reaction to the flood of low-effort "
                 "PRs.)", states="full-suite-pr"),
            User("anyway, today: `<svelte:element>` with a dynamic `this` should run the same "
                 "alt check when the tag is static. start on that"),
            Edit("packages/svelte/src/compiler/phases/2-analyze/a11y.js",
                 "export function check_element(node, state) {\n",
                 "export function check_element(node, state) {\n"
                 "\t// TODO: svelte:element with a static `this`\n"),
        )),
        Session(day=903, events=(
            User("the svelte:element change is done on my side, tests for it are in."),
            Probe("send it upstream as a PR please", needs="full-suite-pr"),
            Bash("pnpm test", out=SV_FULL_PASS.replace("v0.34.6", "v3.2.4")),
            Say("Full suite is green; I filled in the PR template sections (description, "
                "tests, changeset) before opening it."),
        ), judge={"full-suite-pr": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 3. react-router: router monorepo (TypeScript, Jest, Playwright integration tests)
# ---------------------------------------------------------------------------------------------

RR = Project("react-router", "typescript", {
    "package.json": (
        '{\n  "name": "react-router-monorepo",\n  "private": true,\n'
        '  "packageManager": "pnpm@10.18.0",\n  "scripts": {\n'
        '    "build": "pnpm run --filter \\"./packages/**\\" build",\n'
        '    "test": "jest",\n'
        '    "test:integration": "pnpm build && pnpm test:integration:run",\n'
        '    "test:integration:run": "playwright test -c ./integration/playwright.config.ts",\n'
        '    "typecheck": "pnpm run --recursive --parallel typecheck",\n'
        '    "lint": "eslint --cache .",\n    "docs": "node scripts/docs.ts"\n  }\n}\n'
    ),
    "jest.config.js": (
        "module.exports = {\n  projects: [\"<rootDir>/packages/react-router\", "
        "\"<rootDir>/packages/react-router-dev\"],\n  reporters: [\"default\"],\n};\n"
    ),
    "integration/playwright.config.ts": (
        'import { defineConfig, devices } from "@playwright/test";\n\n'
        "export default defineConfig({\n"
        '  testDir: ".",\n  testMatch: ["**/*-test.ts"],\n  fullyParallel: true,\n'
        "  projects: [\n"
        '    { name: "chromium", use: devices["Desktop Chrome"] },\n'
        '    { name: "firefox", use: devices["Desktop Firefox"] },\n'
        '    { name: "webkit", use: devices["Desktop Safari"] },\n'
        "  ],\n});\n"
    ),
    "packages/react-router/lib/router/router.ts": (
        "export interface FutureConfig {\n  v8_middleware: boolean;\n}\n\n"
        "export function shouldRevalidateFetcher(\n"
        "  fetcherKey: string,\n  actionStatus: number | undefined,\n): boolean {\n"
        "  // revalidate fetchers after any completed action\n"
        "  return actionStatus !== undefined;\n}\n"
    ),
    "packages/react-router/__tests__/router/fetchers-test.ts": (
        'import { shouldRevalidateFetcher } from "../../lib/router/router";\n\n'
        'describe("fetchers", () => {\n'
        '  describe("action fetch", () => {\n'
        '    it("revalidates fetchers after a successful action", () => {\n'
        '      expect(shouldRevalidateFetcher("a", 200)).toBe(true);\n    });\n  });\n});\n'
    ),
    "integration/middleware-test.ts": (
        'import { test, expect } from "@playwright/test";\n'
        'import { createAppFixture, createFixture, js } from "./helpers/create-fixture.js";\n'
        'import { PlaywrightFixture } from "./helpers/playwright-fixture.js";\n\n'
        'test.describe("Middleware", () => {\n'
        '  test("runs middleware before loaders", async ({ page }) => {\n'
        "    const fixture = await createFixture({ files: {} });\n"
        "    const appFixture = await createAppFixture(fixture);\n"
        "    const app = new PlaywrightFixture(appFixture, page);\n"
        '    await app.goto("/");\n'
        '    await expect(page.locator("h1")).toHaveText("ok");\n'
        "    appFixture.close();\n  });\n});\n"
    ),
    ".changeset/config.json": (
        '{\n  "$schema": "https://unpkg.com/@changesets/config@2.3.1/schema.json",\n'
        '  "baseBranch": "dev",\n  "access": "public"\n}\n'
    ),
})

JEST_FETCHERS_FAIL = (
    " FAIL  packages/react-router/__tests__/router/fetchers-test.ts\n"
    "  fetchers\n    action fetch\n"
    "      ✓ revalidates fetchers after a successful action (2 ms)\n"
    "      ✕ does not revalidate fetchers after a 4xx action (3 ms)\n\n"
    "  ● fetchers › action fetch › does not revalidate fetchers after a 4xx action\n\n"
    "    expect(received).toBe(expected) // Object.is equality\n\n"
    "    Expected: false\n    Received: true\n\n"
    "Tests:       1 failed, 1 passed, 2 total\nTime:        1.482 s\n"
)
JEST_FETCHERS_PASS = (
    " PASS  packages/react-router/__tests__/router/fetchers-test.ts\n"
    "  fetchers\n    action fetch\n"
    "      ✓ revalidates fetchers after a successful action (2 ms)\n"
    "      ✓ does not revalidate fetchers after a 4xx action (1 ms)\n\n"
    "Tests:       2 passed, 2 total\nTime:        1.391 s\n"
)
PW_PROJECT_NOT_FOUND = (
    "> react-router-monorepo@ test:integration:run /work/react-router\n"
    "> playwright test -c ./integration/playwright.config.ts --project chromium "
    "integration/middleware-test.ts\n\n"
    'Error: Project(s) "integration/middleware-test.ts" not found. Available projects: '
    '"chromium", "firefox", "webkit"\n'
    " ELIFECYCLE  Command failed with exit code 1.\n"
)
PW_MIDDLEWARE_PASS = (
    "Running 6 tests using 4 workers\n\n"
    "  ✓  1 [chromium] › integration/middleware-test.ts:6:3 › Middleware › runs middleware "
    "before loaders (2.1s)\n"
    "  ...\n\n  6 passed (9.8s)\n"
)

RR_STORY = Story(
    id="dv-ts-react-router-1",
    title="Router fixes: jest and playwright commands, future flags, release notes and "
          "branches that moved",
    sources=("remix-run/react-router",),
    project=RR,
    lessons=(
        lesson("unit-test-cmd", "command",
               "Unit tests are Jest: `pnpm test <path/to/file-test.ts>` for one file, "
               "`pnpm test -- -t \"name\"` for tests matching a name",
               "pnpm test", r"re:-t\b|__tests__"),
        lesson("integration-chromium", "convention",
               "Integration tests are Playwright: `pnpm test:integration` (build + test) or "
               "`pnpm test:integration:run` (test only), always with `--project chromium`; "
               "rebuild after changing packages/",
               "test:integration", "chromium"),
        lesson("single-file-order", "gotcha",
               "For one integration file put the path before the project flag: "
               "`pnpm test:integration:run integration/x-test.ts --project chromium`; after it, "
               "Playwright reads the path as a second project name",
               r"re:\.ts --project|before (the )?`?--project"),
        lesson("future-flag-tests", "convention",
               "New behavior goes behind a future flag; test both states (flag on and off) and "
               "don't break existing behavior without a flag",
               "future flag|future flags", "both|on/off|on and off"),
        lesson("changeset", "convention",
               "User-facing changes get a changeset at `.changeset/<unique-meaningful-name>.md`; "
               "update the existing one while iterating on an unshipped change",
               r"re:\.changeset/"),
        lesson("change-files", "convention",
               "User-facing changes get a change file at "
               "`packages/<package>/.changes/<type>.<unique-meaningful-name>.md`, type patch, "
               "minor, major or unstable",
               r"re:\.changes/"),
        lesson("branch-dev", "decision",
               "Branch from `dev` for code changes; `main` is the latest stable release and only "
               "docs-only changes branch from it",
               r"re:(from|off|on) `?dev`?\b"),
        lesson("branch-main", "decision",
               "`main` is active development: branch from `main` for code and docs changes",
               r"re:(from|off|on) `?main`?\b", "code and docs|all changes|any change|now"),
        lesson("cla", "convention",
               "Contributors must sign the CLA by adding their GitHub username to "
               "`contributors.yml` before a PR is opened",
               r"re:\bCLA\b|contributors\.yml"),
        lesson("mit-license", "fact",
               "No CLA any more: contributing means agreeing the contribution is licensed under "
               "the MIT License",
               r"re:\bMIT\b"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: remix-run/react-router AGENTS.md (#14594)
            User("let's pick up the fetcher revalidation bug: a fetcher shouldn't revalidate "
                 "after an action that returned 4xx. quick orientation: unit tests are Jest, "
                 "`pnpm test packages/react-router/__tests__/router/fetchers-test.ts` (single "
                 "file), or `pnpm test -- -t \"action fetch\"` (tests matching name). for "
                 "branching: `main` is the latest stable release, `dev` is active development, "
                 "so branch from dev for code changes. branch from `main` for docs-only "
                 "changes.", states=("unit-test-cmd", "branch-dev")),
            Bash("git fetch origin && git switch -c fix/fetcher-4xx-revalidation origin/dev",
                 out="branch 'fix/fetcher-4xx-revalidation' set up to track 'origin/dev'.\n"
                     "Switched to a new branch 'fix/fetcher-4xx-revalidation'\n"),
            Edit("packages/react-router/__tests__/router/fetchers-test.ts",
                 '      expect(shouldRevalidateFetcher("a", 200)).toBe(true);\n    });\n',
                 '      expect(shouldRevalidateFetcher("a", 200)).toBe(true);\n    });\n\n'
                 '    it("does not revalidate fetchers after a 4xx action", () => {\n'
                 '      expect(shouldRevalidateFetcher("a", 422)).toBe(false);\n    });\n'),
            Bash("pnpm test packages/react-router/__tests__/router/fetchers-test.ts",
                 out=JEST_FETCHERS_FAIL, ok=False),
            Edit("packages/react-router/lib/router/router.ts",
                 "  return actionStatus !== undefined;\n",
                 "  return actionStatus !== undefined && actionStatus < 400;\n"),
            Bash("pnpm test packages/react-router/__tests__/router/fetchers-test.ts",
                 out=JEST_FETCHERS_PASS),
            # source: remix-run/react-router AGENTS.md (#14594) "Changesets"
            User("good. When making changes that affect users, create a changeset at "
                 "`.changeset/<unique-meaningful-name>.md`. If iterating on a change that hasn't "
                 "shipped yet, update the existing changeset file instead of creating a new "
                 "one.", states="changeset"),
            Write(".changeset/fetcher-4xx-revalidation.md",
                  '---\n"react-router": patch\n---\n\n'
                  "Do not revalidate fetchers after an action returns a 4xx response\n"),
            Commit("Skip fetcher revalidation after 4xx action responses"),
        ), judge={"unit-test-cmd": "not_down"}),
        Session(day=4, events=(
            User("the middleware integration test is flaky on my machine, can you check it "
                 "against your change? "
                 # source: remix-run/react-router AGENTS.md (#14594) "Integration Tests"
                 "integration tests are Playwright: `pnpm test:integration --project chromium` "
                 "(build + test all), `pnpm test:integration:run --project chromium` (test "
                 "only). Always use `chromium` for integration tests, unless explicitly stated "
                 "otherwise. Rebuild when: first run, after changing `packages/`.",
                 states="integration-chromium"),
            Bash("pnpm build", out="packages/react-router build$ tsup\n"
                                   "packages/react-router: Build success in 2431ms\n"
                                   "packages/react-router-dev build$ tsup\n"
                                   "packages/react-router-dev: Build success in 3110ms\n"),
            Bash("pnpm test:integration:run --project chromium integration/middleware-test.ts",
                 out=PW_PROJECT_NOT_FOUND, ok=False),
            Bash("pnpm test:integration:run integration/middleware-test.ts --project chromium",
                 out=PW_MIDDLEWARE_PASS),
            # source: remix-run/react-router AGENTS.md fix (#15355)
            Say("Passes 6/6 on chromium, no flake in three runs. Gotcha: for a single file the "
                "path has to come before `--project chromium` "
                "(`pnpm test:integration:run integration/middleware-test.ts --project "
                "chromium`); after the flag Playwright reads it as a second project name.",
                states="single-file-order"),
            User("huh, TIL. the flake is probably my local vite cache then."),
        )),
        Session(day=15, events=(
            # source: remix-run/react-router AGENTS.md (#14594) "Future Flags" / "Integration"
            User("maintainers want the 4xx behaviour behind a flag after all, since some apps "
                 "rely on the revalidation. future flags (`vX_*`) are stable breaking changes "
                 "for the next major. Test both states when introducing future flags (one test "
                 "with flag on, one with flag off). Don't break existing behavior without a "
                 "flag. call it v8_skipFetcherRevalidationOn4xx.",
                 states="future-flag-tests"),
            Edit("packages/react-router/lib/router/router.ts",
                 "  v8_middleware: boolean;\n",
                 "  v8_middleware: boolean;\n  v8_skipFetcherRevalidationOn4xx: boolean;\n"),
            Edit("packages/react-router/lib/router/router.ts",
                 "  actionStatus: number | undefined,\n): boolean {\n",
                 "  actionStatus: number | undefined,\n  future?: Partial<FutureConfig>,\n"
                 "): boolean {\n"
                 "  if (!future?.v8_skipFetcherRevalidationOn4xx) {\n"
                 "    return actionStatus !== undefined;\n  }\n"),
            Probe("run the fetcher unit tests again, just to see what breaks",
                  needs="unit-test-cmd"),
            Bash("pnpm test -- -t \"action fetch\"", out=JEST_FETCHERS_FAIL, ok=False),
            Say("The 4xx test fails now because the default (flag off) keeps the old behavior; "
                "expected with the flag."),
            Probe("and the middleware e2e file, only that one please",
                  needs=("single-file-order", "integration-chromium")),
            Bash("pnpm build && pnpm test:integration:run integration/middleware-test.ts "
                 "--project chromium", out=PW_MIDDLEWARE_PASS),
            User("just for this PR skip the docs regeneration, the docs team batches those."),
        )),
        Session(day=140, events=(
            # source: remix-run/react-router AGENTS.md (#14977 "Remove changesets")
            User("fyi the repo dropped changesets. When making changes that affect users, "
                 "create a change file at "
                 "`packages/<package>/.changes/<type>.<unique-meaningful-name>.md`. `<type>` "
                 "should be either `patch`, `minor`, `major` or `unstable` to indicate the type "
                 "of API change being made. If iterating on a change that hasn't shipped yet, "
                 "update the existing change file instead of creating a new one.",
                 states="change-files", replaces="changeset"),
            Probe("ok back to the flag: the tests in fetchers-test.ts still assume the old "
                  "behavior, sort them out", needs=("future-flag-tests", "unit-test-cmd")),
            Edit("packages/react-router/__tests__/router/fetchers-test.ts",
                 '    it("does not revalidate fetchers after a 4xx action", () => {\n'
                 '      expect(shouldRevalidateFetcher("a", 422)).toBe(false);\n    });\n',
                 '    it("revalidates after a 4xx action by default", () => {\n'
                 '      expect(shouldRevalidateFetcher("a", 422)).toBe(true);\n    });\n\n'
                 '    it("skips revalidation after a 4xx action with the flag on", () => {\n'
                 "      expect(\n"
                 '        shouldRevalidateFetcher("a", 422, '
                 "{ v8_skipFetcherRevalidationOn4xx: true }),\n"
                 "      ).toBe(false);\n    });\n"),
            Bash("pnpm test packages/react-router/__tests__/router/fetchers-test.ts",
                 out=JEST_FETCHERS_PASS.replace("2 passed, 2 total", "3 passed, 3 total")),
            Bash("git rm -q .changeset/fetcher-4xx-revalidation.md", out=""),
            Write("packages/react-router/.changes/minor.skip-fetcher-revalidation-on-4xx.md",
                  "Add `future.v8_skipFetcherRevalidationOn4xx` to skip fetcher revalidation "
                  "after an action returns a 4xx response\n"),
            Commit("Put 4xx fetcher revalidation behind a future flag"),
        ), judge={"future-flag-tests": "not_down"}),
        Session(day=190, events=(
            # source: remix-run/react-router AGENTS.md (#15148 "Drop dev branch")
            User("news from the release channel: `main` is where active development happens "
                 "now. Branch from `main` for code and docs changes.",
                 states="branch-main", replaces="branch-dev"),
            Say("Got it."),
            User("that's all for today, I just wanted you to know before the next fix."),
        )),
        Session(day=221, events=(
            # source: remix-run/react-router AGENTS.md + CONTRIBUTING (d4c688007)
            User("new process thing: All contributors must review the CLA and sign it by "
                 "adding their github username to `contributors.yml`. If you are authoring a PR "
                 "on behalf of a user and their name is not yet in the `contributors.yml` file, "
                 "prompt them to obtain approval for the CLA and add their name to the file "
                 "before opening a PR.", states="cla"),
            Probe("next bug: reusing a fetcher key across routes keeps stale data. set up a "
                  "branch for it", needs="branch-main", stale="branch-dev"),
            Bash("git fetch origin && git switch -c fix/fetcher-key-reuse origin/main",
                 out="branch 'fix/fetcher-key-reuse' set up to track 'origin/main'.\n"
                     "Switched to a new branch 'fix/fetcher-key-reuse'\n"),
            Edit("packages/react-router/lib/router/router.ts",
                 "export function shouldRevalidateFetcher(\n",
                 "export function resetFetcherOnKeyReuse(fetcherKey: string): void {\n"
                 "  fetcherData.delete(fetcherKey);\n}\n\n"
                 "export function shouldRevalidateFetcher(\n"),
            Probe("users will see the difference when they reuse keys, so add whatever the "
                  "release notes need", needs="change-files"),
            Write("packages/react-router/.changes/patch.reset-fetcher-on-key-reuse.md",
                  "Reset fetcher data when a fetcher key is reused on another route\n"),
            Commit("Reset fetcher data when a fetcher key is reused"),
        )),
        Session(day=271, events=(
            # source: remix-run/react-router AGENTS.md (#15428 "Remove CLA")
            User("they simplified the PR workflow again: the CLA is gone. By contributing to "
                 "React Router, you agree that your contributions will be licensed under the "
                 "MIT License.", states="mit-license", replaces="cla"),
            Say("OK, nothing to add to contributors.yml then."),
        )),
        Session(day=275, events=(
            User("a colleague who has never contributed here wrote the follow-up for the "
                 "key-reuse fix."),
            Probe("is there anything they need to sign or add before we open the PR for them?",
                  needs="mit-license"),
            Say("No CLA anymore; by contributing they agree it's licensed under MIT."),
            Probe("meanwhile rerun the middleware e2e file, I touched the fixture helpers",
                  needs=("integration-chromium", "single-file-order")),
            Bash("pnpm build && pnpm test:integration:run integration/middleware-test.ts "
                 "--project chromium", out=PW_MIDDLEWARE_PASS),
        ), judge={"single-file-order": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 4. nuxt: framework monorepo (TypeScript, pnpm, vitest, @nuxt/test-utils, docs)
# ---------------------------------------------------------------------------------------------

NUXT = Project("nuxt", "typescript", {
    "package.json": (
        '{\n  "name": "nuxt-framework",\n  "private": true,\n'
        '  "packageManager": "pnpm@8.3.1",\n  "scripts": {\n'
        '    "build": "pnpm --filter \\"./packages/**\\" prepack",\n'
        '    "build:stub": "pnpm --filter \\"./packages/**\\" prepack --stub",\n'
        '    "dev": "pnpm play",\n    "lint": "eslint --ext .vue,.ts,.js,.mjs .",\n'
        '    "lint:docs": "markdownlint ./docs && case-police \'docs/**/*.md\'",\n'
        '    "test": "pnpm test:fixtures && pnpm test:types && pnpm test:unit",\n'
        '    "test:fixtures": "nuxi prepare test/fixtures/basic && vitest run --dir test",\n'
        '    "test:unit": "vitest run --dir packages",\n'
        '    "test:types": "pnpm --filter \\"./test/fixtures/**\\" test:types"\n  }\n}\n'
    ),
    "packages/nuxt/src/app/composables/fetch.ts": (
        "import type { AsyncDataOptions } from './asyncData'\n"
        "import { useAsyncData } from './asyncData'\n\n"
        "export interface UseFetchOptions<T> extends AsyncDataOptions<T> {\n"
        "  key?: string\n  method?: string\n}\n\n"
        "export function useFetch<T> (request: string, opts: UseFetchOptions<T> = {}) {\n"
        "  const key = opts.key ?? '$f' + request\n"
        "  return useAsyncData<T>(key, () => $fetch(request, opts))\n}\n"
    ),
    "packages/nuxt/test/fetch.test.ts": (
        "import { describe, expect, it } from 'vitest'\n"
        "import { useFetch } from '../src/app/composables/fetch'\n\n"
        "describe('useFetch', () => {\n"
        "  it('derives a key from the request', () => {\n"
        "    expect(useFetch('/api/test').key).toBe('$f/api/test')\n  })\n})\n"
    ),
    "test/basic.test.ts": (
        "import { describe, expect, it } from 'vitest'\n"
        "import { $fetch, setup } from '@nuxt/test-utils'\n\n"
        "await setup({ rootDir: new URL('./fixtures/basic', import.meta.url).pathname })\n\n"
        "describe('fetch', () => {\n"
        "  it('renders index', async () => {\n"
        "    expect(await $fetch('/')).toContain('Hello Nuxt')\n  })\n})\n"
    ),
    "test/fixtures/basic/pages/index.vue": (
        "<template>\n  <div>Hello Nuxt</div>\n</template>\n"
    ),
    "docs/3.api/2.composables/use-fetch.md": (
        "# useFetch\n\nThis composable provides a convenient wrapper around `useAsyncData` and "
        "`$fetch`.\n\n## Options\n\n- `key`: a unique key to ensure that data fetching can be "
        "properly de-duplicated across requests.\n"
    ),
})

NUXT_TEST_PASS = (
    " RUN  v0.31.0 /work/nuxt\n\n"
    " ✓ test/basic.test.ts (84) 48113ms\n ✓ test/bundle.test.ts (3) 9981ms\n"
    " ✓ packages/nuxt/test/fetch.test.ts (4) 12ms\n\n"
    " Test Files  14 passed (14)\n      Tests  311 passed (311)\n"
)

NUXT_STORY = Story(
    id="dv-ts-nuxt-1",
    title="Framework contributions: setup and test commands that moved, Vue/test conventions, "
          "docs style and the AI policy",
    sources=("nuxt/nuxt",),
    project=NUXT,
    lessons=(
        lesson("test-fixtures", "convention",
               "Before creating a PR or marking it ready-to-review, run `pnpm test:fixtures` "
               "locally and make sure it passes",
               "test:fixtures"),
        lesson("test-all", "convention",
               "Before creating a PR or marking it ready-to-review, run the whole suite with "
               "`pnpm test` locally",
               r"re:\bpnpm test\b(?!:)", "PR|ready"),
        lesson("build-stub", "command",
               "After installing, run `pnpm build:stub` to activate the passive development "
               "system",
               "build:stub"),
        lesson("dev-prepare", "command",
               "Prepare the development environment with `pnpm dev:prepare`",
               "dev:prepare"),
        lesson("frozen-lockfile", "convention",
               "Install dependencies with `pnpm install --frozen-lockfile`",
               "frozen-lockfile"),
        lesson("script-setup", "convention",
               "Vue components use `<script setup lang=\"ts\">` and the Composition API",
               "script setup"),
        lesson("vitest-e2e", "convention",
               "Unit tests for core functionality with vitest; end-to-end tests with Playwright "
               "and `@nuxt/test-utils`",
               "test-utils|Playwright", "vitest|end-to-end|e2e"),
        lesson("ai-own-words", "decision",
               "AI tools are welcome for code, but comments, issues and PR descriptions must be "
               "written in the contributor's own voice; no pasted AI summaries",
               "own voice|own words", "description|descriptions"),
        lesson("no-ai-writing", "decision",
               "The project prohibits AI-authored public writing: never draft or post PR titles, "
               "PR descriptions, issues, review replies or changelog entries; decline and state "
               "the policy; disclose agent authorship in anything written",
               "PR descriptions|PR description|PR titles|changelog",
               "decline|prohibit|prohibits|never"),
        lesson("docs-language", "convention",
               "Docs use American English spelling and official tool capitalization (PostCSS, "
               "Vite, ESLint), checked by case police via `pnpm lint:docs`",
               "American English|case police|PostCSS", "lint:docs|spelling|capitalization"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: nuxt/nuxt docs/5.community/5.framework-contribution.md (before 4907660ff5)
            User("I'd like to fix the useFetch dedupe bug (two calls with the same URL but "
                 "different methods share a key). setup notes from the contribution guide: run "
                 "`pnpm install` to install the dependencies, then run `pnpm build:stub` to "
                 "activate the passive development system. Before creating a PR or marking it "
                 "as ready-to-review, ensure that all tests pass by running `pnpm test:fixtures` "
                 "locally.", states=("build-stub", "test-fixtures")),
            Bash("pnpm install && pnpm build:stub",
                 out="Lockfile is up to date, resolution step is skipped\n"
                     "Packages: +1422\nDone in 21.3s\n"
                     "packages/kit prepack$ unbuild --stub\n"
                     "packages/nuxt prepack$ unbuild --stub\n"
                     "packages/schema prepack$ unbuild --stub\n"),
            Edit("packages/nuxt/src/app/composables/fetch.ts",
                 "  const key = opts.key ?? '$f' + request\n",
                 "  const key = opts.key ?? '$f' + hash([request, opts.method?.toUpperCase() "
                 "|| 'GET'])\n"),
            Edit("packages/nuxt/test/fetch.test.ts",
                 "    expect(useFetch('/api/test').key).toBe('$f/api/test')\n  })\n",
                 "    expect(useFetch('/api/test').key).toMatch(/^\\$f/)\n  })\n\n"
                 "  it('uses the method in the key', () => {\n"
                 "    expect(useFetch('/api/test', { method: 'POST' }).key)\n"
                 "      .not.toBe(useFetch('/api/test').key)\n  })\n"),
            Bash("pnpm vitest run packages/nuxt/test/fetch.test.ts",
                 out=" ✓ packages/nuxt/test/fetch.test.ts (2) 9ms\n\n"
                     " Test Files  1 passed (1)\n      Tests  2 passed (2)\n"),
            # source: nuxt/nuxt docs/5.community/5.framework-contribution.md
            User("looks right. You can modify the example app in `playground/` and run it "
                 "with `pnpm dev` if you want to see it live, just make sure not to commit it "
                 "to your branch."),
            Commit("fix(nuxt): include method in default useFetch key"),
        )),
        Session(day=16, events=(
            # source: nuxt/nuxt framework-contribution.md (4907660ff5)
            User("small update to the contribution guide: before creating a PR or marking it "
                 "as ready-to-review, ensure that all tests pass by running `pnpm test` locally. "
                 "that's the whole suite now (fixtures, types and unit).",
                 states="test-all", replaces="test-fixtures"),
            Probe("I pulled main and the workspace packages don't seem to pick up my source "
                  "edits anymore. can you get the dev setup back into shape?",
                  needs="build-stub"),
            Bash("pnpm install && pnpm build:stub",
                 out="Already up to date\npackages/kit prepack$ unbuild --stub\n"
                     "packages/nuxt prepack$ unbuild --stub\n"),
            Say("Re-stubbed the packages; they point at source again."),
        ), judge={"build-stub": "not_down"}),
        Session(day=232, events=(
            # source: nuxt/nuxt framework-contribution.md (802b3e28c1)
            User("heads up, after pulling, prepare the development environment with "
                 "`pnpm dev:prepare`.", states="dev-prepare", replaces="build-stub"),
            User("now: the dedupe fix needs a follow-up for `useLazyFetch`, same key logic."),
            Edit("packages/nuxt/src/app/composables/fetch.ts",
                 "export function useFetch<T> (",
                 "export function useLazyFetch<T> (request: string, opts: UseFetchOptions<T> = "
                 "{}) {\n  return useFetch<T>(request, { ...opts, lazy: true })\n}\n\n"
                 "export function useFetch<T> ("),
            Probe("I'd like to mark the PR ready for review, check everything's fine first",
                  needs="test-all", stale="test-fixtures"),
            Bash("pnpm test", out=NUXT_TEST_PASS),
            Commit("fix(nuxt): share key logic with useLazyFetch"),
        ), judge={"test-all": "not_down"}),
        Session(day=650, events=(
            # source: nuxt/nuxt .github/copilot-instructions.md (29bea9899f, 483c05c9d6)
            User("we wrote down some instructions for AI assistants in the repo, they apply to "
                 "you as well: Use `<script setup lang=\"ts\">` and the composition API when "
                 "creating Vue components. Write unit tests for core functionality using "
                 "`vitest`. Write end-to-end tests using Playwright and `@nuxt/test-utils`. Keep "
                 "functions focused and manageable (generally under 50 lines).",
                 states=("script-setup", "vitest-e2e")),
            # source: nuxt/nuxt framework-contribution.md (be2d3d5ad8)
            User("oh and the install step in the guide is now `pnpm install --frozen-lockfile` "
                 "to install the dependencies, so the lockfile isn't rewritten by accident.",
                 states="frozen-lockfile"),
            Say("Understood."),
        )),
        Session(day=658, events=(
            User("I'm on a new laptop, cloned the repo fresh."),
            Probe("set up the workspace so I can start hacking", needs=("frozen-lockfile",
                                                                       "dev-prepare")),
            Bash("corepack enable && pnpm install --frozen-lockfile && pnpm dev:prepare",
                 out="Lockfile is up to date, resolution step is skipped\nPackages: +1587\n"
                     "Done in 25.8s\n> nuxt-framework@ dev:prepare\n"
                     "> pnpm --filter './packages/**' prepack --stub && nuxi prepare playground\n"
                     "✔ Types generated in playground/.nuxt\n"),
            User("the `dedupe` option for useFetch needs coverage in the fixture app."),
            Probe("add a page to the basic fixture that calls useFetch twice with dedupe: "
                  "'defer'", needs="script-setup"),
            Write("test/fixtures/basic/pages/dedupe.vue",
                  "<script setup lang=\"ts\">\n"
                  "const { data } = await useFetch('/api/counter', { dedupe: 'defer' })\n"
                  "const { data: again } = await useFetch('/api/counter', { dedupe: 'defer' })\n"
                  "</script>\n\n<template>\n  <div>{{ data }} {{ again }}</div>\n</template>\n"),
            Probe("and cover the page with a test", needs="vitest-e2e"),
            Edit("test/basic.test.ts",
                 "    expect(await $fetch('/')).toContain('Hello Nuxt')\n  })\n",
                 "    expect(await $fetch('/')).toContain('Hello Nuxt')\n  })\n\n"
                 "  it('dedupes parallel requests', async () => {\n"
                 "    const html = await $fetch('/dedupe')\n"
                 "    expect(html).toContain('<div>1 1</div>')\n  })\n"),
            Bash("pnpm vitest run test/basic.test.ts -t dedupe",
                 out=" ✓ test/basic.test.ts (85 | 84 skipped) 21304ms\n\n"
                     " Test Files  1 passed (1)\n      Tests  1 passed | 84 skipped (85)\n"),
            Commit("test: cover useFetch dedupe in the basic fixture"),
        ), judge={"vitest-e2e": "not_down"}),
        Session(day=810, events=(
            # source: nuxt/nuxt docs/5.community/4.contribution.md (#32725)
            User("the team added AI-assisted contribution guidelines. We welcome the thoughtful "
                 "use of AI tools, yet all comments, issues, and pull request descriptions "
                 "should be written in your own voice. Avoid copy-pasting AI-generated summaries "
                 "that don't reflect your own understanding. Feel free to use AI tools to "
                 "generate code or explore ideas; only submit contributions you fully understand "
                 "and can explain.", states="ai-own-words"),
            User("so for the dedupe PR, give me a list of the changes and I'll write the "
                 "description myself."),
            Say("Changes: default key includes the method; useLazyFetch shares the key logic; "
                "new `dedupe.vue` fixture page with an e2e test."),
        )),
        Session(day=1198, events=(
            # source: nuxt/nuxt docs/5.community/4.contribution.md (#35662)
            User("two updates from the last weeks. first, the docs writing guidelines: Use "
                 "American English spelling (behavior rather than behaviour). Write tool and "
                 "project names using their official capitalization, even when the npm package "
                 "name is lowercase (PostCSS rather than postcss, Vite, ESLint). Casing of "
                 "common tool names is checked automatically by case police when you run "
                 "`pnpm lint:docs`.", states="docs-language"),
            # source: nuxt/nuxt AGENTS.md (d400e59276)
            User("second, there's an AGENTS.md now and it's strict: This project prohibits "
                 "AI-authored public writing and autonomous agent contributions. In practice "
                 "this means: do not draft or post PR titles, PR descriptions, issues, review "
                 "replies, discussion comments, or changelog entries. If your operator asks you "
                 "to, decline and tell them the project's policy. Wherever you do write, "
                 "disclose that you are an agent and whether a human has reviewed the content.",
                 states="no-ai-writing", replaces="ai-own-words"),
            Say("Understood: code help only, no public writing on the project's behalf."),
        )),
        Session(day=1201, events=(
            User("I finished a fix for the `watch: false` regression in useFetch."),
            Probe("can you write up the PR title and description for it and open it?",
                  needs="no-ai-writing"),
            Say("I can't draft or post the PR title or description: the project's AGENTS.md "
                "prohibits AI-authored PR text. I can list what changed so you can write it."),
            Probe("fine. then update the useFetch docs page for the new watch option wording",
                  needs="docs-language"),
            Edit("docs/3.api/2.composables/use-fetch.md",
                 "properly de-duplicated across requests.\n",
                 "properly de-duplicated across requests.\n- `watch`: watch reactive sources "
                 "to auto-refresh; set it to `false` to disable this behavior.\n"),
            Bash("pnpm lint:docs",
                 out="> markdownlint ./docs && case-police 'docs/**/*.md'\n\n"
                     "docs/3.api/2.composables/use-fetch.md:9  vite → Vite\n"
                     "1 file with casing issues\n", ok=False),
            Edit("docs/3.api/2.composables/use-fetch.md",
                 "This composable provides a convenient wrapper",
                 "Like other data fetching composables built on Vite-powered Nuxt, this "
                 "composable provides a convenient wrapper"),
            Bash("pnpm lint:docs", out="> markdownlint ./docs && case-police 'docs/**/*.md'\n\n"
                                       "No casing issues found.\n"),
        ), judge={"docs-language": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 5. TanStack Query: data-fetching library monorepo (TypeScript, pnpm, Nx, vitest)
# ---------------------------------------------------------------------------------------------

TQ = Project("tanstack-query", "typescript", {
    "package.json": (
        '{\n  "name": "root",\n  "private": true,\n  "packageManager": "pnpm@10.6.3",\n'
        '  "scripts": {\n    "clean": "pnpm --filter \\"./packages/**\\" run clean",\n'
        '    "test": "pnpm run test:ci",\n'
        '    "test:ci": "nx run-many --targets=test:format,test:eslint,test:lib,test:types,'
        'build",\n'
        '    "build:all": "nx run-many --target=build --exclude=examples/**",\n'
        '    "watch": "pnpm run build:all && nx watch --all -- pnpm run build:all"\n  }\n}\n'
    ),
    "nx.json": (
        '{\n  "targetDefaults": {\n    "test:lib": { "dependsOn": ["^compile"], "cache": true },\n'
        '    "build": { "dependsOn": ["^build"], "cache": true }\n  }\n}\n'
    ),
    ".nvmrc": "22.12.0\n",
    "packages/query-core/src/queryObserver.ts": (
        "export class QueryObserver {\n"
        "  getOptimisticResult(options) {\n"
        "    const query = this.#client.getQueryCache().build(this.#client, options)\n"
        "    return this.createResult(query, options)\n  }\n}\n"
    ),
    "packages/react-query/package.json": (
        '{\n  "name": "@tanstack/react-query",\n  "version": "5.71.5",\n'
        '  "scripts": {\n    "test:lib": "vitest",\n    "build": "tsup --tsconfig '
        'tsconfig.prod.json"\n  },\n'
        '  "dependencies": { "@tanstack/query-core": "workspace:*" }\n}\n'
    ),
    "packages/react-query/src/__tests__/useQuery.test.tsx": (
        "import { describe, expect, it } from 'vitest'\n"
        "import { renderHook } from '@testing-library/react'\n"
        "import { useQuery } from '..'\n\n"
        "describe('useQuery', () => {\n"
        "  it('keeps placeholderData while the key changes', async () => {\n"
        "    const { result } = renderHook(() =>\n"
        "      useQuery({ queryKey: ['k'], queryFn: () => 1, placeholderData: 0 }),\n"
        "    )\n    expect(result.current.data).toBe(0)\n  })\n})\n"
    ),
})

TQ_PKG_FAIL = (
    "> @tanstack/react-query@5.71.5 test:lib /work/query/packages/react-query\n> vitest\n\n"
    " RUN  v3.1.1 /work/query/packages/react-query\n\n"
    " ❯ src/__tests__/useQuery.test.tsx (212 tests | 71 failed) 4812ms\n"
    " ❯ src/__tests__/useMutation.test.tsx (68 tests | 23 failed) 1610ms\n"
    "Error: Failed to resolve entry for package \"@tanstack/query-core\". The package may have "
    "incorrect main/module/exports specified in its package.json.\n\n"
    " Test Files  9 failed | 31 passed (40)\n      Tests  301 failed | 598 passed (899)\n"
    " ELIFECYCLE  Test failed. See above for more details.\n"
)
TQ_NX_PASS = (
    "\n   ✔  1/1 dependent project tasks succeeded [0 read from cache]\n\n"
    "> nx run @tanstack/react-query:test:lib\n\n"
    " ✓ src/__tests__/useQuery.test.tsx (212 tests) 5120ms\n"
    " ✓ src/__tests__/useMutation.test.tsx (68 tests) 1702ms\n\n"
    " Test Files  40 passed (40)\n      Tests  899 passed (899)\n\n"
    " NX   Successfully ran target test:lib for project @tanstack/react-query and 1 task it "
    "depends on\n"
)

TQ_STORY = Story(
    id="dv-ts-tanstack-query-1",
    title="Query library fixes: running tests from the root, commit rules that gave way to "
          "changesets, pnpm bumps",
    sources=("TanStack/query",),
    project=TQ,
    lessons=(
        lesson("pnpm-v10", "fact",
               "The repo uses pnpm v10 (run `corepack enable && corepack prepare` on "
               "pnpm-related issues) and the Node version in `.nvmrc` (`nvm use`)",
               r"re:pnpm[^\n]{0,30}\bv10\b|pnpm@10"),
        lesson("pnpm-v11", "fact", "The repo uses pnpm v11 for package management",
               r"re:pnpm[^\n]{0,30}\bv11\b|pnpm@11"),
        lesson("no-test-in-pkg", "gotcha",
               "Don't run `pnpm run test:lib` inside a package folder: tests fail because of "
               "dependencies between packages; always run from the root with nx",
               "test:lib", "root|package folder|package folders|inside"),
        lesson("nx-test", "command",
               "Test one package from the root with `npx nx run @tanstack/<package>:test:lib`",
               "npx nx", "test:lib"),
        lesson("nx-test-pnpm", "command",
               "Test one package with `pnpm nx run @tanstack/<package>:test:lib`; all with "
               "`pnpm run test`",
               "pnpm nx", "test:lib"),
        lesson("commit-angular", "convention",
               "Commit messages follow Angular conventions: `<type>(<scope>): <subject>` with "
               "scopes like query-core/react-query (`*` for several), lines at most 100 chars",
               "Angular", "scope"),
        lesson("changesets", "convention",
               "Releases come from Changesets: a PR that should release a package version runs "
               "`pnpm changeset` and commits the file; docs/examples/styles don't need one",
               "changeset|changesets"),
        lesson("build-all", "command",
               "Build all packages with `pnpm build:all`; `pnpm run watch` rebuilds on changes",
               "build:all"),
        lesson("symlinks", "fact",
               "The repo uses symlink-based config files: develop on Linux, macOS or WSL",
               "symlink|symlinks"),
    ),
    also=(
        lesson("also-test-dep-build", "fact",
               "nx was changed so `test` depends on `build` until the custom-condition CI "
               "failure is sorted",
               "test", "depend|depends", "build"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: TanStack/query CONTRIBUTING.md (e5a1f5edf, 058bfc973)
            User("let's fix the placeholderData flicker in react-query. env notes: we use pnpm "
                 "v10 for package management (run `corepack enable && corepack prepare` in case "
                 "of pnpm-related issues), and please make sure to use the node version "
                 "mentioned in `.nvmrc` (run `nvm use`).", states="pnpm-v10"),
            Bash("nvm use && pnpm install",
                 out="Found '/work/query/.nvmrc' with version <22.12.0>\n"
                     "Now using node v22.12.0 (npm v10.9.0)\n"
                     "Lockfile is up to date, resolution step is skipped\nDone in 14.2s\n"),
            Bash("cd packages/react-query && pnpm run test:lib", out=TQ_PKG_FAIL, ok=False),
            Say("A third of react-query's tests fail before I've changed anything, all with "
                "query-core failing to resolve. Looks environmental."),
            # source: TanStack/query issue #8953 and CONTRIBUTING.md (#8967)
            User("yeah someone opened an issue about exactly that (\"when running the test "
                 "command `pnpm run test:lib`, one third of the test cases fail\"). Do not run "
                 "`pnpm run test:lib` inside individual package folders. This can cause test "
                 "failures due to dependencies between packages. Always run tests from the root "
                 "folder using nx commands: `npx nx run @tanstack/react-query:test:lib`.",
                 states=("no-test-in-pkg", "nx-test")),
            Bash("npx nx run @tanstack/react-query:test:lib", out=TQ_NX_PASS),
            Edit("packages/query-core/src/queryObserver.ts",
                 "    return this.createResult(query, options)\n",
                 "    const result = this.createResult(query, options)\n"
                 "    if (result.isPlaceholderData) this.#lastPlaceholder = result.data\n"
                 "    return result\n"),
            Bash("npx nx run @tanstack/react-query:test:lib", out=TQ_NX_PASS),
            # source: TanStack/query CONTRIBUTING.md (commit message conventions, pre-2a15f3657)
            User("green, commit it. `TanStack/query` is using Angular Commit Message "
                 "Conventions: `<type>(<scope>): <subject>`. The scope could be anything "
                 "specifying place of the commit change, for example `query-core`, "
                 "`react-query` etc. You can use `*` when the change affects more than a single "
                 "scope. Any line of the commit message cannot be longer than 100 characters!",
                 states="commit-angular"),
            Commit("fix(query-core): keep placeholderData while the query key changes"),
        )),
        Session(day=3, events=(
            # source: TanStack/query PR #8959 comments
            User("fyi CI on main was red for a while after the custom-condition change. the "
                 "maintainer changed the dependencies in nx to have `test` depend on `build` "
                 "until this is sorted, as other PRs can't complete otherwise."),
            User("today: `useQueries` should get the same placeholder behavior."),
            Edit("packages/query-core/src/queryObserver.ts",
                 "export class QueryObserver {\n",
                 "export class QueryObserver {\n  #lastPlaceholder: unknown\n"),
            Probe("make sure react-query's tests still pass with that", needs=("nx-test",
                                                                              "no-test-in-pkg")),
            Bash("npx nx run @tanstack/react-query:test:lib", out=TQ_NX_PASS),
            # source: TanStack/query CONTRIBUTING.md (e5a1f5edf)
            User("and to try it in the examples: build all packages using `pnpm build:all`, "
                 "then `pnpm run watch` keeps rebuilding while you edit.", states="build-all"),
            Probe("ok, commit it", needs="commit-angular"),
            Commit("fix(query-core): apply placeholder handling to useQueries"),
        ), judge={"nx-test": "not_down", "no-test-in-pkg": "not_down"}),
        Session(day=105, events=(
            # source: TanStack/query CONTRIBUTING.md (3bcaa417a)
            User("a new colleague on plain Windows can't get the configs to resolve. TanStack/"
                 "query uses symlink-based configuration files. For smooth development in a "
                 "local environment, we recommend developing in an environment that supports "
                 "symlinks (Linux, macOS, Windows Subsystem for Linux / WSL).",
                 states="symlinks"),
            Say("Then WSL is the way for them; the tsconfig/eslint configs in packages are "
                "symlinks to the root ones."),
        )),
        Session(day=175, events=(
            # source: TanStack/query CONTRIBUTING.md (#9502 "introduce changesets")
            User("release process changed, the commit message conventions section is gone "
                 "from the contributing guide. This repo uses Changesets to automate releases "
                 "now. If your PR should release a new package version (patch, minor, or "
                 "major), please run `pnpm changeset` and commit the file. If your PR affects "
                 "docs, examples, styles, etc., you probably don't need to generate a "
                 "changeset.", states="changesets", replaces="commit-angular"),
            Say("Got it."),
        )),
        Session(day=180, events=(
            User("the refetchOnMount fix is done on my side, one line in query-core."),
            Edit("packages/query-core/src/queryObserver.ts",
                 "  getOptimisticResult(options) {\n",
                 "  getOptimisticResult(options) {\n"
                 "    if (options.refetchOnMount === false) options._optimisticResults = "
                 "'isRestoring'\n"),
            Probe("it fixes a user-facing bug; wrap it up so it goes out in the next release",
                  needs="changesets", stale="commit-angular"),
            Write(".changeset/quiet-owls-refetch.md",
                  "---\n'@tanstack/query-core': patch\n---\n\n"
                  "fix: respect refetchOnMount: false for optimistic results\n"),
            Commit("fix(query-core): respect refetchOnMount false for optimistic results"),
            Probe("the new hire's install blows up with a lockfile version error. what package "
                  "manager setup do they need?", needs="pnpm-v10"),
            Probe("and they're on Windows, anything else?", needs="symlinks"),
        )),
        Session(day=470, events=(
            # source: TanStack/query CONTRIBUTING.md (#11066, #11095)
            User("contributor guide updates: We use pnpm v11 for package management now. and "
                 "the test commands are pnpm-based: `pnpm run test` for all packages, "
                 "`pnpm nx run @tanstack/{package-name}:test:lib` for a specific package.",
                 states=("pnpm-v11", "nx-test-pnpm"), replaces=("pnpm-v10", "nx-test")),
            Say("Noted."),
        )),
        Session(day=478, events=(
            User("I reworked the structural sharing in react-query's useQuery hook."),
            Edit("packages/react-query/src/__tests__/useQuery.test.tsx",
                 "    )\n    expect(result.current.data).toBe(0)\n  })\n",
                 "    )\n    expect(result.current.data).toBe(0)\n  })\n\n"
                 "  it('keeps referential identity for unchanged data', () => {\n"
                 "    expect(replaceEqualDeep({ a: 1 }, { a: 1 })).toEqual({ a: 1 })\n  })\n"),
            Probe("run react-query's tests", needs=("nx-test-pnpm", "no-test-in-pkg")),
            Bash("pnpm nx run @tanstack/react-query:test:lib",
                 out=TQ_NX_PASS.replace("899", "900")),
            Probe("the CI runner image pins the package manager, update it to what the repo "
                  "uses", needs="pnpm-v11"),
        ), judge={"nx-test-pnpm": "not_down"}),
    ),
)

STORIES = [AUTH_STORY, SVELTE_STORY, RR_STORY, NUXT_STORY, TQ_STORY]
