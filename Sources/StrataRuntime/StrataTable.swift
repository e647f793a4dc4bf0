import Foundation
import StrataStorage

/// The table of a record type: its name, its columns in field order, its primary key, and the
/// statements its operations run, rendered once per type and database (a class, so that reading it
/// from the record type costs one reference, not a copy of every string). Every identifier is
/// quoted by the database's dialect; every value is a parameter.
public final class StrataTable<Record>: Sendable {
    /// The table name, as in the database.
    public let name: String
    /// The column names, in field order: the order records are bound and read in.
    public let columns: [String]
    /// The column name of each stored property, by key path.
    let columnsByKeyPath: [PartialKeyPath<Record> & Sendable: String]
    /// Each stored property's key path and column, in field order, but the key's: what
    /// ``changes(from:to:)`` compares.
    let nonKeyProperties: [(keyPath: PartialKeyPath<Record> & Sendable, column: String)]
    /// The primary key's column names, in key order.
    public let primaryKey: [String]
    /// True when the database assigns the key on insert (an autoincremented integer key).
    public let assignsKey: Bool
    /// The Date fields declared with `format:` (stored in SQLite as ISO 8601 text), by key path;
    /// empty for most tables.
    public let dateTexts: [PartialKeyPath<Record> & Sendable: SQLiteDateText]
    /// The same, by column name.
    public let dateTextsByColumn: [String: SQLiteDateText]
    /// The table, as SQL.
    public let sql: StrataSQL
    /// The columns, comma-separated: what every query selects, in field order.
    public let selection: StrataSQL
    private let rendered = StrataRenderedStatements()

    /// Describes a table: each stored property's key path and column, in field order;
    /// `primaryKey` names some of those columns. The names are literals, as generated code writes
    /// them: a `StaticString` is a pointer and a length, where each `String` literal is built in
    /// code that a release build optimizes, in every entity's table (about three times the
    /// optimizer's time for the whole table).
    public convenience init(
        _ name: StaticString, columns properties: [(PartialKeyPath<Record> & Sendable, StaticString)],
        primaryKey: [StaticString], assignsKey: Bool = false,
        dateTexts: [(PartialKeyPath<Record> & Sendable, SQLiteDateText)] = []
    ) {
        self.init(
            name: name.description, columns: properties.map(\.1.description), keyPaths: properties.map(\.0),
            primaryKey: primaryKey.map(\.description), assignsKey: assignsKey, dateTexts: dateTexts)
    }

    /// The table of a model's entity known only by its metadata (no record type: `strata verify
    /// --compat` reads a version's entities from its schema): the same statements as the record
    /// type generated for it has, without key paths for filters.
    public convenience init(name: String, columns: [String], primaryKey: [String], assignsKey: Bool = false) {
        self.init(name: name, columns: columns, keyPaths: [], primaryKey: primaryKey, assignsKey: assignsKey, dateTexts: [])
    }

    private init(
        name: String, columns: [String], keyPaths: [PartialKeyPath<Record> & Sendable], primaryKey: [String],
        assignsKey: Bool, dateTexts: [(PartialKeyPath<Record> & Sendable, SQLiteDateText)]
    ) {
        let properties = zip(keyPaths, columns).map { ($0, $1) }
        self.name = name
        self.columns = columns
        let columnsByKeyPath = Dictionary(properties, uniquingKeysWith: { first, _ in first })
        self.columnsByKeyPath = columnsByKeyPath
        self.primaryKey = primaryKey
        self.assignsKey = assignsKey
        self.dateTexts = Dictionary(dateTexts, uniquingKeysWith: { first, _ in first })
        dateTextsByColumn = Dictionary(
            dateTexts.compactMap { keyPath, format in columnsByKeyPath[keyPath].map { ($0, format) } },
            uniquingKeysWith: { first, _ in first })
        nonKeyProperties = properties.filter { !primaryKey.contains($0.1) }
        sql = .identifier(name)
        selection = .joined(columns.map(StrataSQL.identifier))
    }

