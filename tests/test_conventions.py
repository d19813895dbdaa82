"""The rule detector: standing conventions and decisions found in what people write, chatter
and one-off requests left out, and which newer rule replaces which older one."""

from __future__ import annotations

import pytest

from kenning.extract.conventions import (
    TOOL_FAMILIES,
    Rule,
    find_rules,
    same_subject,
    supersedes,
)

# (message, words the rule's text must keep, kind) — plain, indirect, hedged and chat-style.
RULES: list[tuple[str, list[str], str]] = [
    ("Always use pnpm, never npm.", ["pnpm", "never npm"], "convention"),
    ("let's go back to tabs.", ["Go back to tabs"], "decision"),
    ("do it, switch to keyset pagination with a next_cursor in the response.",
     ["Switch to keyset pagination", "next_cursor"], "decision"),
    ("I'd like you to run the tests with `uv run pytest -q`, not bare pytest.",
     ["`uv run pytest -q`", "not bare pytest"], "convention"),
    ("First, always run `make check` before you commit.", ["`make check`", "before you commit"],
     "convention"),
    ("going forward, use httpx instead of requests", ["httpx", "instead of requests"],
     "convention"),
    ("make sure to add type hints to new functions", ["type hints", "new functions"],
     "convention"),
    ("from now on use conventional commits for commit messages", ["conventional commits"],
     "convention"),
    ("our convention is snake_case for file names", ["snake_case", "file names"], "convention"),
    ("we prefer named exports over default exports", ["Prefer named exports"], "convention"),
    ("let's stick to pytest fixtures rather than setUp methods", ["pytest fixtures", "setUp"],
     "convention"),
    ("no more default exports", ["No more default exports"], "convention"),
    ("please keep functions under 50 lines", ["Keep functions under 50 lines"], "convention"),
    ("every PR needs a `CHANGELOG.md` entry", ["every PR", "CHANGELOG.md"], "convention"),
    ("from now on colour output goes through anstream.", ["colour output", "anstream"],
     "convention"),
    ("could you add a dedicated error? the way errors work in this lib: everything we throw "
     "extends RetrywellError and carries a string `code`.", ["extends RetrywellError", "code"],
     "convention"),
    ("every handler we add returns a `Result`, no panics", ["every handler", "Result"],
     "convention"),
    ("and please don't ever paper over this kind of thing with an ignore in filterwarnings: "
     "warnings-as-errors is there on purpose, it's how we found out today",
     ["paper over", "filterwarnings"], "convention"),
    ("also we do conventional commits here (feat:, fix:, chore: ...), the changelog gets "
     "generated from them.", ["conventional commits"], "convention"),
    ("yeah, that settles it. scratch the async migration: back to plain def handlers with the "
     "normal Session, FastAPI's threadpool was never the problem.", ["back to plain def"],
     "decision"),
    ("heads up, this repo is pnpm only, please don't ever run npm or yarn in here",
     ["pnpm only"], "convention"),
    ("commit subjects start with the package or area, Go style: `cmd/deploy: …`",
     ["Commit subjects start with the package"], "convention"),
    ("and one thing that bugs me: make sure errors in commands raise click.ClickException.",
     ["errors in commands raise click.ClickException"], "convention"),
    ("hmm, one thing that bugs me: please never log from library code. a console.warn ends "
     "up in their logs forever.", ["never log", "library code"], "convention"),
    ("so scratch that on parquet: from now on CSV is the default output for our commands; "
     "keep parquet behind `--format parquet`.", ["CSV is the default output"], "convention"),
    ("it's a tiny retry library on npm. it has zero runtime dependencies and it has to stay "
     "that way, people run it in edge runtimes.", ["zero runtime dependencies", "stay that way"],
     "convention"),
    ("ah. abort support is worth a few bytes. let's raise the size budget to 2.5 kB.",
     ["size budget", "2.5 kB"], "decision"),
    ("the rule here is: every PR needs a changelog entry", ["every PR", "changelog"],
     "convention"),
    ("In this repo we use uv, not pip.", ["Use uv", "not pip"], "convention"),
    ("Never commit directly to main.", ["Never commit", "main"], "convention"),
    ("Don't use `any` in TypeScript code.", ["`any`", "TypeScript"], "convention"),
    ("Prefer composition over inheritance.", ["composition", "inheritance"], "convention"),
    ("Avoid global state.", ["Avoid global state"], "convention"),
    ("Docstrings should explain why, not what.", ["Docstrings", "why"], "convention"),
    ("All new modules need a docstring.", ["new modules", "docstring"], "convention"),
    ("Tests go in tests/, mirroring the src/ layout.", ["tests/"], "convention"),
    ("We always squash merge PRs.", ["Always squash merge PRs"], "convention"),
    ("We don't use semicolons in JS.", ["Don't use semicolons"], "convention"),
    ("Line length is 100.", ["Line length", "100"], "convention"),
    ("Use 4 spaces for indentation.", ["4 spaces", "indentation"], "convention"),
    ("I prefer single quotes in Python.", ["Prefer single quotes"], "convention"),
    ("If you add a dependency, pin it in requirements.txt.", ["pin it", "requirements.txt"],
     "convention"),
    ("When you write a migration, always add a down migration too.", ["down migration"],
     "convention"),
    ("Use structlog for logging, not print().", ["structlog", "not print()"], "convention"),
    ("Commit messages should be in the imperative mood.", ["imperative mood"], "convention"),
    ("Keep PRs small, under 400 lines.", ["PRs small", "400"], "convention"),
    ("please don't mock the database in integration tests", ["mock the database"],
     "convention"),
    ("No print statements in library code.", ["print statements", "library code"],
     "convention"),
    ("house style: trailing commas everywhere", ["Trailing commas"], "convention"),
    ("We use Black with a line length of 88.", ["Black", "88"], "convention"),
    ("from now on, no more force-pushing to shared branches", ["force-pushing"], "convention"),
    ("Stop adding comments that restate the code.", ["Stop adding comments"], "convention"),
    ("Run `npm run lint` before every commit.", ["`npm run lint`", "every commit"],
     "convention"),
    ("Every public function gets a docstring.", ["public function", "docstring"],
     "convention"),
    ("For tests, use pytest fixtures instead of setUp.", ["For tests", "pytest fixtures"],
     "convention"),
    ("Prefix feature branches with feat/.", ["feature branches", "feat/"], "convention"),
    ("Never log secrets or tokens.", ["Never log secrets"], "convention"),
    ("Write commit subjects under 72 characters.", ["commit subjects", "72"], "convention"),
    ("Releases follow semver.", ["semver"], "convention"),
    ("Type hints are required for all public functions.", ["Type hints", "required"],
     "convention"),
    ("Wildcard imports are not allowed.", ["Wildcard imports"], "convention"),
    ("Oh and use `pathlib` instead of `os.path`.", ["`pathlib`", "`os.path`"], "convention"),
    ("Please always add a CHANGELOG entry for user-facing changes.", ["CHANGELOG entry"],
     "convention"),
    ("I want you to use early returns instead of nested ifs.", ["early returns", "nested ifs"],
     "convention"),
    ("pls always run the formatter before committing thx", ["formatter", "before committing"],
     "convention"),
    ("Don't catch bare exceptions.", ["bare exceptions"], "convention"),
    ("one thing first: never edit generated files by hand", ["generated files"], "convention"),
    ("i'd prefer if you used httpx over requests", ["httpx", "requests"], "convention"),
    ("it'd be great if you could always add a test for every bug fix", ["every bug fix"],
     "convention"),
    ("Don't use default exports anymore.", ["default exports"], "convention"),
    ("Going forward, please write all new code in TypeScript.", ["TypeScript"], "convention"),
    ("Let's keep all config in pyproject.toml.", ["pyproject.toml"], "convention"),
    ("Make sure you never log request bodies.", ["Never log request bodies"], "convention"),
    ("Tests should never depend on network access.", ["network access"], "convention"),
    ("Every migration must be reversible.", ["reversible"], "convention"),
    ("Name React components in PascalCase.", ["PascalCase"], "convention"),
    ("Avoid mutable default arguments.", ["mutable default arguments"], "convention"),
    ("Please use `rg` instead of `grep` when searching the repo.", ["`rg`", "`grep`"],
     "convention"),
    ("One more rule: no network calls in unit tests.", ["network calls", "unit tests"],
     "convention"),
    ("Don't ever hardcode API keys.", ["hardcode API keys"], "convention"),
    ("Remember: never store secrets in the repo.", ["never store secrets"], "convention"),
    ("keep imports sorted alphabetically", ["imports sorted"], "convention"),
    ("no emojis in commit messages pls", ["emojis", "commit messages"], "convention"),
    ("Hey, going forward can you make sure to write the tests before the implementation?",
     ["tests before the implementation"], "convention"),
    ("I'd appreciate it if you kept the diff minimal.", ["diff minimal"], "convention"),
    ("you can use default exports again", ["default exports again"], "convention"),
    ("hey, quick thing - whenever you touch the API, update the OpenAPI spec as well",
     ["Whenever you touch the API", "OpenAPI spec"], "convention"),
    ("I'd rather you didn't use regex for parsing HTML", ["Don't use regex", "HTML"],
     "convention"),
    ("please stop using print for debugging, use the logger", ["print", "logger"],
     "convention"),
    ("the convention in this codebase is to suffix async functions with _async",
     ["Suffix async functions", "_async"], "convention"),
    ("tests must not touch the real filesystem; use tmp_path", ["real filesystem"],
     "convention"),
    ("Just so you know, we deploy only from tagged commits.", ["Deploy only", "tagged commits"],
     "convention"),
    ("For anything touching auth, add a security reviewer to the PR.", ["security reviewer"],
     "convention"),
    ("Let's not add any new Python 2 compatibility shims.", ["Don't add", "shims"],
     "convention"),
    ("We're not using Docker for local dev anymore.", ["Don't use Docker", "anymore"],
     "decision"),
    ("small nit: we prefer `const` over `let` unless reassignment is needed",
     ["Prefer `const` over `let`"], "convention"),
    ("Moving forward, releases are cut from the release branch.", ["release branch"],
     "convention"),
    ("nope, pnpm not npm", ["pnpm not npm"], "convention"),
    ("Commits no longer need a ticket number.", ["no longer need", "ticket number"],
     "convention"),
    ("Add a changelog entry for every user-facing change.", ["changelog entry"], "convention"),
    ("Write tests for every new endpoint.", ["every new endpoint"], "convention"),
    ("Use the repository pattern for database access.", ["repository pattern"], "convention"),
    ("Don't add dependencies without checking the license first.", ["license"],
     "convention"),
    ("Branches are named <type>/<ticket>-<slug>.", ["<type>/<ticket>-<slug>"], "convention"),
    ("Run `make lint` before pushing, always.", ["`make lint`"], "convention"),
    # decisions
    ("let's move to vitest", ["vitest"], "decision"),
    ("1.0 goes ESM-only", ["1.0", "ESM-only"], "decision"),
    ("pin pydantic below 2 for now", ["pydantic", "below 2"], "decision"),
    ("rip out the cache; use ETags instead", ["cache", "ETags instead"], "decision"),
    ("we're switching from yarn to pnpm", ["yarn", "pnpm"], "decision"),
    ("We've decided to stop supporting Python 3.8.", ["Python 3.8"], "decision"),
    ("Let's go with Postgres for the job queue.", ["Postgres", "job queue"], "decision"),
    ("We target Python 3.11+.", ["Python 3.11+"], "decision"),
    ("Change of plan: we're moving from REST to gRPC for internal services.",
     ["REST", "gRPC"], "decision"),
    ("We'll use Redis for the rate limiter.", ["Redis", "rate limiter"], "decision"),
    ("let's standardize on zod for validation", ["zod"], "decision"),
    ("We're dropping Python 3.8 support in the next release.", ["Python 3.8"], "decision"),
    ("The next release will be 2.0 and drops Node 16.", ["2.0", "Node 16"], "decision"),
    ("We're going ESM-only in v3.", ["ESM-only"], "decision"),
    ("We're migrating off Jenkins to GitHub Actions.", ["Jenkins", "GitHub Actions"],
     "decision"),
    ("ok so the plan is to replace the homegrown ORM with SQLAlchemy", ["SQLAlchemy"],
     "decision"),
    ("We've moved to trunk-based development, so no long-lived feature branches.",
     ["trunk-based development"], "decision"),
    ("The team agreed to ship 2.0 without the legacy importer.", ["2.0", "legacy importer"],
     "decision"),
    ("we're standardising on pnpm across all repos", ["pnpm", "all repos"], "decision"),
    ("We switched to Postgres.", ["Postgres"], "decision"),
    ("Let's use SQLite for local dev and Postgres in prod.", ["SQLite", "Postgres"],
     "decision"),
]

