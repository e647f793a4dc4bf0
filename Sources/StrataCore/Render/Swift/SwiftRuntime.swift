import StrataStorage

/// The runtime module that generated Swift uses on one database, and the names it calls: what
/// differs between the SQLite and PostgreSQL Swift output. Each dialect's rules give one
/// (``SQLDialectRules/swift``), so a new database is a new value, not a new renderer.
public struct SwiftRuntime: Sendable {
    /// The module generated code imports (`StrataSQLite`).
    public var module: String
    /// The database client's module (`GRDB`, `PostgresNIO`), which the runtime does not
    /// re-export: imported by the generated files that name its types.
    public var clientModule: String
    /// What the model's database and access types are prefixed with (`MyTODO` + prefix + `Database`).
    public var typePrefix: String
    /// The record protocol entity structs conform to, beyond `StrataRecord` (`PostgresRecord`),
    /// or nil when the database needs no more.
    public var recordProtocol: String?
    /// The store protocol whose extensions hold the per-entity methods.
    public var store: String
    /// The store on one connection.
    public var access: String
    /// The store on the database.
    public var repository: String
    /// True when every operation is `async`.
    public var isAsync: Bool
    /// True when the repository observes queries (`observe(id:)`).
    public var observes: Bool
    /// The stored types whose values come back changed from the database (`Date` on PostgreSQL, to
    /// the microsecond): a record with such fields gets `strataStored`, the record as stored, so that
    /// an insert need not read it back. Empty when every value is stored exactly.
    public var inexactEncodings: Set<ColumnEncoding>
    /// The statement of a named query whose SQL is the expression `sql`, on the access type's
    /// connection: `StrataStatement(db, sql: MyTODOQueries.filteredItems)`.
    public var queryStatement: @Sendable (_ sql: String) -> String

    /// `throws` or `async throws`.
    var effects: String { isAsync ? "async throws" : "throws" }
    /// `try` or `try await`.
    var call: String { isAsync ? "try await" : "try" }
}
