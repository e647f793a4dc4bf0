import Foundation
import StrataTestSupport
import Testing

/// `strata rebase` on real git repositories: a `main` and a `feature` branch that each add
/// versions of the Showcase fixture model from a common base.
@Suite(.serialized) struct RebaseScenarioTests {
    static func phone(_ text: String) -> String {
        text.replacingOccurrences(of: "      joined: Date\n", with: "      joined: Date\n      phone: String?\n")
    }
    static func shippedAt(_ text: String) -> String {
        text.replacingOccurrences(
            of: "      total: { type: Decimal", with: "      shippedAt: Date?\n      total: { type: Decimal")
    }

    /// Checks out `feature` and runs `strata rebase --onto main`.
    func rebase(_ scenario: RebaseScenario) throws -> CLI.Result {
        try scenario.strata("rebase", "--onto", "main")
    }

    @Test(
        "disjoint additions: main's v2 byte for byte, ours replayed as v3 with both changes; checks, verify and migrated rows"
    )
    func disjointAdditions() async throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2, Self.phone)
        let mainV2 = try scenario.version(2)
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2, Self.shippedAt)
        let result = try rebase(scenario)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Showcase: v2.yaml replayed as v3.yaml"))
        #expect(try scenario.versionNumbers() == [1, 2, 3])
        #expect(try scenario.version(2) == mainV2)
        let v3 = try scenario.version(3)
        #expect(v3.contains("version: 3\n"))
        #expect(v3.contains("phone: String?") && v3.contains("shippedAt: Date?"))
        try scenario.expectChecksAndVerifyPass()
        try scenario.expectRowsKeptMigratingFromMain()
        try await scenario.expectVerifyPassesOnPostgres()

        // A second run changes nothing.
        let before = scenario.snapshot()
        let again = try rebase(scenario)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Already up to date with main."))
        #expect(scenario.snapshot() == before)
    }

    @Test("the same change on both sides is kept once")
    func sameChangeTwice() async throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2, Self.phone)
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2) { Self.shippedAt(Self.phone($0)) }
        let result = try rebase(scenario)
        #expect(result.status == 0, "\(result.stderr)")
        let v3 = try scenario.version(3)
        #expect(v3.components(separatedBy: "phone: String?").count == 2)
        #expect(v3.contains("shippedAt: Date?"))
        try scenario.expectChecksAndVerifyPass()
        try scenario.expectRowsKeptMigratingFromMain()
        try await scenario.expectVerifyPassesOnPostgres()
    }

    @Test("a property changed two ways is a conflict at both lines, and nothing is written")
    func propertyChangedTwoWays() throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2) {
            $0.replacingOccurrences(
                of: "quantity: { type: Int32, default: 1 }", with: "quantity: { type: Int32, default: 2 }")
        }
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2) {
            $0.replacingOccurrences(
                of: "quantity: { type: Int32, default: 1 }", with: "quantity: { type: Int32, default: 3 }")
        }
        let before = scenario.snapshot()
        let result = try rebase(scenario)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "Schemas/Showcase/v2.yaml:43:41: error: 'default' of field 'OrderLine.quantity' is changed here and differently by the target (from working tree); nothing was written"
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains("Schemas/Showcase/v2.yaml:43:41: note: the target sets it to '2' here (from main)"),
            "\(result.stderr)")
        #expect(scenario.snapshot() == before)
        // On a pull request, the conflict lands on its line of the diff.
        let github = try scenario.strata("rebase", "--onto", "main", "--format", "github")
        #expect(github.status == 1)
        #expect(
            github.stdout.contains(
                "::error file=Schemas/Showcase/v2.yaml,line=43,col=41::'default' of field 'OrderLine.quantity' is changed here and differently by the target"
            ), "\(github.stdout)")
        #expect(github.stdout.contains("::notice file=Schemas/Showcase/v2.yaml,line=43,col=41::the target sets it to '2'"))
        let json = try scenario.strata("rebase", "--onto", "main", "--format", "json")
        #expect(json.status == 1)
        #expect(json.stdout.hasPrefix(#"{"target":"main","upToDate":false,"replayed":[],"written":[],"diagnostics":[{"#), "\(json.stdout)")
        #expect(scenario.snapshot() == before)
    }

    @Test("a rename on one side carries the other side's edit along; the target's hint is not copied")
    func renameAndEdit() async throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2) {
            $0.replacingOccurrences(
                of: "      nickname: String?\n", with: "      alias: { type: String?, renamedFrom: nickname }\n")
        }
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2) {
            $0.replacingOccurrences(
                of: "      nickname: String?\n",
                with: "      nickname: { type: String?, doc: Shown instead of the name. }\n")
        }
        let result = try rebase(scenario)
        #expect(result.status == 0, "\(result.stderr)")
        let v3 = try scenario.version(3)
        #expect(v3.contains("alias: { type: String?, doc: Shown instead of the name. }"), "\(v3)")
        #expect(!v3.contains("nickname"))
        try scenario.expectChecksAndVerifyPass()
        try scenario.expectRowsKeptMigratingFromMain()
        try await scenario.expectVerifyPassesOnPostgres()
    }

    @Test("a removal on one side against a use on the other is an error at the use, and nothing is written")
    func removalAgainstUse() throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2) {
            $0.replacingOccurrences(of: "      nickname: String?\n", with: "")
                + "\nmigration:\n  allowDataLoss: [Customer.nickname]\n"
        }
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2) {
            $0.replacingOccurrences(
                of: "      joined: Date\n", with: "      joined: Date\n    indexes:\n      - [nickname]\n")
        }
        let before = scenario.snapshot()
        let result = try rebase(scenario)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "Schemas/Showcase/v2.yaml:27:9: error: index names unknown field 'nickname' of 'Customer'"),
            "\(result.stderr)")
        #expect(result.stderr.contains("note: in the rebased v3.yaml"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "Schemas/Showcase/v2.yaml:21:7: note: the target removes field 'Customer.nickname' here (from main)"),
            "\(result.stderr)")
        #expect(scenario.snapshot() == before)
    }

    @Test("enum cases appended on both sides are all kept, the target's first")
    func bothAppendEnumCases() async throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2) {
            $0.replacingOccurrences(
                of: "cases: [draft, placed, shipped]", with: "cases: [draft, placed, shipped, cancelled]")
        }
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2) {
            $0.replacingOccurrences(
                of: "cases: [draft, placed, shipped]", with: "cases: [draft, placed, shipped, returned]")
        }
        let result = try rebase(scenario)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scenario.version(3).contains("cases: [draft, placed, shipped, cancelled, returned]"))
        try scenario.expectChecksAndVerifyPass()
        try scenario.expectRowsKeptMigratingFromMain()
        try await scenario.expectVerifyPassesOnPostgres()
    }

    @Test(
        "an edit in place of the latest version: the base's file restored byte for byte, the edit replayed as a new version"
    )
    func inPlaceEditOfLatest() async throws {
        let scenario = try RebaseScenario()
        let v1 = try scenario.version(1)
        try scenario.addVersion(2, Self.shippedAt)
        try scenario.git("checkout", "-q", "feature")
        try scenario.editVersion(1, Self.phone)
        let result = try rebase(scenario)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Showcase: v1.yaml replayed as v3.yaml"))
        #expect(try scenario.version(1) == v1)
        let v3 = try scenario.version(3)
        #expect(v3.contains("phone: String?") && v3.contains("shippedAt: Date?"))
        try scenario.expectChecksAndVerifyPass()
        try scenario.expectRowsKeptMigratingFromMain()
        try await scenario.expectVerifyPassesOnPostgres()
    }

    @Test("in the middle of a conflicted git merge: no markers left, git diff --check clean, strata check passes")
    func duringConflictedMerge() async throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2, Self.phone)
        let mainV2 = try scenario.version(2)
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2, Self.shippedAt)
        let merge = try scenario.gitStatus(["merge", "-q", "main"], allowFailure: true)
        #expect(merge.status != 0, "the merge should conflict: \(merge.output)")
        let result = try scenario.strata("rebase")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scenario.version(2) == mainV2)
        #expect(try scenario.version(3).contains("shippedAt: Date?"))
        let markers = try scenario.gitStatus(
            ["grep", "-n", "--untracked", "-e", "^<<<<<<< ", "--", "."], allowFailure: true)
        #expect(markers.status == 1, "conflict markers left: \(markers.output)")
        let diffCheck = try scenario.gitStatus(["diff", "--check"], allowFailure: true)
        #expect(diffCheck.status == 0, "\(diffCheck.output)")
        try scenario.expectChecksAndVerifyPass()
        try scenario.expectRowsKeptMigratingFromMain()
        try await scenario.expectVerifyPassesOnPostgres()
    }

    @Test("several versions on the branch are replayed in order after the target's")
    func severalVersions() async throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2) {
            $0.replacingOccurrences(
                of: "cases: [draft, placed, shipped]", with: "cases: [draft, placed, shipped, cancelled]")
        }
        try scenario.addVersion(3, Self.phone)
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2, Self.shippedAt)
        try scenario.addVersion(3) {
            $0.replacingOccurrences(
                of: "      - [customer, status]\n", with: "      - [customer, status]\n      - [shippedAt]\n")
        }
        let result = try rebase(scenario)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Showcase: v2.yaml replayed as v4.yaml"))
        #expect(result.stdout.contains("Showcase: v3.yaml replayed as v5.yaml"))
        #expect(try scenario.versionNumbers() == [1, 2, 3, 4, 5])
        let v5 = try scenario.version(5)
        #expect(v5.contains("- [shippedAt]") && v5.contains("phone: String?") && v5.contains("cancelled"))
        try scenario.expectChecksAndVerifyPass()
        try scenario.expectRowsKeptMigratingFromMain()
        try await scenario.expectVerifyPassesOnPostgres()
    }

    @Test("Ctrl-C during a rebase puts every file back and exits 130")
    func ctrlCRestoresTheTree() throws {
        let scenario = try RebaseScenario()
        try InterruptionTests.largeModel(in: scenario.root, entities: 300)
        try scenario.commitGenerated("a large model")
        try scenario.git("branch", "-f", "feature")
        let large = scenario.root.appendingPathComponent("Schemas/Large")
        func addVersion2(_ field: String) throws {
            let v1 = try String(contentsOf: large.appendingPathComponent("v1.yaml"), encoding: .utf8)
            let v2 = v1.replacingOccurrences(of: "version: 1\n", with: "version: 2\n")
                .replacingOccurrences(
                    of: "      field15: String\n", with: "      field15: String\n      \(field): String?\n")
            try v2.write(to: large.appendingPathComponent("v2.yaml"), atomically: true, encoding: .utf8)
            try scenario.commitGenerated("Large v2")
        }
        try addVersion2("fromMain")
        try scenario.git("checkout", "-q", "feature")
        try addVersion2("fromFeature")
        let before = scenario.snapshot()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("strata")
        process.arguments = ["rebase", "--onto", "main", "--model", "Large"]
        process.currentDirectoryURL = scenario.root
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, OutputTransactionTests.leftovers(scenario.root).isEmpty, Date() < deadline {
            usleep(2_000)
        }
        let signalled = process.isRunning
        if signalled { kill(process.processIdentifier, SIGINT) }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(signalled, "the rebase ended before the test could interrupt it")
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("interrupted (SIGINT): nothing was written"), "\(stderr)")
        #expect(scenario.snapshot() == before)
        #expect(OutputTransactionTests.leftovers(scenario.root).isEmpty)
    }

    @Test("in a stopped git rebase, each replayed commit's versions go after HEAD's, one commit at a time")
    func duringGitRebase() async throws {
        let scenario = try RebaseScenario()
        try scenario.addVersion(2, Self.phone)
        let mainV2 = try scenario.version(2)
        try scenario.git("checkout", "-q", "feature")
        try scenario.addVersion(2, Self.shippedAt)
        try scenario.addVersion(3) {
            $0.replacingOccurrences(
                of: "      - [customer, status]\n", with: "      - [customer, status]\n      - [shippedAt]\n")
        }
        let first = try scenario.gitStatus(["rebase", "-q", "main"], allowFailure: true)
        #expect(first.status != 0, "the first commit should conflict: \(first.output)")
        let replayFirst = try scenario.strata("rebase")
        #expect(replayFirst.status == 0, "\(replayFirst.stderr)")
        #expect(replayFirst.stdout.contains("Showcase: v2.yaml replayed as v3.yaml"), "\(replayFirst.stdout)")
        try scenario.git("add", "-A")
        let second = try scenario.gitStatus(["-c", "core.editor=true", "rebase", "--continue"], allowFailure: true)
        #expect(second.status != 0, "the second commit should conflict: \(second.output)")
        let replaySecond = try scenario.strata("rebase")
        #expect(replaySecond.status == 0, "\(replaySecond.stderr)")
        #expect(replaySecond.stdout.contains("Showcase: v3.yaml replayed as v4.yaml"), "\(replaySecond.stdout)")
        try scenario.git("add", "-A")
        let done = try scenario.gitStatus(["-c", "core.editor=true", "rebase", "--continue"], allowFailure: true)
        #expect(done.status == 0, "\(done.output)")
        #expect(try scenario.versionNumbers() == [1, 2, 3, 4])
        #expect(try scenario.version(2) == mainV2)
        let v4 = try scenario.version(4)
        #expect(v4.contains("- [shippedAt]") && v4.contains("phone: String?") && v4.contains("shippedAt: Date?"))
        #expect(try scenario.version(3).components(separatedBy: "shippedAt").count == 2, "v3 adds shippedAt once")
        try scenario.expectChecksAndVerifyPass()
        try scenario.expectRowsKeptMigratingFromMain()
        try await scenario.expectVerifyPassesOnPostgres()
    }
}
