"""Held-out stories in JVM projects (Kotlin Android apps, a Java Gradle library, a Spring Boot
service, a Kotlin static-analysis tool), written from public material of:

- thunderbird/thunderbird-android (AGENTS.md, docs/contributing/testing-guide.md, ADR-0003,
  ADR-0004, ADR-0008),
- android/nowinandroid (AGENTS.md and its history, README.md, PR template, Build.yaml, #2055),
- diffplug/spotless (CONTRIBUTING.md and its history, PULL_REQUEST_TEMPLATE.md, #1945),
- spring-projects/spring-petclinic (README.md and its history, #1522, #2016, #2136),
- detekt/detekt (.github/CONTRIBUTING.md and AGENTS.md with their history, #6060).

People's names are left out; the rules, changes and gotchas are the sources' own."""

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


def _gradle_ok(tasks: str, secs: int = 41, executed: int = 38) -> str:
    return (
        f"{tasks}\n\nBUILD SUCCESSFUL in {secs}s\n"
        f"{executed + 112} actionable tasks: {executed} executed, 112 up-to-date"
    )


# ---------------------------------------------------------------------------------------------
# 1. A white-label Android mail client (Kotlin, Koin, Compose) - thunderbird/thunderbird-android
# ---------------------------------------------------------------------------------------------

TB_MAIL = Project("tb-mail", "kotlin", {
    "settings.gradle.kts": (
        'rootProject.name = "tb-mail"\n\n'
        'include(":app-common")\ninclude(":app-thunderbird")\ninclude(":app-k9mail")\n'
        'include(":feature:account:api")\ninclude(":feature:account:internal")\n'
        'include(":feature:navigation:drawer")\ninclude(":core:mail:api")\n'
    ),
    "gradle/libs.versions.toml": (
        '[versions]\nkotlin = "2.1.20"\nkoin = "4.0.2"\ntruth = "1.4.4"\n\n'
        '[libraries]\nkoin-core = { module = "io.insert-koin:koin-core", version.ref = "koin" }\n'
        'truth = { module = "com.google.truth:truth", version.ref = "truth" }\n'
    ),
    "feature/account/api/src/main/kotlin/app/k9mail/feature/account/api/AccountNameFormatter.kt": (
        "package app.k9mail.feature.account.api\n\n"
        "interface AccountNameFormatter {\n"
        "    fun format(displayName: String?, email: String): String\n}\n"
    ),
    "feature/account/internal/build.gradle.kts": (
        'plugins {\n    id("thunderbird.library.android")\n}\n\n'
        'android {\n    namespace = "app.k9mail.feature.account.internal"\n}\n\n'
        "dependencies {\n    api(projects.feature.account.api)\n\n"
        "    testImplementation(libs.truth)\n}\n"
    ),
    "feature/account/internal/src/main/kotlin/app/k9mail/feature/account/internal/"
    "RealAccountNameFormatter.kt": (
        "package app.k9mail.feature.account.internal\n\n"
        "import app.k9mail.feature.account.api.AccountNameFormatter\n\n"
        "internal class RealAccountNameFormatter : AccountNameFormatter {\n"
        "    override fun format(displayName: String?, email: String): String {\n"
        "        return displayName ?: email\n    }\n}\n"
    ),
    "app-common/src/main/kotlin/app/k9mail/common/AccountModule.kt": (
        "package app.k9mail.common\n\n"
        "import app.k9mail.feature.account.api.AccountNameFormatter\n"
        "import app.k9mail.feature.account.internal.RealAccountNameFormatter\n"
        "import org.koin.dsl.module\n\n"
        "val accountModule = module {\n"
        "    single<AccountNameFormatter> { RealAccountNameFormatter() }\n}\n"
    ),
    "config/detekt/detekt.yml": (
        "complexity:\n  LongParameterList:\n    functionThreshold: 8\n"
        "style:\n  MaxLineLength:\n    maxLineLength: 120\n"
    ),
})

TB_FORMATTER = ("feature/account/internal/src/main/kotlin/app/k9mail/feature/account/internal/"
                "RealAccountNameFormatter.kt")
TB_FORMATTER_TEST = ("feature/account/internal/src/test/kotlin/app/k9mail/feature/account/internal/"
                     "RealAccountNameFormatterTest.kt")
TB_AVATAR_API = ("feature/account/api/src/main/kotlin/app/k9mail/feature/account/api/"
                 "AvatarInitialsProvider.kt")
TB_AVATAR_IMPL = ("feature/account/internal/src/main/kotlin/app/k9mail/feature/account/internal/"
                  "DefaultAvatarInitialsProvider.kt")
TB_AVATAR_DEVICE_TEST = ("feature/account/internal/src/androidTest/kotlin/app/k9mail/feature/"
                         "account/internal/AvatarInitialsDeviceTest.kt")
TB_MODULE = "app-common/src/main/kotlin/app/k9mail/common/AccountModule.kt"

TB_SPOTLESS_FAIL = (
    "> Task :feature:account:internal:spotlessKotlin\n"
    "> Task :feature:account:internal:spotlessKotlinCheck FAILED\n\n"
    "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
    "Execution failed for task ':feature:account:internal:spotlessKotlinCheck'.\n"
    "> The following files had format violations:\n"
    "      src/main/kotlin/app/k9mail/feature/account/internal/DefaultAvatarInitialsProvider.kt\n"
    "          @@ -7,6 +7,8 @@\n"
    "          -        val parts = name.trim().split(\" \").filter { it.isNotEmpty() }\n"
    "          -        return parts.take(2).map { it.first().uppercaseChar() }"
    ".joinToString(\"\")\n"
    "          +        val parts = name.trim()\n"
    "          +            .split(\" \")\n"
    "          +            .filter { it.isNotEmpty() }\n"
    "  Run './gradlew :feature:account:internal:spotlessApply' to fix these violations.\n\n"
    "BUILD FAILED in 9s\n31 actionable tasks: 3 executed, 28 up-to-date"
)
TB_DEX_FAIL = (
    "> Task :feature:account:internal:compileDebugAndroidTestKotlin\n"
    "> Task :feature:account:internal:dexBuilderDebugAndroidTest\n"
    "> Task :feature:account:internal:mergeDexDebugAndroidTest FAILED\n"
    "ERROR: /work/tb-mail/feature/account/internal/build/intermediates/javac/debugAndroidTest/"
    "classes/app/k9mail/feature/account/internal/AvatarInitialsDeviceTest.class: D8: "
    "com.android.tools.r8.internal.Jc: Space characters in SimpleName "
    "'initials should not crash for emoji only names' are not allowed prior to DEX version 040\n\n"
    "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
    "Execution failed for task ':feature:account:internal:mergeDexDebugAndroidTest'.\n"
    "> Could not resolve all files for configuration "
    "':feature:account:internal:debugAndroidTestRuntimeClasspath'.\n"
    "   > Failed to transform AvatarInitialsDeviceTest.class: Error while dexing.\n\n"
    "BUILD FAILED in 38s"
)