# Questions, hypotheticals, reports, pleasantries and one-off requests: never rules.
NON_RULES: list[str] = [
    # a request whose pronouns point at the work at hand, or what others do or ask for
    "ok, commit what we have",
    # "we" in a clause describing the thing asked for does not make the ask a standing rule
    "add limit/offset pagination, default 50, max 200. put the params in their own module as a "
    "dependency we can reuse for the customer endpoints later",
    # how the feature someone asked for behaves is its spec, not a rule
    "wholesale customers want to upload orders in bulk: POST /orders/bulk with a list of "
    "orders. every new order should still get its confirmation email, same as single orders",
    # what no one can know is no prohibition
    "when retry() gives up it rethrows the last error, so you can't tell 'the call failed' "
    "from 'we retried 3 times and gave up'.",
    "you can't see which test hung from the runner's output.",
    "we'd put it out as 1.0.0-beta.1 first.",
    "and run the integration tests so we know the venue filter still behaves",
    "some of their ids are garbage. log and skip those instead of dying.",
    "the warehouse needs to mark orders as shipped: POST /orders/{id}/ship, only from paid.",
    "they send .xlsx exports instead of CSV.",
    "how do the tests run celery tasks? I never start redis for them",
    "Always happy to help.",
    "Support wants to see a customer's refunds in their tool.",
    "support got ~20 tickets since monday: customers pay, then the order page says pending.",
    "could you write integration tests for the sqlc queries?",
    "feature for shipctl: deploys should get a configurable wait timeout.",
    "I'd like a --wait flag on deploy.",
    "let's go back to the office",
    "let's go back to it later",
    "we need DELETE /items/{id}: 204 when it existed, 404 otherwise.",
    "we need a `tidepool export STATION TABLE` command that writes one station's series",
    "next up: GET /items should take ?limit= and ?offset=, default 50, max 200.",
    "everything we tried was slow",
    "quick question: should we use pnpm?",
    "make sure the tests pass",
    "the logs start with a warning, weird",
    "this app is a one-off",
    "ok back to the navbar bug",
    "back to work!",
    "we tried pnpm last month, it was slow",
    "use the staging db for this test, it's faster",
    "is it fast and does it have to stay that way?",
    "everything we ship has broken lately, ugh",
    # what someone needs is a feature asked for, not a rule (every PR needing one is)
    "first real task of the sprint: mobile needs GET /orders?customer_id=… with paging.",
    "finance needs a `/reports/monthly` CSV export by Friday.",
    "thanks!",
    "can you use a dict here",
    "run the tests",
    "use the staging db for this one",
    "should we always use pnpm?",
    "the linter always complains about this",
    "I never got this to work",
    "Can you fix the failing test in test_api.py?",
    "Use a dict here instead.",
    "What does this function do?",
    "The build is failing again.",
    "Maybe we should switch to vitest at some point.",
    "If we used pnpm, installs would be faster.",
    "We tried poetry last year and it was slow.",
    "no worries",
    "No, that's not what I meant.",
    "Never mind, I found it.",
    "Let's fix the bug first.",
    "Please update the README.",
    "Rename this function to parse_config.",
    "Run `npm test` and tell me what fails.",
    "It always fails on CI.",
    "The tests always time out on my machine.",
    "We used to use npm.",
    "Do we use tabs or spaces?",
    "Why does mypy never catch this?",
    "Hmm, what if we used Redis for this?",
    "Could you add a test for this function?",
    "switch to the main branch",
    "move to the next step",
    "I always forget to run the linter.",
    "CI never passes on the first try.",
    "Add logging to this handler.",
    "Let's run the tests now.",
    "Always a pleasure.",
    "Check the logs for errors.",
    "Make sure the tests pass.",
    "Can you switch this to httpx?",
    "Use the staging database for this test.",
    "We could use a queue for this.",
    "this function always returns None",
    "Please don't push yet.",
    "we always end up with merge conflicts in package.json",
    "I never use the debugger, honestly",
    "Prefer the second option.",
    "Let's take option B then.",
    "We decided to grab lunch.",
    "The plan is to finish this today.",
    "OK, use pnpm to install it and then run the dev server.",
    "Our CI uses GitHub Actions, which is slow.",
    "We use Sentry, but it's been flaky lately.",
    "Try vitest and see if it's faster.",
    "Run pytest on the new module.",
    "Use common sense.",
    "I don't always write tests, to be honest.",
    "We should use Redis here, I think.",
    "Put the helper in utils.py.",
    "Thanks so much, you always nail these!",
    "We never got around to migrating to pnpm.",
    "Would it make sense to use Redis instead?",
    "I'll switch to the main branch.",
    "We're moving to a new office next month.",
    "Always fun debugging CI on a Friday 😅",
    "hey can you take a look at the login bug?",
    "I'm not sure we should always use pnpm, what do you think?",
    "the tests always pass locally but fail on CI",
    "Please run the linter and fix whatever it finds.",
    "What's our convention for branch names?",
    "Let's keep going with the refactor.",
    "Remove the debug prints from this module.",
    "Yesterday we moved the cache to Redis.",
    "It should never take this long to build.",
    "I'd use pnpm if I were you.",
    "Should branch names start with feat/?",
    "Don't worry about the flaky test.",
    "Just use whatever works for now.",
    "Did you run the tests before pushing?",
    "I'm thinking we might switch to Biome eventually.",
    "The deploy always breaks on Fridays, lol.",
    "Use the same pattern as in auth.py for this.",
    "Use pnpm to add lodash.",
    "Switch to the other approach.",
    "Use `--no-verify` this once.",
    "My old team always squash merged.",
    "Keep it simple.",
    "use a dict for now in this file",
    "use a guard clause here",
    "Use npm this time.",
    "could you use pnpm?",
    # requests for one piece of work, the way most messages in a session read
    "Add a --verbose flag to the CLI that prints each step.",
    "Write unit tests for the date parser.",
    "Use async/await in the fetch function instead of promises.",
    "Rename `getUser` to `fetchUser` everywhere.",
    "use httpx in the new scraper module",
    "Always check the return value here, it can be None.",
    "Refactor the payment module to use the new client.",
    "Update the dependencies and make sure everything still builds.",
    "Please add type hints to utils.py.",
    "Let's add caching to the search endpoint.",
    "Replace the for loop with a list comprehension.",
    "Switch the default branch to main in the CI config.",
    "Remove the feature flag now that it's launched.",
    "Can we use Redis for the session store?",
    "Let's use a dataclass for the config.",
    "Drop the users table and recreate it with the new schema.",
]

