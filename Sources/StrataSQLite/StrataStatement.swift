import GRDB
import GRDBSQLite
import StrataRuntime

/// A cached prepared statement of a connection, reset and ready to bind: what generated code
/// runs. Bind with ``StrataBind`` on ``handle`` (1-based), then ``execute()`` or fetch; columns
/// are read by index with ``StrataRead``.
///
/// Execution goes through GRDB's statement machinery (so transaction observers and
/// `ValueObservation` see every change and read), without GRDB's argument arrays.
public struct StrataStatement {
    /// The GRDB statement, from the connection's statement cache.
    public let statement: Statement
    /// The connection.
    public let db: Database
    @usableFromInline
    let runner: StrataRowCursor<Void>

    /// The raw SQLite statement, to bind parameters to.
    @inlinable
    public var handle: SQLiteStatement { statement.sqliteStatement }

    /// The connection's cached statement for `sql`, reset, with no parameter bound.
    @inlinable
    public init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.cachedStatement(sql: sql)
        runner = StrataRowCursor(statement: statement) { _ in }
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    /// The connection's cached statement for a query, with its arguments bound.
    @inlinable
    public init(_ db: Database, _ query: StrataSQL) throws {
        try self.init(db, sql: query.sql(SQLiteDialect.self))
        try bind(query.arguments)
    }

    /// Resets the statement so that it can be bound and run again (bindings are kept until rebound).
    @inlinable
    public func reset() {
        // The result repeats the last step's error, which was already reported.
        _ = sqlite3_reset(statement.sqliteStatement)
    }

    /// Binds values to consecutive parameters, starting at `index` (1-based).
    @inlinable
    public func bind(_ arguments: [StrataSQLValue], from index: Int32 = 1) throws {
        var binder = StrataSQLiteArguments(handle, from: index)
        try binder.bind(arguments)
    }

    /// Runs the statement to completion (an INSERT, UPDATE or DELETE).
    @inlinable
    public func execute() throws {
        runner._isDone = false
        try runner.forEach { _ in }
    }

    /// Runs the statement once per element, bound by `bind`, all in one savepoint (a transaction
    /// when none is open), calling `afterEach` after each run: what batch inserts use.
    ///
    /// The first run goes through GRDB (access checks; transaction observers see its change); the
    /// others are stepped directly, and transaction observers are then told of changes with
    /// `Database.notifyChanges(in:)`, GRDB's way of reporting changes made through the C API: every
    /// `ValueObservation` refreshes after the commit. Saves GRDB's per-statement bookkeeping on
    /// each row, the largest cost of a batch after SQLite's own.
    @inlinable
    public func executeEach<S: Sequence>(
        _ elements: S,
        bind: (S.Element, SQLiteStatement) throws -> Void,
        afterEach: (S.Element) throws -> Void = { _ in }
    ) throws {
        try db.inSavepoint {
            let handle = self.handle
            var count = 0
            for element in elements {
                reset()
                try bind(element, handle)
                if count == 0 {
                    try execute()
                } else {
                    let code = sqlite3_step(handle)
                    if code != SQLITE_DONE { throw StrataStatement.stepError(handle, code) }
                }
                count += 1
                try afterEach(element)
            }
            reset()
            if count > 1 { try db.notifyChanges(in: .fullDatabase) }
            return .commit
        }
    }

    /// Every row, decoded.
    ///
    /// The first step goes through GRDB, which checks the access and records the region the
    /// statement reads (so `ValueObservation` tracks it); the other rows are stepped directly,
    /// with `decode` called in the loop: no per-row work beyond SQLite's and the decoding.
    @inlinable
    public func fetchAll<Element>(_ decode: (SQLiteStatement) throws -> Element) throws -> [Element] {
        var elements: [Element] = []
        try forEach { elements.append(try decode($0)) }
        return elements
    }

    /// Calls `body` on each row, in order: rows consumed as they are read (children grouped by
    /// their parent) need no array of them. Stepped as ``fetchAll(_:)`` says.
    ///
    /// `body` is called directly, never stored: the variables it changes (the array of
    /// ``fetchAll(_:)``) are checked for exclusive access once, at compile time, not on every row.
    @inlinable
    public func forEach(_ body: (SQLiteStatement) throws -> Void) throws {
        defer { reset() }
        runner._isDone = false
        guard try runner.next() != nil else { return }
        let handle = self.handle
        try body(handle)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW {
                try body(handle)
            } else if code == SQLITE_DONE {
                return
            } else {
                throw StrataStatement.stepError(handle, code)
            }
        }
    }

    /// The error of a failed step, as GRDB reports it.
    @usableFromInline
    static func stepError(_ handle: SQLiteStatement, _ code: Int32) -> DatabaseError {
        let message = sqlite3_db_handle(handle).flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        let sql = sqlite3_sql(handle).map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }

    /// The first row, decoded, or nil when there is none.
    @inlinable
    public func fetchOne<Element>(_ decode: (SQLiteStatement) throws -> Element) throws -> Element? {
        try withoutActuallyEscaping(decode) { decode in
            let cursor = StrataRowCursor(statement: statement, decode: decode)
            defer { reset() }
            return try cursor.next()
        }
    }

    /// The integer of the first column of the first row (for `COUNT` and `EXISTS`), 0 when no row.
    @inlinable
    public func fetchInteger() throws -> Int64 {
        try fetchOne { statement in sqlite3_column_int64(statement, 0) } ?? 0
    }
}