TB_STORY = Story(
    id="ho-kt-mail-android-1",
    title="A white-label Android mail client: testing rules, module boundaries, naming ADRs, "
          "Truth replaced by assertk and the shared package renamed",
    project=TB_MAIL,
    sources=("thunderbird/thunderbird-android",),
    lessons=(
        lesson("truth-asserts", "decision",
               "Tests use the Truth testing library for assertions (com.google.common.truth)",
               "Truth", "assert|test"),
        lesson("assertk", "decision",
               "assertk is the default assertions framework for tests; pre-existing Truth tests "
               "are converted to assertk",
               "assertk"),
        lesson("fakes", "convention",
               "Prefer fake implementations over mocks; avoid mocking libraries in tests",
               "fake", "mock"),
        lesson("test-subject", "convention", "Name the object under test `testSubject`",
               "testSubject"),
        lesson("api-boundary", "convention",
               "Depend only on other modules' :api modules, never on another module's :internal "
               "module; only app-common, app-thunderbird and app-k9mail may depend on :internal "
               "modules, for DI wiring",
               ":api|api module", ":internal|internal module"),
        lesson("impl-naming", "convention",
               "Interfaces are named like classes (no IInterface pattern); implementations get a "
               "descriptive prefix (DatabaseMessageStore, AndroidPowerManager, K9/Tb for "
               "app-specific); with one production implementation and no better name, use the "
               "prefix Default (not Real or Impl)",
               "Default", "prefix"),
        lesson("pkg-k9mail", "fact",
               "Shared modules use the legacy app.k9mail / com.fsck base package",
               "app.k9mail", "com.fsck|legacy|shared module"),
        lesson("pkg-tb", "decision",
               "Shared modules use net.thunderbird as base package (renamed from app.k9mail and "
               "com.fsck); the application IDs of app-thunderbird and app-k9mail stay unchanged",
               "net.thunderbird"),
        lesson("verify-cmd", "command",
               "For a bug fix: add a test that fails before the fix, then run at least "
               "`./gradlew test lint detekt spotlessCheck`",
               "spotlessCheck", "detekt"),
        lesson("instr-backticks", "gotcha",
               "Android instrumentation tests do not support backticks (spaces) in test names: "
               "D8 fails with 'Space characters in SimpleName ... not allowed prior to DEX "
               "version 040'; use camelCase names there",
               "backtick|space character|SimpleName",
               "instrument|androidTest|device test|camelCase"),
    ),
    also=(
        lesson("also-style-commits", "convention",
               "Formatting-only changes go into separate `style:` commits (Conventional Commits)",
               "style:", "format"),
        lesson("also-aaa", "convention",
               "Tests follow Arrange-Act-Assert with // Arrange // Act // Assert comments",
               "Arrange", "Assert"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: thunderbird/thunderbird-android docs/contributing/testing-guide.md,
            # docs/engineering/adr/0003-switch-test-assertions-from-truth-to-assertk.md (Context)
            User("hey, blank display names show up as an empty line in the account drawer, a name "
                 "of just spaces should fall back to the email address. can you fix "
                 "RealAccountNameFormatter and add a unit test? before you start, testing here: "
                 "our project has been using the Truth testing library for writing tests, so "
                 "assertThat from com.google.common.truth. follow the Arrange-Act-Assert pattern, "
                 "name the object under test as testSubject, and in this project we prefer fake "
                 "implementations over mocks - avoid mocking libraries.",
                 states=("truth-asserts", "test-subject", "fakes")),
            Read(TB_FORMATTER),
            Edit(TB_FORMATTER, "        return displayName ?: email\n",
                 "        return displayName?.takeIf { it.isNotBlank() } ?: email\n"),
            Write(TB_FORMATTER_TEST,
                  "package app.k9mail.feature.account.internal\n\n"
                  "import com.google.common.truth.Truth.assertThat\n"
                  "import kotlin.test.Test\n\n"
                  "class RealAccountNameFormatterTest {\n\n"
                  "    @Test\n"
                  "    fun `format should fall back to email when display name is blank`() {\n"
                  "        // Arrange\n        val testSubject = RealAccountNameFormatter()\n\n"
                  "        // Act\n"
                  "        val result = testSubject.format(\"   \", \"user@example.com\")\n\n"
                  "        // Assert\n"
                  "        assertThat(result).isEqualTo(\"user@example.com\")\n    }\n}\n"),
            Bash("./gradlew :feature:account:internal:testDebugUnitTest",
                 out=_gradle_ok("> Task :feature:account:internal:testDebugUnitTest", 34, 12)),
            Say("Fixed: a blank display name now falls back to the email. The test uses Truth's "
                "assertThat, Arrange-Act-Assert sections and `testSubject`; nothing needed a "
                "collaborator, so no fake this time."),
            Commit("fix(account): fall back to email for blank display names"),
        )),
        Session(day=3, events=(
            # source: thunderbird/thunderbird-android docs/engineering/adr/
            # 0004-naming-conventions-for-interfaces-and-their-implementations.md
            User("next: the new drawer needs avatar initials for each account. put an interface "
                 "in feature:account:api and the implementation in :internal. someone on the PR "
                 "suggested IAvatarInitialsProvider + AvatarInitialsProviderImpl - no. ADR-0004: "
                 "name interfaces as if they were classes, avoid the IInterface pattern; use a "
                 "prefix that says how it relates, like DatabaseMessageStore or "
                 "InMemoryMessageStore; platform name as prefix for platform-specific ones, "
                 "K9 / Tb for app-specific ones; and if no brief descriptive name fits and there "
                 "is only one production implementation, use the prefix Default.",
                 states="impl-naming"),
            # source: thunderbird/thunderbird-android AGENTS.md (API / Internal Boundary)
            User("and the drawer module must depend only on other modules' :api modules. never "
                 "depend on another module's :internal modules - only app-common, "
                 "app-thunderbird and app-k9mail may depend on :internal modules, for DI wiring. "
                 "bind the implementation in app-common.",
                 states="api-boundary"),
            # source: thunderbird/thunderbird-android
            # docs/engineering/adr/0008-change-shared-modules-package-name.md (Context)
            User("package-wise, keep what's there: these shared modules currently use the "
                 "app.k9mail or com.fsck package name, legacy artifacts from K-9 Mail.",
                 states="pkg-k9mail"),
            Write(TB_AVATAR_API,
                  "package app.k9mail.feature.account.api\n\n"
                  "interface AvatarInitialsProvider {\n"
                  "    fun initials(name: String): String\n}\n"),
            Write(TB_AVATAR_IMPL,
                  "package app.k9mail.feature.account.internal\n\n"
                  "import app.k9mail.feature.account.api.AvatarInitialsProvider\n\n"
                  "internal class DefaultAvatarInitialsProvider : AvatarInitialsProvider {\n"
                  "    override fun initials(name: String): String {\n"
                  "        val parts = name.trim().split(\" \").filter { it.isNotEmpty() }\n"
                  "        return parts.take(2).map { it.first().uppercaseChar() }"
                  ".joinToString(\"\")\n    }\n}\n"),
            Edit(TB_MODULE,
                 "import app.k9mail.feature.account.api.AccountNameFormatter\n",
                 "import app.k9mail.feature.account.api.AccountNameFormatter\n"
                 "import app.k9mail.feature.account.api.AvatarInitialsProvider\n"
                 "import app.k9mail.feature.account.internal.DefaultAvatarInitialsProvider\n"),
            Edit(TB_MODULE,
                 "    single<AccountNameFormatter> { RealAccountNameFormatter() }\n",
                 "    single<AccountNameFormatter> { RealAccountNameFormatter() }\n"
                 "    single<AvatarInitialsProvider> { DefaultAvatarInitialsProvider() }\n"),
            Commit("feat(account): add AvatarInitialsProvider with Default implementation"),
            Bash("./gradlew spotlessCheck", out=TB_SPOTLESS_FAIL, ok=False),
            # source: thunderbird/thunderbird-android AGENTS.md (Commit Requirements)
            User("run spotlessApply, and put the result in its own commit: separate "
                 "formatting-only changes into style: commits, don't mix them with the feature."),
            Bash("./gradlew :feature:account:internal:spotlessApply",
                 out=_gradle_ok("> Task :feature:account:internal:spotlessApply", 6, 3)),
            Edit(TB_AVATAR_IMPL,
                 "        val parts = name.trim().split(\" \").filter { it.isNotEmpty() }\n",
                 "        val parts = name.trim()\n"
                 "            .split(\" \")\n"
                 "            .filter { it.isNotEmpty() }\n"),
            Commit("style(account): apply spotless formatting to DefaultAvatarInitialsProvider"),
            # source: thunderbird/thunderbird-android AGENTS.md (Commit Requirements, Limitations)
            User("there's no emulator on this box, so skip connectedAndroidTest for this one, just "
                 "say in the PR description which tasks were not run and why."),
            Say("Will do. The PR description lists the Gradle commands I ran (spotlessCheck, "
                "testDebugUnitTest) and notes connectedAndroidTest was not run: no device or "
                "emulator available."),
        )),
        Session(day=9, events=(
            # source: thunderbird/thunderbird-android AGENTS.md (Bug Fix Requirements)
            User("bug from the beta channel: the drawer crashes for accounts whose name is only "
                 "an emoji. when fixing bugs here: add or update tests to cover the bug, make sure "
                 "the tests fail before the fix, and pass after. run at least "
                 "./gradlew test lint detekt spotlessCheck before you call it done.",
                 states="verify-cmd"),
            Read(TB_AVATAR_IMPL),
            Write(TB_AVATAR_DEVICE_TEST,
                  "package app.k9mail.feature.account.internal\n\n"
                  "import org.junit.Test\n\n"
                  "class AvatarInitialsDeviceTest {\n\n"
                  "    @Test\n"
                  "    fun `initials should not crash for emoji only names`() {\n"
                  "        val testSubject = DefaultAvatarInitialsProvider()\n\n"
                  "        testSubject.initials(\"\\uD83D\\uDE00\")\n    }\n}\n"),
            Bash("./gradlew :feature:account:internal:connectedDebugAndroidTest",
                 out=TB_DEX_FAIL, ok=False),
            Say("The androidTest build fails in D8, before any device is involved: Android "
                "instrumentation tests do not support backticks in test names (space characters "
                "in SimpleName are not allowed prior to DEX version 040). JVM unit tests can keep "
                "backtick names; for instrumentation tests I'll use camelCase.",
                states="instr-backticks"),
            Edit(TB_AVATAR_DEVICE_TEST,
                 "    fun `initials should not crash for emoji only names`() {\n",
                 "    fun initialsShouldNotCrashForEmojiOnlyNames() {\n"),
            Edit(TB_AVATAR_IMPL,
                 "map { it.first().uppercaseChar() }",
                 "map { it.substring(0, it.offsetByCodePoints(0, 1)).uppercase() }"),
            Bash("./gradlew test lint detekt spotlessCheck",
                 out=_gradle_ok("> Task :feature:account:internal:testReleaseUnitTest\n"
                                "> Task :feature:account:internal:lintDebug\n"
                                "> Task :feature:account:internal:detekt\n"
                                "> Task :spotlessCheck", 2 * 60 + 14, 96)),
            Commit("fix(account): take whole code points for avatar initials"),
        )),
        Session(day=16, events=(
            # source: thunderbird/thunderbird-android
            # docs/engineering/adr/0003-switch-test-assertions-from-truth-to-assertk.md (Decision)
            User("FYI the assertions ADR got accepted: 'We have decided to use assertk as the "
                 "default assertions framework for writing tests in our project. assertk provides "
                 "a fluent API that is very similar to Truth. We've further committed to "
                 "converting all pre-existing tests from Truth to assertk.' can you convert the "
                 "account tests?",
                 states="assertk", replaces="truth-asserts"),
            Edit(TB_FORMATTER_TEST, "import com.google.common.truth.Truth.assertThat\n",
                 "import assertk.assertThat\nimport assertk.assertions.isEqualTo\n"),
            Edit("gradle/libs.versions.toml", 'truth = "1.4.4"\n', 'assertk = "0.28.1"\n'),
            Edit("gradle/libs.versions.toml",
                 'truth = { module = "com.google.truth:truth", version.ref = "truth" }\n',
                 'assertk = { module = "com.willowtreeapps.assertk:assertk", '
                 'version.ref = "assertk" }\n'),
            Edit("feature/account/internal/build.gradle.kts",
                 "    testImplementation(libs.truth)\n", "    testImplementation(libs.assertk)\n"),
            Bash("./gradlew :feature:account:internal:testDebugUnitTest",
                 out=_gradle_ok("> Task :feature:account:internal:testDebugUnitTest", 29, 9)),
            Commit("test(account): migrate assertions from Truth to assertk"),
            Probe("while you're in there: RealAccountNameFormatter looks odd next to the new "
                  "avatar class. what should it be called?",
                  needs="impl-naming"),
            Say("It is the only production implementation and no more descriptive name fits, so "
                "per ADR-0004 it becomes DefaultAccountNameFormatter; I'll do the rename in its "
                "own refactor: commit."),
        )),
        Session(day=24, events=(
            # source: thunderbird/thunderbird-android
            # docs/engineering/adr/0008-change-shared-modules-package-name.md (Decision)
            User("heads up, ADR-0008 is accepted: 'We decided to rename the base package in all "
                 "shared modules from app.k9mail and com.fsck to net.thunderbird.' the actual "
                 "application IDs and package names of app-thunderbird and app-k9mail must remain "
                 "unchanged. the big rename PR is going in module by module.",
                 states="pkg-tb", replaces="pkg-k9mail"),
            Say("Noted: new and moved code in shared modules goes under net.thunderbird, the two "
                "app modules keep their IDs."),
            Probe("the drawer should also show the unread count per account, which comes from the "
                  "mail core. can you hook that up in the drawer module?",
                  needs="api-boundary"),
            Say("The drawer will depend on :core:mail:api only and get the count through its "
                "interface; the implementation is bound in app-common."),
            Probe("then write tests for the drawer's AccountListLoader - it pulls accounts from "
                  "AccountRepository.",
                  needs=("assertk", "fakes", "test-subject")),
        )),
        Session(day=33, events=(
            Probe("let's start the core:preference module: a PreferenceStore interface plus the "
                  "one real implementation backed by DataStore. scaffold it?",
                  needs=("pkg-tb", "impl-naming")),
            Probe("I fixed the crash on rotate in the drawer, can you check it properly before I "
                  "open the PR?",
                  needs="verify-cmd"),
            Bash("./gradlew test lint detekt spotlessCheck",
                 out=_gradle_ok("> Task :feature:navigation:drawer:testReleaseUnitTest\n"
                                "> Task :feature:navigation:drawer:lintDebug\n"
                                "> Task :feature:navigation:drawer:detekt\n"
                                "> Task :spotlessCheck", 2 * 60 + 31, 104)),
            Probe("and add an on-device test for the account switcher in the drawer",
                  needs="instr-backticks"),
        ), judge={"verify-cmd": "not_down"}),
    ),
)


# ---------------------------------------------------------------------------------------------
# 2. A Compose news reader with demo/prod flavors (Hilt, Roborazzi) - android/nowinandroid
# ---------------------------------------------------------------------------------------------

NIA_PKG = "com/google/samples/apps/nowinandroid"
NIA_VM = f"feature/foryou/impl/src/main/kotlin/{NIA_PKG}/feature/foryou/impl/ForYouViewModel.kt"
NIA_VM_TEST = (f"feature/foryou/impl/src/test/kotlin/{NIA_PKG}/feature/foryou/impl/"
               "ForYouViewModelTest.kt")
NIA_UI_TEST = (f"feature/foryou/impl/src/androidTest/kotlin/{NIA_PKG}/feature/foryou/impl/"
               "ForYouScreenTest.kt")
NIA_BASELINE = "app/dependencies/prodReleaseRuntimeClasspath.txt"

