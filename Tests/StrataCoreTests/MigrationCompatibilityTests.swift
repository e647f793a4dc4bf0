import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// Whether code generated for version N-1 keeps working against a database at N, decided per
/// change kind (`MigrationCompatibility`), and what the generator does with it.
@Suite struct MigrationCompatibilityTests {
    static let v1 = """
        model: M
        version: 1
        enums:
          Status:
            type: String
            cases: [open, closed]
          Mood:
            type: String
            cases: [calm, upset]
            unknown: calm
        entities:
          Author:
            fields:
              id: { type: Int64, autoincrement: true }
              name: String
          Post:
            fields:
              id: UUID
              author: Author
              title: String
              note: String?
              views: Int64
              status: { type: Status, default: open }
              mood: { type: Mood, default: calm }
              code: { type: String, unique: true }
              score: { type: Int64, default: 0, check: "score >= 0" }
            indexes:
              - [title]
        """

    /// The compatibility of v1 -> `v2`, where `v2` is v1's text with `edit` applied.
    static func compatibility(_ edit: (String) -> String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
        -> MigrationCompatibility
    {
        let v2 = edit(v1).replacingOccurrences(of: "version: 1", with: "version: 2")
        let history = try Self.history([v1, v2], sourceLocation: sourceLocation)
        let plan = try #require(Generator.migrationPlans(for: history).first, sourceLocation: sourceLocation)
        return MigrationCompatibility(plan)
    }

    static func history(_ versions: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
        -> SchemaHistory
    {
        let root = try TestPaths.temporaryFolder()
        let folder = root.appendingPathComponent("M")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (offset, text) in versions.enumerated() {
            try text.write(to: folder.appendingPathComponent("v\(offset + 1).yaml"), atomically: true, encoding: .utf8)
        }
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: "M", in: root.path)
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
        return try #require(history, sourceLocation: sourceLocation)
    }

    /// Replaces `old` by `new` in the text (which must hold it).
    static func replacing(_ old: String, _ new: String) -> @Sendable (String) -> String {
        { text in
            if !text.contains(old) { Issue.record("the version's text lacks \(old)") }
            return text.replacingOccurrences(of: old, with: new)
        }
    }

    static func adding(_ lines: String, after anchor: String) -> @Sendable (String) -> String {
        replacing(anchor, anchor + "\n" + lines)
    }

    /// Appends `text` to the version's text.
    static func appending(_ text: String) -> @Sendable (String) -> String {
        { $0 + text }
    }

    /// Appends the `allowDataLoss` entries a destructive version needs.
    static func allowing(_ entries: String) -> @Sendable (String) -> String {
        appending("\nmigration:\n  allowDataLoss: [\(entries)]\n")
    }

    @Test("additive and relaxing changes keep code of N-1 working", arguments: [
        ("a new entity", adding("  Tag:\n    fields:\n      id: Int64\n      label: String", after: "      - [title]")),
        ("a new optional field", adding("      subtitle: String?", after: "      note: String?")),
        ("a new required field with a default", adding("      pinned: { type: Bool, default: false }", after: "      note: String?")),
        ("a new optional unique field", adding("      slug: { type: String?, unique: true }", after: "      note: String?")),
        ("a new optional reference", adding("      editor: Author?", after: "      note: String?")),
        ("a new index", replacing("      - [title]", "      - [title]\n      - [views]")),
        ("an index removed", replacing("    indexes:\n      - [title]", "")),
        ("a unique constraint removed", replacing("code: { type: String, unique: true }", "code: String")),
        ("a default changed", replacing("default: open }", "default: closed }")),
        ("a case added to an enum with an unknown case", replacing("cases: [calm, upset]", "cases: [calm, upset, glad]")),
        ("a field renamed keeping its column", replacing("      title: String", "      headline: { type: String, renamedFrom: title, column: title }") >>> replacing("- [title]", "- [headline]")),
        ("an entity renamed keeping its table", replacing("  Author:\n    fields:", "  Writer:\n    renamedFrom: Author\n    table: author\n    fields:") >>> replacing("author: Author", "author: Writer")),
    ] as [(String, @Sendable (String) -> String)])
    func compatibleChanges(_ name: String, _ edit: @Sendable (String) -> String) throws {
        let compatibility = try Self.compatibility(edit)
        #expect(compatibility.isCompatible, "\(name): \(compatibility.reasons)")
        #expect(compatibility.line == "Compatible with code of version 1: yes")
    }

    @Test("breaking changes each say why", arguments: [
        ("a field renamed", replacing("      title: String", "      headline: { type: String, renamedFrom: title }") >>> replacing("- [title]", "- [headline]"),
         "renames Post.title to headline (column title -> headline)"),
        ("an entity renamed", replacing("  Author:\n    fields:", "  Writer:\n    renamedFrom: Author\n    fields:") >>> replacing("author: Author", "author: Writer"),
         "renames Author to Writer (table author -> writer)"),
        ("a field removed", replacing("      views: Int64\n", "") >>> allowing("Post.views"),
         "removes Post.views (column views)"),
        ("an entity removed", replacing("  Author:\n    fields:\n      id: { type: Int64, autoincrement: true }\n      name: String\n", "") >>> replacing("      author: Author\n", "") >>> allowing("Author, Post.author"),
         "removes Author (table author)"),
        ("a type changed", replacing("views: Int64", "views: String"),
         "changes the type of Post.views from Int64 to String"),
        ("a field made required", replacing("note: String?", #"note: { type: String, default: "" }"#),
         "makes Post.note required"),
        ("a field made optional", replacing("      title: String", "      title: String?"),
         "makes Post.title optional: code of v1 cannot read a row without it"),
        ("a required field without default (a guard error too)", adding("      rank: Int64", after: "      note: String?"),
         "adds the required Post.rank without a default: code of v1 inserts no value for it"),
        ("a required field filled by a transform", adding("      rank: { type: Int64, transform: \"0\" }", after: "      note: String?"),
         "fills the new Post.rank by a transform, which rows code of v1 inserts do not get"),
        ("a unique field", replacing("      title: String", "      title: { type: String, unique: true }"),
         "makes Post.title unique"),
        ("a unique index", replacing("      - [title]", "      - { fields: [views], unique: true }\n      - [title]"),
         "adds the unique index"),
        ("a kept field rewritten by a transform", replacing("      views: Int64", #"      views: { type: Int64, transform: "views + 1" }"#),
         "rewrites Post.views by a transform"),
        ("an enum case removed", replacing("cases: [open, closed]", "cases: [open]") >>> allowing("Status.closed"),
         "removes the case closed from Status"),
        ("an enum case added", replacing("cases: [open, closed]", "cases: [open, closed, draft]"),
         "adds the case draft to Status: code of v1 cannot read a row holding it"),
        ("a required unique field with a default", adding(#"      handle: { type: String, default: "", unique: true }"#, after: "      note: String?"),
         "adds the required unique Post.handle"),
        ("a reference changed", replacing("      author: Author\n", "      author: { type: Author, onDelete: cascade }\n"),
         "changes the reference Post.author"),
        ("a primary key changed", replacing("    indexes:\n      - [title]", "    primaryKey: [id, code]\n    indexes:\n      - [title]"),
         "changes the primary key of Post"),
        ("an enum raw value changed", replacing("cases: [open, closed]", "cases: { open: open, closed: done }"),
         "changes the raw value of Status.closed"),
        ("the version's own SQL", appending("\nmigration:\n  after: \"UPDATE post SET views = 0\"\n"),
         "runs its own SQL (migration.after)"),
    ] as [(String, @Sendable (String) -> String, String)])
    func breakingChanges(_ name: String, _ edit: @Sendable (String) -> String, _ reason: String) throws {
        let compatibility = try Self.compatibility(edit)
        #expect(!compatibility.isCompatible, "\(name)")
        #expect(compatibility.reasons.contains { $0.contains(reason) }, "\(name): \(compatibility.reasons)")
        #expect(compatibility.line.hasPrefix("Compatible with code of version 1: no ("), "\(compatibility.line)")
    }

    @Test("compatibleFrom: additive versions add up, a breaking one starts again from itself")
    func compatibleFromChains() throws {
        let v2 = Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "      note: String?", with: "      note: String?\n      a: String?")
        let v3 = v2.replacingOccurrences(of: "version: 2", with: "version: 3")
            .replacingOccurrences(of: "      a: String?", with: "      a: String?\n      b: String?")
        let v4 = v3.replacingOccurrences(of: "version: 3", with: "version: 4")
            .replacingOccurrences(of: "views: Int64", with: "views: String")
        let v5 = v4.replacingOccurrences(of: "version: 4", with: "version: 5")
            .replacingOccurrences(of: "      b: String?", with: "      b: String?\n      c: String?")
        let history = try Self.history([Self.v1, v2, v3, v4, v5])
        let plans = Generator.migrationPlans(for: history)
        #expect(MigrationCompatibility.compatibleFrom(plans) == [1: 1, 2: 1, 3: 1, 4: 4, 5: 4])

        let sources = MigrationSources.sqlite(for: history)
        #expect(sources.map(\.compatibleFrom) == [nil, 1, 1, nil, 4])
        #expect(sources.map { $0.incompatibility != nil } == [false, false, false, true, false])
        #expect(sources[3].incompatibility == "changes the type of Post.views from Int64 to String")
        // The header line is a comment: the ledger checksum does not count it.
        for source in sources.dropFirst() {
            #expect(source.sql.contains("-- Compatible with code of version \(source.version - 1): "))
            let without = source.sql.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("-- Compatible with code") }.joined(separator: "\n")
            #expect(MigrationSources.checksum(without) == source.checksum)
        }
        // The generated migration lists carry it for the runtime's ledger.
        let files = Generator.files(for: history)
        let swift = try #require(files.first { $0.path.hasSuffix("MMigrations.swift") }?.contents)
        #expect(swift.contains("compatibleFrom: 1"))
        #expect(swift.contains(#"incompatibility: "changes the type of Post.views from Int64 to String""#))
    }

    @Test("strata plan prints each version's compatibility, in text and JSON")
    func planPrintsCompatibility() throws {
        let v2 = Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "      title: String", with: "      headline: { type: String, renamedFrom: title }")
            .replacingOccurrences(of: "- [title]", with: "- [headline]")
        let root = try TestPaths.temporaryFolder()
        let folder = root.appendingPathComponent("M")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.v1.write(to: folder.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
        try v2.write(to: folder.appendingPathComponent("v2.yaml"), atomically: true, encoding: .utf8)
        let text = try CLI.strata(["plan", "M", "--schemas", "."], in: root)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("  Compatible with code of version 1: no\n    - renames Post.title to headline (column title -> headline)"), "\(text.stdout)")
        let json = try CLI.strata(["plan", "M", "--schemas", ".", "--format", "json"], in: root)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let migration = try #require((object["migrations"] as? [[String: Any]])?.first)
        #expect(migration["compatibleWithPreviousCode"] as? Bool == false)
        #expect(migration["incompatibilities"] as? [String] == ["renames Post.title to headline (column title -> headline)"])
    }
}

infix operator >>> : AdditionPrecedence
/// Two edits of a version's text, one after the other.
private func >>> (first: @escaping @Sendable (String) -> String, second: @escaping @Sendable (String) -> String)
    -> @Sendable (String) -> String
{
    { second(first($0)) }
}
