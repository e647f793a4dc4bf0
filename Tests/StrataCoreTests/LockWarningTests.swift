import Foundation
import StrataCore
import Testing

/// `strata lint` warns where a PostgreSQL step holds ACCESS EXCLUSIVE on an existing table while
/// it reads or writes its rows, and `migration.allowLocks` acknowledges it (the warnings
/// themselves, and the errors of bad items: Tests/Fixtures/Bad/lock-warnings).
@Suite struct LockWarningTests {
    static let v1 = v1WithoutChecks + "\n    checks: { counted: \"views >= 0\" }"

    static let v1WithoutChecks = """
        model: M
        version: 1
        enums:
          Status:
            type: String
            cases: [open, closed]
        entities:
          Post:
            fields:
              id: { type: Int64, autoincrement: true }
              views: Int32
              rating: Int16?
              status: Status
        """

    /// v2: views widened (a rewrite: the table check names it, so no shadow column), rating made
    /// required (an UPDATE, in the transaction since the table's type changes), a case added (a
    /// check replaced `NOT VALID` beforehand: no warning).
    static func v2(migration: String = "", checks: String = "    checks: { counted: \"views >= 0\" }") -> String {
        """
        model: M
        version: 2
        enums:
          Status:
            type: String
            cases: [open, closed, archived]
        entities:
          Post:
            fields:
              id: { type: Int64, autoincrement: true }
              views: Int64
              rating: { type: Int16, default: 0 }
              status: Status
        \(checks)
        \(migration)
        """
    }

    static func diagnostics(_ v2: String) throws -> [String] {
        try diagnosticsOf(["v1.yaml": v1, "v2.yaml": v2])
    }

    /// The diagnostics of a model of these files, as `severity line: message`.
    static func diagnosticsOf(_ files: [String: String]) throws -> [String] {
        let schemas = try TeamReviewTests.model(files)
        let plan = Workspace.plan(schemas: schemas, output: "", render: false)
        return plan.diagnostics.map { "\($0.severity) \($0.location.line): \($0.message)" }
    }

    @Test func eachStepThatHoldsTheTableWhileReadingItIsWarnedAtItsElement() throws {
        let lines = try Self.diagnostics(Self.v2())
        #expect(lines.count == 2, "\(lines)")
        #expect(!lines.contains { $0.contains("adding cases to enum 'Status'") }, "\(lines)")
        #expect(
            lines.contains(
                "warning 11: changing the type of 'Post.views' rewrites table 'post' under ACCESS EXCLUSIVE on PostgreSQL (reads and writes wait until the migration commits); acknowledge with migration.allowLocks: [Post.views]"
            ), "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("warning 12: making 'Post.rating' required updates rows of table 'post'") },
            "\(lines)")
    }

    @Test func allowLocksSilencesThemByFieldEntityOrEnum() throws {
        #expect(try Self.diagnostics(Self.v2(migration: "migration:\n  allowLocks: [Post]")) == [])
        // Adding cases holds no lock to acknowledge any more: naming the enum is flagged.
        let unused = try Self.diagnostics(Self.v2(migration: "migration:\n  allowLocks: [Post, Status]"))
        #expect(unused.count == 1 && unused[0].contains("allowLocks names 'Status'"), "\(unused)")
        let lines = try Self.diagnostics(Self.v2(migration: "migration:\n  allowLocks: [Post.views]"))
        #expect(lines.count == 1 && !lines.contains { $0.contains("Post.views") }, "\(lines)")
    }

    @Test func aTypeChangeSwappedThroughAShadowColumnIsNotWarned() throws {
        // Without the table check, views is filled into a shadow column in batches and swapped,
        // and rating's NULLs are filled in batches too: nothing holds the table while it is read.
        let schemas = try TeamReviewTests.model(["v1.yaml": Self.v1WithoutChecks, "v2.yaml": Self.v2(checks: "")])
        let plan = Workspace.plan(schemas: schemas, output: "", render: false)
        #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
        let (history, _, _) = SchemaLoader.loadModel(named: "M", in: schemas)
        let loaded = try #require(history)
        let migration = try #require(Generator.migrationPlans(for: loaded).last)
        let step = try #require(migration.steps.first { if case .typeChanged = $0.change { true } else { false } })
        #expect(
            migration.postgresLock(of: step)
                == PostgresLock(mode: .accessExclusive, work: .catalogOnly, readBeforehand: true, filledInBatches: true))
    }

    @Test func aTypeChangeUnderTheSameStorageIsNotARewrite() throws {
        let schemas = try TeamReviewTests.model([
            "v1.yaml": Self.v1,
            "v2.yaml": Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2")
                .replacingOccurrences(of: "status: Status", with: "status: String"),
        ])
        let (history, _, _) = SchemaLoader.loadModel(named: "M", in: schemas)
        let loaded = try #require(history)
        let plan = try #require(Generator.migrationPlans(for: loaded).last)
        let step = try #require(plan.steps.first)
        #expect(plan.steps.count == 1)
        // The enum's check is dropped; the stored text stays where it is.
        #expect(plan.postgresLock(of: step) == PostgresLock(mode: .accessExclusive, work: .catalogOnly))
        #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
    }
}
