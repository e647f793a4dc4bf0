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
    /// True when the record conformances name the client's types (PostgreSQL's `PostgresBindings`).
    public var recordsUseClient: Bool
    /// What the model's database and access types are prefixed with (`MyTODO` + prefix + `Database`).
    public var typePrefix: String
    /// The record protocol entity structs conform to.
    public var recordProtocol: String
    /// The value protocol enums conform to.
    public var valueProtocol: String
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
    /// The parameter of the record initializer that reads a row.
    public var rowParameter: String
    /// How the initializer reads the cell at an index.
    public var cell: @Sendable (Int) -> String
    /// How the initializer reads the cell at an index of a Date field declared with `format:`,
    /// when the database stores it otherwise than a Date (SQLite: ISO 8601 text); nil to use `cell`.
    public var textDateCell: (@Sendable (Int, SQLiteDateText) -> String)?
    /// What a Date property declared with `format:` is bound as (SQLite: `StrataTextDate(p, .date)`);
    /// nil to bind the property itself.
    public var textDateBind: (@Sendable (String, SQLiteDateText) -> String)?
    /// The parameter of the bind functions.
    public var bindParameter: String
    /// The call that binds values in order.
    public var bindCall: String
    /// The statement that binds one value by itself (`try id.bind(to: &bindings)`), when that is
    /// cheaper than one variadic `bindCall` (PostgreSQL: a parameter pack across modules is not
    /// specialised, and costs a dynamic call per value); nil to use `bindCall`.
    public var bindEach: (@Sendable (String) -> String)?
    /// The stored types whose values come back changed from the database (`Date` on PostgreSQL, to
    /// the microsecond): a record with such fields gets `strataStored`, the record as stored, so that
    /// an insert need not read it back. Empty when every value is stored exactly.
    public var inexactEncodings: Set<ColumnEncoding>
    /// The protocol of what a named query reads from a row (records and generated row types).
    public var rowDecodable: String
    /// The statement of a named query whose SQL is the expression `sql`, on the access type's
    /// connection: `StrataStatement(db, sql: MyTODOQueries.filteredItems)`.
    public var queryStatement: @Sendable (_ sql: String) -> String
    /// The method of the statement's binding closure's argument that binds values in order.
    public var queryBind: String

    /// `throws` or `async throws`.
    var effects: String { isAsync ? "async throws" : "throws" }
    /// `try` or `try await`.
    var call: String { isAsync ? "try await" : "try" }
}
