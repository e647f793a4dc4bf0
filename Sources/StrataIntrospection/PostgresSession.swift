import Foundation
import PostgresNIO
import StrataCore
import StrataPostgres
import StrataSQLText

/// A connection to a PostgreSQL server, for running DDL scripts and reading rows: the small
/// client the tests and `strata verify` use, over PostgresNIO.
///
/// Every session uses the UTC time zone, so that timestamps (and `timestamptz` defaults in the
/// catalog) print the same on any machine.
public final class PostgresSession: Sendable {
    /// The underlying PostgresNIO connection, for queries this type does not wrap.
    public let connection: PostgresConnection
    /// Where the session is connected.
    public let url: PostgresURL
    private let logger: Logger

    private init(connection: PostgresConnection, url: PostgresURL, logger: Logger) {
        self.connection = connection
        self.url = url
        self.logger = logger
    }

    /// Connects to the server and database of a `postgres://` URL.
    public static func connect(url text: String) async throws -> PostgresSession {
        try await connect(to: PostgresURL(parsing: text))
    }

    /// Connects to the server and database of `url`.
    public static func connect(to url: PostgresURL) async throws -> PostgresSession {
        let logger = {
            var logger = Logger(label: "strata.postgres")
            logger.logLevel = .critical
            return logger
        }()
        var configuration: PostgresConnection.Configuration
        if let folder = url.socketFolder {
            configuration = PostgresConnection.Configuration(
                unixSocketPath: "\(folder)/.s.PGSQL.\(url.port)", username: url.user, password: url.password,
                database: url.database)
        } else {
            configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: try tls(url.tls))
        }
        configuration.options.connectTimeout = .seconds(Int64(url.connectTimeout))
        let connection: PostgresConnection
        do {
            // PostgresNIO's own limit covers the TCP connection and the login; this one the rest.
            let limit = Duration.seconds(url.connectTimeout + 1)
            connection = try await withStrataDeadline(limit, waitingFor: "connecting") { [configuration, logger] in
                try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            }
        } catch {
            throw PostgresSessionError(statement: nil, underlying: error, context: "cannot connect to \(url)")
        }
        let session = PostgresSession(connection: connection, url: url, logger: logger)
        do {
            try await withStrataDeadline(.seconds(url.connectTimeout), waitingFor: "setting the time zone") {
                [connection] in
                try await connection.strataExecute("SET TIME ZONE 'UTC'", logger: logger)
            }
        } catch {
            try? await connection.close()
            throw PostgresSessionError(statement: nil, underlying: error, context: "cannot connect to \(url)")
        }
        return session
    }

    private static func tls(_ mode: PostgresURL.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        var unverified = TLSConfiguration.makeClientConfiguration()
        unverified.certificateVerification = .none
        switch mode {
        case .disable: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: unverified))
        case .require: return .require(try NIOSSLContext(configuration: unverified))
        case .verifyFull: return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    /// Closes the connection.
    public func close() async throws {
        try await connection.close()
    }

    /// Runs one statement and discards its rows.
    public func execute(_ sql: String) async throws {
        _ = try await rows(PostgresQuery(unsafeSQL: sql))
    }

    /// Runs every statement of a script in order (PostgresNIO sends one statement at a time;
    /// ``SQLScriptSplitter`` splits the script). With `inTransaction`, all of it or nothing.
    /// A failing statement is named in the error.
    public func executeScript(_ script: String, inTransaction: Bool = false) async throws {
        let statements: [String]
        do {
            statements = try SQLScriptSplitter.statements(script, dialect: .postgres)
        } catch {
            throw PostgresSessionError(statement: nil, underlying: error, context: "cannot split the script")
        }
        try await executeStatements(statements, inTransaction: inTransaction)
    }

    /// Runs statements in order; with `inTransaction`, all of them or none.
    public func executeStatements(_ statements: [String], inTransaction: Bool = false) async throws {
        if inTransaction { try await execute("BEGIN") }
        do {
            for statement in statements { try await execute(statement) }
            if inTransaction { try await execute("COMMIT") }
        } catch {
            if inTransaction { try? await execute("ROLLBACK") }
            throw error
        }
    }

    /// The rows of a query; values are bound with PostgresNIO's interpolation (`"… WHERE x = \(value)"`).
    public func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        do {
            return try await connection.strataRows(query, logger: logger)
        } catch {
            throw PostgresSessionError(statement: query.sql, underlying: error, context: nil)
        }
    }

    /// The rows of a query given as SQL text, without parameters.
    public func rows(sql: String) async throws -> [PostgresRow] {
        try await rows(PostgresQuery(unsafeSQL: sql))
    }

    /// The rows of a query given as SQL text whose columns are all text (cast them with `::text`).
    public func textRows(sql: String) async throws -> [[String?]] {
        try await textRows(PostgresQuery(unsafeSQL: sql))
    }

    /// The rows of a query whose columns are all text (cast them with `::text`), as strings.
    public func textRows(_ query: PostgresQuery) async throws -> [[String?]] {
        let rows = try await rows(query)
        do {
            return try rows.map { row in try row.map { cell in try cell.decode(String?.self) } }
        } catch {
            throw PostgresSessionError(statement: query.sql, underlying: error, context: "cannot read the rows as text")
        }
    }
}

/// A failure of a PostgreSQL statement, with the server's own message (PostgresNIO's errors
/// hide it from their description).
public struct PostgresSessionError: Error, CustomStringConvertible, @unchecked Sendable {
    /// The statement that failed, if any.
    public var statement: String?
    /// The server's SQLSTATE code (`23514` for a check violation), when the server reported one.
    public var sqlState: String?
    /// A readable message: the server's message, detail and hint, or the client error.
    public var message: String
    /// The original error.
    public var underlying: any Error

    init(statement: String?, underlying: any Error, context: String?) {
        self.statement = statement
        self.underlying = underlying
        let server = PostgresServerMessage(underlying)
        sqlState = server.sqlState
        message = ([context].compactMap { $0 } + [server.description]).joined(separator: "\n")
    }

    /// True when the server refused the credentials (see ``PostgresServerMessage/isAuthenticationFailure``).
    public var isAuthenticationFailure: Bool { PostgresServerMessage(underlying).isAuthenticationFailure }

    public var description: String {
        guard let statement else { return message }
        return message + "\nin statement:\n" + statement
    }
}
