import StrataStorage

extension SQLDialect {
    /// The column type that stores values of `encoding` (decided by ``ColumnEncoding``, shared with the runtime).
    public func columnType(_ encoding: ColumnEncoding) -> String {
        rules.columnType(encoding)
    }

    /// The column type of a field: its `sqlType` for this dialect when it has one, else the type
    /// that stores its own type, its enum's raw type, or the referenced key's type.
    public func columnType(of field: Field, in schema: Schema) -> String {
        if let sqlType = field.sqlType.flatMap(rules.sql) { return sqlType }
        if let element = schema.arrayElementStorage(of: field) { return rules.arrayColumnType(of: element.encoding) }
        return columnType(schema.columnEncoding(of: field), dateText: field.dateText)
    }

    /// The column type that stores values of `encoding`, or, with `dateText`, a Date declared with
    /// `format:` (ISO 8601 text in SQLite).
    public func columnType(_ encoding: ColumnEncoding, dateText: SQLiteDateText?) -> String {
        dateText.map(rules.columnType(dateText:)) ?? columnType(encoding)
    }

    /// Why a column declared `declaredType` would not keep values of `encoding` as the runtime
    /// binds and reads them (with `dateText`, a Date's ISO 8601 text), or nil when it does.
    public func storageProblem(declaredType: String, for encoding: ColumnEncoding, dateText: SQLiteDateText?) -> String? {
        if let dateText { return rules.storageProblem(declaredType: declaredType, dateText: dateText) }
        return rules.storageProblem(declaredType: declaredType, for: encoding)
    }
}

extension Schema {
    /// How a field's column stores its values (`String` when the type cannot be resolved, which validation prevents).
    public func columnEncoding(of field: Field) -> ColumnEncoding {
        (storageType(of: field) ?? .string).encoding
    }
}
