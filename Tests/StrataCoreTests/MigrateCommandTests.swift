import Foundation
import Testing

/// `strata migrate` on paths that cannot hold a database, and while another process holds its lock.
@Suite struct MigrateCommandTests {
    static func schemas() throws -> URL {
        let root = try TestPaths.temporaryFolder()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Schemas/M"), withIntermediateDirectories: true)
        try "model: M\nversion: 1\nentities:\n  Item:\n    fields:\n      id: UUID\n"
            .write(to: root.appendingPathComponent("Schemas/M/v1.yaml"), atomically: true, encoding: .utf8)
        return root
    }

    @Test(arguments: ["", ":memory:"])
    func refusesTemporaryDatabases(path: String) throws {
        let result = try CLITests.strata(["migrate", "--database", path], in: try Self.schemas())
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--database needs a file path"))
    }

    @Test func secondMigrateWaitsForTheFirstThenAppliesNothing() throws {
        let root = try Self.schemas()
        let database = root.appendingPathComponent("app.sqlite").path
        #expect(try CLITests.strata(["migrate", "--database", database], in: root).status == 0)
        // Another process holds the write lock for a while, as a first `migrate` would.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "printf 'BEGIN EXCLUSIVE;\\nSELECT 1;\\n.shell sleep 1.5\\nCOMMIT;\\n' | sqlite3 \"$0\"", database]
        holder.standardOutput = Pipe()
        try holder.run()
        Thread.sleep(forTimeInterval: 0.4)
        let result = try CLITests.strata(["migrate", "--database", database], in: root)
        holder.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("another process is changing the database; waiting"))
        #expect(result.stdout.contains("nothing to apply"))
    }
}