NIA = Project("nowinandroid", "kotlin", {
    "settings.gradle.kts": (
        'rootProject.name = "nowinandroid"\n\n'
        'include(":app")\ninclude(":core:data")\ninclude(":core:testing")\n'
        'include(":feature:foryou:api")\ninclude(":feature:foryou:impl")\n'
    ),
    "gradle/init.gradle.kts": (
        'val ktlintVersion = "1.0.1"\n\n'
        "initscript {\n    val spotlessVersion = \"6.23.3\"\n"
        "    repositories { mavenCentral() }\n"
        '    dependencies { classpath("com.diffplug.spotless:spotless-plugin-gradle:'
        '$spotlessVersion") }\n}\n\n'
        "rootProject {\n    subprojects {\n"
        "        apply<com.diffplug.gradle.spotless.SpotlessPlugin>()\n"
        "        extensions.configure<com.diffplug.gradle.spotless.SpotlessExtension> {\n"
        '            kotlin {\n                target("**/*.kt")\n'
        '                ktlint(ktlintVersion)\n'
        '                licenseHeaderFile(rootProject.file("spotless/copyright.kt"))\n'
        "            }\n        }\n    }\n}\n"
    ),
    "gradle/libs.versions.toml": (
        '[versions]\nkotlin = "2.1.0"\nhilt = "2.56"\nroborazzi = "1.43.0"\n'
        'turbine = "1.2.0"\ntruth = "1.4.4"\n\n'
        "[libraries]\n"
        'hilt-android = { group = "com.google.dagger", name = "hilt-android", '
        'version.ref = "hilt" }\n'
        'turbine = { group = "app.cash.turbine", name = "turbine", version.ref = "turbine" }\n'
        'google-truth = { group = "com.google.truth", name = "truth", version.ref = "truth" }\n'
    ),
    "feature/foryou/impl/build.gradle.kts": (
        "plugins {\n    alias(libs.plugins.nowinandroid.android.feature.impl)\n"
        "    alias(libs.plugins.nowinandroid.android.library.compose)\n}\n\n"
        'android {\n'
        '    namespace = "com.google.samples.apps.nowinandroid.feature.foryou.impl"\n}\n\n'
        "dependencies {\n    implementation(projects.core.data)\n\n"
        "    testImplementation(projects.core.testing)\n"
        "    testImplementation(libs.turbine)\n}\n"
    ),
    NIA_VM: (
        "package com.google.samples.apps.nowinandroid.feature.foryou.impl\n\n"
        "import androidx.lifecycle.ViewModel\nimport androidx.lifecycle.viewModelScope\n"
        "import com.google.samples.apps.nowinandroid.core.data.repository.UserDataRepository\n"
        "import dagger.hilt.android.lifecycle.HiltViewModel\n"
        "import kotlinx.coroutines.launch\nimport javax.inject.Inject\n\n"
        "@HiltViewModel\nclass ForYouViewModel @Inject constructor(\n"
        "    private val userDataRepository: UserDataRepository,\n) : ViewModel() {\n\n"
        "    fun updateTopicSelection(topicId: String, isChecked: Boolean) {\n"
        "        viewModelScope.launch {\n"
        "            userDataRepository.setTopicIdFollowed(topicId, isChecked)\n"
        "        }\n    }\n}\n"
    ),
    NIA_VM_TEST: (
        "package com.google.samples.apps.nowinandroid.feature.foryou.impl\n\n"
        "import com.google.samples.apps.nowinandroid.core.testing.repository."
        "TestUserDataRepository\n"
        "import com.google.samples.apps.nowinandroid.core.testing.util.MainDispatcherRule\n"
        "import org.junit.Before\nimport org.junit.Rule\n\n"
        "class ForYouViewModelTest {\n\n"
        "    @get:Rule\n    val dispatcherRule = MainDispatcherRule()\n\n"
        "    private val userDataRepository = TestUserDataRepository()\n"
        "    private lateinit var viewModel: ForYouViewModel\n\n"
        "    @Before\n    fun setup() {\n"
        "        viewModel = ForYouViewModel(userDataRepository = userDataRepository)\n    }\n}\n"
    ),
    f"core/testing/src/main/kotlin/{NIA_PKG}/core/testing/repository/TestUserDataRepository.kt": (
        "package com.google.samples.apps.nowinandroid.core.testing.repository\n\n"
        "class TestUserDataRepository : UserDataRepository {\n"
        "    private val _userData = MutableSharedFlow<UserData>(replay = 1)\n"
        "    override val userData: Flow<UserData> = _userData.filterNotNull()\n}\n"
    ),
    NIA_BASELINE: (
        "androidx.activity:activity-compose:1.10.1\nandroidx.activity:activity-ktx:1.10.1\n"
        "androidx.compose.material3:material3:1.3.2\ncom.google.dagger:hilt-android:2.56\n"
    ),
})

NIA_SCREENSHOT_FAIL = (
    "> Task :feature:foryou:impl:testDemoDebugUnitTest\n\n"
    "ForYouScreenScreenshotTests > forYouScreenPopulatedFeed FAILED\n"
    "    java.lang.AssertionError: /work/nowinandroid/feature/foryou/impl/src/test/screenshots/"
    "ForYouScreenPopulatedFeed_phone.png is changed. changed: 1.82%\n"
    "    Please check the diff image: /work/nowinandroid/feature/foryou/impl/build/outputs/"
    "roborazzi/ForYouScreenPopulatedFeed_phone_compare.png\n"
    "        at com.github.takahirom.roborazzi.RoborazziKt.processOutputImageAndReport"
    "(Roborazzi.kt:1037)\n\n"
    "ForYouScreenScreenshotTests > forYouScreenTopicSelection FAILED\n"
    "    java.lang.AssertionError: /work/nowinandroid/feature/foryou/impl/src/test/screenshots/"
    "ForYouScreenTopicSelection_phone.png is changed. changed: 1.79%\n\n"
    "48 tests completed, 2 failed\n\n"
    "> Task :feature:foryou:impl:testDemoDebugUnitTest FAILED\n\n"
    "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
    "Execution failed for task ':feature:foryou:impl:testDemoDebugUnitTest'.\n"
    "> There were failing tests. See the report at: file:///work/nowinandroid/feature/foryou/"
    "impl/build/reports/tests/testDemoDebugUnitTest/index.html\n\nBUILD FAILED in 1m 12s"
)
NIA_DEPGUARD_FAIL = (
    "> Task :app:dependencyGuard FAILED\n"
    "***** DEPENDENCY CHANGE DETECTED *****\n"
    "Dependencies Changed in :app for configuration prodReleaseRuntimeClasspath\n"
    "+ androidx.browser:browser:1.8.0\n\n"
    "If this is intentional, re-baseline using ./gradlew :app:dependencyGuardBaseline\n"
    "Or use ./gradlew dependencyGuardBaseline to re-baseline dependencies in entire project.\n\n"
    "FAILURE: Build failed with an exception.\n\nBUILD FAILED in 14s"
)

NIA_STORY = Story(
    id="ho-kt-nia-android-1",
    title="A Compose news app: flavor-specific test tasks, Roborazzi screenshots recorded on CI, "
          "test doubles instead of mocks, Dependency Guard, and spotless moved off the init "
          "script",
    project=NIA,
    sources=("android/nowinandroid",),
    lessons=(
        lesson("spotless-init", "command",
               "Fix formatting with `./gradlew --init-script gradle/init.gradle.kts "
               "spotlessApply`",
               "init-script|init.gradle", "spotlessApply"),
        lesson("spotless-plain", "command",
               "Spotless is applied by default from build-logic now (init.gradle.kts removed): "
               "fix formatting with plain `./gradlew spotlessApply`",
               "spotlessApply", "build-logic|by default|no longer|without|no init|plain"),
        lesson("test-variant", "command",
               "Run local tests on the DemoDebug variant: `./gradlew testDemoDebug`",
               "testDemoDebug"),
        lesson("record-first", "gotcha",
               "testDemoDebug fails on the Roborazzi screenshot tests off Linux (the known "
               "correct screenshots are recorded on CI with Linux): run recordRoborazziDemoDebug "
               "on main before starting work, then verifyRoborazziDemoDebug shows only real "
               "changes",
               "recordRoborazziDemoDebug"),
        lesson("no-screenshot-commit", "convention",
               "Screenshot images are generated by CI; don't check them into the repo from a "
               "workstation",
               "screenshot", r"re:\bCI\b|workstation",
               "checked in|check in|checked into|commit|stag"),
        lesson("no-mocks", "convention",
               "No mocking libraries in tests: replace production implementations with test "
               "doubles (the Test* repositories in core:testing) via Hilt's testing APIs or "
               "constructor injection for ViewModel tests",
               "mock", "test double|TestUserDataRepository|Test implementation|Test repositor"),
        lesson("compose-ui-test", "convention",
               "Tests for UI features only use ComposeTestRule with a ComponentActivity; bigger "
               "tests that start MainActivity live in :app",
               "ComposeTestRule|createAndroidComposeRule", "ComponentActivity"),
        lesson("dep-guard", "command",
               "When Dependency Guard fails after a dependency change, re-baseline with "
               "`./gradlew dependencyGuardBaseline` and commit the dependencies/*.txt baseline",
               "dependencyGuardBaseline"),
    ),
    also=(
        lesson("also-flavors", "fact",
               "The app has two product flavors, demo (static local data) and prod (real "
               "network calls, no public backend)",
               "demo", "prod"),
        lesson("also-turbine-truth", "fact",
               "Local tests use kotlinx.coroutines, Turbine for complex coroutine tests and "
               "Truth for assertions",
               "Turbine", "Truth"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: android/nowinandroid .github/pull_request_template.md (before #2055),
            # AGENTS.md (Commands to Build & Test)
            User("morning. I want a 'mark all as read' action on the For You feed: a "
                 "markAllAsViewed() on ForYouViewModel that marks every news resource in the "
                 "feed as viewed. to make sure tests pass and code is formatted: run local tests "
                 "on the DemoDebug variant by running ./gradlew testDemoDebug, and fix code "
                 "formatting with ./gradlew --init-script gradle/init.gradle.kts spotlessApply. "
                 "the app has two product flavors, demo and prod - demo uses static local data, "
                 "prod makes real network calls and there's no public backend.",
                 states=("test-variant", "spotless-init")),
            Read(NIA_VM),
            Edit(NIA_VM,
                 "            userDataRepository.setTopicIdFollowed(topicId, isChecked)\n"
                 "        }\n    }\n",
                 "            userDataRepository.setTopicIdFollowed(topicId, isChecked)\n"
                 "        }\n    }\n\n"
                 "    fun markAllAsViewed(newsResourceIds: Set<String>) {\n"
                 "        viewModelScope.launch {\n"
                 "            userDataRepository.setNewsResourcesViewed(newsResourceIds, "
                 "viewed = true)\n        }\n    }\n"),
            Bash("./gradlew testDemoDebug", out=NIA_SCREENSHOT_FAIL, ok=False),
            Say("The only failures are Roborazzi screenshot tests, and they fail on screens I "
                "didn't touch. The known correct screenshots in the repo are recorded on CI "
                "using Linux, and this Mac renders slightly differently. The workaround is to "
                "run recordRoborazziDemoDebug on the main branch before starting work; after "
                "that, verifyRoborazziDemoDebug only flags legitimate changes.",
                states="record-first"),
            Bash("./gradlew recordRoborazziDemoDebug && ./gradlew testDemoDebug",
                 out=_gradle_ok("> Task :feature:foryou:impl:recordRoborazziDemoDebug\n"
                                "> Task :feature:foryou:impl:testDemoDebugUnitTest", 88, 57)),
            # source: android/nowinandroid AGENTS.md (Continuous integration)
            User("good. don't stage the re-recorded pngs though: screenshot tests are generated "
                 "by CI, so they shouldn't be checked into the repo from a workstation.",
                 states="no-screenshot-commit"),
            Bash("./gradlew --init-script gradle/init.gradle.kts spotlessApply",
                 out=_gradle_ok("> Task :feature:foryou:impl:spotlessKotlin\n"
                                "> Task :spotlessApply", 11, 9)),
            Commit("Add markAllAsViewed to ForYouViewModel"),
        )),
        Session(day=4, events=(
            User("now the tests for markAllAsViewed. a teammate suggested pulling in MockK to "
                 "stub the repository, what do you think?"),
            # source: android/nowinandroid README.md (Testing)
            User("actually never mind, I checked: in tests, Now in Android notably does not use "
                 "any mocking libraries. instead, the production implementations can be replaced "
                 "with test doubles using Hilt's testing APIs (or via manual constructor "
                 "injection for ViewModel tests). there are Test implementations of each "
                 "repository in core:testing, like TestUserDataRepository. no MockK. for the "
                 "rest it's kotlinx.coroutines for most assertions, turbine for complex "
                 "coroutine tests and truth for assertions.",
                 states="no-mocks"),
            Edit(NIA_VM_TEST,
                 "        viewModel = ForYouViewModel(userDataRepository = userDataRepository)\n"
                 "    }\n}\n",
                 "        viewModel = ForYouViewModel(userDataRepository = userDataRepository)\n"
                 "    }\n\n"
                 "    @Test\n    fun markAllAsViewed_marksEveryResourceViewed() = runTest {\n"
                 "        userDataRepository.setUserData(emptyUserData)\n\n"
                 "        viewModel.markAllAsViewed(setOf(\"1\", \"2\"))\n\n"
                 "        assertEquals(setOf(\"1\", \"2\"), "
                 "userDataRepository.userData.first().viewedNewsResources)\n    }\n}\n"),
            # source: android/nowinandroid AGENTS.md (Creating tests, Instrumented tests)
            User("and add a UI test for the button. tests for UI features should only use "
                 "ComposeTestRule with a ComponentActivity. bigger tests live in the :app module "
                 "and they can start activities like MainActivity.",
                 states="compose-ui-test"),
            Write(NIA_UI_TEST,
                  "package com.google.samples.apps.nowinandroid.feature.foryou.impl\n\n"
                  "import androidx.activity.ComponentActivity\n"
                  "import androidx.compose.ui.test.junit4.createAndroidComposeRule\n"
                  "import org.junit.Rule\nimport org.junit.Test\n\n"
                  "class ForYouScreenTest {\n\n"
                  "    @get:Rule\n"
                  "    val composeTestRule = createAndroidComposeRule<ComponentActivity>()\n\n"
                  "    @Test\n    fun markAllAsRead_isShown_whenFeedLoaded() {\n"
                  "        composeTestRule.setContent { ForYouScreen(/* ... */) }\n"
                  "        composeTestRule.onNodeWithText(\"Mark all as read\")"
                  ".assertExists()\n    }\n}\n"),
            Bash("./gradlew testDemoDebug",
                 out=_gradle_ok("> Task :feature:foryou:impl:testDemoDebugUnitTest", 71, 33)),
            Commit("Test markAllAsViewed with TestUserDataRepository and a compose UI test"),
        ), judge={"test-variant": "not_down"}),
        Session(day=11, events=(
            User("open article links in a Custom Tab instead of the external browser. add "
                 "androidx.browser to the app."),
            Edit("gradle/libs.versions.toml", 'turbine = "1.2.0"\n',
                 'turbine = "1.2.0"\nandroidx-browser = "1.8.0"\n'),
            Edit("gradle/libs.versions.toml",
                 'turbine = { group = "app.cash.turbine", name = "turbine", '
                 'version.ref = "turbine" }\n',
                 'turbine = { group = "app.cash.turbine", name = "turbine", '
                 'version.ref = "turbine" }\n'
                 'androidx-browser = { group = "androidx.browser", name = "browser", '
                 'version.ref = "androidx-browser" }\n'),
            Bash("./gradlew dependencyGuard", out=NIA_DEPGUARD_FAIL, ok=False),
            Say("Dependency Guard keeps a baseline of the release runtime classpath and flags "
                "the new androidx.browser artifact. It's intentional, so I'll re-baseline with "
                "./gradlew dependencyGuardBaseline and commit the updated "
                "app/dependencies/prodReleaseRuntimeClasspath.txt with the change; CI runs the "
                "same check and fails PRs from forks that don't update it.",
                states="dep-guard"),
            Bash("./gradlew dependencyGuardBaseline",
                 out=_gradle_ok("> Task :app:dependencyGuardBaseline", 12, 4)),
            Edit(NIA_BASELINE, "androidx.activity:activity-ktx:1.10.1\n",
                 "androidx.activity:activity-ktx:1.10.1\nandroidx.browser:browser:1.8.0\n"),
            # source: android/nowinandroid AGENTS.md (Instrumented tests) - a one-off, not a rule
            User("just for this branch don't bother with the gradle-managed device tests "
                 "(pixel6api31aospDebugAndroidTest), the CI runner for them is being replaced."),
            Commit("Open links in Custom Tabs (androidx.browser) and update dependency baseline"),
        )),
        Session(day=20, events=(
            # source: android/nowinandroid #2055 "Apply spotless by default", AGENTS.md diff
            User("heads up, the 'Apply spotless by default' PR is merged: upgrades to spotless "
                 "8.2.1 and moves spotless setup from an init.gradle.kts to build-logic, and "
                 "updates all references to init.gradle.kts. fix linting/formatting is just "
                 "./gradlew spotlessApply now, and CI runs ./gradlew spotlessCheck.",
                 states="spotless-plain", replaces="spotless-init"),
            Say("Got it, gradle/init.gradle.kts is gone and spotless comes from the build-logic "
                "convention plugins."),
            Probe("bookmarks needs the same treatment: a clearAll() on BookmarksViewModel with a "
                  "test. go ahead",
                  needs=("no-mocks", "test-variant")),
        )),
        Session(day=27, events=(
            Probe("CI says my branch has formatting problems, can you sort that out?",
                  needs="spotless-plain"),
            Bash("./gradlew spotlessApply",
                 out=_gradle_ok("> Task :feature:bookmarks:impl:spotlessKotlin\n"
                                "> Task :spotlessApply", 10, 7)),
            Probe("I changed the padding on the topic cards. make sure the screenshot tests are "
                  "happy before I push",
                  needs=("record-first", "no-screenshot-commit")),
            Probe("I added coil-svg to the topic feature. anything else I need to update so CI "
                  "doesn't go red?",
                  needs="dep-guard"),
        ), judge={"spotless-plain": "not_down"}),
        Session(day=35, events=(
            Probe("write a UI test for the interests screen's follow button",
                  needs="compose-ui-test"),
            Probe("run the unit tests before I push please",
                  needs="test-variant"),
            Bash("./gradlew testDemoDebug",
                 out=_gradle_ok("> Task :feature:interests:impl:testDemoDebugUnitTest", 76, 35)),
        )),
    ),
)



