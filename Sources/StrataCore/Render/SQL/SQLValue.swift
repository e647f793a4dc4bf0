import StrataStorage

/// A value as a database stores it, ready for ``SQLDialect/literal(_:)``.
public enum SQLValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// Text.
    case text(String)
    /// Bytes.
    case blob([UInt8])
    /// A boolean (`TRUE`/`FALSE` in PostgreSQL, `1`/`0` in SQLite).
    case boolean(Bool)
    /// An exact decimal number in its canonical text, written unquoted.
    case decimal(String)
    /// Text that PostgreSQL reads as a value of the column type of `encoding` (`'…'::UUID`).
    case typed(String, ColumnEncoding)
}
