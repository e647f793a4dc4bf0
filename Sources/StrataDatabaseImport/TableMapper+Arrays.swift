import StrataCore
import StrataIntrospection

extension TableMapper {
    /// A PostgreSQL array column whose elements Strata stores (`text[]`, `bigint[]`, `uuid[]`…:
    /// ``ColumnEncoding/isArrayElement``) as an array field (`"[String]"`); nil for any other
    /// column. An empty array default (`'{}'::text[]`) becomes `default: []`, any other default
    /// is kept as SQL.
    func arrayField(of column: DatabaseSchema.Column) -> ImportedField? {
        guard dialect == .postgres, column.type.hasSuffix("[]") else { return nil }
        let elementType = String(column.type.dropLast(2))
        guard !elementType.hasSuffix("]"), let element = ImportedColumnType.exact(elementType, dialect: .postgres),
            element.isArrayElement
        else { return nil }
        var field = ImportedField(
            name: ImportedNames.field(column.name), type: "[\(element.name)]",
            isOptional: column.isNullable && !keyColumns.contains(column.name))
        if let value = column.defaultValue {
            if value == "'{}'" || value.hasPrefix("'{}'::") {
                field.defaultValue = "[]"
            } else {
                field.sqlDefault = ImportedSQL(dialect: dialect.rawValue, text: value)
            }
        }
        return field
    }
}
