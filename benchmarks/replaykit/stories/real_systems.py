"""DEV stories built from real public material of Go and Rust projects (services, CLIs,
libraries): instruction files and their git history, contributing guides, commit messages and CI
output. The user turns keep the source authors' words for the rules; names are placeholders."""

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
# 1. github/github-mcp-server (Go): .github/copilot-instructions.md and its history,
#    CONTRIBUTING.md, internal/toolsnaps, docs-check workflow, PR #1428 and #1623.
# ---------------------------------------------------------------------------------------------

GHMCP = Project("github-mcp-server", "go", {
    "go.mod": (
        "module github.com/github/github-mcp-server\n\ngo 1.24.0\n\nrequire (\n"
        "\tgithub.com/google/go-github/v74 v74.0.0\n"
        "\tgithub.com/mark3labs/mcp-go v0.41.1\n"
        "\tgithub.com/spf13/cobra v1.10.1\n"
        "\tgithub.com/stretchr/testify v1.11.1\n)\n"
    ),
    "script/lint": (
        "set -eu\n\n# first run go fmt\ngofmt -s -w .\n\n"
        "BINDIR=\"$(git rev-parse --show-toplevel)\"/bin\nBINARY=$BINDIR/golangci-lint\n"
        "GOLANGCI_LINT_VERSION=v2.5.0\n\n$BINARY run\n"
    ),
    "script/test": "set -eu\n\ngo test -race ./...\n",
    "script/generate-docs": (
        "#!/bin/bash\n\n# It needs to be run after tool updates to ensure the latest changes "
        "are reflected in the documentation.\ngo run ./cmd/github-mcp-server generate-docs\n"
    ),
    "pkg/github/issues.go": (
        "package github\n\nimport (\n\t\"context\"\n\n"
        "\t\"github.com/google/go-github/v74/github\"\n"
        "\t\"github.com/mark3labs/mcp-go/mcp\"\n"
        "\t\"github.com/mark3labs/mcp-go/server\"\n)\n\n"
        "// ListIssues creates a tool to list issues in a GitHub repository.\n"
        "func ListIssues(getClient GetClientFn) (mcp.Tool, server.ToolHandlerFunc) {\n"
        "\treturn mcp.NewTool(\"list_issues\",\n"
        "\t\t\tmcp.WithDescription(\"List issues in a GitHub repository.\"),\n"
        "\t\t\tmcp.WithToolAnnotation(mcp.ToolAnnotation{Title: \"List issues\", "
        "ReadOnlyHint: mcp.ToBoolPtr(true)}),\n"
        "\t\t\tmcp.WithString(\"owner\", mcp.Required(), "
        "mcp.Description(\"Repository owner\")),\n"
        "\t\t\tmcp.WithString(\"repo\", mcp.Required(), mcp.Description(\"Repository name\")),\n"
        "\t\t\tmcp.WithString(\"state\", mcp.Description(\"Filter by state\"), "
        "mcp.Enum(\"OPEN\", \"CLOSED\")),\n"
        "\t\t),\n"
        "\t\tfunc(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, "
        "error) {\n"
        "\t\t\towner, err := RequiredParam[string](request, \"owner\")\n"
        "\t\t\tif err != nil {\n\t\t\t\treturn mcp.NewToolResultError(err.Error()), nil\n\t\t\t}\n"
        "\t\t\trepo, err := RequiredParam[string](request, \"repo\")\n"
        "\t\t\tif err != nil {\n\t\t\t\treturn mcp.NewToolResultError(err.Error()), nil\n\t\t\t}\n"
        "\t\t\tclient, err := getClient(ctx)\n"
        "\t\t\tif err != nil {\n\t\t\t\treturn nil, err\n\t\t\t}\n"
        "\t\t\topts := &github.IssueListByRepoOptions{}\n"
        "\t\t\tissues, _, err := client.Issues.ListByRepo(ctx, owner, repo, opts)\n"
        "\t\t\tif err != nil {\n\t\t\t\treturn nil, err\n\t\t\t}\n"
        "\t\t\treturn MarshalledTextResult(issues), nil\n\t\t}\n}\n"
    ),
    "pkg/github/server.go": (
        "package github\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"strings\"\n\n"
        "\t\"github.com/google/go-github/v74/github\"\n)\n\n"
        "type GetClientFn func(context.Context) (*github.Client, error)\n\n"
        "// splitRepo splits \"owner/repo\" into its two parts.\n"
        "func splitRepo(full string) (string, string, error) {\n"
        "\towner, repo, ok := strings.Cut(full, \"/\")\n"
        "\tif !ok {\n\t\treturn \"\", \"\", fmt.Errorf(\"invalid repository %q\", full)\n\t}\n"
        "\treturn owner, repo, nil\n}\n"
    ),
    "pkg/github/issues_test.go": (
        "package github\n\nimport (\n\t\"testing\"\n\n"
        "\t\"github.com/github/github-mcp-server/internal/toolsnaps\"\n"
        "\t\"github.com/google/go-github/v74/github\"\n"
        "\t\"github.com/stretchr/testify/assert\"\n"
        "\t\"github.com/stretchr/testify/require\"\n)\n\n"
        "func Test_ListIssues(t *testing.T) {\n"
        "\tmockClient := github.NewClient(nil)\n"
        "\ttool, _ := ListIssues(stubGetClientFn(mockClient))\n"
        "\trequire.NoError(t, toolsnaps.Test(tool.Name, tool))\n\n"
        "\tassert.Equal(t, \"list_issues\", tool.Name)\n"
        "\tassert.True(t, *tool.Annotations.ReadOnlyHint, \"list_issues should be read-only\")\n"
        "}\n"
    ),
    "pkg/github/__toolsnaps__/list_issues.snap": (
        "{\n  \"annotations\": {\n    \"title\": \"List issues\",\n"
        "    \"readOnlyHint\": true\n  },\n"
        "  \"description\": \"List issues in a GitHub repository.\",\n"
        "  \"inputSchema\": {\n    \"properties\": {\n"
        "      \"owner\": {\n        \"description\": \"Repository owner\",\n"
        "        \"type\": \"string\"\n      },\n"
        "      \"repo\": {\n        \"description\": \"Repository name\",\n"
        "        \"type\": \"string\"\n      },\n"
        "      \"state\": {\n        \"description\": \"Filter by state\",\n"
        "        \"enum\": [\n          \"OPEN\",\n          \"CLOSED\"\n        ],\n"
        "        \"type\": \"string\"\n      }\n    },\n"
        "    \"required\": [\n      \"owner\",\n      \"repo\"\n    ],\n"
        "    \"type\": \"object\"\n  },\n  \"name\": \"list_issues\"\n}\n"
    ),
    "README.md": (
        "# GitHub MCP Server\n\n## Tools\n\n<!-- START AUTOMATED TOOLS -->\n"
        "- **list_issues** - List issues\n"
        "  - `owner`: Repository owner (string, required)\n"
        "  - `repo`: Repository name (string, required)\n"
        "  - `state`: Filter by state (string, optional)\n"
        "<!-- END AUTOMATED TOOLS -->\n"
    ),
})

GH_TOOLSNAP_FAIL = (
    "--- FAIL: Test_ListIssues (0.00s)\n"
    "    issues_test.go:16:\n"
    "        \tError Trace:\t/home/dev/github-mcp-server/pkg/github/issues_test.go:16\n"
    "        \tError:      \tReceived unexpected error:\n"
    "        \t            \ttool schema for list_issues has changed unexpectedly:\n"
    "        \t            \t@ [\"inputSchema\",\"properties\",\"milestone\"]\n"
    "        \t            \t+ {\"description\":\"Filter by milestone number\","
    "\"type\":\"number\"}\n"
    "        \t            \trun with `UPDATE_TOOLSNAPS=true` if this is expected\n"
    "        \tTest:       \tTest_ListIssues\n"
    "FAIL\n"
    "FAIL\tgithub.com/github/github-mcp-server/pkg/github\t0.412s\n"
    "ok  \tgithub.com/github/github-mcp-server/internal/ghmcp\t(cached)\n"
    "ok  \tgithub.com/github/github-mcp-server/pkg/sanitize\t(cached)\n"
    "FAIL"
)
GH_TEST_OK = (
    "ok  \tgithub.com/github/github-mcp-server/cmd/github-mcp-server\t0.061s\n"
    "ok  \tgithub.com/github/github-mcp-server/internal/ghmcp\t(cached)\n"
    "ok  \tgithub.com/github/github-mcp-server/pkg/github\t1.934s\n"
    "ok  \tgithub.com/github/github-mcp-server/pkg/sanitize\t(cached)\n"
    "ok  \tgithub.com/github/github-mcp-server/pkg/toolsets\t(cached)"
)

