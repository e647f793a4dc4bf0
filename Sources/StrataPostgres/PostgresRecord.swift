import PostgresNIO
import StrataRuntime

/// A value read from a result row: a record, or the row type of a named query.
public protocol PostgresRowDecodable {
    /// The value of a result row, read cell by cell in column order.
    init(row: inout StrataPostgresRow) throws
}

/// A record that PostgreSQL stores: how its columns are bound as parameters and read from a row,
/// in field order. Generated entity structs conform; ``PostgresAccess`` and
/// ``PostgresRepository`` run every operation on it.
public protocol PostgresRecord: StrataRecord, PostgresRowDecodable {
    /// The record of a row that selects ``StrataTable/selection``, read cell by cell in field order.
    init(row: inout StrataPostgresRow) throws
    /// Appends every column to a statement's parameters, in field order.
    func bind(to bindings: inout PostgresBindings) throws
    /// Appends a primary key to a statement's parameters, in key order.
    static func bind(key: Key, to bindings: inout PostgresBindings) throws
    /// The record as PostgreSQL stores it: what an insert returns without reading the row back.
    /// Generated for records with dates (to the microsecond); the record itself otherwise.
    var strataStored: Self { get }
}

extension PostgresRecord {
    /// The record itself: its columns store every value exactly.
    @inlinable
    public var strataStored: Self { self }
}

/// A result row, read cell by cell in column order as the type the caller expects:
/// `try self.init(id: row.next(), title: row.next())`.
public struct StrataPostgresRow {
    @usableFromInline var cells: PostgresRow.Iterator
    @usableFromInline var position = 0

    /// The cells of `row`, from the first.
    @inlinable
    public init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    /// The next cell, as `Value` (see ``StrataPostgresValue``).
    @inlinable
    public mutating func next<Value: StrataPostgresValue>(as type: Value.Type = Value.self) throws -> Value {
        try Value.read(nextCell())
    }

    /// The next cell. A call, not inlined into every column of every record's `init(row:)`:
    /// PostgresNIO's iterator reads the cell's length and bytes from the row's buffer.
    @usableFromInline @inline(never)
    mutating func nextCell() throws -> PostgresCell {
        guard let cell = cells.next() else { throw StrataDecodingError.missingColumn(position: position) }
        position += 1
        return cell
    }
}

extension PostgresBindings {
    /// Appends values to the parameters, in order.
    @inlinable
    public mutating func strataAppend<each Value: StrataPostgresValue>(_ values: repeat each Value) throws {
        for value in repeat each values {
            try value.bind(to: &self)
        }
    }

    /// Appends filter values (``StrataSQLValue``) to the parameters, in order.
    @inlinable
    public mutating func strataAppend(_ values: [StrataSQLValue]) throws {
        for value in values {
            switch value {
            case .null: appendNull()
            case .integer(let value): append(value)
            case .real(let value): append(value)
            case .text(let value): append(value)
            case .blob(let value): try append(value)
            case .bool(let value): append(value)
            case .uuid(let value): append(value)
            case .date(let value), .textDate(let value, _): try append(StrataPostgresTimestamp(value))
            case .decimal(let value): try append(value)
            }
        }
    }
}
