import Foundation
import StrataStorage

/// The columns of a record type, for filters, sorts and assignments: `$0.isDone` in a filter is
/// the `StrataColumn<TODOItem, Bool>` of the record's `isDone` property, found by its key path in
/// ``StrataTable/columns``. Comparing a column with a value of another type does not compile.
@dynamicMemberLookup
public struct StrataColumns<Record: StrataRecord>: Sendable {
    /// The columns of `Record`'s table.
    @inlinable
    public init() {}

    /// The column that stores the property at `keyPath`.
    @inlinable
    public subscript<Value: StrataColumnValue>(dynamicMember keyPath: KeyPath<Record, Value> & Sendable)
        -> StrataColumn<Record, Value>
    {
        let table = Record.strataTable
        return StrataColumn(sql: table.column(keyPath), dateText: table.dateText(keyPath))
    }
}

/// A record type stored in one table: what every database runtime needs to know about it,
/// whatever the database. Generated entity structs conform; the behaviour (insert, find, fetch,
/// update, delete, observe) lives in the runtime, as GRDB's record protocols do it.
///
/// Its columns are read and bound the same way on every database, through that database's
/// ``StrataRowReader`` and ``StrataValueBinder``.
public protocol StrataRecord: StrataRowDecodable, Sendable {
    /// The columns of the record's table, for type-checked filters and sorts.
    typealias Columns = StrataColumns<Self>
    /// The primary key: the key field's type, or a tuple of the key fields' types in key order.
    associatedtype Key: Sendable

    /// The table: its name, its columns in field order, its primary key.
    static var strataTable: StrataTable<Self> { get }

    /// The record's primary key, or nil while the database has not assigned it (an
    /// autoincremented key before the insert).
    var strataKey: Key? { get }

    /// The record of a row that selects ``StrataTable/selection``, read column by column in field order.
    init(row: inout some StrataRowReader) throws
    /// Binds every column to the next parameters, in field order.
    func bind(to binder: inout some StrataValueBinder) throws
    /// Binds a primary key to the next parameters, in key order.
    static func bind(key: Key, to binder: inout some StrataValueBinder) throws
    /// The record as its database stores it: what an insert returns without reading the row back.
    /// PostgreSQL keeps dates to the microsecond: generated for records with dates; the record
    /// itself otherwise.
    var strataStored: Self { get }
}

extension StrataRecord {
    /// The record itself: its columns store every value exactly.
    @inlinable
    public var strataStored: Self { self }
}
