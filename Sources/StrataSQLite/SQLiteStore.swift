import GRDB
import StrataRuntime

/// Records of one type in a SQLite database: the operations every entity has, written once,
/// for ``SQLiteAccess`` (on one connection, inside the caller's transaction) and
/// ``SQLiteRepository`` (on the database, each call its own read or transaction).
///
/// A store only says how it reads and writes; every operation is a generic extension method
/// specialised for the record type (`@inlinable`). Generated code adds what differs per entity
/// (updates of chosen fields, references, `hasMany`, finds by a key that is not one `id` field)
/// in an extension `where Record == Entity`, so each of those exists once for both stores.
public protocol SQLiteStore<Record> {
    /// The record type.
    associatedtype Record: SQLiteRecord

    /// Runs `body` on a connection that can read: it sees one consistent state of the database.
    func read<T>(_ body: (Database) throws -> T) throws -> T
    /// Runs `body` on a connection that can write: as a whole, or not at all.
    func write<T>(_ body: (Database) throws -> T) throws -> T
}

extension SQLiteStore {
    /// Runs an operation's plan: in one read, or in one transaction when it writes.
    @inlinable
    public func run<Output>(_ plan: StrataPlan<Record, Output>) throws -> Output {
        if case .result(let output) = plan { return output }
        return try plan.writes
            ? write { db in try SQLiteExecutor.run(plan, in: db) }
            : read { db in try SQLiteExecutor.run(plan, in: db) }
    }

    /// Runs a query of joined, counted or aggregated rows, in one read.
    @inlinable
    public func rows<Shape>(_ query: StrataRowQuery<Shape>) throws -> [Shape.Row] {
        try read { db in try SQLiteExecutor.rows(query, in: db) }
    }

    // MARK: Insert

    /// Inserts a record and returns it as stored (with its assigned key, for an autoincremented key).
    @inlinable
    @discardableResult
    public func insert(_ record: Record) throws -> Record { try run(.insert(record)) }

    /// Inserts records in order, all or none, and returns them as stored.
    @inlinable
    @discardableResult
    public func insert(contentsOf records: some Sequence<Record>) throws -> [Record] {
        try write { db in try SQLiteExecutor.insert(records, in: db) }
    }

    /// Inserts the record, or replaces the stored one that has its key, and returns it as stored.
    @inlinable
    @discardableResult
    public func upsert(_ record: Record) throws -> Record { try run(.upsert(record)) }

    // MARK: Read

    /// The record with this primary key (a tuple in key order for a composite key), or nil.
    @inlinable
    public func find(id key: Record.Key) throws -> Record? { try run(.find(id: key)) }

    /// The records matching `filter` (all when nil), sorted by `order`, skipping `offset`, at most `limit`.
    @inlinable
    public func fetchAll(
        where filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil, limit: Int? = nil,
        offset: Int? = nil
    ) throws -> [Record] {
        try run(.fetchAll(where: filter, orderBy: order, limit: limit, offset: offset))
    }

    /// The first record matching `filter` (any when nil) in the order of `order`, or nil.
    @inlinable
    public func fetchOne(where filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil) throws
        -> Record?
    {
        try run(.fetchOne(where: filter, orderBy: order))
    }

    /// The number of records matching `filter` (all when nil).
    @inlinable
    public func count(where filter: StrataFilter<Record>? = nil) throws -> Int { try run(.count(where: filter)) }

    /// True when a record matches `filter` (when there is any record, for nil).
    @inlinable
    public func exists(where filter: StrataFilter<Record>? = nil) throws -> Bool { try run(.exists(where: filter)) }

    /// The record of another type with this key, or nil: what a reference reads. Not inlinable:
    /// the generated reference accessors call it, and specialising it for every entity slowed
    /// release builds of the generated code.
    public func find<Other: SQLiteRecord>(_ type: Other.Type, id key: Other.Key) throws -> Other? {
        try read { db in try SQLiteExecutor.run(StrataPlan<Other, Other?>.find(id: key), in: db) }
    }

    /// The records of another type matching `filter`, sorted by `order`: what `hasMany` reads.
    /// Not inlinable, like ``find(_:id:)``.
    public func fetchAll<Other: SQLiteRecord>(
        _ type: Other.Type, where filter: StrataFilter<Other>? = nil, orderBy order: StrataSort<Other>? = nil
    ) throws -> [Other] {
        try read { db in try SQLiteExecutor.run(StrataPlan<Other, [Other]>.fetchAll(where: filter, orderBy: order), in: db) }
    }

    // MARK: Update

    /// Replaces the stored record that has `record`'s key with `record`; false when there is none.
    @inlinable
    @discardableResult
    public func update(_ record: Record) throws -> Bool { try run(.update(record)) }

    /// Sets columns of the stored record with this key and returns it as stored (nil when there is none).
    @discardableResult
    public func update(id key: Record.Key, set assignments: (Record.Columns) -> [StrataAssignment<Record>]) throws
        -> Record?
    {
        try run(.update(id: key, set: assignments(Record.Columns())))
    }

