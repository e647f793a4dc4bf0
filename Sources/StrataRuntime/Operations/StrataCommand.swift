/// One statement an operation runs on `Record`'s table, and what its caller binds: a database's
/// executor prepares it in its dialect, binds it, steps it and reads its rows.
public struct StrataCommand<Record: StrataRecord>: Sendable {
    /// The SQL: one of the table's own statements, or a fragment.
    public enum Statement: Sendable {
        /// One of ``StrataTableStatements``, bound to a whole record or to a key.
        case table(StrataTableStatementKind)
        /// A fragment with its values; a key's parameters follow them when ``Binding/key(_:)``.
        case query(StrataSQL)
    }

    /// What the caller binds after the statement's own values.
    public enum Binding: Sendable {
        /// Nothing.
        case none
        /// Every column of the record, in field order.
        case record(Record)
        /// The primary key, in key order.
        case key(Record.Key)
    }

    /// The statement.
    public let statement: Statement
    /// What is bound to it.
    public let binding: Binding
    /// True when it changes the database (runs in a transaction rather than a read).
    public let writes: Bool

    /// A command.
    public init(_ statement: Statement, binding: Binding = .none, writes: Bool) {
        self.statement = statement
        self.binding = binding
        self.writes = writes
    }
}

/// The table's own statements (``StrataTableStatements``).
public enum StrataTableStatementKind: String, Sendable, CaseIterable {
    case insert, upsert, find, delete, update

    /// The statement of this kind among `statements` (nil: an update of a table whose columns
    /// are all its key).
    public func sql(in statements: StrataTableStatements) -> String? {
        switch self {
        case .insert: statements.insert
        case .upsert: statements.upsert
        case .find: statements.find
        case .delete: statements.delete
        case .update: statements.update
        }
    }
}
