import StrataCore
/// One way a database differs from what was expected, in words.
public struct SchemaDifference: Hashable, Sendable, CustomStringConvertible {
    /// Where: `table "todo_item"`, `table "todo_item", column "title"`.
    public var location: String
    /// What differs: `default is 'a', expected 'b'`.
    public var message: String

    /// Creates a difference.
    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

/// Compares two ``DatabaseSchema`` values and says precisely how they differ.
public struct SchemaComparison: Sendable {
    /// When false, columns may come in any order (a column added by a migration comes last,
    /// while a fresh table lists it where it is declared).
    public var comparesColumnOrder: Bool
    /// When false, constraint names are not compared (SQLite keeps the names of a renamed table's
    /// constraints until the table is rebuilt).
    public var comparesConstraintNames: Bool

    /// When set, column types are compared by how this dialect stores values rather than by
    /// their spelling: in SQLite by type affinity (`NVARCHAR(160)` and `TEXT` store alike, `INT`
    /// and `INTEGER` too, except that only `INTEGER` makes a single-column key the rowid), and
    /// a SQLite key column's NULL-ability is not compared.
    public var storageDialect: SQLDialect?

    /// A comparison; by default everything is compared, types by their spelling.
    public init(comparesColumnOrder: Bool = true, comparesConstraintNames: Bool = true, storageDialect: SQLDialect? = nil) {
        self.comparesColumnOrder = comparesColumnOrder
        self.comparesConstraintNames = comparesConstraintNames
        self.storageDialect = storageDialect
    }

    /// True when columns of types `expected` and `actual` store values alike.
    private func typesMatch(_ expected: String, _ actual: String, isRowidCandidate: Bool) -> Bool {
        if expected == actual { return true }
        switch storageDialect {
        case .sqlite?:
            if isRowidCandidate && (expected == "INTEGER" || actual == "INTEGER") { return false }
            return SQLiteAffinity(declaredType: expected) == SQLiteAffinity(declaredType: actual)
        case .postgres?, nil:
            return false
        }
    }

    /// Every difference of `actual` from `expected`, in table order; empty when they match.
    public func differences(expected: DatabaseSchema, actual: DatabaseSchema) -> [SchemaDifference] {
        var found: [SchemaDifference] = []
        for table in expected.tables where actual.table(named: table.name) == nil {
            found.append(SchemaDifference(location: Self.name("table", table.name), message: "missing"))
        }
        for table in actual.tables where expected.table(named: table.name) == nil {
            found.append(SchemaDifference(location: Self.name("table", table.name), message: "not expected"))
        }
        for table in expected.tables {
            guard let other = actual.table(named: table.name) else { continue }
            found += differences(expected: table, actual: other)
        }
        return found
    }

    /// A readable report of `differences(expected:actual:)`, one per line; empty when they match.
    public func report(expected: DatabaseSchema, actual: DatabaseSchema) -> String {
        differences(expected: expected, actual: actual).map(\.description).joined(separator: "\n")
    }

    private static func name(_ kind: String, _ name: String?) -> String {
        "\(kind) " + (name.map(SQLCanonicalForm.identifier) ?? "(unnamed)")
    }

    private static func list(_ names: [String]) -> String {
        "(" + names.map(SQLCanonicalForm.identifier).joined(separator: ", ") + ")"
    }

