import PostgresNIO
import StrataRuntime

/// What generated named-query functions call on PostgreSQL: the query's SQL (its parameters
/// numbered `$1`, `$2`…), its parameters bound in order in PostgreSQL's binary format (values
/// always bound, never spliced into the SQL), its rows read by their type's `init(row:)`. The
/// counterpart of `StrataStatement` on SQLite:
///
/// ```swift
/// try await StrataPostgresStatement(connection, sql: MyTODOPostgresQueries.filteredItems) {
///     try $0.bind(isDone)
/// }
/// .fetchAll(TODOItem.self)
/// ```
public struct StrataPostgresStatement: Sendable {
    /// The connection it runs on.
    public let connection: PostgresConnection
    /// The SQL and its bound parameters.
    public let query: PostgresQuery

    /// The statement `sql` on `connection`, with parameters `$1`… bound by `bind`.
    @inlinable
    public init(
        _ connection: PostgresConnection, sql: String,
        binding bind: (inout PostgresBindings) throws -> Void = { _ in }
    ) throws {
        var bindings = PostgresBindings()
        try bind(&bindings)
        self.connection = connection
        query = PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// Every row, each read as `Row`.
    @inlinable
    public func fetchAll<Row: StrataRowDecodable>(_ type: Row.Type) async throws -> [Row] {
        var rows: [Row] = []
        for try await row in try await connection.query(query, logger: StrataPostgresLog.logger) {
            rows.append(try StrataPostgresRow.decode(Row.self, row))
        }
        return rows
    }

    /// Runs the statement to completion and returns how many rows it changed (the count of the
    /// server's command tag: `UPDATE 2`), 0 for a statement that reports none.
    @inlinable
    @discardableResult
    public func executeCountingChanges() async throws -> Int {
        let result: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: StrataPostgresLog.logger)
        return try await result.get().metadata.rows ?? 0
    }
}