# ---------------------------------------------------------------------------------------------
# 3. A Gradle/Maven code-formatting library (Java) - diffplug/spotless
# ---------------------------------------------------------------------------------------------

SP_GENERIC = "lib/src/main/java/com/diffplug/spotless/generic"
SP_TESTS = "testlib/src/test/java/com/diffplug/spotless/generic"
SP_STEP = f"{SP_GENERIC}/CollapseBlankLinesStep.java"
SP_STEP_TEST = f"{SP_TESTS}/CollapseBlankLinesStepTest.java"
SP_YAML = "lib/src/main/java/com/diffplug/spotless/yaml/SnakeYamlStep.java"

SPOTLESS = Project("spotless", "java", {
    "settings.gradle": (
        "rootProject.name = 'spotless'\n\n"
        "include 'lib'\ninclude 'lib-extra'\ninclude 'testlib'\n"
        "include 'plugin-gradle'\ninclude 'plugin-maven'\n"
    ),
    "build.gradle": (
        "plugins {\n  id 'com.diffplug.spotless'\n  id 'com.github.spotbugs' apply false\n}\n\n"
        "spotless {\n  java {\n"
        "    eclipse().configFile rootProject.file('gradle/spotless.eclipseformat.xml')\n"
        "    licenseHeaderFile rootProject.file('gradle/spotless.license')\n  }\n}\n"
    ),
    f"{SP_GENERIC}/IndentStep.java": (
        "package com.diffplug.spotless.generic;\n\n"
        "import java.io.Serializable;\n\n"
        "import com.diffplug.spotless.FormatterFunc;\n"
        "import com.diffplug.spotless.FormatterStep;\n\n"
        "public final class IndentStep {\n  private IndentStep() {}\n\n"
        "  public static FormatterStep create(Type type, int numSpacesPerTab) {\n"
        "    return FormatterStep.create(\"indentWith\" + type.tabSpace(\"Tabs\", \"Spaces\"),\n"
        "        new State(type, numSpacesPerTab), State::toFormatter);\n  }\n\n"
        "  private static final class State implements Serializable {\n"
        "    private static final long serialVersionUID = 1L;\n"
        "    // ...\n  }\n}\n"
    ),
    f"{SP_TESTS}/IndentStepTest.java": (
        "package com.diffplug.spotless.generic;\n\n"
        "import org.junit.jupiter.api.Test;\n\n"
        "import com.diffplug.spotless.StepHarness;\n\n"
        "class IndentStepTest {\n  @Test\n  void tabToSpace() {\n"
        "    StepHarness.forStep(IndentStep.create(IndentStep.Type.SPACE, 4))\n"
        "        .testResource(\"indent/IndentedWithTab.test\", "
        "\"indent/IndentedWithSpace.test\");\n  }\n}\n"
    ),
    "CHANGES.md": (
        "# spotless-lib and spotless-lib-extra releases\n\n"
        "## [Unreleased]\n### Fixed\n"
        "* Fix `IndentStep` on files with mixed line endings. "
        "([#2101](https://github.com/diffplug/spotless/issues/2101))\n\n"
        "## [3.0.2] - 2025-01-14\n"
    ),
    "plugin-gradle/CHANGES.md": (
        "# spotless-plugin-gradle releases\n\n## [Unreleased]\n\n## [7.0.2] - 2025-01-14\n"
    ),
    "plugin-maven/CHANGES.md": (
        "# spotless-plugin-maven releases\n\n## [Unreleased]\n\n## [2.44.2] - 2025-01-14\n"
    ),
})

SP_TEST_OK = _gradle_ok(
    "> Task :testlib:test\n\n"
    "CollapseBlankLinesStepTest > collapsesToMax() PASSED\n"
    "CollapseBlankLinesStepTest > equality() PASSED", 23, 14)
SP_SPOTBUGS_FAIL = (
    "> Task :lib:spotbugsMain FAILED\n\n"
    "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
    "Execution failed for task ':lib:spotbugsMain'.\n"
    "> A failure occurred while executing com.github.spotbugs.snom.internal.SpotBugsRunnerForHybrid"
    "$SpotBugsExecutor\n"
    "   > Verification failed: SpotBugs ended with exit code 1.\n"
    "     M B Se: com.diffplug.spotless.generic.CollapseBlankLinesStep$State is Serializable; "
    "consider declaring a serialVersionUID  [SE_NO_SERIALVERSIONID] "
    "At CollapseBlankLinesStep.java:[line 31]\n\n"
    "BUILD FAILED in 19s"
)

