extension SQLiteRules {
    /// SQLite's JSON functions: `json_insert` fills a missing member, `json_remove` drops one,
    /// `json_set` moves (`->` keeps the moved value JSON) or computes one. A member inside an
    /// object the value lacks is left alone: SQLite would create the parent object.
    public func jsonEdit(_ edit: JSONEdit, of value: String) -> String {
        func path(_ keys: [String]) -> String {
            SQLDialect.sqlite.literal(.text("$" + keys.map { "." + $0 }.joined()))
        }
        /// `expression` where the parent object of `keys` exists, `value` elsewhere.
        func whereParentExists(_ keys: [String], _ expression: String) -> String {
            guard keys.count > 1 else { return expression }
            return "CASE WHEN json_type(\(value), \(path(Array(keys.dropLast())))) = 'object' THEN \(expression) ELSE \(value) END"
        }
        switch edit {
        case .fill(let keys, let json):
            return whereParentExists(keys, "json_insert(\(value), \(path(keys)), json(\(SQLDialect.sqlite.literal(.text(json)))))")
        case .remove(let keys):
            return "json_remove(\(value), \(path(keys)))"
        case .rename(let from, let to):
            return "CASE WHEN json_type(\(value), \(path(from))) IS NULL THEN \(value) ELSE json_set(json_remove(\(value), \(path(from))), \(path(to)), \(value) -> \(path(from))) END"
        case .compute(let keys, let transform):
            let expression = sql(transform).map { "(\($0))" } ?? "NULL"
            return whereParentExists(keys, "json_set(\(value), \(path(keys)), \(expression))")
        }
    }
}
