import StrataRuntime

/// Records of one type in a SQLite database: the operations every entity has, written once,
/// for ``StrataAccess`` (on one connection, inside the caller's transaction) and
/// ``StrataRepository`` (on the database, each call its own read or transaction).
///
/// A store only says how it reads and writes; every operation is a generic extension method
/// specialised for the record type (`@inlinable`). Generated code adds what differs per entity
/// (updates of chosen fields, references, `hasMany`, finds by a key that is not one `id` field)
/// in an extension `where Record == Entity`, so each of those exists once for both stores.
public protocol StrataRecordStore<Record> {
    /// The record type.
    associatedtype Record: StrataSQLiteRecord

    /// Runs `body` on a connection that can read: it sees one consistent state of the database.
    func read<T>(_ body: (Database) throws -> T) throws -> T
    /// Runs `body` on a connection that can write: as a whole, or not at all.
    func write<T>(_ body: (Database) throws -> T) throws -> T
}

extension StrataRecordStore {
    // MARK: Insert

    /// Inserts a record and returns it as stored (with its assigned key, for an autoincremented key).
    @inlinable
    @discardableResult
    public func insert(_ record: Record) throws -> Record {
        try write { db in try Self.run(Record.strataTable.sqlite.insert, storing: record, in: db) }
    }

    /// Inserts records in order, all or none, and returns them as stored.
    @inlinable
    @discardableResult
    public func insert(contentsOf records: some Sequence<Record>) throws -> [Record] {
        // Read once, not per row: the table description is a static of the record type.
        let table = Record.strataTable
        return try write { db in
            let statement = try StrataStatement(db, sql: table.sqlite.insert)
            var stored = Array(records)
            try stored.withUnsafeMutableBufferPointer { buffer in
                try statement.executeEach(
                    buffer.indices,
                    bind: { index, handle in
                        var arguments = StrataSQLiteArguments(handle)
                        try buffer[index].bind(to: &arguments)
                    },
                    afterEach: { index in
                        if table.assignsKey { try buffer[index].didInsert(rowID: db.lastInsertedRowID) }
                    }
                )
            }
            return stored
        }
    }

    /// Inserts the record, or replaces the stored one that has its key, and returns it as stored.
    @inlinable
    @discardableResult
    public func upsert(_ record: Record) throws -> Record {
        // Without a key (an autoincremented one not yet assigned) it is an insert. With one, the
        // record keeps it: after an update, SQLite's last inserted rowid is another row's.
        guard record.strataKey != nil else { return try insert(record) }
        return try write { db in
            let statement = try StrataStatement(db, sql: Record.strataTable.sqlite.upsert)
            var arguments = StrataSQLiteArguments(statement.handle)
            try record.bind(to: &arguments)
            try statement.execute()
            return record
        }
    }

    /// Runs an insert statement bound to `record`; returns it with the assigned key.
    @inlinable
    static func run(_ sql: String, storing record: Record, in db: Database) throws -> Record {
        let statement = try StrataStatement(db, sql: sql)
        var arguments = StrataSQLiteArguments(statement.handle)
        try record.bind(to: &arguments)
        try statement.execute()
        var stored = record
        try stored.didInsert(rowID: db.lastInsertedRowID)
        return stored
    }

    // MARK: Read

    /// The record with this primary key (a tuple in key order for a composite key), or nil.
    @inlinable
    public func find(id key: Record.Key) throws -> Record? {
        try read { db in
            let statement = try StrataStatement(db, sql: Record.strataTable.sqlite.find)
            var arguments = StrataSQLiteArguments(statement.handle)
            try Record.bind(key: key, to: &arguments)
            return try statement.fetchOne { try Record(row: StrataSQLiteRow($0)) }
        }
    }