SP_STORY = Story(
    id="ho-java-spotless-steps-1",
    title="A formatter library: the new-step checklist, changelog entries, no force pushes, "
          "lints instead of exceptions, and roundtrip serialization going from optional to "
          "required",
    project=SPOTLESS,
    sources=("diffplug/spotless",),
    lessons=(
        lesson("step-shape", "convention",
               "A new step's class name ends in Step (SomeNewStep) and has a public static "
               "`create` method that returns a FormatterStep",
               "create", "FormatterStep"),
        lesson("step-test", "convention",
               "Each step has a SomeNewStepTest that uses StepHarness or StepHarnessWithFile, "
               "plus an `equality()` test using StepEqualityTester",
               "StepHarness", "StepEqualityTester|equality"),
        lesson("test-one", "command",
               "Run only the tests you are working on, e.g. "
               "`./gradlew :testlib:test --tests com.diffplug.spotless.generic.IndentStepTest`",
               ":testlib:test", "--tests"),
        lesson("changelog", "convention",
               "Every PR adds a bullet under [Unreleased] in CHANGES.md, plugin-gradle/CHANGES.md "
               "and plugin-maven/CHANGES.md (summary + link to the issue, or to the PR for big "
               "changes); a plugin-only change updates only that plugin's CHANGES.md",
               "CHANGES.md", "Unreleased"),
        lesson("no-force-push", "preference",
               "Do not force push to PR branches (it breaks review of what happened after it)",
               "force push|force-push|push --force|force pushing|--force-with-lease"),
        lesson("pre-pr-checks", "command",
               "Before a PR run `./gradlew spotlessApply` (spotless formats itself) and "
               "`./gradlew spotbugsMain`; CI runs the same checks",
               "spotlessApply", "spotbugsMain"),
        lesson("lint-atline", "convention",
               "When formatting goes wrong, model it as a lint with line numbers: throw "
               "Lint.atLine(...) (or override lint()) instead of a naked exception; lints are "
               "build failures by default, so don't go lint crazy",
               "Lint.atLine|atLine|lints|a lint"),
        lesson("compile-only", "decision",
               "Third-party formatter jars are resolved with JarState; call them through a "
               "compile-only source set (preferred for most cases) rather than reflection",
               "compile-only|compileOnly", "reflection|JarState"),
        lesson("rt-optional", "decision",
               "New steps may start with `StepHarness.forStep(myStep).supportsRoundTrip(false)` "
               "and add round trip support later",
               "supportsRoundTrip"),
        lesson("rt-required", "decision",
               "Every FormatterStep must be round-trip serializable for Gradle's configuration "
               "cache: a RoundtripState (FileSignature.Promised, JarState.Promised) plus an "
               "EqualityState built with SerializedFunction; no supportsRoundTrip(false) opt-out",
               "roundtrip|round-trip|round trip", "RoundtripState|EqualityState|Promised|serializ"),
    ),
    also=(
        lesson("also-serial-uid", "gotcha",
               "Serializable step State classes declare serialVersionUID = 1L, or spotbugsMain "
               "fails with SE_NO_SERIALVERSIONID",
               "serialVersionUID"),
        lesson("also-unix-newlines", "fact",
               "A FormatterStep receives only unix newlines and must return only unix newlines",
               "unix", "newline"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: diffplug/spotless CONTRIBUTING.md at 4e54fc2 (checklist for a new step,
            # "Start with StepHarness.forStep(myStep).supportsRoundTrip(false)"), "Run tests"
            User("I'd like a generic step that collapses runs of blank lines to at most N. here's "
                 "the checklist for creating a new step: class name ends in Step, SomeNewStep. "
                 "class has a public static method named create that returns a FormatterStep. "
                 "has a test class named SomeNewStepTest that uses StepHarness or "
                 "StepHarnessWithFile to test the step, with a test method equality() which "
                 "tests equality using StepEqualityTester. start with "
                 "StepHarness.forStep(myStep).supportsRoundTrip(false), and then add round trip "
                 "support later. each step is guaranteed its input has only unix newlines and "
                 "its output should also contain only unix newlines.",
                 states=("step-shape", "step-test", "rt-optional")),
            Write(SP_STEP,
                  "package com.diffplug.spotless.generic;\n\n"
                  "import java.io.Serializable;\n\n"
                  "import com.diffplug.spotless.FormatterFunc;\n"
                  "import com.diffplug.spotless.FormatterStep;\n\n"
                  "public final class CollapseBlankLinesStep {\n"
                  "  private CollapseBlankLinesStep() {}\n\n"
                  "  public static FormatterStep create(int maxBlankLines) {\n"
                  "    return FormatterStep.create(\"collapseBlankLines\", "
                  "new State(maxBlankLines), State::toFormatter);\n  }\n\n"
                  "  private static final class State implements Serializable {\n"
                  "    private final int max;\n\n"
                  "    State(int max) {\n      this.max = max;\n    }\n\n"
                  "    FormatterFunc toFormatter() {\n"
                  "      String limit = \"\\n\".repeat(max + 1);\n"
                  "      return unix -> unix.replaceAll(\"\\n{\" + (max + 2) + \",}\", "
                  "limit);\n    }\n  }\n}\n"),
            Write(SP_STEP_TEST,
                  "package com.diffplug.spotless.generic;\n\n"
                  "import org.junit.jupiter.api.Test;\n\n"
                  "import com.diffplug.spotless.StepEqualityTester;\n"
                  "import com.diffplug.spotless.StepHarness;\n\n"
                  "class CollapseBlankLinesStepTest {\n  @Test\n  void collapsesToMax() {\n"
                  "    StepHarness.forStep(CollapseBlankLinesStep.create(1))"
                  ".supportsRoundTrip(false)\n"
                  "        .test(\"a\\n\\n\\n\\nb\\n\", \"a\\n\\nb\\n\");\n  }\n\n"
                  "  @Test\n  void equality() {\n    new StepEqualityTester() {\n"
                  "      int max = 1;\n\n"
                  "      @Override\n      protected void setupTest(API api) {\n"
                  "        api.areDifferentThan();\n        max = 2;\n"
                  "        api.areDifferentThan();\n      }\n\n"
                  "      @Override\n      protected FormatterStep create() {\n"
                  "        return CollapseBlankLinesStep.create(max);\n      }\n"
                  "    }.testEquals();\n  }\n}\n"),
            # source: diffplug/spotless CONTRIBUTING.md ("Run tests")
            User("to run all tests, simply do ./gradlew test - but since that takes some time, "
                 "only run the tests concerning what you are working on, like "
                 "./gradlew :testlib:test --tests com.diffplug.spotless.generic.IndentStepTest",
                 states="test-one"),
            Bash("./gradlew :testlib:test --tests "
                 "com.diffplug.spotless.generic.CollapseBlankLinesStepTest", out=SP_TEST_OK),
            Commit("Add CollapseBlankLinesStep"),
        )),
        Session(day=2, events=(
            # source: diffplug/spotless PULL_REQUEST_TEMPLATE.md
            User("PR is open. after creating the PR, please add a commit that adds a bullet-point "
                 "under the [Unreleased] section of CHANGES.md, plugin-gradle/CHANGES.md, and "
                 "plugin-maven/CHANGES.md which includes a summary of the change and either a "
                 "link to the issue you are resolving (for small changes) or a link to the PR "
                 "(for big changes likely to have discussion). if a change only affects a build "
                 "plugin and not the lib, you only need to update that plugin's CHANGES.md. and "
                 "please DO NOT FORCE PUSH - don't worry about messy history, it's easier to do "
                 "code review if we can tell what happened after the review.",
                 states=("changelog", "no-force-push")),
            Edit("CHANGES.md", "## [Unreleased]\n### Fixed\n",
                 "## [Unreleased]\n### Added\n"
                 "* `CollapseBlankLinesStep` collapses runs of blank lines to a maximum. "
                 "([#2398](https://github.com/diffplug/spotless/pull/2398))\n### Fixed\n"),
            Edit("plugin-gradle/CHANGES.md", "## [Unreleased]\n",
                 "## [Unreleased]\n### Added\n"
                 "* `collapseBlankLines()` for every format. "
                 "([#2398](https://github.com/diffplug/spotless/pull/2398))\n"),
            Edit("plugin-maven/CHANGES.md", "## [Unreleased]\n",
                 "## [Unreleased]\n### Added\n"
                 "* `<collapseBlankLines>` for every format. "
                 "([#2398](https://github.com/diffplug/spotless/pull/2398))\n"),
            # source: diffplug/spotless CONTRIBUTING.md ("Check and format code")
            User("also, before creating a pull request format the code (yes, spotless is "
                 "formatted by spotless) and check for possible bugs: ./gradlew spotlessApply and "
                 "./gradlew spotbugsMain. these checks are also run by the pipeline.",
                 states="pre-pr-checks"),
            Bash("./gradlew spotlessApply spotbugsMain", out=SP_SPOTBUGS_FAIL, ok=False),
            Say("spotbugsMain flags the step's State: it is Serializable without a "
                "serialVersionUID (SE_NO_SERIALVERSIONID). The other steps declare "
                "`private static final long serialVersionUID = 1L;`, so I'll add it."),
            Edit(SP_STEP,
                 "  private static final class State implements Serializable {\n"
                 "    private final int max;\n",
                 "  private static final class State implements Serializable {\n"
                 "    private static final long serialVersionUID = 1L;\n\n"
                 "    private final int max;\n"),
            Bash("./gradlew spotlessApply spotbugsMain",
                 out=_gradle_ok("> Task :lib:spotbugsMain\n> Task :spotlessApply", 27, 18)),
            Commit("Changelog entries for CollapseBlankLinesStep, add serialVersionUID"),
        ), judge={"pre-pr-checks": "not_down"}),
        Session(day=8, events=(
            User("next one: a YAML step that reformats with snakeyaml-engine. how do we pull in "
                 "the snakeyaml jar without clashing with other formatters?"),
            # source: diffplug/spotless CONTRIBUTING.md ("Third-party dependencies via
            # reflection or compile-only source sets")
            User("we resolve third-party dependencies using JarState. to call methods on the "
                 "classes in that JarState you can either use reflection or a compile-only "
                 "source set. adding a compile-only sourceset is easier to read and probably a "
                 "better approach for most cases; reflection is more flexible, and might be "
                 "better for a very simple API. go with the compile-only source set.",
                 states="compile-only"),
            Write(SP_YAML,
                  "package com.diffplug.spotless.yaml;\n\n"
                  "import com.diffplug.spotless.FormatterStep;\n"
                  "import com.diffplug.spotless.JarState;\n"
                  "import com.diffplug.spotless.Provisioner;\n\n"
                  "public final class SnakeYamlStep {\n  private SnakeYamlStep() {}\n\n"
                  "  static final String MAVEN_COORDINATE = "
                  "\"org.snakeyaml:snakeyaml-engine:\";\n\n"
                  "  public static FormatterStep create(String version, "
                  "Provisioner provisioner) {\n"
                  "    return FormatterStep.createLazy(\"snakeyaml\",\n"
                  "        () -> JarState.from(MAVEN_COORDINATE + version, provisioner),\n"
                  "        jar -> input -> {\n"
                  "          throw new IllegalArgumentException(\"invalid YAML\");\n"
                  "        });\n  }\n}\n"),
            Say("Skeleton in place; the formatter function in the compile-only `yaml` source set "
                "throws IllegalArgumentException when snakeyaml can't parse the input."),
            # source: diffplug/spotless CONTRIBUTING.md ("Lints", added in 6c480d8)
            User("don't throw a naked exception there. spotless is primarily a formatter, not a "
                 "linter, but if something goes wrong during formatting it's better to model "
                 "that as a lint with line numbers: at any point during formatting you can throw "
                 "Lint.atLine(int line, ...), or override lint(String content, File file). and "
                 "don't go lint crazy! by default all lints are build failures.",
                 states="lint-atline"),
            Edit(SP_YAML, "          throw new IllegalArgumentException(\"invalid YAML\");\n",
                 "          throw Lint.atLine(1, \"snakeyaml\", \"invalid YAML\");\n"),
            Commit("WIP SnakeYamlStep via compile-only source set, parse errors as lints"),
        )),
        Session(day=15, events=(
            # source: diffplug/spotless #1945, CONTRIBUTING.md after 6c480d8 ("Serialization
            # roundtrip"; the supportsRoundTrip(false) line was removed)
            User("news from the configuration-cache work: every step supports roundtrip "
                 "serialization now, so it's enforced for all new steps and the "
                 "'start with supportsRoundTrip(false)' line is gone from the contributing "
                 "guide. in order to support Gradle's configuration cache, all FormatterStep "
                 "must be round-trip serializable. roundtrip steps have two states: a "
                 "RoundtripState, which must be roundtrip serializable (FileSignature.Promised "
                 "for settings files, JarState.Promised for the classpath), and an EqualityState "
                 "whose serialized form is used for equals/hashCode (FileSignature, JarState), "
                 "wired with SerializedFunction.",
                 states="rt-required", replaces="rt-optional"),
            Edit(SP_STEP_TEST,
                 "    StepHarness.forStep(CollapseBlankLinesStep.create(1))"
                 ".supportsRoundTrip(false)\n",
                 "    StepHarness.forStep(CollapseBlankLinesStep.create(1))\n"),
            Edit(SP_YAML,
                 "        () -> JarState.from(MAVEN_COORDINATE + version, provisioner),\n",
                 "        () -> JarState.promise(() -> JarState.from(MAVEN_COORDINATE + version, "
                 "provisioner)),\n        JarState.Promised::get,\n"),
            Bash("./gradlew :testlib:test --tests "
                 "com.diffplug.spotless.generic.CollapseBlankLinesStepTest", out=SP_TEST_OK),
            Commit("Roundtrip-serializable CollapseBlankLinesStep and SnakeYamlStep"),
        )),
        Session(day=22, events=(
            Probe("ok, another generic one: normalize curly quotes to straight quotes. can you "
                  "write it with its tests?",
                  needs=("step-shape", "step-test", "rt-required")),
            Probe("run just the tests for the new quote step",
                  needs="test-one"),
            Probe("snakeyaml blows up on tabs in indentation. how do we surface that to users?",
                  needs="lint-atline"),
        )),
        Session(day=30, events=(
            Probe("the quote step PR is up. what else does it need before a maintainer looks "
                  "at it?",
                  needs=("changelog", "pre-pr-checks")),
            Probe("I rebased the quote branch onto main locally after the review comments, "
                  "push it up",
                  needs="no-force-push"),
            Probe("for the toml step I need taplo's formatter classes from its jar. how do I "
                  "call into it?",
                  needs="compile-only"),
        )),
    ),
)



# ---------------------------------------------------------------------------------------------
# 4. A Spring Boot sample service (Java, Maven + Gradle) - spring-projects/spring-petclinic
# ---------------------------------------------------------------------------------------------

PC_OWNER = "src/main/java/org/springframework/samples/petclinic/owner/Owner.java"
PC_PG_TEST = "src/test/java/org/springframework/samples/petclinic/PostgresIntegrationTests.java"

