import GRDB

/// What generated named-query functions call: the query's SQL as a cached statement, its
/// parameters bound in order (values always bound, never spliced into the SQL), its rows read by
/// their type's `init(row:)`.
extension StrataStatement {
    /// The connection's cached statement for `sql`, with parameters 1… bound by `bind`:
    /// `StrataStatement(db, sql: sql) { try $0.bind(isDone, title) }`.
    @inlinable
    public init(_ db: Database, sql: String, binding bind: (inout StrataSQLiteArguments) throws -> Void) throws {
        try self.init(db, sql: sql)
        var arguments = StrataSQLiteArguments(handle)
        try bind(&arguments)
    }

    /// Every row, each read as `Row`.
    @inlinable
    public func fetchAll<Row: StrataRowDecodable>(_ type: Row.Type) throws -> [Row] {
        try fetchAll { try StrataSQLiteRow.decode(Row.self, $0) }
    }

    /// The first row read as `Row`, or nil when there is none.
    @inlinable
    public func fetchOne<Row: StrataRowDecodable>(_ type: Row.Type) throws -> Row? {
        try fetchOne { try StrataSQLiteRow.decode(Row.self, $0) }
    }

    /// Runs the statement to completion and returns how many rows it changed.
    @inlinable
    @discardableResult
    public func executeCountingChanges() throws -> Int {
        try execute()
        return db.changesCount
    }
}
