import Foundation
import StrataStorage

/// The parameters of a statement of one database, bound in order: what records, keys and named
/// query parameters are bound to, the same way on every database. Each database's runtime gives
/// one (`StrataSQLiteArguments`, PostgresNIO's `PostgresBindings`), with one requirement per stored
/// scalar type.
public protocol StrataValueBinder {
    /// Binds NULL to the next parameter.
    mutating func bindNull() throws
    /// Binds text.
    mutating func bind(_ value: String) throws
    /// Binds an integer.
    mutating func bind(_ value: Int) throws
    /// Binds an integer.
    mutating func bind(_ value: Int64) throws
    /// Binds an integer.
    mutating func bind(_ value: Int32) throws
    /// Binds an integer.
    mutating func bind(_ value: Int16) throws
    /// Binds a floating-point number.
    mutating func bind(_ value: Double) throws
    /// Binds a floating-point number.
    mutating func bind(_ value: Float) throws
    /// Binds a Bool.
    mutating func bind(_ value: Bool) throws
    /// Binds a UUID.
    mutating func bind(_ value: UUID) throws
    /// Binds a Date.
    mutating func bind(_ value: Date) throws
    /// Binds a Date as a field declared with `format:` keeps it (ISO 8601 text on SQLite).
    mutating func bind(_ value: Date, as format: SQLiteDateText) throws
    /// Binds bytes.
    mutating func bind(_ value: Data) throws
    /// Binds a Decimal.
    mutating func bind(_ value: Decimal) throws
    /// Binds the elements of an array field as one value (a native array on PostgreSQL, a JSON
    /// array's text on SQLite).
    mutating func bindArray(_ array: StrataArray) throws
    /// Binds JSON text (``StrataJSONWriter``): text on SQLite, `JSONB` on PostgreSQL.
    mutating func bind(json text: String) throws
}

extension StrataValueBinder {
    /// Binds values to the next parameters, in order: `try $0.bind(isDone, title)`.
    @inlinable
    public mutating func bind<each Value: StrataBindable>(_ values: repeat each Value) throws {
        for value in repeat each values {
            try value.bind(to: &self)
        }
    }

    /// Binds filter values (``StrataSQLValue``) to the next parameters, in order.
    @inlinable
    public mutating func bind(_ values: [StrataSQLValue]) throws {
        for value in values {
            try value.bind(to: &self)
        }
    }
}

/// A value bound to a statement's parameter: every ``StrataColumnValue``, and a Date bound as a
/// field declared with `format:` keeps it (``StrataTextDate``).
public protocol StrataBindable {
    /// Binds the value to the binder's next parameter.
    func bind(to binder: inout some StrataValueBinder) throws
}

/// A Date (or nil) of a field declared with `format:`, bound as that field keeps it:
/// `try StrataTextDate(invoiceDate, .timestamp).bind(to: &binder)` in a generated record.
public struct StrataTextDate: StrataBindable {
    /// The date; nil binds NULL.
    public let date: Date?
    /// How it is written.
    public let format: SQLiteDateText

    /// A date to bind as a field declared with `format:` keeps it.
    @inlinable
    public init(_ date: Date?, _ format: SQLiteDateText) {
        self.date = date
        self.format = format
    }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws {
        guard let date else { return try binder.bindNull() }
        try binder.bind(date, as: format)
    }
}