PETCLINIC = Project("petclinic", "java", {
    "pom.xml": (
        '<?xml version="1.0" encoding="UTF-8"?>\n<project>\n'
        "  <modelVersion>4.0.0</modelVersion>\n"
        "  <groupId>org.springframework.samples</groupId>\n"
        "  <artifactId>spring-petclinic</artifactId>\n  <version>4.0.0-SNAPSHOT</version>\n\n"
        "  <properties>\n    <java.version>25</java.version>\n"
        "    <maven.compiler.release>17</maven.compiler.release>\n"
        "    <error-prone.version>2.42.0</error-prone.version>\n"
        "    <nullaway.version>0.12.10</nullaway.version>\n"
        "    <spring-format.version>0.0.47</spring-format.version>\n  </properties>\n\n"
        "  <build>\n    <plugins>\n      <plugin>\n"
        "        <groupId>io.spring.javaformat</groupId>\n"
        "        <artifactId>spring-javaformat-maven-plugin</artifactId>\n"
        "        <version>${spring-format.version}</version>\n"
        "        <executions><execution><phase>validate</phase>"
        "<goals><goal>validate</goal></goals></execution></executions>\n"
        "      </plugin>\n    </plugins>\n  </build>\n</project>\n"
    ),
    "build.gradle": (
        "plugins {\n  id 'java'\n  id 'org.springframework.boot' version '4.0.0-M3'\n"
        "  id 'io.spring.javaformat' version '0.0.47'\n"
        "  id 'net.ltgt.errorprone' version '4.3.0'\n}\n\n"
        "java {\n  toolchain {\n    languageVersion = JavaLanguageVersion.of(25)\n  }\n}\n"
    ),
    "docker-compose.yml": (
        "services:\n  mysql:\n    image: mysql:9.2\n    ports:\n      - \"3306:3306\"\n"
        "    profiles:\n      - mysql\n"
        "  postgres:\n    image: postgres:17.5\n    ports:\n      - \"5432:5432\"\n"
        "    environment:\n      - POSTGRES_PASSWORD=petclinic\n"
        "      - POSTGRES_USER=petclinic\n      - POSTGRES_DB=petclinic\n"
        "    profiles:\n      - postgres\n"
    ),
    PC_OWNER: (
        "package org.springframework.samples.petclinic.owner;\n\n"
        "import jakarta.persistence.Column;\nimport jakarta.persistence.Entity;\n"
        "import jakarta.validation.constraints.NotBlank;\n\n"
        "@Entity\n@Table(name = \"owners\")\npublic class Owner extends Person {\n\n"
        "\t@Column(name = \"telephone\")\n\t@NotBlank\n\tprivate String telephone;\n\n"
        "\tpublic String getTelephone() {\n\t\treturn this.telephone;\n\t}\n\n}\n"
    ),
    "src/main/resources/application-postgres.properties": (
        "database=postgres\n"
        "spring.datasource.url=${POSTGRES_URL:jdbc:postgresql://localhost/petclinic}\n"
        "spring.datasource.username=${POSTGRES_USER:petclinic}\n"
        "spring.datasource.password=${POSTGRES_PASS:petclinic}\n"
        "spring.sql.init.mode=always\n"
    ),
    PC_PG_TEST: (
        "package org.springframework.samples.petclinic;\n\n"
        "@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "
        "\"spring.docker.compose.skip.in-tests=false\", //\n"
        "\t\t\"spring.docker.compose.profiles.active=postgres\" })\n"
        "@ActiveProfiles(\"postgres\")\n@DisabledInNativeImage\n"
        "public class PostgresIntegrationTests {\n\n"
        "\t@Test\n\tvoid testFindAll() throws Exception {\n"
        "\t\tvets.findAll();\n\t\tvets.findAll(); // served from cache\n\t}\n\n}\n"
    ),
    "src/main/scss/petclinic.scss": (
        "$spring-green: #6db33f;\n$spring-dark-green: #5fa134;\n"
        "$spring-brown: #34302d;\n\n@import \"header.scss\";\n@import \"typography.scss\";\n"
        ".navbar {\n  background-color: $spring-brown;\n}\n"
    ),
})

PC_FORMAT_FAIL = (
    "[INFO] --- spring-javaformat:0.0.47:validate (default) @ spring-petclinic ---\n"
    "[INFO] ------------------------------------------------------------------------\n"
    "[INFO] BUILD FAILURE\n"
    "[INFO] ------------------------------------------------------------------------\n"
    "[INFO] Total time:  3.118 s\n"
    "[ERROR] Failed to execute goal io.spring.javaformat:spring-javaformat-maven-plugin:0.0.47:"
    "validate (default) on project spring-petclinic: Formatting violations found in the "
    "following files:\n"
    "[ERROR]  * /work/petclinic/src/main/java/org/springframework/samples/petclinic/owner/"
    "Owner.java\n[ERROR] \n[ERROR] Run `spring-javaformat:apply` to fix.\n"
    "[ERROR] -> [Help 1]"
)
PC_TESTS_OK = (
    "[INFO] Results:\n[INFO] \n"
    "[WARNING] Tests run: 48, Failures: 0, Errors: 0, Skipped: 2\n[INFO] \n"
    "[INFO] ------------------------------------------------------------------------\n"
    "[INFO] BUILD SUCCESS\n"
    "[INFO] ------------------------------------------------------------------------\n"
    "[INFO] Total time:  41.562 s"
)
PC_PG_FAIL = (
    "[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 21.84 s <<< FAILURE! "
    "-- in org.springframework.samples.petclinic.PostgresIntegrationTests\n"
    "[ERROR] org.springframework.samples.petclinic.PostgresIntegrationTests.testFindAll -- "
    "Time elapsed: 0.004 s <<< ERROR!\n"
    "java.lang.IllegalStateException: Failed to load ApplicationContext for "
    "[WebMergedContextConfiguration@6db3732f testClass = org.springframework.samples.petclinic."
    "PostgresIntegrationTests, activeProfiles = [\"postgres\"], propertySourceProperties = "
    "[\"spring.docker.compose.skip.in-tests=false\", "
    "\"spring.docker.compose.profiles.active=postgres\"]]\n"
    "Caused by: org.springframework.boot.docker.compose.lifecycle.ReadinessTimeoutException: "
    "Readiness timeout of PT2M reached while waiting for services "
    "[DefaultRunningService[name='petclinic-postgres-1']]\n"
    "petclinic-postgres-1  | FATAL:  database files are incompatible with server\n"
    "petclinic-postgres-1  | DETAIL:  The data directory was initialized by PostgreSQL version "
    "16, which is not compatible with this version 17.5.\n\n"
    "[ERROR] Tests run: 48, Failures: 0, Errors: 1, Skipped: 2\n[INFO] BUILD FAILURE"
)

PC_STORY = Story(
    id="ho-java-petclinic-1",
    title="A Spring Boot sample app: format validation, the CSS profile, a stale Postgres "
          "volume, docker compose services, the build JDK going from 25 back to 17 and the CLA "
          "replaced by DCO sign-off",
    project=PETCLINIC,
    sources=("spring-projects/spring-petclinic",),
    lessons=(
        lesson("jdk25-build", "fact",
               "Building needs Java 25 (NullAway with ErrorProne needs a newer JDK for type-use "
               "annotations); javac release is 17, so the app runs on Java 17 or newer",
               r"re:\b(java|jdk) ?25\b", "build"),
        lesson("jdk17-build", "fact",
               "Java 17 or later is enough to build now: the ErrorProne and NullAway compiler "
               "plugins were removed",
               r"re:\b(java|jdk) ?17\b", "remov|no longer|dropp|without"),
        lesson("cla", "convention",
               "Before a first pull request, fill out and submit the Contributor License "
               "Agreement",
               r"re:Contributor License Agreement|\bCLA\b"),
        lesson("dco", "convention",
               "Every commit must include a Signed-off-by trailer (Developer Certificate of "
               "Origin), e.g. `git commit -s`",
               "Signed-off-by|DCO|sign-off|signoff|commit -s"),
        lesson("javaformat", "command",
               "The build validates Spring Java Format in the validate phase; fix violations with "
               "`./mvnw spring-javaformat:apply`",
               "spring-javaformat:apply|javaformat:apply"),
        lesson("css", "command",
               "After changing petclinic.scss (or upgrading Bootstrap), re-compile the CSS with "
               "the Maven profile: `./mvnw package -P css`; Gradle has no CSS profile",
               r"re:-P ?css"),
        lesson("compose-old", "command",
               "Start a database with `docker-compose --profile postgres up` (or --profile mysql)",
               "docker-compose --profile|--profile postgres|--profile mysql"),
        lesson("compose-new", "command",
               "Start a database with `docker compose up postgres` (or mysql): each compose "
               "service is named after the Spring profile",
               "docker compose up", "postgres|mysql|service"),
        lesson("stale-volume", "gotcha",
               "PostgresIntegrationTests fails to load the ApplicationContext when an old "
               "postgres volume from a previous run (older postgres version) is around: delete "
               "it (`docker compose rm -v postgres`); the test now starts compose with "
               "--force-recreate,--renew-anon-volumes",
               "volume", "docker compose rm|renew-anon-volumes|force-recreate|delete|remov"),
    ),
    also=(
        lesson("also-no-dockerfile", "fact",
               "There is no Dockerfile: build a container image with "
               "`./mvnw spring-boot:build-image`",
               "build-image"),
        lesson("also-profiles", "fact",
               "Switching database needs a different profile: spring.profiles.active=mysql or "
               "spring.profiles.active=postgres (H2 in memory by default)",
               "spring.profiles.active"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: spring-projects/spring-petclinic #2016 (description),
            # README.md at 6feeae0 ("Java 25 or later is required for the build")
            User("hi! quick context: we're on Spring Boot 4.0.0-M3 now with JSpecify nullability "
                 "annotations, and NullAway is integrated in the build to get null checking at "
                 "compile time. NullAway relies on a bugfix for type-use annotations which hasn't "
                 "been backported to JDK 17, so Java 25 or later is required for the build, but "
                 "the -release parameter for javac is set to 17, so the application can run with "
                 "Java 17 or newer. today: the owner telephone should be exactly 10 digits, with a "
                 "validation message.",
                 states="jdk25-build"),
            Read(PC_OWNER),
            Edit(PC_OWNER, "import jakarta.validation.constraints.NotBlank;\n",
                 "import jakarta.validation.constraints.NotBlank;\n"
                 "import jakarta.validation.constraints.Pattern;\n"),
            Edit(PC_OWNER, "\t@NotBlank\n\tprivate String telephone;\n",
                 "\t@NotBlank\n    @Pattern(regexp = \"\\\\d{10}\", "
                 "message = \"{telephone.invalid}\")\n\tprivate String telephone;\n"),
            Bash("./mvnw test", out=PC_FORMAT_FAIL, ok=False),
            Say("The build runs Spring Java Format's validate goal in the validate phase and my "
                "annotation is indented with spaces instead of a tab. The fix is "
                "./mvnw spring-javaformat:apply, then the tests again.",
                states="javaformat"),
            Bash("./mvnw spring-javaformat:apply && ./mvnw test", out=PC_TESTS_OK),
            Edit(PC_OWNER, "\t@NotBlank\n    @Pattern(", "\t@NotBlank\n\t@Pattern("),
            User("nice. I'll open the PR from my fork. anything I need to do first?"),
            # source: spring-projects/spring-petclinic README.md before 6328d2c (Contributing)
            User("ah right, the readme: for pull requests, editor preferences are available in "
                 "the editor config, and if you have not previously done so, please fill out and "
                 "submit the Contributor License Agreement. done that already.",
                 states="cla"),
            Commit("Validate owner telephone as 10 digits"),
        ), judge={"javaformat": "not_down"}),
        Session(day=3, events=(
            # source: spring-projects/spring-petclinic README.md before 3b90fac
            # (Database configuration)
            User("I want to try the owner search against postgres. you can start it with the "
                 "docker-compose.yml: each service has a profile just like the Spring profile, "
                 "docker-compose --profile postgres up. whenever the database type changes, the "
                 "app needs to run with a different profile: spring.profiles.active=postgres.",
                 states="compose-old"),
            Bash("./mvnw test -Dtest=PostgresIntegrationTests", out=PC_PG_FAIL, ok=False),
            Say("PostgresIntegrationTests can't load the context: the postgres container never "
                "gets ready because its data directory was initialized by PostgreSQL 16."),
            # source: spring-projects/spring-petclinic #1522 (comment)
            User("seen that one: it fails for me when I have an old volume from a previous test "
                 "run with an older version of postgres. you can just delete the volume, e.g. by "
                 "docker compose rm postgres.",
                 states="stale-volume"),
            Bash("docker compose rm -s -f -v postgres && "
                 "./mvnw test -Dtest=PostgresIntegrationTests",
                 out="[+] Removing 1/1\n ✔ Container petclinic-postgres-1  Removed  0.2s\n"
                     + PC_TESTS_OK.replace("48, Failures: 0, Errors: 0, Skipped: 2",
                                           "1, Failures: 0, Errors: 0, Skipped: 0")),
            User("ok good, green. nothing to commit for this one."),
        )),
        Session(day=7, events=(
            User("marketing wants the navbar in the darker spring green."),
            # source: spring-projects/spring-petclinic README.md (Compiling the CSS)
            User("heads up: there is a petclinic.css in src/main/resources/static/resources/css, "
                 "generated from the petclinic.scss source combined with the Bootstrap library. "
                 "if you make changes to the scss, or upgrade Bootstrap, you need to re-compile "
                 "the CSS resources using the Maven profile \"css\", i.e. ./mvnw package -P css. "
                 "there is no build profile for Gradle to compile the CSS.",
                 states="css"),
            Edit("src/main/scss/petclinic.scss", "  background-color: $spring-brown;\n",
                 "  background-color: $spring-dark-green;\n"),
            Bash("./mvnw package -P css",
                 out="[INFO] --- sass-cli:1.0.0:run (default) @ spring-petclinic ---\n"
                     "[INFO] Compiled src/main/scss/petclinic.scss to "
                     "target/classes/static/resources/css/petclinic.css\n" + PC_TESTS_OK),
            # one-off request, not a rule
            User("skip the gradle build this time, I only need the maven jar for the demo."),
            User("someone asked on the PR if we should add a Dockerfile for the demo box."),
            # source: spring-projects/spring-petclinic README.md (Building a Container)
            User("no - there is no Dockerfile in this project on purpose; you can build a "
                 "container image using the Spring Boot build plugin: "
                 "./mvnw spring-boot:build-image."),
            Commit("Use the darker spring green for the navbar"),
        )),
        Session(day=12, events=(
            # source: spring-projects/spring-petclinic commit 3b90fac "Fix occasional stale volume
            # in postgres tests" (README diff and PostgresIntegrationTests)
            User("pulled main: 'fix occasional stale volume in postgres tests'. the compose file "
                 "no longer uses profiles, each one has a service named after the Spring profile, "
                 "so it's docker compose up postgres (or docker compose up mysql) now. and the "
                 "test passes spring.docker.compose.start.arguments="
                 "--force-recreate,--renew-anon-volumes,postgres, so the old-volume thing "
                 "shouldn't bite in the test anymore. can you port that to our branch?",
                 states="compose-new", replaces="compose-old"),
            Edit(PC_PG_TEST, "\t\t\"spring.docker.compose.profiles.active=postgres\" })\n",
                 "\t\t\"spring.docker.compose.start.arguments=--force-recreate,"
                 "--renew-anon-volumes,postgres\" })\n"),
            Edit("docker-compose.yml", "    profiles:\n      - mysql\n", ""),
            Edit("docker-compose.yml", "    profiles:\n      - postgres\n", ""),
            Commit("Name compose services after the Spring profiles, recreate postgres in tests"),
            Probe("the vets page footer has too much space below it, can you tighten it?",
                  needs="css"),
            Probe("CI went red at the validate step on my OwnerController change, fix it?",
                  needs="javaformat"),
        )),
        Session(day=20, events=(
            # source: spring-projects/spring-petclinic #2136, commit 828940e
            # "Support building with Java 17"
            User("news: 'Remove NullAway from PetClinic to ensure support for building with Java "
                 "17' is merged - support building with Java 17, needed to remove ErrorProne and "
                 "NullAway compiler plugins. readme now says Java 17 or later is required for the "
                 "build, and the application can run with Java 17 or newer. please mirror it in "
                 "our pom and build.gradle.",
                 states="jdk17-build", replaces="jdk25-build"),
            Edit("pom.xml", "    <java.version>25</java.version>\n",
                 "    <java.version>17</java.version>\n"),
            Edit("pom.xml",
                 "    <error-prone.version>2.42.0</error-prone.version>\n"
                 "    <nullaway.version>0.12.10</nullaway.version>\n", ""),
            Edit("build.gradle", "  id 'net.ltgt.errorprone' version '4.3.0'\n", ""),
            Edit("build.gradle", "JavaLanguageVersion.of(25)", "JavaLanguageVersion.of(17)"),
            Bash("./mvnw test", out=PC_TESTS_OK),
            # source: spring-projects/spring-petclinic README.md after 6328d2c (Contributing),
            # spring.io blog "Hello DCO, Goodbye CLA"
            User("and the other contributing change: all commits must include a Signed-off-by "
                 "trailer at the end of each commit message to indicate that the contributor "
                 "agrees to the Developer Certificate of Origin. see 'Hello DCO, Goodbye CLA: "
                 "Simplifying Contributions to Spring'.",
                 states="dco", replaces="cla"),
            Commit("Build with Java 17, drop ErrorProne and NullAway\n\n"
                   "Signed-off-by: Contributor <contributor@example.com>"),
        )),
        Session(day=28, events=(
            Probe("I'm setting up a GitHub Actions build for my fork, which JDK should the "
                  "runner install?",
                  needs="jdk17-build"),
            Probe("I want to click around with real data in postgres today, get the database "
                  "up for me",
                  needs="compose-new"),
            Probe("PostgresIntegrationTests is red on my laptop after I switched postgres images "
                  "for the upgrade test, any idea?",
                  needs="stale-volume"),
            Edit(PC_OWNER, "\tpublic String getTelephone() {\n",
                 "\tpublic void setTelephone(String telephone) {\n"
                 "\t\tthis.telephone = telephone;\n\t}\n\n"
                 "\tpublic String getTelephone() {\n"),
            Probe("ok, commit the telephone setter and push it to my branch",
                  needs="dco"),
            Bash("git commit -s -am 'Add Owner.setTelephone'",
                 out="[owner-phone 4c1d2e9] Add Owner.setTelephone\n"
                     " 1 file changed, 4 insertions(+)"),
        )),
    ),
)



