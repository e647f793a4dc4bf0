import StrataStorage

/// An `UPDATE "table" SET "column" = expression [WHERE condition]` of a PostgreSQL migration that
/// migrators run in batches of rows ordered by the table's primary key, each committed on its
/// own with the last key it reached, so that no row stays locked longer than a batch and a
/// stopped run resumes after the last committed batch (see ``PostgresMigrationScript``).
public struct PostgresBackfill: Hashable, Sendable {
    /// The statement, as in the migration.
    public var statement: String
    /// The table (unquoted).
    public var table: String
    /// The `SET` list and the condition, as written.
    public var assignment: String
    public var condition: String?

    /// The statement read as a backfill, or nil when it is not an `UPDATE` of one table without
    /// `FROM`, `RETURNING` or an alias.
    public init?(_ statement: String) {
        guard let tokens = try? SQLLexer(dialect: .postgres).tokens(statement) else { return nil }
        let significant = tokens.enumerated().filter { $0.element.kind != .whitespace && $0.element.kind != .comment }
        guard significant.count >= 5, significant[0].element.isKeyword("UPDATE"), significant[1].element.isName,
            significant[2].element.isKeyword("SET")
        else { return nil }
        // The top-level WHERE, if any; FROM, RETURNING or ONLY make it something else.
        var depth = 0
        var whereIndex: Int?
        for (index, token) in significant.dropFirst(3) {
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            guard depth == 0 else { continue }
            if token.isKeyword("FROM") || token.isKeyword("RETURNING") { return nil }
            if token.isKeyword("WHERE") {
                guard whereIndex == nil else { return nil }
                whereIndex = index
            }
        }
        func text(_ range: Range<Int>) -> String {
            let kept = tokens[range].filter { $0.kind != .comment }
            guard let first = kept.firstIndex(where: { $0.kind != .whitespace }),
                let last = kept.lastIndex(where: { $0.kind != .whitespace })
            else { return "" }
            return kept[first...last].map(\.text).joined()
        }
        let setEnd = whereIndex ?? tokens.count
        self.statement = statement
        self.table = significant[1].element.value
        self.assignment = text((significant[2].offset + 1)..<setEnd)
        self.condition = whereIndex.map { text(($0 + 1)..<tokens.count) }
        guard !assignment.isEmpty, condition?.isEmpty != true else { return nil }
    }

    /// The query that lists the table's primary key columns and their types, in key order, for
    /// ``batch(key:after:size:)`` (one row per column: name, type).
    public var keyQuery: String {
        """
        SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_index i \
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) \
        WHERE i.indrelid = to_regclass(\(PostgresBackfill.literal(PostgresBackfill.quoted(table)))) AND i.indisprimary \
        ORDER BY array_position(i.indkey::int2[], a.attnum)
        """
    }

    /// A column of the primary key: its name and SQL type.
    public struct KeyColumn: Hashable, Sendable {
        public var name: String
        public var type: String
        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    /// One batch: the next `size` rows after the key `after` (the start when nil) that the
    /// condition selects, updated; returns one row, the last key reached (as text, one column per
    /// key column), or no row when no row was left.
    public func batch(key: [KeyColumn], after: [String]?, size: Int) -> String {
        let table = Self.quoted(self.table)
        let aliases = key.indices.map { "strata_key_\($0 + 1)" }
        let columns = key.map { Self.quoted($0.name) }
        var filters: [String] = []
        if let condition { filters.append("(\(condition))") }
        if let after, after.count == key.count {
            let values = zip(after, key).map { "\(Self.literal($0))::\($1.type)" }
            filters.append("(\(columns.joined(separator: ", "))) > (\(values.joined(separator: ", ")))")
        }
        let selected = zip(columns, aliases).map { "\($0) AS \($1)" }.joined(separator: ", ")
        let order = columns.joined(separator: ", ")
        let matches = zip(columns, aliases).map { "\(table).\($0) = batch.\($1)" }.joined(separator: " AND ")
        return """
            WITH batch AS (SELECT \(selected) FROM \(table)\(filters.isEmpty ? "" : " WHERE " + filters.joined(separator: " AND ")) \
            ORDER BY \(order) LIMIT \(size) FOR NO KEY UPDATE), \
            updated AS (UPDATE \(table) SET \(assignment) FROM batch WHERE \(matches)) \
            SELECT \(aliases.map { "\($0)::text" }.joined(separator: ", ")) FROM batch \
            ORDER BY \(aliases.map { "\($0) DESC" }.joined(separator: ", ")) LIMIT 1
            """
    }

    static func quoted(_ name: String) -> String { SQLIdentifier.quoted(name) }
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