    /// Changes the stored record that has `record`'s key as `change` changes a copy of `record`,
    /// writing only the columns whose values then differ from `record`'s (none: nothing is
    /// written), and returns the record as stored afterwards (nil when there is none):
    ///
    /// ```swift
    /// try db.todoItems.updateChanges(item) { $0.isDone = true; $0.detail = nil }
    /// ```
    ///
    /// The key is not changed (a change to it is ignored): the stored record is found by
    /// `record`'s key. Another session's changes to the other columns are kept.
    @discardableResult
    public func updateChanges(_ record: Record, _ change: (inout Record) throws -> Void) throws -> Record? {
        try run(.updateChanges(record, change))
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing) and returns the record as stored afterwards (nil when there is none).
    @discardableResult
    public func update(_ record: Record, changing changes: (Record.Columns) -> [StrataAssignment<Record>?]) throws
        -> Record?
    {
        try run(.update(record, changing: changes(Record.Columns())))
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing: `.set("title", ifGiven: newTitle)`) and returns the record as stored afterwards (nil
    /// when there is none): what the deprecated generated `update(_:field:…)` methods call.
    @discardableResult
    public func update(_ record: Record, changing changes: [StrataAssignment<Record>?]) throws -> Record? {
        try run(.update(record, changing: changes))
    }

    /// Sets columns of every record matching `filter` (all when nil); returns how many changed.
    @inlinable
    @discardableResult
    public func updateAll(
        where filter: StrataFilter<Record>? = nil, set assignments: (Record.Columns) -> [StrataAssignment<Record>]
    ) throws -> Int {
        try run(.updateAll(where: filter, set: assignments))
    }

    // MARK: Delete

    /// Deletes the stored record that has `record`'s key; false when there is none.
    @inlinable
    @discardableResult
    public func delete(_ record: Record) throws -> Bool { try run(.delete(record)) }

    /// Deletes the record with this key; false when there is none.
    @inlinable
    @discardableResult
    public func delete(id key: Record.Key) throws -> Bool { try run(.delete(id: key)) }

    /// Deletes every record matching `filter` (all when nil) and returns how many were deleted.
    @inlinable
    @discardableResult
    public func deleteAll(where filter: StrataFilter<Record>? = nil) throws -> Int { try run(.deleteAll(where: filter)) }
}

/// The records of one type on one connection, inside the current transaction or read:
/// `db.write { $0.todoItems.insert(item) }`, or on any GRDB `Database`.
public struct SQLiteAccess<Record: SQLiteRecord>: SQLiteStore {
    /// The connection.
    public let db: Database

    /// The records of `Record`'s table on `db`.
    @inlinable
    public init(_ db: Database) {
        self.db = db
    }

    /// Runs `body` on the connection.
    @inlinable
    public func read<T>(_ body: (Database) throws -> T) throws -> T { try body(db) }

    /// Runs `body` on the connection, inside the caller's transaction (if any).
    @inlinable
    public func write<T>(_ body: (Database) throws -> T) throws -> T { try body(db) }
}

/// The records of one type in a database: every call is one read or one transaction;
/// `observe…` methods follow a query as an `AsyncSequence`.
public struct SQLiteRepository<Record: SQLiteRecord>: SQLiteStore, Sendable {
    /// The database.
    public let writer: any DatabaseWriter

    /// The records of `Record`'s table in the database behind `writer`, which must be migrated.
    @inlinable
    public init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Runs `body` in one read.
    @inlinable
    public func read<T>(_ body: (Database) throws -> T) throws -> T { try writer.read(body) }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    @inlinable
    public func write<T>(_ body: (Database) throws -> T) throws -> T { try writer.write(body) }

    /// The records matching `filter`, sorted by `order`, now and after every change that affects them.
    public func observeAll(
        where filter: StrataFilter<Record>? = nil,
        orderBy order: StrataSort<Record>? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) -> AsyncValueObservation<[Record]> where Record: Equatable {
        let plan = StrataPlan<Record, [Record]>.fetchAll(where: filter, orderBy: order, limit: limit, offset: offset)
        return StrataObservation.values(in: writer) { db in try SQLiteExecutor.run(plan, in: db) }
    }

    /// The number of records matching `filter`, now and after every change that affects it.
    public func observeCount(where filter: StrataFilter<Record>? = nil) -> AsyncValueObservation<Int> {
        let plan = StrataPlan<Record, Int>.count(where: filter)
        return StrataObservation.values(in: writer) { db in try SQLiteExecutor.run(plan, in: db) }
    }

    /// The record with this key (nil while there is none), now and after every change to it.
    public func observe(id key: Record.Key) -> AsyncValueObservation<Record?> where Record: Equatable {
        let plan = StrataPlan<Record, Record?>.find(id: key)
        return StrataObservation.values(in: writer) { db in try SQLiteExecutor.run(plan, in: db) }
    }
}
