import Foundation
import StrataStorage

/// Everything the generator needs to know about one SQL database: its column types, how values
/// are spelled and stored, and the statements that differ. Each database is one conforming type
/// (``SQLiteRules``, ``PostgresRules``); none of the requirements has a default, so a new
/// database is a new type plus its fixtures, and the compiler lists every requirement left to
/// fill in. Renderers ask ``SQLDialect/rules`` instead of testing which dialect they render.
public protocol SQLDialectRules: Sendable {
    /// A human name for headers and messages.
    var displayName: String { get }
    /// The runtime module generated Swift uses on this database, and its names.
    var swift: SwiftRuntime { get }

    /// The column type that stores values of `encoding`.
    func columnType(_ encoding: ColumnEncoding) -> String
    /// Why a column declared `declaredType` (a field's `sqlType`) would not store values of
    /// `encoding` as the runtime binds and reads them, or nil when it does.
    func storageProblem(declaredType: String, for encoding: ColumnEncoding) -> String?
    /// The column type of a Date field declared with `format:` (and no `sqlType`).
    func columnType(dateText: SQLiteDateText) -> String
    /// The column type of an array field whose elements are stored as `element`.
    func arrayColumnType(of element: ColumnEncoding) -> String
    /// An array value as its column stores it: a JSON array's text in SQLite, an array literal's
    /// text (`'{"a","b"}'`) in PostgreSQL.
    func arrayValue(_ elements: [ArrayElementLiteral]) -> SQLValue
    /// Why a column declared `declaredType` would not keep the values of a Date field declared
    /// with `format:`, or nil when it does.
    func storageProblem(declaredType: String, dateText: SQLiteDateText) -> String?
    /// A Date default of a field declared with `format:`, as stored.
    func stored(_ date: Date, as dateText: SQLiteDateText) -> SQLValue

    // MARK: Literals (after the common quoting of ``SQLDialect/literal(_:)``)

    /// A boolean literal.
    func booleanLiteral(_ flag: Bool) -> String
    /// Bytes, from their uppercase hexadecimal digits.
    func blobLiteral(hex: String) -> String
    /// A quoted string literal (`quoted` is `text` in single quotes with `'` doubled) of `text`,
    /// which holds no NUL.
    func textLiteral(_ text: String, quoted: String) -> String
    /// Text holding a NUL, from the literal of its UTF-8 bytes.
    func textWithNULLiteral(bytes: String) -> String
    /// A decimal that is not a plain number (kept as text), from its quoted literal.
    func decimalTextLiteral(quoted: String) -> String
    /// Text the database reads as a value of `encoding`'s column type, from its quoted literal.
    func typedLiteral(quoted: String, columnType: String) -> String
    /// Infinity, minus infinity or NaN.
    func nonFiniteRealLiteral(_ number: Double) -> String

    // MARK: Stored values

    /// How a Bool is stored.
    func stored(_ flag: Bool) -> SQLValue
    /// How a UUID is stored.
    func stored(_ uuid: UUID) -> SQLValue
    /// How a Date is stored.
    func stored(_ date: Date) -> SQLValue
    /// How a Decimal is stored, from its canonical text.
    func storedDecimal(canonical: String) -> SQLValue
    /// The values a column of `encoding` may hold when its column type alone allows more (SQLite
    /// stores a Bool as an INTEGER, so it checks 0 and 1), or nil.
    func allowedValues(of encoding: ColumnEncoding) -> [SQLValue]?

    // MARK: Statements that differ

