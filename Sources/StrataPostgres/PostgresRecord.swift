import Foundation
import PostgresNIO
import StrataRuntime

/// A record that PostgreSQL stores: a ``StrataRecord``, read and bound through
/// ``StrataPostgresRow`` and `PostgresBindings`. Generated entity structs conform, with
/// ``StrataRecord/strataStored`` (the record with its dates to the microsecond) when they have
/// dates; ``PostgresAccess`` and ``PostgresRepository`` run every operation on it. It adds no
/// requirement of its own: the executor runs plans of any ``StrataRecord``.
public protocol PostgresRecord: StrataRecord {}

/// A result row, read cell by cell in column order (``StrataRowReader``): what records and query
/// rows are decoded from on PostgreSQL, in its binary format through PostgresNIO's own decoders.
///
/// Each scalar type's read is its own function, called directly and not inlined into every
/// record's `init(row:)`: each is PostgresNIO's whole decoder for its type, and inlined at every
/// column they made the optimizer spend most of a release build of generated code on them. A
/// direct call per value costs little next to the wire format's parsing (see
/// Docs/DesignNotes/ReleaseCompileTime.md).
///
/// | Swift | PostgreSQL |
/// |---|---|
/// | `String` | `TEXT` |
/// | `Int16`, `Int32`, `Int64`, `Int` | `SMALLINT`, `INTEGER`, `BIGINT`, `BIGINT` |
/// | `Double`, `Float` | `DOUBLE PRECISION`, `REAL` |
/// | `Bool` | `BOOLEAN` |
/// | `UUID` | `UUID` |
/// | `Date` | `TIMESTAMPTZ` (microseconds: see ``PostgresStorage``), `DATE` for `format: date` |
/// | `Data` | `BYTEA` |
/// | `Decimal` | `NUMERIC` |
/// | JSON value types | `JSONB` |
public struct StrataPostgresRow: StrataRowReader {
    @usableFromInline let row: PostgresRow
    @usableFromInline var cells: PostgresRow.Iterator
    @usableFromInline var position = 0
    /// The cell ``readNull()`` found not NULL, read next.
    @usableFromInline var pending: PostgresCell?

    /// The cells of `row`, from the first.
    @inlinable
    public init(_ row: PostgresRow) {
        self.row = row
        cells = row.makeIterator()
    }

    /// The value of `row`, read from its first cell.
    @inlinable
    public static func decode<Row: StrataRowDecodable>(_ type: Row.Type, _ row: PostgresRow) throws -> Row {
        var cells = StrataPostgresRow(row)
        return try Row(row: &cells)
    }

    /// The next cell. A call, not inlined into every column of every record's `init(row:)`:
    /// PostgresNIO's iterator reads the cell's length and bytes from the row's buffer.
    @usableFromInline @inline(never)
    mutating func nextCell() throws -> PostgresCell {
        if let cell = pending {
            pending = nil
            return cell
        }
        guard let cell = cells.next() else { throw StrataDecodingError.missingColumn(position: position) }
        position += 1
        return cell
    }

    /// The next cell through PostgresNIO's decoder for `Value`; an error names the type `name`
    /// (the Swift type read through `Value`), or `Value`.
    @usableFromInline @inline(never)
    mutating func decoded<Value: PostgresDecodable>(_ type: Value.Type, as name: String? = nil) throws -> Value {
        let cell = try nextCell()
        guard cell.bytes != nil else { throw StrataDecodingError.unexpectedNull(column: cell.columnName) }
        do {
            return try cell.decode(Value.self)
        } catch {
            throw StrataDecodingError.malformed(column: cell.columnName, type: name ?? String(describing: Value.self))
        }
    }

    @inlinable
    public mutating func readNull() throws -> Bool {
        let cell = try nextCell()
        guard cell.bytes != nil else { return true }
        pending = cell
        return false
    }

    @inline(never) public mutating func read(_ type: String.Type) throws -> String { try decoded(type) }
    @inline(never) public mutating func read(_ type: Int.Type) throws -> Int { try decoded(type) }
    @inline(never) public mutating func read(_ type: Int64.Type) throws -> Int64 { try decoded(type) }
    @inline(never) public mutating func read(_ type: Int32.Type) throws -> Int32 { try decoded(type) }
    @inline(never) public mutating func read(_ type: Int16.Type) throws -> Int16 { try decoded(type) }
    @inline(never) public mutating func read(_ type: Double.Type) throws -> Double { try decoded(type) }
    @inline(never) public mutating func read(_ type: Float.Type) throws -> Float { try decoded(type) }
    @inline(never) public mutating func read(_ type: Bool.Type) throws -> Bool { try decoded(type) }
    @inline(never) public mutating func read(_ type: UUID.Type) throws -> UUID { try decoded(type) }
    @inline(never) public mutating func read(_ type: Data.Type) throws -> Data { try decoded(type) }
    /// A `NUMERIC` no Decimal equals (`NaN`, an infinity, more digits than a Decimal holds) is an error.
    @inline(never) public mutating func read(_ type: Decimal.Type) throws -> Decimal {
        try decoded(StrataPostgresNumeric.self, as: "Decimal").decimal
    }

