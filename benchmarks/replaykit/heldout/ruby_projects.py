"""Held-out stories in Ruby projects: a Rails personal-finance app, a package-manager CLI, a
dependency-update gem monorepo, a language server gem with its editor extension, and a linter.

Every rule, change and gotcha the user states is taken from public material of the repository
named in the story's ``sources`` (instruction files and their git history, issue and pull-request
threads, CI output); people's names and hosts are replaced by placeholders."""

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
# 1. budgetbook: a Rails personal-finance app (maybe-finance/maybe)
# ---------------------------------------------------------------------------------------------

BUDGETBOOK = Project("budgetbook", "ruby", {
    "Gemfile": (
        'source "https://rubygems.org"\n\nruby "3.3.5"\n\n'
        'gem "rails", "~> 7.2"\ngem "pg", "~> 1.5"\ngem "good_job"\n'
        'gem "lucide-rails"\ngem "turbo-rails"\ngem "stimulus-rails"\n\n'
        'group :development do\n  gem "erb_lint"\n  gem "brakeman"\n'
        '  gem "rubocop-rails-omakase"\nend\n\n'
        'group :test do\n  gem "mocha"\nend\n'
    ),
    "config/application.rb": (
        'require_relative "boot"\n\nrequire "rails/all"\n\n'
        "Bundler.require(*Rails.groups)\n\n"
        "module Budgetbook\n  class Application < Rails::Application\n"
        "    config.load_defaults 7.2\n\n"
        "    config.active_job.queue_adapter = :good_job\n  end\nend\n"
    ),
    "app/models/account.rb": (
        "class Account < ApplicationRecord\n  belongs_to :family\n"
        "  has_many :entries, dependent: :destroy\n"
        "  has_many :balances, dependent: :destroy\n\n"
        "  def current_balance\n"
        "    balances.order(date: :desc).first&.balance || 0\n  end\nend\n"
    ),
    "app/models/providers.rb": (
        "module Providers\n  module_function\n\n  def synth\n"
        '    api_key = ENV.fetch("SYNTH_API_KEY", Setting.synth_api_key)\n\n'
        "    return nil unless api_key.present?\n\n"
        "    Provider::Synth.new(api_key)\n  end\nend\n"
    ),
    "app/controllers/accounts_controller.rb": (
        "class AccountsController < ApplicationController\n  def index\n"
        "    @accounts = Current.family.accounts.order(:name)\n  end\nend\n"
    ),
    "app/helpers/application_helper.rb": (
        "module ApplicationHelper\n"
        '  def icon(key, size: "md", **opts)\n'
        '    lucide_icon(key, class: "icon-#{size}", **opts)\n  end\nend\n'
    ),
    "app/views/accounts/index.html.erb": (
        "<h1>Accounts</h1>\n\n<% @accounts.each do |account| %>\n"
        '  <div class="flex items-center gap-2">\n'
        '    <%= icon "wallet" %>\n'
        "    <%= link_to account.name, account_path(account) %>\n"
        "  </div>\n<% end %>\n"
    ),
    "test/models/account_test.rb": (
        'require "test_helper"\n\nclass AccountTest < ActiveSupport::TestCase\n'
        "  setup do\n    @account = accounts(:depository)\n  end\n\n"
        '  test "current balance defaults to zero" do\n'
        "    assert_equal 0, Account.new.current_balance\n  end\nend\n"
    ),
    "test/fixtures/accounts.yml": (
        "depository:\n  family: dylan_family\n  name: Checking Account\n"
        "  currency: USD\n\ncredit_card:\n  family: dylan_family\n"
        "  name: Credit Card\n  currency: USD\n"
    ),
    ".github/workflows/ci.yml": (
        "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v4\n"
        "      - uses: ruby/setup-ruby@v1\n        with:\n          bundler-cache: true\n"
        "      - run: bin/rails db:prepare && bin/rails test\n"
    ),
})


def _minitest(runs: int, assertions: int, secs: str) -> str:
    return (
        f"Running {runs} tests in parallel using 4 processes\n"
        "Run options: --seed 41533\n\n# Running:\n\n"
        + "." * min(runs, 72) + "\n\n"
        f"Finished in {secs}s, {runs / float(secs):.4f} runs/s.\n"
        f"{runs} runs, {assertions} assertions, 0 failures, 0 errors, 0 skips"
    )


