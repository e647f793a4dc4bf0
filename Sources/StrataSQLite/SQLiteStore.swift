import GRDB
import StrataRuntime

/// Records of one type in a SQLite database: ``StrataStore``'s operations, for ``SQLiteAccess``
/// (on one connection, inside the caller's transaction) and ``SQLiteRepository`` (on the
/// database, each call its own read or transaction).
///
/// A store only says how it reads and writes; every operation is a generic extension method
/// specialised for the record type (`@inlinable`). Generated code adds what differs per entity
/// (updates of chosen fields, references, `hasMany`, finds by a key that is not one `id` field)
/// in an extension `where Record == Entity`, so each of those exists once for both stores.
public protocol SQLiteStore<Record>: StrataStore {
    /// Runs `body` on a connection that can read: it sees one consistent state of the database.
    func read<T>(_ body: (Database) throws -> T) throws -> T
    /// Runs `body` on a connection that can write: as a whole, or not at all.
    func write<T>(_ body: (Database) throws -> T) throws -> T
}

extension SQLiteStore {
    /// Runs an operation's plan: in one read, or in one transaction when it writes.
    @inlinable
    public func run<R: StrataRecord, Output>(_ plan: StrataPlan<R, Output>) throws -> Output {
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

    /// Inserts records in order, all or none, and returns them as stored: one statement, bound
    /// again for each.
    @inlinable
    @discardableResult
    public func insert(contentsOf records: some Sequence<Record>) throws -> [Record] {
        try write { db in try SQLiteExecutor.insert(records, in: db) }
    }
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