# (newer rule, older rule): the newer one replaces the older one.
SUPERSEDES: list[tuple[str, str]] = [
    ("let's raise the size budget to 2.5 kB.", "Keep the size budget under 2 kB, always."),
    ("let's go back to shipping both CJS and ESM for 1.0; ESM-only can wait until require(esm) "
     "is everywhere.", "I'd prefer 1.0 to go ESM-only."),
    ("Use pnpm instead of npm.", "Use npm for installs."),
    ("do it, switch to keyset with a next_cursor in the response.",
     "let's keep it dumb: limit and offset query params."),
    ("let's move to vitest", "We use jest for tests."),
    ("Use httpx.", "Use requests for HTTP calls."),
    ("we no longer squash merge", "Always squash merge PRs."),
    ("you can use default exports again", "Never use default exports."),
    ("Line length is 100.", "Line length is 88."),
    ("Prefix feature branches with feature/.", "Prefix feature branches with feat/."),
    ("Use ruff format instead of black.", "Use black for formatting."),
    ("Switch to uv for dependency management.", "Use poetry for dependencies."),
    ("We target Python 3.12.", "We target Python 3.11+."),
    ("Stop rebasing on main; merge main into your branch instead.",
     "Always rebase on main before merging."),
    ("Use 2 spaces for indentation.", "Use 4 spaces for indentation."),
    ("Use tabs for indentation.", "Use 4 spaces for indentation."),
    ("Use single quotes.", "Use double quotes for strings."),
    ("We're switching from yarn to pnpm.", "Use yarn."),
    ("Use pytest instead of unittest.", "Write tests with unittest."),
    ("Use mypy, not pyright.", "Use pyright for type checking."),
    ("Use loguru for logging.", "Use the standard logging module."),
    ("Pin pydantic below 3.", "Pin pydantic below 2 for now."),
    ("Don't write docstrings for private helpers anymore.",
     "Write docstrings for private helpers."),
    ("Use axios instead of fetch.", "Use the native fetch API for HTTP."),
    ("We're moving from Flask to FastAPI.", "Use Flask for web services."),
    ("Use vitest for tests from now on.", "Run tests with jest."),
    ("Indent with 2 spaces.", "Indent with 4 spaces."),
    ("Max line length is 120.", "Keep lines under 100 characters."),
    ("Use biome instead of eslint.", "Lint with eslint before committing."),
    ("Use prettier for formatting, not dprint.", "Format with dprint."),
    ("From now on, merge PRs with merge commits.", "Squash merge all PRs."),
    ("Use camelCase for function names.", "Use snake_case for function names."),
    ("Never squash merge.", "Always squash merge PRs."),
    ("Use GitHub Actions instead of CircleCI.", "Use CircleCI for CI."),
    ("Use zod for validation instead of yup.", "Validate request bodies with yup."),
    ("Use date-fns, not moment.", "Use moment for dates."),
    ("Use typer for CLIs from now on.", "Use click for command-line tools."),
    ("Use Postgres instead of SQLite for local dev.", "Use SQLite for local development."),
    ("Coverage must stay above 90%.", "Coverage must stay above 80%."),
    ("Use tmp_path instead of tempfile in tests.",
     "Use tempfile for temporary directories in tests."),
    ("We no longer vendor dependencies.", "Always vendor dependencies."),
    ("It's fine to use print in scripts again.", "Never use print in scripts."),
    ("Use pnpm from now on.", "We use yarn for everything."),
    ("Actually, let's use yarn instead.", "Always use npm."),
    ("We're moving from unittest to pytest.", "Write unit tests with unittest."),
    ("No more black; use ruff format.", "Format code with black."),
    ("Switch the linter to ruff.", "Use flake8 for linting."),
    ("Don't squash merge anymore.", "Always squash merge PRs."),
    ("Commits no longer need a ticket number.", "Every commit needs a ticket number."),
    ("Prefix branches with feature/ from now on.", "Prefix branches with feat/."),
    ("Line length is 120 going forward.", "Keep line length at 100."),
    ("Use pyright instead of mypy.", "Run mypy before pushing."),
    ("Let's drop poetry and use uv.", "Use poetry for dependencies."),
    ("We switched to Postgres.", "Use SQLite for storage."),
    ("You can commit directly to main again.", "Never commit directly to main."),
]

