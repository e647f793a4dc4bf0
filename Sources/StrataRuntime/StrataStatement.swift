import GRDBSQLite

/// A cached prepared statement of a connection, reset and ready to bind: what generated code
/// runs. Bind with ``StrataBind`` on ``handle`` (1-based), then ``execute()`` or fetch; columns
/// are read by index with ``StrataRead``.
///
/// Execution goes through GRDB's statement machinery (so transaction observers and
/// `ValueObservation` see every change and read), without GRDB's argument arrays.
public struct StrataStatement {
    /// The GRDB statement, from the connection's statement cache.
    public let statement: Statement
    @usableFromInline
    let runner: StrataRowCursor<Void>

    /// The raw SQLite statement, to bind parameters to.
    @inlinable
    public var handle: SQLiteStatement { statement.sqliteStatement }

    /// The connection's cached statement for `sql`, reset, with no parameter bound.
    @inlinable
    public init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        runner = StrataRowCursor(statement: statement) { _ in }
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    /// The connection's cached statement for a query, with its arguments bound.
    @inlinable
    public init(_ db: Database, _ query: StrataSQL) throws {
        try self.init(db, sql: query.sql)
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
        var index = index
        for argument in arguments {
            try argument.bind(to: handle, at: index)
            index += 1
        }
    }

    /// Runs the statement to completion (an INSERT, UPDATE or DELETE).
    @inlinable
    public func execute() throws {
        runner._isDone = false
        try runner.forEach { _ in }
    }

    /// Every row, decoded.
    @inlinable
    public func fetchAll<Element>(_ decode: (SQLiteStatement) throws -> Element) throws -> [Element] {
        try withoutActuallyEscaping(decode) { decode in
            var elements: [Element] = []
            try StrataRowCursor(statement: statement, decode: decode).forEach { elements.append($0) }
            return elements
        }
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
