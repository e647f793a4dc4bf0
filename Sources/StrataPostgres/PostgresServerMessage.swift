import Foundation
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

    /// True for Strata's own lost-connection errors (a closed connection, a wait past its deadline).
    private var isClosedConnection = false

    /// Reads `error`.
    public init(_ error: any Error) {
        isClosedConnection = error is PostgresConnectionClosed || error is StrataDeadlineExceeded
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
            description = Self.words(for: error.code, underlying: error.underlying)
        } else {
            sqlState = nil
            clientCode = nil
            description = Self.words(for: error)
        }
    }

    /// The message on one line: its lines joined with "; ".
    public var oneLine: String { description.split(whereSeparator: \.isNewline).joined(separator: "; ") }

    /// A client-side PostgresNIO error in words (its own description is a type name such as
    /// `authMechanismRequiresPassword`, or NIO's `SingleConnectionFailure(...)`): the one place
    /// where such errors become what a user reads.
    static func words(for code: PSQLError.Code, underlying: (any Error)?) -> String {
        let cause = underlying.map { ": " + words(for: $0) } ?? ""
        switch code {
        case .sslUnsupported: return "the server does not offer TLS"
        case .failedToAddSSLHandler: return "TLS could not be set up" + cause
        case .receivedUnencryptedDataAfterSSLRequest: return "the server answered the TLS request without TLS"
        case .messageDecodingFailure, .unexpectedBackendMessage, .invalidCommandTag:
            return "the server sent a message the client does not understand (is it PostgreSQL?)"
        case .unsupportedAuthMechanism:
            return "the server asks for an authentication method the client does not support (use a password or trust)"
        case .authMechanismRequiresPassword: return "the server asks for a password, and the URL gives none"
        case .saslError: return "the password authentication (SCRAM) failed" + cause
        case .queryCancelled: return "the statement was cancelled"
        case .tooManyParameters: return "the statement has more than 65535 parameters"
        case .clientClosedConnection: return "the connection to the server was closed"
        case .serverClosedConnection: return "the server closed the connection" + cause
        case .connectionError: return "cannot reach the server" + cause
        case .uncleanShutdown: return "the connection to the server ended abruptly"
        default: return "the PostgreSQL client failed (\(code))" + cause
        }
    }

    /// A network or other error in words: `connection refused`, `cannot resolve the host name …`.
    static func words(for error: any Error) -> String {
        if let error = error as? PSQLError { return PostgresServerMessage(error).description }
        if let error = error as? NIOConnectionError {
            if let dns = error.dnsAError ?? error.dnsAAAAError {
                return "cannot resolve the host name \(error.host): \(words(for: dns))"
            }
            if let first = error.connectionErrors.first {
                return "\(first.target.ipAddress ?? error.host):\(error.port): \(words(for: first.error))"
            }
            return "cannot connect to \(error.host):\(error.port)"
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout(let limit):
                return "no answer within \(limit.nanoseconds / 1_000_000_000) s (connect_timeout)"
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed:
                return "the connection to the server was closed"
            default: return "\(error)"
            }
        }
        if error is NIOSSLError || error is BoringSSLError { return "TLS failed: \(error)" }
        return String(describing: error)
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
        guard let clientCode else { return isClosedConnection }
        return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(
            clientCode)
    }
}