    /// What follows an autoincremented key's column type `declaredType` (before NOT NULL), if
    /// anything.
    func autoincrementTypeClause(declaredType: String) -> String?
    /// The column constraint an autoincremented key ends with, given its quoted constraint name, if any.
    func autoincrementKeyConstraint(quotedName: String) -> String?
    /// True when the table's PRIMARY KEY constraint is written even for an autoincremented key
    /// (false when ``autoincrementKeyConstraint(quotedName:)`` declares the key).
    var declaresAutoincrementKeyInTable: Bool { get }
    /// True when constraints can be renamed and foreign keys added to existing tables (so tables
    /// are created first and references between them added afterwards).
    var altersConstraints: Bool { get }
    /// The author's SQL for this database, if the fragment has some.
    func sql(_ fragment: DialectSQL) -> String?
    /// The statements of the migration into `plan.to`, in execution order.
    func migrationStatements(_ plan: MigrationPlan) -> [SQLStatement]
    /// The statements that create `entity`'s full-text search over its existing table; with
    /// `fill`, the rows already there are indexed too.
    func createSearch(_ search: FullTextSearch, of entity: Entity, fill: Bool) -> [SQLStatement]
    /// The statements that drop `entity`'s full-text search (the entity as the search was created for).
    func dropSearch(of entity: Entity) -> [SQLStatement]
    /// `value` (SQL of a stored JSON value, NULL staying NULL) with `edit` made to it.
    func jsonEdit(_ edit: JSONEdit, of value: String) -> String
}

/// SQLite, the embedded default: a UUID is its 16 bytes, a Date a REAL (seconds since 2001 in
/// ``SQLiteDateFormat/current``), a Decimal its canonical text, a Bool INTEGER 0/1 (see ``ColumnEncoding``).
public struct SQLiteRules: SQLDialectRules {
    /// How Date literals are stored: ``SQLiteDateFormat/current``, except when the generator renders
    /// a migration as Strata 0.5 did, to know the checksum old databases recorded for it.
    public var dateFormat: SQLiteDateFormat

    /// Rules writing Dates in `dateFormat`.
    public init(dateFormat: SQLiteDateFormat = .current) {
        self.dateFormat = dateFormat
    }

    public var displayName: String { "SQLite" }

    public var swift: SwiftRuntime {
        SwiftRuntime(
            module: "StrataSQLite", clientModule: "GRDB", typePrefix: "", recordProtocol: nil, store: "SQLiteStore",
            access: "SQLiteAccess", repository: "SQLiteRepository", isAsync: false, observes: true, inexactEncodings: [],
            queryStatement: { "StrataStatement(db, sql: \($0))" })
    }

    public func columnType(_ encoding: ColumnEncoding) -> String { encoding.sqliteType }

    /// TEXT holding a JSON array.
    public func arrayColumnType(of element: ColumnEncoding) -> String { ColumnEncoding.sqliteArrayType }

    /// A JSON array: `'["a",1,true]'`.
    public func arrayValue(_ elements: [ArrayElementLiteral]) -> SQLValue {
        .text("[" + elements.map(\.jsonText).joined(separator: ",") + "]")
    }

    /// ISO 8601 text: a TEXT column.
    public func columnType(dateText: SQLiteDateText) -> String { columnType(.string) }

    /// Text is kept by TEXT and NUMERIC affinity (NUMERIC keeps text that does not read as a
    /// number, as `2009-01-01 00:00:00` does not), as by `DATE` and `DATETIME` columns.
    public func storageProblem(declaredType: String, dateText: SQLiteDateText) -> String? {
        let affinity = SQLiteAffinity(declaredType: declaredType)
        if affinity == .text || affinity == .numeric { return nil }
        return "\(declaredType) has \(affinity.rawValue) affinity in SQLite, which does not keep the ISO 8601 text of 'format: \(dateText.rawValue)'; expected a type of text or numeric affinity (TEXT, DATE, DATETIME)"
    }

    public func stored(_ date: Date, as dateText: SQLiteDateText) -> SQLValue {
        dateText.text(of: date).map { .text($0) } ?? stored(date)
    }

    /// SQLite stores a value by the affinity its declared type gives the column
    /// (sqlite.org/datatype3.html, 3.1), not by the type's spelling.
    public func storageProblem(declaredType: String, for encoding: ColumnEncoding) -> String? {
        let affinity = SQLiteAffinity(declaredType: declaredType)
        let accepted: [SQLiteAffinity]
        switch encoding {
        // NUMERIC affinity keeps text that does not read as a number (dates such as
        // '2009-01-01 00:00:00'), and turns the rest into numbers ('1.50' reads back '1.5').
        case .string, .url: accepted = [.text, .numeric]
        case .int, .int64, .int32, .int16, .bool: accepted = [.integer, .numeric]
        case .double, .float, .date: accepted = [.real, .numeric, .integer]
        case .decimal, .json: accepted = [.text, .numeric]
        case .uuid, .data: accepted = [.blob]
        }
        if accepted.contains(affinity) { return nil }
        let names = accepted.map(\.rawValue).joined(separator: " or ")
        return "\(declaredType) has \(affinity.rawValue) affinity in SQLite, which does not store \(encoding.rawValue) values as Strata writes them; expected a type of \(names) affinity"
    }