    /// The table's statements in `dialect`, rendered on first use and kept.
    @inlinable
    public func statements<Dialect: StrataSQLDialect>(_ dialect: Dialect.Type) -> StrataTableStatements {
        statements(ObjectIdentifier(dialect)) { StrataTableStatements(self, dialect) }
    }

    @usableFromInline
    func statements(_ dialect: ObjectIdentifier, render: () -> StrataTableStatements) -> StrataTableStatements {
        rendered.statements(dialect, render: render)
    }

    /// The assignments that take the stored row of `old` to `new`: one per column (the key's
    /// excepted) whose value, as stored, differs, in field order. What `updateChanges(_:_:)`
    /// writes after its closure changed a copy of a record.
    public func changes(from old: Record, to new: Record) -> [StrataAssignment<Record>] {
        var assignments: [StrataAssignment<Record>] = []
        for (keyPath, column) in nonKeyProperties {
            // Every stored property of a generated record is a column value (optionals too).
            guard let before = old[keyPath: keyPath] as? any StrataColumnValue,
                let after = new[keyPath: keyPath] as? any StrataColumnValue
            else { continue }
            var value = after.strataSQLValue
            guard value != before.strataSQLValue else { continue }
            if let format = dateTexts[keyPath], case .date(let date) = value { value = .textDate(date, format) }
            assignments.append(StrataAssignment(column: .identifier(column), value: value))
        }
        return assignments
    }

    /// The column of the property at `keyPath`; for a property that is not stored in the table (a
    /// computed one), a name no table has, so that the statement fails when prepared. Not
    /// inlinable: every `$0.field` of a filter or an update calls it.
    public func column(_ keyPath: PartialKeyPath<Record> & Sendable) -> StrataSQL {
        .identifier(columnsByKeyPath[keyPath] ?? "\(keyPath) is not a stored column")
    }

    /// The format of the property at `keyPath` when it is a Date stored as ISO 8601 text (`format:`).
    public func dateText(_ keyPath: PartialKeyPath<Record> & Sendable) -> SQLiteDateText? {
        dateTexts.isEmpty ? nil : dateTexts[keyPath]
    }

    /// The key condition, `k1 = p(first) AND …`: the key's parameters numbered from `first` in key order.
    func keyCondition(from first: Int) -> StrataSQL {
        .joined(primaryKey.enumerated().map { "\(identifier: $1) = \(parameter: first + $0)" }, separator: " AND ")
    }

    /// `INSERT INTO t (c1, …) VALUES (p1, …), (pn+1, …), …` of `rows` records, parameters in field
    /// order record after record: a batch insert in one statement (records whose key the database
    /// does not assign).
    public func insert(rows: Int) -> StrataSQL {
        var sql: StrataSQL = "INSERT INTO \(self.sql) (\(selection)) VALUES "
        for row in 0..<rows {
            sql.append(row == 0 ? "(" : ", (")
            sql.append(.joined(columns.indices.map { "\(parameter: row * columns.count + $0 + 1)" }))
            sql.append(")")
        }
        return sql
    }

    /// `UPDATE t SET c = v, … WHERE key RETURNING selection`: the assignments' values, then the
    /// key's parameters (bound by the caller, after the values); the row as stored afterwards.
    public func update(setting assignments: [StrataAssignment<Record>]) -> StrataSQL {
        var sql: StrataSQL = "UPDATE \(self.sql) SET "
        sql.append(.joined(assignments.map { "\($0.column) = \(value: $0.value)" }))
        sql.append(" WHERE \(keyCondition(from: assignments.count + 1)) RETURNING \(selection)")
        return sql
    }
}

