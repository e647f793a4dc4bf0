import Foundation
import StrataStorage

/// The columns of a record type, for filters, sorts and assignments: `$0.isDone` in a filter is
/// the `StrataColumn<TODOItem, Bool>` of the record's `isDone` property, found by its key path in
/// ``StrataTable/columns``. Comparing a column with a value of another type does not compile.
@dynamicMemberLookup
public struct StrataColumns<Record: StrataRecord>: Sendable {
    /// The columns of `Record`'s table.
    @inlinable
    public init() {}

    /// The column that stores the property at `keyPath`.
    @inlinable
    public subscript<Value: StrataColumnValue>(dynamicMember keyPath: KeyPath<Record, Value> & Sendable)
        -> StrataColumn<Record, Value>
    {
        let table = Record.strataTable
        return StrataColumn(sql: table.quotedColumn(keyPath), dateText: table.dateText(keyPath))
    }
}

/// A record type stored in one table: what every database runtime needs to know about it,
/// whatever the database. Generated entity structs conform; the behaviour (insert, find, fetch,
/// update, delete, observe) lives in the runtime, as GRDB's record protocols do it.
///
/// A database runtime adds how values are bound and read (``StrataSQLiteRecord`` for SQLite).
public protocol StrataRecord: Sendable {
    /// The columns of the record's table, for type-checked filters and sorts.
    typealias Columns = StrataColumns<Self>
    /// The primary key: the key field's type, or a tuple of the key fields' types in key order.
    associatedtype Key: Sendable

    /// The table: its name, its columns in field order, its primary key.
    static var strataTable: StrataTable<Self> { get }

    /// The record's primary key, or nil while the database has not assigned it (an
    /// autoincremented key before the insert).
    var strataKey: Key? { get }
}

/// The table of a record type, by name, and the SQL its operations run on each database, made
/// once per type (a class, so that reading it from the record type costs one reference, not a copy
/// of every string). Every identifier is quoted by ``quoted(_:)``; every value is a parameter.
public final class StrataTable<Record>: Sendable {
    /// The table name, as in the database.
    public let name: String
    /// The column names, in field order: the order records are bound and read in.
    public let columns: [String]
    /// The quoted column of each stored property, by key path.
    public let quotedColumns: [PartialKeyPath<Record> & Sendable: String]
    /// Each stored property's key path and quoted column, in field order, but the key's: what
    /// ``changes(from:to:)`` compares.
    let nonKeyProperties: [(keyPath: PartialKeyPath<Record> & Sendable, column: String)]
    /// The primary key's column names, in key order.
    public let primaryKey: [String]
    /// True when the database assigns the key on insert (an autoincremented integer key).
    public let assignsKey: Bool
    /// The Date fields declared with `format:` (stored in SQLite as ISO 8601 text), by key path;
    /// empty for most tables.
    public let dateTexts: [PartialKeyPath<Record> & Sendable: SQLiteDateText]
    /// The same, by quoted column name.
    public let dateTextsByColumn: [String: SQLiteDateText]

    /// The quoted table name.
    public let quotedName: String
    /// The quoted columns, comma-separated: what every query selects, in field order.
    public let selection: String
    /// The statements on SQLite (parameters `?1`, `?2`…).
    public let sqlite: StrataTableStatements
    /// The statements on PostgreSQL (parameters `$1`, `$2`…; an insert without a key takes the
    /// next value of the key's identity, and inserts and upserts of a table whose key the
    /// database assigns return the row as stored).
    public let postgres: StrataTableStatements

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
        quotedColumns = Dictionary(
            zip(properties.map(\.0), columns.map(Self.quoted)), uniquingKeysWith: { first, _ in first })
        self.primaryKey = primaryKey
        self.assignsKey = assignsKey
        self.dateTexts = Dictionary(dateTexts, uniquingKeysWith: { first, _ in first })
        let quotedColumns = self.quotedColumns
        dateTextsByColumn = Dictionary(
            dateTexts.compactMap { keyPath, format in quotedColumns[keyPath].map { ($0, format) } },
            uniquingKeysWith: { first, _ in first })
        nonKeyProperties = properties.filter { !primaryKey.contains($0.1) }.map { ($0.0, Self.quoted($0.1)) }
        quotedName = Self.quoted(name)
        selection = columns.map(Self.quoted).joined(separator: ", ")
        sqlite = StrataTableStatements(
            name: name, columns: columns, primaryKey: primaryKey, parameter: { "?\($0)" }, returning: nil,
            assignedKey: nil)
        // PostgreSQL has no "last inserted rowid": an autoincremented key left nil takes the next
        // value of the column's identity sequence, and the statement returns the stored row. Other
        // records are stored as they are (but for dates' microseconds: `strataStored`), so their
        // inserts return nothing.
        let assignedKey = assignsKey && primaryKey.count == 1 ? primaryKey.first : nil
        postgres = StrataTableStatements(
            name: name, columns: columns, primaryKey: primaryKey, parameter: { "$\($0)" },
            returning: assignedKey == nil ? nil : selection,
            assignedKey: assignedKey.map { key in
                (column: key, wrap: { parameter in
                    "COALESCE(\(parameter), nextval(pg_get_serial_sequence(\(Self.literal(Self.quoted(name))), \(Self.literal(key)))))"
                })
            })
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
            assignments.append(StrataAssignment(column: column, value: value))
        }
        return assignments
    }

    /// `UPDATE t SET c = ?, … WHERE k = ? …`: the statement that sets the given (quoted) columns
    /// of the row with a key, values then key as parameters (`?`, which PostgreSQL's runtime
    /// numbers, adding `RETURNING` the row): what updating some fields of a stored record runs.
    public func updateSQL(setting quotedColumns: [String]) -> String {
        "UPDATE \(quotedName) SET " + quotedColumns.map { "\($0) = ?" }.joined(separator: ", ")
            + " WHERE \(sqlite.keyCondition)"
    }

    /// `INSERT INTO t (c1, …) VALUES ($1, …), ($n+1, …), …` of `rows` records, parameters in field
    /// order record after record: how PostgreSQL inserts many records in one statement.
    public func postgresInsert(rows: Int) -> String {
        var sql = "INSERT INTO \(quotedName) (\(selection)) VALUES "
        let width = columns.count
        for row in 0..<rows {
            sql += row == 0 ? "(" : ", ("
            for column in 0..<width {
                sql += column == 0 ? "$\(row * width + 1)" : ", $\(row * width + column + 1)"
            }
            sql += ")"
        }
        return sql
    }

    /// The quoted column of the property at `keyPath`; for a property that is not stored in the
    /// table (a computed one), a name no table has, so that the statement fails when prepared.
    /// Not inlinable: every `$0.field` of a filter or an update calls it.
    public func quotedColumn(_ keyPath: PartialKeyPath<Record> & Sendable) -> String {
        quotedColumns[keyPath] ?? Self.quoted("\(keyPath) is not a stored column")
    }

    /// The format of the property at `keyPath` when it is a Date stored as ISO 8601 text (`format:`).
    public func dateText(_ keyPath: PartialKeyPath<Record> & Sendable) -> SQLiteDateText? {
        dateTexts.isEmpty ? nil : dateTexts[keyPath]
    }

    /// An identifier as a quoted SQL identifier (`order` -> `"order"`, `a"b` -> `"a""b"`): the
    /// runtime's one quoting function, the same rule as the generator's dialects.
    public static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Text as a SQL string literal (`it's` -> `'it''s'`).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

