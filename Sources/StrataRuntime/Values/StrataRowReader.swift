import Foundation
import StrataStorage

/// A result row of one database, read column by column from left to right: what records and
/// query rows are decoded from, the same way on every database. Each database's runtime gives one
/// (`StrataSQLiteRow`, `StrataPostgresRow`), with one requirement per stored scalar type, so a new
/// scalar type or a new database is listed by the compiler.
///
/// A read consumes its column. Non-optional reads throw ``StrataDecodingError`` for NULL, a value
/// out of the type's range or a malformed value.
public protocol StrataRowReader {
    /// Consumes the next column and returns true when it is NULL; otherwise returns false and
    /// leaves the column to be read.
    mutating func readNull() throws -> Bool
    /// The next column's text.
    mutating func read(_ type: String.Type) throws -> String
    /// The next column's integer.
    mutating func read(_ type: Int.Type) throws -> Int
    /// The next column's integer.
    mutating func read(_ type: Int64.Type) throws -> Int64
    /// The next column's integer, which must fit 32 bits.
    mutating func read(_ type: Int32.Type) throws -> Int32
    /// The next column's integer, which must fit 16 bits.
    mutating func read(_ type: Int16.Type) throws -> Int16
    /// The next column's floating-point number.
    mutating func read(_ type: Double.Type) throws -> Double
    /// The next column's floating-point number.
    mutating func read(_ type: Float.Type) throws -> Float
    /// The next column's Bool.
    mutating func read(_ type: Bool.Type) throws -> Bool
    /// The next column's UUID.
    mutating func read(_ type: UUID.Type) throws -> UUID
    /// The next column's Date.
    mutating func read(_ type: Date.Type) throws -> Date
    /// The next column's Date, where a field declared with `format:` keeps it (ISO 8601 text on
    /// SQLite; PostgreSQL stores such a date natively and reads it as any other).
    mutating func read(_ type: Date.Type, as format: SQLiteDateText) throws -> Date
    /// The next column's bytes.
    mutating func read(_ type: Data.Type) throws -> Data
    /// The next column's Decimal.
    mutating func read(_ type: Decimal.Type) throws -> Decimal
    /// The next column's array of elements of type `kind` (a native array on PostgreSQL, a JSON
    /// array on SQLite); throws for NULL and for elements of another type.
    mutating func readArray(_ kind: StrataArray.Kind) throws -> StrataArray
    /// The next column's JSON (text on SQLite, `JSONB` on PostgreSQL), parsed; text that is not
    /// JSON is ``StrataDecodingError/malformedJSON(column:type:reason:)``.
    mutating func readJSON() throws -> StrataJSON
    /// The name of the column read last, for error messages.
    var previousColumnName: String { get }
}

extension StrataRowReader {
    /// The next column, as the type the caller expects: `try self.init(id: row.next(), title: row.next())`.
    @inlinable
    public mutating func next<Value: StrataColumnValue>(_ type: Value.Type = Value.self) throws -> Value {
        try Value.read(from: &self)
    }

    /// The next column, a Date where a field declared with `format:` keeps it.
    @inlinable
    public mutating func next(_ format: SQLiteDateText) throws -> Date {
        try read(Date.self, as: format)
    }

    /// The next column, an optional Date where a field declared with `format:` keeps it.
    @inlinable
    public mutating func next(_ format: SQLiteDateText) throws -> Date? {
        try readNull() ? nil : try read(Date.self, as: format)
    }

    /// The next column as `Value`; with `dateText`, a `Date` or `Date?` read as a field declared
    /// with `format:` keeps it (the column of such a field, its `MIN`, `MAX` or group key).
    @inlinable
    public mutating func next<Value: StrataColumnValue>(_ type: Value.Type, dateText: SQLiteDateText?) throws -> Value {
        guard let dateText, Value.self == Date.self || Value.self == Date?.self else { return try Value.read(from: &self) }
        if Value.self == Date?.self, try readNull(), let none = Date?.none as? Value { return none }
        let date = try read(Date.self, as: dateText)
        guard let value = date as? Value ?? Date?.some(date) as? Value else {
            throw StrataDecodingError.malformed(column: previousColumnName, type: String(describing: Value.self))
        }
        return value
    }
}

/// A value read from a result row, column by column: a record, a named query's row, or a join's
/// pair. Decoded the same way on every database.
public protocol StrataRowDecodable {
    /// The value of a result row, read column by column in order.
    init(row: inout some StrataRowReader) throws
}
