
/// The SQL expression computing each column of version N from the rows of N-1, in one dialect.
struct MigrationValues {
    let plan: MigrationPlan
    let renderer: DDLRenderer
    var dialect: SQLDialect { renderer.dialect }

    /// The author's SQL for this dialect, if the fragment has some.
    func sql(_ fragment: DialectSQL) -> String? {
        renderer.rules.sql(fragment)
    }

    /// The value of `field` for a row of the previous table (columns by their N-1 names).
    func expression(for field: Field, in entity: Entity) -> String {
        expression(for: field, from: plan.source(of: field, in: entity))
    }

    /// The value of `field` for a row of the previous table, from where it gets its values.
    func expression(for field: Field, from source: ValueSource) -> String {
        var value: String
        switch source.conversion {
        case .transform(let fragment):
            value = sql(fragment).map(renderer.userExpression) ?? "NULL"
        case .cast(let from, let to):
            let old = source.previous.map { renderer.column($0.column) } ?? "NULL"
            value = renderer.cast(old, from: ColumnEncodingPair(from: from.encoding, to: to.encoding))
        case .keep:
            if let previous = source.previous {
                value = renderer.column(previous.column)
            } else {
                value = renderer.defaultValue(of: field, in: plan.to).map(renderer.literal) ?? "NULL"
            }
        }
        let encoding = plan.to.columnEncoding(of: field)
        let pairs = source.remap.compactMap { mapping -> (from: SQLValue, to: SQLValue)? in
            guard let from = renderer.storedValue(of: mapping.from, as: encoding), let to = renderer.storedValue(of: mapping.to, as: encoding) else {
                return nil
            }
            return (from, to)
        }
        value = renderer.remap(value, pairs)
        for edit in source.reshape {
            value = reshaped(value, edit)
        }
        if source.fill != nil, let fallback = renderer.defaultValue(of: field, in: plan.to) {
            value = renderer.coalesce(value, renderer.literal(fallback))
        }
        return value
    }

    /// `value` with a JSON edit made to it. An edit that reads the value more than once reads
    /// an expression (earlier edits) through a subquery that computes it once, so that the SQL
    /// grows with the number of edits, not exponentially.
    private func reshaped(_ value: String, _ edit: JSONEdit) -> String {
        let marker = "\u{1}"
        let once = renderer.rules.jsonEdit(edit, of: marker)
        let isColumn = value.hasPrefix("\"") && value.hasSuffix("\"") && !value.dropFirst().dropLast().contains("\"")
        guard once.components(separatedBy: marker).count > 2, !isColumn else {
            return once.replacingOccurrences(of: marker, with: value)
        }
        let alias = renderer.column("strata_json")
        return "(SELECT \(once.replacingOccurrences(of: marker, with: "\(alias).\(renderer.column("value"))")) FROM (SELECT \(value) AS \(renderer.column("value"))) AS \(alias))"
    }

    /// True when a column that gets its values from `source` changes them in place (a transform,
    /// a cast, remapped raw values, NULLs filled).
    func changesValues(_ source: ValueSource) -> Bool {
        if source.fill != nil || !source.remap.isEmpty || !source.reshape.isEmpty { return true }
        switch source.conversion {
        case .keep: return false
        case .transform: return true
        case .cast(let from, let to): return dialect.columnType(from.encoding) != dialect.columnType(to.encoding)
        }
    }

    /// The header and the author's `before`/`after` SQL.
    func custom(_ fragment: DialectSQL?, _ label: String) -> [SQLStatement] {
        guard let fragment, let text = sql(fragment) else { return [] }
        return [renderer.custom(text, comment: "\(label) (written in \(plan.to.fileName))")]
    }

    /// The entities of N whose table is new (added, not continued).
    var addedEntities: [Entity] { plan.to.entities.filter { plan.previous(of: $0) == nil } }

    /// The entities of N-1 that are removed.
    /// The entities of N-1 the migration removes, in the diff's order (SQLite drops them with
    /// foreign keys off, in any order).
    var removedEntities: [Entity] {
        plan.diff.changes.compactMap { change in
            if case .entityRemoved(let entity) = change { return entity }
            return nil
        }
    }

    /// ``removedEntities`` in the order PostgreSQL can drop their tables: a table before the
    /// tables its foreign keys point to; those in a cycle of references last, in the diff's order.
    /// (The diff's order is kept wherever it works: a migration rendered before had failed there.)
    var removedEntitiesInDropOrder: [Entity] {
        var left = removedEntities
        var ordered: [Entity] = []
        while !left.isEmpty {
            let free = left.firstIndex { candidate in
                !left.contains { other in
                    other.name != candidate.name && other.fields.contains { $0.referencedEntity == candidate.name }
                }
            }
            guard let free else { return ordered + left }
            ordered.append(left.remove(at: free))
        }
        return ordered
    }
}
