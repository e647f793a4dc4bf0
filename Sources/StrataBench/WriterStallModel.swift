/// The writer-stall section's model: version 1 is the `Evolution` fixture model's version 1
/// (`Tests/Fixtures/Models/Evolution`) with one more field on `Post` (`legacyCode`, so that a field
/// can be dropped from it), and each later version makes exactly one of the changes that the
/// fixture's versions 2 to 5 combine, on `Post` (the table the writer updates) unless the change
/// is one of the entities around it. One version per change kind, so that a stall is the kind's.
enum WriterStallModel {
    /// The model's name.
    static let name = "WriterStall"

    /// One change kind: what it is, which fixture version makes it, and how it changes the model.
    struct Change: Sendable {
        /// The change kind, as the report names it.
        var kind: String
        /// Where the `Evolution` fixture makes it.
        var source: String
        /// What the version keeps for the versions after it.
        var apply: @Sendable (inout Shape) -> Void
        /// What this version alone says (`renamedFrom`, `transform`, `allowDataLoss`).
        var annotate: @Sendable (inout Shape) -> Void = { _ in }
    }

    /// What the model looks like at one version.
    struct Shape: Sendable {
        var statusCases = "[open, closed, archived]"
        var statusUnknown: String?
        var levelCases = "{ low: 1, high: 2 }"
        var author = "Author"
        var authorRenamedFrom: String?
        var onDelete = "cascade"
        /// Post's fields after `id` and `author`, in order.
        var postFields: [(name: String, type: String)] = [
            ("title", "String"), ("body", "{ type: String, default: \"\" }"), ("views", "Int32"), ("rating", "Int16?"),
            ("status", "{ type: Status, default: open }"), ("level", "{ type: Level, default: low }"),
            ("legacyCode", "{ type: String, default: \"\" }"),
        ]
        var postIndexes = ["[author, title]"]
        var tag = true
        var comment = false
        var allowDataLoss: [String] = []
        /// `migration.rolling`: applied as expand, then contract.
        var rolling = false

        /// Sets (or adds, at the end) a field of `Post`.
        mutating func set(_ name: String, _ type: String) {
            if let index = postFields.firstIndex(where: { $0.name == name }) {
                postFields[index].type = type
            } else {
                postFields.append((name, type))
            }
        }

        /// Renames a field of `Post`, keeping its place.
        mutating func rename(_ name: String, to newName: String, type: String) {
            if let index = postFields.firstIndex(where: { $0.name == name }) { postFields[index] = (newName, type) }
        }

