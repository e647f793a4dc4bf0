import StrataStorage

/// How one database writes SQL: the one place per dialect that the runtime's fragments
/// (``StrataSQL``) are rendered through. A new database is a new conformance; the compiler lists
/// what it must fill in.
public protocol StrataSQLDialect: Sendable {
    /// The placeholder of parameter `number` (from 1): `?1` on SQLite, `$1` on PostgreSQL.
    static func placeholder(_ number: Int) -> String
    /// An identifier as a quoted identifier (`order` -> `"order"`).
    static func quoted(_ identifier: String) -> String
    /// The name of a type, for casts.
    static func name(of type: StrataSQLType) -> String
    /// What an insert stores in the key column the database assigns (`column` of `table`), from
    /// the parameter that holds the record's key: NULL until the database assigned one.
    static func assignedKey(_ parameter: StrataSQL, table: String, column: String) -> StrataSQL
    /// Full-text search SQL: `part` of a search over `search`, where `query` is the placeholder
    /// of the bound search query (``StrataSearch/query(_:)``; unused by ``StrataFullTextPart/rank``).
    static func fullText(_ part: StrataFullTextPart, of search: StrataSearch, query: String) -> String
    /// The SQL before (``StrataJSONMemberPart/open(_:)``) or after (``StrataJSONMemberPart/close(_:_:)``)
    /// a JSON column's SQL that reads one of its members as `type`.
    static func jsonMember(_ part: StrataJSONMemberPart) -> String
    /// A test on an array column (`column`, its SQL), where `array` is the placeholder of the
    /// bound array (``StrataArrayTest/contains``: a one-element array; unused by
    /// ``StrataArrayTest/isEmpty``).
    static func arrayTest(_ test: StrataArrayTest, column: String, array: String) -> String
}

/// A test on an array column that a filter makes (`$0.tags.contains("swift")`).
public enum StrataArrayTest: Hashable, Sendable {
    /// The column holds every element of the bound array (one element, for `contains`).
    case contains
    /// The column holds no element.
    case isEmpty
}

extension StrataSQLDialect {
    /// Double quotes, doubled inside: the SQL standard's rule, which SQLite and PostgreSQL share.
    public static func quoted(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }
}

/// A type a runtime statement casts to, whatever the database calls it.
public enum StrataSQLType: Hashable, Sendable {
    /// A 64-bit integer.
    case integer
    /// A double-precision floating-point number.
    case real
}

/// What a filter reads a member of a stored JSON value as: the SQL type its value is compared in.
public enum StrataJSONMemberType: Hashable, Sendable {
    /// Text (a `String`, `URL` or string-backed enum).
    case text
    /// An integer (the integer types, integer-backed enums).
    case integer
    /// A floating-point number.
    case real
    /// A Bool (`1`/`0` on SQLite).
    case bool
    /// A Date, stored inside JSON as ISO 8601 text in UTC.
    case date
    /// A JSON value itself (a nested JSON value type), whose members are read in turn.
    case json
}

/// The two halves of the SQL that reads a member of a JSON column, around the column's SQL:
/// `json_extract("settings", '$.theme')` on SQLite, `("settings" #>> '{theme}')` on PostgreSQL.
public enum StrataJSONMemberPart: Hashable, Sendable {
    /// Before the column.
    case open(StrataJSONMemberType)
    /// After the column: the member's key, and its type.
    case close(String, StrataJSONMemberType)
}
