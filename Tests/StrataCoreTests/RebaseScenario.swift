import Foundation
import GRDB
import StrataTestSupport
import Testing

/// A git repository made by a test, holding the Showcase fixture model: a `main` branch and a
/// `feature` branch that each add versions from a common base, for `strata rebase`.
struct RebaseScenario {
    let root: URL
    var model: URL { root.appendingPathComponent("Schemas/Showcase") }

    /// A repository whose first commit (on `main`) holds Showcase v1, its lock and `Generated/`.
    init() throws {
        root = try TestPaths.temporaryFolder().appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main")
        try git("config", "user.name", "Strata Tests")
        try git("config", "user.email", "tests@example.com")
        try git("config", "commit.gpgsign", "false")
        try FileManager.default.copyItem(
            at: TestPaths.models.appendingPathComponent("Showcase/v1.yaml"), to: model.appendingPathComponent("v1.yaml")
        )
        try commitGenerated("base: Showcase v1")
        try git("branch", "feature")
    }

    /// Runs git in the repository; its output, or a failure.
    @discardableResult
    func git(_ arguments: String...) throws -> String {
        try gitStatus(arguments).output
    }

    /// Runs git; throws unless it exits 0 (unless `allowFailure`).
    @discardableResult
    func gitStatus(_ arguments: [String], allowFailure: Bool = false) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = root
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        if process.terminationStatus != 0 && !allowFailure {
            throw ScenarioFailure(description: "git \(arguments.joined(separator: " ")): \(output)")
        }
        return (process.terminationStatus, output)
    }

    struct ScenarioFailure: Error, CustomStringConvertible { var description: String }

    /// Runs `strata` in the repository.
    func strata(_ arguments: String...) throws -> CLI.Result {
        try CLI.strata(arguments, in: root)
    }

    /// Runs `strata generate` and commits everything.
    func commitGenerated(_ message: String) throws {
        let generated = try strata("generate")
        guard generated.status == 0 else { throw ScenarioFailure(description: generated.stderr) }
        try git("add", "-A")
        try git("commit", "-q", "-m", message)
    }

    /// The text of version `number` in the working tree.
    func version(_ number: Int) throws -> String {
        try String(contentsOf: model.appendingPathComponent("v\(number).yaml"), encoding: .utf8)
    }

    /// Adds version `number` on the checked-out branch: the previous one with `version:` changed
    /// and `edit` applied, then generates and commits.
    func addVersion(_ number: Int, _ edit: (String) -> String) throws {
        let previous = try version(number - 1)
        let text = edit(previous.replacingOccurrences(of: "version: \(number - 1)\n", with: "version: \(number)\n"))
        try text.write(to: model.appendingPathComponent("v\(number).yaml"), atomically: true, encoding: .utf8)
        try commitGenerated("v\(number)")
    }

    /// Edits the latest version in place and commits it.
    func editVersion(_ number: Int, _ edit: (String) -> String) throws {
        try edit(try version(number)).write(
            to: model.appendingPathComponent("v\(number).yaml"), atomically: true, encoding: .utf8)
        try commitGenerated("edit v\(number)")
    }

    /// Every file of the working tree (outside `.git`) with its bytes.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        for path in TestPaths.files(under: root) where !path.hasPrefix(".git/") {
            files[path] = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
        }
        return files
    }

    /// The version numbers in the working tree.
    func versionNumbers() throws -> [Int] {
        try FileManager.default.contentsOfDirectory(atPath: model.path).compactMap { name -> Int? in
            guard name.hasPrefix("v"), name.hasSuffix(".yaml") else { return nil }
            return Int(name.dropFirst().dropLast(5))
        }.sorted()
    }

    /// The text of `path` on `ref`.
    func show(_ ref: String, _ path: String) throws -> String {
        try git("show", "\(ref):\(path)")
    }

    /// `strata check` and `strata verify` (SQLite) of the working tree both pass.
    func expectChecksAndVerifyPass(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try strata("check")
        #expect(check.status == 0, "check: \(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
        let verify = try strata("verify", "--rows", "20")
        #expect(verify.status == 0, "verify: \(verify.stdout)\(verify.stderr)", sourceLocation: sourceLocation)
    }

    /// `strata verify --postgres` of the working tree passes on the test server (a fresh
    /// database per run); without a server the test is cancelled, or fails under `CI=true`.
    func expectVerifyPassesOnPostgres(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let server = try await TestPostgresServer.forTest(sourceLocation: sourceLocation)
        let verify = try strata("verify", "--rows", "20", "--postgres", server.url.description)
        #expect(
            verify.status == 0, "verify --postgres: \(verify.stdout)\(verify.stderr)", sourceLocation: sourceLocation)
    }

    /// A SQLite database migrated with `main`'s versions, with rows in it, then migrated through
    /// the working tree's versions: every row is still there.
    func expectRowsKeptMigratingFromMain(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let database = root.deletingLastPathComponent().appendingPathComponent("app-\(UUID().uuidString).sqlite").path
        let mainSchemas = root.deletingLastPathComponent().appendingPathComponent("main-\(UUID().uuidString)")
        try git("worktree", "add", "-q", "--detach", mainSchemas.path, "main")
        defer { _ = try? gitStatus(["worktree", "remove", "--force", mainSchemas.path], allowFailure: true) }
        let first = try CLI.strata(
            ["migrate", "--database", database, "--schemas", mainSchemas.appendingPathComponent("Schemas").path])
        #expect(first.status == 0, "migrate (main): \(first.stderr)", sourceLocation: sourceLocation)
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in
            for name in ["Ada", "Grace", "Edsger"] {
                let customer = try Int64.fetchOne(
                    db,
                    sql: "INSERT INTO customer (name, email, joined) VALUES (?, ?, 1.0) RETURNING id",
                    arguments: [name, "\(name)@example.com"])
                try db.execute(
                    sql: "INSERT INTO \"order\" (id, customer) VALUES (randomblob(16), ?)", arguments: [customer])
                try db.execute(
                    sql: "INSERT INTO order_line (\"order\", position) SELECT id, 1 FROM \"order\" WHERE customer = ?",
                    arguments: [customer])
            }
        }
        /// The number of rows of every table of the model.
        func counts(_ queue: DatabaseQueue) throws -> [String: Int] {
            try queue.read { db in
                let tables = try String.fetchAll(
                    db,
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'strata_%'"
                )
                var counts: [String: Int] = [:]
                for table in tables {
                    counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0
                }
                return counts
            }
        }
        let before = try counts(queue)
        try queue.close()
        let second = try strata("migrate", "--database", database)
        #expect(second.status == 0, "migrate (rebased): \(second.stderr)", sourceLocation: sourceLocation)
        let after = try counts(DatabaseQueue(path: database))
        #expect(
            before["customer"] == 3 && before["order"] == 3 && before["order_line"] == 3, "\(before)",
            sourceLocation: sourceLocation)
        #expect(after == before, sourceLocation: sourceLocation)
    }
}
