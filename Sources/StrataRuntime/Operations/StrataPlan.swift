/// What an operation on `Record`'s table does, and what it returns: at most one statement and
/// how its result becomes the operation's. Every operation is written once, as a plan
/// (``StrataPlan/find(id:)``…); each database's store runs plans, SQLite's synchronously and
/// PostgreSQL's asynchronously, so that a store method is one line: `try run(.find(id: key))`.
public enum StrataPlan<Record: StrataRecord, Output> {
    /// Nothing to run: the result is known.
    case result(Output)
    /// The records the statement returns.
    case records(StrataCommand<Record>, @Sendable ([Record]) -> Output)
    /// The number of rows the statement changed.
    case changes(StrataCommand<Record>, @Sendable (Int) -> Output)
    /// The integer the statement returns (one row, one column).
    case integer(StrataCommand<Record>, @Sendable (Int64) -> Output)
    /// Stores the command's record: the record as the database stores it, or the row the
    /// statement returns (a key the database assigned).
    case store(StrataCommand<Record>, @Sendable (Record) -> Output)

    /// True when the plan changes the database (runs in a transaction rather than a read).
    public var writes: Bool { command?.writes ?? false }

    /// The statement the plan runs, if any.
    public var command: StrataCommand<Record>? {
        switch self {
        case .result: nil
        case .records(let command, _), .changes(let command, _), .integer(let command, _), .store(let command, _):
            command
        }
    }
}

extension StrataPlan: Sendable where Output: Sendable {}

/// A filter over `Record`'s columns, as the store methods take it.
public typealias StrataFilter<Record: StrataRecord> = (Record.Columns) -> StrataPredicate<Record>
/// A sort over `Record`'s columns, as the store methods take it.
public typealias StrataSort<Record: StrataRecord> = (Record.Columns) -> [StrataOrdering<Record>]

// MARK: Insert

extension StrataPlan where Output == Record {
    /// Inserts a record; the record as stored (with its assigned key, for an autoincremented key).
    public static func insert(_ record: Record) -> Self {
        .store(StrataCommand(.table(.insert), binding: .record(record), writes: true)) { $0 }
    }

    /// Inserts the record, or replaces the stored one that has its key; the record as stored.
    /// Without a key (an autoincremented one not yet assigned) it is an insert.
    public static func upsert(_ record: Record) -> Self {
        guard record.strataKey != nil else { return insert(record) }
        return .store(StrataCommand(.table(.upsert), binding: .record(record), writes: true)) { $0 }
    }
}

// MARK: Read

extension StrataPlan where Output == Record? {
    /// The record with this primary key, or nil.
    public static func find(id key: Record.Key) -> Self {
        .records(StrataCommand(.table(.find), binding: .key(key), writes: false)) { $0.first }
    }

    /// The first record matching `filter` (any when nil) in the order of `order`, or nil.
    public static func fetchOne(where filter: StrataFilter<Record>?, orderBy order: StrataSort<Record>?) -> Self {
        .records(StrataCommand(.query(.select(Record.self, where: filter, orderBy: order, limit: 1)), writes: false)) {
            $0.first
        }
    }
}

extension StrataPlan where Output == [Record] {
    /// The records matching `filter` (all when nil), sorted by `order`, skipping `offset`, at most `limit`.
    public static func fetchAll(
        where filter: StrataFilter<Record>?, orderBy order: StrataSort<Record>?, limit: Int? = nil, offset: Int? = nil
    ) -> Self {
        let query = StrataSQL.select(Record.self, where: filter, orderBy: order, limit: limit, offset: offset)
        return .records(StrataCommand(.query(query), writes: false)) { $0 }
    }
}

extension StrataPlan where Output == Int {
    /// The number of records matching `filter` (all when nil).
    public static func count(where filter: StrataFilter<Record>?) -> Self {
        let query = StrataSQL.count(from: Record.strataTable.sql, where: filter?(Record.Columns()))
        return .integer(StrataCommand(.query(query), writes: false)) { Int($0) }
    }

    /// Sets columns of every record matching `filter` (all when nil); how many changed.
    public static func updateAll(
        where filter: StrataFilter<Record>?, set assignments: (Record.Columns) -> [StrataAssignment<Record>]
    ) -> Self {
        let columns = Record.Columns()
        guard let query = StrataSQL.update(Record.strataTable.sql, set: assignments(columns), where: filter?(columns))
        else { return .result(0) }
        return .changes(StrataCommand(.query(query), writes: true)) { $0 }
    }

    /// Deletes every record matching `filter` (all when nil); how many were deleted.
    public static func deleteAll(where filter: StrataFilter<Record>?) -> Self {
        let query = StrataSQL.delete(from: Record.strataTable.sql, where: filter?(Record.Columns()))
        return .changes(StrataCommand(.query(query), writes: true)) { $0 }
    }
}

extension StrataPlan where Output == Bool {
    /// True when a record matches `filter` (when there is any record, for nil).
    public static func exists(where filter: StrataFilter<Record>?) -> Self {
        let query = StrataSQL.exists(in: Record.strataTable.sql, where: filter?(Record.Columns()))
        return .integer(StrataCommand(.query(query), writes: false)) { $0 != 0 }
    }

    /// Replaces the stored record that has `record`'s key with `record`; false when there is none.
    public static func update(_ record: Record) -> Self {
        guard let key = record.strataKey else { return .result(false) }
        // A table whose columns are all its key has nothing to update: the record is stored or not.
        guard Record.strataTable.primaryKey.count < Record.strataTable.columns.count else {
            return .records(StrataCommand(.table(.find), binding: .key(key), writes: false)) { !$0.isEmpty }
        }
        return .changes(StrataCommand(.table(.update), binding: .record(record), writes: true)) { $0 > 0 }
    }

    /// Deletes the stored record that has `record`'s key; false when there is none.
    public static func delete(_ record: Record) -> Self {
        guard let key = record.strataKey else { return .result(false) }
        return delete(id: key)
    }

    /// Deletes the record with this key; false when there is none.
    public static func delete(id key: Record.Key) -> Self {
        .changes(StrataCommand(.table(.delete), binding: .key(key), writes: true)) { $0 > 0 }
    }
}

// MARK: Update chosen columns

extension StrataPlan where Output == Record? {
    /// Sets columns of the stored record with this key; the record as stored afterwards (nil
    /// when there is none), in one statement (`UPDATE … RETURNING`).
    public static func update(id key: Record.Key, set assignments: [StrataAssignment<Record>]) -> Self {
        guard !assignments.isEmpty else { return find(id: key) }
        let query = Record.strataTable.update(setting: assignments)
        return .records(StrataCommand(.query(query), binding: .key(key), writes: true)) { $0.first }
    }

    /// Changes the stored record that has `record`'s key as `change` changes a copy of `record`,
    /// writing only the columns whose values then differ (none: nothing is written); the record
    /// as stored afterwards (nil when there is none). The key is not changed.
    public static func updateChanges(_ record: Record, _ change: (inout Record) throws -> Void) rethrows -> Self {
        guard let key = record.strataKey else { return .result(nil) }
        var changed = record
        try change(&changed)
        return update(id: key, set: Record.strataTable.changes(from: record, to: changed))
    }

    /// Sets the given columns of the stored record that has `record`'s key (a nil entry changes
    /// nothing); the record as stored afterwards (nil when there is none).
    public static func update(_ record: Record, changing assignments: [StrataAssignment<Record>?]) -> Self {
        guard let key = record.strataKey else { return .result(nil) }
        return update(id: key, set: assignments.compactMap { $0 })
    }
}
