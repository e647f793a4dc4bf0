import Foundation
import StrataTestSupport
import Testing

/// `strata check --base <ref>` and `strata plan --base <ref>` in real git repositories made in
/// temporary folders: the repository's MyTODO model committed on `main`, then a branch.
@Suite struct BaseRefCLITests {
    /// MyTODO's v3 as a v4 with the same entities: v3's `migration:` block (which acknowledges
    /// v3's own steps) left out.
    static func v4(from v3: String) -> String {
        (v3.components(separatedBy: "\nmigration:\n").first ?? v3).replacingOccurrences(of: "version: 3", with: "version: 4")
    }

    /// A git repository with Schemas/MyTODO and its Generated/ committed on `main`, on a branch `feature`.
    struct Repository {
        let root: URL

        init() throws {
            root = try TestPaths.temporaryFolder()
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: TestPaths.schemas.appendingPathComponent("MyTODO"), to: root.appendingPathComponent("Schemas/MyTODO"))
            try git("init", "-q", "-b", "main")
            try git("config", "user.email", "test@example.com")
            try git("config", "user.name", "Test")
            try git("config", "commit.gpgsign", "false")
            let generated = try strata("generate")
            #expect(generated.status == 0, "\(generated.stderr)")
            try commit("main: v1...v3")
            try git("checkout", "-q", "-b", "feature")
        }

        @discardableResult
        func git(_ arguments: String...) throws -> String {
            try ProcessRunner.check(["git", "-C", root.path] + arguments)
        }

        func commit(_ message: String) throws {
            try git("add", "-A")
            try git("commit", "-q", "-m", message)
        }

        func strata(_ arguments: String...) throws -> CLI.Result {
            try CLI.strata(arguments, in: root)
        }

        func url(_ path: String) -> URL { root.appendingPathComponent(path) }

        func read(_ path: String) throws -> String { try String(contentsOf: url(path), encoding: .utf8) }

        func write(_ path: String, _ text: String) throws { try text.write(to: url(path), atomically: true, encoding: .utf8) }

        func replace(_ path: String, _ old: String, with new: String) throws {
            let text = try read(path)
            #expect(text.contains(old), "\(path) has no '\(old)'")
            try write(path, text.replacingOccurrences(of: old, with: new))
        }