# ---------------------------------------------------------------------------------------------
# 5. A Kotlin static-analysis tool and its Gradle plugin - detekt/detekt
# ---------------------------------------------------------------------------------------------

DK_RULES = "detekt-rules-coroutines/src/main/kotlin/dev/detekt/rules/coroutines"
DK_TESTS = "detekt-rules-coroutines/src/test/kotlin/dev/detekt/rules/coroutines"
DK_RULE = f"{DK_RULES}/RunCatchingInSuspend.kt"
DK_SPEC = f"{DK_TESTS}/RunCatchingInSuspendSpec.kt"
DK_PROVIDER = f"{DK_RULES}/CoroutinesProvider.kt"
DK_CONFIG = "detekt-core/src/main/resources/default-detekt-config.yml"

DETEKT = Project("detekt", "kotlin", {
    "settings.gradle.kts": (
        'rootProject.name = "detekt"\n\npluginManagement {\n    includeBuild("build-logic")\n'
        '    includeBuild("detekt-gradle-plugin")\n}\n\n'
        'include("detekt-api")\ninclude("detekt-cli")\ninclude("detekt-core")\n'
        'include("detekt-rules-coroutines")\ninclude("detekt-test")\n'
    ),
    "build-logic/src/main/kotlin/Versions.kt": (
        "object Versions {\n"
        '    const val DETEKT: String = "2.0.0-alpha.0"\n'
        '    const val JVM_TARGET: String = "1.8"\n}\n'
    ),
    DK_PROVIDER: (
        "package dev.detekt.rules.coroutines\n\n"
        "import dev.detekt.api.RuleSet\nimport dev.detekt.api.RuleSetId\n"
        "import dev.detekt.api.internal.DefaultRuleSetProvider\n\n"
        "class CoroutinesProvider : DefaultRuleSetProvider {\n\n"
        '    override val ruleSetId = RuleSetId("coroutines")\n\n'
        "    override fun instance(): RuleSet =\n        RuleSet(\n            ruleSetId,\n"
        "            listOf(\n                ::GlobalCoroutineUsage,\n"
        "                ::RedundantSuspendModifier,\n                ::SleepInsteadOfDelay,\n"
        "            )\n        )\n}\n"
    ),
    DK_CONFIG: (
        "coroutines:\n  active: true\n  GlobalCoroutineUsage:\n    active: false\n"
        "  RedundantSuspendModifier:\n    active: true\n  SleepInsteadOfDelay:\n"
        "    active: true\n"
    ),
    "detekt-gradle-plugin/build.gradle.kts": (
        "plugins {\n    id(\"module\")\n    `java-gradle-plugin`\n}\n\n"
        "testing {\n    suites {\n"
        "        register<JvmTestSuite>(\"functionalTest\") {\n"
        "            useJUnitJupiter()\n        }\n    }\n}\n"
    ),
})

DK_DETEKT_FAIL = (
    "> Task :detekt-rules-coroutines:detektMain FAILED\n"
    "/work/detekt/detekt-rules-coroutines/src/main/kotlin/dev/detekt/rules/coroutines/"
    "RunCatchingInSuspend.kt:29:1: Line detected, which is longer than the defined maximum line "
    "length in the code style. [MaxLineLength]\n"
    "/work/detekt/detekt-rules-coroutines/src/main/kotlin/dev/detekt/rules/coroutines/"
    "RunCatchingInSuspend.kt:31:9: Unnecessary safe call operator detected. "
    "[UnnecessarySafeCall]\n\n"
    "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
    "Execution failed for task ':detekt-rules-coroutines:detektMain'.\n"
    "> Analysis failed with 2 issues.\n\nBUILD FAILED in 47s"
)
DK_CLI_MISSING = (
    "> Task :detekt-gradle-plugin:functionalTest\n\n"
    "DetektTaskDslSpec > detekt task can be configured with DSL FAILED\n"
    "    org.gradle.testkit.runner.UnexpectedBuildFailure: Unexpected build execution failure in "
    "/tmp/junit4471/project with arguments [detekt, --stacktrace]\n\n"
    "    * What went wrong:\n"
    "    Execution failed for task ':detekt'.\n"
    "    > Could not resolve all files for configuration ':detekt'.\n"
    "       > Could not find dev.detekt:detekt-cli:2.0.0-alpha.1.\n"
    "         Searched in the following locations:\n"
    "           - https://repo.maven.apache.org/maven2/dev/detekt/detekt-cli/2.0.0-alpha.1/"
    "detekt-cli-2.0.0-alpha.1.pom\n"
    "         Required by:\n             project :\n\n"
    "212 tests completed, 37 failed\n\nBUILD FAILED in 2m 3s"
)

