/// A command a database's executor cannot run: a plan built by hand that does not match its
/// table (the runtime's own plans never are).
public enum StrataCommandError: Error, CustomStringConvertible, Sendable {
    /// The table has no statement of this kind (an update of a table whose columns are all its key).
    case noStatement(StrataTableStatementKind)
    /// A store command without a record to store.
    case noRecord

    public var description: String {
        switch self {
        case .noStatement(let kind): "the table has no \(kind.rawValue) statement: every column is part of its key"
        case .noRecord: "a store command has no record to store"
        }
    }
}