    private func differences(expected: DatabaseSchema.Table, actual: DatabaseSchema.Table) -> [SchemaDifference] {
        let location = Self.name("table", expected.name)
        var found: [SchemaDifference] = []
        func add(_ location: String, _ message: String) {
            found.append(SchemaDifference(location: location, message: message))
        }

        // Columns.
        for column in expected.columns where actual.column(named: column.name) == nil {
            add(location, "missing \(Self.name("column", column.name))")
        }
        for column in actual.columns where expected.column(named: column.name) == nil {
            add(
                location,
                column.generated.map { "generated (\($0)) \(Self.name("column", column.name)) not expected" }
                    ?? "\(Self.name("column", column.name)) not expected")
        }
        for column in expected.columns {
            guard let other = actual.column(named: column.name) else { continue }
            let at = "\(location), \(Self.name("column", column.name))"
            let isRowidCandidate = expected.primaryKey?.columns == [column.name]
            if !typesMatch(column.type, other.type, isRowidCandidate: isRowidCandidate) {
                add(at, "type is \(other.type), expected \(column.type)")
            }
            // SQLite lets a key column that is not the rowid hold NULL unless it says NOT NULL,
            // a quirk it keeps for compatibility; Strata declares key columns NOT NULL. Where
            // storage is compared, that spelling is not a difference (a NULL key stops a later
            // table rebuild, which then changes nothing).
            let keyNullability = storageDialect == .sqlite && expected.primaryKey?.columns.contains(column.name) == true
            if column.isNullable != other.isNullable && !keyNullability {
                add(at, other.isNullable ? "allows NULL, expected NOT NULL" : "is NOT NULL, expected to allow NULL")
            }
            if column.defaultValue != other.defaultValue {
                add(at, "default is \(other.defaultValue ?? "none"), expected \(column.defaultValue ?? "none")")
            }
            if column.generated != other.generated {
                add(at, other.generated.map { "is generated (\($0)), expected a stored value" } ?? "is not generated")
            }
            if column.isAutoincrement != other.isAutoincrement {
                add(
                    at,
                    other.isAutoincrement
                        ? "is assigned by the database, expected not"
                        : "is not assigned by the database, expected autoincrement")
            }
        }
        let expectedOrder = expected.columns.map(\.name)
        let actualOrder = actual.columns.map(\.name)
        if comparesColumnOrder, Set(expectedOrder) == Set(actualOrder), expectedOrder != actualOrder {
            add(location, "columns are in the order \(Self.list(actualOrder)), expected \(Self.list(expectedOrder))")
        }

        // Primary key.
        switch (expected.primaryKey, actual.primaryKey) {
        case (nil, nil):
            break
        case (let key?, nil):
            add(location, "missing primary key \(Self.list(key.columns))")
        case (nil, let key?):
            add(location, "primary key \(Self.list(key.columns)) not expected")
        case (let key?, let other?):
            if key.columns != other.columns {
                add(location, "primary key is \(Self.list(other.columns)), expected \(Self.list(key.columns))")
            }
            if comparesConstraintNames, key.name != other.name {
                add(
                    location,
                    "primary key is named \(other.name.map(SQLCanonicalForm.identifier) ?? "nothing"), expected \(key.name.map(SQLCanonicalForm.identifier) ?? "nothing")"
                )
            }
        }

        // Unique constraints, matched by columns.
        found += matched(
            expected.uniqueConstraints, actual.uniqueConstraints, at: location, kind: "unique constraint",
            key: { Self.list($0.columns) },
            name: \.name, compare: { _, _ in [] })

        // Indexes, matched by name.
        found += matched(
            expected.indexes, actual.indexes, at: location, kind: "index",
            key: { SQLCanonicalForm.identifier($0.name) }, name: { _ in nil },
            compare: { index, other in
                var messages: [String] = []
                if index.columns != other.columns {
                    messages.append("is on \(Self.list(other.columns)), expected \(Self.list(index.columns))")
                }
                if index.isUnique != other.isUnique {
                    messages.append(other.isUnique ? "is unique, expected not" : "is not unique, expected unique")
                }
                if index.condition != other.condition {
                    messages.append(
                        "is \(other.condition.map { "partial (WHERE \($0))" } ?? "on every row"), expected \(index.condition.map { "partial (WHERE \($0))" } ?? "on every row")"
                    )
                }
                return messages
            })

        // Foreign keys, matched by columns.
        found += matched(
            expected.foreignKeys, actual.foreignKeys, at: location, kind: "foreign key", key: { Self.list($0.columns) },
            name: \.name,
            compare: { key, other in
                var messages: [String] = []
                if key.referencedTable != other.referencedTable || key.referencedColumns != other.referencedColumns {
                    messages.append(
                        "references \(SQLCanonicalForm.identifier(other.referencedTable)) \(Self.list(other.referencedColumns)), expected \(SQLCanonicalForm.identifier(key.referencedTable)) \(Self.list(key.referencedColumns))"
                    )
                }
                if key.onDelete != other.onDelete {
                    messages.append("is ON DELETE \(other.onDelete), expected ON DELETE \(key.onDelete)")
                }
                return messages
            })

        // Checks, matched by what they require.
        found += matched(
            expected.checks, actual.checks, at: location, kind: "check",
            key: { SQLCanonicalForm.ungrouped($0.rule.description, dialect: storageDialect ?? .postgres) }, name: \.name,
            compare: { _, _ in [] })
        return found
    }

    /// Pairs items by `key`, reporting missing, unexpected and differing ones (and names, when compared).
    private func matched<Item>(
        _ expected: [Item], _ actual: [Item], at location: String, kind: String, key: (Item) -> String,
        name: (Item) -> String?,
        compare: (Item, Item) -> [String]
    ) -> [SchemaDifference] {
        var found: [SchemaDifference] = []
        var remaining = actual
        for item in expected {
            guard let index = remaining.firstIndex(where: { key($0) == key(item) }) else {
                found.append(SchemaDifference(location: location, message: "missing \(kind) \(key(item))"))
                continue
            }
            let other = remaining.remove(at: index)
            let at = "\(location), \(kind) \(key(item))"
            for message in compare(item, other) { found.append(SchemaDifference(location: at, message: message)) }
            if comparesConstraintNames, name(item) != name(other) {
                found.append(
                    SchemaDifference(
                        location: at,
                        message:
                            "is named \(name(other).map(SQLCanonicalForm.identifier) ?? "nothing"), expected \(name(item).map(SQLCanonicalForm.identifier) ?? "nothing")"
                    ))
            }
        }
        for item in remaining {
            found.append(SchemaDifference(location: location, message: "\(kind) \(key(item)) not expected"))
        }
        return found
    }
}
