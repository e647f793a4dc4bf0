import Foundation

/// Where and how to connect to PostgreSQL, read from a URL in libpq's form:
/// `postgres://user:password@host:port/database?sslmode=disable&host=/socket/folder`.
public struct PostgresURL: Hashable, Sendable, CustomStringConvertible {
    /// TLS use, as libpq's `sslmode` names it.
    public enum TLSMode: String, Sendable, Hashable {
        /// No TLS (also used for `allow`).
        case disable
        /// TLS when the server offers it, without certificate verification: the default of a URL
        /// without `sslmode`, as in libpq.
        case prefer
        /// TLS required, without certificate verification.
        case require
        /// TLS required, with full certificate verification (also used for `verify-ca`).
        case verifyFull = "verify-full"
    }

    /// The host name or address, when connecting over TCP.
    public var host: String
    /// The port (5432 unless given).
    public var port: Int
    /// The folder of the server's Unix socket, when the URL names one (`?host=/folder`).
    public var socketFolder: String?
    /// The user name.
    public var user: String
    /// The password, if any.
    public var password: String?
    /// The database name (the user name when not given, as in libpq).
    public var database: String
    /// TLS use.
    public var tls: TLSMode
    /// How long to wait for the server to accept the connection and log in, in seconds: the
    /// URL's `connect_timeout` (as in libpq), 10 when not given.
    public var connectTimeout: Int = 10

    /// The problem with a URL that cannot be used.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        /// What is wrong.
        public var description: String
    }

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 5432, socketFolder: String? = nil, user: String,
        password: String? = nil,
        database: String, tls: TLSMode = .disable
    ) {
        self.host = host
        self.port = port
        self.socketFolder = socketFolder
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Reads a `postgres://` or `postgresql://` URL. Without `sslmode`, TLS is `prefer` (libpq's
    /// default); over a Unix socket (`?host=/folder`) it is `disable`.
    public init(parsing text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else { throw Invalid(description: "not a postgres:// URL: \(Self.redacted(text))") }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        user = components.user.flatMap { $0.removingPercentEncoding } ?? query["user"] ?? "postgres"
        password = components.password.flatMap { $0.removingPercentEncoding } ?? query["password"]
        host = components.host.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        port = try Self.port(in: text, components: components, query: query["port"])
        if let seconds = query["connect_timeout"] {
            guard let value = Int(seconds), value > 0, value <= 3_600 else {
                throw Invalid(
                    description: "connect_timeout must be a whole number of seconds from 1 to 3600, not '\(seconds)'")
            }
            connectTimeout = value
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? query["dbname"] ?? user
        if let socket = query["host"], socket.hasPrefix("/") {
            socketFolder = socket
        } else {
            if let name = query["host"], !name.isEmpty { host = name }
            socketFolder = nil
        }
        switch query["sslmode"] ?? (socketFolder == nil ? "prefer" : "disable") {
        case "disable", "allow": tls = .disable
        case "prefer": tls = .prefer
        case "require": tls = .require
        case "verify-ca", "verify-full": tls = .verifyFull
        case let other: throw Invalid(description: "unknown sslmode '\(other)'")
        }
    }

    /// The URL, with the password hidden.
    public var description: String {
        var text = "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
        if let socketFolder { text += "?host=\(socketFolder)" }
        return text
    }

    /// The same server, another database.
    public func database(_ name: String) -> PostgresURL {
        var copy = self
        copy.database = name
        return copy
    }

    /// The URL's port (from its authority, else `?port=`), 5432 when it has none. A port that is
    /// not a number from 1 to 65535 is refused, naming it: `URLComponents` would otherwise wrap
    /// 99999 around to 34463.
    private static func port(in text: String, components: URLComponents, query: String?) throws -> Int {
        var written = query
        if let range = components.rangeOfPort { written = String(text[range]) }
        guard let written, !written.isEmpty else { return 5432 }
        guard let port = Int(written), (1...65_535).contains(port), written.allSatisfy(\.isASCII) else {
            throw Invalid(description: "the port '\(written)' in \(redacted(text)) is not a number from 1 to 65535")
        }
        return port
    }

    private static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "(invalid URL)"
    }
}