# (newer rule, older rule) on one subject that can both hold: no replacement.
COMPATIBLE: list[tuple[str, str]] = [
    ("Use pytest-xdist for parallel runs.", "Use pytest."),
    ("Prefix bug branches with fix/.", "Prefix feature branches with feat/."),
    ("Use ruff format too.", "Use ruff for lint."),
    ("Use vitest for the frontend.", "Use pytest for tests."),
    ("Use pnpm.", "Never use npm."),
    ("Use pnpm instead of npm.", "Never use npm."),
    ("Prefer named exports.", "No default exports."),
    ("Don't write docstrings for private helpers.", "Always write docstrings."),
    ("Use playwright for e2e tests.", "Use jest for unit tests."),
    ("Run mypy in strict mode.", "Use mypy for type checking."),
    ("Add a changelog entry for every user-facing change.", "Every PR needs a changelog entry."),
    ("Use yarn for the docs site.", "Use npm."),
    ("Pin numpy below 2.", "Pin pydantic below 2."),
    ("Use 4 spaces for indentation in Python.", "Use 2 spaces for indentation in YAML files."),
    ("Use httpx for async code.", "Use requests for sync scripts."),
    ("Write tests for new endpoints.", "Use pytest for tests."),
    ("Use structlog for logging.", "No print statements in library code."),
    ("Use ruff for linting.", "Use ruff to sort imports."),
    ("Keep functions under 40 lines.", "Keep functions small."),
    ("Use uv run for scripts.", "Use uv for dependency management."),
    ("Use vitest for new packages.", "Use jest."),
    ("Never commit directly to main.", "Always open a PR for changes."),
    ("Use snake_case for variables.", "Use PascalCase for class names."),
    ("Also run mypy before pushing.", "Run ruff before pushing."),
    ("Don't use type hints in tests.", "Use type hints everywhere."),
    ("Always use pnpm, never npm.", "Use pnpm for installs."),
    ("Use black for formatting.", "Use ruff for linting."),
    ("Use pytest fixtures instead of setUp.", "Use pytest for tests."),
    ("Commit messages should be in the imperative mood.",
     "Commit messages should follow Conventional Commits."),
    ("Use Redis for the rate limiter.", "Use Postgres for the job queue."),
    ("Line length is 100.", "Use 4 spaces for indentation."),
    ("Prefix feature branches with feat/.", "Branch names should be lowercase."),
    ("Use jest for the frontend.", "Use pytest for the backend."),
    ("Use axios in the browser code.", "Use httpx for Python services."),
    ("Always rebase before merging.", "Squash merge PRs."),
    ("Don't mock the database in integration tests.", "Mock external HTTP calls in unit tests."),
    ("Use f-strings for string formatting.", "Use %-formatting in logging calls."),
    ("Never log secrets.", "Use structlog for logging."),
    ("Use pnpm workspaces for the monorepo.", "Use pnpm."),
    ("Use pnpm.", "Use pnpm."),
    ("Use ruff for formatting too.", "Use ruff for linting."),
    ("Use pytest-cov for coverage.", "Use pytest for tests."),
    ("Prefix hotfix branches with hotfix/.", "Prefix feature branches with feat/."),
    ("Use npm in CI scripts.", "Use pnpm locally."),
    ("Run mypy in CI too.", "Run mypy before pushing."),
    ("Don't log request bodies.", "Log at info level by default."),
    ("Use jest for the React app.", "Use vitest for the CLI package."),
    ("Use uv for installs.", "Use pip-tools to compile lock files."),
    ("Use double quotes in JSON.", "Use single quotes in Python."),
    ("Use tabs in Makefiles.", "Use 4 spaces for indentation."),
    ("Pin pydantic below 2.", "Pin fastapi below 0.100."),
    ("Always run ruff before pushing.", "Always run mypy before pushing."),
    ("Squash merge feature branches.", "Rebase release branches onto main."),
]


def only_rule(message: str) -> Rule:
    rules = find_rules(message)
    assert len(rules) == 1, (message, rules)
    return rules[0]


@pytest.mark.parametrize(("message", "words", "kind"), RULES, ids=[r[0][:40] for r in RULES])
def test_a_standing_rule_is_found_in_the_users_words(message: str, words: list[str],
                                                     kind: str) -> None:
    rules = find_rules(message)
    assert rules, message
    rule = rules[0]
    for word in words:
        assert word.lower() in rule.text.lower(), (word, rule.text)
    assert rule.kind == kind
    first = rule.text.split()[0].strip(",")
    tool_names = set().union(*TOOL_FAMILIES.values())
    assert first[0].isupper() or not first.isalpha() or first in tool_names  # pnpm stays pnpm
    assert rule.text.endswith(".")
    assert 0.5 <= rule.confidence <= 0.85


@pytest.mark.parametrize("message", NON_RULES, ids=[m[:40] for m in NON_RULES])
def test_chatter_questions_reports_and_one_off_requests_are_not_rules(message: str) -> None:
    assert find_rules(message) == []


def test_enough_development_examples() -> None:
    assert len(RULES) >= 70 and len(NON_RULES) >= 50
    assert len(SUPERSEDES) + len(COMPATIBLE) >= 40


def test_hedges_and_lead_ins_are_stripped_and_we_becomes_an_imperative() -> None:
    assert only_rule("I'd like you to always run ruff before pushing").text == (
        "Always run ruff before pushing.")
    assert only_rule("Going forward, could you make sure to use pnpm?").text == "Use pnpm."
    assert only_rule("btw we use tabs in this repo").text == "Use tabs in this repo."
    assert only_rule("Our convention is to put fixtures in conftest.py.").text == (
        "Put fixtures in conftest.py.")
    assert only_rule("we prefer named exports").text == "Prefer named exports."
    assert only_rule("Never:\n- commit to main").text == "Never commit to main."


def test_several_rules_in_one_long_message_without_the_chatter_around_them() -> None:
    message = (
        "Hey! Thanks for the help earlier, the refactor looks great. A few things going "
        "forward:\n1. always use pnpm, never npm\n2. branch names should start with feat/ "
        "or fix/\n3. no more default exports\nAnyway, can you look at the failing test in "
        "api_test.ts? I think it's the mock. Thanks, always happy to pair on this!"
    )
    texts = [r.text for r in find_rules(message)]
    assert texts == ["Always use pnpm, never npm.",
                     "Branch names should start with feat/ or fix/.",
                     "No more default exports."]
    joined = " ".join(texts).lower()
    for chatter in ("thanks", "refactor", "failing test", "happy", "mock"):
        assert chatter not in joined


def test_two_rules_in_one_sentence_are_both_kept() -> None:
    texts = [r.text for r in find_rules("Use pnpm and always run the tests before pushing.")]
    assert texts == ["Use pnpm.", "Always run the tests before pushing."]


def test_a_rule_after_600_characters_is_found() -> None:
    chatter = "Here is some background on how the service talks to the billing API. " * 10
    assert len(chatter) > 600
    rules = find_rules(chatter + "Oh and one more thing: we use httpx, not requests.")
    assert [r.text for r in rules] == ["Use httpx, not requests."]


def test_bullets_under_a_conventions_header_are_rules_and_the_footer_is_not() -> None:
    message = ("A few conventions for this repo:\n- snake_case for modules\n- tabs, not spaces\n"
               "- tests live in tests/\nAlso the CI is flaky today, ignore it.")
    rules = find_rules(message)
    assert [r.text for r in rules] == ["snake_case for modules.", "Tabs, not spaces.",
                                      "Tests live in tests/."]
    assert all(r.said.startswith("A few conventions for this repo:") for r in rules)


def test_after_a_feature_request_a_rule_about_code_still_stands() -> None:
    assert [r.text for r in find_rules("ops want a cancel endpoint. every new endpoint should "
                                       "declare a response_model.")] == [
        "Every new endpoint should declare a response_model."]


def test_news_said_in_passing_after_the_house_rules_is_not_one_of_them() -> None:
    rules = find_rules(
        "can you add tracing to them? a couple of house rules while you're at it: we always log "
        "through tracing with structured fields, never values formatted into the message "
        "string. and put #[instrument(skip(state))] on each handler so the span carries the "
        "request args but not the pool. oh, and Leo says hi, he's back from paternity leave.")
    assert [r.text.split(",")[0] for r in rules] == [
        "Always log through tracing with structured fields",
        "Put #[instrument(skip(state))] on each handler so the span carries the request args "
        "but not the pool."]


def test_a_rule_before_a_colon_is_kept_with_what_spells_it_out() -> None:
    rules = find_rules("the exports are naive local time. we always keep everything in UTC "
                       "internally: localise once at ingest, convert only when printing.")
    assert [r.text for r in rules] == [
        "Always keep everything in UTC internally: localise once at ingest, convert only when "
        "printing."]


def test_a_feature_someone_should_be_able_to_use_is_not_a_rule() -> None:
    assert find_rules("customers should be able to cancel an order while it's still pending: "
                      "POST /orders/{id}/cancel, 409 if it's already paid") == []
    assert find_rules("it would be nice to be able to filter the list by date") == []


def test_what_is_asked_for_this_once_is_cut_from_the_rule() -> None:
    rules = find_rules("the standard here is every route declares a response_model, so a small "
                       "schema please.")
    assert [r.text for r in rules] == ["Every route declares a response_model."]


def test_a_stop_and_what_replaces_it_are_one_change() -> None:
    rules = find_rules("a change of plan on tests: we no longer do stdlib plus go-cmp. new and "
                       "touched tests use testify, require for anything that must hold.")
    assert len(rules) == 1 and rules[0].change and rules[0].replaces == "stdlib plus go-cmp"
    assert rules[0].text == ("New and touched tests use testify, require for anything that "
                             "must hold; we no longer do stdlib plus go-cmp.")
    [scratched] = find_rules("so I'd like to change how we test output: scratch the assert_cmd + "
                             "predicates checks for anything that prints. from now on CLI output "
                             "tests are insta snapshots (insta-cmd).")
    assert scratched.replaces == "assert_cmd + predicates checks"
    assert scratched.text.startswith("From now on CLI output tests are insta snapshots")
    assert scratched.text.endswith("; scratch the assert_cmd + predicates checks for anything "
                                   "that prints.")


