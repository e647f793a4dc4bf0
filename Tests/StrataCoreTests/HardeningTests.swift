import Foundation
import Testing

@testable import StrataCore

/// Regression tests of issue 16: bounds, unreadable inputs, and all-or-nothing writes.
@Suite struct HardeningTests {
    static let v1 = "model: M\nversion: 1\nentities:\n  Item:\n    fields:\n      id: UUID\n      n: Int64\n"

    func workspace(_ versions: [String] = [v1]) throws -> URL {
        let root = try TestPaths.temporaryFolder()
        let model = root.appendingPathComponent("Schemas/M")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        for (index, text) in versions.enumerated() {
            try text.write(to: model.appendingPathComponent("v\(index + 1).yaml"), atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test("a 500,000-character type name is a located error, fast, and is not printed whole")
    func longNameIsBounded() throws {
        let root = try workspace([Self.v1.replacingOccurrences(of: "n: Int64", with: "n: " + String(repeating: "x", count: 500_000))])
        let started = Date()
        let plan = Workspace.plan(schemas: root.appendingPathComponent("Schemas").path, output: root.path + "/Generated")
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(plan.diagnostics.count == 1)
        let message = plan.diagnostics.first?.description ?? ""
        #expect(message.contains("v1.yaml:7:10: error: name 'xxxxxxxxxxxxxxxxxxxx…' (500000 characters) is longer than the limit of 255"))
        #expect(message.count < 300)
    }

    @Test("suggestions compare only names of similar length")
    func suggestionsAreBounded() {
        #expect(Suggestion.nearest(to: "Strng", in: ["String", "Int64"]) == "String")
        #expect(Suggestion.nearest(to: "S", in: ["String"]) == nil)
        #expect(Suggestion.nearest(to: String(repeating: "a", count: 10_000), in: ["a"]) == nil)
    }

    @Test("a version file above the size limit is a located error")
    func fileSizeLimit() throws {
        let padding = "# " + String(repeating: "x", count: 100) + "\n"
        let root = try workspace([Self.v1 + String(repeating: padding, count: SchemaLimits.maximumFileSize / padding.count + 1)])
        let plan = Workspace.plan(schemas: root.appendingPathComponent("Schemas").path, output: root.path + "/Generated")
        #expect(plan.diagnostics.map(\.message).contains { $0.contains("larger than the limit of \(SchemaLimits.maximumFileSize) bytes") })
    }

    @Test("an unreadable strata.lock is an error, not an absent lock, and generate leaves it alone")
    func unreadableLock() throws {
        let root = try workspace()
        let lock = root.appendingPathComponent("Schemas/M/strata.lock")
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: false)
        let plan = Workspace.plan(schemas: root.appendingPathComponent("Schemas").path, output: root.path + "/Generated")
        #expect(plan.hasErrors)
        #expect(plan.diagnostics.contains { $0.message.hasPrefix("cannot read '\(lock.path)'") })
        #expect(try Workspace.write(plan).isEmpty)
        #expect(SchemaLoader.isFolder(lock.path))
    }

    @Test("a symbolic-link loop as the schemas folder is named as such")
    func symlinkLoop() throws {
        let root = try TestPaths.temporaryFolder()
        let loop = root.appendingPathComponent("Schemas").path
        #expect(symlink(loop, loop) == 0)
        let plan = Workspace.plan(schemas: loop, output: root.path + "/Generated")
        #expect(plan.diagnostics.first?.message.contains("symbolic link") == true)
    }

    @Test("a folder at a generated file's path is an error; nothing is written, deleted or left staged")
    func folderInTheWay() throws {
        let root = try workspace()
        let schemas = root.appendingPathComponent("Schemas").path
        let output = root.appendingPathComponent("Generated").path
        let plan = Workspace.plan(schemas: schemas, output: output)
        let victim = try #require(plan.files.first { $0.path.hasPrefix(output) && $0.path.hasSuffix(".sql") }).path
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        try "mine".write(toFile: victim + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(throws: FileWriteError.self) { try Workspace.write(plan) }
        do { try Workspace.write(plan) } catch let error as FileWriteError {
            #expect(error.path == victim)
            #expect(!error.description.contains("\n"))
        }
        #expect(try String(contentsOfFile: victim + "/notes.txt", encoding: .utf8) == "mine")
        #expect(!FileManager.default.fileExists(atPath: schemas + "/M/strata.lock"))
        let everything = TestPaths.files(under: root)
        #expect(!everything.contains { $0.contains("strata-tmp") || $0.contains("strata-bak") })
        #expect(everything.filter { $0.hasSuffix(".swift") }.isEmpty)
    }

    @Test("a file without Strata's header at a generated path is never replaced")
    func foreignFileInTheWay() throws {
        let root = try workspace()
        let plan = Workspace.plan(schemas: root.appendingPathComponent("Schemas").path, output: root.path + "/Generated")
        let target = try #require(plan.files.last).path
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "handwritten".write(toFile: target, atomically: true, encoding: .utf8)
        #expect(throws: FileWriteError.self) { try Workspace.write(plan) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "handwritten")
    }

    @Test("generate twice: the second run replaces through staging and leaves no staged file")
    func replacesCleanly() throws {
        let root = try workspace()
        let plan = Workspace.plan(schemas: root.appendingPathComponent("Schemas").path, output: root.path + "/Generated")
        #expect(try !Workspace.write(plan).isEmpty)
        let edited = root.appendingPathComponent("Schemas/M/v1.yaml")
        try Self.v1.replacingOccurrences(of: "n: Int64", with: "n: Int32").write(to: edited, atomically: true, encoding: .utf8)
        let again = Workspace.plan(schemas: root.appendingPathComponent("Schemas").path, output: root.path + "/Generated")
        #expect(try !Workspace.write(again).isEmpty)
        #expect(Workspace.check(again).isEmpty)
        #expect(!TestPaths.files(under: root).contains { $0.contains("strata-tmp") || $0.contains("strata-bak") })
    }

    @Test("an integer field that becomes a reference gets a warning, and the plan says what it needs")
    func integerToReference() throws {
        let v1 = "model: M\nversion: 1\nentities:\n  A:\n    fields:\n      id: Int64\n  B:\n    fields:\n      id: Int64\n      a: Int64\n"
        let v2 = v1.replacingOccurrences(of: "version: 1", with: "version: 2").replacingOccurrences(of: "a: Int64", with: "a: A")
        let root = try workspace([v1, v2])
        let plan = Workspace.plan(schemas: root.appendingPathComponent("Schemas").path, output: root.path + "/Generated")
        #expect(!plan.hasErrors)
        #expect(plan.diagnostics.contains { $0.severity == .warning && $0.message.contains("'B.a' becomes a reference to A") })
    }
}
