"""Held-out stories in Go projects (services, CLIs, libraries: go test, golangci-lint, sqlc,
cobra), written from public instruction files, their git histories, issue threads and commit
messages of five Go repositories. Names of people are replaced by neutral placeholders."""

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
# 1. sqlc: a SQL-to-Go code generator (CLAUDE.md and its history)
# ---------------------------------------------------------------------------------------------

SQLC = Project("sqlc", "go", {
    "go.mod": (
        "module github.com/sqlc-dev/sqlc\n\ngo 1.25.0\n\nrequire (\n"
        "\tgithub.com/go-sql-driver/mysql v1.9.3\n\tgithub.com/jackc/pgx/v5 v5.7.5\n"
        "\tgithub.com/pganalyze/pg_query_go/v6 v6.1.0\n)\n"
    ),
    "Makefile": (
        ".PHONY: build test test-examples vet start\n\nbuild:\n\tgo build ./...\n\n"
        "test:\n\tgo test ./...\n\ntest-examples:\n\tgo test --tags=examples ./...\n\n"
        "vet:\n\tgo vet ./...\n\nstart:\n\tdocker compose up -d\n"
    ),
    "docker-compose.yml": (
        "services:\n  postgresql:\n    image: postgres:16\n    ports: [\"5432:5432\"]\n"
        "    environment:\n      POSTGRES_PASSWORD: mysecretpassword\n"
        "  mysql:\n    image: mysql:9\n    ports: [\"3306:3306\"]\n"
        "    environment:\n      MYSQL_ROOT_PASSWORD: mysecretpassword\n"
        "      MYSQL_DATABASE: dinotest\n"
    ),
    "cmd/sqlc/main.go": (
        "package main\n\nimport (\n\t\"os\"\n\n\t\"github.com/sqlc-dev/sqlc/internal/cmd\"\n)\n\n"
        "func main() {\n\tos.Exit(cmd.Do(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))\n}\n"
    ),
    "internal/compiler/output_columns.go": (
        "package compiler\n\nimport \"strings\"\n\n"
        "// starColumns expands SELECT * into the table's columns.\n"
        "func starColumns(table string, cols []string, qualified bool) []string {\n"
        "\tout := make([]string, 0, len(cols))\n\tfor _, c := range cols {\n"
        "\t\tif qualified {\n\t\t\tout = append(out, table+\".\"+c)\n\t\t\tcontinue\n\t\t}\n"
        "\t\tout = append(out, c)\n\t}\n\treturn out\n}\n\n"
        "func quoteIdent(name string) string {\n"
        "\tif strings.ToLower(name) == name {\n\t\treturn name\n\t}\n"
        "\treturn `\"` + name + `\"`\n}\n"
    ),
    "internal/compiler/output_columns_test.go": (
        "package compiler\n\nimport \"testing\"\n\n"
        "func TestStarColumns(t *testing.T) {\n"
        "\tgot := starColumns(\"authors\", []string{\"id\", \"name\"}, true)\n"
        "\tif got[0] != \"authors.id\" {\n\t\tt.Fatalf(\"got %v\", got)\n\t}\n}\n"
    ),
    "internal/endtoend/endtoend_test.go": (
        "package main\n\nimport \"testing\"\n\n"
        "// TestReplay runs every case under testdata/ once per context.\n"
        "func TestReplay(t *testing.T) {\n\tfor _, ctx := range contexts() {\n"
        "\t\tt.Run(ctx.name, func(t *testing.T) { replayAll(t, ctx) })\n\t}\n}\n"
    ),
    ".github/workflows/ci.yml": (
        "name: go\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-24.04\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n"
        "        with:\n          go-version: '1.25.0'\n"
        "      - run: docker compose up -d\n"
        "      - run: gotestsum --junitfile junit.xml -- --tags=examples -timeout 20m ./...\n"
        "      - run: govulncheck ./...\n"
    ),
})

SQLC_GOPROXY_FAIL = (
    "go: downloading github.com/jackc/pgx/v5 v5.7.5\n"
    "go: downloading github.com/pganalyze/pg_query_go/v6 v6.1.0\n"
    "go: github.com/pganalyze/pg_query_go/v6@v6.1.0: Get \"https://storage.googleapis.com/"
    "proxy-golang-org-prod/7a1f3c-github.com:pganalyze:pg_query_go:v6-v6.1.0.zip?"
    "Expires=1766590000\": dial tcp 142.250.74.59:443: connect: connection refused"
)
SQLC_UNIT_FAIL = (
    "--- FAIL: TestStarColumnsQuoted (0.00s)\n"
    "    output_columns_test.go:8: got [Authors.id]\n"
    "FAIL\nFAIL\tgithub.com/sqlc-dev/sqlc/internal/compiler\t0.018s\nFAIL"
)
SQLC_FULL_PASS = (
    "ok  \tgithub.com/sqlc-dev/sqlc/internal/compiler\t0.412s\n"
    "ok  \tgithub.com/sqlc-dev/sqlc/internal/config\t0.035s\n"
    "ok  \tgithub.com/sqlc-dev/sqlc/internal/endtoend\t212.804s\n"
    "ok  \tgithub.com/sqlc-dev/sqlc/examples/authors/postgresql\t3.118s\n"
    "ok  \tgithub.com/sqlc-dev/sqlc/examples/booktest/mysql\t4.502s\n"
    "ok  \tgithub.com/sqlc-dev/sqlc/examples/ondeck/sqlite\t0.611s"
)

