import StrataStorage

extension SQLDialect {
    /// The column type that stores values of `encoding` (decided by ``ColumnEncoding``, shared with the runtime).
    public func columnType(_ encoding: ColumnEncoding) -> String {
        rules.columnType(encoding)
    }

    /// The column type of a field: its `sqlType` for this dialect when it has one, else the type
    /// that stores its own type, its enum's raw type, or the referenced key's type.
    public func columnType(of field: Field, in schema: Schema) -> String {
        field.sqlType.flatMap(rules.sql)
            ?? field.dateText.map(rules.columnType(dateText:)) ?? columnType(schema.columnEncoding(of: field))
    }
}

extension Schema {
    /// How a field's column stores its values (`String` when the type cannot be resolved, which validation prevents).
    public func columnEncoding(of field: Field) -> ColumnEncoding {
        (storageType(of: field) ?? .string).encoding
    }
}