        /// v4: v3 with an optional `dueDate` (or `field`) and an index on it.
        func addVersion4(field: String = "dueDate: Date?", index: String = "dueDate") throws {
            let v4 = BaseRefCLITests.v4(from: try read("Schemas/MyTODO/v3.yaml"))
                .replacingOccurrences(of: "      priority: { type: Priority, default: middle }\n", with: "      priority: { type: Priority, default: middle }\n      \(field)\n")
                .replacingOccurrences(of: "      - [priority, title]\n", with: "      - [priority, title]\n      - [\(index)]\n")
            try write("Schemas/MyTODO/v4.yaml", v4)
        }
    }

    @Test func aFrozenVersionEditedOnTheBranchIsAnErrorNamingTheRef() throws {
        let repository = try Repository()
        try repository.addVersion4()
        #expect(try repository.strata("generate").status == 0)
        #expect(try repository.strata("check", "--base", "main").status == 0, "adding a version is what a branch does")
        try repository.replace("Schemas/MyTODO/v2.yaml", "detail: { type: String, default: \"\" }", with: "detail: { type: String, default: \"-\" }")
        let check = try repository.strata("check", "--base", "main")
        #expect(check.status == 1)
        #expect(
            check.stderr.contains(
                "Schemas/MyTODO/v2.yaml:10:1: error: v2.yaml differs from main: every version on main is frozen (databases may "
                    + "already be at it); run `strata rebase` to replay your changes as new versions after it"), "\(check.stderr)")
    }

    @Test func theLatestVersionOfTheRefEditedInPlaceIsAnErrorOnlyWithBase() throws {
        let repository = try Repository()
        try repository.replace("Schemas/MyTODO/v3.yaml", "      - [priority, title]\n", with: "      - [priority, title]\n      - [isDone]\n")
        #expect(try repository.strata("generate").status == 0)
        let plain = try repository.strata("check")
        #expect(plain.status == 0, "the latest version may be edited: \(plain.stderr)")
        let check = try repository.strata("check", "--base", "main")
        #expect(check.status == 1)
        #expect(check.stderr.contains("Schemas/MyTODO/v3.yaml:22:1: error: v3.yaml differs from main"), "\(check.stderr)")
        #expect(check.stderr.contains("`strata rebase`"))

        let github = try repository.strata("check", "--base", "main", "--format", "github")
        #expect(github.status == 1)
        #expect(
            github.stdout.contains("::error file=Schemas/MyTODO/v3.yaml,line=22,col=1::v3.yaml differs from main"), "\(github.stdout)")

        let unknown = try repository.strata("check", "--base", "no-such-ref")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'no-such-ref' names no commit"), "\(unknown.stderr)")
    }

    @Test func baseOutsideARepositoryOrWithAnOptionForARefCannotRun() throws {
        let root = try TestPaths.temporaryFolder()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.schemas.appendingPathComponent("MyTODO"), to: root.appendingPathComponent("Schemas/MyTODO"))
        let outside = try CLI.strata(["check", "--base", "main"], in: root)
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("--base reads git: 'Schemas' is not in a git repository"), "\(outside.stderr)")

        let repository = try Repository()
        let option = try repository.strata("plan", "--base=--output=x", "--format", "markdown")
        #expect(option.status == 2)
        #expect(option.stderr.contains("--base: '--output=x' is not a git ref"), "\(option.stderr)")
        #expect(option.stdout.isEmpty)
    }

    @Test func conflictMarkersAfterAMergeGetMessagesThatFitAMerge() throws {
        let repository = try Repository()
        try repository.addVersion4()
        #expect(try repository.strata("generate").status == 0)
        try repository.commit("feature: v4 with dueDate")
        try repository.git("checkout", "-q", "main")
        try repository.addVersion4(field: "note: String?", index: "note")
        #expect(try repository.strata("generate").status == 0)
        try repository.commit("main: v4 with note")
        try repository.git("checkout", "-q", "feature")
        let merge = try ProcessRunner.run(["git", "-C", repository.root.path, "merge", "-q", "main"])
        #expect(merge.status != 0, "both branches added v4: \(merge.output)")
        #expect(try repository.read("Schemas/MyTODO/strata.lock").contains("<<<<<<<"))

        let check = try repository.strata("check")
        #expect(check.status == 1)
        #expect(
            check.stderr.contains(
                "Schemas/MyTODO/strata.lock:6:1: error: strata.lock has merge conflict markers (lines 6, 8, 10): resolve the "
                    + "merge with `strata rebase`"), "\(check.stderr)")
        #expect(check.stderr.contains("Schemas/MyTODO/v4.yaml:"), "\(check.stderr)")
        #expect(check.stderr.contains("v4.yaml has merge conflict markers"), "\(check.stderr)")
        #expect(!check.stderr.contains("restore the file"), "\(check.stderr)")

        // Keeping both lock lines (the natural wrong resolution) is reported too.
        let lock = try repository.read("Schemas/MyTODO/strata.lock").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("<<<<<<<") && !$0.hasPrefix("=======") && !$0.hasPrefix(">>>>>>>") }
            .joined(separator: "\n")
        try repository.write("Schemas/MyTODO/strata.lock", lock)
        let lint = try repository.strata("lint", "--format", "github")
        #expect(lint.status == 1)
        #expect(
            lint.stdout.contains(
                "::error file=Schemas/MyTODO/strata.lock,line=7,col=1::v4.yaml is listed twice in strata.lock (first at line 6) "
                    + "with different checksums"), "\(lint.stdout)")
    }

    @Test func aVersionRenamedAfterTheTargetsOneIsWarnedAbout() throws {
        let repository = try Repository()
        try repository.addVersion4()
        #expect(try repository.strata("generate").status == 0)
        try repository.commit("feature: v4 with dueDate")
        try repository.git("checkout", "-q", "main")
        // Main's v4: an index and another default, which pass every guard when undone.
        let v4 = Self.v4(from: try repository.read("Schemas/MyTODO/v3.yaml"))
            .replacingOccurrences(of: "priority: { type: Priority, default: middle }", with: "priority: { type: Priority, default: high }")
            .replacingOccurrences(of: "      - [priority, title]\n", with: "      - [priority, title]\n      - [isDone]\n")
        try repository.write("Schemas/MyTODO/v4.yaml", v4)
        #expect(try repository.strata("generate").status == 0)
        try repository.commit("main: v4 with an index and a default")
        try repository.git("checkout", "-q", "feature")
        // The natural wrong resolution: keep main's v4 and lock, rename ours to v5, regenerate.
        let ours = try repository.read("Schemas/MyTODO/v4.yaml")
        try repository.git("rm", "-q", "Schemas/MyTODO/v4.yaml")
        try repository.git("checkout", "main", "--", "Schemas/MyTODO/v4.yaml", "Schemas/MyTODO/strata.lock")
        try repository.write("Schemas/MyTODO/v5.yaml", ours.replacingOccurrences(of: "version: 4", with: "version: 5"))
        #expect(try repository.strata("generate").status == 0)
        let check = try repository.strata("check", "--base", "main")
        #expect(check.status == 0, "warnings only: \(check.stderr)")
        #expect(
            check.stderr.contains(
                "warning: v5.yaml undoes 'add index todo_item_is_done_idx on TODOItem(isDone)' of v4.yaml on main: if v5 was "
                    + "written before main's v4 and renumbered by hand, run `strata rebase`"), "\(check.stderr)")
        #expect(
            check.stderr.contains("v5.yaml undoes 'change the default of TODOItem.priority from middle to high'"),
            "\(check.stderr)")
        let report = try repository.strata("plan", "--base", "main", "--format", "markdown")
        #expect(report.stdout.contains("**0 errors, 2 warnings**"), "\(report.stdout)")
    }

    @Test func thePlanReportSummarisesWhatTheBranchDoesToADatabase() throws {
        let repository = try Repository()
        try repository.addVersion4()
        #expect(try repository.strata("generate").status == 0)
        try repository.commit("feature: v4")
        let plan = try repository.strata("plan", "--base", "main", "--format", "markdown")
        #expect(plan.status == 0, "\(plan.stderr)")
        let report = plan.stdout
        #expect(report.hasPrefix("## Strata: schema changes against `main`\n"), "\(report)")
        #expect(report.contains("### MyTODO: v3 → v4 (1 new version)"), "\(report)")
        #expect(report.contains("| add field TODOItem.dueDate |  | ACCESS EXCLUSIVE, catalog only | in place |"), "\(report)")
        #expect(report.contains("| add index todo_item_due_date_idx on TODOItem(dueDate) |  | SHARE, scans every row | in place |"), "\(report)")
        #expect(report.contains("Entities changed: `TODOItem` (fields: dueDate)."), "\(report)")
        #expect(report.contains("- added: `MyTODO/sqlite/migrations/v4.sql`"), "\(report)")
        #expect(report.contains("- added: `MyTODO/postgres/migrations/v4.sql`"), "\(report)")
        #expect(report.contains("- changed: `MyTODO/Swift/MyTODOModels.swift`"), "\(report)")
        #expect(!report.contains("destructive"))

        let json = try repository.strata("plan", "--base", "main", "--format", "json")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let models = object["models"] as? [[String: Any]] ?? []
        #expect(models.first?["from"] as? Int == 3 && models.first?["to"] as? Int == 4, "\(json.stdout)")

        let text = try repository.strata("plan", "MyTODO", "--dialect", "postgres")
        #expect(text.status == 0)
        #expect(
            text.stdout.contains("  - add index todo_item_due_date_idx on TODOItem(dueDate)\n    lock: SHARE, scans every row\n"),
            "\(text.stdout)")
        #expect(!(try repository.strata("plan", "MyTODO")).stdout.contains("lock:"), "SQLite takes no table locks")

        let none = try repository.strata("plan", "--base", "HEAD", "--format", "markdown")
        #expect(none.status == 0)
        #expect(none.stdout.contains("No new versions"), "\(none.stdout)")
        let usage = try repository.strata("plan", "MyTODO", "--format", "markdown")
        #expect(usage.status == 64)
        #expect(try repository.strata("check", "--format", "markdown").status == 64)
    }
}
