"""What the commands named in a statement do, and when a newer statement leaves them alone
(``kenning.extract.command_tasks``): pure functions over text."""

from __future__ import annotations

import pytest

from kenning.extract.command_tasks import Task, other_tasks, tasks_in


def test_a_command_line_in_backticks_is_a_task_and_program_code_is_not() -> None:
    assert tasks_in("refresh fixtures with `yarn fixtures:refresh --all`") == [
        Task("yarn", frozenset({"fixtures", "refresh"}), None)]
    assert [t.check for t in tasks_in("run `cargo test --workspace` first")] == ["test"]
    assert tasks_in("set `const retries = 3` in config.ts") == []
    assert tasks_in("call `client.close()` at the end") == []
    assert tasks_in("the `yarn` lockfile") == []  # a program alone is not a command line


@pytest.mark.parametrize(("old", "new"), [
    # the same tool, another job
    ("seed the database with `yarn db:seed` after a reset",
     "installs are now `yarn install --immutable`"),
    # the tool moves to a new version: the jobs it runs stay
    ("regenerate the client with `yarn api:codegen` when the schema changes",
     "we use yarn 4 now, yarn 1 is gone"),
    # a check command, and a new command that is no check of its kind
    ("Project test command: `make unit` (worked in a session)",
     "bump the version with `npx release-it` before tagging"),
])
def test_a_statement_about_other_jobs_cannot_replace_a_rule_that_runs_a_command(
        old: str, new: str) -> None:
    assert other_tasks(old, new)


@pytest.mark.parametrize(("old", "new"), [
    # the same job in a sibling tool (the sub-command is named again)
    ("run the suite with `npm test`", "from now on it's `pnpm test`, never npm"),
    # the same kind of check in another spelling
    ("Project test command: `make test` (worked in a session)",
     "from now on run the suite with `uv run pytest`"),
    # a part of the sub-command is spoken of
    ("run `yarn lint:fix` before pushing", "stop auto-fixing lint, CI reports it instead"),
    # parts shared by the commands (a renamed namespace)
    ("install it with `mix old_kit.install`", "the task is `mix new_kit.install` again"),
    # a statement that names no command and not the old one's program: the commands cannot tell
    ("run `tox -e lint` before pushing", "we dropped the pre-push checks entirely"),
    # an old statement naming no command
    ("always use absolute imports", "relative imports are fine within a package now"),
])
def test_a_statement_about_the_same_job_is_left_to_the_judges(old: str, new: str) -> None:
    assert not other_tasks(old, new)