/// The statements of one table on one database, with numbered parameters in field order (keys
/// alone: in key order from 1).
public struct StrataTableStatements: Sendable {
    /// `INSERT INTO t (c1, …) VALUES (p1, …) [RETURNING …]`: parameters in field order.
    public let insert: String
    /// The insert, or the stored row replaced when the key exists: `… ON CONFLICT (key) DO UPDATE SET
    /// c = excluded.c, …`, numbered like `insert`.
    public let upsert: String
    /// `SELECT selection FROM t WHERE key = p1 …`.
    public let find: String
    /// `DELETE FROM t WHERE key = p1 …`.
    public let delete: String
    /// `UPDATE t SET c = pn, … WHERE key = pk`, numbered like `insert`; nil when every column is
    /// part of the key.
    public let update: String?
    /// `WHERE`'s key condition with `?` parameters, for statements that bind other values first.
    public let keyCondition: String
    /// A short name for these statements, the same for the same SQL (a hash of it): what prepared
    /// statements are named after on a database connection.
    public let id: String

    /// The statements of table `name`; `parameter(n)` writes the n-th parameter (from 1),
    /// `returning` is what inserts and upserts return, `assignedKey` wraps the parameter of a key
    /// the database assigns when it is NULL.
    init(
        name: String, columns: [String], primaryKey: [String], parameter: (Int) -> String, returning: String?,
        assignedKey: (column: String, wrap: (String) -> String)?
    ) {
        let q = StrataTable<Void>.quoted
        let table = q(name)
        let selection = columns.map(q).joined(separator: ", ")
        let position = { (column: String) in (columns.firstIndex(of: column) ?? 0) + 1 }
        let values = columns.enumerated().map { offset, column in
            let value = parameter(offset + 1)
            return column == assignedKey?.column ? (assignedKey?.wrap(value) ?? value) : value
        }
        let returned = returning.map { " RETURNING \($0)" } ?? ""
        let insertion = "INSERT INTO \(table) (\(selection)) VALUES (\(values.joined(separator: ", ")))"
        insert = insertion + returned
        let keyByPosition = primaryKey.map { "\(q($0)) = \(parameter(position($0)))" }.joined(separator: " AND ")
        let keyFromOne = primaryKey.enumerated().map { "\(q($1)) = \(parameter($0 + 1))" }.joined(separator: " AND ")
        keyCondition = primaryKey.map { "\(q($0)) = ?" }.joined(separator: " AND ")
        find = "SELECT \(selection) FROM \(table) WHERE \(keyFromOne)"
        delete = "DELETE FROM \(table) WHERE \(keyFromOne)"
        let others = columns.filter { !primaryKey.contains($0) }
        let conflict = "\(insertion) ON CONFLICT (\(primaryKey.map(q).joined(separator: ", ")))"
        if others.isEmpty {
            update = nil
            // DO NOTHING returns no row for a conflicting one: on PostgreSQL, a no-op update does.
            upsert = returning == nil
                ? conflict + " DO NOTHING"
                : conflict + " DO UPDATE SET \(q(primaryKey[0])) = excluded.\(q(primaryKey[0]))" + returned
        } else {
            let set = others.map { "\(q($0)) = \(parameter(position($0)))" }.joined(separator: ", ")
            update = "UPDATE \(table) SET \(set) WHERE \(keyByPosition)"
            upsert = conflict + " DO UPDATE SET " + others.map { "\(q($0)) = excluded.\(q($0))" }.joined(separator: ", ") + returned
        }
        // FNV-1a: stable across runs and platforms, unlike `hashValue`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in [insert, upsert, find, delete, update ?? ""].joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        id = String(hash, radix: 36)
    }
}