def test_an_aside_for_the_task_at_hand_is_not_a_rule() -> None:
    assert find_rules("while you're on it, just run that one file with npx jest "
                      "test/retry.test.ts, no need for the whole suite every time.") == []


def test_a_change_in_the_first_clause_and_the_rule_after_it_on_its_subject_are_one() -> None:
    """Both halves are about the package manager: apart, "make sure npm never recreates
    package-lock.json" would not say what to use instead."""
    [rule] = find_rules(
        "so from now on it's pnpm install / pnpm test etc, and please make sure npm never "
        "recreates package-lock.json")
    assert rule.text == ("From now on it's pnpm install / pnpm test etc; make sure npm never "
                         "recreates package-lock.json.")
    assert rule.change


def test_code_blocks_paths_and_emoji_do_not_break_sentences() -> None:
    message = ("I'm getting this error:\n```\nTraceback (most recent call last):\n  always use "
               "pnpm\nImportError: cannot import name 'foo'\n```\nSee docs/setup.md e.g. the "
               "first part. Great 🎉 never use `from x import *` in this codebase")
    assert [r.text for r in find_rules(message)] == [
        "Never use `from x import *` in this codebase."]


def test_lower_case_chat_without_punctuation() -> None:
    rules = find_rules("lol ok that worked 🎉 btw from now on always run ruff before you commit"
                       " thx")
    assert [r.text for r in rules] == ["Always run ruff before you commit."]
    assert rules[0].change


def test_change_and_what_is_replaced() -> None:
    rule = only_rule("use pnpm instead of npm")
    assert rule.change and rule.replaces == "npm"
    rule = only_rule("we no longer squash merge")
    assert rule.change and rule.replaces is not None and "squash" in rule.replaces
    rule = only_rule("Always use pnpm.")
    assert not rule.change and rule.replaces is None


def test_subject_is_the_tool_family_or_the_head_phrase() -> None:
    assert only_rule("Always use pnpm.").subject == "package manager"
    assert only_rule("we use poetry for dependencies").subject == "python env"
    assert only_rule("let's move to vitest").subject == "test runner"
    assert only_rule("Use biome, not eslint.").subject == "linter"
    assert only_rule("Use httpx for HTTP calls.").subject == "http client"
    assert only_rule("Prefix feature branches with feat/.").subject == "branch names"
    assert only_rule("Commit messages should be in the imperative mood.").subject == (
        "commit messages")
    assert only_rule("Keep lines under 100 characters.").subject == "line length"
    assert "pnpm" in TOOL_FAMILIES["package manager"]
    assert {"pytest", "vitest", "go test", "nextest"} <= TOOL_FAMILIES["test runner"]


def test_terms_keep_identifiers_and_flags() -> None:
    rule = only_rule("Run tests with `uv run pytest -q`, not bare pytest.")
    assert {"uv", "pytest", "-q", "tests"} <= rule.terms


def test_said_is_the_collapsed_sentence_capped_at_300_characters() -> None:
    long_rule = ("Hey,   so   as   a   rule, always keep functions small, " + "short, " * 40
                 + "and readable.")
    assert len(long_rule) > 300
    rule = only_rule(long_rule)
    assert len(rule.said) <= 300 and "  " not in rule.said
    assert rule.text.startswith("Always keep functions small")


def test_input_beyond_20000_characters_is_not_read() -> None:
    filler = "The quick brown fox jumps over the lazy dog. " * 500
    assert len(filler) > 20_000
    assert find_rules(filler + "Always use pnpm.") == []
    assert [r.text for r in find_rules(filler[:9_000] + " Always use pnpm.")] == [
        "Always use pnpm."]


def test_assistant_only_committed_decisions_at_lower_confidence() -> None:
    said = ("I looked at the code. I'll use httpx rather than requests for the new client. This "
            "function uses a dict to cache results. I'll run the tests now. You should always "
            "use pnpm in this repo. Always happy to help!")
    rules = find_rules(said, speaker="assistant")
    assert [r.text for r in rules] == ["Use httpx rather than requests for the new client."]
    assert rules[0].kind == "decision" and rules[0].confidence <= 0.6
    assert [r.text for r in find_rules("So: no Redis; an in-process LRU cache instead.",
                                       speaker="assistant")] == [
        "No Redis; an in-process LRU cache instead."]
    assert find_rules("I'll use a dict here rather than a list.", speaker="assistant") == []
    [back] = find_rules("I'd revert memmap2 and go back to streaming: `BufReader` over the file.",
                        speaker="assistant")
    assert back.kind == "decision" and back.replaces == "memmap2" and back.confidence <= 0.6
    assert find_rules("I'd revert this line.", speaker="assistant") == []
    [gone] = find_rules("The cache was saving almost nothing. So: remove the moka cache "
                        "entirely and paginate GET /items.", speaker="assistant")
    assert gone.replaces == "moka cache" and gone.change
    assert supersedes(gone, find_rules("The cheapest lever is an in-process cache: a moka "
                                       "future::Cache in AppState (60 s TTL).",
                                       speaker="assistant")[0])
    [off] = find_rules("Instead, I'll remove the `revalidate` export and invalidate on demand: "
                       "/shifts stays cached until something changes.", speaker="assistant")
    assert supersedes(off, find_rules("The cheapest fix is ISR: replace that with `export const "
                                      "revalidate = 60` in src/app/shifts/page.tsx.",
                                      speaker="assistant")[0])
    [never] = find_rules("I'd rather not cache order state at all: it goes stale.",
                         speaker="assistant")
    assert never.text.startswith("Don't cache order state at all") and never.change
    assert find_rules("I'll remove the debug print.", speaker="assistant") == []
    [server] = find_rules("I'll switch Playwright's webServer to a production build, `pnpm "
                          "build && pnpm start -p 3100`, on its own port.", speaker="assistant")
    assert server.text.startswith("Switch Playwright's webServer to a production build")
    assert find_rules("I'll switch the branch to main now.", speaker="assistant") == []


@pytest.mark.parametrize(("new", "old"), SUPERSEDES, ids=[p[0][:40] for p in SUPERSEDES])
def test_a_newer_rule_replaces_an_older_one(new: str, old: str) -> None:
    newer, older = find_rules(new)[0], find_rules(old)[0]
    assert same_subject(newer, older)
    assert supersedes(newer, older)


@pytest.mark.parametrize(("new", "old"), COMPATIBLE, ids=[p[0][:40] for p in COMPATIBLE])
def test_compatible_rules_do_not_replace_each_other(new: str, old: str) -> None:
    assert not supersedes(find_rules(new)[0], find_rules(old)[0])


def test_same_subject_meets_on_a_tool_family_or_shared_terms_not_on_similarity_alone() -> None:
    pnpm, npm = only_rule("Always use pnpm."), only_rule("Use npm for installs.")
    branches = only_rule("Prefix feature branches with feat/.")
    lint = only_rule("Use ruff for lint.")
    fmt = only_rule("Use ruff format too.")
    assert same_subject(pnpm, npm) and same_subject(lint, fmt)
    assert not same_subject(pnpm, branches)
    assert not same_subject(pnpm, branches, similarity=0.99)  # no shared term
    docs = only_rule("Write docstrings for public functions.")
    comments = only_rule("Explain the why in comments on public functions always.")
    assert not same_subject(docs, comments)
    assert same_subject(docs, comments, similarity=0.95)
    assert not same_subject(docs, comments, similarity=0.5)


def test_the_same_named_setting_with_another_version_is_superseded_whatever_the_subject() -> None:
    from kenning.extract.conventions import as_rule, supersedes

    old = as_rule("That job exists because we keep rust-version = 1.74 in Cargo.toml: the "
                  "Debian backports build uses that", "decision")
    raised = as_rule("Raise our MSRV to 1.80: rust-version in Cargo.toml and the msrv CI job.",
                     "convention")
    assert supersedes(raised, old)
    # no change said, another setting, or the same version: not a replacement
    assert not supersedes(as_rule("The docs mention rust-version = 1.80 for the CLI crate",
                                  "convention"), old)
    assert not supersedes(as_rule("Raise python_requires to 3.12 in pyproject.toml",
                                  "convention"), old)
    assert not supersedes(as_rule("Raise the msrv job timeout; rust-version stays 1.74",
                                  "convention"), old)


