/// Renders `<Model>QueryRows.swift`: the enum `<Model>Queries` and, nested in it, the row type of
/// each named query that returns columns of its own (`MyTODOQueries.SearchRow`), shared by every
/// database (it imports no database module): each is read column by column the same way on every
/// database (`StrataRowDecodable`). SQLite's queries file (``SwiftQueriesRenderer``) extends the
/// enum with the SQL.
struct SwiftQueryRowsRenderer {
    let schema: Schema
    let queries: [AnalyzedQuery]
    /// The command the generated header names.
    let regeneration: Regeneration

    func render() -> String {
        var writer = Self.header(schema, importing: "StrataRuntime", regeneration: regeneration)
        let rows = queries.filter { $0.row != nil }
        writer.line()
        writer.line("/// The row types of \(schema.model)'s named queries (`\(SchemaLoader.queriesFolder)/`) that return columns of their own,")
        writer.line("/// on every database. SQLite's queries file adds the queries' SQL here.")
        let namespace = RepositoryNames(schema: schema).queries
        guard !rows.isEmpty else {
            writer.line("public enum \(namespace) {")
            writer.line("    // Every named query of \(schema.model) returns records or a count: none has a row type.")
            writer.line("}")
            return writer.text
        }
        writer.block("public enum \(namespace)") { w in
            for (index, query) in rows.enumerated() {
                if index > 0 { w.line() }
                renderRow(query, into: &w)
            }
        }
        return writer.text
    }

    private func renderRow(_ query: AnalyzedQuery, into writer: inout SwiftWriter) {
        guard let (type, columns) = query.row else { return }
        writer.line("/// A row of `\(query.source.name)` (\(query.place)).")
        writer.block("public struct \(type): Hashable, Sendable, StrataRowDecodable") { w in
            for (index, column) in columns.enumerated() {
                let origin = index < query.columnOrigins.count ? query.columnOrigins[index] : nil
                w.line(
                    origin.map { "/// Result column \(index + 1): `\($0)`." }
                        ?? "/// Result column \(index + 1): an expression, of the type its alias declares.")
                w.lines(RepositoryNames.lintExemptions(member: column.name))
                w.line("public var \(SwiftNames.identifier(column.name)): \(column.swiftType)")
            }
            w.line()
            w.line("/// Creates a row.")
            w.function(
                "public init", parameters: columns.map { "\(SwiftNames.identifier($0.name)): \($0.swiftType)" },
                suffix: ""
            ) { w in
                for column in columns { w.line("self.\(column.name) = \(SwiftNames.identifier(column.name))") }
            }
            w.line()
            w.line("/// The current row of the query's result, read column by column.")
            w.block("public init(row: inout some StrataRowReader) throws") { w in
                w.wrapped(
                    "try self.init",
                    columns.map { column in
                        "\(SwiftNames.argumentLabel(column.name)): row.next(\(column.dateText.map { ".\($0.rawValue)" } ?? ""))"
                    })
            }
        }
    }
}

extension SwiftQueryRowsRenderer {
    /// The start of a file of `schema`'s named queries: the header naming the queries and the
    /// version as its source and the command of `regeneration`, then the imports of Foundation
    /// and `module`.
    static func header(_ schema: Schema, importing module: String, regeneration: Regeneration) -> SwiftWriter {
        var writer = SwiftWriter()
        writer.lines(
            FileHeader.lines(
                source: "\(schema.model)/\(SchemaLoader.queriesFolder) and \(FileHeader.source(schema))", comment: "//",
                regeneration: regeneration))
        writer.line()
        writer.line("import Foundation")
        writer.line("import \(module)")
        return writer
    }
}

extension AnalyzedQuery {
    /// Where the query is named: `` `queries/items.sql:3` ``.
    var place: String {
        "`\(SchemaLoader.queriesFolder)/\(SchemaLoader.name(of: source.nameLocation.file)):\(source.nameLocation.line)`"
    }

    /// The query's generated row type and its columns, or nil when it returns records or a count.
    var row: (type: String, columns: [Column])? {
        guard case .rows(let type, let columns) = result else { return nil }
        return (SwiftNames.identifier(type), columns)
    }

    /// The Swift type of one result: the row type nested in `namespace` (the model's
    /// `<Model>Queries`), the entity's record type; nil for a count.
    func resultType(rowsIn namespace: String) -> String? {
        switch result {
        case .changes: nil
        case .entity(let name): SwiftNames.identifier(name)
        case .rows(let name, _): namespace + "." + SwiftNames.identifier(name)
        }
    }
}
