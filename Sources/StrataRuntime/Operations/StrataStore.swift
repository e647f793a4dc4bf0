/// Records of one type in a database that runs statements synchronously (SQLite's
/// `SQLiteStore`): the operations every entity has, written once for every such database.
///
/// A database fills in three requirements: ``run(_:)``, which runs an operation's plan
/// (``StrataPlan``), ``rows(_:)``, which runs a query of joined, counted or aggregated rows
/// (``StrataRowQuery``), and ``insert(contentsOf:)`` (batching is the database's). Every other
/// operation is a generic extension method over them, specialised for the record type
/// (`@inlinable`). Generated code adds what differs per entity in an extension of the database's
/// store `where Record == Entity`. ``StrataAsyncStore`` is the same surface, async.
public protocol StrataStore<Record> {
    /// The record type.
    associatedtype Record: StrataRecord

    /// Runs an operation's plan (of this store's record type, or of another: references and
    /// `hasMany` read other types): in one read, or in one transaction when it writes.
    func run<R: StrataRecord, Output>(_ plan: StrataPlan<R, Output>) throws -> Output
    /// Runs a query of joined, counted or aggregated rows, in one read.
    func rows<Shape: StrataRowShape>(_ query: StrataRowQuery<Shape>) throws -> [Shape.Row]
    /// Inserts records in order, all or none, and returns them as stored.
    @discardableResult
    func insert(contentsOf records: some Sequence<Record>) throws -> [Record]
}

extension StrataStore {
    // MARK: Insert

    /// Inserts a record and returns it as stored (with its assigned key, for an autoincremented key).
    @inlinable
    @discardableResult
    public func insert(_ record: Record) throws -> Record { try run(.insert(record)) }

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
    public func find<Other: StrataRecord>(_ type: Other.Type, id key: Other.Key) throws -> Other? {
        try run(StrataPlan<Other, Other?>.find(id: key))
    }

    /// The records of another type matching `filter`, sorted by `order`: what `hasMany` reads.
    /// Not inlinable, like ``find(_:id:)``.
    public func fetchAll<Other: StrataRecord>(
        _ type: Other.Type, where filter: StrataFilter<Other>? = nil, orderBy order: StrataSort<Other>? = nil
    ) throws -> [Other] {
        try run(StrataPlan<Other, [Other]>.fetchAll(where: filter, orderBy: order))
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
    public func delete(id key: Record.Key) throws -> Bool { try run(StrataPlan<Record, Bool>.delete(id: key)) }

    /// Deletes every record matching `filter` (all when nil) and returns how many were deleted.
    @inlinable
    @discardableResult
    public func deleteAll(where filter: StrataFilter<Record>? = nil) throws -> Int { try run(.deleteAll(where: filter)) }
}