def test_a_limit_moved_to_another_value_replaces_what_stated_the_old_one() -> None:
    """"let's raise the budget to 2.5 kB" replaces the rule that kept the bundle under 2 kB and
    the gotcha of going over it; not a rule in another unit, nor one already at that value."""
    from kenning.extract.conventions import as_rule, moves_limit

    [raised] = find_rules("abort support is worth a few bytes. let's raise the budget to 2.5 kB, "
                          "and update the README line too.")
    [old] = find_rules("keep an eye on size while you're adding classes: the README promises "
                       "'under 2 kB' and `npm run size` (size-limit) checks it, CI fails if we "
                       "go over.")
    assert supersedes(raised, old)
    assert moves_limit(raised, "`npm run size` failed. Cause: abort support takes the bundle "
                               "to 2.14 kB, 143 B over the 2 kB budget.")
    assert not moves_limit(raised, "The size budget is 2.5 kB, `npm run size` checks it")
    assert not supersedes(raised, as_rule("Every request to the API times out after 2 s"))
    assert not moves_limit(as_rule("Keep the bundle small"), "over the 2 kB budget")


def test_a_toolchain_pick_is_not_the_sub_command() -> None:
    from kenning.extract.candidates import command_key, same_task

    assert command_key("cargo +1.74 check --all-targets") == ("cargo", "check")
    assert same_task(command_key("cargo +1.80 check"), command_key("cargo +1.74 check"))


def test_scratching_something_states_a_change() -> None:
    rule = only_rule("so I'd like to change how we test output: scratch the assert_cmd + "
                     "predicates checks for anything that prints.")
    assert rule.change
    assert find_rules("rewrite the parser from scratch, please") == []


def test_what_the_user_said_is_quoted_once() -> None:
    """A rule after its header's colon is quoted as the sentence, not the sentence and then
    its second half again."""
    [rule] = find_rules("going forward: tests are `uv run pytest`, and lint is `uv run ruff "
                        "check .`.")
    assert rule.said == ("going forward: tests are `uv run pytest`, and lint is `uv run ruff "
                         "check .`.")


def test_a_change_after_a_sentence_that_only_drops_quotes_both() -> None:
    """"so scratch the skip(st) rule. from now on handlers get ...": the change carries what
    it drops in the user's words, so what prescribed it can be ended."""
    from kenning.extract.service import dropped_names

    [rule] = find_rules("security flagged the create_item span. so scratch the skip(st) rule. "
                        "from now on handlers get #[instrument(skip_all, fields(...))].")
    assert rule.change and rule.said.startswith("so scratch the skip(st) rule. from now on")
    assert dropped_names(f"{rule.text} {rule.said}") == ["skip(st)"]
    assert dropped_names("Use bun instead of pnpm; we no longer want owo-colors, scratch the "
                         "--color flag") == ["pnpm", "owo-colors", "--color"]
    assert dropped_names("Replace structlog with stdlib logging") == ["structlog"]
    assert dropped_names("Tests are `uv run pytest` instead of make test") == []


def test_a_dropped_call_is_found_in_any_spelling_of_its_arguments() -> None:
    import re

    from kenning.extract.service import _name_pattern

    said = re.compile(_name_pattern("skip(st)"), re.I)
    assert said.search("Put #[instrument(skip(state))] on each handler")
    assert not said.search("we skip state checks in tests")
    assert not re.search(_name_pattern("pnpm"), "pnpm-lock.yaml stays", re.I)


def test_a_rule_that_points_back_is_joined_to_the_one_it_needs() -> None:
    """"... without one": the second rule means nothing alone, so it is kept with the first;
    a number ("without one approval") is not a pointer."""
    [rule] = find_rules("the standard here is every route declares a response_model, so a small "
                        "schema please. we don't return bare dicts or ORM rows without one.")
    assert rule.text == ("Every route declares a response_model; don't return bare dicts or ORM "
                         "rows without one.")
    assert len(find_rules("never merge a PR without one approval. always squash.")) == 2


def test_a_rule_after_so_is_read_without_the_reason_before_it() -> None:
    """"I got nextest set up and CI runs it now too, so going forward please run the suite with
    ...": the rule is what follows; the whole sentence stays what the user said."""
    said = ("oh and while I think of it: I got nextest set up and CI runs it now too, so going "
            "forward please run the suite with `cargo nextest run` instead of plain cargo test.")
    [rule] = find_rules(said)
    assert rule.text == "Run the suite with `cargo nextest run` instead of plain cargo test."
    assert "I got nextest set up" in rule.said


def test_one_rule_said_two_ways_in_one_sentence_is_one_rule() -> None:
    """"this repo is pnpm only, please don't ever run npm or yarn in here": one rule, so the
    line that reaches the model says both what to use and what never to run."""
    [rule] = find_rules("heads up, this repo is pnpm only, please don't ever run npm or yarn in "
                        "here, it wrecks pnpm-lock.yaml.")
    assert rule.text.startswith("This repo is pnpm only; don't ever run npm or yarn")


def test_a_short_rule_keeps_the_why_said_right_after_it() -> None:
    """"please never log from library code. a console.warn inside someone's lambda ends up in
    their logs forever": the rule and its why are one memory; the next task is not a why."""
    [rule] = find_rules("one thing that bugs me: please never log from library code. a "
                        "console.warn inside someone's lambda ends up in their logs forever.")
    assert rule.text == ("Never log from library code: a console.warn inside someone's lambda "
                         "ends up in their logs forever.")
    [alone] = find_rules("never print. anyway, today: add GET /orders/{id}/status.")
    assert alone.text == "Never print."


def test_a_rule_keeps_the_topic_its_lead_in_names() -> None:
    """"about commits: I prefer messages like `cli: add --dry-run to ingest`": the rule says it
    is about commits, which its own words do not."""
    [rule] = find_rules("nice. oh and about commits: I prefer messages like `cli: add --dry-run "
                        "to ingest`.")
    assert rule.text == "Commits: prefer messages like `cli: add --dry-run to ingest`."
    # "for <topic> here:" names it too ("a short imperative summary" alone says not of what)
    [rule] = find_rules("1.56, fine. commit it. and for commit messages here: a short "
                        "imperative summary, no feat:/fix: prefixes, changesets already write "
                        "the changelog.")
    assert rule.text.startswith("Commit messages: a short imperative summary")


def test_what_they_do_belongs_with_the_rule_before() -> None:
    """"please don't ever unwrap in a handler. they all return Result<_, AppError> from
    src/error.rs and use ?, because ...": one rule, not "Use ?, because ..." on its own."""
    [rule] = find_rules("one thing: please don't ever unwrap in a handler. they all return "
                        "Result<_, AppError> from src/error.rs and use ?, because a panic in a "
                        "handler took down a pod back in March.")
    assert rule.text.startswith("Don't ever unwrap in a handler: they all return Result<_, "
                                "AppError> from src/error.rs and use ?")


def test_a_short_rule_drawn_as_a_conclusion_keeps_its_reason() -> None:
    """"... so please never print.": alone, "Never print." loses what to do instead; it is
    kept with the rule before it. A report of something that slipped in is not a rule."""
    [rule] = find_rules("we log through structlog here, `log = structlog.get_logger()` at the "
                        "top of the module. so please never print.")
    assert rule.text == ("Log through structlog here, `log = structlog.get_logger()` at the top "
                         "of the module; never print.")
    assert find_rules("a relative one snuck into Jonas's branch and I'd like the codebase to "
                      "stay consistent.") == []


def test_a_rule_said_when_doing_something_the_way_a_user_would_and_what_not_to_do() -> None:
    """"when you write tests, please find things the way a user would, getByRole, getByLabel
    and so on. no CSS selectors": a trigger, a comparison (not a hypothetical "would") and the
    short "no X" after it are one rule."""
    [rule] = find_rules("can you get it going against the shifts page? and when you write "
                        "tests, please find things the way a user would, getByRole, getByLabel "
                        "and so on. no CSS selectors or nth-child stuff, they rot the moment "
                        "someone touches the markup.")
    assert rule.text == ("When you write tests, find things the way a user would, getByRole, "
                         "getByLabel and so on; no CSS selectors or nth-child stuff.")
    assert find_rules("if it were mine, I would find things the way a user would.") == []


def test_a_rule_after_so_and_the_topic_of_the_header_it_sits_under() -> None:
    """"one thing about migrations in this repo: I want to see the SQL ..., so create them with
    --create-only": the rule is what follows "so", about migrations; a report after "so" is
    not a rule."""
    [rule] = find_rules("and one thing about migrations in this repo: I want to see the SQL "
                        "before anything touches my database, so create them with --create-only "
                        "and wait for my ok before applying.")
    assert rule.text == ("Migrations: create them with --create-only and wait for my ok before "
                         "applying.")
    assert "I want to see the SQL" in rule.said
    assert find_rules("the default there is utf-8, so we never saw it in testing.") == []