/// The statements of one table rendered in one dialect, made once per table and dialect.
public final class StrataTableStatements: Sendable {
    /// `INSERT INTO t (c1, …) VALUES (p1, …)`, parameters in field order; for a table whose key
    /// the database assigns, the key's parameter may be NULL, and the insert returns the row as stored.
    public let insert: String
    /// The insert, or the stored row replaced when the key exists: `… ON CONFLICT (key) DO UPDATE
    /// SET c = excluded.c, …`, numbered and returning like `insert`.
    public let upsert: String
    /// `SELECT selection FROM t WHERE key = p1 …`.
    public let find: String
    /// `DELETE FROM t WHERE key = p1 …`.
    public let delete: String
    /// `UPDATE t SET c = pn, … WHERE key = pk`, numbered like `insert`; nil when every column is
    /// part of the key.
    public let update: String?
    /// The selection, rendered: what statements that return rows add after `RETURNING`.
    public let selection: String
    /// A short name for these statements, the same for the same SQL (a hash of it): what prepared
    /// statements are named after on a database connection.
    public let id: String

    /// The statements of `table` in `dialect`.
    public init<Record, Dialect: StrataSQLDialect>(_ table: StrataTable<Record>, _ dialect: Dialect.Type) {
        let columns = table.columns, primaryKey = table.primaryKey
        let position = { (column: String) in (columns.firstIndex(of: column) ?? 0) + 1 }
        let assignedKey = table.assignsKey && primaryKey.count == 1 ? primaryKey.first : nil
        let values = StrataSQL.joined(columns.enumerated().map { offset, column in
            let value: StrataSQL = "\(parameter: offset + 1)"
            return column == assignedKey ? Dialect.assignedKey(value, table: table.name, column: column) : value
        })
        let returning: StrataSQL = assignedKey == nil ? "" : " RETURNING \(table.selection)"
        let insertion: StrataSQL = "INSERT INTO \(table.sql) (\(table.selection)) VALUES (\(values))"
        let keyByPosition = StrataSQL.joined(
            primaryKey.map { "\(identifier: $0) = \(parameter: position($0))" }, separator: " AND ")
        let others = columns.filter { !primaryKey.contains($0) }
        let conflict: StrataSQL = insertion + " ON CONFLICT (\(StrataSQL.joined(primaryKey.map(StrataSQL.identifier))))"
        let upsert: StrataSQL
        if others.isEmpty {
            update = nil
            // DO NOTHING returns no row for a conflicting one: a no-op update does.
            upsert = assignedKey == nil
                ? conflict + " DO NOTHING"
                : conflict + " DO UPDATE SET \(identifier: primaryKey[0]) = excluded.\(identifier: primaryKey[0])" + returning
        } else {
            let set = StrataSQL.joined(others.map { "\(identifier: $0) = \(parameter: position($0))" })
            update = ("UPDATE \(table.sql) SET \(set) WHERE \(keyByPosition)" as StrataSQL).sql(dialect)
            let excluded = StrataSQL.joined(others.map { "\(identifier: $0) = excluded.\(identifier: $0)" })
            upsert = conflict + " DO UPDATE SET \(excluded)" + returning
        }
        insert = (insertion + returning).sql(dialect)
        self.upsert = upsert.sql(dialect)
        find = ("SELECT \(table.selection) FROM \(table.sql) WHERE \(table.keyCondition(from: 1))" as StrataSQL).sql(dialect)
        delete = ("DELETE FROM \(table.sql) WHERE \(table.keyCondition(from: 1))" as StrataSQL).sql(dialect)
        selection = table.selection.sql(dialect)
        // FNV-1a: stable across runs and platforms, unlike `hashValue`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in [insert, self.upsert, find, delete, update ?? ""].joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        id = String(hash, radix: 36)
    }
}

/// The statements of a table by dialect, rendered on first use.
final class StrataRenderedStatements: @unchecked Sendable {
    private let lock = NSLock()
    private var byDialect: [ObjectIdentifier: StrataTableStatements] = [:]

    func statements(_ dialect: ObjectIdentifier, render: () -> StrataTableStatements) -> StrataTableStatements {
        lock.lock()
        defer { lock.unlock() }
        if let statements = byDialect[dialect] { return statements }
        let statements = render()
        byDialect[dialect] = statements
        return statements
    }
}
