/// Renders `<Model>Queries.swift`: the SQL of the model's named queries, a row type for each
/// query that returns columns of its own, and a typed function per query on the access type (one
/// connection) and on the database type (one read, or one transaction for a query that writes).
struct SwiftQueriesRenderer {
    let schema: Schema
    let queries: [AnalyzedQuery]

    func render() -> String {
        let names = RepositoryNames(schema: schema)
        let sqlType = SwiftNames.identifier(schema.model + "Queries")
        var writer = SwiftWriter()
        writer.lines(
            FileHeader.lines(
                source: "\(schema.model)/\(SchemaLoader.queriesFolder) and \(FileHeader.source(schema))", comment: "//")
        )
        writer.line()
        writer.line("import Foundation")
        writer.line("import StrataSQLite")
        writer.line()
        writer.line(
            "/// The SQL of \(schema.model)'s named queries, as written in `\(SchemaLoader.queriesFolder)/`, checked against"
        )
        writer.line(
            "/// version \(schema.version) when generated. Their parameters are bound, never spliced into the SQL.")
        writer.block("public enum \(sqlType)") { w in
            for (index, query) in queries.enumerated() {
                if index > 0 { w.line() }
                w.line("/// `\(query.source.name)`, from \(Self.place(of: query)).")
                Self.sqlLiteral(
                    query.source.sql, declaration: "public static let \(SwiftNames.identifier(query.source.name)) = ",
                    into: &w)
            }
        }
        for query in queries {
            guard case .rows(let type, let columns) = query.result else { continue }
            writer.line()
            renderRow(type: type, columns: columns, query: query, into: &writer)
        }
        writer.line()
        writer.block("extension \(names.access)") { w in
            for (index, query) in queries.enumerated() {
                if index > 0 { w.line() }
                renderAccessFunction(query, sqlType: sqlType, into: &w)
            }
        }
        writer.line()
        writer.block("extension \(names.database)") { w in
            for (index, query) in queries.enumerated() {
                if index > 0 { w.line() }
                renderDatabaseFunction(query, into: &w)
            }
        }
        return writer.text
    }

    /// `queries/items.sql:3`.
    private static func place(of query: AnalyzedQuery) -> String {
        "`\(SchemaLoader.queriesFolder)/\(SchemaLoader.name(of: query.source.nameLocation.file)):\(query.source.nameLocation.line)`"
    }

    /// The SQL as a raw multi-line string literal, or a one-line literal when it holds `"""#`.
    private static func sqlLiteral(_ sql: String, declaration: String, into writer: inout SwiftWriter) {
        guard !sql.contains("\"\"\"#") else {
            writer.line(declaration + SwiftNames.stringLiteral(sql))
            return
        }
        writer.line(declaration + "#\"\"\"")
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            writer.line("    " + line.trimmingTrailingWhitespace())
        }
        writer.line("    \"\"\"#")
    }

    private func renderRow(
        type: String, columns: [AnalyzedQuery.Column], query: AnalyzedQuery, into writer: inout SwiftWriter
    ) {
        writer.line("/// A row of `\(query.source.name)` (\(Self.place(of: query))).")
        writer.block("public struct \(SwiftNames.identifier(type)): Hashable, Sendable, StrataSQLiteRowDecodable") {
            w in
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
            w.line("/// The current row of the query's statement, read column by column.")
            w.block("public init(row: StrataSQLiteRow) throws") { w in
                for (index, column) in columns.enumerated() {
                    w.line("self.\(column.name) = try row[\(index)]")
                }
            }
        }
    }

    /// The function's documentation, signature parts and return type.
    private func signature(_ query: AnalyzedQuery) -> (doc: [String], parameters: [String], returns: String) {
        var doc = SwiftNames.docLines(query.source.doc)
        if doc.isEmpty { doc = ["/// The `\(query.source.name)` query (\(Self.place(of: query)))."] }
        let parameters = query.parameters.map { "\(SwiftNames.identifier($0.name)): \($0.swiftType)" }
        let returns: String
        switch query.result {
        case .changes: returns = "Int"
        case .entity(let name): returns = "[\(SwiftNames.identifier(name))]"
        case .rows(let type, _): returns = "[\(SwiftNames.identifier(type))]"
        }
        return (doc, parameters, returns)
    }

    private func renderAccessFunction(_ query: AnalyzedQuery, sqlType: String, into writer: inout SwiftWriter) {
        let (doc, parameters, returns) = signature(query)
        writer.lines(doc)
        if case .changes = query.result {
            writer.line("///")
            writer.line("/// Returns the number of rows it changed.")
            writer.line("@discardableResult")
        }
        let name = SwiftNames.identifier(query.source.name)
        writer.function("public func \(name)", parameters: parameters, suffix: " throws -> \(returns)") { w in
            let arguments = query.parameters.map { SwiftNames.identifier($0.name) }.joined(separator: ", ")
            let statement = "StrataStatement(db, sql: \(sqlType).\(name))"
            let run: String
            switch query.result {
            case .changes: run = ".executeCountingChanges()"
            case .entity(let type), .rows(let type, _): run = ".fetchAll(\(SwiftNames.identifier(type)).self)"
            }
            // One line when it fits; else the run on its own line; else the binding in a block too.
            let binding = arguments.isEmpty ? "" : " { try $0.bind(\(arguments)) }"
            if w.fits("try \(statement)\(binding)\(run)") {
                w.line("try \(statement)\(binding)\(run)")
            } else if w.fits("try \(statement)\(binding)") {
                w.line("try \(statement)\(binding)")
                w.line("    " + run)
            } else {
                w.block("try \(statement)") { w in w.line("try $0.bind(\(arguments))") }
                w.line(run)
            }
        }
    }

    private func renderDatabaseFunction(_ query: AnalyzedQuery, into writer: inout SwiftWriter) {
        let (doc, parameters, returns) = signature(query)
        writer.lines(doc)
        writer.line("///")
        writer.line(
            query.isReadOnly
                ? "/// One read." : "/// One transaction: committed when it returns, rolled back when it throws.")
        if case .changes = query.result { writer.line("@discardableResult") }
        let name = SwiftNames.identifier(query.source.name)
        writer.function("public func \(name)", parameters: parameters, suffix: " throws -> \(returns)") { w in
            let arguments = query.parameters.map { "\($0.name): \(SwiftNames.identifier($0.name))" }.joined(
                separator: ", ")
            w.line("try \(query.isReadOnly ? "read" : "write") { try $0.\(name)(\(arguments)) }")
        }
    }
}