DK_STORY = Story(
    id="ho-kt-detekt-rules-1",
    title="A Kotlin static-analysis tool: the new-rule checklist, self-analysis, testing against "
          "a locally published build, and renamed type-resolution marker and docs tasks",
    project=DETEKT,
    sources=("detekt/detekt",),
    lessons=(
        lesson("spec-suffix", "convention",
               "Tests use JUnit 5 and new test classes take the `Spec.kt` suffix",
               r"re:Spec(\.kt)?\b", "test"),
        lesson("kdoc", "convention",
               "Every rule is documented with KDoc containing <noncompliant> and <compliant> "
               "code examples (the website docs are generated from it)",
               "noncompliant"),
        lesson("self-check", "command",
               "detekt runs on itself: `./gradlew detektMain detektTest` must not report any "
               "errors",
               "detektMain", "detektTest"),
        lesson("type-res-old", "convention",
               "A rule that requires type resolution is marked with the @RequiresTypeResolution "
               "annotation",
               "RequiresTypeResolution"),
        lesson("full-analysis", "convention",
               "A rule that requires type resolution implements the RequiresFullAnalysis "
               "interface",
               "RequiresFullAnalysis"),
        lesson("config-default", "convention",
               "Rules take `config: Config` without an empty default value (no "
               "`= Config.empty`)",
               "Config.empty|empty config"),
        lesson("publish-local", "gotcha",
               "Run `./gradlew publishToMavenLocal` before running tests (Gradle plugin "
               "functional tests); otherwise they pull a possibly outdated or missing detekt-cli "
               "from Maven Central ('Could not find dev.detekt:detekt-cli:<next version>')",
               "publishToMavenLocal"),
        lesson("gen-docs-old", "command",
               "After modifying rules, run `./gradlew generateDocumentation` to update the config "
               "files",
               "generateDocumentation"),
        lesson("gen-config", "command",
               "After modifying rules, run `./gradlew generateDefaultDetektConfig "
               "generateDeprecationList` to update default-detekt-config.yml and the deprecation "
               "list",
               "generateDefaultDetektConfig"),
        lesson("coauthor", "convention",
               "AI agents are credited as commit co-authors with a `Co-authored-by:` trailer",
               "Co-authored-by"),
    ),
    also=(
        lesson("also-skip-dokka", "command",
               "Build without the slow documentation JAR: `./gradlew build -x dokkaGenerate`",
               "dokkaGenerate"),
        lesson("also-run-rule", "command",
               "Try a new rule in isolation on real projects with `--run-rule RuleSet:RuleId`",
               "--run-rule|run-rule"),
    ),
    sessions=(
        Session(day=0, events=(
            # source: detekt/detekt .github/CONTRIBUTING.md at 7e9b54f (Implementing new rules,
            # Rule annotations; "must be marked with @RequiresTypeResolution")
            User("let's add a rule to the coroutines rule set: RunCatchingInSuspend, reporting "
                 "runCatching { } around suspend calls because it swallows CancellationException. "
                 "when implementing a new rule, add it to a RuleSetProvider. a rule that requires "
                 "type resolution must be marked with @RequiresTypeResolution, and this one needs "
                 "the BindingContext to know what's suspend. the rule must be documented: KDoc "
                 "with <noncompliant> and <compliant> blocks right after the detailed "
                 "description, we generate the website docs from it.",
                 states=("type-res-old", "kdoc")),
            # source: detekt/detekt .github/CONTRIBUTING.md (testing bullet), AGENTS.md
            User("tests: we use JUnit 5 for testing. please use the Spec.kt suffix on new test "
                 "classes. since it needs type resolution, annotate the test class with "
                 "@KotlinCoreEnvironmentTest and have it accept KotlinCoreEnvironment as a "
                 "parameter. use ./gradlew build -x dokkaGenerate if you need a full build, it "
                 "skips the documentation JAR.",
                 states="spec-suffix"),
            Write(DK_RULE,
                  "package dev.detekt.rules.coroutines\n\n"
                  "import dev.detekt.api.Config\nimport dev.detekt.api.Entity\n"
                  "import dev.detekt.api.Finding\nimport dev.detekt.api.RequiresTypeResolution\n"
                  "import dev.detekt.api.Rule\n\n"
                  "/**\n * Reports `runCatching` blocks that wrap suspend calls.\n *\n"
                  " * `runCatching` catches `CancellationException` as well, which breaks "
                  "structured\n * concurrency: the coroutine keeps running after it was "
                  "cancelled.\n *\n"
                  " * <noncompliant>\n * suspend fun load() = runCatching { api.fetch() }\n"
                  " * </noncompliant>\n *\n"
                  " * <compliant>\n * suspend fun load() = try { api.fetch() } catch (e: "
                  "IOException) { null }\n * </compliant>\n */\n"
                  "@RequiresTypeResolution\n"
                  "class RunCatchingInSuspend(config: Config = Config.empty) : Rule(\n"
                  "    config,\n"
                  "    \"`runCatching` around suspend calls also catches "
                  "`CancellationException`.\"\n) {\n\n"
                  "    override fun visitCallExpression(expression: KtCallExpression) {\n"
                  "        super.visitCallExpression(expression)\n"
                  "        if (expression.isRunCatchingCall() && expression.lambdaArguments."
                  "firstOrNull()?.containsSuspendCall(bindingContext) == true) {\n"
                  "            report(Finding(Entity.from(expression), "
                  "\"`runCatching` wraps a suspend call. Catch specific exceptions instead.\"))\n"
                  "        }\n    }\n}\n"),
            Write(DK_SPEC,
                  "package dev.detekt.rules.coroutines\n\n"
                  "import dev.detekt.test.lintWithContext\n"
                  "import dev.detekt.test.utils.KotlinCoreEnvironmentTest\n"
                  "import org.jetbrains.kotlin.cli.jvm.compiler.KotlinCoreEnvironment\n"
                  "import org.junit.jupiter.api.Test\n\n"
                  "@KotlinCoreEnvironmentTest\n"
                  "class RunCatchingInSuspendSpec(private val env: KotlinCoreEnvironment) {\n"
                  "    private val subject = RunCatchingInSuspend()\n\n"
                  "    @Test\n    fun `reports runCatching around a suspend call`() {\n"
                  "        val code = \"\"\"\n"
                  "            suspend fun fetch(): Int = 1\n"
                  "            suspend fun load() = runCatching { fetch() }\n"
                  "        \"\"\".trimIndent()\n"
                  "        assertThat(subject.lintWithContext(env, code)).hasSize(1)\n    }\n}\n"),
            Edit(DK_PROVIDER, "                ::RedundantSuspendModifier,\n",
                 "                ::RedundantSuspendModifier,\n"
                 "                ::RunCatchingInSuspend,\n"),
            Bash("./gradlew :detekt-rules-coroutines:test --tests "
                 "dev.detekt.rules.coroutines.RunCatchingInSuspendSpec",
                 out=_gradle_ok("> Task :detekt-rules-coroutines:test\n\n"
                                "RunCatchingInSuspendSpec > reports runCatching around a suspend "
                                "call PASSED", 58, 21)),
            # source: detekt/detekt .github/CONTRIBUTING.md ("Make sure that ... does not report
            # any errors")
            User("make sure that ./gradlew detektMain detektTest does not report any errors - "
                 "detekt checks itself, and the repo follows the kotlin coding conventions, "
                 "enforced by ktlint when running the detekt tasks on the project itself. you "
                 "can also run detekt on other kotlin projects with the --run-rule "
                 "RuleSet:RuleId option to test the rule in isolation.",
                 states="self-check"),
            Bash("./gradlew detektMain detektTest", out=DK_DETEKT_FAIL, ok=False),
            Edit(DK_RULE,
                 "        if (expression.isRunCatchingCall() && expression.lambdaArguments."
                 "firstOrNull()?.containsSuspendCall(bindingContext) == true) {\n",
                 "        val lambda = expression.lambdaArguments.firstOrNull() ?: return\n"
                 "        if (expression.isRunCatchingCall() && "
                 "lambda.containsSuspendCall(bindingContext)) {\n"),
            Bash("./gradlew detektMain detektTest",
                 out=_gradle_ok("> Task :detekt-rules-coroutines:detektMain\n"
                                "> Task :detekt-rules-coroutines:detektTest", 44, 30)),
            Commit("Add RunCatchingInSuspend rule"),
        )),
        Session(day=5, events=(
            User("the gradle plugin should pick up the new rule too. bump the detekt version in "
                 "build-logic to 2.0.0-alpha.1 and run the plugin's functional tests."),
            Edit("build-logic/src/main/kotlin/Versions.kt", '"2.0.0-alpha.0"', '"2.0.0-alpha.1"'),
            Bash("./gradlew :detekt-gradle-plugin:functionalTest", out=DK_CLI_MISSING, ok=False),
            # source: detekt/detekt .github/CONTRIBUTING.md (added in 7e9b54f, #6710),
            # #6060 (description)
            User("classic. the plugin applies detekt-cli using the version from build-logic, so "
                 "whenever that version gets bumped the tests fail unless you publishToMavenLocal "
                 "- they try to find the next version on Maven Central, which won't be there. "
                 "before running any tests, run ./gradlew publishToMavenLocal to ensure that all "
                 "tests are using the locally built artifact.",
                 states="publish-local"),
            Bash("./gradlew publishToMavenLocal && ./gradlew :detekt-gradle-plugin:functionalTest",
                 out=_gradle_ok("> Task :detekt-cli:publishToMavenLocal\n"
                                "> Task :detekt-gradle-plugin:functionalTest", 3 * 60 + 41, 187)),
            # source: detekt/detekt AGENTS.md at 5563786 (Implementing New Rules; Commit
            # Attribution)
            User("good. since we touched a rule: run ./gradlew generateDocumentation to update "
                 "the config files. and about commits: AI agents must be credited as commit "
                 "co-authors, use a Co-authored-by: trailer in commit messages.",
                 states=("gen-docs-old", "coauthor")),
            Bash("./gradlew generateDocumentation",
                 out=_gradle_ok("> Task :detekt-generator:generateDocumentation", 36, 12)),
            Edit(DK_CONFIG, "  RedundantSuspendModifier:\n    active: true\n",
                 "  RedundantSuspendModifier:\n    active: true\n"
                 "  RunCatchingInSuspend:\n    active: false\n"),
            Commit("Bump detekt to 2.0.0-alpha.1, document RunCatchingInSuspend\n\n"
                   "Co-authored-by: Claude <claude@anthropic.com>"),
            # a proposal that was not taken up
            User("someone suggested making the new rule active by default right away. let's not, "
                 "PRs stay open a couple of days for feedback and new rules are generally not "
                 "active by default at first."),
        )),
        Session(day=12, events=(
            # source: detekt/detekt .github/CONTRIBUTING.md after 381e624 (#8221, "Fix
            # contributing")
            User("heads up from main: a rule that requires type resolution must implement "
                 "RequiresFullAnalysis now - it's an interface on the rule class, like "
                 "class SomeRule(config: Config) : Rule(config), RequiresFullAnalysis.",
                 states="full-analysis", replaces="type-res-old"),
            # source: detekt/detekt commit 0f41086 (#8992)
            User("and from #8992: the rules shouldn't have an empty config as default value, so "
                 "no more config: Config = Config.empty in the constructor.",
                 states="config-default"),
            Edit(DK_RULE, "import dev.detekt.api.RequiresTypeResolution\n",
                 "import dev.detekt.api.RequiresFullAnalysis\n"),
            Edit(DK_RULE,
                 "@RequiresTypeResolution\n"
                 "class RunCatchingInSuspend(config: Config = Config.empty) : Rule(\n",
                 "class RunCatchingInSuspend(config: Config) : Rule(\n"),
            Edit(DK_RULE, "\"\n) {\n", "\"\n), RequiresFullAnalysis {\n"),
            Edit(DK_SPEC, "    private val subject = RunCatchingInSuspend()\n",
                 "    private val subject = RunCatchingInSuspend(Config.empty)\n"),
            Bash("./gradlew :detekt-rules-coroutines:test",
                 out=_gradle_ok("> Task :detekt-rules-coroutines:test", 61, 19)),
            Commit("RunCatchingInSuspend implements RequiresFullAnalysis, no default config\n\n"
                   "Co-authored-by: Claude <claude@anthropic.com>"),
        )),
        Session(day=20, events=(
            # source: detekt/detekt #9140 "New detekt generator" (AGENTS.md diff)
            User("the new detekt generator landed (#9140). the generate-docs step is now "
                 "./gradlew generateDefaultDetektConfig generateDeprecationList when modifying "
                 "rules - that updates default-detekt-config.yml and the deprecation list.",
                 states="gen-config", replaces="gen-docs-old"),
            Say("Noted, generateDocumentation is gone; I'll use the two new tasks after rule "
                "changes."),
            Probe("next rule idea: flag GlobalScope.launch inside ViewModel classes. it has to "
                  "know the receiver type. can you write it?",
                  needs=("full-analysis", "kdoc", "spec-suffix", "config-default")),
        )),
        Session(day=27, events=(
            Probe("I gave RunCatchingInSuspend an allowedExceptions option. what else has to "
                  "change in the repo for that?",
                  needs="gen-config"),
            Bash("./gradlew generateDefaultDetektConfig generateDeprecationList",
                 out=_gradle_ok("> Task :detekt-generator:generateDefaultDetektConfig\n"
                                "> Task :detekt-generator:generateDeprecationList", 33, 11)),
            Probe("run the checks on our own code before I push",
                  needs="self-check"),
            Bash("./gradlew detektMain detektTest",
                 out=_gradle_ok("> Task :detekt-rules-coroutines:detektMain\n"
                                "> Task :detekt-rules-coroutines:detektTest", 40, 28)),
            Probe("commit it, you wrote most of this one",
                  needs="coauthor"),
            Probe("I bumped the version for the next alpha and now half the plugin tests fail "
                  "at dependency resolution, what's going on?",
                  needs="publish-local"),
        ), judge={"self-check": "not_down"}),
    ),
)

STORIES = [TB_STORY, NIA_STORY, SP_STORY, PC_STORY, DK_STORY]