    /// The records matching `filter` (all when nil), sorted by `order`, skipping `offset`, at most `limit`.
    @inlinable
    public func fetchAll(
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) throws -> [Record] {
        let query = StrataSQL.select(Record.self, where: filter, orderBy: order, limit: limit, offset: offset)
        return try read { db in try StrataStatement(db, query).fetchAll { try Record(row: StrataSQLiteRow($0)) } }
    }

    /// The first record matching `filter` (any when nil) in the order of `order`, or nil.
    @inlinable
    public func fetchOne(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil, orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])? = nil) throws -> Record? {
        let query = StrataSQL.select(Record.self, where: filter, orderBy: order, limit: 1)
        return try read { db in try StrataStatement(db, query).fetchOne { try Record(row: StrataSQLiteRow($0)) } }
    }

    /// The number of records matching `filter` (all when nil).
    @inlinable
    public func count(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil) throws -> Int {
        let query = StrataSQL.count(from: Record.strataTable.quotedName, where: filter?(Record.Columns()))
        return try read { db in Int(try StrataStatement(db, query).fetchInteger()) }
    }

    /// True when a record matches `filter` (when there is any record, for nil).
    @inlinable
    public func exists(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil) throws -> Bool {
        let query = StrataSQL.exists(in: Record.strataTable.quotedName, where: filter?(Record.Columns()))
        return try read { db in try StrataStatement(db, query).fetchInteger() != 0 }
    }

    /// The record of another type with this key, or nil: what a reference reads. Not inlinable:
    /// the generated reference accessors call it, and specialising it for every entity slowed
    /// release builds of the generated code.
    public func find<Other: StrataSQLiteRecord>(_ type: Other.Type, id key: Other.Key) throws -> Other? {
        try read { db in try StrataAccess<Other>(db).find(id: key) }
    }

    /// The records of another type matching `filter`, sorted by `order`: what `hasMany` reads.
    /// Not inlinable, like ``find(_:id:)``.
    public func fetchAll<Other: StrataSQLiteRecord>(
        _ type: Other.Type,
        where filter: ((Other.Columns) -> StrataPredicate<Other>)? = nil,
        orderBy order: ((Other.Columns) -> [StrataOrdering<Other>])? = nil
    ) throws -> [Other] {
        try read { db in try StrataAccess<Other>(db).fetchAll(where: filter, orderBy: order) }
    }

    // MARK: Update

    /// Replaces the stored record that has `record`'s key with `record`; false when there is none.
    @inlinable
    @discardableResult
    public func update(_ record: Record) throws -> Bool {
        guard record.strataKey != nil else { return false }
        guard let sql = Record.strataTable.sqlite.update else { return try isStored(record) }
        return try write { db in
            let statement = try StrataStatement(db, sql: sql)
            var arguments = StrataSQLiteArguments(statement.handle)
            try record.bind(to: &arguments)
            try statement.execute()
            return db.changesCount > 0
        }
    }

    /// Sets columns of the stored record with this key and returns it as stored (nil when there is none).
    @discardableResult
    public func update(id key: Record.Key, set assignments: (Record.Columns) -> [StrataAssignment<Record>]) throws -> Record? {
        let changes = assignments(Record.Columns())
        return try write { db in
            let access = StrataAccess<Record>(db)
            guard !changes.isEmpty else { return try access.find(id: key) }
            let table = Record.strataTable
            let statement = try StrataStatement(db, sql: table.updateSQL(setting: changes.map(\.column)))
            var arguments = StrataSQLiteArguments(statement.handle)
            try arguments.bind(changes.map(\.value))
            try Record.bind(key: key, to: &arguments)
            try statement.execute()
            return try access.find(id: key)
        }
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
        guard let key = record.strataKey else { return nil }
        var changed = record
        try change(&changed)
        let assignments = Record.strataTable.changes(from: record, to: changed)
        guard !assignments.isEmpty else { return try find(id: key) }
        return try update(id: key, set: { _ in assignments })
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing) and returns the record as stored afterwards (nil when there is none). Not
    /// inlinable (nor is `update(id:set:)`): an update is one statement, and a copy of it in
    /// every entity's method slowed release builds.
    @discardableResult
    public func update(_ record: Record, changing changes: (Record.Columns) -> [StrataAssignment<Record>?]) throws
        -> Record?
    {
        guard let key = record.strataKey else { return nil }
        return try update(id: key, set: { changes($0).compactMap { $0 } })
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing: `.set("title", ifGiven: newTitle)`) and returns the record as stored afterwards (nil
    /// when there is none): what the generated `update(_:field:…)` methods call.
    @discardableResult
    public func update(_ record: Record, changing changes: [StrataAssignment<Record>?]) throws -> Record? {
        guard let key = record.strataKey else { return nil }
        return try update(id: key, set: { _ in changes.compactMap { $0 } })
    }

    /// Sets columns of every record matching `filter` (all when nil); returns how many changed.
    @inlinable
    @discardableResult
    public func updateAll(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil, set assignments: (Record.Columns) -> [StrataAssignment<Record>]) throws -> Int {
        let columns = Record.Columns()
        let table = Record.strataTable.quotedName
        guard let query = StrataSQL.update(table, set: assignments(columns), where: filter?(columns)) else { return 0 }
        return try write { db in
            try StrataStatement(db, query).execute()
            return db.changesCount
        }
    }

    // MARK: Delete

    /// Deletes the stored record that has `record`'s key; false when there is none.
    @inlinable
    @discardableResult
    public func delete(_ record: Record) throws -> Bool {
        guard let key = record.strataKey else { return false }
        return try delete(id: key)
    }

    /// Deletes the record with this key; false when there is none.
    @inlinable
    @discardableResult
    public func delete(id key: Record.Key) throws -> Bool {
        try write { db in
            let statement = try StrataStatement(db, sql: Record.strataTable.sqlite.delete)
            var arguments = StrataSQLiteArguments(statement.handle)
            try Record.bind(key: key, to: &arguments)
            try statement.execute()
            return db.changesCount > 0
        }
    }

    /// Deletes every record matching `filter` (all when nil) and returns how many were deleted.
    @inlinable
    @discardableResult
    public func deleteAll(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil) throws -> Int {
        let query = StrataSQL.delete(from: Record.strataTable.quotedName, where: filter?(Record.Columns()))
        return try write { db in
            try StrataStatement(db, query).execute()
            return db.changesCount
        }
    }

    /// True when a record with `record`'s key is stored.
    @inlinable
    func isStored(_ record: Record) throws -> Bool {
        guard let key = record.strataKey else { return false }
        return try find(id: key) != nil
    }
}