    public func booleanLiteral(_ flag: Bool) -> String { flag ? "1" : "0" }
    public func blobLiteral(hex: String) -> String { "X'\(hex)'" }
    public func textLiteral(_ text: String, quoted: String) -> String { quoted }
    public func textWithNULLiteral(bytes: String) -> String { "(CAST(\(bytes) AS TEXT))" }
    public func decimalTextLiteral(quoted: String) -> String { quoted }
    public func typedLiteral(quoted: String, columnType: String) -> String { quoted }
    public func nonFiniteRealLiteral(_ number: Double) -> String {
        // SQLite has no literal for these: 9e999 overflows to infinity; NaN is stored as NULL.
        if number.isNaN { return "NULL" }
        return number > 0 ? "9e999" : "-9e999"
    }

    public func stored(_ flag: Bool) -> SQLValue { .integer(flag ? 1 : 0) }
    public func stored(_ uuid: UUID) -> SQLValue { .blob(SQLiteStorage.bytes(of: uuid)) }
    public func stored(_ date: Date) -> SQLValue { .real(dateFormat.seconds(of: date)) }
    public func storedDecimal(canonical: String) -> SQLValue { .text(canonical) }
    public func allowedValues(of encoding: ColumnEncoding) -> [SQLValue]? {
        encoding == .bool ? [.integer(0), .integer(1)] : nil
    }

    public func autoincrementTypeClause(declaredType: String) -> String? { nil }
    public func autoincrementKeyConstraint(quotedName: String) -> String? {
        "CONSTRAINT \(quotedName) PRIMARY KEY AUTOINCREMENT"
    }
    public var declaresAutoincrementKeyInTable: Bool { false }
    public var altersConstraints: Bool { false }
    public func sql(_ fragment: DialectSQL) -> String? { fragment.sqlite }
    public func migrationStatements(_ plan: MigrationPlan) -> [SQLStatement] {
        SQLiteMigrationRenderer(plan: plan, sqliteDateFormat: dateFormat).statements()
    }
}

/// PostgreSQL, the server database: native UUID, TIMESTAMPTZ, NUMERIC, BOOLEAN and BYTEA.
public struct PostgresRules: SQLDialectRules {
    public init() {}

    public var displayName: String { "PostgreSQL" }

    public var swift: SwiftRuntime {
        SwiftRuntime(
            module: "StrataPostgres", clientModule: "PostgresNIO", typePrefix: "Postgres", recordProtocol: "PostgresRecord",
            store: "PostgresStore", access: "PostgresAccess", repository: "PostgresRepository", isAsync: true,
            observes: false, inexactEncodings: [.date],
            queryStatement: { "StrataPostgresStatement(connection, sql: \($0))" })
    }

    public func columnType(_ encoding: ColumnEncoding) -> String { encoding.postgresType }

    /// The native array of the element's type (`TEXT[]`).
    public func arrayColumnType(of element: ColumnEncoding) -> String { element.postgresArrayType }

    /// An array literal: `'{"a","b"}'`, which the column's type reads.
    public func arrayValue(_ elements: [ArrayElementLiteral]) -> SQLValue {
        .text("{" + elements.map(\.postgresArrayText).joined(separator: ",") + "}")
    }

    /// `format: date` is PostgreSQL's own `DATE`; `format: timestamp` keeps `TIMESTAMPTZ` (the
    /// text is SQLite's way of storing what PostgreSQL stores natively).
    public func columnType(dateText: SQLiteDateText) -> String {
        dateText == .date ? "DATE" : columnType(.date)
    }

    /// Any type that stores a Date (``storageProblem(declaredType:for:)``).
    public func storageProblem(declaredType: String, dateText: SQLiteDateText) -> String? {
        storageProblem(declaredType: declaredType, for: .date)
    }

    public func stored(_ date: Date, as dateText: SQLiteDateText) -> SQLValue {
        dateText == .date ? SQLiteDateText.date.text(of: date).map { .text($0) } ?? stored(date) : stored(date)
    }

