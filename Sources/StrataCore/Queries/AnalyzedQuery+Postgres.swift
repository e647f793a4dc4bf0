extension AnalyzedQuery {
    /// The SQL with each `:name` parameter written as PostgreSQL's `$n` (n in ``parameters``
    /// order), for preparing the query on PostgreSQL (`strata verify --postgres`).
    public var postgresSQL: String {
        let references = QueryColumnReferences(sql: source.sql)
        var bytes = Array(source.sql.utf8)
        // From the end, so that earlier offsets stay valid.
        for (index, name) in references.parameterTokens.reversed() {
            guard let number = parameters.firstIndex(where: { ":" + $0.name == name }) else { continue }
            let start = references.tokens[index].offset - 1
            bytes.replaceSubrange(start..<start + name.utf8.count, with: Array("$\(number + 1)".utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