/// The records of one type on one connection, inside the current transaction or read:
/// `db.write { $0.todoItems.insert(item) }`, or on any GRDB `Database`.
public struct StrataAccess<Record: StrataSQLiteRecord>: StrataRecordStore {
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
public struct StrataRepository<Record: StrataSQLiteRecord>: StrataRecordStore, Sendable {
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
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) -> AsyncValueObservation<[Record]> where Record: Equatable {
        let query = StrataSQL.select(Record.self, where: filter, orderBy: order, limit: limit, offset: offset)
        return StrataObservation.values(in: writer) { db in
            try StrataStatement(db, query).fetchAll { try Record(row: StrataSQLiteRow($0)) }
        }
    }

    /// The number of records matching `filter`, now and after every change that affects it.
    public func observeCount(where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil) -> AsyncValueObservation<Int> {
        let query = StrataSQL.count(from: Record.strataTable.quotedName, where: filter?(Record.Columns()))
        return StrataObservation.values(in: writer) { db in Int(try StrataStatement(db, query).fetchInteger()) }
    }

    /// The record with this key (nil while there is none), now and after every change to it.
    public func observe(id key: Record.Key) -> AsyncValueObservation<Record?> where Record: Equatable {
        StrataObservation.values(in: writer) { db in try StrataAccess<Record>(db).find(id: key) }
    }
}
