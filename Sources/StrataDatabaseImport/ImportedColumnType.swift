import StrataCore
import StrataIntrospection

/// The Strata type of a column read from a database: the inverse of ``SQLDialect/columnType(_:)``
/// where the column's type is one Strata declares, otherwise the closest type, said so.
struct ImportedColumnType: Equatable {
    /// The type the field gets.
    var type: ScalarType
    /// Why the type is not exact (what the regenerated column loses), or nil when it is.
    var approximation: String?

    /// The type of a column declared as `declared` (in its catalog's spelling, as
    /// ``SQLCanonicalForm/typeName(_:dialect:)`` gives it); nil when no Strata type is close.
    static func of(_ declared: String, dialect: SQLDialect) -> ImportedColumnType? {
        if let exact = exact(declared, dialect: dialect) { return ImportedColumnType(type: exact) }
        switch dialect {
        case .sqlite: return sqlite(declared)
        case .postgres: return postgres(declared)
        }
    }

    /// The one inversion of the dialect's column types: of the types the dialect stores in
    /// `declared`, the widest (``ColumnEncoding/widest(of:)``).
    static func exact(_ declared: String, dialect: SQLDialect) -> ScalarType? {
        let name = SQLCanonicalForm.typeName(declared, dialect: dialect)
        return ScalarType.widest(
            of: ScalarType.allCases.filter {
                SQLCanonicalForm.typeName(dialect.columnType($0), dialect: dialect) == name
            })
    }

    /// A SQLite declared type Strata does not write, by the affinity SQLite gives it
    /// (sqlite.org/datatype3.html, 3.1), with the names that say more (BOOLEAN, DECIMAL).
    private static func sqlite(_ declared: String) -> ImportedColumnType {
        let name = declared.uppercased()
        func closest(_ storage: String, _ preferred: ScalarType? = nil) -> ImportedColumnType {
            let type = preferred ?? exact(storage, dialect: .sqlite) ?? .data
            let column = SQLDialect.sqlite.columnType(type)
            return ImportedColumnType(
                type: type,
                approximation: name.isEmpty
                    ? "has no declared type; imported as \(type.name) (its column becomes \(column))"
                    : "is \(declared), which Strata does not declare; imported as \(type.name) (its column becomes \(column))"
            )
        }
        switch SQLiteAffinity(declaredType: declared) {
        case .integer: return closest("INTEGER")
        case .text: return closest("TEXT")
        case .blob: return closest("BLOB")
        case .real: return closest("REAL")
        case .numeric:
            if name.contains("BOOL") { return closest("INTEGER", .bool) }
            if name.contains("DEC") || name.contains("NUM") { return closest("TEXT", .decimal) }
            return closest("TEXT")
        }
    }

    /// PostgreSQL types of the families Strata has, without their modifiers; nil for the others
    /// (arrays, ranges, geometry, user-defined types).
    private static func postgres(_ declared: String) -> ImportedColumnType? {
        if declared.hasSuffix("]") { return nil }
        var base = declared
        if let open = base.firstIndex(of: "(") {
            let close = base[open...].firstIndex(of: ")") ?? base.index(before: base.endIndex)
            base = String(base[..<open]) + String(base[base.index(after: close)...])
            base = base.split(separator: " ").joined(separator: " ")
        }
        let families: [String: ScalarType] = [
            "character varying": .string, "character": .string, "bpchar": .string, "citext": .string,
            "json": .string, "xml": .string, "name": .string, "inet": .string, "cidr": .string,
            "macaddr": .string, "interval": .string, "time without time zone": .string,
            "time with time zone": .string, "timestamp without time zone": .date, "date": .date, "money": .decimal,
            "oid": .int64, "serial": .int32, "bigserial": .int64, "smallserial": .int16,
        ]
        guard let type = exact(base, dialect: .postgres) ?? families[base] else { return nil }
        return ImportedColumnType(
            type: type,
            approximation:
                "is \(declared), which Strata does not declare; imported as \(type.name) (its column becomes \(SQLDialect.postgres.columnType(type)))"
        )
    }
}