    /// A declared type of the family PostgreSQL binds and returns for `encoding`; modifiers
    /// (`varchar(160)`, `numeric(10,2)`) are free.
    public func storageProblem(declaredType: String, for encoding: ColumnEncoding) -> String? {
        var family = declaredType.lowercased()
        if let open = family.firstIndex(of: "("), let close = family[open...].firstIndex(of: ")") {
            family = String(family[..<open]) + String(family[family.index(after: close)...])
        }
        family = family.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let accepted: Set<String>
        switch encoding {
        case .string, .url: accepted = ["text", "varchar", "character varying", "char", "character", "bpchar", "citext"]
        case .int, .int64: accepted = ["bigint", "int8", "bigserial", "serial8"]
        case .int32: accepted = ["integer", "int", "int4", "serial", "serial4"]
        case .int16: accepted = ["smallint", "int2", "smallserial", "serial2"]
        case .double: accepted = ["double precision", "float8", "float"]
        case .float: accepted = ["real", "float4"]
        case .bool: accepted = ["boolean", "bool"]
        case .uuid: accepted = ["uuid"]
        case .date:
            accepted = [
                "timestamptz", "timestamp with time zone", "timestamp", "timestamp without time zone", "date",
            ]
        case .data: accepted = ["bytea"]
        case .json: accepted = ["jsonb"]
        case .decimal: accepted = ["numeric", "decimal"]
        }
        if accepted.contains(family) { return nil }
        return "PostgreSQL does not store \(encoding.rawValue) values in a \(declaredType) column as Strata binds and reads them; expected one of \(accepted.sorted().joined(separator: ", "))"
    }

    public func booleanLiteral(_ flag: Bool) -> String { flag ? "TRUE" : "FALSE" }
    public func blobLiteral(hex: String) -> String { "E'\\\\x\(hex)'::" + columnType(.data) }
    public func textLiteral(_ text: String, quoted: String) -> String {
        // An escape string means the same whatever the server's `standard_conforming_strings` is.
        text.utf8.contains(UInt8(ascii: "\\")) ? "E" + quoted.replacingOccurrences(of: "\\", with: "\\\\") : quoted
    }
    public func textWithNULLiteral(bytes: String) -> String {
        // PostgreSQL cannot store a NUL in text and rejects the value when it runs.
        "(convert_from(\(bytes), 'UTF8'))"
    }
    public func decimalTextLiteral(quoted: String) -> String { quoted + "::numeric" }
    public func typedLiteral(quoted: String, columnType: String) -> String { quoted + "::" + columnType }
    public func nonFiniteRealLiteral(_ number: Double) -> String {
        if number.isNaN { return "'NaN'::double precision" }
        return number > 0 ? "'Infinity'::double precision" : "'-Infinity'::double precision"
    }

    public func stored(_ flag: Bool) -> SQLValue { .boolean(flag) }
    public func stored(_ uuid: UUID) -> SQLValue { .typed(uuid.uuidString.lowercased(), .uuid) }
    public func stored(_ date: Date) -> SQLValue { .typed(PostgresTimestamp.text(of: date), .date) }
    public func storedDecimal(canonical: String) -> SQLValue { .decimal(canonical) }
    public func allowedValues(of encoding: ColumnEncoding) -> [SQLValue]? { nil }

    /// An identity column, unless the type is a serial one (`serial`, `bigserial`: an owned
    /// sequence and its `nextval` default, as databases made before identity columns have).
    public func autoincrementTypeClause(declaredType: String) -> String? {
        ["serial", "serial2", "serial4", "serial8", "smallserial", "bigserial"].contains(declaredType.lowercased())
            ? nil : "GENERATED BY DEFAULT AS IDENTITY"
    }
    public func autoincrementKeyConstraint(quotedName: String) -> String? { nil }
    public var declaresAutoincrementKeyInTable: Bool { true }
    public var altersConstraints: Bool { true }
    public func sql(_ fragment: DialectSQL) -> String? { fragment.postgres }
    public func migrationStatements(_ plan: MigrationPlan) -> [SQLStatement] {
        PostgresMigrationRenderer(plan: plan).statements()
    }
}
