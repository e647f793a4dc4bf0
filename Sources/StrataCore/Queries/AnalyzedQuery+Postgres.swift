extension AnalyzedQuery {
    /// The SQL with each `:name` parameter written as PostgreSQL's `$n` (n in ``parameters``
    /// order) and the stars of its result written out (``expandedSQL``): what
    /// `<Model>PostgresQueries.swift` runs, and what `strata verify --postgres` prepares.
    public var postgresSQL: String {
        Self.postgresSQL(expandedSQL ?? source.sql, parameters: parameters.map(\.name))
    }

    /// `sql` with each `:name` parameter written `$n`, n being the name's position in
    /// `parameters` from 1: a repeated name keeps its number. Only parameter tokens change: a
    /// `::` cast, a name not in `parameters`, and text in string literals, quoted identifiers and
    /// comments (`':a'`, `":a"`, `-- :a`) are left as they are.
    public static func postgresSQL(_ sql: String, parameters: [String]) -> String {
        let references = QueryColumnReferences(sql: sql)
        var bytes = Array(sql.utf8)
        // From the end, so that earlier offsets stay valid.
        for (index, name) in references.parameterTokens.reversed() {
            guard let number = parameters.firstIndex(where: { ":" + $0 == name }) else { continue }
            let start = references.tokens[index].offset - 1
            bytes.replaceSubrange(start..<start + name.utf8.count, with: Array("$\(number + 1)".utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
