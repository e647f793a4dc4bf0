extension PostgresRules {
    /// PostgreSQL's `JSONB` operators: `jsonb_set` fills a missing member (keeping one already
    /// there), moves or computes one (`to_jsonb` of the transform's value), `#-` drops one. A
    /// member inside an object the value lacks is left alone, as `jsonb_set` does.
    public func jsonEdit(_ edit: JSONEdit, of value: String) -> String {
        func path(_ keys: [String]) -> String {
            SQLDialect.postgres.literal(.text("{" + keys.joined(separator: ",") + "}"))
        }
        switch edit {
        case .fill(let keys, let json):
            let literal = SQLDialect.postgres.literal(.text(json))
            return "jsonb_set(\(value), \(path(keys)), COALESCE(\(value) #> \(path(keys)), \(literal)::jsonb))"
        case .remove(let keys):
            return "(\(value) #- \(path(keys)))"
        case .rename(let from, let to):
            return "CASE WHEN \(value) #> \(path(from)) IS NULL THEN \(value) ELSE jsonb_set(\(value) #- \(path(from)), \(path(to)), \(value) #> \(path(from))) END"
        case .compute(let keys, let transform):
            let expression = sql(transform).map { "(\($0))" } ?? "NULL"
            return "jsonb_set(\(value), \(path(keys)), to_jsonb(\(expression)))"
        }
    }
}
