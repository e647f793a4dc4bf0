import Foundation
import StrataCore
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C during `generate`: the output transaction stops before its next file and puts back
/// everything it wrote, whichever file the signal comes before; the command says so and exits
/// 128 + the signal's number.
@Suite struct InterruptionTests {
    /// Counts the questions a transaction asks, and answers SIGINT from the `after`-th on.
    final class Signaller: @unchecked Sendable {
        private let lock = NSLock()
        private var asked = 0
        let after: Int

        init(after: Int) { self.after = after }

        func answer() -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            asked += 1
            return asked > after ? SIGINT : nil
        }
    }

    @Test("a signal before any file, staged or put in place, leaves the folder exactly as it was")
    func everyInterruptionPointRollsBack() throws {
        let root = try TestPaths.temporaryFolder()
        func path(_ name: String) -> String { root.appendingPathComponent(name).path }
        for name in ["a.swift", "b.swift", "c.swift", "gone.swift"] {
            try "old \(name)\n".write(toFile: path(name), atomically: true, encoding: .utf8)
        }
        let writes = ["a.swift", "b.swift", "c.swift", "new/d.swift", "new/deeper/e.swift"].map {
            OutputTransaction.Write(path: path($0), contents: "new \($0)\n")
        }
        let before = OutputTransactionTests.snapshot(root)
        // Five files staged, five put in place, one removed: eleven points to stop at.
        for after in 0..<11 {
            let signaller = Signaller(after: after)
            #expect(throws: OutputInterrupted.self, "stopped after \(after) files") {
                try OutputTransaction.run(
                    writes: writes, removals: [path("gone.swift")], isOurs: { _ in true },
                    interruption: signaller.answer)
            }
            #expect(OutputTransactionTests.snapshot(root) == before, "stopped after \(after) files")
            #expect(OutputTransactionTests.leftovers(root).isEmpty, "stopped after \(after) files")
            #expect(!FileManager.default.fileExists(atPath: path("new")), "stopped after \(after) files")
        }
        // With no signal, all of it is done.
        try OutputTransaction.run(
            writes: writes, removals: [path("gone.swift")], isOurs: { _ in true }, interruption: Signaller(after: 11).answer)
        #expect(try String(contentsOfFile: path("new/deeper/e.swift"), encoding: .utf8) == "new new/deeper/e.swift\n")
        #expect(try String(contentsOfFile: path("a.swift"), encoding: .utf8) == "new a.swift\n")
        #expect(!FileManager.default.fileExists(atPath: path("gone.swift")))
        #expect(OutputTransactionTests.leftovers(root).isEmpty)
    }

    @Test("a signal before an import's model folder is moved into place writes nothing, not even the staging folder")
    func anInterruptedImportWritesNothing() throws {
        let root = try TestPaths.temporaryFolder()
        let schemas = root.appendingPathComponent("Schemas").path
        let versions = (1...2).map { version in
            ImportedSchema(
                model: "Shop", version: version,
                entities: [
                    ImportedEntity(
                        name: "Customer",
                        fields: [ImportedField(name: "id", type: "UUID"), ImportedField(name: "name", type: "String")])
                ])
        }
        // Before staging, after each of the two files, after lint, before the move: five points.
        for after in 0..<5 {
            let signaller = Signaller(after: after)
            do {
                _ = try ImportedModelWriter.write(
                    model: "Shop", versions: versions, schemas: schemas, interruption: signaller.answer)
                Issue.record("stopped after \(after) steps: the import went through")
            } catch {
                guard case .interrupted(let stop) = error else {
                    Issue.record("stopped after \(after) steps: \(error)")
                    continue
                }
                #expect(stop.exitStatus == 130)
                #expect(stop.description == "interrupted (SIGINT): nothing was written; '\(schemas)/Shop' was not created")
            }
            // The Schemas folder did not exist: it is gone again, staging folder and all.
            #expect(!FileManager.default.fileExists(atPath: schemas), "stopped after \(after) steps")
        }
        // The same with a Schemas folder that exists: only its hidden staging folder came and went.
        try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        for after in 0..<5 {
            #expect(throws: ImportedModelWriter.Failure.self) {
                try ImportedModelWriter.write(
                    model: "Shop", versions: versions, schemas: schemas, interruption: Signaller(after: after).answer)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: schemas).isEmpty, "stopped after \(after) steps")
        }
        let written = try ImportedModelWriter.write(
            model: "Shop", versions: versions, schemas: schemas, interruption: Signaller(after: 5).answer)
        #expect(written.written == ["\(schemas)/Shop/v1.yaml", "\(schemas)/Shop/v2.yaml"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: schemas) == ["Shop"])
    }

    /// A model large enough that `generate` is still writing when the test sees its first staged file.
    static func largeModel(in root: URL, entities: Int) throws {
        var yaml = "model: Large\nversion: 1\n\nentities:\n"
        for entity in 1...entities {
            yaml += "  Entity\(entity):\n    fields:\n      id: UUID\n"
            for field in 1...15 { yaml += "      field\(field): String\n" }
        }
        let folder = root.appendingPathComponent("Schemas/Large")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try yaml.write(to: folder.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
    }

    /// Starts `strata generate` in `root`, sends `signal` once a staged file appears, and returns
    /// its status and standard error.
    static func interruptedGenerate(in root: URL, signal: Int32) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("strata")
        process.arguments = ["generate"]
        process.currentDirectoryURL = root
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, OutputTransactionTests.leftovers(root).isEmpty, Date() < deadline {
            usleep(2_000)
        }
        if process.isRunning { kill(process.processIdentifier, signal) }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    @Test("Ctrl-C during a first generate leaves no Generated/ folder and exits 130")
    func ctrlCDuringFirstGenerate() throws {
        let root = try TestPaths.temporaryFolder()
        try Self.largeModel(in: root, entities: 300)
        let (status, stderr) = try Self.interruptedGenerate(in: root, signal: SIGINT)
        #expect(status == 130, "\(stderr)")
        #expect(
            stderr
                == "error: interrupted (SIGINT): nothing was written; the generated files and strata.lock are as they were\n")
        #expect(TestPaths.files(under: root) == ["Schemas/Large/v1.yaml"])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Generated").path))
    }

    @Test("SIGTERM during a regenerate leaves every generated file as it was and exits 143")
    func sigtermDuringRegenerate() throws {
        let root = try TestPaths.temporaryFolder()
        try Self.largeModel(in: root, entities: 300)
        let first = try CLI.strata(["generate"], in: root)
        #expect(first.status == 0, "\(first.stderr)")
        // A second version: every Swift file, the SQL schemas, a migration each and strata.lock change.
        let v1 = root.appendingPathComponent("Schemas/Large/v1.yaml")
        let v2 = try String(contentsOf: v1, encoding: .utf8)
            .replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "      field15: String\n", with: "      field15: String\n      added: String?\n")
        try v2.write(to: root.appendingPathComponent("Schemas/Large/v2.yaml"), atomically: true, encoding: .utf8)
        let before = OutputTransactionTests.snapshot(root)
        let (status, stderr) = try Self.interruptedGenerate(in: root, signal: SIGTERM)
        #expect(status == 143, "\(stderr)")
        #expect(stderr.hasPrefix("error: interrupted (SIGTERM): nothing was written"), "\(stderr)")
        #expect(OutputTransactionTests.snapshot(root) == before)
        #expect(OutputTransactionTests.leftovers(root).isEmpty)
        // The next run writes it all.
        let next = try CLI.strata(["generate"], in: root)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try CLI.strata(["check"], in: root).status == 0)
    }
}