MAYBE = Story(
    id="ho-rb-maybe-finance-1",
    title="A Rails finance app: Current.user, fat models, fixtures, generated migrations, the "
          "move from GoodJob to Sidekiq and the provider registry",
    sources=("maybe-finance/maybe",),
    project=BUDGETBOOK,
    lessons=(
        lesson("current-context", "convention",
               "Use Current.user and Current.family for the signed-in user and family, never "
               "current_user / current_family",
               "Current.user|Current.family"),
        lesson("models-not-services", "convention",
               "Skinny controllers, fat models: business logic goes in app/models (POROs and "
               "concerns), not a separate app/services folder; models answer questions about "
               "themselves (account.balance_series)",
               "app/services|service object", "app/models|models"),
        lesson("minitest-fixtures", "convention",
               "Tests use Minitest + fixtures (no RSpec, no factories); keep fixtures to 2-3 base "
               "cases per model and build edge cases inside the test",
               "fixture", "minitest|2-3"),
        lesson("migrations-generator", "command",
               "Create migrations with `rails g migration`, never by writing the file by hand, "
               "and do not run migrations automatically",
               "g migration|generate migration"),
        lesson("jobs-goodjob", "decision", "Background jobs run on GoodJob",
               "GoodJob|good_job"),
        lesson("jobs-sidekiq", "decision",
               "Background jobs (ActiveJob) and ActionCable run on Sidekiq + Redis (moved off "
               "GoodJob)",
               "Sidekiq"),
        lesson("icon-helper", "convention",
               "Always use the `icon` helper from application_helper.rb for icons, never "
               "`lucide_icon` directly",
               "lucide_icon"),
        lesson("providers-module", "fact",
               "Data providers are configured at runtime through the Providers module "
               "(app/models/providers.rb, e.g. Providers.synth) with Setting for API keys",
               "Providers module|Providers.synth|providers.rb"),
        lesson("provider-registry", "fact",
               "Data providers are configured at runtime through Provider::Registry "
               "(app/models/provider/registry.rb); each concept's interface lives in "
               "app/models/provider/concepts",
               "Provider::Registry|registry.rb"),
        lesson("prepr-checks", "command",
               "Before opening a PR run bin/rails test, bin/rubocop -f github -a, "
               "bundle exec erb_lint ./app/**/*.erb -a and bin/brakeman --no-pager; only open it "
               "when all pass",
               "brakeman", "rubocop|erb_lint"),
    ),
    also=(
        lesson("also-hardcode-english", "convention",
               "Ignore i18n for now: hardcode UI strings in English",
               "i18n", "English"),
        lesson("also-mocha", "convention",
               "Stubs and mocks use the mocha gem, OpenStruct for mock instances, mocking only "
               "what is necessary",
               "mocha", "OpenStruct"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: maybe-finance/maybe .cursor/rules/general-rules.mdc
            User("hey, before you start on anything: use `Current.user` for the current user. "
                 "Do NOT use `current_user`. Same for the family: `Current.family`, not "
                 "`current_family`. ok, the actual task: I'd like each account to be able to "
                 "give me its balance trend over the last 30 days.",
                 states="current-context"),
            Say("Got it. Where would you like the trend computed? I could add an "
                "AccountSeries service under app/services/ that takes the account."),
            # source: maybe-finance/maybe .cursor/rules/project-conventions.mdc (2a338eb0)
            User("no services folder please. this codebase adopts a \"skinny controller, fat "
                 "models\" convention: we put almost everything directly in the app/models/ "
                 "folder and avoid separate folders for business logic such as app/services/. "
                 "models should answer questions about themselves, e.g. "
                 "`account.balance_series` rather than `AccountSeries.new(account).call`.",
                 states="models-not-services"),
            Read("app/models/account.rb"),
            Edit("app/models/account.rb",
                 "  def current_balance\n",
                 "  def balance_series(period: 30.days)\n"
                 "    balances.where(date: period.ago.to_date..Date.current)\n"
                 "            .order(:date)\n            .pluck(:date, :balance)\n  end\n\n"
                 "  def current_balance\n"),
            Bash("bin/rails test", out=_minitest(148, 404, "9.812384")),
            Commit("Add Account#balance_series"),
            User("thanks, looks good"),
        )),
        Session(day=3, events=(
            # source: maybe-finance/maybe .cursor/rules/project-conventions.mdc (2a338eb0)
            User("next up: a nightly job that syncs balances for every family. for context on "
                 "the stack: Postgres for the database, and jobs run on GoodJob.",
                 states="jobs-goodjob"),
            Write("app/jobs/sync_family_job.rb",
                  "class SyncFamilyJob < ApplicationJob\n  queue_as :default\n\n"
                  "  def perform(family)\n    family.accounts.find_each(&:sync_data)\n"
                  "  end\nend\n"),
            Say("Job added. Shall I add FactoryBot so I can build families with many accounts "
                "in the test?"),
            # source: maybe-finance/maybe .cursor/rules/project-conventions.mdc (2f6b11c1)
            User("no. due to the open-source nature of this project, we have chosen Minitest + "
                 "Fixtures for testing to maximize familiarity and predictability. keep fixtures "
                 "to a minimum: most models should have 2-3 fixtures maximum that represent the "
                 "\"base cases\" for that model. \"edge cases\" should be created on the fly, "
                 "within the context of the test which it is needed.",
                 states="minitest-fixtures"),
            Write("test/jobs/sync_family_job_test.rb",
                  'require "test_helper"\n\nclass SyncFamilyJobTest < ActiveJob::TestCase\n'
                  '  test "syncs every account of the family" do\n'
                  "    family = families(:dylan_family)\n"
                  "    Account.any_instance.expects(:sync_data).twice\n\n"
                  "    SyncFamilyJob.perform_now(family)\n  end\nend\n"),
            Bash("bin/rails test test/jobs/sync_family_job_test.rb",
                 out=_minitest(1, 1, "0.412204")),
            Say("The job needs to record when a family was last synced; I'll add a migration "
                "file db/migrate/..._add_last_synced_at_to_families.rb."),
            # source: maybe-finance/maybe .cursor/rules/project-conventions.mdc (f498212b)
            # and .cursor/rules/general-rules.mdc
            User("when creating migrations, always use `rails g migration` instead of creating "
                 "the file yourself. and do not automatically run migrations, I'll run them.",
                 states="migrations-generator"),
            Bash("bin/rails g migration AddLastSyncedAtToFamilies last_synced_at:datetime",
                 out="      invoke  active_record\n"
                     "      create    db/migrate/20250204150312_add_last_synced_at_to_families.rb"),
            Commit("Add SyncFamilyJob and its test"),
        )),
        Session(day=8, events=(
            User("can you add a \"Sync now\" button next to each account on the accounts "
                 "page? just for this PR, skip the system tests, they take forever."),
            Read("app/views/accounts/index.html.erb"),
            Edit("app/views/accounts/index.html.erb",
                 "    <%= link_to account.name, account_path(account) %>\n",
                 "    <%= link_to account.name, account_path(account) %>\n"
                 '    <%= button_to sync_account_path(account), class: "btn btn-ghost" do %>\n'
                 '      <%= lucide_icon "refresh-cw", class: "w-4 h-4" %> Sync now\n'
                 "    <% end %>\n"),
            # source: maybe-finance/maybe .cursor/rules/project-conventions.mdc (90a9546f)
            # and .cursor/rules/general-rules.mdc (8edd7ece)
            User("close, but always use the `icon` helper in application_helper.rb for icons. "
                 "NEVER use `lucide_icon` helper directly. and the label is fine as is: ignore "
                 "i18n methods and files, hardcode strings in English for now to optimize speed "
                 "of development.",
                 states="icon-helper"),
            Edit("app/views/accounts/index.html.erb",
                 '      <%= lucide_icon "refresh-cw", class: "w-4 h-4" %> Sync now\n',
                 '      <%= icon "refresh-cw", size: "sm" %> Sync now\n'),
            Probe("can you write a test for the sync action on the accounts controller?",
                  needs="minitest-fixtures"),
            Write("test/controllers/accounts_controller_test.rb",
                  'require "test_helper"\n\n'
                  "class AccountsControllerTest < ActionDispatch::IntegrationTest\n"
                  "  setup do\n    sign_in users(:family_admin)\n"
                  "    @account = accounts(:depository)\n  end\n\n"
                  '  test "sync enqueues a sync for the account" do\n'
                  "    assert_enqueued_jobs 1 do\n"
                  "      post sync_account_path(@account)\n    end\n  end\nend\n"),
            Bash("bin/rails test test/controllers/accounts_controller_test.rb",
                 out=_minitest(1, 1, "0.633102")),
            Probe("families also need a sync_status column, set that up too",
                  needs="migrations-generator"),
            Bash("bin/rails g migration AddSyncStatusToFamilies sync_status:string",
                 out="      invoke  active_record\n"
                     "      create    db/migrate/20250212101544_add_sync_status_to_families.rb"),
            # source: maybe-finance/maybe .cursor/rules/project-design.mdc (f65b93a3)
            User("one more thing for later work: since the app can be run in both hosted and "
                 "self hosted mode, data providers are optional and must be configured at "
                 "runtime through the providers.rb module (`Providers.synth` and friends), "
                 "utilizing setting.rb for runtime parameters like API keys.",
                 states="providers-module"),
            Commit("Add Sync now button to accounts page"),
        )),
        Session(day=15, events=(
            # source: maybe-finance/maybe commit 19cc63c8 "Use Redis for ActiveJob and
            # ActionCable (#2004)", .cursor/rules/project-conventions.mdc
            User("heads up: we're switching to Redis for ActiveJob and ActionCable. Jobs: "
                 "Sidekiq + Redis from now on, GoodJob is going away. can you switch the "
                 "adapter and the Gemfile?",
                 states="jobs-sidekiq", replaces="jobs-goodjob"),
            Edit("config/application.rb",
                 "    config.active_job.queue_adapter = :good_job\n",
                 "    config.active_job.queue_adapter = :sidekiq\n"),
            Edit("Gemfile", 'gem "good_job"\n', 'gem "sidekiq"\ngem "redis", "~> 5.2"\n'),
            Bash("bundle install",
                 out="Fetching sidekiq 7.3.9\nInstalling sidekiq 7.3.9\n"
                     "Fetching redis-client 0.23.2\nInstalling redis-client 0.23.2\n"
                     "Bundle complete! 41 Gemfile dependencies, 148 gems now installed."),
            Bash("bin/rails test", out=_minitest(151, 409, "10.104522")),
            Commit("Use Sidekiq + Redis for ActiveJob"),
            # source: maybe-finance/maybe CLAUDE.md (fcf14f5f)
            User("nice. and for stubs in tests, use the `mocha` gem, prefer `OpenStruct` for "
                 "mock instances, only mock what's necessary."),
            Probe("now add an endpoint that returns the signed-in person's accounts as JSON",
                  needs="current-context"),
            Write("app/controllers/api/accounts_controller.rb",
                  "class Api::AccountsController < ApplicationController\n  def index\n"
                  "    render json: Current.family.accounts.select(:id, :name, :currency)\n"
                  "  end\nend\n"),
            Probe("the net worth math in the dashboard controller is getting long, can you "
                  "pull it out somewhere sensible?",
                  needs="models-not-services"),
            Write("app/models/family/net_worth.rb",
                  "module Family::NetWorth\n  extend ActiveSupport::Concern\n\n"
                  "  def net_worth\n    accounts.sum(&:current_balance)\n  end\nend\n"),
            Commit("Add accounts JSON endpoint and Family::NetWorth concern"),
        )),
        Session(day=24, events=(
            # source: maybe-finance/maybe .cursor/rules/project-design.mdc (2f6b11c1)
            User("fyi the provider code got reworked on main: data providers are now configured "
                 "at runtime through registry.rb (`Provider::Registry`), utilizing setting.rb "
                 "for runtime parameters like API keys. each concept has an interface defined "
                 "in the app/models/provider/concepts directory, and provided.rb is responsible "
                 "for selecting the concept provider from the registry.",
                 states="provider-registry", replaces="providers-module"),
            Bash("git pull --rebase && ls app/models/provider",
                 out="Successfully rebased and updated refs/heads/main.\n"
                     "concepts  registry.rb  synth.rb"),
            # source: maybe-finance/maybe CLAUDE.md (fcf14f5f "Add pre-pull request flow")
            User("and a process thing that's now written down: ALWAYS run these before opening "
                 "a pull request: `bin/rails test` (system tests only when applicable, they "
                 "take longer), `bin/rubocop -f github -a`, `bundle exec erb_lint "
                 "./app/**/*.erb -a`, and `bin/brakeman --no-pager`. only proceed with pull "
                 "request creation if ALL checks pass.",
                 states="prepr-checks"),
            Probe("SyncFamilyJob should run on a low-priority queue with a weight lower than "
                  "the default one; set that up", needs="jobs-sidekiq"),
            Edit("app/jobs/sync_family_job.rb", "  queue_as :default\n",
                 "  queue_as :low_priority\n"),
            Write("config/sidekiq.yml",
                  ":queues:\n  - [scheduled, 10]\n  - [default, 5]\n  - [low_priority, 1]\n"),
            Commit("Move SyncFamilyJob to the low_priority Sidekiq queue"),
        )),
        Session(day=30, events=(
            Probe("we need a nightly job that refreshes exchange rates from whatever provider "
                  "is configured. can you build it?",
                  needs=("jobs-sidekiq", "provider-registry")),
            Write("app/jobs/refresh_exchange_rates_job.rb",
                  "class RefreshExchangeRatesJob < ApplicationJob\n"
                  "  queue_as :scheduled\n\n  def perform\n"
                  "    provider = Provider::Registry.for_concept(:exchange_rates).providers.first\n"
                  "    return unless provider\n\n"
                  "    ExchangeRate.sync_latest(provider: provider)\n  end\nend\n"),
            Bash("bin/rails test", out=_minitest(153, 415, "10.338201")),
            Commit("Add RefreshExchangeRatesJob"),
            User("I think the exchange-rate work is done then."),
            Probe("can you get it ready so I can open the PR?", needs="prepr-checks"),
            Bash("bin/rails test", out=_minitest(153, 415, "10.291877")),
            Bash("bin/rubocop -f github -a", out=""),
            Bash("bundle exec erb_lint ./app/**/*.erb -a",
                 out="Linting 112 files with 14 linters...\n\nNo errors were found in ERB files"),
            Bash("bin/brakeman --no-pager",
                 out="== Brakeman Report ==\n\nApplication Path: /work/budgetbook\n"
                     "Rails Version: 7.2.2\nBrakeman Version: 7.0.0\nScan Date: 2025-03-30\n"
                     "Duration: 4.1 seconds\nChecks Run: 90\n\n== Overview ==\n\n"
                     "Controllers: 41\nModels: 63\nTemplates: 188\nErrors: 0\n"
                     "Security Warnings: 0\n\n== Warning Types ==\n\n\nNo warnings found"),
            Say("All four checks pass: tests, rubocop, erb_lint and brakeman. Ready for the PR."),
            Probe("small follow-up: put a chevron at the end of each account row that expands "
                  "its details", needs="icon-helper"),
            Edit("app/views/accounts/index.html.erb",
                 '    <%= icon "wallet" %>\n',
                 '    <%= icon "wallet" %>\n    <%= icon "chevron-down", size: "sm" %>\n'),
            Commit("Add chevron to account rows"),
        ), judge={"prepr-checks": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 2. brew: a package manager CLI written in Ruby and Bash (Homebrew/brew)
# ---------------------------------------------------------------------------------------------

BREW = Project("brew", "ruby", {
    "bin/brew": (
        "#!/bin/bash\nset +o posix\n\n"
        'HOMEBREW_BREW_FILE="$(cd "${0%/*}" && pwd -P)/brew"\n'
        'HOMEBREW_LIBRARY="${HOMEBREW_BREW_FILE%/bin/brew}/Library"\n'
        'exec "${HOMEBREW_LIBRARY}/Homebrew/brew.sh" "$@"\n'
    ),
    "Library/Homebrew/cmd/pins.rb": (
        "# typed: strict\n# frozen_string_literal: true\n\n"
        'require "abstract_command"\nrequire "formula"\n\n'
        "module Homebrew\n  module Cmd\n    class Pins < AbstractCommand\n"
        "      cmd_args do\n        description <<~EOS\n"
        "          List pinned formulae and the version each is pinned to.\n        EOS\n"
        '        switch "--quiet", description: "Only list formula names."\n      end\n\n'
        "      sig { override.void }\n      def run\n"
        "        Formula.installed.select(&:pinned?).each do |formula|\n"
        "          if args.quiet?\n            puts formula.name\n          else\n"
        '            puts "#{formula.name} #{formula.pinned_version}"\n          end\n'
        "        end\n      end\n    end\n  end\nend\n"
    ),
    "Library/Homebrew/test/cmd/pins_spec.rb": (
        "# frozen_string_literal: true\n\n"
        'require "cmd/pins"\nrequire "cmd/shared_examples/args_parse"\n\n'
        "RSpec.describe Homebrew::Cmd::Pins do\n"
        '  it_behaves_like "parseable arguments"\n\n'
        '  it "lists pinned formulae", :integration_test do\n'
        '    setup_test_formula "testball"\n    brew "pin", "testball"\n\n'
        '    expect { brew "pins" }.to output(/testball/).to_stdout\n  end\nend\n'
    ),
    "Library/Homebrew/test/spec_helper.rb": (
        "# frozen_string_literal: true\n\n"
        'require "rspec/its"\nrequire "rspec/sorbet"\n\n'
        "RSpec.configure do |config|\n  config.around do |example|\n"
        "    env = ENV.to_hash\n    example.run\n  ensure\n    ENV.replace(env)\n"
        "  end\nend\n"
    ),
    ".github/workflows/commit-style.yml": (
        "name: Commit Style\n\non:\n  pull_request:\n  merge_group:\n\n"
        "jobs:\n  check-commit-format:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: Homebrew/actions/check-commit-format@main\n"
    ),
    "Library/Homebrew/.rubocop.yml": (
        "inherit_from: ../../.rubocop.yml\n\nSorbet/StrictSigil:\n"
        "  Exclude:\n    - \"test/**/*_spec.rb\"\n"
    ),
})

BREW_TYPECHECK_OK = "No errors! Great job."
BREW_STYLE_OK = "2 files inspected, no offenses detected"


def _brew_tests(only: str, examples: int, secs: str) -> str:
    return (
        f"Randomized with seed 26453\n{'.' * examples}\n\n"
        f"Finished in {secs} seconds (files took 2.17 seconds to load)\n"
        f"{examples} examples, 0 failures\n\n"
        f"==> Running tests --only={only}: passed"
    )


HOMEBREW = Story(
    id="ho-rb-homebrew-1",
    title="A package-manager CLI: the pre-commit checks and brew lgtm, typed specs reversed, "
          "one expect per test refined, a sandbox cache workaround retired, commit style CI",
    sources=("Homebrew/brew",),
    project=BREW,
    lessons=(
        lesson("checks-trio", "command",
               "Before each commit run `brew typecheck` (Sorbet, whole repo), "
               "`brew style --fix` and `brew tests --online`; a single spec with "
               "`brew tests --only=cmd/pins`",
               "brew typecheck", "brew style", "brew tests"),
        lesson("lgtm", "command",
               "`brew lgtm` runs typecheck, style and tests in one go; always run it to verify "
               "edits",
               "lgtm"),
        lesson("spec-no-strict", "convention",
               "New code uses Sorbet sigs and `typed: strict`, but never RSpec/test/*_spec.rb "
               "files",
               "typed: strict", "spec|test"),
        lesson("spec-typed-true", "convention",
               "Specs should try Sorbet `typed: true` as a baseline and revert to "
               "`typed: false` if the errors are not easily fixable",
               "typed: true", "typed: false"),
        lesson("one-expect", "convention", "Use only one `expect` assertion per test",
               "re:one `?expect`? (assertion )?per test"),
        lesson("expect-combine", "convention",
               "Prefer a single `expect` per unit test, but combine expectations in one test for "
               "integration tests or a non-trivial `before` setup",
               "expect", "combine|integration test"),
        lesson("sandbox-cache", "gotcha",
               "In a sandbox, brew tests fail writing the API cache: copy $(brew --cache)/api/ "
               "to tmp/cache/api/ and export HOMEBREW_CACHE there first",
               "HOMEBREW_CACHE", "tmp/cache|api"),
        lesson("cache-fixed", "fact",
               "brew.sh now works around a non-writable cache for the lgtm commands; the "
               "HOMEBREW_CACHE copy in a sandbox is no longer needed",
               "cache", "work around|works around|no longer|not needed"),
        lesson("no-conventional-commits", "gotcha",
               "No conventional commit prefixes (feat:, fix:, chore:, refactor:, perf:, ci:): "
               "the Commit Style workflow rejects them",
               "feat:|fix:|chore:|conventional commit", "Commit Style|commit"),
        lesson("system-ruby", "gotcha",
               "Never run the system (macOS) Ruby; run Ruby via `./bin/brew ruby -- <args>` "
               "to get the vendored Ruby and libraries",
               "brew ruby"),
    ),
    also=(
        lesson("also-bin-brew", "convention",
               "Run commands with ./bin/brew from the repository, not a system brew on PATH",
               "bin/brew", "system|PATH"),
        lesson("also-env-restored", "fact",
               "spec_helper's config.around snapshots and restores ENV around every example, so "
               "specs set env vars directly without with_env",
               "ENV", "with_env|restore"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: Homebrew/brew .github/copilot-instructions.md (985a91952a, 9fc7517325)
            User("hi! today: `brew pins` should get a `--json` flag. rules of the house first. "
                 "required before each commit: run `brew typecheck` to verify types are "
                 "declared correctly using Sorbet (individual files can't be checked, it's fast "
                 "enough to just run globally every time), run `brew style --fix` to lint code "
                 "formatting using RuboCop, and run `brew tests --online` to ensure the RSpec "
                 "unit tests pass. individual test files can be passed with `--only`, e.g. "
                 "`brew tests --only=cmd/pins`.",
                 states="checks-trio"),
            # source: Homebrew/brew .github/copilot-instructions.md (9fc7517325)
            User("and write new code using Sorbet `sig` type signatures and `typed: strict` for "
                 "new files, but never for RSpec/test/`*_spec.rb` files.",
                 states="spec-no-strict"),
            Read("Library/Homebrew/cmd/pins.rb"),
            Edit("Library/Homebrew/cmd/pins.rb",
                 '        switch "--quiet", description: "Only list formula names."\n',
                 '        switch "--quiet", description: "Only list formula names."\n'
                 '        switch "--json", description: "Print the pins as JSON."\n'
                 '        conflicts "--quiet", "--json"\n'),
            Edit("Library/Homebrew/cmd/pins.rb",
                 "        Formula.installed.select(&:pinned?).each do |formula|\n",
                 "        pinned = Formula.installed.select(&:pinned?)\n"
                 "        if args.json?\n"
                 "          puts JSON.pretty_generate(pinned.to_h do |f|\n"
                 "            [f.name, f.pinned_version.to_s]\n          end)\n"
                 "          return\n        end\n\n"
                 "        pinned.each do |formula|\n"),
            Bash("brew typecheck", out=BREW_TYPECHECK_OK),
            Bash("brew style --fix Library/Homebrew/cmd/pins.rb", out=BREW_STYLE_OK),
            Bash("brew tests --online --only=cmd/pins", out=_brew_tests("cmd/pins", 2, "4.81")),
            Commit("pins: add --json flag"),
        )),
        Session(day=4, events=(
            User("can you add specs for `--quiet`? there aren't any."),
            # source: Homebrew/brew .github/copilot-instructions.md (9fc7517325)
            User("write new tests avoiding more than one `:integration_test` per file for "
                 "speed, and use only one `expect` assertion per test.",
                 states="one-expect"),
            Edit("Library/Homebrew/test/cmd/pins_spec.rb",
                 '    expect { brew "pins" }.to output(/testball/).to_stdout\n  end\n',
                 '    expect { brew "pins" }.to output(/testball/).to_stdout\n  end\n\n'
                 '  describe "--quiet" do\n'
                 '    it "prints only names" do\n'
                 "      allow(Formula).to receive(:installed).and_return([pinned_formula])\n"
                 '      expect { described_class.new(["--quiet"]).run }'
                 '.to output("testball\\n").to_stdout\n'
                 "    end\n  end\n"),
            Bash("brew tests --online --only=cmd/pins",
                 out="Error: Permission denied @ dir_s_mkdir - "
                     "/Users/<user>/Library/Caches/Homebrew/api\n"
                     "/opt/homebrew/Library/Homebrew/api.rb:54:in `fetch_json_api_file'\n"
                     "Errno::EACCES: Permission denied @ rb_sysopen - "
                     "/Users/<user>/Library/Caches/Homebrew/api/formula.jws.json",
                 ok=False),
            # source: Homebrew/brew AGENTS.md (2b6706fa31 "AGENTS: clarify sandbox testing
            # workarounds")
            User("ah, that's the sandbox. when working in a sandboxed environment, copy the "
                 "contents of `$(brew --cache)/api/` to a writable location inside the "
                 "repository (for example, `tmp/cache/api/`) and `export HOMEBREW_CACHE` to that "
                 "writable directory before running `brew tests`. this avoids permission errors "
                 "when the suite tries to write API cache or runtime logs.",
                 states="sandbox-cache"),
            Bash('mkdir -p tmp/cache && cp -R "$(brew --cache)/api" tmp/cache/api && '
                 "export HOMEBREW_CACHE=$PWD/tmp/cache && "
                 "brew tests --online --only=cmd/pins",
                 out=_brew_tests("cmd/pins", 3, "5.02")),
            Say("Passing now. Let me double-check how JSON.pretty_generate orders the keys."),
            Bash("ruby -e 'require \"sorbet-runtime\"; puts T::Hash'",
                 out="/System/Library/Frameworks/Ruby.framework/Versions/2.6/usr/lib/ruby/2.6.0"
                     "/rubygems/core_ext/kernel_require.rb:54:in `require': cannot load such "
                     "file -- sorbet-runtime (LoadError)\n"
                     "\tfrom -e:1:in `<main>'",
                 ok=False),
            # source: Homebrew/brew AGENTS.md (2677aedea8)
            User("don't use that one. when running Ruby directly (`ruby -e ...`, `gem`, "
                 "profiling tools), never use the system Ruby. use `./bin/brew ruby -- <args>` "
                 "to run Ruby scripts with Homebrew's vendored Ruby and libraries loaded. the "
                 "system macOS Ruby is an incompatible older version.",
                 states="system-ruby"),
            Bash("./bin/brew ruby -- -e 'require \"json\"; "
                 "puts JSON.pretty_generate({\"b\" => 1, \"a\" => 2})'",
                 out='{\n  "b": 1,\n  "a": 2\n}'),
            Commit("feat: add --quiet specs for brew pins"),
        )),
        Session(day=9, events=(
            User("I opened the PR from yesterday's branch. CI is unhappy, can you look?"),
            Bash("gh pr checks 20417",
                 out="Some checks were not successful\n"
                     "1 failing, 7 successful, 0 skipped, and 0 pending checks\n\n"
                     "X  Commit Style/check-commit-format  6s   "
                     "https://github.com/<org>/brew/actions/runs/<run>/job/<job>\n"
                     "✓  CI/tests (macOS)                  14m  ...\n"
                     "✓  CI/tests (Linux)                  11m  ...\n"
                     "✓  CI/typecheck                      2m   ..."),
            Bash("gh run view <run> --log-failed | tail -3",
                 out="check-commit-format  Commit subject \"feat: add --quiet specs for brew "
                     "pins\" does not match the expected format.\n"
                     "check-commit-format  ##[error]1 commit has an invalid message format.\n"
                     "check-commit-format  ##[error]Process completed with exit code 1."),
            # source: Homebrew/brew AGENTS.md (0b967620b8 "Document commit style rule")
            User("right. do not use conventional commit prefixes such as `feat:`, `fix:`, "
                 "`chore:`, `refactor:`, `perf:` or `ci:`; the `Commit Style` GitHub Actions "
                 "workflow rejects them. reword it please.",
                 states="no-conventional-commits"),
            Bash("git commit --amend -m 'test/cmd/pins: add --quiet specs' && "
                 "git push --force-with-lease",
                 out="[pins-quiet 8c1e2d4] test/cmd/pins: add --quiet specs\n"
                     " 1 file changed, 8 insertions(+)"),
            User("thanks. just for this PR, skip `--online`, the formulae API is flaky today."),
            Probe("while CI reruns, can you also cover the `--json` output with specs?",
                  needs=("one-expect", "spec-no-strict")),
            Edit("Library/Homebrew/test/cmd/pins_spec.rb",
                 '  describe "--quiet" do\n',
                 '  describe "--json" do\n'
                 '    it "prints name and pinned version" do\n'
                 "      allow(Formula).to receive(:installed).and_return([pinned_formula])\n"
                 '      expect { described_class.new(["--json"]).run }'
                 '.to output(/"testball": "1.0"/).to_stdout\n'
                 "    end\n  end\n\n"
                 '  describe "--quiet" do\n'),
            Bash("brew tests --only=cmd/pins", out=_brew_tests("cmd/pins", 4, "5.33")),
            Commit("test/cmd/pins: cover --json output"),
        )),
        Session(day=16, events=(
            # source: Homebrew/brew AGENTS.md (b3f1122891, acc098dbd9)
            User("new thing on main: run `brew lgtm` to run typecheck, style and tests in one "
                 "go. always run `brew lgtm` to verify changes before you hand back to me.",
                 states="lgtm"),
            # source: Homebrew/brew AGENTS.md (e19f50406b)
            User("also when running commands in this repository, use `./bin/brew` (not a system "
                 "`brew` on `PATH`)."),
            User("task: `brew pins` should print a hint when nothing is pinned."),
            Edit("Library/Homebrew/cmd/pins.rb",
                 "        pinned.each do |formula|\n",
                 '        opoo "No formulae are pinned." if pinned.empty?\n\n'
                 "        pinned.each do |formula|\n"),
            Probe("run the pins specs here in the sandbox before we go further",
                  needs="sandbox-cache"),
            Bash("export HOMEBREW_CACHE=$PWD/tmp/cache && ./bin/brew tests --only=cmd/pins",
                 out=_brew_tests("cmd/pins", 4, "5.12")),
            # source: Homebrew/brew AGENTS.md (e3cfc7fb2d)
            User("fyi, no need for with_env in specs: RSpec snapshots and restores `ENV` around "
                 "every example via the global `config.around` hook in spec_helper.rb, so specs "
                 "can set environment variables directly."),
            Commit("pins: warn when nothing is pinned"),
        )),
        Session(day=23, events=(
            # source: Homebrew/brew commit 884fa74b29 "brew.sh: work around non-writable cache
            # for lgtm commands." (removes the Sandbox Setup section of AGENTS.md)
            User("news from main: brew.sh now works around a non-writable cache for the lgtm "
                 "commands, so the sandbox dance with copying the api cache and exporting "
                 "HOMEBREW_CACHE is no longer needed. the section was dropped from AGENTS.md.",
                 states="cache-fixed", replaces="sandbox-cache"),
            # source: Homebrew/brew AGENTS.md (b3f1122891)
            User("and the test rule got refined: write fast tests by preferring a single "
                 "`expect` per unit test, and combine expectations in a single test when it is "
                 "an integration test or has non-trivial `before` for test setup.",
                 states="expect-combine", replaces="one-expect"),
            Probe("I touched pins.rb and the spec, verify my edits please", needs="lgtm"),
            Bash("./bin/brew lgtm",
                 out="==> brew typecheck\nNo errors! Great job.\n"
                     "==> brew style --fix --changed\n2 files inspected, no offenses detected\n"
                     "==> brew tests --changed\n" + _brew_tests("cmd/pins", 4, "5.40")),
            Probe("quick question, what does Version.new(\"1.2.3\") <=> Version.new(\"1.10\") "
                  "return? check it with a one-liner", needs="system-ruby"),
            Bash("./bin/brew ruby -- -e 'require \"version\"; "
                 "p Version.new(\"1.2.3\") <=> Version.new(\"1.10\")'", out="-1"),
            Say("It returns -1: 1.2.3 sorts before 1.10."),
        )),
        Session(day=35, events=(
            # source: Homebrew/brew AGENTS.md (f3d9909510 "AGENTS: AI agents should try to make
            # tests Sorbet `typed: true`")
            User("policy change on specs: try `typed: true` as a baseline in test files, but "
                 "revert to `typed: false` if there are not easily fixable errors.",
                 states="spec-typed-true", replaces="spec-no-strict"),
            User("that's all for today, I'm still sketching the `outdated-pins` command itself."),
        )),
        Session(day=41, events=(
            User("ok, `outdated-pins` landed on my branch."),
            Probe("please write the spec file for the new `outdated-pins` command",
                  needs=("spec-typed-true", "expect-combine")),
            Write("Library/Homebrew/test/cmd/outdated_pins_spec.rb",
                  "# typed: true\n# frozen_string_literal: true\n\n"
                  'require "cmd/outdated-pins"\nrequire "cmd/shared_examples/args_parse"\n\n'
                  "RSpec.describe Homebrew::Cmd::OutdatedPins do\n"
                  '  it_behaves_like "parseable arguments"\n\n'
                  '  it "lists pinned formulae with newer versions", :integration_test do\n'
                  '    setup_test_formula "testball"\n    brew "pin", "testball"\n\n'
                  '    expect { brew "outdated-pins" }.to output(/testball/).to_stdout\n'
                  "      .and be_a_success\n  end\nend\n"),
            Probe("check it all in here before I push", needs=("lgtm", "cache-fixed")),
            Bash("./bin/brew lgtm",
                 out="==> brew typecheck\nNo errors! Great job.\n"
                     "==> brew style --fix --changed\n1 file inspected, no offenses detected\n"
                     "==> brew tests --changed\n"
                     + _brew_tests("cmd/outdated_pins", 2, "3.97")),
            Probe("great, commit it", needs="no-conventional-commits"),
            Commit("test/cmd/outdated_pins: add spec"),
        ), judge={"lgtm": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 3. dependabot-core: a monorepo of dependency-update gems (dependabot/dependabot-core)
# ---------------------------------------------------------------------------------------------

DEPBOT = Project("dependabot-core", "ruby", {
    "Gemfile": (
        'source "https://rubygems.org"\n\ngemspec path: "common"\ngemspec path: "hex"\n\n'
        'gem "rspec", "~> 3.13"\ngem "rubocop", "~> 1.75"\ngem "sorbet", "~> 0.5"\n'
        'gem "tapioca", "~> 0.16"\ngem "webmock", "~> 3.25"\n'
    ),
    "bin/docker-dev-shell": (
        "#!/usr/bin/env bash\nset -e\n\nECOSYSTEM=\"$1\"\n"
        'IMAGE="dependabot/dependabot-core-development-$ECOSYSTEM"\n'
        'docker build -f "$ECOSYSTEM/Dockerfile" -t "$IMAGE" .\n'
        'docker run --rm -it -v "$(pwd)/$ECOSYSTEM:/home/dependabot/$ECOSYSTEM" \\\n'
        '  -v "$(pwd)/updater:/home/dependabot/dependabot-updater" "$IMAGE" "${@:2}"\n'
    ),
    "common/lib/dependabot/file_updaters/base.rb": (
        "# typed: strict\n# frozen_string_literal: true\n\n"
        "module Dependabot\n  module FileUpdaters\n    class Base\n"
        "      extend T::Sig\n      extend T::Helpers\n\n      abstract!\n\n"
        "      sig { returns(T::Array[Dependabot::DependencyFile]) }\n"
        "      attr_reader :dependency_files\n\n"
        "      sig { abstract.returns(T::Array[Dependabot::DependencyFile]) }\n"
        "      def updated_dependency_files; end\n    end\n  end\nend\n"
    ),
    "hex/lib/dependabot/hex/file_updater.rb": (
        "# typed: strict\n# frozen_string_literal: true\n\n"
        'require "dependabot/file_updaters"\nrequire "dependabot/file_updaters/base"\n\n'
        "module Dependabot\n  module Hex\n"
        "    class FileUpdater < Dependabot::FileUpdaters::Base\n"
        "      extend T::Sig\n\n"
        "      sig { override.returns(T::Array[Dependabot::DependencyFile]) }\n"
        "      def updated_dependency_files\n        updated_files = []\n"
        "        mixfiles.each do |file|\n"
        "          next unless file_changed?(file)\n\n"
        "          updated_files << updated_file(file: file, content: updated_mixfile(file))\n"
        "        end\n        updated_files\n      end\n\n      private\n\n"
        "      sig { returns(T::Array[Dependabot::DependencyFile]) }\n"
        '      def mixfiles = dependency_files.select { |f| f.name.end_with?("mix.exs") }\n'
        "    end\n  end\nend\n\n"
        'Dependabot::FileUpdaters.register("hex", Dependabot::Hex::FileUpdater)\n'
    ),
    "hex/spec/dependabot/hex/file_updater_spec.rb": (
        "# typed: false\n# frozen_string_literal: true\n\n"
        'require "spec_helper"\nrequire "dependabot/hex/file_updater"\n\n'
        "RSpec.describe Dependabot::Hex::FileUpdater do\n"
        "  subject(:updater) do\n"
        "    described_class.new(dependency_files: files, dependencies: [dependency],\n"
        '                        credentials: [{ "type" => "git_source" }])\n  end\n\n'
        '  let(:files) { project_dependency_files("app") }\n\n'
        '  it "updates the mixfile" do\n'
        '    expect(updater.updated_dependency_files.map(&:name)).to eq(["mix.exs"])\n'
        "  end\nend\n"
    ),
    "updater/lib/dependabot/updater/operations/update_all_versions.rb": (
        "# typed: strict\n# frozen_string_literal: true\n\n"
        "module Dependabot\n  class Updater\n    module Operations\n"
        "      class UpdateAllVersions\n        extend T::Sig\n\n"
        "        sig { void }\n        def perform\n"
        "          dependencies.each { |dep| check_and_create_pr_with_error_handling(dep) }\n"
        "        end\n      end\n    end\n  end\nend\n"
    ),
    ".rubocop.yml": (
        "inherit_from: .rubocop_todo.yml\n\nAllCops:\n  NewCops: enable\n"
        "  TargetRubyVersion: 3.3\n\nrequire:\n  - rubocop-sorbet\n"
        "  - rubocop-performance\n"
    ),
})

RSPEC_HEX_OK = (
    "Randomized with seed 40318\n..............................\n\n"
    "Finished in 6.42 seconds (files took 2.88 seconds to load)\n"
    "30 examples, 0 failures"
)

DEPENDABOT = Story(
    id="ho-rb-dependabot-core-1",
    title="A dependency-update monorepo: tests only in Docker, nested helper classes, Sorbet "
          "autocorrect walked back, the updater folder in containers, bin/docker-test renamed",
    sources=("dependabot/dependabot-core",),
    project=DEPBOT,
    lessons=(
        lesson("docker-only", "convention",
               "All tests run inside the ecosystem's Docker container (bin/docker-dev-shell "
               "<ecosystem>); never run tests or native helpers on the host",
               "docker", "host"),
        lesson("validate-suite", "command",
               "After changes run the validation suite in the container: bundle exec tapioca "
               "gem --verify, bundle exec srb tc, rubocop (-A to autofix), rspec spec",
               "srb tc", "rubocop|tapioca"),
        lesson("typed-strict", "convention",
               "New files must be `# typed: strict`; existing files below strict are upgraded "
               "to strict when changed",
               "typed: strict"),
        lesson("srb-autocorrect", "command",
               "Fix Sorbet errors with autocorrect: `bundle exec srb tc -a`",
               "srb tc -a|autocorrect"),
        lesson("srb-manual", "convention",
               "Sorbet's autocorrect (-a) causes more issues than it resolves: resolve Sorbet "
               "errors manually and review any autocorrected change",
               "manually|manual", "Sorbet|srb"),
        lesson("updater-rename", "gotcha",
               "Inside the containers the updater/ folder is renamed dependabot-updater/; run "
               "updater specs with `cd dependabot-updater && rspec spec`",
               "dependabot-updater"),
        lesson("docker-test", "command",
               "For quick one-off runs use `bin/docker-test <ecosystem> <command>`, which wraps "
               "bin/docker-dev-shell",
               "docker-test"),
        lesson("bin-test", "command",
               "The quick runner is now `bin/test <ecosystem> <spec path>` (bin/docker-test was "
               "renamed)",
               "bin/test"),
        lesson("nested-helpers", "gotcha",
               "Helper classes must be nested inside the main class (class FileUpdater < "
               "Base; class LockfileUpdater) with require_relative inside the main class, or "
               "loading fails with 'superclass mismatch for class FileUpdater'",
               "superclass mismatch|nested|nest|require_relative", "helper|FileUpdater"),
        lesson("no-private-tests", "convention",
               "Never test private methods directly or make them public for tests; exercise "
               "production paths (fetch_files, updated_dependency_files) through public APIs",
               "private", "test", "public|visibility|directly"),
    ),
    also=(
        lesson("also-no-rubocop-exceptions", "convention",
               "Avoid RuboCop exceptions (rubocop:disable); fix offenses by extracting methods "
               "or classes, and justify any unavoidable one in a comment",
               "RuboCop", "exception"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hi, we need the hex file updater to handle git dependencies in mix.lock. "
                 "can you start by running the existing hex specs so we know the baseline?"),
            Bash("cd hex && bundle exec rspec spec/dependabot/hex/file_updater_spec.rb",
                 out="An error occurred while loading spec_helper.\n"
                     "Failure/Error: require \"dependabot/hex/native_helpers\"\n\n"
                     "Errno::ENOENT:\n  No such file or directory @ rb_sysopen - "
                     "/opt/dependabot/hex/helpers/mix_deps_lock.exs\n\n"
                     "0 examples, 0 failures, 1 error occurred outside of examples",
                 ok=False),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (20a42321db)
            User("that won't work on your machine. all testing must be done within Docker "
                 "containers: the development environment, dependencies and native helpers are "
                 "containerized and will not work on the host system. start the container with "
                 "`bin/docker-dev-shell hex` first, then run commands inside it. never attempt "
                 "to run tests or native helpers on the host.",
                 states="docker-only"),
            Bash("bin/docker-dev-shell hex -c 'cd hex && rspec spec'", out=RSPEC_HEX_OK),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (20a42321db)
            User("good. after making changes, run the full validation suite: `bundle exec "
                 "tapioca gem --verify`, `bundle exec srb tc`, `rubocop` (`rubocop -A` to "
                 "auto-fix), and `rspec spec`.",
                 states="validate-suite"),
            Edit("hex/lib/dependabot/hex/file_updater.rb",
                 "        updated_files\n      end\n",
                 "        updated_files << updated_lockfile if lockfile && lockfile_changed?\n"
                 "        updated_files\n      end\n"),
            Bash("bin/docker-dev-shell hex -c 'cd hex && bundle exec srb tc && rubocop && "
                 "rspec spec'",
                 out="No errors! Great job.\n\n42 files inspected, no offenses detected\n\n"
                     + RSPEC_HEX_OK),
            Commit("Update mix.lock alongside mix.exs in Hex FileUpdater"),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (20a42321db)
            User("one more: avoid adding RuboCop exceptions unless absolutely necessary. "
                 "resolve offenses with method or class extraction instead, and if a RuboCop "
                 "exception is truly unavoidable, justify it in a comment."),
        )),
        Session(day=3, events=(
            User("the lockfile logic is getting big, please pull it into its own "
                 "LockfileUpdater class under file_updater/."),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (20a42321db)
            User("and all new files must be Sorbet strict typed at minimum: `# typed: strict`. "
                 "if you touch existing files below strict, upgrade them to strict.",
                 states="typed-strict"),
            Write("hex/lib/dependabot/hex/file_updater/lockfile_updater.rb",
                  "# typed: strict\n# frozen_string_literal: true\n\n"
                  "module Dependabot\n  module Hex\n    class FileUpdater\n"
                  "    end\n\n    class LockfileUpdater\n      extend T::Sig\n\n"
                  "      def updated_lockfile_content\n        lockfile.content\n"
                  "      end\n    end\n  end\nend\n"),
            Edit("hex/lib/dependabot/hex/file_updater.rb",
                 'require "dependabot/file_updaters/base"\n',
                 'require "dependabot/file_updaters/base"\n'
                 'require "dependabot/hex/file_updater/lockfile_updater"\n'),
            Bash("bin/docker-dev-shell hex -c 'cd hex && rspec spec'",
                 out="An error occurred while loading "
                     "./spec/dependabot/hex/file_updater_spec.rb.\n"
                     "Failure/Error: require \"dependabot/hex/file_updater/lockfile_updater\"\n\n"
                     "TypeError:\n  superclass mismatch for class FileUpdater\n"
                     "# ./lib/dependabot/hex/file_updater.rb:10:in `<module:Hex>'\n"
                     "# ./lib/dependabot/hex/file_updater.rb:9:in `<module:Dependabot>'\n"
                     "No examples found.\n\n"
                     "Finished in 0.00004 seconds (files took 1.93 seconds to load)\n"
                     "0 examples, 0 failures, 1 error occurred outside of examples",
                 ok=False),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (a71b848f17
            # "Core Class Structure Pattern")
            Say("The helper file reopened `class FileUpdater` without its superclass before the "
                "real definition loaded, hence 'superclass mismatch for class FileUpdater'. "
                "The pattern is: the helper class is nested inside the main class "
                "(`class FileUpdater < Dependabot::FileUpdaters::Base` / `class "
                "LockfileUpdater`), the helper requires the main file first, and the main "
                "class does `require_relative \"file_updater/lockfile_updater\"` inside the "
                "class body, not at module level.",
                states="nested-helpers"),
            Write("hex/lib/dependabot/hex/file_updater/lockfile_updater.rb",
                  "# typed: strict\n# frozen_string_literal: true\n\n"
                  'require "dependabot/hex/file_updater"\n\n'
                  "module Dependabot\n  module Hex\n"
                  "    class FileUpdater < Dependabot::FileUpdaters::Base\n"
                  "      class LockfileUpdater\n        extend T::Sig\n\n"
                  "        def updated_lockfile_content\n          lockfile.content\n"
                  "        end\n      end\n    end\n  end\nend\n"),
            Edit("hex/lib/dependabot/hex/file_updater.rb",
                 'require "dependabot/file_updaters/base"\n'
                 'require "dependabot/hex/file_updater/lockfile_updater"\n',
                 'require "dependabot/file_updaters/base"\n'),
            Edit("hex/lib/dependabot/hex/file_updater.rb",
                 "      extend T::Sig\n\n      sig { override",
                 "      extend T::Sig\n\n"
                 '      require_relative "file_updater/lockfile_updater"\n\n'
                 "      sig { override"),
            Bash("bin/docker-dev-shell hex -c 'cd hex && bundle exec srb tc'",
                 out="lib/dependabot/hex/file_updater/lockfile_updater.rb:12: Method "
                     "`updated_lockfile_content` does not have a `sig` "
                     "https://srb.help/7017\n"
                     "lib/dependabot/hex/file_updater.rb:14: Method `updated_dependency_files` "
                     "overrides an abstract method but is not declared with `override.` "
                     "https://srb.help/5035\nErrors: 2",
                 ok=False),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (version
            # before 0f32aec926: "Use autocorrect to fix issues that can be automatically
            # resolved")
            User("use autocorrect to fix issues that can be automatically resolved: `bundle "
                 "exec srb tc -a`. it adds missing `override.` annotations and the like.",
                 states="srb-autocorrect"),
            Bash("bin/docker-dev-shell hex -c 'cd hex && bundle exec srb tc -a && rspec spec'",
                 out="Autocorrected 2 errors.\nNo errors! Great job.\n\n" + RSPEC_HEX_OK),
            Commit("Extract Hex::FileUpdater::LockfileUpdater"),
        )),
        Session(day=7, events=(
            User("the updater should log which hex lockfile it rewrote. small change in "
                 "update_all_versions.rb, then run the updater specs."),
            Edit("updater/lib/dependabot/updater/operations/update_all_versions.rb",
                 "          dependencies.each { |dep| check_and_create_pr_with_error_handling"
                 "(dep) }\n",
                 '          Dependabot.logger.info("Updating #{dependencies.count} '
                 'dependencies")\n'
                 "          dependencies.each { |dep| check_and_create_pr_with_error_handling"
                 "(dep) }\n"),
            Bash("bin/docker-dev-shell hex -c 'cd updater && rspec spec'",
                 out="bash: line 1: cd: updater: No such file or directory", ok=False),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (20a42321db)
            User("yeah: when working in containers, the `updater/` folder is renamed to "
                 "`dependabot-updater/`. so `cd dependabot-updater && rspec spec` (not "
                 "`cd updater`).",
                 states="updater-rename"),
            Bash("bin/docker-dev-shell hex -c 'cd dependabot-updater && rspec "
                 "spec/dependabot/updater/operations/update_all_versions_spec.rb'",
                 out="Randomized with seed 11873\n.........\n\n"
                     "Finished in 3.1 seconds (files took 4.02 seconds to load)\n"
                     "9 examples, 0 failures"),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (8b9cb626b2)
            User("tip: for quick one-off runs during local development, prefer `bin/docker-test "
                 "{ecosystem} …` which wraps `bin/docker-dev-shell` and executes the provided "
                 "command inside the correct container, e.g. `bin/docker-test hex bundle exec "
                 "rspec spec/dependabot/hex/file_updater_spec.rb`.",
                 states="docker-test"),
            Say("Should I add a spec that calls `updater.send(:mixfiles)` to check the lockfile "
                "is picked up, or make `mixfiles` public?"),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (8510cc07e6)
            User("neither. NEVER test private methods directly - tests should only call public "
                 "interfaces. NEVER modify production code visibility to accommodate tests. "
                 "tests should exercise production code paths (e.g. `fetch_files`, "
                 "`updated_dependency_files`) rather than isolated helper methods.",
                 states="no-private-tests"),
            Probe("ok, then write the spec for the git-dependency lockfile case",
                  needs="docker-only"),
            Edit("hex/spec/dependabot/hex/file_updater_spec.rb",
                 '  it "updates the mixfile" do\n',
                 '  context "with a git dependency in mix.lock" do\n'
                 '    let(:files) { project_dependency_files("git_source") }\n\n'
                 '    it "updates the lockfile too" do\n'
                 "      expect(updater.updated_dependency_files.map(&:name))\n"
                 '        .to contain_exactly("mix.exs", "mix.lock")\n    end\n  end\n\n'
                 '  it "updates the mixfile" do\n'),
            Bash("bin/docker-test hex bundle exec rspec "
                 "spec/dependabot/hex/file_updater_spec.rb",
                 out="Randomized with seed 7203\n..\n\n"
                     "Finished in 1.48 seconds (files took 2.91 seconds to load)\n"
                     "2 examples, 0 failures"),
            Commit("Log dependency count in UpdateAllVersions; spec hex git lockfiles"),
        )),
        Session(day=14, events=(
            User("a reviewer flagged the lockfile_updater diff: autocorrect wrapped half of it "
                 "in T.must and it now raises on nil lockfiles in production paths."),
            # source: dependabot/dependabot-core .github/copilot-instructions.md (0f32aec926)
            User("so the guidance changed: Sorbet's autocorrect feature (`-a`) should be used "
                 "cautiously as it can cause more issues than it resolves. autocorrect often "
                 "creates incorrect fixes for complex type mismatches and method signature "
                 "issues. always manually resolve Sorbet errors rather than relying on "
                 "autocorrect, and carefully review any autocorrected changes.",
                 states="srb-manual", replaces="srb-autocorrect"),
            Edit("hex/lib/dependabot/hex/file_updater/lockfile_updater.rb",
                 "        def updated_lockfile_content\n          lockfile.content\n",
                 "        sig { returns(T.nilable(String)) }\n"
                 "        def updated_lockfile_content\n          lockfile&.content\n"),
            Bash("bin/docker-test hex bundle exec srb tc", out="No errors! Great job."),
            Commit("Type LockfileUpdater by hand instead of autocorrect"),
            Probe("we'll also need a MetadataFinder for hex git sources, can you stub the new "
                  "file?", needs="typed-strict"),
            Write("hex/lib/dependabot/hex/metadata_finder.rb",
                  "# typed: strict\n# frozen_string_literal: true\n\n"
                  'require "dependabot/metadata_finders"\n'
                  'require "dependabot/metadata_finders/base"\n\n'
                  "module Dependabot\n  module Hex\n"
                  "    class MetadataFinder < Dependabot::MetadataFinders::Base\n"
                  "      extend T::Sig\n    end\n  end\nend\n\n"
                  'Dependabot::MetadataFinders.register("hex", '
                  "Dependabot::Hex::MetadataFinder)\n"),
            Commit("Add Hex MetadataFinder skeleton"),
        )),
        Session(day=21, events=(
            # source: dependabot/dependabot-core commit 1ca6c984b9 "Rename bin/docker-test to
            # bin/test and update all references", 91b02b3803
            User("heads-up after rebasing: the quick runner is `bin/test` now, e.g. `bin/test "
                 "hex spec/dependabot/hex/file_updater_spec.rb`; the spec path is enough, no "
                 "`bundle exec rspec` in front.",
                 states="bin-test", replaces="docker-test"),
            Bash("git pull --rebase && ls bin",
                 out="Successfully rebased and updated refs/heads/main.\n"
                     "docker-dev-shell  dry-run.rb  test"),
            Probe("srb tc now complains about the metadata finder, can you sort it out?",
                  needs=("srb-manual", "typed-strict")),
            Bash("bin/test hex bundle exec srb tc",
                 out="lib/dependabot/hex/metadata_finder.rb:14: Method `look_up_source` "
                     "overrides an abstract method but is not declared with `override.` "
                     "https://srb.help/5035\nErrors: 1",
                 ok=False),
            Edit("hex/lib/dependabot/hex/metadata_finder.rb",
                 "      extend T::Sig\n    end\n",
                 "      extend T::Sig\n\n      private\n\n"
                 "      sig { override.returns(T.nilable(Dependabot::Source)) }\n"
                 "      def look_up_source\n"
                 "        Source.from_url(dependency.requirements.first&.dig(:source, :url))\n"
                 "      end\n    end\n"),
            Probe("and make sure the updater side still passes its specs",
                  needs="updater-rename"),
            Bash("bin/docker-dev-shell hex -c 'cd dependabot-updater && rspec spec'",
                 out="Randomized with seed 52190\n" + "." * 60 + "\n\n"
                     "Finished in 48.7 seconds (files took 4.2 seconds to load)\n"
                     "812 examples, 0 failures"),
            Commit("Implement Hex MetadataFinder#look_up_source"),
        )),
        Session(day=28, events=(
            Probe("rerun only the file updater spec real quick", needs="bin-test"),
            Bash("bin/test hex spec/dependabot/hex/file_updater_spec.rb",
                 out="Randomized with seed 30911\n..\n\n"
                     "Finished in 1.51 seconds (files took 2.87 seconds to load)\n"
                     "2 examples, 0 failures"),
            Probe("add coverage for the metadata finder's source lookup",
                  needs="no-private-tests"),
            Write("hex/spec/dependabot/hex/metadata_finder_spec.rb",
                  "# typed: false\n# frozen_string_literal: true\n\n"
                  'require "spec_helper"\nrequire "dependabot/hex/metadata_finder"\n\n'
                  "RSpec.describe Dependabot::Hex::MetadataFinder do\n"
                  '  it "finds the git source url" do\n'
                  "    expect(finder.source_url)"
                  '.to eq("https://github.com/<org>/plug")\n  end\nend\n'),
            Probe("I'm about to open the PR, run whatever we need to run before that",
                  needs="validate-suite"),
            Bash("bin/docker-dev-shell hex -c 'cd hex && bundle exec tapioca gem --verify && "
                 "bundle exec srb tc && rubocop && rspec spec'",
                 out="Checking for out-of-date RBIs...\n\nNothing to do, all RBIs are up-to-date."
                     "\nNo errors! Great job.\n\n44 files inspected, no offenses detected\n\n"
                     "Randomized with seed 8817\n................................\n\n"
                     "Finished in 6.9 seconds (files took 2.9 seconds to load)\n"
                     "32 examples, 0 failures"),
            Commit("Spec Hex MetadataFinder#source_url"),
        ), judge={"bin-test": "not_down", "validate-suite": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 4. ruby-lsp: a language server gem and its VS Code extension (Shopify/ruby-lsp)
# ---------------------------------------------------------------------------------------------

RUBY_LSP = Project("ruby-lsp", "ruby", {
    "Gemfile": (
        'source "https://rubygems.org"\n\ngemspec\n\n'
        'group :development do\n  gem "minitest", "~> 5.25"\n  gem "rubocop-shopify"\n'
        '  gem "sorbet-static-and-runtime"\n  gem "tapioca", require: false\nend\n'
    ),
    "Rakefile": (
        'require "bundler/gem_tasks"\nrequire "rake/testtask"\n\n'
        "Rake::TestTask.new(:test) do |t|\n"
        '  t.libs << "test" << "lib"\n  t.test_files = FileList["test/**/*_test.rb"]\nend\n\n'
        "task default: :test\n"
    ),
    "bin/test": (
        "#!/usr/bin/env bash\n\nif [[ $# -eq 0 ]]; then\n  bundle exec rake\n"
        'elif [[ $# -eq 1 ]]; then\n  bundle exec ruby -Itest "$1"\n'
        'else\n  bundle exec ruby -Itest "$1" --name "/$2/"\nfi\n'
    ),
    "lib/ruby_lsp/requests/hover.rb": (
        "# typed: strict\n# frozen_string_literal: true\n\n"
        "module RubyLsp\n  module Requests\n    class Hover < Request\n"
        "      #: (RubyDocument document, GlobalState global_state, Hash[Symbol, untyped] "
        "position, Prism::Dispatcher dispatcher) -> void\n"
        "      def initialize(document, global_state, position, dispatcher)\n"
        "        super()\n        @response_builder = ResponseBuilders::Hover.new\n"
        "        Listeners::Hover.new(@response_builder, global_state, document.uri, "
        "dispatcher)\n      end\n    end\n  end\nend\n"
    ),
    "lib/ruby_lsp/listeners/hover.rb": (
        "# typed: strict\n# frozen_string_literal: true\n\n"
        "module RubyLsp\n  module Listeners\n    class Hover\n"
        "      #: (ResponseBuilders::Hover response_builder, GlobalState global_state, "
        "URI::Generic uri, Prism::Dispatcher dispatcher) -> void\n"
        "      def initialize(response_builder, global_state, uri, dispatcher)\n"
        "        @response_builder = response_builder\n"
        "        dispatcher.register(self, :on_constant_read_node_enter)\n      end\n\n"
        "      #: (Prism::ConstantReadNode node) -> void\n"
        "      def on_constant_read_node_enter(node)\n"
        "        @response_builder.push(node.slice, category: :title)\n      end\n"
        "    end\n  end\nend\n"
    ),
    "test/requests/hover_test.rb": (
        "# typed: true\n# frozen_string_literal: true\n\n"
        'require "test_helper"\n\nclass HoverTest < Minitest::Test\n'
        "  def test_hovering_constant_shows_name\n"
        "    source = <<~RUBY\n      class Foo; end\n      Foo\n    RUBY\n\n"
        "    with_server(source) do |server, uri|\n"
        '      server.process_message(id: 1, method: "textDocument/hover",\n'
        "        params: { textDocument: { uri: uri }, position: { line: 1, character: 0 } })\n"
        '      assert_match("Foo", server.pop_response.response.contents.value)\n'
        "    end\n  end\nend\n"
    ),
    "vscode/package.json": (
        '{\n  "name": "ruby-lsp",\n  "version": "0.9.4",\n  "scripts": {\n'
        '    "lint": "eslint . --ext ts",\n    "pretest": "tsc -p ./",\n'
        '    "test": "vscode-test"\n  },\n  "packageManager": "yarn@1.22.22"\n}\n'
    ),
    "vscode/src/client.ts": (
        'import { LanguageClient } from "vscode-languageclient/node";\n\n'
        "export default class Client extends LanguageClient {\n"
        "  public serverVersion?: string;\n}\n"
    ),
})

MINITEST_LSP_OK = (
    "Run options: --seed 18342\n\n# Running:\n\n{dots}\n\n"
    "Finished in {secs}s, {rate} runs/s, {arate} assertions/s.\n\n"
    "{runs} runs, {asserts} assertions, 0 failures, 0 errors, 0 skips"
)


def _lsp_tests(runs: int, asserts: int, secs: str) -> str:
    return MINITEST_LSP_OK.format(
        dots="." * min(runs, 72), secs=secs, rate=f"{runs / float(secs):.4f}",
        arate=f"{asserts / float(secs):.4f}", runs=runs, asserts=asserts)


RUBYLSP = Story(
    id="ho-rb-ruby-lsp-1",
    title="A language server gem and editor extension: bin/test, RBS inline annotations, "
          "dispatcher listeners, fixtures with .exp.json, and the extension's move to pnpm",
    sources=("Shopify/ruby-lsp",),
    project=RUBY_LSP,
    lessons=(
        lesson("test-cmds", "command",
               "Run all gem tests with `bundle exec rake`; one file with `bin/test "
               "test/requests/x_test.rb`, optionally a test-name pattern as second argument",
               "bin/test"),
        lesson("rbs-inline", "convention",
               "Type annotations use RBS inline comments (`#:`) exclusively, never RBI-style "
               "`sig { }`; check with `bundle exec srb tc`",
               "RBS|#:", "RBI|sig {"),
        lesson("dispatcher-listeners", "convention",
               "Listeners register for node events on a Prism::Dispatcher so one AST traversal "
               "serves all listeners; don't walk the AST yourself",
               "Dispatcher"),
        lesson("with-server", "convention",
               "Request tests that don't use fixtures use the with_server(source) helper",
               "with_server"),
        lesson("exp-json", "fact",
               "Every feature runs against test/fixtures; a JSON file of the same name ending in "
               ".exp.json under test/expectations makes the framework assert the response",
               "exp.json|test/expectations"),
        lesson("yarn", "command",
               "In vscode/, lint and test the extension with `yarn run lint` / `yarn run test`",
               "yarn"),
        lesson("pnpm", "command",
               "The extension moved to pnpm: `pnpm run lint` / `pnpm run test` in vscode/",
               "pnpm"),
        lesson("vscode-test-js", "gotcha",
               "Pass flags through `pnpm run test --` so they reach vscode-test, and give --run "
               "the compiled .js path under out/test/suite, not the .ts file",
               "out/test|.js", "pnpm run test --|--run"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: Shopify/ruby-lsp CLAUDE.md (577b452b)
            User("hey! hover on constants should show the constant's comments, not just the "
                 "name. commands you'll want: `bundle exec rake` runs all tests, `bin/test "
                 "test/requests/hover_test.rb` runs one file, and `bin/test "
                 "test/requests/hover_test.rb test_name_pattern` the matching tests.",
                 states="test-cmds"),
            Read("lib/ruby_lsp/listeners/hover.rb"),
            Edit("lib/ruby_lsp/listeners/hover.rb",
                 "      #: (Prism::ConstantReadNode node) -> void\n"
                 "      def on_constant_read_node_enter(node)\n"
                 "        @response_builder.push(node.slice, category: :title)\n      end\n",
                 "      #: (Prism::ConstantReadNode node) -> void\n"
                 "      def on_constant_read_node_enter(node)\n"
                 "        @response_builder.push(node.slice, category: :title)\n"
                 "        push_documentation(node.slice)\n      end\n\n"
                 "      sig { params(name: String).void }\n"
                 "      def push_documentation(name)\n"
                 "        entries = @index.resolve(name, @node_context.nesting)\n"
                 "        return unless entries\n\n"
                 "        @response_builder.push(entries.map(&:comments).join(\"\\n\"), "
                 "category: :documentation)\n      end\n"),
            # source: Shopify/ruby-lsp CLAUDE.md (577b452b), "Typechecking with Sorbet"
            User("one thing: we use Sorbet (typed: strict) with inline RBS annotations. use RBS "
                 "inline annotations (`#:`) exclusively - never use RBI style `sig { }`. place "
                 "them immediately before method definitions, and run `bundle exec srb tc` to "
                 "make sure typechecking passes.",
                 states="rbs-inline"),
            Edit("lib/ruby_lsp/listeners/hover.rb",
                 "      sig { params(name: String).void }\n",
                 "      #: (String name) -> void\n"),
            Bash("bundle exec srb tc", out="No errors! Great job."),
            Bash("bin/test test/requests/hover_test.rb", out=_lsp_tests(4, 9, "0.213006")),
            Commit("Show constant documentation on hover"),
        )),
        Session(day=5, events=(
            User("next feature: folding ranges for heredocs. where do I even start?"),
            Say("I was going to write a small recursive walk over the Prism AST in the request "
                "and collect HeredocNodes."),
            # source: Shopify/ruby-lsp AGENTS.md (d24b7ded)
            User("please don't add another traversal. listeners are where the static analysis "
                 "logic goes: traversal of ASTs is performed by a `Prism::Dispatcher` and "
                 "listeners register for the node events that they are interested in handling. "
                 "this lets listeners encapsulate distinct logic without having to perform "
                 "multiple traversals of the AST.",
                 states="dispatcher-listeners"),
            Write("lib/ruby_lsp/listeners/heredoc_folding.rb",
                  "# typed: strict\n# frozen_string_literal: true\n\n"
                  "module RubyLsp\n  module Listeners\n    class HeredocFolding\n"
                  "      #: (Array[Interface::FoldingRange] ranges, Prism::Dispatcher "
                  "dispatcher) -> void\n"
                  "      def initialize(ranges, dispatcher)\n        @ranges = ranges\n"
                  "        dispatcher.register(self, :on_interpolated_string_node_enter)\n"
                  "      end\n    end\n  end\nend\n"),
            # source: Shopify/ruby-lsp AGENTS.md (d24b7ded), "Testing"
            User("for request tests that aren't using fixtures, the structure should use the "
                 "provided test helpers: build the `source` heredoc and wrap the request in "
                 "`with_server(source) do |server, uri| ... end`.",
                 states="with-server"),
            Write("test/requests/heredoc_folding_test.rb",
                  "# typed: true\n# frozen_string_literal: true\n\n"
                  'require "test_helper"\n\nclass HeredocFoldingTest < Minitest::Test\n'
                  "  def test_folds_squiggly_heredoc\n"
                  "    source = <<~RUBY\n      x = <<~SQL\n        SELECT 1\n      SQL\n"
                  "    RUBY\n\n    with_server(source) do |server, uri|\n"
                  '      server.process_message(id: 1, method: "textDocument/foldingRange",\n'
                  "        params: { textDocument: { uri: uri } })\n"
                  "      assert_equal(0, server.pop_response.response.first.start_line)\n"
                  "    end\n  end\nend\n"),
            Bash("bin/test test/requests/heredoc_folding_test.rb",
                 out=_lsp_tests(1, 1, "0.118420")),
            Commit("Add heredoc folding listener"),
        )),
        Session(day=9, events=(
            # source: Shopify/ruby-lsp CLAUDE.md (577b452b), "VS Code Extension"
            User("switching to the extension for a bit. it's in `vscode/`: `yarn install`, "
                 "`yarn run lint` to lint the TypeScript, `yarn run test` for the extension "
                 "tests. I want the client to remember the server version it connected to.",
                 states="yarn"),
            Edit("vscode/src/client.ts",
                 "  public serverVersion?: string;\n",
                 "  public serverVersion?: string;\n\n"
                 "  async afterStart() {\n"
                 "    this.serverVersion = this.initializeResult?.serverInfo?.version;\n  }\n"),
            Bash("cd vscode && yarn run lint && yarn run test",
                 out="$ eslint . --ext ts\n$ tsc -p ./\n$ vscode-test\n"
                     "  Client\n    ✔ stores the server version\n"
                     "  214 passing (41s)"),
            # source: Shopify/ruby-lsp AGENTS.md (d24b7ded), "Testing"
            User("back to the gem. heads up on how the feature tests work: the custom built "
                 "framework runs all language server features against the files in "
                 "`test/fixtures`. if there's a file with the same name under "
                 "`test/expectations`, it asserts that the response matches for each request "
                 "that has an expectation file; without one, the feature still runs against the "
                 "fixture to verify it does not raise. fixtures are plain Ruby and expectation "
                 "files are JSON ending in `.exp.json`.",
                 states="exp-json"),
            Probe("add a test for hovering a constant whose comment has a heredoc in it",
                  needs=("with-server", "test-cmds")),
            Edit("test/requests/hover_test.rb",
                 "  def test_hovering_constant_shows_name\n",
                 "  def test_hover_documentation_with_heredoc\n"
                 "    source = <<~RUBY\n      # Example:\n      #   <<~TXT\n      #   hi\n"
                 "      #   TXT\n      class Foo; end\n      Foo\n    RUBY\n\n"
                 "    with_server(source) do |server, uri|\n"
                 '      server.process_message(id: 1, method: "textDocument/hover",\n'
                 "        params: { textDocument: { uri: uri }, position: { line: 5, "
                 "character: 0 } })\n"
                 '      assert_match("<<~TXT", server.pop_response.response.contents.value)\n'
                 "    end\n  end\n\n"
                 "  def test_hovering_constant_shows_name\n"),
            Bash("bin/test test/requests/hover_test.rb heredoc", out=_lsp_tests(1, 1, "0.1204")),
            Commit("Extension remembers server version; hover heredoc test"),
        )),
        Session(day=16, events=(
            # source: Shopify/ruby-lsp PR #4077 "Migrate to pnpm", AGENTS.md (bbeadfe6)
            User("fyi we migrated the extension to pnpm. lint is `pnpm run lint` and tests are "
                 "`pnpm run test` now. can you run the client tests only?",
                 states="pnpm", replaces="yarn"),
            Bash("cd vscode && pnpm install",
                 out="Lockfile is up to date, resolution step is skipped\n"
                     "Packages: +612\nDone in 7.4s"),
            Bash("cd vscode && pnpm run test --run src/test/suite/client.test.ts",
                 out="> ruby-lsp@0.9.4 pretest\n> tsc -p ./\n\n"
                     "> ruby-lsp@0.9.4 test\n> vscode-test\n\n"
                     "Error: No test files found for: src/test/suite/client.test.ts",
                 ok=False),
            # source: Shopify/ruby-lsp AGENTS.md (7d67236c, PR #4079 "Migrate test running to
            # the new vscode-test-cli")
            Say("Two problems: flags have to be passed through `pnpm run test --` so they reach "
                "`vscode-test` instead of being consumed by pnpm, and `--run` takes the "
                "compiled test file (the .js path under out/test/suite, not the .ts source)."),
            Bash("cd vscode && pnpm run test -- --run out/test/suite/client.test.js",
                 out="> ruby-lsp@0.9.4 test\n> vscode-test --run "
                     "out/test/suite/client.test.js\n\n"
                     "  Client\n    ✔ stores the server version\n    ✔ restarts on crash\n"
                     "  12 passing (9s)",
                 states="vscode-test-js"),
            Probe("now add a `rangeOf(node)` helper to lib/ruby_lsp/utils.rb that returns an "
                  "LSP range for a Prism node", needs="rbs-inline"),
            Write("lib/ruby_lsp/utils.rb",
                  "# typed: strict\n# frozen_string_literal: true\n\n"
                  "module RubyLsp\n  module Utils\n    module_function\n\n"
                  "    #: (Prism::Node node) -> Interface::Range\n"
                  "    def range_of(node)\n      loc = node.location\n"
                  "      Interface::Range.new(\n"
                  "        start: Interface::Position.new(line: loc.start_line - 1, "
                  "character: loc.start_column),\n"
                  "        end: Interface::Position.new(line: loc.end_line - 1, "
                  "character: loc.end_column),\n      )\n    end\n  end\nend\n"),
            Bash("bundle exec srb tc", out="No errors! Great job."),
            Commit("Add Utils.range_of"),
        )),
        Session(day=22, events=(
            User("morning. a few things on the list today."),
            Probe("first, document highlight should light up all heredocs with the same "
                  "delimiter. add that", needs="dispatcher-listeners"),
            Write("lib/ruby_lsp/listeners/heredoc_highlight.rb",
                  "# typed: strict\n# frozen_string_literal: true\n\n"
                  "module RubyLsp\n  module Listeners\n    class HeredocHighlight\n"
                  "      #: (ResponseBuilders::CollectionResponseBuilder builder, "
                  "Prism::Dispatcher dispatcher) -> void\n"
                  "      def initialize(builder, dispatcher)\n        @builder = builder\n"
                  "        dispatcher.register(self, :on_interpolated_string_node_enter, "
                  ":on_string_node_enter)\n      end\n    end\n  end\nend\n"),
            Probe("there's a heredoc.rb fixture in test/fixtures; its folding ranges should be "
                  "checked by the fixture framework too. wire that up", needs="exp-json"),
            Write("test/expectations/folding_ranges/heredoc.exp.json",
                  '{\n  "params": [],\n  "result": [\n'
                  '    { "startLine": 0, "endLine": 2, "kind": "region" }\n  ]\n}\n'),
            Bash("bin/test test/requests/folding_ranges_expectations_test.rb heredoc",
                 out=_lsp_tests(1, 1, "0.0921")),
            Probe("then lint the extension, I touched a few TS files",
                  needs="pnpm"),
            Bash("cd vscode && pnpm run lint", out="> ruby-lsp@0.9.4 lint\n> eslint . --ext ts"),
            Probe("and run just the workspace suite of the extension tests",
                  needs=("vscode-test-js", "pnpm")),
            Bash("cd vscode && pnpm run test -- --run out/test/suite/workspace.test.js",
                 out="> ruby-lsp@0.9.4 test\n> vscode-test --run "
                     "out/test/suite/workspace.test.js\n\n"
                     "  Workspace\n    ✔ does not restart when watched files are unchanged\n"
                     "  7 passing (6s)"),
            Commit("Highlight matching heredocs; heredoc folding expectation"),
        ), judge={"vscode-test-js": "not_down", "pnpm": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# 5. rubocop: a Ruby linter and formatter (rubocop/rubocop)
# ---------------------------------------------------------------------------------------------

LINTER = Project("rubocop", "ruby", {
    "Gemfile": (
        'source "https://rubygems.org"\n\ngemspec\n\n'
        'gem "rake", "~> 13.0"\ngem "rspec", "~> 3.7"\ngem "prism", "~> 1.4"\n'
        'gem "yard", "~> 0.9"\n'
    ),
    "Rakefile": (
        'require "bundler/gem_tasks"\n\nDir["tasks/**/*.rake"].each { |t| load t }\n\n'
        "task default: %i[codespell documentation_syntax_check spec prism_spec "
        "internal_investigation]\n"
    ),
    "lib/rubocop.rb": (
        "# frozen_string_literal: true\n\n"
        "require_relative 'rubocop/cop/lint/useless_times'\n"
        "require_relative 'rubocop/cop/style/map_into_array'\n"
    ),
    "lib/rubocop/cop/lint/useless_times.rb": (
        "# frozen_string_literal: true\n\nmodule RuboCop\n  module Cop\n    module Lint\n"
        "      # Checks for uses of `Integer#times` that will never yield\n"
        "      # (when the integer <= 0) or that will only ever yield once\n"
        "      # (`1.times`).\n      class UselessTimes < Base\n"
        "        MSG = 'Useless call to `%<count>i.times` detected.'\n"
        "        RESTRICT_ON_SEND = %i[times].freeze\n      end\n    end\n  end\nend\n"
    ),
    "config/default.yml": (
        "Lint/UselessTimes:\n  Description: 'Checks for useless `Integer#times` calls.'\n"
        "  Enabled: true\n  VersionAdded: '0.91'\n"
    ),
    "spec/project_spec.rb": (
        "# frozen_string_literal: true\n\nRSpec.describe 'RuboCop Project', type: :feature do\n"
        "  describe 'future entries' do\n"
        "    it 'has a link to the contributors at the end' do\n"
        r"      expect(entries).to all(match(/\(\[@\S+\]\[\](?:, \[@\S+\]\[\])*\)$/))"
        "\n    end\n  end\nend\n"
    ),
    "changelog/.gitkeep": "",
})

NEW_COP_OUT = (
    "[create] lib/rubocop/cop/style/string_chars_split.rb\n"
    "[create] spec/rubocop/cop/style/string_chars_split_spec.rb\n"
    "[modify] lib/rubocop.rb - `require_relative 'rubocop/cop/style/string_chars_split'` "
    "was injected.\n"
    "[modify] A configuration for the cop is added into config/default.yml.\n"
    "Do 4 steps:\n"
    "  1. Modify the description of Style/StringCharsSplit in config/default.yml\n"
    "  2. Implement your new cop in the generated file!\n"
    "  3. Commit your new cop with a message such as\n"
    "     e.g. \"Add new `Style/StringCharsSplit` cop\"\n"
    "  4. Run `bundle exec rake changelog:new` to generate a changelog entry\n"
    "     for your new cop."
)

STRING_CHARS_COP = (
    "# frozen_string_literal: true\n\nmodule RuboCop\n  module Cop\n    module Style\n"
    "      # Checks for `split('')` and suggests `chars` instead.\n      #\n"
    "      # @example\n      #   # bad\n      #   string.split('')\n      #\n"
    "      #   # good\n      #   string.chars\n      #\n"
    "      class StringCharsSplit < Base\n        extend AutoCorrector\n\n"
    "        MSG = 'Use `chars` instead of `split(\\'\\')`.'\n"
    "        RESTRICT_ON_SEND = %i[split].freeze\n\n"
    "        # @!method split_empty?(node)\n"
    "        def_node_matcher :split_empty?, <<~PATTERN\n"
    "          (call _ :split (str empty?))\n        PATTERN\n\n"
    "        def on_send(node)\n          return unless split_empty?(node)\n\n"
    "          add_offense(node) do |corrector|\n"
    "            corrector.replace(node.loc.selector.join(node.source_range.end), 'chars')\n"
    "          end\n        end\n      end\n    end\n  end\nend\n"
)

RUBOCOP = Story(
    id="ho-rb-rubocop-1",
    title="A linter: the new_cop generator, RESTRICT_ON_SEND and on_csend, changelog entries "
          "checked by project_spec, lazy cop registration, and one fix per commit",
    sources=("rubocop/rubocop",),
    project=LINTER,
    lessons=(
        lesson("rake-full", "command",
               "Always run the full `bundle exec rake` (codespell, doc syntax check, specs, "
               "self-lint) before opening a PR; partial runs miss lint and doc-syntax failures",
               r"re:bundle exec rake(?!\s*['\"]?(new_cop|changelog|spec|prism_spec|internal))"),
        lesson("new-cop-generator", "command",
               "Scaffold a new cop with `bundle exec rake 'new_cop[Department/CopName]'` "
               "(source, spec and config/default.yml entry)",
               "new_cop"),
        lesson("require-list", "fact",
               "The new_cop generator adds the cop's require_relative to lib/rubocop.rb, the "
               "require list",
               "lib/rubocop.rb"),
        lesson("register-cop", "fact",
               "Cops load lazily: each department module lib/rubocop/cop/<department>.rb holds "
               "`register_cop` directives (the generator adds them), no require in "
               "lib/rubocop.rb",
               "register_cop"),
        lesson("restrict-on-send", "convention",
               "A cop that defines on_send must define RESTRICT_ON_SEND with the method names",
               "RESTRICT_ON_SEND"),
        lesson("csend-alias", "gotcha",
               "Cops defining on_send need `alias on_csend on_send` to handle safe navigation "
               "(&.), with specs covering `&.`",
               "on_csend"),
        lesson("changelog-entry", "command",
               "User-visible changes need a changelog entry made with `bundle exec rake "
               "changelog:new|fix|change` (never by hand); it must end with ([@username][]), "
               "which spec/project_spec.rb checks",
               "changelog:new|changelog:fix|changelog:change|changelog entry"),
        lesson("fix-prefix", "convention",
               "Prefix commit messages with [Fix #N] when an issue exists",
               r"re:\[Fix #"),
        lesson("squash", "convention", "Squash related commits into one before the PR",
               "squash"),
        lesson("one-fix-per-commit", "convention",
               "Each distinct fix gets its own commit with its own changelog entry; squash only "
               "commits that belong to the same fix",
               "own commit|separate commit|logical commit"),
    ),
    also=(
        lesson("also-yard-examples", "gotcha",
               "Every cop needs a YARD @example with # bad / # good pairs that is valid Ruby "
               "(documentation_syntax_check parses them), and a description sentence starting "
               "with a verb",
               "@example|documentation_syntax_check", "valid|verb"),
    ),
    sessions=(
        Session(day=0, events=(
            User("let's add a cop that flags `str.split('')` and suggests `chars`. call it "
                 "Style/StringCharsSplit."),
            # source: rubocop/rubocop AGENTS.md (313a29bd6)
            User("scaffold it, don't hand-create files: `bundle exec rake "
                 "'new_cop[Department/CopName]'`. it generates the source file, spec file, "
                 "`config/default.yml` entry, and the `require` in `lib/rubocop.rb`.",
                 states=("new-cop-generator", "require-list")),
            Bash("bundle exec rake 'new_cop[Style/StringCharsSplit]'", out=NEW_COP_OUT),
            Write("lib/rubocop/cop/style/string_chars_split.rb",
                  STRING_CHARS_COP.replace("        RESTRICT_ON_SEND = %i[split].freeze\n\n",
                                           "")),
            Edit("lib/rubocop.rb",
                 "require_relative 'rubocop/cop/style/map_into_array'\n",
                 "require_relative 'rubocop/cop/style/map_into_array'\n"
                 "require_relative 'rubocop/cop/style/string_chars_split'\n"),
            # source: rubocop/rubocop AGENTS.md (313a29bd6), "Key conventions"
            User("you're missing `RESTRICT_ON_SEND`: list the method names so `on_send` is only "
                 "called for those methods. it's a performance optimization, and required when "
                 "using `on_send`.",
                 states="restrict-on-send"),
            Write("lib/rubocop/cop/style/string_chars_split.rb", STRING_CHARS_COP),
            Write("spec/rubocop/cop/style/string_chars_split_spec.rb",
                  "# frozen_string_literal: true\n\n"
                  "RSpec.describe RuboCop::Cop::Style::StringCharsSplit, :config do\n"
                  "  it 'registers an offense when using `split(\\'\\')`' do\n"
                  "    expect_offense(<<~RUBY)\n      str.split('')\n"
                  "          ^^^^^^^^^ Use `chars` instead of `split('')`.\n    RUBY\n\n"
                  "    expect_correction(<<~RUBY)\n      str.chars\n    RUBY\n  end\nend\n"),
            Bash("bundle exec rspec spec/rubocop/cop/style/string_chars_split_spec.rb",
                 out="Randomized with seed 5507\n.\n\n"
                     "Finished in 0.0921 seconds (files took 1.62 seconds to load)\n"
                     "1 example, 0 failures"),
            # source: rubocop/rubocop AGENTS.md (313a29bd6)
            User("nice. always run `bundle exec rake` before opening a PR: it's the full CI, "
                 "codespell + doc syntax check + specs + self-lint.",
                 states="rake-full"),
            Commit("Add new `Style/StringCharsSplit` cop"),
        )),
        Session(day=2, events=(
            User("there's an issue for this cop idea, #13871. let's get the PR ready."),
            Write("changelog/new_add_style_string_chars_split_cop.md",
                  "* [#13871](https://github.com/rubocop/rubocop/issues/13871): Add new "
                  "`Style/StringCharsSplit` cop.\n"),
            Bash("bundle exec rake",
                 out="Running RuboCop...\n1573 files inspected, no offenses detected\n"
                     "Randomized with seed 30085\n.F\n\nFailures:\n\n"
                     "  1) RuboCop Project Changelog future entries For "
                     "changelog/new_add_style_string_chars_split_cop.md has a link to the "
                     "contributors at the end\n"
                     "     Failure/Error: expect(entries).to all(match(/\\(\\[@\\S+\\]\\[\\]"
                     "(?:, \\[@\\S+\\]\\[\\])*\\)$/))\n\n"
                     "       expected [\"* [#13871](https://github.com/rubocop/rubocop/issues/"
                     "13871): Add new `Style/StringCharsSplit` cop.\"] to all match "
                     "/\\(\\[@\\S+\\]\\[\\](?:, \\[@\\S+\\]\\[\\])*\\)$/\n"
                     "     # ./spec/project_spec.rb:128:in `block (5 levels) in "
                     "<top (required)>'\n\n"
                     "Finished in 16.59 seconds (files took 2.69 seconds to load)\n"
                     "24211 examples, 1 failure, 2 pending",
                 ok=False),
            # source: rubocop/rubocop AGENTS.md (313a29bd6), "Changelog Entries" and
            # PR #3612 / #9170 (project_spec failures)
            User("every user-visible change needs a changelog entry, but don't create the file "
                 "manually: use `bundle exec rake changelog:new` (or `changelog:fix` / "
                 "`changelog:change`) to get the right filename format. the entry must end "
                 "with `([@username][])`; `spec/project_spec.rb` validates the format in CI.",
                 states="changelog-entry"),
            Bash("rm changelog/new_add_style_string_chars_split_cop.md && "
                 "bundle exec rake changelog:new",
                 out="Generated changelog/new_add_new_stylestringcharssplit_cop.md"),
            Write("changelog/new_add_new_stylestringcharssplit_cop.md",
                  "* [#13871](https://github.com/rubocop/rubocop/issues/13871): Add new "
                  "`Style/StringCharsSplit` cop. ([@contributor][])\n"),
            Bash("bundle exec rake",
                 out="Running RuboCop...\n1574 files inspected, no offenses detected\n"
                     "Finished in 2 minutes 41.3 seconds (files took 2.7 seconds to load)\n"
                     "24211 examples, 0 failures, 2 pending"),
            # source: rubocop/rubocop AGENTS.md (313a29bd6), "PR and Commit Conventions"
            User("green. commit conventions: prefix commit messages with `[Fix #N]` when an "
                 "issue exists, and squash related commits.",
                 states=("fix-prefix", "squash")),
            Commit("[Fix #13871] Add new `Style/StringCharsSplit` cop"),
        )),
        Session(day=6, events=(
            User("review came back: it doesn't flag `str&.split('')`. can you look?"),
            Edit("spec/rubocop/cop/style/string_chars_split_spec.rb",
                 "    expect_correction(<<~RUBY)\n      str.chars\n    RUBY\n  end\n",
                 "    expect_correction(<<~RUBY)\n      str.chars\n    RUBY\n  end\n\n"
                 "  it 'registers an offense when using `&.split(\\'\\')`' do\n"
                 "    expect_offense(<<~RUBY)\n      str&.split('')\n"
                 "           ^^^^^^^^^ Use `chars` instead of `split('')`.\n    RUBY\n  end\n"),
            Bash("bundle exec rspec spec/rubocop/cop/style/string_chars_split_spec.rb",
                 out="Randomized with seed 1190\n.F\n\nFailures:\n\n"
                     "  1) RuboCop::Cop::Style::StringCharsSplit registers an offense when "
                     "using `&.split('')`\n"
                     "     Failure/Error:\n       expect_offense(<<~RUBY)\n"
                     "         str&.split('')\n"
                     "              ^^^^^^^^^ Use `chars` instead of `split('')`.\n"
                     "       RUBY\n\n"
                     "       Diff:\n       @@ -1,3 +1,2 @@\n        str&.split('')\n"
                     "       -     ^^^^^^^^^ Use `chars` instead of `split('')`.\n\n"
                     "2 examples, 1 failure",
                 ok=False),
            # source: rubocop/rubocop AGENTS.md (313a29bd6), "Common Mistakes" 1 and 12
            Say("`on_send` isn't called for safe navigation; cops that check `on_send` must "
                "also handle `&.` with `alias on_csend on_send` (unless explicitly "
                "inapplicable), and the specs should cover both `send` and `csend`.",
                states="csend-alias"),
            Edit("lib/rubocop/cop/style/string_chars_split.rb",
                 "          end\n        end\n      end\n",
                 "          end\n        end\n        alias on_csend on_send\n      end\n"),
            Bash("bundle exec rspec spec/rubocop/cop/style/string_chars_split_spec.rb",
                 out="Randomized with seed 2274\n..\n\n"
                     "Finished in 0.1 seconds (files took 1.6 seconds to load)\n"
                     "2 examples, 0 failures"),
            Commit("[Fix #13871] Handle safe navigation in `Style/StringCharsSplit`"),
            # source: rubocop/rubocop AGENTS.md (313a29bd6), "Key conventions"
            User("reviewer also noted, for the record: every cop must have at least one "
                 "`# bad` / `# good` YARD `@example` pair, and examples must be valid Ruby "
                 "syntax because the CI `documentation_syntax_check` task parses them. the "
                 "description's first line must be a complete sentence starting with a verb."),
            User("thanks. I'll squash those two before merging."),
            Probe("next one: a Lint cop that flags `Integer('1', 10)` with a literal string. "
                  "get it scaffolded and wired up",
                  needs=("new-cop-generator", "restrict-on-send")),
            Bash("bundle exec rake 'new_cop[Lint/LiteralIntegerArgument]'",
                 out="[create] lib/rubocop/cop/lint/literal_integer_argument.rb\n"
                     "[create] spec/rubocop/cop/lint/literal_integer_argument_spec.rb\n"
                     "[modify] lib/rubocop.rb - `require_relative "
                     "'rubocop/cop/lint/literal_integer_argument'` was injected.\n"
                     "[modify] A configuration for the cop is added into config/default.yml."),
        )),
        Session(day=12, events=(
            # source: rubocop/rubocop commit e9defb651 "[Fix #14983] Load cops lazily",
            # AGENTS.md
            User("big change landed on master: cops load lazily now. `lib/rubocop.rb` is no "
                 "longer the require list; each department module "
                 "(`lib/rubocop/cop/<department>.rb`) has `register_cop` directives, and the "
                 "new_cop generator adds a `register_cop` there, which registers the cop for "
                 "lazy loading.",
                 states="register-cop", replaces="require-list"),
            Bash("git pull --rebase && grep -n StringCharsSplit lib/rubocop/cop/style.rb",
                 out="Successfully rebased and updated refs/heads/master.\n"
                     "214:      register_cop :StringCharsSplit, 'style/string_chars_split'"),
            # source: rubocop/rubocop AGENTS.md (91b95b1c0 "Document the one-fix-per-commit
            # convention")
            User("also the commit convention changed. each distinct fix belongs in its own "
                 "logical commit. when a PR bundles several unrelated fixes (e.g. multiple "
                 "cops, multiple false positives), give each one a separate commit with its own "
                 "changelog entry rather than squashing them all into a single commit. squash "
                 "only commits that are part of the *same* fix.",
                 states="one-fix-per-commit", replaces="squash"),
            User("that's it for today, just wanted you to know before tomorrow's work."),
        )),
        Session(day=18, events=(
            Probe("I moved Lint/LiteralIntegerArgument to the Style department by hand and now "
                  "it isn't found. what needs updating?", needs="register-cop"),
            Write("lib/rubocop/cop/style.rb",
                  "# frozen_string_literal: true\n\nmodule RuboCop\n  module Cop\n"
                  "    module Style\n"
                  "      register_cop :LiteralIntegerArgument, "
                  "'style/literal_integer_argument'\n"
                  "      register_cop :StringCharsSplit, 'style/string_chars_split'\n"
                  "    end\n  end\nend\n"),
            Probe("this branch fixes two unrelated false positives, one in Style/StringCharsSplit "
                  "(#13902) and one in Lint/UselessTimes (#13911). prepare the commits",
                  needs=("one-fix-per-commit", "changelog-entry", "fix-prefix")),
            Bash("bundle exec rake changelog:fix",
                 out="Generated changelog/fix_false_positive_for_style_string_chars_split.md"),
            Edit("lib/rubocop/cop/style/string_chars_split.rb",
                 "          (call _ :split (str empty?))\n",
                 "          (call !nil? :split (str empty?))\n"),
            Commit("[Fix #13902] Fix a false positive for `Style/StringCharsSplit`"),
            Bash("bundle exec rake changelog:fix",
                 out="Generated changelog/fix_false_positive_for_lint_useless_times.md"),
            Edit("lib/rubocop/cop/lint/useless_times.rb",
                 "        RESTRICT_ON_SEND = %i[times].freeze\n",
                 "        RESTRICT_ON_SEND = %i[times].freeze\n\n"
                 "        # @!method block_arg(node)\n"
                 "        def_node_matcher :block_arg, '(block_pass (sym $_))'\n"),
            Commit("[Fix #13911] Fix a false positive for `Lint/UselessTimes`"),
            Probe("one more cop while we're here: flag `x.to_s.to_s`. write it with specs",
                  needs=("csend-alias", "restrict-on-send")),
            Write("lib/rubocop/cop/style/redundant_double_to_s.rb",
                  "# frozen_string_literal: true\n\nmodule RuboCop\n  module Cop\n"
                  "    module Style\n      # Checks for `to_s` called on the result of `to_s`.\n"
                  "      class RedundantDoubleToS < Base\n"
                  "        MSG = 'Remove the redundant `to_s`.'\n"
                  "        RESTRICT_ON_SEND = %i[to_s].freeze\n\n"
                  "        def on_send(node)\n"
                  "          add_offense(node) if node.receiver&.send_type? && "
                  "node.receiver.method?(:to_s)\n"
                  "        end\n        alias on_csend on_send\n      end\n    end\n  end\nend\n"),
            Probe("ok, I'm opening the PR. anything to run first?", needs="rake-full"),
            Bash("bundle exec rake",
                 out="Running RuboCop...\n1577 files inspected, no offenses detected\n"
                     "Finished in 2 minutes 44.0 seconds (files took 2.7 seconds to load)\n"
                     "24239 examples, 0 failures, 2 pending"),
            Commit("Add new `Style/RedundantDoubleToS` cop"),
        ), judge={"rake-full": "not_down", "changelog-entry": "not_down"}),
    ),
)

STORIES = [MAYBE, HOMEBREW, DEPENDABOT, RUBYLSP, RUBOCOP]
