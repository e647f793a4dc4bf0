import GRDB
import GRDBSQLite
import StrataRuntime

/// A GRDB cursor that turns each row of a statement into an element with a decoding function.
/// Going through GRDB's cursor machinery keeps transaction observation and the region tracking
/// of `ValueObservation` working, while the decoding reads columns by index on the raw statement.
@usableFromInline
final class StrataRowCursor<Element>: DatabaseCursor {
    /// The statement being stepped.
    @usableFromInline let _statement: Statement
    /// True once the statement returned `SQLITE_DONE`.
    @usableFromInline var _isDone = false
    @usableFromInline
    let decode: (SQLiteStatement) throws -> Element

    /// Creates a cursor over a statement whose parameters are bound and which is reset.
    @inlinable
    init(statement: Statement, decode: @escaping (SQLiteStatement) throws -> Element) {
        self._statement = statement
        self.decode = decode
    }

    /// Decodes the current row.
    @inlinable
    func _element(sqliteStatement: SQLiteStatement) throws -> Element {
        try decode(sqliteStatement)
    }
}