GHMCP_STORY = Story(
    id="dv-go-ghmcp-1",
    title="GitHub MCP server: lint/test scripts, toolsnaps, generated docs, the move to the "
          "official Go SDK and tool renames",
    project=GHMCP,
    sources=("github/github-mcp-server",),
    lessons=(
        lesson("lint-cmd", "command",
               "Run script/lint (gofmt -s -w . then golangci-lint) before committing Go "
               "changes; never skip it",
               "script/lint"),
        lesson("test-cmd", "command",
               "Run the tests with script/test (go test -race ./...)",
               "script/test"),
        lesson("toolsnaps", "gotcha",
               "Changing an MCP tool's schema fails its toolsnap test; run "
               "UPDATE_TOOLSNAPS=true go test ./... and commit the updated .snap files in "
               "pkg/github/__toolsnaps__",
               "UPDATE_TOOLSNAPS"),
        lesson("gen-docs", "command",
               "Run script/generate-docs after modifying MCP tools/toolsets; the docs-check "
               "workflow fails when README.md is out of date",
               "generate-docs"),
        lesson("acronyms", "convention",
               "Acronyms in Go identifiers are all caps: ID not Id, API not Api, URL not Url, "
               "HTTP not Http (userID, parseURL)",
               "acronym|userID|parseURL|not Id|not Url"),
        lesson("no-tag-release", "decision",
               "Never use script/tag-release or push tags; releases are managed separately",
               "tag-release|push tags"),
        lesson("export-lib", "convention",
               "The repo is used as a library by the remote server: export (capitalize) "
               "functions other repositories could call, even if not needed internally",
               "export|capitaliz",
               "remote server|library"),
        lesson("sdk-mark3labs", "fact",
               "The server uses mark3labs/mcp-go for the MCP protocol",
               "mark3labs"),
        lesson("sdk-official", "decision",
               "The server moved from mark3labs/mcp-go to modelcontextprotocol/go-sdk for the "
               "MCP protocol (new tool schema and handler signatures)",
               "modelcontextprotocol/go-sdk|go-sdk"),
        lesson("rename-alias", "convention",
               "When renaming a tool, add a deprecation alias old->new in "
               "DeprecatedToolAliases (pkg/github/deprecated_tool_aliases.go)",
               "DeprecatedToolAliases|deprecated_tool_aliases|deprecation alias"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: github/github-mcp-server .github/copilot-instructions.md (aba64afb)
            User("hey, before you start: this is the GitHub MCP Server, the local stdio server "
                 "is the main focus, mcpcurl is secondary (don't break it, but not the "
                 "priority). Framework: uses mark3labs/mcp-go for MCP protocol, "
                 "google/go-github for GitHub API.", states="sdk-mark3labs"),
            # source: github/github-mcp-server .github/copilot-instructions.md (aba64afb)
            User("ALWAYS run these commands in this exact order before finishing work: 1. "
                 "`script/lint` (runs `gofmt -s -w .` then `golangci-lint`) 2. `script/test` "
                 "(runs `go test -race ./...`) 3. `script/generate-docs` (if you modified MCP "
                 "tools/toolsets). they're fast, ~1s each.",
                 states=("lint-cmd", "test-cmd", "gen-docs")),
            User("first job: list_issues should take an optional milestone number to filter "
                 "on. someone asked for it in the issue tracker last week."),
            Read("pkg/github/issues.go"),
            Edit("pkg/github/issues.go",
                 "mcp.Enum(\"OPEN\", \"CLOSED\")),\n\t\t),\n",
                 "mcp.Enum(\"OPEN\", \"CLOSED\")),\n"
                 "\t\t\tmcp.WithNumber(\"milestone\", "
                 "mcp.Description(\"Filter by milestone number\")),\n\t\t),\n"),
            Edit("pkg/github/issues.go",
                 "\t\t\topts := &github.IssueListByRepoOptions{}\n",
                 "\t\t\topts := &github.IssueListByRepoOptions{}\n"
                 "\t\t\tif m, ok := request.GetArguments()[\"milestone\"].(float64); ok {\n"
                 "\t\t\t\topts.Milestone = fmt.Sprintf(\"%d\", int(m))\n\t\t\t}\n"),
            Edit("pkg/github/issues.go", "import (\n\t\"context\"\n",
                 "import (\n\t\"context\"\n\t\"fmt\"\n"),
            Bash("script/lint", out="0 issues."),
            Bash("script/test", out=GH_TOOLSNAP_FAIL, ok=False),
            Say("The toolsnap check caught it: every tool's JSON schema is snapshotted in "
                "pkg/github/__toolsnaps__/*.snap and the test fails when the schema changes. "
                "This change is intended, so I'll regenerate the snapshot with "
                "UPDATE_TOOLSNAPS=true go test ./... and commit the updated .snap file together "
                "with the code.", states="toolsnaps"),
            Bash("UPDATE_TOOLSNAPS=true go test ./...", out=GH_TEST_OK),
            Edit("pkg/github/__toolsnaps__/list_issues.snap",
                 "    \"properties\": {\n",
                 "    \"properties\": {\n      \"milestone\": {\n"
                 "        \"description\": \"Filter by milestone number\",\n"
                 "        \"type\": \"number\"\n      },\n"),
            Bash("script/test", out=GH_TEST_OK),
            Bash("script/generate-docs", out=""),
            Edit("README.md", "  - `owner`: Repository owner (string, required)\n",
                 "  - `milestone`: Filter by milestone number (number, optional)\n"
                 "  - `owner`: Repository owner (string, required)\n"),
            Commit("Add milestone filter to list_issues\n\nUpdates the list_issues toolsnap and "
                   "the generated README tool docs."),
            User("great, thanks"),
        ), judge={"toolsnaps": "up"}),
        Session(day=3, events=(
            User("next up: a get_issue_comments tool. owner, repo, issue number, and an optional "
                 "comment id to start after"),
            Write("pkg/github/comments.go",
                  "package github\n\nimport (\n\t\"context\"\n\n"
                  "\t\"github.com/mark3labs/mcp-go/mcp\"\n"
                  "\t\"github.com/mark3labs/mcp-go/server\"\n)\n\n"
                  "// GetIssueComments creates a tool to get comments for a GitHub issue.\n"
                  "func GetIssueComments(getClient GetClientFn) (mcp.Tool, "
                  "server.ToolHandlerFunc) {\n"
                  "\treturn mcp.NewTool(\"get_issue_comments\",\n"
                  "\t\t\tmcp.WithDescription(\"Get comments for a specific issue.\"),\n"
                  "\t\t\tmcp.WithNumber(\"issue_number\", mcp.Required()),\n"
                  "\t\t\tmcp.WithNumber(\"after_comment_id\"),\n\t\t),\n"
                  "\t\tfunc(ctx context.Context, request mcp.CallToolRequest) "
                  "(*mcp.CallToolResult, error) {\n"
                  "\t\t\tafterCommentId, _ := OptionalParam[float64](request, "
                  "\"after_comment_id\")\n"
                  "\t\t\t_ = afterCommentId\n"
                  "\t\t\treturn nil, nil\n\t\t}\n}\n"),
            # source: github/github-mcp-server .github/copilot-instructions.md (Go Naming
            # Conventions)
            User("quick nit before you go further: Acronyms in identifiers: Use `ID` not `Id`, "
                 "`API` not `Api`, `URL` not `Url`, `HTTP` not `Http`. Examples: `userID`, "
                 "`getAPI`, `parseURL`, `HTTPClient`. This applies to variable names, function "
                 "names, struct fields, etc.", states="acronyms"),
            Edit("pkg/github/comments.go",
                 "\t\t\tafterCommentId, _ := OptionalParam[float64](request, "
                 "\"after_comment_id\")\n\t\t\t_ = afterCommentId\n",
                 "\t\t\tafterCommentID, _ := OptionalParam[float64](request, "
                 "\"after_comment_id\")\n\t\t\t_ = afterCommentID\n"),
            # source: github/github-mcp-server .github/copilot-instructions.md (Important
            # Reminders)
            User("and so you know: NEVER use `script/tag-release` or push tags - releases are "
                 "managed separately.", states="no-tag-release"),
            Probe("ok, make sure it's all clean before I open the PR",
                  needs=("lint-cmd", "test-cmd")),
            Bash("script/lint", out="0 issues."),
            Bash("script/test", out=GH_TEST_OK),
            # source: github/github-mcp-server .github/copilot-instructions.md (End-to-End Tests)
            User("don't bother with the e2e tests for this one, they need a GitHub PAT and you "
                 "don't have one. just this PR."),
            Commit("Add get_issue_comments tool"),
        ), judge={"test-cmd": "not_down", "lint-cmd": "not_down"}),
        Session(day=8, events=(
            # source: github/github-mcp-server .github/copilot-instructions.md (b25a342c)
            User("heads-up from the remote-server folks: This repository is also used as a "
                 "library by the remote server. Functions that could be called by other "
                 "repositories should be exported (capitalized), even if not required "
                 "internally. Preserve existing export patterns.", states="export-lib"),
            User("someone on the team floated replacing the jd diff in toolsnaps with a plain "
                 "string compare. we're not doing that, order-insensitive compare is the point. "
                 "ignore it if you see the branch."),
            Probe("the 0.14 milestone is done. once this is merged can you get the release out "
                  "for it?", needs=("no-tag-release",)),
            Say("I won't cut the release myself: releases are managed separately and "
                "script/tag-release / pushing tags is off limits for me. Once it's merged, "
                "whoever runs releases can take it from there."),
            User("fair. then: I reworded the create_issue description, can you get it ready to "
                 "push?"),
            Probe("CI went red last time someone touched a description, make sure it won't",
                  needs=("toolsnaps", "gen-docs")),
            Bash("UPDATE_TOOLSNAPS=true go test ./...", out=GH_TEST_OK),
            Bash("script/generate-docs", out=""),
            Edit("README.md", "- **list_issues** - List issues\n",
                 "- **create_issue** - Open a new issue\n- **list_issues** - List issues\n"),
            Commit("Reword create_issue description; update toolsnap and docs"),
        ), judge={"toolsnaps": "not_down"}),
        Session(day=15, events=(
            # source: github/github-mcp-server PR #1428 (60aef5d2)
            User("FYI: we're converting to `modelcontextprotocol/go-sdk`. Move from "
                 "`mark3labs/mcp-go` to `modelcontextprotocol/go-sdk`. This is mostly focused on "
                 "updating tool schema and tool handler signatures. Can you start with go.mod "
                 "and list_issues?", states="sdk-official", replaces="sdk-mark3labs"),
            Edit("go.mod", "\tgithub.com/mark3labs/mcp-go v0.41.1\n",
                 "\tgithub.com/modelcontextprotocol/go-sdk v1.1.0\n"),
            Edit("pkg/github/issues.go",
                 "\t\"github.com/mark3labs/mcp-go/mcp\"\n"
                 "\t\"github.com/mark3labs/mcp-go/server\"\n",
                 "\t\"github.com/modelcontextprotocol/go-sdk/mcp\"\n"),
            Bash("go build ./...", out=(
                "# github.com/github/github-mcp-server/pkg/github\n"
                "pkg/github/issues.go:14:62: undefined: server\n"
                "pkg/github/comments.go:6:2: no required module provides package "
                "github.com/mark3labs/mcp-go/mcp"), ok=False),
            Say("Expected: the handlers still use the old signatures. list_issues now builds an "
                "mcp.Tool with an InputSchema and returns an mcp.ToolHandlerFor; I'll port "
                "comments.go next."),
            Edit("pkg/github/issues.go",
                 "func ListIssues(getClient GetClientFn) (mcp.Tool, server.ToolHandlerFunc) {\n",
                 "func ListIssues(getClient GetClientFn) (mcp.Tool, "
                 "mcp.ToolHandlerFor[map[string]any, any]) {\n"),
            Commit("Start converting to modelcontextprotocol/go-sdk: go.mod, list_issues"),
        )),
        Session(day=21, events=(
            # source: github/github-mcp-server CONTRIBUTING.md (637819a0), docs/tool-renaming.md
            User("new rule in CONTRIBUTING: If renaming a tool, add a deprecation alias (see "
                 "Tool Renaming Guide). Add it in pkg/github/deprecated_tool_aliases.go: `var "
                 "DeprecatedToolAliases = map[string]string{\"old_tool_name\": "
                 "\"new_tool_name\"}`. The server will silently resolve old names to new ones, "
                 "so users with the old name in --tools don't break.", states="rename-alias"),
            Write("pkg/github/deprecated_tool_aliases.go",
                  "package github\n\n// DeprecatedToolAliases maps old tool names to their new "
                  "canonical names.\nvar DeprecatedToolAliases = map[string]string{}\n"),
            Commit("Add DeprecatedToolAliases"),
            User("next: we want a list_issue_types tool (org-level issue types)."),
            Probe("write the tool and its handler, same shape as the others",
                  needs=("sdk-official",)),
            Write("pkg/github/issue_types.go",
                  "package github\n\nimport (\n\t\"context\"\n\n"
                  "\t\"github.com/modelcontextprotocol/go-sdk/mcp\"\n)\n\n"
                  "// ListIssueTypes creates a tool to list the issue types of an "
                  "organization.\n"
                  "func ListIssueTypes(getClient GetClientFn) (mcp.Tool, "
                  "mcp.ToolHandlerFor[map[string]any, any]) {\n"
                  "\ttool := mcp.Tool{Name: \"list_issue_types\"}\n"
                  "\treturn tool, func(ctx context.Context, req *mcp.CallToolRequest, "
                  "args map[string]any) (*mcp.CallToolResult, any, error) {\n"
                  "\t\treturn nil, nil, nil\n\t}\n}\n"),
            Probe("add whatever else CI needs for a new tool", needs=("toolsnaps", "gen-docs")),
            Bash("UPDATE_TOOLSNAPS=true go test ./... && script/generate-docs", out=GH_TEST_OK),
            Write("pkg/github/__toolsnaps__/list_issue_types.snap",
                  "{\n  \"name\": \"list_issue_types\"\n}\n"),
            Commit("Add list_issue_types tool with toolsnap"),
        )),
        Session(day=30, events=(
            User("naming cleanup time."),
            Probe("rename get_issue_comments to issue_comments_read please, without breaking "
                  "people's configs", needs=("rename-alias", "toolsnaps")),
            Edit("pkg/github/deprecated_tool_aliases.go",
                 "var DeprecatedToolAliases = map[string]string{}\n",
                 "var DeprecatedToolAliases = map[string]string{\n"
                 "\t\"get_issue_comments\": \"issue_comments_read\",\n}\n"),
            Probe("also, the remote server team can't call our owner/repo splitting helper. "
                  "can you sort that out?", needs=("export-lib",)),
            Edit("pkg/github/server.go",
                 "// splitRepo splits \"owner/repo\" into its two parts.\n"
                 "func splitRepo(full string)",
                 "// SplitRepo splits \"owner/repo\" into its two parts.\n"
                 "func SplitRepo(full string)"),
            Probe("and add a helper that builds the web link for an issue from owner, repo and "
                  "number", needs=("acronyms",)),
            Edit("pkg/github/server.go", "type GetClientFn",
                 "// IssueHTMLURL returns the web URL of an issue.\n"
                 "func IssueHTMLURL(owner, repo string, number int) string {\n"
                 "\treturn fmt.Sprintf(\"https://github.com/%s/%s/issues/%d\", owner, repo, "
                 "number)\n}\n\ntype GetClientFn"),
            Bash("script/lint && script/test", out="0 issues.\n" + GH_TEST_OK),
            Commit("Rename get_issue_comments to issue_comments_read; export SplitRepo"),
        ), judge={"rename-alias": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 2. mark3labs/mcp-go (Go): AGENTS.md and its history (OpenSpec block dropped, verified
#    commits), .kit/prompts/fix-issue.md, CONTRIBUTING.md (otel submodule, Go version, #929),
#    the verify-codegen CI job, server/internal/gen, the usetesting linter (#703).
# ---------------------------------------------------------------------------------------------

_HOOKS_HEAD = (
    "// Code generated by `go generate`. DO NOT EDIT.\n"
    "// source: server/internal/gen/hooks.go.tmpl\n"
    "package server\n\nimport (\n\t\"context\"\n\n\t\"github.com/mark3labs/mcp-go/mcp\"\n)\n\n"
    "// OnRegisterSessionHookFunc is a hook that will be called when a new session is "
    "registered.\n"
    "type OnRegisterSessionHookFunc func(ctx context.Context, session ClientSession)\n\n"
    "// BeforeAnyHookFunc is a function that is called after the request is\n"
    "// parsed but before the method is called.\n"
    "type BeforeAnyHookFunc func(ctx context.Context, id any, method mcp.MCPMethod, "
    "message any)\n\n"
    "type Hooks struct {\n"
    "\tOnRegisterSession []OnRegisterSessionHookFunc\n"
    "\tOnBeforeAny       []BeforeAnyHookFunc\n}\n"
)

MCPGO = Project("mcp-go", "go", {
    "go.mod": (
        "module github.com/mark3labs/mcp-go\n\ngo 1.23\n\nrequire (\n"
        "\tgithub.com/google/uuid v1.6.0\n\tgithub.com/spf13/cast v1.7.1\n"
        "\tgithub.com/stretchr/testify v1.9.0\n)\n"
    ),
    ".golangci.yml": "version: \"2\"\nlinters:\n  enable:\n    - modernize\n",
    "mcp/types.go": (
        "package mcp\n\n// MCPMethod is the name of a JSON-RPC method in the protocol.\n"
        "type MCPMethod string\n\nconst (\n"
        "\t// MethodInitialize initiates connection and negotiates protocol capabilities.\n"
        "\tMethodInitialize MCPMethod = \"initialize\"\n"
        "\t// MethodPing verifies connection liveness between client and server.\n"
        "\tMethodPing MCPMethod = \"ping\"\n)\n"
    ),
    "server/server.go": (
        "//go:generate go run ./internal/gen\n"
        "package server\n\n"
        "// MCPServer implements a Model Context Protocol server.\n"
        "type MCPServer struct {\n\tname    string\n\tversion string\n\thooks   *Hooks\n}\n\n"
        "// ServerOption is a function that configures an MCPServer.\n"
        "type ServerOption func(*MCPServer)\n\n"
        "// WithHooks allows adding hooks that will be called on requests.\n"
        "func WithHooks(hooks *Hooks) ServerOption {\n"
        "\treturn func(s *MCPServer) { s.hooks = hooks }\n}\n"
    ),
    "server/hooks.go": _HOOKS_HEAD,
    "server/internal/gen/hooks.go.tmpl": _HOOKS_HEAD,
    "server/internal/gen/main.go": (
        "package main\n\n// main renders hooks.go.tmpl and request_handler.go.tmpl with the\n"
        "// data in data.go and pipes the result through goimports.\nfunc main() {}\n"
    ),
    "client/stdio_test.go": (
        "package client\n\nimport (\n\t\"context\"\n\t\"os\"\n\t\"testing\"\n)\n\n"
        "func TestStdioMCPClient(t *testing.T) {\n"
        "\ttempFile, err := os.CreateTemp(\"\", \"mockstdio_server\")\n"
        "\tif err != nil {\n\t\tt.Fatalf(\"Failed to create temp file: %v\", err)\n\t}\n"
        "\ttempFile.Close()\n\tdefer os.Remove(tempFile.Name())\n\n"
        "\tctx := context.Background()\n"
        "\tclient, err := NewStdioMCPClient(tempFile.Name(), []string{})\n"
        "\tif err != nil {\n\t\tt.Fatalf(\"Failed to create client: %v\", err)\n\t}\n"
        "\tdefer client.Close()\n\t_ = client.Ping(ctx)\n}\n"
    ),
})

MCPGO_TEST_OK = (
    "ok  \tgithub.com/mark3labs/mcp-go/client\t3.882s\n"
    "ok  \tgithub.com/mark3labs/mcp-go/client/transport\t6.114s\n"
    "ok  \tgithub.com/mark3labs/mcp-go/mcp\t0.311s\n"
    "ok  \tgithub.com/mark3labs/mcp-go/mcptest\t1.020s\n"
    "ok  \tgithub.com/mark3labs/mcp-go/server\t9.457s\n"
    "?   \tgithub.com/mark3labs/mcp-go/server/internal/gen\t[no test files]"
)
MCPGO_CODEGEN_FAIL = (
    "verify-codegen\tRun code generation\t2026-02-03T10:12:41Z go: downloading "
    "golang.org/x/tools v0.38.0\n"
    "verify-codegen\tCheck for uncommitted changes\t2026-02-03T10:12:49Z Error: Generated code "
    "is not up to date. Please run 'go generate ./...' and commit the changes.\n"
    "verify-codegen\tCheck for uncommitted changes\t2026-02-03T10:12:49Z On branch "
    "feat/session-idle-hook\n"
    "verify-codegen\tCheck for uncommitted changes\t2026-02-03T10:12:49Z Changes not staged "
    "for commit:\n"
    "verify-codegen\tCheck for uncommitted changes\t2026-02-03T10:12:49Z \tmodified:   "
    "server/hooks.go\n"
    "verify-codegen\tCheck for uncommitted changes\t2026-02-03T10:12:49Z -// OnSessionIdleHookFunc "
    "is called when a session has been idle for the configured timeout.\n"
    "verify-codegen\tCheck for uncommitted changes\t2026-02-03T10:12:49Z ##[error]Process "
    "completed with exit code 1."
)
MCPGO_USETESTING = (
    "client/stdio_test.go:10:19: os.CreateTemp(\"\", ...) could be replaced by "
    "os.CreateTemp(t.TempDir(), ...) in TestStdioMCPClient (usetesting)\n"
    "\ttempFile, err := os.CreateTemp(\"\", \"mockstdio_server\")\n"
    "\t                 ^\n"
    "client/stdio_test.go:16:9: context.Background() could be replaced by t.Context() in "
    "TestStdioMCPClient (usetesting)\n"
    "\tctx := context.Background()\n"
    "\t       ^\n"
    "2 issues:\n* usetesting: 2"
)

MCPGO_STORY = Story(
    id="dv-go-mcpgo-1",
    title="mcp-go: race tests, generated hooks, the usetesting linter, the otel submodule and "
          "dropping OpenSpec for design-on-the-issue",
    project=MCPGO,
    sources=("mark3labs/mcp-go",),
    lessons=(
        lesson("test-race", "command", "Run all tests with `go test ./... -race`",
               "go test", "-race"),
        lesson("godoc", "convention",
               "All exported types/functions must have godoc comments starting with the name",
               "godoc"),
        lesson("codegen", "gotcha",
               "server/hooks.go and server/request_handler.go are generated from the templates "
               "in server/internal/gen: edit the .tmpl/data.go and run `go generate ./...`; the "
               "verify-codegen CI job fails on hand edits",
               "go generate",
               "hooks.go|request_handler.go|internal/gen|tmpl|Generated code"),
        lesson("openspec", "decision",
               "For proposals, new capabilities, breaking changes or architecture shifts, open "
               "openspec/AGENTS.md and write an OpenSpec change proposal first",
               "openspec"),
        lesson("design-on-issue", "decision",
               "The repo no longer uses OpenSpec: for large, ambiguous or breaking changes, "
               "sketch the design in a comment on the issue and wait for maintainer sign-off "
               "before writing code",
               "sign-off|signoff|sign off",
               "issue"),
        lesson("verified-commits", "preference",
               "When possible, make verified (signed) commits using GPG, SSH or S/MIME keys",
               "verified|signed|signing"),
        lesson("usetesting", "gotcha",
               "The usetesting linter is on: in tests use t.TempDir() instead of "
               "os.CreateTemp(\"\", ...) and t.Context() instead of context.Background()",
               "t.Context|t.TempDir|usetesting"),
        lesson("otel-module", "decision",
               "OpenTelemetry support lives in the separate otel/ Go module with its own "
               "go.mod; the root go.mod has no otel dependencies; test it with "
               "`cd otel && go test ./...`",
               "otel",
               "go.mod|submodule|module"),
        lesson("go-123", "fact", "The project needs Go 1.23 or later", "1.23"),
        lesson("go-125", "fact", "go.mod now requires Go 1.25.5 (Go 1.25 or later)",
               "1.25"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: mark3labs/mcp-go AGENTS.md (74a600ba), CONTRIBUTING.md (35f8a892)
            User("hi! quick orientation for mcp-go. Test all: `go test ./... -race`. Lint: "
                 "`golangci-lint run` (uses .golangci.yml config). Make sure you have Go 1.23 "
                 "or later installed.", states=("test-race", "go-123")),
            User("task: I want an OnSessionIdle hook on the server, called when a session has "
                 "been idle for a configured timeout."),
            Read("server/hooks.go"),
            Edit("server/hooks.go", "type Hooks struct {\n",
                 "type OnSessionIdleHookFunc func(ctx context.Context, session ClientSession)\n\n"
                 "type Hooks struct {\n\tOnSessionIdle     []OnSessionIdleHookFunc\n"),
            # source: mark3labs/mcp-go AGENTS.md (Code Style)
            User("review comment from me: Comments: All exported types/functions MUST have "
                 "godoc comments starting with the name; no inline comments unless necessary.",
                 states="godoc"),
            Edit("server/hooks.go",
                 "type OnSessionIdleHookFunc func",
                 "// OnSessionIdleHookFunc is called when a session has been idle for the "
                 "configured timeout.\ntype OnSessionIdleHookFunc func"),
            Bash("go test ./... -race", out=MCPGO_TEST_OK),
            Commit("feat(server): add OnSessionIdle hook"),
        ), judge={"test-race": "not_down"}),
        Session(day=1, events=(
            User("CI is red on the idle hook PR, can you look?"),
            Bash("gh run view --log-failed", out=MCPGO_CODEGEN_FAIL, ok=False),
            Read("server/internal/gen/hooks.go.tmpl"),
            Say("server/hooks.go is generated (\"Code generated by `go generate`. DO NOT "
                "EDIT.\", source server/internal/gen/hooks.go.tmpl). go generate ./... rewrote "
                "it without my hand edit, so verify-codegen failed. The change belongs in the "
                "template; then I regenerate and commit both.", states="codegen"),
            Edit("server/internal/gen/hooks.go.tmpl", "type Hooks struct {\n",
                 "// OnSessionIdleHookFunc is called when a session has been idle for the "
                 "configured timeout.\n"
                 "type OnSessionIdleHookFunc func(ctx context.Context, session ClientSession)\n\n"
                 "type Hooks struct {\n\tOnSessionIdle     []OnSessionIdleHookFunc\n"),
            Bash("go generate ./... && git status --short", out=" M server/internal/gen/"
                 "hooks.go.tmpl"),
            Commit("fix(server): generate OnSessionIdle hook from hooks.go.tmpl"),
        ), judge={"codegen": "up"}),
        Session(day=4, events=(
            # source: mark3labs/mcp-go AGENTS.md (74a600ba, OpenSpec block)
            User("one more thing for your notes. Always open `@/openspec/AGENTS.md` when the "
                 "request mentions planning or proposals, introduces new capabilities, breaking "
                 "changes, architecture shifts, or big performance/security work, or sounds "
                 "ambiguous. Use it to learn how to create and apply change proposals.",
                 states="openspec"),
            User("today's small one: Ping on the stdio client should return ErrClientClosed "
                 "once Close() has been called."),
            Probe("patch it and make sure the whole suite still passes", needs=("test-race",)),
            Bash("go test ./... -race", out=MCPGO_TEST_OK),
            # source: mark3labs/mcp-go AGENTS.md (04d2518a)
            User("and from now on: When possible, make verified (signed) commits using GPG, "
                 "SSH, or S/MIME signing keys. you have my ssh signing key configured.",
                 states="verified-commits"),
            Edit("client/stdio_test.go", "\tdefer client.Close()\n\t_ = client.Ping(ctx)\n",
                 "\tdefer client.Close()\n\t_ = client.Ping(ctx)\n\tclient.Close()\n"
                 "\tif err := client.Ping(ctx); err == nil {\n"
                 "\t\tt.Fatal(\"expected error after Close\")\n\t}\n"),
            Bash("git commit -S -am \"fix(client): Ping returns ErrClientClosed after Close\"",
                 out="[fix/ping-after-close 3c1e2d7] fix(client): Ping returns ErrClientClosed "
                     "after Close\n 1 file changed, 4 insertions(+)"),
        )),
        Session(day=9, events=(
            # source: mark3labs/mcp-go PR #703 (d46cf850) .golangci.yml
            User("we're turning on the usetesting linter (context-background, context-todo, "
                 "os-temp-dir) to simplify the tests. enable it and fix what it flags."),
            Edit(".golangci.yml", "    - modernize\n",
                 "    - modernize\n    - usetesting\n  settings:\n    usetesting:\n"
                 "      context-background: true\n      context-todo: true\n"
                 "      os-temp-dir: true\n"),
            Bash("golangci-lint run", out=MCPGO_USETESTING, ok=False),
            Say("usetesting wants test-scoped helpers: os.CreateTemp(t.TempDir(), ...) instead "
                "of the global temp dir (no manual os.Remove needed), and t.Context() instead of "
                "context.Background(), which is cancelled when the test ends.",
                states="usetesting"),
            Edit("client/stdio_test.go",
                 "\ttempFile, err := os.CreateTemp(\"\", \"mockstdio_server\")\n",
                 "\ttempFile, err := os.CreateTemp(t.TempDir(), \"mockstdio_server\")\n"),
            Edit("client/stdio_test.go", "\tctx := context.Background()\n",
                 "\tctx := t.Context()\n"),
            Bash("golangci-lint run", out="0 issues."),
            Commit("refactor: simplify tests with the usetesting linter"),
        ), judge={"usetesting": "up"}),
        Session(day=12, events=(
            Probe("can you write a test that the idle hook fires after the timeout?",
                  needs=("usetesting",)),
            Write("server/idle_test.go",
                  "package server\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\n"
                  "func TestOnSessionIdle(t *testing.T) {\n\tctx := t.Context()\n"
                  "\tfired := make(chan struct{}, 1)\n\thooks := &Hooks{}\n"
                  "\t_ = ctx\n\t_ = hooks\n\tselect {\n\tcase <-fired:\n"
                  "\tcase <-time.After(50 * time.Millisecond):\n\t}\n}\n"),
            Bash("golangci-lint run && go test ./server -race",
                 out="0 issues.\nok  \tgithub.com/mark3labs/mcp-go/server\t9.611s"),
            Commit("test(server): cover OnSessionIdle"),
        ), judge={"usetesting": "not_down"}),
        Session(day=16, events=(
            # source: mark3labs/mcp-go PR #856 (14ddeb30) commit message and CONTRIBUTING.md
            User("tracing landed. Splits OpenTelemetry tracing out of the core module to keep "
                 "mcp-go's dependency graph minimal: the OpenTelemetry adapter ships as a "
                 "separate Go module at github.com/mark3labs/mcp-go/otel with its own go.mod. "
                 "The submodule carries the otel direct deps; the root go.mod has none. The otel "
                 "submodule has its own go.mod, to test it: `cd otel && go test -v './...'`",
                 states="otel-module"),
            # source: mark3labs/mcp-go PR #929 (c8cc0d77)
            User("also, CONTRIBUTING said Go 1.23, but go.mod requires 1.25.5 now. so Go 1.25 "
                 "or later.", states="go-125", replaces="go-123"),
            Edit("go.mod", "go 1.23\n", "go 1.25.5\n"),
            Commit("docs: CONTRIBUTING says Go 1.23, but go.mod requires 1.25.5"),
        )),
        Session(day=22, events=(
            # source: mark3labs/mcp-go AGENTS.md (1d91f11d) and .kit/prompts/fix-issue.md
            User("housekeeping: I removed the OpenSpec managed instructions block from "
                 "AGENTS.md; this repo no longer uses openspec for change proposals. For "
                 "breaking changes or architecture shifts, propose the design on the issue "
                 "first and wait for maintainer sign-off.",
                 states="design-on-issue", replaces="openspec"),
            Probe("separately: add an mcp.client.name attribute to the client spans. where do "
                  "the otel bits go?", needs=("otel-module",)),
            Bash("cd otel && go test ./... -race",
                 out="ok  \tgithub.com/mark3labs/mcp-go/otel\t1.208s\n"
                     "ok  \tgithub.com/mark3labs/mcp-go/otel/client\t0.944s\n"
                     "ok  \tgithub.com/mark3labs/mcp-go/otel/server\t1.377s"),
        ), judge={"otel-module": "not_down"}),
        Session(day=30, events=(
            User("ok, issue #960 asks to change ToolHandlerFunc to return a typed result."),
            Probe("how do we get going on that one?", needs=("design-on-issue",)),
            Say("That's a breaking signature change, so no code yet: I'll write the proposed "
                "design as a comment on #960 (new generic handler type, adapter for the old "
                "one) and wait for a maintainer to sign off."),
            Probe("the CI runner image still pins an old Go toolchain, which version should we "
                  "set?", needs=("go-125",)),
            Probe("add an OnToolListChanged hook to the server", needs=("codegen", "godoc")),
            Edit("server/internal/gen/hooks.go.tmpl", "type Hooks struct {\n",
                 "// OnToolListChangedHookFunc is called after the server's tool list "
                 "changes.\n"
                 "type OnToolListChangedHookFunc func(ctx context.Context)\n\n"
                 "type Hooks struct {\n"),
            Bash("go generate ./... && go test ./... -race", out=MCPGO_TEST_OK),
            Probe("looks good, commit it", needs=("verified-commits",)),
            Bash("git commit -S -am \"feat(server): add OnToolListChanged hook\"",
                 out="[feat/tool-list-hook 9ab04f1] feat(server): add OnToolListChanged hook\n"
                     " 2 files changed, 12 insertions(+)"),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# 3. modelcontextprotocol/go-sdk (Go): CONTRIBUTING.md and its history (README generation,
#    copyright header and the Apache 2.0 switch #750, dependency policy #678), AGENTS.md
#    (#810, generated docs/), .github/workflows/test.yml and docs-check.yml.
# ---------------------------------------------------------------------------------------------

_MIT_HEADER = (
    "// Copyright 2025 The Go MCP SDK Authors. All rights reserved.\n"
    "// Use of this source code is governed by an MIT-style\n"
    "// license that can be found in the LICENSE file.\n"
)

GOSDK = Project("go-sdk", "go", {
    "go.mod": (
        "module github.com/modelcontextprotocol/go-sdk\n\ngo 1.23.0\n\nrequire (\n"
        "\tgithub.com/google/go-cmp v0.7.0\n\tgithub.com/google/jsonschema-go v0.2.0\n"
        "\tgithub.com/yosida95/uritemplate/v3 v3.0.2\n\tgolang.org/x/tools v0.34.0\n)\n"
    ),
    "mcp/server.go": _MIT_HEADER + (
        "\npackage mcp\n\n// ServerOptions is used to configure behavior of the server.\n"
        "type ServerOptions struct {\n\t// Optional instructions for connected clients.\n"
        "\tInstructions string\n\t// If non-nil, called when \"notifications/initialized\" "
        "is received.\n\tInitializedHandler func(context.Context, *InitializedRequest)\n}\n"
    ),
    "mcp/streamable.go": _MIT_HEADER + (
        "\npackage mcp\n\n// StreamableHTTPOptions configures the StreamableHTTPHandler.\n"
        "type StreamableHTTPOptions struct {\n\t// Stateless controls whether the session "
        "is stateless.\n\tStateless bool\n}\n"
    ),
    "internal/readme/Makefile": (
        "# This makefile builds ../README.md from the files in this directory.\n\n"
        "OUTFILE=../../README.md\n\n$(OUTFILE): build README.src.md\n"
        "\tgo run golang.org/x/example/internal/cmd/weave@latest README.src.md > $(OUTFILE)\n"
    ),
    "internal/readme/README.src.md": (
        "# MCP Go SDK\n\n## Quickstart\n\n%include server/server.go -\n\n"
        "## Streamable HTTP\n\nUse `NewStreamableHTTPHandler` to serve MCP over HTTP.\n"
    ),
    "README.md": (
        "<!-- Autogenerated by weave; DO NOT EDIT -->\n# MCP Go SDK\n\n## Quickstart\n\n"
        "```go\nserver := mcp.NewServer(&mcp.Implementation{Name: \"greeter\"}, nil)\n```\n\n"
        "## Streamable HTTP\n\nUse `NewStreamableHTTPHandler` to serve MCP over HTTP.\n"
    ),
    "scripts/server-conformance.sh": (
        "#!/bin/bash\n# Runs the MCP conformance suite against the example server.\n"
        "# Downloads the latest @modelcontextprotocol/conformance from npm by default.\n"
        "set -euo pipefail\n"
    ),
})

GOSDK_TEST_OK = (
    "ok  \tgithub.com/modelcontextprotocol/go-sdk/auth\t0.104s\n"
    "ok  \tgithub.com/modelcontextprotocol/go-sdk/internal/jsonrpc2\t1.392s\n"
    "ok  \tgithub.com/modelcontextprotocol/go-sdk/jsonrpc\t0.087s\n"
    "ok  \tgithub.com/modelcontextprotocol/go-sdk/mcp\t7.841s\n"
    "ok  \tgithub.com/modelcontextprotocol/go-sdk/oauthex\t0.212s"
)

GOSDK_STORY = Story(
    id="dv-go-mcpsdk-1",
    title="Go MCP SDK: generated README and docs, copyright headers and the license switch, "
          "dependency policy, conformance scripts, CI lint job",
    project=GOSDK,
    sources=("modelcontextprotocol/go-sdk",),
    lessons=(
        lesson("readme-make", "command",
               "README.md is generated from internal/readme/README.src.md: edit that, run "
               "`make` in internal/readme/, commit both files",
               "README.src.md|internal/readme",
               r"re:run(ning)? `?make\b"),
        lesson("readme-gogen", "command",
               "Regenerate README.md with `go generate ./internal/readme` from the repository "
               "root (CI runs it and checks nothing changed); commit both files",
               "go generate ./internal/readme"),
        lesson("docs-gen", "convention",
               "Do not edit docs/ directly: edit internal/docs/*.src.md and run "
               "`go generate ./internal/docs`, commit both directories",
               "internal/docs"),
        lesson("copyright-mit", "convention",
               "Every Go file starts with the header \"Copyright 2025 The Go MCP SDK Authors. "
               "All rights reserved. Use of this source code is governed by an MIT-style "
               "license that can be found in the LICENSE file.\"",
               "MIT-style"),
        lesson("copyright-new", "convention",
               "New contributions are licensed under Apache 2.0; the Go file header now says "
               "\"Use of this source code is governed by the license that can be found in the "
               "LICENSE file\" (no longer MIT-style)",
               "Apache 2.0|governed by the license"),
        lesson("go-commit-msg", "convention",
               "Commit messages follow the Go project format (package: lowercase summary)",
               "Go project|CommitMessage|go.dev/wiki"),
        lesson("deps-proposal", "decision",
               "Any new module dependency (or a new major version of one) needs an accepted "
               "proposal; minor updates are fine anytime; never expose dependency types in "
               "the SDK API",
               "proposal",
               "dependenc"),
        lesson("govulncheck", "command",
               "After any change to dependencies run "
               "`go run golang.org/x/vuln/cmd/govulncheck@latest`",
               "govulncheck"),
        lesson("conformance", "command",
               "Run the MCP conformance tests with ./scripts/server-conformance.sh (server) and "
               "./scripts/client-conformance.sh (client)",
               "conformance.sh"),
        lesson("ci-lint", "command",
               "The CI lint job runs gofmt -l ., go vet ./... and staticcheck; tests run with "
               "and without -race",
               "go vet",
               "staticcheck"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: modelcontextprotocol/go-sdk CONTRIBUTING.md (0fa4a6c, Updating the README)
            User("welcome aboard. one thing that bites everybody: The top-level `README.md` "
                 "file is generated from `internal/readme/README.src.md` and should not be "
                 "edited directly. Make your changes to README.src.md, run `make` in the "
                 "`internal/readme/` directory to regenerate `README.md`, and commit both files "
                 "together.", states="readme-make"),
            User("first task: document the Stateless option of the streamable handler in the "
                 "README."),
            Edit("internal/readme/README.src.md",
                 "Use `NewStreamableHTTPHandler` to serve MCP over HTTP.\n",
                 "Use `NewStreamableHTTPHandler` to serve MCP over HTTP. Set "
                 "`StreamableHTTPOptions.Stateless` for servers that keep no session state.\n"),
            Bash("cd internal/readme && make",
                 out="go build -o /tmp/mcp-readme/ ./...\n"
                     "go run golang.org/x/example/internal/cmd/weave@latest README.src.md > "
                     "../../README.md"),
            Edit("README.md", "Use `NewStreamableHTTPHandler` to serve MCP over HTTP.\n",
                 "Use `NewStreamableHTTPHandler` to serve MCP over HTTP. Set "
                 "`StreamableHTTPOptions.Stateless` for servers that keep no session state.\n"),
            # source: modelcontextprotocol/go-sdk CONTRIBUTING.md (0fa4a6c, Contributing code)
            User("looks right. Commit messages should follow the format used by the Go project "
                 "(https://go.dev/wiki/CommitMessage), so package first.",
                 states="go-commit-msg"),
            Commit("README: document StreamableHTTPOptions.Stateless"),
        ), judge={"readme-make": "not_down"}),
        Session(day=3, events=(
            User("next: a keepalive option on the server, ping clients every N seconds."),
            # source: modelcontextprotocol/go-sdk CONTRIBUTING.md (0fa4a6c)
            User("new files need the header. All Go files in the SDK should have a copyright "
                 "header following the format: `// Copyright 2025 The Go MCP SDK Authors. All "
                 "rights reserved.` / `// Use of this source code is governed by an MIT-style` "
                 "/ `// license that can be found in the LICENSE file.`",
                 states="copyright-mit"),
            Write("mcp/keepalive.go", _MIT_HEADER + (
                "\npackage mcp\n\nimport \"time\"\n\n"
                "// startKeepalive pings the peer every interval until ctx is done.\n"
                "func startKeepalive(interval time.Duration) {\n   _ = interval\n}\n")),
            # source: modelcontextprotocol/go-sdk .github/workflows/test.yml (lint job)
            User("before you push: the CI lint job does Check formatting (gofmt -l .), Run Go "
                 "vet (go vet ./...) and Run staticcheck (v0.6.1). then the test matrix plus a "
                 "separate Test with -race job.", states="ci-lint"),
            Bash("gofmt -l . && go vet ./... && staticcheck ./...",
                 out="mcp/keepalive.go"),
            Say("gofmt flags mcp/keepalive.go (I indented with spaces). Formatting it and "
                "re-running the lint steps."),
            Edit("mcp/keepalive.go", "{\n   _ = interval\n}", "{\n\t_ = interval\n}"),
            Bash("gofmt -l . && go vet ./... && staticcheck ./... && go test -race ./...",
                 out=GOSDK_TEST_OK),
            Commit("mcp: add a keepalive option to ServerOptions"),
        ), judge={"ci-lint": "up"}),
        Session(day=12, events=(
            # source: modelcontextprotocol/go-sdk CONTRIBUTING.md (8adc1e3, #678)
            User("we added a dependency policy to CONTRIBUTING. In general, the SDK tries to use "
                 "as few dependencies as possible. We require a proposal for any new module "
                 "dependency, including upgrading an existing module to a new major version. "
                 "Do not include types from dependencies in the SDK API. Updating existing "
                 "dependencies can be done at any time without a proposal, as long as their "
                 "major version does not change.", states="deps-proposal"),
            # source: modelcontextprotocol/go-sdk CONTRIBUTING.md (8adc1e3, #678)
            User("After any change to dependencies, run govulncheck to check them for "
                 "vulnerabilities: `go run golang.org/x/vuln/cmd/govulncheck@latest`. can you "
                 "bump x/tools to the latest minor now, right after the release?",
                 states="govulncheck"),
            Bash("go get golang.org/x/tools@latest && go mod tidy",
                 out="go: upgraded golang.org/x/tools v0.34.0 => v0.36.0"),
            Edit("go.mod", "golang.org/x/tools v0.34.0", "golang.org/x/tools v0.36.0"),
            Bash("go run golang.org/x/vuln/cmd/govulncheck@latest ./...",
                 out="No vulnerabilities found."),
            Commit("all: update golang.org/x/tools to v0.36.0"),
            User("someone on the issue tracker asked whether we could vendor the jsonschema "
                 "package instead of depending on it. not doing that, it stays a normal "
                 "dependency."),
        ), judge={"govulncheck": "not_down"}),
        Session(day=20, events=(
            # source: modelcontextprotocol/go-sdk CONTRIBUTING.md (4439658)
            User("heads-up, the README workflow changed: Run `go generate ./internal/readme` "
                 "from the repository root to regenerate `README.md`, then commit both files "
                 "together. The CI system checks that the README is up-to-date by running "
                 "`go generate ./internal/readme` and verifying no changes result.",
                 states="readme-gogen", replaces="readme-make"),
            # source: modelcontextprotocol/go-sdk AGENTS.md (9f22cf1, Conformance Tests)
            User("and for protocol work we now have conformance runs: "
                 "`./scripts/server-conformance.sh` for server tests, "
                 "`./scripts/client-conformance.sh` for client tests. The scripts download the "
                 "latest conformance suite from npm by default; pass --help for options.",
                 states="conformance"),
            Probe("quick one: is the keepalive change ready to push?", needs=("ci-lint",)),
            Bash("gofmt -l . && go vet ./... && staticcheck ./...", out=""),
        )),
        Session(day=28, events=(
            # source: modelcontextprotocol/go-sdk CONTRIBUTING.md (fe6d3cf, #750)
            User("legal update: As part of MCP joining the Linux Foundation, licensing is "
                 "updated to Apache 2.0 for new contributions while grandfathering existing MIT "
                 "code. New contributions are licensed under Apache 2.0. The header is now `// "
                 "Use of this source code is governed by the license` / `// that can be found "
                 "in the LICENSE file.`", states="copyright-new", replaces="copyright-mit"),
            Probe("the sampling example in the README has the wrong field name "
                  "(MaxTokens), can you fix it?", needs=("readme-gogen",)),
            Edit("internal/readme/README.src.md", "## Streamable HTTP\n",
                 "## Sampling\n\nSet `CreateMessageParams.MaxTokens` to bound the reply.\n\n"
                 "## Streamable HTTP\n"),
            Bash("go generate ./internal/readme", out=""),
            Edit("README.md", "## Streamable HTTP\n",
                 "## Sampling\n\nSet `CreateMessageParams.MaxTokens` to bound the reply.\n\n"
                 "## Streamable HTTP\n"),
            Commit("README: fix the sampling example"),
            Probe("for the conformance config I'd like to parse yaml, can we just add "
                  "gopkg.in/yaml.v3?", needs=("deps-proposal",)),
            Say("Not directly: a new module dependency needs a proposal (an issue labeled "
                "'proposal', open at least a week, accepted by a maintainer). Alternatively the "
                "config could be JSON, which needs nothing new."),
        ), judge={"readme-gogen": "not_down"}),
        Session(day=35, events=(
            # source: modelcontextprotocol/go-sdk AGENTS.md (Documentation) and PR #883
            User("we now publish docs with mkdocs. **docs/**: Do NOT edit `docs/` directory "
                 "directly. It is generated from files in `internal/docs`. Edit "
                 "`internal/docs/*.src.md`, run `go generate ./internal/docs` to regenerate, "
                 "and commit files from both directories. README rules stay as they are.",
                 states="docs-gen"),
            Probe("I need a new file for the elicitation helpers, can you create it with a "
                  "stub ElicitParams validator?", needs=("copyright-new",)),
            Write("mcp/elicit.go",
                  "// Copyright 2025 The Go MCP SDK Authors. All rights reserved.\n"
                  "// Use of this source code is governed by the license\n"
                  "// that can be found in the LICENSE file.\n\npackage mcp\n\n"
                  "func validateElicitParams(p *ElicitParams) error { return nil }\n"),
            Probe("also I bumped x/oauth2 to the new minor in go.mod, anything else I need to "
                  "do?", needs=("govulncheck",)),
            Probe("and check the server-side change against the official spec test suite",
                  needs=("conformance",)),
            Bash("./scripts/server-conformance.sh",
                 out="Running server conformance suite (latest)...\n"
                     "  tools: 14 passed\n  resources: 9 passed\n  prompts: 6 passed\n"
                     "All 29 scenarios passed."),
            Commit("mcp: add elicitation helpers"),
        )),
        Session(day=40, events=(
            Probe("there's a typo on the transports page of the docs site, 'streamble'. fix "
                  "it?", needs=("docs-gen",)),
            Bash("grep -rn streamble internal/docs", out="internal/docs/transports.src.md:12:"
                 "the streamble transport"),
            Probe("then commit that with a proper message", needs=("go-commit-msg",)),
            Bash("go generate ./internal/docs && git commit -am \"docs: fix a typo in the "
                 "transports page\"", out="[main 4be17a0] docs: fix a typo in the transports "
                 "page\n 2 files changed, 2 insertions(+), 2 deletions(-)"),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# 4. lancedb/lance (Rust): CLAUDE.md / AGENTS.md and their history (#4245, #4312, #4292,
#    #4851, #5098), java/CLAUDE.md (#4399 format command fix, #4668 directory move),
#    python/CLAUDE.md and protos/CLAUDE.md.
# ---------------------------------------------------------------------------------------------

LANCE = Project("lance", "rust", {
    "Cargo.toml": (
        "[workspace]\nmembers = [\n    \"rust/lance\",\n    \"rust/lance-core\",\n"
        "    \"rust/lance-index\",\n]\nexclude = [\"python\", \"java/core/lance-jni\"]\n"
        "# Python package needs to be built by maturin.\nresolver = \"2\"\n\n"
        "[workspace.package]\nversion = \"0.32.0\"\nedition = \"2021\"\n"
        "rust-version = \"1.82.0\"\n\n[workspace.dependencies]\n"
        "roaring = \"0.10.1\"\nrstest = \"0.23.0\"\ntokio = { version = \"1.37\", "
        "features = [\"full\"] }\n"
    ),
    "rust/lance/Cargo.toml": (
        "[package]\nname = \"lance\"\nversion.workspace = true\nedition.workspace = true\n\n"
        "[dependencies]\nlance-core = { workspace = true }\nlance-index = { workspace = true }\n"
        "tokio = { workspace = true }\n\n[dev-dependencies]\nrstest = { workspace = true }\n"
    ),
    "rust/lance/src/dataset/delete.rs": (
        "use crate::{Dataset, Result};\n\n"
        "/// Delete rows matching `predicate`, creating a new version of the dataset.\n"
        "///\n/// ```ignore\n/// dataset.delete(\"id = 25\").await?;\n/// ```\n"
        "pub async fn delete(dataset: &mut Dataset, predicate: &str) -> Result<()> {\n"
        "    dataset.apply_deletion(predicate).await\n}\n"
    ),
    "rust/lance/src/dataset/tests.rs": (
        "use tempfile::tempdir;\n\nuse crate::Dataset;\n\n"
        "#[tokio::test]\nasync fn test_delete_all() {\n"
        "    let dir = tempdir().unwrap();\n"
        "    let uri = dir.path().to_str().unwrap();\n"
        "    let mut ds = crate::utils::test::write_ids(uri, 0..100).await;\n"
        "    ds.delete(\"true\").await.unwrap();\n"
        "    assert_eq!(ds.count_rows(None).await.unwrap(), 0);\n}\n"
    ),
    "rust/lance-index/src/scalar/btree.rs": (
        "use std::collections::HashSet;\n\n"
        "/// Row ids matching a search on the btree page.\n"
        "pub fn matching_rows(page: &[u32], lo: u32, hi: u32) -> HashSet<u32> {\n"
        "    page.iter().copied().filter(|v| *v >= lo && *v < hi).collect()\n}\n"
    ),
    "java/core/lance-jni/Cargo.toml": (
        "[package]\nname = \"lance-jni\"\nversion = \"0.32.0\"\nedition = \"2021\"\n\n"
        "[lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\njni = \"0.21.1\"\n"
        "lance = { path = \"../../../rust/lance\" }\n"
    ),
    "java/core/lance-jni/src/blocking_dataset.rs": (
        "use jni::objects::JObject;\nuse jni::JNIEnv;\n\n"
        "pub fn inner_count_rows(env: &mut JNIEnv, java_dataset: JObject) -> i64 { 0 }\n"
    ),
    "protos/transaction.proto": (
        "syntax = \"proto3\";\n\npackage lance.table;\n\nmessage Transaction {\n"
        "  // The version of the dataset this transaction was built from.\n"
        "  uint64 read_version = 1;\n  // The UUID that unique identifies a transaction.\n"
        "  string uuid = 2;\n  // Optional version tag.\n  string tag = 3;\n}\n"
    ),
})

LANCE_TEST_OK = (
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 48.12s\n"
    "     Running unittests src/lib.rs (target/debug/deps/lance-3f0c1e9d2a7b4c11)\n\n"
    "running 6 tests\ntest dataset::tests::test_delete_all ... ok\n"
    "test dataset::tests::test_delete_none ... ok\n"
    "test dataset::tests::test_delete_half ... ok\n"
    "test dataset::tests::test_delete_conflict_retry ... ok\n"
    "test dataset::tests::test_delete_predicate_on_string ... ok\n"
    "test dataset::tests::test_delete_then_append ... ok\n\n"
    "test result: ok. 6 passed; 0 failed; 0 ignored; 0 measured; 2241 filtered out; "
    "finished in 1.87s"
)
LANCE_PY_FAIL = (
    "pytest python/tests -x -q\n"
    "........F\n"
    "=================================== FAILURES ===================================\n"
    "_____________________________ test_delete_builder ______________________________\n\n"
    "    def test_delete_builder(tmp_path):\n"
    "        ds = lance.write_dataset(pa.table({'a': range(100)}), tmp_path)\n"
    ">       ds.delete_builder('a > 50').conflict_retries(5).execute()\n"
    "E       AttributeError: '_Dataset' object has no attribute 'delete_builder'\n\n"
    "python/tests/test_dataset.py:1432: AttributeError\n"
    "=========================== short test summary info ============================\n"
    "FAILED python/tests/test_dataset.py::test_delete_builder - AttributeError: '_Dataset' "
    "object has no attribute 'delete_builder'\n"
    "!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
    "1 failed, 8 passed in 6.02s\nmake: *** [Makefile:4: test] Error 1"
)

LANCE_STORY = Story(
    id="dv-rs-lance-1",
    title="Lance: clippy gate, memory:// and rstest in tests, doctests that compile, the JNI "
          "format command and its move, protobuf compatibility, API review rules",
    project=LANCE,
    sources=("lancedb/lance",),
    lessons=(
        lesson("clippy", "command",
               "Lint the Rust workspace with `cargo clippy --all --tests --benches -- -D "
               "warnings`",
               "clippy",
               "-D warnings|--benches"),
        lesson("memory-uri", "convention",
               "In unit tests prefer the `memory://` URI instead of creating a temporary "
               "directory",
               "memory://"),
        lesson("rstest-case", "convention",
               "Use rstest for parameterized tests, naming each case with "
               "`#[case::{name}(...)]`",
               "rstest|case::"),
        lesson("maturin", "gotcha",
               "Python tests run against the built extension: after Rust changes run "
               "`maturin develop` before `make test`, or new bindings are missing",
               "maturin develop"),
        lesson("doctest-ignore", "convention",
               "Avoid `ignore` in doctests; for APIs with complex inputs (methods on "
               "Dataset) write doctests that just compile a function, so examples stay in sync",
               "doctest",
               "ignore"),
        lesson("mvnw", "convention", "In java/ use ./mvnw instead of mvn", "mvnw"),
        lesson("jni-fmt-core", "command",
               "Format the JNI code with `./mvnw spotless:apply && cargo fmt --manifest-path "
               "./core/lance-jni/Cargo.toml --all` (lance-jni is outside the root workspace)",
               "core/lance-jni"),
        lesson("jni-fmt-root", "command",
               "After the java/ restructure lance-jni lives at java/lance-jni: format with "
               "`./mvnw spotless:apply && cargo fmt --manifest-path ./lance-jni/Cargo.toml "
               "--all`, lint with `cargo clippy --tests --manifest-path ./lance-jni/Cargo.toml`",
               r"re:(?<!core/)lance-jni/Cargo\.toml|java/lance-jni"),
        lesson("proto-fields", "decision",
               "Protobuf changes must be backwards compatible: never re-use or change the "
               "field numbers of existing fields",
               "field number"),
        lesson("api-evolvable", "convention",
               "Public Rust APIs: use builder patterns or options structs instead of long "
               "argument lists, and take Into<T>/AsRef<T> inputs (name: impl Into<String>)",
               "Into<|AsRef<|builder pattern|options struct"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: lancedb/lance CLAUDE.md (c8559ba87, Rust Development)
            User("morning. for the Rust side: Check for build errors: `cargo check --all "
                 "--tests --benches`. Run tests: `cargo test`, specific test: `cargo test -p "
                 "<package> <test_name>`. Lint: `cargo clippy --all --tests --benches -- -D "
                 "warnings`. Format: `cargo fmt --all`.", states="clippy"),
            User("task: the delete tests only cover delete-all. add cases for deleting none and "
                 "half of the rows."),
            # source: lancedb/lance CLAUDE.md (c8559ba87, Development tips / Tests)
            User("and when writing unit tests, prefer using the `memory://` URI instead of "
                 "creating a temporary directory.", states="memory-uri"),
            Edit("rust/lance/src/dataset/tests.rs",
                 "    let dir = tempdir().unwrap();\n"
                 "    let uri = dir.path().to_str().unwrap();\n"
                 "    let mut ds = crate::utils::test::write_ids(uri, 0..100).await;\n",
                 "    let mut ds = crate::utils::test::write_ids(\"memory://\", 0..100).await;\n"),
            Edit("rust/lance/src/dataset/tests.rs", "use tempfile::tempdir;\n\n", ""),
            Bash("cargo test -p lance dataset::tests::test_delete", out=LANCE_TEST_OK),
            Bash("cargo clippy --all --tests --benches -- -D warnings",
                 out="    Checking lance v0.32.0 (/home/dev/lance/rust/lance)\n"
                     "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 31.40s"),
            Commit("test: cover delete none/half, use memory:// in delete tests"),
        ), judge={"clippy": "not_down"}),
        Session(day=4, events=(
            User("the three delete tests are copy-paste. can you fold them into one?"),
            # source: lancedb/lance CLAUDE.md (c8559ba87, Tests)
            User("Use rstest to generate parameterized tests to cover more cases with fewer "
                 "lines of code. Use syntax `#[case::{name}(...)]` to provide human-readable "
                 "names for each case.", states="rstest-case"),
            Edit("rust/lance/src/dataset/tests.rs",
                 "#[tokio::test]\nasync fn test_delete_all() {\n",
                 "#[rstest]\n#[case::all(\"true\", 0)]\n#[case::none(\"false\", 100)]\n"
                 "#[case::half(\"id >= 50\", 50)]\n#[tokio::test]\n"
                 "async fn test_delete(#[case] predicate: &str, #[case] expected: usize) {\n"),
            User("while you're there, the python binding for the delete builder landed "
                 "yesterday, run the python suite too"),
            Bash("cd python && make test", out=LANCE_PY_FAIL, ok=False),
            Say("The Python tests import the compiled extension, which still predates the Rust "
                "change (no delete_builder). After Rust changes the extension has to be rebuilt "
                "first with `maturin develop`."),
            # source: lancedb/lance python/CLAUDE.md
            User("yep: If you want to run python tests after changes to the rust code, you need "
                 "first build the rust code by `maturin develop`.", states="maturin"),
            Bash("cd python && maturin develop && make test",
                 out="🔗 Found pyo3 bindings with abi3 support\n"
                     "📦 Built wheel for abi3 Python ≥ 3.9\n"
                     "🛠 Installed pylance-0.32.0\n.........\n9 passed in 5.88s"),
            Commit("test: parameterize delete tests with rstest"),
        ), judge={"maturin": "up"}),
        Session(day=9, events=(
            User("java side now. I want countRows on the Java Dataset to take an optional "
                 "filter."),
            # source: lancedb/lance java/CLAUDE.md (94c7c29ca)
            User("java/CLAUDE.md says: Use `./mvnw` instead of `mvn` to ensure the correct "
                 "version of Maven is used. compile: `./mvnw compile`, test: `./mvnw test`.",
                 states="mvnw"),
            Edit("java/core/lance-jni/src/blocking_dataset.rs",
                 "pub fn inner_count_rows(env: &mut JNIEnv, java_dataset: JObject) -> i64 { 0 }",
                 "pub fn inner_count_rows(env: &mut JNIEnv, java_dataset: JObject, filter: "
                 "Option<String>) -> i64 {\n    let _ = filter; 0 }"),
            Bash("cd java && ./mvnw spotless:apply && cargo fmt --all && ./mvnw test",
                 out="[INFO] Spotless.Java is keeping 118 files clean - 1 were changed to be "
                     "clean\n[INFO] Tests run: 212, Failures: 0, Errors: 0, Skipped: 0\n"
                     "[INFO] BUILD SUCCESS"),
            Commit("java: optional filter for Dataset.countRows"),
            User("CI's rust-format job for java failed on your PR"),
            Bash("gh run view --log-failed",
                 out="rustfmt\tcargo fmt --manifest-path java/core/lance-jni/Cargo.toml --all "
                     "-- --check\nDiff in /home/runner/work/lance/lance/java/core/lance-jni/src/"
                     "blocking_dataset.rs:4:\n-pub fn inner_count_rows(env: &mut JNIEnv, "
                     "java_dataset: JObject, filter: Option<String>) -> i64 {\n"
                     "-    let _ = filter; 0 }\n+pub fn inner_count_rows(\n+    env: &mut "
                     "JNIEnv,\n+    java_dataset: JObject,\n+    filter: Option<String>,\n"
                     "+) -> i64 {\n##[error]Process completed with exit code 1.", ok=False),
            Say("`cargo fmt --all` run from java/ formats the root workspace, and lance-jni is "
                "excluded from it, so my JNI change was never formatted."),
            # source: lancedb/lance java/CLAUDE.md fix (b0f2a0937, #4399)
            User("right, the format command in java/CLAUDE.md was wrong, it's fixed now: format: "
                 "`./mvnw spotless:apply && cargo fmt --manifest-path "
                 "./core/lance-jni/Cargo.toml --all`", states="jni-fmt-core"),
            Bash("cd java && ./mvnw spotless:apply && cargo fmt --manifest-path "
                 "./core/lance-jni/Cargo.toml --all", out=""),
            Edit("java/core/lance-jni/src/blocking_dataset.rs",
                 "pub fn inner_count_rows(env: &mut JNIEnv, java_dataset: JObject, filter: "
                 "Option<String>) -> i64 {\n    let _ = filter; 0 }",
                 "pub fn inner_count_rows(\n    env: &mut JNIEnv,\n    java_dataset: JObject,\n"
                 "    filter: Option<String>,\n) -> i64 {\n    let _ = filter;\n    0\n}"),
            Commit("java: format lance-jni"),
        ), judge={"jni-fmt-core": "up"}),
        Session(day=15, events=(
            User("let's document DeleteBuilder properly, the delete doc example is marked "
                 "ignore."),
            # source: lancedb/lance CLAUDE.md (d842b7369, #4292)
            User("Avoid using `ignore` in doctests. For APIs with complex inputs, like methods "
                 "on `Dataset`, instead write Rust doctests that just compile a function. This "
                 "guarantees that the example code compiles and is in sync with the API.",
                 states="doctest-ignore"),
            Edit("rust/lance/src/dataset/delete.rs",
                 "/// ```ignore\n/// dataset.delete(\"id = 25\").await?;\n/// ```\n",
                 "/// ```\n/// # use lance::{Dataset, Result};\n"
                 "/// # async fn test(dataset: &mut Dataset) -> Result<()> {\n"
                 "/// dataset.delete(\"id = 25\").await?;\n/// # Ok(())\n/// # }\n/// ```\n"),
            Bash("cargo test -p lance --doc dataset::delete",
                 out="   Doc-tests lance\n\nrunning 1 test\n"
                     "test rust/lance/src/dataset/delete.rs - dataset::delete::delete (line 5) - "
                     "compile ... ok\n\ntest result: ok. 1 passed; 0 failed"),
            Probe("before the PR goes up, run the linter on it", needs=("clippy",)),
            Bash("cargo clippy --all --tests --benches -- -D warnings",
                 out="    Finished `dev` profile [unoptimized + debuginfo] target(s) in 12.08s"),
            Commit("docs: compile-checked doctest for delete"),
            Probe("next: tests for conflict_retries with 0, 1 and 5 retries",
                  needs=("rstest-case", "memory-uri")),
            Edit("rust/lance/src/dataset/tests.rs", "use crate::Dataset;\n",
                 "use crate::Dataset;\n\n#[rstest]\n#[case::no_retry(0)]\n#[case::one_retry(1)]\n"
                 "#[case::five_retries(5)]\n#[tokio::test]\n"
                 "async fn test_conflict_retries(#[case] retries: u32) {\n"
                 "    let ds = crate::utils::test::write_ids(\"memory://\", 0..10).await;\n"
                 "    let _ = (ds, retries);\n}\n"),
            Commit("test: conflict_retries cases"),
        )),
        Session(day=22, events=(
            # source: lancedb/lance PR #4668 (63efb93ea) and java/CLAUDE.md
            User("FYI I adjusted the java module directory structure: since we no longer need "
                 "submodules like Spark in the Java module, I removed the nested core directory "
                 "and relocated the src and lance-jni directories to the Java root directory. "
                 "Rust JNI bindings: `lance-jni`. format: `./mvnw spotless:apply && cargo fmt "
                 "--manifest-path ./lance-jni/Cargo.toml --all`, lint rust: `cargo clippy "
                 "--tests --manifest-path ./lance-jni/Cargo.toml`.",
                 states="jni-fmt-root", replaces="jni-fmt-core"),
            Write("java/lance-jni/Cargo.toml",
                  "[package]\nname = \"lance-jni\"\nversion = \"0.32.0\"\nedition = \"2021\"\n\n"
                  "[lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\njni = \"0.21.1\"\n"
                  "lance = { path = \"../../rust/lance\" }\n"),
            Edit("Cargo.toml", "exclude = [\"python\", \"java/core/lance-jni\"]",
                 "exclude = [\"python\", \"java/lance-jni\"]"),
            Commit("chore(java): adjust java module directory structure"),
            User("also we need to record which fragments a transaction deleted."),
            # source: lancedb/lance protos/CLAUDE.md
            User("protos rule: All changes should be backwards compatible. Don't re-use field "
                 "numbers or change field numbers of existing fields.", states="proto-fields"),
            Edit("protos/transaction.proto", "  string tag = 3;\n}\n",
                 "  string tag = 3;\n  // Fragments removed by this transaction.\n"
                 "  repeated uint64 deleted_fragment_ids = 4;\n}\n"),
            Commit("protos: add deleted_fragment_ids to Transaction"),
        )),
        Session(day=30, events=(
            # source: lancedb/lance AGENTS.md (30d34ec4a, #5098 Review Guidelines)
            User("we added review guidelines to AGENTS.md for the review bot. Rust API design: "
                 "Design public APIs so they can be evolved easily in the future without "
                 "breaking changes. Often this means using builder patterns or options structs "
                 "instead of long argument lists. For public APIs, prefer inputs that use "
                 "`Into<T>` or `AsRef<T>`, e.g. `name: Into<String>` instead of `name: "
                 "String`. And we do not merge code without tests.",
                 states="api-evolvable"),
            Probe("I touched blocking_dataset.rs again, tidy the formatting before I push",
                  needs=("jni-fmt-root",)),
            Bash("cd java && ./mvnw spotless:apply && cargo fmt --manifest-path "
                 "./lance-jni/Cargo.toml --all", out=""),
            Probe("the transaction message needs the read timestamp too; the old `tag` field is "
                  "unused, can we just reuse slot 3 for it?", needs=("proto-fields",)),
            Say("No: reusing field number 3 would make old files decode the tag as a timestamp. "
                "The new field gets the next free number, 5, and tag stays reserved."),
            Edit("protos/transaction.proto", "  repeated uint64 deleted_fragment_ids = 4;\n}\n",
                 "  repeated uint64 deleted_fragment_ids = 4;\n"
                 "  // Milliseconds since epoch when the transaction was read.\n"
                 "  uint64 read_timestamp_ms = 5;\n}\n"),
            Commit("protos: add read_timestamp_ms to Transaction"),
        ), judge={"jni-fmt-root": "not_down"}),
        Session(day=36, events=(
            Probe("add a public function to create a named scalar index on a column, with a few "
                  "optional knobs (replace, train, page size)", needs=("api-evolvable",)),
            Write("rust/lance/src/index/create.rs",
                  "/// Builder for creating a scalar index.\n"
                  "pub struct CreateIndexBuilder<'a> {\n    dataset: &'a mut Dataset,\n"
                  "    column: String,\n    name: Option<String>,\n    replace: bool,\n}\n\n"
                  "impl<'a> CreateIndexBuilder<'a> {\n"
                  "    pub fn new(dataset: &'a mut Dataset, column: impl Into<String>) -> Self {\n"
                  "        Self { dataset, column: column.into(), name: None, replace: false }\n"
                  "    }\n\n    pub fn name(mut self, name: impl Into<String>) -> Self {\n"
                  "        self.name = Some(name.into());\n        self\n    }\n}\n"),
            Probe("the python wrapper for it is written, run the python tests",
                  needs=("maturin",)),
            Bash("cd python && maturin develop && make test",
                 out="🛠 Installed pylance-0.32.0\n..........\n10 passed in 6.10s"),
            Probe("and run the java tests for the countRows filter while you're at it",
                  needs=("mvnw",)),
            Bash("cd java && ./mvnw test",
                 out="[INFO] Tests run: 214, Failures: 0, Errors: 0, Skipped: 0\n"
                     "[INFO] BUILD SUCCESS"),
            Commit("feat: CreateIndexBuilder"),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# 5. jj-vcs/jj (Rust): docs/contributing.md and its history (commit topics instead of
#    conventional commits 5f84c73b5 / 71b60a310 / a01bbffdb, Closes/Fixes line c5afa9e2b,
#    cargo-watch -> bacon 84e619cae, MSRV 1.85 -> 1.88 419bd5149, deprecations 39f72903b),
#    CI rustfmt (nightly) and insta snapshot tests.
# ---------------------------------------------------------------------------------------------

JJ = Project("jj", "rust", {
    "Cargo.toml": (
        "[workspace]\nresolver = \"3\"\nmembers = [\"cli\", \"lib\"]\n\n"
        "[workspace.package]\nversion = \"0.31.0\"\nlicense = \"Apache-2.0\"\n"
        "rust-version = \"1.85\" # NOTE: remember to update CI, contributing.md, changelog.md\n"
        "edition = \"2024\"\n\n[workspace.dependencies]\nclap = { version = \"4.5.40\", "
        "features = [\"derive\"] }\ninsta = { version = \"1.43.1\", features = [\"filters\"] }\n"
    ),
    "cli/src/commands/next.rs": (
        "use crate::cli_util::CommandHelper;\nuse crate::command_error::CommandError;\n"
        "use crate::movement_util::Direction;\nuse crate::ui::Ui;\n\n"
        "/// Move the working-copy commit to the child revision\n"
        "#[derive(clap::Args, Clone, Debug)]\npub(crate) struct NextArgs {\n"
        "    /// How many revisions to move forward\n    #[arg(default_value = \"1\")]\n"
        "    offset: u64,\n    /// Instead of creating a new working-copy commit on top of "
        "the target\n    #[arg(long, short)]\n    edit: bool,\n}\n\n"
        "pub(crate) fn cmd_next(ui: &mut Ui, command: &CommandHelper, args: &NextArgs)\n"
        "    -> Result<(), CommandError> {\n"
        "    crate::movement_util::move_to_commit(ui, command, Direction::Next, args.offset)\n}\n"
    ),
    "cli/src/config.rs": (
        "/// Revset used by `jj log` when no `-r` is given.\n"
        "pub fn default_log_revset(settings: &UserSettings) -> Result<String, ConfigGetError> {\n"
        "    settings.get_string(\"ui.default-revset\")\n}\n"
    ),
    "lib/src/revset.rs": (
        "pub fn resolve_symbol(repo: &dyn Repo, symbol: &str) -> Option<CommitId> {\n"
        "    if let Some(id) = repo.view().get_local_bookmark(symbol) {\n"
        "        if let Some(target) = id.as_normal() {\n"
        "            return Some(target.clone());\n        }\n    }\n    None\n}\n"
    ),
    "cli/tests/test_next_prev_commands.rs": (
        "use crate::common::TestEnvironment;\n\n#[test]\nfn test_next_simple() {\n"
        "    let test_env = TestEnvironment::default();\n"
        "    test_env.run_jj_in(\".\", [\"git\", \"init\", \"repo\"]).success();\n"
        "    let work_dir = test_env.work_dir(\"repo\");\n"
        "    let output = work_dir.run_jj([\"next\"]);\n"
        "    insta::assert_snapshot!(output, @r\"\n    ------- stderr -------\n"
        "    Working copy  (@) now at: vruxwmqv 0c7d7732 (empty) (no description set)\n"
        "    Parent commit (@-)      : kkmpptxz 30056b0c third\n    [EOF]\n    \");\n}\n"
    ),
    "CHANGELOG.md": (
        "# Changelog\n\n## [Unreleased]\n\n### Deprecations\n\n### New features\n\n"
        "### Fixed bugs\n"
    ),
})

JJ_INSTA_FAIL = (
    "    Starting 1 test across 1 binary (2817 tests skipped)\n"
    "        FAIL [   1.204s] jj-cli::runner test_next_prev_commands::test_next_simple\n"
    "-old snapshot\n+new results\n"
    "────────────┬──────────────────────────────────────────────────────────────\n"
    "    1     1 │ ------- stderr -------\n"
    "    2       │-Working copy  (@) now at: vruxwmqv 0c7d7732 (empty) (no description set)\n"
    "          2 │+Working copy  (@) now at: vruxwmqv 0c7d7732 (empty) (no description set)\n"
    "          3 │+Hint: Use `jj next --conflict` to jump to the next conflicted descendant.\n"
    "info: 1 snapshot to review\n"
    "use `cargo insta review` to review snapshots\n"
    "error: test run failed"
)
JJ_RUSTFMT_FAIL = (
    "rustfmt\tRun cargo +nightly fmt --all -- --check\n"
    "Diff in /home/runner/work/jj/jj/cli/src/commands/next.rs:30:\n"
    " pub(crate) fn cmd_next(\n-    ui: &mut Ui, command: &CommandHelper, args: &NextArgs)\n"
    "-    -> Result<(), CommandError> {\n+    ui: &mut Ui,\n+    command: &CommandHelper,\n"
    "+    args: &NextArgs,\n+) -> Result<(), CommandError> {\n"
    "##[error]Process completed with exit code 1."
)
JJ_MSRV_FAIL = (
    "error[E0658]: `let` expressions in this position are unstable\n"
    " --> lib/src/revset.rs:2:8\n  |\n"
    "2 |     if let Some(id) = repo.view().get_local_bookmark(symbol)\n"
    "  |        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  |\n"
    "  = note: see issue #53667 <https://github.com/rust-lang/rust/issues/53667> for more "
    "information\n\nerror: could not compile `jj-lib` (lib) due to 1 previous error\n"
    "##[error]msrv (1.85): Process completed with exit code 101."
)

JJ_STORY = Story(
    id="dv-rs-jj-1",
    title="jj: topic-style commit messages, amending reviewed commits, insta + nextest, nightly "
          "rustfmt, cargo-watch to bacon, MSRV bumps and the deprecation policy",
    project=JJ,
    sources=("jj-vcs/jj",),
    lessons=(
        lesson("commit-topic", "convention",
               "Commit messages start with `<topic>: ` (e.g. `next/prev: ...`), not "
               "Conventional Commits prefixes like chore:/feat:/fix:",
               "topic",
               "conventional|feat:|chore:|fix:|next/prev:"),
        lesson("insta-test", "command",
               "Run tests with `cargo insta test --workspace --test-runner nextest` "
               "(--workspace or only the current crate is tested); update snapshots with "
               "`cargo insta review --workspace`",
               "insta",
               "--workspace|workspace"),
        lesson("nightly-fmt", "gotcha",
               "CI requires code formatted with the nightly rustfmt: run `cargo +nightly fmt`",
               "nightly",
               "fmt|rustfmt|format"),
        lesson("amend-commits", "convention",
               "Address review comments in the appropriate commit (jj new <commit>, then jj "
               "squash), never as a fixup commit on top; each commit is reviewed separately",
               "review|comment|fixup",
               "squash|appropriate commit|on top|amend"),
        lesson("watch-cargo-watch", "preference",
               "For a watch loop use cargo-watch, excluding the .jj directory "
               "(`cargo watch --ignore '.jj/**'`), which changes on every jj log",
               "cargo-watch|cargo watch"),
        lesson("watch-bacon", "preference",
               "Use bacon (`bacon clippy-all`) as the watch loop; cargo-watch is unmaintained",
               "bacon"),
        lesson("msrv-185", "fact", "The MSRV is Rust 1.85 (stable minus one)", "1.85"),
        lesson("msrv-188", "fact",
               "The MSRV is Rust 1.88, so let-chains are allowed", "1.88"),
        lesson("deprecation", "convention",
               "Renamed or removed commands/options/config keys are deprecated with a warning "
               "for six releases (removed in v<current>+6) and get a `// TODO: remove in "
               "jj<version+6>+` comment",
               "deprecat",
               "TODO: remove|+6|six month|6 month"),
        lesson("closes-line", "convention",
               "If the change closes an issue, put `Closes #<n>` or `Fixes #<n>` in the commit "
               "description",
               "Closes #|Fixes #"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: jj-vcs/jj docs/contributing.md (Explanation, items 1 and 6)
            User("hi. before anything: Nearly any change to jj's CLI will require writing or "
                 "updating snapshot tests that use the insta crate. Use `cargo insta test "
                 "--workspace` to run tests, and `cargo insta review --workspace` to update the "
                 "snapshot tests. The `--workspace` flag is needed to run the tests on all "
                 "crates; by default, only the crate in the current directory is tested. To use "
                 "nextest with insta, use `cargo insta test --workspace --test-runner "
                 "nextest`.", states="insta-test"),
            # source: jj-vcs/jj docs/contributing.md (before 84e619cae)
            User("if you want a watch loop: You may also want to install and use `cargo-watch`. "
                 "In this case, you should exclude `.jj` directory from the filesystem watcher, "
                 "as it gets updated on every `jj log`: `cargo watch --ignore '.jj/**' -s "
                 "'cargo clippy --workspace --all-targets'`.", states="watch-cargo-watch"),
            User("task: when `jj next` lands on a commit that has conflicted descendants, print "
                 "a hint about `jj next --conflict`."),
            Edit("cli/src/commands/next.rs",
                 "    crate::movement_util::move_to_commit(ui, command, Direction::Next, "
                 "args.offset)\n",
                 "    crate::movement_util::move_to_commit(ui, command, Direction::Next, "
                 "args.offset)?;\n    crate::movement_util::hint_conflicted_descendants(ui, "
                 "command)\n"),
            Bash("cargo insta test --workspace --test-runner nextest -- test_next_simple",
                 out=JJ_INSTA_FAIL, ok=False),
            Say("Only the snapshot changed, and the new hint is the intended output. Accepting "
                "it with cargo insta review --workspace."),
            Edit("cli/tests/test_next_prev_commands.rs",
                 "(empty) (no description set)\n    Parent commit",
                 "(empty) (no description set)\n    Hint: Use `jj next --conflict` to jump to "
                 "the next conflicted descendant.\n    Parent commit"),
            Bash("cargo insta test --workspace --test-runner nextest",
                 out="    Summary [ 212.417s] 2818 tests run: 2818 passed, 14 skipped"),
            Say("I'll commit it as \"feat(next): hint about --conflict\"."),
            # source: jj-vcs/jj docs/contributing.md (5f84c73b5, 71b60a310)
            User("no, we don't do that here. We start the commit message with `<topic>: ` and "
                 "don't use conventional commits. This means if you modified a command in the "
                 "CLI, use its name as the topic, e.g. `next/prev: <your-modification>` or "
                 "`conflicts: <your-modification>`.", states="commit-topic"),
            Commit("next/prev: hint about --conflict when descendants are conflicted"),
        ), judge={"insta-test": "up"}),
        Session(day=3, events=(
            User("the PR has a red check, rustfmt I think"),
            Bash("gh run view --log-failed", out=JJ_RUSTFMT_FAIL, ok=False),
            Say("CI checks formatting with nightly rustfmt; I ran stable cargo fmt, which "
                "leaves this signature alone."),
            # source: jj-vcs/jj docs/contributing.md (Explanation, item 2)
            User("right, GitHub CI checks require that the code is formatted with the *nightly* "
                 "version of `rustfmt`. To do this on your computer, install the nightly "
                 "toolchain and use `cargo +nightly fmt`.", states="nightly-fmt"),
            Bash("rustup toolchain add nightly && cargo +nightly fmt", out=(
                "info: syncing channel updates for 'nightly-x86_64-unknown-linux-gnu'\n"
                "info: default toolchain set to 'stable-x86_64-unknown-linux-gnu'")),
            Edit("cli/src/commands/next.rs",
                 "pub(crate) fn cmd_next(ui: &mut Ui, command: &CommandHelper, args: &NextArgs)"
                 "\n    -> Result<(), CommandError> {\n",
                 "pub(crate) fn cmd_next(\n    ui: &mut Ui,\n    command: &CommandHelper,\n"
                 "    args: &NextArgs,\n) -> Result<(), CommandError> {\n"),
            Say("I'll add that as a \"fix formatting\" commit on top and push."),
            # source: jj-vcs/jj docs/contributing.md (Commit guidelines, Code reviews)
            User("please don't. we care more about the contents of commits than about the "
                 "contents of PRs, we review each commit separately and don't squash-merge. "
                 "When you address comments on a PR, don't make the changes in a commit on top "
                 "(as is typical on GitHub). Instead, make the changes in the appropriate "
                 "commit: create a new commit on top of the initial commit (`jj new <commit>`) "
                 "and then squash in the changes when you're done (`jj squash`).",
                 states="amend-commits"),
            Bash("jj squash --into @- && jj git push",
                 out="Rebased 0 descendant commits\nChanges to push to origin:\n"
                     "  Move sideways bookmark push-kxqzvnqs from 5d2a8e1c to 9b04f2aa"),
            Commit("next/prev: hint about --conflict when descendants are conflicted"),
        ), judge={"nightly-fmt": "up"}),
        Session(day=10, events=(
            # source: jj-vcs/jj docs/contributing.md (84e619cae)
            User("tooling note: as of recently `cargo-watch` is on minimal development and "
                 "officially recommends `bacon` as a successor. So: `cargo install --locked "
                 "bacon`, and during development just `bacon clippy-all`.",
                 states="watch-bacon", replaces="watch-cargo-watch"),
            User("reviewer on the --conflict hint PR wants the hint to say 'descendant "
                 "commits' instead."),
            Probe("go ahead and address that", needs=("amend-commits",)),
            Bash("jj new kxqzvnqs", out="Working copy  (@) now at: mzvwutvl 1f3c0b2e (empty) "
                 "(no description set)"),
            Edit("cli/tests/test_next_prev_commands.rs", "next conflicted descendant.",
                 "next conflicted descendant commit."),
            Probe("make sure the formatting check won't fail again", needs=("nightly-fmt",)),
            Bash("cargo +nightly fmt && jj squash && jj git push",
                 out="Changes to push to origin:\n  Move sideways bookmark push-kxqzvnqs from "
                     "9b04f2aa to 2e7d1c05"),
            Commit("next/prev: hint about --conflict when descendants are conflicted"),
        ), judge={"amend-commits": "not_down"}),
        Session(day=17, events=(
            # source: jj-vcs/jj docs/contributing.md (Explanation, item 3, 17ee58666)
            User("fyi: Your code will be rejected if it cannot be compiled with the minimal "
                 "supported version of Rust (MSRV). jj follows a rather casual MSRV policy: "
                 "\"The current rustc stable version, minus one.\" As of this writing, that "
                 "version is 1.85.0.", states="msrv-185"),
            User("today: clean up resolve_symbol in lib/src/revset.rs, the nested if-lets."),
            Edit("lib/src/revset.rs",
                 "    if let Some(id) = repo.view().get_local_bookmark(symbol) {\n"
                 "        if let Some(target) = id.as_normal() {\n",
                 "    if let Some(id) = repo.view().get_local_bookmark(symbol)\n"
                 "        && let Some(target) = id.as_normal()\n    {\n        {\n"),
            Bash("cargo +1.85 check --workspace --all-targets", out=JJ_MSRV_FAIL, ok=False),
            Say("let-chains are not stable on 1.85, so they can't be used under the current "
                "MSRV. I'll flatten it with Option combinators instead."),
            Edit("lib/src/revset.rs",
                 "    if let Some(id) = repo.view().get_local_bookmark(symbol)\n"
                 "        && let Some(target) = id.as_normal()\n    {\n        {\n"
                 "            return Some(target.clone());\n        }\n    }\n    None\n",
                 "    repo.view()\n        .get_local_bookmark(symbol)\n"
                 "        .and_then(|id| id.as_normal())\n        .cloned()\n"),
            Probe("I keep re-running clippy by hand, set me up something that reruns it as I "
                  "edit", needs=("watch-bacon",)),
            Bash("cargo install --locked bacon && bacon clippy-all --headless",
                 out="    Finished `dev` profile [unoptimized + debuginfo] target(s) in 4.02s\n"
                     "bacon: clippy-all - pass"),
            Commit("revset: flatten resolve_symbol"),
        )),
        Session(day=24, events=(
            User("we're renaming the `ui.default-revset` config to `revsets.log`."),
            # source: jj-vcs/jj docs/contributing.md (39f72903b, Deprecations and Removals)
            User("how we do deprecations: If your PR removes or renames an option, a command, "
                 "or config option don't remove it immediately. Instead implement a warning that "
                 "it is deprecated and will be removed in jj `v<current> + 6`. Also add a `// "
                 "TODO: remove in jj<version+6>+` comment so other contributors can remove it "
                 "later. As we release monthly this translates to a six month deprecation "
                 "period.", states="deprecation"),
            Edit("cli/src/config.rs",
                 "    settings.get_string(\"ui.default-revset\")\n",
                 "    // TODO: remove in jj 0.37+\n"
                 "    if let Ok(old) = settings.get_string(\"ui.default-revset\") {\n"
                 "        warn_deprecated(\"ui.default-revset\", \"revsets.log\");\n"
                 "        return Ok(old);\n    }\n"
                 "    settings.get_string(\"revsets.log\")\n"),
            Edit("CHANGELOG.md", "### Deprecations\n",
                 "### Deprecations\n\n* `ui.default-revset` is deprecated in favor of "
                 "`revsets.log`.\n"),
            # source: jj-vcs/jj docs/contributing.md (c5afa9e2b)
            User("this one fixes issue #3947. If the PR closes an open issue or feature request "
                 "for the project, include the `Closes #<issue-number>` or `Fixes "
                 "#<issue-number>` in the commit description.", states="closes-line"),
            Commit("config: rename ui.default-revset to revsets.log\n\nThe old name keeps "
                   "working with a deprecation warning.\n\nCloses #3947"),
        ), judge={"deprecation": "up"}),
        Session(day=28, events=(
            # source: jj-vcs/jj commit 419bd5149 (cargo: bump MSRV to 1.88)
            User("news: cargo: bump MSRV to 1.88. 1.90 was just released, so this seems "
                 "reasonable, and it finally lets us use let-chains.",
                 states="msrv-188", replaces="msrv-185"),
            Edit("Cargo.toml", "rust-version = \"1.85\"", "rust-version = \"1.88\""),
            Commit("cargo: bump MSRV to 1.88"),
        )),
        Session(day=31, events=(
            Probe("now that the toolchain moved, can you revisit resolve_symbol in "
                  "lib/src/revset.rs and write it the way you first wanted to?",
                  needs=("msrv-188",)),
            Probe("next: `jj next --edit` should become `--edit-child`", needs=("deprecation",)),
            Edit("cli/src/commands/next.rs",
                 "    #[arg(long, short)]\n    edit: bool,\n",
                 "    #[arg(long, short)]\n    edit_child: bool,\n"
                 "    // TODO: remove in jj 0.38+\n    #[arg(long = \"edit\", hide = true)]\n"
                 "    edit_deprecated: bool,\n"),
            Probe("run the tests for it", needs=("insta-test",)),
            Bash("cargo insta test --workspace --test-runner nextest",
                 out="    Summary [ 208.930s] 2821 tests run: 2821 passed, 14 skipped"),
            Probe("commit it, it's for the issue #4410 feature request",
                  needs=("commit-topic", "closes-line")),
            Commit("next/prev: rename --edit to --edit-child\n\n--edit keeps working with a "
                   "deprecation warning.\n\nCloses #4410"),
        ), judge={"insta-test": "not_down"}),
    ),
)

STORIES = [GHMCP_STORY, MCPGO_STORY, GOSDK_STORY, LANCE_STORY, JJ_STORY]
