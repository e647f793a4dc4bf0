/// The checks of what a field says about its column in SQL: `sqlType`, a default expression and
/// `check`.
extension SchemaValidator {
    static func checkDeclaredColumn(_ field: Field, in schema: Schema, _ bag: inout DiagnosticBag) {
        if let sqlType = field.sqlType, field.type.arrayElement != nil {
            bag.error(
                "'sqlType' of '\(field.name)': an array field's column type is Strata's own (a JSON array's TEXT on SQLite, a native array on PostgreSQL)",
                at: sqlType.location)
        } else if let sqlType = field.sqlType {
            let encoding = schema.columnEncoding(of: field)
            for dialect in SQLDialect.allCases {
                guard let declared = dialect.rules.sql(sqlType) else { continue }
                if let problem = dialect.storageProblem(declaredType: declared, for: encoding, dateText: field.dateText) {
                    bag.error("'sqlType' of '\(field.name)': \(problem)", at: sqlType.location)
                }
            }
        }
        if field.dateText != nil, let location = field.dateTextLocation,
            field.referencedEntity != nil || schema.columnEncoding(of: field) != .date
        {
            bag.error(
                "'format' of '\(field.name)': only a Date field is stored as ISO 8601 text; '\(field.name)' is of type \(field.type)",
                at: location)
        }
        if let check = field.check, DDLRenderer(dialect: .sqlite).allowedValues(of: field, in: schema) != nil
            || DDLRenderer(dialect: .postgres).allowedValues(of: field, in: schema) != nil
        {
            bag.error(
                "'check' on '\(field.name)': a \(field.type) field is already checked against its values; declare the condition on another field",
                at: check.location)
        }
    }
}