SQLC_STORY = Story(
    id="ho-go-sqlc-1",
    title="sqlc: database test setup moves to a helper command, tests move to end-to-end cases",
    project=SQLC,
    sources=("sqlc-dev/sqlc",),
    lessons=(
        lesson("sq-test-full", "command",
               "The full suite (needs PostgreSQL and MySQL running) is "
               "`go test --tags=examples -timeout 20m ./...`",
               "tags=examples", "20m"),
        lesson("sq-db-native", "command",
               "Without Docker (remote environment) install PostgreSQL and MySQL 9 natively: apt "
               "proxy, `apt-get install postgresql`, password auth in pg_hba.conf, MySQL 9 from "
               "Oracle's deb bundle with `dpkg -i`; the tests detect native databases",
               "natively|native", "apt-get install|pg_hba.conf|dpkg -i"),
        lesson("sq-db-setup", "command",
               "Databases for tests are installed and started with "
               "`go run ./cmd/sqlc-test-setup install` then `go run ./cmd/sqlc-test-setup start` "
               "(idempotent; CI uses it instead of Docker)",
               "sqlc-test-setup"),
        lesson("sq-go-125", "fact", "sqlc needs Go 1.25.0+ to build and test", "1.25"),
        lesson("sq-go-126", "fact", "sqlc needs Go 1.26.0+ (go.mod, CI and CLAUDE.md bumped)",
               "1.26"),
        lesson("sq-goproxy", "gotcha",
               "Errors about storage.googleapis.com mean the Go proxy is unreachable: fetch "
               "modules directly with `GOPROXY=direct go mod download`",
               "GOPROXY=direct|GOPROXY"),
        lesson("sq-unit-tests", "convention",
               "Unit tests live next to the code as *_test.go files; good examples are in "
               "internal/engine/postgresql/*_test.go",
               r"re:_test\.go", "unit"),
        lesson("sq-e2e", "convention",
               "Cover new work with end-to-end tests, not unit tests: add a case directory under "
               "internal/endtoend/testdata/ (schema, query, committed golden output), not a "
               "*_test.go next to the code; unit tests only when the CLI cannot reach it, saying "
               "why",
               "endtoend/testdata|endtoend|end-to-end|end to end"),
        lesson("sq-golden", "convention",
               "An end-to-end case without exec.json runs generate and compares the committed "
               "files; regenerate a golden by running the command in the case directory and "
               "writing the output back; a failing case commits stderr.txt",
               "golden|exec.json|stderr.txt", "regenerat|run the command|writing the output"),
        lesson("sq-core-optin", "gotcha",
               "The analysis-core context of TestReplay is opt-in through the SQLC_TEST_CORE "
               "environment variable (`SQLC_TEST_CORE=1 go test ./internal/endtoend -run "
               "'TestReplay/core'`), not a test flag: a flag defined in one test binary fails "
               "every package that does not define it; a panic ends the run, so run a subset",
               "SQLC_TEST_CORE"),
    ),
    also=(
        # session 1: "feature branches for Claude Code work should start with `claude/`"
        lesson("also-sq-branch", "convention",
               "Branches for Claude Code work start with `claude/` and end with the session ID",
               "claude/"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: sqlc-dev/sqlc CLAUDE.md (b807fe9ef, 67e865b70)
            User("hey, first time in this repo from the remote box. quick setup notes before you "
                 "start: Go 1.25.0+ is required for building and testing. Docker & Docker Compose "
                 "are what we use for the integration tests with databases on our laptops, but "
                 "this environment has no Docker, so install PostgreSQL and MySQL natively: "
                 "configure the apt proxy, `sudo apt-get install -y postgresql`, set the postgres "
                 "password and add the md5 line for 127.0.0.1/32 to pg_hba.conf, and MySQL 9 comes "
                 "from Oracle's deb bundle (`sudo dpkg -i mysql-common_*.deb ...`). The test "
                 "framework automatically detects and uses native database installations.",
                 states=("sq-go-125", "sq-db-native")),
            Bash("go mod download", out=SQLC_GOPROXY_FAIL, ok=False),
            Say("The module download fails on storage.googleapis.com, so the Go proxy is "
                "unreachable from here. Fetching the modules directly with "
                "`GOPROXY=direct go mod download` works around it.", states="sq-goproxy"),
            Bash("GOPROXY=direct go mod download", out=""),
            # source: sqlc-dev/sqlc CLAUDE.md (b807fe9ef, Test Types / Tips for Contributors)
            User("ok. the bug: qualified star expansion doesn't quote mixed-case table names. "
                 "unit tests live throughout the codebase as *_test.go files, good examples in "
                 "internal/engine/postgresql/*_test.go - add one next to output_columns.go.",
                 states="sq-unit-tests"),
            Read("internal/compiler/output_columns.go"),
            Edit("internal/compiler/output_columns_test.go", "func TestStarColumns(",
                 "func TestStarColumnsQuoted(t *testing.T) {\n"
                 "\tgot := starColumns(\"Authors\", []string{\"id\"}, true)\n"
                 "\tif got[0] != `\"Authors\".id` {\n\t\tt.Fatalf(\"got %v\", got)\n\t}\n}\n\n"
                 "func TestStarColumns("),
            Bash("go test ./internal/compiler", out=SQLC_UNIT_FAIL, ok=False),
            Edit("internal/compiler/output_columns.go",
                 "\t\t\tout = append(out, table+\".\"+c)\n",
                 "\t\t\tout = append(out, quoteIdent(table)+\".\"+c)\n"),
            Bash("go test ./internal/compiler",
                 out="ok  \tgithub.com/sqlc-dev/sqlc/internal/compiler\t0.391s"),
            # source: sqlc-dev/sqlc CLAUDE.md (b807fe9ef, Running Tests / Tips for Contributors)
            User("nice. before committing run the full suite: "
                 "`go test --tags=examples -timeout 20m ./...` - the end-to-end tests can take a "
                 "while, hence the long timeout.", states="sq-test-full"),
            Bash("go test --tags=examples -timeout 20m ./...", out=SQLC_FULL_PASS),
            Commit("compiler: quote mixed-case table names in qualified star expansion"),
        )),
        Session(day=3, events=(
            # source: sqlc-dev/sqlc CLAUDE.md (b807fe9ef, Git Workflow)
            User("morning. one workflow thing: feature branches for Claude Code work should start "
                 "with `claude/` and end with the session ID. today: the MySQL VECTOR column "
                 "type comes out as interface{} in generated code."),
            User("just for this one you can skip the SQLite examples, I only care about the "
                 "mysql side today."),
            Read("internal/compiler/output_columns.go"),
            Edit("internal/compiler/output_columns.go",
                 "func quoteIdent(name string) string {",
                 "// vectorType maps MySQL 9 VECTOR columns to []float32.\n"
                 "func vectorType(dbType string) (string, bool) {\n"
                 "\tif strings.EqualFold(dbType, \"vector\") {\n\t\treturn \"[]float32\", true\n"
                 "\t}\n\treturn \"\", false\n}\n\nfunc quoteIdent(name string) string {"),
            Probe("the box got recycled overnight, so nothing is installed again. get me a green "
                  "run of everything including the db-backed tests before I push",
                  needs=("sq-db-native", "sq-test-full")),
            Bash("sudo apt-get install -y postgresql && sudo service postgresql start",
                 out="Setting up postgresql-16 (16.9-0ubuntu0.24.04.1) ...\n"
                     " * Starting PostgreSQL 16 database server   [ OK ]"),
            Bash("go test --tags=examples -timeout 20m ./...", out=SQLC_FULL_PASS),
            Commit("mysql: map VECTOR columns to []float32"),
        ), judge={"sq-test-full": "not_down"}),
        Session(day=40, events=(
            # source: sqlc-dev/sqlc PR #4304 "Add sqlc-test-setup command for database test
            # environment setup" (CLAUDE.md and ci.yml diff)
            User("heads up, we merged a `sqlc-test-setup` tool (cmd/sqlc-test-setup/) that "
                 "automates installing and starting PostgreSQL and MySQL for tests. Both commands "
                 "are idempotent and safe to re-run: `go run ./cmd/sqlc-test-setup install` "
                 "resolves all dependencies and skips anything already installed, then "
                 "`go run ./cmd/sqlc-test-setup start` starts both, configures password auth and "
                 "verifies the connections. CI uses sqlc-test-setup (not Docker) now too - can "
                 "you switch the workflow over?",
                 states="sq-db-setup", replaces="sq-db-native"),
            Edit(".github/workflows/ci.yml", "      - run: docker compose up -d\n",
                 "      - run: go run ./cmd/sqlc-test-setup install\n"
                 "      - run: go run ./cmd/sqlc-test-setup start\n"),
            Commit("ci: install and start databases with sqlc-test-setup"),
            # source: sqlc-dev/sqlc PR #4312 "Upgrade Go version to 1.26.0"
            User("and while you're in there: Upgrade Go version to 1.26.0 - go.mod, the CI "
                 "workflows and the prerequisite in CLAUDE.md.", states="sq-go-126",
                 replaces="sq-go-125"),
            Edit("go.mod", "go 1.25.0", "go 1.26.0"),
            Edit(".github/workflows/ci.yml", "go-version: '1.25.0'", "go-version: '1.26.0'"),
            Commit("Upgrade Go version to 1.26.0"),
        )),
        Session(day=44, events=(
            Probe("fresh container, nothing running. set up whatever the tests need and do a full "
                  "run, please", needs=("sq-db-setup", "sq-test-full")),
            Bash("go run ./cmd/sqlc-test-setup install && go run ./cmd/sqlc-test-setup start",
                 out="postgresql: installed\nmysql 9.1.0: installed\n"
                     "postgresql: started, password auth configured\n"
                     "mysql: started via mysqld_safe\nverified: postgres, mysql"),
            Bash("go test --tags=examples -timeout 20m ./...", out=SQLC_FULL_PASS),
            Probe("I'm writing the devcontainer for new contributors - which Go version should "
                  "the image pin?", needs="sq-go-126"),
            Say("Go 1.26.0, matching go.mod and the CI workflow."),
        ), judge={"sq-db-setup": "not_down"}),
        Session(day=200, events=(
            # source: sqlc-dev/sqlc PR #4538 (CLAUDE.md "Testing Strategy")
            User("new testing policy, it's in CLAUDE.md now. Cover new work with end-to-end "
                 "tests, not unit tests. A change to the compiler, an engine, the analysis core "
                 "or codegen is exercised by running sqlc the way a user does - a schema, a query "
                 "file and a committed golden output. Adding coverage means adding a directory "
                 "under internal/endtoend/testdata/, not a *_test.go next to the code. Reach for "
                 "a unit test only when the behavior genuinely cannot be reached through the CLI, "
                 "and say why in the test.", states="sq-e2e", replaces="sq-unit-tests"),
            User("someone asked if that means we delete the old unit tests - no. Some *_test.go "
                 "files predate this and remain; they are not a precedent for new ones."),
            # source: sqlc-dev/sqlc PR #4538 (CLAUDE.md "End-to-End Tests")
            User("how a case works: exec.json names the command - omit it and the case runs "
                 "generate, comparing the generated files against the ones committed alongside. "
                 "A case that is expected to fail commits its stderr.txt. Regenerate a golden by "
                 "running the command in its directory and writing the output back over the "
                 "committed file.", states="sq-golden"),
            Say("Understood: new coverage is a case directory under internal/endtoend/testdata/ "
                "with its golden output, regenerated by running sqlc in that directory."),
        )),
        Session(day=205, events=(
            # source: sqlc-dev/sqlc PR #4548 (commit message and CLAUDE.md)
            User("I want a way to run the whole corpus through the new analysis core. try adding "
                 "a -core test flag to TestReplay."),
            Edit("internal/endtoend/endtoend_test.go", "package main\n\nimport \"testing\"\n",
                 "package main\n\nimport (\n\t\"flag\"\n\t\"testing\"\n)\n\n"
                 "var core = flag.Bool(\"core\", false, \"run the core context\")\n"),
            Bash("go test ./... -core",
                 out="ok  \tgithub.com/sqlc-dev/sqlc/internal/endtoend\t198.120s\n"
                     "flag provided but not defined: -core\n"
                     "Usage of /tmp/go-build1482/b214/compiler.test:\n"
                     "FAIL\tgithub.com/sqlc-dev/sqlc/internal/compiler\t0.009s\n"
                     "flag provided but not defined: -core\n"
                     "FAIL\tgithub.com/sqlc-dev/sqlc/internal/config\t0.007s\nFAIL",
                 ok=False),
            # source: sqlc-dev/sqlc PR #4548 (commit message)
            User("right, that's why upstream gated it with an environment variable rather than a "
                 "test flag: the documented workflow runs the whole module, and a flag defined in "
                 "one test binary fails every package that does not define it. The two paths "
                 "still disagree, so the core context is opt-in: "
                 "`SQLC_TEST_CORE=1 go test ./internal/endtoend -run 'TestReplay/core'`. Go "
                 "aborts a test binary on panic, so a case that panics the core analyzer ends the "
                 "run early - run a subset to get past one.", states="sq-core-optin"),
            Edit("internal/endtoend/endtoend_test.go",
                 "var core = flag.Bool(\"core\", false, \"run the core context\")\n",
                 "// The core context runs only when SQLC_TEST_CORE is set.\n"
                 "var core = os.Getenv(\"SQLC_TEST_CORE\") != \"\"\n"),
            Edit("internal/endtoend/endtoend_test.go", "\t\"flag\"\n\t\"testing\"\n",
                 "\t\"os\"\n\t\"testing\"\n"),
            Bash("SQLC_TEST_CORE=1 go test ./internal/endtoend -run 'TestReplay/core/^select'",
                 out="ok  \tgithub.com/sqlc-dev/sqlc/internal/endtoend\t41.277s"),
            Commit("endtoend: add an opt-in core context to TestReplay"),
        )),
        Session(day=210, events=(
            # source: sqlc-dev/sqlc PR #4548 (core/analyzer: bind FROM items, jsonb_each case)
            User("the jsonb_each(jsonb_extract_path(...)) in FROM crash is fixed in the "
                 "analyzer. I'd like coverage for it."),
            Probe("add the coverage for that jsonb_each query and make sure its expected output "
                  "is right", needs=("sq-e2e", "sq-golden")),
            Write("internal/endtoend/testdata/jsonb_each_from/postgresql/query.sql",
                  "-- name: ListPaths :many\nSELECT x.key FROM transactions,\n"
                  "     jsonb_each(jsonb_extract_path(transactions.data, 'a')) AS x;\n"),
            Write("internal/endtoend/testdata/jsonb_each_from/postgresql/schema.sql",
                  "CREATE TABLE transactions (id bigserial PRIMARY KEY, data jsonb NOT NULL);\n"),
            Probe("now run just that corpus through the new analysis core as well",
                  needs="sq-core-optin"),
            Bash("SQLC_TEST_CORE=1 go test ./internal/endtoend -run 'TestReplay/core/jsonb'",
                 out="ok  \tgithub.com/sqlc-dev/sqlc/internal/endtoend\t2.904s"),
            Commit("endtoend: cover set-returning functions in FROM"),
            User("push it on a fresh branch and open the PR"),
        ), judge={"sq-core-optin": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 2. go-github: a Go client library for the GitHub API (CONTRIBUTING.md, AGENTS.md, history)
# ---------------------------------------------------------------------------------------------

GO_GITHUB = Project("go-github", "go", {
    "go.mod": "module github.com/google/go-github/v75\n\ngo 1.24.0\n\n"
              "require github.com/google/go-cmp v0.7.0\n",
    "github/github.go": (
        "package github\n\nimport (\n\t\"context\"\n\t\"net/http\"\n)\n\n"
        "//go:generate go run gen-accessors.go\n//go:generate go run gen-stringify-test.go\n\n"
        "type service struct {\n\tclient *Client\n}\n\n"
        "// Client manages communication with the GitHub API.\ntype Client struct {\n"
        "\tclient *http.Client\n\tcommon service\n\n"
        "\tRepositories *RepositoriesService\n}\n\n"
        "// NewRequest creates an API request.\n"
        "func (c *Client) NewRequest(method, urlStr string, body any) (*http.Request, error) {\n"
        "\treturn newRequest(method, urlStr, body)\n}\n\n"
        "// Do sends an API request and returns the API response.\n"
        "func (c *Client) Do(ctx context.Context, req *http.Request, v any) (*Response, error) {\n"
        "\treturn c.do(req.WithContext(ctx), v)\n}\n\n"
        "// Ptr is a helper routine that allocates a new T value to store v and returns a "
        "pointer to it.\nfunc Ptr[T any](v T) *T { return &v }\n"
    ),
    "github/repos.go": (
        "package github\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\n"
        "// RepositoriesService handles communication with the repository related methods.\n"
        "type RepositoriesService service\n\n"
        "// Repository represents a GitHub repository.\ntype Repository struct {\n"
        "\tID   *int64  `json:\"id,omitempty\"`\n\tName *string `json:\"name,omitempty\"`\n}\n\n"
        "// Get fetches a repository.\n//\n"
        "//meta:operation GET /repos/{owner}/{repo}\n"
        "func (s *RepositoriesService) Get(ctx context.Context, owner, repo string) "
        "(*Repository, *Response, error) {\n"
        "\tu := fmt.Sprintf(\"repos/%v/%v\", owner, repo)\n"
        "\treq, err := s.client.NewRequest(\"GET\", u, nil)\n"
        "\tif err != nil {\n\t\treturn nil, nil, err\n\t}\n\n"
        "\trepository := new(Repository)\n"
        "\tresp, err := s.client.Do(ctx, req, repository)\n"
        "\tif err != nil {\n\t\treturn nil, resp, err\n\t}\n\n\treturn repository, resp, nil\n}\n"
    ),
    "github/repos_test.go": (
        "package github\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"net/http\"\n\t\"testing\"\n\n"
        "\t\"github.com/google/go-cmp/cmp\"\n)\n\n"
        "func TestRepositoriesService_Get(t *testing.T) {\n\tt.Parallel()\n"
        "\tclient, mux, _ := setup(t)\n\n"
        "\tmux.HandleFunc(\"/repos/o/r\", func(w http.ResponseWriter, r *http.Request) {\n"
        "\t\ttestMethod(t, r, \"GET\")\n\t\tfmt.Fprint(w, `{\"id\":1}`)\n\t})\n\n"
        "\tctx := context.Background()\n"
        "\tgot, _, err := client.Repositories.Get(ctx, \"o\", \"r\")\n"
        "\tif err != nil {\n\t\tt.Fatalf(\"Repositories.Get returned error: %v\", err)\n\t}\n"
        "\tif want := (&Repository{ID: Ptr(int64(1))}); !cmp.Equal(got, want) {\n"
        "\t\tt.Errorf(\"Repositories.Get returned %+v, want %+v\", got, want)\n\t}\n}\n"
    ),
    "github/github-accessors.go": (
        "// Copyright 2017 The go-github AUTHORS. All rights reserved.\n\n"
        "// Code generated by gen-accessors; DO NOT EDIT.\n\npackage github\n\n"
        "// GetID returns the ID field if it's non-nil, zero value otherwise.\n"
        "func (r *Repository) GetID() int64 {\n\tif r == nil || r.ID == nil {\n\t\treturn 0\n"
        "\t}\n\treturn *r.ID\n}\n"
    ),
    "script/test.sh": "#!/bin/sh\n#/ script/test.sh runs tests on each go module in go-github.\n"
                      "set -e\ngo test -race -covermode atomic ./...\n",
    "script/lint.sh": "#!/bin/sh\n#/ script/lint.sh runs linters and validates generated "
                      "files.\nset -e\ngolangci-lint run\nscript/generate.sh --check\n",
    "script/generate.sh": "#!/bin/sh\n#/ script/generate.sh runs go generate on repo.\nset -e\n"
                          "go generate ./...\ngo mod tidy\n",
    "script/fmt.sh": "#!/bin/sh\n#/ script/fmt.sh formats all Go code in the repository.\n"
                     "set -e\ngolangci-lint fmt\n",
})

GH_LINT_OUT_OF_DATE = (
    "Linting modules\n\n"
    "✔ .                                        [ PASS ]\n"
    "✔ tools                                    [ PASS ]\n"
    "Validating generated files\n\n"
    "2025/09/25 10:14:03 Generated files are out of date. Please run go generate ./... and "
    "commit the results\nexit status 1\ngithub/github.go:8: running \"go\": exit status 1\n"
    "✘ Generated files out of sync\n"
    "----------------------------\nLinting: issues found in 0 module directories.\n"
    "--------------------------------------------"
)
GH_LINT_OK = (
    "Linting modules\n\n"
    "✔ .                                        [ PASS ]\n"
    "✔ tools                                    [ PASS ]\n"
    "Validating generated files\n\n✔ Generated files are up to date\n"
    "----------------------------\nLinting: issues found in 0 module directories.\n"
    "--------------------------------------------"
)
GH_TEST_OK = (
    "testing .\nok  \tgithub.com/google/go-github/v75/github\t6.912s\t"
    "coverage: 97.9% of statements\ntesting tools\n"
    "ok  \tgithub.com/google/go-github/v75/tools/metadata\t0.412s"
)

GO_GITHUB_STORY = Story(
    id="ho-go-github-1",
    title="go-github: generated accessors, JSON tag rules, and the request context moving into "
          "the request",
    project=GO_GITHUB,
    sources=("google/go-github",),
    lessons=(
        lesson("gg-scripts", "command",
               "Before submitting run script/fmt.sh, script/test.sh and script/lint.sh; if "
               "lint says generated files need updating, run script/generate.sh",
               "script/lint.sh|lint.sh", "script/test.sh|test.sh"),
        lesson("gg-generated", "gotcha",
               "github-accessors.go and the other generated files must never be edited by hand: "
               "after adding or changing a struct field run script/generate.sh, or "
               "script/lint.sh fails with 'Generated files are out of date'",
               "generate.sh|go generate", "accessor|generated"),
        lesson("gg-files", "convention",
               "Files are organized as {service}_{api}.go following the GitHub API docs (e.g. "
               "repo webhooks live in repos_hooks.go), tests in {service}_{api}_test.go",
               "{service}_{api}|repos_hooks"),
        lesson("gg-json", "convention",
               "JSON tags: required fields are non-pointer without omitempty, optional fields "
               "are pointers with omitempty; omitzero for structs, time.Time and slices",
               "omitempty", "pointer|omitzero"),
        lesson("gg-ctx-do", "convention",
               "Service methods build the request with s.client.NewRequest(method, u, body) and "
               "pass ctx to s.client.Do(ctx, req, v)",
               "Do(ctx"),
        lesson("gg-ctx-req", "decision",
               "Since the request-context refactor (#4151, breaking) the context travels in the "
               "request: s.client.NewRequest(ctx, method, u, body), then s.client.Do(req, v)",
               "NewRequest(ctx"),
        lesson("gg-test-bg", "convention",
               "Tests get their request context with ctx := context.Background()",
               "context.Background()"),
        lesson("gg-test-tctx", "convention",
               "Tests use t.Context() instead of context.Background() for the request context",
               "t.Context()"),
        lesson("gg-commit", "convention",
               "Commit subject / PR title: at most 50 characters, capitalized, imperative, no "
               "trailing period; optional lower-case type prefix like feat: or fix:, with ! for "
               "breaking API changes",
               "50", "subject|title"),
        lesson("gg-apply-all", "convention",
               "When a reviewer comments on one occurrence of an issue, apply the same fix to "
               "all similar occurrences in the PR without waiting to be told each one",
               "similar occurrences|every occurrence|all occurrences|each one"),
    ),
    also=(
        # session 4: "Please do not use force-push on PRs in this repo"
        lesson("also-gg-no-force", "convention",
               "Do not force-push on PRs; PRs are squash-merged", "force-push|force push"),
        # session 4: disclose AI help in the PR description
        lesson("also-gg-disclose", "convention",
               "If an AI tool helped with code, tests or prose, disclose briefly what it did in "
               "the PR description", "disclose"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: google/go-github CONTRIBUTING.md (Submitting a patch, File Organization)
            User("hi! I want to add the repo webhook config endpoints (GET/PATCH "
                 "/repos/{owner}/{repo}/hooks/{hook_id}/config). house rules: files are "
                 "organized by service and API endpoint following the pattern {service}_{api}.go "
                 "- methods defined at docs.github.com/en/rest/webhooks/repos live in "
                 "repos_hooks.go - and test files follow {service}_{api}_test.go.",
                 states="gg-files"),
            # source: google/go-github github/repos.go (method shape before #4151)
            User("method shape like every other one in repos.go: u := fmt.Sprintf(...), "
                 "req, err := s.client.NewRequest(\"GET\", u, nil), then "
                 "resp, err := s.client.Do(ctx, req, config).", states="gg-ctx-do"),
            Write("github/repos_hooks.go",
                  "package github\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\n"
                  "// HookConfig describes metadata about a webhook configuration.\n"
                  "type HookConfig struct {\n"
                  "\tContentType *string `json:\"content_type,omitempty\"`\n"
                  "\tURL         *string `json:\"url,omitempty\"`\n}\n\n"
                  "// GetHookConfiguration returns the configuration for the specified "
                  "repository webhook.\n//\n"
                  "//meta:operation GET /repos/{owner}/{repo}/hooks/{hook_id}/config\n"
                  "func (s *RepositoriesService) GetHookConfiguration(ctx context.Context, "
                  "owner, repo string, id int64) (*HookConfig, *Response, error) {\n"
                  "\tu := fmt.Sprintf(\"repos/%v/%v/hooks/%v/config\", owner, repo, id)\n"
                  "\treq, err := s.client.NewRequest(\"GET\", u, nil)\n"
                  "\tif err != nil {\n\t\treturn nil, nil, err\n\t}\n\n"
                  "\tconfig := new(HookConfig)\n"
                  "\tresp, err := s.client.Do(ctx, req, config)\n"
                  "\tif err != nil {\n\t\treturn nil, resp, err\n\t}\n\n"
                  "\treturn config, resp, nil\n}\n"),
            # source: google/go-github CONTRIBUTING.md (Submitting a patch, step 4)
            User("then run script/fmt.sh, script/test.sh and script/lint.sh to format your code "
                 "and check that it passes all tests and linters. script/lint.sh may also tell "
                 "you that generated files need to be updated; if so, run script/generate.sh.",
                 states="gg-scripts"),
            Bash("script/fmt.sh", out="0 issues."),
            Bash("script/lint.sh", out=GH_LINT_OUT_OF_DATE, ok=False),
            Say("Lint fails only on generated files: HookConfig is new, so its GetContentType / "
                "GetURL accessors in github-accessors.go are missing. Those files are "
                "generated and must never be edited by hand - script/generate.sh regenerates "
                "them after any struct change.", states="gg-generated"),
            Bash("script/generate.sh", out=""),
            Bash("script/lint.sh", out=GH_LINT_OK),
            Bash("script/test.sh", out=GH_TEST_OK),
            Commit("Add GetHookConfiguration for repository webhooks"),
        ), judge={"gg-scripts": "not_down"}),
        Session(day=5, events=(
            # source: google/go-github github/repos_test.go (test shape before PR #3750)
            User("when you get to tests, mirror repos_test.go: t.Parallel(), "
                 "client, mux, _ := setup(t), and ctx := context.Background() for the "
                 "request context.", states="gg-test-bg"),
            # source: google/go-github CONTRIBUTING.md (JSON Tags, Request Bodies)
            User("next the PATCH. for the request body: required fields should be non-pointer "
                 "types without omitempty. Optional fields should be pointer types with "
                 "omitempty. Use omitzero for structs and time.Time where you want to omit empty "
                 "values (not just nil); for slices and maps omitzero keeps empty non-nil values "
                 "and only omits nil.", states="gg-json"),
            Edit("github/repos_hooks.go", "// GetHookConfiguration returns",
                 "// EditHookConfiguration updates the configuration for the specified "
                 "repository webhook.\n//\n"
                 "//meta:operation PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config\n"
                 "func (s *RepositoriesService) EditHookConfiguration(ctx context.Context, "
                 "owner, repo string, id int64, config *HookConfig) (*HookConfig, *Response, "
                 "error) {\n"
                 "\tu := fmt.Sprintf(\"repos/%v/%v/hooks/%v/config\", owner, repo, id)\n"
                 "\treq, err := s.client.NewRequest(\"PATCH\", u, config)\n"
                 "\tif err != nil {\n\t\treturn nil, nil, err\n\t}\n\n"
                 "\tc := new(HookConfig)\n\tresp, err := s.client.Do(ctx, req, c)\n"
                 "\tif err != nil {\n\t\treturn nil, resp, err\n\t}\n\n"
                 "\treturn c, resp, nil\n}\n\n// GetHookConfiguration returns"),
            # source: google/go-github CONTRIBUTING.md (Use proper commit messages and PR
            # titles, #3952)
            User("for the commit: limit the subject line to 50 characters, capitalize it, do "
                 "not end it with a period, use the imperative mood. You may optionally prefix "
                 "the PR title with the type in lower case followed by a colon, like feat: or "
                 "fix:, and add an exclamation point for breaking API changes (feat!:).",
                 states="gg-commit"),
            Bash("script/generate.sh && script/lint.sh", out=GH_LINT_OK),
            Commit("feat: Add EditHookConfiguration"),
            User("is there a rate limit header on that endpoint? curious, not for this PR."),
            Say("It returns the usual X-RateLimit-* headers; Response already parses them."),
        )),
        Session(day=20, events=(
            # source: google/go-github PR #3750 "test: Use t.Context() instead of
            # context.Background()"
            User("fyi #3750 landed: tests now use t.Context() instead of context.Background() "
                 "for the request context. the older tests all used ctx := "
                 "context.Background() - that's gone now.",
                 states="gg-test-tctx", replaces="gg-test-bg"),
            Edit("github/repos_test.go", "\tctx := context.Background()\n",
                 "\tctx := t.Context()\n"),
            Edit("github/repos_test.go", "import (\n\t\"context\"\n\t\"fmt\"\n",
                 "import (\n\t\"fmt\"\n"),
            Bash("script/test.sh", out=GH_TEST_OK),
            Commit("test: Use t.Context() in repos tests"),
        )),
        Session(day=30, events=(
            Probe("please write tests for both hook config methods, same style as the others",
                  needs=("gg-test-tctx", "gg-files")),
            Write("github/repos_hooks_test.go",
                  "package github\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n\t\"testing\"\n\n"
                  "\t\"github.com/google/go-cmp/cmp\"\n)\n\n"
                  "func TestRepositoriesService_GetHookConfiguration(t *testing.T) {\n"
                  "\tt.Parallel()\n\tclient, mux, _ := setup(t)\n\n"
                  "\tmux.HandleFunc(\"/repos/o/r/hooks/1/config\", "
                  "func(w http.ResponseWriter, r *http.Request) {\n"
                  "\t\ttestMethod(t, r, \"GET\")\n"
                  "\t\tfmt.Fprint(w, `{\"content_type\": \"json\"}`)\n\t})\n\n"
                  "\tctx := t.Context()\n"
                  "\tgot, _, err := client.Repositories.GetHookConfiguration(ctx, "
                  "\"o\", \"r\", 1)\n"
                  "\tif err != nil {\n\t\tt.Fatalf(\"returned error: %v\", err)\n\t}\n"
                  "\tif want := (&HookConfig{ContentType: Ptr(\"json\")}); "
                  "!cmp.Equal(got, want) {\n\t\tt.Errorf(\"got %+v, want %+v\", got, want)\n"
                  "\t}\n}\n"),
            Probe("I also want an InsecureSSL field on HookConfig - what's the full set of "
                  "steps to get that in cleanly?", needs=("gg-generated", "gg-json")),
            Edit("github/repos_hooks.go",
                 "\tURL         *string `json:\"url,omitempty\"`\n",
                 "\tURL         *string `json:\"url,omitempty\"`\n"
                 "\tInsecureSSL *string `json:\"insecure_ssl,omitempty\"`\n"),
            Bash("script/generate.sh && script/lint.sh", out=GH_LINT_OK),
            Probe("ok, check it all before I open the PR", needs="gg-scripts"),
            Bash("script/fmt.sh && script/test.sh && script/lint.sh", out=GH_TEST_OK),
            Commit("Add InsecureSSL to HookConfig and tests"),
        ), judge={"gg-generated": "not_down"}),
        Session(day=200, events=(
            # source: google/go-github PR #4151 "feat!: Refactor request context"
            User("big one upstream: feat!: Refactor request context (#4151). BREAKING CHANGE: "
                 "All internal calls now provide Context via the Request itself. So methods do "
                 "req, err := s.client.NewRequest(ctx, \"GET\", u, nil) and then "
                 "resp, err := s.client.Do(req, v) - no ctx argument on Do anymore. please port "
                 "repos.go.", states="gg-ctx-req", replaces="gg-ctx-do"),
            Edit("github/repos.go", "\treq, err := s.client.NewRequest(\"GET\", u, nil)\n",
                 "\treq, err := s.client.NewRequest(ctx, \"GET\", u, nil)\n"),
            Edit("github/repos.go", "\tresp, err := s.client.Do(ctx, req, repository)\n",
                 "\tresp, err := s.client.Do(req, repository)\n"),
            # source: google/go-github PR #4368 (CONTRIBUTING.md Tips)
            User("also, review feedback from last time, from the maintainers' tips: when a "
                 "reviewer leaves a comment on one occurrence of an issue, apply the same fix to "
                 "all similar occurrences throughout the entire PR - don't wait for the reviewer "
                 "to point out each one individually.", states="gg-apply-all"),
            # source: google/go-github CONTRIBUTING.md (Submitting a patch, step 6; #4427)
            User("someone suggested I squash and force-push to tidy the branch - no: please do "
                 "not use force-push on PRs in this repo, we always squash and merge anyway. "
                 "and if an AI tool helped, briefly disclose what it did in the PR description."),
            Bash("script/test.sh", out=GH_TEST_OK),
            Commit("chore: Port repos.go to the request context"),
        )),
        Session(day=206, events=(
            Probe("port the two hook config methods too, and then add ListHookDeliveries "
                  "(GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries)",
                  needs=("gg-ctx-req", "gg-files")),
            Edit("github/repos_hooks.go",
                 "\treq, err := s.client.NewRequest(\"GET\", u, nil)\n",
                 "\treq, err := s.client.NewRequest(ctx, \"GET\", u, nil)\n"),
            Edit("github/repos_hooks.go", "\tresp, err := s.client.Do(ctx, req, config)\n",
                 "\tresp, err := s.client.Do(req, config)\n"),
            Probe("review says the DeliveredAt field on one of the new structs is missing "
                  "omitempty. fix it", needs=("gg-apply-all", "gg-json")),
            Probe("commit this with a decent message", needs="gg-commit"),
            Commit("Port hook config methods to request context"),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# 3. crush: a terminal AI assistant (CRUSH.md / AGENTS.md and their history)
# ---------------------------------------------------------------------------------------------

CRUSH = Project("crush", "go", {
    "go.mod": "module github.com/charmbracelet/crush\n\ngo 1.24.3\n\nrequire (\n"
              "\tgithub.com/spf13/cobra v1.9.1\n\tgithub.com/stretchr/testify v1.10.0\n)\n",
    "main.go": "package main\n\nimport \"github.com/charmbracelet/crush/internal/cmd\"\n\n"
               "func main() {\n\tcmd.Execute()\n}\n",
    "Taskfile.yaml": (
        "version: \"3\"\n\ntasks:\n  lint:\n    desc: Run base linters\n    cmds:\n"
        "      - golangci-lint run --path-mode=abs --config=\".golangci.yml\" --timeout=5m\n\n"
        "  lint-fix:\n    desc: Run base linters and fix issues\n    cmds:\n"
        "      - golangci-lint run --path-mode=abs --config=\".golangci.yml\" --timeout=5m "
        "--fix\n\n  fmt:\n    desc: Run gofumpt\n    cmds:\n      - gofumpt -w .\n\n"
        "  test:\n    desc: Run tests\n    cmds:\n      - go test ./... {{.CLI_ARGS}}\n"
    ),
    ".golangci.yml": "version: \"2\"\nlinters:\n  enable:\n    - bodyclose\n    - misspell\n"
                     "    - noctx\n    - tparallel\nformatters:\n  enable:\n    - gofumpt\n"
                     "    - goimports\n",
    "internal/config/load.go": (
        "package config\n\nimport (\n\t\"encoding/json\"\n\t\"log/slog\"\n\t\"os\"\n"
        "\t\"path/filepath\"\n)\n\n"
        "// Load reads crush.json from the working directory.\n"
        "func Load(dir string) (*Config, error) {\n"
        "\tdata, err := os.ReadFile(filepath.Join(dir, \"crush.json\"))\n"
        "\tif err != nil {\n\t\treturn nil, err\n\t}\n\tvar cfg Config\n"
        "\tif err := json.Unmarshal(data, &cfg); err != nil {\n"
        "\t\tslog.Error(\"Failed to parse config\", \"error\", err)\n\t\treturn nil, err\n\t}\n"
        "\treturn &cfg, nil\n}\n"
    ),
    "internal/config/config.go": (
        "package config\n\n// Config is the merged Crush configuration.\ntype Config struct {\n"
        "\tModels  map[string]string `json:\"models,omitempty\"`\n"
        "\tOptions Options           `json:\"options\"`\n}\n\n"
        "// Options are general settings.\ntype Options struct {\n"
        "\tDataDirectory string `json:\"data_directory,omitempty\"`\n}\n"
    ),
    "internal/config/load_test.go": (
        "package config\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n\t\"testing\"\n\n"
        "\t\"github.com/stretchr/testify/assert\"\n)\n\n"
        "func TestLoad(t *testing.T) {\n\tdir := t.TempDir()\n"
        "\t_ = os.WriteFile(filepath.Join(dir, \"crush.json\"), []byte(`{}`), 0o644)\n"
        "\tcfg, err := Load(dir)\n\tassert.NoError(t, err)\n\tassert.NotNil(t, cfg)\n}\n"
    ),
    "internal/session/session.go": (
        "package session\n\nimport (\n\t\"context\"\n\t\"log/slog\"\n)\n\n"
        "// Service stores sessions in SQLite.\ntype Service struct{ q Querier }\n\n"
        "// Save persists a session.\n"
        "func (s *Service) Save(ctx context.Context, sess Session) error {\n"
        "\treturn s.q.UpsertSession(ctx, sess.params())\n}\n\nvar _ = slog.Info\n"
    ),
})

CRUSH_LINT_LOG_FAIL = (
    "task: [lint:log] ./scripts/check_log_capitalization.sh\n"
    "./internal/session/session.go:\t\tslog.Error(\"failed to save session\", \"id\", sess.ID, "
    "\"error\", err)\n"
    "❌ Log messages must start with a capital letter. Found lowercase logs above.\n"
    "task: Failed to run task \"lint\": task: Failed to run task \"lint:log\": exit status 1"
)

CRUSH_STORY = Story(
    id="ho-go-crush-1",
    title="crush: gofumpt and require-only testify, a renamed lint task, log capitalization, "
          "and the shell config renamed to crushrc",
    project=CRUSH,
    sources=("charmbracelet/crush",),
    lessons=(
        lesson("cr-fmt", "command",
               "Always format Go code you write: `gofumpt -w .` (or `task fmt`); fall back to "
               "goimports, then gofmt, when gofumpt is missing",
               "gofumpt"),
        lesson("cr-testify-both", "convention",
               "Tests use testify/assert and testify/require, parallel with t.Parallel()",
               "assert", "testify"),
        lesson("cr-require", "convention",
               "Tests use testify's require package, t.Parallel(), and t.Setenv() for "
               "environment variables",
               "require", "testify|Setenv|SetEnv"),
        lesson("cr-lint-dash", "command", "Lint and auto-fix with `task lint-fix`", "lint-fix"),
        lesson("cr-lint-colon", "command", "Lint and auto-fix with `task lint:fix`", "lint:fix"),
        lesson("cr-log-cap", "gotcha",
               "Log messages must start with a capital letter ('Failed to save session'); "
               "`task lint:log` (scripts/check_log_capitalization.sh) enforces it inside "
               "`task lint`",
               "capital", "log"),
        lesson("cr-commits", "convention",
               "Always use semantic commits (fix:, feat:, chore:, refactor:, docs:, sec:) kept "
               "to one line",
               "semantic"),
        lesson("cr-shell-sh", "decision",
               "Besides crush.json, config can be a Bash script crush.sh using builtins "
               "(provider, model, mcp, lsp, permissions, hook, options), in "
               "internal/shellconfig",
               "crush.sh"),
        lesson("cr-crushrc", "decision",
               "The shell config is named crushrc, with a local .crushrc override",
               "crushrc"),
        lesson("cr-crushrc-primary", "decision",
               "crushrc is the primary config format; crush.json is still read but deprecated "
               "and may be removed, so new config examples and docs use crushrc",
               "crushrc", "primary|deprecat"),
    ),
    also=(
        # session 0: "Always use t.TempDir() when in need of a temporary directory"
        lesson("also-cr-tempdir", "convention",
               "Use t.TempDir() for temporary directories in tests; no need to remove them",
               "TempDir|Tempdir"),
        # session 3: "Comments that live on their own lines ... Wrap comments at 78 columns."
        lesson("also-cr-comments", "convention",
               "Comments on their own lines start with a capital letter, end with a period and "
               "wrap at 78 columns", "78"),
        # session 1: "go test ./... -update" regenerates .golden files
        lesson("also-cr-golden", "command",
               "`go test ./... -update` regenerates .golden files when output changes",
               "golden", "update"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: charmbracelet/crush CRUSH.md (5f84289b0, 41f97bc80)
            User("welcome to crush. couple of things from CRUSH.md: ALWAYS format any Go code "
                 "you write - first try `gofumpt -w .`, if gofumpt is not available use "
                 "goimports, and if that's not there use gofmt (`task fmt` does the whole "
                 "project). Testing: use testify/assert and testify/require, parallel tests with "
                 "t.Parallel(). Always use t.TempDir() when you need a temporary directory; it "
                 "does not need to be removed.", states=("cr-fmt", "cr-testify-both")),
            # source: charmbracelet/crush CRUSH.md (5f84289b0, Lint; 06a77d6b2, Committing)
            User("lint with `task lint-fix` (golangci-lint with --fix). and ALWAYS use semantic "
                 "commits (fix:, feat:, chore:, refactor:, docs:, sec:, etc), kept to one line.",
                 states=("cr-lint-dash", "cr-commits")),
            User("task: make config loading report the path it failed on."),
            Edit("internal/config/load.go",
                 "\t\tslog.Error(\"Failed to parse config\", \"error\", err)\n",
                 "\t\tslog.Error(\"Failed to parse config\", \"path\", dir, \"error\", err)\n"),
            Bash("gofumpt -w . && task lint-fix",
                 out="task: [lint-fix] golangci-lint run --path-mode=abs "
                     "--config=\".golangci.yml\" --timeout=5m --fix\n0 issues."),
            Bash("go test ./internal/config/...",
                 out="ok  \tgithub.com/charmbracelet/crush/internal/config\t0.214s"),
            Commit("fix(config): log the path of a config that fails to parse"),
        )),
        Session(day=45, events=(
            # source: charmbracelet/crush PR #315 "test: improve tests" (CRUSH.md diff)
            User("we cleaned the tests up in #315 - from now on use testify's require package, "
                 "parallel tests with t.Parallel(), and t.Setenv() to set environment "
                 "variables.", states="cr-require", replaces="cr-testify-both"),
            User("also if a golden file changes, `go test ./... -update` regenerates the .golden "
                 "files; you can scope it to one package."),
            Edit("internal/config/load_test.go", "\t\"github.com/stretchr/testify/assert\"\n",
                 "\t\"github.com/stretchr/testify/require\"\n"),
            Edit("internal/config/load_test.go",
                 "\tassert.NoError(t, err)\n\tassert.NotNil(t, cfg)\n",
                 "\trequire.NoError(t, err)\n\trequire.NotNil(t, cfg)\n"),
            Edit("internal/config/load_test.go", "func TestLoad(t *testing.T) {\n",
                 "func TestLoad(t *testing.T) {\n\tt.Parallel()\n"),
            Bash("go test ./internal/config/...",
                 out="ok  \tgithub.com/charmbracelet/crush/internal/config\t0.198s"),
            Commit("test: use require in config tests"),
        )),
        Session(day=117, events=(
            # source: charmbracelet/crush commit d7619a5c0 (CRUSH.md Lint line)
            User("small thing: the lint task is `task lint:fix` now.",
                 states="cr-lint-colon", replaces="cr-lint-dash"),
            Edit("Taskfile.yaml", "  lint-fix:\n", "  lint:fix:\n"),
            Commit("chore: rename lint-fix task to lint:fix"),
            Probe("add a test that CRUSH_DATA_DIR overrides the data directory",
                  needs="cr-require"),
            Write("internal/config/env_test.go",
                  "package config\n\nimport (\n\t\"testing\"\n\n"
                  "\t\"github.com/stretchr/testify/require\"\n)\n\n"
                  "func TestDataDirFromEnv(t *testing.T) {\n"
                  "\tt.Setenv(\"CRUSH_DATA_DIR\", \"/tmp/x\")\n"
                  "\trequire.Equal(t, \"/tmp/x\", dataDir())\n}\n"),
            Bash("go test ./internal/config/...",
                 out="ok  \tgithub.com/charmbracelet/crush/internal/config\t0.221s"),
        ), judge={"cr-require": "not_down"}),
        Session(day=230, events=(
            User("sessions that fail to save disappear silently. add an error log in Save."),
            Edit("internal/session/session.go",
                 "\treturn s.q.UpsertSession(ctx, sess.params())\n",
                 "\tif err := s.q.UpsertSession(ctx, sess.params()); err != nil {\n"
                 "\t\tslog.Error(\"failed to save session\", \"id\", sess.ID, \"error\", err)\n"
                 "\t\treturn err\n\t}\n\treturn nil\n"),
            Bash("task lint", out=CRUSH_LINT_LOG_FAIL, ok=False),
            # source: charmbracelet/crush PR #2047 "fix: improve logs, standardize capitalized"
            User("yeah that's new - log messages must start with a capital letter (\"Failed to "
                 "save session\" not \"failed to save session\"). it's enforced by "
                 "`task lint:log`, which runs as part of `task lint`.", states="cr-log-cap"),
            Edit("internal/session/session.go", "slog.Error(\"failed to save session\"",
                 "slog.Error(\"Failed to save session\""),
            Bash("task lint", out="task: [lint:log] ./scripts/check_log_capitalization.sh\n"
                                  "task: [lint] golangci-lint run --path-mode=abs "
                                  "--config=\".golangci.yml\" --timeout=5m\n0 issues."),
            # source: charmbracelet/crush commit 06a77d6b2 (CRUSH.md Comments)
            User("one more nit: comments that live on their own lines should start with capital "
                 "letters and end with periods. Wrap comments at 78 columns."),
            Commit("fix(session): log sessions that fail to save"),
            Probe("tidy up any lint warnings in internal/config before I review",
                  needs="cr-lint-colon"),
            Bash("task lint:fix", out="task: [lint:fix] golangci-lint run --path-mode=abs "
                                      "--config=\".golangci.yml\" --timeout=5m --fix\n0 issues."),
        ), judge={"cr-log-cap": "up"}),
        Session(day=400, events=(
            # source: charmbracelet/crush commit b55a092f3 (AGENTS.md Bash config format)
            User("new feature landed: in addition to crush.json, Crush supports crush.sh - a "
                 "Bash script using builtins (provider, model, mcp, lsp, permissions, hook, "
                 "options) to define config. Shell config files are discovered alongside JSON "
                 "configs and deep-merged through the same pipeline; the builtins are no-ops "
                 "during normal bash tool execution. See internal/shellconfig/.",
                 states="cr-shell-sh"),
            User("someone asked whether we should drop JSON right away - not now, both stay."),
            Say("Noted: crush.sh and crush.json are both loaded and deep-merged."),
        )),
        Session(day=405, events=(
            # source: charmbracelet/crush commit 650bf3c2c "feat: rename shell config to crushrc
            # with local .crushrc override"
            User("rename, merged this morning: the shell config is crushrc now, with a local "
                 ".crushrc override. update the loader comment please.",
                 states="cr-crushrc", replaces="cr-shell-sh"),
            Edit("internal/config/load.go", "// Load reads crush.json from the working directory.",
                 "// Load reads crushrc (and a local .crushrc) and crush.json from the working\n"
                 "// directory."),
            Bash("gofumpt -w . && go test ./internal/config/...",
                 out="ok  \tgithub.com/charmbracelet/crush/internal/config\t0.232s"),
            Commit("docs(config): mention crushrc in Load"),
        )),
        Session(day=422, events=(
            # source: charmbracelet/crush commit 5f11f8e28 "docs(agents): mark crushrc as primary
            # config format over crush.json"
            User("and the docs now say it outright: Crush's primary config format is crushrc. "
                 "crush.json is still supported but is deprecated in favor of crushrc and may be "
                 "removed in a future release. hooks live in crushrc (or crush.json).",
                 states="cr-crushrc-primary"),
            Say("Got it - crushrc first, crush.json only for compatibility."),
        )),
        Session(day=425, events=(
            Probe("I'm adding a hook timeout option. write the example config for the docs",
                  needs=("cr-crushrc", "cr-crushrc-primary")),
            Write("docs/examples/hook-timeout.crushrc",
                  "# Give slow hooks more time.\nhook pre_tool_use ./scripts/check.sh "
                  "--timeout 30s\n"),
            Probe("also log when a hook times out", needs="cr-log-cap"),
            Edit("internal/session/session.go", "var _ = slog.Info\n",
                 "func logHookTimeout(name string) {\n"
                 "\tslog.Warn(\"Hook timed out\", \"hook\", name)\n}\n"),
            Probe("format, lint and commit", needs=("cr-fmt", "cr-lint-colon", "cr-commits")),
            Bash("gofumpt -w . && task lint:fix", out="0 issues."),
            Commit("feat(hooks): add a timeout option"),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# 4. goreleaser: a release automation CLI (CONTRIBUTING.md history, issue #5975, PR #6441)
# ---------------------------------------------------------------------------------------------

GORELEASER = Project("goreleaser", "go", {
    "go.mod": "module github.com/goreleaser/goreleaser/v2\n\ngo 1.23.1\n\nrequire (\n"
              "\tgithub.com/caarlos0/log v0.4.6\n\tgithub.com/stretchr/testify v1.9.0\n)\n",
    "main.go": "package main\n\nimport \"github.com/goreleaser/goreleaser/v2/cmd\"\n\n"
               "func main() {\n\tcmd.Execute()\n}\n",
    "Taskfile.yml": (
        "version: \"3\"\n\ntasks:\n  setup:\n    cmds:\n      - go mod tidy\n"
        "  build:\n    cmds:\n      - go build\n"
        "  test:\n    env:\n      LC_ALL: C\n    cmds:\n"
        "      - go test -failfast -race -coverpkg=./... -covermode=atomic "
        "-coverprofile=coverage.txt ./... -run . -timeout=15m\n"
        "  fmt:\n    desc: gofumpt all code\n    cmds:\n      - gofumpt -w -l .\n"
        "  ci:\n    desc: Run all CI steps\n    cmds:\n      - task: setup\n"
        "      - task: build\n      - task: test\n"
        "  docker:setup:\n    cmds:\n"
        "      - docker run --privileged --rm tonistiigi/binfmt --install all\n"
    ),
    "internal/pipe/discord/discord.go": (
        "package discord\n\nimport (\n\t\"fmt\"\n\t\"net/url\"\n\n"
        "\t\"github.com/goreleaser/goreleaser/v2/internal/tmpl\"\n"
        "\t\"github.com/goreleaser/goreleaser/v2/pkg/context\"\n)\n\n"
        "type Pipe struct{}\n\nfunc (Pipe) String() string { return \"discord\" }\n\n"
        "func (p Pipe) Announce(ctx *context.Context) error {\n"
        "\tmsg, err := tmpl.New(ctx).Apply(ctx.Config.Announce.Discord.MessageTemplate)\n"
        "\tif err != nil {\n\t\treturn fmt.Errorf(\"%s: %w\", p, err)\n\t}\n"
        "\tu, err := url.Parse(ctx.Config.Announce.Discord.API)\n"
        "\tif err != nil {\n\t\treturn fmt.Errorf(\"%s: %w\", p, err)\n\t}\n"
        "\treturn post(u, msg)\n}\n"
    ),
    "internal/pipe/mattermost/mattermost.go": (
        "package mattermost\n\nimport (\n\t\"fmt\"\n\n"
        "\t\"github.com/goreleaser/goreleaser/v2/pkg/context\"\n)\n\n"
        "type Pipe struct{}\n\nfunc (Pipe) String() string { return \"mattermost\" }\n\n"
        "func (p Pipe) Announce(ctx *context.Context) error {\n"
        "\tcfg, err := parseEnv()\n\tif err != nil {\n\t\treturn fmt.Errorf(\"%s: %w\", p, err)\n"
        "\t}\n\treturn send(ctx, cfg)\n}\n"
    ),
    "internal/pipe/announce/announce.go": (
        "package announce\n\nimport (\n\t\"fmt\"\n\n"
        "\t\"github.com/goreleaser/goreleaser/v2/internal/middleware/errhandler\"\n"
        "\t\"github.com/goreleaser/goreleaser/v2/pkg/context\"\n)\n\n"
        "func (Pipe) Run(ctx *context.Context) error {\n\tmemo := errhandler.Memo{}\n"
        "\tfor _, announcer := range announcers {\n"
        "\t\t_ = skip.Maybe(announcer, logging.PadLog(announcer.String(), "
        "memo.Wrap(announcer.Announce)))(ctx)\n\t}\n"
        "\tif memo.Error() != nil {\n"
        "\t\treturn fmt.Errorf(\"failed to announce release: %w\", memo.Error())\n\t}\n"
        "\treturn nil\n}\n"
    ),
    "internal/pipe/discord/discord_test.go": (
        "package discord\n\nimport (\n\t\"testing\"\n\n"
        "\t\"github.com/stretchr/testify/require\"\n)\n\n"
        "func TestStringer(t *testing.T) {\n\trequire.NotEmpty(t, Pipe{}.String())\n}\n"
    ),
})

GR_TEST_OUT = (
    "task: [test] go test -failfast -race -coverpkg=./... -covermode=atomic "
    "-coverprofile=coverage.txt ./... -run . -timeout=15m\n"
    "ok  \tgithub.com/goreleaser/goreleaser/v2/internal/pipe/discord\t1.204s\n"
    "ok  \tgithub.com/goreleaser/goreleaser/v2/internal/pipe/mattermost\t1.091s\n"
    "--- SKIP: TestSignArtifacts (0.00s)\n    sign_test.go:41: gpg not present, skipping\n"
    "--- SKIP: TestRunPipe_cosign (0.00s)\n    cosign_test.go:27: cosign not present\n"
    "ok  \tgithub.com/goreleaser/goreleaser/v2/internal/pipe/sign\t2.377s\n"
    "ok  \tgithub.com/goreleaser/goreleaser/v2/internal/pipe/snapcraft\t0.812s"
)

GORELEASER_STORY = Story(
    id="ho-go-goreleaser-1",
    title="goreleaser: task ci, a Dagger pipeline added then removed, pipe errors no longer "
          "prefixed, AI disclosure",
    project=GORELEASER,
    sources=("goreleaser/goreleaser",),
    lessons=(
        lesson("gr-ci", "command", "When the change is ready, run `task ci` (setup, build, test)",
               "task ci"),
        lesson("gr-fmt", "command", "Before committing, run `task fmt` (gofumpt -w -l .)",
               "task fmt"),
        lesson("gr-conv", "convention", "Commit messages follow Conventional Commits",
               "conventional"),
        lesson("gr-dagger", "command",
               "The test pipeline also runs locally exactly as in CI with Dagger: "
               "`dagger call test` (or `dagger call --source . test output`)",
               "dagger"),
        lesson("gr-no-dagger", "decision",
               "Dagger was removed (two build pipelines were too much to maintain): tests run "
               "with task only (`task test` / `task ci`)",
               "dagger", "remov|drop|no longer|gone"),
        lesson("gr-pipe-prefix", "convention",
               "Pipes wrap their own errors with the pipe name: fmt.Errorf(\"%s: %w\", p, err)",
               "%s: %w"),
        lesson("gr-pipe-noprefix", "convention",
               "Pipes must not prefix error messages with the pipe name ('no archives found', "
               "not 'archive: no archives found'); the meta-pipes (publish, announce, defaults) "
               "wrap errors with pipe.String()",
               "prefix|pipe name", "meta-pipe|meta pipe|metapipe"),
        lesson("gr-ai", "convention",
               "AI use must be disclosed: Co-authored-by or Assisted-by markers in commit "
               "messages, or say so in the issue/PR",
               "Co-authored-by|Assisted-by"),
        lesson("gr-go-126", "fact", "goreleaser builds with Go 1.26+", "1.26"),
        lesson("gr-go-127", "fact", "goreleaser builds with Go 1.27+", "1.27"),
    ),
    also=(
        # session 0: tests needing cosign, Docker, GPG, ... "should get automatically skipped"
        lesson("also-gr-skip-tools", "fact",
               "Tests that need cosign, Docker, GPG, Podman, Snapcraft, Syft or upx are skipped "
               "automatically when the tool isn't present",
               "skip", "cosign|gpg|snapcraft|syft|upx|podman"),
        # session 0: "task docker:setup" for multi-arch Docker tests
        lesson("also-gr-docker-setup", "command",
               "Run `task docker:setup` before the Docker tests or a local --snapshot release "
               "(multi-arch builds)", "docker:setup"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: goreleaser/goreleaser CONTRIBUTING.md (Testing your changes, Creating a
            # commit)
            User("hey, first PR here. from CONTRIBUTING: build from source as you go with "
                 "`task build`; when you are satisfied with the changes, run `task ci`; and "
                 "before you commit the changes, run `task fmt`. commit messages use "
                 "Conventional Commits.", states=("gr-ci", "gr-fmt", "gr-conv")),
            # source: goreleaser/goreleaser CONTRIBUTING.md (Set up your machine; Docker note)
            User("other things you might need to run some of the tests are cosign, Docker, GPG, "
                 "Podman, Snapcraft, Syft and upx - they should get automatically skipped if a "
                 "needed tool isn't present. for the Docker tests you might need "
                 "`task docker:setup` first."),
            # source: goreleaser/goreleaser internal/pipe/discord/discord.go (before PR #6441)
            User("the actual bug: the mattermost announcer swallows the webhook error. make it "
                 "return it, wrapped the way the discord pipe does: "
                 "fmt.Errorf(\"%s: %w\", p, err).", states="gr-pipe-prefix"),
            Read("internal/pipe/mattermost/mattermost.go"),
            Edit("internal/pipe/mattermost/mattermost.go", "\treturn send(ctx, cfg)\n",
                 "\tif err := send(ctx, cfg); err != nil {\n"
                 "\t\treturn fmt.Errorf(\"%s: %w\", p, err)\n\t}\n\treturn nil\n"),
            Bash("task fmt && task ci", out=GR_TEST_OUT),
            Commit("fix(mattermost): return webhook errors"),
        ), judge={"gr-ci": "not_down"}),
        Session(day=2, events=(
            # source: goreleaser/goreleaser PR #4969 "ci: daggerize test pipeline"
            User("news: the test pipeline got daggerized (#4969). the test pipeline can be run "
                 "locally the same as it is run in CI without configuring extra tools: "
                 "`dagger call test`, or `dagger call --source . test output` against local "
                 "code. task still works too.", states="gr-dagger"),
            User("not a rule, just today: skip the snapcraft bits, my machine doesn't have it."),
            Say("Both work then: `task ci` locally, or the Dagger pipeline for CI parity."),
        )),
        Session(day=9, events=(
            User("can you make the discord announcer include the release URL in its message?"),
            Edit("internal/pipe/discord/discord.go", "\treturn post(u, msg)\n",
                 "\treturn post(u, msg+\"\\n\"+ctx.ReleaseURL)\n"),
            Probe("run the tests in the exact same environment CI uses, I don't trust my "
                  "local toolchain today", needs="gr-dagger"),
            Bash("dagger call --source . test output",
                 out="ok  \tgithub.com/goreleaser/goreleaser/v2/internal/pipe/discord\t1.318s\n"
                     "ok  \tgithub.com/goreleaser/goreleaser/v2/internal/pipe/mattermost\t"
                     "1.120s"),
            Probe("alright, wrap it up and commit", needs=("gr-fmt", "gr-conv")),
            Bash("task fmt", out="task: [fmt] gofumpt -w -l ."),
            Commit("feat(discord): include the release url in the message"),
        )),
        Session(day=290, events=(
            # source: goreleaser/goreleaser commit d4930fc3b "ci: remove dagger"
            User("we removed dagger. the maintainer's note: while dagger is great, keeping 2 "
                 "build pipelines is too much work, and nobody used the local dagger CLI "
                 "stuff. so it's back to task for everything.",
                 states="gr-no-dagger", replaces="gr-dagger"),
            Say("Understood - no Dagger pipeline any more; `task test` and `task ci` are the "
                "way to run the suite."),
        )),
        Session(day=540, events=(
            # source: goreleaser/goreleaser issue #5975 "more consistent error outputs"
            User("look at this output: `announce: discord: discord: invalid URL`. the issue "
                 "(#5975) says it: the publish pipe prepends the pipe name to all errors, "
                 "whereas defaults and run don't, and sometimes we get duplicated pipe names "
                 "because the pipe itself adds it to errors as well."),
            # source: goreleaser/goreleaser PR #6441 and CONTRIBUTING.md "Writing pipes"
            User("the fix (#6441) is the rule now: do not prefix error messages with the pipe "
                 "name. Error wrapping with the pipe name is done at the meta-pipe level "
                 "(publish, announce, defaults), which wraps with "
                 "fmt.Errorf(\"%s: %w\", pipe.String(), err), so individual pipes should only "
                 "describe the problem itself. the Go floor went to 1.26 this cycle too.",
                 states=("gr-pipe-noprefix", "gr-go-126"), replaces="gr-pipe-prefix"),
            Edit("internal/pipe/discord/discord.go",
                 "\tif err != nil {\n\t\treturn fmt.Errorf(\"%s: %w\", p, err)\n\t}\n"
                 "\tu, err :=",
                 "\tif err != nil {\n\t\treturn err\n\t}\n\tu, err :="),
            Edit("internal/pipe/discord/discord.go",
                 "\tif err != nil {\n\t\treturn fmt.Errorf(\"%s: %w\", p, err)\n\t}\n"
                 "\treturn post",
                 "\tif err != nil {\n\t\treturn err\n\t}\n\treturn post"),
            Bash("task ci", out=GR_TEST_OUT),
            Commit("fix: consistent error outputs in the discord pipe"),
        )),
        Session(day=570, events=(
            # source: goreleaser/goreleaser PR #6525 "docs: ai usage guidelines"
            User("new section in CONTRIBUTING - AI usage guidelines. AI usage is permitted as "
                 "long as it is disclosed: commits have the Co-authored-by or Assisted-by "
                 "markers in the commit messages, and issues, pull requests and discussions "
                 "should explicitly say AI was used. and if you used it for coding, fully "
                 "understand the changes and review all the work.", states="gr-ai"),
            Probe("the mattermost pipe still has the old error style - clean it up",
                  needs="gr-pipe-noprefix"),
            Edit("internal/pipe/mattermost/mattermost.go",
                 "\tcfg, err := parseEnv()\n\tif err != nil {\n"
                 "\t\treturn fmt.Errorf(\"%s: %w\", p, err)\n\t}\n",
                 "\tcfg, err := parseEnv()\n\tif err != nil {\n\t\treturn err\n\t}\n"),
            Probe("before I open the PR, run the same checks CI would", needs="gr-no-dagger"),
            Bash("task ci", out=GR_TEST_OUT),
            User("commit it"),
            Commit("fix(mattermost): do not prefix errors with the pipe name\n\n"
                   "Assisted-by: Claude"),
        ), judge={"gr-pipe-noprefix": "not_down"}),
        Session(day=722, events=(
            # source: goreleaser/goreleaser PR #6802 "feat: update to Go 1.27"
            User("feat: update to Go 1.27 (#6802) is in - CONTRIBUTING now says Go 1.27+.",
                 states="gr-go-127", replaces="gr-go-126"),
            Edit("go.mod", "go 1.23.1", "go 1.27.0"),
            Commit("feat: update to Go 1.27"),
        )),
        Session(day=725, events=(
            Probe("my local go is old, what version do I need to install to hack on this?",
                  needs="gr-go-127"),
            Say("Go 1.27 or newer."),
            Probe("the discord announcer should fail when the endpoint returns 500 - add that",
                  needs="gr-pipe-noprefix"),
            Edit("internal/pipe/discord/discord.go", "\treturn post(u, msg+",
                 "\tif code := status(u); code >= 500 {\n"
                 "\t\treturn fmt.Errorf(\"server error: %d\", code)\n\t}\n"
                 "\treturn post(u, msg+"),
            Bash("task fmt && task ci", out=GR_TEST_OUT),
            Probe("looks good, commit it - you wrote most of it", needs=("gr-ai", "gr-conv")),
            Commit("fix(discord): fail on server errors\n\nAssisted-by: Claude"),
        ), judge={"gr-ci": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 5. gh: the GitHub CLI, cobra commands (AGENTS.md, docs/testing.md)
# ---------------------------------------------------------------------------------------------

GH_CLI = Project("gh-cli", "go", {
    "go.mod": "module github.com/cli/cli/v2\n\ngo 1.25.0\n\nrequire (\n"
              "\tgithub.com/MakeNowJust/heredoc v1.0.0\n\tgithub.com/spf13/cobra v1.9.1\n"
              "\tgithub.com/stretchr/testify v1.10.0\n)\n",
    "Makefile": "bin/gh: $(shell git ls-files '*.go')\n\tgo build -o bin/gh ./cmd/gh\n\n"
                ".PHONY: lint\nlint:\n\tgolangci-lint run ./...\n",
    "cmd/gh/main.go": "package main\n\nimport (\n\t\"os\"\n\n"
                      "\t\"github.com/cli/cli/v2/internal/ghcmd\"\n)\n\n"
                      "func main() {\n\tcode := ghcmd.Main()\n\tos.Exit(int(code))\n}\n",
    "pkg/cmd/issue/list/list.go": (
        "package list\n\nimport (\n\t\"net/http\"\n\n"
        "\t\"github.com/MakeNowJust/heredoc\"\n"
        "\t\"github.com/cli/cli/v2/internal/ghrepo\"\n"
        "\t\"github.com/cli/cli/v2/pkg/cmdutil\"\n"
        "\t\"github.com/cli/cli/v2/pkg/iostreams\"\n\t\"github.com/spf13/cobra\"\n)\n\n"
        "type ListOptions struct {\n\tHttpClient func() (*http.Client, error)\n"
        "\tIO         *iostreams.IOStreams\n\tBaseRepo   func() (ghrepo.Interface, error)\n\n"
        "\tState string\n\tLimit int\n}\n\n"
        "func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {\n"
        "\topts := &ListOptions{IO: f.IOStreams, HttpClient: f.HttpClient}\n"
        "\tcmd := &cobra.Command{\n\t\tUse:   \"list\",\n"
        "\t\tShort: \"List issues in a repository\",\n"
        "\t\tExample: heredoc.Doc(`\n\t\t\t$ gh issue list --state closed\n\t\t`),\n"
        "\t\tRunE: func(cmd *cobra.Command, args []string) error {\n"
        "\t\t\topts.BaseRepo = f.BaseRepo\n"
        "\t\t\tif runF != nil {\n\t\t\t\treturn runF(opts)\n\t\t\t}\n"
        "\t\t\treturn listRun(opts)\n\t\t},\n\t}\n"
        "\tcmd.Flags().StringVarP(&opts.State, \"state\", \"s\", \"open\", \"Filter by state\")\n"
        "\tcmd.Flags().IntVarP(&opts.Limit, \"limit\", \"L\", 30, \"Maximum number of issues\")\n"
        "\treturn cmd\n}\n"
    ),
    "pkg/cmd/issue/list/list_test.go": (
        "package list\n\nimport (\n\t\"net/http\"\n\t\"testing\"\n\n"
        "\t\"github.com/cli/cli/v2/pkg/httpmock\"\n"
        "\t\"github.com/cli/cli/v2/pkg/iostreams\"\n"
        "\t\"github.com/stretchr/testify/assert\"\n)\n\n"
        "func TestIssueList_nontty(t *testing.T) {\n\tios, _, stdout, _ := iostreams.Test()\n"
        "\treg := &httpmock.Registry{}\n"
        "\treg.Register(httpmock.GraphQL(`query IssueList\\b`),\n"
        "\t\thttpmock.FileResponse(\"./fixtures/issueList.json\"))\n"
        "\terr := listRun(&ListOptions{IO: ios, HttpClient: func() (*http.Client, error) {\n"
        "\t\treturn &http.Client{Transport: reg}, nil\n\t}, State: \"open\", Limit: 30})\n"
        "\tassert.NoError(t, err)\n\tassert.Contains(t, stdout.String(), \"#1\")\n}\n"
    ),
    "internal/prompter/prompter.go": (
        "package prompter\n\n//go:generate moq -rm -out prompter_mock.go . Prompter\n"
        "type Prompter interface {\n\tSelect(prompt, defaultValue string, options []string) "
        "(int, error)\n\tConfirm(prompt string, defaultValue bool) (bool, error)\n}\n"
    ),
    "pkg/cmdutil/errors.go": (
        "package cmdutil\n\nimport \"errors\"\n\n"
        "// SilentError is an error that triggers exit code 1 without any error messaging.\n"
        "var SilentError = errors.New(\"SilentError\")\n\n"
        "// CancelError signals user-initiated cancellation.\n"
        "var CancelError = errors.New(\"CancelError\")\n"
    ),
    ".golangci.yml": "version: \"2\"\nlinters:\n  enable:\n    - gocritic\n"
                     "    - nolintlint\n",
})

GH_TEST_OK = (
    "ok  \tgithub.com/cli/cli/v2/pkg/cmd/issue/list\t0.287s\n"
    "ok  \tgithub.com/cli/cli/v2/internal/prompter\t0.034s\n"
    "ok  \tgithub.com/cli/cli/v2/pkg/cmd/pr/create\t1.902s\n"
    "ok  \tgithub.com/cli/cli/v2/api\t0.611s"
)
GH_LINT_TODO_FAIL = (
    "golangci-lint run ./...\n"
    "pkg/cmd/issue/list/list.go:71:2: feature detection branch must be preceded by a "
    "`// TODO <cleanupIdentifier>` comment (featuredetection)\n"
    "\tif features.IssueTypes {\n\t^\n1 issues:\n* featuredetection: 1\n"
    "make: *** [Makefile:5: lint] Error 1"
)

GH_CLI_STORY = Story(
    id="ho-go-ghcli-1",
    title="gh: cobra commands with httpmock tests, feature-detection TODOs, and mocks "
          "regenerated per package instead of go generate ./...",
    project=GH_CLI,
    sources=("cli/cli",),
    lessons=(
        lesson("gc-precommit", "command",
               "Before committing, both `go test ./...` and `make lint` (golangci-lint) must "
               "pass",
               "make lint", "go test"),
        lesson("gc-require", "convention",
               "Use testify; always use require (not assert) for error checks so the test "
               "halts immediately (require.NoError / require.Error)",
               "require", "assert|error check|NoError"),
        lesson("gc-httpmock", "convention",
               "Mock HTTP with httpmock.Registry and `defer reg.Verify(t)` so every stub must "
               "be called",
               "Verify"),
        lesson("gc-gen-all", "command",
               "Interfaces use moq mocks; run `go generate ./...` after interface changes",
               "go generate ./...", "moq|mock|interface"),
        lesson("gc-gen-scoped", "command",
               "Do not hand-edit generated mocks or run `go generate ./...` by default: run the "
               "declared generator in the affected package only, e.g. "
               "`go generate ./internal/prompter`, and inspect the diff",
               "go generate ./internal|internal/prompter|affected package"),
        lesson("gc-go-fix", "command",
               "Before committing also run `go fix` on the changed packages and inspect its "
               "edits",
               "go fix"),
        lesson("gc-feature-todo", "gotcha",
               "Feature detection if-statements need a `// TODO <cleanupIdentifier>` comment "
               "directly above them or the linter fails; use feature detection only for APIs "
               "not GA on all supported GHES versions",
               "TODO", "feature|cleanupIdentifier"),
        lesson("gc-defaulthost", "gotcha",
               "Resolve the host with cfg.Authentication().DefaultHost(), never "
               "ghinstance.Default(), which always returns github.com",
               "DefaultHost|ghinstance"),
        lesson("gc-emdash", "preference",
               "Never use em dashes in code, comments or documentation; use regular dashes or "
               "rewrite the sentence",
               "em dash|em-dash|—"),
        lesson("gc-acceptance", "fact",
               "Acceptance tests create real GitHub resources and need explicitly authorized "
               "GH_ACCEPTANCE_HOST, GH_ACCEPTANCE_ORG and GH_ACCEPTANCE_TOKEN; never borrow the "
               "operator's token",
               "GH_ACCEPTANCE"),
    ),
    also=(
        # session 0: "A command gh foo bar lives in pkg/cmd/foo/bar/ ... runF is the test
        # injection point"
        lesson("also-gc-cmd-layout", "convention",
               "A command `gh foo bar` lives in pkg/cmd/foo/bar/ with an Options struct, "
               "NewCmdFoo(f, runF) where runF is the test injection point, and fooRun(opts)",
               "runF"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: cli/cli AGENTS.md (Command Structure, Build, Test, and Lint)
            User("we're adding a --type filter to `gh issue list`. layout reminder: a command "
                 "gh foo bar lives in pkg/cmd/foo/bar/ - Options struct, "
                 "NewCmdFoo(f *cmdutil.Factory, runF func(*FooOptions) error) where runF is the "
                 "test injection point, and a separate fooRun(opts) with the business logic. "
                 "Before committing, ensure both tests and linter pass: go test ./... and "
                 "make lint.", states="gc-precommit"),
            Edit("pkg/cmd/issue/list/list.go", "\tState string\n\tLimit int\n",
                 "\tState string\n\tLimit int\n\tType  string\n"),
            Edit("pkg/cmd/issue/list/list.go",
                 "\tcmd.Flags().IntVarP(&opts.Limit,",
                 "\tcmd.Flags().StringVar(&opts.Type, \"type\", \"\", \"Filter by issue type\")\n"
                 "\tcmd.Flags().IntVarP(&opts.Limit,"),
            # source: cli/cli AGENTS.md (Testing: HTTP Mocking, Assertions)
            User("for the test: use httpmock.Registry with defer reg.Verify(t) to ensure all "
                 "stubs are called. and use testify - always use require (not assert) for error "
                 "checks so the test halts immediately. assert.Equal is fine for values.",
                 states=("gc-httpmock", "gc-require")),
            Edit("pkg/cmd/issue/list/list_test.go", "\treg := &httpmock.Registry{}\n",
                 "\treg := &httpmock.Registry{}\n\tdefer reg.Verify(t)\n"),
            Edit("pkg/cmd/issue/list/list_test.go", "\tassert.NoError(t, err)\n",
                 "\trequire.NoError(t, err)\n"),
            Edit("pkg/cmd/issue/list/list_test.go", "\t\"github.com/stretchr/testify/assert\"\n",
                 "\t\"github.com/stretchr/testify/assert\"\n"
                 "\t\"github.com/stretchr/testify/require\"\n"),
            Bash("go test ./... && make lint", out=GH_TEST_OK + "\ngolangci-lint run ./...\n"
                                                              "0 issues."),
            Commit("Add --type filter to issue list"),
        ), judge={"gc-precommit": "not_down"}),
        Session(day=4, events=(
            User("the type picker needs a MultiSelect on the Prompter interface."),
            # source: cli/cli AGENTS.md (Generated Mocks; Code Style)
            User("interfaces use moq: //go:generate moq -rm -out prompter_mock.go . Prompter. "
                 "run go generate ./... after interface changes. also a style thing: never use "
                 "em dashes (—) in code, comments, or documentation; use regular dashes (-) or "
                 "rewrite the sentence instead.", states=("gc-gen-all", "gc-emdash")),
            Edit("internal/prompter/prompter.go",
                 "\tConfirm(prompt string, defaultValue bool) (bool, error)\n",
                 "\tConfirm(prompt string, defaultValue bool) (bool, error)\n"
                 "\tMultiSelect(prompt string, defaults, options []string) ([]int, error)\n"),
            Bash("go generate ./...", out=""),
            Bash("go test ./... && make lint", out=GH_TEST_OK + "\n0 issues."),
            Commit("Add MultiSelect to Prompter"),
        )),
        Session(day=9, events=(
            User("issue types aren't on older GHES, so gate the --type filter."),
            Edit("pkg/cmd/issue/list/list.go", "\treturn cmd\n}\n",
                 "\treturn cmd\n}\n\nfunc typeFilter(features featureSet, t string) string {\n"
                 "\tif features.IssueTypes {\n\t\treturn t\n\t}\n\treturn \"\"\n}\n"),
            Bash("make lint", out=GH_LINT_TODO_FAIL, ok=False, exit=2),
            # source: cli/cli AGENTS.md (Feature Detection)
            User("right - commands using feature detection must include a "
                 "`// TODO <cleanupIdentifier>` comment directly above the if-statement for "
                 "linter compliance. and use feature detection only when an API is not GA on "
                 "all supported GHES versions.", states="gc-feature-todo"),
            Edit("pkg/cmd/issue/list/list.go", "\tif features.IssueTypes {\n",
                 "\t// TODO issueTypesCleanup\n\tif features.IssueTypes {\n"),
            Bash("make lint", out="golangci-lint run ./...\n0 issues."),
            # source: cli/cli AGENTS.md (API Patterns)
            User("review comment on the same PR: for host resolution, use "
                 "cfg.Authentication().DefaultHost(); do not use ghinstance.Default() which "
                 "always returns github.com. and avoid extra round-trips.",
                 states="gc-defaulthost"),
            Commit("Gate issue type filter behind feature detection"),
        ), judge={"gc-feature-todo": "up"}),
        Session(day=15, events=(
            User("just for this PR, don't bother with the acceptance suite, the unit tests are "
                 "enough."),
            Probe("add a test for the --type flag when the server doesn't support issue types",
                  needs=("gc-require", "gc-httpmock")),
            Write("pkg/cmd/issue/list/type_test.go",
                  "package list\n\nimport (\n\t\"testing\"\n\n"
                  "\t\"github.com/stretchr/testify/require\"\n)\n\n"
                  "func TestTypeFilter_unsupported(t *testing.T) {\n"
                  "\tgot := typeFilter(featureSet{}, \"Bug\")\n"
                  "\trequire.Empty(t, got)\n}\n"),
            Probe("the fetch has to hit the right host for enterprise users - wire that up",
                  needs="gc-defaulthost"),
            Probe("good, finish it off and commit", needs="gc-precommit"),
            Bash("go test ./... && make lint", out=GH_TEST_OK + "\n0 issues."),
            Commit("Test type filter on servers without issue types"),
        )),
        Session(day=60, events=(
            # source: cli/cli docs/testing.md (HTTP doubles and generated mocks; Local validation)
            User("the testing guide got rewritten, two changes. before changing an interface "
                 "with generated mocks, find its go:generate directive; use the declared "
                 "generator in affected packages - do not hand-edit generated mocks or run "
                 "go generate ./... by default. e.g. Prompter declares moq, so run "
                 "go generate ./internal/prompter from the root and inspect the generated "
                 "diff.", states="gc-gen-scoped", replaces="gc-gen-all"),
            # source: cli/cli docs/testing.md (Local validation)
            User("and the quality gates before committing code are now go fix on the changed "
                 "packages (inspect its edits), then go test ./... and make lint.",
                 states="gc-go-fix"),
            # source: cli/cli docs/testing.md (CI and live acceptance tests are different)
            User("also, acceptance tests create/manage real GitHub resources. running them "
                 "requires explicitly authorized GH_ACCEPTANCE_HOST, GH_ACCEPTANCE_ORG and "
                 "GH_ACCEPTANCE_TOKEN, including permission to clean up. Do not borrow the "
                 "operator's token.", states="gc-acceptance"),
            Say("Noted: scoped go generate per package, go fix before tests and lint, and "
                "acceptance tests only with the GH_ACCEPTANCE_* variables set for that purpose."),
        )),
        Session(day=64, events=(
            Probe("I need a Password method on the Prompter too. add it and update whatever "
                  "depends on it", needs="gc-gen-scoped"),
            Edit("internal/prompter/prompter.go",
                 "\tMultiSelect(prompt string, defaults, options []string) ([]int, error)\n",
                 "\tMultiSelect(prompt string, defaults, options []string) ([]int, error)\n"
                 "\tPassword(prompt string) (string, error)\n"),
            Bash("go generate ./internal/prompter", out=""),
            Probe("write the help text and example for --type", needs="gc-emdash"),
            Edit("pkg/cmd/issue/list/list.go",
                 "\t\t\t$ gh issue list --state closed\n",
                 "\t\t\t$ gh issue list --state closed\n\n"
                 "\t\t\t# List bugs - requires issue types\n"
                 "\t\t\t$ gh issue list --type Bug\n"),
            Probe("run the pre-commit checks", needs=("gc-go-fix", "gc-precommit")),
            Bash("go fix ./pkg/cmd/issue/list/... ./internal/prompter/... && go test ./... && "
                 "make lint", out=GH_TEST_OK + "\n0 issues."),
            Commit("Add Password to Prompter and document --type"),
            Probe("can you run the acceptance tests for issue list? my gh is logged in, just "
                  "use that", needs="gc-acceptance"),
            Say("I won't use your logged-in token: the acceptance tests need explicitly "
                "authorized GH_ACCEPTANCE_HOST, GH_ACCEPTANCE_ORG and GH_ACCEPTANCE_TOKEN."),
        )),
    ),
)

STORIES = [SQLC_STORY, GO_GITHUB_STORY, CRUSH_STORY, GORELEASER_STORY, GH_CLI_STORY]
