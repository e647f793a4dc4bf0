/// Records of one type in a database that runs statements asynchronously (PostgreSQL's
/// `PostgresStore`): the operations of ``StrataStore``, async, written once for every such
/// database.
///
/// A database fills in three requirements: ``run(_:)``, ``rows(_:)`` and
/// ``insert(contentsOf:)``; every other operation is a generic extension method over them,
/// specialised for the record type (`@inlinable`). Generated code adds what differs per entity
/// in an extension of the database's store `where Record == Entity`.
public protocol StrataAsyncStore<Record>: Sendable {
    /// The record type.
    associatedtype Record: StrataRecord

    /// Runs an operation's plan (of this store's record type, or of another: references and
    /// `hasMany` read other types): on a connection, in one transaction when it writes.
    func run<R: StrataRecord, Output: Sendable>(_ plan: StrataPlan<R, Output>) async throws -> Output
    /// Runs a query of joined, counted or aggregated rows, on a connection.
    func rows<Shape: StrataRowShape>(_ query: StrataRowQuery<Shape>) async throws -> [Shape.Row]
    where Shape.Row: Sendable
    /// Inserts records in order, all or none, and returns them as stored.
    @discardableResult
    func insert(contentsOf records: some Sequence<Record> & Sendable) async throws -> [Record]
}

extension StrataAsyncStore {
    // MARK: Insert

    /// Inserts a record and returns it as stored (with its assigned key, for an autoincremented
    /// key; with its values as the database keeps them, such as dates to the microsecond on PostgreSQL).
    @inlinable
    @discardableResult
    public func insert(_ record: Record) async throws -> Record { try await run(.insert(record)) }

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

    /// The record of another type with this key, or nil: what a reference reads. Not inlinable:
    /// the generated reference accessors call it, and specialising it for every entity slowed
    /// release builds of the generated code.
    public func find<Other: StrataRecord>(_ type: Other.Type, id key: Other.Key) async throws -> Other? {
        try await run(StrataPlan<Other, Other?>.find(id: key))
    }

    /// The records of another type matching `filter`, sorted by `order`: what `hasMany` reads.
    /// Not inlinable, like ``find(_:id:)``.
    public func fetchAll<Other: StrataRecord>(
        _ type: Other.Type, where filter: StrataFilter<Other>? = nil, orderBy order: StrataSort<Other>? = nil
    ) async throws -> [Other] {
        try await run(StrataPlan<Other, [Other]>.fetchAll(where: filter, orderBy: order))
    }

    // MARK: Update

    /// Replaces the stored record that has `record`'s key with `record`; false when there is none.
    @inlinable
    @discardableResult
    public func update(_ record: Record) async throws -> Bool { try await run(.update(record)) }

    /// Sets columns of the stored record with this key and returns it as stored (nil when there is none).
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
    /// try await db.todoItems.updateChanges(item) { $0.isDone = true; $0.detail = nil }
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
    public func delete(id key: Record.Key) async throws -> Bool { try await run(StrataPlan<Record, Bool>.delete(id: key)) }

    /// Deletes every record matching `filter` (all when nil) and returns how many were deleted.
    @inlinable
    @discardableResult
    public func deleteAll(where filter: StrataFilter<Record>? = nil) async throws -> Int {
        try await run(.deleteAll(where: filter))
    }
}
