import PostgresNIO
import StrataRuntime

extension StrataPostgresStore {
    // MARK: Insert

    /// Inserts a record and returns it as stored (with its assigned key, for an autoincremented
    /// key; with its dates to the microsecond).
    @inlinable
    @discardableResult
    public func insert(_ record: Record) async throws -> Record {
        try await write { connection in try await connection.strataStore(record, upsert: false) }
    }

    /// Inserts records in order, all or none, and returns them as stored.
    @inlinable
    @discardableResult
    public func insert(contentsOf records: some Sequence<Record> & Sendable) async throws -> [Record] {
        try await write { connection in try await connection.strataInsert(Array(records)) }
    }

    /// Inserts the record, or replaces the stored one that has its key, and returns it as stored.
    @inlinable
    @discardableResult
    public func upsert(_ record: Record) async throws -> Record {
        guard record.strataKey != nil else { return try await insert(record) }
        return try await write { connection in try await connection.strataStore(record, upsert: true) }
    }

    // MARK: Read

    /// The record with this primary key (a tuple in key order for a composite key), or nil.
    @inlinable
    public func find(id key: Record.Key) async throws -> Record? {
        let statement = StrataPostgresKeyStatement<Record, StrataPostgresFindKind>(key, StrataPostgresFindKind.self)
        return try await read { connection in try await connection.strataRows(statement).first }
    }

    /// The records matching `filter` (all when nil), sorted by `order`, skipping `offset`, at most `limit`.
    @inlinable
    public func fetchAll(
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) async throws -> [Record] {
        let query = StrataSQL.select(Record.self, where: filter, orderBy: order, limit: limit, offset: offset)
        let statement = try PostgresQuery(strata: query)
        return try await read { connection in try await connection.strataRows(statement) }
    }

