import PostgresNIO
import StrataRuntime

extension PostgresStore {
    /// Runs an operation's plan: on a connection, in one transaction when it writes.
    @inlinable
    public func run<Output: Sendable>(_ plan: StrataPlan<Record, Output>) async throws -> Output {
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

    // MARK: Insert

    /// Inserts a record and returns it as stored (with its assigned key, for an autoincremented
    /// key; with its dates to the microsecond).
    @inlinable
    @discardableResult
    public func insert(_ record: Record) async throws -> Record { try await run(.insert(record)) }

    /// Inserts records in order, all or none, and returns them as stored.
    @inlinable
    @discardableResult
    public func insert(contentsOf records: some Sequence<Record> & Sendable) async throws -> [Record] {
        try await write { connection in try await connection.strataInsert(Array(records)) }
    }

    /// Inserts the record, or replaces the stored one that has its key, and returns it as stored.
    @inlinable
    @discardableResult
    public func upsert(_ record: Record) async throws -> Record { try await run(.upsert(record)) }

    // MARK: Read

    /// The record with this primary key (a tuple in key order for a composite key), or nil.
    @inlinable
    public func find(id key: Record.Key) async throws -> Record? { try await run(.find(id: key)) }

    /// The records matching `filter` (all when nil), sorted by `order`, skipping `offset`, at most `limit`.
    @inlinable
    public func fetchAll(
        where filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil, limit: Int? = nil,
        offset: Int? = nil
    ) async throws -> [Record] {
        try await run(.fetchAll(where: filter, orderBy: order, limit: limit, offset: offset))
    }

    /// The first record matching `filter` (any when nil) in the order of `order`, or nil.
    @inlinable
    public func fetchOne(where filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil)
        async throws -> Record?
    {
        try await run(.fetchOne(where: filter, orderBy: order))
    }

    /// The number of records matching `filter` (all when nil).
    @inlinable
    public func count(where filter: StrataFilter<Record>? = nil) async throws -> Int {
        try await run(.count(where: filter))
    }

    /// True when a record matches `filter` (when there is any record, for nil).
    @inlinable
    public func exists(where filter: StrataFilter<Record>? = nil) async throws -> Bool {
        try await run(.exists(where: filter))
    }

    /// The record of another type with this key, or nil: what a reference reads.
    @inlinable
    public func find<Other: PostgresRecord>(_ type: Other.Type, id key: Other.Key) async throws -> Other? {
        let plan = StrataPlan<Other, Other?>.find(id: key)
        return try await read { connection in try await connection.strataRun(plan) }
    }

    /// The records of another type matching `filter`, sorted by `order`: what `hasMany` reads.
    @inlinable
    public func fetchAll<Other: PostgresRecord>(
        _ type: Other.Type, where filter: StrataFilter<Other>? = nil, orderBy order: StrataSort<Other>? = nil
    ) async throws -> [Other] {
        let plan = StrataPlan<Other, [Other]>.fetchAll(where: filter, orderBy: order)
        return try await read { connection in try await connection.strataRun(plan) }
    }

    // MARK: Update

    /// Replaces the stored record that has `record`'s key with `record`; false when there is none.
    @inlinable
    @discardableResult
    public func update(_ record: Record) async throws -> Bool { try await run(.update(record)) }

    /// Sets columns of the stored record with this key and returns it as stored (nil when there is none).
    @inlinable
    @discardableResult
    public func update(id key: Record.Key, set assignments: (Record.Columns) -> [StrataAssignment<Record>]) async throws
        -> Record?
    {
        try await run(.update(id: key, set: assignments(Record.Columns())))
    }

    /// Changes the stored record that has `record`'s key as `change` changes a copy of `record`,
    /// writing only the columns whose values then differ from `record`'s (none: nothing is
    /// written), and returns the record as stored afterwards (nil when there is none):
    ///
    /// ```swift
    /// try await db.notes.updateChanges(note) { $0.pinned = true; $0.tag = nil }
    /// ```
    ///
    /// The key is not changed (a change to it is ignored): the stored record is found by
    /// `record`'s key. Another session's changes to the other columns are kept.
    @discardableResult
    public func updateChanges(_ record: Record, _ change: (inout Record) throws -> Void) async throws -> Record? {
        try await run(.updateChanges(record, change))
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing) and returns the record as stored afterwards (nil when there is none).
    @inlinable
    @discardableResult
    public func update(_ record: Record, changing changes: (Record.Columns) -> [StrataAssignment<Record>?]) async throws
        -> Record?
    {
        try await run(.update(record, changing: changes(Record.Columns())))
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing: `.set("title", ifGiven: newTitle)`) and returns the record as stored afterwards (nil
    /// when there is none): what the deprecated generated `update(_:field:…)` methods call.
    @discardableResult
    public func update(_ record: Record, changing changes: [StrataAssignment<Record>?]) async throws -> Record? {
        try await run(.update(record, changing: changes))
    }

    /// Sets columns of every record matching `filter` (all when nil); returns how many changed.
    @inlinable
    @discardableResult
    public func updateAll(
        where filter: StrataFilter<Record>? = nil, set assignments: (Record.Columns) -> [StrataAssignment<Record>]
    ) async throws -> Int {
        try await run(.updateAll(where: filter, set: assignments))
    }

    // MARK: Delete

    /// Deletes the stored record that has `record`'s key; false when there is none.
    @inlinable
    @discardableResult
    public func delete(_ record: Record) async throws -> Bool { try await run(.delete(record)) }

    /// Deletes the record with this key; false when there is none.
    @inlinable
    @discardableResult
    public func delete(id key: Record.Key) async throws -> Bool { try await run(.delete(id: key)) }

    /// Deletes every record matching `filter` (all when nil) and returns how many were deleted.
    @inlinable
    @discardableResult
    public func deleteAll(where filter: StrataFilter<Record>? = nil) async throws -> Int {
        try await run(.deleteAll(where: filter))
    }
}
