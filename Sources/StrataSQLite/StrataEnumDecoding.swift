import GRDB
import GRDBSQLite
import StrataRuntime

extension StrataRead {
    /// The case of an enum without an `unknown` case whose raw value is `raw`; a raw value that
    /// matches no case throws ``StrataDecodingError/unknownEnumValue(column:type:rawValue:)``.
    @inlinable
    public static func enumCase<E: RawRepresentable>(
        _ type: E.Type,
        _ raw: E.RawValue,
        _ statement: SQLiteStatement,
        _ index: Int32
    ) throws -> E {
        guard let value = E(rawValue: raw) else {
            throw StrataDecodingError.unknownEnumValue(
                column: columnName(statement, index),
                type: String(describing: E.self),
                rawValue: String(describing: raw)
            )
        }
        return value
    }
}