def test_how_things_are_done_here_said_as_a_fact() -> None:
    """"weeks start on Monday here": how things of a kind are in this project; "things go
    wrong here" and "the tests run slow here" are not rules."""
    [rule] = find_rules("oh and weeks start on Monday here, people get confused by sunday-first "
                        "calendars")
    assert rule.text.startswith("Weeks start on Monday here")
    assert find_rules("things go wrong here") == []
    assert find_rules("the tests run slow here") == []


def test_a_stopped_practice_keeps_what_is_done_now_and_loses_an_empty_lead_in() -> None:
    """"a process change to pass on: we no longer keep CHANGELOG.md by hand. goreleaser builds
    the release notes from the commit subjects now": one change that says what replaced the
    old way; a lead-in that names a tool is kept."""
    [rule] = find_rules("morning! a process change to pass on: we no longer keep CHANGELOG.md by "
                        "hand. goreleaser builds the release notes from the commit subjects now, "
                        "which is exactly why the package prefixes matter. can you switch the "
                        "changelog section on?")
    assert rule.text == ("No longer keep CHANGELOG.md by hand: goreleaser builds the release "
                         "notes from the commit subjects now.")
    assert rule.change and rule.replaces == "keep CHANGELOG.md by hand"
    [move] = find_rules("let's move to vitest: `npm test` should just be `vitest run`, and drop "
                        "jest, ts-jest and @types/jest.")
    assert move.text.startswith("Move to vitest: ")


def test_a_complaint_before_a_colon_is_why_and_the_rule_comes_first() -> None:
    """"one thing that bugs me in general is CLIs that print warnings into stdout, it wrecks
    every pipeline: stdout is data only, anything chatty goes to stderr": the rule leads, so a
    line cut short for an index still says it."""
    [rule] = find_rules("and while we're on pipes, one thing that bugs me in general is CLIs "
                        "that print warnings into stdout, it wrecks every pipeline: stdout is "
                        "data only, anything chatty goes to stderr. anyway, can you fix it?")
    assert rule.text == ("Stdout is data only, anything chatty goes to stderr. Not: CLIs that "
                         "print warnings into stdout, it wrecks every pipeline.")


def test_an_assistant_switching_one_piece_of_code_to_another_is_a_decision() -> None:
    """"For reading, I'll switch read_csv to the pyarrow engine (engine='pyarrow'), which parses
    multithreaded and is several times faster on files this size": a choice about the code (what
    it is for, "files this size", does not make it a one-off); switching branches is not."""
    [rule] = find_rules("For reading, I'll switch read_csv to the pyarrow engine "
                        "(engine='pyarrow'), which parses multithreaded and is several times "
                        "faster on files this size.", speaker="assistant")
    assert rule.kind == "decision" and rule.text.startswith(
        "Switch read_csv to the pyarrow engine (engine='pyarrow')")
    assert find_rules("I'll switch to the other_branch now.", speaker="assistant") == []


def test_a_way_of_working_named_with_its_reach_and_no_verb_is_a_rule() -> None:
    """"the v2 API everywhere", after the names that spell it out, and "async all the way down
    in the new ingest service" are rules to follow; "typos everywhere" is a complaint and
    "there are errors everywhere" a report."""
    texts = [r.text for r in find_rules(
        "right, the 1.x cap has to go then. let's do the real migration now: field_validator, "
        "ConfigDict, model_dump, the v2 API everywhere, no v1 leftovers.")]
    assert "Use field_validator, ConfigDict, model_dump, the v2 API everywhere, no v1 " \
           "leftovers." in texts
    assert [r.text for r in find_rules("async all the way down in the new ingest service — no "
                                       "sync DB calls")] == [
        "Use async all the way down in the new ingest service — no sync DB calls."]
    assert [r.text for r in find_rules("SQL keywords in uppercase please, everywhere (SELECT, "
                                       "FROM, WHERE...)")] == [
        "Use SQL keywords in uppercase everywhere (SELECT, FROM, WHERE...)."]
    for said in ("typos everywhere, ugh", "there are errors everywhere",
                 "logs everywhere since the deploy", "the same bug everywhere"):
        assert find_rules(said) == [], said


def test_a_default_and_the_option_that_leaves_it_are_one_rule() -> None:
    """"CSV is the default output; keep parquet behind `--format parquet`": apart, the second
    half would not say when parquet is used, the first not how to get it."""
    [rule] = find_rules("so scratch that on parquet: from now on CSV is the default output for "
                        "our commands; keep parquet behind `--format parquet` for the big "
                        "backfills.")
    assert rule.text == ("From now on CSV is the default output for our commands; keep parquet "
                         "behind `--format parquet` for the big backfills.")
    assert rule.change


def test_work_asked_for_is_not_a_rule_and_a_rule_keeps_its_places() -> None:
    """What others want built, work asked for later, and the words one help text should have
    are the task, not how to work; "don't ever print the token. not in errors, not in debug
    output, nowhere." is one rule, with no "In there:" taken for its topic from "while
    you're in there"."""
    for said in ("small one: the scanner app wants error bodies as JSON, `{\"error\": \"not "
                 "found\"}`, instead of plain text. can you change AppError's response?",
                 "the scanner app wants error bodies as JSON instead of plain text",
                 "nice. next week I'd like a `--count` mode: just how many records matched.",
                 "the INPUT help should say 'JSON-lines log file to read', it reads a bit odd "
                 "now."):
        assert find_rules(said) == [], said
    assert [r.text for r in find_rules(
        "ok cool. one rule while you're in there: please don't ever print the token. not in "
        "errors, not in debug output, nowhere.")] == [
        "Don't ever print the token; not in errors, not in debug output, nowhere."]
    assert [r.text for r in find_rules("the app must stay ESM-only")] == [
        "The app must stay ESM-only."]
    assert [r.text for r in find_rules("go.mod files should say `go 1.22` from now on")]


def test_a_rule_whose_object_is_a_bare_one_carries_what_it_stands_for() -> None:
    """"ingest needs a --dry-run. ... going forward every command that writes files should
    have one": alone, the rule would not say what every command should have."""
    [rule] = find_rules("ok, today: ingest needs a --dry-run. twice now someone ran it against "
                        "the shared drive. going forward every command that writes files "
                        "should have one; it just prints what it would write.")
    assert rule.text == ("Every command that writes files should have one (--dry-run); it just "
                         "prints what it would write.")
    assert "--dry-run" in rule.terms
    [named] = find_rules("going forward every command that writes files should have a "
                         "--dry-run.")
    assert "(" not in named.text


def test_what_the_product_should_let_someone_find_out_or_do_is_a_feature() -> None:
    """"we need to see afterwards who shipped what" and "we want tidepool to pick up its config
    from TIDEPOOL_* env vars" ask for features; "we need to always check who owns the lock"
    and "we want you to always run the tests" are rules."""
    for said in ("the warehouse needs to mark orders as shipped. and we need to see afterwards "
                 "who shipped what, they'll send an X-Operator header",
                 "next thing: we want tidepool to pick up its config (default output dir, the "
                 "share path) from TIDEPOOL_* env vars."):
        assert find_rules(said) == [], said
    assert [r.text for r in find_rules("we need to always check who owns the lock before "
                                       "deleting")] == [
        "Always check who owns the lock before deleting."]
    assert [r.text for r in find_rules("we want you to always run the tests before pushing")] \
        == ["Always run the tests before pushing."]


def test_a_sentence_that_opens_with_what_someone_wants_built_is_the_request() -> None:
    """"finance wants percentage discounts ..., and we store the discounted total" is what
    finance asked for, in both its clauses; "we can't tell support ..." is a reason; "next up,
    customer search: GET /customers?email= ..." is the next task. A rule said for good in the
    same breath is still a rule."""
    assert [r.text for r in find_rules(
        "hey! finance wants percentage discounts at order creation, like 7.5% off, and we store "
        "the discounted total. and please don't ever use float64 for money here.")] == [
        "Don't ever use float64 for money here."]
    for said in ("yeah, rip it out. we can't tell support 'it's eventually right within 30s'.",
                 "next up, customer search for the support tool: GET /customers?email= (prefix "
                 "match) that also returns each customer's open orders",
                 "hey! first stockroom ticket for you: items need a `sku`. text, unique."):
        assert find_rules(said) == [], said
    assert [r.text for r in find_rules("finance wants totals in cents, so always store money "
                                       "as int64 cents")] == ["Always store money as int64 cents."]


