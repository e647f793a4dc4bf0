/// Renders a database's queries file (`<Model>Queries.swift` for SQLite,
/// `<Model>PostgresQueries.swift` for PostgreSQL): the SQL of the model's named queries in that
/// database's parameter syntax and a typed function per query on the access
/// type (one connection) and on the database type (one read, or one transaction for a query that
/// writes). The functions have the same names, parameters and results on every database.
struct SwiftQueriesRenderer {
    let schema: Schema
    let queries: [AnalyzedQuery]
    let dialect: SQLDialect
    /// The command the generated header names.
    let regeneration: Regeneration

    private var runtime: SwiftRuntime { dialect.rules.swift }

    func render() -> String {
        let names = RepositoryNames(schema: schema)
        let sqlType = names.queries(runtime)
        var writer = SwiftQueryRowsRenderer.header(schema, importing: runtime.module, regeneration: regeneration)
        writer.line()
        renderSQL(sqlType: sqlType, declared: sqlType != names.queries, into: &writer)
        writer.line()
        writer.block("extension \(names.access(runtime))") { w in
            for (index, query) in queries.enumerated() {
                if index > 0 { w.line() }
                renderAccessFunction(query, sqlType: sqlType, rowsIn: names.queries, into: &w)
            }
        }
        writer.line()
        writer.block("extension \(names.database(runtime))") { w in
            for (index, query) in queries.enumerated() {
                if index > 0 { w.line() }
                renderDatabaseFunction(query, rowsIn: names.queries, into: &w)
            }
        }
        return writer.text
    }

    /// The enum holding each query's SQL, as this database runs it: declared here when `declared`,
    /// else an extension of the rows file's enum (SQLite's is the model's `<Model>Queries`).
    private func renderSQL(sqlType: String, declared: Bool, into writer: inout SwiftWriter) {
        let folder = "`\(SchemaLoader.queriesFolder)/`"
        switch dialect {
        case .sqlite:
            writer.line("/// The SQL of \(schema.model)'s named queries, as written in \(folder) (a `*` of the result as")
            writer.line("/// its columns), checked against version \(schema.version) when generated. Their parameters are")
            writer.line("/// bound, never spliced into the SQL.")
        case .postgres:
            writer.lines([
                "/// The SQL of \(schema.model)'s named queries as written in \(folder) (a `*` of the result as its",
                "/// columns), each `:name` parameter as PostgreSQL's `$n`, checked against version \(schema.version)",
                "/// when generated and prepared on a server by `strata verify --postgres`. Their parameters are",
                "/// bound, never spliced into the SQL.",
            ])
        }
        writer.block(declared ? "public enum \(sqlType)" : "extension \(sqlType)") { w in
            for (index, query) in queries.enumerated() {
                if index > 0 { w.line() }
                w.line("/// `\(query.source.name)`, from \(query.place).")
                Self.sqlLiteral(
                    dialect == .postgres ? query.postgresSQL : query.expandedSQL ?? query.source.sql,
                    declaration: "public static let \(SwiftNames.identifier(query.source.name)) = ", into: &w)
            }
        }
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

    /// The function's documentation, signature parts and return type (row types nested in `namespace`).
    private func signature(_ query: AnalyzedQuery, rowsIn namespace: String)
        -> (doc: [String], parameters: [String], returns: String)
    {
        var doc = SwiftNames.docLines(query.source.doc)
        if doc.isEmpty { doc = ["/// The `\(query.source.name)` query (\(query.place))."] }
        let parameters = query.parameters.map { "\(SwiftNames.identifier($0.name)): \($0.swiftType)" }
        return (doc, parameters, query.resultType(rowsIn: namespace).map { "[\($0)]" } ?? "Int")
    }

    private func renderAccessFunction(
        _ query: AnalyzedQuery, sqlType: String, rowsIn namespace: String, into writer: inout SwiftWriter
    ) {
        let (doc, parameters, returns) = signature(query, rowsIn: namespace)
        writer.lines(doc)
        if case .changes = query.result {
            writer.line("///")
            writer.line("/// Returns the number of rows it changed.")
            writer.line("@discardableResult")
        }
        let name = SwiftNames.identifier(query.source.name)
        writer.function("public func \(name)", parameters: parameters, suffix: " \(runtime.effects) -> \(returns)") {
            w in
            let arguments = query.parameters.map { parameter in
                let name = SwiftNames.identifier(parameter.name)
                return parameter.dateText.map { "StrataTextDate(\(name), .\($0.rawValue))" } ?? name
            }.joined(separator: ", ")
            let statement = "\(runtime.call) \(runtime.queryStatement("\(sqlType).\(name)"))"
            let run = query.resultType(rowsIn: namespace).map { ".fetchAll(\($0).self)" } ?? ".executeCountingChanges()"
            let bind = "try $0.bind(\(arguments))"
            // One line when it fits; else the run on its own line; else the binding in a block too.
            let binding = arguments.isEmpty ? "" : " { \(bind) }"
            if w.fits(statement + binding + run) {
                w.line(statement + binding + run)
            } else if w.fits(statement + binding) {
                w.line(statement + binding)
                w.line("    " + run)
            } else {
                w.block(statement) { w in w.line(bind) }
                w.line(run)
            }
        }
    }

    private func renderDatabaseFunction(_ query: AnalyzedQuery, rowsIn namespace: String, into writer: inout SwiftWriter) {
        let (doc, parameters, returns) = signature(query, rowsIn: namespace)
        writer.lines(doc)
        writer.line("///")
        writer.line(
            query.isReadOnly
                ? "/// One read." : "/// One transaction: committed when it returns, rolled back when it throws.")
        if case .changes = query.result { writer.line("@discardableResult") }
        let name = SwiftNames.identifier(query.source.name)
        writer.function("public func \(name)", parameters: parameters, suffix: " \(runtime.effects) -> \(returns)") {
            w in
            let arguments = query.parameters.map {
                "\(SwiftNames.argumentLabel($0.name)): \(SwiftNames.identifier($0.name))"
            }.joined(
                separator: ", ")
            let transaction = query.isReadOnly ? "read" : "write"
            w.line("\(runtime.call) \(transaction) { \(runtime.call) $0.\(name)(\(arguments)) }")
        }
    }
}
