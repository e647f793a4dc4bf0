import PostgresNIO
import StrataRuntime

/// Records of one type in a PostgreSQL database: ``StrataAsyncStore``'s operations, for
/// ``PostgresAccess`` (on one connection, inside the caller's transaction) and
/// ``PostgresRepository`` (on a `PostgresClient`, each call its own connection or transaction).
///
/// The same operations as SQLite's `SQLiteStore`, async, with the same typed filters and
/// sorts. Table statements are prepared once per connection; inserts, upserts and updates return
/// the record as the database stored it, so what they return is what a fetch reads (read back with
/// `RETURNING` where the database decides: an assigned key, an update; otherwise the record with its
/// dates to the microsecond, without a read).
/// Generated code adds what differs per entity in an extension `where Record == Entity`.
public protocol PostgresStore<Record>: StrataAsyncStore where Record: PostgresRecord {
    /// Runs `body` on a connection that can read.
    func read<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T
    /// Runs `body` on a connection that can write: as a whole, or not at all.
    func write<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T
}

extension PostgresStore {
    /// Runs an operation's plan: on a connection, in one transaction when it writes.
    @inlinable
    public func run<R: StrataRecord, Output: Sendable>(_ plan: StrataPlan<R, Output>) async throws -> Output {
        if case .result(let output) = plan { return output }
        return try await plan.writes
            ? write { connection in try await connection.strataRun(plan) }
            : read { connection in try await connection.strataRun(plan) }
    }

    /// Runs a query of joined, counted or aggregated rows, on a connection.
    @inlinable
    public func rows<Shape>(_ query: StrataRowQuery<Shape>) async throws -> [Shape.Row] where Shape.Row: Sendable {
        try await read { connection in try await connection.strataRows(query) }
    }

    /// Inserts records in order, all or none, and returns them as stored: a thousand per statement,
    /// or one per statement when the database assigns their key.
    @inlinable
    @discardableResult
    public func insert(contentsOf records: some Sequence<Record> & Sendable) async throws -> [Record] {
        try await write { connection in try await connection.strataInsert(Array(records)) }
    }
}