def test_this_repo_is_a_scope_and_the_plural_a_class_of_things() -> None:
    """"for this repo" says where a rule holds, not that it is for this once, and "in the shell
    scripts" names every shell script; "in the fetch function" and "for this" stay one-off."""
    assert [r.text for r in find_rules("use black with line length 100 for this repo")] == [
        "Use black with line length 100 for this repo."]
    assert [r.text for r in find_rules("use jq rather than python one-liners for JSON in the "
                                       "shell scripts")] == [
        "Use jq rather than python one-liners for JSON in the shell scripts."]
    for said in ("fix the bug in the fetch function", "add a test for this",
                 "use a dict in the fetch function instead"):
        assert find_rules(said) == [], said


def test_a_list_under_a_topic_is_read_item_by_item() -> None:
    """"in the rust crates: handlers return `Result<T, AppError>`, and no anyhow in the library
    crate" names its topic, then lists the rules; "CI: red again, flaky redis test" and
    "staging: down again since 9am" are news, and "update: ..." is not a topic."""
    assert [r.text for r in find_rules(
        "in the rust crates: handlers return `Result<T, AppError>`, and no anyhow in the library "
        "crate (it's fine in the bin)")] == [
        "Handlers return `Result<T, AppError>`.",
        "No anyhow in the library crate (it's fine in the bin)."]
    assert [r.text for r in find_rules(
        "versioning: semver, tags look like `vX.Y.Z`, and releases are cut from main only")] \
        == ["Tags look like `vX.Y.Z`.", "Releases are cut from main only."]
    for said in ("CI: red again, flaky redis test", "staging: down again since 9am",
                 "quick question: where does the config live?"):
        assert find_rules(said) == [], said
    # a topic covers its own sentence, not the next one on the line
    assert [r.text for r in find_rules(
        "decision: all list endpoints use cursor-based pagination. the old ones get migrated "
        "over the next two releases.")] == ["All list endpoints use cursor-based pagination."]


def test_a_topic_list_is_not_a_story_nor_a_rule_cut_from_its_why() -> None:
    """"config time: we're at seven env vars now, read with std::env::var all over the place"
    tells how things stand (no rule in it), and a rule under "house rules:" keeps its why
    rather than losing its first half to a comma split."""
    assert find_rules("config time: we're at seven env vars now, read with std::env::var all "
                      "over the place, and Tuesday's outage was a typo nobody noticed.") == []
    assert [r.text for r in find_rules(
        "couple of house rules for anything public: I'd like a TSDoc comment with an @example "
        "on every exported function and option, that's what people see when they hover in "
        "their editor.")] == [
        "I'd like a TSDoc comment with an @example on every exported function and option, "
        "that's what people see when they hover in their editor."]


def test_lets_with_an_adverb_a_schedule_or_a_sole_tool_is_a_decision() -> None:
    """"Let's finally drop IE11", "let's deprecate the v1 endpoints in 3.2 and remove them in
    4.0" and "let's keep Sentry as our only error tracker" are decisions; "let's just keep
    going" and "let's finally fix this bug" are not."""
    assert [(r.kind, r.text) for r in find_rules("Let's finally drop IE11.")] == [
        ("decision", "Drop IE11.")]
    assert [r.text for r in find_rules("let's deprecate the v1 endpoints in 3.2 and remove them "
                                       "in 4.0")] == [
        "Deprecate the v1 endpoints in 3.2 and remove them in 4.0."]
    assert [r.text for r in find_rules("Let's keep Sentry as our only error tracker, we're "
                                       "cancelling Rollbar.")] == [
        "Keep Sentry as our only error tracker, we're cancelling Rollbar."]
    for said in ("let's just keep going", "let's finally fix this bug"):
        assert find_rules(said) == [], said


def test_a_rule_led_by_what_it_covers_keeps_it() -> None:
    """"in every Dockerfile use BuildKit cache mounts ..." is a rule for every Dockerfile, and
    says so; "going forward" only says it stands."""
    assert [r.text for r in find_rules(
        "for you: in every Dockerfile use BuildKit cache mounts "
        "(`--mount=type=cache,target=/root/.cache/pip`) for the pip installs, and copy the "
        "lockfile before the source.")] == [
        "In every Dockerfile, use BuildKit cache mounts "
        "(`--mount=type=cache,target=/root/.cache/pip`) for the pip installs, and copy the "
        "lockfile before the source."]
    assert [r.text for r in find_rules("for every endpoint, please add an OpenAPI example")] \
        == ["For every endpoint, add an OpenAPI example."]
    assert [r.text for r in find_rules("going forward use pnpm")] == ["Use pnpm."]


def test_a_lettered_list_inside_a_sentence_is_its_clauses() -> None:
    """"I'd like you to (a) keep PRs under 400 lines of diff and (b) add screenshots ..." asks
    for both; "keep the public API of `kenning.client` backwards compatible" names a longer
    thing to keep."""
    assert [r.text for r in find_rules(
        "I'd like you to (a) keep PRs under 400 lines of diff and (b) add screenshots in the "
        "description for UI changes")] == [
        "Keep PRs under 400 lines of diff; add screenshots in the description for UI changes."]
    assert [r.text for r in find_rules("please keep the public API of `kenning.client` backwards "
                                       "compatible until 2.0")] == [
        "Keep the public API of `kenning.client` backwards compatible until 2.0."]


def test_run_it_after_making_a_tool_part_of_the_routine_names_the_tool() -> None:
    """"can we make attw part of the routine? run it on the packed tarball before every
    publish": the rule alone would not say what to run."""
    [rule] = find_rules("love it. can we make attw part of the routine? run it on the packed "
                        "tarball before every publish from now on, so this never comes back.")
    assert rule.text == "Run it (attw) on the packed tarball before every publish."
    assert "attw" in rule.terms
    [plain] = find_rules("run it on the packed tarball before every publish from now on")
    assert "(" not in plain.text


def test_how_one_thing_of_the_product_should_behave_is_the_work_not_a_rule() -> None:
    """A requirement for one command or function is what was asked for this time; a rule
    holds beyond one thing (a kind of thing, "always", a tool)."""
    for said in ("deploy should refuse to start without a token: fail fast with a clear error "
                 "before any network call.",
                 "when it aborts, retry should stop right away, even in the middle of a delay.",
                 "`retry(fn, { signal })` should stop retrying as soon as the signal aborts.",
                 "the station list should come from a stations.yaml next to stations.py "
                 "instead of the dict.",
                 # a tool that only says whose title it is does not make it how the team works,
                 # and the reason after it is no rule of its own
                 "nice. tiny thing: the FastAPI title should be 'orderdesk API', not "
                 "'orderdesk', it's what shows in the docs header"):
        assert find_rules(said) == [], said
    for said, text in (("handlers should always return JSON errors",
                        "Handlers should always return JSON errors."),
                       ("the app must stay ESM-only", "The app must stay ESM-only."),
                       ("the linter should be ruff instead of flake8",
                        "The linter should be ruff instead of flake8.")):
        assert [r.text for r in find_rules(said)] == [text]


def test_what_not_to_do_right_after_what_to_do_on_its_subject_is_one_rule() -> None:
    [rule] = find_rules("and going forward, any logging goes through zerolog, using the "
                        "request-scoped logger. I don't want to see log.Printf in new code.")
    assert rule.text == ("Any logging goes through zerolog, using the request-scoped logger; "
                         "I don't want to see log.Printf in new code.")
    assert len(find_rules("tests go in tests/. never commit the .env file.")) == 2


def test_prefix_as_a_noun_is_no_imperative() -> None:
    assert find_rules("could you add a `--target` filter? prefix match, so `--target app::http` "
                      "also catches app::http::client.") == []
    assert [r.text for r in find_rules("always prefix env vars with APP_")] == [
        "Always prefix env vars with APP_."]


def test_should_after_a_pronoun_in_a_later_clause_is_how_it_goes_this_time() -> None:
    """"their API is slow and flaky so it should happen in the background": how the thing just
    asked for should work, not a standing rule; "... they should never be edited" still is."""
    assert find_rules("when a refund is issued we have to notify the payment provider. their "
                      "API is slow and flaky so it should happen in the background") == []
    assert find_rules("existing paid orders that have a refund_ref are exactly those, they "
                      "should move over") == []
    assert [r.text for r in find_rules("migrations are append-only, they should never be "
                                       "edited once merged")] == [
        "Migrations are append-only, they should never be edited once merged."]
