import PostgresNIO

/// What a PostgresNIO error says, in words: the server's message with its detail and hint, or
/// the client's error code (PostgresNIO's own descriptions hide the server's message).
public struct PostgresServerMessage: Sendable, CustomStringConvertible {
    /// The server's SQLSTATE code (`28P01` for a wrong password), when the server reported one.
    public var sqlState: String?
    /// The client-side error code when the server sent no error (`connectionError`,
    /// `authMechanismRequiresPassword`, …).
    public var clientCode: PSQLError.Code?
    /// The readable text: `ERROR: message` with `DETAIL:` and `HINT:` lines, or the client error.
    public var description: String

    /// Reads `error`.
    public init(_ error: any Error) {
        if let error = error as? PSQLError, let info = error.serverInfo {
            sqlState = info[.sqlState]
            clientCode = nil
            var parts = ["\(info[.severity] ?? "ERROR"): \(info[.message] ?? "unknown error")"]
            if let detail = info[.detail] { parts.append("DETAIL: \(detail)") }
            if let hint = info[.hint] { parts.append("HINT: \(hint)") }
            description = parts.joined(separator: "\n")
        } else if let error = error as? PSQLError {
            sqlState = nil
            clientCode = error.code
            description = "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        } else {
            sqlState = nil
            clientCode = nil
            description = String(describing: error)
        }
    }

    /// True when the server refused the credentials (SQLSTATE class 28: a wrong password, a user
    /// that may not log in) or asked for a password that was not given.
    public var isAuthenticationFailure: Bool {
        if let sqlState { return sqlState.hasPrefix("28") }
        guard let clientCode else { return false }
        return [.authMechanismRequiresPassword, .saslError, .unsupportedAuthMechanism].contains(clientCode)
    }

    /// True when the error means the connection is gone (closed by the server, a network error),
    /// rather than a statement that failed on a working connection.
    public var isConnectionLost: Bool {
        // Class 08 (connection exception) and 57P01…57P03 (the server shutting down).
        if let sqlState { return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") }
        guard let clientCode else { return false }
        return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(
            clientCode)
    }
}