        /// The version file.
        func yaml(version: Int) -> String {
            var lines = [
                "model: \(WriterStallModel.name)", "version: \(version)", "", "enums:", "  Status:", "    type: String",
                "    cases: \(statusCases)",
            ]
            if let statusUnknown { lines.append("    unknown: \(statusUnknown)") }
            lines += ["  Level:", "    type: Int16", "    cases: \(levelCases)", "", "entities:", "  \(author):"]
            if let authorRenamedFrom { lines.append("    renamedFrom: \(authorRenamedFrom)") }
            lines += [
                "    fields:", "      id: { type: Int64, autoincrement: true }", "      name: String", "      email: String?",
                "  Post:", "    fields:", "      id: UUID", "      author: { type: \(author), onDelete: \(onDelete) }",
            ]
            lines += postFields.map { "      \($0.name): \($0.type)" }
            lines.append("    indexes:")
            lines += postIndexes.map { "      - \($0)" }
            if tag { lines += ["  Tag:", "    fields:", "      id: Int", "      label: String"] }
            if comment {
                lines += [
                    "  Comment:", "    fields:", "      id: UUID", "      post: { type: Post, onDelete: cascade }", "      text: String",
                ]
            }
            if !allowDataLoss.isEmpty || rolling { lines += ["", "migration:"] }
            if !allowDataLoss.isEmpty { lines.append("  allowDataLoss: [\(allowDataLoss.joined(separator: ", "))]") }
            if rolling { lines.append("  rolling: true") }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// The changes of versions 2, 3, …, in order.
    static let changes: [Change] = [
        Change(kind: "add an optional field", source: "Evolution v2, Writer.bio") { $0.set("bio", "String?") },
        Change(kind: "add a required field with a default", source: "Evolution v3, Post.score (without its transform)") {
            $0.set("score", "{ type: Decimal, default: \"0\" }")
        },
        Change(
            kind: "add a required field filled by a transform", source: "Evolution v2, Writer.slug",
            apply: { $0.set("slug", "String") },
            annotate: { $0.set("slug", "{ type: String, transform: \"lower(title)\" }") }),
        Change(kind: "make an optional field required, with a default", source: "Evolution v4, Writer.bio") {
            $0.set("bio", "{ type: String, default: \"\" }")
        },
        Change(
            kind: "rename a field", source: "Evolution v5, Post.body -> content",
            apply: { $0.rename("body", to: "content", type: "{ type: String, default: \"\" }") },
            annotate: { $0.set("content", "{ type: String, default: \"\", renamedFrom: body }") }),
        Change(kind: "change a default", source: "Evolution v3, Post.body") {
            $0.set("content", "{ type: String, default: \"(empty)\" }")
        },
        Change(
            kind: "drop a field", source: "Evolution v2, Author.legacyCode",
            apply: { $0.postFields.removeAll { $0.name == "legacyCode" } },
            annotate: { $0.allowDataLoss = ["Post.legacyCode"] }),
        Change(kind: "widen a type", source: "Evolution v3, Post.views Int32 -> Int64") { $0.set("views", "Int64") },
        Change(kind: "add a unique constraint", source: "Evolution v3, Post.title") {
            $0.set("title", "{ type: String, unique: true }")
        },
        Change(kind: "drop a unique constraint", source: "Evolution v4, Post.title") { $0.set("title", "String") },
        Change(kind: "make a required field optional", source: "Evolution v4, Post.title") { $0.set("title", "String?") },
        Change(
            kind: "enum: a case added, one removed", source: "Evolution v3, Status",
            apply: {
                $0.statusCases = "[draft, open, closed]"
                $0.statusUnknown = "open"
            },
            annotate: { $0.allowDataLoss = ["Status.archived"] }),
        Change(kind: "enum: raw values changed, a case added", source: "Evolution v5, Level") {
            $0.levelCases = "{ low: 10, high: 20, critical: 30 }"
        },
        Change(kind: "change a reference's onDelete", source: "Evolution v4, Post.author") { $0.onDelete = "restrict" },
        Change(kind: "replace an index", source: "Evolution v4, [author, title] -> [status, views]") {
            $0.postIndexes = ["[status, views]"]
        },
        Change(
            kind: "rename the referenced entity", source: "Evolution v2, Author -> Writer",
            apply: { $0.author = "Writer" }, annotate: { $0.authorRenamedFrom = "Author" }),
        Change(kind: "add an entity referencing the table", source: "Evolution v5, Comment") { $0.comment = true },
        Change(
            kind: "drop an entity", source: "Evolution v4, Tag", apply: { $0.tag = false },
            annotate: { $0.allowDataLoss = ["Tag"] }),
        // Measured with its contract: the new column filled in batches beside the old one, then the old one dropped.
        Change(
            kind: "rename a field, rolling: expand, then contract", source: "Evolution v5's rename with migration.rolling, here Post.title -> headline",
            apply: { $0.rename("title", to: "headline", type: "String?") },
            annotate: {
                $0.set("headline", "{ type: String?, renamedFrom: title }")
                $0.rolling = true
            }),
    ]

    /// Every version file, `v1.yaml` first.
    static var versions: [(name: String, text: String)] {
        var shape = Shape()
        var files = [(name: "v1.yaml", text: shape.yaml(version: 1))]
        for (offset, change) in changes.enumerated() {
            change.apply(&shape)
            var annotated = shape
            change.annotate(&annotated)
            files.append((name: "v\(offset + 2).yaml", text: annotated.yaml(version: offset + 2)))
        }
        return files
    }

    /// Authors in the seeded database (every post references one).
    static let authors = 1_000

    /// The seed of version 1: authors, then `rows` posts whose ids are `rowID(1...rows)`.
    static func seed(rows: Int) -> [String] {
        [
            "INSERT INTO \"author\" (\"name\", \"email\") SELECT 'author ' || g, 'author' || g || '@example.com' FROM generate_series(1, \(authors)) AS g",
            """
            INSERT INTO "post" ("id", "author", "title", "body", "views", "rating", "status", "level", "legacy_code")
            SELECT lpad(to_hex(g), 32, '0')::uuid, 1 + g % \(authors), 'Post ' || g,
                CASE WHEN g % 4 = 0 THEN '' ELSE 'body of post ' || g END, g % 5000,
                CASE WHEN g % 3 = 0 THEN NULL ELSE (g % 5)::smallint END,
                CASE g % 3 WHEN 0 THEN 'open' WHEN 1 THEN 'closed' ELSE 'archived' END, 1 + g % 2, 'L' || g
            FROM generate_series(1, \(rows)) AS g
            """,
        ]
    }

    /// The id of the `index`-th seeded post (1-based), as the seed computes it.
    static func rowID(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        let digits = String(repeating: "0", count: max(0, 32 - hex.count)) + hex
        let characters = Array(digits)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return groups.joined(separator: "-")
    }
}
