import PostgresNIO
import StrataRuntime

extension PostgresQuery {
    /// A runtime-built statement (``StrataSQL``, whose parameters are `?`) as PostgreSQL's
    /// numbered parameters `$1`, `$2`…, with its values bound in PostgreSQL's binary format.
    /// A `?` inside a quoted identifier or a string literal is left as it is.
    @inlinable
    public init(strata query: StrataSQL) throws {
        var bindings = PostgresBindings(capacity: query.arguments.count)
        try bindings.strataAppend(query.arguments)
        self.init(unsafeSQL: StrataPostgresParameters.numbered(query.sql), binds: bindings)
    }
}

/// PostgreSQL's parameter syntax.
public enum StrataPostgresParameters {
    /// `sql` with each `?` outside quotes replaced by `$1`, `$2`… in order.
    public static func numbered(_ sql: String) -> String {
        guard sql.contains("?") else { return sql }
        var result = ""
        result.reserveCapacity(sql.utf8.count + 8)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "\"" || character == "'" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