    /// The first record matching `filter` (any when nil) in the order of `order`, or nil.
    @inlinable
    public func fetchOne(
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])? = nil
    ) async throws -> Record? {
        try await fetchAll(where: filter, orderBy: order, limit: 1).first
    }

    /// The number of records matching `filter` (all when nil).
    @inlinable
    public func count(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil) async throws -> Int {
        let query = StrataSQL.count(from: Record.strataTable.quotedName, where: filter?(Record.Columns()))
        return try await read { connection in Int(try await connection.strataValue(query, as: Int64.self)) }
    }

    /// True when a record matches `filter` (when there is any record, for nil).
    @inlinable
    public func exists(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil) async throws -> Bool {
        let query = StrataSQL.exists(in: Record.strataTable.quotedName, where: filter?(Record.Columns()))
        return try await read { connection in try await connection.strataValue(query, as: Bool.self) }
    }

    /// The record of another type with this key, or nil: what a reference reads.
    @inlinable
    public func find<Other: StrataPostgresRecord>(_ type: Other.Type, id key: Other.Key) async throws -> Other? {
        let statement = StrataPostgresKeyStatement<Other, StrataPostgresFindKind>(key, StrataPostgresFindKind.self)
        return try await read { connection in try await connection.strataRows(statement).first }
    }

    /// The records of another type matching `filter`, sorted by `order`: what `hasMany` reads.
    @inlinable
    public func fetchAll<Other: StrataPostgresRecord>(
        _ type: Other.Type,
        where filter: ((Other.Columns) -> StrataPredicate<Other>)? = nil,
        orderBy order: ((Other.Columns) -> [StrataOrdering<Other>])? = nil
    ) async throws -> [Other] {
        let statement = try PostgresQuery(strata: StrataSQL.select(Other.self, where: filter, orderBy: order))
        return try await read { connection in try await connection.strataRows(statement) }
    }

    // MARK: Update

    /// Replaces the stored record that has `record`'s key with `record`; false when there is none.
    @inlinable
    @discardableResult
    public func update(_ record: Record) async throws -> Bool {
        guard let key = record.strataKey else { return false }
        guard Record.strataTable.postgres.update != nil else { return try await find(id: key) != nil }
        return try await write { connection in
            let statement = StrataPostgresRecordStatement(record, StrataPostgresUpdateKind.self)
            return !(try await connection.strataRows(statement).isEmpty)
        }
    }

    /// Sets columns of the stored record with this key and returns it as stored (nil when there is none).
    @inlinable
    @discardableResult
    public func update(id key: Record.Key, set assignments: (Record.Columns) -> [StrataAssignment<Record>]) async throws
        -> Record?
    {
        let changes = assignments(Record.Columns())
        guard !changes.isEmpty else { return try await find(id: key) }
        let table = Record.strataTable
        var bindings = PostgresBindings(capacity: changes.count + table.primaryKey.count)
        try bindings.strataAppend(changes.map(\.value))
        try Record.bind(key: key, to: &bindings)
        let sql = StrataPostgresTableSQL.update(table, setting: changes.map(\.column))
        let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
        return try await write { connection in
            let rows: [Record] = try await connection.strataRows(query)
            return rows.first
        }
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
        guard let key = record.strataKey else { return nil }
        var changed = record
        try change(&changed)
        let assignments = Record.strataTable.changes(from: record, to: changed)
        guard !assignments.isEmpty else { return try await find(id: key) }
        return try await update(id: key, set: { _ in assignments })
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing) and returns the record as stored afterwards (nil when there is none).
    @inlinable
    @discardableResult
    public func update(_ record: Record, changing changes: (Record.Columns) -> [StrataAssignment<Record>?]) async throws
        -> Record?
    {
        guard let key = record.strataKey else { return nil }
        return try await update(id: key, set: { changes($0).compactMap { $0 } })
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing: `.set("title", ifGiven: newTitle)`) and returns the record as stored afterwards (nil
    /// when there is none): what the generated `update(_:field:…)` methods call. Not inlinable:
    /// one update is one statement, and a copy in every entity's method slowed release builds.
    @discardableResult
    public func update(_ record: Record, changing changes: [StrataAssignment<Record>?]) async throws -> Record? {
        guard let key = record.strataKey else { return nil }
        return try await update(id: key, set: { _ in changes.compactMap { $0 } })
    }

    /// Sets columns of every record matching `filter` (all when nil); returns how many changed.
    @inlinable
    @discardableResult
    public func updateAll(
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil,
        set assignments: (Record.Columns) -> [StrataAssignment<Record>]
    ) async throws -> Int {
        let columns = Record.Columns()
        let table = Record.strataTable.quotedName
        guard let query = StrataSQL.update(table, set: assignments(columns), where: filter?(columns)) else { return 0 }
        return try await write { connection in try await connection.strataChangedRows(query) }
    }

    // MARK: Delete

    /// Deletes the stored record that has `record`'s key; false when there is none.
    @inlinable
    @discardableResult
    public func delete(_ record: Record) async throws -> Bool {
        guard let key = record.strataKey else { return false }
        return try await delete(id: key)
    }

    /// Deletes the record with this key; false when there is none.
    @inlinable
    @discardableResult
    public func delete(id key: Record.Key) async throws -> Bool {
        let statement = StrataPostgresKeyStatement<Record, StrataPostgresDeleteKind>(key, StrataPostgresDeleteKind.self)
        return try await write { connection in !(try await connection.strataRows(statement).isEmpty) }
    }

    /// Deletes every record matching `filter` (all when nil) and returns how many were deleted.
    @inlinable
    @discardableResult
    public func deleteAll(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil) async throws -> Int {
        let query = StrataSQL.delete(from: Record.strataTable.quotedName, where: filter?(Record.Columns()))
        return try await write { connection in try await connection.strataChangedRows(query) }
    }
}

extension PostgresConnection {
    /// Runs an `UPDATE` or `DELETE` and returns how many rows it changed.
    @inlinable
    func strataChangedRows(_ statement: StrataSQL) async throws -> Int {
        let counted = StrataSQL(
            sql: "WITH changed AS (\(statement.sql) RETURNING 1) SELECT COUNT(*) FROM changed",
            arguments: statement.arguments)
        return Int(try await strataValue(counted, as: Int64.self))
    }
}
