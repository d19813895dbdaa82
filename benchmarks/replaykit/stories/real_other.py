"""Dev stories built from real public material in the Ruby, PHP, C#, Swift and Elixir ecosystems.

Each story's user turns are taken from the instruction files (CLAUDE.md, AGENTS.md,
copilot-instructions.md, agent instruction folders), their git history, commit messages and
project docs of the repository its ``sources`` name; people's names and machine paths are
replaced with neutral placeholders. The lessons and their changes follow those files' real
history (a renamed solution file, a tool replaced by another, a deprecated template language).
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
# C#: a message-dispatch library in the style of Paramore.Brighter
# ---------------------------------------------------------------------------------------------

BRIGHTER = Project("brighter", "csharp", {
    "Brighter.sln": (
        "Microsoft Visual Studio Solution File, Format Version 12.00\n"
        "# Visual Studio Version 17\n"
        'Project("{9A19103F-16F7-4668-BE54-9A1E7A4F7556}") = "Paramore.Brighter", '
        '"src\\Paramore.Brighter\\Paramore.Brighter.csproj", "{1F6E2B0A}"\nEndProject\n'
        'Project("{9A19103F-16F7-4668-BE54-9A1E7A4F7556}") = "Paramore.Brighter.Core.Tests", '
        '"tests\\Paramore.Brighter.Core.Tests\\Paramore.Brighter.Core.Tests.csproj", '
        '"{7C4D21E3}"\nEndProject\n'
    ),
    "Directory.Packages.props": (
        "<Project>\n  <PropertyGroup>\n"
        "    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>\n"
        "  </PropertyGroup>\n  <ItemGroup>\n"
        '    <PackageVersion Include="Microsoft.Extensions.Logging.Abstractions" '
        'Version="9.0.0" />\n'
        '    <PackageVersion Include="xunit" Version="2.9.2" />\n'
        "  </ItemGroup>\n</Project>\n"
    ),
    "src/Paramore.Brighter/Paramore.Brighter.csproj": (
        '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n'
        "    <TargetFramework>net9.0</TargetFramework>\n    <Nullable>enable</Nullable>\n"
        "  </PropertyGroup>\n  <ItemGroup>\n"
        '    <PackageReference Include="Microsoft.Extensions.Logging.Abstractions" />\n'
        "  </ItemGroup>\n</Project>\n"
    ),
    "src/Paramore.Brighter/CommandProcessor.cs": (
        "namespace Paramore.Brighter;\n\n"
        "public class CommandProcessor : IAmACommandProcessor\n{\n"
        "    private readonly IAmAHandlerRegistry _registry;\n\n"
        "    public CommandProcessor(IAmAHandlerRegistry registry)\n    {\n"
        "        _registry = registry;\n    }\n\n"
        "    public void Send<T>(T command) where T : class, IRequest\n    {\n"
        "        var handler = _registry.Get<T>();\n        handler.Handle(command);\n    }\n}\n"
    ),
    "src/Paramore.Brighter.Outbox.Sqlite/SqliteOutbox.cs": (
        "namespace Paramore.Brighter.Outbox.Sqlite;\n\n"
        "public class SqliteOutbox : IAmAnOutboxSync<Message>\n{\n"
        "    private const int MaxRetryCount = 3;\n\n"
        "    public void Add(Message message)\n    {\n        // insert into the outbox table\n"
        "    }\n}\n"
    ),
    "tests/Paramore.Brighter.Core.Tests/Paramore.Brighter.Core.Tests.csproj": (
        '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n'
        "    <TargetFramework>net9.0</TargetFramework>\n  </PropertyGroup>\n"
        '  <ItemGroup>\n    <PackageReference Include="xunit" />\n  </ItemGroup>\n</Project>\n'
    ),
    "tests/Paramore.Brighter.Core.Tests/CommandProcessors/"
    "When_sending_a_command_should_call_the_handler.cs": (
        "namespace Paramore.Brighter.Core.Tests.CommandProcessors;\n\n"
        "public class CommandProcessorSendTests\n{\n    [Fact]\n"
        "    public void When_sending_a_command_should_call_the_handler()\n    {\n"
        "        //Arrange\n        var handler = new MyCommandHandler();\n"
        "        //Act\n        new CommandProcessor(new HandlerRegistry(handler))"
        ".Send(new MyCommand());\n"
        "        //Assert\n        Assert.True(handler.Called);\n    }\n}\n"
    ),
})

DOTNET_TEST_PASS = (
    "  Determining projects to restore...\n"
    "  All projects are up-to-date for restore.\n"
    "  Paramore.Brighter -> /work/brighter/src/Paramore.Brighter/bin/Debug/net9.0/"
    "Paramore.Brighter.dll\n"
    "  Paramore.Brighter.Core.Tests -> /work/brighter/tests/Paramore.Brighter.Core.Tests/bin/"
    "Debug/net9.0/Paramore.Brighter.Core.Tests.dll\n"
    "Test run for /work/brighter/tests/Paramore.Brighter.Core.Tests/bin/Debug/net9.0/"
    "Paramore.Brighter.Core.Tests.dll (.NETCoreApp,Version=v9.0)\n"
    "VSTest version 17.12.0 (x64)\n\n"
    "Starting test execution, please wait...\n"
    "A total of 1 test files matched the specified pattern.\n\n"
    "Passed!  - Failed:     0, Passed:  1215, Skipped:     3, Total:  1218, Duration: 41 s - "
    "Paramore.Brighter.Core.Tests.dll (net9.0)"
)
DOTNET_BUILD_OK = (
    "  Determining projects to restore...\n"
    "  All projects are up-to-date for restore.\n"
    "  Paramore.Brighter -> /work/brighter/src/Paramore.Brighter/bin/Debug/net9.0/"
    "Paramore.Brighter.dll\n"
    "  Paramore.Brighter.Outbox.Sqlite -> /work/brighter/src/Paramore.Brighter.Outbox.Sqlite/"
    "bin/Debug/net9.0/Paramore.Brighter.Outbox.Sqlite.dll\n\n"
    "Build succeeded.\n    0 Warning(s)\n    0 Error(s)\n\nTime Elapsed 00:01:12.48"
)

BRIGHTER_STORY = Story(
    id="dv-cs-brighter-1",
    title="Test naming, a macOS .gitignore trap, central package versions, and the move "
          "from Brighter.sln to Brighter.slnx",
    project=BRIGHTER,
    sources=("BrighterCommand/Brighter",),
    lessons=(
        lesson("build-sln", "command",
               "Build the whole solution with `dotnet build Brighter.sln`",
               r"re:Brighter\.sln(?!x)"),
        lesson("build-slnx", "command",
               "The solution was migrated to SLNX: build with `dotnet build Brighter.slnx` "
               "(Brighter.sln is gone)",
               r"re:Brighter\.slnx"),
        lesson("test-naming", "convention",
               "Name test methods When_[condition]_should_[expected_behavior], prefer one test "
               "case per file, and name the file after the test method",
               r"re:When_\S*should_"),
        lesson("test-class-naming", "convention",
               "Test classes are named [Behavior]Tests (e.g. CommandProcessorPostBoxBulkClear"
               "AsyncTests); the When_ form is for method and file names only, never classes",
               r"re:Behavior\W{0,2}Tests", "class"),
        lesson("const-caps", "convention",
               "A const uses All Caps with underscores, e.g. MAX_RETRY_COUNT (this replaces the "
               "Microsoft naming convention)",
               "const", "re:all caps|MAX_RETRY_COUNT|upper.?case"),
        lesson("central-packages", "convention",
               "Package versions live in Directory.Packages.props (<PackageVersion>); project "
               "files reference packages without a Version",
               "Directory.Packages.props"),
        lesson("sqlite-ignore", "gotcha",
               "`*.sqlite` in .gitignore matches the Paramore.Brighter.*.Sqlite directories on "
               "macOS (case-insensitive FS): add new files there with `git add -f`, don't "
               "change .gitignore",
               "re:add -f|--force", "sqlite"),
        lesson("no-ivt", "decision",
               "Never use InternalsVisibleTo to expose internal classes for testing; test "
               "through the public API",
               "InternalsVisibleTo"),
        lesson("primary-ctor", "convention",
               "Primary constructors are the default for new classes with constructor-injected "
               "dependencies; traditional constructors only for complex initialization or "
               "multiple constructors",
               "primary constructor"),
        lesson("no-issue-refs", "convention",
               "Do not put links or references to issues or PRs (e.g. `(issue #4089)`) in code "
               "or XML doc comments; traceability lives in git history and the ADR",
               r"re:issues?\s*(or|/)\s*PRs?|issue #\d+", "comment"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: BrighterCommand/Brighter docs/claude_instructions/build_and_development.md,
            # docs/agent_instructions/testing.md (2025-10)
            User("hi! first time in this repo with you. quick orientation: build the entire "
                 "solution with `dotnet build Brighter.sln`, tests for the core are "
                 "`dotnet test tests/Paramore.Brighter.Core.Tests/`. Today I'd like a test for "
                 "publishing an event to two handlers.", states="build-sln"),
            Say("Got it. I'll look at how the existing command processor tests are laid out "
                "first."),
            Read("tests/Paramore.Brighter.Core.Tests/CommandProcessors/"
                 "When_sending_a_command_should_call_the_handler.cs"),
            # source: BrighterCommand/Brighter docs/agent_instructions/testing.md (864704bc2)
            User("yeah follow that one. Name test methods in the format: "
                 "When_[condition]_should_[expected_behavior]. Prefer a test case per file, and "
                 "name the test file for the test method in the file.", states="test-naming"),
            Write("tests/Paramore.Brighter.Core.Tests/CommandProcessors/"
                  "When_publishing_an_event_should_call_every_handler.cs",
                  "namespace Paramore.Brighter.Core.Tests.CommandProcessors;\n\n"
                  "public class CommandProcessorPublishTests\n{\n    [Fact]\n"
                  "    public void When_publishing_an_event_should_call_every_handler()\n    {\n"
                  "        //Arrange\n        var first = new MyEventHandler();\n"
                  "        var second = new MyOtherEventHandler();\n"
                  "        var processor = new CommandProcessor(new HandlerRegistry(first, "
                  "second));\n"
                  "        //Act\n        processor.Publish(new MyEvent());\n"
                  "        //Assert\n        Assert.True(first.Called && second.Called);\n"
                  "    }\n}\n"),
            Bash("dotnet test tests/Paramore.Brighter.Core.Tests/", out=DOTNET_TEST_PASS),
            Commit("Add test: publishing an event calls every handler"),
            User("great, thanks"),
        ), judge={"test-naming": "not_down"}),
        Session(day=3, events=(
            User("next: the sqlite outbox needs a retry helper. put it next to SqliteOutbox."),
            Write("src/Paramore.Brighter.Outbox.Sqlite/SqliteOutboxRetry.cs",
                  "namespace Paramore.Brighter.Outbox.Sqlite;\n\n"
                  "internal sealed class SqliteOutboxRetry\n{\n"
                  "    public bool ShouldRetry(int attempt) => attempt < 3;\n}\n"),
            Bash("git add src/Paramore.Brighter.Outbox.Sqlite/SqliteOutboxRetry.cs",
                 out="The following paths are ignored by one of your .gitignore files:\n"
                     "src/Paramore.Brighter.Outbox.Sqlite\n"
                     "hint: Use -f if you really want to add them.\n"
                     "hint: Turn this message off by running\n"
                     'hint: "git config advice.addIgnoredFile false"',
                 ok=False, exit=1),
            Say("git refuses the new file: the directory "
                "src/Paramore.Brighter.Outbox.Sqlite is reported as ignored. The .gitignore "
                "has `*.sqlite`; should I narrow that pattern?"),
            # source: BrighterCommand/Brighter CLAUDE.md (3277cc7dc, "Git Gotcha")
            User("no, don't touch the .gitignore, the pattern is correct for its purpose. On "
                 "macOS the filesystem is case-insensitive, so `*.sqlite` also matches any "
                 "directory ending in `.Sqlite`. Modifying already-tracked files stages "
                 "normally; for new files in those directories use `git add -f <path>`. "
                 "(someone on the team wanted to rewrite the ignore rule last month, we said no)",
                 states="sqlite-ignore"),
            Bash("git add -f src/Paramore.Brighter.Outbox.Sqlite/SqliteOutboxRetry.cs", out=""),
            Read("src/Paramore.Brighter.Outbox.Sqlite/SqliteOutbox.cs"),
            # source: BrighterCommand/Brighter .agent_instructions/code_style.md
            User("while you're in there: that `MaxRetryCount`. For a const we use an All Caps "
                 "naming convention, with underscores between words, i.e. "
                 "`public const int MAX_RETRY_COUNT = 5;` This replaces rules in the Microsoft "
                 "C# naming convention.", states="const-caps"),
            Edit("src/Paramore.Brighter.Outbox.Sqlite/SqliteOutbox.cs",
                 "    private const int MaxRetryCount = 3;\n",
                 "    private const int MAX_RETRY_COUNT = 3;\n"),
            User("also, just for this PR, skip the docker-compose sqlite integration tests, "
                 "my docker is broken today."),
            Say("Okay, only the core tests this time."),
            Bash("dotnet test tests/Paramore.Brighter.Core.Tests/", out=DOTNET_TEST_PASS),
            Commit("Add retry helper to the sqlite outbox"),
        )),
        Session(day=7, events=(
            User("morning. the outbox should log when it gives up retrying."),
            Say("I need Microsoft.Extensions.Logging in the Sqlite outbox project. I'll add a "
                "PackageReference with Version=\"9.0.0\" to its csproj."),
            # source: BrighterCommand/Brighter .agent_instructions/dependency_management.md
            User("no versions in the csproj please. Use Directory.Packages.props for central "
                 "package management: define each package version there with <PackageVersion /> "
                 "elements, and within the project files reference the packages without "
                 "specifying a version.", states="central-packages"),
            Write("src/Paramore.Brighter.Outbox.Sqlite/Paramore.Brighter.Outbox.Sqlite.csproj",
                  '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n'
                  "    <TargetFramework>net9.0</TargetFramework>\n"
                  "    <Nullable>enable</Nullable>\n  </PropertyGroup>\n  <ItemGroup>\n"
                  '    <PackageReference Include="Microsoft.Extensions.Logging.Abstractions" />\n'
                  "  </ItemGroup>\n</Project>\n"),
            Probe("the retry cap should be configurable later, but for now add a second "
                  "constant for the backoff in milliseconds next to the existing one",
                  needs="const-caps"),
            Edit("src/Paramore.Brighter.Outbox.Sqlite/SqliteOutbox.cs",
                 "    private const int MAX_RETRY_COUNT = 3;\n",
                 "    private const int MAX_RETRY_COUNT = 3;\n"
                 "    private const int RETRY_BACKOFF_MS = 200;\n"),
            Say("To unit test SqliteOutboxRetry directly I could add "
                "[assembly: InternalsVisibleTo(\"Paramore.Brighter.Core.Tests\")]."),
            # source: BrighterCommand/Brighter .agent_instructions/testing.md
            # ("No InternalsVisibleTo")
            User("NEVER use InternalsVisibleTo to expose internal classes for testing. Internal "
                 "classes should emerge as implementation details through refactoring; tests "
                 "always go through the public interface.", states="no-ivt"),
            Bash("dotnet build Brighter.sln", out=DOTNET_BUILD_OK),
            Commit("Add logging when the sqlite outbox stops retrying"),
        ), judge={"build-sln": "not_down"}),
        Session(day=14, events=(
            User("I pulled master, can you build and run the core tests before we continue?"),
            Bash("dotnet build Brighter.sln",
                 out="MSBUILD : error MSB1009: Project file does not exist.\nSwitch: Brighter.sln",
                 ok=False, exit=1),
            # source: BrighterCommand/Brighter commit b6a16f9ca "Migrate Brighter to SLNX (#3980)"
            User("ah right, that's the SLNX migration (#3980) that got merged. Brighter.sln is "
                 "gone, build with `dotnet build Brighter.slnx` from now on.",
                 states="build-slnx", replaces="build-sln"),
            Write("Brighter.slnx",
                  "<Solution>\n  <Folder Name=\"/src/\">\n"
                  '    <Project Path="src/Paramore.Brighter/Paramore.Brighter.csproj" />\n'
                  '    <Project Path="src/Paramore.Brighter.Outbox.Sqlite/'
                  'Paramore.Brighter.Outbox.Sqlite.csproj" />\n  </Folder>\n'
                  '  <Folder Name="/tests/">\n'
                  '    <Project Path="tests/Paramore.Brighter.Core.Tests/'
                  'Paramore.Brighter.Core.Tests.csproj" />\n  </Folder>\n</Solution>\n'),
            Bash("dotnet build Brighter.slnx", out=DOTNET_BUILD_OK),
            Bash("dotnet test tests/Paramore.Brighter.Core.Tests/", out=DOTNET_TEST_PASS),
            Commit("Add Brighter.slnx solution file"),
            # source: BrighterCommand/Brighter commit bb52c818b (code_style.md, testing.md)
            User("two clarifications that landed in the guidelines this week. Use primary "
                 "constructors as the default for new classes with constructor-injected "
                 "dependencies, only fall back to traditional constructors when you need complex "
                 "initialization logic or multiple constructors. And name test classes "
                 "`[Behavior]Tests`; the When_ convention is for method names and file names "
                 "only, never class names.", states=("primary-ctor", "test-class-naming")),
            # source: BrighterCommand/Brighter .agent_instructions/code_style.md (61230e6c7)
            User("oh and one more from review: do not put links or references to issues or PRs "
                 "(e.g. `(issue #4089)`) in code or XML doc comments. The traceability lives in "
                 "git history and the ADR, not in the source.", states="no-issue-refs"),
            Say("Noted, I'll keep comments to the why and leave issue numbers to commits."),
        ), judge={"build-slnx": "not_down"}),
        Session(day=20, events=(
            Probe("I'm about to push the outbox work, can you do a full build of everything "
                  "first?", needs="build-slnx"),
            Bash("dotnet build Brighter.slnx", out=DOTNET_BUILD_OK),
            Probe("we need coverage for bulk-clearing the outbox via the post box, async "
                  "version. can you write that test?", needs=("test-naming", "test-class-naming")),
            Write("tests/Paramore.Brighter.Core.Tests/CommandProcessors/"
                  "When_clearing_the_outbox_in_bulk_async_should_post_every_message.cs",
                  "namespace Paramore.Brighter.Core.Tests.CommandProcessors;\n\n"
                  "public class CommandProcessorPostBoxBulkClearAsyncTests\n{\n    [Fact]\n"
                  "    public async Task "
                  "When_clearing_the_outbox_in_bulk_async_should_post_every_message()\n    {\n"
                  "        //Arrange\n        var outbox = new InMemoryOutbox();\n"
                  "        //Act\n        await new OutboxSweeper(outbox).ClearAsync();\n"
                  "        //Assert\n        Assert.Empty(outbox.Outstanding());\n    }\n}\n"),
            Probe("now add an SqliteOutboxSerializer class in the sqlite project that takes an "
                  "ILogger, and get it committed", needs=("primary-ctor", "sqlite-ignore")),
            Write("src/Paramore.Brighter.Outbox.Sqlite/SqliteOutboxSerializer.cs",
                  "namespace Paramore.Brighter.Outbox.Sqlite;\n\n"
                  "public class SqliteOutboxSerializer(ILogger<SqliteOutboxSerializer> logger)\n"
                  "{\n    public string Serialize(Message message) => message.Body.Value;\n}\n"),
            Bash("git add -f src/Paramore.Brighter.Outbox.Sqlite/SqliteOutboxSerializer.cs",
                 out=""),
            Commit("Add bulk clear test and sqlite outbox serializer"),
            Probe("the SqliteOutboxRetry logic is getting hairy, how do we get test coverage "
                  "on it?", needs="no-ivt"),
            Probe("we're bumping Polly for the outbox project, wire it in",
                  needs="central-packages"),
            Edit("Directory.Packages.props",
                 '    <PackageVersion Include="xunit" Version="2.9.2" />\n',
                 '    <PackageVersion Include="xunit" Version="2.9.2" />\n'
                 '    <PackageVersion Include="Polly" Version="8.5.0" />\n'),
            Probe("the SqliteOutbox doc comments are a mess, tidy them before review please",
                  needs="no-issue-refs"),
            Commit("Add Polly to central package versions"),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# Swift: a SwiftUI Mastodon client in the style of IceCubesApp
# ---------------------------------------------------------------------------------------------

ICECUBES = Project("icecubes", "swift", {
    ".swiftformat": "--indent 2\n",
    "IceCubesApp.xcconfig.template": (
        "DEVELOPMENT_TEAM = \nBUNDLE_ID_PREFIX = com.example\n"
    ),
    "Packages/Timeline/Package.swift": (
        "// swift-tools-version:6.0\nimport PackageDescription\n\n"
        "let package = Package(\n  name: \"Timeline\",\n  platforms: [.iOS(.v18)],\n"
        "  products: [.library(name: \"Timeline\", targets: [\"Timeline\"])],\n"
        "  dependencies: [.package(name: \"Env\", path: \"../Env\")],\n"
        "  targets: [\n    .target(name: \"Timeline\", dependencies: [\"Env\"]),\n"
        "    .testTarget(name: \"TimelineTests\", dependencies: [\"Timeline\"]),\n  ]\n)\n"
    ),
    "Packages/Timeline/Sources/Timeline/TimelineView.swift": (
        "import Env\nimport SwiftUI\n\n"
        "public struct TimelineView: View {\n"
        "  @Environment(Client.self) private var client\n"
        "  @State private var viewState: ViewState = .loading\n\n"
        "  enum ViewState {\n    case loading\n    case loaded(statuses: [Status])\n"
        "    case error(Error)\n  }\n\n"
        "  public var body: some View {\n    List {\n      Text(\"Timeline\")\n    }\n  }\n}\n"
    ),
    "Packages/Timeline/Sources/Timeline/TimelineFilter.swift": (
        "public enum TimelineFilter: Hashable {\n  case home\n  case local\n  case federated\n"
        "  case hashtag(tag: String)\n}\n"
    ),
    "Packages/Timeline/Tests/TimelineTests/TimelineFilterTests.swift": (
        "@testable import Timeline\nimport XCTest\n\n"
        "final class TimelineFilterTests: XCTestCase {\n"
        "  func testHashtagFilterIsNotHome() {\n"
        "    XCTAssertNotEqual(TimelineFilter.hashtag(tag: \"swift\"), .home)\n  }\n}\n"
    ),
    "Packages/Env/Sources/Env/Router.swift": (
        "import Observation\nimport SwiftUI\n\n"
        "@MainActor\n@Observable public class RouterPath {\n"
        "  public var path: [RouterDestination] = []\n  public init() {}\n}\n"
    ),
})

XCTEST_PASS = (
    "Test Suite 'All tests' started at 2025-08-28 10:12:03.114.\n"
    "Test Suite 'TimelineTests.xctest' started at 2025-08-28 10:12:03.115.\n"
    "Test Suite 'TimelineFilterTests' started at 2025-08-28 10:12:03.115.\n"
    "Test Case '-[TimelineTests.TimelineFilterTests testHashtagFilterIsNotHome]' passed "
    "(0.002 seconds).\n"
    "Test Case '-[TimelineTests.TimelineFilterTests testEmptyFilteredPageFetchesNext]' passed "
    "(0.004 seconds).\n"
    "Test Suite 'TimelineFilterTests' passed at 2025-08-28 10:12:03.121.\n"
    "\t Executed 14 tests, with 0 failures (0 unexpected) in 0.047 (0.052) seconds\n"
    "** TEST SUCCEEDED **"
)
MCP_BUILD_OK = (
    "✅ iOS Simulator Build build succeeded for scheme IceCubesApp.\n"
    "Next Steps:\n1. Get App Path: get_sim_app_path_name_proj\n"
    "2. Launch the app in the simulator: launch_app_in_simulator"
)

ICECUBES_STORY = Story(
    id="dv-swift-icecubes-1",
    title="No ViewModels, SwiftFormat, and build/test commands that moved to XcodeBuildMCP "
          "and a new simulator",
    project=ICECUBES,
    sources=("Dimillian/IceCubesApp",),
    lessons=(
        lesson("build-16pro", "command",
               "Build the app with XcodeBuildMCP build_sim_name_proj, scheme IceCubesApp, on the "
               "iPhone 16 Pro simulator",
               "re:iPhone 16 Pro", "build_sim|XcodeBuildMCP"),
        lesson("sim-air", "command",
               "Build (and test) on the iPhone Air simulator now, not iPhone 16 Pro",
               "iPhone Air"),
        lesson("test-xcodebuild", "command",
               "Run package tests with `xcodebuild -scheme TimelineTests test` (per-package "
               "schemes AccountTests, ModelsTests, ...) or `swift test` inside Packages/<Name>",
               r"re:xcodebuild -scheme \w*Tests test|swift test"),
        lesson("test-mcp", "command",
               "Run package tests with XcodeBuildMCP on the simulator: session-set-defaults once "
               "(project + simulatorName), then `test_sim scheme: \"TimelineTests\"`",
               "test_sim"),
        lesson("no-viewmodels", "decision",
               "New features must not use ViewModels: views are pure state expressions (@State, "
               "an enum ViewState), business logic lives in services",
               "ViewModel"),
        lesson("env-appwide", "convention",
               "@Environment is for app-wide concerns (Router, Theme, CurrentAccount, Client); "
               "shared state uses @Observable classes",
               "@Environment|Environment", "app-wide|app wide"),
        lesson("swiftformat", "convention",
               "Code is formatted with SwiftFormat, 2-space indentation (config in .swiftformat)",
               "SwiftFormat", "re:2.space|two.space|indent 2"),
        lesson("no-combine", "convention",
               "Use async/await and the .task modifier; avoid Combine unless absolutely necessary",
               "Combine"),
        lesson("available-26", "convention",
               "Minimum deployment stays iOS 18; gate iOS 26-only APIs (Liquid Glass, "
               "glassEffect) behind `#available(iOS 26, *)`",
               r"re:#available\(iOS 26"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: Dimillian/IceCubesApp CLAUDE.md (24cccfad, "Ice Cubes 2.0 + iOS 26")
            User("hey, welcome to Ice Cubes. To build IceCubesApp we use XcodeBuildMCP: "
                 "`build_sim_name_proj` with scheme IceCubesApp and simulatorName \"iPhone 16 "
                 "Pro\". For package tests: `xcodebuild -scheme TimelineTests test` (there's "
                 "AccountTests, ModelsTests, NetworkTests, EnvTests too), or `swift test` inside "
                 "Packages/[PackageName].", states=("build-16pro", "test-xcodebuild")),
            User("first thing: the hashtag timeline needs a loading and error state."),
            Say("I could add a TimelineHashtagViewModel that owns the loading state and the "
                "fetch."),
            # source: Dimillian/IceCubesApp CLAUDE.md (9747b3de, "No ViewModels")
            User("no. The codebase contains legacy MVVM patterns, but new features should NOT "
                 "use ViewModels. Views are pure state expressions: @State plus an enum for view "
                 "states (loading, loaded, error), .task(id:) for side effects, business logic "
                 "belongs in services. When views get complex, split into smaller subviews, "
                 "never reach for a ViewModel as the solution.", states="no-viewmodels"),
            Read("Packages/Timeline/Sources/Timeline/TimelineView.swift"),
            Edit("Packages/Timeline/Sources/Timeline/TimelineView.swift",
                 "    List {\n      Text(\"Timeline\")\n    }\n",
                 "    Group {\n      switch viewState {\n      case .loading:\n"
                 "        ProgressView()\n      case .loaded(let statuses):\n"
                 "        StatusList(statuses: statuses)\n      case .error(let error):\n"
                 "        ErrorView(error: error)\n      }\n    }\n"
                 "    .task { await loadTimeline() }\n"),
            Bash("xcodebuild -scheme TimelineTests test", out=XCTEST_PASS),
            # source: Dimillian/IceCubesApp CLAUDE.md ("Code Formatting")
            User("looks right. format it before committing, the project uses SwiftFormat with "
                 "2-space indentation, configuration is in `.swiftformat`.",
                 states="swiftformat"),
            Bash("swiftformat Packages/Timeline", out="Running SwiftFormat...\n"
                 "SwiftFormat completed in 0.21s.\n1/3 files formatted."),
            Commit("Timeline: add loading and error states without a view model"),
        ), judge={"test-xcodebuild": "not_down"}),
        Session(day=2, events=(
            User("can we refresh the timeline when the app comes back to the foreground?"),
            Say("I could observe the notification with a Combine publisher and sink into the "
                "view state."),
            # source: Dimillian/IceCubesApp CLAUDE.md (24cccfad, "Modern Async Patterns")
            User("use async/await as the default for asynchronous operations and leverage the "
                 ".task modifier for lifecycle-aware async work. Avoid Combine unless absolutely "
                 "necessary.", states="no-combine"),
            Edit("Packages/Timeline/Sources/Timeline/TimelineView.swift",
                 "    .task { await loadTimeline() }\n",
                 "    .task { await loadTimeline() }\n"
                 "    .task(id: scenePhase) { if scenePhase == .active { await loadTimeline() } "
                 "}\n"),
            Say("Where should the refresh interval setting live? I was going to pass a "
                "TimelineSettings object through @Environment."),
            # source: Dimillian/IceCubesApp CLAUDE.md (24cccfad, "Native State Management")
            User("@Observable for shared state (preferred for new code), @Environment for "
                 "dependency injection of app-wide concerns like Router, Theme, CurrentAccount, "
                 "Client. A timeline-only setting isn't app-wide, keep it local to the feature.",
                 states="env-appwide"),
            Bash("xcodebuild -scheme TimelineTests test", out=XCTEST_PASS),
            Commit("Timeline: refresh when the scene becomes active"),
        )),
        Session(day=9, events=(
            # source: Dimillian/IceCubesApp CLAUDE.md (24cccfad, "iOS 26 SDK Integration")
            User("we're on the iOS 26 SDK now while keeping iOS 18 as the minimum deployment "
                 "target. Use `#available(iOS 26, *)` checks when adopting iOS 26+ APIs. Can you "
                 "give the compose button the Liquid Glass style?", states="available-26"),
            Edit("Packages/Timeline/Sources/Timeline/TimelineView.swift",
                 "    .task { await loadTimeline() }\n",
                 "    .toolbar {\n      if #available(iOS 26, *) {\n"
                 "        Button(\"Post\", action: compose).buttonStyle(.glass)\n"
                 "      } else {\n        Button(\"Post\", action: compose)\n      }\n    }\n"
                 "    .task { await loadTimeline() }\n"),
            Bash("mcp__XcodeBuildMCP__build_sim_name_proj projectPath: \"<project>/IceCubesApp."
                 "xcodeproj\" scheme: \"IceCubesApp\" simulatorName: \"iPhone 16 Pro\"",
                 out=MCP_BUILD_OK),
            Commit("Compose button uses the glass style on iOS 26"),
            User("thanks. btw I'm off thursday, no rush on anything."),
        ), judge={"build-16pro": "not_down"}),
        Session(day=14, events=(
            # source: Dimillian/IceCubesApp commit 4564139d
            # ("Update iOS simulator name to iPhone Air in docs")
            User("FYI I deleted the old simulators after updating Xcode; we build on the "
                 "iPhone Air simulator now.", states="sim-air", replaces="build-16pro"),
            Bash("mcp__XcodeBuildMCP__build_sim_name_proj projectPath: \"<project>/IceCubesApp."
                 "xcodeproj\" scheme: \"IceCubesApp\" simulatorName: \"iPhone Air\"",
                 out=MCP_BUILD_OK),
            Probe("next, the notifications tab needs pull to refresh and an empty state. how "
                  "would you structure it?", needs=("no-viewmodels", "no-combine")),
            Say("A NotificationsView with @State notifications and an enum state, .task and "
                ".refreshable calling the client, no view model and no Combine."),
        ), judge={"sim-air": "not_down"}),
        Session(day=40, events=(
            # source: Dimillian/IceCubesApp CLAUDE.md (fba8556a, "Running Tests")
            User("heads-up on tests: run package tests via XcodeBuildMCP on the simulator now. "
                 "Set defaults once per session with `session-set-defaults` (projectPath and "
                 "simulatorName \"iPhone Air\"), then run any package test scheme with "
                 "`test_sim scheme: \"TimelineTests\"`.",
                 states="test-mcp", replaces="test-xcodebuild"),
            User("today's bug: timeline auto-fetch stops when every status of a page is "
                 "filtered out."),
            Edit("Packages/Timeline/Sources/Timeline/TimelineFilter.swift",
                 "  case hashtag(tag: String)\n}\n",
                 "  case hashtag(tag: String)\n\n"
                 "  var fetchesNextPageWhenFilteredEmpty: Bool { true }\n}\n"),
            Bash("mcp__XcodeBuildMCP__test_sim scheme: \"TimelineTests\"", out=XCTEST_PASS),
            Commit("Improve timeline auto-fetch for filtered empty results"),
        ), judge={"test-mcp": "not_down"}),
        Session(day=44, events=(
            Probe("I touched the TimelineFilter enum again, run its tests please",
                  needs="test-mcp"),
            Bash("mcp__XcodeBuildMCP__test_sim scheme: \"TimelineTests\"", out=XCTEST_PASS),
            Probe("the account header avatar is clipped in the new layout, can you fix it and "
                  "make sure the app still builds?", needs="sim-air"),
            Bash("mcp__XcodeBuildMCP__build_sim_name_proj projectPath: \"<project>/IceCubesApp."
                 "xcodeproj\" scheme: \"IceCubesApp\" simulatorName: \"iPhone Air\"",
                 out=MCP_BUILD_OK),
            Probe("add a per-list 'hide boosts' toggle. where should that setting object live "
                  "and how do the views get it?", needs="env-appwide"),
            Probe("the new lists screen should get the glass toolbar too", needs="available-26"),
            Probe("clean up the whitespace in the files you touched before we commit",
                  needs="swiftformat"),
            Bash("swiftformat Packages/Timeline", out="Running SwiftFormat...\n"
                 "SwiftFormat completed in 0.19s.\n0/3 files formatted."),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# Ruby: a Rails + engines learning platform in the style of xikolo-core
# ---------------------------------------------------------------------------------------------

XIKOLO = Project("xikolo", "ruby", {
    "Gemfile": (
        "source 'https://rubygems.org'\n\nruby file: '.ruby-version'\n\n"
        "gem 'rails', '~> 7.2'\ngem 'pg'\ngem 'slim-rails'\ngem 'acfs'\ngem 'restify'\n\n"
        "group :test do\n  gem 'rspec-rails'\n  gem 'factory_bot_rails'\n  gem 'webmock'\nend\n"
    ),
    ".ruby-version": "3.4.4\n",
    "config/routes.rb": (
        "Rails.application.routes.draw do\n  resources :courses, only: %i[index show]\nend\n"
    ),
    "app/controllers/courses_controller.rb": (
        "# frozen_string_literal: true\n\n"
        "class CoursesController < ApplicationController\n"
        "  def show\n    @course = Course.find(params[:id])\n  end\nend\n"
    ),
    "app/views/courses/show.html.slim": (
        ".course-page\n  h1 = @course.title\n  = render 'courses/details', course: @course\n"
    ),
    "config/locales/en.yml": (
        "en:\n  course:\n    show:\n      enroll: \"Enroll now\"\n"
    ),
    "spec/requests/courses_spec.rb": (
        "# frozen_string_literal: true\n\nrequire 'spec_helper'\n\n"
        "describe 'Courses: Show', type: :request do\n"
        "  let(:course) { create(:course) }\n\n"
        "  it 'renders the course page' do\n"
        "    get \"/courses/#{course.id}\"\n    expect(response).to have_http_status :ok\n"
        "  end\nend\n"
    ),
})

RSPEC_PASS = (
    "Randomized with seed 41234\n"
    "............................\n\n"
    "Finished in 4.87 seconds (files took 7.12 seconds to load)\n"
    "28 examples, 0 failures\n\nRandomized with seed 41234"
)

XIKOLO_STORY = Story(
    id="dv-rb-xikolo-1",
    title="Translation keys, data migrations, Restify over Acfs, foreign keys allowed after "
          "the database merge, and Slim views deprecated for ERB",
    project=XIKOLO,
    sources=("openHPI/xikolo-core",),
    lessons=(
        lesson("slim-views", "convention",
               "Views are written in the Slim template language (*.html.slim); there is no "
               "linter set up for it",
               "slim", r"re:\.html\.slim|slim template"),
        lesson("erb-views", "convention",
               "Slim is deprecated: new views use Rails-standard *.html.erb templates",
               "erb"),
        lesson("test-cmd", "command",
               "Run the specs with `bin/rspec` (or `bundle exec rspec`)",
               "bin/rspec|bundle exec rspec"),
        lesson("i18n-keys", "convention",
               "Use fully qualified translation keys with a symbol, t(:'course.show.enroll'), in "
               "all views; the short form is cumbersome to refactor",
               "fully qualified|fully-qualified", "key"),
        lesson("restify", "decision",
               "When adding a feature to a service that still uses Acfs, use Restify instead, "
               "so the Acfs migration workload does not grow",
               "Restify", "Acfs"),
        lesson("no-fk", "fact",
               "No foreign keys between service tables: each service had its own database",
               "foreign key", "re:own database|separate database"),
        lesson("fk-now", "decision",
               "The databases have been consolidated, so foreign key constraints are now "
               "recommended",
               "foreign key", "re:recommended|consolidated"),
        lesson("mig-models", "convention",
               "Data migrations define their own model classes inside the migration "
               "(class CourseVisual < ActiveRecord::Base) because real model names may change",
               "migration", r"re:mock|inside the migration|< ActiveRecord::Base"),
        lesson("mig-batches", "convention",
               "In data migrations process records in batches: find_each(batch_size: 50) or "
               "in_batches instead of .where(...).each; use change_table ... bulk: true",
               "find_each|in_batches"),
        lesson("ts-new", "convention",
               "Use TypeScript for newly added frontend scripts, with kebab-case file names "
               "(e.g. kebab-script.ts)",
               "TypeScript", "kebab"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: openHPI/xikolo-core .github/copilot-instructions.md,
            # docs/app/development/frontend/html_styleguide.md (2024-12 version)
            User("hi, we're adding an 'enroll' banner to the course page today. Specs run with "
                 "`bin/rspec`. To write HTML, we use the slim template language in our "
                 "project, so the page is app/views/courses/show.html.slim. There is currently "
                 "no linter set up for it, so be careful with indentation.",
                 states=("test-cmd", "slim-views")),
            Read("app/views/courses/show.html.slim"),
            Edit("app/views/courses/show.html.slim",
                 "  h1 = @course.title\n",
                 "  h1 = @course.title\n  .course-banner\n    = t('.enroll')\n"),
            # source: openHPI/xikolo-core docs/app/development/frontend/html_styleguide.md
            User("please use fully qualified keys in all views. The short form is convenient, "
                 "but also very cumbersome to refactor, e.g. when renaming or moving views. And "
                 "use a symbol, t(:'course.show.enroll'), so the identifier isn't parsed on "
                 "every template render.", states="i18n-keys"),
            Edit("app/views/courses/show.html.slim",
                 "    = t('.enroll')\n",
                 "    = t(:'course.show.enroll')\n"),
            Bash("bin/rspec spec/requests/courses_spec.rb", out=(
                "Randomized with seed 2231\n.\n\n"
                "Finished in 0.91 seconds (files took 6.80 seconds to load)\n"
                "1 example, 0 failures")),
            Commit("Add enroll banner to course page"),
        ), judge={"test-cmd": "not_down"}),
        Session(day=4, events=(
            # source: openHPI/xikolo-core docs/app/development/best_practices/database_migrations.md
            User("next up: move the course visuals out of `courses.visual_uri` into a "
                 "dedicated course_visuals table and copy the data over."),
            Write("db/migrate/20250123101500_create_course_visuals.rb",
                  "# frozen_string_literal: true\n\n"
                  "class CreateCourseVisuals < ActiveRecord::Migration[7.2]\n  def change\n"
                  "    create_table :course_visuals, id: :uuid do |t|\n"
                  "      t.uuid :course_id, null: false, index: {unique: true}\n"
                  "      t.string :image_uri\n      t.timestamps\n    end\n  end\nend\n"),
            Say("Should course_id get a foreign key to courses?"),
            # source: openHPI/xikolo-core docs/app/development/best_practices/project_guidelines.md
            # ("Historically ... each service had its own database")
            User("no foreign keys there. The course service and the web app each had their own "
                 "database, so there's no referential integrity across them; just the index.",
                 states="no-fk"),
            Write("db/migrate/20250123102000_migrate_course_attributes_to_course_visual.rb",
                  "# frozen_string_literal: true\n\n"
                  "class MigrateCourseAttributesToCourseVisual < ActiveRecord::Migration[7.2]\n"
                  "  def up\n    Course.where.not(visual_uri: nil).each do |course|\n"
                  "      CourseVisual.create!(course_id: course.id, image_uri: course.visual_uri)\n"
                  "    end\n  end\nend\n"),
            # source: openHPI/xikolo-core docs/app/development/best_practices/database_migrations.md
            User("two things on the data migration. Mock the used models in the migration, as "
                 "their names may change in the future and then this migration wouldn't work "
                 "anymore, e.g. `class CourseVisual < ActiveRecord::Base` inside the migration "
                 "class. And data migrations might take very long: process records in batches, "
                 "`find_each(batch_size: 50)` or `in_batches`, replace `.where(...).each` with "
                 "`.find_each`.", states=("mig-models", "mig-batches")),
            Write("db/migrate/20250123102000_migrate_course_attributes_to_course_visual.rb",
                  "# frozen_string_literal: true\n\n"
                  "class MigrateCourseAttributesToCourseVisual < ActiveRecord::Migration[7.2]\n"
                  "  class Course < ActiveRecord::Base\n  end\n\n"
                  "  class CourseVisual < ActiveRecord::Base\n"
                  "    belongs_to :course, class_name: 'Course'\n  end\n\n"
                  "  def up\n    Course.where.not(visual_uri: nil).find_each(batch_size: 50) do "
                  "|course|\n"
                  "      CourseVisual.create!(course_id: course.id, image_uri: course.visual_uri)\n"
                  "    end\n  end\nend\n"),
            Bash("bin/rails db:migrate && bin/rspec", out=(
                "== 20250123101500 CreateCourseVisuals: migrating ==========================\n"
                "-- create_table(:course_visuals, {id: :uuid})\n   -> 0.0121s\n"
                "== 20250123101500 CreateCourseVisuals: migrated (0.0122s) =================\n\n"
                "== 20250123102000 MigrateCourseAttributesToCourseVisual: migrating ========\n"
                "== 20250123102000 MigrateCourseAttributesToCourseVisual: migrated (0.4410s) \n\n"
                + RSPEC_PASS)),
            Commit("Move course visuals into course_visuals"),
        )),
        Session(day=9, events=(
            User("the banner should show the enrollment count. that's in the course service, "
                 "which still talks through the Acfs resources."),
            Say("I'll add an `enrollment_count` attribute to the Acfs Course resource."),
            # source: openHPI/xikolo-core docs/app/development/best_practices/project_guidelines.md
            User("please don't. The goal is to replace Acfs resources with Restify. When adding "
                 "a feature to a service that still uses Acfs, use Restify to avoid increasing "
                 "the migration workload.", states="restify"),
            Write("app/models/course_stats.rb",
                  "# frozen_string_literal: true\n\n"
                  "class CourseStats\n  def self.for(course_id)\n"
                  "    Xikolo.api(:course).value!.rel(:stats).get({course_id:}).value!\n"
                  "  end\nend\n"),
            Probe("add a second line to the banner with the enrollment count, with its own "
                  "translation", needs=("i18n-keys", "slim-views")),
            Edit("app/views/courses/show.html.slim",
                 "    = t(:'course.show.enroll')\n",
                 "    = t(:'course.show.enroll')\n"
                 "    p = t(:'course.show.enrollment_count', count: @stats.enrollments)\n"),
            Probe("ok, does everything still pass?", needs="test-cmd"),
            Bash("bin/rspec", out=RSPEC_PASS),
            Commit("Show enrollment count in course banner via Restify"),
        )),
        Session(day=30, events=(
            # source: openHPI/xikolo-core docs/app/development/best_practices/project_guidelines.md
            # (added in release-410001)
            User("news from the guidelines page: since the databases have been consolidated, "
                 "the old limitation is gone and using foreign keys is now recommended. While "
                 "it's not required, add foreign key constraints to guarantee referential "
                 "integrity.", states="fk-now", replaces="no-fk"),
            User("also, the banner needs a dismiss button that remembers the choice in "
                 "localStorage."),
            # source: openHPI/xikolo-core docs/app/development/frontend/js_styleguide.md
            User("for the script: use TypeScript for newly added scripts, and as a file naming "
                 "convention we use kebab-case, e.g. `kebab-script.ts`.", states="ts-new"),
            Write("app/javascript/course-banner-dismiss.ts",
                  "const KEY = 'course-banner-dismissed';\n\n"
                  "export default function init(el: HTMLElement): void {\n"
                  "  if (localStorage.getItem(KEY)) el.hidden = true;\n"
                  "  el.querySelector('[data-behavior~=\"dismiss\"]')?.addEventListener("
                  "'click', () => {\n"
                  "    localStorage.setItem(KEY, '1');\n    el.hidden = true;\n  });\n}\n"),
            Bash("bin/rspec", out=RSPEC_PASS),
            Commit("Add dismiss button to course banner"),
        )),
        Session(day=45, events=(
            # source: openHPI/xikolo-core docs/app/development/frontend/html_styleguide.md
            # (release-413899)
            User("heads up: we decided to move away from Slim. It is not very beginner-friendly "
                 "and lacks dev-tooling support, and nowadays we use components with less complex "
                 "views. For new views, please use Rails-standard `*.html.erb` templates.",
                 states="erb-views", replaces="slim-views"),
            Say("Understood. Existing .slim views stay until someone touches them."),
            # source: openHPI/xikolo-core .github/copilot-instructions.md (release-430128)
            User("right, and refactor existing views to erb if possible when you're in them "
                 "anyway."),
        )),
        Session(day=50, events=(
            Probe("we need a new page listing a learner's certificates, route, controller and "
                  "view please", needs=("erb-views", "i18n-keys")),
            Edit("config/routes.rb",
                 "  resources :courses, only: %i[index show]\n",
                 "  resources :courses, only: %i[index show]\n"
                 "  resources :certificates, only: %i[index]\n"),
            Write("app/views/certificates/index.html.erb",
                  "<div class=\"certificates\">\n"
                  "  <h1><%= t(:'certificates.index.title') %></h1>\n"
                  "  <%= render Certificates::List.new(certificates: @certificates) %>\n"
                  "</div>\n"),
            Probe("certificates need a table too, referencing courses and users. write the "
                  "migration", needs="fk-now"),
            Write("db/migrate/20250912090000_create_certificates.rb",
                  "# frozen_string_literal: true\n\n"
                  "class CreateCertificates < ActiveRecord::Migration[7.2]\n  def change\n"
                  "    create_table :certificates, id: :uuid do |t|\n"
                  "      t.references :course, type: :uuid, null: false, foreign_key: true\n"
                  "      t.references :user, type: :uuid, null: false, foreign_key: true\n"
                  "      t.timestamps\n    end\n  end\nend\n"),
            Probe("and backfill certificates for everyone who already finished a course",
                  needs=("mig-models", "mig-batches")),
            Probe("the certificates page needs a 'copy share link' button", needs="ts-new"),
            Probe("the share link needs the course title from the course service, which is "
                  "still on Acfs", needs="restify"),
        )),
    ),
)

# ---------------------------------------------------------------------------------------------
# PHP: a static analyser in the style of phpstan-src
# ---------------------------------------------------------------------------------------------

PHPSTAN = Project("phpstan-src", "php", {
    "composer.json": (
        '{\n    "name": "phpstan/phpstan-src",\n    "require": {\n'
        '        "php": "^8.1",\n        "nikic/php-parser": "^4.17",\n'
        '        "nette/di": "^3.1"\n    },\n    "require-dev": {\n'
        '        "brianium/paratest": "^6.11",\n        "php-parallel-lint/php-parallel-lint": '
        '"^1.3"\n    },\n    "autoload": {"psr-4": {"PHPStan\\\\": "src/"}}\n}\n'
    ),
    "Makefile": (
        ".PHONY: tests\n\nbuild: cs tests phpstan\n\n"
        "tests:\n\tphp vendor/bin/paratest --runner WrapperRunner --no-coverage\n\n"
        "lint:\n\tphp vendor/bin/parallel-lint --colors \\\n"
        "\t\t--exclude tests/PHPStan/Analyser/data \\\n"
        "\t\t--exclude tests/PHPStan/Rules/Keywords/data/declare-strict-nonsense.php \\\n"
        "\t\tsrc tests\n\n"
        "composer-require-checker:\n\tphp build/composer-require-checker.phar check "
        "--config-file $(CURDIR)/build/composer-require-checker.json\n\n"
        "phpstan:\n\tphp bin/phpstan clear-result-cache -q && php -d memory_limit=448M "
        "bin/phpstan\n"
    ),
    "src/Type/Php/StrRepeatFunctionReturnTypeExtension.php": (
        "<?php declare(strict_types = 1);\n\nnamespace PHPStan\\Type\\Php;\n\n"
        "final class StrRepeatFunctionReturnTypeExtension implements "
        "DynamicFunctionReturnTypeExtension\n{\n\n"
        "\tpublic function getTypeFromFunctionCall(FuncCall $functionCall, Scope $scope): "
        "?Type\n\t{\n"
        "\t\t$inputType = $scope->getType($functionCall->getArgs()[0]->value);\n"
        "\t\tif ($inputType instanceof ConstantStringType && $inputType->getValue() === '') "
        "{\n\t\t\treturn new ConstantStringType('');\n\t\t}\n\n"
        "\t\treturn new UnionType([new StringType(), new ConstantStringType('')]);\n"
        "\t}\n\n}\n"
    ),
    "tests/PHPStan/Analyser/NodeScopeResolverTest.php": (
        "<?php declare(strict_types = 1);\n\nnamespace PHPStan\\Analyser;\n\n"
        "class NodeScopeResolverTest extends TypeInferenceTestCase\n{\n\n"
        "\tpublic function dataFileAsserts(): iterable\n\t{\n"
        "\t\tyield from $this->gatherAssertTypes(__DIR__ . '/data/implode.php');\n"
        "\t\tif (PHP_VERSION_ID >= 80100) {\n"
        "\t\t\tyield from $this->gatherAssertTypes(__DIR__ . '/data/bug-9778.php');\n"
        "\t\t}\n\t}\n\n}\n"
    ),
    "tests/PHPStan/Analyser/data/implode.php": (
        "<?php\n\nnamespace ImplodeFunctionReturn;\n\nuse function PHPStan\\Testing\\assertType;"
        "\n\nfunction (): void {\n\tassertType(\"''\", implode(',', []));\n};\n"
    ),
})

PARATEST_PASS = (
    "php vendor/bin/paratest --runner WrapperRunner --no-coverage\n"
    "ParaTest v6.11.1 upon PHPUnit 9.6.15 by Sebastian Bergmann and contributors.\n\n"
    "Processes:     8\nRuntime:       PHP 8.2.13\n\n"
    "...............................................................  63 / 12794 (  0%)\n"
    "[...]\n"
    "..........................................................     12794 / 12794 (100%)\n\n"
    "Time: 03:41.207, Memory: 74.00 MB\n\n"
    "OK, but incomplete, skipped, or risky tests!\n"
    "Tests: 12794, Assertions: 71133, Skipped: 96."
)
LINT_FAIL = (
    "php vendor/bin/parallel-lint --colors --exclude tests/PHPStan/Analyser/data [...] src tests"
    "\nPHP 8.2.13 | 10 parallel jobs\n"
    "............................................................  1260/9632 (13 %)\n"
    "[...]\n"
    "....X......................................................   9632/9632 (100 %)\n\n\n"
    "Checked 9632 files in 14.1 seconds\nSyntax error found in 1 file\n\n"
    "------------------------------------------------------------\n"
    "Parse error: tests/PHPStan/Rules/Keywords/data/declare-inline-html.php:2\n"
    "    1| <html>\n  > 2| <?php declare(strict_types=1);\n"
    "    3| </html>\n"
    "Fatal error: strict_types declaration must be the very first statement in the script\n"
    "make: *** [Makefile:6: lint] Error 1"
)

PHPSTAN_STORY = Story(
    id="dv-php-phpstan-1",
    title="Type checks without instanceof, lint exclusions for invalid test data, a dependency "
          "checker replaced, and type-inference tests moved to nsrt/",
    project=PHPSTAN,
    sources=("phpstan/phpstan-src",),
    lessons=(
        lesson("make-tests", "command",
               "Run the test suite with `make tests` (paratest, WrapperRunner)",
               "make tests"),
        lesson("no-instanceof", "convention",
               "Never check types with `$type instanceof StringType`; use `$type->isString()"
               "->yes()` or `(new StringType())->isSuperTypeOf($type)`, which handle unions and "
               "accessory intersections",
               "instanceof", r"re:isSuperTypeOf|is[A-Z]\w*\(\)->yes"),
        lesson("type-combinator", "convention",
               "Build unions/intersections with TypeCombinator::union()/intersect(), never "
               "`new UnionType` directly (it normalizes e.g. mixed|int to mixed)",
               "TypeCombinator"),
        lesson("nsrt-register", "convention",
               "A type-inference test file goes in tests/PHPStan/Analyser/data/ and is "
               "registered in NodeScopeResolverTest::dataFileAsserts with `yield from "
               "$this->gatherAssertTypes(__DIR__ . '/data/bug-N.php')`, inside `if "
               "(PHP_VERSION_ID >= 80100)` when it needs newer PHP",
               r"re:gatherAssertTypes\(__DIR__", "dataFileAsserts|NodeScopeResolverTest"),
        lesson("nsrt-dir", "convention",
               "Type-inference test files go in tests/PHPStan/Analyser/nsrt/ and are picked up "
               "automatically (gatherAssertTypesFromDirectory); no registration needed",
               "nsrt"),
        lesson("lint-header", "convention",
               "An nsrt file that needs a newer PHP starts with `<?php // lint >= 8.1` instead "
               "of a PHP_VERSION_ID check in the test",
               r"re:lint >= ?[78]\.\d"),
        lesson("lint-exclude", "gotcha",
               "Test data files that are deliberately invalid PHP make `make lint` "
               "(parallel-lint) fail; add each one as an --exclude in the Makefile's lint "
               "target",
               "exclude", "lint"),
        lesson("req-checker", "command",
               "Check declared composer dependencies with `make composer-require-checker`",
               "composer-require-checker"),
        lesson("dep-analyser", "command",
               "composer-require-checker was replaced: check dependencies with "
               "`make composer-dependency-analyser` (config build/composer-dependency-analyser"
               ".php)",
               "composer-dependency-analyser"),
        lesson("api-bc", "convention",
               "Code marked @api must not break backward compatibility for third-party "
               "extensions; non-@api code may change in minor versions",
               "@api", r"re:backward compat|\bBC\b"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: phpstan/phpstan-src CLAUDE.md ("Running tests"), Makefile
            User("hi. bug report: str_repeat() on a `non-empty-string|''` union returns the "
                 "wrong type. Tests run with `make tests`, that's paratest under the hood.",
                 states="make-tests"),
            Read("src/Type/Php/StrRepeatFunctionReturnTypeExtension.php"),
            Say("The extension checks `$inputType instanceof ConstantStringType`, so a union "
                "containing '' falls through."),
            # source: phpstan/phpstan-src CLAUDE.md ("never use instanceof to check types")
            User("yep, classic. Never use `$type instanceof StringType` or similar, it misses "
                 "union types, intersection types with accessory types and other composite "
                 "forms. Always use `$type->isString()->yes()` or "
                 "`(new StringType())->isSuperTypeOf($type)`.", states="no-instanceof"),
            Edit("src/Type/Php/StrRepeatFunctionReturnTypeExtension.php",
                 "\t\tif ($inputType instanceof ConstantStringType && $inputType->getValue() === "
                 "'') {\n",
                 "\t\tif ((new ConstantStringType(''))->isSuperTypeOf($inputType)->yes()) {\n"),
            # source: phpstan/phpstan-src tests/PHPStan/Analyser/NodeScopeResolverTest.php
            # (before 478cea1b4)
            User("add a regression test. Type inference files go in tests/PHPStan/Analyser/"
                 "data/ and you register them in NodeScopeResolverTest::dataFileAsserts with "
                 "`yield from $this->gatherAssertTypes(__DIR__ . '/data/bug-10893.php');`. If "
                 "the file needs PHP 8.1 syntax, put it inside the "
                 "`if (PHP_VERSION_ID >= 80100)` block.", states="nsrt-register"),
            Write("tests/PHPStan/Analyser/data/bug-10893.php",
                  "<?php\n\nnamespace Bug10893;\n\nuse function PHPStan\\Testing\\assertType;\n\n"
                  "/** @param non-empty-string|'' $s */\nfunction (string $s): void {\n"
                  "\tassertType('string', str_repeat($s, 2));\n};\n"),
            Edit("tests/PHPStan/Analyser/NodeScopeResolverTest.php",
                 "\t\tyield from $this->gatherAssertTypes(__DIR__ . '/data/implode.php');\n",
                 "\t\tyield from $this->gatherAssertTypes(__DIR__ . '/data/implode.php');\n"
                 "\t\tyield from $this->gatherAssertTypes(__DIR__ . '/data/bug-10893.php');\n"),
            Bash("make tests", out=PARATEST_PASS),
            Commit("Fix str_repeat() return type for unions containing an empty string"),
        ), judge={"make-tests": "not_down"}),
        Session(day=2, events=(
            User("next: DeclareStrictTypesRule should report declare(strict_types=1) that comes "
                 "after inline HTML. add a rule test with a data file."),
            Write("tests/PHPStan/Rules/Keywords/data/declare-inline-html.php",
                  "<html>\n<?php declare(strict_types=1);\n</html>\n"),
            Bash("make tests", out=PARATEST_PASS),
            # source: phpstan/phpstan-src Makefile (composer-require-checker target, 2023)
            User("before pushing also run `make lint` and `make composer-require-checker`, CI "
                 "runs both.", states="req-checker"),
            Bash("make lint", out=LINT_FAIL, ok=False, exit=2),
            Say("Lint fails on the new data file itself: it is deliberately invalid (strict_types "
                "after inline HTML), so parallel-lint reports a fatal error."),
            # source: phpstan/phpstan-src commit 01319363d "fix lint" (Makefile --exclude)
            User("right, that happens with every intentionally broken fixture. add it to the "
                 "--exclude list of the lint target in the Makefile, next to "
                 "declare-strict-nonsense.php.", states="lint-exclude"),
            Edit("Makefile",
                 "\t\t--exclude tests/PHPStan/Rules/Keywords/data/declare-strict-nonsense.php \\\n",
                 "\t\t--exclude tests/PHPStan/Rules/Keywords/data/declare-strict-nonsense.php \\\n"
                 "\t\t--exclude tests/PHPStan/Rules/Keywords/data/declare-inline-html.php \\\n"),
            Bash("make lint", out=(
                "php vendor/bin/parallel-lint --colors [...] src tests\n"
                "PHP 8.2.13 | 10 parallel jobs\n"
                "...........................................................   9631/9631 "
                "(100 %)\n\n\nChecked 9631 files in 13.8 seconds\nNo syntax error found")),
            Bash("make composer-require-checker", out=(
                "ComposerRequireChecker 4.8.0@8f2e4e8\n"
                "There were no unknown symbols found.")),
            Commit("DeclareStrictTypesRule: report declare after inline HTML"),
        ), judge={"req-checker": "not_down", "lint-exclude": "not_down"}),
        Session(day=10, events=(
            User("the str_repeat extension should also return non-empty-string when the "
                 "multiplier is positive. can you extend it?"),
            Say("I'll return `new UnionType([new AccessoryNonEmptyStringType(), ...])` for that "
                "branch."),
            # source: phpstan/phpstan-src CLAUDE.md ("TypeCombinator")
            User("don't construct UnionType/IntersectionType directly, use TypeCombinator. It "
                 "handles type normalization, e.g. `mixed|int` becomes `mixed`, `string&int` "
                 "becomes `never`.", states="type-combinator"),
            Edit("src/Type/Php/StrRepeatFunctionReturnTypeExtension.php",
                 "\t\treturn new UnionType([new StringType(), new ConstantStringType('')]);\n",
                 "\t\treturn TypeCombinator::union(new StringType(), new ConstantStringType(''));\n"
                 ),
            Say("While here I'd like to add a required constructor parameter to "
                "DynamicFunctionReturnTypeExtension implementations' base helper."),
            # source: phpstan/phpstan-src CLAUDE.md ("Backward compatibility promise")
            User("check for @api first. Code marked with `@api` must not break backward "
                 "compatibility for existing usages in third-party extensions; any code without "
                 "`@api` may change in minor versions without notice.", states="api-bc"),
            Probe("ok run everything again", needs="make-tests"),
            Bash("make tests", out=PARATEST_PASS),
            Commit("str_repeat(): use TypeCombinator for the return type"),
        )),
        Session(day=65, events=(
            # source: phpstan/phpstan-src commit 97408e6fb "Replace composer-require-checker
            # with composer-dependency-analyser"
            User("heads up, we replaced composer-require-checker with "
                 "composer-dependency-analyser. The make target is now "
                 "`make composer-dependency-analyser`, config is in "
                 "build/composer-dependency-analyser.php, CI runs that instead.",
                 states="dep-analyser", replaces="req-checker"),
            Edit("Makefile",
                 "composer-require-checker:\n\tphp build/composer-require-checker.phar check "
                 "--config-file $(CURDIR)/build/composer-require-checker.json\n",
                 "composer-dependency-analyser:\n\tphp vendor/bin/composer-dependency-analyser "
                 "--config build/composer-dependency-analyser.php\n"),
            Commit("Replace composer-require-checker target"),
            User("that's it for today, thanks"),
        )),
        Session(day=215, events=(
            # source: phpstan/phpstan-src commit 478cea1b4 "Take advantage of
            # gatherAssertTypesFromDirectory in NodeScopeResolverTest"; nsrt/*.php headers
            User("FYI NodeScopeResolverTest now uses gatherAssertTypesFromDirectory: all the "
                 "type inference files moved to tests/PHPStan/Analyser/nsrt/, and every file "
                 "there is picked up automatically, nothing to register anymore.",
                 states="nsrt-dir", replaces="nsrt-register"),
            User("files that need a newer PHP put the requirement on the opening tag line, "
                 "`<?php // lint >= 8.1`, instead of a PHP_VERSION_ID check in the test.",
                 states="lint-header"),
            Edit("tests/PHPStan/Analyser/NodeScopeResolverTest.php",
                 "\t\tyield from $this->gatherAssertTypes(__DIR__ . '/data/implode.php');\n",
                 "\t\tyield from $this->gatherAssertTypesFromDirectory(__DIR__ . '/nsrt');\n"),
            Commit("Use gatherAssertTypesFromDirectory in NodeScopeResolverTest"),
        )),
        Session(day=218, events=(
            User("bug #11129: array_key_exists on an enum-keyed shape loses the key type."),
            Probe("write the regression test for it first; it uses enums",
                  needs=("nsrt-dir", "lint-header")),
            Write("tests/PHPStan/Analyser/nsrt/bug-11129.php",
                  "<?php // lint >= 8.1\n\nnamespace Bug11129;\n\n"
                  "use function PHPStan\\Testing\\assertType;\n\n"
                  "enum Suit: string { case Hearts = 'H'; }\n\n"
                  "/** @param array{H?: int} $a */\nfunction (array $a): void {\n"
                  "\tif (array_key_exists(Suit::Hearts->value, $a)) {\n"
                  "\t\tassertType('array{H: int}', $a);\n\t}\n};\n"),
            Probe("now the fix: in the narrowing code, check whether the offset type is a "
                  "constant string", needs="no-instanceof"),
            Probe("the narrowed type is the original shape or the new one, merge them",
                  needs="type-combinator"),
            Probe("I bumped a dev dependency, check the dependency declarations before I tag",
                  needs="dep-analyser"),
            Bash("make composer-dependency-analyser", out=(
                "Scanned 1 composer.json and 3 PHP directories in 1.213 s\n\n"
                "No composer issues found")),
            Probe("also add a fixture with a deliberately broken enum declaration for the rule "
                  "test", needs="lint-exclude"),
        ), judge={"dep-analyser": "not_down"}),
    ),
)

# ---------------------------------------------------------------------------------------------
# Elixir: an authentication library for Phoenix apps in the style of PhoenixKit
# ---------------------------------------------------------------------------------------------

PHOENIX_KIT = Project("phoenix_kit", "elixir", {
    "mix.exs": (
        "defmodule PhoenixKit.MixProject do\n  use Mix.Project\n\n  @version \"0.1.12\"\n\n"
        "  def project do\n    [\n      app: :phoenix_kit,\n      version: @version,\n"
        "      elixir: \"~> 1.15\",\n      deps: deps()\n    ]\n  end\n\n"
        "  defp deps do\n    [\n      {:ecto_sql, \"~> 3.10\"},\n      {:postgrex, \">= 0.0.0\"},"
        "\n      {:phoenix_live_view, \"~> 1.0\", optional: true},\n"
        "      {:igniter, \"~> 0.6\", optional: true}\n    ]\n  end\nend\n"
    ),
    "CHANGELOG.md": (
        "# Changelog\n\n## [0.1.12] - 2025-08-04\n\n### Added\n- Magic link authentication\n"
    ),
    ".formatter.exs": "[inputs: [\"{mix,.formatter}.exs\", \"{config,lib,test}/**/*.{ex,exs}\"]]\n",
    "lib/phoenix_kit/migrations/postgres/v01.ex": (
        "defmodule PhoenixKit.Migrations.Postgres.V01 do\n  @moduledoc false\n\n"
        "  use Ecto.Migration\n\n  def up(%{prefix: prefix}) do\n"
        "    create_if_not_exists table(:phoenix_kit_users, primary_key: false, prefix: prefix) "
        "do\n      add :id, :bigserial, primary_key: true\n"
        "      add :email, :citext, null: false\n    end\n\n"
        "    execute \"\"\"\n    CREATE OR REPLACE FUNCTION assign_owner_to_first_user() "
        "RETURNS trigger AS $$ ... $$ LANGUAGE plpgsql;\n    \"\"\"\n  end\nend\n"
    ),
    "lib/phoenix_kit/migrations/postgres/v02.ex": (
        "defmodule PhoenixKit.Migrations.Postgres.V02 do\n  @moduledoc false\n\n"
        "  use Ecto.Migration\n\n  def up(%{prefix: prefix}) do\n"
        "    create_if_not_exists table(:ai, prefix: prefix) do\n"
        "      add :prompt, :text\n    end\n  end\nend\n"
    ),
    "lib/phoenix_kit/users/auth.ex": (
        "defmodule PhoenixKit.Users.Auth do\n  @moduledoc \"Authentication context.\"\n\n"
        "  alias PhoenixKit.Users.Auth.User\n\n"
        "  def register_user(attrs) do\n    %User{}\n    |> User.registration_changeset(attrs)\n"
        "    |> repo().insert()\n  end\nend\n"
    ),
    "test/phoenix_kit_test.exs": (
        "defmodule PhoenixKitTest do\n  use ExUnit.Case\n\n"
        "  test \"exposes a version\" do\n    assert is_binary(PhoenixKit.version())\n"
        "  end\nend\n"
    ),
})

MIX_TEST_PASS = (
    "Running ExUnit with seed: 482913, max_cases: 16\n\n"
    "............\n"
    "Finished in 0.04 seconds (0.04s async, 0.00s sync)\n12 tests, 0 failures"
)

PHOENIX_KIT_STORY = Story(
    id="dv-ex-phoenixkit-1",
    title="Table prefix, commit verbs, mix task names renamed and renamed back, the owner-role "
          "trigger replaced by Elixir code, and a HEEx attribute gotcha",
    project=PHOENIX_KIT,
    sources=("BeamLabEU/phoenixkit",),
    lessons=(
        lesson("format-precommit", "command",
               "Always run `mix format` (then git add -A) before every git commit",
               "mix format", "commit"),
        lesson("table-prefix", "convention",
               "Every table uses the phoenix_kit_ prefix: phoenix_kit, phoenix_kit_users, "
               "phoenix_kit_users_tokens, phoenix_kit_ai",
               r"re:phoenix_kit_\w+", "prefix|naming"),
        lesson("commit-verbs", "convention",
               "Commit messages start with an action verb (Add, Update, Merge, Fix, Remove) and "
               "never mention Claude or AI assistance",
               r"re:action verb|\bAdd\b.{0,4}\bUpdate\b"),
        lesson("tasks-phx", "command",
               "The mix tasks are named phx.kit.*: `mix phx.kit.migrate --status`, "
               "`mix phx.kit.install.igniter`",
               r"re:phx\.kit\."),
        lesson("tasks-pk", "command",
               "The mix tasks are named phoenix_kit.* again: `mix phoenix_kit.migrate --status`, "
               "`mix phoenix_kit.install`",
               r"re:phoenix_kit\.(migrate|install|update|gen)"),
        lesson("owner-trigger", "fact",
               "The first registered user becomes Owner through the PostgreSQL trigger "
               "assign_owner_to_first_user created in the V01 migration",
               "assign_owner_to_first_user"),
        lesson("owner-elixir", "decision",
               "No database trigger for roles: the first user becomes Owner in pure Elixir "
               "logic in PhoenixKit.Users.Auth.register_user/1",
               "register_user", "re:Elixir|Owner"),
        lesson("version-bump", "convention",
               "A version update bumps @version in mix.exs and adds a dated CHANGELOG.md entry "
               "(Added/Changed/Fixed/Removed); never ship without updating CHANGELOG.md",
               "CHANGELOG", "@version|mix.exs"),
        lesson("heex-class", "gotcha",
               "HEEx attribute interpolation must be class={\"alert #{expr}\"}; the old "
               "class=\"alert #{...}\" form fails with 'invalid character in attribute name'",
               r"re:class=\{", "HEEx|heex"),
        lesson("mix-quality", "command",
               "`mix quality` (format + credo + dialyzer + compile + tests) is the check to run "
               "before committing",
               "mix quality"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: BeamLabEU/phoenixkit CLAUDE.md ("Pre-commit Checklist", 2895468)
            User("hey! before anything else: ALWAYS run `mix format` before git commit, then "
                 "`git add -A` to add the formatted files. Today: the V02 migration creates a "
                 "table called `ai`, that's wrong.", states="format-precommit"),
            Read("lib/phoenix_kit/migrations/postgres/v02.ex"),
            # source: BeamLabEU/phoenixkit commit 2895468 "Update AI table naming to use
            # phoenix_kit prefix"
            User("all tables follow consistent naming with the prefix: phoenix_kit, "
                 "phoenix_kit_users, phoenix_kit_users_tokens, and this one becomes "
                 "phoenix_kit_ai. Fix the indexes too.", states="table-prefix"),
            Edit("lib/phoenix_kit/migrations/postgres/v02.ex",
                 "    create_if_not_exists table(:ai, prefix: prefix) do\n",
                 "    create_if_not_exists table(:phoenix_kit_ai, prefix: prefix) do\n"),
            Bash("mix format && mix test", out=MIX_TEST_PASS),
            Say("Formatted and green. Commit message: \"AI table renamed\"?"),
            # source: BeamLabEU/phoenixkit CLAUDE.md ("Commit Message Rules")
            User("no: ALWAYS start commit messages with action verbs: Add, Update, Merge, Fix, "
                 "Remove. And NEVER mention Claude or AI assistance in commit messages, focus on "
                 "what was changed and why.", states="commit-verbs"),
            Commit("Update AI table naming to use phoenix_kit prefix"),
        ), judge={"format-precommit": "not_down"}),
        Session(day=1, events=(
            # source: BeamLabEU/phoenixkit commit 13a1031 "Change mix tasks name from phoenix_kit
            # to phx.kit"
            User("I renamed the mix tasks to the phx.kit namespace last night: it's "
                 "`mix phx.kit.install.igniter` and `mix phx.kit.migrate --status` now. Note "
                 "that `phx.kit.migrate --status` requires a configured repository to work.",
                 states="tasks-phx"),
            User("question: how does the first user end up as Owner? a tester says it worked "
                 "on their app."),
            Read("lib/phoenix_kit/migrations/postgres/v01.ex"),
            Say("V01 creates a PostgreSQL trigger, assign_owner_to_first_user, that assigns the "
                "Owner role to the first row inserted into phoenix_kit_users.",
                states="owner-trigger"),
            User("right, ok. nothing to change there for now."),
        )),
        Session(day=2, events=(
            # source: BeamLabEU/phoenixkit commit 2ef5419 "Fix migration rollback logic and
            # rename Mix tasks"
            User("change of plan on the task names: we renamed the Mix tasks from phx.kit.* "
                 "back to phoenix_kit.* format for consistency with the app name. So "
                 "`mix phoenix_kit.migrate --status`, `mix phoenix_kit.install`. Docs are "
                 "updated.", states="tasks-pk", replaces="tasks-phx"),
            User("and the rollback in PhoenixKit.Migrations.Postgres.down() only rolled back "
                 "part of the tables, the default version was wrong. can you look?"),
            Write("lib/phoenix_kit/migrations/postgres.ex",
                  "defmodule PhoenixKit.Migrations.Postgres do\n  @moduledoc false\n\n"
                  "  @initial_version 1\n\n"
                  "  def down(opts) do\n    opts = Map.put_new(opts, :version, @initial_version)\n"
                  "    Enum.each(current_version(opts)..opts.version//-1, &change(&1, :down, "
                  "opts))\n  end\nend\n"),
            Bash("mix format && mix test", out=MIX_TEST_PASS),
            Commit("Fix migration rollback logic and rename Mix tasks"),
        )),
        Session(day=10, events=(
            Probe("a user says the migrations didn't run on their app. what do I run to see "
                  "which version their database is at?", needs="tasks-pk"),
            Say("`mix phoenix_kit.migrate --status`; it needs their repo configured."),
            User("thanks. separate thing: installing into a fresh app crashes."),
            Bash("mix phoenix_kit.install", out=(
                "** (Phoenix.LiveView.Tokenizer.ParseError) lib/phoenix_kit_web/live/"
                "dashboard_live.html.heex:14:22: invalid character in attribute name: #\n"
                "   |\n14 |   <div class=\"alert #{@flash_kind}\">\n"
                "   |                      ^"), ok=False, exit=1),
            Say("HEEx does not allow `#{}` inside a quoted attribute. The interpolation has to "
                "be an expression attribute: class={\"alert #{@flash_kind}\"}.",
                states="heex-class"),
            Write("lib/phoenix_kit_web/live/dashboard_live.html.heex",
                  "<div class={\"alert #{@flash_kind}\"}>\n  {@flash_message}\n</div>\n"),
            Bash("mix phoenix_kit.install", out=(
                "Updating project's igniter dependency ✔\n"
                "compiling phoenix_kit... ✔\n\nThe following installer was found and executed: "
                "`phoenix_kit.install`\n\nSuccessfully installed:\n\n* phoenix_kit")),
            Probe("looks good, get it committed", needs=("format-precommit", "commit-verbs")),
            Bash("mix format && git add -A", out=""),
            Commit("Fix HEEx template compilation in the dashboard"),
            # source: BeamLabEU/phoenixkit CLAUDE.md ("Version Management Protocol")
            User("and let's cut 0.1.13. For version updates: update the @version constant in "
                 "mix.exs, add the new version entry to CHANGELOG.md with the current date "
                 "(Added / Changed / Fixed / Removed), and NEVER ship without updating "
                 "CHANGELOG.md.", states="version-bump"),
            Edit("mix.exs", "  @version \"0.1.12\"\n", "  @version \"0.1.13\"\n"),
            Edit("CHANGELOG.md", "# Changelog\n\n",
                 "# Changelog\n\n## [0.1.13] - 2025-08-15\n\n### Fixed\n"
                 "- HEEx attribute interpolation in the dashboard template\n\n"),
            Commit("Update version to 0.1.13 with comprehensive changelog"),
        ), judge={"commit-verbs": "not_down"}),
        Session(day=18, events=(
            # source: BeamLabEU/phoenixkit commit 19279b0 "Remove PostgreSQL trigger for role
            # assignment in favor of Elixir approach"
            User("decision from yesterday's call: we remove the assign_owner_to_first_user "
                 "PostgreSQL trigger from V01 and do the role assignment in pure Elixir logic "
                 "in register_user/1. It improves testability and debugging with "
                 "application-level role management.",
                 states="owner-elixir", replaces="owner-trigger"),
            Edit("lib/phoenix_kit/migrations/postgres/v01.ex",
                 "    execute \"\"\"\n    CREATE OR REPLACE FUNCTION assign_owner_to_first_user() "
                 "RETURNS trigger AS $$ ... $$ LANGUAGE plpgsql;\n    \"\"\"\n",
                 ""),
            Edit("lib/phoenix_kit/users/auth.ex",
                 "    |> repo().insert()\n  end\n",
                 "    |> repo().insert()\n    |> maybe_assign_owner()\n  end\n\n"
                 "  defp maybe_assign_owner({:ok, user}) do\n"
                 "    # FOR UPDATE lock inside the transaction guards the first-user race\n"
                 "    Roles.assign_owner_if_first(user)\n    {:ok, user}\n  end\n\n"
                 "  defp maybe_assign_owner(error), do: error\n"),
            Bash("mix format && mix test", out=MIX_TEST_PASS),
            Commit("Remove PostgreSQL trigger for role assignment in favor of Elixir approach"),
            # source: BeamLabEU/phoenixkit AGENTS.md ("Commands")
            User("small process update: `mix quality` runs format + credo + dialyzer + compile + "
                 "tests, use it before committing. `mix quality.ci` is the same with strict "
                 "formatting, that's what CI uses.", states="mix-quality"),
        )),
        Session(day=25, events=(
            Probe("the first user should also get a welcome email when they become Owner. where "
                  "do I hook that in?", needs="owner-elixir"),
            Probe("we need a settings table for per-install options, write the migration",
                  needs="table-prefix"),
            Write("lib/phoenix_kit/migrations/postgres/v03.ex",
                  "defmodule PhoenixKit.Migrations.Postgres.V03 do\n  @moduledoc false\n\n"
                  "  use Ecto.Migration\n\n  def up(%{prefix: prefix}) do\n"
                  "    create_if_not_exists table(:phoenix_kit_settings, prefix: prefix) do\n"
                  "      add :key, :string, null: false\n      add :value, :text\n"
                  "    end\n  end\nend\n"),
            Probe("this is done, commit it please", needs=("mix-quality", "commit-verbs")),
            Bash("mix quality", out=(
                "Running mix format --check-formatted\nRunning mix credo --strict\n"
                "Checking 41 source files ...\n\nAnalysis took 0.4 seconds\n"
                "112 mods/funs, found no issues.\n"
                "Running mix dialyzer\ndone (passed successfully)\n" + MIX_TEST_PASS)),
            Commit("Add settings table migration V03"),
            Probe("and publish it as 1.0.1", needs="version-bump"),
        ), judge={"mix-quality": "not_down"}),
    ),
)

STORIES = [BRIGHTER_STORY, ICECUBES_STORY, XIKOLO_STORY, PHPSTAN_STORY, PHOENIX_KIT_STORY]
