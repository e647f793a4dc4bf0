import Foundation
import StrataChecksum
import StrataCore
import StrataTestSupport
import Testing

/// `generate` writes the large files (each database's repositories and embedded migrations) part
/// by part as they are rendered, comparing each part with the file on disk: what it writes is
/// byte for byte what ``Generator/files(for:databases:)`` renders whole, an unchanged file is not
/// rewritten, and a file that differs anywhere (a byte in the middle, cut short, longer) is.
@Suite struct StreamedOutputTests {
    /// A model of `entities` entities of ten fields over two versions: large enough that its first
    /// migration is embedded in several chunks and its repositories in several rounds of parts.
    static func largeModel(entities: Int) throws -> URL {
        let root = try TestPaths.temporaryFolder()
        let folder = root.appendingPathComponent("Schemas/Large")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func version(_ number: Int) -> String {
            var yaml = "model: Large\nversion: \(number)\nentities:\n"
            for index in 0..<entities {
                yaml += "  Item\(index):\n    doc: \"Item number \(index), with a # and a \\\"quote\\\".\"\n    fields:\n"
                yaml += "      id: { type: UUID, primaryKey: true }\n      title: String\n      note: String?\n"
                yaml += "      count: { type: Int32, default: 0 }\n      price: Decimal?\n      done: { type: Bool, default: false }\n"
                yaml += "      created: Date\n      data: Data?\n      ratio: Double\n"
                if number > 1 { yaml += "      added: { type: String, default: \"x\" }\n" }
                if index > 0 { yaml += "      previous: { type: Item\(index - 1)?, onDelete: setNull }\n" }
            }
            return yaml
        }
        try version(1).write(to: folder.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
        try version(2).write(to: folder.appendingPathComponent("v2.yaml"), atomically: true, encoding: .utf8)
        return root
    }

    /// Generates `root/Schemas` into `root/Generated`.
    static func generate(_ root: URL) throws -> Workspace.GenerateOutcome {
        let outcome = try Workspace.generate(
            schemas: root.appendingPathComponent("Schemas").path, output: root.appendingPathComponent("Generated").path)
        #expect(!outcome.hasErrors, "\(outcome.diagnostics)")
        return outcome
    }

    @Test("what generate streams to disk is what the generator renders whole")
    func streamedFilesEqualWholeFiles() throws {
        let root = try Self.largeModel(entities: 300)
        _ = try Self.generate(root)
        let (history, _, diagnostics) = SchemaLoader.loadModel(
            named: "Large", in: root.appendingPathComponent("Schemas").path)
        #expect(diagnostics.isEmpty)
        let files = Generator.files(for: try #require(history))
        let migrations = try #require(files.first { $0.path.hasSuffix("LargeMigrations.swift") })
        // Several chunks of the embedded migration, several rounds of repository parts.
        #expect(migrations.contents.utf8.count > 4 * 64 * 1024)
        for file in files {
            let written = try String(
                contentsOf: root.appendingPathComponent("Generated").appendingPathComponent(file.path), encoding: .utf8)
            #expect(written == file.contents, "\(file.path)")
        }
        #expect(OutputTransactionTests.leftovers(root).isEmpty)
    }

    @Test("a streamed file is rewritten when it differs anywhere, and left alone when it does not")
    func streamedFileComparedWithDisk() throws {
        let root = try Self.largeModel(entities: 80)
        _ = try Self.generate(root)
        #expect(try Self.generate(root).changed.isEmpty)
        let repositories = root.appendingPathComponent("Generated/Large/Swift/LargeRepositories.swift")
        let migrations = root.appendingPathComponent("Generated/Large/Swift/LargePostgresMigrations.swift")
        for target in [repositories, migrations] {
            let original = try Data(contentsOf: target)
            var middle = original
            middle[middle.count / 2] ^= 0x20
            for edited in [middle, original.dropLast(7), original + Data("// more\n".utf8)] {
                try edited.write(to: target)
                let outcome = try Self.generate(root)
                #expect(outcome.changed.map { URL(fileURLWithPath: $0).lastPathComponent } == [target.lastPathComponent])
                #expect(try Data(contentsOf: target) == original)
            }
        }
        #expect(OutputTransactionTests.leftovers(root).isEmpty)
    }

    @Test("a checksum computed over pieces is the checksum of the whole")
    func sha256OverPieces() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1_000, 4_099] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var hasher = SHA256.Hasher()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...130, using: &generator))
                hasher.update(bytes[start..<end])
                start = end
            }
            #expect(hasher.hex() == SHA256.hex(bytes), "\(length) bytes")
        }
    }
}
