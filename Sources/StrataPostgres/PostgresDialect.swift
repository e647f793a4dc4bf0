import StrataRuntime

/// PostgreSQL's SQL: `$1` placeholders, `BIGINT` and `DOUBLE PRECISION` casts, and a key the
/// database assigns taken from its identity's sequence when the record has none yet.
public enum PostgresDialect: StrataSQLDialect {
    public static func placeholder(_ number: Int) -> String { "$\(number)" }

    public static func name(of type: StrataSQLType) -> String {
        switch type {
        case .integer: "BIGINT"
        case .real: "DOUBLE PRECISION"
        }
    }

    public static func assignedKey(_ parameter: StrataSQL, table: String, column: String) -> StrataSQL {
        "COALESCE(\(parameter), nextval(pg_get_serial_sequence(\(literal(quoted(table))), \(literal(column)))))"
    }

    /// `(column ->> 'key')`, cast to the member's type (`((column ->> 'size')::BIGINT)`); a nested
    /// JSON value is `(column -> 'key')`, whose members are read in turn.
    public static func jsonMember(_ part: StrataJSONMemberPart) -> String {
        switch part {
        case .open(.text), .open(.json): return "("
        case .open: return "(("
        case .close(let key, let type):
            let key = "'" + key.replacingOccurrences(of: "'", with: "''") + "'"
            switch type {
            case .json: return " -> \(key))"
            case .text: return " ->> \(key))"
            case .integer: return " ->> \(key))::BIGINT)"
            case .real: return " ->> \(key))::DOUBLE PRECISION)"
            case .bool: return " ->> \(key))::BOOLEAN)"
            case .date: return " ->> \(key))::TIMESTAMP AT TIME ZONE 'UTC')"
            }
        }
    }

    /// Text as a SQL string literal (`it's` -> `'it''s'`).
    static func literal(_ text: String) -> StrataSQL {
        StrataSQL(verbatim: "'" + text.replacingOccurrences(of: "'", with: "''") + "'")
    }
}