    /// A native array of the element type's (`TEXT[]`, `BIGINT[]`…; `TIMESTAMPTZ[]` to the
    /// microsecond, `NUMERIC[]`, `BYTEA[]`).
    @inline(never)
    public mutating func readArray(_ kind: StrataArray.Kind) throws -> StrataArray {
        switch kind {
        case .string: .strings(try decoded([String].self))
        case .int: .ints(try decoded([Int].self))
        case .int64: .int64s(try decoded([Int64].self))
        case .int32: .int32s(try decoded([Int32].self))
        case .int16: .int16s(try decoded([Int16].self))
        case .double: .doubles(try decoded([Double].self))
        case .float: .floats(try decoded([Float].self))
        case .bool: .bools(try decoded([Bool].self))
        case .uuid: .uuids(try decoded([UUID].self))
        case .date: .dates(try decoded([StrataPostgresTimestamp].self, as: "[Date]").map(\.date))
        case .decimal: .decimals(try decoded([StrataPostgresNumeric].self, as: "[Decimal]").map(\.decimal))
        case .data: .data(try decoded([StrataPostgresBytes].self, as: "[Data]").map(\.data))
        }
    }

    /// A `JSONB` value, parsed.
    @inline(never)
    public mutating func readJSON() throws -> StrataJSON {
        try nextCell().strataJSON()
    }

    /// A `TIMESTAMPTZ` to the microsecond (``StrataPostgresTimestamp``), or a `DATE`.
    @inline(never)
    public mutating func read(_ type: Date.Type) throws -> Date {
        try decoded(StrataPostgresTimestamp.self).date
    }

    /// A date: PostgreSQL stores a field declared with `format:` natively (`DATE` or `TIMESTAMPTZ`).
    @inlinable
    public mutating func read(_ type: Date.Type, as format: SQLiteDateText) throws -> Date {
        try read(Date.self)
    }

    public var previousColumnName: String {
        let cells = PostgresRandomAccessRow(row)
        return position > 0 && position <= cells.count ? cells[position - 1].columnName : "#\(position)"
    }
}

/// PostgresNIO's parameters of a statement, bound in order in PostgreSQL's binary format: what
/// records, keys and query parameters are bound to on PostgreSQL (``StrataValueBinder``).
/// Every bind is `throws`, as the requirement is, although most cannot fail: the same call
/// (`try $0.bind(isDone)`) reads alike on every database, without a warning.
extension PostgresBindings: StrataValueBinder {
    @inlinable public mutating func bindNull() throws { appendNull() }
    @inline(never) public mutating func bind(_ value: String) throws { append(value) }
    @inline(never) public mutating func bind(_ value: Int) throws { append(value) }
    @inline(never) public mutating func bind(_ value: Int64) throws { append(value) }
    @inline(never) public mutating func bind(_ value: Int32) throws { append(value) }
    @inline(never) public mutating func bind(_ value: Int16) throws { append(value) }
    @inline(never) public mutating func bind(_ value: Double) throws { append(value) }
    @inline(never) public mutating func bind(_ value: Float) throws { append(value) }
    @inline(never) public mutating func bind(_ value: Bool) throws { append(value) }
    @inline(never) public mutating func bind(_ value: UUID) throws { append(value) }
    @inline(never) public mutating func bind(_ value: Data) throws { try append(value) }
    /// `Decimal.nan`, which `NUMERIC`'s binary coding has no form for, throws.
    @inline(never) public mutating func bind(_ value: Decimal) throws { try append(StrataPostgresNumeric(value)) }
    @inline(never) public mutating func bind(json text: String) throws { append(StrataPostgresJSONB(text: text)) }

    /// Binds a native array of the element type's (Dates rounded to the nearest microsecond).
    @inline(never)
    public mutating func bindArray(_ array: StrataArray) throws {
        switch array {
        case .strings(let values): append(values)
        case .ints(let values): append(values)
        case .int64s(let values): append(values)
        case .int32s(let values): append(values)
        case .int16s(let values): append(values)
        case .doubles(let values): append(values)
        case .floats(let values): append(values)
        case .bools(let values): append(values)
        case .uuids(let values): append(values)
        case .dates(let values): try append(values.map { StrataPostgresTimestamp($0) })
        case .decimals(let values): try append(values.map { StrataPostgresNumeric($0) })
        case .data(let values): try append(values.map { StrataPostgresBytes($0) })
        }
    }

    /// Binds the date rounded to the nearest microsecond, the precision of `TIMESTAMPTZ`.
    @inline(never) public mutating func bind(_ value: Date) throws { try append(StrataPostgresTimestamp(value)) }

    /// Binds the date itself: PostgreSQL stores a field declared with `format:` natively.
    @inlinable public mutating func bind(_ value: Date, as format: SQLiteDateText) throws { try bind(value) }
}
